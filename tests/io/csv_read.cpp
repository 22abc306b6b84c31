// parse_csv / read_csv: the accepted format and every malformed-input rule (docs/io.md).
// Expected values are the literal numbers typed in the test text; error positions are counted
// by hand from the literal input (line:column, 1-based, columns in bytes).
#include "catch.hpp"
#include "scratch_dir.hpp"

#include <nldr/core/random.hpp>
#include <nldr/io/csv_read.hpp>

#include <cmath>
#include <limits>
#include <string>

using nldr::io::CsvHeader;
using nldr::io::CsvOptions;
using nldr::io::CsvSeparator;
using nldr::io::parse_csv;

namespace {

/// The message of the nldr::io_error thrown by parsing `text` (fails the test if none is thrown).
template <class T = double>
std::string csv_error(const std::string& text, const CsvOptions& options = {}) {
  try {
    parse_csv<T>(text, options, "in.csv");
  } catch (const nldr::io_error& e) {
    return e.what();
  }
  FAIL("no nldr::io_error for input: " << text);
  return {};
}

}  // namespace

TEMPLATE_TEST_CASE("parse_csv reads comma and whitespace separated numbers", "[io][csv]", float, double) {
  // Exact comparison: every literal below is read by from_chars into the nearest T, which is
  // what the literal T(...) is converted to by the compiler as well.
  const auto comma = parse_csv<TestType>("1.5,-2,3e2\n0.1, 7 ,+4\n");
  REQUIRE(comma.values.rows() == 2);
  REQUIRE(comma.values.cols() == 3);
  CHECK(comma.header.empty());
  CHECK(comma.values(0, 0) == TestType(1.5));
  CHECK(comma.values(0, 1) == TestType(-2));
  CHECK(comma.values(0, 2) == TestType(300));
  CHECK(comma.values(1, 0) == TestType(0.1));
  CHECK(comma.values(1, 1) == TestType(7));
  CHECK(comma.values(1, 2) == TestType(4));

  const auto blanks = parse_csv<TestType>("  1.5\t-2   3e2\n0.1 7\t\t+4   \n");
  CHECK(blanks.values == comma.values);
}

TEST_CASE("parse_csv detects the separator per input, or takes it as forced", "[io][csv]") {
  CHECK(parse_csv<double>("1 2 3\n").values.cols() == 3);
  CHECK(parse_csv<double>("1,2,3\n").values.cols() == 3);
  // A single column has no separator at all: both readings agree.
  CHECK(parse_csv<double>("1\n2\n").values.rows() == 2);
  // Forced comma: blanks inside a cell are an error, not a separator.
  CHECK_THAT(csv_error("1 2,3\n", {.separator = CsvSeparator::comma}), ContainsSubstring("in.csv:1:1: cell '1 2'"));
  // Forced whitespace on a comma file: the hint names the fix.
  CHECK_THAT(csv_error("1,2\n", {.separator = CsvSeparator::whitespace, .header = CsvHeader::absent}),
             ContainsSubstring("in.csv:1:1: cell '1,2' is not a number") &&
                 ContainsSubstring("CsvSeparator::comma"));
}

TEST_CASE("parse_csv reads tab-separated text: one tab per separator, spaces inside cells", "[io][csv]") {
  // Detected from a first line with tabs and no space; cells keep inner spaces, and an empty
  // cell between two tabs is an empty cell (whitespace mode would merge the tabs).
  const auto t = parse_csv<double>("first x\tsecond y\n1\t 2 \n");
  CHECK(t.header == std::vector<std::string>{"first x", "second y"});
  CHECK(t.values(0, 1) == 2.0);
  CHECK_THAT(csv_error("1\t\t2\n"), ContainsSubstring("in.csv:1:3: empty cell"));
  CHECK_THAT(csv_error("1\t2 3\n", {.separator = CsvSeparator::tab}), ContainsSubstring("cell '2 3' is not a number"));
  // Aligned blanks on the first line (doubled, or next to a tab): whitespace as before.
  CHECK(parse_csv<double>("1  2\t3\n").values.cols() == 3);
  CHECK(parse_csv<double>("1 \t2\n").values.cols() == 2);
  CHECK_THAT(csv_error("1 2\t3\n"), ContainsSubstring("cell '1 2' is not a number (the separator was detected as a tab"));
  // Quoted cells followed by blanks in whitespace mode.
  CHECK(parse_csv<double>("\"a b\" \"c\"\n1 2\n").header == std::vector<std::string>{"a b", "c"});
}

TEST_CASE("parse_csv detects a header line, or takes it as forced", "[io][csv]") {
  const auto named = parse_csv<double>("x,\"y, quoted\",\"say \"\"hi\"\"\"\n1,2,3\n");
  CHECK(named.header == std::vector<std::string>{"x", "y, quoted", "say \"hi\""});
  CHECK(named.values.rows() == 1);

  const auto blank_named = parse_csv<double>("x y\n1 2\n3 4\n");
  CHECK(blank_named.header == std::vector<std::string>{"x", "y"});
  CHECK(blank_named.values.rows() == 2);

  // A quoted number is a name: a header of number-like names survives (what CsvWriter writes).
  CHECK(parse_csv<double>("\"0\",\"1\"\n5,6\n").header == std::vector<std::string>{"0", "1"});
  // An all-numeric first line is data unless a header is forced.
  CHECK(parse_csv<double>("0,1\n5,6\n").values.rows() == 2);
  const auto forced = parse_csv<double>("0,1\n5,6\n", {.header = CsvHeader::present});
  CHECK(forced.header == std::vector<std::string>{"0", "1"});
  CHECK(forced.values.rows() == 1);
  // Forced absent: the text line is data, hence an error that suggests the other reading.
  CHECK_THAT(csv_error("x,y\n1,2\n", {.header = CsvHeader::absent}),
             ContainsSubstring("in.csv:1:1: cell 'x' is not a number") &&
                 ContainsSubstring("CsvHeader::present (--header yes) if line 1 is a header"));
  // A first line mixing text and numbers is not taken as a header (that would silently drop a
  // data row with a typo): it is rejected at the text cell.
  CHECK_THAT(csv_error("1,2x\n3,4\n"), ContainsSubstring("in.csv:1:3: cell '2x' is not a number") &&
                                           ContainsSubstring("CsvHeader::present"));
}

TEST_CASE("parse_csv skips a BOM, CR of CRLF, blank and comment lines", "[io][csv]") {
  const auto t = parse_csv<double>("\xEF\xBB\xBF# made by hand\r\nx,y\r\n\r\n1,2\r\n  \r\n# middle\r\n3,4\r\n\r\n\n");
  CHECK(t.header == std::vector<std::string>{"x", "y"});
  REQUIRE(t.values.rows() == 2);
  CHECK(t.values(1, 0) == 3.0);
  CHECK(t.values(1, 1) == 4.0);
  // Without the comment rule, '#' is an ordinary (non-numeric) cell.
  CHECK_THAT(csv_error("1,2\n# c,3\n", {.comments = false}), ContainsSubstring("in.csv:2:1: cell '# c'"));
  // Columns are counted after the BOM.
  CHECK_THAT(csv_error("\xEF\xBB\xBF" "1,a\n"), ContainsSubstring("in.csv:1:3: cell 'a'"));
}

TEST_CASE("parse_csv reports every malformed input with line:column and a fix", "[io][csv]") {
  SECTION("ragged rows") {
    CHECK_THAT(csv_error("1,2,3\n4,5,6\n\n7,8\n"),
               ContainsSubstring("in.csv:4:4: line 4 has 2 columns, expected 3 as on line 1"));
    CHECK_THAT(csv_error("x y\n1 2\n3 4 5\n"), ContainsSubstring("in.csv:3:5: line 3 has 3 columns, expected 2 as on line 2"));
    CHECK_THAT(csv_error("1,2\n3,4,\n"), ContainsSubstring("in.csv:2:5: line 2 has 3 columns, expected 2"));
  }
  SECTION("empty cells") {
    CHECK_THAT(csv_error("1,2,3\n4,,6\n"), ContainsSubstring("in.csv:2:3: empty cell (a missing value)"));
    CHECK_THAT(csv_error("1,2\n4, \t\n"), ContainsSubstring("in.csv:2:3: empty cell"));
  }
  SECTION("non-numeric cells are quoted, long ones truncated") {
    CHECK_THAT(csv_error("1,2\n3,abc\n"), ContainsSubstring("in.csv:2:3: cell 'abc' is not a number"));
    CHECK_THAT(csv_error("1 2\n3 0x1F\n"), ContainsSubstring("in.csv:2:3: cell '0x1F'"));
    CHECK_THAT(csv_error("1,2\n3,1.5.2\n"), ContainsSubstring("cell '1.5.2'"));
    CHECK_THAT(csv_error("1,2\n3,\"\"\n"), ContainsSubstring("in.csv:2:3: cell '' is not a number"));
    const std::string long_cell(1000, 'z');
    const std::string message = csv_error(std::string("1,2\n3,").append(long_cell).append("\n"));
    CHECK_THAT(message, ContainsSubstring(std::string("'").append(40, 'z').append("' (first 40 of 1000 bytes)")));
    CHECK(message.size() < 400);
    CHECK_THAT(csv_error("1,2\n3,a\x01\xff\n"), ContainsSubstring("cell 'a\\x01\\xFF'"));
    CHECK_THAT(csv_error("1,5;2,3\n"), ContainsSubstring("semicolon-separated"));
  }
  SECTION("NaN and Inf are rejected by default, accepted on request") {
    CHECK_THAT(csv_error("1,2\n3,nan\n"), ContainsSubstring("in.csv:2:3: cell 'nan' is not finite") &&
                                              ContainsSubstring("allow_non_finite"));
    CHECK_THAT(csv_error("1 -inf\n"), ContainsSubstring("in.csv:1:3: cell '-inf' is not finite"));
    CHECK_THAT(csv_error("1 Infinity\n"), ContainsSubstring("in.csv:1:3: cell 'Infinity' is not finite"));
    const auto t = parse_csv<double>("nan,inf,-inf\n", {.allow_non_finite = true});
    CHECK(std::isnan(t.values(0, 0)));
    CHECK(t.values(0, 1) == std::numeric_limits<double>::infinity());
    CHECK(t.values(0, 2) == -std::numeric_limits<double>::infinity());
  }
  SECTION("numbers out of range") {
    CHECK_THAT(csv_error<float>("1,1e39\n"), ContainsSubstring("in.csv:1:3: cell '1e39' is outside the range of float") &&
                                                 ContainsSubstring("read it as double"));
    CHECK_THAT(csv_error<double>("1,-1e400\n"), ContainsSubstring("in.csv:1:3: cell '-1e400' is outside the range of double"));
    CHECK(parse_csv<double>("1e39\n").values(0, 0) == 1e39);
  }
  SECTION("empty input, only blanks or comments, only a header") {
    CHECK_THAT(csv_error(""), ContainsSubstring("in.csv: no data: the input is empty"));
    CHECK_THAT(csv_error("\xEF\xBB\xBF\r\n \n# note\n"), ContainsSubstring("in.csv: no data"));
    CHECK_THAT(csv_error("x,y\n\n"), ContainsSubstring("in.csv:1:1: only a header line, no data rows"));
  }
  SECTION("header and data disagree") {
    CHECK_THAT(csv_error("x,y,z\n1,2\n3,4\n"),
               ContainsSubstring("in.csv:1:1: the header has 3 names but the data has 2 columns (line 2)"));
  }
  SECTION("quoting errors") {
    CHECK_THAT(csv_error("1,\"2\n"), ContainsSubstring("in.csv:1:3: unterminated quoted cell"));
    CHECK_THAT(csv_error("1,\"2\"x\n"), ContainsSubstring("in.csv:1:6: unexpected text after a closing quote"));
  }
}

TEST_CASE("parse_csv survives a huge line and binary garbage", "[io][csv]") {
  // One 4 MB line without separators: a single huge cell, reported in a short message.
  const std::string huge(4'000'000, '7');
  CHECK_THAT(csv_error<float>("1\n" + huge + "x\n"), ContainsSubstring("in.csv:2:1: cell '7777"));
  // 200 000 cells on one line: a 1 x 200000 table.
  std::string wide;
  for (int i = 0; i < 200'000; ++i) wide += i == 0 ? "1" : ",1";
  CHECK(parse_csv<double>(wide).values.cols() == 200'000);
  // Binary bytes, including NUL, never crash the parser.
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 131 + 7) % 256);
  CHECK_THROWS_AS(parse_csv<double>(garbage), nldr::io_error);
}

TEST_CASE("read_csv reads files written by other tools", "[io][csv]") {
  const std::filesystem::path data = nldr_test::data_dir();
  // numpy.savetxt(X, header='x y z'): '%.18e' values, blank separated, '# x y z' header comment.
  const auto numpy = nldr::io::read_csv<double>(data / "numpy_savetxt.txt");
  // Python's csv module with encoding='utf-8-sig' (BOM), CRLF line ends, a quoted header name.
  const auto python = nldr::io::read_csv<double>(data / "python_csv_bom_crlf.csv");
  CHECK(numpy.header.empty());
  CHECK(python.header == std::vector<std::string>{"x", "label, quoted", "z"});
  nldr::Matrix<double> expected(3, 3);  // the X both files were made from (see tests/data/README.md)
  expected << 0.1, -2.5e-3, 1234.5678, 1e-300, 3.0, -0.0, 6.02214076e23, -7.0, 0.333;
  CHECK(numpy.values == expected);
  CHECK(python.values == expected);
  CHECK(std::signbit(numpy.values(1, 2)));
}

TEST_CASE("read_csv names the path and the system's reason when it cannot read", "[io][csv]") {
  nldr_test::ScratchDir dir;
  const auto missing = dir / "missing.csv";
  CHECK_THROWS_WITH(nldr::io::read_csv<double>(missing),
                    ContainsSubstring(missing.string() + ": cannot read: No such file or directory"));
  CHECK_THROWS_WITH(nldr::io::read_csv<double>(dir.path()), ContainsSubstring(": cannot read: Is a directory"));
  nldr_test::write_file(dir / "ragged.csv", "1,2\n3\n");
  CHECK_THROWS_WITH(nldr::io::read_csv<double>(dir / "ragged.csv"),
                    ContainsSubstring((dir / "ragged.csv").string() + ":2:2: line 2 has 1 column, expected 2"));
}

TEST_CASE("parse_csv on mutated input either parses or throws io_error", "[io][csv]") {
  // A cheap fuzz: random byte edits of a valid file must never crash, hang or throw anything
  // but nldr::io_error (run under ASan/UBSan in CI); a successful parse is a full rectangle.
  const std::string valid = "\xEF\xBB\xBFx,\"y\"\r\n# c\r\n1.5,-2e3\r\n\r\n3,4\r\n";
  const char alphabet[] = ",\"#\r\n \t.-+e0123456789naif\xEF\xBB\xBF\x00";
  nldr::Random rng(3);
  int parsed = 0, rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text = valid;
    const int edits = 1 + static_cast<int>(rng.below(4));
    for (int e = 0; e < edits; ++e) {
      const auto at = static_cast<std::size_t>(rng.below(text.size() + 1));
      const char c = alphabet[rng.below(sizeof alphabet - 1)];
      switch (rng.below(3)) {
        case 0: text.insert(at, 1, c); break;
        case 1: if (at < text.size()) text.erase(at, 1); break;
        default: if (at < text.size()) text[at] = c;
      }
    }
    for (const auto separator : {CsvSeparator::automatic, CsvSeparator::whitespace}) {
      try {
        const auto t = parse_csv<float>(text, {.separator = separator});
        REQUIRE(t.values.size() > 0);
        REQUIRE((t.header.empty() || t.header.size() == std::size_t(t.values.cols())));
        ++parsed;
      } catch (const nldr::io_error&) {
        ++rejected;
      }
    }
  }
  CHECK(parsed > 0);
  CHECK(rejected > 0);
}
