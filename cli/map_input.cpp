#include "map_input.hpp"

#include <sys/stat.h>

MapArgument map_argument(const std::string& arg) {
    MapArgument m{arg, "", collide::map_format(arg)};
    if (m.format != collide::MapFormat::None) return m;
    // "project.ldtk#Level_2", unless a file of that very name exists.
    const std::size_t hash = arg.rfind('#');
    struct stat st {};
    if (hash == std::string::npos || stat(arg.c_str(), &st) == 0) return m;
    const std::string file = arg.substr(0, hash);
    if (collide::map_format(file) != collide::MapFormat::Ldtk) return m;
    return MapArgument{file, arg.substr(hash + 1), collide::MapFormat::Ldtk};
}

std::vector<collide::MapImport> import_map_argument(const MapArgument& map, collide::MapBuild build) {
    const collide::FileLoader load = collide::file_system_loader();
    const std::string text = load(map.file);
    return collide::import_map(map.file, text, map.format, load, map.level, build);
}

std::vector<collide::MapImport> import_if_tiled_json(const std::string& file, std::string_view text, collide::MapBuild build) {
    if (collide::detect_format(file, text) != collide::MapFormat::TiledJson) return {};
    return collide::import_map(file, text, collide::MapFormat::TiledJson, collide::file_system_loader(), {}, build);
}
