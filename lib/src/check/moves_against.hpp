// Moves against shapes and grids (SPEC §1.3, §2.5): each move with `against` sweeps its body
// along its path and stops at the first obstacle it would enter.
#pragma once

#include "collide/check.hpp"
#include "collide/scene.hpp"

#include <string>
#include <vector>

namespace collide::detail {

class SceneIndexes;  // check/scene_indexes.hpp

/// Runs every move of the scene that has `against`, into results[k] for move k (the other
/// entries are left as they are). The shapes a selector selects are put in a uniform grid by
/// their bounds; each move walks the cells along its path, keeps the shapes whose bounds its
/// body may reach, and sweeps them in the order it may reach them until the rest come too
/// late. A body wider than a few cells (radius 1e6 against shapes a few units wide) searches
/// a bounding-volume tree of the shapes instead, best-first by the time it may reach a node,
/// then by the lowest index inside: its cost follows the nodes that may hold its first hit,
/// not the shapes its box covers. The first hit is decided exactly, ties going to the lower
/// object index (shapes, then grids). Selectors that select
/// nothing are appended to `empty` (if not there yet); their moves are allowed. With
/// threads > 1, moves are run on two threads; the results never depend on it. Obstacles are
/// read through their prepared forms in `edges` (the check's SceneIndexes), when given: a big
/// polygon's edges near a path alone.
void run_moves_against(const Scene& scene, std::vector<MoveResult>& results, std::vector<std::string>& empty,
                       unsigned threads, const SceneIndexes* edges = nullptr);

}  // namespace collide::detail
