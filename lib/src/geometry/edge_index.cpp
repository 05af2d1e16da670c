#include "geometry/edge_index.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace collide::detail {

Bounds box_of(const Piece& s) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    switch (s.kind) {
        case PieceKind::Segment: return segment_box(s.p, s.q);
        case PieceKind::Ray: {
            Bounds b{s.p, s.p};
            if (s.q.x > 0) b.max.x = inf;
            if (s.q.x < 0) b.min.x = -inf;
            if (s.q.y > 0) b.max.y = inf;
            if (s.q.y < 0) b.min.y = -inf;
            return b;
        }
        case PieceKind::Line: break;
    }
    return Bounds{Vec2{-inf, -inf}, Vec2{inf, inf}};
}

Bounds box_of(const Circle& c) {
    // c +- r rounded, then one ulp further out: the exact ends lie within half an ulp.
    constexpr double inf = std::numeric_limits<double>::infinity();
    auto lo = [&](double v) { return std::nextafter(v - c.radius, -inf); };
    auto hi = [&](double v) { return std::nextafter(v + c.radius, inf); };
    return Bounds{Vec2{lo(c.center.x), lo(c.center.y)}, Vec2{hi(c.center.x), hi(c.center.y)}};
}

std::vector<Piece> polyline_pieces(const std::vector<Vec2>& points) {
    std::vector<Piece> pieces;
    if (points.size() > 1) pieces.reserve(points.size() - 1);
    for (std::size_t i = 1; i < points.size(); ++i) {
        const Vec2 from = pieces.empty() ? points[0] : pieces.back().q;
        if (points[i] != from) pieces.push_back(Piece{PieceKind::Segment, from, points[i]});
    }
    return pieces;
}

EdgeIndex::EdgeIndex(Ring ring) : ring_(ring), n_(ring.n), orientation_(ring.n >= 3 ? ring_orientation(ring) : 0) { build(); }

EdgeIndex::EdgeIndex(std::vector<Piece> pieces) : pieces_(std::move(pieces)), n_(pieces_.size()) { build(); }

void EdgeIndex::build() {
    constexpr std::size_t kLeaf = 8;
    auto join = [](const Bounds& a, const Bounds& b) {
        return Bounds{Vec2{std::min(a.min.x, b.min.x), std::min(a.min.y, b.min.y)},
                   Vec2{std::max(a.max.x, b.max.x), std::max(a.max.y, b.max.y)}};
    };
    const std::size_t leaves = std::max<std::size_t>(1, (n_ + kLeaf - 1) / kLeaf);
    boxes_.reserve(2 * leaves + 64);
    levels_.push_back(0);
    for (std::size_t k = 0; k < leaves; ++k) {
        Bounds b = n_ > 0 ? edge_box(k * kLeaf) : Bounds{};
        for (std::size_t i = k * kLeaf + 1; i < std::min(n_, (k + 1) * kLeaf); ++i) b = join(b, edge_box(i));
        boxes_.push_back(b);
    }
    levels_.push_back(boxes_.size());
    while (levels_.back() - levels_[levels_.size() - 2] > 1) {
        const std::size_t from = levels_[levels_.size() - 2];
        const std::size_t to = levels_.back();
        for (std::size_t k = from; k < to; k += 2) boxes_.push_back(k + 1 < to ? join(boxes_[k], boxes_[k + 1]) : boxes_[k]);
        levels_.push_back(boxes_.size());
    }
    extremes_.fill(n_ > 0 ? edge(0).p : Vec2{});
    for (std::size_t i = 0; i < n_; ++i) {
        const Vec2 v = edge(i).p;
        if (v.x < extremes_[0].x) extremes_[0] = v;
        if (v.x > extremes_[1].x) extremes_[1] = v;
        if (v.y < extremes_[2].y) extremes_[2] = v;
        if (v.y > extremes_[3].y) extremes_[3] = v;
    }
}

namespace {

// The crossing count of locate_in_polygon over the edges whose boxes meet `ray`.
template <class Q>
int count_crossings(const EdgeIndex& index, const Q& x, const Bounds& ray) {
    bool inside = false;
    bool on = false;
    index.each_meeting(ray, [&](std::size_t i) {
        const int r = ray_crossing(index.edge(i), x);
        if (r == 0) on = true;
        if (r > 0) inside = !inside;
        return !on;
    });
    return on ? 0 : (inside ? 1 : -1);
}

}  // namespace

int locate_indexed(const EdgeIndex& index, const Vec2& x) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    return count_crossings(index, x, Bounds{x, Vec2{inf, x.y}});
}

int locate_indexed(const EdgeIndex& index, const Mid& x) {
    // The midpoint is not a double: a box holding it (and the ray from it) in input coordinates.
    constexpr double inf = std::numeric_limits<double>::infinity();
    const Bounds ray{Vec2{std::min(x.u.x, x.v.x), std::min(x.u.y, x.v.y)}, Vec2{inf, std::max(x.u.y, x.v.y)}};
    return count_crossings(index, x, ray);
}

std::unique_ptr<EdgeIndex> index_if_big(const Shape& s) {
    if (!may_be_big(s)) return nullptr;
    if (const auto* p = std::get_if<Polygon>(&s))
        if (p->points.size() >= kIndexFrom) return std::make_unique<EdgeIndex>(Ring{p->points.data(), p->points.size()});
    if (const auto* l = std::get_if<Polyline>(&s)) {
        if (l->points.size() >= kIndexFrom) {
            std::vector<Piece> pieces = polyline_pieces(l->points);
            if (!pieces.empty()) return std::make_unique<EdgeIndex>(std::move(pieces));
        }
    }
    return nullptr;
}

}  // namespace collide::detail
