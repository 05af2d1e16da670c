#include "maps/tile_chunks.hpp"

#include <algorithm>

namespace collide::detail::tiled {

ChunkBox box_of(const std::vector<TileBlock>& blocks, const std::vector<std::size_t>& part) {
    ChunkBox b{blocks[part[0]].x, blocks[part[0]].y, blocks[part[0]].x, blocks[part[0]].y};
    for (const std::size_t k : part) {
        b.x0 = std::min(b.x0, blocks[k].x);
        b.y0 = std::min(b.y0, blocks[k].y);
        b.x1 = std::max<std::int64_t>(b.x1, blocks[k].x + blocks[k].width);
        b.y1 = std::max<std::int64_t>(b.y1, blocks[k].y + blocks[k].height);
    }
    return b;
}

std::vector<std::vector<std::size_t>> chunk_groups(const std::vector<TileBlock>& blocks) {
    constexpr std::uint64_t kSparseCells = std::uint64_t{1} << 22;
    std::vector<std::vector<std::size_t>> out, todo(1);
    for (std::size_t k = 0; k < blocks.size(); ++k) todo[0].push_back(k);
    while (!todo.empty()) {
        std::vector<std::size_t> part = std::move(todo.back());
        todo.pop_back();
        const ChunkBox b = box_of(blocks, part);
        const auto w = static_cast<std::uint64_t>(b.x1 - b.x0), h = static_cast<std::uint64_t>(b.y1 - b.y0);
        std::uint64_t held = 0;
        for (const std::size_t k : part) held += std::uint64_t{blocks[k].width} * blocks[k].height;
        const bool sparse = w > 0 && h > 0 && w > kSparseCells / h && w > 4 * held / h;  // w h > both, exactly
        if (part.size() == 1 || !sparse) {
            out.push_back(std::move(part));
            continue;
        }
        // Along the longer side: sorted by where each chunk starts, cut at the widest gap.
        const bool along_x = w >= h;
        const auto lo = [&](std::size_t k) { return along_x ? blocks[k].x : blocks[k].y; };
        const auto hi = [&](std::size_t k) {
            return along_x ? blocks[k].x + std::int64_t{blocks[k].width} : blocks[k].y + std::int64_t{blocks[k].height};
        };
        std::sort(part.begin(), part.end(), [&](std::size_t a, std::size_t c) { return lo(a) != lo(c) ? lo(a) < lo(c) : a < c; });
        std::size_t cut = part.size() / 2;
        std::int64_t reach = hi(part[0]), widest = 0;
        for (std::size_t i = 1; i < part.size(); ++i) {
            if (lo(part[i]) - reach > widest) {
                widest = lo(part[i]) - reach;
                cut = i;
            }
            reach = std::max(reach, hi(part[i]));
        }
        // Second half first on the stack: the first half comes out first.
        todo.emplace_back(part.begin() + static_cast<std::ptrdiff_t>(cut), part.end());
        todo.emplace_back(part.begin(), part.begin() + static_cast<std::ptrdiff_t>(cut));
    }
    for (std::vector<std::size_t>& part : out) std::sort(part.begin(), part.end());
    return out;
}

}  // namespace collide::detail::tiled
