// The SVG picture of a scene and its results (render.hpp). Layers, bottom to top: grids,
// shapes (plain, near, touch, overlap: the coloured ones on top), near links, moves,
// intersection points; then the legend and the scale bar beside the drawing.
#include "collide/render.hpp"

#include "collide/report.hpp"
#include "render/svg_canvas.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace collide {
namespace {

using detail::PathData;
using detail::Px;
using detail::px_number;
using detail::View;
using detail::xml_text;

constexpr double kDrawing = 1000;     // px on the longer side of the scene
constexpr double kMargin = 16;        // px around it
constexpr double kLegendWidth = 290;  // px
constexpr double kLegendHeight = 450;  // px, at most
constexpr std::size_t kNotes = 4;     // result lines in a shape's title

// Colours (also in the legend, and tests/cli/test_render.py reads them from the pixels).
constexpr const char* kStyle = R"(
text{font:13px sans-serif;fill:#1f2933}
.bg{fill:#fff}
.area{fill-opacity:.22;stroke-width:1.2;stroke-linejoin:round}
.shape{fill:#7b8794;stroke:#52606d}
.near{fill:#1f77b4;stroke:#1f77b4;stroke-dasharray:6 4}
.touch{fill:#e69f00;stroke:#e69f00;stroke-width:2}
.overlap{fill:#d62728;stroke:#d62728;stroke-width:2}
.line{fill:none;stroke-linecap:round}
.solid{fill:#3e4c59}
.runs{fill:none;stroke:#3e4c59;stroke-width:1}
.cell-touch{fill:#e69f00}
.cell-overlap{fill:#d62728}
.cells{fill:none;stroke:#cbd2d9;stroke-width:.5}
.border{fill:none;stroke:#3e4c59;stroke-width:1.5}
.border.touch,.border.overlap{fill:none;stroke-width:3}
.open{stroke-dasharray:4 3}
.link{fill:none;stroke:#1f77b4;stroke-width:1.2;stroke-dasharray:5 4}
.halo{fill:none;stroke:#fff;stroke-width:9;stroke-linecap:round}
.dot-touch{fill:none;stroke:#e69f00;stroke-width:7;stroke-linecap:round}
.dot-overlap{fill:none;stroke:#d62728;stroke-width:7;stroke-linecap:round}
.allowed{fill:none;stroke:#2ca02c;stroke-width:2}
.blocked{fill:none;stroke:#8e44ad;stroke-width:2}
.rest{fill:none;stroke:#8e44ad;stroke-width:1.2;stroke-dasharray:3 4;opacity:.6}
.body{fill:none;stroke:#8e44ad;stroke-width:1.2;stroke-dasharray:3 2}
.hit{fill:none;stroke:#8e44ad;stroke-width:3}
)";

enum class Style : std::uint8_t { Plain, Near, Touch, Overlap };
constexpr const char* kStyleName[] = {"shape", "near", "touch", "overlap"};

// What the result says about a shape, for its title: its first collisions, then its first
// near pairs, kNotes lines in all, and how many more.
struct Notes {
    struct Hit {
        std::size_t other;
        Relation relation;  // as seen from this shape
    };
    struct Near {
        std::size_t other;
        double distance;
    };
    std::array<Hit, kNotes> hits;
    std::array<Near, kNotes> nears;
    std::size_t hit_count = 0;
    std::size_t near_count = 0;
    void hit(std::size_t other, Relation r) {
        if (hit_count < kNotes) hits[hit_count] = {other, r};
        ++hit_count;
    }
    void near(std::size_t other, double d) {
        if (near_count < kNotes) nears[near_count] = {other, d};
        ++near_count;
    }
};

std::string verb(Relation r) {
    switch (r) {
        case Relation::Touch: return "touches ";
        case Relation::Overlap: return "overlaps ";
        case Relation::Contains: return "contains ";
        case Relation::Within: return "is within ";
        case Relation::Equal: return "equals ";
    }
    return "";
}

std::string position(Vec2 p) { return "[" + format_number(p.x) + ", " + format_number(p.y) + "]"; }

// Elements of one layer: each with its own <title> while the caller wants one, the rest
// merged into one <path> per class and group (a million untitled shapes stay a few paths).
class Layer {
public:
    explicit Layer(std::ostream& out) : out_(out) {}
    void add(const std::string& cls, const PathData& d, const std::string& title, bool titled,
             const std::string& group = std::string()) {
        if (d.empty()) return;
        if (!titled) {
            merged_[{cls, group}] += d.str();
            return;
        }
        out_ << "<path class=\"" << cls << "\" d=\"" << d.str() << "\"><title>" << title << "</title></path>\n";
    }
    void flush() {
        for (const auto& [key, d] : merged_) {
            out_ << "<path class=\"" << key.first << '"';
            if (!key.second.empty()) out_ << " data-group=\"" << xml_text(key.second) << '"';
            out_ << " d=\"" << d << "\"/>\n";
        }
        merged_.clear();
    }

private:
    std::ostream& out_;
    std::map<std::pair<std::string, std::string>, std::string> merged_;
};

// The frame that holds every shape, grid and move of the scene.
View fit_view(const Scene& scene) {
    View view;
    for (const SceneShape& s : scene.shapes) {
        if (const auto* l = std::get_if<Line>(&s.shape)) {
            view.include(l->a);
            view.include(l->b);
        } else if (const auto* r = std::get_if<Ray>(&s.shape)) {
            view.include(r->origin);
        } else {
            const Bounds b = bounds_of(s.shape);
            view.include(b.min);
            view.include(b.max);
        }
    }
    for (const Grid& g : scene.grids) {
        view.include(g.origin);
        view.include({g.origin.x + static_cast<double>(g.cols) * g.tile.x, g.origin.y + static_cast<double>(g.rows) * g.tile.y});
    }
    for (const Move& m : scene.moves) {
        const double hx = m.body.kind == Body::Kind::Rect ? m.body.size.x / 2 : m.body.radius;
        const double hy = m.body.kind == Body::Kind::Rect ? m.body.size.y / 2 : m.body.radius;
        for (Vec2 p : {m.from, m.to}) {
            view.include({p.x - hx, p.y - hy});
            view.include({p.x + hx, p.y + hy});
        }
    }
    view.finish(scene.y_up, kDrawing, kMargin);
    return view;
}

}  // namespace

// What the records say, gathered as they stream in: what is drawn, never the records
// themselves (a million colliding pairs must not be held to draw a few thousand shapes).
struct SvgPicture::Impl {
    explicit Impl(const Scene& s)
        : scene(s), view(fit_view(s)), styles(s.shapes.size(), Style::Plain), hit(s.grids.size()),
          outside(s.grids.size(), Style::Plain) {}
    void collision(const Collision& c);
    void near(const NearPair& p);

    const Scene& scene;
    const View view;
    std::vector<Style> styles;  // of each shape: the strongest thing the result says of it
    std::unordered_map<std::size_t, Notes> notes;  // of the shapes with a result
    std::vector<std::map<std::pair<std::int64_t, std::int64_t>, Style>> hit;  // of each grid: (row, col) hit
    std::vector<Style> outside;  // of each grid: how its solid outside is reached
    std::vector<NearPair> links;  // the near pairs of two shapes, each drawn as a link
    PathData dots[2];             // intersection points: touching, overlapping
};

void SvgPicture::Impl::collision(const Collision& c) {
    const std::size_t n = scene.shapes.size();
    const Style s = c.relation == Relation::Touch ? Style::Touch : Style::Overlap;
    styles[c.a] = std::max(styles[c.a], s);
    notes[c.a].hit(c.b, c.relation);
    if (c.b < n) {
        styles[c.b] = std::max(styles[c.b], s);
        notes[c.b].hit(c.a, mirrored(c.relation));
    } else {
        for (Cell cell : c.cells) {
            Style& h = hit[c.b - n][{cell.row, cell.col}];
            h = std::max(h, s);
        }
        if (c.outside) outside[c.b - n] = std::max(outside[c.b - n], s);
    }
    for (Vec2 p : c.points) dots[c.relation != Relation::Touch].dot(view.px(p));
}

void SvgPicture::Impl::near(const NearPair& p) {
    const std::size_t n = scene.shapes.size();
    styles[p.a] = std::max(styles[p.a], Style::Near);
    notes[p.a].near(p.b, p.distance);
    if (p.b >= n) return;  // a shape near a grid: its dashed outline says it
    styles[p.b] = std::max(styles[p.b], Style::Near);
    notes[p.b].near(p.a, p.distance);
    links.push_back(p);
}

namespace {

class Picture {
public:
    Picture(std::ostream& out, const SvgPicture::Impl& found, const SceneResult& result)
        : out_(out), scene_(found.scene), result_(result), found_(found), view_(found.view), styles_(found.styles) {}
    void write();

private:
    void choose_titled();
    void grids();
    void shapes();
    void near_links();
    void moves();
    void points();
    void legend();
    std::string shape_title(std::size_t i) const;
    Px anchor(std::size_t i) const;  // where a near link meets shape i
    void ring_if_small(PathData& d, std::size_t i) const;
    std::string move_title(const Move& m, const MoveResult& r) const;
    std::optional<std::size_t> hit_of(const Move& m, const MoveResult& r) const;  // a shape, or shapes + grid
    void blocked_marks(const Move& m, const MoveResult& r);
    // A grid's cell space in pixels: x = left + col * cell_w, y = top + row * cell_h.
    struct CellFrame {
        double left, top, cell_w, cell_h;
    };
    CellFrame frame(const Grid& g) const;

    std::ostream& out_;
    const Scene& scene_;
    const SceneResult& result_;
    const SvgPicture::Impl& found_;
    const View& view_;
    const std::vector<Style>& styles_;
    std::vector<bool> titled_;  // whether shape i has an element and a title of its own
};

// Which shapes get a title, in the order they are drawn.
void Picture::choose_titled() {
    const std::size_t n = scene_.shapes.size();
    titled_.assign(n, n <= kTitledObjects);
    if (n <= kTitledObjects) return;
    std::size_t budget = kTitledObjects;
    for (Style style : {Style::Near, Style::Touch, Style::Overlap})
        for (std::size_t i = 0; i < n && budget > 0; ++i)
            if (styles_[i] == style) {
                titled_[i] = true;
                --budget;
            }
}

std::string Picture::shape_title(std::size_t i) const {
    const SceneShape& s = scene_.shapes[i];
    std::string t = xml_text(s.id) + " (" + std::string(type_name(type_of(s.shape)));
    for (std::size_t k = 0; k < s.groups.size(); ++k) t += (k ? ", " : "; groups ") + xml_text(s.groups[k]);
    t += ')';
    const auto it = found_.notes.find(i);
    if (it == found_.notes.end()) return t;
    const Notes& notes = it->second;
    std::size_t shown = 0;
    for (; shown < std::min(notes.hit_count, kNotes); ++shown) {
        const Notes::Hit& h = notes.hits[shown];
        t += "&#10;" + xml_text(verb(h.relation) + object_id(scene_, h.other));
    }
    for (std::size_t k = 0; k < notes.near_count && shown < kNotes; ++k, ++shown) {
        const Notes::Near& h = notes.nears[k];
        t += "&#10;" + xml_text("near " + object_id(scene_, h.other) + " (distance " + format_number(h.distance) + ")");
    }
    if (const std::size_t more = notes.hit_count + notes.near_count - shown) t += "&#10;and " + std::to_string(more) + " more";
    return t;
}

Picture::CellFrame Picture::frame(const Grid& g) const {
    const double w = view_.length(g.tile.x), h = view_.length(g.tile.y);
    const Px o = view_.px(g.origin);  // the top left on screen with y down, the bottom left with y up
    return {o.x, scene_.y_up ? o.y - static_cast<double>(g.rows) * h : o.y, w, h};
}

void Picture::grids() {
    out_ << "<g id=\"grids\">\n";
    const auto& hit = found_.hit;
    const auto& outside = found_.outside;
    for (std::size_t k = 0; k < scene_.grids.size(); ++k) {
        const Grid& g = scene_.grids[k];
        const CellFrame f = frame(g);
        const std::string transform = "matrix(" + format_number(f.cell_w) + " 0 0 " + format_number(f.cell_h) + " " +
                                      px_number(f.left) + " " + px_number(f.top) + ")";
        // Drawn in cell units. Each run of solid cells in a row is a line one cell thick along
        // the middle of the row ("M12 3.5h5": five cells from column 12 in row 3), the next
        // relative to where the last ended ("m2 0h1"): a million cells stay a few MB.
        out_ << "<g transform=\"" << transform << "\"><title>" << xml_text(g.id) << " (grid " << g.cols << "×" << g.rows
             << ", tile " << format_number(g.tile.x) << "×" << format_number(g.tile.y)
             << (g.outside_solid ? "; outside solid" : "; outside open") << ")</title>\n";
        std::string runs;
        std::int64_t at_col = 0, at_row = 0;  // where the last run ended
        for (std::size_t r = 0; r < g.rows; ++r) {
            for (std::size_t c = 0; c < g.cols;) {
                if (!g.solid(c, r)) {
                    ++c;
                    continue;
                }
                std::size_t e = c;
                while (e < g.cols && g.solid(e, r)) ++e;
                const auto col = static_cast<std::int64_t>(c), row = static_cast<std::int64_t>(r);
                if (runs.empty()) runs += 'M' + std::to_string(c) + ' ' + std::to_string(r) + ".5";
                else runs += 'm' + std::to_string(col - at_col) + ' ' + std::to_string(row - at_row);
                runs += 'h' + std::to_string(e - c);
                at_col = static_cast<std::int64_t>(e);
                at_row = row;
                c = e;
            }
        }
        if (!runs.empty()) out_ << "<path class=\"runs\" d=\"" << runs << "\"/>\n";
        if (std::min(f.cell_w, f.cell_h) >= 4 && g.cols + g.rows <= 4000) {
            std::string lines;
            for (std::size_t c = 0; c <= g.cols; ++c) lines += 'M' + std::to_string(c) + " 0v" + std::to_string(g.rows);
            for (std::size_t r = 0; r <= g.rows; ++r) lines += "M0 " + std::to_string(r) + 'h' + std::to_string(g.cols);
            out_ << "<path class=\"cells\" vector-effect=\"non-scaling-stroke\" d=\"" << lines << "\"/>\n";
        }
        std::string cells[2];
        for (const auto& [rc, s] : hit[k])
            cells[s == Style::Overlap] += 'M' + std::to_string(rc.second) + ' ' + std::to_string(rc.first) + "h1v1h-1Z";
        if (!cells[0].empty()) out_ << "<path class=\"cell-touch\" fill-opacity=\".75\" d=\"" << cells[0] << "\"/>\n";
        if (!cells[1].empty()) out_ << "<path class=\"cell-overlap\" fill-opacity=\".75\" d=\"" << cells[1] << "\"/>\n";
        std::string border_class = "border";
        if (outside[k] != Style::Plain) border_class += std::string(" ") + kStyleName[static_cast<int>(outside[k])];
        if (!g.outside_solid) border_class += " open";
        out_ << "<path class=\"" << border_class << "\" vector-effect=\"non-scaling-stroke\" d=\"M0 0H" << g.cols << 'V'
             << g.rows << "H0Z\"/>\n</g>\n";
    }
    out_ << "</g>\n";
}

void Picture::shapes() {
    out_ << "<g id=\"shapes\">\n";
    const std::size_t n = scene_.shapes.size();
    Layer layer(out_);
    for (Style style : {Style::Plain, Style::Near, Style::Touch, Style::Overlap}) {
        for (std::size_t i = 0; i < n; ++i) {
            if (styles_[i] != style) continue;
            const bool titled = titled_[i];
            PathData area, lines;
            detail::add_outline(area, lines, scene_.shapes[i].shape, view_);
            if (style == Style::Touch || style == Style::Overlap) ring_if_small(lines, i);
            const std::string name = kStyleName[static_cast<int>(style)];
            const std::string title = titled ? shape_title(i) : std::string();
            const auto& groups = scene_.shapes[i].groups;
            const std::string group = groups.empty() ? std::string() : groups[0];
            layer.add("area " + name, area, title, titled, group);
            layer.add("line " + name, lines, title, titled, group);
        }
        layer.flush();
    }
    out_ << "</g>\n";
}

// A colliding bullet of 2 units is a speck at most scales: a ring of its colour around it
// makes each hit visible at a glance.
void Picture::ring_if_small(PathData& d, std::size_t i) const {
    constexpr double kSmall = 8, kRing = 8;  // px
    const Shape& s = scene_.shapes[i].shape;
    if (std::holds_alternative<Line>(s) || std::holds_alternative<Ray>(s)) return;
    const Bounds b = bounds_of(s);
    const Px lo = view_.px(b.min), hi = view_.px(b.max);
    if (std::abs(hi.x - lo.x) > kSmall || std::abs(hi.y - lo.y) > kSmall) return;
    const Px c{lo.x * 0.5 + hi.x * 0.5, lo.y * 0.5 + hi.y * 0.5};
    d.move({c.x - kRing, c.y});
    d.arc(kRing, false, true, {c.x + kRing, c.y});
    d.arc(kRing, false, true, {c.x - kRing, c.y});
}

Px Picture::anchor(std::size_t i) const {
    const Shape& s = scene_.shapes[i].shape;
    if (const auto* l = std::get_if<Line>(&s)) return view_.px(l->a);
    if (const auto* r = std::get_if<Ray>(&s)) return view_.px(r->origin);
    const Bounds b = bounds_of(s);
    return view_.px({b.min.x * 0.5 + b.max.x * 0.5, b.min.y * 0.5 + b.max.y * 0.5});
}

void Picture::near_links() {
    out_ << "<g id=\"near\">\n";
    Layer layer(out_);
    std::size_t budget = kTitledObjects;
    for (const NearPair& p : found_.links) {
        PathData d;
        d.move(anchor(p.a));
        d.line(anchor(p.b));
        const std::string title = xml_text(object_id(scene_, p.a) + " near " + object_id(scene_, p.b) + ": distance " +
                                           format_number(p.distance));
        layer.add("link", d, title, budget > 0 && budget--);
    }
    layer.flush();
    out_ << "</g>\n";
}

std::string Picture::move_title(const Move& m, const MoveResult& r) const {
    std::string title = "move " + xml_text(m.id) + ": ";
    if (r.allowed) return title + "allowed";
    title += "blocked at t " + format_number(r.t) + ", stop " + position(r.stop);
    if (const auto hit = hit_of(m, r)) {
        title += ", hit " + xml_text(object_id(scene_, *hit));
        if (*hit >= scene_.shapes.size()) title += " cell [" + std::to_string(r.cell.col) + ", " + std::to_string(r.cell.row) + "]";
    }
    return title;
}

std::optional<std::size_t> Picture::hit_of(const Move& m, const MoveResult& r) const {
    if (r.allowed) return std::nullopt;
    if (m.against) return r.hit;
    return scene_.shapes.size() + m.grid;
}

// Where a blocked move ended: the rest of its path, its body at the stop, and what it hit.
void Picture::blocked_marks(const Move& m, const MoveResult& r) {
    PathData rest, body, hit, none;
    rest.move(view_.px(r.stop));
    rest.line(view_.px(m.to));
    if (m.body.kind == Body::Kind::Circle) {
        detail::add_outline(body, none, Circle{r.stop, m.body.radius}, view_);
    } else if (m.body.kind == Body::Kind::Rect) {
        const Vec2 half{m.body.size.x / 2, m.body.size.y / 2};
        detail::add_outline(body, none, Rect{{r.stop.x - half.x, r.stop.y - half.y}, {r.stop.x + half.x, r.stop.y + half.y}},
                            view_);
    }
    if (const auto target = hit_of(m, r); target && *target < scene_.shapes.size()) {
        detail::add_outline(hit, hit, scene_.shapes[*target].shape, view_);
    } else if (target) {
        const Grid& g = scene_.grids[*target - scene_.shapes.size()];
        const double row = scene_.y_up ? static_cast<double>(g.rows - 1) - static_cast<double>(r.cell.row)
                                       : static_cast<double>(r.cell.row);
        const Vec2 lo{g.origin.x + static_cast<double>(r.cell.col) * g.tile.x, g.origin.y + row * g.tile.y};
        detail::add_outline(hit, none, Rect{lo, {lo.x + g.tile.x, lo.y + g.tile.y}}, view_);
    }
    out_ << "<path class=\"rest\" d=\"" << rest.str() << "\"/>\n";
    if (!body.empty()) out_ << "<path class=\"body\" d=\"" << body.str() << "\"/>\n";
    if (!hit.empty()) out_ << "<path class=\"hit\" d=\"" << hit.str() << "\"/>\n";
}

void Picture::moves() {
    out_ << "<g id=\"moves\">\n";
    Layer layer(out_);
    const bool titled = scene_.moves.size() <= kTitledObjects;
    for (std::size_t k = 0; k < scene_.moves.size(); ++k) {
        const Move& m = scene_.moves[k];
        const MoveResult& r = result_.moves[k];
        const char* cls = r.allowed ? "allowed" : "blocked";
        PathData path;
        path.move(view_.px(m.from));
        path.line(view_.px(r.allowed ? m.to : r.stop));
        if (!titled) {  // a hundred thousand bullets: their paths only
            layer.add(cls, path, "", false);
            continue;
        }
        out_ << "<g><title>" << move_title(m, r) << "</title>\n<path class=\"" << cls << "\" marker-end=\"url(#arrow-"
             << cls << ")\" d=\"" << path.str() << "\"/>\n";
        if (!r.allowed) blocked_marks(m, r);
        out_ << "</g>\n";
    }
    layer.flush();
    out_ << "</g>\n";
}

void Picture::points() {
    const PathData (&dots)[2] = found_.dots;
    if (dots[0].empty() && dots[1].empty()) return;
    // Each set of dots is written once and drawn twice: a white rim under every dot, then the
    // dots (a million collisions make megabytes of dots).
    const char* names[2] = {"touch", "overlap"};
    out_ << "<g id=\"points\">\n<defs>";
    for (int k = 0; k < 2; ++k)
        if (!dots[k].empty()) out_ << "<path id=\"points-" << names[k] << "\" d=\"" << dots[k].str() << "\"/>";
    out_ << "</defs>\n";
    for (const char* cls : {"halo", "dot"})
        for (int k = 0; k < 2; ++k)
            if (!dots[k].empty())
                out_ << "<use xlink:href=\"#points-" << names[k] << "\" class=\""
                     << (cls[0] == 'h' ? std::string("halo") : std::string("dot-") + names[k]) << "\"/>\n";
    out_ << "</g>\n";
}


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
    {R"svg(<path class="area near" d="M2 1h24v12h-24Z"/>)svg", "near pair (--near), linked"},
    {R"svg(<path class="solid" d="M2 1h24v12h-24Z"/>)svg", "solid cell"},
    {R"svg(<path class="allowed" marker-end="url(#arrow-allowed)" d="M1 7h20"/>)svg", "move allowed"},
    {R"svg(<path class="blocked" marker-end="url(#arrow-blocked)" d="M1 7h14"/><path class="rest" d="M18 7h10"/>)svg",
     "move blocked: stop, then the rest"},
    {R"svg(<path class="hit" d="M4 2h20v10h-20Z"/>)svg", "what a move hit"},
};

void Picture::legend() {
    const double x0 = view_.width() + 8;
    out_ << "<g id=\"legend\" transform=\"translate(" << px_number(x0) << " 0)\">\n";
    const Summary& s = result_.summary;
    std::vector<std::string> lines = {
        xml_text(scene_.file.empty() ? std::string("(scene)") : scene_.file),
        std::to_string(s.shapes) + " shapes, " + std::to_string(s.grids) + " grids",
        std::to_string(s.collisions) + " collisions",
    };
    if (s.near) lines.push_back(std::to_string(*s.near) + " near pairs");
    if (s.moves) lines.push_back(std::to_string(s.moves) + " moves, " + std::to_string(s.blocked) + " blocked");
    if (s.rules_failed) lines.push_back(std::to_string(s.rules_failed) + " rules failed");
    double y = 24;
    out_ << "<text x=\"0\" y=\"" << y << "\" font-weight=\"bold\">collide render</text>\n";
    for (const std::string& line : lines) {
        y += 18;
        out_ << "<text x=\"0\" y=\"" << y << "\">" << line << "</text>\n";
    }
    y += 14;
    for (const Key& k : kKeys) {
        out_ << "<g transform=\"translate(0 " << y << ")\">" << k.swatch << "<text x=\"36\" y=\"11\">" << k.label
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
        out_ << "<path d=\"M0 " << y << "v6h" << px_number(bar) << "v-6\" fill=\"none\" stroke=\"#1f2933\"/>"
             << "<text x=\"" << px_number(bar + 8) << "\" y=\"" << y + 8 << "\">" << format_number(length)
             << " units</text>\n";
    y += 26;
    out_ << "<text x=\"0\" y=\"" << y << "\">y " << (scene_.y_up ? "up" : "down") << "; ids show on hover</text>\n";
    out_ << "</g>\n";
}

void Picture::write() {
    choose_titled();
    const double width = view_.width() + 8 + kLegendWidth, height = std::max(view_.height(), kLegendHeight);
    const std::string w = px_number(width), h = px_number(height);
    out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         << "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"" << w << "\" height=\"" << h << "\" viewBox=\"0 0 " << w
         << ' ' << h << "\"\n     data-view=\"" << format_number(view_.centre().x) << ' ' << format_number(view_.centre().y) << ' '
         << format_number(view_.units_per_px()) << ' ' << px_number(view_.width()) << ' ' << px_number(view_.height())
         << "\">\n<title>collide: " << xml_text(scene_.file) << "</title>\n<defs><style>" << kStyle
         << "</style>\n";
    for (const char* cls : {"allowed", "blocked"})
        out_ << "<marker id=\"arrow-" << cls << "\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
             << "markerHeight=\"7\" orient=\"auto\"><path class=\"" << cls << "\" d=\"M0 1L9 5L0 9Z\" style=\"fill:"
             << (cls[0] == 'a' ? "#2ca02c" : "#8e44ad") << "\"/></marker>\n";
    out_ << "</defs>\n<rect class=\"bg\" width=\"" << w << "\" height=\"" << h << "\"/>\n";
    grids();
    shapes();
    near_links();
    moves();
    points();
    legend();
    out_ << "</svg>\n";
}

}  // namespace

SvgPicture::SvgPicture(const Scene& scene) : impl_(std::make_unique<Impl>(scene)) {}
SvgPicture::~SvgPicture() = default;
void SvgPicture::collision(const Collision& c) { impl_->collision(c); }
void SvgPicture::near(const NearPair& n) { impl_->near(n); }
void SvgPicture::write(std::ostream& out, const SceneResult& result) const { Picture(out, *impl_, result).write(); }

void write_svg(std::ostream& out, const Scene& scene, const SceneResult& result) {
    SvgPicture picture(scene);
    for (const Collision& c : result.collisions) picture.collision(c);
    for (const NearPair& n : result.near) picture.near(n);
    picture.write(out, result);
}

}  // namespace collide
