// collide/report.hpp — writing check results as JSON, JSON Lines, CSV or aligned text.
//
// The writers stream: begin, then one scene at a time, then finish. Output depends only on
// the scene and the result, so the same inputs give the same bytes. Numbers are written in
// the shortest form that reads back to the same double.
#pragma once

#include "collide/check.hpp"
#include "collide/findings.hpp"
#include "collide/scene.hpp"
#include "collide/text.hpp"

#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace collide {

/// Report formats (SPEC §4), and the CI formats that list findings only (SPEC §3.1,
/// collide/findings.hpp): gcc-style lines, GitHub Actions workflow commands, SARIF 2.1.0 and
/// JUnit XML.
enum class Format : std::uint8_t { Json, Jsonl, Csv, Text, Gcc, Github, Sarif, Junit };

/// What a report holds beyond SPEC §4's records.
struct ReportOptions {
    bool points = true;      ///< collision records carry their `points` (`--no-points`: false)
    /// `--locations` (SPEC §3.1): JSON and JSON Lines records carry `source_a`, `source_b`
    /// (a move `source`), CSV rows the columns file_a, line_a, col_a, file_b, line_b, col_b;
    /// from Scene::sources (read the scene with ReadOptions::sources for its lines).
    bool locations = false;
    /// CI formats: each collision is a finding (`--fail-on-collision`).
    bool fail_on_collision = false;
    /// CI formats: each warning is a finding (`--strict`): Scene::warnings and the selectors
    /// that select nothing.
    bool strict = false;
    /// `--baseline`: findings it knows are marked `"known": true` (JSON, JSON Lines), left out
    /// of gcc, github and JUnit failures, SARIF level note; summaries gain `known` and `fixed`.
    /// Must outlive the writer.
    const Baseline* baseline = nullptr;
    /// Format::Text: ANSI colours for a terminal (the CLI's `--color`): each scene's file in
    /// bold, overlaps and containments red, touches yellow, a failed rule or expectation bold
    /// red, a passed one green. The text is otherwise the same, columns aligned alike.
    bool color = false;
};

/// Writes one report for any number of scenes.
class ReportWriter {
public:
    /// Writes to `out`, which must outlive the writer. With points false, collision records
    /// carry no `points`.
    ReportWriter(std::ostream& out, Format format, bool points = true);
    ReportWriter(std::ostream& out, Format format, const ReportOptions& options);
    ~ReportWriter();
    ReportWriter(const ReportWriter&) = delete;
    ReportWriter& operator=(const ReportWriter&) = delete;

    /// Add the result of one scene.
    void scene(const Scene& scene, const SceneResult& result);

    /// The same in steps, for results streamed from check(scene, options, sink, near_sink):
    /// begin_scene, then collision() and near() for each in report order (near records are
    /// held in a temporary file until the collisions are written, not in memory), then
    /// end_scene with the rest of the result (its `collisions` are not written again; its
    /// `near`, if any, come after those given to near()).
    void begin_scene(const Scene& scene);
    void collision(const Scene& scene, const Collision& c);
    void near(const Scene& scene, const NearPair& n);
    void end_scene(const Scene& scene, const SceneResult& result);
    /// Close the report (the JSON document's brackets). Call once, after the last scene.
    void finish();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace collide
