// The prepared forms of a scene's shapes (geometry/shape_geo.hpp): what the reduction of a
// big shape computes beyond views of it (a big polygon's or polyline's edge index, a
// compound's part index), built once per check on demand and shared by the check's workers
// and all its queries (check.cpp, moves_against.cpp).
#pragma once

#include "collide/scene.hpp"
#include "geometry/edge_index.hpp"
#include "queries/collide_into.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace collide::detail {

/// Compounds of this many parts or more get a PartIndex (their parts' bounds, built once); a
/// smaller one's few part bounds are cheaper to compute at each test than to look up.
constexpr std::size_t kPartIndexFrom = 16;

/// Whether a shape has something for SceneIndexes to build: a big polygon or polyline, or a
/// compound with many parts or a big part (inline, like may_be_big). A small polyline's pieces
/// are made per query (shape_geo.hpp says why).
inline bool may_need_index(const Shape& s) {
    if (const auto* c = std::get_if<Compound>(&s))
        return c->parts.size() >= kPartIndexFrom || std::any_of(c->parts.begin(), c->parts.end(), may_be_big);
    return may_be_big(s);
}

/// The prepared forms of a scene's shapes that need one, each built the first time a query
/// asks for it: a shape that collides with nothing costs nothing, and a scene of small
/// shapes is not even scanned. Worker threads testing pairs of the same shape at once wait
/// for one build (std::call_once); the scene must outlive this.
class SceneIndexes {
public:
    explicit SceneIndexes(const std::vector<SceneShape>& shapes);
    ~SceneIndexes();
    SceneIndexes(const SceneIndexes&) = delete;
    SceneIndexes& operator=(const SceneIndexes&) = delete;
    /// The edge index of shape i, or null when it needs none.
    const EdgeIndex* of(std::size_t i) const { return prepared(i).edges; }
    /// What every query reuses about shape i (collide_into.hpp).
    Prepared prepared(std::size_t i) const {
        // Small shapes, nearly all, are told apart without a call or a lock; the pair test
        // reads the shape anyway, so it is in cache.
        return i < shapes_.size() && may_need_index(shapes_[i].shape) ? built(i) : Prepared{};
    }

private:
    struct Slot;
    Prepared built(std::size_t i) const;
    const std::vector<SceneShape>& shapes_;
    mutable std::mutex mutex_;  // guards slots_ (not the builds)
    mutable std::unordered_map<std::size_t, std::unique_ptr<Slot>> slots_;
};

}  // namespace collide::detail
