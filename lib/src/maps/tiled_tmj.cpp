// Reading TMJ maps (tiled_model.hpp), after Tiled's "JSON Map Format" reference
// (doc.mapeditor.org/en/stable/reference/json-map-format/): the map, its tilesets (inline or
// external `.tsj`/`.json`), its layers and their tile data. Objects and templates are in
// tiled_tmj_objects.cpp.
#include "maps/tiled_tmj.hpp"

#include "maps/layer_data.hpp"
#include "support/json_locate.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace collide::detail::tiled {

namespace tmj {

namespace {

// Group layers within group layers: the readers and the converter recurse on them.
constexpr int kMaxGroupDepth = 64;

Alignment alignment_of(const At& at, const std::string& s) {
    if (const std::optional<Alignment> a = alignment_named(s)) return *a;
    at.fail("objectalignment", "unknown objectalignment '" + s + "'");
}

std::string quoted_member(const Json& j, const char* key) {
    const Json* v = member(j, key);
    return v && v->is_string() ? v->get<std::string>() : std::string();
}

}  // namespace

void parse(Doc& doc, const std::string& prefix) {
    if (doc.text.substr(0, 3) == "\xEF\xBB\xBF") doc.text.remove_prefix(3);
    parse_json(doc.root, doc.file, doc.text, prefix);
}

void At::fail(std::string_view key, const std::string& message) const {
    std::string p = ptr;
    if (!key.empty()) p.append("/").append(key);
    const std::size_t offset = find_pointer(doc->text, p);
    const TextPos pos = offset == std::string_view::npos ? TextPos{} : position_of(doc->text, offset);
    throw Error(doc->file, p, what.empty() ? message : what + ": " + message, pos.line, pos.column);
}

std::optional<double> number(const At& at, const Json& j, const char* key) {
    const Json* v = member(j, key);
    if (!v) return std::nullopt;
    if (!v->is_number()) at.fail(key, std::string(key) + " must be a number");
    const double d = v->get<double>();
    if (!std::isfinite(d)) at.fail(key, std::string(key) + " must be finite");
    return d;
}

std::optional<double> size(const At& at, const Json& j, const char* key, bool positive) {
    const std::optional<double> d = number(at, j, key);
    if (d && (positive ? !(*d > 0) : *d < 0))
        at.fail(key, std::string(key) + (positive ? " must be positive" : " must not be negative"));
    return d;
}

std::optional<std::int64_t> integer(const At& at, const Json& j, const char* key, std::int64_t lo, std::int64_t hi) {
    const Json* v = member(j, key);
    if (!v) return std::nullopt;
    bool ok = false;
    std::int64_t i = 0;
    if (v->is_number_unsigned()) {
        const auto u = v->get<std::uint64_t>();
        ok = u <= static_cast<std::uint64_t>(hi);
        i = ok ? static_cast<std::int64_t>(u) : 0;
    } else if (v->is_number_integer()) {
        i = v->get<std::int64_t>();
        ok = true;
    } else if (v->is_number_float()) {  // 16.0: a writer's way of saying 16
        const double d = v->get<double>();
        ok = d == std::floor(d) && d >= -9.0e15 && d <= 9.0e15;
        i = ok ? static_cast<std::int64_t>(d) : 0;
    }
    if (!ok || i < lo || i > hi)
        at.fail(key, std::string(key) + " must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
    return i;
}

std::optional<std::string> string(const At& at, const Json& j, const char* key) {
    const Json* v = member(j, key);
    if (!v) return std::nullopt;
    if (!v->is_string()) at.fail(key, std::string(key) + " must be a string");
    return v->get<std::string>();
}

std::optional<bool> boolean(const At& at, const Json& j, const char* key) {
    const Json* v = member(j, key);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) at.fail(key, std::string(key) + " must be true or false");
    return v->get<bool>();
}

void expect_object(const At& at, const Json& j, const char* noun) {
    if (!j.is_object()) at.fail("", std::string(noun) + " must be a JSON object");
}

const Json* array(const At& at, const Json& j, const char* key) {
    const Json* v = member(j, key);
    if (v && !v->is_array()) at.fail(key, std::string(key) + " must be an array");
    return v;
}

Map Reader::read(const std::string& file, std::string_view text) {
    Doc doc;
    doc.file = file;
    doc.text = text;
    parse(doc, "");
    const At at{&doc, "", ""};
    const Json& root = doc.root;
    if (!root.is_object()) at.fail("", "a Tiled map is a JSON object");
    const std::optional<std::string> type = string(at, root, "type");
    if (!type) at.fail("", "not a Tiled map: it has no \"type\": \"map\"");
    if (*type != "map") at.fail("type", "not a Tiled map: its type is '" + *type + "'");

    Map map;
    map.where = {file, "", 0, 0};
    map.orientation = string(at, root, "orientation").value_or("orthogonal");
    map.tilewidth = required(at, "tilewidth", size(at, root, "tilewidth", true));
    map.tileheight = required(at, "tileheight", size(at, root, "tileheight", true));
    map.infinite = boolean(at, root, "infinite").value_or(false);
    if (const Json* list = array(at, root, "tilesets")) map.tilesets = read_tilesets(at / "tilesets", *list);
    map_tilesets_ = map.tilesets;
    if (const Json* list = array(at, root, "layers")) map.layers = read_layers(at / "layers", *list, 0);
    return map;
}

const Doc& Reader::load_doc(const At& ref, const std::string& key, const std::string& path, const std::string& name) {
    if (const auto it = docs_.find(path); it != docs_.end()) return *it->second;
    auto doc = std::make_unique<Doc>();
    doc->file = path;
    try {
        doc->storage = load_(path);
    } catch (const Error& e) {  // a missing file: the error is where the map names it
        At{ref.doc, ref.ptr, name}.fail(key, e.message());
    }
    doc->text = doc->storage;
    parse(*doc, name + ": ");
    return *docs_.emplace(path, std::move(doc)).first->second;
}

Tilesets Reader::read_tilesets(const At& at, const Json& list) {
    Tilesets out;
    out.reserve(list.size());
    for (std::size_t k = 0; k < list.size(); ++k) out.push_back(read_tileset_ref(at / std::to_string(k), list[k]));
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a->firstgid < b->firstgid; });
    return out;
}

std::shared_ptr<const Tileset> Reader::read_tileset_ref(const At& ref, const Json& j) {
    expect_object(ref, j, "a tileset");
    const Json* source = member(j, "source");
    const At at{ref.doc, ref.ptr, "tileset '" + quoted_member(j, source ? "source" : "name") + "'"};
    const auto firstgid = static_cast<std::uint32_t>(required(at, "firstgid", integer(at, j, "firstgid", 1, kGidMask)));
    if (!source) {
        auto t = std::make_shared<Tileset>(read_tileset_body(at, j));
        t->firstgid = firstgid;
        t->where = {at.doc->file, at.ptr, 0, 0};
        return t;
    }
    const std::string name = required(at, "source", string(at, j, "source"));
    const std::string path = resolve_path(at.doc->file, name);
    // One parse per file; one Tileset per (file, firstgid), shared by the objects naming it.
    auto hit = tilesets_.lower_bound({path, 0});
    if (hit != tilesets_.end() && hit->first.first == path) {
        if (const auto same = tilesets_.find({path, firstgid}); same != tilesets_.end()) return same->second;
        auto t = std::make_shared<Tileset>(*hit->second);
        t->firstgid = firstgid;
        return tilesets_.emplace(std::make_pair(path, firstgid), std::move(t)).first->second;
    }
    std::shared_ptr<Tileset> t;
    if (!json_tileset(path)) {  // a .tsx: Tiled lets a JSON map use an XML tileset
        std::string text;
        try {
            text = load_(path);
        } catch (const Error& e) {
            at.fail("source", e.message());
        }
        t = std::make_shared<Tileset>(read_tsx_tileset(path, text, load_));
    } else {
        const Doc& doc = load_doc(at, "source", path, at.what);
        t = std::make_shared<Tileset>(tileset_file(doc, at.what));
    }
    t->firstgid = firstgid;
    t->where = {path, "", 0, 0};
    return tilesets_.emplace(std::make_pair(path, firstgid), std::move(t)).first->second;
}

Tileset Reader::tileset_file(const Doc& doc, const std::string& what) {
    const At file_at{&doc, "", what};
    expect_object(file_at, doc.root, "a tileset");
    if (const auto type = string(file_at, doc.root, "type"); type && *type != "tileset")
        file_at.fail("type", "not a tileset: its type is '" + *type + "'");
    return read_tileset_body(file_at, doc.root);
}

Tileset Reader::read_tileset_body(const At& at, const Json& j) {
    Tileset t;
    t.name = string(at, j, "name").value_or("");
    t.tilecount = static_cast<std::uint32_t>(integer(at, j, "tilecount", 0, kMaxU32).value_or(0));
    // Tiled writes "columns": 0 and no "image" for an image collection.
    const auto columns = integer(at, j, "columns", 0, kMaxU32);
    t.image_collection = !member(j, "image") && columns == 0;
    t.tilewidth = size(at, j, "tilewidth").value_or(0);
    t.tileheight = size(at, j, "tileheight").value_or(0);
    if (const Json* offset = member(j, "tileoffset")) {
        const At o = at / "tileoffset";
        expect_object(o, *offset, "tileoffset");
        t.tileoffset = {number(o, *offset, "x").value_or(0), number(o, *offset, "y").value_or(0)};
    }
    if (const auto a = string(at, j, "objectalignment")) t.alignment = alignment_of(at, *a);
    const Json* tiles = array(at, j, "tiles");
    if (!tiles) return t;
    for (std::size_t k = 0; k < tiles->size(); ++k) {
        const Json& tj = (*tiles)[k];
        At e = at / "tiles" / std::to_string(k);
        expect_object(e, tj, "a tile");
        Tile tile;
        tile.id = static_cast<std::uint32_t>(required(e, "id", integer(e, tj, "id", 0, kGidMask)));
        e.what = "tile " + std::to_string(tile.id) + " of " + at.what;
        tile.cls = string(e, tj, member(tj, "type") ? "type" : "class").value_or("");
        tile.width = size(e, tj, "imagewidth").value_or(0);
        tile.height = size(e, tj, "imageheight").value_or(0);
        if (const Json* group = member(tj, "objectgroup")) {
            const At g = e / "objectgroup";
            expect_object(g, *group, "objectgroup");
            if (const Json* objects = array(g, *group, "objects"))
                for (std::size_t n = 0; n < objects->size(); ++n)
                    tile.shapes.push_back(read_object(g / "objects" / std::to_string(n), (*objects)[n], nullptr));
        }
        if (const Json* props = array(e, tj, "properties")) read_properties(e, *props, tile.properties);
        if (!tile.cls.empty() || tile.width > 0 || tile.height > 0 || !tile.shapes.empty() ||
            !ignored_rules(tile.properties).empty())
            t.tiles.push_back(std::move(tile));
    }
    std::stable_sort(t.tiles.begin(), t.tiles.end(), [](const Tile& a, const Tile& b) { return a.id < b.id; });
    return t;
}

std::vector<Layer> Reader::read_layers(const At& at, const Json& list, int depth) {
    std::vector<Layer> out;
    out.reserve(list.size());
    for (std::size_t k = 0; k < list.size(); ++k) out.push_back(read_layer(at / std::to_string(k), list[k], depth));
    return out;
}

Layer Reader::read_layer(const At& ref, const Json& j, int depth) {
    expect_object(ref, j, "a layer");
    const At at{ref.doc, ref.ptr, "layer '" + quoted_member(j, "name") + "'"};
    Layer layer;
    layer.where = {at.doc->file, at.ptr, 0, 0};
    layer.name = string(at, j, "name").value_or("");
    layer.id = static_cast<std::uint32_t>(integer(at, j, "id", 0, kMaxU32).value_or(0));
    layer.cls = string(at, j, "class").value_or("");
    layer.offset = {number(at, j, "offsetx").value_or(0), number(at, j, "offsety").value_or(0)};
    if (const Json* props = array(at, j, "properties")) read_properties(at, *props, layer.properties);
    const std::string type = required(at, "type", string(at, j, "type"));
    if (type == "tilelayer") {
        layer.kind = Layer::Kind::Tiles;
        layer.data_where = {at.doc->file, at.ptr + (member(j, "chunks") ? "/chunks" : "/data"), 0, 0};
        read_tile_data(at, j, layer);
    } else if (type == "objectgroup") {
        layer.kind = Layer::Kind::Objects;
        if (const Json* objects = array(at, j, "objects")) {
            layer.objects.reserve(objects->size());
            for (std::size_t k = 0; k < objects->size(); ++k)
                layer.objects.push_back(read_object(at / "objects" / std::to_string(k), (*objects)[k], &map_tilesets_));
        }
    } else if (type == "group") {
        layer.kind = Layer::Kind::Group;
        if (const Json* layers = array(at, j, "layers"); layers && !layers->empty()) {
            if (depth + 1 >= kMaxGroupDepth)
                at.fail("layers", "group layers nest deeper than " + std::to_string(kMaxGroupDepth) + " levels");
            layer.layers = read_layers(at / "layers", *layers, depth + 1);
        }
    } else if (type == "imagelayer") {
        layer.kind = Layer::Kind::Image;
    } else {
        at.fail("type", "unknown layer type '" + type + "'");
    }
    return layer;
}

void Reader::read_tile_data(const At& at, const Json& j, Layer& layer) {
    const std::string encoding = string(at, j, "encoding").value_or("csv");
    const std::string compression = string(at, j, "compression").value_or("");
    // `holder` has "data" for `count` gids: an array of numbers, or a string (base64, CSV).
    const auto gids = [&](const At& where, const Json& holder, std::uint64_t count) {
        const Json* data = member(holder, "data");
        if (!data) where.fail("", "data is missing");
        const At d = where / "data";
        Gids out;
        if (data->is_string()) {
            try {
                out = decode_tile_data(data->get_ref<const std::string&>(), encoding, compression, count);
            } catch (const DataError& e) {
                d.fail("", e.what());
            }
        } else if (data->is_array()) {
            if (encoding != "csv" || !compression.empty())
                d.fail("", "data is an array of gids, but the layer's encoding is '" + encoding + "'" +
                               (compression.empty() ? "" : " and its compression '" + compression + "'"));
            if (data->size() != count)
                d.fail("", "the data holds " + std::to_string(data->size()) + " tiles, the layer declares " +
                               std::to_string(count));
            for (const Json& g : *data) {
                if (!g.is_number_unsigned() || g.get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxU32))
                    d.fail(std::to_string(out.size()), "a gid must be an integer from 0 to 4294967295");
                out.push_back(static_cast<std::uint32_t>(g.get<std::uint64_t>()));
            }
        } else {
            d.fail("", "data must be an array of gids or a string");
        }
        return out;
    };

    const Json* chunks = array(at, j, "chunks");
    if (!chunks) {
        const std::int64_t w = required(at, "width", integer(at, j, "width", 1, kMaxCoord));
        const std::int64_t h = required(at, "height", integer(at, j, "height", 1, kMaxCoord));
        const auto cells = static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h);
        if (cells > kMaxMapCells)
            at.fail("", std::to_string(w) + " x " + std::to_string(h) + " tiles is more than the " +
                            std::to_string(kMaxMapCells) + " a layer may hold");
        spend(at, cells);
        TileBlock block{0, 0, static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h), {}};
        block.gids = gids(at, j, cells);
        layer.blocks.push_back(std::move(block));
        return;
    }
    // An infinite map's layer: chunks within the bounds the layer declares.
    const std::int64_t x0 = integer(at, j, "startx", -kMaxCoord, kMaxCoord).value_or(0);
    const std::int64_t y0 = integer(at, j, "starty", -kMaxCoord, kMaxCoord).value_or(0);
    const std::int64_t w0 = required(at, "width", integer(at, j, "width", 0, kMaxCoord));
    const std::int64_t h0 = required(at, "height", integer(at, j, "height", 0, kMaxCoord));
    std::uint64_t total = 0;
    layer.blocks.reserve(chunks->size());
    for (std::size_t k = 0; k < chunks->size(); ++k) {
        const Json& cj = (*chunks)[k];
        const At c = at / "chunks" / std::to_string(k);
        expect_object(c, cj, "a chunk");
        const std::int64_t x = required(c, "x", integer(c, cj, "x", -kMaxCoord, kMaxCoord));
        const std::int64_t y = required(c, "y", integer(c, cj, "y", -kMaxCoord, kMaxCoord));
        const std::int64_t w = required(c, "width", integer(c, cj, "width", 1, kMaxCoord));
        const std::int64_t h = required(c, "height", integer(c, cj, "height", 1, kMaxCoord));
        if (x < x0 || y < y0 || x + w > x0 + w0 || y + h > y0 + h0)
            c.fail("", "chunk at (" + std::to_string(x) + ", " + std::to_string(y) +
                           ") lies outside the layer's declared bounds");
        total += static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h);  // w, h < 2^31: no overflow
        if (total > kMaxMapCells)
            c.fail("", "the chunks hold more than the " + std::to_string(kMaxMapCells) + " tiles a layer may hold");
        spend(c, static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h));
        TileBlock block{x, y, static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h), {}};
        block.gids = gids(c, cj, static_cast<std::uint64_t>(w) * static_cast<std::uint64_t>(h));
        layer.blocks.push_back(std::move(block));
    }
}

void Reader::spend(const At& at, std::uint64_t cells) {
    cells_ += cells;
    if (cells_ > kMaxMapCells)
        at.fail("", "the map's tile layers hold more than the " + std::to_string(kMaxMapCells) + " tiles collide reads");
}

}  // namespace tmj

Map read_tmj(const std::string& file, std::string_view text, const FileLoader& load) {
    return tmj::Reader(load).read(file, text);
}

Tileset read_tsj_tileset(const std::string& file, std::string_view text, const FileLoader& load) {
    tmj::Doc doc;
    doc.file = file;
    doc.text = text;
    tmj::parse(doc, "");
    return tmj::Reader(load).tileset_file(doc, "tileset '" + file + "'");
}

Object read_tj_template(const std::string& file, std::string_view text, const FileLoader& load) {
    tmj::Doc doc;
    doc.file = file;
    doc.text = text;
    const std::string name = "template '" + file + "'";
    tmj::parse(doc, name + ": ");
    return tmj::Reader(load).template_object(doc, name);
}

}  // namespace collide::detail::tiled
