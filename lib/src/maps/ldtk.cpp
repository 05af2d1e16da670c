// LDtk projects as scenes (ldtk.hpp, SPEC §1.5).
//
// The project JSON (https://ldtk.io/docs/game-dev/json-overview/) is read with nlohmann/json
// and each level written as scene text with SceneText. Only what a collision check needs is
// read: IntGrid layers (grids) and entity instances (rects); tile and auto layers are art.
// Levels are those of "levels" and then, for multi-world projects, of each "worlds" entry.
#include "maps/built_scene.hpp"
#include "maps/ldtk.hpp"
#include "maps/map_sources.hpp"

#include "maps/tiled_model.hpp"
#include "scene/scene_text.hpp"
#include "support/json_locate.hpp"
#include "support/text_encoding.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

namespace collide::detail {

namespace {

using json = nlohmann::json;

// Deeper nesting is refused before parsing: find_pointer, which locates errors, recurses
// once a level. A project nests about ten deep (field values inside entities inside layers).
constexpr int kMaxDepth = 256;

// A file being read (the project, or a level file) and the level in it: what errors name.
struct Where {
    std::string file;
    std::string_view text;
    std::string level;  ///< "level 'Level_0'", or empty before a level is known
};

[[noreturn]] void fail(const Where& at, const std::string& path, const std::string& message) {
    TextPos pos;
    if (!path.empty()) {
        const std::size_t offset = find_pointer(at.text, path);
        if (offset != std::string_view::npos) pos = position_of(at.text, offset);
    }
    throw Error(at.file, path, message, pos.line, pos.column);
}

std::string num(double v) {
    std::string s;
    append_number(s, v);
    return s;
}

// The byte where nesting first goes deeper than kMaxDepth, or npos (strings skipped).
std::size_t too_deep(std::string_view text) {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxDepth) return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return std::string_view::npos;
}

json parse(const std::string& file, std::string_view text) {
    if (const std::size_t deep = too_deep(text); deep != std::string_view::npos) {
        const TextPos pos = position_of(text, deep);
        throw Error(file, "", "values nested deeper than " + std::to_string(kMaxDepth) + " levels", pos.line, pos.column);
    }
    json out;
    parse_json(out, file, text, "");
    return out;
}

// Typed access to one object of the project, naming it (`who`) in errors.
class Obj {
public:
    Obj(const Where& at, const json& v, std::string path, std::string who)
        : at_(at), v_(v), path_(std::move(path)), who_(std::move(who)) {
        if (!v_.is_object()) fail(at_, path_, who_ + ": not an object");
    }

    const std::string& path() const { return path_; }
    const std::string& who() const { return who_; }
    std::string path_of(std::string_view key) const { return path_ + "/" + pointer_token(key); }
    [[noreturn]] void fail_at(std::string_view key, const std::string& what) const {
        fail(at_, path_of(key), who_ + ": " + what);
    }

    /// The member, or nullptr when there is none (null counts as none).
    const json* find(std::string_view key) const {
        const auto it = v_.find(std::string(key));  // (nlohmann before 3.11 looks up std::string only)
        return it == v_.end() || it->is_null() ? nullptr : &*it;
    }
    const json& get(std::string_view key) const {
        const json* v = find(key);
        if (!v) fail(at_, path_, who_ + ": " + std::string(key) + " is missing");
        return *v;
    }
    const std::string& string(std::string_view key) const {
        const json& v = get(key);
        if (!v.is_string()) fail_at(key, std::string(key) + " is not a string");
        return v.get_ref<const std::string&>();
    }
    const json& array(std::string_view key) const {
        const json& v = get(key);
        if (!v.is_array()) fail_at(key, std::string(key) + " is not an array");
        return v;
    }
    double number(std::string_view key) const { return finite(get(key), path_of(key), key); }
    /// An integer in [lo, hi].
    std::int64_t integer(std::string_view key, std::int64_t lo, std::int64_t hi) const {
        return whole(get(key), path_of(key), std::string(key), lo, hi);
    }
    /// Element i of the two-number array `key` ("px", "__pivot").
    double pair_item(std::string_view key, std::size_t i) const {
        const json& v = get(key);
        if (!v.is_array() || v.size() != 2) fail_at(key, std::string(key) + " is not an array of two numbers");
        return finite(v[i], path_of(key) + "/" + std::to_string(i), std::string(key) + "[" + std::to_string(i) + "]");
    }

    double finite(const json& v, const std::string& path, std::string_view name) const {
        if (!v.is_number()) fail(at_, path, who_ + ": " + std::string(name) + " is not a number");
        const double d = v.get<double>();
        if (!std::isfinite(d)) fail(at_, path, who_ + ": " + std::string(name) + " is not finite");
        return d;
    }
    std::int64_t whole(const json& v, const std::string& path, const std::string& name, std::int64_t lo,
                       std::int64_t hi) const {
        std::int64_t i = 0;
        if (v.is_number_unsigned()) {
            const auto u = v.get<std::uint64_t>();
            if (u > static_cast<std::uint64_t>(hi)) fail(at_, path, who_ + ": " + name + " " + std::to_string(u) + " is out of range");
            i = static_cast<std::int64_t>(u);
        } else if (v.is_number_integer()) {
            i = v.get<std::int64_t>();
        } else {
            fail(at_, path, who_ + ": " + name + " is not an integer");
        }
        if (i < lo || i > hi) fail(at_, path, who_ + ": " + name + " " + std::to_string(i) + " is out of range");
        return i;
    }

private:
    const Where& at_;
    const json& v_;
    std::string path_;
    std::string who_;
};

std::vector<std::string> string_list(const Where& at, const json& v, const std::string& path, const std::string& who) {
    if (!v.is_array()) fail(at, path, who + " is not an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string()) fail(at, path + "/" + std::to_string(i), who + " holds a value that is not a string");
        out.push_back(v[i].get<std::string>());
    }
    return out;
}

// The tags of each entity definition (defs.entities), by uid.
std::unordered_map<std::int64_t, std::vector<std::string>> entity_tags(const Where& at, const json& root) {
    std::unordered_map<std::int64_t, std::vector<std::string>> tags;
    const auto defs = root.find("defs");
    if (defs == root.end() || !defs->is_object()) return tags;
    const auto entities = defs->find("entities");
    if (entities == defs->end() || !entities->is_array()) return tags;
    for (std::size_t i = 0; i < entities->size(); ++i) {
        const std::string path = "/defs/entities/" + std::to_string(i);
        const Obj def(at, (*entities)[i], path, "entity definition #" + std::to_string(i));
        const json* uid = def.find("uid");
        const json* list = def.find("tags");
        if (!uid || !list) continue;
        const std::int64_t key = def.whole(*uid, def.path_of("uid"), "uid", std::numeric_limits<std::int64_t>::min(),
                                           std::numeric_limits<std::int64_t>::max());
        tags.emplace(key, string_list(at, *list, def.path_of("tags"), def.who() + ": tags"));
    }
    return tags;
}

// One level becoming one scene.
class LevelScene {
public:
    LevelScene(const Where& at, const std::unordered_map<std::int64_t, std::vector<std::string>>& def_tags,
               MapImport& out, MapBuild build)
        : at_(at), def_tags_(def_tags), out_(out), scene_(out.name, build) {}

    void layers(const json& list, const std::string& path) {
        for (std::size_t i = 0; i < list.size(); ++i) layer(list[i], path + "/" + std::to_string(i), i);
        scene_.finish(out_);
        out_.sources.file = at_.file;  // the project, or the level's own file
        locate_sources(out_, at_.text);
    }

private:
    void layer(const json& v, const std::string& path, std::size_t index) {
        const Obj probe(at_, v, path, "layer #" + std::to_string(index) + " in " + at_.level);
        const Obj l(at_, v, path, "layer '" + probe.string("__identifier") + "' in " + at_.level);
        const std::string& type = l.string("__type");
        if (type == "IntGrid") int_grid(l);
        else if (type == "Entities") entities(l);
        else if (type != "Tiles" && type != "AutoLayer") {
            out_.warnings.push_back(l.who() + ": layer type '" + type + "' is not read");
            out_.warning_sources.push_back(MapSource{l.who(), l.path(), 0, 0, MapSource::kNoTile, {}});
            out_.sources.add(out_.sources.warnings, 0, 0, probe.string("__identifier"));
        }
    }

    void int_grid(const Obj& l) {
        const auto max = static_cast<std::int64_t>(kMaxMapCells);
        const auto cols = static_cast<std::uint64_t>(l.integer("__cWid", 0, max));
        const auto rows = static_cast<std::uint64_t>(l.integer("__cHei", 0, max));
        const std::uint64_t cells = cols * rows;  // each <= 2^28: no overflow
        if (cells > kMaxMapCells)
            l.fail_at("__cWid", std::to_string(cols) + " x " + std::to_string(rows) + " cells is more than " +
                                    std::to_string(kMaxMapCells));
        if (cells == 0) return;
        const double size = l.number("__gridSize");
        if (!(size > 0)) l.fail_at("__gridSize", "__gridSize " + num(size) + " is not positive");
        const Vec2 origin{l.number("__pxTotalOffsetX"), l.number("__pxTotalOffsetY")};

        std::vector<bool> solid(static_cast<std::size_t>(cells));
        if (const json* csv = l.find("intGridCsv")) {
            if (!csv->is_array()) l.fail_at("intGridCsv", "intGridCsv is not an array");
            if (csv->size() != cells)
                l.fail_at("intGridCsv", "intGridCsv holds " + std::to_string(csv->size()) + " values for " +
                                            std::to_string(cols) + " x " + std::to_string(rows) + " cells");
            const std::string at = l.path_of("intGridCsv") + "/";
            for (std::size_t i = 0; i < solid.size(); ++i) {
                const json& c = (*csv)[i];
                if (!c.is_number_integer())
                    fail(at_, at + std::to_string(i), l.who() + ": intGridCsv[" + std::to_string(i) + "] is not an integer");
                solid[i] = c.get<std::int64_t>() != 0;  // (any non-zero unsigned stays non-zero)
            }
        } else if (const json* sparse = l.find("intGrid")) {
            // Before LDtk 0.8 only the cells holding a value were listed, as {coordId, v}
            // (coordId = col + row * cWid); a listed cell is not empty whatever v says.
            if (!sparse->is_array()) l.fail_at("intGrid", "intGrid is not an array");
            for (std::size_t i = 0; i < sparse->size(); ++i) {
                const Obj cell(at_, (*sparse)[i], l.path_of("intGrid") + "/" + std::to_string(i),
                               l.who() + ": intGrid[" + std::to_string(i) + "]");
                const auto id = cell.integer("coordId", 0, static_cast<std::int64_t>(cells) - 1);
                solid[static_cast<std::size_t>(id)] = true;
            }
        } else {
            l.fail_at("intGridCsv", "intGridCsv is missing");
        }

        const std::string& id = l.string("__identifier");
        const auto w = static_cast<std::size_t>(cols);
        scene_->grid(id, {id}, origin, Vec2{size, size}, w, static_cast<std::size_t>(rows), false,
                    [&](std::size_t c, std::size_t r) { return solid[r * w + c]; });
        out_.grid_sources.push_back(MapSource{"layer '" + id + "'", l.path(), 0, 0, MapSource::kNoTile, {}});
        out_.sources.add(out_.sources.grids, 0, 0, id);
    }

    void entities(const Obj& l) {
        const std::string& layer = l.string("__identifier");
        const json& list = l.array("entityInstances");
        const double dx = l.number("__pxTotalOffsetX");
        const double dy = l.number("__pxTotalOffsetY");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string path = l.path_of("entityInstances") + "/" + std::to_string(i);
            const Obj probe(at_, list[i], path, "entity #" + std::to_string(i) + " in layer '" + layer + "' of " + at_.level);
            const std::string& name = probe.string("__identifier");
            const std::string id = name + "#" + std::to_string(++count_[name]);
            const std::string what = "entity '" + id + "' in layer '" + layer + "'";
            const Obj e(at_, list[i], path, what + " of " + at_.level);

            const double width = e.number("width");
            const double height = e.number("height");
            if (width < 0) e.fail_at("width", "width " + num(width) + " is negative");
            if (height < 0) e.fail_at("height", "height " + num(height) + " is negative");
            // (px + layer offset) - pivot * size, in that order: the pivot is a point of the
            // entity's box, px where it sits in the level.
            const double x = (e.pair_item("px", 0) + dx) - e.pair_item("__pivot", 0) * width;
            const double y = (e.pair_item("px", 1) + dy) - e.pair_item("__pivot", 1) * height;
            if (!std::isfinite(x) || !std::isfinite(y)) e.fail_at("px", "its position is not finite");

            scene_->begin_shape(id, "rect");
            scene_->number("x", x);
            scene_->number("y", y);
            scene_->number("width", width);
            scene_->number("height", height);
            scene_->end_shape(groups(e, name), ignored(e));
            out_.shape_sources.push_back(MapSource{what, path, 0, 0, MapSource::kNoTile, {}});
            const json* iid = e.find("iid");
            out_.sources.add(out_.sources.shapes, 0, 0, layer, 0, iid && iid->is_string() ? iid->get<std::string>() : "");
        }
    }

    // The rules a `collide_ignore` String field of the entity names, read as Tiled's
    // property of that name is (SPEC §3.1).
    static std::vector<std::string> ignored(const Obj& e) {
        tiled::Properties props;
        if (const json* fields = e.find("fieldInstances"); fields && fields->is_array())
            for (const json& f : *fields)
                if (f.is_object() && f.value("__identifier", std::string()) == "collide_ignore")
                    if (const auto v = f.find("__value"); v != f.end() && v->is_string())
                        props.emplace_back("collide_ignore", v->get<std::string>());
        return tiled::ignored_rules(props);
    }

    // The entity's identifier, then its tags: the instance's own (__tags, LDtk 1.0), else its
    // definition's.
    std::vector<std::string> groups(const Obj& e, const std::string& name) const {
        std::vector<std::string> tags;
        if (const json* own = e.find("__tags")) {
            tags = string_list(at_, *own, e.path_of("__tags"), e.who() + ": __tags");
        } else if (const json* uid = e.find("defUid")) {
            const auto key = e.whole(*uid, e.path_of("defUid"), "defUid", std::numeric_limits<std::int64_t>::min(),
                                     std::numeric_limits<std::int64_t>::max());
            if (const auto def = def_tags_.find(key); def != def_tags_.end()) tags = def->second;
        }
        std::vector<std::string> out{name};
        for (std::string& t : tags)
            if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(std::move(t));
        return out;
    }

    const Where& at_;
    const std::unordered_map<std::int64_t, std::vector<std::string>>& def_tags_;
    MapImport& out_;
    SceneOut scene_;
    std::map<std::string, std::size_t> count_;  ///< instances so far of each entity identifier
};

}  // namespace

std::vector<MapImport> import_ldtk(const std::string& file, std::string_view text, const FileLoader& load,
                                   std::string_view level, MapBuild build) {
    const json root = parse(file, text);
    Where project{file, text, {}};
    if (!root.is_object()) fail(project, "", "not an LDtk project: the top level is not an object");

    // Every level with its pointer: "levels", then each world's (multi-world projects).
    std::vector<std::pair<const json*, std::string>> levels;
    auto add_levels = [&](const json& owner, const std::string& path, bool required) {
        const auto it = owner.find("levels");
        if (it == owner.end() || it->is_null()) {
            if (required) fail(project, path, "not an LDtk project: levels is missing");
            return;
        }
        if (!it->is_array()) fail(project, path + "/levels", "levels is not an array");
        for (std::size_t i = 0; i < it->size(); ++i) levels.emplace_back(&(*it)[i], path + "/levels/" + std::to_string(i));
    };
    add_levels(root, "", true);
    if (const auto worlds = root.find("worlds"); worlds != root.end() && worlds->is_array())
        for (std::size_t w = 0; w < worlds->size(); ++w) {
            const std::string path = "/worlds/" + std::to_string(w);
            const Obj world(project, (*worlds)[w], path, "world #" + std::to_string(w));
            add_levels((*worlds)[w], path, false);
        }

    std::vector<std::string> names;
    for (std::size_t i = 0; i < levels.size(); ++i)
        names.push_back(Obj(project, *levels[i].first, levels[i].second, "level #" + std::to_string(i)).string("identifier"));
    if (!level.empty() && std::find(names.begin(), names.end(), level) == names.end()) {
        std::string list;
        for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
        fail(project, "", "no level '" + std::string(level) + "' (" + (list.empty() ? "the project has none" : "levels: " + list) + ")");
    }

    const auto def_tags = entity_tags(project, root);
    std::vector<MapImport> out;
    for (std::size_t i = 0; i < levels.size(); ++i) {
        if (!level.empty() && names[i] != level) continue;
        project.level = "level '" + names[i] + "'";
        const Obj lv(project, *levels[i].first, levels[i].second, project.level);
        MapImport scene;
        scene.name = file + "#" + names[i];
        if (const json* layers = lv.find("layerInstances")) {
            if (!layers->is_array()) lv.fail_at("layerInstances", "layerInstances is not an array");
            LevelScene(project, def_tags, scene, build).layers(*layers, lv.path_of("layerInstances"));
        } else {
            // Saved in its own file (externalLevels): a level object with its layers.
            const std::string path = tiled::resolve_path(file, lv.string("externalRelPath"));
            std::string level_text;
            try {
                level_text = load(path);
            } catch (const Error& e) {
                throw Error(e.file(), e.json_path(), project.level + ": " + e.message(), e.line(), e.column());
            }
            const json level_root = parse(path, level_text);
            const Where external{path, level_text, project.level};
            const Obj ext(external, level_root, "", project.level);
            LevelScene(external, def_tags, scene, build).layers(ext.array("layerInstances"), "/layerInstances");
        }
        out.push_back(std::move(scene));
        if (!level.empty()) break;
    }
    return out;
}

}  // namespace collide::detail
