// Rules files (collide/scene.hpp, SPEC §1.4): pairs and rules that apply to every input, so a
// project keeps one `level-rules.json` beside maps that cannot hold rules of their own.
#include "collide/scene.hpp"

#include "support/json_locate.hpp"

#include <nlohmann/json.hpp>

namespace collide {

RuleSet read_rule_set(std::string_view text, const std::string& file) {
    Scene scene = read_scene(text, file);  // every key checked and located as in a scene
    const nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_object())
        for (const auto& item : doc.items()) {
            const std::string& key = item.key();
            if (key == "pairs" || key == "rules" || key == "format" || key == "version") continue;
            const std::string path = "/" + detail::pointer_token(key);
            const std::size_t at = detail::find_pointer(text, path);
            const detail::TextPos pos = at == std::string_view::npos ? detail::TextPos{} : detail::position_of(text, at);
            throw Error(file, path, "a rules file holds only \"pairs\" and \"rules\", not \"" + key + "\"", pos.line,
                        pos.column);
        }
    return RuleSet{file, std::move(scene.pairs), std::move(scene.rules), std::move(scene.sources.rules)};
}

void add_rules(Scene& scene, const RuleSet& rules) {
    for (std::size_t k = 0; k < rules.rules.size(); ++k)
        for (const Rule& r : scene.rules)
            if (r.name == rules.rules[k].name)
                throw Error(rules.file, "/rules/" + std::to_string(k) + "/name",
                            "rule '" + r.name + "' is also a rule of " + scene.file);
    scene.pairs.insert(scene.pairs.end(), rules.pairs.begin(), rules.pairs.end());
    if (!rules.pairs.empty()) scene.pairs_given = true;
    // A scene without its rules' sources (one made in code) gets its own first, unknown.
    scene.sources.rules.resize(scene.rules.size(), Source::in(scene.sources.file.empty() ? scene.file : scene.sources.file));
    scene.rules.insert(scene.rules.end(), rules.rules.begin(), rules.rules.end());
    for (std::size_t k = 0; k < rules.rules.size(); ++k)
        scene.sources.rules.push_back(k < rules.rule_sources.size() ? rules.rule_sources[k] : Source::in(rules.file));
}

}  // namespace collide
