// Godot's text resource format (godot_text.hpp): a recursive-descent reader, one pass, with
// the line and column of every value for messages. Nothing is copied that needs no decoding:
// names, words and strings without escapes are views of the text, and each list's items are
// gathered on a scratch stack, then stored in one block (a level holds 100,000s of values).
#include "maps/godot_text.hpp"

#include "collide/error.hpp"
#include "maps/layer_data.hpp"
#include "support/big_alloc.hpp"
#include "support/lane.hpp"
#include "support/text_encoding.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace collide::detail::godot {

struct Prefetch {
    // A string's bytes, or why they are not base64. Each job writes its own.
    struct Decoded {
        const char* text = nullptr;  // the string's first character, which names it
        std::string bytes, error;
        bool taken = false;
    };
    std::deque<Decoded> decoded;
    Lane lane;  // last: done with `decoded` (and the text) before they go

    // Decodes `text` (base64) on the lane, into room taken here: freed, it goes back to this
    // thread's heap, where what is made after it finds it (not to the lane's).
    void post(std::string_view text) {
        Decoded& d = decoded.emplace_back();
        d.text = text.data();
        d.bytes.reserve(text.size() / 4 * 3 + 3);
        lane.post([&d, text] {
            try {
                d.bytes = decode_base64(text, std::move(d.bytes));
            } catch (const DataError& e) {
                d.error = e.what();
            }
        });
    }
    // The slot of the string starting at `text`, its job done; null when none was posted.
    Decoded* find(const char* text) {
        for (Decoded& d : decoded)
            if (d.text == text && !d.taken) {
                lane.wait();
                return &d;
            }
        return nullptr;
    }
};

static_assert(sizeof(void*) != 8 || sizeof(Value) == 40, "a Value is 40 bytes: a level holds millions of them");

namespace {

// PackedByteArray strings from this size on are decoded on a lane while the file is read.
constexpr std::size_t kPrefetchBytes = std::size_t{1} << 20;

constexpr int kMaxDepth = 256;
// A Value holds a text's size and a list's count in 32 bits.
constexpr std::size_t kMaxCount = 0xFFFFFFFFu;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_word_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_word(char c) { return is_word_start(c) || (c >= '0' && c <= '9'); }

class Reader {
public:
    Reader(const std::string& file, std::string_view text) : file_(file), t_(text) {
        if (t_.substr(0, 3) == "\xEF\xBB\xBF") i_ = 3;
    }

    Document document() {
        while (true) {
            skip_blank();
            if (i_ >= t_.size()) break;
            if (t_[i_] == '[') {
                end_section();
                begin_section();
                doc_.sections.back() = header();
                attributes_ = count_;
            } else {
                // project.godot (a ConfigFile) starts with properties of no section.
                if (doc_.sections.empty()) begin_section();
                property();
            }
        }
        end_section();
        return std::move(doc_);
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
    std::string_view word() {
        const std::size_t from = i_;
        while (i_ < t_.size() && is_word(t_[i_])) ++i_;
        return t_.substr(from, i_ - from);
    }
    // A section's entries (its attributes, then its properties) are kept in one run of an
    // entry block: one that fills up mid-section is left for a new one, where the section's
    // entries so far are copied.
    void begin_section() {
        doc_.sections.emplace_back();
        section_ = entry_next_;
        count_ = attributes_ = 0;
    }
    void add_entry(std::string_view key, const Value& v) {
        if (entry_left_ == 0) {
            const std::size_t size = std::max(block_size(doc_.entry_blocks.size()), 2 * (count_ + 1));
            Entry* block = new_block(doc_.entry_blocks, size);
            if (count_ > 0) std::copy(section_, section_ + count_, block);
            section_ = block;
            entry_next_ = block + count_;
            entry_left_ = size - count_;
        }
        *entry_next_++ = Entry{key, v};
        --entry_left_;
        ++count_;
    }
    void end_section() {
        if (doc_.sections.empty()) return;
        Section& s = doc_.sections.back();
        s.attributes = Span<Entry>(section_, attributes_);
        s.properties = Span<Entry>(section_ + attributes_, count_ - attributes_);
    }

    // The items on scratch_ from `from` on, moved into one block of the document.
    Span<Value> store(std::size_t from) {
        const std::size_t n = scratch_.size() - from;
        if (n == 0) return {};
        if (n > kMaxCount) fail("a list of more than 4294967295 items");
        Value* block = allocate(n);
        std::copy(scratch_.begin() + static_cast<std::ptrdiff_t>(from), scratch_.end(), block);
        scratch_.resize(from);
        return Span<Value>(block, n);
    }
    // Blocks grow from 1,024 items to 65,536 (4 MiB and more, on huge pages): a small file
    // takes little, a big one few blocks.
    static std::size_t block_size(std::size_t blocks) { return std::size_t{1024} << std::min<std::size_t>(blocks / 4, 6); }
    template <class T>
    static T* new_block(std::vector<std::vector<T>>& blocks, std::size_t n) {
        std::vector<T>& block = blocks.emplace_back();
        reserve_huge(block, n);
        block.resize(n);
        return block.data();
    }
    Value* allocate(std::size_t n) {
        const std::size_t size = block_size(doc_.value_blocks.size());
        if (n > size / 4) return new_block(doc_.value_blocks, n);
        if (left_ < n) {
            next_ = new_block(doc_.value_blocks, size);
            left_ = size;
        }
        Value* p = next_;
        next_ += n;
        left_ -= n;
        return p;
    }

    Section header() {
        Section s;  // its attributes go to its run of entries (add_entry)
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
            if (i_ >= t_.size() || !is_word_start(t_[i_]))
                fail("expected an attribute or ']' in [" + std::string(s.tag) + "], found " + seen());
            const std::string_view name = word();
            skip_inline();
            if (i_ >= t_.size() || t_[i_] != '=') expect('=', "'=' after attribute '" + std::string(name) + "'");
            advance();
            skip_inline();
            add_entry(name, value(0));
        }
        skip_inline();
        if (i_ < t_.size() && t_[i_] != '\n' && t_[i_] != ';')
            fail("expected the end of the line after [" + std::string(s.tag) + "], found " + seen());
        return s;
    }

    // `key = value`: the key is everything before '=' on its line (trimmed), or a string.
    void property() {
        std::string_view key;
        if (t_[i_] == '"') {
            key = string_token();
        } else {
            const std::size_t from = i_;
            while (i_ < t_.size() && t_[i_] != '=' && t_[i_] != '\n') ++i_;
            std::size_t to = i_;
            while (to > from && is_space(t_[to - 1])) --to;
            key = t_.substr(from, to - from);
            if (key.empty()) fail("expected a property name, found " + seen());
        }
        skip_inline();
        if (i_ >= t_.size() || t_[i_] != '=') expect('=', "'=' after property '" + std::string(key) + "'");
        advance();
        skip_inline();
        Value v = value(0);
        skip_inline();
        if (i_ < t_.size() && t_[i_] != '\n' && t_[i_] != ';')
            fail("expected the end of the line after property '" + std::string(key) + "', found " + seen());
        add_entry(key, v);
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
            v.set_text(string_token());
        } else if ((c == '&' || c == '^') && i_ + 1 < t_.size() && t_[i_ + 1] == '"') {
            v.kind = c == '&' ? Value::Kind::StringName : Value::Kind::NodePath;
            advance();
            v.set_text(string_token());
        } else if (c == '[') {
            v.kind = Value::Kind::Array;
            v.set_items(list(']', depth, false));
        } else if (c == '{') {
            v.kind = Value::Kind::Dict;
            v.set_items(dict(depth));
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
    Span<Value> list(char close, int depth, bool keyed) {
        const std::size_t from = scratch_.size();
        advance();  // the opening bracket
        while (true) {
            skip_blank();
            if (i_ < t_.size() && t_[i_] == close) {
                advance();
                return store(from);
            }
            Value item = value(depth + 1);
            skip_blank();
            if (keyed && item.kind == Value::Kind::String && i_ < t_.size() && t_[i_] == ':') {
                advance();
                const Value entry_value = value(depth + 1);
                Value entry;
                entry.kind = Value::Kind::Dict;
                entry.line = item.line;
                entry.column = item.column;
                Value* pair = allocate(2);
                pair[0] = item;
                pair[1] = entry_value;
                entry.set_items(Span<Value>(pair, 2));
                item = entry;
                skip_blank();
            }
            scratch_.push_back(item);
            if (i_ < t_.size() && t_[i_] == ',') {
                advance();
                continue;
            }
            if (i_ < t_.size() && t_[i_] == close) continue;
            fail(std::string("expected ',' or '") + close + "', found " + seen());
        }
    }

    Span<Value> dict(int depth) {
        const std::size_t from = scratch_.size();
        advance();  // '{'
        while (true) {
            skip_blank();
            if (i_ < t_.size() && t_[i_] == '}') {
                advance();
                return store(from);
            }
            const Value key = value(depth + 1);
            scratch_.push_back(key);
            skip_blank();
            expect(':', "':' after a dictionary key");
            const Value v = value(depth + 1);
            scratch_.push_back(v);
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
            const std::string_view w = word();
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
        std::string_view w = word();
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
                if (t_[i_] == '\n') fail("expected ']' after '" + std::string(w) + "[', found the end of the line");
                ++i_;
            } while (i_ < t_.size() && open > 0);
            if (open > 0) fail("expected ']' after '" + std::string(w) + "[', found the end of the file");
            w = t_.substr(from, i_ - from);
        }
        skip_inline();
        if (i_ < t_.size() && t_[i_] == '(') {
            v.kind = Value::Kind::Call;
            v.set_text(w);
            v.set_items(list(')', depth, w == "Object"));
            if (w == "PackedByteArray" && v.items().size() == 1 && v.items()[0].kind == Value::Kind::String &&
                v.items()[0].text().size() >= kPrefetchBytes) {
                if (!doc_.prefetch) doc_.prefetch = std::make_shared<Prefetch>();
                doc_.prefetch->post(v.items()[0].text());
            }
            return;
        }
        v.kind = Value::Kind::Word;
        v.set_text(w);
    }

    // Line breaks in t_[from, to) counted.
    void count_lines(std::size_t from, std::size_t to) {
        const char* base = t_.data();
        for (const char* nl = static_cast<const char*>(std::memchr(base + from, '\n', to - from)); nl;
             nl = static_cast<const char*>(std::memchr(nl + 1, '\n', static_cast<std::size_t>(base + to - nl - 1)))) {
            ++line_;
            line_start_ = static_cast<std::size_t>(nl - base) + 1;
        }
    }

    // A "..." token: escapes decoded (\n \t \r \b \f \" \\ \' \/ \uXXXX \UXXXXXX), raw line
    // breaks kept. A string without escapes (a layer's base64 is tens of megabytes) is a view of
    // the text, found with memchr.
    std::string_view string_token() {
        const std::size_t line = line_, column = i_ - line_start_ + 1;
        advance();  // '"'
        const char* base = t_.data();
        const void* quote = std::memchr(base + i_, '"', t_.size() - i_);
        if (!quote) fail_at("a string that never ends", line, column);
        const std::size_t close = static_cast<std::size_t>(static_cast<const char*>(quote) - base);
        if (close - i_ > kMaxCount) fail_at("a string of 4 GiB or more", line, column);
        if (!std::memchr(base + i_, '\\', close - i_)) {
            const std::size_t from = i_;
            count_lines(from, close);
            i_ = close + 1;
            return t_.substr(from, close - from);
        }
        std::string& out = doc_.strings.emplace_back();
        while (true) {
            // The run of plain bytes up to the next quote or backslash, copied at once.
            std::size_t stop = i_;
            while (stop < t_.size() && t_[stop] != '"' && t_[stop] != '\\') ++stop;
            out.append(t_.data() + i_, stop - i_);
            count_lines(i_, stop);
            i_ = stop;
            if (i_ >= t_.size()) fail_at("a string that never ends", line, column);
            if (t_[i_] == '"') {
                advance();
                if (out.size() > kMaxCount) fail_at("a string of 4 GiB or more", line, column);
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
    Document doc_;
    std::vector<Value> scratch_;  // the items of the lists being read, innermost last
    Value* next_ = nullptr;       // where the next small block starts, in the last one allocated
    std::size_t left_ = 0;        // and how many Values it still has room for
    Entry* section_ = nullptr;    // the current section's first entry
    std::size_t count_ = 0, attributes_ = 0;  // its entries, and how many are attributes
    Entry* entry_next_ = nullptr;  // where the next entry goes
    std::size_t entry_left_ = 0;   // room left in its block
};

const Value* find(Span<Entry> list, std::string_view name) {
    for (std::size_t k = list.size(); k-- > 0;)
        if (list[k].first == name) return &list[k].second;
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
        case Value::Kind::Call: return "a " + std::string(v.text()) + "(...)";
        case Value::Kind::Word: return "the word '" + std::string(v.text()) + "'";
    }
    return "a value";
}

std::string packed_bytes(const std::string& file, const Value& v, const Document* in) {
    const auto fail = [&](const std::string& message) {
        throw Error(file, "", message, static_cast<int>(v.line), static_cast<int>(v.column));
    };
    if (!v.is_call("PackedByteArray")) fail("expected a PackedByteArray(...), found " + describe(v));
    if (v.items().size() == 1 && v.items()[0].kind == Value::Kind::String) {
        if (Prefetch::Decoded* d = in && in->prefetch ? in->prefetch->find(v.items()[0].text().data()) : nullptr) {
            d->taken = true;
            if (!d->error.empty()) fail("PackedByteArray: " + d->error);
            return std::move(d->bytes);
        }
        try {
            return decode_base64(v.items()[0].text());
        } catch (const DataError& e) {
            fail(std::string("PackedByteArray: ") + e.what());
        }
    }
    std::string out;
    out.reserve(v.items().size());
    for (const Value& b : v.items()) {
        if (b.kind != Value::Kind::Int || b.integer < 0 || b.integer > 255)
            throw Error(file, "", "PackedByteArray: expected a byte (0 to 255), found " + describe(b), static_cast<int>(b.line),
                        static_cast<int>(b.column));
        out += static_cast<char>(b.integer);
    }
    return out;
}

}  // namespace collide::detail::godot
