// The scene format's `box` and `ellipse` as the polygons they are read as (SPEC §2.5): the
// formulas evaluated exactly as written, so that every implementation gets the same doubles.
#include "collide/geometry.hpp"

#include "numeric/angles.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace collide {

namespace {
constexpr double kPi = 3.14159265358979323846;
// cos and sin at 0, 90, 180 and 270 degrees, exactly.
constexpr double kQuarterCos[4] = {1.0, 0.0, -1.0, 0.0};
constexpr double kQuarterSin[4] = {0.0, 1.0, 0.0, -1.0};
}  // namespace

namespace detail {

void cos_sin(double degrees, double& c, double& s) {
    // angle mod 360 in [0, 360]: fmod is exact; adding 360 to a negative remainder rounds
    // (to 360 itself for a tiny one), so -45 and 315 give the same doubles.
    double turn = std::fmod(degrees, 360.0);
    if (turn < 0) turn += 360.0;
    if (std::fmod(turn, 90.0) == 0.0) {
        const int quarter = static_cast<int>(turn / 90.0) & 3;  // 0..4; 360 is a whole turn
        c = kQuarterCos[quarter];
        s = kQuarterSin[quarter];
        return;
    }
    const double radians = turn * kPi / 180.0;
    c = std::cos(radians);
    s = std::sin(radians);
}

}  // namespace detail

namespace {

using detail::cos_sin;

// center + R (u, v), each product rounded and the sums taken left to right.
Vec2 turned(Vec2 center, double u, double v, double c, double s) {
    return Vec2{center.x + u * c - v * s, center.y + u * s + v * c};
}

}  // namespace

std::vector<Vec2> box_corners(Vec2 center, Vec2 size, double angle_degrees) {
    double c = 1.0;
    double s = 0.0;
    cos_sin(angle_degrees, c, s);
    const double hw = size.x / 2;
    const double hh = size.y / 2;
    return {turned(center, -hw, -hh, c, s), turned(center, hw, -hh, c, s), turned(center, hw, hh, c, s),
            turned(center, -hw, hh, c, s)};
}

std::vector<Vec2> ellipse_points(Vec2 center, Vec2 radii, double angle_degrees, std::uint32_t vertices) {
    double c = 1.0;
    double s = 0.0;
    cos_sin(angle_degrees, c, s);
    std::vector<Vec2> out;
    out.reserve(vertices);
    for (std::uint32_t k = 0; k < vertices; ++k) {
        double ck = 0.0;
        double sk = 0.0;
        // At a quarter turn (4k a multiple of n) exactly 0 and +-1, so the extreme points are
        // center +- rx, center +- ry before the turn.
        if (std::uint64_t{4} * k % vertices == 0) {
            const auto quarter = static_cast<std::size_t>(std::uint64_t{4} * k / vertices);
            ck = kQuarterCos[quarter];
            sk = kQuarterSin[quarter];
        } else {
            const double theta = 2.0 * kPi * static_cast<double>(k) / static_cast<double>(vertices);
            ck = std::cos(theta);
            sk = std::sin(theta);
        }
        out.push_back(turned(center, radii.x * ck, radii.y * sk, c, s));
    }
    return out;
}

}  // namespace collide
