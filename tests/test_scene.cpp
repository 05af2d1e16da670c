// read_scene(): every form the scene format allows (SPEC §1), and the errors it reports for
// typical mistakes, checked word for word with their file, JSON pointer and line:column.
#include "collide/scene.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>
#include <variant>

using collide::Body;
using collide::Circle;
using collide::Error;
using collide::Line;
using collide::Point;
using collide::Polygon;
using collide::Polyline;
using collide::Ray;
using collide::Rect;
using collide::Rule;
using collide::Scene;
using collide::Segment;
using collide::Vec2;
using collide::read_scene;

namespace {

Scene read(std::string_view text) { return read_scene(text, "level.json"); }

// The shape `i` of a scene, as the alternative T it must hold.
template <class T>
const T& shape_as(const Scene& s, std::size_t i) {
    REQUIRE(i < s.shapes.size());
    REQUIRE(std::holds_alternative<T>(s.shapes[i].shape));
    return std::get<T>(s.shapes[i].shape);
}

// What reading `text` as "level.json" must throw.
struct Expected {
    std::string json_path;
    int line;
    int column;
    std::string message;
};

void check_error(std::string_view text, const Expected& want) {
    try {
        read(text);
        FAIL("read_scene accepted the scene");
    } catch (const Error& e) {
        CHECK(e.file() == "level.json");
        CHECK(e.json_path() == want.json_path);
        CHECK(e.line() == want.line);
        CHECK(e.column() == want.column);
        CHECK(e.message() == want.message);
    }
}

}  // namespace

TEST_CASE("read_scene: shapes") {
    SUBCASE("every type, as written") {
        const Scene s = read(R"({"shapes": [
            {"type": "point", "at": [1, 2]},
            {"type": "circle", "center": [3, 4], "radius": 5},
            {"type": "segment", "a": [0, 0], "b": [1, 1]},
            {"type": "line", "a": [0, 0], "b": [0, 1]},
            {"type": "ray", "origin": [1, 1], "direction": [-1, 0]},
            {"type": "polygon", "points": [[0, 0], [4, 0], [0, 3]]},
            {"type": "polyline", "points": [[0, 0], [1, 0], [1, 1], [0, 0]]}
        ]})");
        REQUIRE(s.shapes.size() == 7);
        CHECK(shape_as<Point>(s, 0).at == Vec2{1, 2});
        CHECK(shape_as<Circle>(s, 1).center == Vec2{3, 4});
        CHECK(shape_as<Circle>(s, 1).radius == 5);
        CHECK(shape_as<Segment>(s, 2).b == Vec2{1, 1});
        CHECK(shape_as<Line>(s, 3).b == Vec2{0, 1});
        CHECK(shape_as<Ray>(s, 4).direction == Vec2{-1, 0});
        CHECK(shape_as<Polygon>(s, 5).points.size() == 3);
        CHECK(shape_as<Polyline>(s, 6).points.size() == 4);  // a closed polyline keeps its last point
        CHECK(s.file == "level.json");
    }
    SUBCASE("a polygon drops consecutive repeats, the closing vertex included") {
        const Scene s = read(R"({"shapes": [
            {"type": "polygon", "points": [[0, 0], [4, 0], [4, 0], [4, 3], [0, 0]]}
        ]})");
        const auto& pts = shape_as<Polygon>(s, 0).points;
        REQUIRE(pts.size() == 3);
        CHECK(pts[0] == Vec2{0, 0});
        CHECK(pts[1] == Vec2{4, 0});
        CHECK(pts[2] == Vec2{4, 3});
    }
    SUBCASE("degenerate shapes the format allows") {
        const Scene s = read(R"({"shapes": [
            {"type": "circle", "center": [0, 0], "radius": 0},
            {"type": "rect", "min": [1, 0], "max": [1, 4]},
            {"type": "segment", "a": [2, 2], "b": [2, 2]},
            {"type": "polyline", "points": [[3, 3], [3, 3]]}
        ]})");
        CHECK(s.shapes.size() == 4);
    }
    SUBCASE("ids default to the index in shapes; groups are kept") {
        const Scene s = read(R"({"shapes": [
            {"type": "point", "at": [0, 0]},
            {"id": "hero", "type": "point", "at": [0, 0], "groups": ["player", "solid"]},
            {"type": "point", "at": [0, 0]}
        ]})");
        CHECK(s.shapes[0].id == "0");
        CHECK(s.shapes[1].id == "hero");
        CHECK(s.shapes[2].id == "2");
        CHECK(s.shapes[0].groups.empty());
        CHECK(s.shapes[1].groups == std::vector<std::string>{"player", "solid"});
    }
    SUBCASE("numbers are read as the nearest double") {
        const Scene s = read(R"({"shapes": [{"type": "point", "at": [0.1, -2.5e-3]}]})");
        CHECK(shape_as<Point>(s, 0).at == Vec2{0.1, -0.0025});
    }
}

TEST_CASE("read_scene: objects with the same groups share one list (collide::Groups)") {
    // A scene of a million shapes in one group holds the list once: Groups is a shared,
    // unchangeable list that reads like a const std::vector<std::string>.
    const Scene s = read(R"({"shapes": [
        {"id": "a", "type": "point", "at": [0, 0], "groups": ["walls", "solid"]},
        {"id": "b", "type": "point", "at": [0, 0], "groups": ["walls", "solid"]},
        {"id": "c", "type": "point", "at": [0, 0], "groups": ["solid", "walls"]},
        {"id": "d", "type": "point", "at": [0, 0], "groups": []},
        {"id": "e", "type": "point", "at": [0, 0]}
    ], "grids": [{"id": "g", "tile_size": 1, "rows": ["#"], "groups": ["walls", "solid"]}]})");
    const auto& a = s.shapes[0].groups;
    CHECK(a == std::vector<std::string>{"walls", "solid"});
    CHECK(a.size() == 2);
    CHECK(a[1] == "solid");
    CHECK(&a.names() == &s.shapes[1].groups.names());  // one list, shared
    CHECK(&a.names() == &s.grids[0].groups.names());
    CHECK(s.shapes[2].groups == std::vector<std::string>{"solid", "walls"});  // order is kept: another list
    CHECK(s.shapes[2].groups != a);
    CHECK(s.shapes[3].groups.empty());
    CHECK(s.shapes[3].groups == s.shapes[4].groups);

    SUBCASE("lists whose names run together alike are still two") {
        const Scene joined = read(R"({"shapes": [
            {"type": "point", "at": [0, 0], "groups": ["ab", "c"]},
            {"type": "point", "at": [0, 0], "groups": ["a", "bc"]},
            {"type": "point", "at": [0, 0], "groups": ["ab", "c"]}]})");
        CHECK(joined.shapes[1].groups == std::vector<std::string>{"a", "bc"});
        CHECK(&joined.shapes[0].groups.names() == &joined.shapes[2].groups.names());
    }

    SUBCASE("more distinct lists than the reader keeps at hand: each is still right") {
        std::string shapes;
        for (int i = 0; i < 40; ++i) {
            const int g = i % 13;  // 13 lists, cycling
            shapes += std::string(i ? "," : "") + R"({"type": "point", "at": [0, 0], "groups": ["g)" + std::to_string(g) +
                      R"(", "all"]})";
        }
        const Scene many = read(R"({"shapes": [)" + shapes + "]}");
        for (int i = 0; i < 40; ++i)
            CHECK(many.shapes[static_cast<std::size_t>(i)].groups ==
                  std::vector<std::string>{"g" + std::to_string(i % 13), "all"});
    }
    SUBCASE("a list is replaced, never changed in place, so sharing is invisible") {
        Scene copy = s;
        copy.shapes[0].groups = {"player"};
        CHECK(copy.shapes[0].groups == std::vector<std::string>{"player"});
        CHECK(copy.shapes[1].groups == std::vector<std::string>{"walls", "solid"});
        const std::vector<std::string>& names = copy.shapes[1].groups;  // reads as the vector
        CHECK(names.front() == "walls");
    }
}

TEST_CASE("read_scene: the three rect forms") {
    SUBCASE("min and max") {
        const Rect r = shape_as<Rect>(read(R"({"shapes": [{"type": "rect", "min": [1, 2], "max": [3, 4]}]})"), 0);
        CHECK(r.min == Vec2{1, 2});
        CHECK(r.max == Vec2{3, 4});
    }
    SUBCASE("x, y, width, height: the max corner is the IEEE sum") {
        const Rect r = shape_as<Rect>(
            read(R"({"shapes": [{"type": "rect", "x": 0.1, "y": 0.7, "width": 0.2, "height": 0.1}]})"), 0);
        CHECK(r.min == Vec2{0.1, 0.7});
        CHECK(r.max.x == 0.30000000000000004);  // not 0.3
        CHECK(r.max.y == 0.7999999999999999);   // not 0.8
    }
    SUBCASE("left, top, right, bottom with y down (the default): top is the smaller y") {
        const Rect r = shape_as<Rect>(
            read(R"({"shapes": [{"type": "rect", "left": 1, "top": 2, "right": 5, "bottom": 8}]})"), 0);
        CHECK(r.min == Vec2{1, 2});
        CHECK(r.max == Vec2{5, 8});
    }
    SUBCASE("left, top, right, bottom with y up: top is the greater y") {
        const Scene s = read(R"({"settings": {"y_axis": "up"},
            "shapes": [{"type": "rect", "left": 1, "top": 8, "right": 5, "bottom": 2}]})");
        CHECK(s.y_up);
        const Rect r = shape_as<Rect>(s, 0);
        CHECK(r.min == Vec2{1, 2});
        CHECK(r.max == Vec2{5, 8});
    }
    SUBCASE("settings may come after the shapes they affect") {
        const Scene s = read(R"({"shapes": [{"type": "rect", "left": 1, "top": 8, "right": 5, "bottom": 2}],
            "settings": {"y_axis": "up"}})");
        CHECK(shape_as<Rect>(s, 0).min == Vec2{1, 2});
    }
}

// Boxes and ellipses are read as the rect, circle or polygon they are (SPEC §1.1, §2.5);
// Scene::converted remembers which ones were written so (collide check -v shows them).
TEST_CASE("read_scene: capsule / box / ellipse / compound") {
    using collide::Capsule;
    using collide::Compound;
    using collide::ConvertedShape;
    SUBCASE("a capsule is kept as written") {
        const Capsule c = shape_as<Capsule>(read(R"({"shapes": [
            {"type": "capsule", "a": [0, 0], "b": [10, 0], "radius": 2}]})"), 0);
        CHECK(c.a == Vec2{0, 0});
        CHECK(c.b == Vec2{10, 0});
        CHECK(c.radius == 2);
    }
    SUBCASE("a capsule with a == b is the circle") {
        const Circle c = shape_as<Circle>(read(R"({"shapes": [
            {"type": "capsule", "a": [3, 4], "b": [3, 4], "radius": 1.5}]})"), 0);
        CHECK(c.center == Vec2{3, 4});
        CHECK(c.radius == 1.5);
    }
    SUBCASE("a box at 0 degrees (the default) is the rect with its corners") {
        const Scene s = read(R"({"shapes": [{"type": "box", "center": [10, 20], "size": [4, 2]}]})");
        CHECK(shape_as<Rect>(s, 0).min == Vec2{8, 19});
        CHECK(shape_as<Rect>(s, 0).max == Vec2{12, 21});
    }
    SUBCASE("a box at 90 degrees is the rect with its width along y") {
        const Scene s = read(R"({"shapes": [{"type": "box", "center": [10, 20], "size": [4, 2], "angle": 90}]})");
        CHECK(shape_as<Rect>(s, 0).min == Vec2{9, 18});
        CHECK(shape_as<Rect>(s, 0).max == Vec2{11, 22});
    }
    SUBCASE("a box at -270 or 450 degrees is the same rect: cos and sin are exact at multiples of 90") {
        for (const char* angle : {"-270", "450", "90.0"}) {
            const std::string box = R"({"type": "box", "center": [10, 20], "size": [4, 2], "angle": )";
            const Scene s = read(R"({"shapes": [)" + box + angle + "}]}");
            CHECK(shape_as<Rect>(s, 0).min == Vec2{9, 18});
            CHECK(shape_as<Rect>(s, 0).max == Vec2{11, 22});
        }
    }
    SUBCASE("a box at 45 degrees: the polygon of the corner doubles of SPEC §2.5") {
        // c = cos(pi/4) = 0.7071067811865476, s = sin(pi/4) = 0.7071067811865475; corner
        // (sx, sy) is (10 + sx c - sy s, 20 + sx s + sy c) for sx = -+2, sy = -+1, each
        // product rounded and the sums taken left to right.
        const Scene s = read(R"({"shapes": [{"type": "box", "center": [10, 20], "size": [4, 2], "angle": 45}]})");
        const auto& pts = shape_as<Polygon>(s, 0).points;
        REQUIRE(pts.size() == 4);
        CHECK(pts[0] == Vec2{9.292893218813452, 17.878679656440358});   // (-2, -1)
        CHECK(pts[1] == Vec2{12.121320343559644, 20.70710678118655});   // (2, -1)
        CHECK(pts[2] == Vec2{10.707106781186548, 22.121320343559642});  // (2, 1)
        CHECK(pts[3] == Vec2{7.878679656440356, 19.29289321881345});    // (-2, 1)
    }
    SUBCASE("a box at 30 degrees: sin(30 degrees) is 0.49999999999999994 in doubles") {
        const Scene s = read(R"({"shapes": [{"type": "box", "center": [0, 0], "size": [4, 2], "angle": 30}]})");
        const auto& pts = shape_as<Polygon>(s, 0).points;
        REQUIRE(pts.size() == 4);
        CHECK(pts[1] == Vec2{2.232050807568877, 0.13397459621556118});
        CHECK(pts[3] == Vec2{-2.232050807568877, -0.13397459621556118});
    }
    SUBCASE("an ellipse with rx == ry is the circle, exactly") {
        const Circle c = shape_as<Circle>(read(R"({"shapes": [
            {"type": "ellipse", "center": [5, 5], "radii": [0.1, 0.1], "angle": 33}]})"), 0);
        CHECK(c.center == Vec2{5, 5});
        CHECK(c.radius == 0.1);
    }
    SUBCASE("an oval ellipse is a polygon of 32 points by default") {
        const Scene s = read(R"({"shapes": [{"type": "ellipse", "center": [5, 5], "radii": [3, 2]}]})");
        const auto& pts = shape_as<Polygon>(s, 0).points;
        REQUIRE(pts.size() == 32);
        CHECK(pts[0] == Vec2{8, 5});
        CHECK(pts[1] == Vec2{7.942355841209691, 5.390180644032257});
        // Quarter turns use cos and sin exactly 0 and +-1 (SPEC §2.5): 3 cos(3 pi / 2) in
        // doubles would be -5.5e-16 and put the bottom vertex at x = 4.999999999999999.
        CHECK(pts[8] == Vec2{5, 7});
        CHECK(pts[16] == Vec2{2, 5});
        CHECK(pts[24] == Vec2{5, 3});
    }
    SUBCASE("vertices sets the number of points, from 8 to 4096") {
        const Scene s = read(R"({"shapes": [
            {"type": "ellipse", "center": [0, 0], "radii": [3, 2], "vertices": 8},
            {"type": "ellipse", "center": [0, 0], "radii": [3, 2], "vertices": 4096.0}]})");
        CHECK(shape_as<Polygon>(s, 0).points.size() == 8);
        CHECK(shape_as<Polygon>(s, 1).points.size() == 4096);
    }
    SUBCASE("a compound keeps its parts in order; a left/top/right/bottom part follows y_axis up") {
        const Scene s = read(R"({"settings": {"y_axis": "up"}, "shapes": [
            {"id": "boss", "type": "compound", "groups": ["enemies"], "parts": [
                {"type": "circle", "center": [0, 10], "radius": 3},
                {"type": "rect", "left": -4, "top": 8, "right": 4, "bottom": 0},
                {"type": "box", "center": [0, -2], "size": [2, 4], "angle": 90},
                {"type": "capsule", "a": [-6, 4], "b": [6, 4], "radius": 1}]}]})");
        const Compound& c = shape_as<Compound>(s, 0);
        CHECK(s.shapes[0].id == "boss");
        CHECK(s.shapes[0].groups == std::vector<std::string>{"enemies"});
        REQUIRE(c.parts.size() == 4);
        CHECK(std::get<Circle>(c.parts[0]).center == Vec2{0, 10});
        CHECK(std::get<Rect>(c.parts[1]).min == Vec2{-4, 0});  // top 8 is the greater y
        CHECK(std::get<Rect>(c.parts[1]).max == Vec2{4, 8});
        CHECK(std::get<Rect>(c.parts[2]).min == Vec2{-2, -3});
        CHECK(std::get<Capsule>(c.parts[3]).radius == 1);
    }
    SUBCASE("the same compound with y_axis down: top 8 is the smaller y, so top > bottom is an error") {
        check_error(R"({"shapes": [
  {"type": "compound", "parts": [{"type": "rect", "left": -4, "top": 8, "right": 4, "bottom": 0}]}
]})",
                    {"/shapes/0/parts/0", 2, 34, "top 8 is greater than bottom 0 (y_axis is down)"});
    }
    SUBCASE("Scene::converted: each shape or part written as a box or an ellipse, in file order") {
        const Scene s = read(R"({"shapes": [
            {"type": "circle", "center": [0, 0], "radius": 1},
            {"id": "crate", "type": "box", "center": [0, 0], "size": [1, 1], "angle": 10},
            {"id": "boss", "type": "compound", "parts": [
                {"type": "point", "at": [0, 0]},
                {"type": "ellipse", "center": [0, 0], "radii": [2, 2]},
                {"type": "box", "center": [0, 0], "size": [1, 1]}]},
            {"type": "ellipse", "center": [0, 0], "radii": [2, 1]}]})");
        REQUIRE(s.converted.size() == 4);
        auto is = [&](std::size_t k, std::size_t shape, std::optional<std::size_t> part, ConvertedShape::Written w) {
            CHECK(s.converted[k].shape == shape);
            CHECK(s.converted[k].part == part);
            CHECK(s.converted[k].written == w);
        };
        is(0, 1, std::nullopt, ConvertedShape::Written::Box);
        is(1, 2, 1, ConvertedShape::Written::Ellipse);
        is(2, 2, 2, ConvertedShape::Written::Box);
        is(3, 3, std::nullopt, ConvertedShape::Written::Ellipse);
        CHECK(read(R"({"shapes": [{"type": "capsule", "a": [0, 0], "b": [1, 1], "radius": 1}]})").converted.empty());
    }
}

TEST_CASE("read_scene: grids") {
    SUBCASE("rows: '#' is solid by default, row 0 is the first row written") {
        const Scene s = read(R"({"grids": [{"id": "maze", "tile_size": 20, "rows": ["#..", ".#."]}]})");
        REQUIRE(s.grids.size() == 1);
        const collide::Grid& g = s.grids[0];
        CHECK(g.id == "maze");
        CHECK(g.cols == 3);
        CHECK(g.rows == 2);
        CHECK(g.tile == Vec2{20, 20});
        CHECK(g.origin == Vec2{0, 0});
        CHECK(g.outside_solid);
        CHECK_FALSE(g.y_up);
        CHECK(g.solid(0, 0));
        CHECK_FALSE(g.solid(1, 0));
        CHECK(g.solid(1, 1));
        CHECK_FALSE(g.solid(2, 1));
    }
    SUBCASE("rows with other solid characters, counted in code points") {
        const Scene s = read(R"({"grids": [{"id": "g", "tile_size": 1, "solid": "X█", "rows": ["█.X#", "..██"]}]})");
        const collide::Grid& g = s.grids[0];
        CHECK(g.cols == 4);
        CHECK(g.solid(0, 0));
        CHECK_FALSE(g.solid(1, 0));
        CHECK(g.solid(2, 0));
        CHECK_FALSE(g.solid(3, 0));  // '#' is not in solid here
        CHECK(g.solid(3, 1));
    }
    SUBCASE("cells: non-zero blocks; tile_size [w, h], origin, outside, groups") {
        const Scene s = read(R"({"settings": {"y_axis": "up"},
            "grids": [{"id": "g", "tile_size": [16, 8], "origin": [-32, 4], "outside": "empty",
                       "groups": ["walls"], "cells": [[0, 7], [1, 0]]}]})");
        const collide::Grid& g = s.grids[0];
        CHECK(g.tile == Vec2{16, 8});
        CHECK(g.origin == Vec2{-32, 4});
        CHECK_FALSE(g.outside_solid);
        CHECK(g.y_up);
        CHECK(g.groups == std::vector<std::string>{"walls"});
        CHECK_FALSE(g.solid(0, 0));
        CHECK(g.solid(1, 0));
        CHECK(g.solid(0, 1));
        CHECK_FALSE(g.solid(1, 1));
    }
}

TEST_CASE("read_scene: moves, pairs and rules") {
    SUBCASE("moves: ids default to their index, bodies, checks, expectations") {
        const Scene s = read(R"({
            "moves": [
                {"grid": "b", "from": [0, 0], "to": [10, 0]},
                {"id": "dash", "grid": "a", "from": [1, 2], "to": [3, 4], "body": {"type": "circle", "radius": 4},
                 "check": "destination", "expect": "blocked"},
                {"grid": "a", "from": [0, 0], "to": [0, 0], "body": {"type": "rect", "size": [6, 2]}, "expect": "allowed"},
                {"grid": "a", "from": [0, 0], "to": [0, 0], "body": {"type": "point"}}
            ],
            "grids": [{"id": "a", "tile_size": 1, "rows": ["."]}, {"id": "b", "tile_size": 1, "rows": ["."]}]
        })");
        REQUIRE(s.moves.size() == 4);
        CHECK(s.moves[0].id == "0");
        CHECK(s.moves[0].grid == 1);  // grids may come after the moves naming them
        CHECK(s.moves[0].body.kind == Body::Kind::Point);
        CHECK(s.moves[0].check_path);
        CHECK_FALSE(s.moves[0].expect_allowed.has_value());
        CHECK(s.moves[1].id == "dash");
        CHECK(s.moves[1].grid == 0);
        CHECK(s.moves[1].from == Vec2{1, 2});
        CHECK(s.moves[1].to == Vec2{3, 4});
        CHECK(s.moves[1].body.kind == Body::Kind::Circle);
        CHECK(s.moves[1].body.radius == 4);
        CHECK_FALSE(s.moves[1].check_path);
        CHECK(s.moves[1].expect_allowed == false);
        CHECK(s.moves[2].id == "2");
        CHECK(s.moves[2].body.kind == Body::Kind::Rect);
        CHECK(s.moves[2].body.size == Vec2{6, 2});
        CHECK(s.moves[2].expect_allowed == true);
        CHECK(s.moves[3].body.kind == Body::Kind::Point);
    }
    SUBCASE("pairs split at the first ':'") {
        const Scene s = read(R"({"pairs": ["player:props", "*:a:b"]})");
        REQUIRE(s.pairs.size() == 2);
        CHECK(s.pairs[0].left == "player");
        CHECK(s.pairs[0].right == "props");
        CHECK(s.pairs[1].left == "*");
        CHECK(s.pairs[1].right == "a:b");
    }
    SUBCASE("no pairs: empty, which check() reads as *:*") { CHECK(read("{}").pairs.empty()); }
    SUBCASE("rules") {
        const Scene s = read(R"({"rules": [
            {"name": "clear", "pairs": "player:*", "expect": "none"},
            {"name": "grounded", "pairs": "enemy:floor", "expect": "each", "touching": "ignored"},
            {"name": "any", "pairs": "a:b", "expect": "some"}
        ]})");
        REQUIRE(s.rules.size() == 3);
        CHECK(s.rules[0].name == "clear");
        CHECK(s.rules[0].pairs.left == "player");
        CHECK(s.rules[0].pairs.right == "*");
        CHECK(s.rules[0].expect == Rule::Expect::None);
        CHECK_FALSE(s.rules[0].ignore_touching);
        CHECK(s.rules[1].expect == Rule::Expect::Each);
        CHECK(s.rules[1].ignore_touching);
        CHECK(s.rules[2].expect == Rule::Expect::Some);
    }
}

TEST_CASE("read_scene: the document") {
    SUBCASE("a leading byte-order mark is skipped") {
        const Scene s = read("\xEF\xBB\xBF{\"shapes\": [{\"type\": \"point\", \"at\": [1, 2]}]}");
        CHECK(s.shapes.size() == 1);
    }
    SUBCASE("format and version, when present") {
        CHECK(read(R"({"format": "collide-scene", "version": 1})").shapes.empty());
    }
    SUBCASE("everything is optional") {
        const Scene s = read("{}");
        CHECK(s.shapes.empty());
        CHECK(s.grids.empty());
        CHECK(s.moves.empty());
        CHECK(s.rules.empty());
        CHECK_FALSE(s.y_up);
    }
}

TEST_CASE("parse_pair_spec") {
    SUBCASE("A:B") {
        const collide::PairSpec p = collide::parse_pair_spec("enemies:walls");
        CHECK(p.left == "enemies");
        CHECK(p.right == "walls");
    }
    SUBCASE("a missing side is an error") {
        for (const std::string bad : {"player", ":walls", "player:"}) {
            CAPTURE(bad);
            try {
                collide::parse_pair_spec(bad);
                FAIL("parse_pair_spec accepted it");
            } catch (const Error& e) {
                CHECK(e.file().empty());
                CHECK(e.json_path().empty());
                CHECK(e.message() == "pair spec '" + bad + "' is not of the form A:B (selectors: a group, an id or *)");
            }
        }
    }
}

// Each error names the file, the JSON pointer of the offending value and its line:column
// (1-based, of the value); the message says what is wrong without the location.
TEST_CASE("read_scene: errors, word for word") {
    SUBCASE("a typo in a key, with a did-you-mean hint") {
        check_error(R"({"shapes": [
  {"type": "circle", "center": [0, 0], "raduis": 5}
]})",
                    {"/shapes/0/raduis", 2, 50,
                     "unknown key 'raduis' for a circle (did you mean 'radius'?); allowed here: id, type, groups, ignore, "
                     "center, radius"});
    }
    SUBCASE("a typo in a key every shape has, with a did-you-mean hint") {
        check_error(R"({"shapes": [
  {"type": "point", "at": [0, 0], "gruops": ["a"]}
]})",
                    {"/shapes/0/gruops", 2, 45,
                     "unknown key 'gruops' for a point (did you mean 'groups'?); allowed here: id, type, groups, ignore, at"});
    }
    SUBCASE("a typo in a top-level key") {
        check_error(R"({"shapse": []})",
                    {"/shapse", 1, 12,
                     "unknown key 'shapse' (did you mean 'shapes'?); allowed here: format, version, settings, "
                     "shapes, grids, moves, pairs, rules"});
    }
    SUBCASE("a missing required key") {
        check_error(R"({"shapes": [
  {"type": "circle", "center": [0, 0]}
]})",
                    {"/shapes/0", 2, 3, "missing required key 'radius'"});
    }
    SUBCASE("a value of the wrong type") {
        check_error(R"({"shapes": [
  {"type": "circle", "center": [0, 0], "radius": "5"}
]})",
                    {"/shapes/0/radius", 2, 50, "expected a number, got a string"});
    }
    SUBCASE("a number that is not a finite double") {
        check_error(R"({"shapes": [
  {"type": "point", "at": [0, 1e400]}
]})",
                    {"/shapes/0/at/1", 2, 31, "number 1e400 is out of range (not a finite double)"});
    }
    SUBCASE("an inverted rect") {
        check_error(R"({"shapes": [
  {"type": "rect", "min": [10, 0], "max": [0, 5]}
]})",
                    {"/shapes/0", 2, 3, "min [10, 0] exceeds max [0, 5] on the x axis"});
    }
    SUBCASE("top below bottom with y up names both values") {
        check_error(R"({"settings": {"y_axis": "up"},
 "shapes": [
  {"type": "rect", "left": 0, "top": 0, "right": 4, "bottom": 3}
]})",
                    {"/shapes/0", 3, 3, "top 0 is less than bottom 3 (y_axis is up)"});
    }
    SUBCASE("a self-intersecting polygon (a bow tie)") {
        check_error(R"({"shapes": [
  {"type": "polygon", "points": [[0, 0], [4, 4], [4, 0], [0, 4]]}
]})",
                    {"/shapes/0/points", 2, 33,
                     "the polygon intersects itself: the edge from point 0 to point 1 and the edge from point 2 to "
                     "point 3 meet"});
    }
    SUBCASE("a duplicate id") {
        check_error(R"({"shapes": [
  {"id": "crate", "type": "point", "at": [0, 0]},
  {"id": "crate", "type": "point", "at": [1, 1]}
]})",
                    {"/shapes/1", 3, 3, "duplicate id 'crate' (also /shapes/0)"});
    }
    SUBCASE("an explicit id equal to another shape's default id") {
        check_error(R"({"shapes": [
  {"type": "point", "at": [0, 0]},
  {"id": "0", "type": "point", "at": [1, 1]}
]})",
                    {"/shapes/1", 3, 3, "duplicate id '0' (also the default id of /shapes/0, its index)"});
    }
    SUBCASE("a syntax error: an object left open") {
        check_error(R"({"shapes": [
  {"type": "circle", "center": [0, 0], "radius": 5
]})",
                    {"/shapes/0/radius", 3, 1, "syntax error while parsing object - unexpected ']'; expected '}'"});
    }
    SUBCASE("a syntax error quoting bytes that are not printable ASCII: \\xNN, upper case") {
        check_error("{\"shapes\": [\xC3\xA9]}",
                    {"/shapes/0", 1, 13, "syntax error while parsing value - invalid literal; last read: '\"shapes\": [\\xC3'"});
        check_error("{\"shapes\": [\x7F]}",
                    {"/shapes/0", 1, 13, "syntax error while parsing value - invalid literal; last read: '\"shapes\": [\\x7F'"});
    }
    SUBCASE("an unknown shape type") {
        check_error(R"({"shapes": [
  {"type": "triangle", "points": [[0, 0], [1, 0], [0, 1]]}
]})",
                    {"/shapes/0/type", 2, 12,
                     "unknown shape type 'triangle'; expected point, circle, rect, segment, line, ray, polygon, "
                     "polyline, capsule, box, ellipse or compound"});
    }
    SUBCASE("a move naming a missing grid") {
        check_error(R"({"grids": [{"id": "maze", "tile_size": 8, "rows": ["#"]}],
 "moves": [
  {"grid": "maez", "from": [0, 0], "to": [1, 1]}
]})",
                    {"/moves/0/grid", 3, 12, "no grid has the id 'maez'"});
    }
    SUBCASE("a duplicate key in an object, located at the second one") {
        check_error(R"({"shapes": [
  {"type": "point", "at": [0, 0],
   "at": [1, 1]}
]})",
                    {"/shapes/0/at", 3, 10, "duplicate key 'at'"});
    }
    SUBCASE("not an object") {
        check_error("[]", {"", 1, 1, "a scene is a JSON object, not an array"});
    }
    SUBCASE("what() puts the location first") {
        try {
            read(R"({"shapes": [{"type": "line", "a": [1, 1], "b": [1, 1]}]})");
            FAIL("read_scene accepted a line with a == b");
        } catch (const Error& e) {
            CHECK(std::string(e.what()) == "level.json:1:13: /shapes/0: a line needs two distinct points a and b");
        }
    }
}

// The four types of issue 13: each mistake named where it is, the message word for word.
TEST_CASE("read_scene: capsule / box / ellipse / compound errors word for word") {
    SUBCASE("a capsule of radius 0") {
        check_error(R"({"shapes": [
  {"type": "capsule", "a": [0, 0], "b": [4, 0], "radius": 0}
]})",
                    {"/shapes/0/radius", 2, 59, "radius must be > 0, got 0"});
    }
    SUBCASE("a capsule of negative radius") {
        check_error(R"({"shapes": [
  {"type": "capsule", "a": [0, 0], "b": [4, 0], "radius": -2}
]})",
                    {"/shapes/0/radius", 2, 59, "radius must be > 0, got -2"});
    }
    SUBCASE("a capsule with a == b and radius 0 (not a point)") {
        check_error(R"({"shapes": [
  {"type": "capsule", "a": [1, 1], "b": [1, 1], "radius": 0}
]})",
                    {"/shapes/0/radius", 2, 59, "radius must be > 0, got 0"});
    }
    SUBCASE("an ellipse of radius 0") {
        check_error(R"({"shapes": [
  {"type": "ellipse", "center": [0, 0], "radii": [3, 0]}
]})",
                    {"/shapes/0/radii", 2, 50, "radii must be > 0 on both axes, got [3, 0]"});
    }
    SUBCASE("an ellipse of negative radius") {
        check_error(R"({"shapes": [
  {"type": "ellipse", "center": [0, 0], "radii": [-3, 2]}
]})",
                    {"/shapes/0/radii", 2, 50, "radii must be > 0 on both axes, got [-3, 2]"});
    }
    SUBCASE("a box of size 0") {
        check_error(R"({"shapes": [
  {"type": "box", "center": [0, 0], "size": [0, 2]}
]})",
                    {"/shapes/0/size", 2, 45, "size must be > 0 on both axes, got [0, 2]"});
    }
    SUBCASE("a box of negative size") {
        check_error(R"({"shapes": [
  {"type": "box", "center": [0, 0], "size": [2, -1]}
]})",
                    {"/shapes/0/size", 2, 45, "size must be > 0 on both axes, got [2, -1]"});
    }
    SUBCASE("a box size that is not a pair") {
        check_error(R"({"shapes": [
  {"type": "box", "center": [0, 0], "size": [2, 1, 1]}
]})",
                    {"/shapes/0/size", 2, 45, "expected a size [w, h], got an array of 3 values"});
    }
    SUBCASE("a box size given as one number") {
        check_error(R"({"shapes": [
  {"type": "box", "center": [0, 0], "size": 2}
]})",
                    {"/shapes/0/size", 2, 45, "expected a size [w, h], got a number"});
    }
    SUBCASE("an ellipse's radii given as one number") {
        check_error(R"({"shapes": [
  {"type": "ellipse", "center": [0, 0], "radii": 2}
]})",
                    {"/shapes/0/radii", 2, 50, "expected radii [rx, ry], got a number"});
    }
    SUBCASE("a box angle given as a string") {
        check_error(R"({"shapes": [
  {"type": "box", "center": [0, 0], "size": [2, 1], "angle": "45"}
]})",
                    {"/shapes/0/angle", 2, 62, "expected a number, got a string"});
    }
    SUBCASE("an ellipse of 7 vertices") {
        check_error(R"({"shapes": [
  {"type": "ellipse", "center": [0, 0], "radii": [3, 2], "vertices": 7}
]})",
                    {"/shapes/0/vertices", 2, 70, "vertices must be an integer from 8 to 4096, got 7"});
    }
    SUBCASE("an ellipse of 4097 vertices") {
        check_error(R"({"shapes": [
  {"type": "ellipse", "center": [0, 0], "radii": [3, 2], "vertices": 4097}
]})",
                    {"/shapes/0/vertices", 2, 70, "vertices must be an integer from 8 to 4096, got 4097"});
    }
    SUBCASE("an ellipse of 3.5 vertices") {
        check_error(R"({"shapes": [
  {"type": "ellipse", "center": [0, 0], "radii": [3, 2], "vertices": 3.5}
]})",
                    {"/shapes/0/vertices", 2, 70, "vertices must be an integer from 8 to 4096, got 3.5"});
    }
    SUBCASE("an ellipse of 12.5 vertices (in range, not an integer)") {
        check_error(R"({"shapes": [
  {"type": "ellipse", "center": [0, 0], "radii": [3, 2], "vertices": 12.5}
]})",
                    {"/shapes/0/vertices", 2, 70, "vertices must be an integer from 8 to 4096, got 12.5"});
    }
    SUBCASE("vertices given as a string") {
        check_error(R"({"shapes": [
  {"type": "ellipse", "center": [0, 0], "radii": [3, 2], "vertices": "32"}
]})",
                    {"/shapes/0/vertices", 2, 70, "vertices must be an integer from 8 to 4096, got a string"});
    }
    SUBCASE("vertices are checked on a round ellipse too") {
        check_error(R"({"shapes": [
  {"type": "ellipse", "center": [0, 0], "radii": [2, 2], "vertices": 3}
]})",
                    {"/shapes/0/vertices", 2, 70, "vertices must be an integer from 8 to 4096, got 3"});
    }
    SUBCASE("a compound inside a compound") {
        check_error(R"({"shapes": [
  {"type": "compound", "parts": [{"type": "compound", "parts": []}]}
]})",
                    {"/shapes/0/parts/0/type", 2, 43, "a compound's part cannot be a compound"});
    }
    SUBCASE("an id inside a part") {
        check_error(R"({"shapes": [
  {"type": "compound", "parts": [{"id": "core", "type": "circle", "center": [0, 0], "radius": 1}]}
]})",
                    {"/shapes/0/parts/0/id", 2, 41,
                     "a compound's part has no id of its own (give it to the compound)"});
    }
    SUBCASE("groups inside a part") {
        check_error(R"({"shapes": [
  {"type": "compound", "parts": [{"type": "circle", "center": [0, 0], "radius": 1, "groups": ["weak"]}]}
]})",
                    {"/shapes/0/parts/0/groups", 2, 94,
                     "a compound's part has no groups of its own (give them to the compound)"});
    }
    SUBCASE("empty parts") {
        check_error(R"({"shapes": [
  {"type": "compound", "parts": []}
]})",
                    {"/shapes/0/parts", 2, 33, "a compound needs at least one part"});
    }
    SUBCASE("parts that are not an array") {
        check_error(R"({"shapes": [
  {"type": "compound", "parts": {"type": "point", "at": [0, 0]}}
]})",
                    {"/shapes/0/parts", 2, 33, "expected an array of shapes, got an object"});
    }
    SUBCASE("an unknown key in a part, with a did-you-mean hint") {
        check_error(R"({"shapes": [
  {"type": "compound", "parts": [{"type": "circle", "center": [0, 0], "raduis": 1}]}
]})",
                    {"/shapes/0/parts/0/raduis", 2, 81,
                     "unknown key 'raduis' for a circle (did you mean 'radius'?); allowed here: type, center, radius"});
    }
    SUBCASE("an unknown key on the compound, with a did-you-mean hint") {
        check_error(R"({"shapes": [
  {"type": "compound", "part": [{"type": "point", "at": [0, 0]}]}
]})",
                    {"/shapes/0/part", 2, 32,
                     "unknown key 'part' for a compound (did you mean 'parts'?); allowed here: id, type, groups, ignore, parts"});
    }
    SUBCASE("a part of an unknown type") {
        check_error(R"({"shapes": [
  {"type": "compound", "parts": [{"type": "star", "at": [0, 0]}]}
]})",
                    {"/shapes/0/parts/0/type", 2, 43,
                     "unknown shape type 'star'; expected point, circle, rect, segment, line, ray, polygon, polyline, "
                     "capsule, box or ellipse"});
    }
    SUBCASE("an invalid part: its own error, at its own path") {
        check_error(R"({"shapes": [
  {"type": "compound", "parts": [{"type": "point", "at": [0, 0]}, {"type": "circle", "center": [0, 0], "radius": -1}]}
]})",
                    {"/shapes/0/parts/1/radius", 2, 114, "radius must be >= 0, got -1"});
    }
    SUBCASE("a box whose corners overflow") {
        check_error(R"({"shapes": [
  {"type": "box", "center": [1.7e308, 0], "size": [1e308, 1], "angle": 30}
]})",
                    {"/shapes/0", 2, 3, "the box reaches beyond the largest double"});
    }
    SUBCASE("a box too small for its position") {
        check_error(R"({"shapes": [
  {"type": "box", "center": [1e20, 0], "size": [1, 1], "angle": 30}
]})",
                    {"/shapes/0", 2, 3,
                     "the box is too small for its position: its corners, rounded to doubles, are not a simple polygon "
                     "(the polygon has zero area: its points lie on one line)"});
        // Half of 5e-324 rounds to 0: every corner is the center, at any angle, upright too.
        for (const char* angle : {"30", "0", "90"})
            check_error(std::string(R"({"shapes": [
  {"type": "box", "center": [1, 1], "size": [5e-324, 5e-324], "angle": )") + angle + "}\n]}",
                        {"/shapes/0", 2, 3,
                         "the box is too small for its position: its corners, rounded to doubles, are not a simple polygon "
                         "(a polygon needs at least 3 distinct vertices, got 1 after dropping repeated ones)"});
    }

    SUBCASE("an ellipse whose points overflow") {
        check_error(R"({"shapes": [
  {"type": "ellipse", "center": [1.7e308, 0], "radii": [1e308, 1]}
]})",
                    {"/shapes/0", 2, 3, "the ellipse reaches beyond the largest double"});
    }
    SUBCASE("an ellipse too small for its position") {
        check_error(R"({"shapes": [
  {"type": "ellipse", "center": [1e20, 0], "radii": [2, 1]}
]})",
                    {"/shapes/0", 2, 3,
                     "the ellipse is too small for its position: its points, rounded to doubles, are not a simple "
                     "polygon (the polygon has zero area: its points lie on one line)"});
    }
    SUBCASE("4097 parts") {
        std::string text = R"({"shapes": [
  {"type": "compound", "parts": [)";
        for (int i = 0; i < 4097; ++i) text += std::string(i ? ", " : "") + R"({"type": "point", "at": [0, 0]})";
        check_error(text + "]}\n]}", {"/shapes/0/parts", 2, 33, "a compound has at most 4096 parts, got 4097"});
    }
    SUBCASE("a part that is not an object") {
        check_error(R"({"shapes": [
  {"type": "compound", "parts": [[0, 0]]}
]})",
                    {"/shapes/0/parts/0", 2, 34, "a compound part must be an object, got an array"});
    }
}

namespace {

// A scene of n shapes of every form (over 1 MB for n = 20000), with `insert` spliced in
// as shape number `at` (raw JSON, so it may be broken), y_axis given after the shapes.
std::string big_scene(std::size_t n, std::size_t at = 0, const std::string& insert = "") {
    std::string s = "{\"shapes\": [\n";
    for (std::size_t i = 0; i < n; ++i) {
        if (i) s += ",\n";
        if (i == at && !insert.empty()) {
            s += insert;
            continue;
        }
        const std::string x = std::to_string(i % 1000), y = std::to_string(i / 1000);
        switch (i % 4) {
            case 0: s += "{\"type\": \"circle\", \"center\": [" + x + ", " + y + "], \"radius\": 0.5}"; break;
            case 1: s += "{\"id\": \"r" + std::to_string(i) + "\", \"type\": \"rect\", \"left\": " + x + ", \"top\": " + y +
                         ".5, \"right\": " + x + ".5, \"bottom\": " + y + ", \"groups\": [\"g\"]}"; break;
            case 2: s += "{\"type\": \"polygon\", \"points\": [[" + x + ", " + y + "], [" + x + ".5, " + y + "], [" + x + ", " + y + ".5]]}"; break;
            default: s += "{\"type\": \"point\", \"at\": [" + x + ", " + y + "]}";
        }
    }
    return s + "\n], \"settings\": {\"y_axis\": \"up\"}}\n";
}

// The same shape: type, bounds, and for polygons the vertices.
bool same_shape(const collide::Shape& a, const collide::Shape& b) {
    const collide::Bounds ba = collide::bounds_of(a), bb = collide::bounds_of(b);
    if (collide::type_of(a) != collide::type_of(b) || !(ba.min == bb.min) || !(ba.max == bb.max)) return false;
    const auto* pa = std::get_if<Polygon>(&a);
    const auto* pb = std::get_if<Polygon>(&b);
    return !pa || pa->points == pb->points;
}

std::string error_of(const std::string& text, unsigned threads) {
    try {
        read_scene(text, "big.json", collide::ReadOptions{threads});
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("read_scene: two threads read the same scene and the same first error") {
    const std::size_t n = 20000;
    SUBCASE("a valid scene, shape by shape") {
        const std::string text = big_scene(n);
        REQUIRE(text.size() > (std::size_t{1} << 20));  // big enough for the batched reader
        const Scene one = read_scene(text, "big.json");
        const Scene two = read_scene(text, "big.json", collide::ReadOptions{2});
        REQUIRE(one.shapes.size() == n);
        REQUIRE(two.shapes.size() == n);
        for (std::size_t i = 0; i < n; ++i) {
            CHECK(one.shapes[i].id == two.shapes[i].id);
            CHECK(one.shapes[i].groups == two.shapes[i].groups);
            CHECK(same_shape(one.shapes[i].shape, two.shapes[i].shape));
        }
        CHECK(two.shapes[5000].id == "5000");  // a default id: the index counts across batches
        // left/top/right/bottom read with y up, although settings come after the shapes
        CHECK(same_shape(two.shapes[1].shape, Rect{Vec2{1, 0}, Vec2{1.5, 0.5}}));
    }
    SUBCASE("shapes followed by a big grid: the count guessed from the first shapes is far off") {
        // After 2,048 shapes the reader reserves room for as many more as the rest of the
        // text would hold at their size: here ~100x too many (the grid's rows). Only room:
        // the scene is the same, with either reader.
        std::string text = big_scene(3000);
        text.insert(text.rfind('}'), ", \"grids\": [{\"id\": \"g\", \"tile_size\": 1, \"rows\": [\"" +
                                         std::string(3u << 20, '.') + "\"]}]");
        for (unsigned threads : {1u, 2u}) {
            const Scene s = read_scene(text, "big.json", collide::ReadOptions{threads});
            REQUIRE(s.shapes.size() == 3000);
            CHECK(s.shapes[2999].id == "2999");
            CHECK(same_shape(s.shapes[2998].shape, Polygon{{Vec2{998, 2}, Vec2{998.5, 2}, Vec2{998, 2.5}}}));
            REQUIRE(s.grids.size() == 1);
            CHECK(s.grids[0].cols == (3u << 20));
        }
    }
    SUBCASE("an empty shapes array in a big file, then more keys") {
        // The batched reader takes "shapes" of any text over 1 MiB, empty or not.
        const std::string text = "{\"shapes\": [ ], \"notes\": \"" + std::string(2u << 20, 'x') + "\"}";
        CHECK(error_of(text, 2) == error_of(text, 1));
        CHECK(error_of(text, 2).find("/notes") != std::string::npos);
        const std::string valid = "{\"shapes\": []" + std::string(2u << 20, ' ') + ", \"pairs\": [\"*:*\"]}";
        for (unsigned threads : {1u, 2u}) {
            const Scene s = read_scene(valid, "big.json", collide::ReadOptions{threads});
            CHECK(s.shapes.empty());
            CHECK(s.pairs.size() == 1);
        }
    }
    SUBCASE("a bad shape in a late batch") {
        const std::string text = big_scene(n, 17001, R"({"type": "circle", "center": [0, 0], "radius": -1})");
        CHECK(error_of(text, 2) == error_of(text, 1));
        CHECK(error_of(text, 2).find("/shapes/17001/radius") != std::string::npos);
    }
    SUBCASE("a bad shape before a syntax error in a later batch") {
        std::string text = big_scene(n, 3000, R"({"type": "point", "at": [0]})");
        text.replace(text.find("\"radius\": 0.5", text.size() - 5000), 13, "\"radius\": 0.5,,");
        CHECK(error_of(text, 2) == error_of(text, 1));
        CHECK(error_of(text, 2).find("/shapes/3000/at") != std::string::npos);
    }
    SUBCASE("a bad shape before a syntax error in the same batch") {
        std::string text = big_scene(n, 100, R"({"type": "point", "at": [0, 0], "colour": 1})");
        text.replace(text.find("\"radius\": 0.5", 20000), 13, "\"radius\": 0.5 ]");
        CHECK(error_of(text, 2) == error_of(text, 1));
        CHECK(error_of(text, 2).find("unknown key 'colour'") != std::string::npos);
    }
    SUBCASE("a syntax error alone") {
        std::string text = big_scene(n);
        text.replace(text.find("\"radius\": 0.5", text.size() / 2), 13, "\"radius\": 0.5 ]");
        CHECK(error_of(text, 2) == error_of(text, 1));
        CHECK(error_of(text, 2).find("syntax error") != std::string::npos);
    }
}

namespace {

// Reads `text` as a file still being read in: wait_for(n) hands out the first n bytes and a
// few kilobytes more (how many varies with `seed`), so that what is in place ends at
// arbitrary points, inside tokens too; or with seed 0, up to the end of the next "}" that a
// comma follows (the end of what is in place looks like the end of the shapes).
// `partial` counts the answers short of the whole text.
struct PieceByPiece {
    std::string_view text;
    unsigned seed;
    std::size_t ready = 0;
    std::size_t partial = 0;

    std::size_t cut(std::size_t n) const {
        if (seed == 0) {
            const std::size_t brace = text.find("},", n);
            return brace == std::string_view::npos ? text.size() : brace + 1;
        }
        return std::min(text.size(), n + (n * 7919 + seed * 104729) % 65536);
    }
    Scene read() {
        collide::ReadOptions o;
        o.threads = 2;
        o.wait_for = [this](std::size_t n) {
            ready = std::max(ready, cut(n));
            if (ready < text.size()) ++partial;
            return ready;
        };
        return read_scene(text, "big.json", o);
    }
    std::string error() {
        try {
            read();
        } catch (const Error& e) {
            return e.what();
        }
        return "no error";
    }
};

void check_same_scene(const Scene& a, const Scene& b) {
    REQUIRE(a.shapes.size() == b.shapes.size());
    std::size_t k = 0;
    while (k < a.shapes.size() && a.shapes[k].id == b.shapes[k].id && a.shapes[k].groups == b.shapes[k].groups &&
           same_shape(a.shapes[k].shape, b.shapes[k].shape))
        ++k;
    CHECK(k == a.shapes.size());
    CHECK(a.y_up == b.y_up);
    CHECK(a.grids.size() == b.grids.size());
    CHECK(a.pairs.size() == b.pairs.size());
}

// A polyline whose text is over 1 MiB: a batch holding it runs past the read ahead.
std::string huge_polyline() {
    std::string s = "{\"id\": \"huge\", \"type\": \"polyline\", \"points\": [";
    for (int i = 0; i < 40000; ++i) s += "[" + std::to_string(i) + ".0625, 0.0009765625], ";
    return s + "[0, 0]]}";
}

}  // namespace

TEST_CASE("read_scene: a text still being read in gives the same scene and the same first error") {
    // ReadOptions::wait_for: the reader starts on the part in place; whatever it ran into
    // at the end of that part is read again once more is there.
    const std::size_t n = 30000;  // 1.8 MB: over the 1 MiB that must be in place to begin
    SUBCASE("a valid scene, settings after the shapes") {
        const std::string text = big_scene(n);
        REQUIRE(text.size() > (std::size_t{3} << 19));
        const Scene whole = read_scene(text, "big.json");
        for (unsigned seed : {0u, 1u}) {
            PieceByPiece reader{text, seed};
            check_same_scene(reader.read(), whole);
            CHECK(reader.partial >= 1);  // it did start before all was in place
        }
    }
    SUBCASE("a byte-order mark, and a shape bigger than the read ahead") {
        const std::string text = "\xEF\xBB\xBF" + big_scene(n, 20000, huge_polyline());
        const Scene whole = read_scene(text, "big.json");
        for (unsigned seed : {0u, 1u}) {  // in place up to inside it, or to its end
            PieceByPiece reader{text, seed};
            const Scene s = reader.read();
            check_same_scene(s, whole);
            CHECK(s.shapes[20000].id == "huge");
            CHECK(std::get<Polyline>(s.shapes[20000].shape).points.size() == 40001);
            CHECK(reader.partial >= 1);
        }
    }
    SUBCASE("a grid bigger than the read ahead before the shapes") {
        std::string text = big_scene(n);
        text.insert(1, "\"grids\": [{\"id\": \"g\", \"tile_size\": 1, \"rows\": [\"" + std::string(3u << 19, '.') + "\"]}], ");
        PieceByPiece reader{text, 1};
        const Scene s = reader.read();
        check_same_scene(s, read_scene(text, "big.json"));
        REQUIRE(s.grids.size() == 1);
        CHECK(s.grids[0].cols == (3u << 19));
    }
    SUBCASE("the same first error") {
        std::string bad_late = big_scene(n, 28000, R"({"type": "circle", "center": [0, 0], "radius": -1})");
        std::string syntax_late = big_scene(n);
        syntax_late.replace(syntax_late.find("\"radius\": 0.5", syntax_late.size() - 9000), 13, "\"radius\": 0.5 ]");
        std::string in_huge = big_scene(n, 100, huge_polyline());
        in_huge.replace(in_huge.find("[39999.0625"), 1, "{");
        unsigned seed = 0;
        for (const std::string* text : {&bad_late, &syntax_late, &in_huge}) {
            const std::string want = error_of(*text, 1);
            CHECK(want != "no error");
            PieceByPiece reader{*text, seed++};
            CHECK(reader.error() == want);
        }
    }
}

TEST_CASE("read_scene: a byte that makes the text invalid ends the read without waiting for the rest") {
    // 8 MiB, handed out as far as asked: a NUL or a stray byte in the first 1 MiB is the
    // error, as in the whole text, and the rest is never asked for.
    for (const std::string& head : {std::string(""), std::string("{\"shapes\": [{\"id\": \"a\", \"type\": \"point\", \"at\": [0, 0]}, "),
                                    std::string("{\"pairs\": [\"a:b\" x")}) {
        const std::string text = head + std::string(std::size_t{8} << 20, '\0');
        collide::ReadOptions o;
        o.threads = 2;
        std::size_t asked = 0;
        o.wait_for = [&](std::size_t n) -> std::size_t {
            asked = std::max(asked, n);
            return std::min(n, text.size());
        };
        std::string got = "no error";
        try {
            read_scene(text, "big.json", o);
        } catch (const Error& e) {
            got = e.what();
        }
        CHECK(got == error_of(text, 1));
        CHECK(asked < (std::size_t{2} << 20));
    }
}

TEST_CASE("read_scene: an exception from wait_for leaves read_scene as it is") {
    const std::string text = big_scene(30000);
    collide::ReadOptions o;
    o.threads = 2;
    o.wait_for = [&](std::size_t n) -> std::size_t {
        if (n > (std::size_t{1} << 20)) throw Error("big.json", "", "cannot read: Input/output error");
        return std::min(text.size(), n);
    };
    try {
        read_scene(text, "big.json", o);
        FAIL("read_scene went past a failed read");
    } catch (const Error& e) {
        CHECK(std::string(e.what()) == "big.json: cannot read: Input/output error");
    }
}
