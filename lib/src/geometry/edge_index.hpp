// An index of the edges of a big polygon or the pieces of a big polyline, so that a pair
// test reads only the edges near its partner instead of all of them: without it, two shapes
// of 10^4 vertices cost 10^8 piece tests, and a 10^5-vertex polygon against each of 10,000
// small circles cost 10^5 tests a circle.
//
// It is a bounding-box hierarchy over the edges in chain order: a leaf boxes 8 consecutive
// edges, each level above boxes two boxes of the level below. A chain's consecutive edges
// are neighbours in the plane, so the boxes stay small, and building costs O(V) with no
// sort. It only chooses candidates: every edge whose box meets the query box is visited, and
// the exact predicates decide as before, so results do not change (only the order in which
// pieces are met, which no result depends on: points are sorted, classes and flags are ORs).
// Limits: an edge's box is all it knows, so long diagonal edges (a spiky star) make many
// candidates; a query is O(log V + k) for k edges whose boxes meet it.
#pragma once

#include "collide/types.hpp"
#include "numeric/predicates.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <vector>

namespace collide::detail {

// Boxes are Bounds (collide/types.hpp): closed, exact when their coordinates are input
// coordinates (or rounded outward), infinite components allowed.

/// Whether two closed boxes share a point.
inline bool meets(const Bounds& a, const Bounds& b) {
    return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y;
}

/// The box of a segment's ends (exact).
inline Bounds segment_box(const Vec2& p, const Vec2& q) {
    return Bounds{Vec2{std::min(p.x, q.x), std::min(p.y, q.y)}, Vec2{std::max(p.x, q.x), std::max(p.y, q.y)}};
}

/// The box of a ring's vertices, or of a polyline's points (exact; the zero box for none).
inline Bounds ring_bounds(Ring r) {
    Bounds b{r.n > 0 ? r[0] : Vec2{}, r.n > 0 ? r[0] : Vec2{}};
    for (std::size_t i = 1; i < r.n; ++i) {
        b.min = Vec2{std::min(b.min.x, r[i].x), std::min(b.min.y, r[i].y)};
        b.max = Vec2{std::max(b.max.x, r[i].x), std::max(b.max.y, r[i].y)};
    }
    return b;
}

/// The box of a piece (exact; unbounded for lines and rays).
Bounds box_of(const Piece& s);

/// A box holding the closed disk (its ends rounded outward).
Bounds box_of(const Circle& c);

/// The straight pieces of a polyline: a segment between each two distinct consecutive points.
std::vector<Piece> polyline_pieces(const std::vector<Vec2>& points);

/// Straight pieces, viewed: an edge index's, a kept vector's, or a Geo's one piece (valid
/// while what it views lives).
struct PieceRun {
    const Piece* p = nullptr;
    std::size_t n = 0;
    std::size_t size() const { return n; }
    bool empty() const { return n == 0; }
    const Piece& operator[](std::size_t i) const { return p[i]; }
    const Piece* begin() const { return p; }
    const Piece* end() const { return p + n; }
};
inline PieceRun run_of(const std::vector<Piece>& v) { return PieceRun{v.data(), v.size()}; }

/// Polygons with at least this many vertices, and polylines with at least this many points,
/// are indexed when a check or collide() tests them; below it reading every edge is cheaper
/// than the index (and the 1M-shape benchmark's small shapes never pay for one).
constexpr std::size_t kIndexFrom = 64;

/// The edges of a ring or a list of segments, with their box hierarchy. Immutable once built,
/// so any number of threads may query it at once.
class EdgeIndex {
public:
    /// Indexes a polygon's ring; the ring is not copied and must outlive the index.
    explicit EdgeIndex(Ring ring);
    /// Indexes segments (a polyline's pieces), which it keeps.
    explicit EdgeIndex(std::vector<Piece> pieces);

    std::size_t size() const { return n_; }
    Piece edge(std::size_t i) const { return pieces_.empty() ? ring_.edge(i) : pieces_[i]; }
    /// The ring, for an index of a polygon.
    Ring ring() const { return ring_; }
    /// The pieces, for an index of segments.
    const std::vector<Piece>& pieces() const { return pieces_; }
    /// The box of all edges (exact: input coordinates).
    const Bounds& bounds() const { return boxes_.back(); }
    /// Polygon: the vertices of least x, greatest x, least y and greatest y.
    const std::array<Vec2, 4>& extremes() const { return extremes_; }
    /// Polygon: ring_orientation of its ring (+1 counter-clockwise), found once; 0 for pieces.
    int orientation() const { return orientation_; }

    /// Calls f(i) for each edge i whose box meets q, in increasing i, until f returns false.
    template <class F>
    void each_meeting(const Bounds& q, F&& f) const;

private:
    void build();
    Bounds edge_box(std::size_t i) const {
        if (!pieces_.empty()) return segment_box(pieces_[i].p, pieces_[i].q);
        return segment_box(ring_[i], ring_[i + 1 == n_ ? 0 : i + 1]);
    }

    Ring ring_;
    std::vector<Piece> pieces_;
    std::size_t n_ = 0;
    std::vector<Bounds> boxes_;           // every level, leaves first; the last box is the root
    std::vector<std::size_t> levels_;  // where each level starts in boxes_, and the end
    std::array<Vec2, 4> extremes_;
    int orientation_ = 0;
};

/// A simple polygon as the pair tests read it: its ring, and for a big one the index of its
/// edges (null: every edge is read).
struct PolygonRef {
    PolygonRef(Ring r, const EdgeIndex* i = nullptr) : ring(r), index(i) {}
    Ring ring;
    const EdgeIndex* index;
};

/// locate_in_polygon, reading with an index only the edges that can hold x or cross the ray
/// from it (towards +x): those whose box meets [x, +inf) x [y, y].
int locate_indexed(const EdgeIndex& index, const Vec2& x);
int locate_indexed(const EdgeIndex& index, const Mid& x);
template <class Q>
int locate_in(PolygonRef poly, const Q& x) {
    return poly.index ? locate_indexed(*poly.index, x) : locate_in_polygon(poly.ring, x);
}

/// Whether a shape is a polygon or polyline with kIndexFrom or more points (inline: every
/// pair test asks, and nearly all shapes are small).
inline bool may_be_big(const Shape& s) {
    if (const auto* p = std::get_if<Polygon>(&s)) return p->points.size() >= kIndexFrom;
    if (const auto* l = std::get_if<Polyline>(&s)) return l->points.size() >= kIndexFrom;
    return false;
}

/// The index of a shape when it is a polygon or polyline big enough to need one, else null.
std::unique_ptr<EdgeIndex> index_if_big(const Shape& s);

// ---- implementation of the template ------------------------------------------------------

template <class F>
void EdgeIndex::each_meeting(const Bounds& q, F&& f) const {
    constexpr std::size_t kLeaf = 8;
    // Depth-first, left child first so edges come in increasing order. A stack entry is
    // (level, box index); the depth is at most log2(V / 8) + 1 < 64 levels.
    struct Entry {
        std::size_t level, k;
    };
    Entry stack[2 * 64];
    std::size_t top = 0;
    stack[top++] = Entry{levels_.size() - 2, 0};
    while (top > 0) {
        const Entry e = stack[--top];
        if (!meets(boxes_[levels_[e.level] + e.k], q)) continue;
        if (e.level == 0) {
            const std::size_t end = std::min(n_, (e.k + 1) * kLeaf);
            for (std::size_t i = e.k * kLeaf; i < end; ++i)
                if (meets(edge_box(i), q) && !f(i)) return;
            continue;
        }
        const std::size_t below = levels_[e.level] - levels_[e.level - 1];  // boxes on the level below
        if (2 * e.k + 1 < below) stack[top++] = Entry{e.level - 1, 2 * e.k + 1};
        stack[top++] = Entry{e.level - 1, 2 * e.k};
    }
}

}  // namespace collide::detail
