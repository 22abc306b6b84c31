// Isomap's out-of-sample kernel (routines/geodesic_placement.hpp) against its arithmetic written
// out: each vector path bit for bit against the scalar loop it stands in for (min and + are exact,
// and the sums round the same way when nothing is fused), and the batched, column-tiled placement
// against g_p(j) = min_q (d_pq + G(q, j)), y_p = -1/2 L# (g_p^2 - mean) summed directly, over
// several tiles and batches with ragged ends, with 1, 2 and 3 threads. Tolerance 1e-12 of the sum
// of the terms' magnitudes: the two sides add the same N terms in different orders.
#include "catch.hpp"

#include <nldr/core/parallel.hpp>
#include <nldr/embed/routines/geodesic_placement.hpp>

#include <Eigen/Core>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace {

template <class S>
std::vector<S> placement_uniform(std::size_t n, double low, double high, std::mt19937_64& random) {
  std::uniform_real_distribution<double> draw(low, high);
  std::vector<S> values(n);
  for (auto& v : values) v = S(draw(random));
  return values;
}

}  // namespace

TEMPLATE_TEST_CASE("Geodesic placement: the vector min-plus and squared sums equal the scalar loops bit for bit",
                   "[transform]", float, double) {
  std::mt19937_64 random(11);
  for (std::int64_t n = 1; n <= 41; ++n) {
    CAPTURE(n);
    const auto row = placement_uniform<TestType>(std::size_t(n), 0, 10, random);
    const double offset = placement_uniform<double>(1, 0, 2, random)[0];
    for (const bool first : {true, false}) {
      std::vector<double> expected = placement_uniform<double>(std::size_t(n), 0, 12, random), actual = expected;
      nldr::detail::min_plus_loop(expected.data(), row.data(), offset, n, first);
      nldr::detail::min_plus(actual.data(), row.data(), offset, n, first);
      CHECK(actual == expected);
    }
    const auto l = placement_uniform<double>(std::size_t(n), -1, 1, random);
    const auto g = placement_uniform<double>(std::size_t(n), 0, 10, random);
    const auto mean = placement_uniform<double>(std::size_t(n), 0, 50, random);
    std::vector<double> expected = placement_uniform<double>(8, -5, 5, random), actual = expected;
    nldr::detail::add_squares_loop(expected.data(), l.data(), g.data(), mean.data(), n);
    nldr::detail::add_squares(actual.data(), l.data(), g.data(), mean.data(), n);
    CHECK(actual == expected);
  }
}

TEMPLATE_TEST_CASE("Geodesic placement over several column tiles and batches equals the sums written out",
                   "[transform]", float, double) {
  // N = 1100: two tiles of 512 columns and a ragged one (76, not a multiple of 8); 75 new points:
  // batches of 32 and a ragged one on each thread; 1 to 4 training neighbors each.
  const Eigen::Index n = 1100, points = 75, d = 3;
  std::mt19937_64 random(5);
  const auto g_values = placement_uniform<TestType>(std::size_t(n * n), 0, 10, random);
  const nldr::Matrix<TestType> G = Eigen::Map<const nldr::Matrix<TestType>>(g_values.data(), n, n);
  const Eigen::MatrixXd pseudo_inverse = Eigen::MatrixXd::Random(d, n);
  const Eigen::VectorXd mean_squared = (Eigen::VectorXd::Random(n).array() + 1) * 25;
  const nldr::Matrix<double> coordinates = nldr::Matrix<double>::Random(n, d);
  nldr::detail::NeighborLists<double> lists;
  lists.offsets.push_back(0);
  std::uniform_int_distribution<nldr::index_t> training(0, nldr::index_t(n - 1));
  for (Eigen::Index p = 0; p < points; ++p) {
    for (Eigen::Index e = 0; e <= p % 4; ++e) {
      lists.indices.push_back(training(random));
      lists.distances.push_back(placement_uniform<double>(1, 0, 1, random)[0]);
    }
    lists.offsets.push_back(nldr::offset_t(lists.indices.size()));
  }

  Eigen::MatrixXd expected(points, d), magnitude(points, d);
  for (Eigen::Index p = 0; p < points; ++p) {
    Eigen::ArrayXd g = Eigen::ArrayXd::Constant(n, std::numeric_limits<double>::infinity());
    for (auto e = lists.offsets[std::size_t(p)]; e < lists.offsets[std::size_t(p) + 1]; ++e)
      g = g.min(G.row(lists.indices[std::size_t(e)]).template cast<double>().transpose().array() +
                lists.distances[std::size_t(e)]);
    const Eigen::VectorXd centered = (g.square() - mean_squared.array()).matrix();
    expected.row(p) = (-0.5 * pseudo_inverse * centered).transpose();
    magnitude.row(p) = (0.5 * pseudo_inverse.cwiseAbs() * centered.cwiseAbs()).transpose();
  }
  const int threads_before = nldr::max_threads();
  nldr::set_threads(1);
  const Eigen::MatrixXd one =
      nldr::routines::place_by_geodesics<double>(lists, G, coordinates, pseudo_inverse, mean_squared);
  CHECK(((one - expected).array().abs() <= 1e-12 * magnitude.array()).all());
  for (const int threads : {2, 3}) {
    CAPTURE(threads);
    nldr::set_threads(threads);
    const Eigen::MatrixXd again =
        nldr::routines::place_by_geodesics<double>(lists, G, coordinates, pseudo_inverse, mean_squared);
    CHECK((again.array() == one.array()).all());
  }
  nldr::set_threads(threads_before);
}
