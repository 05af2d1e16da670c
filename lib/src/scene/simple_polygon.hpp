// Simple-polygon validation: whether a ring's edges meet anywhere but at the vertex that
// consecutive edges share (SPEC §1, `polygon`), and if so, which two edges to name.
//
// Two algorithms give the same accept/reject answer, both with the exact predicates of
// predicates.hpp (no tolerance: a vertex 1 ulp off an edge is fine, one on it is not):
//  - ring_defect_pairwise: every pair of edges whose x extents overlap (edges sorted by
//    their smallest x), after a bounding-box rejection. O(n^2) at worst (a comb whose teeth
//    span the whole width) but the fastest for the small polygons most scenes hold.
//  - ring_defect_sweep: the Shamos–Hoey sweep (M. I. Shamos, D. Hoey, "Geometric
//    intersection problems", FOCS 1976), O(n log n): a line sweeps the vertices in (x, y)
//    order keeping the edges it crosses sorted bottom to top (the status structure of
//    Bentley & Ottmann 1979); a first contact between two edges shows up between two edges
//    that are neighbours in that order. Degenerate event points (several edges through one
//    vertex, a vertex on an edge, vertical and collinear edges) are handled as in de Berg,
//    Cheong, van Kreveld, Overmars, "Computational Geometry", 3rd ed., §2.1: at each vertex
//    the edges ending there, starting there and passing through it are found together, and
//    any edge passing through a vertex, a second vertex at the same point, or two edges
//    leaving a vertex in the same direction is a defect found on the spot.
// ring_defect picks the pairwise check below kSweepFromVertices vertices, the sweep above.
//
// Which pair is named. The pairwise check names what simple_polygon always named: take
// edges in order of smallest x (ties: lower index first); the first edge that meets or
// overlaps a later one (not merely at a shared vertex), with the first such later edge.
// The sweep stops at the first contact it finds. When that contact is a vertex (a vertex
// on an edge, a repeated vertex, an overlap: its end furthest left), it applies the same
// rule to the edges through that point only; for a proper crossing it names the two
// crossing edges. So a ring whose bad pairs all pass through one point (a bow tie, a pinch,
// a vertex on an edge, a spike folding back) gets the same message from both. A ring with
// contacts at several places (several crossings, or an overlap whose two ends both touch
// other edges) may get a different, equally true, pair from the sweep than from the
// pairwise check — and so from this code before it switched to the sweep for big rings.
#pragma once

#include "numeric/predicates.hpp"

#include <cstddef>
#include <optional>

namespace collide::detail {

/// Two edges of a ring that meet where they must not. Edge i runs from vertex i to
/// vertex i + 1 (cyclically); first < second.
struct RingDefect {
    std::size_t first = 0;
    std::size_t second = 0;
    bool overlap = false;  ///< they share a piece of positive length, not only points
};

/// Rings of at least this many vertices are checked by the sweep.
constexpr std::size_t kSweepFromVertices = 64;

/// The defect of a ring, or nothing when it is simple. The ring has at least 3 vertices
/// and no two cyclically consecutive vertices equal.
std::optional<RingDefect> ring_defect(Ring ring);

/// The same by the pairwise check (any size; quadratic at worst).
std::optional<RingDefect> ring_defect_pairwise(Ring ring);

/// The same by the Shamos–Hoey sweep (any size; O(n log n)).
std::optional<RingDefect> ring_defect_sweep(Ring ring);

}  // namespace collide::detail
