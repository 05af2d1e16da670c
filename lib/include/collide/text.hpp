// collide/text.hpp — numbers and names as collide writes them, in reports and messages alike.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace collide {

/// The shortest decimal text that reads back to the same double ("48", "0.1", "1e+60"),
/// except that an integral value below 2^53 in magnitude is written as an integer
/// ("100000", not "1e+05"; 1e+20, beyond 2^53, stays as it is).
std::string format_number(double v);

/// `s` safe to show on one line of a terminal or log: control characters spelled out
/// (`\n`, `\r`, `\t`, `\x1b`; C1 controls as `\u009b`), so are the invisible characters that
/// reorder or break a line (bidirectional controls such as U+202E, U+2028, U+2029, U+FEFF) and
/// U+FFFE, U+FFFF (as `\u202e`), and each byte that is not part of valid UTF-8 as `\xff`;
/// everything else (backslashes too) as it is. The `text` report and
/// the command line's diagnostics use it, so that no id or file name can start a new line.
std::string printable(std::string_view s);

/// The edits (insertions, deletions, substitutions of a byte) that make `a` into `b`
/// (Levenshtein distance): what "did you mean" hints measure a mistyped key or option by.
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace collide
