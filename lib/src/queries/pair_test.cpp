// The pairwise test: every shape is reduced to one of five geometric kinds (a point, a
// set of straight pieces, a disk, a polygon, a capsule), each unordered pair of kinds is
// written once, and the reversed pair mirrors the result.
#include "collide/geometry.hpp"

#include "geometry/capsule.hpp"
#include "geometry/edge_index.hpp"
#include "geometry/pieces.hpp"
#include "queries/collide_into.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>

namespace collide {

std::string_view type_name(ShapeType t) {
    switch (t) {
        case ShapeType::Point: return "point";
        case ShapeType::Circle: return "circle";
        case ShapeType::Rect: return "rect";
        case ShapeType::Segment: return "segment";
        case ShapeType::Line: return "line";
        case ShapeType::Ray: return "ray";
        case ShapeType::Polygon: return "polygon";
        case ShapeType::Polyline: return "polyline";
        case ShapeType::Capsule: return "capsule";
        case ShapeType::Compound: return "compound";
    }
    return "?";
}

std::string_view relation_name(Relation r) {
    switch (r) {
        case Relation::Touch: return "touch";
        case Relation::Overlap: return "overlap";
        case Relation::Contains: return "contains";
        case Relation::Within: return "within";
        case Relation::Equal: return "equal";
    }
    return "?";
}

Relation mirrored(Relation r) {
    if (r == Relation::Contains) return Relation::Within;
    if (r == Relation::Within) return Relation::Contains;
    return r;
}

namespace detail {
namespace {

enum class Kind : std::uint8_t { Point, Linear, Disk, Polygon, Capsule };

// A shape reduced to its geometric kind. Views into the Shape (and its edge index); owns
// only the pieces it made.
struct Geo {
    Kind kind = Kind::Point;
    Vec2 pt;                        // Point
    Circle disk;                    // Disk (radius > 0)
    CapsuleRef capsule;             // Capsule (core of positive length, radius > 0)
    bool is_rect = false;           // Polygon: an axis-aligned rect of positive area
    Rect rect;                      // Polygon, when is_rect
    std::array<Vec2, 4> corners;    // Polygon, when is_rect
    Ring poly_ring;                 // Polygon, when !is_rect
    std::vector<Piece> own_pieces;  // Linear, without an index
    std::array<Vec2, 2> bd;         // Linear: boundary points
    int nbd = 0;
    // A big polygon's or polyline's edge index (then a polyline's pieces are the index's),
    // or null: the pair tests then read every edge.
    const EdgeIndex* index = nullptr;

    Ring ring() const { return is_rect ? Ring{corners.data(), 4} : poly_ring; }
    PolygonRef polygon() const { return PolygonRef(ring(), index); }
    const std::vector<Piece>& pieces() const { return index ? index->pieces() : own_pieces; }
    // Polygon: its edges; Linear: its pieces.
    std::size_t edge_count() const { return kind == Kind::Polygon ? ring().n : pieces().size(); }
    bool in_boundary(const Vec2& x) const {
        for (int i = 0; i < nbd; ++i)
            if (bd[i] == x) return true;
        return false;
    }
};

Geo point_geo(Vec2 p) {
    Geo g;
    g.kind = Kind::Point;
    g.pt = p;
    return g;
}

Geo segment_geo(Vec2 a, Vec2 b) {
    if (a == b) return point_geo(a);
    Geo g;
    g.kind = Kind::Linear;
    g.own_pieces.push_back(Piece{PieceKind::Segment, a, b});
    g.bd = {a, b};
    g.nbd = 2;
    return g;
}

// index: the shape's edge index when it is a big polygon or polyline, else null.
Geo make_geo(const Shape& shape, const EdgeIndex* index) {
    switch (type_of(shape)) {
        case ShapeType::Point: return point_geo(std::get<Point>(shape).at);
        case ShapeType::Circle: {
            const auto& c = std::get<Circle>(shape);
            if (c.radius == 0.0) return point_geo(c.center);
            Geo g;
            g.kind = Kind::Disk;
            g.disk = c;
            return g;
        }
        case ShapeType::Rect: {
            const auto& r = std::get<Rect>(shape);
            if (r.min.x == r.max.x || r.min.y == r.max.y) return segment_geo(r.min, r.max);
            Geo g;
            g.kind = Kind::Polygon;
            g.is_rect = true;
            g.rect = r;
            g.corners = {r.min, Vec2{r.max.x, r.min.y}, r.max, Vec2{r.min.x, r.max.y}};
            return g;
        }
        case ShapeType::Segment: {
            const auto& s = std::get<Segment>(shape);
            return segment_geo(s.a, s.b);
        }
        case ShapeType::Line: {
            const auto& l = std::get<Line>(shape);
            Geo g;
            g.kind = Kind::Linear;
            g.own_pieces.push_back(Piece{PieceKind::Line, l.a, l.b});
            return g;
        }
        case ShapeType::Ray: {
            const auto& r = std::get<Ray>(shape);
            Geo g;
            g.kind = Kind::Linear;
            g.own_pieces.push_back(Piece{PieceKind::Ray, r.origin, r.direction});
            g.bd[0] = r.origin;
            g.nbd = 1;
            return g;
        }
        case ShapeType::Polygon: {
            const auto& p = std::get<Polygon>(shape);
            Geo g;
            g.kind = Kind::Polygon;
            g.poly_ring = Ring{p.points.data(), p.points.size()};
            g.index = index;
            return g;
        }
        case ShapeType::Polyline: {
            const auto& pl = std::get<Polyline>(shape).points;
            Geo g;
            g.kind = Kind::Linear;
            if (index && index->size() > 0) g.index = index;
            else g.own_pieces = polyline_pieces(pl);
            if (g.pieces().empty()) return point_geo(pl.empty() ? Vec2{} : pl[0]);
            if (pl.front() != pl.back()) {  // open: its two ends are its boundary
                g.bd = {pl.front(), pl.back()};
                g.nbd = 2;
            }
            return g;
        }
        case ShapeType::Capsule: {
            const auto& c = std::get<Capsule>(shape);
            Geo g;
            if (c.radius == 0.0) return segment_geo(c.a, c.b);
            if (c.a == c.b) {  // the disk (SPEC §1.1)
                g.kind = Kind::Disk;
                g.disk = Circle{c.a, c.radius};
                return g;
            }
            g.kind = Kind::Capsule;
            g.capsule = CapsuleRef{Piece{PieceKind::Segment, c.a, c.b}, c.radius};
            return g;
        }
        case ShapeType::Compound: break;  // collide_into() tests a compound part by part
    }
    return Geo{};
}

Topo mirror(Topo t) {
    std::swap(t.a_in_b, t.b_in_a);
    return t;
}

// ---- candidates ----------------------------------------------------------------------------
// A big shape's index narrows the edges a pair test reads to those near the partner; the
// exact tests then decide as they do on all edges, and no result depends on the order in
// which edges are met (points are sorted, and flags are ORed).

// Calls f(i) for the edges i (a polygon's edges, or straight pieces) of g that may meet
// what the box `near` holds: with an index only those whose boxes meet it, else every one.
// Stops when f returns false. Returns how many it visited: an edge not visited lies outside
// `near`, and `near` is read only with an index.
template <class F>
std::size_t each_edge_near(const Geo& g, const Box& near, F&& f) {
    std::size_t seen = 0;
    auto visit = [&](std::size_t i) {
        ++seen;
        return f(i);
    };
    if (g.index) {
        g.index->each_meeting(near, visit);
    } else {
        for (std::size_t i = 0, n = g.edge_count(); i < n && visit(i); ++i) {
        }
    }
    return seen;
}

// The box of a polygon (exact: vertex coordinates).
Box polygon_box(const Geo& g) {
    if (g.index) return g.index->bounds();
    const Ring r = g.ring();
    Box b{r[0], r[0]};
    for (std::size_t i = 1; i < r.n; ++i) {
        b.min = Vec2{std::min(b.min.x, r[i].x), std::min(b.min.y, r[i].y)};
        b.max = Vec2{std::max(b.max.x, r[i].x), std::max(b.max.y, r[i].y)};
    }
    return b;
}

// Calls f(i, j) for the pairs of pieces of a and b that may meet: with an index on either
// side only those whose boxes meet (O(n log m) for two big shapes), else every pair.
template <class F>
void each_piece_pair(const Geo& a, const Geo& b, F&& f) {
    if (b.index) {
        each_edge_near(a, b.index->bounds(), [&](std::size_t i) {
            b.index->each_meeting(box_of(a.pieces()[i]), [&](std::size_t j) {
                f(i, j);
                return true;
            });
            return true;
        });
    } else if (a.index) {
        for (std::size_t j = 0; j < b.pieces().size(); ++j) {
            a.index->each_meeting(box_of(b.pieces()[j]), [&](std::size_t i) {
                f(i, j);
                return true;
            });
        }
    } else {
        for (std::size_t i = 0; i < a.pieces().size(); ++i)
            for (std::size_t j = 0; j < b.pieces().size(); ++j) f(i, j);
    }
}

// ---- point against anything ------------------------------------------------------------

Topo point_point(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
    Topo t;
    if (a.pt != b.pt) return t;
    t.intersects = t.interiors = t.a_in_b = t.b_in_a = true;
    if (pts) pts->push_back(a.pt);
    return t;
}

Topo point_linear(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
    Topo t;
    each_edge_near(b, Box{a.pt, a.pt}, [&](std::size_t i) {
        t.intersects = on_piece(b.pieces()[i], a.pt);
        return !t.intersects;
    });
    if (!t.intersects) return t;
    t.a_in_b = true;
    t.interiors = !b.in_boundary(a.pt);
    if (pts) pts->push_back(a.pt);
    return t;
}

Topo point_disk(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
    Topo t;
    const int p = power(b.disk, a.pt);
    if (p > 0) return t;
    t.intersects = t.a_in_b = true;
    t.interiors = p < 0;
    if (p == 0 && pts) pts->push_back(a.pt);
    return t;
}

Topo point_polygon(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
    Topo t;
    const int loc = locate_in(b.polygon(), a.pt);
    if (loc < 0) return t;
    t.intersects = t.a_in_b = true;
    t.interiors = loc > 0;
    if (loc == 0 && pts) pts->push_back(a.pt);
    return t;
}

// ---- straight pieces ---------------------------------------------------------------------

// A part of a piece, from lo to hi along its direction; a missing end is unbounded.
struct Span {
    bool has_lo = false;
    bool has_hi = false;
    Vec2 lo;
    Vec2 hi;
};

// Whether the spans (parts of s) cover all of s.
bool covers(const Piece& s, std::vector<Span>& spans) {
    std::sort(spans.begin(), spans.end(), [&](const Span& x, const Span& y) {
        if (!y.has_lo) return false;
        if (!x.has_lo) return true;
        return along(s, x.lo, y.lo) > 0;
    });
    bool reached_any = s.kind != PieceKind::Line;  // false while the reach is -infinity
    Vec2 reach = s.p;
    for (const Span& sp : spans) {
        if (sp.has_lo && (!reached_any || along(s, reach, sp.lo) > 0)) return false;  // a gap
        if (!sp.has_hi) return true;
        if (!reached_any || along(s, reach, sp.hi) > 0) reach = sp.hi;
        reached_any = true;
    }
    return s.kind == PieceKind::Segment && reached_any && along(s, s.q, reach) >= 0;
}

// Whether every piece is covered by its spans, given as (piece, span) pairs: a piece
// with none is not.
bool all_covered(const std::vector<Piece>& pieces, std::vector<std::pair<std::size_t, Span>>& spans) {
    std::sort(spans.begin(), spans.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<Span> own;
    std::size_t k = 0;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        own.clear();
        for (; k < spans.size() && spans[k].first == i; ++k) own.push_back(spans[k].second);
        if (own.empty() || !covers(pieces[i], own)) return false;
    }
    return true;
}

Topo linear_linear(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
    Topo t;
    // The shared pieces found, by piece: few pieces of a big polyline have any, so they are
    // kept as a list (one buffer per thread, reused) rather than a list for every piece.
    thread_local std::vector<std::pair<std::size_t, Span>> cover_a;
    thread_local std::vector<std::pair<std::size_t, Span>> cover_b;
    cover_a.clear();
    cover_b.clear();
    each_piece_pair(a, b, [&](std::size_t i, std::size_t j) {
        const Piece& pa = a.pieces()[i];
        const Piece& pb = b.pieces()[j];
        const PieceHit h = intersect(pa, pb);
        if (h.kind == PieceHit::None) return;
        t.intersects = true;
        if (h.kind == PieceHit::Point) {
            if (pts && h.representable) pts->push_back(h.point);
            if (!t.interiors) {
                // The meeting point is a boundary point of a or b exactly when one of
                // those lies on both pieces.
                bool on_bd = false;
                for (int k = 0; k < a.nbd && !on_bd; ++k) on_bd = on_piece(pa, a.bd[k]) && on_piece(pb, a.bd[k]);
                for (int k = 0; k < b.nbd && !on_bd; ++k) on_bd = on_piece(pa, b.bd[k]) && on_piece(pb, b.bd[k]);
                if (!on_bd) t.interiors = true;
            }
            return;
        }
        t.interiors = true;  // a shared piece of positive length
        if (pts) {
            if (h.has_lo) pts->push_back(h.lo);
            if (h.has_hi) pts->push_back(h.hi);
        }
        cover_a.emplace_back(i, Span{h.has_lo, h.has_hi, h.lo, h.hi});
        const PieceHit hb = intersect(pb, pa);
        cover_b.emplace_back(j, Span{hb.has_lo, hb.has_hi, hb.lo, hb.hi});
    });
    if (!t.intersects) return t;
    t.a_in_b = all_covered(a.pieces(), cover_a);
    t.b_in_a = all_covered(b.pieces(), cover_b);
    return t;
}

// near: a box holding the region, read when a has an index.
template <class Region>
Topo linear_region(const Geo& a, const Region& region, const Box& near, std::vector<Vec2>* pts) {
    Topo t;
    bool outside = false;
    ChainStart chain;  // a polyline's pieces far from a polygon are located once
    const std::size_t seen = each_edge_near(a, near, [&](std::size_t i) {
        const Piece& s = a.pieces()[i];
        PieceClass c;
        if constexpr (std::is_same_v<Region, PolygonRef>) {
            c = classify(s, region, pts, chain.of(i));
            if (s.kind == PieceKind::Segment) chain.after(i, c);
        } else {
            c = classify(s, region, pts);
        }
        t.intersects |= c.inside || c.boundary;
        t.interiors |= c.inside;
        outside |= c.outside;
        return true;
    });
    outside |= seen < a.pieces().size();  // a piece whose box misses the region's
    t.a_in_b = t.intersects && !outside;
    return t;
}

Topo linear_disk(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
    return linear_region(a, b.disk, a.index ? box_of(b.disk) : Box{}, pts);
}
Topo linear_polygon(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
    return linear_region(a, b.polygon(), a.index ? polygon_box(b) : Box{}, pts);
}

// ---- regions -----------------------------------------------------------------------------

Topo disk_disk(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
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
    if (pts) circle_circle_points(ca, cb, ext, in, *pts);
    return t;
}

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

Topo disk_polygon(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
    if (b.is_rect) return disk_rect(a, b, pts);
    Topo t;
    const Ring ring = b.ring();
    const int loc = locate_in(b.polygon(), a.disk.center);
    // An edge whose box misses the disk's lies farther than r from the centre.
    const Box near = b.index ? box_of(a.disk) : Box{};
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

Topo polygon_polygon(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
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
        const std::size_t seen = each_edge_near(from, from.index ? polygon_box(to) : Box{}, [&](std::size_t i) {
            if (points == nullptr && settled(acc)) return false;
            const PieceClass c = classify(ring.edge(i), target, points, chain.of(i));
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

// ---- capsules (capsule.cpp) ----------------------------------------------------------------

Topo point_capsule(const Geo& a, const Geo& b, std::vector<Vec2>* pts) { return detail::point_capsule(a.pt, b.capsule, pts); }
Topo linear_capsule(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
    return detail::pieces_capsule(a.pieces(), b.capsule, pts);
}
Topo disk_capsule(const Geo& a, const Geo& b, std::vector<Vec2>* pts) { return detail::disk_capsule(a.disk, b.capsule, pts); }
Topo polygon_capsule(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
    return detail::polygon_capsule(a.polygon(), b.capsule, pts);
}
Topo capsule_capsule(const Geo& a, const Geo& b, std::vector<Vec2>* pts) {
    return detail::capsule_capsule(a.capsule, b.capsule, pts);
}

// ---- dispatch ----------------------------------------------------------------------------

using PairTest = Topo (*)(const Geo&, const Geo&, std::vector<Vec2>*);

// Which algorithm decides each pair (rows a, columns b; the lower triangle mirrors):
//
//          | point        | linear           | disk              | polygon             | capsule
// ---------+--------------+------------------+-------------------+---------------------+------------------------
// point    | equality     | on a piece       | power             | crossing number     | dist(p, core) vs r
// linear   |              | piece x piece,   | piece vs circle   | piece vs polygon    | dist(piece, core) vs r
//          |              | shared spans     | (roots)           | (events, midpoints) | per piece
// disk     |              |                  | dist vs r1 +- r2  | clamp (rect), edge  | dist(c, core) vs R +- r
//          |              |                  |                   | distances, location | and ends vs R - r
// polygon  |              |                  |                   | rect bounds, or     | edge-core distances vs
//          |              |                  |                   | edges vs polygon    | r, location of a
// capsule  |              |                  |                   |                     | core-core vs r1 + r2,
//          |              |                  |                   |                     | ends vs r2 - r1
//
// The upper triangle of the kind-by-kind matrix; the lower one mirrors it.
constexpr PairTest kTests[5][5] = {
    {point_point, point_linear, point_disk, point_polygon, point_capsule},
    {nullptr, linear_linear, linear_disk, linear_polygon, linear_capsule},
    {nullptr, nullptr, disk_disk, disk_polygon, disk_capsule},
    {nullptr, nullptr, nullptr, polygon_polygon, polygon_capsule},
    {nullptr, nullptr, nullptr, nullptr, capsule_capsule},
};

Relation relation_of(const Topo& t) {
    if (t.a_in_b && t.b_in_a) return Relation::Equal;
    if (!t.interiors) return Relation::Touch;
    if (t.b_in_a) return Relation::Contains;
    if (t.a_in_b) return Relation::Within;
    return Relation::Overlap;
}

}  // namespace
}  // namespace detail

void detail::normalize_points(std::vector<Vec2>& pts) {
    for (Vec2& p : pts) p = Vec2{p.x + 0.0, p.y + 0.0};  // a computed -0 reads as 0
    std::sort(pts.begin(), pts.end());
    // Each point is its exact value correctly rounded, so a point found twice (a polygon
    // vertex on two edges) is the same double, and two different doubles are two points.
    pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
}

std::optional<Relation> detail::collide_simple(const Shape& a, const Shape& b, std::vector<Vec2>* points,
                                              const EdgeIndex* index_a, const EdgeIndex* index_b) {
    using namespace detail;
    const Geo ga = make_geo(a, index_a);
    const Geo gb = make_geo(b, index_b);
    // The points gather in a buffer per thread, reused, and are appended once normalized.
    thread_local std::vector<Vec2> pts;
    pts.clear();
    std::vector<Vec2>* out = points ? &pts : nullptr;
    const auto ka = static_cast<int>(ga.kind);
    const auto kb = static_cast<int>(gb.kind);
    const Topo t = ka <= kb ? kTests[ka][kb](ga, gb, out) : mirror(kTests[kb][ka](gb, ga, out));
    if (!t.intersects) return std::nullopt;
    if (points) {
        normalize_points(pts);
        points->insert(points->end(), pts.begin(), pts.end());
    }
    return relation_of(t);
}

std::optional<Contact> collide(const Shape& a, const Shape& b, bool want_points) {
    Contact c;
    // Big polygons and polylines are indexed for this one test: O(V) to build, where reading
    // every edge against every edge would be O(V^2).
    const std::unique_ptr<detail::EdgeIndex> ia = detail::may_be_big(a) ? detail::index_if_big(a) : nullptr;
    const std::unique_ptr<detail::EdgeIndex> ib = detail::may_be_big(b) ? detail::index_if_big(b) : nullptr;
    const auto* ca = std::get_if<Compound>(&a);
    const auto* cb = std::get_if<Compound>(&b);
    const std::unique_ptr<detail::PartIndex> pa = ca ? std::make_unique<detail::PartIndex>(*ca) : nullptr;
    const std::unique_ptr<detail::PartIndex> pb = cb ? std::make_unique<detail::PartIndex>(*cb) : nullptr;
    const std::optional<Relation> r = detail::collide_into(a, b, want_points ? &c.points : nullptr, {ia.get(), pa.get()},
                                                           {ib.get(), pb.get()}, {&c.parts_a, &c.parts_b});
    if (!r) return std::nullopt;
    c.relation = *r;
    return c;
}

Bounds bounds_of(const Shape& s) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    auto of_points = [](const std::vector<Vec2>& pts) {
        Bounds b{pts.empty() ? Vec2{} : pts[0], pts.empty() ? Vec2{} : pts[0]};
        for (const Vec2& p : pts) {
            b.min = Vec2{std::min(b.min.x, p.x), std::min(b.min.y, p.y)};
            b.max = Vec2{std::max(b.max.x, p.x), std::max(b.max.y, p.y)};
        }
        return b;
    };
    switch (type_of(s)) {
        case ShapeType::Point: return Bounds{std::get<Point>(s).at, std::get<Point>(s).at};
        case ShapeType::Circle: {
            const auto& c = std::get<Circle>(s);
            if (c.radius == 0.0) return Bounds{c.center, c.center};
            auto lo = [&](double v) { return std::nextafter(v - c.radius, -inf); };
            auto hi = [&](double v) { return std::nextafter(v + c.radius, inf); };
            return Bounds{Vec2{lo(c.center.x), lo(c.center.y)}, Vec2{hi(c.center.x), hi(c.center.y)}};
        }
        case ShapeType::Rect: return Bounds{std::get<Rect>(s).min, std::get<Rect>(s).max};
        case ShapeType::Segment: {
            const auto& g = std::get<Segment>(s);
            return Bounds{Vec2{std::min(g.a.x, g.b.x), std::min(g.a.y, g.b.y)},
                          Vec2{std::max(g.a.x, g.b.x), std::max(g.a.y, g.b.y)}};
        }
        case ShapeType::Line: {
            const auto& l = std::get<Line>(s);
            Bounds b{Vec2{-inf, -inf}, Vec2{inf, inf}};
            if (l.a.x == l.b.x) b.min.x = b.max.x = l.a.x;
            if (l.a.y == l.b.y) b.min.y = b.max.y = l.a.y;
            return b;
        }
        case ShapeType::Ray: {
            const auto& r = std::get<Ray>(s);
            Bounds b{r.origin, r.origin};
            if (r.direction.x > 0) b.max.x = inf;
            if (r.direction.x < 0) b.min.x = -inf;
            if (r.direction.y > 0) b.max.y = inf;
            if (r.direction.y < 0) b.min.y = -inf;
            return b;
        }
        case ShapeType::Polygon: return of_points(std::get<Polygon>(s).points);
        case ShapeType::Polyline: return of_points(std::get<Polyline>(s).points);
        case ShapeType::Capsule: {
            const auto& c = std::get<Capsule>(s);
            auto lo = [&](double u, double v) { return std::nextafter(std::min(u, v) - c.radius, -inf); };
            auto hi = [&](double u, double v) { return std::nextafter(std::max(u, v) + c.radius, inf); };
            return Bounds{Vec2{lo(c.a.x, c.b.x), lo(c.a.y, c.b.y)}, Vec2{hi(c.a.x, c.b.x), hi(c.a.y, c.b.y)}};
        }
        case ShapeType::Compound: {
            const auto& parts = std::get<Compound>(s).parts;
            Bounds b = parts.empty() ? Bounds{} : bounds_of(parts[0]);
            for (std::size_t i = 1; i < parts.size(); ++i) {
                const Bounds p = bounds_of(parts[i]);
                b.min = Vec2{std::min(b.min.x, p.min.x), std::min(b.min.y, p.min.y)};
                b.max = Vec2{std::max(b.max.x, p.max.x), std::max(b.max.y, p.max.y)};
            }
            return b;
        }
    }
    return Bounds{};
}

}  // namespace collide
