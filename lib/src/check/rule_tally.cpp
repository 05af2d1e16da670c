#include "check/rule_tally.hpp"

#include <algorithm>

namespace collide::detail {

RuleTally::RuleTally(const Scene& scene, const Selections& sel) : scene_(scene), sel_(sel), rules_(scene.rules.size()) {
    for (std::size_t k = 0; k < rules_.size(); ++k)
        if (scene.rules[k].expect == Rule::Expect::Each) rules_[k].satisfied.assign((sel_.rule_left_size(k) + 63) / 64, 0);
}

void RuleTally::count(const BlockOut& out) {
    const std::size_t ns = scene_.shapes.size();
    for (const BlockOut::RuleHit& h : out.hits) {
        RuleState& r = rules_[h.rule];
        ++r.hits;
        const Rule& rule = scene_.rules[h.rule];
        if (rule.expect == Rule::Expect::None) {
            if (rule.clearance) r.close.push_back({{h.a, h.b}, h.distance});
            else r.violations.push({h.a, h.b});
        }
        if (r.satisfied.empty()) continue;  // not an `each` rule
        for (const std::size_t x : {h.a, h.b}) {
            if (x < ns && sel_.rule_forward(h.rule, x, x == h.a ? h.b : h.a)) {
                const std::size_t rank = sel_.rule_left_rank(h.rule, x);
                r.satisfied[rank >> 6] |= std::uint64_t{1} << (rank & 63);
            }
        }
    }
}

void RuleTally::judge(SceneResult& res) {
    res.rules.resize(rules_.size());
    for (std::size_t k = 0; k < rules_.size(); ++k) {
        RuleResult& out = res.rules[k];
        switch (scene_.rules[k].expect) {
            case Rule::Expect::None: judge_none(k, out); break;
            case Rule::Expect::Some: out.passed = rules_[k].hits > 0; break;
            case Rule::Expect::Each: judge_each(k, out); break;
        }
        std::sort(out.violations.begin(), out.violations.end());
        if (!scene_.ignores.empty()) {
            const std::size_t dropped = drop_ignored(k, out);
            res.summary.ignored = res.summary.ignored.value_or(0) + dropped;
            if (scene_.rules[k].expect != Rule::Expect::Some) out.passed = out.violations.empty();
        }
        if (!out.passed) ++res.summary.rules_failed;
    }
}

// SPEC §3.1: a pair is ignored for a rule when either side ignores it (its name or "*").
// The ignored violations leave the result; how many is returned.
std::size_t RuleTally::drop_ignored(std::size_t k, RuleResult& out) const {
    const std::string& name = scene_.rules[k].name;
    const auto ignores = [&](std::size_t object) {
        if (object == static_cast<std::size_t>(-1)) return false;
        const auto it = std::lower_bound(scene_.ignores.begin(), scene_.ignores.end(), object,
                                         [](const Ignore& i, std::size_t o) { return i.object < o; });
        return it != scene_.ignores.end() && it->object == object &&
               std::any_of(it->rules.begin(), it->rules.end(), [&](const std::string& r) { return r == "*" || r == name; });
    };
    std::size_t kept = 0;
    for (std::size_t v = 0; v < out.violations.size(); ++v) {
        if (ignores(out.violations[v].first) || ignores(out.violations[v].second)) continue;
        out.violations[kept] = out.violations[v];
        if (v < out.distances.size()) out.distances[kept] = out.distances[v];
        ++kept;
    }
    const std::size_t dropped = out.violations.size() - kept;
    out.violations.resize(kept);
    if (!out.distances.empty()) out.distances.resize(kept);
    return dropped;
}

void RuleTally::judge_none(std::size_t k, RuleResult& out) {
    rules_[k].violations.move_into(out.violations);
    if (scene_.rules[k].clearance) {
        std::vector<std::pair<PairLog::Pair, double>>& close = rules_[k].close;
        std::sort(close.begin(), close.end());
        for (const auto& [pair, d] : close) {
            out.violations.push_back(pair);
            out.distances.push_back(d);
        }
    }
    out.passed = rules_[k].hits == 0;
}

void RuleTally::judge_each(std::size_t k, RuleResult& out) const {
    std::vector<std::size_t> left;
    sel_.rule_left(k, left);
    for (const std::size_t i : left) {
        const std::size_t rank = sel_.rule_left_rank(k, i);
        if (!((rules_[k].satisfied[rank >> 6] >> (rank & 63)) & 1u)) out.violations.emplace_back(i, static_cast<std::size_t>(-1));
    }
    out.passed = out.violations.empty();
}

}  // namespace collide::detail
