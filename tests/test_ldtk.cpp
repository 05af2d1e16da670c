// LDtk projects as scenes (SPEC §1.5): levels, IntGrid layers as grids, entities as rects
// (pivot, offsets, tags, N counting), levels in their own files, and the errors, word for word.
#include "collide/check.hpp"
#include "collide/maps.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <map>
#include <string>
#include <variant>

using collide::Error;
using collide::MapFormat;
using collide::MapImport;
using collide::Rect;
using collide::Scene;

namespace {

using Files = std::map<std::string, std::string>;

collide::FileLoader loader(const Files& files) {
    return [&files](const std::string& path) -> std::string {
        const auto it = files.find(path);
        if (it == files.end()) throw Error(path, "", "cannot open: No such file or directory");
        return it->second;
    };
}

std::vector<MapImport> import(const std::string& text, std::string_view level = {}, const Files& files = {}) {
    return collide::import_map("maps/world.ldtk", text, MapFormat::Ldtk, loader(files), level);
}

// A project with these levels (JSON objects, comma-separated) and entity definitions.
std::string project(const std::string& levels, const std::string& entity_defs = "") {
    return R"({"jsonVersion": "1.5.3", "defs": {"entities": [)" + entity_defs + R"(]}, "levels": [)" + levels + "]}";
}

std::string level(const std::string& name, const std::string& layers) {
    return R"({"identifier": ")" + name + R"(", "layerInstances": [)" + layers + "]}";
}

std::string entities_layer(const std::string& name, const std::string& instances, int dx = 0, int dy = 0) {
    return R"({"__identifier": ")" + name + R"(", "__type": "Entities", "__cWid": 4, "__cHei": 4, "__gridSize": 16, )" +
           R"("__pxTotalOffsetX": )" + std::to_string(dx) + R"(, "__pxTotalOffsetY": )" + std::to_string(dy) +
           R"(, "entityInstances": [)" + instances + "]}";
}

std::string int_grid(const std::string& name, int cols, int rows, const std::string& csv, int dx = 0, int dy = 0) {
    return R"({"__identifier": ")" + name + R"(", "__type": "IntGrid", "__cWid": )" + std::to_string(cols) +
           R"(, "__cHei": )" + std::to_string(rows) + R"(, "__gridSize": 16, "__pxTotalOffsetX": )" + std::to_string(dx) +
           R"(, "__pxTotalOffsetY": )" + std::to_string(dy) + R"(, "intGridCsv": [)" + csv + "]}";
}

// An entity instance; `tags` is the JSON of "__tags" or empty for none.
std::string entity(const std::string& name, double px, double py, double w, double h, double pivot_x, double pivot_y,
                   const std::string& tags = "", int def_uid = 0) {
    auto n = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", v);
        return std::string(buf);
    };
    return R"({"__identifier": ")" + name + R"(", "px": [)" + n(px) + ", " + n(py) + R"(], "__pivot": [)" + n(pivot_x) +
           ", " + n(pivot_y) + R"(], "width": )" + n(w) + R"(, "height": )" + n(h) +
           (tags.empty() ? "" : R"(, "__tags": )" + tags) + R"(, "defUid": )" + std::to_string(def_uid) + "}";
}

const Rect& rect(const Scene& s, std::size_t i) {
    REQUIRE(i < s.shapes.size());
    REQUIRE(std::holds_alternative<Rect>(s.shapes[i].shape));
    return std::get<Rect>(s.shapes[i].shape);
}

std::vector<std::string> groups(const Scene& s, std::size_t i) {
    REQUIRE(i < s.shapes.size());
    return {s.shapes[i].groups.begin(), s.shapes[i].groups.end()};
}

Scene scene_of(const std::string& text) {
    const auto maps = import(text);
    REQUIRE(maps.size() == 1);
    return collide::read_map_scene(maps[0]);
}

// What importing a project must throw: `at` is the text that begins at the error's
// line:column in `text` (empty: no line:column), so that the place is checked by what is there.
struct Expected {
    std::string file;
    std::string json_path;
    std::string at;
    std::string message;
};

// The text from 1-based line:column on (columns count bytes: the texts here are ASCII).
std::string text_at(const std::string& text, int line, int column) {
    std::size_t i = 0;
    for (int l = 1; l < line && i != std::string::npos; ++l) {
        i = text.find('\n', i);
        if (i != std::string::npos) ++i;
    }
    if (i == std::string::npos || i + static_cast<std::size_t>(column) - 1 > text.size()) return "<past the end>";
    return text.substr(i + static_cast<std::size_t>(column) - 1);
}

void check_error(const std::string& text, const Expected& want, std::string_view level = {}, const Files& files = {}) {
    try {
        import(text, level, files);
        FAIL("the project was accepted");
    } catch (const Error& e) {
        CHECK(e.file() == want.file);
        CHECK(e.json_path() == want.json_path);
        CHECK(e.message() == want.message);
        if (want.at.empty()) {
            CHECK(e.line() == 0);
            CHECK(e.column() == 0);
        } else {
            // Where the error is located: in the project, or in the level file it names.
            const auto other = files.find(e.file());
            const std::string& where = other == files.end() ? text : other->second;
            REQUIRE(e.line() > 0);
            CHECK(text_at(where, e.line(), e.column()).substr(0, want.at.size()) == want.at);
        }
    }
}

std::string sample_path() {
    std::string here = __FILE__;  // .../tests/test_ldtk.cpp
    here.erase(here.find_last_of('/') + 1);
    return here + "../samples/ldtk/platformer.ldtk";
}

}  // namespace

TEST_CASE("ldtk: entities become rects placed by their pivot") {
    SUBCASE("pivot [0.5, 1] at px [40, 64], 16 x 16: min (32, 48)") {
        const Scene s = scene_of(project(level("L", entities_layer("Entities", entity("Player", 40, 64, 16, 16, 0.5, 1)))));
        REQUIRE(s.shapes.size() == 1);
        CHECK(s.shapes[0].id == "Player#1");
        CHECK(rect(s, 0).min.x == 32);
        CHECK(rect(s, 0).min.y == 48);
        CHECK(rect(s, 0).max.x == 48);
        CHECK(rect(s, 0).max.y == 64);
    }
    SUBCASE("pivot [0, 0] is the min corner; [1, 1] the max corner") {
        const Scene s = scene_of(project(level(
            "L", entities_layer("E", entity("A", 10, 20, 8, 4, 0, 0) + "," + entity("B", 10, 20, 8, 4, 1, 1)))));
        CHECK(rect(s, 0).min.x == 10);
        CHECK(rect(s, 0).min.y == 20);
        CHECK(rect(s, 0).max.x == 18);
        CHECK(rect(s, 0).max.y == 24);
        CHECK(rect(s, 1).min.x == 2);
        CHECK(rect(s, 1).min.y == 16);
    }
    SUBCASE("a layer offset moves its entities") {
        const Scene s = scene_of(project(level("L", entities_layer("E", entity("A", 40, 64, 16, 16, 0.5, 1), 4, -6))));
        CHECK(rect(s, 0).min.x == 36);
        CHECK(rect(s, 0).min.y == 42);
    }
    SUBCASE("px + offset first, then the pivot: the doubles as they fall") {
        // (0.1 + 0.2) - 0.5 * 0.3 is 0.15000000000000005; px + (offset - pivot * width), or
        // px - pivot * width + offset, would be 0.15000000000000002.
        const std::string e = R"({"__identifier": "Dust", "px": [0.1, 0], "__pivot": [0.5, 0], "width": 0.3, "height": 0,)"
                              R"( "defUid": 1})";
        const std::string layer = R"({"__identifier": "E", "__type": "Entities", "__pxTotalOffsetX": 0.2, )"
                                  R"("__pxTotalOffsetY": 0, "entityInstances": [)" + e + "]}";
        const Scene s = scene_of(project(level("L", layer)));
        CHECK(rect(s, 0).min.x == (0.1 + 0.2) - 0.5 * 0.3);
        CHECK(rect(s, 0).min.x == 0.15000000000000005);
        CHECK(rect(s, 0).min.x != 0.1 + (0.2 - 0.5 * 0.3));
        CHECK(rect(s, 0).max.y == 0);  // zero height is a rect with no extent
    }
}

TEST_CASE("ldtk: ids count each entity identifier across the level's layers") {
    const std::string layers =
        entities_layer("Front", entity("Coin", 0, 0, 8, 8, 0, 0) + "," + entity("Player", 0, 0, 8, 8, 0, 0) + "," +
                                    entity("Coin", 16, 0, 8, 8, 0, 0)) +
        "," + entities_layer("Back", entity("Coin", 32, 0, 8, 8, 0, 0));
    const auto maps = import(project(level("A", layers) + "," + level("B", entities_layer("E", entity("Coin", 0, 0, 1, 1, 0, 0)))));
    REQUIRE(maps.size() == 2);
    const Scene a = collide::read_map_scene(maps[0]);
    REQUIRE(a.shapes.size() == 4);
    CHECK(a.shapes[0].id == "Coin#1");
    CHECK(a.shapes[1].id == "Player#1");
    CHECK(a.shapes[2].id == "Coin#2");
    CHECK(a.shapes[3].id == "Coin#3");
    CHECK(maps[0].shape_sources[3].what == "entity 'Coin#3' in layer 'Back'");
    CHECK(maps[0].shape_sources[3].json_path == "/levels/0/layerInstances/1/entityInstances/0");
    const Scene b = collide::read_map_scene(maps[1]);  // each level counts from 1
    CHECK(b.shapes[0].id == "Coin#1");
}

TEST_CASE("ldtk: groups are the entity identifier and its tags") {
    const std::string defs = R"({"identifier": "Coin", "uid": 7, "tags": ["pickup", "shiny"]},)"
                             R"({"identifier": "Spikes", "uid": 8, "tags": ["hazard"]})";
    SUBCASE("the instance's __tags") {
        const Scene s = scene_of(project(level("L", entities_layer("E", entity("Spikes", 0, 0, 8, 8, 0, 0, R"(["hazard", "static"])", 8))), defs));
        CHECK(groups(s, 0) == std::vector<std::string>{"Spikes", "hazard", "static"});
    }
    SUBCASE("without __tags, the tags of the definition with the same uid") {
        const Scene s = scene_of(project(level("L", entities_layer("E", entity("Coin", 0, 0, 8, 8, 0, 0, "", 7))), defs));
        CHECK(groups(s, 0) == std::vector<std::string>{"Coin", "pickup", "shiny"});
    }
    SUBCASE("an empty __tags is the instance's word: no tags") {
        const Scene s = scene_of(project(level("L", entities_layer("E", entity("Coin", 0, 0, 8, 8, 0, 0, "[]", 7))), defs));
        CHECK(groups(s, 0) == std::vector<std::string>{"Coin"});
    }
    SUBCASE("no definition with that uid: the identifier alone") {
        const Scene s = scene_of(project(level("L", entities_layer("E", entity("Coin", 0, 0, 8, 8, 0, 0, "", 99))), defs));
        CHECK(groups(s, 0) == std::vector<std::string>{"Coin"});
    }
    SUBCASE("a tag equal to the identifier is not repeated") {
        const Scene s = scene_of(project(level("L", entities_layer("E", entity("Coin", 0, 0, 8, 8, 0, 0, R"(["Coin", "gold"])")))));
        CHECK(groups(s, 0) == std::vector<std::string>{"Coin", "gold"});
    }
}

TEST_CASE("ldtk: IntGrid layers become grids") {
    SUBCASE("non-zero values are solid, row-major; tile size and offset from the layer") {
        const auto maps = import(project(level("L", int_grid("Walls", 3, 2, "1,0,2, 0,0,3", 8, -16))));
        REQUIRE(maps.size() == 1);
        const Scene s = collide::read_map_scene(maps[0]);
        REQUIRE(s.grids.size() == 1);
        const collide::Grid& g = s.grids[0];
        CHECK(g.id == "Walls");
        CHECK(std::vector<std::string>(g.groups.begin(), g.groups.end()) == std::vector<std::string>{"Walls"});
        CHECK(g.cols == 3);
        CHECK(g.rows == 2);
        CHECK(g.tile.x == 16);
        CHECK(g.tile.y == 16);
        CHECK(g.origin.x == 8);
        CHECK(g.origin.y == -16);
        CHECK_FALSE(g.outside_solid);
        CHECK(g.solid(0, 0));
        CHECK_FALSE(g.solid(1, 0));
        CHECK(g.solid(2, 0));
        CHECK_FALSE(g.solid(0, 1));
        CHECK(g.solid(2, 1));
        CHECK(maps[0].grid_sources[0].what == "layer 'Walls'");
        CHECK(maps[0].grid_sources[0].json_path == "/levels/0/layerInstances/0");
    }
    SUBCASE("the sparse intGrid of older projects") {
        const std::string layer = R"({"__identifier": "Old", "__type": "IntGrid", "__cWid": 3, "__cHei": 2, "__gridSize": 8,)"
                                  R"( "__pxTotalOffsetX": 0, "__pxTotalOffsetY": 0, "intGrid": [{"coordId": 1, "v": 0},)"
                                  R"( {"coordId": 5, "v": 1}]})";
        const Scene s = scene_of(project(level("L", layer)));
        REQUIRE(s.grids.size() == 1);
        CHECK(s.grids[0].tile.x == 8);
        CHECK_FALSE(s.grids[0].solid(0, 0));
        CHECK(s.grids[0].solid(1, 0));
        CHECK(s.grids[0].solid(2, 1));
        CHECK_FALSE(s.grids[0].solid(1, 1));
    }
    SUBCASE("zero cells, tile and auto layers: nothing") {
        const std::string tiles = R"({"__identifier": "Art", "__type": "Tiles", "gridTiles": []},)"
                                  R"({"__identifier": "Auto", "__type": "AutoLayer", "autoLayerTiles": []})";
        const auto maps = import(project(level("L", int_grid("Empty", 0, 5, "") + "," + tiles)));
        const Scene s = collide::read_map_scene(maps[0]);
        CHECK(s.grids.empty());
        CHECK(s.shapes.empty());
        CHECK(maps[0].warnings.empty());
    }
    SUBCASE("a layer type LDtk does not have is skipped with a warning") {
        const auto maps = import(project(level("L", R"({"__identifier": "Odd", "__type": "Paths"})")));
        REQUIRE(maps[0].warnings.size() == 1);
        CHECK(maps[0].warnings[0] == "layer 'Odd' in level 'L': layer type 'Paths' is not read");
    }
}

TEST_CASE("ldtk: one scene per level, FILE#LEVEL") {
    const std::string text = project(level("Start", entities_layer("E", entity("A", 0, 0, 1, 1, 0, 0))) + "," +
                                     level("Cave", entities_layer("E", entity("B", 0, 0, 1, 1, 0, 0))) + "," +
                                     level("End", ""));
    SUBCASE("all levels in project order") {
        const auto maps = import(text);
        REQUIRE(maps.size() == 3);
        CHECK(maps[0].name == "maps/world.ldtk#Start");
        CHECK(maps[1].name == "maps/world.ldtk#Cave");
        CHECK(maps[2].name == "maps/world.ldtk#End");
        CHECK(collide::read_map_scene(maps[1]).shapes[0].id == "B#1");
        CHECK(collide::read_map_scene(maps[2]).shapes.empty());
    }
    SUBCASE("one level by name") {
        const auto maps = import(text, "Cave");
        REQUIRE(maps.size() == 1);
        CHECK(maps[0].name == "maps/world.ldtk#Cave");
        CHECK(collide::read_map_scene(maps[0]).shapes[0].id == "B#1");
    }
    SUBCASE("a level that is not there") {
        check_error(text, {"maps/world.ldtk", "", "", "no level 'Attic' (levels: Start, Cave, End)"}, "Attic");
    }
    SUBCASE("a level asked of a project without levels") {
        check_error(project(""), {"maps/world.ldtk", "", "", "no level 'Attic' (the project has none)"}, "Attic");
    }
    SUBCASE("the levels of each world of a multi-world project") {
        const std::string worlds = R"({"levels": [], "worlds": [{"identifier": "W1", "levels": [)" + level("A", "") +
                                   R"(]}, {"identifier": "W2", "levels": [)" + level("B", "") + "]}]}";
        const auto maps = import(worlds);
        REQUIRE(maps.size() == 2);
        CHECK(maps[0].name == "maps/world.ldtk#A");
        CHECK(maps[1].name == "maps/world.ldtk#B");
    }
}

TEST_CASE("ldtk: levels saved in their own files (externalLevels)") {
    const std::string text = R"({"externalLevels": true, "levels": [{"identifier": "Level_0", "layerInstances": null,)"
                             R"( "externalRelPath": "world/Level_0.ldtkl"}]})";
    SUBCASE("read relative to the project") {
        const Files files{{"maps/world/Level_0.ldtkl",
                           R"({"identifier": "Level_0", "layerInstances": [)" +
                               entities_layer("E", entity("Player", 40, 64, 16, 16, 0.5, 1)) + "," +
                               int_grid("Collisions", 2, 1, "0,1") + "]}"}};
        const auto maps = import(text, {}, files);
        REQUIRE(maps.size() == 1);
        CHECK(maps[0].name == "maps/world.ldtk#Level_0");
        CHECK(maps[0].shape_sources[0].json_path == "/layerInstances/0/entityInstances/0");
        const Scene s = collide::read_map_scene(maps[0]);
        REQUIRE(s.shapes.size() == 1);
        CHECK(rect(s, 0).min.x == 32);
        REQUIRE(s.grids.size() == 1);
        CHECK(s.grids[0].solid(1, 0));
    }
    SUBCASE("a missing level file") {
        check_error(text, {"maps/world/Level_0.ldtkl", "", "", "level 'Level_0': cannot open: No such file or directory"});
    }
    SUBCASE("an error in the level file is located in it") {
        const Files files{{"maps/world/Level_0.ldtkl",
                           "{\"layerInstances\": [\n" + int_grid("Collisions", 2, 2, "0,1,1") + "]}"}};
        check_error(text,
                    {"maps/world/Level_0.ldtkl", "/layerInstances/0/intGridCsv", "[0,1,1]",
                     "layer 'Collisions' in level 'Level_0': intGridCsv holds 3 values for 2 x 2 cells"},
                    {}, files);
    }
}

TEST_CASE("ldtk: errors name the level, layer and entity, with their place") {
    SUBCASE("intGridCsv of the wrong length") {
        const std::string text = "{\"levels\": [\n {\"identifier\": \"L\", \"layerInstances\": [\n  " +
                                 int_grid("Collisions", 3, 2, "1,1,1,0,0") + "]}]}";
        check_error(text, {"maps/world.ldtk", "/levels/0/layerInstances/0/intGridCsv", "[1,1,1,0,0]",
                           "layer 'Collisions' in level 'L': intGridCsv holds 5 values for 3 x 2 cells"});
    }
    SUBCASE("invalid JSON") {
        check_error("{\"levels\": [\n  {\"identifier\": \"L\",]}",
                    {"maps/world.ldtk", "", "]}",
                     "not valid JSON: syntax error while parsing object key - unexpected ']'; expected string literal"});
    }
    SUBCASE("a number beyond the double range, anywhere: located like any syntax error (fuzz_map, seed 4242)") {
        check_error("{\"appBuildId\": 1e400, \"levels\": []}",
                    {"maps/world.ldtk", "", "1e400", "not valid JSON: number overflow parsing '1e400'"});
    }
    SUBCASE("nesting past 256 levels: the 256th '[' inside the top-level object") {
        try {
            import("{\"levels\": " + std::string(300, '['));
            FAIL("the project was accepted");
        } catch (const Error& e) {
            CHECK(e.line() == 1);
            CHECK(e.column() == 11 + 256);
            CHECK(e.message() == "values nested deeper than 256 levels");
        }
    }
    SUBCASE("not a project") {
        check_error("[1, 2]", {"maps/world.ldtk", "", "", "not an LDtk project: the top level is not an object"});
        check_error("{\"jsonVersion\": \"1.5.3\"}", {"maps/world.ldtk", "", "", "not an LDtk project: levels is missing"});
    }
    SUBCASE("a level without identifier") {
        check_error(R"({"levels": [{"layerInstances": []}]})",
                    {"maps/world.ldtk", "/levels/0", "{\"layerInstances\"", "level #0: identifier is missing"});
    }
    SUBCASE("a layer without type") {
        check_error(project(level("L", R"({"__identifier": "Walls"})")),
                    {"maps/world.ldtk", "/levels/0/layerInstances/0", "{\"__identifier\": \"Walls\"}", "layer 'Walls' in level 'L': __type is missing"});
    }
    SUBCASE("more cells than kMaxMapCells, before any memory is taken") {
        check_error(project(level("L", int_grid("Huge", 100000, 100000, ""))),
                    {"maps/world.ldtk", "/levels/0/layerInstances/0/__cWid", "100000, \"__cHei\"",
                     "layer 'Huge' in level 'L': 100000 x 100000 cells is more than 268435456"});
        check_error(project(level("L", int_grid("Neg", -3, 2, ""))),
                    {"maps/world.ldtk", "/levels/0/layerInstances/0/__cWid", "-3,",
                     "layer 'Neg' in level 'L': __cWid -3 is out of range"});
    }
    SUBCASE("a cell value that is not an integer") {
        check_error(project(level("L", int_grid("W", 2, 1, "0, 1.5"))),
                    {"maps/world.ldtk", "/levels/0/layerInstances/0/intGridCsv/1", "1.5]",
                     "layer 'W' in level 'L': intGridCsv[1] is not an integer"});
    }
    SUBCASE("a tile size that is not positive") {
        check_error(project(level("L", int_grid("W", 1, 1, "1").replace(
                                           int_grid("W", 1, 1, "1").find("16"), 2, "0"))),
                    {"maps/world.ldtk", "/levels/0/layerInstances/0/__gridSize", "0, \"__pxTotalOffsetX\"",
                     "layer 'W' in level 'L': __gridSize 0 is not positive"});
    }
    SUBCASE("an entity of negative width") {
        check_error(project(level("L", entities_layer("E", entity("Coin", 0, 0, 8, 8, 0, 0) + "," +
                                                                entity("Coin", 0, 0, -2, 8, 0, 0)))),
                    {"maps/world.ldtk", "/levels/0/layerInstances/0/entityInstances/1/width", "-2, \"height\"",
                     "entity 'Coin#2' in layer 'E' of level 'L': width -2 is negative"});
    }
    SUBCASE("an entity without px") {
        check_error(project(level("L", entities_layer("E", R"({"__identifier": "Coin", "__pivot": [0, 0], "width": 1, "height": 1})"))),
                    {"maps/world.ldtk", "/levels/0/layerInstances/0/entityInstances/0", "{\"__identifier\": \"Coin\", \"__pivot\"",
                     "entity 'Coin#1' in layer 'E' of level 'L': px is missing"});
    }
    SUBCASE("tags that are not strings") {
        check_error(project(level("L", entities_layer("E", entity("Coin", 0, 0, 8, 8, 0, 0, R"(["gold", 7])")))),
                    {"maps/world.ldtk", "/levels/0/layerInstances/0/entityInstances/0/__tags/1", "7]",
                     "entity 'Coin#1' in layer 'E' of level 'L': __tags holds a value that is not a string"});
    }
    SUBCASE("a position out of the doubles") {
        check_error(project(level("L", entities_layer("E", entity("Far", -1.7e308, 0, 1.7e308, 1, 1, 0)))),
                    {"maps/world.ldtk", "/levels/0/layerInstances/0/entityInstances/0/px", "[-1.69999",
                     "entity 'Far#1' in layer 'E' of level 'L': its position is not finite"});
    }
    SUBCASE("the scene's own checks are reported against the entity") {
        // x + width overflows: read_scene refuses the rect, and the error names the entity.
        const std::string e = R"({"__identifier": "Far", "px": [1.7e308, 0], "__pivot": [0, 0], "width": 1e308, "height": 1})";
        const auto maps = import(project(level("L", entities_layer("E", e))));
        try {
            collide::read_map_scene(maps[0]);
            FAIL("the scene was accepted");
        } catch (const Error& err) {
            CHECK(err.file() == "maps/world.ldtk#L");
            CHECK(err.json_path() == "/levels/0/layerInstances/0/entityInstances/0");
            CHECK(err.message().rfind("entity 'Far#1' in layer 'E': ", 0) == 0);
        }
    }
}

TEST_CASE("ldtk: the sample project") {
    const std::string path = sample_path();
    const collide::FileLoader load = collide::file_system_loader();
    const auto maps = collide::import_map(path, load(path), MapFormat::Ldtk, load);
    REQUIRE(maps.size() == 2);
    CHECK(maps[0].name == path + "#Level_0");
    CHECK(maps[1].name == path + "#Level_1");

    SUBCASE("Level_0: the player and the spikes stand flush on the floor; a coin is stuck in the wall") {
        const Scene s = collide::read_map_scene(maps[0]);
        REQUIRE(s.shapes.size() == 4);
        CHECK(s.shapes[0].id == "Player#1");
        CHECK(s.shapes[1].id == "Coin#1");
        CHECK(s.shapes[2].id == "Coin#2");
        CHECK(s.shapes[3].id == "Spikes#1");
        CHECK(groups(s, 0) == std::vector<std::string>{"Player", "actor"});
        CHECK(groups(s, 3) == std::vector<std::string>{"Spikes", "hazard", "static"});
        CHECK(rect(s, 0).min.x == 32);  // px [40, 80], pivot [0.5, 1], 16 x 16
        CHECK(rect(s, 0).min.y == 64);
        CHECK(rect(s, 0).max.y == 80);  // the floor's top
        REQUIRE(s.grids.size() == 1);
        CHECK(s.grids[0].id == "Collisions");
        CHECK(s.grids[0].solid(4, 3));  // a ledge (value 2) is solid too
        CHECK_FALSE(s.grids[0].solid(2, 4));

        // Touching a wall flush is no collision (SPEC §2.4): only the coin in the wall.
        const collide::SceneResult r = collide::check(s, {});
        REQUIRE(r.collisions.size() == 1);
        CHECK(r.collisions[0].a == 2);
        CHECK(r.collisions[0].b == s.shapes.size());
        CHECK(r.collisions[0].relation == collide::Relation::Overlap);
        CHECK(r.collisions[0].cells == std::vector<collide::Cell>{{7, 2}});
    }
    SUBCASE("Level_1: the grid is raised 4 px, so the player sinks into the floor beside the spikes") {
        const Scene s = collide::read_map_scene(maps[1]);
        REQUIRE(s.shapes.size() == 4);
        CHECK(s.shapes[2].id == "Spikes#2");
        REQUIRE(s.grids.size() == 1);
        CHECK(s.grids[0].origin.y == -4);
        const collide::SceneResult r = collide::check(s, {});
        REQUIRE(r.collisions.size() == 2);
        CHECK(r.collisions[0].a == 0);  // Player#1 and Spikes#2 share the edge x = 32
        CHECK(r.collisions[0].b == 2);
        CHECK(r.collisions[0].relation == collide::Relation::Touch);
        CHECK(r.collisions[1].a == 0);  // Player#1, y 36..52, in the floor, y 44..60
        CHECK(r.collisions[1].b == s.shapes.size());
        CHECK(r.collisions[1].relation == collide::Relation::Overlap);
        CHECK(r.collisions[1].cells == std::vector<collide::Cell>{{1, 3}});
    }
}

TEST_CASE("ldtk: damaged projects are errors, never crashes") {
    const std::string text =
        project(level("L", entities_layer("E", entity("Player", 40, 64, 16, 16, 0.5, 1, R"(["actor"])", 3)) + "," +
                               int_grid("Walls", 3, 2, "1,0,2,0,0,3", 8, -16)),
                R"({"identifier": "Player", "uid": 3, "tags": ["x"]})");
    SUBCASE("every truncation is invalid JSON") {
        for (std::size_t n = 0; n < text.size(); ++n) CHECK_THROWS_AS(import(text.substr(0, n)), Error);
    }
    SUBCASE("each byte replaced: read, or an Error (any other exception fails the test)") {
        std::size_t read = 0, refused = 0;
        for (std::size_t i = 0; i < text.size(); ++i)
            for (const char c : std::string("-9\"{]:e")) {
                std::string bad = text;
                bad[i] = c;
                try {
                    for (const MapImport& m : import(bad)) collide::read_map_scene(m);
                    ++read;
                } catch (const Error&) {
                    ++refused;
                }
            }
        CHECK(read > 0);  // a digit changed in a number, say
        CHECK(refused > 0);
    }
}
