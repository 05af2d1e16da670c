// Fuzz target: the Godot scene reader (SPEC §1.6, lib/src/maps/godot_*.cpp) on arbitrary bytes.
//
// Input: a `.tscn` scene, read as "s.tscn", optionally followed by up to kMaxFiles more files,
// each introduced by a line "%%file NAME": the `.tres` resources and `.tscn` scenes it names
// (`ExtResource` paths such as "t.tres", "res://p.tscn" or "project.godot", which makes the
// scene's folder the project's). An in-memory FileLoader serves them and throws
// collide::Error, as file_system_loader() does, for any other name.
//
// What must hold is fuzz_map's (fuzz_map_checks.hpp): import_map, read_map_scene and check()
// throw nothing but collide::Error; the import as text and built agree; the scene reads back
// or fails for the scene's own content, against the node at fault; one source per shape and
// grid; the grids `collide import` prints read back.
//
// Budget, not library limits: inputs naming more than kMaxInstances instances (an instancing
// bomb grows as a power of them) are skipped, and scenes whose grids hold more than kMaxCells
// cells are imported but not read back (printing one is a byte a cell).
#include "fuzz_map_checks.hpp"

#include <string>
#include <string_view>

using namespace collide;
using namespace fuzz_maps;

namespace {

constexpr std::size_t kMaxFiles = 4;
constexpr std::size_t kMaxInstances = 16;
constexpr std::uint64_t kMaxCells = std::uint64_t{1} << 20;

Input split(const std::uint8_t* data, std::size_t size) {
    Input in;
    in.format = MapFormat::Godot;
    in.file = "s.tscn";
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    split_files(rest, kMaxFiles, in);
    return in;
}

std::size_t count(std::string_view text, std::string_view word) {
    std::size_t n = 0;
    for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) ++n;
    return n;
}

bool too_many_instances(const Input& in) {
    std::size_t n = count(in.map, "instance");
    for (const auto& f : in.files) n += count(f.second, "instance");
    return n > kMaxInstances;
}

bool big_grids(const std::vector<MapImport>& maps) {
    for (const MapImport& m : maps)
        for (const collide::Grid& g : m.grids)
            if (std::uint64_t{g.cols} * g.rows > kMaxCells) return true;
    return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const Input in = split(data, size);
    if (too_many_instances(in)) return 0;
    const FileLoader load = [&](const std::string& path) -> std::string {
        const auto f = in.files.find(path);
        if (f == in.files.end()) throw Error(path, "", "cannot open: No such file or directory");
        return f->second;
    };
    auto imports = import_twice(in, load);
    if (!imports || big_grids(imports->first)) return 0;
    for (std::size_t k = 0; k < imports->first.size(); ++k) check_import(in, imports->first[k], std::move(imports->second[k]));
    return 0;
}
