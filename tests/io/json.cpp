// JsonValue: escaping, number round trip, structure, and refused misuse. Expected texts are
// written by hand from RFC 8259.
#include "catch.hpp"
#include "scratch_dir.hpp"

#include <nldr/core/random.hpp>
#include <nldr/io/json.hpp>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

using nldr::io::JsonValue;

TEST_CASE("JsonValue escapes strings and keeps them valid UTF-8", "[io][json]") {
  CHECK(JsonValue("plain").dump() == "\"plain\"");
  CHECK(JsonValue("q\" b\\ /").dump() == "\"q\\\" b\\\\ /\"");
  CHECK(JsonValue("\b\f\n\r\t").dump() == "\"\\b\\f\\n\\r\\t\"");
  CHECK(JsonValue(std::string("\x01\x1f\0", 3)).dump() == "\"\\u0001\\u001f\\u0000\"");
  CHECK(JsonValue("\x7f").dump() == "\"\x7f\"");  // DEL needs no escape in JSON
  // Well-formed UTF-8 (2, 3 and 4 bytes) passes; malformed bytes become U+FFFD.
  CHECK(JsonValue("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80").dump() == "\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"");
  CHECK(JsonValue("a\xFF" "b").dump() == "\"a\xEF\xBF\xBD" "b\"");
  CHECK(JsonValue("\xC0\xAF").dump() == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");  // overlong '/'
  CHECK(JsonValue("\xED\xA0\x80").dump() == "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");  // a surrogate
  CHECK(JsonValue("\xE2\x82").dump() == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");  // truncated
}

TEMPLATE_TEST_CASE("JsonValue numbers read back bit-identical", "[io][json]", float, double) {
  using T = TestType;
  nldr::Random rng(7);
  for (int i = 0; i < 2000; ++i) {
    const double decades = sizeof(T) == 4 ? 36 : 300;  // finite values of T, subnormals included
    const T value = static_cast<T>(rng.normal() * std::pow(10.0, rng.uniform(-decades - 6, decades)));
    const std::string text = JsonValue(value).dump();
    T back{};
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), back);
    REQUIRE(ec == std::errc());
    REQUIRE(ptr == text.data() + text.size());
    REQUIRE(std::bit_cast<std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>(back) ==
            std::bit_cast<std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>(value));
  }
  CHECK(JsonValue(T(0.1)).dump() == "0.1");  // shortest form of the value in its own type
  CHECK(JsonValue(std::numeric_limits<T>::quiet_NaN()).dump() == "null");
  CHECK(JsonValue(std::numeric_limits<T>::infinity()).dump() == "null");
  CHECK(JsonValue(-std::numeric_limits<T>::infinity()).dump() == "null");
}

TEST_CASE("JsonValue integers, booleans and null", "[io][json]") {
  CHECK(JsonValue(std::numeric_limits<std::int64_t>::min()).dump() == "-9223372036854775808");
  CHECK(JsonValue(std::numeric_limits<std::uint64_t>::max()).dump() == "18446744073709551615");
  CHECK(JsonValue(std::size_t{42}).dump() == "42");
  CHECK(JsonValue(true).dump() == "true");
  CHECK(JsonValue(false).dump() == "false");
  CHECK(JsonValue().dump() == "null");
  CHECK(JsonValue(nullptr).dump() == "null");
}

TEST_CASE("JsonValue builds nested documents in insertion order", "[io][json]") {
  JsonValue report;
  report["method"] = "lle";
  report["k"] = 12;
  report["times"]["neighbors"] = 0.5;
  report["times"]["embed"] = 1.25;
  report["eigenvalues"].push_back(1e-9);
  report["eigenvalues"].push_back(2);
  report["empty"] = JsonValue::array();
  report["none"] = JsonValue::object();
  report["k"] = 13;  // an existing key is replaced in place
  CHECK(report.dump(0) ==
        R"({"method":"lle","k":13,"times":{"neighbors":0.5,"embed":1.25},"eigenvalues":[1e-09,2],"empty":[],"none":{}})");
  CHECK(report.dump() == R"({
  "method": "lle",
  "k": 13,
  "times": {
    "neighbors": 0.5,
    "embed": 1.25
  },
  "eigenvalues": [1e-09, 2],
  "empty": [],
  "none": {}
})");
  JsonValue rows = JsonValue::array();
  rows.push_back(JsonValue::Object{{"a", 1}});
  rows.push_back(JsonValue::Array{1, "x"});
  CHECK(rows.dump(1) == "[\n {\n  \"a\": 1\n },\n [1, \"x\"]\n]");
}

TEST_CASE("JsonValue refuses misuse, and write_json writes atomically", "[io][json]") {
  JsonValue number = 3;
  CHECK_THROWS_AS(number["key"], nldr::invalid_argument);
  CHECK_THROWS_AS(number.push_back(1), nldr::invalid_argument);
  JsonValue array = JsonValue::array();
  CHECK_THROWS_WITH(array["key"], ContainsSubstring("'key'"));

  nldr_test::ScratchDir dir;
  JsonValue doc;
  doc["ok"] = true;
  nldr::io::write_json(dir / "r.json", doc);
  CHECK(nldr_test::read_file(dir / "r.json") == "{\n  \"ok\": true\n}\n");
  CHECK_THROWS_AS(nldr::io::write_json(dir / "missing" / "r.json", doc), nldr::io_error);
  CHECK(dir.listing() == std::set<std::string>{"r.json"});
}
