// The occupancy pyramid of a grid's solid cells (solid_cells.hpp).
#include "grids/solid_cells.hpp"

namespace collide::detail {

namespace {

void set_bit(std::vector<std::uint64_t>& bits, std::size_t i) { bits[i / 64] |= std::uint64_t{1} << (i % 64); }
bool get_bit(const std::vector<std::uint64_t>& bits, std::size_t i) { return (bits[i / 64] >> (i % 64)) & 1u; }

// Calls f(i) for each set bit i, a word at a time (empty words cost one test).
template <class F>
void each_set_bit(const std::vector<std::uint64_t>& bits, F&& f) {
    for (std::size_t w = 0; w < bits.size(); ++w)
        for (std::uint64_t word = bits[w]; word != 0; word &= word - 1) f(w * 64 + static_cast<std::size_t>(__builtin_ctzll(word)));
}

}  // namespace

// Level 1 from the grid's own bits (a word of them at a time, skipping empty words), then
// each level from the one below, until one block covers the grid.
SolidCells::SolidCells(const Grid& g)
    : g_(g), nx_(static_cast<std::int64_t>(g.cols)), ny_(static_cast<std::int64_t>(g.rows)) {
    if (nx_ == 0 || ny_ == 0) return;
    auto level_bits = [&](int level) {
        return std::vector<std::uint64_t>((static_cast<std::size_t>(cols(level) * rows(level)) + 63) / 64);
    };
    std::vector<std::uint64_t> first = level_bits(1);
    const std::size_t cells = g.cols * g.rows;
    each_set_bit(g.bits, [&](std::size_t i) {
        if (i >= cells) return;
        const auto ix = static_cast<std::int64_t>(i % g.cols);
        const auto row = static_cast<std::int64_t>(i / g.cols);
        const std::int64_t iy = g.y_up ? ny_ - 1 - row : row;
        set_bit(first, static_cast<std::size_t>((iy >> 1) * cols(1) + (ix >> 1)));
    });
    levels_.push_back(std::move(first));
    for (int level = 1; cols(level) > 1 || rows(level) > 1; ++level) {
        std::vector<std::uint64_t> up = level_bits(level + 1);
        each_set_bit(levels_.back(), [&](std::size_t i) {
            const auto bx = static_cast<std::int64_t>(i) % cols(level);
            const auto by = static_cast<std::int64_t>(i) / cols(level);
            set_bit(up, static_cast<std::size_t>((by >> 1) * cols(level + 1) + (bx >> 1)));
        });
        levels_.push_back(std::move(up));
    }
}

bool SolidCells::occupied(int level, std::int64_t bx, std::int64_t by) const {
    if (bx < 0 || by < 0 || bx >= cols(level) || by >= rows(level)) return false;
    if (level == 0) return g_.solid(static_cast<std::size_t>(bx), static_cast<std::size_t>(g_.y_up ? ny_ - 1 - by : by));
    return get_bit(levels_[static_cast<std::size_t>(level - 1)], static_cast<std::size_t>(by * cols(level) + bx));
}

}  // namespace collide::detail
