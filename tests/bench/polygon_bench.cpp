// Times simple_polygon() (the simplicity check run on every polygon a scene holds) on small
// polygons and on big combs and stars. Public API only, so the same file builds against any
// version of the library (README.md: "polygon_bench.cpp" has the commands and figures).
//
//   polygon_bench [--max-comb N] [--max-star N]   bigger combs / stars are skipped
//
// Small polygons: 10^5 random star-shaped polygons of 8, 16 and 32 vertices (valid), the
// mean time per polygon. Combs: teeth spanning the whole width (what makes an x-sorted
// pairwise check quadratic). Stars: random radii around a centre, by angle (valid).
#include <collide/scene.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using collide::Vec2;

namespace {

std::vector<Vec2> star(std::size_t n, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> radius(500.0, 1000.0);
    std::vector<Vec2> p(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double a = 2 * 3.141592653589793 * static_cast<double>(i) / static_cast<double>(n);
        const double r = radius(rng);
        p[i] = Vec2{r * std::cos(a), r * std::sin(a)};
    }
    return p;
}

std::vector<Vec2> comb(std::size_t n) {
    std::vector<Vec2> p;
    const std::size_t teeth = (n - 2) / 2;
    for (std::size_t i = 0; i < teeth; ++i) {
        p.push_back(Vec2{0.0, 2.0 * static_cast<double>(i)});
        p.push_back(Vec2{1000.0, 2.0 * static_cast<double>(i) + 1});
    }
    p.push_back(Vec2{1000.0, 2.0 * static_cast<double>(teeth) + 10});
    p.push_back(Vec2{-10.0, 2.0 * static_cast<double>(teeth) + 10});
    return p;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void check(bool ok, const std::string& why, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "%s rejected: %s\n", what, why.c_str());
        std::exit(1);
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t max_comb = static_cast<std::size_t>(-1);
    std::size_t max_star = static_cast<std::size_t>(-1);
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--max-comb") == 0) max_comb = std::strtoull(argv[++i], nullptr, 10);
        else if (std::strcmp(argv[i], "--max-star") == 0) max_star = std::strtoull(argv[++i], nullptr, 10);
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0);

    std::mt19937_64 rng(42);
    for (const std::size_t n : {8, 16, 32}) {
        const int count = 100000;
        std::vector<std::vector<Vec2>> polys;
        for (int i = 0; i < count; ++i) polys.push_back(star(n, rng));
        std::string why;
        const auto t0 = std::chrono::steady_clock::now();
        std::size_t kept = 0;
        for (const auto& p : polys) {
            const auto r = collide::simple_polygon(p, why);
            check(r.has_value(), why, "a small star");
            kept += r->size();
        }
        const double s = seconds_since(t0);
        std::printf("small star   %8zu vertices x %d: %8.0f ns each (%zu vertices kept)\n", n, count, s * 1e9 / count, kept);
    }
    for (const std::size_t n : {std::size_t{10000}, std::size_t{100000}, std::size_t{1000000}}) {
        if (n > max_comb) {
            std::printf("comb         %8zu vertices: skipped (--max-comb)\n", n);
            continue;
        }
        const auto p = comb(n);
        std::string why;
        const auto t0 = std::chrono::steady_clock::now();
        const auto r = collide::simple_polygon(p, why);
        const double s = seconds_since(t0);
        check(r.has_value(), why, "the comb");
        std::printf("comb         %8zu vertices: %10.1f ms\n", n, s * 1e3);
    }
    for (const std::size_t n : {std::size_t{10000}, std::size_t{100000}, std::size_t{1000000}}) {
        if (n > max_star) {
            std::printf("star         %8zu vertices: skipped (--max-star)\n", n);
            continue;
        }
        const auto p = star(n, rng);
        std::string why;
        const auto t0 = std::chrono::steady_clock::now();
        const auto r = collide::simple_polygon(p, why);
        const double s = seconds_since(t0);
        check(r.has_value(), why, "the star");
        std::printf("star         %8zu vertices: %10.1f ms\n", n, s * 1e3);
    }
    return 0;
}
