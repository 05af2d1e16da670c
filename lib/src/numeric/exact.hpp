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

#include "numeric/scaled.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>

namespace collide::detail {

/// The limbs of an arbitrary-precision magnitude: a vector of 32-bit words that holds up to
/// kInline of them in place, so that the exact fallback of a predicate on ordinary inputs
/// (products of degree 4 span a few hundred bits) never allocates; longer values (a sum
/// of 1e300 and 1e-300 spans 2000 bits) move to the heap.
class Limbs {
public:
    static constexpr std::size_t kInline = 24;

    Limbs() = default;
    Limbs(std::size_t n, std::uint32_t v) { resize(n, v); }
    Limbs(std::initializer_list<std::uint32_t> init) {
        reserve(init.size());
        for (std::uint32_t v : init) data()[size_++] = v;
    }
    Limbs(const Limbs& o) { append(o); }
    Limbs(Limbs&& o) noexcept { take(o); }
    Limbs& operator=(const Limbs& o) {
        if (this != &o) {
            size_ = 0;
            append(o);
        }
        return *this;
    }
    Limbs& operator=(Limbs&& o) noexcept {
        if (this != &o) {
            heap_.reset();
            cap_ = kInline;
            take(o);
        }
        return *this;
    }
    ~Limbs() = default;

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    static constexpr std::size_t max_size() { return std::size_t{1} << 40; }
    std::uint32_t* data() { return heap_ ? heap_.get() : inline_; }
    const std::uint32_t* data() const { return heap_ ? heap_.get() : inline_; }
    std::uint32_t& operator[](std::size_t i) { return data()[i]; }
    std::uint32_t operator[](std::size_t i) const { return data()[i]; }
    std::uint32_t back() const { return data()[size_ - 1]; }
    const std::uint32_t* begin() const { return data(); }
    const std::uint32_t* end() const { return data() + size_; }

    void reserve(std::size_t n) {
        if (n <= cap_) return;
        const std::size_t cap = std::max(n, 2 * cap_);
        std::unique_ptr<std::uint32_t[]> heap(new std::uint32_t[cap]);
        if (size_ != 0) std::memcpy(heap.get(), data(), size_ * sizeof(std::uint32_t));
        heap_ = std::move(heap);
        cap_ = cap;
    }
    void resize(std::size_t n, std::uint32_t v) {
        reserve(n);
        for (std::size_t i = size_; i < n; ++i) data()[i] = v;
        size_ = n;
    }
    void push_back(std::uint32_t v) {
        if (size_ == cap_) reserve(size_ + 1);
        data()[size_++] = v;
    }
    void pop_back() { --size_; }
    void append(const Limbs& o) {
        reserve(size_ + o.size_);
        if (o.size_ != 0) std::memcpy(data() + size_, o.data(), o.size_ * sizeof(std::uint32_t));
        size_ += o.size_;
    }
    /// Drop the first k limbs.
    void erase_front(std::size_t k) {
        if (k == 0) return;
        std::memmove(data(), data() + k, (size_ - k) * sizeof(std::uint32_t));
        size_ -= k;
    }
    friend bool operator==(const Limbs& a, const Limbs& b) {
        return a.size_ == b.size_ && (a.size_ == 0 || std::memcmp(a.data(), b.data(), a.size_ * sizeof(std::uint32_t)) == 0);
    }

private:
    void take(Limbs& o) {  // *this holds no heap block
        if (o.heap_) {
            heap_ = std::move(o.heap_);
            cap_ = o.cap_;
        } else if (o.size_ != 0) {
            std::memcpy(inline_, o.inline_, o.size_ * sizeof(std::uint32_t));
        }
        size_ = o.size_;
        o.size_ = 0;
        o.cap_ = kInline;
    }

    std::unique_ptr<std::uint32_t[]> heap_;
    std::size_t size_ = 0;
    std::size_t cap_ = kInline;
    std::uint32_t inline_[kInline];
};

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

/// A double value v and the magnitude m of its expression: the same expression evaluated
/// with every operand in absolute value and every subtraction as an addition, except that
/// the sum or difference of two inputs counts as an input itself (its computed magnitude).
/// This is the semi-static filter of Shewchuk (1997, §4.2: an error bound proportional to
/// the "permanent" of the expression in the differences of the inputs, as his orient2d's
/// |detleft| + |detright|) and of Burnikel, Funke and Seel ("Exact geometric computation
/// using cascading", 2001): a handful of flops per operation, against Filtered's exactness
/// tests. Counting differences, not coordinates, makes the bound depend on the distances
/// involved only: a scene translated to 1e9 is decided as often as the same scene near 0.
///
/// Why m * 2^-48 bounds the error. Every operation rounds once: fl(x op y) = (x op y)(1 + d)
/// with |d| <= u = 2^-53. Expand the computed value as a sum of monomials in the exact
/// sums and differences of input pairs s_i (a rounded s_i is s_i (1 + d_i), so its factor
/// joins the product of the others): each monomial carries a product of at most k factors
/// (1 + d) for the k rounded operations on its path, so with k <= 16 the error is at most
/// gamma_k M, gamma_k = k u / (1 - k u) and M the sum of the monomials' absolute values
/// (Higham, "Accuracy and Stability of Numerical Algorithms", 2002, §3.1 and Lemma 3.3),
/// provided nothing underflows or overflows. m, computed in floating point from the rounded
/// |s_i| without cancellation, is at least M (1 - u)^16, so the error is below 17 u m <
/// 2^-48 m.
/// Underflow is excluded by the inputs: each is 0 or in [2^-100, 2^100] (any other input
/// makes m infinite, and the sign unknown). Then a sum or difference of inputs is 0 or at
/// least 2^-152 (a multiple of ulp(2^-100), and a nonzero sum never rounds to 0), a product
/// of two such is 0 or at least 2^-304, a sum of products is 0 or at least 2^-356, and a
/// product of two sums of products is at least 2^-712: with at most two levels of products
/// (degree 4) nothing underflows, and nothing comes near overflow. m == 0 therefore means
/// every monomial is exactly 0. sign_of_low_degree may only be given such expressions.
struct Magnitude {
    double v = 0.0;
    double m = 0.0;
    bool input = false;  // v is an input, exactly

    Magnitude() = default;
    explicit Magnitude(double d) : v(d), m(in_range(d) ? std::fabs(d) : HUGE_VAL), input(true) {}
    Magnitude(double value, double magnitude, int) : v(value), m(magnitude) {}

    friend Magnitude operator+(Magnitude a, Magnitude b) { return Magnitude{a.v + b.v, sum_magnitude(a, b, a.v + b.v), 0}; }
    friend Magnitude operator-(Magnitude a, Magnitude b) { return Magnitude{a.v - b.v, sum_magnitude(a, b, a.v - b.v), 0}; }
    friend Magnitude operator*(Magnitude a, Magnitude b) { return Magnitude{a.v * b.v, a.m * b.m, 0}; }
    Magnitude operator-() const { return Magnitude{-v, m, 0}; }

    /// -1, 0 or +1 when certain; Filtered::kUnknown otherwise (an infinite or NaN m never
    /// decides: inf * 0 is NaN, and every comparison with NaN is false).
    int sign() const {
        const double bound = m * 0x1p-48;
        if (v > bound) return 1;
        if (-v > bound) return -1;
        if (m == 0.0) return 0;  // every term is exactly 0
        return Filtered::kUnknown;
    }

    static bool in_range(double d) {
        const double a = std::fabs(d);
        return a == 0.0 || (a >= 0x1p-100 && a <= 0x1p100);
    }

private:
    // The magnitude of a sum or difference v: |v| for two inputs (see above), a.m + b.m
    // otherwise; an input out of range keeps m infinite either way.
    static double sum_magnitude(const Magnitude& a, const Magnitude& b, double v) {
        const double m = a.m + b.m;
        return a.input && b.input && m < HUGE_VAL ? std::fabs(v) : m;
    }
};

/// What sign_of_low_degree and scaled_of need to know of an expression before rescaling it
/// (see Rescaled): the largest input in absolute value, and whether the expression is
/// homogeneous (every monomial of one degree, `degree`), so that multiplying every input
/// by 2^k multiplies its value by 2^(k degree) exactly. Constants count as inputs: scaling
/// them too keeps such an expression homogeneous.
struct Probe {
    double top = 0.0;
    int degree = kZero;
    bool mixed = false;  // monomials of different degrees

    Probe() = default;
    explicit Probe(double d) : top(std::fabs(d)), degree(1) {}

    friend Probe operator+(const Probe& a, const Probe& b) { return sum(a, b); }
    friend Probe operator-(const Probe& a, const Probe& b) { return sum(a, b); }
    friend Probe operator*(const Probe& a, const Probe& b) {
        Probe r;
        r.top = std::max(a.top, b.top);
        r.degree = a.degree == kZero || b.degree == kZero ? kZero : a.degree + b.degree;
        r.mixed = a.mixed || b.mixed;
        return r;
    }
    Probe operator-() const { return *this; }

    bool homogeneous() const { return !mixed && degree != kZero && top > 0.0 && std::isfinite(top); }

private:
    static constexpr int kZero = -1;  // T{}, the zero a predicate starts a sum with: any degree
    static Probe sum(const Probe& a, const Probe& b) {
        Probe r;
        r.top = std::max(a.top, b.top);
        r.degree = a.degree == kZero ? b.degree : a.degree;
        r.mixed = a.mixed || b.mixed || (a.degree != kZero && b.degree != kZero && a.degree != b.degree);
        return r;
    }
};

/// The power of two 2^shift every input is multiplied by while a Rescaled expression is
/// evaluated, as two factors 2^(shift / 2) and 2^(shift - shift / 2), each a normal double
/// for |shift| <= 2044 (ldexp took a fifth of the time of a check near 1e300). Per thread:
/// the predicate's lambda builds its inputs from doubles alone, so the factor cannot travel
/// in the values.
struct RescaleFactor {
    int shift = 0;
    double first = 1.0;
    double second = 1.0;
};
inline RescaleFactor& rescale_factor() {
    static thread_local RescaleFactor factor;
    return factor;
}
inline int rescale_shift() { return rescale_factor().shift; }

/// T (Magnitude or DoubleWord) with every input multiplied by 2^rescale_shift(). Both need
/// their inputs in [2^-100, 2^100]; coordinates near 1e300 (or 1e-300) are not, yet a
/// homogeneous predicate's sign, and its value up to a power of two, are the same for the
/// inputs rescaled into that range. Multiplying by a power of two is exact while the result
/// is a normal double, which the range check on the rescaled input ensures; an input left
/// outside it becomes infinite, which T refuses to decide on.
template <class T>
struct Rescaled : T {
    Rescaled() = default;
    explicit Rescaled(double d) : T(rescaled_input(d)) {}
    Rescaled(const T& t) : T(t) {}  // NOLINT: the results of T's own operators

private:
    static double rescaled_input(double d) {
        if (d == 0.0) return 0.0;
        // Both factors scale the same way, so the first product lies between d and the
        // result: it rounds only when the result is below 2^-1022, which the range refuses
        // (as a result that rounded to 0).
        const RescaleFactor& k = rescale_factor();
        const double a = d * k.first * k.second;
        return a != 0.0 && Magnitude::in_range(a) ? a : HUGE_VAL;
    }
};

/// For a homogeneous f whose inputs lie within a factor 2^100 of its largest, the shift
/// bringing the largest to [1, 2) and f's degree; nothing otherwise.
struct Rescale {
    int shift = 0;
    int degree = 0;
};
template <class F>
bool rescale_for(F&& f, Rescale& r) {
    const Probe p = f(Probe{});
    if (!p.homogeneous()) return false;
    r.shift = -std::ilogb(p.top);
    r.degree = p.degree;
    return true;
}

/// Sets the rescale factor to 2^shift (|shift| <= 2044) for the lifetime of the scope.
class RescaleScope {
public:
    explicit RescaleScope(int shift) : saved_(rescale_factor()) {
        rescale_factor() = RescaleFactor{shift, std::ldexp(1.0, shift / 2), std::ldexp(1.0, shift - shift / 2)};
    }
    ~RescaleScope() { rescale_factor() = saved_; }
    RescaleScope(const RescaleScope&) = delete;
    RescaleScope& operator=(const RescaleScope&) = delete;

private:
    RescaleFactor saved_;
};

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
        const double q = std::fma(a.h, b.h, -p);  // exactly a.h b.h - p: no underflow
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
        const double residual = std::fma(-s, s, x.h);
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

/// sign_of for a homogeneous f whose inputs leave Magnitude's range: Magnitude on the
/// inputs rescaled by a power of two (exact; the sign does not change), then sign_of. Out
/// of line and cold, so that the common path's code stays as small as before.
template <class F>
[[gnu::noinline, gnu::cold]] int sign_of_rescaled(F& f) {
    Rescale k;
    if (rescale_for(f, k)) {
        const RescaleScope scope(k.shift);
        const int t = f(Rescaled<Magnitude>{}).sign();
        if (t != Filtered::kUnknown) return t;
    }
    return sign_of(f);
}

/// sign_of for a predicate of degree at most 4 (at most two levels of products) with at most
/// 16 rounded operations on any path: Magnitude decides the clear cases first, and when an
/// input lies outside its range (coordinates near 1e300), Magnitude on the rescaled inputs.
template <class F>
int sign_of_low_degree(F&& f) {
    const Magnitude r = f(Magnitude{});
    const int s = r.sign();
    if (s != Filtered::kUnknown) return s;
    if (!(r.m < HUGE_VAL)) return sign_of_rescaled(f);  // an input beyond [2^-100, 2^100], or NaN
    return sign_of(f);
}

}  // namespace collide::detail
