// The sources of a scene read from text (sources.cpp): line and column in bytes of each
// element read_scene's builder recorded (SPEC §3.1).
#pragma once

#include "collide/scene.hpp"
#include "scene/scene_builder.hpp"

#include <string_view>

namespace collide::detail {

/// Fills scene.sources from the builder's offsets into `text`: the file, the rules always, and
/// the shapes, grids and moves when `elements`.
void locate_elements(Scene& scene, const SceneBuilder::Offsets& offsets, std::string_view text, bool elements);

}  // namespace collide::detail
