// godot_floor: the floor of the Godot scene benchmark (issue 30): the least a program reading a
// Godot 4 text scene with a big TileMapLayer and many bodies must do. C++17 standard library only.
//
//   godot_floor LEVEL.tscn
//
// Phases, each timed: read the file whole; tokenize it in one pass (headers `[...]` and
// `key = value` properties, the value running to the end of its line with brackets and strings
// matched; `;` comments skipped; a string's end found with memchr and its escapes honoured),
// keeping only where the first `tile_map_data` value and every `position` value start — no
// tree, no values parsed; base64-decode the tile data (a table decoder, four characters a step);
// walk its 12-byte cells after the u16 format, summing every field; read the two numbers of
// each `position = Vector2(x, y)` (std::from_chars). Nothing is checked, built or written: no
// nodes, no resources, no shapes, no grid.
//
// Prints one line on stdout: the phase times in ms, then the counts and a checksum (from the
// cells and the positions, so that nothing is optimised away). Exit 1 with a message on stderr
// when the scene is not what it expects.
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "floor_common.hpp"

namespace {

using namespace floor_common;

// What the tokenizer keeps: counts, the tile data's base64 and where each position value starts.
struct Tokens {
    size_t headers = 0;
    size_t properties = 0;
    std::string_view tile_data;  // between the quotes of the first tile_map_data's string
    std::vector<const char*> positions;
};

// Past the closing quote of the string whose opening quote is at p.
const char* skip_string(const char* p, const char* end) {
    for (++p;;) {
        const char* q = static_cast<const char*>(std::memchr(p, '"', static_cast<size_t>(end - p)));
        if (!q) fail("unterminated string");
        size_t slashes = 0;
        while (q - slashes > p && q[-1 - static_cast<std::ptrdiff_t>(slashes)] == '\\') ++slashes;
        p = q + 1;
        if (slashes % 2 == 0) return p;
    }
}

// Past a value: to the end of its line at bracket depth 0, strings skipped whole.
const char* skip_value(const char* p, const char* end) {
    int depth = 0;
    while (p < end) {
        const char c = *p;
        if (c == '"') {
            p = skip_string(p, end);
            continue;
        }
        if (c == '(' || c == '[' || c == '{') ++depth;
        else if (c == ')' || c == ']' || c == '}') --depth;
        else if (c == '\n' && depth <= 0) return p + 1;
        ++p;
    }
    return p;
}

Tokens tokenize(const std::string& text) {
    Tokens t;
    const char* p = text.data();
    const char* const end = p + text.size();
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) ++p;
        if (p == end) break;
        if (*p == ';') {  // a comment line
            const void* nl = std::memchr(p, '\n', static_cast<size_t>(end - p));
            p = nl ? static_cast<const char*>(nl) + 1 : end;
        } else if (*p == '[') {  // a header: to its closing bracket, strings skipped
            ++t.headers;
            p = skip_value(p, end);
        } else {  // key = value
            const char* key = p;
            while (p < end && *p != '=' && *p != '\n') ++p;
            if (p == end || *p != '=') fail("a line that is no header and no key = value");
            const char* key_end = p;
            while (key_end > key && key_end[-1] == ' ') --key_end;
            const std::string_view name(key, static_cast<size_t>(key_end - key));
            ++p;
            while (p < end && *p == ' ') ++p;
            const char* value = p;
            p = skip_value(p, end);
            ++t.properties;
            if (name == "position") {
                t.positions.push_back(value);
            } else if (name == "tile_map_data" && t.tile_data.empty()) {
                const char* q = static_cast<const char*>(std::memchr(value, '"', static_cast<size_t>(p - value)));
                if (!q) fail("tile_map_data without a string");
                const char* close = skip_string(q, end) - 1;
                t.tile_data = std::string_view(q + 1, static_cast<size_t>(close - q - 1));
            }
        }
    }
    return t;
}

// RFC 4648 base64: four characters at a time into a buffer sized up front, whitespace skipped
// (Godot writes none), '=' ends the data, anything else is an error.
std::vector<unsigned char> base64_decode(std::string_view s) {
    signed char value[256];
    std::memset(value, -1, sizeof value);
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 64; ++i) value[static_cast<unsigned char>(alphabet[i])] = static_cast<signed char>(i);
    std::vector<unsigned char> out(s.size() / 4 * 3 + 3);
    unsigned char* o = out.data();
    const auto v = [&](char c) { return value[static_cast<unsigned char>(c)]; };
    size_t i = 0;
    while (i + 4 <= s.size()) {  // the fast path: four alphabet characters
        const int a = v(s[i]), b = v(s[i + 1]), c = v(s[i + 2]), d = v(s[i + 3]);
        if ((a | b | c | d) < 0) break;
        const std::uint32_t bits = static_cast<std::uint32_t>(a << 18 | b << 12 | c << 6 | d);
        o[0] = static_cast<unsigned char>(bits >> 16);
        o[1] = static_cast<unsigned char>(bits >> 8);
        o[2] = static_cast<unsigned char>(bits);
        o += 3;
        i += 4;
    }
    std::uint32_t bits = 0;  // the rest, one character at a time
    int count = 0;
    for (; i < s.size() && s[i] != '='; ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        if (value[c] < 0) fail("bad base64");
        bits = bits << 6 | static_cast<std::uint32_t>(value[c]);
        if (++count == 4) {
            *o++ = static_cast<unsigned char>(bits >> 16);
            *o++ = static_cast<unsigned char>(bits >> 8);
            *o++ = static_cast<unsigned char>(bits);
            bits = 0;
            count = 0;
        }
    }
    if (count == 2) *o++ = static_cast<unsigned char>(bits >> 4);
    if (count == 3) {
        *o++ = static_cast<unsigned char>(bits >> 10);
        *o++ = static_cast<unsigned char>(bits >> 2);
    }
    out.resize(static_cast<size_t>(o - out.data()));
    return out;
}

std::uint16_t u16(const unsigned char* p) { return static_cast<std::uint16_t>(p[0] | p[1] << 8); }

// Every field of every cell summed (x and y as int16).
std::uint64_t walk_cells(const std::vector<unsigned char>& data, size_t& cells) {
    if (data.size() < 2 || u16(data.data()) != 0 || (data.size() - 2) % 12 != 0) fail("tile_map_data is not format 0");
    std::uint64_t sum = 0;
    cells = (data.size() - 2) / 12;
    for (const unsigned char* c = data.data() + 2; c < data.data() + data.size(); c += 12) {
        const auto x = static_cast<std::int16_t>(u16(c));
        const auto y = static_cast<std::int16_t>(u16(c + 2));
        sum += static_cast<std::uint64_t>(x * 4099 + y) + u16(c + 4) + u16(c + 6) + u16(c + 8) + u16(c + 10);
    }
    return sum;
}

// The two numbers of `Vector2(x, y)` at each position value.
double read_positions(const std::vector<const char*>& positions, const char* end) {
    double sum = 0;
    for (const char* p : positions) {
        if (std::strncmp(p, "Vector2(", 8) != 0) fail("a position that is no Vector2(");
        double x = 0, y = 0;
        auto r = std::from_chars(p + 8, end, x);
        if (r.ec != std::errc() || *r.ptr != ',') fail("a position's x");
        const char* q = r.ptr + 1;
        while (*q == ' ') ++q;
        r = std::from_chars(q, end, y);
        if (r.ec != std::errc() || *r.ptr != ')') fail("a position's y");
        sum += x + y;
    }
    return sum;
}

}  // namespace

int main(int argc, char** argv) {
    program() = "godot_floor";
    if (argc != 2) {
        std::fprintf(stderr, "usage: godot_floor LEVEL.tscn\n");
        return 2;
    }
    const Clock::time_point start = Clock::now();
    Clock::time_point t = start;

    const std::string text = read_file(argv[1], "scene");
    const double read_ms = ms_since(t);

    const Tokens tokens = tokenize(text);
    const double tokenize_ms = ms_since(t);
    if (tokens.tile_data.empty()) fail("no tile_map_data");

    const std::vector<unsigned char> data = base64_decode(tokens.tile_data);
    const double base64_ms = ms_since(t);

    size_t cells = 0;
    const std::uint64_t cell_sum = walk_cells(data, cells);
    const double cells_ms = ms_since(t);

    const double position_sum = read_positions(tokens.positions, text.data() + text.size());
    const double positions_ms = ms_since(t);

    const std::uint64_t checksum = cell_sum * 31 + static_cast<std::uint64_t>(position_sum * 100.0);
    const double total_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    std::printf("read_ms=%.1f tokenize_ms=%.1f base64_ms=%.1f cells_ms=%.1f positions_ms=%.1f total_ms=%.1f "
                "bytes=%zu headers=%zu properties=%zu base64_bytes=%zu cells=%zu positions=%zu checksum=%llu\n",
                read_ms, tokenize_ms, base64_ms, cells_ms, positions_ms, total_ms, text.size(), tokens.headers,
                tokens.properties, tokens.tile_data.size(), cells, tokens.positions.size(),
                static_cast<unsigned long long>(checksum));
    return 0;
}
