#include "log.hpp"

#include <CLI/CLI.hpp>
#include <collide/report.hpp>

#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace {
std::shared_ptr<spdlog::logger> g_log;
bool g_quiet = false;
bool g_color = false;

// ANSI SGR sequences (ECMA-48 §8.3.117): the word that says what a line is, coloured.
std::string painted(const char* sgr, const std::string& word) {
    return g_color ? std::string(sgr) + word + "\x1b[0m" : word;
}
std::mutex g_stderr;
std::function<void()> g_erase;

// Writes one diagnostic at `level` (when the level is shown), first clearing the progress line.
void write(spdlog::level::level_enum level, const std::string& line) {
    if (!g_log->should_log(level)) return;
    std::lock_guard<std::mutex> lock(g_stderr);
    if (g_erase) g_erase();
    g_log->log(level, "{}", line);
}
}  // namespace

std::mutex& stderr_lock() { return g_stderr; }
void set_log_erase(std::function<void()> erase) {
    std::lock_guard<std::mutex> lock(g_stderr);
    g_erase = std::move(erase);
}

void init_log() {
    g_log = spdlog::stderr_logger_st("collide");
    g_log->set_pattern("collide: %v");
    g_log->set_level(spdlog::level::info);
    g_log->flush_on(spdlog::level::trace);
    g_color = colors_for("auto", STDERR_FILENO);
}

CLI::Option* add_color_option(CLI::App& sub, std::string& when) {
    return sub.add_option("--color", when, "Colour text reports and diagnostics: auto (a terminal, and no NO_COLOR), always or never")
        ->type_name("WHEN")
        ->default_str("auto");
}

bool colors_for(const std::string& when, int fd) {
    if (when != "auto") return when == "always";
    const char* no_color = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    return fd >= 0 && isatty(fd) == 1 && (!no_color || !*no_color) && !(term && std::strcmp(term, "dumb") == 0);
}

bool apply_color(const std::string& when) {
    if (when != "auto" && when != "always" && when != "never") {
        log_error("--color: '" + when + "' is not one of always, auto, never");
        return false;
    }
    g_color = colors_for(when, STDERR_FILENO);
    return true;
}

void set_log_quiet(bool quiet) { g_quiet = quiet; }
void set_log_verbose(bool verbose) { g_log->set_level(verbose ? spdlog::level::debug : spdlog::level::info); }

// Every line is escaped whole (collide::printable): ids, rule names, file names and keys
// quoted in messages come from the input, and a newline or ESC in one must not start a line
// that looks like a diagnostic of its own ("collide: error: forged") or drive the terminal.
void log_error(const std::string& msg) {
    write(spdlog::level::err, painted("\x1b[1;31m", "error:") + " " + collide::printable(msg));
}
void log_warning(const std::string& msg) {
    if (!g_quiet) write(spdlog::level::warn, painted("\x1b[1;33m", "warning:") + " " + collide::printable(msg));
}
// Never hidden by -q: these lines say why the exit status is 1 (SPEC §3).
void log_failure(const std::string& msg) { write(spdlog::level::info, painted("\x1b[31m", collide::printable(msg))); }
void log_verbose(const std::string& msg) { write(spdlog::level::debug, collide::printable(msg)); }

std::string internal_error_message(const std::exception& e) {
    return std::string("internal error: ") + e.what() + " (a bug in collide; please report it with the input)";
}
