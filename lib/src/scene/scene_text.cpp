// The text of a collide scene, for imported maps (scene_text.hpp).
#include "scene/scene_text.hpp"

#include "support/text_encoding.hpp"

namespace collide::detail {

namespace {
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

SceneText::SceneText(SceneBuilder& build) : build_(&build) {
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
    if (build_) return doc_->key(k);
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
        doc_->key("type");
        doc_->string(type);
        return;
    }
    out_ = &shapes_;
    shapes_ += shape_count_ == 0 ? "\n  {\"id\": " : ",\n  {\"id\": ";
    json_string(shapes_, id);
    key("type");
    json_string(shapes_, type);
}

void SceneText::begin_parts() {
    key("parts");
    if (build_) return doc_->begin_array();
    shapes_ += '[';
    parts_ = 0;
}

void SceneText::begin_part(std::string_view type) {
    if (build_) {
        doc_->begin_object();
        doc_->key("type");
        return doc_->string(type);
    }
    shapes_ += parts_++ == 0 ? "{\"type\": " : ", {\"type\": ";
    json_string(shapes_, type);
}

void SceneText::end_part() {
    if (build_) return doc_->end();
    shapes_ += '}';
}

void SceneText::end_parts() {
    if (build_) return doc_->end();
    shapes_ += ']';
}

void SceneText::number(std::string_view k, double v) {
    key(k);
    if (build_) return doc_->number(v);
    append_number(*out_, v);
}

void SceneText::pair(std::string_view k, Vec2 v) {
    key(k);
    if (build_) {
        const double xy[2] = {v.x, v.y};
        return doc_->numbers(xy, 2);
    }
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
        return doc_->end();
    }
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

void SceneText::end_shape(const std::vector<std::string>& groups) {
    ++shape_count_;
    if (build_) {
        if (!groups.empty()) {
            doc_->key("groups");
            doc_->begin_array();
            std::string fixed;
            for (const std::string& g : groups) doc_->string(as_utf8(g, fixed));
            doc_->end();
        }
        doc_->end();
        batch_.push_back(doc_->built());
        if (batch_.size() == kBatch) hand_over();
        return;
    }
    if (!groups.empty()) {
        key("groups");
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

std::string SceneText::text() {
    // The text so far is moved, not copied: a big map's scene is tens of MB.
    std::string out = std::move(shapes_);
    out += "\n ],\n \"grids\": [\n ]}\n";
    shapes_ = kHead;
    shape_count_ = 0;
    return out;
}

std::string with_grids(std::string text, const std::vector<Grid>& grids) {
    static const std::string kTail = "\n ]}\n";
    if (grids.empty() || text.size() < kTail.size()) return text;
    std::string out = text.substr(0, text.size() - kTail.size());
    text.clear();
    for (std::size_t k = 0; k < grids.size(); ++k) {
        const Grid& g = grids[k];
        out += k == 0 ? "\n  {\"id\": " : ",\n  {\"id\": ";
        json_string(out, g.id);
        if (!g.groups.empty()) {
            out += ", \"groups\": ";
            groups_array(out, g.groups.names());
        }
        for (const auto& [key, v] : {std::pair<const char*, Vec2>{"tile_size", g.tile}, {"origin", g.origin}}) {
            out += ", \"";
            out += key;
            out += "\": [";
            append_number(out, v.x);
            out += ", ";
            append_number(out, v.y);
            out += ']';
        }
        out += g.outside_solid ? ", \"outside\": \"solid\"" : ", \"outside\": \"empty\"";
        out += ", \"rows\": [";
        out.reserve(out.size() + g.rows * (g.cols + 8) + 16);
        for (std::size_t r = 0; r < g.rows; ++r) {
            out += r == 0 ? "\n    \"" : ",\n    \"";
            for (std::size_t c = 0; c < g.cols; ++c) out += g.solid(c, r) ? '#' : '.';  // nothing to escape
            out += '"';
        }
        out += "]}";
    }
    out += kTail;
    return out;
}

}  // namespace collide::detail
