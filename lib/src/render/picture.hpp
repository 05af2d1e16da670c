// Folder render/: the state a picture is drawn from, shared by the two files that draw it:
// render_svg.cpp (the layers of the drawing) and picture_notes.cpp (failed rules' violations,
// the id labels and the legend). SPEC §3 `render`.
#pragma once

#include "collide/render.hpp"
#include "render/svg_canvas.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace collide::detail {

inline constexpr double kDrawing = 1000;       // px on the longer side of the scene, at most
inline constexpr double kMargin = 16;          // px around it
inline constexpr double kLegendGap = 8;        // px between the drawing and the legend
inline constexpr double kLegendWidth = 290;    // px
inline constexpr double kPictureWidth = 1200;  // px: the drawing shrinks to keep the legend in
inline constexpr std::size_t kNotes = 4;       // result lines in a title, and rules

// What the result says of a shape, weakest to strongest: the shape is drawn in the strongest.
enum class Style : std::uint8_t { Plain, Near, Touch, Overlap };
inline constexpr const char* kStyleName[] = {"shape", "near", "touch", "overlap"};

// What the result says about a shape, for its title: its first collisions, then its first
// near pairs, kNotes lines in all, and how many more.
struct Notes {
    struct Hit {
        std::size_t other;
        Relation relation;  // as seen from this shape
    };
    struct Near {
        std::size_t other;
        double distance;
    };
    std::array<Hit, kNotes> hits;
    std::array<Near, kNotes> nears;
    std::size_t hit_count = 0;
    std::size_t near_count = 0;
    void hit(std::size_t other, Relation r) {
        if (hit_count < kNotes) hits[hit_count] = {other, r};
        ++hit_count;
    }
    void near(std::size_t other, double d) {
        if (near_count < kNotes) nears[near_count] = {other, d};
        ++near_count;
    }
};

// The failed rules an object (a shape, or a grid past the shapes) is in the violations of:
// the first kNotes rules, each with its first violation and how many more it has there.
struct RuleNotes {
    struct Rule {
        std::size_t rule;
        std::size_t other;  // the other side, or kNone for an `each` rule
        double distance;    // with clearance; negative without
        std::size_t more;   // further violations of this rule with this object
    };
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::array<Rule, kNotes> rules;
    std::size_t rule_count = 0;
    std::size_t last_rule = kNone;
};

// A box on the page, in px (y down).
struct Box {
    double left = 0, top = 0, right = 0, bottom = 0;
};

// Elements of one layer: each with its own <title> while the caller wants one, the rest
// merged into one <path> per class and group (a million untitled shapes stay a few paths).
class Layer {
public:
    explicit Layer(std::ostream& out) : out_(out) {}
    void add(const std::string& cls, const PathData& d, const std::string& title, bool titled,
             const std::string& group = std::string());
    void flush();

private:
    std::ostream& out_;
    std::map<std::pair<std::string, std::string>, std::string> merged_;
};

}  // namespace collide::detail

namespace collide {

// What the records say, gathered as they stream in: what is drawn, never the records
// themselves (a million colliding pairs must not be held to draw a few thousand shapes).
struct SvgPicture::Impl {
    explicit Impl(const Scene& s);
    void collision(const Collision& c);
    void near(const NearPair& p);

    const Scene& scene;
    const detail::View view;
    std::vector<detail::Style> styles;  // of each shape: the strongest thing the result says of it
    std::unordered_map<std::size_t, detail::Notes> notes;  // of the shapes with a result
    std::vector<std::map<std::pair<std::int64_t, std::int64_t>, detail::Style>> hit;  // of each grid: (row, col) hit
    std::vector<detail::Style> outside;  // of each grid: how its solid outside is reached
    std::vector<bool> grid_collided;     // of each grid: in a collision
    std::vector<NearPair> links;         // the near pairs of two shapes, each drawn as a link
    detail::PathData dots[2];            // intersection points: touching, overlapping
    // The first kLabels objects (shapes, then grids) in a collision, in the order the report
    // first names them: the labels go to them after the violators.
    std::vector<std::size_t> collided_first;

private:
    void collided(std::size_t object);
};

}  // namespace collide

namespace collide::detail {

// One picture being written: the scene, what was gathered while it streamed, the result.
class Picture {
public:
    Picture(std::ostream& out, const SvgPicture::Impl& found, const SceneResult& result);
    void write();

private:
    // render_svg.cpp: the drawing, layer by layer
    void choose_titled();
    void grids();
    void grid_cells(std::size_t k);
    void shapes();
    void violators(Layer& layer);
    void near_links();
    void moves();
    void points();
    std::string shape_title(std::size_t i) const;
    std::string grid_title(std::size_t k) const;
    Px anchor(std::size_t i) const;  // where a near link meets shape i
    void ring_if_small(PathData& d, std::size_t i) const;
    std::string move_title(const Move& m, const MoveResult& r) const;
    std::optional<std::size_t> hit_of(const Move& m, const MoveResult& r) const;  // a shape, or shapes + grid
    void blocked_marks(const Move& m, const MoveResult& r);
    // A grid's cell space in pixels: x = left + col * cell_w, y = top + row * cell_h.
    struct CellFrame {
        double left, top, cell_w, cell_h;
    };
    CellFrame frame(const Grid& g) const;

    // picture_notes.cpp: failed rules, labels, the legend
    void gather_violations();
    void violation(std::size_t object, std::size_t rule, std::size_t other, double distance);
    std::string violation_lines(std::size_t object) const;  // for a title, each line after "&#10;"
    bool violating(std::size_t object) const { return violations_.count(object) != 0; }
    Box box_of(std::size_t object) const;  // on the page
    void labels();
    std::string legend(double& height) const;  // its height in px, from the top

    std::ostream& out_;
    const Scene& scene_;
    const SceneResult& result_;
    const SvgPicture::Impl& found_;
    const View& view_;
    const std::vector<Style>& styles_;
    std::vector<bool> titled_;  // whether shape i has an element and a title of its own
    std::unordered_map<std::size_t, RuleNotes> violations_;  // of the objects in failed rules' violations
    std::vector<std::size_t> violators_;  // those objects, in the order the report first names them
};

}  // namespace collide::detail
