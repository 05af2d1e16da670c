#include "numeric/predicates.hpp"

namespace collide::detail {

int orient(Vec2 a, Vec2 b, Vec2 c) {
    return sign_of_low_degree([&](auto zero) {
        using T = decltype(zero);
        return (T(b.x) - T(a.x)) * (T(c.y) - T(a.y)) - (T(b.y) - T(a.y)) * (T(c.x) - T(a.x));
    });
}

int power(const Circle& c, Vec2 x) {
    return sign_of_low_degree([&](auto zero) {
        using T = decltype(zero);
        const T dx = T(x.x) - T(c.center.x);
        const T dy = T(x.y) - T(c.center.y);
        return dx * dx + dy * dy - T(c.radius) * T(c.radius);
    });
}

// As cross(d, c - p)^2 - r^2 |d|^2, which has the sign of dist^2 - r^2.
int line_distance_vs_radius(const Piece& s, const Circle& c) {
    return sign_of_low_degree([&](auto zero) {
        using T = decltype(zero);
        const T dx = dir_x<T>(s);
        const T dy = dir_y<T>(s);
        const T cr = dx * (T(c.center.y) - T(s.p.y)) - dy * (T(c.center.x) - T(s.p.x));
        const T r = T(c.radius);
        return cr * cr - r * r * (dx * dx + dy * dy);
    });
}

int piece_distance_vs_radius(const Piece& s, const Circle& c) {
    // The closest point of the piece is an end point when the centre projects beyond it.
    if (s.kind != PieceKind::Line && along(s, s.p, c.center) <= 0) return power(c, s.p);
    if (s.kind == PieceKind::Segment && along(s, s.q, c.center) >= 0) return power(c, s.q);
    return line_distance_vs_radius(s, c);
}

int sign_diff3(double a, double b, double c) {
    return sign_of_low_degree([&](auto zero) {
        using T = decltype(zero);
        return T(a) - T(b) - T(c);
    });
}

namespace {

// Sign of (query y) - (vertex y), with the query scaled as in predicates.hpp.
int compare_y(const Vec2& x, const Vec2& v) { return x.y < v.y ? -1 : (x.y > v.y ? 1 : 0); }
int compare_y(const Mid& x, const Vec2& v) {
    // Both ends on one side of v (or on it) decide without arithmetic.
    if (x.u.y >= v.y && x.v.y >= v.y) return x.u.y > v.y || x.v.y > v.y ? 1 : 0;
    if (x.u.y <= v.y && x.v.y <= v.y) return -1;  // not both equal: that was the case above
    return sign_of_low_degree([&](auto zero) {
        using T = decltype(zero);
        return T(x.u.y) + T(x.v.y) - T(v.y) - T(v.y);
    });
}

// One edge of the crossing-number test (a horizontal ray towards +x), exact: an edge is
// counted when it spans the query's y half-open from below, so vertices on the ray count once.
template <class Q>
int crossing(const Piece& e, const Q& x) {
    const int ya = compare_y(x, e.p);  // sign of x.y - a.y
    const int yb = compare_y(x, e.q);
    // Cheap rejection: an edge entirely above or below cannot hold or cross the query.
    if ((ya < 0 && yb < 0) || (ya > 0 && yb > 0)) return -1;
    const int s = side(e, x);
    if (s == 0 && within_extent(e, x)) return 0;
    const bool up = ya >= 0 && yb < 0;    // a.y <= y < b.y
    const bool down = yb >= 0 && ya < 0;  // b.y <= y < a.y
    return (up && s > 0) || (down && s < 0) ? 1 : -1;
}

template <class Q>
int locate(Ring poly, const Q& x) {
    bool inside = false;
    for (std::size_t i = 0; i < poly.n; ++i) {
        const int c = crossing(poly.edge(i), x);
        if (c == 0) return 0;
        if (c > 0) inside = !inside;
    }
    return inside ? 1 : -1;
}

}  // namespace

int locate_in_polygon(Ring poly, const Vec2& x) { return locate(poly, x); }
int locate_in_polygon(Ring poly, const Mid& x) { return locate(poly, x); }
int ray_crossing(const Piece& e, const Vec2& x) { return crossing(e, x); }
int ray_crossing(const Piece& e, const Mid& x) { return crossing(e, x); }

int ring_orientation(Ring ring) {
    // Twice the signed area as a sum of cross products about vertex 0: exact in Exact.
    return sign_of([&](auto zero) {
        using T = decltype(zero);
        T sum = zero;
        const T ox = T(ring[0].x);
        const T oy = T(ring[0].y);
        for (std::size_t i = 1; i + 1 < ring.n; ++i) {
            const T ax = T(ring[i].x) - ox;
            const T ay = T(ring[i].y) - oy;
            const T bx = T(ring[i + 1].x) - ox;
            const T by = T(ring[i + 1].y) - oy;
            sum = sum + (ax * by - ay * bx);
        }
        return sum;
    });
}

}  // namespace collide::detail
