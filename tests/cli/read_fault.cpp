// An LD_PRELOAD shim for the CLI tests: reading a file whose name ends in ".readfault.json"
// fails part way through, as a disk or network error would. The first fread() on it gets
// half of what it asks for, then the descriptor is closed under it, so the rest of the read
// fails (EBADF) and the stream's error indicator is set, exactly as for a real I/O error.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace {
std::FILE* g_victim = nullptr;

template <class F>
F next(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

bool is_victim(const char* path) {
    static const char suffix[] = ".readfault.json";
    const std::size_t n = std::strlen(path), k = sizeof suffix - 1;
    return n >= k && std::strcmp(path + n - k, suffix) == 0;
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
    const std::size_t half = real(buf, 1, n / 2, f);
    close(fileno(f));
    return half + real(static_cast<char*>(buf) + half, 1, n - half, f);
}
