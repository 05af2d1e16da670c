#include "check/collision_feed.hpp"

#include "support/assert.hpp"

#include <algorithm>
#include <atomic>
#include <vector>

namespace collide::detail {

bool CollisionFeed::take(BlockOut& out) {
    if (!(options_.max_collisions && emitted_ == options_.max_collisions)) take_near(out);
    // The sink (a report writer) reads both shapes' ids; b is anywhere in the scene, a cache
    // miss that took 7% of a million-shape check: fetch some records ahead.
    const std::vector<BlockOut::Record>& recs = out.records;
    const std::size_t emitted_before = emitted_;
    auto publish = [&] {
        if (options_.progress)
            options_.progress->collisions.fetch_add(emitted_ - emitted_before, std::memory_order_relaxed);
    };
    for (std::size_t k = 0; k < std::min(kPrefetch, recs.size()); ++k) prefetch_shape(scene_, recs[k].b);
    for (std::size_t k = 0; k < recs.size(); ++k) {
        const BlockOut::Record& r = recs[k];
        if (k + kPrefetch < recs.size()) prefetch_shape(scene_, recs[k + kPrefetch].b);
        if (options_.max_collisions && emitted_ == options_.max_collisions) {
            res_.truncated = true;
            publish();
            return false;
        }
        ++emitted_;
#ifdef COLLIDE_CHECKED
        // Report order: by a, then b, each pair once (check.hpp).
        COLLIDE_ASSERT(emitted_ == 1 || r.a > last_.first || (r.a == last_.first && r.b > last_.second));
        last_ = {r.a, r.b};
#endif
        give(out, r);
    }
    publish();
    out.clear();
    return true;
}

void CollisionFeed::take_near(const BlockOut& out) {
    near_count_ += out.near.size();
    if (sinks_.near)
        for (const NearPair& n : out.near) sinks_.near(n);
    else
        res_.near.insert(res_.near.end(), out.near.begin(), out.near.end());
}

// A sink that only reads the collision leaves its vectors' storage for the next.
void CollisionFeed::give(const BlockOut& out, const BlockOut::Record& r) {
    given_.a = r.a;
    given_.b = r.b;
    given_.relation = r.relation;
    given_.outside = r.outside;
    if (r.b < scene_.shapes.size()) {
        given_.points.assign(out.points.begin() + r.first, out.points.begin() + r.first + r.count);
        given_.cells.clear();
    } else {
        given_.points.clear();
        given_.cells.assign(out.cells.begin() + r.first, out.cells.begin() + r.first + r.count);
    }
    const auto part_ids = out.parts.begin() + r.parts_first;
    given_.parts_a.assign(part_ids, part_ids + r.parts_a);
    given_.parts_b.assign(part_ids + r.parts_a, part_ids + r.parts_a + r.parts_b);
    given_.separation.reset();
    if (r.separation != BlockOut::kNone) given_.separation = out.separations[r.separation];
    sinks_.collision(std::move(given_));
}

}  // namespace collide::detail
