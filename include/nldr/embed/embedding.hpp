// What every embedder's fit() returns at least: coordinates plus what it took to get them. Each
// method's model derives from Embedding and adds its own results as named fields, and what its
// transform() needs (docs/models.md).
#pragma once

#include <nldr/core/resources.hpp>
#include <nldr/core/types.hpp>

#include <optional>
#include <string>

namespace nldr {

/// Outcome of a computation whose failure does not fail the embedding (as Spectra's CompInfo):
/// the eigensolver behind the coordinates always reports `success` (it throws otherwise), but a
/// diagnostic such as the negative eigenvalues of MDS may report that it could not be computed.
enum class SolverStatus {
  success,          ///< computed as asked
  not_computed,     ///< not asked for, or skipped (the field says why where it matters)
  not_converging,   ///< the iterative solver stopped at its iteration cap
  numerical_issue,  ///< a factorization or decomposition failed
};

/// Name of a status as the tool's JSON and docs spell it ("success", "not_converging", ...).
inline const char* status_name(SolverStatus status) {
  switch (status) {
    case SolverStatus::success: return "success";
    case SolverStatus::not_computed: return "not_computed";
    case SolverStatus::not_converging: return "not_converging";
    case SolverStatus::numerical_issue: return "numerical_issue";
  }
  return "unknown";
}

/// How the eigenproblem (or iteration) behind an embedding was solved.
struct EigenDiagnostics {
  std::string solver;              ///< e.g. "dense", "spectra-shift-invert"
  SolverStatus status = SolverStatus::success;
  int iterations = 0;              ///< restarts/iterations reported by the solver (0 for dense)
  int operations = 0;              ///< matrix-vector products or solves (0 for dense)
  double factorization_seconds = 0;  ///< sparse factorization time, when there was one
  /// Spectral methods with BottomEigenOptions::report_gap: (lambda_{d+1} - lambda_d) / lambda_{d+1},
  /// the relative gap after the last eigenvalue kept (the null one not counted). Near 0 the d-th
  /// coordinate is ill-determined: any mix of it with the next eigenvector fits about as well.
  std::optional<double> relative_gap;
};

template <Real T>
struct Embedding {
  Matrix<T> coordinates;        ///< N x d, one embedded point per row
  Vector<T> eigenvalues;        ///< eigenvalues behind the d coordinates (meaning depends on the method)
  StageTimes times;             ///< wall time per stage ("neighbors", "weights", "eigensolve", ...)
  EigenDiagnostics diagnostics;  ///< how the coordinates were solved for
};

}  // namespace nldr
