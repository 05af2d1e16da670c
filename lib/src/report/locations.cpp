// Where the objects of a report were written (SPEC §3.1, `--locations`): the place of each
// side of a record, from Scene::sources, in JSON and in CSV columns.
#include "report/format_writer.hpp"

#include "support/text_encoding.hpp"

namespace collide::detail {

namespace {

ObjectPlace place(const SceneSources& s, const std::vector<SceneSources::At>& list, std::size_t k) {
    ObjectPlace p;
    if (k >= list.size()) return p;
    const SceneSources::At& at = list[k];
    p.line = at.line;
    p.column = at.column;
    if (at.detail > 0 && at.detail <= s.details.size()) {
        p.detail = &s.details[at.detail - 1];
        if (p.detail->layer > 0 && p.detail->layer <= s.layers.size()) p.layer = &s.layers[p.detail->layer - 1];
    }
    return p;
}

}  // namespace

ObjectPlace object_place(const Scene& scene, std::size_t i) {
    const std::size_t ns = scene.shapes.size();
    return i < ns ? place(scene.sources, scene.sources.shapes, i) : place(scene.sources, scene.sources.grids, i - ns);
}

ObjectPlace move_place(const Scene& scene, std::size_t m) { return place(scene.sources, scene.sources.moves, m); }

void json_source(std::string& out, const std::string& file_json, const ObjectPlace& p) {
    out += "{\"file\": ";
    out += file_json;
    if (p.line > 0) {
        out += ", \"line\": " + std::to_string(p.line);
        if (p.column > 0) out += ", \"column\": " + std::to_string(p.column);
    }
    if (p.layer) {
        out += ", \"layer\": ";
        json_string(out, *p.layer);
    }
    if (p.detail && p.detail->object != 0) out += ", \"object\": " + std::to_string(p.detail->object);
    if (p.detail && !p.detail->iid.empty()) {
        out += ", \"iid\": ";
        json_string(out, p.detail->iid);
    }
    if (p.detail && p.detail->has_tile)
        out += ", \"tile\": [" + std::to_string(p.detail->tile_col) + ", " + std::to_string(p.detail->tile_row) + "]";
    out += '}';
}

void csv_source(std::string& out, const std::string& file_csv, const ObjectPlace* p) {
    if (!p) {
        out += ",,,";
        return;
    }
    out += ',';
    out += file_csv;
    out += ',';
    if (p->line > 0) out += std::to_string(p->line);
    out += ',';
    if (p->line > 0 && p->column > 0) out += std::to_string(p->column);
}

}  // namespace collide::detail
