// Reading TMJ maps (tiled_model.hpp): being written.
#include "tiled_model.hpp"

namespace collide::detail::tiled {

Map read_tmj(const std::string& file, std::string_view, const FileLoader&) {
    throw Error(file, "", "TMJ maps are not read yet");
}

}  // namespace collide::detail::tiled
