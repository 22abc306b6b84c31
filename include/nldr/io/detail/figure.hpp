// The description of a plot, computed once by the layout (plot.hpp) and drawn by every backend:
// a page size and a list of marks in pixel coordinates (y grows downwards, as in SVG). The mark
// types are the drawing interface: a canvas is a visitor with one operator() per mark type
// (svg_canvas.hpp writes SVG, cairo_canvas.hpp draws PNG and PDF through cairo).
#pragma once

#include <nldr/io/colormap.hpp>

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace nldr::io::detail {

using Point = std::array<double, 2>;

/// Where a text's x is: its start, middle or end.
enum class Anchor { start, middle, end };

/// One line of text, its baseline at y; `vertical` turns it 90 degrees counter-clockwise about
/// (x, y) (a y-axis label, read from bottom to top).
struct TextMark {
  double x = 0, y = 0;
  std::string text;
  double size = 12;
  Anchor anchor = Anchor::start;
  bool vertical = false;
  bool italic = false;
  Rgb color{0x22, 0x22, 0x22};
};

/// An axis-parallel rectangle, filled and/or outlined (1 px).
struct RectMark {
  double x = 0, y = 0, width = 0, height = 0;
  std::optional<Rgb> fill, stroke;
};

/// A rectangle filled by a vertical gradient through `stops`, evenly spaced from bottom to top
/// (a color bar), outlined in grey.
struct GradientMark {
  double x = 0, y = 0, width = 0, height = 0;
  std::vector<Rgb> stops;
};

/// Open polylines of one stroke: axis ticks (many two-point segments) or a curve.
struct LinesMark {
  std::vector<std::vector<Point>> polylines;
  Rgb color{0x44, 0x44, 0x44};
  double width = 1;
  bool dashed = false;
};

/// Filled circles of one radius: `fills` holds one color for all, or one per center.
struct PointsMark {
  std::vector<Point> centers;
  std::vector<Rgb> fills;
  double radius = 3;
  double opacity = 0.85;
};

using Mark = std::variant<TextMark, RectMark, GradientMark, LinesMark, PointsMark>;

/// A plot: width x height pixels on white, marks drawn in order.
struct Figure {
  int width = 0, height = 0;
  std::vector<Mark> marks;
};

/// Draws `figure` mark by mark on `canvas` (a visitor of every mark type).
template <class Canvas>
void draw(const Figure& figure, Canvas& canvas) {
  for (const Mark& mark : figure.marks) std::visit(canvas, mark);
}

/// About how wide `text` is at `size` px in a sans-serif font (0.58 em per character, a little
/// more than the average of DejaVu Sans and Helvetica), for margins and legends: the layout is
/// computed once, before any backend measures text.
inline double text_width(std::string_view text, double size = 12) {
  std::size_t characters = 0;
  for (unsigned char c : text) characters += (c & 0xC0) != 0x80;  // UTF-8 lead bytes
  return 0.58 * size * double(characters);
}

}  // namespace nldr::io::detail
