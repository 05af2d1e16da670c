// The pair tests of straight pieces (lines, rays, segments, polylines, degenerate rects and
// capsules) against straight pieces, disks and polygons: where pieces meet, whether one's
// shared parts cover another, and how each piece lies against a region (pieces.cpp). Part of
// the pair test (pair_test.cpp), which dispatches to these through its table.
#include "queries/pair_geo.hpp"

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace collide::detail {

// ---- straight pieces ---------------------------------------------------------------------

namespace {

using Span = PieceSpan;  // scratch.hpp

// Whether the spans (parts of s) cover all of s.
bool covers(const Piece& s, std::vector<Span>& spans) {
    std::sort(spans.begin(), spans.end(), [&](const Span& x, const Span& y) {
        if (!y.has_lo) return false;
        if (!x.has_lo) return true;
        return along(s, x.lo, y.lo) > 0;
    });
    bool reached_any = s.kind != PieceKind::Line;  // false while the reach is -infinity
    Vec2 reach = s.p;
    for (const Span& sp : spans) {
        if (sp.has_lo && (!reached_any || along(s, reach, sp.lo) > 0)) return false;  // a gap
        if (!sp.has_hi) return true;
        if (!reached_any || along(s, reach, sp.hi) > 0) reach = sp.hi;
        reached_any = true;
    }
    return s.kind == PieceKind::Segment && reached_any && along(s, s.q, reach) >= 0;
}

// Whether every piece is covered by its spans, given as (piece, span) pairs: a piece
// with none is not.
bool all_covered(PieceRun pieces, std::vector<std::pair<std::size_t, Span>>& spans) {
    std::sort(spans.begin(), spans.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<Span> own;
    std::size_t k = 0;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        own.clear();
        for (; k < spans.size() && spans[k].first == i; ++k) own.push_back(spans[k].second);
        if (own.empty() || !covers(pieces[i], own)) return false;
    }
    return true;
}

}  // namespace

Topo linear_linear(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch& scratch) {
    Topo t;
    // The shared pieces found, by piece: few pieces of a big polyline have any, so they are
    // kept as a list (the worker's buffers, reused) rather than a list for every piece.
    std::vector<std::pair<std::size_t, Span>>& cover_a = scratch.cover_a;
    std::vector<std::pair<std::size_t, Span>>& cover_b = scratch.cover_b;
    cover_a.clear();
    cover_b.clear();
    each_piece_pair(a, b, [&](std::size_t i, std::size_t j) {
        const Piece& pa = a.pieces()[i];
        const Piece& pb = b.pieces()[j];
        const PieceHit h = intersect(pa, pb);
        if (h.kind == PieceHit::None) return;
        t.intersects = true;
        if (h.kind == PieceHit::Point) {
            if (pts && h.representable) pts->push_back(h.point);
            if (!t.interiors) {
                // The meeting point is a boundary point of a or b exactly when one of
                // those lies on both pieces.
                bool on_bd = false;
                for (int k = 0; k < a.nbd && !on_bd; ++k) on_bd = on_piece(pa, a.bd[k]) && on_piece(pb, a.bd[k]);
                for (int k = 0; k < b.nbd && !on_bd; ++k) on_bd = on_piece(pa, b.bd[k]) && on_piece(pb, b.bd[k]);
                if (!on_bd) t.interiors = true;
            }
            return;
        }
        t.interiors = true;  // a shared piece of positive length
        if (pts) {
            if (h.has_lo) pts->push_back(h.lo);
            if (h.has_hi) pts->push_back(h.hi);
        }
        cover_a.emplace_back(i, Span{h.has_lo, h.has_hi, h.lo, h.hi});
        const PieceHit hb = intersect(pb, pa);
        cover_b.emplace_back(j, Span{hb.has_lo, hb.has_hi, hb.lo, hb.hi});
    });
    if (!t.intersects) return t;
    t.a_in_b = all_covered(a.pieces(), cover_a);
    t.b_in_a = all_covered(b.pieces(), cover_b);
    return t;
}

namespace {

// near: a box holding the region, read when a has an index.
template <class Region>
Topo linear_region(const Geo& a, const Region& region, const Bounds& near, std::vector<Vec2>* pts, Scratch& scratch) {
    Topo t;
    bool outside = false;
    ChainStart chain;  // a polyline's pieces far from a polygon are located once
    const std::size_t seen = each_edge_near(a, near, [&](std::size_t i) {
        const Piece& s = a.pieces()[i];
        PieceClass c;
        if constexpr (std::is_same_v<Region, PolygonRef>) {
            c = classify(s, region, pts, scratch.events, chain.of(i));
            if (s.kind == PieceKind::Segment) chain.after(i, c);
        } else {
            c = classify(s, region, pts);
        }
        t.intersects |= c.inside || c.boundary;
        t.interiors |= c.inside;
        outside |= c.outside;
        return true;
    });
    outside |= seen < a.pieces().size();  // a piece whose box misses the region's
    t.a_in_b = t.intersects && !outside;
    return t;
}

}  // namespace

Topo linear_disk(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch& scratch) {
    return linear_region(a, b.disk, a.index ? box_of(b.disk) : Bounds{}, pts, scratch);
}
Topo linear_polygon(const Geo& a, const Geo& b, std::vector<Vec2>* pts, Scratch& scratch) {
    return linear_region(a, b.polygon(), a.index ? polygon_box(b) : Bounds{}, pts, scratch);
}

}  // namespace collide::detail
