// ReportWriter in its four formats (SPEC §4), byte for byte, and format_number().
//
// The results are made by hand so that every kind of record appears: a shape-shape touch
// with points, a shape-grid collision with cells and the outside, a blocked and an allowed
// move, a failed and a passed rule; one shape id holds a comma and quotes.
#include "collide/report.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <random>
#include <cstdint>
#include <charconv>
#include <limits>
#include <sstream>
#include <string>

using collide::Collision;
using collide::Format;
using collide::MoveResult;
using collide::Relation;
using collide::ReportWriter;
using collide::RuleResult;
using collide::Scene;
using collide::SceneResult;
using collide::format_number;

namespace {

Scene small_scene(const std::string& file = "level.json") {
    return collide::read_scene(R"({
        "shapes": [
            {"id": "player", "type": "circle", "center": [40, 40], "radius": 8},
            {"id": "crate", "type": "rect", "min": [48, 30], "max": [80, 62]},
            {"id": "tile \"7\", west", "type": "rect", "min": [48, 62], "max": [60, 70]}
        ],
        "grids": [{"id": "maze", "tile_size": 20, "rows": ["#####", "#...#", "#.#.#", "#...#", "#####"]}],
        "moves": [
            {"id": "step-right", "grid": "maze", "from": [30, 50], "to": [70, 50]},
            {"id": "stay", "grid": "maze", "from": [30, 30], "to": [30, 30], "expect": "allowed"}
        ],
        "rules": [
            {"name": "player starts clear", "pairs": "player:*", "expect": "none"},
            {"name": "crate rests on something", "pairs": "crate:*", "expect": "each"}
        ]})",
                               file);
}

enum : std::size_t { kPlayer, kCrate, kTile, kMaze };

SceneResult small_result() {
    SceneResult r;
    r.collisions.push_back(Collision{kPlayer, kCrate, Relation::Touch, {{48, 40}}, {}, false, {}, {}, std::nullopt});
    r.collisions.push_back(Collision{kPlayer, kMaze, Relation::Overlap, {}, {{1, 1}, {2, 2}}, true, {}, {}, std::nullopt});
    r.collisions.push_back(Collision{kCrate, kTile, Relation::Touch, {{48, 62}, {60, 62}}, {}, false, {}, {}, std::nullopt});
    MoveResult blocked;
    blocked.allowed = false;
    blocked.t = 0.15;
    blocked.stop = {36, 50};
    blocked.cell = {2, 2};
    MoveResult allowed;
    allowed.passed = true;
    r.moves = {blocked, allowed};
    r.rules = {RuleResult{false, {{kPlayer, kCrate}, {kPlayer, kMaze}}, {}}, RuleResult{true, {}, {}}};
    r.summary = collide::Summary{3, 1, 3, 2, 1, 1, std::nullopt, std::nullopt};
    return r;
}

// The whole report of the small scene, once.
std::string report(Format format, bool points = true) {
    std::ostringstream out;
    ReportWriter w(out, format, points);
    w.scene(small_scene(), small_result());
    w.finish();
    return out.str();
}

}  // namespace

TEST_CASE("report: JSON") {
    SUBCASE("one document, records as in SPEC §4") {
        const std::string json = report(Format::Json);
        CHECK(json ==
              "{\"scenes\": [\n"
              "{\"file\": \"level.json\",\n"
              " \"collisions\": [\n"
              "  {\"a\": \"player\", \"b\": \"crate\", \"relation\": \"touch\", \"points\": [[48, 40]]},\n"
              "  {\"a\": \"player\", \"b\": \"maze\", \"relation\": \"overlap\", \"cells\": [[1, 1], [2, 2]], \"outside\": true},\n"
              "  {\"a\": \"crate\", \"b\": \"tile \\\"7\\\", west\", \"relation\": \"touch\", \"points\": [[48, 62], [60, 62]]}\n"
              " ],\n"
              " \"moves\": [\n"
              "  {\"id\": \"step-right\", \"allowed\": false, \"t\": 0.15, \"stop\": [36, 50], \"cell\": [2, 2]},\n"
              "  {\"id\": \"stay\", \"allowed\": true, \"passed\": true}\n"
              " ],\n"
              " \"rules\": [\n"
              "  {\"name\": \"player starts clear\", \"passed\": false, \"violations\": [{\"a\": \"player\", \"b\": \"crate\"}, {\"a\": \"player\", \"b\": \"maze\"}]},\n"
              "  {\"name\": \"crate rests on something\", \"passed\": true, \"violations\": []}\n"
              " ],\n"
              " \"summary\": {\"shapes\": 3, \"grids\": 1, \"collisions\": 3, \"moves\": 2, \"blocked\": 1, \"rules_failed\": 1}}\n"
              "]}\n");
        const nlohmann::json doc = nlohmann::json::parse(json);  // valid JSON, and it reads back
        CHECK(doc["scenes"][0]["collisions"][2]["b"] == "tile \"7\", west");
        CHECK(doc["scenes"][0]["moves"][0]["t"] == 0.15);
    }
    SUBCASE("without points: no points key on shape-shape records") {
        const nlohmann::json doc = nlohmann::json::parse(report(Format::Json, false));
        const auto& c = doc["scenes"][0]["collisions"];
        CHECK_FALSE(c[0].contains("points"));
        CHECK(c[0]["relation"] == "touch");
        CHECK(c[1]["cells"].size() == 2);
    }
    SUBCASE("several scenes in one document; an empty scene has empty arrays") {
        std::ostringstream out;
        ReportWriter w(out, Format::Json);
        w.scene(small_scene(), small_result());
        w.scene(small_scene("empty.json"), SceneResult{});
        w.finish();
        const std::string text = out.str();
        CHECK(text.find(" \"summary\": {\"shapes\": 3, \"grids\": 1, \"collisions\": 3, \"moves\": 2, \"blocked\": 1, "
                        "\"rules_failed\": 1}},\n"
                        "{\"file\": \"empty.json\",\n"
                        " \"collisions\": [],\n"
                        " \"moves\": [],\n"
                        " \"rules\": [],\n"
                        " \"summary\": {\"shapes\": 0, \"grids\": 0, \"collisions\": 0, \"moves\": 0, \"blocked\": 0, "
                        "\"rules_failed\": 0}}\n"
                        "]}\n") != std::string::npos);
        CHECK(nlohmann::json::parse(text)["scenes"].size() == 2);
    }
    SUBCASE("end to end: read_scene, check, write (the shapes of the SPEC example)") {
        const Scene s = collide::read_scene(R"({"shapes": [
            {"id": "player", "type": "circle", "center": [40, 40], "radius": 8, "groups": ["player"]},
            {"id": "crate", "type": "rect", "min": [48, 30], "max": [80, 62], "groups": ["props"]}],
            "pairs": ["player:props"]})",
                                            "level1.json");
        std::ostringstream out;
        ReportWriter w(out, Format::Json);
        w.scene(s, collide::check(s, {}));
        w.finish();
        CHECK(out.str() ==
              "{\"scenes\": [\n"
              "{\"file\": \"level1.json\",\n"
              " \"collisions\": [\n"
              "  {\"a\": \"player\", \"b\": \"crate\", \"relation\": \"touch\", \"points\": [[48, 40]]}\n"
              " ],\n"
              " \"moves\": [],\n"
              " \"rules\": [],\n"
              " \"summary\": {\"shapes\": 2, \"grids\": 0, \"collisions\": 1, \"moves\": 0, \"blocked\": 0, \"rules_failed\": 0}}\n"
              "]}\n");
    }
    SUBCASE("no scenes") {
        std::ostringstream out;
        ReportWriter w(out, Format::Json);
        w.finish();
        CHECK(nlohmann::json::parse(out.str()) == nlohmann::json{{"scenes", nlohmann::json::array()}});
    }
}

TEST_CASE("report: JSON Lines") {
    const std::string jsonl = report(Format::Jsonl);
    CHECK(jsonl ==
          "{\"type\": \"collision\", \"scene\": \"level.json\", \"a\": \"player\", \"b\": \"crate\", \"relation\": \"touch\", \"points\": [[48, 40]]}\n"
          "{\"type\": \"collision\", \"scene\": \"level.json\", \"a\": \"player\", \"b\": \"maze\", \"relation\": \"overlap\", \"cells\": [[1, 1], [2, 2]], \"outside\": true}\n"
          "{\"type\": \"collision\", \"scene\": \"level.json\", \"a\": \"crate\", \"b\": \"tile \\\"7\\\", west\", \"relation\": \"touch\", \"points\": [[48, 62], [60, 62]]}\n"
          "{\"type\": \"move\", \"scene\": \"level.json\", \"id\": \"step-right\", \"allowed\": false, \"t\": 0.15, \"stop\": [36, 50], \"cell\": [2, 2]}\n"
          "{\"type\": \"move\", \"scene\": \"level.json\", \"id\": \"stay\", \"allowed\": true, \"passed\": true}\n"
          "{\"type\": \"rule\", \"scene\": \"level.json\", \"name\": \"player starts clear\", \"passed\": false, \"violations\": [{\"a\": \"player\", \"b\": \"crate\"}, {\"a\": \"player\", \"b\": \"maze\"}]}\n"
          "{\"type\": \"rule\", \"scene\": \"level.json\", \"name\": \"crate rests on something\", \"passed\": true, \"violations\": []}\n"
          "{\"type\": \"summary\", \"scene\": \"level.json\", \"shapes\": 3, \"grids\": 1, \"collisions\": 3, \"moves\": 2, \"blocked\": 1, \"rules_failed\": 1}\n");
    std::istringstream lines(jsonl);
    for (std::string line; std::getline(lines, line);) CHECK(nlohmann::json::parse(line).contains("scene"));
}

TEST_CASE("report: CSV") {
    const std::string header = "scene,type,a,b,relation,allowed,t,cell_col,cell_row,points,cells,outside,distance,hit,parts_a,parts_b,normal,depth,rule\r\n";
    SUBCASE("RFC 4180: CRLF, a header row, quoting of commas and quotes") {
        CHECK(report(Format::Csv) == header +
                                         "level.json,collision,player,crate,touch,,,,,48 40,,,,,,,,,\r\n"
                                         "level.json,collision,player,maze,overlap,,,,,,1 1;2 2,true,,,,,,,\r\n"
                                         "level.json,collision,crate,\"tile \"\"7\"\", west\",touch,,,,,48 62;60 62,,,,,,,,,\r\n"
                                         "level.json,move,step-right,,,false,0.15,2,2,,,,,,,,,,\r\n"
                                         "level.json,move,stay,,,true,,,,,,,,,,,,,\r\n"
                                         // A failed rule's violations, its name last (SPEC §4).
                                         "level.json,violation,player,crate,,,,,,,,,,,,,,,player starts clear\r\n"
                                         "level.json,violation,player,maze,,,,,,,,,,,,,,,player starts clear\r\n");
    }
    SUBCASE("without points, the points column stays empty") {
        CHECK(report(Format::Csv, false).find("level.json,collision,player,crate,touch,,,,,,,,,,,,,,\r\n") != std::string::npos);
    }
    SUBCASE("one header for several scenes; a file name with a comma is quoted") {
        std::ostringstream out;
        ReportWriter w(out, Format::Csv);
        SceneResult one;
        one.collisions.push_back(Collision{kPlayer, kCrate, Relation::Touch, {{48, 40}}, {}, false, {}, {}, std::nullopt});
        w.scene(small_scene("a.json"), one);
        w.scene(small_scene("levels/b,c.json"), one);
        w.finish();
        CHECK(out.str() == header +
                               "a.json,collision,player,crate,touch,,,,,48 40,,,,,,,,,\r\n"
                               "\"levels/b,c.json\",collision,player,crate,touch,,,,,48 40,,,,,,,,,\r\n");
    }
    SUBCASE("no scenes: the header alone") {
        std::ostringstream out;
        ReportWriter w(out, Format::Csv);
        w.finish();
        CHECK(out.str() == header);
    }
}

TEST_CASE("report: text") {
    CHECK(report(Format::Text) ==
          "level.json: 3 collisions, 1 of 2 moves blocked, 1 check failed\n"
          "  player  crate           touch     (48, 40)\n"
          "  player  maze            overlap   cells [1, 1] [2, 2] + outside\n"
          "  crate   tile \"7\", west  touch     (48, 62) (60, 62)\n"
          "  move step-right: blocked at t=0.15 (36, 50) cell [2, 2]\n"
          "  move stay: allowed (as expected)\n"
          "  rule 'player starts clear': FAILED: player \u00d7 crate, player \u00d7 maze\n"
          "  rule 'crate rests on something': passed\n");
}

TEST_CASE("printable: one line of a terminal, whatever the bytes") {
    SUBCASE("plain text and valid UTF-8 stay as they are, backslashes too") {
        CHECK(collide::printable("level 3.json") == "level 3.json");
        CHECK(collide::printable("caf\u00e9 \u00d7 \U0001F600 C:\\x") == "caf\u00e9 \u00d7 \U0001F600 C:\\x");
    }
    SUBCASE("control characters are spelled out") {
        CHECK(collide::printable("a\nb\rc\td") == "a\\nb\\rc\\td");
        CHECK(collide::printable(std::string("\x1b[31m\x00\x7f", 7)) == "\\x1b[31m\\x00\\x7f");
        CHECK(collide::printable("\u009b1m \u0085") == "\\u009b1m \\u0085");  // C1 controls
    }
    SUBCASE("invisible characters that reorder or break a line, and U+FFFE, U+FFFF, are spelled out") {
        CHECK(collide::printable("coin\u202e3") == "coin\\u202e3");  // right-to-left override
        CHECK(collide::printable("a\u2028b\u2029c") == "a\\u2028b\\u2029c");
        CHECK(collide::printable("\u200e\u200f\u061c\u2066\u2069\ufeff") == "\\u200e\\u200f\\u061c\\u2066\\u2069\\ufeff");
        CHECK(collide::printable("x\ufffe\uffff") == "x\\ufffe\\uffff");
        CHECK(collide::printable("\u2027\u2030\ufffd") == "\u2027\u2030\ufffd");  // their neighbours stay
    }
    SUBCASE("each byte that is not part of valid UTF-8 is spelled out") {
        CHECK(collide::printable("lev\xff" "el\xc3") == "lev\\xffel\\xc3");
        CHECK(collide::printable("\xc0\xaf") == "\\xc0\\xaf");          // overlong '/'
        CHECK(collide::printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a surrogate
        CHECK(collide::printable("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
    }
}

TEST_CASE("report: a file name that is not UTF-8 gets U+FFFD for each stray byte") {
    for (const Format format : {Format::Json, Format::Jsonl, Format::Csv}) {
        std::ostringstream out;
        ReportWriter w(out, format);
        w.scene(small_scene("lev\xff" "el\xc3\xa9\xe2\x82" ".json"), small_result());
        w.finish();
        CAPTURE(static_cast<int>(format));
        CHECK(out.str().find("lev\uFFFDel\u00e9\uFFFD\uFFFD.json") != std::string::npos);
        CHECK(out.str().find('\xff') == std::string::npos);
    }
}

TEST_CASE("report: control characters in ids are \\u-escaped in JSON, spelled out in text") {
    const Scene scene = collide::read_scene(R"({"shapes": [
        {"id": "a\nb\u001b", "type": "circle", "center": [0, 0], "radius": 1},
        {"id": "c", "type": "circle", "center": [1, 0], "radius": 1}]})", "level.json");
    SceneResult r;
    r.collisions.push_back(Collision{0, 1, Relation::Overlap, {}, {}, false, {}, {}, std::nullopt});
    r.summary = collide::Summary{2, 0, 1, 0, 0, 0, std::nullopt, std::nullopt};
    std::ostringstream json, text;
    ReportWriter(json, Format::Jsonl, false).scene(scene, r);
    ReportWriter(text, Format::Text, false).scene(scene, r);
    CHECK(json.str().find("\"a\": \"a\\nb\\u001b\"") != std::string::npos);
    CHECK(text.str() == "level.json: 1 collision\n  a\\nb\\x1b  c  overlap\n");
}

TEST_CASE("format_number: the shortest text that reads back to the same double") {
    CHECK(format_number(48) == "48");
    CHECK(format_number(100000) == "100000");  // integers below 2^53 as integers, not "1e+05"
    CHECK(format_number(-3e15) == "-3000000000000000");
    CHECK(format_number(0x1p53 - 1) == "9007199254740991");
    CHECK(format_number(1e16) == "1e+16");  // from 2^53 on: the shortest form
    CHECK(format_number(-2.5) == "-2.5");
    CHECK(format_number(0.1) == "0.1");
    CHECK(format_number(0.1 + 0.2) == "0.30000000000000004");
    CHECK(format_number(0.15) == "0.15");
    CHECK(format_number(123456789) == "123456789");
    CHECK(format_number(1e9 + 0.5) == "1000000000.5");
    CHECK(format_number(1e20) == "1e+20");
    CHECK(format_number(1e-7) == "1e-07");
    CHECK(format_number(0.0) == "0");
    CHECK(format_number(-0.0) == "-0");  // reads back as -0, which "0" would not
    CHECK(format_number(std::numeric_limits<double>::max()) == "1.7976931348623157e+308");
    CHECK(format_number(std::numeric_limits<double>::denorm_min()) == "5e-324");
    SUBCASE("every one reads back exactly") {
        for (double d : {0.1, 1.0 / 3.0, 2.0 / 3.0, 1e-300, 6.02214076e23, -1e9 - 0.25, 0.30000000000000004}) {
            CAPTURE(d);
            CHECK(std::stod(format_number(d)) == d);
        }
    }
    SUBCASE("numbers with two decimals or fewer (written directly) match std::to_chars byte for byte") {
        // The reference is the standard library's own shortest form, in fixed notation for an
        // integer below 2^53 (SPEC §4); the cases cover every value n / 100 and n / 10 for
        // |n| <= 2 * 10^6, integers with trailing zeros (where "1e+05" would be shorter than
        // "100000"), the edge of the direct range (2^33) and values that are not such decimals.
        auto reference = [](double d) {
            char buf[32];
            const bool integer = d != 0.0 && std::fabs(d) < 0x1p53 && std::nearbyint(d) == d;
            return std::string(buf, integer ? std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed).ptr
                                            : std::to_chars(buf, buf + sizeof buf, d).ptr);
        };
        std::size_t mismatches = 0;
        auto check = [&](double d) {
            if (format_number(d) != reference(d) && ++mismatches <= 10) CHECK(format_number(d) == reference(d));
        };
        for (long n = -2000000; n <= 2000000; ++n) {
            check(static_cast<double>(n) / 100.0);
            check(static_cast<double>(n) / 10.0);
        }
        for (double base : {1.0, 12.0, 123.0, 9.0, 99.0, 1.5, 0.01, 0.05, 0.1, 2.25})
            for (double scale = 1; scale < 1e12; scale *= 10) {
                check(base * scale);
                check(-base * scale);
                check(base / scale);
            }
        for (double d : {0x1p33, 0x1p33 - 0.25, 0x1p33 - 0.01, 8589934591.99, 8589934592.01, 4294967296.5, 1e10 + 0.01,
                         0.009, 0.001, 0.015, 1.0 / 3.0, 0.1 + 0.2, 2913.1600000000003, 1e300, 5e-324})
            check(d);
        std::mt19937_64 rng(3);
        for (int i = 0; i < 200000; ++i) {
            const double cents = static_cast<double>(static_cast<std::int64_t>(rng() % 2000000000000ull) - 1000000000000ll);
            check(cents / 100.0);
            check(cents / 100.0 + 1e-9);
        }
        CHECK(mismatches == 0);
    }
}

TEST_CASE("report: --locations places each side of every record where it was written") {
    // The small scene read with sources: its lines are those of the text above (shape 0 on
    // line 3, the grid on 7, the moves on 9 and 10), each object's '{' at column 13.
    collide::ReadOptions options;
    options.sources = true;
    Scene scene = small_scene();
    const std::string text = R"({"shapes": [{"id": "player", "type": "circle", "center": [40, 40], "radius": 8},
  {"id": "crate", "type": "rect", "min": [48, 30], "max": [80, 62]},
  {"id": "tile \"7\", west", "type": "rect", "min": [48, 62], "max": [60, 70]}],
 "grids": [{"id": "maze", "tile_size": 20, "rows": ["#####", "#...#", "#.#.#", "#...#", "#####"]}],
 "moves": [{"id": "step-right", "grid": "maze", "from": [30, 50], "to": [70, 50]},
  {"id": "stay", "grid": "maze", "from": [30, 30], "to": [30, 30], "expect": "allowed"}],
 "rules": [{"name": "player starts clear", "pairs": "player:*", "expect": "none"},
  {"name": "crate rests on something", "pairs": "crate:*", "expect": "each"}]})";
    scene = collide::read_scene(text, "level.json", options);
    // What a map adds: the grid's layer and a Tiled object id for the crate.
    scene.sources.details.push_back({scene.sources.layer_index("Walls"), 0, "", false, 0, 0});
    scene.sources.grids[0].detail = static_cast<std::uint32_t>(scene.sources.details.size());
    scene.sources.details.push_back({scene.sources.layer_index("Objects"), 17, "", false, 0, 0});
    scene.sources.shapes[kCrate].detail = static_cast<std::uint32_t>(scene.sources.details.size());
    const auto written = [&](Format format) {
        std::ostringstream out;
        collide::ReportOptions ropt;
        ropt.locations = true;
        ReportWriter w(out, format, ropt);
        w.scene(scene, small_result());
        w.finish();
        return out.str();
    };
    const std::string player = R"({"file": "level.json", "line": 1, "column": 13})";
    const std::string crate = R"({"file": "level.json", "line": 2, "column": 3, "layer": "Objects", "object": 17})";
    const std::string maze = R"({"file": "level.json", "line": 4, "column": 12, "layer": "Walls"})";
    const std::string json = written(Format::Json);
    CHECK(json.find(R"("a": "player", "b": "crate", "relation": "touch", "points": [[48, 40]], "source_a": )" + player +
                    ", \"source_b\": " + crate + "}") != std::string::npos);
    CHECK(json.find(R"("cells": [[1, 1], [2, 2]], "outside": true, "source_a": )" + player + ", \"source_b\": " + maze) !=
          std::string::npos);
    CHECK(json.find(R"("cell": [2, 2], "source": {"file": "level.json", "line": 5, "column": 12}})") != std::string::npos);
    CHECK(json.find(R"({"a": "player", "b": "maze", "source_a": )" + player + ", \"source_b\": " + maze + "}") !=
          std::string::npos);
    CHECK(nlohmann::json::parse(json)["scenes"][0]["collisions"][0]["source_b"]["object"] == 17);
    const std::string jsonl = written(Format::Jsonl);
    CHECK(jsonl.find("\"source_a\": " + player + ", \"source_b\": " + crate + "}\n") != std::string::npos);
    const std::string csv = written(Format::Csv);
    CHECK(csv.rfind("scene,type,a,b,relation,allowed,t,cell_col,cell_row,points,cells,outside,distance,hit,parts_a,parts_b,"
                    "normal,depth,rule,file_a,line_a,col_a,file_b,line_b,col_b\r\n", 0) == 0);
    CHECK(csv.find("level.json,collision,player,crate,touch,,,,,48 40,,,,,,,,,,level.json,1,13,level.json,2,3\r\n") !=
          std::string::npos);
    CHECK(csv.find("level.json,move,step-right,,,false,0.15,2,2,,,,,,,,,,,level.json,5,12,,,\r\n") != std::string::npos);
    CHECK(csv.find("level.json,violation,player,maze,,,,,,,,,,,,,,,player starts clear,level.json,1,13,level.json,4,12\r\n") !=
          std::string::npos);
}

TEST_CASE("report: a scene's layer names are numbered once each, however many there are") {
    collide::SceneSources sources;
    // 50,000 layers (a Godot scene's bodies under parents of their own), asked for twice.
    int wrong = 0;
    for (int round = 0; round < 2; ++round)
        for (int k = 0; k < 50000; ++k) wrong += sources.layer_index("Level/Room" + std::to_string(k)) != static_cast<std::uint32_t>(k + 1);
    CHECK(wrong == 0);
    CHECK(sources.layers.size() == 50000);
    // Layers set from outside, a name twice: the first is the one given (the last layer asked
    // again is itself), a new name is added.
    sources.layers = {"A", "B", "A", "D"};
    CHECK(sources.layer_index("A") == 1);
    CHECK(sources.layer_index("B") == 2);
    CHECK(sources.layer_index("D") == 4);
    CHECK(sources.layer_index("C") == 5);
    CHECK(sources.layers.back() == "C");
}
