// The scene builder (scene_builder.hpp): the top-level keys, settings, grids, moves, rules and
// pair specs of a scene (its shapes are shape_reader.cpp's), then the cross-checks that need
// the whole scene: left/top/right/bottom rects resolved once y_axis is known, ids unique
// across shapes and grids, and each move's grid found by its id.
#include "scene/scene_builder.hpp"

#include "scene/scene_fields.hpp"
#include "support/big_alloc.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace collide {

namespace detail {

using namespace scene_fields;

namespace {

// The UTF-8 code points of a (valid UTF-8) string.
std::vector<char32_t> code_points(const std::string& s) {
    std::vector<char32_t> out;
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
        char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
        for (int k = 1; k < len && i + static_cast<std::size_t>(k) < s.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0x3F);
        out.push_back(cp);
        i += static_cast<std::size_t>(len);
    }
    return out;
}

}  // namespace

SceneBuilder::SceneBuilder(const std::string& file) { scene_.file = file; }

std::string Path::str() const {
    if (kind_ == Kind::Root) return "";
    const std::string head = parent_->str();
    return kind_ == Kind::Key ? head + "/" + pointer_token(key_) : head + "/" + std::to_string(index_);
}

void SceneBuilder::top_level(const std::string& key, const json& v) {
    const Path root;
    const Path path(root, key);
    if (key == "format") {
        if (!v.is_string() || v.string() != "collide-scene")
            throw Fail{path, "format must be \"collide-scene\", got " + (v.is_string() ? "\"" + std::string(v.string()) + "\"" : describe(v))};
    } else if (key == "version") {
        if (!v.is_number() || v.number() != 1.0)
            throw Fail{path, "version must be 1, got " + (v.is_number() ? num_text(v.number()) : describe(v))};
    } else if (key == "settings") {
        settings(v, path);
    } else if (streamed_key(key)) {
        throw Fail{path, key + " must be an array, got " + describe(v)};
    } else {
        std::string hint;
        for (std::string_view a : {"format", "version", "settings", "shapes", "grids", "moves", "pairs", "rules"})
            if (edit_distance(key, a) <= 2) hint = " (did you mean '" + std::string(a) + "'?)";
        throw Fail{path, "unknown key '" + key + "'" + hint +
                             "; allowed here: format, version, settings, shapes, grids, moves, pairs, rules"};
    }
}

bool SceneBuilder::streamed_key(const std::string& key) {
    return key == "shapes" || key == "grids" || key == "moves" || key == "rules" || key == "pairs";
}

// SPEC §1.4: "pairs": [] pairs nothing, where a scene without the key pairs everything.
void SceneBuilder::begin_array(const std::string& key) {
    if (key == "pairs") scene_.pairs_given = true;
}

void SceneBuilder::set_pairs(const std::vector<std::string>& specs) {
    scene_.pairs_given = true;
    const Path root;
    const Path list(root, "pairs");
    for (std::size_t k = 0; k < specs.size(); ++k) {
        try {
            scene_.pairs.push_back(parse_pair_spec(specs[k]));
        } catch (const Error& e) {
            throw Fail{Path(list, k), e.message()};
        }
    }
}

void SceneBuilder::element(const std::string& key, std::size_t index, const json& v) {
    const Path root;
    const Path list(root, key);
    const Path path(list, index);
    if (key == "shapes") shape(index, v, path);
    else if (key == "grids") grid(index, v, path);
    else if (key == "moves") move(index, v, path);
    else if (key == "rules") rule(index, v, path);
    if (key == "rules") offsets_.rules.push_back(v.offset());
    else if (record_ && key == "grids") offsets_.grids.push_back(v.offset());
    else if (record_ && key == "moves") offsets_.moves.push_back(v.offset());
    else if (key == "pairs") {
        try {
            scene_.pairs.push_back(parse_pair_spec(text(v, path)));
        } catch (const Error& e) {
            throw Fail{path, e.message()};
        }
    }
}

void SceneBuilder::settings(const json& v, const Path& path) {
    const Obj o(v, path, "settings");
    o.only({"y_axis"});
    scene_.y_up = o.choice("y_axis", {"down", "up"}, "down") == "up";
}

void SceneBuilder::shape(std::size_t index, const json& v, const Path& path) {
    scene_.shapes.emplace_back();
    note_shape(index, build_shape(index, v, path, scene_.shapes.back(), group_lists_));
}

Groups GroupLists::get(const JsonValue& value, const Path& path) {
    if (!value.is_array()) throw Fail{path, "expected an array of strings, got " + describe(value)};
    const std::size_t n = value.size();
    for (std::size_t i = 0; i < n; ++i) text_view(value[i], Path(path, i));  // each a string, or the error
    if (n == 0) return Groups();
    // FNV-1a (Fowler, Noll, Vo) over the names, each ended by a byte no name holds at its end.
    std::uint64_t h = 14695981039346656037ull;
    for (std::size_t i = 0; i < n; ++i) {
        for (const char c : value[i].string()) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
        h = (h ^ 0x100) * 1099511628211ull;
    }
    for (std::size_t k = 0; k < kKept; ++k) {
        const Groups& g = kept_[k];
        if (hashes_[k] != h || g.size() != n) continue;
        std::size_t i = 0;
        while (i < n && value[i].string() == g[i]) ++i;
        if (i == n) return g;
    }
    std::vector<std::string> names;
    names.reserve(n);
    for (std::size_t i = 0; i < n; ++i) names.emplace_back(value[i].string());
    Groups made(std::move(names));
    kept_[next_] = made;
    hashes_[next_] = h;
    next_ = (next_ + 1) % kKept;
    return made;
}

SceneShape* SceneBuilder::make_room(std::size_t count) {
    const std::size_t first = scene_.shapes.size();
    scene_.shapes.resize(first + count);
    return scene_.shapes.data() + first;
}

void SceneBuilder::note_shape(std::size_t index, const ShapeNotes& n) {
    if (record_) offsets_.shapes.push_back(n.offset);
    if (!n.ignore.empty()) scene_.ignores.push_back(Ignore{index, n.ignore});
    for (PendingRect r : n.rects) {
        r.shape = index;
        rects_.push_back(r);
    }
    for (ConvertedShape c : n.converted) {
        c.shape = index;
        scene_.converted.push_back(c);
    }
    default_id_.push_back(n.default_id);
}

void SceneBuilder::expect_shapes(std::size_t count) {
    // Only a hint: reserved pages that are never written cost no memory, and an estimate
    // the system will not reserve is dropped (the vector grows as it would have).
    try {
        reserve_huge(scene_.shapes, count);
        default_id_.reserve(count);
    } catch (const std::bad_alloc&) {
    } catch (const std::length_error&) {
    }
}

void SceneBuilder::grid(std::size_t, const json& v, const Path& path) {
    const Obj o(v, path, "a grid");
    o.only({"id", "groups", "ignore", "tile_size", "origin", "outside", "solid", "rows", "cells"});
    Grid g;
    if (std::vector<std::string> ignore = ignore_list(o); !ignore.empty())
        grid_ignores_.push_back(Ignore{scene_.grids.size(), std::move(ignore)});
    if (!o.has("id")) throw Fail{path, "a grid needs an id"};
    g.id = o.str("id");
    if (g.id.empty()) throw Fail{o.sub("id"), "an id must not be empty"};
    g.groups = o.groups(group_lists_);
    const json ts = o.at("tile_size");
    if (ts.is_array()) g.tile = position(ts, o.sub("tile_size"));
    else g.tile = Vec2{number(ts, o.sub("tile_size")), number(ts, o.sub("tile_size"))};
    if (!(g.tile.x > 0) || !(g.tile.y > 0))
        throw Fail{o.sub("tile_size"), "tile_size must be > 0, got " + num_text(std::min(g.tile.x, g.tile.y))};
    if (o.has("origin")) g.origin = o.pos("origin");
    g.outside_solid = o.choice("outside", {"solid", "empty"}, "solid") == "solid";
    if (o.has("rows") && o.has("cells")) throw Fail{path, "a grid takes rows or cells, not both"};
    if (!o.has("rows") && !o.has("cells")) throw Fail{path, "a grid needs rows or cells (neither is given)"};
    std::vector<bool> solid;
    if (o.has("rows")) {
        const std::vector<char32_t> blockers = code_points(o.has("solid") ? o.str("solid") : std::string("#"));
        const json rows = o.at("rows");
        const Path rows_path = o.sub("rows");
        if (!rows.is_array()) throw Fail{rows_path, "expected an array of strings, got " + describe(rows)};
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const Path rp(rows_path, r);
            const std::vector<char32_t> cps = code_points(text(rows[r], rp));
            if (r == 0) g.cols = cps.size();
            else if (cps.size() != g.cols)
                throw Fail{rp, "row " + std::to_string(r) + " has " + std::to_string(cps.size()) + " cells, row 0 has " +
                                   std::to_string(g.cols) + " (rows must have equal length)"};
            for (char32_t c : cps) solid.push_back(std::find(blockers.begin(), blockers.end(), c) != blockers.end());
        }
        g.rows = rows.size();
    } else {
        if (o.has("solid")) throw Fail{o.sub("solid"), "solid applies to rows, not to cells"};
        const json cells = o.at("cells");
        const Path cells_path = o.sub("cells");
        if (!cells.is_array()) throw Fail{cells_path, "expected an array of arrays of integers, got " + describe(cells)};
        for (std::size_t r = 0; r < cells.size(); ++r) {
            const Path rp(cells_path, r);
            const json row = cells[r];
            if (!row.is_array()) throw Fail{rp, "expected an array of integers, got " + describe(row)};
            if (r == 0) g.cols = row.size();
            else if (row.size() != g.cols)
                throw Fail{rp, "row " + std::to_string(r) + " has " + std::to_string(row.size()) + " cells, row 0 has " +
                                   std::to_string(g.cols) + " (rows must have equal length)"};
            for (std::size_t c = 0; c < row.size(); ++c) {
                const json cell = row[c];
                if (!cell.is_number() || std::floor(cell.number()) != cell.number())
                    throw Fail{Path(rp, c), "expected an integer, got " + (cell.is_number() ? num_text(cell.number()) : describe(cell))};
                solid.push_back(cell.number() != 0.0);
            }
        }
        g.rows = cells.size();
    }
    if (g.rows == 0 || g.cols == 0) throw Fail{o.sub(o.has("rows") ? "rows" : "cells"), "a grid needs at least one cell"};
    g.bits.assign((solid.size() + 63) / 64, 0);
    for (std::size_t i = 0; i < solid.size(); ++i)
        if (solid[i]) g.bits[i / 64] |= std::uint64_t{1} << (i % 64);
    scene_.grids.push_back(std::move(g));
}

void SceneBuilder::move(std::size_t index, const json& v, const Path& path) {
    const Obj o(v, path, "a move");
    o.only({"id", "grid", "against", "from", "to", "body", "check", "expect"});
    Move m;
    m.id = id_or_default(o, index);
    const auto [it, fresh] = move_ids_.emplace(m.id, index);
    if (!fresh)
        throw Fail{o.has("id") ? o.sub("id") : path, "duplicate move id '" + m.id + "' (also /moves/" + std::to_string(it->second) +
                                                         (scene_.moves[it->second].id == std::to_string(it->second) ? ", whose default id is its index" : "") + ")"};
    // On one grid, or against what a selector selects (SPEC §1.3): one of the two.
    if (o.has("grid") == o.has("against"))
        throw Fail{path, o.has("grid") ? "a move has either 'grid' or 'against', not both"
                                       : "missing required key 'grid' (or 'against': a selector of shapes and grids)"};
    if (o.has("against")) {
        m.against = o.str("against");
        if (m.against->empty()) throw Fail{o.sub("against"), "a selector must not be empty (a group, an id or *)"};
    }
    move_grids_.push_back(o.has("grid") ? o.str("grid") : std::string());
    m.from = o.pos("from");
    m.to = o.pos("to");
    if (o.has("body")) {
        const Obj b(o.at("body"), o.sub("body"), "a body");
        const std::string type = b.str("type");
        if (type == "point") {
            b.only({"type"});
        } else if (type == "circle") {
            b.only({"type", "radius"});
            m.body.kind = Body::Kind::Circle;
            m.body.radius = b.non_negative("radius");
        } else if (type == "rect") {
            b.only({"type", "size"});
            m.body.kind = Body::Kind::Rect;
            m.body.size = b.pos("size");
            if (m.body.size.x < 0 || m.body.size.y < 0) throw Fail{b.sub("size"), "a body's size must be >= 0"};
        } else {
            throw Fail{b.sub("type"), "unknown body type '" + type + "'; expected point, circle or rect"};
        }
    }
    m.check_path = o.choice("check", {"path", "destination"}, "path") == "path";
    if (o.has("expect")) m.expect_allowed = o.choice("expect", {"allowed", "blocked"}, "") == "allowed";
    scene_.moves.push_back(std::move(m));
}

void SceneBuilder::rule(std::size_t index, const json& v, const Path& path) {
    const Obj o(v, path, "a rule");
    o.only({"name", "pairs", "expect", "touching", "clearance"});
    Rule r;
    r.name = o.str("name");
    const auto [it, fresh] = rule_names_.emplace(r.name, index);
    if (!fresh)
        throw Fail{o.sub("name"), "duplicate rule name '" + r.name + "' (also /rules/" + std::to_string(it->second) + "/name)"};
    try {
        r.pairs = parse_pair_spec(o.str("pairs"));
    } catch (const Error& e) {
        throw Fail{o.sub("pairs"), e.message()};
    }
    const std::string expect = o.choice("expect", {"none", "some", "each"}, "");
    if (expect.empty()) throw Fail{path, "missing required key 'expect'"};
    r.expect = expect == "none" ? Rule::Expect::None : expect == "some" ? Rule::Expect::Some : Rule::Expect::Each;
    r.ignore_touching = o.choice("touching", {"ignored"}, "") == "ignored";
    if (o.has("clearance")) r.clearance = positive(o, "clearance");
    scene_.rules.push_back(std::move(r));
}

namespace {

std::string shape_path(std::size_t i) { return "/shapes/" + std::to_string(i); }
std::string grid_path(std::size_t i) { return "/grids/" + std::to_string(i); }

// The left/top/right/bottom rects, now that y_axis is known.
void resolve_rects(Scene& scene, const std::vector<SceneBuilder::PendingRect>& rects) {
    for (const SceneBuilder::PendingRect& p : rects) {
        // With y down, top is the smaller y; with y up, the larger.
        const double lo_y = scene.y_up ? p.bottom : p.top;
        const double hi_y = scene.y_up ? p.top : p.bottom;
        const std::string at =
            shape_path(p.shape) + (p.part == SceneBuilder::kWhole ? "" : "/parts/" + std::to_string(p.part));
        if (p.left > p.right) throw Fail{at, "left " + num_text(p.left) + " is greater than right " + num_text(p.right)};
        if (lo_y > hi_y)
            throw Fail{at, "top " + num_text(p.top) + (scene.y_up ? " is less than" : " is greater than") + " bottom " +
                               num_text(p.bottom) + " (y_axis is " + (scene.y_up ? "up" : "down") + ")"};
        Shape& s = scene.shapes[p.shape].shape;
        (p.part == SceneBuilder::kWhole ? s : std::get<Compound>(s).parts[p.part]) =
            Rect{Vec2{p.left, lo_y}, Vec2{p.right, hi_y}};
    }
}

// The first of objects 0 .. total - 1 whose id (id_of(i)) an earlier one has, and the first
// that has it; (total, 0) when the ids are unique.
// An open-addressing table (linear probing) of the first index of each id, tagged with the
// upper half of its hash, in index order, so the first duplicate found is the one with the
// lowest index, and its original the first object with that id.
template <class IdOf>
std::pair<std::size_t, std::size_t> first_duplicate(std::size_t total, IdOf&& id_of) {
    std::size_t slots = 16;
    while (slots < 2 * total) slots *= 2;
    std::vector<std::uint64_t> table(slots, 0);  // (hash >> 32) << 32 | (index + 1); 0: empty
    // Slots are all over the table: each id's hash is taken kAhead ids early and its slot
    // fetched into the cache meanwhile.
    constexpr std::size_t kAhead = 16;
    std::uint64_t ahead[kAhead];
    auto hash_of = [&](std::size_t j) {
        const std::uint64_t h = std::hash<std::string>{}(id_of(j));
        __builtin_prefetch(&table[static_cast<std::size_t>(h) & (slots - 1)], 1);
        ahead[j % kAhead] = h;
    };
    for (std::size_t j = 0; j < std::min(kAhead, total); ++j) hash_of(j);
    for (std::size_t j = 0; j < total; ++j) {
        const std::uint64_t h = ahead[j % kAhead];
        if (j + kAhead < total) hash_of(j + kAhead);
        const std::uint64_t tag = h >> 32 << 32;
        for (std::size_t slot = static_cast<std::size_t>(h) & (slots - 1);; slot = (slot + 1) & (slots - 1)) {
            const std::uint64_t e = table[slot];
            if (e == 0) {
                table[slot] = tag | (j + 1);
                break;
            }
            const std::size_t i = static_cast<std::size_t>(e & 0xFFFFFFFFu) - 1;
            if ((e & ~std::uint64_t{0xFFFFFFFFu}) == tag && id_of(i) == id_of(j)) return {j, i};
        }
    }
    return {total, 0};
}

}  // namespace

Scene SceneBuilder::finish() {
    resolve_rects(scene_, rects_);
    for (Ignore& i : grid_ignores_) scene_.ignores.push_back(Ignore{scene_.shapes.size() + i.object, std::move(i.rules)});
    // Ids are unique across shapes and grids.
    const std::size_t ns = scene_.shapes.size();
    const std::size_t total = ns + scene_.grids.size();
    auto id_of = [&](std::size_t i) -> const std::string& { return i < ns ? scene_.shapes[i].id : scene_.grids[i - ns].id; };
    auto path_of = [&](std::size_t i) { return i < ns ? shape_path(i) : grid_path(i - ns) + "/id"; };
    const auto [dup, orig] = ids_unique_ && scene_.grids.empty() ? std::pair{total, total} : first_duplicate(total, id_of);
    if (dup != total) {
        auto where = [&](std::size_t i) {
            if (i >= ns) return grid_path(i - ns);
            return default_id_[i] ? "the default id of " + shape_path(i) + ", its index" : shape_path(i);
        };
        std::string msg = "duplicate id '" + id_of(dup) + "' (";
        if (dup < ns && default_id_[dup]) msg += where(dup) + "; ";
        throw Fail{path_of(dup), msg + "also " + where(orig) + ")"};
    }
    std::unordered_map<std::string, std::size_t> grid_index;
    for (std::size_t i = 0; i < scene_.grids.size(); ++i) {
        scene_.grids[i].y_up = scene_.y_up;
        grid_index.emplace(scene_.grids[i].id, i);
    }
    for (std::size_t i = 0; i < scene_.moves.size(); ++i) {
        if (scene_.moves[i].against) continue;
        const auto it = grid_index.find(move_grids_[i]);
        if (it == grid_index.end())
            throw Fail{"/moves/" + std::to_string(i) + "/grid", "no grid has the id '" + move_grids_[i] + "'"};
        scene_.moves[i].grid = it->second;
    }
    return std::move(scene_);
}

}  // namespace detail

}  // namespace collide