// collide.json (project.hpp).
#include "project.hpp"

#include "io.hpp"
#include "log.hpp"

#include <collide/scene.hpp>

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace {

std::string joined(const std::string& dir, const std::string& rel) { return dir == "." ? rel : dir + "/" + rel; }

// The nearest collide.json from the current folder up, as a relative path; empty when none.
std::string discover() {
    std::string dir = ".";
    for (int depth = 0; depth < 256; ++depth) {
        std::error_code ec;
        if (fs::is_regular_file(joined(dir, "collide.json"), ec)) return joined(dir, "collide.json");
        if (fs::exists(joined(dir, ".git"), ec)) return {};
        const fs::path here = fs::weakly_canonical(dir, ec);
        if (ec || here == here.root_path()) return {};
        dir = dir == "." ? ".." : dir + "/..";
    }
    return {};
}

void walk(const std::string& dir, const std::vector<std::string>& parts, std::size_t i, const std::string& rel,
          std::vector<std::string>& out) {
    std::error_code ec;
    const std::string here = rel.empty() ? dir : joined(dir, rel);
    if (i == parts.size()) {
        if (!rel.empty() && fs::is_regular_file(here, ec)) out.push_back(here);
        return;
    }
    const std::string& part = parts[i];
    const auto below = [&](const std::string& name) { return rel.empty() ? name : rel + "/" + name; };
    if (part == "**") {
        walk(dir, parts, i + 1, rel, out);
        std::vector<std::string> subdirs;
        for (const auto& e : fs::directory_iterator(here, ec))
            if (e.is_directory(ec) && e.path().filename().string()[0] != '.') subdirs.push_back(e.path().filename().string());
        std::sort(subdirs.begin(), subdirs.end());
        for (const std::string& d : subdirs) walk(dir, parts, i, below(d), out);
        return;
    }
    if (part.find_first_of("*?[") == std::string::npos) {
        walk(dir, parts, i + 1, below(part), out);
        return;
    }
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(here, ec)) {
        const std::string name = e.path().filename().string();
        if (name[0] == '.' && part[0] != '.') continue;
        if (fnmatch(part.c_str(), name.c_str(), 0) == 0) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) walk(dir, parts, i + 1, below(n), out);
}

}  // namespace

std::vector<std::string> expand_glob(const std::string& dir, const std::string& pattern) {
    std::vector<std::string> parts;
    for (std::size_t from = 0; from <= pattern.size();) {
        std::size_t to = pattern.find('/', from);
        if (to == std::string::npos) to = pattern.size();
        const std::string part = pattern.substr(from, to - from);
        if (!part.empty() && part != ".") parts.push_back(part);
        from = to + 1;
    }
    std::vector<std::string> out;
    walk(dir, parts, 0, "", out);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

bool apply_project(CheckArgs& a) {
    if (a.no_config && !a.config.empty()) {
        log_error("--config and --no-config: give one of them");
        return false;
    }
    const std::string path = !a.config.empty() ? a.config : a.no_config ? std::string() : discover();
    if (path.empty()) {
        if (a.files.empty()) {
            log_error("no FILE given, and no collide.json in this folder or above it (--config FILE names one)");
            return false;
        }
        return true;
    }
    const collide::Project p = collide::read_project(read_input(path), path);
    const std::string dir = fs::path(path).parent_path().empty() ? "." : fs::path(path).parent_path().string();
    if (a.files.empty()) {
        if (p.inputs.empty()) throw collide::Error(path, "/inputs", "no inputs: a bare `collide check` checks the project's inputs");
        for (std::size_t k = 0; k < p.inputs.size(); ++k) {
            const std::vector<std::string> found = expand_glob(dir, p.inputs[k]);
            if (found.empty())
                throw collide::Error(path, "/inputs/" + std::to_string(k), "'" + p.inputs[k] + "' matches no file");
            a.files.insert(a.files.end(), found.begin(), found.end());
        }
    }
    const auto given = [](const CLI::Option* o) { return o && o->count() > 0; };
    if (!given(a.format_option) && p.format) a.format = *p.format;
    if (!given(a.rules_option)) {
        if (p.rules_path) a.rules = joined(dir, *p.rules_path);
        else if (p.rules) a.project_rules = p.rules;
    }
    if (!given(a.baseline_option) && p.baseline) a.baseline = joined(dir, *p.baseline);
    if (!a.strict && p.strict) a.strict = *p.strict;
    if (!a.no_touch && p.no_touch) a.no_touch = *p.no_touch;
    if (!given(a.near_option) && p.near) a.project_near = p.near;
    return true;
}
