// Interval: a pair of doubles that holds an exact value, for comparing exact quantities
// (sweep and entry times) cheaply before any exact arithmetic: each bound is moved outwards by
// more than the rounding error of the operation that gave it, and an interval that cannot be
// bounded (an overflow, a NaN, a divisor that may be 0) claims nothing. Used by the sweeps
// against shapes (queries/sweep_time.cpp) and on grids (grids/grid_sweep.cpp).
#pragma once

#include "numeric/exact.hpp"

#include <algorithm>
#include <cmath>

namespace collide::detail {

struct Interval {
    double lo = -HUGE_VAL;
    double hi = HUGE_VAL;
};

/// [a, b] moved outwards by more than the rounding error of the operation that gave each
/// (2^-53 relative while normal, 2^-1075 absolute when subnormal).
inline Interval widen(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return {};
    return {a - std::fabs(a) * 0x1p-50 - 0x1p-1070, b + std::fabs(b) * 0x1p-50 + 0x1p-1070};
}

/// The interval a filtered value and its error bound give.
inline Interval enclose(const Filtered& f) {
    if (!std::isfinite(f.v) || !std::isfinite(f.e)) return {};
    return widen(f.v - f.e, f.v + f.e);
}

inline Interval times(Interval x, Interval y) {
    const double p[4] = {x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi};
    for (double v : p)
        if (std::isnan(v)) return {};
    return widen(*std::min_element(p, p + 4), *std::max_element(p, p + 4));
}

/// n / d; nothing claimed when d may be 0.
inline Interval divide(Interval n, Interval d) {
    if (!(d.lo > 0.0) && !(d.hi < 0.0)) return {};
    if (d.hi < 0.0) {
        n = {-n.hi, -n.lo};
        d = {-d.hi, -d.lo};
    }
    // n / d grows with n; for d > 0 it is least at n.lo over the end of d that makes it so.
    return widen(n.lo / (n.lo < 0.0 ? d.lo : d.hi), n.hi / (n.hi < 0.0 ? d.hi : d.lo));
}

}  // namespace collide::detail
