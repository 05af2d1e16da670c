// What `--help` says after the options (exit statuses and examples, ripgrep-style), and the
// "did you mean" of an unknown option.
#include "help_text.hpp"

#include <collide/text.hpp>

#include <algorithm>
#include <regex>
#include <vector>

namespace {

struct Footer {
    const char* command;
    const char* text;
};

// Each subcommand's exit statuses (SPEC §3) and three examples. Commands that help2man turns
// into the man page read these too (cli/man_help.sh), so they stay plain text.
const Footer kFooters[] = {
    {"", R"(Exit status:
  0  success, no finding
  1  a finding: a failed rule or move expectation, a collision under --fail-on-collision,
     a warning under --strict, or a report cut by --max-collisions (check, render)
  2  a usage error, or an unreadable or invalid input

Examples:
  collide check level.tmx                      # the collisions of a Tiled map, as JSON
  collide check -f text --rules rules.json levels/
  collide help check                           # the options of one subcommand
)"},
    {"check", R"(Exit status:
  0  no finding: every rule and move expectation held (collisions alone are not findings)
  1  a finding: a failed rule or move expectation, a collision under --fail-on-collision,
     a warning under --strict, or a report cut by --max-collisions
  2  a usage error, or an unreadable or invalid input (nothing is written to the report)

Examples:
  collide check level.tmx                      # the map's collisions as a JSON report
  collide check -f text --rules rules.json levels/          # every map under levels/
  collide check -f github --baseline baseline.json levels/  # CI annotations, new findings only
)"},
    {"validate", R"(Exit status:
  0  every input is a valid scene or map
  2  a usage error, or an input is unreadable or invalid (its file and line:column on stderr)

Examples:
  collide validate scene.json
  collide validate -q levels/                  # every map and scene under levels/
  generate-level | collide validate -          # standard input
)"},
    {"import", R"(Exit status:
  0  the scene was written
  2  a usage error, or the map (or a file it names) is unreadable or invalid

Examples:
  collide import level.tmx > level.json
  collide import -o level1.json world.ldtk#Level_1
  collide import world.tmj | jq '.shapes | length'
)"},
    {"schema", R"(Exit status:
  0  the schema was written
  2  it could not be written

Examples:
  collide schema > scene.schema.json
  collide schema | jq '.properties | keys'
  check-jsonschema --schemafile <(collide schema) scene.json
)"},
    {"render", R"(Exit status:
  0  the picture was written and no finding
  1  the picture was written, and a finding (as for check)
  2  a usage error, or an unreadable or invalid input (no picture is written)

Examples:
  collide render -o level.svg level.tmx
  collide render --near 8 -o near.svg scene.json
  collide render --rules rules.json -o broken.svg world.ldtk#Level_2
)"},
    {"help", R"(Exit status:
  0  the help was written
  2  no such subcommand

Examples:
  collide help
  collide help check
  collide help render | less
)"},
};

// Long options of `app` ("--format"), and its short ones when `word` is short.
std::vector<std::string> option_names(const CLI::App& app, bool shorts) {
    std::vector<std::string> names;
    for (const CLI::Option* o : app.get_options()) {
        for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
        if (shorts)
            for (const std::string& n : o->get_snames()) names.push_back("-" + n);
    }
    return names;
}

// Of `names`, the one `word` is a typo of: the fewest edits, at most 2 (3 for words of 12
// characters or more), the first of equals; empty when none is that close.
std::string nearest(const std::string& word, const std::vector<std::string>& names) {
    const std::size_t most = word.size() >= 12 ? 3 : 2;
    std::string best;
    std::size_t best_distance = most + 1;
    for (const std::string& n : names) {
        const std::size_t d = collide::edit_distance(word, n);
        if (d < best_distance && d < n.size()) best = n, best_distance = d;
    }
    return best;
}

}  // namespace

void add_help_footer(CLI::App& app) {
    for (const Footer& f : kFooters)
        if (app.get_name() == f.command || (app.get_parent() == nullptr && f.command[0] == '\0')) {
            std::string text = f.text;
            text.pop_back();  // CLI11 ends the help with a line break of its own
            app.footer(text);
            return;
        }
}

std::string unknown_argument_message(const CLI::App& app, const std::string& arg) {
    if (arg.empty() || arg[0] != '-' || arg == "-")
        return "unexpected argument '" + arg + "'";
    // "--format=jsn": the option's name is before the '='.
    const std::string name = arg.substr(0, arg.find('='));
    const bool is_long = name.rfind("--", 0) == 0;
    const std::string hint = name.size() > 2 ? nearest(name, option_names(app, !is_long)) : std::string();
    if (!hint.empty()) return "unknown option '" + name + "' (did you mean '" + hint + "'?)";
    // An option of a subcommand given before it ("collide --no-touch check ..."), or to
    // another subcommand.
    const CLI::App* root = &app;
    while (root->get_parent()) root = root->get_parent();
    for (const CLI::App* sub : root->get_subcommands([](const CLI::App*) { return true; })) {
        const std::vector<std::string> names = option_names(*sub, !is_long);
        if (sub == &app || std::find(names.begin(), names.end(), name) == names.end()) continue;
        const std::string of = "an option of 'collide " + sub->get_name() + "'";
        return "unknown option '" + name + "' (" + of + (&app == root ? ": put it after the subcommand)" : ")");
    }
    const std::vector<std::string> own = option_names(*root, !is_long);
    if (&app != root && std::find(own.begin(), own.end(), name) != own.end())
        return "unknown option '" + name + "' (an option of 'collide' itself: put it before the subcommand)";
    return "unknown option '" + name + "'";
}

std::string usage_error_message(const CLI::ParseError& e, const CLI::App& root, const CLI::App& where) {
    const CLI::App* about = &where;
    std::string message;
    if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
        // The first argument no option took: the subcommand's, else the program's own.
        if (where.remaining().empty()) about = &root;
        const std::vector<std::string> extra = about->remaining();
        if (!extra.empty()) message = unknown_argument_message(*about, extra.front());
    }
    // CLI11's wording of the other two mistakes people make ("--threads: 1 required N
    // missing", "files is required"), in ours.
    const std::string what = e.what();
    std::smatch m;
    if (message.empty() && std::regex_match(what, m, std::regex(R"((\S+): 1 required (\S+) missing)")))
        message = "option '" + m[1].str() + "' needs a value (" + m[2].str() + ")";
    if (message.empty() && std::regex_match(what, m, std::regex(R"((\S+) is required)"))) {
        const CLI::Option* o = where.get_option_no_throw(m[1].str());
        message = "no " + (o ? o->get_type_name() : m[1].str()) + " given";
    }
    if (message.empty()) message = what;
    if (message.back() == ')') return message;  // it says what was meant
    return message + " (run 'collide " + (about == &root ? std::string() : about->get_name() + " ") + "--help' for usage)";
}
