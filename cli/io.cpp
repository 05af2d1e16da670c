#include "io.hpp"

#include <collide/error.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

namespace {
// The temporary output in progress, for the signal handler (a fixed buffer: only
// async-signal-safe calls happen there).
char g_pending_tmp[4096] = {0};

void on_signal(int sig) {
    if (g_pending_tmp[0] != '\0') unlink(g_pending_tmp);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}
}  // namespace

void install_signal_cleanup() {
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::signal(SIGHUP, on_signal);
}

std::string read_input(const std::string& path) {
    if (path == "-") {
        std::string text;
        char buf[1 << 16];
        std::size_t n = 0;
        while ((n = std::fread(buf, 1, sizeof buf, stdin)) > 0) text.append(buf, n);
        if (std::ferror(stdin)) throw collide::Error(path, "", std::string("cannot read standard input: ") + std::strerror(errno));
        return text;
    }
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw collide::Error(path, "", std::string("cannot open: ") + std::strerror(errno));
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(f, &std::fclose);
    // A regular file is read in one go into a string of its size (no growth, no copies);
    // anything else (a FIFO, a device, a file that grows) in pieces.
    std::string text;
    struct stat st {};
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        text.resize(static_cast<std::size_t>(st.st_size));
    std::size_t have = std::fread(text.data(), 1, text.size(), f);
    text.resize(have);
    if (!std::ferror(f)) {
        char buf[1 << 16];
        std::size_t n = 0;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    }
    if (std::ferror(f)) throw collide::Error(path, "", std::string("cannot read: ") + std::strerror(errno));
    return text;
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
    struct stat target {};
    if (stat(path_.c_str(), &target) == 0 && !S_ISREG(target.st_mode)) {
        // A device, FIFO or the like (-o /dev/null): write to it directly; renaming over it
        // would replace it with a regular file.
        direct_ = true;
        out_.open(path_, std::ios::binary);
        if (!out_) throw collide::Error(path_, "", std::string("cannot write output: ") + std::strerror(errno));
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
    const int fd = mkstemp(templ.data());
    if (fd < 0) throw collide::Error(path_, "", std::string("cannot create output: ") + std::strerror(errno));
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
    close(fd);
    tmp_ = templ;
    if (tmp_.size() < sizeof g_pending_tmp) std::memcpy(g_pending_tmp, tmp_.c_str(), tmp_.size() + 1);
    out_.open(tmp_, std::ios::binary | std::ios::trunc);
    if (!out_) throw collide::Error(path_, "", std::string("cannot write output: ") + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
    if (direct_) return;
    if (!done_) {
        out_.close();
        std::remove(tmp_.c_str());
    }
    g_pending_tmp[0] = '\0';
}

void AtomicFile::commit() {
    if (direct_) {
        out_.flush();
        if (!out_) throw collide::Error(path_, "", std::string("cannot write output: ") + std::strerror(errno));
        done_ = true;
        return;
    }
    out_.flush();
    const bool ok = static_cast<bool>(out_);
    out_.close();
    if (!ok || std::rename(tmp_.c_str(), path_.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        std::remove(tmp_.c_str());
        done_ = true;
        g_pending_tmp[0] = '\0';
        throw collide::Error(path_, "", "cannot write output: " + why);
    }
    done_ = true;
    g_pending_tmp[0] = '\0';
}
