// Fuzz target: moves against one shape (lib/src/sweep.hpp, SPEC §2.5) decoded from the input,
// checked against properties the contract implies:
//   1. no UB, no exception, t in [0, 1] and the stop on the path's box;
//   2. a move blocked at its destination is blocked along its path;
//   3. extending `to` along the same direction (to doubled from `from`, where exact) does not
//      move the blocking point: the stop is the same double, bit for bit (both are the one
//      exact point correctly rounded); a move that was allowed stays clear up to the old `to`
//      (t >= 1/2 when blocked);
//   4. on small inputs (integers and halves up to 16, where every position at a time k / 2^40
//      is exact): the body at a time just before t shares no interior point with the shape
//      (collide() finds nothing or a touch), and a 2D body does just after t (a point or
//      segment body at t or just after, when t is such a time); an allowed move's body
//      shares none at 17 times along the path;
//   5. the exact time of the shape lies within swept_bounds' reach: the body at the stop
//      lies inside the bounds.
// A failure prints the move and the shape, then traps.
#include "fuzz_common.hpp"

#include "queries/sweep.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <optional>
#include <string>

using namespace collide;
using fuzz::shape_text;

namespace {

class Gen {
public:
    Gen(FuzzedDataProvider& f, bool small) : f_(f), small_(small) {}

    double coord() {
        if (small_) return f_.ConsumeIntegralInRange<int>(-32, 32) * 0.5;
        double v = 0.0;
        switch (f_.ConsumeIntegralInRange<int>(0, 3)) {
            case 0: v = f_.ConsumeIntegralInRange<int>(-8, 8); break;
            case 1: v = fuzz::interesting_values()[f_.ConsumeIntegralInRange<std::size_t>(0, fuzz::interesting_values().size() - 1)]; break;
            case 2: v = f_.ConsumeIntegralInRange<int>(-40, 40) / 10.0; break;
            default: v = f_.ConsumeFloatingPoint<double>(); break;
        }
        return std::isfinite(v) ? v : 0.0;
    }
    double size() { return std::fabs(coord()); }
    Vec2 pos() {
        const double x = coord();
        return Vec2{x, coord()};
    }

    std::optional<Shape> shape() {
        const auto type = static_cast<ShapeType>(f_.ConsumeIntegralInRange<int>(0, 9));
        if (type != ShapeType::Compound) return fuzz::simple_shape(*this, f_, type, 6);
        Compound c;
        for (int i = f_.ConsumeIntegralInRange<int>(1, 3); i > 0; --i) {
            auto p = shape();
            if (p && type_of(*p) != ShapeType::Compound) c.parts.push_back(std::move(*p));
        }
        if (c.parts.empty()) return std::nullopt;
        return c;
    }

    Body body() {
        Body b;
        switch (f_.ConsumeIntegralInRange<int>(0, 2)) {
            case 0: break;
            case 1:
                b.kind = Body::Kind::Circle;
                b.radius = size();
                break;
            default:
                b.kind = Body::Kind::Rect;
                b.size = Vec2{size(), size()};
                if (f_.ConsumeBool()) (f_.ConsumeBool() ? b.size.x : b.size.y) = 0.0;  // a segment
                break;
        }
        return b;
    }

    std::vector<Vec2> points(std::size_t lo, std::size_t hi) {
        std::vector<Vec2> p(f_.ConsumeIntegralInRange<std::size_t>(lo, hi));
        for (auto& q : p) q = pos();
        return p;
    }

private:

    FuzzedDataProvider& f_;
    bool small_;
};

std::string move_text(const Move& m) {
    std::string b = m.body.kind == Body::Kind::Point    ? "point"
                    : m.body.kind == Body::Kind::Circle ? "circle r=" + fuzz::num(m.body.radius)
                                                        : "rect " + fuzz::vec(m.body.size);
    return "move " + fuzz::vec(m.from) + " -> " + fuzz::vec(m.to) + " body " + b + (m.check_path ? "" : " destination");
}

[[noreturn]] void fail(const Move& m, const Shape& s, const std::string& what) {
    fuzz::fail(what + "\n" + move_text(m) + "\nshape " + shape_text(s));
}

// The body as a shape at position p (exact for the small inputs).
Shape body_at(const Body& b, Vec2 p) {
    if (b.kind == Body::Kind::Circle) return Circle{p, b.radius};
    if (b.kind == Body::Kind::Rect) {
        const double hx = b.size.x * 0.5;
        const double hy = b.size.y * 0.5;
        return Rect{{p.x - hx, p.y - hy}, {p.x + hx, p.y + hy}};
    }
    return Point{p};
}

bool shares_interior(const Body& b, Vec2 p, const Shape& s) {
    const auto c = collide::collide(body_at(b, p), s, false);
    return c && c->relation != Relation::Touch;
}

// from + k / 2^40 (to - from), exact for the small inputs.
Vec2 at(const Move& m, double k) {
    const double t = std::ldexp(k, -40);
    return Vec2{m.from.x + t * (m.to.x - m.from.x), m.from.y + t * (m.to.y - m.from.y)};
}

bool two_d(const Body& b) {
    return (b.kind == Body::Kind::Circle && b.radius > 0) ||
           (b.kind == Body::Kind::Rect && b.size.x > 0 && b.size.y > 0);
}

void check_small(const Move& m, const Shape& s, const std::optional<detail::SweepTime>& t) {
    const double one = std::ldexp(1.0, 40);
    if (!t) {
        for (int k = 0; k <= 16; ++k)
            if (shares_interior(m.body, at(m, k * one / 16), s)) fail(m, s, "allowed, yet the body overlaps at " + std::to_string(k) + "/16");
        return;
    }
    const MoveResult r = detail::blocked_at(m, *t);
    const double k = std::floor(r.t * one);
    if (k - 1 >= 0 && shares_interior(m.body, at(m, k - 1), s)) fail(m, s, "the body overlaps before t = " + fuzz::num(r.t));
    if (two_d(m.body) && std::ceil(r.t * one) + 1 <= one && !shares_interior(m.body, at(m, std::ceil(r.t * one) + 1), s))
        fail(m, s, "no overlap just after t = " + fuzz::num(r.t));
    // A point or segment body may hit at an instant (crossing a segment): at t itself.
    const double kt = r.t * one;
    if (!two_d(m.body) && kt == std::floor(kt) && !shares_interior(m.body, at(m, kt), s) && !shares_interior(m.body, at(m, kt + 1), s))
        fail(m, s, "no overlap at t = " + fuzz::num(r.t) + " nor just after");
}

void run(FuzzedDataProvider& fdp) {
    const bool small = fdp.ConsumeBool();
    Gen g(fdp, small);
    Move m;
    m.body = g.body();
    m.from = g.pos();
    m.to = g.pos();
    const auto shape = g.shape();
    if (!shape) return;
    const Shape& s = *shape;

    m.check_path = false;
    const auto dest = detail::first_contact(m, s);
    m.check_path = true;
    const auto path = detail::first_contact(m, s);
    if (dest && !path) fail(m, s, "blocked at the destination but not along the path");
    if (dest && detail::compare(*dest, detail::SweepTime::constant(1.0)) != 0) fail(m, s, "destination time is not 1");
    if (!path) {
        if (small) check_small(m, s, path);
        return;
    }
    if (detail::compare(*path, detail::SweepTime::constant(0.0)) < 0 || detail::compare(*path, detail::SweepTime::constant(1.0)) > 0)
        fail(m, s, "t outside [0, 1]");
    const MoveResult r = detail::blocked_at(m, *path);
    if (r.allowed || !(r.t >= 0.0 && r.t <= 1.0)) fail(m, s, "blocked_at: bad t " + fuzz::num(r.t));
    const Bounds reach = detail::swept_bounds(m);
    if (r.stop.x < std::min(m.from.x, m.to.x) || r.stop.x > std::max(m.from.x, m.to.x) ||
        r.stop.y < std::min(m.from.y, m.to.y) || r.stop.y > std::max(m.from.y, m.to.y))
        fail(m, s, "stop " + fuzz::vec(r.stop) + " off the path");
    if (r.stop.x < reach.min.x || r.stop.x > reach.max.x || r.stop.y < reach.min.y || r.stop.y > reach.max.y)
        fail(m, s, "stop outside swept_bounds");
    if (small) check_small(m, s, path);
}

// Property 3 on its own input: the path extended to from + 2 (to - from).
void run_extended(FuzzedDataProvider& fdp) {
    Gen g(fdp, fdp.ConsumeBool());
    Move m;
    m.body = g.body();
    m.from = g.pos();
    m.to = g.pos();
    const auto shape = g.shape();
    if (!shape) return;
    const double dx = m.to.x - m.from.x;
    const double dy = m.to.y - m.from.y;
    if (!fuzz::exact_add(m.to.x, -m.from.x) || !fuzz::exact_add(m.to.y, -m.from.y)) return;
    if (!fuzz::exact_add(m.to.x, dx) || !fuzz::exact_add(m.to.y, dy)) return;
    Move far = m;
    far.to = Vec2{m.to.x + dx, m.to.y + dy};
    if (!std::isfinite(far.to.x) || !std::isfinite(far.to.y)) return;
    const auto near_t = detail::first_contact(m, *shape);
    const auto far_t = detail::first_contact(far, *shape);
    if (near_t && !far_t) fail(m, *shape, "blocked, but not along the longer path");
    if (!far_t) return;
    if (!near_t) {
        if (detail::compare(*far_t, detail::SweepTime::constant(0.5)) < 0) fail(m, *shape, "allowed, but the longer path is blocked before `to`");
        return;
    }
    const MoveResult a = detail::blocked_at(m, *near_t);
    const MoveResult b = detail::blocked_at(far, *far_t);
    if (!(a.stop == b.stop)) fail(m, *shape, "the stop moved: " + fuzz::vec(a.stop) + " vs " + fuzz::vec(b.stop));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider fdp(data, size);
    if (fdp.ConsumeBool()) run(fdp);
    else run_extended(fdp);
    return 0;
}
