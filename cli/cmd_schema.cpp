#include "commands.hpp"

#include <iostream>

void setup_schema(CLI::App&) {}

ExitCode run_schema() {
    std::cout << kSceneSchema;
    std::cout.flush();
    return std::cout ? ExitCode::Ok : ExitCode::BadInput;
}
