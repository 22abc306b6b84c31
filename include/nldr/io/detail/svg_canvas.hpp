// The SVG backend of the plots: draws a Figure (figure.hpp) as an SVG 1.1 document, dependency-free.
// Coordinates are rounded to 0.1 px (small files, no visible difference).
#pragma once

#include <nldr/io/detail/figure.hpp>
#include <nldr/io/detail/number_format.hpp>
#include <nldr/io/detail/text.hpp>

#include <string>
#include <string_view>

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

/// A coordinate in pixels, rounded to 0.1 px.
inline void append_px(std::string& out, double value) { append_fixed(out, value, 1); }

/// Writes each mark as SVG elements into `out`.
class SvgCanvas {
 public:
  explicit SvgCanvas(std::string& out) : out_(out) {}

  void operator()(const TextMark& t) {
    out_ += "<text x=\"";
    append_px(out_, t.x);
    out_ += "\" y=\"";
    append_px(out_, t.y);
    out_ += '"';
    if (t.anchor != Anchor::start) out_ += t.anchor == Anchor::middle ? " text-anchor=\"middle\"" : " text-anchor=\"end\"";
    if (t.size != 12) {
      out_ += " font-size=\"";
      append_px(out_, t.size);
      out_ += '"';
    }
    if (t.italic) out_ += " font-style=\"italic\"";
    if (t.color != Rgb{0x22, 0x22, 0x22}) out_ += " fill=\"" + t.color.hex() + '"';
    if (t.vertical) {
      out_ += " transform=\"rotate(-90 ";
      append_px(out_, t.x);
      out_ += ' ';
      append_px(out_, t.y);
      out_ += ")\"";
    }
    out_ += '>';
    append_xml_text(out_, t.text);
    out_ += "</text>\n";
  }

  void operator()(const RectMark& r) {
    rect_head(r.x, r.y, r.width, r.height);
    out_ += " fill=\"";
    out_ += r.fill ? r.fill->hex() : "none";
    out_ += '"';
    if (r.stroke) out_ += " stroke=\"" + r.stroke->hex() + '"';
    out_ += "/>\n";
  }

  void operator()(const GradientMark& g) {
    const std::string id = "gradient" + std::to_string(++gradients_);
    out_ += "<defs><linearGradient id=\"" + id + "\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">";
    for (std::size_t k = 0; k < g.stops.size(); ++k) {
      out_ += "<stop offset=\"";
      append_fixed(out_, g.stops.size() > 1 ? double(k) / double(g.stops.size() - 1) : 0.0, 4);
      out_ += "\" stop-color=\"" + g.stops[k].hex() + "\"/>";
    }
    out_ += "</linearGradient></defs>\n";
    rect_head(g.x, g.y, g.width, g.height);
    out_ += " fill=\"url(#" + id + ")\" stroke=\"#444\"/>\n";
  }

  /// One polyline as <polyline>, several as one <path> (axis-parallel segments as h/v moves).
  /// Points that round to the previous one are skipped.
  void operator()(const LinesMark& l) {
    std::string style = " fill=\"none\" stroke=\"" + l.color.hex() + '"';
    if (l.width != 1) {
      style += " stroke-width=\"";
      append_px(style, l.width);
      style += "\" stroke-linejoin=\"round\"";
    }
    if (l.dashed) style += " stroke-dasharray=\"6 3\"";
    if (l.polylines.size() == 1) {
      out_ += "<polyline" + style + " points=\"";
      std::string last, point;
      for (const auto& [x, y] : l.polylines[0]) {
        point.clear();
        append_px(point, x);
        point += ',';
        append_px(point, y);
        if (point == last) continue;
        if (!last.empty()) out_ += ' ';
        out_ += point;
        last.swap(point);
      }
      out_ += "\"/>\n";
      return;
    }
    out_ += "<path d=\"";
    for (const auto& line : l.polylines) {
      for (std::size_t i = 0; i < line.size(); ++i) {
        if (i == 0) {
          out_ += 'M';
          append_px(out_, line[0][0]);
          out_ += ' ';
          append_px(out_, line[0][1]);
        } else if (line[i][0] == line[i - 1][0]) {
          out_ += 'v';
          append_px(out_, line[i][1] - line[i - 1][1]);
        } else if (line[i][1] == line[i - 1][1]) {
          out_ += 'h';
          append_px(out_, line[i][0] - line[i - 1][0]);
        } else {
          out_ += 'L';
          append_px(out_, line[i][0]);
          out_ += ' ';
          append_px(out_, line[i][1]);
        }
      }
    }
    out_ += '"' + style + "/>\n";
  }

  void operator()(const PointsMark& p) {
    const bool one_fill = p.fills.size() == 1;
    out_ += "<g fill-opacity=\"";
    append_fixed(out_, p.opacity, 3);
    out_ += '"';
    if (one_fill) out_ += " fill=\"" + p.fills[0].hex() + '"';
    out_ += ">\n";
    std::string r_attribute = "\" r=\"";
    append_px(r_attribute, p.radius);
    for (std::size_t i = 0; i < p.centers.size(); ++i) {
      out_ += "<circle cx=\"";
      append_px(out_, p.centers[i][0]);
      out_ += "\" cy=\"";
      append_px(out_, p.centers[i][1]);
      out_ += r_attribute;
      if (!one_fill) out_ += "\" fill=\"" + p.fills[i].hex();
      out_ += "\"/>\n";
    }
    out_ += "</g>\n";
  }

 private:
  void rect_head(double x, double y, double width, double height) {
    out_ += "<rect x=\"";
    append_px(out_, x);
    out_ += "\" y=\"";
    append_px(out_, y);
    out_ += "\" width=\"";
    append_px(out_, width);
    out_ += "\" height=\"";
    append_px(out_, height);
    out_ += '"';
  }

  std::string& out_;
  int gradients_ = 0;
};

/// The SVG document of `figure`: white background, sans-serif 12 px text.
inline std::string svg_document(const Figure& figure) {
  std::string out;
  std::size_t points = 0;
  for (const Mark& mark : figure.marks)
    if (const auto* p = std::get_if<PointsMark>(&mark)) points += p->centers.size();
  out.reserve(points * 52 + 8192);
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"";
  append_number(out, figure.width);
  out += "\" height=\"";
  append_number(out, figure.height);
  out += "\" viewBox=\"0 0 ";
  append_number(out, figure.width);
  out += ' ';
  append_number(out, figure.height);
  out += "\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#222\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  SvgCanvas canvas(out);
  draw(figure, canvas);
  out += "</svg>\n";
  return out;
}

}  // namespace nldr::io::detail
