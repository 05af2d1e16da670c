// The exact times a body moving on a tile grid first hits one cell (grid_moves.cpp finds
// the cells): a ratio of exact sums (TVal) where it enters the cell grown by the body as a box,
// or, for a circle body, the smaller root of a quadratic where its centre comes within the
// radius of a cell corner (Entry). Entries are compared through enclosing double intervals
// first and exactly only when those overlap; Sweep gives an entry's t and stop point
// correctly rounded (rounding.hpp).
#pragma once

#include "grids/lattice.hpp"
#include "numeric/interval.hpp"
#include "numeric/rounding.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

namespace collide::detail::grid_sweep {

// A fraction of the path: t = (o + k w + s - f) / (g - f), the time an axis coordinate
// moving from f to g meets the exact value o + k w + s; or a constant.
struct TVal {
    bool is_const = true;
    double c = 0.0;
    double o = 0, k = 0, w = 0, f = 0, g = 0;
    Shift s;
    bool open = false;  // as an interval end: excluded

    template <class T> T num() const { return is_const ? T(c) : T(o) + T(k) * T(w) + s.template get<T>() - T(f); }
    template <class T> T den() const { return is_const ? T(1.0) : T(g) - T(f); }
    int den_sign() const { return is_const ? 1 : (g > f ? 1 : -1); }
    double value() const {
        if (is_const) return c;
        // g - f (and o + k w) may leave the double range: scale both by a power of two first.
        const double mag = std::max({std::fabs(o), std::fabs(k) * std::fabs(w), std::fabs(s.v), std::fabs(f), std::fabs(g)});
        if (mag <= 0x1p1000)  // (unscaled: a product by 1 would widen the filter's error bound)
            return value_of([&](auto z) { return num<decltype(z)>(); }) / value_of([&](auto z) { return den<decltype(z)>(); });
        const double n = value_of([&](auto z) { return num<decltype(z)>() * decltype(z)(0x1p-80); });
        const double d = value_of([&](auto z) { return den<decltype(z)>() * decltype(z)(0x1p-80); });
        return n / d;
    }
};

// Sign of a - b, exactly.
int compare(const TVal& a, const TVal& b);

inline TVal constant(double c) {
    TVal t;
    t.c = c;
    return t;
}

// The time a coordinate moving from f to g meets the exact value o + k w + s.
inline TVal edge_time(const Axis& ax, std::int64_t k, Shift s, double f, double g) {
    TVal t;
    t.is_const = false;
    t.o = ax.o;
    t.k = static_cast<double>(k);
    t.w = ax.w;
    t.s = s;
    t.f = f;
    t.g = g;
    return t;
}

// The times a coordinate moving from f to g lies in the cell-k interval of an axis widened
// by s on both sides, lo end included when `closed_lo` (the half-open point rule).
struct TInterval {
    TVal lo;
    TVal hi;
    bool empty = false;
    bool unbounded = false;  // the coordinate does not move and lies inside
};

TInterval axis_times(const Axis& ax, std::int64_t k, Shift s, double f, double g, bool closed_lo);

// The first time (infimum) the body centre lies in the box product of the two axis
// intervals, within [0, 1]; nothing when it never does.
std::optional<TVal> box_entry(const TInterval& x, const TInterval& y);

// A cell corner (o_x + kx w_x, o_y + ky w_y), exactly, against a disk's path.
struct Corner {
    const Lattice& L;
    double kx;
    double ky;
    template <class T> T x() const { return T(L.x.o) + T(kx) * T(L.x.w); }
    template <class T> T y() const { return T(L.y.o) + T(ky) * T(L.y.w); }
};

// The time the disk's centre, moving from `from` (at distance >= r) to `to`, first comes
// within r of the corner, given that it does, in doubles: the start for rounding Entry's
// exact value when its bounds are not finite (inputs near the ends of the range). With
// p = |c - from|^2 - r^2, d = to - from:
// t = p / (d.(c - from) + sqrt(r^2 |d|^2 - (d x (c - from))^2)), the smaller root of
// |from + t d - c|^2 = r^2 written without cancellation. Every length is first scaled by a
// power of two so that nothing overflows or underflows needlessly.
double corner_time(const Corner& c, Vec2 from, Vec2 to, double r);

// Entry times are compared through an Interval first (numeric/interval.hpp: interval
// arithmetic on Filtered values), and exactly only when two overlap: at a tie or within a few
// ulps of one.
// The time a body first hits a cell: a ratio (TVal), or the time a disk's centre first comes
// within r of a cell corner. With d = to - from and v = corner - from, that is the smaller
// root of |from + t d - corner|^2 = r^2,
//     t = (d.v - sqrt(disc)) / |d|^2,   disc = r^2 |d|^2 - (d x v)^2
// (the discriminant by Lagrange's identity (d.v)^2 + (d x v)^2 = |d|^2 |v|^2); it is taken
// only when the centre starts at distance >= r and passes within < r, so disc > 0, d.v > 0
// and 0 <= t < 1. `approx` is a double near the value.
struct Entry {
    bool corner = false;
    TVal ratio;              // when !corner
    double kx = 0, ky = 0;   // when corner: its lattice indices
    Interval bounds;         // holds the exact value: most comparisons end there
    double approx = 0.0;     // set for the winner only (TVal::value() divides)
};

Entry ratio_entry(const TVal& v);

// A body's path, for exact arithmetic on its entry times.
struct Sweep {
    const Lattice& L;
    Vec2 from;
    Vec2 to;
    double r;  // the radius for a circle body

    template <class T> T dd() const {
        const T dx = T(to.x) - T(from.x);
        const T dy = T(to.y) - T(from.y);
        return dx * dx + dy * dy;
    }
    template <class T> T dot(const Entry& e) const {
        const Corner c{L, e.kx, e.ky};
        return (T(to.x) - T(from.x)) * (c.x<T>() - T(from.x)) + (T(to.y) - T(from.y)) * (c.y<T>() - T(from.y));
    }
    template <class T> T disc(const Entry& e) const {
        const Corner c{L, e.kx, e.ky};
        const T dx = T(to.x) - T(from.x);
        const T dy = T(to.y) - T(from.y);
        const T cr = dx * (c.y<T>() - T(from.y)) - dy * (c.x<T>() - T(from.x));
        return T(r) * T(r) * (dx * dx + dy * dy) - cr * cr;
    }

    Entry corner_entry(double kx, double ky) const;

    // Sign of a - b, exactly.
    int compare(const Entry& a, const Entry& b) const;

    // The entry's t, correctly rounded.
    double t(const Entry& e) const;

    // from + t (to - from) for the entry's exact t, both coordinates correctly rounded from
    // one evaluation of their shared terms; near() gives a point near it (only called when
    // the DoubleWord value does not settle a coordinate at once).
    template <class Near>
    Vec2 stop(const Entry& e, Near&& near) const;
};

template <class Near>
Vec2 Sweep::stop(const Entry& e, Near&& near) const {
    // A coordinate that does not move (passed as known below), and the ends of the path,
    // are exact already.
    auto start = [&] { return std::optional<Vec2>(near()); };
    std::optional<Vec2> p;
    if (!e.corner) {
        const TVal& v = e.ratio;
        if (v.is_const && v.c == 0.0) return from;
        if (v.is_const && v.c == 1.0) return to;
        p = round_point(
            [&](auto z) {
                using T = decltype(z);
                const T den = v.den<T>();
                const T num = v.num<T>();
                return PointQuotient<T, T>{T(from.x) * den + num * (T(to.x) - T(from.x)),
                                           T(from.y) * den + num * (T(to.y) - T(from.y)), den};
            },
            start, from.x == to.x ? std::optional(from.x) : std::nullopt,
            from.y == to.y ? std::optional(from.y) : std::nullopt);
    } else {
        // (f |d|^2 + (g - f) (dot - sqrt(disc))) / |d|^2 on each axis
        p = round_point(
            [&](auto z) {
                using T = decltype(z);
                const T len2 = dd<T>();
                const T dt = dot<T>(e);
                const T q = disc<T>(e);
                const T dx = T(to.x) - T(from.x);
                const T dy = T(to.y) - T(from.y);
                return PointQuotient<Root<T>, T>{Root<T>{T(from.x) * len2 + dx * dt, -dx, q},
                                                 Root<T>{T(from.y) * len2 + dy * dt, -dy, q}, len2};
            },
            start, from.x == to.x ? std::optional(from.x) : std::nullopt,
            from.y == to.y ? std::optional(from.y) : std::nullopt);
    }
    return p ? *p : near();  // (p is nothing only beyond the double range: never, stop lies on the path)
}

// The first time a disk of radius r moving from `from` to `to` comes within < r of the closed
// cell: the earliest entry into the cell grown by r (two boxes and four corner disks).
std::optional<Entry> circle_entry(const Sweep& sw, std::int64_t ix, std::int64_t iy);

}  // namespace collide::detail::grid_sweep
