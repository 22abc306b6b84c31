// SVG plots: well-formed XML, the geometry of the marks, the colormap, and refused input.
#include "catch.hpp"
#include "scratch_dir.hpp"

#include <nldr/io/colormap.hpp>
#include <nldr/io/svg.hpp>

#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {

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

}  // namespace

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

TEMPLATE_TEST_CASE("write_scatter_svg draws every point at the same scale on both axes", "[io][svg]", float,
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
  nldr::io::write_scatter_svg(path, points, colors, {.title = "LLE <k=12> & more", .color_label = "t"});
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
  CHECK(count(svg, "<polyline ") == 2);
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
