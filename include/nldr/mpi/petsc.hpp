// The PETSc/SLEPc plumbing of nldr/mpi: the session that initializes and finalizes them (and MPI),
// error codes turned into nldr exceptions, and owning handles of PETSc objects.
#pragma once

#include <nldr/core/error.hpp>

#include <petscsys.h>
#include <slepceps.h>

#include <string>
#include <utility>

namespace nldr::mpi {

/// While alive, MPI, PETSc and SLEPc are initialized (MPI only if the caller has not done it).
/// PETSc errors return codes instead of printing tracebacks: nldr turns them into one-line
/// exceptions (check()). PETSc options (e.g. -eps_type lobpcg) can be given in the environment
/// variable PETSC_OPTIONS.
class Session {
 public:
  Session(int* argc, char*** argv) {
    if (SlepcInitialize(argc, argv, nullptr, nullptr) != 0) throw nldr::error("SlepcInitialize failed");
    PetscPushErrorHandler(PetscReturnErrorHandler, nullptr);
  }
  ~Session() {
    PetscPopErrorHandler();
    SlepcFinalize();
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

/// Throws nldr::error "what: PETSc error <code> (<its text>)" unless code is 0.
inline void check(PetscErrorCode code, const std::string& what) {
  if (code == 0) return;
  const char* text = nullptr;
  PetscErrorMessage(code, &text, nullptr);
  throw nldr::error(nldr::detail::concat(what, ": PETSc error ", int(code), " (", text ? text : "unknown", ")"));
}

/// Owns a PETSc object (Mat, Vec, EPS) and destroys it with `destroy` (MatDestroy, ...).
template <class Handle, PetscErrorCode (*destroy)(Handle*)>
class Owned {
 public:
  Owned() = default;
  ~Owned() {
    if (handle_) destroy(&handle_);
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  Handle* out() { return &handle_; }
  operator Handle() const { return handle_; }

 private:
  Handle handle_ = nullptr;
};

using OwnedMat = Owned<Mat, MatDestroy>;
using OwnedVec = Owned<Vec, VecDestroy>;
using OwnedEps = Owned<EPS, EPSDestroy>;

}  // namespace nldr::mpi
