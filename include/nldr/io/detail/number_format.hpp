// Locale-independent number formatting for the writers (CSV, JSON, SVG), built on std::to_chars.
#pragma once

#include <charconv>
#include <concepts>
#include <string>
#include <string_view>
#include <system_error>

namespace nldr::io::detail {

/// Appends `value` to `out`. Integers exactly; floating-point values with `significant_digits`
/// digits (std::chars_format::general), or, when significant_digits == 0, the shortest text that
/// reads back to the identical value (std::to_chars without precision: round trip guaranteed by
/// [charconv.to.chars]). Non-finite values come out as "nan", "inf" or "-inf".
/// significant_digits: 0, or 1 .. 60.
template <class T>
  requires std::integral<T> || std::floating_point<T>
void append_number(std::string& out, T value, int significant_digits = 0) {
  char buffer[128];
  std::to_chars_result result{};
  if constexpr (std::floating_point<T>) {
    if (value != value) {  // NaN: to_chars may print "-nan"; one spelling reads back everywhere
      out += "nan";
      return;
    }
    result = significant_digits == 0
                 ? std::to_chars(buffer, buffer + sizeof buffer, value)
                 : std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general,
                                 significant_digits);
  } else {
    result = std::to_chars(buffer, buffer + sizeof buffer, value);
  }
  // 128 characters hold any integer, any shortest float and any general form with <= 60 digits.
  out.append(buffer, result.ptr);
}

/// Appends `value` rounded to `decimals` digits after the point, without trailing zeros or a
/// trailing point, and without a sign on zero ("12.5", "3", "0"): compact SVG coordinates and
/// tick labels. decimals: 0 .. 6; |value| beyond 1e15 falls back to the shortest general form.
inline void append_fixed(std::string& out, double value, int decimals) {
  if (!(value < 1e15 && value > -1e15)) {
    append_number(out, value);
    return;
  }
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
  std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  if (text.find('.') != std::string_view::npos) {
    while (text.back() == '0') text.remove_suffix(1);
    if (text.back() == '.') text.remove_suffix(1);
  }
  if (text == "-0") text = "0";
  out += text;
}

}  // namespace nldr::io::detail
