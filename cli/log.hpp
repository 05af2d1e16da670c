// Diagnostics on stderr, one line each, prefixed "collide: ".
#pragma once

#include <exception>
#include <functional>
#include <mutex>
#include <string>

namespace CLI {
class App;
class Option;
}  // namespace CLI

void init_log();
void set_log_quiet(bool quiet);
void set_log_verbose(bool verbose);
/// `--color WHEN` on `sub`, filling `when` (default "auto").
CLI::Option* add_color_option(CLI::App& sub, std::string& when);
/// Whether output on descriptor `fd` is coloured under `--color when`: "always", "never", or
/// "auto": `fd` is a terminal, NO_COLOR is unset or empty (no-color.org) and TERM is not
/// "dumb". A negative `fd` (a file) is never a terminal.
bool colors_for(const std::string& when, int fd);
/// Checks `--color when` and colours the diagnostics by it (until then, as "auto" would);
/// false after logging a usage error.
bool apply_color(const std::string& when);
/// "collide: error: ..." — always shown.
void log_error(const std::string& msg);
/// "collide: warning: ..." — hidden by -q.
void log_warning(const std::string& msg);
/// "collide: ..." — a failed rule or expectation; hidden by -q.
void log_failure(const std::string& msg);
/// "collide: ..." — shown with -v only.
void log_verbose(const std::string& msg);
/// Standard error is shared with the progress line (progress.hpp): each diagnostic is
/// written holding this lock, after `erase` (set by set_log_erase) has cleared whatever the
/// line drew, so that a diagnostic never lands inside it. Whoever draws holds the lock too.
std::mutex& stderr_lock();
/// Called (under stderr_lock) before each diagnostic; an empty function for none.
void set_log_erase(std::function<void()> erase);
/// The message for an exception the library should not have thrown (a bug in collide).
std::string internal_error_message(const std::exception& e);
