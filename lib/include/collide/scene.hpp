// collide/scene.hpp — the scene file: shapes, tile grids, moves, pair specs and rules.
//
// read_scene() parses and validates a scene (SPEC §1) and returns it, or throws
// collide::Error naming the file, the JSON pointer of the offending value and its
// line:column. Validation is strict: unknown keys, duplicate keys or ids, non-finite
// numbers, inverted rects, self-intersecting polygons are all errors.
//
// Conventions: positions are plain x/y; `y_up` only changes how a rect's top/bottom and a
// grid's row order were read. Shapes keep their file order (their index is their rank in
// reports); grids are indexed after all shapes.
#pragma once

#include "collide/error.hpp"
#include "collide/geometry.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace collide {

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

/// A shape of the scene with its id and groups.
struct SceneShape {
    std::string id;
    Shape shape;
    Groups groups;
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

/// A pair spec "A:B": every shape selected by `left` with every shape or grid selected by
/// `right`.
struct PairSpec {
    std::string left;
    std::string right;
};

/// Parse "A:B" (split at the first ':'); throws Error (file and path left empty) when
/// either side is empty or there is no ':'.
PairSpec parse_pair_spec(std::string_view text);

/// A CI rule over the pairs of one spec.
struct Rule {
    enum class Expect : std::uint8_t { None, Some, Each };
    std::string name;
    PairSpec pairs;
    Expect expect = Expect::None;
    bool ignore_touching = false;  ///< "touching": "ignored"
    /// "clearance": d (> 0): a pair counts when its distance is below d (colliding pairs, at
    /// distance 0, always count).
    std::optional<double> clearance;
};

/// A shape, or a part of a compound, written as a box or an ellipse: the reader made it the
/// rect, circle or polygon the scene holds (SPEC §1.1, §2.5), so what the file says and what
/// is tested differ in type. `collide check -v` shows each.
struct ConvertedShape {
    enum class Written : std::uint8_t { Box, Ellipse };
    std::size_t shape = 0;            ///< index into Scene::shapes
    std::optional<std::size_t> part;  ///< index into the compound's parts; none: the shape itself
    Written written = Written::Box;   ///< the type in the file
};

/// A validated scene.
struct Scene {
    std::string file;  ///< as the caller named it
    bool y_up = false;
    std::vector<SceneShape> shapes;
    std::vector<Grid> grids;
    std::vector<Move> moves;
    std::vector<PairSpec> pairs;  ///< empty: the default "*:*", unless pairs_given
    bool pairs_given = false;     ///< the scene (or a rules file added to it) has a "pairs" key: `[]` pairs nothing
    std::vector<Rule> rules;
    std::vector<ConvertedShape> converted;  ///< boxes and ellipses, in file order
};

/// Options of read_scene.
struct ReadOptions {
    ReadOptions() = default;
    explicit ReadOptions(unsigned threads_) : threads(threads_) {}

    /// Threads for a big "shapes" array: one reads the JSON while another validates and
    /// builds the shapes already read. The scene and any error never depend on it.
    unsigned threads = 1;
    /// Set when the text is still being filled in (a file read in the background) while
    /// read_scene reads it, which it then does from the first bytes on: wait_for(n) must block
    /// until at least the first min(n, text.size()) bytes are in place and return how many
    /// are; it may throw (an I/O error), and that exception leaves read_scene as it is. Only
    /// used with threads > 1 (otherwise the whole text is waited for first). Unset: the text
    /// is complete. The scene and any error never depend on it.
    std::function<std::size_t(std::size_t)> wait_for;
};

/// Parse and validate a scene from its text (UTF-8 JSON; a leading BOM is skipped).
/// `file` names it in errors and reports. Throws Error: the first problem in file order.
Scene read_scene(std::string_view text, const std::string& file, const ReadOptions& options = {});

/// The pairs and rules of a rules file (`--rules FILE`, SPEC §1.4): a JSON object holding only
/// "pairs" and "rules" (and "format"/"version"), read as a scene's are.
struct RuleSet {
    std::string file;
    std::vector<PairSpec> pairs;
    std::vector<Rule> rules;
};

/// Parse and validate a rules file. Throws Error (a key a rules file cannot hold, such as
/// "shapes", is one).
RuleSet read_rule_set(std::string_view text, const std::string& file);

/// Adds a rule set's pairs and rules after the scene's own. Throws Error (located in the rules
/// file) when one of its rule names is already a rule of the scene.
void add_rules(Scene& scene, const RuleSet& rules);

/// Validate a polygon's vertex list as the scene format requires and return it with
/// consecutive repeats dropped; on failure returns nothing and sets `why`.
std::optional<std::vector<Vec2>> simple_polygon(const std::vector<Vec2>& points, std::string& why);

}  // namespace collide
