// Errors every rank sees. A failure on one rank (its block of the input holds a NaN, its write
// fails) must not leave the other ranks waiting forever in a collective call the failing rank never
// reaches: collectively() runs a step on every rank, agrees on whether any rank failed and, if so,
// throws the first failing rank's exception (same type and message) on all ranks.
#pragma once

#include <nldr/core/error.hpp>

#include <mpi.h>

#include <exception>
#include <string>
#include <utility>

namespace nldr::mpi {

namespace detail {

// The nldr exception types a failure keeps across ranks; anything else becomes nldr::error.
enum class ErrorKind : int { error, invalid_argument, io_error, convergence_error, disconnected_graph, memory };

struct CaughtError {
  ErrorKind kind = ErrorKind::error;
  std::string parameter;  // invalid_argument's parameter name
  std::string message;
};

inline CaughtError describe(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const nldr::invalid_argument& e) {
    return {ErrorKind::invalid_argument, e.parameter(), e.what()};
  } catch (const nldr::io_error& e) {
    return {ErrorKind::io_error, {}, e.what()};
  } catch (const nldr::convergence_error& e) {
    return {ErrorKind::convergence_error, {}, e.what()};
  } catch (const nldr::disconnected_graph& e) {
    return {ErrorKind::disconnected_graph, {}, e.what()};
  } catch (const std::bad_alloc&) {
    return {ErrorKind::memory, {}, "out of memory: use more ranks (the memory per rank is in docs/scaling.md)"};
  } catch (const std::exception& e) {
    return {ErrorKind::error, {}, e.what()};
  }
}

[[noreturn]] inline void rethrow(const CaughtError& e) {
  switch (e.kind) {
    case ErrorKind::invalid_argument: throw nldr::invalid_argument(e.parameter, e.message);
    case ErrorKind::io_error: throw nldr::io_error(e.message);
    case ErrorKind::convergence_error: throw nldr::convergence_error(e.message);
    case ErrorKind::disconnected_graph: throw nldr::disconnected_graph(e.message);
    case ErrorKind::memory: throw nldr::memory_limit_exceeded(e.message);
    case ErrorKind::error: break;
  }
  throw nldr::error(e.message);
}

inline void broadcast(std::string& text, int root, MPI_Comm comm) {
  int length = int(text.size());
  MPI_Bcast(&length, 1, MPI_INT, root, comm);
  text.resize(std::size_t(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, root, comm);
}

}  // namespace detail

/// Runs `step()` on this rank, then agrees with every rank of `comm` (a collective call): if a rank
/// threw, every rank throws the exception of the lowest such rank. `step` must not itself call a
/// collective operation that a failing rank could skip.
template <class Step>
void collectively(MPI_Comm comm, Step&& step) {
  std::exception_ptr failure;
  try {
    step();
  } catch (...) {
    failure = std::current_exception();
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int mine = failure ? rank : size;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  detail::CaughtError error;
  if (rank == first) error = detail::describe(failure);
  int kind = int(error.kind);
  MPI_Bcast(&kind, 1, MPI_INT, first, comm);
  error.kind = detail::ErrorKind(kind);
  detail::broadcast(error.parameter, first, comm);
  detail::broadcast(error.message, first, comm);
  detail::rethrow(error);
}

}  // namespace nldr::mpi
