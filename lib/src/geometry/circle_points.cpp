// Where two circles' outlines meet (pieces.hpp), each point correctly rounded: in plain
// doubles when a rigorous bound settles it (round_offset), else from the exact form.
#include "geometry/pieces.hpp"

#include "numeric/rounding.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <type_traits>

namespace collide::detail {

namespace {

// The points of circle_circle_points in doubles (the tangent point first, or the crossings
// for j = +1 and -1), a few ulps off at most: in plain doubles while every intermediate value
// is a finite normal double, else with Scaled (centres or radii near 1e308 overflow d^2 and
// ra + rb, tiny distances underflow). Nothing for a point beyond the double range.
std::array<std::optional<Vec2>, 2> approximate_circle_points(const Circle& a, const Circle& b, int ext, bool tangent) {
    const double dx = b.center.x - a.center.x;
    const double dy = b.center.y - a.center.y;
    const bool finite_d = std::isfinite(dx) && std::isfinite(dy);
    auto finite = [](const Vec2& x) { return std::isfinite(x.x) && std::isfinite(x.y); };
    const Scaled ax = Scaled::of(a.center.x);
    const Scaled ay = Scaled::of(a.center.y);
    if (tangent) {
        // The point lies on the line of centres at ra / (ra +- rb) of the way.
        const double f = a.radius / (ext == 0 ? a.radius + b.radius : a.radius - b.radius);
        const Vec2 x{a.center.x + f * dx, a.center.y + f * dy};
        if (finite_d && std::isfinite(f) && finite(x)) return {x, std::nullopt};
        const Scaled ra = Scaled::of(a.radius);
        const Scaled rb = Scaled::of(b.radius);
        const Scaled sf = ra / (ext == 0 ? ra + rb : ra - rb);
        return {representable(ax + sf * (Scaled::of(b.center.x) - ax), ay + sf * (Scaled::of(b.center.y) - ay)), std::nullopt};
    }
    // The chord is at distance l from a's centre, half-length h, with
    // l = (d^2 + ra^2 - rb^2) / 2d and h^2 = (4 d^2 ra^2 - (d^2 + ra^2 - rb^2)^2) / 4d^2.
    auto k_expr = [&](auto z) {
        using T = decltype(z);
        const T ex = T(b.center.x) - T(a.center.x);
        const T ey = T(b.center.y) - T(a.center.y);
        return ex * ex + ey * ey + T(a.radius) * T(a.radius) - T(b.radius) * T(b.radius);
    };
    const Scaled d2 = scaled_of([&](auto z) {
        using T = decltype(z);
        const T ex = T(b.center.x) - T(a.center.x);
        const T ey = T(b.center.y) - T(a.center.y);
        return ex * ex + ey * ey;
    });
    const Scaled k = scaled_of(k_expr);
    const Scaled h2x4d2 = scaled_of([&](auto z) {
        using T = decltype(z);
        const T ex = T(b.center.x) - T(a.center.x);
        const T ey = T(b.center.y) - T(a.center.y);
        const T kk = k_expr(z);
        return T(4) * (ex * ex + ey * ey) * T(a.radius) * T(a.radius) - kk * kk;
    });
    // d2.e < 1024: 2 d^2 does not overflow.
    if (finite_d && d2.is_normal_double() && d2.e < 1024 && k.is_normal_double() && h2x4d2.is_normal_double()) {
        const double two_d2 = 2.0 * *d2.to_double();
        const double l_over_d = *k.to_double() / two_d2;                                // l / d
        const double h_over_d = std::sqrt(std::max(0.0, *h2x4d2.to_double())) / two_d2;  // h / d
        const Vec2 base{a.center.x + l_over_d * dx, a.center.y + l_over_d * dy};
        const Vec2 x1{base.x - h_over_d * dy, base.y + h_over_d * dx};
        const Vec2 x2{base.x + h_over_d * dy, base.y - h_over_d * dx};
        if (finite(x1) && finite(x2)) return {x1, x2};
    }
    const Scaled sdx = Scaled::of(b.center.x) - ax;
    const Scaled sdy = Scaled::of(b.center.y) - ay;
    const Scaled two_d2 = Scaled::of(2.0) * d2;
    const Scaled sl = k / two_d2;             // l / d
    const Scaled sh = sqrt(h2x4d2) / two_d2;  // h / d
    const Scaled bx = ax + sl * sdx;
    const Scaled by = ay + sl * sdy;
    return {representable(bx - sh * sdy, by + sh * sdx), representable(bx + sh * sdy, by - sh * sdx)};
}

// A crossing of two circles with D = b.c - a.c, over den = 2 |D|^2:
// (x, y) + j sqrt(h) perp(D), j = +1 or -1 (see circle_circle_points).
template <class T>
struct Crossing {
    T ex, ey, h, den, x, y;
    PointQuotient<Root<T>, T> point(int j) const {
        const T jj(static_cast<double>(j));
        return PointQuotient<Root<T>, T>{Root<T>{x, -(jj * ey), h}, Root<T>{y, jj * ex, h}, den};
    }
};

// The point of circle_circle_points for j (0: the tangent point), when plain doubles settle
// both coordinates: a's centre plus the offset of the form there, with a rigorous bound
// (round_offset).
std::optional<Vec2> quick_circle_point(const Circle& a, const Circle& b, int ext, int j) {
    using F = Filtered;
    const F ex = F(b.center.x) - F(a.center.x);
    const F ey = F(b.center.y) - F(a.center.y);
    const F ra(a.radius);
    const F rb(b.radius);
    std::optional<F> ox, oy;
    if (j == 0) {
        const F den = ext == 0 ? ra + rb : ra - rb;
        ox = quotient(ra * ex, den);
        oy = quotient(ra * ey, den);
    } else {
        const F d2 = ex * ex + ey * ey;
        const F k = d2 + ra * ra - rb * rb;
        std::optional<F> root = sqrt_of(F(4.0) * d2 * ra * ra - k * k);
        if (!root) return std::nullopt;
        if (j < 0) root = -*root;
        const F den = F(2.0) * d2;
        ox = quotient(k * ex - *root * ey, den);
        oy = quotient(k * ey + *root * ex, den);
    }
    if (!ox || !oy) return std::nullopt;
    const std::optional<double> x = round_offset(a.center.x, *ox);
    if (!x) return std::nullopt;
    const std::optional<double> y = round_offset(a.center.y, *oy);
    if (!y) return std::nullopt;
    return Vec2{*x, *y};
}

}  // namespace

TwoPoints circle_circle_points(const Circle& a, const Circle& b, int ext, int in) {
    TwoPoints points;
    if (a.center == b.center) return points;  // equal or concentric: the outlines do not cross
    if (ext == 0) in = 1;                      // d = ra + rb > |ra - rb|
    if (ext > 0 || in < 0) return points;
    const bool tangent = ext == 0 || in == 0;
    // The exact points, with D = b.c - a.c: tangent, a.c + ra D / (ra +- rb) (on the line of
    // centres); crossing, a.c + (k D + j sqrt(H) perp(D)) / (2 |D|^2) for j = +1 then -1,
    // k = |D|^2 + ra^2 - rb^2 and H = 4 |D|^2 ra^2 - k^2 (the chord at distance k / 2|D|
    // from a's centre, of half-length sqrt(H) / 2|D|).
    std::optional<Crossing<DoubleWord>> fast;
    auto form = [&](int j) {
        return [&, j](auto zero) {
            using T = decltype(zero);
            const T ex = T(b.center.x) - T(a.center.x);
            const T ey = T(b.center.y) - T(a.center.y);
            const T ra(a.radius);
            const T rb(b.radius);
            if (tangent) {  // the same form with nothing under the root, over ra +- rb
                const T den = ext == 0 ? ra + rb : ra - rb;
                return PointQuotient<Root<T>, T>{Root<T>{T(a.center.x) * den + ra * ex, T(0.0), T(0.0)},
                                                 Root<T>{T(a.center.y) * den + ra * ey, T(0.0), T(0.0)}, den};
            }
            const auto crossing = [&] {
                const T d2 = ex * ex + ey * ey;
                const T k = d2 + ra * ra - rb * rb;
                const T h = T(4.0) * d2 * ra * ra - k * k;
                const T den = T(2.0) * d2;
                return Crossing<T>{ex, ey, h, den, T(a.center.x) * den + k * ex, T(a.center.y) * den + k * ey};
            };
            // Both crossings share every term but the sign of the root: in DoubleWord (which
            // rounds them, nearly always alone) the terms are computed once for both.
            if constexpr (std::is_same_v<T, DoubleWord>) {
                if (!fast) fast = crossing();
                return fast->point(j);
            } else {
                return crossing().point(j);
            }
        };
    };
    // Where the rounding needs a search, it starts from the points in doubles, computed once.
    std::optional<std::array<std::optional<Vec2>, 2>> near;
    auto near_point = [&](int i) {
        if (!near) near = approximate_circle_points(a, b, ext, tangent);
        return (*near)[i];
    };
    // Plain doubles settle nearly every point; the rest are rounded from the exact form.
    auto add = [&](int j, int near_index) {
        std::optional<Vec2> x = quick_circle_point(a, b, ext, j);
        if (!x) x = round_point(form(j), [&] { return near_point(near_index); });
        if (x) points.push_back(*x);
    };
    if (tangent) {
        add(0, 0);
        return points;
    }
    add(1, 0);
    add(-1, 1);
    return points;
}

}  // namespace collide::detail
