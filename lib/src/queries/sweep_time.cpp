// Sweep times (sweep.hpp): double bounds, exact comparison, correct rounding of t and stop.
#include "numeric/interval.hpp"
#include "numeric/rounding.hpp"
#include "queries/sweep_form.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace collide::detail {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

SweepTime SweepTime::constant(double c) {
    SweepTime t;
    t.form.c = c;
    t.lo = t.hi = c;
    return t;
}

SweepTime SweepTime::of(const SweepForm& f) {
    if (f.kind == SweepForm::Kind::Const) return constant(f.c);
    SweepTime t;
    t.form = f;
    const sweep::Parts<Filtered> p = sweep::eval<Filtered>(f);
    Interval num = enclose(p.a);
    if (f.kind == SweepForm::Kind::Disk || f.kind == SweepForm::Kind::Slab) {
        const Interval q = enclose(p.q);
        const Interval root = q.hi < 0.0 ? Interval{} : widen(std::sqrt(std::max(0.0, q.lo)), std::sqrt(q.hi));
        const Interval term = times(enclose(p.b), root);
        num = widen(num.lo + term.lo, num.hi + term.hi);
    }
    const Interval v = divide(num, enclose(p.d));
    t.lo = v.lo;
    t.hi = v.hi;
    return t;
}

int compare(const SweepTime& a, const SweepTime& b) {
    if (a.hi < b.lo) return -1;
    if (a.lo > b.hi) return 1;
    const SweepForm& fa = a.form;
    const SweepForm& fb = b.form;
    if (fa.kind == SweepForm::Kind::Const && fb.kind == SweepForm::Kind::Const)
        return fa.c < fb.c ? -1 : (fa.c > fb.c ? 1 : 0);
    // (a1 + b1 sqrt(q1)) / d1 - (a2 + b2 sqrt(q2)) / d2 has the sign of
    // (a1 d2 - a2 d1) - b2 d1 sqrt(q2) + b1 d2 sqrt(q1), with d1, d2 > 0.
    return sign_of_form([&](auto z) {
        using T = decltype(z);
        using R = Root<T>;
        const sweep::Parts<T> x = sweep::eval<T>(fa);
        const sweep::Parts<T> y = sweep::eval<T>(fb);
        return Root<R>{R{x.a * y.d - y.a * x.d, -(y.b * x.d), y.q}, R{x.b * y.d, T(0.0), y.q}, R{x.q, T(0.0), y.q}};
    });
}

namespace {

// from + t (to - from) on one axis in doubles, a start for rounding the exact value.
double lerp(double f, double g, double t) {
    const double d = g - f;
    if (std::isfinite(d)) return f + t * d;
    const double big = std::numeric_limits<double>::max();
    return std::clamp((1 - t) * f + t * g, -big, big);
}

}  // namespace

MoveResult blocked_at(const Move& m, const SweepTime& st) {
    MoveResult r;
    r.allowed = false;
    const SweepForm& f = st.form;
    if (f.kind == SweepForm::Kind::Const) {
        r.t = f.c;
        r.stop = f.c == 0.0 ? m.from : f.c == 1.0 ? m.to : Vec2{lerp(m.from.x, m.to.x, f.c), lerp(m.from.y, m.to.y, f.c)};
        return r;
    }
    const double mid = 0.5 * st.lo + 0.5 * st.hi;
    const double approx = std::isfinite(mid) ? std::clamp(mid, 0.0, 1.0) : std::numeric_limits<double>::quiet_NaN();
    r.t = round_quotient(
              [&](auto z) {
                  using T = decltype(z);
                  const sweep::Parts<T> p = sweep::eval<T>(f);
                  return Quotient<Root<T>, T>{Root<T>{p.a, p.b, p.q}, p.d};
              },
              approx)
              .value_or(std::isfinite(approx) ? approx : 0.0);
    const double t = r.t;
    auto near = [&] { return std::optional<Vec2>(Vec2{lerp(m.from.x, m.to.x, t), lerp(m.from.y, m.to.y, t)}); };
    // (from d + (a + b sqrt(q)) (to - from)) / d on each axis.
    const std::optional<Vec2> p = round_point(
        [&](auto z) {
            using T = decltype(z);
            const sweep::Parts<T> e = sweep::eval<T>(f);
            const T dx = T(m.to.x) - T(m.from.x);
            const T dy = T(m.to.y) - T(m.from.y);
            return PointQuotient<Root<T>, T>{Root<T>{T(m.from.x) * e.d + e.a * dx, e.b * dx, e.q},
                                             Root<T>{T(m.from.y) * e.d + e.a * dy, e.b * dy, e.q}, e.d};
        },
        near, m.from.x == m.to.x ? std::optional(m.from.x) : std::nullopt,
        m.from.y == m.to.y ? std::optional(m.from.y) : std::nullopt);
    r.stop = p ? *p : *near();  // (nothing only beyond the double range: the stop lies on the path)
    return r;
}

namespace {

// x - e and x + e rounded outward (e >= 0): the rounded sum, moved one double outward when
// it lies beyond the exact one (its error by Knuth's TwoSum).
double sum_error(double x, double y, double s) {
    const double yy = s - x;
    return (x - (s - yy)) + (y - yy);
}
double down(double x, double e) {
    const double v = x - e;
    return std::isfinite(v) && sum_error(x, -e, v) < 0.0 ? std::nextafter(v, -kInf) : v;
}
double up(double x, double e) {
    const double v = x + e;
    return std::isfinite(v) && sum_error(x, e, v) > 0.0 ? std::nextafter(v, kInf) : v;
}

}  // namespace

Bounds swept_bounds(const Move& m) {
    double ex = 0.0;
    double ey = 0.0;
    if (m.body.kind == Body::Kind::Circle) {
        ex = ey = m.body.radius;
    } else if (m.body.kind == Body::Kind::Rect) {
        // Half a subnormal size rounds: take the size itself there.
        ex = m.body.size.x * 0.5 * 2.0 == m.body.size.x ? m.body.size.x * 0.5 : m.body.size.x;
        ey = m.body.size.y * 0.5 * 2.0 == m.body.size.y ? m.body.size.y * 0.5 : m.body.size.y;
    }
    const Vec2 a = m.check_path ? m.from : m.to;
    const Vec2 b = m.to;
    return Bounds{Vec2{down(std::min(a.x, b.x), ex), down(std::min(a.y, b.y), ey)},
                  Vec2{up(std::max(a.x, b.x), ex), up(std::max(a.y, b.y), ey)}};
}

}  // namespace collide::detail
