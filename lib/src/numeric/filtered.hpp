// A double with a rigorous bound on its error (Filtered): the floating-point filter that
// sign_of (exact.hpp) tries before Exact, deciding a predicate's sign in doubles whenever the
// bound allows. Filtered::kUnknown is also the "not certain" answer of the other filters
// (Magnitude in exact.hpp, DoubleWord in double_word.hpp). Why its constants are enough is
// argued in exact.cpp; the exactness shortcuts (e = 0) are argued next to them here.
#pragma once

#include "numeric/fused.hpp"

#include <cmath>
#include <optional>

namespace collide::detail {

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

    /// The square root, when the whole interval lies above 0 (v > e); nothing otherwise.
    friend std::optional<Filtered> sqrt_of(Filtered a);
    /// a / b, when b's interval leaves out 0 (|b.v| > b.e); nothing otherwise.
    friend std::optional<Filtered> quotient(Filtered a, Filtered b);

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
        fused_multiply_add(a.v, b.v, -v) == 0.0) {
        return Filtered{v, 0.0, 0};
    }
    const double bound = av * b.e + bv * a.e + a.e * b.e + Filtered::kU * vv;
    return Filtered{v, bound * Filtered::kInflate + Filtered::kTiny, 0};
}

// Square root. With A the exact value and s = fl(sqrt(v)):
//     |sqrt(A) - s| <= |A - v| / (sqrt(A) + sqrt(v)) + |sqrt(v) - s| <= e / sqrt(v) + u s,
// and sqrt(v) >= s (1 - u), fl(e / s) >= (e / s) / (1 + u). The computed bound rounds three
// times more (the quotient, the sum, the product by kInflate): (1 + u)^4 / (1 - u) < 1 + 8u
// = kInflate. Underflow loses at most 2^-1075 in each of e / s, u s and the product by
// kInflate, which kTiny covers.
inline std::optional<Filtered> sqrt_of(Filtered a) {
    if (!(a.v > a.e) || !std::isfinite(a.v) || !std::isfinite(a.e)) return std::nullopt;
    const double s = std::sqrt(a.v);
    return Filtered{s, (a.e / s + Filtered::kU * s) * Filtered::kInflate + Filtered::kTiny, 0};
}

// Quotient. With A, B exact, |A - a.v| <= a.e, |B - b.v| <= b.e and |B| >= |b.v| - b.e > 0:
//     |A/B - a.v/b.v| = |(A - a.v) b.v - a.v (B - b.v)| / |B b.v| <= (a.e + |a.v/b.v| b.e) / (|b.v| - b.e),
// |a.v/b.v| <= |v| (1 + u) for v = fl(a.v / b.v), whose own error is <= u|v|. The bound's
// computation rounds six times (a product, a sum, the difference below, whose rounding up
// costs a factor 1 / (1 - u), the quotient, a sum, the product by kInflate):
// (1 + u)^6 / (1 - u) < 1 + 8u = kInflate to first order, with room for the second. Underflow
// (v, |v| b.e, the quotient, u|v|, the product by kInflate) loses at most five units of
// 2^-1075, which kTiny covers.
inline std::optional<Filtered> quotient(Filtered a, Filtered b) {
    if (!(std::fabs(b.v) > b.e)) return std::nullopt;
    const double v = a.v / b.v;
    const double av = std::fabs(v);
    const double bound = (a.e + av * b.e) / (std::fabs(b.v) - b.e) + Filtered::kU * av;
    return Filtered{v, bound * Filtered::kInflate + Filtered::kTiny, 0};
}

inline int Filtered::sign() const {
    if (!std::isfinite(v) || !std::isfinite(e)) return kUnknown;
    if (v > e) return 1;
    if (v < -e) return -1;
    if (v == 0.0 && e == 0.0) return 0;
    return kUnknown;
}

}  // namespace collide::detail
