// Narrow-phase benchmark: the time collide() takes per candidate pair, by pair type.
//
//     cmake -S . -B build-rel -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_BUILD_BENCH=ON
//     cmake --build build-rel --target narrow_bench -j2
//     python3 tests/bench/gen_scene.py -o /tmp/shapes.json --shapes 100000
//     build-rel/narrow_bench /tmp/shapes.json [--reps 5]
//
// It reads a scene (collide's own reader), finds the pairs whose bounds overlap — what a
// broad phase hands to the narrow phase — with a sweep along x, groups them by the two
// shape types, and times collide(a, b) over each group, with points and without, several
// times; the best repetition is printed as ns per pair. Not part of CTest.
#include "collide/collide.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace collide;

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::pair<std::size_t, std::size_t>> candidate_pairs(const std::vector<Bounds>& b) {
    std::vector<std::size_t> order(b.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return b[i].min.x < b[j].min.x; });
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t k = 0; k < order.size(); ++k) {
        const Bounds& p = b[order[k]];
        for (std::size_t l = k + 1; l < order.size() && b[order[l]].min.x <= p.max.x; ++l) {
            const Bounds& q = b[order[l]];
            if (q.min.y <= p.max.y && p.min.y <= q.max.y) out.emplace_back(order[k], order[l]);
        }
    }
    return out;
}

// Best of `reps` passes over the pairs, in ns per pair; `sink` keeps the work observable.
double time_pairs(const std::vector<const Shape*>& a, const std::vector<const Shape*>& b, bool points, int reps,
                  std::size_t& sink) {
    double best = 1e300;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = Clock::now();
        for (std::size_t i = 0; i < a.size(); ++i) {
            const std::optional<Contact> c = collide::collide(*a[i], *b[i], points);
            if (c) sink += 1 + c->points.size();
        }
        const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
        best = std::min(best, ns / static_cast<double>(a.size()));
    }
    return best;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: narrow_bench SCENE.json [--reps N]\n");
        return 2;
    }
    int reps = 5;
    for (int i = 2; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--reps") reps = std::max(1, std::atoi(argv[i + 1]));
    std::ifstream in(argv[1], std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const Scene scene = read_scene(text.str(), argv[1]);

    std::vector<Bounds> bounds;
    for (const SceneShape& s : scene.shapes) bounds.push_back(bounds_of(s.shape));
    const auto pairs = candidate_pairs(bounds);

    // Group by unordered type pair, the lesser type name first (as in "circle-rect").
    struct Group {
        std::vector<const Shape*> a, b;
    };
    std::map<std::string, Group> groups;
    Group all;
    for (const auto& [i, j] : pairs) {
        const Shape* x = &scene.shapes[i].shape;
        const Shape* y = &scene.shapes[j].shape;
        std::string tx(type_name(type_of(*x)));
        std::string ty(type_name(type_of(*y)));
        if (ty < tx) std::swap(tx, ty), std::swap(x, y);
        Group& g = groups[tx + "-" + ty];
        g.a.push_back(x);
        g.b.push_back(y);
        all.a.push_back(x);
        all.b.push_back(y);
    }

    std::size_t sink = 0;
    std::printf("%-20s %9s %9s %12s %12s\n", "pair", "pairs", "collide", "ns (points)", "ns (none)");
    auto row = [&](const std::string& name, const Group& g) {
        std::size_t hits = 0;
        for (std::size_t k = 0; k < g.a.size(); ++k) hits += collide::collide(*g.a[k], *g.b[k], false).has_value();
        const double with = time_pairs(g.a, g.b, true, reps, sink);
        const double without = time_pairs(g.a, g.b, false, reps, sink);
        std::printf("%-20s %9zu %8.1f%% %12.1f %12.1f\n", name.c_str(), g.a.size(),
                    100.0 * static_cast<double>(hits) / static_cast<double>(std::max<std::size_t>(g.a.size(), 1)), with,
                    without);
    };
    for (const auto& [name, g] : groups) row(name, g);
    row("all", all);
    std::fprintf(stderr, "(checksum %zu)\n", sink);
    return 0;
}
