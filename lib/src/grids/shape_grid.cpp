// Shapes against tile grids and moves on them (SPEC §2.4), exactly.
//
// Model: the grid is a lattice of cells whose edges lie at the exact values
// origin + k * tile (never rounded); cells outside the grid's range are solid when its
// outside is. A shape with extent hits a cell when it meets the cell's open interior; a
// point hits the cell that holds it under the half-open floor rule. Every comparison with
// a cell edge is an exact predicate on origin + k * tile.
#include "grids/grid_ops.hpp"

#include "collide/geometry.hpp"
#include "geometry/capsule.hpp"
#include "geometry/pieces.hpp"
#include "geometry/shape_geo.hpp"
#include "grids/lattice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace collide::detail {

namespace {

// ---- a shape against one cell's open interior ----------------------------------------------

// Sign of cross(dir(s), corner - s.p) for the cell corner (o_x + kx w_x, o_y + ky w_y).
int corner_side(const Piece& s, const Lattice& L, std::int64_t kx, std::int64_t ky) {
    const auto fx = static_cast<double>(kx);
    const auto fy = static_cast<double>(ky);
    return sign_of([&](auto z) {
        using T = decltype(z);
        const T cx = T(L.x.o) + T(fx) * T(L.x.w);
        const T cy = T(L.y.o) + T(fy) * T(L.y.w);
        return dir_x<T>(s) * (cy - T(s.p.y)) - dir_y<T>(s) * (cx - T(s.p.x));
    });
}

// Whether a straight piece meets the open cell (ix, iy): by separating axes (x, y and the
// piece's normal), which are the only candidates for a segment against a box.
bool piece_meets_cell(const Piece& s, const Lattice& L, std::int64_t ix, std::int64_t iy) {
    auto separated = [&](const Axis& ax, std::int64_t k, double p, double q, double d) {
        // The piece's projection on this axis against the open (edge k, edge k + 1).
        double lo = p;
        double hi = p;
        if (s.kind == PieceKind::Segment) {
            lo = std::min(p, q);
            hi = std::max(p, q);
        } else {
            const bool both = s.kind == PieceKind::Line;
            if (d > 0 || (both && d != 0)) hi = std::numeric_limits<double>::infinity();
            if (d < 0 || (both && d != 0)) lo = -std::numeric_limits<double>::infinity();
        }
        return (std::isfinite(hi) && cmp_edge(ax, hi, {}, k) <= 0) || (std::isfinite(lo) && cmp_edge(ax, lo, {}, k + 1) >= 0);
    };
    const double dx = s.kind == PieceKind::Ray ? s.q.x : s.q.x - s.p.x;
    const double dy = s.kind == PieceKind::Ray ? s.q.y : s.q.y - s.p.y;
    if (separated(L.x, ix, s.p.x, s.q.x, dx) || separated(L.y, iy, s.p.y, s.q.y, dy)) return false;
    const int c0 = corner_side(s, L, ix, iy);
    const int c1 = corner_side(s, L, ix + 1, iy);
    const int c2 = corner_side(s, L, ix, iy + 1);
    const int c3 = corner_side(s, L, ix + 1, iy + 1);
    const bool all_left = c0 >= 0 && c1 >= 0 && c2 >= 0 && c3 >= 0;
    const bool all_right = c0 <= 0 && c1 <= 0 && c2 <= 0 && c3 <= 0;
    return !all_left && !all_right;
}

// Whether the centre of the open cell (ix, iy), o + (k + 1/2) w on each axis, lies inside
// the polygon: the winding number (Sunday's crossing rule) with exact comparisons, since
// the centre is rarely a double and a tiny tile far from the origin may hold no double at all.
// The centre must not lie on the polygon's boundary.
bool cell_center_in_polygon(Ring poly, const Lattice& L, std::int64_t ix, std::int64_t iy) {
    const auto kx = static_cast<double>(ix);
    const auto ky = static_cast<double>(iy);
    auto cx = [&](auto z) {
        using T = decltype(z);
        return T(L.x.o) + T(kx) * T(L.x.w) + T(L.x.w) * T(0.5);
    };
    auto cy = [&](auto z) {
        using T = decltype(z);
        return T(L.y.o) + T(ky) * T(L.y.w) + T(L.y.w) * T(0.5);
    };
    auto above = [&](const Vec2& v) {  // v.y > centre y
        return sign_of([&](auto z) { return decltype(z)(v.y) - cy(z); }) > 0;
    };
    int winding = 0;
    for (std::size_t i = 0; i < poly.n; ++i) {
        const Piece e = poly.edge(i);
        const bool a_up = above(e.p);
        const bool b_up = above(e.q);
        if (a_up == b_up) continue;
        const int side = sign_of([&](auto z) {
            using T = decltype(z);
            return (T(e.q.x) - T(e.p.x)) * (cy(z) - T(e.p.y)) - (T(e.q.y) - T(e.p.y)) * (cx(z) - T(e.p.x));
        });
        if (!a_up && side > 0) ++winding;  // upward edge with the centre on its left
        if (a_up && side < 0) --winding;   // downward edge with the centre on its right
    }
    return winding != 0;
}

bool polygon_meets_cell(Ring poly, const Lattice& L, std::int64_t ix, std::int64_t iy) {
    for (std::size_t i = 0; i < poly.n; ++i)
        if (piece_meets_cell(poly.edge(i), L, ix, iy)) return true;
    // No edge enters the open cell: it lies wholly inside or wholly outside.
    return cell_center_in_polygon(poly, L, ix, iy);
}

// Whether the open capsule meets the open cell (ix, iy), i.e. dist(core, closed cell) < r.
// The core either meets the closed cell (then it enters the open one, or an end or a cell
// corner lies on it: both caught below at distance 0), or the least distance is reached at
// an end of the core (a disk about it) or at a cell corner whose foot falls inside the core.
bool capsule_meets_cell(const CapsuleRef& c, const Lattice& L, std::int64_t ix, std::int64_t iy) {
    if (piece_meets_cell(c.core, L, ix, iy)) return true;
    if (disk_meets_cell(Circle{c.core.p, c.r}, L, ix, iy) || disk_meets_cell(Circle{c.core.q, c.r}, L, ix, iy)) return true;
    const Piece& s = c.core;
    auto corner_near = [&](std::int64_t kx, std::int64_t ky) {
        const auto fx = static_cast<double>(kx);
        const auto fy = static_cast<double>(ky);
        auto cx = [&](auto z) { return decltype(z)(L.x.o) + decltype(z)(fx) * decltype(z)(L.x.w); };
        auto cy = [&](auto z) { return decltype(z)(L.y.o) + decltype(z)(fy) * decltype(z)(L.y.w); };
        auto beyond_end = [&](const Vec2& e) {  // sign of d . (corner - e)
            return sign_of([&](auto z) {
                using T = decltype(z);
                return dir_x<T>(s) * (cx(z) - T(e.x)) + dir_y<T>(s) * (cy(z) - T(e.y));
            });
        };
        if (beyond_end(s.p) <= 0 || beyond_end(s.q) >= 0) return false;  // the disks decided
        return sign_of([&](auto z) {
                   using T = decltype(z);
                   const T dx = dir_x<T>(s);
                   const T dy = dir_y<T>(s);
                   const T cr = dx * (cy(z) - T(s.p.y)) - dy * (cx(z) - T(s.p.x));
                   return cr * cr - T(c.r) * T(c.r) * (dx * dx + dy * dy);
               }) < 0;
    };
    return corner_near(ix, iy) || corner_near(ix + 1, iy) || corner_near(ix, iy + 1) || corner_near(ix + 1, iy + 1);
}

// The solid grid cells a straight piece passes through: row by row over the rows its y
// extent covers, the columns it can reach there (exact searches), each cell tested exactly.
void piece_hits(const Piece& s, const Lattice& L, std::vector<Cell>& out) {
    const double inf = std::numeric_limits<double>::infinity();
    const int dy = dir_sign_y(s);
    double y_lo = std::min(s.p.y, s.q.y);
    double y_hi = std::max(s.p.y, s.q.y);
    if (s.kind != PieceKind::Segment) {
        y_lo = (dy < 0 || (dy != 0 && s.kind == PieceKind::Line)) ? -inf : s.p.y;
        y_hi = (dy > 0 || (dy != 0 && s.kind == PieceKind::Line)) ? inf : s.p.y;
    }
    const std::int64_t r0 = y_lo == -inf ? 0 : std::max<std::int64_t>(0, floor_index(L.y, y_lo));
    const std::int64_t r1 = y_hi == inf ? L.y.n - 1 : std::min(L.y.n - 1, floor_index(L.y, y_hi));
    for (std::int64_t iy = r0; iy <= r1; ++iy) {
        const auto [c0, c1] = piece_columns(s, L, iy, {}, {}, 0, L.x.n - 1);
        for (std::int64_t ix = c0; ix <= c1; ++ix)
            if (L.solid(ix, iy) && piece_meets_cell(s, L, ix, iy)) out.push_back(L.cell(ix, iy));
    }
}

// A compound against a grid: the union of its parts' hits, and the parts that hit.
std::optional<GridHit> compound_vs_grid(const Compound& c, const Prepared& prep, const Grid& grid) {
    GridHit all;
    bool any = false;
    for (std::size_t i = 0; i < c.parts.size(); ++i) {
        const GeoKeep keep = prep.part_keep(i);
        const std::optional<GridHit> h = shape_vs_grid(c.parts[i], Prepared{keep.index, nullptr, keep.pieces}, grid);
        if (!h) continue;
        any = true;
        all.parts.push_back(static_cast<std::uint32_t>(i));
        all.outside = all.outside || h->outside;
        all.cells.insert(all.cells.end(), h->cells.begin(), h->cells.end());
    }
    if (!any) return std::nullopt;
    std::sort(all.cells.begin(), all.cells.end(), cell_order);
    all.cells.erase(std::unique(all.cells.begin(), all.cells.end()), all.cells.end());
    return all;
}

}  // namespace

std::optional<GridHit> shape_vs_grid(const Shape& shape, const Grid& grid) { return shape_vs_grid(shape, Prepared{}, grid); }

std::optional<GridHit> shape_vs_grid(const Shape& shape, const Prepared& prep, const Grid& grid) {
    if (const auto* c = std::get_if<Compound>(&shape)) return compound_vs_grid(*c, prep, grid);
    if (has_keep(shape, prep.keep())) return shape_vs_grid(make_geo(shape, prep.keep()), grid);  // nearly always
    return shape_vs_grid(make_owned_geo(shape, prep.keep()).geo, grid);
}

std::optional<GridHit> shape_vs_grid(const Geo& r, const Grid& grid) {
    const Lattice L(grid);
    GridHit hit;
    auto add = [&](std::int64_t ix, std::int64_t iy) {
        if (L.in_range(ix, iy) && L.solid(ix, iy)) hit.cells.push_back(L.cell(ix, iy));
    };
    const Shift none{};
    // Cells of a bounding range, clipped to the grid, each tested by `meets`.
    auto scan = [&](std::int64_t x0, std::int64_t x1, std::int64_t y0, std::int64_t y1, auto&& meets) {
        for (std::int64_t iy = std::max<std::int64_t>(y0, 0); iy <= std::min(y1, L.y.n - 1); ++iy)
            for (std::int64_t ix = std::max<std::int64_t>(x0, 0); ix <= std::min(x1, L.x.n - 1); ++ix)
                if (L.solid(ix, iy) && meets(ix, iy)) add(ix, iy);
    };
    switch (r.kind) {
        case GeoKind::Point: {
            const std::int64_t ix = floor_index(L.x, r.pt.x);
            const std::int64_t iy = floor_index(L.y, r.pt.y);
            if (L.in_range(ix, iy)) add(ix, iy);
            else hit.outside = grid.outside_solid;
            break;
        }
        case GeoKind::Disk: {
            const Circle& c = r.disk;
            const Shift lo{-c.radius};
            const Shift hi{c.radius};
            const std::int64_t x0 = floor_index(L.x, c.center.x, lo), x1 = floor_index(L.x, c.center.x, hi);
            const std::int64_t y0 = floor_index(L.y, c.center.y, lo), y1 = floor_index(L.y, c.center.y, hi);
            scan(x0, x1, y0, y1, [&](std::int64_t ix, std::int64_t iy) { return disk_meets_cell(c, L, ix, iy); });
            hit.outside = grid.outside_solid && (beyond(L.x, c.center.x, lo) || beyond(L.x, c.center.x, hi) ||
                                                 beyond(L.y, c.center.y, lo) || beyond(L.y, c.center.y, hi));
            break;
        }
        case GeoKind::Polygon: {
            if (r.is_rect) {
                const Rect& box = r.rect;
                const auto [x0, x1] = open_cells(L.x, box.min.x, none, box.max.x, none);
                const auto [y0, y1] = open_cells(L.y, box.min.y, none, box.max.y, none);
                scan(x0, x1, y0, y1, [](std::int64_t, std::int64_t) { return true; });
                hit.outside = grid.outside_solid && (beyond(L.x, box.min.x) || beyond(L.x, box.max.x) ||
                                                     beyond(L.y, box.min.y) || beyond(L.y, box.max.y));
                break;
            }
            const Ring ring = r.poly_ring;
            const Bounds b = ring_bounds(ring);
            scan(floor_index(L.x, b.min.x), floor_index(L.x, b.max.x), floor_index(L.y, b.min.y), floor_index(L.y, b.max.y),
                 [&](std::int64_t ix, std::int64_t iy) { return polygon_meets_cell(ring, L, ix, iy); });
            for (std::size_t i = 0; i < ring.n && !hit.outside; ++i)
                hit.outside = grid.outside_solid && (beyond(L.x, ring[i].x) || beyond(L.y, ring[i].y));
            break;
        }
        case GeoKind::Capsule: {
            const CapsuleRef& c = r.capsule;
            const Shift lo{-c.r};
            const Shift hi{c.r};
            const double min_x = std::min(c.core.p.x, c.core.q.x), max_x = std::max(c.core.p.x, c.core.q.x);
            const double min_y = std::min(c.core.p.y, c.core.q.y), max_y = std::max(c.core.p.y, c.core.q.y);
            scan(floor_index(L.x, min_x, lo), floor_index(L.x, max_x, hi), floor_index(L.y, min_y, lo),
                 floor_index(L.y, max_y, hi), [&](std::int64_t ix, std::int64_t iy) { return capsule_meets_cell(c, L, ix, iy); });
            // The capsule's extreme x and y are its ends' coordinates -+ r, exactly.
            hit.outside = grid.outside_solid && (beyond(L.x, min_x, lo) || beyond(L.x, max_x, hi) ||
                                                 beyond(L.y, min_y, lo) || beyond(L.y, max_y, hi));
            break;
        }
        case GeoKind::Linear: {
            for (const Piece& s : r.pieces()) {
                piece_hits(s, L, hit.cells);
                if (!grid.outside_solid || hit.outside) continue;
                hit.outside = s.kind != PieceKind::Segment || beyond(L.x, s.p.x) || beyond(L.y, s.p.y) ||
                              beyond(L.x, s.q.x) || beyond(L.y, s.q.y);
            }
            break;
        }
    }
    std::sort(hit.cells.begin(), hit.cells.end(), cell_order);
    hit.cells.erase(std::unique(hit.cells.begin(), hit.cells.end()), hit.cells.end());
    if (hit.cells.empty() && !hit.outside) return std::nullopt;
    return hit;
}

}  // namespace collide::detail
