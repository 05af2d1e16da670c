// Map sources (map_sources.hpp).
#include "maps/map_sources.hpp"

#include "support/json_locate.hpp"

#include <algorithm>
#include <numeric>

namespace collide::detail {

void locate_sources(MapImport& map, std::string_view text) {
    struct Wanted {
        SceneSources::At* at;
        std::string_view pointer;
    };
    std::vector<Wanted> wanted;
    const auto want = [&wanted](const std::vector<MapSource>& from, std::vector<SceneSources::At>& to) {
        for (std::size_t k = 0; k < from.size() && k < to.size(); ++k) {
            const std::string& pointer = from[k].source_pointer.empty() ? from[k].json_path : from[k].source_pointer;
            if (to[k].line == 0 && !pointer.empty()) wanted.push_back({&to[k], pointer});
        }
    };
    want(map.shape_sources, map.sources.shapes);
    want(map.grid_sources, map.sources.grids);
    want(map.warning_sources, map.sources.warnings);
    if (wanted.empty()) return;
    std::vector<std::string_view> pointers;
    pointers.reserve(wanted.size());
    for (const Wanted& w : wanted) pointers.push_back(w.pointer);
    const std::vector<std::size_t> offsets = find_pointers(text, pointers);
    // In the order of the text, so that the lines are counted in one pass.
    std::vector<std::size_t> order(wanted.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return offsets[a] < offsets[b]; });
    LineCounter lines(text);
    for (const std::size_t k : order) {
        if (offsets[k] == std::string_view::npos) continue;
        const TextPos p = lines.at(offsets[k]);
        wanted[k].at->line = static_cast<std::uint32_t>(p.line);
        wanted[k].at->column = static_cast<std::uint32_t>(p.column);
    }
}

}  // namespace collide::detail
