// Text sanitizing shared by the JSON and SVG writers: both formats must be valid UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace nldr::io::detail {

/// Length of the well-formed UTF-8 sequence starting at text[0] (1..4), or 0 if it is not
/// well formed (RFC 3629 sec. 4: no overlong forms, no surrogates, nothing above U+10FFFF).
inline std::size_t utf8_sequence_length(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const auto continuation = [&](std::size_t i) { return i < text.size() && (byte(i) & 0xC0) == 0x80; };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return continuation(1) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    if (!continuation(1) || !continuation(2)) return 0;
    if (lead == 0xE0 && byte(1) < 0xA0) return 0;  // overlong
    if (lead == 0xED && byte(1) > 0x9F) return 0;  // UTF-16 surrogates
    return 3;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    if (!continuation(1) || !continuation(2) || !continuation(3)) return 0;
    if (lead == 0xF0 && byte(1) < 0x90) return 0;  // overlong
    if (lead == 0xF4 && byte(1) > 0x8F) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

/// Appends `text` to `out` as valid UTF-8: every byte that does not start a well-formed
/// sequence becomes U+FFFD; every ASCII byte goes through `escape_ascii(out, byte)`, which
/// appends it or its escaped form (multi-byte characters are copied unchanged).
template <class EscapeAscii>
void append_utf8(std::string& out, std::string_view text, EscapeAscii&& escape_ascii) {
  while (!text.empty()) {
    const std::size_t length = utf8_sequence_length(text);
    if (length == 1) {
      escape_ascii(out, text[0]);
    } else if (length == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
    } else {
      out.append(text.substr(0, length));
    }
    text.remove_prefix(length == 0 ? 1 : length);
  }
}

}  // namespace nldr::io::detail
