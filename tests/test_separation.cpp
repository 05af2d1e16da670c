// separation() (SPEC §2.7): the minimum translation vector of two colliding convex shapes.
// Moving b by depth * normal leaves a and b touching, and no shorter move parts their
// interiors. Every expected value below is derived by hand from that definition: the depth
// is the least distance b must travel, the normal the way it travels (from a toward b), and
// among equal depths the direction at the smallest angle counter-clockwise from +x wins.
#include "collide/geometry.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <random>
#include <vector>

using collide::Capsule;
using collide::Circle;
using collide::Compound;
using collide::Line;
using collide::Point;
using collide::Polygon;
using collide::Polyline;
using collide::Ray;
using collide::Rect;
using collide::Relation;
using collide::Segment;
using collide::Separation;
using collide::Shape;
using collide::Vec2;

namespace {

// separation(a, b), which must exist.
Separation sep(const Shape& a, const Shape& b) {
    const std::optional<Separation> s = collide::separation(a, b);
    REQUIRE(s.has_value());
    return *s;
}

bool near(double x, double y) { return std::fabs(x - y) <= 1e-15 * std::max(1.0, std::fabs(y)); }

// b moved by d.
Shape moved(const Shape& b, Vec2 d) {
    auto p = [&](Vec2 v) { return Vec2{v.x + d.x, v.y + d.y}; };
    if (const auto* q = std::get_if<Point>(&b)) return Point{p(q->at)};
    if (const auto* c = std::get_if<Circle>(&b)) return Circle{p(c->center), c->radius};
    if (const auto* r = std::get_if<Rect>(&b)) return Rect{p(r->min), p(r->max)};
    if (const auto* g = std::get_if<Segment>(&b)) return Segment{p(g->a), p(g->b)};
    if (const auto* k = std::get_if<Capsule>(&b)) return Capsule{p(k->a), p(k->b), k->radius};
    Polygon out = std::get<Polygon>(b);
    for (Vec2& v : out.points) v = p(v);
    return out;
}

}  // namespace

TEST_CASE("separation: rects") {
    const Rect unit{{0, 0}, {1, 1}};
    SUBCASE("the issue's example: two unit squares overlapping by 0.25 on x") {
        const Separation s = sep(unit, Rect{{0.75, 0}, {1.75, 1}});
        CHECK(s.normal == Vec2{1, 0});
        CHECK(s.depth == 0.25);
        // Seen from the other side: a moves, so b's push is the opposite way.
        const Separation r = sep(Rect{{0.75, 0}, {1.75, 1}}, unit);
        CHECK(r.normal == Vec2{-1, 0});
        CHECK(r.depth == 0.25);
    }
    SUBCASE("the overlap is smaller on y: b is pushed up") {
        // b = [1, 3] x [3.5, 6] sticks 0.5 into a = [0, 4]^2 from above; sideways it would
        // travel 3 (left or right), down 6.
        const Separation s = sep(Rect{{0, 0}, {4, 4}}, Rect{{1, 3.5}, {3, 6}});
        CHECK(s.normal == Vec2{0, 1});
        CHECK(s.depth == 0.5);
    }
    SUBCASE("touching pairs have depth 0 along the shared edge's normal") {
        CHECK(sep(unit, Rect{{1, 0}, {2, 1}}).normal == Vec2{1, 0});
        CHECK(sep(unit, Rect{{1, 0}, {2, 1}}).depth == 0);
        CHECK(sep(unit, Rect{{0, 1}, {1, 2}}).normal == Vec2{0, 1});
        CHECK(sep(unit, Rect{{0, 1}, {1, 2}}).depth == 0);
    }
    SUBCASE("sharing a corner: +x and +y (and all between) tie, +x wins") {
        CHECK(sep(unit, Rect{{1, 1}, {2, 2}}).normal == Vec2{1, 0});
        CHECK(sep(unit, Rect{{1, 1}, {2, 2}}).depth == 0);
        // Mirrored, the tied directions run from -x to -y: -x is the first counter-clockwise.
        CHECK(sep(Rect{{1, 1}, {2, 2}}, unit).normal == Vec2{-1, 0});
        // b below-right of a: the tie is from -y (270 degrees) to +x (0): +x wins.
        CHECK(sep(unit, Rect{{1, -1}, {2, 0}}).normal == Vec2{1, 0});
        // b below-left: from 180 to 270 degrees: -x.
        CHECK(sep(unit, Rect{{-1, -1}, {0, 0}}).normal == Vec2{-1, 0});
    }
    SUBCASE("a depth of 0 is written +0, whatever the zeros' signs") {
        const Separation s = sep(Rect{{-1, 0}, {-0.0, 1}}, Rect{{0.0, 0}, {1, 1}});
        CHECK(s.normal == Vec2{1, 0});
        CHECK(s.depth == 0);
        CHECK_FALSE(std::signbit(s.depth));
    }
    SUBCASE("equal squares: all four sides tie at depth 1, +x wins") {
        CHECK(sep(unit, unit).normal == Vec2{1, 0});
        CHECK(sep(unit, unit).depth == 1);
    }
    SUBCASE("a zero-width rect is the segment it is") {
        // The segment x = 0.5, y in [-1, 2] crosses the square: out by 0.5 either way; +x wins.
        const Separation s = sep(unit, Rect{{0.5, -1}, {0.5, 2}});
        CHECK(s.normal == Vec2{1, 0});
        CHECK(s.depth == 0.5);
    }
}

TEST_CASE("separation: circles") {
    SUBCASE("3-4-5: the normal runs along the centres, the depth is r1 + r2 - |c2 - c1|") {
        const Separation s = sep(Circle{{0, 0}, 3}, Circle{{3, 4}, 3});
        CHECK(s.normal == Vec2{0.6, 0.8});  // 3/5 and 4/5, correctly rounded
        CHECK(s.depth == 1);
        const Separation r = sep(Circle{{3, 4}, 3}, Circle{{0, 0}, 3});
        CHECK(r.normal == Vec2{-0.6, -0.8});
        CHECK(r.depth == 1);
    }
    SUBCASE("far from the origin: the same answers, exactly") {
        const double o = 1e9;  // o + 3, o + 4 are doubles: the pair is the 3-4-5 one moved
        const Separation s = sep(Circle{{o, o}, 3}, Circle{{o + 3, o + 4}, 3});
        CHECK(s.normal == Vec2{0.6, 0.8});
        CHECK(s.depth == 1);
        // Near 1e300 the squares overflow every double: the exact path decides and rounds.
        const Separation h = sep(Circle{{0, 0}, 3e300}, Circle{{3e300, 4e300}, 3e300});
        CHECK(near(h.normal.x, 0.6));
        CHECK(near(h.normal.y, 0.8));
        CHECK(h.depth == doctest::Approx(1e300).epsilon(1e-15));
    }
    SUBCASE("concentric circles: every direction ties, +x wins") {
        const Separation s = sep(Circle{{1, 1}, 2}, Circle{{1, 1}, 1});
        CHECK(s.normal == Vec2{1, 0});
        CHECK(s.depth == 3);
    }
    SUBCASE("a circle inside a rect near its left side is pushed out through it") {
        // Centre 3 from the left side, radius 1: it travels 3 + 1 left (right: 7 + 1).
        const Separation s = sep(Rect{{0, 0}, {10, 10}}, Circle{{3, 5}, 1});
        CHECK(s.normal == Vec2{-1, 0});
        CHECK(s.depth == 4);
        // Crossing the left side: centre at 1, radius 2.
        CHECK(sep(Rect{{0, 0}, {10, 10}}, Circle{{1, 5}, 2}).depth == 3);
    }
    SUBCASE("a circle touching a rect's corner is pushed along corner -> centre, depth 0") {
        // Centre (-3, -4) is 5 from the corner (0, 0).
        const Separation s = sep(Rect{{0, 0}, {2, 2}}, Circle{{-3, -4}, 5});
        CHECK(s.normal == Vec2{-0.6, -0.8});
        CHECK(s.depth == 0);
    }
    SUBCASE("a circle overlapping a corner region: along corner -> centre, r - distance") {
        // Centre (-1, -1), radius 2: sqrt(2) from the corner (0, 0).
        const Separation s = sep(Rect{{0, 0}, {2, 2}}, Circle{{-1, -1}, 2});
        CHECK(near(s.normal.x, -std::sqrt(0.5)));
        CHECK(near(s.normal.y, -std::sqrt(0.5)));
        CHECK(near(s.depth, 2 - std::sqrt(2.0)));
    }
}

TEST_CASE("separation: polygons, capsules, segments and points") {
    const Polygon tri{{{0, 0}, {8, 0}, {0, 8}}};
    SUBCASE("a capsule overlapping a polygon's bottom edge is pushed down") {
        // Core (1, -1)-(3, -1), radius 1.5: its top side y = 0.5 is 0.5 above the edge y = 0.
        const Separation s = sep(tri, Capsule{{1, -1}, {3, -1}, 1.5});
        CHECK(s.normal == Vec2{0, -1});
        CHECK(s.depth == 0.5);
    }
    SUBCASE("a capsule whose cap reaches a polygon's corner is pushed away from the corner") {
        // Core end (9, -1) is sqrt(2) from the corner (8, 0); radius 1.5.
        const Separation s = sep(tri, Capsule{{9, -1}, {12, -1}, 1.5});
        CHECK(near(s.normal.x, std::sqrt(0.5)));
        CHECK(near(s.normal.y, -std::sqrt(0.5)));
        CHECK(near(s.depth, 1.5 - std::sqrt(2.0)));
    }
    SUBCASE("a point inside a polygon leaves through the nearest edge") {
        // (1, 3): 1 from x = 0, 3 from y = 0, 4 / sqrt(2) from x + y = 8.
        const Separation s = sep(tri, Point{{1, 3}});
        CHECK(s.normal == Vec2{-1, 0});
        CHECK(s.depth == 1);
        // The polygon moved instead: it goes right until its left edge passes the point.
        const Separation r = sep(Point{{1, 3}}, tri);
        CHECK(r.normal == Vec2{1, 0});
        CHECK(r.depth == 1);
        // Nearest the slanted edge: (3, 4) is 1 / sqrt(2) from x + y = 8.
        const Separation d = sep(tri, Point{{3, 4}});
        CHECK(near(d.normal.x, std::sqrt(0.5)));
        CHECK(near(d.normal.y, std::sqrt(0.5)));
        CHECK(near(d.depth, std::sqrt(0.5)));
    }
    SUBCASE("a segment crossing a polygon leaves sideways, the shorter way") {
        // x = 1 across the square [0, 4]^2: 1 to the left, 3 to the right, 5 up or down.
        const Separation s = sep(Polygon{{{0, 0}, {4, 0}, {4, 4}, {0, 4}}}, Segment{{1, -1}, {1, 5}});
        CHECK(s.normal == Vec2{-1, 0});
        CHECK(s.depth == 1);
    }
    SUBCASE("a box (a rotated polygon) against a rect overlapping its right tip") {
        // The diamond of corners (+-sqrt 2, 0), (0, +-sqrt 2) (as the doubles box_corners
        // gives them): the rect [1, 3] x [-0.5, 0.5] leaves by +x, max x - 1 (about 0.414);
        // along the slanted normals it would travel about 0.646.
        const std::vector<Vec2> box = collide::box_corners({0, 0}, {2, 2}, 45);
        double max_x = box[0].x;
        for (Vec2 v : box) max_x = std::max(max_x, v.x);
        const Separation s = sep(Polygon{box}, Rect{{1, -0.5}, {3, 0.5}});
        CHECK(s.normal == Vec2{1, 0});
        CHECK(s.depth == max_x - 1);  // exact: Sterbenz
    }
    SUBCASE("a point grazing a long capsule: a depth far below the radius, without cancellation") {
        // The axis from (-8, -8) to (2^-1074, 1e100) passes x = -8 + 8.25 * 8 / 1e100 at
        // y = 0.25 (to 1e-100 relative), so the point (2^-1074, 0.25) is 8 - 6.6e-99 from it.
        const Separation s = sep(Point{{0x1p-1074, 0.25}}, Capsule{{0x1p-1074, 1e100}, {-8, -8}, 8});
        CHECK(s.normal.x == -1);
        CHECK(s.depth == doctest::Approx(6.6e-99).epsilon(1e-12));
    }
    SUBCASE("a point on a segment: off either side at once, +y wins over -y") {
        CHECK(sep(Segment{{0, 0}, {2, 0}}, Point{{1, 0}}).normal == Vec2{0, 1});
        CHECK(sep(Segment{{0, 0}, {2, 0}}, Point{{1, 0}}).depth == 0);
        // At the segment's end the tied directions are every one with x >= 0: +x wins.
        CHECK(sep(Segment{{0, 0}, {2, 0}}, Point{{2, 0}}).normal == Vec2{1, 0});
        // Two equal points: every direction.
        CHECK(sep(Point{{5, 5}}, Point{{5, 5}}).normal == Vec2{1, 0});
        CHECK(sep(Point{{5, 5}}, Point{{5, 5}}).depth == 0);
    }
    SUBCASE("a polygon given clockwise is the same set") {
        const Separation s = sep(Polygon{{{0, 8}, {8, 0}, {0, 0}}}, Point{{1, 3}});
        CHECK(s.normal == Vec2{-1, 0});
        CHECK(s.depth == 1);
    }
}

TEST_CASE("separation: nothing for other kinds and for pairs apart") {
    const Rect r{{0, 0}, {4, 4}};
    CHECK_FALSE(collide::separation(r, Line{{0, 0}, {1, 1}}));
    CHECK_FALSE(collide::separation(Ray{{1, 1}, {1, 0}}, r));
    CHECK_FALSE(collide::separation(r, Polyline{{{1, 1}, {2, 2}}}));
    // An L-shaped (concave) polygon overlapping r.
    CHECK_FALSE(collide::separation(Polygon{{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}}, r));
    CHECK_FALSE(collide::separation(Compound{{Shape{Circle{{1, 1}, 1}}}}, r));
    // Apart: by a gap, diagonally past a corner, a circle just short of a corner.
    CHECK_FALSE(collide::separation(r, Rect{{5, 0}, {6, 1}}));
    CHECK_FALSE(collide::separation(r, Rect{{4.5, 4.5}, {6, 6}}));
    CHECK_FALSE(collide::separation(r, Circle{{7, 8}, 4.999999999999999}));
    CHECK(collide::separation(r, Circle{{7, 8}, 5}).has_value());  // touches (4, 4)
}

TEST_CASE("separation: moving b by the separation leaves the pair touching (random dyadic inputs)") {
    // Small integer coordinates and half-integer radii: every depth along an axis is a sum of
    // such values, so b + depth * normal is exact, and collide() can judge it exactly.
    std::mt19937 rng(16);
    auto coord = [&] { return static_cast<double>(std::uniform_int_distribution<int>(-6, 6)(rng)); };
    auto pos = [&] { return Vec2{coord(), coord()}; };
    auto shape = [&]() -> Shape {
        switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
            case 0: return Point{pos()};
            case 1: return Circle{pos(), std::uniform_int_distribution<int>(1, 8)(rng) / 2.0};
            case 2: {
                const Vec2 p = pos();
                const Vec2 q = pos();
                return Rect{{std::min(p.x, q.x), std::min(p.y, q.y)}, {std::max(p.x, q.x), std::max(p.y, q.y)}};
            }
            case 3: return Segment{pos(), pos()};
            case 4: return Capsule{pos(), pos(), std::uniform_int_distribution<int>(1, 8)(rng) / 2.0};
            default: {
                Polygon t{{pos(), pos(), pos()}};
                const Vec2 a = t.points[0], b = t.points[1], c = t.points[2];
                if ((b.x - a.x) * (c.y - a.y) == (b.y - a.y) * (c.x - a.x)) return Point{a};  // collinear
                return t;
            }
        }
    };
    int checked = 0;
    for (int round = 0; round < 4000; ++round) {
        const Shape a = shape();
        const Shape b = shape();
        const auto s = collide::separation(a, b);
        const auto c = collide::collide(a, b, false);
        REQUIRE(s.has_value() == c.has_value());
        if (!s) continue;
        CHECK(s->depth >= 0);
        CHECK(near(s->normal.x * s->normal.x + s->normal.y * s->normal.y, 1.0));
        const auto m = collide::separation(b, a);
        REQUIRE(m.has_value());
        CHECK(m->depth == s->depth);  // the same exact value, correctly rounded
        // Two rects take a fast path: the same answer as for the same sets spelled otherwise.
        const auto* ra = std::get_if<Rect>(&a);
        const auto* rb = std::get_if<Rect>(&b);
        if (ra && rb) {
            auto spelled = [](const Rect& r) -> Shape {  // the polygon, segment or point it is
                if (r.min == r.max) return Point{r.min};
                if (r.min.x == r.max.x || r.min.y == r.max.y) return Segment{r.min, r.max};
                return Polygon{{r.min, {r.max.x, r.min.y}, r.max, {r.min.x, r.max.y}}};
            };
            const auto g = collide::separation(spelled(*ra), spelled(*rb));
            REQUIRE(g.has_value());
            CHECK(g->normal == s->normal);
            CHECK(g->depth == s->depth);
        }
        const bool axis = (std::fabs(s->normal.x) == 1 && s->normal.y == 0) || (s->normal.x == 0 && std::fabs(s->normal.y) == 1);
        if (!axis) continue;
        ++checked;
        // Any move beyond the depth misses a altogether (the normal supports M = A - B there).
        const Vec2 beyond{(s->depth + 1) * s->normal.x, (s->depth + 1) * s->normal.y};
        CHECK_FALSE(collide::collide(a, moved(b, beyond), false));
        // A depth of 0 while the interiors meet is a pair without area (a point inside a
        // segment): any move, however short, parts them; moving by 0 changes nothing.
        if (s->depth == 0) continue;
        const Vec2 d{s->depth * s->normal.x, s->depth * s->normal.y};
        const auto out = collide::collide(a, moved(b, d), false);
        REQUIRE(out.has_value());
        CHECK(out->relation == Relation::Touch);
        // Half way (exact for these inputs), the interiors still meet.
        const auto in = collide::collide(a, moved(b, Vec2{0.5 * d.x, 0.5 * d.y}), false);
        REQUIRE(in.has_value());
        CHECK(in->relation != Relation::Touch);
    }
    CHECK(checked > 200);
}
