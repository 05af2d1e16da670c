#include "progress.hpp"

#include "log.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>

#include <sys/ioctl.h>
#include <unistd.h>

namespace {

using std::chrono::milliseconds;

constexpr milliseconds kDelay{1000};   // a run shorter than this shows nothing
constexpr milliseconds kPeriod{200};   // often enough to look alive, rarely enough to cost nothing

// A test hook (tests/cli/test_progress.py): COLLIDE_TEST_PROGRESS_DELAY_MS=N draws the line
// first after N ms instead of a second (0: at once, before anything is read), and makes the
// last line drawn, just before it is erased, show the final counts, so that a test reads
// them. It changes nothing when standard error is not a terminal.
const char* delay_hook() { return std::getenv("COLLIDE_TEST_PROGRESS_DELAY_MS"); }

// "12,345,678": counts of millions are read at a glance.
std::string grouped(std::uint64_t n) {
    std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t k = 0; k < digits.size(); ++k) {
        if (k && (digits.size() - k) % 3 == 0) out += ',';
        out += digits[k];
    }
    return out;
}

std::string count(std::uint64_t n, const char* one, const char* many) { return grouped(n) + " " + (n == 1 ? one : many); }

// The terminal's width, 0 when it does not say (then the line is not cut).
std::size_t columns() {
    winsize w{};
    return ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 ? w.ws_col : 0;
}

// The first `n` characters of UTF-8 text (each one column wide here: ASCII and '·').
std::string cut(const std::string& s, std::size_t n) {
    std::size_t chars = 0;
    for (std::size_t k = 0; k < s.size(); ++k) {
        if ((static_cast<unsigned char>(s[k]) & 0xC0) == 0x80) continue;  // a continuation byte
        if (chars++ == n) return s.substr(0, k);
    }
    return s;
}

void write_all(const std::string& s) {
    const char* p = s.data();
    std::size_t left = s.size();
    while (left > 0) {
        const ssize_t k = ::write(STDERR_FILENO, p, left);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return;  // a progress line is not worth an error
        p += k;
        left -= static_cast<std::size_t>(k);
    }
}

bool dumb_terminal() {
    const char* term = std::getenv("TERM");
    return term && std::strcmp(term, "dumb") == 0;
}

}  // namespace

ProgressLine::ProgressLine(bool wanted, std::size_t files)
    : active_(wanted && isatty(STDERR_FILENO) == 1 && !dumb_terminal()), files_(files) {
    if (!active_) return;
    milliseconds delay = kDelay;
    if (const char* hook = delay_hook()) {
        delay = milliseconds(std::strtoll(hook, nullptr, 10));
        final_draw_ = true;
    }
    set_log_erase([this] { erase(); });
    if (delay.count() <= 0) {
        std::lock_guard<std::mutex> lock(stderr_lock());
        draw();
        delay = kPeriod;
    }
    try {
        thread_ = std::thread([this, delay] { run(delay); });
    } catch (const std::system_error&) {
        // No thread to spare: the run goes on without the line (stop() cannot see it drawn).
        set_log_erase({});
        std::lock_guard<std::mutex> lock(stderr_lock());
        erase();
    }
}

void ProgressLine::run(milliseconds delay) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (milliseconds wait = delay; !wake_.wait_for(lock, wait, [this] { return stopping_; }); wait = kPeriod) {
        lock.unlock();
        {
            std::lock_guard<std::mutex> out(stderr_lock());
            draw();
        }
        lock.lock();
    }
}

void ProgressLine::stop() {
    if (!thread_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
    set_log_erase({});
    std::lock_guard<std::mutex> lock(stderr_lock());
    if (final_draw_) draw();
    erase();
}

void ProgressLine::draw() {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    char elapsed[32];
    std::snprintf(elapsed, sizeof elapsed, "%.1f s", seconds);
    const std::uint64_t pairs = check_.pairs_tested.load(std::memory_order_relaxed);
    std::string line = "collide: " + grouped(read_.files.load(std::memory_order_relaxed)) + "/" + grouped(files_) +
                       " files read · " + count(read_.shapes.load(std::memory_order_relaxed), "shape", "shapes") +
                       " · " + count(pairs, "pair tested", "pairs tested") + " · " +
                       count(check_.collisions.load(std::memory_order_relaxed), "collision", "collisions") + " · " +
                       elapsed;
    // One column short of the width: a line that fills the last column wraps on some terminals,
    // and "\r" would then redraw on the row below.
    if (const std::size_t width = columns(); width > 1) line = cut(line, width - 1);
    write_all("\r" + line + "\x1b[K");
    drawn_ = true;
}

void ProgressLine::erase() {
    if (!drawn_) return;
    write_all("\r\x1b[K");
    drawn_ = false;
}
