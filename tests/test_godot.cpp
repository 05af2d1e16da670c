// Godot 4 scenes as collide scenes (SPEC §1.6), through collide::import_map and the scene text
// it prints: transforms, each shape class with Godot's defaults, groups and pairs, instanced
// scenes with overrides, tile data in both formats with flips, and the errors.
#include "maps/godot_tiles.hpp"

#include "collide/error.hpp"
#include "collide/maps.hpp"
#include "map_data.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <string>
#include <tuple>

using collide::MapFormat;
using json = nlohmann::json;
using Files = std::map<std::string, std::string>;

namespace {

collide::FileLoader loader(const Files& files) {
    return [&files](const std::string& path) -> std::string {
        const auto it = files.find(path);
        if (it == files.end()) throw collide::Error(path, "", "cannot open: No such file or directory");
        return it->second;
    };
}

// The collide scene `text` (a .tscn at game/levels/level.tscn, project.godot at game/)
// becomes, as JSON; `files` are the other files it may name.
json import(const std::string& text, Files files = {}) {
    files.emplace("game/project.godot", "config_version=5\n");
    const auto maps = collide::import_map("game/levels/level.tscn", text, MapFormat::Godot, loader(files));
    REQUIRE(maps.size() == 1);
    return json::parse(collide::scene_text(maps[0]));
}

std::string import_error(const std::string& text, Files files = {}, const std::string& name = "game/levels/level.tscn") {
    files.emplace("game/project.godot", "config_version=5\n");
    try {
        collide::import_map(name, text, MapFormat::Godot, loader(files));
    } catch (const collide::Error& e) {
        return e.what();
    }
    return "(no error)";
}

const std::string kHead = "[gd_scene format=3]\n\n";

// A scene whose root `Level` holds one StaticBody2D `Body` (its own lines `body`) with one
// CollisionShape2D `Shape` (lines `shape`) of the sub-resource `resource`.
std::string one_body(const std::string& resource, const std::string& body = "", const std::string& shape = "") {
    return kHead + "[sub_resource type=\"" + resource + "\" id=\"s\"]\n" + "\n[node name=\"Level\" type=\"Node2D\"]\n" +
           "\n[node name=\"Body\" type=\"StaticBody2D\" parent=\".\"]\n" + body + "\n[node name=\"Shape\" type=\"CollisionShape2D\" parent=\"Body\"]\n" +
           "shape = SubResource(\"s\")\n" + shape;
}

// The resource's properties go right after its header line.
std::string with_props(const std::string& resource, const std::string& props, const std::string& body = "", const std::string& shape = "") {
    std::string text = one_body(resource, body, shape);
    const std::string header = "[sub_resource type=\"" + resource + "\" id=\"s\"]\n";
    return text.insert(text.find(header) + header.size(), props);
}

const json& shape0(const json& scene) { return scene.at("shapes").at(0); }

}  // namespace

TEST_CASE("godot: each shape class with Godot's defaults, where the scene does not write them") {
    json s = shape0(import(one_body("RectangleShape2D")));
    CHECK(s["id"] == "Level/Body");
    CHECK(s["type"] == "rect");
    CHECK(s["min"] == json::array({-10, -10}));
    CHECK(s["max"] == json::array({10, 10}));
    CHECK(s["groups"] == json::array({"StaticBody2D", "Body", "layer-1", "mask-1"}));
    s = shape0(import(one_body("CircleShape2D")));
    CHECK(s["type"] == "circle");
    CHECK(s["radius"] == 10);
    s = shape0(import(one_body("CapsuleShape2D")));  // radius 10, height 30 (the whole length)
    CHECK(s["type"] == "capsule");
    CHECK(s["a"] == json::array({0, -5}));
    CHECK(s["b"] == json::array({0, 5}));
    CHECK(s["radius"] == 10);
    s = shape0(import(one_body("SegmentShape2D")));
    CHECK(s["type"] == "segment");
    CHECK(s["b"] == json::array({0, 10}));
    s = shape0(import(one_body("SeparationRayShape2D")));
    CHECK(s["b"] == json::array({0, 20}));
    s = shape0(import(one_body("WorldBoundaryShape2D")));  // normal (0, -1), distance 0: the x axis
    CHECK(s["type"] == "line");
    CHECK(s["a"] == json::array({0, 0}));
    CHECK(s["b"] == json::array({1, 0}));
    CHECK(s["groups"].back() == "world-boundary");
    s = shape0(import(with_props("ConcavePolygonShape2D", "segments = PackedVector2Array(0, 0, 4, 0, 4, 0, 4, 4)\n")));
    CHECK(s["type"] == "compound");
    CHECK(s["parts"].size() == 2);
    CHECK(s["parts"][1] == json({{"type", "segment"}, {"a", {4, 0}}, {"b", {4, 4}}}));
}

TEST_CASE("godot: a capsule's radius and height clamp each other in the order written") {
    // radius 20 after the default height 30: height becomes 40, the capsule a circle.
    json s = shape0(import(with_props("CapsuleShape2D", "radius = 20.0\n")));
    CHECK(s["a"] == s["b"]);
    CHECK(s["radius"] == 20);
    // height 10 after the default radius 10: radius becomes 5.
    s = shape0(import(with_props("CapsuleShape2D", "height = 10.0\n")));
    CHECK(s["radius"] == 5);
    CHECK(s["a"] == json::array({0, 0}));
    // height 10 then radius 20: the height grows to 40 again.
    s = shape0(import(with_props("CapsuleShape2D", "height = 10.0\nradius = 20.0\n")));
    CHECK(s["radius"] == 20);
    CHECK(s["a"] == json::array({0, 0}));
    s = shape0(import(with_props("CapsuleShape2D", "radius = 4.0\nheight = 28.0\n")));
    CHECK(s["a"] == json::array({0, -10}));
}

TEST_CASE("godot: transforms compose as Transform2D: rotation, scale, skew, nesting, broken chains") {
    // Position and scale: a rect stays a rect.
    json s = shape0(import(one_body("RectangleShape2D", "position = Vector2(100, 50)\n", "scale = Vector2(2, 0.5)\n")));
    CHECK(s["min"] == json::array({80, 45}));
    CHECK(s["max"] == json::array({120, 55}));
    // A quarter turn: the corners of a polygon, each M applied as Godot's xform.
    s = shape0(import(one_body("RectangleShape2D", "rotation = 1.5707963267948966\n")));
    CHECK(s["type"] == "polygon");
    const double c = std::cos(1.5707963267948966), sn = std::sin(1.5707963267948966);
    CHECK(s["points"][0][0].get<double>() == c * -10 + -sn * -10);
    CHECK(s["points"][0][1].get<double>() == sn * -10 + c * -10);
    // A mirror makes a polygon too; a circle under it stays a circle.
    CHECK(shape0(import(one_body("RectangleShape2D", "scale = Vector2(-1, 1)\n")))["type"] == "polygon");
    CHECK(shape0(import(one_body("CircleShape2D", "scale = Vector2(-3, 3)\n")))["radius"] == 30);
    // Skew: y axis = (-sin(rotation + skew), cos(rotation + skew)) * scale.y.
    s = shape0(import(one_body("SegmentShape2D", "skew = 0.5\n")));
    CHECK(s["b"][0].get<double>() == -std::sin(0.5) * 10);
    CHECK(s["b"][1].get<double>() == std::cos(0.5) * 10);
    // A non-uniform scale makes a circle an ellipse: radii r times the singular values.
    s = shape0(import(one_body("CircleShape2D", "scale = Vector2(2, 1)\n")));
    CHECK(s["type"] == "ellipse");
    CHECK(s["radii"] == json::array({20, 10}));
    CHECK(s["angle"] == 0);
    CHECK(import_error(one_body("CapsuleShape2D", "scale = Vector2(2, 1)\n")) ==
          "game/levels/level.tscn:10:1: node 'Level/Body/Shape': a capsule under a non-uniform scale or skew");
    // Nested: global = parent x local; the root's own transform is not applied.
    const std::string nested = kHead + "[sub_resource type=\"SegmentShape2D\" id=\"s\"]\n" +
                               "[node name=\"Level\" type=\"Node2D\"]\nposition = Vector2(1000, 1000)\n" +
                               "[node name=\"Room\" type=\"Node2D\" parent=\".\"]\nposition = Vector2(10, 0)\nscale = Vector2(2, 2)\n" +
                               "[node name=\"Body\" type=\"StaticBody2D\" parent=\"Room\"]\nposition = Vector2(5, 0)\n" +
                               "[node name=\"Shape\" type=\"CollisionShape2D\" parent=\"Room/Body\"]\nshape = SubResource(\"s\")\n" +
                               "[node name=\"Layer\" type=\"CanvasLayer\" parent=\".\"]\noffset = Vector2(7, 7)\n" +
                               "[node name=\"Body\" type=\"Area2D\" parent=\"Layer\"]\nposition = Vector2(3, 0)\n" +
                               "[node name=\"Shape\" type=\"CollisionShape2D\" parent=\"Layer/Body\"]\nshape = SubResource(\"s\")\n" +
                               "[node name=\"Top\" type=\"Area2D\" parent=\"Room\"]\ntop_level = true\n" +
                               "[node name=\"Shape\" type=\"CollisionShape2D\" parent=\"Room/Top\"]\nshape = SubResource(\"s\")\n";
    const json scene = import(nested);
    CHECK(scene["shapes"][0]["id"] == "Level/Room/Body");
    CHECK(scene["shapes"][0]["a"] == json::array({20, 0}));  // (10, 0) + 2 * (5, 0)
    CHECK(scene["shapes"][0]["b"] == json::array({20, 20}));
    CHECK(scene["shapes"][1]["id"] == "Level/Layer/Body");  // the chain stops at the CanvasLayer
    CHECK(scene["shapes"][1]["a"] == json::array({3, 0}));
    CHECK(scene["shapes"][2]["a"] == json::array({0, 0}));  // top_level: its own transform only
}

TEST_CASE("godot: groups, layers and masks, and the pairs Godot lets meet") {
    const std::string text = kHead + "[sub_resource type=\"CircleShape2D\" id=\"c\"]\n" + "[node name=\"Level\" type=\"Node2D\"]\n" +
                             "[node name=\"Coin\" type=\"Area2D\" parent=\".\" groups=[\"pickups\"]]\ncollision_layer = 4\ncollision_mask = 0\n" +
                             "[node name=\"S\" type=\"CollisionShape2D\" parent=\"Coin\"]\nshape = SubResource(\"c\")\n" +
                             "[node name=\"Player\" type=\"CharacterBody2D\" parent=\".\"]\ncollision_mask = 6\n" +
                             "[node name=\"S\" type=\"CollisionShape2D\" parent=\"Player\"]\nshape = SubResource(\"c\")\n" +
                             "[node name=\"Off\" type=\"CollisionShape2D\" parent=\"Player\"]\nshape = SubResource(\"c\")\ndisabled = true\n" +
                             "[node name=\"Lost\" type=\"CollisionShape2D\" parent=\".\"]\nshape = SubResource(\"c\")\n";
    Files files{{"game/project.godot", ""}};
    const auto maps = collide::import_map("game/levels/level.tscn", text, MapFormat::Godot, loader(files));
    const json scene = json::parse(collide::scene_text(maps[0]));
    CHECK(scene["shapes"][0]["groups"] == json::array({"pickups", "Area2D", "Coin", "layer-3"}));
    CHECK(scene["shapes"][1]["groups"] == json::array({"CharacterBody2D", "Player", "layer-1", "mask-2", "mask-3"}));
    CHECK(scene["shapes"][1]["type"] == "circle");  // the disabled shape is left out
    CHECK(scene["pairs"] == json::array({"mask-3:layer-3"}));  // mask 2 meets no layer, layer 1 no mask
    REQUIRE(maps[0].warnings.size() == 1);
    CHECK(maps[0].warnings[0] ==
          "game/levels/level.tscn: node 'Level/Lost': a CollisionShape2D whose parent is not a collision object, skipped (Godot ignores it)");
}

TEST_CASE("godot: one-way shapes form a shape of their own") {
    const std::string text = kHead + "[sub_resource type=\"RectangleShape2D\" id=\"r\"]\n" + "[node name=\"Level\" type=\"Node2D\"]\n" +
                             "[node name=\"Platform\" type=\"StaticBody2D\" parent=\".\"]\n" +
                             "[node name=\"S\" type=\"CollisionShape2D\" parent=\"Platform\"]\nshape = SubResource(\"r\")\none_way_collision = true\n";
    const json scene = import(text);
    REQUIRE(scene["shapes"].size() == 1);  // no `Level/Platform` without other shapes
    CHECK(scene["shapes"][0]["id"] == "Level/Platform#one-way");
    CHECK(scene["shapes"][0]["groups"].back() == "one-way");
}

TEST_CASE("godot: instanced scenes expand with their overrides, groups and editable children") {
    Files files{{"game/actors/coin.tscn", kHead + "[ext_resource type=\"Script\" path=\"res://coin.gd\" id=\"1\"]\n" +
                                              "[sub_resource type=\"CircleShape2D\" id=\"c\"]\nradius = 4.0\n" +
                                              "[node name=\"Coin\" type=\"Area2D\" groups=[\"pickups\"]]\nposition = Vector2(1, 1)\n" +
                                              "[node name=\"Shape\" type=\"CollisionShape2D\" parent=\".\"]\nshape = SubResource(\"c\")\n"}};
    const std::string level = kHead + "[ext_resource type=\"PackedScene\" path=\"res://actors/coin.tscn\" id=\"coin\"]\n" +
                              "[sub_resource type=\"CircleShape2D\" id=\"big\"]\nradius = 9.0\n" +
                              "[node name=\"Level\" type=\"Node2D\"]\n" +
                              "[node name=\"Gold\" parent=\".\" instance=ExtResource(\"coin\") groups=[\"gold\"]]\nposition = Vector2(50, 0)\n" +
                              "[node name=\"Silver\" parent=\".\" instance=ExtResource(\"coin\")]\n" +
                              "[node name=\"Shape\" parent=\"Silver\"]\nshape = SubResource(\"big\")\n";
    const json scene = import(level, files);
    REQUIRE(scene["shapes"].size() == 2);
    CHECK(scene["shapes"][0]["id"] == "Level/Gold");
    CHECK(scene["shapes"][0]["center"] == json::array({50, 0}));  // the instance's position wins
    CHECK(scene["shapes"][0]["radius"] == 4);
    CHECK(scene["shapes"][0]["groups"] == json::array({"pickups", "gold", "Area2D", "Gold", "layer-1", "mask-1"}));
    CHECK(scene["shapes"][1]["center"] == json::array({1, 1}));
    CHECK(scene["shapes"][1]["radius"] == 9);  // an editable child's shape overridden
    // A scene that instances itself.
    files["game/actors/loop.tscn"] = kHead + "[ext_resource type=\"PackedScene\" path=\"res://actors/loop.tscn\" id=\"1\"]\n" +
                                     "[node name=\"Loop\" type=\"Node2D\"]\n[node name=\"Again\" parent=\".\" instance=ExtResource(\"1\")]\n";
    CHECK(import_error(kHead + "[ext_resource type=\"PackedScene\" path=\"res://actors/loop.tscn\" id=\"1\"]\n" +
                       "[node name=\"Level\" type=\"Node2D\"]\n[node name=\"L\" parent=\".\" instance=ExtResource(\"1\")]\n", files) ==
          "game/levels/level.tscn:5:1: an instancing cycle: 'game/actors/loop.tscn' instances itself");
}

TEST_CASE("godot: an instanced 3D model is skipped with what is written under it; a binary scene is refused") {
    const std::string text = kHead + "[ext_resource type=\"PackedScene\" path=\"res://robot.glb\" id=\"m\"]\n" +
                             "[ext_resource type=\"PackedScene\" path=\"res://old.scn\" id=\"s\"]\n" +
                             "[node name=\"Level\" type=\"Node2D\"]\n[node name=\"Robot\" parent=\".\" instance=ExtResource(\"m\")]\n" +
                             "[node name=\"Hand\" type=\"Area2D\" parent=\"Robot/Armature/Skeleton3D\"]\n";
    Files files{{"game/project.godot", ""}};
    const auto maps = collide::import_map("game/levels/level.tscn", text, MapFormat::Godot, loader(files));
    REQUIRE(maps[0].warnings.size() == 1);
    CHECK(maps[0].warnings[0] == "game/levels/level.tscn: node 'Level/Robot': an instanced 3D model ('res://robot.glb'), skipped with what it holds");
    CHECK(json::parse(collide::scene_text(maps[0]))["shapes"].empty());
    CHECK(import_error(kHead + "[ext_resource type=\"PackedScene\" path=\"res://old.scn\" id=\"s\"]\n" +
                       "[node name=\"Level\" type=\"Node2D\"]\n[node name=\"Old\" parent=\".\" instance=ExtResource(\"s\")]\n") ==
          "game/levels/level.tscn:5:38: node 'Level/Old': instances a binary scene ('res://old.scn'): collide reads text scenes; save it as .tscn in Godot");
}

TEST_CASE("godot: tile flips apply transpose, then flip h, then flip v, in each of the 8 combinations") {
    using collide::detail::godot::flipped;
    const collide::Vec2 p{1, 2};  // no symmetry maps it to itself
    const double want[8][2] = {{1, 2}, {-1, 2}, {1, -2}, {-1, -2}, {2, 1}, {-2, 1}, {2, -1}, {-2, -1}};
    for (int k = 0; k < 8; ++k) {
        const collide::Vec2 q = flipped(p, k & 1, k & 2, k & 4);
        CAPTURE(k);
        CHECK(q.x == want[k][0]);
        CHECK(q.y == want[k][1]);
    }
}

namespace {

// A TileSet of 16 x 16 tiles: tile 0:0 full, tile 1:0 an asymmetric triangle.
std::string tile_set(const std::string& extra = "") {
    return "[sub_resource type=\"TileSetAtlasSource\" id=\"a\"]\n"
           "0:0/0 = 0\n0:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, -8, 8, -8, 8, 8, -8, 8)\n"
           "1:0/0 = 0\n1:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, -8, 8, -8, -8, 0)\n" +
           extra + "[sub_resource type=\"TileSet\" id=\"t\"]\ntile_size = Vector2i(16, 16)\nphysics_layer_0/collision_layer = 2\n"
                   "sources/0 = SubResource(\"a\")\n";
}

// One 12-byte cell: int16 x, int16 y, u16 source, atlas x, atlas y, alternative.
std::string cell(int x, int y, int ax, int ay, unsigned alt) {
    std::string b;
    for (const unsigned v : {static_cast<unsigned>(x) & 0xFFFF, static_cast<unsigned>(y) & 0xFFFF, 0u, static_cast<unsigned>(ax),
                             static_cast<unsigned>(ay), alt}) {
        b += static_cast<char>(v & 0xFF);
        b += static_cast<char>(v >> 8);
    }
    return b;
}

// A level whose TileMapLayer `W` (tile_set()) holds `records` (cell()), as its scene.
json tile_layer(const std::vector<std::string>& records) {
    std::string data(2, '\0');
    for (const std::string& r : records) data += r;
    return import(kHead + tile_set() + "[node name=\"Level\" type=\"Node2D\"]\n" +
                  "[node name=\"W\" type=\"TileMapLayer\" parent=\".\"]\ntile_set = SubResource(\"t\")\n" +
                  "tile_map_data = PackedByteArray(\"" + map_data::base64(data) + "\")\n");
}

}  // namespace

TEST_CASE("godot: a TileMapLayer's cells, hand-encoded: full tiles a grid, others compounds at their cells") {
    const std::string data = std::string(2, '\0') + cell(-2, 3, 0, 0, 0) + cell(0, 3, 0, 0, 0) + cell(1, -1, 1, 0, 0) +
                             cell(2, -1, 1, 0, 1u << 12);  // the last flipped h by its alternative's bit
    const std::string text = kHead + tile_set() + "[node name=\"Level\" type=\"Node2D\"]\n" +
                             "[node name=\"Walls\" type=\"TileMapLayer\" parent=\".\"]\nposition = Vector2(100, 0)\n" +
                             "tile_map_data = PackedByteArray(\"" + map_data::base64(data) + "\")\ntile_set = SubResource(\"t\")\n";
    const json scene = import(text);
    REQUIRE(scene["grids"].size() == 1);
    const json& g = scene["grids"][0];
    CHECK(g["id"] == "Level/Walls");
    CHECK(g["origin"] == json::array({100 - 32, 48}));
    CHECK(g["rows"] == json::array({"#.#"}));
    CHECK(g["outside"] == "empty");
    CHECK(g["groups"] == json::array({"TileMapLayer", "Walls", "layer-2", "mask-1"}));
    REQUIRE(scene["shapes"].size() == 2);  // row by row: (1, -1), then (2, -1)
    CHECK(scene["shapes"][0]["id"] == "Level/Walls@1,-1");
    // The triangle at the centre of cell (1, -1): (24, -8) in the layer, (124, -8) in the level.
    CHECK(scene["shapes"][0]["parts"][0]["points"] == json::array({{116, -16}, {132, -16}, {116, -8}}));
    CHECK(scene["shapes"][1]["parts"][0]["points"] == json::array({{148, -16}, {132, -16}, {148, -8}}));
    CHECK(scene["shapes"][1]["groups"].back() == "tile-collision");
    CHECK(scene["pairs"] == json::array());  // layer 2 meets no mask
}

TEST_CASE("godot: a cell written twice holds its last tile, and ids stay unique") {
    const std::string data = std::string(2, '\0') + cell(0, 0, 1, 0, 0) + cell(0, 0, 0, 0, 0) + cell(1, 0, 1, 0, 0);
    const std::string text = kHead + tile_set() + "[sub_resource type=\"CircleShape2D\" id=\"c\"]\n" +
                             "[node name=\"Level\" type=\"Node2D\"]\n" +
                             "[node name=\"W\" type=\"TileMapLayer\" parent=\".\"]\ntile_set = SubResource(\"t\")\n" +
                             "tile_map_data = PackedByteArray(\"" + map_data::base64(data) + "\")\n" +
                             "[node name=\"W@1,0\" type=\"Area2D\" parent=\".\"]\n" +
                             "[node name=\"S\" type=\"CollisionShape2D\" parent=\"W@1,0\"]\nshape = SubResource(\"c\")\n";
    const json scene = import(text);
    CHECK(scene["grids"][0]["rows"] == json::array({"#"}));  // (0, 0): the full tile written last
    REQUIRE(scene["shapes"].size() == 2);
    CHECK(scene["shapes"][0]["id"] == "Level/W@1,0");
    CHECK(scene["shapes"][1]["id"] == "Level/W@1,0~2");  // the Area2D named like the tile's compound
    CHECK(import_error(kHead + "[node name=\"L\" type=\"Node2D\"]\n[node name=\"B\" type=\"Node2D\" parent=inf]\n") ==
          "game/levels/level.tscn:4:37: parent= must be a string, not a number");
}

TEST_CASE("godot: tile records in any order, erased cells among them, give the same layer") {
    // Four full cells and a triangle; the records row by row, then backwards, then shuffled
    // with an erased cell (source 0xFFFF) where no tile is.
    const std::vector<std::string> cells = {cell(0, 0, 0, 0, 0), cell(1, 0, 0, 0, 0), cell(3, 0, 1, 0, 0), cell(0, 2, 0, 0, 0),
                                            cell(3, 2, 0, 0, 0)};
    std::string erased = cell(5, 5, 0, 0, 0);
    erased[4] = erased[5] = static_cast<char>(0xFF);
    const json in_rows = tile_layer(cells);
    CHECK(in_rows["grids"][0]["rows"] == json::array({"##..", "....", "#..#"}));  // (3, 0) the triangle
    REQUIRE(in_rows["shapes"].size() == 1);
    CHECK(in_rows["shapes"][0]["id"] == "Level/W@3,0");
    CHECK(tile_layer({cells[4], cells[3], cells[2], cells[1], cells[0]}) == in_rows);
    CHECK(tile_layer({cells[2], erased, cells[0], cells[4], cells[1], cells[3]}) == in_rows);
    // Full cells only, row by row: the grid spans every record.
    CHECK(tile_layer({cells[0], cells[1]})["grids"][0]["rows"] == json::array({"##"}));
}

TEST_CASE("godot: a big layer gives the same layer read as its records come and read cell by cell") {
    // 300 x 250 cells: full tiles, a triangle every 97th cell, an erased record every 101st and
    // one at the middle.
    std::vector<std::string> records;
    for (int y = 0; y < 250; ++y)
        for (int x = 0; x < 300; ++x) {
            const int k = y * 300 + x;
            std::string r = cell(x, y, k % 97 == 0 ? 1 : 0, 0, 0);
            if (k % 101 == 0 || k == 300 * 250 / 2) r[4] = r[5] = static_cast<char>(0xFF);
            records.push_back(r);
        }
    const json as_written = tile_layer(records);
    REQUIRE(as_written["grids"].size() == 1);
    CHECK(as_written["grids"][0]["rows"].size() == 250);
    CHECK(as_written["grids"][0]["rows"][0].get<std::string>().substr(0, 4) == ".###");  // (0, 0) erased
    std::size_t triangles = 0;
    for (int k = 0; k < 300 * 250; ++k) triangles += k % 97 == 0 && k % 101 != 0 && k != 300 * 250 / 2;
    CHECK(as_written["shapes"].size() == triangles);
    // A cell written twice (with the same tile) makes the layer read whole, in one pass, in
    // the order of its cells.
    records.push_back(records[5]);
    CHECK(tile_layer(records) == as_written);
}

TEST_CASE("godot: a tile layer's cells are sorted out beside the bodies after it, yet the first error in node order is the one given") {
    // A layer whose data is broken, then a body whose shape is: the layer's error, although the
    // body after it may be made first.
    const std::string broken_layer = "[node name=\"W\" type=\"TileMapLayer\" parent=\".\"]\ntile_set = SubResource(\"t\")\n"
                                     "tile_map_data = PackedByteArray(0, 0, 1, 2, 3)\n";
    const std::string broken_body = "[node name=\"B\" type=\"StaticBody2D\" parent=\".\"]\n"
                                    "[node name=\"S\" type=\"CollisionShape2D\" parent=\"B\"]\nshape = SubResource(\"nope\")\n";
    const std::string level = "[node name=\"L\" type=\"Node2D\"]\n";
    CHECK(import_error(kHead + tile_set() + level + broken_layer + broken_body).find("node 'L/W': tile data of 5 bytes") !=
          std::string::npos);
    CHECK(import_error(kHead + tile_set() + level + broken_body + broken_layer).find("SubResource(\"nope\") names no [sub_resource]") !=
          std::string::npos);
    // A good layer between two bodies, and a lone shape after it: shapes, grid and warning in
    // node order.
    const std::string data = std::string(2, '\0') + cell(0, 0, 0, 0, 0) + cell(1, 0, 1, 0, 0);
    const std::string body = "[sub_resource type=\"CircleShape2D\" id=\"c\"]\n";
    const auto body_node = [](const std::string& name) {
        return "[node name=\"" + name + "\" type=\"Area2D\" parent=\".\"]\n[node name=\"S\" type=\"CollisionShape2D\" parent=\"" +
               name + "\"]\nshape = SubResource(\"c\")\n";
    };
    const json scene = import(kHead + tile_set() + body + level + body_node("A") +
                              "[node name=\"W\" type=\"TileMapLayer\" parent=\".\"]\ntile_set = SubResource(\"t\")\n" +
                              "tile_map_data = PackedByteArray(\"" + map_data::base64(data) + "\")\n" + body_node("Z") +
                              "[node name=\"Lone\" type=\"CollisionShape2D\" parent=\".\"]\nshape = SubResource(\"c\")\n");
    REQUIRE(scene["shapes"].size() == 3);
    CHECK(scene["shapes"][0]["id"] == "L/A");
    CHECK(scene["shapes"][1]["id"] == "L/W@1,0");
    CHECK(scene["shapes"][2]["id"] == "L/Z");
    CHECK(scene["grids"][0]["id"] == "L/W");
}

TEST_CASE("godot: an older TileMap's layer_N/tile_data, three ints a cell, and its layer names") {
    // The same 12 bytes as three little-endian ints: (y << 16 | x), (atlas x << 16 | source), (alt << 16 | atlas y).
    const auto ints = [](int x, int y, int ax, int ay) {
        return std::to_string((y << 16) | (x & 0xFFFF)) + ", " + std::to_string(ax << 16) + ", " + std::to_string(ay);
    };
    const std::string text = kHead + tile_set() + "[node name=\"Level\" type=\"Node2D\"]\n" +
                             "[node name=\"Map\" type=\"TileMap\" parent=\".\"]\ntile_set = SubResource(\"t\")\nformat = 2\n" +
                             "layer_0/name = \"Ground\"\nlayer_0/tile_data = PackedInt32Array(" + ints(0, 0, 0, 0) + ", " + ints(1, 0, 0, 0) +
                             ")\nlayer_1/tile_data = PackedInt32Array(" + ints(0, 1, 1, 0) + ")\n";
    const json scene = import(text);
    REQUIRE(scene["grids"].size() == 1);
    CHECK(scene["grids"][0]["id"] == "Level/Map/Ground");
    CHECK(scene["grids"][0]["rows"] == json::array({"##"}));
    REQUIRE(scene["shapes"].size() == 1);
    CHECK(scene["shapes"][0]["id"] == "Level/Map/#1@0,1");
}

TEST_CASE("godot: a scene read from its map taken has the sources and warnings of one read from a copy") {
    Files files{{"game/project.godot", "config_version=5\n"}};
    const std::string text = one_body("CircleShape2D") + "\n[node name=\"Lone\" type=\"CollisionShape2D\" parent=\".\"]\n";
    const auto scene_of = [&](bool take) {
        auto maps = collide::import_map("game/levels/level.tscn", text, MapFormat::Godot, loader(files), {}, collide::MapBuild::Scene);
        REQUIRE(maps.size() == 1);
        collide::ReadOptions options;
        options.sources = true;
        return take ? collide::read_map_scene(std::move(maps[0]), options) : collide::read_map_scene(maps[0], options);
    };
    const collide::Scene copied = scene_of(false), taken = scene_of(true);
    REQUIRE(taken.shapes.size() == 1);
    REQUIRE(taken.sources.shapes.size() == 1);
    const collide::Source a = copied.sources.shape(0), b = taken.sources.shape(0);
    CHECK(b.file == "game/levels/level.tscn");
    CHECK(b.line == 7);  // the body's [node] line
    CHECK(b.layer == "Level");
    CHECK(std::tie(a.file, a.line, a.column, a.layer) == std::tie(b.file, b.line, b.column, b.layer));
    REQUIRE(taken.warnings.size() == 1);  // the lone shape, its file taken off
    CHECK(taken.warnings == copied.warnings);
    CHECK(taken.warnings[0].rfind("node 'Level/Lone': ", 0) == 0);
    CHECK(taken.sources.warnings.size() == 1);
}

TEST_CASE("godot: ids are unique as made, and two names that are one once made UTF-8 are still a duplicate") {
    Files files{{"game/project.godot", "config_version=5\n"}};
    const auto body = [](const std::string& name) {
        return "\n[node name=\"" + name + "\" type=\"StaticBody2D\" parent=\".\"]\n\n[node name=\"S\" type=\"CollisionShape2D\" parent=\"" +
               name + "\"]\nshape = SubResource(\"c\")\n";
    };
    const std::string head = kHead + "[sub_resource type=\"CircleShape2D\" id=\"c\"]\n\n[node name=\"L\" type=\"Node2D\"]\n";
    const auto scene_of = [&](const std::string& text) {
        auto maps = collide::import_map("game/levels/level.tscn", text, MapFormat::Godot, loader(files), {}, collide::MapBuild::Scene);
        return collide::read_map_scene(std::move(maps[0]));
    };
    const collide::Scene ok = scene_of(head + body("A") + body("B"));
    REQUIRE(ok.shapes.size() == 2);
    CHECK(ok.shapes[1].id == "L/B");
    // "A\xff" and "A\xfe" are two names, but one id once their bad bytes are U+FFFD.
    std::string error;
    try {
        scene_of(head + body("A\xff") + body("A\xfe"));
    } catch (const collide::Error& e) {
        error = e.what();
    }
    CHECK(error == "game/levels/level.tscn:12:1: node 'L/A\xfe': duplicate id 'L/A\xEF\xBF\xBD' (also /shapes/0)");
}

TEST_CASE("godot: errors name the file, line, column and node") {
    CHECK(import_error("[gd_scene load_steps=2 format=2]\n[node name=\"L\" type=\"Node2D\"]\n") ==
          "game/levels/level.tscn:1:1: a Godot 3 scene (format=2): collide reads Godot 4 scenes (format=3 or 4)");
    CHECK(import_error("", {}, "game/levels/level.scn") ==
          "game/levels/level.scn: a binary Godot scene: collide reads text scenes; save it as .tscn in Godot");
    CHECK(import_error("[gd_resource type=\"TileSet\" format=3]\n") ==
          "game/levels/level.tscn:1:1: not a Godot scene: it does not start with [gd_scene ...]");
    CHECK(import_error(kHead + "[node name=\"L\" type=\"Node2D\"]\n[node name=\"B\" type=\"StaticBody2D\" parent=\".\"]\n" +
                       "[node name=\"S\" type=\"CollisionShape2D\" parent=\"B\"]\nshape = SubResource(\"nope\")\n") ==
          "game/levels/level.tscn:6:9: SubResource(\"nope\") names no [sub_resource]");
    CHECK(import_error(kHead + "[node name=\"L\" type=\"Node2D\"]\n[node name=\"B\" type=\"StaticBody2D\" parent=\"Nowhere\"]\n") ==
          "game/levels/level.tscn:4:1: parent \"Nowhere\" names no node");
    CHECK(import_error(with_props("RectangleShape2D", "size = \"big\"\n")) ==
          "game/levels/level.tscn:4:8: node 'Level/Body/Shape': RectangleShape2D.size must be a Vector2(x, y), not a string");
    const std::string iso = "[sub_resource type=\"TileSet\" id=\"t\"]\ntile_shape = 1\n";
    CHECK(import_error(kHead + iso + "[node name=\"L\" type=\"Node2D\"]\n[node name=\"Floor\" type=\"TileMapLayer\" parent=\".\"]\n" +
                       "tile_set = SubResource(\"t\")\n") ==
          "game/levels/level.tscn:6:1: node 'L/Floor': its TileSet's tiles are isometric (tile_shape 1): collide reads square tiles only");
    CHECK(import_error(kHead + tile_set() + "[node name=\"L\" type=\"Node2D\"]\n[node name=\"W\" type=\"TileMapLayer\" parent=\".\"]\n" +
                       "tile_set = SubResource(\"t\")\ntile_map_data = PackedByteArray(0, 0, 1, 2, 3)\n")
              .find("node 'L/W': tile data of 5 bytes is not whole 12-byte cells") != std::string::npos);
}
