// Level-editor maps on the command line: which arguments are maps (by extension, `.json`
// Tiled maps by content, `FILE.ldtk#LEVEL` for one level of a project) and the scenes they
// import to (collide/maps.hpp).
#pragma once

#include <collide/maps.hpp>

#include <string>
#include <string_view>
#include <vector>

/// A map argument split into its file and, for `FILE.ldtk#LEVEL`, the level.
struct MapArgument {
    std::string file;
    std::string level;
    collide::MapFormat format = collide::MapFormat::None;
};

/// The map an argument names by its extension; format None for everything else (scenes, and
/// `.json` files, which only their text tells apart).
MapArgument map_argument(const std::string& arg);

/// The scenes a map argument imports to (one, or one per level of an LDtk project), as text
/// (`collide import`) or built (a check). Throws collide::Error.
std::vector<collide::MapImport> import_map_argument(const MapArgument& map, collide::MapBuild build);

/// The scenes of a `.json` file or standard input whose whole `text` is a Tiled map
/// (collide::detect_format); nothing when it is not one.
std::vector<collide::MapImport> import_if_tiled_json(const std::string& file, std::string_view text, collide::MapBuild build);

