// Moves on tile grids (SPEC §1.3, §2.4): whether a body may move, and where it stops.
//
// A body hits a cell when it meets the cell's open interior (a point body: when the cell
// holds it by the floor rule). Along a path, the body's centre moves on the segment from ->
// to, and it hits cell c at the first time the centre enters c grown by the body (a box for
// a rect; a box grown by the radius with rounded corners for a circle). That time is a ratio
// of exact sums (a box side), or for a circle's rounded corner a quadratic irrational
// (Entry); times are compared exactly, and t and stop are the exact values correctly rounded
// (rounding.hpp). Candidate cells are found row by row with exact searches (lattice.hpp) and
// clipped to the grid plus one ring of outside cells: a body that starts clear lies within
// the grid's closed extent (or the outside is empty), so it meets the outside there first.
// first_contact (sweep.hpp) gives the same time as a SweepTime, comparable with a shape's.
#include "grids/grid_ops.hpp"

#include "grids/grid_sweep.hpp"
#include "grids/lattice.hpp"
#include "numeric/rounding.hpp"
#include "queries/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace collide::detail {

using namespace grid_sweep;

namespace {

struct BodyShape {
    bool point = false;
    bool circle = false;
    Shift hx;  // half extents (circle: the radius)
    Shift hy;
};

BodyShape body_of(const Body& b) {
    BodyShape s;
    if (b.kind == Body::Kind::Circle && b.radius > 0) {
        s.circle = true;
        s.hx = s.hy = Shift{b.radius};
    } else if (b.kind == Body::Kind::Rect && (b.size.x > 0 || b.size.y > 0)) {
        s.hx = Shift{b.size.x, true};
        s.hy = Shift{b.size.y, true};
    } else {
        s.point = true;
    }
    return s;
}

// The first solid cell in row-then-column order among lattice rows [y0, y1], where
// `columns(iy)` gives the (non-empty) range of columns the body meets in row iy. Rows and
// columns beyond the grid are all solid or all free, so only the first of each run matters.
template <class Columns>
std::optional<Cell> first_solid(const Lattice& L, std::int64_t y0, std::int64_t y1, Columns&& columns) {
    const bool out = L.g.outside_solid;
    auto in_row = [&](std::int64_t iy) -> std::optional<Cell> {
        const auto [a, b] = columns(iy);
        if (iy < 0 || iy >= L.y.n) {
            if (out) return L.cell(a, iy);
            return std::nullopt;
        }
        if (out && a < 0) return L.cell(a, iy);
        for (std::int64_t ix = std::max<std::int64_t>(a, 0); ix <= std::min(b, L.x.n - 1); ++ix)
            if (L.solid(ix, iy)) return L.cell(ix, iy);
        if (out && b >= L.x.n) return L.cell(std::max(a, L.x.n), iy);
        return std::nullopt;
    };
    const std::int64_t g0 = std::max<std::int64_t>(y0, 0);
    const std::int64_t g1 = std::min(y1, L.y.n - 1);
    std::optional<Cell> c;
    if (!L.g.y_up) {  // written rows ascend with iy
        if (y0 < 0 && (c = in_row(y0))) return c;
        for (std::int64_t iy = g0; iy <= g1; ++iy)
            if ((c = in_row(iy))) return c;
        if (y1 >= L.y.n && (c = in_row(std::max(y0, L.y.n)))) return c;
    } else {  // written rows descend with iy
        if (y1 >= L.y.n && (c = in_row(y1))) return c;
        for (std::int64_t iy = g1; iy >= g0; --iy)
            if ((c = in_row(iy))) return c;
        if (y0 < 0 && (c = in_row(std::min<std::int64_t>(y1, -1)))) return c;
    }
    return std::nullopt;
}

// The first (row, then column) solid cell the body overlaps at position p.
std::optional<Cell> first_overlap(const Lattice& L, const BodyShape& b, Vec2 p) {
    if (b.point) {
        const std::int64_t ix = floor_index(L.x, p.x);
        const std::int64_t iy = floor_index(L.y, p.y);
        if (L.solid(ix, iy)) return L.cell(ix, iy);
        return std::nullopt;
    }
    // (Not structured bindings: C++17 lambdas cannot capture those.)
    const std::pair<std::int64_t, std::int64_t> xr = open_cells(L.x, p.x, b.hx.neg(), p.x, b.hx);
    const std::pair<std::int64_t, std::int64_t> yr = open_cells(L.y, p.y, b.hy.neg(), p.y, b.hy);
    const std::int64_t x0 = xr.first, x1 = xr.second, y0 = yr.first, y1 = yr.second;
    std::optional<Cell> best;
    if (x0 <= x1 && y0 <= y1) {
        if (!b.circle) {
            best = first_solid(L, y0, y1, [&](std::int64_t) { return std::make_pair(x0, x1); });
        } else {
            // The columns a disk meets in a row are contiguous and include the centre's.
            const Circle disk{p, b.hx.v};
            const std::int64_t mid = std::clamp(floor_index(L.x, p.x), x0, x1);
            best = first_solid(L, y0, y1, [&](std::int64_t iy) {
                const std::int64_t a = first_true(x0, mid, static_cast<double>(x0),
                                                  [&](std::int64_t ix) { return disk_meets_cell(disk, L, ix, iy); });
                const std::int64_t z = first_true(mid, x1, static_cast<double>(x1),
                                                  [&](std::int64_t ix) { return !disk_meets_cell(disk, L, ix, iy); });
                // Empty only when the centre's column is clamped at +-2^52: the cells met lie
                // beyond it, far outside the grid, and the clamped one stands for them.
                return a <= z - 1 ? std::make_pair(a, z - 1) : std::make_pair(mid, mid);
            });
        }
    }
    // A rect body of zero width or height lying on a grid line beyond the border meets no
    // open cell, yet reaches the solid outside: it is blocked in the outside cell that holds,
    // by the floor rule, an end of it that lies beyond the border (the first such cell in
    // row-then-column order when both do).
    if (!best && L.g.outside_solid && !b.circle) {
        for (const int sign : {-1, 1}) {
            const Shift sx = sign < 0 ? b.hx.neg() : b.hx;
            const Shift sy = sign < 0 ? b.hy.neg() : b.hy;
            if (!beyond(L.x, p.x, sx) && !beyond(L.y, p.y, sy)) continue;
            const Cell c = L.cell(floor_index(L.x, p.x, sx), floor_index(L.y, p.y, sy));
            if (!best || cell_order(c, *best)) best = c;
        }
    }
    return best;
}

// When a rect body of zero width or height, sliding along a grid line, first passes the
// grid's border (its closed extent strictly beyond it just after), and the outside cell it
// passes into (the other axis by the floor rule). Only a slide along one axis needs this:
// a body whose other coordinate changes enters an open outside cell at that same time.
std::optional<std::pair<TVal, Cell>> leaving_time(const Lattice& L, const BodyShape& b, Vec2 from, Vec2 to) {
    std::optional<std::pair<TVal, Cell>> best;
    auto side = [&](const Axis& ax, double f, double g, Shift h, bool x_axis) {
        if (f == g || (x_axis ? from.y != to.y : from.x != to.x)) return;
        const bool up = g > f;
        const TVal t = edge_time(ax, up ? ax.n : 0, up ? h.neg() : h, f, g);
        if (compare(t, constant(0.0)) < 0 || compare(t, constant(1.0)) >= 0) return;
        if (best && compare(t, best->first) >= 0) return;
        const std::int64_t out = up ? ax.n : -1;
        const std::int64_t along = x_axis ? floor_index(L.y, from.y, b.hy.neg()) : floor_index(L.x, from.x, b.hx.neg());
        best = std::make_pair(t, x_axis ? L.cell(out, along) : L.cell(along, out));
    };
    side(L.x, from.x, to.x, b.hx, true);
    side(L.y, from.y, to.y, b.hy, false);
    return best;
}

MoveResult blocked(double t, Vec2 stop, Cell cell) {
    MoveResult r;
    r.allowed = false;
    r.t = t;
    r.stop = stop;
    r.cell = cell;
    return r;
}

// from + t (to - from) on one axis in doubles, as a start for rounding the exact value; when
// to - from overflows, (1 - t) from + t to.
double lerp(double f, double g, double t) {
    const double d = g - f;
    if (std::isfinite(d)) return f + t * d;
    const double v = (1 - t) * f + t * g;
    const double big = std::numeric_limits<double>::max();
    return std::clamp(v, -big, big);
}

// What run_move finds: the first entry and its cell (the entry the constant 0 or 1 when the
// body overlaps at the start or, for check: destination, at the end).
struct Found {
    Entry entry;
    Cell cell;
};

std::optional<Found> find_first(const Move& m, const Grid& grid, const Lattice& L, const BodyShape& b) {
    if (!m.check_path) {
        if (const auto c = first_overlap(L, b, m.to)) return Found{ratio_entry(constant(1.0)), *c};
        return std::nullopt;
    }
    if (const auto c = first_overlap(L, b, m.from)) return Found{ratio_entry(constant(0.0)), *c};
    if (m.from == m.to) return std::nullopt;

    // Candidate cells, row by row: those whose closed cell grown by the body the path of the
    // centre meets, within the grid and the ring of outside cells around it.
    const Piece path{PieceKind::Segment, m.from, m.to};
    const std::int64_t lo = L.lo_lim();
    const std::int64_t y0 = std::max(lo, floor_index(L.y, std::min(m.from.y, m.to.y), b.hy.neg()));
    const std::int64_t y1 = std::min(L.hi_lim(L.y), floor_index(L.y, std::max(m.from.y, m.to.y), b.hy));

    const Sweep sw{L, m.from, m.to, b.hx.v};
    std::optional<Entry> best;
    Cell best_cell;
    auto consider = [&](const Entry& e, const Cell& cell) {
        const int c = best ? sw.compare(e, *best) : -1;
        if (c < 0 || (c == 0 && cell_order(cell, best_cell))) {
            best = e;
            best_cell = cell;
        }
    };
    for (std::int64_t iy = y0; iy <= y1; ++iy) {
        const auto [c0, c1] = piece_columns(path, L, iy, b.hx, b.hy, lo, L.hi_lim(L.x));
        for (std::int64_t ix = c0; ix <= c1; ++ix) {
            if (!L.solid(ix, iy)) continue;
            const Cell cell = L.cell(ix, iy);
            if (b.circle) {
                if (const auto e = circle_entry(sw, ix, iy)) consider(*e, cell);
                continue;
            }
            const auto t = box_entry(axis_times(L.x, ix, b.hx, m.from.x, m.to.x, b.point),
                                     axis_times(L.y, iy, b.hy, m.from.y, m.to.y, b.point));
            if (t) consider(ratio_entry(*t), cell);
        }
    }
    // A rect body of zero width or height can slide along a grid line out of the grid
    // without entering an open outside cell; it reaches the solid outside when its extent
    // first passes the border.
    if (!b.point && !b.circle && grid.outside_solid && (b.hx.zero() || b.hy.zero())) {
        const auto exit = leaving_time(L, b, m.from, m.to);
        if (exit && (!best || compare(exit->first, best->ratio) < 0)) {
            best = ratio_entry(exit->first);
            best_cell = exit->second;
        }
    }
    if (!best) return std::nullopt;
    return Found{*best, best_cell};
}

// The entry's exact time as a SweepTime (sweep.hpp): a ratio (o + k w + s - f) / (g - f) is
// the linear constraint 2 (x - (o + k w)) - 2 s = 0 on a path from f to g; a corner's time
// the entry into the disk of radius r around it.
SweepTime sweep_time_of(const Entry& e, const Lattice& L, const Move& m, double r) {
    SweepForm f;
    if (!e.corner) {
        const TVal& v = e.ratio;
        if (v.is_const) return SweepTime::constant(v.c);
        f.kind = SweepForm::Kind::Linear;
        f.from = Vec2{v.f, 0.0};
        f.to = Vec2{v.g, 0.0};
        f.ax = v.o;
        f.akx = v.k;
        f.awx = v.w;
        f.w = v.s.v;
        f.cW = v.s.half ? -1 : -2;
        f.dsign = static_cast<std::int8_t>(v.den_sign());
        return SweepTime::of(f);
    }
    f.kind = SweepForm::Kind::Disk;
    f.from = m.from;
    f.to = m.to;
    f.ax = L.x.o;
    f.akx = e.kx;
    f.awx = L.x.w;
    f.ay = L.y.o;
    f.aky = e.ky;
    f.awy = L.y.w;
    f.r1 = r;
    f.root = -1;
    return SweepTime::of(f);
}

}  // namespace

std::optional<std::pair<SweepTime, Cell>> first_contact(const Move& m, const Grid& grid) {
    const Lattice L(grid);
    const BodyShape b = body_of(m.body);
    const std::optional<Found> found = find_first(m, grid, L, b);
    if (!found) return std::nullopt;
    return std::make_pair(sweep_time_of(found->entry, L, m, b.hx.v), found->cell);
}

MoveResult run_move(const Move& m, const Grid& grid) {
    const Lattice L(grid);
    const BodyShape b = body_of(m.body);
    std::optional<Found> found = find_first(m, grid, L, b);
    if (!found) return MoveResult{};
    std::optional<Entry> best = found->entry;
    const Cell best_cell = found->cell;
    const Sweep sw{L, m.from, m.to, b.hx.v};
    if (!best->corner) {
        best->approx = best->ratio.value();
    } else {
        const double mid = 0.5 * best->bounds.lo + 0.5 * best->bounds.hi;
        best->approx = std::isfinite(mid) ? mid : corner_time(Corner{L, best->kx, best->ky}, m.from, m.to, b.hx.v);
    }
    // t and each coordinate of the stop, from the exact t (SPEC §2.4), each correctly rounded.
    const double t = sw.t(*best);
    auto near = [&] { return Vec2{lerp(m.from.x, m.to.x, t), lerp(m.from.y, m.to.y, t)}; };
    return blocked(t, sw.stop(*best, near), best_cell);
}

}  // namespace collide::detail
