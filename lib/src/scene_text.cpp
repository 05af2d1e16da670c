// The text of a collide scene, for imported maps (scene_text.hpp).
#include "scene_text.hpp"

#include "text_encoding.hpp"

namespace collide::detail {

void SceneText::key(std::string_view k) {
    *out_ += ", ";
    json_string(*out_, k);
    *out_ += ": ";
}

void SceneText::begin_shape(std::string_view id, std::string_view type) {
    out_ = &shapes_;
    shapes_ += shape_count_++ == 0 ? "\n  {\"id\": " : ",\n  {\"id\": ";
    json_string(shapes_, id);
    key("type");
    json_string(shapes_, type);
}

void SceneText::begin_parts() {
    key("parts");
    shapes_ += '[';
    parts_ = 0;
}

void SceneText::begin_part(std::string_view type) {
    shapes_ += parts_++ == 0 ? "{\"type\": " : ", {\"type\": ";
    json_string(shapes_, type);
}

void SceneText::end_part() { shapes_ += '}'; }

void SceneText::end_parts() { shapes_ += ']'; }

void SceneText::number(std::string_view k, double v) {
    key(k);
    append_number(*out_, v);
}

void SceneText::pair(std::string_view k, Vec2 v) {
    key(k);
    *out_ += '[';
    append_number(*out_, v.x);
    *out_ += ", ";
    append_number(*out_, v.y);
    *out_ += ']';
}

void SceneText::points(std::string_view k, const std::vector<Vec2>& pts) {
    key(k);
    *out_ += '[';
    for (std::size_t i = 0; i < pts.size(); ++i) {
        if (i > 0) *out_ += ", ";
        *out_ += '[';
        append_number(*out_, pts[i].x);
        *out_ += ", ";
        append_number(*out_, pts[i].y);
        *out_ += ']';
    }
    *out_ += ']';
}

namespace {
void groups_array(std::string& out, const std::vector<std::string>& groups) {
    out += '[';
    for (std::size_t i = 0; i < groups.size(); ++i) {
        if (i > 0) out += ", ";
        json_string(out, groups[i]);
    }
    out += ']';
}
}  // namespace

void SceneText::end_shape(const std::vector<std::string>& groups) {
    if (!groups.empty()) {
        key("groups");
        groups_array(shapes_, groups);
    }
    shapes_ += '}';
}

void SceneText::begin_grid(std::string_view id, const std::vector<std::string>& groups, Vec2 origin, Vec2 tile,
                           bool outside_solid) {
    out_ = &grids_;
    grids_ += grid_count_++ == 0 ? "\n  {\"id\": " : ",\n  {\"id\": ";
    json_string(grids_, id);
    if (!groups.empty()) {
        key("groups");
        groups_array(grids_, groups);
    }
    pair("tile_size", tile);
    pair("origin", origin);
    key("outside");
    grids_ += outside_solid ? "\"solid\"" : "\"empty\"";
    key("rows");
    grids_ += '[';
    rows_ = 0;
}

std::size_t SceneText::begin_row(std::size_t cols) {
    grids_ += rows_++ == 0 ? "\n    \"" : ",\n    \"";
    const std::size_t at = grids_.size();
    grids_.append(cols, '.');  // only '#' and '.': nothing to escape
    grids_ += '"';
    return at;
}

void SceneText::end_grid() {
    grids_ += "]}";
    out_ = &shapes_;
}

std::string SceneText::text() {
    // The text so far is moved, not copied: a big map's scene is tens of MB.
    std::string out = std::move(shapes_);
    out.reserve(out.size() + grids_.size() + 32);
    out += "\n ],\n \"grids\": [";
    out += grids_;
    out += "\n ]}\n";
    shapes_ = kHead;
    grids_.clear();
    shape_count_ = grid_count_ = 0;
    return out;
}

}  // namespace collide::detail
