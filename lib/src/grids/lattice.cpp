// Exact lattice predicates and searches (see lattice.hpp).
#include "grids/lattice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace collide::detail {

int cmp_edge(const Axis& ax, double a, Shift s, std::int64_t k) {
    const auto kd = static_cast<double>(k);
    return sign_of([&](auto z) {
        using T = decltype(z);
        return T(a) + s.template get<T>() - T(ax.o) - T(kd) * T(ax.w);
    });
}

std::int64_t floor_index(const Axis& ax, double a, Shift s) {
    // The first edge above the value, found from the rounded quotient: exact comparisons
    // confirm it (two of them when the guess is right, as it is unless rounding is large
    // against the tile), else gallop from it and bisect.
    const double guess = std::floor(((a + s.approx()) - ax.o) / ax.w) + 1;
    const std::int64_t above =
        first_true(-kMaxIndex, kMaxIndex, guess, [&](std::int64_t k) { return cmp_edge(ax, a, s, k) < 0; });
    return std::max(above - 1, -kMaxIndex);
}

std::pair<std::int64_t, std::int64_t> open_cells(const Axis& ax, double a, Shift sa, double b, Shift sb) {
    const std::int64_t first = floor_index(ax, a, sa);
    std::int64_t last = floor_index(ax, b, sb);
    if (cmp_edge(ax, b, sb, last) == 0) --last;  // ends on a cell edge: that cell is not entered
    // An interval that ends exactly on the edge -kMaxIndex and starts below it lies in cells
    // below the clamped range: the clamped cell stands for them (it is outside any grid, like
    // them). Only a single value on that edge enters no cell.
    if (last < first && first == -kMaxIndex && cmp_edge(ax, a, sa, -kMaxIndex) < 0) last = first;
    return {first, last};
}

bool beyond(const Axis& ax, double a, Shift s) { return cmp_edge(ax, a, s, 0) < 0 || cmp_edge(ax, a, s, ax.n) > 0; }

bool disk_meets_cell(const Circle& c, const Lattice& L, std::int64_t ix, std::int64_t iy) {
    // Per axis, the nearest coordinate of the cell: the centre's own, or an edge index.
    auto nearest = [&](const Axis& ax, std::int64_t k, double v, bool* inside) -> std::int64_t {
        if (cmp_edge(ax, v, {}, k) < 0) return k;
        if (cmp_edge(ax, v, {}, k + 1) > 0) return k + 1;
        *inside = true;
        return 0;
    };
    bool in_x = false;
    bool in_y = false;
    const auto ex = static_cast<double>(nearest(L.x, ix, c.center.x, &in_x));
    const auto ey = static_cast<double>(nearest(L.y, iy, c.center.y, &in_y));
    return sign_of([&](auto z) {
               using T = decltype(z);
               const T dx = in_x ? z : T(c.center.x) - T(L.x.o) - T(ex) * T(L.x.w);
               const T dy = in_y ? z : T(c.center.y) - T(L.y.o) - T(ey) * T(L.y.w);
               return dx * dx + dy * dy - T(c.radius) * T(c.radius);
           }) < 0;
}

namespace {

// Whether the closed piece meets the closed half-strip {y0 <= y <= y1, x <= xe} (left) or
// {y0 <= y <= y1, x >= xe} (right), where y0 = o + iy w - gy, y1 = o + (iy + 1) w + gy and
// xe = o + k w +- gx. Both are convex polyhedra, so they are disjoint exactly when one of
// their edge normals (x, y, the piece's normal) strictly separates them.
bool meets_half_strip(const Piece& s, const Lattice& L, std::int64_t iy, Shift gy, std::int64_t k, Shift gx, bool left) {
    const double inf = std::numeric_limits<double>::infinity();
    const int sx = dir_sign_x(s);
    const int sy = dir_sign_y(s);
    // The piece's extent on an axis (infinite ends for rays and lines).
    auto extent = [&](double p, double q, int d) {
        switch (s.kind) {
            case PieceKind::Segment: return std::make_pair(std::min(p, q), std::max(p, q));
            case PieceKind::Ray: return std::make_pair(d < 0 ? -inf : p, d > 0 ? inf : p);
            case PieceKind::Line: return d != 0 ? std::make_pair(-inf, inf) : std::make_pair(p, p);
        }
        return std::make_pair(p, p);
    };
    const auto [x_lo, x_hi] = extent(s.p.x, s.q.x, sx);
    const auto [y_lo, y_hi] = extent(s.p.y, s.q.y, sy);
    const Shift ex = left ? gx.neg() : gx;  // value - edge of the strip's x bound
    if (left && x_lo != -inf && cmp_edge(L.x, x_lo, ex, k) > 0) return false;
    if (!left && x_hi != inf && cmp_edge(L.x, x_hi, ex, k) < 0) return false;
    if (y_hi != inf && cmp_edge(L.y, y_hi, gy, iy) < 0) return false;
    if (y_lo != -inf && cmp_edge(L.y, y_lo, gy.neg(), iy + 1) > 0) return false;
    // The piece's normal: both corners strictly on one side, and the strip's unbounded
    // direction (-1, 0) or (1, 0) not leading across: cross(dir, u) = dir_y or -dir_y.
    auto corner = [&](std::int64_t ky, Shift sy_shift) {
        const auto kxd = static_cast<double>(k);
        const auto kyd = static_cast<double>(ky);
        const Shift cx_shift = left ? gx : gx.neg();
        return sign_of([&](auto z) {
            using T = decltype(z);
            const T cx = T(L.x.o) + T(kxd) * T(L.x.w) + cx_shift.template get<T>();
            const T cy = T(L.y.o) + T(kyd) * T(L.y.w) + sy_shift.template get<T>();
            return dir_x<T>(s) * (cy - T(s.p.y)) - dir_y<T>(s) * (cx - T(s.p.x));
        });
    };
    const int u = left ? sy : -sy;
    const int c0 = corner(iy, gy.neg());
    if (c0 == 0) return true;
    const int c1 = corner(iy + 1, gy);
    if (c0 > 0 && c1 > 0 && u >= 0) return false;
    if (c0 < 0 && c1 < 0 && u <= 0) return false;
    return true;
}

}  // namespace

std::pair<std::int64_t, std::int64_t> piece_columns(const Piece& s, const Lattice& L, std::int64_t iy, Shift grow_x,
                                                    Shift grow_y, std::int64_t lo, std::int64_t hi) {
    // Rounded guesses: the piece's x range while it lies in the row's band.
    const double inf = std::numeric_limits<double>::infinity();
    const double dx = s.kind == PieceKind::Ray ? s.q.x : s.q.x - s.p.x;
    const double dy = s.kind == PieceKind::Ray ? s.q.y : s.q.y - s.p.y;
    double t0 = s.kind == PieceKind::Line ? -inf : 0.0;
    double t1 = s.kind == PieceKind::Segment ? 1.0 : inf;
    if (dy != 0) {
        double a = (L.y.o + static_cast<double>(iy) * L.y.w - grow_y.approx() - s.p.y) / dy;
        double b = (L.y.o + static_cast<double>(iy + 1) * L.y.w + grow_y.approx() - s.p.y) / dy;
        if (a > b) std::swap(a, b);
        t0 = std::max(t0, a);
        t1 = std::min(t1, b);
    }
    auto x_at = [&](double t) { return dx == 0 ? s.p.x : s.p.x + t * dx; };
    const double xa = x_at(t0);
    const double xb = x_at(t1);
    const double g_first = std::floor((std::min(xa, xb) - grow_x.approx() - L.x.o) / L.x.w);
    const double g_last = std::floor((std::max(xa, xb) + grow_x.approx() - L.x.o) / L.x.w);

    // The guesses widened by a cell, when two exact tests show nothing lies beyond them
    // (the common case: callers then test one or two cells more, which is cheaper).
    auto left_of = [&](std::int64_t k) { return meets_half_strip(s, L, iy, grow_y, k + 1, grow_x, true); };
    auto right_of = [&](std::int64_t k) { return meets_half_strip(s, L, iy, grow_y, k, grow_x, false); };
    if (t0 <= t1 && std::isfinite(g_first) && std::isfinite(g_last) && g_first >= static_cast<double>(lo) - 1 &&
        g_last <= static_cast<double>(hi) + 1 && g_first <= g_last) {
        const std::int64_t a = std::max(lo, static_cast<std::int64_t>(g_first) - 1);
        const std::int64_t b = std::min(hi, static_cast<std::int64_t>(g_last) + 1);
        if (a <= b && (a == lo || !left_of(a - 1)) && (b == hi || !right_of(b + 1))) return {a, b};
    }
    // first: the smallest k whose left half-strip up to edge k + 1 the piece meets.
    const std::int64_t first = first_true(lo, hi, g_first, left_of);
    if (first > hi) return {first, hi};
    // last: the largest k whose right half-strip from edge k the piece meets.
    const std::int64_t after = first_true(first, hi, g_last + 1, [&](std::int64_t k) { return !right_of(k); });
    return {first, after - 1};
}

}  // namespace collide::detail
