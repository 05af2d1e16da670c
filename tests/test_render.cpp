// write_svg (render.hpp) and the small SVG writer under it (svg_canvas.hpp): where things are
// drawn, which way y points, what a big scene merges, and that any input gives valid text.
// tests/cli/test_render.py looks at the pixels in a real browser.
#include "collide/render.hpp"

#include "collide/check.hpp"
#include "collide/scene.hpp"
#include "render/svg_canvas.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using collide::Scene;
using collide::detail::PathData;
using collide::detail::Px;
using collide::detail::View;

namespace {

std::string render(const Scene& scene) {
    std::ostringstream out;
    collide::write_svg(out, scene, collide::check(scene, {}));
    return out.str();
}

std::string render(const std::string& json) { return render(collide::read_scene(json, "scene.json")); }

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// The data-view of the root element: centre, units per pixel, drawing width and height.
struct ViewAttr {
    double cx = 0, cy = 0, u = 1, w = 0, h = 0;
};
ViewAttr view_of(const std::string& svg) {
    std::smatch m;
    REQUIRE(std::regex_search(svg, m, std::regex(R"re(data-view="(\S+) (\S+) (\S+) (\S+) (\S+)")re")));
    return {std::stod(m[1]), std::stod(m[2]), std::stod(m[3]), std::stod(m[4]), std::stod(m[5])};
}

// The pixel of scene point p, as the data-view says.
Px pixel_of(const std::string& svg, collide::Vec2 p, bool y_up) {
    const ViewAttr v = view_of(svg);
    return {v.w / 2 + (p.x - v.cx) / v.u, v.h / 2 + (y_up ? -1 : 1) * (p.y - v.cy) / v.u};
}

}  // namespace

TEST_CASE("path data is written to 0.1 px, relative after the first move") {
    PathData d;
    d.move({120, 40.54});
    d.line({145, 40.54});   // same row: h
    d.line({145, 53.04});   // same column: v
    d.line({120.06, 40});   // 120.06 is 120.1: l
    d.close();              // back to where the subpath began
    d.move({119.96, 40.5});
    d.dot({0.04, -2.5});
    CHECK(d.str() == "M120 40.5h25v12.5l-24.9-13Zm0 0m-120-43h0");
    CHECK(collide::detail::px_number(-0.04) == "0");
    CHECK(collide::detail::px_number(1e300) == "10000000");
}

TEST_CASE("the view fits the scene in 1000 px and keeps the scale on both axes") {
    View v;
    v.include({0, 0});
    v.include({200, 100});
    v.finish(false, 1000, 16);
    // 200 units across, padded by 4%: 1000 px for 208 units
    CHECK(v.units_per_px() == doctest::Approx(0.208));
    CHECK(v.width() == doctest::Approx(1032));
    CHECK(v.height() == doctest::Approx(16 * 2 + 1000 * 104.0 / 208));
    const Px a = v.px({0, 0}), b = v.px({200, 100});
    CHECK(b.x - a.x == doctest::Approx(200 / 0.208));
    CHECK(b.y - a.y == doctest::Approx(100 / 0.208));  // y down: greater y lower on the page

    View up;
    up.include({0, 0});
    up.include({200, 100});
    up.finish(true, 1000, 16);
    CHECK(up.px({0, 100}).y < up.px({0, 0}).y);  // y up: greater y higher on the page
}

TEST_CASE("a view never divides by zero or overflows") {
    SUBCASE("one point") {
        View v;
        v.include({5, 5});
        v.finish(false, 1000, 16);
        CHECK(std::isfinite(v.px({5, 5}).x));
        CHECK(v.px({5, 5}).x == doctest::Approx(v.width() / 2));
    }
    SUBCASE("the whole double range") {
        View v;
        v.include({-1.7e308, -1.7e308});
        v.include({1.7e308, 1.7e308});
        v.finish(false, 1000, 16);
        CHECK(v.px({1.7e308, 0}).x == doctest::Approx(v.width() / 2 + 500 / 1.04));
    }
    SUBCASE("subnormal coordinates") {
        View v;
        v.include({0, 0});
        v.include({4e-320, 4e-320});
        v.finish(false, 1000, 16);
        CHECK(std::isfinite(v.px({4e-320, 0}).x));
        CHECK(std::isfinite(v.units_per_px()));
    }
}

TEST_CASE("shapes, grids and moves are drawn where the scene puts them") {
    const std::string scene = R"({
        "settings": {"y_axis": "up"},
        "shapes": [
            {"id": "crate", "type": "rect", "min": [0, 0], "max": [100, 50], "groups": ["props"]},
            {"id": "coin", "type": "circle", "center": [100, 50], "radius": 10}
        ],
        "moves": [{"id": "hop", "against": "*", "from": [-20, 25], "to": [50, 25]}]
    })";
    const std::string svg = render(scene);
    // The crate's top left corner on the page is (0, 50) in the scene: y up.
    const Px top_left = pixel_of(svg, {0, 50}, true);
    CHECK(svg.find("M" + collide::detail::px_number(top_left.x) + " " + collide::detail::px_number(top_left.y) + "h") !=
          std::string::npos);
    // The two shapes overlap at the crate's corner (100, 50): drawn in the overlap style, with
    // titles that say so, and the move stops on the crate's left edge.
    CHECK(std::regex_search(svg, std::regex(R"re(<path class="area overlap" d="[^"]*"><title>crate )re")));
    CHECK(std::regex_search(svg, std::regex(R"re(<path class="area overlap" d="[^"]*"><title>coin )re")));
    CHECK(svg.find("<title>crate (rect; groups props)&#10;overlaps coin</title>") != std::string::npos);
    CHECK(svg.find("<title>move hop: blocked at t 0.2857142857142857, stop [0, 25], hit crate</title>") !=
          std::string::npos);
    CHECK(svg.find("class=\"dot-overlap\"") != std::string::npos);
    CHECK(render(scene) == svg);  // the same bytes every time
}

TEST_CASE("ids are escaped, and a control character cannot break the XML") {
    const std::string svg = render(R"({"shapes": [{"id": "<b>&\"x\"\u0001", "type": "point", "at": [1, 2]}]})");
    CHECK(svg.find("<title>&lt;b&gt;&amp;&quot;x&quot;\\x01 (point)</title>") != std::string::npos);
    CHECK(svg.find('\x01') == std::string::npos);
    // U+FFFE and U+FFFF, which XML 1.0 cannot hold, in an id and in a group of a big scene.
    const std::string odd = render("{\"shapes\": [{\"id\": \"a\uFFFE\", \"type\": \"point\", \"at\": [1, 2], \"groups\": [\"g\uFFFF\"]}]}");
    CHECK(odd.find("<title>a\\ufffe (point; groups g\\uffff)</title>") != std::string::npos);
    CHECK(odd.find("\xEF\xBF\xBE") == std::string::npos);
    CHECK(odd.find("\xEF\xBF\xBF") == std::string::npos);
}

TEST_CASE("lines and rays are clipped to the picture") {
    const std::string svg = render(R"({"shapes": [
        {"id": "floor", "type": "line", "a": [0, 0], "b": [1e-300, 0]},
        {"id": "beam", "type": "ray", "origin": [10, 10], "direction": [1e308, -1e308]},
        {"id": "box", "type": "rect", "min": [0, 0], "max": [10, 10]}]})");
    std::smatch m;
    REQUIRE(std::regex_search(svg, m, std::regex(R"re(<path class="line \w+" d="([^"]*)"><title>floor)re")));
    // from 10 px left of the picture to 10 px right of it, along y = 0
    const Px y0 = pixel_of(svg, {0, 0}, false);
    CHECK(m[1].str() == "M-10 " + collide::detail::px_number(y0.y) + "h" + collide::detail::px_number(view_of(svg).w + 20));
    CHECK(svg.find("nan") == std::string::npos);
    CHECK(svg.find("inf") == std::string::npos);
}

TEST_CASE("a big scene merges the shapes nothing reports about into one path per group") {
    std::string shapes;
    for (int i = 0; i < 20001; ++i) {
        shapes += std::string(i ? "," : "") + R"({"id": "s)" + std::to_string(i) + R"(", "type": "rect", "min": [)" +
                  std::to_string(i * 3) + ", 0], \"max\": [" + std::to_string(i * 3 + 1) + ", 1], \"groups\": [\"" +
                  (i % 2 ? "odd" : "even") + "\"]}";
    }
    // s0 and s1 touch: they keep their own elements and titles
    shapes += R"(,{"id": "bridge", "type": "segment", "a": [1, 0.5], "b": [3, 0.5]})";
    const std::string svg = render("{\"shapes\": [" + shapes + "]}");
    CHECK(count(svg, "data-group=\"odd\"") == 1);
    CHECK(count(svg, "data-group=\"even\"") == 1);
    CHECK(svg.find("<title>s0 (rect; groups even)&#10;touches bridge</title>") != std::string::npos);
    CHECK(svg.find("<title>s2 (") == std::string::npos);
    CHECK(svg.size() < 20001 * 40);
}

TEST_CASE("a picture built as check() streams is the picture of the collected result") {
    // Overlapping circles in a row, a grid they reach, --near and a failed clearance rule:
    // SvgPicture, handed each record as check() streams it, writes the bytes write_svg writes
    // from the collected result (titles with their first notes and "and N more", near links,
    // hit cells, dots, violators and labels).
    std::string json = R"({"grids": [{"id": "g", "origin": [0, 4], "tile_size": [1, 1], "rows": ["#..#", "####"]}], "shapes": [)";
    for (int i = 0; i < 40; ++i)
        json += std::string(i ? "," : "") + R"({"id": "c)" + std::to_string(i) + R"(", "type": "circle", "center": [)" +
                std::to_string(i * 0.7) + R"(, 0], "radius": )" + (i % 3 ? "1" : "4.5") + "}";
    json += R"(], "rules": [{"name": "clear of the grid", "pairs": "*:g", "expect": "none", "clearance": 2}]})";
    const Scene scene = collide::read_scene(json, "row.json");
    collide::CheckOptions options;
    options.near = 3;
    const collide::SceneResult collected = collide::check(scene, options);
    REQUIRE(!collected.near.empty());
    std::ostringstream whole;
    collide::write_svg(whole, scene, collected);

    collide::SvgPicture picture(scene);
    const collide::SceneResult streamed = collide::check(
        scene, options, [&](collide::Collision&& c) { picture.collision(c); },
        [&](const collide::NearPair& n) { picture.near(n); });
    CHECK(streamed.collisions.empty());
    CHECK(streamed.near.empty());
    std::ostringstream built;
    picture.write(built, streamed);
    CHECK(built.str() == whole.str());
    CHECK(count(whole.str(), " more</title>") > 0);  // notes were cut
    CHECK(count(whole.str(), "class=\"link\"") > 0);  // near links drawn
    CHECK(count(whole.str(), "cell-") > 0);            // grid cells hit
    CHECK(count(whole.str(), "<g class=\"violator\">") > 0);
    CHECK(count(whole.str(), "<text class=\"label\"") > 1);
}

namespace {

// The level of tests/cli/test_render.py's rule scene: coins that must keep 40 units from the
// walls. coin-in-wall overlaps wall-1, coin-near-wall is 30 from wall-2 (a clearance
// violator that collides with nothing), coin-free is clear; coin-by-grid is 20 from grid g.
const char* const kRuleScene = R"({
    "shapes": [
        {"id": "wall-1", "type": "rect", "min": [0, 250], "max": [2000, 300], "groups": ["walls"]},
        {"id": "wall-2", "type": "rect", "min": [900, 0], "max": [950, 200], "groups": ["walls"]},
        {"id": "coin-in-wall", "type": "circle", "center": [300, 260], "radius": 20, "groups": ["coins"]},
        {"id": "coin-near-wall", "type": "circle", "center": [1000, 100], "radius": 20, "groups": ["coins"]},
        {"id": "coin-free", "type": "circle", "center": [1500, 100], "radius": 20, "groups": ["coins"]},
        {"id": "coin-by-grid", "type": "circle", "center": [1700, 100], "radius": 20, "groups": ["coins"]},
        {"id": "lonely", "type": "point", "at": [1800, 20], "groups": ["pickups"]}
    ],
    "grids": [{"id": "g", "origin": [1740, 95], "tile_size": 10, "rows": ["#"], "outside": "empty", "groups": ["walls"]}],
    "pairs": ["coins:walls"],
    "rules": [
        {"name": "coins clear of walls", "pairs": "coins:walls", "expect": "none", "clearance": 40},
        {"name": "pickups rest on walls", "pairs": "pickups:walls", "expect": "each"},
        {"name": "coins touch nothing", "pairs": "coins:coins", "expect": "none"}
    ]
})";

// The <g> or <path> that draws object `id` with its title, up to its end.
std::string element_of(const std::string& svg, const std::string& id) {
    const std::size_t title = svg.find("<title>" + id + " (");
    REQUIRE(title != std::string::npos);
    const std::size_t start = svg.rfind('<', title - 1);
    const std::size_t end = svg.find(svg.compare(start, 2, "<g") == 0 ? "</g>" : "</path>", title);
    return svg.substr(start, end - start);
}

}  // namespace

TEST_CASE("the shapes and grids in a failed rule's violations are drawn as violators, titled with the rule") {
    const std::string svg = render(kRuleScene);
    SUBCASE("a clearance violator that collides with nothing is hatched, not grey") {
        const std::string coin = element_of(svg, "coin-near-wall");
        CHECK(coin.rfind("<g class=\"violator\"><title>coin-near-wall (circle; groups coins)&#10;violates 'coins clear "
                         "of walls' with wall-2 (distance 30)</title>",
                         0) == 0);
        CHECK(coin.find("class=\"area violator\"") != std::string::npos);
        CHECK(coin.find("class=\"violation\"") != std::string::npos);
        CHECK(coin.find("area shape") == std::string::npos);
        CHECK(svg.find("<pattern id=\"hatch\"") != std::string::npos);
    }
    SUBCASE("a violator that also collides keeps its collision's fill under the violation's outline") {
        const std::string coin = element_of(svg, "coin-in-wall");
        CHECK(coin.find("<title>coin-in-wall (circle; groups coins)&#10;violates 'coins clear of walls' with wall-1 "
                        "(distance 0)&#10;overlaps wall-1</title>") != std::string::npos);
        CHECK(coin.find("class=\"area overlap\"") != std::string::npos);
        CHECK(coin.find("class=\"violation\"") != std::string::npos);
    }
    SUBCASE("an each rule's shape, and a grid on side b") {
        CHECK(element_of(svg, "lonely").find("&#10;violates 'pickups rest on walls'</title>") != std::string::npos);
        const std::string grid = element_of(svg, "g");
        CHECK(grid.find("(grid 1×1, tile 10×10; outside open)&#10;violates 'coins clear of walls' with coin-by-grid "
                        "(distance 20)</title>") != std::string::npos);
        CHECK(grid.find("<path class=\"violation\" vector-effect=\"non-scaling-stroke\"") != std::string::npos);
    }
    SUBCASE("what breaks no rule is drawn as before") {
        CHECK(std::regex_search(svg, std::regex(R"re(<path class="area shape" d="[^"]*"><title>coin-free \(circle; groups coins\)</title>)re")));
        CHECK(element_of(svg, "wall-1").find("class=\"area overlap\"") != std::string::npos);  // and a violator
        CHECK(svg.find("violates 'coins touch nothing'") == std::string::npos);  // it passed
        // wall-1, wall-2, coin-in-wall, coin-near-wall, coin-by-grid, lonely
        CHECK(count(svg, "<g class=\"violator\">") == 6);
    }
    SUBCASE("the legend names the failed rules and shows the violators' style") {
        CHECK(svg.find("<text x=\"12\" y=\"114\">'coins clear of walls'</text>") != std::string::npos);
        CHECK(svg.find("'pickups rest on walls'</text>") != std::string::npos);
        CHECK(svg.find("<path class=\"area violator\" d=\"M2 1h24v12h-24Z\"/><path class=\"violation\"") != std::string::npos);
    }
}

TEST_CASE("the ids of the objects in violations and collisions are labels beside them, kLabels at most") {
    SUBCASE("violators first, then the objects in collisions as the report first names them") {
        const std::string svg = render(kRuleScene);
        std::vector<std::string> labels;
        const std::regex label(R"re(<text class="label" x="[^"]+" y="[^"]+">([^<]*)</text>)re");
        for (auto it = std::sregex_iterator(svg.begin(), svg.end(), label); it != std::sregex_iterator(); ++it)
            labels.push_back((*it)[1]);
        labels.pop_back();  // the legend's sample label
        CHECK(labels == std::vector<std::string>{"coin-in-wall", "wall-1", "coin-near-wall", "wall-2", "coin-by-grid", "g",
                                                 "lonely"});
    }
    SUBCASE("a label sits above its object's top left, inside the drawing") {
        const std::string svg = render(R"({"shapes": [
            {"id": "a", "type": "rect", "min": [0, 0], "max": [100, 50]},
            {"id": "b", "type": "rect", "min": [90, 40], "max": [200, 100]}]})");
        const Px corner = pixel_of(svg, {90, 40}, false);
        CHECK(svg.find("<text class=\"label\" x=\"" + collide::detail::px_number(corner.x) + "\" y=\"" +
                       collide::detail::px_number(corner.y - 5) + "\">b</text>") != std::string::npos);
    }
    SUBCASE("a long id is cut, and labels that would meet move apart") {
        const std::string svg = render(R"({"shapes": [
            {"id": "a-very-long-identifier-of-a-crate", "type": "rect", "min": [0, 0], "max": [10, 10]},
            {"id": "b", "type": "rect", "min": [0, 0], "max": [10, 10]}]})");
        CHECK(svg.find(">a-very-long-identifier-…</text>") != std::string::npos);
        std::smatch a, b;
        REQUIRE(std::regex_search(svg, a, std::regex(R"re(<text class="label" x="([^"]+)" y="([^"]+)">a-)re")));
        REQUIRE(std::regex_search(svg, b, std::regex(R"re(<text class="label" x="([^"]+)" y="([^"]+)">b<)re")));
        CHECK(a[1] == b[1]);
        CHECK(std::abs(std::stod(a[2]) - std::stod(b[2])) >= 13);
    }
    SUBCASE("many colliding shapes: the first kLabels in report order") {
        std::string json = R"({"shapes": [)";
        for (int i = 0; i < 400; ++i)
            json += std::string(i ? "," : "") + R"({"id": "c)" + std::to_string(i) + R"(", "type": "circle", "center": [)" +
                    std::to_string(i) + R"(, 0], "radius": 0.6})";
        const std::string svg = render(json + "]}");
        CHECK(count(svg, "<text class=\"label\"") == collide::kLabels + 1);  // and the legend's
        CHECK(svg.find(">c299</text>") != std::string::npos);
        CHECK(svg.find(">c300</text>") == std::string::npos);
        CHECK(svg.find("<title>c399 (circle)&#10;overlaps c398</title>") != std::string::npos);  // on hover
    }
}

TEST_CASE("the legend lies inside the picture's own view, at most 1200 px wide") {
    // The legend's left edge, the baseline of its last line, and the picture's size.
    const auto check_fits = [](const std::string& svg) {
        std::smatch m;
        REQUIRE(std::regex_search(svg, m, std::regex(R"re(width="([\d.]+)" height="([\d.]+)" viewBox="0 0 ([\d.]+) ([\d.]+)")re")));
        const double w = std::stod(m[1]), h = std::stod(m[2]);
        CHECK(m[1] == m[3]);
        CHECK(m[2] == m[4]);
        CHECK(w <= 1200);
        REQUIRE(std::regex_search(svg, m, std::regex(R"re(<g id="legend" transform="translate\(([\d.]+) 0\)">)re")));
        const double x = std::stod(m[1]);
        CHECK(x >= view_of(svg).w);
        CHECK(x + 290 <= w);  // kLegendWidth: every line of it is cut to fit
        double last = 0;
        const std::string legend = svg.substr(static_cast<std::size_t>(m.position(0)));
        const std::regex line(R"re(<text x="[\d.]+" y="([\d.]+)")re");
        for (auto it = std::sregex_iterator(legend.begin(), legend.end(), line); it != std::sregex_iterator(); ++it)
            last = std::max(last, std::stod((*it)[1]));
        CHECK(last > 300);
        CHECK(last + 4 <= h);
    };
    SUBCASE("a wide level: the drawing shrinks so that the legend fits beside it") {
        const std::string svg = render(kRuleScene);
        check_fits(svg);
        CHECK(view_of(svg).w == doctest::Approx(1200 - 290 - 8));
    }
    SUBCASE("a tall level keeps its 1000 px") {
        const std::string svg = render(R"({"shapes": [{"id": "tower", "type": "rect", "min": [0, 0], "max": [100, 1000]}]})");
        check_fits(svg);
        CHECK(view_of(svg).h == doctest::Approx(1032));
    }
    SUBCASE("a small level under a long legend: many failed rules with long names, a long file name") {
        std::string rules;
        for (int i = 0; i < 6; ++i)
            rules += std::string(i ? "," : "") + R"({"name": "rule number )" + std::to_string(i) +
                     R"( with a name much longer than the legend is wide", "pairs": "*:*", "expect": "none"})";
        collide::Scene scene = collide::read_scene(R"({"shapes": [
            {"id": "a", "type": "point", "at": [0, 0]}, {"id": "b", "type": "point", "at": [0, 0]}],
            "moves": [{"id": "m", "against": "*", "from": [0, 1], "to": [1, 1]}], "rules": [)" + rules + "]}",
                                                   "/a/very/long/path/of/directories/to/levels/world-1/level-1.json");
        const std::string svg = render(scene);
        check_fits(svg);
        CHECK(svg.find(">…/to/levels/world-1/level-1.json</text>") != std::string::npos);  // 32 characters
        CHECK(svg.find(">'rule number 0 with a name m…'</text>") != std::string::npos);
        CHECK(svg.find(">and 3 more rules</text>") != std::string::npos);
    }
}

TEST_CASE("text cut to fit counts characters, not bytes") {
    using collide::detail::xml_text_cut;
    CHECK(xml_text_cut("crate", 5) == "crate");
    CHECK(xml_text_cut("crates", 5) == "crat…");
    CHECK(xml_text_cut("levels/a.json", 8, true) == "…/a.json");
    CHECK(xml_text_cut("ééééé&", 4) == "ééé…");
    CHECK(xml_text_cut("a&b<c", 4) == "a&amp;b…");
    CHECK(xml_text_cut("a&b<c", 5) == "a&amp;b&lt;c");
    CHECK(collide::detail::text_chars("é\x01") == 5);  // \x01 as shown
}
