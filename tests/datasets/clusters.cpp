// 3-D clusters: label counts, bridges and cluster extents, checked from the points alone.
#include <nldr/datasets/clusters.hpp>

#include "catch.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <type_traits>
#include <vector>

namespace {

namespace ds = nldr::datasets;
using P3 = Eigen::Vector3d;

}  // namespace

TEMPLATE_TEST_CASE("clusters_3d: label counts, bridges and cluster cubes", "[datasets][clusters]", float, double) {
  const double tol = std::is_same_v<TestType, float> ? 1e-5 : 1e-12;  // coordinates in [0, 10]
  for (const int clusters : {3, 5}) {
    INFO(clusters << " clusters");
    const int n = clusters == 3 ? 500 : 1000;
    const auto data = ds::clusters_3d<TestType>({.n = n, .seed = 12}, clusters);
    REQUIRE(data.labels.size() == std::size_t(n));
    std::map<int, int> count;
    for (const int label : data.labels) ++count[label];
    // 9 bridge points between consecutive clusters; the rest split evenly, the first clusters one more.
    const int bridges = 9 * (clusters - 1), rest = n - bridges;
    CHECK(count[0] == bridges);
    for (int c = 1; c <= clusters; ++c) CHECK(count[c] == rest / clusters + (c - 1 < rest % clusters ? 1 : 0));
    CHECK(int(count.size()) == clusters + 1);

    // Bridges: 9 evenly spaced points; extending them one step recovers both centers.
    std::vector<P3> center(static_cast<std::size_t>(clusters));
    std::vector<std::vector<P3>> bridge;
    std::vector<P3> run;
    for (int i = 0; i < n; ++i) {
      if (data.labels[std::size_t(i)] == 0) run.push_back(data.points.row(i).template cast<double>().transpose());
      if (run.size() == 9) bridge.push_back(run), run.clear();
    }
    REQUIRE(int(bridge.size()) == clusters - 1);
    for (int b = 0; b + 1 < clusters; ++b) {
      const auto& line = bridge[std::size_t(b)];
      const P3 step = line[1] - line[0];
      for (int k = 1; k < 9; ++k) CHECK((line[std::size_t(k)] - line[std::size_t(k - 1)] - step).norm() < tol);
      const P3 from = line[0] - step, to = line[8] + step;
      if (b > 0) CHECK((center[std::size_t(b)] - from).norm() < 10 * tol);  // consecutive bridges agree
      center[std::size_t(b)] = from;
      center[std::size_t(b) + 1] = to;
    }
    double nearest = 1e9;
    for (int a = 0; a < clusters; ++a)
      for (int b = a + 1; b < clusters; ++b)
        nearest = std::min(nearest, (center[std::size_t(a)] - center[std::size_t(b)]).norm());
    // Each cluster is uniform in the cube of side nearest / sqrt(12) around its center.
    const double half = nearest / std::sqrt(12.0) / 2;
    std::vector<P3> sum(static_cast<std::size_t>(clusters), P3::Zero());
    for (int i = 0; i < n; ++i) {
      const int label = data.labels[std::size_t(i)];
      if (label == 0) continue;
      const P3 offset = data.points.row(i).template cast<double>().transpose() - center[std::size_t(label - 1)];
      CHECK(offset.cwiseAbs().maxCoeff() <= half + 10 * tol);
      sum[std::size_t(label - 1)] += offset;
    }
    // The cube is centered: per-coordinate sd of a cluster mean is 2 half / sqrt(12 n_c) < 0.05 half.
    for (int c = 0; c < clusters; ++c)
      CHECK((sum[std::size_t(c)] / count[c + 1]).cwiseAbs().maxCoeff() < 0.25 * half);
    CHECK(data.intrinsic == data.points);
  }
}

TEST_CASE("clusters_3d: one cluster, noise and bad cluster counts", "[datasets][clusters]") {
  const auto lone = ds::clusters_3d({.n = 5, .seed = 1}, 1);
  CHECK(std::all_of(lone.labels.begin(), lone.labels.end(), [](int label) { return label == 1; }));
  const auto noisy = ds::clusters_3d({.n = 100, .noise = 0.2, .seed = 2});
  const auto clean = ds::clusters_3d({.n = 100, .noise = 0.0, .seed = 2});
  CHECK(noisy.intrinsic == clean.points);
  CHECK(noisy.points != clean.points);
  CHECK_THROWS_AS(ds::clusters_3d({.n = 100}, 0), nldr::invalid_argument);
  CHECK_THROWS_WITH(ds::clusters_3d({.n = 40}, 5), ContainsSubstring("n = 40 must be >= 41"));
}
