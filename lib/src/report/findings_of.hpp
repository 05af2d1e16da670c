// The findings of a check one record at a time (findings.cpp), for the CI formats, which
// stream collisions as the check hands them over, and for collide::findings().
#pragma once

#include "collide/findings.hpp"

#include <functional>
#include <optional>

namespace collide::detail {

Finding collision_finding(const Scene& scene, const Collision& c);
/// A failed expectation of move k, or nothing.
std::optional<Finding> move_finding(const Scene& scene, std::size_t k, const MoveResult& m);
/// Rule k's findings, when it failed: each violation, or its empty result.
void rule_findings(const Scene& scene, std::size_t k, const RuleResult& r, const std::function<void(Finding&&)>& emit);
/// The scene's warnings and the selectors that select nothing, as findings (--strict).
void warning_findings(const Scene& scene, const SceneResult& r, const std::function<void(Finding&&)>& emit);

}  // namespace collide::detail
