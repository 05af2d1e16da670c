// SceneIndexes (check/scene_indexes.hpp): the prepared form of each of a check's shapes, built
// once, gives the Geo that make_owned_geo gives the shape alone (kind, bounds, pieces), and
// only big shapes have something built.
#include "check/scene_indexes.hpp"

#include "geometry/shape_geo.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <vector>

using namespace collide;
using collide::detail::Geo;
using collide::detail::GeoKeep;
using collide::detail::GeoKind;

namespace {

// The box of what a Geo covers, from its kind alone (exact but for a disk's or capsule's).
Bounds geo_bounds(const Geo& g) {
    auto join = [](Bounds a, const Bounds& b) {
        a.min = Vec2{std::min(a.min.x, b.min.x), std::min(a.min.y, b.min.y)};
        a.max = Vec2{std::max(a.max.x, b.max.x), std::max(a.max.y, b.max.y)};
        return a;
    };
    switch (g.kind) {
        case GeoKind::Point: return Bounds{g.pt, g.pt};
        case GeoKind::Disk: return detail::box_of(g.disk);
        case GeoKind::Polygon: return detail::ring_bounds(g.ring());
        case GeoKind::Capsule: return detail::box_of(g.capsule.core);
        case GeoKind::Linear: {
            const detail::PieceRun p = g.pieces();
            Bounds b = detail::box_of(p[0]);
            for (const detail::Piece& s : p) b = join(b, detail::box_of(s));
            return b;
        }
    }
    return Bounds{};
}

bool same_pieces(const Geo& a, const Geo& b) {
    if (a.kind != GeoKind::Linear) return true;
    const detail::PieceRun pa = a.pieces(), pb = b.pieces();
    return std::equal(pa.begin(), pa.end(), pb.begin(), pb.end(), [](const detail::Piece& x, const detail::Piece& y) {
        return x.kind == y.kind && x.p == y.p && x.q == y.q;
    });
}

// The prepared Geo of a shape (or a part) against the one made for it alone.
void check_same(const Shape& s, GeoKeep keep) {
    const detail::OwnedGeo with_keep = detail::make_owned_geo(s, keep);  // builds nothing when keep is complete
    const Geo& prepared = with_keep.geo;
    const detail::OwnedGeo alone = detail::make_owned_geo(s);
    if (detail::has_keep(s, keep)) CHECK(with_keep.owned.index == nullptr);
    CHECK(prepared.kind == alone.geo.kind);
    CHECK(prepared.type == alone.geo.type);
    CHECK(prepared.nbd == alone.geo.nbd);
    CHECK((prepared.index != nullptr) == (alone.geo.index != nullptr));
    CHECK(same_pieces(prepared, alone.geo));
    const Bounds a = geo_bounds(prepared), b = geo_bounds(alone.geo);
    CHECK(a.min == b.min);
    CHECK(a.max == b.max);
}

std::vector<Vec2> zigzag(int n) {
    std::vector<Vec2> v;
    for (int i = 0; i < n; ++i) v.push_back(Vec2{static_cast<double>(i), static_cast<double>(i % 2)});
    return v;
}

}  // namespace

TEST_CASE("SceneIndexes: each shape type's prepared form is its make_geo") {
    std::vector<Vec2> big_ring = zigzag(100);
    big_ring.push_back(Vec2{0, 50});
    const std::vector<Shape> shapes = {
        Point{{1, 2}},
        Circle{{3, 4}, 2},
        Circle{{3, 4}, 0},
        Rect{{0, 0}, {2, 1}},
        Rect{{1, 0}, {1, 3}},
        Segment{{1, 1}, {2, 1}},
        Line{{0, 0}, {1, 1}},
        Ray{{2, 3}, {1, 0}},
        Polygon{{{0, 0}, {4, 0}, {0, 3}}},
        Polygon{big_ring},
        Polyline{{{0, 0}, {1, 0}, {1, 0}, {1, 1}}},
        Polyline{{{5, 5}, {5, 5}}},
        Polyline{zigzag(100)},
        Capsule{{0, 0}, {2, 0}, 1},
        Capsule{{1, 1}, {1, 1}, 2},
        Compound{{Circle{{0, 0}, 1}, Polyline{{{0, 0}, {3, 3}, {3, 0}}}, Polygon{big_ring}}},
    };
    std::vector<SceneShape> scene(shapes.size());
    for (std::size_t i = 0; i < shapes.size(); ++i) scene[i].shape = shapes[i];
    const detail::SceneIndexes indexes(scene);
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        CAPTURE(i);
        const Shape& s = scene[i].shape;
        const detail::Prepared p = indexes.prepared(i);
        if (const auto* c = std::get_if<Compound>(&s)) {
            REQUIRE(p.parts != nullptr);
            for (std::size_t k = 0; k < c->parts.size(); ++k) check_same(c->parts[k], p.part_keep(k));
            CHECK(p.part_keep(0).pieces == nullptr);  // a circle keeps nothing
            CHECK(p.part_keep(1).pieces == nullptr);  // nor a small polyline (its pieces: per query)
            CHECK(p.part_keep(2).index != nullptr);
            continue;
        }
        CHECK(detail::may_be_big(s) == (p.edges != nullptr));
        check_same(s, p.keep());
    }
    SUBCASE("built once: asked again, the same form") {
        CHECK(indexes.prepared(9).edges == indexes.prepared(9).edges);
        CHECK(indexes.prepared(12).edges == indexes.prepared(12).edges);
        CHECK(indexes.prepared(12).edges != nullptr);
    }
}
