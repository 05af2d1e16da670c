// The broad phase of a scene check: which objects of a scene may meet, as pairs of objects
// (shapes, and grids past the shapes), from the broad-phase index over their bounds.
#pragma once

#include "check/broadphase.hpp"
#include "scene/selection.hpp"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace collide::detail {

/// The index behind a check. Its entries are the shapes some spec selects, by their bounds;
/// the grids whose outside is empty, by their extent (one whose outside is solid meets every
/// shape not wholly inside it: it is a partner of every shape, listed in `solid_grids`); and,
/// for a compound whose parts are spread out, each part by its own bounds instead of the
/// compound's box, so that the shapes between its parts are not its candidates (a compound of
/// 4,096 parts over a level would otherwise be a candidate of everything). Pairs come out as
/// objects: a compound's parts speak for it, and a pair found through several parts is the
/// same pair (for_each_pair may repeat it; partners() does not).
class SceneCandidates {
public:
    SceneCandidates(const Scene& scene, const Selections& sel, const CheckOptions& options, unsigned threads);

    /// How far apart two objects may be and still make a pair: the largest of --near and the
    /// rules' clearances (0: only objects whose bounds meet).
    double reach() const { return reach_; }

    /// The shapes taking part (some spec or rule may select them), ascending.
    const std::vector<std::uint32_t>& shapes() const { return items_; }
    /// Grids whose outside is solid and that some spec selects, ascending: partners of every shape.
    const std::vector<std::uint32_t>& solid_grids() const { return solid_; }

    /// Calls emit(i, j), i < j two objects of which at least one is a shape, for every pair
    /// of candidates (some more than once when a compound is indexed by its parts), in no
    /// particular order; stops early, returning false, when emit does. Share `part` of
    /// `parts` as BroadIndex::for_each_pair.
    template <class Emit>
    bool for_each_pair(Emit&& emit, unsigned part, unsigned parts) const {
        return index_->for_each_pair(
            [&](std::uint32_t i, std::uint32_t j) {
                const std::uint32_t x = owner(i);
                const std::uint32_t y = owner(j);
                if (x == y || (x >= ns_ && y >= ns_)) return true;  // two parts of one compound, or two grids
                return x < y ? emit(x, y) : emit(y, x);
            },
            part, parts);
    }

    /// The objects other than shape a that make a candidate pair with it (the solid grids
    /// aside), ascending, each once. The relation is symmetric: a shape finds every shape that
    /// finds it. `one`: the calling worker's buffer, reused (its contents are replaced).
    void partners(std::uint32_t a, std::vector<std::uint32_t>& out, std::vector<std::uint32_t>& one) const;

    /// Whether the reach has indexes of its own (split mode): with a reach (--near,
    /// clearance), when some used shape is not on both sides of the specs and rules that ask
    /// for distances. Bounds then keep their size in the main index (pairs that meet), and a
    /// shape on a left side of those specs and rules asks, by its bounds grown by the reach,
    /// an index of the objects on a right side, and one on a right side an index of those on
    /// a left side: one probe and n walls with --near 1e7 is n candidates, not n^2 / 2 (when
    /// every bound was grown, the walls all met). Else every bound is grown by half the reach
    /// in the one index. for_each_pair is not to be used in split mode.
    bool split_reach() const { return split_reach_; }

private:
    // The object an entry of the index stands for.
    std::uint32_t owner(std::uint32_t entry) const { return entry < parts_from_ ? entry : part_owner_[entry - parts_from_]; }
    void add_grids(const FloatFrame& frame);
    void add_lines(const FloatFrame& frame);
    void split_compounds(const FloatFrame& frame);
    void add_line(std::uint32_t entry, const Shape& s, const FloatFrame& frame);

    Bounds grown(const Bounds& b, double by) const;
    void choose_sides(const Selections& sel, const CheckOptions& options);
    void build_reach_indexes(const FloatFrame& frame, const CheckOptions& options, unsigned threads);
    // The entries of an object: its own, or a split compound's parts.
    template <class F>
    void each_entry(std::uint32_t object, F&& f) const;

    const Scene& scene_;
    std::uint32_t ns_;
    double reach_ = 0.0;
    std::vector<std::uint32_t> items_;
    std::vector<std::uint32_t> solid_;
    std::vector<std::uint32_t> entries_;  // what the index holds, ascending
    std::vector<FBounds> bounds_;         // by entry: shapes, then grids, then compound parts
    std::vector<std::pair<std::uint32_t, Unbounded>> lines_;  // entries that are lines or rays
    std::uint32_t parts_from_;            // the first part entry
    std::vector<std::uint32_t> part_owner_;                   // by part entry - parts_from_
    std::vector<std::pair<std::uint32_t, std::uint32_t>> split_;  // (compound, its first part entry), ascending
    std::optional<BroadIndex> index_;  // made once the entries are known
    double growth_ = 0.0;              // what the main index's bounds are grown by: reach / 2, or 0 split
    bool split_reach_ = false;
    std::vector<std::uint8_t> side_;   // split: the sides of the distance specs (choose_sides)
    // split: the objects on a left (right) side, bounds grown by reach / 2
    std::optional<BroadIndex> reach_left_, reach_right_;
};

}  // namespace collide::detail
