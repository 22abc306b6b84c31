// libFuzzer target: nldr::model_from_bytes on arbitrary bytes (docs/models.md, "Model files").
// Contract: nldr::io_error, or a model that is whole: a known method, finite coordinates, and a
// transform of its own training points that runs (it may refuse with invalid_argument only for
// a reason it names, never crash or read out of bounds). Inputs are tried as float and as double.
// Most random bytes die at the checksum; the committed seeds are valid files, so the fuzzer's
// mutations of them (with the checksum recomputed below for half of the inputs) reach the parser.
#include "fuzz_check.hpp"

#include <nldr/registry/model_file.hpp>

#include <cstdint>
#include <cstring>
#include <string>

namespace {

template <class T>
void check(const std::string& bytes) {
  nldr::AnyModel<T> model;
  try {
    model = nldr::model_from_bytes<T>(bytes, "fuzz");
  } catch (const nldr::io_error&) {
    return;
  }
  NLDR_FUZZ_REQUIRE(!model.method().empty());
  NLDR_FUZZ_REQUIRE(model.coordinates().allFinite());
  try {
    (void)model.transform(model.coordinates().rows() > 0 ? nldr::Matrix<T>(model.coordinates().topRows(1))
                                                         : nldr::Matrix<T>(0, 1));
  } catch (const nldr::error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  // Odd-sized inputs get a valid checksum (that of the version they claim), so that mutations
  // inside the body are parsed.
  if (size >= 12 + 8 && size % 2 == 1) {
    std::uint32_t version = 0;
    std::memcpy(&version, bytes.data() + 8, 4);
    const std::uint64_t sum = nldr::detail::model_checksum(version, std::string_view(bytes).substr(0, size - 8));
    std::memcpy(bytes.data() + size - 8, &sum, 8);
  }
  check<float>(bytes);
  check<double>(bytes);
  return 0;
}
