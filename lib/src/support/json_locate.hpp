// Where a value sits in JSON text: used to give line:column in errors found after parsing.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace collide::detail {

/// 1-based line and column (in characters) of a byte offset in text.
struct TextPos {
    int line = 0;
    int column = 0;
};
TextPos position_of(std::string_view text, std::size_t offset);

/// Line and column in bytes (SPEC §3.1's sources) of offsets asked mostly in increasing order:
/// the lines are counted on from the offset asked last (from the start for one behind it), so
/// a million offsets in order cost one pass over the text. Line breaks as position_of's.
class LineCounter {
public:
    explicit LineCounter(std::string_view text) : text_(text) {}
    TextPos at(std::size_t offset);

private:
    std::string_view text_;
    std::size_t at_ = 0, line_ = 1, line_start_ = 0;
};

/// Byte offset of the value at a JSON pointer ("/shapes/3/radius") in valid JSON text,
/// or npos when it cannot be found (the text needs to be valid only up to that value).
std::size_t find_pointer(std::string_view text, std::string_view pointer);

/// The byte offsets of many JSON pointers in one valid JSON text, read once (a map's objects:
/// find_pointer for each would read the text once each). A pointer that goes past what the
/// text holds gives the offset of the deepest value it reaches; npos when the text is not JSON.
std::vector<std::size_t> find_pointers(std::string_view text, const std::vector<std::string_view>& pointers);

/// Escape a key or index for a JSON pointer ("~" -> "~0", "/" -> "~1").
std::string pointer_token(std::string_view key);

/// Parses JSON text (a UTF-8 byte order mark skipped) into `out`. A syntax error, or a number
/// beyond the double range, throws Error(file, "", prefix + "not valid JSON: WHAT") at its
/// line:column; WHAT quotes no byte of the text (a file that is not JSON at all, /etc/passwd
/// named as a template, must not be echoed into a CI log).
void parse_json(nlohmann::json& out, const std::string& file, std::string_view text, const std::string& prefix);

}  // namespace collide::detail
