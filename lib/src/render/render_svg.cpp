// The SVG picture of a scene and its results (render.hpp). Layers, bottom to top: grids,
// shapes (plain, near, touch, overlap: the coloured ones on top; then the violators of failed
// rules), near links, moves, id labels, intersection points; then the legend and the scale bar
// beside the drawing (picture_notes.cpp).
#include "collide/render.hpp"

#include "collide/report.hpp"
#include "render/picture.hpp"
#include "render/svg_canvas.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace collide::detail {

// Colours (also in the legend, and tests/cli/test_render.py reads them from the pixels).
constexpr const char* kStyle = R"(
text{font:13px sans-serif;fill:#1f2933}
.bg{fill:#fff}
.area{fill-opacity:.22;stroke-width:1.2;stroke-linejoin:round}
.shape{fill:#7b8794;stroke:#52606d}
.near{fill:#1f77b4;stroke:#1f77b4;stroke-dasharray:6 4}
.touch{fill:#e69f00;stroke:#e69f00;stroke-width:2}
.overlap{fill:#d62728;stroke:#d62728;stroke-width:2}
.violator{fill:#c51b7d;stroke:#c51b7d}
.area.violator{fill:url(#hatch);fill-opacity:.6}
.violation{fill:none;stroke:#c51b7d;stroke-width:3;stroke-dasharray:8 4;stroke-linejoin:round}
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
.label{font:11px sans-serif;fill:#1f2933;stroke:#fff;stroke-width:3;stroke-linejoin:round;paint-order:stroke}
.halo{fill:none;stroke:#fff;stroke-width:9;stroke-linecap:round}
.dot-touch{fill:none;stroke:#e69f00;stroke-width:7;stroke-linecap:round}
.dot-overlap{fill:none;stroke:#d62728;stroke-width:7;stroke-linecap:round}
.allowed{fill:none;stroke:#2ca02c;stroke-width:2}
.blocked{fill:none;stroke:#8e44ad;stroke-width:2}
.rest{fill:none;stroke:#8e44ad;stroke-width:1.2;stroke-dasharray:3 4;opacity:.6}
.body{fill:none;stroke:#8e44ad;stroke-width:1.2;stroke-dasharray:3 2}
.hit{fill:none;stroke:#8e44ad;stroke-width:3}
)";

void Layer::add(const std::string& cls, const PathData& d, const std::string& title, bool titled,
                const std::string& group) {
    if (d.empty()) return;
    if (!titled) {
        merged_[{cls, group}] += d.str();
        return;
    }
    out_ << "<path class=\"" << cls << "\" d=\"" << d.str() << "\"><title>" << title << "</title></path>\n";
}

void Layer::flush() {
    for (const auto& [key, d] : merged_) {
        out_ << "<path class=\"" << key.first << '"';
        if (!key.second.empty()) out_ << " data-group=\"" << xml_text(key.second) << '"';
        out_ << " d=\"" << d << "\"/>\n";
    }
    merged_.clear();
}

namespace {

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
    // A wide drawing shrinks so that the legend beside it stays within kPictureWidth (its
    // width less the margins is proportional to the size asked for).
    const double room = kPictureWidth - kLegendGap - kLegendWidth;
    if (view.width() > room) view.finish(scene.y_up, kDrawing * (room - 2 * kMargin) / (view.width() - 2 * kMargin), kMargin);
    return view;
}

}  // namespace

}  // namespace collide::detail

namespace collide {

using detail::Style;

SvgPicture::Impl::Impl(const Scene& s)
    : scene(s), view(detail::fit_view(s)), styles(s.shapes.size(), Style::Plain), hit(s.grids.size()),
      outside(s.grids.size(), Style::Plain), grid_collided(s.grids.size(), false) {}

void SvgPicture::Impl::collided(std::size_t object) {
    if (collided_first.size() < kLabels) collided_first.push_back(object);
}

void SvgPicture::Impl::collision(const Collision& c) {
    const std::size_t n = scene.shapes.size();
    const Style s = c.relation == Relation::Touch ? Style::Touch : Style::Overlap;
    if (styles[c.a] < Style::Touch) collided(c.a);
    styles[c.a] = std::max(styles[c.a], s);
    notes[c.a].hit(c.b, c.relation);
    if (c.b < n) {
        if (styles[c.b] < Style::Touch) collided(c.b);
        styles[c.b] = std::max(styles[c.b], s);
        notes[c.b].hit(c.a, mirrored(c.relation));
    } else {
        if (!grid_collided[c.b - n]) collided(c.b);
        grid_collided[c.b - n] = true;
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

}  // namespace collide

namespace collide::detail {

Picture::Picture(std::ostream& out, const SvgPicture::Impl& found, const SceneResult& result)
    : out_(out), scene_(found.scene), result_(result), found_(found), view_(found.view), styles_(found.styles) {}

// Which shapes get a title, in the order they are drawn.
void Picture::choose_titled() {
    const std::size_t n = scene_.shapes.size();
    titled_.assign(n, n <= kTitledObjects);
    if (n <= kTitledObjects) return;
    std::size_t budget = kTitledObjects;
    for (std::size_t i : violators_)
        if (i < n && budget > 0 && !titled_[i]) {
            titled_[i] = true;
            --budget;
        }
    for (Style style : {Style::Near, Style::Touch, Style::Overlap})
        for (std::size_t i = 0; i < n && budget > 0; ++i)
            if (styles_[i] == style && !titled_[i]) {
                titled_[i] = true;
                --budget;
            }
}

std::string Picture::shape_title(std::size_t i) const {
    const SceneShape& s = scene_.shapes[i];
    std::string t = xml_text(s.id) + " (" + std::string(type_name(type_of(s.shape)));
    for (std::size_t k = 0; k < s.groups.size(); ++k) t += (k ? ", " : "; groups ") + xml_text(s.groups[k]);
    t += ')' + violation_lines(i);
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

std::string Picture::grid_title(std::size_t k) const {
    const Grid& g = scene_.grids[k];
    return xml_text(g.id) + " (grid " + std::to_string(g.cols) + "×" + std::to_string(g.rows) + ", tile " +
           format_number(g.tile.x) + "×" + format_number(g.tile.y) + (g.outside_solid ? "; outside solid" : "; outside open") +
           ")" + violation_lines(scene_.shapes.size() + k);
}

namespace {

// A grid's solid cells in cell units. Each run of solid cells in a row is a line one cell
// thick along the middle of the row ("M12 3.5h5": five cells from column 12 in row 3), the
// next relative to where the last ended ("m2 0h1"): a million cells stay a few MB.
std::string solid_runs(const Grid& g) {
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
    return runs;
}

}  // namespace

void Picture::grids() {
    out_ << "<g id=\"grids\">\n";
    for (std::size_t k = 0; k < scene_.grids.size(); ++k) {
        const CellFrame f = frame(scene_.grids[k]);
        const std::string transform = "matrix(" + format_number(f.cell_w) + " 0 0 " + format_number(f.cell_h) + " " +
                                      px_number(f.left) + " " + px_number(f.top) + ")";
        out_ << "<g transform=\"" << transform << "\"><title>" << grid_title(k) << "</title>\n";
        grid_cells(k);
        out_ << "</g>\n";
    }
    out_ << "</g>\n";
}

// Inside the grid's <g>, in cell units: solid runs, cell lines, cells hit, the border, and a
// dashed border over it when the grid is in a failed rule's violations.
void Picture::grid_cells(std::size_t k) {
    const Grid& g = scene_.grids[k];
    const CellFrame f = frame(g);
    const std::string runs = solid_runs(g);
    if (!runs.empty()) out_ << "<path class=\"runs\" d=\"" << runs << "\"/>\n";
    if (std::min(f.cell_w, f.cell_h) >= 4 && g.cols + g.rows <= 4000) {
        std::string lines;
        for (std::size_t c = 0; c <= g.cols; ++c) lines += 'M' + std::to_string(c) + " 0v" + std::to_string(g.rows);
        for (std::size_t r = 0; r <= g.rows; ++r) lines += "M0 " + std::to_string(r) + 'h' + std::to_string(g.cols);
        out_ << "<path class=\"cells\" vector-effect=\"non-scaling-stroke\" d=\"" << lines << "\"/>\n";
    }
    std::string cells[2];
    for (const auto& [rc, s] : found_.hit[k])
        cells[s == Style::Overlap] += 'M' + std::to_string(rc.second) + ' ' + std::to_string(rc.first) + "h1v1h-1Z";
    if (!cells[0].empty()) out_ << "<path class=\"cell-touch\" fill-opacity=\".75\" d=\"" << cells[0] << "\"/>\n";
    if (!cells[1].empty()) out_ << "<path class=\"cell-overlap\" fill-opacity=\".75\" d=\"" << cells[1] << "\"/>\n";
    const Style outside = found_.outside[k];
    std::string border_class = "border";
    if (outside != Style::Plain) border_class += std::string(" ") + kStyleName[static_cast<int>(outside)];
    if (!g.outside_solid) border_class += " open";
    const std::string border = "d=\"M0 0H" + std::to_string(g.cols) + 'V' + std::to_string(g.rows) + "H0Z\"";
    out_ << "<path class=\"" << border_class << "\" vector-effect=\"non-scaling-stroke\" " << border << "/>\n";
    if (violating(scene_.shapes.size() + k))
        out_ << "<path class=\"violation\" vector-effect=\"non-scaling-stroke\" " << border << "/>\n";
}

void Picture::shapes() {
    out_ << "<g id=\"shapes\">\n";
    const std::size_t n = scene_.shapes.size();
    Layer layer(out_);
    for (Style style : {Style::Plain, Style::Near, Style::Touch, Style::Overlap}) {
        for (std::size_t i = 0; i < n; ++i) {
            if (styles_[i] != style || violating(i)) continue;
            const bool titled = titled_[i];
            PathData area, lines;
            add_outline(area, lines, scene_.shapes[i].shape, view_);
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
    violators(layer);
    out_ << "</g>\n";
}

// The shapes in failed rules' violations, over the rest: each filled as its collisions say
// (in the violators' own colour when nothing else colours it, as a clearance violator that
// collides with nothing), under a dashed outline in the violators' colour; one title.
void Picture::violators(Layer& layer) {
    for (std::size_t i = 0; i < scene_.shapes.size(); ++i) {
        if (!violating(i)) continue;
        const Style style = styles_[i];
        const Shape& shape = scene_.shapes[i].shape;
        PathData area, lines, outline;
        add_outline(area, lines, shape, view_);
        if (style == Style::Touch || style == Style::Overlap) ring_if_small(lines, i);
        add_outline(outline, outline, shape, view_);
        ring_if_small(outline, i);
        const std::string name = style == Style::Plain ? "violator" : kStyleName[static_cast<int>(style)];
        const auto& groups = scene_.shapes[i].groups;
        const std::string group = groups.empty() ? std::string() : groups[0];
        const std::pair<std::string, const PathData*> paths[] = {
            {"area " + name, &area}, {"line " + name, &lines}, {"violation", &outline}};
        if (!titled_[i]) {
            for (const auto& [cls, d] : paths) layer.add(cls, *d, "", false, group);
            continue;
        }
        out_ << "<g class=\"violator\"><title>" << shape_title(i) << "</title>\n";
        for (const auto& [cls, d] : paths)
            if (!d->empty()) out_ << "<path class=\"" << cls << "\" d=\"" << d->str() << "\"/>\n";
        out_ << "</g>\n";
    }
    layer.flush();
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
        add_outline(body, none, Circle{r.stop, m.body.radius}, view_);
    } else if (m.body.kind == Body::Kind::Rect) {
        const Vec2 half{m.body.size.x / 2, m.body.size.y / 2};
        add_outline(body, none, Rect{{r.stop.x - half.x, r.stop.y - half.y}, {r.stop.x + half.x, r.stop.y + half.y}},
                            view_);
    }
    if (const auto target = hit_of(m, r); target && *target < scene_.shapes.size()) {
        add_outline(hit, hit, scene_.shapes[*target].shape, view_);
    } else if (target) {
        const Grid& g = scene_.grids[*target - scene_.shapes.size()];
        const double row = scene_.y_up ? static_cast<double>(g.rows - 1) - static_cast<double>(r.cell.row)
                                       : static_cast<double>(r.cell.row);
        const Vec2 lo{g.origin.x + static_cast<double>(r.cell.col) * g.tile.x, g.origin.y + row * g.tile.y};
        add_outline(hit, none, Rect{lo, {lo.x + g.tile.x, lo.y + g.tile.y}}, view_);
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


void Picture::write() {
    gather_violations();
    choose_titled();
    double legend_height = 0;
    const std::string key = legend(legend_height);
    const double width = view_.width() + kLegendGap + kLegendWidth, height = std::max(view_.height(), legend_height);
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
    // The violators' hatch: magenta stripes 3 px wide every 8 px, unlike any other fill.
    out_ << "<pattern id=\"hatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" "
            "patternTransform=\"rotate(45)\"><path d=\"M4 0v8\" stroke=\"#c51b7d\" stroke-width=\"3\"/></pattern>\n";
    out_ << "</defs>\n<rect class=\"bg\" width=\"" << w << "\" height=\"" << h << "\"/>\n";
    grids();
    shapes();
    near_links();
    moves();
    labels();
    points();
    out_ << key << "</svg>\n";
}

}  // namespace collide::detail

namespace collide {

SvgPicture::SvgPicture(const Scene& scene) : impl_(std::make_unique<Impl>(scene)) {}
SvgPicture::~SvgPicture() = default;
void SvgPicture::collision(const Collision& c) { impl_->collision(c); }
void SvgPicture::near(const NearPair& n) { impl_->near(n); }
void SvgPicture::write(std::ostream& out, const SceneResult& result) const { detail::Picture(out, *impl_, result).write(); }

void write_svg(std::ostream& out, const Scene& scene, const SceneResult& result) {
    SvgPicture picture(scene);
    for (const Collision& c : result.collisions) picture.collision(c);
    for (const NearPair& n : result.near) picture.near(n);
    picture.write(out, result);
}

}  // namespace collide
