#include "check_args.hpp"

#include "inputs.hpp"
#include "io.hpp"
#include "log.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <thread>

namespace {

// All hardware threads, up to 8: the report never depends on it.
unsigned default_threads() { return std::max(1u, std::min(8u, std::thread::hardware_concurrency())); }

// "--threads: '-1' is not a whole number from 1 to 256": digits only, no sign, no overflow.
bool count(const std::string& option, const std::string& text, std::uint64_t lo, std::uint64_t hi, std::uint64_t& value) {
    const char* end = text.data() + text.size();
    const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (digits && ec == std::errc() && ptr == end && value >= lo && value <= hi) return true;
    log_error(option + ": '" + text + "' is not a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
    return false;
}

const std::map<std::string, collide::Broadphase> kPhases{{"auto", collide::Broadphase::Auto},
                                                         {"grid", collide::Broadphase::Grid},
                                                         {"sweep", collide::Broadphase::Sweep},
                                                         {"brute", collide::Broadphase::Brute}};

}  // namespace

void add_check_args(CLI::App& sub, CheckArgs& opt, bool with_format, const char* files_help) {
    CLI::Option* files = sub.add_option("files", opt.files, files_help)->type_name("FILE");
    if (!with_format) files->required();  // check alone may take its inputs from collide.json
    if (with_format) {
        opt.format_option = sub.add_option("-f,--format", opt.format,
                       "Report format: json, jsonl, csv or text; or a CI format listing the findings only: gcc, github, "
                       "sarif or junit")
            ->type_name("FORMAT")
            ->default_str("json");
        sub.add_flag("--locations", opt.locations,
                     "Add where each object was written (file, line, column; layer, object id) to JSON, JSON Lines and CSV records");
        sub.add_option("--config", opt.config, "The project file (default: collide.json here or in the nearest parent folder)")
            ->type_name("FILE");
        sub.add_flag("--no-config", opt.no_config, "Use no project file");
        opt.baseline_option = sub.add_option("--baseline", opt.baseline,
                       "Findings this file knows (from --write-baseline) are reported as known and fail nothing")
            ->type_name("FILE");
        sub.add_option("--write-baseline", opt.write_baseline,
                       "Write this run's findings to FILE as a baseline (rule, file, ids; no coordinates)")
            ->type_name("FILE");
        add_exclude_option(sub, opt.exclude);
        sub.add_flag("--strict", opt.strict,
                     "Warnings are findings (exit 1): a selector that selects nothing, an object a map skipped, a gid naming no tile");
    }
    opt.output_option = sub.add_option("-o,--output", opt.output,
                                       with_format ? "Write the report to this file (whole or not at all)"
                                                   : "Write the picture to this file (whole or not at all)")
                             ->type_name("PATH");
    // One spec each time (SPEC §3): `--pairs a:b level.tmx` checks level.tmx.
    sub.add_option("--pairs", opt.pairs, "Pair spec A:B (repeatable, one each time); replaces the scenes' own pairs")
        ->allow_extra_args(false)
        ->type_name("A:B");
    opt.rules_option = sub.add_option("--rules", opt.rules, "A rules file (pairs and rules) applied to every input, after its own")
                             ->type_name("FILE");
    sub.add_option("--broadphase", opt.broadphase, "auto, grid, sweep or brute (same results)")
        ->type_name("KIND")
        ->default_str("auto");
    sub.add_flag("--no-touch", opt.no_touch, "Ignore pairs that only touch");
    sub.add_flag("--no-points", opt.no_points, "Leave out intersection points");
    sub.add_flag("--fail-on-collision", opt.fail_on_collision, "Exit 1 when any collision is reported");
    opt.threads_option = sub.add_option("--threads", opt.threads,
                   "Worker threads (1 to 256) for reading files and testing pairs; default: the machine's, up to 8 (results never depend on it)")
                               ->type_name("N");
    opt.max_collisions_option = sub.add_option("--max-collisions", opt.max_collisions, "Stop after N collisions (exit 1); 0 means no limit")
                                       ->type_name("N");
    opt.near_option = sub.add_option("--near", opt.near, "Also report pairs that do not collide but lie within distance D")
                             ->type_name("D");
    sub.add_flag("--separation", opt.separation, "Give colliding convex pairs the shortest push that separates them");
    add_color_option(sub, opt.color);
    sub.add_flag("-q,--quiet", opt.quiet, "No warnings or progress line on stderr (failed rules and moves are still said)");
    sub.add_flag("-v,--verbose", opt.verbose, "Phase timings, and what each box and ellipse is read as, on stderr");
}

// The options CLI11 leaves as text, checked and converted; false after a usage error.
bool to_check_options(const CheckArgs& opt, collide::CheckOptions& copt) {
    const collide::Broadphase* phase = choice(kPhases, "--broadphase", opt.broadphase);
    if (!phase) return false;
    copt.broadphase = *phase;
    copt.no_touch = opt.no_touch;
    copt.points = !opt.no_points;
    std::uint64_t threads = default_threads(), max_collisions = 0;
    if (opt.threads_option->count() > 0 && !count("--threads", opt.threads, 1, 256, threads)) return false;
    if (opt.max_collisions_option->count() > 0 &&
        !count("--max-collisions", opt.max_collisions, 0, std::numeric_limits<std::size_t>::max(), max_collisions))
        return false;
    if (opt.near_option->count() == 0 && opt.project_near) copt.near = *opt.project_near;
    if (opt.near_option->count() > 0) {
        // A decimal number, all of the text: no sign, space, hex or underflow to 0 ("1e-400").
        double d = 0.0;
        const char* end = opt.near.data() + opt.near.size();
        const auto [ptr, ec] = std::from_chars(opt.near.data(), end, d, std::chars_format::general);
        if (opt.near.empty() || ec != std::errc() || ptr != end || !std::isfinite(d) || d < 0) {
            log_error("--near: '" + opt.near + "' is not a finite distance >= 0");
            return false;
        }
        copt.near = d;
    }
    copt.separation = opt.separation;
    if (opt.output_option->count() > 0 && opt.output.empty()) {
        log_error("--output: the path is empty");
        return false;
    }
    copt.threads = static_cast<unsigned>(threads);
    copt.max_collisions = static_cast<std::size_t>(max_collisions);
    if (!opt.pairs.empty()) {
        copt.pairs.emplace();
        for (const std::string& p : opt.pairs) {
            try {
                copt.pairs->push_back(collide::parse_pair_spec(p));
            } catch (const collide::Error& e) {
                log_error("--pairs: " + e.message());
                return false;
            }
        }
    }
    return true;
}

std::vector<collide::Scene> read_check_inputs(const CheckArgs& opt, unsigned threads, ReadProgress* progress,
                                              bool sources) {
    std::optional<collide::RuleSet> rules = opt.project_rules;
    if (!opt.rules.empty()) rules = collide::read_rule_set(read_input(opt.rules), opt.rules);
    std::vector<std::string> warnings;
    std::vector<collide::Scene> scenes = read_scenes(opt.files, threads, &warnings, progress, sources);
    for (const std::string& w : warnings) log_warning(w);
    if (rules)
        for (collide::Scene& s : scenes) collide::add_rules(s, *rules);
    return scenes;
}

void report_failures(const collide::Scene& scene, const collide::SceneResult& r) {
    for (std::size_t k = 0; k < r.rules.size(); ++k) {
        if (r.rules[k].passed) continue;
        std::string msg = "rule '" + scene.rules[k].name + "' failed";
        const auto& v = r.rules[k].violations;
        if (v.empty()) msg += ": no pair collides";
        for (std::size_t i = 0; i < v.size() && i < 20; ++i) {
            msg += i ? ", " : ": ";
            msg += collide::object_id(scene, v[i].first);
            if (v[i].second != static_cast<std::size_t>(-1)) msg += " × " + collide::object_id(scene, v[i].second);
        }
        if (v.size() > 20) msg += " and " + std::to_string(v.size() - 20) + " more";
        log_failure(msg + " (" + scene.file + ")");
    }
    for (std::size_t k = 0; k < r.moves.size(); ++k) {
        if (!r.moves[k].passed || *r.moves[k].passed) continue;
        log_failure("move '" + scene.moves[k].id + "' expected " + (*scene.moves[k].expect_allowed ? "allowed" : "blocked") +
                    ", was " + (r.moves[k].allowed ? "allowed" : "blocked") + " (" + scene.file + ")");
    }
}


bool scene_failed(const CheckArgs& opt, const collide::CheckOptions& copt, const collide::Scene& scene,
                  const collide::SceneResult& r, const collide::Baseline* baseline, std::size_t collisions_new) {
    if (!baseline) return scene_failed(opt, copt, scene, r);
    for (const std::string& sel : r.empty_selectors) log_warning(scene.file + ": selector '" + sel + "' selects nothing");
    collide::FindingOptions fopt;
    fopt.strict = opt.strict;
    std::size_t fresh = 0, known = 0;
    for (const collide::Finding& f : collide::findings(scene, r, fopt)) {
        if (baseline->known(f)) {
            ++known;
        } else {
            ++fresh;
            if (f.kind != collide::Finding::Kind::Warning) log_failure(collide::place_text(f.at) + ": " + f.message + " [" + f.rule + "]");
        }
    }
    if (opt.fail_on_collision) fresh += collisions_new;
    const std::string counts = scene.file + ": " + std::to_string(fresh) + " new finding(s), " + std::to_string(known) +
                               " known from the baseline";
    if (fresh > 0) log_failure(counts);
    else if (known > 0) log_verbose(counts);
    if (r.truncated)
        log_failure("stopped after " + std::to_string(copt.max_collisions) + " collisions (--max-collisions) in " +
                    scene.file + "; rules saw only those");
    return fresh > 0 || r.truncated;
}

bool scene_failed(const CheckArgs& opt, const collide::CheckOptions& copt, const collide::Scene& scene,
                  const collide::SceneResult& r) {
    for (const std::string& sel : r.empty_selectors) log_warning(scene.file + ": selector '" + sel + "' selects nothing");
    report_failures(scene, r);
    if (r.truncated)
        log_failure("stopped after " + std::to_string(copt.max_collisions) + " collisions (--max-collisions) in " +
                    scene.file + "; rules saw only those");
    // --strict: each warning is a finding (SPEC §3.1), said whatever -q hides.
    const std::size_t warnings = scene.warnings.size() + r.empty_selectors.size();
    if (opt.strict && warnings > 0)
        log_failure(std::to_string(warnings) + (warnings == 1 ? " warning" : " warnings") + " in " + scene.file +
                    " (--strict makes warnings findings)");
    return r.summary.rules_failed > 0 || (opt.fail_on_collision && r.summary.collisions > 0) || r.truncated ||
           (opt.strict && warnings > 0);
}
