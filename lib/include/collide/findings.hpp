// collide/findings.hpp — what makes a check fail, each at the place it was written (SPEC §3.1),
// for the CI formats (gcc, github, sarif, junit) and for programs of their own.
//
// A finding is each violation of a failed rule (a pair, or for `each` a shape), a rule `some`
// that found nothing, a failed move expectation, and with FindingOptions::fail_on_collision
// each collision; with `strict`, each warning (a selector that selects nothing, an object a
// map skipped, a gid naming no tile). Collisions without a rule are not findings. Places come
// from Scene::sources: read scenes with ReadOptions::sources for their lines and columns.
#pragma once

#include "collide/check.hpp"
#include "collide/scene.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace collide {

struct Finding {
    enum class Kind : std::uint8_t { Violation, NothingFound, Move, Collision, Warning };
    Kind kind = Kind::Violation;
    /// The rule's name (Violation, NothingFound); "move", "collision" or "warning" for the
    /// other kinds: the SARIF ruleId and the gcc format's [RULE].
    std::string rule;
    std::string scene;  ///< Scene::file
    std::string a;      ///< the shape or grid on side a, the move's id, or empty
    std::string b;      ///< the shape or grid on side b, or empty
    std::string message;  ///< one line, naming side b and where it is
    Source at;            ///< side a, the move, the rule (NothingFound) or the warning's place
    std::optional<Source> other;  ///< side b
};

struct FindingOptions {
    bool fail_on_collision = false;  ///< each collision is a finding
    bool strict = false;             ///< each warning is a finding
};

/// The findings of one checked scene, in report order: collisions (fail_on_collision), failed
/// move expectations, the rules' violations and empty results, then warnings (strict).
std::vector<Finding> findings(const Scene& scene, const SceneResult& result, const FindingOptions& options);

/// "FILE:LINE:COL" (or "FILE:LINE", "FILE") of a source, as compilers and CI point at a place.
std::string place_text(const Source& s);

}  // namespace collide
