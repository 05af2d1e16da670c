// What capsule.cpp (the pair tests) and capsule_points.cpp and capsule_piece_points.cpp (the
// outline points) share: the capsule's outline in doubles (Frame, Arc, Sink), the points of
// its parts, and the distance signs the points start from. Internal to those files.
#pragma once

#include "geometry/capsule.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

namespace collide::detail {

// ---- the outline in doubles --------------------------------------------------------------

inline Vec2 operator+(Vec2 p, Vec2 q) { return Vec2{p.x + q.x, p.y + q.y}; }
inline Vec2 operator-(Vec2 p, Vec2 q) { return Vec2{p.x - q.x, p.y - q.y}; }
inline Vec2 operator*(double k, Vec2 p) { return Vec2{k * p.x, k * p.y}; }
inline double dot(Vec2 p, Vec2 q) { return p.x * q.x + p.y * q.y; }
inline double cross(Vec2 p, Vec2 q) { return p.x * q.y - p.y * q.x; }
inline double magnitude(Vec2 p) { return std::max(std::fabs(p.x), std::fabs(p.y)); }

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
inline Arc cap_of(const CapsuleRef& k, bool at_b) {
    return Arc{at_b ? k.core.q : k.core.p, k.r, true, at_b ? k.core.p : k.core.q};
}

// The points of one pair of outlines. The same crossing found on a side and on the cap it
// joins is the same exact point, correctly rounded to the same doubles: only equal points
// merge (a tolerance would merge distinct points closer than it). The tolerance is kept for
// margin(): how far a double computation must be from 0 to decide a sign. At most 16
// component pairs, each giving at most 2.
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
            if (buf_[i] == p) return;
        buf_[n_++] = p;
    }

private:
    std::vector<Vec2>& out_;
    double tol_;
    std::array<Vec2, 40> buf_{};
    std::size_t n_ = 0;
};

// ---- capsule.cpp -------------------------------------------------------------------------

/// Sign of |x - y|^2 - (r1 + r2)^2, exact.
int point_point_vs(Vec2 x, Vec2 y, double r1, double r2);
/// Sign of dist(p, core) - r: in doubles when clear, else exact.
int point_vs_capsule(Vec2 p, const CapsuleRef& c);

// ---- capsule_points.cpp ------------------------------------------------------------------

/// Side s (+1 left, -1 right) of capsule k against an arc: their crossings into out.
void side_arc(const CapsuleRef& k, const Frame& f, int s, const Arc& arc, Sink& out);
/// Two arcs (circles or caps): their crossings into out.
void arc_arc(const Arc& p, const Arc& q, Sink& out);
/// Side sa of capsule A against side sb of B: their crossings, or their shared piece's ends.
void side_side(const CapsuleRef& A, const Frame& fa, int sa, const CapsuleRef& B, const Frame& fb, int sb, Sink& out);
// ---- capsule_piece_points.cpp ------------------------------------------------------------

/// Where a piece meets the outline, given d, the sign of dist(piece, core) - r (frame is read
/// only when d <= 0).
void piece_points(const Piece& s, const CapsuleRef& c, const std::optional<Frame>& frame, int d, std::vector<Vec2>& pts);

}  // namespace collide::detail
