// The capsule (SPEC §1.1): every point within r of its core segment a-b, closed, and its
// pair tests against the other geometric kinds (grid cells: grids.cpp).
//
// Booleans and relations are exact: every question reduces to the sign of a squared
// distance from a point to a straight piece against a squared radius (or a sum or
// difference of two radii), which is a polynomial in the inputs (see predicates.hpp).
// Which outline points exist is decided exactly: the outline's sides are irrational
// (a + r perp(d) / |d|), so those signs are sums of square roots, removed by squaring. Each
// coordinate of a point is the exact value correctly rounded (SPEC §2.3): a quotient with
// square roots, nested where a side meets a circle or another side (capsule_points.cpp).
// The same point found on two parts of an outline (a crossing at a cap's junction with a
// side) rounds to the same doubles and is merged.
// Limit: the points start from a computation in plain doubles; coordinates beyond about
// 1e150 overflow it, and the exact search then takes longer (the booleans stay exact).
#pragma once

#include "geometry/edge_index.hpp"
#include "numeric/predicates.hpp"

#include <vector>

namespace collide::detail {

/// The topological facts a relation is read from (geometry.cpp).
struct Topo {
    bool intersects = false;  ///< share a point
    bool interiors = false;   ///< interiors share a point
    bool a_in_b = false;      ///< every point of a lies in b
    bool b_in_a = false;
};

/// A capsule whose core has positive length (one with a == b is a disk).
struct CapsuleRef {
    Piece core;  ///< a segment from a to b
    double r = 0.0;
};

/// Sign of dist(x, s)^2 - (r1 + r2)^2 for a piece s, exact (r1 + r2 >= 0).
int point_piece_vs(const Piece& s, Vec2 x, double r1, double r2);

// Pair tests: the capsule is always b (it is the last kind in geometry.cpp's table).
Topo point_capsule(Vec2 p, const CapsuleRef& c, std::vector<Vec2>* pts);
/// Straight pieces (a segment, ray, line, or a polyline's pieces) against a capsule.
Topo pieces_capsule(PieceRun pieces, const CapsuleRef& c, std::vector<Vec2>* pts);
Topo disk_capsule(const Circle& d, const CapsuleRef& c, std::vector<Vec2>* pts);
Topo polygon_capsule(PolygonRef poly, const CapsuleRef& c, std::vector<Vec2>* pts);
Topo capsule_capsule(const CapsuleRef& a, const CapsuleRef& b, std::vector<Vec2>* pts);

}  // namespace collide::detail
