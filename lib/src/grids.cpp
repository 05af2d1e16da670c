// Shapes against tile grids and moves on them (SPEC §2.4), exactly.
//
// Model: the grid is a lattice of cells whose edges lie at the exact values
// origin + k * tile (never rounded); cells outside the grid's range are solid when its
// outside is. A shape with extent hits a cell when it meets the cell's open interior; a
// point hits the cell that holds it under the half-open floor rule. Every comparison with
// a cell edge is an exact predicate on origin + k * tile.
#include "grid_ops.hpp"

#include "pieces.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace collide::detail {

namespace {

constexpr double kMaxIndex = 4503599627370496.0;  // 2^52: cell indices stay exact doubles

// One axis of the lattice: cell k spans [o + k w, o + (k + 1) w).
struct Axis {
    double o;
    double w;
    std::int64_t n;  // cells in the grid along this axis
};

// Sign of (a + b) - (o + k w), exact.
int cmp_line(double a, double b, const Axis& ax, std::int64_t k) {
    const auto kd = static_cast<double>(k);
    return sign_of([&](auto z) {
        using T = decltype(z);
        return T(a) + T(b) - T(ax.o) - T(kd) * T(ax.w);
    });
}

// The cell index holding the exact value a + b: the largest k with o + k w <= a + b.
std::int64_t floor_index(const Axis& ax, double a, double b = 0.0) {
    const double guess = std::floor(((a + b) - ax.o) / ax.w);
    auto k = static_cast<std::int64_t>(std::clamp(std::isnan(guess) ? 0.0 : guess, -kMaxIndex, kMaxIndex));
    while (k > -static_cast<std::int64_t>(kMaxIndex) && cmp_line(a, b, ax, k) < 0) --k;
    while (k < static_cast<std::int64_t>(kMaxIndex) && cmp_line(a, b, ax, k + 1) >= 0) ++k;
    return k;
}

// The range of cells whose open interior meets the closed interval [lo_a + lo_b, hi_a + hi_b].
std::pair<std::int64_t, std::int64_t> open_cells(const Axis& ax, double lo_a, double lo_b, double hi_a, double hi_b) {
    const std::int64_t first = floor_index(ax, lo_a, lo_b);
    std::int64_t last = floor_index(ax, hi_a, hi_b);
    if (cmp_line(hi_a, hi_b, ax, last) == 0) --last;  // ends on a cell edge: that cell is not entered
    return {first, last};
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
    // The row as written in the file for the lattice row iy (counted from the origin up).
    std::int64_t row(std::int64_t iy) const { return g.y_up ? y.n - 1 - iy : iy; }
    Cell cell(std::int64_t ix, std::int64_t iy) const { return Cell{ix, row(iy)}; }
    bool solid(std::int64_t ix, std::int64_t iy) const {
        if (!in_range(ix, iy)) return g.outside_solid;
        return g.solid(static_cast<std::size_t>(ix), static_cast<std::size_t>(row(iy)));
    }
};

bool cell_order(const Cell& a, const Cell& b) { return a.row < b.row || (a.row == b.row && a.col < b.col); }

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
        return (std::isfinite(hi) && cmp_line(hi, 0, ax, k) <= 0) || (std::isfinite(lo) && cmp_line(lo, 0, ax, k + 1) >= 0);
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

// dist(center, closed cell) < r, exact.
bool disk_meets_cell(const Circle& c, const Lattice& L, std::int64_t ix, std::int64_t iy) {
    // Per axis, the nearest coordinate of the cell: the centre's own, or an edge index.
    auto nearest = [&](const Axis& ax, std::int64_t k, double v, bool* inside) -> std::int64_t {
        if (cmp_line(v, 0, ax, k) < 0) return k;
        if (cmp_line(v, 0, ax, k + 1) > 0) return k + 1;
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

// A double strictly inside the open interval of cell k (for a representative point).
double inside_cell(const Axis& ax, std::int64_t k) {
    double v = ax.o + (static_cast<double>(k) + 0.5) * ax.w;
    if (cmp_line(v, 0, ax, k) <= 0) v = std::nextafter(v, std::numeric_limits<double>::infinity());
    if (cmp_line(v, 0, ax, k + 1) >= 0) v = std::nextafter(v, -std::numeric_limits<double>::infinity());
    return v;
}

bool polygon_meets_cell(Ring poly, const Lattice& L, std::int64_t ix, std::int64_t iy) {
    for (std::size_t i = 0; i < poly.n; ++i)
        if (piece_meets_cell(poly.edge(i), L, ix, iy)) return true;
    // No edge enters the open cell: it lies wholly inside or wholly outside.
    return locate_in_polygon(poly, Vec2{inside_cell(L.x, ix), inside_cell(L.y, iy)}) > 0;
}

// ---- shapes reduced for grid tests -----------------------------------------------------------

struct Reduced {
    enum Kind { Point, Pieces, Disk, Box, Poly } kind = Point;
    Vec2 pt;
    std::vector<Piece> pieces;
    Circle disk;
    Rect box;
    Ring ring;
};

Reduced reduce(const Shape& shape) {
    Reduced r;
    auto point = [&](Vec2 p) {
        r.kind = Reduced::Point;
        r.pt = p;
        return r;
    };
    auto segment = [&](Vec2 a, Vec2 b) {
        if (a == b) return point(a);
        r.kind = Reduced::Pieces;
        r.pieces.push_back(Piece{PieceKind::Segment, a, b});
        return r;
    };
    switch (type_of(shape)) {
        case ShapeType::Point: return point(std::get<Point>(shape).at);
        case ShapeType::Circle: {
            const auto& c = std::get<Circle>(shape);
            if (c.radius == 0) return point(c.center);
            r.kind = Reduced::Disk;
            r.disk = c;
            return r;
        }
        case ShapeType::Rect: {
            const auto& b = std::get<Rect>(shape);
            if (b.min.x == b.max.x || b.min.y == b.max.y) return segment(b.min, b.max);
            r.kind = Reduced::Box;
            r.box = b;
            return r;
        }
        case ShapeType::Segment: return segment(std::get<Segment>(shape).a, std::get<Segment>(shape).b);
        case ShapeType::Line:
            r.kind = Reduced::Pieces;
            r.pieces.push_back(Piece{PieceKind::Line, std::get<Line>(shape).a, std::get<Line>(shape).b});
            return r;
        case ShapeType::Ray:
            r.kind = Reduced::Pieces;
            r.pieces.push_back(Piece{PieceKind::Ray, std::get<Ray>(shape).origin, std::get<Ray>(shape).direction});
            return r;
        case ShapeType::Polygon: {
            const auto& p = std::get<Polygon>(shape).points;
            r.kind = Reduced::Poly;
            r.ring = Ring{p.data(), p.size()};
            return r;
        }
        case ShapeType::Polyline: {
            const auto& pl = std::get<Polyline>(shape).points;
            r.kind = Reduced::Pieces;
            for (std::size_t i = 1; i < pl.size(); ++i) {
                const Vec2 from = r.pieces.empty() ? pl[0] : r.pieces.back().q;
                if (pl[i] != from) r.pieces.push_back(Piece{PieceKind::Segment, from, pl[i]});
            }
            if (r.pieces.empty()) return point(pl.empty() ? Vec2{} : pl[0]);
            return r;
        }
    }
    return r;
}

// Whether the exact value a + b lies strictly outside the grid's closed extent on an axis.
bool beyond(const Axis& ax, double a, double b = 0.0) {
    return cmp_line(a, b, ax, 0) < 0 || cmp_line(a, b, ax, ax.n) > 0;
}

// The lattice row range a piece may meet, and for one row the column range (with a one
// cell margin for rounding; each cell is then tested exactly).
void piece_cells(const Piece& s, const Lattice& L, std::vector<std::pair<std::int64_t, std::int64_t>>& out) {
    const double inf = std::numeric_limits<double>::infinity();
    const double dx = s.kind == PieceKind::Ray ? s.q.x : s.q.x - s.p.x;
    const double dy = s.kind == PieceKind::Ray ? s.q.y : s.q.y - s.p.y;
    // Parameter range of the piece, clipped to the grid's box (slightly widened).
    double t0 = s.kind == PieceKind::Line ? -inf : 0.0;
    double t1 = s.kind == PieceKind::Segment ? 1.0 : inf;
    auto clip = [&](double p, double d, const Axis& ax) {
        const double lo = ax.o - ax.w;
        const double hi = ax.o + static_cast<double>(ax.n + 1) * ax.w;
        if (d == 0) {
            if (p < lo || p > hi) t1 = -inf;
            return;
        }
        double a = (lo - p) / d;
        double b = (hi - p) / d;
        if (a > b) std::swap(a, b);
        t0 = std::max(t0, a);
        t1 = std::min(t1, b);
    };
    clip(s.p.x, dx, L.x);
    clip(s.p.y, dy, L.y);
    if (!(t0 <= t1)) return;
    const double ya = s.p.y + t0 * dy;
    const double yb = s.p.y + t1 * dy;
    const std::int64_t r0 = std::max<std::int64_t>(0, floor_index(L.y, std::min(ya, yb)) - 1);
    const std::int64_t r1 = std::min<std::int64_t>(L.y.n - 1, floor_index(L.y, std::max(ya, yb)) + 1);
    for (std::int64_t iy = r0; iy <= r1; ++iy) {
        double u0 = t0;
        double u1 = t1;
        if (dy != 0) {
            double a = (L.y.o + static_cast<double>(iy) * L.y.w - s.p.y) / dy;
            double b = (L.y.o + static_cast<double>(iy + 1) * L.y.w - s.p.y) / dy;
            if (a > b) std::swap(a, b);
            const double slack = (b - a) * 1e-9 + 1e-300;
            u0 = std::max(u0, a - slack);
            u1 = std::min(u1, b + slack);
            if (u0 > u1) continue;
        }
        const double xa = s.p.x + u0 * dx;
        const double xb = s.p.x + u1 * dx;
        const std::int64_t c0 = std::max<std::int64_t>(0, floor_index(L.x, std::min(xa, xb)) - 1);
        const std::int64_t c1 = std::min<std::int64_t>(L.x.n - 1, floor_index(L.x, std::max(xa, xb)) + 1);
        for (std::int64_t ix = c0; ix <= c1; ++ix) out.emplace_back(ix, iy);
    }
}

}  // namespace

std::optional<GridHit> shape_vs_grid(const Shape& shape, const Grid& grid) {
    const Lattice L(grid);
    const Reduced r = reduce(shape);
    GridHit hit;
    auto add = [&](std::int64_t ix, std::int64_t iy) {
        if (L.in_range(ix, iy) && L.solid(ix, iy)) hit.cells.push_back(L.cell(ix, iy));
    };
    // Cells of a bounding range, clipped to the grid, each tested by `meets`.
    auto scan = [&](std::int64_t x0, std::int64_t x1, std::int64_t y0, std::int64_t y1, auto&& meets) {
        for (std::int64_t iy = std::max<std::int64_t>(y0, 0); iy <= std::min(y1, L.y.n - 1); ++iy)
            for (std::int64_t ix = std::max<std::int64_t>(x0, 0); ix <= std::min(x1, L.x.n - 1); ++ix)
                if (L.solid(ix, iy) && meets(ix, iy)) add(ix, iy);
    };
    switch (r.kind) {
        case Reduced::Point: {
            const std::int64_t ix = floor_index(L.x, r.pt.x);
            const std::int64_t iy = floor_index(L.y, r.pt.y);
            if (L.in_range(ix, iy)) add(ix, iy);
            else hit.outside = grid.outside_solid;
            break;
        }
        case Reduced::Box: {
            const auto [x0, x1] = open_cells(L.x, r.box.min.x, 0, r.box.max.x, 0);
            const auto [y0, y1] = open_cells(L.y, r.box.min.y, 0, r.box.max.y, 0);
            scan(x0, x1, y0, y1, [](std::int64_t, std::int64_t) { return true; });
            hit.outside = grid.outside_solid && (beyond(L.x, r.box.min.x) || beyond(L.x, r.box.max.x) ||
                                                 beyond(L.y, r.box.min.y) || beyond(L.y, r.box.max.y));
            break;
        }
        case Reduced::Disk: {
            const Circle& c = r.disk;
            const std::int64_t x0 = floor_index(L.x, c.center.x, -c.radius), x1 = floor_index(L.x, c.center.x, c.radius);
            const std::int64_t y0 = floor_index(L.y, c.center.y, -c.radius), y1 = floor_index(L.y, c.center.y, c.radius);
            scan(x0, x1, y0, y1, [&](std::int64_t ix, std::int64_t iy) { return disk_meets_cell(c, L, ix, iy); });
            hit.outside = grid.outside_solid && (beyond(L.x, c.center.x, -c.radius) || beyond(L.x, c.center.x, c.radius) ||
                                                 beyond(L.y, c.center.y, -c.radius) || beyond(L.y, c.center.y, c.radius));
            break;
        }
        case Reduced::Poly: {
            const Bounds b = bounds_of(shape);
            scan(floor_index(L.x, b.min.x), floor_index(L.x, b.max.x), floor_index(L.y, b.min.y), floor_index(L.y, b.max.y),
                 [&](std::int64_t ix, std::int64_t iy) { return polygon_meets_cell(r.ring, L, ix, iy); });
            for (std::size_t i = 0; i < r.ring.n && !hit.outside; ++i)
                hit.outside = grid.outside_solid && (beyond(L.x, r.ring[i].x) || beyond(L.y, r.ring[i].y));
            break;
        }
        case Reduced::Pieces: {
            std::vector<std::pair<std::int64_t, std::int64_t>> cand;
            for (const Piece& s : r.pieces) {
                cand.clear();
                piece_cells(s, L, cand);
                for (const auto& [ix, iy] : cand)
                    if (L.solid(ix, iy) && piece_meets_cell(s, L, ix, iy)) add(ix, iy);
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

namespace {

// ---- moves --------------------------------------------------------------------------------

// A fraction of the path: t = (o + k w + s - f) / (g - f), the time an axis coordinate
// moving from f to g meets the exact value o + k w + s; or a constant.
struct TVal {
    bool is_const = true;
    double c = 0.0;
    double o = 0, k = 0, w = 0, s = 0, f = 0, g = 0;
    bool open = false;  // as an interval end: excluded

    template <class T> T num() const { return is_const ? T(c) : T(o) + T(k) * T(w) + T(s) - T(f); }
    template <class T> T den() const { return is_const ? T(1.0) : T(g) - T(f); }
    int den_sign() const { return is_const ? 1 : (g > f ? 1 : -1); }
    double value() const {
        if (is_const) return c;
        return value_of([&](auto z) { return num<decltype(z)>(); }) / value_of([&](auto z) { return den<decltype(z)>(); });
    }
};

int compare(const TVal& a, const TVal& b) {
    if (a.is_const && b.is_const) return a.c < b.c ? -1 : (a.c > b.c ? 1 : 0);
    return a.den_sign() * b.den_sign() * sign_of([&](auto z) {
               using T = decltype(z);
               return a.num<T>() * b.den<T>() - b.num<T>() * a.den<T>();
           });
}

TVal constant(double c) {
    TVal t;
    t.c = c;
    return t;
}

// The times a coordinate moving from f to g lies in the cell-k interval of an axis widened
// by s on both sides, lo end included when `closed_lo` (the half-open point rule).
struct TInterval {
    TVal lo;
    TVal hi;
    bool empty = false;
    bool unbounded = false;  // the coordinate does not move and lies inside
};

TInterval axis_times(const Axis& ax, std::int64_t k, double s, double f, double g, bool closed_lo) {
    TInterval r;
    const auto edge = [&](std::int64_t kk, double shift) {
        TVal t;
        t.is_const = false;
        t.o = ax.o;
        t.k = static_cast<double>(kk);
        t.w = ax.w;
        t.s = shift;
        t.f = f;
        t.g = g;
        return t;
    };
    if (f == g) {
        const int a = cmp_line(f, s, ax, k);       // f + s vs lo edge: f >= edge - s
        const int b = cmp_line(f, -s, ax, k + 1);  // f - s vs hi edge: f < edge + s
        r.unbounded = (closed_lo ? a >= 0 : a > 0) && b < 0;
        r.empty = !r.unbounded;
        return r;
    }
    TVal lo_edge = edge(k, -s);
    TVal hi_edge = edge(k + 1, s);
    lo_edge.open = !closed_lo;
    hi_edge.open = true;
    if (g > f) {
        r.lo = lo_edge;
        r.hi = hi_edge;
    } else {
        r.lo = hi_edge;
        r.hi = lo_edge;
    }
    return r;
}

// The first time (infimum) the body centre lies in the box product of the two axis
// intervals, within [0, 1]; nothing when it never does.
std::optional<TVal> box_entry(const TInterval& x, const TInterval& y) {
    if (x.empty || y.empty) return std::nullopt;
    TVal lo = constant(0.0);
    TVal hi = constant(1.0);
    auto raise = [&](const TVal& v) {
        const int c = compare(v, lo);
        if (c > 0) lo = v;
        else if (c == 0 && v.open) lo.open = true;
    };
    auto lower = [&](const TVal& v) {
        const int c = compare(v, hi);
        if (c < 0) hi = v;
        else if (c == 0 && v.open) hi.open = true;
    };
    for (const TInterval* iv : {&x, &y}) {
        if (iv->unbounded) continue;
        raise(iv->lo);
        lower(iv->hi);
    }
    const int c = compare(lo, hi);
    if (c > 0 || (c == 0 && (lo.open || hi.open))) return std::nullopt;
    return lo;
}

// The exact cell edge o + k w as a double when it is one; else its nearest double.
double edge_value(const Axis& ax, std::int64_t k) { return ax.o + static_cast<double>(k) * ax.w; }

// First time a disk of radius r moving from `from` to `to` comes within < r of the closed
// cell: the earliest entry into the cell grown by r (two boxes and four corner disks).
std::optional<double> circle_entry(const Lattice& L, std::int64_t ix, std::int64_t iy, Vec2 from, Vec2 to, double r) {
    std::optional<double> best;
    auto take = [&](double t) {
        if (!best || t < *best) best = t;
    };
    if (auto t = box_entry(axis_times(L.x, ix, r, from.x, to.x, false), axis_times(L.y, iy, 0, from.y, to.y, false))) take(t->value());
    if (auto t = box_entry(axis_times(L.x, ix, 0, from.x, to.x, false), axis_times(L.y, iy, r, from.y, to.y, false))) take(t->value());
    const Piece path{PieceKind::Segment, from, to};
    for (std::int64_t kx : {ix, ix + 1}) {
        for (std::int64_t ky : {iy, iy + 1}) {
            const Circle corner{Vec2{edge_value(L.x, kx), edge_value(L.y, ky)}, r};
            if (piece_distance_vs_radius(path, corner) >= 0) continue;
            if (power(corner, from) < 0) {
                take(0.0);
                continue;
            }
            const double dx = to.x - from.x;
            const double dy = to.y - from.y;
            const double dd = dx * dx + dy * dy;
            const double dot = dx * (corner.center.x - from.x) + dy * (corner.center.y - from.y);
            const double disc = value_of([&](auto z) {
                using T = decltype(z);
                const T ex = T(to.x) - T(from.x);
                const T ey = T(to.y) - T(from.y);
                const T cr = ex * (T(corner.center.y) - T(from.y)) - ey * (T(corner.center.x) - T(from.x));
                return T(r) * T(r) * (ex * ex + ey * ey) - cr * cr;
            });
            take(std::max(0.0, (dot - std::sqrt(std::max(0.0, disc))) / dd));
        }
    }
    return best;
}

struct BodyShape {
    bool point = false;
    bool circle = false;
    double hx = 0;  // half extents (circle: the radius)
    double hy = 0;
};

BodyShape body_of(const Body& b) {
    BodyShape s;
    if (b.kind == Body::Kind::Circle && b.radius > 0) {
        s.circle = true;
        s.hx = s.hy = b.radius;
    } else if (b.kind == Body::Kind::Rect && (b.size.x > 0 || b.size.y > 0)) {
        s.hx = b.size.x * 0.5;
        s.hy = b.size.y * 0.5;
    } else {
        s.point = true;
    }
    return s;
}

// The first (row, then column) solid cell the body overlaps at position p.
std::optional<Cell> first_overlap(const Lattice& L, const BodyShape& b, Vec2 p) {
    if (b.point) {
        const std::int64_t ix = floor_index(L.x, p.x);
        const std::int64_t iy = floor_index(L.y, p.y);
        if (L.solid(ix, iy)) return L.cell(ix, iy);
        return std::nullopt;
    }
    std::optional<Cell> best;
    const auto [x0, x1] = open_cells(L.x, p.x, -b.hx, p.x, b.hx);
    const auto [y0, y1] = open_cells(L.y, p.y, -b.hy, p.y, b.hy);
    for (std::int64_t iy = y0; iy <= y1; ++iy) {
        for (std::int64_t ix = x0; ix <= x1; ++ix) {
            if (!L.solid(ix, iy)) continue;
            if (b.circle && !disk_meets_cell(Circle{p, b.hx}, L, ix, iy)) continue;
            const Cell c = L.cell(ix, iy);
            if (!best || cell_order(c, *best)) best = c;
        }
    }
    // A body of zero width or height lying on a grid line beyond the border meets no open
    // cell, yet reaches the solid outside: it is blocked in the outside cell that holds its
    // min corner by the floor rule.
    if (!best && L.g.outside_solid &&
        (beyond(L.x, p.x, -b.hx) || beyond(L.x, p.x, b.hx) || beyond(L.y, p.y, -b.hy) || beyond(L.y, p.y, b.hy))) {
        const std::int64_t ix = floor_index(L.x, p.x, -b.hx);
        const std::int64_t iy = floor_index(L.y, p.y, -b.hy);
        best = L.cell(ix, iy);
    }
    return best;
}

// When a rect body's closed extent first passes the grid's border (strictly beyond it just
// after), and the outside cell it passes into (the other axis by the floor rule).
std::optional<std::pair<TVal, Cell>> leaving_time(const Lattice& L, const BodyShape& b, Vec2 from, Vec2 to) {
    std::optional<std::pair<TVal, Cell>> best;
    auto side = [&](const Axis& ax, double f, double g, double h, bool x_axis) {
        if (f == g) return;
        const bool up = g > f;
        TVal t;
        t.is_const = false;
        t.o = ax.o;
        t.k = up ? static_cast<double>(ax.n) : 0.0;
        t.w = ax.w;
        t.s = up ? -h : h;
        t.f = f;
        t.g = g;
        if (compare(t, constant(0.0)) < 0 || compare(t, constant(1.0)) >= 0) return;
        if (best && compare(t, best->first) >= 0) return;
        const double tv = t.value();
        const double other = x_axis ? from.y + tv * (to.y - from.y) - b.hy : from.x + tv * (to.x - from.x) - b.hx;
        const std::int64_t out = up ? ax.n : -1;
        const std::int64_t along = floor_index(x_axis ? L.y : L.x, other);
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

}  // namespace

MoveResult run_move(const Move& m, const Grid& grid) {
    const Lattice L(grid);
    const BodyShape b = body_of(m.body);
    if (!m.check_path) {
        if (const auto c = first_overlap(L, b, m.to)) return blocked(1.0, m.to, *c);
        return MoveResult{};
    }
    if (const auto c = first_overlap(L, b, m.from)) return blocked(0.0, m.from, *c);
    if (m.from == m.to) return MoveResult{};

    // Candidate cells: those the swept body's bounds cover, within the grid and the ring of
    // outside cells around it (a body that starts clear reaches the outside through them).
    const std::int64_t lo_lim = grid.outside_solid ? -1 : 0;
    auto range = [&](const Axis& ax, double f, double g, double h) {
        const std::int64_t a = std::max(lo_lim, floor_index(ax, std::min(f, g), -h));
        const std::int64_t z = std::min(ax.n - 1 - lo_lim, floor_index(ax, std::max(f, g), h));
        return std::make_pair(a, z);
    };
    const auto [x0, x1] = range(L.x, m.from.x, m.to.x, b.hx);
    const auto [y0, y1] = range(L.y, m.from.y, m.to.y, b.hy);

    std::optional<TVal> best_exact;
    std::optional<double> best_t;
    Cell best_cell;
    // Row by row, only the columns the swept body can reach while it overlaps that row (a
    // rounded estimate widened by a cell on each side; every cell is then tested exactly), so
    // the cost follows the cells along the path, not the path's bounding box.
    const double dx = m.to.x - m.from.x;
    const double dy = m.to.y - m.from.y;
    for (std::int64_t iy = y0; iy <= y1; ++iy) {
        double t0 = 0.0;
        double t1 = 1.0;
        if (dy != 0) {
            const double lo = L.y.o + static_cast<double>(iy) * L.y.w - b.hy;
            const double hi = L.y.o + static_cast<double>(iy + 1) * L.y.w + b.hy;
            double ta = (lo - m.from.y) / dy;
            double tb = (hi - m.from.y) / dy;
            if (ta > tb) std::swap(ta, tb);
            const double slack = (tb - ta) * 1e-6 + 1e-12;
            t0 = std::max(0.0, ta - slack);
            t1 = std::min(1.0, tb + slack);
            if (t0 > t1) continue;
        }
        const double xa = m.from.x + t0 * dx;
        const double xb = m.from.x + t1 * dx;
        const std::int64_t c0 = std::max(x0, floor_index(L.x, std::min(xa, xb), -b.hx) - 1);
        const std::int64_t c1 = std::min(x1, floor_index(L.x, std::max(xa, xb), b.hx) + 1);
        for (std::int64_t ix = c0; ix <= c1; ++ix) {
            if (!L.solid(ix, iy)) continue;
            const Cell cell = L.cell(ix, iy);
            if (b.circle) {
                const auto t = circle_entry(L, ix, iy, m.from, m.to, b.hx);
                if (!t) continue;
                // Entry times of a circle are irrational in general: equal within 1e-12 is "at once".
                const bool earlier = !best_t || *t < *best_t - 1e-12;
                const bool tie = best_t && std::fabs(*t - *best_t) <= 1e-12;
                if (earlier || (tie && cell_order(cell, best_cell))) {
                    if (earlier || *t < *best_t) best_t = *t;
                    best_cell = cell;
                }
                continue;
            }
            const auto t = box_entry(axis_times(L.x, ix, b.hx, m.from.x, m.to.x, b.point),
                                     axis_times(L.y, iy, b.hy, m.from.y, m.to.y, b.point));
            if (!t) continue;
            const int c = best_exact ? compare(*t, *best_exact) : -1;
            if (c < 0 || (c == 0 && cell_order(cell, best_cell))) {
                best_exact = *t;
                best_cell = cell;
            }
        }
    }
    // A rect body of zero width or height can slide along a grid line out of the grid
    // without entering an open outside cell; it reaches the solid outside when its extent
    // first passes the border.
    if (!b.point && !b.circle && grid.outside_solid && (b.hx == 0 || b.hy == 0)) {
        const auto exit = leaving_time(L, b, m.from, m.to);
        if (exit && (!best_exact || compare(exit->first, *best_exact) < 0)) {
            best_exact = exit->first;
            best_cell = exit->second;
        }
    }
    if (best_exact) best_t = best_exact->value();
    if (!best_t) return MoveResult{};
    const double t = std::clamp(*best_t, 0.0, 1.0);
    const Vec2 stop = t == 0.0 ? m.from : t == 1.0 ? m.to
                                                   : Vec2{m.from.x + t * (m.to.x - m.from.x), m.from.y + t * (m.to.y - m.from.y)};
    return blocked(t, stop, best_cell);
}

}  // namespace collide::detail
