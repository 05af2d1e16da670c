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
#include "geometry/shape_geo.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace collide::detail {

/// A compound's parts as the pair tests read them: each part's bounds (exact, as bounds_of
/// gives them) and what each big part's reduction keeps (shape_geo.hpp), built once.
class PartIndex {
public:
    explicit PartIndex(const Compound& c);
    ~PartIndex();
    PartIndex(const PartIndex&) = delete;
    PartIndex& operator=(const PartIndex&) = delete;
    const Bounds& bounds(std::size_t part) const { return bounds_[part]; }
    /// What part `part` keeps (nothing but for a big part).
    GeoKeep keep(std::size_t part) const {
        const auto k = std::lower_bound(kept_at_.begin(), kept_at_.end(), part);
        return k != kept_at_.end() && *k == part ? kept_[static_cast<std::size_t>(k - kept_at_.begin())].view() : GeoKeep{};
    }

private:
    std::vector<Bounds> bounds_;
    std::vector<std::size_t> kept_at_;  // the parts that keep something, ascending
    std::vector<OwnedKeep> kept_;       // what each of them keeps
};

/// A shape's prepared form, what every query of a check reuses about it (shape_geo.hpp): a
/// big polygon's or polyline's edge index (or a polyline's pieces, for one query), or a
/// compound's part index; null members are computed as needed (the same answer, slower).
struct Prepared {
    Prepared(const EdgeIndex* e = nullptr, const PartIndex* p = nullptr,  // NOLINT: implicit
             const std::vector<Piece>* k = nullptr)
        : edges(e), parts(p), pieces(k) {}
    const EdgeIndex* edges;
    const PartIndex* parts;
    const std::vector<Piece>* pieces;
    GeoKeep keep() const { return GeoKeep{edges, pieces}; }
    /// What part i of a compound keeps (nothing without a part index).
    GeoKeep part_keep(std::size_t i) const { return parts ? parts->keep(i) : GeoKeep{}; }
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

/// The same for two shapes neither of which is a compound (pair_test.cpp), each read with
/// what it keeps (what is missing is built for the call).
std::optional<Relation> collide_simple(const Shape& a, const Shape& b, std::vector<Vec2>* points, GeoKeep keep_a,
                                       GeoKeep keep_b, Scratch& scratch);

/// The same for two shapes reduced already (make_geo), read through their Geos' edge indexes.
std::optional<Relation> collide_geos(const Geo& a, const Geo& b, std::vector<Vec2>* points, Scratch& scratch);

/// Sort points by x then y and drop duplicates (equal doubles: every point is correctly
/// rounded, so one crossing computed from two pairs of pieces gives the same double).
void normalize_points(std::vector<Vec2>& pts);

}  // namespace collide::detail
