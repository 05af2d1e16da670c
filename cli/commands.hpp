// The subcommands of the collide executable: each parses its options into a struct,
// calls the library and writes its output. Only this folder talks to the terminal.
#pragma once

#include <CLI/CLI.hpp>
#include <collide/scene.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

/// Exit statuses (SPEC §3).
enum class ExitCode : int {
    Ok = 0,           ///< success, no failed rule
    Failed = 1,       ///< a rule or expectation failed, or --fail-on-collision found one
    BadInput = 2,     ///< usage error, or an unreadable or invalid input
};

/// What a subcommand runs once the command line is parsed: a function that owns the options
/// its setup registered (no file-scope state).
using Runner = std::function<ExitCode()>;

/// The Runner of a subcommand whose options fill an Args: `declare(args)` registers them
/// (on the subcommand, bound to `args`), and the Runner owns the Args and calls run(args).
template <class Args, class Declare>
Runner runner_for(ExitCode (*run)(const Args&), Declare&& declare) {
    auto opt = std::make_shared<Args>();
    declare(*opt);
    return [opt, run] { return run(*opt); };
}

/// A subcommand: `setup` registers its options on `sub` and returns what runs it.
struct Command {
    const char* name;
    const char* help;
    Runner (*setup)(CLI::App& sub);
};

Runner setup_check(CLI::App& sub);
Runner setup_validate(CLI::App& sub);
Runner setup_import(CLI::App& sub);
Runner setup_schema(CLI::App& sub);
Runner setup_render(CLI::App& sub);
Runner setup_help(CLI::App& sub);

/// The subcommand of `root` called `name`, or null.
const CLI::App* find_subcommand(const CLI::App& root, const std::string& name);
/// "unknown subcommand 'x' (expected check, validate, ... or help)", from `root`'s subcommands.
std::string unknown_subcommand(const CLI::App& root, const std::string& name);

/// With -v (check and validate): one line on stderr for each box or ellipse of `scene`,
/// saying what the reader made of it (a rect, a circle, or a polygon and its points).
void log_converted(const collide::Scene& scene);

/// The scene JSON Schema, compiled in from schemas/scene.schema.json.
extern const char* const kSceneSchema;
