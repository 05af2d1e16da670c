// Huge-page advice for big arrays (lib/src/big_alloc.hpp): it must never change what a
// vector holds, and on Linux it marks the advised memory for transparent huge pages.
#include "support/big_alloc.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace {

using collide::detail::advise_huge_pages;
using collide::detail::kHugeAdviceMin;
using collide::detail::reserve_huge;

// The VmFlags line of the mapping in /proc/self/smaps that holds `address`, or "" when
// there is no such file or mapping.
std::string vm_flags_at(std::uintptr_t address) {
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        std::uintptr_t lo = 0, hi = 0;
        char dash = 0;
        std::istringstream head(line);
        if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
            inside = lo <= address && address < hi;
        } else if (inside && line.rfind("VmFlags:", 0) == 0) {
            return line;
        }
    }
    return "";
}

}  // namespace

TEST_CASE("reserve_huge reserves like reserve and keeps the elements") {
    SUBCASE("an empty vector gets room for n, filled as usual") {
        std::vector<std::uint64_t> v;
        const std::size_t n = 3 * kHugeAdviceMin / sizeof(std::uint64_t);
        reserve_huge(v, n);
        CHECK(v.empty());
        CHECK(v.capacity() >= n);
        v.resize(n);
        std::iota(v.begin(), v.end(), std::uint64_t{7});
        CHECK(v.front() == 7);
        CHECK(v[n / 2] == 7 + n / 2);
        CHECK(v.back() == 7 + n - 1);
    }
    SUBCASE("a vector with elements keeps them, in order") {
        std::vector<int> v{5, 4, 3, 2, 1};
        reserve_huge(v, kHugeAdviceMin);
        CHECK(v.capacity() >= kHugeAdviceMin);
        CHECK(v == std::vector<int>{5, 4, 3, 2, 1});
    }
    SUBCASE("no reallocation when there is room already") {
        std::vector<int> v(100, 9);
        v.reserve(1000);
        const int* before = v.data();
        reserve_huge(v, 500);
        CHECK(v.data() == before);
        CHECK(v.capacity() >= 1000);
    }
}

TEST_CASE("advise_huge_pages leaves memory as it was") {
    std::vector<unsigned char> bytes(3 * kHugeAdviceMin);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(i * 31u);
    // Ranges that start and end anywhere: only the whole huge pages inside are advised.
    advise_huge_pages(bytes.data() + 1, bytes.size() - 3);
    advise_huge_pages(bytes.data() + 4097, kHugeAdviceMin);
    advise_huge_pages(bytes.data(), 100);  // under the minimum: nothing happens
    advise_huge_pages(nullptr, 0);
    bool same = true;
    for (std::size_t i = 0; i < bytes.size(); ++i) same = same && bytes[i] == static_cast<unsigned char>(i * 31u);
    CHECK(same);
}

#if defined(__linux__)
TEST_CASE("on Linux with transparent huge pages, the advised range is marked for them") {
    // Without THP in the kernel there is nothing to mark; the test says so and asserts nothing.
    if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled")) {
        MESSAGE("no /sys/kernel/mm/transparent_hugepage: kernel without THP, nothing to check");
        return;
    }
    // Fresh pages from the kernel (malloc may hand back memory advised earlier).
    const std::size_t size = 2 * kHugeAdviceMin;
    void* block = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(block != MAP_FAILED);
    // A 2 MiB-aligned address well inside the block: within the advised range.
    constexpr std::uintptr_t k2M = std::uintptr_t{2} << 20;
    const std::uintptr_t inside = (reinterpret_cast<std::uintptr_t>(block) + k2M - 1) / k2M * k2M + 4096;
    const std::string before = vm_flags_at(inside);
    REQUIRE(!before.empty());
    CHECK(before.find(" hg") == std::string::npos);
    advise_huge_pages(block, size);
    const std::string after = vm_flags_at(inside);
    INFO("VmFlags: " << after);
    CHECK(after.find(" hg") != std::string::npos);  // "hg": MADV_HUGEPAGE given
    munmap(block, size);
}
#endif

TEST_CASE("PairLog: pairs come out in order, once, whatever their number") {
    using collide::detail::PairLog;
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, PairLog::kChunk, PairLog::kChunk + 1, 3 * PairLog::kChunk + 7}) {
        PairLog log;
        for (std::size_t i = 0; i < n; ++i) log.push({i, n - i});
        CHECK(log.size() == n);
        std::vector<PairLog::Pair> out{{7, 7}};
        log.move_into(out);
        CHECK(log.size() == 0);
        REQUIRE(out.size() == n + 1);
        CHECK(out.capacity() == n + 1);  // grown once, to its size
        bool same = out[0] == PairLog::Pair{7, 7};
        for (std::size_t i = 0; i < n; ++i) same = same && out[i + 1] == PairLog::Pair{i, n - i};
        CHECK(same);
        log.push({1, 2});  // usable again
        CHECK(log.size() == 1);
    }
}
