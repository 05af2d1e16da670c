// A Tiled map as a scene (tiled_scene.cpp): the conversion of SPEC §1.5 on maps built in
// the model directly, so that each rule is seen apart from the file formats (test_tmx.cpp and
// test_tmj.cpp read those). Also the tile data decoding shared by both formats.
#include "maps/layer_data.hpp"
#include "maps/tile_chunks.hpp"
#include "maps/tiled_model.hpp"
#include "map_data.hpp"

#include <collide/check.hpp>
#include <collide/maps.hpp>
#include <collide/scene.hpp>

#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <random>

using namespace collide;
using namespace collide::detail::tiled;

namespace {

Map orthogonal_map() {
    Map m;
    m.orientation = "orthogonal";
    m.tilewidth = 16;
    m.tileheight = 16;
    return m;
}

// A tileset of 16 x 16 tiles from gid 1 whose tile 0 has one collision shape: the strip
// x 0..4 along the tile's left side.
std::shared_ptr<Tileset> strip_tileset() {
    auto set = std::make_shared<Tileset>();
    set->name = "walls";
    set->firstgid = 1;
    set->tilecount = 4;
    set->tilewidth = 16;
    set->tileheight = 16;
    Tile t;
    t.id = 0;
    t.cls = "wall";
    Object strip;
    strip.kind = ObjectKind::Rect;
    strip.width = 4;
    strip.height = 16;
    t.shapes.push_back(strip);
    set->tiles.push_back(t);
    return set;
}

Layer tile_layer(std::string name, std::uint32_t w, std::uint32_t h, std::vector<std::uint32_t> gids) {
    Layer l;
    l.kind = Layer::Kind::Tiles;
    l.name = std::move(name);
    TileBlock b;
    b.width = w;
    b.height = h;
    b.gids.assign(gids.begin(), gids.end());
    l.blocks.push_back(std::move(b));
    return l;
}

Object object(std::uint32_t id, std::string name, ObjectKind kind, double x, double y, double w, double h) {
    Object o;
    o.id = id;
    o.name = std::move(name);
    o.kind = kind;
    o.x = x;
    o.y = y;
    o.width = w;
    o.height = h;
    return o;
}

Layer object_layer(std::string name, std::vector<Object> objects) {
    Layer l;
    l.kind = Layer::Kind::Objects;
    l.name = std::move(name);
    l.objects = std::move(objects);
    return l;
}

Scene scene_of(const Map& m) { return read_map_scene(tiled_scene(m, "level.tmx")); }

const SceneShape& shape_named(const Scene& s, const std::string& id) {
    for (const SceneShape& sh : s.shapes)
        if (sh.id == id) return sh;
    FAIL("no shape " << id);
    throw;
}

}  // namespace

TEST_CASE("a tile layer is a grid of its non-empty cells, at its offset, with outside empty") {
    Map m = orthogonal_map();
    m.tilesets.push_back(strip_tileset());
    Layer l = tile_layer("Ground", 3, 2, {0, 2, 0, 3, 0x80000003u, 0});
    l.cls = "terrain";
    l.offset = Vec2{8, -4};
    Layer group;
    group.kind = Layer::Kind::Group;
    group.name = "World";
    group.offset = Vec2{100, 0};
    group.layers.push_back(l);
    m.layers.push_back(group);

    const Scene s = scene_of(m);
    REQUIRE(s.grids.size() == 1);
    const Grid& g = s.grids[0];
    CHECK(g.id == "World/Ground");
    CHECK(g.groups == std::vector<std::string>{"World/Ground", "terrain"});
    CHECK(g.origin == Vec2{108, -4});
    CHECK(g.tile == Vec2{16, 16});
    CHECK(!g.outside_solid);
    CHECK(g.cols == 3);
    CHECK(g.rows == 2);
    CHECK(!g.solid(0, 0));
    CHECK(g.solid(1, 0));
    CHECK(g.solid(0, 1));
    CHECK(g.solid(1, 1));  // a flipped tile is a tile
    CHECK(!g.solid(2, 1));
    CHECK(s.shapes.empty());  // tiles 2 and 3 have no collision shapes
}

TEST_CASE("tiles with collision shapes become compounds, flipped as Tiled draws them") {
    Map m = orthogonal_map();
    m.tilesets.push_back(strip_tileset());
    // gid 1 is the strip tile: plain at (0, 0), flipped horizontally at (1, 0), diagonally
    // at (2, 0), vertically at (0, 1).
    m.layers.push_back(tile_layer("Walls", 3, 2, {1, 1 | kFlipH, 1 | kFlipD, 1 | kFlipV, 0, 0}));
    const Scene s = scene_of(m);
    REQUIRE(s.shapes.size() == 4);

    const auto part = [&](const std::string& id) { return std::get<Rect>(std::get<Compound>(shape_named(s, id).shape).parts.at(0)); };
    SUBCASE("plain: the left strip of its cell") {
        CHECK(part("Walls@0,0").min == Vec2{0, 0});
        CHECK(part("Walls@0,0").max == Vec2{4, 16});
    }
    SUBCASE("flipped horizontally: the right strip") {
        CHECK(part("Walls@1,0").min == Vec2{28, 0});
        CHECK(part("Walls@1,0").max == Vec2{32, 16});
    }
    SUBCASE("flipped diagonally (x and y swapped): the top strip") {
        CHECK(part("Walls@2,0").min == Vec2{32, 0});
        CHECK(part("Walls@2,0").max == Vec2{48, 4});
    }
    SUBCASE("flipped vertically: a full-height strip stays where it was") {
        CHECK(part("Walls@0,1").min == Vec2{0, 16});
        CHECK(part("Walls@0,1").max == Vec2{4, 32});
    }
    CHECK(shape_named(s, "Walls@0,0").groups == std::vector<std::string>{"Walls", "tile-collision", "wall"});
}

TEST_CASE("a tile with collision shapes is its shapes, not a solid cell: a coin on a ledge meets the ledge") {
    // Tile 0 is a 4 px ledge along the top of its cell (y 0..4); tile 1 has no shapes. Layer
    // Walls holds the ledge at cell (0, 0) and a plain tile at (1, 0).
    Map m = orthogonal_map();
    auto set = strip_tileset();
    set->tiles[0].shapes[0].width = 16;
    set->tiles[0].shapes[0].height = 4;
    m.tilesets.push_back(set);
    m.layers.push_back(tile_layer("Walls", 2, 1, {1, 2}));
    // A coin resting on the ledge (its bottom at y = 0), one in the ledge's cell under the
    // ledge, one inside the plain tile.
    m.layers.push_back(object_layer("Pickups", {object(1, "on-ledge", ObjectKind::Ellipse, 5, -6, 6, 6),
                                                object(2, "under-ledge", ObjectKind::Ellipse, 5, 6, 6, 6),
                                                object(3, "in-wall", ObjectKind::Ellipse, 21, 5, 6, 6)}));
    const Scene s = scene_of(m);
    REQUIRE(s.grids.size() == 1);
    CHECK_FALSE(s.grids[0].solid(0, 0));  // the ledge's cell: its compound stands for it
    CHECK(s.grids[0].solid(1, 0));
    CheckOptions o;
    o.pairs = std::vector<PairSpec>{parse_pair_spec("Pickups:Walls")};
    const SceneResult r = collide::check(s, o);
    std::vector<std::string> got;
    for (const Collision& c : r.collisions)
        got.push_back(object_id(s, c.a) + " x " + object_id(s, c.b) + " " + std::string(relation_name(c.relation)));
    // The coin on the ledge touches the ledge once (not the whole cell, not twice); the one
    // under it meets nothing; the one in the plain tile meets the grid.
    CHECK(got == std::vector<std::string>{"on-ledge x Walls@0,0 touch", "in-wall x Walls overlap"});
}

TEST_CASE("a gid that names no tile is a solid cell, or as a tile object its rectangle, with a warning") {
    // What Tiled opens, collide reads (SPEC §1.5). The tileset holds gids 1 to 4.
    Map m = orthogonal_map();
    const auto set = strip_tileset();
    m.tilesets.push_back(set);
    m.layers.push_back(tile_layer("Ground", 3, 1, {2, 9, 7}));
    Object lost = object(5, "lost", ObjectKind::Tile, 40, 60, 16, 8);
    lost.tile = tile_of(m.tilesets, 9 | kFlipH);
    CHECK_FALSE(lost.tile.defined);
    m.layers.push_back(object_layer("Props", {lost}));
    const MapImport imported = tiled_scene(m, "level.tmx");
    CHECK(imported.warnings ==
          std::vector<std::string>{"level.tmx: layer 'Ground': 2 tiles, the first (1, 0), gid 9, name no tile of its tileset: read as solid",
                                   "level.tmx: object 'lost#5' in layer 'Props': gid 9 names no tile of its tileset: read as its rectangle"});
    const Scene s = read_map_scene(imported);
    CHECK(s.grids[0].solid(0, 0));
    CHECK(s.grids[0].solid(1, 0));
    CHECK(s.grids[0].solid(2, 0));
    const Rect rect = std::get<Rect>(shape_named(s, "lost").shape);
    CHECK(rect.min == Vec2{40, 52});  // anchored bottom-left, as every tile object
    CHECK(rect.max == Vec2{56, 60});
    // Below every firstgid there is no tileset at all; an image collection defines its listed tiles.
    CHECK_FALSE(tile_of(m.tilesets, 0x80000000u).defined);
    auto images = std::make_shared<Tileset>();
    images->firstgid = 10;
    images->tilecount = 2;
    images->image_collection = true;
    images->tiles.resize(2);
    images->tiles[0].id = 0;
    images->tiles[1].id = 5;  // tiles 1 to 4 were removed
    m.tilesets.push_back(images);
    CHECK(tile_of(m.tilesets, 10).defined);
    CHECK_FALSE(tile_of(m.tilesets, 11).defined);  // below tilecount, but removed
    CHECK(tile_of(m.tilesets, 15).defined);        // past tilecount, but listed
    CHECK_FALSE(tile_of(m.tilesets, 16).defined);
    CHECK(tile_of(m.tilesets, 16).tileset.get() == images.get());
}

TEST_CASE("a collision tile at the highest gid takes memory for itself, not for every gid below") {
    // fuzz_map collision-tile-at-highest-gid-allocates-4gib: a table indexed by gid took 16
    // bytes for each of the 2^28 gids below it.
    Map m = orthogonal_map();
    auto set = strip_tileset();
    set->firstgid = kGidMask;
    set->tilecount = 1;
    m.tilesets.push_back(set);
    m.layers.push_back(tile_layer("Walls", 2, 1, {kGidMask | kFlipH, 0}));
    const Scene s = scene_of(m);
    REQUIRE(s.shapes.size() == 1);
    const Rect strip = std::get<Rect>(std::get<Compound>(shape_named(s, "Walls@0,0").shape).parts.at(0));
    CHECK(strip.min == Vec2{12, 0});
    CHECK(strip.max == Vec2{16, 16});
}

TEST_CASE("objects: ids from names, groups from layer, class and collide_groups") {
    Map m = orthogonal_map();
    Object rock1 = object(3, "rock", ObjectKind::Rect, 0, 0, 8, 8);
    Object rock2 = object(4, "rock", ObjectKind::Rect, 20, 0, 8, 8);
    Object door = object(5, "door", ObjectKind::Rect, 40, 0, 8, 16);
    door.cls = "exit";
    door.properties = {{"collide_groups", " doors, solid ,,"}};
    Object unnamed = object(6, "", ObjectKind::Point, 1, 2, 0, 0);
    Object like_layer = object(7, "Things", ObjectKind::Point, 3, 4, 0, 0);
    Layer things = object_layer("Things", {rock1, rock2, door, unnamed, like_layer});
    things.properties = {{"collide_groups", "props"}};
    m.layers.push_back(things);

    const Scene s = scene_of(m);
    REQUIRE(s.shapes.size() == 5);
    CHECK(s.shapes[0].id == "rock#3");
    CHECK(s.shapes[1].id == "rock#4");
    CHECK(s.shapes[2].id == "door");
    CHECK(s.shapes[3].id == "#6");
    CHECK(s.shapes[4].id == "Things#7");  // the name is a layer's
    CHECK(s.shapes[2].groups == std::vector<std::string>{"Things", "exit", "props", "doors", "solid"});
    CHECK(std::get<Rect>(s.shapes[2].shape).max == Vec2{48, 16});
    CHECK(std::get<Point>(s.shapes[3].shape).at == Vec2{1, 2});
}

TEST_CASE("a rotated rectangle is a box turned about its top-left corner") {
    Map m = orthogonal_map();
    Object r = object(1, "beam", ObjectKind::Rect, 10, 20, 4, 2);
    SUBCASE("90 degrees clockwise: the rect hanging down from (10, 20)") {
        r.rotation = 90;
        m.layers.push_back(object_layer("L", {r}));
        const MapImport imported = tiled_scene(m, "level.tmx");
        CHECK(imported.text.find("\"type\": \"box\", \"center\": [9, 22], \"size\": [4, 2], \"angle\": 90") !=
              std::string::npos);
        const Rect rect = std::get<Rect>(read_map_scene(imported).shapes[0].shape);
        CHECK(rect.min == Vec2{8, 20});
        CHECK(rect.max == Vec2{10, 24});
    }
    SUBCASE("30 degrees: a polygon of the box's corners") {
        r.rotation = 30;
        m.layers.push_back(object_layer("L", {r}));
        const Scene s = scene_of(m);
        const Polygon& p = std::get<Polygon>(s.shapes[0].shape);
        REQUIRE(p.points.size() == 4);
        REQUIRE(s.converted.size() == 1);
        CHECK(s.converted[0].written == ConvertedShape::Written::Box);
    }
}

TEST_CASE("ellipses, capsules and their degenerate forms") {
    Map m = orthogonal_map();
    m.layers.push_back(object_layer(
        "L", {object(1, "coin", ObjectKind::Ellipse, 0, 0, 8, 8), object(2, "egg", ObjectKind::Ellipse, 20, 0, 8, 4),
              object(3, "pill", ObjectKind::Capsule, 40, 0, 16, 4), object(4, "flat", ObjectKind::Ellipse, 60, 0, 10, 0),
              object(5, "dot", ObjectKind::Rect, 80, 5, 0, 0)}));
    const Scene s = scene_of(m);
    const Circle coin = std::get<Circle>(s.shapes[0].shape);
    CHECK(coin.center == Vec2{4, 4});
    CHECK(coin.radius == 4);
    CHECK(std::holds_alternative<Polygon>(s.shapes[1].shape));  // an ellipse, read as its polygon
    const Capsule pill = std::get<Capsule>(s.shapes[2].shape);
    CHECK(pill.a == Vec2{42, 2});
    CHECK(pill.b == Vec2{54, 2});
    CHECK(pill.radius == 2);
    const Segment flat = std::get<Segment>(s.shapes[3].shape);
    CHECK(flat.a == Vec2{60, 0});
    CHECK(flat.b == Vec2{70, 0});
    CHECK(std::get<Point>(s.shapes[4].shape).at == Vec2{80, 5});
}

TEST_CASE("a tile object: its tile's shapes from its bottom-left anchor, or its rectangle") {
    Map m = orthogonal_map();
    const auto set = strip_tileset();
    m.tilesets.push_back(set);
    Object with_shapes = object(1, "crate", ObjectKind::Tile, 100, 50, 32, 32);  // drawn twice the tile's size
    with_shapes.tile = TileRef{set, 0, 0};
    Object plain = object(2, "sign", ObjectKind::Tile, 200, 50, 16, 16);
    plain.tile = TileRef{set, 2, 0};
    m.layers.push_back(object_layer("Props", {with_shapes, plain}));
    const Scene s = scene_of(m);
    const Rect part = std::get<Rect>(std::get<Compound>(s.shapes[0].shape).parts.at(0));
    CHECK(part.min == Vec2{100, 18});  // top-left (100, 50 - 32), the strip scaled by 2
    CHECK(part.max == Vec2{108, 50});
    CHECK(s.shapes[0].groups == std::vector<std::string>{"Props", "wall"});  // the tile's class
    const Rect sign = std::get<Rect>(s.shapes[1].shape);
    CHECK(sign.min == Vec2{200, 34});
    CHECK(sign.max == Vec2{216, 50});
}

TEST_CASE("text objects are skipped with a warning") {
    Map m = orthogonal_map();
    m.layers.push_back(object_layer("Notes", {object(9, "hint", ObjectKind::Text, 0, 0, 50, 10)}));
    const MapImport imported = tiled_scene(m, "level.tmx");
    CHECK(imported.warnings == std::vector<std::string>{"level.tmx: object 'hint#9' in layer 'Notes' is a text object: skipped"});
    CHECK(read_map_scene(imported).shapes.empty());
}

TEST_CASE("errors name the map and the object or layer") {
    Map m = orthogonal_map();
    SUBCASE("an isometric map") {
        m.orientation = "isometric";
        CHECK_THROWS_WITH(tiled_scene(m, "level.tmx"),
                          "level.tmx: the map is isometric: only orthogonal maps have a plain x/y geometry");
    }
    SUBCASE("a polygon that is not simple, found by the scene reader, is the object's") {
        Object bow = object(17, "rock", ObjectKind::Polygon, 0, 0, 0, 0);
        bow.points = {{0, 0}, {10, 10}, {10, 0}, {0, 10}};
        bow.where.line = 12;
        bow.where.column = 5;
        Object other = object(18, "rock", ObjectKind::Point, 0, 0, 0, 0);
        m.layers.push_back(object_layer("Collisions", {bow, other}));
        CHECK_THROWS_WITH(scene_of(m), "level.tmx:12:5: object 'rock#17' in layer 'Collisions': the polygon intersects "
                                       "itself: the edge from point 0 to point 1 and the edge from point 2 to point 3 meet");
    }
}

TEST_CASE("a check builds a big map's shapes in batches beside the conversion, in order, stopping at the first refused") {
    // More objects than one batch of SceneText's (2048): the scene built directly must be the
    // scene its text reads to, and a refused shape in a later batch the first error said.
    Map m = orthogonal_map();
    std::vector<Object> objects;
    for (std::uint32_t k = 1; k <= 5000; ++k) {
        const double x = (k % 100) * 24.0, y = (k / 100) * 24.0;
        const ObjectKind kinds[] = {ObjectKind::Rect, ObjectKind::Ellipse, ObjectKind::Point, ObjectKind::Polygon};
        Object o = object(k, k % 7 == 0 ? "coin" : "", kinds[k % 4], x, y, 20, 12);
        if (o.kind == ObjectKind::Polygon) o.points = {{0, 0}, {30, 0}, {0, 30}};
        objects.push_back(o);
    }
    m.layers.push_back(object_layer("Things", objects));
    const Scene text = scene_of(m);
    const Scene built = read_map_scene(tiled_scene(m, "level.tmx", MapBuild::Scene));
    REQUIRE(built.shapes.size() == 5000);
    REQUIRE(text.shapes.size() == 5000);
    for (std::size_t i = 0; i < text.shapes.size(); ++i) {
        CHECK(built.shapes[i].id == text.shapes[i].id);
        CHECK(type_of(built.shapes[i].shape) == type_of(text.shapes[i].shape));
    }
    const SceneResult a = check(text, CheckOptions{}), b = check(built, CheckOptions{});
    CHECK(!a.collisions.empty());
    CHECK(a.collisions.size() == b.collisions.size());

    // Two polygons that are not simple, in the second and third batches: the first is said.
    for (const std::size_t k : {3000, 4500}) {
        objects[k].kind = ObjectKind::Polygon;
        objects[k].points = {{0, 0}, {10, 10}, {10, 0}, {0, 10}};
    }
    m.layers.back() = object_layer("Things", objects);
    const std::string expected = "level.tmx: object '#3001' in layer 'Things': the polygon intersects itself: the edge "
                                 "from point 0 to point 1 and the edge from point 2 to point 3 meet";
    CHECK_THROWS_WITH(scene_of(m), expected.c_str());
    CHECK_THROWS_WITH(read_map_scene(tiled_scene(m, "level.tmx", MapBuild::Scene)), expected.c_str());
}

TEST_CASE("tile data: every encoding Tiled writes, bounded by the declared cells") {
    using collide::detail::decode_tile_data;
    using collide::detail::DataError;
    const std::vector<std::uint32_t> gids{1, 0, 2147483651u, 7};
    CHECK(decode_tile_data(" 1,0,\n2147483651, 7\n", "csv", "", 4) == gids);
    // Little-endian bytes 01 00 00 00 | 00 00 00 00 | 03 00 00 80 | 07 00 00 00, in base64.
    CHECK(decode_tile_data("AQAAAAAAAAADAACABwAAAA==", "base64", "", 4) == gids);
    CHECK_THROWS_WITH_AS(decode_tile_data("AQAAAAAAAAADAACABwAAAA==", "base64", "", 3),
                         "the data holds more than the 3 tiles the layer declares", DataError);
    CHECK_THROWS_WITH_AS(decode_tile_data("AQAA*AAA", "base64", "", 2), "base64 data holds '*' at byte 4", DataError);
    CHECK_THROWS_WITH_AS(decode_tile_data("1,2", "csv", "", 3), "the data holds 2 tiles, the layer declares 3", DataError);
    CHECK_THROWS_WITH_AS(decode_tile_data("1,x", "csv", "", 2), "CSV data holds 'x' where a tile gid belongs (tile 1)",
                         DataError);
    CHECK_THROWS_WITH_AS(decode_tile_data("AAAA", "base64", "lz4", 1), "unknown compression 'lz4'", DataError);
    CHECK_THROWS_WITH_AS(decode_tile_data("AAAA", "xml", "", 1), "unknown encoding 'xml'", DataError);
    CHECK_THROWS_WITH_AS(decode_tile_data("AAAAAAAA", "base64", "zlib", 1), "zlib data is corrupt (unknown compression method)",
                         DataError);
}

TEST_CASE("layer gids are packed by the distinct tiles a layer uses, and read back as written") {
    // Each cell is an index into the layer's palette of gids, in as few bits as the palette
    // needs (0, 1, 2, 4, ... 32): an empty layer takes none, a layer of a dozen tiles 4 bits a
    // cell. The cells stay as written however the palette grows.
    using collide::detail::Gids;
    Gids empty;
    for (int k = 0; k < 100000; ++k) empty.push_back(0);
    CHECK(empty.size() == 100000);
    CHECK(empty.bits_per_cell() == 0);
    CHECK(empty[99999] == 0);
    std::vector<std::uint32_t> written;
    Gids gids;
    const std::uint32_t flipped = 0x80000000u | 7;  // a flip flag is part of the gid
    for (std::uint32_t k = 0; k < 5000; ++k) {
        const std::uint32_t gid = k < 1000 ? 0 : k < 2000 ? (k % 3) : k < 3000 ? flipped : (k % 300) + 1;
        written.push_back(gid);
        gids.push_back(gid);
        if (k == 999) CHECK(gids.bits_per_cell() == 0);
        if (k == 1999) CHECK(gids.bits_per_cell() == 2);  // 0, 1, 2
        if (k == 2999) CHECK(gids.bits_per_cell() == 2);  // and the flipped 7
    }
    CHECK(gids.bits_per_cell() == 16);  // 300 more tiles
    CHECK(gids == written);
    written[4321] ^= 1;
    CHECK(gids != written);
}

TEST_CASE("layer bytes appended in bulk pack as the same gids pushed one by one") {
    // append_le32 takes runs of one tile and cells of 8 bits by fast paths; whatever path a
    // cell takes, it reads back as pushed. The gids go 0 -> 1 -> 8 -> 16 bits, with runs, more
    // than 64 tiles (past the recent-gid table) and flipped gids.
    std::vector<std::uint32_t> written;
    std::uint32_t seed = 12345;
    const auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
    for (int k = 0; k < 3000; ++k) written.push_back(0);
    for (int k = 0; k < 3000; ++k) written.push_back(k % 7 == 0 ? 5 : 0);
    for (int k = 0; k < 20000; ++k) {
        const std::uint32_t r = next() >> 8;
        const std::uint32_t gid = (r % 4 == 0 ? 0x40000000u : 0u) | (r % 200);
        for (std::uint32_t run = (r >> 10) % 5; run > 0; --run) written.push_back(gid);
    }
    for (int k = 0; k < 5000; ++k) written.push_back(next() % 1000);
    std::string bytes;
    for (const std::uint32_t gid : written)
        for (int b = 0; b < 4; ++b) bytes += static_cast<char>(gid >> (8 * b) & 0xFF);
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    collide::detail::Gids one_by_one, in_bulk, in_pieces;
    one_by_one.assign(written.begin(), written.end());
    in_bulk.append_le32(p, written.size());
    for (std::size_t at = 0; at < written.size(); at += 777)
        in_pieces.append_le32(p + 4 * at, std::min<std::size_t>(777, written.size() - at));
    CHECK(one_by_one == written);
    CHECK(in_bulk == written);
    CHECK(in_pieces == written);
    CHECK(in_bulk.bits_per_cell() == 16);
    CHECK(in_bulk.palette() == one_by_one.palette());
}

TEST_CASE("base64 decodes in groups and across line breaks alike") {
    using collide::detail::decode_base64;
    std::string bytes;
    for (int k = 0; k < 1000; ++k) bytes += static_cast<char>((k * 37 + 11) & 0xFF);
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (std::size_t length : {0, 1, 2, 3, 4, 5, 999, 1000}) {
        // RFC 4648 §4, encoded here.
        std::string text;
        for (std::size_t i = 0; i < length; i += 3) {
            std::uint32_t group = 0;
            for (std::size_t b = 0; b < 3; ++b)
                group = group << 8 | (i + b < length ? static_cast<unsigned char>(bytes[i + b]) : 0u);
            const std::size_t chars = std::min<std::size_t>(4, (length - i) * 4 / 3 + 1);
            for (std::size_t c = 0; c < 4; ++c) text += c < chars ? alphabet[group >> (18 - 6 * c) & 63] : '=';
        }
        std::string wrapped;  // as Tiled writes it, and broken every 7 characters
        for (std::size_t i = 0; i < text.size(); ++i) wrapped += (i % 7 == 0 ? "\n   " : "") + std::string(1, text[i]);
        CAPTURE(length);
        CHECK(decode_base64(text) == bytes.substr(0, length));
        CHECK(decode_base64(wrapped + "\n") == bytes.substr(0, length));
    }
    CHECK_THROWS_WITH_AS(decode_base64("AQAAAQAA\n AQ*A"), "base64 data holds '*' at byte 12", collide::detail::DataError);
    CHECK_THROWS_WITH_AS(decode_base64("AQ==AQAA"), "base64 data holds '=' at byte 4", collide::detail::DataError);
    CHECK_THROWS_WITH_AS(decode_base64("AQAAA"), "base64 data is cut short", collide::detail::DataError);
    // Into room reserved beforehand (by the thread whose heap should have it back).
    std::string room;
    room.reserve(64);
    const char* at = room.data();
    const std::string out = decode_base64("AQAAAQAA", std::move(room));
    CHECK(out == std::string("\x01\x00\x00\x01\x00\x00", 6));
    CHECK(out.data() == at);
}

TEST_CASE("a gigabyte of empty zstd layer decodes into packed gids, and a longer one fails at its cells") {
    // A zstd frame of RLE blocks (RFC 8878 §3.1.1.2), made here: n zero bytes in 128 KiB blocks.
    const auto zstd_zeros = [](std::uint64_t n) {
        std::string out = {'\x28', '\xB5', '\x2F', '\xFD', '\x00', '\x38'};
        for (std::uint64_t left = n; left > 0;) {
            const std::uint64_t size = std::min<std::uint64_t>(131072, left);
            left -= size;
            const std::uint64_t header = (left == 0 ? 1 : 0) | (1 << 1) | (size << 3);
            for (int b = 0; b < 3; ++b) out += static_cast<char>((header >> (8 * b)) & 0xFF);
            out += '\0';
        }
        return out;
    };
    const auto base64 = [](const std::string& bytes) {
        static const char* const kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        std::string out;
        for (std::size_t i = 0; i < bytes.size(); i += 3) {
            std::uint32_t v = 0;
            for (std::size_t k = 0; k < 3; ++k) v = v << 8 | (i + k < bytes.size() ? static_cast<unsigned char>(bytes[i + k]) : 0);
            for (std::size_t k = 0; k < 4; ++k) out += k <= (bytes.size() - i) ? kAlphabet[(v >> (18 - 6 * k)) & 63] : '=';
        }
        return out;
    };
    const std::uint64_t cells = std::uint64_t{16384} * 16384;
    const std::string text = base64(zstd_zeros(cells * 4));
    CHECK(text.size() < 50000);
    const collide::detail::Gids gids = collide::detail::decode_tile_data(text, "base64", "zstd", cells);
    CHECK(gids.size() == cells);
    CHECK(gids.bits_per_cell() == 0);
    CHECK(gids[cells - 1] == 0);
    CHECK_THROWS_WITH_AS(collide::detail::decode_tile_data(text, "base64", "zstd", cells - 1),
                         ("the data holds more than the " + std::to_string(cells - 1) + " tiles the layer declares").c_str(),
                         collide::detail::DataError);
}

TEST_CASE("a map of one format may name a tileset of the other") {
    // The same tile with a collision strip, as XML and as JSON, under either kind of map.
    const std::map<std::string, std::string> files = {
        {"maps/walls.tsx",
         "<tileset name=\"walls\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"1\"><tile id=\"0\" type=\"wall\">"
         "<objectgroup><object id=\"1\" x=\"0\" y=\"0\" width=\"4\" height=\"16\"/></objectgroup></tile></tileset>"},
        {"maps/walls.tsj",
         R"({"type": "tileset", "name": "walls", "tilewidth": 16, "tileheight": 16, "tilecount": 1,
             "tiles": [{"id": 0, "type": "wall", "objectgroup": {"objects": [{"id": 1, "x": 0, "y": 0, "width": 4, "height": 16}]}}]})"},
    };
    const FileLoader load = [&](const std::string& path) {
        const auto it = files.find(path);
        if (it == files.end()) throw Error(path, "", "cannot open: No such file or directory");
        return it->second;
    };
    const auto tmx = [](const char* tileset) {
        return std::string("<map orientation=\"orthogonal\" width=\"1\" height=\"1\" tilewidth=\"16\" tileheight=\"16\">"
                           "<tileset firstgid=\"1\" source=\"") +
               tileset + "\"/><layer id=\"1\" name=\"W\" width=\"1\" height=\"1\"><data encoding=\"csv\">1</data></layer></map>";
    };
    const auto tmj = [](const char* tileset) {
        return std::string(R"({"type": "map", "orientation": "orthogonal", "tilewidth": 16, "tileheight": 16, "width": 1,
             "height": 1, "tilesets": [{"firstgid": 1, "source": ")") +
               tileset + R"("}], "layers": [{"type": "tilelayer", "id": 1, "name": "W", "width": 1, "height": 1, "data": [1]}]})";
    };
    const std::string expected = collide::scene_text(import_map("maps/a.tmx", tmx("walls.tsx"), MapFormat::TiledXml, load).at(0));
    CHECK(expected.find("\"id\": \"W@0,0\", \"type\": \"compound\"") != std::string::npos);
    CHECK(collide::scene_text(import_map("maps/a.tmx", tmx("walls.tsj"), MapFormat::TiledXml, load).at(0)) == expected);
    CHECK(collide::scene_text(import_map("maps/a.tmj", tmj("walls.tsx"), MapFormat::TiledJson, load).at(0)) == expected);
    CHECK(collide::scene_text(import_map("maps/a.tmj", tmj("walls.tsj"), MapFormat::TiledJson, load).at(0)) == expected);
}

TEST_CASE("a template is read by its extension (.tx XML, .tj JSON), whatever the map's format") {
    // The same template twice: a rotated crate with a class, a property and a tile of its own
    // tileset (firstgid 1 there; the map's tileset starts at 5). Each instance lays its own
    // keys over it. Every map below imports to the scene of the map with the objects inlined.
    const std::map<std::string, std::string> files = {
        {"maps/objs/crate.tx",
         "<?xml version=\"1.0\"?>\n<template>\n <tileset firstgid=\"1\" source=\"../props.tsx\"/>\n"
         " <object name=\"crate\" type=\"prop\" gid=\"2\" width=\"16\" height=\"8\" rotation=\"-45\">\n"
         "  <properties><property name=\"collide_groups\" value=\"heavy\"/></properties>\n </object>\n</template>\n"},
        {"maps/objs/crate.tj",
         R"({"type": "template", "tileset": {"firstgid": 1, "source": "../props.tsx"},
             "object": {"name": "crate", "type": "prop", "gid": 2, "width": 16, "height": 8, "rotation": -45,
                        "properties": [{"name": "collide_groups", "type": "string", "value": "heavy"}]}})"},
        {"maps/props.tsx", "<tileset name=\"props\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"4\"/>"},
        {"maps/objs/../props.tsx", "<tileset name=\"props\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"4\"/>"},
    };
    const FileLoader load = [&](const std::string& path) {
        const auto it = files.find(path);
        if (it == files.end()) throw Error(path, "", "cannot open: No such file or directory");
        return it->second;
    };
    // Inlined: gid 6 is the map's tileset's tile 1, as gid 2 is the template's.
    const std::string tmx_inline =
        "<map orientation=\"orthogonal\" width=\"1\" height=\"1\" tilewidth=\"16\" tileheight=\"16\">"
        "<tileset firstgid=\"5\" source=\"props.tsx\"/><objectgroup id=\"2\" name=\"Props\">"
        "<object id=\"3\" name=\"crate\" type=\"prop\" gid=\"6\" x=\"10\" y=\"20\" width=\"16\" height=\"8\" rotation=\"-45\">"
        "<properties><property name=\"collide_groups\" value=\"heavy\"/></properties></object>"
        "<object id=\"4\" name=\"lid\" type=\"prop\" x=\"40\" y=\"20\" width=\"32\" height=\"8\" rotation=\"-45\">"
        "<polygon points=\"0,0 32,0 32,8\"/><properties><property name=\"collide_groups\" value=\"heavy\"/></properties></object>"
        "</objectgroup></map>";
    const auto tmx = [](const char* source) {
        return std::string("<map orientation=\"orthogonal\" width=\"1\" height=\"1\" tilewidth=\"16\" tileheight=\"16\">"
                           "<tileset firstgid=\"5\" source=\"props.tsx\"/><objectgroup id=\"2\" name=\"Props\">"
                           "<object id=\"3\" template=\"") + source + "\" x=\"10\" y=\"20\"/>"
               "<object id=\"4\" template=\"" + source + "\" name=\"lid\" x=\"40\" y=\"20\" width=\"32\"><polygon points=\"0,0 32,0 32,8\"/></object>"
               "</objectgroup></map>";
    };
    const std::string tmj_inline = R"({"type": "map", "orientation": "orthogonal", "tilewidth": 16, "tileheight": 16,
        "width": 1, "height": 1, "tilesets": [{"firstgid": 5, "source": "props.tsx"}],
        "layers": [{"type": "objectgroup", "id": 2, "name": "Props", "objects": [
          {"id": 3, "name": "crate", "type": "prop", "gid": 6, "x": 10, "y": 20, "width": 16, "height": 8, "rotation": -45,
           "properties": [{"name": "collide_groups", "type": "string", "value": "heavy"}]},
          {"id": 4, "name": "lid", "type": "prop", "x": 40, "y": 20, "width": 32, "height": 8, "rotation": -45,
           "polygon": [{"x": 0, "y": 0}, {"x": 32, "y": 0}, {"x": 32, "y": 8}],
           "properties": [{"name": "collide_groups", "type": "string", "value": "heavy"}]}]}]})";
    const auto tmj = [](const char* source) {
        return std::string(R"({"type": "map", "orientation": "orthogonal", "tilewidth": 16, "tileheight": 16,
            "width": 1, "height": 1, "tilesets": [{"firstgid": 5, "source": "props.tsx"}],
            "layers": [{"type": "objectgroup", "id": 2, "name": "Props", "objects": [
              {"id": 3, "template": ")") + source + R"(", "x": 10, "y": 20},
              {"id": 4, "template": ")" + source + R"(", "name": "lid", "x": 40, "y": 20, "width": 32,
               "polygon": [{"x": 0, "y": 0}, {"x": 32, "y": 0}, {"x": 32, "y": 8}]}]}]})";
    };
    const auto text = [&](const char* file, const std::string& map, MapFormat f) { return collide::scene_text(import_map(file, map, f, load).at(0)); };
    const std::string expected = text("maps/a.tmx", tmx_inline, MapFormat::TiledXml);
    CHECK(expected.find("\"groups\": [\"Props\", \"prop\", \"heavy\"]") != std::string::npos);
    CHECK(expected.find("\"id\": \"lid\", \"type\": \"polygon\"") != std::string::npos);
    CHECK(text("maps/a.tmj", tmj_inline, MapFormat::TiledJson) == expected);
    CHECK(text("maps/a.tmx", tmx("objs/crate.tx"), MapFormat::TiledXml) == expected);
    CHECK(text("maps/a.tmx", tmx("objs/crate.tj"), MapFormat::TiledXml) == expected);
    CHECK(text("maps/a.tmj", tmj("objs/crate.tx"), MapFormat::TiledJson) == expected);
    CHECK(text("maps/a.tmj", tmj("objs/crate.tj"), MapFormat::TiledJson) == expected);
    // A broken template names itself in its own format: line:column in the .tx, a JSON pointer in the .tj.
    std::map<std::string, std::string> broken = files;
    broken["maps/objs/crate.tx"] = "<template>\n <object width=\"x\"/>\n</template>";
    broken["maps/objs/crate.tj"] = R"({"type": "template", "object": {"width": "x"}})";
    const FileLoader load_broken = [&](const std::string& path) { return broken.at(path); };
    const auto error = [&](const char* file, const std::string& map, MapFormat f) {
        try {
            import_map(file, map, f, load_broken);
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(error("maps/a.tmj", tmj("objs/crate.tx"), MapFormat::TiledJson).rfind("maps/objs/crate.tx:2:2: ", 0) == 0);
    CHECK(error("maps/a.tmx", tmx("objs/crate.tj"), MapFormat::TiledXml).rfind("maps/objs/crate.tj:1:", 0) == 0);
    // A file that is not JSON at all is not quoted back (it may be any file on the machine).
    broken["maps/objs/crate.tj"] = "root:x:0:0:root:/root:/bin/bash\n";
    CHECK(error("maps/a.tmx", tmx("objs/crate.tj"), MapFormat::TiledXml) ==
          "maps/objs/crate.tj:1:1: template 'maps/objs/crate.tj': not valid JSON: syntax error while parsing value - invalid literal");
}

TEST_CASE("scene ids stay unique: unnamed layers by their id, repeated ones with ~N") {
    Map m = orthogonal_map();
    m.tilesets.push_back(strip_tileset());
    Layer unnamed = tile_layer("", 1, 1, {2});
    unnamed.id = 7;
    m.layers.push_back(unnamed);
    // Tiled ids repeated (invalid, but met), and an object named like another's NAME#ID.
    m.layers.push_back(object_layer("L", {object(3, "coin", ObjectKind::Point, 0, 0, 0, 0),
                                          object(3, "coin", ObjectKind::Point, 1, 0, 0, 0),
                                          object(4, "coin#3", ObjectKind::Point, 2, 0, 0, 0)}));
    const Scene s = scene_of(m);
    CHECK(s.grids.at(0).id == "#7");
    REQUIRE(s.shapes.size() == 3);
    CHECK(s.shapes[0].id == "coin#3");
    CHECK(s.shapes[1].id == "coin#3~2");
    CHECK(s.shapes[2].id == "coin#3~3");
}

TEST_CASE("the chunks of an infinite layer: one grid when close, split at the widest gaps when sparse") {
    using collide::detail::tiled::chunk_groups;
    using collide::detail::tiled::TileBlock;
    const auto chunks = [](std::vector<std::pair<std::int64_t, std::int64_t>> at) {
        std::vector<TileBlock> blocks;
        for (const auto& [x, y] : at) blocks.push_back(TileBlock{x, y, 16, 16, {}});
        return blocks;
    };
    using Groups = std::vector<std::vector<std::size_t>>;
    CHECK(chunk_groups(chunks({{0, 0}, {16, 0}, {0, 16}})) == Groups{{0, 1, 2}});
    CHECK(chunk_groups(chunks({{0, 0}, {1600, 1600}})) == Groups{{0, 1}});  // 1616^2 cells: small enough
    CHECK(chunk_groups(chunks({{0, 0}, {100000, 100000}})) == Groups{{0}, {1}});
    // Two neighbours and one far away: the cut is at the widest gap, the neighbours stay one grid.
    CHECK(chunk_groups(chunks({{100000, 100000}, {0, 0}, {16, 0}})) == Groups{{1, 2}, {0}});
    // A long row of chunks 64 tiles apart is sparse only past 2^22 cells: 4 chunks stay one.
    CHECK(chunk_groups(chunks({{0, 0}, {64, 0}, {128, 0}, {192, 0}})).size() == 1);
}

namespace {

std::string read_sample(const std::string& name) {
    std::string path = __FILE__;  // .../tests/test_maps.cpp
    path.erase(path.find_last_of('/') + 1);
    return collide::file_system_loader()(path + "../samples/" + name);
}

// The scene of a map imported as `build` says, read as a check reads it.
Scene map_scene(const std::string& name, MapFormat format, MapBuild build, std::string_view level = {}) {
    std::string folder = __FILE__;
    folder.erase(folder.find_last_of('/') + 1);
    const std::string file = folder + "../samples/" + name;
    std::vector<MapImport> maps = import_map(file, read_sample(name), format, collide::file_system_loader(), level, build);
    REQUIRE(maps.size() == 1);
    return read_map_scene(std::move(maps[0]));
}

}  // namespace

TEST_CASE("a map built directly is the scene its imported text reads to") {
    // `collide import` writes text; `collide check` builds the scene without it. Both come
    // from one walk over the map, so they must agree shape for shape and in every collision.
    const struct {
        const char* name;
        MapFormat format;
        const char* level;
    } samples[] = {{"tiled/dungeon.tmx", MapFormat::TiledXml, ""},
                   {"tiled/dungeon.tmj", MapFormat::TiledJson, ""},
                   {"ldtk/platformer.ldtk", MapFormat::Ldtk, "Level_0"},
                   {"ldtk/platformer.ldtk", MapFormat::Ldtk, "Level_1"}};
    for (const auto& sample : samples) {
        CAPTURE(sample.name);
        CAPTURE(sample.level);
        const Scene text = map_scene(sample.name, sample.format, MapBuild::Text, sample.level);
        const Scene built = map_scene(sample.name, sample.format, MapBuild::Scene, sample.level);
        REQUIRE(built.shapes.size() == text.shapes.size());
        REQUIRE(!built.shapes.empty());
        REQUIRE(built.grids.size() == text.grids.size());
        for (std::size_t i = 0; i < text.shapes.size(); ++i) {
            CHECK(built.shapes[i].id == text.shapes[i].id);
            CHECK(built.shapes[i].groups == text.shapes[i].groups);
            CHECK(type_of(built.shapes[i].shape) == type_of(text.shapes[i].shape));
        }
        for (std::size_t g = 0; g < text.grids.size(); ++g) CHECK(built.grids[g].bits == text.grids[g].bits);
        CHECK(built.converted.size() == text.converted.size());
        // `collide import` makes both at once: the same text, and the scene built beside it.
        const auto imported = [&](MapBuild build) {
            return import_map(std::string(__FILE__).substr(0, std::string(__FILE__).find_last_of('/') + 1) + "../samples/" +
                                  sample.name,
                              read_sample(sample.name), sample.format, collide::file_system_loader(), sample.level, build)
                .at(0);
        };
        const MapImport both = imported(MapBuild::TextAndScene);
        CHECK(collide::scene_text(both) == collide::scene_text(imported(MapBuild::Text)));
        const Scene beside = read_map_scene(both);
        REQUIRE(beside.shapes.size() == text.shapes.size());
        for (std::size_t i = 0; i < text.shapes.size(); ++i) CHECK(beside.shapes[i].id == text.shapes[i].id);
        const SceneResult a = check(text, CheckOptions{});
        const SceneResult b = check(built, CheckOptions{});
        REQUIRE(a.collisions.size() == b.collisions.size());
        for (std::size_t k = 0; k < a.collisions.size(); ++k) {
            CHECK(a.collisions[k].a == b.collisions[k].a);
            CHECK(a.collisions[k].b == b.collisions[k].b);
            CHECK(a.collisions[k].relation == b.collisions[k].relation);
            CHECK(a.collisions[k].points == b.collisions[k].points);
            CHECK(a.collisions[k].cells == b.collisions[k].cells);
        }
    }
}

TEST_CASE("detect_format: a file's name, and for .json files and standard input its first keys") {
    // Maps by their extension, whatever they hold; other names are scenes.
    CHECK(detect_format("level.tmx", "") == MapFormat::TiledXml);
    CHECK(detect_format("LEVEL.TMJ", "{}") == MapFormat::TiledJson);
    CHECK(detect_format("world.ldtk", "") == MapFormat::Ldtk);
    CHECK(detect_format("scene.yaml", "{\"type\": \"map\"}") == MapFormat::None);
    // .json and "-": the first of a key only scenes have and "type": "map" decides.
    const std::string tiled = R"({"compressionlevel": -1, "height": 2, "layers": [{"name": "a}\"]", "data": [1, 2]}],
                                  "tilesets": [], "type": "map", "version": "1.10"})";
    CHECK(detect_format("m.json", tiled) == MapFormat::TiledJson);
    CHECK(detect_format("-", tiled) == MapFormat::TiledJson);
    CHECK(detect_format("s.json", R"({"format": "collide-scene", "type": "map"})") == MapFormat::None);
    CHECK(detect_format("s.json", R"({"shapes": [], "grids": []})") == MapFormat::None);
    CHECK(detect_format("s.json", R"({"version": 1})") == MapFormat::None);  // ends undecided: a scene
    CHECK(detect_format("s.json", R"([1, 2])") == MapFormat::None);          // not an object: the scene reader's error
    CHECK(detect_format("s.json", "\xEF\xBB\xBF {\"type\": \"map\"}") == MapFormat::TiledJson);
    // The start of a file: a scene's first key is enough; a map's start before "type" is not.
    const std::string big_scene = R"({"format": "collide-scene", "version": 1, "shapes": [{"id": "a", "ty)";
    CHECK(detect_format("s.json", big_scene, false) == MapFormat::None);
    CHECK(!detect_format("m.json", tiled.substr(0, 60), false));
    CHECK(detect_format("m.json", tiled.substr(0, 60), true) == MapFormat::None);  // all there is: not a map
    CHECK(!detect_format("m.json", "", false));
    CHECK(is_tiled_json(tiled));
    CHECK(!is_tiled_json("not json"));
}

TEST_CASE("tile data of many runs and palettes decodes to its gids, in every encoding") {
    // Runs of one tile, tiles met again after others and palettes that widen the cells
    // midway (1, 2, 4, 8, 16 bits) all read back cell for cell, whatever the compression and
    // wherever the decompressor's pieces cut the words.
    using collide::detail::decode_tile_data;
    std::mt19937 rng(2027);
    for (const std::uint32_t tiles : {1u, 2u, 3u, 5u, 17u, 300u, 70000u}) {
        CAPTURE(tiles);
        std::vector<std::uint32_t> gids;
        while (gids.size() < 200000) {
            const std::uint32_t gid = static_cast<std::uint32_t>(rng()) % tiles | (rng() % 8 == 0 ? 0x80000000u : 0u);  // flip flags too
            gids.insert(gids.end(), 1 + static_cast<std::size_t>(rng() % 40), gid);
        }
        const std::string bytes = map_data::little_endian(gids);
        CHECK(decode_tile_data(map_data::base64(bytes), "base64", "", gids.size()) == gids);
        CHECK(decode_tile_data(map_data::base64(map_data::zlib(bytes)), "base64", "zlib", gids.size()) == gids);
        CHECK(decode_tile_data(map_data::base64(map_data::zstd(bytes)), "base64", "zstd", gids.size()) == gids);
    }
}
