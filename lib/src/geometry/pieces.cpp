#include "geometry/pieces.hpp"

#include "numeric/rounding.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <type_traits>

namespace collide::detail {

namespace {

// Sign of cross(dir(a), dir(b)): 0 when the pieces are parallel.
int cross_dirs(const Piece& a, const Piece& b) {
    return sign_of_low_degree([&](auto zero) {
        using T = decltype(zero);
        return dir_x<T>(a) * dir_y<T>(b) - dir_y<T>(a) * dir_x<T>(b);
    });
}

// Sign of dot(dir(a), dir(b)).
int dot_dirs(const Piece& a, const Piece& b) {
    return sign_of_low_degree([&](auto zero) {
        using T = decltype(zero);
        return dir_x<T>(a) * dir_x<T>(b) + dir_y<T>(a) * dir_y<T>(b);
    });
}

// Whether piece s holds the point where its line crosses the (non-parallel) line of o,
// given sp and sq, the sides of o's line its ends lie on (read only for the ends it has).
// cross_os is the sign of cross(dir(o), dir(s)).
bool holds_crossing(const Piece& s, int sp, int sq, int cross_os) {
    switch (s.kind) {
        case PieceKind::Line: return true;
        // side(o, p + t d) = side(o, p) + t cross(dir o, d): a root t >= 0 needs opposite signs.
        case PieceKind::Ray: return sp == 0 || sp != cross_os;
        case PieceKind::Segment: return sp == 0 || sq == 0 || sp != sq;
    }
    return false;
}

// The crossing of two non-parallel lines, from its exact rational value:
// X = a.p + t dir(a) with t = cross(b.p - a.p, dir b) / cross(dir a, dir b), that is
// X = (a.p den + num dir(a)) / den, each coordinate correctly rounded (rounding.hpp). A
// horizontal or vertical piece gives one coordinate exactly: its own. Where the rounding
// needs a search, it starts from the numerators and den (degree 3 and 2 in the inputs)
// rounded from their exact values, then divided: in plain doubles while they are normal
// doubles; otherwise (a subnormal direction component makes den subnormal, huge
// coordinates make it overflow, nearly parallel lines cross beyond every coordinate) with
// Scaled. Nothing when the crossing lies beyond the double range.
std::optional<Vec2> crossing_point(const Piece& a, const Piece& b) {
    auto num = [&](auto zero) {
        using T = decltype(zero);
        return (T(b.p.x) - T(a.p.x)) * dir_y<T>(b) - (T(b.p.y) - T(a.p.y)) * dir_x<T>(b);
    };
    auto den = [&](auto zero) {
        using T = decltype(zero);
        return dir_x<T>(a) * dir_y<T>(b) - dir_y<T>(a) * dir_x<T>(b);
    };
    auto x_num = [&](auto zero) { return decltype(zero)(a.p.x) * den(zero) + num(zero) * dir_x<decltype(zero)>(a); };
    auto y_num = [&](auto zero) { return decltype(zero)(a.p.y) * den(zero) + num(zero) * dir_y<decltype(zero)>(a); };
    const std::optional<double> x_axis = dir_x<double>(a) == 0.0 ? a.p.x : dir_x<double>(b) == 0.0 ? std::optional(b.p.x) : std::nullopt;
    const std::optional<double> y_axis = dir_y<double>(a) == 0.0 ? a.p.y : dir_y<double>(b) == 0.0 ? std::optional(b.p.y) : std::nullopt;
    if (x_axis && y_axis) return Vec2{*x_axis, *y_axis};
    auto near = [&]() -> std::optional<Vec2> {
        const Scaled d = scaled_of(den);  // not 0: the pieces are not parallel
        const Scaled x = scaled_of(x_num);
        const Scaled y = scaled_of(y_num);
        if (d.is_normal_double() && x.is_normal_double() && y.is_normal_double()) {
            const double dd = *d.to_double();
            const Vec2 p{*x.to_double() / dd, *y.to_double() / dd};
            if (std::isfinite(p.x) && std::isfinite(p.y)) return p;
        }
        return representable(x / d, y / d);
    };
    return round_point(
        [&](auto zero) {
            using T = decltype(zero);
            const T d = den(zero);
            const T n = num(zero);
            return PointQuotient<T, T>{T(a.p.x) * d + n * dir_x<T>(a), T(a.p.y) * d + n * dir_y<T>(a), d};
        },
        near, x_axis, y_axis);
}

// Shared part of two pieces on the same line, ordered along a's direction.
PieceHit collinear_overlap(const Piece& a, const Piece& b) {
    // Each extent is [lo, hi] along dir(a); a missing end is unbounded.
    bool a_has_lo = a.kind != PieceKind::Line;
    bool a_has_hi = a.kind == PieceKind::Segment;
    bool b_has_lo = false;
    bool b_has_hi = false;
    Vec2 b_lo;
    Vec2 b_hi;
    switch (b.kind) {
        case PieceKind::Segment:
            b_has_lo = b_has_hi = true;
            if (along(a, b.p, b.q) >= 0) {
                b_lo = b.p;
                b_hi = b.q;
            } else {
                b_lo = b.q;
                b_hi = b.p;
            }
            break;
        case PieceKind::Ray:
            if (dot_dirs(a, b) > 0) {
                b_has_lo = true;
                b_lo = b.p;
            } else {
                b_has_hi = true;
                b_hi = b.p;
            }
            break;
        case PieceKind::Line: break;
    }
    PieceHit h;
    h.has_lo = a_has_lo || b_has_lo;
    h.has_hi = a_has_hi || b_has_hi;
    if (a_has_lo && b_has_lo) h.lo = along(a, a.p, b_lo) >= 0 ? b_lo : a.p;
    else h.lo = a_has_lo ? a.p : b_lo;
    if (a_has_hi && b_has_hi) h.hi = along(a, a.q, b_hi) <= 0 ? b_hi : a.q;
    else h.hi = a_has_hi ? a.q : b_hi;
    if (h.has_lo && h.has_hi) {
        const int c = along(a, h.lo, h.hi);
        if (c < 0) return PieceHit{};
        if (c == 0) {
            PieceHit p;
            p.kind = PieceHit::Point;
            p.point = h.lo;
            return p;
        }
    }
    h.kind = PieceHit::Overlap;
    return h;
}

// Where the line of a piece meets a circle: for k = -1, 0, +1 (the first root along d, the
// foot of the perpendicular from c, the second root),
//     X = c + (cross(d, p - c) perp(d) + k sqrt(q) d) / |d|^2,  perp(d) = (-d.y, d.x),
// with q = r^2 |d|^2 - cross(d, p - c)^2, each coordinate correctly rounded; a horizontal
// or vertical piece gives one coordinate exactly: its own. Where the rounding needs a
// search, it starts from X in doubles: both terms are at most r long, so the error is
// relative to the circle's own magnitude, however far p lies (a segment from -1e308 into
// a circle of radius 1e9). In plain doubles while |d|^2, the cross product and q are
// normal doubles and nothing overflows; otherwise with Scaled (|d|^2 of a direction of
// 1e200 overflows, of 1e-200 underflows; a segment's q - p can overflow).
class LineCircle {
public:
    LineCircle(const Piece& s, const Circle& c) : s_(s), c_(c) {}

    // The point for root k, correctly rounded; nothing when it lies beyond the double range.
    // The roots share every term but the sign of the root: in DoubleWord (which rounds
    // them, nearly always alone) the terms are computed once for both.
    std::optional<Vec2> point(int k) const {
        const double dx = dir_x<double>(s_);
        const double dy = dir_y<double>(s_);
        if (const std::optional<Vec2> x = quick_point(k, dx == 0.0, dy == 0.0)) return x;
        return round_point(
            [&](auto zero) {
                using T = decltype(zero);
                if constexpr (std::is_same_v<T, DoubleWord>) {
                    if (!fast_) fast_ = terms(zero);
                    return fast_->root(k);
                } else {
                    return terms(zero).root(k);
                }
            },
            [&] { return approximate(k); }, dx == 0.0 ? std::optional(s_.p.x) : std::nullopt,
            dy == 0.0 ? std::optional(s_.p.y) : std::nullopt);
    }

private:
    // The point for root k, when plain doubles settle both coordinates: the centre plus
    // (k sqrt(q) d + cross(d, p - c) perp(d)) / |d|^2, that offset with a rigorous bound
    // (round_offset). A vertical (horizontal) piece's x (y) is its own.
    std::optional<Vec2> quick_point(int k, bool vertical, bool horizontal) const {
        using F = Filtered;
        const F ex = dir_x<F>(s_);
        const F ey = dir_y<F>(s_);
        const F dd = ex * ex + ey * ey;
        const F cr = ex * (F(s_.p.y) - F(c_.center.y)) - ey * (F(s_.p.x) - F(c_.center.x));
        F root;  // k sqrt(q)
        if (k != 0) {
            const std::optional<F> sq = sqrt_of(F(c_.radius) * F(c_.radius) * dd - cr * cr);
            if (!sq) return std::nullopt;
            root = k > 0 ? *sq : -*sq;
        }
        const std::optional<F> ox = vertical ? std::optional<F>(F(0.0)) : quotient(root * ex - cr * ey, dd);
        const std::optional<F> oy = horizontal ? std::optional<F>(F(0.0)) : quotient(root * ey + cr * ex, dd);
        if (!ox || !oy) return std::nullopt;
        const std::optional<double> x = vertical ? std::optional<double>(s_.p.x) : round_offset(c_.center.x, *ox);
        if (!x) return std::nullopt;
        const std::optional<double> y = horizontal ? std::optional<double>(s_.p.y) : round_offset(c_.center.y, *oy);
        if (!y) return std::nullopt;
        return Vec2{*x, *y};
    }

    // The point for root k in doubles, a few ulps off at most.
    std::optional<Vec2> approximate(int k) const {
        const Piece& s = s_;
        const Circle& c = c_;
        const Scaled dd = scaled_of([&](auto z) {
            using T = decltype(z);
            return dir_x<T>(s) * dir_x<T>(s) + dir_y<T>(s) * dir_y<T>(s);
        });
        auto cross_expr = [&](auto z) {
            using T = decltype(z);
            return dir_x<T>(s) * (T(s.p.y) - T(c.center.y)) - dir_y<T>(s) * (T(s.p.x) - T(c.center.x));
        };
        const Scaled cross = scaled_of(cross_expr);
        const Scaled q = scaled_of([&](auto z) {
            using T = decltype(z);
            const T cr = cross_expr(z);
            return T(c.radius) * T(c.radius) * (dir_x<T>(s) * dir_x<T>(s) + dir_y<T>(s) * dir_y<T>(s)) - cr * cr;
        });
        const double dx = dir_x<double>(s);
        const double dy = dir_y<double>(s);
        if (dd.is_normal_double() && cross.is_normal_double() && q.is_normal_double() && std::isfinite(dx) &&
            std::isfinite(dy)) {
            const double foot = *cross.to_double() / *dd.to_double();
            const double h = k * std::sqrt(std::max(0.0, *q.to_double())) / *dd.to_double();
            const Vec2 x{c.center.x + (h * dx - foot * dy), c.center.y + (h * dy + foot * dx)};
            if (std::isfinite(x.x) && std::isfinite(x.y)) return x;
        }
        const bool ray = s.kind == PieceKind::Ray;
        const Scaled sdx = ray ? Scaled::of(s.q.x) : Scaled::of(s.q.x) - Scaled::of(s.p.x);
        const Scaled sdy = ray ? Scaled::of(s.q.y) : Scaled::of(s.q.y) - Scaled::of(s.p.y);
        const Scaled foot = cross / dd;
        const Scaled h = Scaled::of(k) * sqrt(q) / dd;
        return representable(Scaled::of(c.center.x) + (h * sdx - foot * sdy), Scaled::of(c.center.y) + (h * sdy + foot * sdx));
    }

    // The point's form with root k: c |d|^2 + cross(d, p - c) perp(d) + k sqrt(q) d, over |d|^2.
    template <class T>
    struct Terms {
        T ex, ey, dd, q, x, y;
        PointQuotient<Root<T>, T> root(int k) const {
            const T kk(static_cast<double>(k));
            return PointQuotient<Root<T>, T>{Root<T>{x, kk * ex, q}, Root<T>{y, kk * ey, q}, dd};
        }
    };
    template <class T>
    Terms<T> terms(T) const {
        const T ex = dir_x<T>(s_);
        const T ey = dir_y<T>(s_);
        const T dd = ex * ex + ey * ey;
        const T cr = ex * (T(s_.p.y) - T(c_.center.y)) - ey * (T(s_.p.x) - T(c_.center.x));
        const T q = T(c_.radius) * T(c_.radius) * dd - cr * cr;
        return Terms<T>{ex, ey, dd, q, T(c_.center.x) * dd - cr * ey, T(c_.center.y) * dd + cr * ex};
    }

    const Piece& s_;
    const Circle& c_;
    mutable std::optional<Terms<DoubleWord>> fast_;
};


}  // namespace

PieceHit intersect(const Piece& a, const Piece& b) {
    // Two segments whose bounding boxes (exact: input coordinates) are apart cannot meet; most
    // edge pairs of two polygons are rejected here, before any predicate.
    if (a.kind == PieceKind::Segment && b.kind == PieceKind::Segment &&
        (std::max(a.p.x, a.q.x) < std::min(b.p.x, b.q.x) || std::max(b.p.x, b.q.x) < std::min(a.p.x, a.q.x) ||
         std::max(a.p.y, a.q.y) < std::min(b.p.y, b.q.y) || std::max(b.p.y, b.q.y) < std::min(a.p.y, a.q.y)))
        return PieceHit{};
    const int cr = cross_dirs(a, b);
    if (cr == 0) {
        if (side(a, b.p) != 0) return PieceHit{};
        return collinear_overlap(a, b);
    }
    // The sides of each piece's ends relative to the other's line, each computed once: they
    // decide whether the crossing lies on the pieces, and whether it is an end point.
    const int ap = a.kind != PieceKind::Line ? side(b, a.p) : 1;
    const int aq = a.kind == PieceKind::Segment ? side(b, a.q) : 1;
    if (!holds_crossing(a, ap, aq, -cr)) return PieceHit{};
    const int bp = b.kind != PieceKind::Line ? side(a, b.p) : 1;
    const int bq = b.kind == PieceKind::Segment ? side(a, b.q) : 1;
    if (!holds_crossing(b, bp, bq, cr)) return PieceHit{};
    PieceHit h;
    h.kind = PieceHit::Point;
    // The crossing is exactly an input point when one lies on both lines: first the pieces'
    // end points (then it is no proper crossing), then a line's defining points.
    const bool at_end = ap == 0 || aq == 0 || bp == 0 || bq == 0;
    h.proper = !at_end;
    if (at_end) {
        h.point = ap == 0 ? a.p : aq == 0 ? a.q : bp == 0 ? b.p : b.q;
        return h;
    }
    auto try_point = [&](const Vec2& v, const Piece& other) {
        if (side(other, v) != 0) return false;
        h.point = v;
        return true;
    };
    const bool known = (a.kind == PieceKind::Line && (try_point(a.p, b) || try_point(a.q, b))) ||
                       (b.kind == PieceKind::Line && (try_point(b.p, a) || try_point(b.q, a)));
    if (known) return h;
    const std::optional<Vec2> x = crossing_point(a, b);
    if (x) h.point = *x;
    h.representable = x.has_value();
    return h;
}

PieceClass classify(const Piece& s, PolygonRef poly, std::vector<Vec2>* points, std::vector<Vec2>& events, int start) {
    PieceClass c;
    c.outside = s.kind != PieceKind::Segment;  // an unbounded piece leaves any polygon
    // Events: the points along s where its classification may change, all input points
    // exactly (its ends, polygon vertices on it, ends of shared pieces). Proper crossings
    // are not events: one alone proves that s has parts inside and outside.
    // The caller's buffer, reused: a polygon pair classifies every edge of both.
    events.clear();
    if (s.kind != PieceKind::Line) events.push_back(s.p);
    if (s.kind == PieceKind::Segment) events.push_back(s.q);
    bool met = false;  // s meets some edge
    auto meet = [&](const Piece& edge) {
        const PieceHit h = intersect(s, edge);
        met |= h.kind != PieceHit::None;
        if (h.kind == PieceHit::Point) {
            if (h.proper) {
                c.inside = c.boundary = c.outside = true;
                if (points && h.representable) points->push_back(h.point);
            } else {
                events.push_back(h.point);
            }
        } else if (h.kind == PieceHit::Overlap) {
            events.push_back(h.lo);
            events.push_back(h.hi);
        }
    };
    // Edges whose boxes miss the piece's cannot meet it (intersect() rejects them first).
    if (poly.index) {
        poly.index->each_meeting(box_of(s), [&](std::size_t i) {
            meet(poly.index->edge(i));
            return true;
        });
    } else {
        for (std::size_t i = 0; i < poly.ring.n; ++i) meet(poly.ring.edge(i));
    }
    // Without points to collect, a piece known to reach inside, outside and the boundary
    // has nothing left to learn (a proper crossing alone shows all three).
    auto settled = [&] { return !points && c.inside && c.boundary && c.outside; };
    if (settled()) return c;
    auto note = [&](int loc) {
        if (loc > 0) c.inside = true;
        else if (loc < 0) c.outside = true;
        else c.boundary = true;
    };
    // A segment or ray that meets no edge lies wholly inside or wholly outside (its events
    // are its ends): one location, or none when the caller knows where it starts.
    if (!met && s.kind != PieceKind::Line) {
        note(start != kUnknownLocation ? start : locate_in(poly, s.p));
        return c;
    }
    std::sort(events.begin(), events.end(), [&](const Vec2& x, const Vec2& y) { return along(s, x, y) > 0; });
    events.erase(std::unique(events.begin(), events.end()), events.end());
    for (std::size_t i = 0; i < events.size() && !settled(); ++i) {
        const int loc = locate_in(poly, events[i]);
        note(loc);
        if (loc == 0 && points) points->push_back(events[i]);
        if (i + 1 < events.size()) note(locate_in(poly, Mid{events[i], events[i + 1]}));
    }
    return c;
}

PieceClass classify(const Piece& s, const Circle& c, std::vector<Vec2>* points) {
    PieceClass r;
    const bool bounded = s.kind == PieceKind::Segment;
    const bool has_p = s.kind != PieceKind::Line;
    // The distance test (as piece_distance_vs_radius) and the points read the same few
    // signs: each is computed once, when first needed. tp and tq: where the foot of the
    // perpendicular from the centre lies along the piece relative to its ends.
    constexpr int kUnset = 2;
    int pp_ = kUnset, pq_ = kUnset, tq_ = kUnset, disc_ = kUnset;
    auto power_p = [&] { return pp_ != kUnset ? pp_ : (pp_ = power(c, s.p)); };
    auto power_q = [&] { return pq_ != kUnset ? pq_ : (pq_ = power(c, s.q)); };
    auto along_q = [&] { return tq_ != kUnset ? tq_ : (tq_ = along(s, s.q, c.center)); };
    auto line_dist = [&] { return disc_ != kUnset ? disc_ : (disc_ = line_distance_vs_radius(s, c)); };
    const int tp = has_p ? along(s, s.p, c.center) : 1;
    // Sign of dist(centre, piece)^2 - r^2: the nearest point is an end when the foot lies beyond it.
    const int dist = has_p && tp <= 0 ? power_p() : (bounded && along_q() >= 0 ? power_q() : line_dist());
    if (dist > 0) {
        r.outside = true;
        return r;
    }
    const int pp = has_p ? power_p() : 1;
    const int pq = bounded ? power_q() : 1;
    r.inside = dist < 0;
    r.outside = !bounded || pp > 0 || pq > 0;  // a disk is convex: ends inside keep all inside
    r.boundary = dist == 0 || pp >= 0 || pq >= 0;
    if (!points) return r;

    // Points: roots t1 <= t2 of f(t) = |p + t d - c|^2 - r^2 lying on the piece. Which roots
    // count is decided exactly from the signs of f at the ends (pp, pq) and of the vertex
    // tm of f relative to the ends (tp = sign(tm - 0), tq = sign(tm - 1)).
    const int disc = line_dist();
    const int tq = bounded ? along_q() : -1;
    std::optional<LineCircle> roots;  // computed when a root is not an end point
    auto push = [&](int k) {
        if (!roots) roots.emplace(s, c);
        if (const std::optional<Vec2> x = roots->point(k)) points->push_back(*x);
    };
    if (disc == 0) {
        if (tp >= 0 && tq <= 0) {
            if (pp == 0) points->push_back(s.p);
            else if (pq == 0) points->push_back(s.q);
            else push(0);
        }
        return r;
    }
    const bool line = s.kind == PieceKind::Line;
    const bool t1_in = line || ((pp >= 0 && tp > 0) && (!bounded || pq <= 0 || tq < 0));
    const bool t2_in = line || ((pp <= 0 || tp > 0) && (!bounded || (pq >= 0 && tq < 0)));
    if (t1_in) {
        if (pp == 0 && tp > 0) points->push_back(s.p);
        else if (pq == 0 && tq >= 0) points->push_back(s.q);
        else push(-1);
    }
    if (t2_in) {
        if (pp == 0 && tp <= 0) points->push_back(s.p);
        else if (pq == 0 && tq < 0) points->push_back(s.q);
        else push(1);
    }
    return r;
}

}  // namespace collide::detail
