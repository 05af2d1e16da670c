// collide/check.hpp — running a scene: pair selection, broad phase, exact tests, rules.
//
// check() selects the pairs a scene (or the caller) asks for, finds the candidates with a
// broad phase, tests each with collide() and evaluates the rules. The result is the same
// for every broad phase and thread count: collisions are ordered by the index of `a`, then
// of `b`, where grids are indexed after all shapes.
#pragma once

#include "collide/geometry.hpp"
#include "collide/scene.hpp"
#include "collide/types.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace collide {

/// How candidate pairs are found. All give identical results.
enum class Broadphase : std::uint8_t {
    Auto,   ///< picks one from the scene's size
    Grid,   ///< uniform grid of cells sized from the shapes
    Sweep,  ///< sort and sweep on the x axis
    Brute,  ///< every pair
};

/// Candidate pairs (i < j, sorted) among `items` (indices into `bounds`) whose closed
/// bounds overlap; unbounded components are handled exactly.
std::vector<std::pair<std::uint32_t, std::uint32_t>> candidate_pairs(const std::vector<Bounds>& bounds,
                                                                     const std::vector<std::uint32_t>& items,
                                                                     Broadphase method);

/// Counters a caller may watch from another thread while check() runs (a progress line):
/// check() adds to them, relaxed, once per block of shapes or chunk of results rather than
/// per pair, and never resets them, so one CheckProgress can follow several checks. Nothing
/// else is promised about when they move; they are final when check() returns.
struct CheckProgress {
    /// Candidate pairs given the exact test: the pairs the broad phase lets through that a
    /// pair spec or a rule asks about (shape-shape and shape-grid), each once.
    std::atomic<std::uint64_t> pairs_tested{0};
    /// Collisions reported (Summary::collisions: after --no-touch, up to max_collisions).
    std::atomic<std::uint64_t> collisions{0};
};

/// Options of a check.
struct CheckOptions {
    Broadphase broadphase = Broadphase::Auto;
    bool no_touch = false;  ///< drop touch-only pairs everywhere (reports, summary, rules)
    bool points = true;     ///< compute the outline intersection points
    std::optional<std::vector<PairSpec>> pairs;  ///< replaces the scene's pair specs
    unsigned threads = 1;   ///< worker threads; the result never depends on it
    std::size_t max_collisions = 0;  ///< stop after this many reported collisions (0: no limit)
    /// Memory bound of the broad phase: it finds candidate pairs in spatial order and sorts
    /// them into report order while they number at most this many (8 bytes each); scenes
    /// with more candidates are checked one shape at a time, in constant extra memory. The
    /// result never depends on it.
    std::size_t pair_buffer = std::size_t{1} << 22;
    /// `--near D` (D >= 0): also report each selected pair that does not collide but lies
    /// within distance D (SceneResult::near, SPEC §2.6).
    std::optional<double> near;
    /// `--separation`: give each colliding pair of convex shapes its minimum translation
    /// vector (Collision::separation, SPEC §2.7).
    bool separation = false;
    /// When set, check() counts its progress into it (see CheckProgress); the caller keeps it
    /// alive for the check.
    CheckProgress* progress = nullptr;
};

/// A reported collision. `a` is a shape index; `b` a shape index, or shapes.size() + the
/// index of a grid.
struct Collision {
    std::size_t a = 0;
    std::size_t b = 0;
    Relation relation = Relation::Touch;
    std::vector<Vec2> points;  ///< shape-shape: outline intersection (see collide())
    std::vector<Cell> cells;   ///< shape-grid: solid cells hit, by row then column
    bool outside = false;      ///< shape-grid: reaches the grid's solid outside
    /// When a (or b) is a compound: the indices of its parts that collide, ascending (SPEC §4
    /// `parts_a` / `parts_b`); empty otherwise.
    std::vector<std::uint32_t> parts_a;
    std::vector<std::uint32_t> parts_b;
    /// With CheckOptions::separation, for a pair of convex shapes: how to push b out of a.
    std::optional<Separation> separation;
};

/// A pair that does not collide but lies within CheckOptions::near (SPEC §2.6); a and b as
/// in Collision.
struct NearPair {
    std::size_t a = 0;
    std::size_t b = 0;
    double distance = 0.0;  ///< the exact distance, correctly rounded
};

/// The outcome of a rule. Violations are (a, b) pairs for `none` and (a, npos) shapes for
/// `each`.
struct RuleResult {
    bool passed = true;
    std::vector<std::pair<std::size_t, std::size_t>> violations;
    /// For a rule with `clearance`: the distance of each violating pair (0 when it
    /// collides), correctly rounded, in the order of `violations`.
    std::vector<double> distances;
};

/// Counts of what is reported.
struct Summary {
    std::size_t shapes = 0;
    std::size_t grids = 0;
    std::size_t collisions = 0;
    std::size_t moves = 0;
    std::size_t blocked = 0;
    std::size_t rules_failed = 0;  ///< failed rules plus failed move expectations
    std::optional<std::size_t> near;  ///< near pairs, when CheckOptions::near is set
    /// Violations the data ignores (Scene::ignores), when the scene has any ignores.
    std::optional<std::size_t> ignored;
};

/// Everything a check of one scene finds.
struct SceneResult {
    std::vector<Collision> collisions;
    std::vector<NearPair> near;     ///< with CheckOptions::near, in the order of collisions
    std::vector<MoveResult> moves;  ///< one per scene move, in scene order
    std::vector<RuleResult> rules;  ///< one per scene rule, in scene order
    Summary summary;
    std::vector<std::string> empty_selectors;  ///< selectors that select nothing, first use order
    bool truncated = false;  ///< stopped at CheckOptions::max_collisions (rules then saw part)
};

/// Check a scene. Never throws for a scene read_scene() accepted; throws Error for a bad
/// pair spec in options.
SceneResult check(const Scene& scene, const CheckOptions& options);

/// Check a scene, handing each reported collision to `sink` in report order instead of
/// keeping them (the result's `collisions` stays empty): memory stays bounded however many
/// pairs collide.
SceneResult check(const Scene& scene, const CheckOptions& options, const std::function<void(Collision&&)>& sink);

/// The same, also handing each near pair (CheckOptions::near) to `near_sink` in report order
/// instead of keeping them: the result's `near` stays empty and `summary.near` counts them.
/// Memory then follows neither the collisions nor the near pairs.
SceneResult check(const Scene& scene, const CheckOptions& options, const std::function<void(Collision&&)>& sink,
                  const std::function<void(const NearPair&)>& near_sink);

/// The id of object i (a shape, or a grid past the shapes).
const std::string& object_id(const Scene& scene, std::size_t i);

}  // namespace collide
