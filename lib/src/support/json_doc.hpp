// A small, fast JSON reader for scene files: one value at a time is parsed into an arena
// that is reused, so a scene with a million shapes never holds a million-node document.
//
// It accepts exactly RFC 8259 JSON (numbers read with std::from_chars, strings checked as
// UTF-8). On anything it does not accept it throws JsonSyntax with the byte offset; the
// caller then asks nlohmann/json for its (well-known, tested) diagnostic of the same text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace collide::detail {

/// A syntax error at a byte offset. `why` is set where the reader, not JSON, draws the line
/// (nesting depth, content after the document); nlohmann describes the others.
struct JsonSyntax {
    std::size_t offset;
    const char* why = nullptr;
    bool own_words = true;  ///< false: nlohmann's diagnosis of the same text comes first
};

class JsonDoc;

/// Key equality for the short keys of scene files, which mostly differ in length or first
/// letter: those are tested first, and the rest byte by byte (a call to memcmp costs more
/// than the few bytes of a key).
inline bool same_key(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return false;
    return true;
}

/// A read-only view of one value in a JsonDoc.
class JsonValue {
public:
    enum class Kind : std::uint8_t { Null, Bool, Number, String, Array, Object };

    JsonValue(const JsonDoc* doc, std::uint32_t index) : doc_(doc), i_(index) {}

    Kind kind() const;
    bool is_null() const { return kind() == Kind::Null; }
    bool is_bool() const { return kind() == Kind::Bool; }
    bool is_number() const { return kind() == Kind::Number; }
    /// A number written without fraction or exponent.
    bool is_integer() const;
    bool is_string() const { return kind() == Kind::String; }
    bool is_array() const { return kind() == Kind::Array; }
    bool is_object() const { return kind() == Kind::Object; }

    bool boolean() const;
    double number() const;
    std::string_view string() const;
    /// Byte offset of the value's first character in the text; unknown (npos) for the
    /// elements of an array of numbers, which are stored packed.
    std::size_t offset() const;

    /// Arrays and objects: the number of elements or members.
    std::size_t size() const;
    /// Arrays: element i; objects: the value of member i.
    JsonValue operator[](std::size_t i) const;
    /// Objects: the key of member i.
    std::string_view key(std::size_t i) const;
    /// Objects: the member called k, or nullptr-like (valid() false).
    bool has(std::string_view k) const;
    JsonValue at(std::string_view k) const;  // precondition: has(k)
    /// Objects: the index of the member called k, or size() when there is none.
    std::size_t find(std::string_view k) const;

private:
    const JsonDoc* doc_;
    std::uint32_t i_;
};

/// The reader. Values parsed by parse_value() live until the next reset().
class JsonDoc {
public:
    explicit JsonDoc(std::string_view text) : t_(text) {}

    /// Forget every value parsed so far (keeps the memory for reuse).
    void reset();

    /// Skip white space; the next character, or '\0' at the end.
    char peek() {
        ws();
        return p_ < t_.size() ? t_[p_] : '\0';
    }
    /// Consume c (after white space) or throw JsonSyntax.
    void expect(char c) {
        if (peek() != c) fail();
        ++p_;
    }
    /// Consume c if it is next (after white space).
    bool consume(char c) {
        if (peek() != c) return false;
        ++p_;
        return true;
    }
    /// Parse a string token, returning its decoded text (valid until reset()).
    std::string_view parse_key();
    /// Parse one complete value.
    JsonValue parse_value();
    /// Current byte offset.
    std::size_t pos() const { return p_; }
    /// Continue reading at byte offset p (another reader of the same text got that far).
    void seek(std::size_t p) { p_ = p; }
    /// Whether only white space is left.
    bool at_end() {
        ws();
        return p_ >= t_.size();
    }
    /// The text.
    std::string_view text() const { return t_; }
    /// Go on with a longer prefix of the same text (more of it has been read in).
    void extend(std::string_view longer) { t_ = longer; }

    // Building values without text, for readers that make scene values themselves (a map's
    // objects): the values are the ones the text a SceneText writes would parse to, so the
    // scene builder reads them alike. Containers open and close as in the text; in an object
    // each value follows its key(). Like parsed values, they live until reset().

    void begin_object() { open(true); }
    void begin_array() { open(false); }
    /// The key of the next member of the object being built. Not copied: it must outlive
    /// the values (the scene fields' names are literals).
    void key(std::string_view k) { pending_key_ = k; }
    void number(double v);
    void string(std::string_view s);
    /// An array of numbers (stored packed, as a parsed one).
    void numbers(const double* v, std::size_t n);
    /// Closes the innermost open container.
    void end();
    /// The last complete value built at the top (once every container is closed).
    JsonValue built() const { return JsonValue(this, built_); }

private:
    friend class JsonValue;
    struct Node {
        JsonValue::Kind kind;
        bool flag;             // Bool: the value; Number: integer; Array: packed
        std::uint32_t first;   // Array/Object: index into links_ (packed: into nums_)
        std::uint32_t count;   // Array/Object: members
        double num;
        std::string_view str;  // String
        std::size_t offset;
    };

    [[noreturn]] void fail() const { throw JsonSyntax{p_, nullptr, true}; }
    void ws() {
        while (p_ < t_.size()) {
            const char c = t_[p_];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') break;
            ++p_;
        }
    }
    std::uint32_t value(int depth);
    void open(bool object);
    // A value built: a child of the open container, or the top.
    void add(std::uint32_t index);
    // An object or array (at its '{' or '['), its children read into n.
    void container(Node& n, bool object, int depth);
    // A container's children, collected in scratch_ from `base` on, moved to links_ and keys_.
    void close(Node& n, std::size_t base);
    // An array that starts with a number: true when it holds numbers only, read packed into
    // n; else false, the numbers read so far made nodes, and the rest left to container().
    bool packed_numbers(Node& n);
    std::string_view string_token();
    std::string decode_escaped(std::size_t start, std::size_t end);
    unsigned unicode_escape(std::size_t& i, std::size_t end);
    // Moves the numbers nums_[first...] to small_ if they are many small integers.
    bool to_small(std::size_t first);
    double number_token(bool* integer);

    std::string_view t_;
    std::size_t p_ = 0;
    std::vector<Node> nodes_;
    std::vector<std::uint32_t> links_;        // children of containers, contiguous per container
    std::vector<std::string_view> keys_;      // parallel to links_ (object keys)
    std::vector<std::uint32_t> scratch_;      // children being collected
    std::vector<std::string_view> scratch_keys_;
    std::deque<std::string> decoded_;         // strings with escapes, decoded
    // The strings of built values, end to end in blocks that reset() rewinds and keeps: a
    // map's converter builds a few strings for each of 100,000s of shapes.
    static constexpr std::size_t kCharBlock = std::size_t{1} << 16;
    std::vector<std::unique_ptr<char[]>> char_blocks_;
    std::size_t char_block_ = 0, char_used_ = 0;  // the block being filled, and how far
    std::string_view keep(std::string_view s);
    // Arrays of numbers only (positions, grid rows) are stored packed, without a node per
    // element: a value index with kPacked set is element (index - kPacked) of these.
    static constexpr std::uint32_t kPacked = 1u << 31;
    std::vector<double> nums_;
    std::vector<char> ints_;                  // written as an integer
    // A long array of integers 0 to 255 (a grid's `cells`: 16M of them in a 4096 x 4096
    // grid, 150 MB as doubles) is kept as bytes: index kSmall + k is small_[k].
    static constexpr std::uint32_t kSmall = kPacked | 1u << 30;
    static constexpr std::size_t kSmallFrom = 64;  // elements; shorter arrays stay doubles
    std::vector<std::uint8_t> small_;
    std::vector<std::size_t> scratch_offsets_;
    // Building: the open containers (node and where their children start in scratch_), the
    // key of the next member, and the last value completed at the top.
    std::vector<std::pair<std::uint32_t, std::size_t>> open_;
    std::string_view pending_key_;
    std::uint32_t built_ = 0;
};

// JsonValue's accessors, inline: the scene builder calls them for every key and number.
inline JsonValue::Kind JsonValue::kind() const { return i_ >= JsonDoc::kPacked ? Kind::Number : doc_->nodes_[i_].kind; }
inline bool JsonValue::is_integer() const {
    if (i_ >= JsonDoc::kSmall) return true;
    if (i_ >= JsonDoc::kPacked) return doc_->ints_[i_ - JsonDoc::kPacked] != 0;
    return is_number() && doc_->nodes_[i_].flag;
}
inline bool JsonValue::boolean() const { return i_ < JsonDoc::kPacked && doc_->nodes_[i_].flag; }
inline double JsonValue::number() const {
    if (i_ < JsonDoc::kPacked) return doc_->nodes_[i_].num;
    return i_ >= JsonDoc::kSmall ? doc_->small_[i_ - JsonDoc::kSmall] : doc_->nums_[i_ - JsonDoc::kPacked];
}
inline std::string_view JsonValue::string() const { return i_ >= JsonDoc::kPacked ? std::string_view() : doc_->nodes_[i_].str; }
inline std::size_t JsonValue::offset() const { return i_ >= JsonDoc::kPacked ? std::string_view::npos : doc_->nodes_[i_].offset; }
inline std::size_t JsonValue::size() const {
    if (i_ >= JsonDoc::kPacked) return 0;
    const auto& n = doc_->nodes_[i_];
    return (n.kind == Kind::Array || n.kind == Kind::Object) ? n.count : 0;
}
inline JsonValue JsonValue::operator[](std::size_t i) const {
    const auto& n = doc_->nodes_[i_];
    if (n.kind == Kind::Array && n.flag) return JsonValue(doc_, JsonDoc::kPacked + n.first + static_cast<std::uint32_t>(i));
    return JsonValue(doc_, doc_->links_[n.first + i]);
}
inline std::string_view JsonValue::key(std::size_t i) const { return doc_->keys_[doc_->nodes_[i_].first + i]; }
inline std::size_t JsonValue::find(std::string_view k) const {
    if (i_ >= JsonDoc::kPacked) return 0;
    const auto& n = doc_->nodes_[i_];
    if (n.kind != Kind::Object) return 0;
    const std::string_view* keys = doc_->keys_.data() + n.first;
    for (std::size_t i = 0; i < n.count; ++i)
        if (same_key(keys[i], k)) return i;
    return n.count;
}
inline bool JsonValue::has(std::string_view k) const { return find(k) < size(); }
inline JsonValue JsonValue::at(std::string_view k) const {
    const std::size_t i = find(k);
    return i < size() ? (*this)[i] : *this;
}

}  // namespace collide::detail
