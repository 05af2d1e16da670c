// The broad-phase index behind check() and candidate_pairs().
#pragma once

#include "collide/check.hpp"

#include <cstdint>
#include <vector>

namespace collide::detail {

/// Answers "which items' closed bounds overlap item i's?" for a fixed set of items.
/// Every method gives the same answers; only the cost differs.
class BroadIndex {
public:
    /// `items` (indices into `bounds`) must be sorted; both must outlive the index.
    BroadIndex(const std::vector<Bounds>& bounds, const std::vector<std::uint32_t>& items, Broadphase method);

    /// The items other than i whose bounds overlap i's, sorted ascending.
    void query(std::uint32_t i, std::vector<std::uint32_t>& out) const;

private:
    struct Cell {
        std::int64_t cx, cy;
        std::uint32_t item;
    };
    void build_grid(const std::vector<std::uint32_t>& bounded, std::vector<double>& extents);
    std::int64_t coord(double v, double origin) const;
    std::size_t bucket(std::int64_t cx, std::int64_t cy) const;

    const std::vector<Bounds>& b_;
    const std::vector<std::uint32_t>& items_;
    Broadphase method_;
    std::vector<char> is_big_;          // unbounded or too large for the grid
    std::vector<std::uint32_t> big_;
    // Sweep: bounded items by min x, and the widest one's width.
    std::vector<std::uint32_t> by_x_;
    double max_width_ = 0.0;
    // Grid: cells of size cell_ from origin_, entries counting-sorted by a hash of the cell.
    Vec2 origin_;
    double cell_ = 1.0;
    std::size_t buckets_ = 1;
    std::vector<std::size_t> start_;
    std::vector<Cell> cells_;
};

}  // namespace collide::detail
