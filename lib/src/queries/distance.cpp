// distance() and compare_distance() of two shapes (SPEC §2.6), exactly.
//
// Pairs that collide are at distance 0 (collide() decides, which covers a concave polygon
// holding the other shape). Otherwise the distance is the least term of distance_terms.hpp
// over the cores of the two shapes: every pair type goes through the same enumeration of
// cores, and reversed pairs are the same pairs. The small shapes a million-shape scene is made
// of (points, circles, rects) have one term per pair and skip the collision test: whether
// they collide is that term against 0. Big polygons and polylines are read through their
// edge index (edge_index.hpp), so only edges within reach of the other side's pieces are
// visited: the bound d when comparing, the least value seen so far when computing distance().
#include "collide/geometry.hpp"
#include "queries/distance.hpp"

#include "queries/collide_into.hpp"
#include "queries/distance_cores.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace collide {
namespace detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- one term for the small convex shapes ----------------------------------------------------

// Point, circle (centre and radius) or rect: what the single-term pairs read.
struct Small {
    bool rect = false;
    Vec2 c;       // point or centre
    double r = 0.0;
    Rect box;
};
std::optional<Small> small_of(const Geo& g) {
    switch (g.type) {
        case ShapeType::Point: return Small{false, g.pt, 0.0, {}};
        case ShapeType::Circle: return Small{false, g.disk.center, g.disk.radius, {}};
        case ShapeType::Rect: return Small{true, {}, 0.0, g.rect};
        default: return std::nullopt;
    }
}

// The nearest point of [lo, hi] to v on one axis, as an input coordinate (exact).
double clamp_axis(double v, double lo, double hi) { return v < lo ? lo : (v > hi ? hi : v); }

// The nearest coordinates of two intervals: equal where they overlap.
void gap_axis(double alo, double ahi, double blo, double bhi, double& a, double& b) {
    if (ahi < blo) {
        a = ahi;
        b = blo;
    } else if (bhi < alo) {
        a = alo;
        b = bhi;
    } else {
        a = b = std::max(alo, blo);
    }
}

// The nearest points of two small shapes.
std::pair<Vec2, Vec2> nearest_points(const Small& a, const Small& b) {
    Vec2 pa = a.c;
    Vec2 pb = b.c;
    if (a.rect && b.rect) {
        gap_axis(a.box.min.x, a.box.max.x, b.box.min.x, b.box.max.x, pa.x, pb.x);
        gap_axis(a.box.min.y, a.box.max.y, b.box.min.y, b.box.max.y, pa.y, pb.y);
    } else if (a.rect) {
        pa = Vec2{clamp_axis(pb.x, a.box.min.x, a.box.max.x), clamp_axis(pb.y, a.box.min.y, a.box.max.y)};
    } else if (b.rect) {
        pb = Vec2{clamp_axis(pa.x, b.box.min.x, b.box.max.x), clamp_axis(pa.y, b.box.min.y, b.box.max.y)};
    }
    return {pa, pb};
}

// sign(|pa - pb| - (ra + rb + d)) of two small shapes: in plain doubles when clear, since
// every near-pair candidate of a big scene asks. Each difference and each sum of
// non-negative terms rounds once, so q = dx^2 + dy^2 and k^2 = (ra + rb + d)^2 are each off
// by less than 8 u of themselves (u = 2^-53): a gap above 2^-48 (q + k^2) is real, while
// nothing is near underflow or overflow. Otherwise the exact term decides.
int compare_small(const Small& a, const Small& b, double d) {
    const auto [pa, pb] = nearest_points(a, b);
    const double dx = pa.x - pb.x;
    const double dy = pa.y - pb.y;
    const double q = dx * dx + dy * dy;
    const double k = (a.r + b.r) + d;
    const double k2 = k * k;
    const double scale = q + k2;
    if (scale >= 0x1p-900 && scale <= 0x1p900) {
        const double gap = q - k2;
        if (gap > scale * 0x1p-48) return 1;
        if (-gap > scale * 0x1p-48) return -1;
    }
    return compare_term(Term{Term::PointPoint, cpoint(pa), cpoint(pb), {}}, Radii{a.r, b.r}, d);
}

}  // namespace

Cores cores_of(const Geo& g) {
    Cores c;
    switch (g.kind) {
        case GeoKind::Point:
            c.is_point = true;
            c.point = g.pt;
            break;
        case GeoKind::Disk:
            c.r = g.disk.radius;
            c.is_point = true;
            c.point = g.disk.center;
            break;
        case GeoKind::Capsule:
            c.r = g.capsule.r;
            c.pieces.push_back(g.capsule.core);
            break;
        case GeoKind::Linear:
            c.index = g.index;
            if (!c.index) c.pieces.assign(g.pieces().begin(), g.pieces().end());
            break;
        case GeoKind::Polygon: {
            c.index = g.index;
            if (c.index) break;
            const Ring ring = g.ring();
            for (std::size_t i = 0; i < ring.n; ++i)
                if (ring.edge(i).p != ring.edge(i).q) c.pieces.push_back(ring.edge(i));
            if (c.pieces.empty()) {  // invalid: the point it is (none: the origin)
                c.is_point = true;
                c.point = ring.n > 0 ? ring[0] : Vec2{};
            }
            break;
        }
    }
    return c;
}

namespace {

// ---- the terms of two cores ---------------------------------------------------------------------

// The terms of two disjoint straight pieces: each end of one against the other piece; two
// (parallel) lines have no ends, one's defining point stands for it.
void piece_terms(const Piece& a, const Piece& b, TermSet& ts) {
    if (a.kind == PieceKind::Line && b.kind == PieceKind::Line) {
        ts.add(point_piece(cpoint(a.p), b));
        return;
    }
    if (a.kind != PieceKind::Line) ts.add(point_piece(cpoint(a.p), b));
    if (a.kind == PieceKind::Segment) ts.add(point_piece(cpoint(a.q), b));
    if (b.kind != PieceKind::Line) ts.add(point_piece(cpoint(b.p), a));
    if (b.kind == PieceKind::Segment) ts.add(point_piece(cpoint(b.q), a));
}

// Distance mode against a big side: the pieces nearest the box q first, from boxes grown
// twice as much each time until one meets a piece, so that the least value seen, and with it
// the reach of every later query, is small from the start.
template <class F>
void seed_near(const Cores& other, const Bounds& q, F&& add) {
    if (!other.index) return;
    const Bounds& all = other.index->bounds();
    double e = std::max(all.max.x - all.min.x, all.max.y - all.min.y) * 0x1p-12;
    if (!(e > 0.0) || !std::isfinite(e)) return;
    for (int i = 0; i < 64 && std::isfinite(e); ++i, e *= 2.0) {
        bool any = false;
        other.index->each_meeting(grown(q, e), [&](std::size_t j) {
            any = true;
            add(other.index->edge(j));
            return true;
        });
        if (any) return;
    }
}

// Every term of two non-colliding cores within reach.
void core_terms(const Cores& a, const Cores& b, Radii r, TermSet& ts, bool distance_mode) {
    // A term between two points of the sets bounds the distance from above: it starts the
    // distance mode's pruning (and is the only term of two points).
    if (distance_mode || (a.is_point && b.is_point)) ts.add(Term{Term::PointPoint, cpoint(a.first()), cpoint(b.first()), {}});
    if (a.is_point && b.is_point) return;
    if (a.is_point || b.is_point) {
        const Cores& p = a.is_point ? a : b;
        const Cores& s = a.is_point ? b : a;
        auto add = [&](const Piece& e) { ts.add(point_piece(cpoint(p.point), e)); };
        if (distance_mode) seed_near(s, Bounds{p.point, p.point}, add);
        each_piece_near(s, grown(Bounds{p.point, p.point}, core_reach(ts, r)), add);
        return;
    }
    // The side with fewer pieces drives; the other is searched by box.
    const bool a_drives = a.size() <= b.size();
    const Cores& drive = a_drives ? a : b;
    const Cores& other = a_drives ? b : a;
    for (std::size_t i = 0; i < drive.size() && !ts.done(); ++i) {
        const Piece e = drive.piece(i);
        auto add = [&](const Piece& f) {
            if (!ts.done()) piece_terms(e, f, ts);
        };
        if (distance_mode && i == 0) seed_near(other, box_of(e), add);
        each_piece_near(other, grown(box_of(e), core_reach(ts, r)), add);
    }
}

// Calls f(part, what it keeps) for each part of a compound, or f(s, what it keeps) for any
// other shape, with what is prepared about it.
template <class F>
void each_part(const Shape& s, Prepared p, F&& f) {
    if (const auto* c = std::get_if<Compound>(&s)) {
        for (std::size_t i = 0; i < c->parts.size(); ++i) f(c->parts[i], p.part_keep(i));
    } else {
        f(s, p.keep());
    }
}

// The least value of two cores (distance mode), or their sign against d (compare mode),
// for cores of shapes that do not collide.
double pair_distance(const Cores& a, const Cores& b) {
    const Radii r{a.r, b.r};
    TermSet ts(r, std::nullopt);
    core_terms(a, b, r, ts, true);
    return ts.least();
}
int pair_compare(const Cores& a, const Cores& b, double d) {
    const Radii r{a.r, b.r};
    TermSet ts(r, d);
    core_terms(a, b, r, ts, false);
    return ts.sign();
}

// The same over every pair of parts (a shape that is no compound is its one part).
double parts_distance(const Shape& a, const Shape& b, Prepared pa, Prepared pb) {
    double best = kInf;
    each_part(a, pa, [&](const Shape& part_a, GeoKeep ia) {
        const OwnedGeo ga = make_owned_geo(part_a, ia);
        const Cores ca = cores_of(ga.geo);
        each_part(b, pb, [&](const Shape& part_b, GeoKeep ib) {
            best = std::min(best, pair_distance(ca, cores_of(make_owned_geo(part_b, ib).geo)));
        });
    });
    return std::max(best, 0.0);
}
int parts_compare(const Shape& a, const Shape& b, double d, Prepared pa, Prepared pb) {
    int result = 1;
    each_part(a, pa, [&](const Shape& part_a, GeoKeep ia) {
        if (result < 0) return;
        const OwnedGeo ga = make_owned_geo(part_a, ia);
        const Cores ca = cores_of(ga.geo);
        each_part(b, pb, [&](const Shape& part_b, GeoKeep ib) {
            if (result >= 0) result = std::min(result, pair_compare(ca, cores_of(make_owned_geo(part_b, ib).geo), d));
        });
    });
    return result;
}

bool is_compound(const Shape& s) { return type_of(s) == ShapeType::Compound; }

// The distance of two small shapes, correctly rounded (0 when they collide).
double small_distance(const Small& a, const Small& b) {
    if (compare_small(a, b, 0.0) <= 0) return 0.0;
    const auto [near_a, near_b] = nearest_points(a, b);
    const Term t{Term::PointPoint, cpoint(near_a), cpoint(near_b), {}};
    const Radii r{a.r, b.r};
    const Span s = span_of(t, r);
    return std::max(0.0, round_term(t, r, std::isfinite(s.hi) ? s.hi : 0.0));
}

}  // namespace

// Each side is reduced once (with an edge index of its own when it is big and none was
// prepared), for the collision test and the terms alike.
double distance(const Shape& a, const Shape& b, Prepared pa, Prepared pb, Scratch& scratch) {
    if (is_compound(a) || is_compound(b))
        return collide_into(a, b, nullptr, pa, pb, scratch) ? 0.0 : parts_distance(a, b, pa, pb);
    const OwnedGeo ga = make_owned_geo(a, pa.keep());
    const OwnedGeo gb = make_owned_geo(b, pb.keep());
    const std::optional<Small> sa = small_of(ga.geo);
    const std::optional<Small> sb = sa ? small_of(gb.geo) : std::nullopt;
    if (sa && sb) return small_distance(*sa, *sb);
    if (collide_geos(ga.geo, gb.geo, nullptr, scratch)) return 0.0;
    return std::max(0.0, pair_distance(cores_of(ga.geo), cores_of(gb.geo)));
}

int compare_distance(const Shape& a, const Shape& b, double d, Prepared pa, Prepared pb, Scratch& scratch) {
    const int at_zero = d > 0.0 ? -1 : 0;  // the answer for a colliding pair
    if (is_compound(a) || is_compound(b))
        return collide_into(a, b, nullptr, pa, pb, scratch) ? at_zero : parts_compare(a, b, d, pa, pb);
    const OwnedGeo ga = make_owned_geo(a, pa.keep());
    const OwnedGeo gb = make_owned_geo(b, pb.keep());
    const std::optional<Small> sa = small_of(ga.geo);
    const std::optional<Small> sb = sa ? small_of(gb.geo) : std::nullopt;
    if (sa && sb) {
        // For d > 0 one test says it all: a colliding pair's term is <= 0 < d.
        const int c = compare_small(*sa, *sb, d);
        if (d > 0.0 || c > 0) return c;
        return 0;  // collides: distance 0 == d
    }
    if (collide_geos(ga.geo, gb.geo, nullptr, scratch)) return at_zero;
    return pair_compare(cores_of(ga.geo), cores_of(gb.geo), d);
}

}  // namespace detail

double distance(const Shape& a, const Shape& b) {
    detail::Scratch scratch;
    return detail::distance(a, b, {}, {}, scratch);
}

int compare_distance(const Shape& a, const Shape& b, double d) {
    detail::Scratch scratch;
    return detail::compare_distance(a, b, d, {}, {}, scratch);
}

}  // namespace collide
