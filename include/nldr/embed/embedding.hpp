// The result every embedder returns: coordinates plus what it took to get them.
// Method-specific results (e.g. Isomap's residual variance) derive from it.
#pragma once

#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>

#include <optional>
#include <string>

namespace nldr {

/// How the eigenproblem behind an embedding was solved.
struct EigenDiagnostics {
  std::string solver;              ///< e.g. "dense", "spectra-shift-invert"
  int iterations = 0;              ///< restarts/iterations reported by the solver (0 for dense)
  int operations = 0;              ///< matrix-vector products or solves (0 for dense)
  bool converged = true;
  double factorization_seconds = 0;  ///< sparse factorization time, when there was one
  /// Spectral methods with SpectralSolverOptions::report_gap: (lambda_{d+1} - lambda_d) / lambda_{d+1},
  /// the relative gap after the last eigenvalue kept (the null one not counted). Near 0 the d-th
  /// coordinate is ill-determined: any mix of it with the next eigenvector fits about as well.
  std::optional<double> relative_gap;
};

template <Real T>
struct Embedding {
  Matrix<T> coordinates;   ///< N x d, one embedded point per row
  Vector<T> eigenvalues;   ///< eigenvalues behind the d coordinates (meaning depends on the method)
  StageTimes times;        ///< wall time per stage ("neighbors", "weights", "eigensolve", ...)
  EigenDiagnostics solver;
};

}  // namespace nldr
