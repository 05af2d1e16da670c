// Godot TileSets (godot_tileset.cpp, SPEC §1.6 "Tile maps"): what a TileSet resource says of
// its tiles' collision polygons, per atlas tile, alternative and physics layer.
#pragma once

#include "maps/godot_scene.hpp"

#include <bitset>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace collide::detail::godot {

/// A tile's collision polygon on a physics layer, in the tile's coordinates (its centre at 0, 0).
struct Polygon {
    std::vector<Vec2> points;
    bool one_way = false;
};

/// A tile's polygons on one physics layer, and what every cell of it needs to know: whether
/// one (not one-way) fills the cell, and whether one is one-way.
struct LayerTile {
    std::vector<Polygon> polygons;  // in polygon order
    bool full = false, one_way = false;
};

/// One tile of an atlas source (an alternative): its flags and its polygons per physics layer.
struct TileInfo {
    bool flip_h = false, flip_v = false, transpose = false;
    std::map<int, LayerTile> layers;  // physics layer -> its polygons
};

using TileKey = std::tuple<int, int, int, int>;  // source, atlas x, atlas y, alternative

/// A TileSet: its tile size, physics layers and tiles.
struct TileSet {
    Vec2 tile_size{16, 16};
    int physics_layers = 0;
    std::map<int, std::pair<std::bitset<32>, std::bitset<32>>> bits;  // physics layer -> collision layer, mask
    std::map<TileKey, TileInfo> tiles;
};

/// The TileSet resource `res` that node `node` (a TileMapLayer or TileMap) names; throws
/// collide::Error naming the node for a tile shape other than square or a bad property.
TileSet read_tile_set(Files& files, const Node& node, const Resource& res);

/// "PREFIXK/rest" (`physics_layer_0/polygon_1/points`, `layer_2/tile_data`) -> K (0 to 1023)
/// and the rest; false for other keys.
bool layer_key(std::string_view key, const char* prefix, int& k, std::string& rest);

}  // namespace collide::detail::godot
