// The scene reader's JSON layer: values, packed number arrays, and where it draws lines.
#include "support/json_doc.hpp"

#include <doctest/doctest.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <random>
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

TEST_CASE("JsonDoc: long arrays of small integers (grid cells) are kept as bytes and read the same") {
    // 100 integers 0..255, then arrays that must stay doubles: a 256, a -0, a 1.0, too short.
    std::string cells = "[";
    for (int i = 0; i < 100; ++i) cells += (i ? ", " : "") + std::to_string(i * 37 % 256);
    cells += "]";
    std::string big = cells;
    big.replace(big.find(", 37,"), 5, ", 256,");
    std::string neg = cells;
    neg.replace(neg.find(", 37,"), 5, ", -0,");
    std::string real = cells;
    real.replace(real.find(", 37,"), 5, ", 1.0,");
    const std::string text = "[" + cells + ", " + big + ", " + neg + ", " + real + ", [1, 2, 3]]";
    JsonDoc doc(text);
    const JsonValue all = doc.parse_value();
    REQUIRE(all.size() == 5);
    for (std::size_t i = 0; i < 100; ++i) {
        CHECK(all[0][i].number() == static_cast<double>(i * 37 % 256));
        CHECK(all[0][i].is_integer());
    }
    CHECK(all[1][1].number() == 256);
    CHECK(all[1][2].number() == 74);
    CHECK(std::signbit(all[2][1].number()));
    CHECK(all[3][1].number() == 1);
    CHECK_FALSE(all[3][1].is_integer());
    CHECK(all[3][2].is_integer());
    CHECK(all[4][2].number() == 3);
    CHECK(all[0].size() == 100);
    CHECK(all[0][5].kind() == Kind::Number);
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

TEST_CASE("JsonDoc: built strings stay whole across blocks and resets, long ones too") {
    JsonDoc doc{std::string_view()};
    const std::string long_one(40000, 'x');  // longer than a quarter of a block: kept on its own
    for (int round = 0; round < 2; ++round) {  // the second reuses the first one's blocks
        doc.begin_array();
        for (int k = 0; k < 20000; ++k) doc.string("name" + std::to_string(k));  // ~180 KB: several blocks
        doc.string(long_one);
        doc.string("");
        doc.end();
        const JsonValue list = doc.built();
        REQUIRE(list.size() == 20002);
        bool all = true;
        for (int k = 0; k < 20000; ++k) all = all && list[static_cast<std::size_t>(k)].string() == "name" + std::to_string(k);
        CHECK(all);
        CHECK(list[20000].string() == long_one);
        CHECK(list[20001].is_string());
        CHECK(list[20001].string().empty());
        doc.reset();
    }
}

namespace {
// The double JsonDoc reads for a number token, and its integer flag.
double read_number(const std::string& token, bool* integer = nullptr) {
    JsonDoc d(token);
    const JsonValue v = d.parse_value();
    REQUIRE(v.is_number());
    if (integer) *integer = v.is_integer();
    return v.number();
}
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
}  // namespace

TEST_CASE("JsonDoc: numbers are the correctly rounded doubles, on the fast path and off it") {
    SUBCASE("named cases: signs, zeros, limits of the fast path") {
        CHECK(same_bits(read_number("-0"), -0.0));
        CHECK(same_bits(read_number("-0.0e7"), -0.0));
        CHECK(read_number("0.1") == 0.1);
        CHECK(read_number("6587.57") == 6587.57);
        CHECK(read_number("1e22") == 1e22);                                // 10^22: the largest exact power
        CHECK(read_number("1e23") == 1e23);                                // beyond it: from_chars
        CHECK(read_number("9007199254740993") == 9007199254740992.0);      // 2^53 + 1: ties to even
        CHECK(read_number("12345678901234567890123") == 12345678901234567890123.0);  // 23 digits
        CHECK(read_number("1e-400") == 0.0);                               // underflow: strtod
        CHECK(read_number("5e-324") == std::nextafter(0.0, 1.0));          // the least subnormal
        CHECK(read_number("1.5e0000000000000001") == 15.0);                // a long exponent
        bool integer = true;
        CHECK(read_number("-17", &integer) == -17.0);
        CHECK(integer);
        CHECK(read_number("2e1", &integer) == 20.0);
        CHECK_FALSE(integer);
    }
    SUBCASE("random tokens agree bit for bit with std::from_chars") {
        std::mt19937_64 rng(4);
        auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        for (int k = 0; k < 200000; ++k) {
            std::string t = uni(0, 3) == 0 ? "-" : "";
            const int int_digits = uni(1, 12);
            t += static_cast<char>('1' + uni(0, 8));
            for (int i = 1; i < int_digits; ++i) t += static_cast<char>('0' + uni(0, 9));
            if (uni(0, 3) > 0) {
                t += '.';
                for (int i = 0, n = uni(1, 12); i < n; ++i) t += static_cast<char>('0' + uni(0, 9));
            }
            if (uni(0, 2) == 0) t += "e" + std::to_string(uni(-30, 30));
            double want = 0.0;
            std::from_chars(t.data(), t.data() + t.size(), want);
            const double got = read_number(t);
            if (!same_bits(got, want)) FAIL_CHECK(t);
        }
    }
}

TEST_CASE("JsonDoc: strings scanned eight bytes at a time stop at the right byte") {
    // Every special byte at every place of strings longer and shorter than a word. (A
    // JsonDoc keeps a view of its text: each text is a named local.)
    for (std::size_t len = 0; len < 20; ++len) {
        for (std::size_t at = 0; at < len; ++at) {
            const std::string head(at, 'a');
            const std::string tail(len - at - 1, 'b');
            CAPTURE(len);
            CAPTURE(at);
            {
                const std::string d_text = "\"" + head + "\\n" + tail + "\"";
                JsonDoc d(d_text);
                CHECK(d.parse_value().string() == head + "\n" + tail);
            }
            {
                const std::string d_text = "\"" + head + "\xC3\xA9" + tail + "\"";
                JsonDoc d(d_text);  // é: two bytes of UTF-8
                CHECK(d.parse_value().string() == head + "\xC3\xA9" + tail);
            }
            {
                const std::string d_text = "\"" + head + "\x7F\x1F" + tail + "\"";
                JsonDoc d(d_text);  // DEL is fine, U+001F must be escaped
                try {
                    d.parse_value();
                    FAIL("a raw control character was accepted");
                } catch (const JsonSyntax& e) {
                    CHECK(e.offset == at + 2);
                }
            }
            {
                const std::string d_text = "\"" + head + "\xFF" + tail + "\"";
                JsonDoc d(d_text);  // never a UTF-8 byte
                CHECK_THROWS_AS(d.parse_value(), JsonSyntax);
            }
        }
        const std::string d_text = "\"" + std::string(len, 'z') + "\"  ";
        JsonDoc d(d_text);
        CHECK(d.parse_value().string() == std::string(len, 'z'));
        const std::string open_text = "\"" + std::string(len, 'z');
        JsonDoc open(open_text);  // no closing quote
        CHECK_THROWS_AS(open.parse_value(), JsonSyntax);
    }
}
