// The broad-phase index behind check() and candidate_pairs().
#pragma once

#include "collide/check.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace collide::detail {

/// Bounds rounded outward to floats: 16 bytes, and a test that is a superset of the exact
/// one (every pair whose double bounds overlap passes; a few that only touch within float
/// rounding pass too, and the exact pair test then decides).
struct FBounds {
    float x0, y0, x1, y1;
};
FBounds outward(const Bounds& b);
inline bool overlap(const FBounds& a, const FBounds& b) {
    return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;
}

/// Sorts 64-bit keys ascending (LSD radix sort on 16-bit digits; digits that are the same
/// in every key are skipped).
void radix_sort(std::vector<std::uint64_t>& keys);

/// Finds the pairs of items whose bounds may overlap, for a fixed set of items, either all
/// at once in an order that suits the index (for_each_pair) or one item at a time (query).
/// Every method gives the same pairs; only the cost differs.
class BroadIndex {
public:
    /// `items` (indices into `bounds`) must be sorted. The index works on these rounded
    /// bounds only, so the caller need not keep the exact ones.
    BroadIndex(std::vector<FBounds> bounds, const std::vector<std::uint32_t>& items, Broadphase method);

    /// Calls emit(i, j), i < j, once for every pair of items whose outward-rounded bounds
    /// overlap (see FBounds), in no particular order; stops early, returning false, when
    /// emit returns false.
    template <class Emit>
    bool for_each_pair(Emit&& emit) const;

    /// The items other than i whose outward-rounded bounds overlap i's, sorted ascending.
    void query(std::uint32_t i, std::vector<std::uint32_t>& out) const;

private:
    // An item's entry in one grid cell, with its bounds inline so that a cell is scanned
    // without touching any other array.
    struct Entry {
        FBounds fb;
        std::uint32_t tagged;  // item | kFirstCol if this is its leftmost cell | kFirstRow ...
        std::int32_t cx, cy;
    };
    static constexpr std::uint32_t kFirstCol = 1u << 31;
    static constexpr std::uint32_t kFirstRow = 1u << 30;
    static constexpr std::uint32_t kItem = kFirstRow - 1;

    void build_grid(const std::vector<std::uint32_t>& bounded, std::vector<double>& extents);
    void build_sweep(const std::vector<std::uint32_t>& bounded);
    std::int32_t coord(double v, double origin) const;
    std::size_t bucket(std::int32_t cx, std::int32_t cy) const;
    template <class Emit>
    bool big_pairs(Emit& emit) const;

    std::vector<std::uint32_t> items_;
    std::vector<FBounds> fb_;           // by item index; only items' entries are meaningful
    std::vector<char> is_big_;          // unbounded or too large for the grid
    std::vector<std::uint32_t> big_;    // sorted
    Broadphase method_;
    // Sweep: bounded items by min x.
    std::vector<std::uint32_t> by_x_;
    double max_width_ = 0.0;  // the widest item's width, rounded up
    // Grid: cells of size cell_ from origin_; entries counting-sorted by a hash of their
    // cell into buckets_ (a power of two) buckets, items ascending within a bucket.
    Vec2 origin_;
    double cell_ = 1.0;
    double inv_cell_ = 1.0;
    std::size_t mask_ = 0;
    std::vector<std::uint32_t> start_;
    std::vector<Entry> entries_;
};

template <class Emit>
bool BroadIndex::big_pairs(Emit& emit) const {
    for (std::size_t k = 0; k < big_.size(); ++k) {
        const std::uint32_t i = big_[k];
        const FBounds& bi = fb_[i];
        for (std::uint32_t j : items_) {
            if (j == i || (is_big_[j] && j < i) || !overlap(bi, fb_[j])) continue;
            if (!(i < j ? emit(i, j) : emit(j, i))) return false;
        }
    }
    return true;
}

template <class Emit>
bool BroadIndex::for_each_pair(Emit&& emit) const {
    if (method_ == Broadphase::Brute) {
        for (std::size_t p = 0; p < items_.size(); ++p)
            for (std::size_t q = p + 1; q < items_.size(); ++q)
                if (overlap(fb_[items_[p]], fb_[items_[q]]) && !emit(items_[p], items_[q])) return false;
        return true;
    }
    if (!big_pairs(emit)) return false;
    if (method_ == Broadphase::Sweep) {
        for (std::size_t p = 0; p < by_x_.size(); ++p) {
            const std::uint32_t i = by_x_[p];
            const FBounds& bi = fb_[i];
            for (std::size_t q = p + 1; q < by_x_.size() && fb_[by_x_[q]].x0 <= bi.x1; ++q) {
                const std::uint32_t j = by_x_[q];
                if (overlap(bi, fb_[j]) && !(i < j ? emit(i, j) : emit(j, i))) return false;
            }
        }
        return true;
    }
    // Grid: the pairs within each bucket's cells, each pair only in the one cell that holds
    // the larger of the two min corners (the cell where both are in their first column, or
    // one is in its first column and the other further right, and the same for rows).
    for (std::size_t k = 0; k + 1 < start_.size(); ++k) {
        const Entry* first = entries_.data() + start_[k];
        const Entry* last = entries_.data() + start_[k + 1];
        for (const Entry* p = first; p != last; ++p) {
            for (const Entry* q = p + 1; q != last; ++q) {
                if (q->cx != p->cx || q->cy != p->cy) continue;
                // (p or q in its first column) and (p or q in its first row)
                const std::uint32_t flags = p->tagged | q->tagged;
                if ((flags & (kFirstCol | kFirstRow)) != (kFirstCol | kFirstRow) || !overlap(p->fb, q->fb)) continue;
                if (!emit(p->tagged & kItem, q->tagged & kItem)) return false;
            }
        }
    }
    return true;
}

}  // namespace collide::detail
