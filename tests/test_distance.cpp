// Distances (SPEC §2.6): distance() and compare_distance() for every pair of shape types,
// and a shape's distance to a grid's solid cells and solid outside. Every expected value is
// worked out by hand in the comment beside it (3-4-5 triangles and axis gaps, so the value
// is exact); an irrational one is checked against std::sqrt, which IEEE 754 rounds
// correctly, or against a value computed independently at high precision.
#include "geometry/edge_index.hpp"
#include "grids/solid_cells.hpp"
#include "queries/distance.hpp"

#include "collide/geometry.hpp"
#include "collide/scene.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <utility>
#include <vector>

using namespace collide;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The distance both ways (they must agree bit for bit), and the exact comparisons that a
// correctly rounded value implies: equal to it when exact, below the next double up, above
// the next one down.
double dist(const Shape& a, const Shape& b) {
    const double d = distance(a, b);
    CHECK(distance(b, a) == d);
    if (d > 0.0 && std::isfinite(d)) {
        CHECK(compare_distance(a, b, std::nextafter(d, kInf)) == -1);
        CHECK(compare_distance(b, a, std::nextafter(d, 0.0)) == 1);
    }
    return d;
}

// A grid of `cols` x `rows` tiles of 10 at the origin, y down, with the given solid cells.
Grid grid(std::size_t cols, std::size_t rows, bool outside_solid, const std::vector<std::pair<std::size_t, std::size_t>>& solid) {
    Grid g;
    g.id = "g";
    g.tile = Vec2{10.0, 10.0};
    g.cols = cols;
    g.rows = rows;
    g.outside_solid = outside_solid;
    g.bits.assign((cols * rows + 63) / 64, 0);
    for (auto [col, row] : solid) {
        const std::size_t i = row * cols + col;
        g.bits[i / 64] |= std::uint64_t{1} << (i % 64);
    }
    return g;
}

Polygon square(double x0, double y0, double x1, double y1) { return Polygon{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}}; }

}  // namespace

// A U open upwards: the notch is x in [-5, 5], y in [2, 10], outside the polygon.
const Polygon kU{{{-10, 0}, {10, 0}, {10, 10}, {5, 10}, {5, 2}, {-5, 2}, {-5, 10}, {-10, 10}}};

TEST_CASE("distance: point against every type") {
    const Shape p = Point{{0, 5}};
    CHECK(dist(p, Point{{3, 9}}) == 5);                          // (3, 4)
    CHECK(dist(p, Circle{{6, 13}, 2}) == 8);                     // 10 - 2
    CHECK(dist(p, Rect{{3, -10}, {4, 1}}) == 5);                 // to the corner (3, 1): (3, 4)
    CHECK(dist(p, Segment{{-3, 1}, {3, 1}}) == 4);               // straight down onto it
    CHECK(dist(p, Segment{{3, 1}, {9, 1}}) == 5);                // to the end (3, 1)
    CHECK(dist(p, Line{{10, 1}, {11, 1}}) == 4);                 // the line y = 1
    CHECK(dist(p, Ray{{3, 1}, {1, 0}}) == 5);                    // behind the origin: to it
    CHECK(dist(p, Ray{{-3, 1}, {1, 0}}) == 4);                   // above the ray
    CHECK(dist(p, square(3, 9, 5, 11)) == 5);                    // corner (3, 9)
    CHECK(dist(p, square(-1, 4, 1, 6)) == 0);                    // inside
    CHECK(dist(p, kU) == 3);                                     // in the notch: its floor y = 2
    CHECK(dist(p, Polyline{{{-4, -4}, {4, -4}, {4, 8}}}) == 4);  // the piece x = 4
    CHECK(dist(p, Capsule{{10, 0}, {10, 10}, 1}) == 9);          // axis x = 10, less the radius
    CHECK(dist(p, Compound{{Circle{{0, 20}, 5}, Rect{{-1, -10}, {1, -3}}}}) == 8);  // the rect: 5 - (-3)
    // Irrational: sqrt(5), which std::sqrt rounds correctly.
    CHECK(dist(Point{{0, 0}}, Point{{1, 2}}) == std::sqrt(5.0));
}

TEST_CASE("distance: circle against every type") {
    const Shape c = Circle{{0, 0}, 1};
    CHECK(dist(c, Circle{{10, 0}, 1}) == 8);
    CHECK(dist(c, Rect{{3, 4}, {6, 6}}) == 4);                  // corner (3, 4) at 5, less 1
    CHECK(dist(c, Segment{{-5, 3}, {5, 3}}) == 2);
    CHECK(dist(c, Line{{7, -1}, {7, 1}}) == 6);
    CHECK(dist(c, Ray{{0, 5}, {0, 1}}) == 4);
    CHECK(dist(c, Polygon{{{6, 8}, {10, 8}, {6, 12}}}) == 9);    // vertex (6, 8) at 10
    CHECK(dist(c, Polyline{{{-6, -8}, {-6, -20}}}) == 9);        // end (-6, -8) at 10
    CHECK(dist(c, Capsule{{3, 4}, {3, 40}, 2}) == 2);            // 5 - 1 - 2
    CHECK(dist(c, Compound{{Point{{0, 3}}, Circle{{0, -5}, 1}}}) == 2);
    CHECK(dist(Circle{{0, 6}, 1}, kU) == 3);                     // in the notch: floor at 4
    // Irrational: sqrt(18) - 2; the value below is its correct rounding, computed with
    // Python's decimal module at 80 digits.
    CHECK(dist(c, Circle{{3, 3}, 1}) == 2.242640687119285);
}

TEST_CASE("distance: rect against every type") {
    const Shape r = Rect{{0, 0}, {1, 1}};
    CHECK(dist(r, Rect{{4, 5}, {6, 6}}) == 5);                  // gaps 3 and 4
    CHECK(dist(r, Rect{{0.5, 3}, {3, 4}}) == 2);                // x ranges overlap: the y gap
    CHECK(dist(r, Segment{{4, -5}, {4, 10}}) == 3);
    CHECK(dist(r, Line{{0, 9}, {1, 9}}) == 8);
    CHECK(dist(r, Ray{{-2, 0.5}, {-1, 0}}) == 2);                // pointing away: its origin
    CHECK(dist(r, square(4, 5, 6, 6)) == 5);
    CHECK(dist(r, Polyline{{{1, 4}, {5, 4}, {5, 0}}}) == 3);
    CHECK(dist(r, Capsule{{4, -3}, {4, 3}, 1}) == 2);
    CHECK(dist(r, Compound{{Rect{{3, 0}, {4, 1}}, Circle{{0.5, 10}, 1}}}) == 2);
    CHECK(dist(r, Rect{{1, 1}, {2, 2}}) == 0);                  // corners touch
}

TEST_CASE("distance: segment, line and ray") {
    const Shape s = Segment{{0, 0}, {4, 0}};
    CHECK(dist(s, Segment{{1, 3}, {5, 3}}) == 3);               // parallel
    CHECK(dist(s, Segment{{2, -1}, {2, 1}}) == 0);              // crossing
    CHECK(dist(s, Segment{{7, 4}, {9, 4}}) == 5);               // end to end: (3, 4)
    CHECK(dist(s, Line{{0, -2}, {1, -2}}) == 2);
    CHECK(dist(s, Ray{{2, 3}, {0, 1}}) == 3);
    CHECK(dist(s, Ray{{8, 3}, {-1, 0}}) == 3);                   // passes above it
    CHECK(dist(s, Capsule{{6, 0}, {10, 0}, 1}) == 1);            // collinear
    CHECK(dist(s, Polyline{{{0, 2}, {4, 2}}}) == 2);
    const Shape l = Line{{0, 0}, {1, 0}};
    CHECK(dist(l, Line{{0, 5}, {7, 5}}) == 5);                   // parallel lines
    CHECK(dist(l, Line{{0, 5}, {7, 6}}) == 0);                   // they cross somewhere
    CHECK(dist(l, Ray{{0, 2}, {3, 4}}) == 2);                    // pointing away
    CHECK(dist(l, Ray{{0, 2}, {1, 0}}) == 2);                    // parallel
    CHECK(dist(l, square(-1, 3, 1, 4)) == 3);
    CHECK(dist(l, Capsule{{0, 4}, {5, 6}, 1}) == 3);
    CHECK(dist(l, Circle{{3, -7}, 2}) == 5);
    const Shape ray = Ray{{0, 0}, {-1, 0}};
    CHECK(dist(ray, Ray{{3, 4}, {1, 0}}) == 5);                  // apart: origin to origin
    CHECK(dist(ray, Ray{{3, 4}, {-1, 0}}) == 4);                 // side by side from x = 0 on
    CHECK(dist(ray, square(2, -1, 3, 1)) == 2);
    CHECK(dist(ray, Polyline{{{-5, 3}, {5, 3}}}) == 3);
    CHECK(dist(ray, Circle{{-10, -4}, 1}) == 3);
}

TEST_CASE("distance: polygon, polyline, capsule and compound") {
    CHECK(dist(kU, square(-2, 4, 2, 5)) == 2);                  // in the notch
    CHECK(dist(kU, Segment{{-3, 7}, {3, 7}}) == 2);             // its ends to the notch walls
    CHECK(dist(kU, square(20, 0, 24, 10)) == 10);
    const Shape pl = Polyline{{{0, 0}, {10, 0}, {10, 10}}};
    CHECK(dist(pl, Point{{5, 5}}) == 5);
    CHECK(dist(pl, Polyline{{{0, 3}, {-4, 6}}}) == 3);
    // A closed polyline is a loop, not a region: a circle inside is apart from it.
    CHECK(dist(Polyline{{{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0}}}, Circle{{5, 5}, 1}) == 4);
    CHECK(dist(square(0, 0, 10, 10), Circle{{5, 5}, 1}) == 0);
    const Shape cap = Capsule{{0, 0}, {10, 0}, 1};
    CHECK(dist(cap, Capsule{{0, 5}, {10, 5}, 1}) == 3);
    CHECK(dist(cap, Capsule{{13, 4}, {20, 4}, 1}) == 3);        // ends (10, 0), (13, 4): 5 - 2
    CHECK(dist(cap, Rect{{-4, -10}, {-2, 10}}) == 1);
    CHECK(dist(cap, Circle{{5, 3}, 2}) == 0);                   // touching: 3 - 1 - 2
    CHECK(compare_distance(cap, Circle{{5, 3}, 2}, 0) == 0);
    CHECK(compare_distance(cap, Circle{{5, 3}, 2}, 0.5) == -1);
    const Shape comp = Compound{{Circle{{0, 0}, 1}, Rect{{10, 0}, {12, 2}}}};
    CHECK(dist(comp, Compound{{Point{{0, 5}}, Segment{{15, 0}, {15, 2}}}}) == 3);  // rect to segment
    CHECK(dist(comp, Compound{{Point{{0, 5}}, Segment{{11, 0}, {11, 9}}}}) == 0);  // a part overlaps
}

TEST_CASE("distance: big polygons are read by their edge index") {
    // A 1000 x 1000 square with a vertex at every unit of its bottom side, and its copy
    // 1005 higher.
    std::vector<Vec2> pts;
    for (int x = 0; x <= 1000; ++x) pts.push_back(Vec2{static_cast<double>(x), 0});
    pts.push_back(Vec2{1000, 1000});
    pts.push_back(Vec2{0, 1000});
    const Polygon big{pts};
    std::vector<Vec2> up = pts;
    for (Vec2& v : up) v.y += 1005;
    CHECK(dist(big, Point{{500.5, -7}}) == 7);
    CHECK(dist(big, Circle{{1003, 500}, 1}) == 2);
    CHECK(dist(big, Polygon{up}) == 5);
    CHECK(compare_distance(big, Polygon{up}, 5) == 0);
    CHECK(compare_distance(big, Polygon{up}, 4.5) == 1);
    // With the index check() prepares for a scene's big shapes, the same answers. The index
    // points into the shape it was made for, which must outlive it (a scene's shape does).
    const Shape big_shape = big;
    const std::unique_ptr<collide::detail::EdgeIndex> index = collide::detail::index_if_big(big_shape);
    REQUIRE(index != nullptr);
    const collide::detail::Prepared prepared{index.get()};
    collide::detail::Scratch scratch;
    CHECK(collide::detail::distance(big_shape, Point{{500.5, -7}}, prepared, {}, scratch) == 7);
    CHECK(collide::detail::distance(Polygon{up}, big_shape, {}, prepared, scratch) == 5);
    CHECK(collide::detail::compare_distance(big_shape, Circle{{1003, 500}, 1}, 2, prepared, {}, scratch) == 0);
}

TEST_CASE("distance: clearance exactly equal to the distance") {
    // Two unit circles with centres 10 apart are exactly 8 apart: a clearance of 8 is met.
    const Shape a = Circle{{0, 0}, 1};
    const Shape b = Circle{{10, 0}, 1};
    CHECK(compare_distance(a, b, 8) == 0);
    CHECK(compare_distance(a, b, std::nextafter(8.0, 0.0)) == 1);
    CHECK(compare_distance(a, b, std::nextafter(8.0, 9.0)) == -1);
    // A colliding pair is at 0: equal to 0, below any positive bound.
    CHECK(distance(a, Circle{{1, 0}, 1}) == 0);
    CHECK(compare_distance(a, Circle{{1, 0}, 1}, 0) == 0);
    CHECK(compare_distance(a, Circle{{1, 0}, 1}, 1e-300) == -1);
    CHECK(compare_distance(kU, Point{{0, 5}}, 3) == 0);
    CHECK(compare_distance(Point{{0, 5}}, kU, 2.5) == 1);
}

TEST_CASE("distance: coordinates near 1e9, and correct rounding where doubles are off") {
    CHECK(dist(Circle{{1e9, 1e9}, 1}, Circle{{1e9 + 3, 1e9 + 4}, 1}) == 3);
    CHECK(dist(Segment{{1e9, 1e9}, {1e9 + 4, 1e9}}, Point{{1e9 + 2, 1e9 + 0.5}}) == 0.5);
    // sqrt(42^2 + 1^2) - (0.8 + 0.5) is 40.711903075200006 correctly rounded (Python's
    // decimal, 80 digits); sqrt(1765) - 0.8 - 0.5 in doubles gives 40.71190307520001.
    const Shape a = Circle{{1000000044.0, 1000000029.0}, 0.8};
    const Shape b = Circle{{1000000086.0, 1000000028.0}, 0.5};
    CHECK(dist(a, b) == 40.711903075200006);
    CHECK(std::sqrt(1765.0) - 0.8 - 0.5 == 40.71190307520001);
}

TEST_CASE("distance: a shape against a grid") {
    using collide::detail::compare_distance;
    using collide::detail::distance;
    // 5 x 5 cells of 10; cell [2, 2] solid: the closed square [20, 30] x [20, 30].
    const Grid g = grid(5, 5, false, {{2, 2}});
    CHECK(distance(Shape{Point{{17, 25}}}, g) == 3);              // 3 units left of the cell
    CHECK(compare_distance(Shape{Point{{17, 25}}}, g, 3) == 0);
    CHECK(compare_distance(Shape{Point{{17, 25}}}, g, 2.5) == 1);
    CHECK(distance(Shape{Circle{{12, 25}, 5}}, g) == 3);
    CHECK(distance(Shape{Point{{33, 34}}}, g) == 5);              // corner (30, 30): (3, 4)
    CHECK(distance(Shape{Rect{{10, 20}, {20, 30}}}, g) == 0);     // flush against it
    CHECK(compare_distance(Shape{Rect{{10, 20}, {20, 30}}}, g, 0) == 0);
    CHECK(distance(Shape{Point{{25, 25}}}, g) == 0);              // inside: collides
    CHECK(compare_distance(Shape{Point{{25, 25}}}, g, 1) == -1);
    // The segment x + y = 65 passes the corner (30, 30) at 5 / sqrt(2) = sqrt(12.5).
    CHECK(distance(Shape{Segment{{30, 35}, {35, 30}}}, g) == std::sqrt(12.5));
    CHECK(distance(Shape{Compound{{Point{{0, 0}}, Segment{{40, 20}, {40, 30}}}}}, g) == 10);
    CHECK(distance(Shape{Line{{0, 45}, {1, 45}}}, g) == 15);      // y = 45, cell bottom 30
    // With a solid outside and nothing solid inside: the gap to the border (extent [0, 50]^2).
    const Grid walls = grid(5, 5, true, {});
    CHECK(distance(Shape{Point{{2, 25}}}, walls) == 2);
    CHECK(distance(Shape{Circle{{25, 47}, 1}}, walls) == 2);
    CHECK(compare_distance(Shape{Circle{{25, 47}, 1}}, walls, 2) == 0);
    CHECK(distance(Shape{Rect{{0, 10}, {5, 20}}}, walls) == 0);   // flush with the border
    CHECK(distance(Shape{Point{{60, 25}}}, walls) == 0);          // in the outside
    // Nothing solid at all: infinitely far.
    const Grid empty = grid(5, 5, false, {});
    CHECK(distance(Shape{Point{{2, 25}}}, empty) == kInf);
    CHECK(compare_distance(Shape{Point{{2, 25}}}, empty, 1e300) == 1);
    // Lattice edges are exact: with tiles of 0.1, cell 3 starts at 3 x 0.1 (the double 0.1
    // times 3, exactly), 2^-55 above the double 0.3; the doubles' 3 * 0.1 - 0.3 is 2^-54.
    Grid fine = grid(5, 1, false, {{3, 0}});
    fine.tile = Vec2{0.1, 0.1};
    CHECK(distance(Shape{Point{{0.3, 0.05}}}, fine) == 0x1p-55);
    CHECK(3 * 0.1 - 0.3 == 0x1p-54);
    // Far from a big grid's one solid cell: found by rings of cells.
    const Grid far = grid(100, 100, false, {{90, 5}});
    CHECK(distance(Shape{Point{{5, 55}}}, far) == 895);           // x 900 - 5, y in [50, 60]
    const collide::detail::SolidCells far_cells(far);             // the same by the solid cells alone
    CHECK(distance(Shape{Point{{5, 55}}}, far, &far_cells) == 895);
    CHECK(compare_distance(Shape{Point{{5, 55}}}, far, 1e9, &far_cells) == -1);
    CHECK(compare_distance(Shape{Point{{5, 55}}}, far, 895, &far_cells) == 0);
}

TEST_CASE("distance: a grid's solid cells indexed give the answers of the plain scan") {
    // Random grids (y down and up, outside empty and solid, 1 to 40 cells a side, from none to
    // half of them solid) and random shapes in and around them: distance() and
    // compare_distance() with SolidCells equal the scan of every cell in reach.
    using collide::detail::compare_distance;
    using collide::detail::distance;
    std::mt19937_64 rng(25);
    auto uni = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    for (int round = 0; round < 300; ++round) {
        const auto cols = static_cast<std::size_t>(uni(1, 41)), rows = static_cast<std::size_t>(uni(1, 41));
        const double share = round % 3 == 0 ? 0.0 : std::pow(uni(0, 1), 3) * 0.5;
        std::vector<std::pair<std::size_t, std::size_t>> solid;
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < cols; ++c)
                if (uni(0, 1) < share) solid.emplace_back(c, r);
        if (round % 3 == 1 && solid.empty()) solid.emplace_back(cols - 1, 0);
        Grid g = grid(cols, rows, round % 4 == 3, solid);
        g.y_up = round % 2 == 1;
        g.origin = Vec2{uni(-50, 50), uni(-50, 50)};
        g.tile = Vec2{uni(0.5, 12), uni(0.5, 12)};
        const collide::detail::SolidCells cells(g);
        const double w = static_cast<double>(cols) * g.tile.x, h = static_cast<double>(rows) * g.tile.y;
        for (int k = 0; k < 8; ++k) {
            const Vec2 p{g.origin.x + uni(-0.5, 1.5) * w, g.origin.y + uni(-0.5, 1.5) * h};
            const Shape shapes[] = {Point{p}, Circle{p, uni(0, 6)}, Segment{p, {p.x + uni(-9, 9), p.y + uni(-9, 9)}},
                                    Rect{p, {p.x + uni(0, 7), p.y + uni(0, 7)}}};
            for (const Shape& sh : shapes) {
                const double plain = distance(sh, g);
                CAPTURE(round);
                CHECK(distance(sh, g, &cells) == plain);
                for (const double d : {0.0, uni(0, 20), plain, 1e6})
                    if (std::isfinite(d)) CHECK(compare_distance(sh, g, d, &cells) == compare_distance(sh, g, d));
            }
        }
    }
}
