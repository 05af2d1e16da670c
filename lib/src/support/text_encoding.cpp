// The text of the reports: numbers in their shortest form, JSON strings, CSV fields, UTF-8
// checks, and text safe for a terminal.
#include "support/text_encoding.hpp"

#include "collide/text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace collide {

namespace detail {

// Writes what std::to_chars(first, first + 32, v) writes and returns the end. Coordinates
// in scene files mostly have two decimals or fewer, and so do the input points a report
// repeats (rect corners, vertices, segment ends): for those the digits are written
// directly, several times faster than the general shortest-digits search.
//
// Why the result is the same. Let |v| < 2^33 and v the double nearest n / 100 for an
// integer n. Then ulp(v) <= 2^-19, and D = n / 100 with its trailing zeros dropped (k
// significant digits, the last at 10^-2 or above) is the one shortest decimal that reads
// back as v: any other decimal D' reading back as v lies within ulp(v) of D, but one with
// at most k digits either ends at 10^-2 or above (then D' != D differ by at least 0.01)
// or, when its leading digit is lower than D's, differs from D by at least 10^-3 (D' <=
// 10^E - 10^(E-k) <= D - 10^(E-k) for D's leading digit at 10^E, and E - k >= -3).
// to_chars would then write D in fixed notation unless the scientific one is strictly
// shorter (C++17 [charconv.to.chars]: plain overload, f preferred on a tie); SPEC §4 wants
// an integral value below 2^53 as an integer ("100000", not "1e+05"), so integers are
// written in fixed notation here at any magnitude below 2^53; the remaining scientific
// cases are left to to_chars, as is zero (for its sign).
char* number_chars(char* first, double v) {
    const double a = std::fabs(v);
    if (a != 0.0 && a < 0x1p53 && std::nearbyint(v) == v) {
        // Every integer below 2^53 is a double, so its decimal digits read back as v.
        auto u = static_cast<std::uint64_t>(a);
        char digits[20];
        int nd = 0;
        for (; u != 0; u /= 10) digits[nd++] = static_cast<char>('0' + u % 10);  // reversed
        char* out = first;
        if (v < 0) *out++ = '-';
        while (nd > 0) *out++ = digits[--nd];
        return out;
    }
    if (a != 0.0 && a < 0x1p33) {
        const double n = std::nearbyint(v * 100.0);
        if (n / 100.0 == v) {
            auto u = static_cast<std::uint64_t>(std::fabs(n));  // < 2^40
            int decimals = 2;
            while (decimals > 0 && u % 10 == 0) {
                u /= 10;
                --decimals;
            }
            char digits[20];
            int nd = 0;
            for (std::uint64_t x = u; x != 0; x /= 10) digits[nd++] = static_cast<char>('0' + x % 10);  // reversed
            int trailing = 0;  // an integer's trailing zeros (none when there are decimals)
            while (decimals == 0 && digits[trailing] == '0') ++trailing;
            const int k = nd - trailing;      // significant digits
            const int e = nd - 1 - decimals;  // the leading digit's power of ten, -2..10
            const int fixed = e >= 0 ? nd + (decimals > 0 ? 1 : 0) : 1 - e + nd;
            const int sci = k + (k > 1 ? 1 : 0) + 4;  // d[.ddd]e+XX
            if (fixed <= sci) {
                char* out = first;
                if (v < 0) *out++ = '-';
                if (e < 0) {
                    *out++ = '0';
                    *out++ = '.';
                    for (int z = 0; z < -e - 1; ++z) *out++ = '0';
                }
                for (int i = nd - 1; i >= 0; --i) {
                    *out++ = digits[i];
                    if (i == decimals && decimals > 0 && e >= 0) *out++ = '.';
                }
                return out;
            }
        }
    }
    return std::to_chars(first, first + 32, v).ptr;
}

}  // namespace detail

std::string format_number(double v) {
    char buf[32];
    return std::string(buf, detail::number_chars(buf, v));
}


std::size_t edit_distance(std::string_view a, std::string_view b) {
    // Wagner and Fischer's dynamic programme (1974), one row at a time.
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

namespace detail {

void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}


// The length of the well-formed UTF-8 sequence at the start of s (Unicode 15, table 3-7:
// no overlong forms, no surrogates, nothing above U+10FFFF), or 0 when there is none.
std::size_t utf8_length(std::string_view s) {
    const auto at = [&](std::size_t i) { return i < s.size() ? static_cast<unsigned char>(s[i]) : 0u; };
    const unsigned c = at(0);
    const auto cont = [&](std::size_t i, unsigned lo = 0x80, unsigned hi = 0xBF) { return at(i) >= lo && at(i) <= hi; };
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        const bool second = c == 0xE0 ? cont(1, 0xA0) : c == 0xED ? cont(1, 0x80, 0x9F) : cont(1);
        return second && cont(2) ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        const bool second = c == 0xF0 ? cont(1, 0x90) : c == 0xF4 ? cont(1, 0x80, 0x8F) : cont(1);
        return second && cont(2) && cont(3) ? 4 : 0;
    }
    return 0;
}

// `s` with each byte that is not part of valid UTF-8 replaced by U+FFFD: scene texts are
// checked UTF-8 when read, but file names come from the command line as any bytes, and a
// report must stay valid JSON (and CSV that reads as UTF-8).
std::string valid_utf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = utf8_length(s.substr(i));
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
        } else {
            out.append(s.data() + i, n);
            i += n;
        }
    }
    return out;
}

bool is_valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = utf8_length(s.substr(i));
        if (n == 0) return false;
        i += n;
    }
    return true;
}

void json_string(std::string& out, std::string_view s) {
    static const char* hex = "0123456789abcdef";
    // Ids are almost always plain: copy them whole, quotes included, in one step.
    if (std::none_of(s.begin(), s.end(), [](char ch) {
            const auto c = static_cast<unsigned char>(ch);
            return c < 0x20 || c == '"' || c == '\\' || c >= 0x80;
        })) {
        const std::size_t at = out.size();
        out.resize(at + s.size() + 2);
        char* d = &out[at];
        d[0] = '"';
        if (!s.empty()) std::memcpy(d + 1, s.data(), s.size());
        d[s.size() + 1] = '"';
        return;
    }
    std::string fixed;  // only for a name that is not UTF-8
    if (!is_valid_utf8(s)) s = fixed = valid_utf8(s);
    out += '"';
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    out += "\\u00";
                    out += hex[c >> 4];
                    out += hex[c & 15];
                } else {
                    out += ch;
                }
        }
    }
    out += '"';
}

void append_number(std::string& out, double v) {
    char buf[32];
    out.append(buf, number_chars(buf, v));
}

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; a name
// that is not UTF-8 gets U+FFFD for its stray bytes, as in JSON.
void csv_field(std::string& out, std::string_view s) {
    std::string fixed;
    if (std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }) && !is_valid_utf8(s))
        s = fixed = valid_utf8(s);
    if (s.find_first_of(",\"\r\n") == std::string_view::npos) {
        out += s;
        return;
    }
    out += '"';
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
}

}  // namespace detail

namespace {

// The code point of a valid two- or three-byte UTF-8 sequence.
unsigned code_point(std::string_view u) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned>(static_cast<unsigned char>(u[k])); };
    if (u.size() == 2) return ((byte(0) & 0x1F) << 6) | (byte(1) & 0x3F);
    return ((byte(0) & 0x0F) << 12) | ((byte(1) & 0x3F) << 6) | (byte(2) & 0x3F);
}

// Code points that reorder or break a line without being seen (bidirectional controls, the
// line and paragraph separators, the zero-width no-break space), and U+FFFE and U+FFFF, which
// XML 1.0 cannot hold: spelled out like control characters.
bool hidden_format(unsigned cp) {
    return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF;
}

// Appends a prefix, then a byte as two hex digits.
struct Spell {
    std::string& out;
    const char* hex;
    void operator()(const char* prefix, unsigned c) const {
        out += prefix;
        out += hex[(c >> 4) & 15];
        out += hex[c & 15];
    }
};

// Appends the escaped form of the character at s[i] (Escapes::Terminal) and returns its
// length in bytes.
std::size_t escape_terminal(std::string_view s, std::size_t i, std::string& out, const Spell& spell) {
    using detail::utf8_length;
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = utf8_length(s.substr(i));
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7F || n == 0) spell("\\x", c);  // a control, or a byte that is not UTF-8
    else if (c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) spell("\\u00", static_cast<unsigned char>(s[i + 1]));  // C1
    else if ((n == 2 || n == 3) && hidden_format(code_point(s.substr(i, n)))) {
        const unsigned cp = code_point(s.substr(i, n));
        spell("\\u", cp >> 8);
        spell("", cp & 0xFF);
    } else out.append(s.data() + i, n);
    return n == 0 ? 1 : n;
}

}  // namespace

std::string detail::printable(std::string_view s, Escapes style) {
    const auto plain = [](char c) { return c >= 0x20 && c < 0x7F; };
    if (std::all_of(s.begin(), s.end(), plain)) return std::string(s);
    std::string out;
    out.reserve(s.size() + 8);
    const Spell spell{out, style == Escapes::Ascii ? "0123456789ABCDEF" : "0123456789abcdef"};
    for (std::size_t i = 0; i < s.size();) {
        if (style == Escapes::Terminal) {
            i += escape_terminal(s, i, out, spell);
        } else {
            if (plain(s[i])) out += s[i];
            else spell("\\x", static_cast<unsigned char>(s[i]));
            ++i;
        }
    }
    return out;
}

std::string printable(std::string_view s) { return detail::printable(s, detail::Escapes::Terminal); }

}  // namespace collide
