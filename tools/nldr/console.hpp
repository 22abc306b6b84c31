// What the tool tells the user on stderr while it works (docs/tool.md, "Progress and logging"):
// stage timings as they finish (--verbose), a progress line for the long stages when stderr is a
// terminal and the run has taken more than a second (never with --quiet), and Ctrl-C: the first
// one stops the run at the next progress report (nldr::cancelled, nothing written), a second
// one kills it at once.
#pragma once

#include <nldr/nldr.hpp>

#include <csignal>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace nldr_tool {

class Console {
 public:
  /// Progress is shown only after this many seconds, so short runs print nothing.
  static constexpr double quiet_seconds = 1.0;

  Console(bool quiet, bool verbose) : quiet_(quiet), verbose_(verbose), terminal_(::isatty(STDERR_FILENO) == 1) {
    interrupted() = 0;
    std::signal(SIGINT, on_interrupt);
  }
  ~Console() {
    clear_line();
    std::signal(SIGINT, SIG_DFL);
  }
  Console(const Console&) = delete;
  Console& operator=(const Console&) = delete;

  /// Records a finished stage in `times` and, with --verbose, prints it.
  void stage(nldr::StageTimes& times, const std::string& name, double seconds) {
    times.add(name, seconds);
    if (!verbose_) return;
    clear_line();
    std::fprintf(stderr, "nldr: %-24s %9.3f s\n", name.c_str(), seconds);
  }

  /// Prints (with --verbose) stages that were timed elsewhere, e.g. a tuning sweep's totals.
  void print(const nldr::StageTimes& times) {
    if (!verbose_) return;
    clear_line();
    for (const auto& [name, seconds] : times.stages) std::fprintf(stderr, "nldr: %-24s %9.3f s\n", name.c_str(), seconds);
  }

  /// A callback that draws nothing and returns false once the user has pressed Ctrl-C: for the
  /// inner stages of a computation whose outer loop draws the progress line.
  static nldr::ProgressCallback cancel_only() {
    return [](double) { return interrupted() == 0; };
  }

  /// A callback for the library's long stages: draws "nldr: <what> 42%" (redrawn only when the
  /// percentage changes: the eigensolvers report every product) and returns false once the user
  /// has pressed Ctrl-C.
  nldr::ProgressCallback progress(const std::string& what) {
    return [this, what, shown = -1](double fraction) mutable {
      const int percent = int(100 * fraction + 0.5);
      if (!quiet_ && terminal_ && percent != shown && since_start_.seconds() > quiet_seconds) {
        std::fprintf(stderr, "\rnldr: %s %3d%%", what.c_str(), percent);
        std::fflush(stderr);
        line_drawn_ = true;
        shown = percent;
      }
      return interrupted() == 0;
    };
  }

  /// With --verbose, an observer of the iterative methods that prints the objective every 50
  /// iterations and at the end ("nldr: smacof run 0  50/300  objective 12.5"); otherwise none, which
  /// costs the method nothing (docs/iterative.md).
  nldr::IterationCallback iterations(const std::string& method) {
    if (!verbose_) return {};
    return [this, method](const nldr::IterationReport& r) {
      if (r.objective && (r.iteration % 50 == 0 || r.iteration == r.total_iterations)) {
        clear_line();
        std::fprintf(stderr, "nldr: %s %s %5d/%d  objective %.6g\n", method.c_str(), std::string(r.phase).c_str(),
                     r.iteration, r.total_iterations, *r.objective);
      }
      return true;
    };
  }

 private:
  static volatile std::sig_atomic_t& interrupted() {
    static volatile std::sig_atomic_t flag = 0;
    return flag;
  }
  static void on_interrupt(int) {
    interrupted() = 1;
    std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C kills at once
    static const char note[] = "\nnldr: interrupted: stopping at the next progress report (Ctrl-C again to kill)\n";
    [[maybe_unused]] const auto written = ::write(STDERR_FILENO, note, sizeof note - 1);
  }
  void clear_line() {
    if (!line_drawn_) return;
    std::fprintf(stderr, "\r\033[K");
    line_drawn_ = false;
  }

  bool quiet_, verbose_, terminal_;
  bool line_drawn_ = false;
  nldr::Stopwatch since_start_;
};

}  // namespace nldr_tool
