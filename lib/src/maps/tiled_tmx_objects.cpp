// Reading TMX maps (tiled_tmx.hpp): objects, their templates and custom properties.
//
// A template (`.tx`) gives an object its defaults; the instance's attributes override them,
// except that id, x and y are always the instance's, and a shape element or gid on the
// instance replaces the template's shape. Properties merge by name, the instance winning. A
// template's gid is resolved against the template's own tilesets. Templates are read once
// each (a map may place one template thousands of times).
#include "maps/tiled_tmx.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

namespace collide::detail::tiled::tmx {

namespace {

constexpr std::int64_t kU32 = 0xFFFFFFFFll;

bool finite_number(std::string_view s, double& v) {
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(v);
}

// `points="x,y x,y ..."` of a polygon or polyline.
std::vector<Vec2> read_points(const XmlFile& f, pugi::xml_node n, const What& what) {
    std::vector<Vec2> points;
    const std::string_view s = n.attribute("points").value();
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    std::size_t i = 0;
    while (true) {
        while (i < s.size() && space(s[i])) ++i;
        if (i == s.size()) break;
        std::size_t end = i;
        while (end < s.size() && !space(s[end])) ++end;
        const std::string_view pair = s.substr(i, end - i);
        const std::size_t comma = pair.find(',');
        Vec2 p;
        if (comma == std::string_view::npos || !finite_number(pair.substr(0, comma), p.x) ||
            !finite_number(pair.substr(comma + 1), p.y))
            fail(where_of(f, n), what.str() + ": points holds " + quoted(pair) + ", not x,y numbers");
        points.push_back(p);
        i = end;
    }
    return points;
}

}  // namespace

// "object 'NAME#ID' in layer 'L'", "object '#ID' ...", and for objects without an id (a
// template's) "object 'NAME' ..." or "object ...".
std::string What::str() const {
    if (!object_) return std::string(text_);
    const Object& o = *object_;
    const std::string in(text_);
    if (o.id != 0) return "object '" + o.name + "#" + std::to_string(o.id) + "'" + in;
    if (!o.name.empty()) return "object '" + o.name + "'" + in;
    return "object" + in;
}

void read_properties(pugi::xml_node n, Properties& props) {
    for (const pugi::xml_node p : n.child("properties").children("property")) {
        const pugi::xml_attribute type = p.attribute("type");
        if (type && std::strcmp(type.value(), "string") != 0) continue;
        const pugi::xml_attribute value = p.attribute("value");
        std::pair<std::string, std::string> prop{p.attribute("name").value(), value ? value.value() : p.child_value()};
        const auto same = std::find_if(props.begin(), props.end(), [&](const auto& q) { return q.first == prop.first; });
        if (same != props.end()) same->second = std::move(prop.second);
        else props.push_back(std::move(prop));
    }
}

Object Reader::read_object(const XmlFile& f, pugi::xml_node n, const Tilesets& sets, const std::string& in) {
    Object o;
    if (const pugi::xml_attribute t = n.attribute("template")) {
        o = template_object(f, n, t.value());
        o.id = 0;
        o.x = o.y = 0;
    }
    apply_object(f, n, o, sets, in);
    o.where = where_of(f, n);
    // An object of the map itself leaves its file unsaid (the converter names the map): a map
    // of 100,000 objects need not hold its own path 100,000 times.
    if (&f == map_file_) o.where.file.clear();
    return o;
}

void Reader::apply_object(const XmlFile& f, pugi::xml_node n, Object& o, const Tilesets& sets, const std::string& in) {
    // The attributes in one pass (the first of a name, as n.attribute(name) would find).
    enum Key { Name, Id, Class, Type, X, Y, Width, Height, Rotation, Gid, kKeys };
    static constexpr const char* kNames[kKeys] = {"name", "id", "class", "type", "x", "y", "width", "height", "rotation", "gid"};
    pugi::xml_attribute at[kKeys];
    for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute()) {
        const char* name = a.name();
        for (int k = 0; k < kKeys; ++k)
            if (name[0] == kNames[k][0] && !at[k] && std::strcmp(name, kNames[k]) == 0) {
                at[k] = a;
                break;
            }
    }
    if (at[Name]) o.name = at[Name].value();
    const What what(o, in);  // worded when thrown: name and id as they are then
    o.id = static_cast<std::uint32_t>(whole_value(f, n, at[Id], o.id, 0, kU32, what));
    if (at[Class]) o.cls = at[Class].value();
    else if (at[Type]) o.cls = at[Type].value();
    o.x = real_value(f, n, at[X], o.x, what);
    o.y = real_value(f, n, at[Y], o.y, what);
    // As the TMJ reader: a negative size is no shape Tiled draws (fuzz_map).
    const auto size = [&](pugi::xml_attribute a, double fallback) {
        const double v = real_value(f, n, a, fallback, what);
        if (v < 0) fail(where_of(f, n), what.str() + ": " + a.name() + " is " + quoted(a.value()) + ", must not be negative");
        return v;
    };
    o.width = size(at[Width], o.width);
    o.height = size(at[Height], o.height);
    o.rotation = real_value(f, n, at[Rotation], o.rotation, what);
    if (at[Gid]) {
        const auto gid = static_cast<std::uint32_t>(whole_value(f, n, at[Gid], 0, 0, kU32, what));
        o.kind = ObjectKind::Tile;
        o.points.clear();
        o.tile = tile_of(sets, gid);
    }
    for (const pugi::xml_node c : n.children()) {
        static constexpr std::pair<const char*, ObjectKind> kShapes[] = {
            {"ellipse", ObjectKind::Ellipse}, {"point", ObjectKind::Point},   {"polygon", ObjectKind::Polygon},
            {"polyline", ObjectKind::Polyline}, {"text", ObjectKind::Text}, {"capsule", ObjectKind::Capsule}};
        const auto shape = std::find_if(std::begin(kShapes), std::end(kShapes),
                                        [&](const auto& s) { return std::strcmp(c.name(), s.first) == 0; });
        if (shape == std::end(kShapes)) continue;
        o.kind = shape->second;
        o.tile = {};
        o.points.clear();
        if (o.kind == ObjectKind::Polygon || o.kind == ObjectKind::Polyline) o.points = read_points(f, c, what);
    }
    read_properties(n, o.properties);
}

const Object& Reader::template_object(const XmlFile& f, pugi::xml_node n, const std::string& source) {
    const std::string resolved = resolve_path(f.path, source);
    if (const auto hit = templates_.find(resolved); hit != templates_.end()) return hit->second;
    const std::string text = load(f, n, "template", source, resolved);
    // A .tj is JSON, whatever the map's format (SPEC §1.5).
    if (json_template(resolved, false)) return templates_.emplace(resolved, read_tj_template(resolved, text, load_)).first->second;
    loading_.insert(resolved);
    Object o = template_file(resolved, text, source);
    loading_.erase(resolved);
    return templates_.emplace(resolved, std::move(o)).first->second;
}

Object Reader::template_file(const std::string& resolved, std::string_view text, const std::string& source) {
    XmlFile tx{resolved, text};
    parse_xml(tx);
    const pugi::xml_node root = tx.doc.document_element();
    if (std::strcmp(root.name(), "template") != 0)
        fail(where_of(tx, root), "the root element is <" + std::string(root.name()) + ">, not <template>");
    const std::string what = "template " + quoted(source);
    Tilesets sets;
    for (const pugi::xml_node ts : root.children("tileset")) sets.push_back(tileset_ref(tx, ts));
    std::stable_sort(sets.begin(), sets.end(), [](const auto& a, const auto& b) { return a->firstgid < b->firstgid; });
    const pugi::xml_node obj = root.child("object");
    if (!obj) fail(where_of(tx, root), what + " holds no <object>");
    if (const pugi::xml_attribute other = obj.attribute("template"))
        fail(where_of(tx, obj), what + " refers to another template (" + quoted(other.value()) + ")");
    Object o;
    apply_object(tx, obj, o, sets, " in " + what);
    o.where = where_of(tx, obj);
    return o;
}

}  // namespace collide::detail::tiled::tmx
