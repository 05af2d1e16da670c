// Where a value sits in JSON text: used to give line:column in errors found after parsing.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace collide::detail {

/// 1-based line and column (in characters) of a byte offset in text.
struct TextPos {
    int line = 0;
    int column = 0;
};
TextPos position_of(std::string_view text, std::size_t offset);

/// Byte offset of the value at a JSON pointer ("/shapes/3/radius") in valid JSON text,
/// or npos when it cannot be found (the text needs to be valid only up to that value).
std::size_t find_pointer(std::string_view text, std::string_view pointer);

/// Escape a key or index for a JSON pointer ("~" -> "~0", "/" -> "~1").
std::string pointer_token(std::string_view key);

/// Parses JSON text (a UTF-8 byte order mark skipped) into `out`. A syntax error, or a number
/// beyond the double range, throws Error(file, "", prefix + "not valid JSON: WHAT") at its
/// line:column; WHAT quotes no byte of the text (a file that is not JSON at all, /etc/passwd
/// named as a template, must not be echoed into a CI log).
void parse_json(nlohmann::json& out, const std::string& file, std::string_view text, const std::string& prefix);

}  // namespace collide::detail
