// Files in and out: whole-file reads (stdin as "-"), and outputs that appear whole or not
// at all.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <collide/scene.hpp>

#include "output.hpp"

/// A file's bytes (uninitialised storage filled by reads: no zero-filling of large files).
class InputText {
public:
    std::string_view view() const { return {data_.get(), size_}; }
    operator std::string_view() const { return view(); }  // NOLINT: read_scene takes the text
    /// Append n bytes from `bytes`, growing geometrically.
    void append(const char* bytes, std::size_t n);
    /// Make room for at least n bytes; returns where the next ones go (then commit(k)).
    char* reserve_tail(std::size_t n);
    void commit(std::size_t n) { size_ += n; }

private:
    struct Free {
        void operator()(char* p) const { std::free(p); }
    };
    std::unique_ptr<char, Free> data_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

/// The contents of a file, or of standard input for "-". Throws collide::Error.
InputText read_input(const std::string& path);

/// Read and parse one scene file (standard input for "-"), on up to two threads (threads
/// > 1). A big regular file is then read in the background while the first part of it is
/// being parsed. With `sources`, each element's line and column are recorded (--locations and
/// the CI formats need them). Throws collide::Error.
collide::Scene read_scene_file(const std::string& path, unsigned threads, bool sources = false);

/// The scenes of one input argument: a scene file, or a level-editor map (map_input.hpp) as
/// the scenes it imports to, whose warnings are appended to `warnings`. Throws collide::Error.
std::vector<collide::Scene> read_input_scenes(const std::string& arg, unsigned threads, std::vector<std::string>& warnings,
                                             bool sources = false);

/// What read_scenes has read so far, for a progress line to watch from another thread.
struct ReadProgress {
    std::atomic<std::size_t> files{0};     ///< input arguments read and parsed
    std::atomic<std::uint64_t> shapes{0};  ///< the shapes of their scenes
};

/// Read and parse the inputs (scene files and maps), on up to `threads` threads (one file
/// each at a time; standard input, if named, makes it one thread). Returns their scenes in
/// argument order, with the maps' warnings in `warnings` when given, or throws the error of
/// the first bad file in argument order. Counts each file into `progress` when given.
std::vector<collide::Scene> read_scenes(const std::vector<std::string>& files, unsigned threads,
                                        std::vector<std::string>* warnings = nullptr,
                                        ReadProgress* progress = nullptr, bool sources = false);

/// Keeps `scenes` until the program exits, where the system takes back their memory at once:
/// freeing 100,000s of shapes one by one takes longer than checking some of them (clang's
/// -disable-free does the same for its syntax trees). For scenes no longer needed once a
/// command has written its output.
void leave_to_exit(std::vector<collide::Scene>&& scenes);

/// An output file written to a temporary beside it and renamed into place by commit();
/// destroyed without commit(), it leaves nothing behind. An existing target that is not a
/// regular file (a device, a FIFO) is written in place; a symbolic link's target is replaced.
/// A failed write throws WriteError ("PATH: cannot write output: No space left on device").
class AtomicFile {
public:
    /// Throws collide::Error when the temporary cannot be created.
    explicit AtomicFile(std::string path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    std::ostream& stream() { return *out_; }
    /// Flush, close and rename over the target. Throws WriteError or collide::Error.
    void commit();

private:
    void open_stream(int fd);
    std::string path_;
    std::string tmp_;
    int fd_ = -1;
    std::unique_ptr<FdBuf> buf_;
    std::unique_ptr<std::ostream> out_;
    bool done_ = false;
    bool direct_ = false;  // not a regular file: written in place
};

/// Where a report or a picture goes (README, "Guarantees"): the file of -o, written whole or
/// not at all; or standard output, where a document that must not be left partial (`whole`:
/// JSON, text, SVG) is written straight into a regular file and cut back out on a failure,
/// and held until it is complete anywhere else (a pipe); other reports stream whole records.
class Destination {
public:
    /// `path` empty: standard output. Throws collide::Error when -o's temporary cannot be made.
    Destination(const std::string& path, bool whole);
    std::ostream& stream() { return *out_; }
    /// Pass on the records written so far, when they stream to standard output.
    void flush_records();
    /// The document is complete: rename the file into place, or write out what was held.
    /// Throws WriteError.
    void commit();
    /// After a failure: cut standard output back to where the document began.
    void abandon();

private:
    StdOut stdout_;
    std::unique_ptr<AtomicFile> file_;
    std::unique_ptr<HeldBuf> held_;
    std::unique_ptr<std::ostream> held_stream_;
    std::ostream* out_ = nullptr;
    long long rewind_at_ = -1;  // >= 0: a failure cuts standard output back to here
};

/// Remove a pending temporary output (if any) when a signal ends the program: every signal
/// whose default action ends it, except those the caller ignores (`nohup`, `trap '' INT`),
/// which stay ignored. The signal then ends the program as it would have.
void install_signal_cleanup();
