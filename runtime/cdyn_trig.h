/* cdyn_trig.h — sin and cos of many angles at once, for the generated code.
 *
 * A generated function needs sin and cos of every revolute coordinate, all known at entry.
 * libm's sin/cos are calls: each clobbers every vector register, and one pair costs about
 * 13 ns. cdyn_sincos_n is one loop with no call and no branch, which gcc and clang
 * vectorise (7 angles: 18 ns against 118 ns for the calls, -O3 -march=native):
 *  - x = k pi/2 + r, k the nearest integer (the 1.5 2^52 shift rounds it), r by Cody and
 *    Waite with pi/2 in three parts whose first two have trailing zeros, so k times them is
 *    exact for |k| < 2^20;
 *  - Taylor polynomials of sin and cos on |r| <= pi/4, to the terms after which the rest is
 *    below half an ulp (double: r^15 and r^16; float: r^9 and r^10). In double they are
 *    summed in Estrin's order (pairs, then powers r^4 and r^8) rather than Horner's: the
 *    chain of dependent operations is 4 deep instead of 8. A few angles (a Jacobian's
 *    chain) sit on a function's critical path: quadruped12's foot Jacobian (3 angles)
 *    0.0637 -> 0.0563 us under clang, 0.0705 -> 0.0687 under gcc, the humanoid's 0.092 ->
 *    0.089 (clang). The operation count is the same, but a long batch, bound by throughput,
 *    gains nothing: talos' FK (44 angles) 0.59 -> 0.63 us under clang, 0.52 under gcc;
 *  - the quadrant k mod 4, from the low bits of the shifted value, swaps and negates. gcc
 *    (12) unrolls a short batch fully and branches on each of those selects (9 branches for
 *    a leg's 3 angles), so in double it gets them as bit operations on the values (the swap
 *    an xor under a mask, the signs an xor of the sign bit): quadruped12's foot Jacobian
 *    0.0584 -> 0.0574 us. clang makes the selects branch-free itself, and was 3-14% slower
 *    with the bit operations.
 * Measured against libm over 4e6 angles up to |x| = 2e5: at most 2.2e-16 off in double
 * (one ulp of 1), 8.6e-8 in float (under one ulp); tests/test_trig.c holds both bounds. |x| above 1e5 (1e4 in float), where
 * the reduction would lose digits, is handed to libm after the loop; a NaN or an infinity
 * gives NaN, as libm does. The loop notes such an angle in `far` (a bitwise | of
 * comparisons, which both compilers vectorise), so the libm loop is one branch, not one per
 * angle: clang unrolls a short batch and kept a branch and two calls per angle, spilling
 * around them (talos' leg Jacobian: 0.121 us, 0.109 with one branch). */
#ifndef CDYN_TRIG_H
#define CDYN_TRIG_H

#include <stdint.h>
#include <string.h>
#include "cdyn_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The reduction and the polynomials as expressions of any arithmetic type: a scalar in
 * cdyn_sincos_n, a lane vector in NAME_batch.c's sincos, so that both do the same operations
 * in the same order (equal bit for bit where neither contracts to fused multiply-adds).
 * CDYN__SC_SHIFTED(x) is x 2/pi plus the rounding shift, k = it less the shift the nearest
 * integer, CDYN__SC_R the remainder r = x - k pi/2; CDYN__SC_SIN and CDYN__SC_COS take r and
 * its powers r2 = r^2, r4 = r2^2, r8 = r4^2 (float: r2 alone). Angles beyond CDYN__SC_FAR go
 * to libm; the quadrant is the shifted value's low bits, CDYN__SC_BITS wide. */
#ifdef CDYN_FLOAT
#define CDYN__SC_SHIFT 12582912.0f /* 1.5 2^23 */
#define CDYN__SC_SHIFTED(x) ((x) * 0.636619772f + 12582912.0f)
#define CDYN__SC_R(x, k)                                                                           \
    ((((x) - (k) * 1.5703125f) - (k) * 4.837512969970703e-4f) - (k) * 7.549790126404332e-8f)
#define CDYN__SC_SIN(r, r2, r4, r8)                                                                \
    ((r) + (r) * (r2) *                                                                            \
               (-1.0f / 6 + (r2) * (1.0f / 120 + (r2) * (-1.0f / 5040 + (r2) * (1.0f / 362880)))))
#define CDYN__SC_COS(r2, r4, r8)                                                                   \
    (1 + (r2) * (-0.5f +                                                                           \
                 (r2) * (1.0f / 24 +                                                               \
                         (r2) * (-1.0f / 720 + (r2) * (1.0f / 40320 + (r2) * (-1.0f / 3628800))))))
#define CDYN__SC_FAR 1e4f
#define CDYN__SC_BITS 32
typedef uint32_t cdyn__sc_bits; /* the scalar's bits */
#else
#define CDYN__SC_SHIFT 6755399441055744.0 /* 1.5 2^52 */
#define CDYN__SC_SHIFTED(x) ((x) * 0.63661977236758134308 + 6755399441055744.0)
#define CDYN__SC_R(x, k)                                                                           \
    ((((x) - (k) * 1.5707963267341256) - (k) * 6.077100506303966e-11) - (k) * 2.0222662487959506e-21)
#define CDYN__SC_SIN(r, r2, r4, r8)                                                                \
    ((r) + (r) * (r2) *                                                                            \
               (((-1.0 / 6 + (r2) * (1.0 / 120)) + (r4) * (-1.0 / 5040 + (r2) * (1.0 / 362880))) + \
                (r8) * ((-1.0 / 39916800 + (r2) * (1.0 / 6227020800.0)) +                          \
                        (r4) * (-1.0 / 1307674368000.0))))
#define CDYN__SC_COS(r2, r4, r8)                                                                   \
    (1 + (r2) * (((-0.5 + (r2) * (1.0 / 24)) + (r4) * (-1.0 / 720 + (r2) * (1.0 / 40320))) +       \
                 (r8) * ((-1.0 / 3628800 + (r2) * (1.0 / 479001600.0)) +                           \
                         (r4) * (-1.0 / 87178291200.0 + (r2) * (1.0 / 20922789888000.0)))))
#define CDYN__SC_FAR 1e5
#define CDYN__SC_BITS 64
typedef uint64_t cdyn__sc_bits;
#endif

static inline void cdyn_sincos_n(const cdyn_real *x, cdyn_real *s, cdyn_real *c, int n)
{
    int i, far = 0;
    for (i = 0; i < n; ++i) {
        const cdyn_real shifted = CDYN__SC_SHIFTED(x[i]);
        const cdyn_real k = shifted - CDYN__SC_SHIFT;
        const cdyn_real r = CDYN__SC_R(x[i], k);
        const cdyn_real r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
        const cdyn_real sr = CDYN__SC_SIN(r, r2, r4, r8), cr = CDYN__SC_COS(r2, r4, r8);
        cdyn__sc_bits bits;
        (void)r8; /* float's polynomials read r2 alone */
        memcpy(&bits, &shifted, sizeof bits);
#if defined(__GNUC__) && !defined(__clang__) && !defined(CDYN_FLOAT)
        { /* the quadrant's swap and signs as bit operations: see the note at the top */
            cdyn__sc_bits sb, cb, swap;
            memcpy(&sb, &sr, sizeof sb);
            memcpy(&cb, &cr, sizeof cb);
            swap = (sb ^ cb) & (0 - (bits & 1));
            sb ^= swap ^ ((bits & 2) << (CDYN__SC_BITS - 2));
            cb ^= swap ^ (((bits + 1) & 2) << (CDYN__SC_BITS - 2));
            memcpy(s + i, &sb, sizeof sb);
            memcpy(c + i, &cb, sizeof cb);
        }
#else
        {
            const cdyn_real sw = (bits & 1) ? cr : sr, cw = (bits & 1) ? sr : cr;
            s[i] = (bits & 2) ? -sw : sw;
            c[i] = ((bits + 1) & 2) ? -cw : cw;
        }
#endif
        far |= (x[i] > CDYN__SC_FAR) | (x[i] < -CDYN__SC_FAR);
    }
    for (i = 0; far && i < n; ++i)
        if (x[i] > CDYN__SC_FAR || x[i] < -CDYN__SC_FAR) {
            s[i] = CDYN_SIN(x[i]);
            c[i] = CDYN_COS(x[i]);
        }
}

#ifdef __cplusplus
}
#endif

#endif
