#include "inputs.hpp"

#include <collide/error.hpp>
#include <collide/maps.hpp>

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

// The first bytes of a `.json` file: enough for json_kind to see the top level's keys.
constexpr std::size_t kHead = 64 * 1024;

bool input_extension(const std::string& name) {
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const char* ext : {".tmx", ".tmj", ".ldtk", ".tscn", ".json"}) {
        const std::size_t n = std::char_traits<char>::length(ext);
        if (lower.size() > n && lower.compare(lower.size() - n, n, ext) == 0) return true;
    }
    return false;
}

bool is_json(const std::string& name) {
    return name.size() > 5 && std::equal(name.end() - 5, name.end(), ".json", [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == b;
           });
}

// Whether `rel` (a path under the folder given, '/'-separated) or `listed` (the path as
// listed) is excluded by one of `excludes`.
bool excluded(const std::string& rel, const std::string& listed, const std::vector<std::string>& excludes) {
    for (const std::string& glob : excludes) {
        if (glob.find('/') != std::string::npos) {
            if (fnmatch(glob.c_str(), rel.c_str(), 0) == 0 || fnmatch(glob.c_str(), listed.c_str(), 0) == 0) return true;
            continue;
        }
        for (std::size_t from = 0; from <= rel.size();) {
            std::size_t to = rel.find('/', from);
            if (to == std::string::npos) to = rel.size();
            if (fnmatch(glob.c_str(), rel.substr(from, to - from).c_str(), 0) == 0) return true;
            from = to + 1;
        }
    }
    return false;
}

collide::JsonKind kind_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string head(kHead, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return collide::json_kind(head);
}

// The maps and scenes under `dir` (as given on the command line), sorted.
std::vector<std::string> walk(const std::string& dir, const std::vector<std::string>& excludes,
                              const std::vector<std::string>& own) {
    const std::string prefix = dir.back() == '/' ? dir : dir + "/";
    std::vector<std::pair<std::string, std::string>> found;  // (listed, rel)
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    if (ec) throw collide::Error(dir, "", "cannot read the folder: " + ec.message());
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) throw collide::Error(dir, "", "cannot read the folder: " + ec.message());
        const std::string name = it->path().filename().string();
        std::error_code type_ec;
        if (it->is_directory(type_ec) && !it->is_symlink(type_ec)) {
            if (name[0] == '.') it.disable_recursion_pending();
            continue;
        }
        if (name[0] == '.' || !input_extension(name) || !it->is_regular_file(type_ec)) continue;
        const std::string rel = fs::relative(it->path(), dir, type_ec).generic_string();
        found.emplace_back(prefix + rel, rel);
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> out;
    for (const auto& [listed, rel] : found) {
        if (excluded(rel, listed, excludes)) continue;
        if (std::any_of(own.begin(), own.end(), [&](const std::string& f) {
                std::error_code same_ec;
                return !f.empty() && fs::equivalent(f, listed, same_ec);
            }))
            continue;
        if (is_json(listed)) {
            if (fs::path(rel).filename() == "collide.json") continue;  // the project file
            const collide::JsonKind kind = kind_of(listed);
            if (kind == collide::JsonKind::TiledPart) continue;
            if (kind == collide::JsonKind::Other)
                throw collide::Error(listed, "", "neither a scene nor a Tiled map (found in " + dir +
                                                     "; --exclude GLOB leaves files out)");
        }
        out.push_back(listed);
    }
    if (out.empty()) throw collide::Error(dir, "", "no map or scene file in this folder (.tmx, .tmj, .ldtk, .tscn, .json)");
    return out;
}

}  // namespace

std::vector<std::string> expand_inputs(const std::vector<std::string>& args, const std::vector<std::string>& excludes,
                                       const std::vector<std::string>& own) {
    std::vector<std::string> out;
    for (const std::string& a : args) {
        std::error_code ec;
        if (a != "-" && !a.empty() && fs::is_directory(a, ec)) {
            const std::vector<std::string> files = walk(a, excludes, own);
            out.insert(out.end(), files.begin(), files.end());
        } else {
            out.push_back(a);
        }
    }
    return out;
}

CLI::Option* add_exclude_option(CLI::App& sub, std::vector<std::string>& globs) {
    return sub.add_option("--exclude", globs,
                          "Leave out files a folder holds that GLOB matches (by name, or by path with a '/'); repeatable")
        ->type_name("GLOB")
        ->allow_extra_args(false);
}
