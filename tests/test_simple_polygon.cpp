// simple_polygon() and its two checks (simple_polygon.hpp): the pairwise check for small
// rings and the Shamos–Hoey sweep for big ones. Named degenerate rings first, each through
// both checks; then random rings on a small integer grid (many collinear and repeated
// coordinates) against a brute force written here in 64-bit integers.
#include "scene/simple_polygon.hpp"

#include "collide/scene.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

using collide::Vec2;
using collide::simple_polygon;
using collide::detail::RingDefect;
using collide::detail::Ring;
using collide::detail::ring_defect_pairwise;
using collide::detail::ring_defect_sweep;

namespace {

std::vector<Vec2> pts(std::initializer_list<std::pair<double, double>> xy) {
    std::vector<Vec2> v;
    for (const auto& [x, y] : xy) v.push_back(Vec2{x, y});
    return v;
}

// The message simple_polygon gives, or "" when it accepts the points.
std::string why_not(const std::vector<Vec2>& points) {
    std::string why;
    const auto ring = simple_polygon(points, why);
    CHECK(ring.has_value() == why.empty());
    return why;
}

std::optional<RingDefect> sweep(const std::vector<Vec2>& ring) { return ring_defect_sweep(Ring{ring.data(), ring.size()}); }
std::optional<RingDefect> pairwise(const std::vector<Vec2>& ring) {
    return ring_defect_pairwise(Ring{ring.data(), ring.size()});
}

// Both checks name this defect (first edge, second edge, overlap), or both accept.
void both_give(const std::vector<Vec2>& ring, std::optional<RingDefect> want) {
    for (const auto& got : {pairwise(ring), sweep(ring)}) {
        REQUIRE(got.has_value() == want.has_value());
        if (!want) continue;
        CHECK(got->first == want->first);
        CHECK(got->second == want->second);
        CHECK(got->overlap == want->overlap);
    }
}

// ---- The brute force: every pair of edges, integer coordinates, 64-bit arithmetic. ----

struct IP {
    std::int64_t x, y;
};

int orient_i(IP a, IP b, IP c) {
    const std::int64_t d = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    return (d > 0) - (d < 0);
}

bool in_box(IP a, IP b, IP p) {
    return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
           p.y <= std::max(a.y, b.y);
}

// Whether closed segments ab and cd share a point (the textbook four-orientation test).
bool meet_i(IP a, IP b, IP c, IP d) {
    const int o1 = orient_i(a, b, c), o2 = orient_i(a, b, d), o3 = orient_i(c, d, a), o4 = orient_i(c, d, b);
    if (o1 * o2 < 0 && o3 * o4 < 0) return true;
    return (o1 == 0 && in_box(a, b, c)) || (o2 == 0 && in_box(a, b, d)) || (o3 == 0 && in_box(c, d, a)) ||
           (o4 == 0 && in_box(c, d, b));
}

// Whether they share a piece of positive length: collinear, and their extents along the
// line (x, or y for a vertical line) overlap by more than a point.
bool overlap_i(IP a, IP b, IP c, IP d) {
    if (orient_i(a, b, c) != 0 || orient_i(a, b, d) != 0) return false;
    auto key = [&](IP p) { return a.x != b.x ? p.x : p.y; };
    return std::max(std::min(key(a), key(b)), std::min(key(c), key(d))) <
           std::min(std::max(key(a), key(b)), std::max(key(c), key(d)));
}

struct Brute {
    std::vector<IP> v;
    std::size_t n() const { return v.size(); }
    IP at(std::size_t i) const { return v[i % v.size()]; }
    bool consecutive(std::size_t i, std::size_t j) const { return (i + 1) % n() == j || (j + 1) % n() == i; }
    bool overlap(std::size_t i, std::size_t j) const { return overlap_i(at(i), at(i + 1), at(j), at(j + 1)); }
    // Consecutive edges may share their vertex, nothing more; other edges nothing at all.
    bool bad(std::size_t i, std::size_t j) const {
        return consecutive(i, j) ? overlap(i, j) : meet_i(at(i), at(i + 1), at(j), at(j + 1));
    }
    bool simple() const {
        for (std::size_t i = 0; i < n(); ++i)
            for (std::size_t j = i + 1; j < n(); ++j)
                if (bad(i, j)) return false;
        return true;
    }
    // The naming rule: edges by smallest x, then index; the first with a bad later partner.
    std::optional<RingDefect> named() const {
        std::vector<std::size_t> order(n());
        for (std::size_t i = 0; i < n(); ++i) order[i] = i;
        auto lo = [&](std::size_t i) { return std::min(at(i).x, at(i + 1).x); };
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return lo(a) < lo(b); });
        for (std::size_t a = 0; a < n(); ++a)
            for (std::size_t b = a + 1; b < n(); ++b)
                if (bad(order[a], order[b]))
                    return RingDefect{std::min(order[a], order[b]), std::max(order[a], order[b]),
                                      overlap(order[a], order[b])};
        return std::nullopt;
    }
};

// A ring with no two cyclically consecutive vertices equal (what the checks require).
std::vector<IP> drop_repeats(std::vector<IP> v) {
    std::vector<IP> out;
    for (const IP& p : v)
        if (out.empty() || out.back().x != p.x || out.back().y != p.y) out.push_back(p);
    while (out.size() > 1 && out.front().x == out.back().x && out.front().y == out.back().y) out.pop_back();
    return out;
}

// Random rings of three kinds, all on a small integer grid.
std::vector<IP> random_ring(std::mt19937_64& rng, int kind) {
    auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    std::vector<IP> v;
    if (kind == 0) {  // anything: mostly crossing, full of touching and overlapping edges
        const int n = uni(3, 12);
        const int g = uni(2, 6);
        for (int i = 0; i < n; ++i) v.push_back(IP{uni(0, g), uni(0, g)});
    } else if (kind == 1) {  // around a centre by angle: often simple, sometimes degenerate
        const int n = uni(3, 120);
        const int r = uni(3, 40);
        std::vector<std::pair<double, IP>> by_angle;
        for (int i = 0; i < n; ++i) {
            const IP p{uni(-r, r), uni(-r, r)};
            by_angle.emplace_back(std::atan2(static_cast<double>(p.y) + 0.5, static_cast<double>(p.x) + 0.5), p);
        }
        std::sort(by_angle.begin(), by_angle.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& e : by_angle) v.push_back(e.second);
    } else {  // a comb with teeth of random lengths, one vertex moved at random
        const int teeth = uni(2, 60);
        const int w = uni(4, 12);
        for (int i = 0; i < teeth; ++i) {
            v.push_back(IP{0, 2 * i});
            v.push_back(IP{uni(1, w), 2 * i + uni(0, 1)});
        }
        v.push_back(IP{w, 2 * teeth});
        v.push_back(IP{-1, 2 * teeth});
        if (uni(0, 1) == 1) {
            IP& p = v[static_cast<std::size_t>(uni(0, static_cast<int>(v.size()) - 1))];
            p.x += uni(-3, 3);
            p.y += uni(-2, 2);
        }
    }
    return drop_repeats(v);
}

}  // namespace

TEST_CASE("simple_polygon: messages") {
    SUBCASE("a triangle is returned as given, with repeats and the closing vertex dropped") {
        std::string why;
        const auto ring = simple_polygon(pts({{0, 0}, {4, 0}, {4, 0}, {0, 3}, {0, 0}}), why);
        REQUIRE(ring.has_value());
        CHECK(*ring == pts({{0, 0}, {4, 0}, {0, 3}}));
    }
    SUBCASE("fewer than 3 distinct vertices") {
        CHECK(why_not(pts({{0, 0}, {0, 0}, {1, 1}, {1, 1}, {0, 0}})) ==
              "a polygon needs at least 3 distinct vertices, got 2 after dropping repeated ones");
    }
    SUBCASE("all on one line") {
        CHECK(why_not(pts({{0, 0}, {1, 1}, {2, 2}, {3, 3}})) == "the polygon has zero area: its points lie on one line");
    }
    SUBCASE("edges are named in the input's numbering, repeated points counted") {
        // The bow tie with its vertex 1 written twice: the second edge starts at point 3.
        CHECK(why_not(pts({{0, 0}, {4, 4}, {4, 4}, {4, 0}, {0, 4}})) ==
              "the polygon intersects itself: the edge from point 0 to point 1 and the edge from point 3 to point 4 meet");
    }
}

TEST_CASE("simple_polygon: named degenerate rings through both checks") {
    SUBCASE("a bow tie: one proper crossing") {
        const auto r = pts({{0, 0}, {4, 4}, {4, 0}, {0, 4}});
        both_give(r, RingDefect{0, 2, false});
        CHECK(why_not(r) ==
              "the polygon intersects itself: the edge from point 0 to point 1 and the edge from point 2 to point 3 meet");
    }
    SUBCASE("a spike folding back onto its edge and touching the next one") {
        // Edge 2 runs back down edge 1 (an overlap) and ends at (4, 2), where edge 3 starts on
        // edge 1: edge 3 has the smallest x of the edges through (4, 2), so (1, 3) is named.
        const auto r = pts({{0, 0}, {4, 0}, {4, 4}, {4, 2}, {0, 4}});
        both_give(r, RingDefect{1, 3, false});
        CHECK(why_not(r) ==
              "the polygon intersects itself: the edge from point 1 to point 2 and the edge from point 3 to point 4 meet");
    }
    SUBCASE("a vertex on an edge, reached along it") {
        // Edge 1 folds back along edge 0 to (2, 0) (an overlap) and edge 2 leaves from there:
        // edge 0 comes first by x; of its partners edge 1 (x = 2, index 1) precedes edge 2.
        const auto r = pts({{0, 0}, {4, 0}, {2, 0}, {2, 3}});
        both_give(r, RingDefect{0, 1, true});
        CHECK(why_not(r) ==
              "the polygon intersects itself: the edge from point 0 to point 1 and the edge from point 1 to point 2 overlap");
    }
    SUBCASE("a vertex in the middle of another edge, reached from the side") {
        // A square with a notch from the top whose tip (2, 0) sits on the bottom edge 0:
        // edges 3 and 4 both meet edge 0 there; edge 4 (from (2, 0) to (1, 4)) starts
        // further left, so (0, 4) is named.
        const auto r = pts({{0, 0}, {4, 0}, {4, 4}, {3, 4}, {2, 0}, {1, 4}, {0, 4}});
        both_give(r, RingDefect{0, 4, false});
        CHECK(why_not(r) ==
              "the polygon intersects itself: the edge from point 0 to point 1 and the edge from point 4 to point 5 meet");
    }
    SUBCASE("a pinch: two vertices at one point") {
        const auto r = pts({{0, 0}, {2, 2}, {4, 0}, {4, 4}, {2, 2}, {0, 4}});
        both_give(r, RingDefect{0, 4, false});
        CHECK(why_not(r) ==
              "the polygon intersects itself: the edge from point 0 to point 1 and the edge from point 4 to point 5 meet");
    }
    SUBCASE("an edge running back along an earlier edge, not its neighbour") {
        // Edge 3 comes down onto edge 0 at (2, 0), edge 4 runs along it to (1, 0) (the
        // overlap from x = 1 to 2), edge 5 leaves it downwards. Edges 3, 4 and 5 all touch
        // edge 0; edge 4 comes first by smallest x (1, as edge 5, but a lower index).
        const auto r = pts({{0, 0}, {4, 0}, {4, 2}, {2, 2}, {2, 0}, {1, 0}, {1, -1}});
        both_give(r, RingDefect{0, 4, true});
        CHECK(why_not(r) ==
              "the polygon intersects itself: the edge from point 0 to point 1 and the edge from point 4 to point 5 "
              "overlap");
    }
    SUBCASE("collinear consecutive edges, vertical edges and a tip one subnormal off an edge are fine") {
        const double tiny = std::nextafter(0.0, 1.0);
        auto r = pts({{0, 0}, {1, 0}, {2, 0}, {4, 0}, {4, 2}, {4, 4}, {3, 4}, {2.5, tiny}, {1, 4}, {0, 4}, {0, 2}});
        both_give(r, std::nullopt);
        CHECK(why_not(r).empty());
        // The tip on the bottom edge 2 itself: edges 6 and 7 meet it; edge 7 (from (2.5, 0)
        // to (1, 4)) starts at x = 1, before edge 2 (x = 2), so edge 7 is first; its first
        // partner by smallest x is edge 2.
        r[7].y = 0;
        both_give(r, RingDefect{2, 7, false});
    }
    SUBCASE("neighbouring edges folding back: a subnormal turn is fine, an exact fold overlaps") {
        // Edges 0 and 1 share (4, 0). Turning back to (2, tiny) they meet only there (the
        // quick orientation test of neighbours must not round the turn away); back to (2, 0)
        // edge 1 runs along edge 0 from x = 2 to 4.
        const double tiny = std::nextafter(0.0, 1.0);
        auto r = pts({{0, 0}, {4, 0}, {2, tiny}, {2, 3}});
        both_give(r, std::nullopt);
        r[2].y = 0;
        both_give(r, RingDefect{0, 1, true});
        // Straight on through (4, 0) to (6, 0): collinear neighbours that only touch.
        both_give(pts({{0, 0}, {4, 0}, {6, 0}, {3, 3}}), std::nullopt);
    }
    SUBCASE("a comb: edges spanning the whole width, a tip moved into or onto the next tooth") {
        std::vector<Vec2> r;
        for (int i = 0; i < 200; ++i) {
            r.push_back(Vec2{0, 2.0 * i});
            r.push_back(Vec2{100, 2.0 * i + 1});
        }
        r.push_back(Vec2{100, 400});
        r.push_back(Vec2{-1, 400});
        both_give(r, std::nullopt);
        // Tooth 7's tip pulled in to (90, 17), inside tooth 8: edge 14 crosses edge 16 (at
        // x = 85.7) and nothing else.
        auto crossing = r;
        crossing[15] = Vec2{90, 17};
        both_give(crossing, RingDefect{14, 16, false});
        // Tooth 7's tip onto edge 16 at x = 50: edge 15 runs back from there along edge 16
        // (an overlap from (0, 16) to (50, 16.5)) and edge 14 meets edge 16 at the tip. Two
        // places: the pairwise check names (14, 16), the first by index of the edges that
        // all start at x = 0; the sweep meets the overlap's end (0, 16) first, where only
        // edges 15 and 16 pass. Both are true.
        auto touching = r;
        touching[15] = Vec2{50, 16.5};
        const auto by_pairs = pairwise(touching);
        const auto by_sweep = sweep(touching);
        REQUIRE(by_pairs.has_value());
        REQUIRE(by_sweep.has_value());
        CHECK((by_pairs->first == 14 && by_pairs->second == 16 && !by_pairs->overlap));
        CHECK((by_sweep->first == 15 && by_sweep->second == 16 && by_sweep->overlap));
    }
}

TEST_CASE("simple_polygon: random rings against a brute force") {
    std::mt19937_64 rng(20250611);
    int accepted = 0, rejected = 0, single = 0;
    for (int iter = 0; iter < 6000; ++iter) {
        const int kind = iter % 3;
        Brute b{random_ring(rng, kind)};
        if (b.n() < 3) continue;
        // Exact binary scalings and a big offset keep the integer geometry exactly while
        // making the doubles awkward for a naive float test.
        const double scale = std::ldexp(1.0, static_cast<int>(rng() % 61) - 30);
        const double offset = (rng() & 1) != 0 ? 1048576.0 : 0.0;
        std::vector<Vec2> ring;
        for (const IP& p : b.v)
            ring.push_back(Vec2{static_cast<double>(p.x) * scale + offset, static_cast<double>(p.y) * scale - offset});
        const auto want = b.named();
        const auto by_pairs = pairwise(ring);
        const auto by_sweep = sweep(ring);
        REQUIRE(want.has_value() != b.simple());
        REQUIRE(by_pairs.has_value() == want.has_value());
        REQUIRE(by_sweep.has_value() == want.has_value());
        if (!want) {
            ++accepted;
            continue;
        }
        ++rejected;
        // The pairwise check follows the naming rule exactly.
        CHECK(by_pairs->first == want->first);
        CHECK(by_pairs->second == want->second);
        CHECK(by_pairs->overlap == want->overlap);
        // The sweep names a pair that is truly bad, overlap said right.
        CHECK(by_sweep->first < by_sweep->second);
        CHECK(b.bad(by_sweep->first, by_sweep->second));
        CHECK(by_sweep->overlap == b.overlap(by_sweep->first, by_sweep->second));
        // With a single bad pair, both name it.
        int bad_pairs = 0;
        for (std::size_t i = 0; i < b.n() && bad_pairs < 2; ++i)
            for (std::size_t j = i + 1; j < b.n() && bad_pairs < 2; ++j) bad_pairs += b.bad(i, j) ? 1 : 0;
        if (bad_pairs == 1) {
            ++single;
            CHECK(by_sweep->first == want->first);
            CHECK(by_sweep->second == want->second);
        }
    }
    // Each side is exercised in earnest.
    CHECK(accepted > 800);
    CHECK(rejected > 2000);
    CHECK(single > 100);
}

TEST_CASE("simple_polygon: big rings go to the sweep") {
    SUBCASE("a comb of 10^4 teeth spanning the whole width is simple") {
        std::vector<Vec2> r;
        for (int i = 0; i < 10000; ++i) {
            r.push_back(Vec2{0, 2.0 * i});
            r.push_back(Vec2{1000, 2.0 * i + 1});
        }
        r.push_back(Vec2{1000, 20010});
        r.push_back(Vec2{-10, 20010});
        CHECK(why_not(r).empty());
        // Tooth 9000's tip pulled in to (900, 18003), inside the next tooth: edge 18000 now
        // crosses edge 18002 (at x = 800) and nothing else.
        r[18001] = Vec2{900, 18003};
        CHECK(why_not(r) ==
              "the polygon intersects itself: the edge from point 18000 to point 18001 and the edge from point 18002 "
              "to point 18003 meet");
    }
}
