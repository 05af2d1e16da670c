// The lattice of a tile grid, exactly: cell edges at origin + k * tile (never rounded),
// comparisons of input values against them, the cell that holds a value, and the cells a
// straight piece can reach in a row. Shared by shape-vs-grid tests and moves (grids.cpp,
// grid_moves.cpp).
//
// Cost never depends on how far a query lies from the grid or how many cells it spans: every
// index is found by an exact search (a floating-point guess, then galloping and bisection
// over exact comparisons), and callers scan only the grid's cells plus one ring of outside
// cells, since the outside is all alike.
#pragma once

#include "collide/types.hpp"
#include "numeric/predicates.hpp"

#include <cstdint>
#include <optional>
#include <utility>

namespace collide::detail {

/// Indices beyond +-2^52 are clamped: they stay exact doubles, and any grid is far smaller.
inline constexpr std::int64_t kMaxIndex = std::int64_t{1} << 52;

/// An exact offset added to an input value: v, or v / 2 for a body's half size (halving in
/// floating point would round a subnormal size, possibly to 0).
struct Shift {
    double v = 0.0;
    bool half = false;

    template <class T> T get() const { return half ? T(v) * T(0.5) : T(v); }
    double approx() const { return half ? v * 0.5 : v; }
    Shift neg() const { return Shift{-v, half}; }
    bool zero() const { return v == 0.0; }
};

/// One axis of the lattice: cell k spans [o + k w, o + (k + 1) w).
struct Axis {
    double o;
    double w;
    std::int64_t n;  // cells in the grid along this axis
};

/// Sign of (a + s) - (o + k w), exact.
int cmp_edge(const Axis& ax, double a, Shift s, std::int64_t k);

/// The cell index holding the exact value a + s (the largest k with o + k w <= a + s),
/// clamped to [-kMaxIndex, kMaxIndex].
std::int64_t floor_index(const Axis& ax, double a, Shift s = {});

/// The cells whose open interior meets the closed interval [a + sa, b + sb] (not empty):
/// first > last when none. Indices are clamped as floor_index's are.
std::pair<std::int64_t, std::int64_t> open_cells(const Axis& ax, double a, Shift sa, double b, Shift sb);

/// Whether the exact value a + s lies strictly outside the axis's closed extent [o, o + n w].
bool beyond(const Axis& ax, double a, Shift s = {});

/// The smallest k in [lo, hi] with pred(k) true for a predicate false...true over [lo, hi],
/// or hi + 1 when there is none. Starts at `guess` and gallops, so a good guess costs two
/// calls and a bad one O(log(hi - lo)).
template <class P>
std::int64_t first_true(std::int64_t lo, std::int64_t hi, double guess, P&& pred) {
    std::int64_t a = lo - 1;  // pred(a) false (or a below the range)
    std::int64_t b = hi + 1;  // pred(b) true (or b above the range)
    if (lo > hi) return b;
    std::int64_t g = lo;
    if (guess >= static_cast<double>(hi)) g = hi;
    else if (guess > static_cast<double>(lo)) g = static_cast<std::int64_t>(guess);
    if (pred(g)) {
        b = g;
        for (std::int64_t step = 1; b - step > a; step *= 2) {
            if (!pred(b - step)) {
                a = b - step;
                break;
            }
            b -= step;
        }
    } else {
        a = g;
        for (std::int64_t step = 1; a + step < b; step *= 2) {
            if (pred(a + step)) {
                b = a + step;
                break;
            }
            a += step;
        }
    }
    while (b - a > 1) {
        const std::int64_t mid = a + (b - a) / 2;
        (pred(mid) ? b : a) = mid;
    }
    return b;
}

struct Lattice {
    const Grid& g;
    Axis x;
    Axis y;

    explicit Lattice(const Grid& grid)
        : g(grid),
          x{grid.origin.x, grid.tile.x, static_cast<std::int64_t>(grid.cols)},
          y{grid.origin.y, grid.tile.y, static_cast<std::int64_t>(grid.rows)} {}

    bool in_range(std::int64_t ix, std::int64_t iy) const { return ix >= 0 && iy >= 0 && ix < x.n && iy < y.n; }
    /// The row as written in the file for the lattice row iy (counted from the origin up).
    std::int64_t row(std::int64_t iy) const { return g.y_up ? y.n - 1 - iy : iy; }
    Cell cell(std::int64_t ix, std::int64_t iy) const { return Cell{ix, row(iy)}; }
    bool solid(std::int64_t ix, std::int64_t iy) const {
        if (!in_range(ix, iy)) return g.outside_solid;
        return g.solid(static_cast<std::size_t>(ix), static_cast<std::size_t>(row(iy)));
    }
    /// The lowest and highest lattice index worth scanning on an axis: the grid's cells, and
    /// the ring of outside cells around them when the outside is solid.
    std::int64_t lo_lim() const { return g.outside_solid ? -1 : 0; }
    std::int64_t hi_lim(const Axis& ax) const { return g.outside_solid ? ax.n : ax.n - 1; }
};

inline bool cell_order(const Cell& a, const Cell& b) { return a.row < b.row || (a.row == b.row && a.col < b.col); }

/// A straight piece's direction, for segments and lines q - p, for rays q.
inline int dir_sign_x(const Piece& s) {
    const double a = s.kind == PieceKind::Ray ? 0.0 : s.p.x;
    return s.q.x > a ? 1 : (s.q.x < a ? -1 : 0);
}
inline int dir_sign_y(const Piece& s) {
    const double a = s.kind == PieceKind::Ray ? 0.0 : s.p.y;
    return s.q.y > a ? 1 : (s.q.y < a ? -1 : 0);
}

/// A range of columns [first, last] within [lo, hi] (first > last when empty) that holds
/// every column whose closed cell in lattice row iy, grown by `grow_x` on both sides in x and
/// `grow_y` in y, the closed piece meets, and at most one more on each side. The cells a
/// piece meets in a row are contiguous: a rounded guess checked by two exact tests, or else
/// two exact searches, find them.
std::pair<std::int64_t, std::int64_t> piece_columns(const Piece& s, const Lattice& L, std::int64_t iy, Shift grow_x,
                                                    Shift grow_y, std::int64_t lo, std::int64_t hi);

/// Whether the open disk meets the open cell (ix, iy), i.e. dist(center, closed cell) < r.
bool disk_meets_cell(const Circle& c, const Lattice& L, std::int64_t ix, std::int64_t iy);

}  // namespace collide::detail
