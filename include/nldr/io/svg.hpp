// SVG plots under their own names: write_scatter_plot and write_line_plot (plot.hpp) for a path
// that must be SVG whatever the build (no cairo needed).
#pragma once

#include <nldr/io/plot.hpp>

#include <filesystem>

namespace nldr::io {

namespace detail {

/// Refuses a .png or .pdf name for SVG text (a viewer would fail on it).
inline void require_svg_name(const std::filesystem::path& path, const char* function, const char* instead) {
  std::string extension = path.extension().string();
  for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (extension == ".png" || extension == ".pdf")
    throw_invalid("path", function, " writes SVG, but '", path.string(), "' names a ", extension,
                  " file: name it .svg, or call ", instead, " for PNG and PDF");
}

}  // namespace detail

/// write_scatter_plot (plot.hpp) as SVG, whatever the extension but .png and .pdf (refused).
template <class Derived, class ColorDerived>
  requires Real<typename Derived::Scalar> && Real<typename ColorDerived::Scalar>
void write_scatter_svg(const std::filesystem::path& path, const Eigen::MatrixBase<Derived>& points,
                       const Eigen::MatrixBase<ColorDerived>& color_values, const ScatterOptions& options = {}) {
  detail::require_svg_name(path, "write_scatter_svg", "write_scatter_plot");
  detail::write_figure(path, PlotFormat::svg,
                       detail::scatter_figure(points.template cast<double>(), color_values.template cast<double>(), options));
}

/// write_scatter_svg without color values: every point in one color.
template <class Derived>
  requires Real<typename Derived::Scalar>
void write_scatter_svg(const std::filesystem::path& path, const Eigen::MatrixBase<Derived>& points,
                       const ScatterOptions& options = {}) {
  write_scatter_svg(path, points, Vector<double>(), options);
}

/// write_line_plot (plot.hpp) as SVG, whatever the extension but .png and .pdf (refused).
inline void write_line_plot_svg(const std::filesystem::path& path, const std::vector<LineSeries>& series,
                                const LinePlotOptions& options = {}) {
  detail::require_svg_name(path, "write_line_plot_svg", "write_line_plot");
  detail::write_figure(path, PlotFormat::svg, detail::line_plot_figure(series, options));
}

}  // namespace nldr::io
