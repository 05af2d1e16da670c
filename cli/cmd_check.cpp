#include "commands.hpp"
#include "io.hpp"
#include "log.hpp"

#include <collide/check.hpp>
#include <collide/report.hpp>
#include <collide/scene.hpp>

#include <chrono>
#include <iostream>
#include <map>
#include <memory>
#include <thread>
#include <algorithm>

namespace {

// All hardware threads, up to 8: the report never depends on it.
unsigned default_threads() { return std::max(1u, std::min(8u, std::thread::hardware_concurrency())); }

struct {
    std::vector<std::string> files;
    std::string format = "json";
    std::string output;
    std::vector<std::string> pairs;
    std::string broadphase = "auto";
    bool no_touch = false;
    bool no_points = false;
    bool fail_on_collision = false;
    unsigned threads = default_threads();
    std::size_t max_collisions = 0;
    bool quiet = false;
    bool verbose = false;
} opt;

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// The stderr lines for failed rules and move expectations.
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

}  // namespace

const std::map<std::string, collide::Format> kFormats{{"json", collide::Format::Json},
                                                     {"jsonl", collide::Format::Jsonl},
                                                     {"csv", collide::Format::Csv},
                                                     {"text", collide::Format::Text}};
const std::map<std::string, collide::Broadphase> kPhases{{"auto", collide::Broadphase::Auto},
                                                         {"grid", collide::Broadphase::Grid},
                                                         {"sweep", collide::Broadphase::Sweep},
                                                         {"brute", collide::Broadphase::Brute}};

// "--format: 'xml' is not one of csv, json, jsonl, text"
template <class T>
const T* choice(const std::map<std::string, T>& choices, const std::string& option, const std::string& value) {
    const auto it = choices.find(value);
    if (it != choices.end()) return &it->second;
    std::string names;
    for (const auto& [name, v] : choices) names += (names.empty() ? "" : ", ") + name;
    log_error(option + ": '" + value + "' is not one of " + names);
    return nullptr;
}

void setup_check(CLI::App& sub) {
    sub.add_option("files", opt.files, "Scene files ('-' reads standard input)")->required();
    sub.add_option("-f,--format", opt.format, "Report format: json, jsonl, csv or text")->default_str("json");
    sub.add_option("-o,--output", opt.output, "Write the report to this file (whole or not at all)");
    sub.add_option("--pairs", opt.pairs, "Pair spec A:B (repeatable); replaces the scenes' own pairs");
    sub.add_option("--broadphase", opt.broadphase, "auto, grid, sweep or brute (same results)")->default_str("auto");
    sub.add_flag("--no-touch", opt.no_touch, "Ignore pairs that only touch");
    sub.add_flag("--no-points", opt.no_points, "Leave out intersection points");
    sub.add_flag("--fail-on-collision", opt.fail_on_collision, "Exit 1 when any collision is reported");
    sub.add_option("--threads", opt.threads,
                   "Worker threads for reading files and testing pairs; default: the machine's, up to 8 (results never depend on it)")->check(CLI::Range(1u, 256u));
    sub.add_option("--max-collisions", opt.max_collisions, "Stop after N collisions (exit 1); 0 means no limit");
    sub.add_flag("-q,--quiet", opt.quiet, "No warnings or rule failure lines on stderr");
    sub.add_flag("-v,--verbose", opt.verbose, "Phase timings on stderr");
}

ExitCode run_check() {
    set_log_quiet(opt.quiet);
    set_log_verbose(opt.verbose);
    const collide::Format* format = choice(kFormats, "--format", opt.format);
    const collide::Broadphase* phase = choice(kPhases, "--broadphase", opt.broadphase);
    if (!format || !phase) return ExitCode::BadInput;
    collide::CheckOptions copt;
    copt.broadphase = *phase;
    copt.no_touch = opt.no_touch;
    copt.points = !opt.no_points;
    copt.threads = opt.threads;
    copt.max_collisions = opt.max_collisions;
    try {
        if (!opt.pairs.empty()) {
            copt.pairs.emplace();
            for (const std::string& p : opt.pairs) {
                try {
                    copt.pairs->push_back(collide::parse_pair_spec(p));
                } catch (const collide::Error& e) {
                    log_error("--pairs: " + e.message());
                    return ExitCode::BadInput;
                }
            }
        }
        // Read everything first: a bad input anywhere leaves stdout and --output untouched.
        auto t0 = Clock::now();
        const std::vector<collide::Scene> scenes = read_scenes(opt.files, copt.threads);
        log_verbose("parse " + std::to_string(ms_since(t0)) + " ms (" + std::to_string(scenes.size()) + " files)");

        std::unique_ptr<AtomicFile> file;
        if (!opt.output.empty()) {
            install_signal_cleanup();
            file = std::make_unique<AtomicFile>(opt.output);
        }
        std::ostream& out = file ? file->stream() : std::cout;
        collide::ReportWriter writer(out, *format, copt.points);
        bool failed = false;
        double check_ms = 0;
        for (const collide::Scene& scene : scenes) {
            // Collisions stream from the check into the writer in report order.
            auto t1 = Clock::now();
            writer.begin_scene(scene);
            const collide::SceneResult r =
                collide::check(scene, copt, [&](collide::Collision&& c) { writer.collision(scene, c); });
            writer.end_scene(scene, r);
            check_ms += ms_since(t1);
            for (const std::string& sel : r.empty_selectors)
                log_warning(scene.file + ": selector '" + sel + "' selects nothing");
            report_failures(scene, r);
            failed = failed || r.summary.rules_failed > 0 || (opt.fail_on_collision && r.summary.collisions > 0);
            if (r.truncated) {
                log_failure("stopped after " + std::to_string(opt.max_collisions) + " collisions (--max-collisions) in " +
                            scene.file + "; rules saw only those");
                failed = true;
            }
        }
        writer.finish();
        if (file) file->commit();
        else std::cout.flush();
        log_verbose("check and write " + std::to_string(check_ms) + " ms");
        return failed ? ExitCode::Failed : ExitCode::Ok;
    } catch (const collide::Error& e) {
        log_error(e.what());
        return ExitCode::BadInput;
    } catch (const std::bad_alloc&) {
        log_error("out of memory");
        return ExitCode::BadInput;
    } catch (const std::exception& e) {
        // A library bug, not the user's: say so, and still exit 2 rather than abort.
        log_error(internal_error_message(e));
        return ExitCode::BadInput;
    }
}
