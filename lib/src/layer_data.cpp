// Tile layer data (layer_data.hpp): CSV and base64, uncompressed, zlib, gzip or zstd.
#include "layer_data.hpp"

#include <zlib.h>
#include <zstd.h>

#include <array>
#include <charconv>
#include <cstring>
#include <memory>

namespace collide::detail {

namespace {

constexpr std::array<signed char, 256> base64_values() {
    std::array<signed char, 256> v{};
    for (auto& x : v) x = -1;
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i) v[static_cast<unsigned char>(alphabet[i])] = static_cast<signed char>(i);
    return v;
}
constexpr std::array<signed char, 256> kBase64 = base64_values();

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

std::string too_long(std::uint64_t count) {
    return "the data holds more than the " + std::to_string(count) + " tiles the layer declares";
}

// Decompressors write straight into the gids' storage, `want` bytes, and one byte more into a
// spill byte: a stream that fills the gids and still has output holds too many tiles, found
// after want + 1 bytes whatever it would inflate to.

// zlib (RFC 1950) or gzip (RFC 1952) into out; returns the bytes written.
std::size_t inflate_into(const std::string& in, unsigned char* out, std::uint64_t want, bool gzip, std::uint64_t count) {
    const std::string name = gzip ? "gzip" : "zlib";
    z_stream z{};
    if (inflateInit2(&z, gzip ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK) throw DataError("cannot start zlib");
    std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&z, inflateEnd);
    unsigned char spill = 0;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.next_out = out;
    std::uint64_t in_left = in.size(), out_left = want;
    int rc = Z_OK;
    while (rc == Z_OK) {
        // avail_in/avail_out are 32-bit: feed and drain in pieces.
        z.avail_in = static_cast<uInt>(std::min<std::uint64_t>(in_left, 1u << 30));
        const bool full = out_left == 0;
        if (full) z.next_out = &spill;
        z.avail_out = full ? 1u : static_cast<uInt>(std::min<std::uint64_t>(out_left, 1u << 30));
        const uInt gave = z.avail_in, room = z.avail_out;
        rc = inflate(&z, Z_NO_FLUSH);
        in_left -= gave - z.avail_in;
        if (full && z.avail_out == 0) throw DataError(too_long(count));
        if (!full) out_left -= room - z.avail_out;
        if (rc == Z_BUF_ERROR && in_left == 0) throw DataError(name + " data ends early");
    }
    if (rc != Z_STREAM_END) throw DataError(name + " data is corrupt" + (z.msg ? std::string(" (") + z.msg + ")" : ""));
    return static_cast<std::size_t>(want - out_left);
}

// zstd (libzstd's streaming decoder) into out; returns the bytes written.
std::size_t zstd_into(const std::string& in, unsigned char* out, std::uint64_t want, std::uint64_t count) {
    std::unique_ptr<ZSTD_DStream, std::size_t (*)(ZSTD_DStream*)> d(ZSTD_createDStream(), ZSTD_freeDStream);
    if (!d) throw DataError("cannot start zstd");
    unsigned char spill = 0;
    ZSTD_inBuffer src{in.data(), in.size(), 0};
    ZSTD_outBuffer dst{out, static_cast<std::size_t>(want), 0};
    ZSTD_outBuffer over{&spill, 1, 0};
    std::size_t rc = 1;
    while (src.pos < src.size || rc != 0) {
        const bool full = dst.pos == dst.size;
        ZSTD_outBuffer& to = full ? over : dst;
        const std::size_t before_in = src.pos, before_out = to.pos;
        rc = ZSTD_decompressStream(d.get(), &to, &src);
        if (ZSTD_isError(rc)) throw DataError(std::string("zstd data is corrupt (") + ZSTD_getErrorName(rc) + ")");
        if (over.pos > 0) throw DataError(too_long(count));
        if (rc != 0 && src.pos == src.size && before_in == src.pos && before_out == to.pos)
            throw DataError("zstd data ends early");
    }
    return dst.pos;
}

Gids csv_gids(std::string_view text, std::uint64_t count) {
    Gids gids;
    gids.reserve(static_cast<std::size_t>(count));
    std::size_t i = 0;
    const std::size_t n = text.size();
    while (true) {
        while (i < n && is_space(text[i])) ++i;
        if (i == n && gids.empty()) break;  // empty data: caught by the count below
        std::uint32_t v = 0;
        const auto r = std::from_chars(text.data() + i, text.data() + n, v);
        if (r.ec != std::errc()) {
            const std::size_t end = std::min(n, i + 12);
            throw DataError("CSV data holds '" + std::string(text.substr(i, end - i)) + "' where a tile gid belongs (tile " +
                            std::to_string(gids.size()) + ")");
        }
        if (gids.size() == count) throw DataError(too_long(count));
        gids.push_back(v);
        i = static_cast<std::size_t>(r.ptr - text.data());
        while (i < n && is_space(text[i])) ++i;
        if (i == n) break;
        if (text[i] != ',') throw DataError("CSV data holds '" + std::string(1, text[i]) + "' after tile " + std::to_string(gids.size() - 1));
        ++i;
    }
    if (gids.size() != count)
        throw DataError("the data holds " + std::to_string(gids.size()) + " tiles, the layer declares " + std::to_string(count));
    return gids;
}

}  // namespace

std::string decode_base64(std::string_view text) {
    std::string out;
    out.reserve(text.size() / 4 * 3 + 3);
    std::uint32_t acc = 0;
    int bits = 0;
    std::size_t pad = 0, at = 0;
    for (const char c : text) {
        ++at;
        if (is_space(c)) continue;
        if (c == '=') {
            ++pad;
            continue;
        }
        const int v = kBase64[static_cast<unsigned char>(c)];
        if (v < 0 || pad > 0)
            throw DataError(std::string("base64 data holds '") + (v < 0 ? std::string(1, c) : "=") + "' at byte " +
                            std::to_string(at - 1));
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    if (bits >= 6 || pad > 2) throw DataError("base64 data is cut short");
    return out;
}

Gids decode_tile_data(std::string_view text, std::string_view encoding,
                                            std::string_view compression, std::uint64_t count) {
    if (encoding == "csv") {
        if (!compression.empty()) throw DataError("CSV data cannot be compressed ('" + std::string(compression) + "')");
        return csv_gids(text, count);
    }
    if (encoding != "base64") throw DataError("unknown encoding '" + std::string(encoding) + "'");
    const std::uint64_t want = count * 4;
    const std::string bytes = decode_base64(text);
    // Before room is made for a layer's gids: a stream that cannot hold them is short. Deflate
    // expands at most about 1032:1; a zstd frame may say its size.
    const auto fewer = [&] {
        return DataError("the data holds fewer than the " + std::to_string(count) + " tiles the layer declares");
    };
    if ((compression == "zlib" || compression == "gzip") && std::uint64_t{bytes.size()} * 1032 + 1024 < want) throw fewer();
    if (compression == "zstd") {
        const unsigned long long size = ZSTD_getFrameContentSize(bytes.data(), bytes.size());
        if (size != ZSTD_CONTENTSIZE_UNKNOWN && size != ZSTD_CONTENTSIZE_ERROR && size < want) throw fewer();
    }
    Gids gids(static_cast<std::size_t>(count));  // not zero-filled: the decoder writes every byte
    auto* out = reinterpret_cast<unsigned char*>(gids.data());
    std::size_t got = 0;
    if (compression == "zlib" || compression == "gzip") {
        got = inflate_into(bytes, out, want, compression == "gzip", count);
    } else if (compression == "zstd") {
        got = zstd_into(bytes, out, want, count);
    } else if (compression.empty()) {
        if (bytes.size() > want) throw DataError(too_long(count));
        got = bytes.size();
        if (got > 0) std::memcpy(out, bytes.data(), got);
    } else {
        throw DataError("unknown compression '" + std::string(compression) + "'");
    }
    if (got != want)
        throw DataError("the data holds " + std::to_string(got / 4) + " tiles, the layer declares " + std::to_string(count));
    // The bytes are little-endian gids: already the values on a little-endian machine.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (std::uint32_t& g : gids) g = __builtin_bswap32(g);
#endif
    return gids;
}

}  // namespace collide::detail
