// The capsule (SPEC §1.1) against every other kind and against grids: worked examples, each
// derived by hand. Every pair goes through both(), which also checks that the reversed call
// gives the mirrored relation and the same points. Points that are input values or exact
// sums of them are compared exactly; irrational ones (where a line crosses a cap) with near().
#include "collide/geometry.hpp"

#include "grids/grid_ops.hpp"

#include "collide/scene.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

using collide::Capsule;
using collide::Circle;
using collide::Line;
using collide::Point;
using collide::Polygon;
using collide::Rect;
using collide::Relation;
using collide::Segment;
using collide::Shape;
using collide::Vec2;

namespace {

using Points = std::vector<Vec2>;

struct Result {
    std::optional<Relation> relation;
    Points points;
};

// collide(a, b), checked against collide(b, a): the mirrored relation and the same points.
Result both(const Shape& a, const Shape& b) {
    const auto ab = collide::collide(a, b);
    const auto ba = collide::collide(b, a);
    REQUIRE(ab.has_value() == ba.has_value());
    Result r;
    if (!ab) return r;
    CHECK(ba->relation == collide::mirrored(ab->relation));
    CHECK(ba->points.size() == ab->points.size());
    r.relation = ab->relation;
    r.points = ab->points;
    return r;
}

Shape capsule(Vec2 a, Vec2 b, double r) { return Capsule{a, b, r}; }

bool near(Vec2 p, Vec2 q) {
    const double scale = std::max({1.0, std::fabs(q.x), std::fabs(q.y)});
    return std::fabs(p.x - q.x) <= 1e-12 * scale && std::fabs(p.y - q.y) <= 1e-12 * scale;
}

std::string grid_hit(const Shape& shape, const std::string& grid) {
    const collide::Scene s = collide::read_scene(R"({"grids": [{"id": "g", )" + grid + "}]}", "test_capsule.json");
    const auto h = collide::detail::shape_vs_grid(shape, s.grids[0]);
    if (!h) return "none";
    std::string out;
    for (const collide::Cell& c : h->cells)
        out += (out.empty() ? "[" : " [") + std::to_string(c.col) + "," + std::to_string(c.row) + "]";
    if (h->outside) out += out.empty() ? "outside" : " outside";
    return out;
}

}  // namespace

TEST_CASE("capsule: pairs") {
    // The capsule used by most cases: core (0, 0)-(10, 0), radius 2, so its sides are y = +-2
    // for 0 <= x <= 10 and its caps the half circles of radius 2 about (0, 0) and (10, 0).
    const Shape cap = capsule({0, 0}, {10, 0}, 2);

    SUBCASE("capsule-capsule parallel at exactly r1 + r2 apart touches along the shared side") {
        // Cores 3 apart, radii 1 and 2: the upper side of a (y = 1, x in [0, 10]) and the
        // lower side of b (y = 1, x in [2, 6]) share the piece from (2, 1) to (6, 1).
        const Result r = both(capsule({0, 0}, {10, 0}, 1), capsule({6, 3}, {2, 3}, 2));
        CHECK(r.relation == Relation::Touch);
        CHECK(r.points == Points{{2, 1}, {6, 1}});
        CHECK(both(capsule({0, 0}, {10, 0}, 1), capsule({6, 3}, {2, 3}, 1.9999999999999998)).relation == std::nullopt);
        CHECK(both(capsule({0, 0}, {10, 0}, 1), capsule({6, 3}, {2, 3}, 2.0000000000000004)).relation == Relation::Overlap);
    }
    SUBCASE("a capsule's end cap touching a rect corner") {
        // (7, 4) is 5 from the end (4, 0): a 3-4-5 triangle; the rest of the rect is farther.
        const Result r = both(capsule({0, 0}, {4, 0}, 5), Rect{{7, 4}, {9, 6}});
        CHECK(r.relation == Relation::Touch);
        CHECK(r.points == Points{{7, 4}});
        CHECK(both(capsule({0, 0}, {4, 0}, 5), Rect{{7, 4.000000000000001}, {9, 6}}).relation == std::nullopt);
    }
    SUBCASE("capsule within a rect, its sides on the rect's edges") {
        // Core (2, 1)-(8, 1), radius 1: sides y = 0 and y = 2 for x in [2, 8] lie on the
        // rect's edges; the caps reach x = 1 and x = 9 inside it.
        const Result r = both(Rect{{0, 0}, {10, 2}}, capsule({2, 1}, {8, 1}, 1));
        CHECK(r.relation == Relation::Contains);
        CHECK(r.points == Points{{2, 0}, {2, 2}, {8, 0}, {8, 2}});
        // The same as a polygon.
        const Result p = both(Polygon{{{0, 0}, {10, 0}, {10, 2}, {0, 2}}}, capsule({2, 1}, {8, 1}, 1));
        CHECK(p.relation == Relation::Contains);
        CHECK(p.points == r.points);
    }
    SUBCASE("a point on the side, on the cap, at the tip") {
        CHECK(both(Point{{5, 2}}, cap).points == Points{{5, 2}});
        CHECK(both(Point{{5, 2}}, cap).relation == Relation::Touch);
        const Shape big = capsule({0, 0}, {10, 0}, 5);
        CHECK(both(Point{{13, 4}}, big).relation == Relation::Touch);  // 3-4-5 from the end (10, 0)
        CHECK(both(Point{{13, 4.000000000000001}}, big).relation == std::nullopt);
        CHECK(both(Point{{12, 0}}, cap).relation == Relation::Touch);  // the tip
        CHECK(both(Point{{12, 0}}, cap).points == Points{{12, 0}});
        CHECK(both(Point{{11.999999999999998, 0}}, cap).relation == Relation::Within);
        CHECK(both(Point{{-2, 0.000000000000001}}, cap).relation == std::nullopt);
    }
    SUBCASE("a line along the capsule's side touches it in the side's two ends") {
        const Result r = both(Line{{-5, 2}, {20, 2}}, cap);
        CHECK(r.relation == Relation::Touch);
        CHECK(r.points == Points{{0, 2}, {10, 2}});
        // y = 1 crosses both caps at x = -sqrt(3) and 10 + sqrt(3).
        const Result c = both(Line{{-5, 1}, {20, 1}}, cap);
        CHECK(c.relation == Relation::Overlap);
        REQUIRE(c.points.size() == 2);
        CHECK(near(c.points[0], {-std::sqrt(3.0), 1}));
        CHECK(near(c.points[1], {10 + std::sqrt(3.0), 1}));
        // A segment tangent to the cap at the tip.
        CHECK(both(Segment{{12, -5}, {12, 5}}, cap).points == Points{{12, 0}});
    }
    SUBCASE("a capsule contains a circle tangent inside") {
        // Radius 3 about the core; the circle about (5, 1), radius 2, reaches y = 3.
        const Result r = both(Circle{{5, 1}, 2}, capsule({0, 0}, {10, 0}, 3));
        CHECK(r.relation == Relation::Within);
        CHECK(r.points == Points{{5, 3}});
        // A circle holding the capsule, tangent to both caps at the tips (-3, 0) and (13, 0).
        const Result h = both(Circle{{5, 0}, 8}, capsule({0, 0}, {10, 0}, 3));
        CHECK(h.relation == Relation::Contains);
        CHECK(h.points == Points{{-3, 0}, {13, 0}});
    }
    SUBCASE("a capsule with a == b is the circle; identical capsules are equal either way") {
        CHECK(both(capsule({1, 2}, {1, 2}, 3), Circle{{1, 2}, 3}).relation == Relation::Equal);
        const Result e = both(cap, capsule({10, 0}, {0, 0}, 2));
        CHECK(e.relation == Relation::Equal);
        CHECK(e.points == Points{{0, -2}, {0, 2}, {10, -2}, {10, 2}});
        CHECK(both(capsule({0, 0}, {5, 0}, 2), cap).relation == Relation::Within);
    }
    SUBCASE("coordinates near 1e9 with decimals") {
        const double o = 1e9;
        const Shape a = capsule({o + 0.5, o + 0.25}, {o + 10.5, o + 0.25}, 0.75);
        CHECK(both(Point{{o + 5.5, o + 1}}, a).relation == Relation::Touch);  // 0.25 + 0.75 = 1
        CHECK(both(Point{{o + 5.5, o + 1.0000001192092896}}, a).relation == std::nullopt);
        const Result r = both(a, capsule({o + 2.5, o + 1.75}, {o + 4.5, o + 1.75}, 0.75));
        CHECK(r.relation == Relation::Touch);
        CHECK(r.points == Points{{o + 2.5, o + 1}, {o + 4.5, o + 1}});
        CHECK(both(a, capsule({o + 2.5, o + 1.75}, {o + 4.5, o + 1.75}, 0.7500001)).relation == Relation::Overlap);
    }
    SUBCASE("an end exactly r from an edge does not hide a corner nearer than r") {
        // The end (4.5, 0) is 0.5 from the rect's bottom edge's end (4, 0), but that corner
        // is 48 / sqrt(9272.25) < 0.5 from the core, whose foot lies inside it (fuzz_grid).
        CHECK(both(capsule({4.5, 0}, {-3, -96}, 0.5), Rect{{3, 0}, {4, 32}}).relation == Relation::Overlap);
        CHECK(both(capsule({-999999995.5, 0}, {-1000000003, -96}, 0.5), Rect{{-999999997, 0}, {-999999996, 32}}).relation ==
              Relation::Overlap);
    }
    SUBCASE("fuzz findings: extreme directions and coordinates still give the points") {
        // A vertical line whose direction is the least subnormal: x = 0 crosses the sides.
        const Result l = both(Line{{0, 0}, {0, -4.9406564584124654e-324}}, capsule({0.4, -8}, {-8, -8}, 8));
        CHECK(l.relation == Relation::Overlap);
        CHECK(l.points == Points{{0, -16}, {0, 0}});
        // A segment from -DBL_MAX enters the cap about (-4, -4) at y = -8: x = -4 - sqrt(33).
        const Result s = both(Segment{{-1.7976931348623157e308, -8}, {-8, -8}}, capsule({-4, -4}, {0, -4}, 7));
        CHECK(s.relation == Relation::Overlap);
        REQUIRE(s.points.size() == 1);
        CHECK(near(s.points[0], {-4 - std::sqrt(33.0), -8}));
        // A core from -DBL_MAX: y = -4 + 4 (x + 7) / 3 leaves the lower side at (-16, -16) and
        // the cap about (-8, -8) where 25 X^2 + 64 X - 512 = 0, X = x + 8.
        const Result h = both(Line{{-7, -4}, {-1, 4}}, capsule({-1.7976931348623157e308, -8}, {-8, -8}, 8));
        CHECK(h.relation == Relation::Overlap);
        REQUIRE(h.points.size() == 2);
        const double X = (-64 + std::sqrt(55296.0)) / 50;
        CHECK(near(h.points[0], {-16, -16}));
        CHECK(near(h.points[1], {X - 8, -4 + 4 * (X - 1) / 3}));
    }
    SUBCASE("a ray nearly along a side leaves where it crosses the side, whichever end comes first") {
        // From (0, -2^-1074), rising 2^-1022 - 2^-1074 per 8 to the left, inside the cap about
        // (-2^-1074, -8): it crosses the upper side y = 0 at x = -8 / (2^52 - 1), about -2^-49.
        // The sides' lines rounded by 2^-1074 once moved it to -2^-535 or, the ends swapped, -8.
        const double tiny = 4.9406564584124654e-324;
        const collide::Ray ray{{0, -tiny}, {-8, 2.2250738585072009e-308}};
        for (const Shape& c : {capsule({-tiny, -8}, {-8, -8}, 8), capsule({-8, -8}, {-tiny, -8}, 8)}) {
            const Result r = both(ray, c);
            CHECK(r.relation == Relation::Overlap);
            REQUIRE(r.points.size() == 1);
            CHECK(std::fabs(r.points[0].x + 0x1p-49) <= 1e-9 * 0x1p-49);
            CHECK(std::fabs(r.points[0].y) <= 1e-300);
        }
        // The same at an angle of 2.5e-13: y = -1e-12 + 2e-12 t reaches 0 at t = 1/2, x = -4
        // (it was 3.6e-4 off).
        const Result n = both(collide::Ray{{0, -1e-12}, {-8, 2e-12}}, capsule({0, -8}, {-8, -8}, 8));
        CHECK(n.relation == Relation::Overlap);
        REQUIRE(n.points.size() == 1);
        CHECK(near(n.points[0], {-4, 0}));
    }
}

TEST_CASE("capsule: points are the exact values correctly rounded") {
    // SPEC §2.3. Every expected double below was computed independently of the library: each
    // outline part (the two sides as segments a + s r n to b + s r n, n = perp(b - a) / |b - a|,
    // and the two caps as half circles) met with the other shape's parts by solving the line-
    // line, line-circle and circle-circle equations in Python's decimal at 100 digits, then
    // float(Decimal) (correctly rounded); rational values with fractions.Fraction. E.g. for a
    // side against a circle: |a + s r n + t u - c|^2 = rho^2 solved for t, x = a + s r n + t u.
    SUBCASE("a side crossing a circle twice (side-arc, a root inside a root)") {
        // Core (0, 0)-(10, 3), radius 1: the upper side meets the circle about (5, 3) of radius
        // 1.5 twice; the lower side and the caps stay out of it.
        const Result r = both(Circle{{5, 3}, 1.5}, capsule({0, 0}, {10, 3}, 1));
        CHECK(r.points == Points{{3.751004194220232, 2.1693319091571244}, {6.499988108041573, 2.9940270833035267}});
    }
    SUBCASE("a cap nearly tangent to a side (side-arc near tangency)") {
        // A's upper side is 1 from the core (0, 0)-(8, 6); B's cap about (2.8, 4.6), of radius
        // 1 + 2^-30, reaches about 2^-30 past it: a chord of half-length about 3.5e-5.
        const Result r = both(capsule({0, 0}, {8, 6}, 1), capsule({2.8, 4.6}, {2.2, 5.4}, 1 + 0x1p-30));
        CHECK(r.points == Points{{3.399965473298399, 3.799974104973799}, {3.400034526701601, 3.8000258950262005}});
    }
    SUBCASE("two sides crossing (side-side, two different roots)") {
        const Result r = both(capsule({0, 0}, {10, 3}, 1), capsule({3, -4}, {6, 8}, 0.5));
        CHECK(r.points == Points{{3.484977442243274, 0.0014625817819272555},
                                 {4.049318334616817, 2.2588261512761},
                                 {4.599330314031831, 0.3357684433184943},
                                 {5.1636712064053745, 2.593132012812667}});
    }
    SUBCASE("parallel sides share a piece: its ends are side ends") {
        // |b - a| = 10, so n = (-0.6, 0.8): B's lower side runs from (-1, 5.5) - 3 n =
        // (0.8, 3.1) to (4.8, 6.1) exactly, on A's upper side; the points are the doubles
        // nearest those decimals.
        const Result r = both(capsule({0, 0}, {8, 6}, 2), capsule({-1, 5.5}, {3, 8.5}, 3));
        CHECK(r.relation == Relation::Touch);
        CHECK(r.points == Points{{0.8, 3.1}, {4.8, 6.1}});
    }
    SUBCASE("a segment enters through a side and leaves through a cap") {
        // The upper side is 8 y - 6 x = 10: the entry is (37 / 7, 73 / 14), rounded.
        const Result r = both(Segment{{4, 5}, {10, 6}}, capsule({0, 0}, {8, 6}, 1));
        CHECK(r.points == Points{{5.285714285714286, 5.214285714285714}, {8.985604753492654, 5.830934125582109}});
        // A line entering through the cap about (0, 0), leaving through the lower side.
        const Result l = both(Line{{-2, 1}, {1, 0.2}}, capsule({0, 0}, {8, 6}, 1));
        CHECK(l.points == Points{{-0.7462493647645863, 0.6656664972705564}, {1.6885245901639345, 0.01639344262295083}});
        // Through the double nearest the junction (-0.6, 0.8) of the upper side and the cap:
        // which of the two it enters by is decided exactly; the point rounds to those doubles.
        const Result j = both(Line{{-0.6, 0.8}, {0.4, -1.2}}, capsule({0, 0}, {8, 6}, 1));
        CHECK(j.points == Points{{-0.6, 0.8}, {0.28, -0.96}});
    }
    SUBCASE("a segment tangent to a cap: the foot from the cap's centre") {
        // The tangent at (10.6, 0.8) = (10, 0) + (0.6, 0.8) runs along (4, -3) through (9, 2)
        // and (11, 0.5); the foot of (10, 0) on it is (10.6, 0.8) exactly, rounded.
        const Result r = both(Segment{{9, 2}, {11, 0.5}}, capsule({0, 0}, {10, 0}, 1));
        CHECK(r.relation == Relation::Touch);
        CHECK(r.points == Points{{10.6, 0.8}});
    }
    SUBCASE("a side end exactly halfway between two doubles rounds to the even one") {
        // Core a = (1 + 2^-52, 0), b = a - (3, 4) exactly, r = 5 * 2^-55: with n = (0.8, -0.6)
        // the right side's end at a is a - r n = (1 + 2^-52 - 2^-53, 3 * 2^-55) = (1 + 2^-53,
        // 3 * 2^-55) (Fraction): x lies halfway between 1 and 1 + 2^-52 and rounds to 1, whose
        // significand is even. The ray starts on that side at (1 + 2^-53, 3 * 2^-55) -
        // 2^-53 (3, 4) = (1 - 2^-52, -13 * 2^-55) and runs along it past a's end.
        const double r = 5 * 0x1p-55;
        const Result t = both(collide::Ray{{1 - 0x1p-52, -13 * 0x1p-55}, {3, 4}}, capsule({1 + 0x1p-52, 0}, {-2 + 0x1p-52, -4}, r));
        CHECK(t.relation == Relation::Touch);
        CHECK(t.points == Points{{1 - 0x1p-52, -13 * 0x1p-55}, {1, 3 * 0x1p-55}});
    }
}

TEST_CASE("capsule: grids") {
    SUBCASE("a capsule flush along a row of solid cells does not collide") {
        // Row 1 spans y in [10, 20); the capsule's lower side is y = 10, its caps reach x = 0
        // and x = 40, the grid's edges.
        const char* g = R"("tile_size": 10, "rows": ["....", "####"])";
        CHECK(grid_hit(capsule({5, 5}, {35, 5}, 5), g) == "none");
        // Tilted by one ulp at b: every core point but a lies above y = 5, so within 5 of
        // each cell of the row (cell [0,1] spans x in [0, 10], past a).
        CHECK(grid_hit(capsule({5, 5}, {35, 5.000000000000001}, 5), g) == "[0,1] [1,1] [2,1] [3,1]");
        CHECK(grid_hit(capsule({5, 5}, {15, 5}, 5.000000000000001), g) == "[0,1] [1,1] outside");
    }
    SUBCASE("a capsule one cell wide between two walls") {
        const char* g = R"("tile_size": 10, "rows": ["#.#", "#.#"])";
        CHECK(grid_hit(capsule({15, 5}, {15, 15}, 5), g) == "none");
        CHECK(grid_hit(capsule({15, 5}, {15, 15}, 5.000000000000001), g) == "[0,0] [2,0] [0,1] [2,1] outside");
    }
    SUBCASE("a slanted capsule passes a solid cell's corner at exactly its radius") {
        // Core (0, 20)-(20, 0): the nearest point of cell [2,2] is its corner (20, 20), whose
        // foot on the core is (10, 10), 10 sqrt(2) away.
        const char* g = R"("tile_size": 10, "outside": "empty", "rows": ["...", "...", "..#"])";
        CHECK(grid_hit(capsule({0, 20}, {20, 0}, 10 * std::sqrt(2.0) * 0.99), g) == "none");
        CHECK(grid_hit(capsule({0, 20}, {20, 0}, 10 * std::sqrt(2.0) * 1.01), g) == "[2,2]");
    }
}
