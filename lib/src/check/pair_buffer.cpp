#include "check/pair_buffer.hpp"

#include "check/block_out.hpp"
#include "check/broadphase.hpp"
#include "support/big_alloc.hpp"
#include "support/in_parts.hpp"

#include <algorithm>
#include <utility>

namespace collide::detail {

namespace {

// Scenes of at least this many shapes collect their candidate pairs on two threads when
// options.threads allows (a million shapes: ~200 ms on one); below, a thread costs more than
// it saves.
constexpr std::size_t kTwoThreadPairs = 16384;

}  // namespace

PairBuffer::PairBuffer(const Scene& scene, const Selections& sel, const SceneCandidates& candidates,
                       const CheckOptions& options)
    : scene_(scene), sel_(sel), candidates_(candidates), options_(options) {
    collect();
}

// Each candidate pair once, oriented as it is tested: (a, b) of the first report spec that
// selects it, else (lower, higher) when only rules ask about it. Two threads may each collect
// a share (the buffer is sorted next, so the order they find pairs in does not matter); each
// gives up past options.pair_buffer pairs, and the buffer is used only if both finished with
// no more than that in all. (A shared counter would bounce between the cores at every pair.)
void PairBuffer::collect() {
    // With the reach's own index, candidates come shape by shape (partners()), never as all
    // pairs at once.
    use_buffer_ = options_.pair_buffer > 0 && !candidates_.split_reach();
    if (!use_buffer_) return;
    const std::size_t n = candidates_.shapes().size();
    reserve_huge(buffered_, std::min(options_.pair_buffer, n + n / 2));
    auto keep_into = [&](std::vector<std::uint64_t>& into) {
        return [&](std::uint32_t i, std::uint32_t j) {
            std::uint64_t key = 0;
            std::pair<std::size_t, std::size_t> ab;
            if (sel_.reported(i, j, ab)) key = std::uint64_t{ab.first} << 32 | ab.second;
            else if (sel_.any_rule(i, j)) key = std::uint64_t{i} << 32 | j;
            else return true;
            if (into.size() >= options_.pair_buffer) return false;
            into.push_back(key);
            return true;
        };
    };
    const unsigned parts = options_.threads > 1 && n >= kTwoThreadPairs ? 2 : 1;
    std::vector<std::uint64_t> second;
    if (parts == 2) reserve_huge(second, buffered_.capacity() / 2);  // not grown by copying
    bool ok[2] = {true, true};
    in_parts(parts, [&](unsigned part) {
        ok[part] = candidates_.for_each_pair(keep_into(part == 0 ? buffered_ : second), part, parts);
    });
    use_buffer_ = ok[0] && ok[1] && buffered_.size() + second.size() <= options_.pair_buffer;
    if (!use_buffer_) {
        buffered_.clear();
        buffered_.shrink_to_fit();
        return;
    }
    buffered_.insert(buffered_.end(), second.begin(), second.end());
    radix_sort(buffered_);
    // A compound indexed by its parts is found once per part that meets the partner.
    buffered_.erase(std::unique(buffered_.begin(), buffered_.end()), buffered_.end());
}

PairBuffer::Reader PairBuffer::reader(std::uint32_t first) const {
    if (!use_buffer_) return Reader(*this, buffered_.cbegin());
    return Reader(*this, std::lower_bound(buffered_.cbegin(), buffered_.cend(), std::uint64_t{first} << 32));
}

void PairBuffer::Reader::partners(std::uint32_t a, std::vector<std::uint32_t>& out, std::vector<std::uint32_t>& one) {
    if (!buffer_.use_buffer_) return buffer_.candidates_.partners(a, out, one);
    const std::vector<std::uint64_t>& buffered = buffer_.buffered_;
    out.clear();
    for (; next_ != buffered.cend() && (*next_ >> 32) == a; ++next_) {
        out.push_back(static_cast<std::uint32_t>(*next_));
        // Partners are anywhere in the scene: fetch the shape and selection flags of the
        // pair kPrefetch ahead (a cache miss otherwise, ~8% of a million-shape check).
        if (buffered.cend() - next_ > static_cast<std::ptrdiff_t>(kPrefetch)) {
            const auto ahead = static_cast<std::uint32_t>(next_[kPrefetch]);
            prefetch_shape(buffer_.scene_, ahead);
            buffer_.sel_.prefetch(ahead);
        }
    }
}

}  // namespace collide::detail
