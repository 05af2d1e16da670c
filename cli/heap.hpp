// The CLI's use of glibc's heap (heap.cpp): set once at start, and room on huge pages for a
// big input. The library leaves the process's allocator alone; these are the program's choices.
#pragma once

#include <cstddef>

/// Memory freed by one phase is handed out again by the next instead of going back to the
/// system: big blocks come from the heap, not from mmap, and the heap is not trimmed.
void tune_heap();

/// Room for about `bytes` more of the heap, backed by transparent huge pages: one page fault
/// per 2 MiB instead of per 4 KiB for what a big input's reading allocates next. Only its first
/// huge page is touched, to tell whether huge pages are quick to get now (the room is taken
/// and given back at once: the rest counts in no one's RSS until used); when they are not,
/// the room stays on small pages. Only on the main thread (the heap the others use is their
/// own), only for 16 MiB or more, at most 768 MiB; does nothing elsewhere than glibc on Linux.
void reserve_huge_heap(std::size_t bytes);
