// What a check's exact tests found in one block of shapes, handed from the workers to the
// consumer in report order (check.cpp): the unit the pair tests fill, the rule tally counts
// and the collision feed hands to the caller.
#pragma once

#include "collide/check.hpp"
#include "collide/scene.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace collide::detail {

// What testing the pairs of one block of `a` shapes found, in report order. A collision's
// points, cells and compound parts are kept in arrays shared by the whole chunk, so that
// testing a pair allocates nothing: the chunks are recycled, and the sink is handed one
// Collision whose vectors are refilled in place (a million colliding pairs were a million
// malloc/free pairs, freed on another thread than the one that allocated them).
struct BlockOut {
    struct Record {
        std::size_t a, b;
        std::uint32_t first;  // into points, or for a grid into cells
        std::uint32_t count;
        Relation relation;
        bool outside;
        std::uint32_t parts_first = 0;  // into parts: a's colliding parts, then b's
        std::uint32_t parts_a = 0;
        std::uint32_t parts_b = 0;
        std::uint32_t separation = kNone;  // into separations
    };
    static constexpr std::uint32_t kNone = 0xffffffffu;
    std::vector<Record> records;
    std::vector<Vec2> points;
    std::vector<Cell> cells;
    std::vector<std::uint32_t> parts;
    std::vector<Separation> separations;
    std::vector<NearPair> near;
    struct RuleHit {
        std::uint32_t rule;
        std::size_t a, b;  // the pair, sides as reported
        double distance;   // for a clearance rule: 0 when the pair collides
    };
    std::vector<RuleHit> hits;

    std::size_t size() const { return records.size() + hits.size() + near.size(); }
    void clear() {
        records.clear();
        points.clear();
        cells.clear();
        parts.clear();
        separations.clear();
        near.clear();
        hits.clear();
    }
};

// Records ahead of the one being handed to the sink whose second shape is prefetched.
constexpr std::size_t kPrefetch = 16;

inline void prefetch_shape(const Scene& scene, std::size_t i) {
#if defined(__GNUC__) || defined(__clang__)
    if (i < scene.shapes.size()) {
        __builtin_prefetch(&scene.shapes[i].id);
        __builtin_prefetch(&scene.shapes[i].shape);  // the record spans two cache lines
    }
#else
    (void)scene;
    (void)i;
#endif
}

}  // namespace collide::detail
