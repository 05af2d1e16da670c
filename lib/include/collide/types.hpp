// collide/types.hpp — the plain values every layer shares: positions, shapes, relations,
// bounds, grids, moves and their answers. No functions of substance live here (the few
// declared are implemented by the pair test); the entry-point headers (geometry.hpp,
// scene.hpp, check.hpp) include this and add what works on these values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace collide {

/// A position or direction in scene units.
struct Vec2 {
    double x = 0.0;
    double y = 0.0;
    friend bool operator==(Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; }
    friend bool operator!=(Vec2 a, Vec2 b) { return !(a == b); }
    /// Order by x, then y: the order of `points` in every report.
    friend bool operator<(Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }
};

/// A single point.
struct Point {
    Vec2 at;
};

/// A closed disk; radius >= 0 (0 is the point `center`).
struct Circle {
    Vec2 center;
    double radius = 0.0;
};

/// A closed axis-aligned rectangle; min <= max on both axes (zero extent allowed).
struct Rect {
    Vec2 min;
    Vec2 max;
};

/// A closed segment from a to b; a == b is a point.
struct Segment {
    Vec2 a;
    Vec2 b;
};

/// The infinite line through a and b; a != b.
struct Line {
    Vec2 a;
    Vec2 b;
};

/// The half-line {origin + t * direction : t >= 0}; direction != 0.
struct Ray {
    Vec2 origin;
    Vec2 direction;
};

/// A simple polygon (no self-intersection, non-zero area, either winding, >= 3 vertices,
/// no consecutive repeats), closed implicitly; the region it bounds, boundary included.
struct Polygon {
    std::vector<Vec2> points;
};

/// A chain of segments through `points` (>= 1 point). It may cross itself. When the last
/// point equals the first it is closed and has no boundary points.
struct Polyline {
    std::vector<Vec2> points;
};

/// Every point within `radius` (> 0) of the segment a-b, closed: a stadium. a == b is the
/// disk of that radius. Its outline is two straight sides and two half circles.
struct Capsule {
    Vec2 a;
    Vec2 b;
    double radius = 0.0;
};

struct Compound;

/// Any shape. The alternative index is the ShapeType. (The scene format's `box` and
/// `ellipse` are read as the polygon, rect or circle they are: see box_corners and
/// ellipse_points.)
using Shape = std::variant<Point, Circle, Rect, Segment, Line, Ray, Polygon, Polyline, Capsule, Compound>;

/// One object made of parts (>= 1, none a Compound): it collides with whatever one of its
/// parts collides with. Parts may overlap each other; the compound has no outline of its
/// own, so it only touches or overlaps (never contains, is within or equals) another shape.
struct Compound {
    std::vector<Shape> parts;
};

/// The kind of a Shape, in the order of the variant.
enum class ShapeType : std::uint8_t { Point, Circle, Rect, Segment, Line, Ray, Polygon, Polyline, Capsule, Compound };

/// The type of a shape.
inline ShapeType type_of(const Shape& s) { return static_cast<ShapeType>(s.index()); }

/// The scene-file name of a shape type ("point", "circle", ...).
std::string_view type_name(ShapeType t);

/// How two colliding shapes relate (OGC / DE-9IM, as GEOS and Shapely decide it).
enum class Relation : std::uint8_t {
    Touch,     ///< they share points, but no interior point of one is interior to the other
    Overlap,   ///< any other collision
    Contains,  ///< every point of b lies in a, and the interiors meet
    Within,    ///< every point of a lies in b, and the interiors meet
    Equal,     ///< the same point set
};

/// "touch", "overlap", "contains", "within" or "equal".
std::string_view relation_name(Relation r);

/// The relation seen from the other side (contains <-> within).
Relation mirrored(Relation r);

/// What collide() found for two shapes that share at least one point.
struct Contact {
    Relation relation = Relation::Touch;
    /// Intersection of the outlines (boundary curve of circle, rect, polygon; the shape itself
    /// for the others), sorted by x then y, without duplicates. A shared straight piece of
    /// positive length contributes its two end points. Empty when points were not asked for.
    /// A point beyond the double range is left out (see Limits above).
    std::vector<Vec2> points;
    /// When a side is a Compound: the indices of its parts that collide with the other side,
    /// ascending (always filled, points wanted or not); empty for any other shape.
    std::vector<std::uint32_t> parts_a;
    std::vector<std::uint32_t> parts_b;
};

/// The minimum translation vector of a colliding pair (SPEC §2.7): moving b by depth * normal
/// leaves the interiors of a and b apart (touching at most), and no shorter move does.
struct Separation {
    Vec2 normal;         ///< unit vector, pointing the way b moves (from a toward b)
    double depth = 0.0;  ///< >= 0; 0 for a pair that only touches
};

/// Axis-aligned bounds of a shape; rays and lines are unbounded (infinite components).
struct Bounds {
    Vec2 min;
    Vec2 max;
};

/// A grid cell as [col, row], indexing rows[row][col] as written; may lie outside the grid.
struct Cell {
    std::int64_t col = 0;
    std::int64_t row = 0;
    friend bool operator==(Cell a, Cell b) { return a.col == b.col && a.row == b.row; }
};

/// The answer to a move.
struct MoveResult {
    bool allowed = true;
    double t = 0.0;  ///< blocked: fraction of the path where it stops
    Vec2 stop;       ///< blocked: from + t (to - from)
    Cell cell;       ///< blocked on a grid: first solid cell hit
    /// Blocked, for a move with `against`: the object hit first (a shape index, or
    /// shapes.size() + the index of a grid, whose `cell` is then set).
    std::optional<std::size_t> hit;
    std::optional<bool> passed;  ///< when the move has an expectation
};

/// The groups of a shape or grid: a list of names, in file order, that cannot change once
/// made, so that every object with the same list can share one copy (a scene of a million
/// shapes in group "things" holds that list once, not a million times). It reads like a
/// const std::vector<std::string>; to change an object's groups, assign a new list:
/// `shape.groups = {"player", "solid"};`.
class Groups {
public:
    using value_type = std::string;
    using const_iterator = std::vector<std::string>::const_iterator;
    using iterator = const_iterator;

    Groups() = default;
    Groups(std::initializer_list<std::string> names) : Groups(std::vector<std::string>(names)) {}
    Groups(std::vector<std::string> names)  // NOLINT: implicit, so that a vector can be assigned
        : list_(names.empty() ? nullptr : std::make_shared<const std::vector<std::string>>(std::move(names))) {}

    /// The names, in file order.
    const std::vector<std::string>& names() const { return list_ ? *list_ : none(); }
    operator const std::vector<std::string>&() const { return names(); }  // NOLINT: reads as the list
    const_iterator begin() const { return names().begin(); }
    const_iterator end() const { return names().end(); }
    std::size_t size() const { return names().size(); }
    bool empty() const { return names().empty(); }
    const std::string& operator[](std::size_t i) const { return names()[i]; }

    /// Equal names in the same order (shared or not).
    friend bool operator==(const Groups& a, const Groups& b) { return a.list_ == b.list_ || a.names() == b.names(); }
    friend bool operator!=(const Groups& a, const Groups& b) { return !(a == b); }
    friend bool operator==(const Groups& a, const std::vector<std::string>& b) { return a.names() == b; }
    friend bool operator!=(const Groups& a, const std::vector<std::string>& b) { return !(a == b); }
    friend bool operator==(const std::vector<std::string>& a, const Groups& b) { return a == b.names(); }
    friend bool operator!=(const std::vector<std::string>& a, const Groups& b) { return !(a == b); }

private:
    static const std::vector<std::string>& none() {
        static const std::vector<std::string> empty;
        return empty;
    }
    std::shared_ptr<const std::vector<std::string>> list_;  // null: no groups
};

/// A tile grid: cols x rows cells of size `tile`, the min corner at `origin`.
/// Row 0 is the first row written in the file: the top row as a person sees it.
struct Grid {
    std::string id;
    Groups groups;
    Vec2 origin;                 ///< min corner of the grid
    Vec2 tile{1.0, 1.0};         ///< cell width and height, > 0
    std::size_t cols = 0;
    std::size_t rows = 0;
    bool outside_solid = true;   ///< whether everything outside the grid blocks
    bool y_up = false;           ///< with y up, row 0 is the row at the greatest y
    std::vector<std::uint64_t> bits;  ///< solid flags, row-major as written, 1 bit a cell

    /// Whether cell (col, row) as written is solid; col < cols, row < rows.
    bool solid(std::size_t col, std::size_t row) const {
        const std::size_t i = row * cols + col;
        return (bits[i / 64] >> (i % 64)) & 1u;
    }
};

/// The body that a move carries.
struct Body {
    enum class Kind : std::uint8_t { Point, Circle, Rect } kind = Kind::Point;
    double radius = 0.0;  ///< Circle
    Vec2 size;            ///< Rect: width and height, centred on the position
};

/// A movement-allowed query (SPEC §1.3): on one grid, or against the shapes and grids a
/// selector selects.
struct Move {
    std::string id;
    std::size_t grid = 0;  ///< index into Scene::grids, when `against` is not set
    /// A selector (a group, an id or `*`): the body must not enter the shapes and grids it
    /// selects (SPEC §2.5). When set, `grid` is unused.
    std::optional<std::string> against;
    Vec2 from;
    Vec2 to;
    Body body;
    bool check_path = true;              ///< false: only the destination is tested
    std::optional<bool> expect_allowed;  ///< the `expect` of the scene, if any
};

}  // namespace collide
