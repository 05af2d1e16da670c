// box2d_peer: the Box2D 2.4 baseline for collide's shape-versus-shape check.
//
//   box2d_peer [-q] [--sorted] FILE...
//
// Reads collide scene files the way a Box2D user would (nlohmann::json DOM), turns every shape
// into a b2Shape, inserts their AABBs into a b2DynamicTree, queries each shape's AABB for
// candidate pairs (each unordered pair once) and runs b2TestOverlap on each candidate. Every
// file is its own scene (its shapes are never paired with another file's), like
// `collide check FILE...`. Groups and `pairs` are ignored: every shape is tested against every
// other, which is what the benchmark scenes ask for ("things:things", all shapes in "things").
//
// Shape mapping (float, Box2D's units = scene units, identity transforms):
//   circle   -> b2CircleShape
//   point    -> b2CircleShape of radius kPointRadius (Box2D has no point shape)
//   rect     -> b2PolygonShape::SetAsBox (min/max, x/y/width/height or left/top/right/bottom)
//   polygon  -> b2PolygonShape of its convex hull when the hull has at most
//               b2_maxPolygonVertices (8) vertices ("hulled" counts the concave ones);
//               skipped and counted otherwise
//   segment  -> b2EdgeShape (two-sided)
//   polyline -> b2ChainShape (open chain; one proxy for the whole chain, children tested pairwise)
//   line, ray and anything else -> skipped and counted (Box2D has no infinite shapes)
// So the count of overlapping pairs is Box2D's answer, not collide's: polygons are convex
// hulls, polygons carry Box2D's skin (b2_polygonRadius, 0.01 units), touching is decided by
// b2Distance within 10 * FLT_EPSILON in float, and tree AABBs are fattened by
// b2_aabbExtension (0.1 units), which only adds candidates.
//
// --sorted inserts and queries the shapes in Morton (Z-curve) order of their AABB centres
// instead of file order: what a Box2D user who knows the tree's weak spot would do. Box2D
// 2.4's incremental insertion builds a tree whose query cost grows quickly with the number of
// shapes when they arrive in random spatial order (scene files are in random order).
//
// stdout: one summary line of key=value fields. stderr (unless -q): the phases, wall and CPU ms:
//   parse         read the file, build the JSON DOM, make the b2Shapes, free the DOM
//   build tree    b2DynamicTree::CreateProxy for every shape, in file order (--sorted: the
//                 Z-curve sort included)
//   query+narrow  b2DynamicTree::Query with every shape's AABB, b2TestOverlap on new pairs
#include <box2d/box2d.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <deque>
#include <fstream>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}
// CPU time of the process (user + system), in ms: on a shared machine the steadier figure.
double cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

constexpr float kPointRadius = 0.001f;

struct Counts {
    std::uint64_t files = 0, shapes = 0, used = 0, candidates = 0, overlaps = 0;
    std::uint64_t skipped_line = 0, skipped_ray = 0, skipped_polygon = 0, skipped_other = 0;
    std::uint64_t hulled = 0;
    double parse_ms = 0, tree_ms = 0, query_ms = 0;     // wall
    double parse_cpu = 0, tree_cpu = 0, query_cpu = 0;  // CPU
};

// One Box2D shape with its tight AABB (the union over its children).
struct Item {
    const b2Shape* shape;
    int children;
    b2AABB aabb;
};

// Owns the shapes of one scene; deques keep addresses stable while they grow.
struct Store {
    std::deque<b2CircleShape> circles;
    std::deque<b2PolygonShape> polygons;
    std::deque<b2EdgeShape> edges;
    std::deque<b2ChainShape> chains;
    std::vector<Item> items;
};

b2Vec2 vec(const nlohmann::json& p) {
    return b2Vec2(static_cast<float>(p.at(0).get<double>()), static_cast<float>(p.at(1).get<double>()));
}

double cross(const b2Vec2& o, const b2Vec2& a, const b2Vec2& b) {
    return (double(a.x) - o.x) * (double(b.y) - o.y) - (double(a.y) - o.y) * (double(b.x) - o.x);
}

// Convex hull, counter-clockwise, collinear points dropped (Andrew's monotone chain).
std::vector<b2Vec2> convex_hull(std::vector<b2Vec2> p) {
    std::sort(p.begin(), p.end(), [](const b2Vec2& a, const b2Vec2& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    p.erase(std::unique(p.begin(), p.end(), [](const b2Vec2& a, const b2Vec2& b) { return a.x == b.x && a.y == b.y; }), p.end());
    if (p.size() < 3) return p;
    std::vector<b2Vec2> h(2 * p.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        while (k >= 2 && cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
        h[k++] = p[i];
    }
    for (std::size_t i = p.size() - 1, t = k + 1; i-- > 0;) {
        while (k >= t && cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
        h[k++] = p[i];
    }
    h.resize(k - 1);
    return h;
}

// b2PolygonShape::Set asserts (Debian builds the library with assertions on) when the hull
// it computes after welding points closer than b2_linearSlop / 2 has fewer than 3 vertices;
// keep well clear of that.
bool box2d_can_take(const std::vector<b2Vec2>& hull) {
    if (hull.size() < 3 || hull.size() > static_cast<std::size_t>(b2_maxPolygonVertices)) return false;
    for (std::size_t i = 0; i < hull.size(); ++i) {
        const b2Vec2 d = hull[(i + 1) % hull.size()] - hull[i];
        if (d.LengthSquared() < 4 * b2_linearSlop * b2_linearSlop) return false;
    }
    double area2 = 0;
    for (std::size_t i = 0; i < hull.size(); ++i) area2 += cross(hull[0], hull[i], hull[(i + 1) % hull.size()]);
    return area2 > 1e-6;
}

void add(Store& s, const b2Shape* shape) {
    Item it{shape, shape->GetChildCount(), {}};
    const b2Transform xf = b2Transform(b2Vec2(0, 0), b2Rot(0));
    shape->ComputeAABB(&it.aabb, xf, 0);
    for (int c = 1; c < it.children; ++c) {
        b2AABB a;
        shape->ComputeAABB(&a, xf, c);
        it.aabb.Combine(a);
    }
    s.items.push_back(it);
}

void make_rect(Store& s, const nlohmann::json& j) {
    double x0, y0, x1, y1;
    if (j.contains("min")) {
        x0 = j["min"][0].get<double>(); y0 = j["min"][1].get<double>();
        x1 = j["max"][0].get<double>(); y1 = j["max"][1].get<double>();
    } else if (j.contains("width")) {
        x0 = j["x"].get<double>(); y0 = j["y"].get<double>();
        x1 = x0 + j["width"].get<double>(); y1 = y0 + j["height"].get<double>();
    } else {
        x0 = j["left"].get<double>(); x1 = j["right"].get<double>();
        y0 = j["top"].get<double>(); y1 = j["bottom"].get<double>();
    }
    if (x0 > x1) std::swap(x0, x1);
    if (y0 > y1) std::swap(y0, y1);
    auto& p = s.polygons.emplace_back();
    const float hx = std::max(static_cast<float>((x1 - x0) / 2), b2_linearSlop);
    const float hy = std::max(static_cast<float>((y1 - y0) / 2), b2_linearSlop);
    p.SetAsBox(hx, hy, b2Vec2(static_cast<float>((x0 + x1) / 2), static_cast<float>((y0 + y1) / 2)), 0.0f);
    add(s, &p);
}

void make_shape(Store& s, Counts& c, const nlohmann::json& j) {
    ++c.shapes;
    const std::string& type = j.at("type").get_ref<const std::string&>();
    if (type == "circle") {
        auto& sh = s.circles.emplace_back();
        sh.m_p = vec(j.at("center"));
        sh.m_radius = static_cast<float>(j.at("radius").get<double>());
        add(s, &sh);
    } else if (type == "point") {
        auto& sh = s.circles.emplace_back();
        sh.m_p = vec(j.at("at"));
        sh.m_radius = kPointRadius;
        add(s, &sh);
    } else if (type == "rect") {
        make_rect(s, j);
    } else if (type == "segment") {
        auto& sh = s.edges.emplace_back();
        sh.SetTwoSided(vec(j.at("a")), vec(j.at("b")));
        add(s, &sh);
    } else if (type == "polygon") {
        std::vector<b2Vec2> pts;
        for (const auto& p : j.at("points")) pts.push_back(vec(p));
        std::vector<b2Vec2> hull = convex_hull(pts);
        if (!box2d_can_take(hull)) {
            ++c.skipped_polygon;
            return;
        }
        if (hull.size() < pts.size()) ++c.hulled;
        auto& sh = s.polygons.emplace_back();
        sh.Set(hull.data(), static_cast<int32>(hull.size()));
        add(s, &sh);
    } else if (type == "polyline") {
        std::vector<b2Vec2> pts;
        for (const auto& p : j.at("points")) {
            const b2Vec2 v = vec(p);
            if (pts.empty() || b2DistanceSquared(pts.back(), v) > 4 * b2_linearSlop * b2_linearSlop) pts.push_back(v);
        }
        if (pts.size() < 2) {
            ++c.skipped_other;
            return;
        }
        auto& sh = s.chains.emplace_back();
        sh.CreateChain(pts.data(), static_cast<int32>(pts.size()), pts.front(), pts.back());
        add(s, &sh);
    } else if (type == "line") {
        ++c.skipped_line;
        return;
    } else if (type == "ray") {
        ++c.skipped_ray;
        return;
    } else {
        ++c.skipped_other;
        return;
    }
    ++c.used;
}

struct Narrow {
    const b2DynamicTree* tree;
    const std::vector<Item>* items;
    std::size_t self;
    std::uint64_t candidates = 0, overlaps = 0;
    b2Transform xf = b2Transform(b2Vec2(0, 0), b2Rot(0));

    bool QueryCallback(int32 proxy) {
        const std::size_t other = reinterpret_cast<std::uintptr_t>(tree->GetUserData(proxy));
        if (other <= self) return true;  // itself, or a pair already seen from the other side
        ++candidates;
        const Item& a = (*items)[self];
        const Item& b = (*items)[other];
        for (int ca = 0; ca < a.children; ++ca)
            for (int cb = 0; cb < b.children; ++cb)
                if (b2TestOverlap(a.shape, ca, b.shape, cb, xf, xf)) {
                    ++overlaps;
                    return true;
                }
        return true;
    }
};

std::uint32_t spread_bits(std::uint32_t x) {
    x &= 0xffff;
    x = (x | (x << 8)) & 0x00ff00ffu;
    x = (x | (x << 4)) & 0x0f0f0f0fu;
    x = (x | (x << 2)) & 0x33333333u;
    x = (x | (x << 1)) & 0x55555555u;
    return x;
}

// Item indices in Z-curve order of the AABB centres (16 bits a coordinate over the scene).
std::vector<std::uint32_t> morton_order(const std::vector<Item>& items) {
    std::vector<std::uint32_t> order(items.size());
    if (items.empty()) return order;
    b2AABB all = items[0].aabb;
    for (const Item& it : items) all.Combine(it.aabb);
    const b2Vec2 lo = all.lowerBound, ext = all.upperBound - all.lowerBound;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> keyed(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        const b2Vec2 c = items[i].aabb.GetCenter();
        const auto q = [](float v, float lo_, float e) { return static_cast<std::uint32_t>(e > 0 ? (v - lo_) / e * 65535.0f : 0.0f); };
        keyed[i] = {spread_bits(q(c.x, lo.x, ext.x)) | (spread_bits(q(c.y, lo.y, ext.y)) << 1), static_cast<std::uint32_t>(i)};
    }
    std::sort(keyed.begin(), keyed.end());
    for (std::size_t i = 0; i < keyed.size(); ++i) order[i] = keyed[i].second;
    return order;
}

bool g_sorted = false;

bool run_file(const char* path, Counts& c) {
    auto t0 = Clock::now();
    double c0 = cpu_ms();
    Store s;
    {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "box2d_peer: cannot open %s\n", path);
            return false;
        }
        std::string text;
        in.seekg(0, std::ios::end);
        text.resize(static_cast<std::size_t>(in.tellg()));
        in.seekg(0, std::ios::beg);
        in.read(text.data(), static_cast<std::streamsize>(text.size()));
        nlohmann::json doc;
        try {
            doc = nlohmann::json::parse(text);
            text = std::string();
            if (doc.contains("shapes"))
                for (const auto& j : doc["shapes"]) make_shape(s, c, j);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "box2d_peer: %s: %s\n", path, e.what());
            return false;
        }
    }  // the DOM is freed here, inside the parse phase
    c.parse_ms += ms_since(t0);
    c.parse_cpu += cpu_ms() - c0;

    t0 = Clock::now();
    c0 = cpu_ms();
    b2DynamicTree tree;
    std::vector<std::uint32_t> order;
    if (g_sorted) order = morton_order(s.items);
    for (std::size_t k = 0; k < s.items.size(); ++k) {
        const std::size_t i = g_sorted ? order[k] : k;
        tree.CreateProxy(s.items[i].aabb, reinterpret_cast<void*>(static_cast<std::uintptr_t>(i)));
    }
    c.tree_ms += ms_since(t0);
    c.tree_cpu += cpu_ms() - c0;

    t0 = Clock::now();
    c0 = cpu_ms();
    Narrow q{&tree, &s.items, 0};
    for (std::size_t k = 0; k < s.items.size(); ++k) {
        q.self = g_sorted ? order[k] : k;
        tree.Query(&q, s.items[q.self].aabb);
    }
    c.candidates += q.candidates;
    c.overlaps += q.overlaps;
    c.query_ms += ms_since(t0);
    c.query_cpu += cpu_ms() - c0;
    ++c.files;
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    bool quiet = false;
    std::vector<const char*> files;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "-q") == 0) quiet = true;
        else if (std::strcmp(argv[i], "--sorted") == 0) g_sorted = true;
        else if (std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0) {
            std::puts("usage: box2d_peer [-q] [--sorted] FILE...");
            return 0;
        } else files.push_back(argv[i]);
    }
    if (files.empty()) {
        std::fputs("usage: box2d_peer [-q] [--sorted] FILE...\n", stderr);
        return 2;
    }
    const auto start = Clock::now();
    Counts c;
    for (const char* f : files)
        if (!run_file(f, c)) return 2;
    const double total = ms_since(start);
    if (!quiet) {
        std::fprintf(stderr, "box2d_peer: parse %.1f ms (cpu %.1f ms)\n", c.parse_ms, c.parse_cpu);
        std::fprintf(stderr, "box2d_peer: build tree %.1f ms (cpu %.1f ms)\n", c.tree_ms, c.tree_cpu);
        std::fprintf(stderr, "box2d_peer: query+narrow %.1f ms (cpu %.1f ms)\n", c.query_ms, c.query_cpu);
        std::fprintf(stderr, "box2d_peer: total %.1f ms (cpu %.1f ms)\n", total, cpu_ms());
    }
    std::printf("box2d_peer order=%s files=%llu shapes=%llu used=%llu overlapping_pairs=%llu candidates=%llu "
                "skipped_line=%llu skipped_ray=%llu skipped_polygon=%llu skipped_other=%llu hulled_concave=%llu "
                "parse_ms=%.1f tree_ms=%.1f query_ms=%.1f total_ms=%.1f "
                "parse_cpu_ms=%.1f tree_cpu_ms=%.1f query_cpu_ms=%.1f cpu_ms=%.1f\n",
                g_sorted ? "morton" : "file", (unsigned long long)c.files, (unsigned long long)c.shapes, (unsigned long long)c.used,
                (unsigned long long)c.overlaps, (unsigned long long)c.candidates,
                (unsigned long long)c.skipped_line, (unsigned long long)c.skipped_ray,
                (unsigned long long)c.skipped_polygon, (unsigned long long)c.skipped_other,
                (unsigned long long)c.hulled, c.parse_ms, c.tree_ms, c.query_ms, total, c.parse_cpu, c.tree_cpu,
                c.query_cpu, cpu_ms());
    return 0;
}
