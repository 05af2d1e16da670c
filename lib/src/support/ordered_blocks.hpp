// Work split into numbered blocks, done by several threads, its results consumed strictly in
// block order: the output of a check never depends on the thread count.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace collide::detail {

/// Runs blocks 0 .. blocks-1 on `threads` workers and hands what they produce to `consume` in
/// block order, on the calling thread.
///
/// produce(k, worker, chunk, hand_over) does block k into `chunk` (empty at the start) and may
/// call hand_over(chunk) whenever it holds enough (a block may produce without bound), which
/// gives the chunk away and leaves it empty; both return false when the run is stopping (then
/// produce returns false at once). consume(chunk) returns false to stop the whole run (the
/// chunk then need not be emptied). Chunk needs a default constructor, moves and clear().
/// `worker` is the context of the thread running the block (Box2D's task context): a Worker,
/// default-constructed once per worker thread (once in all with one thread) and handed to
/// each block that thread runs, so that what it keeps (reusable buffers) is never shared.
///
/// A worker waits while kPending of its block's chunks are not yet consumed, and at most
/// 4 x threads blocks are in flight, so memory stays bounded even when a block produces
/// n^2 results. An exception in produce stops the run and is rethrown here; one in consume
/// stops the workers and propagates.
template <class Chunk, class Worker, class Produce, class Consume>
void run_in_order(std::size_t blocks, unsigned threads, Produce&& produce, Consume&& consume) {
    if (threads <= 1 || blocks < 2) {
        Worker context;
        Chunk out;
        for (std::size_t k = 0; k < blocks; ++k)
            if (!produce(k, context, out, consume) || !consume(out)) break;
        return;
    }
    constexpr std::size_t kPending = 2;
    struct Slot {
        std::deque<Chunk> chunks;  // handed over, not yet consumed
        bool finished = false;
    };
    std::mutex m;
    std::condition_variable cv;
    std::vector<Slot> slots(blocks);
    std::vector<Chunk> spare;  // consumed chunks, emptied, their storage kept for reuse
    auto fresh = [&] {         // with m held
        if (spare.empty()) return Chunk{};
        Chunk out = std::move(spare.back());
        spare.pop_back();
        return out;
    };
    std::size_t next = 0;      // next block to start
    std::size_t consumed = 0;  // blocks consumed so far
    bool stop = false;
    std::exception_ptr error;
    const std::size_t window = 4 * std::size_t{threads};  // blocks in flight at most
    auto worker = [&] {
        Worker context;
        for (;;) {
            std::size_t k = 0;
            Chunk out;
            {
                std::unique_lock<std::mutex> lock(m);
                cv.wait(lock, [&] { return stop || next >= blocks || next < consumed + window; });
                if (stop || next >= blocks) return;
                k = next++;
                out = fresh();
            }
            auto hand_over = [&](Chunk& full) {
                std::unique_lock<std::mutex> lock(m);
                slots[k].chunks.push_back(std::move(full));
                full = fresh();
                cv.notify_all();
                cv.wait(lock, [&] { return stop || slots[k].chunks.size() < kPending; });
                return !stop;
            };
            try {
                if (!produce(k, context, out, hand_over)) return;
            } catch (...) {
                std::lock_guard<std::mutex> lock(m);
                if (!error) error = std::current_exception();
                stop = true;
                cv.notify_all();
                return;
            }
            std::lock_guard<std::mutex> lock(m);
            slots[k].chunks.push_back(std::move(out));
            slots[k].finished = true;
            cv.notify_all();
        }
    };
    std::vector<std::thread> pool;
    // A consumer that throws (a full disk, out of memory) must not leave the workers running:
    // std::thread's destructor would end the program.
    auto stop_and_join = [&] {
        {
            std::lock_guard<std::mutex> lock(m);
            stop = true;
            cv.notify_all();
        }
        for (std::thread& t : pool)
            if (t.joinable()) t.join();
    };
    struct JoinOnExit {
        decltype(stop_and_join)& f;
        ~JoinOnExit() { f(); }
    } join_on_exit{stop_and_join};
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
    bool more = true;
    for (std::size_t k = 0; k < blocks && more; ++k) {
        for (;;) {
            Chunk out;
            {
                std::unique_lock<std::mutex> lock(m);
                cv.wait(lock, [&] { return stop || !slots[k].chunks.empty() || slots[k].finished; });
                if (slots[k].chunks.empty()) {
                    more = slots[k].finished;  // else stopped by an error
                    break;
                }
                out = std::move(slots[k].chunks.front());
                slots[k].chunks.pop_front();
                cv.notify_all();
            }
            const bool go_on = consume(out);
            {
                std::lock_guard<std::mutex> lock(m);
                out.clear();  // also when the consumer stopped midway
                spare.push_back(std::move(out));
            }
            if (!go_on) {
                more = false;
                break;
            }
        }
        std::lock_guard<std::mutex> lock(m);
        consumed = k + 1;
        if (!more) stop = true;
        cv.notify_all();
    }
    stop_and_join();
    if (error) std::rethrow_exception(error);
}

}  // namespace collide::detail
