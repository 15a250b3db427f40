/* bench_loops.h — the timed loop, shared by the generated side (bench_adapter.c.in) and
 * the generic side (bench.c) so the two differ only in the call they make. */
#ifndef CDYN_BENCH_LOOPS_H
#define CDYN_BENCH_LOOPS_H

#include "bench.h"

/* Inputs of the state in use (s), inside BENCH_CALLS. */
#define BENCH_Q (in->q + s * in->nq)
#define BENCH_V (in->v + s * in->nv)
#define BENCH_A (in->a + s * in->nv)
#define BENCH_TAU (in->tau + s * in->nv)

/* Body of a bench_loop(d, in, out, n): CALL once per state s, cycling through the pool,
 * and one entry of out (of OUT_LEN, a different one each call) added to the checksum. */
#define BENCH_CALLS(CALL, OUT_LEN)                                                                 \
    cdyn_real sum = 0;                                                                             \
    long pick = 0, i;                                                                              \
    const long out_len = (OUT_LEN);                                                                \
    for (i = 0; i < n; ++i) {                                                                      \
        const int s = (int)(i & (BENCH_POOL - 1));                                                 \
        CALL;                                                                                      \
        sum += out[pick];                                                                          \
        if (++pick == out_len)                                                                     \
            pick = 0;                                                                              \
    }                                                                                              \
    return sum

/* How many outputs each algorithm's loop writes (the checksum cycles through them). */
#define BENCH_FK_OUT 12 /* frame placement: R (9), p (3) */
#define BENCH_JACOBIAN_OUT (6 * in->nv)
#define BENCH_VECTOR_OUT (in->nv)
#define BENCH_MATRIX_OUT ((long)in->nv * in->nv)
#define BENCH_LTL_OUT 1                   /* the status; the factor stays in d */
#define BENCH_SOLVE_OUT (in->nv + in->nc) /* ddq (or v_after), then lambda */
#define BENCH_DELASSUS_OUT ((long)in->nc * in->nc)
/* the contact step's problem stays in the workspace: its G (the first nc x nc entries; every
 * contact is active, so G has at least nc rows), or its lambda (nc: the set's rows) */
#define BENCH_CONTACT_G_OUT ((long)in->nc * in->nc)
#define BENCH_CONTACT_LAMBDA_OUT (in->nc)
#define BENCH_STEP_OUT (in->nq + in->nv) /* q_next, v_next */

#endif
