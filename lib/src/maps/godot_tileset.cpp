// Godot TileSets (godot_tileset.hpp): an atlas source's tiles, their flip flags and physics
// polygons, read from the TileSet's properties.
#include "maps/godot_tileset.hpp"

#include "collide/error.hpp"
#include "collide/text.hpp"

#include <algorithm>
#include <charconv>

namespace collide::detail::godot {

namespace {

// "12:3" "/" "0" "/" rest: an atlas tile's property key split; false for other keys.
bool tile_key(std::string_view key, int& x, int& y, int& alt, std::string& rest) {
    const char* p = key.data();
    const char* end = key.data() + key.size();
    auto r = std::from_chars(p, end, x);
    if (r.ec != std::errc() || r.ptr == end || *r.ptr != ':') return false;
    r = std::from_chars(r.ptr + 1, end, y);
    if (r.ec != std::errc() || r.ptr == end || *r.ptr != '/') return false;
    r = std::from_chars(r.ptr + 1, end, alt);
    if (r.ec != std::errc()) return false;
    rest = r.ptr == end ? std::string() : std::string(r.ptr + (*r.ptr == '/' ? 1 : 0), end);
    return r.ptr == end || *r.ptr == '/';
}

// Whether a polygon is exactly the tile's square, centred on the cell.
bool fills(const std::vector<Vec2>& pts, Vec2 size) {
    const double hx = size.x / 2, hy = size.y / 2;
    std::vector<Vec2> distinct;
    for (const Vec2& p : pts)
        if (distinct.empty() || !(p.x == distinct.back().x && p.y == distinct.back().y)) distinct.push_back(p);
    if (distinct.size() > 1 && distinct.front().x == distinct.back().x && distinct.front().y == distinct.back().y) distinct.pop_back();
    if (distinct.size() != 4) return false;
    int corners = 0;
    for (const Vec2& c : {Vec2{-hx, -hy}, Vec2{hx, -hy}, Vec2{hx, hy}, Vec2{-hx, hy}})
        corners += std::any_of(distinct.begin(), distinct.end(), [&](const Vec2& p) { return p.x == c.x && p.y == c.y; });
    return corners == 4;
}

void atlas(const Resource& source, int id, TileSet& set, const Node& node) {
    for (const auto& property : source.section->properties) {
        const std::string key(property.first);  // named, not bound: lambdas below use them
        const Value& v = property.second;
        int x = 0, y = 0, alt = 0, k = 0;
        std::string rest, what;
        if (!tile_key(key, x, y, alt, rest)) continue;
        TileInfo& tile = set.tiles[TileKey{id, x, y, alt}];
        const auto flag = [&](bool& to) {
            if (v.kind != Value::Kind::Bool) fail(source.file->path, v.line, v.column, who(node) + ": tile " + key + " must be true or false");
            to = v.boolean;
        };
        if (rest == "flip_h") flag(tile.flip_h);
        else if (rest == "flip_v") flag(tile.flip_v);
        else if (rest == "transpose") flag(tile.transpose);
        else if (layer_key(rest, "physics_layer_", k, what)) {
            int m = 0;
            std::string field;
            if (!layer_key(what, "polygon_", m, field)) continue;
            std::vector<Polygon>& polygons = tile.layers[k].polygons;
            if (polygons.size() <= static_cast<std::size_t>(m)) polygons.resize(static_cast<std::size_t>(m) + 1);
            if (field == "points") polygons[static_cast<std::size_t>(m)].points = points_of(source.file->path, v, What{node, "tile ", key});
            else if (field == "one_way") flag(polygons[static_cast<std::size_t>(m)].one_way);
        }
    }
}

}  // namespace

bool layer_key(std::string_view key, const char* prefix, int& k, std::string& rest) {
    const std::size_t n = std::char_traits<char>::length(prefix);
    if (key.compare(0, n, prefix) != 0) return false;
    const auto r = std::from_chars(key.data() + n, key.data() + key.size(), k);
    if (r.ec != std::errc() || k < 0 || k > 1023) return false;
    rest = r.ptr == key.data() + key.size() ? std::string() : std::string(r.ptr + 1, key.data() + key.size());
    return true;
}

TileSet read_tile_set(Files& files, const Node& node, const Resource& res) {
    TileSet set;
    const auto integer = [&](const char* key, double fallback) {
        const Value* v = res.property(key);
        if (!v) return fallback;
        if (!v->is_number()) fail(res.file->path, v->line, v->column, who(node) + ": TileSet." + key + " must be a number");
        return v->number();
    };
    const double shape = integer("tile_shape", 0);
    if (shape != 0) {
        const char* names[] = {"square", "isometric", "half-offset square", "hexagonal"};
        const std::string name = shape >= 0 && shape <= 3 ? names[static_cast<int>(shape)] : "unknown";
        fail(node.file->path, node.line, node.column,
             who(node) + ": its TileSet's tiles are " + name + " (tile_shape " + format_number(shape) +
                 "): collide reads square tiles only");
    }
    if (const Value* size = res.property("tile_size")) {
        if (!(size->is_call("Vector2i") || size->is_call("Vector2")) || size->items().size() != 2 || !size->items()[0].is_number() ||
            !size->items()[1].is_number() || !(size->items()[0].number() > 0) || !(size->items()[1].number() > 0))
            fail(res.file->path, size->line, size->column, who(node) + ": TileSet.tile_size must be a Vector2i of sizes > 0");
        set.tile_size = Vec2{size->items()[0].number(), size->items()[1].number()};
    }
    for (const auto& [key, v] : res.section->properties) {
        int k = 0;
        std::string rest;
        if (layer_key(key, "physics_layer_", k, rest)) {
            set.physics_layers = std::max(set.physics_layers, k + 1);
            auto& b = set.bits.try_emplace(k, std::bitset<32>(1), std::bitset<32>(1)).first->second;
            if ((rest == "collision_layer" || rest == "collision_mask") && v.kind == Value::Kind::Int && v.integer >= 0 &&
                v.integer <= 0xFFFFFFFFLL)
                (rest == "collision_layer" ? b.first : b.second) = std::bitset<32>(static_cast<unsigned long long>(v.integer));
        }
        if (key.rfind("sources/", 0) == 0) {
            int id = 0;
            const auto r = std::from_chars(key.data() + 8, key.data() + key.size(), id);
            if (r.ec != std::errc()) continue;
            const Resource source = resource(files, *res.file, v);
            if (source.section && source.type == "TileSetAtlasSource") atlas(source, id, set, node);
        }
    }
    // A physics layer the atlas tiles use counts even where the TileSet writes nothing of it.
    for (auto& tile : set.tiles) {
        if (!tile.second.layers.empty()) set.physics_layers = std::max(set.physics_layers, tile.second.layers.rbegin()->first + 1);
        for (auto& layer : tile.second.layers) {
            LayerTile& l = layer.second;
            for (const Polygon& p : l.polygons) {
                l.one_way = l.one_way || (p.one_way && p.points.size() >= 3);
                l.full = l.full || (!p.one_way && fills(p.points, set.tile_size));
            }
        }
    }
    return set;
}
}  // namespace collide::detail::godot
