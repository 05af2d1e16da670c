// Writing the text of a collide scene (scene_text.cpp), for the maps that import to one: a
// shape or grid per line, numbers in their shortest form that reads back to the same double.
#pragma once

#include "collide/geometry.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace collide::detail {

/// Builds `{"format": "collide-scene", "version": 1, "shapes": [...], "grids": [...]}` one
/// element at a time: begin_shape / fields / end_shape, and grid(), in any interleaving
/// (shapes and grids are kept apart, each in the order given), then text().
class SceneText {
public:
    /// Starts the next shape: `{"id": ID, "type": TYPE` (groups come with end_shape).
    void begin_shape(std::string_view id, std::string_view type);
    /// Starts the next part of the compound shape in progress: `{"type": TYPE`.
    void begin_part(std::string_view type);
    void end_part();
    /// `"parts": [` of the compound shape in progress.
    void begin_parts();
    void end_parts();
    /// `, "key": number`
    void number(std::string_view key, double v);
    /// `, "key": [x, y]`
    void pair(std::string_view key, Vec2 v);
    /// `, "key": [[x, y], ...]`
    void points(std::string_view key, const std::vector<Vec2>& pts);
    /// `, "groups": [...]}` (no key when groups is empty)
    void end_shape(const std::vector<std::string>& groups);

    /// A grid of `cols` x `rows` cells written as strings of '#' (solid) and '.', from
    /// `solid(col, row)`, with `outside` "empty" or "solid".
    template <class Solid>
    void grid(std::string_view id, const std::vector<std::string>& groups, Vec2 origin, Vec2 tile,
              std::size_t cols, std::size_t rows, bool outside_solid, Solid&& solid) {
        begin_grid(id, groups, origin, tile, outside_solid);
        grids_.reserve(grids_.size() + rows * (cols + 8) + 16);
        for (std::size_t r = 0; r < rows; ++r) {
            const std::size_t at = begin_row(cols);  // cols of '.', filled in place
            char* row = &grids_[at];
            for (std::size_t c = 0; c < cols; ++c)
                if (solid(c, r)) row[c] = '#';
        }
        end_grid();
    }

    /// The whole scene text; the builder is left empty.
    std::string text();

private:
    void begin_grid(std::string_view id, const std::vector<std::string>& groups, Vec2 origin, Vec2 tile,
                    bool outside_solid);
    /// Appends the next row as `cols` '.' and returns where its first character is.
    std::size_t begin_row(std::size_t cols);
    void end_grid();
    void key(std::string_view k);

    static constexpr const char* kHead = "{\"format\": \"collide-scene\", \"version\": 1,\n \"shapes\": [";
    std::string shapes_ = kHead;  ///< the scene's text up to the last shape written
    std::string grids_;
    std::string* out_ = &shapes_;  ///< where fields go: the shape or the grid in progress
    std::size_t shape_count_ = 0;
    std::size_t grid_count_ = 0;
    std::size_t parts_ = 0;  ///< parts written in the compound in progress
    std::size_t rows_ = 0;   ///< rows written in the grid in progress
};

}  // namespace collide::detail
