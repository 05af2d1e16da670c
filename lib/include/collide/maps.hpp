// collide/maps.hpp — level-editor maps read as scenes (SPEC §1.5): Tiled maps (`.tmx` XML,
// `.tmj` JSON, and `.json` files whose top level says `"type": "map"`) and LDtk projects
// (`.ldtk`, one scene per level, named `FILE#LEVEL`).
//
// A map becomes a collide scene: for `collide import`, its text (the JSON that command prints);
// for a check, the scene itself, its shapes handed to the scene builder as the values that text
// would parse to (so nothing is written and parsed again), and its grids built as bits. Both
// come from one walk over the map, and the tests hold them equal: checking a map and checking
// the scene it imports to give the same report. Errors name the map file and, where it
// applies, the layer, object or tileset at fault, with line:column in the map (TMX) or its JSON
// pointer (TMJ, LDtk).
//
// Limits: only orthogonal Tiled maps (isometric, staggered and hexagonal ones are an error);
// a tile layer holds at most kMaxMapCells cells; image layers and text objects are skipped.
#pragma once

#include "collide/error.hpp"
#include "collide/scene.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace collide {

namespace detail {
struct BuiltScene;
}

/// The kinds of file read as maps; `None` is a collide scene.
enum class MapFormat : std::uint8_t { None, TiledXml, TiledJson, Ldtk, Godot };

/// What a file holds, from its name and its text: `.tmx`, `.tmj` and `.ldtk` files
/// (case-insensitive) are maps whatever they hold; other files are scenes (`None`), except
/// `.json` files and standard input (`-`), which their text tells apart (is_tiled_json).
/// `text` may be only the start of the file (`complete` false): then nothing when it ends
/// before the top level has said. The top level is read only that far, so a scene of any
/// size is told from its first key.
std::optional<MapFormat> detect_format(std::string_view file, std::string_view text, bool complete = true);

/// What a `.json` file is, from its top level (read only as far as it must): a scene (an
/// object with a key only scenes have, or none but `version`), a Tiled map (`"type": "map"`),
/// a Tiled tileset or template (`"type": "tileset"` or `"template"`: parts of maps, which
/// `collide check FOLDER` leaves out), or other JSON (neither: a folder's `.json` that
/// `collide check FOLDER` refuses unless excluded). `text` may be the start of the file only;
/// when it ends before the top level has said, the file counts as a scene (whose reader
/// then says what is wrong).
enum class JsonKind : std::uint8_t { Scene, TiledMap, TiledPart, Other };
JsonKind json_kind(std::string_view text);

/// The map format of a file from its name: `.tmx`, `.tmj`, `.ldtk` (case-insensitive). A
/// `.json` file is a Tiled map when is_tiled_json says so, which only the text tells: pass
/// it, or leave it empty to get `None` for every `.json` file.
MapFormat map_format(std::string_view file, std::string_view text = {});

/// Whether JSON text is a Tiled map: a top-level object in which `"type": "map"` comes before
/// any key only scenes have (format, settings, shapes, grids, moves, pairs, rules). False for
/// text that is not a JSON object.
bool is_tiled_json(std::string_view text);

/// The most cells one tile layer (or one LDtk IntGrid layer), and all tile layers of a Tiled
/// map together, may declare: a 16384 x 16384 layer (1 GiB of gids). More is an error before
/// any memory is taken for it.
inline constexpr std::uint64_t kMaxMapCells = std::uint64_t{1} << 28;

/// Returns the bytes of a file a map refers to (an external tileset, a template, an LDtk
/// level file), given its path as resolved against the map's folder; throws Error naming
/// the path when it cannot be read.
using FileLoader = std::function<std::string(const std::string& path)>;

/// The largest file a map may name (a tileset, a template, an LDtk level file): 256 MiB.
inline constexpr std::uint64_t kMaxMapFileBytes = std::uint64_t{256} << 20;

/// A FileLoader that reads from the file system: regular files only (a directory is "cannot
/// read: Is a directory", a device, FIFO or socket "cannot read: not a regular file", neither
/// opened for more than a look), at most kMaxMapFileBytes; a file whose first byte cannot start
/// XML or JSON is returned as its first 4 KiB, which its reader then rejects.
FileLoader file_system_loader();

/// Where a shape or grid of an imported scene came from in the map, for error messages.
struct MapSource {
    std::string what;       ///< e.g. "object 'rock#17' in layer 'Collisions'"
    std::string json_path;  ///< TMJ and LDtk: the JSON pointer in the map; empty for TMX
    int line = 0;           ///< 1-based line:column in the map file, 0 when unknown
    int column = 0;
    /// A compound made of a tile's collision shapes: its tile in MapImport::tiles, where its
    /// parts are written; kNoTile for other shapes.
    std::uint32_t tile = kNoTile;
    static constexpr std::uint32_t kNoTile = 0xFFFFFFFFu;
    /// TMJ and LDtk: where the source (MapImport::sources) is when not at json_path: a tile's
    /// compound is at its layer's "data", where errors name the layer.
    std::string source_pointer;
};

/// Where a collision shape of a tile is written: its tileset's file (`.tsx`, `.tsj`, or the
/// map for a tileset inside it), and line:column or JSON pointer there.
struct TileShapeSource {
    std::string file;
    std::string json_path;
    int line = 0;
    int column = 0;
    std::size_t index = 0;  ///< the shape's index among the tile's collision objects
};

/// A tile whose collision shapes became compounds, shared by every placement of it: an error
/// in a part is the tileset's, at the shape ("tile 1 of tileset 'tiles', collision shape 0").
struct TileSource {
    std::string what;                   ///< "tile 1 of tileset 'tiles'"
    std::vector<TileShapeSource> parts;  ///< one per part of its compounds, in order
};

/// What import_map makes of a map: the scene's text (scene_text()), the scene itself (for a
/// check, read_map_scene()), or both from one walk over the map (for `collide import`: the
/// scene built checks the text without the text being read back).
enum class MapBuild : std::uint8_t { Text, Scene, TextAndScene };

/// One scene a map becomes.
struct MapImport {
    std::string name;  ///< the scene's name: the map's file, or "FILE#LEVEL" for LDtk
    /// MapBuild::Text and TextAndScene: the collide scene (JSON) without its grids
    /// (`"grids": []`); scene_text() has them too. Empty with MapBuild::Scene.
    std::string text;
    /// MapBuild::Scene and TextAndScene: the scene's shapes as built, which read_map_scene()
    /// finishes (without reading `text`).
    std::shared_ptr<detail::BuiltScene> built;
    /// The grids (tile layers, IntGrid layers), built as they are: a big layer never becomes
    /// text unless it is imported.
    std::vector<Grid> grids;
    std::vector<std::string> warnings;  ///< what was skipped and why, one line each
    std::vector<MapSource> warning_sources;  ///< where each warning is about (its place in sources.warnings)
    /// The grids whose layer has `collide_ignore` (Ignore::object: the grid's index); the
    /// shapes' ignores are in their scene values ("ignore").
    std::vector<Ignore> grid_ignores;
    std::vector<MapSource> shape_sources;  ///< where each shape of the scene came from, in order
    std::vector<MapSource> grid_sources;   ///< where each grid came from, in order
    std::vector<TileSource> tiles;         ///< the tiles MapSource::tile indexes
    /// Where each shape and grid is for reports and CI findings (SPEC §3.1): the file (the
    /// map's, or an LDtk level's own), line and column in bytes, layer, Tiled object id or
    /// LDtk iid, a tile compound's cell. TMJ and LDtk lines are found from the MapSources'
    /// JSON pointers once the map is converted; TMX knows them as it reads.
    SceneSources sources;
};

/// Converts a map to scenes, as texts or built (`build`): one for a Tiled map, one per level
/// of an LDtk project in project order (only the level named `level`, when it is not empty).
/// `file` names the map in errors and is the folder external files are resolved against.
/// Throws Error.
std::vector<MapImport> import_map(const std::string& file, std::string_view text, MapFormat format,
                                  const FileLoader& load, std::string_view level = {},
                                  MapBuild build = MapBuild::Text);

/// The scene a map becomes as `collide import` prints it: `text` with the grids written in
/// (each as rows of '#' and '.').
std::string scene_text(const MapImport& map);
/// The same, written to `out` a piece at a time (a big layer's rows are never held whole).
void write_scene_text(const MapImport& map, std::ostream& out);

/// The scene of an imported map (read_scene of its text, or the scene built), with its grids;
/// an error about one of its shapes or grids is reported against the map, naming the object
/// or layer (MapSource) rather than the scene.
Scene read_map_scene(const MapImport& map, const ReadOptions& options = {});
/// The same, taking the map's grids and sources rather than copying them (a big tile layer's
/// bits, a source for each of 100,000s of objects).
Scene read_map_scene(MapImport&& map, const ReadOptions& options = {});

}  // namespace collide
