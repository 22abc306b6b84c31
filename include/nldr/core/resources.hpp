// Wall-clock stage timing, peak memory and available memory (for memory guards).
#pragma once

#include <nldr/core/error.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace nldr {

/// Wall-clock seconds since construction or the last restart().
class Stopwatch {
 public:
  Stopwatch() : start_(clock::now()) {}
  double seconds() const { return std::chrono::duration<double>(clock::now() - start_).count(); }
  void restart() { start_ = clock::now(); }

 private:
  using clock = std::chrono::steady_clock;
  clock::time_point start_;
};

/// Named wall times of the stages of one run, in the order they ran.
struct StageTimes {
  std::vector<std::pair<std::string, double>> stages;
  void add(std::string name, double seconds) { stages.emplace_back(std::move(name), seconds); }
  double total() const {
    double sum = 0;
    for (const auto& stage : stages) sum += stage.second;
    return sum;
  }
};

/// Peak resident set size of this process so far, in bytes (0 where unknown).
/// Linux: VmHWM from /proc/self/status, which starts afresh at exec; getrusage's ru_maxrss does not
/// (a process started by a large parent, e.g. a Python benchmark driver, inherits its high-water mark).
inline std::uint64_t peak_memory_bytes() {
#if defined(__linux__)
  if (std::FILE* status = std::fopen("/proc/self/status", "r")) {
    char line[256];
    unsigned long long kib = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, status)) found = std::sscanf(line, "VmHWM: %llu kB", &kib) == 1;
    std::fclose(status);
    if (found) return static_cast<std::uint64_t>(kib) * 1024;
  }
#endif
#if defined(__unix__) || defined(__APPLE__)
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
#if defined(__APPLE__)
  return static_cast<std::uint64_t>(usage.ru_maxrss);  // bytes on macOS
#else
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // KiB on Linux
#endif
#else
  return 0;
#endif
}

/// Memory the system can still give this process, in bytes: MemAvailable from
/// /proc/meminfo on Linux, physical memory elsewhere (0 where unknown).
inline std::uint64_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGE_SIZE)
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
#endif
  return 0;
}

/// Refuses an allocation of `bytes` for `what` when it exceeds `limit_bytes`
/// (0: the available memory), with `alternative` telling the user what to do instead.
inline void check_memory(std::uint64_t bytes, const std::string& what, const std::string& alternative,
                         std::uint64_t limit_bytes = 0) {
  const std::uint64_t limit = limit_bytes ? limit_bytes : available_memory_bytes();
  if (limit == 0 || bytes <= limit) return;
  constexpr double mib = 1024.0 * 1024.0;
  throw memory_limit_exceeded(detail::concat(what, " needs ", double(bytes) / mib, " MiB but the limit is ",
                                             double(limit) / mib, " MiB: ", alternative));
}

}  // namespace nldr
