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
#include "collide/types.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace collide {

/// A shape of the scene with its id and groups.
struct SceneShape {
    std::string id;
    Shape shape;
    Groups groups;
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

/// Where a shape, grid, move or rule was written (SPEC §3.1): the file, line and column of the
/// object that made it (a scene's shape object; a TMX `<object>`, or for a tile's compound the
/// layer's `<data>`; a TMJ object; an LDtk entity instance), and for maps its layer and Tiled
/// object id or LDtk iid. Lines and columns count from 1, columns in bytes; 0 when unknown.
struct Source {
    std::string file;
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::string layer;         ///< maps: the layer, groups joined with '/' ("Level/Coins"); else empty
    std::uint64_t object = 0;  ///< Tiled: the object id; 0: none
    std::string iid;           ///< LDtk: the entity instance's iid; else empty
    bool has_tile = false;     ///< a tile's compound: placed in cell (tile_col, tile_row) of its layer
    std::int64_t tile_col = 0;
    std::int64_t tile_row = 0;

    /// A source known only by its file.
    static Source in(std::string file) {
        Source s;
        s.file = std::move(file);
        return s;
    }
};

/// The sources of a scene's elements, kept small (a scene of a million shapes: 12 bytes a
/// shape). Filled by read_scene() when ReadOptions::sources is set, always by maps; each list
/// is empty or has one entry per element. Rules carry their own file (a rules file's rules).
struct SceneSources {
    /// Line and column of an element, and 1 + the index of its details (0: none).
    struct At {
        std::uint32_t line = 0;
        std::uint32_t column = 0;
        std::uint32_t detail = 0;
    };
    /// What maps add: the layer (1 + an index into `layers`, 0: none), the Tiled object id or
    /// LDtk iid, the tile's cell.
    struct Detail {
        std::uint32_t layer = 0;
        std::uint64_t object = 0;
        std::string iid;
        bool has_tile = false;
        std::int64_t tile_col = 0;
        std::int64_t tile_row = 0;
    };
    std::string file;  ///< where the shapes, grids and moves were written (a map's file for its levels)
    std::vector<std::string> layers;
    std::vector<Detail> details;
    std::vector<At> shapes, grids, moves;
    std::vector<At> warnings;  ///< one per Scene::warnings entry, when known
    std::vector<Source> rules;

    /// The source of shape i, grid g, move m or rule r: the file alone when not recorded.
    Source shape(std::size_t i) const { return expand(shapes, i); }
    Source grid(std::size_t g) const { return expand(grids, g); }
    Source move(std::size_t m) const { return expand(moves, m); }
    Source warning(std::size_t w) const { return expand(warnings, w); }
    Source rule(std::size_t r) const { return r < rules.size() ? rules[r] : Source::in(file); }
    /// 1 + the index of `name` in layers, adding it when new (maps, as they convert).
    std::uint32_t layer_index(std::string_view name);
    /// Adds an element's place with what maps know of it (`list` is shapes or grids).
    void add(std::vector<At>& list, std::uint32_t line, std::uint32_t column, std::string_view layer,
             std::uint64_t object = 0, std::string iid = {});
    /// The same for a tile's compound, placed in cell (col, row) of its layer.
    void add_tile(std::uint32_t line, std::uint32_t column, std::string_view layer, std::int64_t col, std::int64_t row);

private:
    Source expand(const std::vector<At>& list, std::size_t k) const;
    /// layer_index's table: a name's hash -> 1 + its index in `layers` (a Godot scene's layers
    /// are its bodies' parents: 100,000 of them made the search over `layers` quadratic).
    std::unordered_multimap<std::size_t, std::uint32_t> layer_table_;
};

/// The rules whose findings an object silences (SPEC §3.1 "Ignores in the data"): a scene
/// shape's "ignore", a map's `collide_ignore`. "*" names every rule.
struct Ignore {
    std::size_t object = 0;          ///< a shape, or a grid past the shapes
    std::vector<std::string> rules;  ///< rule names, or "*"
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
    SceneSources sources;                   ///< where each element was written (see Source)
    /// What the reader skipped or read in its own way and the user should know (a map's text
    /// objects, gids naming no tile), one line each, placed by sources.warning(k).
    std::vector<std::string> warnings;
    /// The objects that silence rules, by object index (the others silence none).
    std::vector<Ignore> ignores;
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
    /// Record the line and column of each shape, grid and move (Scene::sources): reports with
    /// locations and CI findings need them. Rules' are always recorded.
    bool sources = false;
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
    std::vector<Source> rule_sources;  ///< where each rule was written in `file`
};

/// Parse and validate a rules file. Throws Error (a key a rules file cannot hold, such as
/// "shapes", is one).
RuleSet read_rule_set(std::string_view text, const std::string& file);

/// Adds a rule set's pairs and rules after the scene's own. Throws Error (located in the rules
/// file) when one of its rule names is already a rule of the scene.
void add_rules(Scene& scene, const RuleSet& rules);

/// A project file, `collide.json` (SPEC §3.1 "Configuration"): what a bare `collide check`
/// checks and how. Paths and globs are relative to the file's folder; unset members leave the
/// command line's defaults. The command line's own options win over the file's.
struct Project {
    std::string file;
    std::vector<std::string> inputs;         ///< globs ("levels/**/*.tmx")
    std::optional<std::string> rules_path;   ///< "rules": a rules file
    std::optional<RuleSet> rules;            ///< "rules": {"pairs": [...], "rules": [...]} in the file
    std::optional<std::string> baseline;     ///< a baseline file (--baseline)
    std::optional<bool> strict;
    std::optional<std::string> format;
    std::optional<double> near;
    std::optional<bool> no_touch;
};

/// Parse a project file. Throws Error naming the file, the JSON path and line:column (an
/// unknown key is an error, as in scenes).
Project read_project(std::string_view text, const std::string& file);

/// Validate a polygon's vertex list as the scene format requires and return it with
/// consecutive repeats dropped; on failure returns nothing and sets `why`.
std::optional<std::vector<Vec2>> simple_polygon(const std::vector<Vec2>& points, std::string& why);

}  // namespace collide
