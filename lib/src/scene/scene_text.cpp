// The text of a collide scene, for imported maps (scene_text.hpp).
#include "scene/scene_text.hpp"

#include "support/text_encoding.hpp"

#include <ostream>

namespace collide::detail {

namespace {
// The index of the lowest set bit of x (not 0); GCC and Clang, the compilers collide builds with.
std::size_t count_trailing_zeros(std::uint64_t x) { return static_cast<std::size_t>(__builtin_ctzll(x)); }

// A name as the text would hold it: a name that is not UTF-8 has U+FFFD for its bad bytes.
std::string_view as_utf8(std::string_view name, std::string& fixed) {
    if (is_valid_utf8(name)) return name;
    fixed = valid_utf8(name);
    return fixed;
}

void groups_array(std::string& out, const std::vector<std::string>& groups) {
    out += '[';
    for (std::size_t i = 0; i < groups.size(); ++i) {
        if (i > 0) out += ", ";
        json_string(out, groups[i]);
    }
    out += ']';
}
}  // namespace

SceneText::SceneText(SceneBuilder& build, bool text) : text_(text), build_(&build) {
    for (auto& d : docs_) d = std::make_unique<JsonDoc>(std::string_view());
    doc_ = docs_[0].get();
    build.begin_array("shapes");
}

void SceneText::settle() {
    if (!active_) return;
    lane_.wait();
    active_ = false;
    for (std::size_t k = 0; k < building_.notes.size(); ++k) build_->note_shape(building_.first + k, building_.notes[k]);
    if (building_.fail && !failure_) failure_ = std::move(building_.fail);
}

void SceneText::hand_over() {
    settle();
    if (failure_ || batch_.empty()) {  // the shapes after a refused one are not built
        batch_.clear();
        doc_->reset();
        return;
    }
    building_ = Batch{};
    building_.values = std::move(batch_);
    batch_.clear();
    building_.first = shape_count_ - building_.values.size();
    SceneShape* out = build_->make_room(building_.values.size());
    GroupLists& groups = build_->group_lists();  // the lane's alone until settle()
    active_ = true;
    lane_.post([this, out, &groups] {
        const Path root;
        const Path list(root, "shapes");
        Batch& b = building_;
        b.notes.reserve(b.values.size());
        try {
            for (std::size_t k = 0; k < b.values.size(); ++k)
                b.notes.push_back(SceneBuilder::build_shape(b.first + k, b.values[k], Path(list, b.first + k), out[k], groups));
        } catch (const Fail& f) {
            b.fail = f;
        }
    });
    cur_ = 1 - cur_;
    doc_ = docs_[cur_].get();
    doc_->reset();  // its batch was settled above
}

void SceneText::flush() {
    if (!build_) return;
    hand_over();
    settle();
}

void SceneText::key(std::string_view k) {
    if (build_) doc_->key(k);
    if (text_) text_key(k);
}

void SceneText::text_key(std::string_view k) {
    *out_ += ", ";
    json_string(*out_, k);
    *out_ += ": ";
}

void SceneText::begin_shape(std::string_view id, std::string_view type) {
    if (build_) {
        std::string fixed;
        doc_->begin_object();
        doc_->key("id");
        doc_->string(as_utf8(id, fixed));
        id_fixed_ = id_fixed_ || !fixed.empty();
        doc_->key("type");
        doc_->string(type);
    }
    if (!text_) return;
    out_ = &shapes_;
    shapes_ += shape_count_ == 0 ? "\n  {\"id\": " : ",\n  {\"id\": ";
    json_string(shapes_, id);
    text_key("type");
    json_string(shapes_, type);
}

void SceneText::begin_parts() {
    key("parts");
    if (build_) doc_->begin_array();
    if (!text_) return;
    shapes_ += '[';
    parts_ = 0;
}

void SceneText::begin_part(std::string_view type) {
    if (build_) {
        doc_->begin_object();
        doc_->key("type");
        doc_->string(type);
    }
    if (!text_) return;
    shapes_ += parts_++ == 0 ? "{\"type\": " : ", {\"type\": ";
    json_string(shapes_, type);
}

void SceneText::end_part() {
    if (build_) doc_->end();
    if (text_) shapes_ += '}';
}

void SceneText::end_parts() {
    if (build_) doc_->end();
    if (text_) shapes_ += ']';
}

void SceneText::number(std::string_view k, double v) {
    key(k);
    if (build_) doc_->number(v);
    if (text_) append_number(*out_, v);
}

void SceneText::pair(std::string_view k, Vec2 v) {
    key(k);
    if (build_) {
        const double xy[2] = {v.x, v.y};
        doc_->numbers(xy, 2);
    }
    if (!text_) return;
    *out_ += '[';
    append_number(*out_, v.x);
    *out_ += ", ";
    append_number(*out_, v.y);
    *out_ += ']';
}

void SceneText::points(std::string_view k, const std::vector<Vec2>& pts) {
    key(k);
    if (build_) {
        doc_->begin_array();
        for (const Vec2& p : pts) {
            const double xy[2] = {p.x, p.y};
            doc_->numbers(xy, 2);
        }
        doc_->end();
    }
    if (!text_) return;
    *out_ += '[';
    for (std::size_t i = 0; i < pts.size(); ++i) {
        if (i > 0) *out_ += ", ";
        *out_ += '[';
        append_number(*out_, pts[i].x);
        *out_ += ", ";
        append_number(*out_, pts[i].y);
        *out_ += ']';
    }
    *out_ += ']';
}

void SceneText::end_shape(const std::vector<std::string>& groups, const std::vector<std::string>& ignore) {
    ++shape_count_;
    if (build_) {
        for (const auto& [k, list] : {std::pair<const char*, const std::vector<std::string>*>{"ignore", &ignore}, {"groups", &groups}}) {
            if (list->empty()) continue;
            doc_->key(k);
            doc_->begin_array();
            std::string fixed;
            for (const std::string& g : *list) doc_->string(as_utf8(g, fixed));
            doc_->end();
        }
        doc_->end();
        batch_.push_back(doc_->built());
        if (batch_.size() == kBatch) hand_over();
    }
    if (!text_) return;
    if (!ignore.empty()) {
        text_key("ignore");
        groups_array(shapes_, ignore);
    }
    if (!groups.empty()) {
        text_key("groups");
        groups_array(shapes_, groups);
    }
    shapes_ += '}';
}

Grid SceneText::grid_head(std::string_view id, const std::vector<std::string>& groups, Vec2 origin, Vec2 tile,
                          std::size_t cols, std::size_t rows, bool outside_solid) {
    const auto utf8 = [](std::string_view name) {
        std::string fixed;
        return std::string(as_utf8(name, fixed));
    };
    Grid g;
    g.id = utf8(id);
    std::vector<std::string> names;
    for (const std::string& name : groups) names.push_back(utf8(name));
    g.groups = Groups(std::move(names));
    g.origin = origin;
    g.tile = tile;
    g.cols = cols;
    g.rows = rows;
    g.outside_solid = outside_solid;
    g.bits.assign((cols * rows + 63) / 64, 0);
    return g;
}

void SceneText::set_pairs(const std::vector<std::string>& specs) {
    if (build_) build_->set_pairs(specs);
    if (!text_) return;
    pairs_ = " \"pairs\": [";
    for (std::size_t k = 0; k < specs.size(); ++k) {
        pairs_ += k ? ", " : "";
        json_string(pairs_, specs[k]);
    }
    pairs_ += "],\n";
}

std::string SceneText::text() {
    // The text so far is moved, not copied: a big map's scene is tens of MB.
    std::string out = std::move(shapes_);
    if (!pairs_.empty()) out.insert(std::string_view(kHead).find(" \"shapes\""), pairs_);
    out += "\n ],\n \"grids\": [\n ]}\n";
    shapes_ = kHead;
    shape_count_ = 0;
    return out;
}

void write_with_grids(std::ostream& out, std::string_view text, const std::vector<Grid>& grids,
                      const std::vector<Ignore>& ignores) {
    static constexpr std::string_view kTail = "\n ]}\n";
    if (grids.empty() || text.size() < kTail.size()) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        return;
    }
    out.write(text.data(), static_cast<std::streamsize>(text.size() - kTail.size()));
    std::string line;  // a grid's head, then each of its rows in turn: the whole is never held
    for (std::size_t k = 0; k < grids.size(); ++k) {
        const Grid& g = grids[k];
        line = k == 0 ? "\n  {\"id\": " : ",\n  {\"id\": ";
        json_string(line, g.id);
        if (!g.groups.empty()) {
            line += ", \"groups\": ";
            groups_array(line, g.groups.names());
        }
        for (const Ignore& i : ignores)
            if (i.object == k) {
                line += ", \"ignore\": ";
                groups_array(line, i.rules);
            }
        for (const auto& [key, v] : {std::pair<const char*, Vec2>{"tile_size", g.tile}, {"origin", g.origin}}) {
            line += ", \"";
            line += key;
            line += "\": [";
            append_number(line, v.x);
            line += ", ";
            append_number(line, v.y);
            line += ']';
        }
        line += g.outside_solid ? ", \"outside\": \"solid\"" : ", \"outside\": \"empty\"";
        line += ", \"rows\": [";
        out.write(line.data(), static_cast<std::streamsize>(line.size()));
        for (std::size_t r = 0; r < g.rows; ++r) {
            line = r == 0 ? "\n    \"" : ",\n    \"";
            // The row as '.', then a '#' at each set bit of its cells (nothing to escape).
            const std::size_t at = line.size(), first = r * g.cols, end = first + g.cols;
            line.append(g.cols, '.');
            for (std::size_t w = first / 64; w * 64 < end; ++w) {
                std::uint64_t bits = g.bits[w];
                if (w * 64 < first) bits &= ~std::uint64_t{0} << (first - w * 64);
                if (end - w * 64 < 64) bits &= (std::uint64_t{1} << (end - w * 64)) - 1;
                for (; bits != 0; bits &= bits - 1) line[at + w * 64 + count_trailing_zeros(bits) - first] = '#';
            }
            line += '"';
            if (r + 1 == g.rows) line += "]}";
            out.write(line.data(), static_cast<std::streamsize>(line.size()));
        }
        if (g.rows == 0) out.write("]}", 2);
    }
    out.write(kTail.data(), static_cast<std::streamsize>(kTail.size()));
}

}  // namespace collide::detail
