// Wall-clock stage timing, peak memory and available memory (for memory guards: MemAvailable and
// cgroup v1/v2 memory limits).
#pragma once

#include <nldr/core/error.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
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

namespace detail {

/// Memory still available and where that figure comes from (for messages).
struct MemoryHeadroom {
  std::uint64_t bytes = 0;
  std::string source;
};

inline MemoryHeadroom smaller(const std::optional<MemoryHeadroom>& a, MemoryHeadroom b) {
  return a && a->bytes <= b.bytes ? *a : b;
}

/// A cgroup file holding one number (memory.max, memory.current, memory.limit_in_bytes, ...);
/// nothing when the file is missing, says "max" or holds no number.
inline std::optional<std::uint64_t> read_cgroup_number(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string text;
  if (!(in >> text) || text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 19)
    return std::nullopt;
  return std::stoull(text);
}

/// The value of `key` in a memory.stat file (0 when absent).
inline std::uint64_t read_memory_stat(const std::filesystem::path& file, const std::string& key) {
  std::ifstream in(file);
  std::string name;
  std::uint64_t value = 0;
  while (in >> name >> value)
    if (name == key) return value;
  return 0;
}

/// Bytes a cgroup directory still allows: limit - (usage - inactive file cache), the cache the
/// kernel reclaims before it invokes the OOM killer (what docker stats and cAdvisor report as the
/// working set). Nothing if the directory sets no limit; v1 writes "no limit" as a huge number
/// (PAGE_COUNTER_MAX pages, about 2^63), so limits of 2^60 bytes and more count as none.
inline std::optional<MemoryHeadroom> cgroup_headroom(const std::filesystem::path& dir, const char* limit_file,
                                                     const char* usage_file, const char* inactive_key) {
  const auto limit = read_cgroup_number(dir / limit_file);
  if (!limit || *limit >= (std::uint64_t(1) << 60)) return std::nullopt;
  std::uint64_t used = read_cgroup_number(dir / usage_file).value_or(0);
  used -= std::min(used, read_memory_stat(dir / "memory.stat", inactive_key));
  constexpr double mib = 1024.0 * 1024.0;
  return MemoryHeadroom{*limit > used ? *limit - used : 0,
                        concat((dir / limit_file).string(), " = ", double(*limit) / mib, " MiB, ", double(used) / mib,
                               " MiB in use")};
}

/// Memory the cgroups of this process still allow, under the file-system `root` ("/" in use,
/// a scratch directory in the tests): the smallest headroom of the process's cgroup, named in
/// root/proc/self/cgroup, and of its ancestors (a parent's limit binds its children), in cgroup
/// v2 (memory.max - memory.current, under sys/fs/cgroup or sys/fs/cgroup/unified) and v1
/// (memory.limit_in_bytes - memory.usage_in_bytes, under sys/fs/cgroup/memory). Nothing if no
/// cgroup sets a limit. A path missing under the mount (a container that mounts only its own
/// cgroup) is walked up to the mount itself.
inline std::optional<MemoryHeadroom> cgroup_available(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::optional<MemoryHeadroom> smallest;
  const auto walk = [&](const fs::path& mount, const std::string& cgroup, const char* limit_file,
                        const char* usage_file, const char* inactive_key) {
    std::error_code ec;
    if (!fs::is_directory(mount, ec)) return;
    fs::path relative = fs::path(cgroup).relative_path();
    while (true) {
      const fs::path dir = mount / relative;
      if (fs::is_directory(dir, ec))
        if (const auto headroom = cgroup_headroom(dir, limit_file, usage_file, inactive_key))
          smallest = smaller(smallest, *headroom);
      if (relative.empty()) return;
      relative = relative.parent_path();
    }
  };
  std::ifstream membership(root / "proc/self/cgroup");
  std::string line;
  while (std::getline(membership, line)) {
    // "hierarchy-id:controllers:path"; v2 is "0::path", v1's memory hierarchy lists "memory".
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1), cgroup = line.substr(second + 1);
    if (controllers.empty()) {
      for (const char* mount : {"sys/fs/cgroup", "sys/fs/cgroup/unified"})
        walk(root / mount, cgroup, "memory.max", "memory.current", "inactive_file");
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      walk(root / "sys/fs/cgroup/memory", cgroup, "memory.limit_in_bytes", "memory.usage_in_bytes",
           "total_inactive_file");
    }
  }
  return smallest;
}

/// MemAvailable of root/proc/meminfo (nothing where there is no such file).
inline std::optional<MemoryHeadroom> meminfo_available(const std::filesystem::path& root) {
  std::ifstream meminfo(root / "proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return MemoryHeadroom{kib * 1024, "MemAvailable in /proc/meminfo"};
  return std::nullopt;
}

/// The smallest of MemAvailable and the cgroup limits' headroom under `root`; physical memory
/// where neither exists; nothing where even that is unknown.
inline std::optional<MemoryHeadroom> available_memory(const std::filesystem::path& root) {
  std::optional<MemoryHeadroom> available = meminfo_available(root);
  if (const auto cgroup = cgroup_available(root)) available = smaller(available, *cgroup);
  if (available) return available;
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGE_SIZE)
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0)
    return MemoryHeadroom{static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page), "physical memory"};
#endif
  return std::nullopt;
}

}  // namespace detail

/// Memory the system can still give this process, in bytes: on Linux the smallest of MemAvailable
/// (/proc/meminfo) and what its cgroup v2 or v1 memory limits leave (a container's or batch job's
/// limit); physical memory elsewhere; 0 where unknown. docs/errors.md.
inline std::uint64_t available_memory_bytes() {
  const auto available = detail::available_memory("/");
  return available ? available->bytes : 0;
}

/// Refuses an allocation of `bytes` for `what` when it exceeds `limit_bytes` (0: the available
/// memory, available_memory_bytes; a cgroup already at its limit refuses everything), with
/// `alternative` telling the user what to do instead.
inline void check_memory(std::uint64_t bytes, const std::string& what, const std::string& alternative,
                         std::uint64_t limit_bytes = 0) {
  const std::optional<detail::MemoryHeadroom> available =
      limit_bytes ? detail::MemoryHeadroom{limit_bytes, "the limit passed"} : detail::available_memory("/");
  if (!available || bytes <= available->bytes) return;
  constexpr double mib = 1024.0 * 1024.0;
  throw memory_limit_exceeded(detail::concat(what, " needs ", double(bytes) / mib, " MiB but the limit is ",
                                             double(available->bytes) / mib, " MiB (", available->source,
                                             "): ", alternative));
}

}  // namespace nldr
