// A scene check: which pairs are asked for (report specs and rule specs), which of them
// the broad phase lets through, the exact test of each, then the rules.
#include "collide/check.hpp"

#include "check/moves_against.hpp"
#include "check/scene_candidates.hpp"
#include "check/scene_indexes.hpp"
#include "geometry/edge_index.hpp"
#include "grids/grid_ops.hpp"
#include "grids/solid_cells.hpp"
#include "queries/collide_into.hpp"
#include "queries/distance.hpp"
#include "scene/selection.hpp"
#include "support/assert.hpp"
#include "support/big_alloc.hpp"
#include "support/in_parts.hpp"
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

// Scenes of at least this many shapes collect their candidate pairs on two threads when
// options.threads allows (a million shapes: ~200 ms on one); below, a thread costs more than
// it saves.
constexpr std::size_t kTwoThreadPairs = 16384;

// Records ahead of the one being handed to the sink whose second shape is prefetched.
constexpr std::size_t kPrefetch = 16;

// A block hands what it found over in chunks of this many records and rule hits (one shape
// may have millions of partners).
constexpr std::size_t kChunk = 4096;

void prefetch_shape(const Scene& scene, std::size_t i) {
#if defined(__GNUC__) || defined(__clang__)
    if (i < scene.shapes.size()) {
        __builtin_prefetch(&scene.shapes[i].id);
        __builtin_prefetch(&scene.shapes[i].shape);  // the record spans two cache lines
    }
#else
    (void)scene;
    (void)i;
#endif
}

// What testing the pairs of one block of `a` shapes found, in report order. A collision's
// points, cells and compound parts are kept in arrays shared by the whole chunk, so that
// testing a pair allocates nothing: the chunks are recycled, and the sink is handed one
// Collision whose vectors are refilled in place (a million colliding pairs were a million
// malloc/free pairs, freed on another thread than the one that allocated them).
struct BlockOut {
    struct Record {
        std::size_t a, b;
        std::uint32_t first;  // into points, or for a grid into cells
        std::uint32_t count;
        Relation relation;
        bool outside;
        std::uint32_t parts_first = 0;  // into parts: a's colliding parts, then b's
        std::uint32_t parts_a = 0;
        std::uint32_t parts_b = 0;
        std::uint32_t separation = kNone;  // into separations
    };
    static constexpr std::uint32_t kNone = 0xffffffffu;
    std::vector<Record> records;
    std::vector<Vec2> points;
    std::vector<Cell> cells;
    std::vector<std::uint32_t> parts;
    std::vector<Separation> separations;
    std::vector<NearPair> near;
    struct RuleHit {
        std::uint32_t rule;
        std::size_t a, b;  // the pair, sides as reported
        double distance;   // for a clearance rule: 0 when the pair collides
    };
    std::vector<RuleHit> hits;

    std::size_t size() const { return records.size() + hits.size() + near.size(); }
    void clear() {
        records.clear();
        points.clear();
        cells.clear();
        parts.clear();
        separations.clear();
        near.clear();
        hits.clear();
    }
};

// What one worker thread reuses from pair to pair (Box2D's task context), made once per
// worker by run_in_order: the pair tests' buffers and the check's own.
struct Worker {
    detail::Scratch scratch;
    std::vector<std::uint32_t> partners;  // the candidate partners of the shape at hand
    std::vector<std::uint32_t> one;       // SceneCandidates::partners: one entry's partners
    std::vector<std::uint32_t> parts_b;   // test_shapes: b's colliding parts, placed after a's
};

struct RuleState {
    std::size_t hits = 0;
    detail::PairLog violations;  // none: the pairs that collide
    // none with clearance: the pairs closer than the clearance, with their distances
    std::vector<std::pair<detail::PairLog::Pair, double>> close;
    // each: which shapes of the left side (numbered by Selections::rule_left_rank) collide
    // with something on the right; other rules keep none
    std::vector<std::uint64_t> satisfied;
};

const std::vector<PairSpec>& specs_of(const Scene& scene, const CheckOptions& options) {
    static const std::vector<PairSpec> everything{PairSpec{"*", "*"}};
    const std::vector<PairSpec>& specs = options.pairs ? *options.pairs : (scene.pairs.empty() && !scene.pairs_given ? everything : scene.pairs);
    for (const PairSpec& s : specs)
        if (s.left.empty() || s.right.empty())
            throw Error("", "", "pair spec '" + s.left + ":" + s.right + "' is not of the form A:B (selectors: a group, an id or *)");
    return specs;
}

// One check of one scene, phase by phase: the selections and the broad phase are set up
// when it is made; test_pairs() runs the exact tests and hands the collisions to the sink;
// then the rules and the moves are evaluated.
class SceneCheck {
public:
    SceneCheck(const Scene& scene, const CheckOptions& options)
        : scene_(scene), options_(options), ns_(scene.shapes.size()),
          sel_(scene, specs_of(scene, options), scene.rules, res_.empty_selectors),
          candidates_(scene, sel_, options, options.threads), edges_(scene.shapes), rules_(scene.rules.size()) {
        for (std::size_t k = 0; k < rules_.size(); ++k)
            if (scene.rules[k].expect == Rule::Expect::Each)
                rules_[k].satisfied.assign((sel_.rule_left_size(k) + 63) / 64, 0);
        // Distances to grids (--near, clearance) visit their solid cells alone.
        if (candidates_.reach() > 0)
            for (const Grid& g : scene.grids) solid_cells_.push_back(std::make_unique<detail::SolidCells>(g));
    }

    // Where test_pairs() hands what it finds; a null `near` keeps the near pairs in the result.
    struct Sinks {
        const std::function<void(Collision&&)>& collision;
        const std::function<void(const NearPair&)>& near;
    };
    void test_pairs(const Sinks& sinks);
    void evaluate_rules();
    void run_moves();
    SceneResult result() && {
        res_.summary.shapes = ns_;
        res_.summary.grids = scene_.grids.size();
        res_.summary.moves = scene_.moves.size();
        return std::move(res_);
    }

private:
    void buffer_pairs();
    bool run_block(std::size_t first, std::size_t last, Worker& w, BlockOut& out,
                   const std::function<bool(BlockOut&)>& flush);
    void test_pair(std::size_t a, std::size_t b, bool reported, Worker& w, BlockOut& out) const;
    void test_apart(std::size_t a, std::size_t b, bool reported, Worker& w, BlockOut& out) const;
    int compare_distance(std::size_t a, std::size_t b, double d, Worker& w) const;
    const detail::SolidCells* solid_cells(std::size_t grid) const {
        return grid < solid_cells_.size() ? solid_cells_[grid].get() : nullptr;
    }
    double distance(std::size_t a, std::size_t b, Worker& w) const;
    bool test_shapes(std::size_t a, std::size_t b, bool reported, Worker& w, BlockOut& out, BlockOut::Record& c) const;
    bool test_grid(std::size_t a, std::size_t b, bool reported, BlockOut& out, BlockOut::Record& c) const;
    bool consume(BlockOut& out, const Sinks& sinks);
    void count_rule_hits(const BlockOut& out);

    const Scene& scene_;
    const CheckOptions& options_;
    const std::size_t ns_;
    SceneResult res_;
    const detail::Selections sel_;
    const detail::SceneCandidates candidates_;
    const detail::SceneIndexes edges_;  // big polygons' and polylines' edges, compounds' parts
    std::vector<std::unique_ptr<detail::SolidCells>> solid_cells_;  // per grid, when distances are asked
    std::vector<RuleState> rules_;
    // The oriented candidate pairs, sorted, when they fit in options.pair_buffer (then
    // use_buffer_); else each block queries the broad phase shape by shape.
    std::vector<std::uint64_t> buffered_;
    bool use_buffer_ = false;
    std::size_t emitted_ = 0;  // collisions handed to the sink
#ifdef COLLIDE_CHECKED
    std::pair<std::size_t, std::size_t> last_{0, 0};  // the last of them, whose order is asserted
#endif
    std::size_t near_count_ = 0;  // near pairs reported
    Collision given_;          // what the sink is handed, refilled for each record
};

// Each candidate pair once, oriented as it is tested: (a, b) of the first report spec that
// selects it, else (lower, higher) when only rules ask about it. Two threads may each collect
// a share (the buffer is sorted next, so the order they find pairs in does not matter); each
// gives up past options.pair_buffer pairs, and the buffer is used only if both finished with
// no more than that in all. (A shared counter would bounce between the cores at every pair.)
void SceneCheck::buffer_pairs() {
    // With the reach's own index, candidates come shape by shape (partners()), never as all
    // pairs at once.
    use_buffer_ = options_.pair_buffer > 0 && !candidates_.split_reach();
    if (!use_buffer_) return;
    const std::size_t n = candidates_.shapes().size();
    detail::reserve_huge(buffered_, std::min(options_.pair_buffer, n + n / 2));
    auto keep_into = [&](std::vector<std::uint64_t>& into) {
        return [&](std::uint32_t i, std::uint32_t j) {
            std::uint64_t key = 0;
            std::pair<std::size_t, std::size_t> ab;
            if (sel_.reported(i, j, ab)) key = std::uint64_t{ab.first} << 32 | ab.second;
            else if (sel_.any_rule(i, j)) key = std::uint64_t{i} << 32 | j;
            else return true;
            if (into.size() >= options_.pair_buffer) return false;
            into.push_back(key);
            return true;
        };
    };
    const unsigned parts = options_.threads > 1 && n >= kTwoThreadPairs ? 2 : 1;
    std::vector<std::uint64_t> second;
    if (parts == 2) detail::reserve_huge(second, buffered_.capacity() / 2);  // not grown by copying
    bool ok[2] = {true, true};
    detail::in_parts(parts, [&](unsigned part) {
        ok[part] = candidates_.for_each_pair(keep_into(part == 0 ? buffered_ : second), part, parts);
    });
    use_buffer_ = ok[0] && ok[1] && buffered_.size() + second.size() <= options_.pair_buffer;
    if (!use_buffer_) {
        buffered_.clear();
        buffered_.shrink_to_fit();
        return;
    }
    buffered_.insert(buffered_.end(), second.begin(), second.end());
    detail::radix_sort(buffered_);
    // A compound indexed by its parts is found once per part that meets the partner.
    buffered_.erase(std::unique(buffered_.begin(), buffered_.end()), buffered_.end());
}

// The exact test of one pair, into `out`; a pair only rules ask about counts for them but is
// not reported.
void SceneCheck::test_pair(std::size_t a, std::size_t b, bool reported, Worker& w, BlockOut& out) const {
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
void SceneCheck::test_apart(std::size_t a, std::size_t b, bool reported, Worker& w, BlockOut& out) const {
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

int SceneCheck::compare_distance(std::size_t a, std::size_t b, double d, Worker& w) const {
    const Shape& s = scene_.shapes[a].shape;
    return b < ns_ ? detail::compare_distance(s, scene_.shapes[b].shape, d, edges_.prepared(a), edges_.prepared(b),
                                              w.scratch)
                   : detail::compare_distance(s, scene_.grids[b - ns_], d, solid_cells(b - ns_));
}

double SceneCheck::distance(std::size_t a, std::size_t b, Worker& w) const {
    const Shape& s = scene_.shapes[a].shape;
    return b < ns_ ? detail::distance(s, scene_.shapes[b].shape, edges_.prepared(a), edges_.prepared(b), w.scratch)
                   : detail::distance(s, scene_.grids[b - ns_], solid_cells(b - ns_));
}

bool SceneCheck::test_shapes(std::size_t a, std::size_t b, bool reported, Worker& w, BlockOut& out,
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

bool SceneCheck::test_grid(std::size_t a, std::size_t b, bool reported, BlockOut& out, BlockOut::Record& c) const {
    auto hit = detail::shape_vs_grid(scene_.shapes[a].shape, scene_.grids[b - ns_]);
    if (!hit) return false;
    c.first = static_cast<std::uint32_t>(out.cells.size());
    c.count = static_cast<std::uint32_t>(hit->cells.size());
    c.outside = hit->outside;
    c.parts_a = static_cast<std::uint32_t>(hit->parts.size());
    out.parts.insert(out.parts.end(), hit->parts.begin(), hit->parts.end());
    if (reported) out.cells.insert(out.cells.end(), hit->cells.begin(), hit->cells.end());
    return true;
}

// Tests the pairs of the `a` shapes shapes()[first, last) into `out`, handing it to `flush`
// whenever it holds kChunk records. Each pair is tested once, in the block of its reported
// `a` (so records come out in report order), or for a pair only rules ask about, in the
// block of its lower index. Returns false when `flush` says to stop.
bool SceneCheck::run_block(std::size_t first, std::size_t last, Worker& w, BlockOut& out,
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
    auto next = buffered_.cbegin();
    if (use_buffer_ && first < last)
        next = std::lower_bound(buffered_.cbegin(), buffered_.cend(), std::uint64_t{items[first]} << 32);
    for (std::size_t p = first; p < last; ++p) {
        const std::size_t a = items[p];
        if (use_buffer_) {
            partners.clear();
            for (; next != buffered_.cend() && (*next >> 32) == a; ++next) {
                partners.push_back(static_cast<std::uint32_t>(*next));
                // Partners are anywhere in the scene: fetch the shape and selection flags of
                // the pair kPrefetch ahead (a cache miss otherwise, ~8% of a million-shape check).
                if (buffered_.cend() - next > static_cast<std::ptrdiff_t>(kPrefetch)) {
                    const auto ahead = static_cast<std::uint32_t>(next[kPrefetch]);
                    prefetch_shape(scene_, ahead);
                    sel_.prefetch(ahead);
                }
            }
        } else {
            candidates_.partners(static_cast<std::uint32_t>(a), partners, w.one);
        }
        auto visit = [&](std::size_t b) {
            std::pair<std::size_t, std::size_t> ab;
            if (sel_.reported(a, b, ab)) {
                if (ab.first == a) {
                    test_pair(a, b, true, w, out);
                    ++tested;
                }
                return;
            }
            // A pair only rules ask about: in the block of its lower shape (partners are
            // symmetric: a lower shape b found a).
            if (b < a) return;
            if (sel_.any_rule(a, b)) {
                test_pair(a, b, false, w, out);
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

void SceneCheck::count_rule_hits(const BlockOut& out) {
    for (const BlockOut::RuleHit& h : out.hits) {
        RuleState& r = rules_[h.rule];
        ++r.hits;
        const Rule& rule = scene_.rules[h.rule];
        if (rule.expect == Rule::Expect::None) {
            if (rule.clearance) r.close.push_back({{h.a, h.b}, h.distance});
            else r.violations.push({h.a, h.b});
        }
        if (r.satisfied.empty()) continue;  // not an `each` rule
        for (const std::size_t x : {h.a, h.b}) {
            if (x < ns_ && sel_.rule_forward(h.rule, x, x == h.a ? h.b : h.a)) {
                const std::size_t rank = sel_.rule_left_rank(h.rule, x);
                r.satisfied[rank >> 6] |= std::uint64_t{1} << (rank & 63);
            }
        }
    }
}

// Takes a chunk in report order: its rule hits, then its records to the sink. Returns false
// when options.max_collisions is reached.
bool SceneCheck::consume(BlockOut& out, const Sinks& sinks) {
    count_rule_hits(out);
    if (!(options_.max_collisions && emitted_ == options_.max_collisions)) {
        near_count_ += out.near.size();
        if (sinks.near)
            for (const NearPair& n : out.near) sinks.near(n);
        else
            res_.near.insert(res_.near.end(), out.near.begin(), out.near.end());
    }
    const std::function<void(Collision&&)>& sink = sinks.collision;
    // The sink (a report writer) reads both shapes' ids; b is anywhere in the scene, a cache
    // miss that took 7% of a million-shape check: fetch some records ahead.
    const std::vector<BlockOut::Record>& recs = out.records;
    const std::size_t emitted_before = emitted_;
    auto publish = [&] {
        if (options_.progress)
            options_.progress->collisions.fetch_add(emitted_ - emitted_before, std::memory_order_relaxed);
    };
    for (std::size_t k = 0; k < std::min(kPrefetch, recs.size()); ++k) prefetch_shape(scene_, recs[k].b);
    for (std::size_t k = 0; k < recs.size(); ++k) {
        const BlockOut::Record& r = recs[k];
        if (k + kPrefetch < recs.size()) prefetch_shape(scene_, recs[k + kPrefetch].b);
        if (options_.max_collisions && emitted_ == options_.max_collisions) {
            res_.truncated = true;
            publish();
            return false;
        }
        ++emitted_;
#ifdef COLLIDE_CHECKED
        // Report order: by a, then b, each pair once (check.hpp).
        COLLIDE_ASSERT(emitted_ == 1 || r.a > last_.first || (r.a == last_.first && r.b > last_.second));
        last_ = {r.a, r.b};
#endif
        // A sink that only reads the collision leaves its vectors' storage for the next.
        given_.a = r.a;
        given_.b = r.b;
        given_.relation = r.relation;
        given_.outside = r.outside;
        if (r.b < ns_) {
            given_.points.assign(out.points.begin() + r.first, out.points.begin() + r.first + r.count);
            given_.cells.clear();
        } else {
            given_.points.clear();
            given_.cells.assign(out.cells.begin() + r.first, out.cells.begin() + r.first + r.count);
        }
        const auto part_ids = out.parts.begin() + r.parts_first;
        given_.parts_a.assign(part_ids, part_ids + r.parts_a);
        given_.parts_b.assign(part_ids + r.parts_a, part_ids + r.parts_a + r.parts_b);
        given_.separation.reset();
        if (r.separation != BlockOut::kNone) given_.separation = out.separations[r.separation];
        sink(std::move(given_));
    }
    publish();
    out.clear();
    return true;
}

// Blocks of `block` `a` shapes run on the workers and are consumed strictly in order, so the
// output never depends on the thread count (ordered_blocks.hpp). Blocks are about a 64th of
// a worker's share (for balance: a clustered scene's few busy shapes make some blocks far
// longer than others), but no fewer than 512 shapes nor more than 8,192: each block is a
// hand-over between threads that the scheduler may delay (blocks of 512 made a
// million-shape check 15% slower than blocks of 8,192).
void SceneCheck::test_pairs(const Sinks& sinks) {
    buffer_pairs();
    const std::size_t n = candidates_.shapes().size();
    const unsigned threads = std::max(1u, std::min(options_.threads, 64u));
    const std::size_t block = std::clamp<std::size_t>(n / (64 * threads), 512, 8192);
    detail::run_in_order<BlockOut, Worker>(
        (n + block - 1) / block, threads,
        [&](std::size_t k, Worker& w, BlockOut& out, const std::function<bool(BlockOut&)>& hand_over) {
            return run_block(k * block, std::min(n, (k + 1) * block), w, out, hand_over);
        },
        [&](BlockOut& out) { return consume(out, sinks); });
    res_.summary.collisions = emitted_;
    if (options_.near) res_.summary.near = near_count_;
}

void SceneCheck::evaluate_rules() {
    res_.rules.resize(rules_.size());
    for (std::size_t k = 0; k < rules_.size(); ++k) {
        RuleResult& out = res_.rules[k];
        switch (scene_.rules[k].expect) {
            case Rule::Expect::None:
                rules_[k].violations.move_into(out.violations);
                if (scene_.rules[k].clearance) {
                    std::vector<std::pair<detail::PairLog::Pair, double>>& close = rules_[k].close;
                    std::sort(close.begin(), close.end());
                    for (const auto& [pair, d] : close) {
                        out.violations.push_back(pair);
                        out.distances.push_back(d);
                    }
                }
                out.passed = rules_[k].hits == 0;
                break;
            case Rule::Expect::Some: out.passed = rules_[k].hits > 0; break;
            case Rule::Expect::Each: {
                std::vector<std::size_t> left;
                sel_.rule_left(k, left);
                for (const std::size_t i : left) {
                    const std::size_t rank = sel_.rule_left_rank(k, i);
                    if (!((rules_[k].satisfied[rank >> 6] >> (rank & 63)) & 1u))
                        out.violations.emplace_back(i, static_cast<std::size_t>(-1));
                }
                out.passed = out.violations.empty();
                break;
            }
        }
        std::sort(out.violations.begin(), out.violations.end());
        if (!out.passed) ++res_.summary.rules_failed;
    }
}

void SceneCheck::run_moves() {
    res_.moves.resize(scene_.moves.size());
    for (std::size_t k = 0; k < scene_.moves.size(); ++k) {
        const Move& m = scene_.moves[k];
        if (!m.against) res_.moves[k] = detail::run_move(m, scene_.grids[m.grid]);
    }
    detail::run_moves_against(scene_, res_.moves, res_.empty_selectors, options_.threads, &edges_);
    for (std::size_t k = 0; k < scene_.moves.size(); ++k) {
        const Move& m = scene_.moves[k];
        MoveResult& mr = res_.moves[k];
        if (m.expect_allowed) {
            mr.passed = *m.expect_allowed == mr.allowed;
            if (!*mr.passed) ++res_.summary.rules_failed;
        }
        if (!mr.allowed) ++res_.summary.blocked;
    }
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
