// The cairo backend of the plots: draws a Figure (figure.hpp) into PNG or PDF bytes through cairo
// (https://www.cairographics.org), the same marks as the SVG backend. Only with NLDR_HAVE_CAIRO
// (link nldr::cairo, docs/building.md).
#pragma once

#ifdef NLDR_HAVE_CAIRO

#include <nldr/core/error.hpp>
#include <nldr/io/detail/figure.hpp>

#include <cairo-pdf.h>
#include <cairo.h>

#include <memory>
#include <numbers>
#include <string>

namespace nldr::io::detail {

/// Draws each mark on a cairo context whose user units are the figure's pixels.
class CairoCanvas {
 public:
  explicit CairoCanvas(cairo_t* cr) : cr_(cr) {}

  void operator()(const TextMark& t) {
    cairo_select_font_face(cr_, "sans-serif", t.italic ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr_, t.size);
    cairo_text_extents_t extents;
    cairo_text_extents(cr_, t.text.c_str(), &extents);
    const double shift = t.anchor == Anchor::start ? 0 : t.anchor == Anchor::middle ? extents.x_advance / 2
                                                                                     : extents.x_advance;
    cairo_save(cr_);
    cairo_translate(cr_, t.x, t.y);
    if (t.vertical) cairo_rotate(cr_, -std::numbers::pi / 2);
    cairo_move_to(cr_, -shift, 0);
    set_color(t.color);
    cairo_show_text(cr_, t.text.c_str());
    cairo_restore(cr_);
  }

  void operator()(const RectMark& r) {
    cairo_rectangle(cr_, r.x, r.y, r.width, r.height);
    if (r.fill) {
      set_color(*r.fill);
      r.stroke ? cairo_fill_preserve(cr_) : cairo_fill(cr_);
    }
    if (r.stroke) stroke(*r.stroke, 1, false);
  }

  void operator()(const GradientMark& g) {
    cairo_pattern_t* pattern = cairo_pattern_create_linear(0, g.y + g.height, 0, g.y);
    for (std::size_t k = 0; k < g.stops.size(); ++k)
      cairo_pattern_add_color_stop_rgb(pattern, g.stops.size() > 1 ? double(k) / double(g.stops.size() - 1) : 0.0,
                                       g.stops[k].r / 255.0, g.stops[k].g / 255.0, g.stops[k].b / 255.0);
    cairo_rectangle(cr_, g.x, g.y, g.width, g.height);
    cairo_set_source(cr_, pattern);
    cairo_fill_preserve(cr_);
    cairo_pattern_destroy(pattern);
    stroke(Rgb{0x44, 0x44, 0x44}, 1, false);
  }

  void operator()(const LinesMark& l) {
    for (const auto& line : l.polylines)
      for (std::size_t i = 0; i < line.size(); ++i)
        (i == 0 ? cairo_move_to : cairo_line_to)(cr_, line[i][0], line[i][1]);
    cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
    stroke(l.color, l.width, l.dashed);
  }

  void operator()(const PointsMark& p) {
    for (std::size_t i = 0; i < p.centers.size(); ++i) {
      const Rgb& c = p.fills.size() == 1 ? p.fills[0] : p.fills[i];
      cairo_set_source_rgba(cr_, c.r / 255.0, c.g / 255.0, c.b / 255.0, p.opacity);
      cairo_new_sub_path(cr_);
      cairo_arc(cr_, p.centers[i][0], p.centers[i][1], p.radius, 0, 2 * std::numbers::pi);
      cairo_fill(cr_);
    }
  }

 private:
  void set_color(const Rgb& c) { cairo_set_source_rgb(cr_, c.r / 255.0, c.g / 255.0, c.b / 255.0); }
  void stroke(const Rgb& color, double width, bool dashed) {
    static constexpr double dash[] = {6, 3};
    set_color(color);
    cairo_set_line_width(cr_, width);
    cairo_set_dash(cr_, dash, dashed ? 2 : 0, 0);
    cairo_stroke(cr_);
  }
  cairo_t* cr_;
};

inline cairo_status_t append_to_string(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

/// PNG (width x height pixels, opaque) or PDF (a page of 0.75 pt per pixel: the size a browser
/// shows the SVG at, 96 px per inch) bytes of `figure`. Throws nldr::io_error if cairo fails.
inline std::string cairo_document(const Figure& figure, bool pdf) {
  std::string bytes;
  using Surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
  using Context = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;
  Surface surface(pdf ? cairo_pdf_surface_create_for_stream(append_to_string, &bytes, 0.75 * figure.width,
                                                            0.75 * figure.height)
                      : cairo_image_surface_create(CAIRO_FORMAT_RGB24, figure.width, figure.height),
                  &cairo_surface_destroy);
  {
    Context cr(cairo_create(surface.get()), &cairo_destroy);
    if (pdf) cairo_scale(cr.get(), 0.75, 0.75);
    cairo_set_source_rgb(cr.get(), 1, 1, 1);
    cairo_paint(cr.get());
    CairoCanvas canvas(cr.get());
    draw(figure, canvas);
    if (const cairo_status_t status = cairo_status(cr.get()); status != CAIRO_STATUS_SUCCESS)
      throw io_error(nldr::detail::concat("cairo could not draw the plot: ", cairo_status_to_string(status)));
  }
  cairo_status_t status = CAIRO_STATUS_SUCCESS;
  if (pdf)
    cairo_surface_finish(surface.get());
  else
    status = cairo_surface_write_to_png_stream(surface.get(), append_to_string, &bytes);
  if (status == CAIRO_STATUS_SUCCESS) status = cairo_surface_status(surface.get());
  if (status != CAIRO_STATUS_SUCCESS)
    throw io_error(nldr::detail::concat("cairo could not write the plot: ", cairo_status_to_string(status)));
  return bytes;
}

}  // namespace nldr::io::detail

#endif  // NLDR_HAVE_CAIRO
