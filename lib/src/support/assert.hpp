// COLLIDE_ASSERT(cond): an invariant of the library's own making (never a check of input,
// which is an Error with a location). Checked in Debug and sanitized builds (COLLIDE_CHECKED,
// set by CMake), where a broken one throws std::logic_error naming the condition, file and
// line, so the command line reports it as an internal error and a fuzzer as a crash; compiled
// out in Release, where the condition is not evaluated. Box2D's B2_ASSERT habit.
#pragma once

#ifdef COLLIDE_CHECKED
#include <stdexcept>
#include <string>

namespace collide::detail {
[[noreturn]] inline void assertion_failed(const char* cond, const char* file, int line) {
    throw std::logic_error(std::string("assertion failed: ") + cond + " (" + file + ":" + std::to_string(line) + ")");
}
}  // namespace collide::detail

#define COLLIDE_ASSERT(cond) \
    ((cond) ? static_cast<void>(0) : ::collide::detail::assertion_failed(#cond, __FILE__, __LINE__))
#else
#define COLLIDE_ASSERT(cond) static_cast<void>(0)
#endif
