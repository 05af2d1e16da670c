// The geometry of one Tiled object as scene fields (tiled_geometry.cpp): where it goes (a
// Placement: flipped inside its tile, scaled, anchored, turned and placed), the scene type it
// is written as, and its fields, as SPEC §1.5 says. tiled_scene.cpp walks the map and names
// the shapes; this file only measures them.
#pragma once

#include "maps/tiled_model.hpp"
#include "scene/scene_text.hpp"

#include <cstdint>
#include <utility>

namespace collide::detail::tiled {

// Where an object or a tile's collision shape goes: `p` in its own pixels is flipped inside the
// tile's box (tile shapes only), scaled, shifted by the anchor, then turned by `angle` about
// `at` (a rotated object) and placed at `at`.
struct Placement {
    Vec2 at;
    std::uint32_t flips = 0;
    Vec2 box;           ///< the tile's width and height, after a diagonal flip
    Vec2 scale{1, 1};
    Vec2 shift;         ///< added after scaling: minus the anchor
    double angle = 0;   ///< degrees, clockwise with y down
    double c = 1, s = 0;

    bool turned() const { return angle != 0; }
    bool uniform() const { return scale.x == scale.y; }

    Vec2 apply(Vec2 p) const {
        if (flips & kFlipD) std::swap(p.x, p.y);
        if (flips & kFlipH) p.x = box.x - p.x;
        if (flips & kFlipV) p.y = box.y - p.y;
        if (scale.x != 1 || scale.y != 1) p = Vec2{p.x * scale.x, p.y * scale.y};
        if (shift.x != 0 || shift.y != 0) p = Vec2{p.x + shift.x, p.y + shift.y};
        if (!turned()) return Vec2{at.x + p.x, at.y + p.y};
        // As SPEC §2.5 evaluates a box's corner: each product rounded, sums left to right.
        return Vec2{at.x + p.x * c - p.y * s, at.y + p.x * s + p.y * c};
    }
    /// A direction at `rho` degrees in the shape's own frame, as an angle in the world.
    double angle_of(double rho) const {
        if (flips & kFlipD) rho = 90 - rho;
        if (flips & kFlipH) rho = 180 - rho;
        if (flips & kFlipV) rho = -rho;
        return rho + angle;
    }
    /// A length along the shape's own x (or y) axis, in the world.
    double length(double v, bool along_y) const {
        const bool y = along_y != ((flips & kFlipD) != 0);
        return v * (y ? scale.y : scale.x);
    }
};

/// `origin + R(degrees) q`, evaluated as SPEC §2.5 evaluates a box's corner.
Vec2 turned_about(Vec2 origin, Vec2 q, double degrees);

/// The scene type an object is written as under `p`.
const char* scene_type(const Object& o, const Placement& p);
/// The object's fields (after its id and type) under `p`.
void write_fields(SceneText& out, const Object& o, const Placement& p);
/// The object as a part of the compound being written: its type and fields.
void write_part(SceneText& out, const Object& o, const Placement& p);

}  // namespace collide::detail::tiled
