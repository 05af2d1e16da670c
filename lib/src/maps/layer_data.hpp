// Tile layer data as Tiled writes it (layer_data.cpp): CSV, or base64 of little-endian
// 32-bit gids, uncompressed or compressed with zlib, gzip (zlib, RFC 1950/1952) or zstd
// (libzstd). Decoding streams in 64 KiB pieces into packed gids, bounded by the cells the layer
// declares: a tiny stream that would inflate to gigabytes fails after count * 4 + 1 bytes,
// and memory follows the distinct tiles, not four bytes a cell.
#pragma once

#include "support/assert.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace collide::detail {

/// The gids of a tile layer or chunk, row-major, flip flags kept: each cell an index into a
/// palette of the distinct gids, packed in 0, 1, 2, 4, 8, 16 or 32 bits as the palette needs.
/// A layer uses a few dozen tiles, so a cell takes a byte or less, and an empty layer of
/// 16384 x 16384 nothing (its gids as 32-bit words took 1 GiB).
class Gids {
public:
    void push_back(std::uint32_t gid) {
        std::uint32_t index = last_index_;
        if (palette_.empty() || gid != palette_[last_index_]) {
            if (!recent(gid, index)) {
                index = palette_index(gid);
                recent_[gid % kRecent] = Recent{gid, index + 1};
            }
        }
        if (bits_ != 0) {
            const std::size_t bit = size_ * bits_;
            if (bit / 64 >= words_.size()) words_.push_back(0);  // append_le32 may have made room
            words_[bit / 64] |= std::uint64_t{index} << (bit % 64);
        }
        ++size_;
    }
    /// n gids written as little-endian 32-bit words at p (Tiled's layer data), appended.
    void append_le32(const unsigned char* p, std::size_t n);
    template <class It>
    void assign(It first, It last) {
        *this = Gids();
        for (; first != last; ++first) push_back(*first);
    }

    std::uint32_t operator[](std::size_t k) const { return palette_[index(k)]; }
    /// The distinct gids, in order of first use, and where cell k's gid is among them: a
    /// question asked of every cell (is it solid?) is asked once a tile this way.
    const std::vector<std::uint32_t>& palette() const { return palette_; }
    std::size_t index(std::size_t k) const {
        COLLIDE_ASSERT(k < size_);
        if (bits_ == 0) return 0;
        const std::size_t bit = k * bits_;
        return static_cast<std::size_t>((words_[bit / 64] >> (bit % 64)) & ((std::uint64_t{1} << bits_) - 1));
    }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    /// Bits a cell takes (0 when every cell holds the same gid).
    unsigned bits_per_cell() const { return bits_; }

    friend bool operator==(const Gids& a, const std::vector<std::uint32_t>& b) {
        if (a.size() != b.size()) return false;
        for (std::size_t k = 0; k < b.size(); ++k)
            if (a[k] != b[k]) return false;
        return true;
    }
    friend bool operator==(const std::vector<std::uint32_t>& a, const Gids& b) { return b == a; }
    friend bool operator!=(const Gids& a, const std::vector<std::uint32_t>& b) { return !(a == b); }
    friend bool operator!=(const std::vector<std::uint32_t>& a, const Gids& b) { return !(b == a); }

private:
    // Whether gid was met lately; then its palette index, now the last one, is `index`.
    bool recent(std::uint32_t gid, std::uint32_t& index) {
        const Recent& r = recent_[gid % kRecent];
        if (r.index_plus_1 == 0 || r.gid != gid) return false;
        index = last_index_ = r.index_plus_1 - 1;
        return true;
    }
    // The palette index of a gid, adding it (and widening the cells) when it is new.
    std::uint32_t palette_index(std::uint32_t gid);

    std::vector<std::uint32_t> palette_;                 // distinct gids, in order of first use
    std::unordered_map<std::uint32_t, std::uint32_t> index_;  // gid -> palette index
    std::vector<std::uint64_t> words_;                   // the cells' indices, bits_ each
    std::size_t size_ = 0;
    unsigned bits_ = 0;
    std::uint32_t last_index_ = 0;  // of the last gid pushed: runs of one tile are common
    // Gids met lately, by gid modulo kRecent (a tileset's gids are consecutive): most cells
    // that change tile find theirs here, not in index_.
    struct Recent {
        std::uint32_t gid = 0;
        std::uint32_t index_plus_1 = 0;  // 0: empty
    };
    static constexpr std::uint32_t kRecent = 64;
    Recent recent_[kRecent];
};

/// Thrown with a message that the map reader completes with the file and layer.
class DataError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The `count` gids of a layer or chunk written with `encoding` "csv" or "base64" and
/// `compression` "" (none), "zlib", "gzip" or "zstd". Whitespace around values (CSV) and in
/// base64 text is ignored. Throws DataError when the text is not that encoding, the stream is
/// corrupt, or it holds more or fewer than `count` gids.
Gids decode_tile_data(std::string_view text, std::string_view encoding,
                                            std::string_view compression, std::uint64_t count);

/// Base64 (RFC 4648, standard alphabet, padding optional, whitespace ignored) to bytes;
/// written into `room` (a string whose capacity another thread reserved, so that the memory
/// goes back to that thread's heap when freed).
std::string decode_base64(std::string_view text, std::string room = {});

}  // namespace collide::detail
