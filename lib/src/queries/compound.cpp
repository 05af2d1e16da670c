// Compound shapes (SPEC §2.1): a compound collides with whatever one of its parts collides
// with. The pair test runs the simple test on every pair of parts whose bounds meet, so a
// compound of thousands of parts costs only the parts near its partner.
#include "queries/collide_into.hpp"

#include "geometry/edge_index.hpp"

#include <algorithm>
#include <limits>

namespace collide::detail {

PartIndex::PartIndex(const Compound& c) {
    bounds_.reserve(c.parts.size());
    for (std::size_t i = 0; i < c.parts.size(); ++i) {
        bounds_.push_back(bounds_of(c.parts[i]));
        if (!may_be_big(c.parts[i])) continue;  // a small polyline's pieces are made per query
        kept_at_.push_back(i);
        kept_.push_back(keep_of(c.parts[i]));
    }
}


PartIndex::~PartIndex() = default;

namespace {

// One side of a pair as a list of pieces: a compound's parts, or the shape itself as its one
// piece. Bounds are read only for the filter.
struct SideParts {
    const Shape& shape;
    const Compound* compound;
    const PartIndex* index;
    std::size_t size() const { return compound ? compound->parts.size() : 1; }
    const Shape& part(std::size_t i) const { return compound ? compound->parts[i] : shape; }
    Bounds bounds(std::size_t i) const {
        if (!compound) return bounds_of(shape);
        return index ? index->bounds(i) : bounds_of(compound->parts[i]);
    }
    GeoKeep keep(std::size_t i, const Prepared& p) const { return compound ? p.part_keep(i) : p.keep(); }
};

}  // namespace

std::optional<Relation> collide_into(const Shape& a, const Shape& b, std::vector<Vec2>* points, Prepared pa,
                                     Prepared pb, Scratch& scratch, PartsOut parts) {
    const auto* ca = std::get_if<Compound>(&a);
    const auto* cb = std::get_if<Compound>(&b);
    if (!ca && !cb) return collide_simple(a, b, points, pa.keep(), pb.keep(), scratch);
    const SideParts sa{a, ca, pa.parts};
    const SideParts sb{b, cb, pb.parts};
    // The points of all colliding pairs of parts gather here (the worker's buffer, reused),
    // then are merged as one pair's are.
    std::vector<Vec2>& pts = scratch.part_points;
    pts.clear();
    std::vector<std::uint32_t> hit_a;
    std::vector<std::uint32_t> hit_b;
    bool any = false;
    bool overlap = false;
    constexpr double inf = std::numeric_limits<double>::infinity();
    const Bounds whole_b = cb ? Bounds{Vec2{-inf, -inf}, Vec2{inf, inf}} : bounds_of(b);  // a simple b's
    for (std::size_t i = 0; i < sa.size(); ++i) {
        const Bounds bi = sa.bounds(i);
        if (!meets(bi, whole_b)) continue;
        for (std::size_t j = 0; j < sb.size(); ++j) {
            if (cb && !meets(bi, sb.bounds(j))) continue;
            const std::optional<Relation> r =
                collide_simple(sa.part(i), sb.part(j), points ? &pts : nullptr, sa.keep(i, pa), sb.keep(j, pb), scratch);
            if (!r) continue;
            any = true;
            overlap = overlap || *r != Relation::Touch;
            if (ca && (hit_a.empty() || hit_a.back() != i)) hit_a.push_back(static_cast<std::uint32_t>(i));
            if (cb) hit_b.push_back(static_cast<std::uint32_t>(j));
        }
    }
    if (!any) return std::nullopt;
    std::sort(hit_b.begin(), hit_b.end());
    hit_b.erase(std::unique(hit_b.begin(), hit_b.end()), hit_b.end());
    if (parts.a) parts.a->insert(parts.a->end(), hit_a.begin(), hit_a.end());
    if (parts.b) parts.b->insert(parts.b->end(), hit_b.begin(), hit_b.end());
    if (points) {
        normalize_points(pts);
        points->insert(points->end(), pts.begin(), pts.end());
    }
    return overlap ? Relation::Overlap : Relation::Touch;
}

}  // namespace collide::detail
