// The broad phase of a scene check (scene_candidates.hpp).
#include "check/scene_candidates.hpp"

#include "support/big_alloc.hpp"
#include "support/in_parts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace collide::detail {

namespace {

// Scenes of at least this many shapes compute their bounds on two threads when allowed (a
// million shapes: ~70 ms on one); below, a thread costs more than it saves.
constexpr std::size_t kTwoThreadBounds = 16384;

// A line in the float frame of the bounds: (p - origin) * scale rounds p by an ulp of the
// difference, which the index's margins (2^-40 and more, relative) cover; d * scale is
// exact unless it leaves the normal range, and then d no longer tells parallel lines apart.
Unbounded in_frame(Unbounded l, const FloatFrame& frame) {
    const double k = frame.scale;
    const Vec2 d{l.d.x * k, l.d.y * k};
    l.exact_d = l.exact_d && d.x / k == l.d.x && d.y / k == l.d.y && (d.x == 0 || std::fabs(d.x) >= 0x1p-1000) &&
                (d.y == 0 || std::fabs(d.y) >= 0x1p-1000);
    l.p = Vec2{(l.p.x - frame.origin.x) * k, (l.p.y - frame.origin.y) * k};
    l.d = d;
    return l;
}

double area(const Bounds& b) { return (b.max.x - b.min.x) * (b.max.y - b.min.y); }

// A grid's closed extent. Cell edges are at the exact origin + k * tile: the computed far
// edges are widened by more than their rounding.
Bounds grid_extent(const Grid& g) {
    const double w = static_cast<double>(g.cols) * g.tile.x, h = static_cast<double>(g.rows) * g.tile.y;
    const Vec2 pad{0x1p-50 * (std::fabs(g.origin.x) + w), 0x1p-50 * (std::fabs(g.origin.y) + h)};
    return Bounds{g.origin, Vec2{g.origin.x + w + pad.x, g.origin.y + h + pad.y}};
}

// The largest distance at which a pair still matters: --near, or a rule's clearance.
double reach_of(const Scene& scene, const CheckOptions& options) {
    double reach = options.near.value_or(0.0);
    for (const Rule& r : scene.rules) reach = std::max(reach, r.clearance.value_or(0.0));
    return reach;
}

}  // namespace

// Bounds grown by `by` (half the reach) on every side, rounded outward: two shapes within the
// reach of each other then have overlapping grown bounds (their gap on each axis is at most
// their distance).
Bounds SceneCandidates::grown(const Bounds& b, double by) const {
    if (by == 0.0) return b;
    const double inf = std::numeric_limits<double>::infinity();
    return Bounds{Vec2{std::nextafter(b.min.x - by, -inf), std::nextafter(b.min.y - by, -inf)},
                  Vec2{std::nextafter(b.max.x + by, inf), std::nextafter(b.max.y + by, inf)}};
}

SceneCandidates::SceneCandidates(const Scene& scene, const Selections& sel, const CheckOptions& options,
                                 unsigned threads)
    : scene_(scene), ns_(static_cast<std::uint32_t>(scene.shapes.size())), reach_(reach_of(scene, options)) {
    reserve_huge(items_, ns_);
    sel.used_shapes(items_);
    choose_sides(sel, options);
    growth_ = split_reach_ ? 0.0 : reach_ / 2;
    reserve_huge(bounds_, ns_);
    bounds_.resize(ns_ + scene.grids.size());
    parts_from_ = static_cast<std::uint32_t>(bounds_.size());
    // The float frame is set from about 64 shapes spread over the scene.
    std::vector<Bounds> sample;
    for (std::size_t k = 0; k < items_.size(); k += std::max<std::size_t>(1, items_.size() / 64))
        sample.push_back(bounds_of(scene.shapes[items_[k]].shape));
    const FloatFrame frame = frame_for(std::move(sample));
    const unsigned parts = threads > 1 && items_.size() >= kTwoThreadBounds ? 2 : 1;
    in_parts(parts, [&](unsigned part) {
        const std::size_t to = items_.size() * (part + 1) / parts;
        for (std::size_t p = items_.size() * part / parts; p < to; ++p)
            bounds_[items_[p]] = outward(grown(bounds_of(scene.shapes[items_[p]].shape), growth_), frame);
    });
    split_compounds(frame);
    if (split_.empty()) {
        entries_ = items_;
    } else {  // the split compounds' own entries leave the index; their parts' (appended) join it
        entries_.reserve(items_.size() + part_owner_.size());
        auto next = split_.cbegin();
        for (const std::uint32_t i : items_) {
            if (next != split_.cend() && next->first == i) ++next;
            else entries_.push_back(i);
        }
    }
    add_grids(frame);
    add_lines(frame);
    for (std::size_t k = 0; k < part_owner_.size(); ++k) entries_.push_back(parts_from_ + static_cast<std::uint32_t>(k));
    if (split_reach_) build_reach_indexes(frame, options, threads);
    index_.emplace(std::move(bounds_), entries_, options.broadphase, threads, lines_);
    bounds_.clear();
}

// The reach's own indexes: the objects on a left side of the distance specs and those on a
// right side, by their bounds grown by half the reach (as the main index would have them).
void SceneCandidates::build_reach_indexes(const FloatFrame& frame, const CheckOptions& options, unsigned threads) {
    std::vector<FBounds> grown_bounds(bounds_.size());
    std::vector<std::uint32_t> left, right;
    const double h = reach_ / 2;
    auto add = [&](std::uint32_t entry, const Bounds& b, std::uint8_t side) {
        grown_bounds[entry] = outward(grown(b, h), frame);
        if (side & Selections::kLeftSide) left.push_back(entry);
        if (side & Selections::kRightSide) right.push_back(entry);
    };
    for (const std::uint32_t i : items_) {
        if (side_[i] == 0) continue;
        const auto split = std::lower_bound(split_.cbegin(), split_.cend(), std::make_pair(i, std::uint32_t{0}));
        if (split == split_.cend() || split->first != i) {
            add(i, bounds_of(scene_.shapes[i].shape), side_[i]);
            continue;
        }
        const auto& parts = std::get<Compound>(scene_.shapes[i].shape).parts;
        for (std::size_t k = 0; k < parts.size(); ++k)
            add(split->second + static_cast<std::uint32_t>(k), bounds_of(parts[k]), side_[i]);
    }
    for (std::size_t k = 0; k < scene_.grids.size(); ++k) {
        const auto id = static_cast<std::uint32_t>(ns_ + k);
        // (A solid outside meets every shape anyway: solid_grids().)
        if (!scene_.grids[k].outside_solid && side_[id] != 0) add(id, grid_extent(scene_.grids[k]), side_[id]);
    }
    std::sort(left.begin(), left.end());
    std::sort(right.begin(), right.end());
    reach_left_.emplace(grown_bounds, left, options.broadphase, threads);
    reach_right_.emplace(std::move(grown_bounds), right, options.broadphase, threads);
}

// A grid whose outside is empty meets only shapes that reach into its extent, so it joins
// the index by its extent. One whose outside is solid meets every shape not wholly inside its
// closed extent, so every shape is a candidate. (Grids no spec selects are left to the
// selections, which reject their pairs.)
void SceneCandidates::add_grids(const FloatFrame& frame) {
    for (std::size_t k = 0; k < scene_.grids.size(); ++k) {
        const Grid& g = scene_.grids[k];
        const auto id = static_cast<std::uint32_t>(ns_ + k);
        if (g.outside_solid) {
            solid_.push_back(id);
            continue;
        }
        entries_.push_back(id);
        bounds_[id] = outward(grown(grid_extent(g), growth_), frame);
    }
}

// Lines and rays give the index their geometry, so that it walks the cells they cross
// rather than pairing them with everything their unbounded boxes overlap.
void SceneCandidates::add_line(std::uint32_t entry, const Shape& s, const FloatFrame& frame) {
    if (const auto* l = std::get_if<Line>(&s)) {
        // d = b - a, and whether that is exact (Knuth's TwoSum: its error term is zero).
        auto diff = [](double b, double a, bool& exact) {
            const double sum = b - a, bv = sum - b, av = sum - bv;
            exact = exact && (b - av) + (-a - bv) == 0;
            return sum;
        };
        bool exact = true;
        const Vec2 d{diff(l->b.x, l->a.x, exact), diff(l->b.y, l->a.y, exact)};
        lines_.push_back({entry, in_frame(Unbounded{l->a, d, false, exact}, frame)});
    } else if (const auto* r = std::get_if<Ray>(&s)) {
        lines_.push_back({entry, in_frame(Unbounded{r->origin, r->direction, true, true}, frame)});
    }
}

void SceneCandidates::add_lines(const FloatFrame& frame) {
    // A line's walk through the cells finds the boxes it crosses, not those within the reach
    // of it: with grown bounds, lines and rays meet every box their (unbounded) bounds overlap.
    if (growth_ > 0) return;
    auto next = split_.cbegin();
    for (const std::uint32_t i : items_) {
        if (next != split_.cend() && next->first == i) {
            const auto& parts = std::get<Compound>(scene_.shapes[i].shape).parts;
            for (std::size_t k = 0; k < parts.size(); ++k)
                add_line(next->second + static_cast<std::uint32_t>(k), parts[k], frame);
            ++next;
        } else {
            add_line(i, scene_.shapes[i].shape, frame);
        }
    }
}

// A compound is better indexed by its parts when their boxes cover less than half of its box:
// a shape in the gaps between them would be a candidate of the whole for nothing. (Only the
// cost depends on it; an infinite or NaN area keeps the compound whole.)
void SceneCandidates::split_compounds(const FloatFrame& frame) {
    std::vector<Bounds> parts;
    for (const std::uint32_t i : items_) {
        const auto* c = std::get_if<Compound>(&scene_.shapes[i].shape);
        if (!c || c->parts.size() < 2) continue;
        parts.clear();
        double covered = 0;
        Bounds whole = bounds_of(c->parts[0]);
        for (const Shape& part : c->parts) {
            const Bounds b = bounds_of(part);
            parts.push_back(b);
            covered += area(b);
            whole.min = Vec2{std::min(whole.min.x, b.min.x), std::min(whole.min.y, b.min.y)};
            whole.max = Vec2{std::max(whole.max.x, b.max.x), std::max(whole.max.y, b.max.y)};
        }
        if (!(2 * covered < area(whole))) continue;
        split_.emplace_back(i, static_cast<std::uint32_t>(parts_from_ + part_owner_.size()));
        for (const Bounds& b : parts) {
            part_owner_.push_back(i);
            bounds_.push_back(outward(grown(b, growth_), frame));
        }
    }
}

// Split when a reach would pair every used object with all others nearby, though some are on
// one side only of the specs and rules that ask for distances (report specs with --near, rules
// with a clearance): a pair within the reach then has a member on a left side and the other on
// the right, so each asks the index of the other side.
void SceneCandidates::choose_sides(const Selections& sel, const CheckOptions& options) {
    if (reach_ <= 0) return;
    sel.sides(side_, options.near.has_value(), [&](std::size_t k) { return scene_.rules[k].clearance.has_value(); });
    constexpr std::uint8_t kBoth = Selections::kLeftSide | Selections::kRightSide;
    split_reach_ = std::any_of(items_.begin(), items_.end(), [&](std::uint32_t i) { return side_[i] != kBoth; });
    if (!split_reach_) std::vector<std::uint8_t>().swap(side_);  // freed: a 1M-shape check peaked 20 MB higher with it kept
}

template <class F>
void SceneCandidates::each_entry(std::uint32_t object, F&& f) const {
    const auto split = std::lower_bound(split_.cbegin(), split_.cend(), std::make_pair(object, std::uint32_t{0}));
    if (split == split_.cend() || split->first != object) {
        f(object);
        return;
    }
    const std::size_t n = std::get<Compound>(scene_.shapes[object].shape).parts.size();
    for (std::size_t k = 0; k < n; ++k) f(split->second + static_cast<std::uint32_t>(k));
}

void SceneCandidates::partners(std::uint32_t a, std::vector<std::uint32_t>& out,
                               std::vector<std::uint32_t>& one) const {
    const auto split = std::lower_bound(split_.cbegin(), split_.cend(), std::make_pair(a, std::uint32_t{0}));
    const bool whole = split == split_.cend() || split->first != a;
    if (whole) {
        index_->query(a, out);
        if (split_.empty() && !split_reach_) return;  // every entry is an object, never a itself
    } else {
        out.clear();
        each_entry(a, [&](std::uint32_t e) {
            index_->query(e, one);
            out.insert(out.end(), one.begin(), one.end());
        });
    }
    if (split_reach_) {  // the other side's objects within the reach
        for (const auto* other : {side_[a] & Selections::kLeftSide ? &*reach_right_ : nullptr,
                                  side_[a] & Selections::kRightSide ? &*reach_left_ : nullptr}) {
            if (!other) continue;
            each_entry(a, [&](std::uint32_t e) {
                other->query_box(other->bounds(e), one);
                out.insert(out.end(), one.begin(), one.end());
            });
        }
    }
    for (std::uint32_t& e : out) e = owner(e);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    out.erase(std::remove(out.begin(), out.end(), a), out.end());
}

}  // namespace collide::detail
