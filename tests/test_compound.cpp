// Compound shapes (SPEC §2.1) and boxes read as polygons (SPEC §2.5): worked examples, each
// derived by hand. A compound collides with what one of its parts collides with; it only
// touches or overlaps, and its records name the parts that collide.
#include "collide/check.hpp"
#include "collide/geometry.hpp"
#include "collide/report.hpp"
#include "collide/scene.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using collide::Capsule;
using collide::Circle;
using collide::Compound;
using collide::Rect;
using collide::Relation;
using collide::Shape;
using collide::Vec2;

using Parts = std::vector<std::uint32_t>;
using Points = std::vector<Vec2>;

TEST_CASE("compound against a simple shape") {
    // Two unit-high blocks with a gap of 2 between them: [0, 2] x [0, 2] and [4, 6] x [0, 2].
    const Shape blocks = Compound{{Rect{{0, 0}, {2, 2}}, Rect{{4, 0}, {6, 2}}}};
    SUBCASE("a circle in the gap touching both parts: touch, parts_a [0, 1], both touch points") {
        const auto hit = collide::collide(blocks, Circle{{3, 1}, 1});
        REQUIRE(hit);
        CHECK(hit->relation == Relation::Touch);
        CHECK(hit->parts_a == Parts{0, 1});
        CHECK(hit->parts_b.empty());  // b is not a compound
        CHECK(hit->points == Points{{2, 1}, {4, 1}});
    }
    SUBCASE("the same pair the other way round names the parts as parts_b") {
        const auto hit = collide::collide(Circle{{3, 1}, 1}, blocks);
        REQUIRE(hit);
        CHECK(hit->parts_a.empty());
        CHECK(hit->parts_b == Parts{0, 1});
    }
    SUBCASE("one part touches, the other overlaps: overlap, both parts named") {
        const auto hit = collide::collide(blocks, Circle{{3.5, 1}, 1.5});
        REQUIRE(hit);
        CHECK(hit->relation == Relation::Overlap);
        CHECK(hit->parts_a == Parts{0, 1});
    }
    SUBCASE("a circle inside one part is not `within` the compound: overlap, that part only") {
        const auto hit = collide::collide(blocks, Circle{{1, 1}, 0.5});
        REQUIRE(hit);
        CHECK(hit->relation == Relation::Overlap);
        CHECK(hit->parts_a == Parts{0});
        CHECK(hit->points.empty());
    }
    SUBCASE("a shape in the gap that meets no part does not collide, though it lies in the bounds") {
        CHECK_FALSE(collide::collide(blocks, Circle{{3, 1}, 0.5}));
    }
    SUBCASE("a compound of one circle against the same circle: overlap, never equal") {
        const auto hit = collide::collide(Compound{{Circle{{0, 0}, 1}}}, Circle{{0, 0}, 1});
        REQUIRE(hit);
        CHECK(hit->relation == Relation::Overlap);
    }
}

TEST_CASE("compound against compound: parts named on both sides, points the sorted union") {
    // A ship (a hull and two capsule wings) whose right wing's cap touches the first block of
    // the other compound at (5, 0); nothing else meets.
    const Shape ship = Compound{{Rect{{-1, -1}, {1, 1}}, Capsule{{-4, 0}, {-2, 0}, 1}, Capsule{{2, 0}, {4, 0}, 1}}};
    const Shape wall = Compound{{Rect{{5, -3}, {6, 3}}, Rect{{7, -3}, {8, 3}}}};
    const auto hit = collide::collide(ship, wall);
    REQUIRE(hit);
    CHECK(hit->relation == Relation::Touch);
    CHECK(hit->parts_a == Parts{2});
    CHECK(hit->parts_b == Parts{0});
    CHECK(hit->points == Points{{5, 0}});
}

TEST_CASE("a box at 45 degrees whose top corner touches an axis-aligned rect") {
    // The box's corners are the doubles of SPEC §2.5; the corner (w/2, h/2) turned by 45
    // degrees is the top one. A rect whose bottom edge lies at exactly that y, and spans its x,
    // touches the box there and nowhere else.
    const std::vector<Vec2> corners = collide::box_corners({10, 10}, {2, 2}, 45);
    const Vec2 top = corners[2];
    CHECK(top.y > 11.41);  // sqrt(2) above the centre, as doubles give it
    const Shape box = collide::Polygon{corners};
    const auto hit = collide::collide(box, Rect{{top.x - 1, top.y}, {top.x + 1, top.y + 1}});
    REQUIRE(hit);
    CHECK(hit->relation == Relation::Touch);
    CHECK(hit->points == Points{top});
    // One ulp higher, it misses.
    CHECK_FALSE(collide::collide(box, Rect{{top.x - 1, std::nextafter(top.y, 20.0)}, {top.x + 1, top.y + 1}}));
}

TEST_CASE("angles are taken mod 360 into [0, 360): a negative angle is the same box, bit for bit") {
    // fmod(-315, 360) = -315, plus 360 is 45; fmod(-45, 360) + 360 is 315.
    CHECK(collide::box_corners({3, 7}, {4, 2}, -315) == collide::box_corners({3, 7}, {4, 2}, 45));
    CHECK(collide::box_corners({3, 7}, {4, 2}, -45) == collide::box_corners({3, 7}, {4, 2}, 315));
    CHECK(collide::box_corners({3, 7}, {4, 2}, 405) == collide::box_corners({3, 7}, {4, 2}, 45));
    CHECK(collide::box_corners({3, 7}, {4, 2}, -90) == collide::box_corners({3, 7}, {4, 2}, 270));
    CHECK(collide::box_corners({3, 7}, {4, 2}, -90) == Points{{2, 9}, {2, 5}, {4, 5}, {4, 9}});
    CHECK(collide::ellipse_points({0, 0}, {5, 3}, -30, 16) == collide::ellipse_points({0, 0}, {5, 3}, 330, 16));
}

TEST_CASE("an ellipse's quarter-turn vertices are exactly center +- rx and center +- ry") {
    // theta_k = 2 pi k / n: cos and sin are exactly 0 and +-1 where 4k is a multiple of n.
    const Points p = collide::ellipse_points({-27, 0.1}, {3, 0.7}, 0, 32);
    REQUIRE(p.size() == 32);
    CHECK(p[0] == Vec2{-24, 0.1});
    CHECK(p[8] == Vec2{-27, 0.1 + 0.7});
    CHECK(p[16] == Vec2{-30, 0.1});
    CHECK(p[24] == Vec2{-27, 0.1 - 0.7});
    // With 6 vertices only k = 0 and k = 3 are quarter turns; the others come from cos and sin.
    const Points six = collide::ellipse_points({0, 0}, {2, 2}, 0, 6);
    CHECK(six[3] == Vec2{-2, 0});
    CHECK(six[1] == Vec2{2 * std::cos(2 * 3.14159265358979323846 / 6), 2 * std::sin(2 * 3.14159265358979323846 / 6)});
}

TEST_CASE("check: a compound's colliding parts in every report format") {
    const collide::Scene scene = collide::read_scene(R"({"shapes": [
  {"id": "blocks", "type": "compound", "parts": [
    {"type": "rect", "min": [0, 0], "max": [2, 2]},
    {"type": "rect", "min": [4, 0], "max": [6, 2]}]},
  {"id": "ball", "type": "circle", "center": [3, 1], "radius": 1}]})",
                                                     "parts.json");
    collide::CheckOptions options;
    const collide::SceneResult result = collide::check(scene, options);
    REQUIRE(result.collisions.size() == 1);
    CHECK(result.collisions[0].parts_a == Parts{0, 1});
    auto report = [&](collide::Format f) {
        std::ostringstream out;
        collide::ReportWriter w(out, f);
        w.scene(scene, result);
        w.finish();
        return out.str();
    };
    CHECK(report(collide::Format::Json).find(R"("relation": "touch", "points": [[2, 1], [4, 1]], "parts_a": [0, 1]})") !=
          std::string::npos);
    CHECK(report(collide::Format::Csv).find("parts.json,collision,blocks,ball,touch,,,,,2 1;4 1,,,,,0;1,,,,\r\n") !=
          std::string::npos);
    CHECK(report(collide::Format::Text).find("parts a:0,1") != std::string::npos);
}
