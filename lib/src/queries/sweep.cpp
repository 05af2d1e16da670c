// Moves against shapes: each shape as a union of relatively open convex sets of body
// centres (sweep.hpp), each set as a few constraints, entered at the greatest lower end of
// their intervals of t. See sweep_form.hpp for the formulas.
//
// Which sets (K (+) B is the body B at every point of the piece K):
// - point, rect (any extent), and straight pieces against a point or rect body: one
//   K (+) box, flat where K and the box are (an equality along that normal);
// - a circle body or a circle / capsule shape: K (+) box grown by R along x, along y, and
//   the disks of radius R around its corners (a rounded box); a straight piece grown by R
//   is the open strip beside it plus the disks at its ends;
// - a polygon: its interior (t = 0 when the body starts there) and its edges, where a 2D
//   body meets the interior as soon as it meets an edge. A point body only counts where it
//   enters the interior: through an edge against its inward side, or through a vertex into
//   the open interior cone, before the path's end (ending on the boundary is allowed, SPEC
//   §2.5); a zero-width rect body (a segment) where its centre does, through
//   an edge it is not parallel to, or through a vertex whose open interior cone holds its
//   direction.
#include "queries/sweep.hpp"

#include "geometry/edge_index.hpp"
#include "geometry/shape_geo.hpp"
#include "numeric/predicates.hpp"
#include "queries/sweep_form.hpp"

#include <algorithm>

namespace collide::detail {

namespace {

using Kind = SweepForm::Kind;

// The times in [0, 1] that satisfy every constraint applied so far: an interval whose ends
// may be open.
class Clip {
public:
    bool empty() const { return empty_; }
    void none() { empty_ = true; }
    void raise(const SweepTime& t, bool open) {
        if (empty_) return;
        const int c = compare(t, lo_);
        if (c > 0) {
            lo_ = t;
            lo_open_ = open;
        } else if (c == 0 && open) {
            lo_open_ = true;
        }
        if (lo_.lo > hi_.hi) empty_ = true;  // clearly apart: decided on the bounds alone
    }
    void lower(const SweepTime& t, bool open) {
        if (empty_) return;
        const int c = compare(t, hi_);
        if (c < 0) {
            hi_ = t;
            hi_open_ = open;
        } else if (c == 0 && open) {
            hi_open_ = true;
        }
        if (lo_.lo > hi_.hi) empty_ = true;
    }
    // The infimum of the times, when there are any.
    std::optional<SweepTime> entry() const {
        if (empty_) return std::nullopt;
        const int c = compare(lo_, hi_);
        if (c > 0 || (c == 0 && (lo_open_ || hi_open_))) return std::nullopt;
        return lo_;
    }

private:
    SweepTime lo_ = SweepTime::constant(0.0);
    SweepTime hi_ = SweepTime::constant(1.0);
    bool lo_open_ = false;
    bool hi_open_ = false;
    bool empty_ = false;
};

template <class Pick>
int sign_linear(const SweepForm& f, Pick pick) {
    return sign_of([&](auto z) {
        using T = decltype(z);
        return pick(sweep::linear(f, sweep::Terms<T>(f)));
    });
}

// lambda(t) > 0 (or = 0) for the linear form f.
void apply_linear(Clip& c, SweepForm f, bool equality) {
    if (c.empty()) return;
    f.kind = Kind::Linear;
    const int s1 = sign_linear(f, [](const auto& l) { return l.l1; });
    if (s1 == 0) {
        const int s0 = sign_linear(f, [](const auto& l) { return l.l0; });
        if (equality ? s0 != 0 : s0 <= 0) c.none();
        return;
    }
    f.dsign = static_cast<std::int8_t>(s1);
    const SweepTime t = SweepTime::of(f);
    if (equality) {
        c.raise(t, false);
        c.lower(t, false);
    } else if (s1 > 0) {
        c.raise(t, true);
    } else {
        c.lower(t, true);
    }
}

// |q(t)| < 2R.
void apply_disk(Clip& c, SweepForm f) {
    if (c.empty()) return;
    f.kind = Kind::Disk;
    if (f.from == f.to) {
        if (sign_of([&](auto z) { return sweep::disk_start<decltype(z)>(f); }) >= 0) c.none();
        return;
    }
    if (sign_of([&](auto z) { return sweep::eval<decltype(z)>(f).q; }) <= 0) return c.none();
    f.root = -1;
    c.raise(SweepTime::of(f), true);
    f.root = 1;
    c.lower(SweepTime::of(f), true);
}

// |e x q(t)| < 2R |e|.
void apply_slab(Clip& c, SweepForm f) {
    if (c.empty()) return;
    f.kind = Kind::Slab;
    const int rate = sign_of([&](auto z) { return sweep::slab_rate<decltype(z)>(f); });
    if (rate == 0) {
        if (sign_of([&](auto z) { return sweep::slab_start<decltype(z)>(f); }) >= 0) c.none();
        return;
    }
    f.dsign = static_cast<std::int8_t>(rate);
    f.root = -1;
    c.raise(SweepTime::of(f), true);
    f.root = 1;
    c.lower(SweepTime::of(f), true);
}

int sign_diff(double b, double a) { return b > a ? 1 : (b < a ? -1 : 0); }

// Sign of (b - a) x d, exactly.
int cross_sign(Vec2 a, Vec2 b, Vec2 d0, Vec2 d1) {
    return sign_of([&](auto z) {
        using T = decltype(z);
        return (T(b.x) - T(a.x)) * (T(d1.y) - T(d0.y)) - (T(b.y) - T(a.y)) * (T(d1.x) - T(d0.x));
    });
}

enum class K : std::uint8_t { Point, Rect, Seg, Ray, Line };

// The body on its path, and the least time it enters one of the convex sets K (+) body
// swept so far (zonotope, disk, capsule, rounded): one job, whatever shape K came from.
struct Entries {
    Vec2 from, to;
    double w = 0, h = 0, r = 0;  // body: rect extent, or circle radius
    double r2 = 0;               // the shape's radius (circle, capsule)
    Bounds reach;                // where the body can be
    std::optional<SweepTime> best;

    bool circle() const { return r > 0; }
    bool point() const { return r == 0 && w == 0 && h == 0; }
    bool flat() const { return r == 0 && (w == 0) != (h == 0); }  // a zero-width rect body
    // Entries through a set of no area (a point body crossing a polygon's edge or vertex)
    // reach the interior only after their time: one at the path's end (t = 1) is no entry.
    bool before_end = false;

    bool done() const { return best && best->hi <= 0.0; }

    void take(const std::optional<SweepTime>& t) {
        if (!t || (best && compare(*t, *best) >= 0)) return;
        if (before_end && compare(*t, SweepTime::constant(1.0)) >= 0) return;
        best = t;
    }

    SweepForm base(Vec2 a) const {
        SweepForm f;
        f.from = from;
        f.to = to;
        f.ax = a.x;
        f.ay = a.y;
        f.w = w;
        f.h = h;
        f.r1 = r;
        f.r2 = r2;
        return f;
    }

    // The form of a piece from a to b (Ray: b is the direction).
    SweepForm piece_form(K k, Vec2 a, Vec2 b) const {
        SweepForm f = base(a);
        f.bx = b.x;
        f.by = b.y;
        f.e_diff = k != K::Ray;
        return f;
    }

    // Whether the closed box of a and b can meet the body at all.
    bool near(Vec2 a, Vec2 b) const {
        return !(std::max(a.x, b.x) < reach.min.x || std::min(a.x, b.x) > reach.max.x ||
                 std::max(a.y, b.y) < reach.min.y || std::min(a.y, b.y) > reach.max.y);
    }

    // K (+) the open box W x H (W = w + rx R, H = h + ry R); K from a to b (Ray: b is the
    // direction).
    void zonotope(K k, Vec2 a, Vec2 b, int rx, int ry) {
        SweepForm f = piece_form(k, a, b);
        f.rx = static_cast<std::int8_t>(rx);
        f.ry = static_cast<std::int8_t>(ry);
        const bool no_r = r == 0.0 && r2 == 0.0;
        const bool w0 = w == 0.0 && (rx == 0 || no_r);
        const bool h0 = h == 0.0 && (ry == 0 || no_r);
        const int sx = k == K::Point ? 0 : k == K::Ray ? sign_diff(b.x, 0.0) : sign_diff(b.x, a.x);
        const int sy = k == K::Point ? 0 : k == K::Ray ? sign_diff(b.y, 0.0) : sign_diff(b.y, a.y);
        Clip c;
        auto axis = [&](int alpha, int s, bool zero) {
            SweepForm g = f;
            g.alpha = static_cast<std::int8_t>(alpha);
            if (s == 0 && zero) return apply_linear(c, g, true);  // flat: q = 0 on this axis
            (alpha == 0 ? g.cW : g.cH) = 1;
            const bool lower = !((k == K::Ray && s < 0) || (k == K::Line && s != 0));
            const bool upper = !((k == K::Ray && s > 0) || (k == K::Line && s != 0));
            if (lower) {  // q - 2 min(0, e) + W > 0
                SweepForm l = g;
                if (s < 0) (alpha == 0 ? l.cx : l.cy) = -2;
                apply_linear(c, l, false);
            }
            if (upper) {  // -q + 2 max(0, e) + W > 0
                g.sigma = -1;
                if (s > 0) (alpha == 0 ? g.cx : g.cy) = 2;
                apply_linear(c, g, false);
            }
        };
        axis(0, sx, w0);
        axis(1, sy, h0);
        if ((k == K::Seg || k == K::Ray || k == K::Line) && sx != 0 && sy != 0) {
            SweepForm g = f;
            g.alpha = 2;
            if (w0 && h0) {
                apply_linear(c, g, true);
            } else {  // |e x q| < |ex| H + |ey| W
                g.cxH = static_cast<std::int8_t>(sx);
                g.cyW = static_cast<std::int8_t>(sy);
                apply_linear(c, g, false);
                g.sigma = -1;
                apply_linear(c, g, false);
            }
        }
        take(c.entry());
    }

    // The open disk of radius R = r + r2 around a + o, o = (ox w, oy h) / 2.
    void disk(Vec2 a, int ox, int oy) {
        SweepForm f = base(a);
        f.ox = static_cast<std::int8_t>(ox);
        f.oy = static_cast<std::int8_t>(oy);
        Clip c;
        apply_disk(c, f);
        take(c.entry());
    }

    // The piece from a + o to b + o (Ray: b the direction) grown by R = r + r2 (> 0).
    void capsule(K k, Vec2 a, Vec2 b, int ox, int oy) {
        SweepForm f = piece_form(k, a, b);
        f.ox = static_cast<std::int8_t>(ox);
        f.oy = static_cast<std::int8_t>(oy);
        f.alpha = 3;
        Clip c;
        if (k != K::Line) apply_linear(c, f, false);  // e . q > 0
        if (k == K::Seg) {                            // 2 |e|^2 - e . q > 0
            SweepForm g = f;
            g.sigma = -1;
            g.cee = 2;
            apply_linear(c, g, false);
        }
        apply_slab(c, f);
        take(c.entry());
        if (k != K::Line) disk(a, ox, oy);
        if (k == K::Seg) disk(b, ox, oy);
    }

    // K (a point or a rect from a to b) (+) the body, grown by R = r + r2 > 0.
    void rounded(K k, Vec2 a, Vec2 b) {
        if (k == K::Point && w == 0 && h == 0) return disk(a, 0, 0);
        zonotope(k, a, b, 2, 0);
        zonotope(k, a, b, 0, 2);
        for (int sx : {-1, 1})
            for (int sy : {-1, 1}) disk(Vec2{sx < 0 ? a.x : b.x, sy < 0 ? a.y : b.y}, sx, sy);
    }
};

// An obstacle as the pieces (points, straight pieces, boxes, a polygon's interior) whose
// sets Entries sweeps, until the earliest entry is known to be at t = 0.
class Sweeper {
public:
    Sweeper(const Entries& body, const EdgeIndex* index) : e_(body), index_(index) {}

    // A compound part by part (whose polygons' edges are all read), any other shape whole,
    // each with what it keeps.
    void shape(const Shape& s, const Prepared& prep) {
        if (const auto* c = std::get_if<Compound>(&s)) {
            for (std::size_t i = 0; i < c->parts.size() && !e_.done(); ++i)
                shape(make_owned_geo(c->parts[i], prep.part_keep(i)).geo);
            return;
        }
        shape(make_owned_geo(s, prep.keep()).geo);
    }

    const std::optional<SweepTime>& best() const { return e_.best; }

private:
    // The obstacle as its Geo says (a rect is swept as the box it is, at any extent).
    void shape(const Geo& g) {
        e_.r2 = 0.0;
        if (g.type == ShapeType::Rect) {
            if (e_.circle()) return e_.rounded(K::Rect, g.rect.min, g.rect.max);
            return e_.zonotope(K::Rect, g.rect.min, g.rect.max, 0, 0);
        }
        switch (g.kind) {
            case GeoKind::Point: return point_shape(g.pt);
            case GeoKind::Disk:  // a circle, or a capsule of one centre
                e_.r2 = g.disk.radius;
                return e_.rounded(K::Point, g.disk.center, g.disk.center);
            case GeoKind::Capsule:
                e_.r2 = g.capsule.r;
                return capsule_shape(g.capsule.core.p, g.capsule.core.q);
            case GeoKind::Polygon: return polygon(g.ring());
            case GeoKind::Linear: break;
        }
        if (g.type == ShapeType::Polyline) return polyline(g);
        const Piece& s = g.pieces()[0];  // a segment, line or ray
        if (s.kind == PieceKind::Segment) return segment(s.p, s.q);
        const K k = s.kind == PieceKind::Line ? K::Line : K::Ray;
        if (e_.circle()) return e_.capsule(k, s.p, s.q, 0, 0);
        return e_.zonotope(k, s.p, s.q, 0, 0);
    }

    void point_shape(Vec2 p) {
        if (e_.circle()) return e_.disk(p, 0, 0);
        e_.zonotope(K::Point, p, p, 0, 0);
    }

    void segment(Vec2 a, Vec2 b) {
        if (a == b) return point_shape(a);
        if (e_.circle()) return e_.capsule(K::Seg, a, b, 0, 0);
        e_.zonotope(K::Seg, a, b, 0, 0);
    }

    // A capsule's core a-b (a != b), grown by r2.
    void capsule_shape(Vec2 a, Vec2 b) {
        if (e_.w == 0 && e_.h == 0) return e_.capsule(K::Seg, a, b, 0, 0);
        e_.zonotope(K::Seg, a, b, 2, 0);
        e_.zonotope(K::Seg, a, b, 0, 2);
        for (int sx : {-1, 1})
            for (int sy : {-1, 1}) e_.capsule(K::Seg, a, b, sx, sy);
    }

    // Whether v lies on the open segment from a to b (a != b), exactly.
    static bool inside_segment(Vec2 a, Vec2 b, Vec2 v) {
        return v != a && v != b && on_piece(Piece{PieceKind::Segment, a, b}, v);
    }

    // The piece a-b of an open polyline, for a body of no area (a point or a zero-width rect):
    // an end point of the polyline that lies inside the piece is the polyline's boundary (as
    // in GEOS, wherever else the curve passes), so the piece is swept as the parts it cuts it
    // into, each closed at that end: a body that meets the piece only there (crossing it, or
    // resting on it) touches, one that meets it elsewhere, or moves along it, is inside.
    void piece_with_ends(Vec2 a, Vec2 b, Vec2 front, Vec2 back) {
        Vec2 cuts[4] = {a, a, a, a};
        int n = 1;
        for (const Vec2 e : {front, back})  // distinct: the polyline is open
            if (inside_segment(a, b, e)) cuts[n++] = e;
        cuts[n++] = b;
        // Cuts lie on a-b exactly: their order along it is that of one coordinate.
        const bool by_x = a.x != b.x;
        const auto before = [&](Vec2 u, Vec2 v) { return by_x ? (a.x < b.x ? u.x < v.x : u.x > v.x) : (a.y < b.y ? u.y < v.y : u.y > v.y); };
        if (n == 4 && before(cuts[2], cuts[1])) std::swap(cuts[1], cuts[2]);
        for (int k = 0; k + 1 < n && !e_.done(); ++k) segment(cuts[k], cuts[k + 1]);
    }

    // A polyline of more than one point: its pieces (no repeated point), and an open one's
    // two ends, its boundary (Geo::bd).
    void polyline(const Geo& g) {
        const PieceRun p = g.pieces();
        const bool closed = g.nbd == 0;
        const Vec2 front = g.bd[0];
        const Vec2 back = g.bd[1];
        const bool thin = e_.point() || e_.flat();  // a body of no area
        for (std::size_t i = 0; i < p.size() && !e_.done(); ++i) {
            if (!e_.near(p[i].p, p[i].q)) continue;
            if (thin && !closed && (inside_segment(p[i].p, p[i].q, front) || inside_segment(p[i].p, p[i].q, back)))
                piece_with_ends(p[i].p, p[i].q, front, back);
            else
                segment(p[i].p, p[i].q);
        }
        if (!thin) return;  // a 2D body meets a vertex where it meets an edge
        for (std::size_t i = closed ? 0 : 1; i < p.size() && !e_.done(); ++i) {
            // An open polyline's ends are its boundary, wherever else it passes them.
            const Vec2 v = p[i].p;
            if (!closed && (v == front || v == back)) continue;
            if (e_.near(v, v)) e_.zonotope(K::Point, v, v, 0, 0);
        }
    }

    // Whether direction d1 - d0 (exactly) points into the open interior at vertex v of the
    // ring u, v, x (orient: +1 counter-clockwise).
    static bool into_cone(Vec2 u, Vec2 v, Vec2 x, Vec2 d0, Vec2 d1, int orient) {
        const bool next = cross_sign(v, x, d0, d1) * orient > 0;
        const bool prev = cross_sign(u, v, d0, d1) * orient > 0;
        const int turn = orient_sign(u, v, x) * orient;
        if (turn > 0) return next && prev;
        if (turn < 0) return next || prev;
        return next;
    }
    static int orient_sign(Vec2 a, Vec2 b, Vec2 c) { return orient(a, b, c); }

    // Calls f(i) for the polygon's edges i (from vertex i to i + 1) whose boxes the body can
    // reach, until e.done(): by the edge index when there is one, else every edge (f tests
    // near() itself). A vertex the body can reach starts such an edge.
    template <class F>
    void each_edge(const Entries& e, std::size_t n, F&& f) const {
        if (index_) {
            index_->each_meeting(Bounds{e.reach.min, e.reach.max}, [&](std::size_t i) {
                f(i);
                return !e.done();
            });
            return;
        }
        for (std::size_t i = 0; i < n && !e.done(); ++i) f(i);
    }

    // The polygon's ring (read through index_ when it is big).
    void polygon(Ring v) {
        const std::size_t n = v.n;
        const Ring ring = v;
        if (locate_in(PolygonRef{ring, index_}, e_.from) > 0) return e_.take(SweepTime::constant(0.0));
        const bool thin = e_.point() || e_.flat();
        // (Only a point or segment body needs the winding: O(n) exact, or the index's.)
        const int orient = thin ? (index_ ? index_->orientation() : ring_orientation(ring)) : 1;
        if (thin) {
            // The centre entering the interior: a segment body holds its centre.
            Entries centre = e_;
            centre.w = centre.h = 0.0;
            centre.before_end = true;
            centre_entries(centre, v, orient);
            e_.best = centre.best;
        }
        if (e_.point()) return;
        each_edge(e_, n, [&](std::size_t i) {
            const Vec2 a = v[i];
            const Vec2 b = v[i + 1 == n ? 0 : i + 1];
            if (!e_.near(a, b)) return;
            if (e_.circle()) e_.capsule(K::Seg, a, b, 0, 0);
            else if (!e_.flat() || (e_.w == 0 ? a.x != b.x : a.y != b.y)) e_.zonotope(K::Seg, a, b, 0, 0);
        });
        if (!e_.flat()) return;
        const Vec2 s = e_.w == 0 ? Vec2{0, 1} : Vec2{1, 0};  // the body's direction, both ways
        const Vec2 o{0, 0};
        each_edge(e_, n, [&](std::size_t i) {
            const Vec2 u = v[i == 0 ? n - 1 : i - 1];
            const Vec2 x = v[i + 1 == n ? 0 : i + 1];
            if (e_.near(v[i], v[i]) && (into_cone(u, v[i], x, o, s, orient) || into_cone(u, v[i], x, s, o, orient)))
                e_.zonotope(K::Point, v[i], v[i], 0, 0);
        });
    }

    // A point body (`centre`) entering a polygon's interior: through an edge against its
    // inward side, or through a vertex into the open interior cone.
    void centre_entries(Entries& centre, Ring v, int orient) const {
        if (centre.from == centre.to) return;
        const std::size_t n = v.n;
        each_edge(centre, n, [&](std::size_t i) {
            const Vec2 a = v[i];
            const Vec2 b = v[i + 1 == n ? 0 : i + 1];
            if (centre.near(a, b) && cross_sign(a, b, centre.from, centre.to) * orient > 0) centre.zonotope(K::Seg, a, b, 0, 0);
        });
        each_edge(centre, n, [&](std::size_t i) {
            const Vec2 u = v[i == 0 ? n - 1 : i - 1];
            const Vec2 x = v[i + 1 == n ? 0 : i + 1];
            if (centre.near(v[i], v[i]) && into_cone(u, v[i], x, centre.from, centre.to, orient)) centre.zonotope(K::Point, v[i], v[i], 0, 0);
        });
    }

    Entries e_;
    const EdgeIndex* index_;  // the top-level polygon's edges, when it is big
};

}  // namespace

std::optional<SweepTime> first_contact(const Move& m, const Shape& obstacle, const Prepared& prep) {
    const EdgeIndex* edges = prep.edges;
    const bool indexed =
        edges && std::holds_alternative<Polygon>(obstacle) && edges->size() == std::get<Polygon>(obstacle).points.size();
    Entries body;
    body.from = m.check_path ? m.from : m.to;
    body.to = m.to;
    if (m.body.kind == Body::Kind::Circle) {
        body.r = m.body.radius;
    } else if (m.body.kind == Body::Kind::Rect) {
        body.w = m.body.size.x;
        body.h = m.body.size.y;
    }
    body.reach = swept_bounds(m);
    Sweeper sw(body, indexed ? edges : nullptr);
    sw.shape(obstacle, prep);
    if (!sw.best()) return std::nullopt;
    if (!m.check_path) return SweepTime::constant(1.0);
    return sw.best();
}

}  // namespace collide::detail
