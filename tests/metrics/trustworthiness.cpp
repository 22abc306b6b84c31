// Trustworthiness against scikit-learn 1.2.1 (Debian python3-sklearn), numbers computed once.
#include "catch.hpp"
#include "reference.hpp"

#include <nldr/metrics/trustworthiness.hpp>

#include <cmath>

namespace metrics = nldr::metrics;

namespace {

// The data is a formula, identical in C++ and numpy (no RNG):
//   i = np.arange(40, dtype=float)
//   X = np.column_stack([np.sin(0.7*i + 0.3), np.cos(1.3*i) + 0.05*i, np.sin(0.37*i*i)])
//   Y = np.column_stack([X[:,0] + 0.3*X[:,1]**2, X[:,1]*np.cos(X[:,2])])
template <class T>
std::pair<nldr::Matrix<T>, nldr::Matrix<T>> sklearn_data() {
  nldr::Matrix<T> X(40, 3), Y(40, 2);
  for (int k = 0; k < 40; ++k) {
    const double i = k;
    const double x0 = std::sin(0.7 * i + 0.3), x1 = std::cos(1.3 * i) + 0.05 * i, x2 = std::sin(0.37 * i * i);
    X.row(k) << T(x0), T(x1), T(x2);
    Y.row(k) << T(x0 + 0.3 * x1 * x1), T(x1 * std::cos(x2));
  }
  return {X, Y};
}

}  // namespace

TEMPLATE_TEST_CASE("trustworthiness matches scikit-learn 1.2", "[metrics][trustworthiness]", float, double) {
  // from sklearn.manifold import trustworthiness
  // for k in [1, 3, 5, 10, 19]: print(k, repr(trustworthiness(X, Y, n_neighbors=k)))
  // sklearn allows only k < N/2 = 20 (the first branch of G_K, which is what both sides use here).
  // The data has no distance ties, so sklearn's tie order (np.argsort quicksort) does not matter.
  // Tolerance: double 1e-12 (same integer ranks, one division); float 1e-6 allows the float
  // distances to reorder a pair whose distances agree to float precision (none do here: the check
  // with the float input passes at 1e-12 too, the looser bound only states what float may give).
  const auto [X, Y] = sklearn_data<TestType>();
  const double tol = std::is_same_v<TestType, float> ? 1e-6 : 1e-12;
  const std::pair<int, double> expected[] = {
      {1, 0.8565789473684211}, {3, 0.8466666666666667}, {5, 0.87875}, {10, 0.8686734693877551},
      {19, 0.8399521531100478}};
  for (const auto& [k, value] : expected) {
    INFO("k = " << k);
    CHECK_THAT(metrics::trustworthiness(X, Y, k), WithinAbs(value, tol));
  }
}

TEMPLATE_TEST_CASE("trustworthiness uses the second normalization branch for K >= N/2", "[metrics][trustworthiness]",
                   float, double) {
  // sklearn refuses k >= N/2; Venna & Kaski's G_K = N (N - K)(N - K - 1) there, checked against the
  // literal definition (reference.hpp), and T stays in [0, 1] up to K = N - 2.
  const auto [X, Y] = sklearn_data<TestType>();
  const auto rho = reference::ranks(reference::squared_distances(X));
  const auto r = reference::ranks(reference::squared_distances(Y));
  for (int k : {20, 25, 30, 38}) {
    INFO("k = " << k);
    const double t = metrics::trustworthiness(X, Y, k);
    CHECK_THAT(t, WithinAbs(reference::trustworthiness(rho, r, k), 1e-12));
    CHECK(t >= 0.0);
    CHECK(t <= 1.0);
  }
}
