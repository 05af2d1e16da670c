#include "commands.hpp"
#include "log.hpp"
#include "output.hpp"

namespace {
ExitCode run_schema() {
    try {
        StdOut out;
        out.stream() << kSceneSchema;
        out.finish();
        return ExitCode::Ok;
    } catch (const WriteError& e) {
        log_error(e.what());
        return ExitCode::BadInput;
    }
}
}  // namespace

Runner setup_schema(CLI::App&) { return run_schema; }
