// The geometry of one Tiled object as scene fields (tiled_geometry.hpp).
#include "maps/tiled_geometry.hpp"

#include "numeric/angles.hpp"

#include <algorithm>
#include <vector>

namespace collide::detail::tiled {

// `origin + R(degrees) q`, evaluated as SPEC §2.5 evaluates a box's corner.
Vec2 turned_about(Vec2 origin, Vec2 q, double degrees) {
    if (degrees == 0) return Vec2{origin.x + q.x, origin.y + q.y};
    double c = 1, s = 0;
    cos_sin(degrees, c, s);
    return Vec2{origin.x + q.x * c - q.y * s, origin.y + q.x * s + q.y * c};
}

namespace {

// A point of the object given in its own frame (relative to x, y; before its rotation).
Vec2 local(const Object& o, Vec2 q) { return turned_about(Vec2{o.x, o.y}, q, o.rotation); }

// A rectangle, ellipse or capsule with a zero side: the segment along the other side, or
// the point.
void degenerate(SceneText& out, const Object& o, const Placement& p) {
    if (o.width == 0 && o.height == 0) {
        out.pair("at", p.apply(Vec2{o.x, o.y}));
        return;
    }
    out.pair("a", p.apply(local(o, Vec2{0, 0})));
    out.pair("b", p.apply(local(o, Vec2{o.width, o.height})));
}

}  // namespace

const char* scene_type(const Object& o, const Placement& p) {
    const bool turned = o.rotation != 0 || p.turned();
    switch (o.kind) {
        case ObjectKind::Rect:
            if (o.width == 0 || o.height == 0) return o.width == 0 && o.height == 0 ? "point" : "segment";
            return turned ? (p.uniform() ? "box" : "polygon") : "rect";
        case ObjectKind::Ellipse:
            if (o.width == 0 || o.height == 0) return o.width == 0 && o.height == 0 ? "point" : "segment";
            return o.width == o.height && p.uniform() ? "circle" : "ellipse";
        case ObjectKind::Point: return "point";
        case ObjectKind::Polygon: return "polygon";
        case ObjectKind::Polyline: return "polyline";
        case ObjectKind::Capsule:
            if (o.width == 0 || o.height == 0) return o.width == 0 && o.height == 0 ? "point" : "segment";
            return "capsule";
        case ObjectKind::Text:
        case ObjectKind::Tile: break;
    }
    return "point";
}

void write_fields(SceneText& out, const Object& o, const Placement& p) {
    const bool turned = o.rotation != 0 || p.turned();
    const double w = o.width, h = o.height;
    switch (o.kind) {
        case ObjectKind::Rect:
        case ObjectKind::Ellipse:
        case ObjectKind::Capsule:
            if (w == 0 || h == 0) return degenerate(out, o, p);
            break;
        default: break;
    }
    switch (o.kind) {
        case ObjectKind::Rect:
            if (!turned) {
                if (p.flips == 0 && p.scale.x == 1 && p.scale.y == 1 && p.shift.x == 0 && p.shift.y == 0) {
                    // As Tiled writes it: the min corner and the size.
                    const Vec2 m = p.apply(Vec2{o.x, o.y});
                    out.number("x", m.x);
                    out.number("y", m.y);
                    out.number("width", w);
                    out.number("height", h);
                    return;
                }
                const Vec2 a = p.apply(Vec2{o.x, o.y}), b = p.apply(Vec2{o.x + w, o.y + h});
                out.pair("min", Vec2{std::min(a.x, b.x), std::min(a.y, b.y)});
                out.pair("max", Vec2{std::max(a.x, b.x), std::max(a.y, b.y)});
                return;
            }
            if (!p.uniform()) {
                std::vector<Vec2> corners = {{0, 0}, {w, 0}, {w, h}, {0, h}};
                for (Vec2& c : corners) c = p.apply(local(o, c));
                out.points("points", corners);
                return;
            }
            out.pair("center", p.apply(local(o, Vec2{w / 2, h / 2})));
            out.pair("size", Vec2{w * p.scale.x, h * p.scale.x});
            out.number("angle", p.angle_of(o.rotation));
            return;
        case ObjectKind::Ellipse: {
            const Vec2 center = p.apply(local(o, Vec2{w / 2, h / 2}));
            out.pair("center", center);
            if (w == h && p.uniform()) {
                out.number("radius", w / 2 * p.scale.x);
                return;
            }
            out.pair("radii", Vec2{p.length(w / 2, false), p.length(h / 2, true)});
            out.number("angle", p.angle_of(o.rotation));
            return;
        }
        case ObjectKind::Capsule: {
            // The stadium inscribed in the object's rectangle, along its longer side.
            const double r = std::min(w, h) / 2;
            const Vec2 a = w >= h ? Vec2{r, h / 2} : Vec2{w / 2, r};
            const Vec2 b = w >= h ? Vec2{w - r, h / 2} : Vec2{w / 2, h - r};
            out.pair("a", p.apply(local(o, a)));
            out.pair("b", p.apply(local(o, b)));
            out.number("radius", r * std::min(p.scale.x, p.scale.y));
            return;
        }
        case ObjectKind::Point: out.pair("at", p.apply(Vec2{o.x, o.y})); return;
        case ObjectKind::Polygon:
        case ObjectKind::Polyline: {
            std::vector<Vec2> pts;
            pts.reserve(o.points.size());
            for (const Vec2& q : o.points) pts.push_back(p.apply(local(o, q)));
            out.points("points", pts);
            return;
        }
        case ObjectKind::Text:
        case ObjectKind::Tile: return;
    }
}

void write_part(SceneText& out, const Object& o, const Placement& p) {
    out.begin_part(scene_type(o, p));
    write_fields(out, o, p);
    out.end_part();
}

}  // namespace collide::detail::tiled
