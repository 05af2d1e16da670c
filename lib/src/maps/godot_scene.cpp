// A Godot scene as a collide scene (godot_scene.hpp, SPEC §1.6): each collision object one
// shape (its one-way shapes another), groups from the node, and the pairs Godot's layers and
// masks let meet.
#include "maps/godot_scene.hpp"

#include "collide/error.hpp"
#include "maps/built_scene.hpp"
#include "maps/godot_shapes.hpp"
#include "maps/godot_tiles.hpp"
#include "maps/tiled_model.hpp"
#include "support/lane.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <exception>
#include <memory>
#include <bitset>
#include <cmath>
#include <set>

namespace collide::detail::godot {

namespace {

bool is_body(std::string_view type) {
    return type == "StaticBody2D" || type == "AnimatableBody2D" || type == "CharacterBody2D" || type == "RigidBody2D" ||
           type == "PhysicalBone2D" || type == "Area2D";
}
bool is_shape_node(std::string_view type) { return type == "CollisionShape2D" || type == "CollisionPolygon2D"; }

// A collision_layer or collision_mask: its bits 1 to 32.
std::bitset<32> bits(const Node& n, const char* key) {
    const Prop* p = n.prop(key);
    const double v = number_prop(n, p, 1);
    if (!(v >= 0 && v <= 4294967295.0) || v != std::floor(v))
        fail(p->from->path, p->value->line, p->value->column, who(n) + ": " + key + " must be a whole number from 0 to 2^32 - 1");
    return std::bitset<32>(static_cast<unsigned long long>(v));
}

class Converter {
public:
    Converter(Files& files, const Tree& tree, MapImport& out, MapBuild build)
        : files_(files), tree_(tree), out_(out), scene_(out.name, build) {}

    void run() {
        for (std::size_t i = 0; i < tree_.warnings.size(); ++i)
            warn_at(tree_.warnings[i], tree_.warning_places[i].first, tree_.warning_places[i].second);
        // Each node's part of the scene is made, then written once all before it are: a tile
        // layer's cells are sorted out on the lane while the bodies after it are made.
        for (std::size_t i = 0; i < tree_.nodes.size() && !failed_; ++i) {
            if (i + kAhead < tree_.nodes.size()) prefetch_props(tree_.nodes[i + kAhead], false);
            if (i + kAhead / 2 < tree_.nodes.size()) prefetch_props(tree_.nodes[i + kAhead / 2], true);
            const Node& n = tree_.nodes[i];
            if (n.skipped) continue;
            const bool tiles = n.type == "TileMapLayer" || n.type == "TileMap";
            const bool lone_shape = is_shape_node(n.type) && (n.parent < 0 || !is_body(tree_.nodes[static_cast<std::size_t>(n.parent)].type));
            if (!is_body(n.type) && !tiles && !lone_shape) continue;
            Item& item = queue_.emplace_back();
            item.node = i;
            try {
                if (is_body(n.type)) {
                    item.body = spare_.empty() ? std::make_unique<Body>() : take_spare();
                    make_body(n, *item.body);
                } else if (tiles) {
                    item.tiles = std::make_unique<TileLayers>(files_, tree_, i);
                    item.ready = std::make_unique<std::atomic<bool>>(false);
                    lane_.post([t = item.tiles.get(), ready = item.ready.get()] {
                        t->prepare();
                        ready->store(true, std::memory_order_release);
                    });
                }
            } catch (...) {
                item.error = std::current_exception();
                failed_ = true;  // nothing after it is written
            }
            write_ready(false);
        }
        write_ready(true);
        std::vector<std::string> pairs;
        for (std::size_t b = 0; b < 32; ++b)
            if (layers_[b] && masks_[b]) pairs.push_back("mask-" + std::to_string(b + 1) + ":layer-" + std::to_string(b + 1));
        scene_->set_pairs(pairs);
        scene_->ids_unique();  // every shape's id went through ids_
        scene_.finish(out_);
    }

private:
    // A body made: its shapes' parts, layer and mask bits and ignores (its groups are made as
    // it is written: bodies wait in the queue while a tile layer before them is sorted out).
    struct Body {
        BodyParts parts;
        std::bitset<32> layer, mask;
        std::vector<std::string> ignore;
    };
    // One node's part of the scene, in node order: a body, a tile layer being sorted out (ready
    // when done), a shape node without a body (a warning), or the error making it met.
    struct Item {
        std::size_t node = 0;
        std::unique_ptr<Body> body;
        std::unique_ptr<TileLayers> tiles;
        std::unique_ptr<std::atomic<bool>> ready;
        std::exception_ptr error;
    };

    std::unique_ptr<Body> take_spare() {
        std::unique_ptr<Body> b = std::move(spare_.back());
        spare_.pop_back();
        return b;
    }

    // Writes the items at the queue's front, up to a tile layer still being sorted out (with
    // `wait`, all of them).
    void write_ready(bool wait) {
        while (!queue_.empty()) {
            Item& item = queue_.front();
            if (item.ready && !item.ready->load(std::memory_order_acquire)) {
                if (!wait) return;
                lane_.wait();
            }
            if (item.error) std::rethrow_exception(item.error);
            const Node& n = tree_.nodes[item.node];
            // Bodies made behind a tile layer are written in one run once it is ready (all of a
            // level's, as it comes first): where the id of the one kAhead will be looked up is
            // asked of the memory now, a cache miss each in a table of 100,000s.
            if (queue_.size() > kAhead && queue_[kAhead].body) ids_.prefetch(tree_.nodes[queue_[kAhead].node].path);
            if (item.body) {
                write_body(n, *item.body);
                spare_.push_back(std::move(item.body));
            } else if (item.tiles) {
                item.tiles->write(*scene_, out_, ids_, layers_, masks_);
            } else {
                warn(n, "a " + std::string(n.type) + " whose parent is not a collision object, skipped (Godot ignores it)");
            }
            queue_.pop_front();
        }
    }

    void warn(const Node& n, const std::string& message) { warn_at(out_.name + ": " + who(n) + ": " + message, n.line, n.column); }
    void warn_at(const std::string& message, std::uint32_t line, std::uint32_t column) {
        out_.warnings.push_back(message);
        out_.warning_sources.push_back(MapSource{message, "", static_cast<int>(line), static_cast<int>(column), MapSource::kNoTile, {}});
        out_.sources.add(out_.sources.warnings, line, column, "");
    }

    // `b` (a Body kept from before, with the room it has) made for body node `n`.
    void make_body(const Node& n, Body& b) {
        BodyParts& parts = b.parts;
        parts.parts.clear();
        parts.one_way.clear();
        parts.world_boundary = false;
        for (int c = n.first_child; c >= 0; c = tree_.nodes[static_cast<std::size_t>(c)].next_sibling) {
            const Node& child = tree_.nodes[static_cast<std::size_t>(c)];
            if (child.skipped || !is_shape_node(child.type) || bool_prop(child, child.prop("disabled"), false)) continue;
            shape_parts(files_, child, tree_.globals[static_cast<std::size_t>(c)], parts);
        }
        b.layer = bits(n, "collision_layer");
        b.mask = bits(n, "collision_mask");
        b.ignore = ignored(n);
    }

    void write_body(const Node& n, Body& b) {
        layers_ |= b.layer;
        masks_ |= b.mask;
        node_groups(n, b.layer, b.mask, groups_);
        if (b.parts.world_boundary) add_group(groups_, "world-boundary");
        if (!b.parts.parts.empty()) shape(n, n.path, b.parts.parts, groups_, b.ignore);
        if (!b.parts.one_way.empty()) {
            add_group(groups_, "one-way");
            shape(n, std::string(n.path) + "#one-way", b.parts.one_way, groups_, b.ignore);
        }
    }

    // SPEC §3.1 for Godot: the node's metadata/collide_ignore (rule names, comma-separated, or *).
    static std::vector<std::string> ignored(const Node& n) {
        const Prop* p = n.prop("metadata/collide_ignore");
        if (!p) return {};
        if (p->value->kind != Value::Kind::String && p->value->kind != Value::Kind::StringName)
            fail(p->from->path, p->value->line, p->value->column, who(n) + ": metadata/collide_ignore must be a string");
        return tiled::ignored_rules({{"collide_ignore", std::string(p->value->text())}});
    }

    void shape(const Node& n, std::string_view id, const std::vector<Part>& parts, const std::vector<std::string>& groups,
               const std::vector<std::string>& ignore) {
        require_finite(n, parts);
        SceneText& out = *scene_;
        const std::string_view unique = ids_.unique(id);
        if (parts.size() == 1) {
            out.begin_shape(unique, parts[0].type);
            write_part_fields(out, parts[0]);
        } else {
            out.begin_shape(unique, "compound");
            out.begin_parts();
            for (const Part& p : parts) {
                out.begin_part(p.type);
                write_part_fields(out, p);
                out.end_part();
            }
            out.end_parts();
        }
        out.end_shape(groups, ignore);
        out_.shape_sources.push_back(MapSource{who(n), "", static_cast<int>(n.line), static_cast<int>(n.column), MapSource::kNoTile, {}});
        out_.sources.add(out_.sources.shapes, n.line, n.column, n.parent < 0 ? "" : tree_.nodes[static_cast<std::size_t>(n.parent)].path);
    }

    Files& files_;
    const Tree& tree_;
    MapImport& out_;
    SceneOut scene_;
    Ids ids_;
    std::bitset<32> layers_, masks_;  // set in some body's (or tile layer's) layer, mask
    std::deque<Item> queue_;          // made, not yet written
    std::vector<std::unique_ptr<Body>> spare_;  // written, kept for the next bodies
    std::vector<std::string> groups_;           // the groups of the body being written
    bool failed_ = false;             // an item holds an error
    Lane lane_;  // last: done with the tile layers in queue_ before they go
};

bool ends_with(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

void add_group(std::vector<std::string>& groups, std::string_view g) {
    if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.emplace_back(g);
}

void node_groups(const Node& n, const std::bitset<32>& layer, const std::bitset<32>& mask, std::vector<std::string>& groups) {
    // The strings there are written over (most fit in place): a level has 100,000s of bodies.
    std::size_t count = 0;
    const auto add = [&](std::string_view g) {
        for (std::size_t k = 0; k < count; ++k)
            if (groups[k] == g) return;
        if (count == groups.size()) groups.emplace_back(g);
        else groups[count].assign(g.data(), g.size());
        ++count;
    };
    for (const std::string_view g : n.groups) add(g);
    add(n.type);
    add(n.name);
    for (const auto& [bits, prefix] : {std::pair<const std::bitset<32>*, std::string_view>{&layer, "layer-"}, {&mask, "mask-"}})
        for (std::size_t b = 0; b < 32; ++b) {
            if (!(*bits)[b]) continue;
            char name[16];
            const std::size_t digits = b + 1 >= 10 ? 2 : 1;
            std::copy(prefix.begin(), prefix.end(), name);
            if (digits == 2) name[prefix.size()] = static_cast<char>('0' + (b + 1) / 10);
            name[prefix.size() + digits - 1] = static_cast<char>('0' + (b + 1) % 10);
            add(std::string_view(name, prefix.size() + digits));
        }
    groups.resize(count);
}

std::vector<std::string> node_groups(const Node& n, const std::bitset<32>& layer, const std::bitset<32>& mask) {
    std::vector<std::string> groups;
    node_groups(n, layer, mask, groups);
    return groups;
}

std::vector<MapImport> import_godot(const std::string& file, std::string_view text, const FileLoader& load, MapBuild build) {
    if (ends_with(file, ".scn") || ends_with(file, ".SCN"))
        throw Error(file, "", "a binary Godot scene: collide reads text scenes; save it as .tscn in Godot");
    Files files(file, load);
    const Loaded& scene = files.scene(text);
    const Tree tree = read_tree(files, scene);
    std::vector<MapImport> out(1);
    out[0].name = file;
    out[0].sources.file = file;
    Converter(files, tree, out[0], build).run();
    return out;
}

}  // namespace collide::detail::godot
