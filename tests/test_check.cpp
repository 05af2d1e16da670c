// check(): pair specs and selectors, options, rules, empty selectors, and broad phases that
// all give the same result; candidate_pairs() directly.
#include "collide/check.hpp"

#include "check/broadphase.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using collide::Bounds;
using collide::Broadphase;
using collide::CheckOptions;
using collide::PairSpec;
using collide::Scene;
using collide::SceneResult;
using collide::Vec2;
using collide::check;
using collide::read_scene;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::size_t kNoB = static_cast<std::size_t>(-1);  // an `each` violation has no b

// hero touches crate at (1, 0); bat is inside hero; barrel is inside crate; far meets nothing.
const char* const kLevel = R"({"shapes": [
    {"id": "hero", "type": "circle", "center": [0, 0], "radius": 1, "groups": ["player"]},
    {"id": "crate", "type": "rect", "min": [1, -1], "max": [3, 1], "groups": ["props"]},
    {"id": "barrel", "type": "circle", "center": [2, 0], "radius": 0.5, "groups": ["props"]},
    {"id": "bat", "type": "point", "at": [0.5, 0], "groups": ["enemies"]},
    {"id": "far", "type": "point", "at": [100, 100]}
]})";
enum : std::size_t { kHero, kCrate, kBarrel, kBat, kFar };

Scene level() { return read_scene(kLevel, "level.json"); }

// The collisions as "a-b relation", in report order.
std::vector<std::string> collisions(const Scene& scene, const SceneResult& r) {
    std::vector<std::string> out;
    for (const collide::Collision& c : r.collisions)
        out.push_back(collide::object_id(scene, c.a) + "-" + collide::object_id(scene, c.b) + " " +
                      std::string(collide::relation_name(c.relation)));
    return out;
}

std::vector<std::string> collisions_for(const Scene& scene, std::vector<std::string> specs) {
    CheckOptions o;
    o.pairs.emplace();
    for (const std::string& s : specs) o.pairs->push_back(collide::parse_pair_spec(s));
    return collisions(scene, check(scene, o));
}

using Strings = std::vector<std::string>;
using Violations = std::vector<std::pair<std::size_t, std::size_t>>;

}  // namespace

TEST_CASE("check: pair specs and selectors") {
    const Scene s = level();
    SUBCASE("no pairs: every pair (*:*), the lower index as a") {
        CHECK(collisions(s, check(s, {})) == Strings{"hero-crate touch", "hero-bat contains", "crate-barrel contains"});
    }
    SUBCASE("groups: a comes from the left selector") {
        CHECK(collisions_for(s, {"player:props"}) == Strings{"hero-crate touch"});
        CHECK(collisions_for(s, {"props:player"}) == Strings{"crate-hero touch"});
        CHECK(collisions_for(s, {"enemies:player"}) == Strings{"bat-hero within"});
    }
    SUBCASE("ids select like groups") {
        CHECK(collisions_for(s, {"crate:barrel"}) == Strings{"crate-barrel contains"});
        CHECK(collisions_for(s, {"hero:barrel"}).empty());
    }
    SUBCASE("'*' selects everything") {
        CHECK(collisions_for(s, {"*:hero"}) == Strings{"crate-hero touch", "bat-hero within"});
    }
    SUBCASE("a shape is never paired with itself, and each pair is reported once") {
        CHECK(collisions_for(s, {"props:props"}) == Strings{"crate-barrel contains"});
        CHECK(collisions_for(s, {"*:*", "*:*", "props:player"}) ==
              Strings{"hero-crate touch", "hero-bat contains", "crate-barrel contains"});
    }
    SUBCASE("the first spec that selects a pair decides its sides") {
        CHECK(collisions_for(s, {"props:player", "player:*"}) == Strings{"hero-bat contains", "crate-hero touch"});
        CHECK(collisions_for(s, {"player:*", "props:player"}) == Strings{"hero-crate touch", "hero-bat contains"});
    }
    SUBCASE("collisions are ordered by the index of a, then of b") {
        CHECK(collisions_for(s, {"barrel:crate", "enemies:player", "crate:hero"}) ==
              Strings{"crate-hero touch", "barrel-crate within", "bat-hero within"});
    }
}

TEST_CASE("check: options") {
    Scene s = level();
    s.pairs = {PairSpec{"player", "props"}};
    SUBCASE("the scene's pairs") { CHECK(collisions(s, check(s, {})) == Strings{"hero-crate touch"}); }
    SUBCASE("options.pairs replaces the scene's") {
        CheckOptions o;
        o.pairs = std::vector<PairSpec>{{"enemies", "*"}};
        CHECK(collisions(s, check(s, o)) == Strings{"bat-hero within"});
    }
    SUBCASE("no_touch drops touch-only pairs and counts what is left") {
        CheckOptions o;
        o.no_touch = true;
        const SceneResult r = check(s, o);
        CHECK(r.collisions.empty());
        CHECK(r.summary.collisions == 0);
    }
    SUBCASE("points are the outlines' intersection; none when turned off") {
        const SceneResult with = check(s, {});
        REQUIRE(with.collisions.size() == 1);
        CHECK(with.collisions[0].points == std::vector<Vec2>{{1, 0}});
        CheckOptions o;
        o.points = false;
        const SceneResult without = check(s, o);
        REQUIRE(without.collisions.size() == 1);
        CHECK(without.collisions[0].relation == collide::Relation::Touch);
        CHECK(without.collisions[0].points.empty());
    }
    SUBCASE("summary counts shapes and reported collisions") {
        const SceneResult r = check(s, {});
        CHECK(r.summary.shapes == 5);
        CHECK(r.summary.grids == 0);
        CHECK(r.summary.collisions == 1);
        CHECK(r.summary.moves == 0);
        CHECK(r.summary.rules_failed == 0);
    }
    SUBCASE("a bad pair spec in options throws") {
        CheckOptions o;
        o.pairs = std::vector<PairSpec>{{"", "props"}};
        CHECK_THROWS_AS(check(s, o), collide::Error);
    }
}

TEST_CASE("check: empty selectors are reported, not errors") {
    Scene s = level();
    s.pairs = {PairSpec{"ghosts", "player"}, PairSpec{"player", "ghosts"}, PairSpec{"props", "nobody"}};
    s.rules = {collide::Rule{"no bosses", PairSpec{"bosses", "*"}, collide::Rule::Expect::None, false, std::nullopt}};
    const SceneResult r = check(s, {});
    CHECK(r.collisions.empty());
    CHECK(r.empty_selectors == Strings{"ghosts", "nobody", "bosses"});
    CHECK(r.rules.at(0).passed);

    SUBCASE("'*' is empty only in an empty scene") {
        const Scene empty = read_scene("{}", "empty.json");
        const SceneResult e = check(empty, {});
        CHECK(e.collisions.empty());
        CHECK(e.empty_selectors == Strings{"*"});
        CHECK(check(level(), {}).empty_selectors.empty());
    }
}

TEST_CASE("check: rules") {
    using Expect = collide::Rule::Expect;
    Scene s = level();
    auto run = [&](const std::string& spec, Expect expect, bool ignore_touching = false, bool no_touch = false) {
        s.rules = {collide::Rule{"r", collide::parse_pair_spec(spec), expect, ignore_touching, std::nullopt}};
        CheckOptions o;
        o.no_touch = no_touch;
        const SceneResult r = check(s, o);
        REQUIRE(r.rules.size() == 1);
        CHECK(r.summary.rules_failed == (r.rules[0].passed ? 0u : 1u));
        return r.rules[0];
    };
    SUBCASE("none: fails with the colliding pairs") {
        const collide::RuleResult r = run("player:*", Expect::None);
        CHECK_FALSE(r.passed);
        CHECK(r.violations == Violations{{kHero, kCrate}, {kHero, kBat}});
    }
    SUBCASE("none, touching ignored: a touch is no violation") {
        const collide::RuleResult r = run("player:*", Expect::None, true);
        CHECK_FALSE(r.passed);
        CHECK(r.violations == Violations{{kHero, kBat}});
        CHECK(run("player:props", Expect::None, true).passed);
        CHECK(run("player:props", Expect::None, false, true).passed);  // --no-touch ignores touches for every rule
    }
    SUBCASE("none: violations take their sides from the collision records") {
        s.pairs = {PairSpec{"props", "player"}};
        CHECK(run("player:props", Expect::None).violations == Violations{{kCrate, kHero}});
    }
    SUBCASE("none, on pairs that are not reported: sides from the rule's spec") {
        s.pairs = {PairSpec{"far", "*"}};
        const SceneResult r = check(s, {});
        CHECK(r.collisions.empty());
        CHECK(run("props:player", Expect::None).violations == Violations{{kCrate, kHero}});
    }
    SUBCASE("none: passes when nothing collides") {
        const collide::RuleResult r = run("far:*", Expect::None);
        CHECK(r.passed);
        CHECK(r.violations.empty());
    }
    SUBCASE("some: passes on any collision, no violations either way") {
        CHECK(run("player:enemies", Expect::Some).passed);
        const collide::RuleResult r = run("enemies:props", Expect::Some);
        CHECK_FALSE(r.passed);
        CHECK(r.violations.empty());
        CHECK_FALSE(run("player:props", Expect::Some, true).passed);
    }
    SUBCASE("each: the left-hand shapes that collide with nothing on the right") {
        const collide::RuleResult r = run("props:player", Expect::Each);
        CHECK_FALSE(r.passed);
        CHECK(r.violations == Violations{{kBarrel, kNoB}});
        CHECK(run("props:props", Expect::Each).passed);  // crate and barrel collide with each other
        CHECK(run("enemies:player", Expect::Each).passed);
    }
    SUBCASE("each, touching ignored: a touch does not satisfy it") {
        CHECK(run("props:player", Expect::Each, true).violations == Violations{{kCrate, kNoB}, {kBarrel, kNoB}});
        CHECK(run("props:player", Expect::Each, false, true).violations ==
              Violations{{kCrate, kNoB}, {kBarrel, kNoB}});
    }
    SUBCASE("each: a shape selected on both sides needs another shape") {
        CHECK(run("player:player", Expect::Each).violations == Violations{{kHero, kNoB}});
    }
    SUBCASE("rules count in the summary, collisions only as reported") {
        s.pairs = {PairSpec{"far", "*"}};
        s.rules = {collide::Rule{"clear", PairSpec{"player", "*"}, Expect::None, false, std::nullopt},
                   collide::Rule{"met", PairSpec{"player", "enemies"}, Expect::Some, false, std::nullopt},
                   collide::Rule{"boxed", PairSpec{"props", "player"}, Expect::Each, false, std::nullopt}};
        const SceneResult r = check(s, {});
        REQUIRE(r.rules.size() == 3);
        CHECK_FALSE(r.rules[0].passed);
        CHECK(r.rules[1].passed);
        CHECK_FALSE(r.rules[2].passed);
        CHECK(r.summary.rules_failed == 2);
        CHECK(r.summary.collisions == 0);
    }
}

TEST_CASE("candidate_pairs") {
    using collide::candidate_pairs;
    using Pairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
    const Broadphase all[] = {Broadphase::Auto, Broadphase::Grid, Broadphase::Sweep, Broadphase::Brute};
    SUBCASE("closed bounds: sharing an edge or a corner is a candidate") {
        const std::vector<Bounds> b{{{0, 0}, {1, 1}}, {{1, 0}, {2, 1}}, {{2, 1}, {3, 2}}, {{3.5, 0}, {4, 1}}};
        for (Broadphase m : all) CHECK(candidate_pairs(b, {0, 1, 2, 3}, m) == Pairs{{0, 1}, {1, 2}});
    }
    SUBCASE("only the items given, as sorted index pairs") {
        const std::vector<Bounds> b{{{0, 0}, {1, 1}}, {{0, 0}, {1, 1}}, {{0, 0}, {1, 1}}, {{0, 0}, {1, 1}}};
        for (Broadphase m : all) CHECK(candidate_pairs(b, {3, 0, 2}, m) == Pairs{{0, 2}, {0, 3}, {2, 3}});
    }
    SUBCASE("unbounded bounds (lines, rays)") {
        const std::vector<Bounds> b{
            {{-kInf, 5}, {kInf, 5}},       // a horizontal line y = 5
            {{10, -kInf}, {10, kInf}},     // a vertical line x = 10
            {{0, 0}, {kInf, 0}},           // a ray along +x from the origin
            {{-3, 4}, {-2, 6}},            // crosses y = 5 only
            {{20, -1}, {21, 1}},           // on the ray only
            {{-kInf, -kInf}, {kInf, kInf}} // a diagonal line
        };
        const Pairs expected{{0, 1}, {0, 3}, {0, 5}, {1, 2}, {1, 5}, {2, 4}, {2, 5}, {3, 5}, {4, 5}};
        for (Broadphase m : all) CHECK(candidate_pairs(b, {0, 1, 2, 3, 4, 5}, m) == expected);
    }
    SUBCASE("random boxes of every size: every method finds exactly the overlapping pairs") {
        std::mt19937_64 rng(42);
        std::vector<Bounds> b;
        for (int i = 0; i < 1500; ++i) {
            const double x = std::uniform_real_distribution<double>(-100, 100)(rng);
            const double y = std::uniform_real_distribution<double>(-100, 100)(rng);
            const int size_class = static_cast<int>(rng() % 20);
            const double w = size_class == 0 ? 1e6 : size_class == 1 ? 0.0 : std::uniform_real_distribution<double>(0, 3)(rng);
            const double h = size_class == 2 ? kInf : std::uniform_real_distribution<double>(0, 3)(rng);
            b.push_back(Bounds{{x, y}, {x + w, y + h}});
            if (size_class == 3) b.push_back(b.back());  // an exact duplicate
        }
        std::vector<std::uint32_t> items;
        for (std::uint32_t i = 0; i < b.size(); ++i)
            if (i % 7 != 3) items.push_back(i);  // leave some out
        Pairs expected;
        for (std::uint32_t i : items)
            for (std::uint32_t j : items)
                if (i < j && b[i].min.x <= b[j].max.x && b[j].min.x <= b[i].max.x && b[i].min.y <= b[j].max.y &&
                    b[j].min.y <= b[i].max.y)
                    expected.emplace_back(i, j);
        std::sort(expected.begin(), expected.end());
        for (Broadphase m : all) {
            CAPTURE(static_cast<int>(m));
            CHECK(candidate_pairs(b, items, m) == expected);
        }
    }
}

TEST_CASE("broad phase floats: measured from a frame near the scene, at any magnitude") {
    using collide::detail::FBounds;
    using collide::detail::frame_for;
    using collide::detail::outward;
    using collide::detail::overlap;
    // Unit boxes 2 apart near a corner c: floats from 0 keep about 7 digits, so near 1e9
    // both would round out to the same 64-unit box, and beyond 3e38 to infinity.
    auto boxes = [](double c, double unit) {
        return std::make_pair(Bounds{{c, c}, {c + unit, c + unit}}, Bounds{{c + 3 * unit, c}, {c + 4 * unit, c + unit}});
    };
    for (const auto& [c, unit] : {std::make_pair(0.0, 1.0), std::make_pair(1e9, 1.0), std::make_pair(-1e12, 1.0),
                                  std::make_pair(1e300, 1e290), std::make_pair(1e-300, 1e-302)}) {
        CAPTURE(c);
        const auto [a, b] = boxes(c, unit);
        const auto frame = frame_for({a, b});
        const FBounds fa = outward(a, frame);
        const FBounds fb = outward(b, frame);
        CHECK_FALSE(overlap(fa, fb));
        CHECK(std::isfinite(fa.x1 - fa.x0));
        // Outward: the frame's image of each box holds the box.
        CHECK(static_cast<double>(fa.x0) / frame.scale + frame.origin.x <= a.min.x);
        CHECK(static_cast<double>(fb.x1) / frame.scale + frame.origin.x >= b.max.x);
        // Boxes that share an edge still meet.
        CHECK(overlap(fa, outward(Bounds{{c + unit, c + unit}, {c + 2 * unit, c + 2 * unit}}, frame)));
    }
    // What floats from 0 give near 1e9: one box for both, every neighbour a candidate.
    const auto [a, b] = boxes(1e9, 1.0);
    CHECK(overlap(outward(a), outward(b)));
    // Unbounded boxes stay unbounded, and a frame ignores their infinite sides.
    const auto frame = frame_for({Bounds{{-kInf, 1e9}, {kInf, 1e9}}});
    CHECK(frame.origin.x == 0.0);
    CHECK(frame.origin.y == 1e9);
    // One far outlier does not move the origin: the median of the sample does not follow it.
    std::vector<Bounds> sample(9, a);
    sample[0] = Bounds{{0, 0}, {1, 1}};
    CHECK(frame_for(sample).origin.x == a.min.x);
    CHECK(frame_for({}).origin.x == 0.0);
    CHECK(frame_for({}).scale == 1.0);
    CHECK(outward(Bounds{{-kInf, 1e9}, {kInf, 1e9}}, frame).x0 == -std::numeric_limits<float>::infinity());
}

TEST_CASE("check: a scene translated to 1e9 or scaled by 2^990 gives the same pairs and relations") {
    using namespace collide;
    auto scene_at = [](double offset, int scale) {
        Scene s;
        s.file = "moved.json";
        std::mt19937_64 rng(4);
        std::uniform_int_distribution<int> steps(0, 25600);
        auto at = [&](double v) { return std::ldexp(v, scale) + offset; };
        for (int i = 0; i < 400; ++i) {
            // Multiples of 1/64: exact after adding 2^30, so every scene is the same one.
            const double x = steps(rng) / 64.0, y = steps(rng) / 64.0, size = 1 + (steps(rng) % 640) / 64.0;
            SceneShape sh;
            sh.id = "s" + std::to_string(i);
            sh.groups = Groups{std::vector<std::string>{"g"}};
            if (i % 2 == 0) sh.shape = Circle{Vec2{at(x), at(y)}, std::ldexp(size, scale)};
            else sh.shape = Rect{Vec2{at(x), at(y)}, Vec2{at(x + size), at(y + size)}};
            s.shapes.push_back(std::move(sh));
        }
        s.pairs.push_back(PairSpec{"g", "g"});
        return s;
    };
    auto relations = [](const Scene& s) {
        CheckOptions o;
        o.points = false;
        std::vector<std::tuple<std::size_t, std::size_t, Relation>> out;
        for (const auto& c : check(s, o).collisions) out.emplace_back(c.a, c.b, c.relation);
        return out;
    };
    const auto near0 = relations(scene_at(0, 0));
    CHECK(near0.size() > 50);
    CHECK(relations(scene_at(0, 990)) == near0);
    CHECK(relations(scene_at(0, -1000)) == near0);
    CHECK(relations(scene_at(1 << 30, 0)) == near0);  // 2^30: every coordinate still exact
}

namespace {

// A scene of n random shapes of every type: most in a few tight clusters, some spread out,
// some on integer coordinates (so that touching and collinear pairs are common), a few huge,
// a few unbounded (lines, rays), some exact duplicates; in groups a, b and c.
Scene random_scene(std::uint64_t seed, std::size_t n) {
    using namespace collide;
    std::mt19937_64 rng(seed);
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    auto integer = [&](int lo, int hi) { return static_cast<double>(std::uniform_int_distribution<int>(lo, hi)(rng)); };
    auto chance = [&](double p) { return uniform(0, 1) < p; };
    std::vector<Vec2> clusters;
    for (int i = 0; i < 6; ++i) clusters.push_back(Vec2{uniform(-500, 500), uniform(-500, 500)});

    Scene s;
    s.file = "random.json";
    while (s.shapes.size() < n) {
        SceneShape sh;
        sh.id = "s" + std::to_string(s.shapes.size());
        sh.groups = {std::string(1, static_cast<char>('a' + rng() % 3))};
        if (!s.shapes.empty() && chance(0.03)) {
            sh.shape = s.shapes[rng() % s.shapes.size()].shape;  // an exact duplicate
            s.shapes.push_back(std::move(sh));
            continue;
        }
        const bool lattice = chance(0.3);
        Vec2 p;
        if (lattice) {
            p = Vec2{integer(-40, 40), integer(-40, 40)};
        } else if (chance(0.8)) {
            const Vec2 c = clusters[rng() % clusters.size()];
            std::normal_distribution<double> spread(0.0, 6.0);
            p = Vec2{c.x + spread(rng), c.y + spread(rng)};
        } else {
            p = Vec2{uniform(-1000, 1000), uniform(-1000, 1000)};
        }
        const double size = chance(0.004) ? uniform(1e4, 1e6) : lattice ? integer(0, 4) : uniform(0, 4);
        auto near_p = [&] {
            return lattice ? Vec2{p.x + integer(-4, 4), p.y + integer(-4, 4)}
                           : Vec2{p.x + uniform(-size, size), p.y + uniform(-size, size)};
        };
        const int type = static_cast<int>(rng() % 100);
        if (type < 10) {
            sh.shape = Point{p};
        } else if (type < 30) {
            sh.shape = Circle{p, size};
        } else if (type < 50) {
            const double w = chance(0.1) ? 0.0 : size;
            const double h = lattice ? integer(0, 4) : uniform(0, size);
            sh.shape = Rect{p, Vec2{p.x + w, p.y + h}};
        } else if (type < 64) {
            sh.shape = Segment{p, near_p()};
        } else if (type < 65) {
            Vec2 q = near_p();
            if (chance(0.3)) q.y = p.y;  // axis-parallel lines have finite bounds across
            if (q == p) q.x += 1;
            sh.shape = Line{p, q};
        } else if (type < 66) {
            Vec2 d{integer(-1, 1), integer(-1, 1)};
            if (d == Vec2{0, 0}) d.x = 1;
            sh.shape = Ray{p, d};
        } else if (type < 84) {
            // Star-shaped around p (vertices at increasing angles): simple, either winding.
            std::vector<Vec2> pts;
            const int k = 3 + static_cast<int>(rng() % 5);
            const double turn = chance(0.5) ? 1.0 : -1.0;
            for (int i = 0; i < k; ++i) {
                const double angle = turn * (2 * 3.141592653589793 * (i + uniform(0.1, 0.9)) / k);
                const double r = uniform(0.2, 1.0) * (size + 0.5);
                pts.push_back(lattice ? Vec2{std::round(p.x + r * std::cos(angle)), std::round(p.y + r * std::sin(angle))}
                                      : Vec2{p.x + r * std::cos(angle), p.y + r * std::sin(angle)});
            }
            std::string why;
            auto simple = simple_polygon(pts, why);
            if (!simple) continue;
            sh.shape = Polygon{std::move(*simple)};
        } else {
            Polyline pl{{p}};
            const int k = 1 + static_cast<int>(rng() % 5);
            for (int i = 0; i < k; ++i) pl.points.push_back(near_p());
            if (chance(0.3)) pl.points.push_back(p);  // closed
            sh.shape = std::move(pl);
        }
        s.shapes.push_back(std::move(sh));
    }
    s.pairs = {PairSpec{"a", "b"}, PairSpec{"c", "*"}};
    s.rules = {collide::Rule{"a clear of c", PairSpec{"a", "c"}, collide::Rule::Expect::None, false, std::nullopt},
               collide::Rule{"b on something", PairSpec{"b", "*"}, collide::Rule::Expect::Each, true, std::nullopt},
               collide::Rule{"any a-a", PairSpec{"a", "a"}, collide::Rule::Expect::Some, false, std::nullopt}};
    return s;
}

bool same(const collide::Collision& x, const collide::Collision& y) {
    return x.a == y.a && x.b == y.b && x.relation == y.relation && x.points == y.points && x.parts_a == y.parts_a &&
           x.parts_b == y.parts_b;
}

// Two results agree record for record; on a difference, the first one is shown.
void check_same(const SceneResult& x, const SceneResult& y) {
    CHECK(x.collisions.size() == y.collisions.size());
    const std::size_t n = std::min(x.collisions.size(), y.collisions.size());
    std::size_t k = 0;
    while (k < n && same(x.collisions[k], y.collisions[k])) ++k;
    if (k < n) {
        CAPTURE(k);
        CHECK(x.collisions[k].a == y.collisions[k].a);
        CHECK(x.collisions[k].b == y.collisions[k].b);
        CHECK(x.collisions[k].relation == y.collisions[k].relation);
        CHECK(x.collisions[k].points == y.collisions[k].points);
    }
    REQUIRE(x.rules.size() == y.rules.size());
    for (std::size_t r = 0; r < x.rules.size(); ++r) {
        CHECK(x.rules[r].passed == y.rules[r].passed);
        CHECK(x.rules[r].violations == y.rules[r].violations);
    }
    CHECK(x.summary.collisions == y.summary.collisions);
    CHECK(x.summary.rules_failed == y.summary.rules_failed);
}

}  // namespace

TEST_CASE("check: every broad phase gives the same result on 2000 random shapes") {
    static const Scene s = random_scene(20240607, 2000);
    CheckOptions o;
    o.broadphase = Broadphase::Brute;
    SUBCASE("the scene's pairs and rules") {}
    SUBCASE("*:*, no touch, no points") {
        o.pairs = std::vector<PairSpec>{{"*", "*"}};
        o.no_touch = true;
        o.points = false;
    }
    const SceneResult reference = check(s, o);
    CHECK(reference.collisions.size() > 1000);  // dense enough to mean something
    for (Broadphase m : {Broadphase::Auto, Broadphase::Grid, Broadphase::Sweep, Broadphase::Brute}) {
        // Candidate pairs sorted in one buffer (the default), or one shape at a time: with
        // no buffer, and when the buffer overflows part way (the check starts over without it).
        for (std::size_t buffer : {std::size_t{1} << 22, std::size_t{0}, std::size_t{700}}) {
            CAPTURE(static_cast<int>(m));
            CAPTURE(buffer);
            o.broadphase = m;
            o.pair_buffer = buffer;
            o.threads = buffer == 0 ? 1 : 4;
            check_same(check(s, o), reference);
        }
    }
}

TEST_CASE("check: sizes spread over nine orders of magnitude (every level of the grid)") {
    // Rects and circles from 1e-3 to 1e6 across, log-uniform, so that items sit in many
    // levels of the grid and pairs cross levels; some share edges exactly.
    std::mt19937_64 rng(7);
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    Scene s;
    for (int i = 0; i < 3000; ++i) {
        collide::SceneShape sh;
        sh.id = "s" + std::to_string(i);
        const double size = std::pow(10.0, uniform(-3, 6));
        const Vec2 at{std::round(uniform(-1e5, 1e5)), std::round(uniform(-1e5, 1e5))};
        if (i % 2) sh.shape = collide::Circle{at, size / 2};
        else sh.shape = collide::Rect{at, Vec2{at.x + size, at.y + std::round(size)}};
        s.shapes.push_back(std::move(sh));
    }
    CheckOptions o;
    o.broadphase = Broadphase::Brute;
    o.points = false;
    const SceneResult reference = check(s, o);
    CHECK(reference.collisions.size() > 3000);
    for (Broadphase m : {Broadphase::Grid, Broadphase::Sweep}) {
        for (std::size_t buffer : {std::size_t{1} << 22, std::size_t{0}}) {
            CAPTURE(static_cast<int>(m));
            CAPTURE(buffer);
            o.broadphase = m;
            o.pair_buffer = buffer;
            check_same(check(s, o), reference);
        }
    }
}

TEST_CASE("check: big scenes collect candidate pairs on two threads with the same result") {
    // Above 16,384 shapes and with threads > 1, two threads each collect a share of the
    // candidate pairs; the result must not change, also when the buffer overflows part way.
    std::mt19937_64 rng(11);
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    Scene s;
    for (int i = 0; i < 20000; ++i) {
        collide::SceneShape sh;
        sh.id = "s" + std::to_string(i);
        const Vec2 at{std::round(uniform(0, 2000)), std::round(uniform(0, 2000))};
        const double size = std::pow(2.0, uniform(0, 5));
        if (i % 500 == 7) sh.shape = collide::Line{at, Vec2{uniform(-1, 1), 1}};  // unbounded
        else if (i % 2) sh.shape = collide::Circle{at, size / 2};
        else sh.shape = collide::Rect{at, Vec2{at.x + size, at.y + std::round(size)}};
        s.shapes.push_back(std::move(sh));
    }
    CheckOptions o;
    o.points = false;
    o.threads = 1;
    const SceneResult reference = check(s, o);
    CHECK(reference.collisions.size() > 20000);
    // (Brute force splits its rows the same way, but 2 x 10^8 tests are too slow for a unit test.)
    for (Broadphase m : {Broadphase::Grid, Broadphase::Sweep}) {
        for (std::size_t buffer : {std::size_t{1} << 22, std::size_t{5000}}) {
            CAPTURE(static_cast<int>(m));
            CAPTURE(buffer);
            o.broadphase = m;
            o.pair_buffer = buffer;
            o.threads = 2;
            check_same(check(s, o), reference);
        }
    }
}

TEST_CASE("check: with *:* it reports exactly the pairs collide() finds") {
    const Scene s = random_scene(99, 400);
    std::vector<std::string> expected;
    for (std::size_t i = 0; i < s.shapes.size(); ++i)
        for (std::size_t j = i + 1; j < s.shapes.size(); ++j)
            if (const auto hit = collide::collide(s.shapes[i].shape, s.shapes[j].shape))
                expected.push_back(s.shapes[i].id + "-" + s.shapes[j].id + " " +
                                   std::string(collide::relation_name(hit->relation)));
    CHECK(expected.size() > 100);
    CheckOptions o;
    o.pairs = std::vector<PairSpec>{{"*", "*"}};
    for (Broadphase m : {Broadphase::Grid, Broadphase::Sweep, Broadphase::Brute}) {
        CAPTURE(static_cast<int>(m));
        o.broadphase = m;
        CHECK(collisions(s, check(s, o)) == expected);
    }
}

TEST_CASE("check: compounds spread over the scene are found through their parts, with every broad phase") {
    // Shapes of a random scene, and compounds whose parts lie far apart (so the broad phase
    // indexes them part by part) or close together (indexed whole), some with a line or a
    // ray among their parts, one a compound of 300 parts along a diagonal. Every broad phase,
    // with and without the pair buffer, gives the pairs collide() finds, with their parts.
    Scene s = random_scene(4242, 300);
    std::mt19937_64 rng(7);
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    auto circle = [&](double x, double y) { return collide::Shape{collide::Circle{Vec2{x, y}, uniform(0.5, 6)}}; };
    for (int k = 0; k < 12; ++k) {
        collide::Compound c;
        const bool spread = k % 2 == 0;
        const double x = uniform(-60, 60), y = uniform(-60, 60);
        for (int p = 0; p < 4; ++p)
            c.parts.push_back(spread ? circle(uniform(-1000, 1000), uniform(-1000, 1000)) : circle(x + p, y));
        if (k % 4 == 0) c.parts.push_back(collide::Line{Vec2{x, y}, Vec2{x + 1, y + 0.5}});
        if (k % 4 == 2) c.parts.push_back(collide::Ray{Vec2{x, y}, Vec2{-1, 0.25}});
        s.shapes.push_back(collide::SceneShape{"c" + std::to_string(k), std::move(c), {"a"}});
    }
    collide::Compound diagonal;
    for (int p = 0; p < 300; ++p) diagonal.parts.push_back(circle(-900 + 6 * p, -900 + 6 * p));
    s.shapes.push_back(collide::SceneShape{"diagonal", std::move(diagonal), {"b"}});

    std::vector<collide::Collision> expected;
    for (std::size_t i = 0; i < s.shapes.size(); ++i) {
        for (std::size_t j = i + 1; j < s.shapes.size(); ++j) {
            if (auto hit = collide::collide(s.shapes[i].shape, s.shapes[j].shape)) {
                expected.push_back(collide::Collision{i, j, hit->relation, std::move(hit->points), {}, false,
                                                      std::move(hit->parts_a), std::move(hit->parts_b), std::nullopt});
            }
        }
    }
    std::size_t with_parts = 0;
    for (const auto& c : expected) with_parts += !c.parts_a.empty() || !c.parts_b.empty();
    CHECK(with_parts > 20);
    CheckOptions o;
    o.pairs = std::vector<PairSpec>{{"*", "*"}};
    for (Broadphase m : {Broadphase::Grid, Broadphase::Sweep, Broadphase::Brute}) {
        for (std::size_t buffer : {std::size_t{1} << 22, std::size_t{0}}) {
            CAPTURE(static_cast<int>(m));
            CAPTURE(buffer);
            o.broadphase = m;
            o.pair_buffer = buffer;
            o.threads = buffer == 0 ? 1 : 2;
            const SceneResult r = check(s, o);
            REQUIRE(r.collisions.size() == expected.size());
            for (std::size_t k = 0; k < expected.size(); ++k) {
                CAPTURE(k);
                CHECK(same(r.collisions[k], expected[k]));
            }
        }
    }
}

TEST_CASE("check: a streaming sink is handed, record by record, what check() collects") {
    // The sink gets each collision as an rvalue; one that only reads it (a report writer)
    // sees the same records, points and grid cells as the collecting check(), whatever the
    // thread count, and max_collisions stops both at the same record.
    Scene s = random_scene(31337, 2000);
    collide::Grid walls;
    walls.id = "walls";
    walls.groups = {"c"};
    walls.origin = Vec2{-20, -20};
    walls.tile = Vec2{4, 4};
    walls.cols = walls.rows = 10;
    walls.bits.assign(2, 0);
    for (std::size_t i = 0; i < 100; i += 3) walls.bits[i / 64] |= std::uint64_t{1} << (i % 64);
    s.grids.push_back(walls);
    auto same_cells = [](const collide::Collision& x, const collide::Collision& y) {
        return x.cells == y.cells && x.outside == y.outside;
    };
    for (std::size_t limit : {std::size_t{0}, std::size_t{777}}) {
        CheckOptions o;
        o.max_collisions = limit;
        o.threads = 1;
        const SceneResult collected = check(s, o);
        const auto on_grid = std::count_if(collected.collisions.begin(), collected.collisions.end(),
                                           [&](const collide::Collision& c) { return c.b == s.shapes.size(); });
        CHECK(on_grid > 10);
        CHECK(collected.truncated == (limit != 0));
        for (unsigned threads : {1u, 4u}) {
            CAPTURE(limit);
            CAPTURE(threads);
            o.threads = threads;
            std::vector<collide::Collision> seen;
            SceneResult streamed = check(s, o, [&](collide::Collision&& c) {
                seen.push_back(c);  // a copy: c keeps its storage
            });
            streamed.collisions = std::move(seen);
            check_same(streamed, collected);
            CHECK(streamed.truncated == collected.truncated);
            REQUIRE(streamed.collisions.size() == collected.collisions.size());
            std::size_t k = 0;
            while (k < collected.collisions.size() && same_cells(streamed.collisions[k], collected.collisions[k])) ++k;
            CHECK(k == collected.collisions.size());
        }
    }
}

TEST_CASE("check: a near sink is handed the near pairs in report order, and the result keeps none") {
    // The same scene with --near 3: the near pairs a near sink sees are those check() collects
    // (pairs, order and distances), summary.near counts them, and the result holds none; the
    // collisions are the same either way. With max_collisions the near pairs stop where the
    // collisions stop.
    const Scene s = random_scene(4711, 1500);
    for (std::size_t limit : {std::size_t{0}, std::size_t{300}}) {
        CAPTURE(limit);
        CheckOptions o;
        o.near = 3.0;
        o.max_collisions = limit;
        o.threads = 2;
        const SceneResult collected = check(s, o);
        REQUIRE(collected.summary.near);
        CHECK(*collected.summary.near == collected.near.size());
        CHECK(collected.near.size() > 100);
        std::vector<collide::Collision> seen;
        std::vector<collide::NearPair> near;
        const SceneResult streamed = check(
            s, o, [&](collide::Collision&& c) { seen.push_back(c); },
            [&](const collide::NearPair& n) { near.push_back(n); });
        CHECK(streamed.near.empty());
        REQUIRE(streamed.summary.near);
        CHECK(*streamed.summary.near == near.size());
        REQUIRE(near.size() == collected.near.size());
        for (std::size_t k = 0; k < near.size(); ++k) {
            CAPTURE(k);
            CHECK(near[k].a == collected.near[k].a);
            CHECK(near[k].b == collected.near[k].b);
            CHECK(near[k].distance == collected.near[k].distance);
        }
        CHECK(seen.size() == collected.collisions.size());
    }
}

TEST_CASE("check: CheckProgress counts the pairs given the exact test and the collisions reported") {
    // Five nested square outlines (polylines, so none meets another) and a segment from the
    // centre out through all five: every bounding box overlaps every other, so each of the
    // 6 * 5 / 2 = 15 pairs goes to the exact test, and 5 collide (the segment with each square).
    Scene s;
    for (int k = 1; k <= 5; ++k) {
        collide::SceneShape sq;
        sq.id = "square" + std::to_string(k);
        sq.groups = {"squares"};
        const double d = k;
        sq.shape = collide::Polyline{{{-d, -d}, {d, -d}, {d, d}, {-d, d}, {-d, -d}}};
        s.shapes.push_back(std::move(sq));
    }
    collide::SceneShape cut;
    cut.id = "cut";
    cut.shape = collide::Segment{{0, 0}, {6, 0}};
    s.shapes.push_back(std::move(cut));

    collide::CheckProgress progress;
    CheckOptions o;
    o.progress = &progress;
    SUBCASE("every pair, whatever the broad phase and threads") {
        for (Broadphase m : {Broadphase::Brute, Broadphase::Grid, Broadphase::Sweep}) {
            CAPTURE(static_cast<int>(m));
            progress.pairs_tested = 0;
            progress.collisions = 0;
            o.broadphase = m;
            o.threads = m == Broadphase::Grid ? 4 : 1;
            const SceneResult r = check(s, o);
            CHECK(r.summary.collisions == 5);
            CHECK(progress.pairs_tested == 15);
            CHECK(progress.collisions == 5);
        }
    }
    SUBCASE("only the pairs a spec asks for") {
        o.pairs = std::vector<PairSpec>{{"cut", "squares"}};
        check(s, o);
        CHECK(progress.pairs_tested == 5);
        CHECK(progress.collisions == 5);
    }
    SUBCASE("added to, never reset, by each check") {
        check(s, o);
        check(s, o);
        CHECK(progress.pairs_tested == 30);
        CHECK(progress.collisions == 10);
    }
    SUBCASE("collisions as reported: --max-collisions cuts them") {
        o.max_collisions = 2;
        const SceneResult r = check(s, o);
        CHECK(r.truncated);
        CHECK(progress.collisions == 2);
    }
}
