// Broad phases as an index queried one item at a time: the check walks the shapes in
// index order and asks for each one's overlapping partners, so reports stream out in their
// final order without a list of every pair. Every method answers every query identically.
#include "broadphase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace collide {

namespace detail {

namespace {

constexpr std::int64_t kMaxCellsPerItem = 64;  // larger items are tested against everything
constexpr double kCoordLimit = 1073741824.0;  // 2^30: cell coordinates fit an int32

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

}  // namespace

void radix_sort(std::vector<std::uint64_t>& keys) {
    if (keys.size() < 256) {
        std::sort(keys.begin(), keys.end());
        return;
    }
    std::vector<std::uint64_t> tmp(keys.size());
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

FBounds outward(const Bounds& b) {
    return FBounds{float_down(b.min.x), float_down(b.min.y), float_up(b.max.x), float_up(b.max.y)};
}

BroadIndex::BroadIndex(std::vector<FBounds> bounds, const std::vector<std::uint32_t>& items, Broadphase method)
    : items_(items), fb_(std::move(bounds)), method_(method) {
    if (method_ == Broadphase::Auto) method_ = items.size() <= 32 ? Broadphase::Brute : Broadphase::Grid;
    // The grid tags item indices with two flags: more than 2^30 items take the sweep.
    if (method_ == Broadphase::Grid && fb_.size() > kItem) method_ = Broadphase::Sweep;
    is_big_.assign(fb_.size(), 0);
    if (method_ == Broadphase::Brute) return;
    // Unbounded items, and (for the grid) items much larger than a cell, meet every other
    // item by a plain test.
    std::vector<std::uint32_t> bounded;
    std::vector<double> extents;
    for (std::uint32_t i : items) {
        const FBounds& q = fb_[i];
        const double ext = std::max(static_cast<double>(q.x1) - q.x0, static_cast<double>(q.y1) - q.y0);
        if (std::isfinite(ext)) {
            bounded.push_back(i);
            extents.push_back(ext);
        } else {
            big_.push_back(i);
        }
    }
    if (method_ == Broadphase::Sweep) build_sweep(bounded);
    else if (!bounded.empty()) build_grid(bounded, extents);
    for (std::uint32_t i : big_) is_big_[i] = 1;
    std::sort(big_.begin(), big_.end());
}

void BroadIndex::build_sweep(const std::vector<std::uint32_t>& bounded) {
    method_ = Broadphase::Sweep;
    by_x_ = bounded;
    std::sort(by_x_.begin(), by_x_.end(),
              [&](std::uint32_t i, std::uint32_t j) { return fb_[i].x0 < fb_[j].x0 || (fb_[i].x0 == fb_[j].x0 && i < j); });
    // Rounded up, so that a query's window (below) never starts too far right.
    for (std::uint32_t i : by_x_) {
        const double w = static_cast<double>(fb_[i].x1) - static_cast<double>(fb_[i].x0);
        max_width_ = std::max(max_width_, std::nextafter(w, std::numeric_limits<double>::infinity()));
    }
}

void BroadIndex::build_grid(const std::vector<std::uint32_t>& bounded, std::vector<double>& extents) {
    // Cells twice the median extent, but never so small that the scene spans more than
    // about 4n cells a side.
    std::nth_element(extents.begin(), extents.begin() + static_cast<std::ptrdiff_t>(extents.size() / 2), extents.end());
    float lo_x = fb_[bounded[0]].x0, lo_y = fb_[bounded[0]].y0, hi_x = fb_[bounded[0]].x1, hi_y = fb_[bounded[0]].y1;
    for (std::uint32_t i : bounded) {
        lo_x = std::min(lo_x, fb_[i].x0);
        lo_y = std::min(lo_y, fb_[i].y0);
        hi_x = std::max(hi_x, fb_[i].x1);
        hi_y = std::max(hi_y, fb_[i].y1);
    }
    origin_ = Vec2{lo_x, lo_y};
    const Vec2 top{hi_x, hi_y};
    const double span = std::max(top.x - origin_.x, top.y - origin_.y);
    cell_ = std::max({extents[extents.size() / 2] * 2.0, span / (4.0 * static_cast<double>(bounded.size()) + 1.0),
                      span / (kCoordLimit / 2), std::numeric_limits<double>::min()});
    if (!std::isfinite(cell_) || !std::isfinite(span)) return build_sweep(bounded);  // absurd spreads
    inv_cell_ = 1.0 / cell_;
    if (!std::isfinite(inv_cell_)) return build_sweep(bounded);

    // Counting sort of the entries by a hash of their cell: count, then place. Items are
    // visited in ascending order both times, so each bucket lists its items ascending.
    auto for_each_cell = [&](std::uint32_t i, auto&& f) {
        const std::int32_t x0 = coord(fb_[i].x0, origin_.x), x1 = coord(fb_[i].x1, origin_.x);
        const std::int32_t y0 = coord(fb_[i].y0, origin_.y), y1 = coord(fb_[i].y1, origin_.y);
        const std::int64_t w = std::int64_t{x1} - x0 + 1, h = std::int64_t{y1} - y0 + 1;
        if (w > kMaxCellsPerItem || h > kMaxCellsPerItem || w * h > kMaxCellsPerItem) return false;
        for (std::int32_t y = y0; y <= y1; ++y)
            for (std::int32_t x = x0; x <= x1; ++x)
                f(x, y, (x == x0 ? kFirstCol : 0u) | (y == y0 ? kFirstRow : 0u));
        return true;
    };
    std::size_t n_entries = 0;
    std::vector<std::uint32_t> gridded;
    gridded.reserve(bounded.size());
    for (std::uint32_t i : bounded) {
        std::size_t k = 0;
        if (for_each_cell(i, [&](std::int32_t, std::int32_t, std::uint32_t) { ++k; })) {
            n_entries += k;
            gridded.push_back(i);
        } else {
            big_.push_back(i);
        }
    }
    std::size_t buckets = 1;
    while (buckets < n_entries) buckets *= 2;
    mask_ = buckets - 1;
    start_.assign(buckets + 1, 0);
    for (std::uint32_t i : gridded)
        for_each_cell(i, [&](std::int32_t x, std::int32_t y, std::uint32_t) { ++start_[bucket(x, y) + 1]; });
    for (std::size_t k = 0; k < buckets; ++k) start_[k + 1] += start_[k];
    entries_.resize(n_entries);
    std::vector<std::uint32_t> fill(start_.begin(), start_.end() - 1);
    for (std::uint32_t i : gridded)
        for_each_cell(i, [&](std::int32_t x, std::int32_t y, std::uint32_t flags) {
            entries_[fill[bucket(x, y)]++] = Entry{fb_[i], i | flags, x, y};
        });
}

std::int32_t BroadIndex::coord(double v, double origin) const {
    // Any non-decreasing function of v works here (overlapping bounds then share a cell):
    // a multiplication is cheaper than a division.
    const double c = std::floor((v - origin) * inv_cell_);
    return static_cast<std::int32_t>(std::clamp(c, -kCoordLimit, kCoordLimit));
}

std::size_t BroadIndex::bucket(std::int32_t cx, std::int32_t cy) const {
    const auto h = static_cast<std::uint64_t>(static_cast<std::uint32_t>(cx)) * 0x9E3779B97F4A7C15ull ^
                   static_cast<std::uint64_t>(static_cast<std::uint32_t>(cy)) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<std::size_t>(h ^ (h >> 29)) & mask_;
}

void BroadIndex::query(std::uint32_t i, std::vector<std::uint32_t>& out) const {
    out.clear();
    const FBounds& bi = fb_[i];
    if (method_ == Broadphase::Brute || is_big_[i]) {
        for (std::uint32_t j : items_)
            if (j != i && overlap(bi, fb_[j])) out.push_back(j);
        return;  // items_ is sorted by the caller
    }
    for (std::uint32_t j : big_)
        if (overlap(bi, fb_[j])) out.push_back(j);
    if (method_ == Broadphase::Sweep) {
        const double from = std::nextafter(static_cast<double>(bi.x0) - max_width_, -std::numeric_limits<double>::infinity());
        auto it = std::lower_bound(by_x_.begin(), by_x_.end(), from,
                                   [&](std::uint32_t j, double v) { return static_cast<double>(fb_[j].x0) < v; });
        for (; it != by_x_.end() && fb_[*it].x0 <= bi.x1; ++it)
            if (*it != i && overlap(bi, fb_[*it])) out.push_back(*it);
    } else if (!entries_.empty()) {
        const std::int32_t x0 = coord(bi.x0, origin_.x), x1 = coord(bi.x1, origin_.x);
        const std::int32_t y0 = coord(bi.y0, origin_.y), y1 = coord(bi.y1, origin_.y);
        for (std::int32_t y = y0; y <= y1; ++y) {
            for (std::int32_t x = x0; x <= x1; ++x) {
                const std::size_t k = bucket(x, y);
                const std::uint32_t mine = (x == x0 ? kFirstCol : 0u) | (y == y0 ? kFirstRow : 0u);
                for (std::size_t e = start_[k]; e < start_[k + 1]; ++e) {
                    const Entry& c = entries_[e];
                    if (c.cx != x || c.cy != y || (c.tagged & kItem) == i) continue;
                    // Reported only in the cell holding the larger of the two min corners.
                    if (((c.tagged | mine) & (kFirstCol | kFirstRow)) != (kFirstCol | kFirstRow)) continue;
                    if (overlap(bi, c.fb)) out.push_back(c.tagged & kItem);
                }
            }
        }
    }
    std::sort(out.begin(), out.end());
}

}  // namespace detail

std::vector<std::pair<std::uint32_t, std::uint32_t>> candidate_pairs(const std::vector<Bounds>& bounds,
                                                                     const std::vector<std::uint32_t>& items,
                                                                     Broadphase method) {
    std::vector<std::uint32_t> sorted = items;
    std::sort(sorted.begin(), sorted.end());
    std::vector<detail::FBounds> fb(bounds.size());
    for (std::uint32_t i : sorted) fb[i] = detail::outward(bounds[i]);
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
