#include "map_input.hpp"

#include "heap.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>

MapArgument map_argument(const std::string& arg) {
    MapArgument m{arg, "", collide::map_format(arg)};
    if (m.format != collide::MapFormat::None) return m;
    // "project.ldtk#Level_2", unless a file of that very name exists.
    const std::size_t hash = arg.rfind('#');
    struct stat st {};
    if (hash == std::string::npos || stat(arg.c_str(), &st) == 0) return m;
    const std::string file = arg.substr(0, hash);
    if (collide::map_format(file) != collide::MapFormat::Ldtk) return m;
    return MapArgument{file, arg.substr(hash + 1), collide::MapFormat::Ldtk};
}

namespace {

// A big map file mapped into memory, read as the page cache holds it: no copy of its tens of
// megabytes (a Godot level with a 4096 x 4096 TileMapLayer is 100 MB). Anything else (a
// small file, a FIFO, a device, a failure) is left to the loader, which reads it or says why
// not.
class MappedMap {
public:
    explicit MappedMap(const std::string& file) {
        const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) return;
        struct stat st {};
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= kMinBytes &&
            static_cast<std::uint64_t>(st.st_size) <= collide::kMaxMapFileBytes) {
            void* at = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
            if (at != MAP_FAILED) {
                data_ = at;
                size_ = static_cast<std::size_t>(st.st_size);
            }
        }
        ::close(fd);
    }
    MappedMap(const MappedMap&) = delete;
    MappedMap& operator=(const MappedMap&) = delete;
    ~MappedMap() {
        if (data_) ::munmap(data_, size_);
    }
    bool mapped() const { return data_ != nullptr; }
    std::string_view text() const { return std::string_view(static_cast<const char*>(data_), size_); }

private:
    static constexpr off_t kMinBytes = off_t{1} << 20;
    void* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace

std::vector<collide::MapImport> import_map_argument(const MapArgument& map, collide::MapBuild build) {
    const collide::FileLoader load = collide::file_system_loader();
    const MappedMap mapped(map.file);
    if (mapped.mapped()) {
        // What the import allocates is a few times the map (a Godot level of 108 MB peaks at
        // about 310 MB of heap): on huge pages, its page faults are 512 times fewer.
        reserve_huge_heap(3 * mapped.text().size());
        return collide::import_map(map.file, mapped.text(), map.format, load, map.level, build);
    }
    const std::string text = load(map.file);
    return collide::import_map(map.file, text, map.format, load, map.level, build);
}

std::vector<collide::MapImport> import_if_tiled_json(const std::string& file, std::string_view text, collide::MapBuild build) {
    if (collide::detect_format(file, text) != collide::MapFormat::TiledJson) return {};
    return collide::import_map(file, text, collide::MapFormat::TiledJson, collide::file_system_loader(), {}, build);
}
