// Godot tile maps (godot_tiles.cpp, SPEC §1.6 "Tile maps"): a TileMapLayer, or each layer of
// an older TileMap, as a grid of its full cells and compounds of its other collision tiles.
#pragma once

#include "maps/godot_scene.hpp"
#include "scene/scene_text.hpp"

#include <bitset>
#include <cstddef>
#include <memory>

namespace collide::detail::godot {

/// The tile layers of a TileMapLayer or TileMap node, made in three steps so that a big
/// layer's cells can be sorted out on another thread while the nodes after it are read:
///   the constructor (the converting thread) reads the node's TileSet and flags;
///   prepare() (any thread; it touches nothing shared) decodes and sorts out a TileMapLayer's
///     cells, keeping an error rather than throwing it;
///   write() (the converting thread, in node order) writes the layers to `out` (grids, then
///     their compounds, ids made unique by `ids`), their places and ignores to `imp`, and adds
///     the physics layers' bits to `layers` and `masks`.
/// Each step throws collide::Error naming the node (write() the one prepare() kept).
class TileLayers {
public:
    TileLayers(Files& files, const Tree& tree, std::size_t index);
    ~TileLayers();
    TileLayers(const TileLayers&) = delete;
    TileLayers& operator=(const TileLayers&) = delete;
    void prepare() noexcept;
    void write(SceneText& out, MapImport& imp, Ids& ids, std::bitset<32>& layers, std::bitset<32>& masks);

private:
    struct State;
    std::unique_ptr<State> state_;
};

/// A tile polygon point under an alternative's flags, as Godot applies them: transpose (swap x
/// and y), then flip h (negate x), then flip v (negate y).
Vec2 flipped(Vec2 p, bool flip_h, bool flip_v, bool transpose);

}  // namespace collide::detail::godot
