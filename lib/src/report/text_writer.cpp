// The text report: for people, aligned columns (report.hpp, Format::Text).
#include "collide/text.hpp"
#include "report/format_writer.hpp"

#include <algorithm>
#include <string_view>

namespace collide::detail {

namespace {

// Padding to a display width counted in characters, not bytes.
std::size_t width(std::string_view s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}
void pad(std::string& out, std::string_view s, std::size_t w) {
    out += s;
    out.append(w > width(s) ? w - width(s) : 0, ' ');
}

// ANSI SGR sequences (ECMA-48 §8.3.117) of ReportOptions::color.
constexpr const char* kBold = "\x1b[1m";
constexpr const char* kRed = "\x1b[31m";
constexpr const char* kBoldRed = "\x1b[1;31m";
constexpr const char* kYellow = "\x1b[33m";
constexpr const char* kGreen = "\x1b[32m";
constexpr const char* kReset = "\x1b[0m";

// Columns of the text report are as wide as their longest id up to this; a longer id is
// written whole and breaks the alignment of its line only (a 1 MB id must not pad every
// line to 1 MB).
constexpr std::size_t kMaxColumn = 40;

// For people: a heading line a scene, then its collisions in aligned columns, its moves and
// its rules, one a line.
class TextWriter final : public FormatWriter {
public:
    TextWriter(std::ostream& out, const ReportOptions& options) : FormatWriter(out, options), color_(options.color) {}

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
        paint(printable(scene.file), kBold);
        buf_ += ": " + std::to_string(s.collisions) + (s.collisions == 1 ? " collision" : " collisions");
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
            const std::string_view relation = relation_name(c.relation);
            paint(relation, c.relation == Relation::Touch ? kYellow : kRed);
            buf_.append(10 - relation.size(), ' ');
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
            if (m.passed) {
                buf_ += " (";
                paint(*m.passed ? "as expected" : "EXPECTATION FAILED", *m.passed ? kGreen : kBoldRed);
                buf_ += ')';
            }
            buf_ += '\n';
        }
    }

    void rules(const Scene& scene, const std::vector<RuleResult>& rs) {
        for (std::size_t k = 0; k < rs.size(); ++k) {
            const RuleResult& rr = rs[k];
            buf_ += "  rule '" + printable(scene.rules[k].name) + "': ";
            paint(rr.passed ? "passed" : "FAILED", rr.passed ? kGreen : kBoldRed);
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

    // `text` in the colour `sgr` when colours are on.
    void paint(std::string_view text, const char* sgr) {
        if (color_) buf_ += sgr;
        buf_ += text;
        if (color_) buf_ += kReset;
    }

    const bool color_;
    std::vector<Collision> held_;
};

}  // namespace

std::unique_ptr<FormatWriter> make_text_writer(std::ostream& out, const ReportOptions& options) {
    return std::make_unique<TextWriter>(out, options);
}

}  // namespace collide::detail
