// The pair tests of regions against each other: disks and polygons (the hot circle-circle,
// circle-rect and rect-rect pairs among them, STYLE.md), by exact distance signs, point
// location and edge-by-edge classification. Part of the pair test (pair_test.cpp), which
// dispatches to these through its table.
#include "queries/pair_geo.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace collide::detail {

// ---- regions -----------------------------------------------------------------------------

Topo disk_disk(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch& /*scratch*/) {
    Topo t;
    const Circle& ca = a.disk;
    const Circle& cb = b.disk;
    auto dist_vs = [&](double ra, double rb) {  // sign of d^2 - (ra + rb)^2
        return sign_of_low_degree([&](auto z) {
            using T = decltype(z);
            const T dx = T(cb.center.x) - T(ca.center.x);
            const T dy = T(cb.center.y) - T(ca.center.y);
            const T rs = T(ra) + T(rb);
            return dx * dx + dy * dy - rs * rs;
        });
    };
    const int ext = dist_vs(ca.radius, cb.radius);
    if (ext > 0) return t;
    t.intersects = true;
    t.interiors = ext < 0;
    int in = 1;  // d^2 - (ra - rb)^2, needed when ext < 0
    if (t.interiors) {
        in = dist_vs(ca.radius, -cb.radius);
        t.b_in_a = ca.radius >= cb.radius && in <= 0;
        t.a_in_b = cb.radius >= ca.radius && in <= 0;
    }
    if (pts)
        for (const Vec2& x : circle_circle_points(ca, cb, ext, in)) pts->push_back(x);
    return t;
}

namespace {

// The hot circle-rect pair (STYLE.md): the rect's nearest point to the centre is the centre
// clamped to it, an input point, so one power test decides meeting and interiors, and the
// containments are exact three-term sums. The points are the general code's, edge by edge.
Topo disk_rect(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
    const Circle& c = a.disk;
    const Rect& r = b.rect;
    const Vec2 nearest{std::clamp(c.center.x, r.min.x, r.max.x), std::clamp(c.center.y, r.min.y, r.max.y)};
    const int near = power(c, nearest);  // sign of dist(centre, rect)^2 - radius^2
    Topo t;
    if (near > 0) return t;
    t.intersects = true;
    t.interiors = near < 0;  // the open disk meets the closed rect, hence its interior
    t.a_in_b = sign_diff3(c.center.x, c.radius, r.min.x) >= 0 && sign_diff3(r.max.x, c.radius, c.center.x) >= 0 &&
               sign_diff3(c.center.y, c.radius, r.min.y) >= 0 && sign_diff3(r.max.y, c.radius, c.center.y) >= 0;
    t.b_in_a = true;
    for (std::size_t i = 0; i < 4 && t.b_in_a; ++i) t.b_in_a = power(c, b.corners[i]) <= 0;
    if (pts)
        for (std::size_t i = 0; i < 4; ++i) classify(b.ring().edge(i), c, pts);
    return t;
}

}  // namespace

Topo disk_polygon(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch& /*scratch*/) {
    if (b.is_rect) return disk_rect(a, b, pts);
    Topo t;
    const Ring ring = b.ring();
    const int loc = locate_in(b.polygon(), a.disk.center);
    // An edge whose box misses the disk's lies farther than r from the centre.
    const Bounds near = b.index ? box_of(a.disk) : Bounds{};
    int nearest = 1;  // min over edges of sign(dist(center, edge) - r)
    each_edge_near(b, near, [&](std::size_t i) {
        nearest = std::min(nearest, piece_distance_vs_radius(ring.edge(i), a.disk));
        return nearest >= 0;
    });
    if (loc < 0 && nearest > 0) return t;
    t.intersects = true;
    t.interiors = loc >= 0 || nearest < 0;
    t.a_in_b = loc > 0 && nearest >= 0;
    t.b_in_a = true;
    // A big polygon lies in the disk only if its extreme vertices do: most are decided here.
    if (b.index)
        for (const Vec2& v : b.index->extremes()) t.b_in_a = t.b_in_a && power(a.disk, v) <= 0;
    for (std::size_t i = 0; i < ring.n && t.b_in_a; ++i) t.b_in_a = power(a.disk, ring[i]) <= 0;
    if (pts)
        each_edge_near(b, near, [&](std::size_t i) {
            classify(ring.edge(i), a.disk, pts);
            return true;
        });
    return t;
}

namespace {

void rect_outline_points(const Geo& a, const Geo& b, std::vector<Vec2>& pts) {
    for (std::size_t i = 0; i < 4; ++i) {
        for (std::size_t j = 0; j < 4; ++j) {
            const PieceHit h = intersect(a.ring().edge(i), b.ring().edge(j));
            if (h.kind == PieceHit::Point && h.representable) pts.push_back(h.point);
            if (h.kind == PieceHit::Overlap) {
                pts.push_back(h.lo);
                pts.push_back(h.hi);
            }
        }
    }
}

Topo rect_rect(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
    const Rect& r = a.rect;
    const Rect& s = b.rect;
    Topo t;
    t.intersects = r.min.x <= s.max.x && s.min.x <= r.max.x && r.min.y <= s.max.y && s.min.y <= r.max.y;
    if (!t.intersects) return t;
    t.interiors = r.min.x < s.max.x && s.min.x < r.max.x && r.min.y < s.max.y && s.min.y < r.max.y;
    t.a_in_b = s.min.x <= r.min.x && r.max.x <= s.max.x && s.min.y <= r.min.y && r.max.y <= s.max.y;
    t.b_in_a = r.min.x <= s.min.x && s.max.x <= r.max.x && r.min.y <= s.min.y && s.max.y <= r.max.y;
    if (pts) rect_outline_points(a, b, *pts);
    return t;
}

}  // namespace

Topo polygon_polygon(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch& scratch) {
    if (a.is_rect && b.is_rect) return rect_rect(a, b, pts);
    // Each boundary, piece by piece, against the other polygon: the
    // interiors meet iff some boundary part lies inside the other polygon or the two are
    // equal; a lies in b iff no part of a's boundary lies outside b.
    // A side's classes are settled once all three are seen; only points need the rest.
    auto settled = [](const PieceClass& c) { return c.inside && c.boundary && c.outside; };
    // The edges of `from` against the polygon `to`: with an index only those whose boxes
    // meet `to`'s box, the others lying outside it.
    auto classify_edges = [&](const Geo& from, const Geo& to, std::vector<Vec2>* points) {
        PieceClass acc;
        const PolygonRef target = to.polygon();
        const Ring ring = from.ring();
        ChainStart chain;  // edges far from `to` are located once a run
        const std::size_t seen = each_edge_near(from, from.index ? polygon_box(to) : Bounds{}, [&](std::size_t i) {
            if (points == nullptr && settled(acc)) return false;
            const PieceClass c = classify(ring.edge(i), target, points, scratch.events, chain.of(i));
            chain.after(i, c);
            acc.inside |= c.inside;
            acc.boundary |= c.boundary;
            acc.outside |= c.outside;
            return true;
        });
        acc.outside |= seen < ring.n;
        return acc;
    };
    const PieceClass ca = classify_edges(a, b, pts);
    const PieceClass cb = classify_edges(b, a, nullptr);
    Topo t;
    t.intersects = ca.inside || ca.boundary || cb.inside || cb.boundary;
    if (!t.intersects) return t;
    t.a_in_b = !ca.outside;
    t.b_in_a = !cb.outside;
    t.interiors = ca.inside || cb.inside || (t.a_in_b && t.b_in_a);
    return t;
}

}  // namespace collide::detail
