// Isomap: arc length on a curve (closed form), the Swiss roll unrolled (ground truth), the reported
// residual variance against a literal computation, and the error paths.
#include "catch.hpp"

#include <nldr/core/resources.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/isomap.hpp>
#include <nldr/neighbors/knn.hpp>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <numbers>
#include <string>
#include <type_traits>
#include <vector>

namespace {

// n points equally spaced in angle on a half circle of radius r in the plane z = 0 of R^3.
template <class T>
nldr::Matrix<T> half_circle(int n, double r) {
  nldr::Matrix<T> X(n, 3);
  for (int i = 0; i < n; ++i) {
    const double angle = std::numbers::pi * i / (n - 1);
    X.row(i) << T(r * std::cos(angle)), T(r * std::sin(angle)), T(0);
  }
  return X;
}

// Literal 1 - r^2 over all pairs i < j (the test's own Pearson, two passes in double).
double literal_residual_variance(const Eigen::MatrixXd& reference, const Eigen::MatrixXd& Y) {
  std::vector<double> a, b;
  for (Eigen::Index i = 0; i < Y.rows(); ++i)
    for (Eigen::Index j = i + 1; j < Y.rows(); ++j) {
      a.push_back(reference(i, j));
      b.push_back((Y.row(i) - Y.row(j)).norm());
    }
  const double n = double(a.size());
  double ma = 0, mb = 0;
  for (std::size_t p = 0; p < a.size(); ++p) ma += a[p] / n, mb += b[p] / n;
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t p = 0; p < a.size(); ++p) {
    sab += (a[p] - ma) * (b[p] - mb);
    saa += (a[p] - ma) * (a[p] - ma);
    sbb += (b[p] - mb) * (b[p] - mb);
  }
  const double r = sab / std::sqrt(saa * sbb);
  return 1 - r * r;
}

// Restarts this process's peak resident set size (VmHWM) at the current one, so that a later
// peak_memory_bytes() measures what came after (Linux >= 4.0); false where unsupported.
bool restart_peak_memory() {
  std::ofstream clear_refs("/proc/self/clear_refs");
  clear_refs << "5" << std::flush;
  return bool(clear_refs);
}

}  // namespace

TEMPLATE_TEST_CASE("Isomap of points on a curve recovers arc length", "[isomap]", float, double) {
  // 80 points on a half circle of radius 5, joined as the path 0-1-...-79 (each point lists its
  // successor; Isomap symmetrizes and measures the edges itself). geodesic(i, j) = |i - j| c with
  // the chord c = 2 r sin(pi / (2 (n - 1))): distances of points on a line, which a 1-D MDS
  // reproduces exactly, y_i - y_0 = +-i c (and c = the arc step up to 1e-4 relative).
  const int n = 80;
  const double r = 5, chord = 2 * r * std::sin(std::numbers::pi / (2 * (n - 1)));
  const auto X = half_circle<TestType>(n, r);
  std::vector<std::vector<std::pair<nldr::index_t, TestType>>> lists(n);
  for (int i = 0; i + 1 < n; ++i) lists[i].emplace_back(i + 1, TestType(1));
  const auto graph = nldr::NeighborGraph<TestType>::from_lists(lists);
  const auto iso = nldr::Isomap{{.dim = 1}}.fit(X, graph);
  REQUIRE(iso.coordinates.cols() == 1);
  const double sign = iso.coordinates(n - 1, 0) > iso.coordinates(0, 0) ? 1 : -1;
  // Float: edge lengths and geodesics rounded to float (~1e-7 relative of 15.7).
  const double tolerance = std::is_same_v<TestType, float> ? 1e-4 : 1e-9;
  for (int i = 0; i < n; ++i)
    REQUIRE_THAT(sign * double(iso.coordinates(i, 0) - iso.coordinates(0, 0)), WithinAbs(i * chord, tolerance));
  REQUIRE_THAT(chord * (n - 1), WithinRel(std::numbers::pi * r, 1e-4));  // total length = arc length
  REQUIRE(iso.residual_variance < 1e-9);
  REQUIRE_FALSE(iso.residual_sampled);
  REQUIRE(iso.residual_pairs == n * (n - 1) / 2);
}

TEMPLATE_TEST_CASE("Isomap unrolls a Swiss roll", "[isomap]", float, double) {
  // 1000 noise-free points, k = 10. The true intrinsic coordinates (arc length, height) are
  // isometric, so their Euclidean distances are the manifold distances. Measured here: residual
  // variance 0.0008 against the truth, 0.0006 against the graph geodesics (float and double alike);
  // the bound 0.005 leaves room for other seeds and fails for any folded embedding (> 0.1).
  const auto data = nldr::datasets::swiss_roll<TestType>({.n = 1000, .seed = 3});
  const auto graph = nldr::KNearest{10}(data.points);
  const auto iso = nldr::Isomap{{.dim = 2}}.fit(data.points, graph);
  const double truth = literal_residual_variance(
      [&] {
        const Eigen::MatrixXd t = data.intrinsic.template cast<double>();
        Eigen::MatrixXd d(t.rows(), t.rows());
        for (Eigen::Index i = 0; i < t.rows(); ++i)
          for (Eigen::Index j = 0; j < t.rows(); ++j) d(i, j) = (t.row(i) - t.row(j)).norm();
        return d;
      }(),
      iso.coordinates.template cast<double>());
  INFO("residual variance vs truth " << truth << ", vs geodesics " << iso.residual_variance);
  REQUIRE(truth < 0.005);
  REQUIRE(iso.residual_variance < 0.005);
  // 1000 points > dense_below: the Lanczos path ran; N(N-1)/2 = 499500 <= 1e6 pairs: all used.
  REQUIRE(iso.diagnostics.solver == "spectra-lanczos");
  REQUIRE(iso.residual_pairs == 499500);
  REQUIRE(iso.geodesic_bytes == 1000ull * 1000ull * sizeof(TestType));
  REQUIRE(iso.graph_edges >= 10000);
}

TEMPLATE_TEST_CASE("Isomap residual variance equals a literal computation, also when sampled", "[isomap]", float,
                   double) {
  const auto data = nldr::datasets::swiss_roll<TestType>({.n = 150, .noise = 0.3, .seed = 5});
  const auto graph = nldr::KNearest{8}(data.points);
  const auto iso = nldr::Isomap{{.dim = 2}}.fit(data.points, graph);
  const auto geodesic =
      nldr::all_pairs_shortest_paths<double>(nldr::routines::geodesic_graph<TestType>(data.points, graph, nldr::EdgeLengths::euclidean));
  const double literal = literal_residual_variance(geodesic, iso.coordinates.template cast<double>());
  const double tolerance = std::is_same_v<TestType, float> ? 1e-5 : 1e-10;
  REQUIRE_THAT(iso.residual_variance, WithinAbs(literal, tolerance));
  // A sample of 3000 of the 11175 pairs estimates the same number (standard error ~ 0.01 here).
  const auto sampled = nldr::Isomap{{.dim = 2, .residual_pairs = 3000, .seed = 4}}.fit(data.points, graph);
  REQUIRE(sampled.residual_sampled);
  REQUIRE(sampled.residual_pairs == 3000);
  REQUIRE_THAT(sampled.residual_variance, WithinAbs(literal, 0.03));
}

TEMPLATE_TEST_CASE("Isomap float geodesic storage matches the input precision", "[isomap]", float, double) {
  const auto data = nldr::datasets::swiss_roll<TestType>({.n = 300, .seed = 6});
  const auto graph = nldr::KNearest{10}(data.points);
  const auto full = nldr::Isomap{{.dim = 2}}.fit(data.points, graph);
  const auto single = nldr::Isomap{{.dim = 2, .storage = nldr::GeodesicStorage::single}}.fit(data.points, graph);
  REQUIRE(single.geodesic_storage == "float");
  REQUIRE(single.geodesic_bytes == 300ull * 300ull * 4);
  // Geodesics up to ~60 rounded to float (relative 6e-8), squared and centered: coordinates of
  // scale ~20 agree to ~1e-4.
  REQUIRE((full.coordinates - single.coordinates).template cast<double>().cwiseAbs().maxCoeff() < 1e-3);
  // Thread count does not change the result (rule of core/parallel.hpp).
  const int threads = nldr::max_threads();
  nldr::set_threads(1);
  const auto serial = nldr::Isomap{{.dim = 2}}.fit(data.points, graph);
  nldr::set_threads(threads);
  REQUIRE(serial.coordinates == full.coordinates);
}

TEMPLATE_TEST_CASE("Isomap refuses disconnected graphs, oversized geodesics and bad sizes", "[isomap]", float,
                   double) {
  // Two separated clusters of 10 points on a line: k = 3 never joins them.
  nldr::Matrix<TestType> X(20, 2);
  for (int i = 0; i < 20; ++i) X.row(i) << TestType(i < 10 ? i : 100 + i), TestType(0);
  const auto graph = nldr::KNearest{3}(X);
  REQUIRE_THROWS_AS(nldr::Isomap{}.fit(X, graph), nldr::disconnected_graph);
  REQUIRE_THROWS_WITH(nldr::Isomap{}.fit(X, graph), ContainsSubstring("sizes 10, 10"));

  const auto data = nldr::datasets::swiss_roll<TestType>({.n = 100, .seed = 1});
  const auto roll = nldr::KNearest{8}(data.points);
  // 100 x 100 x sizeof(T) bytes > 1000: refused before allocating, suggesting the landmark method.
  REQUIRE_THROWS_AS((nldr::Isomap{{.memory_limit = 1000}}.fit(data.points, roll)), nldr::memory_limit_exceeded);
  REQUIRE_THROWS_WITH((nldr::Isomap{{.memory_limit = 1000}}.fit(data.points, roll)),
                      ContainsSubstring("LandmarkIsomap"));
  REQUIRE_THROWS_WITH(nldr::Isomap{}.fit(data.points.topRows(50).eval(), roll), ContainsSubstring("graph has 100"));
  REQUIRE_THROWS_WITH(nldr::Isomap{{.dim = 100}}.fit(data.points, roll), ContainsSubstring("dim = 100"));
  REQUIRE_THROWS_WITH((nldr::Isomap{{.residual_pairs = 0}}.fit(data.points, roll)),
                      ContainsSubstring("residual_pairs = 0"));
  auto bad = data.points;
  bad(7, 0) = std::numeric_limits<TestType>::infinity();
  REQUIRE_THROWS_WITH(nldr::Isomap{}.fit(bad, roll), ContainsSubstring("X(7, 0)"));
}

TEST_CASE("Isomap refuses a geodesic matrix larger than memory before allocating anything of its size",
          "[isomap]") {
  // 300000 points on a line joined as a path: valid, connected and cheap, but the 300000 x 300000
  // double geodesic matrix would take 720 GB, more than any test machine has. The default limit (the
  // memory available now) must refuse it from N alone, before the graph is even symmetrized: the
  // refusal is memory_limit_exceeded (not std::bad_alloc, not the OOM killer) and the peak resident
  // memory stays far below the request. Measured: refused in 0.6 ms, the peak grew by 0.7 MB.
  const nldr::index_t n = 300'000;
  const std::uint64_t request = std::uint64_t(n) * std::uint64_t(n) * sizeof(double);
  REQUIRE(request > nldr::available_memory_bytes());  // else this test would really allocate it
  nldr::Matrix<double> X(n, 1);
  std::vector<nldr::offset_t> offsets(std::size_t(n) + 1, 0);
  std::vector<nldr::index_t> indices;
  for (nldr::index_t i = 0; i < n; ++i) {
    X(i, 0) = i;
    if (i + 1 < n) indices.push_back(i + 1);
    offsets[i + 1] = nldr::offset_t(indices.size());
  }
  const auto graph =
      nldr::NeighborGraph<double>::from_csr(n, offsets, indices, std::vector<double>(indices.size(), 1.0));

  const bool fresh_peak = restart_peak_memory();
  const std::uint64_t peak_before = nldr::peak_memory_bytes();
  const nldr::Stopwatch clock;
  std::string message;
  try {
    nldr::Isomap{}.fit(X, graph);
  } catch (const nldr::memory_limit_exceeded& e) {
    message = e.what();
  }
  const double seconds = clock.seconds();
  const std::uint64_t growth = nldr::peak_memory_bytes() - peak_before;
  INFO("refused in " << seconds * 1e3 << " ms; peak memory grew by " << growth << " bytes (peak restarted: "
                     << fresh_peak << "); message: " << message);
  // 300000^2 * 8 bytes = 686645.5078 MiB; the message names it and both ways out.
  CHECK_THAT(message, ContainsSubstring("Isomap: the 300000 x 300000 geodesic matrix (double) needs 686645.5078 MiB"));
  CHECK_THAT(message, ContainsSubstring("nldr::LandmarkIsomap"));
  CHECK_THAT(message, ContainsSubstring("GeodesicStorage::single"));
  CHECK(peak_before > 0);
  CHECK(growth < request / 100);
  // Already in float: the message offers only the way that is left.
  std::string float_message;
  try {
    nldr::Isomap{{.storage = nldr::GeodesicStorage::single}}.fit(X, graph);
  } catch (const nldr::memory_limit_exceeded& e) {
    float_message = e.what();
  }
  CHECK_THAT(float_message, ContainsSubstring("geodesic matrix (float) needs 343322.7539 MiB"));
  CHECK_THAT(float_message, ContainsSubstring("nldr::LandmarkIsomap"));
  CHECK_THAT(float_message, !ContainsSubstring("GeodesicStorage::single"));
}
