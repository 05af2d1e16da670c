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
// h_P is u . p on the arc of normals of each vertex p of P, so its minimum is at an end of
// such an arc (an outward edge normal of P), at -p / |p| where that lies inside p's arc (the
// origin is outside P and p its nearest point), or along a whole arc when p is the origin
// itself, where +x or the arc's first end is the tie's winner. Those candidates, and +x,
// are all there is to compare. P is the Minkowski sum of core(a) and -core(b), built in
// linear time by merging their edges by angle (de Berg, Cheong, van Kreveld, Overmars,
// "Computational Geometry", 3rd ed., §13.3); its vertices are sums of input doubles and
// are kept as index pairs, never rounded.
//
// Exactness: a candidate's depth is R + N / sqrt(Q) (N, Q polynomials in the inputs), so
// which is least, and which tie, is the sign of N1 sqrt(Q2) - N2 sqrt(Q1), decided exactly
// with sign_of_form; ties go to the smallest angle counter-clockwise from +x, compared
// exactly by half-plane and cross product. The normal and the depth written are the exact
// values of the chosen candidate correctly rounded (round_quotient).
#include "collide/geometry.hpp"

#include "predicates.hpp"
#include "rounding.hpp"

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

// The core of a convex shape; nothing for a shape of another kind or a concave polygon.
std::optional<Core> core_of(const Shape& s) {
    switch (type_of(s)) {
        case ShapeType::Point: return normalised({std::get<Point>(s).at}, 0.0);
        case ShapeType::Circle: return normalised({std::get<Circle>(s).center}, std::get<Circle>(s).radius);
        case ShapeType::Segment: {
            const auto& g = std::get<Segment>(s);
            return normalised(g.a == g.b ? std::vector<Vec2>{g.a} : std::vector<Vec2>{g.a, g.b}, 0.0);
        }
        case ShapeType::Capsule: {
            const auto& c = std::get<Capsule>(s);
            return normalised(c.a == c.b ? std::vector<Vec2>{c.a} : std::vector<Vec2>{c.a, c.b}, c.radius);
        }
        case ShapeType::Rect: {
            const auto& r = std::get<Rect>(s);
            std::vector<Vec2> v{r.min, {r.max.x, r.min.y}, r.max, {r.min.x, r.max.y}};
            // A zero extent is the segment or point it is: drop the repeated corners.
            v.erase(std::unique(v.begin(), v.end()), v.end());
            while (v.size() > 1 && v.back() == v.front()) v.pop_back();
            return normalised(std::move(v), 0.0);
        }
        case ShapeType::Polygon: {
            std::vector<Vec2> v = std::get<Polygon>(s).points;
            if (v.size() < 3) return std::nullopt;
            if (ring_orientation(Ring{v.data(), v.size()}) < 0) std::reverse(v.begin(), v.end());
            // A simple polygon is convex when it never turns right.
            for (std::size_t k = 0; k < v.size(); ++k)
                if (orient(v[k == 0 ? v.size() - 1 : k - 1], v[k], v[k + 1 == v.size() ? 0 : k + 1]) < 0) return std::nullopt;
            return normalised(std::move(v), 0.0);
        }
        default: return std::nullopt;
    }
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

// A candidate direction u and its depth R + N / sqrt(Q), Q = |u|^2.
struct Candidate {
    enum class Kind : std::uint8_t { EdgeNormal, Vertex, PlusX } kind;
    std::size_t t = 0;  // edge or vertex of P
};

struct Candidates {
    const Sum& p;
    std::size_t max_ax = 0;  // the vertices of A and W farthest along +x
    std::size_t max_wx = 0;

    template <class T> T ux(const Candidate& c) const {
        switch (c.kind) {
            case Candidate::Kind::EdgeNormal: return p.dy<T>(p.edge[c.t]);
            case Candidate::Kind::Vertex: return -p.px<T>(p.vert[c.t]);
            default: return T(1.0);
        }
    }
    template <class T> T uy(const Candidate& c) const {
        switch (c.kind) {
            case Candidate::Kind::EdgeNormal: return -p.dx<T>(p.edge[c.t]);
            case Candidate::Kind::Vertex: return -p.py<T>(p.vert[c.t]);
            default: return T(0.0);
        }
    }
    template <class T> T q(const Candidate& c) const {
        if (c.kind == Candidate::Kind::PlusX) return T(1.0);
        const T x = ux<T>(c);
        const T y = uy<T>(c);
        return x * x + y * y;
    }
    // h_P(u) sqrt(Q): u . (a point of P where u is an outward normal).
    template <class T> T n(const Candidate& c) const {
        switch (c.kind) {
            case Candidate::Kind::EdgeNormal: {
                const Sum::Vertex& v = p.vert[c.t];
                return ux<T>(c) * p.px<T>(v) + uy<T>(c) * p.py<T>(v);
            }
            case Candidate::Kind::Vertex: return -q<T>(c);
            default: return T(p.a.v[max_ax].x) + T(p.w.v[max_wx].x);
        }
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

    // -1 when x's direction is at a smaller angle counter-clockwise from +x than y's.
    int compare_angle(const Candidate& x, const Candidate& y) const {
        auto component = [&](const Candidate& c, bool is_y) {
            return sign_of_low_degree([&](auto z) {
                using T = decltype(z);
                return is_y ? uy<T>(c) : ux<T>(c);
            });
        };
        const int hx = half(component(x, false), component(x, true));
        const int hy = half(component(y, false), component(y, true));
        if (hx != hy) return hx < hy ? -1 : 1;
        return -sign_of_low_degree([&](auto z) {
            using T = decltype(z);
            return ux<T>(x) * uy<T>(y) - uy<T>(x) * ux<T>(y);
        });
    }

    // Whether -p lies in the arc of outward normals of vertex t of P (p != 0): p . e_out >= 0
    // and p . e_in <= 0. With P a point, every direction is such a normal.
    bool normal_at_vertex(std::size_t t) const {
        if (p.edge.empty()) return true;
        const Sum::Vertex& v = p.vert[t];
        auto dot = [&](const Sum::Edge& e) {
            return sign_of_low_degree([&](auto z) {
                using T = decltype(z);
                return p.px<T>(v) * p.dx<T>(e) + p.py<T>(v) * p.dy<T>(e);
            });
        };
        return dot(p.edge[t]) >= 0 && dot(p.edge[t == 0 ? p.edge.size() - 1 : t - 1]) <= 0;
    }
};

std::size_t rightmost(const Core& c) {
    return static_cast<std::size_t>(
        std::max_element(c.v.begin(), c.v.end(), [](Vec2 p, Vec2 q) { return p.x < q.x; }) - c.v.begin());
}

}  // namespace
}  // namespace detail

std::optional<Separation> separation(const Shape& a, const Shape& b) {
    using namespace detail;
    const std::optional<Core> ca = core_of(a);
    if (!ca) return std::nullopt;
    const std::optional<Core> cb = core_of(b);
    if (!cb) return std::nullopt;
    const Core w = negated(*cb);
    const Sum p(*ca, w);
    const Candidates cands{p, rightmost(*ca), rightmost(w)};

    // The least depth, ties to the smallest angle; +x first, as it wins every tie it is in.
    Candidate best{Candidate::Kind::PlusX, 0};
    auto consider = [&](const Candidate& c) {
        const int s = cands.compare_depth(c, best);
        if (s < 0 || (s == 0 && cands.compare_angle(c, best) < 0)) best = c;
    };
    for (std::size_t t = 0; t < p.edge.size(); ++t) consider(Candidate{Candidate::Kind::EdgeNormal, t});
    for (std::size_t t = 0; t < p.vert.size(); ++t) {
        const Sum::Vertex& v = p.vert[t];
        const bool origin = ca->v[v.i].x == -w.v[v.j].x && ca->v[v.i].y == -w.v[v.j].y;
        if (!origin && cands.normal_at_vertex(t)) consider(Candidate{Candidate::Kind::Vertex, t});
    }

    // R + N / sqrt(Q) < 0: the origin lies outside M, the shapes do not meet.
    auto radius = [&](auto z) {
        using T = decltype(z);
        return T(ca->r) + T(cb->r);
    };
    if (sign_of_form([&](auto z) {
            using T = decltype(z);
            return Root<T>{cands.n<T>(best), radius(z), cands.q<T>(best)};
        }) < 0)
        return std::nullopt;

    // The written values: u / |u| and R + N / |u|, correctly rounded, from a double start.
    const double qd = std::sqrt(cands.q<double>(best));
    // Only a depth can lie beyond the double range (coordinates near 1e308): it is then +inf.
    auto rounded = [&](auto numerator, double approx) {
        return round_quotient(
                   [&](auto z) {
                       using T = decltype(z);
                       return Quotient<Root<T>, T>{numerator(z), cands.q<T>(best)};
                   },
                   approx)
            .value_or(HUGE_VAL);
    };
    Separation out;
    out.normal.x = rounded(
        [&](auto z) {
            using T = decltype(z);
            return Root<T>{T(0.0), cands.ux<T>(best), cands.q<T>(best)};
        },
        cands.ux<double>(best) / qd);
    out.normal.y = rounded(
        [&](auto z) {
            using T = decltype(z);
            return Root<T>{T(0.0), cands.uy<T>(best), cands.q<T>(best)};
        },
        cands.uy<double>(best) / qd);
    out.depth = rounded(
        [&](auto z) {
            using T = decltype(z);
            const T q = cands.q<T>(best);
            return Root<T>{radius(z) * q, cands.n<T>(best), q};
        },
        ca->r + cb->r + cands.n<double>(best) / qd);
    return out;
}

}  // namespace collide
