// Tile layer data as the map tests write it (test_tmx.cpp, test_tmj.cpp): gids as little-endian
// bytes, compressed with zlib, gzip or zstd, then base64 — the encodings Tiled writes, made with
// the real libraries so that the readers are tested against what they will meet.
#pragma once

#include <doctest/doctest.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <string>
#include <vector>

namespace map_data {

inline std::string base64(const std::string& bytes) {
    static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const std::uint32_t v = std::uint32_t{static_cast<unsigned char>(bytes[i])} << 16 |
                                std::uint32_t{static_cast<unsigned char>(bytes[i + 1])} << 8 |
                                static_cast<unsigned char>(bytes[i + 2]);
        for (int k = 18; k >= 0; k -= 6) out += kAlphabet[(v >> k) & 63];
    }
    if (i < bytes.size()) {
        std::uint32_t v = std::uint32_t{static_cast<unsigned char>(bytes[i])} << 16;
        if (i + 1 < bytes.size()) v |= std::uint32_t{static_cast<unsigned char>(bytes[i + 1])} << 8;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

inline std::string little_endian(const std::vector<std::uint32_t>& gids) {
    std::string out;
    for (const std::uint32_t g : gids)
        for (int k = 0; k < 32; k += 8) out += static_cast<char>((g >> k) & 0xFF);
    return out;
}

inline std::string zlib(const std::string& bytes) {
    uLongf size = compressBound(static_cast<uLong>(bytes.size()));
    std::string out(size, '\0');
    REQUIRE(compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(bytes.data()),
                      static_cast<uLong>(bytes.size()), 9) == Z_OK);
    out.resize(size);
    return out;
}

inline std::string gzip(const std::string& bytes) {
    z_stream z{};
    REQUIRE(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string out(deflateBound(&z, static_cast<uLong>(bytes.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&z, Z_FINISH) == Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

inline std::string zstd(const std::string& bytes) {
    std::string out(ZSTD_compressBound(bytes.size()), '\0');
    const std::size_t n = ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), 3);
    REQUIRE(!ZSTD_isError(n));
    out.resize(n);
    return out;
}

}  // namespace map_data
