// `collide help [SUBCOMMAND]`: the text `collide --help` or `collide SUBCOMMAND --help`
// prints, byte for byte, for people who type the word rather than the flag.
#include "commands.hpp"
#include "log.hpp"
#include "output.hpp"

#include <memory>
#include <string>

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

namespace {
// `root`: the program's App (the help subcommand is one of its children); `name`: the
// subcommand asked about, or empty.
ExitCode run_help(const CLI::App* root, const std::string& name) {
    const CLI::App* topic = root;
    if (!name.empty() && !(topic = find_subcommand(*root, name))) {
        log_error(unknown_subcommand(*root, name));
        return ExitCode::BadInput;
    }
    // What CLI::App::help() gives when --help is met: the usage line names the program,
    // then the subcommand.
    const bool written = print_to_stdout([&](std::ostream& out) {
        if (topic == root)
            out << root->get_formatter()->make_help(root, root->get_name(), CLI::AppFormatMode::Normal);
        else
            out << topic->help(root->get_name());
    });
    return written ? ExitCode::Ok : ExitCode::BadInput;
}
}  // namespace

Runner setup_help(CLI::App& sub) {
    auto topic = std::make_shared<std::string>();
    sub.add_option("subcommand", *topic, "The subcommand to describe (none: the program)")->type_name("SUBCOMMAND");
    const CLI::App* root = sub.get_parent();
    return [root, topic] { return run_help(root, *topic); };
}
