// Folder scene/: scenes as collide reads and writes them (SPEC §1), the public
// collide/scene.hpp. Reading a scene file (read_scene.cpp, shape_reader.cpp, scene_fields)
// into the builder that validates it (this header), simple-polygon validation, rules files
// (rule_set.cpp), the text of a scene (scene_text) and which pairs the specs and rules
// select (selection). It includes geometry/, numeric/, support/ and the public headers up
// to scene.hpp; maps/ and check/ use it.
//
// Builds and validates a Scene from the pieces the SAX handler delivers.
#pragma once

#include "collide/scene.hpp"

#include "support/json_doc.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace collide::detail {

/// A JSON pointer built only when an error needs it: a parent and one more token. The
/// parent and the key must outlive it (they are the caller's locals or the text).
class Path {
public:
    Path() = default;
    Path(const Path& parent, std::string_view key) : parent_(&parent), key_(key), kind_(Kind::Key) {}
    Path(const Path& parent, std::size_t index) : parent_(&parent), index_(index), kind_(Kind::Index) {}
    std::string str() const;
    operator std::string() const { return str(); }  // NOLINT: a Fail takes the text

private:
    enum class Kind : std::uint8_t { Root, Key, Index };
    const Path* parent_ = nullptr;
    std::string_view key_;
    std::size_t index_ = 0;
    Kind kind_ = Kind::Root;
};

/// An input error at a JSON pointer; read_scene adds the file and line:column.
struct Fail {
    std::string path;
    std::string message;
    std::size_t offset = static_cast<std::size_t>(-1);  ///< where, when the path alone is ambiguous
};

/// The group lists made so far, so that objects with the same groups share one list
/// (collide::Groups). Keeps the last few distinct lists: a scene with a handful of them
/// shares them all, and one with many still gets each list right at a bounded cost per
/// object. Used by one thread at a time.
class GroupLists {
public:
    /// The groups a "groups" value names: an array of strings, else a Fail at `path` (the
    /// value's pointer) or at the element that is not a string.
    Groups get(const JsonValue& value, const Path& path);

private:
    static constexpr std::size_t kKept = 8;
    Groups kept_[kKept];
    std::uint64_t hashes_[kKept] = {};  // of each kept list's names: most lists are new (a level's
                                        // bodies each have their name), found so at once
    std::size_t next_ = 0;  // where the next new list is kept, round robin
};

class SceneBuilder {
public:
    explicit SceneBuilder(const std::string& file);

    /// A top-level key's whole value (everything but the elements of streamed arrays).
    void top_level(const std::string& key, const JsonValue& v);
    /// A top-level key whose value is an array that will be streamed element by element.
    void begin_array(const std::string& key);
    /// One element of a streamed top-level array.
    void element(const std::string& key, std::size_t index, const JsonValue& v);
    /// Cross-checks (ids, references, y-axis dependent forms) and the scene.
    Scene finish();
    /// The scene's "pairs" (a map's own: a Godot scene's layers and masks); throws Fail at
    /// /pairs/K for a spec that does not parse.
    void set_pairs(const std::vector<std::string>& specs);

    /// Keys whose array values are streamed element by element.
    static bool streamed_key(const std::string& key);

    /// What build_shape learns about a shape besides the shape itself.
    /// A left/top/right/bottom rect, resolved once y_axis is known: a shape, or one part of
    /// a compound.
    struct PendingRect {
        std::size_t shape = 0;
        std::size_t part = kWhole;
        double left = 0, top = 0, right = 0, bottom = 0;
    };
    static constexpr std::size_t kWhole = static_cast<std::size_t>(-1);
    struct ShapeNotes {
        bool default_id = false;
        std::size_t offset = static_cast<std::size_t>(-1);  // the element's, in the text (npos: none)
        std::vector<std::string> ignore;                    // "ignore": the rules it silences
        std::vector<PendingRect> rects;             // shape left empty: the shape being built
        std::vector<ConvertedShape> converted;      // likewise
    };
    /// Element `index` of "shapes", validated and built into `out` (a default SceneShape)
    /// without touching the builder, so that several can be built at once on other threads
    /// straight into the scene's storage (make_room); note_shape() then takes the notes in
    /// order.
    /// `groups` is group_lists(), which only one thread may use at a time.
    static ShapeNotes build_shape(std::size_t index, const JsonValue& v, const Path& path, SceneShape& out,
                                  GroupLists& groups);
    /// Parts a compound may have at most (SPEC §1.1).
    static constexpr std::size_t kMaxParts = 4096;
    GroupLists& group_lists() { return group_lists_; }
    /// Default shapes at the end of the scene for `count` more elements of "shapes"; the
    /// first of them. Invalidates earlier pointers, as a vector's growth does.
    SceneShape* make_room(std::size_t count);
    void note_shape(std::size_t index, const ShapeNotes& notes);
    /// About how many shapes the scene will hold in all (a hint: room is reserved, so that
    /// a million shapes are not moved again each time the storage doubles).
    void expect_shapes(std::size_t count);
    /// The shapes' ids are known to be unique (a map's converter made them so): finish() does
    /// not look for a duplicate among them (100,000s of ids hashed again).
    void ids_known_unique() { ids_unique_ = true; }

    /// Where the elements of "shapes", "grids", "moves" and "rules" begin in the text (npos
    /// for values not read from text): recorded for shapes, grids and moves once
    /// record_offsets() is called, for rules always. read_scene turns them into sources.
    struct Offsets {
        std::vector<std::size_t> shapes, grids, moves, rules;
    };
    void record_offsets() { record_ = true; }
    const Offsets& offsets() const { return offsets_; }

private:
    static Shape shape_body(const JsonValue& v, const Path& path, std::initializer_list<std::string_view> common,
                            bool part, ShapeNotes& notes, std::size_t part_index);
    void shape(std::size_t index, const JsonValue& v, const Path& path);
    void grid(std::size_t index, const JsonValue& v, const Path& path);
    void move(std::size_t index, const JsonValue& v, const Path& path);
    void rule(std::size_t index, const JsonValue& v, const Path& path);
    void settings(const JsonValue& v, const Path& path);

    // A rect in left/top/right/bottom form waits for settings.y_axis, which may come later.
    Scene scene_;
    GroupLists group_lists_;
    std::vector<PendingRect> rects_;
    std::vector<char> default_id_;  // shapes whose id is their index, not written
    std::vector<std::string> move_grids_;  // a move names its grid by id; grids may come later
    std::unordered_map<std::string, std::size_t> move_ids_;  // id -> move index
    std::unordered_map<std::string, std::size_t> rule_names_;
    bool record_ = false;
    bool ids_unique_ = false;
    Offsets offsets_;
    std::vector<Ignore> grid_ignores_;  // object: the grid's index (grids are numbered after shapes at the end)
};

}  // namespace collide::detail
