#include "support/big_alloc.hpp"

#include <cstdint>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace collide::detail {

void advise_huge_pages(const void* p, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes < kHugeAdviceMin) return;
    constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
    const auto begin = (reinterpret_cast<std::uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(kHuge - 1);
    // madvise wants page-aligned ranges of mapped memory: these are whole huge pages inside
    // an allocation. A failure (no THP support, an old kernel) only means small pages.
    if (begin < end) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

namespace {

PairLog::Pair* take_chunk() {
    constexpr std::size_t bytes = PairLog::kChunk * sizeof(PairLog::Pair);
#if defined(__linux__)
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return static_cast<PairLog::Pair*>(p);
#else
    return static_cast<PairLog::Pair*>(::operator new(bytes));
#endif
}

void give_back(PairLog::Pair* p) noexcept {
#if defined(__linux__)
    (void)munmap(p, PairLog::kChunk * sizeof(PairLog::Pair));
#else
    ::operator delete(p);
#endif
}

}  // namespace

PairLog::~PairLog() {
    for (Pair* c : chunks_) give_back(c);
}

void PairLog::grow() {
    chunks_.reserve(chunks_.size() + 1);  // so that push_back cannot throw after the chunk is taken
    chunks_.push_back(take_chunk());
    last_ = 0;
}

void PairLog::move_into(std::vector<Pair>& out) {
    out.reserve(out.size() + size());
    out.insert(out.end(), head_.begin(), head_.end());
    head_ = std::vector<Pair>();
    for (std::size_t k = 0; k < chunks_.size(); ++k) {
        const std::size_t n = k + 1 == chunks_.size() ? last_ : kChunk;
        out.insert(out.end(), chunks_[k], chunks_[k] + n);
        give_back(chunks_[k]);
        chunks_[k] = nullptr;
    }
    chunks_.clear();
    last_ = 0;
}

}  // namespace collide::detail
