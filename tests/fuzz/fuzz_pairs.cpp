// Fuzz target: collide() on two shapes decoded from the input, checked against properties
// that the contract implies (SPEC §2.1-2.3):
//   1. symmetry: collide(a, b) and collide(b, a) agree on collision, on the relation
//      (mirrored: contains <-> within) and on the points (as sets, within 1e-9 relative);
//   2. every valid shape is `equal` to itself, and to every other spelling of the same
//      point set (a rect as its polygon, a 4-corner axis-aligned polygon as its rect, a
//      zero-radius circle as a point, a capsule with a == b as its circle, a capsule with
//      its ends swapped, ...);
//   3. translation by an offset that keeps every coordinate exact, and scaling by 2 or by
//      1/2 where exact, change no boolean and no relation, and move the points along;
//   4. another spelling of either shape (see 2) changes nothing;
//   5. colliding shapes have overlapping bounds, every point lies in both bounds, and a
//      shape that contains another has bounds that hold the other's;
//   6. with an edge index forced on every polygon and polyline (lib/src/edge_index.hpp; the
//      library indexes only big ones), the same relation and the same points, bit for bit;
//   7. correct rounding (SPEC §2.3): collide(a, b) and collide(b, a) give the same points bit
//      for bit, and each point of two shapes made of straight pieces and circles is an input
//      point or lies within half an ulp, per coordinate, of an exact common point of a piece
//      or circle of a and one of b (decided with Exact; ties are not told apart here, the
//      unit tests of rounding.hpp check them);
//   8. separation (SPEC §2.7): it exists exactly for colliding convex pairs, both orders give
//      the same depth, and b moved along an axis normal by the depth touches a (see there).
//   9. distance (SPEC §2.6): 0 exactly when the shapes collide (or, apart, when the true value
//      is below half the least subnormal), the same both ways bit for bit, and
//      compare_distance consistent with a correctly rounded value.
// A failure prints both shapes and what differed, then traps.
#include "fuzz_common.hpp"
#include "fuzz_spellings.hpp"

#include "geometry/edge_index.hpp"
#include "numeric/predicates.hpp"
#include "numeric/rounding.hpp"
#include "queries/collide_into.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <typeinfo>

using namespace collide;
using fuzz::shape_text;
using fuzz::spellings::equivalent;
using fuzz::spellings::map_shape;
using fuzz::spellings::scaled;
using fuzz::spellings::translated;

namespace {

// ---- decoding -----------------------------------------------------------------------------

class Gen {
public:
    explicit Gen(FuzzedDataProvider& fdp) : f_(fdp) {}

    double coord() {
        double v = 0.0;
        switch (f_.ConsumeIntegralInRange<int>(0, 7)) {
            case 0: v = f_.ConsumeIntegralInRange<int>(-8, 8); break;
            case 1: v = pick(fuzz::interesting_values()); break;
            case 2:
            case 3: v = seen_.empty() ? 0.0 : pick(seen_); break;  // exact copies: degenerate cases
            case 4: v = f_.ConsumeIntegralInRange<int>(-40, 40) / 10.0; break;  // 0.1, 0.3, -2.7, ...
            case 5: {  // a neighbour of a value seen: nearly degenerate cases
                const double s = seen_.empty() ? 1.0 : pick(seen_);
                v = std::nextafter(s, f_.ConsumeBool() ? 1e308 : -1e308);
                break;
            }
            case 6: {  // a value seen plus a small integer (rounds when it is large)
                const double s = seen_.empty() ? 0.0 : pick(seen_);
                v = s + f_.ConsumeIntegralInRange<int>(-4, 4);
                break;
            }
            default: v = f_.ConsumeFloatingPoint<double>(); break;
        }
        if (!std::isfinite(v)) v = 0.0;
        seen_.push_back(v);
        return v;
    }
    Vec2 pos() {
        const double x = coord();
        return Vec2{x, coord()};
    }
    std::vector<Vec2> points(std::size_t lo, std::size_t hi) {
        std::vector<Vec2> p(f_.ConsumeIntegralInRange<std::size_t>(lo, hi));
        for (auto& q : p) q = pos();
        return p;
    }

    // A valid shape (nothing when the bytes spell an invalid one).
    std::optional<Shape> shape() {
        return fuzz::simple_shape(*this, f_, static_cast<ShapeType>(f_.ConsumeIntegralInRange<int>(0, 8)), 7);
    }

    FuzzedDataProvider& data() { return f_; }

private:
    double pick(const std::vector<double>& v) { return v[f_.ConsumeIntegralInRange<std::size_t>(0, v.size() - 1)]; }

    FuzzedDataProvider& f_;
    std::vector<double> seen_;
};

// ---- comparisons --------------------------------------------------------------------------

using fuzz::magnitude;

// collide(), and the property that every intersection point is finite.
std::optional<Contact> call(const Shape& a, const Shape& b, bool want_points = true) {
    std::optional<Contact> r;
    try {
        r = collide::collide(a, b, want_points);
    } catch (const std::exception& e) {
        fuzz::fail(std::string("collide() threw ") + typeid(e).name() + ": " + e.what() + "\na: " + shape_text(a) +
                   "\nb: " + shape_text(b));
    }
    if (r)
        for (Vec2 p : r->points)
            if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
                fuzz::fail("an intersection point is not finite\na: " + shape_text(a) + "\nb: " + shape_text(b) +
                           "\ncollide(a, b): " + fuzz::contact_text(r));
            }
    return r;
}

bool near(Vec2 p, Vec2 q, double tol) { return std::fabs(p.x - q.x) <= tol && std::fabs(p.y - q.y) <= tol; }

// A point beyond the double range is left out of the results (geometry.hpp, Limits), and
// whether one at the edge of the range is kept depends on how its computation rounded. So
// a point needs a counterpart in the other list only below these magnitudes: 1e-9 (the
// accuracy promised) below DBL_MAX when the same shapes are compared, and DBL_MAX / 4
// across a scaling by 2 or 1/2, which moves the edge of the range by that factor.
constexpr double kSameShapesLimit = 0x1.fffffffffffffp1023 * (1 - 1e-9);
constexpr double kScaledShapesLimit = 0x1.fffffffffffffp1023 / 4;

// The two point lists are the same set within tol (each point of one, below `limit` in
// magnitude, is near one of the other). tol grows to 1e-9 relative to the points
// themselves: two lines that are nearly parallel cross far beyond every input coordinate.
bool same_points(const std::vector<Vec2>& a, const std::vector<Vec2>& b, double tol, double limit = kSameShapesLimit) {
    tol = std::max(tol, 1e-300);  // no relative accuracy is possible among subnormals
    for (const auto* v : {&a, &b})
        for (Vec2 p : *v)
            if (std::isfinite(p.x) && std::isfinite(p.y)) tol = std::max(tol, 1e-9 * std::max(std::fabs(p.x), std::fabs(p.y)));
    auto covered = [&](const std::vector<Vec2>& x, const std::vector<Vec2>& y) {
        for (Vec2 p : x) {
            if (!(std::max(std::fabs(p.x), std::fabs(p.y)) <= limit)) continue;
            if (std::none_of(y.begin(), y.end(), [&](Vec2 q) { return near(p, q, tol); })) return false;
        }
        return true;
    };
    return covered(a, b) && covered(b, a);
}

// Capsule outline points start from a computation in plain doubles, and which of them exist
// is partly read from it where it is clear by a margin (lib/src/capsule.hpp, Limit): with a
// capsule beyond 1e150 in magnitude on either side points may be left out, so only the
// booleans and relations are compared there.
bool points_promised(const Shape& a, const Shape& b) {
    for (const Shape* s : {&a, &b})
        if (std::holds_alternative<Capsule>(*s) && magnitude(*s) > 1e150) return false;
    return true;
}

std::vector<Vec2> map_points(std::vector<Vec2> pts, double k, Vec2 off) {
    for (auto& p : pts) p = Vec2{p.x * k + off.x, p.y * k + off.y};
    return pts;
}

struct Case {
    Shape a;
    Shape b;
    std::optional<Contact> ab;
    double tol;  // 1e-9 relative to the largest magnitude involved
};

std::string inputs(const Case& c) {
    return "a: " + shape_text(c.a) + "\nb: " + shape_text(c.b) + "\ncollide(a, b): " + fuzz::contact_text(c.ab);
}

// collide(a2, b2) must give what collide(a, b) gave, with points mapped by p * k + off.
void expect_same(const Case& c, const char* what, const Shape& a2, const Shape& b2, double k, Vec2 off) {
    const auto r = call(a2, b2);
    const double tol = std::max(c.tol, 1e-9 * std::max(magnitude(a2), magnitude(b2)));
    const double limit = k == 1.0 ? kSameShapesLimit : kScaledShapesLimit;
    bool ok = r.has_value() == c.ab.has_value();
    if (ok && r)
        ok = r->relation == c.ab->relation && (!points_promised(c.a, c.b) || !points_promised(a2, b2) ||
                                               same_points(r->points, map_points(c.ab->points, k, off), tol, limit));
    if (!ok)
        fuzz::fail(std::string(what) + " changed the result\n" + inputs(c) + "\na': " + shape_text(a2) +
                   "\nb': " + shape_text(b2) + "\ncollide(a', b'): " + fuzz::contact_text(r));
}

void expect_equal_to_itself(const Shape& s, const Shape& same, const char* what) {
    const auto r = call(s, same);
    if (!r || r->relation != Relation::Equal)
        fuzz::fail(std::string("a shape is not `equal` to ") + what + "\nshape: " + shape_text(s) +
                   "\nsame: " + shape_text(same) + "\ncollide: " + fuzz::contact_text(r));
}

bool in_bounds(Vec2 p, const Bounds& b, double tol) {
    return p.x >= b.min.x - tol && p.x <= b.max.x + tol && p.y >= b.min.y - tol && p.y <= b.max.y + tol;
}

// An edge index of a polygon or polyline of any size, or null.
std::unique_ptr<detail::EdgeIndex> forced_index(const Shape& s) {
    if (const auto* p = std::get_if<Polygon>(&s))
        return std::make_unique<detail::EdgeIndex>(detail::Ring{p->points.data(), p->points.size()});
    if (const auto* l = std::get_if<Polyline>(&s)) {
        std::vector<detail::Piece> pieces = detail::polyline_pieces(l->points);
        if (!pieces.empty()) return std::make_unique<detail::EdgeIndex>(std::move(pieces));
    }
    return nullptr;
}

void check_index(const Case& c) {
    const auto ia = forced_index(c.a);
    const auto ib = forced_index(c.b);
    if (!ia && !ib) return;
    std::vector<Vec2> plain, indexed;
    detail::Scratch scratch;
    const auto r_plain = detail::collide_into(c.a, c.b, &plain, {}, {}, scratch);
    const auto r_indexed = detail::collide_into(c.a, c.b, &indexed, ia.get(), ib.get(), scratch);
    if (r_plain != r_indexed || plain != indexed)
        fuzz::fail("an edge index changes the result\n" + inputs(c) + "\nindexed: " +
                   (r_indexed ? std::string(relation_name(*r_indexed)) : std::string("none")) + ", " +
                   std::to_string(indexed.size()) + " points against " + std::to_string(plain.size()));
}

void check_bounds(const Case& c) {
    if (!c.ab) return;
    const Bounds ba = bounds_of(c.a);
    const Bounds bb = bounds_of(c.b);
    if (ba.min.x > bb.max.x || bb.min.x > ba.max.x || ba.min.y > bb.max.y || bb.min.y > ba.max.y)
        fuzz::fail("colliding shapes with disjoint bounds\n" + inputs(c));
    if (points_promised(c.a, c.b))
        for (Vec2 p : c.ab->points)
            if (!in_bounds(p, ba, c.tol) || !in_bounds(p, bb, c.tol))
                fuzz::fail("an intersection point outside a shape's bounds: " + fuzz::vec(p) + "\n" + inputs(c));
    auto holds = [&](const Bounds& big, const Bounds& small) {
        return in_bounds(small.min, big, c.tol) && in_bounds(small.max, big, c.tol);
    };
    const Relation r = c.ab->relation;
    if ((r == Relation::Contains || r == Relation::Equal) && !holds(ba, bb))
        fuzz::fail("a contains b but b's bounds exceed a's\n" + inputs(c));
    if ((r == Relation::Within || r == Relation::Equal) && !holds(bb, ba))
        fuzz::fail("a is within b but a's bounds exceed b's\n" + inputs(c));
}

// ---- 7. correct rounding ------------------------------------------------------------------

// A shape's outline as pieces and circles (a circle of radius 0 and a zero-length piece are
// points: their only common points with anything are input points), and its input points.
struct Outline {
    std::vector<detail::Piece> pieces;
    std::vector<Circle> circles;
    std::vector<Vec2> vertices;
    bool supported = true;  // capsules are not checked here
};

Outline outline_of(const Shape& s) {
    using detail::Piece;
    using detail::PieceKind;
    Outline o;
    auto segment = [&](Vec2 a, Vec2 b) {
        o.vertices.push_back(a);
        o.vertices.push_back(b);
        if (!(a == b)) o.pieces.push_back(Piece{PieceKind::Segment, a, b});
    };
    if (const auto* p = std::get_if<Point>(&s)) o.vertices.push_back(p->at);
    else if (const auto* c = std::get_if<Circle>(&s)) c->radius > 0 ? o.circles.push_back(*c) : o.vertices.push_back(c->center);
    else if (const auto* g = std::get_if<Segment>(&s)) segment(g->a, g->b);
    else if (const auto* l = std::get_if<Line>(&s)) o.pieces.push_back(Piece{PieceKind::Line, l->a, l->b}), o.vertices = {l->a, l->b};
    else if (const auto* r = std::get_if<Ray>(&s)) o.pieces.push_back(Piece{PieceKind::Ray, r->origin, r->direction}), o.vertices = {r->origin};
    else if (const auto* q = std::get_if<Rect>(&s)) {
        const Vec2 c[4] = {q->min, {q->max.x, q->min.y}, q->max, {q->min.x, q->max.y}};
        for (int i = 0; i < 4; ++i) segment(c[i], c[(i + 1) % 4]);
    } else if (const auto* pg = std::get_if<Polygon>(&s)) {
        for (std::size_t i = 0; i < pg->points.size(); ++i) segment(pg->points[i], pg->points[(i + 1) % pg->points.size()]);
    } else if (const auto* pl = std::get_if<Polyline>(&s)) {
        for (std::size_t i = 0; i + 1 < pl->points.size(); ++i) segment(pl->points[i], pl->points[i + 1]);
        if (pl->points.size() == 1) o.vertices.push_back(pl->points[0]);
    } else {
        o.supported = false;
    }
    return o;
}

// Whether the exact value num / den (a generic form over the number type) lies within half an
// ulp of v: between the midpoints of v and its neighbours (a neighbour beyond the double range
// bounds nothing). Each midpoint's sign with DoubleWord when it can tell, else with Exact.
template <class F>
bool within_half_ulp(F&& form, double v) {
    using detail::DoubleWord;
    using detail::Exact;
    const auto fast = form(DoubleWord{});
    std::optional<decltype(form(Exact{}))> exact;
    auto vs_mid = [&](double w) {  // sign(num / den - (v + w) / 2)
        const int sd = detail::sign_value(fast.den);
        if (sd != detail::Filtered::kUnknown) {
            const int s = detail::sign_value(detail::twice_minus(fast.num, (DoubleWord(v) + DoubleWord(w)) * fast.den));
            if (s != detail::Filtered::kUnknown) return s * sd;
        }
        if (!exact) exact.emplace(form(Exact{}));
        return detail::sign_value(exact->den) *
               detail::sign_value(detail::twice_minus(exact->num, (Exact(v) + Exact(w)) * exact->den));
    };
    const double below = std::nextafter(v, -HUGE_VAL);
    const double above = std::nextafter(v, HUGE_VAL);
    return (!std::isfinite(below) || vs_mid(below) >= 0) && (!std::isfinite(above) || vs_mid(above) <= 0);
}

// The exact common points of two outline parts, as generic forms (written here from the
// geometry, independently of the library's): each is tried against p.
bool rounds_to(const detail::Piece& s, const detail::Piece& t, Vec2 p) {
    using detail::dir_x;
    using detail::dir_y;
    // s.p + u dir(s) on t's line: u = cross(t.p - s.p, dir t) / cross(dir s, dir t).
    if (detail::sign_of([&](auto z) { using T = decltype(z); return dir_x<T>(s) * dir_y<T>(t) - dir_y<T>(s) * dir_x<T>(t); }) == 0)
        return false;  // parallel: common points are input points
    auto coordinate = [&](bool y) {
        return [&, y](auto zero) {
            using T = decltype(zero);
            const T den = dir_x<T>(s) * dir_y<T>(t) - dir_y<T>(s) * dir_x<T>(t);
            const T num = (T(t.p.x) - T(s.p.x)) * dir_y<T>(t) - (T(t.p.y) - T(s.p.y)) * dir_x<T>(t);
            const T start = T(y ? s.p.y : s.p.x) * den + num * (y ? dir_y<T>(s) : dir_x<T>(s));
            return detail::Quotient<T, T>{start, den};
        };
    };
    return within_half_ulp(coordinate(false), p.x) && within_half_ulp(coordinate(true), p.y);
}

bool rounds_to(const detail::Piece& s, const Circle& c, Vec2 p) {
    using detail::Root;
    // |s.p + u d - c|^2 = r^2: u = (-(d . e) + k sqrt((d . e)^2 - |d|^2 (|e|^2 - r^2))) / |d|^2, e = s.p - c.
    auto disc = [&](auto zero) {
        using T = decltype(zero);
        const T dx = detail::dir_x<T>(s);
        const T dy = detail::dir_y<T>(s);
        const T ex = T(s.p.x) - T(c.center.x);
        const T ey = T(s.p.y) - T(c.center.y);
        const T de = dx * ex + dy * ey;
        return de * de - (dx * dx + dy * dy) * (ex * ex + ey * ey - T(c.radius) * T(c.radius));
    };
    if (detail::sign_of(disc) < 0) return false;  // the line misses the circle
    for (double k : {-1.0, 1.0}) {
        auto coordinate = [&](bool y) {
            return [&, y](auto zero) {
                using T = decltype(zero);
                const T dx = detail::dir_x<T>(s);
                const T dy = detail::dir_y<T>(s);
                const T dd = dx * dx + dy * dy;
                const T de = dx * (T(s.p.x) - T(c.center.x)) + dy * (T(s.p.y) - T(c.center.y));
                const T dir = y ? dy : dx;
                // s.p + u d, times |d|^2.
                const T start = T(y ? s.p.y : s.p.x) * dd - de * dir;
                return detail::Quotient<Root<T>, T>{Root<T>{start, T(k) * dir, disc(zero)}, dd};
            };
        };
        if (within_half_ulp(coordinate(false), p.x) && within_half_ulp(coordinate(true), p.y)) return true;
    }
    return false;
}

bool rounds_to(const Circle& a, const Circle& b, Vec2 p) {
    using detail::Root;
    // On the radical line: with D = b.c - a.c, m = (|D|^2 + ra^2 - rb^2) / 2, the points are
    // a.c + (m D + k sqrt(|D|^2 ra^2 - m^2) perp(D)) / |D|^2; below, everything times 2.
    if (a.center == b.center) return false;
    auto parts = [&](auto zero) {
        using T = decltype(zero);
        const T dx = T(b.center.x) - T(a.center.x);
        const T dy = T(b.center.y) - T(a.center.y);
        const T d2 = dx * dx + dy * dy;
        const T ra2 = T(a.radius) * T(a.radius);
        const T twice_m = d2 + ra2 - T(b.radius) * T(b.radius);
        return std::array<T, 5>{dx, dy, d2, twice_m, T(4.0) * d2 * ra2 - twice_m * twice_m};
    };
    if (detail::sign_of([&](auto zero) { return parts(zero)[4]; }) < 0) return false;  // apart or nested
    for (double k : {-1.0, 1.0}) {
        auto coordinate = [&](bool y) {
            return [&, y](auto zero) {
                using T = decltype(zero);
                const auto [dx, dy, d2, twice_m, disc] = parts(zero);
                const T start = T(2.0) * T(y ? a.center.y : a.center.x) * d2 + twice_m * (y ? dy : dx);
                return detail::Quotient<Root<T>, T>{Root<T>{start, T(k) * (y ? dx : -dy), disc}, T(2.0) * d2};
            };
        };
        if (within_half_ulp(coordinate(false), p.x) && within_half_ulp(coordinate(true), p.y)) return true;
    }
    return false;
}

void check_rounding(const Case& c) {
    if (!c.ab || c.ab->points.empty()) return;
    const Outline oa = outline_of(c.a);
    const Outline ob = outline_of(c.b);
    if (!oa.supported || !ob.supported) return;
    for (Vec2 p : c.ab->points) {
        auto is = [&](Vec2 v) { return v == p; };
        if (std::any_of(oa.vertices.begin(), oa.vertices.end(), is) || std::any_of(ob.vertices.begin(), ob.vertices.end(), is))
            continue;
        // Only parts whose boxes hold p (up to an ulp, and 1e-9 of a circle) can give it.
        auto in_box = [&](double lo, double hi, double v) {
            return v >= std::nextafter(lo, -HUGE_VAL) && v <= std::nextafter(hi, HUGE_VAL);
        };
        auto near_piece = [&](const detail::Piece& s) {
            return s.kind != detail::PieceKind::Segment ||
                   (in_box(std::min(s.p.x, s.q.x), std::max(s.p.x, s.q.x), p.x) &&
                    in_box(std::min(s.p.y, s.q.y), std::max(s.p.y, s.q.y), p.y));
        };
        auto near_circle = [&](const Circle& k) {
            const double r = k.radius * (1 + 1e-9);
            return in_box(k.center.x - r, k.center.x + r, p.x) && in_box(k.center.y - r, k.center.y + r, p.y);
        };
        bool found = false;
        for (const auto& s : oa.pieces) {
            if (!near_piece(s)) continue;
            for (const auto& t : ob.pieces) found = found || (near_piece(t) && rounds_to(s, t, p));
            for (const auto& k : ob.circles) found = found || (near_circle(k) && rounds_to(s, k, p));
        }
        for (const auto& k : oa.circles) {
            if (!near_circle(k)) continue;
            for (const auto& t : ob.pieces) found = found || (near_piece(t) && rounds_to(t, k, p));
            for (const auto& l : ob.circles) found = found || (near_circle(l) && rounds_to(k, l, p));
        }
        if (!found)
            fuzz::fail("a point is not an exact common point correctly rounded: " + fuzz::vec(p) + "\n" + inputs(c));
    }
}

// ---- 8. separation ------------------------------------------------------------------------

// Whether separation() takes the shape: SPEC §2.7's convex kinds, a polygon when it never
// turns against its own winding (exact orientations, written here independently).
bool convex_kind(const Shape& s) {
    switch (type_of(s)) {
        case ShapeType::Line:
        case ShapeType::Ray:
        case ShapeType::Polyline:
        case ShapeType::Compound: return false;
        case ShapeType::Polygon: {
            const auto& v = std::get<Polygon>(s).points;
            bool left = false, right = false;
            for (std::size_t i = 0; i < v.size(); ++i) {
                const int o = detail::orient(v[i], v[(i + 1) % v.size()], v[(i + 2) % v.size()]);
                left = left || o > 0;
                right = right || o < 0;
            }
            return !(left && right);
        }
        default: return true;
    }
}

// Whether every coordinate and radius is an integer below 2^50: then a depth along an axis is
// a sum of them, exact, and b moved by it must touch a.
bool integral(const Shape& s) {
    bool ok = true;
    auto g = [&](double v) -> std::optional<double> {
        ok = ok && v == std::floor(v) && std::fabs(v) < 0x1p50;
        return v;
    };
    map_shape(
        s,
        [&](Vec2 p) -> std::optional<Vec2> {
            g(p.x);
            g(p.y);
            return p;
        },
        g);
    return ok;
}

// SPEC §2.7: separation(a, b) exists exactly for colliding convex pairs; separation(b, a) has
// the same depth (the same exact value, correctly rounded); the normal is a unit vector. Along
// an axis, b moved exactly by t * normal must overlap in the interiors for t = depth / 2 (any
// t below the depth), miss a for t = depth + 1 (any t above it), and touch it at t = depth > 0
// when that is exact.
void check_separation(const Case& c) {
    std::optional<Separation> s, m;
    try {
        s = separation(c.a, c.b);
        m = separation(c.b, c.a);
    } catch (const std::exception& e) {
        fuzz::fail(std::string("separation() threw ") + typeid(e).name() + ": " + e.what() + "\n" + inputs(c));
    }
    auto text = [](const std::optional<Separation>& x) {
        return x ? "normal " + fuzz::vec(x->normal) + " depth " + fuzz::num(x->depth) : std::string("none");
    };
    const bool convex = convex_kind(c.a) && convex_kind(c.b);
    if (s.has_value() != (convex && c.ab.has_value()) || m.has_value() != s.has_value() || (s && m->depth != s->depth))
        fuzz::fail("separation is wrong in kind or asymmetric\n" + inputs(c) + "\nseparation(a, b): " + text(s) +
                   "\nseparation(b, a): " + text(m));
    if (!s) return;
    const Vec2 n = s->normal;
    if (!(s->depth >= 0) || std::fabs(n.x * n.x + n.y * n.y - 1) > 1e-15)
        fuzz::fail("a separation with a negative depth or a normal that is not a unit vector\n" + inputs(c) +
                   "\nseparation(a, b): " + text(s));
    if (!((std::fabs(n.x) == 1 && n.y == 0) || (n.x == 0 && std::fabs(n.y) == 1)) || !(s->depth < 0x1p52)) return;
    auto moved = [&](double t, const char* what, bool collides, bool touches) {
        const auto b2 = translated(c.b, Vec2{t * n.x, t * n.y});
        if (!b2) return;  // not exact
        const auto r = call(c.a, *b2, false);
        if (r.has_value() != collides || (r && (r->relation == Relation::Touch) != touches))
            fuzz::fail(std::string("b moved by ") + what + " * normal: " + fuzz::contact_text(r) + "\n" + inputs(c) +
                       "\nseparation(a, b): " + text(s) + "\nb': " + shape_text(*b2));
    };
    moved(s->depth + 1, "depth + 1", false, false);
    if (s->depth > 1e-300) moved(s->depth / 2, "depth / 2", true, false);
    // (A depth of 0 while the interiors meet is a pair without area, a point inside a
    // segment: any move parts them, and moving by 0 changes nothing.)
    if (s->depth > 0 && integral(c.a) && integral(c.b)) moved(s->depth, "depth", true, true);
}

// ---- 9. distance and compare_distance ------------------------------------------------------

void check_distance(const Case& c) {
    double d = 0.0;
    double back = 0.0;
    try {
        d = collide::distance(c.a, c.b);
        back = collide::distance(c.b, c.a);
    } catch (const std::exception& e) {
        fuzz::fail(std::string("distance() threw ") + typeid(e).name() + ": " + e.what() + "\n" + inputs(c));
    }
    auto fail = [&](const std::string& what) {
        fuzz::fail(what + "\n" + inputs(c) + "\ndistance: " + fuzz::num(d) + ", reversed: " + fuzz::num(back));
    };
    const bool same = (d == back || (std::isnan(d) && std::isnan(back))) && std::signbit(d) == std::signbit(back);
    if (!same) fail("distance(a, b) and distance(b, a) differ");
    if (!(d >= 0.0)) fail("a negative or NaN distance");
    auto cmp = [&](double bound) { return collide::compare_distance(c.a, c.b, bound); };
    if (c.ab) {
        if (d != 0.0) fail("colliding shapes at a distance");
        if (cmp(0.0) != 0 || cmp(0x1p-1074) != -1) fail("compare_distance of colliding shapes is not 0 at 0");
        return;
    }
    // Apart: a distance rounded to 0 is at most half the least subnormal (closed sets that
    // do not meet are apart by a positive amount, which may underflow).
    if (d == 0.0) {
        if (cmp(0x1p-1074) != -1 || cmp(0.0) != 1) fail("shapes apart at distance 0");
        return;
    }
    if (cmp(0.0) != 1) fail("shapes apart compare as touching");
    if (!std::isfinite(d)) {
        if (cmp(0x1.fffffffffffffp1023) != 1) fail("an infinite distance below DBL_MAX");
        return;
    }
    const double up = std::nextafter(d, HUGE_VAL);
    const double down = std::nextafter(d, 0.0);
    if ((std::isfinite(up) && cmp(up) != -1) || cmp(down) != 1)
        fail("compare_distance disagrees with the rounded distance");
    if (collide::compare_distance(c.b, c.a, d) != cmp(d)) fail("compare_distance(a, b) and (b, a) differ");
}

void run(FuzzedDataProvider& fdp) {
    Gen gen(fdp);
    auto a = gen.shape();
    if (!a) return;
    auto b = gen.shape();
    if (!b) return;
    const unsigned pick_a = fdp.ConsumeIntegral<std::uint8_t>();
    const unsigned pick_b = fdp.ConsumeIntegral<std::uint8_t>();
    const int kx = fdp.ConsumeIntegralInRange<int>(-60, 80);
    const int ky = fdp.ConsumeIntegralInRange<int>(-60, 80);
    const bool neg_x = fdp.ConsumeBool();
    const bool neg_y = fdp.ConsumeBool();

    static const bool verbose = std::getenv("FUZZ_VERBOSE") != nullptr;  // to read a crasher: FUZZ_VERBOSE=1
    if (verbose) std::fprintf(stderr, "a: %s\nb: %s\n", shape_text(*a).c_str(), shape_text(*b).c_str());
    // 1e-9 relative, but no relative accuracy is possible among subnormals.
    Case c{*a, *b, call(*a, *b), std::max(1e-300, 1e-9 * std::max(magnitude(*a), magnitude(*b)))};

    // 1. symmetry
    const auto ba = call(*b, *a);
    if (c.ab.has_value() != ba.has_value() || (ba && (ba->relation != mirrored(c.ab->relation) ||
                                                      (points_promised(c.a, c.b) && !same_points(c.ab->points, ba->points, c.tol)))))
        fuzz::fail("collide(a, b) and collide(b, a) disagree\n" + inputs(c) + "\ncollide(b, a): " + fuzz::contact_text(ba));
    // Without points, the same boolean and relation.
    const auto np = call(*a, *b, false);
    if (np.has_value() != c.ab.has_value() || (np && (np->relation != c.ab->relation || !np->points.empty())))
        fuzz::fail("want_points = false changes the result\n" + inputs(c) + "\nwithout points: " + fuzz::contact_text(np));

    // 2. equal to itself, and to other spellings of itself
    expect_equal_to_itself(*a, *a, "itself");
    expect_equal_to_itself(*b, *b, "itself");
    const auto ea = equivalent(*a, pick_a);
    const auto eb = equivalent(*b, pick_b);
    if (ea) expect_equal_to_itself(*a, *ea, "another spelling of it");
    if (eb) expect_equal_to_itself(*b, *eb, "another spelling of it");

    // 3. exact translations and scalings
    const Vec2 off{std::ldexp(neg_x ? -1.0 : 1.0, kx), std::ldexp(neg_y ? -1.0 : 1.0, ky)};
    const auto ta = translated(*a, off);
    const auto tb = translated(*b, off);
    if (ta && tb) expect_same(c, "an exact translation", *ta, *tb, 1.0, off);
    for (double k : {2.0, 0.5}) {
        const auto sa = scaled(*a, k);
        const auto sb = scaled(*b, k);
        if (sa && sb) expect_same(c, k == 2.0 ? "scaling by 2" : "scaling by 1/2", *sa, *sb, k, Vec2{});
    }

    // 4. other spellings
    if (ea) expect_same(c, "another spelling of a", *ea, *b, 1.0, Vec2{});
    if (eb) expect_same(c, "another spelling of b", *a, *eb, 1.0, Vec2{});

    // 5. bounds
    check_bounds(c);

    // 6. the edge index
    check_index(c);

    // 7. correct rounding
    if (ba && points_promised(c.a, c.b) && ba->points != c.ab->points)
        fuzz::fail("collide(a, b) and collide(b, a) give different points\n" + inputs(c) + "\ncollide(b, a): " +
                   fuzz::contact_text(ba));
    check_rounding(c);

    // 8. separation
    check_separation(c);
    // 9. distance
    check_distance(c);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider fdp(data, size);
    run(fdp);
    return 0;
}
