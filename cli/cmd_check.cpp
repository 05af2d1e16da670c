#include "commands.hpp"
#include "io.hpp"
#include "log.hpp"
#include "output.hpp"

#include <collide/check.hpp>
#include <collide/report.hpp>
#include <collide/scene.hpp>

#include <charconv>
#include <cmath>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
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
    std::string rules;
    std::string broadphase = "auto";
    bool no_touch = false;
    bool no_points = false;
    bool fail_on_collision = false;
    std::string threads;         // parsed by count(): CLI11 would take "-1" as a huge unsigned
    std::string max_collisions;
    std::string near;            // parsed by distance(): a finite number >= 0
    bool separation = false;
    CLI::Option* near_option = nullptr;
    CLI::Option* threads_option = nullptr;
    CLI::Option* max_collisions_option = nullptr;
    CLI::Option* output_option = nullptr;
    bool quiet = false;
    bool verbose = false;
} opt;

// "--threads: '-1' is not a whole number from 1 to 256": digits only, no sign, no overflow.
bool count(const std::string& option, const std::string& text, std::uint64_t lo, std::uint64_t hi, std::uint64_t& value) {
    const char* end = text.data() + text.size();
    const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (digits && ec == std::errc() && ptr == end && value >= lo && value <= hi) return true;
    log_error(option + ": '" + text + "' is not a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
    return false;
}

// A test hook (tests/cli/test_cli.py): COLLIDE_TEST_OOM_SCENE=K makes the check of the K-th
// scene run out of memory at its first collision, the one failure part way through a report
// that a test can cause on demand. 0 (unset) never.
std::size_t oom_scene_for_tests() {
    const char* k = std::getenv("COLLIDE_TEST_OOM_SCENE");
    return k ? static_cast<std::size_t>(std::strtoull(k, nullptr, 10)) : 0;
}

// "level2.json: out of memory": every message names the input it is about, when there is one.
std::string about(const std::string& file, const std::string& what) { return file.empty() ? what : file + ": " + what; }

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

std::string position(collide::Vec2 p) {
    return "[" + collide::format_number(p.x) + ", " + collide::format_number(p.y) + "]";
}

// "polygon of 4 points [[1, 2], ...]": every point up to kShown, so that a user can compare
// them with the corners they expected; an ellipse of 4096 points is cut short.
std::string describe(const collide::Shape& shape) {
    constexpr std::size_t kShown = 64;
    if (const auto* r = std::get_if<collide::Rect>(&shape)) return "rect min " + position(r->min) + " max " + position(r->max);
    if (const auto* c = std::get_if<collide::Circle>(&shape))
        return "circle center " + position(c->center) + " radius " + collide::format_number(c->radius);
    const auto& points = std::get<collide::Polygon>(shape).points;
    std::string s = "polygon of " + std::to_string(points.size()) + " points [";
    for (std::size_t i = 0; i < points.size() && i < kShown; ++i) s += (i ? ", " : "") + position(points[i]);
    if (points.size() > kShown) s += ", ... " + std::to_string(points.size() - kShown) + " more";
    return s + "]";
}

}  // namespace

void log_converted(const collide::Scene& scene) {
    // A level of a million crates would bury everything else: the first kLines say enough.
    constexpr std::size_t kLines = 100;
    for (std::size_t k = 0; k < scene.converted.size() && k < kLines; ++k) {
        const collide::ConvertedShape& c = scene.converted[k];
        const collide::SceneShape& s = scene.shapes[c.shape];
        const collide::Shape& shape = c.part ? std::get<collide::Compound>(s.shape).parts[*c.part] : s.shape;
        const std::string what = c.part ? "part " + std::to_string(*c.part) + " of '" + s.id + "'" : "shape '" + s.id + "'";
        const char* written = c.written == collide::ConvertedShape::Written::Box ? "box" : "ellipse";
        log_verbose(scene.file + ": " + what + " (" + written + ") is read as " + describe(shape));
    }
    if (scene.converted.size() > kLines)
        log_verbose(scene.file + ": " + std::to_string(scene.converted.size() - kLines) +
                    " more boxes and ellipses (not shown)");
}

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
    sub.add_option("files", opt.files, "Scene files and maps: Tiled .tmx/.tmj/.json, LDtk .ldtk or FILE.ldtk#LEVEL ('-' reads standard input)")->required();
    sub.add_option("-f,--format", opt.format, "Report format: json, jsonl, csv or text")->default_str("json");
    opt.output_option = sub.add_option("-o,--output", opt.output, "Write the report to this file (whole or not at all)");
    sub.add_option("--pairs", opt.pairs, "Pair spec A:B (repeatable); replaces the scenes' own pairs");
    sub.add_option("--rules", opt.rules, "A rules file (pairs and rules) applied to every input, after its own");
    sub.add_option("--broadphase", opt.broadphase, "auto, grid, sweep or brute (same results)")->default_str("auto");
    sub.add_flag("--no-touch", opt.no_touch, "Ignore pairs that only touch");
    sub.add_flag("--no-points", opt.no_points, "Leave out intersection points");
    sub.add_flag("--fail-on-collision", opt.fail_on_collision, "Exit 1 when any collision is reported");
    opt.threads_option = sub.add_option("--threads", opt.threads,
                   "Worker threads (1 to 256) for reading files and testing pairs; default: the machine's, up to 8 (results never depend on it)");
    opt.max_collisions_option = sub.add_option("--max-collisions", opt.max_collisions, "Stop after N collisions (exit 1); 0 means no limit");
    opt.near_option = sub.add_option("--near", opt.near, "Also report pairs that do not collide but lie within distance D");
    sub.add_flag("--separation", opt.separation, "Give colliding convex pairs the shortest push that separates them");
    sub.add_flag("-q,--quiet", opt.quiet, "No warnings or rule failure lines on stderr");
    sub.add_flag("-v,--verbose", opt.verbose, "Phase timings, and what each box and ellipse is read as, on stderr");
}

// The options CLI11 leaves as text, checked and converted; false after a usage error.
bool finish_options(collide::CheckOptions& copt) {
    std::uint64_t threads = default_threads(), max_collisions = 0;
    if (opt.threads_option->count() > 0 && !count("--threads", opt.threads, 1, 256, threads)) return false;
    if (opt.max_collisions_option->count() > 0 &&
        !count("--max-collisions", opt.max_collisions, 0, std::numeric_limits<std::size_t>::max(), max_collisions))
        return false;
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
    return true;
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
    if (!finish_options(copt)) return ExitCode::BadInput;
    std::string current;  // the input being checked, which a failure is about
    long long rewind_at = -1;  // >= 0: a failure cuts standard output back to here
    const auto fail = [&](const std::string& message) {
        if (rewind_at >= 0) rewind_stdout(rewind_at);
        log_error(message);
        return ExitCode::BadInput;
    };
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
        std::optional<collide::RuleSet> rules;
        if (!opt.rules.empty()) rules = collide::read_rule_set(read_input(opt.rules), opt.rules);
        std::vector<std::string> warnings;
        std::vector<collide::Scene> scenes = read_scenes(opt.files, copt.threads, &warnings);
        for (const std::string& w : warnings) log_warning(w);
        if (rules)
            for (collide::Scene& s : scenes) collide::add_rules(s, *rules);
        log_verbose("parse " + std::to_string(ms_since(t0)) + " ms (" + std::to_string(scenes.size()) + " files)");
        if (opt.verbose)
            for (const collide::Scene& s : scenes) log_converted(s);

        // Where the report goes. A JSON document (and the text report) on standard output
        // must not be left partial: into a regular file it is written straight and cut back
        // out on a failure, anywhere else (a pipe) held until it is complete. JSON Lines and
        // CSV stream whole records (README, "Guarantees").
        StdOut stdout_;
        std::unique_ptr<AtomicFile> file;
        std::unique_ptr<HeldBuf> held;
        if (!opt.output.empty()) {
            install_signal_cleanup();
            file = std::make_unique<AtomicFile>(opt.output);
        } else if (*format == collide::Format::Json || *format == collide::Format::Text) {
            rewind_at = stdout_rewind_point();
            if (rewind_at < 0) held = std::make_unique<HeldBuf>();
        }
        std::unique_ptr<std::ostream> held_stream;
        if (held) {
            held_stream = std::make_unique<std::ostream>(held.get());
            held_stream->exceptions(std::ios::badbit);
        }
        std::ostream& out = file ? file->stream() : held ? *held_stream : stdout_.stream();
        collide::ReportWriter writer(out, *format, copt.points);
        bool failed = false;
        double check_ms = 0;
        const std::size_t oom_scene = oom_scene_for_tests();
        for (std::size_t k = 0; k < scenes.size(); ++k) {
            const collide::Scene& scene = scenes[k];
            current = scene.file;
            const bool oom = k + 1 == oom_scene;
            // Collisions stream from the check into the writer in report order.
            auto t1 = Clock::now();
            writer.begin_scene(scene);
            const collide::SceneResult r = collide::check(scene, copt, [&](collide::Collision&& c) {
                if (oom) throw std::bad_alloc();
                writer.collision(scene, c);
            });
            if (oom) throw std::bad_alloc();
            writer.end_scene(scene, r);
            // A streamed report holds every finished scene whole, whatever happens next.
            if (!file && !held) stdout_.buf().flush_out();
            check_ms += ms_since(t1);
            for (const std::string& sel : r.empty_selectors)
                log_warning(scene.file + ": selector '" + sel + "' selects nothing");
            report_failures(scene, r);
            failed = failed || r.summary.rules_failed > 0 || (opt.fail_on_collision && r.summary.collisions > 0);
            if (r.truncated) {
                log_failure("stopped after " + std::to_string(copt.max_collisions) + " collisions (--max-collisions) in " +
                            scene.file + "; rules saw only those");
                failed = true;
            }
        }
        current.clear();
        writer.finish();
        if (file) {
            file->commit();
        } else {
            if (held) held->copy_to(stdout_.buf());
            stdout_.finish();
        }
        log_verbose("check and write " + std::to_string(check_ms) + " ms");
        return failed ? ExitCode::Failed : ExitCode::Ok;
    } catch (const WriteError& e) {
        return fail(e.what());
    } catch (const collide::Error& e) {
        return fail(e.what());
    } catch (const std::bad_alloc&) {
        return fail(about(current, "out of memory"));
    } catch (const std::exception& e) {
        // A library bug, not the user's: say so, and still exit 2 rather than abort.
        return fail(about(current, internal_error_message(e)));
    }
}
