// A set of strings for a few hundred thousand short names, inserted and never removed (the ids
// a map's converter hands out). The strings are kept end to end in one buffer and found by
// open addressing with linear probing (Knuth, TAOCP vol. 3, 6.4, algorithm L) over a table of
// indices: an insert is a hash, a probe or two and an append, where std::unordered_set makes a
// node and a string of its own for each.
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
    bool insert(std::string_view s) {
        if ((entries_.size() + 1) * 2 > slots_.size()) rehash(slots_.empty() ? 64 : slots_.size() * 2);
        const std::size_t h = std::hash<std::string_view>()(s);
        std::size_t i = h & (slots_.size() - 1);
        for (; slots_[i] != 0; i = (i + 1) & (slots_.size() - 1)) {
            const Entry& e = entries_[slots_[i] - 1];
            if (e.hash == h && view(e) == s) return false;
        }
        entries_.push_back(Entry{h, chars_.size(), s.size()});
        chars_.append(s);
        slots_[i] = static_cast<std::uint32_t>(entries_.size());
        return true;
    }

    bool contains(std::string_view s) const {
        if (slots_.empty()) return false;
        const std::size_t h = std::hash<std::string_view>()(s);
        for (std::size_t i = h & (slots_.size() - 1); slots_[i] != 0; i = (i + 1) & (slots_.size() - 1)) {
            const Entry& e = entries_[slots_[i] - 1];
            if (e.hash == h && view(e) == s) return true;
        }
        return false;
    }

    std::size_t size() const { return entries_.size(); }

private:
    struct Entry {
        std::size_t hash;
        std::size_t offset, length;  // in chars_
    };

    std::string_view view(const Entry& e) const { return std::string_view(chars_).substr(e.offset, e.length); }

    // A table of at least `want` slots, a power of two, every entry placed again.
    void rehash(std::size_t want) {
        std::size_t size = 64;
        while (size < want) size *= 2;
        slots_.assign(size, 0);
        for (std::size_t k = 0; k < entries_.size(); ++k) {
            std::size_t i = entries_[k].hash & (size - 1);
            while (slots_[i] != 0) i = (i + 1) & (size - 1);
            slots_[i] = static_cast<std::uint32_t>(k + 1);
        }
    }

    std::string chars_;                 // every string, end to end
    std::vector<Entry> entries_;        // in order of insertion
    std::vector<std::uint32_t> slots_;  // entry index + 1, or 0: empty; a power of two long
};

}  // namespace collide::detail
