// Exact sign evaluation of polynomial predicates over double inputs.
//
// A predicate is written once as a generic lambda over a number type T and evaluated
// first with Filtered (a double plus a rigorous bound on its absolute error) and, only
// when that cannot decide the sign, with Exact (an arbitrary-precision dyadic rational:
// every double, and every sum, difference and product of them, is represented without
// rounding). This is the "floating-point filter + exact fallback" scheme of
// Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
// Predicates" (1997) and of CGAL's filtered kernels, with a simpler fallback.
//
//     int s = sign_of([&](auto zero) {
//         using T = decltype(zero);
//         return (T(b.x) - T(a.x)) * (T(c.y) - T(a.y)) - (T(b.y) - T(a.y)) * (T(c.x) - T(a.x));
//     });
//
// Only +, - and * are offered: predicates avoid division and square roots by
// cross-multiplying and squaring.
//
// Limits: inputs must be finite (Exact throws std::domain_error otherwise). Filtered
// assumes IEEE binary64 in round-to-nearest with gradual underflow: no -ffast-math, no
// flush-to-zero, no x87 extended precision. FMA contraction is harmless (see exact.cpp).
#pragma once

#include "scaled.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace collide::detail {

/// An exact dyadic rational m * 2^exp with an arbitrary-precision integer m.
/// Constructed from any finite double; +, -, * never round.
/// Throws std::overflow_error if an exponent leaves the int64 range (that takes
/// products of degree ~2^53, e.g. squaring 2^-1074 fifty-three times).
class Exact {
public:
    Exact() = default;
    /// d must be finite; throws std::domain_error for inf or NaN.
    explicit Exact(double d);

    friend Exact operator+(const Exact& a, const Exact& b);
    friend Exact operator-(const Exact& a, const Exact& b);
    friend Exact operator*(const Exact& a, const Exact& b);
    Exact operator-() const;

    /// Value equality; the representation is canonical, so this compares members.
    friend bool operator==(const Exact& a, const Exact& b) {
        return a.neg_ == b.neg_ && a.exp_ == b.exp_ && a.mag_ == b.mag_;
    }
    friend bool operator!=(const Exact& a, const Exact& b) { return !(a == b); }

    /// -1, 0 or +1.
    int sign() const { return neg_ ? -1 : (mag_.empty() ? 0 : 1); }
    /// The exact value rounded to nearest, ties to even (±inf when out of range).
    double to_double() const;
    /// The exact value rounded to 53 bits, nearest, ties to even, at any magnitude.
    Scaled to_scaled() const;

private:
    using Limbs = std::vector<std::uint32_t>;
    static Exact make(bool neg, Limbs mag, std::int64_t exp);
    // The top `precision` bits of mag_ rounded to nearest, ties to even, as keep * 2^keep_exp.
    void round_to(std::int64_t precision, std::uint64_t& keep, std::int64_t& keep_exp) const;

    // Canonical form: mag_ odd (trailing zero bits moved into exp_), no leading zero
    // limbs; zero is {false, {}, 0}. Equal values therefore have equal members.
    bool neg_ = false;
    Limbs mag_;             // little-endian limbs, no leading zero limbs; empty = 0
    std::int64_t exp_ = 0;  // value = (neg_ ? -1 : 1) * mag_ * 2^exp_
};

/// A double value v with a bound e >= 0 such that the exact value lies in [v - e, v + e].
/// Overflow or NaN makes the sign undecidable, never wrong. e == 0 means v is exact:
/// inputs are exact, and so is any sum or product of exact operands that did not round.
struct Filtered {
    double v = 0.0;
    double e = 0.0;

    Filtered() = default;
    explicit Filtered(double d) : v(d), e(0.0) {}

    friend Filtered operator+(Filtered a, Filtered b);
    friend Filtered operator-(Filtered a, Filtered b);
    friend Filtered operator*(Filtered a, Filtered b);
    Filtered operator-() const { return Filtered{-v, e, 0}; }

    /// -1, 0 or +1 when certain; kUnknown otherwise.
    int sign() const;
    static constexpr int kUnknown = 2;

private:
    Filtered(double value, double err, int) : v(value), e(err) {}

    // Why these constants are enough is argued next to them in exact.cpp.
    static constexpr double kU = 0x1p-53;              // unit roundoff
    static constexpr double kInflate = 1.0 + 0x1p-50;  // covers rounding of the bound
    static constexpr double kTiny = 0x1p-1072;         // covers underflow in a product
    static constexpr double kFmaSafe = 0x1p-967;       // fma residual exact above this

    static Filtered sum(double a, double b, double a_err, double b_err);
};

inline Filtered Filtered::sum(double a, double b, double a_err, double b_err) {
    const double v = a + b;
    if (a_err == 0.0 && b_err == 0.0) {
        // Knuth's TwoSum: r is exactly (a + b) - v when v is finite, and inf/NaN (never
        // a false 0) on overflow. So r == 0 proves the sum exact, including v == 0.
        const double bv = v - a;
        const double r = (a - (v - bv)) + (b - bv);
        if (r == 0.0) return Filtered{v, 0.0, 0};
    }
    return Filtered{v, (a_err + b_err + kU * std::fabs(v)) * kInflate, 0};
}

inline Filtered operator+(Filtered a, Filtered b) { return Filtered::sum(a.v, b.v, a.e, b.e); }
inline Filtered operator-(Filtered a, Filtered b) { return Filtered::sum(a.v, -b.v, a.e, b.e); }

inline Filtered operator*(Filtered a, Filtered b) {
    if ((a.v == 0.0 && a.e == 0.0) || (b.v == 0.0 && b.e == 0.0)) return Filtered{0.0, 0.0, 0};
    const double v = a.v * b.v;
    const double av = std::fabs(a.v);
    const double bv = std::fabs(b.v);
    const double vv = std::fabs(v);
    // Above kFmaSafe (and below overflow) the residual a*b - v is a nonzero multiple of
    // at least 2^-1073 unless it is zero, so fma cannot round a real residual to 0.
    if (a.e == 0.0 && b.e == 0.0 && vv >= Filtered::kFmaSafe && vv <= 0x1.fffffffffffffp1023 &&
        std::fma(a.v, b.v, -v) == 0.0) {
        return Filtered{v, 0.0, 0};
    }
    const double bound = av * b.e + bv * a.e + a.e * b.e + Filtered::kU * vv;
    return Filtered{v, bound * Filtered::kInflate + Filtered::kTiny, 0};
}

inline int Filtered::sign() const {
    if (!std::isfinite(v) || !std::isfinite(e)) return kUnknown;
    if (v > e) return 1;
    if (v < -e) return -1;
    if (v == 0.0 && e == 0.0) return 0;
    return kUnknown;
}

/// The exact sign (-1, 0, +1) of f(T{}) where f is a generic callable over T.
template <class F>
int sign_of(F&& f) {
    const int s = f(Filtered{}).sign();
    if (s != Filtered::kUnknown) return s;
    return f(Exact{}).sign();
}

}  // namespace collide::detail
