// A project file, `collide.json` (SPEC §3.1 "Configuration"): which inputs a bare `collide
// check` checks and the options it checks them with. Read strictly, as scenes are: an unknown
// key or a value of the wrong kind is an error at its line and column.
#include "collide/scene.hpp"

#include "scene/scene_fields.hpp"
#include "support/json_locate.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

namespace collide {

namespace {

[[noreturn]] void fail_at(std::string_view text, const std::string& file, const std::string& path, const std::string& message) {
    const std::size_t at = detail::find_pointer(text, path);
    const detail::TextPos pos = at == std::string_view::npos ? detail::TextPos{} : detail::position_of(text, at);
    throw Error(file, path, message, pos.line, pos.column);
}

}  // namespace

Project read_project(std::string_view text, const std::string& file) {
    nlohmann::json doc;
    detail::parse_json(doc, file, text, "");
    if (!doc.is_object()) fail_at(text, file, "", "a project file is a JSON object");
    Project p;
    p.file = file;
    static const char* kKeys[] = {"inputs", "rules", "baseline", "strict", "format", "near", "no_touch"};
    for (const auto& item : doc.items()) {
        const std::string key = item.key();  // named: a structured binding is not captured before C++20
        const nlohmann::json& value = item.value();
        const std::string path = "/" + detail::pointer_token(key);
        const auto wrong = [&](const char* what) { fail_at(text, file, path, key + " must be " + what); };
        if (key == "inputs") {
            if (!value.is_array()) wrong("an array of globs");
            for (std::size_t k = 0; k < value.size(); ++k) {
                if (!value[k].is_string() || value[k].get<std::string>().empty())
                    fail_at(text, file, path + "/" + std::to_string(k), "an input is a glob, a non-empty string");
                p.inputs.push_back(value[k].get<std::string>());
            }
        } else if (key == "rules") {
            if (value.is_string()) {
                p.rules_path = value.get<std::string>();
            } else if (value.is_object()) {
                const std::string inner = value.dump();
                try {
                    p.rules = read_rule_set(inner, file);
                } catch (const Error& e) {
                    fail_at(text, file, path + e.json_path(), e.message());
                }
                p.rules->rule_sources.assign(p.rules->rules.size(), Source::in(file));
            } else {
                wrong("a rules file's path or an object of \"pairs\" and \"rules\"");
            }
        } else if (key == "baseline") {
            if (!value.is_string()) wrong("a path");
            p.baseline = value.get<std::string>();
        } else if (key == "strict" || key == "no_touch") {
            if (!value.is_boolean()) wrong("true or false");
            (key == "strict" ? p.strict : p.no_touch) = value.get<bool>();
        } else if (key == "format") {
            if (!value.is_string()) wrong("a format's name");
            p.format = value.get<std::string>();
        } else if (key == "near") {
            if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0)
                wrong("a finite distance >= 0");
            p.near = value.get<double>();
        } else {
            std::string allowed, hint;
            for (const char* k : kKeys) {
                allowed += (allowed.empty() ? "" : ", ") + std::string(k);
                if (detail::scene_fields::edit_distance(key, k) <= 2) hint = " (did you mean '" + std::string(k) + "'?)";
            }
            fail_at(text, file, path, "unknown key '" + key + "'" + hint + "; allowed here: " + allowed);
        }
    }
    return p;
}

}  // namespace collide
