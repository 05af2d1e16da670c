// Capsule pair tests (see capsule.hpp). The distance from the core a-b to the other shape,
// against r (or r plus or minus the other radius), decides everything: a capsule meets a
// shape when that distance is <= r, their interiors meet when it is < r (both are the
// closures of their interiors), and containment reads distances from end points and vertices
// (a capsule is convex, so it holds a convex set exactly when it holds its extreme points).
#include "geometry/capsule.hpp"

#include "geometry/capsule_points.hpp"
#include "geometry/pieces.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace collide::detail {

// ---- exact signs -------------------------------------------------------------------------

// Sign of |x - y|^2 - (r1 + r2)^2: the sum of radii is formed inside the exact expression,
// since r1 + r2 is rarely a double.
int point_point_vs(Vec2 x, Vec2 y, double r1, double r2) {
    return sign_of_low_degree([&](auto z) {
        using T = decltype(z);
        const T dx = T(x.x) - T(y.x);
        const T dy = T(x.y) - T(y.y);
        const T rs = T(r1) + T(r2);
        return dx * dx + dy * dy - rs * rs;
    });
}

namespace {

// Sign of dist(s, core)^2 - (r1 + r2)^2 for any straight piece s and a segment core
// (r1 + r2 > 0). Pieces that meet are at distance 0; otherwise the least distance is
// reached at an end point of one of them (a line has none: the core's ends decide).
int piece_core_vs(const Piece& s, const Piece& core, double r1, double r2) {
    if (intersect(s, core).kind != PieceHit::None) return -1;
    int m = std::min(point_piece_vs(s, core.p, r1, r2), point_piece_vs(s, core.q, r1, r2));
    if (m >= 0 && s.kind != PieceKind::Line) m = std::min(m, point_piece_vs(core, s.p, r1, r2));
    if (m >= 0 && s.kind == PieceKind::Segment) m = std::min(m, point_piece_vs(core, s.q, r1, r2));
    return m;
}

// ---- filters ------------------------------------------------------------------------------
// The signs of dist(x, core) - r and dist(segment, core) - r, computed in doubles when the
// distance is clearly away from r (most pairs), exactly otherwise. A squared distance
// computed in doubles is off by a few ulps of M^2, M the largest magnitude involved (a
// coordinate plus r); the margin is a thousand times that.

double margin_of(std::initializer_list<double> values, double r) {
    double m = r;
    for (double v : values) m = std::max(m, std::fabs(v) + r);
    return 4e-12 * m * m + 1e-300;
}

double point_segment_distance2(Vec2 p, Vec2 a, Vec2 b) {
    const Vec2 d = b - a;
    const double dd = dot(d, d);
    const double t = dd > 0 ? std::clamp(dot(p - a, d) / dd, 0.0, 1.0) : 0.0;
    const Vec2 q = a + t * d;
    return dot(p - q, p - q);
}

int quick_sign(double v, double margin) {
    if (v > margin) return 1;
    if (v < -margin) return -1;
    return 0;  // undecided (or NaN)
}

}  // namespace

int point_vs_capsule(Vec2 p, const CapsuleRef& c) {
    const Vec2 a = c.core.p;
    const Vec2 b = c.core.q;
    const double m = margin_of({p.x, p.y, a.x, a.y, b.x, b.y}, c.r);
    const int q = quick_sign(point_segment_distance2(p, a, b) - c.r * c.r, m);
    return q != 0 ? q : point_piece_vs(c.core, p, c.r, 0.0);
}

namespace {

int piece_vs_capsule(const Piece& s, const CapsuleRef& c) {
    if (s.kind != PieceKind::Segment) return piece_core_vs(s, c.core, c.r, 0.0);
    const Vec2 a = c.core.p;
    const Vec2 b = c.core.q;
    const double m = margin_of({s.p.x, s.p.y, s.q.x, s.q.y, a.x, a.y, b.x, b.y}, c.r);
    const double ends = std::min({point_segment_distance2(s.p, a, b), point_segment_distance2(s.q, a, b),
                                  point_segment_distance2(a, s.p, s.q), point_segment_distance2(b, s.p, s.q)});
    const int q = quick_sign(ends - c.r * c.r, m);
    if (q < 0) return -1;
    if (q > 0) {
        // The distance is the ends' unless the segments cross: clear orientations say whether.
        const Vec2 ds = s.q - s.p;
        const Vec2 dc = b - a;
        const double om = 1e-12 * (std::fabs(ds.x) + std::fabs(ds.y)) * (std::fabs(dc.x) + std::fabs(dc.y)) + 1e-300;
        const int o1 = quick_sign(cross(ds, a - s.p), om);
        const int o2 = quick_sign(cross(ds, b - s.p), om);
        const int o3 = quick_sign(cross(dc, s.p - a), om);
        const int o4 = quick_sign(cross(dc, s.q - a), om);
        if ((o1 != 0 && o1 == o2) || (o3 != 0 && o3 == o4)) return 1;
        if (o1 * o2 < 0 && o3 * o4 < 0) return -1;
    }
    return piece_core_vs(s, c.core, c.r, 0.0);
}

// A box that holds the capsule (rounded outwards): a segment outside it is farther than r.
struct Reach {
    double x0, y0, x1, y1;
    explicit Reach(const CapsuleRef& c) {
        constexpr double inf = std::numeric_limits<double>::infinity();
        x0 = std::nextafter(std::min(c.core.p.x, c.core.q.x) - c.r, -inf);
        y0 = std::nextafter(std::min(c.core.p.y, c.core.q.y) - c.r, -inf);
        x1 = std::nextafter(std::max(c.core.p.x, c.core.q.x) + c.r, inf);
        y1 = std::nextafter(std::max(c.core.p.y, c.core.q.y) + c.r, inf);
    }
    bool misses(const Piece& s) const {
        return s.kind == PieceKind::Segment && (std::max(s.p.x, s.q.x) < x0 || std::min(s.p.x, s.q.x) > x1 ||
                                                std::max(s.p.y, s.q.y) < y0 || std::min(s.p.y, s.q.y) > y1);
    }
};

}  // namespace

int point_piece_vs(const Piece& s, Vec2 x, double r1, double r2) {
    // The nearest point of the piece is an end when x projects beyond it.
    if (s.kind != PieceKind::Line && along(s, s.p, x) <= 0) return point_point_vs(x, s.p, r1, r2);
    if (s.kind == PieceKind::Segment && along(s, s.q, x) >= 0) return point_point_vs(x, s.q, r1, r2);
    // cross(d, x - p)^2 - (r1 + r2)^2 |d|^2 has the sign of dist^2 - (r1 + r2)^2.
    return sign_of_low_degree([&](auto z) {
        using T = decltype(z);
        const T dx = dir_x<T>(s);
        const T dy = dir_y<T>(s);
        const T cr = dx * (T(x.y) - T(s.p.y)) - dy * (T(x.x) - T(s.p.x));
        const T rs = T(r1) + T(r2);
        return cr * cr - rs * rs * (dx * dx + dy * dy);
    });
}

Topo point_capsule(Vec2 p, const CapsuleRef& c, std::vector<Vec2>* pts) {
    Topo t;
    const int d = point_piece_vs(c.core, p, c.r, 0.0);
    if (d > 0) return t;
    t.intersects = t.a_in_b = true;
    t.interiors = d < 0;
    if (d == 0 && pts) pts->push_back(p);
    return t;
}

Topo pieces_capsule(PieceRun pieces, const CapsuleRef& c, std::vector<Vec2>* pts) {
    Topo t;
    const Reach reach(c);
    bool all_in = true;  // a capsule is convex: it holds a segment when it holds its ends
    std::optional<Frame> frame;
    if (pts) frame.emplace(c);
    for (const Piece& s : pieces) {
        const int d = reach.misses(s) ? 1 : piece_vs_capsule(s, c);
        t.intersects |= d <= 0;
        t.interiors |= d < 0;
        all_in = all_in && d <= 0 && s.kind == PieceKind::Segment && point_vs_capsule(s.p, c) <= 0 &&
                 point_vs_capsule(s.q, c) <= 0;
        if (pts) piece_points(s, c, frame, d, *pts);
    }
    t.a_in_b = t.intersects && all_in;
    return t;
}

Topo disk_capsule(const Circle& d, const CapsuleRef& c, std::vector<Vec2>* pts) {
    Topo t;
    const int ext = point_piece_vs(c.core, d.center, d.radius, c.r);  // centre vs core, r1 + r2
    if (ext > 0) return t;
    t.intersects = true;
    t.interiors = ext < 0;
    if (t.interiors) {
        t.a_in_b = d.radius <= c.r && point_piece_vs(c.core, d.center, c.r, -d.radius) <= 0;
        t.b_in_a = d.radius >= c.r && point_point_vs(c.core.p, d.center, d.radius, -c.r) <= 0 &&
                   point_point_vs(c.core.q, d.center, d.radius, -c.r) <= 0;
    }
    if (!pts) return t;
    const Frame f(c);
    Sink out(*pts, std::max(f.scale(), magnitude(d.center) + d.radius));
    const Arc circle{d.center, d.radius, false, Vec2{}};
    for (int s : {-1, 1}) side_arc(c, f, s, circle, out);
    for (bool at_b : {false, true}) arc_arc(circle, cap_of(c, at_b), out);
    return t;
}

Topo polygon_capsule(PolygonRef poly, const CapsuleRef& c, std::vector<Vec2>* pts) {
    const Ring ring = poly.ring;
    const Reach reach(c);
    int nearest = 1;  // min over edges of sign(dist(edge, core) - r)
    std::optional<Frame> frame;
    if (pts) frame.emplace(c);
    auto edge = [&](const Piece& e) {
        const int d = reach.misses(e) ? 1 : piece_vs_capsule(e, c);
        nearest = std::min(nearest, d);
        if (pts) piece_points(e, c, frame, d, *pts);
        return true;
    };
    // A big polygon's index reads only the edges whose boxes meet the capsule's: the others
    // lie farther than r from the core.
    if (poly.index)
        poly.index->each_meeting(Bounds{Vec2{reach.x0, reach.y0}, Vec2{reach.x1, reach.y1}},
                                 [&](std::size_t i) { return edge(poly.index->edge(i)); });
    else
        for (std::size_t i = 0; i < ring.n; ++i) edge(ring.edge(i));
    Topo t;
    const int loc = locate_in(poly, c.core.p);
    if (loc < 0 && nearest > 0) return t;
    t.intersects = true;
    // The open capsule meets the closed polygon (hence its interior) when the core lies
    // within r of it: in it, or within r of an edge.
    t.interiors = loc >= 0 || nearest < 0;
    t.b_in_a = loc > 0 && nearest >= 0;  // no edge within r of the core: it stays inside
    t.a_in_b = true;
    if (poly.index)  // a big polygon lies in the capsule only if its extreme vertices do
        for (const Vec2& v : poly.index->extremes()) t.a_in_b = t.a_in_b && point_vs_capsule(v, c) <= 0;
    for (std::size_t i = 0; i < ring.n && t.a_in_b; ++i) t.a_in_b = point_vs_capsule(ring[i], c) <= 0;
    return t;
}

Topo capsule_capsule(const CapsuleRef& a, const CapsuleRef& b, std::vector<Vec2>* pts) {
    Topo t;
    const int d = piece_core_vs(a.core, b.core, a.r, b.r);
    if (d > 0) return t;
    t.intersects = true;
    t.interiors = d < 0;
    if (t.interiors) {
        // a lies in b when a's core ends lie within r_b - r_a of b's core.
        auto inside = [](const CapsuleRef& x, const CapsuleRef& y) {
            return x.r <= y.r && point_piece_vs(y.core, x.core.p, y.r, -x.r) <= 0 &&
                   point_piece_vs(y.core, x.core.q, y.r, -x.r) <= 0;
        };
        t.a_in_b = inside(a, b);
        t.b_in_a = inside(b, a);
    }
    if (!pts) return t;
    const Frame fa(a);
    const Frame fb(b);
    Sink out(*pts, std::max(fa.scale(), fb.scale()));
    for (int sa : {-1, 1})
        for (int sb : {-1, 1}) side_side(a, fa, sa, b, fb, sb, out);
    for (int s : {-1, 1}) {
        for (bool at_b : {false, true}) {
            side_arc(a, fa, s, cap_of(b, at_b), out);
            side_arc(b, fb, s, cap_of(a, at_b), out);
        }
    }
    for (bool ea : {false, true})
        for (bool eb : {false, true}) arc_arc(cap_of(a, ea), cap_of(b, eb), out);
    return t;
}

}  // namespace collide::detail