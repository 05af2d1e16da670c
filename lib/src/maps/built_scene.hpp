// The scene a map's converter builds directly for a check (MapBuild::Scene): the scene
// builder the scene reader feeds, and the SceneText that hands it each shape as it ends.
// read_map_scene (maps.cpp) finishes it.
#pragma once

#include "collide/maps.hpp"

#include "scene/scene_builder.hpp"
#include "scene/scene_text.hpp"

#include <memory>
#include <string>

namespace collide::detail {

struct BuiltScene {
    explicit BuiltScene(const std::string& name) : builder(name), shapes(builder) {}
    BuiltScene(const BuiltScene&) = delete;
    BuiltScene& operator=(const BuiltScene&) = delete;

    SceneBuilder builder;
    SceneText shapes;  // writes into builder
};

/// Where a converter writes its scene: text (MapBuild::Text) or a BuiltScene, kept in the
/// MapImport it makes.
class SceneOut {
public:
    SceneOut(const std::string& name, MapBuild build)
        : built_(build == MapBuild::Scene ? std::make_shared<BuiltScene>(name) : nullptr) {}
    SceneText& operator*() { return built_ ? built_->shapes : text_; }
    SceneText* operator->() { return &**this; }
    /// Hands the scene (text or built) and its grids to `out`.
    void finish(MapImport& out) {
        (**this).flush();
        if (built_) out.built = built_;
        else out.text = text_.text();
        out.grids = (**this).grids();
    }

private:
    SceneText text_;
    std::shared_ptr<BuiltScene> built_;
};

}  // namespace collide::detail
