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
    BuiltScene(const std::string& name, bool text) : builder(name), shapes(builder, text) {}
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
        : built_(build == MapBuild::Text ? nullptr : std::make_shared<BuiltScene>(name, build == MapBuild::TextAndScene)),
          text_too_(build == MapBuild::TextAndScene) {}
    SceneText& operator*() { return built_ ? built_->shapes : text_; }
    SceneText* operator->() { return &**this; }
    /// Hands the scene (text or built) and its grids to `out`.
    void finish(MapImport& out) {
        (**this).flush();
        if (built_) out.built = built_;
        if (!built_ || text_too_) out.text = (**this).text();
        out.grids = (**this).grids();
    }

private:
    SceneText text_;
    std::shared_ptr<BuiltScene> built_;
    bool text_too_ = false;  // TextAndScene: built_'s SceneText writes the text as well
};

}  // namespace collide::detail
