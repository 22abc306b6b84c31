// What an LLE sweep over k could reuse from one k to the next, measured (docs/tuning.md, "Sweep cost"):
// the target, 20 values of k in at most 1/3 of the time of 20 independent runs, asks for reuse
// inside the method, and this program prices each candidate on standard LLE's own solver (the LU of
// I - W, embed/detail/gram_eigen.hpp).
//
//   bench_lle_sweep_reuse [N [K_MIN [K_MAX [RANK_K_MAX]]]]   default 50000 10 29 30
//
// Per k, on the Swiss roll (seed 1), in this one process (an ablation of one solver, not a comparison
// with another library):
//   weights       LLE's weights and the assembly of A = I - W;
//   symbolic      UMFPACK's symbolic analysis of (pinned) A, what "symbolic reuse" would skip;
//   numeric       UMFPACK's numeric factorization on k's own pattern;
//   on k_max      the numeric factorization with A stored in the pattern of k_max's A (explicit zeros),
//                 the price of sharing one symbolic analysis between all k;
//   cold          the library's Lanczos run (12 vectors, fixed start): products and seconds;
//   warm          Lanczos with 5 vectors started from the previous k's two eigenvectors; the smaller
//                 principal cosine between its subspace and the cold one's (1 = the same embedding);
//   criteria      nldr::evaluate_criteria of the embedding (rank_k_max RANK_K_MAX, X's neighbor lists
//                 computed once, as nldr::tune does).
#include "load_average.hpp"

#include <nldr/core/resources.hpp>
#include <nldr/datasets/swiss_roll.hpp>
#include <nldr/embed/detail/gram_eigen.hpp>
#include <nldr/embed/lle.hpp>
#include <nldr/neighbors/knn.hpp>
#include <nldr/tune/criteria.hpp>
#include <nldr/tune/knn_prefix.hpp>

#include <Spectra/SymEigsSolver.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using nldr::detail::SparseSquare;

/// A with column s replaced by e_s, keeping every stored entry (explicit zeros included), as
/// GramPseudoInverse pins it.
SparseSquare pinned(const SparseSquare& A, nldr::index_t s) {
  SparseSquare K = A;
  for (SparseSquare::InnerIterator it(K, s); it; ++it) it.valueRef() = it.row() == s ? 1.0 : 0.0;
  return K;
}

/// A (pattern of `graph`) stored in the pattern of `wider`, whose lists extend graph's: the values of A,
/// explicit zeros where only `wider` has an edge.
SparseSquare in_pattern_of(const SparseSquare& A, const SparseSquare& wider) {
  SparseSquare padded = wider;
  for (int j = 0; j < padded.outerSize(); ++j)
    for (SparseSquare::InnerIterator it(padded, j); it; ++it) it.valueRef() = A.coeff(it.row(), j);
  return padded;
}

/// Seconds of UMFPACK's symbolic analysis and numeric factorization of K.
std::pair<double, double> factor_seconds(const SparseSquare& K) {
  nldr::detail::UmfpackLu<SparseSquare> lu;
  nldr::Stopwatch clock;
  lu.analyzePattern(K);
  const double symbolic = clock.seconds();
  clock.restart();
  lu.factorize(K);
  return {symbolic, clock.seconds()};
}

}  // namespace

int main(int argc, char** argv) {
  const auto argument = [&](int i, int fallback) { return argc > i ? std::atoi(argv[i]) : fallback; };
  const nldr::index_t n = argument(1, 50000), k_min = argument(2, 10), k_max = argument(3, 29),
                      rank_k_max = argument(4, 30);
  if (n < 1000 || k_min < 3 || k_max < k_min || k_max >= n || rank_k_max < 1) {
    std::fprintf(stderr, "usage: bench_lle_sweep_reuse [N >= 1000 [K_MIN >= 3 [K_MAX >= K_MIN [RANK_K_MAX >= 1]]]]\n");
    return 2;
  }
  const auto X = nldr::datasets::swiss_roll<double>({.n = n, .seed = 1}).points;
  std::printf("standard LLE, Swiss roll N = %d, k = %d..%d, %d thread(s), load %s\n", n, k_min, k_max,
              nldr::max_threads(), load_average().c_str());
  const auto widest = nldr::KNearest{k_max}(X);
  const auto x_neighbors = nldr::KNearest{nldr::metrics::curve_neighbors(rank_k_max, n)}(X);
  std::vector<double> errors(static_cast<std::size_t>(n));
  nldr::StageTimes unused;
  const SparseSquare widest_A = nldr::detail::lle_weight_matrix(X, widest, 1e-3, errors, unused);

  std::printf("%4s %8s %9s %8s %9s %14s %22s %9s\n", "k", "weights", "symbolic", "numeric", "on k_max", "cold: products",
              "warm: products, cosine", "criteria");
  double sums[8] = {};
  Eigen::MatrixXd previous;
  for (nldr::index_t k = k_min; k <= k_max; ++k) {
    const auto graph = nldr::knn_prefix(widest, k);
    nldr::Stopwatch clock;
    const SparseSquare A = nldr::detail::lle_weight_matrix(X, graph, 1e-3, errors, unused);
    const double weights = clock.seconds();
    const nldr::index_t s = nldr::detail::GramPseudoInverse::most_listed(A);
    const auto [symbolic, numeric] = factor_seconds(pinned(A, s));
    const double on_widest = factor_seconds(pinned(in_pattern_of(A, widest_A), s)).second;

    nldr::detail::GramPseudoInverse op(A);
    if (!op.factorize(s)) {
      std::printf("%4d: the LU failed at the most listed point; skipped\n", k);
      continue;
    }
    clock.restart();
    Spectra::SymEigsSolver<nldr::detail::GramPseudoInverse> cold(op, 2, 12);
    cold.init();
    cold.compute(Spectra::SortRule::LargestAlge, 1000, 1e-10);
    const double cold_seconds = clock.seconds();
    const Eigen::MatrixXd vectors = cold.eigenvectors();
    long warm_products = 0;
    double warm_seconds = 0, cosine = 0;
    if (previous.size() > 0) {
      const Eigen::VectorXd start = previous.col(0) + 0.5 * previous.col(1);
      clock.restart();
      Spectra::SymEigsSolver<nldr::detail::GramPseudoInverse> warm(op, 2, 5);
      warm.init(start.data());
      warm.compute(Spectra::SortRule::LargestAlge, 1000, 1e-10);
      warm_seconds = clock.seconds();
      warm_products = long(warm.num_operations());
      cosine = Eigen::JacobiSVD<Eigen::MatrixXd>(vectors.transpose() * warm.eigenvectors()).singularValues().minCoeff();
    }
    previous = vectors;
    const nldr::Matrix<double> Y = vectors;
    clock.restart();
    nldr::evaluate_criteria(X, graph, Y, {.rank_k_max = rank_k_max}, &x_neighbors);
    const double criteria = clock.seconds();

    std::printf("%4d %7.3fs %8.3fs %7.3fs %8.3fs %4ld, %7.3fs", k, weights, symbolic, numeric, on_widest,
                long(cold.num_operations()), cold_seconds);
    if (warm_products > 0)
      std::printf(" %4ld, %7.3fs, %.6f", warm_products, warm_seconds, cosine);
    else
      std::printf(" %22s", "(first k: no start)");
    std::printf(" %8.3fs\n", criteria);
    std::fflush(stdout);
    const double row[8] = {weights, symbolic, numeric, on_widest, cold_seconds, warm_seconds, criteria,
                           warm_products > 0 ? cold_seconds : 0.0};
    for (int i = 0; i < 8; ++i) sums[i] += row[i];
  }
  const double fits = sums[0] + sums[1] + sums[2] + sums[4];
  std::printf("sums: weights %.2f s, LU %.2f s (symbolic %.2f), Lanczos %.2f s; fits %.2f s; criteria %.2f s\n", sums[0],
              sums[1] + sums[2], sums[1], sums[4], fits, sums[6]);
  std::printf("symbolic reuse: numeric on k_max's pattern %.2f s against symbolic + numeric %.2f s (%+.2f s)\n",
              sums[3], sums[1] + sums[2], sums[3] - sums[1] - sums[2]);
  std::printf("warm Lanczos: %.2f s against %.2f s cold on the same k (saves %.2f s, %.0f%% of the fits)\n", sums[5],
              sums[7], sums[7] - sums[5], 100 * (sums[7] - sums[5]) / fits);
  std::printf("criteria / fits = %.2f: a sweep that scores every k costs at least this fraction of the independent "
              "fits\nload %s\n", sums[6] / fits, load_average().c_str());
  return 0;
}
