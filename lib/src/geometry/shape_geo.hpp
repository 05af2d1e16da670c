// A shape reduced to its geometric kind (Geo): a point, straight pieces, a disk, a polygon or
// a capsule, as Box2D stores a box as its polygon. The pair test (queries/pair_test.cpp)
// dispatches on the kind; the distance cores (queries/distance.cpp), the convex cores of
// separation (queries/separation.cpp), the sweeps (queries/sweep.cpp) and the grid tests
// (grids/shape_grid.cpp, grids/distance_grid.cpp) read what they need from it. make_geo is
// the one switch over shape types that does the reduction (SPEC §1.1: a circle or capsule of
// radius 0, a rect of zero extent, a segment of one point are what they degenerate to).
//
// The rule: what a reduction computes at a cost that grows with the shape is made once per
// shape per check: a big polygon's or polyline's edge index (a compound's big parts' in
// queries/collide_into.hpp's PartIndex), built by check/scene_indexes.hpp the first time a
// query asks and shared by the pair tests, grids, distances and sweeps (separation reduces
// only convex shapes, which keep nothing). That is a shape's GeoKeep. Everything else is a
// view of the Shape, made where a query starts: the Geo, in a few stores with no allocation
// and nothing cleared but its common fields, and a small polyline's pieces (make_owned_geo).
// Storing more would cost more than it saves, measured against making the views:
//  - Geos for a million-shape scene would take ~270 MB; even a table of 16-byte records (kind
//    and type), built on two threads and never read, added 0.03-0.05 s and 7 MB to the
//    million-shape check, where making every view costs ~0.6% of its one-thread profile.
//  - Small polylines' pieces kept per check (a slot each, found under the lock that guards
//    the big shapes') made a check of 100,000 small polylines among 200,000 shapes 50%
//    slower and 29% bigger (0.68 s and 91 MB against 0.45 s and 70 MB).
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

/// What the reduction of one shape computes beyond views of the Shape: a big polygon's or
/// polyline's edge index (whose pieces are then a polyline's), kept for the check; else a
/// polyline's pieces, kept for one query. Null members: none given.
struct GeoKeep {
    const EdgeIndex* index = nullptr;
    const std::vector<Piece>* pieces = nullptr;
};

/// Whether make_geo needs a GeoKeep for a shape: a big polygon or polyline, or any polyline
/// (inline: every query asks, and nearly all shapes need none).
inline bool needs_keep(const Shape& s) { return may_be_big(s) || std::holds_alternative<Polyline>(s); }

/// Whether `keep` holds all that shape s needs kept (then make_geo alone will do).
inline bool has_keep(const Shape& s, GeoKeep keep) { return keep.index || keep.pieces || !needs_keep(s); }

/// A GeoKeep's contents, owned: built once per shape (keep_of).
struct OwnedKeep {
    std::unique_ptr<EdgeIndex> index;
    std::vector<Piece> pieces;
    GeoKeep view() const { return GeoKeep{index.get(), &pieces}; }
};
/// What shape s needs kept (nothing for a shape that needs_keep says needs none).
OwnedKeep keep_of(const Shape& s);

/// A shape reduced to its geometric kind. Views into the Shape and its GeoKeep, and holds
/// the one piece of a segment, line or ray. A compound is not reduced (its parts are, one by
/// one).
struct Geo {
    Geo() {}  // NOLINT: user-provided, for the union below (GCC 12 deletes the implicit one)
    GeoKind kind = GeoKind::Point;
    ShapeType type = ShapeType::Point;  ///< what it was made from
    bool is_rect = false;               ///< Polygon: an axis-aligned rect of positive area
    int nbd = 0;                        ///< Linear: how many boundary points bd holds
    Vec2 pt;                            ///< Point
    Circle disk;                        ///< Disk (radius > 0); made from a Circle: it
    Rect rect;                          ///< made from a Rect (of any extent)
    Ring poly_ring;                     ///< Polygon, when !is_rect
    PieceRun kept;                      ///< Linear: a polyline's pieces, without an index
    // What only one kind holds, set by make_geo for that kind alone: a Geo is made for each
    // side of each pair, and clearing all of them was most of its cost.
    union {
        std::uint8_t unset = 0;
        CapsuleRef capsule;             ///< Capsule (core of positive length, radius > 0)
        std::array<Vec2, 4> corners;    ///< Polygon, when is_rect: counter-clockwise from min
        Piece one;                      ///< Linear, without index or kept pieces: its one piece
    };
    std::array<Vec2, 2> bd;             ///< Linear: boundary points
    /// A big polygon's or polyline's edge index (then a polyline's pieces are the index's),
    /// or null: every edge is read.
    const EdgeIndex* index = nullptr;

    Ring ring() const { return is_rect ? Ring{corners.data(), 4} : poly_ring; }
    PolygonRef polygon() const { return PolygonRef(ring(), index); }
    PieceRun pieces() const { return index ? run_of(index->pieces()) : kept.n > 0 ? kept : PieceRun{&one, 1}; }
    /// Polygon: its edges; Linear: its pieces.
    std::size_t edge_count() const { return kind == GeoKind::Polygon ? ring().n : pieces().size(); }
    bool in_boundary(const Vec2& x) const {
        for (int i = 0; i < nbd; ++i)
            if (bd[i] == x) return true;
        return false;
    }
};

/// The reduction of any shape but a compound (a compound gives a default Geo), reading what
/// `keep` holds: a polyline's must hold its pieces or its index (keep_of builds them).
Geo make_geo(const Shape& shape, GeoKeep keep = {});

/// A Geo with what it keeps owned beside it, for a query of one shape or pair with nothing
/// prepared: a big shape's edge index (building it costs less than reading every edge) and a
/// polyline's pieces, when `keep` lacks them.
struct OwnedGeo {
    OwnedKeep owned;
    Geo geo;
};
OwnedGeo make_owned_geo(const Shape& shape, GeoKeep keep = {});

}  // namespace collide::detail
