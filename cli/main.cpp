// collide: batch collision checker for 2D game data. See README.md and SPEC.md.
#include "commands.hpp"
#include "heap.hpp"
#include "help_text.hpp"
#include "log.hpp"
#include "output.hpp"

#include <csignal>
#include <iostream>


namespace {
const Command kCommands[] = {
    {"check", "Test the shapes of scene files and write a report", setup_check},
    {"validate", "Parse and validate scene files only", setup_validate},
    {"import", "Print the scene a Tiled map, an LDtk level or a Godot scene becomes", setup_import},
    {"schema", "Print the JSON Schema of the scene format", setup_schema},
    {"render", "Draw one scene and its results as an SVG picture", setup_render},
    {"help", "Print this help, or the help of one subcommand", setup_help},
};
// Help and --version go to standard output, whose write errors count as for any other output.
int print_help(CLI::App& app, const CLI::ParseError& e) {
    try {
        StdOut out;
        app.exit(e, out.stream(), std::cerr);  // the help of the (sub)command asked about
        out.finish();
        return 0;
    } catch (const WriteError& w) {
        log_error(w.what());
        return static_cast<int>(ExitCode::BadInput);
    }
}
}  // namespace

int main(int argc, char** argv) {
    // A closed pipe (`collide check ... | head -n 1`) ends the program at once and quietly,
    // even when the parent ignored SIGPIPE.
    std::signal(SIGPIPE, SIG_DFL);
    sigset_t pipe;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_UNBLOCK, &pipe, nullptr);  // a blocked one would turn into EPIPE errors
    guard_standard_descriptors();
    tune_heap();
    init_log();
    // Named, so that usage lines say "collide" and not the path the program was started by
    // (the man page is made from them).
    CLI::App app{"collide: exact batch collision checks for 2D game data", "collide"};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "Show help for every subcommand");
    app.set_version_flag("--version", "collide " COLLIDE_VERSION, "Print the version and exit");
    std::vector<std::pair<CLI::App*, Runner>> subs;
    for (const Command& c : kCommands) {
        CLI::App* sub = app.add_subcommand(c.name, c.help);
        subs.emplace_back(sub, c.setup(*sub));
        add_help_footer(*sub);
    }
    add_help_footer(app);
    if (argc > 1 && argv[1][0] != '-' && !find_subcommand(app, argv[1])) {
        log_error(unknown_subcommand(app, argv[1]));
        return static_cast<int>(ExitCode::BadInput);
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help, --help-all, --version and a subcommand's --help arrive here with exit code 0.
        if (e.get_exit_code() == 0) return print_help(app, e);
        // Said as every other message is: the subcommand the error is about names its usage.
        const CLI::App* where = &app;
        for (const auto& [sub, run] : subs)
            if (sub->parsed()) where = sub;
        log_error(usage_error_message(e, app, *where));
        return static_cast<int>(ExitCode::BadInput);
    }
    for (const auto& [sub, run] : subs)
        if (sub->parsed()) return static_cast<int>(run());
    return static_cast<int>(ExitCode::BadInput);
}
