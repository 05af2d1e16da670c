#include "scene/scene_builder.hpp"

#include "collide/text.hpp"
#include "support/big_alloc.hpp"
#include "support/json_locate.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <new>
#include <stdexcept>
#include <numeric>

namespace collide {

namespace detail {
namespace {

using json = JsonValue;

std::string describe(const json& v) {
    switch (v.kind()) {
        case json::Kind::Null: return "null";
        case json::Kind::Bool: return v.boolean() ? "true" : "false";
        case json::Kind::String: return "a string";
        case json::Kind::Object: return "an object";
        case json::Kind::Array: return "an array";
        case json::Kind::Number: return "a number";
    }
    return "an unsupported value";
}

std::string num_text(double d) { return format_number(d); }

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string join(std::initializer_list<std::string_view> words) {
    std::string s;
    for (std::string_view w : words) {
        if (!s.empty()) s += ", ";
        s += w;
    }
    return s;
}

double number(const json& v, const Path& path) {
    if (!v.is_number()) throw Fail{path, "expected a number, got " + describe(v)};
    return v.number();
}

// A string value, viewed in the reader's storage (valid while the element is read).
std::string_view text_view(const json& v, const Path& path) {
    if (!v.is_string()) throw Fail{path, "expected a string, got " + describe(v)};
    return v.string();
}

std::string text(const json& v, const Path& path) { return std::string(text_view(v, path)); }

// Two numbers: a position [x, y], or what `form` names ("a size [w, h]").
Vec2 position(const json& v, const Path& path, std::string_view form = "a position [x, y]") {
    if (!v.is_array() || v.size() != 2)
        throw Fail{path, "expected " + std::string(form) + ", got " +
                             (v.is_array() ? "an array of " + std::to_string(v.size()) + " values" : describe(v))};
    return Vec2{number(v[0], Path(path, std::size_t{0})), number(v[1], Path(path, std::size_t{1}))};
}

// A JSON object being read: known keys only, required ones present, each value typed.
class Obj {
public:
    Obj(const json& j, const Path& path, std::string_view what) : j_(j), path_(path) {
        if (!j.is_object()) throw Fail{path_, std::string(what) + " must be an object, got " + describe(j)};
        no_duplicate_keys(j, path_);
    }

    void only(std::initializer_list<std::string_view> allowed) const {
        for (std::size_t i = 0; i < j_.size(); ++i) {
            const std::string_view key = j_.key(i);
            if (std::any_of(allowed.begin(), allowed.end(), [&](std::string_view a) { return same_key(a, key); })) continue;
            const std::string k(key);
            std::string hint;
            for (std::string_view a : allowed)
                if (edit_distance(k, a) <= 2) hint = " (did you mean '" + std::string(a) + "'?)";
            throw Fail{sub(k), "unknown key '" + k + "'" + hint + "; allowed here: " + join(allowed)};
        }
    }
    bool has(std::string_view k) const { return j_.has(k); }
    json at(std::string_view k) const {
        const std::size_t i = j_.find(k);
        if (i == j_.size()) throw Fail{path_, "missing required key '" + std::string(k) + "'"};
        return j_[i];
    }
    Path sub(std::string_view k) const { return Path(path_, k); }
    const Path& path() const { return path_; }

    double num(std::string_view k) const { return number(at(k), sub(k)); }
    Vec2 pos(std::string_view k) const { return position(at(k), sub(k)); }
    std::string str(std::string_view k) const { return text(at(k), sub(k)); }
    std::string_view str_view(std::string_view k) const { return text_view(at(k), sub(k)); }
    // A string that must be one of `choices`; `fallback` when the key is absent.
    std::string choice(std::string_view k, std::initializer_list<std::string_view> choices, std::string fallback) const {
        if (!has(k)) return fallback;
        std::string s = str(k);
        if (std::find(choices.begin(), choices.end(), s) == choices.end())
            throw Fail{sub(k), "'" + s + "' is not one of " + join(choices)};
        return s;
    }
    // The "groups" member, shared with earlier objects that have the same list.
    Groups groups(GroupLists& lists) const {
        const std::size_t member = j_.find("groups");
        if (member == j_.size()) return Groups();
        return lists.get(j_[member], sub("groups"));
    }
    std::vector<Vec2> positions(std::string_view k, std::size_t at_least) const {
        const json a = at(k);
        if (!a.is_array()) throw Fail{sub(k), "expected an array of positions, got " + describe(a)};
        if (a.size() < at_least)
            throw Fail{sub(k), "needs at least " + std::to_string(at_least) + " points, got " + std::to_string(a.size())};
        std::vector<Vec2> out;
        out.reserve(a.size());
        const Path list = sub(k);
        for (std::size_t i = 0; i < a.size(); ++i) out.push_back(position(a[i], Path(list, i)));
        return out;
    }
    double non_negative(std::string_view k) const {
        const double d = num(k);
        if (d < 0) throw Fail{sub(k), std::string(k) + " must be >= 0, got " + num_text(d)};
        return d;
    }

    // A duplicate key would let a typo win silently: it is an error.
    static void no_duplicate_keys(const json& j, const Path& path) {
        const std::size_t n = j.size();
        auto fail = [&](std::size_t a) {
            throw Fail{Path(path, j.key(a)), "duplicate key '" + std::string(j.key(a)) + "'", j[a].offset()};
        };
        if (n <= 16) {
            for (std::size_t a = 1; a < n; ++a)
                for (std::size_t b = 0; b < a; ++b)
                    if (same_key(j.key(a), j.key(b))) fail(a);
            return;
        }
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return j.key(a) < j.key(b) || (j.key(a) == j.key(b) && a < b);
        });
        std::size_t first_dup = n;
        for (std::size_t k = 1; k < n; ++k)
            if (j.key(order[k]) == j.key(order[k - 1])) first_dup = std::min(first_dup, order[k]);
        if (first_dup < n) fail(first_dup);
    }

private:
    json j_;
    Path path_;
};

std::string id_or_default(const Obj& o, std::size_t index) {
    if (!o.has("id")) return std::to_string(index);
    const std::string_view id = o.str_view("id");
    if (id.empty()) throw Fail{o.sub("id"), "an id must not be empty"};
    return std::string(id);
}

// The UTF-8 code points of a (valid UTF-8) string.
std::vector<char32_t> code_points(const std::string& s) {
    std::vector<char32_t> out;
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
        char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
        for (int k = 1; k < len && i + static_cast<std::size_t>(k) < s.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0x3F);
        out.push_back(cp);
        i += static_cast<std::size_t>(len);
    }
    return out;
}

Rect rect_of(const Obj& o) {
    // The caller has ruled out left/top/right/bottom: only the other two forms can mix.
    const bool mm = o.has("min") || o.has("max");
    const bool xywh = o.has("x") || o.has("y") || o.has("width") || o.has("height");
    if (mm && xywh)
        throw Fail{o.path(), "a rect takes one of min/max, x/y/width/height or left/top/right/bottom, not a mix"};
    if (mm) {
        o.only({"id", "type", "groups", "min", "max"});
        const Rect r{o.pos("min"), o.pos("max")};
        if (r.min.x > r.max.x || r.min.y > r.max.y)
            throw Fail{o.path(), "min [" + num_text(r.min.x) + ", " + num_text(r.min.y) + "] exceeds max [" +
                                     num_text(r.max.x) + ", " + num_text(r.max.y) + "] on the " +
                                     (r.min.x > r.max.x ? "x" : "y") + " axis"};
        return r;
    }
    if (xywh) {
        o.only({"id", "type", "groups", "x", "y", "width", "height"});
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

}  // namespace

SceneBuilder::SceneBuilder(const std::string& file) { scene_.file = file; }

std::string Path::str() const {
    if (kind_ == Kind::Root) return "";
    const std::string head = parent_->str();
    return kind_ == Kind::Key ? head + "/" + pointer_token(key_) : head + "/" + std::to_string(index_);
}

void SceneBuilder::top_level(const std::string& key, const json& v) {
    const Path root;
    const Path path(root, key);
    if (key == "format") {
        if (!v.is_string() || v.string() != "collide-scene")
            throw Fail{path, "format must be \"collide-scene\", got " + (v.is_string() ? "\"" + std::string(v.string()) + "\"" : describe(v))};
    } else if (key == "version") {
        if (!v.is_number() || v.number() != 1.0)
            throw Fail{path, "version must be 1, got " + (v.is_number() ? num_text(v.number()) : describe(v))};
    } else if (key == "settings") {
        settings(v, path);
    } else if (streamed_key(key)) {
        throw Fail{path, key + " must be an array, got " + describe(v)};
    } else {
        std::string hint;
        for (std::string_view a : {"format", "version", "settings", "shapes", "grids", "moves", "pairs", "rules"})
            if (edit_distance(key, a) <= 2) hint = " (did you mean '" + std::string(a) + "'?)";
        throw Fail{path, "unknown key '" + key + "'" + hint +
                             "; allowed here: format, version, settings, shapes, grids, moves, pairs, rules"};
    }
}

bool SceneBuilder::streamed_key(const std::string& key) {
    return key == "shapes" || key == "grids" || key == "moves" || key == "rules" || key == "pairs";
}

// SPEC §1.4: "pairs": [] pairs nothing, where a scene without the key pairs everything.
void SceneBuilder::begin_array(const std::string& key) {
    if (key == "pairs") scene_.pairs_given = true;
}

void SceneBuilder::element(const std::string& key, std::size_t index, const json& v) {
    const Path root;
    const Path list(root, key);
    const Path path(list, index);
    if (key == "shapes") shape(index, v, path);
    else if (key == "grids") grid(index, v, path);
    else if (key == "moves") move(index, v, path);
    else if (key == "rules") rule(index, v, path);
    else if (key == "pairs") {
        try {
            scene_.pairs.push_back(parse_pair_spec(text(v, path)));
        } catch (const Error& e) {
            throw Fail{path, e.message()};
        }
    }
}

void SceneBuilder::settings(const json& v, const Path& path) {
    const Obj o(v, path, "settings");
    o.only({"y_axis"});
    scene_.y_up = o.choice("y_axis", {"down", "up"}, "down") == "up";
}

void SceneBuilder::shape(std::size_t index, const json& v, const Path& path) {
    scene_.shapes.emplace_back();
    note_shape(index, build_shape(index, v, path, scene_.shapes.back(), group_lists_));
}

Groups GroupLists::get(const JsonValue& value, const Path& path) {
    if (!value.is_array()) throw Fail{path, "expected an array of strings, got " + describe(value)};
    const std::size_t n = value.size();
    for (std::size_t i = 0; i < n; ++i) text_view(value[i], Path(path, i));  // each a string, or the error
    if (n == 0) return Groups();
    for (const Groups& g : kept_) {
        if (g.size() != n) continue;
        std::size_t i = 0;
        while (i < n && value[i].string() == g[i]) ++i;
        if (i == n) return g;
    }
    std::vector<std::string> names;
    names.reserve(n);
    for (std::size_t i = 0; i < n; ++i) names.emplace_back(value[i].string());
    Groups made(std::move(names));
    kept_[next_] = made;
    next_ = (next_ + 1) % kKept;
    return made;
}

SceneShape* SceneBuilder::make_room(std::size_t count) {
    const std::size_t first = scene_.shapes.size();
    scene_.shapes.resize(first + count);
    return scene_.shapes.data() + first;
}

void SceneBuilder::note_shape(std::size_t index, const ShapeNotes& n) {
    for (PendingRect r : n.rects) {
        r.shape = index;
        rects_.push_back(r);
    }
    for (ConvertedShape c : n.converted) {
        c.shape = index;
        scene_.converted.push_back(c);
    }
    default_id_.push_back(n.default_id);
}

void SceneBuilder::expect_shapes(std::size_t count) {
    // Only a hint: reserved pages that are never written cost no memory, and an estimate
    // the system will not reserve is dropped (the vector grows as it would have).
    try {
        reserve_huge(scene_.shapes, count);
        default_id_.reserve(count);
    } catch (const std::bad_alloc&) {
    } catch (const std::length_error&) {
    }
}

namespace {

constexpr std::string_view kShapeTypes =
    "point, circle, rect, segment, line, ray, polygon, polyline, capsule, box, ellipse or compound";

// A number that must be > 0 (a capsule's radius, a box's size).
double positive(const Obj& o, std::string_view k) {
    const double d = o.num(k);
    if (!(d > 0)) throw Fail{o.sub(k), std::string(k) + " must be > 0, got " + num_text(d)};
    return d;
}

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

}  // namespace

// The geometry of a shape object (everything but id and groups); `common` are the keys it
// may hold besides its type's own. A compound's parts are built here too (part: true, and
// they may not be compounds); their left/top/right/bottom rects and boxes and ellipses go to
// `notes`.
Shape SceneBuilder::shape_body(const JsonValue& v, const Path& path, std::initializer_list<std::string_view> common,
                               bool part, ShapeNotes& notes, std::size_t part_index) {
    const Obj o(v, path, part ? "a compound part" : "a shape");
    const std::string_view type = o.str_view("type");
    auto fields = [&](std::initializer_list<std::string_view> extra) {
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
    };
    // A box or an ellipse is held as another type; noted, so that -v can show what it became.
    auto converted = [&](ConvertedShape::Written w) {
        notes.converted.push_back(ConvertedShape{0, part ? std::optional<std::size_t>(part_index) : std::nullopt, w});
    };
    if (type == "point") {
        fields({"at"});
        return Point{o.pos("at")};
    }
    if (type == "circle") {
        fields({"center", "radius"});
        return Circle{o.pos("center"), o.non_negative("radius")};
    }
    if (type == "rect") {
        if (o.has("left") || o.has("top") || o.has("right") || o.has("bottom")) {
            if (o.has("min") || o.has("max") || o.has("x") || o.has("y") || o.has("width") || o.has("height"))
                throw Fail{path, "a rect takes one of min/max, x/y/width/height or left/top/right/bottom, not a mix"};
            fields({"left", "top", "right", "bottom"});
            notes.rects.push_back(PendingRect{0, part_index, o.num("left"), o.num("top"), o.num("right"), o.num("bottom")});
            return Rect{};
        }
        return rect_of(o);
    }
    if (type == "segment") {
        fields({"a", "b"});
        return Segment{o.pos("a"), o.pos("b")};
    }
    if (type == "line") {
        fields({"a", "b"});
        const Line l{o.pos("a"), o.pos("b")};
        if (l.a == l.b) throw Fail{path, "a line needs two distinct points a and b"};
        return l;
    }
    if (type == "ray") {
        fields({"origin", "direction"});
        const Ray r{o.pos("origin"), o.pos("direction")};
        if (r.direction.x == 0 && r.direction.y == 0) throw Fail{o.sub("direction"), "a ray's direction must not be [0, 0]"};
        return r;
    }
    if (type == "polygon") {
        fields({"points"});
        std::string why;
        auto pts = simple_polygon(o.positions("points", 3), why);
        if (!pts) throw Fail{o.sub("points"), why};
        return Polygon{std::move(*pts)};
    }
    if (type == "polyline") {
        fields({"points"});
        return Polyline{o.positions("points", 2)};
    }
    if (type == "capsule") {
        fields({"a", "b", "radius"});
        const Capsule c{o.pos("a"), o.pos("b"), positive(o, "radius")};
        if (c.a == c.b) return Circle{c.a, c.radius};  // SPEC §1.1: a == b is the circle
        return c;
    }
    if (type == "box") {
        fields({"center", "size", "angle"});
        const Vec2 center = o.pos("center");
        const Vec2 size = positive_pair(o, "size", "a size [w, h]");
        const double angle = o.has("angle") ? o.num("angle") : 0.0;
        std::vector<Vec2> corners = finite_points(o, box_corners(center, size, angle), "box");
        converted(ConvertedShape::Written::Box);
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
    if (type == "ellipse") {
        fields({"center", "radii", "angle", "vertices"});
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
        converted(ConvertedShape::Written::Ellipse);
        if (radii.x == radii.y) return Circle{center, radii.x};  // SPEC §1.1: round is the circle, exactly
        return polygon_of(o, finite_points(o, ellipse_points(center, radii, angle, vertices), "ellipse"), "ellipse", "points");
    }
    if (type == "compound") {
        if (part) throw Fail{o.sub("type"), "a compound's part cannot be a compound"};
        fields({"parts"});
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

SceneBuilder::ShapeNotes SceneBuilder::build_shape(std::size_t index, const json& v, const Path& path, SceneShape& s,
                                                   GroupLists& groups) {
    const Obj o(v, path, "a shape");
    ShapeNotes out;
    const bool has_id = o.has("id");
    s.id = has_id ? id_or_default(o, index) : std::to_string(index);
    s.groups = o.groups(groups);
    s.shape = shape_body(v, path, {"id", "type", "groups"}, false, out, kWhole);
    out.default_id = !has_id;
    return out;
}

void SceneBuilder::grid(std::size_t, const json& v, const Path& path) {
    const Obj o(v, path, "a grid");
    o.only({"id", "groups", "tile_size", "origin", "outside", "solid", "rows", "cells"});
    Grid g;
    if (!o.has("id")) throw Fail{path, "a grid needs an id"};
    g.id = o.str("id");
    if (g.id.empty()) throw Fail{o.sub("id"), "an id must not be empty"};
    g.groups = o.groups(group_lists_);
    const json ts = o.at("tile_size");
    if (ts.is_array()) g.tile = position(ts, o.sub("tile_size"));
    else g.tile = Vec2{number(ts, o.sub("tile_size")), number(ts, o.sub("tile_size"))};
    if (!(g.tile.x > 0) || !(g.tile.y > 0))
        throw Fail{o.sub("tile_size"), "tile_size must be > 0, got " + num_text(std::min(g.tile.x, g.tile.y))};
    if (o.has("origin")) g.origin = o.pos("origin");
    g.outside_solid = o.choice("outside", {"solid", "empty"}, "solid") == "solid";
    if (o.has("rows") && o.has("cells")) throw Fail{path, "a grid takes rows or cells, not both"};
    if (!o.has("rows") && !o.has("cells")) throw Fail{path, "a grid needs rows or cells (neither is given)"};
    std::vector<bool> solid;
    if (o.has("rows")) {
        const std::vector<char32_t> blockers = code_points(o.has("solid") ? o.str("solid") : std::string("#"));
        const json rows = o.at("rows");
        const Path rows_path = o.sub("rows");
        if (!rows.is_array()) throw Fail{rows_path, "expected an array of strings, got " + describe(rows)};
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const Path rp(rows_path, r);
            const std::vector<char32_t> cps = code_points(text(rows[r], rp));
            if (r == 0) g.cols = cps.size();
            else if (cps.size() != g.cols)
                throw Fail{rp, "row " + std::to_string(r) + " has " + std::to_string(cps.size()) + " cells, row 0 has " +
                                   std::to_string(g.cols) + " (rows must have equal length)"};
            for (char32_t c : cps) solid.push_back(std::find(blockers.begin(), blockers.end(), c) != blockers.end());
        }
        g.rows = rows.size();
    } else {
        if (o.has("solid")) throw Fail{o.sub("solid"), "solid applies to rows, not to cells"};
        const json cells = o.at("cells");
        const Path cells_path = o.sub("cells");
        if (!cells.is_array()) throw Fail{cells_path, "expected an array of arrays of integers, got " + describe(cells)};
        for (std::size_t r = 0; r < cells.size(); ++r) {
            const Path rp(cells_path, r);
            const json row = cells[r];
            if (!row.is_array()) throw Fail{rp, "expected an array of integers, got " + describe(row)};
            if (r == 0) g.cols = row.size();
            else if (row.size() != g.cols)
                throw Fail{rp, "row " + std::to_string(r) + " has " + std::to_string(row.size()) + " cells, row 0 has " +
                                   std::to_string(g.cols) + " (rows must have equal length)"};
            for (std::size_t c = 0; c < row.size(); ++c) {
                const json cell = row[c];
                if (!cell.is_number() || std::floor(cell.number()) != cell.number())
                    throw Fail{Path(rp, c), "expected an integer, got " + (cell.is_number() ? num_text(cell.number()) : describe(cell))};
                solid.push_back(cell.number() != 0.0);
            }
        }
        g.rows = cells.size();
    }
    if (g.rows == 0 || g.cols == 0) throw Fail{o.sub(o.has("rows") ? "rows" : "cells"), "a grid needs at least one cell"};
    g.bits.assign((solid.size() + 63) / 64, 0);
    for (std::size_t i = 0; i < solid.size(); ++i)
        if (solid[i]) g.bits[i / 64] |= std::uint64_t{1} << (i % 64);
    scene_.grids.push_back(std::move(g));
}

void SceneBuilder::move(std::size_t index, const json& v, const Path& path) {
    const Obj o(v, path, "a move");
    o.only({"id", "grid", "against", "from", "to", "body", "check", "expect"});
    Move m;
    m.id = id_or_default(o, index);
    const auto [it, fresh] = move_ids_.emplace(m.id, index);
    if (!fresh)
        throw Fail{o.has("id") ? o.sub("id") : path, "duplicate move id '" + m.id + "' (also /moves/" + std::to_string(it->second) +
                                                         (scene_.moves[it->second].id == std::to_string(it->second) ? ", whose default id is its index" : "") + ")"};
    // On one grid, or against what a selector selects (SPEC §1.3): one of the two.
    if (o.has("grid") == o.has("against"))
        throw Fail{path, o.has("grid") ? "a move has either 'grid' or 'against', not both"
                                       : "missing required key 'grid' (or 'against': a selector of shapes and grids)"};
    if (o.has("against")) {
        m.against = o.str("against");
        if (m.against->empty()) throw Fail{o.sub("against"), "a selector must not be empty (a group, an id or *)"};
    }
    move_grids_.push_back(o.has("grid") ? o.str("grid") : std::string());
    m.from = o.pos("from");
    m.to = o.pos("to");
    if (o.has("body")) {
        const Obj b(o.at("body"), o.sub("body"), "a body");
        const std::string type = b.str("type");
        if (type == "point") {
            b.only({"type"});
        } else if (type == "circle") {
            b.only({"type", "radius"});
            m.body.kind = Body::Kind::Circle;
            m.body.radius = b.non_negative("radius");
        } else if (type == "rect") {
            b.only({"type", "size"});
            m.body.kind = Body::Kind::Rect;
            m.body.size = b.pos("size");
            if (m.body.size.x < 0 || m.body.size.y < 0) throw Fail{b.sub("size"), "a body's size must be >= 0"};
        } else {
            throw Fail{b.sub("type"), "unknown body type '" + type + "'; expected point, circle or rect"};
        }
    }
    m.check_path = o.choice("check", {"path", "destination"}, "path") == "path";
    if (o.has("expect")) m.expect_allowed = o.choice("expect", {"allowed", "blocked"}, "") == "allowed";
    scene_.moves.push_back(std::move(m));
}

void SceneBuilder::rule(std::size_t index, const json& v, const Path& path) {
    const Obj o(v, path, "a rule");
    o.only({"name", "pairs", "expect", "touching", "clearance"});
    Rule r;
    r.name = o.str("name");
    const auto [it, fresh] = rule_names_.emplace(r.name, index);
    if (!fresh)
        throw Fail{o.sub("name"), "duplicate rule name '" + r.name + "' (also /rules/" + std::to_string(it->second) + "/name)"};
    try {
        r.pairs = parse_pair_spec(o.str("pairs"));
    } catch (const Error& e) {
        throw Fail{o.sub("pairs"), e.message()};
    }
    const std::string expect = o.choice("expect", {"none", "some", "each"}, "");
    if (expect.empty()) throw Fail{path, "missing required key 'expect'"};
    r.expect = expect == "none" ? Rule::Expect::None : expect == "some" ? Rule::Expect::Some : Rule::Expect::Each;
    r.ignore_touching = o.choice("touching", {"ignored"}, "") == "ignored";
    if (o.has("clearance")) r.clearance = positive(o, "clearance");
    scene_.rules.push_back(std::move(r));
}

Scene SceneBuilder::finish() {
    auto shape_path = [](std::size_t i) { return "/shapes/" + std::to_string(i); };
    auto grid_path = [](std::size_t i) { return "/grids/" + std::to_string(i); };
    for (const PendingRect& p : rects_) {
        // With y down, top is the smaller y; with y up, the larger.
        const double lo_y = scene_.y_up ? p.bottom : p.top;
        const double hi_y = scene_.y_up ? p.top : p.bottom;
        const std::string at = shape_path(p.shape) + (p.part == kWhole ? "" : "/parts/" + std::to_string(p.part));
        if (p.left > p.right) throw Fail{at, "left " + num_text(p.left) + " is greater than right " + num_text(p.right)};
        if (lo_y > hi_y)
            throw Fail{at, "top " + num_text(p.top) + (scene_.y_up ? " is less than" : " is greater than") + " bottom " +
                               num_text(p.bottom) + " (y_axis is " + (scene_.y_up ? "up" : "down") + ")"};
        Shape& s = scene_.shapes[p.shape].shape;
        (p.part == kWhole ? s : std::get<Compound>(s).parts[p.part]) = Rect{Vec2{p.left, lo_y}, Vec2{p.right, hi_y}};
    }
    // Ids are unique across shapes and grids: an open-addressing table (linear probing) of
    // the first index of each id, tagged with the upper half of its hash, in index order, so
    // the first duplicate found is the one with the lowest index, and its original the
    // first object with that id.
    const std::size_t ns = scene_.shapes.size();
    const std::size_t total = ns + scene_.grids.size();
    auto id_of = [&](std::size_t i) -> const std::string& { return i < ns ? scene_.shapes[i].id : scene_.grids[i - ns].id; };
    auto path_of = [&](std::size_t i) { return i < ns ? shape_path(i) : grid_path(i - ns) + "/id"; };
    std::size_t slots = 16;
    while (slots < 2 * total) slots *= 2;
    std::vector<std::uint64_t> table(slots, 0);  // (hash >> 32) << 32 | (index + 1); 0: empty
    std::size_t dup = total;
    std::size_t orig = 0;
    // Slots are all over the table: each id's hash is taken kAhead ids early and its slot
    // fetched into the cache meanwhile.
    constexpr std::size_t kAhead = 16;
    std::uint64_t ahead[kAhead];
    auto hash_of = [&](std::size_t j) {
        const std::uint64_t h = std::hash<std::string>{}(id_of(j));
        __builtin_prefetch(&table[static_cast<std::size_t>(h) & (slots - 1)], 1);
        ahead[j % kAhead] = h;
    };
    for (std::size_t j = 0; j < std::min(kAhead, total); ++j) hash_of(j);
    for (std::size_t j = 0; j < total && dup == total; ++j) {
        const std::uint64_t h = ahead[j % kAhead];
        if (j + kAhead < total) hash_of(j + kAhead);
        const std::uint64_t tag = h >> 32 << 32;
        for (std::size_t slot = static_cast<std::size_t>(h) & (slots - 1);; slot = (slot + 1) & (slots - 1)) {
            const std::uint64_t e = table[slot];
            if (e == 0) {
                table[slot] = tag | (j + 1);
                break;
            }
            const std::size_t i = static_cast<std::size_t>(e & 0xFFFFFFFFu) - 1;
            if ((e & ~std::uint64_t{0xFFFFFFFFu}) == tag && id_of(i) == id_of(j)) {
                dup = j;
                orig = i;
                break;
            }
        }
    }
    if (dup != total) {
        auto where = [&](std::size_t i) {
            if (i >= ns) return grid_path(i - ns);
            return default_id_[i] ? "the default id of " + shape_path(i) + ", its index" : shape_path(i);
        };
        std::string msg = "duplicate id '" + id_of(dup) + "' (";
        if (dup < ns && default_id_[dup]) msg += where(dup) + "; ";
        throw Fail{path_of(dup), msg + "also " + where(orig) + ")"};
    }
    std::unordered_map<std::string, std::size_t> grid_index;
    for (std::size_t i = 0; i < scene_.grids.size(); ++i) {
        scene_.grids[i].y_up = scene_.y_up;
        grid_index.emplace(scene_.grids[i].id, i);
    }
    for (std::size_t i = 0; i < scene_.moves.size(); ++i) {
        if (scene_.moves[i].against) continue;
        const auto it = grid_index.find(move_grids_[i]);
        if (it == grid_index.end())
            throw Fail{"/moves/" + std::to_string(i) + "/grid", "no grid has the id '" + move_grids_[i] + "'"};
        scene_.moves[i].grid = it->second;
    }
    return std::move(scene_);
}

}  // namespace detail

}  // namespace collide
