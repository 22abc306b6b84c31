// Progress reporting and cancellation of long computations (sweeps, large embeddings).
//
// A long computation calls the caller's ProgressCallback with the fraction of its work done; the
// callback returns true to continue or false to stop, in which case the computation throws
// nldr::cancelled (core/error.hpp) at that point and returns nothing. Callbacks are called from the
// calling thread only, between units of work, never from inside a parallel loop.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/parallel.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace nldr {

/// Called with the fraction of the work done, in [0, 1] and non-decreasing; returns false to cancel.
/// An empty callback means "no reporting, never cancel".
///
/// \code
/// nldr::ProgressCallback print = [](double f) { std::fprintf(stderr, "\r%3.0f%%", 100 * f); return true; };
/// nldr::ProgressCallback deadline = [&](double) { return clock.seconds() < 60; };   // stop after a minute
/// \endcode
using ProgressCallback = std::function<bool(double fraction)>;

/// Reports `fraction` (clamped to [0, 1]) to `callback`, if any.
/// \throws nldr::cancelled naming `what` when the callback returns false.
inline void report_progress(const ProgressCallback& callback, double fraction, const std::string& what) {
  if (!callback) return;
  if (!callback(std::clamp(fraction, 0.0, 1.0)))
    throw cancelled(detail::concat(what, " was cancelled by the progress callback at ", 100 * std::clamp(fraction, 0.0, 1.0),
                                   "% of its work"));
}

/// The callback of a stage that is the part [low, high] of the caller's work: reports
/// low + f (high - low) to `callback` (empty if `callback` is).
inline ProgressCallback progress_part(const ProgressCallback& callback, double low, double high) {
  if (!callback) return {};
  return [callback, low, high](double fraction) { return callback(low + fraction * (high - low)); };
}

/// parallel_for(begin, end, body, chunk) that reports the fraction of [begin, end) done to `callback`
/// after each block, from the calling thread. Without a callback it is one parallel loop; with one,
/// each block is a parallel loop ending in a barrier, which costs little on an idle machine but up
/// to a time slice when the machine runs more threads than it has cores (OpenMP's threads spin at
/// barriers). So blocks start at ~1% of the range (at least 64 iterations) and a block that took
/// under 50 ms doubles the next: a short loop makes a few reports, a long one one per ~1%.
/// Iterations must be independent (as for parallel_for), so the result does not depend on the
/// blocking. \throws nldr::cancelled naming `what` when the callback says stop.
template <class Body>
void parallel_for_reporting(std::int64_t begin, std::int64_t end, Body&& body, const ProgressCallback& callback,
                            const std::string& what, std::int64_t chunk = 16) {
  using clock = std::chrono::steady_clock;
  const std::int64_t count = std::max<std::int64_t>(end - begin, 0);
  std::int64_t block = callback ? std::max<std::int64_t>(64, count / 100) : std::max<std::int64_t>(count, 1);
  for (std::int64_t start = begin; start < end;) {
    const clock::time_point started = clock::now();
    const std::int64_t stop = std::min(end, start + block);
    parallel_for(start, stop, body, chunk);
    report_progress(callback, double(stop - begin) / double(count), what);
    if (clock::now() - started < std::chrono::milliseconds(50)) block *= 2;
    start = stop;
  }
}

/// Progress of an iteration whose length is not known in advance (a Lanczos eigensolver runs until
/// its Ritz values converge): after step k it reports k / (k + typical) to the callback, `typical`
/// being the steps of a typical run. The fraction rises with every step, passes 1/2 at the typical
/// count and never reaches 1: the caller reports 1 when the iteration has finished.
class OpenEndedProgress {
 public:
  OpenEndedProgress(ProgressCallback callback, double typical, std::string what)
      : callback_(std::move(callback)), typical_(std::max(typical, 1.0)), what_(std::move(what)) {}

  /// One more step done. \throws nldr::cancelled when the callback says stop.
  void step() {
    if (!callback_) return;
    ++steps_;
    report_progress(callback_, steps_ / (steps_ + typical_), what_);
  }

 private:
  ProgressCallback callback_;
  double typical_;
  std::string what_;
  double steps_ = 0;
};

}  // namespace nldr
