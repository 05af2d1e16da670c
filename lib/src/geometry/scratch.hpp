// A worker's reusable buffers for the pair tests, in the spirit of Box2D v3's task context:
// one is made per worker thread (check() makes one for each of its workers, a public entry
// point one for its call) and passed down by reference, so that testing a pair allocates
// nothing once the buffers have grown, and no state hides in thread_locals. Each buffer
// belongs to one function, which empties it on entry: the functions nest (collide_into calls
// collide_simple, which calls classify), so they never share one.
#pragma once

#include "collide/types.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace collide::detail {

/// A part of a piece, from lo to hi along its direction; a missing end is unbounded.
struct PieceSpan {
    bool has_lo = false;
    bool has_hi = false;
    Vec2 lo;
    Vec2 hi;
};

/// The buffers, empty when made (a default-constructed vector allocates nothing).
struct Scratch {
    std::vector<Vec2> part_points;  // collide_into: the points of all colliding pairs of parts
    std::vector<Vec2> points;       // collide_simple: one pair's points, before normalizing
    std::vector<Vec2> events;       // classify (against a polygon): the events along a piece
    // linear_linear: the shared spans found, by piece of a and of b
    std::vector<std::pair<std::size_t, PieceSpan>> cover_a;
    std::vector<std::pair<std::size_t, PieceSpan>> cover_b;
};

}  // namespace collide::detail
