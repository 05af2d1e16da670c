#include "scene/simple_polygon.hpp"

#include "collide/scene.hpp"
#include "geometry/pieces.hpp"

#include <algorithm>
#include <iterator>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace collide {
namespace detail {
namespace {

std::size_t next(std::size_t i, std::size_t n) { return i + 1 == n ? 0 : i + 1; }

bool consecutive(std::size_t i, std::size_t j, std::size_t n) { return next(i, n) == j || next(j, n) == i; }

// How edges i and j meet where a simple ring's edges must not (kind None when they do not):
// anywhere at all, except consecutive edges at the vertex they share.
//
// Consecutive edges a -> b -> c share b, so the general test meets exact zeros there (b
// lies on both lines), and every zero is decided by exact arithmetic, not by the float
// filter: that was a quarter of reading a scene of small polygons. Two segments on
// distinct lines meet in at most one point, here b: so when orient(a, b, c) != 0 (decided
// by the filter unless the three points are nearly collinear) they meet only at b, which
// is no contact. Collinear neighbours (overlapping or not) take the general test.
PieceHit contact(Ring r, std::size_t i, std::size_t j) {
    if (consecutive(i, j, r.n)) {
        const std::size_t first = next(i, r.n) == j ? i : j;  // edge first ends where the other starts
        const std::size_t mid = next(first, r.n);
        if (orient(r[first], r[mid], r[next(mid, r.n)]) != 0) return PieceHit{};
    }
    PieceHit h = intersect(r.edge(i), r.edge(j));
    if (h.kind == PieceHit::Point && consecutive(i, j, r.n)) h.kind = PieceHit::None;
    return h;
}

RingDefect defect(std::size_t i, std::size_t j, const PieceHit& h) {
    return RingDefect{std::min(i, j), std::max(i, j), h.kind == PieceHit::Overlap};
}

struct Box {
    double lo_x, hi_x, lo_y, hi_y;
};

Box box(Ring r, std::size_t i) {
    const Vec2& a = r[i];
    const Vec2& b = r[next(i, r.n)];
    return Box{std::min(a.x, b.x), std::max(a.x, b.x), std::min(a.y, b.y), std::max(a.y, b.y)};
}

// The naming rule of the header over some of the ring's edges: in order of smallest x
// (ties by index), the first edge with a bad contact with a later one, and the first such.
// Only edges whose x extents overlap can meet, so each edge looks ahead until the next
// edge starts right of its end; most of those are then dismissed by their y extents
// before the exact test.
std::optional<RingDefect> first_by_x(Ring r, std::vector<std::size_t>& edges) {
    std::vector<Box> boxes(edges.size());
    auto lo_x = [&](std::size_t e) { return std::min(r[e].x, r[next(e, r.n)].x); };
    std::sort(edges.begin(), edges.end(), [&](std::size_t a, std::size_t b) {
        const double xa = lo_x(a);
        const double xb = lo_x(b);
        return xa < xb || (xa == xb && a < b);
    });
    for (std::size_t k = 0; k < edges.size(); ++k) boxes[k] = box(r, edges[k]);
    for (std::size_t oi = 0; oi < edges.size(); ++oi) {
        const Box& bi = boxes[oi];
        for (std::size_t oj = oi + 1; oj < edges.size() && boxes[oj].lo_x <= bi.hi_x; ++oj) {
            if (boxes[oj].lo_y > bi.hi_y || boxes[oj].hi_y < bi.lo_y) continue;
            const PieceHit h = contact(r, edges[oi], edges[oj]);
            if (h.kind != PieceHit::None) return defect(edges[oi], edges[oj], h);
        }
    }
    return std::nullopt;
}

// The sweep of the header. The status holds the edges that the sweep line crosses, bottom
// to top; `where_` keeps each one's place so that an edge leaves without a search.
class Sweep {
public:
    explicit Sweep(Ring r) : r_(r), status_(Below{r}), where_(r.n) {}

    std::optional<RingDefect> run() {
        const std::size_t n = r_.n;
        std::vector<std::size_t> events(n);
        std::iota(events.begin(), events.end(), std::size_t{0});
        std::sort(events.begin(), events.end(), [&](std::size_t a, std::size_t b) {
            return r_[a] < r_[b] || (r_[a] == r_[b] && a < b);
        });
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t v = events[k];
            const Vec2 p = r_[v];
            // A second vertex at the same point: the ring touches itself there.
            if (k + 1 < n && r_[events[k + 1]] == p) return at_point(p);
            if (auto d = vertex(v, p)) return d;
        }
        return std::nullopt;
    }

private:
    // Edge e is below edge f on the sweep line, for two edges that both cross it at the
    // current event and do not meet left of it: the edge that starts later is placed by
    // the side of the other on which it starts; two that start together, by their
    // directions. Zero (neither below) only for edges that meet at the current event,
    // which vertex() rules out before inserting. Point overloads place a point against
    // the edges: equal to those through it.
    struct Below {
        Ring r;
        using is_transparent = void;
        Vec2 left(std::size_t e) const { return std::min(r[e], r[next(e, r.n)]); }
        Vec2 right(std::size_t e) const { return std::max(r[e], r[next(e, r.n)]); }
        bool operator()(std::size_t e, std::size_t f) const {
            const Vec2 le = left(e);
            const Vec2 lf = left(f);
            if (le == lf) return orient(le, right(e), right(f)) > 0;
            if (le < lf) return orient(le, right(e), lf) > 0;
            return orient(lf, right(f), le) < 0;
        }
        bool operator()(std::size_t e, const Vec2& p) const { return orient(left(e), right(e), p) > 0; }
        bool operator()(const Vec2& p, std::size_t e) const { return orient(left(e), right(e), p) < 0; }
    };
    using Status = std::set<std::size_t, Below>;

    // The event at vertex v (the only vertex at point p). Edges through p other than v's
    // own two are a defect; so are v's two edges when both leave p in the same direction.
    // Else v's edges that end at p leave the status and those that start there enter it,
    // and the edges that have just become neighbours are tested.
    std::optional<RingDefect> vertex(std::size_t v, const Vec2& p) {
        const std::size_t n = r_.n;
        const std::size_t e_in = (v + n - 1) % n;  // from vertex v - 1 to p
        const std::size_t e_out = v;               // from p to vertex v + 1
        const auto [lo, hi] = status_.equal_range(p);
        for (auto it = lo; it != hi; ++it)
            if (*it != e_in && *it != e_out) return at_point(p);
        const Vec2& in_end = r_[e_in];
        const Vec2& out_end = r_[next(v, n)];
        const bool in_starts = p < in_end;
        const bool out_starts = p < out_end;
        if (in_starts && out_starts && orient(p, in_end, out_end) == 0) return at_point(p);
        if (!in_starts) status_.erase(where_[e_in]);
        if (!out_starts) status_.erase(where_[e_out]);
        if (!in_starts && !out_starts) {
            const auto above = status_.lower_bound(p);
            if (above != status_.begin() && above != status_.end()) return check(*std::prev(above), *above);
            return std::nullopt;
        }
        for (const std::size_t e : {e_in, e_out}) {
            if (e == e_in ? !in_starts : !out_starts) continue;
            const auto [it, fresh] = status_.insert(e);
            if (!fresh) return fallback();  // an edge equal to e: they meet at p (ruled out above)
            where_[e] = it;
        }
        for (const std::size_t e : {e_in, e_out}) {
            if (e == e_in ? !in_starts : !out_starts) continue;
            const auto it = where_[e];
            if (it != status_.begin())
                if (auto d = check(*std::prev(it), e)) return d;
            if (std::next(it) != status_.end())
                if (auto d = check(e, *std::next(it))) return d;
        }
        return std::nullopt;
    }

    // Neighbours e and f: a defect if they meet. A proper crossing names them; a contact
    // at an input point (an end of an overlap: the one the sweep meets first) is named as
    // at_point names it.
    std::optional<RingDefect> check(std::size_t e, std::size_t f) {
        const PieceHit h = contact(r_, e, f);
        if (h.kind == PieceHit::None) return std::nullopt;
        if (h.kind == PieceHit::Point && h.proper) return defect(e, f, h);
        if (h.kind == PieceHit::Point) return at_point(h.point);
        return at_point(std::min(h.lo, h.hi));
    }

    // The ring touches itself at p: the naming rule over the edges through p.
    std::optional<RingDefect> at_point(const Vec2& p) const {
        std::vector<std::size_t> through;
        for (std::size_t i = 0; i < r_.n; ++i) {
            const Box b = box(r_, i);
            if (p.x < b.lo_x || p.x > b.hi_x || p.y < b.lo_y || p.y > b.hi_y) continue;
            if (on_piece(r_.edge(i), p)) through.push_back(i);
        }
        if (auto d = first_by_x(r_, through)) return d;
        return fallback();
    }

    // Only reached if the reasoning above were wrong: stay correct, if slowly.
    std::optional<RingDefect> fallback() const { return ring_defect_pairwise(r_); }

    Ring r_;
    Status status_;
    std::vector<Status::iterator> where_;
};

}  // namespace

std::optional<RingDefect> ring_defect_pairwise(Ring ring) {
    std::vector<std::size_t> edges(ring.n);
    std::iota(edges.begin(), edges.end(), std::size_t{0});
    return first_by_x(ring, edges);
}

std::optional<RingDefect> ring_defect_sweep(Ring ring) { return Sweep(ring).run(); }

std::optional<RingDefect> ring_defect(Ring ring) {
    return ring.n < kSweepFromVertices ? ring_defect_pairwise(ring) : ring_defect_sweep(ring);
}

}  // namespace detail

std::optional<std::vector<Vec2>> simple_polygon(const std::vector<Vec2>& points, std::string& why) {
    using namespace detail;
    std::vector<Vec2> ring;
    std::vector<std::size_t> input_index;  // for messages in the user's numbering
    ring.reserve(points.size());
    input_index.reserve(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!ring.empty() && ring.back() == points[i]) continue;
        ring.push_back(points[i]);
        input_index.push_back(i);
    }
    while (ring.size() > 1 && ring.front() == ring.back()) {
        ring.pop_back();
        input_index.pop_back();
    }
    if (ring.size() < 3) {
        why = "a polygon needs at least 3 distinct vertices, got " + std::to_string(ring.size()) +
              " after dropping repeated ones";
        return std::nullopt;
    }
    const Ring r{ring.data(), ring.size()};
    const std::size_t n = ring.size();
    bool on_one_line = true;
    for (std::size_t i = 2; i < n && on_one_line; ++i) on_one_line = orient(ring[0], ring[1], ring[i]) == 0;
    if (on_one_line) {
        why = "the polygon has zero area: its points lie on one line";
        return std::nullopt;
    }
    if (const auto d = ring_defect(r)) {
        auto edge_name = [&](std::size_t e) {
            return "the edge from point " + std::to_string(input_index[e]) + " to point " +
                   std::to_string(input_index[next(e, n)]);
        };
        why = "the polygon intersects itself: " + edge_name(d->first) + " and " + edge_name(d->second) +
              (d->overlap ? " overlap" : " meet");
        return std::nullopt;
    }
    if (ring_orientation(r) == 0) {
        why = "the polygon has zero area";
        return std::nullopt;
    }
    return ring;
}

}  // namespace collide
