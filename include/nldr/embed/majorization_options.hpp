// The public choices and outcomes of the stress-majorization embedders, nldr::Smacof and nldr::Sammon
// (docs/methods/smacof.md, sammon.md).
//
// What the hooks of both methods' options hear:
//  - `progress` (core/progress.hpp): each Guttman transform reports the fraction of the runs'
//    iteration budget used (a converged run jumps to its end), 1 at the end (docs/tool.md, "Progress
//    and logging");
//  - `on_iteration` (core/iteration.hpp): called after each Guttman transform, told the run ("run 0",
//    ...) as the phase, the raw stress as the objective and the configuration; returning false ends
//    the fit there (status stopped). With an observer, the runs go one after the other.
#pragma once

#include <nldr/core/described.hpp>

#include <array>
#include <cstdint>
#include <string_view>

namespace nldr {

/// How a stress-majorization fit ended.
enum class MajorizationStatus {
  converged,        ///< the relative stress decrease of one iteration fell below `tolerance` (or stress hit 0)
  iteration_limit,  ///< `max_iterations` Guttman transforms ran without that happening
  stopped,          ///< the options' `on_iteration` observer asked to stop (core/iteration.hpp)
};

/// Where the runs of a stress-majorization fit start.
enum class MajorizationInit {
  classical_mds,  ///< run 0 from classical (Torgerson) MDS of the dissimilarities, runs 1.. random
  random,         ///< every run from a seeded random Gaussian configuration
};

inline constexpr std::array<Choice<MajorizationInit>, 2> majorization_inits{
    {{"classical", MajorizationInit::classical_mds}, {"random", MajorizationInit::random}}};

/// Ties among the dissimilarities in non-metric MDS (Kruskal 1964; Borg & Groenen 2005, sec. 9.5).
enum class TieApproach {
  primary,    ///< tied dissimilarities may get unequal disparities (ordered like their distances)
  secondary,  ///< tied dissimilarities get one common disparity
};

inline constexpr std::array<Choice<TieApproach>, 2> tie_approaches{
    {{"primary", TieApproach::primary}, {"secondary", TieApproach::secondary}}};

/// The parameters SMACOF and Sammon share (core/described.hpp); `iteration` says what one step is.
template <class Visitor>
void describe_majorization_runs(Visitor& v, int& n_init, MajorizationInit& init, std::uint64_t& seed,
                                int& max_iterations, double& tolerance, std::string_view iteration) {
  v.number("n_init", n_init, {1, 1e6}, "runs from different starts; the least stress is kept");
  v.choice("init", init, majorization_inits, "start of the first run: classical MDS or random");
  v.number("seed", seed, seed_range, "random seed");
  v.number("max_iterations", max_iterations, {1, 1e9}, iteration);
  v.number("relative_tolerance", tolerance, {0, 1},
           "stop when one step lowers the stress by less than this fraction");
}

}  // namespace nldr
