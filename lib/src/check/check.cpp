// A scene check: which pairs are asked for (report specs and rule specs), which of them
// the broad phase lets through, the exact test of each, then the rules and the moves. The
// parts: SceneCandidates (the broad phase), PairBuffer (the candidates in report order),
// PairTester here (the exact test of a pair, the near pairs and clearances), RuleTally
// (the rules), CollisionFeed (what reaches the caller), run_in_order (the blocks on the
// workers, consumed in order).
#include "collide/check.hpp"

#include "check/block_out.hpp"
#include "check/collision_feed.hpp"
#include "check/moves_against.hpp"
#include "check/pair_buffer.hpp"
#include "check/rule_tally.hpp"
#include "check/scene_candidates.hpp"
#include "check/scene_indexes.hpp"
#include "geometry/edge_index.hpp"
#include "geometry/scratch.hpp"
#include "grids/grid_ops.hpp"
#include "grids/solid_cells.hpp"
#include "queries/collide_into.hpp"
#include "queries/distance.hpp"
#include "scene/selection.hpp"
#include "support/ordered_blocks.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>

namespace collide {

const std::string& object_id(const Scene& scene, std::size_t i) {
    return i < scene.shapes.size() ? scene.shapes[i].id : scene.grids[i - scene.shapes.size()].id;
}

SceneResult check(const Scene& scene, const CheckOptions& options) {
    std::vector<Collision> collisions;
    SceneResult res = check(scene, options, [&](Collision&& c) { collisions.push_back(std::move(c)); });
    res.collisions = std::move(collisions);
    return res;
}

namespace {

using detail::BlockOut;

// A block hands what it found over in chunks of this many records and rule hits (one shape
// may have millions of partners).
constexpr std::size_t kChunk = 4096;

const std::vector<PairSpec>& specs_of(const Scene& scene, const CheckOptions& options) {
    static const std::vector<PairSpec> everything{PairSpec{"*", "*"}};
    const std::vector<PairSpec>& specs = options.pairs ? *options.pairs : (scene.pairs.empty() && !scene.pairs_given ? everything : scene.pairs);
    for (const PairSpec& s : specs)
        if (s.left.empty() || s.right.empty())
            throw Error("", "", "pair spec '" + s.left + ":" + s.right + "' is not of the form A:B (selectors: a group, an id or *)");
    return specs;
}

// The exact test of a candidate pair, with what else a pair may find: the rules it counts
// for, its separation, and when it does not collide, a near record or a clearance's hit.
// What one worker thread reuses from pair to pair (Box2D's task context), made once per
// worker by run_in_order: the pair tests' buffers and the check's own.
struct Worker {
    detail::Scratch scratch;
    std::vector<std::uint32_t> partners;  // the candidate partners of the shape at hand
    std::vector<std::uint32_t> one;       // SceneCandidates::partners: one entry's partners
    std::vector<std::uint32_t> parts_b;   // test_shapes: b's colliding parts, placed after a's
};

class PairTester {
public:
    PairTester(const Scene& scene, const CheckOptions& options, const detail::Selections& sel,
               const detail::SceneCandidates& candidates, const detail::SceneIndexes& edges)
        : scene_(scene), options_(options), ns_(scene.shapes.size()), sel_(sel), candidates_(candidates), edges_(edges) {
        // Distances to grids (--near, clearance) visit their solid cells alone.
        if (candidates_.reach() > 0)
            for (const Grid& g : scene.grids) solid_cells_.push_back(std::make_unique<detail::SolidCells>(g));
    }

    void test_pair(std::size_t a, std::size_t b, bool reported, Worker& w, BlockOut& out) const;

private:
    void test_apart(std::size_t a, std::size_t b, bool reported, Worker& w, BlockOut& out) const;
    int compare_distance(std::size_t a, std::size_t b, double d, Worker& w) const;
    const detail::SolidCells* solid_cells(std::size_t grid) const {
        return grid < solid_cells_.size() ? solid_cells_[grid].get() : nullptr;
    }
    double distance(std::size_t a, std::size_t b, Worker& w) const;
    bool test_shapes(std::size_t a, std::size_t b, bool reported, Worker& w, BlockOut& out, BlockOut::Record& c) const;
    bool test_grid(std::size_t a, std::size_t b, bool reported, BlockOut& out, BlockOut::Record& c) const;

    const Scene& scene_;
    const CheckOptions& options_;
    const std::size_t ns_;
    const detail::Selections& sel_;
    const detail::SceneCandidates& candidates_;
    const detail::SceneIndexes& edges_;  // big polygons' and polylines' edges, compounds' parts
    std::vector<std::unique_ptr<detail::SolidCells>> solid_cells_;  // per grid, when distances are asked
};

// The exact test of one pair, into `out`; a pair only rules ask about counts for them but is
// not reported.
void PairTester::test_pair(std::size_t a, std::size_t b, bool reported, Worker& w, BlockOut& out) const {
    BlockOut::Record c{a, b, 0, 0, Relation::Overlap, false};
    c.parts_first = static_cast<std::uint32_t>(out.parts.size());
    if (!(b < ns_ ? test_shapes(a, b, reported, w, out, c) : test_grid(a, b, reported, out, c))) {
        if (candidates_.reach() > 0 || options_.near) test_apart(a, b, reported, w, out);
        return;
    }
    if (!reported) out.parts.resize(c.parts_first);
    // A clearance rule counts every pair closer than its clearance: one that only touches
    // too (at distance 0), whatever `touching` or --no-touch say.
    const bool touch = c.relation == Relation::Touch;
    sel_.for_each_rule(a, b, [&](std::size_t k) {
        const Rule& rule = scene_.rules[k];
        if (touch && (rule.ignore_touching || options_.no_touch) && !rule.clearance) return;
        const auto ab = reported ? std::make_pair(a, b) : sel_.rule_oriented(k, a, b);
        out.hits.push_back(BlockOut::RuleHit{static_cast<std::uint32_t>(k), ab.first, ab.second, 0.0});
    });
    if (touch && options_.no_touch) {
        if (b < ns_) out.points.resize(c.first);
        out.parts.resize(c.parts_first);
        return;
    }
    if (reported && options_.separation && b < ns_) {
        if (const auto sep = separation(scene_.shapes[a].shape, scene_.shapes[b].shape)) {
            c.separation = static_cast<std::uint32_t>(out.separations.size());
            out.separations.push_back(*sep);
        }
    }
    if (reported) out.records.push_back(c);
}

// A pair that does not collide: a near record when it lies within --near, a hit of each
// clearance rule it is closer than.
void PairTester::test_apart(std::size_t a, std::size_t b, bool reported, Worker& w, BlockOut& out) const {
    std::optional<double> dist;  // computed once, when some record needs it
    auto value = [&] {
        if (!dist) dist = distance(a, b, w);
        return *dist;
    };
    if (reported && options_.near && compare_distance(a, b, *options_.near, w) <= 0)
        out.near.push_back(NearPair{a, b, value()});
    sel_.for_each_rule(a, b, [&](std::size_t k) {
        const Rule& rule = scene_.rules[k];
        if (!rule.clearance || compare_distance(a, b, *rule.clearance, w) >= 0) return;
        const auto ab = reported ? std::make_pair(a, b) : sel_.rule_oriented(k, a, b);
        out.hits.push_back(BlockOut::RuleHit{static_cast<std::uint32_t>(k), ab.first, ab.second, value()});
    });
}

int PairTester::compare_distance(std::size_t a, std::size_t b, double d, Worker& w) const {
    const Shape& s = scene_.shapes[a].shape;
    return b < ns_ ? detail::compare_distance(s, scene_.shapes[b].shape, d, edges_.prepared(a), edges_.prepared(b),
                                              w.scratch)
                   : detail::compare_distance(s, scene_.grids[b - ns_], d, solid_cells(b - ns_), edges_.prepared(a));
}

double PairTester::distance(std::size_t a, std::size_t b, Worker& w) const {
    const Shape& s = scene_.shapes[a].shape;
    return b < ns_ ? detail::distance(s, scene_.shapes[b].shape, edges_.prepared(a), edges_.prepared(b), w.scratch)
                   : detail::distance(s, scene_.grids[b - ns_], solid_cells(b - ns_), edges_.prepared(a));
}

bool PairTester::test_shapes(std::size_t a, std::size_t b, bool reported, Worker& w, BlockOut& out,
                             BlockOut::Record& c) const {
    const std::size_t first = out.points.size();
    std::vector<std::uint32_t>& parts_b = w.parts_b;  // placed after a's once both are known
    parts_b.clear();
    const auto hit = detail::collide_into(scene_.shapes[a].shape, scene_.shapes[b].shape,
                                          reported && options_.points ? &out.points : nullptr, edges_.prepared(a),
                                          edges_.prepared(b), w.scratch, {&out.parts, &parts_b});
    if (!hit) return false;
    c.relation = *hit;
    c.first = static_cast<std::uint32_t>(first);
    c.count = static_cast<std::uint32_t>(out.points.size() - first);
    c.parts_a = static_cast<std::uint32_t>(out.parts.size() - c.parts_first);
    c.parts_b = static_cast<std::uint32_t>(parts_b.size());
    out.parts.insert(out.parts.end(), parts_b.begin(), parts_b.end());
    return true;
}

bool PairTester::test_grid(std::size_t a, std::size_t b, bool reported, BlockOut& out, BlockOut::Record& c) const {
    auto hit = detail::shape_vs_grid(scene_.shapes[a].shape, edges_.prepared(a), scene_.grids[b - ns_]);
    if (!hit) return false;
    c.first = static_cast<std::uint32_t>(out.cells.size());
    c.count = static_cast<std::uint32_t>(hit->cells.size());
    c.outside = hit->outside;
    c.parts_a = static_cast<std::uint32_t>(hit->parts.size());
    out.parts.insert(out.parts.end(), hit->parts.begin(), hit->parts.end());
    if (reported) out.cells.insert(out.cells.end(), hit->cells.begin(), hit->cells.end());
    return true;
}

// The scene's moves (SPEC §1.3): those on a grid alone, then those against shapes and grids;
// failed expectations and blocked moves are counted into the summary.
void run_all_moves(const Scene& scene, const detail::SceneIndexes& edges, unsigned threads, SceneResult& res) {
    res.moves.resize(scene.moves.size());
    for (std::size_t k = 0; k < scene.moves.size(); ++k) {
        const Move& m = scene.moves[k];
        if (!m.against) res.moves[k] = detail::run_move(m, scene.grids[m.grid]);
    }
    detail::run_moves_against(scene, res.moves, res.empty_selectors, threads, &edges);
    for (std::size_t k = 0; k < scene.moves.size(); ++k) {
        const Move& m = scene.moves[k];
        MoveResult& mr = res.moves[k];
        if (m.expect_allowed) {
            mr.passed = *m.expect_allowed == mr.allowed;
            if (!*mr.passed) ++res.summary.rules_failed;
        }
        if (!mr.allowed) ++res.summary.blocked;
    }
}

// One check of one scene, phase by phase: the selections and the broad phase are set up
// when it is made; test_pairs() runs the exact tests and hands the collisions to the sink;
// then the rules and the moves are evaluated.
class SceneCheck {
public:
    SceneCheck(const Scene& scene, const CheckOptions& options)
        : scene_(scene), options_(options), sel_(scene, specs_of(scene, options), scene.rules, res_.empty_selectors),
          candidates_(scene, sel_, options, options.threads), edges_(scene.shapes),
          tester_(scene, options, sel_, candidates_, edges_), rules_(scene, sel_) {}

    void test_pairs(const detail::CheckSinks& sinks);
    void evaluate_rules() { rules_.judge(res_); }
    void run_moves() { run_all_moves(scene_, edges_, options_.threads, res_); }
    SceneResult result() && {
        res_.summary.shapes = scene_.shapes.size();
        res_.summary.grids = scene_.grids.size();
        res_.summary.moves = scene_.moves.size();
        return std::move(res_);
    }

private:
    bool run_block(const detail::PairBuffer& buffer, std::size_t first, std::size_t last, Worker& w, BlockOut& out,
                   const std::function<bool(BlockOut&)>& flush);

    const Scene& scene_;
    const CheckOptions& options_;
    SceneResult res_;
    const detail::Selections sel_;
    const detail::SceneCandidates candidates_;
    const detail::SceneIndexes edges_;  // big polygons' and polylines' edges, compounds' parts
    const PairTester tester_;
    detail::RuleTally rules_;
};

// Tests the pairs of the `a` shapes shapes()[first, last) into `out`, handing it to `flush`
// whenever it holds kChunk records. Each pair is tested once, in the block of its reported
// `a` (so records come out in report order), or for a pair only rules ask about, in the
// block of its lower index. Returns false when `flush` says to stop.
bool SceneCheck::run_block(const detail::PairBuffer& buffer, std::size_t first, std::size_t last, Worker& w, BlockOut& out,
                           const std::function<bool(BlockOut&)>& flush) {
    const std::vector<std::uint32_t>& items = candidates_.shapes();
    const std::vector<std::uint32_t>& solid = candidates_.solid_grids();
    std::vector<std::uint32_t>& partners = w.partners;
    // Pairs tested since the count was last published: one shared atomic add per chunk or
    // block, not one per pair (CheckOptions::progress).
    std::uint64_t tested = 0;
    auto publish = [&] {
        if (options_.progress) options_.progress->pairs_tested.fetch_add(tested, std::memory_order_relaxed);
        tested = 0;
    };
    auto hand_over = [&] {
        publish();
        return flush(out);
    };
    detail::PairBuffer::Reader reader = buffer.reader(first < last ? items[first] : 0);
    for (std::size_t p = first; p < last; ++p) {
        const std::size_t a = items[p];
        reader.partners(static_cast<std::uint32_t>(a), partners, w.one);
        auto visit = [&](std::size_t b) {
            std::pair<std::size_t, std::size_t> ab;
            if (sel_.reported(a, b, ab)) {
                if (ab.first == a) {
                    tester_.test_pair(a, b, true, w, out);
                    ++tested;
                }
                return;
            }
            // A pair only rules ask about: in the block of its lower shape (partners are
            // symmetric: a lower shape b found a).
            if (b < a) return;
            if (sel_.any_rule(a, b)) {
                tester_.test_pair(a, b, false, w, out);
                ++tested;
            }
        };
        auto full = [&] { return out.size() >= kChunk; };
        // Partners come ascending (shapes, then grids whose outside is empty); the grids
        // whose outside is solid meet every shape not wholly inside them, and are merged in.
        auto s = solid.cbegin();
        for (std::uint32_t b : partners) {
            for (; s != solid.cend() && *s < b; ++s) {
                visit(*s);
                if (full() && !hand_over()) return false;
            }
            visit(b);
            if (full() && !hand_over()) return false;
        }
        for (; s != solid.cend(); ++s) {
            visit(*s);
            if (full() && !hand_over()) return false;
        }
    }
    publish();
    return true;
}

// Blocks of `block` `a` shapes run on the workers and are consumed strictly in order, so the
// output never depends on the thread count (ordered_blocks.hpp): each chunk's rule hits are
// counted, then its records go to the sink. Blocks are about a 64th of a worker's share (for
// balance: a clustered scene's few busy shapes make some blocks far longer than others), but
// no fewer than 512 shapes nor more than 8,192: each block is a hand-over between threads
// that the scheduler may delay (blocks of 512 made a million-shape check 15% slower than
// blocks of 8,192).
void SceneCheck::test_pairs(const detail::CheckSinks& sinks) {
    const detail::PairBuffer buffer(scene_, sel_, candidates_, options_);
    detail::CollisionFeed feed(scene_, options_, sinks, res_);
    const std::size_t n = candidates_.shapes().size();
    const unsigned threads = std::max(1u, std::min(options_.threads, 64u));
    const std::size_t block = std::clamp<std::size_t>(n / (64 * threads), 512, 8192);
    detail::run_in_order<BlockOut, Worker>(
        (n + block - 1) / block, threads,
        [&](std::size_t k, Worker& w, BlockOut& out, const std::function<bool(BlockOut&)>& hand_over) {
            return run_block(buffer, k * block, std::min(n, (k + 1) * block), w, out, hand_over);
        },
        [&](BlockOut& out) {
            rules_.count(out);
            return feed.take(out);
        });
    res_.summary.collisions = feed.collisions();
    if (options_.near) res_.summary.near = feed.near_pairs();
}

}  // namespace

SceneResult check(const Scene& scene, const CheckOptions& options, const std::function<void(Collision&&)>& sink) {
    return check(scene, options, sink, nullptr);
}

SceneResult check(const Scene& scene, const CheckOptions& options, const std::function<void(Collision&&)>& sink,
                  const std::function<void(const NearPair&)>& near_sink) {
    SceneCheck run(scene, options);
    run.test_pairs({sink, near_sink});
    run.evaluate_rules();
    run.run_moves();
    return std::move(run).result();
}

}  // namespace collide
