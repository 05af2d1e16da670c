// Big shapes within one pair (issue 12, item 11): the time of one pair of big polygons or
// polylines at V, 4V and 10^5 vertices, and of a 10^5-vertex polygon against 10,000 and
// 40,000 small circles in a check. Not part of CTest; figures in README.md "Big shapes".
//
//     cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_BUILD_BENCH=ON
//     cmake --build build --target bigshape_bench -j2
//     build/bigshape_bench [--plain]
//
// The shapes: star-shaped polygons of radius 1000 with a ripple (a coastline), two of them
// beside each other with centres 1.5 radii apart, so their outlines cross in two places; the
// polyline is the second polygon's outline, open. Each pair goes through collide() with its
// points (which builds both edge indexes, part of the time). --plain also times the path
// that reads every edge (the code before the index; quadratic) at V = 10^4 only.
#include "collide/collide.hpp"

#include "collide_into.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace collide;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::vector<Vec2> coast(std::size_t n, Vec2 c, double r) {
    std::vector<Vec2> p(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double a = 2 * 3.141592653589793 * static_cast<double>(i) / static_cast<double>(n);
        const double ri = r * (1 + 0.01 * std::sin(97 * a) + 0.003 * std::sin(1001 * a));
        p[i] = Vec2{c.x + ri * std::cos(a), c.y + ri * std::sin(a)};
    }
    return p;
}

// Best of 3 runs of collide(a, b) with points, in seconds; --plain: one run of the path that
// reads every edge. `points` gets how many points the pair has.
double time_pair(const Shape& a, const Shape& b, std::size_t& points, bool plain) {
    double best = 1e300;
    for (int rep = 0; rep < (plain ? 1 : 3); ++rep) {
        std::vector<Vec2> pts;
        const auto t0 = Clock::now();
        if (plain) {
            detail::collide_into(a, b, &pts);
        } else if (auto hit = collide::collide(a, b)) {
            pts = std::move(hit->points);
        }
        best = std::min(best, seconds_since(t0));
        points = pts.size();
    }
    return best;
}

void pairs(std::size_t v, bool plain) {
    const Polygon a{coast(v, {0, 0}, 1000)};
    const Polygon b{coast(v, {1500, 0}, 1000)};
    const Polyline l{coast(v, {1500, 0}, 1000)};
    std::size_t pp = 0, pl = 0, ll = 0;
    const double t_pp = time_pair(a, b, pp, plain);
    const double t_pl = time_pair(a, l, pl, plain);
    const double t_ll = time_pair(Polyline{a.points}, l, ll, plain);
    std::printf("%-6s V=%-7zu polygon x polygon %9.4f s (%zu points)  polygon x polyline %9.4f s (%zu points)  "
                "polyline x polyline %9.4f s (%zu points)\n",
                plain ? "plain" : "index", v, t_pp, pp, t_pl, pl, t_ll, ll);
}

// A check of one polygon of v vertices against `circles` circles of radius 1-6 strewn over
// a band around its outline (about half of them touch it): the time of the check, and per
// circle.
void circles(std::size_t v, std::size_t count) {
    Scene scene;
    scene.shapes.push_back(SceneShape{"poly", Polygon{coast(v, {0, 0}, 1000)}, {}});
    std::uint64_t state = 42;
    auto uniform = [&] {  // xorshift64*: the same circles on every platform
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return static_cast<double>((state * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
    };
    for (std::size_t i = 0; i < count; ++i) {
        const double a = 2 * 3.141592653589793 * uniform();
        const double r = 1000 * (0.97 + 0.06 * uniform());
        scene.shapes.push_back(
            SceneShape{"c" + std::to_string(i), Circle{{r * std::cos(a), r * std::sin(a)}, 1 + 5 * uniform()}, {}});
    }
    CheckOptions options;
    options.threads = 1;
    double best = 1e300;
    std::size_t hits = 0;
    for (int rep = 0; rep < 3; ++rep) {
        const auto t0 = Clock::now();
        hits = check(scene, options).summary.collisions;
        best = std::min(best, seconds_since(t0));
    }
    std::printf("index  V=%-7zu polygon x %zu circles: check %8.4f s, %6.2f us a circle (%zu collisions)\n", v, count,
                best, 1e6 * best / static_cast<double>(count), hits);
}

}  // namespace

int main(int argc, char** argv) {
    const bool plain = argc > 1 && std::strcmp(argv[1], "--plain") == 0;
    if (plain) pairs(10000, true);
    for (const std::size_t v : {10000, 40000, 100000, 400000}) pairs(v, false);
    for (const std::size_t v : {25000, 100000}) circles(v, 10000);
    circles(100000, 40000);
    return 0;
}
