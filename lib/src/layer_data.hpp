// Tile layer data as Tiled writes it (layer_data.cpp): CSV, or base64 of little-endian
// 32-bit gids, uncompressed or compressed with zlib, gzip (zlib, RFC 1950/1952) or zstd
// (libzstd). Decoding is bounded by the cells the layer declares, so a tiny stream that would
// inflate to gigabytes fails after count * 4 + 1 bytes, having taken no more memory than that.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace collide::detail {

/// An allocator whose new elements are left uninitialised: a layer's gids are written whole
/// by their decoder, so the 64 MB of a 4096 x 4096 layer are not zero-filled first.
template <class T>
struct NoInit : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = NoInit<U>;
    };
    NoInit() = default;
    template <class U>
    NoInit(const NoInit<U>&) noexcept {}  // NOLINT: as std::allocator converts
    template <class U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... A>
    void construct(U* p, A&&... a) {
        ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
    }
};

/// The gids of a tile layer or chunk, row-major, flip flags kept.
using Gids = std::vector<std::uint32_t, NoInit<std::uint32_t>>;

inline bool operator==(const Gids& a, const std::vector<std::uint32_t>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}
inline bool operator==(const std::vector<std::uint32_t>& a, const Gids& b) { return b == a; }
inline bool operator!=(const Gids& a, const std::vector<std::uint32_t>& b) { return !(a == b); }
inline bool operator!=(const std::vector<std::uint32_t>& a, const Gids& b) { return !(b == a); }

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

/// Base64 (RFC 4648, standard alphabet, padding optional, whitespace ignored) to bytes.
std::string decode_base64(std::string_view text);

}  // namespace collide::detail
