// Moves against what a selector selects (moves_against.hpp): the broad phase and the choice
// of the first hit; the sweep of one body past one obstacle is sweep.cpp's.
#include "moves_against.hpp"

#include "broadphase.hpp"
#include "in_parts.hpp"
#include "sweep.hpp"

#include <algorithm>
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

// The first obstacle a move hits, or an allowed move. `candidates` are shape indices,
// ascending.
MoveResult first_hit(const Scene& scene, const Move& m, const std::vector<std::uint32_t>& candidates,
                     const std::vector<std::uint32_t>& grids) {
    std::optional<SweepTime> best;
    std::size_t hit = 0;
    Cell cell;
    for (const std::uint32_t i : candidates) {
        const auto t = first_contact(m, scene.shapes[i].shape);
        if (t && (!best || compare(*t, *best) < 0)) {  // ties: the lower index, met first
            best = *t;
            hit = i;
        }
    }
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

void run_selector(const Scene& scene, const Obstacles& o, std::vector<MoveResult>& results, unsigned threads) {
    // One index over the obstacles' bounds and the moves' swept bounds; only the moves are
    // queried, so pairs of obstacles cost nothing.
    const std::size_t ns = o.shapes.size();
    std::vector<Bounds> exact;
    exact.reserve(ns + o.moves.size());
    for (const std::uint32_t i : o.shapes) exact.push_back(bounds_of(scene.shapes[i].shape));
    for (const std::size_t k : o.moves) exact.push_back(swept_bounds(scene.moves[k]));
    std::vector<Bounds> sample;
    for (std::size_t k = 0; k < exact.size(); k += std::max<std::size_t>(1, exact.size() / 64)) sample.push_back(exact[k]);
    const FloatFrame frame = frame_for(std::move(sample));
    std::vector<FBounds> bounds(exact.size());
    for (std::size_t k = 0; k < exact.size(); ++k) bounds[k] = outward(exact[k], frame);
    exact.clear();
    exact.shrink_to_fit();
    std::vector<std::uint32_t> items(bounds.size());
    for (std::size_t k = 0; k < items.size(); ++k) items[k] = static_cast<std::uint32_t>(k);
    const BroadIndex index(std::move(bounds), items, Broadphase::Auto, threads);

    const unsigned parts = threads > 1 && o.moves.size() >= kTwoThreadMoves ? 2 : 1;
    in_parts(parts, [&](unsigned part) {
        std::vector<std::uint32_t> found, candidates;
        const std::size_t to = o.moves.size() * (part + 1) / parts;
        for (std::size_t p = o.moves.size() * part / parts; p < to; ++p) {
            index.query(static_cast<std::uint32_t>(ns + p), found);
            candidates.clear();
            for (const std::uint32_t e : found)
                if (e < ns) candidates.push_back(o.shapes[e]);  // ascending, as `found` is
            const std::size_t k = o.moves[p];
            results[k] = first_hit(scene, scene.moves[k], candidates, o.grids);
        }
    });
}

}  // namespace

void run_moves_against(const Scene& scene, std::vector<MoveResult>& results, std::vector<std::string>& empty,
                       unsigned threads) {
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
        run_selector(scene, o, results, threads);
    }
}

}  // namespace collide::detail
