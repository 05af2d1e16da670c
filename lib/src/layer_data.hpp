// Tile layer data as Tiled writes it (layer_data.cpp): CSV, or base64 of little-endian
// 32-bit gids, uncompressed or compressed with zlib, gzip (zlib, RFC 1950/1952) or zstd
// (libzstd). Decoding is bounded by the cells the layer declares, so a tiny stream that would
// inflate to gigabytes fails after count * 4 + 1 bytes, having taken no more memory than that.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace collide::detail {

/// Thrown with a message that the map reader completes with the file and layer.
class DataError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The `count` gids of a layer or chunk written with `encoding` "csv" or "base64" and
/// `compression` "" (none), "zlib", "gzip" or "zstd". Whitespace around values (CSV) and in
/// base64 text is ignored. Throws DataError when the text is not that encoding, the stream is
/// corrupt, or it holds more or fewer than `count` gids.
std::vector<std::uint32_t> decode_tile_data(std::string_view text, std::string_view encoding,
                                            std::string_view compression, std::uint64_t count);

/// Base64 (RFC 4648, standard alphabet, padding optional, whitespace ignored) to bytes.
std::string decode_base64(std::string_view text);

}  // namespace collide::detail
