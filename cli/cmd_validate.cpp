#include "commands.hpp"
#include "inputs.hpp"
#include "io.hpp"
#include "log.hpp"
#include "output.hpp"

#include <collide/report.hpp>
#include <collide/scene.hpp>

#include <algorithm>
#include <memory>
#include <thread>

namespace {
struct ValidateArgs {
    std::vector<std::string> files;
    std::vector<std::string> exclude;  // --exclude GLOB, for folders
    bool quiet = false;
    std::string color = "auto";  // --color
    bool verbose = false;
};

std::string count(std::size_t n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// Every file is checked, so that one run lists every broken level.
ExitCode run_validate(const ValidateArgs& opt) {
    set_log_verbose(opt.verbose);
    if (!apply_color(opt.color)) return ExitCode::BadInput;
    set_log_quiet(opt.quiet);
    bool all_ok = true;
    // A big file's shapes are read and built on two threads when the machine has them (the
    // scene and its errors never depend on it); files one after the other, in order.
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 2u);
    std::vector<std::string> files;
    try {
        files = expand_inputs(opt.files, opt.exclude);
    } catch (const collide::Error& e) {
        log_error(e.what());
        return ExitCode::BadInput;
    }
    StdOut out;
    for (const std::string& f : files) {
        try {
            std::vector<std::string> warnings;
            const std::vector<collide::Scene> scenes = read_input_scenes(f, threads, warnings);
            for (const std::string& w : warnings) log_warning(w);
            for (const collide::Scene& s : scenes) {
                if (opt.verbose) log_converted(s);
                if (!opt.quiet)
                    out.stream() << collide::printable(s.file) << ": valid (" << count(s.shapes.size(), "shape") << ", "
                                 << count(s.grids.size(), "grid") << ", " << count(s.moves.size(), "move") << ", "
                                 << count(s.rules.size(), "rule") << ")\n";
            }
        } catch (const WriteError& e) {
            log_error(e.what());  // the lines that follow could not be written either
            return ExitCode::BadInput;
        } catch (const collide::Error& e) {
            log_error(e.what());
            all_ok = false;
        } catch (const std::bad_alloc&) {
            log_error(f + ": out of memory");
            all_ok = false;
        } catch (const std::exception& e) {
            log_error(f + ": " + internal_error_message(e));
            all_ok = false;
        }
    }
    try {
        out.finish();
    } catch (const WriteError& e) {
        log_error(e.what());
        return ExitCode::BadInput;
    }
    return all_ok ? ExitCode::Ok : ExitCode::BadInput;
}

}  // namespace

Runner setup_validate(CLI::App& sub) {
    return runner_for(run_validate, [&](ValidateArgs& opt) {
        sub.add_option("files", opt.files, "Scene files and maps ('-' reads standard input)")
            ->type_name("FILE")
            ->required();
        add_exclude_option(sub, opt.exclude);
        add_color_option(sub, opt.color);
        sub.add_flag("-q,--quiet", opt.quiet, "Print nothing on success, and no warnings");
        sub.add_flag("-v,--verbose", opt.verbose, "Say on stderr what each box and ellipse is read as");
    });
}
