// collide/geometry.hpp — the shape types and the exact pairwise test.
//
// What it does: for any two shapes, decides exactly (for the double values given)
// whether they share a point, how they relate in the DE-9IM sense (touch, overlap,
// contains, within, equal) and where their outlines cross.
//
// Conventions, stated once:
// - Plain x/y coordinates; no axis is "up". Every shape is a closed point set.
// - Exactness: every boolean and every relation is decided exactly (adaptive filter
//   with an exact dyadic fallback). Each coordinate of an intersection point is the exact
//   value correctly rounded to the nearest double, ties to even (SPEC §2.3), whatever the
//   path to it: two implementations that follow the rule agree bit for bit.
// - Degenerate shapes degrade to what they are: a circle of radius 0 or a segment with
//   a == b is a point, a rect of zero width is a segment, a polyline whose points are all
//   equal is a point, a capsule with a == b is the disk.
// - A compound is the union of its parts: it collides with what one of them collides with,
//   and Contact names the parts (parts_a, parts_b). The scene format's `box` and `ellipse`
//   are no types of their own here: the reader makes them the polygon (or rect, or circle)
//   that box_corners and ellipse_points give.
//
// Limits: coordinates are finite doubles of any magnitude (the unit tests dwell on 1e9, the
// fuzzer covers the whole range, subnormals and values near 1e308 included). A computed
// intersection point whose true coordinates lie beyond the double range (two nearly
// parallel lines crossing at 1e400, a circle of radius 1e308 centred at 1e308) has no
// double to be written as and is left out of `points`; the relation still counts it. As
// IEEE rounding says, that is from DBL_MAX plus half its ulp on. Shapes are validated by
// the scene reader (collide/scene.hpp); calling collide() on an invalid polygon
// (self-intersecting, fewer than three vertices) gives an unspecified relation, never UB.
#pragma once

#include "collide/types.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace collide {

/// Exact collision test of a against b. Returns nothing when they share no point.
/// With want_points false, Contact::points stays empty (and the test is cheaper).
std::optional<Contact> collide(const Shape& a, const Shape& b, bool want_points = true);

/// The least Euclidean distance between the point sets of a and b (SPEC §2.6): 0 when they
/// collide, else the exact value correctly rounded to the nearest double (ties to even); +inf
/// only where the true value lies beyond the double range.
double distance(const Shape& a, const Shape& b);

/// The exact distance of a and b against d (finite, >= 0): -1 when it is below d, 0 when
/// equal, +1 when above. Clearance rules count a pair when this is -1; `--near d` reports a
/// pair that does not collide when this is <= 0.
int compare_distance(const Shape& a, const Shape& b, double d);

/// The separation of two colliding convex shapes (point, circle, rect, segment, capsule, or a
/// convex polygon, which boxes are): nothing when either is another type (line, ray,
/// polyline, concave polygon, compound) or when they do not collide. Where several
/// directions need the same depth, the one at the smallest angle counter-clockwise from +x
/// wins. Accurate to about 1e-12 relative to the largest coordinate magnitude involved;
/// which directions tie is decided exactly.
std::optional<Separation> separation(const Shape& a, const Shape& b);

/// Smallest Bounds holding the shape (exact: every component is an input coordinate,
/// rounded outward where it is a computed sum, or +-infinity).
Bounds bounds_of(const Shape& s);

/// The four corners of an oriented box (SPEC §2.5): (cx + sx c - sy s, cy + sx s + sy c) for
/// (sx, sy) = (-w/2, -h/2), (w/2, -h/2), (w/2, h/2), (-w/2, h/2), each product rounded and
/// the sums taken left to right, where c and s are the cosine and sine of `angle_degrees`
/// (from +x toward +y): exactly 0 or +-1 at multiples of 90, else the double results of
/// std::cos and std::sin of (angle mod 360) * pi / 180, angle mod 360 being fmod(angle, 360)
/// plus 360 when negative (-45 and 315 give the same corners).
std::vector<Vec2> box_corners(Vec2 center, Vec2 size, double angle_degrees);

/// The `vertices` points of an ellipse with radii (rx, ry) turned by `angle_degrees`
/// (SPEC §2.5): point k is center + R(angle) (rx cos θk, ry sin θk), θk = ((2 pi) k) / n in
/// doubles, cos and sin exactly 0 or +-1 where 4k is a multiple of n; evaluated as box_corners
/// evaluates a corner.
std::vector<Vec2> ellipse_points(Vec2 center, Vec2 radii, double angle_degrees, std::uint32_t vertices);

}  // namespace collide
