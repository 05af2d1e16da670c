// Shape transforms for fuzz_pairs: exact translations and scalings, and other spellings of
// the same point set (properties 2-4 of fuzz_pairs.cpp).
#pragma once

#include "fuzz_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <variant>
#include <vector>

namespace fuzz::spellings {

using namespace collide;

// Apply f to every position of a shape, g to radii and ray directions (per coordinate).
// Returns nothing when f or g does (a result that would not be exact).
template <class F, class G>
inline std::optional<Shape> map_shape(const Shape& s, F&& f, G&& g) {
    bool ok = true;
    auto P = [&](Vec2 p) {
        const std::optional<Vec2> r = f(p);
        if (!r) ok = false;
        return r.value_or(Vec2{});
    };
    auto D = [&](double v) {
        const std::optional<double> r = g(v);
        if (!r) ok = false;
        return r.value_or(0.0);
    };
    Shape out = std::visit(
        [&](const auto& v) -> Shape {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, Point>) return Point{P(v.at)};
            else if constexpr (std::is_same_v<T, Circle>) return Circle{P(v.center), D(v.radius)};
            else if constexpr (std::is_same_v<T, Rect>) return Rect{P(v.min), P(v.max)};
            else if constexpr (std::is_same_v<T, Segment>) return Segment{P(v.a), P(v.b)};
            else if constexpr (std::is_same_v<T, Line>) return Line{P(v.a), P(v.b)};
            else if constexpr (std::is_same_v<T, Ray>) return Ray{P(v.origin), Vec2{D(v.direction.x), D(v.direction.y)}};
            else if constexpr (std::is_same_v<T, Capsule>) return Capsule{P(v.a), P(v.b), D(v.radius)};
            else if constexpr (std::is_same_v<T, Compound>) {
                ok = false;  // not generated
                return v;
            } else {
                T r;
                for (Vec2 p : v.points) r.points.push_back(P(p));
                return r;
            }
        },
        s);
    if (!ok) return std::nullopt;
    return out;
}

inline std::optional<Shape> translated(const Shape& s, Vec2 off) {
    return map_shape(
        s,
        [&](Vec2 p) -> std::optional<Vec2> {
            if (!fuzz::exact_add(p.x, off.x) || !fuzz::exact_add(p.y, off.y)) return std::nullopt;
            return Vec2{p.x + off.x, p.y + off.y};
        },
        [](double v) -> std::optional<double> { return v; });
}

inline std::optional<Shape> scaled(const Shape& s, double k) {  // k = 2 or 0.5
    auto g = [k](double v) -> std::optional<double> {
        const double r = v * k;
        if (!std::isfinite(r) || r / k != v) return std::nullopt;  // overflow or lost subnormal bits
        return r;
    };
    auto f = [&](Vec2 p) -> std::optional<Vec2> {
        const auto x = g(p.x);
        const auto y = g(p.y);
        if (!x || !y) return std::nullopt;
        return Vec2{*x, *y};
    };
    return map_shape(s, f, g);
}

inline std::optional<Shape> polygon_as_rect(const std::vector<Vec2>& p) {
    // An axis-aligned rectangle given as a polygon of 4 vertices: the Rect.
    if (p.size() != 4) return std::nullopt;
    double x0 = p[0].x, x1 = p[0].x, y0 = p[0].y, y1 = p[0].y;
    for (Vec2 q : p) {
        x0 = std::min(x0, q.x), x1 = std::max(x1, q.x), y0 = std::min(y0, q.y), y1 = std::max(y1, q.y);
    }
    for (Vec2 q : p)
        if ((q.x != x0 && q.x != x1) || (q.y != y0 && q.y != y1)) return std::nullopt;
    for (std::size_t i = 0; i < 4; ++i)  // consecutive vertices share x or y
        if (p[i].x != p[(i + 1) % 4].x && p[i].y != p[(i + 1) % 4].y) return std::nullopt;
    return Rect{{x0, y0}, {x1, y1}};
}

// Other spellings of the same point set, one per kind of shape; `pick` chooses among the
// candidates.
inline Shape equivalent_point(Vec2 p, unsigned pick) {
    switch (pick % 5) {
        case 0: return Circle{p, 0.0};
        case 1: return Segment{p, p};
        case 2: return Rect{p, p};
        case 3: return Polyline{{p}};
        default: return Polyline{{p, p, p}};
    }
}

inline Shape equivalent_rect(const Rect& r, unsigned pick) {
    const bool w = r.min.x < r.max.x;
    const bool h = r.min.y < r.max.y;
    if (!w && !h) return Point{r.min};
    if (!w || !h) {
        switch (pick % 3) {
            case 0: return Segment{r.min, r.max};
            case 1: return Segment{r.max, r.min};
            default: return Polyline{{r.max, r.min}};
        }
    }
    std::vector<Vec2> q = {r.min, {r.max.x, r.min.y}, r.max, {r.min.x, r.max.y}};
    std::rotate(q.begin(), q.begin() + (pick % 4), q.end());
    if (pick & 4) std::reverse(q.begin(), q.end());
    return Polygon{q};
}

inline Shape equivalent_segment(const Segment& g, unsigned pick) {
    if (g.a == g.b) return Point{g.a};
    if ((g.a.x == g.b.x || g.a.y == g.b.y) && pick % 4 == 0)
        return Rect{{std::min(g.a.x, g.b.x), std::min(g.a.y, g.b.y)}, {std::max(g.a.x, g.b.x), std::max(g.a.y, g.b.y)}};
    switch (pick % 3) {
        case 0: return Segment{g.b, g.a};
        case 1: return Polyline{{g.a, g.b}};
        default: return Polyline{{g.b, g.a, g.a}};
    }
}

inline std::optional<Shape> equivalent_ray(const Ray& r, unsigned pick) {
    const double k = pick % 2 ? 2.0 : 0.5;
    const Vec2 d{r.direction.x * k, r.direction.y * k};
    if (!std::isfinite(d.x) || !std::isfinite(d.y) || d.x / k != r.direction.x || d.y / k != r.direction.y)
        return std::nullopt;
    return Ray{r.origin, d};
}

inline Shape equivalent_polygon(std::vector<Vec2> q, unsigned pick) {
    if (pick % 4 == 0)
        if (auto r = polygon_as_rect(q)) return *r;
    std::rotate(q.begin(), q.begin() + (pick % q.size()), q.end());
    if (pick & 8) std::reverse(q.begin(), q.end());
    return Polygon{q};
}

inline Shape equivalent_polyline(std::vector<Vec2> q, unsigned pick) {
    if (std::all_of(q.begin(), q.end(), [&](Vec2 p) { return p == q[0]; })) return Point{q[0]};
    if (q.size() == 2 && pick % 2 == 0) return Segment{q[0], q[1]};
    if (pick & 2) std::reverse(q.begin(), q.end());
    if (pick & 4) {  // a consecutive repeat adds no point
        const std::size_t i = (pick >> 3) % q.size();
        q.insert(q.begin() + static_cast<std::ptrdiff_t>(i), q[i]);
    }
    return Polyline{q};
}

// Another spelling of the same point set; `pick` chooses among the candidates.
inline std::optional<Shape> equivalent(const Shape& s, unsigned pick) {
    switch (type_of(s)) {
        case ShapeType::Point: return equivalent_point(std::get<Point>(s).at, pick);
        case ShapeType::Circle: {
            const auto& c = std::get<Circle>(s);
            if (c.radius == 0) return Point{c.center};
            return std::nullopt;
        }
        case ShapeType::Rect: return equivalent_rect(std::get<Rect>(s), pick);
        case ShapeType::Segment: return equivalent_segment(std::get<Segment>(s), pick);
        case ShapeType::Line: return Line{std::get<Line>(s).b, std::get<Line>(s).a};
        case ShapeType::Ray: return equivalent_ray(std::get<Ray>(s), pick);
        case ShapeType::Polygon: return equivalent_polygon(std::get<Polygon>(s).points, pick);
        case ShapeType::Polyline: return equivalent_polyline(std::get<Polyline>(s).points, pick);
        case ShapeType::Capsule: {
            const auto& c = std::get<Capsule>(s);
            if (c.a == c.b) return Circle{c.a, c.radius};
            return Capsule{c.b, c.a, c.radius};
        }
        case ShapeType::Compound: break;
    }
    return std::nullopt;
}

}  // namespace fuzz::spellings
