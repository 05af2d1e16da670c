// Tile layer data (layer_data.hpp): CSV and base64, uncompressed, zlib, gzip or zstd.
#include "maps/layer_data.hpp"

#include "support/big_alloc.hpp"

#include <libdeflate.h>
#include <zlib.h>
#include <zstd.h>

#include <array>
#include <charconv>
#include <memory>
#include <vector>

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

// Decompressors write into a piece of kPiece bytes; each full piece (and the last) goes to a
// GidSink, which makes gids of every four bytes and fails as soon as there are more bytes than
// the layer's cells take: a bomb stops after want + 1 bytes whatever it would inflate to.
constexpr std::size_t kPiece = std::size_t{1} << 16;

class GidSink {
public:
    GidSink(Gids& out, std::uint64_t count) : out_(out), count_(count) {}
    void feed(const unsigned char* p, std::size_t n) {
        bytes_ += n;
        if (bytes_ > count_ * 4) throw DataError(too_long(count_));
        std::size_t i = 0;
        for (; i < n && have_ != 0; ++i) take(p[i]);  // the rest of a gid split between pieces
        const std::size_t whole = (n - i) / 4;
        out_.append_le32(p + i, whole);
        for (i += whole * 4; i < n; ++i) take(p[i]);
    }
    std::uint64_t bytes() const { return bytes_; }

private:
    void take(unsigned char byte) {
        word_ |= std::uint32_t{byte} << (8 * have_);
        if (++have_ == 4) {
            out_.push_back(word_);
            word_ = 0;
            have_ = 0;
        }
    }

    Gids& out_;
    const std::uint64_t count_;
    std::uint64_t bytes_ = 0;
    std::uint32_t word_ = 0;
    unsigned have_ = 0;
};

// zlib (RFC 1950) or gzip (RFC 1952) into sink.
void inflate_into(const std::string& in, GidSink& sink, bool gzip) {
    const std::string name = gzip ? "gzip" : "zlib";
    z_stream z{};
    if (inflateInit2(&z, gzip ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK) throw DataError("cannot start zlib");
    std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&z, inflateEnd);
    std::vector<unsigned char> piece(kPiece);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    std::uint64_t in_left = in.size();
    int rc = Z_OK;
    while (rc == Z_OK) {
        // avail_in is 32-bit: feed in pieces.
        z.avail_in = static_cast<uInt>(std::min<std::uint64_t>(in_left, 1u << 30));
        z.next_out = piece.data();
        z.avail_out = static_cast<uInt>(piece.size());
        const uInt gave = z.avail_in;
        rc = inflate(&z, Z_NO_FLUSH);
        in_left -= gave - z.avail_in;
        sink.feed(piece.data(), piece.size() - z.avail_out);
        if (rc == Z_BUF_ERROR && in_left == 0) throw DataError(name + " data ends early");
    }
    if (rc != Z_STREAM_END) throw DataError(name + " data is corrupt" + (z.msg ? std::string(" (") + z.msg + ")" : ""));
}

// A layer of at most this many bytes of gids is inflated whole by libdeflate, five times as
// fast as zlib's inflate on tile data (tests/bench/README.md); a bigger one streams through
// zlib in pieces, so that memory follows the distinct tiles (layer_data.hpp).
constexpr std::uint64_t kWholeBuffer = std::uint64_t{64} << 20;

// zlib or gzip inflated in one call into a buffer of exactly `want` bytes, handed to sink.
// False, with nothing handed, when the stream is not exactly that long or not well formed:
// zlib's streaming inflate then says what is wrong, in its words, as it always has.
bool inflate_whole(const std::string& in, GidSink& sink, bool gzip, std::uint64_t want) {
    if (want == 0 || want > kWholeBuffer) return false;
    std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor*)> d(libdeflate_alloc_decompressor(),
                                                                                  libdeflate_free_decompressor);
    if (!d) return false;
    // Not zeroed, and on ordinary pages: advised to take huge ones, it was faster alone but
    // stalled now and then for a tenth of a second in the kernel's compaction.
    const std::unique_ptr<unsigned char[]> out(new unsigned char[static_cast<std::size_t>(want)]);
    std::size_t got = 0;
    const auto size = static_cast<std::size_t>(want);
    const libdeflate_result rc = gzip ? libdeflate_gzip_decompress(d.get(), in.data(), in.size(), out.get(), size, &got)
                                      : libdeflate_zlib_decompress(d.get(), in.data(), in.size(), out.get(), size, &got);
    if (rc != LIBDEFLATE_SUCCESS || got != size) return false;
    sink.feed(out.get(), size);
    return true;
}

// zstd (libzstd's streaming decoder) into sink.
void zstd_into(const std::string& in, GidSink& sink) {
    std::unique_ptr<ZSTD_DStream, std::size_t (*)(ZSTD_DStream*)> d(ZSTD_createDStream(), ZSTD_freeDStream);
    if (!d) throw DataError("cannot start zstd");
    std::vector<unsigned char> piece(kPiece);
    ZSTD_inBuffer src{in.data(), in.size(), 0};
    std::size_t rc = 1;
    while (src.pos < src.size || rc != 0) {
        ZSTD_outBuffer dst{piece.data(), piece.size(), 0};
        const std::size_t before_in = src.pos;
        rc = ZSTD_decompressStream(d.get(), &dst, &src);
        if (ZSTD_isError(rc)) throw DataError(std::string("zstd data is corrupt (") + ZSTD_getErrorName(rc) + ")");
        sink.feed(piece.data(), dst.pos);
        if (rc != 0 && src.pos == src.size && before_in == src.pos && dst.pos == 0) throw DataError("zstd data ends early");
    }
}

Gids csv_gids(std::string_view text, std::uint64_t count) {
    Gids gids;
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

void Gids::append_le32(const unsigned char* p, std::size_t n) {
    const auto gid_at = [p](std::size_t k) {
        const unsigned char* q = p + 4 * k;
        return std::uint32_t{q[0]} | std::uint32_t{q[1]} << 8 | std::uint32_t{q[2]} << 16 | std::uint32_t{q[3]} << 24;
    };
    std::size_t k = 0;
    while (k < n) {
        // A gid that is not the last one's goes through push_back (the palette, which may
        // widen the cells); the cells after it that hold the same gid, and those of the
        // same width and palette, are written here from locals.
        push_back(gid_at(k++));
        const unsigned bits = bits_;
        std::uint32_t gid = palette_[last_index_];
        std::uint32_t index = last_index_;
        std::size_t size = size_;
        if (bits == 0) {
            while (k < n && gid_at(k) == gid) ++k, ++size;
            size_ = size;
            continue;
        }
        // Room for the rest at this width, made once (again only after the cells widen); the
        // words past the last cell are cut off at the end.
        const std::size_t room = (size + (n - k)) * bits / 64 + 1;
        if (words_.size() < room) words_.resize(room, 0);
        std::uint64_t* words = words_.data();
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (bits == 8) {
            // A layer of up to 256 tiles, the common case. Cell k's index is byte k of the
            // words on a little-endian machine: stored, not shifted in, and found by a table
            // of the small gids without a branch on whether the tile changed (a varied layer
            // changes tile every few cells). A flipped or new gid goes through push_back.
            constexpr std::uint32_t kDirect = 4096;
            constexpr std::uint16_t kNone = 0xFFFF;
            std::array<std::uint16_t, kDirect + 1> direct;
            direct.fill(kNone);
            for (std::size_t i = 0; i < palette_.size(); ++i)
                if (palette_[i] < kDirect) direct[palette_[i]] = static_cast<std::uint16_t>(i);
            auto* bytes = reinterpret_cast<unsigned char*>(words);
            while (k < n) {
                const std::uint32_t next = gid_at(k++);
                const std::uint16_t at = direct[std::min(next, kDirect)];
                if (at != kNone) {
                    bytes[size++] = static_cast<unsigned char>(at);
                    continue;
                }
                size_ = size;
                push_back(next);
                size = size_;
                if (bits_ != 8) break;  // the palette outgrew a byte
                if (next < kDirect) direct[next] = static_cast<std::uint16_t>(last_index_);
            }
            size_ = size;
            continue;
        }
#endif
        while (k < n) {
            const std::uint32_t next = gid_at(k);
            if (next != gid) {
                if (!recent(next, index)) break;  // not met lately: push_back
                gid = next;
            }
            const std::size_t bit = size * bits;
            words[bit / 64] |= std::uint64_t{index} << (bit % 64);
            ++size;
            ++k;
        }
        size_ = size;
    }
    words_.resize((size_ * bits_ + 63) / 64);
}

std::uint32_t Gids::palette_index(std::uint32_t gid) {
    const auto [it, added] = index_.emplace(gid, static_cast<std::uint32_t>(palette_.size()));
    last_index_ = it->second;
    if (!added) return last_index_;
    palette_.push_back(gid);
    // Widen the cells when the palette outgrows them: 0 -> 1 -> 2 -> 4 -> ... -> 32 bits.
    unsigned bits = bits_;
    while (bits < 32 && (std::uint64_t{1} << bits) < palette_.size()) bits = bits == 0 ? 1 : bits * 2;
    if (bits != bits_) {
        std::vector<std::uint64_t> wider((size_ * bits + 63) / 64, 0);
        for (std::size_t k = 0; k < size_; ++k) {
            const std::uint64_t index =
                bits_ == 0 ? 0 : (words_[k * bits_ / 64] >> (k * bits_ % 64)) & ((std::uint64_t{1} << bits_) - 1);
            wider[k * bits / 64] |= index << (k * bits % 64);
        }
        words_ = std::move(wider);
        bits_ = bits;
    }
    return last_index_;
}

std::string decode_base64(std::string_view text, std::string room) {
    std::string out = std::move(room);
    out.reserve(text.size() / 4 * 3 + 3);
    advise_huge_pages(out.data(), out.capacity());  // before the first write: tens of megabytes for a big layer
    out.resize(text.size() / 4 * 3 + 3);
    char* o = out.data();
    std::uint32_t acc = 0;
    int bits = 0;
    std::size_t pad = 0, i = 0;
    const std::size_t n = text.size();
    const auto value = [&text](std::size_t k) { return kBase64[static_cast<unsigned char>(text[k])]; };
    while (i < n) {
        // Four characters of the alphabet on a group boundary (most of a layer's text, which
        // Tiled writes without line breaks): three bytes at once.
        if (bits == 0 && pad == 0) {
            while (i + 4 <= n) {
                const int a = value(i), b = value(i + 1), c = value(i + 2), d = value(i + 3);
                if ((a | b | c | d) < 0) break;
                const auto group = static_cast<std::uint32_t>(a << 18 | b << 12 | c << 6 | d);
                o[0] = static_cast<char>(group >> 16);
                o[1] = static_cast<char>(group >> 8 & 0xFF);
                o[2] = static_cast<char>(group & 0xFF);
                o += 3;
                i += 4;
            }
            if (i == n) break;
        }
        const char c = text[i++];
        if (is_space(c)) continue;
        if (c == '=') {
            ++pad;
            continue;
        }
        const int v = kBase64[static_cast<unsigned char>(c)];
        if (v < 0 || pad > 0)
            throw DataError(std::string("base64 data holds '") + (v < 0 ? std::string(1, c) : "=") + "' at byte " +
                            std::to_string(i - 1));
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            *o++ = static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    if (bits >= 6 || pad > 2) throw DataError("base64 data is cut short");
    out.resize(static_cast<std::size_t>(o - out.data()));
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
    Gids gids;
    GidSink sink(gids, count);
    if (compression == "zlib" || compression == "gzip") {
        if (!inflate_whole(bytes, sink, compression == "gzip", want)) inflate_into(bytes, sink, compression == "gzip");
    } else if (compression == "zstd") {
        zstd_into(bytes, sink);
    } else if (compression.empty()) {
        sink.feed(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    } else {
        throw DataError("unknown compression '" + std::string(compression) + "'");
    }
    if (sink.bytes() != want)
        throw DataError("the data holds " + std::to_string(sink.bytes() / 4) + " tiles, the layer declares " + std::to_string(count));
    return gids;
}

}  // namespace collide::detail
