// Dependency-free SVG plots, written atomically: scatter plots of 2-D embeddings and line plots
// of quality curves (R_NX(K) on a log-K axis), with axes, tick labels and legends.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/io/atomic_file.hpp>
#include <nldr/io/colormap.hpp>
#include <nldr/io/detail/plot.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace nldr::io {

/// Options of write_scatter_svg. Sizes in pixels, 200..10000.
struct ScatterOptions {
  std::string title{};
  std::string x_label{};
  std::string y_label{};
  /// Title of the color bar (only drawn when color values are given).
  std::string color_label{};
  int width = 640;
  int height = 600;
  /// Circle radius in pixels; 0 picks one from N (3 up to 500 points, 2 up to 5000, else 1.2).
  double point_radius = 0;
};

/// One curve of a line plot: y[i] over x[i] (same length >= 1, finite; x > 0 on a log axis).
struct LineSeries {
  std::string name{};
  std::vector<double> x{};
  std::vector<double> y{};
};

/// Options of write_line_plot_svg. Sizes in pixels, 200..10000.
struct LinePlotOptions {
  std::string title{};
  std::string x_label{};
  std::string y_label{};
  /// Logarithmic (base 10) x axis, as for R_NX(K) over K = 1..N-2.
  bool log_x = false;
  int width = 720;
  int height = 480;
};

namespace detail {

inline void validate_plot_size(int width, int height) {
  if (width < 200 || width > 10000) throw_invalid("width", "width = ", width, " must be in 200..10000 pixels");
  if (height < 200 || height > 10000) throw_invalid("height", "height = ", height, " must be in 200..10000 pixels");
}

/// Decimation for a polyline with non-decreasing x (M4: Jugel et al., "M4: a visualization-
/// oriented time series data aggregation", VLDB 2014): within each pixel column keep only the
/// first, last, lowest and highest point, in their original order; the drawn line is the same
/// at 1 px resolution, and the file stays small however long the series.
inline std::vector<std::array<double, 2>> m4_decimate(const std::vector<std::array<double, 2>>& points) {
  std::vector<std::array<double, 2>> out;
  std::size_t begin = 0;
  while (begin < points.size()) {
    const double column = std::floor(points[begin][0]);
    std::size_t end = begin, low = begin, high = begin;
    for (; end < points.size() && std::floor(points[end][0]) == column; ++end) {
      if (points[end][1] < points[low][1]) low = end;
      if (points[end][1] > points[high][1]) high = end;
    }
    std::array<std::size_t, 4> keep{begin, low, high, end - 1};
    std::sort(keep.begin(), keep.end());
    for (std::size_t i = 0; i < keep.size(); ++i)
      if (i == 0 || keep[i] != keep[i - 1]) out.push_back(points[keep[i]]);
    begin = end;
  }
  return out;
}

/// Ten distinguishable line colors (matplotlib's "tab10", from Tableau 10).
inline constexpr std::array<std::string_view, 10> series_colors{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                                                "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                                                                "#bcbd22", "#17becf"};

}  // namespace detail

/// Writes a scatter plot of `points` (N x 2, one embedded point per row) to `path` as SVG,
/// atomically. Both axes have the same scale (an embedding's shape is not distorted). If
/// `color_values` is non-empty (length N), point i is colored by viridis((v_i - min) / (max - min))
/// (colormap.hpp) and a color bar shows the value range; otherwise all points are one color.
/// Throws nldr::invalid_argument if points is empty or not N x 2, if a value is NaN/Inf, if
/// color_values has a length other than 0 or N, or for bad options; nldr::io_error if the file
/// cannot be written (nothing is left behind).
template <class Derived, class ColorDerived>
  requires Real<typename Derived::Scalar> && Real<typename ColorDerived::Scalar>
void write_scatter_svg(const std::filesystem::path& path, const Eigen::MatrixBase<Derived>& points,
                       const Eigen::MatrixBase<ColorDerived>& color_values, const ScatterOptions& options = {}) {
  const Eigen::Index n = points.rows();
  if (n == 0 || points.cols() != 2)
    throw_invalid("points", "points is ", n, " x ", points.cols(),
                  ": a scatter plot needs N >= 1 points with 2 coordinates each (N x 2)");
  if (!points.allFinite())
    throw_invalid("points", "points contain NaN or Inf: the embedding failed or the input was not cleaned");
  const bool colored = color_values.size() != 0;
  if (colored && color_values.size() != n)
    throw_invalid("color_values", "color_values has ", color_values.size(), " values but there are ", n,
                  " points: give one value per point, or none");
  if (colored && !color_values.allFinite())
    throw_invalid("color_values", "color_values contain NaN or Inf: give finite values");
  detail::validate_plot_size(options.width, options.height);
  if (!(options.point_radius >= 0 && options.point_radius <= 50))
    throw_invalid("point_radius", "point_radius = ", options.point_radius, " must be in 0 (automatic)..50 pixels");

  const double left = 72, right = options.width - (colored ? 100.0 : 20.0);
  const double top = 40, bottom = options.height - 52.0;
  if (right - left < 50 || bottom - top < 50)
    throw_invalid("width", "the plot area is too small for ", options.width, " x ", options.height, " pixels");

  // Equal scale on both axes, data centered, 4% padding.
  const double x_min = double(points.col(0).minCoeff()), x_max = double(points.col(0).maxCoeff());
  const double y_min = double(points.col(1).minCoeff()), y_max = double(points.col(1).maxCoeff());
  double span_x = (x_max - x_min) * 1.08, span_y = (y_max - y_min) * 1.08;
  if (span_x == 0 && span_y == 0) span_x = span_y = std::max({std::abs(x_min), std::abs(y_min), 1.0});
  const double pixels_per_unit = std::min(span_x > 0 ? (right - left) / span_x : INFINITY,
                                          span_y > 0 ? (bottom - top) / span_y : INFINITY);
  const double half_x = (right - left) / (2 * pixels_per_unit), half_y = (bottom - top) / (2 * pixels_per_unit);
  const double cx = (x_min + x_max) / 2, cy = (y_min + y_max) / 2;
  detail::Scale x = detail::linear_scale(cx - half_x, cx + half_x, left, right, false);
  detail::Scale y = detail::linear_scale(cy - half_y, cy + half_y, bottom, top, false);

  std::string out;
  out.reserve(static_cast<std::size_t>(n) * (colored ? 52 : 36) + 4096);
  detail::begin_svg(out, options.width, options.height, options.title);
  detail::append_axes(out, x, y, options.x_label, options.y_label);

  const double radius = options.point_radius > 0 ? options.point_radius : n <= 500 ? 3.0 : n <= 5000 ? 2.0 : 1.2;
  double c_min = 0, c_max = 1;
  if (colored) {
    c_min = double(color_values.minCoeff());
    c_max = double(color_values.maxCoeff());
  }
  out += colored ? "<g fill-opacity=\"0.85\">\n" : "<g fill=\"#1f77b4\" fill-opacity=\"0.85\">\n";
  std::string r_attribute = "\" r=\"";
  detail::append_px(r_attribute, radius);
  for (Eigen::Index i = 0; i < n; ++i) {
    out += "<circle cx=\"";
    detail::append_px(out, x(double(points(i, 0))));
    out += "\" cy=\"";
    detail::append_px(out, y(double(points(i, 1))));
    out += r_attribute;
    if (colored) {
      const double t = c_max > c_min ? (double(color_values(i)) - c_min) / (c_max - c_min) : 0.5;
      out += "\" fill=\"";
      out += viridis(t).hex();
    }
    out += "\"/>\n";
  }
  out += "</g>\n";

  if (colored) {  // color bar: a vertical gradient through the control points, ticks on the right
    const double bar_left = right + 24, bar_width = 14;
    out += "<defs><linearGradient id=\"colorbar\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">";
    for (std::size_t k = 0; k < viridis_control_points.size(); ++k) {
      out += "<stop offset=\"";
      detail::append_fixed(out, double(k) / double(viridis_control_points.size() - 1), 4);
      out += "\" stop-color=\"";
      out += viridis_control_points[k].hex();
      out += "\"/>";
    }
    out += "</linearGradient></defs>\n<rect x=\"";
    detail::append_px(out, bar_left);
    out += "\" y=\"";
    detail::append_px(out, top);
    out += "\" width=\"";
    detail::append_px(out, bar_width);
    out += "\" height=\"";
    detail::append_px(out, bottom - top);
    out += "\" fill=\"url(#colorbar)\" stroke=\"#444\"/>\n<g fill=\"#222\">\n";
    const detail::Scale c = detail::linear_scale(c_min, c_max, bottom, top, false, 5);
    std::string label;
    for (double t : c.ticks(5)) {
      label.clear();
      detail::append_tick_label(label, t, c);
      detail::append_text_element(out, bar_left + bar_width + 5, c(t) + 4, "", label);
    }
    if (!options.color_label.empty())
      detail::append_text_element(out, bar_left + bar_width / 2, top - 8, "text-anchor=\"middle\"", options.color_label);
    out += "</g>\n";
  }
  out += "</svg>\n";
  write_file_atomically(path, out);
}

/// write_scatter_svg without color values: every point in one color.
template <class Derived>
  requires Real<typename Derived::Scalar>
void write_scatter_svg(const std::filesystem::path& path, const Eigen::MatrixBase<Derived>& points,
                       const ScatterOptions& options = {}) {
  write_scatter_svg(path, points, Vector<typename Derived::Scalar>(), options);
}

/// Writes a line plot of `series` (one polyline each, colors from matplotlib's tab10, dashed
/// after the tenth; a legend to the right names them) to `path` as SVG, atomically. With
/// options.log_x the x axis is base-10 logarithmic, ticks at powers of ten (R_NX(K) curves).
/// Long series are decimated per pixel column (M4), so the file size is bounded by the width.
/// Throws nldr::invalid_argument if series is empty, a series is empty or has x and y of
/// different lengths, a value is NaN/Inf, an x is <= 0 on a log axis, or for bad options;
/// nldr::io_error if the file cannot be written (nothing is left behind).
inline void write_line_plot_svg(const std::filesystem::path& path, const std::vector<LineSeries>& series,
                                const LinePlotOptions& options = {}) {
  if (series.empty()) throw_invalid("series", "series is empty: give at least one curve to plot");
  double x_min = INFINITY, x_max = -INFINITY, y_min = INFINITY, y_max = -INFINITY;
  std::size_t longest_name = 0;
  for (std::size_t s = 0; s < series.size(); ++s) {
    const LineSeries& line = series[s];
    const std::string which = "series[" + std::to_string(s) + "] ('" + line.name + "')";
    if (line.x.empty() || line.x.size() != line.y.size())
      throw_invalid("series", which, " has ", line.x.size(), " x and ", line.y.size(),
                    " y values: give the same number (>= 1) of each");
    for (std::size_t i = 0; i < line.x.size(); ++i) {
      if (!std::isfinite(line.x[i]) || !std::isfinite(line.y[i]))
        throw_invalid("series", which, " point ", i, " = (", line.x[i], ", ", line.y[i],
                      ") is not finite: drop or fix it");
      if (options.log_x && line.x[i] <= 0)
        throw_invalid("series", which, " x[", i, "] = ", line.x[i],
                      " is not positive, so it cannot be drawn on a log axis: drop it or set log_x = false");
      x_min = std::min(x_min, line.x[i]);
      x_max = std::max(x_max, line.x[i]);
      y_min = std::min(y_min, line.y[i]);
      y_max = std::max(y_max, line.y[i]);
    }
    longest_name = std::max(longest_name, line.name.size());
  }
  detail::validate_plot_size(options.width, options.height);

  // Legend to the right of the plot area, wide enough for the longest name (about 7 px a character).
  const double legend_width = 48 + 7.0 * double(std::min<std::size_t>(longest_name, 40));
  const double left = 80, right = options.width - legend_width - 12;
  const double top = 40, bottom = options.height - 56.0;
  if (right - left < 50 || bottom - top < 50)
    throw_invalid("width", "the plot area is too small for ", options.width, " x ", options.height,
                  " pixels and names of ", longest_name, " characters: enlarge the plot or shorten the names");
  const detail::Scale x = options.log_x ? detail::log_scale(x_min, x_max, left, right)
                                        : detail::linear_scale(x_min, x_max, left, right, false);
  const detail::Scale y = detail::linear_scale(y_min, y_max, bottom, top, true);

  std::string out;
  detail::begin_svg(out, options.width, options.height, options.title);
  detail::append_axes(out, x, y, options.x_label, options.y_label);
  out += "<g fill=\"none\" stroke-width=\"1.8\" stroke-linejoin=\"round\">\n";
  std::vector<std::array<double, 2>> pixels;
  std::string last_point, point;
  for (std::size_t s = 0; s < series.size(); ++s) {
    const LineSeries& line = series[s];
    pixels.clear();
    for (std::size_t i = 0; i < line.x.size(); ++i) pixels.push_back({x(line.x[i]), y(line.y[i])});
    if (std::is_sorted(line.x.begin(), line.x.end())) pixels = detail::m4_decimate(pixels);
    out += "<polyline stroke=\"";
    out += detail::series_colors[s % detail::series_colors.size()];
    out += s >= detail::series_colors.size() ? "\" stroke-dasharray=\"6 3" : "";
    out += "\" points=\"";
    last_point.clear();
    for (const auto& [px, py] : pixels) {  // skip points that round to the previous one
      point.clear();
      detail::append_px(point, px);
      point += ',';
      detail::append_px(point, py);
      if (point == last_point) continue;
      if (!last_point.empty()) out += ' ';
      out += point;
      last_point.swap(point);
    }
    out += "\"/>\n";
  }
  out += "</g>\n<g fill=\"#222\">\n";
  for (std::size_t s = 0; s < series.size(); ++s) {
    const double row = top + 10 + 20.0 * double(s), sample = right + 16;
    out += "<path d=\"M";
    detail::append_px(out, sample);
    out += ' ';
    detail::append_px(out, row);
    out += "h24\" stroke-width=\"1.8\" stroke=\"";
    out += detail::series_colors[s % detail::series_colors.size()];
    out += s >= detail::series_colors.size() ? "\" stroke-dasharray=\"6 3\"/>\n" : "\"/>\n";
    detail::append_text_element(out, sample + 30, row + 4, "", series[s].name);
  }
  out += "</g>\n</svg>\n";
  write_file_atomically(path, out);
}

}  // namespace nldr::io
