// Reading TMX maps (tiled_model.hpp): the map, its tilesets and its layers. The format is
// Tiled's "TMX Map Format" (https://doc.mapeditor.org/en/stable/reference/tmx-map-format/).
// Objects and templates are in tiled_tmx_objects.cpp.
//
// Hostile input: every number is parsed whole and range-checked, a tile layer's declared
// size is checked against kMaxMapCells before anything is decoded or allocated for it, and
// group layers nest at most kMaxDepth deep (the reader recurses on them).
#include "maps/tiled_tmx.hpp"

#include "maps/layer_data.hpp"
#include "support/json_locate.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>

namespace collide::detail::tiled {

namespace tmx {

namespace {

constexpr int kMaxDepth = 100;
constexpr std::int64_t kU32 = 0xFFFFFFFFll;

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && std::strchr(" \t\r\n", s.front())) s.remove_prefix(1);
    while (!s.empty() && std::strchr(" \t\r\n", s.back())) s.remove_suffix(1);
    return s;
}

std::string layer_what(const Layer& l) { return "layer '" + l.name + "'"; }

std::string too_many() { return "more than the " + std::to_string(kMaxMapCells) + " collide reads"; }

// `<tile gid>` children, as many as `count`.
Gids xml_gids(const XmlFile& f, pugi::xml_node data, std::uint64_t count,
                                    const std::string& what) {
    Gids gids;
    for (pugi::xml_node t : data.children("tile")) {
        if (gids.size() == count)
            fail(where_of(f, t), what + ": the data holds more than the " + std::to_string(count) +
                                     " tiles the layer declares");
        gids.push_back(static_cast<std::uint32_t>(whole_attr(f, t, "gid", 0, 0, kU32, what)));
    }
    if (gids.size() != count)
        fail(where_of(f, data), what + ": the data holds " + std::to_string(gids.size()) +
                                    " tiles, the layer declares " + std::to_string(count));
    return gids;
}

Alignment alignment(const XmlFile& f, pugi::xml_node ts, const std::string& what) {
    const pugi::xml_attribute a = ts.attribute("objectalignment");
    if (!a) return Alignment::Unspecified;
    if (const std::optional<Alignment> named = alignment_named(a.value())) return *named;
    fail(where_of(f, ts), what + ": objectalignment is " + quoted(a.value()) +
                              ", not one of unspecified, topleft, top, topright, left, center, right, "
                              "bottomleft, bottom, bottomright");
}

}  // namespace

Where where_of(const XmlFile& f, pugi::xml_node n) {
    const std::ptrdiff_t name = n.offset_debug();  // the element's name, just after its '<'
    if (name <= 0 || static_cast<std::size_t>(name) > f.text.size()) return {f.path, "", 0, 0};
    const auto at = static_cast<std::size_t>(name - 1);
    // A map may hold 100,000 objects: their lines are counted on from the last one's
    // (LineCounter), and their columns in characters on that line only.
    const std::string_view t = f.text;
    const TextPos lc = f.lines.at(at);
    const auto line = static_cast<std::size_t>(lc.line);
    const std::size_t start = at - static_cast<std::size_t>(lc.column - 1);
    const TextPos p = position_of(t.substr(start, at - start), at - start);
    return {f.path, "", static_cast<int>(line), p.column, static_cast<int>(at - start + 1)};
}

void fail(const Where& w, std::string message) { throw Error(w.file, "", std::move(message), w.line, w.column); }

std::string quoted(std::string_view value) {
    constexpr std::size_t kMax = 40;
    if (value.size() <= kMax) return "'" + std::string(value) + "'";
    return "'" + std::string(value.substr(0, kMax)) + "...'";
}

double real_attr(const XmlFile& f, pugi::xml_node n, const char* name, double fallback, const What& what) {
    return real_value(f, n, n.attribute(name), fallback, what);
}

double real_value(const XmlFile& f, pugi::xml_node n, pugi::xml_attribute a, double fallback, const What& what) {
    if (!a) return fallback;
    const std::string_view s = trimmed(a.value());
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ptr != s.data() + s.size() || (r.ec != std::errc() && r.ec != std::errc::result_out_of_range))
        fail(where_of(f, n), what.str() + ": " + a.name() + " is " + quoted(a.value()) + ", not a number");
    if (r.ec != std::errc() || !std::isfinite(v))
        fail(where_of(f, n), what.str() + ": " + a.name() + " is " + quoted(a.value()) + ", not a finite number");
    return v;
}

std::int64_t whole_attr(const XmlFile& f, pugi::xml_node n, const char* name, std::int64_t fallback, std::int64_t lo,
                        std::int64_t hi, const What& what) {
    return whole_value(f, n, n.attribute(name), fallback, lo, hi, what);
}

std::int64_t whole_value(const XmlFile& f, pugi::xml_node n, pugi::xml_attribute a, std::int64_t fallback,
                         std::int64_t lo, std::int64_t hi, const What& what) {
    if (!a) return fallback;
    const std::string_view s = trimmed(a.value());
    std::int64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || v < lo || v > hi)
        fail(where_of(f, n), what.str() + ": " + a.name() + " is " + quoted(a.value()) + ", not a whole number from " +
                                 std::to_string(lo) + " to " + std::to_string(hi));
    return v;
}

void parse_xml(XmlFile& f) {
    const pugi::xml_parse_result r = f.doc.load_buffer(f.text.data(), f.text.size(), pugi::parse_default);
    if (!r) {
        const TextPos p = position_of(f.text, static_cast<std::size_t>(std::max<std::ptrdiff_t>(r.offset, 0)));
        throw Error(f.path, "", std::string("not well-formed XML: ") + r.description(), p.line, p.column);
    }
}

std::string Reader::load(const XmlFile& f, pugi::xml_node n, const char* kind, const std::string& source,
                         const std::string& resolved) {
    const std::string what = std::string(kind) + " " + quoted(source);
    if (loading_.count(resolved)) fail(where_of(f, n), what + " names a file that names it again");
    try {
        return load_(resolved);
    } catch (const Error& e) {
        fail(where_of(f, n), what + ": " + e.message());
    }
}

std::shared_ptr<const Tileset> Reader::tileset_ref(const XmlFile& f, pugi::xml_node ts) {
    const pugi::xml_attribute source = ts.attribute("source");
    const std::string what = "tileset " + quoted(source ? source.value() : ts.attribute("name").value());
    if (!ts.attribute("firstgid")) fail(where_of(f, ts), what + " has no firstgid");
    const auto firstgid = static_cast<std::uint32_t>(whole_attr(f, ts, "firstgid", 1, 1, kGidMask, what));
    if (!source) {
        Tileset t = read_tileset(f, ts);
        t.firstgid = firstgid;
        return std::make_shared<const Tileset>(std::move(t));
    }
    const std::string resolved = resolve_path(f.path, source.value());
    const auto key = std::make_pair(resolved, firstgid);
    if (const auto hit = tilesets_.find(key); hit != tilesets_.end()) return hit->second;
    auto file = tileset_files_.find(resolved);
    if (file == tileset_files_.end()) {
        const std::string text = load(f, ts, "tileset", source.value(), resolved);
        loading_.insert(resolved);
        Tileset t = json_tileset(resolved) ? read_tsj_tileset(resolved, text, load_) : tileset_file(resolved, text);
        loading_.erase(resolved);
        file = tileset_files_.emplace(resolved, std::move(t)).first;
    }
    Tileset t = file->second;
    t.firstgid = firstgid;
    return tilesets_[key] = std::make_shared<const Tileset>(std::move(t));
}

Tileset Reader::tileset_file(const std::string& path, std::string_view text) {
    XmlFile tsx{path, text};
    parse_xml(tsx);
    const pugi::xml_node root = tsx.doc.document_element();
    if (std::strcmp(root.name(), "tileset") != 0)
        fail(where_of(tsx, root), "the root element is <" + std::string(root.name()) + ">, not <tileset>");
    return read_tileset(tsx, root);
}

Tileset Reader::read_tileset(const XmlFile& f, pugi::xml_node ts) {
    Tileset t;
    t.name = ts.attribute("name").value();
    t.where = where_of(f, ts);
    const std::string what = "tileset " + quoted(t.name);
    t.tilewidth = static_cast<double>(whole_attr(f, ts, "tilewidth", 0, 0, kU32, what));
    t.tileheight = static_cast<double>(whole_attr(f, ts, "tileheight", 0, 0, kU32, what));
    t.tilecount = static_cast<std::uint32_t>(whole_attr(f, ts, "tilecount", 0, 0, kU32, what));
    // Tiled writes columns="0" and no <image> of its own for an image collection.
    t.image_collection = !ts.child("image") && ts.attribute("columns") && whole_attr(f, ts, "columns", 0, 0, kU32, what) == 0;
    t.alignment = alignment(f, ts, what);
    if (const pugi::xml_node off = ts.child("tileoffset"))
        t.tileoffset = {real_attr(f, off, "x", 0, what), real_attr(f, off, "y", 0, what)};
    for (const pugi::xml_node n : ts.children("tile")) {
        Tile tile;
        tile.id = static_cast<std::uint32_t>(whole_attr(f, n, "id", 0, 0, kU32, what));
        tile.cls = n.attribute(n.attribute("class") ? "class" : "type").value();
        const std::string tile_what = "tile " + std::to_string(tile.id) + " of " + what;
        bool image = false;
        if (const pugi::xml_node img = n.child("image")) {
            image = true;
            tile.width = real_attr(f, img, "width", 0, tile_what);
            tile.height = real_attr(f, img, "height", 0, tile_what);
        }
        if (const pugi::xml_node group = n.child("objectgroup"))
            for (const pugi::xml_node o : group.children("object"))
                tile.shapes.push_back(read_object(f, o, {}, " in " + tile_what));
        read_properties(n, tile.properties);
        if (!tile.cls.empty() || image || !tile.shapes.empty() || !ignored_rules(tile.properties).empty())
            t.tiles.push_back(std::move(tile));
    }
    std::stable_sort(t.tiles.begin(), t.tiles.end(), [](const Tile& a, const Tile& b) { return a.id < b.id; });
    return t;
}

static_assert(std::is_nothrow_move_constructible_v<Layer> && std::is_nothrow_move_constructible_v<TileBlock>,
              "Pending::out points into a layer's blocks, which must not be copied when layers move");
// The lane decodes into Pending::gids, never into the layer itself: a layer read after it may
// fail and take the layers being built with it while the lane still works.

void Reader::decode_block(const XmlFile& f, pugi::xml_node data, pugi::xml_node n, std::uint64_t count,
                          const std::string& what, Gids& out) {
    const pugi::xml_attribute encoding = data.attribute("encoding");
    if (!encoding) {
        out = xml_gids(f, n, count, what);
        return;
    }
    auto p = std::make_unique<Pending>();
    p->text = n.child_value();
    p->encoding = encoding.value();
    p->compression = data.attribute("compression").value();
    p->count = count;
    p->out = &out;
    p->where = where_of(f, n);
    p->what = what;
    Pending& job = *p;
    pending_.push_back(std::move(p));
    const auto decode = [&job] {
        try {
            job.gids = decode_tile_data(job.text, job.encoding, job.compression, job.count);
        } catch (const DataError& e) {
            job.failed = true;
            job.error = e.what();
        } catch (const std::bad_alloc&) {
            job.failed = true;
            job.error = "out of memory";
        }
    };
    if (!lane_) {
        decode();
        finish_decoding(true);
        return;
    }
    lane_->post(decode);
}

void Reader::finish_decoding(bool deliver) {
    if (lane_) lane_->finish();
    const std::vector<std::unique_ptr<Pending>> done = std::move(pending_);
    pending_.clear();
    for (const auto& p : done)
        if (p->failed) fail(p->where, p->what + ": " + p->error);
    if (deliver)
        for (const auto& p : done) *p->out = std::move(p->gids);
}

void Reader::spend(const XmlFile& f, pugi::xml_node n, std::uint64_t cells, const std::string& what) {
    cells_ += cells;
    if (cells_ > kMaxMapCells)
        fail(where_of(f, n), what + ": the map's tile layers declare more than the " + std::to_string(kMaxMapCells) +
                                 " tiles collide reads");
}

void Reader::read_tiles(const XmlFile& f, pugi::xml_node n, Layer& layer, bool infinite) {
    const std::string what = layer_what(layer);
    const pugi::xml_node data = n.child("data");
    if (!data) return;
    layer.data_where = where_of(f, data);
    // The size of a block, checked before anything is decoded or allocated for it.
    const auto size = [&](pugi::xml_node b, const std::string& prefix) {
        const auto w = static_cast<std::uint64_t>(whole_attr(f, b, "width", 0, 0, kU32, what));
        const auto h = static_cast<std::uint64_t>(whole_attr(f, b, "height", 0, 0, kU32, what));
        if (w == 0 || h == 0 || w * h > kMaxMapCells)
            fail(where_of(f, b), prefix + " declares " + std::to_string(w) + " x " + std::to_string(h) + " tiles, " +
                                     (w == 0 || h == 0 ? std::string("none at all") : too_many()));
        return std::make_pair(static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h));
    };
    if (!infinite) {
        const auto [w, h] = size(n, what);
        spend(f, n, std::uint64_t{w} * h, what);
        layer.blocks.push_back({0, 0, w, h, {}});
        decode_block(f, data, data, std::uint64_t{w} * h, what, layer.blocks.back().gids);
        return;
    }
    // Every chunk's size first: a layer that declares too much fails before any is decoded.
    std::uint64_t cells = 0;
    for (const pugi::xml_node c : data.children("chunk")) {
        constexpr std::int64_t kMin = -2147483648ll, kMax = 2147483647ll;
        const std::int64_t x = whole_attr(f, c, "x", 0, kMin, kMax, what), y = whole_attr(f, c, "y", 0, kMin, kMax, what);
        const auto [w, h] = size(c, what + ": the chunk at " + std::to_string(x) + "," + std::to_string(y));
        cells += std::uint64_t{w} * h;
        if (cells > kMaxMapCells)
            fail(where_of(f, c), what + ": its chunks declare more than the " + std::to_string(kMaxMapCells) +
                                     " tiles collide reads");
        layer.blocks.push_back({x, y, w, h, {}});
    }
    spend(f, n, cells, what);
    std::size_t k = 0;
    for (const pugi::xml_node c : data.children("chunk")) {
        TileBlock& b = layer.blocks[k++];
        decode_block(f, data, c, std::uint64_t{b.width} * b.height, what, b.gids);
    }
}

std::vector<Layer> Reader::read_layers(const XmlFile& f, pugi::xml_node parent, const Tilesets& sets, bool infinite,
                                       int depth) {
    std::vector<Layer> layers;
    for (const pugi::xml_node n : parent.children()) {
        Layer l;
        const std::string_view tag = n.name();
        if (tag == "layer") l.kind = Layer::Kind::Tiles;
        else if (tag == "objectgroup") l.kind = Layer::Kind::Objects;
        else if (tag == "group") l.kind = Layer::Kind::Group;
        else if (tag == "imagelayer") l.kind = Layer::Kind::Image;
        else continue;
        l.name = n.attribute("name").value();
        l.cls = n.attribute("class").value();
        l.where = where_of(f, n);
        const std::string what = layer_what(l);
        l.id = static_cast<std::uint32_t>(whole_attr(f, n, "id", 0, 0, kU32, what));
        l.offset = {real_attr(f, n, "offsetx", 0, what), real_attr(f, n, "offsety", 0, what)};
        read_properties(n, l.properties);
        switch (l.kind) {
            case Layer::Kind::Tiles: read_tiles(f, n, l, infinite); break;
            case Layer::Kind::Objects: {
                const auto objects = n.children("object");
                l.objects.reserve(static_cast<std::size_t>(std::distance(objects.begin(), objects.end())));
                const std::string in = " in " + what;
                for (const pugi::xml_node o : objects) l.objects.push_back(read_object(f, o, sets, in));
                break;
            }
            case Layer::Kind::Group:
                if (depth == kMaxDepth) fail(l.where, what + ": groups nest more than " + std::to_string(kMaxDepth) + " deep");
                l.layers = read_layers(f, n, sets, infinite, depth + 1);
                break;
            case Layer::Kind::Image: break;
        }
        layers.push_back(std::move(l));
    }
    return layers;
}

Map Reader::read_map(const std::string& file, std::string_view text) {
    XmlFile f{file, text};
    parse_xml(f);
    Lane lane;  // after f: done with f's text before f goes
    lane_ = &lane;
    map_file_ = &f;
    try {
        Map map = read_parsed_map(f);
        finish_decoding(true);
        lane_ = nullptr;
        return map;
    } catch (...) {
        // A tile layer's data comes before what failed after it: its error is the one to say.
        // The layers being read are gone by now: the decoded gids go nowhere.
        finish_decoding(false);
        lane_ = nullptr;
        throw;
    }
}

Map Reader::read_parsed_map(const XmlFile& f) {
    const pugi::xml_node root = f.doc.document_element();
    if (std::strcmp(root.name(), "map") != 0)
        fail(where_of(f, root), "the root element is <" + std::string(root.name()) + ">, not <map>");
    Map map;
    map.where = where_of(f, root);
    map.orientation = root.attribute("orientation").value();
    map.tilewidth = static_cast<double>(whole_attr(f, root, "tilewidth", 0, 0, kU32, "map"));
    map.tileheight = static_cast<double>(whole_attr(f, root, "tileheight", 0, 0, kU32, "map"));
    map.infinite = whole_attr(f, root, "infinite", 0, 0, 1, "map") == 1;
    for (const pugi::xml_node ts : root.children("tileset")) map.tilesets.push_back(tileset_ref(f, ts));
    std::stable_sort(map.tilesets.begin(), map.tilesets.end(),
                     [](const auto& a, const auto& b) { return a->firstgid < b->firstgid; });
    map.layers = read_layers(f, root, map.tilesets, map.infinite, 0);
    return map;
}

}  // namespace tmx

Map read_tmx(const std::string& file, std::string_view text, const FileLoader& load) {
    return tmx::Reader(load).read_map(file, text);
}

Tileset read_tsx_tileset(const std::string& file, std::string_view text, const FileLoader& load) {
    return tmx::Reader(load).tileset_file(file, text);
}

Object read_tx_template(const std::string& file, std::string_view text, const FileLoader& load) {
    return tmx::Reader(load).template_file(file, text, file);
}

}  // namespace collide::detail::tiled
