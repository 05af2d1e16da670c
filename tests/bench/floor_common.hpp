// What the floor programs (map_floor.cpp, godot_floor.cpp) share: a clock, the exit on error
// (naming the program), and one read of a whole file.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace floor_common {

using Clock = std::chrono::steady_clock;

// Milliseconds since `t`, which moves to now.
inline double ms_since(Clock::time_point& t) {
    const Clock::time_point now = Clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - t).count();
    t = now;
    return ms;
}

// The program's name in its messages ("map_floor: cannot open the map").
inline const char*& program() {
    static const char* name = "floor";
    return name;
}

[[noreturn]] inline void fail(const char* what) {
    std::fprintf(stderr, "%s: %s\n", program(), what);
    std::exit(1);
}

// One read of the whole file into a buffer of its size; `what` ("map", "scene") in messages.
inline std::string read_file(const char* path, const std::string& what) {
    std::FILE* f = std::fopen(path, "rb");
    if (!f || std::fseek(f, 0, SEEK_END) != 0) fail(("cannot open the " + what).c_str());
    const long size = std::ftell(f);
    std::rewind(f);
    if (size < 0) fail(("cannot size the " + what).c_str());
    std::string text(static_cast<size_t>(size), '\0');
    if (std::fread(text.data(), 1, text.size(), f) != text.size()) fail(("cannot read the " + what).c_str());
    std::fclose(f);
    return text;
}

}  // namespace floor_common
