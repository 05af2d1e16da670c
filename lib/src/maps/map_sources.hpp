// Where a map's shapes and grids were written, for reports and CI findings (SPEC §3.1): the
// converters fill MapImport::sources; TMJ and LDtk ones get their lines and columns here, from
// their JSON pointers.
#pragma once

#include "collide/maps.hpp"

#include <string_view>

namespace collide::detail {

/// The line and column (in bytes) of every source of `map` not placed yet whose MapSource
/// has a JSON pointer (source_pointer, else json_path), found in `text` (the file the
/// pointers point into) in one reading of it.
void locate_sources(MapImport& map, std::string_view text);

}  // namespace collide::detail
