// The caller's end of a check: the blocks' records and near pairs, consumed in report order,
// are handed to the caller's sinks (or kept in the result) until max_collisions is reached.
#pragma once

#include "check/block_out.hpp"
#include "collide/check.hpp"

#include <cstddef>
#include <functional>
#include <utility>

namespace collide::detail {

/// Where a check hands what it finds; a null `near` keeps the near pairs in the result.
struct CheckSinks {
    const std::function<void(Collision&&)>& collision;
    const std::function<void(const NearPair&)>& near;
};

class CollisionFeed {
public:
    /// Near pairs without a sink, and whether the check was truncated, go into `res`.
    CollisionFeed(const Scene& scene, const CheckOptions& options, const CheckSinks& sinks, SceneResult& res)
        : scene_(scene), options_(options), sinks_(sinks), res_(res) {}

    /// Hands a block's near pairs and records to the sinks, and empties it. Returns false
    /// (leaving it as it is) when options.max_collisions is reached.
    bool take(BlockOut& out);

    std::size_t collisions() const { return emitted_; }  ///< handed to the sink
    std::size_t near_pairs() const { return near_count_; }

private:
    void take_near(const BlockOut& out);
    void give(const BlockOut& out, const BlockOut::Record& r);

    const Scene& scene_;
    const CheckOptions& options_;
    const CheckSinks sinks_;
    SceneResult& res_;
    std::size_t emitted_ = 0;  // collisions handed to the sink
#ifdef COLLIDE_CHECKED
    std::pair<std::size_t, std::size_t> last_{0, 0};  // the last of them, whose order is asserted
#endif
    std::size_t near_count_ = 0;  // near pairs reported
    Collision given_;             // what the sink is handed, refilled for each record
};

}  // namespace collide::detail
