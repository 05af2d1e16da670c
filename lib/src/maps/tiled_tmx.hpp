// What the two halves of the TMX reader share (tiled_tmx.cpp: the map, its tilesets and tile
// layers; tiled_tmx_objects.cpp: objects, templates and properties). Private to the reader.
#pragma once

#include "maps/tiled_model.hpp"
#include "support/json_locate.hpp"
#include "support/lane.hpp"

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
    XmlFile(std::string path_, std::string_view text_) : path(std::move(path_)), text(text_), lines(text_) {}
    std::string path;
    std::string_view text;
    pugi::xml_document doc;
    mutable LineCounter lines;  // where_of's: elements are asked about mostly in document order
};

/// Tilesets in the order gids are resolved against: by firstgid.
using Tilesets = std::vector<std::shared_ptr<const Tileset>>;

/// Where an element is: its file and the line:column of its '<'.
Where where_of(const XmlFile& f, pugi::xml_node n);

[[noreturn]] void fail(const Where& w, std::string message);

/// A value for a message: quoted as written, cut short when long.
std::string quoted(std::string_view value);

/// What an error names ("layer 'L'", "object 'coin#3' in layer 'L'"), put into words only
/// when an error is thrown: a map reads 100,000 objects that have none.
class What {
public:
    What(const std::string& text) : text_(text) {}  // NOLINT: a plain text is a What
    What(const char* text) : text_(text) {}         // NOLINT
    /// The object as it stands when the error is thrown, and where it is (" in layer 'L'").
    What(const Object& o, const std::string& in) : object_(&o), text_(in) {}
    std::string str() const;

private:
    const Object* object_ = nullptr;
    std::string_view text_;
};

/// The attribute as a finite double, `fallback` when it is absent; an error names `what`.
double real_attr(const XmlFile& f, pugi::xml_node n, const char* name, double fallback, const What& what);
/// The same for an attribute `a` of `n` found already (null: absent).
double real_value(const XmlFile& f, pugi::xml_node n, pugi::xml_attribute a, double fallback, const What& what);

/// The attribute as an integer in [lo, hi], `fallback` when it is absent.
std::int64_t whole_attr(const XmlFile& f, pugi::xml_node n, const char* name, std::int64_t fallback, std::int64_t lo,
                        std::int64_t hi, const What& what);
std::int64_t whole_value(const XmlFile& f, pugi::xml_node n, pugi::xml_attribute a, std::int64_t fallback,
                         std::int64_t lo, std::int64_t hi, const What& what);

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
    Map read_parsed_map(const XmlFile& f);
    Tileset read_tileset(const XmlFile& f, pugi::xml_node ts);
    std::vector<Layer> read_layers(const XmlFile& f, pugi::xml_node parent, const Tilesets& sets, bool infinite,
                                   int depth);
    void read_tiles(const XmlFile& f, pugi::xml_node n, Layer& layer, bool infinite);
    /// The gids of a block (`n` is the `<data>` or a `<chunk>`, its size already checked) into
    /// `out`: at once, or on the lane when there is one (finish_decoding hands them over).
    void decode_block(const XmlFile& f, pugi::xml_node data, pugi::xml_node n, std::uint64_t count,
                      const std::string& what, Gids& out);
    /// Waits for the blocks on the lane and throws the first one's error, in document order;
    /// else, when `deliver`, hands each its gids (the layers are alive only on success).
    void finish_decoding(bool deliver);
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
    // Encoded tile data decoding on a lane of its own while the map's objects are read.
    struct Pending {
        std::string_view text, encoding, compression;  // in the map's XML, alive until read_map ends
        std::uint64_t count = 0;
        Gids* out = nullptr;  // the block's: a Layer moved keeps its blocks where they are
        Gids gids;            // decoded here, handed to *out by finish_decoding
        Where where;          // of `n`, for an error
        std::string what;
        bool failed = false;
        std::string error;  // the DataError's message
    };
    Lane* lane_ = nullptr;  // read_map's, while it reads
    const XmlFile* map_file_ = nullptr;  // the map's own file, while read_map reads it
    std::vector<std::unique_ptr<Pending>> pending_;
};

/// Parses XML text; bad XML is an Error at its line:column in `path`.
void parse_xml(XmlFile& f);

/// Reads `<properties>` under `n` into `props`, replacing those of the same name.
void read_properties(pugi::xml_node n, Properties& props);

}  // namespace collide::detail::tiled::tmx
