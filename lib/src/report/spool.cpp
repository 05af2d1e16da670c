#include "report/spool.hpp"

#include "collide/error.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

namespace collide::detail {

namespace {

constexpr std::size_t kHeld = std::size_t{4} << 20;

[[noreturn]] void fail(const std::string& what, const std::string& dir, int err) {
    throw Error("", "", "cannot " + what + " a temporary file in " + dir + " (for the near pairs): " + std::strerror(err));
}

}  // namespace

void Spool::spill_if_big() {
    if (mem_.size() >= kHeld) spill();
}

void Spool::spill() {
    if (!file_) {
        const char* tmp = std::getenv("TMPDIR");
        dir_ = tmp && *tmp ? tmp : "/tmp";
        std::string path = dir_ + "/collide-near-XXXXXX";
        const int fd = mkstemp(path.data());
        if (fd < 0) fail("make", dir_, errno);
        (void)unlink(path.c_str());  // nobody else sees it; it goes when it is closed
        file_.reset(fdopen(fd, "w+b"));
        if (!file_) {
            const int err = errno;
            (void)close(fd);
            fail("open", dir_, err);
        }
    }
    if (std::fwrite(mem_.data(), 1, mem_.size(), file_.get()) != mem_.size()) fail("write", dir_, errno);
    mem_.clear();
}

void Spool::copy_to(std::ostream& out) {
    if (file_) {
        if (std::fflush(file_.get()) != 0) fail("write", dir_, errno);
        std::rewind(file_.get());
        std::string block(std::size_t{1} << 16, '\0');
        std::size_t got = 0;
        while ((got = std::fread(block.data(), 1, block.size(), file_.get())) > 0)
            out.write(block.data(), static_cast<std::streamsize>(got));
        if (std::ferror(file_.get())) fail("read back", dir_, errno);
        file_.reset();
    }
    out.write(mem_.data(), static_cast<std::streamsize>(mem_.size()));
    mem_.clear();
}

}  // namespace collide::detail
