// Capsule outline points, continued (see capsule_points.cpp): where a straight piece (a
// segment, ray or line) meets a capsule's outline. A piece that enters the capsule crosses
// the outline where its line enters and leaves; which crossings lie on the piece, and on
// which side or cap, is decided exactly, and each coordinate is the exact value correctly
// rounded (SPEC §2.3), found from the line's span in doubles when a search needs a start.
#include "geometry/capsule_exact.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace collide::detail {

namespace {

// ---- a straight piece against the outline ------------------------------------------------

// A piece's direction times k1 k2, powers of two that bring its largest component to
// [0.5, 1): exact, and far from underflow (a subnormal direction) and overflow.
struct ScaledDir {
    Vec2 v;
    double k1 = 1.0;
    double k2 = 1.0;
    explicit ScaledDir(const Piece& s) : v{dir_x<double>(s), dir_y<double>(s)} {
        if (!std::isfinite(v.x) || !std::isfinite(v.y)) {  // q - p beyond the double range
            v = Vec2{0.5 * s.q.x - 0.5 * s.p.x, 0.5 * s.q.y - 0.5 * s.p.y};
            k1 = 0.5;
        }
        int e = 0;
        std::frexp(std::max(std::fabs(v.x), std::fabs(v.y)), &e);
        k1 *= std::ldexp(1.0, -e / 2);
        k2 = std::ldexp(1.0, -e - (-e / 2));
        v = Vec2{std::ldexp(v.x, -e), std::ldexp(v.y, -e)};
    }
};

void push_finite(std::vector<Vec2>& pts, Vec2 x) {
    if (std::isfinite(x.x) && std::isfinite(x.y)) pts.push_back(x);
}

// The foot of the perpendicular from e on the piece's line: e moved by its offset from the
// line, cross(v, e - p) / |v|^2 along perp(v) (not p + t v, which loses e's digits when p
// lies far away), the cross product exactly rounded when p lies beyond 1e150 from e.
Vec2 foot_on(const Piece& s, const ScaledDir& sd, Vec2 e) {
    const Vec2 ep = e - s.p;
    const double cr = magnitude(ep) < 1e150 ? cross(sd.v, ep) : value_of([&](auto z) {
        using T = decltype(z);
        return dir_x<T>(s) * T(sd.k1) * T(sd.k2) * (T(e.y) - T(s.p.y)) - dir_y<T>(s) * T(sd.k1) * T(sd.k2) * (T(e.x) - T(s.p.x));
    });
    const double k = cr / dot(sd.v, sd.v);
    return Vec2{e.x + k * sd.v.y, e.y - k * sd.v.x};
}

// The parameters t where the piece's line, as F + t W, crosses the lines of the capsule's
// left and right sides (W the piece's scaled direction, exact, and F the exact foot on its
// line of the core end e; o is F rounded). Not from o's offset in doubles: a line at a small
// angle to the sides crosses them where a one-ulp shift of either line moves the crossing by
// that ulp over the angle (with a subnormal angle, from one end of a side to the other). With
// D the core's direction, F - e = H perp(W) / |W|^2, and the side s lies at offset s r:
//     H G / |W|^2 + t C = s r |D|,   H = cross(W, p - e), G = D . W, C = cross(D, W),
// all polynomials, rounded once from their exact values. Where F lies near the side, s r |D|
// |W|^2 - H G cancels; it is then (r^2 |D|^2 |W|^4 - H^2 G^2) / (s r |D| |W|^2 + H G), whose
// numerator is a polynomial too. In Scaled (C may be subnormal, a core near DBL_MAX); a
// crossing beyond the double range is +-inf. The piece must not be parallel to the core.
std::array<double, 2> side_params(const Piece& s, const Frame& f, const ScaledDir& sd, Vec2 e) {
    const Piece& c = f.core;
    auto wx = [&](auto z) { return dir_x<decltype(z)>(s) * decltype(z)(sd.k1) * decltype(z)(sd.k2); };
    auto wy = [&](auto z) { return dir_y<decltype(z)>(s) * decltype(z)(sd.k1) * decltype(z)(sd.k2); };
    auto w2 = [&](auto z) { return wx(z) * wx(z) + wy(z) * wy(z); };
    auto d2 = [&](auto z) { return dir_x<decltype(z)>(c) * dir_x<decltype(z)>(c) + dir_y<decltype(z)>(c) * dir_y<decltype(z)>(c); };
    auto hg = [&](auto z) {
        using T = decltype(z);
        const T h = wx(z) * (T(s.p.y) - T(e.y)) - wy(z) * (T(s.p.x) - T(e.x));
        return h * (dir_x<T>(c) * wx(z) + dir_y<T>(c) * wy(z));
    };
    const Scaled ww = scaled_of(w2);
    const Scaled rdw = Scaled::of(f.r) * sqrt(scaled_of(d2)) * ww;  // r |D| |W|^2
    const Scaled y = scaled_of(hg);
    const Scaled cw = scaled_of([&](auto z) { return dir_x<decltype(z)>(c) * wy(z) - dir_y<decltype(z)>(c) * wx(z); }) * ww;
    auto at = [&](int side) {
        const Scaled srdw = side > 0 ? rdw : -rdw;
        const Scaled num = srdw.m * y.m <= 0 ? srdw - y : scaled_of([&](auto z) {
            using T = decltype(z);
            const T k = w2(z);
            const T v = hg(z);
            return T(f.r) * T(f.r) * d2(z) * k * k - v * v;
        }) / (srdw + y);
        const Scaled t = num / cw;
        const std::optional<double> v = t.to_double();
        return v ? *v : std::copysign(std::numeric_limits<double>::infinity(), t.m);
    };
    return {at(1), at(-1)};
}

// Where the piece's line, as x(t) = o + t v (v its scaled direction, o the foot of a core
// end e, near the capsule), enters and leaves the capsule: the capsule is the union of the
// two end disks and the core's rectangle, so the line's part in it runs from the least
// entry to the greatest exit. In doubles, but for the crossings of the sides (side_params):
// the start of span_point's search, when one is needed.
struct LineSpan {
    Vec2 o;
    double lo;
    double hi;
};
LineSpan line_span(const Piece& s, const Frame& f, const ScaledDir& sd) {
    const Vec2 v = sd.v;
    const double vv = dot(v, v);
    // The foot of the core's end nearer the piece's first point (a core may be huge).
    const Vec2 near_end = magnitude(f.b - s.p) < magnitude(f.a - s.p) ? f.b : f.a;
    const Vec2 o = foot_on(s, sd, near_end);
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    auto disk = [&](Vec2 e, bool force) {
        const double t0 = -dot(o - e, v) / vv;
        // r^2 |v|^2 - cross(v, p - e)^2 exactly rounded: near tangency a rounded cross
        // product would move the points by sqrt(r ulp).
        const double q = value_of([&](auto z) {
            using T = decltype(z);
            const T dx = dir_x<T>(s) * T(sd.k1) * T(sd.k2);
            const T dy = dir_y<T>(s) * T(sd.k1) * T(sd.k2);
            const T cr = dx * (T(s.p.y) - T(e.y)) - dy * (T(s.p.x) - T(e.x));
            return T(f.r) * T(f.r) * (dx * dx + dy * dy) - cr * cr;
        });
        if (q < 0 && !force) return;
        const double h = std::sqrt(std::max(0.0, q)) / vv;
        lo = std::min(lo, t0 - h);
        hi = std::max(hi, t0 + h);
    };
    disk(f.a, false);
    disk(f.b, false);
    // The rectangle: 0 <= (x - a).u <= len and |(x - a).n| <= r, clipped slab by slab.
    double t_lo = -std::numeric_limits<double>::infinity();
    double t_hi = -t_lo;
    auto clip = [&](double t1, double t2) {
        if (t1 > t2) std::swap(t1, t2);
        t_lo = std::max(t_lo, t1);
        t_hi = std::min(t_hi, t2);
    };
    auto slab = [&](double at, double rate, double from, double to) {
        if (rate == 0.0) {
            if (at < from || at > to) t_hi = -std::numeric_limits<double>::infinity();
            return;
        }
        clip((from - at) / rate, (to - at) / rate);
    };
    // Along the core, from a (>= 0) and from b (<= 0), each measured from its own end.
    const double rate = dot(v, f.u);
    slab(f.along_from(o, f.a), rate, 0.0, std::numeric_limits<double>::infinity());
    slab(f.along_from(o, f.b), rate, -std::numeric_limits<double>::infinity(), 0.0);
    // Between the sides: in doubles at an angle above 1e-3, where the rounding of o and of
    // the offset moves the crossings by less than 1e3 ulps of the coordinates; else as
    // side_params (a line parallel to the sides lies between them or misses the capsule).
    const double rate_n = dot(v, f.n);
    if (std::fabs(rate_n) > 1e-3 * std::sqrt(vv)) {
        slab(f.offset(o), rate_n, -f.r, f.r);
    } else if (cross_dirs(s, f.core) == 0) {
        slab(f.offset(o), 0.0, -f.r, f.r);
    } else {
        const std::array<double, 2> sides = side_params(s, f, sd, near_end);
        clip(sides[0], sides[1]);
    }
    if (t_lo <= t_hi) {
        lo = std::min(lo, t_lo);
        hi = std::max(hi, t_hi);
    }
    if (lo > hi) {  // the exact test says the line enters; rounding said it grazes
        disk(f.a, true);
        disk(f.b, true);
    }
    return LineSpan{o, lo, hi};
}

// The foot of the perpendicular from e on the piece's line (direction W), exactly
// e + cross(W, e - p) (W.y, -W.x) / |W|^2, correctly rounded; a horizontal or vertical
// piece gives one coordinate: its own.
template <class Near>
Vec2 foot_point(const Piece& s, Vec2 e, const Near& near) {
    auto point = [&](auto z) {
        using T = decltype(z);
        const T wx = dir_x<T>(s);
        const T wy = dir_y<T>(s);
        const T w2 = wx * wx + wy * wy;
        const T cr = wx * (T(e.y) - T(s.p.y)) - wy * (T(e.x) - T(s.p.x));
        return PointQuotient<T, T>{T(e.x) * w2 + cr * wy, T(e.y) * w2 - cr * wx, w2};
    };
    return rounded_point(point, near, dir_x<double>(s) == 0.0 ? std::optional(s.p.x) : std::nullopt,
                         dir_y<double>(s) == 0.0 ? std::optional(s.p.y) : std::nullopt);
}

// Where the line of piece s (direction W, through p) enters (k = -1) or leaves (k = +1) the
// capsule, which it crosses. Unless it is parallel to the core (then it runs between the
// sides, from cap to cap), it enters the slab between the sides' lines across side
// side = k sign(cross(D, W)) (D the core's direction), at X, and is then outside the
// capsule before X: the point is X when X lies between the core's ends a and b, else on the
// cap beyond which X lies (the line's part in the slab beyond a lies in the half disk about
// a). With cross(D, W) = C and G = D . W, X = a + (D cross(p - a, W) + W side r |D|) / C,
// and the position of X along D from an end e (a or b) has the sign of
//     C (sqrt(D2) cross(p - e, W) + side r G),   D2 = |D|^2,
// decided exactly. A point on a cap about e is as in pieces.cpp's LineCircle:
//     e + (cross(W, p - e) perp(W) + k sqrt(r^2 |W|^2 - cross(W, p - e)^2) W) / |W|^2.
// Each coordinate is correctly rounded; a horizontal or vertical piece gives one: its own.
template <class Near>
Vec2 span_point(const Piece& s, const CapsuleRef& c, int k, const Near& near) {
    const Piece& core = c.core;
    const int cr = cross_dirs(core, s);
    bool on_cap = true;
    bool cap_b = false;
    int side = 0;
    if (cr == 0) {
        cap_b = (dot_dirs(s, core) > 0) != (k < 0);
    } else {
        side = cr * k;
        const double sr = side * c.r;
        auto along_from = [&](Vec2 e) {
            auto u = [&](auto z) {
                using T = decltype(z);
                return T(sr) * (dir_x<T>(core) * dir_x<T>(s) + dir_y<T>(core) * dir_y<T>(s));
            };
            auto v = [&](auto z) {
                using T = decltype(z);
                return (T(s.p.x) - T(e.x)) * dir_y<T>(s) - (T(s.p.y) - T(e.y)) * dir_x<T>(s);
            };
            auto d2 = [&](auto z) {
                using T = decltype(z);
                return dir_x<T>(core) * dir_x<T>(core) + dir_y<T>(core) * dir_y<T>(core);
            };
            return cr * sign_plus_sqrt(u, v, d2);
        };
        if (along_from(core.p) < 0) {
            cap_b = false;
        } else if (along_from(core.q) > 0) {
            cap_b = true;
        } else {
            on_cap = false;
        }
    }
    const Vec2 e = cap_b ? core.q : core.p;
    const double sr = side * c.r;
    auto point = [&](auto z) {
        using T = decltype(z);
        const T wx = dir_x<T>(s);
        const T wy = dir_y<T>(s);
        if (on_cap) {
            const T w2 = wx * wx + wy * wy;
            const T crs = wx * (T(s.p.y) - T(e.y)) - wy * (T(s.p.x) - T(e.x));  // cross(W, p - e)
            const T q = T(c.r) * T(c.r) * w2 - crs * crs;
            const T kk(static_cast<double>(k));
            return PointQuotient<Root<T>, T>{Root<T>{T(e.x) * w2 - crs * wy, kk * wx, q}, Root<T>{T(e.y) * w2 + crs * wx, kk * wy, q}, w2};
        }
        const T dx = dir_x<T>(core);
        const T dy = dir_y<T>(core);
        const T d2 = dx * dx + dy * dy;
        const T crs = (T(s.p.x) - T(core.p.x)) * wy - (T(s.p.y) - T(core.p.y)) * wx;  // cross(p - a, W)
        const T den = dx * wy - dy * wx;
        const T rs(sr);
        return PointQuotient<Root<T>, T>{Root<T>{T(core.p.x) * den + dx * crs, rs * wx, d2}, Root<T>{T(core.p.y) * den + dy * crs, rs * wy, d2}, den};
    };
    return rounded_point(point, near, dir_x<double>(s) == 0.0 ? std::optional(s.p.x) : std::nullopt,
                         dir_y<double>(s) == 0.0 ? std::optional(s.p.y) : std::nullopt);
}

// A piece that touches the capsule without entering it (d = r): along a side, or at one point.
void touch_points(const Piece& s, const CapsuleRef& c, const Frame& f, int sp, int sq, std::vector<Vec2>& pts) {
    const bool along_side =
        cross_dirs(s, c.core) == 0 && line_distance_vs_radius(s, Circle{c.core.p, c.r}) == 0;
    if (along_side) {
        const int sd = side(c.core, s.p);
        // The piece's ends ordered along the core's direction; a missing one is unbounded.
        const bool same = s.kind == PieceKind::Segment ? along(c.core, s.p, s.q) >= 0 : dot_dirs(s, c.core) > 0;
        const bool has_p = s.kind != PieceKind::Line;
        const bool has_q = s.kind == PieceKind::Segment;
        const bool has_lo = same ? has_p : has_q;
        const bool has_hi = same ? has_q : has_p;
        const Vec2 lo = same ? s.p : s.q;
        const Vec2 hi = same ? s.q : s.p;
        // The shared piece may be one point: the piece ends where the side begins, or begins
        // where it ends.
        if (has_hi && along(c.core, c.core.p, hi) == 0) return pts.push_back(hi);
        if (has_lo && along(c.core, c.core.q, lo) == 0) return pts.push_back(lo);
        push_finite(pts, has_lo && along(c.core, c.core.p, lo) >= 0 ? lo : side_end(c, f, false, sd));
        push_finite(pts, has_hi && along(c.core, c.core.q, hi) <= 0 ? hi : side_end(c, f, true, sd));
        return;
    }
    if (sp == 0) return pts.push_back(s.p);
    if (sq == 0) return pts.push_back(s.q);
    // The piece's interior touches a cap: at the foot from that cap's centre.
    const Vec2 e = point_piece_vs(s, c.core.p, c.r, 0.0) == 0 ? c.core.p : c.core.q;
    push_finite(pts, foot_point(s, e, [&] { return foot_on(s, ScaledDir(s), e); }));
}

}  // namespace


// The points where a piece meets the outline, given d, the sign of dist(piece, core) - r.
// A piece that enters the capsule crosses the outline where its line enters and leaves;
// which of the two lie on the piece follows exactly from where its ends lie.
void piece_points(const Piece& s, const CapsuleRef& c, const std::optional<Frame>& frame, int d, std::vector<Vec2>& pts) {
    if (d > 0) return;
    const Frame& f = *frame;
    const int sp = s.kind != PieceKind::Line ? point_vs_capsule(s.p, c) : 1;
    const int sq = s.kind == PieceKind::Segment ? point_vs_capsule(s.q, c) : 1;
    if (d == 0) return touch_points(s, c, f, sp, sq, pts);
    if (sp == 0) pts.push_back(s.p);
    if (sq == 0) pts.push_back(s.q);
    if (sp <= 0 && sq <= 0) return;
    const ScaledDir sd(s);
    std::optional<LineSpan> span;  // the points in doubles, computed when a search needs them
    auto near = [&](int k) {
        return [&, k] {
            if (!span) span = line_span(s, f, sd);
            return span->o + (k < 0 ? span->lo : span->hi) * sd.v;
        };
    };
    if (sp > 0) push_finite(pts, span_point(s, c, -1, near(-1)));
    if (sq > 0) push_finite(pts, span_point(s, c, 1, near(1)));
}

}  // namespace collide::detail
