// A second lane of work: jobs run one after another, in the order posted, on one thread of
// their own, while the poster goes on (a map's tile layers decode while its objects are read).
// On a machine of one hardware thread, or when the thread cannot be started, a job runs at
// once, inside post. Jobs must not throw: each keeps its own outcome (an error included) where
// its poster will read it after finish(). The destructor finishes too, so a lane declared
// after the data its jobs read is done with them before that data goes.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

namespace collide::detail {

class Lane {
public:
    Lane() = default;
    Lane(const Lane&) = delete;
    Lane& operator=(const Lane&) = delete;
    ~Lane() { finish(); }

    void post(std::function<void()> job) {
        if (!started_ && !start()) {
            job();
            return;
        }
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            jobs_.push_back(std::move(job));
            ++posted_;
        }
        wake_.notify_one();
    }

    /// Waits until every job posted has run, and keeps the thread for more.
    void wait() {
        if (!started_) return;
        std::unique_lock<std::mutex> lock(mutex_);
        idle_.wait(lock, [this] { return done_ == posted_; });
    }

    /// Waits until every job posted has run. The lane may be posted to again afterwards.
    void finish() {
        if (!started_) return;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            closing_ = true;
        }
        wake_.notify_one();
        thread_.join();
        started_ = closing_ = false;
    }

private:
    bool start() {
        if (std::thread::hardware_concurrency() < 2) return false;
        try {
            thread_ = std::thread([this] { run(); });
        } catch (const std::system_error&) {
            return false;  // no thread to be had: the jobs run on the caller's
        }
        started_ = true;
        return true;
    }

    void run() {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [this] { return closing_ || !jobs_.empty(); });
                if (jobs_.empty()) return;  // closing, and nothing left
                job = std::move(jobs_.front());
                jobs_.pop_front();
            }
            job();
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                ++done_;
            }
            idle_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_, idle_;
    std::deque<std::function<void()>> jobs_;
    bool closing_ = false;  // guarded by mutex_, as the two counts
    std::size_t posted_ = 0, done_ = 0;
    bool started_ = false;  // the poster's own
    std::thread thread_;
};

}  // namespace collide::detail
