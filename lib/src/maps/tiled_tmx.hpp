// What the two halves of the TMX reader share (tiled_tmx.cpp: the map, its tilesets and tile
// layers; tiled_tmx_objects.cpp: objects, templates and properties). Private to the reader.
#pragma once

#include "maps/tiled_model.hpp"

#include <pugixml.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace collide::detail::tiled::tmx {

/// One XML file being read: its name for errors and its text for line:column.
struct XmlFile {
    std::string path;
    std::string_view text;
    pugi::xml_document doc;
    mutable std::vector<std::size_t> line_starts;  // filled by where_of when first needed
};

/// Tilesets in the order gids are resolved against: by firstgid.
using Tilesets = std::vector<std::shared_ptr<const Tileset>>;

/// Where an element is: its file and the line:column of its '<'.
Where where_of(const XmlFile& f, pugi::xml_node n);

[[noreturn]] void fail(const Where& w, std::string message);

/// A value for a message: quoted as written, cut short when long.
std::string quoted(std::string_view value);

/// The attribute as a finite double, `fallback` when it is absent; an error names `what`.
double real_attr(const XmlFile& f, pugi::xml_node n, const char* name, double fallback, const std::string& what);

/// The attribute as an integer in [lo, hi], `fallback` when it is absent.
std::int64_t whole_attr(const XmlFile& f, pugi::xml_node n, const char* name, std::int64_t fallback, std::int64_t lo,
                        std::int64_t hi, const std::string& what);

/// A map's, tileset's or template's objects, tilesets and external files, read once each.
class Reader {
public:
    explicit Reader(const FileLoader& load) : load_(load) {}

    Map read_map(const std::string& file, std::string_view text);

    /// A `<tileset firstgid [source]>` of a map or template, external ones read through load.
    std::shared_ptr<const Tileset> tileset_ref(const XmlFile& f, pugi::xml_node ts);

    /// A `.tsx` file's tileset (firstgid 0).
    Tileset tileset_file(const std::string& path, std::string_view text);

    /// A `.tx` file's object, its gid resolved against the template's own tilesets.
    Object template_file(const std::string& resolved, std::string_view text, const std::string& source);

    /// An `<object>` (with its template, if any); `in` says where it is (" in layer 'L'").
    Object read_object(const XmlFile& f, pugi::xml_node n, const Tilesets& sets, const std::string& in);

private:
    Tileset read_tileset(const XmlFile& f, pugi::xml_node ts);
    std::vector<Layer> read_layers(const XmlFile& f, pugi::xml_node parent, const Tilesets& sets, bool infinite,
                                   int depth);
    void read_tiles(const XmlFile& f, pugi::xml_node n, Layer& layer, bool infinite);
    /// Counts a layer's cells against the map's budget (kMaxMapCells for all layers together).
    void spend(const XmlFile& f, pugi::xml_node n, std::uint64_t cells, const std::string& what);
    void apply_object(const XmlFile& f, pugi::xml_node n, Object& o, const Tilesets& sets, const std::string& in);
    const Object& template_object(const XmlFile& f, pugi::xml_node n, const std::string& source);
    /// The text of a file named in `f` at `n`; a loader error is rethrown naming `kind 'source'`.
    std::string load(const XmlFile& f, pugi::xml_node n, const char* kind, const std::string& source,
                     const std::string& resolved);

    const FileLoader& load_;
    std::map<std::string, Tileset> tileset_files_;  // external tilesets by resolved path
    std::map<std::pair<std::string, std::uint32_t>, std::shared_ptr<const Tileset>> tilesets_;
    std::map<std::string, Object> templates_;  // by resolved path
    std::uint64_t cells_ = 0;                  // tile layer cells read so far
    std::set<std::string> loading_;            // files being read: a loop among them is an error
};

/// Parses XML text; bad XML is an Error at its line:column in `path`.
void parse_xml(XmlFile& f);

/// Reads `<properties>` under `n` into `props`, replacing those of the same name.
void read_properties(pugi::xml_node n, Properties& props);

}  // namespace collide::detail::tiled::tmx
