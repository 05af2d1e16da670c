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

// zlib (RFC 1950) or gzip (RFC 1952) into exactly `want` bytes; more is an error found after
// at most want + 1 bytes were produced, whatever the stream would inflate to.
std::string inflate_bounded(const std::string& in, std::uint64_t want, bool gzip, std::uint64_t count) {
    z_stream z{};
    if (inflateInit2(&z, gzip ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK) throw DataError("cannot start zlib");
    std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&z, inflateEnd);
    std::string out(static_cast<std::size_t>(want) + 1, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    std::uint64_t in_left = in.size(), out_left = out.size();
    int rc = Z_OK;
    while (rc == Z_OK) {
        // avail_in/avail_out are 32-bit: feed and drain in pieces.
        z.avail_in = static_cast<uInt>(std::min<std::uint64_t>(in_left, 1u << 30));
        z.avail_out = static_cast<uInt>(std::min<std::uint64_t>(out_left, 1u << 30));
        const uInt gave = z.avail_in, room = z.avail_out;
        rc = inflate(&z, Z_NO_FLUSH);
        in_left -= gave - z.avail_in;
        out_left -= room - z.avail_out;
        if (rc == Z_BUF_ERROR && in_left == 0) throw DataError(std::string(gzip ? "gzip" : "zlib") + " data ends early");
        if (rc == Z_OK && out_left == 0) throw DataError(too_long(count));
        if (rc == Z_BUF_ERROR && out_left == 0) throw DataError(too_long(count));
    }
    if (rc != Z_STREAM_END)
        throw DataError(std::string(gzip ? "gzip" : "zlib") + " data is corrupt" + (z.msg ? std::string(" (") + z.msg + ")" : ""));
    out.resize(out.size() - static_cast<std::size_t>(out_left));
    return out;
}

std::string zstd_bounded(const std::string& in, std::uint64_t want, std::uint64_t count) {
    std::unique_ptr<ZSTD_DStream, std::size_t (*)(ZSTD_DStream*)> d(ZSTD_createDStream(), ZSTD_freeDStream);
    if (!d) throw DataError("cannot start zstd");
    std::string out(static_cast<std::size_t>(want) + 1, '\0');
    ZSTD_inBuffer src{in.data(), in.size(), 0};
    ZSTD_outBuffer dst{out.data(), out.size(), 0};
    std::size_t rc = 1;
    while (src.pos < src.size || rc != 0) {
        const std::size_t before_in = src.pos, before_out = dst.pos;
        rc = ZSTD_decompressStream(d.get(), &dst, &src);
        if (ZSTD_isError(rc)) throw DataError(std::string("zstd data is corrupt (") + ZSTD_getErrorName(rc) + ")");
        if (dst.pos == dst.size) throw DataError(too_long(count));
        if (rc != 0 && src.pos == src.size && before_in == src.pos && before_out == dst.pos)
            throw DataError("zstd data ends early");
        if (rc == 0 && src.pos == src.size) break;
    }
    out.resize(dst.pos);
    return out;
}

std::vector<std::uint32_t> csv_gids(std::string_view text, std::uint64_t count) {
    std::vector<std::uint32_t> gids;
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

std::vector<std::uint32_t> decode_tile_data(std::string_view text, std::string_view encoding,
                                            std::string_view compression, std::uint64_t count) {
    if (encoding == "csv") {
        if (!compression.empty()) throw DataError("CSV data cannot be compressed ('" + std::string(compression) + "')");
        return csv_gids(text, count);
    }
    if (encoding != "base64") throw DataError("unknown encoding '" + std::string(encoding) + "'");
    const std::uint64_t want = count * 4;
    std::string bytes = decode_base64(text);
    if (compression == "zlib" || compression == "gzip") bytes = inflate_bounded(bytes, want, compression == "gzip", count);
    else if (compression == "zstd") bytes = zstd_bounded(bytes, want, count);
    else if (!compression.empty()) throw DataError("unknown compression '" + std::string(compression) + "'");
    if (bytes.size() != want) {
        if (bytes.size() > want) throw DataError(too_long(count));
        throw DataError("the data holds " + std::to_string(bytes.size() / 4) + " tiles, the layer declares " +
                        std::to_string(count));
    }
    std::vector<std::uint32_t> gids(static_cast<std::size_t>(count));
    const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
    for (std::size_t k = 0; k < gids.size(); ++k, b += 4)
        gids[k] = std::uint32_t{b[0]} | std::uint32_t{b[1]} << 8 | std::uint32_t{b[2]} << 16 | std::uint32_t{b[3]} << 24;
    return gids;
}

}  // namespace collide::detail
