// A Tiled map as a scene (SPEC §1.5): tile layers become grids, tiles with collision shapes
// and objects become shapes. The reader (tiled_tmx.cpp, tiled_tmj.cpp) has already resolved
// files, templates and encodings; what is left is geometry and naming.
//
// Where Tiled leaves room, the choices (README "Tiled maps"): a tile's collision shapes are
// flipped inside the tile's own box (diagonal first, then horizontal, then vertical, as Tiled
// draws them), scaled to a tile object's size, and turned with it; tiles are drawn from the
// bottom-left of their cell plus the tileset's tile offset; an ellipse or capsule with a zero
// side is the segment or point it is; the second tile layer with a taken name gets
// `NAME#LAYERID`.
#include "maps/built_scene.hpp"
#include "maps/tile_chunks.hpp"
#include "maps/tiled_geometry.hpp"
#include "maps/tiled_model.hpp"

#include "numeric/angles.hpp"
#include "scene/scene_text.hpp"
#include "support/lane.hpp"
#include "support/string_set.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace collide::detail::tiled {

namespace {

Vec2 plus(Vec2 a, Vec2 b) { return Vec2{a.x + b.x, a.y + b.y}; }

// The anchor of a tile object on its tile, as fractions of its width and height.
Vec2 anchor(Alignment a) {
    switch (a) {
        case Alignment::TopLeft: return {0, 0};
        case Alignment::Top: return {0.5, 0};
        case Alignment::TopRight: return {1, 0};
        case Alignment::Left: return {0, 0.5};
        case Alignment::Center: return {0.5, 0.5};
        case Alignment::Right: return {1, 0.5};
        case Alignment::Unspecified:  // orthogonal maps: bottom-left
        case Alignment::BottomLeft: return {0, 1};
        case Alignment::Bottom: return {0.5, 1};
        case Alignment::BottomRight: return {1, 1};
    }
    return {0, 1};
}

const Tile* find_tile(const Tileset& set, std::uint32_t id) {
    const auto it = std::lower_bound(set.tiles.begin(), set.tiles.end(), id,
                                     [](const Tile& t, std::uint32_t v) { return t.id < v; });
    return it != set.tiles.end() && it->id == id ? &*it : nullptr;
}

// The size a tile of `set` is drawn at.
Vec2 tile_size(const Tileset& set, const Tile* tile) {
    if (tile && tile->width > 0 && tile->height > 0) return Vec2{tile->width, tile->height};
    return Vec2{set.tilewidth, set.tileheight};
}

bool can_be_part(const Object& o) { return o.kind != ObjectKind::Text && o.kind != ObjectKind::Tile; }

std::vector<std::string> split_groups(const std::string& list) {
    std::vector<std::string> out;
    std::size_t from = 0;
    while (from <= list.size()) {
        std::size_t to = list.find(',', from);
        if (to == std::string::npos) to = list.size();
        std::size_t a = from, b = to;
        while (a < b && std::isspace(static_cast<unsigned char>(list[a]))) ++a;
        while (b > a && std::isspace(static_cast<unsigned char>(list[b - 1]))) --b;
        if (b > a) out.push_back(list.substr(a, b - a));
        from = to + 1;
    }
    return out;
}

void add_group(std::vector<std::string>& groups, const std::string& g) {
    if (!g.empty() && std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
}

// Names added to a list of names once each (groups, ignored rules).
void add_ignores(std::vector<std::string>& to, const std::vector<std::string>& rules) {
    for (const std::string& r : rules) add_group(to, r);
}

void add_listed_groups(std::vector<std::string>& groups, const Properties& props) {
    for (const auto& [name, value] : props)
        if (name == "collide_groups")
            for (const std::string& g : split_groups(value)) add_group(groups, g);
}

// The scene ids of a map's shapes and grids: an object's name when no other object or layer
// has it, else NAME#ID; any id taken already gets ~2, ~3, ... (scene ids are unique).
}  // namespace

std::vector<std::string> ignored_rules(const Properties& props) {
    std::vector<std::string> out;
    for (const auto& [name, value] : props)
        if (name == "collide_ignore") add_ignores(out, split_groups(value));
    return out;
}

namespace {

// Objects whose ids are made unique together: enough to overlap their cache misses.
constexpr std::size_t kIdBatch = 256;

class Names {
public:
    void count(const std::vector<Layer>& layers) {
        count_layers(layers);
        ids_.reserve(objects_ + 16);
    }

    // `id`, or when a shape or grid has it already (a map with repeated object ids, or an
    // object named like another's NAME#ID), `id~2`, `id~3`, ...
    std::string unique(std::string id) {
        if (ids_.insert(id)) return id;
        for (std::size_t n = 2;; ++n) {
            std::string next = id + "~" + std::to_string(n);
            if (ids_.insert(next)) return next;
        }
    }
    bool taken(const std::string& id) const { return ids_.contains(id); }
    /// unique() of each of `ids` in turn, in place: the same names, found faster in bulk.
    void make_unique(std::vector<std::string>& ids) {
        std::vector<std::size_t> hashes(ids.size());
        for (std::size_t k = 0; k < ids.size(); ++k) ids_.prefetch(hashes[k] = StringSet::hash(ids[k]));
        for (std::size_t k = 0; k < ids.size(); ++k)
            if (!ids_.insert(ids[k], hashes[k])) ids[k] = unique(std::move(ids[k]));
    }

    std::string object_id(const Object& o) const {
        const auto it = object_names_.find(o.name);
        if (!o.name.empty() && it != object_names_.end() && it->second == 1 && layer_names_.count(o.name) == 0) return o.name;
        return o.name + "#" + std::to_string(o.id);
    }

private:
    void count_layers(const std::vector<Layer>& layers) {
        for (const Layer& l : layers) {
            layer_names_.insert(l.name);
            objects_ += l.objects.size();
            for (const Object& o : l.objects)
                if (!o.name.empty()) ++object_names_[o.name];
            count_layers(l.layers);
        }
    }

    std::unordered_set<std::string> layer_names_;
    std::unordered_map<std::string, std::size_t> object_names_;
    std::size_t objects_ = 0;              ///< of every object layer
    StringSet ids_;  ///< of every shape and grid written so far
};

// What a map's tilesets say about a gid: whether it names a tile they define, and the tiles
// with collision shapes (compounds, not solid cells).
class CollisionTiles {
public:
    struct Entry {
        const Tileset* set = nullptr;
        const Tile* tile = nullptr;
    };

    explicit CollisionTiles(const Map& map) : map_(map) {
        for (const auto& set : map.tilesets) {
            for (const Tile& t : set->tiles) {
                if (std::none_of(t.shapes.begin(), t.shapes.end(), can_be_part)) continue;
                const std::uint64_t gid = std::uint64_t{set->firstgid} + t.id;
                if (gid > kGidMask) continue;
                collision_[static_cast<std::uint32_t>(gid)] = {set.get(), &t};
                first_ = std::min(first_, static_cast<std::uint32_t>(gid));
                last_ = std::max(last_, static_cast<std::uint32_t>(gid));
            }
        }
    }

    bool any() const { return !collision_.empty(); }
    /// The tile with collision shapes a gid (flags cleared) names, or null.
    const Entry* find(std::uint32_t gid) const {
        if (gid < first_ || gid > last_) return nullptr;  // most cells: no lookup
        const auto it = collision_.find(gid);
        return it == collision_.end() ? nullptr : &it->second;
    }

    // A tile whose tile has collision shapes is those shapes (a compound of its own), not a
    // solid cell; every other tile is (SPEC §1.5), one naming no tile as well.
    bool solid(std::uint32_t raw) const {
        const std::uint32_t gid = raw & kGidMask;
        return gid != 0 && !find(gid);
    }

    // Whether a gid names a tile its tileset defines; the last tileset's range answers most.
    bool defined(std::uint32_t gid) {
        if (gid >= defined_lo_ && gid <= defined_hi_) return true;
        const TileRef ref = tile_of(map_.tilesets, gid);
        if (ref.defined && ref.tileset && ref.tileset->tilecount > 0) {
            defined_lo_ = ref.tileset->firstgid;
            defined_hi_ = ref.tileset->firstgid + (ref.tileset->tilecount - 1);
        }
        return ref.defined;
    }

private:
    const Map& map_;
    /// By gid; a map, not a vector indexed by gid: a gid may be up to 2^28 (4 GiB of entries).
    std::unordered_map<std::uint32_t, Entry> collision_;
    std::uint32_t first_ = kGidMask, last_ = 0;      ///< the gids in collision_ lie here
    std::uint64_t defined_lo_ = 1, defined_hi_ = 0;  ///< gids known to name a tile (empty at first)
};

class Converter {
public:
    Converter(const Map& map, const std::string& file, MapBuild build)
        : map_(map), file_(file), out_(file, build), tiles_(map) {}

    MapImport run() {
        if (map_.orientation != "orthogonal")
            throw Error(file_, map_.where.json_path,
                        "the map is " + (map_.orientation.empty() ? std::string("of no orientation") : map_.orientation) +
                            ": only orthogonal maps have a plain x/y geometry",
                        map_.where.line, map_.where.column);
        names_.count(map_.layers);
        walk(map_.layers, Vec2{}, "");
        lane_.finish();
        for (auto& g : grids_) out_->add(std::move(*g));
        result_.name = file_;
        result_.sources.file = file_;
        out_.finish(result_);
        return std::move(result_);
    }

private:
    void walk(const std::vector<Layer>& layers, Vec2 offset, const std::string& prefix) {
        for (const Layer& l : layers) {
            const Vec2 at = plus(offset, l.offset);
            // An unnamed layer is named by its id, as an unnamed object is.
            const std::string path = prefix + (l.name.empty() ? "#" + std::to_string(l.id) : l.name);
            switch (l.kind) {
                case Layer::Kind::Tiles: tile_layer(l, at, path); break;
                case Layer::Kind::Objects: object_layer(l, at, path); break;
                case Layer::Kind::Group: walk(l.layers, at, path + "/"); break;
                case Layer::Kind::Image: break;
            }
        }
    }

    [[noreturn]] void fail(const Where& w, const std::string& message) const {
        throw Error(w.file.empty() ? file_ : w.file, w.json_path, message, w.line, w.column);
    }

    void tile_layer(const Layer& l, Vec2 at, const std::string& path) {
        if (l.blocks.empty()) return;
        if (!(map_.tilewidth > 0 && map_.tileheight > 0))
            fail(map_.where, "the map's tile size must be > 0 for tile layer '" + path + "'");
        warn_undefined_gids(l, path);
        const std::vector<std::vector<std::size_t>> parts = chunk_groups(l.blocks);
        std::vector<std::string> groups;
        add_group(groups, path);
        add_group(groups, l.cls);
        const Vec2 tile{map_.tilewidth, map_.tileheight};
        for (const std::vector<std::size_t>& part : parts) {
            const ChunkBox box = box_of(l.blocks, part);
            const auto cols = static_cast<std::uint64_t>(box.x1 - box.x0), rows = static_cast<std::uint64_t>(box.y1 - box.y0);
            if (cols == 0 || rows == 0) continue;
            if (cols > kMaxMapCells / rows)
                fail(l.where, "layer '" + path + "': its chunks span " + std::to_string(cols) + " x " + std::to_string(rows) +
                                  " tiles, more than the " + std::to_string(kMaxMapCells) + " collide reads");
            // One grid: the layer's name; a layer split into several: each named by its first tile.
            std::string id = path;
            if (parts.size() > 1) id += "[" + std::to_string(box.x0) + "," + std::to_string(box.y0) + "]";
            else if (names_.taken(id)) id = path + "#" + std::to_string(l.id);
            id = names_.unique(std::move(id));
            const Vec2 origin{at.x + static_cast<double>(box.x0) * tile.x, at.y + static_cast<double>(box.y0) * tile.y};
            auto g = std::make_unique<Grid>(SceneText::grid_head(id, groups, origin, tile, static_cast<std::size_t>(cols),
                                                                  static_cast<std::size_t>(rows), false));
            // The cells are set on the lane while the layers after this one are converted.
            std::vector<std::pair<const TileBlock*, std::vector<char>>> solid;  // each block, and its palette's solid tiles
            for (const std::size_t k : part) {
                const TileBlock& b = l.blocks[k];
                std::vector<char> solid_tile;  // of each gid of the block's palette
                for (const std::uint32_t gid : b.gids.palette()) solid_tile.push_back(tiles_.solid(gid) ? 1 : 0);
                if (std::find(solid_tile.begin(), solid_tile.end(), 1) != solid_tile.end()) solid.emplace_back(&b, std::move(solid_tile));
            }
            lane_.post([grid = g.get(), solid = std::move(solid), box, cols] {
                for (const auto& [b, solid_tile] : solid)
                    for (std::uint32_t r = 0, i = 0; r < b->height; ++r) {
                        const auto first = static_cast<std::size_t>((b->y - box.y0 + r) * static_cast<std::int64_t>(cols) + (b->x - box.x0));
                        for (std::uint32_t c = 0; c < b->width; ++c, ++i)
                            if (solid_tile[b->gids.index(i)]) grid->bits[(first + c) / 64] |= std::uint64_t{1} << ((first + c) % 64);
                    }
            });
            grids_.push_back(std::move(g));
            MapSource src;
            src.what = "layer '" + path + "'";
            src.json_path = l.where.json_path;
            src.line = l.where.line;
            src.column = l.where.column;
            result_.grid_sources.push_back(std::move(src));
            result_.sources.add(result_.sources.grids, line_of(l.where), column_of(l.where), path);
            if (std::vector<std::string> ignore = ignored_rules(l.properties); !ignore.empty())
                result_.grid_ignores.push_back(Ignore{result_.grid_sources.size() - 1, std::move(ignore)});
        }
        if (tiles_.any()) tile_shapes(l, at, path);
    }


    // What Tiled opens, collide reads: a gid naming no tile is a solid cell, said once a layer.
    void warn_undefined_gids(const Layer& l, const std::string& path) {
        std::uint64_t count = 0;
        std::string first;
        for (const TileBlock& b : l.blocks) {
            bool all_defined = true;  // the block's distinct gids first: in most layers all are
            for (const std::uint32_t raw : b.gids.palette())
                all_defined = all_defined && ((raw & kGidMask) == 0 || tiles_.defined(raw & kGidMask));
            if (all_defined) continue;
            for (std::size_t k = 0; k < b.gids.size(); ++k) {
                const std::uint32_t gid = b.gids[k] & kGidMask;
                if (gid == 0 || tiles_.defined(gid)) continue;
                if (count++ == 0)
                    first = "(" + std::to_string(b.x + static_cast<std::int64_t>(k % b.width)) + ", " +
                            std::to_string(b.y + static_cast<std::int64_t>(k / b.width)) + "), gid " + std::to_string(gid);
            }
        }
        if (count == 0) return;
        warn("layer '" + path + "': " +
                 (count == 1 ? "tile " + first + " names" : std::to_string(count) + " tiles, the first " + first + ", name") +
                 " no tile of its tileset: read as solid",
             l.data_where, path);
    }

    // One compound per placed tile whose tile has collision shapes.
    void tile_shapes(const Layer& l, Vec2 at, const std::string& path) {
        for (const TileBlock& b : l.blocks) {
            // Asked once a tile of the block's palette, not once a cell.
            std::vector<const CollisionTiles::Entry*> hits;
            for (const std::uint32_t raw : b.gids.palette()) hits.push_back(tiles_.find(raw & kGidMask));
            if (std::none_of(hits.begin(), hits.end(), [](const auto* hit) { return hit != nullptr; }))
                continue;  // no tile of the block has collision shapes
            for (std::size_t k = 0; k < b.gids.size(); ++k) {
                const CollisionTiles::Entry* hit = hits[b.gids.index(k)];
                if (!hit) continue;
                const std::uint32_t raw = b.gids[k];
                const Tileset* set = hit->set;
                const Tile* tile = hit->tile;
                const std::int64_t col = b.x + static_cast<std::int64_t>(k % b.width);
                const std::int64_t row = b.y + static_cast<std::int64_t>(k / b.width);
                const Vec2 size = tile_size(*set, tile);
                Placement p;
                p.flips = raw & (kFlipH | kFlipV | kFlipD);
                p.box = (p.flips & kFlipD) ? Vec2{size.y, size.x} : size;
                // Drawn from the bottom-left of its cell, moved by the tileset's tile offset.
                p.at = Vec2{at.x + static_cast<double>(col) * map_.tilewidth + set->tileoffset.x,
                            at.y + static_cast<double>(row + 1) * map_.tileheight - p.box.y + set->tileoffset.y};
                const std::string id = names_.unique(path + "@" + std::to_string(col) + "," + std::to_string(row));
                std::vector<std::string> groups;
                add_group(groups, path);
                add_group(groups, "tile-collision");
                add_group(groups, tile->cls);
                MapSource src;
                src.what = "tile '" + id + "' in layer '" + path + "'";
                src.json_path = l.where.json_path;
                src.line = l.where.line;
                src.column = l.where.column;
                src.source_pointer = l.data_where.json_path;
                result_.sources.add_tile(line_of(l.data_where), column_of(l.data_where), path, col, row);
                ignore_ = ignored_rules(l.properties);
                add_ignores(ignore_, ignored_rules(tile->properties));
                compound(id, *tile, *set, p, groups, std::move(src));
            }
        }
    }

    // The tile's collision shapes as one compound. An error in a part is the tileset's, at
    // the shape (MapImport::tiles, one entry per tile however often it is placed); `src` says
    // where the tile is placed, and follows in its message.
    void compound(const std::string& id, const Tile& tile, const Tileset& set, const Placement& p,
                  const std::vector<std::string>& groups, MapSource src) {
        out_->begin_shape(id, "compound");
        out_->begin_parts();
        for (const Object& o : tile.shapes)
            if (can_be_part(o)) write_part(*out_, o, p);
        src.tile = tile_source(tile, set);
        out_->end_parts();
        out_->end_shape(groups, ignore_);
        result_.shape_sources.push_back(std::move(src));
    }

    void object_layer(const Layer& l, Vec2 at, const std::string& path) {
        std::vector<std::string> layer_groups;
        add_group(layer_groups, path);
        const std::vector<std::string> layer_ignore = ignored_rules(l.properties);
        std::vector<std::string> ids;
        for (std::size_t k = 0; k < l.objects.size(); ++k) {
            if (k % kIdBatch == 0) {
                // The ids of the next objects made unique together (see Names::make_unique).
                ids.clear();
                for (std::size_t j = k; j < std::min(k + kIdBatch, l.objects.size()); ++j)
                    ids.push_back(names_.object_id(l.objects[j]));
                names_.make_unique(ids);
            }
            const Object& o = l.objects[k];
            const std::string& id = ids[k % kIdBatch];
            const std::string what = "object '" + (o.name.empty() ? "" : o.name) + "#" + std::to_string(o.id) +
                                     "' in layer '" + path + "'";
            if (o.kind == ObjectKind::Text) {
                warn(what + " is a text object: skipped", o.where, path, o.id);
                continue;
            }
            std::vector<std::string> groups = layer_groups;
            const Tile* tile = nullptr;
            if (o.kind == ObjectKind::Tile && !o.tile.defined)
                warn(what + ": gid " + std::to_string(o.tile.gid) + " names no tile of its tileset: read as its rectangle",
                     o.where, path, o.id);
            else if (o.kind == ObjectKind::Tile)
                tile = find_tile(*o.tile.tileset, o.tile.id);
            add_group(groups, !o.cls.empty() || !tile ? o.cls : tile->cls);
            add_listed_groups(groups, l.properties);
            add_listed_groups(groups, o.properties);
            MapSource src;
            src.what = what;
            src.json_path = o.where.json_path;
            src.line = o.where.line;
            src.column = o.where.column;
            result_.sources.add(result_.sources.shapes, line_of(o.where), column_of(o.where), path, o.id);
            // SPEC §3.1: the object's collide_ignore, its layer's and, for a tile object, its tile's.
            ignore_ = ignored_rules(o.properties);
            add_ignores(ignore_, layer_ignore);
            if (tile) add_ignores(ignore_, ignored_rules(tile->properties));
            if (o.kind == ObjectKind::Tile) {
                tile_object(o, tile, at, id, groups, std::move(src));
                continue;
            }
            Placement p;
            p.at = at;
            out_->begin_shape(id, scene_type(o, p));
            write_fields(*out_, o, p);
            out_->end_shape(groups, ignore_);
            result_.shape_sources.push_back(std::move(src));
        }
    }

    // A tile object: its tile's collision shapes, or else its rectangle (of its own size,
    // anchored as its tileset says, bottom-left without one, when its gid names no tile).
    void tile_object(const Object& o, const Tile* tile, Vec2 at, const std::string& id, const std::vector<std::string>& groups,
                     MapSource src) {
        static const Tileset kNoTileset;
        const Tileset& set = o.tile.tileset ? *o.tile.tileset : kNoTileset;
        const Vec2 size = tile_size(set, tile);
        const double w = o.width > 0 ? o.width : size.x, h = o.height > 0 ? o.height : size.y;
        const Vec2 a = anchor(set.alignment);
        Placement p;
        p.at = Vec2{at.x + o.x, at.y + o.y};
        p.angle = o.rotation;
        cos_sin(p.angle, p.c, p.s);
        // The tileset's tile offset moves the tile in the object's own frame: scaled to the
        // object's size and turned with it, as Tiled draws it.
        p.shift = Vec2{-(a.x * w) + set.tileoffset.x * (size.x > 0 ? w / size.x : 1),
                       -(a.y * h) + set.tileoffset.y * (size.y > 0 ? h / size.y : 1)};
        p.flips = o.tile.flips;
        p.box = (p.flips & kFlipD) ? Vec2{size.y, size.x} : size;
        if (tile && std::any_of(tile->shapes.begin(), tile->shapes.end(), can_be_part)) {
            p.scale = Vec2{p.box.x > 0 ? w / p.box.x : 1, p.box.y > 0 ? h / p.box.y : 1};
            compound(id, *tile, set, p, groups, std::move(src));
            return;
        }
        Object rect;
        rect.kind = ObjectKind::Rect;
        rect.width = w;
        rect.height = h;
        p.flips = 0;  // a rectangle flipped is the same rectangle
        out_->begin_shape(id, scene_type(rect, p));
        write_fields(*out_, rect, p);
        out_->end_shape(groups, ignore_);
        result_.shape_sources.push_back(std::move(src));
    }

    // A warning about something written at `w` in layer `path` (an object when `object`).
    void warn(const std::string& message, const Where& w, const std::string& path, std::uint64_t object = 0) {
        result_.warnings.push_back(file_ + ": " + message);
        MapSource src;
        src.what = message;
        src.json_path = w.json_path;
        src.line = w.line;
        src.column = w.column;
        result_.warning_sources.push_back(std::move(src));
        result_.sources.add(result_.sources.warnings, line_of(w), column_of(w), path, object);
    }

    // The line and byte column of `w` for sources (SPEC §3.1); TMJ's are found later.
    static std::uint32_t line_of(const Where& w) { return static_cast<std::uint32_t>(std::max(w.line, 0)); }
    static std::uint32_t column_of(const Where& w) { return static_cast<std::uint32_t>(std::max(w.byte_column, 0)); }

    std::uint32_t tile_source(const Tile& tile, const Tileset& set) {
        const auto [it, added] = tile_sources_.emplace(&tile, static_cast<std::uint32_t>(result_.tiles.size()));
        if (!added) return it->second;
        TileSource t;
        t.what = "tile " + std::to_string(tile.id) + " of tileset '" + set.name + "'";
        for (std::size_t k = 0; k < tile.shapes.size(); ++k) {
            const Object& o = tile.shapes[k];
            if (can_be_part(o))
                t.parts.push_back(TileShapeSource{o.where.file.empty() ? file_ : o.where.file, o.where.json_path, o.where.line,
                                                  o.where.column, k});
        }
        result_.tiles.push_back(std::move(t));
        return it->second;
    }

    const Map& map_;
    const std::string& file_;
    SceneOut out_;
    MapImport result_;
    Names names_;
    CollisionTiles tiles_;
    std::unordered_map<const Tile*, std::uint32_t> tile_sources_;  ///< index in result_.tiles
    std::vector<std::unique_ptr<Grid>> grids_;  ///< the tile layers', in order, their cells set on lane_
    std::vector<std::string> ignore_;           ///< the rules the shape being written ignores
    Lane lane_;  ///< last: done with grids_ before they go
};

}  // namespace

MapImport tiled_scene(const Map& map, const std::string& file, MapBuild build) { return Converter(map, file, build).run(); }

}  // namespace collide::detail::tiled
