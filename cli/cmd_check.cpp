#include "check_args.hpp"
#include "commands.hpp"
#include "inputs.hpp"
#include "io.hpp"
#include "log.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "project.hpp"

#include <collide/check.hpp>
#include <collide/findings.hpp>
#include <collide/report.hpp>
#include <collide/scene.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include <unistd.h>

namespace {

const std::map<std::string, collide::Format> kFormats{
    {"json", collide::Format::Json}, {"jsonl", collide::Format::Jsonl},   {"csv", collide::Format::Csv},
    {"text", collide::Format::Text}, {"gcc", collide::Format::Gcc},       {"github", collide::Format::Github},
    {"sarif", collide::Format::Sarif}, {"junit", collide::Format::Junit}};

// The CI formats list findings at their places (SPEC §3.1): they need every line and column.
bool ci_format(collide::Format f) {
    return f == collide::Format::Gcc || f == collide::Format::Github || f == collide::Format::Sarif ||
           f == collide::Format::Junit;
}

// A test hook (tests/cli/test_cli.py), built only with -DCOLLIDE_TEST_HOOKS=ON:
// COLLIDE_TEST_OOM_SCENE=K makes the check of the K-th scene run out of memory at its first
// collision, the one failure part way through a report that a test can cause on demand. 0
// (unset, or a binary without hooks) never.
std::size_t oom_scene_for_tests() {
#ifdef COLLIDE_TEST_HOOKS
    const char* k = std::getenv("COLLIDE_TEST_OOM_SCENE");
    return k ? static_cast<std::size_t>(std::strtoull(k, nullptr, 10)) : 0;
#else
    return 0;
#endif
}

// "level2.json: out of memory": every message names the input it is about, when there is one.
std::string about(const std::string& file, const std::string& what) { return file.empty() ? what : file + ": " + what; }

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

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

namespace {

// A collision as a finding (--fail-on-collision): counted when the baseline does not know it,
// kept for --write-baseline.
void collision_finding(const collide::Scene& scene, collide::Collision&& c, const std::optional<collide::Baseline>& baseline,
                       bool keep, std::vector<collide::Finding>& kept, std::size_t& fresh) {
    collide::SceneResult one;
    one.collisions.push_back(std::move(c));
    collide::FindingOptions fopt;
    fopt.fail_on_collision = true;
    for (collide::Finding& f : collide::findings(scene, one, fopt)) {
        if (f.kind != collide::Finding::Kind::Collision) continue;
        if (baseline && !baseline->known(f)) ++fresh;
        if (keep) kept.push_back(std::move(f));
    }
}

collide::ReportOptions report_options(const CheckArgs& opt, const collide::CheckOptions& copt,
                                      const std::optional<collide::Baseline>& baseline) {
    collide::ReportOptions ropt;
    ropt.points = copt.points;
    ropt.locations = opt.locations;
    ropt.fail_on_collision = opt.fail_on_collision;
    ropt.strict = opt.strict;
    ropt.baseline = baseline ? &*baseline : nullptr;
    ropt.color = colors_for(opt.color, opt.output.empty() ? STDOUT_FILENO : -1);
    return ropt;
}

// One scene checked into the report, its collisions and near pairs streaming from the check
// into the writer in report order; its findings kept in `kept` when given (--write-baseline).
// Whether it fails the run. `oom`: the test hook's scene.
bool check_one(const CheckArgs& opt, const collide::CheckOptions& copt, const collide::Scene& scene,
               collide::ReportWriter& writer, const std::optional<collide::Baseline>& baseline,
               std::vector<collide::Finding>* kept, bool oom) {
    writer.begin_scene(scene);
    std::size_t collisions_new = 0;  // --fail-on-collision with a baseline: the new ones
    const bool collision_findings = opt.fail_on_collision && (baseline || kept);
    std::vector<collide::Finding> none;
    const collide::SceneResult r = collide::check(
        scene, copt,
        [&](collide::Collision&& c) {
            if (oom) throw std::bad_alloc();
            writer.collision(scene, c);
            if (collision_findings) collision_finding(scene, std::move(c), baseline, kept != nullptr, kept ? *kept : none, collisions_new);
        },
        [&](const collide::NearPair& n) { writer.near(scene, n); });
    if (oom) throw std::bad_alloc();
    writer.end_scene(scene, r);
    if (kept)
        for (collide::Finding& f : collide::findings(scene, r, collide::FindingOptions{})) kept->push_back(std::move(f));
    return scene_failed(opt, copt, scene, r, baseline ? &*baseline : nullptr, collisions_new);
}

// collide.json applied to the command line's options: false after an error, which is logged.
bool with_project(CheckArgs& opt) {
    try {
        return apply_project(opt);
    } catch (const collide::Error& e) {
        log_error(e.what());
        return false;
    }
}

ExitCode run_check(const CheckArgs& args) {
    if (!apply_color(args.color)) return ExitCode::BadInput;
    set_log_quiet(args.quiet);
    set_log_verbose(args.verbose);
    // collide.json: the inputs of a bare `collide check`, and options the command line left.
    CheckArgs opt = args;
    if (!with_project(opt)) return ExitCode::BadInput;
    try {
        // Folders: the maps and scenes under them, not the files this run reads for itself.
        opt.files = expand_inputs(opt.files, opt.exclude, {opt.rules, opt.baseline, opt.write_baseline, opt.config});
    } catch (const collide::Error& e) {
        log_error(e.what());
        return ExitCode::BadInput;
    }
    const collide::Format* format = choice(kFormats, "--format", opt.format);
    collide::CheckOptions copt;
    if (!format || !to_check_options(opt, copt)) return ExitCode::BadInput;
    std::string current;  // the input being checked, which a failure is about
    std::optional<Destination> dest;
    const auto fail = [&](const std::string& message) {
        if (dest) dest->abandon();
        log_error(message);
        return ExitCode::BadInput;
    };
    try {
        // A report streaming to the terminal shows its own progress, and a line drawn between
        // its records would garble them.
        const bool streams_to_terminal = opt.output.empty() && isatty(STDOUT_FILENO) == 1 &&
                                         (*format == collide::Format::Jsonl || *format == collide::Format::Csv);
        ProgressLine progress(!opt.quiet && !streams_to_terminal, opt.files.size());
        copt.progress = progress.check();
        // Read everything first: a bad input anywhere leaves stdout and --output untouched.
        std::optional<collide::Baseline> baseline;
        if (!opt.baseline.empty()) baseline = collide::Baseline::read(read_input(opt.baseline), opt.baseline);
        const bool keep_findings = !opt.write_baseline.empty();
        std::vector<collide::Finding> all_findings;  // for --write-baseline
        auto t0 = Clock::now();
        std::vector<collide::Scene> scenes =
            read_check_inputs(opt, copt.threads, progress.read(), opt.locations || ci_format(*format));
        log_verbose("parse " + std::to_string(ms_since(t0)) + " ms (" + std::to_string(scenes.size()) + " files)");
        if (opt.verbose)
            for (const collide::Scene& s : scenes) log_converted(s);

        // Where the report goes: a JSON document and the text report must not be left
        // partial; JSON Lines and CSV stream whole records (README, "Guarantees").
        dest.emplace(opt.output, *format == collide::Format::Json || *format == collide::Format::Text ||
                                     *format == collide::Format::Sarif || *format == collide::Format::Junit);
        std::ostream& out = dest->stream();
        collide::ReportWriter writer(out, *format, report_options(opt, copt, baseline));
        bool failed = false;
        double check_ms = 0;
        const std::size_t oom_scene = oom_scene_for_tests();
        for (std::size_t k = 0; k < scenes.size(); ++k) {
            current = scenes[k].file;
            auto t1 = Clock::now();
            const bool scene_fails = check_one(opt, copt, scenes[k], writer, baseline, keep_findings ? &all_findings : nullptr,
                                               k + 1 == oom_scene);
            // A streamed report holds every finished scene whole, whatever happens next.
            dest->flush_records();
            check_ms += ms_since(t1);
            failed = scene_fails || failed;
        }
        current.clear();
        progress.stop();  // the report may go to the same terminal
        writer.finish();
        if (keep_findings) {
            AtomicFile file(opt.write_baseline);
            file.stream() << collide::Baseline::text(all_findings);
            file.commit();
        }
        dest->commit();
        log_verbose("check and write " + std::to_string(check_ms) + " ms");
        leave_to_exit(std::move(scenes));
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

}  // namespace

Runner setup_check(CLI::App& sub) {
    return runner_for(run_check, [&](CheckArgs& opt) {
        add_check_args(sub, opt, true,
                       "Scene files, folders and maps: Tiled .tmx/.tmj/.json, LDtk .ldtk or FILE.ldtk#LEVEL, Godot .tscn ('-' reads standard input)");
    });
}
