// The TMJ reader (Tiled JSON maps, tiled_tmj.cpp): the model it fills from small inline maps,
// with tilesets and templates served by an in-memory loader, and its errors word for word.
#include "map_data.hpp"
#include "maps/tiled_model.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

using namespace collide::detail::tiled;
using collide::Error;
using collide::FileLoader;

namespace {

using namespace map_data;

FileLoader loader(std::map<std::string, std::string> files) {
    return [files = std::move(files)](const std::string& path) {
        const auto it = files.find(path);
        if (it == files.end()) throw Error(path, "", "cannot open: No such file or directory");
        return it->second;
    };
}

// A map around `layers` and `tilesets` (JSON array bodies), one key per line.
std::string map_text(const std::string& layers, const std::string& tilesets = "", const std::string& extra = "") {
    return "{\"type\": \"map\",\n\"orientation\": \"orthogonal\",\n\"tilewidth\": 16,\n\"tileheight\": 8,\n" + extra +
           "\"tilesets\": [" + tilesets + "],\n\"layers\": [" + layers + "]}";
}

const FileLoader no_files = loader({});

// The error read_tmj throws, as what() renders it: "file:line:col: /path: message".
std::string error_of(const std::string& text, const FileLoader& load = no_files, const std::string& file = "m.tmj") {
    try {
        (void)read_tmj(file, text, load);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

const std::string kTerrain = R"({"firstgid": 1, "name": "terrain", "tilewidth": 16, "tileheight": 8, "tilecount": 10})";

}  // namespace

TEST_CASE("read_tmj: a tile layer's gids are the same in every encoding and compression") {
    const std::vector<std::uint32_t> gids = {0, 1, 2, 0x80000003u, 0xFFFFFFFFu, 9};
    const std::string raw = little_endian(gids);
    const auto layer = [](const std::string& data, const std::string& encoding) {
        return R"({"type": "tilelayer", "name": "Ground", "id": 4, "width": 3, "height": 2, )" + encoding +
               R"("data": )" + data + "}";
    };
    std::string data, encoding;
    SUBCASE("array") { data = "[0, 1, 2, 2147483651, 4294967295, 9]"; }
    SUBCASE("csv text") {
        data = "\"0,1,2,\\n2147483651,4294967295,9\"";
        encoding = R"("encoding": "csv", )";
    }
    SUBCASE("base64") {
        data = '"' + base64(raw) + '"';
        encoding = R"("encoding": "base64", )";
    }
    SUBCASE("base64, compression empty") {
        data = '"' + base64(raw) + '"';
        encoding = R"("encoding": "base64", "compression": "", )";
    }
    SUBCASE("zlib") {
        data = '"' + base64(zlib(raw)) + '"';
        encoding = R"("encoding": "base64", "compression": "zlib", )";
    }
    SUBCASE("gzip") {
        data = '"' + base64(gzip(raw)) + '"';
        encoding = R"("encoding": "base64", "compression": "gzip", )";
    }
    SUBCASE("zstd") {
        data = '"' + base64(zstd(raw)) + '"';
        encoding = R"("encoding": "base64", "compression": "zstd", )";
    }
    const Map map = read_tmj("m.tmj", map_text(layer(data, encoding)), no_files);
    CHECK(map.orientation == "orthogonal");
    CHECK(map.tilewidth == 16);
    CHECK(map.tileheight == 8);
    CHECK_FALSE(map.infinite);
    REQUIRE(map.layers.size() == 1);
    const Layer& l = map.layers[0];
    CHECK(l.kind == Layer::Kind::Tiles);
    CHECK(l.name == "Ground");
    CHECK(l.id == 4);
    CHECK(l.where.file == "m.tmj");
    CHECK(l.where.json_path == "/layers/0");
    REQUIRE(l.blocks.size() == 1);
    CHECK(l.blocks[0].x == 0);
    CHECK(l.blocks[0].y == 0);
    CHECK(l.blocks[0].width == 3);
    CHECK(l.blocks[0].height == 2);
    CHECK(l.blocks[0].gids == gids);  // flip flags kept
}

TEST_CASE("read_tmj: a UTF-8 byte order mark is skipped") {
    const Map map = read_tmj("m.tmj", "\xEF\xBB\xBF" + map_text(""), no_files);
    CHECK(map.layers.empty());
    CHECK(error_of("\xEF\xBB\xBF{\n  \"type\": nul}") ==
          "m.tmj:2:14: not valid JSON: syntax error while parsing value - invalid literal");
}

TEST_CASE("read_tmj: objects of every kind, with their flip flags and tiles") {
    const std::string objects = R"({"type": "objectgroup", "name": "Things", "class": "solid", "offsetx": 2.5, "offsety": -1,
      "properties": [{"name": "collide_groups", "type": "string", "value": "a,b"}, {"name": "n", "type": "int", "value": 3},
                     {"name": "plain", "value": "p"}],
      "objects": [
        {"id": 1, "name": "box", "type": "wall", "x": 1, "y": 2, "width": 3, "height": 4, "rotation": 30},
        {"id": 2, "name": "egg", "class": "food", "x": 5, "y": 6, "width": 2, "height": 2, "ellipse": true},
        {"id": 3, "x": 7, "y": 8, "point": true},
        {"id": 4, "x": 0, "y": 0, "polygon": [{"x": 0, "y": 0}, {"x": 4, "y": 0}, {"x": 0, "y": 3}]},
        {"id": 5, "x": 1, "y": 1, "polyline": [{"x": 0, "y": 0}, {"x": 2.5, "y": 1}]},
        {"id": 6, "x": 0, "y": 0, "width": 10, "height": 4, "text": {"text": "hi", "wrap": true}},
        {"id": 7, "x": 0, "y": 0, "width": 8, "height": 20, "capsule": true},
        {"id": 8, "x": 16, "y": 32, "width": 16, "height": 16, "gid": 3221225486},
        {"id": 9, "x": 0, "y": 0, "gid": 536870913}
      ]})";
    const std::string tilesets = kTerrain + R"(, {"firstgid": 11, "name": "props", "tilecount": 5, "tilewidth": 16,
      "tileheight": 16, "objectalignment": "center"})";
    const Map map = read_tmj("maps/m.tmj", map_text(objects, tilesets), no_files);
    REQUIRE(map.tilesets.size() == 2);
    REQUIRE(map.layers.size() == 1);
    const Layer& l = map.layers[0];
    CHECK(l.kind == Layer::Kind::Objects);
    CHECK(l.cls == "solid");
    CHECK(l.offset.x == 2.5);
    CHECK(l.offset.y == -1);
    CHECK(l.properties == Properties{{"collide_groups", "a,b"}, {"plain", "p"}});
    REQUIRE(l.objects.size() == 9);
    const auto& o = l.objects;
    CHECK(o[0].kind == ObjectKind::Rect);
    CHECK(o[0].id == 1);
    CHECK(o[0].name == "box");
    CHECK(o[0].cls == "wall");
    CHECK(o[0].x == 1);
    CHECK(o[0].y == 2);
    CHECK(o[0].width == 3);
    CHECK(o[0].height == 4);
    CHECK(o[0].rotation == 30);
    CHECK(o[0].where.file == "maps/m.tmj");
    CHECK(o[0].where.json_path == "/layers/0/objects/0");
    CHECK(o[1].kind == ObjectKind::Ellipse);
    CHECK(o[1].cls == "food");  // Tiled 1.9 wrote "class"
    CHECK(o[2].kind == ObjectKind::Point);
    CHECK(o[2].name.empty());
    CHECK(o[3].kind == ObjectKind::Polygon);
    REQUIRE(o[3].points.size() == 3);
    CHECK(o[3].points[1].x == 4);
    CHECK(o[3].points[2].y == 3);
    CHECK(o[4].kind == ObjectKind::Polyline);
    REQUIRE(o[4].points.size() == 2);
    CHECK(o[4].points[1].x == 2.5);
    CHECK(o[5].kind == ObjectKind::Text);
    CHECK(o[6].kind == ObjectKind::Capsule);
    // 3221225486 = H | V | 14: tile 3 of "props" (firstgid 11).
    CHECK(o[7].kind == ObjectKind::Tile);
    REQUIRE(static_cast<bool>(o[7].tile.tileset));
    CHECK(o[7].tile.tileset->name == "props");
    CHECK(o[7].tile.tileset->alignment == Alignment::Center);
    CHECK(o[7].tile.id == 3);
    CHECK(o[7].tile.flips == (kFlipH | kFlipV));
    // 536870913 = D | 1: tile 0 of "terrain".
    REQUIRE(static_cast<bool>(o[8].tile.tileset));
    CHECK(o[8].tile.tileset->name == "terrain");
    CHECK(o[8].tile.id == 0);
    CHECK(o[8].tile.flips == kFlipD);
}

TEST_CASE("read_tmj: inline and external tilesets, sorted by firstgid, their tiles by id") {
    const std::string tsj = R"({"type": "tileset", "name": "rocks", "tilewidth": 32, "tileheight": 32, "tilecount": 4,
      "tileoffset": {"x": 0, "y": 4}, "objectalignment": "bottomleft",
      "tiles": [
        {"id": 3, "objectgroup": {"objects": [{"id": 1, "x": 0, "y": 16, "width": 32, "height": 16},
                                              {"id": 2, "x": 4, "y": 4, "ellipse": true, "width": 8, "height": 8}]}},
        {"id": 2, "type": "spiky"},
        {"id": 1, "probability": 0.5},
        {"id": 0, "imagewidth": 48, "imageheight": 40}
      ]})";
    const std::string tilesets = R"({"firstgid": 20, "source": "../tiles/rocks.tsj"}, )" + kTerrain;
    const Map map = read_tmj("maps/m.tmj", map_text("", tilesets), loader({{"maps/../tiles/rocks.tsj", tsj}}));
    REQUIRE(map.tilesets.size() == 2);
    CHECK(map.tilesets[0]->name == "terrain");
    CHECK(map.tilesets[0]->firstgid == 1);
    CHECK(map.tilesets[0]->tilecount == 10);
    CHECK(map.tilesets[0]->where.file == "maps/m.tmj");
    CHECK(map.tilesets[0]->where.json_path == "/tilesets/1");
    const Tileset& rocks = *map.tilesets[1];
    CHECK(rocks.name == "rocks");
    CHECK(rocks.firstgid == 20);
    CHECK(rocks.tilewidth == 32);
    CHECK(rocks.tileoffset.y == 4);
    CHECK(rocks.alignment == Alignment::BottomLeft);
    CHECK(rocks.where.file == "maps/../tiles/rocks.tsj");
    CHECK(rocks.where.json_path.empty());
    REQUIRE(rocks.tiles.size() == 3);  // tile 1 has nothing collide needs
    CHECK(rocks.tiles[0].id == 0);
    CHECK(rocks.tiles[0].width == 48);
    CHECK(rocks.tiles[0].height == 40);
    CHECK(rocks.tiles[1].id == 2);
    CHECK(rocks.tiles[1].cls == "spiky");
    CHECK(rocks.tiles[2].id == 3);
    REQUIRE(rocks.tiles[2].shapes.size() == 2);
    CHECK(rocks.tiles[2].shapes[0].y == 16);
    CHECK(rocks.tiles[2].shapes[1].kind == ObjectKind::Ellipse);
    CHECK(rocks.tiles[2].shapes[1].where.file == "maps/../tiles/rocks.tsj");
    CHECK(rocks.tiles[2].shapes[1].where.json_path == "/tiles/0/objectgroup/objects/1");
}

TEST_CASE("read_tmj: a template's object, overridden by its instance") {
    const std::string tj = R"({"type": "template",
      "tileset": {"firstgid": 5, "source": "props.tsj"},
      "object": {"name": "crate", "type": "box", "width": 16, "height": 16, "gid": 2147483654, "rotation": 90,
                 "properties": [{"name": "collide_groups", "type": "string", "value": "t"},
                                {"name": "keep", "type": "string", "value": "k"}]}})";
    const std::string props = R"({"type": "tileset", "name": "props", "tilecount": 4, "tilewidth": 16, "tileheight": 16})";
    const std::string layer = R"({"type": "objectgroup", "name": "Objects", "objects": [
        {"id": 7, "template": "obj/crate.tj", "x": 10, "y": 20},
        {"id": 8, "template": "obj/crate.tj", "x": 30, "y": 40, "name": "big", "width": 32, "rotation": 0,
         "properties": [{"name": "collide_groups", "type": "string", "value": "i"}]},
        {"id": 9, "template": "obj/crate.tj", "x": 0, "y": 0, "gid": 1, "ellipse": true}]})";
    const auto files = loader({{"maps/obj/crate.tj", tj}, {"maps/obj/props.tsj", props}});
    const Map map = read_tmj("maps/m.tmj", map_text(layer, kTerrain), files);
    REQUIRE(map.layers.size() == 1);
    const auto& o = map.layers[0].objects;
    REQUIRE(o.size() == 3);
    CHECK(o[0].id == 7);
    CHECK(o[0].name == "crate");
    CHECK(o[0].cls == "box");
    CHECK(o[0].x == 10);
    CHECK(o[0].y == 20);
    CHECK(o[0].width == 16);
    CHECK(o[0].rotation == 90);
    CHECK(o[0].where.file == "maps/m.tmj");
    CHECK(o[0].where.json_path == "/layers/0/objects/0");
    // The template's gid 6 (flipped) names tile 1 of the template's tileset (firstgid 5).
    CHECK(o[0].kind == ObjectKind::Tile);
    REQUIRE(static_cast<bool>(o[0].tile.tileset));
    CHECK(o[0].tile.tileset->name == "props");
    CHECK(o[0].tile.tileset->firstgid == 5);
    CHECK(o[0].tile.id == 1);
    CHECK(o[0].tile.flips == kFlipH);
    CHECK(o[0].properties == Properties{{"collide_groups", "t"}, {"keep", "k"}});
    CHECK(o[1].name == "big");
    CHECK(o[1].width == 32);
    CHECK(o[1].height == 16);
    CHECK(o[1].rotation == 0);
    CHECK(o[1].properties == Properties{{"collide_groups", "i"}, {"keep", "k"}});
    // The instance's gid names a tile of the map's tilesets.
    CHECK(o[2].kind == ObjectKind::Ellipse);
    REQUIRE(static_cast<bool>(o[2].tile.tileset));
    CHECK(o[2].tile.tileset->name == "terrain");
    CHECK(o[2].tile.id == 0);
}

TEST_CASE("read_tmj: an infinite map's chunks") {
    const std::vector<std::uint32_t> second = {0, 7, 7, 0};
    const std::string layer = R"({"type": "tilelayer", "name": "Ground", "startx": -16, "starty": 0, "width": 32,
      "height": 16, "encoding": "base64", "compression": "zlib", "chunks": [
        {"x": -16, "y": 0, "width": 2, "height": 1, "data": ")" + base64(zlib(little_endian({1, 2}))) + R"("},
        {"x": 14, "y": 14, "width": 2, "height": 2, "data": ")" + base64(zlib(little_endian(second))) + R"("}]})";
    const Map map = read_tmj("m.tmj", map_text(layer, kTerrain, "\"infinite\": true,\n"), no_files);
    CHECK(map.infinite);
    REQUIRE(map.layers.size() == 1);
    const auto& b = map.layers[0].blocks;
    REQUIRE(b.size() == 2);
    CHECK(b[0].x == -16);
    CHECK(b[0].y == 0);
    CHECK(b[0].width == 2);
    CHECK(b[0].height == 1);
    CHECK(b[0].gids == std::vector<std::uint32_t>{1, 2});
    CHECK(b[1].x == 14);
    CHECK(b[1].y == 14);
    CHECK(b[1].gids == second);
}

TEST_CASE("read_tmj: group layers in order, each with its own offsets") {
    const std::string layers = R"({"type": "group", "id": 1, "name": "World", "offsetx": 10, "offsety": 20, "layers": [
        {"type": "tilelayer", "id": 2, "name": "Floor", "class": "ground", "offsetx": 1, "width": 1, "height": 1, "data": [5]},
        {"type": "group", "id": 3, "name": "Inner", "offsety": 2, "layers": [
          {"type": "objectgroup", "id": 4, "name": "Rocks", "objects": []}]},
        {"type": "imagelayer", "id": 5, "name": "Sky", "image": "sky.png"}]},
      {"type": "objectgroup", "id": 6, "name": "Top"})";
    const Map map = read_tmj("m.tmj", map_text(layers), no_files);
    REQUIRE(map.layers.size() == 2);
    const Layer& world = map.layers[0];
    CHECK(world.kind == Layer::Kind::Group);
    CHECK(world.offset.x == 10);
    CHECK(world.offset.y == 20);
    REQUIRE(world.layers.size() == 3);
    CHECK(world.layers[0].name == "Floor");
    CHECK(world.layers[0].cls == "ground");
    CHECK(world.layers[0].offset.x == 1);
    CHECK(world.layers[0].offset.y == 0);
    CHECK(world.layers[0].blocks.at(0).gids == std::vector<std::uint32_t>{5});
    CHECK(world.layers[0].where.json_path == "/layers/0/layers/0");
    CHECK(world.layers[1].kind == Layer::Kind::Group);
    CHECK(world.layers[1].offset.y == 2);
    REQUIRE(world.layers[1].layers.size() == 1);
    CHECK(world.layers[1].layers[0].kind == Layer::Kind::Objects);
    CHECK(world.layers[1].layers[0].id == 4);
    CHECK(world.layers[1].layers[0].where.json_path == "/layers/0/layers/1/layers/0");
    CHECK(world.layers[2].kind == Layer::Kind::Image);
    CHECK(world.layers[2].name == "Sky");
    CHECK(map.layers[1].name == "Top");
    CHECK(map.layers[1].objects.empty());
}

TEST_CASE("read_tmj: errors name the file, place, and the layer, object or tileset at fault") {
    const auto tiles = [](const std::string& rest) {
        return "{\"type\": \"tilelayer\", \"name\": \"Ground\",\n \"width\": 2, \"height\": 1, " + rest + "}";
    };
    SUBCASE("invalid JSON") {
        CHECK(error_of("{\"type\": \"map\",\n \"layers\": [1,]}") ==
              "m.tmj:2:15: not valid JSON: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal");
        CHECK(error_of("{\"type\": \"map\", \"tilewidth\": 1e999}") ==
              "m.tmj:1:30: not valid JSON: number overflow parsing '1e999'");
    }
    SUBCASE("not a map") {
        CHECK(error_of("{\"type\": \"tileset\"}") == "m.tmj:1:10: /type: not a Tiled map: its type is 'tileset'");
        CHECK(error_of("{\"tilewidth\": 1}") == "m.tmj:1:1: not a Tiled map: it has no \"type\": \"map\"");
        CHECK(error_of("[1]") == "m.tmj:1:1: a Tiled map is a JSON object");
    }
    SUBCASE("a missing tileset file") {
        CHECK(error_of(map_text("", R"({"firstgid": 1, "source": "terrain.tsj"})"), no_files, "maps/m.tmj") ==
              "maps/m.tmj:5:40: /tilesets/0/source: tileset 'terrain.tsj': cannot open: No such file or directory");
    }
    SUBCASE("a missing XML tileset (read as XML whatever the case of its extension)") {
        CHECK(error_of(map_text("", R"({"firstgid": 1, "source": "terrain.TSX"})")) ==
              "m.tmj:5:40: /tilesets/0/source: tileset 'terrain.TSX': cannot open: No such file or directory");
    }
    SUBCASE("an external tileset that is not valid JSON, or has a bad value") {
        const auto files = loader({{"t.tsj", "{\n\"name\": \"t\",\n\"tilecount\": -1}"}, {"u.tsj", "{\"name\": }"}});
        CHECK(error_of(map_text("", R"({"firstgid": 1, "source": "t.tsj"})"), files) ==
              "t.tsj:3:14: /tilecount: tileset 't.tsj': tilecount must be an integer from 0 to 4294967295");
        CHECK(error_of(map_text("", R"({"firstgid": 1, "source": "u.tsj"})"), files) ==
              "u.tsj:1:10: tileset 'u.tsj': not valid JSON: syntax error while parsing value - unexpected '}'; "
              "expected '[', '{', or a literal");
    }
    SUBCASE("corrupt zlib data") {
        const std::string bad = base64("not a zlib stream at all");
        CHECK(error_of(map_text(tiles(R"("encoding": "base64", "compression": "zlib", "data": ")" + bad + "\""))) ==
              "m.tmj:7:80: /layers/0/data: layer 'Ground': zlib data is corrupt (incorrect header check)");
    }
    SUBCASE("unknown compression") {
        CHECK(error_of(map_text(tiles(R"("encoding": "base64", "compression": "lzma", "data": "AAAAAAAAAAA=")"))) ==
              "m.tmj:7:80: /layers/0/data: layer 'Ground': unknown compression 'lzma'");
    }
    SUBCASE("a gid out of range, or too few of them") {
        CHECK(error_of(map_text(tiles(R"("data": [1, 4294967296])"))) ==
              "m.tmj:7:39: /layers/0/data/1: layer 'Ground': a gid must be an integer from 0 to 4294967295");
        CHECK(error_of(map_text(tiles(R"("data": [1])"))) ==
              "m.tmj:7:35: /layers/0/data: layer 'Ground': the data holds 1 tiles, the layer declares 2");
    }
    SUBCASE("a gid beyond every tileset") {
        const std::string layer = R"({"type": "objectgroup", "name": "Collisions", "objects": [
          {"id": 17, "name": "rock", "x": 0, "y": 0, "gid": 11}]})";
        // Not an error: Tiled opens such a map (tiled_scene warns and reads the rectangle).
        CHECK(error_of(map_text(layer, kTerrain)) == "no error");
    }
    SUBCASE("a 100000 x 100000 layer fails before its data is read") {
        const auto start = std::chrono::steady_clock::now();
        CHECK(error_of(map_text(R"({"type": "tilelayer", "name": "Huge", "width": 100000, "height": 100000,
          "encoding": "base64", "compression": "zlib", "data": ""})")) ==
              "m.tmj:6:12: /layers/0: layer 'Huge': 100000 x 100000 tiles is more than the 268435456 a layer may hold");
        CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
    }
    SUBCASE("a chunk outside the layer's declared bounds") {
        const std::string layer = R"({"type": "tilelayer", "name": "Ground", "startx": 0, "starty": 0, "width": 16, "height": 16,
          "chunks": [{"x": 15, "y": 15, "width": 1, "height": 1, "data": [0]}, {"x": 16, "y": 0, "width": 1, "height": 1, "data": [0]}]})";
        CHECK(error_of(map_text(layer, "", "\"infinite\": true,\n")) ==
              "m.tmj:8:80: /layers/0/chunks/1: layer 'Ground': chunk at (16, 0) lies outside the layer's declared bounds");
    }
    SUBCASE("a template naming another template") {
        const auto files = loader({{"a.tj", "{\"type\": \"template\",\n \"object\": {\"template\": \"b.tj\"}}"}});
        const std::string layer = R"({"type": "objectgroup", "name": "O", "objects": [{"id": 1, "template": "a.tj"}]})";
        CHECK(error_of(map_text(layer), files) ==
              "a.tj:2:25: /object/template: template 'a.tj' refers to another template ('b.tj')");
    }
    SUBCASE("a missing template") {
        const std::string layer = R"({"type": "objectgroup", "name": "O", "objects": [{"id": 1, "template": "a.tj"}]})";
        CHECK(error_of(map_text(layer)) ==
              "m.tmj:6:83: /layers/0/objects/0/template: template 'a.tj': cannot open: No such file or directory");
    }
    SUBCASE("a string where x belongs, a negative width, a bad point") {
        const std::string layer = R"({"type": "objectgroup", "name": "Objects", "objects": [
          {"id": 4, "name": "ok", "x": 1, "y": 2},
          {"id": 5, "x": "12", "y": 0}]})";
        CHECK(error_of(map_text(layer)) == "m.tmj:8:26: /layers/0/objects/1/x: object '#5' in layer 'Objects': x must be a number");
        const std::string width = R"({"type": "objectgroup", "name": "Objects", "objects": [{"id": 5, "x": 0, "y": 0, "width": -1}]})";
        CHECK(error_of(map_text(width)) ==
              "m.tmj:6:102: /layers/0/objects/0/width: object '#5' in layer 'Objects': width must not be negative");
        const std::string point = R"({"type": "objectgroup", "name": "L", "objects": [{"id": 2, "name": "p", "polygon": [{"x": 0}]}]})";
        CHECK(error_of(map_text(point)) ==
              "m.tmj:6:96: /layers/0/objects/0/polygon/0: object 'p#2' in layer 'L': y is missing");
    }
    SUBCASE("an unknown layer type; a layer without data") {
        CHECK(error_of(map_text(R"({"type": "bogus", "name": "B"})")) ==
              "m.tmj:6:21: /layers/0/type: layer 'B': unknown layer type 'bogus'");
        CHECK(error_of(map_text(tiles(R"("id": 1)"))) == "m.tmj:6:12: /layers/0: layer 'Ground': data is missing");
    }
    SUBCASE("group layers nested too deep") {
        std::string nested = R"({"type": "objectgroup", "name": "leaf"})";
        for (int k = 0; k < 100; ++k) nested = R"({"type": "group", "name": "g", "layers": [)" + nested + "]}";
        CHECK(error_of(map_text(nested)).find("layer 'g': group layers nest deeper than 64 levels") != std::string::npos);
    }
}

TEST_CASE("read_tmj: an image collection (columns 0, no image of its own) defines only the tiles it lists") {
    const std::string tilesets = R"({"firstgid": 1, "name": "props", "tilecount": 2, "columns": 0, "tilewidth": 32,
        "tileheight": 32, "tiles": [{"id": 0, "image": "a.png", "imagewidth": 16, "imageheight": 16},
                                    {"id": 5, "image": "b.png", "imagewidth": 32, "imageheight": 24}]},
        {"firstgid": 20, "name": "atlas", "tilecount": 4, "columns": 2, "image": "t.png", "tilewidth": 16, "tileheight": 16})";
    const Map map = read_tmj("m.tmj", map_text("", tilesets), no_files);
    REQUIRE(map.tilesets.size() == 2);
    CHECK(map.tilesets[0]->image_collection);
    CHECK_FALSE(map.tilesets[1]->image_collection);
    CHECK(tile_of(map.tilesets, 6).defined);
    CHECK_FALSE(tile_of(map.tilesets, 2).defined);
    CHECK(tile_of(map.tilesets, 23).defined);
    CHECK_FALSE(tile_of(map.tilesets, 24).defined);
}
