#include "collide/report.hpp"

#include "report/spool.hpp"
#include "support/text_encoding.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <utility>

namespace collide {

using detail::append_number;
using detail::csv_field;
using detail::json_string;
using detail::number_chars;


namespace {


void json_point(std::string& out, Vec2 p) {
    // Composed on the stack and appended once: a report is mostly points.
    char buf[72];  // number_chars may use 32 bytes from each start; the text takes <= 52
    char* end = buf;
    *end++ = '[';
    end = number_chars(end, p.x);
    *end++ = ',';
    *end++ = ' ';
    end = number_chars(end, p.y);
    *end++ = ']';
    out.append(buf, end);
}

void json_cell(std::string& out, Cell c) {
    out += '[' + std::to_string(c.col) + ", " + std::to_string(c.row) + ']';
}

const char* boolean(bool b) { return b ? "true" : "false"; }

// A compound side's part indices, as every format lists them: joined by `sep`.
void part_list(std::string& out, const std::vector<std::uint32_t>& ids, const char* sep) {
    for (std::size_t k = 0; k < ids.size(); ++k) {
        if (k) out += sep;
        out += std::to_string(ids[k]);
    }
}

// The fields of a collision record after "a" and "b", shared by JSON and JSON Lines.
void collision_fields(std::string& out, const Scene& scene, const Collision& c, bool points) {
    out += "\"a\": ";
    json_string(out, object_id(scene, c.a));
    out += ", \"b\": ";
    json_string(out, object_id(scene, c.b));
    out += ", \"relation\": \"";
    out += relation_name(c.relation);  // plain words
    out += '"';
    if (c.b >= scene.shapes.size()) {
        out += ", \"cells\": [";
        for (std::size_t k = 0; k < c.cells.size(); ++k) {
            if (k) out += ", ";
            json_cell(out, c.cells[k]);
        }
        out += ']';
        if (c.outside) out += ", \"outside\": true";
    } else if (points) {
        out += ", \"points\": [";
        for (std::size_t k = 0; k < c.points.size(); ++k) {
            if (k) out += ", ";
            json_point(out, c.points[k]);
        }
        out += ']';
    }
    auto parts = [&](const char* key, const std::vector<std::uint32_t>& ids) {
        if (ids.empty()) return;  // not a compound
        out += key;
        part_list(out, ids, ", ");
        out += ']';
    };
    parts(", \"parts_a\": [", c.parts_a);
    parts(", \"parts_b\": [", c.parts_b);
    if (c.separation) {
        out += ", \"separation\": {\"normal\": ";
        json_point(out, c.separation->normal);
        out += ", \"depth\": ";
        append_number(out, c.separation->depth);
        out += '}';
    }
}

// The fields of a near record after its type, shared by JSON and JSON Lines.
void near_fields(std::string& out, const Scene& scene, const NearPair& n) {
    out += "\"a\": ";
    json_string(out, object_id(scene, n.a));
    out += ", \"b\": ";
    json_string(out, object_id(scene, n.b));
    out += ", \"distance\": ";
    append_number(out, n.distance);
}

// Whether a blocked move names a cell: on a grid, or against a selector when a grid was hit.
bool has_cell(const Scene& scene, const MoveResult& m) { return !m.hit || *m.hit >= scene.shapes.size(); }

void move_fields(std::string& out, const Scene& scene, std::size_t i, const MoveResult& m) {
    out += "\"id\": ";
    json_string(out, scene.moves[i].id);
    out += ", \"allowed\": ";
    out += boolean(m.allowed);
    if (!m.allowed) {
        out += ", \"t\": " + format_number(m.t) + ", \"stop\": ";
        json_point(out, m.stop);
        if (m.hit) {
            out += ", \"hit\": ";
            json_string(out, object_id(scene, *m.hit));
        }
        if (has_cell(scene, m)) {
            out += ", \"cell\": ";
            json_cell(out, m.cell);
        }
    }
    if (m.passed) out += std::string(", \"passed\": ") + boolean(*m.passed);
}

// `spill` is called after each violation: a rule may have millions of them, written out as
// they are formatted rather than held as one string.
void rule_fields(std::string& out, const Scene& scene, std::size_t i, const RuleResult& r,
                 const std::function<void()>& spill) {
    out += "\"name\": ";
    json_string(out, scene.rules[i].name);
    out += std::string(", \"passed\": ") + boolean(r.passed) + ", \"violations\": [";
    for (std::size_t k = 0; k < r.violations.size(); ++k) {
        if (k) out += ", ";
        out += "{\"a\": ";
        json_string(out, object_id(scene, r.violations[k].first));
        if (r.violations[k].second != static_cast<std::size_t>(-1)) {
            out += ", \"b\": ";
            json_string(out, object_id(scene, r.violations[k].second));
        }
        if (k < r.distances.size()) {
            out += ", \"distance\": ";
            append_number(out, r.distances[k]);
        }
        out += '}';
        spill();
    }
    out += ']';
}

void summary_fields(std::string& out, const Summary& s) {
    out += "\"shapes\": " + std::to_string(s.shapes) + ", \"grids\": " + std::to_string(s.grids) +
           ", \"collisions\": " + std::to_string(s.collisions);
    if (s.near) out += ", \"near\": " + std::to_string(*s.near);
    out += ", \"moves\": " + std::to_string(s.moves) +
           ", \"blocked\": " + std::to_string(s.blocked) + ", \"rules_failed\": " + std::to_string(s.rules_failed);
}


// Padding to a display width counted in characters, not bytes.
std::size_t width(std::string_view s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}
void pad(std::string& out, std::string_view s, std::size_t w) {
    out += s;
    out.append(w > width(s) ? w - width(s) : 0, ' ');
}

// Columns of the text report are as wide as their longest id up to this; a longer id is
// written whole and breaks the alignment of its line only (a 1 MB id must not pad every
// line to 1 MB).
constexpr std::size_t kMaxColumn = 40;

}  // namespace


// SPEC §4's columns.
constexpr const char* kCsvHeader =
    "scene,type,a,b,relation,allowed,t,cell_col,cell_row,points,cells,outside,distance,hit,parts_a,parts_b,normal,depth\r\n";

namespace {

// What every format's writer shares: the stream and a buffer written to it in blocks. A
// scene may have millions of records, so the buffer also goes out mid-scene once it is big.
// The calls come in this order: for each scene begin_scene, collision() for each of its
// collisions, end_scene; then finish() once.
class FormatWriter {
public:
    FormatWriter(std::ostream& out, bool points) : out_(out), points_(points) {}
    virtual ~FormatWriter() = default;

    // `before`: how many scenes were written before this one.
    virtual void begin_scene(const Scene&, std::size_t /*before*/) {}
    virtual void collision(const Scene& scene, const Collision& c) = 0;
    virtual void end_scene(const Scene& scene, const SceneResult& r) = 0;
    virtual void finish(std::size_t /*scenes*/) {}

    // A near record: spooled, as the near pairs come after the collisions, and a scene may
    // have millions (memory stays flat).
    void near(const Scene& scene, const NearPair& n) {
        near_record(near_.text(), scene, n, near_count_ == 0);
        ++near_count_;
        near_.spill_if_big();
    }

    void flush() {
        out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
        buf_.clear();
    }

protected:
    void flush_if_big() {
        if (buf_.size() > (1u << 16)) flush();
    }

    // Appends one near record to `out`; `first` in its scene.
    virtual void near_record(std::string& out, const Scene& scene, const NearPair& n, bool first) = 0;

    // Writes the scene's near records where they belong, after what buf_ holds; returns how
    // many there were.
    std::size_t write_near() {
        flush();
        near_.copy_to(out_);
        return std::exchange(near_count_, 0);
    }

    std::ostream& out_;
    const bool points_;
    std::string buf_;

private:
    detail::Spool near_;
    std::size_t near_count_ = 0;  // in near_, for the current scene
};

// {"scenes": [{"file": …, "collisions": […], "moves": […], "rules": […], "summary": {…}}, …]}
// with one record a line in each list.
class JsonWriter final : public FormatWriter {
public:
    JsonWriter(std::ostream& out, bool points) : FormatWriter(out, points) { buf_ += "{\"scenes\": [\n"; }

    void begin_scene(const Scene& scene, std::size_t before) override {
        in_scene_ = 0;
        buf_ += before ? ",\n" : "";
        buf_ += "{\"file\": ";
        json_string(buf_, scene.file);
        buf_ += ",\n \"collisions\": [";
    }

    void collision(const Scene& scene, const Collision& c) override {
        open_record(in_scene_ == 0);
        collision_fields(buf_, scene, c, points_);
        buf_ += '}';
        ++in_scene_;
        flush_if_big();
    }

    void end_scene(const Scene& scene, const SceneResult& r) override {
        bool empty = in_scene_ == 0;
        if (r.summary.near) {  // --near: the near pairs, after the collisions
            next_list(empty, "near");
            buf_ += '[';
            empty = write_near() == 0;
        }
        next_list(empty, "moves");
        buf_ += '[';
        for (std::size_t k = 0; k < r.moves.size(); ++k) {
            open_record(k == 0);
            move_fields(buf_, scene, k, r.moves[k]);
            buf_ += '}';
        }
        next_list(r.moves.empty(), "rules");
        buf_ += '[';
        for (std::size_t k = 0; k < r.rules.size(); ++k) {
            open_record(k == 0);
            rule_fields(buf_, scene, k, r.rules[k], [this] { flush_if_big(); });
            buf_ += '}';
        }
        next_list(r.rules.empty(), "summary");
        buf_ += '{';
        summary_fields(buf_, r.summary);
        buf_ += "}}";
    }

    void finish(std::size_t scenes) override { buf_ += scenes ? "\n]}\n" : "]}\n"; }

private:
    void near_record(std::string& out, const Scene& scene, const NearPair& n, bool first) override {
        out += first ? "\n  {" : ",\n  {";
        near_fields(out, scene, n);
        out += '}';
    }
    void open_record(bool first) { buf_ += first ? "\n  {" : ",\n  {"; }
    // Closes the list before (an empty one as "[]", a full one on a line of its own) and
    // opens the field `key`.
    void next_list(bool empty, const char* key) {
        buf_ += empty ? "]" : "\n ]";
        buf_ += ",\n \"";
        buf_ += key;
        buf_ += "\": ";
    }

    std::size_t in_scene_ = 0;  // collisions written in the current scene
};

// One record a line, each naming its type and scene: collisions as they come, then the
// scene's moves, rules and summary.
class JsonlWriter final : public FormatWriter {
public:
    using FormatWriter::FormatWriter;

    void begin_scene(const Scene& scene, std::size_t) override {
        file_json_.clear();
        json_string(file_json_, scene.file);
        collision_head_ = "{\"type\": \"collision\", \"scene\": " + file_json_ + ", ";
    }

    void collision(const Scene& scene, const Collision& c) override {
        buf_ += collision_head_;  // record("collision"), made once a scene: collisions are most records
        collision_fields(buf_, scene, c, points_);
        buf_ += "}\n";
        flush_if_big();
    }

    void end_scene(const Scene& scene, const SceneResult& r) override {
        write_near();
        for (std::size_t k = 0; k < r.moves.size(); ++k) {
            record("move");
            move_fields(buf_, scene, k, r.moves[k]);
            buf_ += "}\n";
        }
        for (std::size_t k = 0; k < r.rules.size(); ++k) {
            record("rule");
            rule_fields(buf_, scene, k, r.rules[k], [this] { flush_if_big(); });
            buf_ += "}\n";
        }
        record("summary");
        summary_fields(buf_, r.summary);
        buf_ += "}\n";
    }

private:
    void near_record(std::string& out, const Scene& scene, const NearPair& n, bool) override {
        record(out, "near");
        near_fields(out, scene, n);
        out += "}\n";
    }
    void record(const char* type) { record(buf_, type); }
    void record(std::string& out, const char* type) const {
        out += "{\"type\": \"";
        out += type;
        out += "\", \"scene\": ";
        out += file_json_;
        out += ", ";
    }

    std::string file_json_;       // the current scene's file name as a JSON string
    std::string collision_head_;  // what record() writes for a collision in this scene
};

// SPEC §4's table: one header, then a row for each collision and each move (rules and
// summaries have no rows). The header is written even when there are no scenes.
class CsvWriter final : public FormatWriter {
public:
    using FormatWriter::FormatWriter;

    void begin_scene(const Scene&, std::size_t before) override {
        if (before == 0) buf_ += kCsvHeader;
    }

    void collision(const Scene& scene, const Collision& c) override {
        row_head(buf_, scene, "collision", c.a, c.b);
        buf_ += relation_name(c.relation);
        buf_ += ",,,,,";
        const bool grid = c.b >= scene.shapes.size();
        if (!grid && points_) points(c.points);
        buf_ += ',';
        cells(c.cells);
        buf_ += ',';
        if (grid) buf_ += boolean(c.outside);
        buf_ += ",,,";
        part_list(buf_, c.parts_a, ";");
        buf_ += ',';
        part_list(buf_, c.parts_b, ";");
        buf_ += ',';
        if (c.separation) {
            append_number(buf_, c.separation->normal.x);
            buf_ += ' ';
            append_number(buf_, c.separation->normal.y);
            buf_ += ',';
            append_number(buf_, c.separation->depth);
        } else {
            buf_ += ',';
        }
        buf_ += "\r\n";
        flush_if_big();
    }

    void end_scene(const Scene& scene, const SceneResult& r) override {
        write_near();
        for (std::size_t k = 0; k < r.moves.size(); ++k) {
            const MoveResult& m = r.moves[k];
            csv_field(buf_, scene.file);
            buf_ += ",move,";
            csv_field(buf_, scene.moves[k].id);
            buf_ += ",,,";
            buf_ += boolean(m.allowed);
            buf_ += ',';
            if (!m.allowed) buf_ += format_number(m.t);
            buf_ += ',';
            if (!m.allowed && has_cell(scene, m)) buf_ += std::to_string(m.cell.col) + ',' + std::to_string(m.cell.row);
            else buf_ += ',';
            buf_ += ",,,,,";
            if (!m.allowed && m.hit) csv_field(buf_, object_id(scene, *m.hit));
            buf_ += ",,,,\r\n";
        }
    }

    void finish(std::size_t scenes) override {
        if (scenes == 0) buf_ += kCsvHeader;
    }

private:
    void near_record(std::string& out, const Scene& scene, const NearPair& n, bool) override {
        row_head(out, scene, "near", n.a, n.b);
        out += ",,,,,,,";
        if (n.b >= scene.shapes.size()) out += "false";  // a shape-grid row (SPEC §4)
        out += ',';
        append_number(out, n.distance);
        out += ",,,,,\r\n";
    }

    // The first columns of a pair's row: scene, type, a, b (and the comma after b).
    static void row_head(std::string& out, const Scene& scene, const char* type, std::size_t a, std::size_t b) {
        csv_field(out, scene.file);
        out += ',';
        out += type;
        out += ',';
        csv_field(out, object_id(scene, a));
        out += ',';
        csv_field(out, object_id(scene, b));
        out += ',';
    }

    // Lists inside one field: items split by ';', the two numbers of an item by a space.
    void points(const std::vector<Vec2>& ps) {
        for (std::size_t k = 0; k < ps.size(); ++k) {
            if (k) buf_ += ';';
            append_number(buf_, ps[k].x);
            buf_ += ' ';
            append_number(buf_, ps[k].y);
        }
    }
    void cells(const std::vector<Cell>& cs) {
        for (std::size_t k = 0; k < cs.size(); ++k) {
            if (k) buf_ += ';';
            buf_ += std::to_string(cs[k].col) + ' ' + std::to_string(cs[k].row);
        }
    }
};

// For people: a heading line a scene, then its collisions in aligned columns, its moves and
// its rules, one a line.
class TextWriter final : public FormatWriter {
public:
    using FormatWriter::FormatWriter;

    // Held until the scene ends: the columns are as wide as the longest id among them.
    void collision(const Scene&, const Collision& c) override { held_.push_back(c); }

    void end_scene(const Scene& scene, const SceneResult& r) override {
        heading(scene, r);
        collisions(scene);
        write_near();
        moves(scene, r.moves);
        rules(scene, r.rules);
        held_.clear();
    }

private:
    void heading(const Scene& scene, const SceneResult& r) {
        const Summary& s = r.summary;
        buf_ += printable(scene.file) + ": " + std::to_string(s.collisions) + (s.collisions == 1 ? " collision" : " collisions");
        if (s.near) buf_ += ", " + std::to_string(*s.near) + (*s.near == 1 ? " near pair" : " near pairs");
        if (s.moves) buf_ += ", " + std::to_string(s.blocked) + " of " + std::to_string(s.moves) + " moves blocked";
        if (!r.rules.empty() || s.rules_failed)
            buf_ += ", " + std::to_string(s.rules_failed) + (s.rules_failed == 1 ? " check failed" : " checks failed");
        buf_ += '\n';
    }

    void collisions(const Scene& scene) {
        std::size_t wa = 0, wb = 0;
        for (const Collision& c : held_) {
            wa = std::max(wa, std::min(kMaxColumn, width(printable(object_id(scene, c.a)))));
            wb = std::max(wb, std::min(kMaxColumn, width(printable(object_id(scene, c.b)))));
        }
        for (const Collision& c : held_) {
            buf_ += "  ";
            const std::string a = printable(object_id(scene, c.a)), b = printable(object_id(scene, c.b));
            pad(buf_, a, std::max(wa, width(a)) + 2);
            pad(buf_, b, std::max(wb, width(b)) + 2);
            pad(buf_, relation_name(c.relation), 10);
            buf_ += detail(scene, c);
            while (!buf_.empty() && buf_.back() == ' ') buf_.pop_back();
            buf_ += '\n';
            flush_if_big();
        }
    }

    // The last column: a grid's cells (and "outside"), or a shape pair's points; then the
    // parts of a compound side.
    std::string detail(const Scene& scene, const Collision& c) const {
        std::string d;
        if (c.b >= scene.shapes.size()) {
            if (!c.cells.empty()) d = "cells";
            for (const Cell& cell : c.cells) d += " [" + std::to_string(cell.col) + ", " + std::to_string(cell.row) + "]";
            if (c.outside) d += c.cells.empty() ? "outside" : " + outside";
        } else if (points_) {
            for (const Vec2& p : c.points) {
                if (!d.empty()) d += ' ';
                d += '(' + format_number(p.x) + ", " + format_number(p.y) + ')';
            }
        }
        auto parts = [&](const char* side, const std::vector<std::uint32_t>& ids) {
            if (ids.empty()) return;
            d += d.empty() ? "parts " : " parts ";
            d += side;
            part_list(d, ids, ",");
        };
        parts("a:", c.parts_a);
        parts("b:", c.parts_b);
        if (c.separation) {
            const Separation& sep = *c.separation;
            d += d.empty() ? "" : " ";
            d += "push " + format_number(sep.depth) + " along (" + format_number(sep.normal.x) + ", " +
                 format_number(sep.normal.y) + ")";
        }
        return d;
    }

    void near_record(std::string& out, const Scene& scene, const NearPair& n, bool) override {
        out += "  near " + printable(object_id(scene, n.a)) + " and " + printable(object_id(scene, n.b)) +
               ": distance " + format_number(n.distance) + '\n';
    }

    void moves(const Scene& scene, const std::vector<MoveResult>& ms) {
        for (std::size_t k = 0; k < ms.size(); ++k) {
            const MoveResult& m = ms[k];
            buf_ += "  move " + printable(scene.moves[k].id) + ": " + (m.allowed ? "allowed" : "blocked");
            if (!m.allowed) {
                buf_ += " at t=" + format_number(m.t) + " (" + format_number(m.stop.x) + ", " + format_number(m.stop.y) + ")";
                if (m.hit) buf_ += " by " + printable(object_id(scene, *m.hit));
                if (has_cell(scene, m)) buf_ += " cell [" + std::to_string(m.cell.col) + ", " + std::to_string(m.cell.row) + "]";
            }
            if (m.passed) buf_ += *m.passed ? " (as expected)" : " (EXPECTATION FAILED)";
            buf_ += '\n';
        }
    }

    void rules(const Scene& scene, const std::vector<RuleResult>& rs) {
        for (std::size_t k = 0; k < rs.size(); ++k) {
            const RuleResult& rr = rs[k];
            buf_ += "  rule '" + printable(scene.rules[k].name) + "': " + (rr.passed ? "passed" : "FAILED");
            for (std::size_t v = 0; v < rr.violations.size(); ++v) {
                buf_ += v ? ", " : ": ";
                buf_ += printable(object_id(scene, rr.violations[v].first));
                if (rr.violations[v].second != static_cast<std::size_t>(-1))
                    buf_ += " × " + printable(object_id(scene, rr.violations[v].second));
                if (v < rr.distances.size()) buf_ += " (distance " + format_number(rr.distances[v]) + ")";
                flush_if_big();
            }
            buf_ += '\n';
        }
    }

    std::vector<Collision> held_;
};

std::unique_ptr<FormatWriter> make_writer(std::ostream& out, Format format, bool points) {
    switch (format) {
        case Format::Json: return std::make_unique<JsonWriter>(out, points);
        case Format::Jsonl: return std::make_unique<JsonlWriter>(out, points);
        case Format::Csv: return std::make_unique<CsvWriter>(out, points);
        case Format::Text: break;
    }
    return std::make_unique<TextWriter>(out, points);
}

}  // namespace

struct ReportWriter::Impl {
    std::unique_ptr<FormatWriter> writer;
    std::size_t scenes = 0;  // ended so far
};

ReportWriter::ReportWriter(std::ostream& out, Format format, bool points)
    : impl_(new Impl{make_writer(out, format, points), 0}) {}

ReportWriter::~ReportWriter() = default;

void ReportWriter::scene(const Scene& scene, const SceneResult& result) {
    begin_scene(scene);
    for (const Collision& c : result.collisions) collision(scene, c);
    end_scene(scene, result);
}

void ReportWriter::begin_scene(const Scene& scene) { impl_->writer->begin_scene(scene, impl_->scenes); }

void ReportWriter::collision(const Scene& scene, const Collision& c) { impl_->writer->collision(scene, c); }

void ReportWriter::near(const Scene& scene, const NearPair& n) { impl_->writer->near(scene, n); }

void ReportWriter::end_scene(const Scene& scene, const SceneResult& result) {
    for (const NearPair& n : result.near) impl_->writer->near(scene, n);
    impl_->writer->end_scene(scene, result);
    ++impl_->scenes;
    impl_->writer->flush();
}

void ReportWriter::finish() {
    impl_->writer->finish(impl_->scenes);
    impl_->writer->flush();
}

}  // namespace collide
