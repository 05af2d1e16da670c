#include "log.hpp"

#include <collide/report.hpp>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace {
std::shared_ptr<spdlog::logger> g_log;
bool g_quiet = false;
}  // namespace

void init_log() {
    g_log = spdlog::stderr_logger_st("collide");
    g_log->set_pattern("collide: %v");
    g_log->set_level(spdlog::level::info);
    g_log->flush_on(spdlog::level::trace);
}

void set_log_quiet(bool quiet) { g_quiet = quiet; }
void set_log_verbose(bool verbose) { g_log->set_level(verbose ? spdlog::level::debug : spdlog::level::info); }

// Every line is escaped whole (collide::printable): ids, rule names, file names and keys
// quoted in messages come from the input, and a newline or ESC in one must not start a line
// that looks like a diagnostic of its own ("collide: error: forged") or drive the terminal.
void log_error(const std::string& msg) { g_log->error("error: {}", collide::printable(msg)); }
void log_warning(const std::string& msg) {
    if (!g_quiet) g_log->warn("warning: {}", collide::printable(msg));
}
void log_failure(const std::string& msg) {
    if (!g_quiet) g_log->info("{}", collide::printable(msg));
}
void log_verbose(const std::string& msg) { g_log->debug("{}", collide::printable(msg)); }

std::string internal_error_message(const std::exception& e) {
    return std::string("internal error: ") + e.what() + " (a bug in collide; please report it with the input)";
}
