// Folder support/, the lowest layer of lib/src: the library's plumbing, with no geometry in
// it. The JSON reader scenes and maps are read with (json_doc, json_locate for line:column),
// the text of reports and messages (this header; it also implements collide/text.hpp), big
// arrays and pair logs (big_alloc), work on several threads (in_parts, ordered_blocks) and
// COLLIDE_ASSERT (assert.hpp). It includes only the public headers of plain values and
// text (collide/types.hpp, error.hpp, text.hpp); scene/, maps/, check/ and report/ use it.
//
// The text of the reports (text_encoding.cpp): the pieces every report format writes with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace collide::detail {

/// Writes the shortest decimal that reads back as v, as std::to_chars(first, first + 32, v)
/// does, except that an integral v below 2^53 in magnitude is written as an integer
/// ("100000", not "1e+05"; SPEC §4); returns the end. Fast for the two-decimal numbers
/// scenes are full of.
char* number_chars(char* first, double v);
/// Appends number_chars of v.
void append_number(std::string& out, double v);

/// The length of the well-formed UTF-8 sequence at the start of s, or 0 when there is none.
std::size_t utf8_length(std::string_view s);
/// The UTF-8 bytes of code point `cp` (up to U+10FFFF) appended to `out`.
void append_utf8(std::string& out, unsigned cp);
/// s with each byte that is not part of valid UTF-8 replaced by U+FFFD.
std::string valid_utf8(std::string_view s);
bool is_valid_utf8(std::string_view s);

/// How printable() spells what it escapes.
enum class Escapes : std::uint8_t {
    /// As collide::printable (text.hpp): controls as `\n`, `\x1b`, C1 controls and the
    /// invisible line-breaking characters as `\u202e`, a byte that is not UTF-8 as `\xff`;
    /// the rest of valid UTF-8 as it is.
    Terminal,
    /// Every byte outside printable ASCII as `\xFF` (upper case): the result is ASCII. The
    /// JSON reader's syntax errors quote the input's bytes so.
    Ascii,
};
/// `s` safe to show on one line, escaped in the given style.
std::string printable(std::string_view s, Escapes style);

/// Appends s as a JSON string, quotes included (U+FFFD for bytes that are not UTF-8).
void json_string(std::string& out, std::string_view s);
/// Appends s as an RFC 4180 field: quoted when it holds a comma, quote or line break.
void csv_field(std::string& out, std::string_view s);

}  // namespace collide::detail
