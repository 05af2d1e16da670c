// Level-editor maps (collide/maps.hpp): which reader a file goes to, the files a map names,
// and errors in the scene a map became reported against the map.
#include "collide/maps.hpp"

#include "maps/built_scene.hpp"
#include "maps/godot_scene.hpp"
#include "maps/ldtk.hpp"
#include "maps/map_sources.hpp"
#include "maps/tiled_model.hpp"
#include "scene/scene_text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>
#include <unordered_map>

namespace collide {

namespace {

bool ends_with_ci(std::string_view s, std::string_view suffix) {
    if (s.size() < suffix.size()) return false;
    return std::equal(suffix.begin(), suffix.end(), s.end() - static_cast<std::ptrdiff_t>(suffix.size()),
                      [](char want, char c) { return std::tolower(static_cast<unsigned char>(c)) == want; });
}

// The top level of JSON text read just far enough to tell a Tiled map from a scene: key by
// key, each value skipped (strings and brackets matched, nothing decoded), until a key only
// scenes have (a scene) or "type": "map" (a Tiled map). Text that is not a JSON object, or ends
// without either, is a scene: the scene reader then says what is wrong with it. Nothing when
// `text` is only the start of the file and ends first.
class TopLevel {
public:
    TopLevel(std::string_view text, bool complete) : t_(text), complete_(complete) {}

    std::optional<MapFormat> kind() {
        if (t_.substr(0, 3) == "\xEF\xBB\xBF") i_ = 3;
        if (!next('{')) return ended();
        while (true) {
            std::string_view key;
            if (!string(key) || !next(':')) return ended();
            ws();
            if (i_ >= t_.size()) return unfinished();
            if (scene_key(key)) return MapFormat::None;
            if (key == "type" && t_[i_] == '"') {
                std::string_view value;
                if (!string(value)) return ended();
                if (value == "map") return MapFormat::TiledJson;
            } else if (!skip_value()) {
                return ended();
            }
            ws();
            if (i_ >= t_.size()) return unfinished();
            if (t_[i_] != ',') return MapFormat::None;  // '}' or not JSON: a scene's, either way
            ++i_;
        }
    }

    // The same walk for JsonKind: every key looked at until one decides.
    JsonKind json_kind() {
        if (t_.substr(0, 3) == "\xEF\xBB\xBF") i_ = 3;
        if (!next('{')) return i_ >= t_.size() ? JsonKind::Scene : JsonKind::Other;
        if (next('}')) return JsonKind::Scene;  // {}: a scene of nothing
        bool other = false;  // a key neither scenes nor Tiled files have
        while (true) {
            std::string_view key;
            if (!string(key) || !next(':')) return i_ >= t_.size() ? JsonKind::Scene : JsonKind::Other;
            ws();
            if (i_ >= t_.size()) return JsonKind::Scene;
            if (scene_key(key)) return JsonKind::Scene;
            if (key == "type" && t_[i_] == '"') {
                std::string_view value;
                if (!string(value)) return JsonKind::Scene;
                if (value == "map") return JsonKind::TiledMap;
                if (value == "tileset" || value == "template") return JsonKind::TiledPart;
                other = true;
            } else {
                other = other || key != "version";
                if (!skip_value()) return i_ >= t_.size() ? JsonKind::Scene : JsonKind::Other;
            }
            ws();
            if (i_ >= t_.size()) return JsonKind::Scene;
            if (t_[i_] == '}') return other ? JsonKind::Other : JsonKind::Scene;
            if (t_[i_] != ',') return JsonKind::Other;
            ++i_;
        }
    }

private:
    static bool scene_key(std::string_view k) {
        for (std::string_view s : {"format", "settings", "shapes", "grids", "moves", "pairs", "rules"})
            if (k == s) return true;
        return false;
    }
    // At the end of the text: undecided when more may follow, else a scene (the scene
    // reader reports what is wrong).
    std::optional<MapFormat> ended() const { return i_ >= t_.size() ? unfinished() : MapFormat::None; }
    std::optional<MapFormat> unfinished() const {
        if (complete_) return MapFormat::None;
        return std::nullopt;
    }
    void ws() {
        while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
    }
    bool next(char c) {
        ws();
        if (i_ >= t_.size() || t_[i_] != c) return false;
        ++i_;
        return true;
    }
    // A string token's raw text (escapes left as they are: the names compared hold none).
    bool string(std::string_view& out) {
        if (!next('"')) return false;
        const std::size_t from = i_;
        while (i_ < t_.size() && t_[i_] != '"') i_ += t_[i_] == '\\' ? 2 : 1;
        if (i_ >= t_.size()) return false;
        out = t_.substr(from, i_ - from);
        ++i_;
        return true;
    }
    // Past one value; false when the text ends inside it or it is not one.
    bool skip_value() {
        std::size_t depth = 0;
        while (i_ < t_.size()) {
            const char c = t_[i_];
            if (c == '"') {
                std::string_view ignored;
                if (!string(ignored)) return false;
                if (depth == 0) return true;
                continue;
            }
            if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (depth == 0) return true;  // the end of the top level: a scalar before it ended
                if (--depth == 0) {
                    ++i_;
                    return true;
                }
            } else if (c == ',' && depth == 0) {
                return true;
            }
            ++i_;
        }
        return false;
    }

    std::string_view t_;
    bool complete_;
    std::size_t i_ = 0;
};

}  // namespace

JsonKind json_kind(std::string_view text) { return TopLevel(text, false).json_kind(); }

namespace {

// The map format a file's name says, when it says one.
std::optional<MapFormat> by_extension(std::string_view file) {
    if (ends_with_ci(file, ".tmx")) return MapFormat::TiledXml;
    if (ends_with_ci(file, ".tmj")) return MapFormat::TiledJson;
    if (ends_with_ci(file, ".ldtk")) return MapFormat::Ldtk;
    // Godot: text scenes, and what is refused with a reason (a binary scene, a resource).
    if (ends_with_ci(file, ".tscn") || ends_with_ci(file, ".scn") || ends_with_ci(file, ".tres")) return MapFormat::Godot;
    return std::nullopt;
}

}  // namespace

bool is_tiled_json(std::string_view text) { return TopLevel(text, true).kind() == MapFormat::TiledJson; }

std::optional<MapFormat> detect_format(std::string_view file, std::string_view text, bool complete) {
    if (const std::optional<MapFormat> named = by_extension(file)) return named;
    if (file != "-" && !ends_with_ci(file, ".json")) return MapFormat::None;
    return TopLevel(text, complete).kind();
}

MapFormat map_format(std::string_view file, std::string_view text) {
    if (const std::optional<MapFormat> named = by_extension(file)) return *named;
    if (!text.empty() && is_tiled_json(text)) return MapFormat::TiledJson;
    return MapFormat::None;
}

namespace {

// Whether the first byte after a byte-order mark and white space can start XML ('<') or JSON:
// a file of NUL bytes (a sparse file, a disk image) fails there, before room is made for all.
bool can_start_map_file(std::string_view text) {
    std::size_t i = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
    return i == text.size() || std::string_view("<{[\"-0123456789tfn").find(text[i]) != std::string_view::npos;
}

}  // namespace

FileLoader file_system_loader() {
    return [](const std::string& path) {
        // O_NONBLOCK: a FIFO opens at once (and is refused below) instead of waiting for a writer.
        const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) throw Error(path, "", std::string("cannot open: ") + std::strerror(errno));
        struct Closer {
            int fd;
            ~Closer() { ::close(fd); }
        } const closer{fd};
        struct stat st {};
        if (::fstat(fd, &st) != 0) throw Error(path, "", std::string("cannot read: ") + std::strerror(errno));
        // A map names tilesets, templates and level files: a device, a FIFO or a socket never is
        // one (/dev/zero would be read for ever), and a directory cannot be.
        if (S_ISDIR(st.st_mode)) throw Error(path, "", std::string("cannot read: ") + std::strerror(EISDIR));
        if (!S_ISREG(st.st_mode)) throw Error(path, "", "cannot read: not a regular file");
        if (static_cast<std::uint64_t>(st.st_size) > kMaxMapFileBytes)
            throw Error(path, "", "cannot read: the file holds " + std::to_string(st.st_size) + " bytes, more than the " +
                                      std::to_string(kMaxMapFileBytes) + " collide reads from a file a map names");
        std::string text;
        const auto read_up_to = [&](std::size_t size) {
            const std::size_t from = text.size();
            text.resize(size);
            std::size_t got = from;
            while (got < size) {
                const ssize_t n = ::read(fd, text.data() + got, size - got);
                if (n < 0 && errno == EINTR) continue;
                if (n < 0) throw Error(path, "", std::string("cannot read: ") + std::strerror(errno));
                if (n == 0) break;
                got += static_cast<std::size_t>(n);
            }
            text.resize(got);
            return got == size;
        };
        // The first bytes alone decide whether it can be XML or JSON at all; then the rest of the
        // size it had when opened (a file that grows meanwhile is read as it was then).
        const auto size = static_cast<std::size_t>(st.st_size);
        if (read_up_to(std::min<std::size_t>(size, 4096)) && size > 4096 && can_start_map_file(text)) read_up_to(size);
        return text;
    };
}

std::vector<MapImport> import_map(const std::string& file, std::string_view text, MapFormat format,
                                  const FileLoader& load, std::string_view level, MapBuild build) {
    using namespace detail::tiled;
    switch (format) {
        case MapFormat::TiledXml:
        case MapFormat::TiledJson: {
            if (!level.empty())
                throw Error(file, "", "'#" + std::string(level) + "' names a level, but a Tiled map has none");
            const Map map = format == MapFormat::TiledXml ? read_tmx(file, text, load) : read_tmj(file, text, load);
            std::vector<MapImport> out;
            out.push_back(tiled_scene(map, file, build));
            if (format == MapFormat::TiledJson) detail::locate_sources(out.back(), text);
            return out;
        }
        case MapFormat::Ldtk:
            return detail::import_ldtk(file, text, load, level, build);
        case MapFormat::Godot:
            if (!level.empty())
                throw Error(file, "", "'#" + std::string(level) + "' names a level, but a Godot scene has none");
            return detail::godot::import_godot(file, text, load, build);
        case MapFormat::None:
            break;
    }
    throw Error(file, "", "not a Tiled map or an LDtk project");
}

void write_scene_text(const MapImport& map, std::ostream& out) {
    detail::write_with_grids(out, map.text, map.grids, map.grid_ignores);
}

std::string scene_text(const MapImport& map) {
    std::ostringstream out;
    write_scene_text(map, out);
    return std::move(out).str();
}

namespace {

// The map's grids after its scene's shapes (moved out of `take`, the map's own, when set), checked as the scene reader checks grids: a finite
// origin and tile size, and an id no shape or earlier grid has. An error names the layer.
void add_map_grids(Scene& scene, const MapImport& map, std::vector<Grid>* take) {
    // Where each id is taken: the grids' own (a map has a few), then the first shape with
    // one of those ids; the shapes' ids are unique among themselves already.
    std::unordered_map<std::string_view, std::string> seen;
    std::unordered_map<std::string_view, std::size_t> grid_ids;
    for (const Grid& g : map.grids) grid_ids.emplace(g.id, 0);
    for (std::size_t i = 0; i < scene.shapes.size() && !grid_ids.empty(); ++i)
        if (grid_ids.count(scene.shapes[i].id) != 0) seen.emplace(scene.shapes[i].id, "/shapes/" + std::to_string(i));
    scene.grids.reserve(map.grids.size());
    for (std::size_t k = 0; k < map.grids.size(); ++k) {
        const Grid& g = map.grids[k];
        const auto fail = [&](const std::string& message) {
            MapSource s;
            if (k < map.grid_sources.size()) s = map.grid_sources[k];
            else s.what = "grid '" + g.id + "'";
            throw Error(map.name, s.json_path, s.what + ": " + message, s.line, s.column);
        };
        const auto finite = [](Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); };
        if (!finite(g.origin)) fail("its origin is beyond the double range");
        if (!finite(g.tile) || !(g.tile.x > 0) || !(g.tile.y > 0)) fail("its tile size must be finite and > 0");
        const auto [it, added] = seen.emplace(g.id, "/grids/" + std::to_string(k));
        if (!added) fail("duplicate id '" + g.id + "' (also " + it->second + ")");
    }
    for (std::size_t k = 0; k < map.grids.size(); ++k) {
        scene.grids.push_back(take ? std::move((*take)[k]) : map.grids[k]);
        scene.grids.back().y_up = scene.y_up;
    }
}

}  // namespace

namespace {

// The scene a converter built (MapBuild::Scene): a shape the builder refused, or a problem
// its cross-checks find, as read_scene would report it, at the scene's JSON pointer.
Scene finish_built(const MapImport& map) {
    detail::BuiltScene& built = *map.built;
    try {
        if (const std::optional<detail::Fail>& f = built.shapes.failure()) throw *f;
        return built.builder.finish();
    } catch (const detail::Fail& f) {
        throw Error(map.name, f.path, f.message);
    }
}

// `owned`: the map itself, when its grids and sources may be moved out (not copied).
Scene read_taking(const MapImport& map, const ReadOptions& options, MapImport* owned) {
    try {
        ReadOptions text_options = options;
        text_options.sources = false;  // the map's own, below, not the text's
        Scene scene = map.built ? finish_built(map) : read_scene(map.text, map.name, text_options);
        add_map_grids(scene, map, owned ? &owned->grids : nullptr);
        for (const Ignore& i : map.grid_ignores) scene.ignores.push_back(Ignore{scene.shapes.size() + i.object, i.rules});
        // The map's warnings, without the file each begins with (the source names it).
        const std::string head = map.sources.file + ": ";
        for (const std::string& w : map.warnings)
            scene.warnings.push_back(w.compare(0, head.size(), head) == 0 ? w.substr(head.size()) : w);
        if (!options.sources) scene.sources.file = map.sources.file;
        else if (owned) scene.sources = std::move(owned->sources);
        else scene.sources = map.sources;
        return scene;
    } catch (const Error& e) {
        // "/shapes/12/points" or "/grids/0/rows": the map object or layer it came from.
        const std::string& path = e.json_path();
        const bool shape = path.rfind("/shapes/", 0) == 0;
        if (!shape && path.rfind("/grids/", 0) != 0) throw;
        const std::vector<MapSource>& sources = shape ? map.shape_sources : map.grid_sources;
        // The index written at path[k], when it is below `limit`; k moves past its digits.
        const auto index_at = [&](std::size_t& k, std::size_t limit) -> std::optional<std::size_t> {
            std::size_t index = 0;
            const std::size_t first = k;
            for (; k < path.size() && std::isdigit(static_cast<unsigned char>(path[k])) && index < limit; ++k)
                index = index * 10 + static_cast<std::size_t>(path[k] - '0');
            if (k == first || index >= limit) return std::nullopt;
            return index;
        };
        std::size_t k = shape ? 8 : 7;
        const auto index = index_at(k, sources.size());
        if (!index) throw;
        const MapSource& s = sources[*index];
        // A tile's collision shape ("/parts/K"): the error is the tileset's, at the shape;
        // where the map places the tile follows.
        const std::string parts = "/parts/";
        if (shape && s.tile < map.tiles.size() && path.compare(k, parts.size(), parts) == 0) {
            const TileSource& tile = map.tiles[s.tile];
            k += parts.size();
            if (const auto part = index_at(k, tile.parts.size())) {
                const TileShapeSource& q = tile.parts[*part];
                const std::string placed =
                    map.name + (s.line > 0 ? ":" + std::to_string(s.line) + ":" + std::to_string(s.column)
                                           : s.json_path.empty() ? std::string() : " " + s.json_path);
                throw Error(q.file, q.json_path,
                            tile.what + ", collision shape " + std::to_string(q.index) + ", placed as " + s.what + " (" +
                                placed + "): " + e.message(),
                            q.line, q.column);
            }
        }
        throw Error(map.name, s.json_path, s.what + ": " + e.message(), s.line, s.column);
    }
}

}  // namespace

Scene read_map_scene(const MapImport& map, const ReadOptions& options) { return read_taking(map, options, nullptr); }

Scene read_map_scene(MapImport&& map, const ReadOptions& options) { return read_taking(map, options, &map); }

namespace detail::tiled {

bool defines(const Tileset& set, std::uint32_t id) {
    if (!set.image_collection && (set.tilecount == 0 || id < set.tilecount)) return true;
    const auto tile = std::lower_bound(set.tiles.begin(), set.tiles.end(), id,
                                       [](const Tile& a, std::uint32_t v) { return a.id < v; });
    return tile != set.tiles.end() && tile->id == id;
}

TileRef tile_of(const std::vector<std::shared_ptr<const Tileset>>& sets, std::uint32_t gid) {
    TileRef ref;
    ref.gid = gid & kGidMask;
    ref.flips = gid & (kFlipH | kFlipV | kFlipD);
    const auto after = std::upper_bound(sets.begin(), sets.end(), ref.gid,
                                        [](std::uint32_t v, const auto& t) { return v < t->firstgid; });
    if (after == sets.begin()) {
        ref.id = ref.gid;
        ref.defined = false;
        return ref;
    }
    ref.tileset = *(after - 1);
    ref.id = ref.gid - ref.tileset->firstgid;
    ref.defined = defines(*ref.tileset, ref.id);
    return ref;
}

std::optional<Alignment> alignment_named(std::string_view name) {
    static constexpr std::pair<std::string_view, Alignment> kNames[] = {
        {"unspecified", Alignment::Unspecified}, {"topleft", Alignment::TopLeft},
        {"top", Alignment::Top},                 {"topright", Alignment::TopRight},
        {"left", Alignment::Left},               {"center", Alignment::Center},
        {"right", Alignment::Right},             {"bottomleft", Alignment::BottomLeft},
        {"bottom", Alignment::Bottom},           {"bottomright", Alignment::BottomRight}};
    for (const auto& [n, value] : kNames)
        if (name == n) return value;
    return std::nullopt;
}

bool json_tileset(std::string_view file) { return ends_with_ci(file, ".tsj") || ends_with_ci(file, ".json"); }
bool json_template(std::string_view file, bool map_json) {
    if (ends_with_ci(file, ".tj") || ends_with_ci(file, ".json")) return true;
    return ends_with_ci(file, ".tx") ? false : map_json;
}

std::string resolve_path(const std::string& from, const std::string& path) {
    if (!path.empty() && path[0] == '/') return path;
    const std::size_t slash = from.rfind('/');
    return slash == std::string::npos ? path : from.substr(0, slash + 1) + path;
}

}  // namespace detail::tiled

}  // namespace collide
