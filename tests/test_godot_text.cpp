// Godot's text resource format (maps/godot_text.hpp): every value form Godot writes, the
// sections of a scene, and the errors, word for word.
#include "maps/godot_text.hpp"

#include "collide/error.hpp"

#include <doctest/doctest.h>

#include <deque>
#include <cmath>
#include <string>

using collide::detail::godot::Document;
using collide::detail::godot::parse_text_resource;
using collide::detail::godot::Value;
using Kind = Value::Kind;

namespace {

// The value of property `p` in a one-section file. A Value views the text and the Document it
// was read into, so both are kept (in a list that only grows, for the test's run).
const Value& value_of(const std::string& text) {
    static std::deque<std::pair<std::string, Document>> kept;
    auto& [source, d] = kept.emplace_back("[resource]\np = " + text + "\n", Document{});
    d = parse_text_resource("v.tscn", source);
    REQUIRE(d.sections.size() == 1);
    REQUIRE(d.sections[0].properties.size() == 1);
    return d.sections[0].properties[0].second;
}

// The message collide::Error gives for `text`, with its place.
std::string error_of(const std::string& text) {
    try {
        parse_text_resource("bad.tscn", text);
    } catch (const collide::Error& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("godot text: scalars") {
    CHECK(value_of("null").kind == Kind::Nil);
    CHECK(value_of("true").boolean);
    CHECK_FALSE(value_of("false").boolean);
    const Value i = value_of("-12");
    CHECK(i.kind == Kind::Int);
    CHECK(i.integer == -12);
    CHECK(i.items().empty());  // a number has no items and no text (its bits are the number's)
    CHECK(i.text().empty());
    CHECK(value_of("9223372036854775807").integer == INT64_MAX);
    const Value big = value_of("99999999999999999999");  // beyond int64: a real, as Godot reads it
    CHECK(big.kind == Kind::Real);
    CHECK(big.real == 1e20);
    CHECK(value_of("1.5").real == 1.5);
    CHECK(value_of("1e-05").real == 1e-05);
    CHECK(value_of("-0.25").real == -0.25);
    CHECK(value_of("2.0").kind == Kind::Real);
    CHECK(std::isinf(value_of("inf").real));
    CHECK(value_of("-inf").real < 0);
    CHECK(value_of("inf_neg").real < 0);
    CHECK(std::isnan(value_of("nan").real));
    CHECK(value_of("1e999").real == INFINITY);
}

TEST_CASE("godot text: strings, string names and node paths, with every escape") {
    CHECK(value_of(R"("a \"b\" \\ \n\t\r\b\f \/ \u00e9 \U01F600")").text() == "a \"b\" \\ \n\t\r\b\f / \xC3\xA9 \xF0\x9F\x98\x80");
    CHECK(value_of("\"two\nlines\"").text() == "two\nlines");  // a raw line break is kept
    const Value name = value_of(R"(&"move")");
    CHECK(name.kind == Kind::StringName);
    CHECK(name.text() == "move");
    const Value path = value_of(R"(^"../Player:position")");
    CHECK(path.kind == Kind::NodePath);
    CHECK(path.text() == "../Player:position");
    CHECK(value_of(R"("\ud800")").text() == "\xEF\xBF\xBD");  // a lone surrogate: U+FFFD
}

TEST_CASE("godot text: constructors, arrays, dictionaries and typed containers") {
    const Value v = value_of("Vector2(16, -8.5)");
    CHECK(v.is_call("Vector2"));
    REQUIRE(v.items().size() == 2);
    CHECK(v.items()[0].number() == 16);
    CHECK(v.items()[1].number() == -8.5);
    const Value t = value_of("Transform2D(1, 0, 0, 1, 64, 32)");
    CHECK(t.is_call("Transform2D"));
    CHECK(t.items().size() == 6);
    CHECK(value_of("PackedVector2Array()").items().empty());
    CHECK(value_of("PackedInt32Array(0, 65536, -1)").items()[2].integer == -1);
    const Value sub = value_of(R"(SubResource("RectangleShape2D_x1"))");
    CHECK(sub.is_call("SubResource"));
    CHECK(sub.items()[0].text() == "RectangleShape2D_x1");
    const Value arr = value_of(R"([1, "two", [3], ])");  // a trailing comma is allowed
    CHECK(arr.kind == Kind::Array);
    REQUIRE(arr.items().size() == 3);
    CHECK(arr.items()[2].items()[0].integer == 3);
    const Value dict = value_of("{\n\"times\": PackedFloat32Array(0, 1),\n&\"k\": {},\n5: null\n}");
    CHECK(dict.kind == Kind::Dict);
    REQUIRE(dict.items().size() == 6);
    CHECK(dict.items()[0].text() == "times");
    CHECK(dict.items()[1].is_call("PackedFloat32Array"));
    CHECK(dict.items()[2].kind == Kind::StringName);
    CHECK(dict.items()[4].integer == 5);
    const Value typed = value_of("Array[int]([1, 2])");
    CHECK(typed.is_call("Array[int]"));
    CHECK(typed.items()[0].items().size() == 2);
    CHECK(value_of("Dictionary[String, Array[int]]({})").is_call("Dictionary[String, Array[int]]"));
    const Value obj = value_of(R"(Object(InputEventKey,"resource_local_to_scene":false,"keycode":4194320))");
    CHECK(obj.is_call("Object"));
    REQUIRE(obj.items().size() == 3);
    CHECK(obj.items()[0].kind == Kind::Word);
    CHECK(obj.items()[0].text() == "InputEventKey");
    CHECK(obj.items()[2].kind == Kind::Dict);
    CHECK(obj.items()[2].items()[1].integer == 4194320);
}

TEST_CASE("godot text: sections, attributes, keys with slashes and colons, comments, places") {
    const std::string text = "\xEF\xBB\xBF[gd_scene load_steps=2 format=3 uid=\"uid://abc\"]\n"
                             "; a comment\n"
                             "\n"
                             "[sub_resource type=\"TileSetAtlasSource\" id=\"A\"]\n"
                             "0:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, -8, 8, -8, 8, 8)\n"
                             "\n"
                             "[node name=\"Wall\" type=\"StaticBody2D\" parent=\".\" groups=[\"solid\", \"level\"]]\n"
                             "position = Vector2(1, 2)\n"
                             "position = Vector2(3, 4)\n"
                             "metadata/collide_ignore = \"*\"\n";
    const Document d = parse_text_resource("level.tscn", text);
    REQUIRE(d.sections.size() == 3);
    CHECK(d.sections[0].tag == "gd_scene");
    CHECK(d.sections[0].attribute("format")->integer == 3);
    CHECK(d.sections[0].attribute("uid")->text() == "uid://abc");
    CHECK(d.sections[1].properties[0].first == "0:0/0/physics_layer_0/polygon_0/points");
    const auto& node = d.sections[2];
    CHECK(node.line == 7);
    CHECK(node.column == 1);
    CHECK(node.attribute("groups")->items()[1].text() == "level");
    CHECK(node.property("position")->items()[0].number() == 3);  // the last one written wins
    CHECK(node.property("position")->line == 9);
    CHECK(node.property("position")->column == 12);
    CHECK(node.property("metadata/collide_ignore")->text() == "*");
    CHECK(node.property("rotation") == nullptr);
}

TEST_CASE("godot text: project.godot starts with properties of no section") {
    const Document d = parse_text_resource("project.godot", "config_version=5\n\n[application]\n\nconfig/name=\"Demo\"\n");
    REQUIRE(d.sections.size() == 2);
    CHECK(d.sections[0].tag.empty());
    CHECK(d.sections[0].property("config_version")->integer == 5);
    CHECK(d.sections[1].property("config/name")->text() == "Demo");
}

TEST_CASE("godot text: packed bytes from base64 or numbers") {
    using collide::detail::godot::packed_bytes;
    CHECK(packed_bytes("f", value_of(R"(PackedByteArray("AAABAP//"))")) == std::string("\0\0\1\0\xFF\xFF", 6));
    CHECK(packed_bytes("f", value_of("PackedByteArray(0, 1, 255)")) == std::string("\0\1\xFF", 3));
    CHECK_THROWS_WITH_AS(packed_bytes("f.tscn", value_of("PackedByteArray(0, 256)")),
                         "f.tscn:2:24: PackedByteArray: expected a byte (0 to 255), found an integer", collide::Error);
    CHECK_THROWS_WITH_AS(packed_bytes("f.tscn", value_of(R"(PackedByteArray("A*"))")),
                         "f.tscn:2:5: PackedByteArray: base64 data holds '*' at byte 1", collide::Error);
    CHECK_THROWS_WITH_AS(packed_bytes("f.tscn", value_of("[1]")), "f.tscn:2:5: expected a PackedByteArray(...), found an array",
                         collide::Error);
}

TEST_CASE("godot text: a big base64 string is decoded ahead, to the same bytes and the same errors") {
    using collide::detail::godot::packed_bytes;
    // 1.5 MiB of base64 (over the size decoded on a lane while the file is read).
    std::string base64;
    for (int k = 0; k < (3 << 19) / 4; ++k) base64 += "AAEC";
    const std::string text = "[resource]\np = PackedByteArray(\"" + base64 + "\")\nq = PackedByteArray(\"" + base64.substr(0, 8) + "\")\n";
    const Document d = parse_text_resource("big.tscn", text);
    const Value& p = d.sections[0].properties[0].second;
    const std::string bytes = packed_bytes("big.tscn", p, &d);  // taken from the lane
    REQUIRE(bytes.size() == base64.size() / 4 * 3);
    CHECK(bytes.substr(0, 6) == std::string("\0\1\2\0\1\2", 6));
    CHECK(packed_bytes("big.tscn", p, &d) == bytes);  // again: decoded here
    CHECK(packed_bytes("big.tscn", d.sections[0].properties[1].second, &d) == std::string("\0\1\2\0\1\2", 6));
    std::string broken = base64;
    broken[1000] = '*';
    const std::string bad = "[resource]\np = PackedByteArray(\"" + broken + "\")\n";
    const Document bd = parse_text_resource("big.tscn", bad);
    const Value& bp = bd.sections[0].properties[0].second;
    const std::string ahead = [&] {
        try {
            packed_bytes("big.tscn", bp, &bd);
        } catch (const collide::Error& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    }();
    CHECK(ahead == "big.tscn:2:5: PackedByteArray: base64 data holds '*' at byte 1000");
    CHECK_THROWS_WITH_AS(packed_bytes("big.tscn", bp), ahead.c_str(), collide::Error);  // the same, decoded here
}

TEST_CASE("godot text: errors name the file, line and column, word for word") {
    CHECK(error_of("[node name=\"a\"\n") == "bad.tscn:1:15: expected an attribute or ']' in [node], found a control byte");
    CHECK(error_of("[]") == "bad.tscn:1:2: expected a section name after '[', found ']'");
    CHECK(error_of("[node name]") == "bad.tscn:1:11: expected '=' after attribute 'name', found ']'");
    CHECK(error_of("[resource]\np = Vector2(1 2)\n") == "bad.tscn:2:15: expected ',' or ')', found '2'");
    CHECK(error_of("[resource]\np = \"never ends\n") == "bad.tscn:2:5: a string that never ends");
    CHECK(error_of("[resource]\np = \"bad \\q\"\n") == "bad.tscn:2:10: unknown escape '\\q' in a string");
    CHECK(error_of("[resource]\np = 1.2.3x\n") == "bad.tscn:2:5: expected a number, found '1.2.3'");
    CHECK(error_of("[resource]\np = -infinity\n") == "bad.tscn:2:5: expected a number, found '-infinity'");
    CHECK(error_of("[resource]\np = {\"a\" 1}\n") == "bad.tscn:2:10: expected ':' after a dictionary key, found '1'");
    CHECK(error_of("[resource]\np = [1, 2\n") == "bad.tscn:3:1: expected ',' or ']', found the end of the file");
    CHECK(error_of("[resource]\np = \n") == "bad.tscn:3:1: expected a value, found the end of the file");
    CHECK(error_of("[resource]\np = 1 2\n") == "bad.tscn:2:7: expected the end of the line after property 'p', found '2'");
    CHECK(error_of("[resource]\np = @\n") == "bad.tscn:2:5: expected a value, found '@'");
    CHECK(error_of("[resource]\np = " + std::string(300, '[') + "\n") == "bad.tscn:2:262: values nested deeper than 256");
}
