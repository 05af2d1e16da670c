// A set of strings for a few hundred thousand short names, inserted and never removed (the ids
// a map's converter hands out). The strings are kept end to end in one buffer and found by
// open addressing with linear probing (Knuth, TAOCP vol. 3, 6.4, algorithm L) over a table of
// slots: an insert is a hash, a probe or two and an append, where std::unordered_set makes a
// node and a string of its own for each. A slot holds the entry's index and the high half of
// its hash, so a probe past another string reads no entry (a cache miss each, in a table of
// hundreds of thousands).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace collide::detail {

class StringSet {
public:
    /// Room for `n` strings before the table grows.
    void reserve(std::size_t n) {
        entries_.reserve(n);
        if (n * 2 > slots_.size()) rehash(n * 2);
    }

    /// Adds `s`; false when it was there already.
    bool insert(std::string_view s) { return insert(s, hash(s)); }
    /// The same, `h` being hash(s).
    bool insert(std::string_view s, std::size_t h) {
        if ((entries_.size() + 1) * 2 > slots_.size()) rehash(slots_.empty() ? 64 : slots_.size() * 2);
        std::size_t i = h & (slots_.size() - 1);
        for (; slots_[i] != 0; i = (i + 1) & (slots_.size() - 1))
            if (same(slots_[i], h, s)) return false;
        entries_.push_back(Entry{h, chars_.size(), s.size()});
        chars_.append(s);
        slots_[i] = slot(h, entries_.size() - 1);
        return true;
    }

    static std::size_t hash(std::string_view s) { return std::hash<std::string_view>()(s); }
    /// Asks the memory for the slot where a string of hash `h` starts its probe: strings
    /// inserted in bulk hash all, touch all, then insert, their cache misses overlapped.
    void prefetch(std::size_t h) const {
#if defined(__GNUC__)
        if (!slots_.empty()) __builtin_prefetch(&slots_[h & (slots_.size() - 1)]);
#else
        (void)h;
#endif
    }

    bool contains(std::string_view s) const {
        if (slots_.empty()) return false;
        const std::size_t h = std::hash<std::string_view>()(s);
        for (std::size_t i = h & (slots_.size() - 1); slots_[i] != 0; i = (i + 1) & (slots_.size() - 1))
            if (same(slots_[i], h, s)) return true;
        return false;
    }

    std::size_t size() const { return entries_.size(); }

private:
    struct Entry {
        std::size_t hash;
        std::size_t offset, length;  // in chars_
    };

    std::string_view view(const Entry& e) const { return std::string_view(chars_).substr(e.offset, e.length); }

    // A slot: the hash's high half above entry index + 1 (0: an empty slot).
    static std::uint64_t slot(std::size_t hash, std::size_t k) {
        return (std::uint64_t{hash} >> 32 << 32) | (static_cast<std::uint64_t>(k) + 1);
    }
    bool same(std::uint64_t in_slot, std::size_t h, std::string_view s) const {
        if ((in_slot ^ std::uint64_t{h}) >> 32 != 0) return false;
        const Entry& e = entries_[static_cast<std::size_t>(in_slot & 0xFFFFFFFFu) - 1];
        return e.hash == h && view(e) == s;
    }

    // A table of at least `want` slots, a power of two, every entry placed again.
    void rehash(std::size_t want) {
        std::size_t size = 64;
        while (size < want) size *= 2;
        slots_.assign(size, 0);
        for (std::size_t k = 0; k < entries_.size(); ++k) {
            std::size_t i = entries_[k].hash & (size - 1);
            while (slots_[i] != 0) i = (i + 1) & (size - 1);
            slots_[i] = slot(entries_[k].hash, k);
        }
    }

    std::string chars_;                 // every string, end to end
    std::vector<Entry> entries_;        // in order of insertion
    std::vector<std::uint64_t> slots_;  // slot(), or 0: empty; a power of two long
};

}  // namespace collide::detail
