// Outputs whose every write is checked: a full disk, a closed or broken standard output is
// an error (exit 2), never a report silently cut short. SIGPIPE still ends the program
// quietly (main.cpp leaves it at its default action).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <streambuf>
#include <string>

/// A write, flush or close failed. what() is the whole diagnostic: "writing standard
/// output: No space left on device".
class WriteError : public std::runtime_error {
public:
    /// `doing` says what failed ("writing standard output"); `err` is its errno.
    WriteError(const std::string& doing, int err);
};

/// A stream buffer over a file descriptor: write(2) in 64 KiB pieces, retried on EINTR
/// and short counts. A failed write throws WriteError (a std::ostream over it with
/// exceptions(badbit) passes it on to its caller). Destroyed, it writes nothing more.
class FdBuf : public std::streambuf {
public:
    /// `doing` names the output in messages ("writing standard output").
    FdBuf(int fd, std::string doing);
    int fd() const { return fd_; }
    /// Write out what is buffered. Throws WriteError.
    void flush_out();

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    void write_all(const char* p, std::size_t n);
    int fd_;
    std::string doing_;
    std::unique_ptr<char[]> buf_;
};

/// A report held until it is complete, so that a failure part way leaves nothing on
/// standard output: in memory up to 8 MiB, beyond that in an unlinked temporary file in
/// $TMPDIR (or /tmp), which the system removes however the program ends.
class HeldBuf : public std::streambuf {
public:
    HeldBuf();
    ~HeldBuf() override;
    HeldBuf(const HeldBuf&) = delete;
    HeldBuf& operator=(const HeldBuf&) = delete;
    /// Copy everything held to `out` (not flushed). Throws WriteError.
    void copy_to(FdBuf& out);

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;

private:
    void spill();
    std::string mem_;
    std::string dir_;
    std::unique_ptr<FdBuf> file_;  // the temporary, once the report outgrew memory
};

/// Standard output for a subcommand: stream() throws WriteError on a failed write;
/// finish() flushes and closes it, and throws WriteError if either fails.
class StdOut {
public:
    StdOut();
    std::ostream& stream() { return out_; }
    FdBuf& buf() { return buf_; }
    void finish();

private:
    FdBuf buf_;
    std::ostream out_;
};

/// Writes what `write` puts on the stream to standard output (a StdOut, finished). A failed
/// write is logged (log_error) and gives false.
bool print_to_stdout(const std::function<void(std::ostream&)>& write);

/// Where standard output is a regular file that a failed report can be cut back out of, the
/// offset the report starts at (the end of the file when it is opened for appending);
/// otherwise -1: a pipe, a terminal, or the same file as standard error, whose diagnostics
/// must stay.
long long stdout_rewind_point();
/// Cut standard output back to `at` (from stdout_rewind_point), dropping a partial report.
void rewind_stdout(long long at);

/// Give standard input, output and error an open descriptor when the caller closed them
/// (`collide check s.json >&-`): otherwise the first file opened would take number 1 or
/// 2, and the report or diagnostics would be written into it. A closed standard output
/// becomes /dev/null opened for reading, so that writing to it fails (EBADF) as it would
/// have, and is reported.
void guard_standard_descriptors();
