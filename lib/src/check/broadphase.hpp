// Folder check/: running a check of a scene, the public collide/check.hpp. The broad phase
// (this header, broadphase*.cpp) and the candidate pairs it gives a scene (scene_candidates,
// pair_buffer), the shapes' prepared forms (scene_indexes), the check pipeline (check.cpp:
// blocks of pairs tested on workers, block_out, rule_tally, collision_feed) and moves
// against shapes (moves_against). It includes support/, geometry/, queries/, grids/ and
// scene/; report/ and render/ use it through collide/check.hpp, and cli/ calls it.
//
// The broad-phase index behind check() and candidate_pairs().
#pragma once

#include "collide/check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <utility>
#include <vector>

namespace collide::detail {

/// Bounds rounded outward to floats: 16 bytes, and a test that is a superset of the exact
/// one (every pair whose double bounds overlap passes; a few that only touch within float
/// rounding pass too, and the exact pair test then decides).
struct FBounds {
    float x0, y0, x1, y1;
};

/// Where floats are measured from: bounds are stored as (b - origin) * scale. A float has
/// 24 bits, so near 1e9 absolute coordinates would round every box out to 64 units (a
/// scene of small shapes there meets every neighbour), and beyond 3e38 to infinity (every
/// shape unbounded, tested against all). Subtracting a fixed origin, multiplying by a
/// positive power of two and rounding are each monotone, so the test stays a superset.
struct FloatFrame {
    Vec2 origin;
    double scale = 1.0;
};
/// A frame for a scene given a sample of its bounds: the median min corner as the origin
/// (robust to a far outlier; infinite sides left out), and a scale bringing the scene's
/// magnitude near 1 when it is huge or tiny.
FloatFrame frame_for(std::vector<Bounds> sample);
FBounds outward(const Bounds& b, const FloatFrame& frame = FloatFrame{});
inline bool overlap(const FBounds& a, const FBounds& b) {
    return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;
}

/// Sorts 64-bit keys ascending (LSD radix sort on 16-bit digits; digits that are the same
/// in every key are skipped).
void radix_sort(std::vector<std::uint64_t>& keys);

/// The line of an unbounded item: the points p + t d for every real t (a line) or every
/// t >= 0 (a ray), d != 0. `exact_d` says that d is the line's true direction (a ray's, or a
/// line's b - a when that difference is exact), so that parallel lines can be told apart.
struct Unbounded {
    Vec2 p;
    Vec2 d;
    bool ray = false;
    bool exact_d = true;
};

/// Finds the candidate pairs of a fixed set of items, either all at once in an order that
/// suits the index (for_each_pair) or one item at a time (query). A pair is a candidate when
/// the items' outward-rounded bounds overlap and, where one is a known line or ray (see
/// `lines`), when a conservative test does not rule out that it meets the other's bounds
/// (two lines: not both exactly parallel and apart). Every method gives the same pairs;
/// only the cost differs.
///
/// Grid: a hierarchy of uniform grids (levels of cells 4^k times the base cell, which is
/// twice the median item size, whatever the scene's extent), each item in the finest level
/// whose cells are at least its size, so it covers at most 2 x 2 cells there. Cell
/// coordinates are 64-bit (truncated to 32 in the cells, which is harmless as no item spans
/// 2^32 cells), so a far outlier costs nothing. Pairs within a level are found cell by cell;
/// pairs across levels by looking up each item's few cells in every coarser level. Each pair
/// is reported in one cell only: the one holding the larger of the two min corners (at the
/// coarser item's level). Cells are hashed into buckets (counting sort, items ascending),
/// so empty space costs nothing. A known line or ray walks, on each level, the cells it
/// crosses within the items' extent (or tests that level's items, when they are fewer);
/// lines among themselves are grouped by exact direction.
/// Sweep: sort and prune along the axis where the items spread more.
class BroadIndex {
public:
    /// `items` (indices into `bounds`) must be sorted. The index works on these rounded
    /// bounds only, so the caller need not keep the exact ones. With threads > 1, a big grid
    /// is built on two threads (the same index). `lines` gives the geometry of unbounded
    /// items that are lines or rays (item, line); other unbounded items meet every item
    /// whose bounds they overlap.
    BroadIndex(std::vector<FBounds> bounds, const std::vector<std::uint32_t>& items, Broadphase method,
               unsigned threads = 1, const std::vector<std::pair<std::uint32_t, Unbounded>>& lines = {});

    /// Items from which a grid is built on two threads when allowed.
    static constexpr std::size_t kTwoThreadBuild = 16384;

    /// Calls emit(i, j), i < j, once for every pair of items whose outward-rounded bounds
    /// overlap (see FBounds), in no particular order; stops early, returning false, when
    /// emit returns false. With parts > 1, only the pairs of share `part` (0 <= part < parts):
    /// the shares are disjoint and together give every pair, so that several threads can
    /// each take one.
    template <class Emit>
    bool for_each_pair(Emit&& emit, unsigned part = 0, unsigned parts = 1) const;

    /// The items other than i that make a candidate pair with i, sorted ascending.
    void query(std::uint32_t i, std::vector<std::uint32_t>& out) const;

    /// The items whose candidate test passes against the box `b` (not an item: the bounds of
    /// an object the index does not hold), sorted ascending; every method gives the same.
    void query_box(const FBounds& b, std::vector<std::uint32_t>& out) const;

    /// The rounded bounds given for i (an item or not).
    const FBounds& bounds(std::uint32_t i) const { return fb_[i]; }

    /// Whether (i, j), two items, is a candidate pair (the test every method applies).
    bool candidate(std::uint32_t i, std::uint32_t j) const {
        return overlap(fb_[i], fb_[j]) && ((!is_big_[i] && !is_big_[j]) || big_candidate(i, j));
    }

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
    static constexpr std::uint32_t kFirst = kFirstCol | kFirstRow;

    struct Range {
        std::int64_t x0, y0, x1, y1;
    };
    struct Level {
        double cell = 1.0;
        double inv_cell = 1.0;  // 1 / cell size
        std::size_t mask = 0;   // buckets - 1
        std::vector<std::uint32_t> start;
        std::vector<Entry> entries;
    };

    // The building phases, in order. Auto becomes a method, Grid the sweep when items
    // outnumber the entries' tags.
    static Broadphase resolve(Broadphase method, std::size_t items, std::size_t slots);
    // Unbounded items into big_; the others, with their extents, into `bounded` (not for Brute).
    void split_unbounded(const std::vector<std::uint32_t>& items, std::vector<std::uint32_t>& bounded,
                         std::vector<double>& extents);
    void build_grid(const std::vector<std::uint32_t>& bounded, std::vector<double>& extents, unsigned threads);
    static double base_cell(std::vector<double>& extents);
    void measure_extent(const std::vector<std::uint32_t>& bounded);
    // Sets level_of_ and the levels' cell sizes; false when there would be too many levels.
    bool assign_levels(const std::vector<std::uint32_t>& bounded, double base);
    class GridBuild;  // the counting sort into buckets
    void build_sweep(const std::vector<std::uint32_t>& bounded);
    // query() of a bounded item: its partners among the unbounded items, then the bounded.
    void query_unbounded(std::uint32_t i, std::vector<std::uint32_t>& out) const;
    // The bounded items (other than `self`) whose bounds meet b. Grid: at the levels finer
    // than `finer_than`, each entry of a level is tested once when b covers more cells there
    // than the level has entries.
    void query_sweep(const FBounds& b, std::uint32_t self, std::vector<std::uint32_t>& out) const;
    void query_grid(const FBounds& b, std::uint32_t self, std::size_t finer_than, std::vector<std::uint32_t>& out) const;
    Range range(const FBounds& b, const Level& level) const;
    // Any non-decreasing function of v works here (overlapping bounds then share a cell):
    // a multiplication is cheaper than a division. Inline: it is most of the grid's build.
    static std::int64_t coord(double v, double inv_cell) {
        const double c = std::floor(v * inv_cell);
        if (c >= -0x1p62 && c <= 0x1p62) return static_cast<std::int64_t>(c);
        return coord_beyond(v, c);
    }
    static std::int64_t coord_beyond(double v, double c);
    static std::size_t bucket(std::int64_t cx, std::int64_t cy, std::size_t mask);
    static std::uint32_t flags(const Range& r, std::int64_t x, std::int64_t y) {
        return (x == r.x0 ? kFirstCol : 0u) | (y == r.y0 ? kFirstRow : 0u);
    }
    // Calls f(entry, flags of the querying box in that cell) for the entries of `level` in the
    // cells of box b, except item `self`, that share with b the cell where their pair is
    // reported.
    template <class F>
    void scan(const Level& level, const FBounds& b, std::uint32_t self, F&& f) const;
    // for_each_pair() by method and phase: the unbounded items' pairs first, then the
    // bounded ones' (grid: within each level's cells, then across levels).
    template <class Emit>
    bool big_pairs(Emit& emit, unsigned part, unsigned parts) const;
    template <class Emit>
    bool brute_pairs(Emit& emit, unsigned part, unsigned parts) const;
    template <class Emit>
    bool sweep_pairs(Emit& emit, unsigned part, unsigned parts) const;
    template <class Emit>
    bool cell_pairs(Emit& emit, unsigned part, unsigned parts) const;
    template <class Emit>
    bool level_pairs(Emit& emit, unsigned part, unsigned parts) const;

    // What the index knows of an unbounded item, by its rank in big_.
    struct Big {
        bool known = false;    // a line or ray whose geometry was given
        Unbounded line;
        std::uint32_t cls = kNoClass;  // lines of one class are exactly parallel; classes apart are not
        double off_lo = 0.0, off_hi = 0.0;  // bounds on the exact offset across the class's direction
    };
    static constexpr std::uint32_t kNoClass = 0xFFFFFFFFu;
    // classify_lines() in phases: the known lines' directions (rank of each), sorted into
    // classes of exactly parallel ones (returns how many), then the classes' order.
    void classify_lines(const std::vector<std::pair<std::uint32_t, Unbounded>>& lines);
    std::vector<std::pair<Vec2, std::uint32_t>> known_directions(const std::vector<std::pair<std::uint32_t, Unbounded>>& lines);
    std::size_t assign_classes(std::vector<std::pair<Vec2, std::uint32_t>>& dirs);
    void order_classes(std::size_t classes);
    const Big& big_of(std::uint32_t i) const { return bigs_[big_rank_[i]]; }
    bool big_candidate(std::uint32_t i, std::uint32_t j) const;
    static bool meets(const Unbounded& l, const FBounds& b);
    // The bounded items `big` may meet (candidate(big, j) still to be tested), each at least
    // once, appended to out.
    void near_line(std::uint32_t big, std::vector<std::uint32_t>& out) const;
    void walk(const Unbounded& l, const Level& level, std::vector<std::uint32_t>& out) const;
    // Big items after `rank` in class order that make a candidate pair with big_[rank]'s
    // item, or with every = true all of them, before and after.
    template <class F>
    void big_partners(std::size_t rank, bool every, F&& f) const;
    // Prefetches, for the first cell of entry a of level la, its bucket in each coarser level
    // (or with `cells`, the start of that bucket's entries).
    void prefetch_lookup(const Entry& a, std::size_t la, bool cells) const {
#if defined(__GNUC__) || defined(__clang__)
        if ((a.tagged & kFirst) != kFirst) return;
        for (std::size_t lb = la + 1; lb < levels_.size(); ++lb) {
            const Level& level = levels_[lb];
            if (level.entries.empty()) continue;
            const std::size_t k = bucket(coord(a.fb.x0, level.inv_cell), coord(a.fb.y0, level.inv_cell), level.mask);
            if (cells) __builtin_prefetch(level.entries.data() + std::min<std::size_t>(level.start[k], level.entries.size() - 1));
            else __builtin_prefetch(level.start.data() + k);
        }
#else
        (void)a;
        (void)la;
        (void)cells;
#endif
    }
    // The share [first, last) of n things that part `part` of `parts` takes.
    static std::pair<std::size_t, std::size_t> share(std::size_t n, unsigned part, unsigned parts) {
        return {n * part / parts, n * (part + 1) / parts};
    }
    float lo(std::uint32_t i) const { return sweep_y_ ? fb_[i].y0 : fb_[i].x0; }
    float hi(std::uint32_t i) const { return sweep_y_ ? fb_[i].y1 : fb_[i].x1; }

    std::vector<std::uint32_t> items_;
    std::vector<FBounds> fb_;           // by item index; only items' entries are meaningful
    std::vector<char> is_big_;          // unbounded
    std::vector<std::uint32_t> big_;    // sorted
    std::vector<Big> bigs_;             // by rank in big_
    std::vector<std::uint32_t> big_rank_;  // by item index (only for big items)
    std::vector<std::uint32_t> class_order_;  // ranks in big_: unknown first, then by class and off_lo
    std::vector<std::uint32_t> class_start_;  // by class: its start in class_order_
    std::vector<std::uint32_t> class_end_;    // by class: its end in class_order_
    std::vector<double> class_width_;         // by class: at least every off_hi - off_lo in it
    std::vector<std::uint32_t> order_pos_;    // by rank: its position in class_order_
    // For query() of a bounded item when there are many lines: the known lines that make a
    // candidate pair with each item (by item, CSR), built by the first such query; empty
    // (and the lines tested one by one) when they would be more than kNearCap pairs.
    static constexpr std::size_t kLoopBigs = 32;
    static constexpr std::size_t kNearCap = std::size_t{1} << 23;
    void build_near() const;
    mutable std::once_flag near_once_;
    mutable std::vector<std::uint32_t> near_start_;
    mutable std::vector<std::uint32_t> near_;
    Broadphase method_;
    // Sweep: bounded items by their min on the sweep axis.
    bool sweep_y_ = false;
    std::vector<std::uint32_t> by_lo_;
    double max_width_ = 0.0;  // the widest item's width along the axis, rounded up
    // Grid
    FBounds extent_{};  // of the bounded items
    std::vector<Level> levels_;
    std::vector<std::uint8_t> level_of_;  // by item index
};

template <class F>
void BroadIndex::scan(const Level& level, const FBounds& b, std::uint32_t self, F&& f) const {
    const Range r = range(b, level);
    for (std::int64_t y = r.y0; y <= r.y1; ++y) {
        for (std::int64_t x = r.x0; x <= r.x1; ++x) {
            const std::uint32_t mine = flags(r, x, y);
            const std::size_t k = bucket(x, y, level.mask);
            for (std::uint32_t e = level.start[k]; e < level.start[k + 1]; ++e) {
                const Entry& c = level.entries[e];
                if (c.cx != static_cast<std::int32_t>(x) || c.cy != static_cast<std::int32_t>(y) || (c.tagged & kItem) == self || ((c.tagged | mine) & kFirst) != kFirst) continue;
                f(c);
            }
        }
    }
}

template <class F>
void BroadIndex::big_partners(std::size_t rank, bool every, F&& f) const {
    const std::uint32_t i = big_[rank];
    const Big& bi = bigs_[rank];
    const std::size_t n = class_order_.size();
    for (std::size_t q = every ? 0 : order_pos_[rank] + 1; q < n; ++q) {
        if (every && bi.cls != kNoClass && q == class_start_[bi.cls]) {
            // Before i in its class, only lines whose offsets may reach down to i's.
            const double from = std::nextafter(bi.off_lo - class_width_[bi.cls], -std::numeric_limits<double>::infinity());
            const auto first = class_order_.begin() + static_cast<std::ptrdiff_t>(q);
            const auto last = class_order_.begin() + static_cast<std::ptrdiff_t>(order_pos_[rank]);
            q = static_cast<std::size_t>(std::lower_bound(first, last, from, [&](std::uint32_t r, double v) {
                    return bigs_[r].off_lo < v;
                }) - class_order_.begin());
            if (q == n) break;
        }
        const std::uint32_t r = class_order_[q];
        const Big& bj = bigs_[r];
        // Within i's class, past the lines whose offsets may equal i's: the rest of the class
        // is parallel and apart.
        if (bi.cls != kNoClass && bj.cls == bi.cls && bj.off_lo > bi.off_hi) {
            q = class_end_[bi.cls] - 1;
            continue;
        }
        if (r != rank && candidate(i, big_[r])) f(big_[r]);
    }
}

template <class Emit>
bool BroadIndex::big_pairs(Emit& emit, unsigned part, unsigned parts) const {
    const auto [k0, k1] = share(big_.size(), part, parts);
    std::vector<std::uint32_t> near;
    for (std::size_t k = k0; k < k1; ++k) {
        const std::uint32_t i = big_[k];
        near.clear();
        near_line(i, near);
        for (std::uint32_t j : near)
            if (candidate(i, j) && !(i < j ? emit(i, j) : emit(j, i))) return false;
        bool go = true;
        big_partners(k, false, [&](std::uint32_t j) {
            if (go) go = i < j ? emit(i, j) : emit(j, i);
        });
        if (!go) return false;
    }
    return true;
}

template <class Emit>
bool BroadIndex::for_each_pair(Emit&& emit, unsigned part, unsigned parts) const {
    if (method_ == Broadphase::Brute) return brute_pairs(emit, part, parts);
    if (!big_pairs(emit, part, parts)) return false;
    if (method_ == Broadphase::Sweep) return sweep_pairs(emit, part, parts);
    return cell_pairs(emit, part, parts) && level_pairs(emit, part, parts);
}

template <class Emit>
bool BroadIndex::brute_pairs(Emit& emit, unsigned part, unsigned parts) const {
    for (std::size_t p = part; p < items_.size(); p += parts)  // interleaved: rows shrink
        for (std::size_t q = p + 1; q < items_.size(); ++q)
            if (candidate(items_[p], items_[q]) && !emit(items_[p], items_[q])) return false;
    return true;
}

template <class Emit>
bool BroadIndex::sweep_pairs(Emit& emit, unsigned part, unsigned parts) const {
    for (std::size_t p = part; p < by_lo_.size(); p += parts) {
        const std::uint32_t i = by_lo_[p];
        const FBounds& bi = fb_[i];
        const float end = hi(i);
        for (std::size_t q = p + 1; q < by_lo_.size() && lo(by_lo_[q]) <= end; ++q) {
            const std::uint32_t j = by_lo_[q];
            if (overlap(bi, fb_[j]) && !(i < j ? emit(i, j) : emit(j, i))) return false;
        }
    }
    return true;
}

template <class Emit>
bool BroadIndex::cell_pairs(Emit& emit, unsigned part, unsigned parts) const {
    // Within each level, cell by cell: the pairs of entries in a bucket that share a cell.
    for (const Level& level : levels_) {
        const auto [k0, k1] = share(level.start.empty() ? 0 : level.start.size() - 1, part, parts);
        for (std::size_t k = k0; k < k1; ++k) {
            const Entry* first = level.entries.data() + level.start[k];
            const Entry* last = level.entries.data() + level.start[k + 1];
            for (const Entry* p = first; p != last; ++p) {
                for (const Entry* q = p + 1; q != last; ++q) {
                    if (q->cx != p->cx || q->cy != p->cy) continue;
                    if (((p->tagged | q->tagged) & kFirst) != kFirst || !overlap(p->fb, q->fb)) continue;
                    if (!emit(p->tagged & kItem, q->tagged & kItem)) return false;
                }
            }
        }
    }
    return true;
}

template <class Emit>
bool BroadIndex::level_pairs(Emit& emit, unsigned part, unsigned parts) const {
    // Across levels: each item (at its first cell) looks itself up in every coarser level.
    // The entries come in bucket order, random in space, so every lookup is a cache miss:
    // the bucket of the entry 2 * kAhead on is fetched early, and the cell list of the entry
    // kAhead on (its bucket in cache by then).
    constexpr std::size_t kAhead = 8;
    for (std::size_t la = 0; la + 1 < levels_.size(); ++la) {
        const std::vector<Entry>& fine = levels_[la].entries;
        const auto [e0, e1] = share(fine.size(), part, parts);
        for (std::size_t e = e0; e < e1; ++e) {
            if (e + 2 * kAhead < e1) prefetch_lookup(fine[e + 2 * kAhead], la, false);
            if (e + kAhead < e1) prefetch_lookup(fine[e + kAhead], la, true);
            const Entry& a = fine[e];
            if ((a.tagged & kFirst) != kFirst) continue;
            const std::uint32_t i = a.tagged & kItem;
            for (std::size_t lb = la + 1; lb < levels_.size(); ++lb) {
                if (levels_[lb].entries.empty()) continue;
                bool go = true;
                scan(levels_[lb], a.fb, i, [&](const Entry& b) {
                    if (!go || !overlap(a.fb, b.fb)) return;
                    const std::uint32_t j = b.tagged & kItem;
                    go = i < j ? emit(i, j) : emit(j, i);
                });
                if (!go) return false;
            }
        }
    }
    return true;
}

}  // namespace collide::detail
