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

// The state the workers and the consumer of run_in_order share, behind one mutex: which
// block starts next, each block's chunks handed over and not yet consumed, the consumed
// chunks kept for reuse, and whether the run is stopping (and why).
template <class Chunk>
class OrderedRun {
public:
    OrderedRun(std::size_t blocks, unsigned threads) : slots_(blocks), window_(4 * std::size_t{threads}) {}
    OrderedRun(const OrderedRun&) = delete;
    OrderedRun& operator=(const OrderedRun&) = delete;
    // A consumer that throws (a full disk, out of memory) must not leave the workers running:
    // std::thread's destructor would end the program.
    ~OrderedRun() { stop_and_join(); }

    /// Starts the workers, each with a Worker context of its own, producing blocks until there
    /// are none left or the run stops.
    template <class Worker, class Produce>
    void start(unsigned threads, Produce& produce) {
        for (unsigned t = 0; t < threads; ++t) pool_.emplace_back([this, &produce] { work<Worker>(produce); });
    }

    /// Hands block k's chunks to `consume` as they come, until the block is finished. Returns
    /// false when the run is to stop: the consumer said so, or a worker failed.
    template <class Consume>
    bool consume_block(std::size_t k, Consume& consume) {
        bool more = true;
        Chunk out;
        while (next_chunk(k, out, more)) {
            const bool go_on = consume(out);
            recycle(out);  // also when the consumer stopped midway
            if (!go_on) {
                more = false;
                break;
            }
        }
        std::lock_guard<std::mutex> lock(m_);
        consumed_ = k + 1;
        if (!more) stop_ = true;
        cv_.notify_all();
        return more;
    }

    void stop_and_join() {
        {
            std::lock_guard<std::mutex> lock(m_);
            stop_ = true;
            cv_.notify_all();
        }
        for (std::thread& t : pool_)
            if (t.joinable()) t.join();
    }

    /// Rethrows what a worker threw, if one did.
    void rethrow() const {
        if (error_) std::rethrow_exception(error_);
    }

private:
    static constexpr std::size_t kPending = 2;  // a block's chunks waiting, at most
    struct Slot {
        std::deque<Chunk> chunks;  // handed over, not yet consumed
        bool finished = false;
    };

    template <class Worker, class Produce>
    void work(Produce& produce) {
        Worker context;
        std::size_t k = 0;
        Chunk out;
        while (take(k, out)) {
            auto hand_over = [&](Chunk& full) { return hand_over_chunk(k, full); };
            try {
                if (!produce(k, context, out, hand_over)) return;
            } catch (...) {
                fail(std::current_exception());
                return;
            }
            finish(k, out);
        }
    }
    // Waits until a block may start (at most window_ in flight); false when none is left.
    bool take(std::size_t& k, Chunk& out) {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return stop_ || next_ >= slots_.size() || next_ < consumed_ + window_; });
        if (stop_ || next_ >= slots_.size()) return false;
        k = next_++;
        out = fresh();
        return true;
    }
    // Gives `full` to block k's queue, leaves it empty, and waits while kPending are queued.
    bool hand_over_chunk(std::size_t k, Chunk& full) {
        std::unique_lock<std::mutex> lock(m_);
        slots_[k].chunks.push_back(std::move(full));
        full = fresh();
        cv_.notify_all();
        cv_.wait(lock, [&] { return stop_ || slots_[k].chunks.size() < kPending; });
        return !stop_;
    }
    void finish(std::size_t k, Chunk& out) {
        std::lock_guard<std::mutex> lock(m_);
        slots_[k].chunks.push_back(std::move(out));
        slots_[k].finished = true;
        cv_.notify_all();
    }
    void fail(std::exception_ptr e) {
        std::lock_guard<std::mutex> lock(m_);
        if (!error_) error_ = e;
        stop_ = true;
        cv_.notify_all();
    }
    // Waits for block k's next chunk into `out`; false when there is none: then `more` says
    // whether the block finished (else the run stopped on an error).
    bool next_chunk(std::size_t k, Chunk& out, bool& more) {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return stop_ || !slots_[k].chunks.empty() || slots_[k].finished; });
        if (slots_[k].chunks.empty()) {
            more = slots_[k].finished;
            return false;
        }
        out = std::move(slots_[k].chunks.front());
        slots_[k].chunks.pop_front();
        cv_.notify_all();
        return true;
    }
    void recycle(Chunk& out) {
        std::lock_guard<std::mutex> lock(m_);
        out.clear();
        spare_.push_back(std::move(out));
    }
    Chunk fresh() {  // with m_ held
        if (spare_.empty()) return Chunk{};
        Chunk out = std::move(spare_.back());
        spare_.pop_back();
        return out;
    }

    std::mutex m_;
    std::condition_variable cv_;
    std::vector<Slot> slots_;
    std::vector<Chunk> spare_;  // consumed chunks, emptied, their storage kept for reuse
    const std::size_t window_;  // blocks in flight at most
    std::size_t next_ = 0;      // next block to start
    std::size_t consumed_ = 0;  // blocks consumed so far
    bool stop_ = false;
    std::exception_ptr error_;
    std::vector<std::thread> pool_;
};

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
/// A worker waits while 2 of its block's chunks are not yet consumed, and at most
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
    OrderedRun<Chunk> run(blocks, threads);
    run.template start<Worker>(threads, produce);
    for (std::size_t k = 0; k < blocks && run.consume_block(k, consume); ++k) {
    }
    run.stop_and_join();
    run.rethrow();
}

}  // namespace collide::detail
