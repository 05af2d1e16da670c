// Godot tile maps as grids and compounds (godot_tiles.hpp, SPEC §1.6 "Tile maps").
#include "maps/godot_tiles.hpp"

#include "collide/error.hpp"
#include "collide/text.hpp"
#include "maps/godot_shapes.hpp"
#include "maps/godot_tileset.hpp"
#include "maps/tiled_model.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <optional>
#include <charconv>
#include <map>
#include <tuple>

namespace collide::detail::godot {

namespace {

// The cells of one grid at most: 2^28 (32 MiB of bits).
constexpr std::uint64_t kMaxGridCells = std::uint64_t{1} << 28;
// A cell's alternative id carries the transform flags Godot 4.2 added: these bits.
constexpr unsigned kFlipH = 1u << 12, kFlipV = 1u << 13, kTranspose = 1u << 14;

// A cell as a compound needs it: its place and its alternative's flip and transpose bits.
struct Cell {
    int x, y;
    unsigned flags;  // kFlipH | kFlipV | kTranspose from the alternative id
};

// A layer's tile data: 12-byte records, int16 x, int16 y, u16 source, u16 atlas x, u16 atlas
// y, u16 alternative, little-endian. Read in place: a 4096 x 4096 layer holds millions.
class Records {
public:
    /// The records after the first `skip` bytes of `bytes` (a format number).
    Records(std::string_view bytes, std::size_t skip, const std::string& file, const Value& at, const Node& node) {
        if (bytes.size() < skip || (bytes.size() - skip) % 12 != 0)
            fail(file, at.line, at.column, who(node) + ": tile data of " + std::to_string(bytes.size()) + " bytes is not whole 12-byte cells");
        bytes_ = bytes.substr(skip);
    }
    std::size_t size() const { return bytes_.size() / 12; }
    Cell operator[](std::size_t i) const {
        const char* r = bytes_.data() + 12 * i;
        return Cell{s16(r), s16(r + 2), u16(r + 10) & (kFlipH | kFlipV | kTranspose)};
    }
    int x(std::size_t i) const { return s16(bytes_.data() + 12 * i); }
    int y(std::size_t i) const { return s16(bytes_.data() + 12 * i + 2); }
    bool erased(std::size_t i) const { return u16(bytes_.data() + 12 * i + 4) == 0xFFFF; }
    /// Source, atlas x, atlas y and the alternative without its flags, as one number: the
    /// record's last 8 bytes, little-endian, bits 60-62 (the flags) cleared.
    std::uint64_t tile(std::size_t i) const {
        return little_endian<std::uint64_t>(bytes_.data() + 12 * i + 4) & ~(std::uint64_t{kFlipH | kFlipV | kTranspose} << 48);
    }
    static TileKey tile_key_of(std::uint64_t tile) {
        return TileKey{static_cast<int>(tile & 0xFFFF), static_cast<int>(tile >> 16 & 0xFFFF), static_cast<int>(tile >> 32 & 0xFFFF),
                       static_cast<int>(tile >> 48)};
    }

private:
    // The little-endian number at p, read at once (millions of records are read twice).
    template <class T>
    static T little_endian(const char* p) {
        T v;
        std::memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        T swapped = 0;
        for (std::size_t b = 0; b < sizeof v; ++b) swapped = static_cast<T>(swapped << 8 | (v >> (8 * b) & 0xFF));
        v = swapped;
#endif
        return v;
    }
    static unsigned u16(const char* p) { return little_endian<std::uint16_t>(p); }
    static int s16(const char* p) { return static_cast<int>(static_cast<std::int16_t>(static_cast<std::uint16_t>(u16(p)))); }
    std::string_view bytes_;
};

// A row-major key of a cell, (y, x), that sorts as the rows are written.
std::uint64_t cell_key(int x, int y) {
    return std::uint64_t(static_cast<std::uint32_t>(y + 32768)) << 16 | static_cast<std::uint32_t>(x + 32768);
}

// Cells from (x0, y0) to (x1, y1); empty while x1 < x0.
struct Bounds {
    int x0 = 0, x1 = -1, y0 = 0, y1 = -1;
    bool empty() const { return x1 < x0; }
    void add(int x, int y) {
        if (empty()) x0 = x1 = x, y0 = y1 = y;
        x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
    std::uint64_t cols() const { return static_cast<std::uint64_t>(x1 - x0) + 1; }
    std::uint64_t rows() const { return static_cast<std::uint64_t>(y1 - y0) + 1; }
    bool operator==(const Bounds& o) const { return x0 == o.x0 && x1 == o.x1 && y0 == o.y0 && y1 == o.y1; }
};


// The cells that count, as indices into `cells`: none when every cell is written once
// (the records are read as they are), else the last record of each cell, row by row (a
// cell written twice holds its last tile, as Godot reads it). Erased cells are skipped
// when read. `all` gets the bounds of every record.
std::vector<std::uint32_t> live_cells(const Records& cells, Bounds& all) {
    const std::size_t n = cells.size();
    if (n == 0) return {};
    // Records written row by row, each cell after the one before it, are cells written once.
    bool ascending = true;
    std::uint64_t last = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const int x = cells.x(i), y = cells.y(i);
        all.add(x, y);
        const std::uint64_t key = cell_key(x, y);
        ascending = ascending && (i == 0 || key > last);
        last = key;
    }
    if (ascending) return {};
    const std::uint64_t cols = all.cols(), rows = all.rows();
    const int x0 = all.x0, y0 = all.y0;
    if (cols * rows <= kMaxGridCells) {
        // One bit a cell of the records' bounds: a cell seen twice is the exception.
        std::vector<std::uint64_t> seen((cols * rows + 63) / 64);
        bool twice = false;
        for (std::size_t i = 0; i < n && !twice; ++i) {
            const std::uint64_t b = static_cast<std::uint64_t>(cells.y(i) - y0) * cols + static_cast<std::uint64_t>(cells.x(i) - x0);
            const std::uint64_t bit = std::uint64_t{1} << (b % 64);
            twice = (seen[b / 64] & bit) != 0;
            seen[b / 64] |= bit;
        }
        if (!twice) return {};
    }
    // Sorted as 64-bit keys (row, column, then the order written); the last of each cell kept.
    std::vector<std::uint64_t> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = cell_key(cells.x(i), cells.y(i)) << 32 | i;
    std::sort(keys.begin(), keys.end());
    std::vector<std::uint32_t> order;
    order.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        if (i + 1 == n || keys[i + 1] >> 32 != keys[i] >> 32) order.push_back(static_cast<std::uint32_t>(keys[i]));
    return order;
}


// A tile's polygons on physics layer k, by the tile's number (Records::tile): a level uses a
// few tiles, kept in a small direct-mapped table in front of the TileSet's map.
class Lookup {
public:
    Lookup(const TileSet& set, int k) : set_(set), k_(k) {}
    std::pair<const TileInfo*, const LayerTile*> operator()(std::uint64_t key) {
        if (last_ && last_->key == key) return {last_->tile, last_->layer};  // a run of one tile
        Slot& slot = slots_[(key ^ key >> 29 ^ key >> 45) % kSlots];
        if (!slot.used || slot.key != key) {
            slot = Slot{key, true, nullptr, nullptr};
            const auto t = set_.tiles.find(Records::tile_key_of(key));
            if (t != set_.tiles.end()) {
                const auto l = t->second.layers.find(k_);
                if (l != t->second.layers.end() && !l->second.polygons.empty()) slot.tile = &t->second, slot.layer = &l->second;
            }
        }
        last_ = &slot;
        return {slot.tile, slot.layer};
    }

private:
    static constexpr std::size_t kSlots = 256;
    struct Slot {
        std::uint64_t key = 0;
        bool used = false;
        const TileInfo* tile = nullptr;
        const LayerTile* layer = nullptr;
    };
    const TileSet& set_;
    int k_;
    Slot slots_[kSlots];
    const Slot* last_ = nullptr;
};


// Every cell of `order` (all of `cells` when empty) given to `visit(index)`.
template <class Visit>
void each(const Records& cells, const std::vector<std::uint32_t>& order, Visit&& visit) {
    if (order.empty()) {
        for (std::size_t i = 0; i < cells.size(); ++i)
            if (!cells.erased(i)) visit(i);
    } else {
        for (const std::uint32_t i : order)
            if (!cells.erased(i)) visit(i);
    }
}

// One physics layer's cells sorted out: the solid cells' bounds and bits (over those bounds,
// row-major), and the cells that become compounds, row by row (cell_key << 32 | record).
struct PhysicsCells {
    Bounds solid;
    std::vector<std::uint64_t> bits;
    std::vector<std::uint64_t> shaped;
};

// A layer's cells sorted out for each physics layer of `set`; `grid_ok` when the layer's
// transform lets full cells form a grid. Touches nothing but its arguments (a TileMapLayer's
// cells are sorted out on a lane while the bodies after it are read). Throws collide::Error
// naming `node` when the solid cells span more than a grid holds.
std::vector<PhysicsCells> sort_out(const TileSet& set, bool grid_ok, const Records& cells, const Node& node) {
    Bounds all;
    const std::vector<std::uint32_t> order = live_cells(cells, all);
    std::vector<PhysicsCells> out(static_cast<std::size_t>(set.physics_layers));
    for (int k = 0; k < set.physics_layers; ++k) {
        PhysicsCells& pc = out[static_cast<std::size_t>(k)];
        Lookup lookup(set, k);
        // One pass: the solid cells' bounds, their bits over the bounds of all cells (when
        // those fit in a grid: most layers' solid cells span them), and the cells that become
        // compounds.
        const bool direct = grid_ok && all.cols() * all.rows() <= kMaxGridCells;
        std::vector<std::uint64_t> bits(direct ? (all.cols() * all.rows() + 63) / 64 : 0);
        const std::size_t cols = direct ? all.cols() : 0;
        Bounds& solid = pc.solid;
        each(cells, order, [&](std::size_t i) {
            const LayerTile* layer = lookup(cells.tile(i)).second;
            if (!layer) return;
            const bool in_grid = layer->full && grid_ok;
            if (in_grid) {
                const int x = cells.x(i), y = cells.y(i);
                solid.add(x, y);
                if (direct) {
                    const std::size_t b = static_cast<std::size_t>(y - all.y0) * cols + static_cast<std::size_t>(x - all.x0);
                    bits[b / 64] |= std::uint64_t{1} << (b % 64);
                }
            }
            if (!in_grid || layer->one_way) pc.shaped.push_back(cell_key(cells.x(i), cells.y(i)) << 32 | i);
        });
        std::sort(pc.shaped.begin(), pc.shaped.end());
        if (solid.empty()) continue;
        const std::uint64_t gcols = solid.cols(), grows = solid.rows();
        if (gcols * grows > kMaxGridCells)
            fail(node.file->path, node.line, node.column, who(node) + ": its solid cells span " + std::to_string(gcols) + " x " +
                                                               std::to_string(grows) + " cells, more than one grid holds (2^28)");
        if (direct && solid == all) {
            pc.bits = std::move(bits);
            continue;
        }
        // Otherwise a second pass sets them over the solid cells' bounds.
        pc.bits.assign((gcols * grows + 63) / 64, 0);
        each(cells, order, [&](std::size_t i) {
            const LayerTile* layer = lookup(cells.tile(i)).second;
            if (!layer || !layer->full) return;
            const std::size_t b = static_cast<std::size_t>(cells.y(i) - solid.y0) * gcols + static_cast<std::size_t>(cells.x(i) - solid.x0);
            pc.bits[b / 64] |= std::uint64_t{1} << (b % 64);
        });
    }
    return out;
}

// Whether a layer under transform `g` keeps its full cells as a grid: a translation plus a
// positive scale.
bool grid_ok(const Affine& g) { return g.x.y == 0 && g.y.x == 0 && g.x.x > 0 && g.y.y > 0; }

// One layer of tiles (a TileMapLayer, or one layer of a TileMap) written out.
class LayerWriter {
public:
    LayerWriter(const Node& node, const Affine& g, const TileSet& set, SceneText& out, MapImport& imp, Ids& ids)
        : node_(node), g_(g), set_(set), out_(out), imp_(imp), ids_(ids) {}

    void write(const std::string& path, const Records& cells, std::vector<PhysicsCells> sorted, std::bitset<32>& layers,
               std::bitset<32>& masks) {
        for (int k = 0; k < set_.physics_layers; ++k) {
            const auto it = set_.bits.find(k);
            const std::bitset<32> layer = it == set_.bits.end() ? std::bitset<32>(1) : it->second.first;
            const std::bitset<32> mask = it == set_.bits.end() ? std::bitset<32>(1) : it->second.second;
            layers |= layer;
            masks |= mask;
            const std::string id = set_.physics_layers > 1 ? path + "#p" + std::to_string(k) : path;
            physics_layer(id, k, cells, sorted[static_cast<std::size_t>(k)], node_groups(node_, layer, mask));
        }
    }

private:
    void physics_layer(const std::string& id, int k, const Records& cells, PhysicsCells& pc, const std::vector<std::string>& groups) {
        if (!pc.solid.empty()) {
            const Vec2 ts = set_.tile_size;
            Grid g = SceneText::grid_head(ids_.unique(id), groups, g_.point(Vec2{pc.solid.x0 * ts.x, pc.solid.y0 * ts.y}),
                                          Vec2{ts.x * g_.x.x, ts.y * g_.y.y}, static_cast<std::size_t>(pc.solid.cols()),
                                          static_cast<std::size_t>(pc.solid.rows()), false);
            g.bits = std::move(pc.bits);
            add_grid(std::move(g));
        }
        std::vector<std::string> tile_groups = groups;
        add_group(tile_groups, "tile-collision");
        Lookup lookup(set_, k);
        for (const std::uint64_t s : pc.shaped) {
            const std::size_t i = static_cast<std::uint32_t>(s);
            const auto found = lookup(cells.tile(i));
            compound(id, cells[i], *found.first, *found.second, tile_groups);
        }
    }

    void add_grid(Grid g) {
        out_.add(std::move(g));
        imp_.grid_sources.push_back(MapSource{who(node_), "", static_cast<int>(node_.line), static_cast<int>(node_.column), MapSource::kNoTile, {}});
        imp_.sources.add(imp_.sources.grids, node_.line, node_.column, node_.path);
        if (!ignore_.empty()) imp_.grid_ignores.push_back(Ignore{imp_.grid_sources.size() - 1, ignore_});
    }

    void compound(const std::string& id, const Cell& c, const TileInfo& tile, const LayerTile& layer,
                  const std::vector<std::string>& groups) {
        const bool fh = tile.flip_h != ((c.flags & kFlipH) != 0), fv = tile.flip_v != ((c.flags & kFlipV) != 0),
                   tr = tile.transpose != ((c.flags & kTranspose) != 0);
        const Vec2 ts = set_.tile_size;
        const Vec2 centre{(c.x + 0.5) * ts.x, (c.y + 0.5) * ts.y};
        std::vector<Part> parts, one_way;
        for (const Polygon& p : layer.polygons) {
            if (p.points.size() < 3) continue;
            Part part;
            part.type = "polygon";
            part.points.reserve(p.points.size());
            for (const Vec2& v : p.points) {
                const Vec2 f = flipped(v, fh, fv, tr);
                part.points.push_back(g_.point(Vec2{centre.x + f.x, centre.y + f.y}));
            }
            (p.one_way ? one_way : parts).push_back(std::move(part));
        }
        const std::string at = id + "@" + std::to_string(c.x) + "," + std::to_string(c.y);
        if (!(layer.full && grid_ok(g_)) && !parts.empty()) shape(at, parts, groups, c);
        if (!one_way.empty()) {
            std::vector<std::string> g = groups;
            add_group(g, "one-way");
            shape(at + "#one-way", one_way, g, c);
        }
    }

    void shape(const std::string& id, const std::vector<Part>& parts, const std::vector<std::string>& groups, const Cell& c) {
        require_finite(node_, parts);
        out_.begin_shape(ids_.unique(id), "compound");
        out_.begin_parts();
        for (const Part& p : parts) {
            out_.begin_part(p.type);
            write_part_fields(out_, p);
            out_.end_part();
        }
        out_.end_parts();
        out_.end_shape(groups, ignore_);
        imp_.shape_sources.push_back(MapSource{who(node_), "", static_cast<int>(node_.line), static_cast<int>(node_.column), MapSource::kNoTile, {}});
        imp_.sources.add_tile(node_.line, node_.column, node_.path, c.x, c.y);
    }

public:
    std::vector<std::string> ignore_;  // the layer node's metadata/collide_ignore

private:
    const Node& node_;
    const Affine& g_;
    const TileSet& set_;
    SceneText& out_;
    MapImport& imp_;
    Ids& ids_;
};

// A TileMap's layer_N/tile_data: 3 ints a cell, the same 12 bytes little-endian.
std::string int_cells(const std::string& file, const Value& v, const Node& node) {
    if (!v.is_call("PackedInt32Array")) fail(file, v.line, v.column, who(node) + ": tile_data must be a PackedInt32Array");
    std::string bytes;
    bytes.reserve(v.items().size() * 4);
    for (const Value& i : v.items()) {
        if (i.kind != Value::Kind::Int) fail(file, i.line, i.column, who(node) + ": tile_data holds " + describe(i));
        const auto u = static_cast<std::uint32_t>(i.integer);
        for (int b = 0; b < 4; ++b) bytes += static_cast<char>(u >> (8 * b) & 0xFF);
    }
    return bytes;
}

// A disabled layer: skipped with a warning (SPEC §1.6).
void disabled(MapImport& imp, const Node& node, const std::string& which) {
    imp.warnings.push_back(imp.name + ": " + who(node) + ": " + which + " is disabled, skipped");
    imp.warning_sources.push_back(MapSource{imp.warnings.back(), "", static_cast<int>(node.line), static_cast<int>(node.column), MapSource::kNoTile, {}});
    imp.sources.add(imp.sources.warnings, node.line, node.column, node.path);
}

}  // namespace

Vec2 flipped(Vec2 p, bool flip_h, bool flip_v, bool transpose) {
    if (transpose) std::swap(p.x, p.y);
    if (flip_h) p.x = -p.x;
    if (flip_v) p.y = -p.y;
    return p;
}

struct TileLayers::State {
    const Tree& tree;
    std::size_t index;
    std::optional<TileSet> set;       // none: the node has no TileSet, nothing collides
    std::vector<std::string> ignore;  // the node's metadata/collide_ignore
    bool disabled = false;            // a TileMapLayer not enabled
    const Prop* data = nullptr;       // a TileMapLayer's tile_map_data
    // What prepare() made of a TileMapLayer's data, or the error it met.
    std::string bytes;
    std::optional<Records> records;
    std::vector<PhysicsCells> sorted;
    std::exception_ptr error;

    const Node& node() const { return tree.nodes[index]; }
};

TileLayers::TileLayers(Files& files, const Tree& tree, std::size_t index) : state_(std::make_unique<State>(State{tree, index, {}, {}, false, nullptr, {}, {}, {}, {}})) {
    State& st = *state_;
    const Node& node = st.node();
    const Prop* set_prop = node.prop("tile_set");
    if (!set_prop || set_prop->value->kind == Value::Kind::Nil) return;  // no TileSet: nothing collides
    const Resource res = resource(files, *set_prop->from, *set_prop->value);
    if (!res.section) fail(set_prop->from->path, set_prop->value->line, set_prop->value->column, who(node) + ": tile_set must be a TileSet resource");
    st.set = read_tile_set(files, node, res);
    if (const Prop* ignore = node.prop("metadata/collide_ignore"); ignore && ignore->value->kind == Value::Kind::String)
        st.ignore = tiled::ignored_rules({{"collide_ignore", std::string(ignore->value->text())}});
    if (node.type == "TileMapLayer") {
        st.disabled = !bool_prop(node, node.prop("enabled"), true);
        if (!st.disabled) st.data = node.prop("tile_map_data");
    }
}

TileLayers::~TileLayers() = default;

void TileLayers::prepare() noexcept {
    State& st = *state_;
    if (!st.set || !st.data) return;
    try {
        const Node& node = st.node();
        const Prop* data = st.data;
        st.bytes = packed_bytes(data->from->path, *data->value, &data->from->doc);
        const std::string& bytes = st.bytes;
        if (bytes.size() >= 2 && (bytes[0] != 0 || bytes[1] != 0))
            fail(data->from->path, data->value->line, data->value->column, who(node) + ": tile_map_data of an unknown format " +
                                                                                std::to_string(static_cast<unsigned char>(bytes[0]) | static_cast<unsigned char>(bytes[1]) << 8));
        st.records.emplace(bytes, bytes.empty() ? 0 : 2, data->from->path, *data->value, node);
        st.sorted = sort_out(*st.set, grid_ok(st.tree.globals[st.index]), *st.records, node);
    } catch (...) {
        st.error = std::current_exception();
    }
}

void TileLayers::write(SceneText& out, MapImport& imp, Ids& ids, std::bitset<32>& layers, std::bitset<32>& masks) {
    State& st = *state_;
    if (!st.set) return;
    const Node& node = st.node();
    if (st.disabled) {
        disabled(imp, node, "the layer");
        return;
    }
    if (st.error) std::rethrow_exception(st.error);
    LayerWriter writer(node, st.tree.globals[st.index], *st.set, out, imp, ids);
    writer.ignore_ = st.ignore;
    if (node.type == "TileMapLayer") {
        if (st.records) writer.write(std::string(node.path), *st.records, std::move(st.sorted), layers, masks);
        return;
    }
    // An older TileMap: layer_N/tile_data for each N, named layer_N/name.
    int count = 0;
    for (const Prop& p : node.props) {
        int k = 0;
        std::string rest;
        if (layer_key(std::string(p.key), "layer_", k, rest)) count = std::max(count, k + 1);
    }
    for (int k = 0; k < count; ++k) {
        const std::string prefix = "layer_" + std::to_string(k) + "/";
        const Prop* data = node.prop(prefix + "tile_data");
        if (!data) continue;
        if (!bool_prop(node, node.prop(prefix + "enabled"), true)) {
            disabled(imp, node, "layer " + std::to_string(k));
            continue;
        }
        const Prop* name = node.prop(prefix + "name");
        const std::string label(name && name->value->kind == Value::Kind::String ? name->value->text() : std::string_view());
        const std::string path = std::string(node.path) + (count == 1 ? std::string() : "/" + (label.empty() ? "#" + std::to_string(k) : label));
        const std::string bytes = int_cells(data->from->path, *data->value, node);
        const Records records(bytes, 0, data->from->path, *data->value, node);
        writer.write(path, records, sort_out(*st.set, grid_ok(st.tree.globals[st.index]), records, node), layers, masks);
    }
}

}  // namespace collide::detail::godot
