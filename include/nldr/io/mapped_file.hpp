// MappedFile: the bytes of a whole file, read-only, without copying them into a buffer.
//
// A regular file is memory-mapped (POSIX mmap(2), populated up front so that the first pass over
// it does not take a page fault per 4 KiB); anything else (a pipe, a character device) is read
// into memory. Reading an 800 MB model file this way costs the page cache's mapping, not a copy:
// the reader then copies each matrix once, into place (docs/models.md, "Model files").
#pragma once

#include <nldr/core/error.hpp>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace nldr::io {

/// The bytes of the file at `path`, valid while the object lives.
/// \throws nldr::io_error naming the path when it cannot be opened or read.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) : path_(path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail("cannot be opened");
    struct stat info {};
    if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
      void* map = ::mmap(nullptr, std::size_t(info.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (map != MAP_FAILED) {
        ::close(fd);
        map_ = static_cast<const char*>(map);
        size_ = std::size_t(info.st_size);
        return;
      }
    }
    read_all(fd);  // a pipe, a device, an empty file, or a file system without mmap
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() {
    if (map_ != nullptr) ::munmap(const_cast<char*>(map_), size_);
  }

  std::string_view bytes() const { return map_ != nullptr ? std::string_view(map_, size_) : std::string_view(read_); }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw io_error(nldr::detail::concat(path_, ": ", what, ": ", std::strerror(errno)));
  }
  void read_all(int fd) {
    char buffer[1 << 16];
    for (;;) {
      const ::ssize_t got = ::read(fd, buffer, sizeof buffer);
      if (got == 0) break;
      if (got < 0) {
        if (errno == EINTR) continue;
        const int error = errno;
        ::close(fd);
        errno = error;
        fail("read failed");
      }
      read_.append(buffer, std::size_t(got));
    }
    ::close(fd);
  }

  std::string path_;
  const char* map_ = nullptr;
  std::size_t size_ = 0;
  std::string read_;
};

}  // namespace nldr::io
