#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/neighbors/rstar_box_index.hpp>
#include <nldr/neighbors/short_circuit_pruned.hpp>
#include <nldr/neighbors/statistics.hpp>

#include "catch.hpp"
#include "pruning_fixtures.hpp"

#include <atomic>
#include <cmath>
#include <limits>
#include <set>
#include <span>

using test_pruning::BruteCandidates;
using test_pruning::Pair;

namespace {

/// Literal Xia et al. 2008, sec. 4.1 over all pairs: S(x) = mean distance to the 2 nearest neighbors,
/// eps = min(S_i, S_j), C = points of X in the closed box [m - eps, m + eps] around the midpoint
/// (counted over all N points), candidate pair pruned iff C <= threshold. The box arithmetic is
/// the one the header documents (midpoint and faces rounded in T, S summed in double).
template <class T>
std::pair<std::set<Pair>, long> literal_short_circuit(const nldr::Matrix<T>& X, int k, int threshold) {
  const auto all = test_exact::sorted_pairs<T>(X);
  const auto lists = test_pruning::nearest(X, k);
  const int n = int(X.rows()), d = int(X.cols());
  std::vector<T> scale(n);
  for (int i = 0; i < n; ++i) scale[i] = T((double(all[i][0].first) + double(all[i][1].first)) / 2.0);
  std::set<Pair> kept;
  long rejected = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const bool ij = test_pruning::contains(lists[i], j), ji = test_pruning::contains(lists[j], i);
      if (!ij && !ji) continue;
      const T eps = std::min(scale[i], scale[j]);
      int count = 0;
      for (int p = 0; p < n; ++p) {
        bool inside = true;
        for (int c = 0; c < d; ++c) {
          const T mid = (X(i, c) + X(j, c)) / T(2);
          inside = inside && mid - eps <= X(p, c) && X(p, c) <= mid + eps;
        }
        count += inside;
      }
      if (count > threshold)
        kept.insert({i, j});
      else
        rejected += int(ij) + int(ji);
    }
  return {kept, rejected};
}

/// The default k-d tree index, counting its queries.
struct CountedBoxes {
  static inline std::atomic<long> queries{0};
  template <nldr::Real T>
  struct index : nldr::KdTreeBoxIndex<T> {
    using nldr::KdTreeBoxIndex<T>::KdTreeBoxIndex;
    nldr::index_t count_in_box(std::span<const T> lo, std::span<const T> hi, nldr::index_t cap) const {
      ++queries;
      return nldr::KdTreeBoxIndex<T>::count_in_box(lo, hi, cap);
    }
  };
};

/// Two noisy parallel sheets 0.2 apart: kNN(15) joins them, and the boxes between them are empty.
template <class T>
nldr::Matrix<T> two_sheets(int n, std::uint64_t seed) {
  nldr::Random rng(seed);
  nldr::Matrix<T> X(n, 3);
  for (int i = 0; i < n; ++i) X.row(i) << T(rng.uniform()), T(rng.uniform()), T((i % 2) * 0.2 + 0.01 * rng.normal());
  return X;
}

}  // namespace

TEMPLATE_TEST_CASE("ShortCircuitPruned keeps exactly the pairs of a literal O(N^2) box count",
                   "[neighbors][short_circuit]", float, double) {
  for (int data = 0; data < 2; ++data) {
    const auto X = data == 0 ? two_sheets<TestType>(300, 2) : test_pruning::clustered_points<TestType>(200, 6);
    for (int threshold : {0, 2}) {
      INFO("data " << data << ", threshold " << threshold);
      const auto [expected, rejected] = literal_short_circuit(X, 15, threshold);
      CHECK(rejected > 0);
      const auto kd = nldr::ShortCircuitPruned{BruteCandidates{15}, {.threshold = threshold, .reconnect = false}}(X);
      const auto with_fallback = test_pruning::with_fallback(expected, test_pruning::nearest(X, 15));
      CHECK(test_pruning::kept_pairs(kd) == with_fallback);
      CHECK(kd.selection().pruned_edges == rejected);
      // KNearest lists hold every point nearer than their last entry: boxes inside that radius
      // around an endpoint are counted from its list, the others by the index. Same graph.
      CountedBoxes::queries = 0;
      const auto by_lists = nldr::ShortCircuitPruned<nldr::KNearest, CountedBoxes>{
          nldr::KNearest{15}, {.threshold = threshold, .reconnect = false}}(X);
      CHECK(test_pruning::kept_pairs(by_lists) == with_fallback);
      CHECK(by_lists.selection().pruned_edges == rejected);
      const long queried = CountedBoxes::queries;
      CountedBoxes::queries = 0;
      (void)nldr::ShortCircuitPruned<BruteCandidates, CountedBoxes>{BruteCandidates{15},
                                                                    {.threshold = threshold, .reconnect = false}}(X);
      CHECK(queried < CountedBoxes::queries / 2);  // the lists did answer most boxes
#if defined(NLDR_HAVE_BOOST)
      const auto rstar = nldr::ShortCircuitPruned<BruteCandidates, nldr::RStarBoxes<3>>{
          BruteCandidates{15}, {.threshold = threshold, .reconnect = false}}(X);
      CHECK(test_pruning::kept_pairs(rstar) == with_fallback);
#endif
    }
  }
}

TEMPLATE_TEST_CASE("ShortCircuitPruned counts boxes from the lists of the endpoints and of their candidates",
                   "[neighbors][short_circuit]", float, double) {
  // With K = 6 many boxes reach beyond the last candidate of both endpoints; some lie inside the
  // ball of one of their candidates instead (counted from that candidate's list), the rest go to
  // the index. The pairs stay those of the literal count.
  const auto X = test_pruning::clustered_points<TestType>(300, 17);
  const int k = 6;
  const auto lists = nldr::KNearest{k}(X);
  auto scale = [&](int p) { return TestType((double(lists.distances(p)[0]) + double(lists.distances(p)[1])) / 2); };
  auto reach = [&](int p, const Eigen::Vector3d& lo, const Eigen::Vector3d& hi) {  // to the farthest corner
    const Eigen::Vector3d x = X.row(p).template cast<double>().transpose();
    return (x - lo).cwiseAbs().cwiseMax((hi - x).cwiseAbs()).norm();
  };
  int beyond_endpoints = 0, inside_a_candidate = 0;
  for (int i = 0; i < 300; ++i)
    for (const int j : lists.neighbors(i)) {
      const TestType eps = std::min(scale(i), scale(j));
      Eigen::Vector3d lo, hi;
      for (int c = 0; c < 3; ++c) {
        const TestType mid = (X(i, c) + X(j, c)) / TestType(2);
        lo(c) = double(mid - eps);
        hi(c) = double(mid + eps);
      }
      if (reach(i, lo, hi) < 1.01 * double(lists.distances(i).back()) ||
          reach(j, lo, hi) < 1.01 * double(lists.distances(j).back()))
        continue;
      ++beyond_endpoints;
      bool covered = false;
      for (const int p : {i, j})
        for (const int q : lists.neighbors(p)) covered = covered || reach(q, lo, hi) < 0.99 * double(lists.distances(q).back());
      inside_a_candidate += covered;
    }
  CHECK(inside_a_candidate > 0);
  CHECK(inside_a_candidate < beyond_endpoints);  // and the index answers the others
  for (int threshold : {0, 1}) {
    INFO("threshold " << threshold);
    const auto [expected, rejected] = literal_short_circuit(X, k, threshold);
    const auto graph = nldr::ShortCircuitPruned{nldr::KNearest{k}, {.threshold = threshold, .reconnect = false}}(X);
    CHECK(test_pruning::kept_pairs(graph) == test_pruning::with_fallback(expected, test_pruning::nearest(X, k)));
    CHECK(graph.selection().pruned_edges == rejected);
  }
}

TEMPLATE_TEST_CASE("ShortCircuitPruned removes the edges joining Swiss-roll layers and stays connected",
                   "[neighbors][short_circuit]", float, double) {
  const auto data = nldr::datasets::swiss_roll<TestType>({.n = 2000, .noise = 0.0, .seed = 7});
  const auto candidates = nldr::KNearest{40}(data.points);
  // Ground truth: (s, h) are isometric coordinates of the unrolled roll. Along one layer an edge
  // of length < 4 has manifold distance within a few % of it; an edge that jumps to the next
  // layer (2 pi further out) has a manifold distance of a whole turn, >= 29, so the ratio
  // manifold / Euclidean separates the two kinds without ambiguity (threshold 2).
  auto joins_layers = [&](int i, int j, double euclidean) {
    return (data.intrinsic.row(i) - data.intrinsic.row(j)).template cast<double>().norm() > 2 * euclidean;
  };
  std::set<Pair> short_circuits;
  for (int i = 0; i < 2000; ++i)
    for (int e = 0; e < 40; ++e)
      if (const int j = candidates.neighbors(i)[e]; joins_layers(i, j, candidates.distances(i)[e]))
        short_circuits.insert({std::min(i, j), std::max(i, j)});
  REQUIRE(short_circuits.size() > 10);  // kNN(40) does short-circuit this roll

  const auto pruned = nldr::ShortCircuitPruned{nldr::KNearest{40}}(data.points);
  const auto kept = test_pruning::kept_pairs(pruned);
  for (const auto& pair : short_circuits) {
    INFO("short-circuit edge " << pair.first << " - " << pair.second);
    CHECK(kept.count(pair) == 0);
  }
  CHECK(nldr::graph_statistics(pruned).components.connected());
  CHECK(pruned.selection().pruned_edges > 0);
}

TEST_CASE("ShortCircuitPruned rejects bad options", "[neighbors][short_circuit]") {
  const auto X = test_pruning::clustered_points<double>(60, 4);
  CHECK_THROWS_WITH((nldr::ShortCircuitPruned{BruteCandidates{5}, {.scale_neighbors = 0}}(X)),
                    ContainsSubstring("scale_neighbors = 0"));
  CHECK_THROWS_WITH((nldr::ShortCircuitPruned{BruteCandidates{5}, {.scale_neighbors = 6}}(X)),
                    ContainsSubstring("only 5 candidate"));
  CHECK_THROWS_WITH((nldr::ShortCircuitPruned{BruteCandidates{5}, {.threshold = -1}}(X)), ContainsSubstring("threshold = -1"));
  nldr::Matrix<double> bad = X;
  bad(1, 1) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(nldr::ShortCircuitPruned{nldr::KNearest{5}}(bad), ContainsSubstring("not finite"));
#if defined(NLDR_HAVE_BOOST)
  const nldr::Matrix<double> X2 = X.leftCols(2);
  CHECK_THROWS_WITH((nldr::ShortCircuitPruned<nldr::KNearest, nldr::RStarBoxes<3>>{nldr::KNearest{5}}(X2)),
                    ContainsSubstring("Dim = 3"));
#endif
}
