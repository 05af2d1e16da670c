// Correct rounding of the values a report writes (SPEC §2.3, §2.4): each coordinate of an
// intersection point, each move's t and stop, is the exact value rounded to the nearest
// double, ties to even.
//
// The exact values are algebraic: a quotient N / D of polynomials in the input doubles for
// straight pieces, with N of the form A + B sqrt(Q) where a circle is involved, and with
// square roots nested once or twice on capsule outlines. A value is given as a generic
// callable returning such a Quotient over a number type T, like the predicates of
// exact.hpp. Which double is nearest is then decided by signs alone: v rounds to x when v
// lies between the midpoints of x and its two neighbours, and
//     sign(v - m) = sign(2 N - (lo + hi) D) sign(D)   for m = (lo + hi) / 2,
// an expression in T again (a square root is removed by squaring, see Root). Usually the
// value computed in DoubleWord (about 106 bits, with a rigorous error bound) lies inside one
// double's rounding interval, and that is the answer. Otherwise each sign is decided with
// DoubleWord and, when the value lies within about 2^-100 of a midpoint, with Exact, in a
// search that starts from the caller's approximation (the double computation it always
// had, off by a few ulps at most).
//
// This is the classic scheme for correctly rounded functions: a fast approximation, a test
// that proves its rounding, an exact fallback near the rounding boundaries (Ziv, "Fast
// evaluation of elementary mathematical functions with correctly rounded last bit", ACM
// TOMS 17(3), 1991), here with exact midpoint comparisons instead of higher precision, as in
// exact geometric computation (Yap, "Towards exact geometric computation", 1997).
#pragma once

#include "collide/types.hpp"
#include "numeric/exact.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

namespace collide::detail {

/// a + b sqrt(q) for q >= 0: a number of the quadratic extension of T by sqrt(q). T may be
/// a Root itself (a square root inside a square root). Sums and products combine values
/// of the same q.
template <class T>
struct Root {
    T a;
    T b;
    T q;
};

template <class T> Root<T> operator+(const Root<T>& x, const Root<T>& y) { return Root<T>{x.a + y.a, x.b + y.b, x.q}; }
template <class T> Root<T> operator-(const Root<T>& x, const Root<T>& y) { return Root<T>{x.a - y.a, x.b - y.b, x.q}; }
template <class T> Root<T> operator*(const Root<T>& x, const Root<T>& y) {
    return Root<T>{x.a * y.a + x.b * y.b * x.q, x.a * y.b + x.b * y.a, x.q};
}
template <class T> Root<T> operator+(const Root<T>& x, const T& t) { return Root<T>{x.a + t, x.b, x.q}; }
template <class T> Root<T> operator-(const Root<T>& x, const T& t) { return Root<T>{x.a - t, x.b, x.q}; }
template <class T> Root<T> operator*(const T& t, const Root<T>& x) { return Root<T>{t * x.a, t * x.b, x.q}; }

/// The sign of a value: -1, 0, +1, or Filtered::kUnknown when the number type cannot tell.
inline int sign_value(const Exact& x) { return x.sign(); }
inline int sign_value(const DoubleWord& x) { return x.sign(); }
template <class T>
int sign_value(const Root<T>& x) {
    constexpr int kUnknown = Filtered::kUnknown;
    const int sa = sign_value(x.a);
    const int sb = sign_value(x.b);
    if (sa == kUnknown || sb == kUnknown) return kUnknown;
    if (sb == 0 || sa == sb) return sa;
    const int sq = sign_value(x.q);  // >= 0 by contract
    if (sq == kUnknown) return kUnknown;
    if (sq == 0) return sa;
    if (sa == 0) return sb;
    // Opposite signs: |a| against |b| sqrt(q), squared.
    const int c = sign_value(x.a * x.a - x.b * x.b * x.q);
    if (c == kUnknown) return kUnknown;
    return sa > 0 ? c : -c;
}

/// The exact sign of f(T{}), a generic form whose value may hold square roots (a Root):
/// DoubleWord first, then Exact.
template <class F>
int sign_of_form(F&& f) {
    const int s = sign_value(f(DoubleWord{}));
    if (s != Filtered::kUnknown) return s;
    return sign_value(f(Exact{}));
}

/// The value of a number of T = DoubleWord with its error bound: square roots and all.
inline DoubleWord approximate(const DoubleWord& x) { return x; }
template <class T>
DoubleWord approximate(const Root<T>& x) {
    const DoubleWord b = approximate(x.b);
    if (b.h == 0.0 && b.e == 0.0) return approximate(x.a);  // no root term (a tangent point)
    return approximate(x.a) + b * sqrt(approximate(x.q));
}

/// Whether a DoubleWord form holds usable values: nothing overflowed or underflowed.
inline bool usable(const DoubleWord& x) { return !x.unsure && std::isfinite(x.h) && std::isfinite(x.e); }
template <class T>
bool usable(const Root<T>& x) { return usable(x.a) && usable(x.b) && usable(x.q); }

/// The value of an Exact form to about 53 bits at any magnitude (Scaled: no overflow), for a
/// search's start where the doubles overflowed; a sum that cancels may be far off, which
/// costs the search steps, never the result.
inline Scaled approximate_scaled(const Exact& x) { return x.to_scaled(); }
template <class T>
Scaled approximate_scaled(const Root<T>& x) {
    return approximate_scaled(x.a) + approximate_scaled(x.b) * sqrt(approximate_scaled(x.q));
}
/// num / den as a double to start a search from: `fallback` when that is beyond the range.
template <class N>
double start_of(const N& num, const Exact& den, double fallback) {
    const std::optional<double> v = (approximate_scaled(num) / den.to_scaled()).to_double();
    return v && std::isfinite(*v) ? *v : fallback;
}

/// The value num / den (den != 0).
template <class N, class T>
struct Quotient {
    N num;
    T den;
};

/// 2 n - k, for the midpoint test.
template <class T> T twice_minus(const T& n, const T& k) { return n + n - k; }
template <class T, class U> Root<T> twice_minus(const Root<T>& n, const U& k) {
    return Root<T>{twice_minus(n.a, k), n.b + n.b, n.q};
}

/// Doubles as ordered integers: key(x) < key(y) exactly when x < y, neighbours differ by 1,
/// and both zeros are 0.
inline std::int64_t double_key(double x) {
    std::uint64_t bits = 0;
    const double a = std::fabs(x);
    std::memcpy(&bits, &a, sizeof bits);
    const auto k = static_cast<std::int64_t>(bits);
    return x < 0.0 ? -k : k;
}
inline double key_double(std::int64_t k) {
    const std::uint64_t bits = static_cast<std::uint64_t>(k < 0 ? -k : k);
    double a = 0.0;
    std::memcpy(&a, &bits, sizeof a);
    return k < 0 ? -a : a;
}
/// The key of DBL_MAX; the key one beyond stands for 2^1024.
inline constexpr std::int64_t kMaxDoubleKey = 0x7fefffffffffffffLL;
/// hi - lo for keys lo <= hi (up to 2^64 - 2^53: more than an int64 holds).
inline std::uint64_t key_distance(std::int64_t lo, std::int64_t hi) {
    return static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
}
/// from + step, or `end` when that lies beyond it (step and end - from of one sign).
inline std::int64_t key_step(std::int64_t from, std::int64_t step, std::int64_t end) {
    const std::uint64_t room = step > 0 ? key_distance(from, end) : key_distance(end, from);
    const std::uint64_t size = step > 0 ? static_cast<std::uint64_t>(step) : 0 - static_cast<std::uint64_t>(step);
    return size >= room ? end : from + step;
}

/// A point computed in Scaled as doubles (each coordinate rounded to nearest), or nothing
/// when it lies beyond the double range.
inline std::optional<Vec2> representable(Scaled x, Scaled y) {
    const std::optional<double> px = x.to_double();
    const std::optional<double> py = y.to_double();
    if (!px || !py) return std::nullopt;
    return Vec2{*px, *py};
}

/// base + x rounded to the nearest double, when x's bound settles it in plain doubles:
/// nothing otherwise. A point near a shape far from the origin is its centre plus an offset
/// much smaller than it, and an offset known to a few of its own ulps is known to a small
/// fraction of an ulp of the sum; the sum is then rounded without DoubleWord (nearly always
/// for coordinates like those of a level, ten thousand units across).
///
/// TwoSum gives base + x.v = s + t exactly, s = fl(base + x.v); the exact value is s + t + d
/// with |d| <= x.e. It rounds to s when it lies strictly between the midpoints around s:
/// half an ulp of s away from zero, half of the gap below toward zero (a quarter ulp when |s|
/// is a power of two). Each side is tested as a sum and a product by 1 + 2^-50 > (1 + u)^2,
/// so a test computed to pass holds exactly.
inline std::optional<double> round_offset(double base, const Filtered& x) {
    const double s = base + x.v;
    if (!(std::fabs(s) >= 0x1p-900) || !std::isfinite(s) || !std::isfinite(x.e)) return std::nullopt;
    const double bv = s - base;
    const double t = (base - (s - bv)) + (x.v - bv);
    const double away = s > 0 ? t : -t;  // t measured away from zero
    std::uint64_t bits = 0;
    std::memcpy(&bits, &s, sizeof bits);
    bits &= 0x7FF0000000000000ULL;  // 2^E, |s| in [2^E, 2^(E+1)): its ulp is 2^(E-52)
    double power = 0.0;
    std::memcpy(&power, &bits, sizeof power);
    const double half_up = power * 0x1p-53;
    const double half_down = std::fabs(s) == power ? power * 0x1p-54 : half_up;
    constexpr double kSlack = 1.0 + 0x1p-50;
    if ((away + x.e) * kSlack < half_up && (x.e - away) * kSlack < half_down) return s;
    return std::nullopt;
}

/// The double nearest num / den (a DoubleWord form) when its value, error bound and all,
/// lies inside one double's rounding interval; nothing otherwise.
template <class N>
std::optional<double> round_quickly(const N& num, const DoubleWord& den) {
    double x = 0.0;
    if ((approximate(num) / den).round_checked(x)) return x;
    return std::nullopt;
}

/// sign(num / den - (lo + hi) / 2) for the doubles lo, hi of keys k, k + 1 (den_sign the
/// sign of den): -1, 0, +1, or Filtered::kUnknown when T cannot tell.
template <class N, class T>
int above_midpoint(const N& num, const T& den, int den_sign, std::int64_t k) {
    if (den_sign == Filtered::kUnknown) return Filtered::kUnknown;
    // lo + hi, exactly (at the ends of the range, 2^1024 is DBL_MAX plus its ulp, 2^971).
    constexpr double kMax = 0x1.fffffffffffffp1023;
    const T twice_mid = k == kMaxDoubleKey          ? T(kMax) + T(kMax) + T(0x1p971)
                        : k == -kMaxDoubleKey - 1 ? -(T(kMax) + T(kMax) + T(0x1p971))
                                                  : T(key_double(k)) + T(key_double(k + 1));
    const int s = sign_value(twice_minus(num, twice_mid * den));
    return s == Filtered::kUnknown ? s : s * den_sign;
}

/// The double nearest a value, given above(k), the exact sign of the value minus the
/// midpoint of the doubles of keys k and k + 1, by galloping from approx's key and then
/// bisecting: the least k with above(k) <= 0, or k + 1 on a tie that k + 1 wins by being
/// even. Nothing when that lies beyond the double range.
template <class Above>
std::optional<double> round_by_midpoints(Above&& above, double approx) {
    const std::int64_t lo_end = -kMaxDoubleKey - 1;
    const std::int64_t hi_end = kMaxDoubleKey;
    constexpr std::int64_t kMaxStep = std::int64_t{1} << 62;
    constexpr double kMax = 0x1.fffffffffffffp1023;
    const std::int64_t k0 = std::isnan(approx) ? 0 : double_key(std::fmax(-kMax, std::fmin(approx, kMax)));
    std::int64_t lo = 0;  // above(lo) > 0
    std::int64_t hi = 0;  // above(hi) <= 0
    int at_hi = above(k0);  // above(hi)
    std::int64_t step = 1;
    if (at_hi <= 0) {
        hi = k0;
        while (true) {
            if (hi == lo_end) return std::nullopt;  // below -DBL_MAX by half its ulp or more
            const std::int64_t k = key_step(hi, -step, lo_end);
            const int at = above(k);
            if (at > 0) {
                lo = k;
                break;
            }
            hi = k;
            at_hi = at;
            if (step < kMaxStep) step *= 2;
        }
    } else {
        lo = k0;
        while (true) {
            if (lo == hi_end) return std::nullopt;  // above DBL_MAX by half its ulp or more
            const std::int64_t k = key_step(lo, step, hi_end);
            const int at = above(k);
            if (at <= 0) {
                hi = k;
                at_hi = at;
                break;
            }
            lo = k;
            if (step < kMaxStep) step *= 2;
        }
    }
    while (key_distance(lo, hi) > 1) {
        const std::int64_t mid = key_step(lo, static_cast<std::int64_t>(key_distance(lo, hi) / 2), hi);
        const int at = above(mid);
        if (at > 0) {
            lo = mid;
        } else {
            hi = mid;
            at_hi = at;
        }
    }
    std::int64_t k = hi;
    if (at_hi == 0 && k % 2 != 0) ++k;  // a tie: the neighbour with the even significand
    if (k > kMaxDoubleKey) return std::nullopt;
    return key_double(k);
}

/// Both coordinates of a point, x = num_x / den and y = num_y / den.
template <class N, class T>
struct PointQuotient {
    N x;
    N y;
    T den;
};

/// The exact value of f (a generic callable returning a Quotient over its number type)
/// rounded to the nearest double, ties to even; nothing when it rounds beyond the double
/// range. `approx` is any double near it: the search starts there.
template <class F>
std::optional<double> round_quotient(F&& f, double approx) {
    const auto fast = f(DoubleWord{});
    if (const std::optional<double> x = round_quickly(fast.num, fast.den)) return x;
    const int fast_den = sign_value(fast.den);
    std::optional<decltype(f(Exact{}))> exact;
    if (!usable(fast.num) || !usable(fast.den) || !std::isfinite(approx)) {
        // The doubles overflowed (coordinates near 1e308): every sign is Exact's, and the
        // caller's approximation may be anywhere. Start from the exact value's instead.
        exact.emplace(f(Exact{}));
        approx = start_of(exact->num, exact->den, approx);
    }
    return round_by_midpoints(
        [&](std::int64_t k) {
            const int s = above_midpoint(fast.num, fast.den, fast_den, k);
            if (s != Filtered::kUnknown) return s;
            if (!exact) exact.emplace(f(Exact{}));
            return above_midpoint(exact->num, exact->den, sign_value(exact->den), k);
        },
        approx);
}

/// A point, f returning a PointQuotient: both coordinates correctly rounded, from one
/// evaluation of f's shared terms. `near()` gives an approximation of the point (or
/// nothing when it lies beyond the double range); it is called only when the DoubleWord
/// value does not settle a coordinate. A coordinate known exactly already (a horizontal
/// piece's y) is given as known_x or known_y.
template <class F, class Near>
std::optional<Vec2> round_point(F&& f, Near&& near, std::optional<double> known_x = std::nullopt,
                                std::optional<double> known_y = std::nullopt) {
    const auto fast = f(DoubleWord{});
    std::optional<double> x = known_x ? known_x : round_quickly(fast.x, fast.den);
    std::optional<double> y = known_y ? known_y : round_quickly(fast.y, fast.den);
    if (x && y) return Vec2{*x, *y};
    std::optional<Vec2> start = near();
    if (!start) return std::nullopt;
    const int fast_den = sign_value(fast.den);
    std::optional<decltype(f(Exact{}))> exact;
    if (!usable(fast.x) || !usable(fast.y) || !usable(fast.den) || !std::isfinite(start->x) || !std::isfinite(start->y)) {
        // As in round_quotient: start from the exact value's approximation.
        exact.emplace(f(Exact{}));
        start = Vec2{start_of(exact->x, exact->den, start->x), start_of(exact->y, exact->den, start->y)};
    }
    // pick: the coordinate's numerator of a PointQuotient of either number type.
    auto search = [&](auto pick, double approx) {
        return round_by_midpoints(
            [&](std::int64_t k) {
                const int s = above_midpoint(pick(fast), fast.den, fast_den, k);
                if (s != Filtered::kUnknown) return s;
                if (!exact) exact.emplace(f(Exact{}));
                return above_midpoint(pick(*exact), exact->den, sign_value(exact->den), k);
            },
            approx);
    };
    if (!x) x = search([](const auto& p) -> const auto& { return p.x; }, start->x);
    if (!y) y = search([](const auto& p) -> const auto& { return p.y; }, start->y);
    if (!x || !y) return std::nullopt;
    return Vec2{*x, *y};
}

}  // namespace collide::detail
