// make_geo (geometry/shape_geo.hpp): every shape reduced once to its geometric kind, as SPEC
// §1.1 says each degenerates (a circle of radius 0 is a point, a rect of zero width a
// segment, a polyline of one point that point, a capsule of one centre a disk), keeping what
// the queries read besides the kind (the type it came from, a rect's own corners, the
// boundary of an open polyline, a big shape's edge index).
#include "geometry/shape_geo.hpp"

#include <doctest/doctest.h>

#include <variant>
#include <vector>

using namespace collide;
using collide::detail::GeoKind;
using collide::detail::make_geo;
using collide::detail::make_owned_geo;

TEST_CASE("make_geo: each shape type and what it degenerates to") {
    SUBCASE("a point, and a circle of radius 0, are a point") {
        CHECK(make_geo(Point{{1, 2}}).kind == GeoKind::Point);
        const auto g = make_geo(Circle{{3, 4}, 0.0});
        CHECK(g.kind == GeoKind::Point);
        CHECK(g.pt == Vec2{3, 4});
        CHECK(g.type == ShapeType::Circle);
        CHECK(g.disk.center == Vec2{3, 4});  // the circle it came from, for distance's fast path
    }
    SUBCASE("a circle is a disk") {
        const auto g = make_geo(Circle{{3, 4}, 2.0});
        CHECK(g.kind == GeoKind::Disk);
        CHECK(g.disk.radius == 2.0);
    }
    SUBCASE("a rect is the polygon of its corners, counter-clockwise from min") {
        const auto g = make_geo(Rect{{0, 0}, {2, 1}});
        REQUIRE(g.kind == GeoKind::Polygon);
        CHECK(g.is_rect);
        const detail::Ring r = g.ring();
        REQUIRE(r.n == 4);
        CHECK(r[0] == Vec2{0, 0});
        CHECK(r[1] == Vec2{2, 0});
        CHECK(r[2] == Vec2{2, 1});
        CHECK(r[3] == Vec2{0, 1});
    }
    SUBCASE("a rect of zero width is its segment, and keeps its rect") {
        const auto g = make_geo(Rect{{1, 0}, {1, 3}});
        REQUIRE(g.kind == GeoKind::Linear);
        REQUIRE(g.pieces().size() == 1);
        CHECK(g.pieces()[0].p == Vec2{1, 0});
        CHECK(g.pieces()[0].q == Vec2{1, 3});
        CHECK(g.nbd == 2);
        CHECK(g.type == ShapeType::Rect);
        CHECK(g.rect.max == Vec2{1, 3});
        CHECK(make_geo(Rect{{1, 1}, {1, 1}}).kind == GeoKind::Point);
    }
    SUBCASE("a segment of one point is the point") {
        CHECK(make_geo(Segment{{1, 1}, {1, 1}}).kind == GeoKind::Point);
        CHECK(make_geo(Segment{{1, 1}, {2, 1}}).kind == GeoKind::Linear);
    }
    SUBCASE("a line has no boundary, a ray its origin") {
        CHECK(make_geo(Line{{0, 0}, {1, 1}}).nbd == 0);
        const auto g = make_geo(Ray{{2, 3}, {1, 0}});
        REQUIRE(g.nbd == 1);
        CHECK(g.bd[0] == Vec2{2, 3});
        CHECK(g.pieces()[0].kind == detail::PieceKind::Ray);
    }
    SUBCASE("a polyline: its distinct pieces; open, its ends are its boundary; one point is a point") {
        const auto owned = make_owned_geo(Polyline{{{0, 0}, {1, 0}, {1, 0}, {1, 1}}});  // its pieces, kept
        const auto& open = owned.geo;
        REQUIRE(open.kind == GeoKind::Linear);
        CHECK(open.pieces().size() == 2);
        REQUIRE(open.nbd == 2);
        CHECK(open.bd[1] == Vec2{1, 1});
        CHECK(make_owned_geo(Polyline{{{0, 0}, {1, 0}, {0, 1}, {0, 0}}}).geo.nbd == 0);
        const auto one = make_owned_geo(Polyline{{{5, 5}, {5, 5}}}).geo;  // a point: views nothing
        CHECK(one.kind == GeoKind::Point);
        CHECK(one.type == ShapeType::Polyline);
    }
    SUBCASE("a capsule: of one centre a disk, of radius 0 its core") {
        CHECK(make_geo(Capsule{{0, 0}, {2, 0}, 1.0}).kind == GeoKind::Capsule);
        const auto disk = make_geo(Capsule{{1, 1}, {1, 1}, 2.0});
        CHECK(disk.kind == GeoKind::Disk);
        CHECK(disk.disk.radius == 2.0);
        CHECK(make_geo(Capsule{{0, 0}, {2, 0}, 0.0}).kind == GeoKind::Linear);
    }
    SUBCASE("a polygon views its points") {
        const Shape p = Polygon{{{0, 0}, {4, 0}, {0, 3}}};
        const auto g = make_geo(p);
        REQUIRE(g.kind == GeoKind::Polygon);
        CHECK(!g.is_rect);
        CHECK(g.ring().v == std::get<Polygon>(p).points.data());
        CHECK(g.index == nullptr);
    }
}

TEST_CASE("make_owned_geo: a big shape gets an edge index, a small one none") {
    std::vector<Vec2> ring;
    for (int i = 0; i < 80; ++i) ring.push_back(Vec2{static_cast<double>(i), static_cast<double>(i * i)});
    ring.push_back(Vec2{0, 10000});
    SUBCASE("a big polygon and a big polyline are read through their index") {
        const Shape shape = Polygon{ring};  // the Geo and its index view it
        const auto poly = make_owned_geo(shape);
        REQUIRE(poly.owned.index != nullptr);
        CHECK(poly.geo.index == poly.owned.index.get());
        const Shape line = Polyline{ring};
        const auto pl = make_owned_geo(line);
        REQUIRE(pl.geo.index != nullptr);
        CHECK(pl.geo.pieces().size() == ring.size() - 1);
    }
    SUBCASE("an index the caller has is used, not rebuilt") {
        const Shape poly = Polygon{ring};
        const auto index = detail::index_if_big(poly);
        const auto g = make_owned_geo(poly, {index.get(), nullptr});
        CHECK(g.owned.index == nullptr);
        CHECK(g.geo.index == index.get());
    }
    SUBCASE("a small shape has none") {
        const auto g = make_owned_geo(Polygon{{{0, 0}, {1, 0}, {0, 1}}});
        CHECK(g.owned.index == nullptr);
        CHECK(g.geo.index == nullptr);
    }
}
