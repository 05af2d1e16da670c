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

BroadIndex::BroadIndex(const std::vector<Bounds>& bounds, const std::vector<std::uint32_t>& items, Broadphase method)
    : b_(bounds), items_(items), method_(method) {
    if (method_ == Broadphase::Auto) method_ = items.size() <= 32 ? Broadphase::Brute : Broadphase::Grid;
    // The grid tags item indices with two flags: more than 2^30 items take the sweep.
    if (method_ == Broadphase::Grid && bounds.size() > kItem) method_ = Broadphase::Sweep;
    fb_.resize(bounds.size());
    for (std::uint32_t i : items) fb_[i] = outward(bounds[i]);
    is_big_.assign(bounds.size(), 0);
    if (method_ == Broadphase::Brute) return;
    // Unbounded items, and (for the grid) items much larger than a cell, meet every other
    // item by a plain test.
    std::vector<std::uint32_t> bounded;
    std::vector<double> extents;
    for (std::uint32_t i : items) {
        const Bounds& q = bounds[i];
        const double ext = std::max(q.max.x - q.min.x, q.max.y - q.min.y);
        if (std::isfinite(ext)) {
            bounded.push_back(i);
            extents.push_back(ext);
        } else {
            big_.push_back(i);
        }
    }
    if (method_ == Broadphase::Sweep) build_sweep(bounded);
    else if (!bounded.empty()) build_grid(bounds, bounded, extents);
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

void BroadIndex::build_grid(const std::vector<Bounds>& bounds, const std::vector<std::uint32_t>& bounded,
                            std::vector<double>& extents) {
    // Cells twice the median extent, but never so small that the scene spans more than
    // about 4n cells a side.
    std::nth_element(extents.begin(), extents.begin() + static_cast<std::ptrdiff_t>(extents.size() / 2), extents.end());
    origin_ = bounds[bounded[0]].min;
    Vec2 top = bounds[bounded[0]].max;
    for (std::uint32_t i : bounded) {
        origin_ = Vec2{std::min(origin_.x, bounds[i].min.x), std::min(origin_.y, bounds[i].min.y)};
        top = Vec2{std::max(top.x, bounds[i].max.x), std::max(top.y, bounds[i].max.y)};
    }
    const double span = std::max(top.x - origin_.x, top.y - origin_.y);
    cell_ = std::max({extents[extents.size() / 2] * 2.0, span / (4.0 * static_cast<double>(bounded.size()) + 1.0),
                      span / (kCoordLimit / 2), std::numeric_limits<double>::min()});
    if (!std::isfinite(cell_) || !std::isfinite(span)) return build_sweep(bounded);  // absurd spreads

    // Counting sort of the entries by a hash of their cell: count, then place. Items are
    // visited in ascending order both times, so each bucket lists its items ascending.
    auto for_each_cell = [&](std::uint32_t i, auto&& f) {
        const std::int32_t x0 = coord(bounds[i].min.x, origin_.x), x1 = coord(bounds[i].max.x, origin_.x);
        const std::int32_t y0 = coord(bounds[i].min.y, origin_.y), y1 = coord(bounds[i].max.y, origin_.y);
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
    const double c = std::floor((v - origin) / cell_);
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
        const Bounds& b = b_[i];
        const std::int32_t x0 = coord(b.min.x, origin_.x), x1 = coord(b.max.x, origin_.x);
        const std::int32_t y0 = coord(b.min.y, origin_.y), y1 = coord(b.max.y, origin_.y);
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
    const detail::BroadIndex index(bounds, sorted, method);
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
