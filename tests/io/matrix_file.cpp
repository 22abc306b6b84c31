// read_matrix / read_column / write_matrix on files pandas and numpy wrote (tests/data/pandas and
// tests/data/npy, made by tests/data/make_io_files.py): each input variant either gives the
// script's literal matrix, with a note saying what was detected, or an io_error naming the option
// that decides it. Never a silently different matrix.
#include "catch.hpp"
#include "scratch_dir.hpp"

#include <nldr/io/matrix_file.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

using nldr::io::ColumnRef;
using nldr::io::CsvHeader;
using nldr::io::IndexColumn;
using nldr::io::ReadOptions;

namespace matrix_file_test {

std::filesystem::path pandas_file(const std::string& name) { return nldr_test::data_dir() / "pandas" / name; }

/// The script's X, a 4 x 3 frame with columns x, y, z.
template <class T>
nldr::Matrix<T> frame_x() {
  nldr::Matrix<T> X(4, 3);
  X << 0.5, -1.25, 3.0, 2.0, 0.125, -4.5, 1e-3, 7.0, 8.25, 6.5, -0.0625, 2.5;
  return X;
}

std::string read_error(const std::filesystem::path& path, const ReadOptions& options = {}) {
  try {
    nldr::io::read_matrix<double>(path, options);
  } catch (const nldr::io_error& e) {
    return e.what();
  }
  FAIL("no nldr::io_error for " << path);
  return {};
}

std::string joined(const std::vector<std::string>& notes) {
  std::string all;
  for (const std::string& note : notes) all += note + "\n";
  return all;
}

}  // namespace matrix_file_test

using matrix_file_test::frame_x;
using matrix_file_test::pandas_file;
using matrix_file_test::read_error;

TEMPLATE_TEST_CASE("read_matrix reads pandas' to_csv with and without index, integer header, TSV", "[io][matrix]",
                   float, double) {
  using T = TestType;
  const std::vector<std::string> xyz = {"x", "y", "z"}, numbered = {"0", "1", "2"};
  struct Case {
    const char* file;
    std::vector<std::string> names;
    bool index;
    const char* format;
  };
  for (const Case& c : {Case{"index.csv", xyz, true, "CSV"}, Case{"no_index.csv", xyz, false, "CSV"},
                        Case{"index.tsv", xyz, true, "TSV"}, Case{"int_header.csv", numbered, false, "CSV"},
                        Case{"int_header_index.csv", numbered, true, "CSV"}}) {
    INFO(c.file);
    const auto read = nldr::io::read_matrix<T>(pandas_file(c.file));
    CHECK(read.values == frame_x<T>());
    CHECK(read.column_names == c.names);
    CHECK(read.format == c.format);
    CHECK(read.index_column.has_value() == c.index);
    const std::string notes = matrix_file_test::joined(read.notes);
    CHECK((notes.find("left out column 0: no name and the values 0..N-1") != std::string::npos) == c.index);
    CHECK((notes.find("pandas' default column names") != std::string::npos) == (c.names == numbered));
    if (c.index) CHECK(read.source_columns == std::vector<std::size_t>{1, 2, 3});
  }
}

TEST_CASE("read_matrix refuses what it cannot tell apart, naming the option that decides", "[io][matrix]") {
  // df[df.x > 1].to_csv(): an unnamed index that is not 0..N-1.
  CHECK_THAT(read_error(pandas_file("filtered_index.csv")),
             ContainsSubstring("filtered_index.csv:3: the first column has no name") &&
                 ContainsSubstring("('3' on line 3)") && ContainsSubstring("--index-col 0") &&
                 ContainsSubstring("--index-col none"));
  // A text index (sample names).
  CHECK_THAT(read_error(pandas_file("text_index.csv")), ContainsSubstring("('a' on line 2)") && ContainsSubstring("--index-col 0"));
  // df.reset_index().to_csv(index=False): a named column 0..N-1.
  CHECK_THAT(read_error(pandas_file("named_index.csv")),
             ContainsSubstring("column 0 'index' holds exactly 0..N-1, like a row index") && ContainsSubstring("--index-col"));
  // Integer data under pandas' integer names: the first line may be either.
  CHECK_THAT(read_error(pandas_file("int_data_int_header.csv")),
             ContainsSubstring("line 1 '0,1,2' may be pandas' default column names") &&
                 ContainsSubstring("--header yes") && ContainsSubstring("--header no"));
  // A text label column among the data.
  CHECK_THAT(read_error(pandas_file("labels.csv")),
             ContainsSubstring("labels.csv:2:15: cell 'setosa' is not a number (column 'species': choose the numeric "
                               "columns with --columns"));
  // gzip: not read, the message gives the pipe that reads it.
  const auto gz = pandas_file("index.csv.gz");
  CHECK_THAT(read_error(gz), ContainsSubstring("is gzip-compressed") &&
                                 ContainsSubstring("gunzip -c " + gz.string() + " | nldr embed --in -"));
  // A headerless first column counting 1..N.
  CHECK_THROWS_WITH(nldr::io::parse_matrix<double>("1,0.5,2\n2,0.7,1\n3,0.1,4\n", "a.csv"),
                    ContainsSubstring("a.csv:1: column 0 holds exactly 1..N"));
  // ... but not with two rows.
  CHECK(nldr::io::parse_matrix<double>("0,0.5\n1,0.7\n", "a.csv").values.cols() == 2);
  // A single column starting with 0 over integers (or some integers) is as ambiguous as pandas' names.
  CHECK_THROWS_WITH(nldr::io::parse_matrix<double>("0\n1\n2\n", "a.csv"), ContainsSubstring("--header no"));
  CHECK_THROWS_WITH(nldr::io::parse_matrix<double>("0,1\n1.5,2\n", "a.csv"), ContainsSubstring("--header yes"));
}

TEST_CASE("read_matrix options decide what automatic detection cannot", "[io][matrix]") {
  using nldr::io::read_matrix;
  // Keep pandas' index as data.
  const auto kept = read_matrix<double>(pandas_file("index.csv"), {.index_col = IndexColumn::none()});
  REQUIRE(kept.values.cols() == 4);
  CHECK(kept.values.col(0) == Eigen::Vector4d(0, 1, 2, 3));
  CHECK(kept.column_names == std::vector<std::string>{"", "x", "y", "z"});
  // Drop a filtered, a text and a named index.
  for (const char* file : {"filtered_index.csv", "text_index.csv"}) {
    const auto read = read_matrix<double>(pandas_file(file), {.index_col = 0});
    CHECK(read.values.cols() == 3);
    CHECK(read.values.row(read.values.rows() - 1) == frame_x<double>().row(3));
    CHECK_THAT(read.notes.at(0), ContainsSubstring("left out column 0 '' as the row index"));
  }
  CHECK(read_matrix<double>(pandas_file("named_index.csv"), {.index_col = "index"}).values == frame_x<double>());
  // Integer data under integer names: header yes or no.
  CHECK(read_matrix<double>(pandas_file("int_data_int_header.csv"), {.header = CsvHeader::present}).values.rows() == 4);
  const auto all = read_matrix<double>(pandas_file("int_data_int_header.csv"),
                                       {.header = CsvHeader::absent, .index_col = IndexColumn::none()});
  CHECK(all.values.rows() == 5);
  CHECK(all.values(4, 2) == 11);
  // Data columns by name, in the order given; or every column but the labels.
  const auto picked = read_matrix<double>(pandas_file("labels.csv"), {.columns = {"z", "x"}});
  CHECK(picked.column_names == std::vector<std::string>{"z", "x"});
  CHECK(picked.values.col(0) == frame_x<double>().col(2));
  CHECK(picked.values.col(1) == frame_x<double>().col(0));
  const auto without = read_matrix<double>(pandas_file("labels.csv"), {.exclude = {"species"}});
  CHECK(without.values == frame_x<double>());
  CHECK(read_matrix<double>(pandas_file("labels.csv"), {.columns = {0, ColumnRef::parse("2")}}).source_columns ==
        std::vector<std::size_t>{0, 2});
  // Mistakes in the options.
  CHECK_THAT(read_error(pandas_file("labels.csv"), {.columns = {"w"}}),
             ContainsSubstring("the data column 'w' does not exist: the header names 'x', 'y', 'z', 'species'"));
  CHECK_THAT(read_error(pandas_file("labels.csv"), {.columns = {7}}), ContainsSubstring("column 7 does not exist"));
  CHECK_THAT(read_error(pandas_file("labels.csv"), {.columns = {"x", 0}}), ContainsSubstring("chosen twice"));
  CHECK_THAT(read_error(pandas_file("index.csv"), {.columns = {0, 1}}), ContainsSubstring("is the row index column"));
  CHECK_THROWS_AS(ColumnRef(-1), nldr::invalid_argument);
}

TEST_CASE("read_matrix: R's write.csv, whitespace with an unnamed index, tab detection", "[io][matrix]") {
  // R: a quoted empty name over quoted row names 1..N.
  const auto r = nldr::io::parse_matrix<double>("\"\",\"a\",\"b\"\n\"1\",0.5,2\n\"2\",1.5,3\n", "r.csv");
  CHECK(r.values == (nldr::Matrix<double>(2, 2) << 0.5, 2, 1.5, 3).finished());
  CHECK_THAT(r.notes.at(0), ContainsSubstring("values 1..N"));
  // Blank separated with one name fewer than columns: the first column is unnamed.
  const auto ws = nldr::io::parse_matrix<double>("a b\n0 0.5 2\n1 1.5 3\n", "w.txt");
  CHECK(ws.values.cols() == 2);
  CHECK(ws.format == "whitespace-separated text");
  CHECK_THAT(ws.notes.at(0), ContainsSubstring("one name fewer"));
  // Tabs without spaces: a TSV whatever the name, so labels may hold spaces.
  const auto tsv = nldr::io::parse_column("x\ty\tlabel\n1\t2\tiris setosa\n3\t4\tiris virginica\n", "<stdin>", "label");
  CHECK(tsv.categories == std::vector<std::string>{"iris setosa", "iris virginica"});
}

TEST_CASE("read_column gives labels as numbers or categories, rows aligned with read_matrix", "[io][matrix]") {
  const auto species = nldr::io::read_column(pandas_file("labels.csv"), "species");
  CHECK(species.name == "species");
  CHECK_FALSE(species.numeric);
  CHECK(species.categories == std::vector<std::string>{"setosa", "versicolor", "virginica"});
  CHECK(species.values == Eigen::Vector4d(0, 1, 0, 2));
  const auto y = nldr::io::read_column(pandas_file("index.csv"), 2);  // file column 2 = 'y'
  CHECK(y.name == "y");
  CHECK(y.numeric);
  CHECK(y.values == frame_x<double>().col(1));
  CHECK_THROWS_WITH(nldr::io::read_column(pandas_file("index.csv"), 0), ContainsSubstring("is the row index column"));
  // From a .npy file: by position.
  const auto npy = nldr::io::read_column(nldr_test::data_dir() / "npy" / "u1_C_1b.npy", 3);
  CHECK(npy.values == Eigen::Vector3d(4, 8, 100));
  CHECK_THROWS_WITH(nldr::io::read_column(nldr_test::data_dir() / "npy" / "u1_C_1b.npy", "x"),
                    ContainsSubstring("a .npy file has no column names"));
}

TEST_CASE("read_matrix reads .npy by content, with column choice by position", "[io][matrix]") {
  const auto npy_dir = nldr_test::data_dir() / "npy";
  const auto read = nldr::io::read_matrix<float>(npy_dir / "f4_F_be.npy");
  CHECK(read.format == ".npy");
  CHECK(read.values(2, 3) == 12.125f);
  const auto some = nldr::io::read_matrix<double>(npy_dir / "i1_F_1b.npy", {.index_col = 0, .exclude = {2}});
  CHECK(some.source_columns == std::vector<std::size_t>{1, 3});
  CHECK(some.values.col(1) == Eigen::Vector3d(-2, 2, 94));
  // The content decides: a .npy file under another name is read (and said so).
  const std::string bytes = nldr_test::read_file(npy_dir / "f8_C_le.npy");
  CHECK_THAT(nldr::io::parse_matrix<double>(bytes, "points.dat").notes.back(), ContainsSubstring("magic bytes"));
  CHECK_THROWS_WITH(nldr::io::parse_matrix<double>("1,2\n", "points.npy"), ContainsSubstring("not a .npy file"));
  CHECK_THROWS_WITH(nldr::io::parse_matrix<double>(std::string("PK\x03\x04", 4), "x.npz"),
                    ContainsSubstring("is a zip archive (.npz): extract one array"));
  CHECK_THROWS_WITH(nldr::io::read_matrix<double>(npy_dir / "f8_C_le.npy", {.header = CsvHeader::present}),
                    ContainsSubstring("a .npy file has no header line"));
  CHECK_THROWS_WITH(nldr::io::read_matrix<double>(npy_dir / "f8_C_le.npy", {.columns = {"x"}}),
                    ContainsSubstring("a .npy file has no column names"));
}

TEST_CASE("read_matrix reads standard input; write_matrix writes standard output", "[io][matrix]") {
  nldr_test::ScratchDir dir;
  // Standard input from a pandas file, then from a .npy file (the content decides).
  for (const auto& source : {pandas_file("index.csv"), nldr_test::data_dir() / "npy" / "f8_C_le.npy"}) {
    REQUIRE(std::freopen(source.c_str(), "rb", stdin) != nullptr);
    const auto read = nldr::io::read_matrix<double>("-");
    CHECK(read.values.rows() == (source.extension() == ".npy" ? 3 : 4));
  }
  REQUIRE(std::freopen("/dev/null", "rb", stdin) != nullptr);
  CHECK_THROWS_WITH(nldr::io::read_matrix<double>("-"), ContainsSubstring("<stdin>: no data"));

  // Standard output into a file, as `nldr ... --out - > y.csv` does.
  const auto captured = dir / "stdout.csv";
  std::fflush(stdout);
  const int saved = dup(1);
  const int file = open(captured.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  REQUIRE((saved >= 0 && file >= 0));
  dup2(file, 1);
  close(file);
  nldr::io::write_matrix("-", frame_x<double>(), {.header = {"a", "b", "c"}});
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  const auto back = nldr::io::read_matrix<double>(captured);
  CHECK(back.values == frame_x<double>());
  CHECK(back.column_names == std::vector<std::string>{"a", "b", "c"});
}

TEMPLATE_TEST_CASE("write_matrix writes CSV with an optional header, or .npy by extension", "[io][matrix]", float,
                   double) {
  using T = TestType;
  nldr_test::ScratchDir dir;
  const nldr::Matrix<T> Y = frame_x<T>();
  nldr::io::write_matrix(dir / "y.csv", Y);
  nldr::io::write_matrix(dir / "named.csv", Y, {.header = {"d1", "d2", "d3"}});
  nldr::io::write_matrix(dir / "y.NPY", Y);
  nldr::io::write_matrix(dir / "y.tsv", Y, {.header = {"first d", "d2", "d3"}});
  CHECK(nldr_test::read_file(dir / "y.tsv").starts_with("first d\td2\td3\n0.5\t-1.25\t3\n"));
  CHECK(nldr::io::read_matrix<T>(dir / "y.tsv").values == Y);
  CHECK(nldr::io::read_matrix<T>(dir / "y.csv").column_names.empty());
  CHECK(nldr::io::read_matrix<T>(dir / "y.csv").values == Y);
  CHECK(nldr_test::read_file(dir / "named.csv").starts_with("d1,d2,d3\n0.5,-1.25,3\n"));
  const auto npy = nldr::io::read_matrix<T>(dir / "y.NPY");
  CHECK(npy.format == ".npy");
  CHECK(npy.values == Y);
  CHECK_THROWS_WITH(nldr::io::write_matrix(dir / "z.npy", Y, {.header = {"a", "b", "c"}}),
                    ContainsSubstring("a .npy file has no column names"));
  CHECK_THROWS_AS(nldr::io::write_matrix(dir / "w.csv", Y, {.header = {"a"}}), nldr::invalid_argument);
  CHECK(dir.listing() == std::set<std::string>{"y.csv", "named.csv", "y.NPY", "y.tsv"});
}
