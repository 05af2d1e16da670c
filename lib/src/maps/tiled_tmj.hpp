// What the two halves of the TMJ reader share (tiled_tmj.cpp: the map, its tilesets, layers
// and tile data; tiled_tmj_objects.cpp: objects, templates and properties): the JSON files
// read (the map and the tilesets and templates it names), typed access to their values with
// errors located at a JSON pointer, and the reader's state.
//
// Line:column is found (detail::find_pointer, a scan of the text) only when an error is
// thrown: a map may hold 100,000 objects, and the model keeps just each one's JSON pointer.
#pragma once

#include "maps/tiled_model.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace collide::detail::tiled::tmj {

using Json = nlohmann::json;

/// One JSON file: the map, or an external tileset or template.
struct Doc {
    std::string file;
    std::string storage;    ///< the text of a loaded file (the map's text is the caller's)
    std::string_view text;  ///< without its UTF-8 byte order mark, if it had one
    Json root;
};

/// Parses `text` (a BOM skipped); a syntax error is Error(file, "", prefix + "not valid JSON:
/// ...") at its line:column.
void parse(Doc& doc, const std::string& prefix);

/// A value being read: its file, its JSON pointer, and what errors call it ("layer 'Ground'",
/// "object 'rock#17' in layer 'Collisions'"; empty for the map itself).
struct At {
    const Doc* doc;
    std::string ptr;
    std::string what;

    /// Throws Error at ptr + "/" + key (key empty: at ptr) saying "what: message".
    [[noreturn]] void fail(std::string_view key, const std::string& message) const;
    /// The same value's member `key` (or array index), named alike.
    At operator/(std::string_view key) const { return {doc, ptr + "/" + std::string(key), what}; }
};

/// Member `key` of the object `j`, or nullptr.
inline const Json* member(const Json& j, const char* key) {
    const auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

// Typed members: absent -> nullopt; present but of the wrong type or range -> at.fail.
std::optional<double> number(const At& at, const Json& j, const char* key);
/// A number >= 0 (`positive`: > 0).
std::optional<double> size(const At& at, const Json& j, const char* key, bool positive = false);
/// An integer (a number with no fraction) in [lo, hi].
std::optional<std::int64_t> integer(const At& at, const Json& j, const char* key, std::int64_t lo, std::int64_t hi);
std::optional<std::string> string(const At& at, const Json& j, const char* key);
std::optional<bool> boolean(const At& at, const Json& j, const char* key);
/// Fails "KEY is missing" when absent.
template <class T>
T required(const At& at, const char* key, std::optional<T> v) {
    if (!v) at.fail("", std::string(key) + " is missing");
    return *v;
}
/// The value itself must be an object: else "NOUN must be a JSON object".
void expect_object(const At& at, const Json& j, const char* noun);
/// Member `key` must be an array when present.
const Json* array(const At& at, const Json& j, const char* key);

inline constexpr std::int64_t kMaxU32 = 0xFFFFFFFF;
/// Tile coordinates of chunks and layer bounds: Tiled's int.
inline constexpr std::int64_t kMaxCoord = 0x7FFFFFFF;

using Tilesets = std::vector<std::shared_ptr<const Tileset>>;

class Reader {
public:
    explicit Reader(const FileLoader& load) : load_(load) {}
    Map read(const std::string& file, std::string_view text);

    // tiled_tmj.cpp
    /// The tilesets of a map or template, sorted by firstgid.
    Tilesets read_tilesets(const At& at, const Json& list);
    std::shared_ptr<const Tileset> read_tileset_ref(const At& at, const Json& j);
    /// A tileset file's tileset (firstgid 0); `what` starts its errors.
    Tileset tileset_file(const Doc& doc, const std::string& what);
    /// A template file's object, its gid resolved against the template's own tileset;
    /// `name` ("template 'x.tj'") starts its errors.
    Object template_object(const Doc& doc, const std::string& name);

    // tiled_tmj_objects.cpp
    /// An object of a layer, of a tile's collision shapes (sets == nullptr: no tile objects
    /// there) or of a template; its template, if it names one, applied.
    Object read_object(const At& at, const Json& j, const Tilesets* sets);
    /// Adds string properties to `out` (same name: replaced).
    static void read_properties(const At& at, const Json& j, Properties& out);

private:
    // tiled_tmj.cpp
    Tileset read_tileset_body(const At& at, const Json& j);
    std::vector<Layer> read_layers(const At& at, const Json& list, int depth);
    Layer read_layer(const At& at, const Json& j, int depth);
    void read_tile_data(const At& at, const Json& j, Layer& layer);
    /// Counts a layer's cells against the map's budget (kMaxMapCells for all layers together).
    void spend(const At& at, std::uint64_t cells);
    /// A file named at ref/key (a tileset source, a template), loaded and parsed once; `name`
    /// ("tileset 'x.tsj'") starts the messages of its errors.
    const Doc& load_doc(const At& ref, const std::string& key, const std::string& path, const std::string& name);

    // tiled_tmj_objects.cpp
    void apply_object(const At& at, const Json& j, const Tilesets* sets, Object& o);
    std::shared_ptr<const Object> read_template(const At& ref, const std::string& source);
    static TileRef resolve(const At& at, const Tilesets* sets, std::int64_t gid);

    const FileLoader& load_;
    std::uint64_t cells_ = 0;  // tile layer cells read so far
    Tilesets map_tilesets_;
    std::map<std::string, std::unique_ptr<Doc>> docs_;  // loaded files, by resolved path
    std::map<std::pair<std::string, std::uint32_t>, std::shared_ptr<const Tileset>> tilesets_;  // external, by firstgid
    std::map<std::string, std::shared_ptr<const Object>> templates_;  // the template's object, resolved
};

}  // namespace collide::detail::tiled::tmj
