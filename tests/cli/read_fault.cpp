// An LD_PRELOAD shim for the CLI tests: reading a file whose name ends in ".readfault.json"
// fails part way through, as a disk or network error would. The first fread() on it gets
// half of what it asks for, then the descriptor is closed under it, so the rest of the read
// fails (EBADF) and the stream's error indicator is set, exactly as for a real I/O error.
// A file whose name ends in ".grows.json" gets "[]" appended, and one ending in
// ".shrinks.json" is cut to 1,000 bytes, right after the first fread() on it, as if another
// program were writing it meanwhile (once a run: the program may then read it again).
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {
std::FILE* g_victim = nullptr;
enum class Fault { Fail, Grow, Shrink } g_fault = Fault::Fail;
std::string g_path;
bool g_changed = false;  // a file has been made to grow or shrink

template <class F>
F next(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

bool ends_with(const char* path, const char* suffix) {
    const std::size_t n = std::strlen(path), k = std::strlen(suffix);
    return n >= k && std::strcmp(path + n - k, suffix) == 0;
}

bool is_victim(const char* path) {
    if (ends_with(path, ".readfault.json")) g_fault = Fault::Fail;
    else if (ends_with(path, ".grows.json") && !g_changed) g_fault = Fault::Grow;
    else if (ends_with(path, ".shrinks.json") && !g_changed) g_fault = Fault::Shrink;
    else return false;
    g_path = path;
    return true;
}
}  // namespace

extern "C" std::FILE* fopen(const char* path, const char* mode) {
    static auto real = next<std::FILE* (*)(const char*, const char*)>("fopen");
    std::FILE* f = real(path, mode);
    if (f && is_victim(path)) g_victim = f;
    return f;
}

extern "C" std::FILE* fopen64(const char* path, const char* mode) {
    static auto real = next<std::FILE* (*)(const char*, const char*)>("fopen64");
    std::FILE* f = real(path, mode);
    if (f && is_victim(path)) g_victim = f;
    return f;
}

extern "C" std::size_t fread(void* buf, std::size_t size, std::size_t n, std::FILE* f) {
    static auto real = next<std::size_t (*)(void*, std::size_t, std::size_t, std::FILE*)>("fread");
    if (f != g_victim || size != 1 || n < 2) return real(buf, size, n, f);
    g_victim = nullptr;  // once
    if (g_fault != Fault::Fail) {
        g_changed = true;
        const std::size_t got = real(buf, size, n, f);
        const int fd = open(g_path.c_str(), O_WRONLY | (g_fault == Fault::Grow ? O_APPEND : 0));
        if (fd >= 0) {
            if (g_fault == Fault::Grow) (void)!write(fd, "[]", 2);
            else (void)!ftruncate(fd, 1000);
            close(fd);
        }
        return got;
    }
    const std::size_t half = real(buf, 1, n / 2, f);
    close(fileno(f));
    return half + real(static_cast<char*>(buf) + half, 1, n - half, f);
}
