// How the chunks of an infinite map's tile layer become grids (README "Tiled maps"): one grid
// over them all, or, when their bounding box is mostly empty, groups split at the widest gaps.
#pragma once

#include "maps/tiled_model.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace collide::detail::tiled {

struct ChunkBox {
    std::int64_t x0, y0, x1, y1;  // in tiles, [x0, x1) x [y0, y1)
};

/// The bounding box of the blocks `part` names (indices into `blocks`, at least one).
ChunkBox box_of(const std::vector<TileBlock>& blocks, const std::vector<std::size_t>& part);

/// The chunks of a layer as groups, each one grid (README "Tiled maps"): all of them, unless
/// their bounding box is mostly empty (over 2^22 cells and over 4 times the cells of
/// the chunks); then they are split along the longer side at the widest gap between chunks
/// (in half by count where there is none), and each half likewise. Memory follows the
/// chunks, not the distance between them: two 16 x 16 chunks 100,000 tiles apart are two
/// small grids, not 10^10 cells. A finite layer is one block, one grid.
std::vector<std::vector<std::size_t>> chunk_groups(const std::vector<TileBlock>& blocks);

}  // namespace collide::detail::tiled
