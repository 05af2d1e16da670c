// Fuzz target: the level-editor map readers (collide/maps.hpp) on arbitrary bytes.
//
// Input: the first byte picks the format (its value mod 3: TMX, TMJ, LDtk); the rest is the
// map, optionally followed by up to kMaxFiles more files, each introduced by a line
// "%%file NAME" (NAME as a map refers to it: "t.tsx", "o.tx", "t.tsj", "o.tj", "l.ldtkl", ...).
// The map is read as "m.tmx", "m.tmj" or "m.ldtk" (no folder, so a path in the map is the
// name the loader is asked for); an in-memory FileLoader serves the extra files and throws
// collide::Error, as file_system_loader() does, for any other name.
//
// What must hold:
// - import_map, read_map_scene and check throw nothing but collide::Error (anything else, a
//   crash, a hang or a sanitizer report is a finding);
// - importing as text (`collide import`) and built (a check, MapBuild::Scene) gives the same
//   scenes: names, warnings and sources byte for byte, the same error if either fails, and
//   read_map_scene of the two the same scene field for field, or the same error;
// - every imported scene reads back: read_map_scene does not throw, except for the errors a
//   valid converter cannot avoid because the map's own content is invalid (the allow-list
//   in content_error() below, each entry with its reason). Those errors must be reported
//   against the map object or layer at fault (MapSource.what), never against the generated
//   text; any other read error is a converter bug;
// - one MapSource per shape and per grid of the scene read (shape_sources, grid_sources);
// - check() with default options (threads = 1) does not throw on a scene read_map_scene gave.
//
// Budget, not library limits (kMaxMapCells is 2^28 cells, a 1 GiB layer): an input whose
// width-like and height-like numbers multiply to more than kMaxCells (a cheap scan of the
// text, all files) is skipped, as is a Tiled map whose tile layers span more than kMaxCells
// (chunks far apart), found by reading the map model first. Scenes of more than kMaxShapes
// shapes are imported and read but not checked.
#include "fuzz_map_checks.hpp"

#include "maps/tiled_model.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace collide;
using namespace fuzz_maps;

namespace {

constexpr std::size_t kMaxFiles = 3;
constexpr double kMaxCells = double(1 << 20);

Input split(const std::uint8_t* data, std::size_t size) {
    Input in;
    static constexpr MapFormat kFormats[] = {MapFormat::TiledXml, MapFormat::TiledJson, MapFormat::Ldtk};
    static const char* const kNames[] = {"m.tmx", "m.tmj", "m.ldtk"};
    const unsigned pick = size == 0 ? 0 : data[0] % 3u;
    in.format = kFormats[pick];
    in.file = kNames[pick];
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    if (!rest.empty()) rest.remove_prefix(1);
    split_files(rest, kMaxFiles, in);
    return in;
}

// ---- budget -------------------------------------------------------------------------------

bool ends_with(const std::string& s, std::string_view tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The largest number given to a width-like and to a height-like key or attribute (width,
// tilewidth, __cWid, pxWid, ...; XML `name="N"` and JSON `"name": N` alike), over the text.
void widest(std::string_view text, double& w, double& h) {
    std::size_t i = 0;
    while (i < text.size()) {
        if (!(std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_')) {
            ++i;
            continue;
        }
        std::string key;
        while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
            key += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i++])));
        std::size_t j = i;
        if (j < text.size() && text[j] == '"') ++j;
        while (j < text.size() && std::isspace(static_cast<unsigned char>(text[j]))) ++j;
        if (j >= text.size() || (text[j] != '=' && text[j] != ':')) continue;
        ++j;
        while (j < text.size() && std::isspace(static_cast<unsigned char>(text[j]))) ++j;
        if (j < text.size() && (text[j] == '"' || text[j] == '\'')) ++j;
        const std::string number(text.substr(j, 40));
        char* end = nullptr;
        const double v = std::fabs(std::strtod(number.c_str(), &end));
        if (end == number.c_str()) continue;
        const bool wide = ends_with(key, "width") || ends_with(key, "wid");
        const bool high = ends_with(key, "height") || ends_with(key, "hei");
        if (wide && !(v <= w)) w = v;  // NaN too
        if (high && !(v <= h)) h = v;
    }
}

bool too_big_text(const Input& in) {
    double w = 1, h = 1;
    widest(in.map, w, h);
    for (const auto& f : in.files) widest(f.second, w, h);
    return !(w * h <= kMaxCells);
}

// The cells a Tiled tile layer's grid spans (its chunks' bounding box), over every layer.
bool too_big_layers(const std::vector<detail::tiled::Layer>& layers) {
    for (const detail::tiled::Layer& l : layers) {
        if (too_big_layers(l.layers)) return true;
        if (l.blocks.empty()) continue;
        std::int64_t x0 = l.blocks[0].x, y0 = l.blocks[0].y, x1 = x0, y1 = y0;
        for (const detail::tiled::TileBlock& b : l.blocks) {
            x0 = std::min(x0, b.x);
            y0 = std::min(y0, b.y);
            x1 = std::max<std::int64_t>(x1, b.x + b.width);
            y1 = std::max<std::int64_t>(y1, b.y + b.height);
        }
        if (static_cast<double>(x1 - x0) * static_cast<double>(y1 - y0) > kMaxCells) return true;
    }
    return false;
}

// Whether the map's model is too big to import within the budget (TMX and TMJ: the cells of
// its tile layers; a model that does not read is not).
bool too_big_model(const Input& in, const FileLoader& load) {
    if (in.format == MapFormat::Ldtk) return false;
    detail::tiled::Map model;
    try {
        model = in.format == MapFormat::TiledXml ? detail::tiled::read_tmx(in.file, in.map, load)
                                                 : detail::tiled::read_tmj(in.file, in.map, load);
    } catch (const Error&) {
    } catch (...) {
        unexpected(in, "reading the map model");
    }
    return too_big_layers(model.layers);
}


}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const Input in = split(data, size);
    if (too_big_text(in)) return 0;
    const FileLoader load = [&](const std::string& path) -> std::string {
        const auto f = in.files.find(path);
        if (f == in.files.end()) throw Error(path, "", "cannot open: No such file or directory");
        return f->second;
    };
    if (too_big_model(in, load)) return 0;
    auto imports = import_twice(in, load);
    if (!imports) return 0;
    for (std::size_t k = 0; k < imports->first.size(); ++k) check_import(in, imports->first[k], std::move(imports->second[k]));
    return 0;
}
