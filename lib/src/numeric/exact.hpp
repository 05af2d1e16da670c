// Exact sign evaluation of polynomial predicates over double inputs.
//
// A predicate is written once as a generic lambda over a number type T and evaluated
// first with Filtered (filtered.hpp: a double plus a rigorous bound on its absolute error)
// and, only when that cannot decide the sign, with Exact (an arbitrary-precision dyadic
// rational: every double, and every sum, difference and product of them, is represented
// without rounding). This is the "floating-point filter + exact fallback" scheme of
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

#include "numeric/double_word.hpp"  // for the evaluators that round with it beside Exact
#include "numeric/filtered.hpp"
#include "numeric/scaled.hpp"
#include "support/assert.hpp"

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

/// ilogb(d) for a finite d != 0, read from the bits when d is normal.
inline int binary_exponent(double d) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &d, sizeof bits);
    const auto biased = static_cast<int>((bits >> 52) & 0x7ff);
    return biased != 0 ? biased - 1023 : std::ilogb(d);
}

/// What sign_of_low_degree and scaled_of need to know of an expression before rescaling it
/// (see Rescaled): the largest and the least nonzero input in absolute value, and whether the
/// expression is homogeneous (every monomial of one degree, `degree`), so that multiplying
/// every input by 2^k multiplies its value by 2^(k degree) exactly. Constants count as
/// inputs: scaling them too keeps such an expression homogeneous.
struct Probe {
    double top = 0.0;
    double bottom = HUGE_VAL;
    int degree = kZero;
    bool mixed = false;  // monomials of different degrees

    Probe() = default;
    explicit Probe(double d) : top(std::fabs(d)), bottom(d != 0.0 ? std::fabs(d) : HUGE_VAL), degree(1) {}

    friend Probe operator+(const Probe& a, const Probe& b) { return sum(a, b); }
    friend Probe operator-(const Probe& a, const Probe& b) { return sum(a, b); }
    friend Probe operator*(const Probe& a, const Probe& b) {
        Probe r;
        r.top = std::max(a.top, b.top);
        r.bottom = std::min(a.bottom, b.bottom);
        r.degree = a.degree == kZero || b.degree == kZero ? kZero : a.degree + b.degree;
        r.mixed = a.mixed || b.mixed;
        return r;
    }
    Probe operator-() const { return *this; }

    bool homogeneous() const { return !mixed && degree != kZero && top > 0.0 && std::isfinite(top); }
    /// Whether every nonzero input lies within 2^100 of the largest (by their ilogb): what
    /// Rescaled needs, as Magnitude and DoubleWord need their inputs in [2^-100, 2^100].
    bool narrow() const {
        return top > 0.0 && std::isfinite(top) && binary_exponent(top) - binary_exponent(bottom) <= 100;
    }

private:
    static constexpr int kZero = -1;  // T{}, the zero a predicate starts a sum with: any degree
    static Probe sum(const Probe& a, const Probe& b) {
        Probe r;
        r.top = std::max(a.top, b.top);
        r.bottom = std::min(a.bottom, b.bottom);
        r.degree = a.degree == kZero ? b.degree : a.degree;
        r.mixed = a.mixed || b.mixed || (a.degree != kZero && b.degree != kZero && a.degree != b.degree);
        return r;
    }
};

/// x times f = 2^-s, 0 < s <= 1022 (Rescaled's sums): exact for the values, as Rescaled's
/// argument shows; DoubleWord's error bound, which may be tiny, gets 2^-1040 (its kTiny)
/// added below 2^-1000 to cover the rounding of a subnormal product.
[[gnu::always_inline]] inline Magnitude times_power_of_two(Magnitude x, double f) {
    x.v *= f;
    x.m *= f;
    return x;
}
[[gnu::always_inline]] inline DoubleWord times_power_of_two(DoubleWord x, double f) {
    x.h *= f;
    x.l *= f;
    if (x.e != 0.0) {
        x.e *= f;
        if (x.e < 0x1p-1000) x.e += 0x1p-1040;
    }
    return x;
}

/// 2^n for a normal exponent n (-1022 <= n <= 1023), without ldexp (which took a fifth of
/// the time of a check near 1e300).
inline double power_of_two(int n) {
    const std::uint64_t bits = static_cast<std::uint64_t>(n + 1023) << 52;
    double d = 0.0;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

/// T (Magnitude or DoubleWord) on rescaled inputs, each value carrying its own power of
/// two: it stands for t * 2^e. Both T need their inputs in [2^-100, 2^100]; coordinates near
/// 1e300 (or 1e-300) are not, yet a homogeneous predicate's sign, and its value up to a power
/// of two, are those of the inputs rescaled into that range. For an f that rescalable(f)
/// accepts only.
///
/// The factor travels in the values, not beside them (a predicate's lambda builds its inputs
/// from doubles alone, T(x), so nothing else could hand them a factor but a hidden per-thread
/// variable): an input d becomes d * 2^-e, in [1, 2^64), exactly, with e its binary exponent
/// ilogb(d) rounded down to a multiple of 64 (so that the inputs of one predicate, mostly of
/// nearby magnitudes, mostly share one e); a product multiplies the t and adds the e; a sum
/// brings the operand of the lower e to the higher one by an exact multiplication by a power of
/// two. This computes exactly what T computes on every input multiplied by 2^-E, E = ilogb of
/// the largest input, each value scaled by a further power of two 2^(j E - e) >= 1 for its
/// degree j (by induction: an input's e is at most E, a product's e is the sum of its factors',
/// a sum's their largest, and homogeneous sums add values of one degree). T's values there are
/// 0 or far from underflow (its range argument: the inputs lie within 2^100 of the largest),
/// so these larger ones are too, and far from overflow (from inputs below 2^64, of degree at
/// most 5); every rounding is the same one scaled, and Magnitude's sign is the same;
/// DoubleWord's bound stays rigorous (times_power_of_two). An infinite or NaN input is left as
/// it is, for T to refuse.
template <class T>
struct Rescaled {
    T t;
    int e = kZero;

    Rescaled() = default;
    [[gnu::always_inline]] explicit Rescaled(double d) { t = input(d, e); }  // e set first, to kZero

    [[gnu::always_inline]] friend Rescaled operator*(const Rescaled& a, const Rescaled& b) {
        return Rescaled(a.t * b.t, a.e == kZero || b.e == kZero ? kZero : a.e + b.e);
    }
    [[gnu::always_inline]] friend Rescaled operator+(const Rescaled& a, const Rescaled& b) {
        const int top = std::max(a.e, b.e);
        return Rescaled(aligned(a, top) + aligned(b, top), top);
    }
    [[gnu::always_inline]] friend Rescaled operator-(const Rescaled& a, const Rescaled& b) {
        const int top = std::max(a.e, b.e);
        return Rescaled(aligned(a, top) - aligned(b, top), top);
    }
    [[gnu::always_inline]] Rescaled operator-() const { return Rescaled(-t, e); }

private:
    static constexpr int kZero = -(1 << 20);  // e of an exact 0 (any power of two would do)

    Rescaled(const T& value, int exponent) : t(value), e(exponent) {}

    // d * 2^-e, setting e; a normal d by rewriting its exponent bits.
    [[gnu::always_inline]] static T input(double d, int& e) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &d, sizeof bits);
        const auto biased = static_cast<int>((bits >> 52) & 0x7ff);
        if (d == 0.0 || biased == 0x7ff) return T(d);  // 0 needs no exponent; T refuses inf and NaN
        if (biased == 0) {  // subnormal: e is -1024 or -1088, and each product is exact
            e = std::ilogb(d) & ~63;
            return T(d * power_of_two(-e / 2) * power_of_two(-e - (-e / 2)));
        }
        e = (biased - 1023) & ~63;  // rounded down, negative ones too
        bits = (bits & ~(std::uint64_t{0x7ff} << 52)) | (static_cast<std::uint64_t>(biased - e) << 52);
        std::memcpy(&d, &bits, sizeof d);
        return T(d);
    }

    // x.t as a value of exponent top >= x.e: the inputs' e differ by at most 128 (they lie
    // within 2^100 of each other), so the shift is at most 640 at degree 5.
    [[gnu::always_inline]] static T aligned(const Rescaled& x, int top) {
        const int shift = x.e == kZero ? 0 : top - x.e;
        COLLIDE_ASSERT(shift >= 0 && shift <= 1022);
        return shift == 0 ? x.t : times_power_of_two(x.t, power_of_two(-shift));
    }
};

/// Whether f is homogeneous (every monomial of one degree) with finite inputs, not all zero,
/// whose nonzero ones lie within 2^100 of the largest: then Rescaled may evaluate it.
template <class F>
bool rescalable(F&& f) {
    const Probe p = f(Probe{});
    return p.homogeneous() && p.narrow();
}

/// sign_of for a homogeneous f whose inputs leave Magnitude's range: Magnitude on the
/// inputs rescaled by a power of two (exact; the sign does not change), then sign_of. Out
/// of line and cold, so that the common path's code stays as small as before.
template <class F>
[[gnu::noinline, gnu::cold]] int sign_of_rescaled(F& f) {
    if (rescalable(f)) {
        const int t = f(Rescaled<Magnitude>{}).t.sign();
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
