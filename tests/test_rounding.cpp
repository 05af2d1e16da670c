// Correct rounding (lib/src/rounding.hpp): the exact value of a quotient of polynomials, with
// square roots, rounded to the nearest double, ties to even (SPEC §2.3, §2.4).
//
// IEEE 754 division, square root and fused multiply-add are correctly rounded themselves, so
// a / b, sqrt(q) and fma(a, b, c) are exact references for round_quotient on random doubles,
// near-ties included; ties and the ends of the double range are checked by hand.
#include "numeric/rounding.hpp"

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>

using collide::Vec2;
using collide::detail::DoubleWord;
using collide::detail::Exact;
using collide::detail::PointQuotient;
using collide::detail::Quotient;
using collide::detail::Root;
using collide::detail::round_point;
using collide::detail::round_quotient;
using collide::detail::sign_value;

namespace {

// The value num / den of doubles, as a generic form.
auto ratio(double num, double den) {
    return [=](auto zero) {
        using T = decltype(zero);
        return Quotient<T, T>{T(num), T(den)};
    };
}

// (a + b sqrt(q)) / d.
auto surd(double a, double b, double q, double d) {
    return [=](auto zero) {
        using T = decltype(zero);
        return Quotient<Root<T>, T>{Root<T>{T(a), T(b), T(q)}, T(d)};
    };
}

// Random doubles with random exponents over a wide range, both signs, and random mantissas.
class Doubles {
public:
    explicit Doubles(unsigned seed) : rng_(seed) {}
    double any(int lo_exp = -60, int hi_exp = 60) {
        std::uniform_int_distribution<int> e(lo_exp, hi_exp);
        std::uniform_real_distribution<double> m(1.0, 2.0);
        const double v = std::ldexp(m(rng_), e(rng_));
        return rng_() % 2 ? -v : v;
    }
    double positive(int lo_exp = -60, int hi_exp = 60) { return std::fabs(any(lo_exp, hi_exp)); }
    std::mt19937_64& rng() { return rng_; }

private:
    std::mt19937_64 rng_;
};

Exact abs(const Exact& x) { return x.sign() < 0 ? -x : x; }

}  // namespace

TEST_CASE("round_quotient: a quotient of two doubles is IEEE division's result") {
    CHECK(round_quotient(ratio(7, 3), 2.3) == 7.0 / 3.0);
    CHECK(round_quotient(ratio(-7, 3), 0.0) == -7.0 / 3.0);  // any start works, only slower
    CHECK(round_quotient(ratio(7, -3), 1e300) == 7.0 / -3.0);
    Doubles d(15);
    for (int i = 0; i < 20000; ++i) {
        const double a = d.any();
        const double b = d.any();
        // Start where a sloppy computation would: a few ulps off, or far off.
        const double start = i % 3 == 0 ? a / b * (1 + 1e-15) : (i % 3 == 1 ? a / b : 1.0);
        const std::optional<double> r = round_quotient(ratio(a, b), start);
        REQUIRE(r);
        if (*r != a / b) {
            CAPTURE(a);
            CAPTURE(b);
            CHECK(*r == a / b);
        }
    }
}

TEST_CASE("round_quotient: subnormal and out-of-range quotients") {
    const double tiny = std::numeric_limits<double>::denorm_min();
    CHECK(round_quotient(ratio(3 * tiny, 2), 0.0) == 3 * tiny / 2);  // 1.5 ulps: a tie, to even 2
    CHECK(round_quotient(ratio(0x1p-1000, 0x1p60), 0.0) == 0x1p-1060);
    CHECK(round_quotient(ratio(0x1p-1000, 0x1p75), 1.0) == 0.0);  // 2^-1074 / 2: a tie, even 0
    CHECK(round_quotient(ratio(0x1p-1000, 0x1p80), 1.0) == 0.0);  // below half of denorm_min
    CHECK_FALSE(round_quotient(ratio(DBL_MAX, 0.5), DBL_MAX));  // 2 DBL_MAX rounds to inf
    CHECK_FALSE(round_quotient(ratio(-DBL_MAX, 0.75), -DBL_MAX));
    CHECK(round_quotient(ratio(DBL_MAX, 1.0), 0.0) == DBL_MAX);
    CHECK(round_quotient(ratio(0, 5), 3.0) == 0.0);
}

TEST_CASE("round_quotient: ties go to the even neighbour") {
    // 1 + 2^-53 lies halfway between 1 and 1 + 2^-52: even is 1. 1 + 3 2^-53 lies halfway
    // between 1 + 2^-52 and 1 + 2^-51: even is 1 + 2^-51.
    auto sum = [](double u, double v, double w = 0.0) {
        return [=](auto zero) {
            using T = decltype(zero);
            return Quotient<T, T>{T(u) + T(v) + T(w), T(1.0)};
        };
    };
    CHECK(round_quotient(sum(1.0, 0x1p-53), 1.0) == 1.0);
    CHECK(round_quotient(sum(1.0, 3 * 0x1p-53), 1.0) == 1 + 0x1p-51);
    CHECK(round_quotient(sum(-1.0, -3 * 0x1p-53), 1.0) == -1 - 0x1p-51);
    // Just off the tie, either way: the nearer neighbour.
    CHECK(round_quotient(sum(1.0, 0x1p-53, 0x1p-80), 1.0) == 1 + 0x1p-52);
    CHECK(round_quotient(sum(1.0, 0x1p-53, -0x1p-80), 1.0) == 1.0);
}

TEST_CASE("round_quotient: a product plus a double is fma's result") {
    Doubles d(16);
    for (int i = 0; i < 20000; ++i) {
        const double a = d.any();
        const double b = d.any();
        // c cancels most of a b: the rounding of a b + c depends on the low bits of a b.
        const double c = i % 2 ? -(a * b) * (1 + std::ldexp(1.0, -40 - static_cast<int>(d.rng()() % 12))) : d.any();
        const std::optional<double> r = round_quotient(
            [=](auto zero) {
                using T = decltype(zero);
                return Quotient<T, T>{T(a) * T(b) + T(c), T(1.0)};
            },
            a * b + c);
        REQUIRE(r);
        if (*r != std::fma(a, b, c)) {
            CAPTURE(a);
            CAPTURE(b);
            CAPTURE(c);
            CHECK(*r == std::fma(a, b, c));
        }
    }
}

TEST_CASE("round_quotient: a square root is IEEE sqrt's result, and a + b sqrt(q) reduces to it") {
    Doubles d(17);
    for (int i = 0; i < 20000; ++i) {
        const double q = d.positive(-300, 300);
        REQUIRE(round_quotient(surd(0, 1, q, 1), 1.0) == std::sqrt(q));
        REQUIRE(round_quotient(surd(0, -1, q, 1), 1.0) == -std::sqrt(q));
        // sqrt(q) / 2^k and 2^k sqrt(q) are exact scalings of the same root.
        REQUIRE(round_quotient(surd(0, 1, q, 0x1p-20), 1.0) == std::sqrt(q) * 0x1p20);
    }
    // Perfect squares and a root of 0: exact values.
    CHECK(round_quotient(surd(1, 1, 9, 2), 0.0) == 2.0);    // (1 + 3) / 2
    CHECK(round_quotient(surd(1, -1, 9, 2), 0.0) == -1.0);  // (1 - 3) / 2
    CHECK(round_quotient(surd(5, 1, 0, 1), 0.0) == 5.0);
    // (1 + sqrt(2)) / 2 = 1.2071067811865475244..., the double nearest it.
    CHECK(round_quotient(surd(1, 1, 2, 2), 1.0) == 1.2071067811865475);
}

TEST_CASE("sign_value of a root form decides by squaring, exactly") {
    auto sign = [](double a, double b, double q) { return sign_value(Root<Exact>{Exact(a), Exact(b), Exact(q)}); };
    CHECK(sign(3, -1, 9) == 0);   // 3 - sqrt(9)
    CHECK(sign(3, -1, 8) == 1);   // 3 - sqrt(8)
    CHECK(sign(3, -1, 10) == -1);
    CHECK(sign(-3, 1, 10) == 1);
    CHECK(sign(0, 0, 5) == 0);
    CHECK(sign(-2, 5, 0) == -1);  // nothing under the root
    // Two roots: (a + b sqrt(3)) + sqrt(2), a number of Q(sqrt 3)(sqrt 2).
    using R = Root<Exact>;
    auto two_roots = [](double a, double b) {
        return sign_value(Root<R>{R{Exact(a), Exact(b), Exact(3.0)}, R{Exact(1.0), Exact(0.0), Exact(3.0)},
                                  R{Exact(2.0), Exact(0.0), Exact(3.0)}});
    };
    CHECK(two_roots(-3, 1) == 1);   // sqrt 3 - 3 + sqrt 2 = 0.146...
    CHECK(two_roots(-4, 1) == -1);  // -0.853...
    CHECK(two_roots(0, -1) == -1);  // sqrt 2 - sqrt 3
    CHECK(two_roots(-5, 0) == -1);
}

TEST_CASE("DoubleWord division and square root: the exact value lies within the bound") {
    // Checked with Exact: |q b - a| <= e |b| for the quotient q = h + l and bound e, and
    // |s^2 - x| <= e (2 s + e) for the root s. a and b carry low parts and error bounds.
    Doubles d(18);
    for (int i = 0; i < 5000; ++i) {
        const double a1 = d.any(), a2 = d.any(-120, -60), b1 = d.any(), b2 = d.any(-120, -60);
        const DoubleWord a = DoubleWord(a1) * DoubleWord(a2) + DoubleWord(b1);  // a double-word value
        const DoubleWord b = DoubleWord(b1) + DoubleWord(b2) * DoubleWord(a1);
        const DoubleWord q = a / b;
        if (q.unsure) continue;
        const Exact ea = Exact(a1) * Exact(a2) + Exact(b1);
        const Exact eb = Exact(b1) + Exact(b2) * Exact(a1);
        const Exact off = (Exact(q.h) + Exact(q.l)) * eb - ea;
        CHECK((abs(off) - Exact(q.e) * abs(eb)).sign() <= 0);
        const DoubleWord x = DoubleWord(std::fabs(a1)) * DoubleWord(std::fabs(a1)) + DoubleWord(std::fabs(b1));
        const DoubleWord s = sqrt(x);
        if (s.unsure) continue;
        const Exact ex = Exact(std::fabs(a1)) * Exact(std::fabs(a1)) + Exact(std::fabs(b1));
        const Exact es = Exact(s.h) + Exact(s.l);
        // |s - sqrt(x)| <= e, so |s^2 - x| <= e (2 s + e).
        CHECK((abs(es * es - ex) - Exact(s.e) * (Exact(2.0) * es + Exact(s.e))).sign() <= 0);
    }
}

TEST_CASE("round_point: both coordinates, one known exactly") {
    // The point (1 / 3, 2 / 3) on x + y = 1, y = 2x; x given as known: it is kept as given.
    auto third = [](auto zero) {
        using T = decltype(zero);
        return PointQuotient<T, T>{T(1.0), T(2.0), T(3.0)};
    };
    auto near = [] { return std::optional<Vec2>(Vec2{0.3, 0.7}); };
    const std::optional<Vec2> p = round_point(third, near);
    REQUIRE(p);
    CHECK(p->x == 1.0 / 3.0);
    CHECK(p->y == 2.0 / 3.0);
    const std::optional<Vec2> q = round_point(third, near, 0.25);
    REQUIRE(q);
    CHECK(q->x == 0.25);
    CHECK(q->y == 2.0 / 3.0);
}

TEST_CASE("Filtered quotient and square root: the exact value lies within the bound") {
    // Checked with Exact on values that carry error bounds of their own (a product that
    // rounded): |q b - a| <= e |b| for the quotient, |s^2 - x| <= e (2 s + e) for the root.
    using collide::detail::Filtered;
    Doubles d(27);
    int quotients = 0, roots = 0;
    for (int i = 0; i < 5000; ++i) {
        const double a1 = d.any(), a2 = d.any(), b1 = d.any(), b2 = d.any();
        const Filtered a = Filtered(a1) * Filtered(a2) + Filtered(b1);
        const Filtered b = Filtered(b1) * Filtered(b2) + Filtered(a1);
        const Exact ea = Exact(a1) * Exact(a2) + Exact(b1);
        const Exact eb = Exact(b1) * Exact(b2) + Exact(a1);
        if (const std::optional<Filtered> q = quotient(a, b)) {
            ++quotients;
            CHECK((abs(Exact(q->v) * eb - ea) - Exact(q->e) * abs(eb)).sign() <= 0);
        }
        const Filtered x = Filtered(a1) * Filtered(a1) + Filtered(std::fabs(b1));
        const Exact ex = Exact(a1) * Exact(a1) + Exact(std::fabs(b1));
        if (const std::optional<Filtered> s = sqrt_of(x)) {
            ++roots;
            const Exact es(s->v);
            CHECK((abs(es * es - ex) - Exact(s->e) * (Exact(2.0) * es + Exact(s->e))).sign() <= 0);
        }
    }
    CHECK(quotients > 4500);  // b's interval leaves out 0 but for cancellations
    CHECK(roots == 5000);     // x > 0 always
    // Intervals that hold 0 have no quotient by them and no root.
    CHECK(!quotient(Filtered(1.0), Filtered(0.0)));
    CHECK(!sqrt_of(Filtered(0.0)));
    CHECK(!sqrt_of(Filtered(-4.0)));
}

TEST_CASE("round_offset: base + offset to the nearest double when plain doubles settle it") {
    using collide::detail::Filtered;
    using collide::detail::round_offset;
    // Whenever it answers, the answer is the nearest double (checked with Exact), at any
    // magnitude; a coordinate of a level (2^8 to 2^17) plus an offset of a shape's size (up
    // to 2^6), known within its own few ulps, is settled nearly always.
    Doubles d(28);
    const auto run = [&](int base_lo, int base_hi, int offset_lo, int offset_hi) {
        int settled = 0;
        for (int i = 0; i < 10000; ++i) {
            const double base = d.any(base_lo, base_hi), o1 = d.any(offset_lo / 2, offset_hi / 2),
                         o2 = d.any(offset_lo / 2, offset_hi / 2), o3 = d.any(offset_lo, offset_hi);
            const Filtered offset = Filtered(o1) * Filtered(o2) + Filtered(o3);
            const Exact exact = Exact(base) + Exact(o1) * Exact(o2) + Exact(o3);
            if (const std::optional<double> s = round_offset(base, offset)) {
                ++settled;
                REQUIRE(*s == exact.to_double());
            }
        }
        return settled;
    };
    CHECK(run(8, 17, -8, 6) > 9500);
    CHECK(run(-60, 60, -60, 60) > 0);
    CHECK(run(-4, 4, -8, 6) > 0);
    // A tie (1 + 2^-53 lies halfway between 1 and its successor) is never settled here: the
    // exact path rounds it to even.
    CHECK(!round_offset(1.0, Filtered(0x1p-53)));
    // Just below a power of two the doubles are twice as close: 2 - 2^-53 is the midpoint
    // between 2 - 2^-52 and 2, and 2^-54 below 2 rounds to 2.
    CHECK(!round_offset(2.0, Filtered(-0x1p-53)));
    CHECK(round_offset(2.0, Filtered(-0x1p-55)) == 2.0);
    CHECK(round_offset(-2.0, Filtered(0x1p-55)) == -2.0);
    // Exact offsets: a plain sum of doubles is IEEE's.
    CHECK(round_offset(10000.5, Filtered(-3.25)) == 9997.25);
}
