// SMACOF (metric and non-metric): stress 0 on Euclidean distances (closed form), stress equal to or
// below scikit-learn 1.2's MDS and R's MASS::isoMDS on committed data (tests/data/make_mds_references.py),
// missing dissimilarities through weights, the monotone regression against its min-max formula (in
// chunks too) and, with large tie blocks, against a textbook one, both stress passes against their
// pair-by-pair definition, monotone stress, transform, thread-count independence and named errors.
#include "brute_force.hpp"
#include "catch.hpp"
#include "mds_references.hpp"

#include <nldr/core/parallel.hpp>
#include <nldr/core/random.hpp>
#include <nldr/embed/smacof.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace smacof_test {

/// Gaussian points with standard deviation 1 + j along axis j.
template <class T>
nldr::Matrix<T> gaussian(int n, int d, std::uint64_t seed) {
  return brute_force::gaussian<T>(n, d, seed, [](int j) { return 1.0 + j; });
}

using brute_force::distances;

/// Largest |D_X(i, j) - D_Y(i, j)| relative to the largest D_X.
template <class A, class B>
double distance_error(const A& X, const B& Y) {
  const auto DX = distances<double>(X.template cast<double>()), DY = distances<double>(Y.template cast<double>());
  return (DX - DY).cwiseAbs().maxCoeff() / DX.maxCoeff();
}

/// Every step lowers the stress or keeps it, up to the rounding of a sum whose terms reach `scale`
/// (sum delta^2: near stress 0 the sum's rounding is all that changes).
bool non_increasing(const std::vector<double>& history, double scale) {
  for (std::size_t k = 1; k < history.size(); ++k)
    if (history[k] > history[k - 1] + 1e-13 * scale) return false;
  return true;
}

template <class Derived>
double squared_sum(const Eigen::MatrixBase<Derived>& D) {
  return D.template cast<double>().squaredNorm() / 2;
}

/// Isotonic regression by its min-max formula (Barlow et al. 1972): f_k = max_{i<=k} min_{j>=k} mean(y_i..y_j).
std::vector<double> min_max_isotonic(const std::vector<double>& y, const std::vector<double>& w) {
  const std::size_t n = y.size();
  std::vector<double> f(n);
  for (std::size_t k = 0; k < n; ++k) {
    double best = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i <= k; ++i) {
      double least = std::numeric_limits<double>::infinity();
      for (std::size_t j = k; j < n; ++j) {
        double sum = 0, weight = 0;
        for (std::size_t m = i; m <= j; ++m) sum += w[m] * y[m], weight += w[m];
        least = std::min(least, sum / weight);
      }
      best = std::max(best, least);
    }
    f[k] = best;
  }
  return f;
}

/// The stress pass's numbers by their definition, pair by pair over i != j: raw stress, sum w d^2 and
/// sum w dhat^2 over i < j, and B X with (B X)_i = sum_j r_ij (x_i - x_j), r_ij = w dhat / d (0 at d = 0).
struct StressDefinition {
  double raw = 0, distance_norm = 0, disparity_norm = 0;
  nldr::Matrix<double> BX;
};

StressDefinition stress_definition(const nldr::Matrix<double>& dhat, const nldr::Matrix<double>& W,
                                   const nldr::Matrix<double>& X) {
  const Eigen::Index n = X.rows();
  StressDefinition out;
  out.BX = nldr::Matrix<double>::Zero(n, X.cols());
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      if (i == j) continue;
      const double w = W.size() ? W(i, j) : 1.0, h = i < j ? dhat(i, j) : dhat(j, i), d = (X.row(i) - X.row(j)).norm();
      if (i < j) out.raw += w * (h - d) * (h - d), out.distance_norm += w * d * d, out.disparity_norm += w * h * h;
      if (d > 0) out.BX.row(i) += w * h / d * (X.row(i) - X.row(j));
    }
  return out;
}

template <class Pass>
void check_pass(const Pass& pass, const StressDefinition& expected) {
  CHECK_THAT(pass.raw, WithinRel(expected.raw, 1e-12));
  CHECK_THAT(pass.distance_norm, WithinRel(expected.distance_norm, 1e-12));
  CHECK_THAT(pass.disparity_norm, WithinRel(expected.disparity_norm, 1e-12));
  CHECK((pass.BX - expected.BX).cwiseAbs().maxCoeff() < 1e-11 * expected.BX.cwiseAbs().maxCoeff());
}

/// A seeded stress problem on n points in 3-D with one point repeated (d = 0, where B_ij = 0):
/// dissimilarities uniform in [0.5, 3.5), weights W uniform in [weight_floor, weight_floor + 1) (not
/// set in the problem: each case chooses weighted or not).
struct RandomStressProblem {
  nldr::Matrix<double> X;
  nldr::detail::MajorizationProblem problem;
  nldr::Matrix<double> W;
};

inline RandomStressProblem random_stress_problem(int n, std::uint64_t seed, bool nonmetric, double weight_floor) {
  RandomStressProblem out{gaussian<double>(n, 3, seed),
                          {nldr::Matrix<double>(n, n), {}, nonmetric, nldr::TieApproach::primary},
                          nldr::Matrix<double>(n, n)};
  out.X.row(7) = out.X.row(90);
  nldr::Random random(seed + 1);
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      out.problem.delta(i, j) = out.problem.delta(j, i) = i == j ? 0.0 : 0.5 + 3 * random.uniform();
      out.W(i, j) = out.W(j, i) = i == j ? 0.0 : weight_floor + random.uniform();
    }
  return out;
}

}  // namespace smacof_test

TEMPLATE_TEST_CASE("SMACOF reaches stress 0 on the Euclidean distances of points in d dimensions", "[smacof]", float,
                   double) {
  using namespace smacof_test;
  const auto X = gaussian<TestType>(40, 3, 1);
  const bool single = std::is_same_v<TestType, float>;
  // From random starts (classical MDS would already be exact), four runs.
  const auto model = nldr::Smacof{{.dim = 3, .init = nldr::MajorizationInit::random, .n_init = 4,
                                   .max_iterations = 20000, .tolerance = 1e-13}}
                         .fit(X);
  CHECK(model.coordinates.rows() == 40);
  CHECK(model.coordinates.cols() == 3);
  CHECK(model.normalized_stress < (single ? 1e-3 : 1e-5));
  CHECK(model.kruskal_stress < (single ? 1e-3 : 1e-5));
  CHECK(distance_error(X, model.coordinates) < (single ? 1e-3 : 1e-5));
  CHECK(non_increasing(model.stress_history, squared_sum(distances(X))));
  // From classical MDS the start is exact up to rounding, and the first transform stops.
  const auto classical = nldr::Smacof{{.dim = 3}}.fit(nldr::precomputed(distances(X)));
  CHECK(classical.status == nldr::MajorizationStatus::converged);
  CHECK(classical.normalized_stress < (single ? 1e-5 : 1e-12));
}

TEST_CASE("SMACOF: stress equal to or below scikit-learn 1.2's MDS and MASS::isoMDS", "[smacof][reference]") {
  using namespace smacof_test;
  const auto roll = mds_references::matrix<double>("mds_swiss_roll.csv");
  const auto euro = mds_references::matrix<double>("mds_eurodist.csv");
  for (const auto& [name, D] : {std::pair{"swiss_roll", distances(roll)}, std::pair{"eurodist", euro}}) {
    INFO(name);
    // Metric: raw stress sum (delta - d)^2, the number scikit-learn's MDS.stress_ reports.
    const auto metric = nldr::Smacof{{.dim = 2, .n_init = 4, .max_iterations = 3000, .tolerance = 1e-9}}.fit(nldr::precomputed(D));
    CHECK(metric.stress <= mds_references::stress(name, "sklearn_mds_metric", "raw") * (1 + 1e-4));
    CHECK(non_increasing(metric.stress_history, squared_sum(D)));
    // Non-metric: Kruskal's stress-1 (distances in the denominator), MASS::isoMDS's stress / 100.
    const auto nonmetric = nldr::Smacof{{.dim = 2, .metric = false, .n_init = 4, .max_iterations = 3000,
                                         .tolerance = 1e-9}}
                               .fit(nldr::precomputed(D));
    CHECK(nonmetric.kruskal_stress <= mds_references::stress(name, "mass_isomds", "kruskal") * (1 + 1e-3));
    CHECK(nonmetric.kruskal_stress <= mds_references::stress(name, "sklearn_mds_nonmetric", "kruskal") * (1 + 1e-3));
    CHECK(non_increasing(nonmetric.stress_history, squared_sum(D)));
  }
}

TEMPLATE_TEST_CASE("SMACOF with weights ignores missing dissimilarities", "[smacof]", float, double) {
  using namespace smacof_test;
  const auto X = gaussian<TestType>(30, 2, 2);
  nldr::Matrix<TestType> D = distances(X), W = nldr::Matrix<TestType>::Ones(30, 30);
  nldr::Random random(3);
  for (int i = 0; i < 30; ++i)
    for (int j = i + 1; j < 30; ++j)
      if (random.uniform() < 0.3) {  // a third missing, their entries garbage
        W(i, j) = W(j, i) = 0;
        D(i, j) = D(j, i) = TestType(100);
      }
  const auto model = nldr::Smacof{{.dim = 2, .max_iterations = 20000, .tolerance = 1e-13}}.fit(nldr::precomputed(D), W);
  CHECK(non_increasing(model.stress_history, squared_sum(D)));
  // The present 70% of the pairs pin the configuration: all distances, missing ones included, come back.
  CHECK(distance_error(X, model.coordinates) < (std::is_same_v<TestType, float> ? 1e-3 : 1e-6));
}

TEST_CASE("SMACOF's monotone regression equals the min-max formula; ties primary or secondary", "[smacof]") {
  using namespace smacof_test;
  nldr::Random random(4);
  nldr::detail::PoolBuffer buffer;
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> y(12), w(12);
    for (std::size_t k = 0; k < y.size(); ++k) y[k] = random.normal(), w[k] = 0.1 + random.uniform();
    const auto expected = min_max_isotonic(y, w);
    double squares = 0;
    for (std::size_t k = 0; k < y.size(); ++k) squares += w[k] * expected[k] * expected[k];
    // One chunk, and chunks of 1, 3 and 5 entries pooled on their own and then across their boundaries.
    for (const std::size_t chunk : {std::size_t(1) << 16, std::size_t(1), std::size_t(3), std::size_t(5)}) {
      INFO("chunk " << chunk);
      const auto fit = nldr::detail::pool_adjacent_violators(y.data(), w.data(), nullptr, y.size(), buffer, chunk);
      CHECK_THAT(fit.squares, WithinRel(squares, 1e-12));
      // Entry k takes the mean of the block it falls in; the blocks end where they say, in order.
      std::size_t k = 0;
      for (std::size_t b = 0; b < fit.count; ++b)
        for (; k < buffer.data()[b].end; ++k) CHECK_THAT(buffer.data()[b].value, WithinAbs(expected[k], 1e-12));
      CHECK(k == y.size());
    }
  }
  // Four points; pairs (0,1), (0,2) tied at delta 1, the others at 2. A configuration on a line with
  // distances 3 and 1 for the tied pair and 4, 7, 10, 11 for the others: the primary approach orders
  // the tie by distance, 1, 3, 4, 7, 10, 11 has no violation and the fit is the distances; the
  // secondary one gives the tied pair their mean, 2, and the others theirs, 8. Either is scaled to
  // sum dhat^2 = sum delta^2 = 18 and the stress pass must see exactly these disparities.
  nldr::detail::MajorizationProblem problem{nldr::Matrix<double>(4, 4), {}, true, nldr::TieApproach::primary};
  problem.delta << 0, 1, 1, 2, 1, 0, 2, 2, 1, 2, 0, 2, 2, 2, 2, 0;
  nldr::Matrix<double> X(4, 1);
  X << 0, 3, -1, 10;
  const nldr::Matrix<double> D = distances(X), unit;
  nldr::Matrix<double> secondary_fit(4, 4);
  secondary_fit << 0, 2, 2, 8, 0, 0, 8, 8, 0, 0, 0, 8, 0, 0, 0, 0;
  for (const auto& [ties, fit] : {std::pair{nldr::TieApproach::primary, D},
                                  std::pair{nldr::TieApproach::secondary, secondary_fit}}) {
    problem.ties = ties;
    const nldr::detail::SortedPairs sorted(problem);
    nldr::detail::MonotoneRegression regression(sorted, ties);
    const double scale = regression.fit(X);
    double norm = 0;
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) norm += fit(i, j) * fit(i, j);
    CHECK_THAT(scale, WithinRel(std::sqrt(18 / norm), 1e-12));
    check_pass(regression.stress_pass(X), stress_definition(scale * fit, unit, X));
  }
}

TEST_CASE("Large tie blocks: the non-metric pass equals a textbook regression, ties primary or secondary",
          "[smacof]") {
  using namespace smacof_test;
  // 100 points (one repeated: equal distances, kept in row-major order), dissimilarities 1..5: tie
  // blocks of ~1000 pairs (sorted by distance with buckets, not by insertion alone), two chunks of the
  // pass. Reference: pairs ordered by (delta, distance) (primary) or each block averaged (secondary),
  // then pool-adjacent-violators written out plainly, means by division.
  const int n = 100;
  auto fixture = random_stress_problem(n, 41, true, 0.2);
  const nldr::Matrix<double>& X = fixture.X;
  auto& problem = fixture.problem;
  problem.delta = (problem.delta.array() * 1.4).round();
  const nldr::Matrix<double> D = distances(X);
  for (const auto ties : {nldr::TieApproach::primary, nldr::TieApproach::secondary})
    for (const bool weighted : {false, true}) {
      INFO("secondary " << (ties == nldr::TieApproach::secondary) << " weighted " << weighted);
      problem.ties = ties;
      problem.weights = weighted ? fixture.W : nldr::Matrix<double>();
      auto w = [&](int i, int j) { return weighted ? fixture.W(i, j) : 1.0; };
      // Entries in regression order: a pair each (primary) or a tie block each (secondary).
      struct Entry {
        double delta, value, weight;
        std::vector<std::pair<int, int>> pairs;
      };
      std::vector<Entry> entries;
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) entries.push_back({problem.delta(i, j), D(i, j), w(i, j), {{i, j}}});
      std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return a.delta < b.delta || (a.delta == b.delta && a.value < b.value);
      });
      if (ties == nldr::TieApproach::secondary) {
        std::vector<Entry> blocks;
        for (const Entry& e : entries) {
          if (blocks.empty() || blocks.back().delta != e.delta) blocks.push_back({e.delta, 0, 0, {}});
          blocks.back().value += e.weight * e.value;
          blocks.back().weight += e.weight;
          blocks.back().pairs.push_back(e.pairs[0]);
        }
        for (Entry& b : blocks) b.value /= b.weight;
        entries = blocks;
      }
      std::vector<Entry> pooled;
      for (Entry e : entries) {
        while (!pooled.empty() && pooled.back().value >= e.value) {
          const Entry& last = pooled.back();
          e.value = (last.weight * last.value + e.weight * e.value) / (last.weight + e.weight);
          e.weight += last.weight;
          e.pairs.insert(e.pairs.end(), last.pairs.begin(), last.pairs.end());
          pooled.pop_back();
        }
        pooled.push_back(e);
      }
      double fit_norm = 0, target = 0;
      for (const Entry& e : pooled) fit_norm += e.weight * e.value * e.value;
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) target += w(i, j) * problem.delta(i, j) * problem.delta(i, j);
      nldr::Matrix<double> dhat = nldr::Matrix<double>::Zero(n, n);
      for (const Entry& e : pooled)
        for (const auto& [i, j] : e.pairs) dhat(i, j) = std::sqrt(target / fit_norm) * e.value;
      const nldr::detail::SortedPairs sorted(problem);
      REQUIRE(sorted.ties.size() >= 5);
      REQUIRE(sorted.ties.front().second - sorted.ties.front().first > 16);
      nldr::detail::MonotoneRegression regression(sorted, ties);
      for (int repeat = 0; repeat < 2; ++repeat) {  // the second fit starts from the order the first left
        CHECK_THAT(regression.fit(X), WithinRel(std::sqrt(target / fit_norm), 1e-12));
        check_pass(regression.stress_pass(X), stress_definition(dhat, problem.weights, X));
      }
    }
}

TEST_CASE("The non-metric stress pass, in dissimilarity order, equals its definition", "[smacof]") {
  using namespace smacof_test;
  // 150 points: 11,175 pairs in three chunks of the pass; with and without weights, a repeated point
  // (d = 0, where B_ij = 0), distinct dissimilarities (so each knot of the fitted map is one pair's).
  const int n = 150;
  auto fixture = random_stress_problem(n, 31, true, 0.1);
  const nldr::Matrix<double>& X = fixture.X;
  const nldr::Matrix<double>& W = fixture.W;
  auto& problem = fixture.problem;
  REQUIRE(nldr::detail::MonotoneRegression::chunk_pairs(n) * 2 < std::size_t(n * (n - 1) / 2));
  for (const bool weighted : {false, true}) {
    INFO("weighted " << weighted);
    problem.weights = weighted ? W : nldr::Matrix<double>();
    const nldr::detail::SortedPairs sorted(problem);
    nldr::detail::MonotoneRegression regression(sorted, problem.ties);
    regression.fit(X);
    std::vector<double> knot_delta, knot_dhat;
    regression.knots(knot_delta, knot_dhat);
    REQUIRE(knot_delta.size() == std::size_t(n * (n - 1) / 2));
    CHECK(std::is_sorted(knot_dhat.begin(), knot_dhat.end()));  // monotone in the dissimilarities
    nldr::Matrix<double> dhat = nldr::Matrix<double>::Zero(n, n);
    double target = 0;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        const auto knot = std::lower_bound(knot_delta.begin(), knot_delta.end(), problem.delta(i, j));
        REQUIRE(*knot == problem.delta(i, j));
        dhat(i, j) = knot_dhat[std::size_t(knot - knot_delta.begin())];
        target += (weighted ? W(i, j) : 1.0) * problem.delta(i, j) * problem.delta(i, j);
      }
    const auto expected = stress_definition(dhat, problem.weights, X);
    CHECK_THAT(expected.disparity_norm, WithinRel(target, 1e-12));  // scaled to sum w dhat^2 = sum w delta^2
    check_pass(regression.stress_pass(X), expected);
  }
}

TEMPLATE_TEST_CASE("SMACOF transform places new points with the configuration fixed", "[smacof][transform]", float,
                   double) {
  using namespace smacof_test;
  const bool single = std::is_same_v<TestType, float>;
  const auto all = gaussian<TestType>(50, 2, 5);
  const nldr::Matrix<TestType> train = all.topRows(40), fresh = all.bottomRows(10);
  const auto model = nldr::Smacof{{.dim = 2, .max_iterations = 5000, .tolerance = 1e-12}}.fit(train);
  // Exact training fit: a new point's distances to the training points are reproduced exactly.
  const auto placed = model.transform(fresh);
  REQUIRE(placed.rows() == 10);
  for (Eigen::Index p = 0; p < 10; ++p)
    for (Eigen::Index i = 0; i < 40; ++i) {
      const double original = (fresh.row(p) - train.row(i)).template cast<double>().norm();
      const double embedded = (placed.row(p) - model.coordinates.row(i)).template cast<double>().norm();
      CHECK_THAT(embedded, WithinAbs(original, single ? 1e-3 : 1e-6));
    }
  // A training point goes back onto itself; from distances the same.
  CHECK((model.transform(train.topRows(3)) - model.coordinates.topRows(3)).cwiseAbs().maxCoeff() <
        (single ? 1e-3 : 1e-8));
  const auto from_distances = nldr::Smacof{{.dim = 2}}.fit(nldr::precomputed(distances(train)));
  const nldr::Matrix<TestType> rows = distances(all).bottomLeftCorner(10, 40);
  CHECK((from_distances.transform_distances(rows) - placed).cwiseAbs().maxCoeff() < (single ? 1e-2 : 1e-5));
  // Non-metric: training points land near their own coordinates (the monotone map is close to linear).
  const auto nonmetric = nldr::Smacof{{.dim = 2, .metric = false}}.fit(train);
  const double scale = nonmetric.coordinates.cwiseAbs().maxCoeff();
  CHECK((nonmetric.transform(train) - nonmetric.coordinates).cwiseAbs().maxCoeff() < 0.1 * scale);
}

TEST_CASE("The stress pass equals its definition summed pair by pair", "[smacof]") {
  using namespace smacof_test;
  // 150 points: three row blocks of the pass, the last one partial; with and without weights, and a
  // repeated point (d = 0, where B_ij = 0).
  const int n = 150;
  auto fixture = random_stress_problem(n, 21, false, 0.0);
  const nldr::Matrix<double>& X = fixture.X;
  const nldr::Matrix<double>& W = fixture.W;
  auto& problem = fixture.problem;
  for (const bool weighted : {false, true}) {
    problem.weights = weighted ? W : nldr::Matrix<double>();
    const auto expected = stress_definition(problem.delta, problem.weights, X);
    const double raw = expected.raw;
    const nldr::Matrix<double>& BX = expected.BX;
    nldr::detail::StressKernel pass;
    for (int repeat = 0; repeat < 2; ++repeat)  // the kept workspace is reset between passes
      check_pass(pass(problem, problem.delta, X), expected);
    // Each segment kernel on its own, whichever one the pass picks on this processor: row i against
    // j > i gives sum_{j>i} r_ij (x_i - x_j), and the column sums the same terms with the other sign.
    const nldr::Matrix<double> columns = X.transpose();
    const auto segments = [&](auto&& kernel) {
      Eigen::MatrixXd slots = Eigen::MatrixXd::Zero(n, 3);  // all rows' column sums in one slot
      nldr::Matrix<double> rows = nldr::Matrix<double>::Zero(n, 3);
      double segment_raw = 0;
      for (int i = 0; i + 1 < n; ++i) {
        nldr::detail::StressSegment segment{columns.data(), n, 3, i, i + 1, n - i - 1, &problem.delta(i, i + 1),
                                            weighted ? &W(i, i + 1) : nullptr, &slots(i + 1, 0), slots.outerStride(),
                                            &rows(i, 0)};
        kernel(segment);
        segment_raw += segment.raw;
      }
      CHECK_THAT(segment_raw, WithinRel(raw, 1e-12));
      CHECK((rows + slots - BX).cwiseAbs().maxCoeff() < 1e-11 * BX.cwiseAbs().maxCoeff());
    };
    Eigen::ArrayXd dist(n), ratio(n), diff(n);
    segments([&](nldr::detail::StressSegment& segment) { nldr::detail::stress_segment(segment, dist, ratio, diff); });
#if defined(NLDR_MAJORIZATION_AVX512)
    if (__builtin_cpu_supports("avx512f")) {
      Eigen::ArrayXd lanes(24 + 8 * 3);
      segments([&](nldr::detail::StressSegment& segment) {
        nldr::detail::stress_segment_avx512(segment, lanes.data());
      });
    }
#endif
  }
}

TEST_CASE("SMACOF does not depend on the thread count", "[smacof][determinism]") {
  using namespace smacof_test;
  const auto X = gaussian<double>(120, 4, 6);
  nldr::Matrix<double> W = nldr::Matrix<double>::Ones(120, 120);
  for (int i = 0; i < 120; ++i) W(i, (i + 1) % 120) = W((i + 1) % 120, i) = 3;
  const auto wide = gaussian<double>(300, 3, 9);  // several row blocks of the stress pass
  const auto run = [&] {
    std::vector<nldr::Matrix<double>> out;
    out.push_back(nldr::Smacof{{.dim = 2, .n_init = 2}}.fit(X).coordinates);
    out.push_back(nldr::Smacof{{.dim = 2, .metric = false}}.fit(X).coordinates);
    out.push_back(nldr::Smacof{{.dim = 3, .metric = false, .n_init = 3, .max_iterations = 30}}.fit(wide).coordinates);
    out.push_back(nldr::Smacof{{.dim = 2, .n_init = 1, .max_iterations = 30}}.fit(wide).coordinates);
    out.push_back(nldr::Smacof{{.dim = 2}}.fit(nldr::precomputed(distances(X)), W).coordinates);
    return out;
  };
  const int before = nldr::max_threads();
  nldr::set_threads(1);
  const auto one = run();
  for (const int threads : {2, 3}) {
    nldr::set_threads(threads);
    const auto many = run();
    for (std::size_t k = 0; k < one.size(); ++k) CHECK(one[k] == many[k]);
  }
  nldr::set_threads(before);
}

TEST_CASE("SMACOF's progress with runs in parallel: non-decreasing, ends at 1, cancels every run", "[smacof]") {
  using namespace smacof_test;
  const auto X = gaussian<double>(80, 3, 12);
  const int before = nldr::max_threads();
  for (const int threads : {1, 2}) {
    nldr::set_threads(threads);
    std::vector<double> heard;
    const nldr::Smacof listening{{.dim = 2, .n_init = 4, .max_iterations = 20, .progress = [&](double f) {
                                    heard.push_back(f);
                                    return true;
                                  }}};
    const auto model = listening.fit(X);
    REQUIRE(!heard.empty());
    CHECK(std::is_sorted(heard.begin(), heard.end()));
    CHECK(heard.back() == 1.0);
    CHECK(model.best_run >= 0);
    int calls = 0;
    const nldr::Smacof cancelling{{.dim = 2, .metric = false, .n_init = 4, .progress = [&](double) {
                                     return ++calls < 3;
                                   }}};
    CHECK_THROWS_AS(cancelling.fit(X), nldr::cancelled);
  }
  nldr::set_threads(before);
}

TEST_CASE("SMACOF reports an iteration limit as such", "[smacof]") {
  using namespace smacof_test;
  const auto X = gaussian<double>(30, 4, 7);
  const auto capped = nldr::Smacof{{.dim = 2, .init = nldr::MajorizationInit::random, .max_iterations = 2,
                                    .tolerance = 0}}
                          .fit(X);
  CHECK(capped.status == nldr::MajorizationStatus::iteration_limit);
  CHECK(capped.iterations == 2);
  CHECK(capped.stress_history.size() == 3);
  CHECK(capped.diagnostics.status == nldr::SolverStatus::not_converging);
}

TEMPLATE_TEST_CASE("SMACOF's iteration observer sees every transform and can stop the fit", "[smacof][iteration]",
                   float, double) {
  using namespace smacof_test;
  const auto X = gaussian<TestType>(40, 4, 9);
  std::vector<double> heard;
  std::vector<std::string> phases;
  nldr::Matrix<double> last;
  nldr::SmacofOptions observed{.dim = 2, .n_init = 3, .tolerance = 0};
  observed.max_iterations = 20;
  observed.on_iteration = [&](const nldr::IterationReport& report) {
    heard.push_back(*report.objective);
    phases.emplace_back(report.phase);
    CHECK(report.iteration == int(heard.size() - 1) % 20 + 1);
    CHECK(report.total_iterations == 20);
    last = report.coordinates();
    return true;
  };
  const auto full = nldr::Smacof{observed}.fit(X);
  REQUIRE(heard.size() == 60);  // three runs, one after the other
  CHECK(phases.front() == "run 0");
  CHECK(phases.back() == "run 2");
  if (full.best_run == 2) CHECK(last.isApprox(full.coordinates.template cast<double>()));  // the last run's end
  // Stopping after 7 transforms of run 0 is the fit capped at 7 transforms (the stop ends every run).
  int calls = 0;
  observed.on_iteration = [&](const nldr::IterationReport&) { return ++calls < 7; };
  const auto stopped = nldr::Smacof{observed}.fit(X);
  CHECK(stopped.status == nldr::MajorizationStatus::stopped);
  CHECK(stopped.iterations == 7);
  CHECK(stopped.best_run == 0);
  nldr::SmacofOptions capped{.dim = 2, .tolerance = 0};
  capped.max_iterations = 7;
  const auto reference = nldr::Smacof{capped}.fit(X);
  CHECK(stopped.coordinates.isApprox(reference.coordinates, TestType(1e-5)));
  CHECK(stopped.stress_history == reference.stress_history);
}

TEST_CASE("SMACOF refuses bad input with named errors", "[smacof][hostile]") {
  using namespace smacof_test;
  const auto X = gaussian<double>(10, 3, 8);
  auto bad = X;
  bad(4, 1) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_CONTAINING(nldr::Smacof{}.fit(bad), nldr::invalid_argument, "X(4, 1)");
  CHECK_THROWS_CONTAINING(nldr::Smacof{}.fit(X.topRows(2)), nldr::invalid_argument, "X");
  CHECK_THROWS_CONTAINING(nldr::Smacof{{.dim = 10}}.fit(X), nldr::invalid_argument, "dim");
  CHECK_THROWS_CONTAINING(nldr::Smacof{{.n_init = 0}}.fit(X), nldr::invalid_argument, "n_init");
  CHECK_THROWS_CONTAINING(nldr::Smacof{{.max_iterations = 0}}.fit(X), nldr::invalid_argument, "max_iterations");
  CHECK_THROWS_CONTAINING(nldr::Smacof{{.tolerance = -1}}.fit(X), nldr::invalid_argument, "tolerance");
  const nldr::Matrix<double> same = nldr::Matrix<double>::Ones(5, 2);
  CHECK_THROWS_CONTAINING(nldr::Smacof{}.fit(same), nldr::invalid_argument, "identical");
  auto D = distances(X);
  CHECK_THROWS_CONTAINING(nldr::Smacof{}.fit(nldr::precomputed(D.leftCols(9))), nldr::invalid_argument, "square");
  auto asymmetric = D;
  asymmetric(1, 2) += 1;
  CHECK_THROWS_CONTAINING(nldr::Smacof{}.fit(nldr::precomputed(asymmetric)), nldr::invalid_argument, "symmetric");
  auto negative = D;
  negative(1, 2) = negative(2, 1) = -1;
  CHECK_THROWS_CONTAINING(nldr::Smacof{}.fit(nldr::precomputed(negative)), nldr::invalid_argument, "negative");
  // Weights that split the points in two: the parts' relative position would be arbitrary.
  nldr::Matrix<double> W = nldr::Matrix<double>::Zero(10, 10);
  W.topLeftCorner(5, 5).setOnes();
  W.bottomRightCorner(5, 5).setOnes();
  CHECK_THROWS_CONTAINING(nldr::Smacof{}.fit(nldr::precomputed(D), W), nldr::invalid_argument, "connect");
  CHECK_THROWS_CONTAINING(nldr::Smacof{}.fit(nldr::precomputed(D), W.topRows(9)), nldr::invalid_argument, "weights");
  CHECK_THROWS_AS(nldr::Smacof{{.memory_limit = 100}}.fit(X), nldr::memory_limit_exceeded);
  const auto model = nldr::Smacof{}.fit(X);
  CHECK_THROWS_CONTAINING(model.transform(gaussian<double>(2, 4, 1)), nldr::invalid_argument, "X_new");
  CHECK_THROWS_CONTAINING(model.transform_distances(D.leftCols(9)), nldr::invalid_argument, "distances");
  CHECK_THROWS_CONTAINING(nldr::Smacof{}.fit(nldr::precomputed(D)).transform(X), nldr::invalid_argument, "columns but the model was fit on N");
}
