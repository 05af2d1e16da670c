// read_scene(): every form the scene format allows (SPEC §1), and the errors it reports for
// typical mistakes, checked word for word with their file, JSON pointer and line:column.
#include "collide/scene.hpp"

#include <doctest/doctest.h>

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
                     "unknown key 'raduis' for a circle (did you mean 'radius'?); allowed here: id, type, groups, "
                     "center, radius"});
    }
    SUBCASE("a typo in a key every shape has, with a did-you-mean hint") {
        check_error(R"({"shapes": [
  {"type": "point", "at": [0, 0], "gruops": ["a"]}
]})",
                    {"/shapes/0/gruops", 2, 45,
                     "unknown key 'gruops' for a point (did you mean 'groups'?); allowed here: id, type, groups, at"});
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
