// LDtk projects as scenes (ldtk.cpp, SPEC §1.5): one scene per level, named "FILE#LEVEL".
#pragma once

#include "collide/maps.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace collide::detail {

/// The scenes of an LDtk project, in project order; only the level whose identifier is
/// `level` when it is not empty (an error when there is none). Levels saved in their own
/// files (`externalLevels`) come through `load`, relative to the project. Throws Error.
std::vector<MapImport> import_ldtk(const std::string& file, std::string_view text, const FileLoader& load,
                                   std::string_view level, MapBuild build = MapBuild::Text);

}  // namespace collide::detail
