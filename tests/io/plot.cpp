// Plots: well-formed SVG, the geometry of the marks, the colormap, categorical legends against
// continuous color bars, the aspect rule, PNG/PDF files (magic bytes, pixel size) and refused input.
#include "catch.hpp"
#include "scratch_dir.hpp"

#include <nldr/io/colormap.hpp>
#include <nldr/io/plot.hpp>
#include <nldr/io/svg.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <set>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace plot_test {

/// A minimal well-formedness check of an XML document: every element closes in order, every
/// '&' starts an entity, attributes are quoted (no '<' inside a tag). Returns "" or the problem.
std::string xml_problem(const std::string& xml) {
  std::vector<std::string> open;
  std::size_t i = 0;
  if (xml.rfind("<?xml", 0) == 0) i = xml.find("?>") + 2;
  while ((i = xml.find_first_of("<&", i)) != std::string::npos) {
    if (xml[i] == '&') {
      const std::size_t semicolon = xml.find(';', i);
      const std::string entity = xml.substr(i, semicolon == std::string::npos ? 8 : semicolon - i + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" && entity != "&apos;")
        return "bad entity " + entity;
      ++i;
      continue;
    }
    const std::size_t end = xml.find('>', i);
    if (end == std::string::npos) return "unterminated tag";
    const std::string tag = xml.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos) return "'<' inside tag " + tag;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return "unbalanced </" + tag.substr(1) + ">";
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
    i = end + 1;
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t i = text.find(what); i != std::string::npos; i = text.find(what, i + 1)) ++n;
  return n;
}

/// The numeric value of attribute `name` in each element starting with `element`, in order.
std::vector<double> attribute_values(const std::string& svg, const std::string& element, const std::string& name) {
  std::vector<double> values;
  for (std::size_t i = svg.find(element); i != std::string::npos; i = svg.find(element, i + 1)) {
    const std::size_t end = svg.find('>', i);
    const std::size_t at = svg.find(" " + name + "=\"", i);
    if (at == std::string::npos || at > end) continue;
    double v = 0;
    const char* first = svg.data() + at + name.size() + 3;
    std::from_chars(first, svg.data() + end, v);
    values.push_back(v);
  }
  return values;
}

/// The value of the string attribute `name` in each element starting with `element`, in order.
std::vector<std::string> attribute_texts(const std::string& svg, const std::string& element, const std::string& name) {
  std::vector<std::string> values;
  for (std::size_t i = svg.find(element); i != std::string::npos; i = svg.find(element, i + 1)) {
    const std::size_t end = svg.find('>', i);
    const std::size_t at = svg.find(" " + name + "=\"", i);
    if (at == std::string::npos || at > end) continue;
    const std::size_t first = at + name.size() + 3;
    values.push_back(svg.substr(first, svg.find('"', first) - first));
  }
  return values;
}

/// The width and height in a PNG's IHDR chunk (big-endian, bytes 16..23), after checking the signature.
std::pair<std::uint32_t, std::uint32_t> png_size(const std::string& png) {
  REQUIRE(png.size() > 24);
  REQUIRE(png.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  REQUIRE(png.substr(12, 4) == "IHDR");
  const auto be32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 4; ++k) v = v << 8 | static_cast<unsigned char>(png[at + k]);
    return v;
  };
  return {be32(16), be32(20)};
}

}  // namespace plot_test

using namespace plot_test;

TEST_CASE("viridis matches matplotlib", "[io][svg]") {
  // Control points are matplotlib's own values; in between, interpolation stays within 6/255 of
  // matplotlib's 256-entry table (entries 40, 100, 200 from cm.viridis(k), matplotlib 3.6.3).
  CHECK(nldr::io::viridis(0).hex() == "#440154");
  CHECK(nldr::io::viridis(0.5).hex() == "#21918c");
  CHECK(nldr::io::viridis(1).hex() == "#fde725");
  CHECK(nldr::io::viridis(-3) == nldr::io::viridis(0));
  CHECK(nldr::io::viridis(7) == nldr::io::viridis(1));
  const struct {
    int entry, r, g, b;
  } table[] = {{40, 69, 55, 129}, {100, 42, 118, 142}, {200, 112, 207, 87}};
  for (const auto& e : table) {
    const nldr::io::Rgb c = nldr::io::viridis(e.entry / 255.0);
    CHECK(std::abs(c.r - e.r) <= 6);
    CHECK(std::abs(c.g - e.g) <= 6);
    CHECK(std::abs(c.b - e.b) <= 6);
  }
}

TEMPLATE_TEST_CASE("write_scatter_svg with Aspect::equal draws every point at the same scale on both axes", "[io][svg]", float,
                   double) {
  nldr_test::ScratchDir dir;
  const int n = 50;
  nldr::Matrix<TestType> points(n, 2);
  nldr::Vector<TestType> colors(n);
  for (int i = 0; i < n; ++i) {  // an ellipse 4 wide, 1 high: equal scaling must keep it flat
    const double t = 2 * 3.141592653589793 * i / n;
    points(i, 0) = TestType(2 * std::cos(t) + 10);
    points(i, 1) = TestType(0.5 * std::sin(t) - 3);
    colors(i) = TestType(i);
  }
  const auto path = dir / "scatter.svg";
  nldr::io::write_scatter_svg(path, points, colors,
                              {.title = "LLE <k=12> & more", .color_label = "t", .aspect = nldr::io::Aspect::equal});
  const std::string svg = nldr_test::read_file(path);
  CHECK(xml_problem(svg).empty());
  CHECK(count(svg, "<circle ") == std::size_t(n));
  CHECK_THAT(svg, ContainsSubstring("LLE &lt;k=12&gt; &amp; more"));

  // Pixel = a + s * x, b - s * y with one s for both axes (y flipped), up to the 0.1 px rounding.
  const auto cx = attribute_values(svg, "<circle ", "cx"), cy = attribute_values(svg, "<circle ", "cy");
  REQUIRE(cx.size() == std::size_t(n));
  const double s = (cx[0] - cx[n / 2]) / double(points(0, 0) - points(n / 2, 0));
  CHECK(s > 0);
  for (int i = 0; i < n; ++i) {
    CHECK(std::abs(cx[i] - (cx[0] + s * double(points(i, 0) - points(0, 0)))) < 0.1);
    CHECK(std::abs(cy[i] - (cy[0] - s * double(points(i, 1) - points(0, 1)))) < 0.1);
  }
  // Lowest value -> viridis(0), highest -> viridis(1).
  CHECK_THAT(svg, ContainsSubstring("fill=\"#440154\""));
  CHECK_THAT(svg, ContainsSubstring("fill=\"#fde725\""));

  // Without colors: one fill for all; a single point (zero range) still works.
  nldr::io::write_scatter_svg(dir / "one.svg", nldr::Matrix<TestType>::Zero(1, 2));
  const std::string one = nldr_test::read_file(dir / "one.svg");
  CHECK(xml_problem(one).empty());
  CHECK(count(one, "<circle ") == 1);
}

TEST_CASE("write_scatter_svg refuses bad input and leaves no file", "[io][svg]") {
  nldr_test::ScratchDir dir;
  const auto path = dir / "bad.svg";
  nldr::Matrix<double> ok = nldr::Matrix<double>::Random(5, 2);
  CHECK_THROWS_AS(nldr::io::write_scatter_svg(path, nldr::Matrix<double>(0, 2)), nldr::invalid_argument);
  CHECK_THROWS_AS(nldr::io::write_scatter_svg(path, nldr::Matrix<double>::Zero(5, 3)), nldr::invalid_argument);
  nldr::Matrix<double> with_nan = ok;
  with_nan(2, 1) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(nldr::io::write_scatter_svg(path, with_nan), ContainsSubstring("NaN or Inf"));
  CHECK_THROWS_WITH(nldr::io::write_scatter_svg(path, ok, nldr::Vector<double>::Zero(4)),
                    ContainsSubstring("color_values has 4 values but there are 5 points"));
  nldr::Vector<double> inf_colors = nldr::Vector<double>::Zero(5);
  inf_colors(0) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(nldr::io::write_scatter_svg(path, ok, inf_colors), nldr::invalid_argument);
  CHECK_THROWS_AS(nldr::io::write_scatter_svg(path, ok, {.width = 10}), nldr::invalid_argument);
  CHECK_THROWS_AS(nldr::io::write_scatter_svg(dir / "no" / "x.svg", ok), nldr::io_error);
  CHECK(dir.listing().empty());
}

TEST_CASE("write_line_plot_svg draws R_NX-like curves on a log axis with a legend", "[io][svg]") {
  nldr_test::ScratchDir dir;
  std::vector<nldr::io::LineSeries> series(2);
  series[0].name = "LLE";
  series[1].name = "Isomap & <friends>";
  for (int k = 1; k <= 100000; ++k) {  // long, wiggly curves: decimation must bound the output
    series[0].x.push_back(k);
    series[0].y.push_back(0.8 * std::exp(-k / 3000.0));
    series[1].x.push_back(k);
    series[1].y.push_back(0.5 + 0.05 * std::sin(k));
  }
  const auto path = dir / "rnx.svg";
  nldr::io::write_line_plot_svg(path, series,
                                {.title = "R_NX(K)", .x_label = "K", .y_label = "R_NX", .log_x = true});
  const std::string svg = nldr_test::read_file(path);
  CHECK(xml_problem(svg).empty());
  CHECK(count(svg, "<polyline ") == 4);  // two curves and their two legend samples
  CHECK_THAT(svg, ContainsSubstring(">LLE</text>") && ContainsSubstring(">Isomap &amp; &lt;friends&gt;</text>"));
  for (const char* decade : {">1</text>", ">10</text>", ">100</text>", ">1000</text>", ">10000</text>", ">100000</text>"})
    CHECK_THAT(svg, ContainsSubstring(decade));
  // Decimation: at most 4 points per pixel column of a 720 px wide plot, so well under 100 kB
  // although each series has 100 000 points.
  CHECK(svg.size() < 100'000);

  // Decades are equally spaced on a log axis: tick marks at 1, 10, 100 ... are evenly spread.
  const std::size_t d = svg.find("<path d=\"M") + 9;  // the tick marks: "Mx yv5" (x), "Mx yh-5" (y)
  const std::string marks = svg.substr(d, svg.find('"', d) - d);
  std::vector<double> tick_x;
  for (std::size_t i = marks.find('M'); i != std::string::npos; i = marks.find('M', i + 1)) {
    const std::size_t next = marks.find('M', i + 1);
    if (marks.substr(i, next - i).find("v5") == std::string::npos) continue;
    double v = 0;
    std::from_chars(marks.data() + i + 1, marks.data() + marks.size(), v);
    tick_x.push_back(v);
  }
  REQUIRE(tick_x.size() >= 6);
  for (int i = 2; i < 6; ++i) CHECK(std::abs((tick_x[i] - tick_x[i - 1]) - (tick_x[1] - tick_x[0])) <= 0.15);
}

TEST_CASE("write_line_plot_svg refuses bad input and leaves no file", "[io][svg]") {
  nldr_test::ScratchDir dir;
  const auto path = dir / "bad.svg";
  using Series = std::vector<nldr::io::LineSeries>;
  CHECK_THROWS_WITH(nldr::io::write_line_plot_svg(path, Series{}), ContainsSubstring("series is empty"));
  CHECK_THROWS_WITH(nldr::io::write_line_plot_svg(path, Series{{"a", {1, 2}, {1}}}),
                    ContainsSubstring("has 2 x and 1 y values"));
  CHECK_THROWS_AS(nldr::io::write_line_plot_svg(path, Series{{"a", {}, {}}}), nldr::invalid_argument);
  CHECK_THROWS_WITH(nldr::io::write_line_plot_svg(path, Series{{"a", {1, 2}, {0.5, NAN}}}),
                    ContainsSubstring("is not finite"));
  CHECK_THROWS_WITH(nldr::io::write_line_plot_svg(path, Series{{"a", {0, 1}, {1, 1}}}, {.log_x = true}),
                    ContainsSubstring("x[0] = 0 is not positive"));
  CHECK(dir.listing().empty());
  // The same zero is fine on a linear axis, and a constant curve gets a usable range.
  nldr::io::write_line_plot_svg(path, Series{{"a", {0, 1}, {1, 1}}});
  CHECK(xml_problem(nldr_test::read_file(path)).empty());
}

TEMPLATE_TEST_CASE("integer colors with few values get a legend with distinct colors, not a color bar", "[io][plot]",
                   float, double) {
  nldr_test::ScratchDir dir;
  const int n = 60;
  nldr::Matrix<TestType> points(n, 2);
  nldr::Vector<TestType> labels(n);
  for (int i = 0; i < n; ++i) {
    points(i, 0) = TestType(i % 7);
    points(i, 1) = TestType(i / 7);
    labels(i) = TestType(i % 3 == 0 ? -1 : i % 3 == 1 ? 4 : 7);  // three classes, not 0-based
  }
  const auto path = dir / "classes.svg";
  nldr::io::write_scatter_plot(path, points, labels,
                               {.x_label = "coordinate 1", .y_label = "coordinate 2", .color_label = "class"});
  const std::string svg = nldr_test::read_file(path);
  CHECK(xml_problem(svg).empty());
  CHECK(svg.find("linearGradient") == std::string::npos);  // no color bar
  for (const char* text : {">coordinate 1</text>", ">coordinate 2</text>", ">class</text>", ">-1</text>", ">4</text>", ">7</text>"})
    CHECK_THAT(svg, ContainsSubstring(text));
  // The points of one class share a fill, different classes differ; legend circles come after
  // the n data points and use the same three fills, in the order of the values.
  const auto fills = attribute_texts(svg, "<circle ", "fill");
  REQUIRE(fills.size() == std::size_t(n));  // data circles carry their fill, legend circles their group's
  for (int i = 0; i < n; ++i) CHECK(fills[std::size_t(i)] == fills[std::size_t(i % 3)]);
  CHECK(std::set<std::string>(fills.begin(), fills.end()).size() == 3);
  CHECK(count(svg, "<circle ") == std::size_t(n) + 3);
  CHECK(fills[0] == "#1f77b4");  // -1, the smallest value: the first tab10 color
  CHECK(fills[1] == "#ff7f0e");
  CHECK(fills[2] == "#2ca02c");

  // Forced continuous: a color bar (gradient) and no legend entries.
  nldr::io::write_scatter_plot(path, points, labels, {.color_kind = nldr::io::ColorKind::continuous});
  const std::string continuous = nldr_test::read_file(path);
  CHECK(count(continuous, "linearGradient") == 2);
  CHECK(count(continuous, "<circle ") == std::size_t(n));
  // 13 distinct integers are continuous by default, 12 categorical.
  nldr::Vector<TestType> many(n), twelve(n);
  for (int i = 0; i < n; ++i) many(i) = TestType(i % 13), twelve(i) = TestType(i % 12);
  nldr::io::write_scatter_plot(path, points, many);
  CHECK(count(nldr_test::read_file(path), "linearGradient") == 2);
  nldr::io::write_scatter_plot(path, points, twelve);
  CHECK(count(nldr_test::read_file(path), "<circle ") == std::size_t(n) + 12);
}

TEST_CASE("named categories show their names; categorical colors refuse what does not fit", "[io][plot]") {
  nldr_test::ScratchDir dir;
  const nldr::Matrix<double> points = nldr::Matrix<double>::Random(9, 2);
  nldr::Vector<double> codes(9);
  codes << 0, 1, 2, 0, 1, 2, 0, 1, 2;
  const auto path = dir / "iris.svg";
  nldr::io::write_scatter_plot(path, points, codes, {.category_names = {"setosa", "versi<color>", "virginica"}});
  const std::string svg = nldr_test::read_file(path);
  CHECK(xml_problem(svg).empty());
  for (const char* name : {">setosa</text>", ">versi&lt;color&gt;</text>", ">virginica</text>"})
    CHECK_THAT(svg, ContainsSubstring(name));
  CHECK(svg.find("linearGradient") == std::string::npos);

  const auto bad = dir / "bad.svg";
  CHECK_THROWS_WITH(nldr::io::write_scatter_plot(bad, points, codes, {.category_names = {"a", "b"}}),
                    ContainsSubstring("is not a category code 0..1"));
  CHECK_THROWS_WITH(nldr::io::write_scatter_plot(bad, points, codes,
                                                 {.color_kind = nldr::io::ColorKind::continuous, .category_names = {"a", "b", "c"}}),
                    ContainsSubstring("cannot be colored continuously"));
  nldr::Vector<double> halves = codes / 2;
  CHECK_THROWS_WITH(nldr::io::write_scatter_plot(bad, points, halves, {.color_kind = nldr::io::ColorKind::categorical}),
                    ContainsSubstring("need integer color values"));
  nldr::Vector<double> distinct = nldr::Vector<double>::LinSpaced(9, 0, 8);
  const nldr::Matrix<double> many_points = nldr::Matrix<double>::Random(30, 2);
  CHECK_THROWS_WITH(nldr::io::write_scatter_plot(bad, many_points, nldr::Vector<double>::LinSpaced(30, 0, 29),
                                                 {.color_kind = nldr::io::ColorKind::categorical}),
                    ContainsSubstring("30 categories, more than the 20"));
  CHECK_THROWS_AS(nldr::io::write_scatter_plot(bad, points, {.category_names = {"a"}}), nldr::invalid_argument);
  CHECK(dir.listing() == std::set<std::string>{"iris.svg"});
}

TEST_CASE("elongated data fill the frame with a note; moderate data keep equal scales", "[io][plot]") {
  nldr_test::ScratchDir dir;
  const int n = 40;
  nldr::Matrix<double> strip(n, 2);
  for (int i = 0; i < n; ++i) strip(i, 0) = 10.0 * i / (n - 1), strip(i, 1) = (i % 5) * 0.25;  // 10 x 1
  const auto path = dir / "strip.svg";
  const nldr::io::ScatterOptions options{.width = 640, .height = 600};
  nldr::io::write_scatter_plot(path, strip, options);
  std::string svg = nldr_test::read_file(path);
  const auto cx = attribute_values(svg, "<circle ", "cx"), cy = attribute_values(svg, "<circle ", "cy");
  // Independent linear maps: slopes from two points each, checked on all points.
  const double sx = (cx[n - 1] - cx[0]) / 10.0, sy = (cy[4] - cy[0]) / -1.0;
  for (int i = 0; i < n; ++i) {
    CHECK(std::abs(cx[i] - (cx[0] + sx * strip(i, 0))) < 0.15);
    CHECK(std::abs(cy[i] - (cy[0] - sy * strip(i, 1))) < 0.15);
  }
  // The data span most of the frame's height (equal scale would give them a tenth of the width).
  const double height = *std::max_element(cy.begin(), cy.end()) - *std::min_element(cy.begin(), cy.end());
  CHECK(height > 0.8 * 500);
  // The note states the stretch, computed here from the pixel slopes.
  std::string stretch;
  nldr::io::detail::append_number(stretch, sy / sx, 2);
  CHECK_THAT(svg, ContainsSubstring("not to scale: y stretched " + stretch));

  // Aspect::equal on the same data: one slope for both axes, no note.
  nldr::io::write_scatter_plot(path, strip, {.aspect = nldr::io::Aspect::equal});
  svg = nldr_test::read_file(path);
  const auto ex = attribute_values(svg, "<circle ", "cx"), ey = attribute_values(svg, "<circle ", "cy");
  CHECK(std::abs((ex[n - 1] - ex[0]) / 10.0 - (ey[0] - ey[4]) / 1.0) < 0.2);
  CHECK(svg.find("not to scale") == std::string::npos);

  // 2 x 1 data in a near-square frame fill half its height: equal scales by default.
  nldr::Matrix<double> moderate = strip;
  moderate.col(0) /= 5;
  nldr::io::write_scatter_plot(path, moderate);
  svg = nldr_test::read_file(path);
  const auto mx = attribute_values(svg, "<circle ", "cx"), my = attribute_values(svg, "<circle ", "cy");
  CHECK(std::abs((mx[n - 1] - mx[0]) / 2.0 - (my[0] - my[4]) / 1.0) < 0.2);
  CHECK(svg.find("not to scale") == std::string::npos);
}

TEST_CASE("the plot format follows the extension; PNG and PDF come from cairo", "[io][plot]") {
  nldr_test::ScratchDir dir;
  using nldr::io::PlotFormat;
  CHECK(nldr::io::plot_format("a.svg") == PlotFormat::svg);
  CHECK(nldr::io::plot_format("dir.d/A.SVG") == PlotFormat::svg);
  CHECK_THROWS_WITH(nldr::io::plot_format("a.jpg"), ContainsSubstring("'.jpg'") && ContainsSubstring(".svg, .png or .pdf"));
  CHECK_THROWS_WITH(nldr::io::plot_format("plot"), ContainsSubstring("no extension"));
  const nldr::Matrix<double> points = nldr::Matrix<double>::Random(20, 2);
  const nldr::Vector<double> colors = nldr::Vector<double>::LinSpaced(20, 0, 1);
  CHECK_THROWS_AS(nldr::io::write_scatter_plot(dir / "y.jpg", points), nldr::invalid_argument);
  // The SVG writers never put SVG text into a .png or .pdf file.
  CHECK_THROWS_WITH(nldr::io::write_scatter_svg(dir / "y.png", points), ContainsSubstring("name it .svg"));
  CHECK_THROWS_AS(nldr::io::write_line_plot_svg(dir / "r.PDF", {{"a", {1, 2}, {1, 2}}}), nldr::invalid_argument);
  CHECK(dir.listing().empty());

  if constexpr (nldr::io::cairo_available) {
    nldr::io::write_scatter_plot(dir / "y.png", points, colors, {.title = "t", .width = 333, .height = 222});
    const auto [w, h] = png_size(nldr_test::read_file(dir / "y.png"));
    CHECK(w == 333);
    CHECK(h == 222);
    nldr::io::write_line_plot(dir / "r.png", {{"a", {1, 2, 3}, {0.5, 0.7, 0.6}}}, {.width = 500, .height = 300});
    const auto [lw, lh] = png_size(nldr_test::read_file(dir / "r.png"));
    CHECK(lw == 500);
    CHECK(lh == 300);
    // PDF: 0.75 pt per pixel, the size a browser shows the SVG at (96 px per inch).
    nldr::io::write_scatter_plot(dir / "y.pdf", points, colors, {.width = 640, .height = 600});
    const std::string pdf = nldr_test::read_file(dir / "y.pdf");
    CHECK(pdf.rfind("%PDF-", 0) == 0);
    CHECK_THAT(pdf, ContainsSubstring("/MediaBox [ 0 0 480 450 ]"));
    // Bad input leaves no file behind in these formats either.
    CHECK_THROWS_AS(nldr::io::write_scatter_plot(dir / "bad.png", points, nldr::Vector<double>::Zero(3)),
                    nldr::invalid_argument);
    CHECK(dir.listing() == std::set<std::string>{"r.png", "y.pdf", "y.png"});
  } else {
    CHECK_THROWS_WITH(nldr::io::write_scatter_plot(dir / "y.png", points), ContainsSubstring("name the file .svg"));
    CHECK_THROWS_WITH(nldr::io::plot_format("y.pdf"), ContainsSubstring("needs cairo"));
    CHECK(dir.listing().empty());
  }
}
