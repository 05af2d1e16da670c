// collide() for every pair of the eight shape types, and bounds_of().
//
// Every scenario goes through collide_both_ways(), which also checks that the reversed call
// gives the mirrored relation and the same points, and that asking for no points changes
// nothing else. Relations and exact points (input vertices and ends) are compared exactly;
// computed crossings with near(), to the 1e-9 relative accuracy SPEC §2.3 promises.
// Property tests on random lattice shapes close the file: symmetry for any pair, and the rect
// fast paths agreeing with the general polygon code.
#include "collide/geometry.hpp"

#include "check/scene_indexes.hpp"
#include "geometry/edge_index.hpp"
#include "queries/collide_into.hpp"
#include "scene/simple_polygon.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using collide::Bounds;
using collide::Circle;
using collide::Contact;
using collide::Line;
using collide::Point;
using collide::Polygon;
using collide::Polyline;
using collide::Ray;
using collide::Rect;
using collide::Relation;
using collide::Segment;
using collide::Shape;
using collide::Vec2;
using collide::bounds_of;
using collide::mirrored;
using collide::relation_name;
using collide::type_of;

using Points = std::vector<Vec2>;

namespace doctest {
template <> struct StringMaker<Vec2> {
    static String convert(const Vec2& p) {
        std::ostringstream s;
        s.precision(17);
        s << '(' << p.x << ", " << p.y << ')';
        return s.str().c_str();
    }
};
template <> struct StringMaker<Points> {
    static String convert(const Points& ps) {
        String s = "[";
        for (std::size_t i = 0; i < ps.size(); ++i) s += (i ? " " : "") + StringMaker<Vec2>::convert(ps[i]);
        return s + "]";
    }
};
template <> struct StringMaker<Relation> {
    static String convert(Relation r) { return String(relation_name(r).data(), static_cast<unsigned>(relation_name(r).size())); }
};
}  // namespace doctest

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Computed points agree with the expected ones to 1e-9 of the largest magnitude involved.
void check_near(const Points& actual, const Points& expected) {
    REQUIRE_MESSAGE(actual.size() == expected.size(), "actual points: ", actual);
    double scale = 1.0;
    for (const Vec2& p : expected) scale = std::max({scale, std::fabs(p.x), std::fabs(p.y)});
    for (std::size_t i = 0; i < actual.size(); ++i) {
        CHECK(actual[i].x == doctest::Approx(expected[i].x).epsilon(1e-9).scale(scale));
        CHECK(actual[i].y == doctest::Approx(expected[i].y).epsilon(1e-9).scale(scale));
    }
}
void near(const std::optional<Contact>& c, const Points& expected) {
    REQUIRE(c);
    check_near(c->points, expected);
}

// collide(a, b), once collide(b, a) is checked to mirror it (contains <-> within, the same
// points) and collide(a, b, false) to agree without points.
std::optional<Contact> collide_both_ways(const Shape& a, const Shape& b) {
    const std::optional<Contact> ab = collide::collide(a, b);
    const std::optional<Contact> ba = collide::collide(b, a);
    const std::optional<Contact> bare = collide::collide(a, b, false);
    CHECK(ab.has_value() == ba.has_value());
    CHECK(ab.has_value() == bare.has_value());
    if (ab && ba) {
        CHECK(ba->relation == mirrored(ab->relation));
        check_near(ba->points, ab->points);
    }
    if (ab && bare) {
        CHECK(bare->relation == ab->relation);
        CHECK(bare->points.empty());
    }
    return ab;
}

// A concave "U": two legs (x in [0, 2] and [4, 6]) on a base (y in [0, 2]); the notch
// between the legs, x in (2, 4) and y in (2, 6], is outside.
const Polygon kU{{{0, 0}, {6, 0}, {6, 6}, {4, 6}, {4, 2}, {2, 2}, {2, 6}, {0, 6}}};

// An open L-shaped polyline: its ends (0, 0) and (4, 4) are its boundary.
const Polyline kOpenL{{{0, 0}, {4, 0}, {4, 4}}};
// The same path closed into a triangle: it has no boundary points.
const Polyline kClosedTriangle{{{0, 0}, {4, 0}, {4, 4}, {0, 0}}};

}  // namespace

TEST_CASE("point against point") {
    SUBCASE("same position: equal") {
        const auto c = collide_both_ways(Point{{1, 2}}, Point{{1, 2}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Equal);
        CHECK(c->points == Points{{1, 2}});
    }
    SUBCASE("one ulp apart: no collision") {
        CHECK_FALSE(collide_both_ways(Point{{1, 2}}, Point{{1, std::nextafter(2.0, 3.0)}}));
    }
}

TEST_CASE("point against circle") {
    const Circle circle{{0, 0}, 5};
    SUBCASE("inside: within, no outline points") {
        const auto c = collide_both_ways(Point{{1, 1}}, circle);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points.empty());
    }
    SUBCASE("on the circle (3-4-5): touch") {
        const auto c = collide_both_ways(Point{{3, 4}}, circle);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{3, 4}});
    }
    SUBCASE("seen from the circle: contains") {
        const auto c = collide::collide(circle, Point{{1, 1}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
    }
    SUBCASE("outside") { CHECK_FALSE(collide_both_ways(Point{{4, 4}}, circle)); }
}

TEST_CASE("point against rect") {
    const Rect rect{{0, 0}, {4, 4}};
    SUBCASE("inside: within") {
        const auto c = collide_both_ways(Point{{1, 1}}, rect);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points.empty());
    }
    SUBCASE("exactly on an edge: touch") {
        const auto c = collide_both_ways(Point{{4, 2.5}}, rect);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{4, 2.5}});
    }
    SUBCASE("on a corner: touch") {
        const auto c = collide_both_ways(Point{{0, 0}}, rect);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{0, 0}});
    }
    SUBCASE("one ulp outside an edge") { CHECK_FALSE(collide_both_ways(Point{{std::nextafter(4.0, 5.0), 2}}, rect)); }
}

TEST_CASE("point against segment") {
    const Segment seg{{0, 0}, {4, 4}};
    SUBCASE("on its interior: within") {
        const auto c = collide_both_ways(Point{{1.5, 1.5}}, seg);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points == Points{{1.5, 1.5}});
    }
    SUBCASE("at an end: touch") {
        const auto c = collide_both_ways(Point{{4, 4}}, seg);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{4, 4}});
    }
    SUBCASE("on its line, past the end") { CHECK_FALSE(collide_both_ways(Point{{5, 5}}, seg)); }
    SUBCASE("one ulp beside it") { CHECK_FALSE(collide_both_ways(Point{{2, std::nextafter(2.0, 3.0)}}, seg)); }
}

TEST_CASE("point against line") {
    const Line line{{0, 0}, {1, 1}};
    SUBCASE("far beyond the defining points: within (a line has no ends)") {
        const auto c = collide_both_ways(Point{{-100, -100}}, line);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points == Points{{-100, -100}});
    }
    SUBCASE("off the line") { CHECK_FALSE(collide_both_ways(Point{{100, 101}}, line)); }
}

TEST_CASE("point against ray") {
    const Ray ray{{1, 1}, {1, 0}};
    SUBCASE("at the origin: touch") {
        const auto c = collide_both_ways(Point{{1, 1}}, ray);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{1, 1}});
    }
    SUBCASE("far along: within") {
        const auto c = collide_both_ways(Point{{1e6, 1}}, ray);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points == Points{{1e6, 1}});
    }
    SUBCASE("behind the origin") { CHECK_FALSE(collide_both_ways(Point{{0, 1}}, ray)); }
}

TEST_CASE("point against polygon (concave)") {
    SUBCASE("in the notch: outside") { CHECK_FALSE(collide_both_ways(Point{{3, 4}}, kU)); }
    SUBCASE("in a leg: within") {
        const auto c = collide_both_ways(Point{{1, 5}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points.empty());
    }
    SUBCASE("on the notch floor: touch") {
        const auto c = collide_both_ways(Point{{3, 2}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{3, 2}});
    }
    SUBCASE("at a reflex vertex: touch") {
        const auto c = collide_both_ways(Point{{4, 2}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{4, 2}});
    }
    SUBCASE("level with a vertex, right of the polygon") { CHECK_FALSE(collide_both_ways(Point{{7, 6}}, kU)); }
    SUBCASE("level with the notch floor: inside each leg, outside beyond them") {
        CHECK(collide_both_ways(Point{{1, 2}}, kU)->relation == Relation::Within);
        CHECK(collide_both_ways(Point{{5, 2}}, kU)->relation == Relation::Within);
        CHECK_FALSE(collide_both_ways(Point{{-1, 2}}, kU));
        CHECK_FALSE(collide_both_ways(Point{{7, 2}}, kU));
    }
}

TEST_CASE("point against polyline") {
    SUBCASE("at an end of an open polyline: touch") {
        const auto c = collide_both_ways(Point{{0, 0}}, kOpenL);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{0, 0}});
    }
    SUBCASE("at an inner vertex: within") {
        const auto c = collide_both_ways(Point{{4, 0}}, kOpenL);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points == Points{{4, 0}});
    }
    SUBCASE("at the first point of a closed polyline: within (no boundary)") {
        const auto c = collide_both_ways(Point{{0, 0}}, kClosedTriangle);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points == Points{{0, 0}});
    }
    SUBCASE("inside the closed polyline's loop: a polyline is only its curve") {
        CHECK_FALSE(collide_both_ways(Point{{3, 1}}, kClosedTriangle));
    }
}

TEST_CASE("circle against circle") {
    SUBCASE("tutorial: exactly r1 + r2 apart, touch at one point") {
        const auto c = collide_both_ways(Circle{{0, 0}, 3}, Circle{{5, 0}, 2});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        near(c, {{3, 0}});
    }
    SUBCASE("3-4-5 diagonal, exactly r1 + r2 apart: touch") {
        const auto c = collide_both_ways(Circle{{0, 0}, 2}, Circle{{3, 4}, 3});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        near(c, {{1.2, 1.6}});
    }
    SUBCASE("crossing: overlap at two points") {
        const auto c = collide_both_ways(Circle{{0, 0}, 5}, Circle{{6, 0}, 5});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{3, -4}, {3, 4}});
    }
    SUBCASE("one inside the other: contains") {
        const auto c = collide_both_ways(Circle{{0, 0}, 5}, Circle{{1, 0}, 2});
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points.empty());
    }
    SUBCASE("inside and tangent: contains, one point") {
        const auto c = collide_both_ways(Circle{{0, 0}, 5}, Circle{{3, 0}, 2});
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        near(c, {{5, 0}});
    }
    SUBCASE("concentric, the smaller first: within, no points") {
        const auto c = collide_both_ways(Circle{{0, 0}, 2}, Circle{{0, 0}, 5});
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points.empty());
    }
    SUBCASE("identical: equal, no points") {
        const auto c = collide_both_ways(Circle{{1, 1}, 2}, Circle{{1, 1}, 2});
        REQUIRE(c);
        CHECK(c->relation == Relation::Equal);
        CHECK(c->points.empty());
    }
    SUBCASE("apart") { CHECK_FALSE(collide_both_ways(Circle{{0, 0}, 1}, Circle{{3, 0}, 1})); }
}

TEST_CASE("circle against rect") {
    const Circle circle{{0, 0}, 5};
    SUBCASE("an edge tangent to the circle: touch") {
        const auto c = collide_both_ways(circle, Rect{{5, -1}, {6, 1}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        near(c, {{5, 0}});
    }
    SUBCASE("a corner on the circle: touch") {
        const auto c = collide_both_ways(circle, Rect{{3, 4}, {6, 8}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{3, 4}});
    }
    SUBCASE("inscribed in a square: within, touching each side") {
        const auto c = collide_both_ways(Circle{{0, 0}, 1}, Rect{{-1, -1}, {1, 1}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        near(c, {{-1, 0}, {0, -1}, {0, 1}, {1, 0}});
    }
    SUBCASE("rect inside: contains") {
        const auto c = collide_both_ways(circle, Rect{{-3, -3}, {3, 3}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points.empty());
    }
    SUBCASE("rect with its corners on the circle: contains, the corners") {
        const auto c = collide_both_ways(circle, Rect{{-3, -4}, {3, 4}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points == Points{{-3, -4}, {-3, 4}, {3, -4}, {3, 4}});
    }
    SUBCASE("crossing an edge: overlap") {
        const auto c = collide_both_ways(circle, Rect{{3, -10}, {10, 10}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{3, -4}, {3, 4}});
    }
    SUBCASE("corner inside the circle's bounding box but outside the circle") {
        CHECK_FALSE(collide_both_ways(Circle{{0, 0}, 1}, Rect{{0.8, 0.8}, {2, 2}}));
    }
}

TEST_CASE("circle against segment") {
    const Circle circle{{0, 0}, 5};
    SUBCASE("a chord through it: overlap at two points") {
        const auto c = collide_both_ways(circle, Segment{{-10, 3}, {10, 3}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{-4, 3}, {4, 3}});
    }
    SUBCASE("tangent: touch") {
        const auto c = collide_both_ways(circle, Segment{{-10, 5}, {10, 5}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        near(c, {{0, 5}});
    }
    SUBCASE("inside: contains") {
        const auto c = collide_both_ways(circle, Segment{{-1, 0}, {1, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points.empty());
    }
    SUBCASE("ends on the circle: contains, its ends") {
        const auto c = collide_both_ways(circle, Segment{{-3, -4}, {3, 4}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points == Points{{-3, -4}, {3, 4}});
    }
    SUBCASE("from the centre out: overlap at one point") {
        const auto c = collide_both_ways(circle, Segment{{0, 0}, {10, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{5, 0}});
    }
    SUBCASE("ends short of the circle") { CHECK_FALSE(collide_both_ways(circle, Segment{{6, 0}, {10, 0}})); }
    SUBCASE("passes by") { CHECK_FALSE(collide_both_ways(circle, Segment{{-10, 6}, {10, 6}})); }
}

TEST_CASE("circle against line (tutorial: 0, 1 or 2 points)") {
    const Circle circle{{0, 0}, 5};
    SUBCASE("two points: overlap") {
        const auto c = collide_both_ways(circle, Line{{0, 3}, {1, 3}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{-4, 3}, {4, 3}});
    }
    SUBCASE("one point, tangent: touch") {
        const auto c = collide_both_ways(circle, Line{{0, 5}, {1, 5}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        near(c, {{0, 5}});
    }
    SUBCASE("no point") { CHECK_FALSE(collide_both_ways(circle, Line{{0, 6}, {1, 6}})); }
    SUBCASE("diagonal through the centre") {
        const double h = std::sqrt(0.5);
        near(collide_both_ways(Circle{{0, 0}, 1}, Line{{0, 0}, {1, 1}}), {{-h, -h}, {h, h}});
    }
}

TEST_CASE("circle against ray") {
    const Circle circle{{0, 0}, 5};
    SUBCASE("starts at the centre: overlap, one point") {
        const auto c = collide_both_ways(circle, Ray{{0, 0}, {1, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{5, 0}});
    }
    SUBCASE("starts on the circle, points away: touch") {
        const auto c = collide_both_ways(circle, Ray{{5, 0}, {1, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{5, 0}});
    }
    SUBCASE("passes through: overlap, two points") {
        const auto c = collide_both_ways(circle, Ray{{-10, 0}, {1, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{-5, 0}, {5, 0}});
    }
    SUBCASE("tangent: touch") {
        const auto c = collide_both_ways(circle, Ray{{-10, 5}, {1, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        near(c, {{0, 5}});
    }
    SUBCASE("points away") { CHECK_FALSE(collide_both_ways(circle, Ray{{-10, 0}, {-1, 0}})); }
}

TEST_CASE("circle against polygon (concave)") {
    SUBCASE("in the notch, clear of its walls") { CHECK_FALSE(collide_both_ways(Circle{{3, 4}, 0.5}, kU)); }
    SUBCASE("filling the notch, touching three walls: touch") {
        const auto c = collide_both_ways(Circle{{3, 3}, 1}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        near(c, {{2, 3}, {3, 2}, {4, 3}});
    }
    SUBCASE("inside a leg: within") {
        const auto c = collide_both_ways(Circle{{1, 1}, 0.5}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points.empty());
    }
    SUBCASE("around the whole polygon: contains") {
        const auto c = collide_both_ways(Circle{{3, 3}, 10}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points.empty());
    }
    SUBCASE("outside, touching a corner (3-4-5): touch") {
        const auto c = collide_both_ways(Circle{{9, 10}, 5}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{6, 6}});
    }
    SUBCASE("centred on a reflex vertex: overlap") {
        const auto c = collide_both_ways(Circle{{2, 2}, 0.5}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{2, 2.5}, {2.5, 2}});
    }
    SUBCASE("across the outer wall: overlap") {
        const auto c = collide_both_ways(Circle{{0, 4}, 1}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{0, 3}, {0, 5}});
    }
}

TEST_CASE("circle against polyline") {
    SUBCASE("closed diamond inscribed: contains, its vertices") {
        const Polyline diamond{{{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 0}}};
        const auto c = collide_both_ways(Circle{{0, 0}, 1}, diamond);
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points == Points{{-1, 0}, {0, -1}, {0, 1}, {1, 0}});
    }
    SUBCASE("an open end on the circle from outside: touch") {
        const auto c = collide_both_ways(Circle{{0, 0}, 5}, Polyline{{{10, 0}, {5, 0}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{5, 0}});
    }
    SUBCASE("through the centre and out: overlap") {
        const auto c = collide_both_ways(Circle{{0, 0}, 5}, Polyline{{{-10, 0}, {0, 0}, {0, 10}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{-5, 0}, {0, 5}});
    }
}

TEST_CASE("rect against rect") {
    const Rect square{{0, 0}, {4, 4}};
    SUBCASE("identical: equal, the four corners") {
        const auto c = collide_both_ways(square, square);
        REQUIRE(c);
        CHECK(c->relation == Relation::Equal);
        CHECK(c->points == Points{{0, 0}, {0, 4}, {4, 0}, {4, 4}});
    }
    SUBCASE("one fully inside the other: contains, and within seen from the inner one") {
        const Rect outer{{0, 0}, {10, 10}};
        const Rect inner{{2, 2}, {4, 4}};
        const auto c = collide_both_ways(outer, inner);
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points.empty());
        CHECK(collide::collide(inner, outer)->relation == Relation::Within);
    }
    SUBCASE("inside, flush with a side: contains, the shared piece's ends") {
        const auto c = collide_both_ways(Rect{{0, 0}, {10, 10}}, Rect{{0, 2}, {4, 4}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points == Points{{0, 2}, {0, 4}});
    }
    SUBCASE("side by side sharing part of an edge: touch") {
        const auto c = collide_both_ways(square, Rect{{4, 1}, {8, 3}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{4, 1}, {4, 3}});
    }
    SUBCASE("corner to corner: touch") {
        const auto c = collide_both_ways(square, Rect{{4, 4}, {8, 8}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{4, 4}});
    }
    SUBCASE("overlapping corners: overlap") {
        const auto c = collide_both_ways(square, Rect{{2, 2}, {6, 6}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{2, 4}, {4, 2}});
    }
    SUBCASE("a cross, no corner inside the other: overlap") {
        const auto c = collide_both_ways(Rect{{0, 2}, {6, 4}}, Rect{{2, 0}, {4, 6}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{2, 2}, {2, 4}, {4, 2}, {4, 4}});
    }
    SUBCASE("one ulp apart") {
        CHECK_FALSE(collide_both_ways(square, Rect{{std::nextafter(4.0, 5.0), 0}, {8, 4}}));
    }
}

TEST_CASE("rect against segment") {
    const Rect rect{{0, 0}, {4, 4}};
    SUBCASE("along an edge: touch, its ends") {
        const auto c = collide_both_ways(rect, Segment{{1, 0}, {3, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{1, 0}, {3, 0}});
    }
    SUBCASE("along an edge and beyond: touch, the shared piece's ends") {
        const auto c = collide_both_ways(rect, Segment{{-2, 0}, {6, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{0, 0}, {4, 0}});
    }
    SUBCASE("crossing: overlap") {
        const auto c = collide_both_ways(rect, Segment{{-1, 2}, {5, 2}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{0, 2}, {4, 2}});
    }
    SUBCASE("inside: contains") {
        const auto c = collide_both_ways(rect, Segment{{1, 1}, {3, 3}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points.empty());
    }
    SUBCASE("corner to corner: contains, both corners") {
        const auto c = collide_both_ways(rect, Segment{{0, 0}, {4, 4}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points == Points{{0, 0}, {4, 4}});
    }
    SUBCASE("outside") { CHECK_FALSE(collide_both_ways(rect, Segment{{5, 0}, {5, 4}})); }
}

TEST_CASE("rect against line") {
    const Rect rect{{0, 0}, {4, 4}};
    SUBCASE("along an edge: touch, the edge's ends") {
        const auto c = collide_both_ways(rect, Line{{0, 0}, {1, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{0, 0}, {4, 0}});
    }
    SUBCASE("through the middle: overlap") {
        const auto c = collide_both_ways(rect, Line{{0, 2}, {1, 2}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{0, 2}, {4, 2}});
    }
    SUBCASE("through two corners: overlap, exactly the corners") {
        const auto c = collide_both_ways(rect, Line{{-1, -1}, {9, 9}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        CHECK(c->points == Points{{0, 0}, {4, 4}});
    }
    SUBCASE("through one corner only: touch") {
        const auto c = collide_both_ways(rect, Line{{0, 8}, {8, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{4, 4}});
    }
    SUBCASE("misses") { CHECK_FALSE(collide_both_ways(rect, Line{{0, 5}, {1, 5}})); }
}

TEST_CASE("rect against ray") {
    const Rect rect{{0, 0}, {4, 4}};
    SUBCASE("starts inside: overlap, one point") {
        const auto c = collide_both_ways(rect, Ray{{2, 2}, {1, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{4, 2}});
    }
    SUBCASE("starts at a corner, points away: touch") {
        const auto c = collide_both_ways(rect, Ray{{4, 4}, {1, 1}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{4, 4}});
    }
    SUBCASE("along an edge from its middle: touch, the shared piece's ends") {
        const auto c = collide_both_ways(rect, Ray{{2, 0}, {1, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{2, 0}, {4, 0}});
    }
    SUBCASE("passes through: overlap, two points") {
        const auto c = collide_both_ways(rect, Ray{{-5, 2}, {1, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{0, 2}, {4, 2}});
    }
    SUBCASE("points away") { CHECK_FALSE(collide_both_ways(rect, Ray{{5, 2}, {1, 0}})); }
}

TEST_CASE("rect against polygon") {
    SUBCASE("the same point set, clockwise from another corner: equal") {
        const auto c = collide_both_ways(Rect{{0, 0}, {4, 4}}, Polygon{{{0, 4}, {4, 4}, {4, 0}, {0, 0}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Equal);
        CHECK(c->points == Points{{0, 0}, {0, 4}, {4, 0}, {4, 4}});
    }
    SUBCASE("filling the notch: touch along three walls") {
        const auto c = collide_both_ways(Rect{{2, 2}, {4, 6}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{2, 2}, {2, 6}, {4, 2}, {4, 6}});
    }
    SUBCASE("in the notch, clear") { CHECK_FALSE(collide_both_ways(Rect{{2.5, 3}, {3.5, 5}}, kU)); }
    SUBCASE("inside a leg: within") {
        const auto c = collide_both_ways(Rect{{0.5, 0.5}, {1.5, 5}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points.empty());
    }
    SUBCASE("across the notch: overlap") {
        const auto c = collide_both_ways(Rect{{1, 3}, {5, 4}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{2, 3}, {2, 4}, {4, 3}, {4, 4}});
    }
}

TEST_CASE("rect against polyline") {
    const Rect rect{{0, 0}, {4, 4}};
    SUBCASE("closed polyline along the outline: touch (interiors do not meet)") {
        const auto c = collide_both_ways(rect, Polyline{{{0, 0}, {4, 0}, {4, 4}, {0, 4}, {0, 0}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{0, 0}, {0, 4}, {4, 0}, {4, 4}});
    }
    SUBCASE("in and out: overlap") {
        const auto c = collide_both_ways(rect, Polyline{{{-1, 1}, {2, 1}, {2, 5}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{0, 1}, {2, 4}});
    }
    SUBCASE("inside, ending on an edge: contains") {
        const auto c = collide_both_ways(rect, Polyline{{{1, 1}, {3, 1}, {3, 4}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points == Points{{3, 4}});
    }
}

TEST_CASE("segment against segment") {
    SUBCASE("tutorial: an X crossing, overlap at the crossing") {
        const auto c = collide_both_ways(Segment{{0, 0}, {4, 4}}, Segment{{0, 4}, {4, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{2, 2}});
    }
    SUBCASE("a T, an end on the other's interior: touch") {
        const auto c = collide_both_ways(Segment{{0, 0}, {4, 0}}, Segment{{2, 0}, {2, 3}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{2, 0}});
    }
    SUBCASE("collinear and overlapping: overlap, the shared piece's two ends") {
        const auto c = collide_both_ways(Segment{{0, 0}, {4, 0}}, Segment{{6, 0}, {2, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        CHECK(c->points == Points{{2, 0}, {4, 0}});
    }
    SUBCASE("collinear diagonal, overlapping") {
        const auto c = collide_both_ways(Segment{{0, 0}, {3, 3}}, Segment{{1, 1}, {5, 5}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        CHECK(c->points == Points{{1, 1}, {3, 3}});
    }
    SUBCASE("collinear, end to end: touch") {
        const auto c = collide_both_ways(Segment{{0, 0}, {2, 0}}, Segment{{2, 0}, {4, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{2, 0}});
    }
    SUBCASE("collinear, one inside the other: contains") {
        const auto c = collide_both_ways(Segment{{0, 0}, {6, 0}}, Segment{{2, 0}, {4, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points == Points{{2, 0}, {4, 0}});
    }
    SUBCASE("identical, opposite directions: equal") {
        const auto c = collide_both_ways(Segment{{0, 0}, {4, 4}}, Segment{{4, 4}, {0, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Equal);
        CHECK(c->points == Points{{0, 0}, {4, 4}});
    }
    SUBCASE("collinear with a gap") { CHECK_FALSE(collide_both_ways(Segment{{0, 0}, {1, 0}}, Segment{{2, 0}, {3, 0}})); }
    SUBCASE("parallel") { CHECK_FALSE(collide_both_ways(Segment{{0, 0}, {4, 0}}, Segment{{0, 1}, {4, 1}})); }
}

TEST_CASE("segment against line") {
    const Line horizontal{{-1, 0}, {1, 0}};
    SUBCASE("crossing: overlap") {
        const auto c = collide_both_ways(Segment{{1, -1}, {3, 3}}, horizontal);
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{1.5, 0}});
    }
    SUBCASE("lying on the line: within, its ends") {
        const auto c = collide_both_ways(Segment{{5, 0}, {7, 0}}, horizontal);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points == Points{{5, 0}, {7, 0}});
    }
    SUBCASE("ending on the line: touch") {
        const auto c = collide_both_ways(Segment{{0, 0}, {0, 5}}, horizontal);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{0, 0}});
    }
    SUBCASE("parallel") { CHECK_FALSE(collide_both_ways(Segment{{-9, 1}, {9, 1}}, horizontal)); }
}

TEST_CASE("segment against ray") {
    const Ray ray{{0, 0}, {1, 0}};
    SUBCASE("lying on the ray: within") {
        const auto c = collide_both_ways(Segment{{2, 0}, {3, 0}}, ray);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points == Points{{2, 0}, {3, 0}});
    }
    SUBCASE("across the origin: touch (the origin is the ray's boundary)") {
        const auto c = collide_both_ways(Segment{{0, -1}, {0, 1}}, ray);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{0, 0}});
    }
    SUBCASE("crossing: overlap") {
        const auto c = collide_both_ways(Segment{{2, -1}, {2, 1}}, ray);
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{2, 0}});
    }
    SUBCASE("collinear over the origin: overlap") {
        const auto c = collide_both_ways(Segment{{-2, 0}, {2, 0}}, ray);
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        CHECK(c->points == Points{{0, 0}, {2, 0}});
    }
    SUBCASE("behind the origin") { CHECK_FALSE(collide_both_ways(Segment{{-2, -1}, {-2, 1}}, ray)); }
}

TEST_CASE("segment against polygon (concave)") {
    SUBCASE("across the notch: overlap") {
        const auto c = collide_both_ways(Segment{{1, 4}, {5, 4}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{2, 4}, {4, 4}});
    }
    SUBCASE("inside a leg: within") {
        const auto c = collide_both_ways(Segment{{0.5, 1}, {1.5, 5}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points.empty());
    }
    SUBCASE("the notch floor: touch") {
        const auto c = collide_both_ways(Segment{{2, 2}, {4, 2}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{2, 2}, {4, 2}});
    }
    SUBCASE("along a notch wall and beyond: touch") {
        const auto c = collide_both_ways(Segment{{2, 2}, {2, 8}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{2, 2}, {2, 6}});
    }
    SUBCASE("from leg top to leg top over the notch: touch, two shared pieces") {
        const auto c = collide_both_ways(Segment{{1, 6}, {5, 6}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{1, 6}, {2, 6}, {4, 6}, {5, 6}});
    }
    SUBCASE("grazing a reflex vertex from inside: within") {
        const auto c = collide_both_ways(Segment{{1, 3}, {3, 1}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points == Points{{2, 2}});
    }
    SUBCASE("through a reflex vertex into the notch: overlap") {
        const auto c = collide_both_ways(Segment{{1, 1}, {3, 3}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        CHECK(c->points == Points{{2, 2}});
    }
    SUBCASE("in the notch") { CHECK_FALSE(collide_both_ways(Segment{{3, 3}, {3, 5}}, kU)); }
}

TEST_CASE("segment against polyline") {
    SUBCASE("crossing a zigzag twice: overlap") {
        const auto c = collide_both_ways(Segment{{0, 1}, {4, 1}}, Polyline{{{0, 0}, {2, 2}, {4, 0}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{1, 1}, {3, 1}});
    }
    SUBCASE("along one piece: within") {
        const auto c = collide_both_ways(Segment{{1, 0}, {3, 0}}, kOpenL);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points == Points{{1, 0}, {3, 0}});
    }
    SUBCASE("across the open end: touch") {
        const auto c = collide_both_ways(Segment{{-1, 1}, {1, -1}}, kOpenL);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{0, 0}});
    }
    SUBCASE("across the same point of the closed polyline: overlap (no boundary there)") {
        const auto c = collide_both_ways(Segment{{-1, 1}, {1, -1}}, kClosedTriangle);
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        CHECK(c->points == Points{{0, 0}});
    }
}

TEST_CASE("line against line") {
    SUBCASE("tutorial: the crossing point") {
        const auto c = collide_both_ways(Line{{0, 0}, {4, 4}}, Line{{0, 4}, {4, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{2, 2}});
    }
    SUBCASE("crossing at a non-dyadic point") {
        near(collide_both_ways(Line{{0, 0}, {3, 1}}, Line{{1, 0}, {1, 1}}), {{1, 1.0 / 3.0}});
    }
    SUBCASE("coincident, through other points: equal, no finite ends") {
        const auto c = collide_both_ways(Line{{0, 0}, {1, 1}}, Line{{5, 5}, {-3, -3}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Equal);
        CHECK(c->points.empty());
    }
    SUBCASE("parallel") { CHECK_FALSE(collide_both_ways(Line{{0, 0}, {1, 1}}, Line{{0, 1}, {1, 2}})); }
}

TEST_CASE("line against ray") {
    const Line line{{0, 0}, {1, 0}};
    SUBCASE("the ray on the line: within, its origin") {
        const auto c = collide_both_ways(Ray{{5, 0}, {-1, 0}}, line);
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points == Points{{5, 0}});
    }
    SUBCASE("leaving the line: touch") {
        const auto c = collide_both_ways(Ray{{5, 0}, {0, 1}}, line);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{5, 0}});
    }
    SUBCASE("crossing: overlap") {
        const auto c = collide_both_ways(Ray{{5, -5}, {1, 2}}, line);
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{7.5, 0}});
    }
    SUBCASE("pointing away") { CHECK_FALSE(collide_both_ways(Ray{{5, 1}, {0, 1}}, line)); }
}

TEST_CASE("line against polygon (concave)") {
    SUBCASE("through both legs and the notch: overlap, four points") {
        const auto c = collide_both_ways(Line{{0, 4}, {1, 4}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{0, 4}, {2, 4}, {4, 4}, {6, 4}});
    }
    SUBCASE("along the bottom edge: touch") {
        const auto c = collide_both_ways(Line{{0, 0}, {1, 0}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{0, 0}, {6, 0}});
    }
    SUBCASE("through one vertex only: touch") {
        const auto c = collide_both_ways(Line{{6, 6}, {7, 5}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{6, 6}});
    }
    SUBCASE("above") { CHECK_FALSE(collide_both_ways(Line{{0, 7}, {1, 7}}, kU)); }
}

TEST_CASE("line against polyline") {
    SUBCASE("a zigzag: overlap at each crossing") {
        const auto c = collide_both_ways(Line{{0, 1}, {1, 1}}, Polyline{{{0, 0}, {1, 2}, {2, 0}, {3, 2}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{0.5, 1}, {1.5, 1}, {2.5, 1}});
    }
    SUBCASE("one piece on the line: overlap, the shared piece's ends") {
        const auto c = collide_both_ways(Line{{0, 0}, {1, 0}}, Polyline{{{0, 0}, {2, 0}, {2, 2}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        CHECK(c->points == Points{{0, 0}, {2, 0}});
    }
    SUBCASE("beside it") { CHECK_FALSE(collide_both_ways(Line{{0, -1}, {1, -1}}, kOpenL)); }
}

TEST_CASE("ray against ray") {
    const Ray east{{0, 0}, {1, 0}};
    SUBCASE("opposite, from the same origin: touch") {
        const auto c = collide_both_ways(east, Ray{{0, 0}, {-1, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{0, 0}});
    }
    SUBCASE("same direction, one starting on the other: contains") {
        const auto c = collide_both_ways(east, Ray{{2, 0}, {3, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points == Points{{2, 0}});
    }
    SUBCASE("facing each other: overlap, both origins") {
        const auto c = collide_both_ways(east, Ray{{3, 0}, {-1, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        CHECK(c->points == Points{{0, 0}, {3, 0}});
    }
    SUBCASE("same origin, directions of different length: equal") {
        const auto c = collide_both_ways(Ray{{1, 1}, {1, 2}}, Ray{{1, 1}, {3, 6}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Equal);
        CHECK(c->points == Points{{1, 1}});
    }
    SUBCASE("crossing: overlap") {
        const auto c = collide_both_ways(Ray{{0, 0}, {1, 1}}, Ray{{4, 0}, {-1, 1}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{2, 2}});
    }
    SUBCASE("diverging") { CHECK_FALSE(collide_both_ways(east, Ray{{0, 1}, {0, 1}})); }
    SUBCASE("collinear, back to back") { CHECK_FALSE(collide_both_ways(east, Ray{{-1, 0}, {-1, 0}})); }
}

TEST_CASE("ray against polygon (concave)") {
    SUBCASE("from inside a leg out: overlap") {
        const auto c = collide_both_ways(Ray{{1, 1}, {-1, 0}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{0, 1}});
    }
    SUBCASE("from the notch through the right leg: overlap") {
        const auto c = collide_both_ways(Ray{{3, 4}, {1, 0}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{4, 4}, {6, 4}});
    }
    SUBCASE("from the notch floor upward: touch") {
        const auto c = collide_both_ways(Ray{{3, 2}, {0, 1}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{3, 2}});
    }
    SUBCASE("out of the notch, upward") { CHECK_FALSE(collide_both_ways(Ray{{3, 3}, {0, 1}}, kU)); }
}

TEST_CASE("ray against polyline") {
    SUBCASE("through a closed triangle: overlap") {
        const auto c = collide_both_ways(Ray{{-1, 1}, {1, 0}}, Polyline{{{0, 0}, {4, 0}, {0, 4}, {0, 0}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{0, 1}, {3, 1}});
    }
    SUBCASE("starting at an open end, pointing away: touch") {
        const auto c = collide_both_ways(Ray{{4, 4}, {1, 1}}, kOpenL);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{4, 4}});
    }
    SUBCASE("pointing away") { CHECK_FALSE(collide_both_ways(Ray{{5, 0}, {1, 0}}, kOpenL)); }
}

TEST_CASE("polygon against polygon") {
    SUBCASE("same polygon, other start vertex and winding: equal, every vertex") {
        const Polygon reversed{{{4, 2}, {4, 6}, {6, 6}, {6, 0}, {0, 0}, {0, 6}, {2, 6}, {2, 2}}};
        const auto c = collide_both_ways(kU, reversed);
        REQUIRE(c);
        CHECK(c->relation == Relation::Equal);
        CHECK(c->points == Points{{0, 0}, {0, 6}, {2, 2}, {2, 6}, {4, 2}, {4, 6}, {6, 0}, {6, 6}});
    }
    SUBCASE("a triangle in the notch, clear") {
        CHECK_FALSE(collide_both_ways(Polygon{{{2.5, 3}, {3.5, 3}, {3, 5}}}, kU));
    }
    SUBCASE("a triangle standing on the notch floor: touch") {
        const auto c = collide_both_ways(Polygon{{{2.5, 2}, {3.5, 2}, {3, 5}}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{2.5, 2}, {3.5, 2}});
    }
    SUBCASE("a triangle with a vertex on a wall: touch at the vertex") {
        const auto c = collide_both_ways(Polygon{{{2, 4}, {3.5, 3}, {3.5, 5}}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{2, 4}});
    }
    SUBCASE("two triangles as a six-pointed star: overlap, six crossings") {
        const auto c = collide_both_ways(Polygon{{{0, 0}, {6, 0}, {3, 6}}}, Polygon{{{0, 4}, {3, -2}, {6, 4}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{1, 2}, {2, 0}, {2, 4}, {4, 0}, {4, 4}, {5, 2}});
    }
    SUBCASE("a square around it: contains") {
        const auto c = collide_both_ways(Polygon{{{-1, -1}, {7, -1}, {7, 7}, {-1, 7}}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points.empty());
    }
    SUBCASE("a triangle across a leg: overlap") {
        const auto c = collide_both_ways(Polygon{{{-1, 3}, {3, 3}, {1, 5}}}, kU);
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{0, 3}, {0, 4}, {2, 3}, {2, 4}});
    }
}

TEST_CASE("polygon against polyline") {
    SUBCASE("its outline as a closed polyline: touch, every vertex") {
        const auto c = collide_both_ways(kU, Polyline{{{0, 0}, {6, 0}, {6, 6}, {4, 6}, {4, 2}, {2, 2}, {2, 6}, {0, 6}, {0, 0}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{0, 0}, {0, 6}, {2, 2}, {2, 6}, {4, 2}, {4, 6}, {6, 0}, {6, 6}});
    }
    SUBCASE("out of one leg, over the notch, into the other: overlap") {
        const auto c = collide_both_ways(kU, Polyline{{{1, 1}, {3, 4}, {5, 1}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{2, 2.5}, {4, 2.5}});
    }
    SUBCASE("inside the base and a leg: contains") {
        const auto c = collide_both_ways(kU, Polyline{{{0.5, 0.5}, {5.5, 0.5}, {5.5, 5.5}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points.empty());
    }
}

TEST_CASE("polyline against polyline") {
    const Polyline up_from_end{{{4, 4}, {6, 4}, {6, 6}}};  // starts at kOpenL's end
    SUBCASE("crossing: overlap") {
        const auto c = collide_both_ways(Polyline{{{0, 0}, {4, 4}}}, Polyline{{{0, 4}, {4, 0}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{2, 2}});
    }
    SUBCASE("open ends meeting: touch") {
        const auto c = collide_both_ways(kOpenL, up_from_end);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{4, 4}});
    }
    SUBCASE("an open end on a closed polyline: still touch") {
        const auto c = collide_both_ways(kClosedTriangle, up_from_end);
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{4, 4}});
    }
    SUBCASE("two closed polylines sharing a vertex: overlap (neither has a boundary)") {
        const auto c = collide_both_ways(kClosedTriangle, Polyline{{{4, 4}, {6, 4}, {6, 6}, {4, 4}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        CHECK(c->points == Points{{4, 4}});
    }
    SUBCASE("the same path walked backwards: equal") {
        const auto c = collide_both_ways(kOpenL, Polyline{{{4, 4}, {4, 0}, {0, 0}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Equal);
        CHECK(c->points == Points{{0, 0}, {4, 0}, {4, 4}});
    }
    SUBCASE("a sub-path: contains") {
        const auto c = collide_both_ways(Polyline{{{0, 0}, {4, 0}, {4, 4}, {8, 4}}}, kOpenL);
        REQUIRE(c);
        CHECK(c->relation == Relation::Contains);
        CHECK(c->points == Points{{0, 0}, {4, 0}, {4, 4}});
    }
    SUBCASE("apart") { CHECK_FALSE(collide_both_ways(kOpenL, Polyline{{{5, 0}, {5, 4}}})); }
}

TEST_CASE("degenerate shapes are what they degrade to") {
    SUBCASE("a radius-0 circle is a point") {
        const auto c = collide_both_ways(Circle{{1, 1}, 0}, Point{{1, 1}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Equal);
        CHECK(c->points == Points{{1, 1}});
        const auto on_edge = collide_both_ways(Circle{{2, 1}, 0}, Rect{{0, 0}, {2, 2}});
        REQUIRE(on_edge);
        CHECK(on_edge->relation == Relation::Touch);
    }
    SUBCASE("a zero-width rect is a segment") {
        const Rect thin{{1, 0}, {1, 4}};
        const auto c = collide_both_ways(thin, Segment{{1, 4}, {1, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Equal);
        CHECK(c->points == Points{{1, 0}, {1, 4}});
        const auto in_rect = collide_both_ways(thin, Rect{{0, 0}, {2, 4}});
        REQUIRE(in_rect);
        CHECK(in_rect->relation == Relation::Within);
        CHECK(in_rect->points == Points{{1, 0}, {1, 4}});
    }
    SUBCASE("two zero-height and zero-width rects crossing: overlap") {
        const auto c = collide_both_ways(Rect{{1, 0}, {1, 4}}, Rect{{0, 2}, {2, 2}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{1, 2}});
    }
    SUBCASE("a zero-size rect is a point") {
        const auto c = collide_both_ways(Rect{{1, 1}, {1, 1}}, Point{{1, 1}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Equal);
    }
    SUBCASE("a segment with a == b is a point") {
        const auto c = collide_both_ways(Segment{{3, 3}, {3, 3}}, Segment{{0, 0}, {4, 4}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points == Points{{3, 3}});
    }
    SUBCASE("an all-equal polyline is a point") {
        const Polyline dot{{{2, 2}, {2, 2}, {2, 2}}};
        const auto c = collide_both_ways(dot, Point{{2, 2}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Equal);
        CHECK(c->points == Points{{2, 2}});
        const auto on_segment = collide_both_ways(dot, Segment{{0, 0}, {4, 4}});
        REQUIRE(on_segment);
        CHECK(on_segment->relation == Relation::Within);
    }
    SUBCASE("a polyline with a repeated point is still one path") {
        const auto c = collide_both_ways(Polyline{{{0, 0}, {2, 0}, {2, 0}, {4, 0}}}, Segment{{0, 0}, {4, 0}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Equal);
    }
}

// Decimal literals are not what the doubles hold; relations follow the doubles exactly.
TEST_CASE("exactness for the double values given") {
    SUBCASE("unit circles exactly 2 apart touch") {
        const auto c = collide_both_ways(Circle{{0.5, 0.25}, 1}, Circle{{2.5, 0.25}, 1});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        near(c, {{1.5, 0.25}});
    }
    SUBCASE("centres 0.1 and 2.1 are more than 2 apart as doubles: unit circles miss") {
        // 2.1 - 0.1 rounds to 2, but the exact difference is 2 + 8.3e-17.
        CHECK_FALSE(collide_both_ways(Circle{{0.1, 0}, 1}, Circle{{2.1, 0}, 1}));
    }
    SUBCASE("(0.06, 0.08) lies strictly inside the circle of radius 0.1: within, not touch") {
        // 0.06^2 + 0.08^2 - 0.1^2 is -1.1e-18 for the doubles.
        const auto c = collide_both_ways(Point{{0.06, 0.08}}, Circle{{0, 0}, 0.1});
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points.empty());
    }
    SUBCASE("a rect from x 0.1 + width 0.2 overlaps a rect at 0.3") {
        // 0.1 + 0.2 is 0.30000000000000004 > 0.3: a thin strip is shared, not an edge.
        const double right = 0.1 + 0.2;
        const auto c = collide_both_ways(Rect{{0.1, 0}, {right, 1}}, Rect{{0.3, 0}, {1, 1}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        CHECK(c->points == Points{{0.3, 0}, {0.3, 1}, {right, 0}, {right, 1}});
    }
    SUBCASE("a rect from x 0.7 + width 0.1 falls short of a rect at 0.8") {
        // 0.7 + 0.1 is 0.7999999999999999 < 0.8.
        CHECK_FALSE(collide_both_ways(Rect{{0.7, 0}, {0.7 + 0.1, 1}}, Rect{{0.8, 0}, {1, 1}}));
    }
    SUBCASE("a rect ending where another starts touches") {
        const double right = 0.1 + 0.2;
        const auto c = collide_both_ways(Rect{{0.1, 0}, {right, 1}}, Rect{{right, 0}, {1, 1}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{right, 0}, {right, 1}});
    }
    SUBCASE("(0.2, 0.4) is exactly on the segment (0.1, 0.1)-(0.3, 0.7)") {
        // Naive orientation gives 6.9e-18, the exact value for the doubles is 0.
        const auto c = collide_both_ways(Point{{0.2, 0.4}}, Segment{{0.1, 0.1}, {0.3, 0.7}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Within);
        CHECK(c->points == Points{{0.2, 0.4}});
    }
    SUBCASE("(0.1, 0.5) is not on the segment (0, 0.1)-(0.2, 0.9)") {
        // Naive orientation gives exactly 0, the exact value for the doubles is -2.8e-18.
        CHECK_FALSE(collide_both_ways(Point{{0.1, 0.5}}, Segment{{0, 0.1}, {0.2, 0.9}}));
    }
    SUBCASE("a point exactly on a polygon edge with decimal coordinates touches") {
        const auto c = collide_both_ways(Point{{0.2, 0.4}}, Polygon{{{0.1, 0.1}, {0.9, 0.1}, {0.3, 0.7}}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{0.2, 0.4}});
    }
}

TEST_CASE("coordinates near 1e9") {
    const double g = 1e9;
    SUBCASE("unit circles exactly 2 apart touch") {
        const auto c = collide_both_ways(Circle{{g + 0.25, -g}, 1}, Circle{{g + 2.25, -g}, 1});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        near(c, {{g + 1.25, -g}});
    }
    SUBCASE("one ulp closer: overlap") {
        const auto c = collide_both_ways(Circle{{g + 0.25, -g}, 1}, Circle{{std::nextafter(g + 2.25, 0.0), -g}, 1});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
    }
    SUBCASE("circles 3-4-5 apart on a diagonal touch") {
        const auto c = collide_both_ways(Circle{{g, g}, 1.25}, Circle{{g + 1.5, g + 2}, 1.25});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        near(c, {{g + 0.75, g + 1}});
    }
    SUBCASE("segments crossing") {
        near(collide_both_ways(Segment{{g, g}, {g + 2, g + 2}}, Segment{{g, g + 2}, {g + 2, g}}), {{g + 1, g + 1}});
    }
    SUBCASE("a point on a diagonal, and one ulp off it") {
        const Segment diagonal{{g, g}, {g + 3, g + 3}};
        const auto on = collide_both_ways(Point{{g + 1, g + 1}}, diagonal);
        REQUIRE(on);
        CHECK(on->relation == Relation::Within);
        CHECK_FALSE(collide_both_ways(Point{{g + 1, std::nextafter(g + 1, kInf)}}, diagonal));
    }
    SUBCASE("rects sharing an edge at half-unit offsets: touch") {
        const auto c = collide_both_ways(Rect{{g, g}, {g + 0.5, g + 1}}, Rect{{g + 0.5, g}, {g + 1, g + 1}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        CHECK(c->points == Points{{g + 0.5, g}, {g + 0.5, g + 1}});
    }
}

// Found by fuzz_pairs (tests/fuzz/regressions/fuzz_pairs/): the intermediate values of a
// computed point (a squared direction, a cross product of two directions) left the double
// range although the point itself is an ordinary number, or the point itself lies beyond it.
TEST_CASE("intersection points at the ends of the double range") {
    constexpr double kTiny = 0x1p-1074;  // the smallest subnormal
    constexpr double kMax = 0x1.fffffffffffffp1023;
    SUBCASE("a line with a subnormal direction crosses a segment where it should") {
        // The vertical line x = 0 (given by two points 5e-324 apart) crosses y = -8 at x = 0;
        // cross(dir a, dir b) is 11.7 * 5e-324, a subnormal that kept 4 bits: (0, -7.83).
        const auto c = collide_both_ways(Line{{0, kTiny}, {0, 0}}, Segment{{3.7, -8}, {-8, -8}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{0, -8}});
        near(collide_both_ways(Line{{0, 2 * kTiny}, {0, 0}}, Segment{{7.4, -16}, {-16, -16}}), {{0, -16}});
    }
    SUBCASE("a ray with a subnormal direction component leaves a subnormal-wide rect") {
        // From (0, 0) inside, the ray moves left by 5e-324 per 0.8 up, so it reaches the left
        // edge x = -5e-324 at origin + direction = (-5e-324, 0.8), below the top edge.
        const Ray ray{{0, 0}, {-kTiny, 0.8}};
        const auto c = collide_both_ways(ray, Rect{{-kTiny, -8}, {kTiny, 0.8000000000000002}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{-kTiny, 0.8}});
        CHECK(c->points[0].x == -kTiny);  // not 0, which would not lie on the rect's edge
    }
    SUBCASE("two lines crossing beyond the double range: the crossing is left out") {
        // Through (0, -5e-324) and (2.6, 0), the line meets y = -8 at x = -8 * 2.6 / 5e-324,
        // about -4e324: no double. The lines still cross (overlap); no point is written.
        const auto c = collide_both_ways(Line{{0, -kTiny}, {2.6, 0}}, Line{{-4, -8}, {-8, -8}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        CHECK(c->points.empty());
    }
    SUBCASE("lines crossing at exactly DBL_MAX keep the point; at 2^1025 it is left out") {
        // y = 0 against the line through (0, 1) and (DBL_MAX * 2^-53, 1 - 2^-53), which falls
        // 2^-53 over that run and so reaches y = 0 at x = DBL_MAX exactly.
        const Line axis{{0, 0}, {1, 0}};
        const double below_one = 1 - 0x1p-53;
        const auto at_max = collide_both_ways(axis, Line{{0, 1}, {kMax * 0x1p-53, below_one}});
        REQUIRE(at_max);
        CHECK(at_max->relation == Relation::Overlap);
        CHECK(at_max->points == Points{{kMax, 0}});
        // 2^1024 is DBL_MAX plus its ulp, beyond DBL_MAX plus half of it: correctly rounded it
        // is infinite, so it is left out (geometry.hpp, Limits).
        const auto at_2_1024 = collide_both_ways(axis, Line{{0, 1}, {0x1p971, below_one}});
        REQUIRE(at_2_1024);
        CHECK(at_2_1024->points.empty());
        const auto beyond = collide_both_ways(axis, Line{{0, 1}, {0x1p972, below_one}});
        REQUIRE(beyond);
        CHECK(beyond->relation == Relation::Overlap);
        CHECK(beyond->points.empty());
    }
    SUBCASE("a segment from -DBL_MAX into a circle of radius 1e9 crosses it at x = -1e9") {
        // y = -8 meets the circle at x = -sqrt(1e18 - 64) = -1e9 + 3.2e-8, which rounds to
        // -1e9. The segment's direction squared (DBL_MAX^2) overflowed into a NaN point.
        const auto c = collide_both_ways(Circle{{0, 0}, 1e9}, Segment{{-kMax, -8}, {-8, -8}});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{-1e9, -8}});
    }
    SUBCASE("a ray with a huge direction touches a circle where it should, not at its origin") {
        // x = 0 is tangent to the circle at (-8, -8) of radius 8, at (0, -8), below the
        // origin (0, 2). The direction squared (4.4e612) overflowed.
        const auto c = collide_both_ways(Ray{{0, 2}, {0, -2.095065524414247e306}}, Circle{{-8, -8}, 8});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        near(c, {{0, -8}});
    }
    SUBCASE("a ray with a subnormal direction touches a circle where it should") {
        // The same tangent from (0, 0) with direction (0, -5e-324): the direction squared
        // underflowed to 0, and the point came out as (NaN, -inf).
        const auto c = collide_both_ways(Ray{{0, 0}, {0, -kTiny}}, Circle{{-8, -8}, 8});
        REQUIRE(c);
        CHECK(c->relation == Relation::Touch);
        near(c, {{0, -8}});
    }
    SUBCASE("circles near DBL_MAX: points in range are kept, those beyond are left out") {
        // Centres (0.75 DBL_MAX, +-DBL_MAX / 4), radius DBL_MAX / 2: the outlines cross on
        // y = 0 at x = (0.75 -+ sqrt(1/4 - 1/16)) DBL_MAX; the crossing at + (1.18 DBL_MAX) is
        // beyond the range, the one at - (0.32 DBL_MAX) is written.
        const auto c = collide_both_ways(Circle{{0.75 * kMax, kMax / 4}, kMax / 2}, Circle{{0.75 * kMax, -kMax / 4}, kMax / 2});
        REQUIRE(c);
        CHECK(c->relation == Relation::Overlap);
        near(c, {{kMax * (0.75 - std::sqrt(3.0 / 16)), 0}});
    }
}

TEST_CASE("bounds_of") {
    SUBCASE("point, rect, segment: their coordinates") {
        const Bounds p = bounds_of(Point{{1, 2}});
        CHECK(p.min == Vec2{1, 2});
        CHECK(p.max == Vec2{1, 2});
        const Bounds r = bounds_of(Rect{{0, 1}, {2, 3}});
        CHECK(r.min == Vec2{0, 1});
        CHECK(r.max == Vec2{2, 3});
        const Bounds s = bounds_of(Segment{{4, -1}, {-2, 5}});
        CHECK(s.min == Vec2{-2, -1});
        CHECK(s.max == Vec2{4, 5});
    }
    SUBCASE("circle: centre +- radius, at most one ulp wider") {
        const Bounds b = bounds_of(Circle{{0, 0}, 1});
        CHECK(b.min.x <= -1.0);
        CHECK(b.min.x >= std::nextafter(-1.0, -2.0));
        CHECK(b.max.y >= 1.0);
        CHECK(b.max.y <= std::nextafter(1.0, 2.0));
    }
    SUBCASE("polygon and polyline: the extent of their points") {
        const Bounds g = bounds_of(kU);
        CHECK(g.min == Vec2{0, 0});
        CHECK(g.max == Vec2{6, 6});
        const Bounds l = bounds_of(Polyline{{{1, 5}, {-3, 2}, {0, 7}}});
        CHECK(l.min == Vec2{-3, 2});
        CHECK(l.max == Vec2{1, 7});
    }
    SUBCASE("ray: unbounded in its direction only") {
        const Bounds east = bounds_of(Ray{{2, 3}, {1, 0}});
        CHECK(east.min == Vec2{2, 3});
        CHECK(east.max == Vec2{kInf, 3});
        const Bounds north_west = bounds_of(Ray{{2, 3}, {-1, 1}});
        CHECK(north_west.min == Vec2{-kInf, 3});
        CHECK(north_west.max == Vec2{2, kInf});
    }
    SUBCASE("line: unbounded, except across an axis-parallel line") {
        const Bounds horizontal = bounds_of(Line{{0, 3}, {1, 3}});
        CHECK(horizontal.min == Vec2{-kInf, 3});
        CHECK(horizontal.max == Vec2{kInf, 3});
        const Bounds diagonal = bounds_of(Line{{0, 0}, {1, 1}});
        CHECK(diagonal.min == Vec2{-kInf, -kInf});
        CHECK(diagonal.max == Vec2{kInf, kInf});
    }
}

namespace {

// A random shape of any type on a small integer lattice, where touching and collinear
// configurations are common.
Shape random_lattice_shape(std::mt19937_64& rng) {
    auto coord = [&] { return static_cast<double>(std::uniform_int_distribution<int>(0, 6)(rng)); };
    auto pos = [&] { return Vec2{coord(), coord()}; };
    auto distinct_from = [&](Vec2 a) {
        Vec2 b = pos();
        while (b == a) b = pos();
        return b;
    };
    switch (std::uniform_int_distribution<int>(0, 7)(rng)) {
        case 0: return Point{pos()};
        case 1: return Circle{pos(), static_cast<double>(std::uniform_int_distribution<int>(1, 3)(rng))};
        case 2: {
            const Vec2 a = pos(), b = pos();
            return Rect{{std::min(a.x, b.x), std::min(a.y, b.y)}, {std::max(a.x, b.x), std::max(a.y, b.y)}};
        }
        case 3: return Segment{pos(), pos()};
        case 4: {
            const Vec2 a = pos();
            return Line{a, distinct_from(a)};
        }
        case 5: {
            const Vec2 a = pos();
            const Vec2 b = distinct_from(a);
            return Ray{a, {b.x - a.x, b.y - a.y}};
        }
        case 6: {  // a triangle with non-zero area
            for (;;) {
                const Vec2 a = pos(), b = pos(), c = pos();
                if ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) != 0) return Polygon{{a, b, c}};
            }
        }
        default: {
            Polyline p;
            const int n = std::uniform_int_distribution<int>(2, 4)(rng);
            for (int i = 0; i < n; ++i) p.points.push_back(pos());
            if (rng() % 3 == 0) p.points.push_back(p.points.front());
            return p;
        }
    }
}

}  // namespace

// The rect fast paths and the general polygon code must agree: a rect of positive area is
// the polygon of its four corners.
TEST_CASE("a rect collides exactly as the polygon of its corners") {
    std::mt19937_64 rng(7);
    int compared = 0;
    for (int round = 0; round < 3000; ++round) {
        const Shape other = random_lattice_shape(rng);
        const Shape shape = random_lattice_shape(rng);
        if (type_of(shape) != collide::ShapeType::Rect) continue;
        const Rect r = std::get<Rect>(shape);
        if (r.min.x == r.max.x || r.min.y == r.max.y) continue;
        const Polygon as_polygon{{r.min, {r.max.x, r.min.y}, r.max, {r.min.x, r.max.y}}};
        const auto from_rect = collide::collide(r, other);
        const auto from_polygon = collide::collide(as_polygon, other);
        CAPTURE(round);
        REQUIRE(from_rect.has_value() == from_polygon.has_value());
        if (from_rect) {
            CHECK(from_rect->relation == from_polygon->relation);
            check_near(from_rect->points, from_polygon->points);
        }
        ++compared;
    }
    CHECK(compared > 200);
}

TEST_CASE("circle against rect: the fast path decides as the general polygon code") {
    // Centres and radii on a 0.25 grid around the rect [1, 3] x [1, 2] make every case common:
    // tangent to an edge or through a corner, inside touching, containing the rect.
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<int> coord(-4, 20);
    std::uniform_int_distribution<int> radius(1, 12);
    const Rect rect{{1, 1}, {3, 2}};
    const Polygon as_polygon{{rect.min, {rect.max.x, rect.min.y}, rect.max, {rect.min.x, rect.max.y}}};
    int relations[5] = {};
    for (int round = 0; round < 4000; ++round) {
        const Circle c{{coord(rng) * 0.25, coord(rng) * 0.25}, radius(rng) * 0.25};
        const auto fast = collide_both_ways(c, rect);
        const auto general = collide::collide(c, as_polygon);
        CAPTURE(round);
        REQUIRE(fast.has_value() == general.has_value());
        if (!fast) continue;
        CHECK(fast->relation == general->relation);
        CHECK(fast->points == general->points);  // the same edge-by-edge computation
        ++relations[static_cast<int>(fast->relation)];
    }
    // Every relation a circle and a rect can have occurred (they are never equal).
    CHECK(relations[static_cast<int>(Relation::Touch)] > 0);
    CHECK(relations[static_cast<int>(Relation::Overlap)] > 0);
    CHECK(relations[static_cast<int>(Relation::Contains)] > 0);
    CHECK(relations[static_cast<int>(Relation::Within)] > 0);
    CHECK(relations[static_cast<int>(Relation::Equal)] == 0);
}

TEST_CASE("random lattice pairs: symmetric, and a segment is a two-point polyline") {
    std::mt19937_64 rng(11);
    for (int round = 0; round < 3000; ++round) {
        const Shape a = random_lattice_shape(rng);
        const Shape b = random_lattice_shape(rng);
        CAPTURE(round);
        collide_both_ways(a, b);
        if (type_of(a) == collide::ShapeType::Segment) {
            const Segment s = std::get<Segment>(a);
            const auto as_segment = collide::collide(s, b);
            const auto as_polyline = collide::collide(Polyline{{s.a, s.b}}, b);
            REQUIRE(as_segment.has_value() == as_polyline.has_value());
            if (as_segment) {
                CHECK(as_segment->relation == as_polyline->relation);
                CHECK(as_segment->points == as_polyline->points);
            }
        }
    }
}

// ---- the edge index of big polygons and polylines (edge_index.hpp) -----------------------
// The index only chooses which edges a pair test reads; the answers must be those of the
// plain path that reads every edge, bit for bit. Forcing an index on shapes of any size
// (below kIndexFrom as well) compares the two on small lattice shapes, where touching and
// shared pieces are common; big shapes are compared against the plain path too.

namespace {

using collide::detail::EdgeIndex;

// An index of a polygon or polyline of any size, or null for other shapes.
std::unique_ptr<EdgeIndex> forced_index(const Shape& s) {
    if (const auto* p = std::get_if<Polygon>(&s))
        return std::make_unique<EdgeIndex>(collide::detail::Ring{p->points.data(), p->points.size()});
    if (const auto* l = std::get_if<Polyline>(&s)) {
        std::vector<collide::detail::Piece> pieces = collide::detail::polyline_pieces(l->points);
        if (!pieces.empty()) return std::make_unique<EdgeIndex>(std::move(pieces));
    }
    return nullptr;
}

// collide_into with both shapes indexed gives what the plain path gives, both ways round,
// with and without points. Returns the plain answer.
std::optional<Relation> same_with_index(const Shape& a, const Shape& b) {
    const std::unique_ptr<EdgeIndex> ia = forced_index(a);
    const std::unique_ptr<EdgeIndex> ib = forced_index(b);
    std::optional<Relation> answer;
    for (const bool swap : {false, true}) {
        const Shape& x = swap ? b : a;
        const Shape& y = swap ? a : b;
        const EdgeIndex* ix = swap ? ib.get() : ia.get();
        const EdgeIndex* iy = swap ? ia.get() : ib.get();
        Points plain;
        Points indexed;
        collide::detail::Scratch scratch;
        const auto r_plain = collide::detail::collide_into(x, y, &plain, {}, {}, scratch);
        const auto r_indexed = collide::detail::collide_into(x, y, &indexed, ix, iy, scratch);
        REQUIRE(r_plain.has_value() == r_indexed.has_value());
        if (r_plain) CHECK(*r_plain == *r_indexed);
        CHECK(plain == indexed);
        const auto bare = collide::detail::collide_into(x, y, nullptr, ix, iy, scratch);
        REQUIRE(bare.has_value() == r_plain.has_value());
        if (bare) CHECK(*bare == *r_plain);
        if (!swap) answer = r_plain;
    }
    return answer;
}

// A simple star-shaped polygon of up to 16 vertices on the half-unit lattice of [0, 6]^2.
Polygon random_lattice_polygon(std::mt19937_64& rng) {
    for (;;) {
        const int n = std::uniform_int_distribution<int>(3, 16)(rng);
        const double cx = std::uniform_int_distribution<int>(4, 8)(rng) * 0.5;
        const double cy = std::uniform_int_distribution<int>(4, 8)(rng) * 0.5;
        std::vector<double> angles(static_cast<std::size_t>(n));
        for (double& a : angles) a = std::uniform_real_distribution<double>(0, 2 * 3.141592653589793)(rng);
        std::sort(angles.begin(), angles.end());
        Polygon p;
        for (const double a : angles) {
            const double r = std::uniform_int_distribution<int>(1, 6)(rng) * 0.5;
            const Vec2 v{std::round(2 * (cx + r * std::cos(a))) * 0.5, std::round(2 * (cy + r * std::sin(a))) * 0.5};
            if (p.points.empty() || v != p.points.back()) p.points.push_back(v);
        }
        while (p.points.size() > 1 && p.points.back() == p.points.front()) p.points.pop_back();
        if (p.points.size() < 3) continue;
        const collide::detail::Ring ring{p.points.data(), p.points.size()};
        if (collide::detail::ring_orientation(ring) != 0 && !collide::detail::ring_defect(ring)) return p;
    }
}

// A polyline of up to 12 points on the same lattice, open or closed, crossing itself at will.
Polyline random_lattice_polyline(std::mt19937_64& rng) {
    auto coord = [&] { return std::uniform_int_distribution<int>(0, 12)(rng) * 0.5; };
    Polyline p;
    const int n = std::uniform_int_distribution<int>(2, 12)(rng);
    for (int i = 0; i < n; ++i) p.points.push_back(Vec2{coord(), coord()});
    if (rng() % 3 == 0) p.points.push_back(p.points.front());
    return p;
}

// A star-shaped polygon of n vertices around c: radius r with a ripple of +-r/50.
Polygon wobbly_polygon(std::size_t n, Vec2 c, double r) {
    Polygon p;
    for (std::size_t i = 0; i < n; ++i) {
        const double a = 2 * 3.141592653589793 * static_cast<double>(i) / static_cast<double>(n);
        const double ri = r * (1 + 0.02 * std::sin(37 * a) * std::cos(5 * a));
        p.points.push_back(Vec2{c.x + ri * std::cos(a), c.y + ri * std::sin(a)});
    }
    return p;
}

// A polyline of n points zig-zagging across the circle of radius r around c.
Polyline zigzag_around(std::size_t n, Vec2 c, double r, double from_angle, double to_angle) {
    Polyline p;
    for (std::size_t i = 0; i < n; ++i) {
        const double a = from_angle + (to_angle - from_angle) * static_cast<double>(i) / static_cast<double>(n);
        const double ri = r * (i % 2 ? 1.05 : 0.95);
        p.points.push_back(Vec2{c.x + ri * std::cos(a), c.y + ri * std::sin(a)});
    }
    return p;
}

}  // namespace

TEST_CASE("edge index: random lattice pairs give the plain path's answers and points") {
    std::mt19937_64 rng(12);
    int met = 0;
    for (int round = 0; round < 6000; ++round) {
        auto any = [&]() -> Shape {
            switch (rng() % 3) {
                case 0: return random_lattice_polygon(rng);
                case 1: return random_lattice_polyline(rng);
                default: return random_lattice_shape(rng);
            }
        };
        const Shape a = any();
        const Shape b = any();
        CAPTURE(round);
        if (same_with_index(a, b)) ++met;
    }
    CHECK(met > 2000);
}

TEST_CASE("edge index: big polygons and polylines against every kind of partner") {
    const Vec2 c{1000, -500};
    const Polygon big = wobbly_polygon(3000, c, 100);
    std::vector<Shape> partners = {
        wobbly_polygon(2000, {c.x + 150, c.y + 20}, 80),  // beside it, overlapping
        wobbly_polygon(1000, c, 50),                       // inside it
        big,                                               // equal
        Polygon{{big.points.begin() + 10, big.points.begin() + 600}},  // shares 589 edges
        zigzag_around(1000, c, 100, 0.0, 4.0),
        Polyline{{big.points.begin() + 100, big.points.begin() + 900}},  // on its boundary
        Polyline{big.points},
        Rect{{c.x - 200, c.y - 10}, {c.x + 200, c.y + 10}},
        Segment{{c.x - 300, c.y}, {c.x + 300, c.y + 1}},
        Line{c, {c.x + 1, c.y + 1}},
        Ray{c, {1, 0.25}},
        Circle{c, 1000},
        Circle{c, 50},
        Point{c},
        Point{big.points[17]},
    };
    // Circles and points near the boundary, inside and outside.
    std::mt19937_64 rng(5);
    for (int i = 0; i < 300; ++i) {
        const double a = std::uniform_real_distribution<double>(0, 7)(rng);
        const double r = std::uniform_real_distribution<double>(90, 110)(rng);
        const Vec2 at{c.x + r * std::cos(a), c.y + r * std::sin(a)};
        partners.push_back(Circle{at, std::uniform_real_distribution<double>(0.01, 20)(rng)});
        partners.push_back(Point{at});
    }
    int met = 0;
    for (std::size_t k = 0; k < partners.size(); ++k) {
        CAPTURE(k);
        if (same_with_index(big, partners[k])) ++met;
        if (k < 7) same_with_index(partners[k], partners[(k + 1) % 7]);  // big against big
    }
    CHECK(met > 200);
    // collide() indexes big shapes of its own accord: the same answers.
    const auto both = collide::collide(big, partners[0]);
    Points plain;
    collide::detail::Scratch scratch;
    const auto r_plain = collide::detail::collide_into(big, partners[0], &plain, {}, {}, scratch);
    REQUIRE(both);
    REQUIRE(r_plain);
    CHECK(both->relation == *r_plain);
    CHECK(both->points == plain);
    CHECK(both->relation == Relation::Overlap);
    CHECK(collide::collide(big, partners[2])->relation == Relation::Equal);
    CHECK(collide::collide(big, partners[1])->relation == Relation::Contains);
}

TEST_CASE("edge index: which shapes get one, and one build shared by threads") {
    using collide::detail::index_if_big;
    using collide::detail::kIndexFrom;
    CHECK(index_if_big(wobbly_polygon(kIndexFrom - 1, {0, 0}, 1)) == nullptr);
    CHECK(index_if_big(wobbly_polygon(kIndexFrom, {0, 0}, 1)) != nullptr);
    CHECK(index_if_big(Polyline{std::vector<Vec2>(kIndexFrom, Vec2{1, 1})}) == nullptr);  // a point
    CHECK(index_if_big(Circle{{0, 0}, 1}) == nullptr);

    std::vector<collide::SceneShape> shapes(3);
    shapes[0].shape = Circle{{0, 0}, 1};
    shapes[1].shape = wobbly_polygon(500, {0, 0}, 10);
    shapes[2].shape = zigzag_around(500, {0, 0}, 10, 0, 6);
    const collide::detail::SceneIndexes indexes(shapes);
    const EdgeIndex* seen[2][3] = {};
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t)
        threads.emplace_back([&, t] {
            for (std::size_t i = 0; i < 3; ++i) seen[t][i] = indexes.of(i);
        });
    for (std::thread& t : threads) t.join();
    CHECK(seen[0][0] == nullptr);
    REQUIRE(seen[0][1] != nullptr);
    REQUIRE(seen[0][2] != nullptr);
    CHECK(seen[0][1] == seen[1][1]);
    CHECK(seen[0][2] == seen[1][2]);
    CHECK(seen[0][1]->size() == 500);
    CHECK(seen[0][2]->size() == 499);
    CHECK(indexes.of(7) == nullptr);
}
