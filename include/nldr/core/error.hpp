// The nldr exception hierarchy. Every message names the parameter, its value and a fix,
// e.g. "k = 40 must be < N = 30: lower k or supply more points".
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace nldr {

/// Base of every exception nldr throws; catch this to handle them all.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A parameter or input value violates a documented precondition.
class invalid_argument : public error {
 public:
  invalid_argument(std::string parameter, const std::string& message)
      : error(message), parameter_(std::move(parameter)) {}
  /// Name of the offending parameter (e.g. "k", "X", "radius").
  const std::string& parameter() const noexcept { return parameter_; }

 private:
  std::string parameter_;
};

/// The neighbor graph is not connected where the method needs a connected graph.
class disconnected_graph : public error {
 public:
  using error::error;
};

/// An iterative solver did not converge; the message says what to try.
class convergence_error : public error {
 public:
  using error::error;
};

/// A request would need more memory than the configured limit; the message names the alternative.
class memory_limit_exceeded : public error {
 public:
  using error::error;
};

/// The caller's progress callback asked to stop (returned false); no partial result is returned.
class cancelled : public error {
 public:
  using error::error;
};

/// Reading or writing a file failed (missing path, malformed CSV, ...).
class io_error : public error {
 public:
  using error::error;
};

namespace detail {

/// Concatenates streamable parts into one string: concat("k = ", k, " must be ...").
template <class... Parts>
std::string concat(const Parts&... parts) {
  std::ostringstream out;
  out.precision(10);
  (out << ... << parts);
  return out.str();
}

}  // namespace detail

/// Throws nldr::invalid_argument for `parameter` with a message built from `parts`.
template <class... Parts>
[[noreturn]] void throw_invalid(const std::string& parameter, const Parts&... parts) {
  throw invalid_argument(parameter, detail::concat(parts...));
}

}  // namespace nldr
