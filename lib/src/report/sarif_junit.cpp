// SARIF 2.1.0 (OASIS, "Static Analysis Results Interchange Format Version 2.1.0") and JUnit
// XML, the CI formats that are documents (SPEC §3.1). SARIF's results stream as the check
// gives them; its `tool` member, which names every rule the results refer to, comes after
// them (JSON objects are unordered). JUnit holds one scene's test cases until the scene ends.
#include "report/ci_formats.hpp"

#include "support/text_encoding.hpp"

#include <map>
#include <vector>

#ifndef COLLIDE_VERSION
#define COLLIDE_VERSION "0"
#endif

namespace collide::detail {

namespace {

// A file name as a relative URI reference (RFC 3986): unreserved and path characters kept,
// every other byte percent-encoded.
std::string uri_of(const std::string& file) {
    static const char* kHex = "0123456789ABCDEF";
    std::string out;
    for (const char ch : file) {
        const auto c = static_cast<unsigned char>(ch);
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                          std::string_view("-._~/!$&'()*+,;=@").find(ch) != std::string_view::npos;
        if (keep) {
            out += ch;
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
        }
    }
    return out;
}

class SarifWriter final : public CiWriter {
public:
    SarifWriter(std::ostream& out, const ReportOptions& options) : CiWriter(out, options) {
        buf_ += "{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\", \"version\": \"2.1.0\",\n"
                " \"runs\": [{\"results\": [";
    }

    void begin_scene(const Scene& scene, std::size_t) override {
        for (const Rule& r : scene.rules) rule_index(r.name, "rule");  // every rule of the check, in order
    }

    void finish(std::size_t) override {
        buf_ += results_ ? "\n  ],\n" : "],\n";
        buf_ += "  \"tool\": {\"driver\": {\"name\": \"collide\", \"version\": \"" COLLIDE_VERSION "\",\n"
                "   \"informationUri\": \"https://github.com/collide-dev/collide\",\n   \"rules\": [";
        for (std::size_t k = 0; k < rules_.size(); ++k) {
            buf_ += k ? ",\n    {\"id\": " : "\n    {\"id\": ";
            json_string(buf_, rules_[k].first);
            buf_ += ", \"shortDescription\": {\"text\": ";
            json_string(buf_, rules_[k].second);
            buf_ += "}}";
        }
        buf_ += rules_.empty() ? "]}}}]}\n" : "\n   ]}}}]}\n";
    }

private:
    bool lists_known() const override { return true; }

    void finding(const Scene&, Finding&& f, bool known) override {
        const char* kind = f.kind == Finding::Kind::Move        ? "move"
                           : f.kind == Finding::Kind::Collision ? "collision"
                           : f.kind == Finding::Kind::Warning   ? "warning"
                                                                : "rule";
        const std::size_t index = rule_index(f.rule, kind);
        buf_ += results_++ ? ",\n   {\"ruleId\": " : "\n   {\"ruleId\": ";
        json_string(buf_, f.rule);
        buf_ += ", \"ruleIndex\": " + std::to_string(index);
        buf_ += known ? ", \"level\": \"note\"" : f.kind == Finding::Kind::Warning ? ", \"level\": \"warning\"" : ", \"level\": \"error\"";
        if (known) buf_ += ", \"baselineState\": \"unchanged\"";
        buf_ += ", \"message\": {\"text\": ";
        json_string(buf_, f.message);
        buf_ += "},\n    \"locations\": [{";
        physical(f.at);
        if (!f.a.empty()) {
            buf_ += ", \"logicalLocations\": [{\"name\": ";
            json_string(buf_, f.a);
            buf_ += ", \"fullyQualifiedName\": ";
            // The layer, then the id; an id that is a path from the root already (a Godot
            // node's, under its parent) is that name.
            const bool under = !f.at.layer.empty() && f.a.compare(0, f.at.layer.size() + 1, f.at.layer + "/") == 0;
            json_string(buf_, f.at.layer.empty() || under ? f.a : f.at.layer + "/" + f.a);
            buf_ += ", \"kind\": \"object\"}]";
        }
        buf_ += "}]";
        if (f.other) {
            buf_ += ",\n    \"relatedLocations\": [{\"id\": 1, ";
            physical(*f.other);
            buf_ += ", \"message\": {\"text\": ";
            json_string(buf_, f.b);
            buf_ += "}}]";
        }
        buf_ += ",\n    \"partialFingerprints\": {\"collideFinding/v1\": \"" + fingerprint(f) + "\"}}";
    }

    void physical(const Source& s) {
        buf_ += "\"physicalLocation\": {\"artifactLocation\": {\"uri\": ";
        json_string(buf_, uri_of(s.file));
        buf_ += '}';
        if (s.line > 0) {
            buf_ += ", \"region\": {\"startLine\": " + std::to_string(s.line);
            if (s.column > 0) buf_ += ", \"startColumn\": " + std::to_string(s.column);
            buf_ += '}';
        }
        buf_ += '}';
    }

    // The index of rule `id` in tool.driver.rules, added with a description of its kind when new.
    std::size_t rule_index(const std::string& id, const std::string& kind) {
        const auto [it, added] = index_.emplace(id, rules_.size());
        if (added) {
            const std::string what = kind == "move"        ? "A move's expectation (expect allowed or blocked) failed"
                                     : kind == "collision" ? "A collision, with --fail-on-collision"
                                     : kind == "warning"   ? "A warning, with --strict"
                                                           : "Rule '" + id + "' of the scene or rules file";
            rules_.emplace_back(id, what);
        }
        return it->second;
    }

    std::size_t results_ = 0;
    std::vector<std::pair<std::string, std::string>> rules_;  // id, description
    std::map<std::string, std::size_t> index_;
};

// XML text: the five escapes, and characters XML 1.0 cannot hold (C0 controls but tab, LF
// and CR) as U+FFFD; bytes that are not UTF-8 likewise.
std::string xml_text(const std::string& s) {
    const std::string valid = valid_utf8(s);
    std::string out;
    for (const char ch : valid) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '"') out += "&quot;";
        else if (c == '\'') out += "&apos;";
        else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') out += "\xEF\xBF\xBD";
        else out += ch;
    }
    return out;
}

// <testsuites> with a <testsuite> per scene: a <testcase> per rule and per move with an
// expectation (and "collisions" with --fail-on-collision, "warnings" with --strict), a
// <failure> listing a failed one's findings with their places.
class JunitWriter final : public CiWriter {
public:
    JunitWriter(std::ostream& out, const ReportOptions& options) : CiWriter(out, options) {
        buf_ += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"collide\">\n";
    }

    void begin_scene(const Scene& scene, std::size_t) override {
        cases_.clear();
        index_.clear();
        if (options_.fail_on_collision) add_case("collisions", "collide.collisions");
        for (std::size_t k = 0; k < scene.moves.size(); ++k)
            if (scene.moves[k].expect_allowed) add_case("move '" + scene.moves[k].id + "'", "collide.moves");
        for (const Rule& r : scene.rules) add_case("rule '" + r.name + "'", "collide.rules");
        if (options_.strict) add_case("warnings", "collide.warnings");
    }

    void finish(std::size_t) override { buf_ += "</testsuites>\n"; }

private:
    struct Case {
        std::string name, classname, failures;
        std::size_t count = 0;
        std::string first;  // the first finding's message: the failure's message attribute
    };

    void finding(const Scene&, Finding&& f, bool) override {
        const std::string name = f.kind == Finding::Kind::Collision ? "collisions"
                                 : f.kind == Finding::Kind::Move     ? "move '" + f.a + "'"
                                 : f.kind == Finding::Kind::Warning  ? "warnings"
                                                                     : "rule '" + f.rule + "'";
        const auto it = index_.find(name);
        Case& c = it != index_.end() ? cases_[it->second] : add_case(name, "collide");
        if (c.count++ == 0) c.first = f.message;
        c.failures += place_text(f.at) + ": " + f.message + "\n";
    }

    void scene_done(const Scene& scene, const SceneResult&) override {
        std::size_t failed = 0;
        for (const Case& c : cases_) failed += c.count > 0 ? 1 : 0;
        buf_ += " <testsuite name=\"" + xml_text(scene.file) + "\" tests=\"" + std::to_string(cases_.size()) +
                "\" failures=\"" + std::to_string(failed) + "\" errors=\"0\">\n";
        for (const Case& c : cases_) {
            buf_ += "  <testcase name=\"" + xml_text(c.name) + "\" classname=\"" + xml_text(c.classname) + "\"";
            if (c.count == 0) {
                buf_ += "/>\n";
                continue;
            }
            buf_ += ">\n   <failure message=\"" + xml_text(c.first) + "\" type=\"" + xml_text(c.classname) + "\">" +
                    xml_text(c.failures) + "</failure>\n  </testcase>\n";
        }
        buf_ += " </testsuite>\n";
        flush_if_big();
    }

    Case& add_case(const std::string& name, const std::string& classname) {
        index_.emplace(name, cases_.size());
        cases_.push_back(Case{name, classname, {}, 0, {}});
        return cases_.back();
    }

    std::vector<Case> cases_;
    std::map<std::string, std::size_t> index_;
};

}  // namespace

std::unique_ptr<FormatWriter> make_sarif_writer(std::ostream& out, const ReportOptions& options) {
    return std::make_unique<SarifWriter>(out, options);
}

std::unique_ptr<FormatWriter> make_junit_writer(std::ostream& out, const ReportOptions& options) {
    return std::make_unique<JunitWriter>(out, options);
}

}  // namespace collide::detail
