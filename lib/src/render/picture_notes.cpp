// What the picture says in words (render.hpp, SPEC §3 `render`): which shapes and grids are in
// a failed rule's violations and what their titles say of it, the ids written beside the
// objects in violations and collisions, and the legend, measured so that the picture's own
// view holds it.
#include "collide/report.hpp"
#include "collide/text.hpp"
#include "render/picture.hpp"
#include "render/svg_canvas.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_set>
#include <variant>
#include <vector>

namespace collide::detail {

namespace {

constexpr std::size_t kLabelChars = 24;   // an id longer than this is cut in its label
constexpr double kLabelCharWidth = 6.6;   // px, at most about, in 11 px sans-serif
constexpr double kLabelLine = 13;         // px from one label's baseline to the next
constexpr std::size_t kLegendChars = 32;  // a file name or rule name longer than this is cut
constexpr std::size_t kLegendRules = 3;   // failed rules named in the legend

}  // namespace

// In report order: rules in scene order, their violations in order, side a before side b.
void Picture::gather_violations() {
    const std::size_t objects = scene_.shapes.size() + scene_.grids.size();
    for (std::size_t r = 0; r < result_.rules.size(); ++r) {
        const RuleResult& rule = result_.rules[r];
        if (rule.passed) continue;
        for (std::size_t k = 0; k < rule.violations.size(); ++k) {
            const auto [a, b] = rule.violations[k];
            const double distance = k < rule.distances.size() ? rule.distances[k] : -1.0;
            const bool pair = b < objects;  // else an `each` rule's shape
            violation(a, r, pair ? b : RuleNotes::kNone, distance);
            if (pair) violation(b, r, a, distance);
        }
    }
}

void Picture::violation(std::size_t object, std::size_t rule, std::size_t other, double distance) {
    const auto [it, fresh] = violations_.try_emplace(object);
    if (fresh) violators_.push_back(object);
    RuleNotes& notes = it->second;
    if (notes.last_rule == rule) {
        if (notes.rule_count <= kNotes) ++notes.rules[notes.rule_count - 1].more;
        return;
    }
    notes.last_rule = rule;
    if (notes.rule_count < kNotes) notes.rules[notes.rule_count] = {rule, other, distance, 0};
    ++notes.rule_count;
}

std::string Picture::violation_lines(std::size_t object) const {
    const auto it = violations_.find(object);
    if (it == violations_.end()) return std::string();
    const RuleNotes& notes = it->second;
    std::string t;
    for (std::size_t k = 0; k < std::min(notes.rule_count, kNotes); ++k) {
        const RuleNotes::Rule& r = notes.rules[k];
        std::string line = "violates '" + scene_.rules[r.rule].name + "'";
        if (r.other != RuleNotes::kNone) line += " with " + object_id(scene_, r.other);
        if (r.distance >= 0) line += " (distance " + format_number(r.distance) + ")";
        if (r.more) line += " and " + std::to_string(r.more) + " more";
        t += "&#10;" + xml_text(line);
    }
    if (notes.rule_count > kNotes) t += "&#10;and " + std::to_string(notes.rule_count - kNotes) + " more rules";
    return t;
}

// The object's bounds on the page; a speck's ring (ring_if_small) counts. A line is labelled
// at its first point, a ray at its origin.
Box Picture::box_of(std::size_t object) const {
    if (object >= scene_.shapes.size()) {
        const Grid& g = scene_.grids[object - scene_.shapes.size()];
        const CellFrame f = frame(g);
        return {f.left, f.top, f.left + static_cast<double>(g.cols) * f.cell_w, f.top + static_cast<double>(g.rows) * f.cell_h};
    }
    const Shape& s = scene_.shapes[object].shape;
    Px lo, hi;
    if (const auto* l = std::get_if<Line>(&s)) {
        lo = hi = view_.px(l->a);
    } else if (const auto* r = std::get_if<Ray>(&s)) {
        lo = hi = view_.px(r->origin);
    } else {
        const Bounds b = bounds_of(s);
        lo = view_.px(b.min);
        hi = view_.px(b.max);
    }
    Box box{std::min(lo.x, hi.x), std::min(lo.y, hi.y), std::max(lo.x, hi.x), std::max(lo.y, hi.y)};
    constexpr double kRing = 9.5;  // px: ring_if_small's radius and half its stroke
    if (box.right - box.left <= 8 && box.bottom - box.top <= 8) {
        const Px c{box.left * 0.5 + box.right * 0.5, box.top * 0.5 + box.bottom * 0.5};
        box = {c.x - kRing, c.y - kRing, c.x + kRing, c.y + kRing};
    }
    return box;
}

namespace {

bool meet(const Box& a, const Box& b) {
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

// Where a label `width` px wide goes beside `at`: above its top left, else below its bottom
// left, else further up or down, the first place no placed label takes (the first place when
// all are taken), inside the drawing. Returns the box; the baseline is 3 px above its bottom.
Box place_label(const Box& at, double width, const View& view, const std::vector<Box>& placed) {
    std::optional<Box> first;
    for (int k = 0; k < 6; ++k) {
        const double step = kLabelLine * static_cast<double>(k / 2);
        double y = k % 2 ? at.bottom + 13 + step : at.top - 5 - step;
        double x = at.left;
        x = std::max(2.0, std::min(x, view.width() - 2 - width));
        y = std::max(12.0, std::min(y, view.height() - 3));
        const Box box{x, y - 10, x + width, y + 3};
        if (!first) first = box;
        if (std::none_of(placed.begin(), placed.end(), [&](const Box& p) { return meet(p, box); })) return box;
    }
    return *first;
}

}  // namespace

// The ids of the first kLabels objects in violations (in report order), then in collisions
// (in the order the report first names them), each beside its object with a white halo.
void Picture::labels() {
    std::vector<std::size_t> chosen;
    std::unordered_set<std::size_t> seen;
    const auto choose = [&](const std::vector<std::size_t>& objects) {
        for (std::size_t object : objects)
            if (chosen.size() < kLabels && seen.insert(object).second) chosen.push_back(object);
    };
    choose(violators_);
    choose(found_.collided_first);
    if (chosen.empty()) return;
    out_ << "<g id=\"labels\">\n";
    std::vector<Box> placed;
    for (std::size_t object : chosen) {
        const std::string& id = object_id(scene_, object);
        const double chars = static_cast<double>(std::min(text_chars(id), kLabelChars));
        placed.push_back(place_label(box_of(object), chars * kLabelCharWidth + 2, view_, placed));
        out_ << "<text class=\"label\" x=\"" << px_number(placed.back().left) << "\" y=\""
             << px_number(placed.back().bottom - 3) << "\">" << xml_text_cut(id, kLabelChars) << "</text>\n";
    }
    out_ << "</g>\n";
}

namespace {

// One line of the legend: a swatch drawn in a 28×14 box at (x, y), then its label.
struct Key {
    const char* swatch;
    const char* label;
};
constexpr Key kKeys[] = {
    {R"svg(<path class="area shape" d="M2 1h24v12h-24Z"/>)svg", "shape (no result)"},
    {R"svg(<path class="area touch" d="M2 1h24v12h-24Z"/>)svg", "touching only"},
    {R"svg(<path class="area overlap" d="M2 1h24v12h-24Z"/>)svg", "overlap, contains, within"},
    {R"svg(<path class="halo" d="M14 7h0"/><path class="dot-overlap" d="M14 7h0"/>)svg", "outlines intersect"},
    {R"svg(<path class="area violator" d="M2 1h24v12h-24Z"/><path class="violation" d="M2 1h24v12h-24Z"/>)svg",
     "in a failed rule's violations"},
    {R"svg(<path class="area near" d="M2 1h24v12h-24Z"/>)svg", "near pair (--near), linked"},
    {R"svg(<path class="solid" d="M2 1h24v12h-24Z"/>)svg", "solid cell"},
    {R"svg(<path class="allowed" marker-end="url(#arrow-allowed)" d="M1 7h20"/>)svg", "move allowed"},
    {R"svg(<path class="blocked" marker-end="url(#arrow-blocked)" d="M1 7h14"/><path class="rest" d="M18 7h10"/>)svg",
     "move blocked: stop, then the rest"},
    {R"svg(<path class="hit" d="M4 2h20v10h-20Z"/>)svg", "what a move hit"},
    {R"svg(<text class="label" x="4" y="11">id</text>)svg", "id label (all ids on hover)"},
};

// The lines of text at the top of the legend: the file, the counts, the failed rules (those
// indented by two spaces).
std::vector<std::string> summary_lines(const Scene& scene, const SceneResult& result) {
    const Summary& s = result.summary;
    std::vector<std::string> lines = {
        scene.file.empty() ? std::string("(scene)") : xml_text_cut(scene.file, kLegendChars, true),
        std::to_string(s.shapes) + " shapes, " + std::to_string(s.grids) + " grids",
        std::to_string(s.collisions) + " collisions",
    };
    if (s.near) lines.push_back(std::to_string(*s.near) + " near pairs");
    if (s.moves) lines.push_back(std::to_string(s.moves) + " moves, " + std::to_string(s.blocked) + " blocked");
    if (s.rules_failed) lines.push_back(std::to_string(s.rules_failed) + " rules failed");
    std::size_t named = 0, failed = 0;
    for (std::size_t r = 0; r < result.rules.size(); ++r) {
        if (result.rules[r].passed) continue;
        ++failed;
        if (named++ < kLegendRules) lines.push_back("  '" + xml_text_cut(scene.rules[r].name, kLegendChars - 4) + "'");
    }
    if (failed > kLegendRules) lines.push_back("  and " + std::to_string(failed - kLegendRules) + " more rules");
    return lines;
}

}  // namespace

std::string Picture::legend(double& height) const {
    std::ostringstream out;
    out << "<g id=\"legend\" transform=\"translate(" << px_number(view_.width() + kLegendGap) << " 0)\">\n";
    double y = 24;
    out << "<text x=\"0\" y=\"" << y << "\" font-weight=\"bold\">collide render</text>\n";
    for (const std::string& line : summary_lines(scene_, result_)) {
        y += 18;
        const bool indented = line.rfind("  ", 0) == 0;
        out << "<text x=\"" << (indented ? 12 : 0) << "\" y=\"" << y << "\">" << line.substr(indented ? 2 : 0) << "</text>\n";
    }
    y += 14;
    for (const Key& k : kKeys) {
        out << "<g transform=\"translate(0 " << y << ")\">" << k.swatch << "<text x=\"36\" y=\"11\">" << k.label
            << "</text></g>\n";
        y += 22;
    }
    // The scale bar: 1, 2 or 5 times a power of ten, about 100 px long.
    const double per_px = view_.units_per_px(), want = 100 * per_px;
    const double ten = std::pow(10.0, std::floor(std::log10(want)));
    double length = ten;
    for (double m : {2.0, 5.0})
        if (m * ten <= want) length = m * ten;
    const double bar = length / per_px;
    y += 16;
    if (std::isfinite(bar) && bar >= 20 && bar <= 250)
        out << "<path d=\"M0 " << y << "v6h" << px_number(bar) << "v-6\" fill=\"none\" stroke=\"#1f2933\"/>"
            << "<text x=\"" << px_number(bar + 8) << "\" y=\"" << y + 8 << "\">" << format_number(length)
            << " units</text>\n";
    y += 26;
    out << "<text x=\"0\" y=\"" << y << "\">y " << (scene_.y_up ? "up" : "down") << "; ids show on hover</text>\n";
    out << "<text x=\"0\" y=\"" << y + 18 << "\">id labels: " << kLabels << " at most</text>\n";
    out << "</g>\n";
    height = y + 18 + 12;  // the last line's descent, and a margin
    return out.str();
}

}  // namespace collide::detail
