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
#define BENCH_PROJECT_POSITION_OUT (in->nq) /* q_out */
/* The derivatives' loops write their outputs in a row, then their status one entry further
 * (not in the checksum; bench_disagreement flags a row whose status is not 0). */
#define BENCH_RNEA_DERIVATIVES_OUT (2 * BENCH_MATRIX_OUT) /* dtau/dq, dtau/dv */
#define BENCH_ABA_DERIVATIVES_OUT (3 * BENCH_MATRIX_OUT)  /* dddq/dq, dddq/dv, dddq/dtau */
/* aba_fd: dddq/dq (nv x nv); its scratch after it: ddq at q (nv), at the stepped q (nv),
 * the tangent step (nv) and the stepped q (nq) */
#define BENCH_ABA_FD_OUT BENCH_MATRIX_OUT
/* prox_ltl_derivatives: ddq (nv) and lambda (nc) of the solve, then dddq/dq, dv, dtau
 * (nv x nv each) and dlambda/dq, dv, dtau (nc x nv each) */
#define BENCH_PROX_DERIVATIVES_OUT (BENCH_SOLVE_OUT + 3 * (long)in->nv * (in->nv + in->nc))

/* aba_fd's body, the same on both sides: ABA(q, v, tau) into ddq0, then per tangent
 * direction k ABA at integrate(q, h u_k) into ddq1 and column k of out = (ddq1 - ddq0) / h.
 * INTEGRATE(QK) and ABA(Q, DDQ) are the side's calls. */
#define BENCH_ABA_FD(INTEGRATE, ABA)                                                               \
    do {                                                                                           \
        const int nv_ = in->nv;                                                                    \
        cdyn_real *ddq0 = out + (long)nv_ * nv_, *ddq1 = ddq0 + nv_, *u = ddq1 + nv_;             \
        cdyn_real *qk = u + nv_;                                                                   \
        int j_, k_;                                                                                \
        (void)ABA(BENCH_Q, ddq0);                                                                  \
        for (j_ = 0; j_ < nv_; j_++)                                                               \
            u[j_] = CDYN_R(0);                                                                     \
        for (k_ = 0; k_ < nv_; k_++) {                                                             \
            u[k_] = BENCH_FD_STEP;                                                                 \
            INTEGRATE(qk);                                                                         \
            u[k_] = CDYN_R(0);                                                                     \
            (void)ABA(qk, ddq1);                                                                   \
            for (j_ = 0; j_ < nv_; j_++)                                                           \
                out[(long)j_ * nv_ + k_] = (ddq1[j_] - ddq0[j_]) / BENCH_FD_STEP;                  \
        }                                                                                          \
    } while (0)

#endif
