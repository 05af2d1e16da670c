#include "check/scene_indexes.hpp"

namespace collide::detail {

struct SceneIndexes::Slot {
    std::once_flag once;
    OwnedKeep keep;
    std::unique_ptr<PartIndex> parts;
};

SceneIndexes::SceneIndexes(const std::vector<SceneShape>& shapes) : shapes_(shapes) {}

SceneIndexes::~SceneIndexes() = default;

Prepared SceneIndexes::built(std::size_t i) const {
    Slot* slot = nullptr;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        std::unique_ptr<Slot>& s = slots_[i];
        if (!s) s = std::make_unique<Slot>();
        slot = s.get();
    }
    std::call_once(slot->once, [&] {
        const Shape& s = shapes_[i].shape;
        if (const auto* c = std::get_if<Compound>(&s)) slot->parts = std::make_unique<PartIndex>(*c);
        else slot->keep = keep_of(s);
    });
    return Prepared{slot->keep.index.get(), slot->parts.get(), &slot->keep.pieces};
}

}  // namespace collide::detail
