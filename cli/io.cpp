#include "io.hpp"
#include "log.hpp"
#include "map_input.hpp"

#include <collide/error.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <memory>
#include <new>
#include <sstream>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {
// The temporary output in progress, for the signal handler (a fixed buffer: only
// async-signal-safe calls happen there).
char g_pending_tmp[4096] = {0};

void on_signal(int sig) {
    if (g_pending_tmp[0] != '\0') unlink(g_pending_tmp);
    // Blocked while its handler runs, the signal raised again arrives on return with its
    // default action, so the exit status is the signal's (a fault re-executes and faults).
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

// Every signal whose default action ends the program (signal(7)), synchronous faults
// included: a temporary of hundreds of MB must not outlive the program however it ends.
// SIGKILL cannot be caught; the real-time signals are added at run time.
constexpr int kTerminating[] = {SIGHUP,  SIGINT,    SIGQUIT,   SIGILL,  SIGTRAP, SIGABRT, SIGBUS,  SIGFPE,
                                SIGUSR1, SIGSEGV,   SIGUSR2,   SIGPIPE, SIGALRM, SIGTERM, SIGXCPU, SIGXFSZ,
                                SIGVTALRM, SIGPROF, SIGIO,     SIGSYS,
#ifdef SIGSTKFLT
                                SIGSTKFLT,
#endif
#ifdef SIGPWR
                                SIGPWR,
#endif
};

// Only a signal left at its default action gets the handler: one the caller ignores (nohup
// ignores SIGHUP, `trap '' INT` SIGINT) stays ignored, and one that already has a handler
// keeps it (a sanitizer's fault handler, whose report would otherwise be lost).
void clean_up_on(int sig) {
    struct sigaction now {};
    if (sigaction(sig, nullptr, &now) != 0 || (now.sa_flags & SA_SIGINFO) != 0 || now.sa_handler != SIG_DFL) return;
    struct sigaction act {};
    act.sa_handler = on_signal;
    sigemptyset(&act.sa_mask);
    (void)sigaction(sig, &act, nullptr);
}

// Storage about to be filled by reads: backed by 2 MiB pages where the system allows it
// (transparent huge pages in "madvise" mode). A 121 MB scene otherwise takes ~30,000 page
// faults of several microseconds each on a virtual machine. Only whole huge pages inside the
// block are advised; failure just leaves small pages.
void advise_huge(char* p, std::size_t n) {
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t k2M = std::uintptr_t{1} << 21;
    if (n < 2 * k2M) return;
    const std::uintptr_t from = (reinterpret_cast<std::uintptr_t>(p) + k2M - 1) / k2M * k2M;
    const std::uintptr_t to = (reinterpret_cast<std::uintptr_t>(p) + n) / k2M * k2M;
    if (from < to) (void)madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}
}  // namespace

void install_signal_cleanup() {
    for (const int sig : kTerminating) clean_up_on(sig);
#if defined(SIGRTMIN) && defined(SIGRTMAX)
    for (int sig = SIGRTMIN; sig <= SIGRTMAX; ++sig) clean_up_on(sig);
#endif
}

char* InputText::reserve_tail(std::size_t n) {
    if (capacity_ - size_ < n) {
        // realloc, not new + copy: glibc grows the block in place, at the top of its heap (the
        // executable keeps big blocks off mmap, see main.cpp) or with mremap, so a 1 GB pipe
        // costs 1 GB, not the 2-3 GB of copying into ever larger arrays.
        const std::size_t want = std::max(size_ + n, capacity_ + capacity_ / 2);
        void* bigger = std::realloc(data_.get(), want);
        if (!bigger) throw std::bad_alloc();
        (void)data_.release();
        data_.reset(static_cast<char*>(bigger));
        capacity_ = want;
    }
    return data_.get() + size_;
}

void InputText::append(const char* bytes, std::size_t n) {
    std::memcpy(reserve_tail(n), bytes, n);
    commit(n);
}

namespace {
// Whether the text's first byte after a byte-order mark and white space is there and cannot
// start a JSON value (a stream of NUL bytes, /dev/zero): the reader's error is at that
// byte whatever follows, so reading stops there.
bool cannot_start_json(std::string_view text) {
    std::size_t i = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
    if (i == text.size()) return false;
    return std::string_view("{[\"-0123456789tfn").find(text[i]) == std::string_view::npos;
}
}  // namespace

InputText read_input(const std::string& path) {
    const bool stdin_ = path == "-";
    std::FILE* f = stdin_ ? stdin : std::fopen(path.c_str(), "rb");
    if (!f) throw collide::Error(path, "", std::string("cannot open: ") + std::strerror(errno));
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(stdin_ ? nullptr : f, &std::fclose);
    // A regular file is read in one go into storage of its size; anything else (a pipe, a
    // device, a file that grows meanwhile) in pieces.
    InputText text;
    struct stat st {};
    std::size_t chunk = std::size_t{1} << 16;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        chunk = static_cast<std::size_t>(st.st_size) + 1;  // + 1: the read that sees the end
    // The first 4 KiB alone, to see whether the text can be JSON at all before room is made
    // for all of it.
    bool checked = false;
    std::size_t want = std::min<std::size_t>(chunk, 4096);
    for (;;) {
        const std::size_t got = std::fread(text.reserve_tail(want), 1, want, f);
        text.commit(got);
        if (!checked && got > 0 && text.view().find_first_not_of(" \t\r\n\xEF\xBB\xBF") != std::string_view::npos) {
            checked = true;
            if (cannot_start_json(text.view())) return text;
        }
        if (got < want) break;
        if (want < chunk) {
            want = chunk - text.view().size();  // the rest of a regular file
            if (want > 0) {
                // Not for storage that grows: a block moved by mremap that holds huge pages
                // came out 40% over its size in resident memory (256 MiB through a pipe: 383 MB
                // against 267).
                advise_huge(text.reserve_tail(want), want);
                continue;
            }
        }
        chunk = std::size_t{1} << 16;
        want = chunk;
    }
    if (std::ferror(f))
        throw collide::Error(path, "", std::string(stdin_ ? "cannot read standard input: " : "cannot read: ") + std::strerror(errno));
    return text;
}

namespace {

// Regular files from this size on are read in the background while parsing starts: reading
// a 121 MB file into fresh memory took a quarter of a second before parsing could begin.
constexpr std::size_t kBackgroundMin = std::size_t{8} << 20;
constexpr std::size_t kPiece = std::size_t{1} << 20;

// The file changed size while being read in the background: read it again the plain way.
struct FileChanged {};

// A regular file of known size read into memory by a thread of its own, piece by piece;
// wait_for() is ReadOptions::wait_for. Destroyed early (the scene had an error), it stops
// after the piece in progress.
class BackgroundRead {
public:
    BackgroundRead(std::FILE* f, std::string path, std::size_t size) : path_(std::move(path)), size_(size) {
        text_.reset(static_cast<char*>(std::malloc(size + 1)));
        if (!text_) {
            std::fclose(f);
            throw std::bad_alloc();
        }
        advise_huge(text_.get(), size + 1);
        try {
            worker_ = std::thread([this, f] { run(f); });
        } catch (...) {
            std::fclose(f);
            throw;
        }
    }
    ~BackgroundRead() {
        stop_ = true;
        worker_.join();
    }
    BackgroundRead(const BackgroundRead&) = delete;
    BackgroundRead& operator=(const BackgroundRead&) = delete;

    std::string_view text() const { return {text_.get(), size_}; }

    // Blocks until the first n bytes are in, or with n >= size all of them and the end of the
    // file seen right after; returns how many are. Throws collide::Error on a read error,
    // FileChanged when the file turned out shorter or longer than it was.
    std::size_t wait_for(std::size_t n) {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return finished_ || (n < size_ && ready_ >= n); });
        if (error_) throw collide::Error(path_, "", std::string("cannot read: ") + std::strerror(error_));
        if (changed_) throw FileChanged{};
        return ready_;
    }

private:
    struct Free {
        void operator()(char* p) const { std::free(p); }
    };

    void run(std::FILE* f) {
        std::size_t done = 0;
        int error = 0;
        bool changed = false;
        while (!stop_ && done < size_) {
            const std::size_t want = std::min(kPiece, size_ - done);
            const std::size_t got = std::fread(text_.get() + done, 1, want, f);
            done += got;
            if (got < want) {
                if (std::ferror(f)) error = errno ? errno : EIO;
                else changed = true;  // shorter than it was
                break;
            }
            if (done == size_) break;  // the last bytes count once the end is checked
            std::lock_guard<std::mutex> lock(m_);
            ready_ = done;
            cv_.notify_all();
        }
        if (!stop_ && !error && !changed) {  // the end of the file must be where it was
            if (std::fread(text_.get() + size_, 1, 1, f) != 0) changed = true;
            else if (std::ferror(f)) error = errno ? errno : EIO;
        }
        std::fclose(f);
        std::lock_guard<std::mutex> lock(m_);
        ready_ = done;
        error_ = error;
        changed_ = changed;
        finished_ = true;
        cv_.notify_all();
    }

    std::string path_;
    std::size_t size_;
    std::unique_ptr<char, Free> text_;
    std::mutex m_;
    std::condition_variable cv_;
    std::size_t ready_ = 0;
    bool finished_ = false;
    int error_ = 0;
    bool changed_ = false;
    std::atomic<bool> stop_{false};
    std::thread worker_;
};

}  // namespace

namespace {
collide::ReadOptions read_options(unsigned threads, bool sources) {
    collide::ReadOptions options(threads);
    options.sources = sources;
    return options;
}
}  // namespace

collide::Scene read_scene_file(const std::string& path, unsigned threads, bool sources) {
    collide::ReadOptions options = read_options(threads, sources);
    struct stat st {};
    if (threads > 1 && path != "-" && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        static_cast<std::size_t>(st.st_size) >= kBackgroundMin) {
        std::FILE* f = std::fopen(path.c_str(), "rb");
        if (!f) throw collide::Error(path, "", std::string("cannot open: ") + std::strerror(errno));
        // A text that cannot be JSON fails on its first bytes, before room is made for all.
        char head[4096];
        const std::size_t got = std::fread(head, 1, sizeof head, f);
        if (cannot_start_json(std::string_view(head, got))) {
            std::fclose(f);
            return collide::read_scene(std::string_view(head, got), path, read_options(1, sources));
        }
        if (std::fseek(f, 0, SEEK_SET) != 0) {
            std::fclose(f);
            throw collide::Error(path, "", std::string("cannot read: ") + std::strerror(errno));
        }
        try {
            BackgroundRead file(f, path, static_cast<std::size_t>(st.st_size));
            options.wait_for = [&file](std::size_t n) { return file.wait_for(n); };
            return collide::read_scene(file.text(), path, options);
        } catch (const FileChanged&) {
            options.wait_for = nullptr;  // read it whole below
        }
    }
    return collide::read_scene(read_input(path), path, options);
}

namespace {

// The first bytes of a regular file, to tell what it holds before reading it all; nothing for
// anything else (a pipe's bytes cannot be read twice) or a file that cannot be opened (its
// reader says why).
std::optional<std::string> regular_file_head(const std::string& path) {
    struct stat st {};
    if (path == "-" || stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f) return std::nullopt;
    std::string head(4096, '\0');
    head.resize(std::fread(head.data(), 1, head.size(), f.get()));
    return head;
}
}  // namespace

std::vector<collide::Scene> read_input_scenes(const std::string& arg, unsigned threads, std::vector<std::string>& warnings,
                                             bool sources) {
    std::vector<collide::Scene> out;
    const auto from_maps = [&](std::vector<collide::MapImport> maps) {
        for (collide::MapImport& m : maps) {
            warnings.insert(warnings.end(), m.warnings.begin(), m.warnings.end());
            out.push_back(collide::read_map_scene(std::move(m), read_options(threads, sources)));
        }
        return std::move(out);  // not a copy of every shape
    };
    const MapArgument map = map_argument(arg);
    if (map.format != collide::MapFormat::None) return from_maps(import_map_argument(map, collide::MapBuild::Scene));
    // Any other file is a scene by its name, but a `.json` file or standard input may hold a
    // Tiled map: the start of the text tells (collide::detect_format), and a scene's first key
    // is enough. A scene is then read as any other (a big one while it is still being read
    // in); anything else is read once, whole, and goes to the reader the whole text names.
    const bool by_name = collide::detect_format(arg, {}, false).has_value();
    const std::optional<std::string> head = by_name ? std::nullopt : regular_file_head(arg);
    if (by_name || (head && collide::detect_format(arg, *head, head->size() < 4096) == collide::MapFormat::None)) {
        out.push_back(read_scene_file(arg, threads, sources));
        return out;
    }
    const InputText text = read_input(arg);
    std::vector<collide::MapImport> maps = import_if_tiled_json(arg, text, collide::MapBuild::Scene);
    if (!maps.empty()) return from_maps(std::move(maps));
    out.push_back(collide::read_scene(text, arg, read_options(threads, sources)));
    return out;
}

std::vector<collide::Scene> read_scenes(const std::vector<std::string>& files, unsigned threads,
                                        std::vector<std::string>* warnings, ReadProgress* progress, bool sources) {
    // One file: its reader may use two threads; several: one thread a file.
    const unsigned each = files.size() == 1 ? std::min(threads, 2u) : 1u;
    if (std::find(files.begin(), files.end(), "-") != files.end()) threads = 1;
    threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(files.size())));
    std::vector<std::vector<collide::Scene>> scenes(files.size());
    std::vector<std::vector<std::string>> file_warnings(files.size());
    std::vector<std::exception_ptr> errors(files.size());
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> first_bad{files.size()};  // files after it need not be read
    auto work = [&] {
        for (std::size_t k = next++; k < files.size() && k < first_bad; k = next++) {
            try {
                try {
                    scenes[k] = read_input_scenes(files[k], each, file_warnings[k], sources);
                    if (progress) {
                        std::uint64_t shapes = 0;
                        for (const collide::Scene& s : scenes[k]) shapes += s.shapes.size();
                        progress->shapes.fetch_add(shapes, std::memory_order_relaxed);
                        progress->files.fetch_add(1, std::memory_order_relaxed);
                    }
                } catch (const collide::Error&) {
                    throw;
                } catch (const std::bad_alloc&) {
                    throw collide::Error(files[k], "", "out of memory");  // the message names the file
                } catch (const std::exception& e) {
                    throw collide::Error(files[k], "", internal_error_message(e));
                }
            } catch (...) {
                errors[k] = std::current_exception();
                std::size_t bad = first_bad;
                while (k < bad && !first_bad.compare_exchange_weak(bad, k)) {
                }
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    std::vector<collide::Scene> out;
    out.reserve(files.size());
    for (std::size_t k = 0; k < files.size(); ++k) {
        if (errors[k]) std::rethrow_exception(errors[k]);
        for (collide::Scene& s : scenes[k]) out.push_back(std::move(s));
        if (warnings) warnings->insert(warnings->end(), file_warnings[k].begin(), file_warnings[k].end());
    }
    return out;
}

void leave_to_exit(std::vector<collide::Scene>&& scenes) {
    // Reachable from here to the end: a leak checker counts it as memory still in use.
    static auto* const kept = new std::vector<std::vector<collide::Scene>>();
    kept->push_back(std::move(scenes));
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
    struct stat target {};
    if (stat(path_.c_str(), &target) == 0 && !S_ISREG(target.st_mode)) {
        // A device, FIFO or the like (-o /dev/null): write to it directly; renaming over it
        // would replace it with a regular file.
        direct_ = true;
        const int fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (fd < 0) throw collide::Error(path_, "", std::string("cannot write output: ") + std::strerror(errno));
        open_stream(fd);
        return;
    }
    // A symbolic link keeps pointing where it did: the report replaces the file it names.
    struct stat link {};
    if (lstat(path_.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
        if (char* real = realpath(path_.c_str(), nullptr)) {
            path_ = real;
            std::free(real);
        } else {  // a dangling link: create the file it names
            std::string to(4096, '\0');
            const ssize_t n = readlink(path_.c_str(), to.data(), to.size() - 1);
            if (n > 0) {
                to.resize(static_cast<std::size_t>(n));
                const std::size_t slash = path_.rfind('/');
                path_ = (to[0] == '/' || slash == std::string::npos) ? to : path_.substr(0, slash + 1) + to;
            }
        }
    }
    std::string templ = path_ + ".tmp-XXXXXX";
    // Signals wait while the temporary is created and named for the handler: one arriving
    // in between would leave it behind.
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &before);
    const int fd = mkstemp(templ.data());
    const int mkstemp_errno = errno;
    if (fd >= 0 && templ.size() < sizeof g_pending_tmp) std::memcpy(g_pending_tmp, templ.c_str(), templ.size() + 1);
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    if (fd < 0) throw collide::Error(path_, "", std::string("cannot create output: ") + std::strerror(mkstemp_errno));
    tmp_ = templ;
    open_stream(fd);
    // mkstemp makes the file 0600; a report gets the mode the target has, or 0666 less umask.
    struct stat st {};
    mode_t mode = 0;
    if (stat(path_.c_str(), &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        const mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    fchmod(fd, mode);
}

void AtomicFile::open_stream(int fd) {
    fd_ = fd;
    buf_ = std::make_unique<FdBuf>(fd, path_ + ": cannot write output");
    out_ = std::make_unique<std::ostream>(buf_.get());
    out_->exceptions(std::ios::badbit);
}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0) close(fd_);
    if (!direct_ && !done_) std::remove(tmp_.c_str());
    if (!direct_) g_pending_tmp[0] = '\0';
}

void AtomicFile::commit() {
    buf_->flush_out();
    const int fd = fd_;
    fd_ = -1;
    // close(2) reports what a file system may keep until then (NFS, quotas).
    if (close(fd) != 0 && errno != EINTR) throw WriteError(path_ + ": cannot write output", errno);
    if (!direct_ && std::rename(tmp_.c_str(), path_.c_str()) != 0)
        throw collide::Error(path_, "", std::string("cannot write output: ") + std::strerror(errno));
    done_ = true;
    if (!direct_) g_pending_tmp[0] = '\0';
}

Destination::Destination(const std::string& path, bool whole) {
    if (!path.empty()) {
        install_signal_cleanup();
        file_ = std::make_unique<AtomicFile>(path);
        out_ = &file_->stream();
        return;
    }
    out_ = &stdout_.stream();
    if (!whole) return;
    rewind_at_ = stdout_rewind_point();
    if (rewind_at_ >= 0) return;
    held_ = std::make_unique<HeldBuf>();
    held_stream_ = std::make_unique<std::ostream>(held_.get());
    held_stream_->exceptions(std::ios::badbit);
    out_ = held_stream_.get();
}

void Destination::flush_records() {
    if (!file_ && !held_) stdout_.buf().flush_out();
}

void Destination::commit() {
    if (file_) return file_->commit();
    if (held_) held_->copy_to(stdout_.buf());
    stdout_.finish();
}

void Destination::abandon() {
    if (rewind_at_ >= 0) rewind_stdout(rewind_at_);
}
