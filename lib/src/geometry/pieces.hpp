// Folder geometry/: the primitives shapes are made of, and their exact meetings. Straight
// pieces against pieces, rings and circles (this header), the capsule and its outline points
// (capsule*), the edge index of a big polygon or polyline (edge_index), and a shape reduced
// to its geometric kind, with a big shape's edge index kept once per check, which every query
// and grid test reads (shape_geo). It includes numeric/ and collide/types.hpp; queries/, grids/,
// scene/ and check/ use it.
//
// Straight pieces against straight pieces, polygons and circles: the few primitive
// algorithms every shape pair is built from (see queries/pair_test.cpp for the dispatch).
#pragma once

#include "geometry/edge_index.hpp"
#include "numeric/predicates.hpp"

#include <array>
#include <optional>
#include <vector>

namespace collide::detail {

/// How two pieces meet. Decided exactly; only `point` of a proper crossing is computed.
struct PieceHit {
    enum Kind : std::uint8_t { None, Point, Overlap } kind = None;
    /// Point: where they meet. When `proper` is false it is an input point, exactly.
    Vec2 point;
    /// Point: the crossing lies in the interior of both pieces (and is computed).
    bool proper = false;
    /// Point: false when a proper crossing lies beyond the double range (nearly parallel
    /// pieces): the pieces meet, but `point` has no value to hold and is not set.
    bool representable = true;
    /// Overlap: the shared piece from lo to hi along the first piece's direction; a missing
    /// end (has_lo / has_hi false) is unbounded. Ends are input points, exactly.
    bool has_lo = false;
    bool has_hi = false;
    Vec2 lo;
    Vec2 hi;
};

/// Exact intersection of two straight pieces.
PieceHit intersect(const Piece& a, const Piece& b);

/// Which parts of a piece lie in a closed region's open interior, on its boundary, and in
/// its open exterior.
struct PieceClass {
    bool inside = false;
    bool boundary = false;
    bool outside = false;
};

/// Classify a piece against a simple polygon; when `points` is given, append the points
/// where the piece meets the polygon's boundary (crossings, and shared pieces' ends).
/// Here and below, a computed point beyond the double range is left out (see scaled.hpp).
/// With the polygon's edge index, only the edges whose boxes meet the piece's are read.
/// `start`: where s.p lies (as locate_in_polygon says) when the caller knows it, else
/// kUnknownLocation. A piece that meets no edge lies wholly where its start does, so the
/// edges of a chain far from the polygon need no point location after the first.
/// `events`: a buffer to reuse (its contents are replaced), as Scratch::events.
constexpr int kUnknownLocation = 2;
PieceClass classify(const Piece& s, PolygonRef poly, std::vector<Vec2>* points, std::vector<Vec2>& events,
                    int start = kUnknownLocation);

/// Where the next piece of a chain (a polygon's edges, a polyline's pieces: each starts where
/// the one before ends) starts, when the last piece classified lay wholly inside or outside.
class ChainStart {
public:
    /// The `start` for classifying piece i.
    int of(std::size_t i) const { return i == next_ ? loc_ : kUnknownLocation; }
    /// Piece i, a segment, was classified as c.
    void after(std::size_t i, const PieceClass& c) {
        next_ = i + 1;
        // Only a piece that met no edge is wholly inside or wholly outside.
        loc_ = c.boundary || c.inside == c.outside ? kUnknownLocation : (c.inside ? 1 : -1);
    }

private:
    std::size_t next_ = static_cast<std::size_t>(-1);
    int loc_ = kUnknownLocation;
};

/// Classify a piece against a disk (radius > 0); when `points` is given, append the
/// points where the piece meets the circle.
PieceClass classify(const Piece& s, const Circle& c, std::vector<Vec2>* points);

/// At most two points, held in place: what needs no buffer of its own.
struct TwoPoints {
    std::array<Vec2, 2> p;
    std::size_t n = 0;
    std::size_t size() const { return n; }
    const Vec2& operator[](std::size_t i) const { return p[i]; }
    const Vec2* begin() const { return p.data(); }
    const Vec2* end() const { return p.data() + n; }
    void push_back(const Vec2& x) { p[n++] = x; }
};

/// The points where two circles' outlines meet (none when they are equal), given ext and
/// in, the signs of d^2 - (ra + rb)^2 and d^2 - (ra - rb)^2 for the distance d of the
/// centres (`in` is only read when ext < 0).
TwoPoints circle_circle_points(const Circle& a, const Circle& b, int ext, int in);

}  // namespace collide::detail
