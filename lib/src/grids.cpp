#include "grid_ops.hpp"

namespace collide::detail {

std::optional<GridHit> shape_vs_grid(const Shape&, const Grid&) { return std::nullopt; }

MoveResult run_move(const Move&, const Grid&) { return MoveResult{}; }

}  // namespace collide::detail
