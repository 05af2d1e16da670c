// The pairwise test without an allocation per colliding pair, for check().
#pragma once

#include "collide/geometry.hpp"

#include <optional>
#include <vector>

namespace collide::detail {

/// collide(a, b) that appends the outline intersection points (as Contact::points has them)
/// to *points instead of returning them in a vector of their own; with points null, they are
/// not computed. Returns the relation, or nothing when the shapes share no point.
std::optional<Relation> collide_into(const Shape& a, const Shape& b, std::vector<Vec2>* points);

}  // namespace collide::detail
