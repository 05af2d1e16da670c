#include "collide/report.hpp"

#include "report/ci_formats.hpp"
#include "report/format_writer.hpp"
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

using detail::boolean;
using detail::FormatWriter;
using detail::has_cell;
using detail::part_list;

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

// `, "source_a": {…}, "source_b": {…}` of a pair (b absent: npos), for --locations.
void json_pair_sources(std::string& out, const Scene& scene, const std::string& file_json, std::size_t a,
                       std::size_t b) {
    out += ", \"source_a\": ";
    detail::json_source(out, file_json, detail::object_place(scene, a));
    if (b == static_cast<std::size_t>(-1)) return;
    out += ", \"source_b\": ";
    detail::json_source(out, file_json, detail::object_place(scene, b));
}

// Whether the baseline knows this finding (SPEC §3.1); false without a baseline.
bool known(const Baseline* baseline, Finding::Kind kind, const std::string& rule, const Scene& scene, const std::string& a,
           const std::string& b) {
    if (!baseline) return false;
    Finding f;
    f.kind = kind;
    f.rule = rule;
    f.scene = scene.file;
    f.a = a;
    f.b = b;
    return baseline->known(f);
}

// `, "source": {…}` of move k, for --locations.
void move_source(std::string& out, const Scene& scene, const std::string& file_json, std::size_t k) {
    out += ", \"source\": ";
    detail::json_source(out, file_json, detail::move_place(scene, k));
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
// Appends `, "known": true` for each known finding, counting them in `known_count`.
void rule_fields(std::string& out, const Scene& scene, std::size_t i, const RuleResult& r, const std::string* file_json,
                 const Baseline* baseline, std::size_t& known_count, const std::function<void()>& spill) {
    const std::string& name = scene.rules[i].name;
    out += "\"name\": ";
    json_string(out, name);
    out += std::string(", \"passed\": ") + boolean(r.passed);
    if (!r.passed && r.violations.empty() && known(baseline, Finding::Kind::NothingFound, name, scene, "", "")) {
        out += ", \"known\": true";
        ++known_count;
    }
    out += ", \"violations\": [";
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
        if (file_json) json_pair_sources(out, scene, *file_json, r.violations[k].first, r.violations[k].second);
        if (!r.passed && baseline) {
            const std::size_t b = r.violations[k].second;
            if (known(baseline, Finding::Kind::Violation, name, scene, object_id(scene, r.violations[k].first),
                      b == static_cast<std::size_t>(-1) ? std::string() : object_id(scene, b))) {
                out += ", \"known\": true";
                ++known_count;
            }
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
    if (s.ignored) out += ", \"ignored\": " + std::to_string(*s.ignored);
}

// With a baseline: `, "known": N, "fixed": M` of the scene.
void baseline_fields(std::string& out, const Baseline* baseline, const Scene& scene, std::size_t known_count) {
    if (!baseline) return;
    out += ", \"known\": " + std::to_string(known_count) + ", \"fixed\": " + std::to_string(baseline->fixed(scene.file));
}

// `, "known": true` when move k's failed expectation is known (counted in known_count).
void move_known(std::string& out, const Baseline* baseline, const Scene& scene, std::size_t k, const MoveResult& m,
                std::size_t& known_count) {
    if (!m.passed || *m.passed || !known(baseline, Finding::Kind::Move, "move", scene, scene.moves[k].id, "")) return;
    out += ", \"known\": true";
    ++known_count;
}

}  // namespace

// SPEC §4's columns; `rule` names a violation's rule; --locations adds where a and b are.
constexpr const char* kCsvColumns =
    "scene,type,a,b,relation,allowed,t,cell_col,cell_row,points,cells,outside,distance,hit,parts_a,parts_b,normal,depth,rule";
constexpr const char* kCsvLocationColumns = ",file_a,line_a,col_a,file_b,line_b,col_b";

namespace {

// {"scenes": [{"file": …, "collisions": […], "moves": […], "rules": […], "summary": {…}}, …]}
// with one record a line in each list.
class JsonWriter final : public FormatWriter {
public:
    JsonWriter(std::ostream& out, const ReportOptions& options) : FormatWriter(out, options) { buf_ += "{\"scenes\": [\n"; }

    void begin_scene(const Scene& scene, std::size_t before) override {
        in_scene_ = 0;
        buf_ += before ? ",\n" : "";
        buf_ += "{\"file\": ";
        json_string(buf_, scene.file);
        buf_ += ",\n \"collisions\": [";
        source_file_.clear();
        json_string(source_file_, scene.sources.file.empty() ? scene.file : scene.sources.file);
    }

    void collision(const Scene& scene, const Collision& c) override {
        open_record(in_scene_ == 0);
        collision_fields(buf_, scene, c, points_);
        if (locations_) json_pair_sources(buf_, scene, source_file_, c.a, c.b);
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
        std::size_t known = 0;
        for (std::size_t k = 0; k < r.moves.size(); ++k) {
            open_record(k == 0);
            move_fields(buf_, scene, k, r.moves[k]);
            if (locations_) move_source(buf_, scene, source_file_, k);
            move_known(buf_, baseline_, scene, k, r.moves[k], known);
            buf_ += '}';
        }
        next_list(r.moves.empty(), "rules");
        buf_ += '[';
        for (std::size_t k = 0; k < r.rules.size(); ++k) {
            open_record(k == 0);
            rule_fields(buf_, scene, k, r.rules[k], locations_ ? &source_file_ : nullptr, baseline_, known,
                        [this] { flush_if_big(); });
            buf_ += '}';
        }
        next_list(r.rules.empty(), "summary");
        buf_ += '{';
        summary_fields(buf_, r.summary);
        baseline_fields(buf_, baseline_, scene, known);
        buf_ += "}}";
    }

    void finish(std::size_t scenes) override { buf_ += scenes ? "\n]}\n" : "]}\n"; }

private:
    void near_record(std::string& out, const Scene& scene, const NearPair& n, bool first) override {
        out += first ? "\n  {" : ",\n  {";
        near_fields(out, scene, n);
        if (locations_) json_pair_sources(out, scene, source_file_, n.a, n.b);
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
    std::string source_file_;   // the scene's source file as a JSON string
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
        source_file_.clear();
        json_string(source_file_, scene.sources.file.empty() ? scene.file : scene.sources.file);
    }

    void collision(const Scene& scene, const Collision& c) override {
        buf_ += collision_head_;  // record("collision"), made once a scene: collisions are most records
        collision_fields(buf_, scene, c, points_);
        if (locations_) json_pair_sources(buf_, scene, source_file_, c.a, c.b);
        buf_ += "}\n";
        flush_if_big();
    }

    void end_scene(const Scene& scene, const SceneResult& r) override {
        write_near();
        std::size_t known = 0;
        for (std::size_t k = 0; k < r.moves.size(); ++k) {
            record("move");
            move_fields(buf_, scene, k, r.moves[k]);
            if (locations_) move_source(buf_, scene, source_file_, k);
            move_known(buf_, baseline_, scene, k, r.moves[k], known);
            buf_ += "}\n";
        }
        for (std::size_t k = 0; k < r.rules.size(); ++k) {
            record("rule");
            rule_fields(buf_, scene, k, r.rules[k], locations_ ? &source_file_ : nullptr, baseline_, known,
                        [this] { flush_if_big(); });
            buf_ += "}\n";
        }
        record("summary");
        summary_fields(buf_, r.summary);
        baseline_fields(buf_, baseline_, scene, known);
        buf_ += "}\n";
    }

private:
    void near_record(std::string& out, const Scene& scene, const NearPair& n, bool) override {
        record(out, "near");
        near_fields(out, scene, n);
        if (locations_) json_pair_sources(out, scene, source_file_, n.a, n.b);
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
    std::string source_file_;     // the scene's source file as a JSON string
};

// SPEC §4's table: one header, then a row for each collision, near pair, move and violation
// of a failed rule (summaries have no rows). The header is written even when there are no
// scenes. Every row ends with the `rule` column (empty but on violations) and, with
// --locations, the places of a and b.
class CsvWriter final : public FormatWriter {
public:
    using FormatWriter::FormatWriter;

    void begin_scene(const Scene& scene, std::size_t before) override {
        if (before == 0) header();
        source_file_.clear();
        csv_field(source_file_, scene.sources.file.empty() ? scene.file : scene.sources.file);
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
        row_tail(buf_, scene, nullptr, c.a, c.b);
        flush_if_big();
    }

    void end_scene(const Scene& scene, const SceneResult& r) override {
        write_near();
        for (std::size_t k = 0; k < r.moves.size(); ++k) move_row(scene, k, r.moves[k]);
        for (std::size_t k = 0; k < r.rules.size(); ++k) {
            const RuleResult& rule = r.rules[k];
            if (rule.passed) continue;
            for (std::size_t v = 0; v < rule.violations.size(); ++v) {
                const auto [a, b] = rule.violations[v];
                row_head(buf_, scene, "violation", a, b);
                buf_ += ",,,,,,,,";
                if (v < rule.distances.size()) append_number(buf_, rule.distances[v]);
                buf_ += ",,,,,";
                row_tail(buf_, scene, &scene.rules[k].name, a, b);
                flush_if_big();
            }
        }
    }

    void finish(std::size_t scenes) override {
        if (scenes == 0) header();
    }

private:
    void header() {
        buf_ += kCsvColumns;
        if (locations_) buf_ += kCsvLocationColumns;
        buf_ += "\r\n";
    }

    void move_row(const Scene& scene, std::size_t k, const MoveResult& m) {
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
        buf_ += ",,,,,";
        if (locations_) {
            const detail::ObjectPlace p = detail::move_place(scene, k);
            detail::csv_source(buf_, source_file_, &p);
            detail::csv_source(buf_, source_file_, nullptr);
        }
        buf_ += "\r\n";
    }

    void near_record(std::string& out, const Scene& scene, const NearPair& n, bool) override {
        row_head(out, scene, "near", n.a, n.b);
        out += ",,,,,,,";
        if (n.b >= scene.shapes.size()) out += "false";  // a shape-grid row (SPEC §4)
        out += ',';
        append_number(out, n.distance);
        out += ",,,,,";
        row_tail(out, scene, nullptr, n.a, n.b);
    }

    // The first columns of a pair's row: scene, type, a, b (empty when npos: a rule `each`
    // violated by one shape) and the comma after b.
    static void row_head(std::string& out, const Scene& scene, const char* type, std::size_t a, std::size_t b) {
        csv_field(out, scene.file);
        out += ',';
        out += type;
        out += ',';
        csv_field(out, object_id(scene, a));
        out += ',';
        if (b != static_cast<std::size_t>(-1)) csv_field(out, object_id(scene, b));
        out += ',';
    }

    // The last columns, after depth: the rule (a violation's), and with --locations where a
    // and b were written.
    void row_tail(std::string& out, const Scene& scene, const std::string* rule, std::size_t a, std::size_t b) const {
        out += ',';
        if (rule) csv_field(out, *rule);
        if (locations_) {
            const detail::ObjectPlace pa = detail::object_place(scene, a);
            detail::csv_source(out, source_file_, &pa);
            if (b == static_cast<std::size_t>(-1)) {
                detail::csv_source(out, source_file_, nullptr);
            } else {
                const detail::ObjectPlace pb = detail::object_place(scene, b);
                detail::csv_source(out, source_file_, &pb);
            }
        }
        out += "\r\n";
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

    std::string source_file_;  // the scene's source file as a CSV field
};

std::unique_ptr<FormatWriter> make_writer(std::ostream& out, Format format, const ReportOptions& options) {
    switch (format) {
        case Format::Json: return std::make_unique<JsonWriter>(out, options);
        case Format::Jsonl: return std::make_unique<JsonlWriter>(out, options);
        case Format::Csv: return std::make_unique<CsvWriter>(out, options);
        case Format::Text: return detail::make_text_writer(out, options);
        case Format::Gcc:
        case Format::Github:
        case Format::Sarif:
        case Format::Junit: break;
    }
    return detail::make_ci_writer(out, format, options);
}

}  // namespace

struct ReportWriter::Impl {
    std::unique_ptr<FormatWriter> writer;
    std::size_t scenes = 0;  // ended so far
};

ReportWriter::ReportWriter(std::ostream& out, Format format, bool points)
    : ReportWriter(out, format, ReportOptions{points, false}) {}

ReportWriter::ReportWriter(std::ostream& out, Format format, const ReportOptions& options)
    : impl_(new Impl{make_writer(out, format, options), 0}) {}

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
