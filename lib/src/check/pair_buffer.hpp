// The candidate pairs of a check in report order: collected from the broad phase all at once
// and sorted, when they fit in CheckOptions::pair_buffer; else asked of the broad phase shape
// by shape. Either way each shape's partners come out the same.
#pragma once

#include "check/scene_candidates.hpp"
#include "collide/check.hpp"
#include "scene/selection.hpp"

#include <cstdint>
#include <vector>

namespace collide::detail {

class PairBuffer {
public:
    /// Collects the pairs, when they fit (on two threads for big scenes, when options.threads
    /// allows).
    PairBuffer(const Scene& scene, const Selections& sel, const SceneCandidates& candidates, const CheckOptions& options);

    /// Reads the partners of the shapes of one block, one shape after another, ascending.
    class Reader {
    public:
        /// Shape a's partners (as SceneCandidates::partners, `one` its worker's buffer) into `out`.
        void partners(std::uint32_t a, std::vector<std::uint32_t>& out, std::vector<std::uint32_t>& one);

    private:
        friend class PairBuffer;
        Reader(const PairBuffer& buffer, std::vector<std::uint64_t>::const_iterator next)
            : buffer_(buffer), next_(next) {}
        const PairBuffer& buffer_;
        std::vector<std::uint64_t>::const_iterator next_;  // the first pair not read yet
    };
    /// A reader from shape `first` on (the first shape of the block).
    Reader reader(std::uint32_t first) const;

private:
    void collect();

    const Scene& scene_;
    const Selections& sel_;
    const SceneCandidates& candidates_;
    const CheckOptions& options_;
    // The oriented candidate pairs as (a << 32 | b), sorted, when they fit in
    // options.pair_buffer (then use_buffer_).
    std::vector<std::uint64_t> buffered_;
    bool use_buffer_ = false;
};

}  // namespace collide::detail
