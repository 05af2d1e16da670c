#include "scene/selection.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace collide::detail {

void Mask::list(std::size_t n, std::vector<std::uint32_t>& out) const {
    for (std::size_t w = 0; w < bits_.size() && w * 64 < n; ++w) {
        for (std::uint64_t bits = bits_[w]; bits != 0; bits &= bits - 1) {
            const std::size_t i = w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits));
            if (i >= n) return;
            out.push_back(static_cast<std::uint32_t>(i));
        }
    }
}

namespace {

// Numbers the distinct selectors (not `*`) in first-use order and finds each object's.
class Numbering {
public:
    std::uint32_t number(const std::string& sel) {
        if (sel == "*") return Selections::kNone;
        const auto [it, fresh] = index_.emplace(sel, static_cast<std::uint32_t>(names_.size()));
        if (fresh) names_.push_back(&it->first);
        return it->second;
    }
    std::size_t size() const { return names_.size(); }
    const std::string& name(std::uint32_t s) const { return *names_[s]; }

    /// Calls f(x, selectors) for every object x in order, with its selectors sorted and once
    /// each (its id and its groups that specs name).
    template <class F>
    void for_each_object(const Scene& scene, F&& f) const {
        // Most ids and groups are no selector: the length, tested first, rules out most.
        std::uint64_t lengths = 0;  // bit k: a selector of length k (k < 63), bit 63: longer
        for (const auto& kv : index_) lengths |= std::uint64_t{1} << std::min<std::size_t>(kv.first.size(), 63);
        auto selector = [&](const std::string& key) -> const std::uint32_t* {
            if (!((lengths >> std::min<std::size_t>(key.size(), 63)) & 1u)) return nullptr;
            const auto it = index_.find(key);
            return it != index_.end() ? &it->second : nullptr;
        };
        std::vector<std::uint32_t> mine;
        // Objects with the same groups mostly share one list (Groups): the selectors a list
        // names are looked up once for each run of objects that share it.
        const std::vector<std::string>* list = nullptr;
        std::vector<std::uint32_t> named;  // the selectors `list` names, sorted, once each
        auto visit = [&](std::size_t x, const std::string& id, const std::vector<std::string>& groups) {
            if (&groups != list) {
                list = &groups;
                named.clear();
                for (const auto& g : groups)
                    if (const std::uint32_t* s = selector(g)) named.push_back(*s);
                std::sort(named.begin(), named.end());
                named.erase(std::unique(named.begin(), named.end()), named.end());
            }
            const std::uint32_t* own = index_.empty() ? nullptr : selector(id);
            if (!own || std::binary_search(named.begin(), named.end(), *own)) {
                f(x, named);
                return;
            }
            mine = named;
            mine.insert(std::upper_bound(mine.begin(), mine.end(), *own), *own);
            f(x, mine);
        };
        for (std::size_t i = 0; i < scene.shapes.size(); ++i) visit(i, scene.shapes[i].id, scene.shapes[i].groups.names());
        for (std::size_t k = 0; k < scene.grids.size(); ++k)
            visit(scene.shapes.size() + k, scene.grids[k].id, scene.grids[k].groups.names());
    }

private:
    std::unordered_map<std::string, std::uint32_t> index_;
    std::vector<const std::string*> names_;  // keys of index_ (they do not move)
};

using Sides = std::pair<std::uint32_t, std::uint32_t>;  // a spec's selectors, left and right

// Whether selector s (kNone: `*`) selects no object; count[s]: its members.
bool selects_nothing(std::uint32_t s, const std::vector<std::size_t>& count, std::size_t objects) {
    return s == Selections::kNone ? objects == 0 : count[s] == 0;
}

// Appends each selector of the specs (report specs, then rules; left, then right) that
// selects nothing to `empty`, once, in first-use order.
void note_empty(const Numbering& numbering, const std::vector<Sides>& report, const std::vector<Sides>& rules,
                const std::vector<std::size_t>& count, std::size_t objects, std::vector<std::string>& empty) {
    std::unordered_set<std::uint32_t> warned;
    auto warn = [&](std::uint32_t s) {
        if (selects_nothing(s, count, objects) && warned.insert(s).second)
            empty.push_back(s == Selections::kNone ? "*" : numbering.name(s));
    };
    for (const auto* sides : {&report, &rules}) {
        for (const Sides& lr : *sides) {
            warn(lr.first);
            warn(lr.second);
        }
    }
}

}  // namespace

Selections::Selections(const Scene& scene, const std::vector<PairSpec>& report, const std::vector<Rule>& rules,
                       std::vector<std::string>& empty, std::size_t dense_up_to)
    : ns_(scene.shapes.size()), n_(ns_ + scene.grids.size()), dense_(report.size() + rules.size() <= dense_up_to) {
    Numbering numbering;
    std::vector<Sides> report_sides;
    for (const PairSpec& s : report) report_sides.emplace_back(numbering.number(s.left), numbering.number(s.right));
    for (const Rule& r : rules) rule_sides_.emplace_back(numbering.number(r.pairs.left), numbering.number(r.pairs.right));
    const std::size_t m = numbering.size();

    std::vector<std::size_t> count(m, 0);  // members of each selector
    if (dense_) {
        masks_.assign(m, Mask(n_, false));
        numbering.for_each_object(scene, [&](std::size_t x, const std::vector<std::uint32_t>& sels) {
            for (const std::uint32_t s : sels) {
                masks_[s].set(x);
                ++count[s];
            }
        });
        masks_.emplace_back(n_, true);  // `*`
    } else {
        obj_off_.reserve(n_ + 1);
        obj_off_.push_back(0);
        numbering.for_each_object(scene, [&](std::size_t, const std::vector<std::uint32_t>& sels) {
            obj_sels_.insert(obj_sels_.end(), sels.begin(), sels.end());
            obj_off_.push_back(obj_sels_.size());
            for (const std::uint32_t s : sels) ++count[s];
        });
        list_members(count);
    }
    note_empty(numbering, report_sides, rule_sides_, count, n_, empty);
    if (dense_) {
        auto mask = [&](std::uint32_t s) { return masks_[s == kNone ? m : s].data(); };
        for (const auto& lr : report_sides) dense_report_.push_back(DenseSpec{mask(lr.first), mask(lr.second)});
        for (const auto& lr : rule_sides_) dense_rules_.push_back(DenseSpec{mask(lr.first), mask(lr.second)});
        return;
    }
    distinct_specs(report_sides, count);
    anchor_specs(count);
}

// Each selector's members (sel_off_, sel_objs_) from each object's selectors.
void Selections::list_members(const std::vector<std::size_t>& count) {
    const std::size_t m = count.size();
    sel_off_.assign(m + 1, 0);
    for (std::size_t s = 0; s < m; ++s) sel_off_[s + 1] = sel_off_[s] + count[s];
    sel_objs_.resize(obj_sels_.size());
    std::vector<std::size_t> fill(sel_off_.begin(), sel_off_.end() - 1);
    for (std::size_t x = 0; x < n_; ++x)
        for (std::size_t p = obj_off_[x]; p < obj_off_[x + 1]; ++p) sel_objs_[fill[obj_sels_[p]]++] = static_cast<std::uint32_t>(x);
}

// Distinct specs, report specs first and in order (so the first that selects a pair is
// the one of lowest number); a spec with a side that selects nothing selects no pair.
void Selections::distinct_specs(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& report_sides,
                                const std::vector<std::size_t>& count) {
    std::unordered_map<std::uint64_t, std::uint32_t> distinct;
    auto spec = [&](Sides lr) -> Spec* {
        if (selects_nothing(lr.first, count, n_) || selects_nothing(lr.second, count, n_)) return nullptr;
        const auto [it, fresh] =
            distinct.emplace(std::uint64_t{lr.first} << 32 | lr.second, static_cast<std::uint32_t>(specs_.size()));
        if (fresh) specs_.push_back(Spec{lr.first, lr.second, kNone, {}});
        return &specs_[it->second];
    };
    for (std::size_t k = 0; k < report_sides.size(); ++k) {
        if (Spec* s = spec(report_sides[k]); s && s->report == kNone) s->report = static_cast<std::uint32_t>(k);
    }
    for (std::size_t k = 0; k < rule_sides_.size(); ++k) {
        if (Spec* s = spec(rule_sides_[k])) s->rules.push_back(static_cast<std::uint32_t>(k));
    }
}

// Each spec is listed under the members of its smaller side (a pair it selects has one
// object on each side); `*:*` under none.
void Selections::anchor_specs(const std::vector<std::size_t>& count) {
    std::vector<std::uint32_t> side(specs_.size(), kNone);
    for (std::size_t u = 0; u < specs_.size(); ++u) {
        const Spec& s = specs_[u];
        if (s.left == kNone && s.right == kNone) {
            universal_ = static_cast<std::uint32_t>(u);
        } else if (s.left == kNone || s.right == kNone) {
            side[u] = s.left == kNone ? s.right : s.left;
        } else {
            side[u] = count[s.left] <= count[s.right] ? s.left : s.right;
        }
    }
    anchor_off_.assign(n_ + 1, 0);
    for (std::size_t u = 0; u < specs_.size(); ++u)
        if (side[u] != kNone)
            for (std::size_t p = sel_off_[side[u]]; p < sel_off_[side[u] + 1]; ++p) ++anchor_off_[sel_objs_[p] + 1];
    for (std::size_t x = 0; x < n_; ++x) anchor_off_[x + 1] += anchor_off_[x];
    anchor_.resize(anchor_off_[n_]);
    std::vector<std::size_t> fill(anchor_off_.begin(), anchor_off_.end() - 1);
    for (std::size_t u = 0; u < specs_.size(); ++u)
        if (side[u] != kNone)
            for (std::size_t p = sel_off_[side[u]]; p < sel_off_[side[u] + 1]; ++p)
                anchor_[fill[sel_objs_[p]]++] = static_cast<std::uint32_t>(u);
}

bool Selections::sparse_reported(std::size_t i, std::size_t j, std::pair<std::size_t, std::size_t>& ab) const {
    bool found = false;
    sparse_for_each(i, j, [&](std::uint32_t u) {
        const Spec& s = specs_[u];
        if (s.report == kNone) return false;  // the rest are specs of rules only
        const bool fw = has(i, s.left) && has(j, s.right);
        const bool bw = has(j, s.left) && has(i, s.right);
        if (!fw && !bw) return true;
        ab = orient_pair(fw, bw, i, j);
        found = true;
        return false;
    });
    return found;
}

std::size_t Selections::rule_left_size(std::size_t k) const {
    if (dense_ || rule_sides_[k].first == kNone) return ns_;
    const std::uint32_t s = rule_sides_[k].first;
    const auto first = sel_objs_.begin() + static_cast<std::ptrdiff_t>(sel_off_[s]);
    return static_cast<std::size_t>(
        std::lower_bound(first, sel_objs_.begin() + static_cast<std::ptrdiff_t>(sel_off_[s + 1]), ns_) - first);
}

std::size_t Selections::rule_left_rank(std::size_t k, std::size_t i) const {
    if (dense_ || rule_sides_[k].first == kNone) return i;
    const std::uint32_t s = rule_sides_[k].first;
    const auto first = sel_objs_.begin() + static_cast<std::ptrdiff_t>(sel_off_[s]);
    return static_cast<std::size_t>(
        std::lower_bound(first, sel_objs_.begin() + static_cast<std::ptrdiff_t>(sel_off_[s + 1]), i) - first);
}

void Selections::rule_left(std::size_t k, std::vector<std::size_t>& out) const {
    if (dense_) {
        for (std::size_t i = 0; i < ns_; ++i)
            if (DenseSpec::bit(dense_rules_[k].left, i)) out.push_back(i);
        return;
    }
    const std::uint32_t s = rule_sides_[k].first;
    if (s == kNone) {
        for (std::size_t i = 0; i < ns_; ++i) out.push_back(i);
        return;
    }
    for (std::size_t p = sel_off_[s]; p < sel_off_[s + 1] && sel_objs_[p] < ns_; ++p) out.push_back(sel_objs_[p]);
}

void Selections::used_shapes(std::vector<std::uint32_t>& out) const {
    Mask used(n_, false);
    if (dense_) {
        // Masks of the same selector are added once.
        std::unordered_set<const std::uint64_t*> added;
        for (const auto* list : {&dense_report_, &dense_rules_}) {
            for (const DenseSpec& s : *list) {
                for (const std::uint64_t* side : {s.left, s.right}) {
                    if (!added.insert(side).second) continue;
                    for (const Mask& mask : masks_)
                        if (mask.data() == side) used.add(mask);
                }
            }
        }
        used.list(ns_, out);
        return;
    }
    std::vector<char> seen(sel_off_.size(), 0);
    for (const Spec& s : specs_) {
        for (const std::uint32_t side : {s.left, s.right}) {
            if (side == kNone) {
                for (std::size_t i = 0; i < ns_; ++i) out.push_back(static_cast<std::uint32_t>(i));
                return;
            }
            if (seen[side]) continue;
            seen[side] = 1;
            for (std::size_t p = sel_off_[side]; p < sel_off_[side + 1]; ++p) used.set(sel_objs_[p]);
        }
    }
    used.list(ns_, out);
}

void Selections::sides(std::vector<std::uint8_t>& out, bool report, const std::function<bool(std::size_t)>& rule) const {
    out.assign(n_, 0);
    auto mark_dense = [&](const DenseSpec& s) {
        for (std::size_t x = 0; x < n_; ++x) {
            if (DenseSpec::bit(s.left, x)) out[x] |= kLeftSide;
            if (DenseSpec::bit(s.right, x)) out[x] |= kRightSide;
        }
    };
    if (dense_) {
        if (report)
            for (const DenseSpec& s : dense_report_) mark_dense(s);
        for (std::size_t k = 0; k < dense_rules_.size(); ++k)
            if (rule(k)) mark_dense(dense_rules_[k]);
        return;
    }
    auto mark = [&](std::uint32_t sel, std::uint8_t side) {
        if (sel == kNone) {
            for (std::uint8_t& o : out) o |= side;
            return;
        }
        for (std::size_t p = sel_off_[sel]; p < sel_off_[sel + 1]; ++p) out[sel_objs_[p]] |= side;
    };
    for (const Spec& s : specs_) {  // report specs and rules, each distinct pair of sides once
        const bool wanted = (report && s.report != kNone) ||
                            std::any_of(s.rules.begin(), s.rules.end(), [&](std::uint32_t k) { return rule(k); });
        if (!wanted) continue;
        mark(s.left, kLeftSide);
        mark(s.right, kRightSide);
    }
}

}  // namespace collide::detail
