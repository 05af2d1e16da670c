// Fuzz target: a small tile grid, moves on it and shapes against it (SPEC §2.4), through
// detail::run_move and detail::shape_vs_grid (lib/src/grid_ops.hpp).
//
// Moves, for every body (point, circle, rect):
//   M1 a path move is blocked whenever its destination is (the destination is on the path);
//   M2 a blocked path move has t in [0, 1] and stop = from + t (to - from) within 1e-9
//      relative; a blocked destination move has t = 1 and stop = to;
//   M3 a body blocked at `from` blocks the path move at t = 0, at `from`, on the same cell;
//   M4 the reported cell is solid (in the grid) or outside a grid whose outside is solid;
//   M5 the destination test agrees with a brute-force computation: for point and rect
//      bodies by exact comparisons with the cell edges origin + k * tile (floor rule for a
//      point; a rect's extent, position +- size / 2 exactly, against open cells), for circle
//      bodies with collide() against each cell as a Rect; the reported cell is the first
//      solid one in row-then-column order (a zero-width rect reaching the solid outside only
//      along a grid line: the floor-rule cell of its first end beyond the border);
//   M6 a point of the path at a dyadic fraction f that is exactly representable, and
//      blocked there, blocks the path move at some t <= f.
// Shapes:
//   S1 shape_vs_grid lists only cells inside the grid, solid, sorted by row then column,
//      without repeats;
//   S2 a point (or a shape that is one) hits the cell that holds it by the floor rule;
//   S3 a rect hits exactly the solid cells whose open interior its closed extent meets;
//   S4 any other shape hits exactly the solid cells c with collide(shape, c) not a touch,
//      when the cell edges are exact doubles; `outside` is set exactly when the grid's
//      outside is solid and the shape leaves the grid's closed extent.
// A failure prints the grid and the query, then traps.
#include "fuzz_common.hpp"
#include "grids/grid_ops.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <typeinfo>

using namespace collide;
using collide::detail::run_move;
using collide::detail::shape_vs_grid;
using fuzz::ExactSum;

namespace {

constexpr double kMaxK = 35184372088832.0;  // 2^45: lattice indices the brute force handles

// ---- decoding -----------------------------------------------------------------------------

const std::vector<double> kOrigins = {0.0, 1.0, -1.0, 0.5, 0.1, -0.3, 3.0, 10.0, -7.25, 1e9, -1e9,
                                      1e-300, 4503599627370496.0, 1e15, 123.456, -0.0};
const std::vector<double> kTiles = {1.0, 2.0, 0.5, 0.25, 0.1, 0.3, 3.0, 20.0, 32.0, 1.0 / 3.0, 7.0,
                                    1e-3, 1e6, 1e9, 1e-9, 0.7, 1e-300, fuzz::kDenormMin};
const std::vector<double> kFractions = {0.5, 0.25, 0.75, 0.1, 1.0 / 3.0, 0.9, 0.999999999};

class Gen {
public:
    explicit Gen(FuzzedDataProvider& fdp) : f_(fdp) {}

    Grid grid() {
        Grid g;
        g.id = "g";
        g.cols = f_.ConsumeIntegralInRange<std::size_t>(1, 12);
        g.rows = f_.ConsumeIntegralInRange<std::size_t>(1, 12);
        g.y_up = f_.ConsumeBool();
        g.outside_solid = f_.ConsumeBool();
        g.origin = Vec2{pick(kOrigins), pick(kOrigins)};
        const double tx = pick(kTiles);
        g.tile = Vec2{tx, f_.ConsumeBool() ? tx : pick(kTiles)};
        g.bits.assign((g.cols * g.rows + 63) / 64, 0);
        for (std::size_t r = 0; r < g.rows; ++r) {
            const auto mask = f_.ConsumeIntegral<std::uint16_t>();
            for (std::size_t c = 0; c < g.cols; ++c) {
                const std::size_t i = r * g.cols + c;
                if ((mask >> c) & 1u) g.bits[i / 64] |= std::uint64_t{1} << (i % 64);
            }
        }
        return g;
    }

    // A coordinate near the grid on one axis: cell edges, cell middles, their neighbours,
    // interesting values, copies.
    double coord(const Grid& g, bool y) {
        const double o = y ? g.origin.y : g.origin.x;
        const double w = y ? g.tile.y : g.tile.x;
        const auto n = static_cast<int>(y ? g.rows : g.cols);
        const double k = f_.ConsumeIntegralInRange<int>(-3, n + 3);
        double v = 0;
        switch (f_.ConsumeIntegralInRange<int>(0, 7)) {
            case 0:
            case 1: v = o + k * w; break;
            case 2: v = o + (k + pick(kFractions)) * w; break;
            case 3: v = std::nextafter(o + k * w, f_.ConsumeBool() ? 1e308 : -1e308); break;
            case 4: v = pick(fuzz::interesting_values()); break;
            case 5: v = seen_.empty() ? o : pick(seen_); break;
            case 6: v = f_.ConsumeIntegralInRange<int>(-8, 24); break;
            default: v = f_.ConsumeFloatingPointInRange<double>(o - 3 * w, o + (n + 3) * w); break;
        }
        if (!std::isfinite(v)) v = o;
        seen_.push_back(v);
        return v;
    }
    Vec2 pos(const Grid& g) {
        const double x = coord(g, false);
        return Vec2{x, coord(g, true)};
    }
    // A size >= 0 on one axis: multiples of the tile, interesting values, tiny ones.
    double size(const Grid& g, bool y) {
        const double w = y ? g.tile.y : g.tile.x;
        switch (f_.ConsumeIntegralInRange<int>(0, 5)) {
            case 0: return w * pick({0.5, 1.0, 1.5, 2.0, 0.25, 3.0});
            case 1: return std::fabs(pick(fuzz::interesting_values()));
            case 2: return 0.0;
            case 3: return f_.ConsumeIntegralInRange<int>(0, 8);
            case 4: return seen_.empty() ? w : std::fabs(pick(seen_));
            default: return f_.ConsumeFloatingPointInRange<double>(0.0, 4 * w);
        }
    }

    Move move(const Grid& g) {
        Move m;
        m.id = "m";
        m.from = pos(g);
        switch (f_.ConsumeIntegralInRange<int>(0, 3)) {
            case 0: m.to = Vec2{coord(g, false), m.from.y}; break;  // horizontal
            case 1: m.to = Vec2{m.from.x, coord(g, true)}; break;   // vertical
            default: m.to = pos(g); break;
        }
        switch (f_.ConsumeIntegralInRange<int>(0, 2)) {
            case 0: m.body.kind = Body::Kind::Point; break;
            case 1:
                m.body.kind = Body::Kind::Circle;
                m.body.radius = size(g, false);
                break;
            default:
                m.body.kind = Body::Kind::Rect;
                m.body.size = Vec2{size(g, false), size(g, true)};
                break;
        }
        return m;
    }

    std::optional<Shape> shape(const Grid& g) {
        return shape_of(static_cast<ShapeType>(f_.ConsumeIntegralInRange<int>(0, 9)), g);
    }

    std::optional<Shape> shape_of(ShapeType type, const Grid& g) {
        switch (type) {
            case ShapeType::Point: return Point{pos(g)};
            case ShapeType::Circle: {
                const Vec2 c = pos(g);
                return Circle{c, size(g, false)};
            }
            case ShapeType::Rect: {
                const Vec2 a = pos(g);
                Vec2 b = f_.ConsumeBool() ? pos(g) : Vec2{a.x + size(g, false), a.y + size(g, true)};
                if (!std::isfinite(b.x) || !std::isfinite(b.y)) b = a;
                return Rect{{std::min(a.x, b.x), std::min(a.y, b.y)}, {std::max(a.x, b.x), std::max(a.y, b.y)}};
            }
            case ShapeType::Segment: {
                const Vec2 a = pos(g);
                return Segment{a, pos(g)};
            }
            case ShapeType::Line: {
                const Vec2 a = pos(g);
                const Vec2 b = pos(g);
                if (a == b) return std::nullopt;
                return Line{a, b};
            }
            case ShapeType::Ray: {
                const Vec2 o = pos(g);
                const Vec2 d{static_cast<double>(f_.ConsumeIntegralInRange<int>(-3, 3)),
                             static_cast<double>(f_.ConsumeIntegralInRange<int>(-3, 3))};
                if (d.x == 0 && d.y == 0) return std::nullopt;
                return Ray{o, d};
            }
            case ShapeType::Polygon: {
                std::vector<Vec2> p(f_.ConsumeIntegralInRange<std::size_t>(3, 6));
                for (auto& q : p) q = pos(g);
                std::string why;
                auto ring = simple_polygon(p, why);
                if (!ring) return std::nullopt;
                return Polygon{std::move(*ring)};
            }
            case ShapeType::Polyline: {
                std::vector<Vec2> p(f_.ConsumeIntegralInRange<std::size_t>(1, 5));
                for (auto& q : p) q = pos(g);
                return Polyline{p};
            }
            case ShapeType::Capsule: {
                const Vec2 a = pos(g);
                const Vec2 b = f_.ConsumeBool() ? a : pos(g);
                const double r = size(g, false);
                if (!(r > 0)) return std::nullopt;
                return Capsule{a, b, r};
            }
            case ShapeType::Compound: {
                Compound c;
                const int n = f_.ConsumeIntegralInRange<int>(1, 3);
                for (int i = 0; i < n; ++i)
                    if (auto part = shape_of(static_cast<ShapeType>(f_.ConsumeIntegralInRange<int>(0, 8)), g))
                        c.parts.push_back(std::move(*part));
                if (c.parts.empty()) return std::nullopt;
                return c;
            }
        }
        return std::nullopt;
    }

    FuzzedDataProvider& data() { return f_; }

private:
    double pick(const std::vector<double>& v) { return v[f_.ConsumeIntegralInRange<std::size_t>(0, v.size() - 1)]; }

    FuzzedDataProvider& f_;
    std::vector<double> seen_;
};

// ---- printing -----------------------------------------------------------------------------

std::string grid_text(const Grid& g) {
    std::string t = "grid " + std::to_string(g.cols) + "x" + std::to_string(g.rows) + " origin " + fuzz::vec(g.origin) +
                    " tile " + fuzz::vec(g.tile) + (g.y_up ? " y_up" : " y_down") +
                    (g.outside_solid ? " outside solid" : " outside empty") + "\nrows (as written):\n";
    for (std::size_t r = 0; r < g.rows; ++r) {
        t += "  ";
        for (std::size_t c = 0; c < g.cols; ++c) t += g.solid(c, r) ? '#' : '.';
        t += '\n';
    }
    return t;
}

std::string cell_text(Cell c) { return "[" + std::to_string(c.col) + ", " + std::to_string(c.row) + "]"; }

std::string move_text(const Move& m) {
    std::string b = m.body.kind == Body::Kind::Point    ? "point"
                    : m.body.kind == Body::Kind::Circle ? "circle radius " + fuzz::num(m.body.radius)
                                                        : "rect size " + fuzz::vec(m.body.size);
    return std::string(m.check_path ? "path" : "destination") + " move from " + fuzz::vec(m.from) + " to " +
           fuzz::vec(m.to) + " body " + b;
}

std::string result_text(const MoveResult& r) {
    if (r.allowed) return "allowed";
    return "blocked t " + fuzz::num(r.t) + " stop " + fuzz::vec(r.stop) + " cell " + cell_text(r.cell);
}

std::string hit_text(const std::optional<detail::GridHit>& h) {
    if (!h) return "no hit";
    std::string t = "cells {";
    for (Cell c : h->cells) t += cell_text(c);
    return t + "}" + (h->outside ? " outside" : "");
}

// ---- the lattice, exactly -----------------------------------------------------------------

// Exact sign of (terms) - f * (o + k w), where f is 1 or 2 (to compare p +- s/2 as 2p +- s).
struct Lat {
    const Grid& g;
    double o(bool y) const { return y ? g.origin.y : g.origin.x; }
    double w(bool y) const { return y ? g.tile.y : g.tile.x; }
    std::int64_t n(bool y) const { return static_cast<std::int64_t>(y ? g.rows : g.cols); }

    // Sign of v - edge_k; nothing when an intermediate overflows.
    std::optional<int> cmp(ExactSum v, bool y, double k, double f = 1.0) const {
        v.sub(f * o(y)).sub_product(k, f * w(y));
        if (!v.ok) return std::nullopt;
        return v.sign();
    }
    // Smallest k in [-kMaxK, kMaxK] with pred(k) true, for pred monotone false...true;
    // nothing when pred is never or always true there (or a comparison overflows).
    template <class P> std::optional<std::int64_t> first_true(P&& pred) const {
        auto lo = static_cast<std::int64_t>(-kMaxK);
        auto hi = static_cast<std::int64_t>(kMaxK);
        const auto at_lo = pred(static_cast<double>(lo));
        const auto at_hi = pred(static_cast<double>(hi));
        if (!at_lo || !at_hi || *at_lo || !*at_hi) return std::nullopt;
        while (hi - lo > 1) {
            const std::int64_t mid = lo + (hi - lo) / 2;
            const auto p = pred(static_cast<double>(mid));
            if (!p) return std::nullopt;
            (*p ? hi : lo) = mid;
        }
        return hi;
    }
    // Floor rule: the largest k with edge_k <= v.
    std::optional<std::int64_t> floor_cell(double v, bool y) const {
        const auto k = first_true([&](double kk) -> std::optional<bool> {
            const auto c = cmp(ExactSum().add(v), y, kk);
            if (!c) return std::nullopt;
            return *c < 0;
        });
        if (!k) return std::nullopt;
        return *k - 1;
    }
    // Floor rule for half a sum: the largest k with edge_k <= v2 / 2.
    std::optional<std::int64_t> floor_cell2(const ExactSum& v2, bool y) const {
        const auto k = first_true([&](double kk) -> std::optional<bool> {
            const auto c = cmp(v2, y, kk, 2.0);
            if (!c) return std::nullopt;
            return *c < 0;
        });
        if (!k) return std::nullopt;
        return *k - 1;
    }
    // Cells k whose open interval (edge_k, edge_k+1) meets the closed [lo2/2, hi2/2], where
    // lo2 and hi2 are exact sums of twice the bounds.
    std::optional<std::pair<std::int64_t, std::int64_t>> open_range(const ExactSum& lo2, const ExactSum& hi2, bool y) const {
        // first: smallest k with lo < edge_k+1; last: largest k with hi > edge_k.
        const auto first = first_true([&](double kk) -> std::optional<bool> {
            const auto c = cmp(lo2, y, kk + 1, 2.0);
            if (!c) return std::nullopt;
            return *c < 0;
        });
        const auto after = first_true([&](double kk) -> std::optional<bool> {
            const auto c = cmp(hi2, y, kk, 2.0);
            if (!c) return std::nullopt;
            return *c <= 0;
        });
        if (!first || !after) return std::nullopt;
        return std::make_pair(*first, *after - 1);
    }
    // Whether the lattice cell (ix, iy) is solid: inside the grid by its bits, outside by
    // the grid's outside.
    bool solid(std::int64_t ix, std::int64_t iy) const {
        if (ix < 0 || iy < 0 || ix >= n(false) || iy >= n(true)) return g.outside_solid;
        return g.solid(static_cast<std::size_t>(ix), static_cast<std::size_t>(row(iy)));
    }
    std::int64_t row(std::int64_t iy) const { return g.y_up ? n(true) - 1 - iy : iy; }
    std::int64_t lattice_y(std::int64_t row) const { return g.y_up ? n(true) - 1 - row : row; }
    bool in_grid(Cell c) const { return c.col >= 0 && c.row >= 0 && c.col < n(false) && c.row < n(true); }

    // The first solid cell (row then column as written) of the lattice box [x0, x1] x [y0, y1].
    std::optional<Cell> first_solid(std::int64_t x0, std::int64_t x1, std::int64_t y0, std::int64_t y1) const {
        if (!g.outside_solid) {  // only the grid's own cells can be solid
            x0 = std::max<std::int64_t>(x0, 0), x1 = std::min(x1, n(false) - 1);
            y0 = std::max<std::int64_t>(y0, 0), y1 = std::min(y1, n(true) - 1);
        }
        if (x0 > x1 || y0 > y1) return std::nullopt;
        // Written rows ascend as iy ascends (y down) or as it descends (y up).
        const std::int64_t step = g.y_up ? -1 : 1;
        const std::int64_t last = g.y_up ? y0 : y1;
        for (std::int64_t iy = g.y_up ? y1 : y0;; iy += step) {
            if (iy < 0 || iy >= n(true)) return Cell{x0, row(iy)};  // outside, which is solid here
            if (x0 < 0) return Cell{x0, row(iy)};
            for (std::int64_t ix = x0; ix <= std::min(x1, n(false) - 1); ++ix)
                if (solid(ix, iy)) return Cell{ix, row(iy)};
            if (x1 >= n(false)) return Cell{std::max(x0, n(false)), row(iy)};
            if (iy == last) return std::nullopt;
        }
    }

    // The cell (ix, iy) as a Rect, when its edges are exact doubles.
    std::optional<Rect> cell_rect(std::int64_t ix, std::int64_t iy) const {
        Rect r;
        double* v[4] = {&r.min.x, &r.max.x, &r.min.y, &r.max.y};
        for (int i = 0; i < 4; ++i) {
            const bool y = i >= 2;
            const double k = static_cast<double>((y ? iy : ix) + (i % 2));
            *v[i] = o(y) + k * w(y);
            const auto c = cmp(ExactSum().add(*v[i]), y, k);
            if (!c || *c != 0) return std::nullopt;
        }
        return r;
    }
    // Sign of v - the grid's min (lo) or max edge.
    std::optional<int> vs_extent(const ExactSum& v, bool y, bool max) const {
        return cmp(v, y, max ? static_cast<double>(n(y)) : 0.0);
    }
};

// ---- moves --------------------------------------------------------------------------------

struct BodyKind {
    bool point = false;
    bool circle = false;
};
BodyKind body_kind(const Body& b) {  // as the contract reads a body (README: size 0 or radius 0 is a point)
    if (b.kind == Body::Kind::Circle && b.radius > 0) return {false, true};
    if (b.kind == Body::Kind::Rect && (b.size.x > 0 || b.size.y > 0)) return {false, false};
    return {true, false};
}

// The expected answer of a destination move at p: the first solid cell the body overlaps,
// nothing when none; `known` false when the brute force cannot decide.
struct Expect {
    bool known = false;
    std::optional<Cell> cell;
    bool any_outside = false;  // blocked, on a cell outside the grid
    std::optional<Cell> outside_cell;  // which one, when any_outside
};

Expect expect_destination(const Lat& L, const Body& body, Vec2 p) {
    Expect e;
    const BodyKind k = body_kind(body);
    if (k.circle) {
        // collide() decides disk-vs-closed-cell exactly: an interior meeting is "not touch".
        const Circle disk{p, body.radius};
        const ExactSum lx = ExactSum().add(p.x).sub(body.radius), hx = ExactSum().add(p.x).add(body.radius);
        const ExactSum ly = ExactSum().add(p.y).sub(body.radius), hy = ExactSum().add(p.y).add(body.radius);
        const auto a = L.vs_extent(lx, false, false), b = L.vs_extent(hx, false, true);
        const auto c = L.vs_extent(ly, true, false), d = L.vs_extent(hy, true, true);
        if (!a || !b || !c || !d) return e;
        const bool beyond = *a < 0 || *b > 0 || *c < 0 || *d > 0;
        if (beyond && L.g.outside_solid) return e;  // an outside cell may come first: not modelled
        std::optional<Cell> best;
        for (std::int64_t row = 0; row < L.n(true) && !best; ++row) {
            for (std::int64_t ix = 0; ix < L.n(false) && !best; ++ix) {
                const std::int64_t iy = L.lattice_y(row);
                if (!L.solid(ix, iy)) continue;
                const auto r = L.cell_rect(ix, iy);
                if (!r) return e;
                const auto hit = collide::collide(disk, *r, false);
                if (hit && hit->relation != Relation::Touch) best = Cell{ix, row};
            }
        }
        e.known = true;
        e.cell = best;
        return e;
    }
    if (k.point) {
        const auto ix = L.floor_cell(p.x, false);
        const auto iy = L.floor_cell(p.y, true);
        if (!ix || !iy) return e;
        e.known = true;
        if (L.solid(*ix, *iy)) e.cell = Cell{*ix, L.row(*iy)};
        return e;
    }
    // Rect body: [p - s/2, p + s/2] exactly, i.e. [2p - s, 2p + s] / 2.
    const double px2 = 2 * p.x, py2 = 2 * p.y;
    const auto xr = L.open_range(ExactSum().add(px2).sub(body.size.x), ExactSum().add(px2).add(body.size.x), false);
    const auto yr = L.open_range(ExactSum().add(py2).sub(body.size.y), ExactSum().add(py2).add(body.size.y), true);
    if (!xr || !yr) return e;
    e.known = true;
    e.cell = L.first_solid(xr->first, xr->second, yr->first, yr->second);
    if (!e.cell && L.g.outside_solid) {
        // A body of zero width or height lying on a grid line beyond the border meets no open
        // cell, yet reaches the solid outside (README: the outside is the open region beyond
        // the grid's closed extent): blocked, on a cell outside the grid.
        const auto a = L.cmp(ExactSum().add(px2).sub(body.size.x), false, 0.0, 2.0);
        const auto b = L.cmp(ExactSum().add(px2).add(body.size.x), false, static_cast<double>(L.n(false)), 2.0);
        const auto c = L.cmp(ExactSum().add(py2).sub(body.size.y), true, 0.0, 2.0);
        const auto d = L.cmp(ExactSum().add(py2).add(body.size.y), true, static_cast<double>(L.n(true)), 2.0);
        if (!a || !b || !c || !d) return Expect{};
        e.any_outside = *a < 0 || *b > 0 || *c < 0 || *d > 0;
        // Which cell (README): the floor-rule cell of an end of the body beyond the border,
        // the first in row-then-column order when both ends are.
        for (const double sign : {-1.0, 1.0}) {
            if (!e.any_outside) break;
            const ExactSum x2 = ExactSum().add(px2).add(sign * body.size.x);
            const ExactSum y2 = ExactSum().add(py2).add(sign * body.size.y);
            const auto x_lo = L.cmp(x2, false, 0.0, 2.0), x_hi = L.cmp(x2, false, static_cast<double>(L.n(false)), 2.0);
            const auto y_lo = L.cmp(y2, true, 0.0, 2.0), y_hi = L.cmp(y2, true, static_cast<double>(L.n(true)), 2.0);
            const auto ix = L.floor_cell2(x2, false);
            const auto iy = L.floor_cell2(y2, true);
            if (!x_lo || !x_hi || !y_lo || !y_hi || !ix || !iy) return Expect{};
            if (!(*x_lo < 0 || *x_hi > 0 || *y_lo < 0 || *y_hi > 0)) continue;
            const Cell c2{*ix, L.row(*iy)};
            if (!e.outside_cell || c2.row < e.outside_cell->row || (c2.row == e.outside_cell->row && c2.col < e.outside_cell->col))
                e.outside_cell = c2;
        }
    }
    return e;
}

void move_fail(const Grid& g, const Move& m, const std::string& what, const MoveResult& r) {
    fuzz::fail(what + "\n" + grid_text(g) + move_text(m) + "\nresult: " + result_text(r));
}

bool cell_solid(const Lat& L, Cell c) { return L.in_grid(c) ? L.g.solid(c.col, c.row) : L.g.outside_solid; }

MoveResult run(const Move& m, const Grid& g) { return run_move(m, g); }

// Exact dyadic points of the path: from + f (to - from) for f = 1/2, 1/4, 3/4, ... when
// every midpoint computed is exact.
void path_samples(Vec2 a, Vec2 b, double fa, double fb, int depth, std::vector<std::pair<double, Vec2>>& out) {
    if (depth == 0) return;
    if (!fuzz::exact_add(a.x, b.x) || !fuzz::exact_add(a.y, b.y)) return;
    const Vec2 s{a.x + b.x, a.y + b.y};
    const Vec2 mid{s.x * 0.5, s.y * 0.5};
    if (mid.x * 2 != s.x || mid.y * 2 != s.y) return;
    const double fm = (fa + fb) * 0.5;
    out.emplace_back(fm, mid);
    path_samples(a, mid, fa, fm, depth - 1, out);
    path_samples(mid, b, fm, fb, depth - 1, out);
}

void check_move(const Grid& g, Move m) {
    const Lat L{g};
    Move dm = m;
    dm.check_path = false;
    Move pm = m;
    pm.check_path = true;
    Move fm = m;
    fm.check_path = false;
    fm.to = m.from;
    const MoveResult d = run(dm, g);
    const MoveResult p = run(pm, g);
    const MoveResult f = run(fm, g);

    // M4
    for (const auto& [mv, r] : {std::pair{&dm, &d}, std::pair{&pm, &p}})
        if (!r->allowed && !cell_solid(L, r->cell))
            move_fail(g, *mv, "M4: the blocking cell is not solid", *r);
    // M2
    if (!d.allowed && (d.t != 1.0 || d.stop != m.to)) move_fail(g, dm, "M2: a blocked destination move has t != 1 or stop != to", d);
    if (!p.allowed) {
        if (!(p.t >= 0.0 && p.t <= 1.0)) move_fail(g, pm, "M2: t outside [0, 1]", p);
        const double mag = std::max({std::fabs(m.from.x), std::fabs(m.from.y), std::fabs(m.to.x), std::fabs(m.to.y)});
        const double tol = 1e-9 * mag + 4 * fuzz::kDenormMin;  // a few ulps even for subnormal paths
        Vec2 want = p.t == 0.0 ? m.from : p.t == 1.0 ? m.to : Vec2{};
        if (p.t > 0.0 && p.t < 1.0)
            want = Vec2{m.from.x + p.t * (m.to.x - m.from.x), m.from.y + p.t * (m.to.y - m.from.y)};
        const bool computable = std::isfinite(want.x) && std::isfinite(want.y);  // to - from may overflow
        if (computable && (!(std::fabs(p.stop.x - want.x) <= tol) || !(std::fabs(p.stop.y - want.y) <= tol)))
            move_fail(g, pm, "M2: stop is not from + t (to - from)", p);
    }
    // M1
    if (!d.allowed && p.allowed)
        fuzz::fail("M1: the destination is blocked but the path move is allowed\n" + grid_text(g) + move_text(pm) +
                   "\npath: " + result_text(p) + "\ndestination: " + result_text(d));
    // M3
    if (!f.allowed && (p.allowed || p.t != 0.0 || p.stop != m.from || !(p.cell == f.cell)))
        fuzz::fail("M3: the body is blocked at `from` but the path move does not stop there at t = 0 on that cell\n" +
                   grid_text(g) + move_text(pm) + "\npath: " + result_text(p) + "\nat from: " + result_text(f));
    // M5
    for (const auto& [mv, r] : {std::pair{&dm, &d}, std::pair{&fm, &f}}) {
        const Expect e = expect_destination(L, m.body, mv->to);
        if (!e.known) continue;
        if (e.any_outside) {
            if (r->allowed || L.in_grid(r->cell) || !(r->cell == *e.outside_cell))
                move_fail(g, *mv, "M5: the destination test disagrees with brute force, which says blocked on the "
                                  "outside cell " + cell_text(*e.outside_cell) +
                                  " (the body reaches beyond the border along a grid line)", *r);
            continue;
        }
        if (e.cell.has_value() == r->allowed || (e.cell && !(*e.cell == r->cell)))
            move_fail(g, *mv, "M5: the destination test disagrees with brute force, which says " +
                                  (e.cell ? "blocked on " + cell_text(*e.cell) : std::string("allowed")),
                      *r);
    }
    // M6
    std::vector<std::pair<double, Vec2>> samples;
    path_samples(m.from, m.to, 0.0, 1.0, 3, samples);
    for (const auto& [frac, q] : samples) {
        Move qm = dm;
        qm.to = q;
        const MoveResult r = run(qm, g);
        if (!r.allowed && (p.allowed || p.t > frac + 1e-9))
            fuzz::fail("M6: the body is blocked at fraction " + fuzz::num(frac) + " of the path, " + fuzz::vec(q) +
                       ", but the path move " + (p.allowed ? std::string("is allowed") : "stops later") + "\n" +
                       grid_text(g) + move_text(pm) + "\npath: " + result_text(p) + "\nat that point: " + result_text(r));
    }
}

// ---- shapes -------------------------------------------------------------------------------

bool point_like(const Shape& s, Vec2* at) {
    switch (type_of(s)) {
        case ShapeType::Point: *at = std::get<Point>(s).at; return true;
        case ShapeType::Circle: *at = std::get<Circle>(s).center; return std::get<Circle>(s).radius == 0;
        case ShapeType::Rect: *at = std::get<Rect>(s).min; return std::get<Rect>(s).min == std::get<Rect>(s).max;
        case ShapeType::Segment: *at = std::get<Segment>(s).a; return std::get<Segment>(s).a == std::get<Segment>(s).b;
        case ShapeType::Polyline: {
            const auto& p = std::get<Polyline>(s).points;
            *at = p[0];
            return std::all_of(p.begin(), p.end(), [&](Vec2 q) { return q == p[0]; });
        }
        default: return false;
    }
}

void shape_fail(const Grid& g, const Shape& s, const std::string& what, const std::optional<detail::GridHit>& h) {
    fuzz::fail(what + "\n" + grid_text(g) + "shape: " + fuzz::shape_text(s) + "\nshape_vs_grid: " + hit_text(h));
}

// Whether the shape leaves the grid's closed extent; nothing when undecidable here.
std::optional<bool> leaves_extent(const Lat& L, const Shape& s) {
    if (type_of(s) == ShapeType::Line || type_of(s) == ShapeType::Ray) return true;
    if (const auto* c = std::get_if<Compound>(&s)) {  // when one of its parts does
        bool any = false;
        for (const Shape& part : c->parts) {
            const auto leaves = leaves_extent(L, part);
            if (!leaves) return std::nullopt;
            any = any || *leaves;
        }
        return any;
    }
    ExactSum lx, hx, ly, hy;
    if (type_of(s) == ShapeType::Circle) {
        const auto& c = std::get<Circle>(s);
        lx.add(c.center.x).sub(c.radius), hx.add(c.center.x).add(c.radius);
        ly.add(c.center.y).sub(c.radius), hy.add(c.center.y).add(c.radius);
    } else if (type_of(s) == ShapeType::Capsule) {
        const auto& c = std::get<Capsule>(s);
        lx.add(std::min(c.a.x, c.b.x)).sub(c.radius), hx.add(std::max(c.a.x, c.b.x)).add(c.radius);
        ly.add(std::min(c.a.y, c.b.y)).sub(c.radius), hy.add(std::max(c.a.y, c.b.y)).add(c.radius);
    } else {
        const Bounds b = bounds_of(s);  // input coordinates for every other bounded shape
        lx.add(b.min.x), hx.add(b.max.x), ly.add(b.min.y), hy.add(b.max.y);
    }
    const auto a = L.vs_extent(lx, false, false), b = L.vs_extent(hx, false, true);
    const auto c = L.vs_extent(ly, true, false), d = L.vs_extent(hy, true, true);
    if (!a || !b || !c || !d) return std::nullopt;
    return *a < 0 || *b > 0 || *c < 0 || *d > 0;
}

// What a brute force says shape_vs_grid must give: the solid cells (by row, then column,
// each once) and whether the shape reaches the solid outside; false when it cannot tell here.
// A compound hits what its parts hit: the union of their answers.
bool brute_force_hit(const Grid& g, const Lat& L, const Shape& s, std::vector<Cell>& want, bool& want_outside) {
    want.clear();
    want_outside = false;
    if (const auto* c = std::get_if<Compound>(&s)) {
        std::vector<Cell> part_cells;
        for (const Shape& part : c->parts) {
            bool part_outside = false;
            if (!brute_force_hit(g, L, part, part_cells, part_outside)) return false;
            want.insert(want.end(), part_cells.begin(), part_cells.end());
            want_outside = want_outside || part_outside;
        }
        std::sort(want.begin(), want.end(), [](Cell x, Cell y) { return x.row < y.row || (x.row == y.row && x.col < y.col); });
        want.erase(std::unique(want.begin(), want.end()), want.end());
        return true;
    }
    Vec2 at;
    if (point_like(s, &at)) {  // S2
        const auto ix = L.floor_cell(at.x, false);
        const auto iy = L.floor_cell(at.y, true);
        if (!ix || !iy) return false;
        if (*ix >= 0 && *iy >= 0 && *ix < L.n(false) && *iy < L.n(true)) {
            if (L.solid(*ix, *iy)) want.push_back(Cell{*ix, L.row(*iy)});
        } else {
            want_outside = g.outside_solid;
        }
    } else if (type_of(s) == ShapeType::Rect) {  // S3
        const auto& r = std::get<Rect>(s);
        const auto xr = L.open_range(ExactSum().add(2 * r.min.x), ExactSum().add(2 * r.max.x), false);
        const auto yr = L.open_range(ExactSum().add(2 * r.min.y), ExactSum().add(2 * r.max.y), true);
        const auto leaves = leaves_extent(L, s);
        if (!xr || !yr || !leaves) return false;
        for (std::int64_t row = 0; row < L.n(true); ++row) {
            const std::int64_t iy = L.lattice_y(row);
            if (iy < yr->first || iy > yr->second) continue;
            for (std::int64_t ix = std::max<std::int64_t>(0, xr->first); ix <= std::min(xr->second, L.n(false) - 1); ++ix)
                if (L.solid(ix, iy)) want.push_back(Cell{ix, row});
        }
        want_outside = g.outside_solid && *leaves;
    } else {  // S4
        const auto leaves = leaves_extent(L, s);
        if (!leaves) return false;
        for (std::int64_t row = 0; row < L.n(true); ++row) {
            for (std::int64_t ix = 0; ix < L.n(false); ++ix) {
                const std::int64_t iy = L.lattice_y(row);
                if (!L.solid(ix, iy)) continue;
                const auto cr = L.cell_rect(ix, iy);
                if (!cr) return false;
                const auto hit = collide::collide(s, *cr, false);
                if (hit && hit->relation != Relation::Touch) want.push_back(Cell{ix, row});
            }
        }
        want_outside = g.outside_solid && *leaves;
    }
    return true;
}

void check_shape(const Grid& g, const Shape& s) {
    const Lat L{g};
    const auto h = shape_vs_grid(s, g);
    // S1
    if (h) {
        if (h->cells.empty() && !h->outside) shape_fail(g, s, "S1: a hit with no cell and no outside", h);
        for (std::size_t i = 0; i < h->cells.size(); ++i) {
            const Cell c = h->cells[i];
            if (!L.in_grid(c)) shape_fail(g, s, "S1: a cell outside the grid: " + cell_text(c), h);
            if (!g.solid(c.col, c.row)) shape_fail(g, s, "S1: a free cell listed: " + cell_text(c), h);
            if (i > 0) {
                const Cell b = h->cells[i - 1];
                if (!(b.row < c.row || (b.row == c.row && b.col < c.col)))
                    shape_fail(g, s, "S1: cells not sorted by row then column, or repeated", h);
            }
        }
        if (h->outside && !g.outside_solid) shape_fail(g, s, "S1: outside reported for a grid whose outside is empty", h);
    }
    const std::vector<Cell> got = h ? h->cells : std::vector<Cell>{};
    const bool got_outside = h && h->outside;
    if (const auto* c = std::get_if<Compound>(&s)) {  // S5: the parts that hit, listed
        std::vector<std::uint32_t> parts;
        for (std::size_t i = 0; i < c->parts.size(); ++i)
            if (shape_vs_grid(c->parts[i], g)) parts.push_back(static_cast<std::uint32_t>(i));
        if ((h ? h->parts : std::vector<std::uint32_t>{}) != parts)
            shape_fail(g, s, "S5: a compound's parts listed are not those that hit the grid", h);
    } else if (h && !h->parts.empty()) {
        shape_fail(g, s, "S5: parts listed for a shape that is not a compound", h);
    }

    std::vector<Cell> want;
    bool want_outside = false;
    if (!brute_force_hit(g, L, s, want, want_outside)) return;
    bool same = want.size() == got.size() && want_outside == got_outside;
    for (std::size_t i = 0; same && i < want.size(); ++i) same = want[i] == got[i];
    if (!same) {
        std::string w = "cells {";
        for (Cell c : want) w += cell_text(c);
        w += std::string("}") + (want_outside ? " outside" : "");
        shape_fail(g, s, "S2-S4: shape_vs_grid disagrees with brute force, which says " + w, h);
    }
}

// Run a check; an exception out of the library is a finding.
template <class F> void guarded(const Grid& g, const std::string& query, F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        fuzz::fail(std::string("the library threw ") + typeid(e).name() + ": " + e.what() + "\n" + grid_text(g) +
                   "query: " + query);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider fdp(data, size);
    Gen gen(fdp);
    static const bool verbose = std::getenv("FUZZ_VERBOSE") != nullptr;  // to read a crasher: FUZZ_VERBOSE=1
    const Grid g = gen.grid();
    if (verbose) std::fprintf(stderr, "%s", grid_text(g).c_str());
    for (int i = 0; i < 6 && fdp.remaining_bytes() > 0; ++i) {
        if (fdp.ConsumeBool()) {
            const Move m = gen.move(g);
            if (verbose) std::fprintf(stderr, "query: %s\n", move_text(m).c_str());
            guarded(g, move_text(m), [&] { check_move(g, m); });
        } else if (const auto s = gen.shape(g)) {
            if (verbose) std::fprintf(stderr, "query: shape %s\n", fuzz::shape_text(*s).c_str());
            guarded(g, "shape " + fuzz::shape_text(*s), [&] { check_shape(g, *s); });
        }
    }
    return 0;
}
