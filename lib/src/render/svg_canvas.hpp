// Folder render/, the top layer: a scene and its check drawn as SVG, the public
// collide/render.hpp (render_svg.cpp, on the canvas of this header). It reads the library
// only through its public headers (geometry.hpp, report.hpp, render.hpp); only cli/ uses it.
//
// The small SVG writer behind render.hpp: the view that maps scene coordinates to pixels,
// path data of shapes in pixels, and XML text escaping.
#pragma once

#include "collide/geometry.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace collide::detail {

/// A position in pixels of the picture (y down).
struct Px {
    double x = 0.0;
    double y = 0.0;
};

/// Scene coordinates to pixels: the scene's bounds, padded, fit a square of `size` px on their
/// longer side with the same scale on both axes; y is flipped for a y-up scene. Everything is
/// computed from halves (x/2 - c/2), so that no difference of two finite doubles overflows,
/// and the scale never goes to 0 or infinity (a scene of one point gets a view of its own).
class View {
public:
    /// Grow the bounds to hold p (non-finite coordinates are ignored).
    void include(Vec2 p);
    /// Fix the view once everything is included.
    void finish(bool y_up, double size, double margin);

    Px px(Vec2 p) const;
    /// A length in scene units, in pixels.
    double length(double d) const { return d * 0.5 / (half_ * 0.5) * half_px_; }
    /// Scene units per pixel.
    double units_per_px() const { return half_ / half_px_; }
    double width() const { return width_; }    ///< of the drawing, margins included
    double height() const { return height_; }
    bool y_up() const { return y_up_; }
    Vec2 centre() const { return centre_; }  ///< the scene point at the drawing's centre

private:
    Vec2 lo_{1.0, 1.0}, hi_{-1.0, -1.0};  // empty until the first include
    Vec2 centre_;
    double half_ = 1.0;     // half the longer side of the view, in scene units
    double half_px_ = 1.0;  // the same in pixels
    double width_ = 0.0, height_ = 0.0;
    bool y_up_ = false;
};

/// "12.5", "-3", "0.1": a pixel position to 0.1 px, clamped to +-1e7 (the same double gives
/// the same text on every machine).
std::string px_number(double v);

/// Path data built command by command, to 0.1 px: the first move absolute, every later
/// command relative to the point before ("M120 40.5h25v12.5h-25Z"), so that a path of a
/// hundred thousand small shapes stays short. Positions are rounded before they are
/// differenced, so that the relative steps never drift.
class PathData {
public:
    void move(Px p);
    void line(Px p);
    /// A circular arc of radius r to p, clockwise on screen when `clockwise`.
    void arc(double r, bool large, bool clockwise, Px p);
    void close();
    /// A dot: a zero-length line that a round cap turns into a disc.
    void dot(Px p);
    const std::string& str() const { return d_; }
    bool empty() const { return d_.empty(); }

private:
    void number(std::int64_t tenths);  // with a separator when one is needed
    std::string d_;
    std::int64_t x_ = 0, y_ = 0;              // the current point, in tenths of a pixel
    std::int64_t start_x_ = 0, start_y_ = 0;  // where the subpath began (Z returns there)
};

/// The outline of a shape in pixels, added to `area` (closed, clockwise on screen, so that one
/// path of many shapes fills them all: circles, rects, polygons, capsules, and points as small
/// diamonds) or to `lines` (segments, polylines, and lines and rays clipped to the picture);
/// the parts of a compound each where they belong.
void add_outline(PathData& area, PathData& lines, const Shape& s, const View& view);

/// `s` as XML character data or attribute text: printable() first (no control character,
/// which XML 1.0 cannot hold even escaped, and no invalid UTF-8), then & < > " escaped.
std::string xml_text(std::string_view s);

/// How many characters (code points) xml_text(s) shows.
std::size_t text_chars(std::string_view s);

/// xml_text(s) cut to at most `max_chars` characters (code points), "…" standing for what is
/// cut: the start of s kept, or its end when `keep_end` (a file's name). For text that must
/// fit a box (a label, a line of the legend); the whole text goes in a <title>.
std::string xml_text_cut(std::string_view s, std::size_t max_chars, bool keep_end = false);

}  // namespace collide::detail
