// Broad phases as an index queried one item at a time: the check walks the shapes in
// index order and asks for each one's overlapping partners, so reports stream out in their
// final order without a list of every pair. Every method answers every query identically.
// Here: the float frame, building the grid and the sweep, and the queries; the lines and rays
// among the items are broadphase_lines.cpp's.
#include "check/broadphase.hpp"
#include "support/big_alloc.hpp"
#include "support/in_parts.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

namespace collide {

namespace detail {

namespace {

// Cell coordinates up to 2^62 are floor(v / cell); beyond, they follow the order of the
// floats (see coord_beyond()).
constexpr std::int64_t kBeyond = std::int64_t{1} << 62;

constexpr float kFloatMax = std::numeric_limits<float>::max();
constexpr float kFloatInf = std::numeric_limits<float>::infinity();

// The largest float <= v, and the smallest float >= v (infinite beyond the float range).
float float_down(double v) {
    if (!(v >= -static_cast<double>(kFloatMax))) return -kFloatInf;
    if (v > static_cast<double>(kFloatMax)) return kFloatMax;
    const float f = static_cast<float>(v);
    return static_cast<double>(f) > v ? std::nextafter(f, -kFloatInf) : f;
}
float float_up(double v) {
    if (!(v <= static_cast<double>(kFloatMax))) return kFloatInf;
    if (v < -static_cast<double>(kFloatMax)) return -kFloatMax;
    const float f = static_cast<float>(v);
    return static_cast<double>(f) < v ? std::nextafter(f, kFloatInf) : f;
}

// A float's rank among the non-negative floats.
std::int64_t float_rank(float f) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    return static_cast<std::int64_t>(bits);
}

}  // namespace

void radix_sort(std::vector<std::uint64_t>& keys) {
    if (keys.size() < 256) {
        std::sort(keys.begin(), keys.end());
        return;
    }
    std::vector<std::uint64_t> tmp;
    reserve_huge(tmp, keys.size());
    tmp.resize(keys.size());
    std::vector<std::size_t> count(std::size_t{1} << 16);
    for (int shift = 0; shift < 64; shift += 16) {
        std::fill(count.begin(), count.end(), 0);
        for (std::uint64_t k : keys) ++count[(k >> shift) & 0xFFFF];
        if (count[(keys[0] >> shift) & 0xFFFF] == keys.size()) continue;  // one digit: in order already
        std::size_t sum = 0;
        for (std::size_t& c : count) {
            const std::size_t here = c;
            c = sum;
            sum += here;
        }
        for (std::uint64_t k : keys) tmp[count[(k >> shift) & 0xFFFF]++] = k;
        keys.swap(tmp);
    }
}

FloatFrame frame_for(std::vector<Bounds> sample) {
    // The median of the finite values (0 if none).
    auto median = [](std::vector<double>& v) {
        if (v.empty()) return 0.0;
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    std::vector<double> xs, ys, sizes;
    for (const Bounds& b : sample) {
        if (std::isfinite(b.min.x)) xs.push_back(b.min.x);
        if (std::isfinite(b.min.y)) ys.push_back(b.min.y);
        const double size = std::max(b.max.x - b.min.x, b.max.y - b.min.y);
        if (std::isfinite(size)) sizes.push_back(size);
    }
    FloatFrame f;
    f.origin = Vec2{median(xs), median(ys)};
    // Outside [2^-100, 2^100] (far from the float range's ends) bring the scene's magnitude
    // to about 1: exact, and its offsets from the origin then fit a float unless they span
    // some 2^120 times that.
    const double big = std::max({std::fabs(f.origin.x), std::fabs(f.origin.y), median(sizes)});
    if (big != 0.0 && (big < 0x1p-100 || big > 0x1p100)) f.scale = std::ldexp(1.0, -std::ilogb(big));
    return f;
}

FBounds outward(const Bounds& b, const FloatFrame& frame) {
    const Vec2 o = frame.origin;
    const double k = frame.scale;
    return FBounds{float_down((b.min.x - o.x) * k), float_down((b.min.y - o.y) * k), float_up((b.max.x - o.x) * k),
                   float_up((b.max.y - o.y) * k)};
}

BroadIndex::BroadIndex(std::vector<FBounds> bounds, const std::vector<std::uint32_t>& items, Broadphase method,
                       unsigned threads, const std::vector<std::pair<std::uint32_t, Unbounded>>& lines)
    : items_(items), fb_(std::move(bounds)), method_(resolve(method, items.size(), fb_.size())) {
    std::vector<std::uint32_t> bounded;
    std::vector<double> extents;
    split_unbounded(items, bounded, extents);
    classify_lines(lines);
    if (method_ == Broadphase::Brute) return;
    if (method_ == Broadphase::Sweep) build_sweep(bounded);
    else if (!bounded.empty()) build_grid(bounded, extents, threads);
}

Broadphase BroadIndex::resolve(Broadphase method, std::size_t items, std::size_t slots) {
    if (method == Broadphase::Auto) method = items <= 32 ? Broadphase::Brute : Broadphase::Grid;
    // The grid tags item indices with two flags: more than 2^30 items take the sweep.
    if (method == Broadphase::Grid && slots > kItem) method = Broadphase::Sweep;
    return method;
}

void BroadIndex::split_unbounded(const std::vector<std::uint32_t>& items, std::vector<std::uint32_t>& bounded,
                                 std::vector<double>& extents) {
    is_big_.assign(fb_.size(), 0);
    // Unbounded items (lines, rays) are found by their geometry, not by cells; the brute
    // force needs no list of the others.
    if (method_ != Broadphase::Brute) {
        reserve_huge(bounded, items.size());
        reserve_huge(extents, items.size());
    }
    for (std::uint32_t i : items) {
        const FBounds& q = fb_[i];
        const double ext = std::max(static_cast<double>(q.x1) - q.x0, static_cast<double>(q.y1) - q.y0);
        if (!std::isfinite(ext)) {
            big_.push_back(i);
            is_big_[i] = 1;
        } else if (method_ != Broadphase::Brute) {
            bounded.push_back(i);
            extents.push_back(ext);
        }
    }
}


void BroadIndex::build_sweep(const std::vector<std::uint32_t>& bounded) {
    method_ = Broadphase::Sweep;
    levels_.clear();
    // The axis along which the items' min corners spread more.
    if (!bounded.empty()) {
        float x0 = fb_[bounded[0]].x0, x1 = x0, y0 = fb_[bounded[0]].y0, y1 = y0;
        for (std::uint32_t i : bounded) {
            x0 = std::min(x0, fb_[i].x0);
            x1 = std::max(x1, fb_[i].x0);
            y0 = std::min(y0, fb_[i].y0);
            y1 = std::max(y1, fb_[i].y0);
        }
        sweep_y_ = static_cast<double>(y1) - y0 > static_cast<double>(x1) - x0;
    }
    by_lo_ = bounded;
    std::sort(by_lo_.begin(), by_lo_.end(),
              [&](std::uint32_t i, std::uint32_t j) { return lo(i) < lo(j) || (lo(i) == lo(j) && i < j); });
    // Rounded up, so that a query's window (below) never starts too far back.
    for (std::uint32_t i : by_lo_) {
        const double w = static_cast<double>(hi(i)) - static_cast<double>(lo(i));
        max_width_ = std::max(max_width_, std::nextafter(w, std::numeric_limits<double>::infinity()));
    }
}

// Counting sort of each level's entries by a hash of their cell, in two stable passes so
// that no pass writes all over a big array (items come in file order, random in space):
// first into up to 256 runs by the top bits of the bucket, each filled front to back, then
// each run (a few hundred KB, in cache) by bucket in place. Items are visited in ascending
// order, so each bucket lists them ascending. With two threads, each takes half of the
// items in the first pass (the first half's entries go first in every run, so the layout
// is the same) and half of the runs in the second.
class BroadIndex::GridBuild {
public:
    GridBuild(BroadIndex& index, const std::vector<std::uint32_t>& bounded, unsigned parts)
        : ix_(index), bounded_(bounded), parts_(parts), nl_(index.levels_.size()), run_shift_(nl_, 0), runs_(nl_, 0),
          run_start_(nl_), fill_(parts, std::vector<std::vector<std::uint32_t>>(nl_)) {}

    // Sizes each level's buckets to its count of entries and makes room for them; false when
    // a level has too many for the 32-bit bucket offsets.
    bool size_levels() {
        std::vector<std::vector<std::size_t>> part_counts(parts_, std::vector<std::size_t>(nl_, 0));
        in_parts(parts_, [&](unsigned part) {
            for_my_items(part, [&](std::uint32_t i, const Level&, std::int64_t, std::int64_t, std::uint32_t) { ++part_counts[part][ix_.level_of_[i]]; });
        });
        for (std::size_t k = 0; k < nl_; ++k) {
            Level& level = ix_.levels_[k];
            std::size_t count = 0;
            for (const std::vector<std::size_t>& c : part_counts) count += c[k];
            if (count >= kItem) return false;
            unsigned bits = 0;
            while ((std::size_t{1} << bits) < count) ++bits;
            level.mask = (std::size_t{1} << bits) - 1;
            run_shift_[k] = bits > kRunBits ? bits - kRunBits : 0;
            runs_[k] = (level.mask >> run_shift_[k]) + 1;
            reserve_huge(level.start, level.mask + 2);
            level.start.assign(level.mask + 2, 0);
            reserve_huge(level.entries, count);
            level.entries.resize(count);
        }
        return true;
    }

    // Pass 1: each entry into its run, run by run in item order.
    void fill_runs() {
        in_parts(parts_, [&](unsigned part) {
            for (std::size_t k = 0; k < nl_; ++k) fill_[part][k].assign(runs_[k], 0);
            for_my_items(part, [&](std::uint32_t i, const Level& level, std::int64_t x, std::int64_t y, std::uint32_t) {
                const std::size_t k = ix_.level_of_[i];
                ++fill_[part][k][bucket(x, y, level.mask) >> run_shift_[k]];
            });
        });
        place_runs();
        in_parts(parts_, [&](unsigned part) {
            for_my_items(part, [&](std::uint32_t i, const Level& level, std::int64_t x, std::int64_t y, std::uint32_t f) {
                const std::size_t k = ix_.level_of_[i];
                ix_.levels_[k].entries[fill_[part][k][bucket(x, y, level.mask) >> run_shift_[k]]++] =
                    Entry{ix_.fb_[i], i | f, static_cast<std::int32_t>(x), static_cast<std::int32_t>(y)};
            });
        });
    }

    // Pass 2: each run by bucket (stable), through a copy of the run.
    void sort_runs() {
        in_parts(parts_, [&](unsigned part) {
            std::vector<Entry> run;
            std::vector<std::uint32_t> at;  // offset in the run of each of its buckets
            for (std::size_t k = 0; k < nl_; ++k) {
                const auto [r0, r1] = share(runs_[k], part, parts_);
                for (std::size_t r = r0; r < r1; ++r) sort_run(k, r, run, at);
            }
        });
        for (Level& level : ix_.levels_) level.start[level.mask + 1] = static_cast<std::uint32_t>(level.entries.size());
    }

private:
    static constexpr unsigned kRunBits = 8;

    // Calls f(item, its level, x, y, flags) for each cell of each item of share `part`.
    template <class F>
    void for_my_items(unsigned part, F&& f) const {
        const auto [p0, p1] = share(bounded_.size(), part, parts_);
        for (std::size_t p = p0; p < p1; ++p) {
            const std::uint32_t i = bounded_[p];
            const Level& level = ix_.levels_[ix_.level_of_[i]];
            const Range r = ix_.range(ix_.fb_[i], level);
            for (std::int64_t y = r.y0; y <= r.y1; ++y)
                for (std::int64_t x = r.x0; x <= r.x1; ++x) f(i, level, x, y, flags(r, x, y));
        }
    }

    // Turns the counts in fill_ into where each part's next entry of each run goes (part 0's
    // entries of a run before part 1's), and notes where each run starts.
    void place_runs() {
        for (std::size_t k = 0; k < nl_; ++k) {
            run_start_[k].assign(runs_[k] + 1, 0);
            std::uint32_t at = 0;
            for (std::size_t r = 0; r < runs_[k]; ++r) {
                run_start_[k][r] = at;
                for (unsigned part = 0; part < parts_; ++part) {
                    const std::uint32_t n = fill_[part][k][r];
                    fill_[part][k][r] = at;
                    at += n;
                }
            }
            run_start_[k][runs_[k]] = at;
        }
    }

    void sort_run(std::size_t k, std::size_t r, std::vector<Entry>& run, std::vector<std::uint32_t>& at) {
        Level& level = ix_.levels_[k];
        const std::uint32_t from = run_start_[k][r], to = run_start_[k][r + 1];
        const std::size_t b0 = r << run_shift_[k];
        const std::size_t b1 = std::min(level.mask + 1, (r + 1) << run_shift_[k]);
        run.assign(level.entries.begin() + from, level.entries.begin() + to);
        at.assign(b1 - b0 + 1, 0);
        for (const Entry& e : run) ++at[bucket(e.cx, e.cy, level.mask) - b0 + 1];
        for (std::size_t j = 0; j + 1 < at.size(); ++j) at[j + 1] += at[j];
        for (std::size_t b = b0; b < b1; ++b) level.start[b] = from + at[b - b0];
        for (const Entry& e : run) level.entries[from + at[bucket(e.cx, e.cy, level.mask) - b0]++] = e;
    }

    BroadIndex& ix_;
    const std::vector<std::uint32_t>& bounded_;
    const unsigned parts_;
    const std::size_t nl_;                    // levels
    std::vector<unsigned> run_shift_;         // by level: bucket >> run_shift_ is its run
    std::vector<std::size_t> runs_;           // by level
    std::vector<std::vector<std::uint32_t>> run_start_;  // by level, run: its first entry
    std::vector<std::vector<std::vector<std::uint32_t>>> fill_;  // by part, level, run
};

void BroadIndex::build_grid(const std::vector<std::uint32_t>& bounded, std::vector<double>& extents, unsigned threads) {
    const double base = base_cell(extents);
    measure_extent(bounded);
    if (!std::isfinite(base) || !std::isfinite(1.0 / base)) return build_sweep(bounded);
    if (!assign_levels(bounded, base)) return build_sweep(bounded);
    GridBuild build(*this, bounded, threads > 1 && bounded.size() >= kTwoThreadBuild ? 2u : 1u);
    if (!build.size_levels()) return build_sweep(bounded);
    build.fill_runs();
    build.sort_runs();
}

double BroadIndex::base_cell(std::vector<double>& extents) {
    // Twice the median extent, whatever the extent of the scene (a far outlier must not make
    // the cells coarse). Only so small that there are at most ~200 levels (an item far
    // smaller than the largest one goes to level 0, whatever its size).
    std::nth_element(extents.begin(), extents.begin() + static_cast<std::ptrdiff_t>(extents.size() / 2), extents.end());
    const double median = extents[extents.size() / 2];
    const double largest = *std::max_element(extents.begin() + static_cast<std::ptrdiff_t>(extents.size() / 2), extents.end());
    return std::max({median * 2.0, largest * 0x1p-400, 0x1p-1000});
}

void BroadIndex::measure_extent(const std::vector<std::uint32_t>& bounded) {
    // A line's walk is bounded by it: the cells it crosses outside hold nothing.
    extent_ = fb_[bounded[0]];
    for (std::uint32_t i : bounded) {
        extent_.x0 = std::min(extent_.x0, fb_[i].x0);
        extent_.y0 = std::min(extent_.y0, fb_[i].y0);
        extent_.x1 = std::max(extent_.x1, fb_[i].x1);
        extent_.y1 = std::max(extent_.y1, fb_[i].y1);
    }
}

bool BroadIndex::assign_levels(const std::vector<std::uint32_t>& bounded, double base) {
    // Each item in the finest level whose cells are at least its extent: it then covers at
    // most 2 x 2 cells there.
    std::vector<double> cells{base};
    level_of_.assign(fb_.size(), 0);
    for (std::uint32_t i : bounded) {
        const FBounds& q = fb_[i];
        const double ext = std::max(static_cast<double>(q.x1) - q.x0, static_cast<double>(q.y1) - q.y0);
        std::size_t k = 0;
        while (ext > cells[k]) {
            if (k + 1 == cells.size()) cells.push_back(cells.back() * 4.0);
            ++k;
        }
        level_of_[i] = static_cast<std::uint8_t>(k);
    }
    if (cells.size() > 255) return false;  // level_of_ is 8 bits (never so many: see base_cell)
    levels_.resize(cells.size());
    for (std::size_t k = 0; k < cells.size(); ++k) {
        levels_[k].cell = cells[k];
        levels_[k].inv_cell = 1.0 / cells[k];
    }
    return true;
}

std::int64_t BroadIndex::coord_beyond(double v, double c) {
    // Beyond 2^62 cells (only a point, or the zero-width side of an item, can be so far in
    // cells of its level: a side of non-zero width at v is at least a float ulp of v wide,
    // 2^-24 |v|), the floats' own order keeps distinct values apart, and is still
    // non-decreasing in v.
    return c > 0 ? kBeyond + float_rank(float_down(v)) : -kBeyond - float_rank(float_down(-v));
}

BroadIndex::Range BroadIndex::range(const FBounds& b, const Level& level) const {
    return Range{coord(b.x0, level.inv_cell), coord(b.y0, level.inv_cell), coord(b.x1, level.inv_cell),
                 coord(b.y1, level.inv_cell)};
}

std::size_t BroadIndex::bucket(std::int64_t cx, std::int64_t cy, std::size_t mask) {
    // The low 32 bits, as kept in the entries: cells 2^32 apart share a bucket and look alike,
    // which is harmless because no item's range spans 2^32 cells where it is looked up.
    const auto h = static_cast<std::uint64_t>(static_cast<std::uint32_t>(cx)) * 0x9E3779B97F4A7C15ull ^
                   static_cast<std::uint64_t>(static_cast<std::uint32_t>(cy)) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<std::size_t>(h ^ (h >> 29)) & mask;
}

void BroadIndex::query(std::uint32_t i, std::vector<std::uint32_t>& out) const {
    out.clear();
    if (method_ == Broadphase::Brute) {
        for (std::uint32_t j : items_)
            if (j != i && candidate(i, j)) out.push_back(j);
        return;  // items_ is sorted by the caller
    }
    if (is_big_[i]) {
        near_line(i, out);
        out.erase(std::remove_if(out.begin(), out.end(), [&](std::uint32_t j) { return !candidate(i, j); }), out.end());
        big_partners(big_rank_[i], true, [&](std::uint32_t j) { out.push_back(j); });
    } else {
        query_unbounded(i, out);
        if (method_ == Broadphase::Sweep) query_sweep(fb_[i], i, out);
        else query_grid(fb_[i], i, level_of_[i], out);
    }
    std::sort(out.begin(), out.end());
}

void BroadIndex::query_box(const FBounds& b, std::vector<std::uint32_t>& out) const {
    out.clear();
    // An unbounded item passes where its bounds overlap the box and, for a known line or
    // ray, where it may meet it.
    auto passes = [&](std::uint32_t j) {
        if (!overlap(b, fb_[j])) return false;
        return !is_big_[j] || !big_of(j).known || meets(big_of(j).line, b);
    };
    if (method_ == Broadphase::Brute) {
        for (const std::uint32_t j : items_)
            if (passes(j)) out.push_back(j);
        return;
    }
    for (const std::uint32_t j : big_)
        if (passes(j)) out.push_back(j);
    constexpr std::uint32_t kNoSelf = 0xFFFFFFFFu;  // no item's index
    if (method_ == Broadphase::Sweep) query_sweep(b, kNoSelf, out);
    else query_grid(b, kNoSelf, levels_.size(), out);
    std::sort(out.begin(), out.end());
}

void BroadIndex::query_unbounded(std::uint32_t i, std::vector<std::uint32_t>& out) const {
    if (method_ == Broadphase::Grid && big_.size() > kLoopBigs) std::call_once(near_once_, [this] { build_near(); });
    if (!near_start_.empty()) {
        out.insert(out.end(), near_.begin() + near_start_[i], near_.begin() + near_start_[i + 1]);
        for (std::uint32_t j : big_)
            if (!big_of(j).known && candidate(i, j)) out.push_back(j);
    } else {
        for (std::uint32_t j : big_)
            if (candidate(i, j)) out.push_back(j);
    }
}

void BroadIndex::query_sweep(const FBounds& b, std::uint32_t self, std::vector<std::uint32_t>& out) const {
    const double b_lo = sweep_y_ ? b.y0 : b.x0, b_hi = sweep_y_ ? b.y1 : b.x1;
    const double from = std::nextafter(b_lo - max_width_, -std::numeric_limits<double>::infinity());
    auto it = std::lower_bound(by_lo_.begin(), by_lo_.end(), from,
                               [&](std::uint32_t j, double v) { return static_cast<double>(lo(j)) < v; });
    for (; it != by_lo_.end() && lo(*it) <= b_hi; ++it)
        if (*it != self && overlap(b, fb_[*it])) out.push_back(*it);
}

void BroadIndex::query_grid(const FBounds& b, std::uint32_t self, std::size_t finer_than, std::vector<std::uint32_t>& out) const {
    for (std::size_t k = 0; k < levels_.size(); ++k) {
        const Level& level = levels_[k];
        if (level.entries.empty()) continue;
        const Range r = range(b, level);
        const double cells = (static_cast<double>(r.x1) - static_cast<double>(r.x0) + 1) *
                             (static_cast<double>(r.y1) - static_cast<double>(r.y0) + 1);
        if (k < finer_than && cells > static_cast<double>(level.entries.size())) {
            // A finer level where the box covers more cells than there are entries: test
            // each of its items once instead.
            for (const Entry& c : level.entries)
                if ((c.tagged & kFirst) == kFirst && overlap(b, c.fb)) out.push_back(c.tagged & kItem);
            continue;
        }
        scan(level, b, self, [&](const Entry& c) {
            if (overlap(b, c.fb)) out.push_back(c.tagged & kItem);
        });
    }
}

}  // namespace detail

std::vector<std::pair<std::uint32_t, std::uint32_t>> candidate_pairs(const std::vector<Bounds>& bounds,
                                                                     const std::vector<std::uint32_t>& items,
                                                                     Broadphase method) {
    std::vector<std::uint32_t> sorted = items;
    std::sort(sorted.begin(), sorted.end());
    std::vector<detail::FBounds> fb(bounds.size());
    std::vector<Bounds> sample;
    for (std::size_t k = 0; k < sorted.size(); k += std::max<std::size_t>(1, sorted.size() / 64)) sample.push_back(bounds[sorted[k]]);
    const detail::FloatFrame frame = detail::frame_for(std::move(sample));
    for (std::uint32_t i : sorted) fb[i] = detail::outward(bounds[i], frame);
    const detail::BroadIndex index(std::move(fb), sorted, method);
    // The index may add pairs that only touch within float rounding; keep the exact ones.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    index.for_each_pair([&](std::uint32_t i, std::uint32_t j) {
        const Bounds& a = bounds[i];
        const Bounds& b = bounds[j];
        if (a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y) out.emplace_back(i, j);
        return true;
    });
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace collide
