// Exact dyadic arithmetic, and why Filtered's error bounds (filtered.hpp) are rigorous.
//
// Filtered bounds. Let u = 2^-53. Round-to-nearest gives |fl(x) - x| <= u|fl(x)| for a
// normal result; a subnormal sum is exact and a subnormal product is off by at most
// 2^-1075. Every term of a bound is >= 0, so each rounding of the bound computation can
// only shrink it, by a factor no worse than (1 - u), or by 2^-1075 absolutely when a
// product underflows.
// - Sum: |exact - v| <= a.e + b.e + |a+b - v|. The last term is <= fl(u|v|): a sum that
//   rounds has |v| >= 2^-1021, its error is at most half an ulp, a power of two >= 2^-1074
//   that is <= u|v| and therefore <= fl(u|v|). Computing (a.e + b.e + fl(u|v|)) * kInflate
//   rounds three times: (1 - u)^3 (1 + 2^-50) = (1 - 3u)(1 + 8u) + O(u^2) > 1. A subnormal
//   partial sum was computed exactly and multiplying it by kInflate >= 1 cannot make it
//   smaller, so underflow costs nothing.
// - Product: |exact - v| <= |a.v| b.e + |b.v| a.e + a.e b.e + |a.v b.v - v|, the last
//   term <= u|v| + 2^-1075. The longest chain of roundings a term goes through is one
//   product, three sums, the multiplication by kInflate and the addition of kTiny: six,
//   and (1 - 6u)(1 + 8u) > 1. Underflow can lose 2^-1075 in each of the four products and
//   in the multiplication by kInflate, plus 2^-1075 for the product v itself: six units of
//   2^-1075 in all, which kTiny = 2^-1072 (eight units, minus a relative u) covers.
// - FMA contraction by the compiler removes roundings and never adds one; a fused
//   a.v*b.v + c skips exactly the rounding that the product's own bound already pays for.
// - Exactness shortcuts (e = 0) are argued next to them in filtered.hpp.
#include "numeric/exact.hpp"

#include <cassert>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

namespace collide::detail {
namespace {

static_assert(std::numeric_limits<double>::is_iec559, "Exact and Filtered need IEEE doubles");


constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();

[[noreturn]] void exponent_overflow() {
    throw std::overflow_error("collide: exact arithmetic exponent out of range");
}

std::int64_t checked_add(std::int64_t a, std::int64_t b) {
    if ((b > 0 && a > kInt64Max - b) || (b < 0 && a < kInt64Min - b)) exponent_overflow();
    return a + b;
}

std::int64_t checked_sub(std::int64_t a, std::int64_t b) {
    if ((b < 0 && a > kInt64Max + b) || (b > 0 && a < kInt64Min + b)) exponent_overflow();
    return a - b;
}

// Number of significant bits; m has no leading zero limbs.
std::int64_t bit_length(const Limbs& m) {
    if (m.empty()) return 0;
    std::int64_t n = static_cast<std::int64_t>(m.size() - 1) * 32;
    for (std::uint32_t top = m.back(); top != 0; top >>= 1) ++n;
    return n;
}

bool bit_at(const Limbs& m, std::int64_t pos) {
    const auto limb = static_cast<std::size_t>(pos / 32);
    return ((m[limb] >> (pos % 32)) & 1u) != 0;
}

// The n <= 64 bits of m from bit `from` up, as an integer (bits beyond m are 0).
std::uint64_t bits_from(const Limbs& m, std::int64_t from, std::int64_t n) {
    if (n <= 0) return 0;
    const auto limb = static_cast<std::size_t>(from / 32);
    const auto shift = static_cast<unsigned>(from % 32);
    // Three limbs hold any 64 bits starting inside the first.
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
    for (std::size_t k = 0; k < 3; ++k) {
        const std::uint64_t w = limb + k < m.size() ? m[limb + k] : 0u;
        if (k < 2) lo |= w << (32 * k);
        else hi = w;
    }
    std::uint64_t r = lo >> shift;
    if (shift != 0) r |= hi << (64 - shift);
    return n == 64 ? r : r & ((std::uint64_t{1} << n) - 1);
}

// -1, 0, +1 as |a| compares with |b|; both without leading zero limbs.
int compare_mag(const Limbs& a, const Limbs& b) {
    if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
    for (std::size_t i = a.size(); i-- > 0;) {
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    }
    return 0;
}

Limbs add_mag(const Limbs& a, const Limbs& b) {
    const Limbs& lo = a.size() < b.size() ? a : b;
    const Limbs& hi = a.size() < b.size() ? b : a;
    Limbs r(hi.size() + 1, 0);
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < hi.size(); ++i) {
        carry += std::uint64_t{hi[i]} + (i < lo.size() ? lo[i] : 0u);
        r[i] = static_cast<std::uint32_t>(carry);
        carry >>= 32;
    }
    r[hi.size()] = static_cast<std::uint32_t>(carry);
    return r;
}

// a - b for |a| >= |b|.
Limbs sub_mag(const Limbs& a, const Limbs& b) {
    Limbs r(a.size(), 0);
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        // Unsigned wrap-around: a negative difference leaves 2^64 - k, whose low limb is
        // 2^32 - k and whose top bit is the borrow.
        const std::uint64_t d = std::uint64_t{a[i]} - (i < b.size() ? b[i] : 0u) - borrow;
        r[i] = static_cast<std::uint32_t>(d);
        borrow = d >> 63;
    }
    assert(borrow == 0);
    return r;
}

// m * 2^bits, without leading zero limbs if m had none.
Limbs shift_left(const Limbs& m, std::int64_t bits) {
    assert(bits >= 0);
    const std::uint64_t whole = static_cast<std::uint64_t>(bits) / 32;
    const unsigned part = static_cast<unsigned>(bits % 32);
    if (whole >= m.max_size() - m.size() - 1) throw std::length_error("collide: exact value too large");
    Limbs r(static_cast<std::size_t>(whole), 0);
    r.reserve(r.size() + m.size() + 1);
    if (part == 0) {  // a shift by 32 - 0 below would be undefined
        r.append(m);
        return r;
    }
    std::uint32_t carry = 0;
    for (std::uint32_t limb : m) {
        r.push_back((limb << part) | carry);
        carry = limb >> (32 - part);
    }
    if (carry != 0) r.push_back(carry);
    return r;
}

Limbs mul_mag(const Limbs& a, const Limbs& b) {
    Limbs r(a.size() + b.size(), 0);
    for (std::size_t i = 0; i < a.size(); ++i) {
        std::uint64_t carry = 0;
        for (std::size_t j = 0; j < b.size(); ++j) {
            // (2^32 - 1)^2 + 2 (2^32 - 1) = 2^64 - 1: cannot overflow.
            carry += std::uint64_t{a[i]} * b[j] + r[i + j];
            r[i + j] = static_cast<std::uint32_t>(carry);
            carry >>= 32;
        }
        r[i + b.size()] = static_cast<std::uint32_t>(carry);
    }
    return r;
}

}  // namespace

Exact Exact::make(bool neg, Limbs mag, std::int64_t exp) {
    while (!mag.empty() && mag.back() == 0) mag.pop_back();
    if (mag.empty()) return Exact{};
    std::size_t zero_limbs = 0;
    while (mag[zero_limbs] == 0) ++zero_limbs;
    const auto zero_bits = static_cast<unsigned>(__builtin_ctz(mag[zero_limbs]));  // the limb is not 0
    exp = checked_add(exp, static_cast<std::int64_t>(zero_limbs) * 32 + zero_bits);

    mag.erase_front(zero_limbs);
    if (zero_bits != 0) {  // a shift by 32 - 0 would be undefined
        for (std::size_t i = 0; i < mag.size(); ++i) {
            const std::uint32_t next = i + 1 < mag.size() ? mag[i + 1] : 0u;
            mag[i] = (mag[i] >> zero_bits) | (next << (32 - zero_bits));
        }
        if (mag.back() == 0) mag.pop_back();
    }
    Exact r;
    r.neg_ = neg;
    r.mag_ = std::move(mag);
    r.exp_ = exp;
    return r;
}

Exact::Exact(double d) {
    if (!std::isfinite(d)) throw std::domain_error("collide: Exact needs a finite double");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &d, sizeof bits);
    const int biased = static_cast<int>((bits >> 52) & 0x7FF);
    std::uint64_t m = bits & ((std::uint64_t{1} << 52) - 1);
    std::int64_t e = -1074;  // subnormal: m * 2^-1074
    if (biased != 0) {
        m |= std::uint64_t{1} << 52;
        e = biased - 1075;
    }
    if (m == 0) return;  // +-0 is the canonical zero
    // Canonical at once: the trailing zero bits of the mantissa go into the exponent.
    const int tz = __builtin_ctzll(m);
    m >>= tz;
    neg_ = (bits >> 63) != 0;
    exp_ = e + tz;
    mag_.push_back(static_cast<std::uint32_t>(m));
    if ((m >> 32) != 0) mag_.push_back(static_cast<std::uint32_t>(m >> 32));
}

Exact operator+(const Exact& a, const Exact& b) {
    if (a.mag_.empty()) return b;
    if (b.mag_.empty()) return a;
    // Shift the operand with the larger exponent left so both share the smaller one.
    const std::int64_t diff = checked_sub(a.exp_, b.exp_);
    Limbs shifted;
    if (diff > 0) shifted = shift_left(a.mag_, diff);
    if (diff < 0) shifted = shift_left(b.mag_, checked_sub(0, diff));
    const Limbs& ma = diff > 0 ? shifted : a.mag_;
    const Limbs& mb = diff < 0 ? shifted : b.mag_;
    const std::int64_t exp = diff > 0 ? b.exp_ : a.exp_;
    if (a.neg_ == b.neg_) return Exact::make(a.neg_, add_mag(ma, mb), exp);
    if (compare_mag(ma, mb) >= 0) return Exact::make(a.neg_, sub_mag(ma, mb), exp);
    return Exact::make(b.neg_, sub_mag(mb, ma), exp);
}

Exact operator-(const Exact& a, const Exact& b) { return a + (-b); }

Exact operator*(const Exact& a, const Exact& b) {
    if (a.mag_.empty() || b.mag_.empty()) return Exact{};
    return Exact::make(a.neg_ != b.neg_, mul_mag(a.mag_, b.mag_), checked_add(a.exp_, b.exp_));
}

Exact Exact::operator-() const {
    Exact r = *this;
    if (!r.mag_.empty()) r.neg_ = !r.neg_;
    return r;
}

double Exact::to_double() const {
    if (mag_.empty()) return 0.0;
    const double inf = std::numeric_limits<double>::infinity();
    if (exp_ > 1100) return neg_ ? -inf : inf;  // mag_ >= 1, so |value| >= 2^1101
    const std::int64_t nbits = bit_length(mag_);
    const std::int64_t top = exp_ + nbits - 1;  // 2^top <= |value| < 2^(top + 1)
    if (top > 1023) return neg_ ? -inf : inf;
    if (top < -1075) return neg_ ? -0.0 : 0.0;  // below half the smallest subnormal
    // Bits the result can hold at this magnitude: 53, fewer for subnormals (0 when
    // |value| lies in [2^-1075, 2^-1074), where it rounds to 0 or to 2^-1074).
    const std::int64_t precision = top >= -1022 ? 53 : top + 1075;
    std::uint64_t keep = 0;
    std::int64_t keep_exp = 0;
    round_to(precision, keep, keep_exp);
    // keep <= 2^53 converts exactly; ldexp is exact or overflows to inf.
    const double r = std::ldexp(static_cast<double>(keep), static_cast<int>(keep_exp));
    return neg_ ? -r : r;
}

Scaled Exact::to_scaled() const {
    if (mag_.empty()) return Scaled{};
    std::uint64_t keep = 0;
    std::int64_t keep_exp = 0;
    round_to(53, keep, keep_exp);
    const double m = static_cast<double>(keep);  // keep <= 2^53 converts exactly
    return Scaled::make(neg_ ? -m : m, keep_exp);
}

void Exact::round_to(std::int64_t precision, std::uint64_t& keep, std::int64_t& keep_exp) const {
    const std::int64_t nbits = bit_length(mag_);
    keep = 0;
    keep_exp = exp_;
    if (nbits <= precision) {
        keep = bits_from(mag_, 0, nbits);
        return;
    }
    const std::int64_t drop = nbits - precision;
    keep = bits_from(mag_, drop, precision);
    keep_exp = exp_ + drop;
    // mag_ is odd, so bit 0 is set: anything lies below the round bit iff drop > 1.
    const bool round = bit_at(mag_, drop - 1);
    const bool sticky = drop > 1;
    if (round && (sticky || (keep & 1u) != 0)) ++keep;  // ties to even
}

}  // namespace collide::detail
