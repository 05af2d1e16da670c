// DoubleWord: a value as the unevaluated sum of two doubles with a rigorous error bound,
// the cheap step between Filtered and Exact when a polynomial's exact value is to be rounded
// to a double (value_of and scaled_of in predicates.hpp, the points of rounding.hpp) or a
// sign decided beyond Magnitude's reach. Its bound and the ranges it relies on are argued
// next to the type. Included by exact.hpp, so that every evaluator of a predicate comes with
// one include.
#pragma once

#include "numeric/filtered.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace collide::detail {

/// A value as an unevaluated sum h + l of two doubles (a "double-word" number, about 106
/// bits) with a rigorous bound e on its absolute error, for rounding a polynomial's exact
/// value to a double without Exact: value_of and scaled_of (predicates.hpp) try it when the
/// Filtered value is not accurate enough, and round_to_nearest() gives the correctly
/// rounded value only when the whole error interval lies inside one double's rounding
/// interval, which fails only within about 2^-50 relative of a rounding boundary.
///
/// Each operation adds exact terms with Knuth's TwoSum and the fma-based TwoProduct
/// (Ogita, Rump and Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 26(6),
/// 2005) and rounds only the low-order parts; e gathers the propagated input errors and
/// u|r| for every rounded r (plus the dropped product of two low parts). The bound is
/// computed in doubles, at most 16 roundings deep, each shrinking it by at most (1 - u),
/// and underflow in it loses at most 2^-1072 in all: multiplying by kInflate = 1 + 2^-45
/// and adding kTiny = 2^-1040 covers both ((1 - u)^16 (1 + 2^-45) > 1 + 2^-46; below
/// 2^-1000 kTiny is more than twice the ulp and the losses, above it 2^-46 of the bound is).
///
/// The values themselves must not underflow (TwoProduct and u|r| rely on it), so, as for
/// Magnitude, every input must be 0 or in [2^-100, 2^100] and the expression of degree at
/// most 5 (a constant factor such as 4 counts as an input); `deg` tracks the degree
/// (kOutOfRange after an input outside the range) and round_to_nearest() refuses otherwise.
/// Then every computed value is 0 or a multiple of 2^-760 (an input is a multiple of
/// 2^-152, and a rounded multiple of 2^-k stays one), so at least 2^-760 in magnitude, and
/// below 2^510: nothing underflows or overflows.
///
/// sign() decides the sign of any such expression, whatever its degree and inputs, from a
/// check made as it goes instead: a product whose leading part is below 2^-960 (where
/// TwoProduct may lose bits) marks the value `unsure`, and overflow shows as inf or NaN.
/// Nothing else can go wrong: TwoSum is exact for all finite operands, and a low-order
/// product or a bound term that underflows loses less than 2^-1074, which kTiny covers.
struct DoubleWord {
    double h = 0.0;
    double l = 0.0;
    double e = 0.0;
    int deg = 0;
    bool unsure = false;  // a product may have underflowed

    DoubleWord() = default;
    explicit DoubleWord(double d) : h(d), deg(in_range(d) ? 1 : kOutOfRange) {}

    [[gnu::always_inline]] friend DoubleWord operator+(const DoubleWord& a, const DoubleWord& b) {
        DoubleWord r;
        r.deg = std::max(a.deg, b.deg);
        r.unsure = a.unsure || b.unsure;
        double t = 0.0;
        const double s = two_sum(a.h, b.h, t);
        if (a.l == 0.0 && b.l == 0.0 && a.e == 0.0 && b.e == 0.0) {  // two doubles: exact
            r.h = s;
            r.l = t;
            return r;
        }
        const double w = a.l + b.l;
        const double v = t + w;
        r.h = two_sum(s, v, r.l);
        // A sum with a zero operand does not round.
        const double rounded = (a.l != 0.0 && b.l != 0.0 ? std::fabs(w) : 0.0) + (t != 0.0 && w != 0.0 ? std::fabs(v) : 0.0);
        r.e = (a.e + b.e + kU * rounded) * kInflate + kTiny;
        return r;
    }
    friend DoubleWord operator-(const DoubleWord& a, const DoubleWord& b) { return a + (-b); }
    [[gnu::always_inline]] friend DoubleWord operator*(const DoubleWord& a, const DoubleWord& b) {
        DoubleWord r;
        r.deg = std::min(a.deg + b.deg, kOutOfRange);
        const double p = a.h * b.h;
        r.unsure = a.unsure || b.unsure || (std::fabs(p) < 0x1p-960 && a.h != 0.0 && b.h != 0.0);
        const double q = fused_multiply_add(a.h, b.h, -p);  // exactly a.h b.h - p: no underflow
        if (a.l == 0.0 && b.l == 0.0 && a.e == 0.0 && b.e == 0.0) {  // two doubles: exact
            r.h = p;
            r.l = q;
            return r;
        }
        const double c1 = a.h * b.l;
        const double c2 = a.l * b.h;
        const double c = c1 + c2;
        const double v = q + c;
        r.h = two_sum(p, v, r.l);
        const double rounding = kU * (std::fabs(c1) + std::fabs(c2) + std::fabs(c) + std::fabs(v));
        const double dropped = std::fabs(a.l) * std::fabs(b.l);
        const double carried = (std::fabs(a.h) + std::fabs(a.l)) * b.e + (std::fabs(b.h) + std::fabs(b.l)) * a.e + a.e * b.e;
        r.e = (rounding + dropped + carried) * kInflate + kTiny;
        return r;
    }
    DoubleWord operator-() const {
        DoubleWord r = *this;
        r.h = -h;
        r.l = -l;
        return r;
    }

    /// The sign of the exact value (-1, 0, +1) when certain; Filtered::kUnknown otherwise.
    int sign() const {
        if (unsure || !std::isfinite(h) || !std::isfinite(l) || !(e < HUGE_VAL)) return Filtered::kUnknown;
        // |l| <= ulp(h) / 2 <= 2^-53 |h|, so h + l has h's sign once e < |h| (1 - 2^-50).
        if (e == 0.0 || e < std::fabs(h) * (1.0 - 0x1p-50)) return h > 0.0 ? 1 : (h < 0.0 ? -1 : 0);
        return Filtered::kUnknown;
    }

    /// Sets x to the exact value rounded to nearest and returns true when that is certain
    /// and x is 0 or a normal double; false otherwise (then use Exact).
    bool round_to_nearest(double& x) const { return deg <= kMaxDegree && round_interval(x); }
    /// The same for any expression, the quotients and square roots below included, whose
    /// value is not `unsure` (the check made as it goes instead of the range argument).
    bool round_checked(double& x) const { return !unsure && std::fabs(h) >= 0x1p-900 && round_interval(x); }

    /// The quotient a / b, with b's interval clear of 0 (else `unsure`). With q = a.h / b.h
    /// and R = a - q b (a DoubleWord, so R's bound covers a's and b's), a / b = q + R / b
    /// exactly, and R / b is taken as (R.h + R.l) / b.h: off by R.e / |b| and by |R| times
    /// the relative difference of b and b.h, (|b.l| + b.e) / |b.h|, both over b's least
    /// magnitude |b.h| - |b.l| - b.e, plus two roundings of a value near 2^-53 |q|.
    friend DoubleWord operator/(const DoubleWord& a, const DoubleWord& b) {
        const double b_lo = std::fabs(b.h) - std::fabs(b.l) - b.e;
        const double q = a.h / b.h;
        DoubleWord r;
        if (!(b_lo > 0.0) || !std::isfinite(q)) {
            r.unsure = true;
            return r;
        }
        const DoubleWord rest = a - DoubleWord(q) * b;
        const double corr = (rest.h + rest.l) / b.h;
        r.h = two_sum(q, corr, r.l);
        r.unsure = rest.unsure;
        r.deg = kOutOfRange;  // for round_checked only
        const double off = rest.e / b_lo + std::fabs(rest.h) * 2.0 * (std::fabs(b.l) + b.e) / (b_lo * std::fabs(b.h));
        r.e = (off + 0x1p-51 * std::fabs(corr)) * kInflate + kTiny;
        return r;
    }

    /// The square root of x, with x's interval [v - e, v + e] within (v / 2, 2v] (else
    /// `unsure`). s = sqrt(x.h) rounded and the residual x.h - s^2 exactly (fma, no
    /// underflow above 2^-900) give s + (x.h - s^2 + x.l) / 2s, which exceeds sqrt(x.h + x.l)
    /// by at most s d^2 / 8 for d = (x.h - s^2 + x.l) / s^2, |d| <= 2^-51: 2^-105 s; its two
    /// roundings add 2^-104 s. x's own error moves the root by at most e / (sqrt(x - e) +
    /// sqrt(x)) <= e / s.
    friend DoubleWord sqrt(const DoubleWord& x) {
        DoubleWord r;
        if (x.unsure || !(x.h >= 0x1p-900) || !(x.e <= 0.5 * x.h) || !std::isfinite(x.h)) {
            r.unsure = true;
            return r;
        }
        const double s = std::sqrt(x.h);
        const double residual = fused_multiply_add(-s, s, x.h);
        const double corr = (residual + x.l) / (2.0 * s);
        r.h = two_sum(s, corr, r.l);
        r.deg = kOutOfRange;
        r.e = (x.e / s + 0x1p-100 * s) * kInflate + kTiny;
        return r;
    }

private:
    bool round_interval(double& x) const {
        if (!std::isfinite(h) || !std::isfinite(l) || !std::isfinite(e)) return false;
        if (h == 0.0) return false;  // the sign of a value near 0 is Exact's to tell
        // h is the double nearest h + l, and |l| <= ulp(h) / 2. The exact value rounds to h
        // when h + l +- e stays strictly inside h's rounding interval: up to half an ulp
        // above |h|, and half the smaller ulp below when |h| is a power of two.
        std::uint64_t bits = 0;
        const double a = std::fabs(h);
        std::memcpy(&bits, &a, sizeof bits);
        const std::uint64_t biased = bits >> 52;  // >= 1023 - 900 by the range argument or the check
        const std::uint64_t half_ulp_bits = (biased - 53) << 52;
        double half_up = 0.0;
        std::memcpy(&half_up, &half_ulp_bits, sizeof half_up);
        const double half_down = (bits & ((std::uint64_t{1} << 52) - 1)) == 0 ? 0.5 * half_up : half_up;
        const double toward = h > 0.0 ? l : -l;  // l along |h|
        // Each gap is >= 0 and rounds once; shrinking it by 2^-50 makes the test certain.
        const double gap_up = (half_up - toward) * (1.0 - 0x1p-50);
        const double gap_down = (half_down + toward) * (1.0 - 0x1p-50);
        if (!(e < gap_up && e < gap_down)) return false;
        x = h;
        return true;
    }

    static constexpr double kU = 0x1p-53;
    static constexpr double kInflate = 1.0 + 0x1p-45;
    static constexpr double kTiny = 0x1p-1040;
    static constexpr int kMaxDegree = 5;
    static constexpr int kOutOfRange = 1000;

    static bool in_range(double d) {
        const double a = std::fabs(d);
        return a == 0.0 || (a >= 0x1p-100 && a <= 0x1p100);
    }
    // Knuth's TwoSum: s + err == a + b exactly (no overflow here).
    static double two_sum(double a, double b, double& err) {
        const double s = a + b;
        const double bv = s - a;
        err = (a - (s - bv)) + (b - bv);
        return s;
    }
};

}  // namespace collide::detail
