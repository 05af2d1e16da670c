// A folder on the command line (SPEC §3: "a FILE that is a directory stands for every map and
// scene file under it, in sorted order").
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

/// `args` with each folder replaced by the maps and scenes under it: `.tmx`, `.tmj`, `.ldtk`, `.tscn`
/// and `.json` files (by extension, any case), in byte order of their paths, hidden files and
/// folders skipped, symbolic links to folders not followed. A `.json` file that is neither a
/// scene nor a Tiled map is an error naming it; Tiled tilesets and templates and `collide.json`
/// are left out, as is every file an `excludes` glob matches: a glob without '/' against the
/// file's name and each folder's under the one given, one with '/' against the path under it
/// or the path as listed (`*` there crosses folders); and the files of `own` (the rules file,
/// the baseline, the project file the run names). Other arguments stay as they are.
/// Throws collide::Error (exit 2): a folder with no map or scene, a `.json` file of neither.
std::vector<std::string> expand_inputs(const std::vector<std::string>& args, const std::vector<std::string>& excludes,
                                       const std::vector<std::string>& own = {});

/// `--exclude GLOB` (repeatable) on `sub`, filling `globs`.
CLI::Option* add_exclude_option(CLI::App& sub, std::vector<std::string>& globs);
