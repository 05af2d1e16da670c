// Broad phases: all return the same sorted list of index pairs whose closed bounds overlap.
#include "collide/check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace collide {

namespace {

using Pairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

bool overlap(const Bounds& a, const Bounds& b) {
    return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y;
}

void emit(Pairs& out, std::uint32_t i, std::uint32_t j) { out.emplace_back(std::min(i, j), std::max(i, j)); }

Pairs brute(const std::vector<Bounds>& b, const std::vector<std::uint32_t>& items) {
    Pairs out;
    for (std::size_t x = 0; x < items.size(); ++x)
        for (std::size_t y = x + 1; y < items.size(); ++y)
            if (overlap(b[items[x]], b[items[y]])) emit(out, items[x], items[y]);
    return out;
}

// Sort and sweep on x: each item meets the later ones whose min x is within its extent.
Pairs sweep(const std::vector<Bounds>& b, std::vector<std::uint32_t> items) {
    std::sort(items.begin(), items.end(), [&](std::uint32_t i, std::uint32_t j) {
        return b[i].min.x < b[j].min.x || (b[i].min.x == b[j].min.x && i < j);
    });
    Pairs out;
    for (std::size_t x = 0; x < items.size(); ++x) {
        const Bounds& bx = b[items[x]];
        for (std::size_t y = x + 1; y < items.size() && b[items[y]].min.x <= bx.max.x; ++y)
            if (overlap(bx, b[items[y]])) emit(out, items[x], items[y]);
    }
    return out;
}

// Uniform grid. Cells are sized from the median extent of the bounded items; an item is
// entered in every cell its bounds cover, and a pair is reported only from the cell that
// holds the max of the two min corners, which both cover: so once, without a set. Items
// that would cover too many cells (or are unbounded) are tested against all others.
Pairs grid(const std::vector<Bounds>& b, const std::vector<std::uint32_t>& items) {
    std::vector<std::uint32_t> big;
    std::vector<std::uint32_t> small;
    std::vector<double> extents;
    for (std::uint32_t i : items) {
        const Bounds& q = b[i];
        const double ext = std::max(q.max.x - q.min.x, q.max.y - q.min.y);
        if (std::isfinite(ext)) {
            small.push_back(i);
            extents.push_back(ext);
        } else {
            big.push_back(i);
        }
    }
    Pairs out;
    if (!small.empty()) {
        std::nth_element(extents.begin(), extents.begin() + static_cast<std::ptrdiff_t>(extents.size() / 2), extents.end());
        double cell = extents[extents.size() / 2] * 2.0;
        Bounds all = b[small[0]];
        for (std::uint32_t i : small) {
            all.min = Vec2{std::min(all.min.x, b[i].min.x), std::min(all.min.y, b[i].min.y)};
            all.max = Vec2{std::max(all.max.x, b[i].max.x), std::max(all.max.y, b[i].max.y)};
        }
        const double span = std::max(all.max.x - all.min.x, all.max.y - all.min.y);
        // Not so small that the scene spans more than ~4n cells a side, never zero.
        cell = std::max({cell, span / (4.0 * static_cast<double>(small.size()) + 1.0), std::numeric_limits<double>::min()});
        if (!std::isfinite(cell) || !std::isfinite(span)) return sweep(b, items);
        const double limit = 9.007199254740992e15;  // 2^53: cell coordinates stay exact integers
        auto coord = [&](double v, double origin) {
            const double c = std::floor((v - origin) / cell);
            return static_cast<std::int64_t>(std::clamp(c, -limit, limit));
        };
        struct Entry {
            std::int64_t cx, cy;
            std::uint32_t item;
        };
        std::vector<Entry> entries;
        entries.reserve(small.size() * 2);
        const std::int64_t max_cells = 64;
        std::vector<std::uint32_t> spilled;
        for (std::uint32_t i : small) {
            const std::int64_t x0 = coord(b[i].min.x, all.min.x), x1 = coord(b[i].max.x, all.min.x);
            const std::int64_t y0 = coord(b[i].min.y, all.min.y), y1 = coord(b[i].max.y, all.min.y);
            if (x1 - x0 >= max_cells || y1 - y0 >= max_cells || (x1 - x0 + 1) * (y1 - y0 + 1) > max_cells) {
                spilled.push_back(i);
                continue;
            }
            for (std::int64_t y = y0; y <= y1; ++y)
                for (std::int64_t x = x0; x <= x1; ++x) entries.push_back(Entry{x, y, i});
        }
        // Counting sort by a hash of the cell: entries of one cell end up contiguous within
        // their bucket; different cells sharing a bucket are told apart by (cx, cy).
        const std::size_t nb = std::max<std::size_t>(1, entries.size());
        auto bucket = [&](const Entry& e) {
            const auto h = static_cast<std::uint64_t>(e.cx) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(e.cy) * 0xC2B2AE3D27D4EB4Full;
            return static_cast<std::size_t>((h ^ (h >> 29)) % nb);
        };
        std::vector<std::size_t> start(nb + 1, 0);
        for (const Entry& e : entries) ++start[bucket(e) + 1];
        std::partial_sum(start.begin(), start.end(), start.begin());
        std::vector<Entry> sorted(entries.size());
        {
            std::vector<std::size_t> fill(start.begin(), start.end() - 1);
            for (const Entry& e : entries) sorted[fill[bucket(e)]++] = e;
        }
        for (std::size_t k = 0; k < nb; ++k) {
            for (std::size_t x = start[k]; x < start[k + 1]; ++x) {
                const Entry& ex = sorted[x];
                for (std::size_t y = x + 1; y < start[k + 1]; ++y) {
                    const Entry& ey = sorted[y];
                    if (ex.cx != ey.cx || ex.cy != ey.cy) continue;
                    const Bounds& bi = b[ex.item];
                    const Bounds& bj = b[ey.item];
                    if (!overlap(bi, bj)) continue;
                    if (coord(std::max(bi.min.x, bj.min.x), all.min.x) != ex.cx ||
                        coord(std::max(bi.min.y, bj.min.y), all.min.y) != ex.cy)
                        continue;
                    emit(out, ex.item, ey.item);
                }
            }
        }
        big.insert(big.end(), spilled.begin(), spilled.end());
    }
    // Large and unbounded items meet everything else by a plain test; pairs among the
    // large ones are produced once (x < y).
    std::vector<char> is_big(b.size(), 0);
    for (std::uint32_t i : big) is_big[i] = 1;
    for (std::size_t x = 0; x < big.size(); ++x) {
        for (std::uint32_t j : items) {
            if (is_big[j] && j <= big[x]) continue;
            if (overlap(b[big[x]], b[j])) emit(out, big[x], j);
        }
    }
    return out;
}

}  // namespace

std::vector<std::pair<std::uint32_t, std::uint32_t>> candidate_pairs(const std::vector<Bounds>& bounds,
                                                                     const std::vector<std::uint32_t>& items,
                                                                     Broadphase method) {
    if (method == Broadphase::Auto) method = items.size() <= 32 ? Broadphase::Brute : Broadphase::Grid;
    Pairs out;
    switch (method) {
        case Broadphase::Brute: out = brute(bounds, items); break;
        case Broadphase::Sweep: out = sweep(bounds, items); break;
        default: out = grid(bounds, items); break;
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace collide
