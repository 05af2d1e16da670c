// What `--help` adds after the options, and what an unknown option is told.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

/// Sets the footer of `app` (the program, or one of its subcommands): its exit statuses and
/// three examples.
void add_help_footer(CLI::App& app);

/// "unknown option '--fail-on-colision' (did you mean '--fail-on-collision'?)" for an
/// argument `app` does not take: the nearest of its options, or the subcommand an option
/// belongs to when it was given to another; "unexpected argument 'x'" for a stray word.
std::string unknown_argument_message(const CLI::App& app, const std::string& arg);

/// The message of a usage error CLI11 found, in the house style: an unknown option with the
/// option meant (unknown_argument_message), an option without its value, a missing FILE; and
/// the usage to read ("run 'collide check --help' for usage"). `where`: the subcommand parsed
/// (else `root`).
std::string usage_error_message(const CLI::ParseError& e, const CLI::App& root, const CLI::App& where);
