// Isomap's reported residual variance and nldr::metrics::residual_variance draw their pairs from the
// one sampler (metrics/pairs.hpp): with the same max_pairs and seed they run over the same pairs.
#include "catch.hpp"

#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/isomap.hpp>
#include <nldr/embed/routines/geodesic_graph.hpp>
#include <nldr/metrics/residual_variance.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/neighbors/shortest_paths.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace metrics = nldr::metrics;

TEMPLATE_TEST_CASE("Isomap's residual variance is the metric's on the same pairs and seed", "[metrics][pairs][isomap]",
                   float, double) {
  const auto data = nldr::datasets::swiss_roll<TestType>({.n = 150, .noise = 0.3, .seed = 5});
  const auto graph = nldr::KNearest{8}(data.points);
  // The geodesics Isomap embeds, in its storage type (the input's).
  const nldr::Matrix<TestType> G = nldr::all_pairs_shortest_paths<TestType>(
      nldr::routines::geodesic_graph<TestType>(data.points, graph, nldr::EdgeLengths::euclidean));
  // Float: the metric sums the embedding's squared distances in float, Isomap in double.
  const double tolerance = std::is_same_v<TestType, float> ? 1e-5 : 1e-12;
  for (const std::int64_t budget : {std::int64_t(3000), std::int64_t(20000)}) {  // sampled; all 11175 pairs
    const auto iso = nldr::Isomap{{.dim = 2, .residual_pairs = budget, .seed = 4}}.fit(data.points, graph);
    const auto same = metrics::residual_variance(metrics::precomputed(G), iso.coordinates,
                                                 {.max_pairs = std::uint64_t(budget), .seed = 4});
    INFO("residual_pairs " << budget);
    CHECK(iso.residual_sampled == same.sampled);
    CHECK(std::uint64_t(iso.residual_pairs) == same.pairs);
    CHECK_THAT(iso.residual_variance, WithinAbs(same.value, tolerance));
    if (same.sampled) {  // another seed is another sample: the agreement above is not a coincidence
      const auto other = metrics::residual_variance(metrics::precomputed(G), iso.coordinates,
                                                    {.max_pairs = std::uint64_t(budget), .seed = 5});
      CHECK(std::abs(other.value - iso.residual_variance) > 10 * tolerance);
    }
  }
}
