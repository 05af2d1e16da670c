// What the map fuzz targets (fuzz_map, fuzz_godot) hold every imported map to: the import as
// text and built give the same scenes, sources and warnings, or the same error; each scene
// reads back (or fails for the map's own content, against the object at fault); one source per
// shape and grid; what `collide import` prints reads back to the same grids; check() throws
// nothing. Each target splits its input into an Input and calls import_twice, then
// check_import for each scene.
#pragma once

#include "fuzz_common.hpp"

#include <collide/maps.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <variant>
#include <vector>

namespace fuzz_maps {

using namespace collide;

namespace {

constexpr std::size_t kMaxShapes = 2000;  // scenes of more shapes are imported and read, not checked
constexpr std::string_view kFileLine = "\n%%file ";

struct Input {
    MapFormat format = MapFormat::TiledXml;
    std::string file;  // the map's name
    std::string_view map;
    std::map<std::string, std::string> files;
};


// `rest` as the map's text, then up to `max_files` files each after a line "%%file NAME".
void split_files(std::string_view rest, std::size_t max_files, Input& in) {
    std::size_t cut = rest.find(kFileLine);
    in.map = rest.substr(0, cut);
    while (cut != std::string_view::npos && in.files.size() < max_files) {
        rest.remove_prefix(cut + kFileLine.size());
        const std::size_t eol = rest.find('\n');
        const std::string name(rest.substr(0, eol));
        rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
        cut = in.files.size() + 1 < max_files ? rest.find(kFileLine) : std::string_view::npos;
        in.files.emplace(name, std::string(rest.substr(0, cut)));  // a repeated name: the first wins
    }
}

std::string describe(const Input& in) {
    std::string t = "map " + in.file + " (" + std::to_string(in.map.size()) + " bytes)";
    for (const auto& f : in.files) t += ", file '" + f.first + "' (" + std::to_string(f.second.size()) + " bytes)";
    return t;
}

[[noreturn]] void unexpected(const Input& in, const char* step) {
    try {
        throw;
    } catch (const std::exception& e) {
        fuzz::fail(std::string(step) + " threw " + typeid(e).name() + " (not collide::Error): " + e.what() + "\n" +
                   describe(in));
    } catch (...) {
        fuzz::fail(std::string(step) + " threw something that is not a std::exception\n" + describe(in));
    }
}

// Errors of read_scene that a correct converter cannot avoid, because the map itself holds
// the bad value: the message after "WHAT: " (the object or layer) starts with one of these.
bool content_error(std::string_view message) {
    static const char* const kAllowed[] = {
        // A polygon or polyline object with too few points: `<polygon/>` without `points`, or
        // "0,0 5,5". Tiled never writes one, a hand-edited map may; the map is at fault.
        "needs at least ",
        // A polygon whose points repeat, lie on one line or cross: the shape drawn is not a
        // polygon, whatever the converter does with it.
        "a polygon needs at least 3 distinct vertices",
        "the polygon has zero area",
        "the polygon intersects itself",
        nullptr,
    };
    for (const char* const* a = kAllowed; *a; ++a)
        if (message.rfind(*a, 0) == 0) return true;
    return false;
}

void check_read_error(const Input& in, const MapImport& m, const Error& e) {
    const auto named = [&](const std::vector<MapSource>& sources) {
        for (const MapSource& s : sources)
            if (e.message().rfind(s.what + ": ", 0) == 0 && content_error(e.message().substr(s.what.size() + 2)))
                return true;
        return false;
    };
    // A tile's collision shape: located in its tileset, "TILE, collision shape K, placed as
    // WHAT (MAP:LINE:COL): ...".
    const auto in_tileset = [&] {
        for (const MapSource& s : m.shape_sources) {
            if (s.tile >= m.tiles.size()) continue;
            const collide::TileSource& t = m.tiles[s.tile];
            const std::string head = t.what + ", collision shape ";
            const std::string placed = ", placed as " + s.what + " (";
            const std::size_t p = e.message().find(placed);
            const std::size_t colon = p == std::string::npos ? p : e.message().find("): ", p);
            if (e.message().rfind(head, 0) != 0 || colon == std::string::npos || !content_error(e.message().substr(colon + 3)))
                continue;
            for (const collide::TileShapeSource& part : t.parts)
                if (part.file == e.file()) return true;
        }
        return false;
    };
    if (e.file() == m.name && (named(m.shape_sources) || named(m.grid_sources))) return;
    if (in_tileset()) return;
    fuzz::fail("an imported scene does not read back: " + std::string(e.what()) + "\n" + describe(in) +
               "\nthe scene text (first 4000 bytes):\n" + m.text.substr(0, 4000));
}

bool same_sources(const std::vector<MapSource>& a, const std::vector<MapSource>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].what != b[i].what || a[i].json_path != b[i].json_path || a[i].line != b[i].line ||
            a[i].column != b[i].column)
            return false;
    return true;
}

// x imported as text, y built: the same scenes, sources and warnings.
void check_same(const Input& in, const std::vector<MapImport>& x, const std::vector<MapImport>& y) {
    if (x.size() != y.size()) fuzz::fail("importing as text and built gives a different number of scenes\n" + describe(in));
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (x[i].name != y[i].name || x[i].warnings != y[i].warnings || !y[i].text.empty() || !y[i].built ||
            !same_sources(x[i].shape_sources, y[i].shape_sources) || !same_sources(x[i].grid_sources, y[i].grid_sources))
            fuzz::fail("importing as text and built gives a different scene " + std::to_string(i) + " ('" + x[i].name +
                       "')\n" + describe(in) + "\ntext:\n" + x[i].text.substr(0, 2000));
    }
}

// A shape's type and every coordinate, bit for bit, in order.
void flatten(const collide::Shape& shape, std::vector<std::uint64_t>& out) {
    out.push_back(shape.index());
    const auto put = [&](double d) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &d, sizeof bits);
        out.push_back(bits);
    };
    const auto put2 = [&](collide::Vec2 v) {
        put(v.x);
        put(v.y);
    };
    std::visit(
        [&](const auto& s) {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, collide::Point>) put2(s.at);
            else if constexpr (std::is_same_v<T, collide::Circle>) put2(s.center), put(s.radius);
            else if constexpr (std::is_same_v<T, collide::Rect>) put2(s.min), put2(s.max);
            else if constexpr (std::is_same_v<T, collide::Segment> || std::is_same_v<T, collide::Line>) put2(s.a), put2(s.b);
            else if constexpr (std::is_same_v<T, collide::Ray>) put2(s.origin), put2(s.direction);
            else if constexpr (std::is_same_v<T, collide::Polygon> || std::is_same_v<T, collide::Polyline>) {
                out.push_back(s.points.size());
                for (const collide::Vec2& p : s.points) put2(p);
            } else if constexpr (std::is_same_v<T, collide::Capsule>) put2(s.a), put2(s.b), put(s.radius);
            else {
                out.push_back(s.parts.size());
                for (const collide::Shape& part : s.parts) flatten(part, out);
            }
        },
        shape);
}

// The scene read from the import's text and the scene built: equal, field for field.
bool same_scene(const Scene& a, const Scene& b) {
    if (a.file != b.file || a.y_up != b.y_up || a.shapes.size() != b.shapes.size() || a.grids.size() != b.grids.size() ||
        !a.moves.empty() || !b.moves.empty() || a.pairs_given != b.pairs_given || a.converted.size() != b.converted.size())
        return false;
    std::vector<std::uint64_t> fa, fb;
    for (std::size_t i = 0; i < a.shapes.size(); ++i) {
        if (a.shapes[i].id != b.shapes[i].id || a.shapes[i].groups != b.shapes[i].groups) return false;
        flatten(a.shapes[i].shape, fa);
        flatten(b.shapes[i].shape, fb);
    }
    for (std::size_t i = 0; i < a.converted.size(); ++i)
        if (a.converted[i].shape != b.converted[i].shape || a.converted[i].part != b.converted[i].part ||
            a.converted[i].written != b.converted[i].written)
            return false;
    for (std::size_t g = 0; g < a.grids.size(); ++g) {
        const collide::Grid &x = a.grids[g], &y = b.grids[g];
        if (x.id != y.id || x.groups != y.groups || x.cols != y.cols || x.rows != y.rows || x.bits != y.bits ||
            !(x.origin == y.origin) || !(x.tile == y.tile) || x.outside_solid != y.outside_solid)
            return false;
    }
    return fa == fb;
}

bool verbose() {
    static const bool v = [] {
        const char* e = std::getenv("FUZZ_VERBOSE");
        return e != nullptr && *e != '\0' && std::string(e) != "0";
    }();
    return v;
}


// Imports the map as text and built, which must give the same scenes or the same error;
// nothing when it fails.
std::optional<std::pair<std::vector<MapImport>, std::vector<MapImport>>> import_twice(const Input& in, const FileLoader& load) {
    std::vector<MapImport> first, second;
    bool failed = false;
    std::string error;
    try {
        first = import_map(in.file, in.map, in.format, load);
    } catch (const Error& e) {
        failed = true;
        error = e.what();
        if (verbose()) std::fprintf(stderr, "%s\nimport_map: %s\n", describe(in).c_str(), e.what());
    } catch (...) {
        unexpected(in, "import_map");
    }
    try {
        second = import_map(in.file, in.map, in.format, load, {}, MapBuild::Scene);
        if (failed) fuzz::fail("import_map failed as text (" + error + "), then succeeded built\n" + describe(in));
    } catch (const Error& e) {
        if (!failed) fuzz::fail("import_map succeeded as text, then failed built: " + std::string(e.what()) + "\n" + describe(in));
        if (error != e.what())
            fuzz::fail("import_map failed as text and built with different errors:\n" + error + "\n" + e.what() + "\n" + describe(in));
        return std::nullopt;
    } catch (...) {
        unexpected(in, "import_map");
    }
    check_same(in, first, second);
    return std::make_pair(std::move(first), std::move(second));
}

// What `collide import` prints is the same scene: its grids read back bit for bit.
void check_printed_grids(const Input& in, const MapImport& m, const Scene& scene) {
    try {
        const Scene printed = collide::read_scene(collide::scene_text(m), m.name);
        bool same = printed.grids.size() == scene.grids.size();
        for (std::size_t g = 0; same && g < scene.grids.size(); ++g) {
            const collide::Grid &a = printed.grids[g], &b = scene.grids[g];
            same = a.id == b.id && a.groups == b.groups && a.cols == b.cols && a.rows == b.rows && a.bits == b.bits &&
                   a.origin.x == b.origin.x && a.origin.y == b.origin.y && a.tile.x == b.tile.x && a.tile.y == b.tile.y &&
                   a.outside_solid == b.outside_solid;
        }
        if (!same) fuzz::fail("scene '" + m.name + "': the grids collide import prints differ from those read\n" + describe(in));
    } catch (const Error& e) {
        fuzz::fail("scene '" + m.name + "': what collide import prints does not read: " + std::string(e.what()) + "\n" + describe(in));
    }
}

// The scene built directly (MapBuild::Scene): what read_map_scene makes of it, or its error.
std::pair<Scene, std::string> read_built(const Input& in, MapImport&& built) {
    try {
        return {read_map_scene(std::move(built)), std::string()};
    } catch (const Error& e) {
        return {Scene{}, e.what()};
    } catch (...) {
        unexpected(in, "read_map_scene of the built scene");
    }
}

// One imported scene: it reads back (or fails for the map's own content), with one source
// per shape and grid, as the scene built directly does (the same scene, or the same error),
// prints the same, and checks without throwing.
void check_import(const Input& in, const MapImport& m, MapImport&& built) {
    Scene scene;
    if (verbose())
        std::fprintf(stderr, "%s\nscene '%s': %zu shapes, %zu grids, %zu warnings\n%s\n", describe(in).c_str(),
                     m.name.c_str(), m.shape_sources.size(), m.grid_sources.size(), m.warnings.size(),
                     m.text.substr(0, 3000).c_str());
    const auto [direct, built_error] = read_built(in, std::move(built));
    try {
        scene = read_map_scene(m);
    } catch (const Error& e) {
        if (verbose()) std::fprintf(stderr, "read_map_scene: %s\n", e.what());
        if (built_error != e.what())
            fuzz::fail("scene '" + m.name + "': its text reads with the error\n" + e.what() + "\nbuilt: " +
                       (built_error.empty() ? std::string("no error") : built_error) + "\n" + describe(in));
        check_read_error(in, m, e);
        return;
    } catch (...) {
        unexpected(in, "read_map_scene");
    }
    if (!built_error.empty() || !same_scene(scene, direct))
        fuzz::fail("scene '" + m.name + "': the scene built differs from the one its text reads to" +
                   (built_error.empty() ? std::string() : ": " + built_error) + "\n" + describe(in));
    if (scene.shapes.size() != m.shape_sources.size() || scene.grids.size() != m.grid_sources.size())
        fuzz::fail("scene '" + m.name + "' has " + std::to_string(scene.shapes.size()) + " shapes and " +
                   std::to_string(scene.grids.size()) + " grids, its import " + std::to_string(m.shape_sources.size()) +
                   " shape sources and " + std::to_string(m.grid_sources.size()) + " grid sources\n" + describe(in));
    check_printed_grids(in, m, scene);
    if (scene.shapes.size() > kMaxShapes) return;
    try {
        (void)check(scene, CheckOptions{});
    } catch (const Error& e) {
        fuzz::fail("check() threw on an imported scene: " + std::string(e.what()) + "\n" + describe(in));
    } catch (...) {
        unexpected(in, "check");
    }
}

}  // namespace

}  // namespace fuzz_maps
