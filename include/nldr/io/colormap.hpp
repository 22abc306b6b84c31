// Perceptual colormap for continuous values in plots.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

namespace nldr::io {

/// An sRGB color, 8 bits per channel.
struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  /// "#rrggbb".
  std::string hex() const {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out = "#";
    for (std::uint8_t c : {r, g, b}) {
      out += digits[c >> 4];
      out += digits[c & 15];
    }
    return out;
  }
  friend bool operator==(const Rgb&, const Rgb&) = default;
};

/// Control points of viridis (van der Walt & Smith, matplotlib 2.0, 2015): matplotlib's
/// `cm.viridis(i / 16)` for i = 0..16. Perceptually uniform, readable in grey scale and by
/// color-blind readers.
inline constexpr std::array<Rgb, 17> viridis_control_points{{
    {0x44, 0x01, 0x54},
    {0x48, 0x18, 0x6a},
    {0x47, 0x2d, 0x7b},
    {0x42, 0x40, 0x86},
    {0x3b, 0x52, 0x8b},
    {0x33, 0x63, 0x8d},
    {0x2c, 0x72, 0x8e},
    {0x26, 0x82, 0x8e},
    {0x21, 0x91, 0x8c},
    {0x1f, 0xa0, 0x88},
    {0x28, 0xae, 0x80},
    {0x3f, 0xbc, 0x73},
    {0x5e, 0xc9, 0x62},
    {0x84, 0xd4, 0x4b},
    {0xad, 0xdc, 0x30},
    {0xd8, 0xe2, 0x19},
    {0xfd, 0xe7, 0x25}}};

/// Viridis at t in [0, 1] (clamped; NaN maps to 0): linear interpolation in sRGB between the
/// 17 control points, within 6/255 per channel of matplotlib's 256-entry table.
inline Rgb viridis(double t) {
  t = std::isnan(t) ? 0.0 : std::clamp(t, 0.0, 1.0);
  const double position = t * double(viridis_control_points.size() - 1);
  const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(position), viridis_control_points.size() - 2);
  const double f = position - double(i);
  const Rgb& a = viridis_control_points[i];
  const Rgb& b = viridis_control_points[i + 1];
  const auto mix = [f](std::uint8_t u, std::uint8_t v) {
    return static_cast<std::uint8_t>(std::lround(double(u) + f * (double(v) - double(u))));
  };
  return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)};
}

}  // namespace nldr::io
