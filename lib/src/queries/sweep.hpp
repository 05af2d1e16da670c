// Moves against shapes (SPEC §1.3, §2.5): the first time a swept body shares an interior
// point with an obstacle, exactly.
//
// Method. The body's interior meets a convex piece K of the obstacle's interior at centre p
// exactly when p lies in K (+) body, the Minkowski sum of two relatively open convex sets.
// Every such set used here is cut out by a few constraints on q = 2 (p - A) - o (A an
// anchor point of the piece, o an offset of the body's corners), each linear (strict, or an
// equality where the sum is flat), or the open disk |q| < 2R, or the open slab
// |e x q| < 2R |e|. Along the path p = from + t (to - from) each constraint holds on an
// interval of t whose ends are roots: a ratio of polynomials in the input doubles, or
// (a + b sqrt(q)) / d where a circle is involved. The entry time of a set is the greatest
// lower end over its constraints, clipped to [0, 1] (Cyrus and Beck, "Generalized two- and
// three-dimensional clipping", Computers & Graphics 3(1), 1978); a shape is the union of a
// few such sets (a capsule: a strip and two disks), and its time is the least entry.
// Times keep the doubles they were made from (SweepForm) and are compared with double
// bounds first, exactly (nested square roots, rounding.hpp) only when the bounds overlap.
#pragma once

#include "collide/types.hpp"
#include "queries/collide_into.hpp"

#include <cstdint>
#include <optional>
#include <utility>

namespace collide::detail {

/// The recipe of one exact time t = (a + b sqrt(q)) / d (d > 0) from input doubles; see
/// sweep.cpp (eval) for the formulas. Plain data: a time keeps no reference to its inputs.
struct SweepForm {
    enum class Kind : std::uint8_t { Const, Linear, Disk, Slab };
    Kind kind = Kind::Const;
    double c = 0.0;                            ///< Const: the value
    Vec2 from, to;                             ///< the path
    double ax = 0, ay = 0;                     ///< anchor A = (ax + akx awx, ay + aky awy)
    double akx = 0, awx = 0, aky = 0, awy = 0; ///< (grid corners: lattice index times tile)
    double bx = 0, by = 0;                     ///< e = B - A (e_diff) or e = (bx, by)
    bool e_diff = true;
    double w = 0, h = 0;                       ///< body width and height
    double r1 = 0, r2 = 0;                     ///< R = r1 + r2
    std::int8_t ox = 0, oy = 0;                ///< offset o = (ox w, oy h)
    std::int8_t rx = 0, ry = 0;                ///< W = w + rx R, H = h + ry R
    std::int8_t alpha = 0;                     ///< Linear: 0 q.x, 1 q.y, 2 e x q, 3 e . q
    std::int8_t sigma = 1;                     ///< Linear: sign of that term
    /// Linear: the constant cW W + cH H + cx ex + cy ey + cxH ex H + cyW ey W + cee |e|^2.
    std::int8_t cW = 0, cH = 0, cx = 0, cy = 0, cxH = 0, cyW = 0, cee = 0;
    std::int8_t root = -1;                     ///< Disk, Slab: the sign of the root's term
    std::int8_t dsign = 1;                     ///< Linear, Slab: makes d positive
};

/// The exact time a move's body first shares an interior point with an obstacle: a value
/// in [0, 1], with double bounds lo <= t <= hi (infinite where the doubles overflowed).
struct SweepTime {
    SweepForm form;
    double lo = 0.0;
    double hi = 0.0;

    /// A time known as a double (0 and 1: blocked at the start, or at the destination).
    static SweepTime constant(double c);
    /// A time of the form's kind; the bounds are computed here.
    static SweepTime of(const SweepForm& f);
};

/// Nothing when the body never does (over the whole path, or at `to` for check: destination).
/// The obstacle's prepared form (as SceneIndexes prepares it) is read when given: a big
/// polygon's edge index for the edges near the path alone (the same answer).
std::optional<SweepTime> first_contact(const Move& m, const Shape& obstacle, const Prepared& prep = {});

/// Against a grid's solid cells (and solid outside), SPEC §2.4: the time and the cell, as
/// run_move finds them (grid_moves.cpp).
std::optional<std::pair<SweepTime, Cell>> first_contact(const Move& m, const Grid& g);

/// Exact sign of a - b.
int compare(const SweepTime& a, const SweepTime& b);

/// The move blocked at t: allowed = false, t and stop = from + t (to - from) each the exact
/// value correctly rounded (SPEC §2.4: stop from the exact t). hit, cell and passed are left
/// for the caller.
MoveResult blocked_at(const Move& m, const SweepTime& t);

/// Bounds of everything the body covers along the path (at `to` only for check:
/// destination), rounded outward: for the broad phase.
Bounds swept_bounds(const Move& m);

}  // namespace collide::detail
