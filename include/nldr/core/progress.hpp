// Progress reporting and cancellation of long computations (sweeps, large embeddings).
//
// A long computation calls the caller's ProgressCallback with the fraction of its work done; the
// callback returns true to continue or false to stop, in which case the computation throws
// nldr::cancelled (core/error.hpp) at that point and returns nothing. Callbacks are called from the
// calling thread only, between units of work, never from inside a parallel loop.
#pragma once

#include <nldr/core/error.hpp>

#include <algorithm>
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

}  // namespace nldr
