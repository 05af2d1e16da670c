// Folder numeric/: exact arithmetic on input doubles, the ground every geometric answer
// stands on. Signs of polynomials decided exactly (filtered.hpp, then double_word.hpp, then
// exact.hpp), the predicates built from them (this header), values correctly rounded
// (rounding.hpp), doubles with a separate exponent (scaled.hpp), intervals and angles. It
// includes only collide/types.hpp; geometry/, queries/, grids/, scene/ and maps/ use it.
//
// Exact geometric predicates on double inputs (see exact.hpp for the evaluation scheme).
//
// Every function here returns a sign or a boolean that is exact for the doubles given.
// Query points are either input points (Vec2) or the midpoint of two input points (Mid):
// a midpoint is rarely a double, so predicates on it scale every other input by 2 instead
// of dividing, which keeps them polynomial and exact.
#pragma once

#include "collide/types.hpp"
#include "numeric/exact.hpp"

#include <cmath>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace collide::detail {

/// A straight piece: a segment from p to q, the line through p and q, or the ray from p
/// in direction q.
enum class PieceKind : std::uint8_t { Segment, Ray, Line };
struct Piece {
    PieceKind kind = PieceKind::Segment;
    Vec2 p;
    Vec2 q;
};

/// The midpoint (u + v) / 2 of two input points, kept exact.
struct Mid {
    Vec2 u;
    Vec2 v;
};

// Coordinates of a query point scaled by its scale factor (1 for Vec2, 2 for Mid), and of
// an input coordinate scaled to match.
template <class T> T qx(const Vec2& p) { return T(p.x); }
template <class T> T qy(const Vec2& p) { return T(p.y); }
template <class T> T qx(const Mid& m) { return T(m.u.x) + T(m.v.x); }
template <class T> T qy(const Mid& m) { return T(m.u.y) + T(m.v.y); }
template <class Q> constexpr int scale_of() { return std::is_same_v<Q, Mid> ? 2 : 1; }
template <class T, int S> T scaled(double d) {
    if constexpr (S == 1) return T(d);
    else return T(d) + T(d);
}

/// Direction of a piece as exact expressions.
template <class T> T dir_x(const Piece& s) { return s.kind == PieceKind::Ray ? T(s.q.x) : T(s.q.x) - T(s.p.x); }
template <class T> T dir_y(const Piece& s) { return s.kind == PieceKind::Ray ? T(s.q.y) : T(s.q.y) - T(s.p.y); }

/// Sign of the cross product dir(s) x (x - s.p): +1 when x is left of the piece's line.
template <class Q>
int side(const Piece& s, const Q& x) {
    constexpr int S = scale_of<Q>();
    // A piece's own defining points lie on its line, and x == s.q (the next edge's start
    // in a ring) is common and costly otherwise: dir x dir cancels only in Exact.
    if constexpr (S == 1)
        if (x == s.p || (s.kind != PieceKind::Ray && x == s.q)) return 0;
    return sign_of_low_degree([&](auto zero) {
        using T = decltype(zero);
        return dir_x<T>(s) * (qy<T>(x) - scaled<T, S>(s.p.y)) - dir_y<T>(s) * (qx<T>(x) - scaled<T, S>(s.p.x));
    });
}

/// Sign of dir(s) . (x - from): where x lies along the piece's direction relative to `from`.
template <class Q>
int along(const Piece& s, const Vec2& from, const Q& x) {
    constexpr int S = scale_of<Q>();
    return sign_of_low_degree([&](auto zero) {
        using T = decltype(zero);
        return dir_x<T>(s) * (qx<T>(x) - scaled<T, S>(from.x)) + dir_y<T>(s) * (qy<T>(x) - scaled<T, S>(from.y));
    });
}

/// Whether a point known to lie on the piece's line lies on the piece itself.
template <class Q>
bool within_extent(const Piece& s, const Q& x) {
    switch (s.kind) {
        case PieceKind::Line: return true;
        case PieceKind::Ray: return along(s, s.p, x) >= 0;
        case PieceKind::Segment: return along(s, s.p, x) >= 0 && along(s, s.q, x) <= 0;
    }
    return false;
}

/// Whether x lies on the closed piece.
template <class Q>
bool on_piece(const Piece& s, const Q& x) {
    return side(s, x) == 0 && within_extent(s, x);
}

/// Orientation of c relative to the directed line a -> b: +1 left (counter-clockwise).
int orient(Vec2 a, Vec2 b, Vec2 c);

/// Sign of |x - c|^2 - r^2: -1 inside the circle, 0 on it, +1 outside.
int power(const Circle& c, Vec2 x);

/// Sign of dist(c.center, line through the piece)^2 - r^2.
int line_distance_vs_radius(const Piece& s, const Circle& c);

/// Sign of dist(c.center, piece)^2 - r^2.
int piece_distance_vs_radius(const Piece& s, const Circle& c);

/// Sign of a - b - c (exact), e.g. whether a wall at distance a - b leaves room for c.
int sign_diff3(double a, double b, double c);

/// A closed ring of polygon vertices (no repeated closing vertex), not owned.
struct Ring {
    const Vec2* v = nullptr;
    std::size_t n = 0;
    const Vec2& operator[](std::size_t i) const { return v[i]; }
    /// Edge i runs from vertex i to vertex i + 1 (cyclically).
    Piece edge(std::size_t i) const { return Piece{PieceKind::Segment, v[i], v[i + 1 == n ? 0 : i + 1]}; }
};

/// Point location in a polygon: -1 outside, 0 on the boundary, +1 inside (exact).
int locate_in_polygon(Ring poly, const Vec2& x);
int locate_in_polygon(Ring poly, const Mid& x);

/// One edge's part in locate_in_polygon's crossing count (a horizontal ray from x towards
/// +x): 0 when x lies on the edge, 1 when the count includes the edge, -1 otherwise. Only an
/// edge whose box meets [x, +inf) x [y, y] can give 0 or 1 (edge_index.hpp relies on it).
int ray_crossing(const Piece& e, const Vec2& x);
int ray_crossing(const Piece& e, const Mid& x);

/// Sign of twice the signed area of a ring (+1 counter-clockwise), exact.
int ring_orientation(Ring ring);

/// A value computed to about 1e-15 relative accuracy: the filtered double when its error
/// bound is small enough, else the exact value rounded (found with DoubleWord when it can
/// vouch for the rounding, else with Exact).
template <class F>
double value_of(F&& f) {
    const Filtered r = f(Filtered{});
    if (std::isfinite(r.v) && std::isfinite(r.e) && r.e <= 1e-15 * std::fabs(r.v)) return r.v;
    double x = 0.0;
    if (f(DoubleWord{}).round_to_nearest(x)) return x;  // the same value as Exact's, cheaper
    return f(Exact{}).to_double();
}

/// Exact's value of f rounded to 53 bits. Inputs near 1e300 overflow Filtered and
/// DoubleWord: DoubleWord on the rescaled inputs gives the value as t * 2^e with t correctly
/// rounded, that is Exact's mantissa, exactly (Rescaled). Out of line and cold (see
/// sign_of_rescaled).
template <class F>
[[gnu::noinline, gnu::cold]] Scaled rescaled_or_exact(F& f) {
    if (rescalable(f)) {
        const Rescaled<DoubleWord> w = f(Rescaled<DoubleWord>{});
        double x = 0.0;
        if (w.t.round_to_nearest(x)) return Scaled::make(x, w.e);
    }
    return f(Exact{}).to_scaled();
}

/// The same value at any magnitude: value_of's double when it is accurate, else the exact
/// value rounded to 53 bits with its own exponent (see scaled.hpp).
template <class F>
Scaled scaled_of(F&& f) {
    const Filtered r = f(Filtered{});
    if (std::isfinite(r.v) && std::isfinite(r.e) && r.e <= 1e-15 * std::fabs(r.v)) return Scaled::of(r.v);
    double x = 0.0;
    if (f(DoubleWord{}).round_to_nearest(x)) return Scaled::of(x);  // a normal double or 0: as Exact's
    return rescaled_or_exact(f);
}

}  // namespace collide::detail
