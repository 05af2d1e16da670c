// The broad phase's unbounded items (broadphase.hpp): lines and rays, whose geometry
// rules out far more partners than their infinite bounds would. Known lines are sorted into
// classes of exactly parallel ones, ordered by offset, so that big_partners() skips the
// parallel lines apart from one by a binary search; each line finds the bounded items it may
// meet by walking, level by level, the grid cells it crosses (near_line, walk), and meets()
// is the conservative test of a line against a box.
#include "check/broadphase.hpp"
#include "numeric/fused.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

namespace collide::detail {

namespace {

// Beyond this many cells from 0, a line's walk (which counts cells in doubles) gives way to
// testing the level's items.
constexpr double kWalkLimit = 0x1p50;

// Exactly whether a.y * b.x < b.y * a.x (components of magnitude 0 or in [2^-480, 2), so
// that the fma residuals are exact): the slope order of two directions with x >= 0.
bool slope_less(Vec2 a, Vec2 b) {
    const double p = a.y * b.x, q = b.y * a.x;
    if (p != q) return p < q;
    return fused_multiply_add(a.y, b.x, -p) < fused_multiply_add(b.y, a.x, -q);
}

}  // namespace

void BroadIndex::classify_lines(const std::vector<std::pair<std::uint32_t, Unbounded>>& lines) {
    if (big_.empty()) return;
    bigs_.assign(big_.size(), Big{});
    big_rank_.assign(fb_.size(), 0);
    for (std::size_t k = 0; k < big_.size(); ++k) big_rank_[big_[k]] = static_cast<std::uint32_t>(k);
    std::vector<std::pair<Vec2, std::uint32_t>> dirs = known_directions(lines);
    order_classes(assign_classes(dirs));
}

std::vector<std::pair<Vec2, std::uint32_t>> BroadIndex::known_directions(
    const std::vector<std::pair<std::uint32_t, Unbounded>>& lines) {
    // Exactly parallel lines are to share a class: directions scaled by a power of two
    // (exact) to a largest component in [1, 2), pointing to x >= 0, so that one exact slope
    // comparison orders them.
    std::vector<std::pair<Vec2, std::uint32_t>> dirs;  // (scaled direction, rank)
    for (const auto& [item, l] : lines) {
        if (item >= fb_.size() || !is_big_[item]) continue;
        const std::uint32_t k = big_rank_[item];
        const bool finite = std::isfinite(l.p.x) && std::isfinite(l.p.y) && std::isfinite(l.d.x) && std::isfinite(l.d.y);
        if (!finite || (l.d.x == 0 && l.d.y == 0)) continue;
        bigs_[k].known = true;
        bigs_[k].line = l;
        if (!l.exact_d) continue;
        const int e = std::ilogb(std::max(std::fabs(l.d.x), std::fabs(l.d.y)));
        Vec2 d{std::ldexp(l.d.x, -e), std::ldexp(l.d.y, -e)};
        if (d.x < 0 || (d.x == 0 && d.y < 0)) d = Vec2{-d.x, -d.y};
        const double small = std::min(std::fabs(d.x), std::fabs(d.y));
        if (small != 0 && small < 0x1p-480) continue;  // its residuals could underflow: no class
        dirs.emplace_back(d, k);
    }
    return dirs;
}

std::size_t BroadIndex::assign_classes(std::vector<std::pair<Vec2, std::uint32_t>>& dirs) {
    std::stable_sort(dirs.begin(), dirs.end(), [](const auto& a, const auto& b) { return slope_less(a.first, b.first); });
    std::uint32_t cls = 0;
    std::size_t first = 0;  // of the class
    for (std::size_t q = 0; q < dirs.size(); ++q) {
        if (q > 0 && slope_less(dirs[q - 1].first, dirs[q].first)) {
            ++cls;
            first = q;
        }
        // The offset across the class's first direction r: r x p, equal for collinear lines.
        const Vec2 r = dirs[first].first;
        Big& b = bigs_[dirs[q].second];
        const Vec2 p = b.line.p;
        const double off = r.x * p.y - r.y * p.x;
        const double err = 0x1p-48 * (std::fabs(r.x * p.y) + std::fabs(r.y * p.x)) + 0x1p-1000;
        b.cls = cls;
        b.off_lo = std::isfinite(off) && std::isfinite(err) ? off - err : -std::numeric_limits<double>::infinity();
        b.off_hi = std::isfinite(off) && std::isfinite(err) ? off + err : std::numeric_limits<double>::infinity();
    }
    return dirs.empty() ? 0 : std::size_t{cls} + 1;
}

void BroadIndex::order_classes(std::size_t classes) {
    // Items without a class first, then class by class, by offset: big_partners() then skips
    // a class's lines that are parallel and apart from a line by a binary search.
    class_order_.resize(big_.size());
    std::iota(class_order_.begin(), class_order_.end(), 0u);
    std::stable_sort(class_order_.begin(), class_order_.end(), [&](std::uint32_t a, std::uint32_t b) {
        const Big& x = bigs_[a];
        const Big& y = bigs_[b];
        const std::uint64_t cx = x.cls == kNoClass ? 0 : std::uint64_t{x.cls} + 1;
        const std::uint64_t cy = y.cls == kNoClass ? 0 : std::uint64_t{y.cls} + 1;
        return cx != cy ? cx < cy : x.off_lo < y.off_lo;
    });
    class_start_.assign(classes, static_cast<std::uint32_t>(big_.size()));
    class_end_.assign(classes, 0);
    class_width_.assign(classes, 0.0);
    order_pos_.assign(big_.size(), 0);
    for (std::size_t q = 0; q < class_order_.size(); ++q) {
        const Big& b = bigs_[class_order_[q]];
        order_pos_[class_order_[q]] = static_cast<std::uint32_t>(q);
        if (b.cls == kNoClass) continue;
        class_start_[b.cls] = std::min(class_start_[b.cls], static_cast<std::uint32_t>(q));
        class_end_[b.cls] = static_cast<std::uint32_t>(q + 1);
        const double w = std::nextafter(b.off_hi - b.off_lo, std::numeric_limits<double>::infinity());
        class_width_[b.cls] = std::max(class_width_[b.cls], std::isnan(w) ? std::numeric_limits<double>::infinity() : w);
    }
}

bool BroadIndex::big_candidate(std::uint32_t i, std::uint32_t j) const {
    if (!is_big_[i]) std::swap(i, j);
    const Big& a = big_of(i);
    if (!is_big_[j]) return !a.known || meets(a.line, fb_[j]);
    const Big& b = big_of(j);
    if (a.cls == kNoClass || a.cls != b.cls) return true;  // not parallel: they may meet
    return a.off_lo <= b.off_hi && b.off_lo <= a.off_hi;  // parallel: only if collinear
}

bool BroadIndex::meets(const Unbounded& l, const FBounds& b) {
    // The line misses the box when all four corners are strictly on one side of it, and a
    // ray also when all are strictly behind its origin. Each sign is trusted only beyond a
    // bound (2^11 times the rounding error of the products and of d, when d = b - a rounded).
    int above = 0, below = 0, behind = 0;
    for (const double cx : {static_cast<double>(b.x0), static_cast<double>(b.x1)}) {
        for (const double cy : {static_cast<double>(b.y0), static_cast<double>(b.y1)}) {
            const double ux = cx - l.p.x, uy = cy - l.p.y;
            const double ax = std::fabs(cx) + std::fabs(l.p.x), ay = std::fabs(cy) + std::fabs(l.p.y);
            const double side = l.d.x * uy - l.d.y * ux;
            const double e = 0x1p-40 * (std::fabs(l.d.x) * ay + std::fabs(l.d.y) * ax) + 0x1p-1000;
            if (side > e) ++above;
            else if (side < -e) ++below;
            if (l.ray) {
                const double t = l.d.x * ux + l.d.y * uy;
                if (t < -(0x1p-40 * (std::fabs(l.d.x) * ax + std::fabs(l.d.y) * ay) + 0x1p-1000)) ++behind;
            }
        }
    }
    return above < 4 && below < 4 && behind < 4;
}

void BroadIndex::near_line(std::uint32_t big, std::vector<std::uint32_t>& out) const {
    const Big& b = big_of(big);
    const std::size_t from = out.size();
    if (method_ == Broadphase::Sweep) {
        out.insert(out.end(), by_lo_.begin(), by_lo_.end());
    } else {
        for (const Level& level : levels_) {
            if (level.entries.empty()) continue;
            if (b.known) {
                walk(b.line, level, out);
                continue;
            }
            for (const Entry& c : level.entries)
                if ((c.tagged & kFirst) == kFirst) out.push_back(c.tagged & kItem);
        }
    }
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(from), out.end());
    out.erase(std::unique(out.begin() + static_cast<std::ptrdiff_t>(from), out.end()), out.end());
}

void BroadIndex::build_near() const {
    // (item, line) pairs, then counted into each item's list.
    std::vector<std::uint64_t> pairs;
    std::vector<std::uint32_t> near;
    for (std::uint32_t i : big_) {
        if (!big_of(i).known) continue;
        near.clear();
        near_line(i, near);
        for (std::uint32_t j : near) {
            if (!candidate(i, j)) continue;
            if (pairs.size() == kNearCap) return;  // too many: query() tests each line
            pairs.push_back(std::uint64_t{j} << 32 | i);
        }
    }
    radix_sort(pairs);
    std::vector<std::uint32_t> start(fb_.size() + 1, 0);
    for (std::uint64_t p : pairs) ++start[(p >> 32) + 1];
    for (std::size_t k = 0; k + 1 < start.size(); ++k) start[k + 1] += start[k];
    near_.resize(pairs.size());
    for (std::size_t k = 0; k < pairs.size(); ++k) near_[k] = static_cast<std::uint32_t>(pairs[k]);
    near_start_ = std::move(start);
}

void BroadIndex::walk(const Unbounded& l, const Level& level, std::vector<std::uint32_t>& out) const {
    // In (u, v), u the axis along which the line moves more: |slope| <= 1, so it crosses at
    // most a few rows of each column. Every bounded item meeting the line at a point q lies
    // in the extent; a float f of its u-range within an ulp of q.u is in a column walked, and
    // the line's v there within the margin m of the item's v-range, so the rows walked
    // reach the item's cells. (Amanatides & Woo 1987 walk the same cells one by one.)
    auto test_all = [&] {
        for (const Entry& c : level.entries)
            if ((c.tagged & kFirst) == kFirst) out.push_back(c.tagged & kItem);
    };
    const bool xmaj = std::fabs(l.d.x) >= std::fabs(l.d.y);
    const double pu = xmaj ? l.p.x : l.p.y, pv = xmaj ? l.p.y : l.p.x;
    const double du = xmaj ? l.d.x : l.d.y, dv = xmaj ? l.d.y : l.d.x;
    const double eu0 = xmaj ? extent_.x0 : extent_.y0, eu1 = xmaj ? extent_.x1 : extent_.y1;
    const double ev0 = xmaj ? extent_.y0 : extent_.x0, ev1 = xmaj ? extent_.y1 : extent_.x1;
    const double big = std::max({std::fabs(eu0), std::fabs(eu1), std::fabs(ev0), std::fabs(ev1)});
    const double M = 0x1p-20 * (big + std::fabs(pu) + std::fabs(pv)) + 0x1p-126;
    const double s = dv / du;
    if (!std::isfinite(M) || !std::isfinite(s)) return test_all();
    // The u-range of the line within the extent (widened by M).
    double ua = eu0 - M, ub = eu1 + M;
    if (s == 0) {
        if (pv < ev0 - M || pv > ev1 + M) return;
    } else {
        const double qa = (ev0 - M - pv) / s, qb = (ev1 + M - pv) / s;
        const double pad = 0x1p-30 * (std::fabs(pu) + std::fabs(qa) + std::fabs(qb)) + M;
        ua = std::max(ua, std::min(pu + qa, pu + qb) - pad);
        ub = std::min(ub, std::max(pu + qa, pu + qb) + pad);
    }
    if (l.ray && du > 0) ua = std::max(ua, pu - M);
    if (l.ray && du < 0) ub = std::min(ub, pu + M);
    if (!(ua <= ub)) return;
    const double inv = level.inv_cell, cell = level.cell;
    const std::int64_t c0 = coord(ua, inv), c1 = coord(ub, inv);
    const double umax = std::max(std::fabs(ua), std::fabs(ub));
    const double m_max = 0x1p-21 * umax + 0x1p-40 * (std::fabs(pu) + std::fabs(pv) + 2 * umax + 2 * (std::fabs(ev0) + std::fabs(ev1) + M)) + 0x1p-126;
    const double cols = static_cast<double>(c1) - static_cast<double>(c0) + 1;
    const double rows = std::fabs(s) + 3 + 2 * m_max * inv;
    if (std::fabs(static_cast<double>(c0)) > kWalkLimit || std::fabs(static_cast<double>(c1)) > kWalkLimit ||
        !(cols * rows <= static_cast<double>(level.entries.size())))
        return test_all();
    for (std::int64_t c = c0; c <= c1; ++c) {
        // Every double whose column is c lies in [lo, hi] (coord() rounds by under 2^-50 cells).
        const double dc = 0x1p-30 * std::max(1.0, std::fabs(static_cast<double>(c)));
        const double lo = std::max(ua, (static_cast<double>(c) - dc) * cell);
        const double hi = std::min(ub, (static_cast<double>(c) + 1 + dc) * cell);
        if (lo > hi) continue;
        double va = pv + (lo - pu) * s, vb = pv + (hi - pu) * s;
        if (va > vb) std::swap(va, vb);
        const double m = 0x1p-21 * std::max(std::fabs(lo), std::fabs(hi)) +
                         0x1p-40 * (std::fabs(pu) + std::fabs(pv) + std::fabs(lo) + std::fabs(hi) + std::fabs(va) + std::fabs(vb)) +
                         0x1p-126;
        const std::int64_t r0 = coord(va - m, inv), r1 = coord(vb + m, inv);
        if (static_cast<double>(r1) - static_cast<double>(r0) > rows) return test_all();  // far rows: see coord_beyond()
        for (std::int64_t r = r0; r <= r1; ++r) {
            const std::int64_t x = xmaj ? c : r, y = xmaj ? r : c;
            const std::size_t k = bucket(x, y, level.mask);
            for (std::uint32_t e = level.start[k]; e < level.start[k + 1]; ++e) {
                const Entry& en = level.entries[e];
                if (en.cx == static_cast<std::int32_t>(x) && en.cy == static_cast<std::int32_t>(y)) out.push_back(en.tagged & kItem);
            }
        }
    }
}

}  // namespace collide::detail
