// Files in and out: whole-file reads (stdin as "-"), and outputs that appear whole or not
// at all.
#pragma once

#include <fstream>
#include <string>

/// The contents of a file, or of standard input for "-". Throws collide::Error.
std::string read_input(const std::string& path);

/// An output file written to a temporary beside it and renamed into place by commit();
/// destroyed without commit(), it leaves nothing behind. An existing target that is not a
/// regular file (a device, a FIFO) is written in place; a symbolic link's target is replaced.
class AtomicFile {
public:
    /// Throws collide::Error when the temporary cannot be created.
    explicit AtomicFile(std::string path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    std::ostream& stream() { return out_; }
    /// Flush, close and rename over the target. Throws collide::Error on failure.
    void commit();

private:
    std::string path_;
    std::string tmp_;
    std::ofstream out_;
    bool done_ = false;
    bool direct_ = false;  // not a regular file: written in place
};

/// Remove a pending temporary output (if any) when a signal ends the program.
void install_signal_cleanup();
