// Moves against shapes (SPEC §1.3, §2.5): the first time a swept body shares an interior
// point with a shape, exactly, and where it stops. Every expectation is derived by hand: the
// bodies move along y = 0 from [0, 0] to [16, 0] unless a case says otherwise, so a contact
// at x = c is t = c / 16 and stop [c, 0]. Results are compared as text ("t=0.5 stop=(8,0)")
// whose numbers are shortest round-trip forms: a text comparison compares doubles exactly.
#include "geometry/edge_index.hpp"
#include "grids/grid_ops.hpp"
#include "queries/sweep.hpp"

#include "collide/check.hpp"
#include "collide/geometry.hpp"
#include "collide/scene.hpp"
#include "move_bodies.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace collide;
using collide::detail::blocked_at;
using collide::detail::first_contact;

using move_bodies::circle_body;
using move_bodies::num;
using move_bodies::rect_body;

namespace {

Move move(Vec2 from, Vec2 to, Body body = {}, bool path = true) {
    Move m;
    m.from = from;
    m.to = to;
    m.body = body;
    m.check_path = path;
    return m;
}

std::string describe(const MoveResult& r) {
    if (r.allowed) return "allowed";
    return "t=" + num(r.t) + " stop=(" + num(r.stop.x) + "," + num(r.stop.y) + ")";
}

std::string sweep(const Move& m, const Shape& s) {
    const auto t = first_contact(m, s);
    return t ? describe(blocked_at(m, *t)) : "allowed";
}

// Along y = 0 from [0, 0] to [16, 0].
std::string along(const Body& b, const Shape& s) { return sweep(move({0, 0}, {16, 0}, b), s); }

const Body kPoint{};
const Body kCircle = circle_body(1);
const Body kBox = rect_body(2, 2);
const Body kUpright = rect_body(0, 2);  // a vertical segment body
const Body kFlat = rect_body(2, 0);     // a horizontal segment body

}  // namespace

TEST_CASE("sweep: the issue's examples") {
    SUBCASE("a bullet moving 500 px in one frame through a 2 px wall is blocked where it meets it") {
        CHECK(sweep(move({0, 0}, {500, 0}), Rect{{100, -50}, {102, 50}}) == "t=0.2 stop=(100,0)");
        CHECK(sweep(move({0, 0}, {500, 0}, {}, false), Rect{{100, -50}, {102, 50}}) == "allowed");
    }
    SUBCASE("a circle sliding flush along a wall is allowed; one that moves into it is blocked at once") {
        const Rect floor{{0, -10}, {200, 0}};
        CHECK(sweep(move({0, 5}, {100, 5}, circle_body(5)), floor) == "allowed");
        CHECK(sweep(move({0, 5}, {100, 4}, circle_body(5)), floor) == "t=0 stop=(0,5)");
        CHECK(sweep(move({0, 5}, {100, 5}, rect_body(10, 10)), floor) == "allowed");
    }
    SUBCASE("grazing a corner is allowed") {
        const Rect r{{0, 0}, {10, 10}};
        CHECK(sweep(move({-5, 5}, {5, -5}), r) == "allowed");                     // a point through the corner
        CHECK(sweep(move({-3, 1}, {1, -3}, rect_body(2, 2)), r) == "allowed");    // box corner over box corner
        CHECK(sweep(move({-10, 0}, {20, 0}), r) == "allowed");                    // a point along the edge
        CHECK(sweep(move({-10, -1}, {20, -1}, circle_body(1)), r) == "allowed");  // a circle along the edge
        // The circle of radius 1 around [8, 2] lies 1 above the box body's top side and
        // beside its corners at [7, 1] and [9, 1]: tangent all along.
        CHECK(along(kBox, Circle{{8, 2}, 1}) == "allowed");
    }
    SUBCASE("a body that starts overlapped is blocked at t = 0, whichever way it moves") {
        CHECK(sweep(move({1, 1}, {-10, 1}), Rect{{0, 0}, {2, 2}}) == "t=0 stop=(1,1)");
        CHECK(sweep(move({3, 0}, {9, 0}, circle_body(2)), Circle{{0, 0}, 2}) == "t=0 stop=(3,0)");
        CHECK(sweep(move({3, 0}, {9, 0}, circle_body(1)), Circle{{0, 0}, 2}) == "allowed");  // tangent at the start
    }
    SUBCASE("destination mode tests `to` alone: t = 1 when blocked") {
        CHECK(sweep(move({0, 0}, {101, 0}, {}, false), Rect{{100, -50}, {102, 50}}) == "t=1 stop=(101,0)");
        CHECK(sweep(move({0, 0}, {99, 0}, circle_body(1), false), Rect{{100, -50}, {102, 50}}) == "allowed");
        CHECK(sweep(move({0, 0}, {99.5, 0}, circle_body(1), false), Rect{{100, -50}, {102, 50}}) == "t=1 stop=(99.5,0)");
    }
}

TEST_CASE("sweep: every body against every shape type") {
    SUBCASE("point [8, 0]: the point body must hit it exactly; others enter 1 before") {
        const Point p{{8, 0}};
        CHECK(along(kPoint, p) == "t=0.5 stop=(8,0)");
        CHECK(along(kCircle, p) == "t=0.4375 stop=(7,0)");
        CHECK(along(kBox, p) == "t=0.4375 stop=(7,0)");
        CHECK(along(kUpright, p) == "t=0.5 stop=(8,0)");
        CHECK(along(kFlat, p) == "t=0.4375 stop=(7,0)");
        CHECK(sweep(move({0, 1}, {16, 1}, kUpright), p) == "allowed");  // the point is its end
    }
    SUBCASE("circle of radius 2 around [8, 0]: entered at x = 8 - 2 - the body's half width") {
        const Circle c{{8, 0}, 2};
        CHECK(along(kPoint, c) == "t=0.375 stop=(6,0)");
        CHECK(along(kCircle, c) == "t=0.3125 stop=(5,0)");
        CHECK(along(kBox, c) == "t=0.3125 stop=(5,0)");
        CHECK(along(kUpright, c) == "t=0.375 stop=(6,0)");
        CHECK(along(kFlat, c) == "t=0.3125 stop=(5,0)");
        CHECK(along(kPoint, Circle{{8, 0}, 0}) == "t=0.5 stop=(8,0)");  // radius 0: the point
    }
    SUBCASE("rect [8, -4]-[10, 4], and one of zero width (the segment x = 8)") {
        const Rect r{{8, -4}, {10, 4}};
        CHECK(along(kPoint, r) == "t=0.5 stop=(8,0)");
        CHECK(along(kCircle, r) == "t=0.4375 stop=(7,0)");
        CHECK(along(kBox, r) == "t=0.4375 stop=(7,0)");
        CHECK(along(kUpright, r) == "t=0.5 stop=(8,0)");
        CHECK(along(kFlat, r) == "t=0.4375 stop=(7,0)");
        CHECK(along(kPoint, Rect{{8, -4}, {8, 4}}) == "t=0.5 stop=(8,0)");
        CHECK(along(kPoint, Rect{{8, 0}, {8, 4}}) == "allowed");  // passes its end
    }
    SUBCASE("segment [8, -4]-[8, 4] across the path, and one along it") {
        const Segment s{{8, -4}, {8, 4}};
        CHECK(along(kPoint, s) == "t=0.5 stop=(8,0)");
        CHECK(along(kCircle, s) == "t=0.4375 stop=(7,0)");
        CHECK(along(kBox, s) == "t=0.4375 stop=(7,0)");
        CHECK(along(kUpright, s) == "t=0.5 stop=(8,0)");  // collinear with it at x = 8
        CHECK(along(kFlat, s) == "t=0.4375 stop=(7,0)");
        CHECK(along(kPoint, Segment{{8, 0}, {8, 4}}) == "allowed");           // grazes its end
        CHECK(along(kUpright, Segment{{8, 0}, {8, 4}}) == "t=0.5 stop=(8,0)");  // overlaps it
        CHECK(along(kPoint, Segment{{8, 0}, {12, 0}}) == "t=0.5 stop=(8,0)");  // runs along it
        CHECK(along(kUpright, Segment{{8, 1}, {12, 1}}) == "allowed");          // its end slides along
        CHECK(along(kPoint, Segment{{2, 2}, {6, -2}}) == "t=0.25 stop=(4,0)");  // a diagonal
    }
    SUBCASE("ray and line") {
        CHECK(along(kPoint, Ray{{8, -4}, {0, 1}}) == "t=0.5 stop=(8,0)");
        CHECK(along(kPoint, Ray{{8, 0}, {0, 1}}) == "allowed");  // its origin is not interior
        CHECK(along(kCircle, Ray{{8, 0}, {0, 1}}) == "t=0.4375 stop=(7,0)");
        CHECK(along(kCircle, Ray{{8, 2}, {1, 1}}) == "allowed");  // its origin, 2 above the path, is nearest
        CHECK(along(kBox, Ray{{8, 2}, {1, 0}}) == "allowed");     // 1 above the body's top
        CHECK(along(kBox, Ray{{8, 1}, {1, 0}}) == "allowed");     // flush with the body's top
        CHECK(along(kBox, Ray{{12, 0}, {-1, 0}}) == "t=0 stop=(0,0)");
        CHECK(along(kPoint, Line{{8, 0}, {9, 1}}) == "t=0.5 stop=(8,0)");
        CHECK(along(kCircle, Line{{0, 1}, {1, 1}}) == "allowed");  // tangent all along
        CHECK(along(kUpright, Line{{0, 1}, {1, 1}}) == "allowed");  // at the body's end
        CHECK(along(kUpright, Line{{0, 0.5}, {1, 0.5}}) == "t=0 stop=(0,0)");
        CHECK(along(kFlat, Line{{0, 1}, {1, 1}}) == "allowed");
        CHECK(along(kFlat, Line{{12, 0}, {16, 4}}) == "t=0.6875 stop=(11,0)");  // its right end at x = 12
    }
    SUBCASE("polygon: through an edge, through a vertex into the interior, past a vertex") {
        const Polygon tri{{{8, -4}, {12, 0}, {8, 4}}};
        CHECK(along(kPoint, tri) == "t=0.5 stop=(8,0)");
        CHECK(along(kCircle, tri) == "t=0.4375 stop=(7,0)");
        CHECK(along(kBox, tri) == "t=0.4375 stop=(7,0)");
        CHECK(along(kUpright, tri) == "t=0.5 stop=(8,0)");
        CHECK(along(kFlat, tri) == "t=0.4375 stop=(7,0)");
        const Polygon diamond{{{8, 0}, {10, -2}, {12, 0}, {10, 2}}};  // entered at its left vertex
        CHECK(along(kPoint, diamond) == "t=0.5 stop=(8,0)");
        CHECK(along(kPoint, Polygon{{{8, -4}, {12, -4}, {10, 0}}}) == "allowed");       // its top vertex
        CHECK(along(kUpright, Polygon{{{8, -5}, {12, -5}, {10, -1}}}) == "allowed");    // the body's end, same
        CHECK(along(kUpright, Polygon{{{8, -4}, {12, -4}, {10, 0}}}) == "t=0.59375 stop=(9.5,0)");
        // Moving along itself onto the top vertex, whose interior cone holds -y.
        CHECK(sweep(move({10, 8}, {10, -8}, kUpright), Polygon{{{8, -4}, {12, -4}, {10, 0}}}) == "t=0.4375 stop=(10,1)");
        CHECK(sweep(move({10, 8}, {10, -8}, kUpright), Polygon{{{10, 0}, {12, -4}, {14, 0}}}) == "allowed");
        CHECK(along(kPoint, Polygon{{{0, 0}, {16, 0}, {8, -4}}}) == "allowed");  // along an edge
        CHECK(along(kFlat, Polygon{{{0, 0}, {16, 0}, {8, -4}}}) == "allowed");
        CHECK(along(kPoint, Polygon{{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}}) == "t=0 stop=(0,0)");
    }
    SUBCASE("a point body ending on a polygon's boundary is allowed: only the interior blocks it") {
        const Polygon square{{{10, 0}, {12, 0}, {12, 2}, {10, 2}}};
        CHECK(sweep(move({8, 1}, {10, 1}), square) == "allowed");   // on its left edge
        CHECK(sweep(move({8, -2}, {10, 0}), square) == "allowed");  // on its corner
        CHECK(sweep(move({8, 1}, {10, 1}), Compound{{square}}) == "allowed");
        CHECK(sweep(move({8, 1}, {10, 1}, kUpright), square) == "allowed");  // flush along the edge
        // One step further it is inside; starting on the edge and moving in, at once.
        CHECK(sweep(move({8, 1}, {10.5, 1}), square) == "t=0.8 stop=(10,1)");
        CHECK(sweep(move({10, 1}, {11, 1}), square) == "t=0 stop=(10,1)");
        // Through the corner and out past it, never inside.
        CHECK(sweep(move({9, -1}, {11, 1}), Polygon{{{10, 0}, {10, -2}, {12, -2}, {12, 0}}}) == "allowed");
    }
    SUBCASE("polyline: pieces, an interior vertex, and its open ends") {
        CHECK(along(kPoint, Polyline{{{8, -4}, {8, 4}, {12, 4}}}) == "t=0.5 stop=(8,0)");
        CHECK(along(kPoint, Polyline{{{4, 4}, {8, 0}, {12, 4}}}) == "t=0.5 stop=(8,0)");  // the vertex
        CHECK(along(kPoint, Polyline{{{8, 0}, {8, 4}, {12, 4}}}) == "allowed");           // an end
        CHECK(along(kPoint, Polyline{{{8, 4}, {8, 0}, {8, 0}}}) == "allowed");  // a vertex at its end
        CHECK(along(kPoint, Polyline{{{8, 0}, {8, 4}, {12, 4}, {8, 0}}}) == "t=0.5 stop=(8,0)");  // closed
        CHECK(along(kUpright, Polyline{{{4, 5}, {8, 1}, {12, 5}}}) == "allowed");  // y >= 1 throughout
        CHECK(sweep(move({8, 8}, {8, -8}, kUpright), Polyline{{{4, 4}, {8, 0}, {12, 4}}}) == "t=0.4375 stop=(8,1)");
        CHECK(sweep(move({8, 8}, {8, -8}, kUpright), Polyline{{{8, 0}, {12, 4}}}) == "allowed");
        CHECK(along(kCircle, Polyline{{{4, 5}, {8, 1}, {12, 5}}}) == "allowed");
        CHECK(along(kPoint, Polyline{{{8, 0}, {8, 0}}}) == "t=0.5 stop=(8,0)");  // all one point
        // Its end (8, 0) lies inside its first piece: still its boundary (fuzz_sweep, seed
        // 4243), so a point crossing or resting there only touches, as the pair test says.
        const Polyline hook{{{8, -4}, {8, 4}, {12, 4}, {12, 2}, {8, 0}}};
        CHECK(sweep(move({0, -2}, {16, 2}), hook) == "allowed");
        CHECK(sweep(move({8, 0}, {8, 0}), hook) == "allowed");
        CHECK(sweep(move({0, -2}, {8, 0}, kPoint, false), hook) == "allowed");
        CHECK(sweep(move({8, 0}, {0, 0}, rect_body(0, 0)), hook) == "allowed");
        CHECK(sweep(move({8, -8}, {8, 8}), hook) == "t=0.25 stop=(8,-4)");  // along the piece: inside at once
        CHECK(sweep(move({4, -1}, {12, 1}), hook) == "allowed");           // through the end again
        CHECK(sweep(move({0, 1}, {16, 1}), hook) == "t=0.5 stop=(8,1)");     // elsewhere on the piece
        // The same for a zero-width rect body (a segment; fuzz_sweep, a random seed): crossing
        // the piece at the end only, or resting across it there, touches; moving onto the
        // piece's interior, or crossing it elsewhere, is inside.
        const Body stick = rect_body(0, 2);  // a vertical segment 2 long
        const Body bar = rect_body(2, 0);    // a horizontal one
        CHECK(sweep(move({8, 0}, {8, 0}, bar), hook) == "allowed");           // across the piece at the end
        CHECK(sweep(move({4, 0}, {12, 0}, bar), hook) == "allowed");  // along y = 0 it meets both pieces at the end only
        CHECK(sweep(move({4, 1}, {12, 1}, bar), hook) == "t=0.375 stop=(7,1)");  // y = 1: the vertical piece's interior
        CHECK(sweep(move({6, 0}, {6, 0}, bar, false), hook) == "allowed");     // short of the piece
        CHECK(sweep(move({8, -1.5}, {8, -1.5}, stick), hook) == "t=0 stop=(8,-1.5)");  // along the piece
        CHECK(sweep(move({2, 3}, {14, 3}, bar), hook) == "t=0.4166666666666667 stop=(7,3)");  // elsewhere on the piece
    }
    SUBCASE("capsule from [8, -4] to [8, 4] of radius 1, and one with a == b (a disk)") {
        const Capsule c{{8, -4}, {8, 4}, 1};
        CHECK(along(kPoint, c) == "t=0.4375 stop=(7,0)");
        CHECK(along(kCircle, c) == "t=0.375 stop=(6,0)");
        CHECK(along(kBox, c) == "t=0.375 stop=(6,0)");
        CHECK(along(kUpright, c) == "t=0.4375 stop=(7,0)");
        CHECK(along(kFlat, c) == "t=0.375 stop=(6,0)");
        CHECK(along(kBox, Capsule{{8, 3}, {12, 3}, 2}) == "allowed");  // tangent to the body's top
        // Its round end meets the body's corner [x + 1, 1]: (x + 1 - 8)^2 + 2^2 = 2.5^2.
        CHECK(along(kBox, Capsule{{8, 3}, {12, 3}, 2.5}) == "t=0.34375 stop=(5.5,0)");
        CHECK(along(kCircle, Capsule{{8, 0}, {8, 0}, 2}) == "t=0.3125 stop=(5,0)");
    }
    SUBCASE("compound: the first of its parts") {
        const Compound c{{Point{{12, 0}}, Rect{{9, -1}, {10, 1}}}};
        CHECK(along(kPoint, c) == "t=0.5625 stop=(9,0)");
        CHECK(along(kPoint, Compound{{Point{{12, 1}}, Segment{{9, 1}, {10, 1}}}}) == "allowed");
    }
}

TEST_CASE("sweep: a time with a square root is the exact value correctly rounded") {
    // A circle body of radius 1 meets the point [8, 1/2] when (x - 8)^2 + 1/4 = 1:
    // x = 8 - sqrt(3)/2, t = 1/2 - sqrt(3)/32. Long double carries 64 bits: enough to tell
    // the nearest double here (the value is not within 2^-11 ulp of a midpoint).
    const auto t = first_contact(move({0, 0}, {16, 0}, kCircle), Point{{8, 0.5}});
    REQUIRE(t);
    const MoveResult r = blocked_at(move({0, 0}, {16, 0}, kCircle), *t);
    const long double exact_t = 0.5L - std::sqrt(3.0L) / 32.0L;
    const long double exact_x = 8.0L - std::sqrt(3.0L) / 2.0L;
    CHECK(r.t == static_cast<double>(exact_t));
    CHECK(r.stop.x == static_cast<double>(exact_x));
    CHECK(r.stop.y == 0.0);
    // Two circles: radius 3 around [8, 2] against a body of radius 1: (x - 8)^2 + 4 = 16.
    const auto u = first_contact(move({0, 0}, {16, 0}, kCircle), Circle{{8, 2}, 3});
    REQUIRE(u);
    CHECK(blocked_at(move({0, 0}, {16, 0}, kCircle), *u).stop.x == static_cast<double>(8.0L - std::sqrt(12.0L)));
}

TEST_CASE("sweep: times compare exactly; ties tie") {
    const Move m = move({0, 0}, {16, 0}, kCircle);
    const auto a = first_contact(m, Circle{{8, 0}, 1});      // enters at x = 6
    const auto b = first_contact(m, Rect{{7, -3}, {9, 3}});  // enters at x = 6
    const auto c = first_contact(m, Capsule{{7, -9}, {7, 9}, 1});  // enters at x = 5
    const auto d = first_contact(m, Point{{8, 0.5}});        // at x = 8 - sqrt(3)/2, after 6
    REQUIRE(a);
    REQUIRE(b);
    REQUIRE(c);
    REQUIRE(d);
    CHECK(detail::compare(*a, *b) == 0);
    CHECK(detail::compare(*b, *a) == 0);
    CHECK(detail::compare(*c, *a) < 0);
    CHECK(detail::compare(*d, *a) > 0);
    CHECK(detail::compare(*a, *d) < 0);
    CHECK(detail::compare(*a, detail::SweepTime::constant(0.375)) == 0);
}

TEST_CASE("sweep: grids give the time run_move gives") {
    Grid g;
    g.cols = 4;
    g.rows = 4;
    g.tile = {10, 10};
    g.outside_solid = true;
    g.bits.assign(1, 0);
    auto set = [&](std::size_t c, std::size_t r) { g.bits[0] |= std::uint64_t{1} << (r * 4 + c); };
    set(2, 1);
    set(1, 3);
    const std::vector<Move> moves = {
        move({5, 15}, {35, 15}),               move({5, 15}, {35, 15}, circle_body(3)), move({5, 5}, {25, 11}, circle_body(3)),
        move({5, 5}, {5, 60}, rect_body(2, 4)), move({5, 5}, {39, 5}),                   move({5, 5}, {45, 38}, circle_body(1.5)),
        move({5, 5}, {25, 15}, {}, false),       move({5, 5}, {6, 6}),                    move({25, 15}, {0, 0}),
    };
    for (const Move& m : moves) {
        const MoveResult want = detail::run_move(m, g);
        const auto got = first_contact(m, g);
        CHECK(got.has_value() == !want.allowed);
        if (!got) continue;
        const MoveResult r = blocked_at(m, got->first);
        CHECK(describe(r) == describe(want));
        CHECK(got->second == want.cell);
    }
    // A shape's time and a grid's compare exactly: the circle body reaches the cell [2, 1]
    // (x >= 20) at x = 17, and a wall at x = 19 - 2 at the same time.
    const Move m = move({5, 15}, {35, 15}, circle_body(3));
    const auto cell = first_contact(m, g);
    const auto wall = first_contact(m, Segment{{20, 0}, {20, 40}});
    REQUIRE(cell);
    REQUIRE(wall);
    CHECK(detail::compare(cell->first, *wall) == 0);
}

namespace {

// Small random inputs (integers and halves up to 8) where every position at a time k / 2^40
// along the path is an exact double, so that collide() can judge the body there.
class Small {
public:
    explicit Small(unsigned seed) : rng_(seed) {}
    double coord() { return std::uniform_int_distribution<int>(-16, 16)(rng_) * 0.5; }
    double size() { return std::uniform_int_distribution<int>(0, 8)(rng_) * 0.5; }
    Vec2 pos() {
        const double x = coord();
        return Vec2{x, coord()};
    }
    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

    std::optional<Shape> shape() {
        switch (pick(9)) {
            case 0: return Point{pos()};
            case 1: return Circle{pos(), size()};
            case 2: {
                const Vec2 a = pos();
                const Vec2 b = pos();
                return Rect{{std::min(a.x, b.x), std::min(a.y, b.y)}, {std::max(a.x, b.x), std::max(a.y, b.y)}};
            }
            case 3: return Segment{pos(), pos()};
            case 4: {
                const Vec2 a = pos();
                const Vec2 b = pos();
                if (a == b) return std::nullopt;
                return pick(2) ? Shape{Line{a, b}} : Shape{Ray{a, Vec2{b.x - a.x, b.y - a.y}}};
            }
            case 5: {
                std::string why;
                std::vector<Vec2> p(3 + static_cast<std::size_t>(pick(3)));
                for (auto& q : p) q = pos();
                auto ring = simple_polygon(p, why);
                if (!ring) return std::nullopt;
                return Polygon{*ring};
            }
            case 6: {
                std::vector<Vec2> p(1 + static_cast<std::size_t>(pick(4)));
                for (auto& q : p) q = pos();
                return Polyline{p};
            }
            default: {
                const double r = size();
                if (r == 0) return std::nullopt;
                const Vec2 a = pos();
                return Capsule{a, pick(3) ? pos() : a, r};
            }
        }
    }
    Body body() {
        switch (pick(4)) {
            case 0: return {};
            case 1: return circle_body(size());
            case 2: return rect_body(size(), size());
            default: return pick(2) ? rect_body(0, size()) : rect_body(size(), 0);
        }
    }

private:
    std::mt19937 rng_;
};

Shape body_at(const Body& b, Vec2 p) {
    if (b.kind == Body::Kind::Circle) return Circle{p, b.radius};
    if (b.kind == Body::Kind::Rect)
        return Rect{{p.x - b.size.x / 2, p.y - b.size.y / 2}, {p.x + b.size.x / 2, p.y + b.size.y / 2}};
    return Point{p};
}

bool shares_interior(const Body& b, Vec2 p, const Shape& s) {
    const auto c = collide::collide(body_at(b, p), s, false);
    return c && c->relation != Relation::Touch;
}

Vec2 at(const Move& m, double k) {  // from + k / 2^40 (to - from), exact here
    const double t = std::ldexp(k, -40);
    return Vec2{m.from.x + t * (m.to.x - m.from.x), m.from.y + t * (m.to.y - m.from.y)};
}

}  // namespace

TEST_CASE("sweep: a big polygon read through its edge index gives the time of every edge read") {
    // Star-shaped rings of 64 to 400 vertices (combs of spikes, so that many edges are near a
    // path and most are not), both windings; random paths of every body, through and past them.
    std::mt19937_64 rng(2608);
    auto uni = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    const Body bodies[] = {kPoint, kCircle, kBox, kUpright, kFlat};
    int hits = 0;
    for (int round = 0; round < 60; ++round) {
        const std::size_t n = 64 + static_cast<std::size_t>(uni(0, 336));
        Polygon poly;
        for (std::size_t k = 0; k < n; ++k) {
            const double a = 2 * 3.14159265358979323846 * static_cast<double>(k) / static_cast<double>(n);
            const double r = k % 2 ? 20.0 : std::round(uni(25, 60));
            poly.points.push_back(Vec2{std::round(r * std::cos(a)), std::round(r * std::sin(a))});
        }
        if (round % 2) std::reverse(poly.points.begin(), poly.points.end());
        std::string why;
        const auto simple = simple_polygon(poly.points, why);
        if (!simple) continue;
        poly.points = *simple;
        const detail::EdgeIndex index(detail::Ring{poly.points.data(), poly.points.size()});
        for (int k = 0; k < 40; ++k) {
            const Vec2 from{std::round(uni(-80, 80)), std::round(uni(-80, 80))};
            const Vec2 to{std::round(uni(-80, 80)), std::round(uni(-80, 80))};
            const Move m = move(from, to, bodies[k % 5], k % 7 != 0);
            const auto plain = first_contact(m, poly);
            const auto indexed = first_contact(m, poly, &index);
            CAPTURE(round);
            CAPTURE(k);
            REQUIRE(plain.has_value() == indexed.has_value());
            if (plain) {
                CHECK(compare(*plain, *indexed) == 0);
                ++hits;
            }
        }
    }
    CHECK(hits > 500);
}

TEST_CASE("sweep: properties on random small inputs") {
    Small g(16);
    const double one = std::ldexp(1.0, 40);
    int blocked = 0;
    for (int i = 0; i < 6000; ++i) {
        const auto s = g.shape();
        if (!s) continue;
        const Body b = g.body();
        const Move m = move(g.pos(), g.pos(), b);
        const bool two_d = (b.kind == Body::Kind::Circle && b.radius > 0) ||
                           (b.kind == Body::Kind::Rect && b.size.x > 0 && b.size.y > 0);
        const auto t = first_contact(m, *s);
        const auto dest = first_contact(move(m.from, m.to, b, false), *s);
        INFO("shape type " << static_cast<int>(type_of(*s)) << ", body kind " << static_cast<int>(b.kind) << " "
                           << b.radius << " " << b.size.x << "x" << b.size.y << ", " << m.from.x << "," << m.from.y
                           << " -> " << m.to.x << "," << m.to.y);
        CHECK((!dest || t));  // blocked at the destination => blocked along the path
        // The path doubled: the blocking point stays where it was.
        const Move far = move(m.from, Vec2{2 * m.to.x - m.from.x, 2 * m.to.y - m.from.y}, b);
        const auto tf = first_contact(far, *s);
        if (!t) {
            for (int k = 0; k <= 16; ++k) CHECK_FALSE(shares_interior(b, at(m, k * one / 16), *s));
            if (tf) CHECK(detail::compare(*tf, detail::SweepTime::constant(0.5)) >= 0);
            continue;
        }
        ++blocked;
        REQUIRE(tf);
        const MoveResult r = blocked_at(m, *t);
        const Vec2 stop = blocked_at(far, *tf).stop;
        CHECK(stop.x == r.stop.x);
        CHECK(stop.y == r.stop.y);
        // Just before t the body is clear; just after, a 2D body overlaps (its set is open).
        const double k = std::floor(r.t * one);
        if (k >= 1) CHECK_FALSE(shares_interior(b, at(m, k - 1), *s));
        const double after = std::ceil(r.t * one) + 1;
        if (two_d && after <= one) CHECK(shares_interior(b, at(m, after), *s));
        // A point or segment body may hit at an instant (crossing a segment): at t itself.
        if (!two_d && r.t * one == std::floor(r.t * one))
            CHECK((shares_interior(b, at(m, r.t * one), *s) || shares_interior(b, at(m, r.t * one + 1), *s)));
    }
    CHECK(blocked > 500);  // the test sees enough blocked moves to mean something
}

TEST_CASE("sweep: swept_bounds holds the body along the path, exactly where it can") {
    const Bounds b = detail::swept_bounds(move({0, 0}, {16, -2}, circle_body(1)));
    CHECK(b.min.x == -1);
    CHECK(b.min.y == -3);
    CHECK(b.max.x == 17);
    CHECK(b.max.y == 1);
    const Bounds d = detail::swept_bounds(move({0, 0}, {16, -2}, rect_body(3, 0), false));  // `to` alone
    CHECK(d.min.x == 14.5);
    CHECK(d.max.x == 17.5);
    CHECK(d.min.y == -2);
    CHECK(d.max.y == -2);
    // 2^-60 + 1 rounds down to 1: the upper bound moves one double up; 2^-60 - 1 rounds down
    // to -1 already, outward.
    const Bounds r = detail::swept_bounds(move({0x1p-60, 0}, {0x1p-60, 0}, circle_body(1)));
    CHECK(r.max.x == std::nextafter(1.0, 2.0));
    CHECK(r.min.x == -1);
}
