// A shape reduced once to its geometric kind (Geo): a point, straight pieces, a disk, a
// polygon or a capsule, as Box2D stores a box as its polygon. The pair test
// (queries/pair_test.cpp) dispatches on the kind; the distance cores (queries/distance.cpp),
// the convex cores of separation (queries/separation.cpp), the sweeps (queries/sweep.cpp) and
// the grid tests (grids/shape_grid.cpp, grids/distance_grid.cpp) read what they need from it.
// make_geo is the one switch over shape types that does the reduction (SPEC §1.1: a circle or
// capsule of radius 0, a rect of zero extent, a segment of one point are what they degenerate
// to).
//
// A Geo is made where a query starts, on the stack: it views the Shape and the shape's edge
// index (which a check builds once per big shape, check/scene_indexes.hpp, and passes down as
// Prepared), and owns only the pieces of a small polyline or a single straight piece. Keeping
// one per shape for a whole check would cost more memory than rebuilding it: for the small
// shapes a scene is made of it is a few stores.
#pragma once

#include "collide/types.hpp"
#include "geometry/capsule.hpp"
#include "geometry/edge_index.hpp"
#include "geometry/pieces.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace collide::detail {

/// The five geometric kinds the pair test dispatches on.
enum class GeoKind : std::uint8_t { Point, Linear, Disk, Polygon, Capsule };

/// A shape reduced to its geometric kind. Views into the Shape (and its edge index); owns
/// only the pieces it made. A compound is not reduced (its parts are, one by one).
struct Geo {
    GeoKind kind = GeoKind::Point;
    ShapeType type = ShapeType::Point;  ///< what it was made from
    Vec2 pt;                            ///< Point
    Circle disk;                        ///< Disk (radius > 0); made from a Circle: it
    CapsuleRef capsule;                 ///< Capsule (core of positive length, radius > 0)
    bool is_rect = false;               ///< Polygon: an axis-aligned rect of positive area
    Rect rect;                          ///< made from a Rect (of any extent)
    std::array<Vec2, 4> corners;        ///< Polygon, when is_rect: counter-clockwise from min
    Ring poly_ring;                     ///< Polygon, when !is_rect
    std::vector<Piece> own_pieces;      ///< Linear, without an index
    std::array<Vec2, 2> bd;             ///< Linear: boundary points
    int nbd = 0;
    /// A big polygon's or polyline's edge index (then a polyline's pieces are the index's),
    /// or null: every edge is read.
    const EdgeIndex* index = nullptr;

    Ring ring() const { return is_rect ? Ring{corners.data(), 4} : poly_ring; }
    PolygonRef polygon() const { return PolygonRef(ring(), index); }
    const std::vector<Piece>& pieces() const { return index ? index->pieces() : own_pieces; }
    /// Polygon: its edges; Linear: its pieces.
    std::size_t edge_count() const { return kind == GeoKind::Polygon ? ring().n : pieces().size(); }
    bool in_boundary(const Vec2& x) const {
        for (int i = 0; i < nbd; ++i)
            if (bd[i] == x) return true;
        return false;
    }
};

/// The reduction of any shape but a compound (a compound gives a default Geo). index: the
/// shape's edge index when it is a big polygon or polyline and the caller has it, else null
/// (every edge is then read).
Geo make_geo(const Shape& shape, const EdgeIndex* index);

/// A Geo with an edge index of its own when the caller has none and the shape is big (for a
/// query of one pair, where building the index costs less than reading every edge).
struct OwnedGeo {
    std::unique_ptr<EdgeIndex> owned;
    Geo geo;
};
OwnedGeo make_indexed_geo(const Shape& shape, const EdgeIndex* index);

}  // namespace collide::detail
