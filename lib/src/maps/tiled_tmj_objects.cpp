// Reading TMJ maps, objects (tiled_tmj.hpp): the objects of object layers and of tiles'
// collision shapes, templates (`.tj`/`.json`, Tiled's "Object Template" JSON) and custom
// properties.
//
// A template instance is its template's object with the instance's keys laid over it: the
// instance's id, x and y always, its properties merged by name (the instance's win). The
// template's gid names a tile of the template's own tileset, the instance's one of the map's.
#include "maps/tiled_tmj.hpp"

#include <algorithm>

namespace collide::detail::tiled::tmj {

namespace {

// "rock#17", "#17" for an unnamed object, "rock" for one with no id (a template's).
std::string label(const Json& j, const std::string& fallback_name) {
    const Json* name = member(j, "name");
    std::string out = name && name->is_string() ? name->get<std::string>() : fallback_name;
    const Json* id = member(j, "id");
    if (id && id->is_number_unsigned()) out += "#" + std::to_string(id->get<std::uint64_t>());
    return out;
}

std::string what(const std::string& label, const std::string& context) {
    return label.empty() ? "object in " + context : "object '" + label + "' in " + context;
}

std::vector<Vec2> read_points(const At& at, const Json& list) {
    std::vector<Vec2> points;
    points.reserve(list.size());
    for (std::size_t k = 0; k < list.size(); ++k) {
        const At p = at / std::to_string(k);
        expect_object(p, list[k], "a point");
        points.push_back({required(p, "x", number(p, list[k], "x")), required(p, "y", number(p, list[k], "y"))});
    }
    return points;
}

}  // namespace

Object Reader::read_object(const At& ref, const Json& j, const Tilesets* sets) {
    // ref.what is the object's context: "layer 'L'", "tile 3 of tileset 'T'", "template 'x.tj'".
    expect_object(ref, j, "an object");
    At at{ref.doc, ref.ptr, what(label(j, ""), ref.what)};
    Object o;
    if (const Json* t = member(j, "template")) {
        if (!t->is_string()) at.fail("template", "template must be a string");
        o = *read_template(at, t->get<std::string>());
        o.id = 0;
        o.x = o.y = 0;
        if (!member(j, "name") && !o.name.empty()) at.what = what(label(j, o.name), ref.what);
    }
    apply_object(at, j, sets, o);
    return o;
}

void Reader::apply_object(const At& at, const Json& j, const Tilesets* sets, Object& o) {
    o.where = {at.doc->file, at.ptr, 0, 0};
    if (const auto id = integer(at, j, "id", 0, kMaxU32)) o.id = static_cast<std::uint32_t>(*id);
    if (const auto name = string(at, j, "name")) o.name = *name;
    if (const auto cls = string(at, j, member(j, "type") ? "type" : "class")) o.cls = *cls;  // "class": Tiled 1.9
    if (const auto x = number(at, j, "x")) o.x = *x;
    if (const auto y = number(at, j, "y")) o.y = *y;
    if (const auto w = size(at, j, "width")) o.width = *w;
    if (const auto h = size(at, j, "height")) o.height = *h;
    if (const auto r = number(at, j, "rotation")) o.rotation = *r;

    // The kind: each key Tiled writes for one (a template instance may change its template's).
    if (const auto gid = integer(at, j, "gid", 0, kMaxU32)) {
        o.tile = resolve(at, sets, *gid);
        o.kind = ObjectKind::Tile;
    }
    static const std::pair<const char*, ObjectKind> flags[] = {
        {"ellipse", ObjectKind::Ellipse}, {"point", ObjectKind::Point}, {"capsule", ObjectKind::Capsule}};
    for (const auto& [key, kind] : flags) {
        if (const auto on = boolean(at, j, key)) {
            if (*on) o.kind = kind;
            else if (o.kind == kind) o.kind = ObjectKind::Rect;
        }
    }
    static const std::pair<const char*, ObjectKind> paths[] = {{"polygon", ObjectKind::Polygon},
                                                               {"polyline", ObjectKind::Polyline}};
    for (const auto& [key, kind] : paths) {
        if (const Json* list = array(at, j, key)) {
            o.points = read_points(at / key, *list);
            o.kind = kind;
        }
    }
    if (const Json* text = member(j, "text")) {
        if (!text->is_object()) at.fail("text", "text must be a JSON object");
        o.kind = ObjectKind::Text;
    }
    if (const Json* props = array(at, j, "properties")) read_properties(at, *props, o.properties);
}

TileRef Reader::resolve(const At& at, const Tilesets* sets, std::int64_t gid) {
    if (!sets) at.fail("gid", "a tile's collision shapes cannot be tile objects");
    if ((static_cast<std::uint32_t>(gid) & kGidMask) == 0) at.fail("gid", "gid 0 names no tile");
    return tile_of(*sets, static_cast<std::uint32_t>(gid));
}

std::shared_ptr<const Object> Reader::read_template(const At& ref, const std::string& source) {
    const std::string path = resolve_path(ref.doc->file, source);
    if (const auto it = templates_.find(path); it != templates_.end()) return it->second;
    const std::string name = "template '" + source + "'";
    if (!json_template(path, true)) {  // a .tx: read as XML, whatever the map's format (SPEC §1.5)
        std::string text;
        try {
            text = load_(path);
        } catch (const Error& e) {
            At{ref.doc, ref.ptr, name}.fail("template", e.message());
        }
        auto o = std::make_shared<const Object>(read_tx_template(path, text, load_));
        return templates_.emplace(path, std::move(o)).first->second;
    }
    const Doc& doc = load_doc(ref, "template", path, name);
    auto o = std::make_shared<const Object>(template_object(doc, name));
    return templates_.emplace(path, std::move(o)).first->second;
}

Object Reader::template_object(const Doc& doc, const std::string& name) {
    const At at{&doc, "", name};
    expect_object(at, doc.root, "a template");
    if (const auto type = string(at, doc.root, "type"); type && *type != "template")
        at.fail("type", "not a template: its type is '" + *type + "'");
    Tilesets sets;
    if (const Json* tileset = member(doc.root, "tileset")) sets.push_back(read_tileset_ref(At{&doc, "/tileset", ""}, *tileset));
    const Json* object = member(doc.root, "object");
    if (!object) at.fail("", "object is missing");
    expect_object(at / "object", *object, "object");
    if (const Json* nested = member(*object, "template"))
        At{&doc, "/object", ""}.fail("template", name + " refers to another template ('" +
                                                     (nested->is_string() ? nested->get<std::string>() : "?") + "')");
    return read_object(At{&doc, "/object", name}, *object, &sets);
}

void Reader::read_properties(const At& at, const Json& list, Properties& out) {
    for (std::size_t k = 0; k < list.size(); ++k) {
        const Json& p = list[k];
        const At e = at / "properties" / std::to_string(k);
        expect_object(e, p, "a property");
        const std::string name = required(e, "name", string(e, p, "name"));
        const std::string type = string(e, p, "type").value_or("string");
        const auto same = std::find_if(out.begin(), out.end(), [&](const auto& kv) { return kv.first == name; });
        if (type != "string") {  // only string properties matter to collide; the instance's still hides the template's
            if (same != out.end()) out.erase(same);
            continue;
        }
        const Json* value = member(p, "value");
        if (value && !value->is_string()) e.fail("value", "property '" + name + "': value must be a string");
        std::string v = value ? value->get<std::string>() : std::string();
        if (same != out.end()) same->second = std::move(v);
        else out.emplace_back(name, std::move(v));
    }
}

}  // namespace collide::detail::tiled::tmj
