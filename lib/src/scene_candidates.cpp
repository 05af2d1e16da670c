// The broad phase of a scene check (scene_candidates.hpp).
#include "scene_candidates.hpp"

#include "big_alloc.hpp"
#include "in_parts.hpp"

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

// The largest distance at which a pair still matters: --near, or a rule's clearance.
double reach_of(const Scene& scene, const CheckOptions& options) {
    double reach = options.near.value_or(0.0);
    for (const Rule& r : scene.rules) reach = std::max(reach, r.clearance.value_or(0.0));
    return reach;
}

}  // namespace

// Bounds grown by half the reach on every side, rounded outward: two shapes within the
// reach of each other then have overlapping grown bounds (their gap on each axis is at most
// their distance).
Bounds SceneCandidates::grown(const Bounds& b) const {
    if (reach_ == 0.0) return b;
    const double h = reach_ / 2;
    const double inf = std::numeric_limits<double>::infinity();
    return Bounds{Vec2{std::nextafter(b.min.x - h, -inf), std::nextafter(b.min.y - h, -inf)},
                  Vec2{std::nextafter(b.max.x + h, inf), std::nextafter(b.max.y + h, inf)}};
}

SceneCandidates::SceneCandidates(const Scene& scene, const Selections& sel, const CheckOptions& options,
                                 unsigned threads)
    : scene_(scene), ns_(static_cast<std::uint32_t>(scene.shapes.size())), reach_(reach_of(scene, options)) {
    reserve_huge(items_, ns_);
    sel.used_shapes(items_);
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
            bounds_[items_[p]] = outward(grown(bounds_of(scene.shapes[items_[p]].shape)), frame);
    });
    split_compounds(frame);
    choose_sides(sel);
    // Two-sided, the index holds the objects on a right side alone.
    auto right = [&](std::uint32_t object) { return !two_sided_ || (side_[object] & Selections::kRightSide); };
    if (split_.empty() && !two_sided_) {
        entries_ = items_;
    } else {  // the split compounds' own entries leave the index; their parts' (appended) join it
        entries_.reserve(items_.size() + part_owner_.size());
        auto next = split_.cbegin();
        for (const std::uint32_t i : items_) {
            if (next != split_.cend() && next->first == i) ++next;
            else if (right(i)) entries_.push_back(i);
        }
    }
    add_grids(frame);
    add_lines(frame);
    for (std::size_t k = 0; k < part_owner_.size(); ++k)
        if (right(part_owner_[k])) entries_.push_back(parts_from_ + static_cast<std::uint32_t>(k));
    index_.emplace(std::move(bounds_), entries_, options.broadphase, threads, lines_);
    bounds_.clear();
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
        if (!two_sided_ || (side_[id] & Selections::kRightSide)) entries_.push_back(id);
        // Cell edges are at the exact origin + k * tile: the computed far edges are widened
        // by more than their rounding.
        const double w = static_cast<double>(g.cols) * g.tile.x, h = static_cast<double>(g.rows) * g.tile.y;
        const Vec2 hi{g.origin.x + w, g.origin.y + h};
        const Vec2 pad{0x1p-50 * (std::fabs(g.origin.x) + w), 0x1p-50 * (std::fabs(g.origin.y) + h)};
        bounds_[id] = outward(grown(Bounds{g.origin, Vec2{hi.x + pad.x, hi.y + pad.y}}), frame);
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
    // of it: with a reach, lines and rays meet every box their (unbounded) bounds overlap.
    if (reach_ > 0) return;
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
            bounds_.push_back(outward(grown(b), frame));
        }
    }
}

// Two-sided when a reach would pair every used object with all others nearby, though some
// are on one side of the specs and rules only: a pair then needs a member on a left side and
// the other on the right, so only the left ones ask and only the right ones are asked. (A
// grid on a left side pairs with shapes on the right, whose shape is `a`: those shapes ask
// too, and such grids are asked.)
void SceneCandidates::choose_sides(const Selections& sel) {
    if (reach_ <= 0) return;
    sel.sides(side_);
    constexpr std::uint8_t kBoth = Selections::kLeftSide | Selections::kRightSide;
    bool grid_left = false;
    for (std::size_t k = ns_; k < side_.size(); ++k) grid_left = grid_left || (side_[k] & Selections::kLeftSide);
    if (grid_left)
        for (std::size_t x = 0; x < side_.size(); ++x)
            if (side_[x] & (x < ns_ ? Selections::kRightSide : Selections::kLeftSide)) side_[x] = kBoth;
    two_sided_ = std::any_of(items_.begin(), items_.end(), [&](std::uint32_t i) { return side_[i] != kBoth; });
    if (!two_sided_) side_.clear();
}

void SceneCandidates::partners(std::uint32_t a, std::vector<std::uint32_t>& out) const {
    const auto split = std::lower_bound(split_.cbegin(), split_.cend(), std::make_pair(a, std::uint32_t{0}));
    const bool whole = split == split_.cend() || split->first != a;
    // Two-sided, a shape on a left side asks by its bounds (or its parts'), as no entry.
    auto ask = [&](std::uint32_t entry, std::vector<std::uint32_t>& into) {
        if (two_sided_) index_->query_box(index_->bounds(entry), into);
        else index_->query(entry, into);
    };
    if (two_sided_ && !(side_[a] & Selections::kLeftSide)) {
        out.clear();
        return;
    }
    if (whole) {
        ask(a, out);
        if (split_.empty() && !two_sided_) return;  // every entry is an object, never a itself
    } else {
        out.clear();
        thread_local std::vector<std::uint32_t> one;
        const std::size_t n = std::get<Compound>(scene_.shapes[a].shape).parts.size();
        for (std::size_t k = 0; k < n; ++k) {
            ask(split->second + static_cast<std::uint32_t>(k), one);
            out.insert(out.end(), one.begin(), one.end());
        }
    }
    for (std::uint32_t& e : out) e = owner(e);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    out.erase(std::remove(out.begin(), out.end(), a), out.end());
}

}  // namespace collide::detail
