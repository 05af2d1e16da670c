// Scene reading: nlohmann's SAX parser drives a handler that tracks the JSON pointer of
// every value and hands each element of the big top-level arrays (shapes, grids, moves,
// rules, pairs) to the builder as a small DOM as soon as it is complete, so the whole
// document never exists as a DOM. Errors are located lazily: the pointer is kept, and
// line:column is found by rescanning the text only when an error is reported.
#include "collide/scene.hpp"

#include "json_locate.hpp"
#include "scene_builder.hpp"

#include <nlohmann/json.hpp>

#include <unordered_set>

namespace collide {

namespace {

std::string where(const std::string& file, int line, int column, const std::string& path) {
    std::string s = file.empty() ? std::string("<input>") : file;
    if (line > 0) s += ":" + std::to_string(line) + ":" + std::to_string(column);
    if (!path.empty()) s += ": " + path;
    return s;
}

}  // namespace

Error::Error(std::string file, std::string json_path, std::string message, int line, int column)
    : std::runtime_error(where(file, line, column, json_path) + ": " + message),
      file_(std::move(file)),
      json_path_(std::move(json_path)),
      message_(std::move(message)),
      line_(line),
      column_(column) {}

PairSpec parse_pair_spec(std::string_view text) {
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size())
        throw Error("", "", "pair spec '" + std::string(text) + "' is not of the form A:B (selectors: a group, an id or *)");
    return PairSpec{std::string(text.substr(0, colon)), std::string(text.substr(colon + 1))};
}

namespace detail {
namespace {

using json = nlohmann::json;

class SaxHandler {
public:
    explicit SaxHandler(SceneBuilder& b) : b_(b) {}

    // Set when the parser reports a syntax error.
    bool syntax_error = false;
    std::size_t error_offset = 0;
    std::string error_message;
    std::string error_path;

    bool null() { return scalar(json(nullptr)); }
    bool boolean(bool v) { return scalar(json(v)); }
    bool number_integer(json::number_integer_t v) { return scalar(json(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return scalar(json(v)); }
    bool number_float(json::number_float_t v, const std::string& raw) {
        if (!std::isfinite(v)) {
            begin_value();
            throw Fail{pointer(), "number " + raw + " is out of range (not a finite double)"};
        }
        return scalar(json(v));
    }
    bool string(std::string& v) { return scalar(json(std::move(v))); }
    bool binary(json::binary_t&) { return false; }

    bool start_object(std::size_t) { return open(json::object(), false); }
    bool start_array(std::size_t) { return open(json::array(), true); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(std::string& k) {
        Frame& f = frames_.back();
        if (f.seen.size() < 16) {
            for (const std::string& s : f.seen)
                if (s == k) duplicate_key(k);
            f.seen.push_back(k);
            if (f.seen.size() == 16) f.seen_set.insert(f.seen.begin(), f.seen.end());
        } else if (!f.seen_set.insert(k).second) {
            duplicate_key(k);
        }
        f.key = k;
        return true;
    }

    bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& ex) {
        syntax_error = true;
        error_offset = position > 0 ? position - 1 : 0;
        begin_value();  // the error is about the value being read: name its place
        error_path = pointer();
        // nlohmann says "[json.exception.parse_error.101] parse error at line 1, column 5: <what>";
        // keep <what>: the location is ours to give.
        std::string what = ex.what();
        if (ex.id == 406) {
            error_message = "number " + last_token + " is out of range (not a finite double)";
            error_offset = position >= last_token.size() ? position - last_token.size() : 0;
            return false;
        }
        const std::size_t col = what.find("column ");
        const std::size_t colon = col == std::string::npos ? std::string::npos : what.find(": ", col);
        const std::size_t tag = what.find("] ");
        error_message = colon != std::string::npos ? what.substr(colon + 2)
                        : tag != std::string::npos ? what.substr(tag + 2) : what;
        return false;
    }

private:
    struct Frame {
        bool array = false;
        std::size_t count = 0;  // arrays: values begun so far
        std::string key;        // objects: the current key
        std::vector<std::string> seen;
        std::unordered_set<std::string> seen_set;
    };

    [[noreturn]] void duplicate_key(const std::string& k) {
        frames_.back().key = k;
        throw Fail{pointer(), "duplicate key '" + k + "'"};
    }

    std::string pointer() const {
        std::string p;
        for (const Frame& f : frames_) {
            if (f.array) {
                if (f.count > 0) p += "/" + std::to_string(f.count - 1);
            } else if (!f.key.empty() || !f.seen.empty()) {
                p += "/" + pointer_token(f.key);
            }
        }
        return p;
    }

    // A value starts: count it in its array, and decide whether it starts a capture.
    void begin_value() {
        if (!frames_.empty() && frames_.back().array) ++frames_.back().count;
    }
    bool capture_starts_here(bool is_array) const {
        if (capturing_) return false;
        if (frames_.size() == 1) return !(SceneBuilder::streamed_key(frames_[0].key) && is_array);
        return frames_.size() == 2 && SceneBuilder::streamed_key(frames_[0].key);
    }

    bool scalar(json v) {
        begin_value();
        if (frames_.empty()) throw Fail{"", "a scene is a JSON object, not a single value"};
        if (capturing_) {
            add(std::move(v));
            return true;
        }
        if (capture_starts_here(false)) deliver(std::move(v));
        return true;
    }

    bool open(json container, bool array) {
        begin_value();
        if (frames_.empty() && array) throw Fail{"", "a scene is a JSON object, not an array"};
        if (capturing_) {
            stack_.push_back(add(std::move(container)));
        } else if (!frames_.empty() && capture_starts_here(array)) {
            capturing_ = true;
            captured_ = std::move(container);
            stack_.push_back(&captured_);
        } else if (frames_.size() == 1 && array) {
            b_.begin_array(frames_[0].key);
        }
        frames_.push_back(Frame{array, 0, {}, {}, {}});
        return true;
    }

    bool close() {
        frames_.pop_back();
        if (capturing_) {
            stack_.pop_back();
            if (stack_.empty()) {
                capturing_ = false;
                deliver(std::move(captured_));
                captured_ = json();
            }
        }
        return true;
    }

    json* add(json v) {
        json& top = *stack_.back();
        if (top.is_array()) {
            top.push_back(std::move(v));
            return &top.back();
        }
        json& slot = top[frames_.back().key];
        slot = std::move(v);
        return &slot;
    }

    void deliver(json v) {
        if (frames_.size() == 1) b_.top_level(frames_[0].key, v, "/" + pointer_token(frames_[0].key));
        else b_.element(frames_[0].key, frames_[1].count - 1, v, pointer());
    }

    SceneBuilder& b_;
    std::vector<Frame> frames_;
    bool capturing_ = false;
    json captured_;
    std::vector<json*> stack_;
};

}  // namespace
}  // namespace detail

Scene read_scene(std::string_view text, const std::string& file) {
    using namespace detail;
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    SceneBuilder builder(file);
    SaxHandler handler(builder);
    auto located = [&](const std::string& path, const std::string& message, std::size_t offset) {
        const TextPos pos = offset == std::string_view::npos ? TextPos{} : position_of(text, offset);
        return Error(file, path, message, pos.line, pos.column);
    };
    try {
        const bool ok = nlohmann::json::sax_parse(text, &handler, nlohmann::json::input_format_t::json, true, false);
        if (!ok || handler.syntax_error) {
            throw located(handler.error_path, handler.error_message.empty() ? "invalid JSON" : handler.error_message,
                          handler.error_offset);
        }
        return builder.finish();
    } catch (const Fail& f) {
        throw located(f.path, f.message, find_pointer(text, f.path));
    }
}

}  // namespace collide
