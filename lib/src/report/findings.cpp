// Findings (collide/findings.hpp, SPEC §3.1): what fails a check, each at its place. The CI
// formats (ci_formats.cpp) write these and nothing else.
#include "collide/findings.hpp"
#include "collide/text.hpp"

#include "report/findings_of.hpp"
#include "support/text_encoding.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <tuple>

#include <cmath>

namespace collide {

std::string place_text(const Source& s) {
    std::string out = s.file;
    if (s.line > 0) {
        out += ':' + std::to_string(s.line);
        if (s.column > 0) out += ':' + std::to_string(s.column);
    }
    return out;
}

namespace detail {

namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

Source object_source(const Scene& scene, std::size_t i) {
    const std::size_t ns = scene.shapes.size();
    return i < ns ? scene.sources.shape(i) : scene.sources.grid(i - ns);
}

// A finding between objects a and b (b kNone: none) of kind `kind` under `rule`.
Finding pair_finding(const Scene& scene, Finding::Kind kind, const std::string& rule, std::size_t a, std::size_t b) {
    Finding f;
    f.kind = kind;
    f.rule = rule;
    f.scene = scene.file;
    f.a = object_id(scene, a);
    f.at = object_source(scene, a);
    if (b != kNone) {
        f.b = object_id(scene, b);
        f.other = object_source(scene, b);
    }
    return f;
}

std::string in_quotes(const std::string& id) { return "'" + id + "'"; }

}  // namespace

Finding collision_finding(const Scene& scene, const Collision& c) {
    Finding f = pair_finding(scene, Finding::Kind::Collision, "collision", c.a, c.b);
    f.message = in_quotes(f.a) + (c.relation == Relation::Touch ? " touches " : " overlaps ") + in_quotes(f.b) + " (" +
                place_text(*f.other) + ")";
    return f;
}

std::optional<Finding> move_finding(const Scene& scene, std::size_t k, const MoveResult& m) {
    if (!m.passed || *m.passed) return std::nullopt;
    const Move& move = scene.moves[k];
    Finding f;
    f.kind = Finding::Kind::Move;
    f.rule = "move";
    f.scene = scene.file;
    f.a = move.id;
    f.at = scene.sources.move(k);
    f.message = "move " + in_quotes(move.id) + " expected " + (move.expect_allowed && *move.expect_allowed ? "allowed" : "blocked") +
                ", was " + (m.allowed ? "allowed" : "blocked");
    if (!m.allowed) {
        f.message += " at t=" + format_number(m.t) + " (" + format_number(m.stop.x) + ", " + format_number(m.stop.y) + ")";
        if (m.hit) {
            f.b = object_id(scene, *m.hit);
            f.other = object_source(scene, *m.hit);
            f.message += " by " + in_quotes(f.b) + " (" + place_text(*f.other) + ")";
        }
    }
    return f;
}

void rule_findings(const Scene& scene, std::size_t k, const RuleResult& r, const std::function<void(Finding&&)>& emit) {
    if (r.passed) return;
    const Rule& rule = scene.rules[k];
    const std::string pairs = rule.pairs.left + ":" + rule.pairs.right;
    if (r.violations.empty()) {  // expect "some": nothing collided
        Finding f;
        f.kind = Finding::Kind::NothingFound;
        f.rule = rule.name;
        f.scene = scene.file;
        f.at = scene.sources.rule(k);
        f.message = "no pair of " + in_quotes(pairs) + " collides (expect some)";
        emit(std::move(f));
        return;
    }
    for (std::size_t v = 0; v < r.violations.size(); ++v) {
        const auto [a, b] = r.violations[v];
        Finding f = pair_finding(scene, Finding::Kind::Violation, rule.name, a, b);
        if (b == kNone) {
            f.message = in_quotes(f.a) + " collides with nothing of " + in_quotes(rule.pairs.right) + " (expect each)";
        } else if (rule.clearance && v < r.distances.size() && r.distances[v] > 0) {
            f.message = in_quotes(f.a) + " is " + format_number(r.distances[v]) + " from " + in_quotes(f.b) + " (" +
                        place_text(*f.other) + "), closer than the clearance " + format_number(*rule.clearance);
        } else {
            f.message = in_quotes(f.a) + " collides with " + in_quotes(f.b) + " (" + place_text(*f.other) + ")";
        }
        emit(std::move(f));
    }
}

void warning_findings(const Scene& scene, const SceneResult& r, const std::function<void(Finding&&)>& emit) {
    const auto warning = [&](std::string message, Source at) {
        Finding f;
        f.kind = Finding::Kind::Warning;
        f.rule = "warning";
        f.scene = scene.file;
        f.at = std::move(at);
        f.message = std::move(message);
        emit(std::move(f));
    };
    for (std::size_t k = 0; k < scene.warnings.size(); ++k) warning(scene.warnings[k], scene.sources.warning(k));
    for (const std::string& sel : r.empty_selectors) {
        // At the first rule that names it (a mistyped selector in a rules file is there).
        Source at = Source::in(scene.sources.file.empty() ? scene.file : scene.sources.file);
        for (std::size_t k = 0; k < scene.rules.size(); ++k)
            if (scene.rules[k].pairs.left == sel || scene.rules[k].pairs.right == sel) {
                at = scene.sources.rule(k);
                break;
            }
        warning("selector " + in_quotes(sel) + " selects nothing", std::move(at));
    }
}

}  // namespace detail

std::vector<Finding> findings(const Scene& scene, const SceneResult& result, const FindingOptions& options) {
    std::vector<Finding> out;
    const auto keep = [&out](Finding&& f) { out.push_back(std::move(f)); };
    if (options.fail_on_collision)
        for (const Collision& c : result.collisions) out.push_back(detail::collision_finding(scene, c));
    for (std::size_t k = 0; k < result.moves.size() && k < scene.moves.size(); ++k)
        if (auto f = detail::move_finding(scene, k, result.moves[k])) out.push_back(std::move(*f));
    for (std::size_t k = 0; k < result.rules.size() && k < scene.rules.size(); ++k)
        detail::rule_findings(scene, k, result.rules[k], keep);
    if (options.strict) detail::warning_findings(scene, result, keep);
    return out;
}

bool Baseline::Key::operator<(const Key& o) const { return std::tie(rule, file, a, b) < std::tie(o.rule, o.file, o.a, o.b); }

Baseline::Key Baseline::key_of(const Finding& f) { return Key{f.rule, f.scene, f.a, f.b}; }

Baseline Baseline::read(std::string_view text, const std::string& file) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception& e) {
        throw Error(file, "", std::string("not a baseline: not valid JSON (") + e.what() + ")");
    }
    if (!doc.is_object() || !doc.contains("findings") || !doc["findings"].is_array())
        throw Error(file, "", "not a baseline: an object with \"findings\": [...] (collide check --write-baseline)");
    Baseline b;
    const nlohmann::json& list = doc["findings"];
    for (std::size_t k = 0; k < list.size(); ++k) {
        const nlohmann::json& item = list[k];
        const std::string path = "/findings/" + std::to_string(k);
        const auto member = [&](const char* name, bool required) {
            if (!item.is_object()) throw Error(file, path, "a finding's key is an object");
            const auto it = item.find(name);
            if (it == item.end()) {
                if (required) throw Error(file, path, std::string("a finding's key needs \"") + name + "\"");
                return std::string();
            }
            if (!it->is_string()) throw Error(file, path + "/" + name, std::string(name) + " must be a string");
            return it->get<std::string>();
        };
        b.keys_.push_back(Key{member("rule", true), member("file", true), member("a", false), member("b", false)});
    }
    std::sort(b.keys_.begin(), b.keys_.end());
    b.found_.assign(b.keys_.size(), 0);
    return b;
}

std::string Baseline::text(const std::vector<Finding>& findings) {
    std::vector<Key> keys;
    for (const Finding& f : findings)
        if (f.kind != Finding::Kind::Warning) keys.push_back(key_of(f));
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end(), [](const Key& x, const Key& y) { return !(x < y) && !(y < x); }),
               keys.end());
    std::string out = "{\"format\": \"collide-baseline\", \"version\": 1,\n \"findings\": [";
    for (std::size_t k = 0; k < keys.size(); ++k) {
        out += k ? ",\n  {\"rule\": " : "\n  {\"rule\": ";
        detail::json_string(out, keys[k].rule);
        out += ", \"file\": ";
        detail::json_string(out, keys[k].file);
        if (!keys[k].a.empty()) {
            out += ", \"a\": ";
            detail::json_string(out, keys[k].a);
        }
        if (!keys[k].b.empty()) {
            out += ", \"b\": ";
            detail::json_string(out, keys[k].b);
        }
        out += '}';
    }
    out += keys.empty() ? "]}\n" : "\n ]}\n";
    return out;
}

bool Baseline::known(const Finding& f) const {
    if (f.kind == Finding::Kind::Warning) return false;
    const Key k = key_of(f);
    const auto it = std::lower_bound(keys_.begin(), keys_.end(), k);
    if (it == keys_.end() || k < *it) return false;
    found_[static_cast<std::size_t>(it - keys_.begin())] = 1;
    return true;
}

std::size_t Baseline::fixed(const std::string& scene) const {
    std::size_t n = 0;
    for (std::size_t k = 0; k < keys_.size(); ++k) n += keys_[k].file == scene && !found_[k] ? 1 : 0;
    return n;
}

}  // namespace collide
