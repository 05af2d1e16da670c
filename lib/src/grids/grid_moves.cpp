// Moves on tile grids (SPEC §1.3, §2.4): whether a body may move, and where it stops.
//
// A body hits a cell when it meets the cell's open interior (a point body: when the cell
// holds it by the floor rule). Along a path, the body's centre moves on the segment from ->
// to, and it hits cell c at the first time the centre enters c grown by the body (a box for
// a rect; a box grown by the radius with rounded corners for a circle). That time is a ratio
// of exact sums (a box side), or for a circle's rounded corner a quadratic irrational
// (Entry); times are compared exactly, and t and stop are the exact values correctly rounded
// (rounding.hpp). Candidate cells are found row by row with exact searches (lattice.hpp) and
// clipped to the grid plus one ring of outside cells: a body that starts clear lies within
// the grid's closed extent (or the outside is empty), so it meets the outside there first.
// first_contact (sweep.hpp) gives the same time as a SweepTime, comparable with a shape's.
#include "grids/grid_ops.hpp"

#include "grids/lattice.hpp"
#include "numeric/rounding.hpp"
#include "queries/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace collide::detail {

namespace {

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

int compare(const TVal& a, const TVal& b) {
    if (a.is_const && b.is_const) return a.c < b.c ? -1 : (a.c > b.c ? 1 : 0);
    return a.den_sign() * b.den_sign() * sign_of([&](auto z) {
               using T = decltype(z);
               return a.num<T>() * b.den<T>() - b.num<T>() * a.den<T>();
           });
}
// (For Sweep::compare, whose own name hides this one; detail::compare is a SweepTime's.)
int compare_ratios(const TVal& a, const TVal& b) { return compare(a, b); }

TVal constant(double c) {
    TVal t;
    t.c = c;
    return t;
}

// The time a coordinate moving from f to g meets the exact value o + k w + s.
TVal edge_time(const Axis& ax, std::int64_t k, Shift s, double f, double g) {
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

TInterval axis_times(const Axis& ax, std::int64_t k, Shift s, double f, double g, bool closed_lo) {
    TInterval r;
    if (f == g) {
        const int a = cmp_edge(ax, f, s, k);        // f + s vs lo edge: f >= edge - s
        const int b = cmp_edge(ax, f, s.neg(), k + 1);  // f - s vs hi edge: f < edge + s
        r.unbounded = (closed_lo ? a >= 0 : a > 0) && b < 0;
        r.empty = !r.unbounded;
        return r;
    }
    TVal lo_edge = edge_time(ax, k, s.neg(), f, g);
    TVal hi_edge = edge_time(ax, k + 1, s, f, g);
    lo_edge.open = !closed_lo;
    hi_edge.open = true;
    if (g > f) {
        r.lo = lo_edge;
        r.hi = hi_edge;
    } else {
        r.lo = hi_edge;
        r.hi = lo_edge;
    }
    return r;
}

// The first time (infimum) the body centre lies in the box product of the two axis
// intervals, within [0, 1]; nothing when it never does.
std::optional<TVal> box_entry(const TInterval& x, const TInterval& y) {
    if (x.empty || y.empty) return std::nullopt;
    TVal lo = constant(0.0);
    TVal hi = constant(1.0);
    auto raise = [&](const TVal& v) {
        const int c = compare(v, lo);
        if (c > 0) lo = v;
        else if (c == 0 && v.open) lo.open = true;
    };
    auto lower = [&](const TVal& v) {
        const int c = compare(v, hi);
        if (c < 0) hi = v;
        else if (c == 0 && v.open) hi.open = true;
    };
    for (const TInterval* iv : {&x, &y}) {
        if (iv->unbounded) continue;
        raise(iv->lo);
        lower(iv->hi);
    }
    const int c = compare(lo, hi);
    if (c > 0 || (c == 0 && (lo.open || hi.open))) return std::nullopt;
    return lo;
}

// A cell corner (o_x + kx w_x, o_y + ky w_y), exactly, against a disk's path.
struct Corner {
    const Lattice& L;
    double kx;
    double ky;
    template <class T> T x() const { return T(L.x.o) + T(kx) * T(L.x.w); }
    template <class T> T y() const { return T(L.y.o) + T(ky) * T(L.y.w); }
};

// Whether the segment from -> to passes within distance < r of the corner, exactly.
bool path_near_corner(const Corner& c, Vec2 from, Vec2 to, double r) {
    auto dist2_minus_r2 = [&](Vec2 p) {
        return sign_of([&](auto z) {
            using T = decltype(z);
            const T vx = c.x<T>() - T(p.x);
            const T vy = c.y<T>() - T(p.y);
            return vx * vx + vy * vy - T(r) * T(r);
        });
    };
    auto along = [&](Vec2 p) {  // sign of (to - from) . (corner - p)
        return sign_of([&](auto z) {
            using T = decltype(z);
            return (T(to.x) - T(from.x)) * (c.x<T>() - T(p.x)) + (T(to.y) - T(from.y)) * (c.y<T>() - T(p.y));
        });
    };
    if (along(from) <= 0) return dist2_minus_r2(from) < 0;
    if (along(to) >= 0) return dist2_minus_r2(to) < 0;
    return sign_of([&](auto z) {
               using T = decltype(z);
               const T dx = T(to.x) - T(from.x);
               const T dy = T(to.y) - T(from.y);
               const T cr = dx * (c.y<T>() - T(from.y)) - dy * (c.x<T>() - T(from.x));
               return cr * cr - T(r) * T(r) * (dx * dx + dy * dy);
           }) < 0;
}

// The time the disk's centre, moving from `from` (at distance >= r) to `to`, first comes
// within r of the corner, given that it does, in doubles: the start for rounding Entry's
// exact value when its bounds are not finite (inputs near the ends of the range). With
// p = |c - from|^2 - r^2, d = to - from:
// t = p / (d.(c - from) + sqrt(r^2 |d|^2 - (d x (c - from))^2)), the smaller root of
// |from + t d - c|^2 = r^2 written without cancellation. Every length is first scaled by a
// power of two so that nothing overflows or underflows needlessly.
double corner_time(const Corner& c, Vec2 from, Vec2 to, double r) {
    const double inf = std::numeric_limits<double>::infinity();
    double m = std::max({std::fabs(to.x - from.x), std::fabs(to.y - from.y), r});
    if (m == inf) m = std::max({std::fabs(to.x), std::fabs(to.y), std::fabs(from.x), std::fabs(from.y)});
    // 2^-e with e clamped so that the factor itself stays a finite double.
    const double sc = std::ldexp(1.0, -std::clamp(std::ilogb(m), -1020, 1020));
    auto scaled = [&](auto z, auto v) { return v * decltype(z)(sc); };
    const double p = value_of([&](auto z) {
        using T = decltype(z);
        const T vx = scaled(z, c.x<T>() - T(from.x));
        const T vy = scaled(z, c.y<T>() - T(from.y));
        const T rs = scaled(z, T(r));
        return vx * vx + vy * vy - rs * rs;
    });
    const double dot = value_of([&](auto z) {
        using T = decltype(z);
        return scaled(z, T(to.x) - T(from.x)) * scaled(z, c.x<T>() - T(from.x)) +
               scaled(z, T(to.y) - T(from.y)) * scaled(z, c.y<T>() - T(from.y));
    });
    const double disc = value_of([&](auto z) {
        using T = decltype(z);
        const T dx = scaled(z, T(to.x) - T(from.x));
        const T dy = scaled(z, T(to.y) - T(from.y));
        const T cr = dx * scaled(z, c.y<T>() - T(from.y)) - dy * scaled(z, c.x<T>() - T(from.x));
        const T rs = scaled(z, T(r));
        return rs * rs * (dx * dx + dy * dy) - cr * cr;
    });
    const double den = dot + std::sqrt(std::max(0.0, disc));
    const double t = p / den;
    if (!(den > 0) || !(t >= 0)) return 0.0;  // only in extreme underflow: err early, never late
    return std::min(t, 1.0);
}

// A double interval that holds an exact value; the default claims nothing. Entry times are
// compared through these first (interval arithmetic on Filtered values, each bound moved
// outwards by more than its rounding error), and exactly only when they overlap: at a tie
// or within a few ulps of one.
struct Bounds {
    double lo = -HUGE_VAL;
    double hi = HUGE_VAL;
};

// [a, b] moved outwards by more than the rounding error of the operation that gave each
// (2^-53 relative while normal, 2^-1075 absolute when subnormal).
Bounds widen(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return {};
    return {a - std::fabs(a) * 0x1p-50 - 0x1p-1070, b + std::fabs(b) * 0x1p-50 + 0x1p-1070};
}

Bounds enclose(const Filtered& f) {
    if (!std::isfinite(f.v) || !std::isfinite(f.e)) return {};
    return widen(f.v - f.e, f.v + f.e);
}

Bounds divide(Bounds n, Bounds d) {
    if (!(d.lo > 0.0) && !(d.hi < 0.0)) return {};  // d may be 0
    if (d.hi < 0.0) {
        n = {-n.hi, -n.lo};
        d = {-d.hi, -d.lo};
    }
    // n / d grows with n; for d > 0 it is least at n.lo over the end of d that makes it so.
    return widen(n.lo / (n.lo < 0.0 ? d.lo : d.hi), n.hi / (n.hi < 0.0 ? d.hi : d.lo));
}

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
    Bounds bounds;           // holds the exact value: most comparisons end there
    double approx = 0.0;     // set for the winner only (TVal::value() divides)
};

Entry ratio_entry(const TVal& v) {
    Entry e;
    e.ratio = v;
    if (v.is_const) e.bounds = {v.c, v.c};
    else e.bounds = divide(enclose(v.num<Filtered>()), enclose(v.den<Filtered>()));
    return e;
}

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

    Entry corner_entry(double kx, double ky) const {
        Entry e;
        e.corner = true;
        e.kx = kx;
        e.ky = ky;
        const Bounds dt = enclose(dot<Filtered>(e));
        const Bounds q = enclose(disc<Filtered>(e));
        if (!(q.hi > 0.0)) return e;
        const Bounds root = widen(std::sqrt(std::max(0.0, q.lo)), std::sqrt(q.hi));
        const Bounds num = widen(dt.lo - root.hi, dt.hi - root.lo);
        e.bounds = divide(num, enclose(dd<Filtered>()));
        return e;
    }

    // Sign of a - b, exactly.
    int compare(const Entry& a, const Entry& b) const {
        if (a.bounds.hi < b.bounds.lo) return -1;
        if (a.bounds.lo > b.bounds.hi) return 1;
        if (!a.corner && !b.corner) return compare_ratios(a.ratio, b.ratio);
        if (!a.corner) return -compare(b, a);
        if (b.corner) {
            if (a.kx == b.kx && a.ky == b.ky) return 0;
            // One |d|^2 divides both: sign(dot_a - dot_b - sqrt(disc_a) + sqrt(disc_b)).
            return sign_of_form([&](auto z) {
                using T = decltype(z);
                using R = Root<T>;
                const T qb = disc<T>(b);
                return Root<R>{R{dot<T>(a) - dot<T>(b), T(1.0), qb}, R{T(-1.0), T(0.0), qb}, R{disc<T>(a), T(0.0), qb}};
            });
        }
        // (dot - sqrt(disc)) / dd - n / m = ((dot m - n dd) - m sqrt(disc)) / (dd m), dd > 0.
        const TVal& v = b.ratio;
        return v.den_sign() * sign_of_form([&](auto z) {
                   using T = decltype(z);
                   const T m = v.den<T>();
                   return Root<T>{dot<T>(a) * m - v.num<T>() * dd<T>(), -m, disc<T>(a)};
               });
    }

    // The entry's t, correctly rounded.
    double t(const Entry& e) const {
        if (!e.corner) {
            const TVal& v = e.ratio;
            if (v.is_const) return v.c;
            return round_quotient(
                       [&](auto z) {
                           using T = decltype(z);
                           return Quotient<T, T>{v.num<T>(), v.den<T>()};
                       },
                       e.approx)
                .value_or(e.approx);
        }
        return round_quotient(
                   [&](auto z) {
                       using T = decltype(z);
                       return Quotient<Root<T>, T>{Root<T>{dot<T>(e), T(-1.0), disc<T>(e)}, dd<T>()};
                   },
                   e.approx)
            .value_or(e.approx);
    }

    // from + t (to - from) for the entry's exact t, both coordinates correctly rounded from
    // one evaluation of their shared terms; near() gives a point near it (only called when
    // the DoubleWord value does not settle a coordinate at once).
    template <class Near>
    Vec2 stop(const Entry& e, Near&& near) const {
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
};

// The first time a disk of radius r moving from `from` to `to` comes within < r of the closed
// cell: the earliest entry into the cell grown by r (two boxes and four corner disks).
std::optional<Entry> circle_entry(const Sweep& sw, std::int64_t ix, std::int64_t iy) {
    const Lattice& L = sw.L;
    const Vec2 from = sw.from;
    const Vec2 to = sw.to;
    const double r = sw.r;
    std::optional<Entry> best;
    auto take = [&](const Entry& e) {
        if (!best || sw.compare(e, *best) < 0) best = e;
    };
    const Shift sr{r};
    if (auto t = box_entry(axis_times(L.x, ix, sr, from.x, to.x, false), axis_times(L.y, iy, {}, from.y, to.y, false)))
        take(ratio_entry(*t));
    if (auto t = box_entry(axis_times(L.x, ix, {}, from.x, to.x, false), axis_times(L.y, iy, sr, from.y, to.y, false)))
        take(ratio_entry(*t));
    for (std::int64_t kx : {ix, ix + 1}) {
        for (std::int64_t ky : {iy, iy + 1}) {
            const Corner corner{L, static_cast<double>(kx), static_cast<double>(ky)};
            if (!path_near_corner(corner, from, to, r)) continue;
            const bool inside = sign_of([&](auto z) {
                                    using T = decltype(z);
                                    const T vx = corner.x<T>() - T(from.x);
                                    const T vy = corner.y<T>() - T(from.y);
                                    return vx * vx + vy * vy - T(r) * T(r);
                                }) < 0;
            if (inside) {
                take(ratio_entry(constant(0.0)));
                continue;
            }
            take(sw.corner_entry(corner.kx, corner.ky));
        }
    }
    return best;
}

struct BodyShape {
    bool point = false;
    bool circle = false;
    Shift hx;  // half extents (circle: the radius)
    Shift hy;
};

BodyShape body_of(const Body& b) {
    BodyShape s;
    if (b.kind == Body::Kind::Circle && b.radius > 0) {
        s.circle = true;
        s.hx = s.hy = Shift{b.radius};
    } else if (b.kind == Body::Kind::Rect && (b.size.x > 0 || b.size.y > 0)) {
        s.hx = Shift{b.size.x, true};
        s.hy = Shift{b.size.y, true};
    } else {
        s.point = true;
    }
    return s;
}

// The first solid cell in row-then-column order among lattice rows [y0, y1], where
// `columns(iy)` gives the (non-empty) range of columns the body meets in row iy. Rows and
// columns beyond the grid are all solid or all free, so only the first of each run matters.
template <class Columns>
std::optional<Cell> first_solid(const Lattice& L, std::int64_t y0, std::int64_t y1, Columns&& columns) {
    const bool out = L.g.outside_solid;
    auto in_row = [&](std::int64_t iy) -> std::optional<Cell> {
        const auto [a, b] = columns(iy);
        if (iy < 0 || iy >= L.y.n) {
            if (out) return L.cell(a, iy);
            return std::nullopt;
        }
        if (out && a < 0) return L.cell(a, iy);
        for (std::int64_t ix = std::max<std::int64_t>(a, 0); ix <= std::min(b, L.x.n - 1); ++ix)
            if (L.solid(ix, iy)) return L.cell(ix, iy);
        if (out && b >= L.x.n) return L.cell(std::max(a, L.x.n), iy);
        return std::nullopt;
    };
    const std::int64_t g0 = std::max<std::int64_t>(y0, 0);
    const std::int64_t g1 = std::min(y1, L.y.n - 1);
    std::optional<Cell> c;
    if (!L.g.y_up) {  // written rows ascend with iy
        if (y0 < 0 && (c = in_row(y0))) return c;
        for (std::int64_t iy = g0; iy <= g1; ++iy)
            if ((c = in_row(iy))) return c;
        if (y1 >= L.y.n && (c = in_row(std::max(y0, L.y.n)))) return c;
    } else {  // written rows descend with iy
        if (y1 >= L.y.n && (c = in_row(y1))) return c;
        for (std::int64_t iy = g1; iy >= g0; --iy)
            if ((c = in_row(iy))) return c;
        if (y0 < 0 && (c = in_row(std::min<std::int64_t>(y1, -1)))) return c;
    }
    return std::nullopt;
}

// The first (row, then column) solid cell the body overlaps at position p.
std::optional<Cell> first_overlap(const Lattice& L, const BodyShape& b, Vec2 p) {
    if (b.point) {
        const std::int64_t ix = floor_index(L.x, p.x);
        const std::int64_t iy = floor_index(L.y, p.y);
        if (L.solid(ix, iy)) return L.cell(ix, iy);
        return std::nullopt;
    }
    // (Not structured bindings: C++17 lambdas cannot capture those.)
    const std::pair<std::int64_t, std::int64_t> xr = open_cells(L.x, p.x, b.hx.neg(), p.x, b.hx);
    const std::pair<std::int64_t, std::int64_t> yr = open_cells(L.y, p.y, b.hy.neg(), p.y, b.hy);
    const std::int64_t x0 = xr.first, x1 = xr.second, y0 = yr.first, y1 = yr.second;
    std::optional<Cell> best;
    if (x0 <= x1 && y0 <= y1) {
        if (!b.circle) {
            best = first_solid(L, y0, y1, [&](std::int64_t) { return std::make_pair(x0, x1); });
        } else {
            // The columns a disk meets in a row are contiguous and include the centre's.
            const Circle disk{p, b.hx.v};
            const std::int64_t mid = std::clamp(floor_index(L.x, p.x), x0, x1);
            best = first_solid(L, y0, y1, [&](std::int64_t iy) {
                const std::int64_t a = first_true(x0, mid, static_cast<double>(x0),
                                                  [&](std::int64_t ix) { return disk_meets_cell(disk, L, ix, iy); });
                const std::int64_t z = first_true(mid, x1, static_cast<double>(x1),
                                                  [&](std::int64_t ix) { return !disk_meets_cell(disk, L, ix, iy); });
                // Empty only when the centre's column is clamped at +-2^52: the cells met lie
                // beyond it, far outside the grid, and the clamped one stands for them.
                return a <= z - 1 ? std::make_pair(a, z - 1) : std::make_pair(mid, mid);
            });
        }
    }
    // A rect body of zero width or height lying on a grid line beyond the border meets no
    // open cell, yet reaches the solid outside: it is blocked in the outside cell that holds,
    // by the floor rule, an end of it that lies beyond the border (the first such cell in
    // row-then-column order when both do).
    if (!best && L.g.outside_solid && !b.circle) {
        for (const int sign : {-1, 1}) {
            const Shift sx = sign < 0 ? b.hx.neg() : b.hx;
            const Shift sy = sign < 0 ? b.hy.neg() : b.hy;
            if (!beyond(L.x, p.x, sx) && !beyond(L.y, p.y, sy)) continue;
            const Cell c = L.cell(floor_index(L.x, p.x, sx), floor_index(L.y, p.y, sy));
            if (!best || cell_order(c, *best)) best = c;
        }
    }
    return best;
}

// When a rect body of zero width or height, sliding along a grid line, first passes the
// grid's border (its closed extent strictly beyond it just after), and the outside cell it
// passes into (the other axis by the floor rule). Only a slide along one axis needs this:
// a body whose other coordinate changes enters an open outside cell at that same time.
std::optional<std::pair<TVal, Cell>> leaving_time(const Lattice& L, const BodyShape& b, Vec2 from, Vec2 to) {
    std::optional<std::pair<TVal, Cell>> best;
    auto side = [&](const Axis& ax, double f, double g, Shift h, bool x_axis) {
        if (f == g || (x_axis ? from.y != to.y : from.x != to.x)) return;
        const bool up = g > f;
        const TVal t = edge_time(ax, up ? ax.n : 0, up ? h.neg() : h, f, g);
        if (compare(t, constant(0.0)) < 0 || compare(t, constant(1.0)) >= 0) return;
        if (best && compare(t, best->first) >= 0) return;
        const std::int64_t out = up ? ax.n : -1;
        const std::int64_t along = x_axis ? floor_index(L.y, from.y, b.hy.neg()) : floor_index(L.x, from.x, b.hx.neg());
        best = std::make_pair(t, x_axis ? L.cell(out, along) : L.cell(along, out));
    };
    side(L.x, from.x, to.x, b.hx, true);
    side(L.y, from.y, to.y, b.hy, false);
    return best;
}

MoveResult blocked(double t, Vec2 stop, Cell cell) {
    MoveResult r;
    r.allowed = false;
    r.t = t;
    r.stop = stop;
    r.cell = cell;
    return r;
}

// from + t (to - from) on one axis in doubles, as a start for rounding the exact value; when
// to - from overflows, (1 - t) from + t to.
double lerp(double f, double g, double t) {
    const double d = g - f;
    if (std::isfinite(d)) return f + t * d;
    const double v = (1 - t) * f + t * g;
    const double big = std::numeric_limits<double>::max();
    return std::clamp(v, -big, big);
}

// What run_move finds: the first entry and its cell (the entry the constant 0 or 1 when the
// body overlaps at the start or, for check: destination, at the end).
struct Found {
    Entry entry;
    Cell cell;
};

std::optional<Found> find_first(const Move& m, const Grid& grid, const Lattice& L, const BodyShape& b) {
    if (!m.check_path) {
        if (const auto c = first_overlap(L, b, m.to)) return Found{ratio_entry(constant(1.0)), *c};
        return std::nullopt;
    }
    if (const auto c = first_overlap(L, b, m.from)) return Found{ratio_entry(constant(0.0)), *c};
    if (m.from == m.to) return std::nullopt;

    // Candidate cells, row by row: those whose closed cell grown by the body the path of the
    // centre meets, within the grid and the ring of outside cells around it.
    const Piece path{PieceKind::Segment, m.from, m.to};
    const std::int64_t lo = L.lo_lim();
    const std::int64_t y0 = std::max(lo, floor_index(L.y, std::min(m.from.y, m.to.y), b.hy.neg()));
    const std::int64_t y1 = std::min(L.hi_lim(L.y), floor_index(L.y, std::max(m.from.y, m.to.y), b.hy));

    const Sweep sw{L, m.from, m.to, b.hx.v};
    std::optional<Entry> best;
    Cell best_cell;
    auto consider = [&](const Entry& e, const Cell& cell) {
        const int c = best ? sw.compare(e, *best) : -1;
        if (c < 0 || (c == 0 && cell_order(cell, best_cell))) {
            best = e;
            best_cell = cell;
        }
    };
    for (std::int64_t iy = y0; iy <= y1; ++iy) {
        const auto [c0, c1] = piece_columns(path, L, iy, b.hx, b.hy, lo, L.hi_lim(L.x));
        for (std::int64_t ix = c0; ix <= c1; ++ix) {
            if (!L.solid(ix, iy)) continue;
            const Cell cell = L.cell(ix, iy);
            if (b.circle) {
                if (const auto e = circle_entry(sw, ix, iy)) consider(*e, cell);
                continue;
            }
            const auto t = box_entry(axis_times(L.x, ix, b.hx, m.from.x, m.to.x, b.point),
                                     axis_times(L.y, iy, b.hy, m.from.y, m.to.y, b.point));
            if (t) consider(ratio_entry(*t), cell);
        }
    }
    // A rect body of zero width or height can slide along a grid line out of the grid
    // without entering an open outside cell; it reaches the solid outside when its extent
    // first passes the border.
    if (!b.point && !b.circle && grid.outside_solid && (b.hx.zero() || b.hy.zero())) {
        const auto exit = leaving_time(L, b, m.from, m.to);
        if (exit && (!best || compare(exit->first, best->ratio) < 0)) {
            best = ratio_entry(exit->first);
            best_cell = exit->second;
        }
    }
    if (!best) return std::nullopt;
    return Found{*best, best_cell};
}

// The entry's exact time as a SweepTime (sweep.hpp): a ratio (o + k w + s - f) / (g - f) is
// the linear constraint 2 (x - (o + k w)) - 2 s = 0 on a path from f to g; a corner's time
// the entry into the disk of radius r around it.
SweepTime sweep_time_of(const Entry& e, const Lattice& L, const Move& m, double r) {
    SweepForm f;
    if (!e.corner) {
        const TVal& v = e.ratio;
        if (v.is_const) return SweepTime::constant(v.c);
        f.kind = SweepForm::Kind::Linear;
        f.from = Vec2{v.f, 0.0};
        f.to = Vec2{v.g, 0.0};
        f.ax = v.o;
        f.akx = v.k;
        f.awx = v.w;
        f.w = v.s.v;
        f.cW = v.s.half ? -1 : -2;
        f.dsign = static_cast<std::int8_t>(v.den_sign());
        return SweepTime::of(f);
    }
    f.kind = SweepForm::Kind::Disk;
    f.from = m.from;
    f.to = m.to;
    f.ax = L.x.o;
    f.akx = e.kx;
    f.awx = L.x.w;
    f.ay = L.y.o;
    f.aky = e.ky;
    f.awy = L.y.w;
    f.r1 = r;
    f.root = -1;
    return SweepTime::of(f);
}

}  // namespace

std::optional<std::pair<SweepTime, Cell>> first_contact(const Move& m, const Grid& grid) {
    const Lattice L(grid);
    const BodyShape b = body_of(m.body);
    const std::optional<Found> found = find_first(m, grid, L, b);
    if (!found) return std::nullopt;
    return std::make_pair(sweep_time_of(found->entry, L, m, b.hx.v), found->cell);
}

MoveResult run_move(const Move& m, const Grid& grid) {
    const Lattice L(grid);
    const BodyShape b = body_of(m.body);
    std::optional<Found> found = find_first(m, grid, L, b);
    if (!found) return MoveResult{};
    std::optional<Entry> best = found->entry;
    const Cell best_cell = found->cell;
    const Sweep sw{L, m.from, m.to, b.hx.v};
    if (!best->corner) {
        best->approx = best->ratio.value();
    } else {
        const double mid = 0.5 * best->bounds.lo + 0.5 * best->bounds.hi;
        best->approx = std::isfinite(mid) ? mid : corner_time(Corner{L, best->kx, best->ky}, m.from, m.to, b.hx.v);
    }
    // t and each coordinate of the stop, from the exact t (SPEC §2.4), each correctly rounded.
    const double t = sw.t(*best);
    auto near = [&] { return Vec2{lerp(m.from.x, m.to.x, t), lerp(m.from.y, m.to.y, t)}; };
    return blocked(t, sw.stop(*best, near), best_cell);
}

}  // namespace collide::detail
