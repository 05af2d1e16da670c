// A Godot collision object's shapes as collide shapes (godot_shapes.cpp, SPEC §1.6 "Bodies").
#pragma once

#include "maps/godot_scene.hpp"
#include "scene/scene_text.hpp"

#include <array>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace collide::detail::godot {

/// Up to two named fields, kept in place: a part has no more pairs or numbers than that.
template <class T>
class Fields {
public:
    Fields() = default;
    Fields(std::initializer_list<std::pair<const char*, T>> list) {
        for (const auto& f : list)
            if (size_ < items_.size()) items_[size_++] = f;
    }
    const std::pair<const char*, T>* begin() const { return items_.data(); }
    const std::pair<const char*, T>* end() const { return items_.data() + size_; }

private:
    std::array<std::pair<const char*, T>, 2> items_{};
    std::size_t size_ = 0;
};

/// One collide shape (a body's, or a part of its compound) as the scene text writes it.
struct Part {
    const char* type = "";
    Fields<Vec2> pairs;      ///< "center", "a", "min", ...
    Fields<double> numbers;  ///< "radius", "angle"
    std::vector<Vec2> points;  ///< "points" when not empty
};

/// What a body's shape nodes give: its parts, its one-way parts, and whether one is a world
/// boundary (its shape joins group `world-boundary`).
struct BodyParts {
    std::vector<Part> parts, one_way;
    bool world_boundary = false;
};

/// Adds the parts of the CollisionShape2D or CollisionPolygon2D `node` under `m` (the body's
/// global transform times the node's own) to `out`; false when it has no shape. Throws
/// collide::Error naming the node.
bool shape_parts(Files& files, const Node& node, const Affine& m, BodyParts& out);

/// Throws collide::Error naming `n` when a coordinate or size of `parts` is not finite (a
/// transform that overflows the double range).
void require_finite(const Node& n, const std::vector<Part>& parts);

/// The fields of `p` after its type (SceneText::begin_shape or begin_part).
void write_part_fields(SceneText& out, const Part& p);

}  // namespace collide::detail::godot
