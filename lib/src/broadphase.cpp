// Broad phases as an index queried one item at a time: the check walks the shapes in
// index order and asks for each one's overlapping partners, so reports stream out in their
// final order without a list of every pair. Every method answers every query identically.
#include "big_alloc.hpp"
#include "broadphase.hpp"
#include "in_parts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace collide {

namespace detail {

namespace {

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
                       unsigned threads)
    : items_(items), fb_(std::move(bounds)), method_(method) {
    if (method_ == Broadphase::Auto) method_ = items.size() <= 32 ? Broadphase::Brute : Broadphase::Grid;
    // The grid tags item indices with two flags: more than 2^30 items take the sweep.
    if (method_ == Broadphase::Grid && fb_.size() > kItem) method_ = Broadphase::Sweep;
    is_big_.assign(fb_.size(), 0);
    if (method_ == Broadphase::Brute) return;
    // Unbounded items meet every other item by a plain test.
    std::vector<std::uint32_t> bounded;
    std::vector<double> extents;
    reserve_huge(bounded, items.size());
    reserve_huge(extents, items.size());
    for (std::uint32_t i : items) {
        const FBounds& q = fb_[i];
        const double ext = std::max(static_cast<double>(q.x1) - q.x0, static_cast<double>(q.y1) - q.y0);
        if (std::isfinite(ext)) {
            bounded.push_back(i);
            extents.push_back(ext);
        } else {
            big_.push_back(i);
            is_big_[i] = 1;
        }
    }
    if (method_ == Broadphase::Sweep) build_sweep(bounded);
    else if (!bounded.empty()) build_grid(bounded, extents, threads);
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

void BroadIndex::build_grid(const std::vector<std::uint32_t>& bounded, std::vector<double>& extents, unsigned threads) {
    // The base cell is twice the median extent, but never so small that the scene spans
    // more than about 4n cells a side.
    std::nth_element(extents.begin(), extents.begin() + static_cast<std::ptrdiff_t>(extents.size() / 2), extents.end());
    float lo_x = fb_[bounded[0]].x0, lo_y = fb_[bounded[0]].y0, hi_x = fb_[bounded[0]].x1, hi_y = fb_[bounded[0]].y1;
    for (std::uint32_t i : bounded) {
        lo_x = std::min(lo_x, fb_[i].x0);
        lo_y = std::min(lo_y, fb_[i].y0);
        hi_x = std::max(hi_x, fb_[i].x1);
        hi_y = std::max(hi_y, fb_[i].y1);
    }
    origin_ = Vec2{lo_x, lo_y};
    const double span = std::max(static_cast<double>(hi_x) - lo_x, static_cast<double>(hi_y) - lo_y);
    const double base = std::max({extents[extents.size() / 2] * 2.0, span / (4.0 * static_cast<double>(bounded.size()) + 1.0),
                                  span / (kCoordLimit / 2), std::numeric_limits<double>::min()});
    if (!std::isfinite(base) || !std::isfinite(span) || !std::isfinite(1.0 / base)) return build_sweep(bounded);

    // Each item in the finest level whose cells are at least its extent.
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
    levels_.resize(cells.size());
    for (std::size_t k = 0; k < cells.size(); ++k) levels_[k].inv_cell = 1.0 / cells[k];

    // Counting sort of each level's entries by a hash of their cell, in two stable passes so
    // that no pass writes all over a big array (items come in file order, random in space):
    // first into up to 256 runs by the top bits of the bucket, each filled front to back, then
    // each run (a few hundred KB, in cache) by bucket in place. Items are visited in ascending
    // order, so each bucket lists them ascending. With two threads, each takes half of the
    // items in the first pass (the first half's entries go first in every run, so the layout
    // is the same) and half of the runs in the second.
    const unsigned parts = threads > 1 && bounded.size() >= kTwoThreadBuild ? 2 : 1;
    auto for_each_cell = [&](std::uint32_t i, auto&& f) {
        const Level& level = levels_[level_of_[i]];
        const Range r = range(fb_[i], level);
        for (std::int32_t y = r.y0; y <= r.y1; ++y)
            for (std::int32_t x = r.x0; x <= r.x1; ++x) f(level, x, y, flags(r, x, y));
    };
    auto for_my_items = [&](unsigned part, auto&& f) {
        const auto [p0, p1] = share(bounded.size(), part, parts);
        for (std::size_t p = p0; p < p1; ++p) for_each_cell(bounded[p], [&](auto&&... a) { f(bounded[p], a...); });
    };
    const std::size_t nl = levels_.size();
    std::vector<std::vector<std::size_t>> part_counts(parts, std::vector<std::size_t>(nl, 0));
    in_parts(parts, [&](unsigned part) {
        for_my_items(part, [&](std::uint32_t i, const Level&, std::int32_t, std::int32_t, std::uint32_t) { ++part_counts[part][level_of_[i]]; });
    });
    constexpr unsigned kRunBits = 8;
    std::vector<unsigned> run_shift(nl, 0);
    std::vector<std::size_t> runs(nl, 0);
    for (std::size_t k = 0; k < nl; ++k) {
        Level& level = levels_[k];
        std::size_t count = 0;
        for (const std::vector<std::size_t>& c : part_counts) count += c[k];
        if (count >= kItem) return build_sweep(bounded);  // the 32-bit bucket offsets would overflow
        unsigned bits = 0;
        while ((std::size_t{1} << bits) < count) ++bits;
        level.mask = (std::size_t{1} << bits) - 1;
        run_shift[k] = bits > kRunBits ? bits - kRunBits : 0;
        runs[k] = (level.mask >> run_shift[k]) + 1;
        reserve_huge(level.start, level.mask + 2);
        level.start.assign(level.mask + 2, 0);
        reserve_huge(level.entries, count);
        level.entries.resize(count);
    }
    // Pass 1: entries into their runs; fill[part][k][r]: where part's next entry of run r goes.
    std::vector<std::vector<std::vector<std::uint32_t>>> fill(parts, std::vector<std::vector<std::uint32_t>>(nl));
    in_parts(parts, [&](unsigned part) {
        for (std::size_t k = 0; k < nl; ++k) fill[part][k].assign(runs[k], 0);
        for_my_items(part, [&](std::uint32_t i, const Level& level, std::int32_t x, std::int32_t y, std::uint32_t) {
            const std::size_t k = level_of_[i];
            ++fill[part][k][bucket(x, y, level.mask) >> run_shift[k]];
        });
    });
    std::vector<std::vector<std::uint32_t>> run_start(nl);
    for (std::size_t k = 0; k < nl; ++k) {
        run_start[k].assign(runs[k] + 1, 0);
        std::uint32_t at = 0;
        for (std::size_t r = 0; r < runs[k]; ++r) {
            run_start[k][r] = at;
            for (unsigned part = 0; part < parts; ++part) {
                const std::uint32_t n = fill[part][k][r];
                fill[part][k][r] = at;
                at += n;
            }
        }
        run_start[k][runs[k]] = at;
    }
    in_parts(parts, [&](unsigned part) {
        for_my_items(part, [&](std::uint32_t i, const Level& level, std::int32_t x, std::int32_t y, std::uint32_t f) {
            const std::size_t k = level_of_[i];
            levels_[k].entries[fill[part][k][bucket(x, y, level.mask) >> run_shift[k]]++] = Entry{fb_[i], i | f, x, y};
        });
    });
    // Pass 2: each run by bucket (stable), through a copy of the run.
    in_parts(parts, [&](unsigned part) {
        std::vector<Entry> run;
        std::vector<std::uint32_t> at;  // offset in the run of each of its buckets
        for (std::size_t k = 0; k < nl; ++k) {
            Level& level = levels_[k];
            const auto [r0, r1] = share(runs[k], part, parts);
            for (std::size_t r = r0; r < r1; ++r) {
                const std::uint32_t from = run_start[k][r], to = run_start[k][r + 1];
                const std::size_t b0 = r << run_shift[k];
                const std::size_t b1 = std::min(level.mask + 1, (r + 1) << run_shift[k]);
                run.assign(level.entries.begin() + from, level.entries.begin() + to);
                at.assign(b1 - b0 + 1, 0);
                for (const Entry& e : run) ++at[bucket(e.cx, e.cy, level.mask) - b0 + 1];
                for (std::size_t j = 0; j + 1 < at.size(); ++j) at[j + 1] += at[j];
                for (std::size_t b = b0; b < b1; ++b) level.start[b] = from + at[b - b0];
                for (const Entry& e : run) level.entries[from + at[bucket(e.cx, e.cy, level.mask) - b0]++] = e;
            }
        }
    });
    for (Level& level : levels_) level.start[level.mask + 1] = static_cast<std::uint32_t>(level.entries.size());
}

std::int32_t BroadIndex::coord(float v, double origin, double inv_cell) const {
    // Any non-decreasing function of v works here (overlapping bounds then share a cell):
    // a multiplication is cheaper than a division.
    const double c = std::floor((static_cast<double>(v) - origin) * inv_cell);
    return static_cast<std::int32_t>(std::clamp(c, -kCoordLimit, kCoordLimit));
}

BroadIndex::Range BroadIndex::range(const FBounds& b, const Level& level) const {
    return Range{coord(b.x0, origin_.x, level.inv_cell), coord(b.y0, origin_.y, level.inv_cell),
                 coord(b.x1, origin_.x, level.inv_cell), coord(b.y1, origin_.y, level.inv_cell)};
}

std::size_t BroadIndex::bucket(std::int32_t cx, std::int32_t cy, std::size_t mask) {
    const auto h = static_cast<std::uint64_t>(static_cast<std::uint32_t>(cx)) * 0x9E3779B97F4A7C15ull ^
                   static_cast<std::uint64_t>(static_cast<std::uint32_t>(cy)) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<std::size_t>(h ^ (h >> 29)) & mask;
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
        const double from = std::nextafter(static_cast<double>(lo(i)) - max_width_, -std::numeric_limits<double>::infinity());
        auto it = std::lower_bound(by_lo_.begin(), by_lo_.end(), from,
                                   [&](std::uint32_t j, double v) { return static_cast<double>(lo(j)) < v; });
        for (; it != by_lo_.end() && lo(*it) <= hi(i); ++it)
            if (*it != i && overlap(bi, fb_[*it])) out.push_back(*it);
    } else {
        for (std::size_t k = 0; k < levels_.size(); ++k) {
            const Level& level = levels_[k];
            if (level.entries.empty()) continue;
            const Range r = range(bi, level);
            const double cells = (static_cast<double>(r.x1) - r.x0 + 1) * (static_cast<double>(r.y1) - r.y0 + 1);
            if (k < level_of_[i] && cells > static_cast<double>(level.entries.size())) {
                // A finer level where this item covers more cells than there are entries:
                // test each of its items once instead.
                for (const Entry& c : level.entries)
                    if ((c.tagged & kFirst) == kFirst && overlap(bi, c.fb)) out.push_back(c.tagged & kItem);
                continue;
            }
            scan(level, bi, i, [&](const Entry& c) {
                if (overlap(bi, c.fb)) out.push_back(c.tagged & kItem);
            });
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
