// Sammon's mapping: stress 0 on points of a plane (closed form), Sammon's stress equal to or below
// R's MASS::sammon on committed data (tests/data/make_mds_references.py), the reported stress against
// the formula, monotone stress, transform, equality with SMACOF weighted by 1 / delta, thread-count
// independence and named errors.
#include "brute_force.hpp"
#include "catch.hpp"
#include "mds_references.hpp"

#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/embed/sammon.hpp>
#include <nldr/embed/smacof.hpp>

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace sammon_test {

/// N points of a tilted plane in 3-D: Sammon's stress 0 exists in 2-D.
template <class T>
nldr::Matrix<T> plane_points(int n, std::uint64_t seed) {
  nldr::Random random(seed);
  nldr::Matrix<T> X(n, 3);
  for (int i = 0; i < n; ++i) {
    const double u = random.normal(), v = 2 * random.normal();
    X.row(i) << T(0.6 * u + 0.8 * v), T(0.8 * u - 0.6 * v), T(0.5 * u);  // not orthonormal: any linear image
  }
  return X;
}

using brute_force::distances;

/// Sammon's stress of configuration Y for dissimilarities D, literally.
template <class A, class B>
double sammon_formula(const A& D, const B& Y) {
  double numerator = 0, denominator = 0;
  for (Eigen::Index i = 0; i < D.rows(); ++i)
    for (Eigen::Index j = i + 1; j < D.rows(); ++j) {
      const double delta = D(i, j), d = (Y.row(i).template cast<double>() - Y.row(j).template cast<double>()).norm();
      numerator += (delta - d) * (delta - d) / delta;
      denominator += delta;
    }
  return numerator / denominator;
}

bool stress_never_rises(const std::vector<double>& history) {
  for (std::size_t k = 1; k < history.size(); ++k)
    if (history[k] > history[k - 1] + 1e-14) return false;  // E is relative: its rounding is ~1e-16
  return true;
}

}  // namespace sammon_test

TEMPLATE_TEST_CASE("Sammon reaches stress 0 on points of a plane", "[sammon]", float, double) {
  using namespace sammon_test;
  const bool single = std::is_same_v<TestType, float>;
  const auto X = plane_points<TestType>(25, 1);
  const auto model = nldr::Sammon{{.dim = 2, .init = nldr::MajorizationInit::random, .n_init = 2,
                                   .max_iterations = 5000, .tolerance = 1e-12}}
                         .fit(X);
  CHECK(model.stress < (single ? 1e-6 : 1e-8));
  CHECK(stress_never_rises(model.stress_history));
  CHECK(model.status == nldr::MajorizationStatus::converged);
  // The reported stress is the formula's for the returned coordinates.
  CHECK_THAT(model.stress, WithinAbs(sammon_formula(distances(X), model.coordinates), single ? 1e-6 : 1e-12));
}

TEST_CASE("Sammon: stress equal to or below MASS::sammon", "[sammon][reference]") {
  using namespace sammon_test;
  const auto roll = mds_references::matrix<double>("mds_swiss_roll.csv");
  const auto euro = mds_references::matrix<double>("mds_eurodist.csv");
  for (const auto& [name, D] : {std::pair{"swiss_roll", distances(roll)}, std::pair{"eurodist", euro}}) {
    INFO(name);
    const auto model = nldr::Sammon{{.dim = 2, .max_iterations = 20000, .tolerance = 1e-10}}.fit(nldr::precomputed(D));
    CHECK(model.stress <= mds_references::stress(name, "mass_sammon", "sammon") * (1 + 1e-4));
    CHECK_THAT(model.stress, WithinRel(sammon_formula(D, model.coordinates), 1e-10));
    CHECK(stress_never_rises(model.stress_history));
  }
  // Points and their distance matrix give the same map.
  const auto from_points = nldr::Sammon{{.dim = 2}}.fit(roll);
  const auto from_distances = nldr::Sammon{{.dim = 2}}.fit(nldr::precomputed(distances(roll)));
  CHECK((from_points.coordinates - from_distances.coordinates).cwiseAbs().maxCoeff() < 1e-8);
}

TEMPLATE_TEST_CASE("Sammon transform places new points with the map fixed", "[sammon][transform]", float, double) {
  using namespace sammon_test;
  const bool single = std::is_same_v<TestType, float>;
  const auto all = plane_points<TestType>(50, 2);
  const nldr::Matrix<TestType> train = all.topRows(40), fresh = all.bottomRows(10);
  const auto model = nldr::Sammon{{.dim = 2, .max_iterations = 20000, .tolerance = 1e-14}}.fit(train);
  const auto placed = model.transform(fresh);
  for (Eigen::Index p = 0; p < 10; ++p)
    for (Eigen::Index i = 0; i < 40; ++i) {
      const double original = (fresh.row(p) - train.row(i)).template cast<double>().norm();
      const double embedded = (placed.row(p) - model.coordinates.row(i)).template cast<double>().norm();
      CHECK_THAT(embedded, WithinAbs(original, single ? 1e-3 : 1e-5));
    }
  // A training point lands exactly on its own coordinates (distance 0 to itself).
  CHECK(model.transform(train.topRows(4)) == model.coordinates.topRows(4));
  const nldr::Matrix<TestType> rows = distances(all).bottomLeftCorner(10, 40);
  CHECK((model.transform_distances(rows) - placed).cwiseAbs().maxCoeff() < (single ? 1e-3 : 1e-8));
}

TEMPLATE_TEST_CASE("Sammon is SMACOF with the weights 1 / delta, its stress divided by sum delta", "[sammon]", float,
                   double) {
  // Sammon's stress E = sum_{i<j} (delta - d)^2 / delta / sum_{i<j} delta is the raw stress with
  // w_ij = 1 / delta_ij over a constant, so the same runs of Guttman transforms minimize both, and their
  // relative stopping rule stops both at the same step.
  using namespace sammon_test;
  nldr::Random random(4);
  nldr::Matrix<TestType> X(30, 4);  // 4-D points: no 2-D configuration has stress 0
  for (Eigen::Index i = 0; i < X.rows(); ++i)
    for (Eigen::Index c = 0; c < X.cols(); ++c) X(i, c) = TestType(random.normal());
  const nldr::Matrix<TestType> D = distances(X);
  nldr::Matrix<double> weights(D.rows(), D.cols());
  double total = 0;
  for (Eigen::Index i = 0; i < D.rows(); ++i)
    for (Eigen::Index j = 0; j < D.cols(); ++j) {
      weights(i, j) = i == j ? 0.0 : 1.0 / double(D(i, j));
      if (j > i) total += double(D(i, j));
    }
  for (const auto init : {nldr::MajorizationInit::classical_mds, nldr::MajorizationInit::random}) {
    const auto sammon = nldr::Sammon{{.dim = 2, .init = init, .n_init = 2, .seed = 7, .max_iterations = 400,
                                      .tolerance = 1e-9}}
                            .fit(nldr::precomputed(D));
    const auto smacof = nldr::Smacof{{.dim = 2, .init = init, .n_init = 2, .seed = 7, .max_iterations = 400,
                                      .tolerance = 1e-9}}
                            .fit(nldr::precomputed(D), weights);
    // Tolerance: 1e-12 of the configuration's scale (the same operations in the same order give equal
    // numbers; the margin is only for a compiler that contracts them differently in the two instantiations).
    const double scale = smacof.coordinates.template cast<double>().cwiseAbs().maxCoeff();
    CHECK((sammon.coordinates - smacof.coordinates).template cast<double>().cwiseAbs().maxCoeff() <= 1e-12 * scale);
    CHECK(sammon.iterations == smacof.iterations);
    CHECK(sammon.best_run == smacof.best_run);
    CHECK(sammon.status == smacof.status);
    CHECK_THAT(sammon.stress * total, WithinRel(smacof.stress, 1e-12));
    REQUIRE(sammon.stress_history.size() == smacof.stress_history.size());
    for (std::size_t k = 0; k < sammon.stress_history.size(); ++k)
      CHECK_THAT(sammon.stress_history[k] * total, WithinRel(smacof.stress_history[k], 1e-12));
    // And the stress is Sammon's, literally.
    CHECK_THAT(sammon.stress, WithinRel(sammon_formula(D, sammon.coordinates), std::is_same_v<TestType, float> ? 1e-5 : 1e-10));
  }
}

TEST_CASE("Sammon does not depend on the thread count", "[sammon][determinism]") {
  using namespace sammon_test;
  const auto X = mds_references::matrix<double>("mds_swiss_roll.csv");
  const auto run = [&] { return nldr::Sammon{{.dim = 2, .n_init = 2}}.fit(X).coordinates; };
  const int before = nldr::max_threads();
  nldr::set_threads(1);
  const auto one = run();
  for (const int threads : {2, 3}) {
    nldr::set_threads(threads);
    CHECK(run() == one);
  }
  nldr::set_threads(before);
}

TEST_CASE("Sammon refuses bad input with named errors", "[sammon][hostile]") {
  using namespace sammon_test;
  auto X = plane_points<double>(10, 3);
  CHECK_THROWS_CONTAINING(nldr::Sammon{{.dim = 0}}.fit(X), nldr::invalid_argument, "dim");
  CHECK_THROWS_CONTAINING(nldr::Sammon{{.n_init = 0}}.fit(X), nldr::invalid_argument, "n_init");
  auto infinite = X;
  infinite(2, 0) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_CONTAINING(nldr::Sammon{}.fit(infinite), nldr::invalid_argument, "X(2, 0)");
  auto duplicate = X;
  duplicate.row(6) = duplicate.row(3);
  CHECK_THROWS_CONTAINING(nldr::Sammon{}.fit(duplicate), nldr::invalid_argument, "points 3 and 6");
  auto D = distances(X);
  D(0, 0) = 1;
  CHECK_THROWS_CONTAINING(nldr::Sammon{}.fit(nldr::precomputed(D)), nldr::invalid_argument, "distances(0, 0)");
  CHECK_THROWS_AS(nldr::Sammon{{.memory_limit = 100}}.fit(X), nldr::memory_limit_exceeded);
  const auto model = nldr::Sammon{}.fit(X);
  CHECK_THROWS_CONTAINING(model.transform(X.leftCols(2)), nldr::invalid_argument, "X_new");
}
