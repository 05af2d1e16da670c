// The exact entry times of grid_sweep.hpp: a body's path against one cell's sides and, for a
// circle body, its corners, and the enclosing intervals through which entries are compared.
#include "grids/grid_sweep.hpp"

#include "numeric/interval.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace collide::detail::grid_sweep {

namespace {

// (For Sweep::compare, whose own name hides this one; detail::compare is a SweepTime's.)
int compare_ratios(const TVal& a, const TVal& b) { return compare(a, b); }

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

}  // namespace

int compare(const TVal& a, const TVal& b) {
    if (a.is_const && b.is_const) return a.c < b.c ? -1 : (a.c > b.c ? 1 : 0);
    return a.den_sign() * b.den_sign() * sign_of([&](auto z) {
               using T = decltype(z);
               return a.num<T>() * b.den<T>() - b.num<T>() * a.den<T>();
           });
}

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

Entry ratio_entry(const TVal& v) {
    Entry e;
    e.ratio = v;
    if (v.is_const) e.bounds = {v.c, v.c};
    else e.bounds = divide(enclose(v.num<Filtered>()), enclose(v.den<Filtered>()));
    return e;
}

Entry Sweep::corner_entry(double kx, double ky) const {
    Entry e;
    e.corner = true;
    e.kx = kx;
    e.ky = ky;
    const Interval dt = enclose(dot<Filtered>(e));
    const Interval q = enclose(disc<Filtered>(e));
    if (!(q.hi > 0.0)) return e;
    const Interval root = widen(std::sqrt(std::max(0.0, q.lo)), std::sqrt(q.hi));
    const Interval num = widen(dt.lo - root.hi, dt.hi - root.lo);
    e.bounds = divide(num, enclose(dd<Filtered>()));
    return e;
}

int Sweep::compare(const Entry& a, const Entry& b) const {
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

double Sweep::t(const Entry& e) const {
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

}  // namespace collide::detail::grid_sweep
