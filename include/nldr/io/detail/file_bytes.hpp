// Reading a whole file, or standard input, into memory for the readers.
#pragma once

#include <nldr/core/error.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

namespace nldr::io::detail {

/// The bytes of `path`, or of standard input when `path` is "-". Throws nldr::io_error
/// "path: cannot read: <system reason>" if it cannot be opened or read.
inline std::string read_file_bytes(const std::filesystem::path& path) {
  const bool standard_input = path == "-";
  const std::string name = standard_input ? "<stdin>" : path.string();
  const auto fail = [&](int error_number) {
    throw io_error(nldr::detail::concat(name, ": cannot read: ", std::strerror(error_number),
                                        error_number == ENOENT ? ": check the path and the working directory" : ""));
  };
  if (!standard_input && std::filesystem::is_directory(path)) fail(EISDIR);
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> owned;
  std::FILE* file = stdin;
  if (!standard_input) {
    owned.reset(std::fopen(path.c_str(), "rb"));
    if (!owned) fail(errno);
    file = owned.get();
  }
  std::string bytes;
  std::error_code ec;
  if (!standard_input)
    if (const auto size = std::filesystem::file_size(path, ec); !ec) bytes.reserve(size);
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0) bytes.append(buffer, got);
  if (std::ferror(file) != 0) fail(errno);
  return bytes;
}

}  // namespace nldr::io::detail
