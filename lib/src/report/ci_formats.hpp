// The CI formats (SPEC §3.1): what gcc, github (ci_formats.cpp), sarif and junit
// (sarif_junit.cpp) share. Each lists the findings of the check (findings.cpp) and nothing else.
#pragma once

#include "collide/findings.hpp"
#include "report/findings_of.hpp"
#include "report/format_writer.hpp"

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>

namespace collide::detail {

// What the four formats share: the findings of each scene in report order, handed to
// finding() -- those a baseline knows only to a format that lists them (SARIF, as notes); the
// scene's end to scene_done().
class CiWriter : public FormatWriter {
public:
    CiWriter(std::ostream& out, const ReportOptions& options) : FormatWriter(out, options), options_(options) {}

    void collision(const Scene& scene, const Collision& c) final {
        if (!options_.fail_on_collision) return;
        give(scene, collision_finding(scene, c));
        flush_if_big();
    }

    void end_scene(const Scene& scene, const SceneResult& r) final {
        for (std::size_t k = 0; k < r.moves.size() && k < scene.moves.size(); ++k)
            if (std::optional<Finding> f = move_finding(scene, k, r.moves[k])) give(scene, std::move(*f));
        const auto emit = [&](Finding&& f) {
            give(scene, std::move(f));
            flush_if_big();
        };
        for (std::size_t k = 0; k < r.rules.size() && k < scene.rules.size(); ++k) rule_findings(scene, k, r.rules[k], emit);
        if (options_.strict) warning_findings(scene, r, emit);
        scene_done(scene, r);
    }

protected:
    // `known`: the baseline holds it (only formats that list known findings get those).
    virtual void finding(const Scene& scene, Finding&& f, bool known) = 0;
    virtual bool lists_known() const { return false; }
    virtual void scene_done(const Scene&, const SceneResult&) {}

    const ReportOptions options_;

private:
    void give(const Scene& scene, Finding&& f) {
        const bool known = baseline_ && baseline_->known(f);
        if (!known || lists_known()) finding(scene, std::move(f), known);
    }
    void near_record(std::string&, const Scene&, const NearPair&, bool) final {}  // near pairs are no findings
};

/// The writer of a CI format (Format::Gcc, Github, Sarif or Junit).
std::unique_ptr<FormatWriter> make_ci_writer(std::ostream& out, Format format, const ReportOptions& options);
std::unique_ptr<FormatWriter> make_sarif_writer(std::ostream& out, const ReportOptions& options);
std::unique_ptr<FormatWriter> make_junit_writer(std::ostream& out, const ReportOptions& options);

/// 16 hex digits that stay the same while a finding's baseline key does (rule, input file,
/// ids of a and b; no coordinates): SARIF's partialFingerprints.
std::string fingerprint(const Finding& f);

}  // namespace collide::detail
