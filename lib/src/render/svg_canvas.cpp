#include "render/svg_canvas.hpp"

#include "collide/report.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <variant>

namespace collide::detail {

void View::include(Vec2 p) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return;
    if (lo_.x > hi_.x) {
        lo_ = hi_ = p;
        return;
    }
    lo_ = {std::min(lo_.x, p.x), std::min(lo_.y, p.y)};
    hi_ = {std::max(hi_.x, p.x), std::max(hi_.y, p.y)};
}

void View::finish(bool y_up, double size, double margin) {
    y_up_ = y_up;
    if (lo_.x > hi_.x) lo_ = hi_ = {0.0, 0.0};
    centre_ = {lo_.x * 0.5 + hi_.x * 0.5, lo_.y * 0.5 + hi_.y * 0.5};
    double hx = hi_.x * 0.5 - lo_.x * 0.5, hy = hi_.y * 0.5 - lo_.y * 0.5;
    // A scene of one point, or of shapes far smaller than their distance from the origin,
    // still gets a view a little larger than its doubles' spacing.
    const double floor = std::max({std::abs(centre_.x) * 0x1p-30, std::abs(centre_.y) * 0x1p-30, 1e-300});
    half_ = std::max({hx, hy, floor});
    if (hx == 0 && hy == 0 && centre_.x == 0 && centre_.y == 0) half_ = 1.0;
    half_ *= 1.04;  // room for strokes and dots at the edges
    // A thin scene (a row of shapes) is at least a fifth as high as it is wide.
    hx = std::max(hx * 1.04, half_ * 0.2);
    hy = std::max(hy * 1.04, half_ * 0.2);
    half_px_ = size / 2;
    width_ = 2 * margin + size * (hx / half_);
    height_ = 2 * margin + size * (hy / half_);
}

Px View::px(Vec2 p) const {
    // (p - centre) / half, in halves so that neither difference can overflow.
    const double h = half_ * 0.5;
    const double x = (p.x * 0.5 - centre_.x * 0.5) / h;
    const double y = (p.y * 0.5 - centre_.y * 0.5) / h;
    return {width_ / 2 + x * half_px_, height_ / 2 + (y_up_ ? -y : y) * half_px_};
}

namespace {

// v in tenths of a pixel, clamped to +-1e7 px (NaN, which nothing we draw should give, to 0).
std::int64_t tenths(double v) {
    if (!(v == v)) return 0;
    return static_cast<std::int64_t>(std::llround(std::clamp(v, -1e7, 1e7) * 10));
}

// "12.5", "-3", ".5", "-.5": the shortest text of t / 10.
void append_tenths(std::string& out, std::int64_t t) {
    if (t < 0) out += '-';
    const std::uint64_t u = t < 0 ? 0 - static_cast<std::uint64_t>(t) : static_cast<std::uint64_t>(t);
    if (u >= 10) out += std::to_string(u / 10);
    if (u % 10) out += '.', out += static_cast<char>('0' + u % 10);
    else if (u < 10) out += '0';
}

}  // namespace

std::string px_number(double v) {
    std::string s;
    append_tenths(s, tenths(v));
    return s;
}

void PathData::number(std::int64_t t) {
    // A minus sign separates numbers by itself; anything else after a number needs a space.
    if (!d_.empty() && t >= 0 && (std::isdigit(static_cast<unsigned char>(d_.back())) || d_.back() == '.')) d_ += ' ';
    append_tenths(d_, t);
}

void PathData::move(Px p) {
    const std::int64_t x = tenths(p.x), y = tenths(p.y);
    if (d_.empty()) {
        d_ += 'M';
        number(x);
        number(y);
    } else {
        d_ += 'm';
        number(x - x_);
        number(y - y_);
    }
    x_ = start_x_ = x;
    y_ = start_y_ = y;
}

void PathData::line(Px p) {
    const std::int64_t x = tenths(p.x), y = tenths(p.y);
    if (y == y_) {
        d_ += 'h';
        number(x - x_);
    } else if (x == x_) {
        d_ += 'v';
        number(y - y_);
    } else {
        d_ += 'l';
        number(x - x_);
        number(y - y_);
    }
    x_ = x;
    y_ = y;
}

void PathData::arc(double r, bool large, bool clockwise, Px p) {
    const std::int64_t x = tenths(p.x), y = tenths(p.y), rt = tenths(r);
    d_ += 'a';
    number(rt);
    number(rt);
    d_ += large ? " 0 1" : " 0 0";
    d_ += clockwise ? " 1" : " 0";
    number(x - x_);
    number(y - y_);
    x_ = x;
    y_ = y;
}

void PathData::close() {
    d_ += 'Z';
    x_ = start_x_;
    y_ = start_y_;
}

void PathData::dot(Px p) {
    move(p);
    d_ += "h0";
}

namespace {

constexpr double kPointSize = 3.5;  // half the diagonal of a point's diamond, px

void diamond(PathData& d, Px p) {
    d.move({p.x, p.y - kPointSize});
    d.line({p.x + kPointSize, p.y});
    d.line({p.x, p.y + kPointSize});
    d.line({p.x - kPointSize, p.y});
    d.close();
}

// The direction from a to b on screen, with components of at most 1 (no overflow).
Px screen_direction(Vec2 a, Vec2 b, const View& view) {
    double dx = b.x * 0.5 - a.x * 0.5, dy = b.y * 0.5 - a.y * 0.5;
    const double m = std::max(std::abs(dx), std::abs(dy));
    dx /= m;
    dy /= m;
    return {dx, view.y_up() ? -dy : dy};
}

// The part of {p + t dir : t >= t_min} inside the picture (Liang–Barsky clipping).
void clipped(PathData& d, Px p, Px dir, double t_min, const View& view) {
    double t0 = t_min, t1 = std::numeric_limits<double>::infinity();
    const double lo[2] = {-10.0, -10.0}, hi[2] = {view.width() + 10, view.height() + 10};
    const double at[2] = {p.x, p.y}, step[2] = {dir.x, dir.y};
    for (int k = 0; k < 2; ++k) {
        if (step[k] == 0) {
            if (at[k] < lo[k] || at[k] > hi[k]) return;
            continue;
        }
        double a = (lo[k] - at[k]) / step[k], b = (hi[k] - at[k]) / step[k];
        if (a > b) std::swap(a, b);
        t0 = std::max(t0, a);
        t1 = std::min(t1, b);
    }
    if (!(t0 <= t1)) return;
    d.move({p.x + t0 * dir.x, p.y + t0 * dir.y});
    d.line({p.x + t1 * dir.x, p.y + t1 * dir.y});
}

void polygon(PathData& d, const std::vector<Vec2>& points, const View& view) {
    std::vector<Px> ps;
    ps.reserve(points.size());
    for (Vec2 p : points) ps.push_back(view.px(p));
    double twice_area = 0;  // > 0: clockwise on screen (y down)
    for (std::size_t i = 0; i < ps.size(); ++i) {
        const Px a = ps[i], b = ps[(i + 1) % ps.size()];
        twice_area += a.x * b.y - b.x * a.y;
    }
    if (twice_area < 0) std::reverse(ps.begin(), ps.end());
    d.move(ps[0]);
    for (std::size_t i = 1; i < ps.size(); ++i) d.line(ps[i]);
    d.close();
}

void capsule(PathData& d, const Capsule& c, const View& view) {
    const Px a = view.px(c.a), b = view.px(c.b);
    const double r = view.length(c.radius), len = std::hypot(b.x - a.x, b.y - a.y);
    if (!(len > 0.01)) {
        d.move({a.x - r, a.y});
        d.arc(r, false, true, {a.x + r, a.y});
        d.arc(r, false, true, {a.x - r, a.y});
        d.close();
        return;
    }
    const Px u{(b.x - a.x) / len, (b.y - a.y) / len}, n{u.y * r, -u.x * r};  // n: a's left on screen
    d.move({a.x + n.x, a.y + n.y});
    d.line({b.x + n.x, b.y + n.y});
    d.arc(r, false, true, {b.x - n.x, b.y - n.y});
    d.line({a.x - n.x, a.y - n.y});
    d.arc(r, false, true, {a.x + n.x, a.y + n.y});
    d.close();
}

struct Outline {
    PathData& area;
    PathData& lines;
    const View& view;

    void operator()(const Point& p) const { diamond(area, view.px(p.at)); }
    void operator()(const Circle& c) const {
        const Px o = view.px(c.center);
        const double r = view.length(c.radius);
        if (r < kPointSize / 2) return diamond(area, o);
        area.move({o.x - r, o.y});
        area.arc(r, false, true, {o.x + r, o.y});
        area.arc(r, false, true, {o.x - r, o.y});
        area.close();
    }
    void operator()(const Rect& r) const {
        const Px a = view.px(r.min), b = view.px(r.max);
        const double left = std::min(a.x, b.x), right = std::max(a.x, b.x);
        const double top = std::min(a.y, b.y), bottom = std::max(a.y, b.y);
        area.move({left, top});
        area.line({right, top});
        area.line({right, bottom});
        area.line({left, bottom});
        area.close();
    }
    void operator()(const Segment& s) const {
        if (s.a == s.b) return diamond(area, view.px(s.a));
        lines.move(view.px(s.a));
        lines.line(view.px(s.b));
    }
    void operator()(const Line& l) const { clipped(lines, view.px(l.a), screen_direction(l.a, l.b, view), -INFINITY, view); }
    void operator()(const Ray& r) const {
        // From the direction alone: origin + direction may overflow.
        clipped(lines, view.px(r.origin), screen_direction({0, 0}, r.direction, view), 0.0, view);
    }
    void operator()(const Polygon& p) const { polygon(area, p.points, view); }
    void operator()(const Polyline& p) const {
        if (p.points.size() == 1) return diamond(area, view.px(p.points[0]));
        lines.move(view.px(p.points[0]));
        for (std::size_t i = 1; i < p.points.size(); ++i) lines.line(view.px(p.points[i]));
    }
    void operator()(const Capsule& c) const { capsule(area, c, view); }
    void operator()(const Compound& c) const {
        for (const Shape& part : c.parts) std::visit(*this, part);
    }
};

}  // namespace

void add_outline(PathData& area, PathData& lines, const Shape& s, const View& view) { std::visit(Outline{area, lines, view}, s); }

namespace {

// & < > " escaped; `p` is printable() already.
std::string escape(std::string_view p) {
    std::string out;
    out.reserve(p.size());
    for (char c : p) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

bool starts_char(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

}  // namespace

std::string xml_text(std::string_view s) { return escape(printable(s)); }

std::size_t text_chars(std::string_view s) {
    const std::string p = printable(s);
    return static_cast<std::size_t>(std::count_if(p.begin(), p.end(), starts_char));
}

std::string xml_text_cut(std::string_view s, std::size_t max_chars, bool keep_end) {
    const std::string p = printable(s);  // valid UTF-8 from here on
    const auto chars = static_cast<std::size_t>(std::count_if(p.begin(), p.end(), starts_char));  // text_chars(s)
    if (chars <= max_chars) return escape(p);
    const std::size_t keep = max_chars > 0 ? max_chars - 1 : 0;
    std::size_t at = 0;  // the byte where the kept part starts (keep_end) or ends
    for (std::size_t seen = 0, skip = keep_end ? chars - keep : keep; at < p.size(); ++at)
        if (starts_char(p[at]) && seen++ == skip) break;
    const std::string_view kept = keep_end ? std::string_view(p).substr(at) : std::string_view(p).substr(0, at);
    return keep_end ? "…" + escape(kept) : escape(kept) + "…";
}

}  // namespace collide::detail
