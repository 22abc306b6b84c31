// Reader of the IDX files of MNIST and Fashion-MNIST (LeCun et al. 1998; Xiao, Rasul & Vollgraf
// 2017), gzipped or not: a big-endian header (magic 0x0000 08 <dims>, then <dims> 4-byte sizes)
// followed by the unsigned bytes. For the benchmarks only, not part of the library.
#pragma once

#include <nldr/core/types.hpp>

#include <zlib.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench_idx {

/// The images of an IDX3 file as rows of pixel / 255 (N x rows*cols), at most `limit` of them.
template <class T>
nldr::Matrix<T> read_images(const std::string& path, long limit = -1) {
  gzFile file = gzopen(path.c_str(), "rb");  // reads uncompressed files as they are
  if (!file) throw std::runtime_error("cannot open " + path);
  auto read_exactly = [&](void* out, unsigned bytes) {
    if (gzread(file, out, bytes) != int(bytes)) {
      gzclose(file);
      throw std::runtime_error("truncated IDX file " + path);
    }
  };
  unsigned char header[16];
  read_exactly(header, 16);
  auto big_endian = [&](int at) {
    return std::uint32_t(header[at]) << 24 | std::uint32_t(header[at + 1]) << 16 | std::uint32_t(header[at + 2]) << 8 |
           std::uint32_t(header[at + 3]);
  };
  if (big_endian(0) != 0x00000803) {
    gzclose(file);
    throw std::runtime_error(path + " is not an IDX3 file of unsigned bytes (magic 0x803)");
  }
  long n = long(big_endian(4));
  const long dim = long(big_endian(8)) * long(big_endian(12));
  if (limit >= 0 && limit < n) n = limit;
  std::vector<unsigned char> pixels(std::size_t(n * dim));
  read_exactly(pixels.data(), unsigned(pixels.size()));
  gzclose(file);
  nldr::Matrix<T> images(n, dim);
  for (long i = 0; i < n * dim; ++i) images.data()[i] = T(pixels[std::size_t(i)]) / T(255);
  return images;
}

/// The labels of an IDX1 file (magic 0x801, one unsigned byte per item), at most `limit` of them.
inline std::vector<int> read_labels(const std::string& path, long limit = -1) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) throw std::runtime_error("cannot open " + path);
  unsigned char header[8];
  if (gzread(file, header, 8) != 8) {
    gzclose(file);
    throw std::runtime_error("truncated IDX file " + path);
  }
  const std::uint32_t magic = std::uint32_t(header[2]) << 8 | header[3];
  long n = long(std::uint32_t(header[4]) << 24 | std::uint32_t(header[5]) << 16 | std::uint32_t(header[6]) << 8 |
                header[7]);
  if (header[0] != 0 || header[1] != 0 || magic != 0x801) {
    gzclose(file);
    throw std::runtime_error(path + " is not an IDX1 file of unsigned bytes (magic 0x801)");
  }
  if (limit >= 0 && limit < n) n = limit;
  std::vector<unsigned char> bytes(static_cast<std::size_t>(n));
  if (gzread(file, bytes.data(), unsigned(n)) != int(n)) {
    gzclose(file);
    throw std::runtime_error("truncated IDX file " + path);
  }
  gzclose(file);
  return {bytes.begin(), bytes.end()};
}

}  // namespace bench_idx
