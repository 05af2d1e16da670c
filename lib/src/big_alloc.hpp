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

}  // namespace collide::detail
