// What the two files of capsule outline points share: capsule_points.cpp (sides and arcs
// against each other) and capsule_piece_points.cpp (a straight piece against the outline).
// The sign of a sum with a square root, decided exactly; a point from its exact coordinates,
// each correctly rounded; the signs of the cross and dot products of two pieces' directions;
// and the ends of a capsule's sides. Internal to those two files.
#pragma once

#include "geometry/capsule_points.hpp"
#include "geometry/pieces.hpp"
#include "numeric/rounding.hpp"

#include <limits>
#include <optional>

namespace collide::detail {

// Sign of U + V sqrt(Z) for polynomials U, V and Z > 0: squared when the signs differ.
template <class FU, class FV, class FZ>
int sign_plus_sqrt(FU&& u, FV&& v, FZ&& z) {
    const int su = sign_of(u);
    const int sv = sign_of(v);
    if (sv == 0 || su == sv) return su;
    if (su == 0) return sv;
    const int c = sign_of([&](auto zero) {
        const auto uu = u(zero);
        const auto vv = v(zero);
        return uu * uu - vv * vv * z(zero);
    });
    return su > 0 ? c : -c;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The point whose exact coordinates f gives (a PointQuotient), each correctly rounded
// (round_point); near() gives the point in doubles (however far off, even non-finite) for
// a search to start from, and is called only when the DoubleWord value does not settle a
// coordinate. A coordinate known exactly (an input value) is taken as is. NaN beyond the
// double range: Sink and push_finite drop it.
template <class F, class Near>
Vec2 rounded_point(const F& f, const Near& near, std::optional<double> known_x = std::nullopt,
                   std::optional<double> known_y = std::nullopt) {
    const std::optional<Vec2> x = round_point(f, [&] { return std::optional<Vec2>(near()); }, known_x, known_y);
    return x ? *x : Vec2{kNaN, kNaN};
}

/// Sign of cross(dir(s), dir(t)): 0 when the pieces are parallel.
int cross_dirs(const Piece& s, const Piece& t);
/// Sign of dot(dir(s), dir(t)).
int dot_dirs(const Piece& s, const Piece& t);
/// The end of side s (+1 left, -1 right) of capsule k at its core's end b (at_b) or a,
/// correctly rounded.
Vec2 side_end(const CapsuleRef& k, const Frame& f, bool at_b, int s);

}  // namespace collide::detail
