// Helpers shared by the fuzz targets: exact signs of small sums (to cross-check the library
// by brute force without trusting its own predicates), value pools, and printing of inputs
// when a property fails.
#pragma once

#include <collide/collide.hpp>

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <limits>
#include <optional>
#include <type_traits>
#include <variant>
#include <string>
#include <vector>

namespace fuzz {

// ---- exact sums ---------------------------------------------------------------------------

// An exact sum of doubles and of products k * w with k an integer, as a Shewchuk
// expansion (nonoverlapping components, increasing magnitude). `ok` turns false when a
// component overflows; the sign is meaningless then and callers skip the check.
//
// Why k * w is exact as p + e with p = fl(k w), e = fma(k, w, -p): w = m 2^q with q the
// exponent of w's last bit, so k w and p (|p| >= |w|, ulp(p) >= 2^q) are multiples of 2^q;
// e is then a multiple of 2^q smaller than ulp(p), i.e. a double, and fma returns it exactly.
class ExactSum {
public:
    ExactSum& add(double b) {
        if (!std::isfinite(b)) ok = false;
        if (!ok) return *this;
        std::vector<double> h;
        h.reserve(e_.size() + 1);
        double q = b;
        for (double x : e_) {
            const double s = q + x;
            if (!std::isfinite(s)) {
                ok = false;
                return *this;
            }
            const double bv = s - q;
            const double av = s - bv;
            const double err = (q - av) + (x - bv);
            if (err != 0) h.push_back(err);
            q = s;
        }
        if (q != 0) h.push_back(q);
        e_.swap(h);
        return *this;
    }
    ExactSum& sub(double b) { return add(-b); }
    // += k * w for an integer-valued k.
    ExactSum& add_product(double k, double w) {
        const double p = k * w;
        if (!std::isfinite(p)) {
            ok = false;
            return *this;
        }
        add(p);
        return add(std::fma(k, w, -p));
    }
    ExactSum& sub_product(double k, double w) { return add_product(-k, w); }
    int sign() const {
        if (e_.empty()) return 0;
        return e_.back() > 0 ? 1 : -1;
    }

    bool ok = true;

private:
    std::vector<double> e_;
};

// Whether a + b is exactly representable (and finite).
inline bool exact_add(double a, double b) {
    const double s = a + b;
    if (!std::isfinite(s)) return false;
    ExactSum d;
    d.add(s).sub(a).sub(b);
    return d.ok && d.sign() == 0;
}

// ---- value pools --------------------------------------------------------------------------

inline constexpr double kDenormMin = std::numeric_limits<double>::denorm_min();
inline constexpr double kMaxSubnormal = 2.2250738585072009e-308;

// Interesting finite doubles: small integers, decimals that are not dyadic, large values,
// -0.0, subnormals and huge values.
inline const std::vector<double>& interesting_values() {
    static const std::vector<double> v = {
        0.0, 1.0, -1.0, 2.0, -2.0, 3.0, 4.0, 5.0, 8.0, 10.0, -10.0, 16.0, 100.0,
        0.5, -0.5, 0.25, 0.1, -0.1, 0.2, 0.3, -0.3, 0.7, 0.6, 1.1, 0.30000000000000004, 1.0 / 3.0,
        1e9, -1e9, 1e9 + 1, 1e9 + 0.5, 999999999.9, 4294967296.0, 9007199254740992.0, 9007199254740993.0,
        -0.0, kDenormMin, -kDenormMin, kMaxSubnormal, 1e-300, 1e-9, 1e-15,
        1e15, 1e18, 1e100, 1e300, -1e300, 1.7976931348623157e308, -1.7976931348623157e308,
        1.0 + 2.220446049250313e-16, 1.0 - 1.1102230246251565e-16,
    };
    return v;
}

// ---- known issues ---------------------------------------------------------------------------

// With FUZZ_SKIP_KNOWN=1 the targets skip inputs of the classes of reported, still open
// findings (README.md lists them), so that a long run can look past them. Without it every
// finding counts, which is what run.sh does by default.
/// A valid simple shape of `type` (Point to Capsule; nothing for Compound, or when the bytes
/// spell an invalid one), its coordinates from `g` (coord(), pos(), points(lo, hi)), polygons
/// and polylines of at most `max_points` points. fuzz_pairs and fuzz_sweep share it; each has
/// its own coordinate source.
template <class Gen>
std::optional<collide::Shape> simple_shape(Gen& g, FuzzedDataProvider& f, collide::ShapeType type, std::size_t max_points) {
    using namespace collide;
    switch (type) {
        case ShapeType::Point: return Point{g.pos()};
        case ShapeType::Circle: {
            const Vec2 c = g.pos();
            return Circle{c, std::fabs(g.coord())};
        }
        case ShapeType::Rect: {
            const Vec2 a = g.pos();
            const Vec2 b = g.pos();
            return Rect{{std::min(a.x, b.x), std::min(a.y, b.y)}, {std::max(a.x, b.x), std::max(a.y, b.y)}};
        }
        case ShapeType::Segment: {
            const Vec2 a = g.pos();
            return Segment{a, g.pos()};
        }
        case ShapeType::Line: {
            const Vec2 a = g.pos();
            const Vec2 b = g.pos();
            if (a == b) return std::nullopt;
            return Line{a, b};
        }
        case ShapeType::Ray: {
            const Vec2 o = g.pos();
            const Vec2 d = g.pos();
            if (d.x == 0 && d.y == 0) return std::nullopt;
            return Ray{o, d};
        }
        case ShapeType::Polygon: {
            std::string why;
            auto pts = simple_polygon(g.points(3, max_points), why);
            if (!pts) return std::nullopt;
            return Polygon{std::move(*pts)};
        }
        case ShapeType::Polyline: return Polyline{g.points(1, max_points)};
        case ShapeType::Capsule: {
            const Vec2 a = g.pos();
            const Vec2 b = f.ConsumeBool() ? a : g.pos();  // a == b: the circle
            const double r = std::fabs(g.coord());
            if (r == 0) return std::nullopt;  // a capsule's radius is > 0
            return Capsule{a, b, r};
        }
        case ShapeType::Compound: break;
    }
    return std::nullopt;
}

inline bool skip_known() {
    static const bool skip = [] {
        const char* v = std::getenv("FUZZ_SKIP_KNOWN");
        return v != nullptr && *v != '\0' && std::string(v) != "0";
    }();
    return skip;
}

// Largest magnitude among a shape's positions (a circle's reach included; not ray directions).
inline double magnitude(const collide::Shape& s) {
    using namespace collide;
    double m = 0;
    auto P = [&](Vec2 p) { m = std::max({m, std::fabs(p.x), std::fabs(p.y)}); };
    std::visit(
        [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, Point>) P(v.at);
            else if constexpr (std::is_same_v<T, Circle>) {
                P(v.center);
                m = std::max(m, std::fabs(v.center.x) + v.radius);
                m = std::max(m, std::fabs(v.center.y) + v.radius);
            } else if constexpr (std::is_same_v<T, Rect>) P(v.min), P(v.max);
            else if constexpr (std::is_same_v<T, Segment> || std::is_same_v<T, Line>) P(v.a), P(v.b);
            else if constexpr (std::is_same_v<T, Ray>) P(v.origin);
            else if constexpr (std::is_same_v<T, Capsule>) {
                for (Vec2 p : {v.a, v.b}) m = std::max({m, std::fabs(p.x) + v.radius, std::fabs(p.y) + v.radius});
            } else if constexpr (std::is_same_v<T, Compound>) {
                for (const Shape& part : v.parts) m = std::max(m, magnitude(part));
            } else {
                for (Vec2 p : v.points) P(p);
            }
        },
        s);
    return m;
}

// ---- printing -----------------------------------------------------------------------------

inline std::string num(double v) {
    char buf[80];
    std::snprintf(buf, sizeof buf, "%.17g (%a)", v, v);
    return buf;
}

inline std::string vec(collide::Vec2 p) { return "[" + num(p.x) + ", " + num(p.y) + "]"; }

inline std::string points_text(const std::vector<collide::Vec2>& pts) {
    std::string s = "{";
    for (std::size_t i = 0; i < pts.size(); ++i) s += (i ? ", " : "") + vec(pts[i]);
    return s + "}";
}

inline std::string shape_text(const collide::Shape& s) {
    using namespace collide;
    std::string t(type_name(type_of(s)));
    switch (type_of(s)) {
        case ShapeType::Point: return t + " at " + vec(std::get<Point>(s).at);
        case ShapeType::Circle:
            return t + " center " + vec(std::get<Circle>(s).center) + " radius " + num(std::get<Circle>(s).radius);
        case ShapeType::Rect: return t + " min " + vec(std::get<Rect>(s).min) + " max " + vec(std::get<Rect>(s).max);
        case ShapeType::Segment: return t + " a " + vec(std::get<Segment>(s).a) + " b " + vec(std::get<Segment>(s).b);
        case ShapeType::Line: return t + " a " + vec(std::get<Line>(s).a) + " b " + vec(std::get<Line>(s).b);
        case ShapeType::Ray:
            return t + " origin " + vec(std::get<Ray>(s).origin) + " direction " + vec(std::get<Ray>(s).direction);
        case ShapeType::Polygon: return t + " " + points_text(std::get<Polygon>(s).points);
        case ShapeType::Polyline: return t + " " + points_text(std::get<Polyline>(s).points);
        case ShapeType::Capsule: {
            const auto& c = std::get<Capsule>(s);
            return t + " a " + vec(c.a) + " b " + vec(c.b) + " radius " + num(c.radius);
        }
        case ShapeType::Compound: {
            std::string parts;
            for (const Shape& p : std::get<Compound>(s).parts) parts += (parts.empty() ? "" : "; ") + shape_text(p);
            return t + " {" + parts + "}";
        }
    }
    return t;
}

inline std::string contact_text(const std::optional<collide::Contact>& c) {
    if (!c) return "no collision";
    return std::string(collide::relation_name(c->relation)) + " points " + points_text(c->points);
}

// Print a property failure and stop: libFuzzer saves the input as a crash.
[[noreturn]] inline void fail(const std::string& what) {
    std::fprintf(stderr, "\n==== PROPERTY FAILED ====\n%s\n=========================\n", what.c_str());
    std::fflush(stderr);
    __builtin_trap();
}

}  // namespace fuzz
