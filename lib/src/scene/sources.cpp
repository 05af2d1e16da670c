// Where a scene's elements were written (collide/scene.hpp, SPEC §3.1): the compact table a
// scene keeps, and the line and column read_scene gives each element it recorded.
#include "scene/sources.hpp"

#include "support/json_locate.hpp"

#include <algorithm>
#include <utility>

namespace collide {

std::uint32_t SceneSources::layer_index(std::string_view name) {
    // Shapes come layer after layer: the last one first.
    if (!layers.empty() && layers.back() == name) return static_cast<std::uint32_t>(layers.size());
    const std::hash<std::string_view> hash;
    if (layer_table_.size() != layers.size()) {  // `layers` set from outside: the table made again
        layer_table_.clear();
        for (std::size_t k = 0; k < layers.size(); ++k) layer_table_.emplace(hash(layers[k]), static_cast<std::uint32_t>(k + 1));
    }
    const std::size_t h = hash(name);
    const auto [from, to] = layer_table_.equal_range(h);
    std::uint32_t found = 0;  // the first such layer, as a search from the front finds it
    for (auto it = from; it != to; ++it)
        if (layers[it->second - 1] == name && (found == 0 || it->second < found)) found = it->second;
    if (found != 0) return found;
    layers.emplace_back(name);
    layer_table_.emplace(h, static_cast<std::uint32_t>(layers.size()));
    return static_cast<std::uint32_t>(layers.size());
}

void SceneSources::add(std::vector<At>& list, std::uint32_t line, std::uint32_t column, std::string_view layer,
                       std::uint64_t object, std::string iid) {
    Detail d;
    d.layer = layer.empty() ? 0 : layer_index(layer);
    d.object = object;
    d.iid = std::move(iid);
    details.push_back(std::move(d));
    list.push_back(At{line, column, static_cast<std::uint32_t>(details.size())});
}

void SceneSources::add_tile(std::uint32_t line, std::uint32_t column, std::string_view layer, std::int64_t col,
                            std::int64_t row) {
    add(shapes, line, column, layer);
    Detail& d = details.back();
    d.has_tile = true;
    d.tile_col = col;
    d.tile_row = row;
}

Source SceneSources::expand(const std::vector<At>& list, std::size_t k) const {
    Source s;
    s.file = file;
    if (k >= list.size()) return s;
    const At& at = list[k];
    s.line = at.line;
    s.column = at.column;
    if (at.detail == 0 || at.detail > details.size()) return s;
    const Detail& d = details[at.detail - 1];
    if (d.layer > 0 && d.layer <= layers.size()) s.layer = layers[d.layer - 1];
    s.object = d.object;
    s.iid = d.iid;
    s.has_tile = d.has_tile;
    s.tile_col = d.tile_col;
    s.tile_row = d.tile_row;
    return s;
}

namespace detail {

namespace {

std::vector<SceneSources::At> located(const std::vector<std::size_t>& offsets, LineCounter& lines) {
    std::vector<SceneSources::At> out;
    out.reserve(offsets.size());
    for (const std::size_t offset : offsets) {
        SceneSources::At at;
        if (offset != static_cast<std::size_t>(-1)) {
            const TextPos p = lines.at(offset);
            at.line = static_cast<std::uint32_t>(p.line);
            at.column = static_cast<std::uint32_t>(p.column);
        }
        out.push_back(at);
    }
    return out;
}

}  // namespace

void locate_elements(Scene& scene, const SceneBuilder::Offsets& offsets, std::string_view text, bool elements) {
    LineCounter lines(text);
    scene.sources.file = scene.file;
    if (elements) {
        scene.sources.shapes = located(offsets.shapes, lines);
        scene.sources.grids = located(offsets.grids, lines);
        scene.sources.moves = located(offsets.moves, lines);
    }
    scene.sources.rules.clear();
    for (const SceneSources::At& at : located(offsets.rules, lines)) {
        Source s;
        s.file = scene.file;
        s.line = at.line;
        s.column = at.column;
        scene.sources.rules.push_back(std::move(s));
    }
}

}  // namespace detail

}  // namespace collide
