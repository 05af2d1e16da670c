// collide/render.hpp — an SVG picture of a scene and what check() found in it (SPEC §3
// `render`).
//
// The picture is drawn in the scene's own coordinates, scaled to fit 1000 px (less when the
// drawing and the legend beside it would be wider than 1200 px, so that the whole picture
// shows in a 1200 px window), with y down or up as the scene says: every shape and grid
// (solid cells filled, the cell lines faint where cells are 4 px or more), the colliding
// pairs in colours of their own (touch-only pairs apart from overlaps), intersection points
// as dots, near pairs dashed, each move as an arrow with its stop point and what it hit, a
// legend and a scale bar. Shapes and grids in the violations of a failed rule (either side of
// a pair; for `each`, the shape that collides with nothing) get a dashed magenta outline over
// whatever else they are drawn as, and a magenta fill when nothing else colours them (a
// clearance violator that collides with nothing); their titles name the rules. Each shape,
// grid and move carries its id as a <title>, which a browser shows on hover; the ids of the
// objects in violations and collisions are also written beside them (kLabels at most).
//
// Limits: lines and rays are drawn clipped to the picture; a scene of more than
// kTitledObjects shapes draws the shapes that nothing reports about as one path per group
// and style, without titles, so that a million shapes stay a picture a browser opens.
// Positions are rounded to 0.1 px. Labels sit above (else below) the top left of their
// object's bounds, moved along when another label is there; in a crowd they may still meet.
//
// For tools (and tests) that look at the pixels: the root element's `data-view="cx cy u w h"`
// says that scene point (x, y) is drawn at pixel (w/2 + (x - cx)/u, h/2 + (y - cy)/u) with y
// down, (w/2 + (x - cx)/u, h/2 - (y - cy)/u) with y up; the drawing is w × h px at the top
// left, the legend to its right, and the picture's width, height and viewBox hold both.
#pragma once

#include "collide/check.hpp"
#include "collide/scene.hpp"

#include <cstddef>
#include <memory>
#include <ostream>

namespace collide {

/// Above this many shapes (or moves), those without a result are drawn merged and untitled.
inline constexpr std::size_t kTitledObjects = 20000;

/// At most this many ids are drawn as labels: the objects in failed rules' violations first,
/// then those in collisions, each in the order the report first names it; the rest show
/// their ids on hover only.
inline constexpr std::size_t kLabels = 300;

/// Write the SVG picture of `scene` and `result` (the check() of that scene) to `out`. The
/// bytes depend only on the scene and the result. Throws what the stream throws.
void write_svg(std::ostream& out, const Scene& scene, const SceneResult& result);

/// The same picture, built as check(scene, options, sink, near_sink) streams its records:
/// hand it each collision and near pair, then write() it with the rest of the result. It
/// keeps what is drawn (each shape's style and first notes, the grid cells hit, the near
/// links and the intersection dots), never the records, so memory follows the scene and the
/// picture rather than the number of pairs. The scene must outlive it.
class SvgPicture {
public:
    explicit SvgPicture(const Scene& scene);
    ~SvgPicture();
    SvgPicture(const SvgPicture&) = delete;
    SvgPicture& operator=(const SvgPicture&) = delete;
    void collision(const Collision& c);
    void near(const NearPair& n);
    /// Writes the picture: what was handed in, and the moves and summary of `result` (its
    /// `collisions` and `near` are not drawn again). Throws what the stream throws.
    void write(std::ostream& out, const SceneResult& result) const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace collide
