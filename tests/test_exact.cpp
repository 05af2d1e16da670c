// Exact and Filtered arithmetic, and sign_of, the filtered predicate evaluator.
#include "numeric/exact.hpp"
#include "numeric/predicates.hpp"

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>

using collide::detail::Exact;
using collide::detail::Filtered;
using collide::detail::sign_of;

namespace {

__extension__ typedef __int128 Int128;  // exact reference for integer expressions

int sign_i128(Int128 x) { return (x > 0) - (x < 0); }
int sign_double(double x) { return (x > 0) - (x < 0); }

struct P {
    double x, y;
};

// The orientation predicate: > 0 when p, q, r turn counter-clockwise.
auto orientation(P p, P q, P r) {
    return [=](auto zero) {
        using T = decltype(zero);
        return (T(q.x) - T(p.x)) * (T(r.y) - T(p.y)) - (T(q.y) - T(p.y)) * (T(r.x) - T(p.x));
    };
}

// The same formula in plain doubles: what a naive implementation computes.
double naive_orientation(P p, P q, P r) {
    return (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
}

// Does the exact value of x lie within f.v +- f.e?
bool encloses(const Filtered& f, const Exact& x) {
    const Exact v(f.v), e(f.e);
    return (x - (v - e)).sign() >= 0 && ((v + e) - x).sign() >= 0;
}

// A random double: 53 random significand bits (fewer when subnormal) at a random scale.
double random_double(std::mt19937_64& rng, int min_exp, int max_exp) {
    const auto mant = static_cast<double>(rng() >> 11);  // exact: < 2^53
    const int exp = std::uniform_int_distribution<int>(min_exp, max_exp)(rng);
    const double d = std::ldexp(mant, exp - 53);
    return (rng() & 1) != 0 ? -d : d;
}

}  // namespace

TEST_CASE("exact arithmetic") {
    SUBCASE("integer expressions agree with __int128") {
        std::mt19937_64 rng(20240601);
        int decided_by_filter = 0;
        const int kRounds = 3000;
        for (int round = 0; round < kRounds; ++round) {
            // Small ranges make exact zeros common, 53 bits makes products round.
            const int bits = round % 3 == 0 ? 3 : (round % 3 == 1 ? 30 : 53);
            const std::int64_t lim = (std::int64_t{1} << bits) - 1;
            std::uniform_int_distribution<std::int64_t> dist(-lim, lim);
            std::int64_t n[6];
            for (auto& x : n) x = dist(rng);
            const Int128 truth = Int128{n[0]} * n[1] + Int128{n[2]} * n[3] - Int128{n[4]} * n[5];
            auto expr = [&](auto zero) {
                using T = decltype(zero);
                auto t = [](std::int64_t i) { return T(static_cast<double>(i)); };
                return t(n[0]) * t(n[1]) + t(n[2]) * t(n[3]) - t(n[4]) * t(n[5]);
            };
            const Exact exact = expr(Exact{});
            CHECK(exact.sign() == sign_i128(truth));
            CHECK(exact.to_double() == static_cast<double>(truth));  // both round to nearest
            CHECK(sign_of(expr) == sign_i128(truth));
            const int filtered = expr(Filtered{}).sign();
            if (filtered != Filtered::kUnknown) {
                CHECK(filtered == sign_i128(truth));
                ++decided_by_filter;
            }
        }
        // Random integers are rarely close to cancelling: the filter should settle most.
        CHECK(decided_by_filter > kRounds * 9 / 10);
    }

    SUBCASE("construction is canonical: equal values compare equal") {
        CHECK(Exact(-0.0) == Exact(0.0));
        CHECK(Exact(-0.0).sign() == 0);
        CHECK(Exact() == Exact(0.0));
        CHECK(Exact(0.5) + Exact(0.5) == Exact(1.0));
        CHECK(Exact(3.0) - Exact(1.0) == Exact(2.0));
        CHECK(Exact(6.0) * Exact(0.25) == Exact(1.5));
        CHECK(-Exact(2.0) == Exact(-2.0));
        CHECK(Exact(1.0) - Exact(1.0) == Exact());
        CHECK(Exact(1.0) != Exact(1.0 + DBL_EPSILON));
        CHECK(Exact(-1.0) != Exact(1.0));
    }

    SUBCASE("to_double rounds to nearest, ties to even") {
        for (double d : {1.0, -0.1, DBL_MAX, -DBL_MAX, DBL_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN,
                         0x1.fffffffffffffp-1023, 123456789.125}) {
            CHECK(Exact(d).to_double() == d);
        }
        CHECK(Exact(0.0).to_double() == 0.0);
        const Exact one(1.0), eps(DBL_EPSILON), half_eps(DBL_EPSILON / 2);
        CHECK((one + half_eps).to_double() == 1.0);                        // tie, 1 is even
        CHECK((one + eps + half_eps).to_double() == 1.0 + 2 * DBL_EPSILON);  // tie, rounds up
        CHECK((one + half_eps + Exact(0x1p-80)).to_double() == 1.0 + DBL_EPSILON);
        // Overflow: DBL_MAX's significand is odd, so its half-ulp tie goes up to inf.
        CHECK((Exact(DBL_MAX) + Exact(0x1p969)).to_double() == DBL_MAX);
        CHECK((Exact(DBL_MAX) + Exact(0x1p970)).to_double() == HUGE_VAL);
        CHECK((Exact(-DBL_MAX) * Exact(2.0)).to_double() == -HUGE_VAL);
        CHECK((Exact(1e300) * Exact(0x1p500) * Exact(0x1p-500)).to_double() == 1e300);
        // Underflow to subnormals and to zero.
        const Exact tiny(DBL_TRUE_MIN);
        CHECK((tiny * Exact(0.75)).to_double() == DBL_TRUE_MIN);
        CHECK((tiny * Exact(0.5)).to_double() == 0.0);            // tie, 0 is even
        CHECK((tiny * Exact(1.5)).to_double() == 2 * DBL_TRUE_MIN);  // tie, 2 is even
        CHECK((tiny * Exact(0.25)).to_double() == 0.0);
        CHECK((Exact(1e-300) * Exact(1e-300)).to_double() == 0.0);
        CHECK((Exact(DBL_MIN) * Exact(0.5 + 0x1p-40)).to_double() == DBL_MIN * (0.5 + 0x1p-40));
        // 2^-1023 + 2^-1075: half a subnormal step above an even neighbour.
        CHECK((Exact(DBL_MIN) * Exact(0.5 + 0x1p-53)).to_double() == DBL_MIN / 2);
    }

    SUBCASE("huge exponent gap: 1e308 + 1e-308 - 1e308 == 1e-308") {
        const Exact big(1e308), small(1e-308);
        const Exact r = big + small - big;
        CHECK(r == small);
        CHECK(r.sign() == 1);
        CHECK(r.to_double() == 1e-308);
        CHECK((big + small).to_double() == 1e308);
        CHECK((Exact(DBL_MAX) + Exact(DBL_TRUE_MIN) - Exact(DBL_MAX)).to_double() == DBL_TRUE_MIN);
        CHECK((small - big + big) == small);  // negative intermediate
        // In doubles the small term is simply lost.
        CHECK(1e308 + 1e-308 - 1e308 == 0.0);
    }

    SUBCASE("subnormal products are exact, not zero") {
        const Exact half_tiny = Exact(4.9e-324) * Exact(0.5);  // 2^-1075, below every double
        CHECK(half_tiny.sign() == 1);
        CHECK(half_tiny * Exact(4.0) == Exact(2 * DBL_TRUE_MIN));
        CHECK((Exact(-4.9e-324) * Exact(4.9e-324)).sign() == -1);  // 2^-2148
        // Filtered sees a product that rounded to 0 but may not be 0.
        const Filtered f = Filtered(4.9e-324) * Filtered(0.5);
        CHECK(f.v == 0.0);
        CHECK(f.sign() == Filtered::kUnknown);
        CHECK(sign_of([](auto zero) {
                  using T = decltype(zero);
                  return T(4.9e-324) * T(0.5);
              }) == 1);
    }

    SUBCASE("cancellation: 0.1 + 0.2 - 0.3") {
        // In units of 2^-56 the doubles are 0.1 = 0x1999999999999A, 0.2 = 0x33333333333334
        // and 0.3 = 0x4CCCCCCCCCCCCC, so their exact sum-and-difference is 2 * 2^-56.
        const Exact r = Exact(0.1) + Exact(0.2) - Exact(0.3);
        CHECK(r == Exact(0x1p-55));
        CHECK(r.to_double() == 0x1p-55);
        // Double arithmetic rounds 0.1 + 0.2 up first and reports twice the true value.
        CHECK((0.1 + 0.2) - 0.3 == 0x1p-54);
        CHECK(sign_of([](auto zero) {
                  using T = decltype(zero);
                  return T(0.1) + T(0.2) - T(0.3);
              }) == 1);
        CHECK(sign_of([](auto zero) {
                  using T = decltype(zero);
                  return T(0.1) + T(0.2) - T(0.3) - T(0x1p-55);
              }) == 0);
    }

    SUBCASE("nearly collinear points (Kettner et al., classroom examples)") {
        // p = (0.5 + i u, 0.5 + j u) with u = 2^-53, the spacing of doubles in [0.5, 1),
        // against q = (12, 12) and r = (24, 24). Scaled by 2^53 every coordinate is an
        // integer below 2^58, so __int128 evaluates the predicate exactly.
        const double u = 0x1p-53;
        const P q{12, 12}, r{24, 24};
        const std::int64_t Q = std::int64_t{12} << 53, R = std::int64_t{24} << 53;
        int naive_wrong = 0, filter_undecided = 0;
        for (int i = 0; i < 256; ++i) {
            for (int j = 0; j < 256; ++j) {
                const P p{0.5 + i * u, 0.5 + j * u};
                const std::int64_t px = (std::int64_t{1} << 52) + i, py = (std::int64_t{1} << 52) + j;
                const int truth = sign_i128(Int128{Q - px} * (R - py) - Int128{Q - py} * (R - px));
                REQUIRE(truth == (i < j ? 1 : (i > j ? -1 : 0)));  // the line y = x
                CHECK(sign_of(orientation(p, q, r)) == truth);
                if (sign_double(naive_orientation(p, q, r)) != truth) ++naive_wrong;
                if (orientation(p, q, r)(Filtered{}).sign() == Filtered::kUnknown) ++filter_undecided;
            }
        }
        CHECK(naive_wrong > 0);
        CHECK(filter_undecided > 0);  // the Exact fallback was really exercised

        // One cell spelled out: p is just above the line y = x, so (p, q, r) turns
        // counter-clockwise, but doubles round the two products to the same value.
        const P p{0.5, 0.5 + 2 * u};
        CHECK(naive_orientation(p, q, r) == 0.0);
        CHECK(orientation(p, q, r)(Filtered{}).sign() == Filtered::kUnknown);
        CHECK(orientation(p, q, r)(Exact{}).sign() == 1);
        CHECK(sign_of(orientation(p, q, r)) == 1);
    }

    SUBCASE("Filtered decides easy cases without falling back") {
        const P a{0, 0}, b{1, 0}, c{0, 1};
        CHECK(orientation(a, b, c)(Filtered{}).sign() == 1);
        CHECK(orientation(a, c, b)(Filtered{}).sign() == -1);
        const P d{0.1, 0.2}, e{1e6, 3.7}, f{-2.5, 1e-3};
        CHECK(orientation(d, e, f)(Filtered{}).sign() == orientation(d, e, f)(Exact{}).sign());
        CHECK(orientation(d, e, f)(Filtered{}).sign() != Filtered::kUnknown);
        const Filtered g = Filtered(0.1) * Filtered(3.0) - Filtered(0.3);
        CHECK(g.v == 0x1p-54);  // 0.1 * 3 rounds to 0.30000000000000004; error bound < 2^-54
        CHECK(g.e > 0.0);
        CHECK(g.sign() == 1);
        CHECK((Exact(0.1) * Exact(3.0) - Exact(0.3)).sign() == 1);
    }

    SUBCASE("Filtered gives up on overflow; sign_of falls back to Exact") {
        const Filtered sq = Filtered(1e200) * Filtered(1e200);
        CHECK(std::isinf(sq.v));
        CHECK(sq.sign() == Filtered::kUnknown);
        CHECK((sq - sq).sign() == Filtered::kUnknown);  // inf - inf is NaN
        CHECK(sign_of([](auto zero) {
                  using T = decltype(zero);
                  return T(1e200) * T(1e200) - T(1.0);
              }) == 1);
        CHECK(sign_of([](auto zero) {
                  using T = decltype(zero);
                  return T(1e200) * T(1e200) - T(1e200) * T(1e200);
              }) == 0);
        CHECK(sign_of([](auto zero) {
                  using T = decltype(zero);
                  return T(1e200) * T(1e199) - T(1e200) * T(1e200);
              }) == -1);
        // Multiplying by an exact zero is exactly zero even after overflow.
        CHECK((sq * Filtered(0.0)).sign() == 0);
    }

    SUBCASE("exactly cancelling integer expressions give a certain zero") {
        const Filtered z = Filtered(3) * Filtered(4) - Filtered(2) * Filtered(6);
        CHECK(z.v == 0.0);
        CHECK(z.e == 0.0);
        CHECK(z.sign() == 0);
        // Collinear points with integer (or other exactly subtracted) coordinates.
        CHECK(orientation({0, 0}, {1, 1}, {2, 2})(Filtered{}).sign() == 0);
        CHECK(orientation({-3.5, 1}, {0.5, 2}, {4.5, 3})(Filtered{}).sign() == 0);
        CHECK((Filtered(0.5) + Filtered(0.25) - Filtered(0.75)).sign() == 0);
        // A rounded step forfeits certainty, though the value is 0 either way.
        const Filtered w = Filtered(0.1) + Filtered(0.7) - Filtered(0.1) - Filtered(0.7);
        CHECK(w.v == 0.0);
        CHECK(w.sign() == Filtered::kUnknown);
        CHECK(sign_of([](auto zero) {
                  using T = decltype(zero);
                  return T(0.1) + T(0.7) - T(0.1) - T(0.7);
              }) == 0);
    }

    SUBCASE("Filtered error bounds enclose the exact value") {
        // Inputs from subnormal to huge; whenever Filtered stays finite its interval must
        // contain the exact result.
        std::mt19937_64 rng(7);
        const int ranges[][2] = {{-1074, -1000}, {-560, -480}, {-40, 40}, {480, 520}};
        int checked = 0;
        for (int round = 0; round < 4000; ++round) {
            double x[6];
            for (double& xi : x) {
                const auto& rg = ranges[rng() % 4];
                xi = random_double(rng, rg[0], rg[1]);
            }
            if (round % 5 == 0) x[2] = x[0];  // force some exact cancellation
            auto expr = [&](auto zero) {
                using T = decltype(zero);
                const T a(x[0]), b(x[1]), c(x[2]), d(x[3]), e(x[4]), f(x[5]);
                return (a - c) * (b + d) - e * f * (a * b - c * d) + (f - e) * (f + e);
            };
            const Filtered fv = expr(Filtered{});
            if (!std::isfinite(fv.v) || !std::isfinite(fv.e)) continue;
            ++checked;
            const Exact ex = expr(Exact{});
            CHECK(encloses(fv, ex));
            if (fv.sign() != Filtered::kUnknown) CHECK(fv.sign() == ex.sign());
        }
        CHECK(checked > 1000);
    }

    SUBCASE("algebraic identities hold exactly on random doubles") {
        std::mt19937_64 rng(99);
        for (int round = 0; round < 500; ++round) {
            const Exact a(random_double(rng, -1074, 1023)), b(random_double(rng, -1074, 1023)),
                c(random_double(rng, -1074, 1023));
            CHECK((a + b) + c == a + (b + c));
            CHECK((a * b) * c == a * (b * c));
            CHECK(a * (b + c) == a * b + a * c);
            CHECK((a + b - a - b).sign() == 0);
            CHECK((a - b).sign() == -(b - a).sign());
        }
    }

    SUBCASE("invalid inputs and exponent overflow throw instead of misbehaving") {
        CHECK_THROWS_AS(Exact{HUGE_VAL}, std::domain_error);
        CHECK_THROWS_AS(Exact{std::numeric_limits<double>::quiet_NaN()}, std::domain_error);
        // Squaring 2^-1074 doubles its exponent; 1074 * 2^53 > 2^63, so the 53rd throws.
        Exact x(DBL_TRUE_MIN);
        int squarings = 0;
        CHECK_THROWS_AS(
            for (; squarings < 64; ++squarings) x = x * x, std::overflow_error);
        CHECK(squarings == 52);
    }
}

TEST_CASE("Scaled: doubles with an exponent of their own") {
    using collide::detail::Scaled;
    auto value = [](Scaled s) { return std::ldexp(s.m, static_cast<int>(s.e)); };  // for e in range
    SUBCASE("Exact::to_scaled rounds to 53 bits, nearest, ties to even, at any magnitude") {
        const Scaled big = (Exact(DBL_MAX) * Exact(DBL_MAX)).to_scaled();
        // DBL_MAX^2 = (2^1024 - 2^971)^2 = 2^2048 (1 - 2^-52 + 2^-106): rounds to 2^2048 (1 - 2^-52).
        CHECK(big.m == 1 - 0x1p-52);
        CHECK(big.e == 2048);
        const Scaled tiny = (Exact(DBL_TRUE_MIN) * Exact(-11.7)).to_scaled();
        CHECK(tiny.m == -11.7 / 16);  // -11.7 * 2^-1074 = (-11.7 / 16) * 2^-1070, no bits lost
        CHECK(tiny.e == -1070);
        const Exact one(1.0);
        CHECK(value((one + Exact(0x1p-53)).to_scaled()) == 1.0);                 // tie, 1 is even
        CHECK(value((one + Exact(0x1p-53) + Exact(0x1p-90)).to_scaled()) == 1 + 0x1p-52);
        CHECK(Exact(0.0).to_scaled().m == 0.0);
    }
    SUBCASE("products and quotients neither overflow nor underflow") {
        const Scaled d = Scaled::of(DBL_TRUE_MIN) * Scaled::of(DBL_TRUE_MIN);  // 2^-2148
        CHECK(d.m == 0.5);
        CHECK(d.e == -2147);
        const Scaled q = Scaled::of(3.0) / d;  // 3 * 2^2148
        CHECK(q.m == 0.75);
        CHECK(q.e == 2150);
        CHECK(value((q * d) / Scaled::of(3.0)) == 1.0);
    }
    SUBCASE("square roots halve the exponent") {
        CHECK(value(sqrt(Scaled::of(DBL_TRUE_MIN))) == 0x1p-537);
        CHECK(value(sqrt(Scaled::of(0x1p-1073)) / Scaled::of(0x1p-537)) == std::sqrt(2.0));
        CHECK(sqrt(Scaled::of(-4.0)).m == 0.0);  // max(a, 0)
    }
    SUBCASE("sums align the exponents, and ignore what lies 2^-64 below the larger operand") {
        CHECK(value(Scaled::of(1.0) + Scaled::of(0x1p-52)) == 1 + 0x1p-52);
        CHECK(value(Scaled::of(1.0) - Scaled::of(1.0)) == 0.0);
        CHECK(value(Scaled::of(1e300) * Scaled::of(1e300) - Scaled::of(1e300) * Scaled::of(1e300)) == 0.0);
        const Scaled huge = Scaled::of(DBL_MAX) * Scaled::of(DBL_MAX);
        CHECK((huge + Scaled::of(1.0)).m == huge.m);
    }
    SUBCASE("to_double: exact for normal values, rounded below, nothing beyond the range") {
        CHECK(*Scaled::of(0.1).to_double() == 0.1);
        CHECK(*(Scaled::of(DBL_MIN) * Scaled::of(0.75)).to_double() == DBL_MIN * 0.75);  // subnormal
        CHECK(*(Scaled::of(DBL_TRUE_MIN) * Scaled::of(0.25)).to_double() == 0.0);
        CHECK(*(Scaled::of(DBL_MAX / 2) * Scaled::of(2.0)).to_double() == DBL_MAX);
        // 2^1024 is beyond DBL_MAX by 2^-53 relative, within the 2^-40 slack: DBL_MAX.
        CHECK(*(Scaled::of(-0x1p1023) * Scaled::of(2.0)).to_double() == -DBL_MAX);
        CHECK_FALSE((Scaled::of(0x1p1023) * Scaled::of(2.0 + 0x1p-30)).to_double());
        CHECK_FALSE((Scaled::of(DBL_MAX) * Scaled::of(DBL_MAX)).to_double());
    }
}

TEST_CASE("DoubleWord: the correctly rounded value of a polynomial, or no answer") {
    using collide::detail::DoubleWord;
    auto rounded = [](const DoubleWord& w) {
        double x = 0.0;
        return w.round_to_nearest(x) ? std::optional<double>(x) : std::nullopt;
    };
    SUBCASE("degree-4 discriminants with cancellation round as Exact does") {
        // The shape of a circle-line or circle-circle point's discriminant,
        // r^2 |d|^2 - cross^2 with cross = dx (py - cy) - dy (px - cx), on inputs with two
        // decimals (as in scene files), where Filtered rarely reaches 1e-15: whenever
        // DoubleWord answers, its answer must be Exact's rounding, and it must answer
        // nearly always.
        std::mt19937_64 rng(11);
        std::uniform_int_distribution<int> cents(-500000, 500000);
        auto coord = [&] { return cents(rng) / 100.0; };
        int answered = 0;
        const int rounds = 20000;
        for (int round = 0; round < rounds; ++round) {
            const double px = coord(), py = coord(), qx = coord(), qy = coord(), cx = coord(), cy = coord();
            const double r = std::fabs(coord()) + 0.5;
            auto expr = [&](auto zero) {
                using T = decltype(zero);
                const T dx = T(qx) - T(px);
                const T dy = T(qy) - T(py);
                const T cr = dx * (T(py) - T(cy)) - dy * (T(px) - T(cx));
                return T(r) * T(r) * (dx * dx + dy * dy) - cr * cr;
            };
            const double exact = expr(Exact{}).to_double();
            if (const auto x = rounded(expr(DoubleWord{}))) {
                ++answered;
                CHECK(*x == exact);
            }
        }
        CHECK(answered > rounds * 99 / 100);
    }
    SUBCASE("random expressions of degree 4 over the whole allowed range round as Exact does") {
        // Operands from 2^-100 to 2^100, some forced to cancel: the range where the
        // no-underflow argument in exact.hpp must hold.
        std::mt19937_64 rng(5);
        int answered = 0;
        for (int round = 0; round < 4000; ++round) {
            double x[6];
            for (double& xi : x) xi = random_double(rng, -46, 100);
            if (round % 3 == 0) x[2] = x[0] * (1 + 0x1p-30);
            auto expr = [&](auto zero) {
                using T = decltype(zero);
                const T a(x[0]), b(x[1]), c(x[2]), d(x[3]), e(x[4]), f(x[5]);
                return (a - c) * (b + d) * (a + c) * f - e * f * (a * b - c * d) + (f - e) * (f + e);
            };
            if (const auto v = rounded(expr(DoubleWord{}))) {
                ++answered;
                CHECK(*v == expr(Exact{}).to_double());
            }
        }
        CHECK(answered > 3900);
    }
    SUBCASE("a tie or a value within the error of a rounding boundary gets no answer") {
        const DoubleWord one(1.0);
        CHECK_FALSE(rounded(one + DoubleWord(0x1p-53)));       // 1 + 2^-53: halfway, Exact says 1
        CHECK_FALSE(rounded(one - DoubleWord(0x1p-54)));       // halfway below 1, where ulps halve
        CHECK(rounded(one - DoubleWord(0x1p-55)) == 1.0);      // a quarter ulp below 1
        CHECK(rounded(one + DoubleWord(0x1p-54)) == 1.0);      // a quarter ulp above 1
        CHECK(rounded(one - DoubleWord(0x1.4p-54)) == 1 - 0x1p-53);  // past halfway below 1
        // 0.1 * 0.1 - 0.01 is not 0 in doubles: 0.1^2 is held exactly (a double times a
        // double), and the difference, 2^-59 or so, rounds once.
        const DoubleWord t(0.1);
        const auto small = rounded(t * t - DoubleWord(0.01));
        REQUIRE(small);
        CHECK(*small == (Exact(0.1) * Exact(0.1) - Exact(0.01)).to_double());
        CHECK(*small != 0.1 * 0.1 - 0.01);  // what plain doubles give
    }
    SUBCASE("inputs out of [2^-100, 2^100], degree above 5 and exact zeros are left to Exact") {
        CHECK_FALSE(rounded(DoubleWord(0x1p-101) * DoubleWord(3.0)));
        CHECK_FALSE(rounded(DoubleWord(1e300) + DoubleWord(1.0)));
        CHECK_FALSE(rounded(DoubleWord(DBL_TRUE_MIN) + DoubleWord(1.0)));
        const DoubleWord x(1.1);
        CHECK(rounded(x * x * x * x * x) == (Exact(1.1) * Exact(1.1) * Exact(1.1) * Exact(1.1) * Exact(1.1)).to_double());
        CHECK_FALSE(rounded(x * x * x * x * x * x));
        CHECK_FALSE(rounded(x - x));
        CHECK_FALSE(rounded(DoubleWord(std::numeric_limits<double>::quiet_NaN())));
    }
}

TEST_CASE("Magnitude and Rescaled: the fast filter decides at any magnitude") {
    using collide::detail::Magnitude;
    using collide::detail::Probe;
    using collide::detail::Rescaled;
    using collide::detail::rescalable;
    using collide::detail::sign_of_low_degree;
    constexpr int kUnknown = Filtered::kUnknown;
    // Two circles, centre offsets and radii with two decimals: d^2 - (ra + rb)^2.
    auto disks = [](double ox, double oy, double dx, double dy, double ra, double rb) {
        return [=](auto zero) {
            using T = decltype(zero);
            const T ex = T(ox + dx) - T(ox);
            const T ey = T(oy + dy) - T(oy);
            const T rs = T(ra) + T(rb);
            return ex * ex + ey * ey - rs * rs;
        };
    };
    SUBCASE("translated to 1e9, the same clear cases are decided as near 0, correctly") {
        // The bound counts the differences of the inputs, not the inputs: near 1e9 a bound
        // from |x| would be 1e18 * 2^-48 ~ 3500 and decide none of these.
        std::mt19937_64 rng(8);
        std::uniform_int_distribution<int> cents(-2000, 2000);
        int decided = 0;
        const int rounds = 5000;
        for (int round = 0; round < rounds; ++round) {
            const double dx = cents(rng) / 100.0, dy = cents(rng) / 100.0;
            const double ra = std::abs(cents(rng)) / 100.0 + 1, rb = std::abs(cents(rng)) / 100.0 + 1;
            for (const double offset : {0.0, 1e9, -3.5e9, 0x1p60}) {
                const auto f = disks(offset, offset / 3, dx, dy, ra, rb);
                const int s = f(Magnitude{}).sign();
                if (s == kUnknown) continue;
                if (offset == 1e9) ++decided;
                CHECK(s == f(Exact{}).sign());
            }
        }
        CHECK(decided > rounds * 99 / 100);
        // One fixed case: centres 5 apart near (1e9, 1e9), radii 1 and 2.
        CHECK(disks(1e9, 1e9, 3, 4, 1, 2)(Magnitude{}).sign() == 1);
        CHECK(disks(1e9, 1e9, 3, 4, 3, 2.5)(Magnitude{}).sign() == -1);
    }
    SUBCASE("a difference of two inputs that rounds still bounds the error") {
        // x - y rounds to z; (x - y)^2 - z^2 is then a tiny nonzero value that the computed
        // 0 must not claim, whatever the magnitude of the inputs.
        const double x = 1e9 + 0.3, y = 1e-3;
        const double z = x - y;
        REQUIRE((Exact(x) - Exact(y)) != Exact(z));
        auto f = [&](auto zero) {
            using T = decltype(zero);
            return (T(x) - T(y)) * (T(x) - T(y)) - T(z) * T(z);
        };
        CHECK(f(Magnitude{}).sign() == kUnknown);
        CHECK(sign_of_low_degree(f) == f(Exact{}).sign());
        CHECK(sign_of_low_degree(f) != 0);
    }
    SUBCASE("Probe: homogeneous expressions and their degree; others are refused") {
        const Probe p = disks(1e300, 1e300, 3e298, 4e298, 1e298, 2e298)(Probe{});
        CHECK(p.homogeneous());
        CHECK(p.degree == 2);
        CHECK(p.top == 1e300 + 4e298);
        auto mixed = [](auto zero) {
            using T = decltype(zero);
            return T(3.0) * T(3.0) - T(9.0);  // degree 2 against 1
        };
        CHECK_FALSE(rescalable(mixed));
        auto starts_at_zero = [](auto zero) {
            using T = decltype(zero);
            T sum = zero;
            for (int i = 1; i < 4; ++i) sum = sum + T(i) * T(i);
            return sum;
        };
        CHECK(rescalable(starts_at_zero));
        CHECK(starts_at_zero(Probe{}).degree == 2);
    }
    SUBCASE("coordinates near 1e300 and 1e-300: rescaled by a power of two, decided as at 1") {
        for (const int scale : {990, 1000, 500, -1000}) {
            std::mt19937_64 rng(9);
            std::uniform_int_distribution<int> cents(-2000, 2000);
            int decided = 0;
            for (int round = 0; round < 1000; ++round) {
                auto s = [&](double v) { return std::ldexp(v, scale); };
                const double ox = s(cents(rng) / 100.0), oy = s(cents(rng) / 100.0);
                const double dx = s(cents(rng) / 100.0), dy = s(cents(rng) / 100.0);
                const double ra = s(std::abs(cents(rng)) / 100.0 + 1), rb = s(std::abs(cents(rng)) / 100.0 + 1);
                const auto f = disks(ox, oy, dx, dy, ra, rb);
                CHECK(f(Magnitude{}).sign() == kUnknown);  // out of Magnitude's range as they are
                REQUIRE(rescalable(f));
                const int r = f(Rescaled<Magnitude>{}).t.sign();
                if (r == kUnknown) continue;
                ++decided;
                CHECK(r == f(Exact{}).sign());
                CHECK(r == sign_of_low_degree(f));
            }
            CHECK(decided > 990);
        }
    }
    SUBCASE("an input that would leave the range when rescaled is refused, not rounded") {
        // With 8 the largest input, 2^-1074 rescaled by 2^-3 would round to 0.
        auto f = [](auto zero) {
            using T = decltype(zero);
            return T(8.0) * T(DBL_TRUE_MIN) - T(DBL_TRUE_MIN) * T(0.0);
        };
        CHECK(f(Probe{}).homogeneous());
        CHECK_FALSE(rescalable(f));
        CHECK(sign_of_low_degree(f) == 1);
    }
    SUBCASE("near-degenerate orientations at every magnitude agree with Exact") {
        // Points on a line through p and q, rounded, translated and scaled at random: the
        // sign is often 0 or tiny, so every stage (Magnitude, rescaled, Filtered, Exact)
        // gets cases, and each must give Exact's sign.
        std::mt19937_64 rng(10);
        std::uniform_real_distribution<double> unit(-1, 1);
        std::uniform_int_distribution<int> exponent(-1070, 1000);
        for (int round = 0; round < 20000; ++round) {
            const int e = exponent(rng);
            const double size = std::ldexp(1.0, e - static_cast<int>(rng() % 40));
            const double ox = std::ldexp(unit(rng), e), oy = std::ldexp(unit(rng), e);
            const double px = ox + size * unit(rng), py = oy + size * unit(rng);
            const double qx = ox + size * unit(rng), qy = oy + size * unit(rng);
            const double t = unit(rng);
            const double rx = px + t * (qx - px), ry = py + t * (qy - py);
            if (!std::isfinite(rx) || !std::isfinite(ry) || !std::isfinite(qx - px) || !std::isfinite(qy - py)) continue;
            const auto f = orientation(P{px, py}, P{qx, qy}, P{rx, ry});
            CAPTURE(round);
            CHECK(sign_of_low_degree(f) == f(Exact{}).sign());
        }
    }
    SUBCASE("each value carries its own power of two: what a factor common to all inputs gives") {
        // x and y 2^70 apart (their e differ: the sums align): the value, as t * 2^e, is the
        // one Magnitude computes on the inputs multiplied by 2^-ilogb(x), times 2^(2 ilogb(x)).
        for (const double s : {0x1p1000, 0x1p-1000, 1.0, 0x1p-1020}) {
            const double x = 3.25 * s, y = 1.375 * 0x1p-70 * s;
            auto f = [&](double k) {
                return [=](auto zero) {
                    using T = decltype(zero);
                    return (T(x * k) - T(y * k)) * (T(x * k) + T(y * k)) + zero;
                };
            };
            REQUIRE(rescalable(f(1.0)));
            const Rescaled<Magnitude> r = f(1.0)(Rescaled<Magnitude>{});
            CHECK(r.t.sign() == 1);
            const int top = std::ilogb(x);
            const Magnitude common = f(std::ldexp(1.0, -top))(Magnitude{});
            const auto carried = collide::detail::Scaled::make(r.t.v, r.e);
            const auto expected = collide::detail::Scaled::make(common.v, 2 * top);
            CHECK(carried.m == expected.m);
            CHECK(carried.e == expected.e);
            CHECK(std::ldexp(r.t.m, r.e - 2 * top) == common.m);
        }
    }
}

TEST_CASE("scaled_of near 1e300 and 1e-300 gives Exact's rounding, bit for bit") {
    using collide::detail::Scaled;
    using collide::detail::scaled_of;
    // The discriminant of a circle-line point (degree 4), at magnitudes where Filtered and
    // DoubleWord overflow or underflow as they are, and rescaled DoubleWord answers.
    for (const int scale : {990, -1000}) {
        std::mt19937_64 rng(12);
        std::uniform_int_distribution<int> cents(-500000, 500000);
        auto coord = [&] { return std::ldexp(cents(rng) / 100.0, scale); };
        for (int round = 0; round < 2000; ++round) {
            const double px = coord(), py = coord(), qx = coord(), qy = coord(), cx = coord(), cy = coord();
            const double r = std::fabs(coord()) + std::ldexp(0.5, scale);
            auto expr = [&](auto zero) {
                using T = decltype(zero);
                const T dx = T(qx) - T(px);
                const T dy = T(qy) - T(py);
                const T cr = dx * (T(py) - T(cy)) - dy * (T(px) - T(cx));
                return T(r) * T(r) * (dx * dx + dy * dy) - cr * cr;
            };
            const Scaled got = scaled_of(expr);
            const Scaled want = expr(Exact{}).to_scaled();
            CHECK(got.m == want.m);
            CHECK(got.e == want.e);
        }
    }
}

TEST_CASE("fused_multiply_add is fma: one rounding, whichever way the build reaches it") {
    using collide::detail::fused_multiply_add;
    // The residual of a product: exactly a * b - round(a * b), the heart of TwoProduct.
    const double a = 1.0 + 0x1p-30;
    const double p = a * a;  // 1 + 2^-29 + 2^-60 rounds to 1 + 2^-29
    CHECK(fused_multiply_add(a, a, -p) == 0x1p-60);
    // Subnormal, infinite and NaN operands and results as std::fma gives them.
    CHECK(fused_multiply_add(0x1p-1074, 0.5, 0.0) == std::fma(0x1p-1074, 0.5, 0.0));
    CHECK(std::isinf(fused_multiply_add(DBL_MAX, 2.0, 0.0)));
    CHECK(std::isnan(fused_multiply_add(std::numeric_limits<double>::infinity(), 0.0, 1.0)));
    CHECK(std::signbit(fused_multiply_add(-0.0, 1.0, -0.0)));
    std::mt19937_64 rng(27);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-60, 60);
    for (int i = 0; i < 100000; ++i) {
        const double x = std::ldexp(unit(rng), exponent(rng));
        const double y = std::ldexp(unit(rng), exponent(rng));
        const double z = -x * y * unit(rng);
        REQUIRE(fused_multiply_add(x, y, z) == std::fma(x, y, z));
    }
}
