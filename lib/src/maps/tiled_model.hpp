// Folder maps/: level-editor maps as scenes (SPEC §1.5), the public collide/maps.hpp. Which
// reader a file goes to and the files a map names (maps.cpp); Tiled's two formats read into
// one model (this header; tiled_tmx*, tiled_tmj*), its tile data decoded (layer_data) and
// its chunks grouped (tile_chunks); the model converted (tiled_scene, tiled_geometry) and
// LDtk levels (ldtk.cpp), both writing through SceneOut (built_scene.hpp): text for
// `collide import`, or the scene handed to scene/'s builder for a check. It includes scene/,
// geometry/, numeric/, support/ and the public headers; nothing in lib/src above it uses it
// (check/ takes scenes, whatever made them): the CLI and the library's users call it.
//
// A Tiled map as read from either of its file formats (TMX by tiled_tmx.cpp, TMJ by
// tiled_tmj.cpp), before it becomes a scene (tiled_scene.cpp). The readers resolve what is
// about files — external tilesets, templates, the encodings and compressions of tile data —
// so that the conversion sees one plain map whatever the format.
//
// Conventions: pixels, y down, as Tiled stores them. Object coordinates are as written (not
// yet moved by layer offsets). A gid keeps its flip flags (kFlip*).
#pragma once

#include "collide/geometry.hpp"
#include "collide/maps.hpp"
#include "maps/layer_data.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace collide::detail::tiled {

using detail::Gids;

/// The flip flags in the high bits of a gid (Tiled "Tile Flipping"); the rest is the gid.
inline constexpr std::uint32_t kFlipH = 0x80000000u;
inline constexpr std::uint32_t kFlipV = 0x40000000u;
inline constexpr std::uint32_t kFlipD = 0x20000000u;     ///< anti-diagonal: x and y swapped
inline constexpr std::uint32_t kRotateHex = 0x10000000u;  ///< hexagonal maps only; ignored
inline constexpr std::uint32_t kGidMask = 0x0FFFFFFFu;

/// Where something is in its file, for errors: line:column (TMX) or a JSON pointer (TMJ).
struct Where {
    std::string file;  ///< the file it was read from (a tileset or a template); empty: the map itself
    std::string json_path;
    int line = 0;
    int column = 0;          ///< in characters, as errors count them
    int byte_column = 0;     ///< in bytes, as sources count them (SPEC §3.1); 0 when unknown
};

/// Custom properties; only string values matter to collide (`collide_groups`).
using Properties = std::vector<std::pair<std::string, std::string>>;

struct Tileset;

/// The tile a gid names, resolved by the reader (objects, and templates whose gids are
/// relative to the template's own tilesets).
struct TileRef {
    std::shared_ptr<const Tileset> tileset;  ///< null when the gid is below every firstgid
    std::uint32_t id = 0;     ///< the tile's local id in its tileset (the gid when no tileset)
    std::uint32_t flips = 0;  ///< kFlipH | kFlipV | kFlipD bits of the gid
    std::uint32_t gid = 0;    ///< the gid without its flip flags, for messages
    bool defined = true;      ///< false: the gid names no tile its tileset defines
};

enum class ObjectKind : std::uint8_t { Rect, Ellipse, Point, Polygon, Polyline, Capsule, Text, Tile };

/// An object of an object layer, of a tile's collision shapes, or of a template (already
/// merged with its template: the instance's attributes override the template's).
struct Object {
    std::uint32_t id = 0;  ///< Tiled's object id; 0 inside a tile's collision shapes
    std::string name;
    std::string cls;       ///< the class (`type` in TMX/TMJ, `class` in Tiled 1.9)
    ObjectKind kind = ObjectKind::Rect;
    double x = 0, y = 0, width = 0, height = 0;
    double rotation = 0;       ///< degrees, clockwise with y down, about (x, y)
    std::vector<Vec2> points;  ///< polygon, polyline: relative to (x, y)
    TileRef tile;              ///< kind Tile
    Properties properties;
    Where where;
};

/// Where a tile object's (x, y) lies on its tile (`objectalignment`).
enum class Alignment : std::uint8_t {
    Unspecified, TopLeft, Top, TopRight, Left, Center, Right, BottomLeft, Bottom, BottomRight
};

/// The alignment Tiled writes as `name` ("topleft", ...), or nothing for another word.
std::optional<Alignment> alignment_named(std::string_view name);

/// A tile that has something collide needs: a class, collision shapes or its own size.
struct Tile {
    std::uint32_t id = 0;
    std::string cls;
    double width = 0, height = 0;  ///< image-collection tiles: the image size; else 0
    std::vector<Object> shapes;    ///< the tile's collision shapes, in tile pixels
    Properties properties;         ///< its string properties (`collide_ignore`)
};

/// The rules a `collide_ignore` string property names (comma-separated, or "*"), SPEC §3.1.
std::vector<std::string> ignored_rules(const Properties& props);

struct Tileset {
    std::string name;
    std::uint32_t firstgid = 0;  ///< in the map (or template) that refers to it
    std::uint32_t tilecount = 0;
    bool image_collection = false;  ///< one image per tile (`columns` 0): only listed tiles exist
    double tilewidth = 0, tileheight = 0;
    Vec2 tileoffset;
    Alignment alignment = Alignment::Unspecified;
    std::vector<Tile> tiles;  ///< sorted by id
    Where where;              ///< the `<tileset>` in the map, or the external file
};

/// A rectangular block of a tile layer: the whole layer of a finite map, or a chunk.
struct TileBlock {
    std::int64_t x = 0, y = 0;       ///< in tiles
    std::uint32_t width = 0, height = 0;
    Gids gids;  ///< row-major, width * height, flip flags kept
};

struct Layer {
    enum class Kind : std::uint8_t { Tiles, Objects, Group, Image };
    Kind kind = Kind::Tiles;
    std::uint32_t id = 0;
    std::string name;
    std::string cls;
    Vec2 offset;  ///< offsetx, offsety (its own; groups' add up)
    Properties properties;
    std::vector<TileBlock> blocks;  ///< Tiles: one block, or the chunks of an infinite map
    std::vector<Object> objects;    ///< Objects
    std::vector<Layer> layers;      ///< Group
    Where where;
    Where data_where;  ///< Tiles: the `<data>` element (TMX), the layer's "data" or "chunks" (TMJ)
};

struct Map {
    std::string orientation;  ///< "orthogonal" is the only one collide reads
    double tilewidth = 0, tileheight = 0;
    bool infinite = false;
    std::vector<std::shared_ptr<const Tileset>> tilesets;  ///< sorted by firstgid
    std::vector<Layer> layers;
    Where where;
};

/// Reads a TMX map (XML, with pugixml). External tilesets (`.tsx`) and templates (`.tx`)
/// come through `load`, their paths resolved against the folder of the file naming them.
/// Throws Error naming the file, line:column and the layer, object or tileset at fault.
Map read_tmx(const std::string& file, std::string_view text, const FileLoader& load);

/// Reads a TMJ map (Tiled's JSON; also `.json`), external `.tsj`/`.json` tilesets and
/// `.tj`/`.json` templates likewise. Errors carry the JSON pointer and line:column.
Map read_tmj(const std::string& file, std::string_view text, const FileLoader& load);

/// An external tileset file on its own, for a map of the other format naming it (a TMJ map
/// with a `.tsx` tileset is common): `.tsx` (XML) and `.tsj`/`.json` (JSON). firstgid is 0.
Tileset read_tsx_tileset(const std::string& file, std::string_view text, const FileLoader& load);
Tileset read_tsj_tileset(const std::string& file, std::string_view text, const FileLoader& load);

/// Whether `set` defines its tile `id`: an image collection the tiles it lists (it may number
/// them past tilecount once some were removed); a tileset of one image the ids below its
/// tilecount (any, when it declares none) and those it lists.
bool defines(const Tileset& set, std::uint32_t id);

/// The tile a gid (flip flags kept) names among `sets` (sorted by firstgid): in the tileset
/// with the greatest firstgid <= gid (Tiled's "Mapping a GID to a local tile ID"). A gid that
/// names no tile its tileset defines is a TileRef with `defined` false, not an error: Tiled
/// opens such maps (SPEC §1.5).
TileRef tile_of(const std::vector<std::shared_ptr<const Tileset>>& sets, std::uint32_t gid);

/// Whether a tileset file is JSON (`.tsj`, `.json`) rather than XML, by its name.
bool json_tileset(std::string_view file);

/// A template file on its own, for a map of either format: `.tx` (XML) and `.tj`/`.json`
/// (JSON). Its object's gid is resolved against the template's own tilesets.
Object read_tx_template(const std::string& file, std::string_view text, const FileLoader& load);
Object read_tj_template(const std::string& file, std::string_view text, const FileLoader& load);

/// Whether a template file is JSON by its name: `.tj` and `.json` are, `.tx` is not; any
/// other name is in the format of the map naming it (`map_json`).
bool json_template(std::string_view file, bool map_json);

/// The scene a map becomes (SPEC §1.5). Throws Error naming the object or layer at fault.
MapImport tiled_scene(const Map& map, const std::string& file, MapBuild build = MapBuild::Text);

/// A path named inside `from` (a map, tileset or template file), resolved against its folder.
std::string resolve_path(const std::string& from, const std::string& path);

}  // namespace collide::detail::tiled
