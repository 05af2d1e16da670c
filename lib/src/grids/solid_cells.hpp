// Where a grid's solid cells are, for the distance queries of distance_grid.cpp (SPEC §2.6):
// a pyramid of occupancy bits over the lattice (level j holds one bit per block of 2^j x 2^j
// cells: whether any of them is solid), so that a query visits the solid cells near a shape
// and the blocks around them, never every empty cell in reach. A shape's distance to a grid
// with one solid cell then costs O(log cells), not O(cells) (issue 26, item 7).
//
// Cells are in lattice coordinates (ix to +x, iy to +y from the origin), as Lattice has them;
// only cells inside the grid are indexed (the solid outside is the callers' business).
#pragma once

#include "collide/types.hpp"

#include <cstdint>
#include <queue>
#include <vector>

namespace collide::detail {

class SolidCells {
public:
    explicit SolidCells(const Grid& g);

    /// Calls f(ix, iy) for each solid cell in [x0, x1] x [y0, y1] (clipped to the grid), in
    /// no particular order, until f returns false.
    template <class F>
    void each_in(std::int64_t x0, std::int64_t x1, std::int64_t y0, std::int64_t y1, F&& f) const;

    /// Calls f(ix, iy) for the solid cells in nondecreasing order of their ring around the
    /// cell range [x0, x1] x [y0, y1]: max(0, x0 - ix, ix - x1, y0 - iy, iy - y1), the
    /// rings that part_distance walks. Stops before a ring k for which stop(k) is true (stop
    /// must stay true for every larger k; it may change as f runs), or when all are seen.
    template <class Stop, class F>
    void each_by_ring(std::int64_t x0, std::int64_t x1, std::int64_t y0, std::int64_t y1, Stop&& stop, F&& f) const;

private:
    struct Block {
        std::int64_t ring;
        int level;
        std::int64_t bx, by;
        bool operator>(const Block& o) const { return ring > o.ring; }
    };
    bool occupied(int level, std::int64_t bx, std::int64_t by) const;
    std::int64_t cols(int level) const { return (nx_ + (std::int64_t{1} << level) - 1) >> level; }
    std::int64_t rows(int level) const { return (ny_ + (std::int64_t{1} << level) - 1) >> level; }
    int top() const { return static_cast<int>(levels_.size()); }

    const Grid& g_;
    std::int64_t nx_ = 0, ny_ = 0;
    /// levels_[j - 1]: the bits of level j >= 1, row-major over cols(j) x rows(j) blocks.
    std::vector<std::vector<std::uint64_t>> levels_;
};

// ---- implementation of the templates -----------------------------------------------------

template <class F>
void SolidCells::each_in(std::int64_t x0, std::int64_t x1, std::int64_t y0, std::int64_t y1, F&& f) const {
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > nx_ - 1) x1 = nx_ - 1;
    if (y1 > ny_ - 1) y1 = ny_ - 1;
    if (x0 > x1 || y0 > y1) return;
    struct Entry {
        int level;
        std::int64_t bx, by;
    };
    std::vector<Entry> stack{{top(), 0, 0}};
    while (!stack.empty()) {
        const Entry e = stack.back();
        stack.pop_back();
        if (!occupied(e.level, e.bx, e.by)) continue;
        if (e.level == 0) {
            if (!f(e.bx, e.by)) return;
            continue;
        }
        const int l = e.level - 1;
        for (std::int64_t cy = e.by * 2 + 1; cy >= e.by * 2; --cy)
            for (std::int64_t cx = e.bx * 2 + 1; cx >= e.bx * 2; --cx) {
                const std::int64_t lo_x = cx << l, hi_x = ((cx + 1) << l) - 1;
                const std::int64_t lo_y = cy << l, hi_y = ((cy + 1) << l) - 1;
                if (hi_x < x0 || lo_x > x1 || hi_y < y0 || lo_y > y1) continue;
                if (cx < cols(l) && cy < rows(l)) stack.push_back({l, cx, cy});
            }
    }
}

template <class Stop, class F>
void SolidCells::each_by_ring(std::int64_t x0, std::int64_t x1, std::int64_t y0, std::int64_t y1, Stop&& stop, F&& f) const {
    auto ring = [&](int level, std::int64_t bx, std::int64_t by) {
        const std::int64_t lo_x = bx << level, hi_x = ((bx + 1) << level) - 1;
        const std::int64_t lo_y = by << level, hi_y = ((by + 1) << level) - 1;
        std::int64_t k = 0;
        for (const std::int64_t gap : {x0 - hi_x, lo_x - x1, y0 - hi_y, lo_y - y1})
            if (gap > k) k = gap;
        return k;
    };
    std::priority_queue<Block, std::vector<Block>, std::greater<Block>> queue;
    queue.push({ring(top(), 0, 0), top(), 0, 0});
    while (!queue.empty()) {
        const Block b = queue.top();
        queue.pop();
        if (stop(b.ring)) return;
        if (!occupied(b.level, b.bx, b.by)) continue;
        if (b.level == 0) {
            f(b.bx, b.by);
            continue;
        }
        const int l = b.level - 1;
        for (std::int64_t cy = b.by * 2; cy <= b.by * 2 + 1 && cy < rows(l); ++cy)
            for (std::int64_t cx = b.bx * 2; cx <= b.bx * 2 + 1 && cx < cols(l); ++cx)
                if (occupied(l, cx, cy)) queue.push({ring(l, cx, cy), l, cx, cy});
    }
}

}  // namespace collide::detail
