// AtomicFile: an output file that appears complete or not at all.
//
// The bytes go to a temporary file in the same directory as the target; commit() closes it and
// renames it over the target. rename() within one file system replaces the target atomically
// (POSIX rename(2); std::filesystem::rename), so a reader, or a later run after a crash, sees the
// old file or the new one, never a half-written one. Any failure removes the temporary file and
// throws nldr::io_error naming the path.
//
// A character device, FIFO or socket (a terminal, a pipe, /dev/null) cannot be replaced by a
// rename, and /dev/stdout or /dev/fd/N name a descriptor the caller already holds: these are
// written directly (appending, so a shell's `>>` is honored), without a temporary file.
#pragma once

#include <nldr/core/error.hpp>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include <unistd.h>  // access(2)

namespace nldr::io {

/// A file written through a temporary sibling and renamed into place by commit().
///
/// \code
/// nldr::io::AtomicFile file("out/report.txt");  // throws io_error if out/ does not exist
/// file.write("hello\n");
/// file.commit();                                // now out/report.txt exists, complete
/// \endcode
/// Without commit() (an exception while writing, an early return) the destructor removes the
/// temporary file and the target is left as it was. A symbolic link as target is followed: the
/// file it points to is replaced. The new file gets default permissions (0666 minus the umask).
/// Stream targets (a pipe, a terminal, /dev/null, /dev/stdout) are written directly instead.
/// Durability against power loss (fsync) is not attempted: atomicity is against failures and
/// crashes of the writing process.
class AtomicFile {
 public:
  /// Opens a temporary file next to `path`, or `path` itself for a stream target (see the top
  /// of this header). Throws nldr::invalid_argument for an empty path and nldr::io_error if the
  /// directory is missing, `path` is a directory, or the file cannot be created (the message
  /// carries the system's reason).
  explicit AtomicFile(std::filesystem::path path) : path_(std::move(path)) {
    namespace fs = std::filesystem;
    if (path_.empty()) throw_invalid("path", "the output path is empty: name a file");
    std::error_code ec;
    const fs::file_status target = fs::status(path_, ec);  // follows symbolic links
    if (is_stream_target(path_, target)) {
      // Opened at the first write: a probe that writes nothing (the tool checks its outputs
      // before the work) must neither block on a FIFO without reader nor end a reader's input.
      if (access(path_.c_str(), W_OK) != 0) fail("cannot be written: ", std::strerror(errno));
      direct_ = true;
      return;
    }
    // A link's target is replaced, not the link (a link that cannot be resolved is kept as given:
    // a failed weakly_canonical returns an empty path).
    if (fs::is_symlink(fs::symlink_status(path_, ec)))
      if (fs::path resolved = fs::weakly_canonical(path_, ec); !ec) path_ = std::move(resolved);
    if (fs::is_directory(target))
      fail("is a directory: name a file inside it, e.g. '", (path_ / "out.csv").string(), "'");
    if (fs::exists(target) && !fs::is_regular_file(target))
      fail("is a block device or another special file: write to a regular file, a pipe or standard output");
    const fs::path directory = path_.has_parent_path() ? path_.parent_path() : fs::path(".");
    const fs::file_status dir_status = fs::status(directory, ec);
    if (!fs::exists(dir_status))
      fail("cannot be written: directory '", directory.string(), "' does not exist: create it first");
    if (!fs::is_directory(dir_status))
      fail("cannot be written: '", directory.string(), "' is not a directory");

    // "x" (C11 exclusive mode): never reuse or clobber an existing file; retry on a name clash.
    for (int attempt = 0; attempt < 64 && file_ == nullptr; ++attempt) {
      std::string name = ".";  // hidden sibling: ".out.csv.tmp-<12 hex digits>"
      name += path_.filename().string();
      name += ".tmp-";
      name += unique_suffix();
      temp_ = directory / name;
      file_ = std::fopen(temp_.c_str(), "wbx");
      if (file_ == nullptr && errno != EEXIST)
        fail("cannot be written: creating a temporary file in '", directory.string(),
             "' failed: ", std::strerror(errno), ": check that the directory is writable");
    }
    if (file_ == nullptr) fail("cannot be written: no free temporary file name in '", directory.string(), "'");
  }

  AtomicFile(AtomicFile&& other) noexcept
      : path_(std::move(other.path_)), temp_(std::move(other.temp_)),
        file_(std::exchange(other.file_, nullptr)), committed_(std::exchange(other.committed_, true)),
        direct_(other.direct_), closed_(std::exchange(other.closed_, true)) {}
  AtomicFile& operator=(AtomicFile&&) = delete;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Discards the temporary file unless commit() succeeded; the target is untouched then.
  ~AtomicFile() { discard(); }

  /// The target path (after following a symbolic link).
  const std::filesystem::path& path() const noexcept { return path_; }

  /// True when the target is a stream (device, FIFO, socket, /dev/stdout): bytes go straight to
  /// it and what was written before a failure cannot be taken back.
  bool direct() const noexcept { return direct_; }

  /// Appends `bytes`. Throws nldr::io_error (e.g. "No space left on device"); the temporary
  /// file is removed when this object is destroyed.
  void write(std::string_view bytes) {
    if (closed_) fail("is already committed or discarded: nothing more can be written");
    if (bytes.empty()) return;
    open_stream();
    if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
      fail("write failed: ", std::strerror(errno));
  }

  /// Flushes, closes and renames the temporary file over the target (a stream target is only
  /// flushed and closed). Throws nldr::io_error on failure, after removing the temporary file;
  /// the target then keeps its old content (if any).
  void commit() {
    if (closed_) fail("is already committed or discarded");
    open_stream();
    closed_ = true;
    const bool flushed = std::fflush(file_) == 0 && std::ferror(file_) == 0;
    int error_number = errno;
    // fclose can report a delayed write error (NFS, quota); check it as well.
    const bool closed = std::fclose(std::exchange(file_, nullptr)) == 0;
    if (flushed && !closed) error_number = errno;
    if (!flushed || !closed) {
      discard();
      fail("write failed: ", std::strerror(error_number));
    }
    committed_ = direct_;
    if (direct_) return;
    std::error_code ec;
    std::filesystem::rename(temp_, path_, ec);
    if (ec) {
      discard();
      fail("cannot be replaced: ", ec.message());
    }
    committed_ = true;
  }

 private:
  /// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N (even when they lead to a regular file,
  /// which a rename would detach from the shell's redirection), a character device, FIFO or socket.
  static bool is_stream_target(const std::filesystem::path& path, const std::filesystem::file_status& status) {
    namespace fs = std::filesystem;
    const std::string text = path.lexically_normal().string();
    if (text == "/dev/stdout" || text == "/dev/stderr" || text.starts_with("/dev/fd/") ||
        text.starts_with("/proc/self/fd/"))
      return true;
    return fs::is_character_file(status) || fs::is_fifo(status) || fs::is_socket(status);
  }

  void open_stream() {
    if (!direct_ || file_ != nullptr) return;
    file_ = std::fopen(path_.c_str(), "ab");
    if (file_ == nullptr) fail("cannot be written: ", std::strerror(errno));
  }

  template <class... Parts>
  [[noreturn]] void fail(const Parts&... parts) const {
    throw io_error(nldr::detail::concat(path_.string(), ": ", parts...));
  }

  void discard() noexcept {
    closed_ = true;
    if (file_ != nullptr) std::fclose(std::exchange(file_, nullptr));
    if (!committed_ && !temp_.empty()) {
      std::error_code ignored;
      std::filesystem::remove(temp_, ignored);
      temp_.clear();
    }
  }

  // Distinct within the process (counter) and, very likely, across processes (clock, address);
  // exclusive creation makes a clash harmless anyway.
  std::string unique_suffix() const {
    static std::atomic<std::uint64_t> counter{0};
    std::uint64_t h = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    h ^= (counter.fetch_add(1) + 1) * 0x9E3779B97F4A7C15ull;
    h ^= static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(this)) << 7;
    h ^= h >> 29;  // mix (splitmix64 finalizer step)
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    static constexpr char digits[] = "0123456789abcdef";
    std::string suffix(12, '0');
    for (char& c : suffix) {
      c = digits[h & 15u];
      h >>= 4;
    }
    return suffix;
  }

  std::filesystem::path path_;
  std::filesystem::path temp_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
  bool direct_ = false;
  bool closed_ = false;  ///< committed or discarded: nothing more can be written
};

/// Writes `content` to `path` atomically (see AtomicFile): the file appears complete or not at all.
inline void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  AtomicFile file(path);
  file.write(content);
  file.commit();
}

}  // namespace nldr::io
