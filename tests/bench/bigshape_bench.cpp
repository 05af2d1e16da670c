// Big shapes within one pair (issue 12, item 11): the time of one pair of big polygons or
// polylines at V = 10^4, 4x10^4, 10^5 and 4x10^5 vertices, and of a check of one polygon of
// 2.5x10^4 or 10^5 vertices against 10,000 and 40,000 small circles along its outline. Not part of CTest; figures in README.md "Big shapes".
//
//     cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_BUILD_BENCH=ON
//     cmake --build build --target bigshape_bench -j2
//     build/bigshape_bench [--plain]
//     # instructions of one pair test (indexes built beforehand), KIND polygon (x polygon),
//     # polyline (polygon x polyline) or lines (polyline x polyline):
//     valgrind --tool=callgrind --callgrind-out-file=/dev/null
//         --toggle-collect='collide::detail::collide_into*' build/bigshape_bench --pair KIND V
//
// The shapes: star-shaped polygons of radius 1000 with a ripple (a coastline), two of them
// beside each other with centres 1.5 radii apart, so their outlines cross in two places; the
// polyline is the second polygon's outline, open. Each pair goes through collide() with its
// points (which builds both edge indexes, part of the time). --plain also times the path
// that reads every edge (the code before the index; quadratic) at V = 10^4, and against 300
// of the circles at V = 10^5.
#include "collide/collide.hpp"

#include "geometry/edge_index.hpp"
#include "queries/collide_into.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
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
// reads every edge. `points` gets how many points the pair has. `tested`: the best of 3 runs
// of the pair test alone, with both indexes built beforehand (as a check has them).
double time_pair(const Shape& a, const Shape& b, std::size_t& points, bool plain, double& tested) {
    double best = 1e300;
    tested = 1e300;
    const auto ia = detail::index_if_big(a);
    const auto ib = detail::index_if_big(b);
    for (int rep = 0; rep < (plain ? 1 : 3); ++rep) {
        std::vector<Vec2> pts;
        detail::Scratch scratch;
        auto t0 = Clock::now();
        if (plain) {
            detail::collide_into(a, b, &pts, {}, {}, scratch);
        } else if (auto hit = collide::collide(a, b)) {
            pts = std::move(hit->points);
        }
        best = std::min(best, seconds_since(t0));
        points = pts.size();
        if (plain) break;
        pts.clear();
        t0 = Clock::now();
        detail::collide_into(a, b, &pts, ia.get(), ib.get(), scratch);
        tested = std::min(tested, seconds_since(t0));
    }
    return best;
}

void pairs(std::size_t v, bool plain) {
    const Polygon a{coast(v, {0, 0}, 1000)};
    const Polygon b{coast(v, {1500, 0}, 1000)};
    const Polyline l{coast(v, {1500, 0}, 1000)};
    const Polyline la{a.points};
    struct Row {
        const char* name;
        const Shape* x;
        const Shape* y;
    };
    const Shape sa = a, sb = b, sl = l, sla = la;
    for (const Row& r : {Row{"polygon x polygon", &sa, &sb}, Row{"polygon x polyline", &sa, &sl},
                         Row{"polyline x polyline", &sla, &sl}}) {
        std::size_t points = 0;
        double tested = 0;
        const double t = time_pair(*r.x, *r.y, points, plain, tested);
        if (plain)
            std::printf("plain  V=%-7zu %-20s %9.4f s (%zu points)\n", v, r.name, t, points);
        else
            std::printf("index  V=%-7zu %-20s %9.4f s with the index builds, %9.4f s without (%zu points)\n", v,
                        r.name, t, tested, points);
    }
}

// The radius of coast() at angle a.
double coast_radius(double a, double r) { return r * (1 + 0.01 * std::sin(97 * a) + 0.003 * std::sin(1001 * a)); }

// `count` circles of radius 0.02-0.2 (an edge of the 10^5-vertex polygon is 0.063 long) at
// random places within 0.1 of the outline of coast(., {0, 0}, 1000): about half touch it.
std::vector<Circle> circles_along(std::size_t count) {
    std::uint64_t state = 42;
    auto uniform = [&] {  // xorshift64*: the same circles on every platform
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return static_cast<double>((state * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
    };
    std::vector<Circle> out;
    for (std::size_t i = 0; i < count; ++i) {
        const double a = 2 * 3.141592653589793 * uniform();
        const double r = coast_radius(a, 1000) + 0.2 * uniform() - 0.1;
        out.push_back(Circle{{r * std::cos(a), r * std::sin(a)}, 0.02 + 0.18 * uniform()});
    }
    return out;
}

// A check of one polygon of v vertices against the circles (pairs "poly:*": the circles
// among themselves are not asked for), on one thread: seconds for the check, and per circle.
void circles(std::size_t v, std::size_t count) {
    Scene scene;
    scene.shapes.push_back(SceneShape{"poly", Polygon{coast(v, {0, 0}, 1000)}, {}});
    const std::vector<Circle> cs = circles_along(count);
    for (std::size_t i = 0; i < count; ++i) scene.shapes.push_back(SceneShape{"c" + std::to_string(i), cs[i], {}});
    scene.pairs.push_back(PairSpec{"poly", "*"});
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

// The path that reads every edge, pair by pair: 300 of the circles against the polygon.
void circles_plain(std::size_t v) {
    const Polygon poly{coast(v, {0, 0}, 1000)};
    const std::vector<Circle> cs = circles_along(300);
    std::vector<Vec2> pts;
    std::size_t hits = 0;
    detail::Scratch scratch;
    const auto t0 = Clock::now();
    for (const Circle& c : cs) hits += detail::collide_into(poly, c, &pts, {}, {}, scratch).has_value();
    const double t = seconds_since(t0);
    std::printf("plain  V=%-7zu polygon x 300 circles: %8.4f s, %6.2f us a circle (%zu collisions)\n", v, t,
                1e6 * t / 300, hits);
}

}  // namespace

// One pair test, with both indexes built beforehand: for counting its instructions, which a
// shared machine does not disturb (valgrind --tool=callgrind --toggle-collect=... below).
int one_pair(const char* kind, std::size_t v) {
    const Shape a = std::strcmp(kind, "lines") == 0 ? Shape{Polyline{coast(v, {0, 0}, 1000)}}
                                                      : Shape{Polygon{coast(v, {0, 0}, 1000)}};
    const Shape b = std::strcmp(kind, "polygon") == 0 ? Shape{Polygon{coast(v, {1500, 0}, 1000)}}
                                                       : Shape{Polyline{coast(v, {1500, 0}, 1000)}};
    const auto ia = detail::index_if_big(a);
    const auto ib = detail::index_if_big(b);
    std::vector<Vec2> pts;
    detail::Scratch scratch;
    const auto hit = detail::collide_into(a, b, &pts, ia.get(), ib.get(), scratch);
    std::printf("%s V=%zu: %s, %zu points\n", kind, v, hit ? std::string(relation_name(*hit)).c_str() : "none",
                pts.size());
    return 0;
}

int main(int argc, char** argv) {
    if (argc == 4 && std::strcmp(argv[1], "--pair") == 0) return one_pair(argv[2], std::stoul(argv[3]));
    const bool plain = argc > 1 && std::strcmp(argv[1], "--plain") == 0;
    if (plain) pairs(10000, true);
    for (const std::size_t v : {10000, 40000, 100000, 400000}) pairs(v, false);
    if (plain) circles_plain(100000);
    for (const std::size_t v : {25000, 100000}) circles(v, 10000);
    circles(100000, 40000);
    return 0;
}
