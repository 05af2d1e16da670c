// Folder report/: writing a check's result (SPEC §4), the public collide/report.hpp: JSON,
// JSON Lines and CSV (report.cpp), text (text_writer.cpp), the writers' shared base (this
// header), the places of --locations (locations.cpp) and the spool that holds near records
// until their place; findings (collide/findings.hpp, findings.cpp) and the CI formats that
// list them (ci_formats.cpp: gcc, github; sarif_junit.cpp: SARIF, JUnit). It includes support/
// and the public headers below it (check.hpp, scene.hpp); render/ uses it through
// collide/report.hpp, and cli/ calls it.
//
// What the report formats share (report.cpp: JSON, JSON Lines, CSV; text_writer.cpp: text):
// the base of each format's writer, its buffer and near-record spool, and the few helpers
// more than one format uses.
#pragma once

#include "collide/check.hpp"
#include "collide/report.hpp"
#include "collide/scene.hpp"
#include "report/spool.hpp"

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace collide::detail {

inline const char* boolean(bool b) { return b ? "true" : "false"; }

// A compound side's part indices, as every format lists them: joined by `sep`.
inline void part_list(std::string& out, const std::vector<std::uint32_t>& ids, const char* sep) {
    for (std::size_t k = 0; k < ids.size(); ++k) {
        if (k) out += sep;
        out += std::to_string(ids[k]);
    }
}

// Whether a blocked move names a cell: on a grid, or against a selector when a grid was hit.
inline bool has_cell(const Scene& scene, const MoveResult& m) { return !m.hit || *m.hit >= scene.shapes.size(); }

// Where object i (a shape, or a grid past the shapes) of `scene` was written: the line and
// column of Scene::sources (0 when not recorded) and the details maps add.
struct ObjectPlace {
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    const SceneSources::Detail* detail = nullptr;
    const std::string* layer = nullptr;  // the detail's layer, or null
};
ObjectPlace object_place(const Scene& scene, std::size_t i);
ObjectPlace move_place(const Scene& scene, std::size_t m);

// `{"file": …, "line": …, "column": …, "layer": …, "object": …, "iid": …, "tile": [c, r]}`,
// the members that are known; `file_json` is the scene's source file as a JSON string.
void json_source(std::string& out, const std::string& file_json, const ObjectPlace& p);
// `,FILE,LINE,COL` (CSV; `file_csv` already a CSV field), or `,,,` for no object.
void csv_source(std::string& out, const std::string& file_csv, const ObjectPlace* p);

// What every format's writer shares: the stream and a buffer written to it in blocks. A
// scene may have millions of records, so the buffer also goes out mid-scene once it is big.
// The calls come in this order: for each scene begin_scene, collision() for each of its
// collisions, end_scene; then finish() once.
class FormatWriter {
public:
    FormatWriter(std::ostream& out, const ReportOptions& options)
        : out_(out), points_(options.points), locations_(options.locations), baseline_(options.baseline) {}
    virtual ~FormatWriter() = default;

    // `before`: how many scenes were written before this one.
    virtual void begin_scene(const Scene&, std::size_t /*before*/) {}
    virtual void collision(const Scene& scene, const Collision& c) = 0;
    virtual void end_scene(const Scene& scene, const SceneResult& r) = 0;
    virtual void finish(std::size_t /*scenes*/) {}

    // A near record: spooled, as the near pairs come after the collisions, and a scene may
    // have millions (memory stays flat).
    void near(const Scene& scene, const NearPair& n) {
        near_record(near_.text(), scene, n, near_count_ == 0);
        ++near_count_;
        near_.spill_if_big();
    }

    void flush() {
        out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
        buf_.clear();
    }

protected:
    void flush_if_big() {
        if (buf_.size() > (1u << 16)) flush();
    }

    // Appends one near record to `out`; `first` in its scene.
    virtual void near_record(std::string& out, const Scene& scene, const NearPair& n, bool first) = 0;

    // Writes the scene's near records where they belong, after what buf_ holds; returns how
    // many there were.
    std::size_t write_near() {
        flush();
        near_.copy_to(out_);
        return std::exchange(near_count_, 0);
    }

    std::ostream& out_;
    const bool points_;
    const bool locations_;
    const Baseline* const baseline_;
    std::string buf_;

private:
    detail::Spool near_;
    std::size_t near_count_ = 0;  // in near_, for the current scene
};

/// The writer of the text report (text_writer.cpp).
std::unique_ptr<FormatWriter> make_text_writer(std::ostream& out, const ReportOptions& options);

}  // namespace collide::detail
