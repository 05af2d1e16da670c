// The terms a distance is made of (SPEC §2.6), shared by shape pairs (distance.cpp) and
// shape–grid pairs (distance_grid.cpp).
//
// Every shape is a set of cores (points and straight pieces) grown by a radius (a circle's,
// a capsule's; 0 for the others). Two shapes that do not collide are apart by
// sqrt(Q) - R, R the sum of their radii and Q the least squared distance of their cores,
// which two disjoint straight pieces reach at an end of one of them (the squared distance is
// a convex quadratic on the parameter domain; an interior minimum would be a crossing). So Q
// is the least of the terms
//     |a - b|^2                        (PointPoint)
//     cross(u, a - p)^2 / |u|^2        (PointLine: a's foot falls inside the piece p + t u)
// each an exact quotient N / D of polynomials in the input doubles, and a shape inside a grid
// adds the linear gaps to its border (Gap). A term is compared with a bound d exactly (sqrt(N /
// D) - R against d is N - (R + d)^2 D against 0, R + d >= 0), and its value is written as
// (sqrt(N D) - R D) / D through round_quotient, the exact value correctly rounded.
#pragma once

#include "numeric/predicates.hpp"
#include "numeric/rounding.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace collide::detail {

/// An exact coordinate o + k w: an input double (k == 0) or a lattice edge of a grid.
struct Coord {
    double o = 0.0;
    double k = 0.0;
    double w = 0.0;
};
template <class T> T value(const Coord& c) { return c.k == 0.0 ? T(c.o) : T(c.o) + T(c.k) * T(c.w); }
/// An approximation of c (the lattice edge rounded).
inline double approx(const Coord& c) { return c.k == 0.0 ? c.o : c.o + c.k * c.w; }

/// A point whose coordinates are Coords.
struct CPoint {
    Coord x;
    Coord y;
};
inline CPoint cpoint(Vec2 p) { return CPoint{Coord{p.x}, Coord{p.y}}; }

/// One candidate for the distance of two cores (see the top of the file). For a Gap the value
/// is a.x - b.x (a shape's extreme coordinate against the grid's border).
struct Term {
    enum Kind : std::uint8_t { PointPoint, PointLine, Gap } kind = PointPoint;
    CPoint a;
    CPoint b;
    Piece s;  // PointLine: the line through s.p along s's direction
};

/// Q = n / d of a PointPoint or PointLine term, in T.
template <class T>
struct Squared {
    T n;
    T d;
};
template <class T>
Squared<T> squared(const Term& t) {
    if (t.kind == Term::PointLine) {
        const T ux = dir_x<T>(t.s);
        const T uy = dir_y<T>(t.s);
        const T c = ux * (value<T>(t.a.y) - T(t.s.p.y)) - uy * (value<T>(t.a.x) - T(t.s.p.x));
        return Squared<T>{c * c, ux * ux + uy * uy};
    }
    const T dx = value<T>(t.a.x) - value<T>(t.b.x);
    const T dy = value<T>(t.a.y) - value<T>(t.b.y);
    return Squared<T>{dx * dx + dy * dy, T(1.0)};
}

/// The sum of two radii; bound: a distance it is compared with (0 for collision tests).
struct Radii {
    double ra = 0.0;
    double rb = 0.0;
};

/// The exact sign of term - (R + bound), R + bound >= 0.
inline int compare_term(const Term& t, Radii r, double bound) {
    return sign_of([&](auto z) {
        using T = decltype(z);
        const T k = T(r.ra) + T(r.rb) + T(bound);
        if (t.kind == Term::Gap) return value<T>(t.a.x) - value<T>(t.b.x) - k;
        const Squared<T> q = squared<T>(t);
        return q.n - k * k * q.d;
    });
}

/// An interval [lo, hi] that holds the term's value sqrt(Q) - R (or the Gap), from Filtered
/// bounds widened for the roundings of the division, the square root and the subtraction
/// (relative 2^-40 and absolute 2^-1000 cover them with room to spare, underflow included).
struct Span {
    double lo = 0.0;
    double hi = std::numeric_limits<double>::infinity();
};
inline Span span_of(const Term& t, Radii r) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    constexpr double up = 1.0 + 0x1p-40;
    constexpr double down = 1.0 - 0x1p-40;
    constexpr double tiny = 0x1p-1000;
    const double rr = r.ra + r.rb;
    Span s;
    if (t.kind == Term::Gap) {
        const Filtered g = value<Filtered>(t.a.x) - value<Filtered>(t.b.x) - Filtered(r.ra) - Filtered(r.rb);
        if (!std::isfinite(g.v) || !std::isfinite(g.e)) return Span{-inf, inf};
        const double m = std::fabs(g.v) * 0x1p-40 + g.e * up + tiny;
        return Span{g.v - m, g.v + m};
    }
    const Squared<Filtered> q = squared<Filtered>(t);
    const double n_lo = q.n.v - q.n.e;
    const double n_hi = q.n.v + q.n.e;
    const double d_lo = q.d.v - q.d.e;
    const double d_hi = q.d.v + q.d.e;
    if (!std::isfinite(n_hi) || !std::isfinite(d_hi) || !(d_lo > 0.0)) return Span{-inf, inf};
    const double root_lo = n_lo > 0.0 ? std::sqrt(n_lo / d_hi) * down : 0.0;
    const double root_hi = std::sqrt(n_hi / d_lo) * up + tiny;
    s.lo = root_lo - rr * up - tiny;
    s.hi = root_hi - rr * down;
    if (!std::isfinite(s.hi)) s.hi = inf;
    return s;
}

/// The term's value correctly rounded (+inf beyond the double range); `guess` is any
/// approximation of it, the search's start.
inline double round_term(const Term& t, Radii r, double guess) {
    std::optional<double> v;
    if (t.kind == Term::Gap) {
        v = round_quotient(
            [&](auto z) {
                using T = decltype(z);
                return Quotient<T, T>{value<T>(t.a.x) - value<T>(t.b.x) - T(r.ra) - T(r.rb), T(1.0)};
            },
            guess);
    } else {
        v = round_quotient(
            [&](auto z) {
                using T = decltype(z);
                const Squared<T> q = squared<T>(t);
                const T rr = T(r.ra) + T(r.rb);
                return Quotient<Root<T>, T>{Root<T>{T{} - rr * q.d, T(1.0), q.n * q.d}, q.d};
            },
            guess);
    }
    return v ? *v : std::numeric_limits<double>::infinity();
}

/// The exact sign of dir(s) . (x - from).
inline int along_c(const Piece& s, const Vec2& from, const CPoint& x) {
    return sign_of([&](auto z) {
        using T = decltype(z);
        return dir_x<T>(s) * (value<T>(x.x) - T(from.x)) + dir_y<T>(s) * (value<T>(x.y) - T(from.y));
    });
}

/// The term for the squared distance of x to the closed piece s (a non-degenerate segment,
/// a ray or a line): to an end when x's foot falls beyond it, else to the line.
inline Term point_piece(const CPoint& x, const Piece& s) {
    if (s.kind != PieceKind::Line && along_c(s, s.p, x) <= 0) return Term{Term::PointPoint, x, cpoint(s.p), {}};
    if (s.kind == PieceKind::Segment && along_c(s, s.q, x) >= 0) return Term{Term::PointPoint, x, cpoint(s.q), {}};
    return Term{Term::PointLine, x, {}, s};
}

/// Collects terms and either decides them against a bound (compare mode: stops at the first
/// term below it) or keeps those that may be the least (distance mode: an interval filter,
/// then each survivor correctly rounded; rounding is monotone, so the least rounded value is
/// the least value rounded).
class TermSet {
public:
    /// Compare mode when bound is given, distance mode otherwise.
    TermSet(Radii r, std::optional<double> bound) : r_(r), bound_(bound) {}

    /// Whether the answer is known already (compare mode: a term below the bound).
    bool done() const { return below_; }
    /// In distance mode, an upper bound of the least value seen (+inf before any); in compare
    /// mode the bound. Pruning by it loses nothing.
    double reach() const { return bound_ ? *bound_ : best_hi_; }

    void add(const Term& t) {
        if (below_) return;
        if (bound_) {
            const int c = compare_term(t, r_, *bound_);
            if (c < 0) below_ = true;
            if (c == 0) equal_ = true;
            return;
        }
        const Span s = span_of(t, r_);
        if (s.lo > best_hi_) return;
        if (s.hi < best_hi_) best_hi_ = s.hi;
        kept_.push_back(Kept{t, s});
    }

    /// Compare mode: -1, 0 or +1 (+1 when no term was added).
    int sign() const { return below_ ? -1 : (equal_ ? 0 : 1); }

    /// Distance mode: the least value correctly rounded (+inf when no term was added).
    double least() const {
        double best = std::numeric_limits<double>::infinity();
        for (const Kept& k : kept_) {
            if (k.span.lo > best_hi_ || k.span.lo > best) continue;
            const double guess = std::isfinite(k.span.hi) ? 0.5 * (std::fmax(k.span.lo, 0.0) + k.span.hi) : 0.0;
            best = std::fmin(best, round_term(k.term, r_, guess));
        }
        return best;
    }

private:
    struct Kept {
        Term term;
        Span span;
    };
    Radii r_;
    std::optional<double> bound_;
    bool below_ = false;
    bool equal_ = false;
    double best_hi_ = std::numeric_limits<double>::infinity();
    std::vector<Kept> kept_;
};

}  // namespace collide::detail
