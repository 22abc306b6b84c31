// The one place that knows whether Catch2 is v2 (Debian bookworm) or v3.
#pragma once
#if defined(NLDR_CATCH2_V3) || (!defined(NLDR_CATCH2_V2) && __has_include(<catch2/catch_test_macros.hpp>))
#include <catch2/catch_approx.hpp>
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_floating_point.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
using Catch::Approx;
using Catch::Matchers::ContainsSubstring;
#else
#include <catch2/catch.hpp>
#include <string>
// v2 names the substring matcher Contains; v3 renamed it ContainsSubstring.
inline auto ContainsSubstring(const std::string& text) { return Catch::Matchers::Contains(text); }
#endif
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

// Checks both the exception type and that its message contains `text`; one statement, safe under `if`.
#define CHECK_THROWS_CONTAINING(expr, type, text)     \
  do {                                                \
    CHECK_THROWS_AS(expr, type);                      \
    CHECK_THROWS_WITH(expr, ContainsSubstring(text)); \
  } while (false)
