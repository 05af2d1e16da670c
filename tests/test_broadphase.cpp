// The broad-phase index (lib/src/broadphase.hpp) on the scenes that once made it quadratic:
// far outliers, lines and rays, many grids. Every method and every way of asking (all pairs
// at once, in one or two shares, or one item at a time) must give brute force's pairs, and
// those must hold every pair that really collides.
#include "check/broadphase.hpp"
#include "grids/grid_ops.hpp"

#include "collide/check.hpp"
#include "collide/geometry.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace {

using collide::Bounds;
using collide::Broadphase;
using collide::Shape;
using collide::Vec2;
using collide::detail::BroadIndex;
using collide::detail::FBounds;
using collide::detail::Unbounded;
using Pairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

struct Items {
    std::vector<Shape> shapes;
    std::vector<FBounds> bounds;
    std::vector<std::uint32_t> items;  // all of them
    std::vector<std::pair<std::uint32_t, Unbounded>> lines;
};

Items items_of(std::vector<Shape> shapes) {
    Items it;
    it.shapes = std::move(shapes);
    for (std::uint32_t i = 0; i < it.shapes.size(); ++i) {
        const Shape& s = it.shapes[i];
        it.bounds.push_back(collide::detail::outward(collide::bounds_of(s)));
        it.items.push_back(i);
        if (const auto* l = std::get_if<collide::Line>(&s)) {
            const Vec2 d{l->b.x - l->a.x, l->b.y - l->a.y};
            const bool exact = d.x - l->b.x + l->a.x == 0 && d.y - l->b.y + l->a.y == 0 &&
                               std::fabs(l->a.x) < 1e15 && std::fabs(l->a.y) < 1e15;  // small integers here
            it.lines.emplace_back(i, Unbounded{l->a, d, false, exact});
        } else if (const auto* r = std::get_if<collide::Ray>(&s)) {
            it.lines.emplace_back(i, Unbounded{r->origin, r->direction, true, true});
        }
    }
    return it;
}

Pairs all_pairs(const BroadIndex& index, unsigned parts) {
    Pairs out;
    for (unsigned part = 0; part < parts; ++part)
        index.for_each_pair([&](std::uint32_t i, std::uint32_t j) {
            out.emplace_back(i, j);
            return true;
        }, part, parts);
    std::sort(out.begin(), out.end());
    return out;
}

Pairs queried_pairs(const BroadIndex& index, const std::vector<std::uint32_t>& items) {
    Pairs out;
    std::vector<std::uint32_t> partners;
    for (std::uint32_t i : items) {
        index.query(i, partners);
        CHECK(std::is_sorted(partners.begin(), partners.end()));
        for (std::uint32_t j : partners)
            if (i < j) out.emplace_back(i, j);
    }
    return out;
}

// Every method's pairs, by every way of asking, equal brute force's; returns those.
Pairs same_pairs_everywhere(const Items& it) {
    const BroadIndex brute(it.bounds, it.items, Broadphase::Brute, 1, it.lines);
    const Pairs expected = all_pairs(brute, 1);
    CHECK(queried_pairs(brute, it.items) == expected);
    for (Broadphase m : {Broadphase::Grid, Broadphase::Sweep, Broadphase::Auto}) {
        for (unsigned threads : {1u, 2u}) {
            CAPTURE(static_cast<int>(m));
            CAPTURE(threads);
            const BroadIndex index(it.bounds, it.items, m, threads, it.lines);
            CHECK(all_pairs(index, 1) == expected);
            CHECK(all_pairs(index, 2) == expected);
            CHECK(queried_pairs(index, it.items) == expected);
        }
    }
    return expected;
}

// The pairs of shapes that collide, by the exact test.
Pairs colliding(const std::vector<Shape>& shapes) {
    Pairs out;
    for (std::uint32_t i = 0; i < shapes.size(); ++i)
        for (std::uint32_t j = i + 1; j < shapes.size(); ++j)
            if (collide::collide(shapes[i], shapes[j], false)) out.emplace_back(i, j);
    return out;
}

bool includes(const Pairs& all, const Pairs& some) { return std::includes(all.begin(), all.end(), some.begin(), some.end()); }

std::vector<Shape> small_shapes(std::mt19937_64& rng, int n, double side) {
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    std::vector<Shape> shapes;
    for (int i = 0; i < n; ++i) {
        const Vec2 c{uniform(0, side), uniform(0, side)};
        switch (i % 4) {
            case 0: shapes.emplace_back(collide::Circle{c, uniform(0.2, 2)}); break;
            case 1: shapes.emplace_back(collide::Rect{c, Vec2{c.x + uniform(0, 3), c.y + uniform(0, 3)}}); break;
            case 2: shapes.emplace_back(collide::Segment{c, Vec2{c.x + uniform(-3, 3), c.y + uniform(-3, 3)}}); break;
            default: shapes.emplace_back(collide::Point{Vec2{std::round(c.x), std::round(c.y)}}); break;
        }
    }
    return shapes;
}

}  // namespace

TEST_CASE("broad phase: a box that is no item finds the items it overlaps, by every method") {
    // Two-sided candidates (scene_candidates.hpp) index one side and ask with the other's
    // bounds: the even shapes are the items, the odd ones the boxes asked with.
    std::mt19937_64 rng(26);
    std::vector<Shape> shapes = small_shapes(rng, 400, 60);
    shapes.emplace_back(collide::Line{{0, 10}, {60, 12}});
    shapes.emplace_back(collide::Ray{{30, 30}, {1, -1}});
    const Items it = items_of(shapes);
    std::vector<std::uint32_t> even;
    for (std::uint32_t i = 0; i < it.items.size(); i += 2) even.push_back(i);
    const BroadIndex brute(it.bounds, even, Broadphase::Brute, 1, it.lines);
    std::vector<std::uint32_t> got, want;
    for (Broadphase m : {Broadphase::Grid, Broadphase::Sweep, Broadphase::Auto}) {
        const BroadIndex index(it.bounds, even, m, 1, it.lines);
        std::size_t found = 0;
        for (std::uint32_t i = 1; i < it.items.size(); i += 2) {
            CAPTURE(static_cast<int>(m));
            CAPTURE(i);
            brute.query_box(it.bounds[i], want);
            index.query_box(it.bounds[i], got);
            CHECK(got == want);
            found += got.size();
            // Every bounded item whose bounds overlap the box is there.
            for (const std::uint32_t j : even)
                if (std::isfinite(it.bounds[j].x1 - it.bounds[j].x0) && collide::detail::overlap(it.bounds[i], it.bounds[j]))
                    CHECK(std::binary_search(got.begin(), got.end(), j));
        }
        CHECK(found > 100);  // 143: not a vacuous check
    }
}

TEST_CASE("broad phase: far outliers change neither the pairs nor the cells") {
    std::mt19937_64 rng(7);
    std::vector<Shape> shapes = small_shapes(rng, 1500, 60);
    SUBCASE("a point at 1e9") { shapes.emplace_back(collide::Point{Vec2{1e9, 1e9}}); }
    SUBCASE("points at 1e30 and -1e30, and one beyond the float range") {
        shapes.emplace_back(collide::Point{Vec2{1e30, 1e30}});
        shapes.emplace_back(collide::Point{Vec2{-1e30, 5}});
        shapes.emplace_back(collide::Point{Vec2{1e300, 1e300}});
        shapes.emplace_back(collide::Point{Vec2{1e300, 1e300}});
    }
    SUBCASE("a rect over everything and a segment 1e9 long across it") {
        shapes.emplace_back(collide::Rect{Vec2{-5e8, -5e8}, Vec2{5e8, 5e8}});
        shapes.emplace_back(collide::Segment{Vec2{-5e8, -5e8 + 3}, Vec2{5e8, 5e8}});
    }
    SUBCASE("tiny points 1e-20 apart beside a far circle (cells far below the float spacing of the far ones)") {
        for (int i = 0; i < 300; ++i) shapes.emplace_back(collide::Point{Vec2{(i % 17) * 1e-20, (i % 13) * 1e-20}});
        shapes.emplace_back(collide::Circle{Vec2{1e30, -1e30}, 1e20});
        shapes.emplace_back(collide::Point{Vec2{1e30, -1e30}});
    }
    const Items it = items_of(shapes);
    const Pairs pairs = same_pairs_everywhere(it);
    // Bounded items only: the pairs are exactly those whose rounded bounds overlap.
    Pairs overlapping;
    for (std::uint32_t i = 0; i < it.bounds.size(); ++i)
        for (std::uint32_t j = i + 1; j < it.bounds.size(); ++j)
            if (collide::detail::overlap(it.bounds[i], it.bounds[j])) overlapping.emplace_back(i, j);
    CHECK(pairs == overlapping);
    CHECK(includes(pairs, colliding(shapes)));
}

TEST_CASE("broad phase: lines and rays meet what they cross, and parallel lines only when collinear") {
    std::mt19937_64 rng(11);
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    auto integer = [&](int lo, int hi) { return static_cast<double>(std::uniform_int_distribution<int>(lo, hi)(rng)); };
    std::vector<Shape> shapes = small_shapes(rng, 1200, 80);
    // Families of exactly parallel lines and rays (some collinear, some with a scaled
    // direction), lines in every direction, axis-parallel ones, nearly parallel ones (which
    // meet far away), lines whose b - a is not exact, and rays starting inside and outside.
    const Vec2 dirs[] = {{1, 7}, {3, -2}, {1, 0}, {0, 1}, {1, 1}};
    for (int k = 0; k < 60; ++k) {
        const Vec2 d = dirs[k % 5];
        const double scale = (k % 3 == 0) ? 2.5 : 1.0;
        const Vec2 a{integer(-10, 90), integer(-10, 90)};
        if (k % 2 == 0) shapes.emplace_back(collide::Line{a, Vec2{a.x + d.x * scale, a.y + d.y * scale}});
        else shapes.emplace_back(collide::Ray{a, Vec2{-d.x * scale, -d.y * scale}});
        if (k % 7 == 0) shapes.emplace_back(collide::Line{Vec2{a.x + 2 * d.x, a.y + 2 * d.y}, Vec2{a.x + 5 * d.x, a.y + 5 * d.y}});
    }
    for (int k = 0; k < 20; ++k)
        shapes.emplace_back(collide::Line{Vec2{uniform(0, 80), uniform(0, 80)}, Vec2{uniform(0, 80), uniform(0, 80)}});
    shapes.emplace_back(collide::Line{Vec2{0, 0}, Vec2{1, 1}});
    shapes.emplace_back(collide::Line{Vec2{0, 1e-3}, Vec2{1, 1 + 0x1p-52}});  // meets the one above near x = 4.5e12
    shapes.emplace_back(collide::Ray{Vec2{-1e6, 40}, Vec2{1, 0x1p-40}});
    shapes.emplace_back(collide::Ray{Vec2{100, 100}, Vec2{1, 1}});  // points away from everything
    shapes.emplace_back(collide::Line{Vec2{0.1, 0.3}, Vec2{40.7, 80.9}});
    const Items it = items_of(shapes);
    const Pairs pairs = same_pairs_everywhere(it);
    CHECK(includes(pairs, colliding(shapes)));
    // The lines and rays do rule out what they miss.
    std::size_t line_pairs = 0;
    for (const auto& [i, j] : pairs) line_pairs += it.bounds[i].x1 - it.bounds[i].x0 > 1e30 || it.bounds[j].x1 - it.bounds[j].x0 > 1e30;
    CHECK(line_pairs < 20000);
}

TEST_CASE("check: grids join the broad phase by their extent, in report order, for every broad phase") {
    using collide::Grid;
    std::mt19937_64 rng(3);
    auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    collide::Scene scene;
    scene.file = "grids.json";
    const std::vector<Shape> shapes = small_shapes(rng, 600, 100);
    for (std::size_t i = 0; i < shapes.size(); ++i) scene.shapes.push_back(collide::SceneShape{"s" + std::to_string(i), shapes[i], {}});
    scene.shapes.push_back(collide::SceneShape{"line", collide::Line{Vec2{0, 3}, Vec2{100, 90}}, {}});
    scene.shapes.push_back(collide::SceneShape{"ray", collide::Ray{Vec2{50, 50}, Vec2{-1, 0.25}}, {}});
    for (int k = 0; k < 120; ++k) {
        Grid g;
        g.id = "g" + std::to_string(k);
        g.origin = Vec2{uniform(-10, 100), uniform(-10, 100)};
        g.tile = Vec2{uniform(0.3, 3), uniform(0.3, 3)};
        g.cols = 1 + rng() % 5;
        g.rows = 1 + rng() % 5;
        g.outside_solid = k % 10 == 0;  // a few: they meet everything not wholly inside
        g.y_up = k % 3 == 0;
        g.bits.assign((g.cols * g.rows + 63) / 64, 0);
        for (std::size_t c = 0; c < g.cols * g.rows; ++c)
            if (rng() % 3 == 0) g.bits[c / 64] |= std::uint64_t{1} << (c % 64);
        scene.grids.push_back(g);
    }
    // What every shape-grid pair gives, by the exact test alone.
    std::vector<std::pair<std::size_t, std::size_t>> expected;
    for (std::size_t a = 0; a < scene.shapes.size(); ++a)
        for (std::size_t g = 0; g < scene.grids.size(); ++g)
            if (collide::detail::shape_vs_grid(scene.shapes[a].shape, scene.grids[g])) expected.emplace_back(a, scene.shapes.size() + g);
    CHECK(expected.size() > 500);
    const std::vector<collide::PairSpec> specs{collide::PairSpec{"*", "*"}};
    std::vector<collide::Collision> reference;
    for (Broadphase m : {Broadphase::Brute, Broadphase::Grid, Broadphase::Sweep}) {
        for (unsigned threads : {1u, 2u}) {
            for (std::size_t buffer : {std::size_t{0}, std::size_t{1} << 22}) {
                CAPTURE(static_cast<int>(m));
                collide::CheckOptions o;
                o.broadphase = m;
                o.threads = threads;
                o.pair_buffer = buffer;
                o.pairs = specs;
                const collide::SceneResult r = collide::check(scene, o);
                std::vector<std::pair<std::size_t, std::size_t>> with_grids;
                for (const collide::Collision& c : r.collisions)
                    if (c.b >= scene.shapes.size()) with_grids.emplace_back(c.a, c.b);
                CHECK(with_grids == expected);
                CHECK(std::is_sorted(r.collisions.begin(), r.collisions.end(),
                                     [](const auto& x, const auto& y) { return std::make_pair(x.a, x.b) < std::make_pair(y.a, y.b); }));
                if (reference.empty()) reference = r.collisions;
                CHECK(r.collisions.size() == reference.size());
                for (std::size_t k = 0; k < std::min(reference.size(), r.collisions.size()); ++k) {
                    CHECK(r.collisions[k].a == reference[k].a);
                    CHECK(r.collisions[k].b == reference[k].b);
                    CHECK(r.collisions[k].cells == reference[k].cells);
                    CHECK(r.collisions[k].outside == reference[k].outside);
                }
            }
        }
    }
}

TEST_CASE("broad phase: lines walk the cells of shapes far from the origin and of tiny ones") {
    // Cells far smaller than the coordinates (shapes near 1e9 and 1e20, whose float bounds
    // are a few ulps wide) and tiny ones (1e-15): the walk's margins must still reach every
    // shape a line meets.
    for (const auto& [offset, scale] : {std::pair{1e9, 1.0}, std::pair{-1e20, 1e6}, std::pair{3e-12, 1e-15}}) {
        CAPTURE(offset);
        std::mt19937_64 rng(5);
        std::vector<Shape> shapes;
        for (const Shape& s : small_shapes(rng, 800, 60)) {
            auto at = [&](Vec2 v) { return Vec2{offset + v.x * scale, offset + v.y * scale}; };
            if (const auto* c = std::get_if<collide::Circle>(&s)) shapes.emplace_back(collide::Circle{at(c->center), c->radius * scale});
            else if (const auto* r = std::get_if<collide::Rect>(&s)) shapes.emplace_back(collide::Rect{at(r->min), at(r->max)});
            else if (const auto* g = std::get_if<collide::Segment>(&s)) shapes.emplace_back(collide::Segment{at(g->a), at(g->b)});
            else shapes.emplace_back(collide::Point{at(std::get<collide::Point>(s).at)});
        }
        for (int k = 0; k < 50; ++k) {
            const Vec2 a{offset + std::uniform_real_distribution<double>(0, 60)(rng) * scale,
                         offset + std::uniform_real_distribution<double>(0, 60)(rng) * scale};
            const Vec2 d{std::uniform_real_distribution<double>(-1, 1)(rng), std::uniform_real_distribution<double>(-1, 1)(rng)};
            if (k % 2 == 0) shapes.emplace_back(collide::Ray{a, d});
            else shapes.emplace_back(collide::Line{a, Vec2{a.x + d.x * scale, a.y + d.y * scale}});
        }
        const Items it = items_of(shapes);
        const Pairs pairs = same_pairs_everywhere(it);
        CHECK(includes(pairs, colliding(shapes)));
    }
}
