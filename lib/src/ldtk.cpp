// LDtk projects as scenes (ldtk.hpp): being written.
#include "ldtk.hpp"

namespace collide::detail {

std::vector<MapImport> import_ldtk(const std::string& file, std::string_view, const FileLoader&, std::string_view) {
    throw Error(file, "", "LDtk projects are not read yet");
}

}  // namespace collide::detail
