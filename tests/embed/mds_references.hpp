// The committed reference data of the SMACOF and Sammon tests (tests/data/make_mds_references.py).
#pragma once

#include <nldr/io/csv_read.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace mds_references {

inline std::filesystem::path data_dir() {
  if (const char* dir = std::getenv("NLDR_TEST_DATA")) return dir;
  return std::filesystem::path(__FILE__).parent_path().parent_path() / "data";
}

/// tests/data/<name> as a matrix (no header).
template <class T>
nldr::Matrix<T> matrix(const std::string& name) {
  return nldr::io::read_csv<T>(data_dir() / name, {.header = nldr::io::CsvHeader::absent}).values;
}

/// The stress `measure` that `method` reached on `data` (e.g. "eurodist", "mass_sammon", "sammon").
inline double stress(const std::string& data, const std::string& method, const std::string& measure) {
  const auto table = nldr::io::read_csv<double>(data_dir() / "mds_references.csv", {.header = nldr::io::CsvHeader::present});
  const auto column = std::find(table.header.begin(), table.header.end(), data + "." + method + "." + measure);
  if (column == table.header.end()) throw std::runtime_error("no reference " + data + "." + method + "." + measure);
  return table.values(0, column - table.header.begin());
}

}  // namespace mds_references
