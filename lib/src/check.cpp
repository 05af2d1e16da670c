// A scene check: which pairs are asked for (report specs and rule specs), which of them
// the broad phase lets through, the exact test of each, then the rules.
#include "collide/check.hpp"

#include "grid_ops.hpp"

#include <algorithm>
#include <unordered_map>

namespace collide {

const std::string& object_id(const Scene& scene, std::size_t i) {
    return i < scene.shapes.size() ? scene.shapes[i].id : scene.grids[i - scene.shapes.size()].id;
}

namespace {

// Which objects (shapes, then grids) each side of a pair spec selects.
struct Selection {
    std::vector<char> left;
    std::vector<char> right;

    bool forward(std::size_t i, std::size_t j) const { return left[i] && right[j]; }
    bool selects(std::size_t i, std::size_t j) const { return forward(i, j) || forward(j, i); }
    // The (a, b) order of a selected pair: from the left selector; both ways, lower index
    // first; a grid is always b.
    std::pair<std::size_t, std::size_t> oriented(std::size_t i, std::size_t j, std::size_t n_shapes) const {
        if (j >= n_shapes) return {i, j};
        if (i >= n_shapes) return {j, i};
        const bool fw = forward(i, j);
        const bool bw = forward(j, i);
        if (fw && bw) return {std::min(i, j), std::max(i, j)};
        return fw ? std::make_pair(i, j) : std::make_pair(j, i);
    }
};

// Builds the masks of the selectors that specs use. Ids and groups of every object are
// looked up in the (small) set of selectors, so the cost is one pass over the scene.
class Selector {
public:
    Selector(const Scene& scene, const std::vector<const PairSpec*>& specs, std::vector<std::string>& empty)
        : n_(scene.shapes.size() + scene.grids.size()), empty_(empty) {
        for (const PairSpec* sp : specs) {
            for (const std::string* sel : {&sp->left, &sp->right}) {
                if (*sel != "*" && index_.emplace(*sel, masks_.size()).second) masks_.emplace_back(n_, 0);
            }
        }
        if (index_.empty()) return;
        auto mark = [&](const std::string& key, std::size_t i) {
            const auto it = index_.find(key);
            if (it != index_.end()) masks_[it->second][i] = 1;
        };
        for (std::size_t i = 0; i < scene.shapes.size(); ++i) {
            mark(scene.shapes[i].id, i);
            for (const auto& g : scene.shapes[i].groups) mark(g, i);
        }
        for (std::size_t k = 0; k < scene.grids.size(); ++k) {
            mark(scene.grids[k].id, scene.shapes.size() + k);
            for (const auto& g : scene.grids[k].groups) mark(g, scene.shapes.size() + k);
        }
    }

    Selection select(const PairSpec& spec) { return Selection{mask(spec.left), mask(spec.right)}; }

private:
    std::vector<char> mask(const std::string& sel) {
        if (sel == "*") {
            if (n_ == 0) warn(sel);
            return std::vector<char>(n_, 1);
        }
        const std::vector<char>& m = masks_[index_.at(sel)];
        if (std::find(m.begin(), m.end(), 1) == m.end()) warn(sel);
        return m;
    }
    void warn(const std::string& sel) {
        if (std::find(empty_.begin(), empty_.end(), sel) == empty_.end()) empty_.push_back(sel);
    }

    std::size_t n_;
    std::vector<std::string>& empty_;
    std::unordered_map<std::string, std::size_t> index_;  // selector -> mask
    std::vector<std::vector<char>> masks_;
};

struct RuleState {
    Selection sel;
    std::size_t hits = 0;
    std::vector<char> satisfied;  // each: shapes that collide with something on the right
};

}  // namespace

SceneResult check(const Scene& scene, const CheckOptions& options) {
    SceneResult res;
    const std::size_t ns = scene.shapes.size();
    const std::size_t n = ns + scene.grids.size();
    std::vector<Selection> report;
    const std::vector<PairSpec> default_specs{PairSpec{"*", "*"}};
    const std::vector<PairSpec>& specs =
        options.pairs ? *options.pairs : (scene.pairs.empty() ? default_specs : scene.pairs);
    std::vector<const PairSpec*> all_specs;
    for (const PairSpec& s : specs) all_specs.push_back(&s);
    for (const Rule& r : scene.rules) all_specs.push_back(&r.pairs);
    Selector selector(scene, all_specs, res.empty_selectors);
    for (const PairSpec& s : specs) {
        if (s.left.empty() || s.right.empty())
            throw Error("", "", "pair spec '" + s.left + ":" + s.right + "' is not of the form A:B (selectors: a group, an id or *)");
        report.push_back(selector.select(s));
    }
    std::vector<RuleState> rules;
    for (const Rule& r : scene.rules) rules.push_back(RuleState{selector.select(r.pairs), 0, std::vector<char>(ns, 0)});

    // Only shapes that some spec selects take part.
    std::vector<std::uint32_t> items;
    for (std::size_t i = 0; i < ns; ++i) {
        bool used = false;
        for (const Selection& s : report) used = used || s.left[i] || s.right[i];
        for (const RuleState& r : rules) used = used || r.sel.left[i] || r.sel.right[i];
        if (used) items.push_back(static_cast<std::uint32_t>(i));
    }

    // Every candidate pair (shape-shape from the broad phase, then every shape-grid pair).
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    {
        std::vector<Bounds> bounds(ns);
        for (std::uint32_t i : items) bounds[i] = bounds_of(scene.shapes[i].shape);
        for (const auto& [i, j] : candidate_pairs(bounds, items, options.broadphase)) pairs.emplace_back(i, j);
        for (std::uint32_t i : items)
            for (std::size_t g = ns; g < n; ++g) pairs.emplace_back(i, g);
    }

    for (const auto& [i, j] : pairs) {
        const Selection* rep = nullptr;
        for (const Selection& s : report) {
            if (s.selects(i, j)) {
                rep = &s;
                break;
            }
        }
        bool for_rules = false;
        for (const RuleState& r : rules) for_rules = for_rules || r.sel.selects(i, j);
        if (!rep && !for_rules) continue;

        const auto [a, b] = rep ? rep->oriented(i, j, ns) : std::make_pair(i, j);
        Collision c;
        c.a = a;
        c.b = b;
        if (b < ns) {
            const auto hit = collide(scene.shapes[a].shape, scene.shapes[b].shape, rep && options.points);
            if (!hit) continue;
            c.relation = hit->relation;
            c.points = std::move(hit->points);
        } else {
            auto hit = detail::shape_vs_grid(scene.shapes[a].shape, scene.grids[b - ns]);
            if (!hit) continue;
            c.relation = Relation::Overlap;
            c.cells = std::move(hit->cells);
            c.outside = hit->outside;
        }
        const bool touch = c.relation == Relation::Touch;
        if (touch && options.no_touch) continue;
        for (std::size_t k = 0; k < rules.size(); ++k) {
            RuleState& r = rules[k];
            if (!r.sel.selects(i, j) || (touch && scene.rules[k].ignore_touching)) continue;
            ++r.hits;
            if (scene.rules[k].expect == Rule::Expect::None) {
                res.rules.resize(rules.size());
                res.rules[k].violations.push_back(rep ? std::make_pair(a, b) : r.sel.oriented(i, j, ns));
            }
            if (i < ns && r.sel.forward(i, j)) r.satisfied[i] = 1;
            if (j < ns && r.sel.forward(j, i)) r.satisfied[j] = 1;
        }
        if (rep) res.collisions.push_back(std::move(c));
    }
    std::sort(res.collisions.begin(), res.collisions.end(),
              [](const Collision& x, const Collision& y) { return x.a < y.a || (x.a == y.a && x.b < y.b); });

    res.rules.resize(rules.size());
    for (std::size_t k = 0; k < rules.size(); ++k) {
        RuleResult& out = res.rules[k];
        switch (scene.rules[k].expect) {
            case Rule::Expect::None: out.passed = rules[k].hits == 0; break;
            case Rule::Expect::Some: out.passed = rules[k].hits > 0; break;
            case Rule::Expect::Each:
                for (std::size_t i = 0; i < ns; ++i)
                    if (rules[k].sel.left[i] && !rules[k].satisfied[i]) out.violations.emplace_back(i, static_cast<std::size_t>(-1));
                out.passed = out.violations.empty();
                break;
        }
        std::sort(out.violations.begin(), out.violations.end());
        if (!out.passed) ++res.summary.rules_failed;
    }

    res.moves.reserve(scene.moves.size());
    for (const Move& m : scene.moves) {
        MoveResult mr = detail::run_move(m, scene.grids[m.grid]);
        if (m.expect_allowed) {
            mr.passed = *m.expect_allowed == mr.allowed;
            if (!*mr.passed) ++res.summary.rules_failed;
        }
        if (!mr.allowed) ++res.summary.blocked;
        res.moves.push_back(mr);
    }

    res.summary.shapes = ns;
    res.summary.grids = scene.grids.size();
    res.summary.collisions = res.collisions.size();
    res.summary.moves = scene.moves.size();
    return res;
}

}  // namespace collide
