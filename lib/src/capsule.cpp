// Capsule pair tests (see capsule.hpp). The distance from the core a-b to the other shape,
// against r (or r plus or minus the other radius), decides everything: a capsule meets a
// shape when that distance is <= r, their interiors meet when it is < r (both are the
// closures of their interiors), and containment reads distances from end points and vertices
// (a capsule is convex, so it holds a convex set exactly when it holds its extreme points).
#include "capsule.hpp"

#include "pieces.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

namespace collide::detail {

namespace {

// ---- exact signs -------------------------------------------------------------------------

// Sign of |x - y|^2 - (r1 + r2)^2: the sum of radii is formed inside the exact expression,
// since r1 + r2 is rarely a double.
int point_point_vs(Vec2 x, Vec2 y, double r1, double r2) {
    return sign_of_low_degree([&](auto z) {
        using T = decltype(z);
        const T dx = T(x.x) - T(y.x);
        const T dy = T(x.y) - T(y.y);
        const T rs = T(r1) + T(r2);
        return dx * dx + dy * dy - rs * rs;
    });
}

// Sign of dist(s, core)^2 - (r1 + r2)^2 for any straight piece s and a segment core
// (r1 + r2 > 0). Pieces that meet are at distance 0; otherwise the least distance is
// reached at an end point of one of them (a line has none: the core's ends decide).
int piece_core_vs(const Piece& s, const Piece& core, double r1, double r2) {
    if (intersect(s, core).kind != PieceHit::None) return -1;
    int m = std::min(point_piece_vs(s, core.p, r1, r2), point_piece_vs(s, core.q, r1, r2));
    if (m >= 0 && s.kind != PieceKind::Line) m = std::min(m, point_piece_vs(core, s.p, r1, r2));
    if (m >= 0 && s.kind == PieceKind::Segment) m = std::min(m, point_piece_vs(core, s.q, r1, r2));
    return m;
}

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

// ---- the outline in doubles --------------------------------------------------------------

Vec2 operator+(Vec2 p, Vec2 q) { return Vec2{p.x + q.x, p.y + q.y}; }
Vec2 operator-(Vec2 p, Vec2 q) { return Vec2{p.x - q.x, p.y - q.y}; }
Vec2 operator*(double k, Vec2 p) { return Vec2{k * p.x, k * p.y}; }
double dot(Vec2 p, Vec2 q) { return p.x * q.x + p.y * q.y; }
double cross(Vec2 p, Vec2 q) { return p.x * q.y - p.y * q.x; }
double magnitude(Vec2 p) { return std::max(std::fabs(p.x), std::fabs(p.y)); }

// ---- filters ------------------------------------------------------------------------------
// The signs of dist(x, core) - r and dist(segment, core) - r, computed in doubles when the
// distance is clearly away from r (most pairs), exactly otherwise. A squared distance
// computed in doubles is off by a few ulps of M^2, M the largest magnitude involved (a
// coordinate plus r); the margin is a thousand times that.

double margin_of(std::initializer_list<double> values, double r) {
    double m = r;
    for (double v : values) m = std::max(m, std::fabs(v) + r);
    return 4e-12 * m * m + 1e-300;
}

double point_segment_distance2(Vec2 p, Vec2 a, Vec2 b) {
    const Vec2 d = b - a;
    const double dd = dot(d, d);
    const double t = dd > 0 ? std::clamp(dot(p - a, d) / dd, 0.0, 1.0) : 0.0;
    const Vec2 q = a + t * d;
    return dot(p - q, p - q);
}

int quick_sign(double v, double margin) {
    if (v > margin) return 1;
    if (v < -margin) return -1;
    return 0;  // undecided (or NaN)
}

int point_vs_capsule(Vec2 p, const CapsuleRef& c) {
    const Vec2 a = c.core.p;
    const Vec2 b = c.core.q;
    const double m = margin_of({p.x, p.y, a.x, a.y, b.x, b.y}, c.r);
    const int q = quick_sign(point_segment_distance2(p, a, b) - c.r * c.r, m);
    return q != 0 ? q : point_piece_vs(c.core, p, c.r, 0.0);
}

int piece_vs_capsule(const Piece& s, const CapsuleRef& c) {
    if (s.kind != PieceKind::Segment) return piece_core_vs(s, c.core, c.r, 0.0);
    const Vec2 a = c.core.p;
    const Vec2 b = c.core.q;
    const double m = margin_of({s.p.x, s.p.y, s.q.x, s.q.y, a.x, a.y, b.x, b.y}, c.r);
    const double ends = std::min({point_segment_distance2(s.p, a, b), point_segment_distance2(s.q, a, b),
                                  point_segment_distance2(a, s.p, s.q), point_segment_distance2(b, s.p, s.q)});
    const int q = quick_sign(ends - c.r * c.r, m);
    if (q < 0) return -1;
    if (q > 0) {
        // The distance is the ends' unless the segments cross: clear orientations say whether.
        const Vec2 ds = s.q - s.p;
        const Vec2 dc = b - a;
        const double om = 1e-12 * (std::fabs(ds.x) + std::fabs(ds.y)) * (std::fabs(dc.x) + std::fabs(dc.y)) + 1e-300;
        const int o1 = quick_sign(cross(ds, a - s.p), om);
        const int o2 = quick_sign(cross(ds, b - s.p), om);
        const int o3 = quick_sign(cross(dc, s.p - a), om);
        const int o4 = quick_sign(cross(dc, s.q - a), om);
        if ((o1 != 0 && o1 == o2) || (o3 != 0 && o3 == o4)) return 1;
        if (o1 * o2 < 0 && o3 * o4 < 0) return -1;
    }
    return piece_core_vs(s, c.core, c.r, 0.0);
}

// The core's unit direction u and left unit normal n; side s (+1 left, -1 right) runs from
// a + s r n to b + s r n, and the cap at an end e is the half circle of radius r about e
// that lies beyond e.
struct Frame {
    Vec2 a, b, u, n;
    double len = 0.0;
    double r = 0.0;
    Piece core;
    Scaled slen;  // len, kept when it is beyond the double range
    explicit Frame(const CapsuleRef& c) : a(c.core.p), b(c.core.q), r(c.r), core(c.core) {
        Vec2 d = b - a;
        double k = 1.0;
        if (!std::isfinite(d.x) || !std::isfinite(d.y)) {  // b - a beyond the double range
            d = Vec2{0.5 * b.x - 0.5 * a.x, 0.5 * b.y - 0.5 * a.y};
            k = 2.0;
        }
        const double l = std::hypot(d.x, d.y);
        u = (1.0 / l) * d;
        n = Vec2{-u.y, u.x};
        slen = Scaled::of(l) * Scaled::of(k);
        len = k * l;
    }
    // x's offset from the core's line (left positive) and its position along the core from
    // e (a or b): in doubles, or, when x lies beyond 1e150 from a, as exactly rounded
    // products over |d|, which neither overflow nor lose x's digits to a's.
    double offset(Vec2 x) const {
        const Vec2 xa = x - a;
        if (!finite(x)) return std::numeric_limits<double>::quiet_NaN();
        if (magnitude(xa) < 1e150) return dot(xa, n);
        return ratio([&](auto z) {
            using T = decltype(z);
            return dir_x<T>(core) * (T(x.y) - T(a.y)) - dir_y<T>(core) * (T(x.x) - T(a.x));
        });
    }
    double along_from(Vec2 x, Vec2 e) const {
        const Vec2 xe = x - e;
        if (!finite(x)) return std::numeric_limits<double>::quiet_NaN();
        if (magnitude(xe) < 1e150) return dot(xe, u);
        return ratio([&](auto z) {
            using T = decltype(z);
            return dir_x<T>(core) * (T(x.x) - T(e.x)) + dir_y<T>(core) * (T(x.y) - T(e.y));
        });
    }
    // (Nothing to say of a point that overflowed: NaN, which every comparison rejects.)
    static bool finite(Vec2 x) { return std::isfinite(x.x) && std::isfinite(x.y); }
    template <class F>
    double ratio(F&& f) const {
        const std::optional<double> v = (scaled_of(f) / slen).to_double();
        return v ? *v : std::numeric_limits<double>::quiet_NaN();
    }
    Vec2 end(bool at_b, int s) const { return (at_b ? b : a) + (s * r) * n; }
    double scale() const { return std::max(magnitude(a), magnitude(b)) + r; }
};

// A circle, or a capsule's cap about its end c: then only points x with
// (x - c) . (c - other) >= 0 count, other being the core's other end.
struct Arc {
    Vec2 c;
    double r = 0.0;
    bool half = false;
    Vec2 other;
};
Arc cap_of(const CapsuleRef& k, bool at_b) {
    return Arc{at_b ? k.core.q : k.core.p, k.r, true, at_b ? k.core.p : k.core.q};
}

// The points of one pair of outlines, merged within the tolerance (the same crossing found
// on a side and on the cap it joins). At most 16 component pairs, each giving at most 2.
class Sink {
public:
    Sink(std::vector<Vec2>& out, double scale) : out_(out), tol_(1e-12 * scale) {}
    ~Sink() { out_.insert(out_.end(), buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(n_)); }
    Sink(const Sink&) = delete;
    Sink& operator=(const Sink&) = delete;
    double tol() const { return tol_; }
    /// A bound on the error of a sign's quantity computed in doubles from the outline (a few
    /// ulps of the magnitudes involved, with room to spare): beyond it the double decides.
    double margin() const { return 16 * tol_; }
    /// The sign of v when |v| exceeds margin(), else exact().
    template <class F>
    int sure(double v, F&& exact) const {
        if (v > margin()) return 1;
        if (v < -margin()) return -1;
        return exact();
    }
    void add(Vec2 p) {
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || n_ == buf_.size()) return;
        for (std::size_t i = 0; i < n_; ++i)
            if (std::fabs(buf_[i].x - p.x) <= tol_ && std::fabs(buf_[i].y - p.y) <= tol_) return;
        buf_[n_++] = p;
    }

private:
    std::vector<Vec2>& out_;
    double tol_;
    std::array<Vec2, 40> buf_{};
    std::size_t n_ = 0;
};

bool on_arc(const Arc& arc, Vec2 x, double tol) {
    if (!arc.half) return true;
    const Vec2 away = arc.c - arc.other;
    return dot(x - arc.c, away) >= -tol * std::hypot(away.x, away.y);
}

// Half the chord that side s's line cuts from the arc's circle (radius rho), given that it
// cuts one. With the centre at offset h = X / |d| - s r from that line (X = cross(d, c - a)),
// |d|^2 (rho^2 - h^2) = P + Q, P = |d|^2 (rho^2 - r^2) - X^2, Q = 2 s r X |d|. Near
// tangency P and Q cancel, and a rounded h would move the points by sqrt(rho ulp): then
// P + Q = (P^2 - Q^2) / (P - Q), whose numerator is a polynomial, computed exactly rounded.
double half_chord(const CapsuleRef& k, int s, const Arc& arc) {
    const Piece& c = k.core;
    auto x = [&](auto z) {
        using T = decltype(z);
        return dir_x<T>(c) * (T(arc.c.y) - T(c.p.y)) - dir_y<T>(c) * (T(arc.c.x) - T(c.p.x));
    };
    auto a2 = [&](auto z) {
        using T = decltype(z);
        return dir_x<T>(c) * dir_x<T>(c) + dir_y<T>(c) * dir_y<T>(c);
    };
    auto p_expr = [&](auto z) {
        using T = decltype(z);
        const T xx = x(z);
        return a2(z) * (T(arc.r) * T(arc.r) - T(k.r) * T(k.r)) - xx * xx;
    };
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

// Side s of capsule k against an arc. With X = cross(d, c - a), A2 = |d|^2 and the
// circle's centre c at offset h = (X - s r sqrt(A2)) / sqrt(A2) from the side's line, the
// line meets the circle at foot + j half u (j = -1, 1; j = 0 when tangent), where
// W = A2 half^2 = P + 2 s r X sqrt(A2), P = A2 (rho^2 - r^2) - X^2. Whether such a point
// lies on the side (between a and b along d) and on the arc's half are signs of sums of
// square roots, each decided exactly by squaring; only the points themselves are rounded.
void side_arc(const CapsuleRef& k, const Frame& f, int s, const Arc& arc, Sink& out) {
    const double h = f.offset(arc.c) - s * k.r;  // centre's offset from the side's line
    const int far_side = out.sure(h - arc.r, [&] { return offset_side(k.core, arc.c, s * k.r, arc.r); });
    const int near_side = out.sure(h + arc.r, [&] { return offset_side(k.core, arc.c, s * k.r, -arc.r); });
    if (far_side > 0 || near_side < 0) return;
    const bool tangent = far_side == 0 || near_side == 0;
    const Piece& c = k.core;
    const double sr = s * k.r;
    auto x = [&](auto z) {
        using T = decltype(z);
        return dir_x<T>(c) * (T(arc.c.y) - T(c.p.y)) - dir_y<T>(c) * (T(arc.c.x) - T(c.p.x));
    };
    auto a2 = [&](auto z) {
        using T = decltype(z);
        return dir_x<T>(c) * dir_x<T>(c) + dir_y<T>(c) * dir_y<T>(c);
    };
    auto p_expr = [&](auto z) {
        using T = decltype(z);
        const T xx = x(z);
        return a2(z) * (T(arc.r) * T(arc.r) - T(k.r) * T(k.r)) - xx * xx;
    };
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
    for (int j : {-1, 0, 1}) {
        if ((j == 0) != tangent) continue;
        const Vec2 pt = foot + (j * half) * f.u;
        const double t = dot(pt - f.a, f.u);
        if (out.sure(std::min(t, f.len - t), [&] { return on_side(j) ? 1 : -1; }) < 0) continue;
        if (arc.half && out.sure(dot(pt - arc.c, away) / away_len, [&] { return on_half(j) ? 1 : -1; }) < 0) continue;
        out.add(pt);
    }
}

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
        out.add(lo_b ? fb.end(!same, sb) : fa.end(false, sa));
        if (c > 0) out.add(hi_b ? fb.end(same, sb) : fa.end(true, sa));
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
        out.add(b0 == 0 ? fb.end(false, sb) : b1 == 0 ? fb.end(true, sb) : a0 == 0 ? fa.end(false, sa) : fa.end(true, sa));
        return;
    }
    // From the shorter side: its t times its length stays accurate.
    if (fb.len < fa.len) {
        const Vec2 q = fb.end(false, sb);
        out.add(q + side_crossing(B, fb, sb, A, fa, sa, b0) * (fb.end(true, sb) - q));
        return;
    }
    const Vec2 p = fa.end(false, sa);
    out.add(p + side_crossing(A, fa, sa, B, fb, sb, a0) * (fa.end(true, sa) - p));
}

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

// Where the piece's line, as x(t) = o + t v (v its scaled direction, o the foot of a core
// end, near the capsule), enters and leaves the capsule, in doubles: the capsule is
// the union of the two end disks and the core's rectangle, so the line's part in it runs
// from the least entry to the greatest exit.
struct LineSpan {
    Vec2 o;
    double lo;
    double hi;
};
LineSpan line_span(const Piece& s, const Frame& f, const ScaledDir& sd) {
    const Vec2 v = sd.v;
    const double vv = dot(v, v);
    // The foot of the core's end nearer the piece's first point (a core may be huge).
    const Vec2 o = foot_on(s, sd, magnitude(f.b - s.p) < magnitude(f.a - s.p) ? f.b : f.a);
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
    auto slab = [&](double at, double rate, double from, double to) {
        if (rate == 0.0) {
            if (at < from || at > to) t_hi = -std::numeric_limits<double>::infinity();
            return;
        }
        double t1 = (from - at) / rate;
        double t2 = (to - at) / rate;
        if (t1 > t2) std::swap(t1, t2);
        t_lo = std::max(t_lo, t1);
        t_hi = std::min(t_hi, t2);
    };
    // Along the core, from a (>= 0) and from b (<= 0), each measured from its own end.
    const double rate = dot(v, f.u);
    slab(f.along_from(o, f.a), rate, 0.0, std::numeric_limits<double>::infinity());
    slab(f.along_from(o, f.b), rate, -std::numeric_limits<double>::infinity(), 0.0);
    slab(f.offset(o), dot(v, f.n), -f.r, f.r);
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

// The foot of the perpendicular from e on the piece's line.
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
        push_finite(pts, has_lo && along(c.core, c.core.p, lo) >= 0 ? lo : f.end(false, sd));
        push_finite(pts, has_hi && along(c.core, c.core.q, hi) <= 0 ? hi : f.end(true, sd));
        return;
    }
    if (sp == 0) return pts.push_back(s.p);
    if (sq == 0) return pts.push_back(s.q);
    // The piece's interior touches a cap: at the foot from that cap's centre.
    const Vec2 e = point_piece_vs(s, c.core.p, c.r, 0.0) == 0 ? c.core.p : c.core.q;
    push_finite(pts, foot_on(s, ScaledDir(s), e));
}

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
    const LineSpan span = line_span(s, f, sd);
    if (sp > 0) push_finite(pts, span.o + span.lo * sd.v);
    if (sq > 0) push_finite(pts, span.o + span.hi * sd.v);
}

// A box that holds the capsule (rounded outwards): a segment outside it is farther than r.
struct Reach {
    double x0, y0, x1, y1;
    explicit Reach(const CapsuleRef& c) {
        constexpr double inf = std::numeric_limits<double>::infinity();
        x0 = std::nextafter(std::min(c.core.p.x, c.core.q.x) - c.r, -inf);
        y0 = std::nextafter(std::min(c.core.p.y, c.core.q.y) - c.r, -inf);
        x1 = std::nextafter(std::max(c.core.p.x, c.core.q.x) + c.r, inf);
        y1 = std::nextafter(std::max(c.core.p.y, c.core.q.y) + c.r, inf);
    }
    bool misses(const Piece& s) const {
        return s.kind == PieceKind::Segment && (std::max(s.p.x, s.q.x) < x0 || std::min(s.p.x, s.q.x) > x1 ||
                                                std::max(s.p.y, s.q.y) < y0 || std::min(s.p.y, s.q.y) > y1);
    }
};

}  // namespace

int point_piece_vs(const Piece& s, Vec2 x, double r1, double r2) {
    // The nearest point of the piece is an end when x projects beyond it.
    if (s.kind != PieceKind::Line && along(s, s.p, x) <= 0) return point_point_vs(x, s.p, r1, r2);
    if (s.kind == PieceKind::Segment && along(s, s.q, x) >= 0) return point_point_vs(x, s.q, r1, r2);
    // cross(d, x - p)^2 - (r1 + r2)^2 |d|^2 has the sign of dist^2 - (r1 + r2)^2.
    return sign_of_low_degree([&](auto z) {
        using T = decltype(z);
        const T dx = dir_x<T>(s);
        const T dy = dir_y<T>(s);
        const T cr = dx * (T(x.y) - T(s.p.y)) - dy * (T(x.x) - T(s.p.x));
        const T rs = T(r1) + T(r2);
        return cr * cr - rs * rs * (dx * dx + dy * dy);
    });
}

Topo point_capsule(Vec2 p, const CapsuleRef& c, std::vector<Vec2>* pts) {
    Topo t;
    const int d = point_piece_vs(c.core, p, c.r, 0.0);
    if (d > 0) return t;
    t.intersects = t.a_in_b = true;
    t.interiors = d < 0;
    if (d == 0 && pts) pts->push_back(p);
    return t;
}

Topo pieces_capsule(const std::vector<Piece>& pieces, const CapsuleRef& c, std::vector<Vec2>* pts) {
    Topo t;
    const Reach reach(c);
    bool all_in = true;  // a capsule is convex: it holds a segment when it holds its ends
    std::optional<Frame> frame;
    if (pts) frame.emplace(c);
    for (const Piece& s : pieces) {
        const int d = reach.misses(s) ? 1 : piece_vs_capsule(s, c);
        t.intersects |= d <= 0;
        t.interiors |= d < 0;
        all_in = all_in && d <= 0 && s.kind == PieceKind::Segment && point_vs_capsule(s.p, c) <= 0 &&
                 point_vs_capsule(s.q, c) <= 0;
        if (pts) piece_points(s, c, frame, d, *pts);
    }
    t.a_in_b = t.intersects && all_in;
    return t;
}

Topo disk_capsule(const Circle& d, const CapsuleRef& c, std::vector<Vec2>* pts) {
    Topo t;
    const int ext = point_piece_vs(c.core, d.center, d.radius, c.r);  // centre vs core, r1 + r2
    if (ext > 0) return t;
    t.intersects = true;
    t.interiors = ext < 0;
    if (t.interiors) {
        t.a_in_b = d.radius <= c.r && point_piece_vs(c.core, d.center, c.r, -d.radius) <= 0;
        t.b_in_a = d.radius >= c.r && point_point_vs(c.core.p, d.center, d.radius, -c.r) <= 0 &&
                   point_point_vs(c.core.q, d.center, d.radius, -c.r) <= 0;
    }
    if (!pts) return t;
    const Frame f(c);
    Sink out(*pts, std::max(f.scale(), magnitude(d.center) + d.radius));
    const Arc circle{d.center, d.radius, false, Vec2{}};
    for (int s : {-1, 1}) side_arc(c, f, s, circle, out);
    for (bool at_b : {false, true}) arc_arc(circle, cap_of(c, at_b), out);
    return t;
}

Topo polygon_capsule(PolygonRef poly, const CapsuleRef& c, std::vector<Vec2>* pts) {
    const Ring ring = poly.ring;
    const Reach reach(c);
    int nearest = 1;  // min over edges of sign(dist(edge, core) - r)
    std::optional<Frame> frame;
    if (pts) frame.emplace(c);
    auto edge = [&](const Piece& e) {
        const int d = reach.misses(e) ? 1 : piece_vs_capsule(e, c);
        nearest = std::min(nearest, d);
        if (pts) piece_points(e, c, frame, d, *pts);
        return true;
    };
    // A big polygon's index reads only the edges whose boxes meet the capsule's: the others
    // lie farther than r from the core.
    if (poly.index)
        poly.index->each_meeting(Box{Vec2{reach.x0, reach.y0}, Vec2{reach.x1, reach.y1}},
                                 [&](std::size_t i) { return edge(poly.index->edge(i)); });
    else
        for (std::size_t i = 0; i < ring.n; ++i) edge(ring.edge(i));
    Topo t;
    const int loc = locate_in(poly, c.core.p);
    if (loc < 0 && nearest > 0) return t;
    t.intersects = true;
    // The open capsule meets the closed polygon (hence its interior) when the core lies
    // within r of it: in it, or within r of an edge.
    t.interiors = loc >= 0 || nearest < 0;
    t.b_in_a = loc > 0 && nearest >= 0;  // no edge within r of the core: it stays inside
    t.a_in_b = true;
    if (poly.index)  // a big polygon lies in the capsule only if its extreme vertices do
        for (const Vec2& v : poly.index->extremes()) t.a_in_b = t.a_in_b && point_vs_capsule(v, c) <= 0;
    for (std::size_t i = 0; i < ring.n && t.a_in_b; ++i) t.a_in_b = point_vs_capsule(ring[i], c) <= 0;
    return t;
}

Topo capsule_capsule(const CapsuleRef& a, const CapsuleRef& b, std::vector<Vec2>* pts) {
    Topo t;
    const int d = piece_core_vs(a.core, b.core, a.r, b.r);
    if (d > 0) return t;
    t.intersects = true;
    t.interiors = d < 0;
    if (t.interiors) {
        // a lies in b when a's core ends lie within r_b - r_a of b's core.
        auto inside = [](const CapsuleRef& x, const CapsuleRef& y) {
            return x.r <= y.r && point_piece_vs(y.core, x.core.p, y.r, -x.r) <= 0 &&
                   point_piece_vs(y.core, x.core.q, y.r, -x.r) <= 0;
        };
        t.a_in_b = inside(a, b);
        t.b_in_a = inside(b, a);
    }
    if (!pts) return t;
    const Frame fa(a);
    const Frame fb(b);
    Sink out(*pts, std::max(fa.scale(), fb.scale()));
    for (int sa : {-1, 1})
        for (int sb : {-1, 1}) side_side(a, fa, sa, b, fb, sb, out);
    for (int s : {-1, 1}) {
        for (bool at_b : {false, true}) {
            side_arc(a, fa, s, cap_of(b, at_b), out);
            side_arc(b, fb, s, cap_of(a, at_b), out);
        }
    }
    for (bool ea : {false, true})
        for (bool eb : {false, true}) arc_arc(cap_of(a, ea), cap_of(b, eb), out);
    return t;
}

}  // namespace collide::detail
