// The scene reader's JSON layer: values, packed number arrays, and where it draws lines.
#include "json_doc.hpp"

#include <doctest/doctest.h>

#include <string>

using collide::detail::JsonDoc;
using collide::detail::JsonSyntax;
using collide::detail::JsonValue;
using Kind = JsonValue::Kind;

TEST_CASE("JsonDoc: arrays of numbers are packed, and read like any array") {
    JsonDoc doc(R"([1, -2.5, 3e2, 0])");
    const JsonValue a = doc.parse_value();
    REQUIRE(a.is_array());
    REQUIRE(a.size() == 4);
    CHECK(a[0].number() == 1);
    CHECK(a[0].is_integer());
    CHECK(a[1].number() == -2.5);
    CHECK_FALSE(a[1].is_integer());
    CHECK(a[2].number() == 300);
    CHECK_FALSE(a[2].is_integer());  // written with an exponent
    CHECK(a[3].kind() == Kind::Number);
    CHECK(a[3].size() == 0);
    CHECK(a[3].string().empty());
    CHECK(doc.at_end());
}

TEST_CASE("JsonDoc: an array that starts with numbers and goes on with other values") {
    JsonDoc doc(R"({"cells": [[0, 1], [1, "x", 2, [3]], []], "k": 7})");
    const JsonValue o = doc.parse_value();
    REQUIRE(o.is_object());
    REQUIRE(o.has("cells"));
    const JsonValue cells = o.at("cells");
    REQUIRE(cells.size() == 3);
    CHECK(cells[0].size() == 2);
    CHECK(cells[0][1].number() == 1);
    const JsonValue mixed = cells[1];
    REQUIRE(mixed.size() == 4);
    CHECK(mixed[0].number() == 1);
    CHECK(mixed[0].offset() == 20);  // unpacked numbers keep their offsets
    CHECK(mixed[1].string() == "x");
    CHECK(mixed[2].number() == 2);
    CHECK(mixed[3].is_array());
    CHECK(mixed[3][0].number() == 3);
    CHECK(cells[2].size() == 0);
    CHECK(o.at("k").number() == 7);
    CHECK(o.find("nope") == o.size());
}

TEST_CASE("JsonDoc: syntax errors inside number arrays are found where they are") {
    auto error_at = [](const std::string& text) {
        JsonDoc doc(text);
        try {
            doc.parse_value();
        } catch (const JsonSyntax& e) {
            return static_cast<long>(e.offset);
        }
        return -1L;
    };
    CHECK(error_at("[1, 2") == 5);      // the end, where ']' was due
    CHECK(error_at("[1 2]") == 3);      // no comma
    CHECK(error_at("[1, -]") == 5);     // a lone minus: where a digit was due
    CHECK(error_at("[1, 1e999]") == 4); // not a finite double
    CHECK(error_at("[1, x]") == 4);
    CHECK(error_at("[01]") == 2);       // leading zero: "0" then an unexpected '1'
}

TEST_CASE("JsonDoc: values are kept until reset, and packed ones too") {
    JsonDoc doc("[1, 2] [3]");
    const JsonValue first = doc.parse_value();
    const JsonValue second = doc.parse_value();
    CHECK(first[1].number() == 2);
    CHECK(second[0].number() == 3);
    doc.reset();
    CHECK(doc.at_end());
}
