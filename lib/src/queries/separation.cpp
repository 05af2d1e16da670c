// The minimum translation vector of two colliding convex shapes (SPEC §2.7).
//
// Every convex shape is a core grown by a disk: a point (point, circle), a segment (segment,
// capsule) or a convex polygon (rect, polygon), plus a radius (0 but for circle and
// capsule). Moving b by v makes a and b meet exactly when v lies in the Minkowski
// difference M = A - B = P + disk(R), with P = core(a) - core(b) and R = ra + rb, so the
// shortest move that takes v out of M's interior ends at the point of M's boundary nearest
// the origin. For a convex M holding the origin that distance is min over unit u of M's
// support function h_M(u) = h_P(u) + R, and the directions attaining it are the outward
// normals there: the penetration depth of the "configuration space obstacle" (van den
// Bergen, "Proximity queries and penetration depth computation on 3D game objects", GDC
// 2001; for polygons this is the separating axis test, Ericson, "Real-Time Collision
// Detection", 2005). A pair that does not collide has min h_M < 0.
//
// h_P is u . p on the arc of outward normals of each vertex p of P, so its minimum is at an
// end of such an arc (an outward edge normal of P) or at -p / |p| where that lies inside
// p's arc (the origin is outside P and p is its nearest point); when p is the origin itself
// h_P is 0 along p's whole arc, and the tie goes to +x when the arc holds it, else to the
// arc's first end. P is the Minkowski sum of core(a) and -core(b), built in linear time by
// merging their edges by angle (de Berg, Cheong, van Kreveld, Overmars, "Computational
// Geometry", 3rd ed., §13.3); its vertices are sums of input doubles, kept as index pairs.
//
// Exactness: a candidate's depth is R + N / sqrt(Q) (N, Q polynomials in the inputs), so
// which is least, and which tie, is the sign of N1 sqrt(Q2) - N2 sqrt(Q1), decided exactly
// with sign_of_form; ties go to the smallest angle counter-clockwise from +x, compared
// exactly by half-plane and cross product. The normal and the depth written are the exact
// values of the chosen candidate correctly rounded (round_quotient). An interval of each depth
// from Filtered values settles most comparisons before the exact test.
#include "collide/geometry.hpp"

#include "geometry/shape_geo.hpp"
#include "numeric/predicates.hpp"
#include "numeric/rounding.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace collide {
namespace detail {
namespace {

// A convex core, counter-clockwise from its lowest (then leftmost) vertex, with the radius
// grown around it. One vertex is a point, two a segment (its two edges run both ways).
struct Core {
    std::vector<Vec2> v;
    double r = 0.0;
    std::size_t edges() const { return v.size() > 1 ? v.size() : 0; }
    Vec2 from(std::size_t k) const { return v[k]; }
    Vec2 to(std::size_t k) const { return v[k + 1 == v.size() ? 0 : k + 1]; }
};

// Rotate a counter-clockwise ring to start at its lowest, then leftmost, vertex: edge angles
// then rise monotonically through [0, 2 pi), as the merge needs.
Core normalised(std::vector<Vec2> v, double r) {
    const auto lowest = std::min_element(v.begin(), v.end(), [](Vec2 p, Vec2 q) { return p.y < q.y || (p.y == q.y && p.x < q.x); });
    std::rotate(v.begin(), lowest, v.end());
    return Core{std::move(v), r};
}

// The core of a simple polygon's ring when it is convex, else nothing.
std::optional<Core> convex_core(Ring ring) {
    std::vector<Vec2> v(ring.v, ring.v + ring.n);
    // A valid polygon has no repeats; an invalid one must not make a zero-length edge.
    v.erase(std::unique(v.begin(), v.end()), v.end());
    while (v.size() > 1 && v.back() == v.front()) v.pop_back();
    if (v.size() < 3) return std::nullopt;
    if (ring_orientation(Ring{v.data(), v.size()}) < 0) std::reverse(v.begin(), v.end());
    // A simple polygon is convex when it never turns right.
    for (std::size_t k = 0; k < v.size(); ++k)
        if (orient(v[k == 0 ? v.size() - 1 : k - 1], v[k], v[k + 1 == v.size() ? 0 : k + 1]) < 0) return std::nullopt;
    return normalised(std::move(v), 0.0);
}

// Whether a shape may be convex: not a line, ray or polyline (whatever it degenerates to), nor
// a compound.
bool may_be_convex(const Shape& s) {
    const ShapeType t = type_of(s);
    return t != ShapeType::Line && t != ShapeType::Ray && t != ShapeType::Polyline && t != ShapeType::Compound;
}

// The core of a shape that may be convex; nothing for a concave polygon.
std::optional<Core> core_of(const Geo& g) {
    switch (g.kind) {
        case GeoKind::Point: return normalised({g.pt}, 0.0);
        case GeoKind::Disk: return normalised({g.disk.center}, g.disk.radius);
        case GeoKind::Capsule: return normalised({g.capsule.core.p, g.capsule.core.q}, g.capsule.r);
        case GeoKind::Linear: {  // a segment, a rect of zero width or height, a capsule of radius 0
            const Piece& s = g.pieces()[0];
            return normalised({s.p, s.q}, 0.0);
        }
        case GeoKind::Polygon:
            if (g.is_rect) return normalised({g.corners.begin(), g.corners.end()}, 0.0);
            return convex_core(g.ring());
    }
    return std::nullopt;
}

// -core: negation is exact and keeps the ring counter-clockwise.
Core negated(const Core& c) {
    std::vector<Vec2> v;
    v.reserve(c.v.size());
    for (Vec2 p : c.v) v.push_back(Vec2{-p.x, -p.y});
    return normalised(std::move(v), c.r);
}

// 0 for directions at angles in [0, pi), 1 for [pi, 2 pi).
int half(int sx, int sy) { return sy > 0 || (sy == 0 && sx > 0) ? 0 : 1; }

// P = A + W (W = -core(b)): vertex t is a.v[i] + w.v[j], edge t runs from vertex t to t + 1
// along an edge of A or of W.
struct Sum {
    struct Vertex {
        std::size_t i;
        std::size_t j;
    };
    struct Edge {
        bool of_a;
        std::size_t k;
    };
    const Core& a;
    const Core& w;
    std::vector<Vertex> vert;
    std::vector<Edge> edge;

    Vec2 from(const Edge& e) const { return e.of_a ? a.from(e.k) : w.from(e.k); }
    Vec2 to(const Edge& e) const { return e.of_a ? a.to(e.k) : w.to(e.k); }
    template <class T> T px(const Vertex& p) const { return T(a.v[p.i].x) + T(w.v[p.j].x); }
    template <class T> T py(const Vertex& p) const { return T(a.v[p.i].y) + T(w.v[p.j].y); }
    template <class T> T dx(const Edge& e) const { return T(to(e).x) - T(from(e).x); }
    template <class T> T dy(const Edge& e) const { return T(to(e).y) - T(from(e).y); }

    // -1 when e's angle is below f's, 0 when equal, +1 above (angles in [0, 2 pi)).
    int compare_angle(const Edge& e, const Edge& f) const {
        auto sgn = [](double hi, double lo) { return hi > lo ? 1 : (hi < lo ? -1 : 0); };
        const int he = half(sgn(to(e).x, from(e).x), sgn(to(e).y, from(e).y));
        const int hf = half(sgn(to(f).x, from(f).x), sgn(to(f).y, from(f).y));
        if (he != hf) return he < hf ? -1 : 1;
        return -sign_of_low_degree([&](auto z) {
            using T = decltype(z);
            return dx<T>(e) * dy<T>(f) - dy<T>(e) * dx<T>(f);
        });
    }

    Sum(const Core& ca, const Core& cw) : a(ca), w(cw) {
        std::size_t i = 0;
        std::size_t j = 0;
        while (i < a.edges() || j < w.edges()) {
            vert.push_back(Vertex{i % a.v.size(), j % w.v.size()});
            const int c = i == a.edges() ? 1 : j == w.edges() ? -1 : compare_angle(Edge{true, i}, Edge{false, j});
            if (c <= 0) {
                edge.push_back(Edge{true, i++});
                if (c == 0) ++j;  // parallel edges of one direction make one edge of P
            } else {
                edge.push_back(Edge{false, j++});
            }
        }
        if (vert.empty()) vert.push_back(Vertex{0, 0});  // two points: P is a point
    }
};

// A candidate direction u and its depth R + N / sqrt(Q), Q = |u|^2: an outward edge normal
// of P, or -p for a vertex p of P nearest the origin.
struct Candidate {
    bool vertex = false;
    std::size_t t = 0;  // edge or vertex of P
};

// N / sqrt(Q) lies in [lo, hi] (ok false: the doubles could not tell, compare exactly).
struct Range {
    double lo = 0.0;
    double hi = 0.0;
    bool ok = false;
};

struct Candidates {
    const Sum& p;

    template <class T> T ux(const Candidate& c) const {
        return c.vertex ? -p.px<T>(p.vert[c.t]) : p.dy<T>(p.edge[c.t]);
    }
    template <class T> T uy(const Candidate& c) const {
        return c.vertex ? -p.py<T>(p.vert[c.t]) : -p.dx<T>(p.edge[c.t]);
    }
    template <class T> T q(const Candidate& c) const {
        const T x = ux<T>(c);
        const T y = uy<T>(c);
        return x * x + y * y;
    }
    // h_P(u) sqrt(Q): u . (a point of P where u is an outward normal).
    template <class T> T n(const Candidate& c) const {
        if (c.vertex) return -q<T>(c);
        const Sum::Vertex& v = p.vert[c.t];
        return ux<T>(c) * p.px<T>(v) + uy<T>(c) * p.py<T>(v);
    }

    // N / sqrt(Q) from Filtered values, every rounding of the interval outward (2^-50
    // relative and 2^-1070 absolute cover a rounding each, underflow included): the filter
    // that spares most candidates the exact comparison.
    Range range(const Candidate& c) const {
        const Filtered fn = n<Filtered>(c);
        const Filtered fq = q<Filtered>(c);
        constexpr double kUp = 1.0 + 0x1p-50;
        constexpr double kDown = 1.0 - 0x1p-50;
        constexpr double kTiny = 0x1p-1070;
        const double qlo = (fq.v - fq.e) * kDown - kTiny;
        const double qhi = (fq.v + fq.e) * kUp + kTiny;
        if (!(qlo > 0.0) || !std::isfinite(qhi) || !std::isfinite(fn.v) || !std::isfinite(fn.e)) return Range{};
        const double slo = std::sqrt(qlo) * kDown;
        const double shi = std::sqrt(qhi) * kUp;
        auto down = [&](double x) { return (x > 0 ? x * kDown : x * kUp) - kTiny; };
        auto up = [&](double x) { return (x > 0 ? x * kUp : x * kDown) + kTiny; };
        const double nlo = down(fn.v - fn.e);
        const double nhi = up(fn.v + fn.e);
        Range r;
        r.lo = down(nlo / (nlo >= 0 ? shi : slo));
        r.hi = up(nhi / (nhi >= 0 ? slo : shi));
        r.ok = std::isfinite(r.lo) && std::isfinite(r.hi);
        return r;
    }

    // sign(depth(x) - depth(y)) = sign(N1 sqrt(Q2) - N2 sqrt(Q1)); R is common to both.
    int compare_depth(const Candidate& x, const Candidate& y) const {
        return sign_of_form([&](auto z) {
            using T = decltype(z);
            using R = Root<T>;
            const T q2 = q<T>(y);
            return Root<R>{R{T(0.0), n<T>(x), q2}, R{-n<T>(y), T(0.0), q2}, R{q<T>(x), T(0.0), q2}};
        });
    }

    // The signs of u's components.
    int sign_x(const Candidate& c) const {
        return sign_of_low_degree([&](auto z) { return ux<decltype(z)>(c); });
    }
    int sign_y(const Candidate& c) const {
        return sign_of_low_degree([&](auto z) { return uy<decltype(z)>(c); });
    }

    // -1 when x's direction is at a smaller angle counter-clockwise from +x than y's.
    int compare_angle(const Candidate& x, const Candidate& y) const {
        const int hx = half(sign_x(x), sign_y(x));
        const int hy = half(sign_x(y), sign_y(y));
        if (hx != hy) return hx < hy ? -1 : 1;
        return -sign_of_low_degree([&](auto z) {
            using T = decltype(z);
            return ux<T>(x) * uy<T>(y) - uy<T>(x) * ux<T>(y);
        });
    }

    // Whether -p lies strictly inside the arc of outward normals of vertex t of P: p . e_out > 0
    // and p . e_in < 0. On the arc's ends -p is an edge normal, a candidate already. With P a
    // point every direction is such a normal.
    bool normal_at_vertex(std::size_t t) const {
        if (p.edge.empty()) return true;
        const Sum::Vertex& v = p.vert[t];
        auto dot = [&](const Sum::Edge& e) {
            return sign_of_low_degree([&](auto z) {
                using T = decltype(z);
                return p.px<T>(v) * p.dx<T>(e) + p.py<T>(v) * p.dy<T>(e);
            });
        };
        return dot(p.edge[t]) > 0 && dot(p.edge[t == 0 ? p.edge.size() - 1 : t - 1]) < 0;
    }
};

// When the origin is vertex t of P, h_P >= 0 is 0 exactly on the vertex's arc of outward
// normals, from the normal of the edge in to that of the edge out, counter-clockwise: the
// least depth is R along all of it, and the winner is +x when the arc holds it, else the
// normal of the edge in (nothing stands for +x). A straight vertex has the one normal.
std::optional<Candidate> arc_start(const Sum& p, std::size_t t) {
    if (p.edge.empty()) return std::nullopt;
    const Sum::Edge& out = p.edge[t];
    const Sum::Edge& in = p.edge[t == 0 ? p.edge.size() - 1 : t - 1];
    const int turn = sign_of_low_degree([&](auto z) {
        using T = decltype(z);
        return p.dx<T>(in) * p.dy<T>(out) - p.dy<T>(in) * p.dx<T>(out);
    });
    const bool straight = turn == 0 && (p.to(in).x - p.from(in).x > 0) == (p.to(out).x - p.from(out).x > 0) &&
                          (p.to(in).y - p.from(in).y > 0) == (p.to(out).y - p.from(out).y > 0);
    if (straight) return Candidate{false, t};
    // +x . e_out <= 0 and +x . e_in >= 0: the arc (under pi wide, or a half circle for a
    // segment) holds +x.
    if (p.to(out).x <= p.from(out).x && p.to(in).x >= p.from(in).x) return std::nullopt;
    return Candidate{false, t == 0 ? p.edge.size() - 1 : t - 1};
}

// The candidate of least depth, ties to the smallest angle: edge normals first, then the
// directions away from vertices of P nearest the origin. Intervals decide most comparisons.
Candidate least(const Candidates& cands, const Sum& p) {
    std::optional<Candidate> best;
    Range best_range;
    auto consider = [&](const Candidate& c) {
        const Range r = cands.range(c);
        const bool clear = best && r.ok && best_range.ok;
        if (clear && r.lo > best_range.hi) return;
        if (best && !(clear && r.hi < best_range.lo)) {
            const int s = cands.compare_depth(c, *best);
            if (s > 0 || (s == 0 && cands.compare_angle(c, *best) >= 0)) return;
        }
        best = c;
        best_range = r;
    };
    for (std::size_t t = 0; t < p.edge.size(); ++t) consider(Candidate{false, t});
    for (std::size_t t = 0; t < p.vert.size(); ++t)
        if (cands.normal_at_vertex(t)) consider(Candidate{true, t});
    return *best;  // a P with no edge is a point, not the origin: its vertex is a candidate
}

// depth = R + N / sqrt(Q), correctly rounded; +inf beyond the double range. round_quotient's
// own start for inputs beyond DoubleWord's range (subnormal, near 1e308) is the value of that
// form, which cancels when the pair collides only through the radii (N < 0, the depth far
// below R): the search then crawls from a start far off. (R^2 Q - N^2) / (sqrt(Q) (R sqrt(Q)
// - N)) is the same value with the cancellation inside one exact polynomial, so the search
// starts within an ulp or two.
double rounded_depth(const Candidates& cands, const Candidate& c, double ra, double rb) {
    auto f = [&](auto z) {
        using T = decltype(z);
        const T q = cands.q<T>(c);
        return Quotient<Root<T>, T>{Root<T>{(T(ra) + T(rb)) * q, cands.n<T>(c), q}, q};
    };
    const auto fast = f(DoubleWord{});
    if (const std::optional<double> x = round_quickly(fast.num, fast.den)) return *x;
    const auto exact = f(Exact{});
    const Exact r = Exact(ra) + Exact(rb);
    const Exact& n = exact.num.b;
    const Exact& q = exact.den;
    const Scaled root_q = sqrt(q.to_scaled());
    const Scaled start = n.sign() >= 0 ? r.to_scaled() + n.to_scaled() / root_q
                                       : (r * r * q - n * n).to_scaled() / (root_q * (r.to_scaled() * root_q - n.to_scaled()));
    const int fast_den = sign_value(fast.den);
    return round_by_midpoints(
               [&](std::int64_t k) {
                   const int s = above_midpoint(fast.num, fast.den, fast_den, k);
                   return s != Filtered::kUnknown ? s : above_midpoint(exact.num, exact.den, sign_value(exact.den), k);
               },
               start.to_double().value_or(HUGE_VAL))
        .value_or(HUGE_VAL);
}

// Rect against rect, the hot pair: P is the rect [a.min - b.max, a.max - b.min], its edge
// normals are the axes, and the rule above comes down to the least of the four axis depths,
// ties in the order of their angles (+x, +y, -x, -y; at a corner of P that is also the arc's
// winner). Each depth is a difference of two inputs: one IEEE subtraction rounds it.
std::optional<Separation> rect_rect(const Rect& a, const Rect& b) {
    const double d[4][2] = {{a.max.x, b.min.x}, {a.max.y, b.min.y}, {b.max.x, a.min.x}, {b.max.y, a.min.y}};
    const Vec2 dir[4] = {{1.0, 0.0}, {0.0, 1.0}, {-1.0, 0.0}, {0.0, -1.0}};
    int best = 0;
    for (int k = 1; k < 4; ++k) {
        const int s = sign_of_low_degree([&](auto z) {
            using T = decltype(z);
            return (T(d[k][0]) - T(d[k][1])) - (T(d[best][0]) - T(d[best][1]));
        });
        if (s < 0) best = k;
    }
    if (d[best][0] < d[best][1]) return std::nullopt;  // apart along that axis
    return Separation{dir[best], d[best][0] - d[best][1] + 0.0};  // + 0.0: no -0 (-0 - 0)
}

}  // namespace
}  // namespace detail

std::optional<Separation> separation(const Shape& a, const Shape& b) {
    using namespace detail;
    // Only convex shapes have a core (core_of); the others are not reduced.
    if (!may_be_convex(a) || !may_be_convex(b)) return std::nullopt;
    const Geo ga = make_geo(a);
    const Geo gb = make_geo(b);
    if (ga.type == ShapeType::Rect && gb.type == ShapeType::Rect) return rect_rect(ga.rect, gb.rect);
    const std::optional<Core> ca = core_of(ga);
    if (!ca) return std::nullopt;
    const std::optional<Core> cb = core_of(gb);
    if (!cb) return std::nullopt;
    const Core w = negated(*cb);
    const Sum p(*ca, w);
    const Candidates cands{p};

    // The origin on a vertex of P: the shapes touch there (R = 0) or overlap by R exactly.
    const double radii = ca->r + cb->r + 0.0;  // R, correctly rounded (+ 0.0: never -0)
    std::optional<Candidate> best;
    std::optional<double> depth;  // when known without rounding a quotient
    for (std::size_t t = 0; t < p.vert.size() && !best; ++t) {
        const Sum::Vertex& v = p.vert[t];
        if (ca->v[v.i].x != -w.v[v.j].x || ca->v[v.i].y != -w.v[v.j].y) continue;
        const std::optional<Candidate> start = arc_start(p, t);
        if (!start) return Separation{Vec2{1.0, 0.0}, radii};
        best = start;
        depth = radii;
    }
    if (!best) {
        best = least(cands, p);
        // R + N / sqrt(Q) < 0: the origin lies outside M, the shapes do not meet.
        const int s = sign_of_form([&](auto z) {
            using T = decltype(z);
            return Root<T>{cands.n<T>(*best), T(ca->r) + T(cb->r), cands.q<T>(*best)};
        });
        if (s < 0) return std::nullopt;
        if (s == 0) depth = 0.0;
    }
    const Candidate c = *best;

    // The written values: u / |u| and R + N / |u|, correctly rounded.
    const double qd = std::sqrt(cands.q<double>(c));
    auto rounded = [&](auto numerator, double approx) {
        return round_quotient(
                   [&](auto z) {
                       using T = decltype(z);
                       return Quotient<Root<T>, T>{numerator(z), cands.q<T>(c)};
                   },
                   approx)
            .value_or(approx);  // |u / |u|| <= 1: never beyond the range
    };
    Separation out;
    const int sx = cands.sign_x(c);
    const int sy = cands.sign_y(c);
    if (sx == 0 || sy == 0) {  // along an axis
        out.normal = Vec2{static_cast<double>(sx), static_cast<double>(sy)};
    } else {
        out.normal.x = rounded(
            [&](auto z) {
                using T = decltype(z);
                return Root<T>{T(0.0), cands.ux<T>(c), cands.q<T>(c)};
            },
            cands.ux<double>(c) / qd);
        out.normal.y = rounded(
            [&](auto z) {
                using T = decltype(z);
                return Root<T>{T(0.0), cands.uy<T>(c), cands.q<T>(c)};
            },
            cands.uy<double>(c) / qd);
    }
    out.depth = depth ? *depth : rounded_depth(cands, c, ca->r, cb->r);
    return out;
}

}  // namespace collide
