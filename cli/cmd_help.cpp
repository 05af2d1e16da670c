// `collide help [SUBCOMMAND]`: the text `collide --help` or `collide SUBCOMMAND --help`
// prints, byte for byte, for people who type the word rather than the flag.
#include "commands.hpp"
#include "log.hpp"
#include "output.hpp"

namespace {
const CLI::App* g_root = nullptr;  // the program's App; the help subcommand is one of its children
std::string g_topic;
}  // namespace

const CLI::App* find_subcommand(const CLI::App& root, const std::string& name) {
    for (const CLI::App* sub : root.get_subcommands([](const CLI::App*) { return true; }))
        if (sub->get_name() == name) return sub;
    return nullptr;
}

std::string unknown_subcommand(const CLI::App& root, const std::string& name) {
    const auto subs = root.get_subcommands([](const CLI::App*) { return true; });
    std::string names;
    for (std::size_t i = 0; i < subs.size(); ++i)
        names += (i == 0 ? "" : i + 1 == subs.size() ? " or " : ", ") + subs[i]->get_name();
    return "unknown subcommand '" + name + "' (expected " + names + ")";
}

void setup_help(CLI::App& sub) {
    g_root = sub.get_parent();
    sub.add_option("subcommand", g_topic, "The subcommand to describe (none: the program)");
}

ExitCode run_help() {
    const CLI::App* topic = g_root;
    if (!g_topic.empty() && !(topic = find_subcommand(*g_root, g_topic))) {
        log_error(unknown_subcommand(*g_root, g_topic));
        return ExitCode::BadInput;
    }
    try {
        StdOut out;
        // What CLI::App::help() gives when --help is met: the usage line names the program,
        // then the subcommand.
        if (topic == g_root)
            out.stream() << g_root->get_formatter()->make_help(g_root, g_root->get_name(), CLI::AppFormatMode::Normal);
        else
            out.stream() << topic->help(g_root->get_name());
        out.finish();
        return ExitCode::Ok;
    } catch (const WriteError& e) {
        log_error(e.what());
        return ExitCode::BadInput;
    }
}
