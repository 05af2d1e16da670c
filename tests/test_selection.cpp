// Selections: the lists kept for many specs select exactly what the masks of a few select,
// and check() gives the same result whichever it uses.
#include "scene/selection.hpp"

#include "collide/check.hpp"

#include <doctest/doctest.h>

#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

using collide::PairSpec;
using collide::Rule;
using collide::Scene;
using collide::detail::Selections;

namespace {

// 40 circles in a row (neighbours overlap) and 2 grids, with ids s0.. and g0.., in random
// groups among a, b, c (some also named by an id: a shape whose id is a group name).
Scene random_scene(std::mt19937& rng) {
    std::string text = R"({"shapes": [)";
    auto groups = [&] {
        std::string g = "[";
        for (const char* name : {"a", "b", "c"})
            if (rng() % 3 == 0) g += std::string(g.size() > 1 ? ", " : "") + "\"" + name + "\"";
        return g + "]";
    };
    for (int i = 0; i < 40; ++i) {
        const std::string id = i == 7 ? "b" : "s" + std::to_string(i);
        text += std::string(i ? ", " : "") + R"({"id": ")" + id + R"(", "type": "circle", "center": [)" +
                std::to_string(i) + R"(, 0], "radius": 0.6, "groups": )" + groups() + "}";
    }
    text += R"(], "grids": [)";
    for (int k = 0; k < 2; ++k)
        text += std::string(k ? ", " : "") + R"({"id": "g)" + std::to_string(k) + R"(", "origin": [)" +
                std::to_string(10 * k) + R"(, -1], "tile_size": 1, "rows": ["##"], "groups": )" + groups() + "}";
    return collide::read_scene(text + "]}", "random.json");
}

std::string random_selector(std::mt19937& rng) {
    const char* const names[] = {"*", "a", "b", "c", "s3", "s4", "g0", "g1", "nobody"};
    return names[rng() % 9];
}

}  // namespace

TEST_CASE("Selections: lists and masks select the same pairs, sides and shapes") {
    std::mt19937 rng(12);
    for (int round = 0; round < 60; ++round) {
        Scene scene = random_scene(rng);
        std::vector<PairSpec> report;
        for (std::size_t k = 1 + rng() % 6; k > 0; --k) report.push_back(PairSpec{random_selector(rng), random_selector(rng)});
        for (std::size_t k = rng() % 6; k > 0; --k) {
            scene.rules.push_back(Rule{"r" + std::to_string(scene.rules.size()),
                                       PairSpec{random_selector(rng), random_selector(rng)}, Rule::Expect::Each, false, std::nullopt});
        }
        std::vector<std::string> empty_masks;
        std::vector<std::string> empty_lists;
        const Selections masks(scene, report, scene.rules, empty_masks, 1000);
        const Selections lists(scene, report, scene.rules, empty_lists, 0);
        CHECK(empty_masks == empty_lists);
        const std::size_t ns = scene.shapes.size();
        const std::size_t n = ns + scene.grids.size();
        for (std::size_t i = 0; i < ns; ++i) {
            for (std::size_t j = 0; j < n; ++j) {
                if (i == j) continue;
                std::pair<std::size_t, std::size_t> ab_masks{0, 0};
                std::pair<std::size_t, std::size_t> ab_lists{0, 0};
                REQUIRE(masks.reported(i, j, ab_masks) == lists.reported(i, j, ab_lists));
                CHECK(ab_masks == ab_lists);
                REQUIRE(masks.any_rule(i, j) == lists.any_rule(i, j));
                std::multiset<std::size_t> rules_masks;
                std::multiset<std::size_t> rules_lists;
                masks.for_each_rule(i, j, [&](std::size_t k) { rules_masks.insert(k); });
                lists.for_each_rule(i, j, [&](std::size_t k) { rules_lists.insert(k); });
                REQUIRE(rules_masks == rules_lists);
                for (const std::size_t k : rules_masks) CHECK(masks.rule_oriented(k, i, j) == lists.rule_oriented(k, i, j));
            }
        }
        for (std::size_t k = 0; k < scene.rules.size(); ++k) {
            std::vector<std::size_t> left_masks;
            std::vector<std::size_t> left_lists;
            masks.rule_left(k, left_masks);
            lists.rule_left(k, left_lists);
            CHECK(left_masks == left_lists);
            std::set<std::size_t> ranks;
            for (const std::size_t i : left_lists) ranks.insert(lists.rule_left_rank(k, i));
            CHECK(ranks.size() == left_lists.size());
            CHECK((ranks.empty() || *ranks.rbegin() < lists.rule_left_size(k)));
        }
        // The lists leave out the shapes of specs that select nothing: they are a subset.
        std::vector<std::uint32_t> used_masks;
        std::vector<std::uint32_t> used_lists;
        masks.used_shapes(used_masks);
        lists.used_shapes(used_lists);
        CHECK(std::includes(used_masks.begin(), used_masks.end(), used_lists.begin(), used_lists.end()));
    }
}

TEST_CASE("check: many specs and rules (kept as lists) give what a few (as masks) give") {
    std::mt19937 rng(13);
    for (int round = 0; round < 30; ++round) {
        Scene scene = random_scene(rng);
        for (std::size_t k = 1 + rng() % 4; k > 0; --k) scene.pairs.push_back(PairSpec{random_selector(rng), random_selector(rng)});
        const Rule::Expect expects[] = {Rule::Expect::None, Rule::Expect::Some, Rule::Expect::Each};
        for (std::size_t k = rng() % 4; k > 0; --k) {
            scene.rules.push_back(Rule{"r" + std::to_string(scene.rules.size()),
                                       PairSpec{random_selector(rng), random_selector(rng)}, expects[rng() % 3],
                                       rng() % 2 == 0, std::nullopt});
        }
        Scene many = scene;
        for (int k = 0; k < 20; ++k) many.pairs.push_back(PairSpec{"nobody", "*"});  // selects nothing
        for (int k = 0; k < 20; ++k) many.pairs.push_back(many.pairs[static_cast<std::size_t>(k) % scene.pairs.size()]);
        const collide::SceneResult few_r = collide::check(scene, {});
        const collide::SceneResult many_r = collide::check(many, {});
        REQUIRE(few_r.collisions.size() == many_r.collisions.size());
        for (std::size_t c = 0; c < few_r.collisions.size(); ++c) {
            CHECK(few_r.collisions[c].a == many_r.collisions[c].a);
            CHECK(few_r.collisions[c].b == many_r.collisions[c].b);
            CHECK(few_r.collisions[c].relation == many_r.collisions[c].relation);
        }
        REQUIRE(few_r.rules.size() == many_r.rules.size());
        for (std::size_t k = 0; k < few_r.rules.size(); ++k) {
            CHECK(few_r.rules[k].passed == many_r.rules[k].passed);
            CHECK(few_r.rules[k].violations == many_r.rules[k].violations);
        }
    }
}
