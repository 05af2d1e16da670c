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
#include <string_view>
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

/// Findings a team knew of when it adopted collide (SPEC §3.1 "Baselines"): keys of rule, input
/// file as named, and the ids of a and b -- no coordinates, so an object moved keeps its key
/// and one renamed does not. A known finding is still reported (`"known": true`, SARIF level
/// note) but fails nothing; the keys no longer found are `fixed`.
class Baseline {
public:
    /// A baseline file's text (`--baseline FILE`); throws Error naming the file and the JSON path.
    static Baseline read(std::string_view text, const std::string& file);
    /// The text of a baseline holding `findings` (warnings left out), sorted, one key a line.
    static std::string text(const std::vector<Finding>& findings);

    /// Whether `f` is known; marks its key found.
    bool known(const Finding& f) const;
    /// The keys of input `scene` not found so far: the fixed findings once the scene is checked.
    std::size_t fixed(const std::string& scene) const;
    std::size_t size() const { return keys_.size(); }

private:
    struct Key {
        std::string rule, file, a, b;
        bool operator<(const Key& o) const;
    };
    static Key key_of(const Finding& f);
    std::vector<Key> keys_;                 // sorted
    mutable std::vector<char> found_;       // per key
};

}  // namespace collide
