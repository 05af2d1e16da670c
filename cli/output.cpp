#include "output.hpp"

#include "log.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {
constexpr std::size_t kBuf = std::size_t{1} << 16;
// What a held report keeps in memory before it goes to a temporary file: small next to
// what a check needs anyway, and the streaming promise (a huge answer needs no memory for
// its collisions) holds for JSON on standard output too.
constexpr std::size_t kHoldInMemory = std::size_t{8} << 20;
}  // namespace

WriteError::WriteError(const std::string& doing, int err) : std::runtime_error(doing + ": " + std::strerror(err)) {}

FdBuf::FdBuf(int fd, std::string doing) : fd_(fd), doing_(std::move(doing)), buf_(new char[kBuf]) {
    setp(buf_.get(), buf_.get() + kBuf);
}

void FdBuf::write_all(const char* p, std::size_t n) {
    while (n > 0) {
        const ssize_t k = ::write(fd_, p, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            throw WriteError(doing_, errno);
        }
        if (k == 0) throw WriteError(doing_, EIO);  // write(2) never does this for n > 0
        p += k;
        n -= static_cast<std::size_t>(k);
    }
}

void FdBuf::flush_out() {
    const std::size_t n = static_cast<std::size_t>(pptr() - pbase());
    setp(buf_.get(), buf_.get() + kBuf);  // also when the write fails: nothing is written twice
    write_all(buf_.get(), n);
}

FdBuf::int_type FdBuf::overflow(int_type c) {
    flush_out();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
        *pptr() = traits_type::to_char_type(c);
        pbump(1);
    }
    return traits_type::not_eof(c);
}

std::streamsize FdBuf::xsputn(const char* s, std::streamsize n) {
    const auto un = static_cast<std::size_t>(n);
    if (un <= static_cast<std::size_t>(epptr() - pptr())) {
        std::memcpy(pptr(), s, un);
        pbump(static_cast<int>(n));
        return n;
    }
    flush_out();
    if (un >= kBuf) {
        write_all(s, un);  // big pieces (a report writer's 64 KiB) go straight out
    } else {
        std::memcpy(pptr(), s, un);
        pbump(static_cast<int>(n));
    }
    return n;
}

int FdBuf::sync() {
    flush_out();
    return 0;
}

HeldBuf::HeldBuf() {
    const char* tmp = std::getenv("TMPDIR");
    dir_ = tmp && *tmp ? tmp : "/tmp";
}

HeldBuf::~HeldBuf() {
    if (file_) ::close(file_->fd());
}

void HeldBuf::spill() {
    std::string name = dir_ + "/collide-report-XXXXXX";
    const int fd = mkstemp(name.data());
    if (fd < 0) throw WriteError("creating a temporary file for the report in " + dir_, errno);
    ::unlink(name.c_str());  // nothing to clean up, however the program ends
    file_ = std::make_unique<FdBuf>(fd, "writing the report's temporary file in " + dir_);
    file_->sputn(mem_.data(), static_cast<std::streamsize>(mem_.size()));
    std::string().swap(mem_);
}

HeldBuf::int_type HeldBuf::overflow(int_type c) {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
    return c;
}

std::streamsize HeldBuf::xsputn(const char* s, std::streamsize n) {
    if (!file_ && mem_.size() + static_cast<std::size_t>(n) > kHoldInMemory) spill();
    if (file_) return file_->sputn(s, n);
    mem_.append(s, static_cast<std::size_t>(n));
    return n;
}

void HeldBuf::copy_to(FdBuf& out) {
    if (!file_) {
        out.sputn(mem_.data(), static_cast<std::streamsize>(mem_.size()));
        return;
    }
    file_->flush_out();
    const std::string doing = "reading the report's temporary file in " + dir_;
    if (::lseek(file_->fd(), 0, SEEK_SET) < 0) throw WriteError(doing, errno);
    std::vector<char> piece(std::size_t{1} << 20);
    for (;;) {
        const ssize_t k = ::read(file_->fd(), piece.data(), piece.size());
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) throw WriteError(doing, errno);
        if (k == 0) break;
        out.sputn(piece.data(), k);
    }
}

StdOut::StdOut() : buf_(STDOUT_FILENO, "writing standard output"), out_(&buf_) {
    out_.exceptions(std::ios::badbit);
}

void StdOut::finish() {
    buf_.flush_out();
    // close(2) reports what a file system may keep until then (NFS, quotas). EINTR leaves
    // the descriptor closed on Linux: nothing to retry.
    if (::close(STDOUT_FILENO) != 0 && errno != EINTR) throw WriteError("writing standard output", errno);
}

bool print_to_stdout(const std::function<void(std::ostream&)>& write) {
    try {
        StdOut out;
        write(out.stream());
        out.finish();
        return true;
    } catch (const WriteError& e) {
        log_error(e.what());
        return false;
    }
}

long long stdout_rewind_point() {
    struct stat out {}, err {};
    if (::fstat(STDOUT_FILENO, &out) != 0 || !S_ISREG(out.st_mode)) return -1;
    if (::fstat(STDERR_FILENO, &err) == 0 && err.st_dev == out.st_dev && err.st_ino == out.st_ino) return -1;
    const int flags = ::fcntl(STDOUT_FILENO, F_GETFL);
    if (flags == -1 || (flags & O_ACCMODE) == O_RDONLY) return -1;
    if (flags & O_APPEND) return static_cast<long long>(out.st_size);
    const off_t at = ::lseek(STDOUT_FILENO, 0, SEEK_CUR);
    return at < 0 ? -1 : static_cast<long long>(at);
}

void rewind_stdout(long long at) {
    // Best effort: the failure being reported is the one that matters.
    if (::ftruncate(STDOUT_FILENO, static_cast<off_t>(at)) == 0) (void)::lseek(STDOUT_FILENO, static_cast<off_t>(at), SEEK_SET);
}

void guard_standard_descriptors() {
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        const int got = ::open("/dev/null", fd == STDERR_FILENO ? O_WRONLY : O_RDONLY);
        if (got >= 0 && got != fd) {  // the lowest free number is fd, unless a lower one was closed too
            ::dup2(got, fd);
            ::close(got);
        }
    }
}
