// Capsule outline points (see capsule.hpp): where a capsule's outline meets a circle or
// another capsule's outline (a straight piece: capsule_piece_points.cpp). Which of them
// exist (a side's crossing lying on the side, on a cap's half) is decided by exact signs of
// sums of square roots, removed by squaring; each coordinate is then the exact value
// correctly rounded (SPEC §2.3, rounding.hpp), starting from the point computed in doubles.
// capsule.cpp decides first, exactly, whether the shapes meet at all.
#include "geometry/capsule_points.hpp"

#include "geometry/capsule_exact.hpp"
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

}  // namespace

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

namespace {

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

// The crossings of side_arc, j = -1, 0 (tangent) or 1 along the core's direction, given the
// side's line as ChordTerms and its offset s r (sr): W = A2 half^2 = P + 2 s r X sqrt(A2).

// Sign of g + j sqrt(W) for a polynomial g.
template <class G>
int chord_plus_root(const ChordTerms& terms, double sr, G&& g, int j) {
    const auto x = terms.x();
    const auto a2 = terms.a2();
    const auto p_expr = terms.p();
    auto v_expr = [&](auto z) {  // -2 s r X: W = P - v sqrt(A2)
        using T = decltype(z);
        return T(-2.0) * T(sr) * x(z);
    };
    const int sg = sign_of(g);
    if (j == 0 || sg == 0 || sg == j) return j != 0 ? j : sg;
    const int cmp = sign_plus_sqrt(
        [&](auto z) {
            const auto gg = g(z);
            return gg * gg - p_expr(z);
        },
        v_expr, a2);  // sign of g^2 - W
    return cmp > 0 ? sg : (cmp < 0 ? j : 0);
}

// Whether crossing j lies on the side: between the core's ends a and b along d.
bool chord_point_on_side(const ChordTerms& terms, double sr, int j) {
    const Piece& c = terms.c;
    const Arc& arc = terms.arc;
    auto from = [&](const Vec2& e) {
        return [&, e](auto z) {
            using T = decltype(z);
            return dir_x<T>(c) * (T(arc.c.x) - T(e.x)) + dir_y<T>(c) * (T(arc.c.y) - T(e.y));
        };
    };
    return chord_plus_root(terms, sr, from(c.p), j) >= 0 && chord_plus_root(terms, sr, from(c.q), j) <= 0;
}

// Whether crossing j lies on the arc's half. (x - e) . away times sqrt(A2) is
// -(X - s r sqrt(A2)) alpha + j sqrt(W) beta, with alpha = cross(d, away) and beta = d . away.
bool chord_point_on_half(const ChordTerms& terms, double sr, int j) {
    const Arc& arc = terms.arc;
    if (!arc.half) return true;
    const Piece& c = terms.c;
    const double r = terms.r;
    const auto x = terms.x();
    const auto a2 = terms.a2();
    const auto p_expr = terms.p();
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
            return p_expr(z) * be * be - (xx * xx + T(r) * T(r) * a2(z)) * al * al;
        },
        [&](auto z) {
            using T = decltype(z);
            const T al = alpha(z);
            const T be = beta(z);
            return T(2.0) * T(sr) * x(z) * (be * be + al * al);
        },
        a2);  // sign of W beta^2 - (X - s r sqrt(A2))^2 alpha^2
    return (m > 0 ? t2 : (m < 0 ? t1 : 0)) >= 0;
}

// Crossing j's exact coordinates, a PointQuotient for rounded_point (the formula at
// side_arc). terms is copied: its references outlive the call.
auto chord_point(const ChordTerms& terms, double sr, int j) {
    return [terms, sr, j](auto z) {
        using T = decltype(z);
        using R = Root<T>;
        const Piece& c = terms.c;
        const Arc& arc = terms.arc;
        const T dx = dir_x<T>(c);
        const T dy = dir_y<T>(c);
        const T dd = dx * dx + dy * dy;
        const T xx = terms.x()(z);
        const T zero(0.0);
        const T jj(static_cast<double>(j));
        const R w{terms.p()(z), T(2.0) * T(sr) * xx, dd};
        return PointQuotient<Root<R>, T>{Root<R>{R{T(arc.c.x) * dd + xx * dy, T(-sr) * dy, dd}, R{jj * dx, zero, dd}, w},
                                         Root<R>{R{T(arc.c.y) * dd - xx * dx, T(sr) * dx, dd}, R{jj * dy, zero, dd}, w}, dd};
    };
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
    const Vec2 foot = arc.c - h * f.n;
    const double half = tangent ? 0.0 : half_chord(k, s, arc);
    const Vec2 away = arc.c - arc.other;
    const double away_len = std::hypot(away.x, away.y);
    for (int j : {-1, 0, 1}) {
        if ((j == 0) != tangent) continue;
        const Vec2 pt = foot + (j * half) * f.u;
        const double t = dot(pt - f.a, f.u);
        if (out.sure(std::min(t, f.len - t), [&] { return chord_point_on_side(terms, sr, j) ? 1 : -1; }) < 0) continue;
        if (arc.half && out.sure(dot(pt - arc.c, away) / away_len, [&] { return chord_point_on_half(terms, sr, j) ? 1 : -1; }) < 0)
            continue;
        out.add(rounded_point(chord_point(terms, sr, j), [&] { return pt; }));
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
    const TwoPoints buffer = circle_circle_points(Circle{p.c, p.r}, Circle{q.c, q.r}, ext, in);
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

}  // namespace collide::detail
