// Fuzz target: collide::read_scene on arbitrary bytes, then check() and every report format.
//
// read_scene must return a Scene or throw collide::Error; any other exception is a finding
// (as are crashes, hangs and sanitizer reports). A scene it accepts is checked with points on
// and written as JSON, JSON Lines, CSV and text, and the result must hold up:
// - check() does not throw (check.hpp: "never throws for a scene read_scene() accepted");
// - every broad phase gives the same collisions (SPEC §4), and --no-touch drops exactly the
//   touch-only pairs;
// - the JSON report and every JSON Lines record parse as JSON and say what the result says
//   (ids, relations, numbers that read back to the same double, a compound's parts_a and
//   parts_b); the CSV report is RFC 4180 with SPEC §4's 19 columns, one row per collision,
//   near pair, move or violation of a failed rule;
// - the four types of issue 13 read as SPEC §1.1 says: a compound holds 1 to 4096 parts, none
//   a compound, and its collisions name sorted parts that exist; Scene::converted lists, in
//   file order, shapes and parts that are now a rect, a circle or a polygon; a capsule has a
//   radius > 0 and a != b (a == b is read as the circle);
// - the SVG picture (write_svg) is text an XML parser takes: path data holds only path
//   commands and finite numbers (no "nan", "inf" or exponent), no control character, and
//   every <title> is closed (an id cannot open an element).
// Scenes with more than 2000 shapes or a grid of more than 10^6 cells are skipped, so one
// input cannot run for seconds. The new types reach the fuzzer through the seeds (samples,
// both conformance corpora) and the dictionary fuzz_scene.dict (their keys and type names).
#include "fuzz_common.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <functional>
#include <sstream>
#include <string_view>
#include <typeinfo>

using namespace collide;

namespace {

constexpr std::size_t kMaxShapes = 2000;
constexpr std::size_t kMaxCells = 1000000;
constexpr std::size_t kMaxShapesForBroadphases = 300;  // each broad phase runs once more
constexpr std::size_t kCsvColumns = 19;                 // SPEC §4's header, `rule` last

std::string report(const Scene& scene, const SceneResult& r, Format f) {
    std::ostringstream out;
    ReportWriter w(out, f, true);
    w.scene(scene, r);
    w.finish();
    return out.str();
}

std::string collision_text(const Scene& s, const Collision& c) {
    std::string t = object_id(s, c.a) + " x " + object_id(s, c.b) + " " + std::string(relation_name(c.relation)) +
                    " points " + fuzz::points_text(c.points) + " cells {";
    for (const Cell& cell : c.cells) t += "[" + std::to_string(cell.col) + "," + std::to_string(cell.row) + "]";
    t += "}" + std::string(c.outside ? " outside" : "");
    for (const auto* parts : {&c.parts_a, &c.parts_b}) {
        t += parts == &c.parts_a ? " parts_a {" : " parts_b {";
        for (std::uint32_t k : *parts) t += std::to_string(k) + ";";
        t += "}";
    }
    return t;
}

bool same_collision(const Collision& x, const Collision& y) {
    if (x.a != y.a || x.b != y.b || x.relation != y.relation || x.outside != y.outside) return false;
    if (x.parts_a != y.parts_a || x.parts_b != y.parts_b) return false;
    if (x.points.size() != y.points.size() || x.cells.size() != y.cells.size()) return false;
    for (std::size_t i = 0; i < x.points.size(); ++i)  // the same bytes: the same doubles, -0 included
        if (std::signbit(x.points[i].x) != std::signbit(y.points[i].x) || x.points[i] != y.points[i]) return false;
    for (std::size_t i = 0; i < x.cells.size(); ++i)
        if (!(x.cells[i] == y.cells[i])) return false;
    return true;
}

void compare_collisions(const Scene& s, const std::vector<Collision>& want, const std::vector<Collision>& got,
                        const std::string& what) {
    const std::size_t n = std::max(want.size(), got.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (i < want.size() && i < got.size() && same_collision(want[i], got[i])) continue;
        fuzz::fail(what + ": collision " + std::to_string(i) + " differs\nexpected: " +
                   (i < want.size() ? collision_text(s, want[i]) : "(none)") +
                   "\ngot:      " + (i < got.size() ? collision_text(s, got[i]) : "(none)"));
    }
}

// ---- report checks ------------------------------------------------------------------------

nlohmann::json parse_json(const std::string& text, const char* what) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        fuzz::fail(std::string(what) + " is not valid JSON: " + e.what() + "\n" + text.substr(0, 4000));
    }
}

void check_json(const Scene& s, const SceneResult& r, const std::string& text) {
    const auto doc = parse_json(text, "the JSON report");
    const auto& sc = doc.at("scenes").at(0);
    const auto& cols = sc.at("collisions");
    if (cols.size() != r.collisions.size()) fuzz::fail("JSON report: wrong number of collisions\n" + text);
    for (std::size_t i = 0; i < cols.size(); ++i) {
        const Collision& c = r.collisions[i];
        const auto& j = cols[i];
        if (j.at("a").get<std::string>() != object_id(s, c.a) || j.at("b").get<std::string>() != object_id(s, c.b) ||
            j.at("relation").get<std::string>() != relation_name(c.relation))
            fuzz::fail("JSON report: collision " + std::to_string(i) + " does not match " + collision_text(s, c) + "\n" + text);
        const auto parts_of = [&](const char* key) { return j.contains(key) ? j.at(key).get<std::vector<std::uint32_t>>() : std::vector<std::uint32_t>{}; };
        if (parts_of("parts_a") != c.parts_a || parts_of("parts_b") != c.parts_b)
            fuzz::fail("JSON report: parts_a or parts_b of collision " + std::to_string(i) + " does not match " +
                       collision_text(s, c) + "\n" + text);
        if (c.b < s.shapes.size()) {
            const auto& pts = j.at("points");
            if (pts.size() != c.points.size()) fuzz::fail("JSON report: wrong number of points\n" + text);
            for (std::size_t k = 0; k < pts.size(); ++k)
                if (pts[k].at(0).get<double>() != c.points[k].x || pts[k].at(1).get<double>() != c.points[k].y)
                    fuzz::fail("JSON report: a point does not read back to the same double: " + pts[k].dump() +
                               " vs " + fuzz::vec(c.points[k]));
        }
    }
    if (sc.at("moves").size() != r.moves.size()) fuzz::fail("JSON report: wrong number of moves\n" + text);
    for (std::size_t i = 0; i < r.moves.size(); ++i) {
        const auto& j = sc.at("moves")[i];
        if (j.at("id").get<std::string>() != s.moves[i].id || j.at("allowed").get<bool>() != r.moves[i].allowed)
            fuzz::fail("JSON report: move " + std::to_string(i) + " does not match\n" + text);
        if (!r.moves[i].allowed && j.at("t").get<double>() != r.moves[i].t)
            fuzz::fail("JSON report: move t does not read back: " + j.dump() + " vs " + fuzz::num(r.moves[i].t));
    }
    if (sc.at("rules").size() != r.rules.size()) fuzz::fail("JSON report: wrong number of rules\n" + text);
    if (sc.at("summary").at("collisions").get<std::size_t>() != r.collisions.size())
        fuzz::fail("JSON report: summary.collisions does not count the collisions\n" + text);
}

void check_jsonl(const SceneResult& r, const std::string& text) {
    std::istringstream in(text);
    std::string line;
    std::size_t n = 0;
    while (std::getline(in, line)) {
        const auto j = parse_json(line, "a JSON Lines record");
        const auto type = j.at("type").get<std::string>();
        if (type != "collision" && type != "near" && type != "move" && type != "rule" && type != "summary")
            fuzz::fail("JSON Lines: unknown record type: " + line);
        if (!j.contains("scene")) fuzz::fail("JSON Lines: a record without \"scene\": " + line);
        ++n;
    }
    if (n != r.collisions.size() + r.near.size() + r.moves.size() + r.rules.size() + 1)
        fuzz::fail("JSON Lines: wrong number of records\n" + text);
}

// RFC 4180: CRLF-terminated records, fields quoted with "" for a quote inside.
void check_csv(const SceneResult& r, const std::string& text) {
    std::size_t records = 0;
    std::size_t fields = 1;
    bool quoted = false;
    bool field_start = true;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c != '"') continue;
            if (i + 1 < text.size() && text[i + 1] == '"') ++i;
            else quoted = false;
            continue;
        }
        if (c == '"' && field_start) {
            quoted = true;
            field_start = false;
        } else if (c == ',') {
            ++fields;
            field_start = true;
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            if (fields != kCsvColumns)
                fuzz::fail("CSV: record " + std::to_string(records) + " has " + std::to_string(fields) + " fields, not " +
                           std::to_string(kCsvColumns) + "\n" + text.substr(0, 4000));
            ++records;
            ++i;
            fields = 1;
            field_start = true;
        } else if (c == '"' || c == '\r' || c == '\n') {
            fuzz::fail("CSV: a bare quote or line break outside a quoted field at byte " + std::to_string(i) + "\n" +
                       text.substr(0, 4000));
        } else {
            field_start = false;
        }
    }
    if (quoted || !field_start || fields != 1) fuzz::fail("CSV: the last record is not terminated\n" + text.substr(0, 4000));
    std::size_t violations = 0;  // a failed rule's violations are rows too (SPEC §4)
    for (const RuleResult& rule : r.rules)
        if (!rule.passed) violations += rule.violations.size();
    if (records != 1 + r.collisions.size() + r.near.size() + r.moves.size() + violations)
        fuzz::fail("CSV: wrong number of records\n" + text.substr(0, 4000));
}

// ---- the shapes read -----------------------------------------------------------------------

// What read_scene made of capsules, boxes, ellipses and compounds (SPEC §1.1).
void check_read(const Scene& s) {
    std::size_t next = 0;  // the converted entries come in file order, without repeats
    for (std::size_t i = 0; i < s.shapes.size(); ++i) {
        const Shape& shape = s.shapes[i].shape;
        if (const auto* c = std::get_if<Capsule>(&shape)) {
            if (!(c->radius > 0) || c->a == c->b) fuzz::fail("a capsule with radius <= 0 or a == b was kept as a capsule");
        }
        const auto* comp = std::get_if<Compound>(&shape);
        if (comp && (comp->parts.empty() || comp->parts.size() > 4096))
            fuzz::fail("a compound of " + std::to_string(comp->parts.size()) + " parts");
        if (comp)
            for (const Shape& part : comp->parts)
                if (std::holds_alternative<Compound>(part)) fuzz::fail("a compound inside a compound");
        for (; next < s.converted.size() && s.converted[next].shape == i; ++next) {
            const ConvertedShape& cv = s.converted[next];
            if (cv.part && (!comp || *cv.part >= comp->parts.size()))
                fuzz::fail("Scene::converted names part " + std::to_string(*cv.part) + " of shape " + std::to_string(i) +
                           ", which has no such part");
            if (next > 0 && s.converted[next - 1].shape == i && !(s.converted[next - 1].part < cv.part))
                fuzz::fail("Scene::converted is not in file order at shape " + std::to_string(i));
            const Shape& made = cv.part ? comp->parts[*cv.part] : shape;
            const bool as_expected = std::holds_alternative<Rect>(made) || std::holds_alternative<Polygon>(made) ||
                                     (cv.written == ConvertedShape::Written::Ellipse && std::holds_alternative<Circle>(made));
            if (!as_expected) fuzz::fail("a box or ellipse of shape " + std::to_string(i) + " became a " + std::string(type_name(type_of(made))));
        }
    }
    if (next != s.converted.size()) fuzz::fail("Scene::converted names a shape out of order or out of range");
}

// Each compound side names the parts that collide, ascending, within range; a simple side none.
void check_parts(const Scene& s, const SceneResult& r) {
    auto parts_of = [&](std::size_t index) -> std::size_t {
        if (index >= s.shapes.size()) return 0;
        const auto* comp = std::get_if<Compound>(&s.shapes[index].shape);
        return comp ? comp->parts.size() : 0;
    };
    for (const Collision& c : r.collisions)
        for (const auto& [index, parts] : {std::pair{c.a, &c.parts_a}, std::pair{c.b, &c.parts_b}}) {
            const std::size_t n = parts_of(index);
            const bool sorted = std::adjacent_find(parts->begin(), parts->end(), std::greater_equal<>()) == parts->end();
            if ((n == 0) != parts->empty() || !sorted || (!parts->empty() && parts->back() >= n))
                fuzz::fail("the colliding parts are wrong: " + collision_text(s, c));
        }
}

// --near and --separation (SPEC §2.6, §2.7) add records and fields, never change the
// collisions; the near pairs do not collide, lie within the distance, and are the same for
// every broad phase (the bounds grown by the distance must lose none).
void check_measures(const Scene& scene, const CheckOptions& opt, const SceneResult& plain) {
    CheckOptions mo = opt;
    mo.near = 1.5;
    mo.separation = true;
    const SceneResult r = check(scene, mo);
    compare_collisions(scene, plain.collisions, r.collisions, "collisions with --near and --separation vs without");
    if (!r.summary.near || *r.summary.near != r.near.size()) fuzz::fail("summary.near does not count the near pairs");
    for (const NearPair& n : r.near) {
        if (!(n.distance > 0 && n.distance <= 1.5) && !(n.distance == 0 && n.b >= scene.shapes.size()))
            fuzz::fail("a near pair at distance " + fuzz::num(n.distance) + " (--near 1.5): " + object_id(scene, n.a) + " " +
                       object_id(scene, n.b));
    }
    for (const Collision& c : r.collisions)
        if (c.separation && !(c.separation->depth >= 0 && std::fabs(std::hypot(c.separation->normal.x, c.separation->normal.y) - 1) < 1e-12))
            fuzz::fail("a separation that is not a unit normal and a depth >= 0: " + collision_text(scene, c));
    check_jsonl(r, report(scene, r, Format::Jsonl));
    check_csv(r, report(scene, r, Format::Csv));
    CheckOptions brute = mo;
    brute.broadphase = Broadphase::Brute;
    const SceneResult rb = check(scene, brute);
    bool same = rb.near.size() == r.near.size();
    for (std::size_t k = 0; same && k < r.near.size(); ++k)
        same = rb.near[k].a == r.near[k].a && rb.near[k].b == r.near[k].b && rb.near[k].distance == r.near[k].distance;
    if (!same) fuzz::fail("near pairs differ between the brute force and the automatic broad phase");
}

void check_svg(const Scene& scene, const SceneResult& r) {
    std::ostringstream out;
    write_svg(out, scene, r);
    const std::string svg = out.str();
    for (char c : svg)
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n') fuzz::fail("a control character in the SVG");
    for (std::size_t at = svg.find(" d=\""); at != std::string::npos; at = svg.find(" d=\"", at + 1)) {
        const std::size_t end = svg.find('"', at + 4);
        const std::string_view d(svg.data() + at + 4, end - at - 4);
        if (d.find_first_not_of("MmLlHhVvAaZ0123456789 .-") != std::string_view::npos)
            fuzz::fail("path data that is not path commands and plain numbers: " + std::string(d.substr(0, 200)));
    }
    std::size_t open = 0, close = 0;
    for (std::size_t at = svg.find("<title>"); at != std::string::npos; at = svg.find("<title>", at + 1)) ++open;
    for (std::size_t at = svg.find("</title>"); at != std::string::npos; at = svg.find("</title>", at + 1)) ++close;
    if (open != close || open < scene.shapes.size() + scene.grids.size() + scene.moves.size())
        fuzz::fail("the SVG's titles: " + std::to_string(open) + " opened, " + std::to_string(close) + " closed");
    if (svg.size() < 7 || svg.compare(svg.size() - 7, 7, "</svg>\n") != 0) fuzz::fail("the SVG does not end with </svg>");
}

void run(const Scene& scene) {
    check_read(scene);
    CheckOptions opt;
    opt.points = true;
    const SceneResult r = check(scene, opt);
    for (const Collision& c : r.collisions)
        for (Vec2 p : c.points)
            if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
                fuzz::fail("a non-finite intersection point: " + collision_text(scene, c));
            }

    check_parts(scene, r);

    const std::string json = report(scene, r, Format::Json);
    const std::string jsonl = report(scene, r, Format::Jsonl);
    try {
        check_json(scene, r, json);
        check_jsonl(r, jsonl);
    } catch (const nlohmann::json::exception& e) {  // a missing key or a value of the wrong type
        fuzz::fail(std::string("a JSON report record lacks a field or has the wrong type: ") + e.what() + "\n" +
                   json.substr(0, 4000) + "\n" + jsonl.substr(0, 4000));
    }
    check_csv(r, report(scene, r, Format::Csv));
    (void)report(scene, r, Format::Text);
    check_svg(scene, r);

    if (scene.shapes.size() > kMaxShapesForBroadphases) return;
    for (Broadphase bp : {Broadphase::Brute, Broadphase::Grid, Broadphase::Sweep}) {
        CheckOptions o = opt;
        o.broadphase = bp;
        const char* name = bp == Broadphase::Brute ? "brute" : bp == Broadphase::Grid ? "grid" : "sweep";
        compare_collisions(scene, r.collisions, check(scene, o).collisions, std::string("broad phase ") + name + " vs auto");
    }
    check_measures(scene, opt, r);
    CheckOptions nt = opt;
    nt.no_touch = true;
    std::vector<Collision> want;
    for (const Collision& c : r.collisions)
        if (c.relation != Relation::Touch) want.push_back(c);
    const SceneResult rn = check(scene, nt);
    compare_collisions(scene, want, rn.collisions, "no_touch vs the touch-free collisions");
    if (rn.summary.collisions != want.size()) fuzz::fail("no_touch: summary.collisions does not count what is reported");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Scene scene;
    try {
        scene = read_scene(text, "fuzz.json");
    } catch (const Error&) {
        return 0;
    } catch (const std::exception& e) {
        fuzz::fail(std::string("read_scene threw something other than collide::Error: ") + typeid(e).name() + ": " + e.what());
    } catch (...) {
        fuzz::fail("read_scene threw something other than a std::exception");
    }
    if (scene.shapes.size() > kMaxShapes) return 0;
    for (const Grid& g : scene.grids)
        if (g.cols * g.rows > kMaxCells) return 0;
    try {
        run(scene);
    } catch (const std::exception& e) {
        fuzz::fail(std::string("check or a report writer threw on an accepted scene: ") + typeid(e).name() + ": " + e.what());
    }
    return 0;
}
