// Work split in two shares, one on the calling thread and one on another.
#pragma once

#include <exception>
#include <thread>

namespace collide::detail {

/// Calls f(0) alone when parts is 1; with parts 2, f(1) on a new thread while f(0) runs on
/// this one. Returns once both are done; an exception from either is rethrown (f(0)'s first).
template <class F>
void in_parts(unsigned parts, F&& f) {
    if (parts < 2) {
        f(0u);
        return;
    }
    std::exception_ptr error;
    std::thread other([&] {
        try {
            f(1u);
        } catch (...) {
            error = std::current_exception();
        }
    });
    try {
        f(0u);
    } catch (...) {
        other.join();
        throw;
    }
    other.join();
    if (error) std::rethrow_exception(error);
}

}  // namespace collide::detail
