// Scene reading: nlohmann's SAX parser drives a handler that tracks the JSON pointer of
// every value and hands each element of the big top-level arrays (shapes, grids, moves,
// rules, pairs) to the builder as a small DOM as soon as it is complete, so the whole
// document never exists as a DOM. Errors are located lazily: the pointer is kept, and
// line:column is found by rescanning the text only when an error is reported.
#include "collide/scene.hpp"

#include "scene/scene_builder.hpp"
#include "scene/sources.hpp"
#include "support/json_locate.hpp"
#include "support/text_encoding.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <optional>

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

// Only for diagnostics: when our reader meets a syntax error, nlohmann's parser reads the
// same text and its message (with the JSON pointer this handler tracks) is the one we give.
class SyntaxDiagnosis {
public:
    bool failed = false;
    std::size_t error_offset = 0;
    std::size_t examined = 0;  // bytes the diagnosis depends on: the same in any longer text
    std::string error_message;
    std::string error_path;

    bool null() { return value(); }
    bool boolean(bool) { return value(); }
    bool number_integer(json::number_integer_t) { return value(); }
    bool number_unsigned(json::number_unsigned_t) { return value(); }
    bool number_float(json::number_float_t, const std::string&) { return value(); }
    bool string(std::string&) { return value(); }
    bool binary(json::binary_t&) { return value(); }
    bool start_object(std::size_t) { return open(false); }
    bool start_array(std::size_t) { return open(true); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(std::string& k) {
        frames_.back().key = k;
        frames_.back().has_key = true;
        return true;
    }

    explicit SyntaxDiagnosis(std::string_view text) : text_(text) {}

    bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& ex) {
        failed = true;
        error_offset = position > 0 ? position - 1 : 0;
        examined = position;
        // "01" and "0x10" read as the number 0 and then a stray token: the error is about the
        // number just read, so name its place, not the next one's.
        if (const std::size_t zero = leading_zero(position, last_token); zero != std::string_view::npos) {
            const bool hex = text_[zero + 1] == 'x' || text_[zero + 1] == 'X';
            const std::size_t begin = zero > 0 && text_[zero - 1] == '-' ? zero - 1 : zero;
            std::size_t end = zero + 1;
            while (end < text_.size() && end - begin < 40 &&
                   std::string_view("0123456789abcdefABCDEFxX.+-").find(text_[end]) != std::string_view::npos)
                ++end;
            error_path = pointer();  // nlohmann has counted the number as a value already
            error_offset = begin;
            examined = std::max(examined, end);
            error_message = "invalid number '" + std::string(text_.substr(begin, end - begin)) + "': " +
                            (hex ? "hexadecimal numbers are not JSON" : "JSON numbers have no leading zero");
            return false;
        }
        value();  // the error is about the value being read: name its place
        error_path = pointer();
        // nlohmann says "[json.exception.parse_error.101] parse error at line 1, column 5: <what>";
        // keep <what>: the location is ours to give.
        const std::string what = ex.what();
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
    // Where a number starting with a 0 followed by a digit or an x begins the token in error,
    // or npos: nlohmann reads "01" as 0 then 1, and "0x10" as the invalid literal "0x".
    std::size_t leading_zero(std::size_t position, const std::string& last_token) const {
        if (position < last_token.size() || position > text_.size()) return std::string_view::npos;
        const std::size_t t = position - last_token.size();
        std::size_t zero = std::string_view::npos;
        const std::size_t sign = last_token.size() > 0 && last_token[0] == '-' ? 1 : 0;
        if (last_token.size() >= sign + 2 && last_token[sign] == '0' && (last_token[sign + 1] == 'x' || last_token[sign + 1] == 'X'))
            zero = t + sign;
        else if (t > 0 && t < text_.size() && text_[t - 1] == '0' && text_[t] >= '0' && text_[t] <= '9')
            zero = t - 1;
        if (zero == std::string_view::npos || zero + 1 >= text_.size()) return std::string_view::npos;
        std::size_t before = zero;
        if (before > 0 && text_[before - 1] == '-') --before;
        if (before > 0 && std::string_view("[,: \t\r\n").find(text_[before - 1]) == std::string_view::npos)
            return std::string_view::npos;  // the 0 ends a longer number (10, 1.0): not a leading zero
        return zero;
    }

    struct Frame {
        bool array = false;
        std::size_t count = 0;  // arrays: values begun so far
        std::string key;        // objects: the current key
        bool has_key = false;
    };

    std::string pointer() const {
        std::string p;
        for (const Frame& f : frames_) {
            if (f.array && f.count > 0) p += "/" + std::to_string(f.count - 1);
            else if (!f.array && f.has_key) p += "/" + pointer_token(f.key);
        }
        return p;
    }
    bool value() {
        if (!frames_.empty() && frames_.back().array) ++frames_.back().count;
        return true;
    }
    bool open(bool array) {
        value();
        frames_.push_back(Frame{array, 0, {}, false});
        return true;
    }
    bool close() {
        frames_.pop_back();
        return true;
    }

    std::string_view text_;
    std::vector<Frame> frames_;
};

// The error for a syntax error our reader met in `text`. When `text` may be the start of a
// longer one, `settled` says whether the longer text has the same first error (it did not
// depend on bytes at or near the end of `text`: no token there may be cut short). Bytes of
// the input it quotes that are not printable ASCII are shown as \xNN (Escapes::Ascii), so
// that the message stays one valid UTF-8 line.
Error syntax_error(std::string_view text, const std::string& file, const JsonSyntax& ours, bool* settled = nullptr) {
    const std::size_t our_offset = ours.offset;
    auto settle = [&](std::size_t examined) {
        if (settled) *settled = examined + 2 < text.size();
    };
    if (ours.why && ours.own_words) {  // a limit of ours, not of JSON: say so without asking nlohmann
        settle(our_offset);
        const TextPos pos = position_of(text, our_offset);
        return Error(file, "", ours.why, pos.line, pos.column);
    }
    SyntaxDiagnosis d(text);
    const bool ok = json::sax_parse(text, &d, json::input_format_t::json, true, false);
    settle(!ok || d.failed ? std::max(our_offset, d.examined) : text.size());
    // Two bytes nlohmann reads differently from what they are: name them.
    const std::string_view at = our_offset < text.size() ? text.substr(our_offset) : std::string_view();
    const char* special = at.empty() ? nullptr
                          : at[0] == '\0' ? "unexpected NUL byte (U+0000)"
                          : at.substr(0, 3) == "\xEF\xBB\xBF" ? "unexpected byte-order mark (U+FEFF): only one may start the file"
                                                            : nullptr;
    if (special) {
        const TextPos pos = position_of(text, our_offset);
        return Error(file, (!ok || d.failed) ? d.error_path : "", special, pos.line, pos.column);
    }
    if (!ok || d.failed) {
        const TextPos pos = position_of(text, d.error_offset);
        const std::string message = d.error_message.empty() ? "invalid JSON" : printable(d.error_message, Escapes::Ascii);
        return Error(file, d.error_path, message, pos.line, pos.column);
    }
    // nlohmann takes what our reader does not (a second byte-order mark, a NUL byte it reads
    // as the end): name the byte.
    const TextPos pos = position_of(text, our_offset);
    if (ours.why) return Error(file, "", ours.why, pos.line, pos.column);
    const auto byte = our_offset < text.size() ? static_cast<unsigned char>(text[our_offset]) : 0u;
    const std::string quoted = printable(std::string(1, static_cast<char>(byte)), Escapes::Ascii);
    return Error(file, "", "unexpected byte " + quoted + " in the JSON text", pos.line, pos.column);
}

// Whether a syntax error met in the part of a text in place is the whole text's first
// error (see syntax_error), so that nothing more need be read.
bool settled(std::string_view part, const JsonSyntax& ours) {
    // Our reader reports a token cut short at the end of the part, or at its start (a
    // literal, a UTF-8 sequence: a few bytes before the end); only an error well before the
    // end is worth nlohmann's second reading of the part (which a valid text never pays for).
    if (ours.offset + 64 >= part.size()) return false;
    bool sure = false;
    (void)syntax_error(part, std::string(), ours, &sure);
    return sure;
}

// About how many elements an array holds in all, when its first `count` took the bytes
// from `begin` to `now`: the rest of the text is taken to be more of the same. That
// over-counts when other keys follow, which is harmless for a reservation hint.
std::size_t estimate_count(std::size_t count, std::size_t begin, std::size_t now, std::size_t end) {
    const std::size_t each = std::max<std::size_t>(1, (now - begin) / std::max<std::size_t>(1, count));
    return count + (end - now) / each;
}

// Elements of "shapes" read before the builder is told how many to expect.
constexpr std::size_t kEstimateAfter = 2048;

// Bytes that must be in place beyond where a batch of shapes starts (several batches of
// ordinary shapes), and before reading begins, when the text is still being read in.
constexpr std::size_t kAhead = std::size_t{1} << 20;

// The text read_scene reads and how much of it is in place (see ReadOptions::wait_for),
// after the byte-order mark, if any. Readers work on the prefix in place; one that runs
// into its end may have seen a truncated token, and is done again on more of the text.
class Visible {
public:
    Visible(std::string_view text, const std::function<std::size_t(std::size_t)>* wait_for, const std::string& file)
        : text_(text), wait_for_(wait_for), file_(file), ready_(wait_for ? 0 : text.size()) {
        at_least(3);
        if (text_.substr(0, 3) == "\xEF\xBB\xBF") {
            text_.remove_prefix(3);
            skip_ = 3;
            ready_ -= 3;
        }
    }

    std::size_t size() const { return text_.size(); }
    bool complete() const { return ready_ >= text_.size(); }
    std::string_view text() const { return text_.substr(0, ready_); }
    // The text with at least its first n bytes (all, if it has fewer), once they are in place.
    std::string_view at_least(std::size_t n) {
        n = std::min(n, text_.size());
        if (ready_ < n) {
            const std::size_t got = (*wait_for_)(n + skip_);
            if (got < n + skip_) throw Error(file_, "", "the scene text was not read in full");
            ready_ = std::min(text_.size(), got - skip_);
        }
        return text();
    }
    std::string_view all() { return at_least(text_.size()); }

private:
    std::string_view text_;
    std::size_t skip_ = 0;  // bytes of the byte-order mark, before text_
    const std::function<std::size_t(std::size_t)>* wait_for_;
    const std::string& file_;
    std::size_t ready_;
};

// A thread of its own that runs the jobs handed to it one at a time, for a reader that hands
// over a batch, reads the next, and then takes the result of the first (a std::async per
// batch started ~500 threads for a million shapes, each a wake-up the scheduler may delay).
// Where no thread can be started, a job runs when it is handed over.
template <class Result>
class Helper {
public:
    Helper() = default;
    Helper(const Helper&) = delete;
    Helper& operator=(const Helper&) = delete;
    ~Helper() {
        {
            std::lock_guard<std::mutex> lock(m_);
            quit_ = true;
        }
        cv_.notify_all();
        if (thread_.joinable()) thread_.join();  // after the job in hand, which may use the caller's data
    }

    /// Whether a job was handed over and its result not yet taken.
    bool valid() const { return handed_; }

    void start(std::function<Result()> job) {
        handed_ = true;
        if (!thread_.joinable() && !inline_) {
            try {
                thread_ = std::thread([this] { run(); });
            } catch (const std::system_error&) {
                inline_ = true;
            }
        }
        if (inline_) {
            finish(std::move(job));
            return;
        }
        {
            std::lock_guard<std::mutex> lock(m_);
            job_ = std::move(job);
        }
        cv_.notify_all();
    }

    /// The result of the job handed over, once it is done (or its exception).
    Result get() {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return done_; });
        done_ = false;
        handed_ = false;
        if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
        Result r = std::move(*result_);
        result_.reset();
        return r;
    }

private:
    void run() {
        for (;;) {
            std::function<Result()> job;
            {
                std::unique_lock<std::mutex> lock(m_);
                cv_.wait(lock, [&] { return quit_ || job_; });
                if (!job_) return;
                job = std::move(job_);
                job_ = nullptr;
            }
            finish(std::move(job));
        }
    }
    void finish(std::function<Result()> job) {
        std::optional<Result> r;
        std::exception_ptr e;
        try {
            r.emplace(job());
        } catch (...) {
            e = std::current_exception();
        }
        {
            std::lock_guard<std::mutex> lock(m_);
            result_ = std::move(r);
            error_ = e;
            done_ = true;
        }
        cv_.notify_all();
    }

    std::mutex m_;
    std::condition_variable cv_;
    std::function<Result()> job_;
    std::optional<Result> result_;
    std::exception_ptr error_;
    bool done_ = false;
    bool quit_ = false;
    bool handed_ = false;  // the reader's own
    bool inline_ = false;
    std::thread thread_;
};

// The elements of "shapes" in batches: this thread reads batch k + 1 while another builds
// batch k (the JSON reader is about 40% of the work, building and validating the rest)
// straight into the scene's storage, made room for before the batch is handed over.
// Problems are reported in file order whatever finishes first: a bad shape in batch k
// before a syntax error in batch k + 1, and a bad shape read before a syntax error in the
// same batch before that error.
//
// While the text is still being read in, each batch waits until kAhead bytes past its start
// are in place (or all of them); a batch that runs into the end of what is in place is read
// again once all of it is.
void read_shapes_in_batches(JsonDoc& doc, SceneBuilder& builder, Visible& text) {
    constexpr std::size_t kBatch = kEstimateAfter;
    struct Batch {
        std::vector<SceneBuilder::ShapeNotes> notes;
        std::optional<Fail> fail;
    };
    const Path root;
    const Path list(root, "shapes");
    // Batches are built one at a time (the next starts once the last is merged), so they can
    // share the builder's group lists.
    GroupLists& groups = builder.group_lists();
    auto build = [&list, &groups](const std::vector<JsonValue>& values, std::size_t first, SceneShape* out) {
        Batch b;
        b.notes.reserve(values.size());
        try {
            for (std::size_t k = 0; k < values.size(); ++k)
                b.notes.push_back(SceneBuilder::build_shape(first + k, values[k], Path(list, first + k), out[k], groups));
        } catch (const Fail& f) {
            b.fail = f;
        }
        return b;
    };
    auto merge = [&builder](Batch b, std::size_t first) {
        for (std::size_t k = 0; k < b.notes.size(); ++k) builder.note_shape(first + k, b.notes[k]);
        if (b.fail) throw *b.fail;
    };
    doc.extend(text.at_least(doc.pos() + kAhead));
    JsonDoc docs[2] = {JsonDoc(doc.text()), JsonDoc(doc.text())};
    Helper<Batch> pending;  // builds the batch read into docs[1 - cur]
    std::size_t pending_first = 0;
    int cur = 0;
    std::size_t index = 0;
    const std::size_t begin = doc.pos();
    const bool empty = doc.consume(']');
    bool more = !empty;
    while (more) {
        JsonDoc& d = docs[cur];
        const std::size_t start = doc.pos();
        d.extend(text.at_least(start + kAhead));
        std::vector<JsonValue> values;
        values.reserve(kBatch);
        const std::size_t first = index;
        for (;;) {  // once; again on the whole text if the batch reached the end of what is in place
            d.reset();
            d.seek(start);
            values.clear();
            index = first;
            more = true;
            try {
                while (values.size() < kBatch) {
                    values.push_back(d.parse_value());
                    ++index;
                    if (!d.consume(',')) {
                        more = false;
                        break;
                    }
                }
                if (text.complete() || d.pos() < d.text().size()) break;
            } catch (const JsonSyntax& e) {
                if (text.complete() || settled(text.text(), e)) {
                    if (pending.valid()) merge(pending.get(), pending_first);
                    merge(build(values, first, builder.make_room(values.size())), first);
                    throw;
                }
            }
            d.extend(text.all());
        }
        doc.seek(d.pos());
        // The builder's storage may move from here on: only once no batch is being built.
        if (pending.valid()) merge(pending.get(), pending_first);  // also frees docs[1 - cur] for the next batch
        if (first == 0 && more) builder.expect_shapes(estimate_count(index, begin, doc.pos(), text.size()));
        SceneShape* out = builder.make_room(values.size());
        pending.start([&build, batch = std::move(values), first, out] { return build(batch, first, out); });
        pending_first = first;
        cur = 1 - cur;
    }
    if (pending.valid()) merge(pending.get(), pending_first);
    doc.extend(text.all());
    if (!empty) doc.expect(']');
}

// Reads the top-level object; the elements of its big arrays go to the builder one at a time.
// When the text is still being read in, `doc` starts on the part in place: a problem met
// before all of it is (perhaps a truncated token) is the caller's to retry on all of it.
void read_document(JsonDoc& doc, SceneBuilder& builder, unsigned threads, Visible& text) {
    const char first = doc.peek();
    if (first == '[') {
        doc.reset();
        doc.parse_value();  // a syntax error inside comes first
        throw Fail{"", "a scene is a JSON object, not an array"};
    }
    if (first != '{') {
        doc.parse_value();
        throw Fail{"", "a scene is a JSON object, not a single value"};
    }
    doc.expect('{');
    std::vector<std::string> seen;
    if (!doc.consume('}')) {
        do {
            const std::string key(doc.parse_key());
            doc.expect(':');
            const std::string path = "/" + pointer_token(key);
            if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
                doc.peek();
                throw Fail{path, "duplicate key '" + key + "'", doc.pos()};
            }
            seen.push_back(key);
            if (key == "shapes" && threads > 1 && doc.peek() == '[' && text.size() > (std::size_t{1} << 20)) {
                doc.expect('[');
                read_shapes_in_batches(doc, builder, text);
            } else if (SceneBuilder::streamed_key(key) && doc.peek() == '[') {
                doc.expect('[');
                builder.begin_array(key);
                std::size_t i = 0;
                const std::size_t begin = doc.pos();
                if (!doc.consume(']')) {
                    do {
                        doc.reset();
                        const JsonValue v = doc.parse_value();
                        builder.element(key, i, v);
                        ++i;
                        if (i == kEstimateAfter && key == "shapes")
                            builder.expect_shapes(estimate_count(i, begin, doc.pos(), doc.text().size()));
                    } while (doc.consume(','));
                    doc.expect(']');
                }
            } else {
                doc.reset();
                builder.top_level(key, doc.parse_value());
            }
        } while (doc.consume(','));
        doc.expect('}');
    }
    doc.extend(text.all());
    if (!doc.at_end()) throw JsonSyntax{doc.pos(), "unexpected content after the scene's closing '}'", false};
}

}  // namespace
}  // namespace detail

Scene read_scene(std::string_view text, const std::string& file, const ReadOptions& options) {
    using namespace detail;
    Visible visible(text, options.wait_for ? &options.wait_for : nullptr, file);
    visible.at_least(options.threads > 1 ? kAhead : visible.size());
    // Read on what is in place; a problem met before all of the text is, read again on all.
    for (;;) {
        SceneBuilder builder(file);
        if (options.sources) builder.record_offsets();
        JsonDoc doc(visible.text());
        try {
            try {
                read_document(doc, builder, options.threads, visible);
            } catch (const JsonSyntax& s) {
                if (!visible.complete()) {
                    // A byte that makes the text invalid before the end of the part in place
                    // (a NUL, a stray character) ends the read: the rest cannot make it valid.
                    // Where it may be a token cut short, the whole text is read first.
                    if (settled(visible.text(), s)) throw syntax_error(visible.text(), file, s);
                    visible.all();
                    continue;
                }
                throw syntax_error(visible.text(), file, s);
            }
            Scene scene = builder.finish();
            locate_elements(scene, builder.offsets(), visible.text(), options.sources);
            return scene;
        } catch (const Fail& f) {
            if (!visible.complete()) {
                visible.all();
                continue;
            }
            const std::string_view all = visible.text();
            const std::size_t offset = f.offset != static_cast<std::size_t>(-1) ? f.offset : find_pointer(all, f.path);
            const TextPos pos = offset == std::string_view::npos ? TextPos{} : position_of(all, offset);
            throw Error(file, f.path, f.message, pos.line, pos.column);
        }
    }
}

}  // namespace collide
