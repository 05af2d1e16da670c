// read_tmx(): Tiled's XML maps into the Tiled model — every tile data encoding Tiled writes,
// external tilesets and templates through an in-memory loader, infinite maps' chunks, and the
// errors hostile or broken maps give, word for word with file and line:column.
#include "map_data.hpp"
#include "maps/tiled_model.hpp"

#include <doctest/doctest.h>
#include <zlib.h>
#include <zstd.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

using collide::Error;
using collide::FileLoader;
using collide::Vec2;
namespace tiled = collide::detail::tiled;
using tiled::Layer;
using tiled::Map;
using tiled::ObjectKind;

namespace {

using namespace map_data;
using Files = std::map<std::string, std::string>;

// An in-memory file system that counts the reads of each file.
struct Disk {
    Files files;
    std::map<std::string, int> reads;
    FileLoader loader() {
        return [this](const std::string& path) {
            ++reads[path];
            const auto it = files.find(path);
            if (it == files.end()) throw Error(path, "", "cannot open: No such file or directory");
            return it->second;
        };
    }
};

Map read(const std::string& text, Disk& disk) { return tiled::read_tmx("maps/level.tmx", text, disk.loader()); }
Map read(const std::string& text) {
    Disk disk;
    return read(text, disk);
}

// The full text of the error reading `text` throws ("file:line:col: message").
std::string error_of(const std::string& text, Disk& disk) {
    try {
        read(text, disk);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}
std::string error_of(const std::string& text) {
    Disk disk;
    return error_of(text, disk);
}


// zlib data of `zeros` zero bytes, deflated a megabyte at a time.
std::string zlib_zeros(std::uint64_t zeros) {
    z_stream z{};
    REQUIRE(deflateInit2(&z, 9, Z_DEFLATED, MAX_WBITS, 9, Z_RLE) == Z_OK);
    const std::string chunk(1 << 20, '\0');
    std::string out, buffer(1 << 16, '\0');
    for (std::uint64_t left = zeros; left > 0;) {
        const auto n = static_cast<uInt>(std::min<std::uint64_t>(left, chunk.size()));
        left -= n;
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(chunk.data()));
        z.avail_in = n;
        do {
            z.next_out = reinterpret_cast<Bytef*>(buffer.data());
            z.avail_out = static_cast<uInt>(buffer.size());
            deflate(&z, left == 0 ? Z_FINISH : Z_NO_FLUSH);
            out.append(buffer.data(), buffer.size() - z.avail_out);
        } while (z.avail_out == 0 || (left == 0 && z.avail_in > 0));
    }
    deflateEnd(&z);
    return out;
}

// A 4 x 3 map with one tile layer whose <data> is `data` (attributes and content).
std::string map_with(const std::string& data, const std::string& size = "width=\"4\" height=\"3\"") {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<map version=\"1.10\" orientation=\"orthogonal\" width=\"4\" height=\"3\" tilewidth=\"16\" "
           "tileheight=\"16\" infinite=\"0\">\n"
           " <tileset firstgid=\"1\" name=\"t\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"8\"/>\n"
           " <layer id=\"1\" name=\"Ground\" " + size + ">\n"
           "  <data" + data + "</data>\n"
           " </layer>\n"
           "</map>\n";
}

constexpr std::uint32_t kH = tiled::kFlipH, kV = tiled::kFlipV, kD = tiled::kFlipD;
const std::vector<std::uint32_t> kGids = {1, 2 | kH, 0, 3, 0, 0, 4 | kV | kD, 1, 2, 3, 0, 8};

}  // namespace

TEST_CASE("tmx: tile data") {
    const std::string raw = little_endian(kGids);
    std::string xml = ">\n", csv = " encoding=\"csv\">\n";
    for (std::size_t i = 0; i < kGids.size(); ++i) {
        xml += kGids[i] == 0 ? "   <tile/>\n" : "   <tile gid=\"" + std::to_string(kGids[i]) + "\"/>\n";
        csv += std::to_string(kGids[i]) + (i + 1 < kGids.size() ? "," : "") + (i % 4 == 3 ? "\n" : "");
    }
    const std::map<std::string, std::string> encodings = {
        {"XML <tile>", xml},
        {"CSV", csv},
        {"base64", " encoding=\"base64\">\n   " + base64(raw) + "\n  "},
        {"base64 zlib", " encoding=\"base64\" compression=\"zlib\">" + base64(zlib(raw))},
        {"base64 gzip", " encoding=\"base64\" compression=\"gzip\">" + base64(gzip(raw))},
        {"base64 zstd", " encoding=\"base64\" compression=\"zstd\">" + base64(zstd(raw))},
    };
    for (const auto& [name, data] : encodings) {
        SUBCASE(name.c_str()) {
            const Map map = read(map_with(data));
            CHECK(map.orientation == "orthogonal");
            CHECK(map.tilewidth == 16);
            CHECK(map.tileheight == 16);
            CHECK_FALSE(map.infinite);
            REQUIRE(map.layers.size() == 1);
            const Layer& l = map.layers[0];
            CHECK(l.kind == Layer::Kind::Tiles);
            CHECK(l.id == 1);
            CHECK(l.name == "Ground");
            CHECK(l.where.line == 4);
            CHECK(l.where.column == 2);
            REQUIRE(l.blocks.size() == 1);
            CHECK(l.blocks[0].x == 0);
            CHECK(l.blocks[0].y == 0);
            CHECK(l.blocks[0].width == 4);
            CHECK(l.blocks[0].height == 3);
            CHECK(l.blocks[0].gids == kGids);  // the flip flags kept
        }
    }
}

TEST_CASE("tmx: layers and objects") {
    const std::string text =
        "<map orientation=\"isometric\" tilewidth=\"32\" tileheight=\"16\" infinite=\"0\">\n"  // 1
        " <tileset firstgid=\"1\" name=\"a\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"8\"/>\n"
        " <tileset firstgid=\"9\" name=\"b\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"4\"/>\n"
        " <group id=\"2\" name=\"World\" class=\"level\" offsetx=\"5\" offsety=\"-2.5\">\n"
        "  <properties><property name=\"collide_groups\" value=\"solid\"/>\n"  // 5
        "   <property name=\"n\" type=\"int\" value=\"3\"/></properties>\n"
        "  <objectgroup id=\"3\" name=\"Things\">\n"
        "   <object id=\"1\" name=\"box\" type=\"crate\" x=\"1.5\" y=\"2\" width=\"10\" height=\"20\" rotation=\"45\"/>\n"
        "   <object id=\"2\" class=\"ring\" x=\"0\" y=\"0\" width=\"8\" height=\"8\"><ellipse/></object>\n"
        "   <object id=\"3\" x=\"4\" y=\"5\"><point/></object>\n"  // 10
        "   <object id=\"4\" x=\"10\" y=\"10\"><polygon points=\"0,0 16,0 8,-12.5\"/></object>\n"
        "   <object id=\"5\" x=\"0\" y=\"0\"><polyline points=\" 0,0  3,4 \"/></object>\n"
        "   <object id=\"6\" x=\"0\" y=\"0\" width=\"40\" height=\"10\"><text>Hello</text></object>\n"
        "   <object id=\"7\" x=\"0\" y=\"0\" width=\"10\" height=\"30\"><capsule/></object>\n"
        "   <object id=\"8\" gid=\"2147483658\" x=\"0\" y=\"16\" width=\"16\" height=\"16\"/>\n"  // 15
        "   <object id=\"9\" gid=\"1610612739\" x=\"0\" y=\"16\">\n"
        "    <properties>\n"
        "     <property name=\"note\">two\nlines</property>\n"
        "     <property name=\"flag\" type=\"bool\" value=\"true\"/>\n"
        "     <property name=\"s\" type=\"string\" value=\"x\"/>\n"  // 20
        "    </properties>\n"
        "   </object>\n"
        "  </objectgroup>\n"
        "  <group name=\"Inner\"><imagelayer id=\"5\" name=\"Sky\"/></group>\n"
        " </group>\n"  // 25
        "</map>\n";
    const Map map = read(text);
    CHECK(map.orientation == "isometric");
    CHECK(map.tilewidth == 32);
    CHECK(map.tileheight == 16);
    CHECK(map.where.file == "maps/level.tmx");
    CHECK(map.where.line == 1);
    CHECK(map.where.column == 1);
    REQUIRE(map.tilesets.size() == 2);
    CHECK(map.tilesets[1]->firstgid == 9);
    CHECK(map.tilesets[1]->where.line == 3);

    REQUIRE(map.layers.size() == 1);
    const Layer& world = map.layers[0];
    CHECK(world.kind == Layer::Kind::Group);
    CHECK(world.id == 2);
    CHECK(world.cls == "level");
    CHECK(world.offset == Vec2{5, -2.5});
    CHECK(world.properties == tiled::Properties{{"collide_groups", "solid"}});
    REQUIRE(world.layers.size() == 2);
    CHECK(world.layers[1].kind == Layer::Kind::Group);
    REQUIRE(world.layers[1].layers.size() == 1);
    CHECK(world.layers[1].layers[0].kind == Layer::Kind::Image);
    CHECK(world.layers[1].layers[0].name == "Sky");

    const Layer& things = world.layers[0];
    CHECK(things.kind == Layer::Kind::Objects);
    REQUIRE(things.objects.size() == 9);
    const auto& o = things.objects;
    SUBCASE("rectangle") {
        CHECK(o[0].id == 1);
        CHECK(o[0].name == "box");
        CHECK(o[0].cls == "crate");
        CHECK(o[0].kind == ObjectKind::Rect);
        CHECK(o[0].x == 1.5);
        CHECK(o[0].y == 2);
        CHECK(o[0].width == 10);
        CHECK(o[0].height == 20);
        CHECK(o[0].rotation == 45);
        CHECK(o[0].where.file.empty());  // the map's own objects leave the file unsaid
        CHECK(o[0].where.line == 8);
        CHECK(o[0].where.column == 4);
    }
    SUBCASE("shapes") {
        CHECK(o[1].kind == ObjectKind::Ellipse);
        CHECK(o[1].cls == "ring");
        CHECK(o[2].kind == ObjectKind::Point);
        CHECK(o[3].kind == ObjectKind::Polygon);
        CHECK(o[3].points == std::vector<Vec2>{{0, 0}, {16, 0}, {8, -12.5}});
        CHECK(o[4].kind == ObjectKind::Polyline);
        CHECK(o[4].points == std::vector<Vec2>{{0, 0}, {3, 4}});
        CHECK(o[5].kind == ObjectKind::Text);
        CHECK(o[6].kind == ObjectKind::Capsule);
        CHECK(o[6].height == 30);
    }
    SUBCASE("tile objects: the flip flags split from the gid") {
        CHECK(o[7].kind == ObjectKind::Tile);
        CHECK((o[7].tile.tileset == map.tilesets[1]));  // gid 10: the second tileset's tile 1
        CHECK(o[7].tile.id == 1);
        CHECK(o[7].tile.flips == tiled::kFlipH);
        CHECK(o[8].kind == ObjectKind::Tile);
        CHECK((o[8].tile.tileset == map.tilesets[0]));  // gid 3, flipped vertically and diagonally
        CHECK(o[8].tile.id == 2);
        CHECK(o[8].tile.flips == (tiled::kFlipV | tiled::kFlipD));
    }
    SUBCASE("string properties only, multi-line ones from the element's text") {
        CHECK(o[8].properties == tiled::Properties{{"note", "two\nlines"}, {"s", "x"}});
    }
}

TEST_CASE("tmx: external tilesets and templates") {
    Disk disk;
    disk.files["maps/tiles/terrain.tsx"] =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<tileset version=\"1.10\" name=\"terrain\" tilewidth=\"16\" tileheight=\"24\" tilecount=\"8\" columns=\"4\"\n"
        "         objectalignment=\"bottom\">\n"
        " <tileoffset x=\"2\" y=\"-4\"/>\n"
        " <image source=\"terrain.png\" width=\"64\" height=\"48\"/>\n"  // 5
        " <tile id=\"5\" type=\"wall\">\n"
        "  <objectgroup draworder=\"index\" id=\"2\">\n"
        "   <object id=\"1\" x=\"0\" y=\"8\" width=\"16\" height=\"16\"/>\n"
        "   <object id=\"2\" x=\"0\" y=\"0\"><polygon points=\"0,0 16,0 0,8\"/></object>\n"
        "  </objectgroup>\n"  // 10
        " </tile>\n"
        " <tile id=\"2\"><animation><frame tileid=\"0\" duration=\"100\"/></animation></tile>\n"
        " <tile id=\"1\"><image source=\"big.png\" width=\"32\" height=\"48\"/></tile>\n"
        " <tile id=\"3\" class=\"water\"/>\n"
        "</tileset>\n";
    disk.files["maps/crate.tx"] =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<template>\n"
        " <tileset firstgid=\"1\" source=\"tiles/terrain.tsx\"/>\n"
        " <object name=\"crate\" type=\"box\" width=\"16\" height=\"24\" gid=\"6\">\n"
        "  <properties>\n"
        "   <property name=\"collide_groups\" value=\"pushable\"/>\n"
        "   <property name=\"hp\" value=\"3\"/>\n"
        "  </properties>\n"
        " </object>\n"
        "</template>\n";
    std::string text =
        "<map orientation=\"orthogonal\" tilewidth=\"16\" tileheight=\"16\">\n"
        " <tileset firstgid=\"1\" name=\"inline\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"10\"/>\n"
        " <tileset firstgid=\"11\" source=\"tiles/terrain.tsx\"/>\n"
        " <objectgroup id=\"1\" name=\"Objects\">\n";
    for (int i = 0; i < 1000; ++i)
        text += "  <object id=\"" + std::to_string(100 + i) + "\" template=\"crate.tx\" x=\"" + std::to_string(i) +
                "\" y=\"1\"/>\n";
    text +=
        "  <object id=\"7\" template=\"crate.tx\" name=\"big\" x=\"1\" y=\"2\" width=\"32\">\n"
        "   <properties><property name=\"hp\" value=\"9\"/><property name=\"color\" value=\"red\"/></properties>\n"
        "  </object>\n"
        "  <object id=\"8\" template=\"crate.tx\" x=\"0\" y=\"0\"><ellipse/></object>\n"
        "  <object id=\"9\" template=\"crate.tx\" x=\"0\" y=\"0\" gid=\"13\"/>\n"
        " </objectgroup>\n"
        "</map>\n";
    const Map map = read(text, disk);
    REQUIRE(map.tilesets.size() == 2);
    const auto& terrain = map.tilesets[1];
    const auto& objects = map.layers.at(0).objects;
    REQUIRE(objects.size() == 1003);

    SUBCASE("the external tileset") {
        CHECK(terrain->name == "terrain");
        CHECK(terrain->firstgid == 11);
        CHECK(terrain->tilewidth == 16);
        CHECK(terrain->tileheight == 24);
        CHECK(terrain->tilecount == 8);
        CHECK(terrain->alignment == tiled::Alignment::Bottom);
        CHECK(terrain->tileoffset == Vec2{2, -4});
        CHECK(terrain->where.file == "maps/tiles/terrain.tsx");
        CHECK(terrain->where.line == 2);
        REQUIRE(terrain->tiles.size() == 3);  // tile 2 has only an animation
        CHECK(terrain->tiles[0].id == 1);
        CHECK(terrain->tiles[0].width == 32);
        CHECK(terrain->tiles[0].height == 48);
        CHECK(terrain->tiles[1].id == 3);
        CHECK(terrain->tiles[1].cls == "water");
        const tiled::Tile& wall = terrain->tiles[2];
        CHECK(wall.id == 5);
        CHECK(wall.cls == "wall");
        REQUIRE(wall.shapes.size() == 2);
        CHECK(wall.shapes[0].kind == ObjectKind::Rect);
        CHECK(wall.shapes[0].y == 8);
        CHECK(wall.shapes[1].kind == ObjectKind::Polygon);
        CHECK(wall.shapes[1].points == std::vector<Vec2>{{0, 0}, {16, 0}, {0, 8}});
        CHECK(wall.shapes[1].where.file == "maps/tiles/terrain.tsx");
        CHECK(wall.shapes[1].where.line == 9);
    }
    SUBCASE("a template's defaults, its gid against its own tileset") {
        const tiled::Object& c = objects[0];
        CHECK(c.id == 100);
        CHECK(c.name == "crate");
        CHECK(c.cls == "box");
        CHECK(c.x == 0);
        CHECK(c.y == 1);
        CHECK(c.width == 16);
        CHECK(c.height == 24);
        CHECK(c.kind == ObjectKind::Tile);
        REQUIRE((c.tile.tileset != nullptr));
        CHECK(c.tile.tileset->name == "terrain");
        CHECK(c.tile.tileset->firstgid == 1);  // the template's firstgid, not the map's 11
        CHECK(c.tile.id == 5);
        CHECK(c.properties == tiled::Properties{{"collide_groups", "pushable"}, {"hp", "3"}});
        CHECK(c.where.file.empty());  // placed in the map: the map's
        CHECK(c.where.line == 5);
        CHECK(objects[999].x == 999);
    }
    SUBCASE("the instance's attributes override, properties merge by name") {
        const tiled::Object& big = objects[1000];
        CHECK(big.id == 7);
        CHECK(big.name == "big");
        CHECK(big.x == 1);
        CHECK(big.y == 2);
        CHECK(big.width == 32);
        CHECK(big.height == 24);
        CHECK(big.kind == ObjectKind::Tile);
        CHECK(big.properties == tiled::Properties{{"collide_groups", "pushable"}, {"hp", "9"}, {"color", "red"}});
    }
    SUBCASE("a shape or gid on the instance replaces the template's") {
        CHECK(objects[1001].kind == ObjectKind::Ellipse);
        CHECK((objects[1001].tile.tileset == nullptr));
        CHECK(objects[1002].kind == ObjectKind::Tile);
        CHECK((objects[1002].tile.tileset == terrain));  // gid 13 against the map's tilesets
        CHECK(objects[1002].tile.id == 2);
    }
    SUBCASE("each file read once") {
        CHECK(disk.reads == std::map<std::string, int>{{"maps/crate.tx", 1}, {"maps/tiles/terrain.tsx", 1}});
    }
}

TEST_CASE("tmx: a template's tileset is named relative to the template") {
    Disk disk;
    disk.files["maps/objs/door.tx"] =
        "<template><tileset firstgid=\"3\" source=\"doors.tsx\"/><object gid=\"4\" width=\"8\"/></template>";
    disk.files["maps/objs/doors.tsx"] = "<tileset name=\"doors\" tilecount=\"2\"/>";
    const Map map = read("<map><objectgroup name=\"O\"><object id=\"2\" template=\"objs/door.tx\" x=\"3\"/></objectgroup></map>",
                         disk);
    const tiled::Object& door = map.layers.at(0).objects.at(0);
    CHECK(door.kind == ObjectKind::Tile);
    REQUIRE((door.tile.tileset != nullptr));
    CHECK(door.tile.tileset->name == "doors");
    CHECK(door.tile.tileset->where.file == "maps/objs/doors.tsx");
    CHECK(door.tile.id == 1);
    CHECK(door.width == 8);
    CHECK(door.x == 3);
    CHECK(map.tilesets.empty());
}

TEST_CASE("tmx: infinite maps") {
    const std::string text =
        "<map orientation=\"orthogonal\" tilewidth=\"8\" tileheight=\"8\" infinite=\"1\">\n"
        " <layer id=\"1\" name=\"Ground\" width=\"4\" height=\"2\">\n"
        "  <data encoding=\"csv\">\n"
        "   <chunk x=\"-16\" y=\"0\" width=\"2\" height=\"1\">1,2</chunk>\n"
        "   <chunk x=\"0\" y=\"-16\" width=\"1\" height=\"2\">0,\n3</chunk>\n"
        "  </data>\n"
        " </layer>\n"
        " <layer id=\"2\" name=\"Empty\" width=\"4\" height=\"2\"><data encoding=\"csv\"/></layer>\n"
        "</map>\n";
    const Map map = read(text);
    CHECK(map.infinite);
    REQUIRE(map.layers.size() == 2);
    const auto& blocks = map.layers[0].blocks;
    REQUIRE(blocks.size() == 2);
    CHECK(blocks[0].x == -16);
    CHECK(blocks[0].y == 0);
    CHECK(blocks[0].width == 2);
    CHECK(blocks[0].height == 1);
    CHECK(blocks[0].gids == std::vector<std::uint32_t>{1, 2});
    CHECK(blocks[1].x == 0);
    CHECK(blocks[1].y == -16);
    CHECK(blocks[1].gids == std::vector<std::uint32_t>{0, 3});
    CHECK(map.layers[1].blocks.empty());
}

TEST_CASE("tmx: errors") {
    SUBCASE("bad XML") {
        CHECK(error_of("<map>\n <layer name=\"a\">\n</map>\n") ==
              "maps/level.tmx:3:3: not well-formed XML: Start-end tags mismatch");
    }
    SUBCASE("not a map") {
        CHECK(error_of("<tileset/>") == "maps/level.tmx:1:1: the root element is <tileset>, not <map>");
    }
    SUBCASE("a missing tileset file") {
        CHECK(error_of("<map>\n  <tileset firstgid=\"1\" source=\"terrain.tsx\"/>\n</map>") ==
              "maps/level.tmx:2:3: tileset 'terrain.tsx': cannot open: No such file or directory");
    }
    SUBCASE("bad XML in a tileset file") {
        Disk disk;
        disk.files["maps/terrain.tsx"] = "<tileset>\n<tile id=\"1\">\n</tileset>";
        CHECK(error_of("<map><tileset firstgid=\"1\" source=\"terrain.tsx\"/></map>", disk) ==
              "maps/terrain.tsx:3:3: not well-formed XML: Start-end tags mismatch");
    }
    SUBCASE("corrupt zlib") {
        CHECK(error_of(map_with(" encoding=\"base64\" compression=\"zlib\">" + base64("not zlib at all"))) ==
              "maps/level.tmx:5:3: layer 'Ground': zlib data is corrupt (incorrect header check)");
    }
    SUBCASE("base64 with garbage") {
        CHECK(error_of(map_with(" encoding=\"base64\">AAAA!AAA")) ==
              "maps/level.tmx:5:3: layer 'Ground': base64 data holds '!' at byte 4");
    }
    SUBCASE("unknown encoding") {
        CHECK(error_of(map_with(" encoding=\"hex\">00")) == "maps/level.tmx:5:3: layer 'Ground': unknown encoding 'hex'");
    }
    SUBCASE("unknown compression") {
        CHECK(error_of(map_with(" encoding=\"base64\" compression=\"lz4\">AAAA")) ==
              "maps/level.tmx:5:3: layer 'Ground': unknown compression 'lz4'");
    }
    SUBCASE("too few or too many tiles") {
        CHECK(error_of(map_with(" encoding=\"csv\">1,2,3")) ==
              "maps/level.tmx:5:3: layer 'Ground': the data holds 3 tiles, the layer declares 12");
        CHECK(error_of(map_with("><tile/><tile/>")) ==
              "maps/level.tmx:5:3: layer 'Ground': the data holds 2 tiles, the layer declares 12");
        std::string tiles;
        for (int i = 0; i < 13; ++i) tiles += "<tile/>";
        CHECK(error_of(map_with(">" + tiles)) ==
              "maps/level.tmx:5:93: layer 'Ground': the data holds more than the 12 tiles the layer declares");
    }
    SUBCASE("zlib and gzip data one tile short or long: libdeflate refuses it, zlib words the error") {
        std::vector<std::uint32_t> short_gids(kGids.begin(), kGids.end() - 1), long_gids = kGids;
        long_gids.push_back(1);
        for (const auto& [name, pack] : {std::make_pair("zlib", &zlib), std::make_pair("gzip", &gzip)}) {
            const std::string head = std::string(" encoding=\"base64\" compression=\"") + name + "\">";
            CHECK(error_of(map_with(head + base64(pack(little_endian(short_gids))))) ==
                  "maps/level.tmx:5:3: layer 'Ground': the data holds 11 tiles, the layer declares 12");
            CHECK(error_of(map_with(head + base64(pack(little_endian(long_gids))))) ==
                  "maps/level.tmx:5:3: layer 'Ground': the data holds more than the 12 tiles the layer declares");
        }
    }
    SUBCASE("a layer's data decodes beside the objects after it, and its error still comes first") {
        // Two layers of corrupt data and a bad object between them: the first layer's error is
        // the one said, as it was when layers were decoded in turn.
        const std::string bad = " encoding=\"base64\" compression=\"zlib\">" + base64("not zlib at all");
        const std::string text = "<map orientation=\"orthogonal\" tilewidth=\"16\" tileheight=\"16\">\n"
                                 " <layer id=\"1\" name=\"A\" width=\"4\" height=\"3\"><data" + bad + "</data></layer>\n"
                                 " <objectgroup id=\"2\" name=\"O\"><object id=\"1\" x=\"oops\"/></objectgroup>\n"
                                 " <layer id=\"3\" name=\"B\" width=\"4\" height=\"3\"><data" + bad + "</data></layer>\n"
                                 "</map>\n";
        CHECK(error_of(text) == "maps/level.tmx:2:46: layer 'A': zlib data is corrupt (incorrect header check)");
        // Without the first layer's fault, the object's is first.
        std::string fixed = text;
        fixed.replace(fixed.find(bad), bad.size(), " encoding=\"csv\">0,0,0,0,0,0,0,0,0,0,0,0");
        CHECK(error_of(fixed) == "maps/level.tmx:3:31: object '#1' in layer 'O': x is 'oops', not a number");
    }
    SUBCASE("a 100000 x 100000 layer declared: refused before anything is allocated") {
        CHECK(error_of(map_with(" encoding=\"base64\" compression=\"zlib\">" + base64(zlib(std::string(48, '\0'))),
                                "width=\"100000\" height=\"100000\"")) ==
              "maps/level.tmx:4:2: layer 'Ground' declares 100000 x 100000 tiles, more than the 268435456 collide reads");
        CHECK(error_of(map_with(" encoding=\"csv\">", "width=\"0\" height=\"3\"")) ==
              "maps/level.tmx:4:2: layer 'Ground' declares 0 x 3 tiles, none at all");
        CHECK(error_of(map_with(" encoding=\"csv\">", "width=\"-4\" height=\"3\"")) ==
              "maps/level.tmx:4:2: layer 'Ground': width is '-4', not a whole number from 0 to 4294967295");
    }
    SUBCASE("infinite maps: chunks beyond the limit, one by one or together") {
        const std::string head = "<map infinite=\"1\">\n<layer name=\"L\"><data encoding=\"csv\">\n";
        CHECK(error_of(head + "<chunk x=\"0\" y=\"0\" width=\"16\" height=\"4294967295\"/></data></layer></map>") ==
              "maps/level.tmx:3:1: layer 'L': the chunk at 0,0 declares 16 x 4294967295 tiles, more than the 268435456 "
              "collide reads");
        CHECK(error_of(head + "<chunk x=\"0\" y=\"0\" width=\"16384\" height=\"16384\"/>\n"
                              "<chunk x=\"0\" y=\"1\" width=\"1\" height=\"1\"/></data></layer></map>") ==
              "maps/level.tmx:4:1: layer 'L': its chunks declare more than the 268435456 tiles collide reads");
    }
    SUBCASE("a zlib bomb fails quickly") {
        const std::string bomb = zlib_zeros(std::uint64_t{1100} << 20);  // inflates to 1.1 GB
        CHECK(bomb.size() < (std::size_t{2} << 20));
        const auto start = std::chrono::steady_clock::now();
        CHECK(error_of(map_with(" encoding=\"base64\" compression=\"zlib\">" + base64(bomb))) ==
              "maps/level.tmx:5:3: layer 'Ground': the data holds more than the 12 tiles the layer declares");
        CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
    }
    SUBCASE("a negative size, as the TMJ reader refuses it (fuzz_map)") {
        CHECK(error_of("<map>\n <objectgroup name=\"O\">\n  <object id=\"2\" width=\"12\" height=\"-12\"><ellipse/></object>"
                       "</objectgroup></map>") ==
              "maps/level.tmx:3:3: object '#2' in layer 'O': height is '-12', must not be negative");
    }
    SUBCASE("a gid beyond every tileset") {
        const std::string head = "<map>\n <tileset firstgid=\"5\" name=\"t\" tilecount=\"4\"/>\n"
                                 " <objectgroup name=\"Collisions\">\n";
        // Not an error: Tiled opens such a map (tiled_scene warns and reads the rectangle).
        const Map beyond = read(head + "  <object id=\"17\" name=\"rock\" gid=\"9\"/></objectgroup></map>");
        CHECK_FALSE(beyond.layers.at(0).objects.at(0).tile.defined);
        CHECK(beyond.layers.at(0).objects.at(0).tile.gid == 9);
        const Map below = read(head + "  <object id=\"3\" gid=\"2147483652\"/></objectgroup></map>");
        CHECK_FALSE(below.layers.at(0).objects.at(0).tile.defined);
        CHECK(below.layers.at(0).objects.at(0).tile.flips == tiled::kFlipH);
        CHECK(error_of(head + "  <object id=\"3\" gid=\"4294967296\"/></objectgroup></map>") ==
              "maps/level.tmx:4:3: object '#3' in layer 'Collisions': gid is '4294967296', not a whole number from 0 "
              "to 4294967295");
    }
    SUBCASE("numbers") {
        const std::string head = "<map>\n<objectgroup name=\"Objects\">\n";
        CHECK(error_of(head + "<object id=\"5\" x=\"abc\"/></objectgroup></map>") ==
              "maps/level.tmx:3:1: object '#5' in layer 'Objects': x is 'abc', not a number");
        CHECK(error_of(head + "<object id=\"5\" name=\"n\" y=\"1e999\"/></objectgroup></map>") ==
              "maps/level.tmx:3:1: object 'n#5' in layer 'Objects': y is '1e999', not a finite number");
        CHECK(error_of(head + "<object id=\"5\" width=\"nan\"/></objectgroup></map>") ==
              "maps/level.tmx:3:1: object '#5' in layer 'Objects': width is 'nan', not a finite number");
        CHECK(error_of(head + "<object id=\"5\">\n <polygon points=\"0,0 1,x\"/></object></objectgroup></map>") ==
              "maps/level.tmx:4:2: object '#5' in layer 'Objects': points holds '1,x', not x,y numbers");
        CHECK(error_of(head + "<object id=\"-1\"/></objectgroup></map>") ==
              "maps/level.tmx:3:1: object in layer 'Objects': id is '-1', not a whole number from 0 to 4294967295");
    }
    SUBCASE("templates") {
        Disk disk;
        disk.files["maps/a.tx"] = "<template>\n<object template=\"b.tx\"/></template>";
        disk.files["maps/b.tx"] = "<template><tileset firstgid=\"1\" source=\"t.tsx\"/><object/></template>";
        disk.files["maps/t.tsx"] =
            "<tileset><tile id=\"0\"><objectgroup><object template=\"b.tx\"/></objectgroup></tile></tileset>";
        const std::string head = "<map>\n<objectgroup name=\"Objects\">\n";
        CHECK(error_of(head + "<object id=\"1\" template=\"a.tx\"/></objectgroup></map>", disk) ==
              "maps/a.tx:2:1: template 'a.tx' refers to another template ('b.tx')");
        CHECK(error_of(head + "<object id=\"1\" template=\"b.tx\"/></objectgroup></map>", disk) ==
              "maps/t.tsx:1:36: template 'b.tx' names a file that names it again");
        CHECK(error_of(head + "<object id=\"1\" template=\"c.tx\"/></objectgroup></map>", disk) ==
              "maps/level.tmx:3:1: template 'c.tx': cannot open: No such file or directory");
    }
}

TEST_CASE("tmx: an image collection (columns 0, no image of its own) defines only the tiles it lists") {
    const Map map = read(
        "<map>\n"
        " <tileset firstgid=\"1\" name=\"props\" tilecount=\"2\" columns=\"0\">\n"
        "  <tile id=\"0\"><image width=\"16\" height=\"16\" source=\"a.png\"/></tile>\n"
        "  <tile id=\"5\"><image width=\"32\" height=\"24\" source=\"b.png\"/></tile>\n"
        " </tileset>\n"
        " <tileset firstgid=\"20\" name=\"atlas\" tilecount=\"4\" columns=\"2\"><image source=\"t.png\"/></tileset>\n"
        "</map>");
    REQUIRE(map.tilesets.size() == 2);
    CHECK(map.tilesets[0]->image_collection);
    CHECK_FALSE(map.tilesets[1]->image_collection);
    CHECK(tiled::tile_of(map.tilesets, 6).defined);         // tile 5, past tilecount
    CHECK_FALSE(tiled::tile_of(map.tilesets, 2).defined);   // tile 1, removed
    CHECK(tiled::tile_of(map.tilesets, 23).defined);        // atlas tile 3
    CHECK_FALSE(tiled::tile_of(map.tilesets, 24).defined);  // atlas tile 4: past its tilecount
}
