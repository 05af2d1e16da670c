// Which pairs the pair specs and rules of a check select, at a cost about the size of the
// selections: what each selector selects is stored once, however many specs name it.
#pragma once

#include "collide/scene.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace collide::detail {

// A set of objects (shapes, then grids) as one bit each: a million objects fit in 128 KB,
// so the tests of every candidate pair against it stay in cache (a byte each missed it).
class Mask {
public:
    Mask() = default;
    Mask(std::size_t n, bool all) : bits_((n + 63) / 64, all ? ~std::uint64_t{0} : 0) {}
    bool operator[](std::size_t i) const { return (bits_[i >> 6] >> (i & 63)) & 1u; }
    void set(std::size_t i) { bits_[i >> 6] |= std::uint64_t{1} << (i & 63); }
    bool any() const {
        return std::any_of(bits_.begin(), bits_.end(), [](std::uint64_t w) { return w != 0; });
    }
    /// Adds the objects of `other` (a mask of the same size).
    void add(const Mask& other) {
        for (std::size_t w = 0; w < bits_.size(); ++w) bits_[w] |= other.bits_[w];
    }
    /// Appends the objects below n, ascending, to `out`.
    void list(std::size_t n, std::vector<std::uint32_t>& out) const;
    const std::uint64_t* data() const { return bits_.data(); }

private:
    std::vector<std::uint64_t> bits_;
};

/// The pairs that a check's report specs and rules select. A few specs (the usual case: one,
/// `*:*` or `things:things`) keep a bit mask per distinct selector and test each pair against
/// every spec, as cheap as a spec can be. Many specs switch to lists: each object's sorted
/// selectors, each selector's sorted members, and each object's list of the distinct specs
/// that can select a pair with it (a spec is listed under the members of its smaller side),
/// so a pair costs the specs touching its two objects and memory is the size of the
/// selections, not specs x objects. Specs with a side that selects nothing are dropped, and
/// specs with the same two sides are one.
class Selections {
public:
    static constexpr std::uint32_t kNone = 0xffffffffu;

    /// `empty` gets the selectors that select nothing, in first-use order (report specs, then
    /// rules; left, then right). `dense_up_to`: the most specs plus rules kept as masks.
    Selections(const Scene& scene, const std::vector<PairSpec>& report, const std::vector<Rule>& rules,
               std::vector<std::string>& empty,
               std::size_t dense_up_to = 16);

    /// Whether some report spec selects {i, j}; if so `ab` is the pair oriented as the first
    /// such spec reports it: from its left side; both ways, lower index first; a grid is b.
    bool reported(std::size_t i, std::size_t j, std::pair<std::size_t, std::size_t>& ab) const {
        if (dense_) {
            for (const DenseSpec& s : dense_report_) {
                if (s.selects(i, j)) {
                    ab = orient_pair(s.forward(i, j), s.forward(j, i), i, j);
                    return true;
                }
            }
            return false;
        }
        return sparse_reported(i, j, ab);
    }
    /// Whether some rule selects {i, j}.
    bool any_rule(std::size_t i, std::size_t j) const {
        if (dense_) {
            return std::any_of(dense_rules_.begin(), dense_rules_.end(),
                               [&](const DenseSpec& s) { return s.selects(i, j); });
        }
        bool any = false;
        sparse_for_each(i, j, [&](std::uint32_t u) {
            if (!specs_[u].rules.empty() && sparse_selects(specs_[u], i, j)) any = true;
            return !any;
        });
        return any;
    }
    /// Calls f(k) for each rule k that selects {i, j} (in no particular order).
    template <class F>
    void for_each_rule(std::size_t i, std::size_t j, F&& f) const {
        if (dense_) {
            for (std::size_t k = 0; k < dense_rules_.size(); ++k)
                if (dense_rules_[k].selects(i, j)) f(k);
            return;
        }
        sparse_for_each(i, j, [&](std::uint32_t u) {
            const Spec& s = specs_[u];
            if (!s.rules.empty() && sparse_selects(s, i, j))
                for (const std::uint32_t k : s.rules) f(std::size_t{k});
            return true;
        });
    }
    /// Whether rule k selects i on its left and j on its right.
    bool rule_forward(std::size_t k, std::size_t i, std::size_t j) const {
        if (dense_) return dense_rules_[k].forward(i, j);
        return has(i, rule_sides_[k].first) && has(j, rule_sides_[k].second);
    }
    /// The (a, b) order of a pair rule k selects (as reported() orients).
    std::pair<std::size_t, std::size_t> rule_oriented(std::size_t k, std::size_t i, std::size_t j) const {
        return orient_pair(rule_forward(k, i, j), rule_forward(k, j, i), i, j);
    }
    /// How many shapes (objects below ns) the left side of rule k selects; rule_left_rank
    /// numbers them 0, 1, ... in index order, and rule_left lists them.
    std::size_t rule_left_size(std::size_t k) const;
    std::size_t rule_left_rank(std::size_t k, std::size_t i) const;
    void rule_left(std::size_t k, std::vector<std::size_t>& out) const;

    /// The shapes (objects below ns) that some spec or rule may select, ascending.
    void used_shapes(std::vector<std::uint32_t>& out) const;

    /// The sides each object (shapes, then grids) is on, among the report specs (when
    /// `report`) and the rules `rule(k)` says: out[x] has kLeftSide when the left side of one
    /// selects x, kRightSide when a right side does. A pair one selects has a member on its
    /// left and the other on its right.
    static constexpr std::uint8_t kLeftSide = 1, kRightSide = 2;
    void sides(std::vector<std::uint8_t>& out, bool report, const std::function<bool(std::size_t)>& rule) const;

    void prefetch(std::size_t i) const {
#if defined(__GNUC__) || defined(__clang__)
        if (dense_) {
            for (const DenseSpec& s : dense_report_) {
                __builtin_prefetch(s.left + (i >> 6));
                __builtin_prefetch(s.right + (i >> 6));
            }
        } else if (i + 1 < anchor_off_.size()) {
            __builtin_prefetch(anchor_off_.data() + i);
        }
#else
        (void)i;
#endif
    }

private:
    // A spec as two masks of the selectors' masks (or the all-ones mask for `*`).
    struct DenseSpec {
        const std::uint64_t* left;
        const std::uint64_t* right;
        static bool bit(const std::uint64_t* m, std::size_t i) { return (m[i >> 6] >> (i & 63)) & 1u; }
        bool forward(std::size_t i, std::size_t j) const { return bit(left, i) && bit(right, j); }
        bool selects(std::size_t i, std::size_t j) const { return forward(i, j) || forward(j, i); }
    };
    // A distinct (left, right) of the specs and rules, as selector numbers (kNone: `*`).
    struct Spec {
        std::uint32_t left;
        std::uint32_t right;
        std::uint32_t report;             // the first report spec with these sides, or kNone
        std::vector<std::uint32_t> rules;  // the rules with these sides
    };

    static std::pair<std::size_t, std::size_t> orient(bool fw, bool bw, std::size_t i, std::size_t j) {
        if (fw && bw) return {std::min(i, j), std::max(i, j)};
        return fw ? std::make_pair(i, j) : std::make_pair(j, i);
    }
    std::pair<std::size_t, std::size_t> orient_pair(bool fw, bool bw, std::size_t i, std::size_t j) const {
        if (j >= ns_) return {i, j};
        if (i >= ns_) return {j, i};
        return orient(fw, bw, i, j);
    }
    // Whether object x is selected by selector s.
    bool has(std::size_t x, std::uint32_t s) const {
        if (s == kNone) return true;
        return std::binary_search(obj_sels_.begin() + static_cast<std::ptrdiff_t>(obj_off_[x]),
                                  obj_sels_.begin() + static_cast<std::ptrdiff_t>(obj_off_[x + 1]), s);
    }
    bool sparse_selects(const Spec& s, std::size_t i, std::size_t j) const {
        return (has(i, s.left) && has(j, s.right)) || (has(j, s.left) && has(i, s.right));
    }
    bool sparse_reported(std::size_t i, std::size_t j, std::pair<std::size_t, std::size_t>& ab) const;
    // Steps of the constructor, for lists (not dense_).
    void list_members(const std::vector<std::size_t>& count);
    void distinct_specs(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& report_sides,
                        const std::vector<std::size_t>& count);
    void anchor_specs(const std::vector<std::size_t>& count);
    // Calls f(u) for each distinct spec u that may select {i, j}, ascending, while f says true.
    template <class F>
    void sparse_for_each(std::size_t i, std::size_t j, F&& f) const {
        const std::uint32_t* a = anchor_.data() + anchor_off_[i];
        const std::uint32_t* a_end = anchor_.data() + anchor_off_[i + 1];
        const std::uint32_t* b = anchor_.data() + anchor_off_[j];
        const std::uint32_t* b_end = anchor_.data() + anchor_off_[j + 1];
        std::uint32_t all = universal_;  // kNone once visited, or when there is none
        while (a != a_end || b != b_end || all != kNone) {
            std::uint32_t u = all;
            if (a != a_end) u = std::min(u, *a);
            if (b != b_end) u = std::min(u, *b);
            if (a != a_end && *a == u) ++a;
            if (b != b_end && *b == u) ++b;
            if (all == u) all = kNone;
            if (!f(u)) return;
        }
    }

    std::size_t ns_ = 0;  // shapes
    std::size_t n_ = 0;   // shapes and grids
    bool dense_ = true;
    // dense
    std::vector<Mask> masks_;  // one per distinct selector, then one of all objects
    std::vector<DenseSpec> dense_report_;
    std::vector<DenseSpec> dense_rules_;
    // sparse: CSR lists
    std::vector<std::size_t> obj_off_;   // object -> its selectors in obj_sels_
    std::vector<std::uint32_t> obj_sels_;
    std::vector<std::size_t> sel_off_;   // selector -> its members in sel_objs_
    std::vector<std::uint32_t> sel_objs_;
    std::vector<Spec> specs_;            // distinct specs: report specs first, in order
    std::uint32_t universal_ = kNone;     // the spec `*:*`, if any
    std::vector<std::size_t> anchor_off_;   // object -> the specs listed under it
    std::vector<std::uint32_t> anchor_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> rule_sides_;  // selectors of each rule
};

}  // namespace collide::detail
