// Building blocks of the SVG plots: axis scales, tick positions and labels, XML text.
#pragma once

#include <nldr/io/detail/number_format.hpp>
#include <nldr/io/detail/text.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace nldr::io::detail {

/// Appends `text` as XML character data / attribute value: escaped, valid UTF-8, and with the
/// control characters XML 1.0 forbids replaced by U+FFFD.
inline void append_xml_text(std::string& out, std::string_view text) {
  append_utf8(out, text, [](std::string& o, char c) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
          o += "\xEF\xBF\xBD";
        else
          o += c;
    }
  });
}

/// A coordinate in pixels, rounded to 0.1 px (small files, no visible difference).
inline void append_px(std::string& out, double value) { append_fixed(out, value, 1); }

/// A "nice" number near x > 0: 1, 2 or 5 times a power of ten (Heckbert, "Nice numbers for
/// graph labels", Graphics Gems, 1990). round: nearest; otherwise the next one up.
inline double nice_number(double x, bool round) {
  const double exponent = std::floor(std::log10(x));
  const double power = std::pow(10.0, exponent);
  const double f = x / power;
  double nice;
  if (round)
    nice = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
  else
    nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return nice * power;
}

/// A linear or base-10 logarithmic map from data values [lo, hi] to pixels [from, to] (from
/// may exceed to: SVG's y grows downwards), with its tick values.
struct Scale {
  double lo = 0, hi = 1;      // data range (lo < hi; both > 0 when log)
  double from = 0, to = 1;    // pixel range
  bool log = false;
  double step = 1;            // tick spacing (linear scales)

  double transform(double v) const { return log ? std::log10(v) : v; }
  double operator()(double v) const {
    const double a = transform(lo), b = transform(hi);
    return from + (transform(v) - a) / (b - a) * (to - from);
  }

  /// Tick values inside [lo, hi]: about `target` multiples of a nice step (Heckbert 1990) on a
  /// linear scale; powers of ten on a log scale, plus 2x and 5x when fewer than 3 decades show.
  std::vector<double> ticks(int target = 6) const {
    std::vector<double> out;
    if (log) {
      const double first = std::ceil(std::log10(lo) - 1e-9), last = std::floor(std::log10(hi) + 1e-9);
      for (double e = first; e <= last; ++e) out.push_back(std::pow(10.0, e));
      if (out.size() < 3) {
        out.clear();
        for (double e = std::floor(std::log10(lo)); e <= last + 1; ++e)
          for (double m : {1.0, 2.0, 5.0}) {
            const double v = m * std::pow(10.0, e);
            if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push_back(v);
          }
      }
      return out;
    }
    const double first = std::ceil(lo / step - 1e-9);
    for (int i = 0; first + i <= hi / step + 1e-9 && i <= 4 * target; ++i) out.push_back((first + i) * step);
    return out;
  }
};

/// A linear scale over [lo, hi] with a nice tick step for about `target` ticks; `expand` widens
/// the range outwards to whole steps. A zero-width range is widened around its value first.
inline Scale linear_scale(double lo, double hi, double from, double to, bool expand, int target = 6) {
  if (!(hi > lo)) {
    const double half = lo == 0 ? 1.0 : std::abs(lo) * 0.1;
    lo -= half;
    hi += half;
  }
  Scale s{lo, hi, from, to, false, 1};
  s.step = nice_number(nice_number(hi - lo, false) / (target - 1), true);
  if (expand) {
    s.lo = std::floor(lo / s.step + 1e-9) * s.step;
    s.hi = std::ceil(hi / s.step - 1e-9) * s.step;
  }
  return s;
}

/// A log10 scale over [lo, hi] (lo > 0); a zero-width range is widened to half a decade each side.
inline Scale log_scale(double lo, double hi, double from, double to) {
  if (!(hi > lo)) {
    lo /= std::sqrt(10.0);
    hi *= std::sqrt(10.0);
  }
  return Scale{lo, hi, from, to, true, 1};
}

/// A tick label: with as many decimals as the step needs ("0.25", "10", "1e+06" when huge).
inline void append_tick_label(std::string& out, double value, const Scale& scale) {
  if (scale.log || std::abs(value) >= 1e6 || scale.step < 1e-4) {
    append_number(out, value, 6);  // general form, 6 significant digits, e.g. "1000" or "1e-05"
    return;
  }
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(scale.step) + 1e-9)));
  append_fixed(out, value, decimals);
}

/// Appends `<text x=".." y=".." attributes>content</text>`.
inline void append_text_element(std::string& out, double x, double y, std::string_view attributes,
                                std::string_view content) {
  out += "<text x=\"";
  append_px(out, x);
  out += "\" y=\"";
  append_px(out, y);
  out += '"';
  if (!attributes.empty()) {
    out += ' ';
    out += attributes;
  }
  out += '>';
  append_xml_text(out, content);
  out += "</text>\n";
}

/// The document head: white background, default font, and the title centered on top.
inline void begin_svg(std::string& out, int width, int height, std::string_view title) {
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"";
  append_number(out, width);
  out += "\" height=\"";
  append_number(out, height);
  out += "\" viewBox=\"0 0 ";
  append_number(out, width);
  out += ' ';
  append_number(out, height);
  out += "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  if (!title.empty()) append_text_element(out, width / 2.0, 24, "text-anchor=\"middle\" font-size=\"15\"", title);
}

/// Draws the frame of the plot area with ticks and labels on the bottom (x) and left (y)
/// sides, and the axis labels.
inline void append_axes(std::string& out, const Scale& x, const Scale& y, std::string_view x_label,
                        std::string_view y_label) {
  const double left = std::min(x.from, x.to), right = std::max(x.from, x.to);
  const double top = std::min(y.from, y.to), bottom = std::max(y.from, y.to);
  out += "<g fill=\"none\" stroke=\"#444\" stroke-width=\"1\">\n<rect x=\"";
  append_px(out, left);
  out += "\" y=\"";
  append_px(out, top);
  out += "\" width=\"";
  append_px(out, right - left);
  out += "\" height=\"";
  append_px(out, bottom - top);
  out += "\"/>\n<path d=\"";
  const std::vector<double> x_ticks = x.ticks(), y_ticks = y.ticks();
  for (double t : x_ticks) {
    out += 'M';
    append_px(out, x(t));
    out += ' ';
    append_px(out, bottom);
    out += "v5";
  }
  for (double t : y_ticks) {
    out += 'M';
    append_px(out, left);
    out += ' ';
    append_px(out, y(t));
    out += "h-5";
  }
  out += "\"/>\n</g>\n<g fill=\"#222\">\n";
  std::string label;
  for (double t : x_ticks) {
    label.clear();
    append_tick_label(label, t, x);
    append_text_element(out, x(t), bottom + 18, "text-anchor=\"middle\"", label);
  }
  for (double t : y_ticks) {
    label.clear();
    append_tick_label(label, t, y);
    append_text_element(out, left - 8, y(t) + 4, "text-anchor=\"end\"", label);
  }
  if (!x_label.empty()) append_text_element(out, (left + right) / 2, bottom + 38, "text-anchor=\"middle\"", x_label);
  if (!y_label.empty()) {
    const double cx = left - 52, cy = (top + bottom) / 2;
    std::string attributes = "text-anchor=\"middle\" transform=\"rotate(-90 ";
    append_px(attributes, cx);
    attributes += ' ';
    append_px(attributes, cy);
    attributes += ")\"";
    append_text_element(out, cx, cy, attributes, y_label);
  }
  out += "</g>\n";
}

}  // namespace nldr::io::detail
