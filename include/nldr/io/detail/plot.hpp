// Building blocks of the plots' layout: axis scales, tick positions and labels, the axes' marks.
#pragma once

#include <nldr/io/detail/figure.hpp>
#include <nldr/io/detail/number_format.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace nldr::io::detail {

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
inline std::string tick_label(double value, const Scale& scale) {
  std::string out;
  if (scale.log || std::abs(value) >= 1e6 || scale.step < 1e-4) {
    append_number(out, value, 6);  // general form, 6 significant digits, e.g. "1000" or "1e-05"
    return out;
  }
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(scale.step) + 1e-9)));
  append_fixed(out, value, decimals);
  return out;
}

/// The width of the widest tick label of `scale`, in pixels at 12 px.
inline double widest_tick_label(const Scale& scale) {
  double widest = 0;
  for (double t : scale.ticks()) widest = std::max(widest, text_width(tick_label(t, scale)));
  return widest;
}

/// The frame of the plot area with ticks and tick labels on the bottom (x) and left (y) sides,
/// and the axis labels: the x label below the tick labels, the y label (turned) left of them.
inline void add_axes(Figure& figure, const Scale& x, const Scale& y, const std::string& x_label,
                     const std::string& y_label) {
  const double left = std::min(x.from, x.to), right = std::max(x.from, x.to);
  const double top = std::min(y.from, y.to), bottom = std::max(y.from, y.to);
  figure.marks.push_back(RectMark{left, top, right - left, bottom - top, std::nullopt, Rgb{0x44, 0x44, 0x44}});
  LinesMark ticks;
  const std::vector<double> x_ticks = x.ticks(), y_ticks = y.ticks();
  for (double t : x_ticks) ticks.polylines.push_back({{x(t), bottom}, {x(t), bottom + 5}});
  for (double t : y_ticks) ticks.polylines.push_back({{left, y(t)}, {left - 5, y(t)}});
  figure.marks.push_back(std::move(ticks));
  for (double t : x_ticks) figure.marks.push_back(TextMark{x(t), bottom + 18, tick_label(t, x), 12, Anchor::middle});
  for (double t : y_ticks) figure.marks.push_back(TextMark{left - 8, y(t) + 4, tick_label(t, y), 12, Anchor::end});
  if (!x_label.empty())
    figure.marks.push_back(TextMark{(left + right) / 2, bottom + 38, x_label, 13, Anchor::middle});
  if (!y_label.empty())
    figure.marks.push_back(
        TextMark{left - 8 - widest_tick_label(y) - 12, (top + bottom) / 2, y_label, 13, Anchor::middle, true});
}


}  // namespace nldr::io::detail
