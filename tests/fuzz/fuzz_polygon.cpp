// Fuzz target: simple_polygon() and its two checks (lib/src/simple_polygon.hpp) on rings
// decoded from the input, against a brute force written here:
//   1. the pairwise check and the Shamos–Hoey sweep accept exactly the rings the brute force
//      finds simple (every pair of edges, exact orientations);
//   2. each names a pair the brute force finds bad (meeting where a simple ring's edges may
//      not), with "overlap" exactly when they share a piece of positive length;
//   3. the pairwise check names the pair of the naming rule (edges by smallest x, ties by
//      index: the first with a bad later partner, and its first such); with a single bad
//      pair, the sweep names it too;
//   4. simple_polygon accepts exactly the simple rings, returns the ring with repeats
//      dropped, and otherwise says what ring_defect says, in the input's numbering.
// Rings are free points on a small grid (so full of collinear edges, repeated vertices and
// vertices on edges), combs of up to 100 teeth (above the sweep threshold and mostly valid)
// with a few vertices moved, or stars; coordinates are then scaled by 2^k or offset, and
// some are exact copies or neighbours of others. A failure prints the ring and traps.
#include "fuzz_common.hpp"

#include "numeric/exact.hpp"
#include "scene/simple_polygon.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <optional>

using namespace collide;
using collide::detail::Exact;
using collide::detail::Ring;
using collide::detail::RingDefect;

namespace {

// ---- decoding -----------------------------------------------------------------------------

class Gen {
public:
    explicit Gen(FuzzedDataProvider& fdp) : f_(fdp) {}

    double coord() {
        double v = 0.0;
        switch (f_.ConsumeIntegralInRange<int>(0, 7)) {
            case 0:
            case 1:
            case 2: v = f_.ConsumeIntegralInRange<int>(-4, 4); break;  // a small grid: degenerate
            case 3: v = seen_.empty() ? 0.0 : pick(seen_); break;
            case 4: {  // a neighbour of a value seen: nearly degenerate
                const double s = seen_.empty() ? 1.0 : pick(seen_);
                v = std::nextafter(s, f_.ConsumeBool() ? 1e308 : -1e308);
                break;
            }
            case 5: v = f_.ConsumeIntegralInRange<int>(-40, 40) / 10.0; break;
            case 6: v = pick(fuzz::interesting_values()); break;
            default: v = (seen_.empty() ? 0.0 : pick(seen_)) + f_.ConsumeIntegralInRange<int>(-2, 2); break;
        }
        if (!std::isfinite(v)) v = 0.0;
        seen_.push_back(v);
        return v;
    }

    std::vector<Vec2> ring() {
        std::vector<Vec2> p;
        switch (f_.ConsumeIntegralInRange<int>(0, 3)) {
            case 0:
            case 1: {  // free points
                p.resize(f_.ConsumeIntegralInRange<std::size_t>(3, 80));
                for (auto& q : p) q = Vec2{coord(), coord()};
                break;
            }
            case 2: {  // a comb: teeth spanning most of the width, a few vertices moved
                const int teeth = f_.ConsumeIntegralInRange<int>(2, 100);
                for (int i = 0; i < teeth; ++i) {
                    p.push_back(Vec2{0, 2.0 * i});
                    p.push_back(Vec2{static_cast<double>(f_.ConsumeIntegralInRange<int>(1, 8)),
                                     2.0 * i + f_.ConsumeIntegralInRange<int>(0, 2)});
                }
                p.push_back(Vec2{8, 2.0 * teeth});
                p.push_back(Vec2{-1, 2.0 * teeth});
                moves(p);
                break;
            }
            default: {  // a star: around the origin by angle, radii from the bytes
                const int n = f_.ConsumeIntegralInRange<int>(3, 120);
                for (int i = 0; i < n; ++i) {
                    const double a = 2 * 3.141592653589793 * i / n;
                    const double r = f_.ConsumeIntegralInRange<int>(1, 8);
                    p.push_back(Vec2{std::round(r * std::cos(a) * 4), std::round(r * std::sin(a) * 4)});
                }
                moves(p);
                break;
            }
        }
        // Exact transforms: a scaling by 2^k, or an offset that keeps small integers exact.
        const int t = f_.ConsumeIntegralInRange<int>(0, 3);
        const double s = std::ldexp(1.0, f_.ConsumeIntegralInRange<int>(-60, 60));
        std::vector<Vec2> moved = p;
        for (auto& q : moved) {
            if (t == 1) q = Vec2{q.x * s, q.y * s};
            if (t == 2) q = Vec2{q.x + 1048576.0, q.y - 1048576.0};
            // Scene files hold finite numbers only (the reader rejects others).
            if (!std::isfinite(q.x) || !std::isfinite(q.y)) return p;
        }
        return moved;
    }

private:
    void moves(std::vector<Vec2>& p) {
        const int k = f_.ConsumeIntegralInRange<int>(0, 3);
        for (int i = 0; i < k; ++i) {
            Vec2& q = p[f_.ConsumeIntegralInRange<std::size_t>(0, p.size() - 1)];
            if (f_.ConsumeBool()) q = p[f_.ConsumeIntegralInRange<std::size_t>(0, p.size() - 1)];  // a copy
            else q = Vec2{q.x + f_.ConsumeIntegralInRange<int>(-3, 3), q.y + f_.ConsumeIntegralInRange<int>(-2, 2)};
        }
    }
    double pick(const std::vector<double>& v) { return v[f_.ConsumeIntegralInRange<std::size_t>(0, v.size() - 1)]; }

    FuzzedDataProvider& f_;
    std::vector<double> seen_;
};

// ---- the brute force ----------------------------------------------------------------------

// Orientation of c against a -> b. Shewchuk's static filter for orient2d (errbound A, valid
// without underflow or overflow, which the magnitude guard keeps away), else Exact.
// Whether u - v, and u * v, were computed without rounding (Knuth's TwoSum; the fma
// residual, trusted only far above the subnormal range).
bool exact_diff(double u, double v, double d) {
    const double bv = d - u;
    return std::isfinite(d) && (u - (d - bv)) + (-v - bv) == 0.0;
}
bool exact_prod(double u, double v, double p) {
    return u == 0.0 || v == 0.0 || (std::isfinite(p) && std::fabs(p) > 0x1p-900 && std::fma(u, v, -p) == 0.0);
}

int orient_ref(Vec2 a, Vec2 b, Vec2 c) {
    const double dx1 = b.x - a.x, dy2 = c.y - a.y, dy1 = b.y - a.y, dx2 = c.x - a.x;
    const double l = dx1 * dy2;
    const double r = dy1 * dx2;
    const double det = l - r;
    // Small integers and the like (the common degenerate case): every step exact.
    if (exact_diff(b.x, a.x, dx1) && exact_diff(c.y, a.y, dy2) && exact_diff(b.y, a.y, dy1) &&
        exact_diff(c.x, a.x, dx2) && exact_prod(dx1, dy2, l) && exact_prod(dy1, dx2, r) && exact_diff(l, r, det))
        return (det > 0) - (det < 0);
    const double sum = std::fabs(l) + std::fabs(r);
    constexpr double kBound = (3.0 + 16.0 * 0x1p-53) * 0x1p-53;
    if (std::isfinite(sum) && sum > 1e-250 && sum < 1e250 && std::fabs(det) > kBound * sum) return det > 0 ? 1 : -1;
    const Exact e = (Exact(b.x) - Exact(a.x)) * (Exact(c.y) - Exact(a.y)) - (Exact(b.y) - Exact(a.y)) * (Exact(c.x) - Exact(a.x));
    return e.sign();
}

bool in_box(Vec2 a, Vec2 b, Vec2 p) {
    return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
           p.y <= std::max(a.y, b.y);
}

struct Brute {
    explicit Brute(const std::vector<Vec2>& ring) : v(ring) {
        for (std::size_t i = 0; i < n(); ++i) {
            lo.push_back(Vec2{std::min(a(i).x, b(i).x), std::min(a(i).y, b(i).y)});
            hi.push_back(Vec2{std::max(a(i).x, b(i).x), std::max(a(i).y, b(i).y)});
        }
    }
    const std::vector<Vec2>& v;
    std::vector<Vec2> lo, hi;  // each edge's bounding box
    std::size_t n() const { return v.size(); }
    Vec2 a(std::size_t i) const { return v[i]; }
    Vec2 b(std::size_t i) const { return v[i + 1 == n() ? 0 : i + 1]; }
    bool consecutive(std::size_t i, std::size_t j) const { return (i + 1) % n() == j || (j + 1) % n() == i; }
    bool boxes_meet(std::size_t i, std::size_t j) const {
        return std::max(lo[i].x, lo[j].x) <= std::min(hi[i].x, hi[j].x) &&
               std::max(lo[i].y, lo[j].y) <= std::min(hi[i].y, hi[j].y);
    }
    // Closed segments share a point: they straddle each other, or an end lies on the other.
    bool meet(std::size_t i, std::size_t j) const {
        if (!boxes_meet(i, j)) return false;
        const int o1 = orient_ref(a(i), b(i), a(j)), o2 = orient_ref(a(i), b(i), b(j));
        const int o3 = orient_ref(a(j), b(j), a(i)), o4 = orient_ref(a(j), b(j), b(i));
        if (o1 * o2 < 0 && o3 * o4 < 0) return true;
        return (o1 == 0 && in_box(a(i), b(i), a(j))) || (o2 == 0 && in_box(a(i), b(i), b(j))) ||
               (o3 == 0 && in_box(a(j), b(j), a(i))) || (o4 == 0 && in_box(a(j), b(j), b(i)));
    }
    // They share a piece of positive length: collinear, extents overlapping by more than a point.
    bool overlap(std::size_t i, std::size_t j) const {
        if (!boxes_meet(i, j)) return false;
        if (orient_ref(a(i), b(i), a(j)) != 0 || orient_ref(a(i), b(i), b(j)) != 0) return false;
        const bool vertical = a(i).x == b(i).x;
        auto key = [&](Vec2 p) { return vertical ? p.y : p.x; };
        return std::max(std::min(key(a(i)), key(b(i))), std::min(key(a(j)), key(b(j)))) <
               std::min(std::max(key(a(i)), key(b(i))), std::max(key(a(j)), key(b(j))));
    }
    bool bad(std::size_t i, std::size_t j) const { return consecutive(i, j) ? overlap(i, j) : meet(i, j); }
};

std::string ring_text(const std::vector<Vec2>& r) { return fuzz::points_text(r); }

std::string defect_text(const std::optional<RingDefect>& d) {
    if (!d) return "simple";
    return "edges " + std::to_string(d->first) + " and " + std::to_string(d->second) + (d->overlap ? " overlap" : " meet");
}

void run(FuzzedDataProvider& fdp) {
    Gen gen(fdp);
    const std::vector<Vec2> input = gen.ring();
    // The ring as simple_polygon sees it, with each vertex's input index.
    std::vector<Vec2> r;
    std::vector<std::size_t> index;
    for (std::size_t i = 0; i < input.size(); ++i) {
        if (!r.empty() && r.back() == input[i]) continue;
        r.push_back(input[i]);
        index.push_back(i);
    }
    while (r.size() > 1 && r.front() == r.back()) {
        r.pop_back();
        index.pop_back();
    }
    std::string why;
    const auto got = simple_polygon(input, why);
    if (r.size() < 3) {
        if (got) fuzz::fail("accepted fewer than 3 distinct vertices: " + ring_text(input));
        return;
    }

    const Brute brute(r);
    const std::size_t n = r.size();
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return brute.lo[x].x < brute.lo[y].x; });
    std::optional<RingDefect> rule;
    int bad_pairs = 0;
    for (std::size_t oi = 0; oi < n; ++oi)
        // Past an edge's right end in this order, no later edge can meet it.
        for (std::size_t oj = oi + 1; oj < n && brute.lo[order[oj]].x <= brute.hi[order[oi]].x; ++oj) {
            const std::size_t i = order[oi], j = order[oj];
            if (!brute.bad(i, j)) continue;
            ++bad_pairs;
            if (!rule) rule = RingDefect{std::min(i, j), std::max(i, j), brute.overlap(i, j)};
        }

    const Ring ring{r.data(), n};
    const auto by_pairs = detail::ring_defect_pairwise(ring);
    const auto by_sweep = detail::ring_defect_sweep(ring);
    auto context = [&] {
        return "ring " + ring_text(r) + "\nbrute force: " + defect_text(rule) + " (" + std::to_string(bad_pairs) +
               " bad pairs)\npairwise: " + defect_text(by_pairs) + "\nsweep: " + defect_text(by_sweep);
    };
    for (const auto* d : {&by_pairs, &by_sweep}) {
        if (d->has_value() != rule.has_value()) fuzz::fail("accept/reject differs from the brute force\n" + context());
        if (!*d) continue;
        const RingDefect& e = **d;
        if (!(e.first < e.second && e.second < n)) fuzz::fail("a pair out of order or range\n" + context());
        if (!brute.bad(e.first, e.second)) fuzz::fail("the pair named is not bad\n" + context());
        if (e.overlap != brute.overlap(e.first, e.second)) fuzz::fail("overlap said wrong\n" + context());
    }
    if (rule && (by_pairs->first != rule->first || by_pairs->second != rule->second))
        fuzz::fail("the pairwise check does not name the rule's pair\n" + context());
    if (bad_pairs == 1 && (by_sweep->first != rule->first || by_sweep->second != rule->second))
        fuzz::fail("the sweep does not name the only bad pair\n" + context());

    // simple_polygon: the ring when simple; else the message of ring_defect (or one line).
    if (!rule) {
        if (!got || *got != r) fuzz::fail("a simple ring not returned as is: " + why + "\n" + context());
        return;
    }
    if (got) fuzz::fail("a ring with a bad pair accepted\n" + context());
    bool on_one_line = true;
    for (std::size_t i = 2; i < n && on_one_line; ++i) on_one_line = orient_ref(r[0], r[1], r[i]) == 0;
    if (on_one_line) {
        if (why != "the polygon has zero area: its points lie on one line") fuzz::fail("message: " + why + "\n" + context());
        return;
    }
    const RingDefect d = n < detail::kSweepFromVertices ? *by_pairs : *by_sweep;
    auto edge = [&](std::size_t e) {
        return "the edge from point " + std::to_string(index[e]) + " to point " + std::to_string(index[(e + 1) % n]);
    };
    const std::string want =
        "the polygon intersects itself: " + edge(d.first) + " and " + edge(d.second) + (d.overlap ? " overlap" : " meet");
    if (why != want) fuzz::fail("message: " + why + "\nwanted: " + want + "\n" + context());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider fdp(data, size);
    run(fdp);
    return 0;
}
