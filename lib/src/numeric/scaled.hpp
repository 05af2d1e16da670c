// Doubles with a separate exponent, for the few values that are computed rather than decided:
// intersection points. Their intermediate values — a squared direction, a cross product of
// two directions, a quotient of the two — can leave the double range even when the point
// itself is an ordinary number (a ray direction of 1e300 squared, a subnormal direction
// component times a coordinate), and rounding such a value to a double first gives inf, 0
// or a subnormal with a few bits left, hence NaN or far-off points.
//
// Scaled keeps a 53-bit mantissa and an int64 exponent, so products, quotients and square
// roots never overflow or underflow; only the final conversion to a double can, and it says
// so. Each operation rounds once, to a relative error of at most 2^-53 (a sum: relative to
// the larger operand), like the double operation it replaces. This is the "scaled"
// representation of floating-point numbers with an extended exponent range (see Hauser,
// "Handling Floating-Point Exceptions in Numeric Programs", ACM TOPLAS 18(2), 1996).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>

namespace collide::detail {

/// The value m * 2^e, with 0.5 <= |m| < 1, or m == 0 and e == 0.
struct Scaled {
    double m = 0.0;
    std::int64_t e = 0;

    /// Exactly d; d must be finite.
    static Scaled of(double d) { return make(d, 0); }
    /// m * 2^e normalized; m must be finite.
    static Scaled make(double m, std::int64_t e) {
        int k = 0;
        const double f = std::frexp(m, &k);
        if (f == 0.0) return Scaled{};
        return Scaled{f, e + k};
    }

    /// Whether the value is 0 or a normal double, so to_double() is exact: the range where
    /// plain double arithmetic on it keeps its relative accuracy.
    bool is_normal_double() const { return m == 0.0 || (e >= -1021 && e <= 1024); }

    /// The value as a double: exact when is_normal_double(), else rounded to a subnormal or
    /// 0. A value beyond DBL_MAX by no more than kRangeSlack relative is given as ±DBL_MAX
    /// (it is off by less than the error of the computation that made it); beyond that there
    /// is no double to give.
    std::optional<double> to_double() const {
        if (m == 0.0) return 0.0;
        if (e <= 1024) return e < -1100 ? std::copysign(0.0, m) : std::ldexp(m, static_cast<int>(e));
        if (e == 1025 && std::fabs(m) <= 0.5 * (1.0 + kRangeSlack)) return std::copysign(0x1.fffffffffffffp1023, m);
        return std::nullopt;
    }
    static constexpr double kRangeSlack = 0x1p-40;

    Scaled operator-() const { return Scaled{-m, e}; }
};

inline Scaled operator*(Scaled a, Scaled b) {
    return Scaled::make(a.m * b.m, a.e + b.e);  // |a.m * b.m| in [0.25, 1): no underflow
}

/// b must not be 0.
inline Scaled operator/(Scaled a, Scaled b) {
    return Scaled::make(a.m / b.m, a.e - b.e);  // |a.m / b.m| in (0.5, 2)
}

inline Scaled operator+(Scaled a, Scaled b) {
    if (a.m == 0.0) return b;
    if (b.m == 0.0) return a;
    if (a.e < b.e) std::swap(a, b);
    const std::int64_t shift = a.e - b.e;
    // Below 2^-64 of the larger operand the smaller one cannot change the rounded sum by
    // more than that much; within it, ldexp gives at least 2^-65, a normal double, exactly.
    if (shift > 64) return a;
    return Scaled::make(a.m + std::ldexp(b.m, -static_cast<int>(shift)), a.e);
}

inline Scaled operator-(Scaled a, Scaled b) { return a + (-b); }

/// The square root of max(a, 0).
inline Scaled sqrt(Scaled a) {
    if (a.m <= 0.0) return Scaled{};
    // Make the exponent even: m in [0.5, 2), its square root in [0.7, 1.5).
    const bool odd = (a.e & 1) != 0;
    return Scaled::make(std::sqrt(odd ? 2.0 * a.m : a.m), (odd ? a.e - 1 : a.e) / 2);
}

}  // namespace collide::detail
