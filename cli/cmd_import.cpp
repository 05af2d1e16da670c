// collide import MAP: the scene a Tiled map, an LDtk level or a Godot scene becomes (SPEC §1.5, §1.6, §3).
#include "commands.hpp"
#include "io.hpp"
#include "log.hpp"
#include "map_input.hpp"
#include "output.hpp"

#include <collide/maps.hpp>

#include <memory>

namespace {
struct ImportArgs {
    std::string map;
    std::string output;
    bool quiet = false;
    std::string color = "auto";  // --color
};

ExitCode run_import(const ImportArgs& opt) {
    if (!apply_color(opt.color)) return ExitCode::BadInput;
    set_log_quiet(opt.quiet);
    try {
        MapArgument map = map_argument(opt.map);
        std::vector<collide::MapImport> scenes;
        if (map.format == collide::MapFormat::None) {
            const InputText text = read_input(opt.map);
            scenes = import_if_tiled_json(opt.map, text, collide::MapBuild::TextAndScene);
            if (scenes.empty())
                throw collide::Error(opt.map, "", "not a map: collide imports Tiled maps (.tmx, .tmj, or .json with "
                                                  "\"type\": \"map\"), LDtk projects (.ldtk) and Godot scenes (.tscn)");
        } else {
            scenes = import_map_argument(map, collide::MapBuild::TextAndScene);
        }
        if (scenes.size() != 1) {
            std::string names;
            for (const collide::MapImport& m : scenes) names += (names.empty() ? "" : ", ") + m.name;
            throw collide::Error(opt.map, "", "the project has " + std::to_string(scenes.size()) +
                                                  " levels: import one of them (" + names + ")");
        }
        const collide::MapImport& scene = scenes.front();
        // What is printed is a valid scene: the scene built beside the text from the same walk
        // over the map says so (as reading the text back would, in the same words).
        (void)collide::read_map_scene(scene);
        for (const std::string& w : scene.warnings) log_warning(w);
        if (!opt.output.empty()) {
            install_signal_cleanup();
            AtomicFile file(opt.output);
            collide::write_scene_text(scene, file.stream());
            file.commit();
        } else {
            StdOut out;
            collide::write_scene_text(scene, out.stream());
            out.finish();
        }
        return ExitCode::Ok;
    } catch (const WriteError& e) {
        log_error(e.what());
    } catch (const collide::Error& e) {
        log_error(e.what());
    } catch (const std::bad_alloc&) {
        log_error(opt.map + ": out of memory");
    } catch (const std::exception& e) {
        log_error(opt.map + ": " + internal_error_message(e));
    }
    return ExitCode::BadInput;
}

}  // namespace

Runner setup_import(CLI::App& sub) {
    return runner_for(run_import, [&](ImportArgs& opt) {
        sub.add_option("map", opt.map, "A Tiled map (.tmx, .tmj, .json), an LDtk level (FILE.ldtk#LEVEL) or a Godot scene (.tscn)")
            ->type_name("MAP")
            ->required();
        sub.add_option("-o,--output", opt.output, "Write the scene to this file (whole or not at all)")->type_name("PATH");
        add_color_option(sub, opt.color);
        sub.add_flag("-q,--quiet", opt.quiet, "No warnings on stderr");
    });
}
