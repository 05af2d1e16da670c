// page_touch: what a first touch of memory costs on this machine, on 4 KiB pages and on
// transparent huge pages (tests/bench/README.md, "Godot scenes", fourth round). Maps MB
// megabytes, advises them as huge pages or not, writes a byte in each 4 KiB page, unmaps; three
// rounds in a row (the later ones reuse what the first freed). C++17 and Linux only.
//
//   c++ -O2 -std=c++17 tests/bench/page_touch.cpp -o /tmp/page_touch
//   /tmp/page_touch 256 1; sleep 8; /tmp/page_touch 256 1; /tmp/page_touch 256 0
//
// Prints one line a round: "256 MB huge=1: 12.2 ms (0.05 ms/MB)".
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: page_touch MB HUGE(0|1)\n");
        return 2;
    }
    const std::size_t bytes = static_cast<std::size_t>(std::atol(argv[1])) << 20;
    const bool huge = std::atoi(argv[2]) != 0;
    constexpr std::size_t kHuge = std::size_t{2} << 20;
    for (int round = 0; round < 3; ++round) {
        void* map = mmap(nullptr, bytes + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (map == MAP_FAILED) {
            std::perror("page_touch: mmap");
            return 1;
        }
        // Aligned to 2 MiB, so that every huge page of the range can be one.
        char* p = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(map) + kHuge - 1) & ~(kHuge - 1));
        if (huge) madvise(p, bytes, MADV_HUGEPAGE);
        const auto start = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < bytes; i += 4096) p[i] = 1;
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        std::printf("%zu MB huge=%d: %.1f ms (%.2f ms/MB)\n", bytes >> 20, huge ? 1 : 0, ms, ms / static_cast<double>(bytes >> 20));
        munmap(map, bytes + kHuge);
    }
    return 0;
}
