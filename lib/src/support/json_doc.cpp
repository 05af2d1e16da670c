#include "support/json_doc.hpp"

#include "support/assert.hpp"
#include "support/text_encoding.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace collide::detail {

namespace {
constexpr int kMaxDepth = 256;  // scenes nest about five deep; this bounds the recursion
bool number_start(char c) { return c == '-' || (c >= '0' && c <= '9'); }
}

void JsonDoc::reset() {
    open_.clear();
    nodes_.clear();
    links_.clear();
    keys_.clear();
    decoded_.clear();
    char_block_ = 0;
    char_used_ = 0;
    nums_.clear();
    ints_.clear();
    small_.clear();
}

bool JsonDoc::to_small(std::size_t first) {
    const std::size_t count = nums_.size() - first;
    if (count < kSmallFrom || small_.size() + count >= kSmall - kPacked) return false;
    for (std::size_t k = first; k < nums_.size(); ++k)
        if (!ints_[k] || !(nums_[k] >= 0 && nums_[k] <= 255) || std::signbit(nums_[k])) return false;
    for (std::size_t k = first; k < nums_.size(); ++k) small_.push_back(static_cast<std::uint8_t>(nums_[k]));
    nums_.resize(first);
    ints_.resize(first);
    return true;
}

std::string_view JsonDoc::parse_key() {
    ws();
    return string_token();
}

JsonValue JsonDoc::parse_value() { return JsonValue(this, value(0)); }

namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The first byte at or after p (<= t.size() + 1) that is not plain printable ASCII in a string ('"', '\\', a
// control character or a byte >= 0x80), or where fewer than 8 bytes are left: eight bytes
// at a time, each byte tested in parallel (SWAR: the zero-byte tests of H. S. Warren,
// "Hacker's Delight", 2nd ed., 6-1, exact per byte so that the lowest flag is the first).
std::size_t plain_ascii_end(std::string_view t, std::size_t p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    constexpr std::uint64_t ones = 0x0101010101010101u;
    constexpr std::uint64_t high = 0x8080808080808080u;
    constexpr std::uint64_t low7 = 0x7F7F7F7F7F7F7F7Fu;
    // 0x80 in each byte of x that is zero, and nothing else.
    auto zero_bytes = [](std::uint64_t x) { return ~(((x & low7) + low7) | x | low7); };
    while (p + 8 <= t.size()) {
        std::uint64_t w;
        std::memcpy(&w, t.data() + p, 8);
        const std::uint64_t special = (w & high) | zero_bytes(w ^ (ones * 0x22u)) | zero_bytes(w ^ (ones * 0x5Cu)) |
                                      (~(((w & low7) + ones * 0x60) | w) & high);  // bytes below 0x20
        if (special != 0) return p + static_cast<std::size_t>(__builtin_ctzll(special)) / 8;
        p += 8;
    }
#endif
    (void)t;
    return p;
}

}  // namespace

std::string_view JsonDoc::string_token() {
    if (p_ >= t_.size() || t_[p_] != '"') fail();
    const std::size_t start = ++p_;
    // Fast path: no escapes, all printable ASCII or valid UTF-8.
    bool escaped = false;
    while (true) {
        p_ = plain_ascii_end(t_, p_);
        if (p_ >= t_.size()) fail();
        const auto c = static_cast<unsigned char>(t_[p_]);
        if (c == '"') break;
        if (c < 0x20) fail();
        if (c == '\\') {
            escaped = true;
            p_ += 2;
            continue;
        }
        if (c < 0x80) {
            ++p_;
            continue;
        }
        const std::size_t len = utf8_length(t_.substr(p_));
        if (len == 0) fail();
        p_ += len;
    }
    const std::size_t end = p_++;
    if (!escaped) return t_.substr(start, end - start);
    decoded_.push_back(decode_escaped(start, end));
    return decoded_.back();
}

// The string between start and end (a scanned string token) with its escapes replaced.
std::string JsonDoc::decode_escaped(std::size_t start, std::size_t end) {
    std::string out;
    out.reserve(end - start);
    for (std::size_t i = start; i < end; ++i) {
        const char c = t_[i];
        if (c != '\\') {
            out += c;
            continue;
        }
        const char e = t_[++i];
        switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': append_utf8(out, unicode_escape(i, end)); break;
            default:
                p_ = i;
                fail();
        }
    }
    return out;
}

// The code point of the \uXXXX escape whose 'u' is at i (a surrogate pair: both escapes),
// leaving i on its last digit.
unsigned JsonDoc::unicode_escape(std::size_t& i, std::size_t end) {
    auto read4 = [&](std::size_t at, unsigned* v) {
        if (at + 4 > end) return false;
        *v = 0;
        for (std::size_t k = 0; k < 4; ++k) {
            const int h = hex_value(t_[at + k]);
            if (h < 0) return false;
            *v = *v * 16 + static_cast<unsigned>(h);
        }
        return true;
    };
    unsigned cp = 0;
    if (!read4(i + 1, &cp)) {
        p_ = i;
        fail();
    }
    i += 4;
    if (cp >= 0xD800 && cp <= 0xDBFF) {  // a surrogate pair
        unsigned lo = 0;
        if (i + 2 >= end || t_[i + 1] != '\\' || t_[i + 2] != 'u' || !read4(i + 3, &lo) || lo < 0xDC00 || lo > 0xDFFF) {
            p_ = i;
            fail();
        }
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        i += 6;
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
        p_ = i;
        fail();
    }
    return cp;
}

double JsonDoc::number_token(bool* integer) {
    const std::size_t start = p_;
    // A local cursor (q) rather than the member p_, so that it stays in a register.
    const char* const text_end = t_.data() + t_.size();
    const char* q = t_.data() + p_;
    auto fail_at = [&](const char* at) {
        p_ = static_cast<std::size_t>(at - t_.data());
        fail();
    };
    // While checking the grammar, collect the digits as an integer m and the decimal
    // exponent e, so that the value is m * 10^e.
    std::uint64_t m = 0;
    std::size_t significant = 0;  // digits folded into m (m wraps past 19; then it is not used)
    auto digits = [&] {
        const char* const b = q;
        while (q < text_end && static_cast<unsigned>(*q - '0') < 10u) {
            m = m * 10 + static_cast<unsigned>(*q - '0');
            ++q;
        }
        significant += static_cast<std::size_t>(q - b);
        return static_cast<std::size_t>(q - b);
    };
    const bool negative = q < text_end && *q == '-';
    if (negative) ++q;
    if (q < text_end && *q == '0') ++q;
    else if (digits() == 0) fail_at(q);
    *integer = true;
    long e = 0;
    bool exponent_small = true;
    if (q < text_end && *q == '.') {
        ++q;
        *integer = false;
        const std::size_t f = digits();
        if (f == 0) fail_at(q);
        e = -static_cast<long>(std::min<std::size_t>(f, 1000));
    }
    if (q < text_end && (*q == 'e' || *q == 'E')) {
        ++q;
        *integer = false;
        const bool minus = q < text_end && *q == '-';
        if (q < text_end && (*q == '+' || *q == '-')) ++q;
        const char* const b = q;
        long x = 0;
        while (q < text_end && static_cast<unsigned>(*q - '0') < 10u) {
            if (q - b < 6) x = x * 10 + (*q - '0');
            ++q;
        }
        if (q == b) fail_at(q);
        exponent_small = q - b < 6;
        e += minus ? -x : x;
    }
    p_ = static_cast<std::size_t>(q - t_.data());
    // Clinger's fast path (W. D. Clinger, "How to read floating point numbers accurately",
    // PLDI 1990): when m < 2^53 and |e| <= 22, m and 10^|e| are exact doubles, so one IEEE
    // multiplication or division rounds m * 10^e correctly: the same double from_chars gives.
    static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (significant <= 19 && m <= (std::uint64_t{1} << 53) && exponent_small && e >= -22 && e <= 22) {
        const double mag = static_cast<double>(m);
        const double v = e < 0 ? mag / kPow10[-e] : mag * kPow10[e];
        return negative ? -v : v;
    }
    double v = 0.0;
    const auto r = std::from_chars(t_.data() + start, t_.data() + p_, v);
    if (r.ec == std::errc::result_out_of_range) {
        // Overflow or underflow: strtod tells them apart (inf vs 0 / subnormal).
        const std::string tok(t_.substr(start, p_ - start));
        v = std::strtod(tok.c_str(), nullptr);
        if (!std::isfinite(v)) {  // not a finite double: nlohmann names it
            p_ = start;
            fail();
        }
    } else if (r.ec != std::errc() || r.ptr != t_.data() + p_) {
        p_ = start;
        fail();
    }
    return v;
}

void JsonDoc::container(Node& n, bool object, int depth) {
    ++p_;
    n.kind = object ? JsonValue::Kind::Object : JsonValue::Kind::Array;
    const std::size_t base = scratch_.size();
    const bool more = !consume(object ? '}' : ']');
    if (more && !object && depth + 1 <= kMaxDepth && number_start(peek()) && packed_numbers(n)) return;
    if (more) {
        do {
            std::string_view k;
            if (object) {
                k = parse_key();
                expect(':');
            }
            const std::uint32_t child = value(depth + 1);
            scratch_.push_back(child);
            scratch_keys_.push_back(k);
        } while (consume(','));
        expect(object ? '}' : ']');
    }
    close(n, base);
}

void JsonDoc::close(Node& n, std::size_t base) {
    n.first = static_cast<std::uint32_t>(links_.size());
    n.count = static_cast<std::uint32_t>(scratch_.size() - base);
    links_.insert(links_.end(), scratch_.begin() + static_cast<std::ptrdiff_t>(base), scratch_.end());
    keys_.insert(keys_.end(), scratch_keys_.begin() + static_cast<std::ptrdiff_t>(base), scratch_keys_.end());
    scratch_.resize(base);
    scratch_keys_.resize(base);
}

// Numbers first: collected packed, straight at the end of nums_ (no other value is read
// meanwhile); if anything else follows, they become nodes after all and container()'s
// general loop takes over.
bool JsonDoc::packed_numbers(Node& n) {
    const std::size_t first = nums_.size();
    scratch_offsets_.clear();
    bool others = false;
    do {
        if (!number_start(peek())) {
            others = true;
            break;
        }
        scratch_offsets_.push_back(p_);
        bool integer = false;
        nums_.push_back(number_token(&integer));
        ints_.push_back(integer);
    } while (consume(','));
    if (!others) {
        expect(']');
        if (nums_.size() >= kSmall - kPacked) fail();  // 2^30 numbers in one value
        n.flag = true;
        n.count = static_cast<std::uint32_t>(nums_.size() - first);
        const std::size_t small_first = small_.size();
        n.first = to_small(first) ? static_cast<std::uint32_t>(kSmall - kPacked + small_first)
                                  : static_cast<std::uint32_t>(first);
        return true;
    }
    for (std::size_t k = first; k < nums_.size(); ++k) {
        Node num{};
        num.kind = JsonValue::Kind::Number;
        num.flag = ints_[k] != 0;
        num.num = nums_[k];
        num.offset = scratch_offsets_[k - first];
        nodes_.push_back(num);
        scratch_.push_back(static_cast<std::uint32_t>(nodes_.size() - 1));
        scratch_keys_.emplace_back();
    }
    nums_.resize(first);
    ints_.resize(first);
    return false;
}

std::uint32_t JsonDoc::value(int depth) {
    if (depth > kMaxDepth) throw JsonSyntax{p_, "values nested deeper than 256 levels (a scene nests about five)", true};
    Node n{};
    n.offset = (ws(), p_);
    if (p_ >= t_.size()) fail();
    const char c = t_[p_];
    auto literal = [&](std::string_view word) {
        if (t_.substr(p_, word.size()) != word) fail();
        p_ += word.size();
    };
    switch (c) {
        case '{':
        case '[':
            container(n, c == '{', depth);
            break;
        case '"':
            n.kind = JsonValue::Kind::String;
            n.str = string_token();
            break;
        case 't':
            literal("true");
            n.kind = JsonValue::Kind::Bool;
            n.flag = true;
            break;
        case 'f':
            literal("false");
            n.kind = JsonValue::Kind::Bool;
            break;
        case 'n':
            literal("null");
            n.kind = JsonValue::Kind::Null;
            break;
        default:
            n.kind = JsonValue::Kind::Number;
            n.num = number_token(&n.flag);
    }
    nodes_.push_back(n);
    return static_cast<std::uint32_t>(nodes_.size() - 1);
}

// ---- building values without text ---------------------------------------------------------

void JsonDoc::add(std::uint32_t index) {
    if (open_.empty()) {
        built_ = index;
        return;
    }
    scratch_.push_back(index);
    scratch_keys_.push_back(pending_key_);
    pending_key_ = {};
}

void JsonDoc::open(bool object) {
    Node n{};
    n.kind = object ? JsonValue::Kind::Object : JsonValue::Kind::Array;
    n.offset = std::string_view::npos;
    const auto index = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back(n);
    add(index);
    open_.emplace_back(index, scratch_.size());
}

void JsonDoc::number(double v) {
    Node n{};
    n.kind = JsonValue::Kind::Number;
    n.num = v;
    // As number_chars writes it: an integral value below 2^53 without fraction or exponent.
    n.flag = std::fabs(v) < 0x1p53 && std::nearbyint(v) == v;
    n.offset = std::string_view::npos;
    nodes_.push_back(n);
    add(static_cast<std::uint32_t>(nodes_.size() - 1));
}

std::string_view JsonDoc::keep(std::string_view s) {
    if (s.empty()) return {};
    if (s.size() > kCharBlock / 4) return decoded_.emplace_back(s);  // a long one on its own
    if (char_blocks_.empty() || char_used_ + s.size() > kCharBlock) {
        if (!char_blocks_.empty()) ++char_block_;
        if (char_block_ == char_blocks_.size()) char_blocks_.push_back(std::make_unique<char[]>(kCharBlock));
        char_used_ = 0;
    }
    char* at = char_blocks_[char_block_].get() + char_used_;
    std::memcpy(at, s.data(), s.size());
    char_used_ += s.size();
    return std::string_view(at, s.size());
}

void JsonDoc::string(std::string_view s) {
    Node n{};
    n.kind = JsonValue::Kind::String;
    n.str = keep(s);
    n.offset = std::string_view::npos;
    nodes_.push_back(n);
    add(static_cast<std::uint32_t>(nodes_.size() - 1));
}

void JsonDoc::numbers(const double* v, std::size_t count) {
    Node n{};
    n.kind = JsonValue::Kind::Array;
    n.flag = true;  // packed
    n.first = static_cast<std::uint32_t>(nums_.size());
    n.count = static_cast<std::uint32_t>(count);
    n.offset = std::string_view::npos;
    for (std::size_t k = 0; k < count; ++k) {
        nums_.push_back(v[k]);
        ints_.push_back(std::fabs(v[k]) < 0x1p53 && std::nearbyint(v[k]) == v[k] ? 1 : 0);
    }
    nodes_.push_back(n);
    add(static_cast<std::uint32_t>(nodes_.size() - 1));
}

void JsonDoc::end() {
    COLLIDE_ASSERT(!open_.empty());
    const auto [index, base] = open_.back();
    open_.pop_back();
    close(nodes_[index], base);
}

}  // namespace collide::detail
