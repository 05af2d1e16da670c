// The pairwise test without an allocation per colliding pair, for check().
#pragma once

#include "collide/geometry.hpp"

#include <optional>
#include <vector>

namespace collide::detail {

class EdgeIndex;

/// collide(a, b) that appends the outline intersection points (as Contact::points has them)
/// to *points instead of returning them in a vector of their own; with points null, they are
/// not computed. Returns the relation, or nothing when the shapes share no point.
/// index_a, index_b: the shapes' edge indexes (edge_index.hpp), or null to read every edge
/// (the same answer, in O(Va * Vb) for two polygons).
std::optional<Relation> collide_into(const Shape& a, const Shape& b, std::vector<Vec2>* points,
                                     const EdgeIndex* index_a = nullptr, const EdgeIndex* index_b = nullptr);

}  // namespace collide::detail
