// Shape objects (SPEC §1.1): each "shapes" element, or a compound's part, read into its
// Shape — a point, circle, rect in any of its three forms, segment, line, ray, polygon,
// polyline, capsule, box, ellipse or compound — with every key checked and every degenerate
// form made what the SPEC says it is (a == b capsule: the circle; a round ellipse: the
// circle; an upright box: the rect). Rects in left/top/right/bottom form and the boxes and
// ellipses held as other types go to the ShapeNotes the builder takes in order.
#include "scene/scene_builder.hpp"

#include "scene/scene_fields.hpp"
#include "scene/simple_polygon.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace collide::detail {

using namespace scene_fields;

namespace {

constexpr std::string_view kShapeTypes =
    "point, circle, rect, segment, line, ray, polygon, polyline, capsule, box, ellipse or compound";

// A pair of numbers, each > 0 (a box's size, an ellipse's radii); `form` as in position().
Vec2 positive_pair(const Obj& o, std::string_view k, std::string_view form) {
    const Vec2 v = position(o.at(k), o.sub(k), form);
    if (!(v.x > 0) || !(v.y > 0))
        throw Fail{o.sub(k), std::string(k) + " must be > 0 on both axes, got [" + num_text(v.x) + ", " + num_text(v.y) + "]"};
    return v;
}

// The corners of a box or the points of an ellipse (`type`), as doubles, must be finite (a
// shape that reaches past the largest double may not be) and make a simple polygon (a shape
// far smaller than its coordinates' spacing may not).
std::vector<Vec2> finite_points(const Obj& o, std::vector<Vec2> pts, std::string_view type) {
    for (const Vec2 p : pts)
        if (!std::isfinite(p.x) || !std::isfinite(p.y))
            throw Fail{o.path(), "the " + std::string(type) + " reaches beyond the largest double"};
    return pts;
}

Polygon polygon_of(const Obj& o, std::vector<Vec2> pts, std::string_view type, std::string_view points) {
    std::string why;
    auto simple = simple_polygon(pts, why);
    if (!simple)
        throw Fail{o.path(), "the " + std::string(type) + " is too small for its position: its " + std::string(points) +
                                 ", rounded to doubles, are not a simple polygon (" + why + ")"};
    return Polygon{std::move(*simple)};
}

// One shape object being read: what shape_body's branches share.
struct ShapeObj {
    const Obj& o;
    const JsonValue& v;
    std::string_view type;
    std::initializer_list<std::string_view> common;  // keys it may hold besides its type's own
    bool part;                                       // a compound's part
    std::size_t part_index;
    SceneBuilder::ShapeNotes& notes;

    // No keys but `common` and the type's `extra` ones.
    void fields(std::initializer_list<std::string_view> extra) const {
        for (std::size_t i = 0; i < v.size(); ++i) {
            const std::string_view k = v.key(i);
            auto is_k = [&](std::string_view a) { return same_key(a, k); };
            if (std::any_of(common.begin(), common.end(), is_k) || std::any_of(extra.begin(), extra.end(), is_k))
                continue;
            const std::string key(k);
            if (part && (key == "id" || key == "groups"))
                throw Fail{o.sub(key), "a compound's part has no " + key + " of its own (give " +
                                           (key == "id" ? "it" : "them") + " to the compound)"};
            std::vector<std::string_view> all(common.begin(), common.end());
            all.insert(all.end(), extra.begin(), extra.end());
            std::string hint;
            for (std::string_view a : all)
                if (edit_distance(key, a) <= 2) hint = " (did you mean '" + std::string(a) + "'?)";
            std::string allowed;
            for (std::string_view a : all) allowed += (allowed.empty() ? "" : ", ") + std::string(a);
            throw Fail{o.sub(key), "unknown key '" + key + "' for a " + std::string(type) + hint + "; allowed here: " + allowed};
        }
    }
    // A box or an ellipse is held as another type; noted, so that -v can show what it became.
    void converted(ConvertedShape::Written w) const {
        notes.converted.push_back(ConvertedShape{0, part ? std::optional<std::size_t>(part_index) : std::nullopt, w});
    }
};

Rect rect_of(const ShapeObj& s) {
    const Obj& o = s.o;
    // The caller has ruled out left/top/right/bottom: only the other two forms can mix.
    const bool mm = o.has("min") || o.has("max");
    const bool xywh = o.has("x") || o.has("y") || o.has("width") || o.has("height");
    if (mm && xywh)
        throw Fail{o.path(), "a rect takes one of min/max, x/y/width/height or left/top/right/bottom, not a mix"};
    if (mm) {
        s.fields({"min", "max"});
        const Rect r{o.pos("min"), o.pos("max")};
        if (r.min.x > r.max.x || r.min.y > r.max.y)
            throw Fail{o.path(), "min [" + num_text(r.min.x) + ", " + num_text(r.min.y) + "] exceeds max [" +
                                     num_text(r.max.x) + ", " + num_text(r.max.y) + "] on the " +
                                     (r.min.x > r.max.x ? "x" : "y") + " axis"};
        return r;
    }
    if (xywh) {
        s.fields({"x", "y", "width", "height"});
        const double x = o.num("x");
        const double y = o.num("y");
        const double w = o.non_negative("width");
        const double h = o.non_negative("height");
        const Rect r{Vec2{x, y}, Vec2{x + w, y + h}};
        if (!std::isfinite(r.max.x))
            throw Fail{o.sub("width"), "x + width overflows a double: " + num_text(x) + " + " + num_text(w)};
        if (!std::isfinite(r.max.y))
            throw Fail{o.sub("height"), "y + height overflows a double: " + num_text(y) + " + " + num_text(h)};
        return r;
    }
    throw Fail{o.path(), "a rect needs min/max, x/y/width/height or left/top/right/bottom"};
}

// A rect in any of its three forms; a left/top/right/bottom one waits in the notes for
// y_axis (SceneBuilder::finish) and is a default Rect until then.
Shape rect_body(const ShapeObj& s) {
    const Obj& o = s.o;
    if (o.has("left") || o.has("top") || o.has("right") || o.has("bottom")) {
        if (o.has("min") || o.has("max") || o.has("x") || o.has("y") || o.has("width") || o.has("height"))
            throw Fail{o.path(), "a rect takes one of min/max, x/y/width/height or left/top/right/bottom, not a mix"};
        s.fields({"left", "top", "right", "bottom"});
        s.notes.rects.push_back(
            SceneBuilder::PendingRect{0, s.part_index, o.num("left"), o.num("top"), o.num("right"), o.num("bottom")});
        return Rect{};
    }
    return rect_of(s);
}

Shape box_body(const ShapeObj& s) {
    const Obj& o = s.o;
    s.fields({"center", "size", "angle"});
    const Vec2 center = o.pos("center");
    const Vec2 size = positive_pair(o, "size", "a size [w, h]");
    const double angle = o.has("angle") ? o.num("angle") : 0.0;
    std::vector<Vec2> corners = finite_points(o, box_corners(center, size, angle), "box");
    s.converted(ConvertedShape::Written::Box);
    // At a multiple of 90 degrees the corners are those of an axis-aligned rect: the rect
    // (corners 0 and 2 are opposite).
    const auto& k = corners;
    const bool upright = k[0].x == k[3].x && k[1].x == k[2].x && k[0].y == k[1].y && k[2].y == k[3].y;
    const bool turned = k[0].y == k[3].y && k[1].y == k[2].y && k[0].x == k[1].x && k[2].x == k[3].x;
    // Corners that collapse (a size too small for the center's spacing) are no rect:
    // polygon_of says so, as it does for a turned box.
    const bool flat = (k[0] == k[1] || k[1] == k[2]);
    if ((upright || turned) && !flat)
        return Rect{Vec2{std::min(k[0].x, k[2].x), std::min(k[0].y, k[2].y)},
                    Vec2{std::max(k[0].x, k[2].x), std::max(k[0].y, k[2].y)}};
    return polygon_of(o, std::move(corners), "box", "corners");
}

Shape ellipse_body(const ShapeObj& s) {
    const Obj& o = s.o;
    s.fields({"center", "radii", "angle", "vertices"});
    const Vec2 center = o.pos("center");
    const Vec2 radii = positive_pair(o, "radii", "radii [rx, ry]");
    const double angle = o.has("angle") ? o.num("angle") : 0.0;
    std::uint32_t vertices = 32;
    if (o.has("vertices")) {
        const json n = o.at("vertices");
        if (!n.is_number() || !(n.number() >= 8 && n.number() <= 4096) || n.number() != std::floor(n.number()))
            throw Fail{o.sub("vertices"), "vertices must be an integer from 8 to 4096, got " +
                                              (n.is_number() ? num_text(n.number()) : describe(n))};
        vertices = static_cast<std::uint32_t>(n.number());
    }
    s.converted(ConvertedShape::Written::Ellipse);
    if (radii.x == radii.y) return Circle{center, radii.x};  // SPEC §1.1: round is the circle, exactly
    return polygon_of(o, finite_points(o, ellipse_points(center, radii, angle, vertices), "ellipse"), "ellipse", "points");
}

}  // namespace

// The geometry of a shape object (everything but id and groups); `common` are the keys it
// may hold besides its type's own. A compound's parts are built here too (part: true, and
// they may not be compounds); their left/top/right/bottom rects and boxes and ellipses go to
// `notes`.
Shape SceneBuilder::shape_body(const JsonValue& v, const Path& path, std::initializer_list<std::string_view> common,
                               bool part, ShapeNotes& notes, std::size_t part_index) {
    const Obj o(v, path, part ? "a compound part" : "a shape");
    const std::string_view type = o.str_view("type");
    const ShapeObj s{o, v, type, common, part, part_index, notes};
    if (type == "point") {
        s.fields({"at"});
        return Point{o.pos("at")};
    }
    if (type == "circle") {
        s.fields({"center", "radius"});
        return Circle{o.pos("center"), o.non_negative("radius")};
    }
    if (type == "rect") return rect_body(s);
    if (type == "segment") {
        s.fields({"a", "b"});
        return Segment{o.pos("a"), o.pos("b")};
    }
    if (type == "line") {
        s.fields({"a", "b"});
        const Line l{o.pos("a"), o.pos("b")};
        if (l.a == l.b) throw Fail{path, "a line needs two distinct points a and b"};
        return l;
    }
    if (type == "ray") {
        s.fields({"origin", "direction"});
        const Ray r{o.pos("origin"), o.pos("direction")};
        if (r.direction.x == 0 && r.direction.y == 0) throw Fail{o.sub("direction"), "a ray's direction must not be [0, 0]"};
        return r;
    }
    if (type == "polygon") {
        s.fields({"points"});
        std::string why;
        auto pts = simple_polygon(o.positions("points", 3), why);
        if (!pts) throw Fail{o.sub("points"), why};
        return Polygon{std::move(*pts)};
    }
    if (type == "polyline") {
        s.fields({"points"});
        return Polyline{o.positions("points", 2)};
    }
    if (type == "capsule") {
        s.fields({"a", "b", "radius"});
        const Capsule c{o.pos("a"), o.pos("b"), positive(o, "radius")};
        if (c.a == c.b) return Circle{c.a, c.radius};  // SPEC §1.1: a == b is the circle
        return c;
    }
    if (type == "box") return box_body(s);
    if (type == "ellipse") return ellipse_body(s);
    if (type == "compound") {
        if (part) throw Fail{o.sub("type"), "a compound's part cannot be a compound"};
        s.fields({"parts"});
        const json list = o.at("parts");
        const Path list_path = o.sub("parts");
        if (!list.is_array()) throw Fail{list_path, "expected an array of shapes, got " + describe(list)};
        if (list.size() == 0) throw Fail{list_path, "a compound needs at least one part"};
        if (list.size() > kMaxParts)
            throw Fail{list_path, "a compound has at most " + std::to_string(kMaxParts) + " parts, got " +
                                      std::to_string(list.size())};
        Compound c;
        c.parts.reserve(list.size());
        for (std::size_t i = 0; i < list.size(); ++i)
            c.parts.push_back(shape_body(list[i], Path(list_path, i), {"type"}, true, notes, i));
        return c;
    }
    throw Fail{o.sub("type"), "unknown shape type '" + std::string(type) + "'; expected " +
                                  std::string(part ? "point, circle, rect, segment, line, ray, polygon, polyline, capsule, box or ellipse"
                                                   : kShapeTypes)};
}

// "ignore": ["rule", ...] or "*" (SPEC §3.1): the rules whose findings this shape silences.
std::vector<std::string> scene_fields::ignore_list(const Obj& o) {
    if (!o.has("ignore")) return {};
    const JsonValue v = o.at("ignore");
    const Path path = o.sub("ignore");
    if (v.is_string()) {
        if (v.string() != "*") throw Fail{path, "ignore is \"*\" or a list of rule names, got \"" + std::string(v.string()) + "\""};
        return {"*"};
    }
    if (!v.is_array()) throw Fail{path, "ignore is \"*\" or a list of rule names, got " + describe(v)};
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string()) throw Fail{Path(path, i), "a rule name is a string, got " + describe(v[i])};
        out.emplace_back(v[i].string());
    }
    return out;
}

SceneBuilder::ShapeNotes SceneBuilder::build_shape(std::size_t index, const json& v, const Path& path, SceneShape& s,
                                                   GroupLists& groups) {
    const Obj o(v, path, "a shape");
    ShapeNotes out;
    const bool has_id = o.has("id");
    s.id = has_id ? id_or_default(o, index) : std::to_string(index);
    s.groups = o.groups(groups);
    s.shape = shape_body(v, path, {"id", "type", "groups", "ignore"}, false, out, kWhole);
    out.ignore = ignore_list(o);
    out.default_id = !has_id;
    out.offset = v.offset();
    return out;
}

}  // namespace collide::detail
