// `collide render`: check one scene as `check` would and draw it as an SVG picture.
#include "check_args.hpp"
#include "commands.hpp"
#include "io.hpp"
#include "log.hpp"
#include "output.hpp"
#include "progress.hpp"

#include <collide/check.hpp>
#include <collide/render.hpp>

#include <memory>
#include <optional>

namespace {

ExitCode run_render(const CheckArgs& opt) {
    if (!apply_color(opt.color)) return ExitCode::BadInput;
    set_log_quiet(opt.quiet);
    set_log_verbose(opt.verbose);
    collide::CheckOptions copt;
    if (!to_check_options(opt, copt)) return ExitCode::BadInput;
    if (opt.files.size() != 1) {
        log_error("render draws one scene: give one FILE (got " + std::to_string(opt.files.size()) + ")");
        return ExitCode::BadInput;
    }
    std::optional<Destination> dest;
    try {
        // The picture is held until it is complete, so the line can show however it is written.
        ProgressLine progress(!opt.quiet, opt.files.size());
        copt.progress = progress.check();
        const std::vector<collide::Scene> scenes = read_check_inputs(opt, copt.threads, progress.read());
        if (scenes.size() != 1) {
            log_error(opt.files[0] + ": render draws one scene, and this file holds " + std::to_string(scenes.size()) +
                      " (name one level: FILE.ldtk#LEVEL)");
            return ExitCode::BadInput;
        }
        const collide::Scene& scene = scenes[0];
        if (opt.verbose) log_converted(scene);
        // The picture gathers what it draws as the records stream: memory follows the scene
        // and the picture, not the number of pairs.
        collide::SvgPicture picture(scene);
        const collide::SceneResult r = collide::check(
            scene, copt, [&](collide::Collision&& c) { picture.collision(c); },
            [&](const collide::NearPair& n) { picture.near(n); });
        progress.stop();
        dest.emplace(opt.output, true);
        picture.write(dest->stream(), r);
        dest->commit();
        return scene_failed(opt, copt, scene, r) ? ExitCode::Failed : ExitCode::Ok;
    } catch (const std::exception& e) {
        if (dest) dest->abandon();
        if (dynamic_cast<const WriteError*>(&e) || dynamic_cast<const collide::Error*>(&e)) log_error(e.what());
        else if (dynamic_cast<const std::bad_alloc*>(&e)) log_error(opt.files[0] + ": out of memory");
        else log_error(opt.files[0] + ": " + internal_error_message(e));
        return ExitCode::BadInput;
    }
}

}  // namespace

Runner setup_render(CLI::App& sub) {
    return runner_for(run_render, [&](CheckArgs& opt) {
        add_check_args(sub, opt, false,
                       "One scene file or map: Tiled .tmx/.tmj/.json, LDtk FILE.ldtk#LEVEL, Godot .tscn ('-' reads standard input)");
    });
}
