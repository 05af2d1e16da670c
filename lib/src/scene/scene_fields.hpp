// Reading the JSON objects of a scene, for the builder and the shape reader alike: typed
// values (a number, a string, a position [x, y]) and objects that take only their known keys,
// require the required ones and reject duplicates, each error a Fail at the JSON pointer of
// the value at fault with the words the invalid-input corpus checks. Inline: every shape of
// a million-shape scene is read through them.
#pragma once

#include "scene/scene_builder.hpp"

#include "collide/text.hpp"
#include "support/json_doc.hpp"
#include "support/json_locate.hpp"

#include <algorithm>
#include <initializer_list>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

namespace collide::detail::scene_fields {

using json = JsonValue;

inline std::string describe(const json& v) {
    switch (v.kind()) {
        case json::Kind::Null: return "null";
        case json::Kind::Bool: return v.boolean() ? "true" : "false";
        case json::Kind::String: return "a string";
        case json::Kind::Object: return "an object";
        case json::Kind::Array: return "an array";
        case json::Kind::Number: return "a number";
    }
    return "an unsupported value";
}

inline std::string num_text(double d) { return format_number(d); }

using collide::edit_distance;

inline std::string join(std::initializer_list<std::string_view> words) {
    std::string s;
    for (std::string_view w : words) {
        if (!s.empty()) s += ", ";
        s += w;
    }
    return s;
}

inline double number(const json& v, const Path& path) {
    if (!v.is_number()) throw Fail{path, "expected a number, got " + describe(v)};
    return v.number();
}

// A string value, viewed in the reader's storage (valid while the element is read).
inline std::string_view text_view(const json& v, const Path& path) {
    if (!v.is_string()) throw Fail{path, "expected a string, got " + describe(v)};
    return v.string();
}

inline std::string text(const json& v, const Path& path) { return std::string(text_view(v, path)); }

// Two numbers: a position [x, y], or what `form` names ("a size [w, h]").
inline Vec2 position(const json& v, const Path& path, std::string_view form = "a position [x, y]") {
    if (!v.is_array() || v.size() != 2)
        throw Fail{path, "expected " + std::string(form) + ", got " +
                             (v.is_array() ? "an array of " + std::to_string(v.size()) + " values" : describe(v))};
    return Vec2{number(v[0], Path(path, std::size_t{0})), number(v[1], Path(path, std::size_t{1}))};
}

// A JSON object being read: known keys only, required ones present, each value typed.
class Obj {
public:
    Obj(const json& j, const Path& path, std::string_view what) : j_(j), path_(path) {
        if (!j.is_object()) throw Fail{path_, std::string(what) + " must be an object, got " + describe(j)};
        no_duplicate_keys(j, path_);
    }

    void only(std::initializer_list<std::string_view> allowed) const {
        for (std::size_t i = 0; i < j_.size(); ++i) {
            const std::string_view key = j_.key(i);
            if (std::any_of(allowed.begin(), allowed.end(), [&](std::string_view a) { return same_key(a, key); })) continue;
            const std::string k(key);
            std::string hint;
            for (std::string_view a : allowed)
                if (edit_distance(k, a) <= 2) hint = " (did you mean '" + std::string(a) + "'?)";
            throw Fail{sub(k), "unknown key '" + k + "'" + hint + "; allowed here: " + join(allowed)};
        }
    }
    bool has(std::string_view k) const { return j_.has(k); }
    json at(std::string_view k) const {
        const std::size_t i = j_.find(k);
        if (i == j_.size()) throw Fail{path_, "missing required key '" + std::string(k) + "'"};
        return j_[i];
    }
    Path sub(std::string_view k) const { return Path(path_, k); }
    const Path& path() const { return path_; }

    double num(std::string_view k) const { return number(at(k), sub(k)); }
    Vec2 pos(std::string_view k) const { return position(at(k), sub(k)); }
    std::string str(std::string_view k) const { return text(at(k), sub(k)); }
    std::string_view str_view(std::string_view k) const { return text_view(at(k), sub(k)); }
    // A string that must be one of `choices`; `fallback` when the key is absent.
    std::string choice(std::string_view k, std::initializer_list<std::string_view> choices, std::string fallback) const {
        if (!has(k)) return fallback;
        std::string s = str(k);
        if (std::find(choices.begin(), choices.end(), s) == choices.end())
            throw Fail{sub(k), "'" + s + "' is not one of " + join(choices)};
        return s;
    }
    // The "groups" member, shared with earlier objects that have the same list.
    Groups groups(GroupLists& lists) const {
        const std::size_t member = j_.find("groups");
        if (member == j_.size()) return Groups();
        return lists.get(j_[member], sub("groups"));
    }
    std::vector<Vec2> positions(std::string_view k, std::size_t at_least) const {
        const json a = at(k);
        if (!a.is_array()) throw Fail{sub(k), "expected an array of positions, got " + describe(a)};
        if (a.size() < at_least)
            throw Fail{sub(k), "needs at least " + std::to_string(at_least) + " points, got " + std::to_string(a.size())};
        std::vector<Vec2> out;
        out.reserve(a.size());
        const Path list = sub(k);
        for (std::size_t i = 0; i < a.size(); ++i) out.push_back(position(a[i], Path(list, i)));
        return out;
    }
    double non_negative(std::string_view k) const {
        const double d = num(k);
        if (d < 0) throw Fail{sub(k), std::string(k) + " must be >= 0, got " + num_text(d)};
        return d;
    }

    // A duplicate key would let a typo win silently: it is an error.
    static void no_duplicate_keys(const json& j, const Path& path) {
        const std::size_t n = j.size();
        auto fail = [&](std::size_t a) {
            throw Fail{Path(path, j.key(a)), "duplicate key '" + std::string(j.key(a)) + "'", j[a].offset()};
        };
        if (n <= 16) {
            for (std::size_t a = 1; a < n; ++a)
                for (std::size_t b = 0; b < a; ++b)
                    if (same_key(j.key(a), j.key(b))) fail(a);
            return;
        }
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return j.key(a) < j.key(b) || (j.key(a) == j.key(b) && a < b);
        });
        std::size_t first_dup = n;
        for (std::size_t k = 1; k < n; ++k)
            if (j.key(order[k]) == j.key(order[k - 1])) first_dup = std::min(first_dup, order[k]);
        if (first_dup < n) fail(first_dup);
    }

private:
    json j_;
    Path path_;
};

inline std::string id_or_default(const Obj& o, std::size_t index) {
    if (!o.has("id")) return std::to_string(index);
    const std::string_view id = o.str_view("id");
    if (id.empty()) throw Fail{o.sub("id"), "an id must not be empty"};
    return std::string(id);
}

// A number that must be > 0 (a capsule's radius, a box's size).
inline double positive(const Obj& o, std::string_view k) {
    const double d = o.num(k);
    if (!(d > 0)) throw Fail{o.sub(k), std::string(k) + " must be > 0, got " + num_text(d)};
    return d;
}

/// "ignore": ["rule", ...] or "*" of a shape or grid object (SPEC §3.1): the rules its findings
/// are silenced for; empty when absent. Throws Fail.
std::vector<std::string> ignore_list(const Obj& o);

}  // namespace collide::detail::scene_fields
