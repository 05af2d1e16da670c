// Godot 4 scenes (SPEC §1.6): a `.tscn` and the files it names become one collide scene.
//
//   godot_text    the text resource grammar (sections, properties, values)
//   godot_nodes   files loaded (res:// from project.godot), the node tree with instanced
//                 scenes expanded, each node's global transform
//   godot_shapes  a body's collision shapes as collide shapes under a transform
//   godot_tileset a TileSet's tiles and their collision polygons
//   godot_tiles   TileMapLayer and TileMap cells as grids and compounds
//   godot_scene   bodies, groups and the scene's pairs, written out (import_godot)
#pragma once

#include "collide/maps.hpp"
#include "maps/godot_text.hpp"
#include "support/string_set.hpp"

#include <bitset>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace collide::detail::godot {

/// A 2D affine transform as Godot's Transform2D holds it: columns x and y, then the origin.
struct Affine {
    Vec2 x{1, 0}, y{0, 1}, origin{0, 0};

    /// Applied to a point: (x.x * p.x + y.x * p.y) + origin.x, each product rounded, the sums
    /// left to right, as Godot's xform.
    Vec2 point(Vec2 p) const { return {x.x * p.x + y.x * p.y + origin.x, x.y * p.x + y.y * p.y + origin.y}; }
    Vec2 vector(Vec2 v) const { return {x.x * v.x + y.x * v.y, x.y * v.x + y.y * v.y}; }
    /// this × b, as Godot's Transform2D::operator*.
    Affine operator*(const Affine& b) const { return {vector(b.x), vector(b.y), point(b.origin)}; }
    /// Node2D's transform from its parts (Transform2D::set_rotation_scale_and_skew, then the
    /// origin).
    static Affine compose(Vec2 position, double rotation, Vec2 scale, double skew);
};

/// A file read and parsed, with its resources by id.
struct Loaded {
    std::string path;  ///< as opened
    std::string own_text;   ///< the text of a file read here (the scene's is the caller's)
    Document doc;           ///< views into own_text, or into the scene's text
    std::unordered_map<std::string_view, const Section*> ext;  ///< [ext_resource] by id
    std::unordered_map<std::string_view, const Section*> sub;  ///< [sub_resource] by id
};

/// A property and the file whose resources it names.
struct Prop {
    std::string_view key;  ///< in the file's Document, which Files keeps
    const Value* value = nullptr;
    const Loaded* from = nullptr;
};

struct Node {
    std::string_view name, type;  ///< views into the Documents Files keeps
    std::string_view path;  ///< from the root, the root's name first ("Level/Walls/Shape"), in Tree::paths
    int parent = -1;
    int first_child = -1, last_child = -1, next_sibling = -1;  ///< the children, in order, linked
    std::vector<std::string_view> groups;
    Span<Prop> props;  ///< in the order they apply (an instance's own, then its overrides), in Tree::props
    const Loaded* file = nullptr;  ///< where the node (or its instancing node) is written
    std::uint32_t line = 0, column = 0;  ///< in the scene given: the node, or the instance that made it
    bool skipped = false;  ///< under a 3D node, a SubViewport, or a placeholder
    bool instanced = false;  ///< an instancing node, or one an instanced scene brought
    bool indexed = false;    ///< its children are in the builder's table by name
    std::uint32_t props_at = 0, props_count = 0;  ///< props in Tree::props, while the tree is built

    const Prop* prop(std::string_view key) const;
};

/// Text kept in blocks that never move: views into it stay valid as it grows, and when the
/// arena is moved.
class TextArena {
public:
    /// `a`, then `sep` and `b` when `a` is not empty, kept as one string.
    std::string_view join(std::string_view a, char sep, std::string_view b);

private:
    std::vector<std::unique_ptr<char[]>> blocks_;
    char* next_ = nullptr;
    std::size_t left_ = 0;
};

/// The node tree of a scene, instanced scenes expanded; nodes in an order where a parent comes
/// before its children; node 0 the root.
struct Tree {
    std::vector<Node> nodes;
    std::vector<std::string> warnings;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> warning_places;
    std::vector<Affine> globals;  ///< each node's transform in the root's coordinates
    std::vector<Prop> props;      ///< the nodes' properties, each node's in one run
    TextArena paths;              ///< the nodes' paths
};

/// Reads files for a scene: the scene itself, and what its resources name (`res://` from the
/// nearest folder above the scene holding project.godot; relative paths from the naming
/// file's folder). Each file is read once.
class Files {
public:
    Files(const std::string& scene, const FileLoader& load);
    /// The file at `path` as a Godot file names it from `from`; throws collide::Error.
    const Loaded& load(const std::string& path, const Loaded* from);
    const Loaded& scene(std::string_view text);
    const std::string& scene_path() const { return scene_; }

private:
    // `loaded` (its path, and own_text for a file read here) with `text` parsed, kept.
    const Loaded& add(std::unique_ptr<Loaded> loaded, std::string_view text);

    std::string scene_;
    const FileLoader& loader_;
    std::optional<std::string> root_;  ///< the folder of project.godot, once looked for
    std::map<std::string, std::unique_ptr<Loaded>> files_;
};

/// A resource: its properties, its class, and the file its own references are in.
struct Resource {
    const Section* section = nullptr;
    std::string_view type;
    const Loaded* file = nullptr;
    const Value* property(std::string_view key) const { return section->property(key); }
};

/// The resource a value names (SubResource("id") or ExtResource("id") of a `.tres`); a null
/// section for another value; throws collide::Error when it names nothing.
Resource resource(Files& files, const Loaded& in, const Value& v);

/// The scene's node tree with its global transforms. Throws collide::Error.
Tree read_tree(Files& files, const Loaded& scene);

/// Asks the memory for `n`'s property names and values (or, with `items`, the items of its
/// values, once those are at hand) ahead of their reading: a level's nodes are read in order,
/// and what they hold lies in the text and the document, far from the tree, a cache miss each.
/// Best called for the node kAhead after the one being read (and kAhead / 2 with `items`).
void prefetch_props(const Node& n, bool items);
inline constexpr std::size_t kAhead = 8;

/// A throw naming the scene file, the place and the node.
[[noreturn]] void fail(const std::string& file, std::uint32_t line, std::uint32_t column, const std::string& message);

/// `Level/Walls`-style id and what a message says of it: "node 'Level/Walls'".
inline std::string who(const Node& n) { return "node '" + std::string(n.path) + "'"; }

/// What an error message calls a value, "node 'A/B': " then `a`, `b` and `c`; made into text
/// only when an error is thrown (a level reads 100,000s of values that are fine).
struct What {
    const Node& node;
    std::string_view a, b = {}, c = {};
    std::string text() const { return who(node) + ": " + std::string(a) + std::string(b) + std::string(c); }
};

/// A number, a Vector2, a bool: the property's value read as that, Godot's default when the
/// property is absent; an error naming the node for another kind.
double number_prop(const Node& n, const Prop* p, double fallback);
Vec2 vector_prop(const Node& n, const Prop* p, Vec2 fallback);
bool bool_prop(const Node& n, const Prop* p, bool fallback);
/// A Vector2(x, y) (or Vector2i) as a point; `what` starts the message of an error.
Vec2 vector_value(const std::string& file, const Value& v, const What& what);
/// PackedVector2Array(...) or an array of Vector2 as points.
std::vector<Vec2> points_of(const std::string& file, const Value& v, const What& what);

/// The scene's ids: a node path, or a tile's `PATH@X,Y`, as it is; should one be taken already
/// (a node named `Wall#one-way` beside the one-way shape of `Wall`), the later one gets `~2`,
/// `~3`, ...: scene ids are unique.
class Ids {
public:
    /// Asks the memory for where `id` will be looked up (its slot in a table of 100,000s).
    void prefetch(std::string_view id) const { set_.prefetch(StringSet::hash(id)); }
    /// `id`, or `id~N`: valid until the next call (`id` itself when it is not taken yet).
    std::string_view unique(std::string_view id) {
        if (set_.insert(id)) return id;
        for (std::size_t n = 2;; ++n) {
            next_.assign(id.data(), id.size());
            next_ += '~';
            next_ += std::to_string(n);
            if (set_.insert(next_)) return next_;
        }
    }

private:
    StringSet set_;
    std::string next_;
};

/// `g` added to `groups` unless there already.
void add_group(std::vector<std::string>& groups, std::string_view g);
/// A body's or tile layer's groups (SPEC §1.6): the node's groups, its class, its name, then
/// `layer-N` and `mask-N` for each bit N (from 1) set in `layer` and `mask`; each once.
std::vector<std::string> node_groups(const Node& n, const std::bitset<32>& layer, const std::bitset<32>& mask);
/// The same into `groups`, its strings written over.
void node_groups(const Node& n, const std::bitset<32>& layer, const std::bitset<32>& mask, std::vector<std::string>& groups);

/// The scene a `.tscn` becomes (one MapImport); throws collide::Error.
std::vector<MapImport> import_godot(const std::string& file, std::string_view text, const FileLoader& load, MapBuild build);

}  // namespace collide::detail::godot
