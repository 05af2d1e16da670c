// Capsule outline points (see capsule.hpp): where a capsule's outline meets a straight piece,
// a circle or another capsule's outline. Which of them exist (a side's crossing lying on the
// side, on a cap's half) is decided by exact signs of sums of square roots, removed by
// squaring; each coordinate is then the exact value correctly rounded (SPEC §2.3,
// rounding.hpp), starting from the point computed in doubles. capsule.cpp decides first,
// exactly, whether the shapes meet at all.
#include "geometry/capsule_points.hpp"

#include "geometry/pieces.hpp"
#include "numeric/rounding.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace collide::detail {

namespace {

// ---- exact signs on the outline ----------------------------------------------------------

// Sign of cross(d, e - a) - (k1 + k2) |d| for the core a-b, d = b - a: where e lies against
// the line parallel to the core at signed distance k1 + k2 (positive: left). |d| is
// irrational, so the comparison squares both sides when their signs agree.
int offset_side(const Piece& core, Vec2 e, double k1, double k2) {
    auto cross = [&](auto z) {
        using T = decltype(z);
        return dir_x<T>(core) * (T(e.y) - T(core.p.y)) - dir_y<T>(core) * (T(e.x) - T(core.p.x));
    };
    const int sx = sign_of_low_degree(cross);
    const int sk = sign_of_low_degree([&](auto z) { return decltype(z)(k1) + decltype(z)(k2); });
    if (sk == 0) return sx;
    if (sx == 0) return -sk;
    if (sx != sk) return sx;
    const int c = sign_of_low_degree([&](auto z) {
        using T = decltype(z);
        const T x = cross(z);
        const T k = T(k1) + T(k2);
        const T dx = dir_x<T>(core);
        const T dy = dir_y<T>(core);
        return x * x - k * k * (dx * dx + dy * dy);
    });
    return sx > 0 ? c : -c;
}

// Sign of U + V sqrt(Z) for polynomials U, V and Z > 0: squared when the signs differ.
template <class FU, class FV, class FZ>
int sign_plus_sqrt(FU&& u, FV&& v, FZ&& z) {
    const int su = sign_of(u);
    const int sv = sign_of(v);
    if (sv == 0 || su == sv) return su;
    if (su == 0) return sv;
    const int c = sign_of([&](auto zero) {
        const auto uu = u(zero);
        const auto vv = v(zero);
        return uu * uu - vv * vv * z(zero);
    });
    return su > 0 ? c : -c;
}

// Where the end of side sb of B at its core end e lies against the line of side sa of A:
// the sign of its offset along A's left normal. That end is e + sb rB nB, with nB =
// perp(dB) / |dB|, and cross(dA, perp(dB)) = dA . dB, so the offset times |dA| |dB| is
//     g = sqrt(B2) (X - sa rA sqrt(A2)) + sb rB (dA . dB),   X = cross(dA, e - aA),
// A2 = |dA|^2, B2 = |dB|^2: nested square roots, each removed by squaring (Y below is
// X - sa rA sqrt(A2), and Y^2 = X^2 + rA^2 A2 - 2 sa rA X sqrt(A2)).
// The point e on B's core line is given as two polynomials ex, ey.
template <class EX, class EY>
int side_point_vs_side(const CapsuleRef& A, int sa, const CapsuleRef& B, int sb, EX&& ex, EY&& ey) {
    const Piece& ca = A.core;
    const Piece& cb = B.core;
    const double k = -sa * A.r;  // exact: a sign change
    const double m = sb * B.r;
    auto x = [&](auto z) {
        using T = decltype(z);
        return dir_x<T>(ca) * (ey(z) - T(ca.p.y)) - dir_y<T>(ca) * (ex(z) - T(ca.p.x));
    };
    auto kk = [&](auto z) { return decltype(z)(k); };
    auto a2 = [&](auto z) {
        using T = decltype(z);
        return dir_x<T>(ca) * dir_x<T>(ca) + dir_y<T>(ca) * dir_y<T>(ca);
    };
    auto b2 = [&](auto z) {
        using T = decltype(z);
        return dir_x<T>(cb) * dir_x<T>(cb) + dir_y<T>(cb) * dir_y<T>(cb);
    };
    auto c = [&](auto z) {
        using T = decltype(z);
        return T(m) * (dir_x<T>(ca) * dir_x<T>(cb) + dir_y<T>(ca) * dir_y<T>(cb));
    };
    const int sy = sign_plus_sqrt(x, kk, a2);
    const int sc = sign_of(c);
    if (sc == 0 || sc == sy) return sy;
    if (sy == 0) return sc;
    // sign(c^2 - B2 Y^2) = sign(U + V sqrt(A2)).
    auto u = [&](auto z) {
        using T = decltype(z);
        const T cc = c(z);
        const T xx = x(z);
        return cc * cc - b2(z) * (xx * xx + T(k) * T(k) * a2(z));
    };
    auto v = [&](auto z) {
        using T = decltype(z);
        return T(-2.0) * T(k) * x(z) * b2(z);
    };
    const int s = sign_plus_sqrt(u, v, a2);
    return sc > 0 ? s : -s;
}

int side_end_vs_side(const CapsuleRef& A, int sa, const CapsuleRef& B, int sb, Vec2 e) {
    return side_point_vs_side(A, sa, B, sb, [&](auto z) { return decltype(z)(e.x); }, [&](auto z) { return decltype(z)(e.y); });
}

int cross_dirs(const Piece& s, const Piece& t) {
    return sign_of_low_degree([&](auto z) {
        using T = decltype(z);
        return dir_x<T>(s) * dir_y<T>(t) - dir_y<T>(s) * dir_x<T>(t);
    });
}

int dot_dirs(const Piece& s, const Piece& t) {
    return sign_of_low_degree([&](auto z) {
        using T = decltype(z);
        return dir_x<T>(s) * dir_x<T>(t) + dir_y<T>(s) * dir_y<T>(t);
    });
}

// ---- exact points ------------------------------------------------------------------------
// Each coordinate below is a Quotient over the number type T (rounding.hpp) of the exact
// value; d = b - a is a core's direction, A2 = |d|^2, and n = perp(d) / |d|, perp(d) =
// (-d.y, d.x), its left normal, so that side s's line is cross(d, x - a) = s r |d|.

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The point whose exact coordinates f gives (a PointQuotient), each correctly rounded
// (round_point); near() gives the point in doubles (however far off, even non-finite) for
// a search to start from, and is called only when the DoubleWord value does not settle a
// coordinate. A coordinate known exactly (an input value) is taken as is. NaN beyond the
// double range: Sink and push_finite drop it.
template <class F, class Near>
Vec2 rounded_point(const F& f, const Near& near, std::optional<double> known_x = std::nullopt,
                   std::optional<double> known_y = std::nullopt) {
    const std::optional<Vec2> x = round_point(f, [&] { return std::optional<Vec2>(near()); }, known_x, known_y);
    return x ? *x : Vec2{kNaN, kNaN};
}

// The end of side s at the core's end e: e + s r perp(d) / |d|, that is
//     x = (e.x A2 - s r d.y sqrt(A2)) / A2,  y = (e.y A2 + s r d.x sqrt(A2)) / A2;
// a horizontal core gives x, a vertical one y: e's own.
Vec2 side_end(const CapsuleRef& k, const Frame& f, bool at_b, int s) {
    const Piece& c = k.core;
    const Vec2 e = at_b ? c.q : c.p;
    const double sr = s * k.r;
    auto point = [&](auto z) {
        using T = decltype(z);
        const T dx = dir_x<T>(c);
        const T dy = dir_y<T>(c);
        const T a2 = dx * dx + dy * dy;
        return PointQuotient<Root<T>, T>{Root<T>{T(e.x) * a2, T(-sr) * dy, a2}, Root<T>{T(e.y) * a2, T(sr) * dx, a2}, a2};
    };
    return rounded_point(point, [&] { return f.end(at_b, s); }, c.p.y == c.q.y ? std::optional(e.x) : std::nullopt,
                         c.p.x == c.q.x ? std::optional(e.y) : std::nullopt);
}

// The crossing of the lines of side sa of A and side sb of B (not parallel). On each,
// cross(d, x) = R with R = cross(d, a) + s r |d|, so by Cramer's rule
//     x = (dB.x RA - dA.x RB) / cross(dA, dB),  y = (dB.y RA - dA.y RB) / cross(dA, dB):
// two different square roots, |dA| the inner one and |dB| the outer.
template <class Near>
Vec2 side_side_point(const CapsuleRef& A, int sa, const CapsuleRef& B, int sb, const Near& near) {
    const Piece& ca = A.core;
    const Piece& cb = B.core;
    auto point = [&](auto z) {
        using T = decltype(z);
        using R = Root<T>;
        const T ax = dir_x<T>(ca);
        const T ay = dir_y<T>(ca);
        const T bx = dir_x<T>(cb);
        const T by = dir_y<T>(cb);
        const T a2 = ax * ax + ay * ay;
        const T zero(0.0);
        const R b2{bx * bx + by * by, zero, a2};
        const T xa = ax * T(ca.p.y) - ay * T(ca.p.x);  // cross(dA, aA)
        const T xb = bx * T(cb.p.y) - by * T(cb.p.x);
        const T ka(sa * A.r);
        const T kb(-sb * B.r);
        auto coordinate = [&](const T& ea, const T& eb) {  // (eb RA - ea RB), from dA's and dB's coordinates
            return Root<R>{R{eb * xa - ea * xb, eb * ka, a2}, R{ea * kb, zero, a2}, b2};
        };
        return PointQuotient<Root<R>, T>{coordinate(ax, bx), coordinate(ay, by), ax * by - ay * bx};
    };
    return rounded_point(point, near);
}

// ---- the outline in doubles --------------------------------------------------------------

bool on_arc(const Arc& arc, Vec2 x, double tol) {
    if (!arc.half) return true;
    const Vec2 away = arc.c - arc.other;
    return dot(x - arc.c, away) >= -tol * std::hypot(away.x, away.y);
}

// The polynomials of the chord a side's line (the core c offset by r) cuts from an arc's
// circle, as generic expressions for sign_of and value_of: X = cross(d, centre - a),
// A2 = |d|^2 and P = A2 (rho^2 - r^2) - X^2 (half_chord and side_arc).
struct ChordTerms {
    const Piece& c;
    const Arc& arc;
    double r;
    auto x() const {
        return [this](auto z) {
            using T = decltype(z);
            return dir_x<T>(c) * (T(arc.c.y) - T(c.p.y)) - dir_y<T>(c) * (T(arc.c.x) - T(c.p.x));
        };
    }
    auto a2() const {
        return [this](auto z) {
            using T = decltype(z);
            return dir_x<T>(c) * dir_x<T>(c) + dir_y<T>(c) * dir_y<T>(c);
        };
    }
    auto p() const {
        return [this](auto z) {
            using T = decltype(z);
            const T xx = x()(z);
            return a2()(z) * (T(arc.r) * T(arc.r) - T(r) * T(r)) - xx * xx;
        };
    }
};

// Half the chord that side s's line cuts from the arc's circle (radius rho), given that it
// cuts one. With the centre at offset h = X / |d| - s r from that line (X = cross(d, c - a)),
// |d|^2 (rho^2 - h^2) = P + Q, P = |d|^2 (rho^2 - r^2) - X^2, Q = 2 s r X |d|. Near
// tangency P and Q cancel, and a rounded h would move the points by sqrt(rho ulp): then
// P + Q = (P^2 - Q^2) / (P - Q), whose numerator is a polynomial, computed exactly rounded.
double half_chord(const CapsuleRef& k, int s, const Arc& arc) {
    const Piece& c = k.core;
    const ChordTerms terms{c, arc, k.r};
    const auto x = terms.x();
    const auto a2 = terms.a2();
    const auto p_expr = terms.p();
    const double len2 = value_of(a2);
    const double p = value_of(p_expr);
    const double q = 2.0 * s * k.r * value_of(x) * std::sqrt(len2);
    double w = p + q;
    if ((p < 0) != (q < 0) && std::fabs(w) < 1e-3 * std::fabs(p)) {
        const double pq = value_of([&](auto z) {
            using T = decltype(z);
            const T pp = p_expr(z);
            const T xx = x(z);
            return pp * pp - T(4.0) * T(k.r) * T(k.r) * xx * xx * a2(z);
        });
        w = pq / (p - q);
    }
    return std::sqrt(std::max(0.0, w) / len2);
}

}  // namespace


// Side s of capsule k against an arc. With X = cross(d, c - a), A2 = |d|^2 and the
// circle's centre c at offset h = (X - s r sqrt(A2)) / sqrt(A2) from the side's line, the
// line meets the circle at foot + j half u (j = -1, 1; j = 0 when tangent), where
// W = A2 half^2 = P + 2 s r X sqrt(A2), P = A2 (rho^2 - r^2) - X^2. Whether such a point
// lies on the side (between a and b along d) and on the arc's half are signs of sums of
// square roots, each decided exactly by squaring. The point itself, foot - h n + j half u,
// is exactly
//     x = (c.x A2 + X d.y - s r d.y sqrt(A2) + j d.x sqrt(W)) / A2,
//     y = (c.y A2 - X d.x + s r d.x sqrt(A2) + j d.y sqrt(W)) / A2:
// a square root inside a square root (sqrt(A2) within W), each coordinate correctly rounded.
void side_arc(const CapsuleRef& k, const Frame& f, int s, const Arc& arc, Sink& out) {
    const double h = f.offset(arc.c) - s * k.r;  // centre's offset from the side's line
    const int far_side = out.sure(h - arc.r, [&] { return offset_side(k.core, arc.c, s * k.r, arc.r); });
    const int near_side = out.sure(h + arc.r, [&] { return offset_side(k.core, arc.c, s * k.r, -arc.r); });
    if (far_side > 0 || near_side < 0) return;
    const bool tangent = far_side == 0 || near_side == 0;
    const Piece& c = k.core;
    const double sr = s * k.r;
    const ChordTerms terms{c, arc, k.r};
    const auto x = terms.x();
    const auto a2 = terms.a2();
    const auto p_expr = terms.p();
    auto v_expr = [&](auto z) {  // -2 s r X: W = P - v sqrt(A2)
        using T = decltype(z);
        return T(-2.0) * T(sr) * x(z);
    };
    // Sign of g + j sqrt(W) for a polynomial g.
    auto plus_root = [&](auto&& g, int j) {
        const int sg = sign_of(g);
        if (j == 0 || sg == 0 || sg == j) return j != 0 ? j : sg;
        const int cmp = sign_plus_sqrt(
            [&](auto z) {
                const auto gg = g(z);
                return gg * gg - p_expr(z);
            },
            v_expr, a2);  // sign of g^2 - W
        return cmp > 0 ? sg : (cmp < 0 ? j : 0);
    };
    auto on_side = [&](int j) {
        auto from = [&](const Vec2& e) {
            return [&, e](auto z) {
                using T = decltype(z);
                return dir_x<T>(c) * (T(arc.c.x) - T(e.x)) + dir_y<T>(c) * (T(arc.c.y) - T(e.y));
            };
        };
        return plus_root(from(c.p), j) >= 0 && plus_root(from(c.q), j) <= 0;
    };
    // (x - e) . away times sqrt(A2) is -(X - s r sqrt(A2)) alpha + j sqrt(W) beta, with
    // alpha = cross(d, away) and beta = d . away.
    auto on_half = [&](int j) {
        if (!arc.half) return true;
        auto away_x = [&](auto z) { return decltype(z)(arc.c.x) - decltype(z)(arc.other.x); };
        auto away_y = [&](auto z) { return decltype(z)(arc.c.y) - decltype(z)(arc.other.y); };
        auto alpha = [&](auto z) { return dir_x<decltype(z)>(c) * away_y(z) - dir_y<decltype(z)>(c) * away_x(z); };
        auto beta = [&](auto z) { return dir_x<decltype(z)>(c) * away_x(z) + dir_y<decltype(z)>(c) * away_y(z); };
        const int t1 = -offset_side(c, arc.c, sr, 0.0) * sign_of(alpha);
        const int t2 = j * sign_of(beta);
        if (t1 == 0 || t2 == 0 || t1 == t2) return t1 + t2 >= 0;
        const int m = sign_plus_sqrt(
            [&](auto z) {
                using T = decltype(z);
                const T al = alpha(z);
                const T be = beta(z);
                const T xx = x(z);
                return p_expr(z) * be * be - (xx * xx + T(k.r) * T(k.r) * a2(z)) * al * al;
            },
            [&](auto z) {
                using T = decltype(z);
                const T al = alpha(z);
                const T be = beta(z);
                return T(2.0) * T(sr) * x(z) * (be * be + al * al);
            },
            a2);  // sign of W beta^2 - (X - s r sqrt(A2))^2 alpha^2
        return (m > 0 ? t2 : (m < 0 ? t1 : 0)) >= 0;
    };
    const Vec2 foot = arc.c - h * f.n;
    const double half = tangent ? 0.0 : half_chord(k, s, arc);
    const Vec2 away = arc.c - arc.other;
    const double away_len = std::hypot(away.x, away.y);
    auto point = [&](int j) {
        return [&, j](auto z) {
            using T = decltype(z);
            using R = Root<T>;
            const T dx = dir_x<T>(c);
            const T dy = dir_y<T>(c);
            const T dd = dx * dx + dy * dy;
            const T xx = x(z);
            const T zero(0.0);
            const T jj(static_cast<double>(j));
            const R w{p_expr(z), T(2.0) * T(sr) * xx, dd};
            return PointQuotient<Root<R>, T>{Root<R>{R{T(arc.c.x) * dd + xx * dy, T(-sr) * dy, dd}, R{jj * dx, zero, dd}, w},
                                             Root<R>{R{T(arc.c.y) * dd - xx * dx, T(sr) * dx, dd}, R{jj * dy, zero, dd}, w}, dd};
        };
    };
    for (int j : {-1, 0, 1}) {
        if ((j == 0) != tangent) continue;
        const Vec2 pt = foot + (j * half) * f.u;
        const double t = dot(pt - f.a, f.u);
        if (out.sure(std::min(t, f.len - t), [&] { return on_side(j) ? 1 : -1; }) < 0) continue;
        if (arc.half && out.sure(dot(pt - arc.c, away) / away_len, [&] { return on_half(j) ? 1 : -1; }) < 0) continue;
        out.add(rounded_point(point(j), [&] { return pt; }));
    }
}

namespace {


// Two circles p and q meet at x = p.c + (k D + j sqrt(H) perp(D)) / (2 |D|^2), j = +1, -1
// (0 when tangent), where D = q.c - p.c, k = |D|^2 + rp^2 - rq^2 and H = 4 |D|^2 rp^2 - k^2
// (circle_circle_points gives them in that order). Whether x lies on an arc's half about
// e = p.c or q.c is the sign of (x - e) . away times 2 |D|^2:
//     (k - m 2 |D|^2) (D . away) + j sqrt(H) (perp(D) . away),  m = 0 for p, 1 for q,
// decided exactly by squaring.
int arc_half_side(const Arc& p, const Arc& q, const Arc& on, int j) {
    if (!on.half) return 1;
    const double m = on.c == p.c ? 0.0 : 1.0;
    auto dx = [&](auto z) { return decltype(z)(q.c.x) - decltype(z)(p.c.x); };
    auto dy = [&](auto z) { return decltype(z)(q.c.y) - decltype(z)(p.c.y); };
    auto d2 = [&](auto z) { return dx(z) * dx(z) + dy(z) * dy(z); };
    auto k = [&](auto z) {
        using T = decltype(z);
        return d2(z) + T(p.r) * T(p.r) - T(q.r) * T(q.r);
    };
    auto ax = [&](auto z) { return decltype(z)(on.c.x) - decltype(z)(on.other.x); };
    auto ay = [&](auto z) { return decltype(z)(on.c.y) - decltype(z)(on.other.y); };
    auto u = [&](auto z) {
        using T = decltype(z);
        return (k(z) - T(2.0 * m) * d2(z)) * (dx(z) * ax(z) + dy(z) * ay(z));
    };
    auto v = [&](auto z) {
        using T = decltype(z);
        return T(static_cast<double>(j)) * (dx(z) * ay(z) - dy(z) * ax(z));
    };
    auto h = [&](auto z) {
        using T = decltype(z);
        const T kk = k(z);
        return T(4.0) * d2(z) * T(p.r) * T(p.r) - kk * kk;
    };
    return j == 0 ? sign_of(u) : sign_plus_sqrt(u, v, h);
}

}  // namespace

void arc_arc(const Arc& p, const Arc& q, Sink& out) {
    const int ext = point_point_vs(p.c, q.c, p.r, q.r);
    if (ext > 0) return;
    const int in = ext < 0 ? point_point_vs(p.c, q.c, p.r, -q.r) : 1;
    thread_local std::vector<Vec2> buffer;  // at most 2 points: reserved once a thread
    buffer.clear();
    circle_circle_points(Circle{p.c, p.r}, Circle{q.c, q.r}, ext, in, buffer);
    const bool tangent = ext == 0 || in == 0;
    for (std::size_t i = 0; i < buffer.size(); ++i) {
        const Vec2& x = buffer[i];
        if (buffer.size() == 2 || tangent) {
            const int j = tangent ? 0 : (i == 0 ? 1 : -1);
            auto half_side = [&](const Arc& on) {
                if (!on.half) return 1;
                const Vec2 away = on.c - on.other;
                return out.sure(dot(x - on.c, away) / std::hypot(away.x, away.y), [&] { return arc_half_side(p, q, on, j); });
            };
            if (half_side(p) >= 0 && half_side(q) >= 0) out.add(x);
        } else if (on_arc(p, x, out.tol()) && on_arc(q, x, out.tol())) {  // one point left out
            out.add(x);
        }
    }
}

namespace {


// The parameter t in (0, 1) along side sa of A where it crosses the line of side sb of B,
// given the signs s0 and s1 (opposite, nonzero) of its ends against that line. In doubles
// when the sides meet at a clear angle; nearly parallel sides cross far from where rounded
// lines would, so then by bisection on the exact sign at a + t (b - a).
double side_crossing(const CapsuleRef& A, const Frame& fa, int sa, const CapsuleRef& B, const Frame& fb, int sb, int s0) {
    const Vec2 p = fa.end(false, sa);
    const Vec2 rv = fa.end(true, sa) - p;
    const Vec2 q = fb.end(false, sb);
    const Vec2 sv = fb.end(true, sb) - q;
    if (std::fabs(cross(fa.u, fb.u)) > 1e-6) return std::clamp(cross(q - p, sv) / cross(rv, sv), 0.0, 1.0);
    double lo = 0.0;
    double hi = 1.0;
    while (true) {
        const double mid = 0.5 * (lo + hi);
        if (hi - lo <= 0x1p-53) return mid;  // t to the last bit of 1: no further
        const Piece& c = A.core;
        const int sm = side_point_vs_side(
            B, sb, A, sa, [&](auto z) { return decltype(z)(c.p.x) + decltype(z)(mid) * dir_x<decltype(z)>(c); },
            [&](auto z) { return decltype(z)(c.p.y) + decltype(z)(mid) * dir_y<decltype(z)>(c); });
        if (sm == 0) return mid;
        (sm == s0 ? lo : hi) = mid;
    }
}

}  // namespace


// Side sa of capsule A against side sb of B. Parallel sides on one line share a piece
// (decided exactly); its ends are side ends.
void side_side(const CapsuleRef& A, const Frame& fa, int sa, const CapsuleRef& B, const Frame& fb, int sb, Sink& out) {
    if (cross_dirs(A.core, B.core) == 0) {
        const bool same = dot_dirs(A.core, B.core) > 0;
        const int sb_in_a = same ? sb : -sb;  // B's side as seen along A's direction
        if (offset_side(A.core, B.core.p, sa * A.r, -sb_in_a * B.r) != 0) return;
        const Vec2 b_start = same ? B.core.p : B.core.q;  // B's core ends along A's direction
        const Vec2 b_stop = same ? B.core.q : B.core.p;
        const bool lo_b = along(A.core, A.core.p, b_start) >= 0;
        const bool hi_b = along(A.core, A.core.q, b_stop) <= 0;
        const Vec2 lo_core = lo_b ? b_start : A.core.p;
        const Vec2 hi_core = hi_b ? b_stop : A.core.q;
        const int c = along(A.core, lo_core, hi_core);
        if (c < 0) return;
        out.add(lo_b ? side_end(B, fb, !same, sb) : side_end(A, fa, false, sa));
        if (c > 0) out.add(hi_b ? side_end(B, fb, same, sb) : side_end(A, fa, true, sa));
        return;
    }
    // Not parallel: they cross when the ends of each lie on both sides of the other's line
    // (decided exactly: nearly collinear sides must not cross by rounding).
    // Offsets of the side ends from the other side's line, in doubles where they are clear.
    auto end_vs = [&](const CapsuleRef& X, const Frame& fx, int sx, const CapsuleRef& Y, const Frame& fy, int sy, bool at_b) {
        const double v = dot(fy.end(at_b, sy) - fx.end(false, sx), fx.n);
        return out.sure(v, [&] { return side_end_vs_side(X, sx, Y, sy, at_b ? Y.core.q : Y.core.p); });
    };
    const int b0 = end_vs(A, fa, sa, B, fb, sb, false);
    const int b1 = end_vs(A, fa, sa, B, fb, sb, true);
    if (b0 * b1 > 0) return;
    const int a0 = end_vs(B, fb, sb, A, fa, sa, false);
    const int a1 = end_vs(B, fb, sb, A, fa, sa, true);
    if (a0 * a1 > 0) return;
    if (b0 == 0 || b1 == 0 || a0 == 0 || a1 == 0) {  // at a side's end
        out.add(b0 == 0 ? side_end(B, fb, false, sb) : b1 == 0 ? side_end(B, fb, true, sb) : a0 == 0 ? side_end(A, fa, false, sa) : side_end(A, fa, true, sa));
        return;
    }
    // In doubles, for a search to start from: along the shorter side, whose t times its
    // length stays accurate.
    auto near = [&] {
        if (fb.len < fa.len) {
            const Vec2 q = fb.end(false, sb);
            return q + side_crossing(B, fb, sb, A, fa, sa, b0) * (fb.end(true, sb) - q);
        }
        const Vec2 p = fa.end(false, sa);
        return p + side_crossing(A, fa, sa, B, fb, sb, a0) * (fa.end(true, sa) - p);
    };
    out.add(side_side_point(A, sa, B, sb, near));
}

namespace {

// ---- a straight piece against the outline ------------------------------------------------

// A piece's direction times k1 k2, powers of two that bring its largest component to
// [0.5, 1): exact, and far from underflow (a subnormal direction) and overflow.
struct ScaledDir {
    Vec2 v;
    double k1 = 1.0;
    double k2 = 1.0;
    explicit ScaledDir(const Piece& s) : v{dir_x<double>(s), dir_y<double>(s)} {
        if (!std::isfinite(v.x) || !std::isfinite(v.y)) {  // q - p beyond the double range
            v = Vec2{0.5 * s.q.x - 0.5 * s.p.x, 0.5 * s.q.y - 0.5 * s.p.y};
            k1 = 0.5;
        }
        int e = 0;
        std::frexp(std::max(std::fabs(v.x), std::fabs(v.y)), &e);
        k1 *= std::ldexp(1.0, -e / 2);
        k2 = std::ldexp(1.0, -e - (-e / 2));
        v = Vec2{std::ldexp(v.x, -e), std::ldexp(v.y, -e)};
    }
};

void push_finite(std::vector<Vec2>& pts, Vec2 x) {
    if (std::isfinite(x.x) && std::isfinite(x.y)) pts.push_back(x);
}

// The foot of the perpendicular from e on the piece's line: e moved by its offset from the
// line, cross(v, e - p) / |v|^2 along perp(v) (not p + t v, which loses e's digits when p
// lies far away), the cross product exactly rounded when p lies beyond 1e150 from e.
Vec2 foot_on(const Piece& s, const ScaledDir& sd, Vec2 e) {
    const Vec2 ep = e - s.p;
    const double cr = magnitude(ep) < 1e150 ? cross(sd.v, ep) : value_of([&](auto z) {
        using T = decltype(z);
        return dir_x<T>(s) * T(sd.k1) * T(sd.k2) * (T(e.y) - T(s.p.y)) - dir_y<T>(s) * T(sd.k1) * T(sd.k2) * (T(e.x) - T(s.p.x));
    });
    const double k = cr / dot(sd.v, sd.v);
    return Vec2{e.x + k * sd.v.y, e.y - k * sd.v.x};
}

// The parameters t where the piece's line, as F + t W, crosses the lines of the capsule's
// left and right sides (W the piece's scaled direction, exact, and F the exact foot on its
// line of the core end e; o is F rounded). Not from o's offset in doubles: a line at a small
// angle to the sides crosses them where a one-ulp shift of either line moves the crossing by
// that ulp over the angle (with a subnormal angle, from one end of a side to the other). With
// D the core's direction, F - e = H perp(W) / |W|^2, and the side s lies at offset s r:
//     H G / |W|^2 + t C = s r |D|,   H = cross(W, p - e), G = D . W, C = cross(D, W),
// all polynomials, rounded once from their exact values. Where F lies near the side, s r |D|
// |W|^2 - H G cancels; it is then (r^2 |D|^2 |W|^4 - H^2 G^2) / (s r |D| |W|^2 + H G), whose
// numerator is a polynomial too. In Scaled (C may be subnormal, a core near DBL_MAX); a
// crossing beyond the double range is +-inf. The piece must not be parallel to the core.
std::array<double, 2> side_params(const Piece& s, const Frame& f, const ScaledDir& sd, Vec2 e) {
    const Piece& c = f.core;
    auto wx = [&](auto z) { return dir_x<decltype(z)>(s) * decltype(z)(sd.k1) * decltype(z)(sd.k2); };
    auto wy = [&](auto z) { return dir_y<decltype(z)>(s) * decltype(z)(sd.k1) * decltype(z)(sd.k2); };
    auto w2 = [&](auto z) { return wx(z) * wx(z) + wy(z) * wy(z); };
    auto d2 = [&](auto z) { return dir_x<decltype(z)>(c) * dir_x<decltype(z)>(c) + dir_y<decltype(z)>(c) * dir_y<decltype(z)>(c); };
    auto hg = [&](auto z) {
        using T = decltype(z);
        const T h = wx(z) * (T(s.p.y) - T(e.y)) - wy(z) * (T(s.p.x) - T(e.x));
        return h * (dir_x<T>(c) * wx(z) + dir_y<T>(c) * wy(z));
    };
    const Scaled ww = scaled_of(w2);
    const Scaled rdw = Scaled::of(f.r) * sqrt(scaled_of(d2)) * ww;  // r |D| |W|^2
    const Scaled y = scaled_of(hg);
    const Scaled cw = scaled_of([&](auto z) { return dir_x<decltype(z)>(c) * wy(z) - dir_y<decltype(z)>(c) * wx(z); }) * ww;
    auto at = [&](int side) {
        const Scaled srdw = side > 0 ? rdw : -rdw;
        const Scaled num = srdw.m * y.m <= 0 ? srdw - y : scaled_of([&](auto z) {
            using T = decltype(z);
            const T k = w2(z);
            const T v = hg(z);
            return T(f.r) * T(f.r) * d2(z) * k * k - v * v;
        }) / (srdw + y);
        const Scaled t = num / cw;
        const std::optional<double> v = t.to_double();
        return v ? *v : std::copysign(std::numeric_limits<double>::infinity(), t.m);
    };
    return {at(1), at(-1)};
}

// Where the piece's line, as x(t) = o + t v (v its scaled direction, o the foot of a core
// end e, near the capsule), enters and leaves the capsule: the capsule is the union of the
// two end disks and the core's rectangle, so the line's part in it runs from the least
// entry to the greatest exit. In doubles, but for the crossings of the sides (side_params):
// the start of span_point's search, when one is needed.
struct LineSpan {
    Vec2 o;
    double lo;
    double hi;
};
LineSpan line_span(const Piece& s, const Frame& f, const ScaledDir& sd) {
    const Vec2 v = sd.v;
    const double vv = dot(v, v);
    // The foot of the core's end nearer the piece's first point (a core may be huge).
    const Vec2 near_end = magnitude(f.b - s.p) < magnitude(f.a - s.p) ? f.b : f.a;
    const Vec2 o = foot_on(s, sd, near_end);
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    auto disk = [&](Vec2 e, bool force) {
        const double t0 = -dot(o - e, v) / vv;
        // r^2 |v|^2 - cross(v, p - e)^2 exactly rounded: near tangency a rounded cross
        // product would move the points by sqrt(r ulp).
        const double q = value_of([&](auto z) {
            using T = decltype(z);
            const T dx = dir_x<T>(s) * T(sd.k1) * T(sd.k2);
            const T dy = dir_y<T>(s) * T(sd.k1) * T(sd.k2);
            const T cr = dx * (T(s.p.y) - T(e.y)) - dy * (T(s.p.x) - T(e.x));
            return T(f.r) * T(f.r) * (dx * dx + dy * dy) - cr * cr;
        });
        if (q < 0 && !force) return;
        const double h = std::sqrt(std::max(0.0, q)) / vv;
        lo = std::min(lo, t0 - h);
        hi = std::max(hi, t0 + h);
    };
    disk(f.a, false);
    disk(f.b, false);
    // The rectangle: 0 <= (x - a).u <= len and |(x - a).n| <= r, clipped slab by slab.
    double t_lo = -std::numeric_limits<double>::infinity();
    double t_hi = -t_lo;
    auto clip = [&](double t1, double t2) {
        if (t1 > t2) std::swap(t1, t2);
        t_lo = std::max(t_lo, t1);
        t_hi = std::min(t_hi, t2);
    };
    auto slab = [&](double at, double rate, double from, double to) {
        if (rate == 0.0) {
            if (at < from || at > to) t_hi = -std::numeric_limits<double>::infinity();
            return;
        }
        clip((from - at) / rate, (to - at) / rate);
    };
    // Along the core, from a (>= 0) and from b (<= 0), each measured from its own end.
    const double rate = dot(v, f.u);
    slab(f.along_from(o, f.a), rate, 0.0, std::numeric_limits<double>::infinity());
    slab(f.along_from(o, f.b), rate, -std::numeric_limits<double>::infinity(), 0.0);
    // Between the sides: in doubles at an angle above 1e-3, where the rounding of o and of
    // the offset moves the crossings by less than 1e3 ulps of the coordinates; else as
    // side_params (a line parallel to the sides lies between them or misses the capsule).
    const double rate_n = dot(v, f.n);
    if (std::fabs(rate_n) > 1e-3 * std::sqrt(vv)) {
        slab(f.offset(o), rate_n, -f.r, f.r);
    } else if (cross_dirs(s, f.core) == 0) {
        slab(f.offset(o), 0.0, -f.r, f.r);
    } else {
        const std::array<double, 2> sides = side_params(s, f, sd, near_end);
        clip(sides[0], sides[1]);
    }
    if (t_lo <= t_hi) {
        lo = std::min(lo, t_lo);
        hi = std::max(hi, t_hi);
    }
    if (lo > hi) {  // the exact test says the line enters; rounding said it grazes
        disk(f.a, true);
        disk(f.b, true);
    }
    return LineSpan{o, lo, hi};
}

// The foot of the perpendicular from e on the piece's line (direction W), exactly
// e + cross(W, e - p) (W.y, -W.x) / |W|^2, correctly rounded; a horizontal or vertical
// piece gives one coordinate: its own.
template <class Near>
Vec2 foot_point(const Piece& s, Vec2 e, const Near& near) {
    auto point = [&](auto z) {
        using T = decltype(z);
        const T wx = dir_x<T>(s);
        const T wy = dir_y<T>(s);
        const T w2 = wx * wx + wy * wy;
        const T cr = wx * (T(e.y) - T(s.p.y)) - wy * (T(e.x) - T(s.p.x));
        return PointQuotient<T, T>{T(e.x) * w2 + cr * wy, T(e.y) * w2 - cr * wx, w2};
    };
    return rounded_point(point, near, dir_x<double>(s) == 0.0 ? std::optional(s.p.x) : std::nullopt,
                         dir_y<double>(s) == 0.0 ? std::optional(s.p.y) : std::nullopt);
}

// Where the line of piece s (direction W, through p) enters (k = -1) or leaves (k = +1) the
// capsule, which it crosses. Unless it is parallel to the core (then it runs between the
// sides, from cap to cap), it enters the slab between the sides' lines across side
// side = k sign(cross(D, W)) (D the core's direction), at X, and is then outside the
// capsule before X: the point is X when X lies between the core's ends a and b, else on the
// cap beyond which X lies (the line's part in the slab beyond a lies in the half disk about
// a). With cross(D, W) = C and G = D . W, X = a + (D cross(p - a, W) + W side r |D|) / C,
// and the position of X along D from an end e (a or b) has the sign of
//     C (sqrt(D2) cross(p - e, W) + side r G),   D2 = |D|^2,
// decided exactly. A point on a cap about e is as in pieces.cpp's LineCircle:
//     e + (cross(W, p - e) perp(W) + k sqrt(r^2 |W|^2 - cross(W, p - e)^2) W) / |W|^2.
// Each coordinate is correctly rounded; a horizontal or vertical piece gives one: its own.
template <class Near>
Vec2 span_point(const Piece& s, const CapsuleRef& c, int k, const Near& near) {
    const Piece& core = c.core;
    const int cr = cross_dirs(core, s);
    bool on_cap = true;
    bool cap_b = false;
    int side = 0;
    if (cr == 0) {
        cap_b = (dot_dirs(s, core) > 0) != (k < 0);
    } else {
        side = cr * k;
        const double sr = side * c.r;
        auto along_from = [&](Vec2 e) {
            auto u = [&](auto z) {
                using T = decltype(z);
                return T(sr) * (dir_x<T>(core) * dir_x<T>(s) + dir_y<T>(core) * dir_y<T>(s));
            };
            auto v = [&](auto z) {
                using T = decltype(z);
                return (T(s.p.x) - T(e.x)) * dir_y<T>(s) - (T(s.p.y) - T(e.y)) * dir_x<T>(s);
            };
            auto d2 = [&](auto z) {
                using T = decltype(z);
                return dir_x<T>(core) * dir_x<T>(core) + dir_y<T>(core) * dir_y<T>(core);
            };
            return cr * sign_plus_sqrt(u, v, d2);
        };
        if (along_from(core.p) < 0) {
            cap_b = false;
        } else if (along_from(core.q) > 0) {
            cap_b = true;
        } else {
            on_cap = false;
        }
    }
    const Vec2 e = cap_b ? core.q : core.p;
    const double sr = side * c.r;
    auto point = [&](auto z) {
        using T = decltype(z);
        const T wx = dir_x<T>(s);
        const T wy = dir_y<T>(s);
        if (on_cap) {
            const T w2 = wx * wx + wy * wy;
            const T crs = wx * (T(s.p.y) - T(e.y)) - wy * (T(s.p.x) - T(e.x));  // cross(W, p - e)
            const T q = T(c.r) * T(c.r) * w2 - crs * crs;
            const T kk(static_cast<double>(k));
            return PointQuotient<Root<T>, T>{Root<T>{T(e.x) * w2 - crs * wy, kk * wx, q}, Root<T>{T(e.y) * w2 + crs * wx, kk * wy, q}, w2};
        }
        const T dx = dir_x<T>(core);
        const T dy = dir_y<T>(core);
        const T d2 = dx * dx + dy * dy;
        const T crs = (T(s.p.x) - T(core.p.x)) * wy - (T(s.p.y) - T(core.p.y)) * wx;  // cross(p - a, W)
        const T den = dx * wy - dy * wx;
        const T rs(sr);
        return PointQuotient<Root<T>, T>{Root<T>{T(core.p.x) * den + dx * crs, rs * wx, d2}, Root<T>{T(core.p.y) * den + dy * crs, rs * wy, d2}, den};
    };
    return rounded_point(point, near, dir_x<double>(s) == 0.0 ? std::optional(s.p.x) : std::nullopt,
                         dir_y<double>(s) == 0.0 ? std::optional(s.p.y) : std::nullopt);
}

// A piece that touches the capsule without entering it (d = r): along a side, or at one point.
void touch_points(const Piece& s, const CapsuleRef& c, const Frame& f, int sp, int sq, std::vector<Vec2>& pts) {
    const bool along_side =
        cross_dirs(s, c.core) == 0 && line_distance_vs_radius(s, Circle{c.core.p, c.r}) == 0;
    if (along_side) {
        const int sd = side(c.core, s.p);
        // The piece's ends ordered along the core's direction; a missing one is unbounded.
        const bool same = s.kind == PieceKind::Segment ? along(c.core, s.p, s.q) >= 0 : dot_dirs(s, c.core) > 0;
        const bool has_p = s.kind != PieceKind::Line;
        const bool has_q = s.kind == PieceKind::Segment;
        const bool has_lo = same ? has_p : has_q;
        const bool has_hi = same ? has_q : has_p;
        const Vec2 lo = same ? s.p : s.q;
        const Vec2 hi = same ? s.q : s.p;
        // The shared piece may be one point: the piece ends where the side begins, or begins
        // where it ends.
        if (has_hi && along(c.core, c.core.p, hi) == 0) return pts.push_back(hi);
        if (has_lo && along(c.core, c.core.q, lo) == 0) return pts.push_back(lo);
        push_finite(pts, has_lo && along(c.core, c.core.p, lo) >= 0 ? lo : side_end(c, f, false, sd));
        push_finite(pts, has_hi && along(c.core, c.core.q, hi) <= 0 ? hi : side_end(c, f, true, sd));
        return;
    }
    if (sp == 0) return pts.push_back(s.p);
    if (sq == 0) return pts.push_back(s.q);
    // The piece's interior touches a cap: at the foot from that cap's centre.
    const Vec2 e = point_piece_vs(s, c.core.p, c.r, 0.0) == 0 ? c.core.p : c.core.q;
    push_finite(pts, foot_point(s, e, [&] { return foot_on(s, ScaledDir(s), e); }));
}

}  // namespace


// The points where a piece meets the outline, given d, the sign of dist(piece, core) - r.
// A piece that enters the capsule crosses the outline where its line enters and leaves;
// which of the two lie on the piece follows exactly from where its ends lie.
void piece_points(const Piece& s, const CapsuleRef& c, const std::optional<Frame>& frame, int d, std::vector<Vec2>& pts) {
    if (d > 0) return;
    const Frame& f = *frame;
    const int sp = s.kind != PieceKind::Line ? point_vs_capsule(s.p, c) : 1;
    const int sq = s.kind == PieceKind::Segment ? point_vs_capsule(s.q, c) : 1;
    if (d == 0) return touch_points(s, c, f, sp, sq, pts);
    if (sp == 0) pts.push_back(s.p);
    if (sq == 0) pts.push_back(s.q);
    if (sp <= 0 && sq <= 0) return;
    const ScaledDir sd(s);
    std::optional<LineSpan> span;  // the points in doubles, computed when a search needs them
    auto near = [&](int k) {
        return [&, k] {
            if (!span) span = line_span(s, f, sd);
            return span->o + (k < 0 ? span->lo : span->hi) * sd.v;
        };
    };
    if (sp > 0) push_finite(pts, span_point(s, c, -1, near(-1)));
    if (sq > 0) push_finite(pts, span_point(s, c, 1, near(1)));
}

}  // namespace collide::detail
