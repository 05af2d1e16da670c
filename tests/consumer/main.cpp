// Two unit circles whose centres are exactly 2 apart touch at (1, 0).
#include <collide/collide.hpp>

#include <cstdio>

int main() {
    const collide::Shape a = collide::Circle{{0, 0}, 1};
    const collide::Shape b = collide::Circle{{2, 0}, 1};
    const auto hit = collide::collide(a, b);
    if (!hit || hit->relation != collide::Relation::Touch || hit->points.size() != 1) return 1;
    std::printf("%s at (%g, %g)\n", std::string(collide::relation_name(hit->relation)).c_str(), hit->points[0].x,
                hit->points[0].y);
    return 0;
}
