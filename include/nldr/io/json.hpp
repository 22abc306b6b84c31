// JsonValue: a small JSON document builder and writer for machine-readable reports (the tool's
// --json). Writing only; objects keep their insertion order.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/io/atomic_file.hpp>
#include <nldr/io/detail/number_format.hpp>
#include <nldr/io/detail/text.hpp>

#include <cmath>
#include <concepts>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace nldr::io {

/// A JSON value: null, true/false, a number, a string, an array or an object (RFC 8259).
///
/// \code
/// nldr::io::JsonValue report;                 // null; becomes an object on first key
/// report["method"] = "lle";
/// report["times"]["embed"] = 0.125;           // nested objects are created on demand
/// report["eigenvalues"].push_back(1e-9);      // null becomes an array on push_back
/// std::string text = report.dump();           // or nldr::io::write_json("r.json", report)
/// \endcode
/// Numbers are written as the shortest text that reads back to the identical value (floats as
/// floats, doubles as doubles, integers exactly); NaN and infinities, which JSON cannot hold,
/// are written as null. Strings are escaped (quote, backslash, control characters) and made
/// valid UTF-8 (malformed bytes become U+FFFD).
class JsonValue {
 public:
  using Array = std::vector<JsonValue>;
  using Object = std::vector<std::pair<std::string, JsonValue>>;

  JsonValue() = default;
  JsonValue(std::nullptr_t) {}
  JsonValue(bool value) : value_(value) {}
  template <std::integral I>
    requires(!std::same_as<I, bool> && !std::same_as<I, char>)
  JsonValue(I value) {
    if constexpr (std::is_signed_v<I>)
      value_ = static_cast<std::int64_t>(value);
    else
      value_ = static_cast<std::uint64_t>(value);
  }
  JsonValue(float value) : value_(value) {}
  JsonValue(double value) : value_(value) {}
  JsonValue(std::string value) : value_(std::move(value)) {}
  JsonValue(std::string_view value) : value_(std::string(value)) {}
  JsonValue(const char* value) : value_(std::string(value)) {}
  JsonValue(Array value) : value_(std::move(value)) {}
  JsonValue(Object value) : value_(std::move(value)) {}

  /// An empty array / object (a default JsonValue is null).
  static JsonValue array() { return JsonValue(Array{}); }
  static JsonValue object() { return JsonValue(Object{}); }

  bool is_null() const noexcept { return std::holds_alternative<std::nullptr_t>(value_); }
  bool is_array() const noexcept { return std::holds_alternative<Array>(value_); }
  bool is_object() const noexcept { return std::holds_alternative<Object>(value_); }

  /// The member `key` of an object, created (null) if absent; a null value becomes an empty
  /// object first. Throws nldr::invalid_argument if this value is neither null nor an object.
  JsonValue& operator[](std::string_view key) {
    if (is_null()) value_ = Object{};
    auto* members = std::get_if<Object>(&value_);
    if (members == nullptr)
      throw_invalid("key", "JSON member '", key, "' requested from a value that is not an object");
    for (auto& [name, value] : *members)
      if (name == key) return value;
    members->emplace_back(std::string(key), JsonValue());
    return members->back().second;
  }

  /// Appends `element` to an array; a null value becomes an empty array first. Throws
  /// nldr::invalid_argument if this value is neither null nor an array.
  void push_back(JsonValue element) {
    if (is_null()) value_ = Array{};
    auto* elements = std::get_if<Array>(&value_);
    if (elements == nullptr) throw_invalid("element", "push_back on a JSON value that is not an array");
    elements->push_back(std::move(element));
  }

  /// The JSON text. indent > 0: members and elements on their own lines, indented by `indent`
  /// spaces per level, except arrays of scalars, which stay on one line (long curves remain
  /// readable); indent == 0: compact, one line. The text ends without a newline.
  std::string dump(int indent = 2) const {
    std::string out;
    append_to(out, indent < 0 ? 0 : indent, 0);
    return out;
  }

 private:
  bool is_container() const noexcept { return is_array() || is_object(); }

  static void append_string(std::string& out, std::string_view text) {
    out += '"';
    detail::append_utf8(out, text, [](std::string& o, char c) {
      switch (c) {
        case '"': o += "\\\""; break;
        case '\\': o += "\\\\"; break;
        case '\b': o += "\\b"; break;
        case '\f': o += "\\f"; break;
        case '\n': o += "\\n"; break;
        case '\r': o += "\\r"; break;
        case '\t': o += "\\t"; break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            static constexpr char hex[] = "0123456789abcdef";
            o += "\\u00";
            o += hex[(c >> 4) & 15];
            o += hex[c & 15];
          } else {
            o += c;
          }
      }
    });
    out += '"';
  }

  static void new_line(std::string& out, int indent, int level) {
    if (indent == 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * level), ' ');
  }

  void append_to(std::string& out, int indent, int level) const {
    std::visit(
        [&](const auto& v) {
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::same_as<V, std::nullptr_t>) {
            out += "null";
          } else if constexpr (std::same_as<V, bool>) {
            out += v ? "true" : "false";
          } else if constexpr (std::floating_point<V>) {
            if (std::isfinite(v))
              detail::append_number(out, v);
            else
              out += "null";
          } else if constexpr (std::integral<V>) {
            detail::append_number(out, v);
          } else if constexpr (std::same_as<V, std::string>) {
            append_string(out, v);
          } else if constexpr (std::same_as<V, Array>) {
            bool flat = true;
            for (const JsonValue& e : v) flat = flat && !e.is_container();
            out += '[';
            for (std::size_t i = 0; i < v.size(); ++i) {
              if (i > 0) out += flat && indent > 0 ? ", " : ",";
              if (!flat) new_line(out, indent, level + 1);
              v[i].append_to(out, indent, level + 1);
            }
            if (!flat && !v.empty()) new_line(out, indent, level);
            out += ']';
          } else {
            out += '{';
            for (std::size_t i = 0; i < v.size(); ++i) {
              if (i > 0) out += ',';
              new_line(out, indent, level + 1);
              append_string(out, v[i].first);
              out += indent > 0 ? ": " : ":";
              v[i].second.append_to(out, indent, level + 1);
            }
            if (!v.empty()) new_line(out, indent, level);
            out += '}';
          }
        },
        value_);
  }

  std::variant<std::nullptr_t, bool, std::int64_t, std::uint64_t, float, double, std::string, Array, Object>
      value_{nullptr};
};

/// Writes `value` as JSON text (see JsonValue::dump) plus a final newline to `path`, atomically.
/// Throws nldr::io_error if the file cannot be written (nothing is left behind).
inline void write_json(const std::filesystem::path& path, const JsonValue& value, int indent = 2) {
  write_file_atomically(path, value.dump(indent) + "\n");
}

}  // namespace nldr::io
