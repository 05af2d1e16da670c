// A shape as the cores its distance is measured from (distance_terms.hpp): one point, or
// straight pieces, grown by a radius. Shared by distance.cpp and distance_grid.cpp.
#pragma once

#include "geometry/edge_index.hpp"
#include "geometry/shape_geo.hpp"
#include "queries/distance_terms.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace collide::detail {

/// A point (circle: centre and radius) or pieces: kept, or read from a big polygon's or
/// polyline's edge index. Pieces are never degenerate (a segment of one point is the point).
struct Cores {
    double r = 0.0;
    bool is_point = false;
    Vec2 point;
    std::vector<Piece> pieces;
    const EdgeIndex* index = nullptr;  // a big shape's

    std::size_t size() const { return is_point ? 1 : (index ? index->size() : pieces.size()); }
    Piece piece(std::size_t i) const { return index ? index->edge(i) : pieces[i]; }
    /// Some point of the set.
    Vec2 first() const { return is_point ? point : piece(0).p; }
};

/// The cores of a reduced shape (a compound's parts are taken one by one); a big one's are
/// read through the Geo's edge index when it has one (make_owned_geo builds it).
Cores cores_of(const Geo& g);

/// A box grown by e (>= 0, maybe +inf) on every side, rounded outward.
inline Bounds grown(Bounds b, double e) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    auto lo = [&](double v) { return std::nextafter(v - e, -inf); };
    auto hi = [&](double v) { return std::nextafter(v + e, inf); };
    return Bounds{Vec2{lo(b.min.x), lo(b.min.y)}, Vec2{hi(b.max.x), hi(b.max.y)}};
}

/// How far apart cores may lie and still give a term that matters: the term set's reach plus
/// both radii, a little more for rounding.
inline double core_reach(const TermSet& ts, Radii r) {
    return (ts.reach() + r.ra + r.rb) * (1.0 + 0x1p-40) + 0x1p-1000;
}

/// Calls f(piece) for each piece of c whose box meets q.
template <class F>
void each_piece_near(const Cores& c, const Bounds& q, F&& f) {
    if (c.index) {
        c.index->each_meeting(q, [&](std::size_t i) {
            f(c.index->edge(i));
            return true;
        });
        return;
    }
    for (const Piece& p : c.pieces)
        if (meets(box_of(p), q)) f(p);
}

}  // namespace collide::detail
