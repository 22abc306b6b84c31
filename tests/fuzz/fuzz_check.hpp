// Contract checks inside the libFuzzer targets: a violated property prints itself and aborts, so
// libFuzzer saves the input as a crash. Unlike assert(), the check does not depend on NDEBUG.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <exception>

namespace nldr_fuzz {

[[noreturn]] inline void fail(const char* what, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: fuzz contract violated: %s\n", file, line, what);
  std::abort();
}

/// Runs `body`; an exception other than the ones `body` handles itself breaks the contract.
template <class Body>
void expect_no_foreign_exception(Body&& body) {
  try {
    body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz contract violated: unexpected exception: %s\n", e.what());
    std::abort();
  }
}

}  // namespace nldr_fuzz

#define NLDR_FUZZ_REQUIRE(condition) \
  ((condition) ? void(0) : nldr_fuzz::fail(#condition, __FILE__, __LINE__))
