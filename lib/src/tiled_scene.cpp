// A Tiled map as a scene (tiled_model.hpp): being written.
#include "tiled_model.hpp"

namespace collide::detail::tiled {

MapImport tiled_scene(const Map&, const std::string& file) { throw Error(file, "", "Tiled maps are not converted yet"); }

}  // namespace collide::detail::tiled
