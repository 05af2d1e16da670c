// What the tests of moves share: bodies, and doubles as their shortest round-trip text (so
// that comparing texts compares the doubles exactly).
#pragma once

#include "collide/scene.hpp"

#include <charconv>
#include <string>

namespace move_bodies {

inline std::string num(double v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

inline collide::Body circle_body(double r) {
    collide::Body b;
    b.kind = collide::Body::Kind::Circle;
    b.radius = r;
    return b;
}

inline collide::Body rect_body(double w, double h) {
    collide::Body b;
    b.kind = collide::Body::Kind::Rect;
    b.size = collide::Vec2{w, h};
    return b;
}

}  // namespace move_bodies
