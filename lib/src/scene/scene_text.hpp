// Writing the text of a collide scene (scene_text.cpp), for the maps that import to one: a
// shape or grid per line, numbers in their shortest form that reads back to the same double.
// Or, for a check, the same shapes handed straight to the scene builder as the values that
// text would parse to: no text is written and none parsed.
#pragma once

#include "collide/geometry.hpp"
#include "collide/scene.hpp"

#include "scene/scene_builder.hpp"
#include "support/json_doc.hpp"
#include "support/lane.hpp"

#include <cstdint>
#include <memory>
#include <iosfwd>
#include <optional>

#include <string>
#include <string_view>
#include <vector>

namespace collide::detail {

/// Builds `{"format": "collide-scene", "version": 1, "shapes": [...], "grids": [...]}` one
/// element at a time: begin_shape / fields / end_shape, and grid(), in any interleaving
/// (shapes and grids are kept apart, each in the order given), then text().
class SceneText {
public:
    /// Writes text (text()).
    SceneText() = default;
    /// Hands each shape, as it ends, to `build` as element N of "shapes" (the scene reader's
    /// way); the text stays empty. The first shape the builder refuses is kept (failure())
    /// and the shapes after it are not built: the caller reports it once its own checks of
    /// the map have passed, as it would report the text's.
    explicit SceneText(SceneBuilder& build, bool text = false);

    /// Direct mode: the builder's problem with the first shape it refused; asked once
    /// flush() has built every shape.
    const std::optional<Fail>& failure() const { return failure_; }
    /// Direct mode: builds the shapes not built yet (nothing in text mode).
    void flush();
    /// Direct mode: the ids given to begin_shape were unique (the caller made them so), and the
    /// builder need not check them again, unless one was not UTF-8 (made so here, two such
    /// ids may have become one).
    void ids_unique() {
        if (build_ && !id_fixed_) build_->ids_known_unique();
    }

    /// Starts the next shape: `{"id": ID, "type": TYPE` (groups come with end_shape).
    void begin_shape(std::string_view id, std::string_view type);
    /// Starts the next part of the compound shape in progress: `{"type": TYPE`.
    void begin_part(std::string_view type);
    void end_part();
    /// `"parts": [` of the compound shape in progress.
    void begin_parts();
    void end_parts();
    // Keys are the scene format's field names, literals: in direct mode the values keep
    // them as views.
    /// `, "key": number`
    void number(std::string_view key, double v);
    /// `, "key": [x, y]`
    void pair(std::string_view key, Vec2 v);
    /// `, "key": [[x, y], ...]`
    void points(std::string_view key, const std::vector<Vec2>& pts);
    /// `, "ignore": [...], "groups": [...]}` (no key for an empty list)
    void end_shape(const std::vector<std::string>& groups, const std::vector<std::string>& ignore = {});

    /// The scene's "pairs" (written before its shapes; set once, before text()).
    void set_pairs(const std::vector<std::string>& specs);
    /// A grid of `cols` x `rows` cells, solid where `solid(col, row)`, with `outside` "empty"
    /// or "solid". Grids are built as they are, never as text (a 16384 x 16384 layer is 32 MiB
    /// of bits, not 256 MiB of '#' and '.' parsed again): grids() hands them over, and
    /// grids_text() writes them for `collide import`.
    template <class Solid>
    void grid(std::string_view id, const std::vector<std::string>& groups, Vec2 origin, Vec2 tile,
              std::size_t cols, std::size_t rows, bool outside_solid, Solid&& solid) {
        Grid g = grid_head(id, groups, origin, tile, cols, rows, outside_solid);
        for (std::size_t r = 0, i = 0; r < rows; ++r)
            for (std::size_t c = 0; c < cols; ++c, ++i)
                if (solid(c, r)) g.bits[i / 64] |= std::uint64_t{1} << (i % 64);
        grids_.push_back(std::move(g));
    }
    /// A grid whose bits the caller fills in: grid_head, then set bits, then add(grid).
    static Grid grid_head(std::string_view id, const std::vector<std::string>& groups, Vec2 origin, Vec2 tile,
                          std::size_t cols, std::size_t rows, bool outside_solid);
    void add(Grid g) { grids_.push_back(std::move(g)); }

    /// The grids so far, in the order given; the builder keeps none.
    std::vector<Grid> grids() { return std::move(grids_); }

    /// The scene text without its grids (`"grids": []`); the builder's text is left empty.
    std::string text();

private:
    void key(std::string_view k);
    void text_key(std::string_view k);  // the text's alone

    static constexpr const char* kHead = "{\"format\": \"collide-scene\", \"version\": 1,\n \"shapes\": [";
    std::string shapes_ = kHead;  ///< the scene's text up to the last shape written
    std::string pairs_;           ///< ` "pairs": [...],\n` when set
    std::vector<Grid> grids_;
    std::string* out_ = &shapes_;  ///< where fields go: the shape in progress
    std::size_t shape_count_ = 0;
    std::size_t parts_ = 0;  ///< parts written in the compound in progress
    // Direct mode: shapes are handed over in batches of kBatch values, built on lane_ into the
    // scene's storage while the next batch is written into the other document; each batch is
    // merged (its notes taken, its failure kept) before the next is handed over, so the
    // shapes are built and refused in order, as one by one.
    static constexpr std::size_t kBatch = 2048;
    struct Batch {
        std::vector<JsonValue> values;
        std::size_t first = 0;  // the index of its first shape
        std::vector<SceneBuilder::ShapeNotes> notes;
        std::optional<Fail> fail;
    };
    void hand_over();
    void settle();  // waits for the batch on the lane and merges it

    bool text_ = true;  // text is written (always without a builder)
    bool id_fixed_ = false;  // an id was not UTF-8, written with U+FFFD
    SceneBuilder* build_ = nullptr;
    std::unique_ptr<JsonDoc> docs_[2];
    JsonDoc* doc_ = nullptr;  // docs_[cur_]: the shapes in progress
    int cur_ = 0;
    std::vector<JsonValue> batch_;  // written into doc_, not handed over yet
    Batch building_;                // on the lane (when active_)
    bool active_ = false;
    std::optional<Fail> failure_;
    Lane lane_;  // last: done with the documents before they go
};

/// Writes `text` (from SceneText::text()) with `grids` written into its `"grids": []`, each
/// grid's rows as strings of '#' (solid) and '.': the scene as `collide import` prints it,
/// a row at a time (a 16384 x 16384 layer is 268 MB of rows, never held whole).
/// `ignores` (Ignore::object: a grid's index) give grids their "ignore".
void write_with_grids(std::ostream& out, std::string_view text, const std::vector<Grid>& grids,
                      const std::vector<Ignore>& ignores = {});

}  // namespace collide::detail
