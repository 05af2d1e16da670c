// Prints the sizes that grid_bench.sh uses to estimate the in-memory size of a scene's
// shapes and moves. Built on the fly by grid_bench.sh against lib/include (header-only use;
// nothing is linked).
#include <collide/scene.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main() {
    std::printf("scene_shape=%zu move=%zu vec2=%zu string=%zu vector=%zu\n", sizeof(collide::SceneShape),
                sizeof(collide::Move), sizeof(collide::Vec2), sizeof(std::string),
                sizeof(std::vector<collide::Vec2>));
    return 0;
}
