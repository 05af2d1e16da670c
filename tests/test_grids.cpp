// Tile grids and moves (SPEC §1.2, §1.3, §2.4): which cell holds a point, which cells a
// shape hits, where a move stops, and rules that select grids. Every expectation is derived
// by hand from the spec; a comment gives the arithmetic where it is not obvious.
//
// Conventions of this file: unless a case says otherwise y points down, tiles are 10 wide,
// the origin is [0, 0] and the outside is solid, so cell [c, r] spans
// [10c, 10c + 10) x [10r, 10r + 10). Results are compared as text ("[1,1] outside",
// "blocked t=0.5 stop=(20,15) cell=[2,1]") whose numbers are shortest round-trip forms, so
// a text comparison is an exact comparison of doubles.
#include "grids/grid_ops.hpp"

#include "collide/check.hpp"
#include "collide/scene.hpp"

#include <doctest/doctest.h>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

using collide::Body;
using collide::Cell;
using collide::CheckOptions;
using collide::Grid;
using collide::Move;
using collide::MoveResult;
using collide::Relation;
using collide::Scene;
using collide::Vec2;

namespace {

enum class YAxis { Down, Up };

Scene scene(const std::string& json) { return collide::read_scene(json, "test_grids.json"); }

std::string num(double v) {
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    return std::string(buf, end);
}

std::string text(Cell c) { return "[" + std::to_string(c.col) + "," + std::to_string(c.row) + "]"; }

// Scene-file fields of a few shapes; numbers are written so that they read back exactly.
std::string point(double x, double y) { return R"("type": "point", "at": [)" + num(x) + ", " + num(y) + "]"; }
std::string rect(double x0, double y0, double x1, double y1) {
    return R"("type": "rect", "min": [)" + num(x0) + ", " + num(y0) + R"(], "max": [)" + num(x1) + ", " + num(y1) + "]";
}
std::string circle(double x, double y, double r) {
    return R"("type": "circle", "center": [)" + num(x) + ", " + num(y) + R"(], "radius": )" + num(r);
}
std::string segment(double ax, double ay, double bx, double by) {
    return R"("type": "segment", "a": [)" + num(ax) + ", " + num(ay) + R"(], "b": [)" + num(bx) + ", " + num(by) + "]";
}

std::string settings(YAxis y) { return std::string(R"("settings": {"y_axis": ")") + (y == YAxis::Up ? "up" : "down") + R"("})"; }

// A shape (its fields) against a grid (its fields, without the id): "none" when they do not
// collide, else the cells hit in report order, then "outside" when it reaches the solid outside.
std::string hit(const std::string& shape, const std::string& grid, YAxis y = YAxis::Down) {
    const Scene s = scene("{" + settings(y) + R"(, "shapes": [{)" + shape + R"(}], "grids": [{"id": "g", )" + grid + "}]}");
    const auto h = collide::detail::shape_vs_grid(s.shapes[0].shape, s.grids[0]);
    if (!h) return "none";
    std::string out;
    for (const Cell& c : h->cells) out += (out.empty() ? "" : " ") + text(c);
    if (h->outside) out += out.empty() ? "outside" : " outside";
    return out.empty() ? "a hit with no cell and no outside" : out;
}

// The one move of a scene (its fields, without "grid") on a grid (its fields).
MoveResult move(const std::string& grid, const std::string& fields, YAxis y = YAxis::Down) {
    const Scene s = scene("{" + settings(y) + R"(, "grids": [{"id": "g", )" + grid + R"(}], "moves": [{"grid": "g", )" + fields + "}]}");
    return collide::detail::run_move(s.moves[0], s.grids[0]);
}

std::string text(const MoveResult& r) {
    if (r.allowed) return "allowed";
    return "blocked t=" + num(r.t) + " stop=(" + num(r.stop.x) + "," + num(r.stop.y) + ") cell=" + text(r.cell);
}

// The outcome of a move with a point or rect body, exactly.
std::string outcome(const std::string& grid, const std::string& fields, YAxis y = YAxis::Down) {
    return text(move(grid, fields, y));
}

// A circle's entry time is irrational in general: within 1e-9 is what the spec asks for.
doctest::Approx near_t(double t) { return doctest::Approx(t).epsilon(5e-10); }  // |d| <= 5e-10 (1 + t)
doctest::Approx near_xy(double v) { return doctest::Approx(v).epsilon(1e-8); }

const char* const kPoint = R"("body": {"type": "point"})";
const char* const kCircle4 = R"("body": {"type": "circle", "radius": 4})";
const char* const kBox8 = R"("body": {"type": "rect", "size": [8, 8]})";

// A one-tile wall, column 2 (x in [20, 30)), across a 5 x 3 grid of extent [0, 50] x [0, 30].
const char* const kWall = R"("tile_size": 10, "rows": ["..#..", "..#..", "..#.."])";
const char* const kWallOpen = R"("tile_size": 10, "outside": "empty", "rows": ["..#..", "..#..", "..#.."])";

}  // namespace

// ---- which cell holds a point ----------------------------------------------------------------

TEST_CASE("grid: point lookup") {
    SUBCASE("a point on a solid cell's min edge or min corner collides") {
        const char* g = R"("tile_size": 10, "rows": ["..", ".#"])";
        CHECK(hit(point(10, 10), g) == "[1,1]");
        CHECK(hit(point(10, 15), g) == "[1,1]");
        CHECK(hit(point(15, 10), g) == "[1,1]");
        CHECK(hit(point(9.999999999999998, 15), g) == "none");  // the double just below the edge
    }
    SUBCASE("a point on the line between two cells belongs to the greater-x or greater-y one") {
        CHECK(hit(point(10, 5), R"("tile_size": 10, "rows": ["#."])") == "none");
        CHECK(hit(point(10, 5), R"("tile_size": 10, "rows": [".#"])") == "[1,0]");
        CHECK(hit(point(5, 10), R"("tile_size": 10, "rows": ["#", "."])") == "none");
        CHECK(hit(point(5, 10), R"("tile_size": 10, "rows": [".", "#"])") == "[0,1]");
    }
    SUBCASE("a point on the grid's max edge is outside; on its min edge it is inside") {
        const char* g = R"("tile_size": 10, "rows": ["#"])";
        CHECK(hit(point(10, 5), g) == "outside");
        CHECK(hit(point(5, 10), g) == "outside");
        CHECK(hit(point(0, 0), g) == "[0,0]");
        CHECK(hit(point(10, 5), R"("tile_size": 10, "outside": "empty", "rows": ["#"])") == "none");
    }
    SUBCASE("y_axis down: the first row written spans the smallest y") {
        const char* g = R"("tile_size": 10, "rows": ["..", "#."])";
        CHECK(hit(point(5, 15), g) == "[0,1]");
        CHECK(hit(point(5, 5), g) == "none");
    }
    SUBCASE("y_axis up: the first row written spans the greatest y; [col, row] still indexes rows as written") {
        const char* g = R"("tile_size": 10, "rows": ["..", "#."])";
        CHECK(hit(point(5, 5), g, YAxis::Up) == "[0,1]");  // written row 1 is the bottom row, y in [0, 10)
        CHECK(hit(point(5, 15), g, YAxis::Up) == "none");
    }
    SUBCASE("y_axis up: the floor rule still works on plain y") {
        // Written row 0 spans y in [10, 20), row 1 y in [0, 10); y = 10 belongs to row 0.
        CHECK(hit(point(5, 10), R"("tile_size": 10, "rows": ["#", "."])", YAxis::Up) == "[0,0]");
        CHECK(hit(point(5, 10), R"("tile_size": 10, "rows": [".", "#"])", YAxis::Up) == "none");
        CHECK(hit(point(5, 0), R"("tile_size": 10, "rows": [".", "#"])", YAxis::Up) == "[0,1]");
        CHECK(hit(point(5, 20), R"("tile_size": 10, "rows": ["#", "#"])", YAxis::Up) == "outside");
    }
    SUBCASE("cells given as integers: non-zero blocks") {
        const char* g = R"("tile_size": 10, "cells": [[0, 7], [-1, 0]])";
        CHECK(hit(point(15, 5), g) == "[1,0]");
        CHECK(hit(point(5, 15), g) == "[0,1]");
        CHECK(hit(point(5, 5), g) == "none");
        CHECK(hit(point(15, 15), g) == "none");
    }
    SUBCASE("custom solid characters, one code point a cell, multi-byte UTF-8 included") {
        const char* g = R"("tile_size": 10, "solid": "X█", "rows": ["█.X", "#.."])";
        CHECK(hit(point(5, 5), g) == "[0,0]");
        CHECK(hit(point(15, 5), g) == "none");
        CHECK(hit(point(25, 5), g) == "[2,0]");
        CHECK(hit(point(5, 15), g) == "none");      // '#' is not in "X█": free
        CHECK(hit(point(30, 5), g) == "outside");   // three cells wide, not five bytes
    }
    SUBCASE("rectangular tile_size [w, h]") {
        const char* g = R"("tile_size": [10, 4], "rows": ["..", ".#"])";  // [1,1] is [10, 20) x [4, 8)
        CHECK(hit(point(10, 4), g) == "[1,1]");
        CHECK(hit(point(19, 7), g) == "[1,1]");
        CHECK(hit(point(15, 3), g) == "none");
        CHECK(hit(point(15, 8), g) == "outside");
        CHECK(hit(point(20, 5), g) == "outside");
    }
    SUBCASE("origin offset: the origin is the grid's min corner") {
        const char* g = R"("tile_size": 10, "origin": [-20, 30], "rows": ["#."])";  // [0,0] is [-20, -10) x [30, 40)
        CHECK(hit(point(-20, 30), g) == "[0,0]");
        CHECK(hit(point(-15, 35), g) == "[0,0]");
        CHECK(hit(point(-10, 30), g) == "none");
        CHECK(hit(point(0, 35), g) == "outside");
        CHECK(hit(point(-21, 35), g) == "outside");
        CHECK(hit(point(5, 5), g) == "outside");
    }
    SUBCASE("decimal tile size: edges at the exact values origin + k * tile") {
        // The double 0.1 is 0.1000000000000000055..., so edge 5 is 0.50000000000000002776 > 0.5
        // and edge 10 is 1.0000000000000000555 > 1: x = 0.5 lies in cell 4 and x = 1 in cell 9.
        // Edge 4 is exactly the double 0.4. (floor(x / 0.1) in doubles says 5 and 10.)
        const char* g = R"("tile_size": 0.1, "rows": ["....#....#"])";
        CHECK(hit(point(0.5, 0.05), g) == "[4,0]");
        CHECK(hit(point(1, 0.05), g) == "[9,0]");
        CHECK(hit(point(0.4, 0.05), g) == "[4,0]");
        CHECK(hit(point(0.39999999999999997, 0.05), g) == "none");
        CHECK(hit(point(0.45, 0.1), g) == "outside");  // y = 0.1 is exactly the grid's max edge
    }
    SUBCASE("decimal tile size with a decimal origin: the edge is the exact sum") {
        // Edge 10 is -0.7 + 10 * 0.1 = 0.30000000000000009992..., exactly the double
        // 0.3000000000000001; the double 0.30000000000000004 lies below it, in cell 9.
        // (Rounding -0.7 + 1.0000000000000000555 to a double gives 0.30000000000000004.)
        const char* g = R"("tile_size": 0.1, "origin": [-0.7, 0], "rows": [".........#."])";
        CHECK(hit(point(0.30000000000000004, 0.05), g) == "[9,0]");
        CHECK(hit(point(0.3000000000000001, 0.05), g) == "none");
    }
}

// ---- shapes against grids --------------------------------------------------------------------

TEST_CASE("grid: shapes against cells") {
    const char* centre = R"("tile_size": 10, "rows": ["...", ".#.", "..."])";  // [1,1] is [10, 20)^2
    SUBCASE("a rect flush against a wall does not collide; one overlapping by a hair does") {
        CHECK(hit(rect(0, 10, 10, 20), centre) == "none");
        CHECK(hit(rect(10, 0, 20, 10), centre) == "none");
        CHECK(hit(rect(0, 0, 10, 10), centre) == "none");  // corner to corner
        CHECK(hit(rect(0, 10, 10.000000000000002, 20), centre) == "[1,1]");
        CHECK(hit(rect(12, 12, 14, 14), centre) == "[1,1]");
    }
    SUBCASE("a zero-width rect on the line between two solid cells does not collide") {
        CHECK(hit(rect(10, 2, 10, 8), R"("tile_size": 10, "rows": ["##"])") == "none");
        CHECK(hit(rect(2, 10, 8, 10), R"("tile_size": 10, "rows": ["#", "#"])") == "none");
        CHECK(hit(rect(5, 2, 5, 8), R"("tile_size": 10, "rows": ["##"])") == "[0,0]");
        CHECK(hit(point(10, 5), R"("tile_size": 10, "rows": ["##"])") == "[1,0]");  // a point there does
    }
    SUBCASE("a circle tangent to a cell does not collide; one reaching into its corner does") {
        CHECK(hit(circle(5, 15, 5), centre) == "none");  // tangent to x = 10, flush with the border
        // (7, 6) is exactly 5 from the corner (10, 10): a 3-4-5 triangle. Its bounds overlap the cell.
        CHECK(hit(circle(7, 6, 5), centre) == "none");
        CHECK(hit(circle(7, 6, 5.000000000000001), centre) == "[1,1]");
        CHECK(hit(circle(15, 15, 1), centre) == "[1,1]");
    }
    SUBCASE("a segment along a grid line does not collide") {
        const char* full = R"("tile_size": 10, "rows": ["##", "##"])";
        CHECK(hit(segment(0, 10, 20, 10), full) == "none");
        CHECK(hit(segment(10, 0, 10, 20), full) == "none");
        CHECK(hit(segment(0, 0, 20, 0), full) == "none");  // on the border: not outside either
    }
    SUBCASE("a segment through a cell corner hits only the cells whose interior it crosses") {
        const char* full = R"("tile_size": 10, "rows": ["##", "##"])";
        CHECK(hit(segment(0, 0, 20, 20), full) == "[0,0] [1,1]");
        CHECK(hit(segment(0, 20, 20, 0), full) == "[1,0] [0,1]");
    }
    SUBCASE("a ray and a line are clipped to the grid") {
        // 4 x 3, extent [0, 40] x [0, 30]; solid [0,0], [3,0], [1,2].
        const char* g = R"("tile_size": 10, "rows": ["#..#", "....", ".#.."])";
        const char* open = R"("tile_size": 10, "outside": "empty", "rows": ["#..#", "....", ".#.."])";
        CHECK(hit(R"("type": "ray", "origin": [15, 5], "direction": [1, 0])", g) == "[3,0] outside");
        CHECK(hit(R"("type": "ray", "origin": [15, 5], "direction": [-1, 0])", g) == "[0,0] outside");
        CHECK(hit(R"("type": "ray", "origin": [15, 5], "direction": [1, 0])", open) == "[3,0]");
        CHECK(hit(R"("type": "ray", "origin": [-100, 25], "direction": [1, 0])", open) == "[1,2]");
        CHECK(hit(R"("type": "ray", "origin": [-5, 5], "direction": [-1, 0])", g) == "outside");
        CHECK(hit(R"("type": "ray", "origin": [-5, 5], "direction": [-1, 0])", open) == "none");
        // A line extends both ways from its two points, here far right of the grid.
        CHECK(hit(R"("type": "line", "a": [100, 5], "b": [101, 5])", g) == "[0,0] [3,0] outside");
        CHECK(hit(R"("type": "line", "a": [100, 5], "b": [101, 5])", open) == "[0,0] [3,0]");
        CHECK(hit(R"("type": "line", "a": [0, 10], "b": [1, 10])", g) == "outside");  // along a grid line
        CHECK(hit(R"("type": "line", "a": [0, 10], "b": [1, 10])", open) == "none");
    }
    SUBCASE("a polyline hits the cells of each of its segments") {
        // (5,5) -> (25,5) -> (25,25) crosses [0,0] [1,0] [2,0] [2,1] [2,2]; solid [2,0], [0,1], [2,2].
        CHECK(hit(R"("type": "polyline", "points": [[5, 5], [25, 5], [25, 25]])",
                  R"("tile_size": 10, "rows": ["..#", "#..", "..#"])") == "[2,0] [2,2]");
    }
    SUBCASE("a concave polygon whose notch holds a solid cell does not hit it") {
        // A U: the notch is [10, 20] x [10, 30], flush with the cell [1,1].
        const std::string u = R"("type": "polygon", "points": [[0, 0], [30, 0], [30, 30], [20, 30], [20, 10], [10, 10], [10, 30], [0, 30]])";
        CHECK(hit(u, centre) == "none");
        CHECK(hit(u, R"("tile_size": 10, "rows": [".#.", "...", "..."])") == "[1,0]");
    }
    SUBCASE("outside: solid counts a shape reaching beyond the extent; flush with the border is not outside") {
        const char* one = R"("tile_size": 10, "rows": ["."])";  // extent [0, 10]^2
        CHECK(hit(rect(0, 0, 10, 10), one) == "none");
        CHECK(hit(rect(-5, 0, 5, 10), one) == "outside");
        CHECK(hit(rect(0, 0, 10.000000000000002, 10), one) == "outside");
        CHECK(hit(circle(5, 5, 5), one) == "none");
        CHECK(hit(circle(5, 5, 5.000000000000001), one) == "outside");
        CHECK(hit(R"("type": "polygon", "points": [[0, 0], [10, 0], [0, 10]])", one) == "none");
        CHECK(hit(R"("type": "polygon", "points": [[0, 0], [11, 0], [0, 10]])", one) == "outside");
        CHECK(hit(segment(0, 10, 10, 10), one) == "none");
        CHECK(hit(segment(5, 5, 15, 5), one) == "outside");
        CHECK(hit(rect(-5, 0, 5, 10), R"("tile_size": 10, "rows": ["#"])") == "[0,0] outside");
    }
    SUBCASE("outside: empty never counts the outside") {
        const char* one = R"("tile_size": 10, "outside": "empty", "rows": ["."])";
        CHECK(hit(rect(-5, 0, 5, 10), one) == "none");
        CHECK(hit(circle(5, 5, 50), one) == "none");
        CHECK(hit(segment(5, 5, 15, 5), one) == "none");
        CHECK(hit(point(15, 5), one) == "none");
    }
    SUBCASE("cells are sorted by row, then column, as written") {
        const char* g = R"("tile_size": 10, "rows": ["#.#", "##.", "..#"])";
        CHECK(hit(rect(0, 0, 30, 30), g) == "[0,0] [2,0] [0,1] [1,1] [2,2]");
        CHECK(hit(segment(25, 25, 5, 5), g) == "[0,0] [1,1] [2,2]");  // drawn backwards
        // y up: y in [0, 20] spans written rows 2 and 1; written row 1 comes first.
        CHECK(hit(rect(0, 0, 30, 20), g, YAxis::Up) == "[0,1] [1,1] [2,2]");
    }
}

// ---- moves -----------------------------------------------------------------------------------

TEST_CASE("move: check destination vs path") {
    SUBCASE("path: crossing a wall is blocked; destination: only the end position counts") {
        CHECK(outcome(kWall, R"("from": [4, 15], "to": [36, 15])") == "blocked t=0.5 stop=(20,15) cell=[2,1]");
        CHECK(outcome(kWall, R"("from": [4, 15], "to": [36, 15], "check": "destination")") == "allowed");
    }
    SUBCASE("destination: a blocked end position gives t = 1 and stop = to") {
        CHECK(outcome(kWall, R"("from": [4, 15], "to": [25, 15], "check": "destination")") ==
              "blocked t=1 stop=(25,15) cell=[2,1]");
        CHECK(outcome(kWall, R"("from": [4, 15], "to": [20, 15], "check": "destination")") ==
              "blocked t=1 stop=(20,15) cell=[2,1]");
        CHECK(outcome(kWall, R"("from": [4, 15], "to": [30, 15], "check": "destination")") == "allowed");
    }
    SUBCASE("path: a point ending on a wall's min edge is blocked at t = 1; on its max edge it is not") {
        CHECK(outcome(kWall, R"("from": [4, 15], "to": [20, 15])") == "blocked t=1 stop=(20,15) cell=[2,1]");
        CHECK(outcome(kWall, R"("from": [45, 15], "to": [30, 15])") == "allowed");
        const char* corridor = R"("tile_size": 10, "rows": ["#####", ".....", "#####"])";
        CHECK(outcome(corridor, R"("from": [5, 15], "to": [5, 20])") == "blocked t=1 stop=(5,20) cell=[0,2]");
        CHECK(outcome(corridor, R"("from": [5, 15], "to": [5, 10])") == "allowed");
    }
    SUBCASE("path: a move of length zero is tested at its one position") {
        CHECK(outcome(kWall, R"("from": [5, 15], "to": [5, 15])") == "allowed");
        CHECK(outcome(kWall, R"("from": [20, 15], "to": [20, 15])") == "blocked t=0 stop=(20,15) cell=[2,1]");
    }
    SUBCASE("destination: a start inside a wall does not matter") {
        CHECK(outcome(kWall, R"("from": [25, 15], "to": [40, 15], "check": "destination", )" + std::string(kBox8)) == "allowed");
    }
}

TEST_CASE("move: crossing a one-tile wall in one step is blocked for every body") {
    const std::string path = R"("from": [4, 15], "to": [36, 15], )";  // 32 long, along row 1
    SUBCASE("point: stops on the wall's min edge") {
        // x = 20 at t = 16 / 32.
        CHECK(outcome(kWall, path + kPoint) == "blocked t=0.5 stop=(20,15) cell=[2,1]");
    }
    SUBCASE("rect: stops flush against the wall") {
        // The right side x + 4 passes 20 from x = 16, t = 12 / 32.
        CHECK(outcome(kWall, path + kBox8) == "blocked t=0.375 stop=(16,15) cell=[2,1]");
    }
    SUBCASE("circle: stops tangent to the wall") {
        // The circle comes within 4 of x = 20 from x = 16: t = 12 / 32, exactly.
        CHECK(outcome(kWall, path + kCircle4) == "blocked t=0.375 stop=(16,15) cell=[2,1]");
    }
    SUBCASE("every body may land beyond the wall when only the destination is checked") {
        const std::string dest = path + R"("check": "destination", )";
        CHECK(outcome(kWall, dest + kPoint) == "allowed");
        CHECK(outcome(kWall, dest + kBox8) == "allowed");
        CHECK(outcome(kWall, dest + kCircle4) == "allowed");
    }
}

TEST_CASE("move: sliding flush along walls is allowed for every body") {
    // Solid rows 0 and 2, a free corridor y in [10, 20] between them; extent [0, 50] x [0, 30].
    const char* corridor = R"("tile_size": 10, "rows": ["#####", ".....", "#####"])";
    SUBCASE("point: along the max edge of the wall above, which belongs to the free row") {
        CHECK(outcome(corridor, R"("from": [5, 10], "to": [45, 10])") == "allowed");
    }
    SUBCASE("circle: tangent to both walls, and to the grid's left and right borders at the ends") {
        CHECK(outcome(corridor, R"("from": [5, 15], "to": [45, 15], "body": {"type": "circle", "radius": 5})") == "allowed");
    }
    SUBCASE("rect: flush with both walls") {
        CHECK(outcome(corridor, R"("from": [5, 15], "to": [45, 15], "body": {"type": "rect", "size": [10, 10]})") == "allowed");
    }
    SUBCASE("point: along the min edge of the wall below is inside that wall") {
        CHECK(outcome(corridor, R"("from": [5, 20], "to": [45, 20])") == "blocked t=0 stop=(5,20) cell=[0,2]");
    }
}

TEST_CASE("move: a body flush against a wall that moves into it is blocked at t = 0") {
    SUBCASE("rect") {
        CHECK(outcome(kWall, R"("from": [16, 15], "to": [24, 15], )" + std::string(kBox8)) ==
              "blocked t=0 stop=(16,15) cell=[2,1]");
    }
    SUBCASE("circle") {
        const MoveResult r = move(kWall, R"("from": [16, 15], "to": [24, 15], )" + std::string(kCircle4));
        REQUIRE_FALSE(r.allowed);
        CHECK(r.t == near_t(0));
        CHECK(r.stop.x == near_xy(16));
        CHECK(text(r.cell) == "[2,1]");
    }
    SUBCASE("point on the wall's max edge (free) moving back into it") {
        CHECK(outcome(kWall, R"("from": [30, 15], "to": [26, 15])") == "blocked t=0 stop=(30,15) cell=[2,1]");
    }
    SUBCASE("moving away from the wall it is flush with is allowed") {
        CHECK(outcome(kWall, R"("from": [16, 15], "to": [8, 15], )" + std::string(kBox8)) == "allowed");
        CHECK(outcome(kWall, R"("from": [16, 15], "to": [8, 15], )" + std::string(kCircle4)) == "allowed");
        CHECK(outcome(kWall, R"("from": [30, 15], "to": [40, 15])") == "allowed");
    }
}

TEST_CASE("move: a body that collides at from is blocked at t = 0, whatever its direction") {
    CHECK(outcome(kWall, R"("from": [22, 15], "to": [40, 15], )" + std::string(kBox8)) == "blocked t=0 stop=(22,15) cell=[2,1]");
    CHECK(outcome(kWall, R"("from": [20, 15], "to": [5, 15])") == "blocked t=0 stop=(20,15) cell=[2,1]");
    const MoveResult r = move(kWall, R"("from": [18, 15], "to": [10, 15], )" + std::string(kCircle4));
    REQUIRE_FALSE(r.allowed);
    CHECK(r.t == 0);  // at from, so the infimum is exactly 0
    CHECK(r.stop == Vec2{18, 15});
    CHECK(text(r.cell) == "[2,1]");
}

TEST_CASE("move: leaving the grid") {
    SUBCASE("outside solid: the outside cell entered, with an index out of range") {
        // The point is outside once x > 50 (x = 50 is already outside) or x < 0 (x = 0 is inside).
        CHECK(outcome(kWall, R"("from": [45, 15], "to": [55, 15])") == "blocked t=0.5 stop=(50,15) cell=[5,1]");
        CHECK(outcome(kWall, R"("from": [5, 15], "to": [-5, 15])") == "blocked t=0.5 stop=(0,15) cell=[-1,1]");
        CHECK(outcome(kWall, R"("from": [5, 25], "to": [5, 35])") == "blocked t=0.5 stop=(5,30) cell=[0,3]");
        // The rect's right side passes 50 from x = 46: t = 6 / 16.
        CHECK(outcome(kWall, R"("from": [40, 15], "to": [56, 15], )" + std::string(kBox8)) == "blocked t=0.375 stop=(46,15) cell=[5,1]");
    }
    SUBCASE("outside solid, circle body") {
        const MoveResult r = move(kWall, R"("from": [40, 15], "to": [56, 15], )" + std::string(kCircle4));
        REQUIRE_FALSE(r.allowed);
        CHECK(r.t == near_t(0.375));
        CHECK(r.stop.x == near_xy(46));
        CHECK(text(r.cell) == "[5,1]");
    }
    SUBCASE("y up: the row above written row 0 is row -1") {
        CHECK(outcome(kWall, R"("from": [5, 25], "to": [5, 35])", YAxis::Up) == "blocked t=0.5 stop=(5,30) cell=[0,-1]");
        CHECK(outcome(kWall, R"("from": [5, 5], "to": [5, -5])", YAxis::Up) == "blocked t=0.5 stop=(5,0) cell=[0,3]");
    }
    SUBCASE("outside empty: leaving is allowed") {
        CHECK(outcome(kWallOpen, R"("from": [45, 15], "to": [55, 15])") == "allowed");
        CHECK(outcome(kWallOpen, R"("from": [5, 15], "to": [-5, 15])") == "allowed");
        CHECK(outcome(kWallOpen, R"("from": [40, 15], "to": [56, 15], )" + std::string(kBox8)) == "allowed");
        CHECK(outcome(kWallOpen, R"("from": [40, 15], "to": [56, 15], )" + std::string(kCircle4)) == "allowed");
        CHECK(outcome(kWallOpen, R"("from": [45, 15], "to": [75, 15])") == "allowed");  // and beyond
    }
}

TEST_CASE("move: a body of zero width or height on a grid line beyond the border reaches the solid outside") {
    // Such a body meets no open cell there, yet as a shape it reaches beyond the grid's extent,
    // so it is blocked, in some outside cell (which one the spec leaves open: the line lies
    // between two of them).
    const char* one = R"("tile_size": 10, "rows": ["."])";  // extent [0, 10]^2
    const std::string upright = R"("body": {"type": "rect", "size": [0, 10]})";
    auto out_of_range = [](Cell c, std::int64_t cols, std::int64_t rows) {
        return c.col < 0 || c.col >= cols || c.row < 0 || c.row >= rows;
    };
    SUBCASE("as a shape") {
        CHECK(hit(rect(-10, 0, -10, 10), one) == "outside");
        CHECK(hit(rect(0, 0, 0, 10), one) == "none");  // on the border itself
    }
    SUBCASE("as a move's destination") {
        // [-10, -10] x [0, 10]: wholly beyond the extent, on the line x = -10.
        const MoveResult r = move(one, R"("from": [5, 5], "to": [-10, 5], "check": "destination", )" + upright);
        REQUIRE_FALSE(r.allowed);
        CHECK(r.t == 1);
        CHECK(out_of_range(r.cell, 1, 1));
    }
    SUBCASE("as a move's start") {
        const MoveResult r = move(one, R"("from": [-10, 5], "to": [-10, 8], )" + upright);
        REQUIRE_FALSE(r.allowed);
        CHECK(r.t == 0);
        CHECK(r.stop == Vec2{-10, 5});
        CHECK(out_of_range(r.cell, 1, 1));
    }
    SUBCASE("sliding along the line between two rows, out through the border") {
        // A blade [x - 5, x + 5] x {10} in a free 2 x 2 grid (extent [0, 20]^2) moves from x = 10
        // to x = 30; its right end passes the border x = 20 from x = 15: t = 5 / 20.
        const char* free2 = R"("tile_size": 10, "rows": ["..", ".."])";
        const std::string blade = R"("body": {"type": "rect", "size": [10, 0]})";
        // Its destination alone is blocked, so the path must be too.
        CHECK_FALSE(move(free2, R"("from": [10, 10], "to": [30, 10], "check": "destination", )" + blade).allowed);
        const MoveResult r = move(free2, R"("from": [10, 10], "to": [30, 10], )" + blade);
        REQUIRE_FALSE(r.allowed);
        CHECK(r.t == 0.25);
        CHECK(r.stop == Vec2{15, 10});
        CHECK(out_of_range(r.cell, 2, 2));
    }
}

TEST_CASE("move: when several cells are hit at once, the first in row-then-column order is reported") {
    SUBCASE("rect landing on a floor across three columns") {
        // Floor row 2 (y >= 20); the rect's bottom y + 4 passes 20 from y = 16: t = 12 / 16.
        CHECK(outcome(R"("tile_size": 10, "rows": ["...", "...", "###"])",
                      R"("from": [15, 4], "to": [15, 20], "body": {"type": "rect", "size": [12, 8]})") ==
              "blocked t=0.75 stop=(15,16) cell=[0,2]");
    }
    SUBCASE("rect meeting a wall across two rows") {
        // y in [4, 16] spans rows 0 and 1; the right side passes 20 from x = 16: t = 2 / 4.
        CHECK(outcome(R"("tile_size": 10, "rows": ["..#", "..#", "..."])",
                      R"("from": [14, 10], "to": [18, 10], "body": {"type": "rect", "size": [8, 12]})") ==
              "blocked t=0.5 stop=(16,10) cell=[2,0]");
    }
    SUBCASE("y up: the first row is the one written first, at the greater y") {
        // y in [14, 26] spans written rows 1 ([10, 20)) and 0 ([20, 30)), both solid in column 2.
        CHECK(outcome(R"("tile_size": 10, "rows": ["..#", "..#", "..."])",
                      R"("from": [14, 20], "to": [18, 20], "body": {"type": "rect", "size": [8, 12]})", YAxis::Up) ==
              "blocked t=0.5 stop=(16,20) cell=[2,0]");
    }
    SUBCASE("y up, circle: centred on the line between written rows 0 and 1") {
        // Centre y = 20 is the line between written row 0 ([20, 30)) and row 1 ([10, 20)); both
        // are solid in column 2 and the circle comes within 4 of x = 20 from x = 16: t = 2 / 4.
        const MoveResult r = move(R"("tile_size": 10, "rows": ["..#", "..#", "..."])",
                                  R"("from": [14, 20], "to": [18, 20], "body": {"type": "circle", "radius": 4})", YAxis::Up);
        REQUIRE_FALSE(r.allowed);
        CHECK(r.t == near_t(0.5));
        CHECK(text(r.cell) == "[2,0]");
    }
    SUBCASE("circle landing on the corner line between two floor cells") {
        // Centre on x = 20; it comes within 4 of the floor y = 20 from y = 16: t = 8 / 16.
        const MoveResult r = move(R"("tile_size": 10, "rows": ["...", "...", "###"])",
                                  R"("from": [20, 8], "to": [20, 24], "body": {"type": "circle", "radius": 4})");
        REQUIRE_FALSE(r.allowed);
        CHECK(r.t == near_t(0.5));
        CHECK(text(r.cell) == "[1,2]");
    }
}

TEST_CASE("move: t and stop are the exact values correctly rounded") {
    SUBCASE("point with fractional coordinates") {
        // x goes 2.5 -> 34.5 (32); it reaches 30 after 27.5: t = 55 / 64.
        CHECK(outcome(R"("tile_size": 10, "rows": ["...#"])", R"("from": [2.5, 5], "to": [34.5, 5])") ==
              "blocked t=0.859375 stop=(30,5) cell=[3,0]");
    }
    SUBCASE("point: stop is rounded from the exact t, not from the rounded t") {
        // With the doubles' exact values (Python fractions, F = Fraction):
        //   t = (30 - F(0.6)) / (F(33.0) - F(0.6)), float(t) = 0.9074074074074074;
        //   stop.y = float(F(2.5) + t (F(8.7) - F(2.5))) = 8.125925925925925, while
        //   2.5 + float(t) * (8.7 - 2.5) in doubles gives 8.125925925925927.
        CHECK(outcome(R"("tile_size": 10, "rows": ["...#"])", R"("from": [0.6, 2.5], "to": [33.0, 8.7])") ==
              "blocked t=0.9074074074074074 stop=(30,8.125925925925925) cell=[3,0]");
    }
    SUBCASE("point: t on an exact midpoint rounds to even; stop.x differs from from + round(t) (to - from)") {
        // Origin x o = 3 * 2^-54, tiles 1.5 wide: column 1 starts at the edge 1.5 + 3 * 2^-54
        // (not a double). The point moves (0, 0.25) -> (3, 0.75), so
        //   t = (1.5 + 3 * 2^-54) / 3 = 0.5 + 2^-54: exactly halfway between 0.5 and
        //   0.5 + 2^-53, and 0.5 has the even significand: t = 0.5 (the quotient of the rounded
        //   numerator, (1.5 + 2^-52) / 3, would give 0.5000000000000001);
        //   stop.x = the edge 1.5 + 0.75 * 2^-52, rounded up: 1.5000000000000002, while
        //   0 + 0.5 * 3 = 1.5;
        //   stop.y = 0.25 + t * 0.5 = 0.5 + 2^-55, rounded down: 0.5.
        const std::string grid = R"("tile_size": [1.5, 1], "origin": [)" + num(0x3p-54) + R"(, 0], "outside": "empty", "rows": [".#"])";
        CHECK(outcome(grid, R"("from": [0, 0.25], "to": [3, 0.75])") == "blocked t=0.5 stop=(1.5000000000000002,0.5) cell=[1,0]");
    }
    SUBCASE("rect moving diagonally into a corner cell") {
        // Only [2,2] ([20, 30)^2) is solid. The rect [-2, 2]^2 about (x, x) overlaps it once
        // x + 2 > 20 on both axes: x > 18, t = (18 - 2) / 32.
        CHECK(outcome(R"("tile_size": 10, "rows": ["...", "...", "..#"])",
                      R"("from": [2, 2], "to": [34, 34], "body": {"type": "rect", "size": [4, 4]})") ==
              "blocked t=0.5 stop=(18,18) cell=[2,2]");
    }
    SUBCASE("circle moving diagonally into a cell corner") {
        // The nearest point of [2,2] is its corner (20, 20); the centre (c, c) is within 5 of it
        // once sqrt(2) (20 - c) < 5: c > 20 - 5 / sqrt(2), t = (10 - 5 / sqrt(2)) / 10 = 1 - sqrt(2) / 4.
        // Python, decimal at 100 digits: t = 1 - Decimal(2).sqrt() / 4 = 0.64644660940672623779...,
        // float(Fraction(t)) = 0.6464466094067263; stop = 10 + 10 t = 16.4644660940672623779...,
        // rounded 16.464466094067262.
        CHECK(outcome(R"("tile_size": 10, "rows": ["...", "...", "..#"])",
                      R"("from": [10, 10], "to": [20, 20], "body": {"type": "circle", "radius": 5})") ==
              "blocked t=0.6464466094067263 stop=(16.464466094067262,16.464466094067262) cell=[2,2]");
    }
    SUBCASE("circle: corner times 1.3e-13 apart are ordered exactly, not taken as a tie") {
        // Radius 5.5, centre moving right at y = 15 + 2^-40 from x = 5 to 35. Cells [3,0] and
        // [3,2] have corners (30, 10) and (30, 20), at heights 5 + 2^-40 and 5 - 2^-40 from the
        // path: the centre comes within 5.5 of them at x = 30 - sqrt(5.5^2 - (5 -+ 2^-40)^2).
        // Python, decimal at 100 digits: t = (x - 5) / 30 = 0.75695707175080215... for [3,0],
        // 0.75695707175066984... for [3,2], which is hit first (row order would pick [3,0]);
        // its t rounds to 0.7569570717506698 and x to 27.708712152520096.
        const std::string y = num(15 + 0x1p-40);
        CHECK(outcome(R"("tile_size": 10, "outside": "empty", "rows": ["...#", "....", "...#"])",
                      R"("from": [5, )" + y + R"(], "to": [35, )" + y + R"(], "body": {"type": "circle", "radius": 5.5})") ==
              "blocked t=0.7569570717506698 stop=(27.708712152520096," + y + ") cell=[3,2]");
    }
    SUBCASE("circle: equal corner times are a tie, decided exactly: the first cell in row-then-column order") {
        // As above at y = 15: both corners are 5 from the path, both hit at x = 30 - sqrt(5.25),
        // t = (25 - sqrt(5.25)) / 30; Python, decimal at 100 digits: 0.75695707175073600...,
        // rounded 0.756957071750736, x = 27.708712152522080... rounded 27.70871215252208. Rows
        // as written: y down, [3,0] comes first; y up, lattice row 2 is written row 0.
        const char* grid = R"("tile_size": 10, "outside": "empty", "rows": ["...#", "....", "...#"])";
        const std::string fields = R"("from": [5, 15], "to": [35, 15], "body": {"type": "circle", "radius": 5.5})";
        CHECK(outcome(grid, fields) == "blocked t=0.756957071750736 stop=(27.70871215252208,15) cell=[3,0]");
        CHECK(outcome(grid, fields, YAxis::Up) == "blocked t=0.756957071750736 stop=(27.70871215252208,15) cell=[3,0]");
    }
    SUBCASE("decimal tiles: a point stops on the exact edge 4 * 0.1") {
        // Edge 4 is exactly the double 0.4, reached after 0.4 of the 0.5 travelled: t = 0.8.
        CHECK(outcome(R"("tile_size": 0.1, "rows": ["....#"])", R"("from": [0, 0.05], "to": [0.5, 0.05])") ==
              "blocked t=0.8 stop=(0.4,0.05) cell=[4,0]");
    }
    SUBCASE("decimal tiles: a point at x = 0.5 starts inside cell 4 of 0.1 tiles") {
        // Edge 5 is 0.50000000000000002776 > 0.5 (see the point lookup case).
        CHECK(outcome(R"("tile_size": 0.1, "rows": ["....#."])", R"("from": [0.5, 0.05], "to": [0.55, 0.05])") ==
              "blocked t=0 stop=(0.5,0.05) cell=[4,0]");
    }
}

namespace {

// A 6 x 6 grid with scattered walls, and moves from several starts in 24 directions.
const char* const kScatter = R"("tile_size": 10, "rows": ["#....#", "..#...", "....#.", ".#....", "...#..", "#....."])";

Move make_move(Vec2 from, Vec2 to, Body body, bool path) {
    Move m;
    m.from = from;
    m.to = to;
    m.body = body;
    m.check_path = path;
    return m;
}

std::string describe(const char* what, Vec2 from, Vec2 d, const Body& b) {
    return std::string(what) + " from (" + num(from.x) + "," + num(from.y) + ") by (" + num(d.x) + "," + num(d.y) +
           ") body " + std::to_string(static_cast<int>(b.kind)) + "; ";
}

}  // namespace

TEST_CASE("move: monotonicity") {
    const Scene s = scene(R"({"grids": [{"id": "g", )" + std::string(kScatter) + "}]}");
    const Grid& g = s.grids[0];
    Body circle;
    circle.kind = Body::Kind::Circle;
    circle.radius = 3;
    Body box;
    box.kind = Body::Kind::Rect;
    box.size = Vec2{6, 4};
    const std::vector<Body> bodies{Body{}, circle, box};
    const std::vector<Vec2> starts{{15, 15}, {35, 25}, {25, 45}, {52, 8}, {45, 55}, {12.5, 32.5}};
    std::vector<Vec2> steps;
    for (int dx = -2; dx <= 2; ++dx)
        for (int dy = -2; dy <= 2; ++dy)
            if (dx != 0 || dy != 0) steps.push_back(Vec2{4.5 * dx, 4.5 * dy});

    SUBCASE("a path move is blocked whenever its destination is blocked") {
        std::string failures;
        int destinations_blocked = 0;
        for (const Body& b : bodies)
            for (Vec2 from : starts)
                for (Vec2 d : steps)
                    for (double k : {1.0, 2.0, 4.0}) {
                        const Vec2 to{from.x + k * d.x, from.y + k * d.y};
                        if (collide::detail::run_move(make_move(from, to, b, false), g).allowed) continue;
                        ++destinations_blocked;
                        if (collide::detail::run_move(make_move(from, to, b, true), g).allowed)
                            failures += describe("path allowed, destination blocked", from, Vec2{k * d.x, k * d.y}, b);
                    }
        CHECK(failures == "");
        CHECK(destinations_blocked > 100);  // the property was exercised
    }
    SUBCASE("a longer move in the same direction is never blocked later in distance") {
        std::string failures;
        int shorter_blocked = 0;
        for (const Body& b : bodies)
            for (Vec2 from : starts)
                for (Vec2 d : steps) {
                    const MoveResult shorter = collide::detail::run_move(make_move(from, Vec2{from.x + d.x, from.y + d.y}, b, true), g);
                    if (shorter.allowed) continue;
                    ++shorter_blocked;
                    // Slack: 1e-9 for a circle's t; for the others only the roundings of t and t * 3.
                    const double tol = b.kind == Body::Kind::Circle ? 1e-9 : 1e-15;
                    for (double k : {2.0, 3.0, 4.0}) {
                        const MoveResult longer =
                            collide::detail::run_move(make_move(from, Vec2{from.x + k * d.x, from.y + k * d.y}, b, true), g);
                        // Distances in units of |d|: the shorter stops at t, the longer at k t'.
                        if (longer.allowed || longer.t * k > shorter.t + tol)
                            failures += describe(longer.allowed ? "longer allowed" : "longer stops later", from, Vec2{k * d.x, k * d.y}, b);
                    }
                }
        CHECK(failures == "");
        CHECK(shorter_blocked > 50);
    }
}

// ---- rules that select grids -----------------------------------------------------------------

TEST_CASE("grid rules: expect none, some and each through check()") {
    // maze is 4 x 3 ([0, 40] x [0, 30]) with the one wall [3,1] = [30, 40) x [10, 20).
    // hero is tangent to the wall; ghost lies inside it; lamp sits on its min corner; comet
    // leaves the grid through free cells. Indices: hero 0, ghost 1, lamp 2, comet 3, maze 4.
    const Scene s = scene(R"({
      "shapes": [
        {"id": "hero", "type": "circle", "center": [25, 15], "radius": 5, "groups": ["actors"]},
        {"id": "ghost", "type": "rect", "min": [32, 12], "max": [38, 18], "groups": ["actors"]},
        {"id": "lamp", "type": "point", "at": [30, 10], "groups": ["props"]},
        {"id": "comet", "type": "segment", "a": [35, 25], "b": [45, 25]}
      ],
      "grids": [{"id": "maze", "tile_size": 10, "rows": ["....", "...#", "...."], "groups": ["walls"]}],
      "moves": [{"id": "dash", "grid": "maze", "from": [5, 15], "to": [45, 15], "expect": "allowed"}],
      "pairs": ["*:walls"],
      "rules": [
        {"name": "actors stay clear", "pairs": "actors:walls", "expect": "none"},
        {"name": "the flush hero is clear", "pairs": "hero:maze", "expect": "none"},
        {"name": "something is in a wall", "pairs": "*:maze", "expect": "some"},
        {"name": "every actor is in a wall", "pairs": "actors:walls", "expect": "each"},
        {"name": "every prop is in a wall", "pairs": "props:walls", "expect": "each"},
        {"name": "the ghost overlaps, it does not touch", "pairs": "ghost:maze", "expect": "some", "touching": "ignored"}
      ]})");
    using Violations = std::vector<std::pair<std::size_t, std::size_t>>;
    const std::size_t maze = 4;
    const std::size_t npos = static_cast<std::size_t>(-1);

    SUBCASE("rules") {
        const auto res = collide::check(s, CheckOptions{});
        REQUIRE(res.rules.size() == 6);
        CHECK_FALSE(res.rules[0].passed);
        CHECK(res.rules[0].violations == Violations{{1, maze}});
        CHECK(res.rules[1].passed);
        CHECK(res.rules[2].passed);
        CHECK(res.rules[2].violations.empty());
        CHECK_FALSE(res.rules[3].passed);
        CHECK(res.rules[3].violations == Violations{{0, npos}});
        CHECK(res.rules[4].passed);
        CHECK(res.rules[5].passed);
    }
    SUBCASE("collision records: relation overlap, cells, outside") {
        const auto res = collide::check(s, CheckOptions{});
        REQUIRE(res.collisions.size() == 3);
        const auto& ghost = res.collisions[0];
        CHECK(ghost.a == 1);
        CHECK(ghost.b == maze);
        CHECK(ghost.relation == Relation::Overlap);
        CHECK(ghost.cells == std::vector<Cell>{{3, 1}});
        CHECK_FALSE(ghost.outside);
        CHECK(res.collisions[1].a == 2);
        CHECK(res.collisions[1].relation == Relation::Overlap);
        CHECK(res.collisions[1].cells == std::vector<Cell>{{3, 1}});
        const auto& comet = res.collisions[2];
        CHECK(comet.a == 3);
        CHECK(comet.relation == Relation::Overlap);
        CHECK(comet.cells.empty());
        CHECK(comet.outside);
    }
    SUBCASE("--no-touch keeps grid collisions: they are never touches") {
        CheckOptions o;
        o.no_touch = true;
        const auto res = collide::check(s, o);
        CHECK(res.collisions.size() == 3);
        CHECK(res.summary.collisions == 3);
    }
    SUBCASE("a grid on the left of a pair spec is still b") {
        CheckOptions o;
        o.pairs = std::vector<collide::PairSpec>{collide::parse_pair_spec("maze:ghost")};
        const auto res = collide::check(s, o);
        REQUIRE(res.collisions.size() == 1);
        CHECK(res.collisions[0].a == 1);
        CHECK(res.collisions[0].b == maze);
    }
    SUBCASE("a move's expect is checked like a rule") {
        // The point reaches the wall's min edge x = 30 at t = 25 / 40.
        const auto res = collide::check(s, CheckOptions{});
        REQUIRE(res.moves.size() == 1);
        CHECK(text(res.moves[0]) == "blocked t=0.625 stop=(30,15) cell=[3,1]");
        CHECK(res.moves[0].passed == false);
        CHECK(res.summary.blocked == 1);
        CHECK(res.summary.rules_failed == 3);  // two rules and the move
    }
}

// ---- extreme inputs (fuzz_grid findings, tests/fuzz/regressions/fuzz_grid/) -----------------

namespace {

constexpr double kMin = 0x1p-1074;  // the smallest subnormal
constexpr double kMax = 0x1.fffffffffffffp+1023;

// A grid's fields with an exact origin and tile.
std::string lattice(Vec2 origin, Vec2 tile, bool outside_solid, const std::string& rows) {
    return R"("origin": [)" + num(origin.x) + ", " + num(origin.y) + R"(], "tile_size": [)" + num(tile.x) + ", " +
           num(tile.y) + R"(], "outside": ")" + (outside_solid ? "solid" : "empty") + R"(", "rows": )" + rows;
}
std::string path(Vec2 from, Vec2 to) {
    return R"("from": [)" + num(from.x) + ", " + num(from.y) + R"(], "to": [)" + num(to.x) + ", " + num(to.y) + "]";
}
std::string rect_body(double w, double h) { return R"(, "body": {"type": "rect", "size": [)" + num(w) + ", " + num(h) + "]}"; }
std::string circle_body(double r) { return R"(, "body": {"type": "circle", "radius": )" + num(r) + "}"; }
const char* const kDestination = R"(, "check": "destination")";

}  // namespace

TEST_CASE("grid: no hangs, whatever the body's size or the distance in cells") {
    SUBCASE("a circle at y = 1e15 on a 1e-9 tile covers the whole grid (regression: floor_index walked ~10^7 cells)") {
        // Grid x in [1, 1 + 4e-9], y from 1e15 up 1e-9; the disk of radius 0.7 centred 1.75e-9
        // left of the grid's left edge, on its bottom edge, holds every cell.
        const std::string g = lattice({1, 1e15}, {1e-9, 1e-9}, false, R"([".###"])");
        CHECK(hit(circle(0x1.fffffff0f7b59p-1, 1e15, 0.7), g) == "[1,0] [2,0] [3,0]");
    }
    SUBCASE("a circle of radius 1e300 on a free grid whose outside is empty (regression: scanned every cell under it)") {
        const std::string g = lattice({1e-300, 0}, {1, 1}, false, R"(["."])");
        CHECK(outcome(g, path({-3, 4}, {-3, 4}) + circle_body(1e300), YAxis::Up) == "allowed");
        CHECK(outcome(g, path({-3, 4}, {5, 4}) + circle_body(1e300), YAxis::Up) == "allowed");
        CHECK(outcome(g, path({-3, 4}, {5, 4}) + rect_body(1, 1e300), YAxis::Up) == "allowed");
    }
    SUBCASE("with a solid outside, such a body is blocked in the first outside cell in row-then-column order") {
        // A 1 x 1e300 rect at x = 0.5: its extent covers rows from about -5e299 up; the first row
        // written (y down) is the lowest, and the body's column is 0.
        const MoveResult r = move(lattice({0, 0}, {1, 1}, true, R"(["."])"), path({0.5, 0.5}, {0.5, 0.5}) + rect_body(0.5, 1e300));
        REQUIRE_FALSE(r.allowed);
        CHECK(r.cell.col == 0);
        CHECK(r.cell.row < -1000000);
    }
}

TEST_CASE("grid: straight pieces with huge coordinates or tiny directions") {
    SUBCASE("a near-vertical line from y = 1e300 passes just left of x = 1 in the grid's row") {
        // Through (1, 1e15 - 3) and (-5e-324, 1e300): x < 1 at every y > 1e15 - 3, and x > 0 in
        // the row y in (1e15, 1e15 + 1), so it passes through the open cell [0,0] and no other.
        const std::string g = lattice({0, 1e15}, {1, 1}, false, R"(["#.##"])");
        CHECK(hit(R"("type": "line", "a": [)" + num(-kMin) + ", 1e300], \"b\": [1, 999999999999997]", g) == "[0,0]");
    }
    SUBCASE("a segment reaching y = DBL_MAX passes just left of x = 70 through cell [9,0]") {
        // From (70, 2^52 - 21) up and to the left to (-21, DBL_MAX): in the row y in
        // [2^52, 2^52 + 7] it lies about 1e-305 left of x = 70, inside column 9 = [63, 70).
        const std::string g = lattice({0, 0x1p52}, {7, 7}, false, R"([".........#."])");
        CHECK(hit(segment(-21, kMax, 70, 0x1.fffffffffffd6p+51), g) == "[9,0]");
    }
    SUBCASE("a line between huge points does not throw; it misses the grid by ~1e308") {
        // Through (-5e-324, -DBL_MAX) and (-DBL_MAX, 1e300): slope about -1, so at y = 1e15 it lies
        // near x = -1.8e308.
        const std::string g = lattice({0, 1e15}, {1, 1}, false, R"(["#.##"])");
        CHECK(hit(R"("type": "line", "a": [)" + num(-kMin) + ", " + num(-kMax) + R"(], "b": [)" + num(-kMax) + ", 1e300]", g) ==
              "none");
    }
    SUBCASE("a vertical line given by a subnormal direction does not throw") {
        // x = 0.925 lies in column 4 = [-0.3 + 4 * 0.25, -0.3 + 5 * 0.25), which is free; the
        // line leaves the grid, whose outside is solid.
        const std::string g = lattice({-0.3, 0}, {0.25, 0.25}, true, R"(["#.#..#"])");
        CHECK(hit(R"("type": "line", "a": [0.925, )" + num(-kMin) + R"(], "b": [0.925, 0])", g) == "outside");
    }
    SUBCASE("a zero-width rect on a grid at y = 2^52 with 0.1 tiles crosses all four rows") {
        // Rows start at the exact 2^52 + 0.1 k (not doubles: the spacing there is 1); the
        // segment x = 0.4999999997 (column 1 = [0.25, 0.5)) spans y in [2^52, 2^52 + 1], the whole
        // grid and beyond it.
        const std::string g = lattice({0, 0x1p52}, {0.25, 0.1}, true, R"([".#.#", ".#.#", ".#.#", ".#.#"])");
        CHECK(hit(rect(0x1.fffffffbb47dp-2, 0x1p52, 0x1.fffffffbb47dp-2, 0x1.0000000000001p+52), g) ==
              "[1,0] [1,1] [1,2] [1,3] outside");
    }
}

TEST_CASE("move: body sizes and positions at the limits of doubles") {
    SUBCASE("a rect of width 5e-324 on the line between two solid cells enters both (its half width is not rounded to 0)") {
        // At x = 1.5, the edge between columns 1 = [1.25, 1.5) and 2 = [1.5, 1.75); the body's
        // extent [1.5 - 2^-1075, 1.5 + 2^-1075] enters both open cells; y in [-0.0625, 0.0625]
        // enters row 0 = (0, 0.25).
        const std::string g = lattice({1, 0}, {0.25, 0.25}, false, R"(["###"])");
        CHECK(outcome(g, path({1.5, 0}, {1.5, 0}) + rect_body(kMin, 0.125) + kDestination, YAxis::Up) ==
              "blocked t=1 stop=(1.5,0) cell=[1,0]");
        CHECK(outcome(g, path({1.5, 0}, {0.5, 0}) + rect_body(kMin, 0.125), YAxis::Up) == "blocked t=0 stop=(1.5,0) cell=[1,0]");
        // One cell further left it is wholly inside free space beyond the grid.
        CHECK(outcome(g, path({1.5, 0}, {0.5, 0}) + rect_body(kMin, 0.125) + kDestination, YAxis::Up) == "allowed");
    }
    SUBCASE("a path from x = 1e18 on 20-unit tiles meets the wall its destination is in") {
        // The rect [x - 5, x + 5] enters column 10 = [200, 220) once x < 225, at
        // t = (1e18 - 225) / (1e18 - 220), which rounds to 1; the stop is computed from the exact
        // t, x = 225, not from the rounded one (which would give the destination 220).
        const std::string g = lattice({0, -1}, {20, 20}, false, R"(["..###.##.##"])");
        CHECK(outcome(g, path({1e18, 1e-15}, {220, 1e-15}) + rect_body(10, 10) + kDestination) ==
              "blocked t=1 stop=(220,1e-15) cell=[10,0]");
        CHECK(outcome(g, path({1e18, 1e-15}, {220, 1e-15}) + rect_body(10, 10)) == "blocked t=1 stop=(225,1e-15) cell=[10,0]");
        // Stopping short of the wall: the body ends at x in [225, 235], flush with it.
        CHECK(outcome(g, path({1e18, 1e-15}, {230, 1e-15}) + rect_body(10, 10)) == "allowed");
    }
    SUBCASE("a body wholly beyond the clamped index range, ending on the edge -2^52, is in the solid outside") {
        // Origin x = 2^52 on 1-unit tiles: x = 0 is the edge of column -2^52, the lowest index
        // kept (README: indices are clamped to +-2^52). Bodies centred at x = -8 span x in
        // [-16, 0]: columns -2^52 - 16 to -2^52 - 1, clamped to -2^52, which stands for them.
        // Regression (fuzz_grid): the clamp left the extent no column, so nothing was hit.
        const std::string solid = lattice({0x1p52, 0}, {1, 1}, true, R"(["."])");
        // y in [-7.5, 8.5]: the first row written (y down) is the lowest, -8.
        const std::string cell = "cell=[-4503599627370496,-8]";
        CHECK(outcome(solid, path({-8, 0.5}, {-8, 0.5}) + circle_body(8) + kDestination) == "blocked t=1 stop=(-8,0.5) " + cell);
        CHECK(outcome(solid, path({-8, 0.5}, {0x1p52, 16}) + circle_body(8)) == "blocked t=0 stop=(-8,0.5) " + cell);
        CHECK(outcome(solid, path({-8, 0.5}, {-8, 0.5}) + rect_body(16, 16) + kDestination) == "blocked t=1 stop=(-8,0.5) " + cell);
        // With an empty outside those cells are free.
        const std::string open = lattice({0x1p52, 0}, {1, 1}, false, R"(["."])");
        CHECK(outcome(open, path({-8, 0.5}, {-8, 0.5}) + circle_body(8) + kDestination) == "allowed");
    }
    SUBCASE("a move whose to - from overflows does not throw") {
        // From (DBL_MAX, -4) to (-1e300, 5): over the grid's x in [0, 4] the path is at
        // y = 5 - 9e300 / (DBL_MAX + 1e300) - ..., about 5 - 5e-8, above the grid's top y = 4.
        const std::string g = lattice({0, 0}, {1, 1}, false, R"(["####", "..#.", "....", "####"])");
        CHECK(outcome(g, path({kMax, -4}, {-1e300, 5}), YAxis::Up) == "allowed");
        // Through the grid instead: from (DBL_MAX, 2.5) to (-1e300, 2.5) crosses written row 1
        // (y in [2, 3)) and meets its wall [2, 3) at x = 3, t = (DBL_MAX - 3) / (DBL_MAX + 1e300).
        const MoveResult r = move(g, path({kMax, 2.5}, {-1e300, 2.5}), YAxis::Up);
        REQUIRE_FALSE(r.allowed);
        CHECK(text(r.cell) == "[2,1]");
        // Python: float(Fraction(DBL_MAX - 3) / (Fraction(DBL_MAX) + Fraction(1e300))).
        CHECK(r.t == 0.9999999944373154);
        // stop.x = DBL_MAX + t (-1e300 - DBL_MAX) = 3 exactly for the exact t (from the
        // rounded t it would be off by up to t's rounding times 2e308).
        CHECK(r.stop.x == 3);
        CHECK(r.stop.y == 2.5);
    }
}

TEST_CASE("move: circle bodies against corners that are not doubles") {
    SUBCASE("a circle sliding down onto a corner at 1e-300 + 1 (not a double) is blocked on its path too") {
        // The cell is [1e-300, 1 + 1e-300]^2. The centre moves down x = 1e-300 - 2^-1049 (a hair
        // left of the corner's x) and comes within 3 of the corner (1e-300, 1 + 1e-300) just
        // before y = 4 + 1e-300: the destination y = 4 is blocked, and the path at t ~ 1.
        const std::string g = lattice({1e-300, 1e-300}, {1, 1}, false, R"(["#"])");
        const double x = 0x1.56e1fc2f8f358p-997;
        CHECK(outcome(g, path({x, 15}, {x, 4}) + circle_body(3) + kDestination) == "blocked t=1 stop=(" + num(x) + ",4) cell=[0,0]");
        const MoveResult r = move(g, path({x, 15}, {x, 4}) + circle_body(3));
        REQUIRE_FALSE(r.allowed);
        CHECK(text(r.cell) == "[0,0]");
        CHECK(r.t == near_t(1));
    }
    SUBCASE("subnormal tiles and radius: a circle touching a corner at from is blocked at t = 0 on both cells' corner") {
        // Tiles of 2^-1074, radius 3 tiles, centre (3, -3) tiles moving up to (3, 2): at from it
        // is exactly 3 from the corner (3, 0) that columns 2 and 3 share (a touch), and nearer
        // at once after; column 2 comes first.
        const std::string g = lattice({0, 0}, {kMin, kMin}, false, R"(["#.#####.#."])");
        CHECK(outcome(g, path({3 * kMin, -3 * kMin}, {3 * kMin, 2 * kMin}) + circle_body(3 * kMin), YAxis::Up) ==
              "blocked t=0 stop=(" + num(3 * kMin) + "," + num(-3 * kMin) + ") cell=[2,0]");
    }
    SUBCASE("a circle whose centre is ~6e322 tiles away meets no cell of a one-cell grid") {
        // Cell [0, 2^-1074]^2; the disk at (0.3, 0.3) of radius 0.3 stays 0.3 (sqrt 2 - 1) away.
        const std::string g = lattice({0, 0}, {kMin, kMin}, false, R"(["#"])");
        const double c = 0.30000000000000004;
        CHECK(outcome(g, path({c, c}, {c, c}) + circle_body(c) + kDestination) == "allowed");
    }
}

TEST_CASE("move: a zero-width body reaching the solid outside along a grid line is blocked in an outside cell it reaches") {
    // The cell is the floor-rule cell of an end of the body that lies beyond the border (the
    // first in row-then-column order when both ends do).
    SUBCASE("sticking out of the top of a one-row grid between two free cells") {
        // x = 7 is the line between columns 3 and 4 (origin 3); y in [0.75, 1.25] passes the
        // border y = 1 (y down: row 1 is the first row beyond it). The upper end's cell is [4,1].
        const std::string g = lattice({3, 0}, {1, 1}, true, R"(["###......#"])");
        CHECK(outcome(g, path({7, -2}, {7, 1.0000000000000002}) + rect_body(0, 0.5) + kDestination) ==
              "blocked t=1 stop=(7,1.0000000000000002) cell=[4,1]");
        // At from, y in [-2.25, -1.75], both ends are beyond: rows -3 and -2, -3 first.
        CHECK(outcome(g, path({7, -2}, {7, 1.0000000000000002}) + rect_body(0, 0.5)) == "blocked t=0 stop=(7,-2) cell=[4,-3]");
    }
    SUBCASE("lying on the grid's left border line, reaching above it (y up)") {
        // x = 0, y in [0, 1] on a one-cell grid [0, 0.25]^2: the upper end (0, 1) is in lattice
        // row 4, written row 1 - 1 - 4 = -4; its column by the floor rule is 0, although the
        // body enters no cell of column 0.
        const std::string g = lattice({0, 0}, {0.25, 0.25}, true, R"(["#"])");
        CHECK(outcome(g, path({-0.75, 0.5}, {0, 0.5}) + rect_body(0, 1) + kDestination, YAxis::Up) ==
              "blocked t=1 stop=(0,0.5) cell=[0,-4]");
    }
}
