// Moves against shapes (SPEC §1.3, §2.5) through run_moves_against, the broad phase of
// moves_against.cpp: bodies so big that a step of their path spans the whole field (radius
// 1e6 against shapes a few units wide), blocked at the right t by the right shape, allowed
// where nothing is in the way, and equal to a brute-force reference (every shape swept, the
// earliest exact time, ties to the lower index) on random scenes, lines and rays among them.
#include "check/moves_against.hpp"
#include "queries/sweep.hpp"

#include "collide/check.hpp"
#include "collide/geometry.hpp"
#include "collide/scene.hpp"
#include "move_bodies.hpp"

#include <doctest/doctest.h>

#include <charconv>
#include <optional>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace collide;
using collide::detail::blocked_at;
using collide::detail::compare;
using collide::detail::first_contact;
using collide::detail::run_moves_against;
using collide::detail::SweepTime;

using move_bodies::circle_body;
using move_bodies::num;
using move_bodies::rect_body;

namespace {

// "allowed", or "t=0.5 stop=(-1000000,0) hit=3": doubles as shortest round-trip text, so
// comparing the text compares them exactly.
std::string describe(const MoveResult& r) {
    if (r.allowed) return "allowed";
    return "t=" + num(r.t) + " stop=(" + num(r.stop.x) + "," + num(r.stop.y) + ") hit=" + (r.hit ? num(double(*r.hit)) : "-");
}

Move move(Vec2 from, Vec2 to, Body body, bool path = true) {
    Move m;
    m.against = "*";
    m.from = from;
    m.to = to;
    m.body = body;
    m.check_path = path;
    return m;
}

void add(Scene& s, Shape shape) { s.shapes.push_back(SceneShape{"s" + std::to_string(s.shapes.size()), std::move(shape), {}}); }

std::vector<std::string> run(const Scene& s) {
    std::vector<MoveResult> results(s.moves.size());
    std::vector<std::string> empty;
    run_moves_against(s, results, empty, 1);
    std::vector<std::string> out;
    for (const MoveResult& r : results) out.push_back(describe(r));
    return out;
}

// Every shape swept: the earliest exact time, ties to the lower index.
std::vector<std::string> brute_force(const Scene& s) {
    std::vector<std::string> out;
    for (const Move& m : s.moves) {
        std::optional<SweepTime> best;
        std::size_t hit = 0;
        for (std::size_t i = 0; i < s.shapes.size(); ++i) {
            const auto t = first_contact(m, s.shapes[i].shape);
            if (t && (!best || compare(*t, *best) < 0)) {
                best = *t;
                hit = i;
            }
        }
        MoveResult r;
        if (best) {
            r = blocked_at(m, *best);
            r.hit = hit;
        }
        out.push_back(describe(r));
    }
    return out;
}

constexpr double kHuge = 1e6;

}  // namespace

TEST_CASE("moves against: huge bodies") {
    // A field of 2 x 2 squares in [0, 200] x [0, 200], shape 0 far from it.
    Scene s;
    add(s, Rect{{5e6, 5e6}, {5e6 + 2, 5e6 + 2}});
    for (int k = 0; k < 400; ++k) {
        const double x = (k % 20) * 10, y = (k / 20) * 10;
        add(s, Rect{{x, y}, {x + 2, y + 2}});
    }
    SUBCASE("over the field from the start: blocked at t = 0 by the lowest shape it overlaps") {
        s.moves = {move({100, 100}, {150, 120}, circle_body(kHuge)), move({100, 100}, {100, 100}, circle_body(kHuge)),
                   move({100, 100}, {-3e6, 7}, rect_body(2 * kHuge, 2 * kHuge)),
                   move({-2e6, 0}, {100, 100}, circle_body(kHuge), false)};
        CHECK(run(s) == std::vector<std::string>{"t=0 stop=(100,100) hit=1", "t=0 stop=(100,100) hit=1",
                                                 "t=0 stop=(100,100) hit=1", "t=1 stop=(100,100) hit=1"});
    }
    SUBCASE("over the field and shape 0: shape 0 it is") {
        s.moves = {move({2.5e6, 2.5e6}, {2.5e6, 2.5e6 + 10}, circle_body(3.6e6))};
        CHECK(run(s) == std::vector<std::string>{"t=0 stop=(2500000,2500000) hit=0"});
    }
    SUBCASE("coming at the field along x: the rim's front reaches the squares on its path first") {
        // The rim meets x = 0 at y = 1 when the centre is at x = -1e6 (t = 0.5); at y = 100
        // (row 10) only 0.005 later, and every other column is 10 further.
        s.moves = {move({-kHuge - 50, 1}, {-kHuge + 50, 1}, circle_body(kHuge)),
                   move({-kHuge - 50, 101}, {-kHuge + 50, 101}, circle_body(kHuge))};
        CHECK(run(s) == std::vector<std::string>{"t=0.5 stop=(-1e+06,1) hit=1", "t=0.5 stop=(-1e+06,101) hit=201"});
    }
    SUBCASE("level with two rows: both are reached at once, the lower index reported") {
        // The centre at y = 6 is 4 from rows 0 and 1 alike: both are reached at the same t.
        s.moves = {move({-kHuge - 50, 6}, {-kHuge + 50, 6}, circle_body(kHuge))};
        const auto got = run(s);
        CHECK(got == brute_force(s));
        CHECK(got[0].substr(got[0].size() - 5) == "hit=1");
    }
    SUBCASE("beside the field or moving away from it: allowed") {
        s.moves = {move({-kHuge - 10, 0}, {-kHuge - 10, 1e4}, circle_body(kHuge)),
                   move({-kHuge - 1, 100}, {-3e6, 100}, circle_body(kHuge)),
                   move({100, -kHuge - 1}, {100, -kHuge - 1}, rect_body(2 * kHuge, 2 * kHuge), false),
                   // the disk's box would reach the corner square [0, 2]^2; the disk does not
                   move({-kHuge, -kHuge}, {-kHuge, -kHuge - 10}, circle_body(kHuge))};
        CHECK(run(s) == std::vector<std::string>{"allowed", "allowed", "allowed", "allowed"});
    }
}

TEST_CASE("moves against: huge and small bodies equal every shape swept, on random scenes") {
    std::mt19937_64 rng(26005);
    std::uniform_real_distribution<double> u(0, 1);
    for (int round = 0; round < 40; ++round) {
        Scene s;
        const double side = 50 + 500 * u(rng);
        const int n = 20 + static_cast<int>(300 * u(rng));
        for (int k = 0; k < n; ++k) {
            const double x = side * u(rng), y = side * u(rng), w = 0.5 + 3 * u(rng);
            switch (k % 4) {
            case 0:
                // Now and then one that no cell holds: a line, a ray, a long wall.
                if (k == 40 && round % 3 == 0) add(s, Line{{x, y}, {x + 1, y + 3}});
                else if (k == 40 && round % 3 == 1) add(s, Ray{{x, y}, {-1, -2}});
                else if (k == 80 && round % 2 == 0) add(s, Rect{{x, y}, {x + side, y + 1}});
                else add(s, Rect{{x, y}, {x + w, y + w}});
                break;
            case 1: add(s, Circle{{x, y}, w}); break;
            case 2: add(s, Segment{{x, y}, {x + w, y - w}}); break;
            default: add(s, Point{{x, y}}); break;
            }
        }
        for (int k = 0; k < 60; ++k) {
            const double r = k % 3 == 0 ? 1.5 : k % 3 == 1 ? side * (1 + 10 * u(rng)) : kHuge * (0.5 + u(rng));
            const Body body = k % 5 == 4 ? rect_body(2 * r, r) : circle_body(r);
            // Starts over the field, or with its rim near the field, or anywhere up to a little
            // beyond its reach.
            const double a = 6.283185307179586 * u(rng);
            const double far = k % 2 ? r + side * (3 * u(rng) - 1) : (r + side) * 1.2 * u(rng);
            const Vec2 from{side / 2 + far * std::cos(a), side / 2 + far * std::sin(a)};
            const double b = 6.283185307179586 * u(rng), len = side * 3 * u(rng);
            s.moves.push_back(move(from, {from.x + len * std::cos(b), from.y + len * std::sin(b)}, body, k % 7 != 6));
        }
        CHECK(run(s) == brute_force(s));
    }
}
