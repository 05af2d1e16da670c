// A collision object's shapes as collide shapes (SPEC §1.6 "Bodies"), each placed by the body's
// global transform times the shape node's own.
#include "maps/godot_shapes.hpp"

#include "collide/error.hpp"

#include <algorithm>
#include <cmath>

namespace collide::detail::godot {

namespace {

constexpr double kPi = 3.14159265358979323846;

// As Godot's Vector2::length: the square root of the sum of the squares, each rounded.
double length(Vec2 v) { return std::sqrt(v.x * v.x + v.y * v.y); }

// Whether M scales every direction alike (a rotation, a mirror, a uniform scale): a circle
// stays a circle. The columns are compared to a few ulps: a rotation's sine and cosine are
// rounded.
bool uniform(const Affine& m) {
    const double lx = length(m.x), ly = length(m.y);
    const double dot = m.x.x * m.y.x + m.x.y * m.y.y;
    const double tol = 1e-12 * std::max(lx * lx, ly * ly);
    return std::abs(lx * lx - ly * ly) <= tol && std::abs(dot) <= tol;
}

Part point_list(const char* type, const Affine& m, const std::vector<Vec2>& local) {
    Part p;
    p.type = type;
    for (const Vec2& v : local) p.points.push_back(m.point(v));
    return p;
}

Part segment(const Affine& m, Vec2 a, Vec2 b) {
    Part p;
    p.type = "segment";
    p.pairs = {{"a", m.point(a)}, {"b", m.point(b)}};
    return p;
}

// A property of a shape resource: a number or a Vector2, Godot's default when absent.
struct ShapeProps {
    const Resource& res;
    const Node& node;
    double number(std::string_view key, double fallback) const {
        const Value* v = res.property(key);
        if (!v) return fallback;
        if (!v->is_number()) fail(res.file->path, v->line, v->column, what(key).text() + " must be a number, not " + describe(*v));
        return v->number();
    }
    Vec2 vector(std::string_view key, Vec2 fallback) const {
        const Value* v = res.property(key);
        if (!v) return fallback;
        return vector_value(res.file->path, *v, what(key));
    }
    std::vector<Vec2> points(std::string_view key) const {
        const Value* v = res.property(key);
        return v ? points_of(res.file->path, *v, what(key)) : std::vector<Vec2>{};
    }
    What what(std::string_view key) const { return What{node, res.type, ".", key}; }
};

void circle(const ShapeProps& r, const Affine& m, std::vector<Part>& out) {
    const double radius = r.number("radius", 10);
    Part p;
    if (uniform(m)) {
        p.type = "circle";
        p.pairs = {{"center", m.origin}};
        p.numbers = {{"radius", radius * length(m.x)}};
    } else {
        // The image of the circle under M's linear part A = [x y]: an ellipse whose radii are
        // r times A's singular values and whose first axis is A's first left singular vector
        // (the closed form of the 2 x 2 singular value decomposition).
        const double e = (m.x.x + m.y.y) / 2, f = (m.x.x - m.y.y) / 2, g = (m.x.y + m.y.x) / 2, h = (m.x.y - m.y.x) / 2;
        const double q = std::hypot(e, h), s = std::hypot(f, g);
        const double big = q + s, small = std::abs(q - s);
        if (!(small > 0)) fail(r.node.file->path, r.node.line, r.node.column, who(r.node) + ": a circle scaled flat (its transform has no area)");
        const double angle = (std::atan2(g, f) + std::atan2(h, e)) / 2;
        p.type = "ellipse";
        p.pairs = {{"center", m.origin}, {"radii", Vec2{radius * big, radius * small}}};
        p.numbers = {{"angle", angle * 180 / kPi}};
    }
    out.push_back(std::move(p));
}

void capsule(const ShapeProps& r, const Affine& m, std::vector<Part>& out) {
    // CapsuleShape2D's setters in the order written: each clamps the other (height >= 2 radius).
    double radius = 10, height = 30;
    for (const auto& [key, v] : r.res.section->properties) {
        if (key != "radius" && key != "height") continue;
        if (!v.is_number()) fail(r.res.file->path, v.line, v.column, r.what(key).text() + " must be a number, not " + describe(v));
        if (key == "radius") {
            radius = v.number();
            if (height < 2 * radius) height = 2 * radius;
        } else {
            height = v.number();
            if (radius > height / 2) radius = height / 2;
        }
    }
    if (!uniform(m)) fail(r.node.file->path, r.node.line, r.node.column, who(r.node) + ": a capsule under a non-uniform scale or skew");
    const double half = height / 2 - radius;
    Part p;
    p.type = "capsule";
    p.pairs = {{"a", m.point(Vec2{0, -half})}, {"b", m.point(Vec2{0, half})}};
    p.numbers = {{"radius", radius * length(m.x)}};
    out.push_back(std::move(p));
}

void rectangle(const ShapeProps& r, const Affine& m, std::vector<Part>& out) {
    const Vec2 size = r.vector("size", Vec2{20, 20});
    const double hx = size.x / 2, hy = size.y / 2;
    if (m.x.y == 0 && m.y.x == 0 && m.x.x > 0 && m.y.y > 0) {
        Part p;
        p.type = "rect";
        p.pairs = {{"min", m.point(Vec2{-hx, -hy})}, {"max", m.point(Vec2{hx, hy})}};
        out.push_back(std::move(p));
        return;
    }
    out.push_back(point_list("polygon", m, {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}}));
}

}  // namespace

bool shape_parts(Files& files, const Node& node, const Affine& m, BodyParts& out) {
    std::vector<Part>& parts = bool_prop(node, node.prop("one_way_collision"), false) ? out.one_way : out.parts;
    if (node.type == "CollisionPolygon2D") {
        const Prop* polygon = node.prop("polygon");
        if (!polygon) return false;
        std::vector<Vec2> pts = points_of(polygon->from->path, *polygon->value, What{node, "polygon"});
        if (pts.empty()) return false;
        const double mode = number_prop(node, node.prop("build_mode"), 0);
        if (mode == 1) {
            pts.push_back(pts.front());  // segments: the outline, closed
            parts.push_back(point_list("polyline", m, pts));
        } else {
            parts.push_back(point_list("polygon", m, pts));
        }
        return true;
    }
    const Prop* shape = node.prop("shape");
    if (!shape || shape->value->kind == Value::Kind::Nil) return false;
    const Resource res = resource(files, *shape->from, *shape->value);
    if (!res.section)
        fail(shape->from->path, shape->value->line, shape->value->column, who(node) + ": shape must be a resource, not " + describe(*shape->value));
    const ShapeProps r{res, node};
    if (res.type == "RectangleShape2D") rectangle(r, m, parts);
    else if (res.type == "CircleShape2D") circle(r, m, parts);
    else if (res.type == "CapsuleShape2D") capsule(r, m, parts);
    else if (res.type == "SegmentShape2D") parts.push_back(segment(m, r.vector("a", Vec2{0, 0}), r.vector("b", Vec2{0, 10})));
    else if (res.type == "SeparationRayShape2D") parts.push_back(segment(m, Vec2{0, 0}, Vec2{0, r.number("length", 20)}));
    else if (res.type == "WorldBoundaryShape2D") {
        const Vec2 n = r.vector("normal", Vec2{0, -1});
        const double d = r.number("distance", 0);
        const Vec2 at{n.x * d, n.y * d};
        Part p;
        p.type = "line";
        p.pairs = {{"a", m.point(at)}, {"b", m.point(Vec2{at.x - n.y, at.y + n.x})}};
        parts.push_back(std::move(p));
        out.world_boundary = true;
    } else if (res.type == "ConvexPolygonShape2D") {
        parts.push_back(point_list("polygon", m, r.points("points")));
    } else if (res.type == "ConcavePolygonShape2D") {
        const std::vector<Vec2> pts = r.points("segments");
        for (std::size_t k = 0; k + 1 < pts.size(); k += 2) parts.push_back(segment(m, pts[k], pts[k + 1]));
    } else {
        fail(shape->from->path, shape->value->line, shape->value->column, who(node) + ": an unknown shape class '" + std::string(res.type) + "'");
    }
    return true;
}

void require_finite(const Node& n, const std::vector<Part>& parts) {
    const auto finite = [](Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); };
    for (const Part& p : parts) {
        bool ok = std::all_of(p.points.begin(), p.points.end(), finite);
        for (const auto& [key, v] : p.pairs) ok = ok && finite(v);
        for (const auto& [key, v] : p.numbers) ok = ok && std::isfinite(v);
        if (!ok) fail(n.file->path, n.line, n.column, who(n) + ": a " + p.type + " with a coordinate beyond the double range");
    }
}

void write_part_fields(SceneText& out, const Part& p) {
    for (const auto& [key, v] : p.pairs) out.pair(key, v);
    for (const auto& [key, v] : p.numbers) out.number(key, v);
    if (!p.points.empty()) out.points("points", p.points);
}

}  // namespace collide::detail::godot
