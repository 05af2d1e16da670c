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

bool overlap(const Bounds& a, const Bounds& b) {
    return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y;
}

constexpr std::int64_t kMaxCellsPerItem = 64;  // larger items are tested against everything
constexpr double kCoordLimit = 4503599627370496.0;  // 2^52: cell coordinates stay exact

}  // namespace

BroadIndex::BroadIndex(const std::vector<Bounds>& bounds, const std::vector<std::uint32_t>& items, Broadphase method)
    : b_(bounds), items_(items), method_(method) {
    if (method_ == Broadphase::Auto) method_ = items.size() <= 32 ? Broadphase::Brute : Broadphase::Grid;
    is_big_.assign(bounds.size(), 0);
    if (method_ == Broadphase::Brute) return;
    // Unbounded items, and (for the grid) items much larger than a cell, meet every other
    // item by a plain test.
    std::vector<std::uint32_t> bounded;
    std::vector<double> extents;
    for (std::uint32_t i : items) {
        const Bounds& q = b_[i];
        const double ext = std::max(q.max.x - q.min.x, q.max.y - q.min.y);
        if (std::isfinite(ext)) {
            bounded.push_back(i);
            extents.push_back(ext);
        } else {
            big_.push_back(i);
        }
    }
    if (method_ == Broadphase::Sweep) {
        by_x_ = bounded;
        std::sort(by_x_.begin(), by_x_.end(), [&](std::uint32_t i, std::uint32_t j) {
            return b_[i].min.x < b_[j].min.x || (b_[i].min.x == b_[j].min.x && i < j);
        });
        for (std::uint32_t i : by_x_) max_width_ = std::max(max_width_, b_[i].max.x - b_[i].min.x);
    } else if (!bounded.empty()) {
        build_grid(bounded, extents);
    }
    for (std::uint32_t i : big_) is_big_[i] = 1;
    std::sort(big_.begin(), big_.end());
}

void BroadIndex::build_grid(const std::vector<std::uint32_t>& bounded, std::vector<double>& extents) {
    // Cells twice the median extent, but never so small that the scene spans more than
    // about 4n cells a side.
    std::nth_element(extents.begin(), extents.begin() + static_cast<std::ptrdiff_t>(extents.size() / 2), extents.end());
    origin_ = b_[bounded[0]].min;
    Vec2 top = b_[bounded[0]].max;
    for (std::uint32_t i : bounded) {
        origin_ = Vec2{std::min(origin_.x, b_[i].min.x), std::min(origin_.y, b_[i].min.y)};
        top = Vec2{std::max(top.x, b_[i].max.x), std::max(top.y, b_[i].max.y)};
    }
    const double span = std::max(top.x - origin_.x, top.y - origin_.y);
    cell_ = std::max({extents[extents.size() / 2] * 2.0, span / (4.0 * static_cast<double>(bounded.size()) + 1.0),
                      std::numeric_limits<double>::min()});
    if (!std::isfinite(cell_) || !std::isfinite(span)) {  // absurd spreads: fall back to the sweep
        method_ = Broadphase::Sweep;
        by_x_ = bounded;
        std::sort(by_x_.begin(), by_x_.end(), [&](std::uint32_t i, std::uint32_t j) {
            return b_[i].min.x < b_[j].min.x || (b_[i].min.x == b_[j].min.x && i < j);
        });
        for (std::uint32_t i : by_x_) max_width_ = std::max(max_width_, b_[i].max.x - b_[i].min.x);
        return;
    }
    struct Entry {
        std::int64_t cx, cy;
        std::uint32_t item;
    };
    std::vector<Entry> entries;
    entries.reserve(bounded.size() * 2);
    for (std::uint32_t i : bounded) {
        const std::int64_t x0 = coord(b_[i].min.x, origin_.x), x1 = coord(b_[i].max.x, origin_.x);
        const std::int64_t y0 = coord(b_[i].min.y, origin_.y), y1 = coord(b_[i].max.y, origin_.y);
        if (x1 - x0 >= kMaxCellsPerItem || y1 - y0 >= kMaxCellsPerItem || (x1 - x0 + 1) * (y1 - y0 + 1) > kMaxCellsPerItem) {
            big_.push_back(i);
            continue;
        }
        for (std::int64_t y = y0; y <= y1; ++y)
            for (std::int64_t x = x0; x <= x1; ++x) entries.push_back(Entry{x, y, i});
    }
    // Counting sort by a hash of the cell; within a bucket, entries keep item order.
    buckets_ = std::max<std::size_t>(1, entries.size());
    start_.assign(buckets_ + 1, 0);
    for (const Entry& e : entries) ++start_[bucket(e.cx, e.cy) + 1];
    std::partial_sum(start_.begin(), start_.end(), start_.begin());
    cells_.resize(entries.size());
    std::vector<std::size_t> fill(start_.begin(), start_.end() - 1);
    for (const Entry& e : entries) cells_[fill[bucket(e.cx, e.cy)]++] = Cell{e.cx, e.cy, e.item};
}

std::int64_t BroadIndex::coord(double v, double origin) const {
    const double c = std::floor((v - origin) / cell_);
    return static_cast<std::int64_t>(std::clamp(c, -kCoordLimit, kCoordLimit));
}

std::size_t BroadIndex::bucket(std::int64_t cx, std::int64_t cy) const {
    const auto h = static_cast<std::uint64_t>(cx) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(cy) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<std::size_t>((h ^ (h >> 29)) % buckets_);
}

void BroadIndex::query(std::uint32_t i, std::vector<std::uint32_t>& out) const {
    out.clear();
    const Bounds& bi = b_[i];
    if (method_ == Broadphase::Brute || is_big_[i]) {
        for (std::uint32_t j : items_)
            if (j != i && overlap(bi, b_[j])) out.push_back(j);
        return;  // items_ is sorted by the caller
    }
    for (std::uint32_t j : big_)
        if (overlap(bi, b_[j])) out.push_back(j);
    if (method_ == Broadphase::Sweep) {
        const double from = bi.min.x - max_width_;
        auto it = std::lower_bound(by_x_.begin(), by_x_.end(), from, [&](std::uint32_t j, double v) { return b_[j].min.x < v; });
        for (; it != by_x_.end() && b_[*it].min.x <= bi.max.x; ++it)
            if (*it != i && overlap(bi, b_[*it])) out.push_back(*it);
    } else {
        const std::int64_t x0 = coord(bi.min.x, origin_.x), x1 = coord(bi.max.x, origin_.x);
        const std::int64_t y0 = coord(bi.min.y, origin_.y), y1 = coord(bi.max.y, origin_.y);
        for (std::int64_t y = y0; y <= y1; ++y) {
            for (std::int64_t x = x0; x <= x1; ++x) {
                const std::size_t k = bucket(x, y);
                for (std::size_t e = start_[k]; e < start_[k + 1]; ++e) {
                    const Cell& c = cells_[e];
                    if (c.cx != x || c.cy != y || c.item == i) continue;
                    const Bounds& bj = b_[c.item];
                    if (!overlap(bi, bj)) continue;
                    // Both cover the cell holding the max of the two min corners: report the
                    // pair only there, so once.
                    if (coord(std::max(bi.min.x, bj.min.x), origin_.x) != x || coord(std::max(bi.min.y, bj.min.y), origin_.y) != y)
                        continue;
                    out.push_back(c.item);
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
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    std::vector<std::uint32_t> partners;
    for (std::uint32_t i : sorted) {
        index.query(i, partners);
        for (std::uint32_t j : partners)
            if (j > i) out.emplace_back(i, j);
    }
    return out;
}

}  // namespace collide
