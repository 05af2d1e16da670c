#include "commands.hpp"
#include "output.hpp"

namespace {
ExitCode run_schema() {
    return print_to_stdout([](std::ostream& out) { out << kSceneSchema; }) ? ExitCode::Ok : ExitCode::BadInput;
}
}  // namespace

Runner setup_schema(CLI::App&) { return run_schema; }
