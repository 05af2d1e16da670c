// The progress line of a long run (SPEC §3): on standard error when it is a terminal, never
// otherwise, never with -q.
//
//     collide: 3/10 files read · 1,000,000 shapes · 12,345,678 pairs tested · 596 collisions · 2.4 s
//
// Drawn first after a second (a shorter run shows nothing), then redrawn every 200 ms in
// place ("\r", the text, erase to the end of the line), cut to the terminal's width; erased
// when the run ends, so that what follows starts on a clean line. Diagnostics (log.hpp)
// erase it before they are written and it is redrawn below them. No colour, so NO_COLOR has
// nothing to turn off; TERM=dumb (a terminal that cannot erase a line) shows no line.
//
// Use (a command reading inputs and checking them):
//
//     ProgressLine progress(!args.quiet, args.files.size());
//     scenes = read_check_inputs(args, copt.threads, progress.read());
//     copt.progress = progress.check();
//     ... collide::check(...) ...
//     progress.stop();  // before the result is written to standard output
#pragma once

#include "io.hpp"

#include <collide/check.hpp>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>

class ProgressLine {
public:
    /// Shows the line when `wanted` (the command's own conditions: not -q, ...) and standard
    /// error is a terminal; otherwise nothing is ever written, and read() and check() are null.
    ProgressLine(bool wanted, std::size_t files);
    ~ProgressLine() { stop(); }
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    /// Counters for read_check_inputs / read_scenes, or null when the line is not shown.
    ReadProgress* read() { return active_ ? &read_ : nullptr; }
    /// Counters for CheckOptions::progress, or null when the line is not shown.
    collide::CheckProgress* check() { return active_ ? &check_ : nullptr; }
    /// Stops drawing and erases the line; the destructor calls it. Idempotent.
    void stop();

private:
    void run(std::chrono::milliseconds delay);
    void draw();   // under stderr_lock
    void erase();  // under stderr_lock

    const bool active_;
    const std::size_t files_;
    const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    ReadProgress read_;
    collide::CheckProgress check_;
    bool drawn_ = false;       // under stderr_lock: the line is on the screen
    bool final_draw_ = false;  // the test hook's: stop() draws the final counts first
    std::mutex mutex_;         // guards stopping_
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};
