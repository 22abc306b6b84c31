// Hostile files for read_matrix and read_column (docs/errors.md): every fixture numpy and pandas
// wrote (tests/data), under every header and index mode, as float and double, and random byte
// edits and truncations of each, either give a finite matrix of at least 1 x 1 (rows and
// columns consistent with what the reader reports) or throw nldr::io_error; never another
// exception, a crash or a hang (CI runs this under ASan and UBSan).
#include "catch.hpp"
#include "scratch_dir.hpp"

#include <nldr/core/random.hpp>
#include <nldr/io/matrix_file.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace hostile_files_test {

using nldr::io::CsvHeader;
using nldr::io::IndexColumn;
using nldr::io::ReadOptions;

std::vector<ReadOptions> option_sets() {
  return {{},
          {.header = CsvHeader::present},
          {.header = CsvHeader::absent, .index_col = IndexColumn::none()},
          {.index_col = 0},
          {.exclude = {1}, .allow_non_finite = true}};
}

struct Outcome {
  int read = 0, refused = 0;
};

/// One parse: a consistent finite matrix or an io_error; counts which.
template <class T>
void parse_once(const std::string& bytes, const std::string& name, const ReadOptions& options, Outcome& outcome) {
  try {
    const auto read = nldr::io::parse_matrix<T>(bytes, name, options);
    REQUIRE(read.values.rows() >= 1);
    REQUIRE(read.values.cols() >= 1);
    REQUIRE(read.source_columns.size() == std::size_t(read.values.cols()));
    REQUIRE((read.column_names.empty() || read.column_names.size() == std::size_t(read.values.cols())));
    if (!options.allow_non_finite) REQUIRE(read.values.allFinite());
    ++outcome.read;
  } catch (const nldr::io_error& e) {
    REQUIRE(std::string(e.what()).find(name) == 0);  // the message starts with the source
    ++outcome.refused;
  }
  try {
    const auto column = nldr::io::parse_column(bytes, name, 0, options);
    REQUIRE(column.values.size() >= 1);
  } catch (const nldr::io_error&) {
  }
}

std::vector<std::filesystem::path> fixtures() {
  std::vector<std::filesystem::path> files;
  for (const char* dir : {"npy", "pandas"})
    for (const auto& entry : std::filesystem::directory_iterator(nldr_test::data_dir() / dir)) files.push_back(entry.path());
  for (const char* name : {"numpy_savetxt.txt", "python_csv_bom_crlf.csv"}) files.push_back(nldr_test::data_dir() / name);
  return files;
}

}  // namespace hostile_files_test

TEST_CASE("hostile files: every fixture under every option set reads or throws io_error", "[io][hostile]") {
  hostile_files_test::Outcome outcome;
  const auto files = hostile_files_test::fixtures();
  REQUIRE(files.size() >= 60);
  for (const auto& file : files) {
    INFO(file);
    const std::string bytes = nldr_test::read_file(file);
    for (const auto& options : hostile_files_test::option_sets()) {
      hostile_files_test::parse_once<float>(bytes, file.filename().string(), options, outcome);
      hostile_files_test::parse_once<double>(bytes, file.filename().string(), options, outcome);
    }
  }
  CHECK(outcome.read > 100);
  CHECK(outcome.refused > 100);
}

TEST_CASE("hostile files: byte edits and truncations of every fixture read or throw io_error", "[io][hostile]") {
  hostile_files_test::Outcome outcome;
  const auto option_sets = hostile_files_test::option_sets();
  nldr::Random rng(14);
  const std::string alphabet("\x00\x01\x7F\x80\xFF,\t\n\r\" #.-0123456789eE()'<>|:{}[]fiuLTrueFalse", 48);
  for (const auto& file : hostile_files_test::fixtures()) {
    INFO(file);
    const std::string original = nldr_test::read_file(file);
    for (int trial = 0; trial < 40; ++trial) {
      std::string bytes = original;
      if (trial % 8 == 0) {
        bytes.resize(rng.below(bytes.size() + 1));  // a truncated copy
      } else {
        const int edits = 1 + int(rng.below(3));
        for (int e = 0; e < edits && !bytes.empty(); ++e) {
          // Most edits land in the first 128 bytes: the header of a .npy file, the names of a CSV.
          const std::size_t limit = rng.below(4) == 0 ? bytes.size() : std::min<std::size_t>(bytes.size(), 128);
          const std::size_t at = rng.below(limit);
          const char c = alphabet[rng.below(alphabet.size())];
          switch (rng.below(3)) {
            case 0: bytes.insert(at, 1, c); break;
            case 1: bytes.erase(at, 1); break;
            default: bytes[at] = c;
          }
        }
      }
      const auto& options = option_sets[std::size_t(trial) % option_sets.size()];
      hostile_files_test::parse_once<float>(bytes, file.filename().string(), options, outcome);
      hostile_files_test::parse_once<double>(bytes, file.filename().string(), options, outcome);
    }
  }
  CHECK(outcome.read > 100);
  CHECK(outcome.refused > 100);
}
