// Godot tile maps (godot_tiles.cpp, SPEC §1.6 "Tile maps"): a TileMapLayer, or each layer of
// an older TileMap, as a grid of its full cells and compounds of its other collision tiles.
#pragma once

#include "maps/godot_scene.hpp"
#include "scene/scene_text.hpp"

#include <bitset>
#include <cstddef>

namespace collide::detail::godot {

/// The layers of the TileMapLayer or TileMap node `index` written to `out` (grids, then their
/// compounds, ids made unique by `ids`), their places and ignores to `imp`; the physics
/// layers' bits added to `layers`
/// and `masks`. Throws collide::Error naming the node.
void tile_layers(Files& files, const Tree& tree, std::size_t index, SceneText& out, MapImport& imp, Ids& ids,
                 std::bitset<32>& layers, std::bitset<32>& masks);

/// A tile polygon point under an alternative's flags, as Godot applies them: transpose (swap x
/// and y), then flip h (negate x), then flip v (negate y).
Vec2 flipped(Vec2 p, bool flip_h, bool flip_v, bool transpose);

}  // namespace collide::detail::godot
