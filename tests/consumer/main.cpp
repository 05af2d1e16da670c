// Two unit circles whose centres are exactly 2 apart touch at (1, 0); and a small Tiled map
// read through the installed package (which links pugixml, zlib and libzstd for it).
#include <collide/collide.hpp>

#include <cstdio>
#include <map>
#include <string>

int main() {
    const collide::Shape a = collide::Circle{{0, 0}, 1};
    const collide::Shape b = collide::Circle{{2, 0}, 1};
    const auto hit = collide::collide(a, b);
    if (!hit || hit->relation != collide::Relation::Touch || hit->points.size() != 1) return 1;
    std::printf("%s at (%g, %g)\n", std::string(collide::relation_name(hit->relation)).c_str(), hit->points[0].x,
                hit->points[0].y);

    // A 2 x 1 layer of one tile (zlib, base64) and a circle object overlapping it.
    const std::map<std::string, std::string> files = {
        {"level.tmx",
         "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" tilewidth=\"8\" tileheight=\"8\">"
         "<tileset firstgid=\"1\" name=\"t\" tilewidth=\"8\" tileheight=\"8\" tilecount=\"1\"/>"
         "<layer id=\"1\" name=\"Walls\" width=\"2\" height=\"1\">"
         "<data encoding=\"base64\" compression=\"zlib\">eJxjZIAAAAAQAAI=</data></layer>"
         "<objectgroup id=\"2\" name=\"Things\"><object id=\"1\" name=\"ball\" x=\"4\" y=\"0\" width=\"8\" height=\"8\">"
         "<ellipse/></object></objectgroup></map>"}};
    const collide::FileLoader load = [&](const std::string& path) { return files.at(path); };
    const auto maps = collide::import_map("level.tmx", files.at("level.tmx"), collide::MapFormat::TiledXml, load);
    const collide::Scene scene = collide::read_map_scene(maps.at(0));
    const collide::SceneResult r = collide::check(scene, {});
    std::printf("level.tmx: %zu shape, %zu grid, %zu collision\n", scene.shapes.size(), scene.grids.size(),
                r.summary.collisions);
    return scene.shapes.size() == 1 && scene.grids.size() == 1 && r.summary.collisions == 1 ? 0 : 1;
}
