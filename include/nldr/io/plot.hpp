// Plots for papers: scatter plots of 2-D embeddings (colored by a continuous value with a color
// bar, or by categories with a legend) and line plots of quality curves (R_NX(K) on a log-K axis),
// written atomically as SVG (always available), PNG or PDF (through cairo, with NLDR_HAVE_CAIRO),
// the format following the file's extension. The layout is computed once into a Figure
// (detail/figure.hpp) that each backend draws. docs/figures.md describes the rules.
#pragma once

#include <nldr/core/error.hpp>
#include <nldr/core/types.hpp>
#include <nldr/io/atomic_file.hpp>
#include <nldr/io/colormap.hpp>
#include <nldr/io/detail/cairo_canvas.hpp>
#include <nldr/io/detail/figure.hpp>
#include <nldr/io/detail/plot.hpp>
#include <nldr/io/detail/svg_canvas.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace nldr::io {

/// The file formats of plots.
enum class PlotFormat { svg, png, pdf };

/// True when PNG and PDF can be written (built with cairo: NLDR_HAVE_CAIRO, target nldr::cairo).
#ifdef NLDR_HAVE_CAIRO
inline constexpr bool cairo_available = true;
#else
inline constexpr bool cairo_available = false;
#endif

/// The format of a plot file by its extension (any case): .svg, .png or .pdf. Throws
/// nldr::invalid_argument for any other extension, and for .png/.pdf in a build without cairo.
inline PlotFormat plot_format(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (extension == ".svg") return PlotFormat::svg;
  if (extension != ".png" && extension != ".pdf")
    throw_invalid("plot", "the plot file '", path.string(), "' has ",
                  extension.empty() ? std::string("no extension") : "the extension '" + extension + "'",
                  ": the format follows the extension: name it .svg, .png or .pdf");
  if (!cairo_available)
    throw_invalid("plot", "the plot file '", path.string(), "': ", extension == ".png" ? "PNG" : "PDF",
                  " output needs cairo, and this build has none (install libcairo2-dev and rebuild; docs/building.md): "
                  "name the file .svg");
  return extension == ".png" ? PlotFormat::png : PlotFormat::pdf;
}

/// How color values are shown.
enum class ColorKind {
  automatic,    ///< categorical for integer values with at most 12 distinct ones, else continuous
  categorical,  ///< one qualitative color per distinct value, with a legend (at most 20)
  continuous    ///< viridis over the value range, with a color bar
};

/// How the two axes of a scatter plot are scaled.
enum class Aspect {
  automatic,  ///< equal unless the data would fill less than a third of the plot area's width or height
  equal,      ///< one unit is as long on both axes (shapes are not distorted)
  fill        ///< each axis spans its data (shapes are stretched; a note under the title says by how much)
};

/// Options of write_scatter_plot. Sizes in pixels, 200..10000.
struct ScatterOptions {
  std::string title{};
  std::string x_label{};
  std::string y_label{};
  /// Title of the color bar or of the legend (only drawn when color values are given).
  std::string color_label{};
  int width = 640;
  int height = 600;
  /// Circle radius in pixels; 0 picks one from N (3 up to 500 points, 2 up to 5000, else 1.2).
  double point_radius = 0;
  ColorKind color_kind = ColorKind::automatic;
  /// Names of the categories 0..m-1 (e.g. the text labels of a column): the color values are then
  /// these codes, shown categorically with the names in the legend.
  std::vector<std::string> category_names{};
  Aspect aspect = Aspect::automatic;
};

/// One curve of a line plot: y[i] over x[i] (same length >= 1, finite; x > 0 on a log axis).
struct LineSeries {
  std::string name{};
  std::vector<double> x{};
  std::vector<double> y{};
};

/// Options of write_line_plot. Sizes in pixels, 200..10000.
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
inline std::vector<Point> m4_decimate(const std::vector<Point>& points) {
  std::vector<Point> out;
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

/// Twenty qualitative colors for categories and curves: matplotlib's "tab10" (from Tableau 10),
/// then the light halves of its "tab20" for the 11th to 20th.
inline constexpr std::array<Rgb, 20> category_colors{{
    {0x1f, 0x77, 0xb4}, {0xff, 0x7f, 0x0e}, {0x2c, 0xa0, 0x2c}, {0xd6, 0x27, 0x28}, {0x94, 0x67, 0xbd},
    {0x8c, 0x56, 0x4b}, {0xe3, 0x77, 0xc2}, {0x7f, 0x7f, 0x7f}, {0xbc, 0xbd, 0x22}, {0x17, 0xbe, 0xcf},
    {0xae, 0xc7, 0xe8}, {0xff, 0xbb, 0x78}, {0x98, 0xdf, 0x8a}, {0xff, 0x98, 0x96}, {0xc5, 0xb0, 0xd5},
    {0xc4, 0x9c, 0x94}, {0xf7, 0xb6, 0xd2}, {0xc7, 0xc7, 0xc7}, {0xdb, 0xdb, 0x8d}, {0x9e, 0xda, 0xe5}}};

/// Automatic categorical coloring: integer values with at most this many distinct ones.
inline constexpr std::size_t max_automatic_categories = 12;

/// How the points are colored: not at all, by category (code per point, names for the legend)
/// or continuously (the value range).
struct ColorScheme {
  enum class Kind { none, categorical, continuous } kind = Kind::none;
  std::vector<std::size_t> code;  ///< categorical: each point's category
  std::vector<std::string> names; ///< categorical: the legend's names, in order
  double lo = 0, hi = 1;          ///< continuous: the value range
};

inline ColorScheme color_scheme(const Vector<double>& values, const ScatterOptions& options) {
  ColorScheme scheme;
  const std::size_t m = options.category_names.size();
  if (values.size() == 0) {
    if (m != 0) throw_invalid("category_names", "category_names are given but no color values: give one code per point");
    return scheme;
  }
  const auto is_integer = [](double v) { return v == std::round(v) && std::abs(v) < 1e9; };
  std::vector<double> levels;
  if (m != 0) {
    if (options.color_kind == ColorKind::continuous)
      throw_invalid("color_kind", "the colors are named categories, which cannot be colored continuously");
    for (Eigen::Index i = 0; i < values.size(); ++i)
      if (!is_integer(values(i)) || values(i) < 0 || values(i) >= double(m))
        throw_invalid("color_values", "color value ", values(i), " of point ", i, " is not a category code 0..", m - 1,
                      " of the ", m, " category_names");
    for (std::size_t c = 0; c < m; ++c) levels.push_back(double(c));
    scheme.names = options.category_names;
  } else {
    levels.assign(values.data(), values.data() + values.size());
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    const bool integers = std::all_of(levels.begin(), levels.end(), is_integer);
    const bool categorical = options.color_kind == ColorKind::categorical ||
                             (options.color_kind == ColorKind::automatic && integers &&
                              levels.size() <= max_automatic_categories);
    if (!categorical) {
      scheme.kind = ColorScheme::Kind::continuous;
      scheme.lo = levels.front();
      scheme.hi = levels.back();
      return scheme;
    }
    if (!integers)
      throw_invalid("color_kind", "categorical colors need integer color values, but ",
                    *std::find_if_not(levels.begin(), levels.end(), is_integer),
                    " is not one: round the values, give category names, or color continuously");
    for (double level : levels) {
      std::string name;
      append_number(name, static_cast<long long>(level));
      scheme.names.push_back(std::move(name));
    }
  }
  if (levels.size() > category_colors.size())
    throw_invalid("color_kind", "the colors have ", levels.size(), " categories, more than the ", category_colors.size(),
                  " distinguishable colors of a legend: color continuously, or merge categories");
  scheme.kind = ColorScheme::Kind::categorical;
  scheme.code.resize(std::size_t(values.size()));
  for (Eigen::Index i = 0; i < values.size(); ++i)
    scheme.code[std::size_t(i)] =
        std::size_t(std::lower_bound(levels.begin(), levels.end(), values(i)) - levels.begin());
  return scheme;
}

/// The layout of a scatter plot (docs/figures.md): title and, when the axes are scaled apart, a
/// note under it; the y label and tick labels on the left, sized to the widest tick label; a color
/// bar or a legend on the right; equal or independent axis scales by options.aspect.
inline Figure scatter_figure(const Matrix<double>& points, const Vector<double>& color_values,
                             const ScatterOptions& options) {
  const Eigen::Index n = points.rows();
  if (n == 0 || points.cols() != 2)
    throw_invalid("points", "points is ", n, " x ", points.cols(),
                  ": a scatter plot needs N >= 1 points with 2 coordinates each (N x 2)");
  if (!points.allFinite())
    throw_invalid("points", "points contain NaN or Inf: the embedding failed or the input was not cleaned");
  if (color_values.size() != 0 && color_values.size() != n)
    throw_invalid("color_values", "color_values has ", color_values.size(), " values but there are ", n,
                  " points: give one value per point, or none");
  if (!color_values.allFinite()) throw_invalid("color_values", "color_values contain NaN or Inf: give finite values");
  validate_plot_size(options.width, options.height);
  if (!(options.point_radius >= 0 && options.point_radius <= 50))
    throw_invalid("point_radius", "point_radius = ", options.point_radius, " must be in 0 (automatic)..50 pixels");
  const ColorScheme scheme = color_scheme(color_values, options);
  using Kind = ColorScheme::Kind;

  // The right margin: a color bar with its tick labels and turned label, or a legend.
  const double legend_gap = 24, bar_width = 14;
  const bool has_label = !options.color_label.empty();
  Scale bar_scale = linear_scale(scheme.lo, scheme.hi, 1, 0, false, 5);
  double right_margin = 20;
  if (scheme.kind == Kind::continuous) {
    right_margin = legend_gap + bar_width + 5 + widest_tick_label(bar_scale) + (has_label ? 22 : 0) + 12;
  } else if (scheme.kind == Kind::categorical) {
    double widest = has_label ? text_width(options.color_label) : 0;
    for (const std::string& name : scheme.names) widest = std::max(widest, 16 + text_width(name));
    right_margin = legend_gap + widest + 12;
  }
  const double top_without_note = options.title.empty() ? 16 : 40;
  const double bottom = options.height - (options.x_label.empty() ? 32.0 : 52.0);
  const double right = options.width - right_margin;

  const double x_min = points.col(0).minCoeff(), x_max = points.col(0).maxCoeff();
  const double y_min = points.col(1).minCoeff(), y_max = points.col(1).maxCoeff();
  const double span_x = x_max - x_min, span_y = y_max - y_min;

  // Equal scale fills the plot area in one direction; in the other the data cover the fraction
  // `filled` of it. Below a third, the points crowd into a band: stretch instead, and say so.
  const auto filled_fraction = [&](double left, double top) {
    if (span_x == 0 || span_y == 0) return 1.0;
    const double r = (span_y / span_x) / ((bottom - top) / (right - left));
    return std::min(r, 1 / r);
  };
  const bool fill = options.aspect == Aspect::fill ||
                    (options.aspect == Aspect::automatic && filled_fraction(72, top_without_note) < 1.0 / 3);
  const double top = top_without_note + (fill ? 16 : 0);

  // The scales for a given left edge (the left margin depends on the y tick labels, which depend
  // on the y range, which under equal scale depends on the plot area: two passes settle it).
  const auto scales = [&](double left) {
    if (right - left < 50 || bottom - top < 50)
      throw_invalid("width", "the plot area is too small for ", options.width, " x ", options.height,
                    " pixels: enlarge the plot or shorten the color names");
    if (fill)  // 4% padding on each side of each axis
      return std::array<Scale, 2>{linear_scale(x_min - 0.04 * span_x, x_max + 0.04 * span_x, left, right, false),
                                  linear_scale(y_min - 0.04 * span_y, y_max + 0.04 * span_y, bottom, top, false)};
    double sx = span_x * 1.08, sy = span_y * 1.08;
    if (sx == 0 && sy == 0) sx = sy = std::max({std::abs(x_min), std::abs(y_min), 1.0});
    const double pixels_per_unit = std::min(sx > 0 ? (right - left) / sx : INFINITY, sy > 0 ? (bottom - top) / sy : INFINITY);
    const double half_x = (right - left) / (2 * pixels_per_unit), half_y = (bottom - top) / (2 * pixels_per_unit);
    const double cx = (x_min + x_max) / 2, cy = (y_min + y_max) / 2;
    return std::array<Scale, 2>{linear_scale(cx - half_x, cx + half_x, left, right, false),
                                linear_scale(cy - half_y, cy + half_y, bottom, top, false)};
  };
  const auto left_for = [&](const Scale& y) {
    return 14 + widest_tick_label(y) + (options.y_label.empty() ? 0 : 24);
  };
  double left = std::max(40.0, left_for(scales(72)[1]));
  std::array<Scale, 2> xy = scales(left);
  if (const double wider = left_for(xy[1]); wider > left) xy = scales(left = wider);
  const Scale& x = xy[0];
  const Scale& y = xy[1];

  Figure figure{options.width, options.height, {}};
  if (!options.title.empty()) figure.marks.push_back(TextMark{options.width / 2.0, 24, options.title, 15, Anchor::middle});
  if (fill) {
    const double x_unit = std::abs(x(1) - x(0)), y_unit = std::abs(y(1) - y(0));
    std::string note = "not to scale: ";
    note += y_unit >= x_unit ? "y" : "x";
    note += " stretched ";
    append_number(note, std::max(x_unit, y_unit) / std::min(x_unit, y_unit), 2);
    note += "\xC3\x97 relative to ";  // U+00D7 multiplication sign
    note += y_unit >= x_unit ? "x" : "y";
    figure.marks.push_back(
        TextMark{(left + right) / 2, top - 6, std::move(note), 11, Anchor::middle, false, true, Rgb{0x55, 0x55, 0x55}});
  }
  add_axes(figure, x, y, options.x_label, options.y_label);

  PointsMark marks;
  marks.radius = options.point_radius > 0 ? options.point_radius : n <= 500 ? 3.0 : n <= 5000 ? 2.0 : 1.2;
  marks.centers.reserve(std::size_t(n));
  for (Eigen::Index i = 0; i < n; ++i) marks.centers.push_back({x(points(i, 0)), y(points(i, 1))});
  if (scheme.kind == Kind::none) {
    marks.fills = {category_colors[0]};
  } else {
    marks.fills.reserve(std::size_t(n));
    for (Eigen::Index i = 0; i < n; ++i)
      marks.fills.push_back(scheme.kind == Kind::categorical
                                ? category_colors[scheme.code[std::size_t(i)]]
                                : viridis(scheme.hi > scheme.lo ? (color_values(i) - scheme.lo) / (scheme.hi - scheme.lo) : 0.5));
  }
  figure.marks.push_back(std::move(marks));

  const double key_left = right + legend_gap;
  if (scheme.kind == Kind::continuous) {
    figure.marks.push_back(GradientMark{key_left, top, bar_width, bottom - top,
                                        {viridis_control_points.begin(), viridis_control_points.end()}});
    bar_scale.from = bottom;
    bar_scale.to = top;
    for (double t : bar_scale.ticks(5))
      figure.marks.push_back(TextMark{key_left + bar_width + 5, bar_scale(t) + 4, tick_label(t, bar_scale)});
    if (has_label)
      figure.marks.push_back(TextMark{key_left + bar_width + 5 + widest_tick_label(bar_scale) + 16, (top + bottom) / 2,
                                      options.color_label, 13, Anchor::middle, true});
  } else if (scheme.kind == Kind::categorical) {
    double row = top + 10;
    if (has_label) {
      figure.marks.push_back(TextMark{key_left, row, options.color_label, 13});
      row += 20;
    }
    for (std::size_t c = 0; c < scheme.names.size(); ++c, row += 18) {
      figure.marks.push_back(PointsMark{{{key_left + 5, row - 4}}, {category_colors[c]}, 5, 1});
      figure.marks.push_back(TextMark{key_left + 16, row, scheme.names[c]});
    }
  }
  return figure;
}

/// The layout of a line plot: curves in the 20 category colors (dashed after them), a legend on
/// the right wide enough for the longest name.
inline Figure line_plot_figure(const std::vector<LineSeries>& series, const LinePlotOptions& options) {
  if (series.empty()) throw_invalid("series", "series is empty: give at least one curve to plot");
  double x_min = INFINITY, x_max = -INFINITY, y_min = INFINITY, y_max = -INFINITY, widest_name = 0;
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
    widest_name = std::max(widest_name, text_width(line.name));
  }
  validate_plot_size(options.width, options.height);

  const double legend_width = 48 + std::min(widest_name, 280.0);
  const double top = options.title.empty() ? 16 : 40, bottom = options.height - (options.x_label.empty() ? 32.0 : 56.0);
  const double right = options.width - legend_width - 12;
  const Scale y = linear_scale(y_min, y_max, bottom, top, true);
  const double left = std::max(40.0, 14 + widest_tick_label(y) + (options.y_label.empty() ? 0 : 24));
  if (right - left < 50 || bottom - top < 50)
    throw_invalid("width", "the plot area is too small for ", options.width, " x ", options.height,
                  " pixels and names of ", widest_name, " pixels: enlarge the plot or shorten the names");
  const Scale x = options.log_x ? log_scale(x_min, x_max, left, right) : linear_scale(x_min, x_max, left, right, false);

  Figure figure{options.width, options.height, {}};
  if (!options.title.empty()) figure.marks.push_back(TextMark{options.width / 2.0, 24, options.title, 15, Anchor::middle});
  add_axes(figure, x, y, options.x_label, options.y_label);
  for (std::size_t s = 0; s < series.size(); ++s) {
    const LineSeries& line = series[s];
    std::vector<Point> pixels;
    for (std::size_t i = 0; i < line.x.size(); ++i) pixels.push_back({x(line.x[i]), y(line.y[i])});
    if (std::is_sorted(line.x.begin(), line.x.end())) pixels = m4_decimate(pixels);
    const Rgb color = category_colors[s % category_colors.size()];
    const bool dashed = s >= category_colors.size();
    figure.marks.push_back(LinesMark{{std::move(pixels)}, color, 1.8, dashed});
    const double row = top + 10 + 20.0 * double(s), sample = right + 16;
    figure.marks.push_back(LinesMark{{{{sample, row}, {sample + 24, row}}}, color, 1.8, dashed});
    figure.marks.push_back(TextMark{sample + 30, row + 4, line.name});
  }
  return figure;
}

/// Writes `figure` to `path` in the format of its extension, atomically.
inline void write_figure(const std::filesystem::path& path, PlotFormat format, const Figure& figure) {
#ifdef NLDR_HAVE_CAIRO
  if (format != PlotFormat::svg) {
    write_file_atomically(path, cairo_document(figure, format == PlotFormat::pdf));
    return;
  }
#endif
  (void)format;  // plot_format() admits only SVG without cairo
  write_file_atomically(path, svg_document(figure));
}

}  // namespace detail

/// Writes a scatter plot of `points` (N x 2, one embedded point per row) to `path`, atomically,
/// as SVG, PNG or PDF by the extension (plot_format). If `color_values` is non-empty (length N),
/// the points are colored by category with a legend, or by viridis over the value range with a
/// color bar (options.color_kind, category_names); otherwise all in one color. Axes are scaled
/// by options.aspect (docs/figures.md). Throws nldr::invalid_argument for a bad extension, empty
/// points or not N x 2, NaN/Inf, color_values of a length other than 0 or N, categories that do
/// not fit, or bad options; nldr::io_error if the file cannot be written (nothing is left behind).
template <class Derived, class ColorDerived>
  requires Real<typename Derived::Scalar> && Real<typename ColorDerived::Scalar>
void write_scatter_plot(const std::filesystem::path& path, const Eigen::MatrixBase<Derived>& points,
                        const Eigen::MatrixBase<ColorDerived>& color_values, const ScatterOptions& options = {}) {
  const PlotFormat format = plot_format(path);
  detail::write_figure(path, format,
                       detail::scatter_figure(points.template cast<double>(), color_values.template cast<double>(), options));
}

/// write_scatter_plot without color values: every point in one color.
template <class Derived>
  requires Real<typename Derived::Scalar>
void write_scatter_plot(const std::filesystem::path& path, const Eigen::MatrixBase<Derived>& points,
                        const ScatterOptions& options = {}) {
  write_scatter_plot(path, points, Vector<double>(), options);
}

/// Writes a line plot of `series` (one polyline each; a legend on the right names them) to
/// `path`, atomically, as SVG, PNG or PDF by the extension. With options.log_x the x axis is
/// base-10 logarithmic, ticks at powers of ten (R_NX(K) curves). Long series are decimated per
/// pixel column (M4), so the file size is bounded by the width. Throws nldr::invalid_argument for
/// a bad extension, empty series, a series with x and y of different lengths, NaN/Inf, x <= 0 on a
/// log axis, or bad options; nldr::io_error if the file cannot be written (nothing is left behind).
inline void write_line_plot(const std::filesystem::path& path, const std::vector<LineSeries>& series,
                            const LinePlotOptions& options = {}) {
  const PlotFormat format = plot_format(path);
  detail::write_figure(path, format, detail::line_plot_figure(series, options));
}

}  // namespace nldr::io
