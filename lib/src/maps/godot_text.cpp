// Godot's text resource format (godot_text.hpp): a recursive-descent reader, one pass, with
// the line and column of every value for messages.
#include "maps/godot_text.hpp"

#include "collide/error.hpp"
#include "maps/layer_data.hpp"
#include "support/text_encoding.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace collide::detail::godot {

namespace {

constexpr int kMaxDepth = 256;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_word_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_word(char c) { return is_word_start(c) || (c >= '0' && c <= '9'); }

class Reader {
public:
    Reader(const std::string& file, std::string_view text) : file_(file), t_(text) {
        if (t_.substr(0, 3) == "\xEF\xBB\xBF") i_ = 3;
    }

    Document document() {
        Document doc;
        while (true) {
            skip_blank();
            if (i_ >= t_.size()) return doc;
            if (t_[i_] == '[') {
                doc.sections.push_back(header());
            } else {
                // project.godot (a ConfigFile) starts with properties of no section.
                if (doc.sections.empty()) doc.sections.emplace_back();
                doc.sections.back().properties.push_back(property());
            }
        }
    }

private:
    [[noreturn]] void fail(const std::string& message) const { fail_at(message, line_, i_ - line_start_ + 1); }
    [[noreturn]] void fail_at(const std::string& message, std::size_t line, std::size_t column) const {
        throw Error(file_, "", message, static_cast<int>(line), static_cast<int>(column));
    }
    std::string seen() const {
        if (i_ >= t_.size()) return "the end of the file";
        const unsigned char c = static_cast<unsigned char>(t_[i_]);
        if (c < 0x20 || c == 0x7F) return "a control byte";
        return "'" + std::string(1, t_[i_]) + "'";
    }
    void advance() {
        if (t_[i_] == '\n') {
            ++line_;
            line_start_ = i_ + 1;
        }
        ++i_;
    }
    // White space, and `;` comments to the end of their line.
    void skip_blank() {
        while (i_ < t_.size()) {
            if (is_space(t_[i_])) {
                advance();
            } else if (t_[i_] == ';') {
                while (i_ < t_.size() && t_[i_] != '\n') ++i_;
            } else {
                return;
            }
        }
    }
    // Spaces and tabs only: a header's attributes and a property's key stay on one line.
    void skip_inline() {
        while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\r')) ++i_;
    }
    void expect(char c, const std::string& what) {
        if (i_ >= t_.size() || t_[i_] != c) fail(std::string("expected ") + what + ", found " + seen());
        advance();
    }
    std::string word() {
        const std::size_t from = i_;
        while (i_ < t_.size() && is_word(t_[i_])) ++i_;
        return std::string(t_.substr(from, i_ - from));
    }

    Section header() {
        Section s;
        s.line = static_cast<std::uint32_t>(line_);
        s.column = static_cast<std::uint32_t>(i_ - line_start_ + 1);
        advance();  // '['
        skip_inline();
        if (i_ >= t_.size() || !is_word_start(t_[i_])) fail("expected a section name after '[', found " + seen());
        s.tag = word();
        while (true) {
            skip_inline();
            if (i_ < t_.size() && t_[i_] == ']') {
                advance();
                break;
            }
            if (i_ >= t_.size() || !is_word_start(t_[i_])) fail("expected an attribute or ']' in [" + s.tag + "], found " + seen());
            std::string name = word();
            skip_inline();
            expect('=', "'=' after attribute '" + name + "'");
            skip_inline();
            s.attributes.emplace_back(std::move(name), value(0));
        }
        skip_inline();
        if (i_ < t_.size() && t_[i_] != '\n' && t_[i_] != ';') fail("expected the end of the line after [" + s.tag + "], found " + seen());
        return s;
    }

    // `key = value`: the key is everything before '=' on its line (trimmed), or a string.
    std::pair<std::string, Value> property() {
        std::string key;
        if (t_[i_] == '"') {
            key = string_token();
        } else {
            const std::size_t from = i_;
            while (i_ < t_.size() && t_[i_] != '=' && t_[i_] != '\n') ++i_;
            std::size_t to = i_;
            while (to > from && is_space(t_[to - 1])) --to;
            key = std::string(t_.substr(from, to - from));
            if (key.empty()) fail("expected a property name, found " + seen());
        }
        skip_inline();
        expect('=', "'=' after property '" + key + "'");
        skip_inline();
        Value v = value(0);
        skip_inline();
        if (i_ < t_.size() && t_[i_] != '\n' && t_[i_] != ';') fail("expected the end of the line after property '" + key + "', found " + seen());
        return {std::move(key), std::move(v)};
    }

    Value value(int depth) {
        if (depth > kMaxDepth) fail("values nested deeper than " + std::to_string(kMaxDepth));
        skip_blank();
        Value v;
        v.line = static_cast<std::uint32_t>(line_);
        v.column = static_cast<std::uint32_t>(i_ - line_start_ + 1);
        if (i_ >= t_.size()) fail("expected a value, found the end of the file");
        const char c = t_[i_];
        if (c == '"') {
            v.kind = Value::Kind::String;
            v.text = string_token();
        } else if ((c == '&' || c == '^') && i_ + 1 < t_.size() && t_[i_ + 1] == '"') {
            v.kind = c == '&' ? Value::Kind::StringName : Value::Kind::NodePath;
            advance();
            v.text = string_token();
        } else if (c == '[') {
            v.kind = Value::Kind::Array;
            list(v.items, ']', depth, false);
        } else if (c == '{') {
            v.kind = Value::Kind::Dict;
            dict(v.items, depth);
        } else if (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) {
            number(v);
        } else if (is_word_start(c)) {
            word_value(v, depth);
        } else {
            fail("expected a value, found " + seen());
        }
        return v;
    }

    // Elements up to `close`, separated by commas (a trailing one allowed); with `keyed`, an
    // element may be `"key": value` (Object(...)'s properties), kept as a Dict of one entry.
    void list(std::vector<Value>& out, char close, int depth, bool keyed) {
        advance();  // the opening bracket
        while (true) {
            skip_blank();
            if (i_ < t_.size() && t_[i_] == close) {
                advance();
                return;
            }
            Value item = value(depth + 1);
            skip_blank();
            if (keyed && item.kind == Value::Kind::String && i_ < t_.size() && t_[i_] == ':') {
                advance();
                Value entry;
                entry.kind = Value::Kind::Dict;
                entry.line = item.line;
                entry.column = item.column;
                entry.items.push_back(std::move(item));
                entry.items.push_back(value(depth + 1));
                item = std::move(entry);
                skip_blank();
            }
            out.push_back(std::move(item));
            if (i_ < t_.size() && t_[i_] == ',') {
                advance();
                continue;
            }
            if (i_ < t_.size() && t_[i_] == close) continue;
            fail(std::string("expected ',' or '") + close + "', found " + seen());
        }
    }

    void dict(std::vector<Value>& out, int depth) {
        advance();  // '{'
        while (true) {
            skip_blank();
            if (i_ < t_.size() && t_[i_] == '}') {
                advance();
                return;
            }
            out.push_back(value(depth + 1));
            skip_blank();
            expect(':', "':' after a dictionary key");
            out.push_back(value(depth + 1));
            skip_blank();
            if (i_ < t_.size() && t_[i_] == ',') {
                advance();
                continue;
            }
            if (i_ < t_.size() && t_[i_] == '}') continue;
            fail("expected ',' or '}', found " + seen());
        }
    }

    void number(Value& v) {
        const std::size_t from = i_;
        if (t_[i_] == '-' || t_[i_] == '+') ++i_;
        // -inf, inf_neg, nan after a sign are words.
        if (i_ < t_.size() && is_word_start(t_[i_]) && t_[i_] != 'e' && t_[i_] != 'E') {
            const std::string w = word();
            if (w != "inf") fail_at("expected a number, found '" + std::string(t_.substr(from, i_ - from)) + "'", line_, from - line_start_ + 1);
            v.kind = Value::Kind::Real;
            v.real = t_[from] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
            return;
        }
        bool real = false;
        while (i_ < t_.size()) {
            const char c = t_[i_];
            if (c >= '0' && c <= '9') {
                ++i_;
            } else if (c == '.' || c == 'e' || c == 'E') {
                real = true;
                ++i_;
                if ((c == 'e' || c == 'E') && i_ < t_.size() && (t_[i_] == '-' || t_[i_] == '+')) ++i_;
            } else {
                break;
            }
        }
        std::string_view text = t_.substr(from, i_ - from);
        if (!text.empty() && text[0] == '+') text.remove_prefix(1);
        const char* end = text.data() + text.size();
        if (!real) {
            const auto [ptr, ec] = std::from_chars(text.data(), end, v.integer);
            if (ec == std::errc() && ptr == end) {
                v.kind = Value::Kind::Int;
                return;
            }
            if (ec != std::errc::result_out_of_range || ptr != end)
                fail_at("expected a number, found '" + std::string(t_.substr(from, i_ - from)) + "'", line_, from - line_start_ + 1);
        }
        const auto [ptr, ec] = std::from_chars(text.data(), end, v.real);
        if ((ec != std::errc() && ec != std::errc::result_out_of_range) || ptr != end || text.empty())
            fail_at("expected a number, found '" + std::string(t_.substr(from, i_ - from)) + "'", line_, from - line_start_ + 1);
        if (ec == std::errc::result_out_of_range) {
            // Beyond the double range: as Godot reads it, an infinity (or a zero below it).
            const bool tiny = text.find_first_of("eE") != std::string_view::npos && text[text.find_first_of("eE") + 1] == '-';
            v.real = tiny ? 0.0 : std::numeric_limits<double>::infinity();
            if (text[0] == '-') v.real = -v.real;
        }
        v.kind = Value::Kind::Real;
    }

    void word_value(Value& v, int depth) {
        const std::size_t from = i_;
        std::string w = word();
        if (w == "null" || w == "nil") return;
        if (w == "true" || w == "false") {
            v.kind = Value::Kind::Bool;
            v.boolean = w == "true";
            return;
        }
        if (w == "inf" || w == "inf_neg" || w == "nan") {
            v.kind = Value::Kind::Real;
            v.real = w == "nan" ? std::numeric_limits<double>::quiet_NaN()
                                : (w == "inf" ? 1 : -1) * std::numeric_limits<double>::infinity();
            return;
        }
        // A typed container's element types: Array[int], Dictionary[String, Node].
        if (i_ < t_.size() && t_[i_] == '[') {
            int open = 0;
            do {
                if (t_[i_] == '[') ++open;
                if (t_[i_] == ']') --open;
                if (t_[i_] == '\n') fail("expected ']' after '" + w + "[', found the end of the line");
                ++i_;
            } while (i_ < t_.size() && open > 0);
            if (open > 0) fail("expected ']' after '" + w + "[', found the end of the file");
            w = std::string(t_.substr(from, i_ - from));
        }
        skip_inline();
        if (i_ < t_.size() && t_[i_] == '(') {
            v.kind = Value::Kind::Call;
            v.text = std::move(w);
            list(v.items, ')', depth, v.text == "Object");
            return;
        }
        v.kind = Value::Kind::Word;
        v.text = std::move(w);
    }

    // A "..." token: escapes decoded (\n \t \r \b \f \" \\ \' \/ \uXXXX \UXXXXXX), raw line
    // breaks kept.
    std::string string_token() {
        const std::size_t line = line_, column = i_ - line_start_ + 1;
        advance();  // '"'
        std::string out;
        while (true) {
            // The run of plain bytes up to the next quote or backslash, copied at once (a
            // layer's base64 is tens of megabytes), its line breaks counted.
            std::size_t stop = i_;
            while (stop < t_.size() && t_[stop] != '"' && t_[stop] != '\\') ++stop;
            out.append(t_.data() + i_, stop - i_);
            for (std::size_t nl = t_.find('\n', i_); nl < stop; nl = t_.find('\n', nl + 1)) {
                ++line_;
                line_start_ = nl + 1;
            }
            i_ = stop;
            if (i_ >= t_.size()) fail_at("a string that never ends", line, column);
            if (t_[i_] == '"') {
                advance();
                return out;
            }
            advance();
            if (i_ >= t_.size()) fail_at("a string that never ends", line, column);
            const char e = t_[i_];
            advance();
            switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'a': out += '\a'; break;
                case 'v': out += '\v'; break;
                case '"': case '\\': case '\'': case '/': out += e; break;
                case 'u': case 'U': {
                    // A surrogate half, or a code point beyond U+10FFFF, as U+FFFD.
                    const std::uint32_t cp = hex(e == 'u' ? 4 : 6);
                    append_utf8(out, (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF ? 0xFFFD : cp);
                    break;
                }
                default: fail_at(std::string("unknown escape '\\") + e + "' in a string", line_, i_ - line_start_ - 1);
            }
        }
    }
    std::uint32_t hex(int digits) {
        std::uint32_t v = 0;
        for (int k = 0; k < digits; ++k) {
            if (i_ >= t_.size()) fail("expected a hexadecimal digit, found the end of the file");
            const char c = t_[i_];
            const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (d < 0) fail("expected a hexadecimal digit, found " + seen());
            v = v * 16 + static_cast<std::uint32_t>(d);
            ++i_;
        }
        return v;
    }

    const std::string& file_;
    std::string_view t_;
    std::size_t i_ = 0;
    std::size_t line_ = 1, line_start_ = 0;
};

const Value* find(const std::vector<std::pair<std::string, Value>>& list, std::string_view name) {
    for (auto it = list.rbegin(); it != list.rend(); ++it)
        if (it->first == name) return &it->second;
    return nullptr;
}

}  // namespace

const Value* Section::attribute(std::string_view name) const { return find(attributes, name); }
const Value* Section::property(std::string_view name) const { return find(properties, name); }

Document parse_text_resource(const std::string& file, std::string_view text) { return Reader(file, text).document(); }

std::string describe(const Value& v) {
    switch (v.kind) {
        case Value::Kind::Nil: return "null";
        case Value::Kind::Bool: return "a boolean";
        case Value::Kind::Int: return "an integer";
        case Value::Kind::Real: return "a number";
        case Value::Kind::String: return "a string";
        case Value::Kind::StringName: return "a StringName";
        case Value::Kind::NodePath: return "a NodePath";
        case Value::Kind::Array: return "an array";
        case Value::Kind::Dict: return "a dictionary";
        case Value::Kind::Call: return "a " + v.text + "(...)";
        case Value::Kind::Word: return "the word '" + v.text + "'";
    }
    return "a value";
}

std::string packed_bytes(const std::string& file, const Value& v) {
    const auto fail = [&](const std::string& message) {
        throw Error(file, "", message, static_cast<int>(v.line), static_cast<int>(v.column));
    };
    if (!v.is_call("PackedByteArray")) fail("expected a PackedByteArray(...), found " + describe(v));
    if (v.items.size() == 1 && v.items[0].kind == Value::Kind::String) {
        try {
            return decode_base64(v.items[0].text);
        } catch (const DataError& e) {
            fail(std::string("PackedByteArray: ") + e.what());
        }
    }
    std::string out;
    out.reserve(v.items.size());
    for (const Value& b : v.items) {
        if (b.kind != Value::Kind::Int || b.integer < 0 || b.integer > 255)
            throw Error(file, "", "PackedByteArray: expected a byte (0 to 255), found " + describe(b), static_cast<int>(b.line),
                        static_cast<int>(b.column));
        out += static_cast<char>(b.integer);
    }
    return out;
}

}  // namespace collide::detail::godot
