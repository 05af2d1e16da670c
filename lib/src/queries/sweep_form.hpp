// The formulas behind a SweepForm (sweep.hpp), over any number type T of exact.hpp.
#pragma once

#include "queries/sweep.hpp"

namespace collide::detail::sweep {

/// c v for a small integer c, without a rounded product where c is +-1 or +-2.
template <class T> T times(int c, const T& v) {
    switch (c) {
        case 1: return v;
        case -1: return -v;
        case 2: return v + v;
        case -2: return -(v + v);
        default: return T(static_cast<double>(c)) * v;
    }
}

/// The terms every constraint is built from: q(t) = q0 + t q1, e, R, W, H.
template <class T>
struct Terms {
    T q0x, q0y, q1x, q1y, ex, ey, R, W, H;

    explicit Terms(const SweepForm& f)
        : q0x(T(0.0)), q0y(T(0.0)), q1x(T(0.0)), q1y(T(0.0)), ex(T(0.0)), ey(T(0.0)), R(T(f.r1)), W(T(f.w)),
          H(T(f.h)) {
        T ax = T(f.ax);
        T ay = T(f.ay);
        if (f.akx != 0.0) ax = ax + T(f.akx) * T(f.awx);
        if (f.aky != 0.0) ay = ay + T(f.aky) * T(f.awy);
        const T rx0 = T(f.from.x) - ax;
        const T ry0 = T(f.from.y) - ay;
        q0x = rx0 + rx0;
        q0y = ry0 + ry0;
        if (f.ox != 0) q0x = q0x - times(f.ox, T(f.w));
        if (f.oy != 0) q0y = q0y - times(f.oy, T(f.h));
        const T dx = T(f.to.x) - T(f.from.x);
        const T dy = T(f.to.y) - T(f.from.y);
        q1x = dx + dx;
        q1y = dy + dy;
        ex = f.e_diff ? T(f.bx) - T(f.ax) : T(f.bx);
        ey = f.e_diff ? T(f.by) - T(f.ay) : T(f.by);
        if (f.r2 != 0.0) R = R + T(f.r2);
        if (f.rx != 0) W = W + times(f.rx, R);
        if (f.ry != 0) H = H + times(f.ry, R);
    }
};

/// A linear constraint's value along the path: lambda(t) = l0 + t l1.
template <class T>
struct LinearParts {
    T l0, l1;
};

template <class T>
LinearParts<T> linear(const SweepForm& f, const Terms<T>& s) {
    auto apply = [&](const T& x, const T& y) -> T {
        switch (f.alpha) {
            case 0: return x;
            case 1: return y;
            case 2: return s.ex * y - s.ey * x;
            default: return s.ex * x + s.ey * y;
        }
    };
    T k = T(0.0);
    if (f.cW) k = k + times(f.cW, s.W);
    if (f.cH) k = k + times(f.cH, s.H);
    if (f.cx) k = k + times(f.cx, s.ex);
    if (f.cy) k = k + times(f.cy, s.ey);
    if (f.cxH) k = k + times(f.cxH, s.ex * s.H);
    if (f.cyW) k = k + times(f.cyW, s.ey * s.W);
    if (f.cee) k = k + times(f.cee, s.ex * s.ex + s.ey * s.ey);
    const T l0 = times(f.sigma, apply(s.q0x, s.q0y)) + k;
    return {l0, times(f.sigma, apply(s.q1x, s.q1y))};
}

/// (a + b sqrt(q)) / d.
template <class T>
struct Parts {
    T a, b, q, d;
};

template <class T>
Parts<T> eval(const SweepForm& f) {
    if (f.kind == SweepForm::Kind::Const) return {T(f.c), T(0.0), T(0.0), T(1.0)};
    const Terms<T> s(f);
    switch (f.kind) {
        case SweepForm::Kind::Linear: {
            const LinearParts<T> l = linear(f, s);
            return {times(-f.dsign, l.l0), T(0.0), T(0.0), times(f.dsign, l.l1)};
        }
        case SweepForm::Kind::Disk: {
            // |q0 + t q1|^2 = (2R)^2: t = (-(q0.q1) +- sqrt((2R)^2 |q1|^2 - (q0 x q1)^2)) / |q1|^2.
            const T dot = s.q0x * s.q1x + s.q0y * s.q1y;
            const T cr = s.q0x * s.q1y - s.q0y * s.q1x;
            const T len2 = s.q1x * s.q1x + s.q1y * s.q1y;
            const T r2 = s.R + s.R;
            return {-dot, T(static_cast<double>(f.root)), r2 * r2 * len2 - cr * cr, len2};
        }
        default: {
            // e x (q0 + t q1) = +-2R |e|.
            const T c0 = s.ex * s.q0y - s.ey * s.q0x;
            const T c1 = s.ex * s.q1y - s.ey * s.q1x;
            return {times(-f.dsign, c0), times(f.root, s.R + s.R), s.ex * s.ex + s.ey * s.ey, times(f.dsign, c1)};
        }
    }
}

/// Disk: the squared distance minus the squared radius at the start, and the discriminant.
template <class T>
T disk_start(const SweepForm& f) {
    const Terms<T> s(f);
    const T r2 = s.R + s.R;
    return s.q0x * s.q0x + s.q0y * s.q0y - r2 * r2;
}

/// Slab: (e x q0)^2 - (2R)^2 |e|^2 at the start (a path parallel to the slab stays so).
template <class T>
T slab_start(const SweepForm& f) {
    const Terms<T> s(f);
    const T c0 = s.ex * s.q0y - s.ey * s.q0x;
    const T r2 = s.R + s.R;
    return c0 * c0 - r2 * r2 * (s.ex * s.ex + s.ey * s.ey);
}

/// Slab: e x q1, the rate at which the path crosses it.
template <class T>
T slab_rate(const SweepForm& f) {
    const Terms<T> s(f);
    return s.ex * s.q1y - s.ey * s.q1x;
}

}  // namespace collide::detail::sweep
