// Folder queries/: what one shape asks of another, the public collide/geometry.hpp. The pair
// test and its kernels (pair_test*, pair_geo.hpp, compound.cpp), the pair test for check()
// without an allocation per pair (this header), distance (distance*), separation, the first
// contact of a moving body (sweep*), and boxes and ellipses as polygons (box_ellipse.cpp).
// It includes geometry/, numeric/ and collide/types.hpp, geometry.hpp; grids/ and check/
// use it.
//
// The pairwise test without an allocation per colliding pair, for check().
#pragma once

#include "collide/geometry.hpp"
#include "geometry/scratch.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace collide::detail {

class EdgeIndex;

/// A compound's parts as the pair tests read them: each part's bounds (exact, as bounds_of
/// gives them) and the edge index of each big part, built once.
class PartIndex {
public:
    explicit PartIndex(const Compound& c);
    ~PartIndex();
    PartIndex(const PartIndex&) = delete;
    PartIndex& operator=(const PartIndex&) = delete;
    const Bounds& bounds(std::size_t part) const { return bounds_[part]; }
    const EdgeIndex* edges(std::size_t part) const { return edges_[part].get(); }

private:
    std::vector<Bounds> bounds_;
    std::vector<std::unique_ptr<EdgeIndex>> edges_;
};

/// What a pair test may reuse about one side: a big polygon's or polyline's edge index, or a
/// compound's part index; null members are computed as needed (the same answer, slower).
struct Prepared {
    Prepared(const EdgeIndex* e = nullptr, const PartIndex* p = nullptr) : edges(e), parts(p) {}  // NOLINT: implicit
    const EdgeIndex* edges;
    const PartIndex* parts;
};

/// Where a compound side's colliding parts go (appended ascending); null: not wanted.
struct PartsOut {
    std::vector<std::uint32_t>* a = nullptr;
    std::vector<std::uint32_t>* b = nullptr;
};

/// collide(a, b) that appends the outline intersection points (as Contact::points has them)
/// to *points instead of returning them in a vector of their own; with points null, they are
/// not computed. Returns the relation, or nothing when the shapes share no point. For a
/// compound side, the parts that collide go to `parts` (SPEC §2.1: the relation is touch when
/// every colliding pair of parts only touches, else overlap; points are the sorted union).
/// pa, pb: what is prepared about each side (the same answer without, in O(Va * Vb) for two
/// big polygons). scratch: the calling worker's buffers (scratch.hpp).
std::optional<Relation> collide_into(const Shape& a, const Shape& b, std::vector<Vec2>* points, Prepared pa,
                                     Prepared pb, Scratch& scratch, PartsOut parts = {});

/// The same for two shapes neither of which is a compound (pair_test.cpp).
std::optional<Relation> collide_simple(const Shape& a, const Shape& b, std::vector<Vec2>* points,
                                       const EdgeIndex* index_a, const EdgeIndex* index_b, Scratch& scratch);

struct Geo;  // geometry/shape_geo.hpp
/// The same for two shapes reduced already (make_geo), read through their Geos' edge indexes.
std::optional<Relation> collide_geos(const Geo& a, const Geo& b, std::vector<Vec2>* points, Scratch& scratch);

/// Sort points by x then y and drop duplicates (equal doubles: every point is correctly
/// rounded, so one crossing computed from two pairs of pieces gives the same double).
void normalize_points(std::vector<Vec2>& pts);

}  // namespace collide::detail
