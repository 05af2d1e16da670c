// collide/error.hpp — the one exception type of the library.
//
// Every input problem (unreadable or invalid scene, bad pair spec) is reported by throwing
// collide::Error, which carries where it is: the file as the caller named it, the JSON
// pointer of the offending value (RFC 6901, "" for the whole document), and the 1-based
// line and column (in characters) when known. The library never prints or exits.
#pragma once

#include <stdexcept>
#include <string>

namespace collide {

/// An invalid or unreadable input, with its location.
class Error : public std::runtime_error {
public:
    /// line and column are 1-based; 0 when unknown.
    Error(std::string file, std::string json_path, std::string message, int line = 0, int column = 0);

    /// The file as the caller named it ("-" for standard input); may be empty.
    const std::string& file() const { return file_; }
    /// JSON pointer of the offending value, e.g. "/shapes/3/radius"; "" for the document.
    const std::string& json_path() const { return json_path_; }
    /// What is wrong, without the location.
    const std::string& message() const { return message_; }
    /// 1-based line of the offending value, 0 when unknown.
    int line() const { return line_; }
    /// 1-based column (in characters) of the offending value, 0 when unknown.
    int column() const { return column_; }

private:
    std::string file_;
    std::string json_path_;
    std::string message_;
    int line_;
    int column_;
};

}  // namespace collide
