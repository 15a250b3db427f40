/* cdyn_config.h — the scalar type shared by the runtime and generated code.
 * cdyn_scalar.h decides it: in a folder written by cdyngen, the scalar it was generated for;
 * in runtime/ itself, float when the build defines CDYN_FLOAT, double otherwise.
 * CDYN_SCALAR_FLOAT (1 or 0) lets a generated header refuse a runtime of the other type. */
#ifndef CDYN_CONFIG_H
#define CDYN_CONFIG_H

#include <math.h>
#include "cdyn_scalar.h"

#ifdef CDYN_FLOAT
#define CDYN_SCALAR_FLOAT 1
typedef float cdyn_real;
#define CDYN_R(x) ((float)(x))
#define CDYN_EPS CDYN_R(1.2e-7) /* one rounding of the scalar, a little above FLT_EPSILON */
#define CDYN_SQRT(x) sqrtf(x)
#define CDYN_SIN(x) sinf(x)
#define CDYN_COS(x) cosf(x)
#else
#define CDYN_SCALAR_FLOAT 0
typedef double cdyn_real;
#define CDYN_R(x) (x)
#define CDYN_EPS CDYN_R(2.3e-16) /* one rounding of the scalar, a little above DBL_EPSILON */
#define CDYN_SQRT(x) sqrt(x)
#define CDYN_SIN(x) sin(x)
#define CDYN_COS(x) cos(x)
#endif

/* Between the bodies of a large generated function: memory reads and writes stay on their
 * side of it (an empty asm with a memory clobber; no instruction). Without it gcc and clang
 * hoist far bodies' reads of q, v and sin/cos and mix subtrees, and spill more. Other
 * compilers get nothing. */
#if defined(__GNUC__)
#define CDYN_BARRIER() __asm__ __volatile__("" ::: "memory")
#else
#define CDYN_BARRIER() ((void)0)
#endif

/* On the parts of a generated function too big to compile as one (expr_emit_parts): a
 * compiler that inlined them back would face the whole again. */
#if defined(__GNUC__)
#define CDYN_NOINLINE __attribute__((noinline))
#else
#define CDYN_NOINLINE
#endif

/* Which axes a frame Jacobian is expressed in. */
typedef enum {
    CDYN_LOCAL = 0,              /* frame axes, frame origin */
    CDYN_LOCAL_WORLD_ALIGNED = 1 /* world axes, frame origin */
} cdyn_reference;

#endif
