// The distance of a shape to a tile grid (SPEC §2.6): to the nearest solid cell, and to the
// solid outside when the grid's outside is solid.
//
// Cells are the closed rects between the exact lattice edges origin + k tile (lattice.hpp).
// The solid outside, for distances, is the closure of what §2.4 calls the outside (the open
// region beyond the grid's closed extent): a shape inside the extent is at the gap to the
// border from it, and a shape flush with the border is at distance 0 from it without
// colliding with it, as a shape flush with a solid cell is.
#pragma once

#include "collide/types.hpp"
#include "queries/collide_into.hpp"

namespace collide::detail {

/// collide::distance and collide::compare_distance reading what is prepared about each side
/// (a big polygon's or polyline's edge index, a compound's part index: collide_into.hpp), as
/// check() has it for a scene's shapes; the same answers, without building an index a pair.
/// scratch: the calling worker's buffers (scratch.hpp).
double distance(const Shape& a, const Shape& b, Prepared pa, Prepared pb, Scratch& scratch);
int compare_distance(const Shape& a, const Shape& b, double d, Prepared pa, Prepared pb, Scratch& scratch);

class SolidCells;  // solid_cells.hpp

/// The exact sign of (the distance of s to the grid's nearest solid cell or solid outside) - d,
/// d finite >= 0: -1 below, 0 equal, +1 above (+1 when the grid has nothing solid). With the
/// grid's SolidCells, only solid cells are visited; with the shape's prepared form, nothing
/// is built for it (the same answers).
int compare_distance(const Shape& s, const Grid& g, double d, const SolidCells* solid = nullptr,
                     const Prepared& prep = {});

/// That distance correctly rounded: 0 when the shape collides with the grid (shape_vs_grid)
/// or touches a solid cell or the solid outside flush; +inf when the grid has nothing solid.
double distance(const Shape& s, const Grid& g, const SolidCells* solid = nullptr, const Prepared& prep = {});

}  // namespace collide::detail
