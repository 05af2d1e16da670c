// Big arrays on transparent huge pages.
//
// On the virtual machines collide is benchmarked on, the first touch of a 4 KiB page costs
// several microseconds in the kernel: a 1M-shape scene took ~125,000 page faults, about a fifth
// of its run time. Linux backs a range advised with MADV_HUGEPAGE by 2 MiB pages when
// transparent huge pages are in "madvise" mode (Debian's default), one fault per 2 MiB. The
// advice changes no result; where it is not available it does nothing. It stays with the
// memory when malloc later hands it out again (harmless: that gets huge pages too).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace collide::detail {

/// Arrays below this many bytes are left to ordinary pages (a huge page is 2 MiB).
inline constexpr std::size_t kHugeAdviceMin = std::size_t{4} << 20;

/// Asks that the whole 2 MiB pages inside [p, p + bytes) be backed by huge pages; best done
/// before the range is first written. Does nothing for ranges under kHugeAdviceMin or when
/// the system refuses.
void advise_huge_pages(const void* p, std::size_t bytes) noexcept;

/// v.reserve(n), with the advice for the storage beyond v's current elements: for a vector
/// about to be filled with many elements.
template <class T>
void reserve_huge(std::vector<T>& v, std::size_t n) {
    if (n <= v.capacity()) return;
    v.reserve(n);
    advise_huge_pages(v.data() + v.size(), (v.capacity() - v.size()) * sizeof(T));
}

/// A long list of index pairs (a rule's violations) gathered in chunks taken from the system
/// on their own (mmap on Linux) and given back one by one as move_into copies them: the peak
/// is the pairs once plus one chunk. A vector grown by doubling holds up to three times them
/// while it grows, and glibc keeps what it frees.
class PairLog {
public:
    using Pair = std::pair<std::size_t, std::size_t>;
    static constexpr std::size_t kChunk = std::size_t{1} << 16;  // pairs (1 MiB)

    PairLog() = default;
    ~PairLog();
    PairLog(PairLog&& other) noexcept
        : head_(std::move(other.head_)), chunks_(std::move(other.chunks_)), last_(other.last_) {
        other.chunks_.clear();
    }
    PairLog& operator=(PairLog&&) = delete;
    PairLog(const PairLog&) = delete;
    PairLog& operator=(const PairLog&) = delete;

    void push(Pair p) {
        if (chunks_.empty() && head_.size() < kChunk) {  // most lists are short: no mapping of their own
            head_.push_back(p);
            return;
        }
        if (chunks_.empty() || last_ == kChunk) grow();
        chunks_.back()[last_++] = p;
    }
    std::size_t size() const { return head_.size() + (chunks_.empty() ? 0 : (chunks_.size() - 1) * kChunk + last_); }
    /// Appends the pairs, in order, to `out` (grown once, to its exact size) and empties the log.
    void move_into(std::vector<Pair>& out);

private:
    void grow();
    std::vector<Pair> head_;     // the first kChunk pairs
    std::vector<Pair*> chunks_;  // the rest
    std::size_t last_ = 0;  // pairs in the last chunk
};

}  // namespace collide::detail
