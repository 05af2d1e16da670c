// Moves against what a selector selects (moves_against.hpp): the broad phase and the choice
// of the first hit; the sweep of one body past one obstacle is sweep.cpp's.
#include "check/moves_against.hpp"

#include "check/scene_indexes.hpp"
#include "geometry/edge_index.hpp"
#include "queries/sweep.hpp"
#include "support/in_parts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace collide::detail {

namespace {

// Moves of at least this many run on two threads when allowed.
constexpr std::size_t kTwoThreadMoves = 4096;

bool selects(const std::string& selector, const std::string& id, const Groups& groups) {
    return selector == "*" || id == selector || std::find(groups.begin(), groups.end(), selector) != groups.end();
}

// The obstacles of one selector and the moves against them.
struct Obstacles {
    std::vector<std::uint32_t> shapes;  // scene indices, ascending
    std::vector<std::uint32_t> grids;   // grid indices, ascending
    std::vector<std::size_t> moves;     // scene move indices, ascending
};

// One axis of a slab test (Liang and Barsky, below): narrows [t0, t1] to the times at which
// p + t dv lies in [lo, hi]; false when none does. A zero or overflowed dv, or NaN from
// infinite bounds, keeps the range (never misses what might be reached).
bool clip_axis(double p, double dv, double lo, double hi, double& t0, double& t1) {
    if (dv == 0.0 || !std::isfinite(dv)) return dv != 0.0 || (p >= lo && p <= hi);  // (an overflowed d: keep)
    double a = (lo - p) / dv, c = (hi - p) / dv;
    if (a > c) std::swap(a, c);
    if (!(a <= c)) return true;  // NaN from infinite bounds: keep
    t0 = std::max(t0, a);
    t1 = std::min(t1, c);
    return t0 <= t1;
}

// Whether the body, along the path (or at `to` for check: destination), may reach the
// closed bounds b: a slab test (Liang and Barsky, "A new concept and method for line
// clipping", ACM TOG 3(1), 1984) of the centre's path against b grown by the body's half
// extent and by a margin far above the rounding of the test. A swept box holds many shapes a
// diagonal path passes far from; this leaves them out before the exact sweep. Otherwise it
// gives a time no later than the body's first contact with anything inside b: when the body
// is blocked early, the shapes it would reach only later need no sweep.
std::optional<double> may_reach(const Move& m, const Bounds& b) {
    const double hx = m.body.kind == Body::Kind::Circle ? m.body.radius : m.body.size.x / 2;
    const double hy = m.body.kind == Body::Kind::Circle ? m.body.radius : m.body.size.y / 2;
    double t0 = 0.0, t1 = 1.0;
    const Vec2 from = m.check_path ? m.from : m.to;
    const Vec2 d = m.check_path ? Vec2{m.to.x - m.from.x, m.to.y - m.from.y} : Vec2{};
    auto axis = [&](double f, double dv, double lo, double hi, double h) {
        const double pad = h + 0x1p-40 * (std::fabs(f) + std::fabs(dv) + std::fabs(lo) + std::fabs(hi) + h) + 0x1p-1000;
        return clip_axis(f, dv, lo - pad, hi + pad, t0, t1);
    };
    if (!axis(from.x, d.x, b.min.x, b.max.x, hx) || !axis(from.y, d.y, b.min.y, b.max.y, hy)) return std::nullopt;
    return m.check_path ? t0 : 1.0;
}

// A shape a move may reach, with a time no later than its first contact (may_reach).
struct Candidate {
    double earliest;
    std::uint32_t shape;  // scene index
};

// The first obstacle a move hits so far: candidates are offered in batches (the obstacles of
// one step of the path at a time), each taken by its earliest possible contact; once that is
// past the best time found, the rest of the batch cannot come first.
struct FirstHit {
    std::optional<SweepTime> best;
    std::size_t hit = 0;

    const SceneIndexes* edges = nullptr;

    // Whether a shape the body cannot meet before `earliest` may still come first: a time
    // past the best one's upper bound cannot, nor one at it with a higher index (a tie it
    // would lose). The best only ever gets earlier, so what this refuses stays refused.
    bool may_beat(double earliest, std::uint32_t shape) const {
        return !best || earliest < best->hi || (earliest <= best->hi && shape < hit);
    }

    // Sweeps the body past one shape and keeps it if it comes first.
    void consider(const Scene& scene, const Move& m, std::uint32_t shape) {
        const auto t = first_contact(m, scene.shapes[shape].shape, edges ? edges->prepared(shape) : Prepared{});
        if (!t) return;
        const int order = best ? compare(*t, *best) : -1;
        if (order < 0 || (order == 0 && shape < hit)) {  // ties: the lower index
            best = *t;
            hit = shape;
        }
    }

    void offer(const Scene& scene, const Move& m, std::vector<Candidate>& batch) {
        std::sort(batch.begin(), batch.end(), [](const Candidate& x, const Candidate& y) {
            return x.earliest < y.earliest || (x.earliest == y.earliest && x.shape < y.shape);
        });
        for (const Candidate& c : batch) {
            if (!may_beat(c.earliest, c.shape)) break;  // (nor can the rest, in this order)
            consider(scene, m, c.shape);
        }
        batch.clear();
    }

    // The result, once the grids (after every shape, in index order) are taken too.
    MoveResult finish(const Scene& scene, const Move& m, const std::vector<std::uint32_t>& grids) {
        Cell cell;
        for (const std::uint32_t g : grids) {
            const auto t = first_contact(m, scene.grids[g]);
            if (t && (!best || compare(t->first, *best) < 0)) {
                best = t->first;
                hit = scene.shapes.size() + g;
                cell = t->second;
            }
        }
        if (!best) return MoveResult{};
        MoveResult r = blocked_at(m, *best);
        r.hit = hit;
        r.cell = cell;
        return r;
    }
};

// The typical extent of the obstacles: the median of their larger sides (a sample).
double typical_size(const std::vector<Bounds>& bounds) {
    std::vector<double> sizes;
    for (std::size_t k = 0; k < bounds.size(); k += std::max<std::size_t>(1, bounds.size() / 1024)) {
        const double w = std::max(bounds[k].max.x - bounds[k].min.x, bounds[k].max.y - bounds[k].min.y);
        if (std::isfinite(w)) sizes.push_back(w);
    }
    if (sizes.empty()) return 0.0;
    std::nth_element(sizes.begin(), sizes.begin() + sizes.size() / 2, sizes.end());
    return sizes[sizes.size() / 2];
}

// The obstacles of a selector in a uniform grid of square cells about twice their typical
// size, hashed into buckets (a counting sort, so empty space costs nothing); obstacles
// spanning more than kMaxSpan cells a side (or unbounded) are kept apart and offered to
// every move. A move walks its path in steps of one cell and gathers the obstacles of the
// cells each step's bounds cover: the cells along the path, not those of its whole box. A
// step wider than kMaxSpan cells (a huge body, or a path of more steps than obstacles) is
// left to the caller (ObstacleTree).
class PathGrid {
public:
    static constexpr std::int64_t kMaxSpan = 8;

    explicit PathGrid(const std::vector<Bounds>& bounds) {
        const double typical = typical_size(bounds);
        for (const Bounds& b : bounds) {
            if (std::isfinite(b.min.x) && std::isfinite(b.min.y)) {
                origin_ = b.min;
                break;
            }
        }
        cell_ = typical > 0 ? 2 * typical : 1.0;
        std::vector<std::pair<std::uint32_t, Range>> spans;
        spans.reserve(bounds.size());
        std::size_t entries = 0;
        for (std::size_t i = 0; i < bounds.size(); ++i) {
            const Range r = range_of(bounds[i]);
            if (!r.small) {
                big_.push_back(static_cast<std::uint32_t>(i));
                continue;
            }
            spans.emplace_back(static_cast<std::uint32_t>(i), r);
            entries += static_cast<std::size_t>((r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1));
        }
        std::size_t buckets = 1;
        while (buckets < entries) buckets *= 2;
        mask_ = buckets - 1;
        start_.assign(buckets + 1, 0);
        for (const auto& [i, r] : spans)
            for (std::int64_t y = r.y0; y <= r.y1; ++y)
                for (std::int64_t x = r.x0; x <= r.x1; ++x) ++start_[bucket(x, y) + 1];
        for (std::size_t b = 0; b < buckets; ++b) start_[b + 1] += start_[b];
        entries_.resize(entries);
        std::vector<std::uint32_t> fill(start_.begin(), start_.end() - 1);
        for (const auto& [i, r] : spans)
            for (std::int64_t y = r.y0; y <= r.y1; ++y)
                for (std::int64_t x = r.x0; x <= r.x1; ++x)
                    entries_[fill[bucket(x, y)]++] = Entry{i, static_cast<std::int32_t>(x), static_cast<std::int32_t>(y),
                                                           loose(bounds[i])};
    }

    // Calls take(i) for each obstacle i whose bounds the body may reach along the path (the
    // big ones all, a few more than once), step by step along it; after each step, done(t)
    // says whether to stop, t being a time before which every obstacle the body meets has
    // been taken (the body at times up to t lies in the steps' boxes walked so far). At a
    // step wider than kMaxSpan cells it calls wide() and stops: the caller finds the rest.
    template <class F, class Done, class Wide>
    void each_near(const Move& m, F&& take, Done&& done, Wide&& wide) const {
        for (const std::uint32_t i : big_) take(i);
        const double hx = m.body.kind == Body::Kind::Circle ? m.body.radius : m.body.size.x / 2;
        const double hy = m.body.kind == Body::Kind::Circle ? m.body.radius : m.body.size.y / 2;
        const Vec2 from = m.check_path ? m.from : m.to;
        const Vec2 d = m.check_path ? Vec2{m.to.x - m.from.x, m.to.y - m.from.y} : Vec2{};
        // Margins far above the rounding of positions along the path (of the order of an ulp
        // of its largest coordinate).
        const double mx = hx + 0x1p-40 * (std::fabs(from.x) + std::fabs(d.x) + std::fabs(origin_.x) + hx) + 0x1p-1000;
        const double my = hy + 0x1p-40 * (std::fabs(from.y) + std::fabs(d.y) + std::fabs(origin_.y) + hy) + 0x1p-1000;
        // The centre's path relative to the origin, against an entry's loose box grown by the
        // body and the margin: a slab test that misses nothing the body may reach.
        const Vec2 f{from.x - origin_.x, from.y - origin_.y};
        auto reaches = [&](const Loose& b) {
            double t0 = 0.0, t1 = 1.0;
            return clip_axis(f.x, d.x, double{b.x0} - mx, double{b.x1} + mx, t0, t1) &&
                   clip_axis(f.y, d.y, double{b.y0} - my, double{b.y1} + my, t0, t1);
        };
        const double len = std::max(std::fabs(d.x), std::fabs(d.y));
        const double steps = std::ceil(len / cell_);
        // A path of more steps than obstacles (or an overflowed one) is looked up as its box.
        const std::size_t n = std::isfinite(steps) && steps <= static_cast<double>(entries_.size() + 1)
                                  ? std::max<std::size_t>(1, static_cast<std::size_t>(steps)) : 1;
        auto at = [&](std::size_t k) {
            if (k == 0) return from;
            if (k == n) return m.check_path ? m.to : from;
            const double u = static_cast<double>(k) / static_cast<double>(n);
            return Vec2{from.x + u * d.x, from.y + u * d.y};
        };
        // Step k covers the path from fraction k / n to (k + 1) / n, its bounds grown by the
        // body and the margin; the cells of the previous step were scanned already (an entry
        // is tested against the whole path, not the step).
        Range prev;
        for (std::size_t k = 0; k < n; ++k) {
            const Vec2 a = at(k), b = at(k + 1);
            const Range r = range_of(Bounds{Vec2{std::min(a.x, b.x) - mx, std::min(a.y, b.y) - my},
                                            Vec2{std::max(a.x, b.x) + mx, std::max(a.y, b.y) + my}});
            if (!r.small) {  // its cells might be all there are: gathering them would be n a move
                wide();
                return;
            }
            for (std::int64_t y = r.y0; y <= r.y1; ++y)
                for (std::int64_t x = r.x0; x <= r.x1; ++x) {
                    if (prev.small && x >= prev.x0 && x <= prev.x1 && y >= prev.y0 && y <= prev.y1) continue;
                    const std::size_t b0 = bucket(x, y);
                    for (std::uint32_t i = start_[b0]; i < start_[b0 + 1]; ++i) {
                        const Entry& e = entries_[i];
                        if (e.x == x && e.y == y && reaches(e.box)) take(e.item);
                    }
                }
            prev = r;
            // The body at times up to (k + 1) / n lies in the boxes of steps 0..k (grown by far
            // more than the rounding of the positions): what it meets before was taken.
            if (k + 1 < n && done(static_cast<double>(k + 1) / static_cast<double>(n))) return;
        }
    }

private:
    struct Range {
        std::int64_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
        bool small = false;  // finite and at most kMaxSpan cells a side
    };
    // Bounds relative to the origin in floats, rounded outward: a test of the cells' entries
    // that needs no look at the obstacle itself (elsewhere in memory), and passes every
    // obstacle whose exact bounds the path meets.
    struct Loose {
        float x0, y0, x1, y1;
    };
    struct Entry {
        std::uint32_t item;
        std::int32_t x, y;
        Loose box;
    };

    // v - o rounded down (up) to a float, whatever their magnitudes: v - o in doubles is off
    // by at most half an ulp, so the next double down (up) is beyond the exact difference; a
    // value past the float range becomes the largest float or an infinity on the safe side.
    static float down(double v, double o) {
        const double r = std::nextafter(v - o, -HUGE_VAL);
        constexpr double kMax = std::numeric_limits<float>::max();
        if (!(r > -kMax)) return -std::numeric_limits<float>::infinity();  // (NaN too)
        if (r >= kMax) return std::numeric_limits<float>::max();
        float f = static_cast<float>(r);
        if (static_cast<double>(f) > r) f = std::nextafter(f, -HUGE_VALF);
        return f;
    }
    static float up(double v, double o) { return -down(-v, -o); }

    Loose loose(const Bounds& b) const {
        return Loose{down(b.min.x, origin_.x), down(b.min.y, origin_.y), up(b.max.x, origin_.x), up(b.max.y, origin_.y)};
    }

    Range range_of(const Bounds& b) const {
        Range r;
        const double x0 = std::floor((b.min.x - origin_.x) / cell_), x1 = std::floor((b.max.x - origin_.x) / cell_);
        const double y0 = std::floor((b.min.y - origin_.y) / cell_), y1 = std::floor((b.max.y - origin_.y) / cell_);
        constexpr double kLimit = 1e9;  // cell indices stay in 32 bits
        if (!(x1 - x0 < kMaxSpan && y1 - y0 < kMaxSpan && std::fabs(x0) < kLimit && std::fabs(x1) < kLimit &&
              std::fabs(y0) < kLimit && std::fabs(y1) < kLimit))
            return r;
        r = Range{static_cast<std::int64_t>(x0), static_cast<std::int64_t>(y0), static_cast<std::int64_t>(x1),
                  static_cast<std::int64_t>(y1), true};
        return r;
    }
    std::size_t bucket(std::int64_t x, std::int64_t y) const {
        const auto h = static_cast<std::uint64_t>(x) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(y) * 0xC2B2AE3D27D4EB4Full;
        return static_cast<std::size_t>(h >> 20) & mask_;
    }

    Vec2 origin_;
    double cell_ = 1.0;
    std::vector<std::uint32_t> big_;
    std::size_t mask_ = 0;
    std::vector<std::uint32_t> start_;
    std::vector<Entry> entries_;
};

// A node of an ObstacleTree still to open: the earliest time the body may reach it, and the
// lowest obstacle index below it.
struct OpenNode {
    double earliest;
    std::uint32_t first;
    std::uint32_t node;
};

// The obstacles of a selector with finite bounds in a bounding-volume tree (median splits of
// their centres on the wider axis, at most kLeaf a leaf), each node holding the union of its
// obstacles' bounds and the lowest obstacle index below it. For the steps PathGrid leaves to
// its caller: searched best-first by the earliest time the body may reach a node (a lower
// bound for everything inside it: earliest_reach), then by that index, it opens only the
// nodes that may still hold the first hit (FirstHit::may_beat). A body over the whole field
// at its start is blocked at t = 0 by the lowest obstacle it overlaps, found through O(log n)
// nodes; one that passes the field by opens the root alone; one that comes at it opens the
// nodes its rim may reach before the first hit.
class ObstacleTree {
public:
    static constexpr std::uint32_t kLeaf = 8;

    explicit ObstacleTree(const std::vector<Bounds>& bounds) {
        for (std::size_t i = 0; i < bounds.size(); ++i)
            if (std::isfinite(bounds[i].min.x) && std::isfinite(bounds[i].min.y) && std::isfinite(bounds[i].max.x) &&
                std::isfinite(bounds[i].max.y))
                items_.push_back(static_cast<std::uint32_t>(i));
        nodes_.reserve(2 * (items_.size() / kLeaf + 1));
        if (!items_.empty()) build(bounds, 0, static_cast<std::uint32_t>(items_.size()));
    }

    // Calls take(i) for the obstacles of each leaf opened, leaves in the order above; a node
    // is opened when may_beat(earliest, lowest index) holds, asked anew as it comes up (the
    // answer only turns to no as take finds hits), earliest being reach(node bounds, lowest
    // index): a time no later than the body's first contact with anything inside, or nothing
    // if it has none (or cannot beat). `open` is the caller's scratch.
    template <class Reach, class Beat, class Take>
    void search(std::vector<OpenNode>& open, Reach&& reach, Beat&& may_beat, Take&& take) const {
        const auto later = [](const OpenNode& a, const OpenNode& b) {
            return a.earliest > b.earliest || (a.earliest == b.earliest && a.first > b.first);
        };
        const auto push = [&](std::uint32_t k) {
            const auto t = reach(nodes_[k].box, nodes_[k].first);
            if (!t) return;
            open.push_back(OpenNode{*t, nodes_[k].first, k});
            std::push_heap(open.begin(), open.end(), later);
        };
        open.clear();
        if (!nodes_.empty()) push(0);
        while (!open.empty()) {
            std::pop_heap(open.begin(), open.end(), later);
            const OpenNode top = open.back();
            open.pop_back();
            if (!may_beat(top.earliest, top.first)) continue;
            const Node& n = nodes_[top.node];
            if (n.left == 0) {
                for (std::uint32_t k = n.begin; k < n.end; ++k) take(items_[k]);
                continue;
            }
            push(n.left);
            push(n.right);
        }
    }

private:
    struct Node {
        Bounds box;
        std::uint32_t first;       // the lowest obstacle index below
        std::uint32_t begin, end;  // its obstacles, items_[begin, end)
        std::uint32_t left = 0, right = 0;  // children (0 for a leaf: the root is no child)
    };

    // The node of items_[begin, end) and those below it; returns its index.
    std::uint32_t build(const std::vector<Bounds>& bounds, std::uint32_t begin, std::uint32_t end) {
        Node n;
        n.box = bounds[items_[begin]];
        n.first = items_[begin];
        n.begin = begin;
        n.end = end;
        for (std::uint32_t k = begin + 1; k < end; ++k) {
            const Bounds& b = bounds[items_[k]];
            n.box = Bounds{Vec2{std::min(n.box.min.x, b.min.x), std::min(n.box.min.y, b.min.y)},
                           Vec2{std::max(n.box.max.x, b.max.x), std::max(n.box.max.y, b.max.y)}};
            n.first = std::min(n.first, items_[k]);
        }
        const auto k = static_cast<std::uint32_t>(nodes_.size());
        nodes_.push_back(n);
        if (end - begin <= kLeaf) {  // in index order: after a hit at t = 0, the rest are refused unswept
            std::sort(items_.begin() + begin, items_.begin() + end);
            return k;
        }
        // Halves across the wider side of the box: centres (halved first: no overflow) about the median.
        const bool by_x = n.box.max.x / 2 - n.box.min.x / 2 >= n.box.max.y / 2 - n.box.min.y / 2;
        const auto centre = [&](std::uint32_t i) {
            const Bounds& b = bounds[i];
            return by_x ? b.min.x / 2 + b.max.x / 2 : b.min.y / 2 + b.max.y / 2;
        };
        const std::uint32_t mid = begin + (end - begin) / 2;
        std::nth_element(items_.begin() + begin, items_.begin() + mid, items_.begin() + end,
                         [&](std::uint32_t a, std::uint32_t b) { return centre(a) < centre(b); });
        const std::uint32_t left = build(bounds, begin, mid);
        const std::uint32_t right = build(bounds, mid, end);
        nodes_[k].left = left;
        nodes_[k].right = right;
        return k;
    }

    std::vector<std::uint32_t> items_;  // obstacle indices, grouped by node
    std::vector<Node> nodes_;           // the root first
};

// For a circle body along a path: a time no later than its first contact with anything in the
// closed bounds b, or nothing if it has none. In the frame of the path (s along it from
// `from`, v across), the disk of radius R centred at s reaches a point (a, v) only once
// s > a - sqrt(R^2 - v^2); b lies at a >= a0 and |v| >= its gap to the path. Every length is
// off by far less than the margin mu (of the order of 2^-30 of the largest magnitude).
std::optional<double> circle_reach(const Move& m, const Bounds& b) {
    const Vec2 d{m.to.x - m.from.x, m.to.y - m.from.y};
    const double len = std::hypot(d.x, d.y);
    if (!m.check_path || !(len > 0) || !std::isfinite(len)) return 0.0;  // no better bound
    const double ux = d.x / len, uy = d.y / len;
    double a0 = HUGE_VAL, v0 = HUGE_VAL, v1 = -HUGE_VAL;
    for (const double x : {b.min.x, b.max.x})
        for (const double y : {b.min.y, b.max.y}) {
            const double rx = x - m.from.x, ry = y - m.from.y;
            a0 = std::min(a0, rx * ux + ry * uy);
            v0 = std::min(v0, ry * ux - rx * uy);
            v1 = std::max(v1, ry * ux - rx * uy);
        }
    const double r = m.body.radius;
    const double mu = 0x1p-30 * (std::fabs(m.from.x) + std::fabs(m.from.y) + std::fabs(b.min.x) + std::fabs(b.min.y) +
                                 std::fabs(b.max.x) + std::fabs(b.max.y) + r) + 0x1p-1000;
    const double gap = std::max(0.0, (v0 > 0 ? v0 : v1 < 0 ? -v1 : 0.0) - mu);
    const double rr = r + mu;
    if (!(gap < rr)) return gap >= rr ? std::nullopt : std::optional<double>(0.0);  // (NaN: no bound)
    const double s = a0 - std::sqrt((rr - gap) * (rr + gap)) - 2 * mu;
    if (!(s > 0)) return 0.0;
    const double t = s / len * (1 - 0x1p-30);
    if (t > 1) return std::nullopt;  // past the end of the path
    return t;
}

// A time no later than the body's first contact with anything in the closed bounds b, or
// nothing if it has none or none that may beat the first hit so far (`lowest` being the
// lowest index inside b): may_reach, raised for a circle by circle_reach (may_reach's box
// around a huge disk sweeps a whole field long before the disk's rim does).
std::optional<double> earliest_reach(const Move& m, const Bounds& b, const FirstHit& first, std::uint32_t lowest) {
    const auto t = may_reach(m, b);
    if (!t || !first.may_beat(*t, lowest)) return std::nullopt;
    if (m.body.kind != Body::Kind::Circle) return t;
    const auto c = circle_reach(m, b);
    if (!c || !first.may_beat(std::max(*t, *c), lowest)) return std::nullopt;
    return std::max(*t, *c);
}

void run_selector(const Scene& scene, const Obstacles& o, std::vector<MoveResult>& results, unsigned threads,
                  const SceneIndexes* edges) {
    const std::size_t ns = o.shapes.size();
    std::vector<Bounds> bounds(ns);
    for (std::size_t k = 0; k < ns; ++k) bounds[k] = bounds_of(scene.shapes[o.shapes[k]].shape);
    const PathGrid grid(bounds);
    std::optional<ObstacleTree> tree;  // built by the first move that needs it
    std::once_flag tree_built;
    const unsigned parts = threads > 1 && o.moves.size() >= kTwoThreadMoves ? 2 : 1;
    in_parts(parts, [&](unsigned part) {
        std::vector<Candidate> near;
        std::vector<OpenNode> open;
        std::vector<std::uint32_t> seen(ns, 0);  // the last move (+ 1) that met each obstacle
        const std::size_t to = o.moves.size() * (part + 1) / parts;
        for (std::size_t p = o.moves.size() * part / parts; p < to; ++p) {
            const std::size_t k = o.moves[p];
            const Move& m = scene.moves[k];
            const auto tag = static_cast<std::uint32_t>(p + 1);
            near.clear();
            FirstHit first;
            first.edges = edges;
            // The cost follows the distance to the first hit, not the path's length: the
            // steps past a hit found earlier than they begin are never walked.
            grid.each_near(
                m,
                [&](std::uint32_t e) {
                    if (seen[e] == tag) return;
                    seen[e] = tag;
                    if (const auto t = may_reach(m, bounds[e])) near.push_back(Candidate{*t, o.shapes[e]});
                },
                [&](double t) {
                    first.offer(scene, m, near);
                    return first.best && first.best->hi < t * (1.0 - 0x1p-30);
                },
                [&] {  // a huge body: the cost follows the nodes that may still hold the first hit
                    first.offer(scene, m, near);
                    std::call_once(tree_built, [&] { tree.emplace(bounds); });
                    tree->search(
                        open, [&](const Bounds& b, std::uint32_t e) { return earliest_reach(m, b, first, o.shapes[e]); },
                        [&](double t, std::uint32_t e) { return first.may_beat(t, o.shapes[e]); },
                        [&](std::uint32_t e) {
                            if (seen[e] == tag) return;
                            seen[e] = tag;
                            if (earliest_reach(m, bounds[e], first, o.shapes[e])) first.consider(scene, m, o.shapes[e]);
                        });
                });
            first.offer(scene, m, near);
            results[k] = first.finish(scene, m, o.grids);
        }
    });
}

}  // namespace

void run_moves_against(const Scene& scene, std::vector<MoveResult>& results, std::vector<std::string>& empty,
                       unsigned threads, const SceneIndexes* edges) {
    // Each distinct selector once, in first-use order.
    std::vector<std::string> order;
    std::unordered_map<std::string, Obstacles> by_selector;
    for (std::size_t k = 0; k < scene.moves.size(); ++k) {
        const Move& m = scene.moves[k];
        if (!m.against) continue;
        const auto [it, fresh] = by_selector.try_emplace(*m.against);
        if (fresh) order.push_back(*m.against);
        it->second.moves.push_back(k);
    }
    for (const std::string& sel : order) {
        Obstacles& o = by_selector[sel];
        for (std::size_t i = 0; i < scene.shapes.size(); ++i)
            if (selects(sel, scene.shapes[i].id, scene.shapes[i].groups)) o.shapes.push_back(static_cast<std::uint32_t>(i));
        for (std::size_t g = 0; g < scene.grids.size(); ++g)
            if (selects(sel, scene.grids[g].id, scene.grids[g].groups)) o.grids.push_back(static_cast<std::uint32_t>(g));
        if (o.shapes.empty() && o.grids.empty()) {
            if (std::find(empty.begin(), empty.end(), sel) == empty.end()) empty.push_back(sel);
            for (const std::size_t k : o.moves) results[k] = MoveResult{};  // nothing to hit: allowed
            continue;
        }
        run_selector(scene, o, results, threads, edges);
    }
}

}  // namespace collide::detail
