// The options `check` and `render` share (SPEC §3), and what both do with them.
#pragma once

#include "log.hpp"

#include <CLI/CLI.hpp>
#include <collide/check.hpp>
#include <collide/findings.hpp>
#include <collide/scene.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

struct ReadProgress;  // io.hpp

/// The shared options as the command line gave them; add_check_args fills it in.
struct CheckArgs {
    std::vector<std::string> files;
    std::vector<std::string> exclude;  // check only: --exclude GLOB, for folders
    std::string format = "json";  // check only
    std::string output;
    std::vector<std::string> pairs;
    std::string rules;
    std::string broadphase = "auto";
    bool no_touch = false;
    bool no_points = false;
    bool fail_on_collision = false;
    std::string threads;  // parsed by to_check_options: CLI11 would take "-1" as a huge unsigned
    std::string max_collisions;
    std::string near;     // a finite number >= 0
    bool separation = false;
    bool quiet = false;
    bool verbose = false;
    std::string color = "auto";  // --color
    bool locations = false;  // check only
    bool strict = false;     // check only
    std::string baseline;        // check only: --baseline FILE
    std::string write_baseline;  // check only: --write-baseline FILE
    std::string config;          // check only: --config FILE
    bool no_config = false;      // check only
    std::optional<collide::RuleSet> project_rules;  // collide.json's inline "rules"
    std::optional<double> project_near;             // collide.json's "near"
    CLI::Option* format_option = nullptr;
    CLI::Option* rules_option = nullptr;
    CLI::Option* baseline_option = nullptr;
    CLI::Option* near_option = nullptr;
    CLI::Option* threads_option = nullptr;
    CLI::Option* max_collisions_option = nullptr;
    CLI::Option* output_option = nullptr;
};

/// Register the shared options on `sub`, with -f/--format when `with_format`; `files_help`
/// describes the positional FILE arguments.
void add_check_args(CLI::App& sub, CheckArgs& args, bool with_format, const char* files_help);

/// The options CLI11 leaves as text, checked and converted into `copt` (the pair specs too);
/// false after a usage error, which has been logged.
bool to_check_options(const CheckArgs& args, collide::CheckOptions& copt);

/// Read every input and apply the --rules file; logs the maps' warnings. Counts the files
/// read into `progress` when given (ProgressLine::read()). With `sources`, every element's
/// line and column are recorded. Throws collide::Error.
std::vector<collide::Scene> read_check_inputs(const CheckArgs& args, unsigned threads, ReadProgress* progress = nullptr,
                                              bool sources = false);

/// Whether a checked scene fails the run (exit 1): a failed rule or expectation, a collision
/// under --fail-on-collision, or a report cut by --max-collisions. Says on stderr what failed
/// and which selectors select nothing.
bool scene_failed(const CheckArgs& args, const collide::CheckOptions& copt, const collide::Scene& scene,
                  const collide::SceneResult& r);

/// The same with a baseline (`--baseline`): findings it knows fail nothing. `collisions_new`
/// counts the collisions streamed past that --fail-on-collision makes new findings.
bool scene_failed(const CheckArgs& args, const collide::CheckOptions& copt, const collide::Scene& scene,
                  const collide::SceneResult& r, const collide::Baseline* baseline, std::size_t collisions_new);

/// The value `value` names among `choices`, or null after logging a usage error
/// ("--format: 'xml' is not one of csv, json, jsonl, text").
template <class T>
const T* choice(const std::map<std::string, T>& choices, const std::string& option, const std::string& value) {
    const auto it = choices.find(value);
    if (it != choices.end()) return &it->second;
    std::string names;
    for (const auto& [name, v] : choices) names += (names.empty() ? "" : ", ") + name;
    log_error(option + ": '" + value + "' is not one of " + names);
    return nullptr;
}
