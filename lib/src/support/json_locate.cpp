#include "support/json_locate.hpp"

#include "collide/error.hpp"
#include "support/json_doc.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace collide::detail {

TextPos position_of(std::string_view text, std::size_t offset) {
    TextPos p{1, 1};
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n' || (c == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {  // LF, CRLF or CR alone
            ++p.line;
            p.column = 1;
        } else if (c == '\r') {
            continue;
        } else if ((c & 0xC0) != 0x80) {  // count characters, not UTF-8 continuation bytes
            ++p.column;
        }
    }
    return p;
}

TextPos LineCounter::at(std::size_t offset) {
    offset = std::min(offset, text_.size());
    if (offset < at_) at_ = 0, line_ = 1, line_start_ = 0;
    const char* from = text_.data() + at_;
    const char* to = text_.data() + offset;
    if (std::memchr(from, '\r', static_cast<std::size_t>(to - from)) == nullptr) {
        // No CR (nearly every file): the LFs are the breaks, found by memchr.
        for (const char* p = from; (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(to - p))));) {
            ++line_;
            line_start_ = static_cast<std::size_t>(++p - text_.data());
        }
    } else {
        for (std::size_t i = at_; i < offset; ++i) {
            const char c = text_[i];
            if (c == '\n' || (c == '\r' && (i + 1 >= text_.size() || text_[i + 1] != '\n'))) {
                ++line_;
                line_start_ = i + 1;
            }
        }
    }
    at_ = offset;
    return TextPos{static_cast<int>(line_), static_cast<int>(offset - line_start_ + 1)};
}

std::vector<std::size_t> find_pointers(std::string_view text, const std::vector<std::string_view>& pointers) {
    std::vector<std::size_t> out(pointers.size(), std::string_view::npos);
    const std::size_t bom = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // offsets count it
    text.remove_prefix(bom);
    JsonDoc doc(text);
    std::optional<JsonValue> root;
    try {
        root = doc.parse_value();
    } catch (const JsonSyntax&) {
        return out;
    }
    for (std::size_t k = 0; k < pointers.size(); ++k) {
        JsonValue v = *root;
        std::string_view rest = pointers[k];
        while (rest.size() > 1 && rest[0] == '/') {
            const std::size_t end = std::min(rest.find('/', 1), rest.size());
            std::string token(rest.substr(1, end - 1));
            for (std::size_t i = 0; (i = token.find('~', i)) != std::string::npos; ++i)
                if (i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1'))
                    token.replace(i, 2, token[i + 1] == '0' ? "~" : "/");
            std::size_t index = 0;
            if (v.is_object()) {
                index = v.find(token);
            } else if (v.is_array()) {
                const auto r = std::from_chars(token.data(), token.data() + token.size(), index);
                if (r.ec != std::errc() || r.ptr != token.data() + token.size()) break;
            } else {
                break;
            }
            if (index >= v.size() || v[index].offset() == std::string_view::npos) break;
            v = v[index];
            rest.remove_prefix(end);
        }
        out[k] = v.offset() == std::string_view::npos ? v.offset() : v.offset() + bom;
    }
    return out;
}

std::string pointer_token(std::string_view key) {
    std::string out;
    for (char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

namespace {

class Scanner {
public:
    explicit Scanner(std::string_view t) : t_(t) {}
    std::size_t i = 0;

    void ws() {
        while (i < t_.size() && (t_[i] == ' ' || t_[i] == '\t' || t_[i] == '\n' || t_[i] == '\r')) ++i;
    }
    bool eat(char c) {
        ws();
        if (i < t_.size() && t_[i] == c) {
            ++i;
            return true;
        }
        return false;
    }
    // A string token starting at i; returns its decoded value.
    bool string(std::string& out) {
        ws();
        if (i >= t_.size() || t_[i] != '"') return false;
        const std::size_t start = i++;
        bool escaped = false;
        while (i < t_.size() && t_[i] != '"') {
            if (t_[i] == '\\') {
                escaped = true;
                ++i;
            }
            ++i;
        }
        if (i >= t_.size()) return false;
        ++i;
        const std::string_view raw = t_.substr(start, i - start);
        if (!escaped) {
            out.assign(raw.substr(1, raw.size() - 2));
            return true;
        }
        try {
            out = nlohmann::json::parse(raw).get<std::string>();
        } catch (const std::exception&) {
            return false;
        }
        return true;
    }
    bool skip_value() {
        ws();
        if (i >= t_.size()) return false;
        const char c = t_[i];
        if (c == '"') {
            std::string ignored;
            return string(ignored);
        }
        if (c == '{' || c == '[') {
            const char close = c == '{' ? '}' : ']';
            ++i;
            if (eat(close)) return true;
            do {
                if (c == '{') {
                    std::string ignored;
                    if (!string(ignored) || !eat(':')) return false;
                }
                if (!skip_value()) return false;
            } while (eat(','));
            return eat(close);
        }
        while (i < t_.size() && t_[i] != ',' && t_[i] != '}' && t_[i] != ']' && t_[i] != ' ' && t_[i] != '\n' &&
               t_[i] != '\r' && t_[i] != '\t')
            ++i;
        return true;
    }
    char peek() {
        ws();
        return i < t_.size() ? t_[i] : '\0';
    }

private:
    std::string_view t_;
};

std::vector<std::string> split_pointer(std::string_view pointer) {
    std::vector<std::string> tokens;
    std::size_t pos = 1;
    while (pos <= pointer.size() && !pointer.empty()) {
        std::size_t next = pointer.find('/', pos);
        if (next == std::string_view::npos) next = pointer.size();
        std::string tok;
        for (std::size_t k = pos; k < next; ++k) {
            if (pointer[k] == '~' && k + 1 < next) {
                tok += pointer[k + 1] == '1' ? '/' : '~';
                ++k;
            } else {
                tok += pointer[k];
            }
        }
        tokens.push_back(tok);
        pos = next + 1;
    }
    return tokens;
}

}  // namespace

std::size_t find_pointer(std::string_view text, std::string_view pointer) {
    Scanner s(text);
    for (const std::string& tok : split_pointer(pointer)) {
        const char c = s.peek();
        if (c == '{') {
            s.eat('{');
            bool found = false;
            while (!found) {
                std::string key;
                if (!s.string(key) || !s.eat(':')) return std::string_view::npos;
                if (key == tok) {
                    found = true;
                    break;
                }
                if (!s.skip_value() || !s.eat(',')) return std::string_view::npos;
            }
        } else if (c == '[') {
            s.eat('[');
            std::size_t want = 0;
            for (char d : tok) {
                if (d < '0' || d > '9') return std::string_view::npos;
                want = want * 10 + static_cast<std::size_t>(d - '0');
            }
            for (std::size_t k = 0; k < want; ++k)
                if (!s.skip_value() || !s.eat(',')) return std::string_view::npos;
        } else {
            return std::string_view::npos;
        }
    }
    s.ws();
    return s.i;
}

namespace {

// nlohmann's DOM builder, but a syntax error is kept with its byte offset rather than thrown
// (out_of_range.406, a number too big for a double, is thrown by json::parse with no position).
class LocatedDom : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
public:
    explicit LocatedDom(nlohmann::json& out) : json_sax_dom_parser(out, false) {}
    std::size_t offset = 0;
    std::string message;

    bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& ex) {
        offset = position > 0 ? position - 1 : 0;
        // A number too big for a double is reported after it: point at its first byte.
        if (ex.id == 406 && token.size() <= position) offset = position - token.size();
        message = without_quotes(ex.what());
        return false;
    }

private:
    // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error while
    // parsing value - invalid literal; last read: 'r'; expected ...": the place is ours to
    // give, and what was last read is the text's own bytes.
    static std::string without_quotes(const std::string& what) {
        const std::size_t col = what.find(", column ");
        const std::size_t colon = col == std::string::npos ? std::string::npos : what.find(": ", col);
        const std::size_t tag = what.find("] ");
        std::string m = colon != std::string::npos ? what.substr(colon + 2) : tag != std::string::npos ? what.substr(tag + 2) : what;
        const std::size_t read = m.find("; last read: '");
        if (read != std::string::npos) {
            const std::size_t expected = m.find("'; expected ", read + 14);
            m.erase(read, expected == std::string::npos ? std::string::npos : expected + 1 - read);
        }
        return m;
    }
};

}  // namespace

void parse_json(nlohmann::json& out, const std::string& file, std::string_view text, const std::string& prefix) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    LocatedDom sax(out);
    if (nlohmann::json::sax_parse(text.begin(), text.end(), &sax)) return;
    const TextPos p = position_of(text, sax.offset);
    throw Error(file, "", prefix + "not valid JSON: " + sax.message, p.line, p.column);
}

}  // namespace collide::detail
