// What the pair test (pair_test.cpp) and its kernels for straight pieces
// (pair_test_pieces.cpp) and for regions (pair_test_regions.cpp) share: the walks over the
// edges or pieces of a Geo (a shape reduced to its geometric kind, geometry/shape_geo.hpp)
// that may meet a partner, which a big shape's edge index narrows, and the kernels those two
// files define for the dispatch table. Internal to the three files.
#pragma once

#include "geometry/capsule.hpp"
#include "geometry/edge_index.hpp"
#include "geometry/pieces.hpp"
#include "geometry/shape_geo.hpp"
#include "geometry/scratch.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace collide::detail {

// ---- candidates ----------------------------------------------------------------------------
// A big shape's index narrows the edges a pair test reads to those near the partner; the
// exact tests then decide as they do on all edges, and no result depends on the order in
// which edges are met (points are sorted, and flags are ORed).

// Calls f(i) for the edges i (a polygon's edges, or straight pieces) of g that may meet
// what the box `near` holds: with an index only those whose boxes meet it, else every one.
// Stops when f returns false. Returns how many it visited: an edge not visited lies outside
// `near`, and `near` is read only with an index.
template <class F>
std::size_t each_edge_near(const Geo& g, const Bounds& near, F&& f) {
    std::size_t seen = 0;
    auto visit = [&](std::size_t i) {
        ++seen;
        return f(i);
    };
    if (g.index) {
        g.index->each_meeting(near, visit);
    } else {
        for (std::size_t i = 0, n = g.edge_count(); i < n && visit(i); ++i) {
        }
    }
    return seen;
}

// The box of a polygon (exact: vertex coordinates).
inline Bounds polygon_box(const Geo& g) { return g.index ? g.index->bounds() : ring_bounds(g.ring()); }

// Calls f(i, j) for the pairs of pieces of a and b that may meet: with an index on either
// side only those whose boxes meet (O(n log m) for two big shapes), else every pair.
template <class F>
void each_piece_pair(const Geo& a, const Geo& b, F&& f) {
    if (b.index) {
        each_edge_near(a, b.index->bounds(), [&](std::size_t i) {
            b.index->each_meeting(box_of(a.pieces()[i]), [&](std::size_t j) {
                f(i, j);
                return true;
            });
            return true;
        });
    } else if (a.index) {
        for (std::size_t j = 0; j < b.pieces().size(); ++j) {
            a.index->each_meeting(box_of(b.pieces()[j]), [&](std::size_t i) {
                f(i, j);
                return true;
            });
        }
    } else {
        for (std::size_t i = 0; i < a.pieces().size(); ++i)
            for (std::size_t j = 0; j < b.pieces().size(); ++j) f(i, j);
    }
}

// ---- the kernels of the other files --------------------------------------------------------
// a is of the lower kind; null pts: no points wanted; scratch: the worker's buffers (scratch.hpp).

// pair_test_pieces.cpp
Topo linear_linear(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch& scratch);
Topo linear_disk(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch& scratch);
Topo linear_polygon(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch& scratch);
// pair_test_regions.cpp
Topo disk_disk(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch& scratch);
Topo disk_polygon(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch& scratch);
Topo polygon_polygon(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch& scratch);

}  // namespace collide::detail
