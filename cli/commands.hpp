// The subcommands of the collide executable: each parses its options into a struct,
// calls the library and writes its output. Only this folder talks to the terminal.
#pragma once

#include <CLI/CLI.hpp>
#include <collide/scene.hpp>

#include <string>
#include <vector>

/// Exit statuses (SPEC §3).
enum class ExitCode : int {
    Ok = 0,           ///< success, no failed rule
    Failed = 1,       ///< a rule or expectation failed, or --fail-on-collision found one
    BadInput = 2,     ///< usage error, or an unreadable or invalid input
};

/// A subcommand: registers its options on `app` and returns the function that runs it.
struct Command {
    const char* name;
    const char* help;
    void (*setup)(CLI::App& sub);
    ExitCode (*run)();
};

void setup_check(CLI::App& sub);
ExitCode run_check();
void setup_validate(CLI::App& sub);
ExitCode run_validate();
void setup_import(CLI::App& sub);
ExitCode run_import();
void setup_schema(CLI::App& sub);
ExitCode run_schema();
void setup_render(CLI::App& sub);
ExitCode run_render();
void setup_help(CLI::App& sub);
ExitCode run_help();

/// The subcommand of `root` called `name`, or null.
const CLI::App* find_subcommand(const CLI::App& root, const std::string& name);
/// "unknown subcommand 'x' (expected check, validate, ... or help)", from `root`'s subcommands.
std::string unknown_subcommand(const CLI::App& root, const std::string& name);

/// With -v (check and validate): one line on stderr for each box or ellipse of `scene`,
/// saying what the reader made of it (a rect, a circle, or a polygon and its points).
void log_converted(const collide::Scene& scene);

/// The scene JSON Schema, compiled in from schemas/scene.schema.json.
extern const char* const kSceneSchema;
