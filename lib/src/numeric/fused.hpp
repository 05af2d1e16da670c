// fused_multiply_add(a, b, c): a * b + c rounded once, as std::fma, without a library call
// on the processors that have the instruction. The exact arithmetic (TwoProduct in
// double_word.hpp, the exactness test of Filtered's products) calls it for every product.
#pragma once

#include <cmath>

namespace collide::detail {

/// a * b + c with one rounding (IEEE 754 fusedMultiplyAdd), the same value as std::fma.
///
/// A build for a processor with FMA (`-mfma`, `-march=x86-64-v3`) gets the instruction from
/// std::fma itself. A build for the x86-64 baseline, as Debian's packages are, would call
/// libm's fma for each product (a call through the PLT; 5-6% of the 1M-shape check); there
/// the instruction is used directly when the processor reports FMA (cpuid, read once by
/// libgcc at start-up), and libm's fma otherwise. Both give the same, correctly rounded,
/// value, so the answers do not depend on the machine.
[[gnu::always_inline]] inline double fused_multiply_add(double a, double b, double c) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__FMA__)
    if (__builtin_expect(__builtin_cpu_supports("fma"), 1)) {
        // VEX-encoded: it clears the upper lanes it writes, so no AVX-SSE transition cost.
        asm("vfmadd231sd %[b], %[a], %[c]" : [c] "+x"(c) : [a] "x"(a), [b] "x"(b));
        return c;
    }
#endif
    return std::fma(a, b, c);
}

}  // namespace collide::detail
