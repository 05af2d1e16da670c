// Sources (SPEC §3.1): where each shape, grid, move and rule was written, as reports with
// --locations and CI findings place them. The expected lines and columns are found in the
// texts themselves, not written down: a test that moves an object moves its expectation.
#include "collide/maps.hpp"
#include "collide/scene.hpp"

#include <doctest/doctest.h>

#include <string>
#include <string_view>

using collide::MapBuild;
using collide::MapFormat;
using collide::MapImport;
using collide::ReadOptions;
using collide::Scene;
using collide::Source;

namespace {

// 1-based line and byte column of the first `needle` at or after `from` in `text`.
std::pair<std::uint32_t, std::uint32_t> place_of(std::string_view text, std::string_view needle, std::size_t from = 0) {
    const std::size_t at = text.find(needle, from);
    REQUIRE(at != std::string_view::npos);
    std::uint32_t line = 1;
    std::size_t start = 0;
    for (std::size_t i = 0; i < at; ++i)
        if (text[i] == '\n') ++line, start = i + 1;
    return {line, static_cast<std::uint32_t>(at - start + 1)};
}

void check_at(const Source& s, const std::string& file, std::pair<std::uint32_t, std::uint32_t> at) {
    CHECK(s.file == file);
    CHECK(s.line == at.first);
    CHECK(s.column == at.second);
}

std::string sample(const std::string& name) {
    std::string path = __FILE__;
    path.erase(path.find_last_of('/') + 1);
    return path + "../samples/" + name;
}

Scene map_scene(const std::string& name, MapFormat format, MapBuild build, std::string_view level = {}) {
    const std::string file = sample(name);
    const std::string text = collide::file_system_loader()(file);
    std::vector<MapImport> maps = collide::import_map(file, text, format, collide::file_system_loader(), level, build);
    REQUIRE(maps.size() == 1);
    ReadOptions options;
    options.sources = true;
    return collide::read_map_scene(std::move(maps[0]), options);
}

}  // namespace

TEST_CASE("a scene's shapes, grids, moves and rules at the line and byte column of their objects") {
    // "é" is two bytes: columns count bytes, as editors' and CI's problem matchers do.
    const std::string text = "{\"shapes\": [\n"
                             "  {\"id\": \"é\", \"type\": \"point\", \"at\": [0, 0]}, {\"id\": \"b\", \"type\": \"point\", \"at\": [1, 1]},\n"
                             "\r\n"
                             "    {\"id\": \"c\", \"type\": \"circle\", \"center\": [0, 0], \"radius\": 1}],\n"
                             " \"grids\": [{\"id\": \"g\", \"tile_size\": 8, \"rows\": [\"#\"]}],\n"
                             " \"moves\": [{\"id\": \"m\", \"grid\": \"g\", \"from\": [0, 0], \"to\": [4, 4]}],\n"
                             " \"rules\": [\n   {\"name\": \"r\", \"pairs\": \"*:*\", \"expect\": \"none\"}]}\n";
    ReadOptions options;
    options.sources = true;
    const Scene s = collide::read_scene(text, "level.json", options);
    REQUIRE(s.sources.shapes.size() == 3);
    check_at(s.sources.shape(0), "level.json", place_of(text, "{\"id\": \"é\""));
    check_at(s.sources.shape(1), "level.json", place_of(text, "{\"id\": \"b\""));
    CHECK(s.sources.shape(1).column == place_of(text, "{\"id\": \"b\"").second);  // after 2-byte é
    check_at(s.sources.shape(2), "level.json", place_of(text, "{\"id\": \"c\""));  // after a CRLF line
    check_at(s.sources.grid(0), "level.json", place_of(text, "{\"id\": \"g\""));
    check_at(s.sources.move(0), "level.json", place_of(text, "{\"id\": \"m\""));
    check_at(s.sources.rule(0), "level.json", place_of(text, "{\"name\": \"r\""));
    CHECK(s.sources.shape(0).layer.empty());
    CHECK(s.sources.shape(0).object == 0);

    // Without asking, only the rules are placed: a million shapes pay nothing.
    const Scene plain = collide::read_scene(text, "level.json");
    CHECK(plain.sources.shapes.empty());
    CHECK(plain.sources.shape(2).file == "level.json");
    CHECK(plain.sources.shape(2).line == 0);
    check_at(plain.sources.rule(0), "level.json", place_of(text, "{\"name\": \"r\""));
}

TEST_CASE("a rules file's rules keep their own file and place") {
    const std::string rules = "{\"rules\": [{\"name\": \"a\", \"pairs\": \"*:*\", \"expect\": \"none\"},\n"
                              "  {\"name\": \"b\", \"pairs\": \"*:*\", \"expect\": \"none\"}]}";
    Scene s = collide::read_scene(R"({"shapes": [], "rules": [{"name": "own", "pairs": "*:*", "expect": "none"}]})", "level.json");
    collide::add_rules(s, collide::read_rule_set(rules, "rules.json"));
    REQUIRE(s.rules.size() == 3);
    CHECK(s.sources.rule(0).file == "level.json");
    check_at(s.sources.rule(2), "rules.json", place_of(rules, "{\"name\": \"b\""));
}

TEST_CASE("a TMX map's objects at their <object>, tile compounds at their layer's <data> and cell, grids at their layer") {
    const std::string file = sample("tiled/dungeon.tmx");
    const std::string text = collide::file_system_loader()(file);
    for (const MapBuild build : {MapBuild::Text, MapBuild::Scene}) {
        const Scene s = map_scene("tiled/dungeon.tmx", MapFormat::TiledXml, build);
        REQUIRE(s.sources.shapes.size() == s.shapes.size());
        REQUIRE(s.sources.grids.size() == s.grids.size());
        bool saw_object = false, saw_tile = false;
        for (std::size_t i = 0; i < s.shapes.size(); ++i) {
            const Source src = s.sources.shape(i);
            CAPTURE(s.shapes[i].id);
            CHECK(src.file == file);
            CHECK(!src.layer.empty());
            if (src.object != 0) {
                saw_object = true;
                check_at(src, file, place_of(text, "<object id=\"" + std::to_string(src.object) + "\""));
                CHECK(!src.has_tile);
            } else if (src.has_tile) {
                saw_tile = true;
                // The layer's <data>, after the layer's own element.
                const std::size_t layer = text.find("name=\"" + src.layer + "\"");
                REQUIRE(layer != std::string::npos);
                check_at(src, file, place_of(text, "<data", layer));
                CHECK(s.shapes[i].id == src.layer + "@" + std::to_string(src.tile_col) + "," + std::to_string(src.tile_row));
            }
        }
        CHECK(saw_object);
        CHECK(saw_tile);
        for (std::size_t g = 0; g < s.grids.size(); ++g) {
            const Source src = s.sources.grid(g);
            const std::size_t name = text.find("name=\"" + src.layer + "\"");
            REQUIRE(name != std::string::npos);
            check_at(src, file, place_of(text, "<layer", text.rfind("<layer", name)));
        }
    }
}

TEST_CASE("a TMJ map's objects at their JSON objects, found from their pointers") {
    const std::string file = sample("tiled/dungeon.tmj");
    const std::string text = collide::file_system_loader()(file);
    const Scene s = map_scene("tiled/dungeon.tmj", MapFormat::TiledJson, MapBuild::Scene);
    REQUIRE(s.sources.shapes.size() == s.shapes.size());
    std::size_t objects = 0;
    for (std::size_t i = 0; i < s.shapes.size(); ++i) {
        const Source src = s.sources.shape(i);
        if (src.object == 0) continue;
        ++objects;
        // The object's '{' is the last one before its "id" member, in its layer's "objects".
        const std::size_t layer = text.find("\"name\": \"" + src.layer + "\"");
        REQUIRE(layer != std::string::npos);
        const std::size_t id = text.find("\"id\": " + std::to_string(src.object) + ",", text.find("\"objects\"", layer));
        REQUIRE(id != std::string::npos);
        check_at(src, file, place_of(text, "{", text.rfind('{', id)));
    }
    CHECK(objects > 0);
}

TEST_CASE("an LDtk level's entities at their instances, with their iid and layer") {
    const std::string file = sample("ldtk/platformer.ldtk");
    const std::string text = collide::file_system_loader()(file);
    const Scene s = map_scene("ldtk/platformer.ldtk", MapFormat::Ldtk, MapBuild::Scene, "Level_0");
    REQUIRE(s.sources.shapes.size() == s.shapes.size());
    REQUIRE(!s.shapes.empty());
    for (std::size_t i = 0; i < s.shapes.size(); ++i) {
        const Source src = s.sources.shape(i);
        CAPTURE(s.shapes[i].id);
        REQUIRE(!src.iid.empty());
        CHECK(!src.layer.empty());
        const std::size_t iid = text.find("\"" + src.iid + "\"");
        REQUIRE(iid != std::string::npos);
        check_at(src, file, place_of(text, "{", text.rfind('{', iid)));
    }
    REQUIRE(!s.grids.empty());
    CHECK(s.sources.grid(0).line > 0);
}
