// Godot's text resource format (godot_text.cpp): the `.tscn` scenes and `.tres` resources
// Godot 4 writes, read into sections of properties whose values keep their form (SPEC §1.6).
// Written here from the format as Godot's files show it; no Godot code is used.
//
//   [gd_scene format=3 uid="uid://..."]          a header: a tag and attributes
//   [ext_resource type="Texture2D" path="res://a.png" id="1_ab"]
//   [node name="Wall" type="StaticBody2D" parent="." groups=["solid"]]
//   position = Vector2(16, 8)                    a property: key = value, to the next header
//   0:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, -8, 8, -8, 8, 8)
//
// Values: null, true, false, integers, reals (also inf, -inf, inf_neg, nan), strings with
// escapes (and line breaks), &"StringName", ^"NodePath", arrays [...], dictionaries {k: v},
// constructors Name(args) (Vector2(1, 2), Transform2D(...), PackedByteArray("base64"),
// SubResource("id"), Object(Class, "key": value), Array[int]([1, 2]), ...), bare words.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace collide::detail::godot {

/// A read-only run of T (a value's items, a section's properties) inside a Document.
template <class T>
class Span {
public:
    Span() = default;
    Span(const T* data, std::size_t size) : data_(data), size_(size) {}
    const T* begin() const { return data_; }
    const T* end() const { return data_ + size_; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const T& operator[](std::size_t i) const { return data_[i]; }

private:
    const T* data_ = nullptr;
    std::size_t size_ = 0;
};

/// One value as written, in 40 bytes (a level holds millions). Its text and items are views
/// into the Document that holds it.
struct Value {
    enum class Kind : std::uint8_t { Nil, Bool, Int, Real, String, StringName, NodePath, Array, Dict, Call, Word };
    std::uint32_t line = 0, column = 0;  ///< where the value starts, from 1 (column in bytes)
    union {
        std::int64_t integer = 0;  ///< Int
        double real;               ///< Real
        const Value* items_data;   ///< Array, Dict, Call: the first item (read them with items())
    };
    Kind kind = Kind::Nil;
    bool boolean = false;

    /// String, StringName and NodePath: the text, escapes decoded; Call: the constructor's name
    /// (`Vector2`, `Array[int]`); Word: the word. Empty for the other kinds.
    std::string_view text() const { return {text_, text_size_}; }
    /// Array: its elements; Call: its arguments (a `"key": value` argument of Object(...) as
    /// a Dict of one entry); Dict: keys and values, alternating. Empty for the other kinds.
    Span<Value> items() const { return has_items() ? Span<Value>(items_data, items_size_) : Span<Value>(); }
    /// Set by the reader: a text under 4 GiB, fewer than 2^32 items.
    void set_text(std::string_view t) {
        text_ = t.data();
        text_size_ = static_cast<std::uint32_t>(t.size());
    }
    void set_items(Span<Value> s) {
        items_data = s.begin();
        items_size_ = static_cast<std::uint32_t>(s.size());
    }

    bool is_number() const { return kind == Kind::Int || kind == Kind::Real; }
    /// An Int or Real as a double.
    double number() const { return kind == Kind::Int ? static_cast<double>(integer) : real; }
    bool is_call(std::string_view name) const { return kind == Kind::Call && text() == name; }

private:
    bool has_items() const { return kind == Kind::Array || kind == Kind::Dict || kind == Kind::Call; }

    const char* text_ = nullptr;
    std::uint32_t text_size_ = 0, items_size_ = 0;
};

/// An attribute or property: its name and value.
using Entry = std::pair<std::string_view, Value>;

/// A `[tag ...]` header and the properties after it, in file order.
struct Section {
    std::string_view tag;
    Span<Entry> attributes;
    Span<Entry> properties;
    std::uint32_t line = 0, column = 0;

    /// The attribute or property of that name, or null (the last one when written twice).
    const Value* attribute(std::string_view name) const;
    const Value* property(std::string_view name) const;
};

/// The big base64 strings of PackedByteArray(...) values (a tile layer's data), decoded on a
/// lane of their own while the rest of the file is read and its nodes are built.
struct Prefetch;

/// A parsed file: its sections in order (properties before the first header, as
/// project.godot starts, in a first section whose tag is empty). Names, texts and items are
/// views: into the text parsed (which must outlive the Document) where a string has no escape,
/// else into the Document's own storage. Moving a Document keeps them valid.
struct Document {
    std::vector<Section> sections;

    // The storage behind the views, made while parsing.
    std::vector<std::vector<Entry>> entry_blocks;  ///< attributes and properties, each section's in one block
    std::vector<std::vector<Value>> value_blocks;  ///< items, each list's in one block
    std::deque<std::string> strings;                    ///< strings whose escapes were decoded
    std::shared_ptr<Prefetch> prefetch;                 ///< big base64 strings being decoded, if any
};

/// Parses `text`, which must outlive the Document. Throws collide::Error naming `file`, the
/// line and column and what was expected there; nesting deeper than 256 is refused.
Document parse_text_resource(const std::string& file, std::string_view text);

/// A value's kind in words, for messages ("a string", "a Vector2(...)").
std::string describe(const Value& v);

/// The bytes of `PackedByteArray("base64")` or `PackedByteArray(1, 2, ...)`; throws
/// collide::Error naming `file` at the value for anything else. With the value's Document,
/// bytes it decoded ahead are taken from it (once: a second call decodes again).
std::string packed_bytes(const std::string& file, const Value& v, const Document* in = nullptr);

}  // namespace collide::detail::godot
