#include "heap.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>

#if defined(__GLIBC__) && defined(__linux__)
#include <malloc.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#define COLLIDE_GLIBC_HEAP 1
#endif

namespace {
#ifdef COLLIDE_GLIBC_HEAP
constexpr int kTrimThreshold = 1 << 30;
#endif
}  // namespace

void tune_heap() {
#ifdef COLLIDE_GLIBC_HEAP
    // On the virtual machines we measure on, a page touched for the first time costs several
    // microseconds, more when the host has taken back memory a finished program freed; the
    // scene text (121 MB for a million shapes) freed after parsing then holds the check's
    // arrays. Peak memory stays about the same.
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
#endif
}

void reserve_huge_heap(std::size_t bytes) {
#if defined(COLLIDE_GLIBC_HEAP) && defined(MADV_HUGEPAGE)
    constexpr std::size_t kMin = std::size_t{16} << 20;
    constexpr std::size_t kMax = std::size_t{768} << 20;  // below the trim threshold: never given back
    static_assert(kMax < static_cast<std::size_t>(kTrimThreshold), "the room would be trimmed as it is freed");
    if (bytes < kMin || static_cast<long>(::getpid()) != static_cast<long>(::syscall(SYS_gettid))) return;
    bytes = std::min(bytes, kMax);
    // With mmap off (tune_heap), this block is the top of the heap; freed, it stays there as
    // free room that the next allocations are cut from, in address order.
    void* block = std::malloc(bytes);
    if (!block) return;
    constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
    const auto begin = (reinterpret_cast<std::uintptr_t>(block) + kHuge - 1) & ~(kHuge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(block) + bytes) & ~(kHuge - 1);
    if (begin < end && madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE) == 0) {
        // A huge page the host has taken back costs some 4 ms to touch again, more than its 512
        // small pages (about 1 ms), where a recently freed one costs 0.1-0.3 ms: the first one,
        // touched now, says which kind the system has at hand, and the advice is withdrawn
        // when they are the slow kind (tests/bench/README.md, Godot scenes, fourth round).
        const auto start = std::chrono::steady_clock::now();
        *reinterpret_cast<volatile char*>(begin) = 0;
        if (std::chrono::steady_clock::now() - start > std::chrono::microseconds(1000))
            (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_NOHUGEPAGE);
    }
    std::free(block);
#else
    (void)bytes;
#endif
}
