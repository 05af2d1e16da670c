// Spool: text written now and read back once, later, whatever its size. Held in memory up to
// a few MB, then in an unnamed temporary file (unlinked as soon as it is made), so that a
// report section that comes after the collisions (the near pairs) need not be kept in memory.
#pragma once

#include <cstdio>
#include <memory>
#include <ostream>
#include <string>

namespace collide::detail {

class Spool {
public:
    /// Where to append; call spill_if_big() now and then.
    std::string& text() { return mem_; }
    /// Move what is held to the temporary file once it is big. Throws Error when the file
    /// cannot be made or written (a full disk).
    void spill_if_big();
    /// Write everything spooled to `out` and start again empty. Throws Error on a read error,
    /// else what the stream throws.
    void copy_to(std::ostream& out);

private:
    void spill();
    std::string mem_;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_{nullptr, std::fclose};
    std::string dir_;  // of the temporary file, for its errors
};

}  // namespace collide::detail
