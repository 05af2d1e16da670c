// Folder grids/: tile grids (SPEC §2.4). Shapes against a grid's solid cells (this header,
// shape_grid.cpp), moves on a grid (grid_moves.cpp, grid_sweep), distances to the solid
// cells (distance_grid.cpp, solid_cells) and the exact lattice of cell edges (lattice). It
// includes queries/, geometry/, numeric/ and collide/types.hpp, geometry.hpp; check/ uses
// it.
//
// Shapes against tile grids, and moves on them (SPEC §2.4).
#pragma once

#include "collide/types.hpp"
#include "queries/collide_into.hpp"

#include <optional>

namespace collide::detail {

/// The solid cells a shape's interior meets (sorted by row, then column) and whether it
/// reaches the grid's solid outside; nothing when it meets neither.
struct GridHit {
    std::vector<Cell> cells;
    bool outside = false;
    std::vector<std::uint32_t> parts;  ///< a compound's parts that hit, ascending
};
std::optional<GridHit> shape_vs_grid(const Shape& shape, const Grid& grid);
/// The same, reading the shape's prepared form (collide_into.hpp), as check() has it.
std::optional<GridHit> shape_vs_grid(const Shape& shape, const Prepared& prep, const Grid& grid);
/// The same for a shape that is no compound, reduced (make_geo).
std::optional<GridHit> shape_vs_grid(const Geo& shape, const Grid& grid);

/// Whether a move is allowed, and where it stops when it is not.
MoveResult run_move(const Move& move, const Grid& grid);

}  // namespace collide::detail
