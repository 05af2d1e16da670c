// The distance of a shape to a grid's solid cells and solid outside (see distance.hpp).
//
// A shape that collides with the grid (shape_vs_grid) is at distance 0. Otherwise its cores
// meet no open solid cell and reach no open outside, and the distance is the least term over
//  - each solid cell, a closed rect with lattice edges: a core point against the rect (its
//    nearest point, the point clamped to the rect per axis, decided exactly), and each cell
//    corner against each core piece (a disjoint piece and rect are nearest at an end of one
//    of them, as two pieces are);
//  - with a solid outside, each core point's gap to the four borders (the shape lies inside
//    the closed extent, so the nearest point of the outside's closure is straight across).
// compare_distance visits only the cells within d of the shape's bounds; distance() visits
// rings of cells around them, outward, until a ring lies farther than the least value seen.
// Given the grid's SolidCells, both visit only its solid cells there (nearest rings first).
#include "queries/distance.hpp"

#include "geometry/shape_geo.hpp"
#include "grids/grid_ops.hpp"
#include "grids/lattice.hpp"
#include "grids/solid_cells.hpp"
#include "queries/distance_cores.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace collide::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Coord edge(const Axis& ax, std::int64_t k) { return Coord{ax.o, static_cast<double>(k), ax.w}; }

// The cell's coordinate nearest v on one axis: an edge, or v itself within the cell.
Coord clamp_to_cell(const Axis& ax, std::int64_t k, double v) {
    if (cmp_edge(ax, v, {}, k) < 0) return edge(ax, k);
    if (cmp_edge(ax, v, {}, k + 1) > 0) return edge(ax, k + 1);
    return Coord{v};
}

// A box holding the closed cell: its edges rounded, then widened by a bound of that rounding.
Bounds cell_box(const Lattice& L, std::int64_t ix, std::int64_t iy) {
    auto lo = [](const Axis& ax, std::int64_t k) {
        const double v = approx(edge(ax, k));
        return v - (std::fabs(v) + std::fabs(ax.o)) * 0x1p-50;
    };
    auto hi = [](const Axis& ax, std::int64_t k) {
        const double v = approx(edge(ax, k + 1));
        return v + (std::fabs(v) + std::fabs(ax.o)) * 0x1p-50;
    };
    return Bounds{Vec2{lo(L.x, ix), lo(L.y, iy)}, Vec2{hi(L.x, ix), hi(L.y, iy)}};
}

void point_cell(Vec2 v, const Lattice& L, std::int64_t ix, std::int64_t iy, TermSet& ts) {
    const CPoint near{clamp_to_cell(L.x, ix, v.x), clamp_to_cell(L.y, iy, v.y)};
    ts.add(Term{Term::PointPoint, cpoint(v), near, {}});
}

// The terms of the cores against the closed cell (ix, iy).
void cell_terms(const Cores& c, const Lattice& L, std::int64_t ix, std::int64_t iy, TermSet& ts) {
    if (c.is_point) {
        point_cell(c.point, L, ix, iy, ts);
        return;
    }
    const Radii r{c.r, 0.0};
    each_piece_near(c, grown(cell_box(L, ix, iy), core_reach(ts, r)), [&](const Piece& s) {
        if (ts.done()) return;
        if (s.kind != PieceKind::Line) point_cell(s.p, L, ix, iy, ts);
        if (s.kind == PieceKind::Segment) point_cell(s.q, L, ix, iy, ts);
        for (std::int64_t kx = ix; kx <= ix + 1; ++kx)
            for (std::int64_t ky = iy; ky <= iy + 1; ++ky) ts.add(point_piece(CPoint{edge(L.x, kx), edge(L.y, ky)}, s));
    });
}

// The gaps of a core point to the four borders of the grid's extent (the point lies inside).
void point_gaps(Vec2 v, const Lattice& L, TermSet& ts) {
    auto gap = [&](Coord hi, Coord lo) { ts.add(Term{Term::Gap, CPoint{hi, {}}, CPoint{lo, {}}, {}}); };
    gap(Coord{v.x}, edge(L.x, 0));
    gap(edge(L.x, L.x.n), Coord{v.x});
    gap(Coord{v.y}, edge(L.y, 0));
    gap(edge(L.y, L.y.n), Coord{v.y});
}
void gap_terms(const Cores& c, const Lattice& L, TermSet& ts) {
    if (c.is_point) {
        point_gaps(c.point, L, ts);
        return;
    }
    // Lines and rays reach the outside and collide: only segments get here.
    for (std::size_t i = 0; i < c.size() && !ts.done(); ++i) {
        const Piece s = c.piece(i);
        point_gaps(s.p, L, ts);
        point_gaps(s.q, L, ts);
    }
}

// The cell range around a part's bounds, grown by `by` (exact), one more cell on each side
// for a cell at exactly that distance; unbounded sides reach past the grid.
struct Range {
    std::int64_t x0, x1, y0, y1;
};
Range range_of(const Bounds& b, const Lattice& L, double by) {
    auto lo = [&](const Axis& ax, double v) {
        return std::isfinite(v) && std::isfinite(by) ? floor_index(ax, v, Shift{-by}) - 1 : -1;
    };
    auto hi = [&](const Axis& ax, double v) {
        return std::isfinite(v) && std::isfinite(by) ? floor_index(ax, v, Shift{by}) + 1 : ax.n;
    };
    return Range{lo(L.x, b.min.x), hi(L.x, b.max.x), lo(L.y, b.min.y), hi(L.y, b.max.y)};
}

// Calls f(ix, iy) for every solid cell of the grid in [x0, x1] x [y0, y1] (clipped).
template <class F>
void each_solid(const Lattice& L, std::int64_t x0, std::int64_t x1, std::int64_t y0, std::int64_t y1, F&& f) {
    for (std::int64_t iy = std::max<std::int64_t>(y0, 0); iy <= std::min(y1, L.y.n - 1); ++iy)
        for (std::int64_t ix = std::max<std::int64_t>(x0, 0); ix <= std::min(x1, L.x.n - 1); ++ix)
            if (L.solid(ix, iy)) f(ix, iy);
}

// Calls f(ix, iy) for the solid cells of ring k around r (the cells of r grown by k that
// are not in r grown by k - 1; r itself for k = 0).
template <class F>
void each_solid_in_ring(const Lattice& L, const Range& r, std::int64_t k, F&& f) {
    const std::int64_t x0 = r.x0 - k, x1 = r.x1 + k, y0 = r.y0 - k, y1 = r.y1 + k;
    if (k == 0) {
        each_solid(L, x0, x1, y0, y1, f);
        return;
    }
    each_solid(L, x0, x1, y0, y0, f);
    each_solid(L, x0, x1, y1, y1, f);
    each_solid(L, x0, x0, y0 + 1, y1 - 1, f);
    each_solid(L, x1, x1, y0 + 1, y1 - 1, f);
}

// A shape's parts (the shape itself when it is no compound), each reduced once with what it
// keeps (built here when nothing was prepared): for the collision test and the terms alike.
struct Part {
    const Shape* shape;
    OwnedGeo geo;
};
std::vector<Part> parts_of(const Shape& s, const Prepared& prep) {
    std::vector<Part> parts;
    auto add = [&](const Shape& p, GeoKeep keep) { parts.push_back(Part{&p, make_owned_geo(p, keep)}); };
    if (const auto* c = std::get_if<Compound>(&s)) {
        parts.reserve(c->parts.size());
        for (std::size_t i = 0; i < c->parts.size(); ++i) add(c->parts[i], prep.part_keep(i));
    } else {
        add(s, prep.keep());
    }
    return parts;
}

// Whether some part collides with the grid (shape_vs_grid).
bool any_hits(const std::vector<Part>& parts, const Grid& g) {
    for (const Part& p : parts)
        if (shape_vs_grid(p.geo.geo, g)) return true;
    return false;
}

// The least value over one part's terms, by rings of cells outward.
double part_distance(const Part& part, const Lattice& L, const SolidCells* solid) {
    const Cores c = cores_of(part.geo.geo);
    TermSet ts(Radii{c.r, 0.0}, std::nullopt);
    if (L.g.outside_solid) gap_terms(c, L, ts);
    const Range r = range_of(bounds_of(*part.shape), L, 0.0);
    // Ring k's cells lie k - 1 whole cells beyond the range, which holds the part's bounds.
    const double step = std::min(L.x.w, L.y.w) * (1.0 - 0x1p-40);
    if (solid) {  // the solid cells alone, nearest rings first
        solid->each_by_ring(
            r.x0, r.x1, r.y0, r.y1, [&](std::int64_t k) { return k >= 2 && static_cast<double>(k - 1) * step > ts.reach(); },
            [&](std::int64_t ix, std::int64_t iy) { cell_terms(c, L, ix, iy, ts); });
        return ts.least();
    }
    // Rings before the first that meets the grid hold nothing.
    std::int64_t k = std::max<std::int64_t>({0, r.x0 - (L.x.n - 1), -r.x1, r.y0 - (L.y.n - 1), -r.y1});
    for (;; ++k) {
        if (k >= 2 && static_cast<double>(k - 1) * step > ts.reach()) break;
        each_solid_in_ring(L, r, k, [&](std::int64_t ix, std::int64_t iy) { cell_terms(c, L, ix, iy, ts); });
        if (r.x0 - k <= 0 && r.y0 - k <= 0 && r.x1 + k >= L.x.n - 1 && r.y1 + k >= L.y.n - 1) break;  // all seen
    }
    return ts.least();
}

int part_compare(const Part& part, const Lattice& L, double d, const SolidCells* solid) {
    const Cores c = cores_of(part.geo.geo);
    TermSet ts(Radii{c.r, 0.0}, d);
    if (L.g.outside_solid) gap_terms(c, L, ts);
    const Range r = range_of(bounds_of(*part.shape), L, d);
    if (solid) {  // the solid cells within reach alone
        solid->each_in(r.x0, r.x1, r.y0, r.y1, [&](std::int64_t ix, std::int64_t iy) {
            if (ts.done()) return false;
            cell_terms(c, L, ix, iy, ts);
            return true;
        });
        return ts.sign();
    }
    each_solid(L, r.x0, r.x1, r.y0, r.y1, [&](std::int64_t ix, std::int64_t iy) {
        if (!ts.done()) cell_terms(c, L, ix, iy, ts);
    });
    return ts.sign();
}

}  // namespace

int compare_distance(const Shape& s, const Grid& g, double d, const SolidCells* solid, const Prepared& prep) {
    const std::vector<Part> parts = parts_of(s, prep);
    if (any_hits(parts, g)) return d > 0.0 ? -1 : 0;
    const Lattice L(g);
    int result = 1;
    for (const Part& part : parts)
        if (result >= 0) result = std::min(result, part_compare(part, L, d, solid));
    return result;
}

double distance(const Shape& s, const Grid& g, const SolidCells* solid, const Prepared& prep) {
    const std::vector<Part> parts = parts_of(s, prep);
    if (any_hits(parts, g)) return 0.0;
    const Lattice L(g);
    double best = kInf;
    for (const Part& part : parts) best = std::min(best, part_distance(part, L, solid));
    return std::max(best, 0.0);
}

}  // namespace collide::detail
