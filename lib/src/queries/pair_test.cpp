// The pairwise test: every shape is reduced to one of five geometric kinds (a point, a
// set of straight pieces, a disk, a polygon, a capsule: geometry/shape_geo.hpp), each
// unordered pair of kinds is written once, and the reversed pair mirrors the result. Here: the
// pairs with a point, the dispatch table and the public entry points; the pairs of straight pieces
// are in pair_test_pieces.cpp, those of regions in pair_test_regions.cpp, those with a
// capsule in capsule.cpp.
#include "collide/geometry.hpp"

#include "geometry/capsule.hpp"
#include "geometry/edge_index.hpp"
#include "geometry/pieces.hpp"
#include "queries/collide_into.hpp"
#include "queries/pair_geo.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>

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

Topo mirror(Topo t) {
    std::swap(t.a_in_b, t.b_in_a);
    return t;
}

// ---- point against anything ------------------------------------------------------------

Topo point_point(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch&) {
    Topo t;
    if (a.pt != b.pt) return t;
    t.intersects = t.interiors = t.a_in_b = t.b_in_a = true;
    if (pts) pts->push_back(a.pt);
    return t;
}

Topo point_linear(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch&) {
    Topo t;
    each_edge_near(b, Bounds{a.pt, a.pt}, [&](std::size_t i) {
        t.intersects = on_piece(b.pieces()[i], a.pt);
        return !t.intersects;
    });
    if (!t.intersects) return t;
    t.a_in_b = true;
    t.interiors = !b.in_boundary(a.pt);
    if (pts) pts->push_back(a.pt);
    return t;
}

Topo point_disk(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch&) {
    Topo t;
    const int p = power(b.disk, a.pt);
    if (p > 0) return t;
    t.intersects = t.a_in_b = true;
    t.interiors = p < 0;
    if (p == 0 && pts) pts->push_back(a.pt);
    return t;
}

Topo point_polygon(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch&) {
    Topo t;
    const int loc = locate_in(b.polygon(), a.pt);
    if (loc < 0) return t;
    t.intersects = t.a_in_b = true;
    t.interiors = loc > 0;
    if (loc == 0 && pts) pts->push_back(a.pt);
    return t;
}

// ---- capsules (capsule.cpp) ----------------------------------------------------------------

Topo point_capsule(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch&) { return detail::point_capsule(a.pt, b.capsule, pts); }
Topo linear_capsule(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch&) {
    return detail::pieces_capsule(a.pieces(), b.capsule, pts);
}
Topo disk_capsule(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch&) { return detail::disk_capsule(a.disk, b.capsule, pts); }
Topo polygon_capsule(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch&) {
    return detail::polygon_capsule(a.polygon(), b.capsule, pts);
}
Topo capsule_capsule(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch&) {
    return detail::capsule_capsule(a.capsule, b.capsule, pts);
}

// ---- dispatch ----------------------------------------------------------------------------

using PairTest = Topo (*)(const Geo&, const Geo&, std::vector<Vec2>*, Scratch&);

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
                                              GeoKeep keep_a, GeoKeep keep_b, Scratch& scratch) {
    // Nearly always both sides have what they keep, or need nothing: two views, nothing built.
    if (has_keep(a, keep_a) && has_keep(b, keep_b)) return collide_geos(make_geo(a, keep_a), make_geo(b, keep_b), points, scratch);
    return collide_geos(make_owned_geo(a, keep_a).geo, make_owned_geo(b, keep_b).geo, points, scratch);
}

std::optional<Relation> detail::collide_geos(const Geo& ga, const Geo& gb, std::vector<Vec2>* points, Scratch& scratch) {
    using namespace detail;
    // The points gather in the worker's buffer, reused, and are appended once normalized.
    std::vector<Vec2>& pts = scratch.points;
    pts.clear();
    std::vector<Vec2>* out = points ? &pts : nullptr;
    const auto ka = static_cast<int>(ga.kind);
    const auto kb = static_cast<int>(gb.kind);
    const Topo t = ka <= kb ? kTests[ka][kb](ga, gb, out, scratch) : mirror(kTests[kb][ka](gb, ga, out, scratch));
    if (!t.intersects) return std::nullopt;
    if (points) {
        normalize_points(pts);
        points->insert(points->end(), pts.begin(), pts.end());
    }
    return relation_of(t);
}

std::optional<Contact> collide(const Shape& a, const Shape& b, bool want_points) {
    Contact c;
    // What each side keeps is built for this one test (big polygons and polylines are
    // indexed: O(V) to build, where reading every edge against every edge would be O(V^2)).
    const detail::OwnedKeep ka = detail::keep_of(a);
    const detail::OwnedKeep kb = detail::keep_of(b);
    const auto* ca = std::get_if<Compound>(&a);
    const auto* cb = std::get_if<Compound>(&b);
    const std::unique_ptr<detail::PartIndex> pa = ca ? std::make_unique<detail::PartIndex>(*ca) : nullptr;
    const std::unique_ptr<detail::PartIndex> pb = cb ? std::make_unique<detail::PartIndex>(*cb) : nullptr;
    detail::Scratch scratch;
    const std::optional<Relation> r = detail::collide_into(a, b, want_points ? &c.points : nullptr,
                                                           {ka.index.get(), pa.get(), &ka.pieces},
                                                           {kb.index.get(), pb.get(), &kb.pieces}, scratch, {&c.parts_a, &c.parts_b});
    if (!r) return std::nullopt;
    c.relation = *r;
    return c;
}

Bounds bounds_of(const Shape& s) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    auto of_points = [](const std::vector<Vec2>& pts) { return detail::ring_bounds(detail::Ring{pts.data(), pts.size()}); };
    switch (type_of(s)) {
        case ShapeType::Point: return Bounds{std::get<Point>(s).at, std::get<Point>(s).at};
        case ShapeType::Circle: {
            const auto& c = std::get<Circle>(s);
            if (c.radius == 0.0) return Bounds{c.center, c.center};
            return detail::box_of(c);
        }
        case ShapeType::Rect: return Bounds{std::get<Rect>(s).min, std::get<Rect>(s).max};
        case ShapeType::Segment: return detail::segment_box(std::get<Segment>(s).a, std::get<Segment>(s).b);
        case ShapeType::Line: {  // tighter than a line piece's box: flat along an axis
            const auto& l = std::get<Line>(s);
            Bounds b{Vec2{-inf, -inf}, Vec2{inf, inf}};
            if (l.a.x == l.b.x) b.min.x = b.max.x = l.a.x;
            if (l.a.y == l.b.y) b.min.y = b.max.y = l.a.y;
            return b;
        }
        case ShapeType::Ray: return detail::box_of(detail::Piece{detail::PieceKind::Ray, std::get<Ray>(s).origin, std::get<Ray>(s).direction});
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
