// A check's rules (SPEC §1.4): the hits the pair tests find are counted as the blocks are
// consumed, in report order; once every pair is tested, each rule is judged.
#pragma once

#include "check/block_out.hpp"
#include "collide/check.hpp"
#include "scene/selection.hpp"
#include "support/big_alloc.hpp"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace collide::detail {

class RuleTally {
public:
    RuleTally(const Scene& scene, const Selections& sel);

    /// Counts the rule hits of a block (its `hits`).
    void count(const BlockOut& out);
    /// Judges every rule into res.rules (in scene order) and counts the failed ones into
    /// res.summary.rules_failed. Once, after the last block.
    void judge(SceneResult& res);

private:
    struct RuleState {
        std::size_t hits = 0;
        PairLog violations;  // none: the pairs that collide
        // none with clearance: the pairs closer than the clearance, with their distances
        std::vector<std::pair<PairLog::Pair, double>> close;
        // each: which shapes of the left side (numbered by Selections::rule_left_rank) collide
        // with something on the right; other rules keep none
        std::vector<std::uint64_t> satisfied;
    };
    std::size_t drop_ignored(std::size_t k, RuleResult& out) const;
    void judge_none(std::size_t k, RuleResult& out);
    void judge_each(std::size_t k, RuleResult& out) const;

    const Scene& scene_;
    const Selections& sel_;
    std::vector<RuleState> rules_;
};

}  // namespace collide::detail
