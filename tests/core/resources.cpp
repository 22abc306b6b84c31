// Available memory: the smallest of MemAvailable and the cgroup v2 / v1 limits' headroom, read
// from fake /proc and /sys/fs/cgroup trees in a scratch directory (docs/errors.md). Expected
// values are the arithmetic of the numbers written into the fake files.
#include "catch.hpp"

#include <nldr/core/resources.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace resources_test {

constexpr std::uint64_t mib = 1024 * 1024;

/// A fake file-system root, removed at the end of the test.
class FakeRoot {
 public:
  FakeRoot() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("nldr-resources-test-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) +
             "-" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~FakeRoot() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  FakeRoot(const FakeRoot&) = delete;
  FakeRoot& operator=(const FakeRoot&) = delete;

  /// Writes `content` to root/relative, creating the directories.
  void write(const std::string& relative, const std::string& content) const {
    const auto file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << content;
  }
  void mem_available(std::uint64_t bytes) const {
    write("proc/meminfo", "MemTotal:       24683620 kB\nMemFree: 100 kB\nMemAvailable:   " +
                              std::to_string(bytes / 1024) + " kB\nBuffers: 5 kB\n");
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::uint64_t available(const FakeRoot& root) {
  const auto headroom = nldr::detail::available_memory(root.path());
  REQUIRE(headroom.has_value());
  return headroom->bytes;
}

}  // namespace resources_test

using resources_test::available;
using resources_test::FakeRoot;
using resources_test::mib;

TEST_CASE("available memory is MemAvailable without cgroup limits", "[core][resources]") {
  FakeRoot root;
  root.mem_available(8000 * mib);
  CHECK(available(root) == 8000 * mib);
  // cgroup v2 at the root of the hierarchy, and v1 with its "no limit" of PAGE_COUNTER_MAX pages.
  root.write("proc/self/cgroup", "4:memory:/job\n0::/\n");
  root.write("sys/fs/cgroup/memory.max", "max\n");
  root.write("sys/fs/cgroup/memory/job/memory.limit_in_bytes", "9223372036854771712\n");
  root.write("sys/fs/cgroup/memory/job/memory.usage_in_bytes", "98197504\n");
  CHECK(available(root) == 8000 * mib);
  CHECK(nldr::detail::available_memory(root.path())->source == "MemAvailable in /proc/meminfo");
}

TEST_CASE("cgroup v2: memory.max - (memory.current - inactive file cache), the smallest up the tree",
          "[core][resources]") {
  FakeRoot root;
  root.mem_available(20000 * mib);
  root.write("proc/self/cgroup", "0::/user.slice/job\n");
  root.write("sys/fs/cgroup/user.slice/job/memory.max", "1073741824\n");  // 1024 MiB
  root.write("sys/fs/cgroup/user.slice/job/memory.current", std::to_string(256 * mib) + "\n");
  root.write("sys/fs/cgroup/user.slice/job/memory.stat",
             "anon 100\nfile 300\nactive_file 5\ninactive_file " + std::to_string(64 * mib) + "\n");
  CHECK(available(root) == 1024 * mib - (256 - 64) * mib);
  CHECK_THAT(nldr::detail::available_memory(root.path())->source,
             ContainsSubstring("user.slice/job/memory.max = 1024 MiB, 192 MiB in use"));

  // A parent's smaller limit binds the child.
  root.write("sys/fs/cgroup/user.slice/memory.max", std::to_string(512 * mib));
  root.write("sys/fs/cgroup/user.slice/memory.current", std::to_string(100 * mib));
  CHECK(available(root) == 412 * mib);

  // Over the limit (usage above a lowered memory.max): nothing is left, and check_memory-style
  // comparisons refuse any allocation.
  root.write("sys/fs/cgroup/user.slice/job/memory.max", std::to_string(128 * mib));
  CHECK(available(root) == 0);

  // MemAvailable smaller than every limit wins.
  root.write("sys/fs/cgroup/user.slice/job/memory.max", "max");
  root.mem_available(300 * mib);
  CHECK(available(root) == 300 * mib);
}

TEST_CASE("cgroup v1: memory.limit_in_bytes - memory.usage_in_bytes; hybrid v2 under unified/", "[core][resources]") {
  FakeRoot root;
  root.mem_available(20000 * mib);
  root.write("proc/self/cgroup", "9:cpu,cpuacct:/batch/42\n4:memory:/batch/42\n0::/batch/42\n");
  root.write("sys/fs/cgroup/memory/batch/42/memory.limit_in_bytes", std::to_string(2048 * mib));
  root.write("sys/fs/cgroup/memory/batch/42/memory.usage_in_bytes", std::to_string(1024 * mib));
  root.write("sys/fs/cgroup/memory/batch/42/memory.stat",
             "cache 1\ninactive_file " + std::to_string(1000 * mib) + "\ntotal_inactive_file " + std::to_string(24 * mib));
  CHECK(available(root) == (2048 - 1000) * mib);  // the hierarchical total_inactive_file counts
  root.write("sys/fs/cgroup/unified/batch/42/memory.max", std::to_string(700 * mib));
  root.write("sys/fs/cgroup/unified/batch/42/memory.current", "0");
  CHECK(available(root) == 700 * mib);
}

TEST_CASE("a container mounting only its own cgroup: the path is walked up to the mount", "[core][resources]") {
  FakeRoot root;
  root.mem_available(20000 * mib);
  root.write("proc/self/cgroup", "0::/docker/0123abcd\n");  // the host's name, not mounted here
  root.write("sys/fs/cgroup/memory.max", std::to_string(4096 * mib));
  root.write("sys/fs/cgroup/memory.current", std::to_string(96 * mib));
  CHECK(available(root) == 4000 * mib);
}

TEST_CASE("available_memory_bytes and check_memory on this machine", "[core][resources]") {
  CHECK(nldr::available_memory_bytes() > 0);
  CHECK_NOTHROW(nldr::check_memory(1024, "a small buffer", "nothing"));
  CHECK_THROWS_WITH(nldr::check_memory(3 * mib, "the N x N matrix", "use float", 2 * mib),
                    ContainsSubstring("the N x N matrix needs 3 MiB but the limit is 2 MiB (the limit passed): use float"));
  CHECK_THROWS_AS(nldr::check_memory(std::uint64_t(1) << 62, "an exabyte", "buy memory"), nldr::memory_limit_exceeded);
}
