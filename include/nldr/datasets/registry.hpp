// Data sets by name, as the command-line tool spells them ("swiss-roll", ...).
// Including this header includes every generator.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/names.hpp>
#include <nldr/core/types.hpp>
#include <nldr/datasets/clusters.hpp>
#include <nldr/datasets/dataset.hpp>
#include <nldr/datasets/helix.hpp>
#include <nldr/datasets/s_curve.hpp>
#include <nldr/datasets/surfaces.hpp>
#include <nldr/datasets/swiss_roll.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace nldr::datasets {

namespace detail {

template <Real T>
struct Generator {
  std::string_view name;
  Dataset<T> (*make)(const Options&);
};

/// The one list of built-in sets, in docs/algorithms.md sec. 5 order.
template <Real T>
inline constexpr std::array<Generator<T>, 11> generators{{
    {"swiss-roll", &swiss_roll<T>},
    {"s-curve", &s_curve<T>},
    {"swiss-hole", &swiss_hole<T>},
    {"punctured-sphere", &punctured_sphere<T>},
    {"twin-peaks", &twin_peaks<T>},
    {"gaussian", &gaussian<T>},
    {"clusters-3d", [](const Options& options) { return clusters_3d<T>(options); }},
    {"toroidal-helix", &toroidal_helix<T>},
    {"mobius", &mobius<T>},
    {"broken-s-curve", &broken_s_curve<T>},
    {"nonuniform-swiss-roll", &nonuniform_swiss_roll<T>},
}};

inline constexpr auto generator_names = [] {
  std::array<std::string_view, generators<double>.size()> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = generators<double>[i].name;
  return names;
}();

}  // namespace detail

/// Names of the built-in data sets, as accepted by generate().
inline std::span<const std::string_view> dataset_names() { return detail::generator_names; }

/// Generates the data set called `name` (one of dataset_names(), e.g. "swiss-roll").
/// Names are case-insensitive; an unknown one raises nldr::invalid_argument listing the valid ones
/// and the nearest.
///
/// \code
/// auto data = nldr::datasets::generate<float>("s-curve", {.n = 1500, .noise = 0.01, .seed = 3});
/// \endcode
template <Real T = double>
Dataset<T> generate(std::string_view name, const Options& options = {}) {
  const std::span<const detail::Generator<T>> table(detail::generators<T>);
  return nldr::detail::find_named(table, name, "name", "data set").make(options);
}

}  // namespace nldr::datasets
