// A scene check: which pairs are asked for (report specs and rule specs), which of them
// the broad phase lets through, the exact test of each, then the rules.
#include "collide/check.hpp"

#include "big_alloc.hpp"
#include "broadphase.hpp"
#include "collide_into.hpp"
#include "edge_index.hpp"
#include "grid_ops.hpp"
#include "in_parts.hpp"
#include "selection.hpp"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace collide {

const std::string& object_id(const Scene& scene, std::size_t i) {
    return i < scene.shapes.size() ? scene.shapes[i].id : scene.grids[i - scene.shapes.size()].id;
}

namespace {

struct RuleState {
    std::size_t hits = 0;
    detail::PairLog violations;  // none: the pairs that collide
    // each: which shapes of the left side (numbered by Selections::rule_left_rank) collide
    // with something on the right; other rules keep none
    std::vector<std::uint64_t> satisfied;
};

}  // namespace

SceneResult check(const Scene& scene, const CheckOptions& options) {
    std::vector<Collision> collisions;
    SceneResult res = check(scene, options, [&](Collision&& c) { collisions.push_back(std::move(c)); });
    res.collisions = std::move(collisions);
    return res;
}

namespace {

// Scenes of at least this many shapes compute their bounds and collect their candidate pairs
// on two threads when options.threads allows (a million shapes: ~70 and ~200 ms on one);
// below, a thread costs more than it saves.
constexpr std::size_t kTwoThreadPairs = 16384;

// Records ahead of the one being handed to the sink whose second shape is prefetched.
constexpr std::size_t kPrefetch = 16;

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
// points and cells are kept in arrays shared by the whole chunk, so that testing a pair
// allocates nothing: the chunks are recycled, and the sink is handed one Collision whose
// vectors are refilled in place (a million colliding pairs were a million malloc/free pairs,
// freed on another thread than the one that allocated them).
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
    };
    std::vector<Record> records;
    std::vector<Vec2> points;
    std::vector<Cell> cells;
    std::vector<std::uint32_t> parts;
    struct RuleHit {
        std::uint32_t rule;
        std::size_t a, b;  // the pair, sides as reported
    };
    std::vector<RuleHit> hits;

    std::size_t size() const { return records.size() + hits.size(); }
    void clear() {
        records.clear();
        points.clear();
        cells.clear();
        parts.clear();
        hits.clear();
    }
};

// A line in the float frame of the bounds: (p - origin) * scale rounds p by an ulp of the
// difference, which the index's margins (2^-40 and more, relative) cover; d * scale is
// exact unless it leaves the normal range, and then d no longer tells parallel lines apart.
detail::Unbounded in_frame(detail::Unbounded l, const detail::FloatFrame& frame) {
    const double k = frame.scale;
    const Vec2 d{l.d.x * k, l.d.y * k};
    l.exact_d = l.exact_d && d.x / k == l.d.x && d.y / k == l.d.y && (d.x == 0 || std::fabs(d.x) >= 0x1p-1000) &&
                (d.y == 0 || std::fabs(d.y) >= 0x1p-1000);
    l.p = Vec2{(l.p.x - frame.origin.x) * k, (l.p.y - frame.origin.y) * k};
    l.d = d;
    return l;
}

// What the broad phase needs besides the shapes' bounds.
struct GridsAndLines {
    std::vector<std::uint32_t> indexed;  // the shapes, then the grids in the index; empty: just the shapes
    std::vector<std::uint32_t> solid;    // selected grids whose outside is solid, ascending
    std::vector<std::pair<std::uint32_t, detail::Unbounded>> lines;  // the lines and rays among the shapes
};

// A grid whose outside is empty meets only shapes that reach into its extent, so it joins
// the broad phase by its extent (bounds appended after the shapes'). One whose outside is
// solid meets every shape not wholly inside its closed extent, so every shape is a
// candidate. (Grids no spec selects are skipped by the selections, as before.) Lines and
// rays give the index their geometry.
GridsAndLines grids_and_lines(const Scene& scene, const std::vector<std::uint32_t>& items,
                              const detail::FloatFrame& frame, std::vector<detail::FBounds>& bounds) {
    GridsAndLines out;
    const std::size_t ns = scene.shapes.size();
    for (std::size_t k = 0; k < scene.grids.size(); ++k) {
        const Grid& g = scene.grids[k];
        const auto id = static_cast<std::uint32_t>(ns + k);
        if (g.outside_solid) {
            out.solid.push_back(id);
            continue;
        }
        if (out.indexed.empty()) {
            out.indexed = items;
            bounds.resize(ns + scene.grids.size());
        }
        out.indexed.push_back(id);
        // Cell edges are at the exact origin + k * tile: the computed far edges are widened
        // by more than their rounding.
        const double w = static_cast<double>(g.cols) * g.tile.x, h = static_cast<double>(g.rows) * g.tile.y;
        const Vec2 hi{g.origin.x + w, g.origin.y + h};
        const Vec2 pad{0x1p-50 * (std::fabs(g.origin.x) + w), 0x1p-50 * (std::fabs(g.origin.y) + h)};
        bounds[id] = detail::outward(Bounds{g.origin, Vec2{hi.x + pad.x, hi.y + pad.y}}, frame);
    }
    for (const std::uint32_t i : items) {
        const Shape& s = scene.shapes[i].shape;
        if (const auto* l = std::get_if<Line>(&s)) {
            // d = b - a, and whether that is exact (Knuth's TwoSum: its error term is zero).
            auto diff = [](double b, double a, bool& exact) {
                const double sum = b - a, bv = sum - b, av = sum - bv;
                exact = exact && (b - av) + (-a - bv) == 0;
                return sum;
            };
            bool exact = true;
            const Vec2 d{diff(l->b.x, l->a.x, exact), diff(l->b.y, l->a.y, exact)};
            out.lines.push_back({i, in_frame(detail::Unbounded{l->a, d, false, exact}, frame)});
        } else if (const auto* r = std::get_if<Ray>(&s)) {
            out.lines.push_back({i, in_frame(detail::Unbounded{r->origin, r->direction, true, true}, frame)});
        }
    }
    return out;
}

}  // namespace

SceneResult check(const Scene& scene, const CheckOptions& options, const std::function<void(Collision&&)>& sink) {
    SceneResult res;
    const std::size_t ns = scene.shapes.size();
    const std::vector<PairSpec> default_specs{PairSpec{"*", "*"}};
    const std::vector<PairSpec>& specs =
        options.pairs ? *options.pairs : (scene.pairs.empty() ? default_specs : scene.pairs);
    for (const PairSpec& s : specs)
        if (s.left.empty() || s.right.empty())
            throw Error("", "", "pair spec '" + s.left + ":" + s.right + "' is not of the form A:B (selectors: a group, an id or *)");
    const detail::Selections sel(scene, specs, scene.rules, res.empty_selectors);
    std::vector<RuleState> rules(scene.rules.size());
    for (std::size_t k = 0; k < rules.size(); ++k)
        if (scene.rules[k].expect == Rule::Expect::Each) rules[k].satisfied.assign((sel.rule_left_size(k) + 63) / 64, 0);

    // Only shapes that some spec selects take part.
    std::vector<std::uint32_t> items;
    detail::reserve_huge(items, ns);
    sel.used_shapes(items);
    std::vector<detail::FBounds> bounds;
    detail::reserve_huge(bounds, ns);
    bounds.resize(ns);
    const unsigned parts = options.threads > 1 && items.size() >= kTwoThreadPairs ? 2 : 1;
    std::vector<Bounds> sample;  // the float frame is set from about 64 shapes spread over the scene
    for (std::size_t k = 0; k < items.size(); k += std::max<std::size_t>(1, items.size() / 64))
        sample.push_back(bounds_of(scene.shapes[items[k]].shape));
    const detail::FloatFrame frame = detail::frame_for(std::move(sample));
    detail::in_parts(parts, [&](unsigned part) {
        const std::size_t to = items.size() * (part + 1) / parts;
        for (std::size_t p = items.size() * part / parts; p < to; ++p)
            bounds[items[p]] = detail::outward(bounds_of(scene.shapes[items[p]].shape), frame);
    });
    GridsAndLines extra = grids_and_lines(scene, items, frame, bounds);
    const detail::BroadIndex index(std::move(bounds), extra.indexed.empty() ? items : extra.indexed, options.broadphase,
                                   options.threads, extra.lines);
    const detail::SceneIndexes edges(scene.shapes);  // big polygons' and polylines' edges

    // Each pair is tested once, in the block of its reported `a` (so records come out in
    // report order), or for a pair only rules ask about, in the block of its lower index.
    auto test_pair = [&](std::size_t a, std::size_t b, bool reported, BlockOut& out) {
        BlockOut::Record c{a, b, 0, 0, Relation::Overlap, false};
        c.parts_first = static_cast<std::uint32_t>(out.parts.size());
        if (b < ns) {
            const std::size_t first = out.points.size();
            thread_local std::vector<std::uint32_t> parts_b;  // placed after a's once both are known
            parts_b.clear();
            const auto hit = detail::collide_into(scene.shapes[a].shape, scene.shapes[b].shape,
                                                  reported && options.points ? &out.points : nullptr, edges.prepared(a),
                                                  edges.prepared(b), {&out.parts, &parts_b});
            if (!hit) return;
            c.relation = *hit;
            c.first = static_cast<std::uint32_t>(first);
            c.count = static_cast<std::uint32_t>(out.points.size() - first);
            c.parts_a = static_cast<std::uint32_t>(out.parts.size() - c.parts_first);
            c.parts_b = static_cast<std::uint32_t>(parts_b.size());
            out.parts.insert(out.parts.end(), parts_b.begin(), parts_b.end());
        } else {
            auto hit = detail::shape_vs_grid(scene.shapes[a].shape, scene.grids[b - ns]);
            if (!hit) return;
            c.first = static_cast<std::uint32_t>(out.cells.size());
            c.count = static_cast<std::uint32_t>(hit->cells.size());
            c.outside = hit->outside;
            c.parts_a = static_cast<std::uint32_t>(hit->parts.size());
            out.parts.insert(out.parts.end(), hit->parts.begin(), hit->parts.end());
            if (reported) out.cells.insert(out.cells.end(), hit->cells.begin(), hit->cells.end());
        }
        if (!reported) out.parts.resize(c.parts_first);
        const bool touch = c.relation == Relation::Touch;
        if (touch && options.no_touch) {
            if (b < ns) out.points.resize(c.first);
            out.parts.resize(c.parts_first);
            return;
        }
        sel.for_each_rule(a, b, [&](std::size_t k) {
            if (touch && scene.rules[k].ignore_touching) return;
            const auto ab = reported ? std::make_pair(a, b) : sel.rule_oriented(k, a, b);
            out.hits.push_back(BlockOut::RuleHit{static_cast<std::uint32_t>(k), ab.first, ab.second});
        });
        if (reported) out.records.push_back(c);
    };
    // Which shapes' partners a block visits, and in what order: from the sorted buffer of
    // oriented candidate pairs when they fit in it, else one broad-phase query per shape.
    std::vector<std::uint64_t> buffered;
    bool use_buffer = options.pair_buffer > 0;
    if (use_buffer) {
        detail::reserve_huge(buffered, std::min(options.pair_buffer, items.size() + items.size() / 2));
        // Each candidate pair once, oriented as it is tested: (a, b) of the first report
        // spec that selects it, else (lower, higher) when only rules ask about it. Two threads
        // may each collect a share (the buffer is sorted next, so the order they find pairs
        // in does not matter); each gives up past options.pair_buffer pairs, and the buffer
        // is used only if both finished with no more than that in all. (A shared counter
        // would bounce between the cores at every pair.)
        auto keep_into = [&](std::vector<std::uint64_t>& into) {
            return [&](std::uint32_t i, std::uint32_t j) {
                if (i >= ns) return true;  // two grids (i < j)
                std::uint64_t key = 0;
                std::pair<std::size_t, std::size_t> ab;
                if (sel.reported(i, j, ab))
                    key = std::uint64_t{ab.first} << 32 | ab.second;
                else if (sel.any_rule(i, j))
                    key = std::uint64_t{i} << 32 | j;
                else
                    return true;
                if (into.size() >= options.pair_buffer) return false;
                into.push_back(key);
                return true;
            };
        };
        std::vector<std::uint64_t> second;
        if (parts == 2) detail::reserve_huge(second, buffered.capacity() / 2);  // not grown by copying
        bool ok[2] = {true, true};
        detail::in_parts(parts, [&](unsigned part) {
            ok[part] = index.for_each_pair(keep_into(part == 0 ? buffered : second), part, parts);
        });
        use_buffer = ok[0] && ok[1] && buffered.size() + second.size() <= options.pair_buffer;
        if (use_buffer) buffered.insert(buffered.end(), second.begin(), second.end());
        if (use_buffer) {
            detail::radix_sort(buffered);
        } else {
            buffered.clear();
            buffered.shrink_to_fit();
        }
    }
    // Tests the pairs of the `a` shapes items[first, last) into `out`, handing it to `flush`
    // whenever it holds kChunk records (one shape may have millions of partners). Returns
    // false when `flush` says to stop.
    constexpr std::size_t kChunk = 4096;
    auto run_block = [&](std::size_t first, std::size_t last, BlockOut& out,
                         const std::function<bool(BlockOut&)>& flush) {
        std::vector<std::uint32_t> partners;
        auto next = buffered.cbegin();
        if (use_buffer && first < last)
            next = std::lower_bound(buffered.cbegin(), buffered.cend(), std::uint64_t{items[first]} << 32);
        for (std::size_t p = first; p < last; ++p) {
            const std::size_t a = items[p];
            if (use_buffer) {
                partners.clear();
                for (; next != buffered.cend() && (*next >> 32) == a; ++next) {
                    partners.push_back(static_cast<std::uint32_t>(*next));
                    // Partners are anywhere in the scene: fetch the shape and selection
                    // flags of the pair kPrefetch ahead (a cache miss otherwise, ~8% of a
                    // million-shape check).
                    if (buffered.cend() - next > static_cast<std::ptrdiff_t>(kPrefetch)) {
                        const auto ahead = static_cast<std::uint32_t>(next[kPrefetch]);
                        prefetch_shape(scene, ahead);
                        sel.prefetch(ahead);
                    }
                }
            } else {
                index.query(static_cast<std::uint32_t>(a), partners);
            }
            auto visit = [&](std::size_t b) {
                std::pair<std::size_t, std::size_t> ab;
                if (sel.reported(a, b, ab)) {
                    if (ab.first == a) test_pair(a, b, true, out);
                    return;
                }
                if (b < a) return;
                if (sel.any_rule(a, b)) test_pair(a, b, false, out);
            };
            auto full = [&] { return out.size() >= kChunk; };
            // Partners come ascending (shapes, then grids whose outside is empty); the grids
            // whose outside is solid meet every shape not wholly inside them, and are merged in.
            auto solid = extra.solid.cbegin();
            for (std::uint32_t b : partners) {
                for (; solid != extra.solid.cend() && *solid < b; ++solid) {
                    visit(*solid);
                    if (full() && !flush(out)) return false;
                }
                visit(b);
                if (full() && !flush(out)) return false;
            }
            for (; solid != extra.solid.cend(); ++solid) {
                visit(*solid);
                if (full() && !flush(out)) return false;
            }
        }
        return true;
    };

    // Blocks of `block` `a` shapes run on `threads` workers and are consumed strictly in order,
    // so the output never depends on the thread count. A block hands what it finds over in
    // chunks of kChunk records, and its worker waits while kPending of them are not yet
    // consumed, so memory stays bounded even when the answer is n^2 pairs. Blocks are about
    // a 64th of a worker's share (for balance: a clustered scene's few busy shapes make some
    // blocks far longer than others), but no fewer than 512 shapes nor more than 8,192: each
    // block is a hand-over between threads that the scheduler may delay (blocks of 512 made a
    // million-shape check 15% slower than blocks of 8,192).
    const unsigned threads = std::max(1u, std::min(options.threads, 64u));
    const std::size_t block = std::clamp<std::size_t>(items.size() / (64 * threads), 512, 8192);
    constexpr std::size_t kPending = 2;
    const std::size_t blocks = (items.size() + block - 1) / block;
    std::size_t emitted = 0;
    Collision given;  // what the sink is handed, refilled for each record
    auto consume = [&](BlockOut& out) {
        for (const BlockOut::RuleHit& h : out.hits) {
            RuleState& r = rules[h.rule];
            ++r.hits;
            if (scene.rules[h.rule].expect == Rule::Expect::None) r.violations.push({h.a, h.b});
            if (r.satisfied.empty()) continue;  // not an `each` rule
            for (const std::size_t x : {h.a, h.b}) {
                if (x < ns && sel.rule_forward(h.rule, x, x == h.a ? h.b : h.a)) {
                    const std::size_t rank = sel.rule_left_rank(h.rule, x);
                    r.satisfied[rank >> 6] |= std::uint64_t{1} << (rank & 63);
                }
            }
        }
        // The sink (a report writer) reads both shapes' ids; b is anywhere in the scene, a
        // cache miss that took 7% of a million-shape check: fetch some records ahead.
        const std::vector<BlockOut::Record>& recs = out.records;
        for (std::size_t k = 0; k < std::min(kPrefetch, recs.size()); ++k) prefetch_shape(scene, recs[k].b);
        for (std::size_t k = 0; k < recs.size(); ++k) {
            const BlockOut::Record& r = recs[k];
            if (k + kPrefetch < recs.size()) prefetch_shape(scene, recs[k + kPrefetch].b);
            if (options.max_collisions && emitted == options.max_collisions) {
                res.truncated = true;
                return false;
            }
            ++emitted;
            // A sink that only reads the collision leaves its vectors' storage for the next.
            given.a = r.a;
            given.b = r.b;
            given.relation = r.relation;
            given.outside = r.outside;
            if (r.b < ns) {
                given.points.assign(out.points.begin() + r.first, out.points.begin() + r.first + r.count);
                given.cells.clear();
            } else {
                given.points.clear();
                given.cells.assign(out.cells.begin() + r.first, out.cells.begin() + r.first + r.count);
            }
            const auto part_ids = out.parts.begin() + r.parts_first;
            given.parts_a.assign(part_ids, part_ids + r.parts_a);
            given.parts_b.assign(part_ids + r.parts_a, part_ids + r.parts_a + r.parts_b);
            sink(std::move(given));
        }
        out.clear();
        return true;
    };
    if (threads == 1 || blocks < 2) {
        BlockOut out;
        for (std::size_t k = 0; k < blocks; ++k) {
            if (!run_block(k * block, std::min(items.size(), (k + 1) * block), out, consume) || !consume(out)) break;
        }
    } else {
        struct Slot {
            std::deque<BlockOut> chunks;  // handed over, not yet consumed
            bool finished = false;
        };
        std::mutex m;
        std::condition_variable cv;
        std::vector<Slot> slots(blocks);
        std::vector<BlockOut> spare;  // consumed chunks, emptied, their storage kept for reuse
        auto fresh = [&] {  // with m held
            if (spare.empty()) return BlockOut{};
            BlockOut out = std::move(spare.back());
            spare.pop_back();
            return out;
        };
        std::size_t next = 0;      // next block to start
        std::size_t consumed = 0;  // blocks consumed so far
        bool stop = false;
        std::exception_ptr error;
        const std::size_t window = 4 * threads;  // blocks in flight at most
        auto worker = [&] {
            for (;;) {
                std::size_t k = 0;
                BlockOut out;
                {
                    std::unique_lock<std::mutex> lock(m);
                    cv.wait(lock, [&] { return stop || next >= blocks || next < consumed + window; });
                    if (stop || next >= blocks) return;
                    k = next++;
                    out = fresh();
                }
                auto hand_over = [&](BlockOut& full) {
                    std::unique_lock<std::mutex> lock(m);
                    slots[k].chunks.push_back(std::move(full));
                    full = fresh();
                    cv.notify_all();
                    cv.wait(lock, [&] { return stop || slots[k].chunks.size() < kPending; });
                    return !stop;
                };
                try {
                    if (!run_block(k * block, std::min(items.size(), (k + 1) * block), out, hand_over)) return;
                } catch (...) {
                    std::lock_guard<std::mutex> lock(m);
                    if (!error) error = std::current_exception();
                    stop = true;
                    cv.notify_all();
                    return;
                }
                std::lock_guard<std::mutex> lock(m);
                slots[k].chunks.push_back(std::move(out));
                slots[k].finished = true;
                cv.notify_all();
            }
        };
        std::vector<std::thread> pool;
        // A sink or rule that throws (a full disk, out of memory) must not leave the workers
        // running: std::thread's destructor would end the program.
        auto stop_and_join = [&] {
            {
                std::lock_guard<std::mutex> lock(m);
                stop = true;
                cv.notify_all();
            }
            for (std::thread& t : pool)
                if (t.joinable()) t.join();
        };
        struct JoinOnExit {
            decltype(stop_and_join)& f;
            ~JoinOnExit() { f(); }
        } join_on_exit{stop_and_join};
        for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
        bool more = true;
        for (std::size_t k = 0; k < blocks && more; ++k) {
            for (;;) {
                BlockOut out;
                {
                    std::unique_lock<std::mutex> lock(m);
                    cv.wait(lock, [&] { return stop || !slots[k].chunks.empty() || slots[k].finished; });
                    if (slots[k].chunks.empty()) {
                        more = slots[k].finished;  // else stopped by an error
                        break;
                    }
                    out = std::move(slots[k].chunks.front());
                    slots[k].chunks.pop_front();
                    cv.notify_all();
                }
                const bool go_on = consume(out);
                {
                    std::lock_guard<std::mutex> lock(m);
                    out.clear();  // also when the sink stopped midway
                    spare.push_back(std::move(out));
                }
                if (!go_on) {
                    more = false;
                    break;
                }
            }
            std::lock_guard<std::mutex> lock(m);
            consumed = k + 1;
            if (!more) stop = true;
            cv.notify_all();
        }
        {
            std::lock_guard<std::mutex> lock(m);
            stop = true;
            cv.notify_all();
        }
        for (std::thread& t : pool) t.join();
        if (error) std::rethrow_exception(error);
    }
    res.summary.collisions = emitted;

    res.rules.resize(rules.size());
    for (std::size_t k = 0; k < rules.size(); ++k) {
        RuleResult& out = res.rules[k];
        switch (scene.rules[k].expect) {
            case Rule::Expect::None:
                rules[k].violations.move_into(out.violations);
                out.passed = rules[k].hits == 0;
                break;
            case Rule::Expect::Some: out.passed = rules[k].hits > 0; break;
            case Rule::Expect::Each: {
                std::vector<std::size_t> left;
                sel.rule_left(k, left);
                for (const std::size_t i : left) {
                    const std::size_t rank = sel.rule_left_rank(k, i);
                    if (!((rules[k].satisfied[rank >> 6] >> (rank & 63)) & 1u))
                        out.violations.emplace_back(i, static_cast<std::size_t>(-1));
                }
                out.passed = out.violations.empty();
                break;
            }
        }
        std::sort(out.violations.begin(), out.violations.end());
        if (!out.passed) ++res.summary.rules_failed;
    }

    res.moves.reserve(scene.moves.size());
    for (const Move& m : scene.moves) {
        MoveResult mr = detail::run_move(m, scene.grids[m.grid]);
        if (m.expect_allowed) {
            mr.passed = *m.expect_allowed == mr.allowed;
            if (!*mr.passed) ++res.summary.rules_failed;
        }
        if (!mr.allowed) ++res.summary.blocked;
        res.moves.push_back(mr);
    }

    res.summary.shapes = ns;
    res.summary.grids = scene.grids.size();
    res.summary.moves = scene.moves.size();
    return res;
}

}  // namespace collide
