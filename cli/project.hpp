// The project file of a bare `collide check` (SPEC §3.1 "Configuration"): found in the current
// folder or the nearest parent (stopping at a folder that holds .git, or at the root), or named
// by --config; its inputs expanded from their globs, its options applied where the command line
// gave none.
#pragma once

#include "check_args.hpp"

/// Applies the project file to `args`; false after a usage error, which has been logged.
/// Throws collide::Error for a project file that cannot be read or is not valid.
bool apply_project(CheckArgs& args);

/// The files a glob names under `dir` (as written, relative to the current folder): `*`, `?`
/// and `[...]` within a name, `**` for any number of folders; hidden names only when the
/// pattern's part starts with '.'. Sorted.
std::vector<std::string> expand_glob(const std::string& dir, const std::string& pattern);
