// support/: the small tools the layers above share (a lane of background work, a set of
// names).
#include "support/lane.hpp"
#include "support/string_set.hpp"

#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

using collide::detail::Lane;
using collide::detail::StringSet;

TEST_CASE("a lane runs its jobs one after another, in the order posted, and finish waits for them") {
    Lane lane;
    std::vector<int> done;  // written by the jobs only, read after finish
    for (int k = 0; k < 100; ++k)
        lane.post([&done, k] {
            if (k % 10 == 0) std::this_thread::yield();  // a slow job does not let the next pass it
            done.push_back(k);
        });
    lane.finish();
    REQUIRE(done.size() == 100);
    for (int k = 0; k < 100; ++k) CHECK(done[static_cast<std::size_t>(k)] == k);
    // Posted to again after finish, and finished by its destructor.
    {
        Lane again;
        again.post([&done] { done.push_back(100); });
    }
    lane.post([&done] { done.push_back(101); });
    lane.finish();
    CHECK(done.back() == 101);
    CHECK(done[100] == 100);
}

TEST_CASE("a string set tells a new string from one it holds, through its growth") {
    StringSet set;
    CHECK_FALSE(set.contains(""));
    CHECK(set.insert("coin#3"));
    CHECK_FALSE(set.insert("coin#3"));
    CHECK(set.contains("coin#3"));
    CHECK_FALSE(set.contains("coin#30"));
    CHECK(set.insert(""));  // the empty string is a string like any other
    CHECK_FALSE(set.insert(""));
    // Many names, some of them prefixes of others: every one found, none twice.
    for (int k = 0; k < 20000; ++k) CHECK(set.insert("wall@" + std::to_string(k)));
    for (int k = 0; k < 20000; ++k) CHECK_FALSE(set.insert("wall@" + std::to_string(k)));
    CHECK(set.contains("wall@19999"));
    CHECK_FALSE(set.contains("wall@20000"));
    CHECK(set.size() == 20002);
}
