// Godot scenes' files and nodes (godot_scene.hpp): loading with res:// paths, the node tree
// with instanced scenes expanded, and the global transforms.
#include "collide/error.hpp"
#include "maps/godot_scene.hpp"
#include "support/big_alloc.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <unordered_map>

namespace collide::detail::godot {

namespace {

constexpr std::size_t kMaxInstanceDepth = 64;

std::string folder_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

std::optional<std::string_view> string_attr(const Section& s, std::string_view name) {
    const Value* v = s.attribute(name);
    if (v && v->kind == Value::Kind::String) return v->text();
    return std::nullopt;
}

// Node2D and the classes derived from it that levels hold: their position, rotation, scale and
// skew place their children. Every other class (Node, CanvasLayer, Control, ...) stops the
// chain: a node under it is placed by its own transform alone.
bool is_node2d(std::string_view type) {
    if (type.size() > 2 && type.substr(type.size() - 2) == "2D") return true;
    return type == "TileMapLayer" || type == "TileMap" || type == "ParallaxLayer";
}

bool ends_with_ci(std::string_view s, std::string_view suffix) {
    if (s.size() < suffix.size()) return false;
    for (std::size_t i = 0; i < suffix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i]) return false;
    return true;
}

bool is_3d(std::string_view type) { return type.size() > 2 && type.substr(type.size() - 2) == "3D"; }

}  // namespace

Affine Affine::compose(Vec2 position, double rotation, Vec2 scale, double skew) {
    Affine a;
    a.x = Vec2{std::cos(rotation) * scale.x, std::sin(rotation) * scale.x};
    a.y = Vec2{-std::sin(rotation + skew) * scale.y, std::cos(rotation + skew) * scale.y};
    a.origin = position;
    return a;
}

void fail(const std::string& file, std::uint32_t line, std::uint32_t column, const std::string& message) {
    throw Error(file, "", message, static_cast<int>(line), static_cast<int>(column));
}

const Prop* Node::prop(std::string_view key) const {
    for (std::size_t k = props.size(); k-- > 0;)
        if (props[k].key == key) return &props[k];
    return nullptr;
}

std::string_view TextArena::join(std::string_view a, char sep, std::string_view b) {
    const std::size_t n = a.size() + (a.empty() ? 0 : 1) + b.size();
    constexpr std::size_t kBlock = 1 << 16;
    if (left_ < n) {
        const std::size_t size = std::max(n, kBlock);
        next_ = blocks_.emplace_back(new char[size]).get();
        left_ = size;
    }
    char* out = next_;
    char* p = std::copy(a.begin(), a.end(), out);
    if (!a.empty()) *p++ = sep;
    std::copy(b.begin(), b.end(), p);
    next_ += n;
    left_ -= n;
    return std::string_view(out, n);
}

Files::Files(const std::string& scene, const FileLoader& load) : scene_(scene), loader_(load) {}

const Loaded& Files::add(std::unique_ptr<Loaded> loaded, std::string_view text) {
    loaded->doc = parse_text_resource(loaded->path, text);
    for (const Section& s : loaded->doc.sections) {
        if (s.tag != "ext_resource" && s.tag != "sub_resource") continue;
        const std::optional<std::string_view> id = string_attr(s, "id");
        if (!id) continue;
        if (s.tag == "ext_resource") loaded->ext[*id] = &s;
        if (s.tag == "sub_resource") loaded->sub[*id] = &s;
    }
    const std::string path = loaded->path;
    return *(files_[path] = std::move(loaded));
}

const Loaded& Files::scene(std::string_view text) {
    auto loaded = std::make_unique<Loaded>();
    loaded->path = scene_;
    return add(std::move(loaded), text);
}

const Loaded& Files::load(const std::string& path, const Loaded* from) {
    std::string full;
    if (path.rfind("res://", 0) == 0) {
        if (!root_) {
            // The nearest folder above the scene that holds project.godot; the scene's own
            // folder when none does.
            std::string dir = folder_of(scene_);
            root_ = dir;
            for (int up = 0; up < 64; ++up) {
                try {
                    loader_(dir + "project.godot");
                    root_ = dir;
                    break;
                } catch (const Error&) {
                }
                if (dir.empty()) dir = "../";
                else if (dir == "/") break;
                else if (dir.size() >= 3 && dir.compare(dir.size() - 3, 3, "../") == 0 && dir.find_first_not_of("./") == std::string::npos) dir += "../";
                else dir = folder_of(dir.substr(0, dir.size() - 1));
            }
        }
        full = *root_ + path.substr(6);
    } else {
        full = (path.rfind('/', 0) == 0 ? std::string() : folder_of(from ? from->path : scene_)) + path;
    }
    const auto it = files_.find(full);
    if (it != files_.end()) return *it->second;
    auto loaded = std::make_unique<Loaded>();
    loaded->path = full;
    loaded->own_text = loader_(full);
    const std::string_view text = loaded->own_text;
    return add(std::move(loaded), text);
}

Resource resource(Files& files, const Loaded& in, const Value& v) {
    if (!v.is_call("SubResource") && !v.is_call("ExtResource")) return {};
    if (v.items().size() != 1 || v.items()[0].kind != Value::Kind::String)
        fail(in.path, v.line, v.column, std::string(v.text()) + "(...) takes one id string");
    const std::string_view id = v.items()[0].text();
    if (v.text() == "SubResource") {
        const auto it = in.sub.find(id);
        if (it == in.sub.end()) fail(in.path, v.line, v.column, "SubResource(\"" + std::string(id) + "\") names no [sub_resource]");
        const std::optional<std::string_view> type = string_attr(*it->second, "type");
        return Resource{it->second, type ? *type : std::string_view(), &in};
    }
    const auto it = in.ext.find(id);
    if (it == in.ext.end()) fail(in.path, v.line, v.column, "ExtResource(\"" + std::string(id) + "\") names no [ext_resource]");
    const std::optional<std::string_view> path = string_attr(*it->second, "path");
    if (!path) fail(in.path, it->second->line, it->second->column, "[ext_resource] id \"" + std::string(id) + "\" has no path");
    const Loaded& res = files.load(std::string(*path), &in);
    // A .tres: [gd_resource type=...] says the class, its [resource] section holds the properties.
    const Section* head = res.doc.sections.empty() ? nullptr : &res.doc.sections[0];
    const std::optional<std::string_view> type = head && head->tag == "gd_resource" ? string_attr(*head, "type") : std::nullopt;
    for (const Section& s : res.doc.sections)
        if (s.tag == "resource") return Resource{&s, type ? *type : std::string_view(), &res};
    fail(res.path, 1, 1, "no [resource] section");
}

namespace {

// Builds the tree of one file's nodes into `tree` under `at` (-1: as the root).
class TreeBuilder {
public:
    TreeBuilder(Files& files, Tree& tree) : files_(files), tree_(tree) {}

    void scene(const Loaded& file, int at, std::uint32_t line, std::uint32_t column, std::size_t depth) {
        if (depth > kMaxInstanceDepth) fail(file.path, line, column, "scenes instanced more than 64 deep");
        if (std::find(stack_.begin(), stack_.end(), file.path) != stack_.end())
            fail(files_.scene_path(), line, column, "an instancing cycle: '" + file.path + "' instances itself");
        stack_.push_back(file.path);
        const bool outer = depth == 0;
        std::vector<int> local;  // this file's nodes, [0] its root
        Resolved resolved;       // this file's parent= texts, resolved
        for (const Section& s : file.doc.sections) {
            if (s.tag != "node") continue;
            node(file, s, at, local, resolved, outer ? s.line : line, outer ? s.column : column, depth);
        }
        stack_.pop_back();
    }

private:
    // A file's parent= texts and the nodes they name: siblings name their parent again and
    // again (a level's Coins may hold 40,000 of them).
    using Resolved = std::unordered_map<std::string_view, int>;

    int add_node(int parent, std::string_view name) {
        Node n;
        n.name = name;
        n.parent = parent;
        const int index = static_cast<int>(tree_.nodes.size());
        if (parent >= 0) {
            Node& p = tree_.nodes[static_cast<std::size_t>(parent)];
            n.path = tree_.paths.join(p.path, '/', name);
            n.skipped = p.skipped;
            if (p.last_child >= 0) tree_.nodes[static_cast<std::size_t>(p.last_child)].next_sibling = index;
            else p.first_child = index;
            p.last_child = index;
            if (p.indexed) children_.emplace(child_key(parent, name), index);
        } else {
            n.path = tree_.paths.join({}, '/', name);
        }
        tree_.nodes.push_back(std::move(n));
        return index;
    }

    // The children of `parent`, in order.
    std::vector<int> children(int parent) const {
        std::vector<int> out;
        for (int c = tree_.nodes[static_cast<std::size_t>(parent)].first_child; c >= 0; c = tree_.nodes[static_cast<std::size_t>(c)].next_sibling)
            out.push_back(c);
        return out;
    }
    // `parent`'s children linked again in the order of `order`.
    void relink(int parent, const std::vector<int>& order) {
        Node& p = tree_.nodes[static_cast<std::size_t>(parent)];
        p.first_child = order.empty() ? -1 : order.front();
        p.last_child = order.empty() ? -1 : order.back();
        for (std::size_t k = 0; k < order.size(); ++k)
            tree_.nodes[static_cast<std::size_t>(order[k])].next_sibling = k + 1 < order.size() ? order[k + 1] : -1;
    }

    // The node's properties: `more` after those it has (moved to the end of Tree::props first,
    // unless they are there already).
    void add_props(std::size_t index, Span<Entry> more, const Loaded& file) {
        if (more.empty()) return;
        Node& n = tree_.nodes[index];
        std::vector<Prop>& store = tree_.props;
        if (n.props_at + n.props_count != store.size()) {
            const std::size_t from = n.props_at;
            n.props_at = static_cast<std::uint32_t>(store.size());
            for (std::size_t k = 0; k < n.props_count; ++k) store.push_back(store[from + k]);
        }
        for (const auto& [key, value] : more) store.push_back(Prop{key, &value, &file});
        n.props_count += static_cast<std::uint32_t>(more.size());
    }

    // The child of `parent` called `name`, or -1: found by name, not by a walk over siblings
    // (a level's Coins may hold 40,000 of them).
    static std::string child_key(int parent, std::string_view name) {
        std::string key = std::to_string(parent);
        key += '/';
        key += name;
        return key;
    }
    int child(int parent, std::string_view name) {
        // A parent's children are indexed the first time one is asked for (most never are:
        // siblings come in a row, and only an instance's children are looked up to override).
        if (!tree_.nodes[static_cast<std::size_t>(parent)].indexed) {
            tree_.nodes[static_cast<std::size_t>(parent)].indexed = true;
            for (const int c : children(parent)) children_.emplace(child_key(parent, tree_.nodes[static_cast<std::size_t>(c)].name), c);
        }
        const auto it = children_.find(child_key(parent, name));
        return it == children_.end() ? -1 : it->second;
    }

    // The node a `parent="A/B"` attribute names among this file's nodes.
    int parent_of(const Loaded& file, const Section& s, const Value* attr, const std::vector<int>& local, Resolved& resolved) {
        if (!attr) return -1;
        if (attr->kind != Value::Kind::String && attr->kind != Value::Kind::NodePath)
            fail(file.path, attr->line, attr->column, "parent= must be a string, not " + describe(*attr));
        const std::string_view parent = attr->text();
        if (local.empty()) fail(file.path, s.line, s.column, "a node with a parent before the scene's root");
        int at = local[0];
        if (parent == ".") return at;
        // The node written just before, whose first child this is ...
        if (last_added_.names(&file, at, parent)) return recent(&file, at, parent, last_added_.index);
        // ... or a parent named lately (a sibling's, an uncle's) ...
        for (const Recent& r : recent_)
            if (r.file == &file && r.root == at && r.text == parent) return r.index;
        // ... or before.
        if (const auto it = resolved.find(parent); it != resolved.end()) return recent(&file, at, parent, it->second);
        std::size_t from = 0;
        while (from <= parent.size()) {
            std::size_t to = parent.find('/', from);
            if (to == std::string_view::npos) to = parent.size();
            const std::string_view part = parent.substr(from, to - from);
            const int next = child(at, part);
            // Under a node that was skipped (an instanced 3D model is not read), its unread
            // children are the skipped node itself: what is added there is skipped with it.
            if (next < 0 && tree_.nodes[static_cast<std::size_t>(at)].skipped) return at;
            if (next < 0) fail(file.path, s.line, s.column, "parent \"" + std::string(parent) + "\" names no node");
            at = next;
            from = to + 1;
        }
        resolved.emplace(parent, at);
        return recent(&file, local[0], parent, at);
    }

    void node(const Loaded& file, const Section& s, int at, std::vector<int>& local, Resolved& resolved, std::uint32_t line,
              std::uint32_t column, std::size_t depth) {
        // The attributes, in one pass (the last one of a name counts).
        const Value *name_attr = nullptr, *parent_attr = nullptr, *type_attr = nullptr, *instance = nullptr, *groups = nullptr,
                    *at_index = nullptr, *placeholder = nullptr;
        for (const Entry& e : s.attributes) {
            const std::string_view k = e.first;
            if (k == "name") name_attr = &e.second;
            else if (k == "parent") parent_attr = &e.second;
            else if (k == "type") type_attr = &e.second;
            else if (k == "instance") instance = &e.second;
            else if (k == "groups") groups = &e.second;
            else if (k == "index") at_index = &e.second;
            else if (k == "instance_placeholder") placeholder = &e.second;
        }
        const std::optional<std::string_view> name =
            name_attr && name_attr->kind == Value::Kind::String ? std::optional(name_attr->text()) : std::nullopt;
        if (!name) fail(file.path, s.line, s.column, "a [node] without a name");
        const bool root = parent_attr == nullptr;
        if (root && !local.empty()) fail(file.path, s.line, s.column, "a second root node '" + std::string(*name) + "'");
        int index;
        if (root && at >= 0) {
            index = at;  // an instanced scene's root is the instancing node
        } else {
            const int parent = root ? -1 : parent_of(file, s, parent_attr, local, resolved);
            // Its path under this file's root, for the child that may follow it.
            if (!root) last_added_ = LastAdded{&file, local[0], parent_attr->text(), *name, -1};
            // A node written again under an instance overrides it (editable children).
            // Only under an instance can a node be there already (Godot writes a node once).
            index = parent >= 0 && tree_.nodes[static_cast<std::size_t>(parent)].instanced ? child(parent, *name) : -1;
            if (index < 0) {
                index = add_node(parent, *name);
                // index="K": added among an instance's children at K, as Godot places it.
                // Godot writes it as a string ("0").
                std::int64_t wanted = -1;
                if (at_index && at_index->kind == Value::Kind::Int) wanted = at_index->integer;
                if (at_index && at_index->kind == Value::Kind::String) {
                    const std::string_view digits = at_index->text();
                    std::from_chars(digits.data(), digits.data() + digits.size(), wanted);
                }
                if (parent >= 0 && wanted >= 0) {
                    std::vector<int> siblings = children(parent);
                    const auto k = static_cast<std::size_t>(std::min<std::int64_t>(wanted, static_cast<std::int64_t>(siblings.size()) - 1));
                    std::rotate(siblings.begin() + static_cast<std::ptrdiff_t>(k), siblings.end() - 1, siblings.end());
                    relink(parent, siblings);
                }
            }
        }
        if (root) local.push_back(index);
        else last_added_.index = index;
        Node* n = &tree_.nodes[static_cast<std::size_t>(index)];
        if (n->line == 0 || depth == 0) {
            n->line = line;
            n->column = column;
            n->file = &file;
        }
        if (type_attr && type_attr->kind == Value::Kind::String) n->type = type_attr->text();
        if (placeholder) {
            warn(*n, "an instance placeholder, skipped");
            n->skipped = true;
        }
        if (const Value* inst = instance) {
            if (!inst->is_call("ExtResource") || inst->items().size() != 1)
                fail(file.path, inst->line, inst->column, "instance= takes an ExtResource(\"id\")");
            const auto it = file.ext.find(inst->items()[0].text());
            if (it == file.ext.end()) fail(file.path, inst->line, inst->column, "instance names no [ext_resource]");
            const std::optional<std::string_view> path = string_attr(*it->second, "path");
            if (!path) fail(file.path, it->second->line, it->second->column, "[ext_resource] has no path");
            if (n->skipped) {
                // Under a 3D node, a SubViewport or a placeholder: not read at all.
            } else if (ends_with_ci(*path, ".scn")) {
                fail(file.path, inst->line, inst->column, who(*n) + ": instances a binary scene ('" + std::string(*path) +
                                                              "'): collide reads text scenes; save it as .tscn in Godot");
            } else if (!ends_with_ci(*path, ".tscn")) {
                // A PackedScene that is not a scene file: an imported 3D model (.glb, .gltf, .dae, ...).
                warn(*n, "an instanced 3D model ('" + std::string(*path) + "'), skipped with what it holds");
                n->skipped = true;
            } else {
                const Loaded& inner = files_.load(std::string(*path), &file);
                const std::size_t first = tree_.nodes.size();
                scene(inner, index, line, column, depth + 1);
                // What the instance brought may be overridden by name from here on.
                for (std::size_t k = first; k < tree_.nodes.size(); ++k) tree_.nodes[k].instanced = true;
                n = &tree_.nodes[static_cast<std::size_t>(index)];
                n->instanced = true;
            }
        }
        if (groups)
            for (const Value& g : groups->items())
                if (g.kind == Value::Kind::String || g.kind == Value::Kind::StringName) n->groups.push_back(g.text());
        add_props(static_cast<std::size_t>(index), s.properties, file);
        if (!n->skipped && (is_3d(n->type) || n->type == "SubViewport")) {
            warn(*n, n->type == "SubViewport" ? "a SubViewport (another physics world), skipped with what it holds"
                                               : "a 3D node, skipped with what it holds");
            n->skipped = true;
        }
    }

    void warn(const Node& n, const std::string& message) {
        tree_.warnings.push_back(files_.scene_path() + ": " + who(n) + ": " + message);
        tree_.warning_places.emplace_back(n.line, n.column);
    }

    Files& files_;
    Tree& tree_;
    std::vector<std::string> stack_;  // the files being expanded
    std::unordered_map<std::string, int> children_;  // child_key(parent, name) -> the child, for Node::indexed parents
    // The parents named lately, the latest at recent_[0]: a body's second shape names its
    // parent again after the first one's parent= was found as the node added before.
    struct Recent {
        const Loaded* file = nullptr;
        int root = -1;
        std::string_view text;
        int index = -1;
    };
    std::array<Recent, 4> recent_;
    int recent(const Loaded* file, int root, std::string_view text, int index) {
        if (recent_[0].file != file || recent_[0].root != root || recent_[0].text != text) {
            std::copy_backward(recent_.begin(), recent_.end() - 1, recent_.end());
            recent_[0] = Recent{file, root, text, index};
        }
        return index;
    }

    // The node added last: its file, that file's root, its parent= text and name.
    struct LastAdded {
        const Loaded* file = nullptr;
        int root = -1;
        std::string_view above, name;
        int index = -1;
        // Whether `parent`, in `file` under `root`, names this node: "NAME", or "ABOVE/NAME".
        bool names(const Loaded* in, int under, std::string_view parent) const {
            if (in != file || under != root || index < 0) return false;
            if (above == ".") return parent == name;
            return parent.size() == above.size() + 1 + name.size() && parent.substr(0, above.size()) == above &&
                   parent[above.size()] == '/' && parent.substr(above.size() + 1) == name;
        }
    } last_added_;
};

}  // namespace

void prefetch_props(const Node& n, bool items) {
#if defined(__GNUC__)
    for (const Prop& p : n.props) {
        if (!items) {
            __builtin_prefetch(p.key.data());
            __builtin_prefetch(p.value);
        } else if (!p.value->items().empty()) {
            __builtin_prefetch(p.value->items().begin());
        }
    }
#else
    (void)n;
    (void)items;
#endif
}

namespace {

// A node's own transform: its position, rotation, scale and skew in the order written (a
// `transform` sets all four).
Affine local_of(const Node& n) {
    Vec2 position{0, 0}, scale{1, 1};
    double rotation = 0, skew = 0;
    for (const Prop& p : n.props) {
        if (p.key == "position") position = vector_prop(n, &p, position);
        else if (p.key == "rotation") rotation = number_prop(n, &p, rotation);
        else if (p.key == "scale") scale = vector_prop(n, &p, scale);
        else if (p.key == "skew") skew = number_prop(n, &p, skew);
        else if (p.key == "transform" && p.value->is_call("Transform2D") && p.value->items().size() == 6) {
            // Node2D::set_transform: the parts read back from the matrix.
            const Span<Value> it = p.value->items();
            const Vec2 x{it[0].number(), it[1].number()}, y{it[2].number(), it[3].number()};
            position = Vec2{it[4].number(), it[5].number()};
            rotation = std::atan2(x.y, x.x);
            const double det = x.x * y.y - x.y * y.x;
            scale = Vec2{std::hypot(x.x, x.y), (det < 0 ? -1 : 1) * std::hypot(y.x, y.y)};
            // y = (-sin(rotation + skew), cos(rotation + skew)) * scale.y
            const double sign = det < 0 ? -1 : 1;
            skew = std::atan2(-sign * y.x, sign * y.y) - rotation;
        }
    }
    return Affine::compose(position, rotation, scale, skew);
}

}  // namespace

Tree read_tree(Files& files, const Loaded& scene) {
    Tree tree;
    const Section* head = scene.doc.sections.empty() ? nullptr : &scene.doc.sections[0];
    if (!head || head->tag != "gd_scene") fail(scene.path, 1, 1, "not a Godot scene: it does not start with [gd_scene ...]");
    if (const Value* format = head->attribute("format"); format && format->kind == Value::Kind::Int && format->integer < 3)
        fail(scene.path, head->line, head->column,
             "a Godot 3 scene (format=" + std::to_string(format->integer) + "): collide reads Godot 4 scenes (format=3 or 4)");
    // Room for the scene's own nodes and properties (instances add more).
    std::size_t nodes = 0, props = 0;
    for (const Section& s : scene.doc.sections)
        if (s.tag == "node") ++nodes, props += s.properties.size();
    reserve_huge(tree.nodes, nodes);
    reserve_huge(tree.props, props);
    TreeBuilder(files, tree).scene(scene, -1, 1, 1, 0);
    if (tree.nodes.empty()) fail(scene.path, head->line, head->column, "a scene without nodes");
    for (Node& n : tree.nodes) n.props = Span<Prop>(tree.props.data() + n.props_at, n.props_count);
    reserve_huge(tree.globals, tree.nodes.size());
    tree.globals.resize(tree.nodes.size());
    for (std::size_t i = 1; i < tree.nodes.size(); ++i) {  // the root's own transform is not applied
        if (i + kAhead < tree.nodes.size()) prefetch_props(tree.nodes[i + kAhead], false);
        const Node& n = tree.nodes[i];
        const Node& parent = tree.nodes[static_cast<std::size_t>(n.parent)];
        const bool chained = n.parent > 0 && is_node2d(parent.type) && !bool_prop(n, n.prop("top_level"), false);
        const Affine local = is_node2d(n.type) ? local_of(n) : Affine{};
        tree.globals[i] = chained ? tree.globals[static_cast<std::size_t>(n.parent)] * local : local;
    }
    return tree;
}

Vec2 vector_value(const std::string& file, const Value& v, const What& what) {
    const Span<Value> xy = v.items();
    if ((!v.is_call("Vector2") && !v.is_call("Vector2i")) || xy.size() != 2)
        fail(file, v.line, v.column, what.text() + " must be a Vector2(x, y), not " + describe(v));
    for (const Value& c : xy)
        if (!c.is_number()) fail(file, c.line, c.column, what.text() + ": " + describe(c) + " where a number belongs");
    return Vec2{xy[0].number(), xy[1].number()};
}

double number_prop(const Node& n, const Prop* p, double fallback) {
    if (!p) return fallback;
    if (!p->value->is_number())
        fail(p->from->path, p->value->line, p->value->column, who(n) + ": " + std::string(p->key) + " must be a number, not " + describe(*p->value));
    return p->value->number();
}

Vec2 vector_prop(const Node& n, const Prop* p, Vec2 fallback) {
    if (!p) return fallback;
    return vector_value(p->from->path, *p->value, What{n, p->key});
}

bool bool_prop(const Node& n, const Prop* p, bool fallback) {
    if (!p) return fallback;
    if (p->value->kind != Value::Kind::Bool)
        fail(p->from->path, p->value->line, p->value->column, who(n) + ": " + std::string(p->key) + " must be true or false, not " + describe(*p->value));
    return p->value->boolean;
}

std::vector<Vec2> points_of(const std::string& file, const Value& v, const What& what) {
    std::vector<Vec2> out;
    if (v.is_call("PackedVector2Array")) {
        const Span<Value> n = v.items();
        out.reserve(n.size() / 2);
        if (n.size() % 2 != 0) fail(file, v.line, v.column, what.text() + ": a PackedVector2Array of an odd count of numbers");
        for (std::size_t k = 0; k < n.size(); k += 2) {
            if (!n[k].is_number() || !n[k + 1].is_number())
                fail(file, n[k].line, n[k].column, what.text() + ": expected numbers in the PackedVector2Array");
            out.push_back(Vec2{n[k].number(), n[k + 1].number()});
        }
        return out;
    }
    if (v.kind == Value::Kind::Array) {
        for (const Value& p : v.items()) {
            const Span<Value> xy = p.items();
            if (!p.is_call("Vector2") || xy.size() != 2 || !xy[0].is_number() || !xy[1].is_number())
                fail(file, p.line, p.column, what.text() + ": expected Vector2(x, y), found " + describe(p));
            out.push_back(Vec2{xy[0].number(), xy[1].number()});
        }
        return out;
    }
    fail(file, v.line, v.column, what.text() + ": expected a PackedVector2Array(...), found " + describe(v));
}

}  // namespace collide::detail::godot
