// make_geo: the one reduction of a shape to its geometric kind (shape_geo.hpp).
#include "geometry/shape_geo.hpp"

#include "support/assert.hpp"

#include <utility>

namespace collide::detail {

namespace {

void set_point(Geo& g, Vec2 p) {
    g.kind = GeoKind::Point;
    g.pt = p;
}

void set_piece(Geo& g, const Piece& s) {
    g.kind = GeoKind::Linear;
    g.one = s;
}

void set_segment(Geo& g, Vec2 a, Vec2 b) {
    if (a == b) return set_point(g, a);
    set_piece(g, Piece{PieceKind::Segment, a, b});
    g.bd = {a, b};
    g.nbd = 2;
}

void set_rect(Geo& g, const Rect& r) {
    g.rect = r;
    if (r.min.x == r.max.x || r.min.y == r.max.y) return set_segment(g, r.min, r.max);
    g.kind = GeoKind::Polygon;
    g.is_rect = true;
    g.corners = {r.min, Vec2{r.max.x, r.min.y}, r.max, Vec2{r.min.x, r.max.y}};
}

void set_polyline(Geo& g, const std::vector<Vec2>& pl, GeoKeep keep) {
    COLLIDE_ASSERT(keep.index || keep.pieces);  // keep_of made them
    g.kind = GeoKind::Linear;
    if (keep.index && keep.index->size() > 0) g.index = keep.index;
    else if (keep.pieces) g.kept = run_of(*keep.pieces);
    if (!g.index && g.kept.empty()) return set_point(g, pl.empty() ? Vec2{} : pl[0]);
    if (pl.front() != pl.back()) {  // open: its two ends are its boundary
        g.bd = {pl.front(), pl.back()};
        g.nbd = 2;
    }
}

void set_capsule(Geo& g, const Capsule& c) {
    if (c.radius == 0.0) return set_segment(g, c.a, c.b);
    if (c.a == c.b) {  // the disk (SPEC §1.1)
        g.kind = GeoKind::Disk;
        g.disk = Circle{c.a, c.radius};
        return;
    }
    g.kind = GeoKind::Capsule;
    g.capsule = CapsuleRef{Piece{PieceKind::Segment, c.a, c.b}, c.radius};
}

}  // namespace

OwnedKeep keep_of(const Shape& s) {
    OwnedKeep k;
    k.index = index_if_big(s);
    if (const auto* l = std::get_if<Polyline>(&s); l && !k.index) k.pieces = polyline_pieces(l->points);
    return k;
}

// A Geo is a view, made per query (shape_geo.hpp says why it is not stored): its common
// fields are cleared, the kind's own data set, and the Shape read, which the query reads
// anyway.
Geo make_geo(const Shape& shape, GeoKeep keep) {
    Geo g;
    g.type = type_of(shape);
    switch (g.type) {
        case ShapeType::Point: set_point(g, std::get<Point>(shape).at); break;
        case ShapeType::Circle: {
            g.disk = std::get<Circle>(shape);
            if (g.disk.radius == 0.0) set_point(g, g.disk.center);
            else g.kind = GeoKind::Disk;
            break;
        }
        case ShapeType::Rect: set_rect(g, std::get<Rect>(shape)); break;
        case ShapeType::Segment: set_segment(g, std::get<Segment>(shape).a, std::get<Segment>(shape).b); break;
        case ShapeType::Line: set_piece(g, Piece{PieceKind::Line, std::get<Line>(shape).a, std::get<Line>(shape).b}); break;
        case ShapeType::Ray:
            set_piece(g, Piece{PieceKind::Ray, std::get<Ray>(shape).origin, std::get<Ray>(shape).direction});
            g.bd[0] = std::get<Ray>(shape).origin;
            g.nbd = 1;
            break;
        case ShapeType::Polygon: {
            const auto& p = std::get<Polygon>(shape).points;
            g.kind = GeoKind::Polygon;
            g.poly_ring = Ring{p.data(), p.size()};
            g.index = keep.index;
            break;
        }
        case ShapeType::Polyline: set_polyline(g, std::get<Polyline>(shape).points, keep); break;
        case ShapeType::Capsule: set_capsule(g, std::get<Capsule>(shape)); break;
        case ShapeType::Compound: break;  // taken part by part
    }
    return g;
}

OwnedGeo make_owned_geo(const Shape& shape, GeoKeep keep) {
    if (has_keep(shape, keep)) return OwnedGeo{{}, make_geo(shape, keep)};
    OwnedKeep owned = keep_of(shape);
    const Geo g = make_geo(shape, owned.view());  // views the pieces' buffer, which moving keeps
    return OwnedGeo{std::move(owned), g};
}

}  // namespace collide::detail
