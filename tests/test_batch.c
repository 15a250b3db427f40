/* test_batch.c — the --batch forms (NAME_batch.h) against the single-state functions of the
 * same folder, lane by lane, for one robot: compiled per robot and per build (compiler,
 * scalar, W, -march, -ffp-contract, CDYN_BATCH_PLAIN) by tests/batch.cmake, which names the
 * robot with -DBATCH_ROBOT=name -DBATCH_UPPER=NAME -DBATCH_HEADER="name_batch.h".
 *
 * Each lane gets its own random state (a different one in every lane, so a form that mixes,
 * swaps or broadcasts lanes fails), and every output of every form is compared in every lane
 * with the single-state function run on that lane's state:
 *   fk (the placement of every frame, through NAME_batch_frame_placement), frame_jacobian
 *   (every frame, LOCAL and LOCAL_WORLD_ALIGNED), rnea, nle, gravity, crba (full M, and the
 *   NULL form: d->M on the tree pattern against the single-state d->M), rnea_derivatives
 *   (dtau_dq, dtau_dv), minv, aba, aba_derivatives (ddq_dq, ddq_dv, ddq_dtau; with ddq_dtau
 *   NULL the other two bit for bit those of the call with it) (their masks 0, the
 *   single-state statuses 0).
 * Tolerance: max_k |batch_k - single_k| <= TOL max_k |single_k| per output and lane, TOL =
 * 1e-12 in double and 1e-5 in float (the forms are the same operations in the same order; only
 * an fma contracted in one and not the other can move the last bits, by a few eps for
 * everything but minv, aba and aba_derivatives); those, whose roundings are amplified by
 * cond(M) (aba_derivatives solves with M), get
 * max(TOL, 16 eps cond1(M)) of their lane (measured: at most 1.9 eps cond1(M) under clang's
 * contraction; random robot 11's M^-1 reaches 9e-13). Built with -DBATCH_EXACT (both sides
 * compiled with -ffp-contract=off) every value must be the same bit pattern, -0 against +0
 * included.
 * Then, on the last states: NaN (and once +inf) in one entry of q, v or tau of lane L =
 * min(2, W - 1), entry by entry: the mask of aba (and of minv for q) has exactly bit L when
 * the single-state function refuses lane L's state and no bit when it accepts it (then lane L's
 * result is compared as above); the other lanes' results are the clean run's, bit for bit; at
 * least one entry of each of q, v, tau must make the single-state function refuse, so the
 * check is not vacuous. --singular Q: lane L's q set to Q, where the single-state function
 * must refuse (a singular M); the mask exactly bit L, the other lanes untouched.
 * rnea_derivatives: NaN (and once +inf) in each entry of q, v, a of lane L, the same way (each
 * of q, v, a must make the single-state function refuse once); aba_derivatives: NaN in q[NQ-1],
 * v[0], tau[0], +inf in tau[NV-1] and the --singular q, the same way; a NULL required output
 * of either: CDYN_E_ARG.
 * pack/unpack: bit patterns (NaNs with payloads, infinities, -0, subnormals) round-trip exactly,
 * x[i] lane l = states[l n + i], nothing written outside n entries.
 * The comparison itself is checked first: it must reject one entry off by one ulp (exact) or
 * by twice the tolerance.
 * A constraint set (--constrained; NAME_batch_prox_ltl exists): per batch, each lane captures
 * its references at its own configuration (its q moved by a small step: the Baumgarte terms
 * act) and gets its own warm-start lambda; batch_constraint_capture's references against the
 * single-state constraint_capture, then each constrained solver of the set (solvers[]:
 * prox_ltl, prox_ltls; for contacts only, NAME_HAS_CONSTRAINED_ABA, also constrained_aba and prox_pv),
 * its batch form's ddq, lambda and residuals against its single-state function:
 * (a) mu 1e-2, exactly 3 iterations, Kp and Kd, warm start: mask 0, d->iterations 3;
 * (b) the default settings: d->iterations the most any lane's single-state call takes, a mask
 * bit exactly where the lane's primal residual misses abs_tol, and each lane the single-state
 * result of exactly d->iterations iterations (plain form, and proxLTLs' vector form, which stops
 * each lane where its single form would: of its own count); (c) max_iter one fewer: the bits
 * exactly the lanes whose single-state call is CDYN_E_NOT_CONVERGED.
 * proxLTLs' vector form rounded otherwise than its single form (not BATCH_EXACT) is the
 * exception in (b) and (c) (see VEC_ROUNDED): the mask bits where the lane misses abs_tol,
 * d->iterations in 1..(the single-state counts' maximum + 2), each converged lane within CONV
 * of its single-state solve at the same settings; (c) at the batch's own count less one.
 * Bit for bit under -DBATCH_EXACT, else max(TOL, 16 eps (cond1(M) + cond1(G + mu I))) of the
 * lane (the residuals: that times max|lambda|), constrained_aba's and prox_ltls' with eps norm1(G) / mu
 * added (its 1/mu-scaled roundings: see eps_kkt). Then NaN in each tau entry of lane L (fixed
 * count): the mask bit L as the single-state status, the other lanes bit for bit; with the
 * default settings bit L only and the other lanes within abs_tol; bad settings (mu 0, -1,
 * NaN, max_iter 0, -3, NULL): CDYN_E_ARG, ddq, lambda and d unwritten.
 *
 * Options: --batches N (default 3: 3 W states), --angles (every q entry is a revolute angle:
 * the last lane's angles are moved by ~1.5e5 rad, past cdyn_sincos_n's 1e5 (float 1e4) switch
 * to libm, in the first batch), --singular a,b,... (NQ values), --expect-w N, --constrained (the
 * robot has a constraint set: its batch proxLTL must exist, and is checked), --contacts-only
 * (and the set is contacts only: its batch constrainedABA and proxPV must exist too; the list
 * says so, so that a robot cannot drop them unnoticed).
 * Exit 0 pass, 1 fail; prints the largest relative difference of each form. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include BATCH_HEADER
#include "support/rng.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define F(x) CAT(BATCH_ROBOT, CAT(_, x))        /* arm7_fk */
#define BF(x) CAT(BATCH_ROBOT, CAT(_batch_, x)) /* arm7_batch_fk */
#define C(x) CAT(BATCH_UPPER, CAT(_, x))        /* ARM7_NQ */

#define NQ C(NQ)
#define NV C(NV)
#define NFRAMES C(NFRAMES)
#define NNZ C(NNZ)
#define W C(BATCH_W)
#define FWD C(HAS_FORWARD_DYNAMICS)
/* A constraint set (--contact, --loop): the batch proxLTL exists (with the forward dynamics).
 * An undefined NAME_NCONSTRAINTS is 0 in #if. */
#if FWD && C(NCONSTRAINTS) + 0 > 0
#define CON 1
#define NC C(NC)
/* Contacts only (no loop): constrainedABA and proxPV too. */
#if C(HAS_CONSTRAINED_ABA) + 0
#define CONTACTS 1
#else
#define CONTACTS 0
#endif
#define NCON C(NCONSTRAINTS)
#else
#define CON 0
#endif
typedef F(lanes) lanes;
typedef F(data) sdata;
typedef BF(data) bdata;

#define STR2(x) #x
#define STR(x) STR2(x)
#define ROBOT STR(BATCH_ROBOT)

#ifdef CDYN_FLOAT
#define TOL 1e-5
#else
#define TOL 1e-12
#endif
#ifdef BATCH_EXACT
#define EXACT 1
#else
#define EXACT 0
#endif

/* Lane l of x, by its bytes: the same for the vector and the plain forms (W scalars in a row),
 * and no floating-point load that could quiet a NaN. */
static cdyn_real lane_get(const lanes *x, int l)
{
    cdyn_real r;
    memcpy(&r, (const char *)x + (size_t)l * sizeof(cdyn_real), sizeof r);
    return r;
}

static void lane_set(lanes *x, int l, cdyn_real v)
{
    memcpy((char *)x + (size_t)l * sizeof(cdyn_real), &v, sizeof v);
}

static void lanes_get(cdyn_real *out, const lanes *x, int n, int l)
{
    int i;
    for (i = 0; i < n; ++i)
        out[i] = lane_get(&x[i], l);
}

static void lanes_set(lanes *x, const cdyn_real *in, int n, int l)
{
    int i;
    for (i = 0; i < n; ++i)
        lane_set(&x[i], l, in[i]);
}

static int failures = 0;

/* Worst relative difference seen per form, for the summary. */
enum {
    K_PLACE, K_JAC, K_RNEA, K_NLE, K_GRAV, K_CRBA, K_CRBA_TREE, K_MINV, K_ABA, K_CAPTURE,
    K_RD_DQ, K_RD_DV, K_AD_DQ, K_AD_DV, K_AD_DTAU, K_PD_DDQ, K_PD_LAMBDA,
    K_PROX, /* three per constrained solver (ddq, lambda, residuals), in solvers[]'s order */
    K_COUNT = K_PROX + 3 * 4
};
static const char *const kind_name[K_COUNT] = { "placement", "jacobian", "rnea", "nle", "gravity",
                                                 "crba", "crba(NULL)", "minv", "aba", "capture",
                                                 "rnead dq", "rnead dv", "abad dq", "abad dv",
                                                 "abad dtau", "proxd ddq", "proxd lambda",
                                                 "ltl ddq", "ltl lambda", "ltl resid",
                                                 "ltls ddq", "ltls lambda", "ltls resid",
                                                 "caba ddq", "caba lambda", "caba resid",
                                                 "pv ddq", "pv lambda", "pv resid" };
static double worst[K_COUNT];
static long compared[K_COUNT], bit_equal[K_COUNT];

static void fail(const char *fmt, const char *what, int lane, int at, double x, double ref,
                 double err, double bound)
{
    if (failures < 20)
        printf("FAIL %s %s lane %d: " "%s" " [%d] batch %.17g single %.17g, |diff| %.3g > %.3g\n",
               ROBOT, what, lane, fmt, at, x, ref, err, bound);
    failures++;
}

/* 0 when x (the batch form's lane) matches ref (the single-state function's): the bound,
 * or bit for bit under EXACT. Records the worst relative difference under `kind`. */
static int compare(const cdyn_real *x, const cdyn_real *ref, int n, int kind, int exact,
                   double tol, const char *what, int lane, int quiet)
{
    double scale = 0, err = 0;
    int k, at = 0, bits = 1, nan_at = -1;
    for (k = 0; k < n; ++k) {
        double e = fabs((double)x[k] - (double)ref[k]);
        if (fabs((double)ref[k]) > scale)
            scale = fabs((double)ref[k]);
        if (e != e && nan_at < 0)
            nan_at = k; /* kept: a later finite difference must not hide it */
        if (e > err) {
            err = e;
            at = k;
        }
        if (memcmp(&x[k], &ref[k], sizeof x[k]) != 0)
            bits = 0;
    }
    if (nan_at >= 0) {
        err = NAN;
        at = nan_at;
    }
    if (!quiet) {
        double rel = scale > 0 ? err / scale : err;
        if (kind >= 0) {
            if (rel > worst[kind] || rel != rel)
                worst[kind] = rel;
            compared[kind]++;
            bit_equal[kind] += bits;
        }
    }
    if (exact ? bits : err <= tol * scale)
        return 0;
    if (!quiet) {
        if (exact && err <= tol * scale) {
            for (at = 0; at < n && memcmp(&x[at], &ref[at], sizeof x[at]) == 0; ++at)
                ;
            fail("not bit for bit (-ffp-contract=off)", what, lane, at, x[at], ref[at],
                 fabs((double)x[at] - (double)ref[at]), 0);
        } else
            fail("", what, lane, at, n ? x[at] : 0, n ? ref[at] : 0, err, tol * scale);
    }
    return 1;
}

/* The comparison must be able to fail: one entry off by one ulp (exact) or by twice the
 * tolerance, a NaN, and a sign of zero (exact). */
static void self_test(void)
{
    cdyn_real a[4] = { 1, -2.5, 0.125, 3 }, b[4];
    memcpy(b, a, sizeof a);
    if (compare(b, a, 4, -1, 1, TOL, "self", 0, 1) != 0 || compare(b, a, 4, -1, 0, TOL, "self", 0, 1) != 0) {
        printf("FAIL self-test: equal vectors rejected\n");
        failures++;
    }
#ifdef CDYN_FLOAT
    b[1] = nextafterf(a[1], 0);
#else
    b[1] = nextafter(a[1], 0);
#endif
    if (compare(b, a, 4, -1, 1, TOL, "self", 0, 1) == 0) {
        printf("FAIL self-test: one ulp accepted bit for bit\n");
        failures++;
    }
    b[1] = (cdyn_real)(a[1] + 2 * TOL * 3);
    if (compare(b, a, 4, -1, 0, TOL, "self", 0, 1) == 0) {
        printf("FAIL self-test: twice the tolerance accepted\n");
        failures++;
    }
    b[1] = (cdyn_real)NAN;
    if (compare(b, a, 4, -1, 0, TOL, "self", 0, 1) == 0) {
        printf("FAIL self-test: NaN accepted\n");
        failures++;
    }
    a[0] = 0;
    memcpy(b, a, sizeof a);
    b[0] = -a[0];
    if (compare(b, a, 4, -1, 1, TOL, "self", 0, 1) == 0) {
        printf("FAIL self-test: -0 accepted for +0 bit for bit\n");
        failures++;
    }
}

/* ---- states ---- */

static lanes Q[NQ], V[NV], A[NV], T[NV];
static cdyn_real q_of[W][NQ], v_of[W][NV], a_of[W][NV], tau_of[W][NV];
static unsigned rng_state = 0x2545f491u;

static void draw_states(int far_angles)
{
    double step[NV + 1], v[NV + 1], tau[NV + 1], a[NV + 1];
    cdyn_real q0[NQ], dq[NV + 1];
    int l, i;
    F(neutral)(q0);
    for (l = 0; l < W; ++l) {
        xorshift32_state(&rng_state, NV, step, v, tau, a);
        for (i = 0; i < NV; ++i) {
            dq[i] = (cdyn_real)step[i];
            v_of[l][i] = (cdyn_real)v[i];
            tau_of[l][i] = (cdyn_real)(5 * tau[i]);
            a_of[l][i] = (cdyn_real)a[i];
        }
        F(integrate)(q0, dq, 1, q_of[l]);
        if (far_angles && l == W - 1)
            for (i = 0; i < NQ; ++i)
                q_of[l][i] += (cdyn_real)(1.5e5 + 1e4 * i);
    }
    for (l = 0; l < W; ++l) {
        lanes_set(Q, q_of[l], NQ, l);
        lanes_set(V, v_of[l], NV, l);
        lanes_set(A, a_of[l], NV, l);
        lanes_set(T, tau_of[l], NV, l);
    }
}

/* ---- the forms ---- */

static sdata sd;
static bdata bd;
static lanes Bout[NV * NV > 6 * NV ? NV * NV : 6 * NV];
static cdyn_real sout[NV * NV > 6 * NV ? NV * NV : 6 * NV], bl[NV * NV > 6 * NV ? NV * NV : 6 * NV];
static int lanes_differ[K_COUNT];

/* Lane l of Bout (n entries) against sout; notes whether lanes 0 and 1 differ. */
static void check_lane_tol(int n, int kind, const char *what, int l, double tol)
{
    static cdyn_real lane0[NV * NV > 6 * NV ? NV * NV : 6 * NV];
    lanes_get(bl, Bout, n, l);
    compare(bl, sout, n, kind, EXACT, tol, what, l, 0);
    if (l == 0)
        memcpy(lane0, bl, (size_t)n * sizeof *bl);
    else if (l == 1 && memcmp(lane0, bl, (size_t)n * sizeof *bl) != 0)
        lanes_differ[kind] = 1;
}

static void check_lane(int n, int kind, const char *what, int l)
{
    check_lane_tol(n, kind, what, l, TOL);
}

static void check_placements(void)
{
    cdyn_real R[9], p[3], Rb[12], ref[12];
    static cdyn_real placed[W][NFRAMES][12];
    char what[64];
    int f, l;
    for (l = 0; l < W; ++l) {
        F(fk)(&sd, q_of[l]);
        for (f = 0; f < NFRAMES; ++f) {
            if (F(frame_placement)(&sd, f, R, p) != 0) {
                printf("FAIL %s single-state frame_placement(%d) refused\n", ROBOT, f);
                failures++;
            }
            memcpy(placed[l][f], R, sizeof R);
            memcpy(placed[l][f] + 9, p, sizeof p);
        }
    }
    BF(fk)(&bd, Q);
    for (f = 0; f < NFRAMES; ++f)
        for (l = 0; l < W; ++l) {
            snprintf(what, sizeof what, "frame_placement(%d)", f);
            if (BF(frame_placement)(&bd, f, l, R, p) != 0) {
                printf("FAIL %s batch_frame_placement(%d, lane %d) refused\n", ROBOT, f, l);
                failures++;
                continue;
            }
            memcpy(Rb, R, sizeof R);
            memcpy(Rb + 9, p, sizeof p);
            memcpy(ref, placed[l][f], sizeof ref);
            compare(Rb, ref, 12, K_PLACE, EXACT, TOL, what, l, 0);
            if (l == 1 && memcmp(Rb, placed[0][f], sizeof Rb) != 0)
                lanes_differ[K_PLACE] = 1;
        }
    /* bad frame or lane: -1, R and p untouched */
    R[0] = 7;
    if (BF(frame_placement)(&bd, -1, 0, R, p) != -1 || BF(frame_placement)(&bd, NFRAMES, 0, R, p) != -1 ||
        BF(frame_placement)(&bd, 0, -1, R, p) != -1 || BF(frame_placement)(&bd, 0, W, R, p) != -1 ||
        R[0] != 7) {
        printf("FAIL %s batch_frame_placement accepts a bad frame or lane\n", ROBOT);
        failures++;
    }
}

static void check_jacobians(void)
{
    char what[64];
    int f, r, l;
    for (f = 0; f < NFRAMES; ++f)
        for (r = 0; r < 2; ++r) {
            cdyn_reference ref = r ? CDYN_LOCAL_WORLD_ALIGNED : CDYN_LOCAL;
            snprintf(what, sizeof what, "frame_jacobian(%d, %s)", f, r ? "LWA" : "LOCAL");
            if (BF(frame_jacobian)(&bd, Q, f, ref, Bout) != 0) {
                printf("FAIL %s batch %s refused\n", ROBOT, what);
                failures++;
                continue;
            }
            for (l = 0; l < W; ++l) {
                if (F(frame_jacobian)(&sd, q_of[l], f, ref, sout) != 0) {
                    printf("FAIL %s single-state %s refused\n", ROBOT, what);
                    failures++;
                }
                check_lane(6 * NV, K_JAC, what, l);
            }
        }
    if (BF(frame_jacobian)(&bd, Q, -1, CDYN_LOCAL, Bout) != -1 ||
        BF(frame_jacobian)(&bd, Q, NFRAMES, CDYN_LOCAL, Bout) != -1 ||
        BF(frame_jacobian)(&bd, Q, 0, (cdyn_reference)2, Bout) != -1) {
        printf("FAIL %s batch_frame_jacobian accepts a bad frame or reference\n", ROBOT);
        failures++;
    }
}

/* Lane l of the batch output X (n entries) against ref: the bound tol, or bit for bit under
 * EXACT; notes whether lanes 0 and 1 differ, and (econd > 0) the difference over econd. */
static double worst_over_cond[K_COUNT]; /* |batch - single| / max|single| / (eps cond1(M)) */
static void check_out(const lanes *X, const cdyn_real *ref, int n, int kind, const char *what, int l,
                      double tol, double econd)
{
    static cdyn_real lane0[K_COUNT][NV * NV];
    double e = 0, scale = 0;
    int k;
    lanes_get(bl, X, n, l);
    compare(bl, ref, n, kind, EXACT, tol, what, l, 0);
    if (l == 0)
        memcpy(lane0[kind], bl, (size_t)n * sizeof *bl);
    else if (l == 1 && memcmp(lane0[kind], bl, (size_t)n * sizeof *bl) != 0)
        lanes_differ[kind] = 1;
    for (k = 0; k < n && econd > 0; ++k) {
        if (fabs((double)bl[k] - (double)ref[k]) > e)
            e = fabs((double)bl[k] - (double)ref[k]);
        if (fabs((double)ref[k]) > scale)
            scale = fabs((double)ref[k]);
    }
    if (scale > 0 && e / scale / econd > worst_over_cond[kind])
        worst_over_cond[kind] = e / scale / econd;
}

/* The derivatives' outputs (batch) and one lane's single-state ones. */
static lanes RD_DQ[NV * NV], RD_DV[NV * NV];
static cdyn_real sd1[NV * NV], sd2[NV * NV];

/* NAME_batch_rnea_derivatives at (Q, V, A): mask 0, each lane as the single-state function. */
static void check_rnea_derivatives(void)
{
    int l, m, st;
    m = BF(rnea_derivatives)(&bd, Q, V, A, RD_DQ, RD_DV);
    if (m != 0) {
        printf("FAIL %s batch_rnea_derivatives mask %#x on finite states\n", ROBOT, m);
        failures++;
    }
    for (l = 0; l < W; ++l) {
        st = F(rnea_derivatives)(&sd, q_of[l], v_of[l], a_of[l], sd1, sd2);
        if (st != 0) {
            printf("FAIL %s single-state rnea_derivatives returned %d on lane %d\n", ROBOT, st, l);
            failures++;
        }
        check_out(RD_DQ, sd1, NV * NV, K_RD_DQ, "rnea_derivatives dtau_dq", l, TOL, 0);
        check_out(RD_DV, sd2, NV * NV, K_RD_DV, "rnea_derivatives dtau_dv", l, TOL, 0);
    }
}

/* Lanes other than `bad` of got (n entries) bit for bit those of clean. */
static int others_untouched(const lanes *got, const lanes *clean, int n, int bad)
{
    int i, l;
    for (i = 0; i < n; ++i)
        for (l = 0; l < W; ++l) {
            cdyn_real x = lane_get(&got[i], l), y = lane_get(&clean[i], l);
            if (l != bad && memcmp(&x, &y, sizeof x) != 0)
                return 0;
        }
    return 1;
}

/* On the last states: a NaN (and once +inf) in each entry of q, v, a of lane L: the mask of
 * NAME_batch_rnea_derivatives exactly bit L when the single-state function refuses lane L's
 * state (else 0, and lane L compared), the other lanes bit for bit the clean run's; each of q,
 * v, a must make it refuse once. Then a NULL output: CDYN_E_ARG. */
static void check_rnea_derivatives_nonfinite(void)
{
    static lanes dq0[NV * NV], dv0[NV * NV], dq[NV * NV], dv[NV * NV], x2[NQ > NV ? NQ : NV];
    static cdyn_real xs[NQ > NV ? NQ : NV];
    const int L = W > 2 ? 2 : W - 1;
    const char *name[3] = { "q", "v", "a" };
    int which, k, m, st, refused[3] = { 0, 0, 0 };
    BF(rnea_derivatives)(&bd, Q, V, A, dq0, dv0);
    for (which = 0; which < 3; ++which) {
        int n = which == 0 ? NQ : NV, trial;
        const lanes *src = which == 0 ? Q : which == 1 ? V : A;
        const cdyn_real *own = which == 0 ? q_of[L] : which == 1 ? v_of[L] : a_of[L];
        for (trial = 0; trial <= n; ++trial) {
            const cdyn_real bad = trial < n ? (cdyn_real)NAN : (cdyn_real)INFINITY;
            char what[80];
            k = trial < n ? trial : n - 1;
            memcpy(x2, src, (size_t)n * sizeof *x2);
            memcpy(xs, own, (size_t)n * sizeof *xs);
            lane_set(&x2[k], L, bad);
            xs[k] = bad;
            snprintf(what, sizeof what, "rnea_derivatives with %g in %s[%d] of lane %d", (double)bad,
                     name[which], k, L);
            m = BF(rnea_derivatives)(&bd, which == 0 ? x2 : Q, which == 1 ? x2 : V, which == 2 ? x2 : A,
                                     dq, dv);
            st = F(rnea_derivatives)(&sd, which == 0 ? xs : q_of[L], which == 1 ? xs : v_of[L],
                                     which == 2 ? xs : a_of[L], sd1, sd2);
            refused[which] += st != 0;
            if (m != (st != 0 ? 1 << L : 0)) {
                printf("FAIL %s %s: mask %#x, the single-state function returned %d\n", ROBOT, what, m,
                       st);
                failures++;
            }
            if (!others_untouched(dq, dq0, NV * NV, L) || !others_untouched(dv, dv0, NV * NV, L)) {
                printf("FAIL %s %s: another lane's derivatives changed\n", ROBOT, what);
                failures++;
            }
            if (st == 0) {
                check_out(dq, sd1, NV * NV, K_RD_DQ, what, L, TOL, 0);
                check_out(dv, sd2, NV * NV, K_RD_DV, what, L, TOL, 0);
            }
        }
    }
    if (!refused[0] || !refused[1] || !refused[2]) {
        printf("FAIL %s: no NaN made the single-state rnea_derivatives refuse (q %d, v %d, a %d):"
               " the NaN checks are vacuous\n", ROBOT, refused[0], refused[1], refused[2]);
        failures++;
    }
    if (BF(rnea_derivatives)(&bd, Q, V, A, NULL, dv) != CDYN_E_ARG ||
        BF(rnea_derivatives)(&bd, Q, V, A, dq, NULL) != CDYN_E_ARG) {
        printf("FAIL %s batch_rnea_derivatives with a NULL output: not CDYN_E_ARG\n", ROBOT);
        failures++;
    }
    printf("%s: rnea_derivatives NaN in lane %d: refused %d/%d q, %d/%d v, %d/%d a entries (+inf"
           " once each), masks as the single-state statuses, other lanes untouched\n", ROBOT, L,
           refused[0], NQ + 1, refused[1], NV + 1, refused[2], NV + 1);
}

static void check_dynamics(void)
{
    int l;
    check_rnea_derivatives();
    BF(rnea)(&bd, Q, V, A, Bout);
    for (l = 0; l < W; ++l) {
        F(rnea)(&sd, q_of[l], v_of[l], a_of[l], sout);
        check_lane(NV, K_RNEA, "rnea", l);
    }
    BF(nle)(&bd, Q, V, Bout);
    for (l = 0; l < W; ++l) {
        F(nle)(&sd, q_of[l], v_of[l], sout);
        check_lane(NV, K_NLE, "nle", l);
    }
    BF(gravity)(&bd, Q, Bout);
    for (l = 0; l < W; ++l) {
        F(gravity)(&sd, q_of[l], sout);
        check_lane(NV, K_GRAV, "gravity", l);
    }
    BF(crba)(&bd, Q, Bout);
    for (l = 0; l < W; ++l) {
        F(crba)(&sd, q_of[l], sout);
        check_lane(NV * NV, K_CRBA, "crba", l);
    }
    /* M NULL: d->M alone, on the tree pattern, as the single-state d->M; the full M of the
     * call above is left where it was (Bout untouched: refilled with a marker first) */
    memset(Bout, 0x5a, sizeof Bout);
    BF(crba)(&bd, Q, NULL);
    for (l = 0; l < W; ++l) {
        static unsigned char marker[sizeof Bout];
        memset(marker, 0x5a, sizeof marker);
        F(crba)(&sd, q_of[l], NULL);
        memcpy(sout, sd.M, NNZ * sizeof(cdyn_real));
        lanes_get(bl, bd.M, NNZ, l);
        compare(bl, sout, NNZ, K_CRBA_TREE, EXACT, TOL, "crba(NULL) d->M", l, 0);
        if (l == 0 && memcmp(Bout, marker, sizeof Bout) != 0) {
            printf("FAIL %s batch_crba(NULL) wrote somewhere\n", ROBOT);
            failures++;
        }
    }
}

#if FWD
static lanes DDQ[NV], MINV[NV * NV];
static lanes AD_DQ[NV * NV], AD_DV[NV * NV], AD_DTAU[NV * NV];
static cdyn_real sd3[NV * NV];

/* The 1-norm (largest column sum) of the n x n A. */
static double normn(const cdyn_real *A, int n)
{
    double best = 0;
    int i, j;
    for (j = 0; j < n; ++j) {
        double c = 0;
        for (i = 0; i < n; ++i)
            c += fabs((double)A[i * n + j]);
        if (c > best)
            best = c;
    }
    return best;
}

static double norm1(const cdyn_real *A)
{
    return normn(A, NV);
}

/* M^-1 and ABA go through the factorisation of M: a rounding anywhere moves them by up to
 * about eps cond(M) relative, so where the two sides may round differently (an fma in one),
 * the bound is the larger of TOL and 16 eps cond1(M) of the lane (cond1 from the single-state
 * crba and minv); bit for bit it stays bit for bit. */
static double tol_cond[W], eps_cond[W];

static void note_cond(int kind, int l)
{
    double e = 0, scale = 0;
    int k, n = kind == K_MINV ? NV * NV : NV;
    lanes_get(bl, Bout, n, l);
    for (k = 0; k < n; ++k) {
        if (fabs((double)bl[k] - (double)sout[k]) > e)
            e = fabs((double)bl[k] - (double)sout[k]);
        if (fabs((double)sout[k]) > scale)
            scale = fabs((double)sout[k]);
    }
    if (scale > 0 && e / scale / eps_cond[l] > worst_over_cond[kind])
        worst_over_cond[kind] = e / scale / eps_cond[l];
}

static void check_forward(void)
{
    static cdyn_real Ml[NV * NV];
    int l, m;
    for (l = 0; l < W; ++l) {
        double eps = sizeof(cdyn_real) == 4 ? 5.96e-8 : 1.11e-16;
        F(crba)(&sd, q_of[l], Ml);
        F(minv)(&sd, q_of[l], sout);
        eps_cond[l] = eps * norm1(Ml) * norm1(sout);
        tol_cond[l] = 16 * eps_cond[l] > TOL ? 16 * eps_cond[l] : TOL;
    }
    m = BF(minv)(&bd, Q, MINV);
    if (m != 0) {
        printf("FAIL %s batch_minv mask %#x on states the single-state minv accepts\n", ROBOT, m);
        failures++;
    }
    memcpy(Bout, MINV, sizeof MINV);
    for (l = 0; l < W; ++l) {
        if (F(minv)(&sd, q_of[l], sout) != 0) {
            printf("FAIL %s single-state minv refused lane %d's state\n", ROBOT, l);
            failures++;
        }
        check_lane_tol(NV * NV, K_MINV, "minv", l, tol_cond[l]);
        note_cond(K_MINV, l);
    }
    m = BF(aba)(&bd, Q, V, T, DDQ);
    if (m != 0) {
        printf("FAIL %s batch_aba mask %#x on states the single-state aba accepts\n", ROBOT, m);
        failures++;
    }
    memcpy(Bout, DDQ, sizeof DDQ);
    for (l = 0; l < W; ++l) {
        if (F(aba)(&sd, q_of[l], v_of[l], tau_of[l], sout) != 0) {
            printf("FAIL %s single-state aba refused lane %d's state\n", ROBOT, l);
            failures++;
        }
        check_lane_tol(NV, K_ABA, "aba", l, tol_cond[l]);
        note_cond(K_ABA, l);
    }
    /* aba_derivatives solves with M as aba: the same bound */
    m = BF(aba_derivatives)(&bd, Q, V, T, AD_DQ, AD_DV, AD_DTAU);
    if (m != 0) {
        printf("FAIL %s batch_aba_derivatives mask %#x on states the single-state one accepts\n",
               ROBOT, m);
        failures++;
    }
    for (l = 0; l < W; ++l) {
        int st = F(aba_derivatives)(&sd, q_of[l], v_of[l], tau_of[l], sd1, sd2, sd3);
        if (st != 0) {
            printf("FAIL %s single-state aba_derivatives returned %d on lane %d\n", ROBOT, st, l);
            failures++;
        }
        check_out(AD_DQ, sd1, NV * NV, K_AD_DQ, "aba_derivatives ddq_dq", l, tol_cond[l], eps_cond[l]);
        check_out(AD_DV, sd2, NV * NV, K_AD_DV, "aba_derivatives ddq_dv", l, tol_cond[l], eps_cond[l]);
        check_out(AD_DTAU, sd3, NV * NV, K_AD_DTAU, "aba_derivatives ddq_dtau", l, tol_cond[l],
                  eps_cond[l]);
    }
    /* ddq_dtau NULL: the other two as with it, bit for bit */
    {
        static lanes dq2[NV * NV], dv2[NV * NV];
        m = BF(aba_derivatives)(&bd, Q, V, T, dq2, dv2, NULL);
        if (m != 0 || memcmp(dq2, AD_DQ, sizeof dq2) != 0 || memcmp(dv2, AD_DV, sizeof dv2) != 0) {
            printf("FAIL %s batch_aba_derivatives with ddq_dtau NULL: mask %#x, or ddq_dq or"
                   " ddq_dv not those of the call with it\n", ROBOT, m);
            failures++;
        }
    }
}

/* One poisoned input of lane L: the masks against the single-state statuses, the other lanes
 * against the clean run. which: 0 q, 1 v, 2 tau. Returns 1 when the single-state aba refused. */
static int poisoned(int which, int k, cdyn_real bad, const lanes *ddq_clean, const lanes *minv_clean)
{
    static lanes q2[NQ], v2[NV], t2[NV], ddq2[NV], minv2[NV * NV];
    static cdyn_real qs[NQ], vs[NV], ts[NV], out[NV * NV];
    const int L = W > 2 ? 2 : W - 1;
    const char *name[3] = { "q", "v", "tau" };
    char what[64];
    int st, m, refused;
    memcpy(q2, Q, sizeof Q);
    memcpy(v2, V, sizeof V);
    memcpy(t2, T, sizeof T);
    memcpy(qs, q_of[L], sizeof qs);
    memcpy(vs, v_of[L], sizeof vs);
    memcpy(ts, tau_of[L], sizeof ts);
    if (which == 0) {
        lane_set(&q2[k], L, bad);
        qs[k] = bad;
    } else if (which == 1) {
        lane_set(&v2[k], L, bad);
        vs[k] = bad;
    } else {
        lane_set(&t2[k], L, bad);
        ts[k] = bad;
    }
    snprintf(what, sizeof what, "aba with %g in %s[%d] of lane %d", (double)bad, name[which], k, L);
    m = BF(aba)(&bd, q2, v2, t2, ddq2);
    st = F(aba)(&sd, qs, vs, ts, out);
    refused = st != 0;
    if (m != (refused ? 1 << L : 0)) {
        printf("FAIL %s %s: mask %#x, the single-state aba returned %d\n", ROBOT, what, m, st);
        failures++;
    }
    if (!others_untouched(ddq2, ddq_clean, NV, L)) {
        printf("FAIL %s %s: another lane's ddq changed\n", ROBOT, what);
        failures++;
    }
    if (!refused) {
        lanes_get(bl, ddq2, NV, L);
        compare(bl, out, NV, -1, EXACT, tol_cond[L], what, L, 0);
    }
    if (which == 0) {
        snprintf(what, sizeof what, "minv with %g in q[%d] of lane %d", (double)bad, k, L);
        m = BF(minv)(&bd, q2, minv2);
        st = F(minv)(&sd, qs, out);
        if (m != (st != 0 ? 1 << L : 0)) {
            printf("FAIL %s %s: mask %#x, the single-state minv returned %d\n", ROBOT, what, m, st);
            failures++;
        }
        if (!others_untouched(minv2, minv_clean, NV * NV, L)) {
            printf("FAIL %s %s: another lane's M^-1 changed\n", ROBOT, what);
            failures++;
        }
        if (st == 0) {
            lanes_get(bl, minv2, NV * NV, L);
            compare(bl, out, NV * NV, -1, EXACT, tol_cond[L], what, L, 0);
        }
        refused |= (st != 0) << 1;
    }
    return refused;
}

/* NAME_batch_aba_derivatives with `bad` in entry k of lane L's q (0), v (1) or tau (2), or
 * (singular not NULL) lane L's q the singular one: the mask bit L exactly when the single-state
 * function refuses (which it must for the singular q), the other lanes bit for bit the clean
 * run's (AD_*: the last states). */
static void abad_poisoned(int which, int k, cdyn_real bad, const cdyn_real *singular)
{
    static lanes x2[NQ > NV ? NQ : NV], dq[NV * NV], dv[NV * NV], dt[NV * NV];
    static cdyn_real qs[NQ], vs[NV], ts[NV];
    const int L = W > 2 ? 2 : W - 1;
    const char *name[3] = { "q", "v", "tau" };
    const lanes *src = which == 0 ? Q : which == 1 ? V : T;
    char what[80];
    int m, st;
    memcpy(qs, singular ? singular : q_of[L], sizeof qs);
    memcpy(vs, v_of[L], sizeof vs);
    memcpy(ts, tau_of[L], sizeof ts);
    memcpy(x2, src, (which == 0 ? NQ : NV) * sizeof *x2);
    if (singular) {
        lanes_set(x2, singular, NQ, L);
        snprintf(what, sizeof what, "aba_derivatives with lane %d's q singular", L);
    } else {
        lane_set(&x2[k], L, bad);
        (which == 0 ? qs : which == 1 ? vs : ts)[k] = bad;
        snprintf(what, sizeof what, "aba_derivatives with %g in %s[%d] of lane %d", (double)bad,
                 name[which], k, L);
    }
    m = BF(aba_derivatives)(&bd, which == 0 ? x2 : Q, which == 1 ? x2 : V, which == 2 ? x2 : T, dq, dv,
                            dt);
    st = F(aba_derivatives)(&sd, qs, vs, ts, sd1, sd2, sd3);
    if (m != (st != 0 ? 1 << L : 0) || (singular && st == 0) || (!singular && !isfinite((double)bad) &&
                                                                  which == 2 && st == 0)) {
        printf("FAIL %s %s: mask %#x, the single-state function returned %d\n", ROBOT, what, m, st);
        failures++;
    }
    if (!others_untouched(dq, AD_DQ, NV * NV, L) || !others_untouched(dv, AD_DV, NV * NV, L) ||
        !others_untouched(dt, AD_DTAU, NV * NV, L)) {
        printf("FAIL %s %s: another lane's derivatives changed\n", ROBOT, what);
        failures++;
    }
}

static void check_nonfinite(const cdyn_real *singular)
{
    static lanes ddq_clean[NV], minv_clean[NV * NV];
    const int L = W > 2 ? 2 : W - 1;
    int which, k, refused[3] = { 0, 0, 0 }, minv_refused = 0;
    memcpy(ddq_clean, DDQ, sizeof DDQ);
    memcpy(minv_clean, MINV, sizeof MINV);
    for (which = 0; which < 3; ++which) {
        int n = which == 0 ? NQ : NV;
        for (k = 0; k < n; ++k) {
            int r = poisoned(which, k, (cdyn_real)NAN, ddq_clean, minv_clean);
            refused[which] += r & 1;
            minv_refused += r >> 1;
        }
    }
    poisoned(2, NV - 1, (cdyn_real)INFINITY, ddq_clean, minv_clean);
    poisoned(1, 0, (cdyn_real)-INFINITY, ddq_clean, minv_clean);
    abad_poisoned(0, NQ - 1, (cdyn_real)NAN, NULL);
    abad_poisoned(1, 0, (cdyn_real)NAN, NULL);
    abad_poisoned(2, 0, (cdyn_real)NAN, NULL);
    abad_poisoned(2, NV - 1, (cdyn_real)INFINITY, NULL);
    if (singular)
        abad_poisoned(0, 0, 0, singular);
    {
        static lanes x[NV * NV];
        if (BF(aba_derivatives)(&bd, Q, V, T, NULL, x, x) != CDYN_E_ARG ||
            BF(aba_derivatives)(&bd, Q, V, T, x, NULL, NULL) != CDYN_E_ARG) {
            printf("FAIL %s batch_aba_derivatives with a NULL ddq_dq or ddq_dv: not CDYN_E_ARG\n",
                   ROBOT);
            failures++;
        }
    }
    if (!refused[0] || !refused[1] || !refused[2] || !minv_refused) {
        printf("FAIL %s: no NaN made the single-state function refuse (q %d, v %d, tau %d, minv %d):"
               " the NaN checks are vacuous\n", ROBOT, refused[0], refused[1], refused[2], minv_refused);
        failures++;
    }
    printf("%s: NaN in lane %d: aba refused %d/%d q, %d/%d v, %d/%d tau entries, minv %d/%d q, masks"
           " as the single-state statuses, other lanes untouched\n",
           ROBOT, L, refused[0], NQ, refused[1], NV, refused[2], NV, minv_refused, NQ);
    if (singular) {
        static lanes q2[NQ], ddq2[NV], minv2[NV * NV];
        cdyn_real out[NV * NV];
        int m, st, sm;
        memcpy(q2, Q, sizeof Q);
        lanes_set(q2, singular, NQ, L);
        st = F(aba)(&sd, singular, v_of[L], tau_of[L], out);
        sm = F(minv)(&sd, singular, out);
        m = BF(aba)(&bd, q2, V, T, ddq2);
        if (st == 0 || sm == 0) {
            printf("FAIL %s --singular: the single-state aba (%d) or minv (%d) accepts the state\n", ROBOT,
                   st, sm);
            failures++;
        }
        if (m != 1 << L || !others_untouched(ddq2, ddq_clean, NV, L)) {
            printf("FAIL %s singular lane %d: aba mask %#x (want %#x) or another lane changed\n", ROBOT, L,
                   m, 1 << L);
            failures++;
        }
        m = BF(minv)(&bd, q2, minv2);
        if (m != 1 << L || !others_untouched(minv2, minv_clean, NV * NV, L)) {
            printf("FAIL %s singular lane %d: minv mask %#x (want %#x) or another lane changed\n", ROBOT,
                   L, m, 1 << L);
            failures++;
        }
        printf("%s: singular M in lane %d: aba %d, minv %d single-state; batch masks bit %d only\n", ROBOT,
               L, st, sm, L);
    }
}
#endif

#if CON
/* ---- the constrained solvers (NAME_batch_constraint_capture, then NAME_batch_prox_ltl and,
 * for contacts only, NAME_batch_constrained_aba and NAME_batch_prox_pv) ----
 * Each lane captures its references at its own configuration qc (the lane's q moved by a small
 * random step, so that the contacts' position and rotation errors are not zero and the
 * Baumgarte gains act), and gets its own warm-start lambda0. */
static cdyn_real qc_of[W][NQ], lam0_of[W][NC], Kp[NCON], Kd[NCON];
static lanes QC[NQ], LAM0[NC];
/* Where the two sides may round differently: ddq and lambda go through M's factor and, every
 * iteration, through G + mu I's, as minv and aba through M's: max(TOL, 16 eps (cond1(M) +
 * cond1(G + mu I))) of the lane, relative to the largest entry; the residuals (changes of
 * lambda) absolutely, that bound times max|lambda|. constrainedABA folds each contact's 1/mu
 * into its body's inertia and takes lambda's step as the constraint residual times 1/mu: a
 * rounding of the residual, relative to its terms (of the order of G lambda), moves lambda by
 * 1/mu times it; its bound adds eps norm1(G) / mu at the call's mu, the digits its single-state
 * doc says the 1/mu-scaled inertias cost (measured under clang's fma, mu 1e-6: up to 1.9 eps
 * norm1(G) / mu on solo12, ~1e-8 relative; the uncontracted single-state constrained_aba is
 * as far from prox_ltl as the contracted batch one). */
static double eps_kkt[W], normG[W];

/* The solvers share one signature and one set of semantics (the batch forms as
 * NAME_batch_prox_ltl), so every check below runs on each of them. */
typedef int (*single_solver)(sdata *, const cdyn_prox_settings *, const cdyn_real *,
                             const cdyn_real *, const cdyn_real *, cdyn_real *, cdyn_real *);
typedef int (*batch_solver)(bdata *, const cdyn_prox_settings *, const lanes *, const lanes *,
                            const lanes *, lanes *, lanes *);
typedef struct {
    const char *name;
    single_solver single;
    batch_solver batch;
    int kind;             /* its K_PROX + 3 i: ddq, then lambda, then the residuals */
    int augmented;        /* 1: its 1/mu scales the roundings (constrainedABA, proxLTLs) */
    int per_lane;         /* 1: proxLTLs: the vector form too stops each lane at its own count
                           * (the others: every lane at the most any lane needs), and the
                           * residuals are rho (J ddq + gamma - a*) */
    double worst_over_kkt; /* |batch - single| / max|single| / lane_eps, ddq and lambda */
    double worst_conv;    /* VEC_ROUNDED, with tolerances: |batch - single| / max|single| */
} solver;
static solver solvers[] = {
    { "prox_ltl", F(prox_ltl), BF(prox_ltl), K_PROX, 0, 0, 0, 0 },
    { "prox_ltls", F(prox_ltls), BF(prox_ltls), K_PROX + 3, 1, 1, 0, 0 },
#if CONTACTS
    { "constrained_aba", F(constrained_aba), BF(constrained_aba), K_PROX + 6, 1, 0, 0, 0 },
    { "prox_pv", F(prox_pv), BF(prox_pv), K_PROX + 9, 0, 0, 0, 0 },
#endif
};
#define NSOLVERS ((int)(sizeof solvers / sizeof *solvers))

/* The fixed count: mu 1e-2 (against G's eigenvalues of 1e-2..1e2 a contraction of about 1/2
 * in the weakest directions, so a fourth iteration, or a cold start, would show), exactly 3
 * iterations, the gains, warm start. */
static cdyn_prox_settings fixed_settings(void)
{
    cdyn_prox_settings s = CDYN_PROX_SETTINGS_DEFAULT;
    s.mu = (cdyn_real)1e-2;
    s.max_iter = 3;
    s.abs_tol = 0;
    s.rel_tol = 0;
    s.Kp = Kp;
    s.Kd = Kd;
    s.warm_start = 1;
    return s;
}

/* cond1 of the n x n A (row-major) by Gauss-Jordan with partial pivoting; inf if singular. */
static double cond1(const cdyn_real *A, int n)
{
    static double a[NC > NV ? NC : NV][2 * (NC > NV ? NC : NV)];
    double na = 0, ni = 0;
    int i, j, k;
    for (j = 0; j < n; ++j) {
        double c = 0;
        for (i = 0; i < n; ++i)
            c += fabs((double)A[i * n + j]);
        if (c > na)
            na = c;
    }
    for (i = 0; i < n; ++i)
        for (j = 0; j < 2 * n; ++j)
            a[i][j] = j < n ? (double)A[i * n + j] : (j - n == i);
    for (k = 0; k < n; ++k) {
        int p = k;
        for (i = k + 1; i < n; ++i)
            if (fabs(a[i][k]) > fabs(a[p][k]))
                p = i;
        if (!(fabs(a[p][k]) > 0))
            return INFINITY;
        for (j = 0; j < 2 * n; ++j) {
            double t = a[k][j];
            a[k][j] = a[p][j];
            a[p][j] = t;
        }
        for (j = 2 * n - 1; j >= k; --j)
            a[k][j] /= a[k][k];
        for (i = 0; i < n; ++i)
            if (i != k)
                for (j = 2 * n - 1; j >= k; --j)
                    a[i][j] -= a[i][k] * a[k][j];
    }
    for (j = 0; j < n; ++j) {
        double c = 0;
        for (i = 0; i < n; ++i)
            c += fabs(a[i][n + j]);
        if (c > ni)
            ni = c;
    }
    return na * ni;
}

static void draw_capture(void)
{
    static double step[NV + 1], dummy[NV + 1], lam[NC + 1];
    cdyn_real dq[NV + 1];
    static xorshift64s g = { 0x9e3779b97f4a7c15u };
    int l, i;
    for (l = 0; l < W; ++l) {
        xorshift32_state(&rng_state, NV, step, dummy, dummy, dummy);
        for (i = 0; i < NV; ++i)
            dq[i] = (cdyn_real)(0.05 * step[i]);
        F(integrate)(q_of[l], dq, 1, qc_of[l]);
        xorshift64s_vector(&g, lam, NC, 20);
        for (i = 0; i < NC; ++i)
            lam0_of[l][i] = (cdyn_real)lam[i];
        lanes_set(QC, qc_of[l], NQ, l);
        lanes_set(LAM0, lam0_of[l], NC, l);
    }
    for (i = 0; i < NCON; ++i) {
        Kp[i] = (cdyn_real)(20 + 5 * i);
        Kd[i] = (cdyn_real)(3 + i);
    }
}

/* The references of every constraint, lane by lane, against the single-state capture. */
static void check_capture(void)
{
    static cdyn_real ref[NCON * 12], got[NCON * 12];
    int l, k;
    BF(constraint_capture)(&bd, QC);
    for (l = 0; l < W; ++l) {
        F(constraint_capture)(&sd, qc_of[l]);
        for (k = 0; k < NCON; ++k) {
            memcpy(ref + 12 * k, sd.ref_R[k], 9 * sizeof *ref);
            memcpy(ref + 12 * k + 9, sd.ref_p[k], 3 * sizeof *ref);
            lanes_get(got + 12 * k, bd.ref_R[k], 9, l);
            lanes_get(got + 12 * k + 9, bd.ref_p[k], 3, l);
        }
        compare(got, ref, NCON * 12, K_CAPTURE, EXACT, TOL, "constraint_capture", l, 0);
    }
}

#define EPS (sizeof(cdyn_real) == 4 ? 5.96e-8 : 1.11e-16)

/* The lanes' eps (cond1(M) + cond1(G + mu I)) at the fixed mu, from the single-state M, M^-1
 * and G + mu I; and norm1(G), for lane_eps. */
static void note_kkt(void)
{
    static cdyn_real G[NC * NC], Ml[NV * NV], Mi[NV * NV];
    cdyn_prox_settings s = fixed_settings();
    int l, k;
    for (l = 0; l < W; ++l) {
        F(crba)(&sd, q_of[l], Ml);
        F(minv)(&sd, q_of[l], Mi);
        if (F(delassus)(&sd, q_of[l], 0, G) != 0) {
            printf("FAIL %s single-state delassus refused lane %d's state\n", ROBOT, l);
            failures++;
        }
        normG[l] = normn(G, NC);
        for (k = 0; k < NC; ++k)
            G[k * NC + k] += s.mu;
        eps_kkt[l] = EPS * (norm1(Ml) * norm1(Mi) + cond1(G, NC));
    }
}

/* The relative bound of lane l's ddq and lambda over 16 (see eps_kkt's comment above): eps_kkt,
 * and for constrainedABA eps norm1(G) / mu at the call's mu. */
static double lane_eps(const solver *sv, int l, double mu)
{
    return eps_kkt[l] + (sv->augmented ? EPS * normG[l] / mu : 0);
}

/* One lane's single-state solve: capture at qc, then solve from lambda0 (read when warm). */
static int single_prox(const solver *sv, int l, const cdyn_prox_settings *s, const cdyn_real *tau,
                       cdyn_real *ddq, cdyn_real *lambda)
{
    F(constraint_capture)(&sd, qc_of[l]);
    memcpy(lambda, lam0_of[l], sizeof lam0_of[l]);
    return sv->single(&sd, s, q_of[l], v_of[l], tau, ddq, lambda);
}

/* Lane l of the batch results against the single-state ones (left in sd by single_prox):
 * ddq, lambda (relative, tol of the lane) and the two residuals (absolute: tol times
 * max|lambda|). */
static void compare_prox(solver *sv, double mu, const lanes *ddq, const lanes *lambda,
                         const cdyn_real *sddq, const cdyn_real *slam, int l, const char *what)
{
    cdyn_real got[NV > NC ? NV : NC], res[2], sres[2];
    const double eps_l = lane_eps(sv, l, mu);
    double lmax = 0, tol = 16 * eps_l > TOL ? 16 * eps_l : TOL, e = 0, scale = 0, el = 0;
    char w[128];
    int k;
    lanes_get(got, ddq, NV, l);
    snprintf(w, sizeof w, "%s %s ddq", sv->name, what);
    compare(got, sddq, NV, sv->kind, EXACT, tol, w, l, 0);
    for (k = 0; k < NV; ++k) {
        if (fabs((double)got[k] - (double)sddq[k]) > e)
            e = fabs((double)got[k] - (double)sddq[k]);
        if (fabs((double)sddq[k]) > scale)
            scale = fabs((double)sddq[k]);
    }
    lanes_get(got, lambda, NC, l);
    snprintf(w, sizeof w, "%s %s lambda", sv->name, what);
    compare(got, slam, NC, sv->kind + 1, EXACT, tol, w, l, 0);
    for (k = 0; k < NC; ++k) {
        if (fabs((double)slam[k]) > lmax)
            lmax = fabs((double)slam[k]);
        if (fabs((double)got[k] - (double)slam[k]) > el)
            el = fabs((double)got[k] - (double)slam[k]);
    }
    if (scale > 0 && e / scale / eps_l > sv->worst_over_kkt)
        sv->worst_over_kkt = e / scale / eps_l;
    if (lmax > 0 && el / lmax / eps_l > sv->worst_over_kkt)
        sv->worst_over_kkt = el / lmax / eps_l;
    /* the residuals: bit for bit, or within tol max|lambda| (a difference of two lambdas) */
    res[0] = lane_get(&bd.dual_residual, l);
    res[1] = lane_get(&bd.primal_residual, l);
    sres[0] = sd.dual_residual;
    sres[1] = sd.primal_residual;
    /* proxLTLs' residuals are rho (J ddq + gamma - a*), not a difference of lambdas: their
     * terms are of the order of max|ddq| / mu (measured on fourbar under clang's fma, mu
     * 1e-2: 5.8e-9 apart with max|lambda| 15, max|ddq| 4.4e3) */
    if (sv->per_lane && scale / mu > lmax)
        lmax = scale / mu;
    snprintf(w, sizeof w, "%s %s residuals (dual, primal)", sv->name, what);
    compare(res, sres, 2, sv->kind + 2, EXACT,   /* relative to |sres[0]|, or absolute at 0 */
            lmax > 0 ? tol * lmax / (fabs((double)sres[0]) > 0 ? fabs((double)sres[0]) : 1) : tol,
            w, l, 0);
}

static lanes ddq_b[NV], lam_b[NC];         /* the batch results */
static cdyn_real sddq[NV], slam[NC];       /* one lane's single-state results */

/* (a) exactly 3 iterations, gains, warm start: mask 0, 3 iterations, every lane. */
static void prox_fixed(solver *sv)
{
    cdyn_prox_settings s = fixed_settings();
    int l, m, st;
    memcpy(lam_b, LAM0, sizeof LAM0);
    m = sv->batch(&bd, &s, Q, V, T, ddq_b, lam_b);
    if (m != 0 || bd.iterations != 3) {
        printf("FAIL %s batch_%s (3 iterations): mask %#x, %d iterations\n", ROBOT, sv->name, m,
               bd.iterations);
        failures++;
    }
    for (l = 0; l < W; ++l) {
        st = single_prox(sv, l, &s, tau_of[l], sddq, slam);
        if (st != 3) {
            printf("FAIL %s single-state %s (3 iterations) returned %d on lane %d\n", ROBOT, sv->name,
                   st, l);
            failures++;
        }
        compare_prox(sv, s.mu, ddq_b, lam_b, sddq, slam, l, "(3 iterations)");
    }
}

/* proxLTLs' vector form with tolerances stops each lane where its stop tests pass; rounded
 * otherwise than the single form (fma contraction), a lane whose residual sits near the
 * tolerance can pass it an iteration earlier or later than its single-state solve, and its
 * result is then not the single-state one of any fixed count. What is checked instead: the mask
 * bits exactly where the lane misses abs_tol (as for every solver), and each lane that meets it
 * against its own single-state solve at the same settings (which met it too), both converged:
 * within CONV relative (ddq and lambda), or the rounding bound of compare_prox if larger.
 * CONV: at the default mu 1e-6 the proximal iterations contract by mu / (mu + eig(G)), so two
 * iterates that both pass abs_tol 1e-10 differ from the solution by far less; measured up to
 * (see worst_conv in the summary) on the constraint robots. */
#define CONV 1e-8
#define VEC_ROUNDED(sv) (C(BATCH_VECTOR) && !EXACT && (sv)->per_lane)

static void compare_conv(solver *sv, double mu, int l, const char *what)
{
    cdyn_real got[NV > NC ? NV : NC];
    const double eps_l = lane_eps(sv, l, mu);
    double tol = 16 * eps_l > CONV ? 16 * eps_l : CONV;
    char w[128];
    int pass, k;
    for (pass = 0; pass < 2; ++pass) {
        const int n = pass ? NC : NV;
        const cdyn_real *ref = pass ? slam : sddq;
        double e = 0, scale = 0;
        lanes_get(got, pass ? lam_b : ddq_b, n, l);
        for (k = 0; k < n; ++k) {
            double d = fabs((double)got[k] - (double)ref[k]);
            if (!(d <= e))
                e = d;
            if (fabs((double)ref[k]) > scale)
                scale = fabs((double)ref[k]);
        }
        if (scale > 0 && !(e / scale <= sv->worst_conv))
            sv->worst_conv = e / scale;
        if (!(e <= tol * scale)) {
            snprintf(w, sizeof w, "%s %s %s (converged, against the single-state solve)", sv->name,
                     what, pass ? "lambda" : "ddq");
            compare(got, ref, n, -1, 0, tol, w, l, 0);
        }
    }
}

/* (b) the default settings (abs_tol 1e-10 in double): the most iterations any lane needs, on
 * every lane (plain, and proxLTLs: each lane its own count); a mask bit exactly where a lane
 * misses abs_tol. Returns that most (VEC_ROUNDED: the batch's own count). */
static int prox_default(solver *sv)
{
    cdyn_prox_settings t = CDYN_PROX_SETTINGS_DEFAULT;
    int l, m, st, most = 0, counts[W];
    memcpy(lam_b, LAM0, sizeof LAM0);
    m = sv->batch(&bd, &t, Q, V, T, ddq_b, lam_b);
    for (l = 0; l < W; ++l) {
        cdyn_real pr = lane_get(&bd.primal_residual, l);
        st = single_prox(sv, l, &t, tau_of[l], sddq, slam);
        counts[l] = st == CDYN_E_NOT_CONVERGED ? t.max_iter : st;
        if (counts[l] > most)
            most = counts[l];
        if (st < 0 && st != CDYN_E_NOT_CONVERGED) {
            printf("FAIL %s single-state %s (default settings) returned %d on lane %d\n", ROBOT,
                   sv->name, st, l);
            failures++;
        }
        if (((m >> l) & 1) != !(pr <= t.abs_tol)) {
            printf("FAIL %s batch_%s (default settings) lane %d: mask bit %d, primal residual"
                   " %.3g against abs_tol %.3g\n", ROBOT, sv->name, l, (m >> l) & 1, (double)pr,
                   (double)t.abs_tol);
            failures++;
        }
        /* plain, and proxLTLs' vector form: each lane stops at its own count, as the
         * single-state function */
        if ((!C(BATCH_VECTOR) || sv->per_lane) && !VEC_ROUNDED(sv))
            compare_prox(sv, t.mu, ddq_b, lam_b, sddq, slam, l, "(default settings, own count)");
        if (VEC_ROUNDED(sv) && st >= 0 && !((m >> l) & 1))
            compare_conv(sv, t.mu, l, "(default settings)");
    }
    if (VEC_ROUNDED(sv)) {
        /* no lane stalls: each within two iterations of its single-state count (once a
         * lane's unrefined test has passed, its steps are refined, and they contract by
         * mu / (mu + eig(G))) */
        if (bd.iterations < 1 || bd.iterations > most + 2) {
            printf("FAIL %s batch_%s (default settings): %d iterations, the lanes' single-state"
                   " counts' maximum is %d\n", ROBOT, sv->name, bd.iterations, most);
            failures++;
        }
    } else if (bd.iterations != most) {
        printf("FAIL %s batch_%s (default settings): %d iterations, the lanes' single-state"
               " counts' maximum is %d\n", ROBOT, sv->name, bd.iterations, most);
        failures++;
    }
#if C(BATCH_VECTOR)
    /* every lane ran d->iterations: the single-state function run for exactly that many */
    if (!sv->per_lane) {
        cdyn_prox_settings e = t;
        char what[64];
        e.abs_tol = 0;
        e.max_iter = bd.iterations > 0 ? bd.iterations : 1;
        snprintf(what, sizeof what, "(default settings, %d iterations)", e.max_iter);
        for (l = 0; l < W; ++l) {
            single_prox(sv, l, &e, tau_of[l], sddq, slam);
            compare_prox(sv, e.mu, ddq_b, lam_b, sddq, slam, l, what);
        }
    }
#endif
    printf("%s: %s default settings: %d iterations, single-state counts", ROBOT, sv->name,
           bd.iterations);
    for (l = 0; l < W; ++l)
        printf(" %d", counts[l]);
    printf(", mask %#x", m);
    return VEC_ROUNDED(sv) ? bd.iterations : most;
}

/* (c) max_iter one fewer than the most: the lanes that needed the most miss abs_tol, their
 * bits (the single-state CDYN_E_NOT_CONVERGED), the others' clear; results as the
 * single-state ones, every lane having run max_iter. */
static void prox_short(solver *sv, int most)
{
    cdyn_prox_settings t = CDYN_PROX_SETTINGS_DEFAULT;
    char what[64];
    int l, m, st, want = 0;
    t.max_iter = most - 1;
    memcpy(lam_b, LAM0, sizeof LAM0);
    m = sv->batch(&bd, &t, Q, V, T, ddq_b, lam_b);
    snprintf(what, sizeof what, "(default settings, max_iter %d)", t.max_iter);
    if (VEC_ROUNDED(sv)) {
        /* most is the batch's own count at the default settings: up to max_iter the same run,
         * so exactly max_iter iterations; the bits exactly the lanes that miss abs_tol, the
         * others converged (against the single-state solve at the default settings) */
        cdyn_prox_settings u = CDYN_PROX_SETTINGS_DEFAULT;
        for (l = 0; l < W; ++l) {
            cdyn_real pr = lane_get(&bd.primal_residual, l);
            want |= !(pr <= t.abs_tol) << l;
            if (!(pr <= t.abs_tol))
                continue;
            single_prox(sv, l, &u, tau_of[l], sddq, slam);
            compare_conv(sv, t.mu, l, what);
        }
        if (m != want || bd.iterations != t.max_iter) {
            printf("\nFAIL %s batch_%s (default settings, max_iter %d): mask %#x, %d iterations;"
                   " the lanes' primal residuals miss abs_tol on %#x\n", ROBOT, sv->name, t.max_iter,
                   m, bd.iterations, want);
            failures++;
        }
        printf("; max_iter %d: mask %#x", t.max_iter, m);
        return;
    }
    for (l = 0; l < W; ++l) {
        st = single_prox(sv, l, &t, tau_of[l], sddq, slam);
        want |= (st == CDYN_E_NOT_CONVERGED) << l;
        compare_prox(sv, t.mu, ddq_b, lam_b, sddq, slam, l, what);
    }
    if (m != want || want == 0 || bd.iterations != t.max_iter) {
        printf("\nFAIL %s batch_%s (default settings, max_iter %d): mask %#x, %d iterations;"
               " the single-state functions missed abs_tol on %#x\n", ROBOT, sv->name, t.max_iter,
               m, bd.iterations, want);
        failures++;
    }
    printf("; max_iter %d: mask %#x", t.max_iter, m);
}

/* Every solver, lane by lane against its single-state function: (a), (b), (c). */
static void check_prox(void)
{
    int i, most;
    note_kkt();
    check_capture();
    for (i = 0; i < NSOLVERS; ++i) {
        prox_fixed(&solvers[i]);
        most = prox_default(&solvers[i]);
        if (most > 1)
            prox_short(&solvers[i], most);
        printf("\n");
    }
}

/* A NaN in each tau entry of lane L (fixed count): the mask against the single-state status,
 * the other lanes bit for bit the clean run's; with the default settings bit L only and the
 * other lanes within abs_tol. */
static void prox_nan(solver *sv)
{
    static lanes ddq0[NV], lam0[NC], t2[NV];
    static cdyn_real ts[NV];
    const int L = W > 2 ? 2 : W - 1;
    cdyn_prox_settings s = fixed_settings(), t = CDYN_PROX_SETTINGS_DEFAULT;
    lanes pr0, du0;
    int k, l, m, st, refused = 0;
    memcpy(lam0, LAM0, sizeof LAM0);
    sv->batch(&bd, &s, Q, V, T, ddq0, lam0);
    pr0 = bd.primal_residual;
    du0 = bd.dual_residual;
    for (k = 0; k < NV; ++k) {
        memcpy(t2, T, sizeof T);
        lane_set(&t2[k], L, (cdyn_real)NAN);
        memcpy(ts, tau_of[L], sizeof ts);
        ts[k] = (cdyn_real)NAN;
        memcpy(lam_b, LAM0, sizeof LAM0);
        m = sv->batch(&bd, &s, Q, V, t2, ddq_b, lam_b);
        st = single_prox(sv, L, &s, ts, sddq, slam);
        refused += st < 0;
        if (m != (st < 0 ? 1 << L : 0) || bd.iterations != 3) {
            printf("FAIL %s %s with NaN in tau[%d] of lane %d: mask %#x, %d iterations; the"
                   " single-state %s returned %d\n", ROBOT, sv->name, k, L, m, bd.iterations,
                   sv->name, st);
            failures++;
        }
        if (!others_untouched(ddq_b, ddq0, NV, L) || !others_untouched(lam_b, lam0, NC, L) ||
            !others_untouched(&bd.primal_residual, &pr0, 1, L) ||
            !others_untouched(&bd.dual_residual, &du0, 1, L)) {
            printf("FAIL %s %s with NaN in tau[%d] of lane %d: another lane changed\n", ROBOT,
                   sv->name, k, L);
            failures++;
        }
    }
    if (refused != NV) {
        printf("FAIL %s: a NaN in tau refused by the single-state %s in %d of %d entries\n", ROBOT,
               sv->name, refused, NV);
        failures++;
    }
    /* with a tolerance the NaN lane never converges: its bit, and the others still meet it */
    memcpy(t2, T, sizeof T);
    lane_set(&t2[0], L, (cdyn_real)NAN);
    memcpy(lam_b, LAM0, sizeof LAM0);
    m = sv->batch(&bd, &t, Q, V, t2, ddq_b, lam_b);
    if (m != 1 << L) {
        printf("FAIL %s %s (default settings) with NaN in tau[0] of lane %d: mask %#x\n", ROBOT,
               sv->name, L, m);
        failures++;
    }
    for (l = 0; l < W; ++l)
        if (l != L && !(lane_get(&bd.primal_residual, l) <= t.abs_tol)) {
            printf("FAIL %s %s (default settings), NaN in lane %d: lane %d's residual %.3g\n", ROBOT,
                   sv->name, L, l, (double)lane_get(&bd.primal_residual, l));
            failures++;
        }
    printf("%s: %s NaN in tau of lane %d: mask bit %d only, the other lanes bit for bit"
           " (3 iterations); default settings: %d iterations (max_iter %d)\n", ROBOT, sv->name, L,
           L, bd.iterations, t.max_iter);
}

/* Bad settings (mu 0, -1, NaN, max_iter 0, -3, NULL): CDYN_E_ARG from both forms, and the batch
 * form writes neither ddq, lambda nor d. */
static void prox_bad_settings(solver *sv)
{
    static lanes ddq0[NV], lam0[NC];
    static bdata before;
    cdyn_prox_settings bad[5];
    int k, m, st;
    for (k = 0; k < 5; ++k)
        bad[k] = fixed_settings();
    bad[0].mu = 0;
    bad[1].mu = -1;
    bad[2].mu = (cdyn_real)NAN;
    bad[3].max_iter = 0;
    bad[4].max_iter = -3;
    for (k = 0; k <= 5; ++k) {
        const cdyn_prox_settings *p = k < 5 ? &bad[k] : NULL;
        memset(ddq_b, 0x5a, sizeof ddq_b);
        memset(lam_b, 0x5a, sizeof lam_b);
        memcpy(ddq0, ddq_b, sizeof ddq_b);
        memcpy(lam0, lam_b, sizeof lam_b);
        memcpy(&before, &bd, sizeof bd);
        m = sv->batch(&bd, p, Q, V, T, ddq_b, lam_b);
        st = sv->single(&sd, p, q_of[0], v_of[0], tau_of[0], sddq, slam);
        if (m != CDYN_E_ARG || st != CDYN_E_ARG || memcmp(ddq_b, ddq0, sizeof ddq_b) != 0 ||
            memcmp(lam_b, lam0, sizeof lam_b) != 0 || memcmp(&before, &bd, sizeof bd) != 0) {
            printf("FAIL %s %s bad settings %d (mu %g, max_iter %d%s): returned %d (single %d),"
                   " or wrote ddq, lambda or d\n", ROBOT, sv->name, k, p ? (double)p->mu : 0,
                   p ? p->max_iter : 0, p ? "" : ", NULL", m, st);
            failures++;
        }
    }
}

#if CONTACTS
/* NAME_batch_prox_ltl_derivatives after NAME_batch_prox_ltl (default settings), at the batch
 * solve's ddq and lambda: mask 0, and each lane's six matrices as the single-state function's
 * after the lane's single-state solve (which leaves the factor; fed the batch lane's ddq and
 * lambda, so both differentiate at one point). Bit for bit under -DBATCH_EXACT, else within
 * 16 eps (cond1(M) + cond1(G + mu I)) of the lane at the solve's mu (M^-1 and G^-1 applied to
 * the derivative terms; G^-1's proximal steps stop at a few roundings) or TOL. Then a NaN in
 * lane L's ddq: mask bit L only, the other lanes bit for bit the clean run's. */
static lanes PD[6][NV * NV], PD0[6][NV * NV];
static cdyn_real spd[6][NV * NV];

static void check_prox_derivatives(void)
{
    static const char *const what[6] = { "prox_ltl_derivatives ddq_dq", "prox_ltl_derivatives ddq_dv",
                                         "prox_ltl_derivatives ddq_dtau", "prox_ltl_derivatives lambda_dq",
                                         "prox_ltl_derivatives lambda_dv", "prox_ltl_derivatives lambda_dtau" };
    static cdyn_real G[NC * NC], Ml[NV * NV], Mi[NV * NV];
    static lanes ddq_nan[NV];
    cdyn_prox_settings t = CDYN_PROX_SETTINGS_DEFAULT;
    cdyn_real al[NV], lam[NC], x[NV], y[NC];
    const int L = W > 2 ? 2 : W - 1;
    int l, k, m, st;
    memcpy(lam_b, LAM0, sizeof LAM0);
    m = BF(prox_ltl)(&bd, &t, Q, V, T, ddq_b, lam_b);
    if (m != 0) {
        printf("FAIL %s batch_prox_ltl (default settings) before the derivatives: mask %#x\n", ROBOT, m);
        failures++;
    }
    m = BF(prox_ltl_derivatives)(&bd, &t, Q, V, ddq_b, lam_b, PD[0], PD[1], PD[2], PD[3], PD[4], PD[5]);
    if (m != 0) {
        printf("FAIL %s batch_prox_ltl_derivatives: mask %#x\n", ROBOT, m);
        failures++;
    }
    for (l = 0; l < W; ++l) {
        double econd, tol;
        F(crba)(&sd, q_of[l], Ml);
        F(minv)(&sd, q_of[l], Mi);
        F(delassus)(&sd, q_of[l], 0, G);
        for (k = 0; k < NC; ++k)
            G[k * NC + k] += t.mu;
        econd = EPS * (norm1(Ml) * norm1(Mi) + cond1(G, NC));
        tol = 16 * econd > TOL ? 16 * econd : TOL;
        lanes_get(al, ddq_b, NV, l);
        lanes_get(lam, lam_b, NC, l);
        st = single_prox(&solvers[0], l, &t, tau_of[l], x, y);
        if (st < 0 || F(prox_ltl_derivatives)(&sd, &t, q_of[l], v_of[l], al, lam, spd[0], spd[1],
                                              spd[2], spd[3], spd[4], spd[5]) != 0) {
            printf("FAIL %s single-state prox_ltl or its derivatives refused lane %d\n", ROBOT, l);
            failures++;
        }
        for (k = 0; k < 6; ++k)
            check_out(PD[k], spd[k], k < 3 ? NV * NV : NC * NV, k < 3 ? K_PD_DDQ : K_PD_LAMBDA,
                      what[k], l, tol, econd);
    }
    /* a NaN in lane L's ddq: bit L, the others untouched */
    memcpy(PD0, PD, sizeof PD);
    memcpy(ddq_nan, ddq_b, sizeof ddq_nan);
    lane_set(&ddq_nan[0], L, (cdyn_real)NAN);
    m = BF(prox_ltl_derivatives)(&bd, &t, Q, V, ddq_nan, lam_b, PD[0], PD[1], PD[2], PD[3], PD[4], PD[5]);
    for (k = 0; k < 6; ++k)
        if (!others_untouched(PD[k], PD0[k], k < 3 ? NV * NV : NC * NV, L)) {
            printf("FAIL %s batch_prox_ltl_derivatives: a NaN in lane %d's ddq changed another lane's"
                   " %s\n", ROBOT, L, what[k]);
            failures++;
        }
    if (m != 1 << L) {
        printf("FAIL %s batch_prox_ltl_derivatives: a NaN in lane %d's ddq gave mask %#x\n", ROBOT, L, m);
        failures++;
    }
    printf("%s: prox_ltl_derivatives after batch_prox_ltl (%d iterations), NaN in lane %d: mask %#x\n",
           ROBOT, bd.iterations, L, m);
}
#endif

static void check_prox_nonfinite(void)
{
    int i;
    for (i = 0; i < NSOLVERS; ++i) {
        prox_nan(&solvers[i]);
        prox_bad_settings(&solvers[i]);
    }
#if CONTACTS
    check_prox_derivatives();
#endif
}
#endif

/* ---- pack / unpack ---- */

static void check_pack(int n)
{
    enum { GUARD = 2 };
    static lanes packed[6 * NV + 8 + GUARD];
    static cdyn_real states[W * (6 * NV + 8)], back[W * (6 * NV + 8) + GUARD];
    static unsigned char ref_packed[sizeof packed], ref_back[sizeof back];
    const int total = W * n;
    int i, l, bad = 0;
    unsigned s = 0x9e3779b9u + (unsigned)n;
    for (i = 0; i < total; ++i) {
        unsigned char bytes[sizeof(cdyn_real)];
        size_t b;
        for (b = 0; b < sizeof bytes; ++b) {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            bytes[b] = (unsigned char)(s >> 7);
        }
        memcpy(&states[i], bytes, sizeof bytes); /* any bit pattern: NaNs with payloads too */
    }
    if (total > 4) {
        states[0] = (cdyn_real)-0.0;
        states[1] = (cdyn_real)INFINITY;
        states[2] = (cdyn_real)NAN;
        states[3] = (cdyn_real)1e-310; /* subnormal in double, 0 in float */
    }
    memset(packed, 0xa5, sizeof packed);
    memcpy(ref_packed, packed, sizeof packed);
    BF(pack)(packed, states, n);
    for (i = 0; i < n; ++i)
        for (l = 0; l < W; ++l) {
            cdyn_real x = lane_get(&packed[i], l);
            if (memcmp(&x, &states[l * n + i], sizeof x) != 0)
                bad++;
        }
    if (memcmp((char *)packed + n * sizeof(lanes), ref_packed + n * sizeof(lanes),
               sizeof packed - n * sizeof(lanes)) != 0)
        bad += 1000;
    memset(back, 0x3c, sizeof back);
    memcpy(ref_back, back, sizeof back);
    BF(unpack)(back, packed, n);
    if (memcmp(back, states, (size_t)total * sizeof *back) != 0 ||
        memcmp((char *)back + total * sizeof *back, ref_back + total * sizeof *back,
               sizeof back - total * sizeof *back) != 0)
        bad += 100000;
    if (bad) {
        printf("FAIL %s pack/unpack of %d entries: %d (1: a lane misplaced, 1000: written past n,"
               " 100000: the round trip changed bits or wrote past)\n", ROBOT, n, bad);
        failures++;
    }
}

int main(int argc, char **argv)
{
    int batches = 3, angles = 0, expect_w = 0, constrained = 0, contacts = 0, b, k, i;
    cdyn_real singular_q[NQ];
    const cdyn_real *singular = NULL;
    for (i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--batches") && i + 1 < argc)
            batches = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--angles"))
            angles = 1;
        else if (!strcmp(argv[i], "--constrained"))
            constrained = 1;
        else if (!strcmp(argv[i], "--contacts-only"))
            contacts = 1;
        else if (!strcmp(argv[i], "--expect-w") && i + 1 < argc)
            expect_w = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--singular") && i + 1 < argc) {
            char *p = argv[++i];
            for (k = 0; k < NQ; ++k) {
                singular_q[k] = (cdyn_real)strtod(p, &p);
                if (*p == ',')
                    ++p;
            }
            singular = singular_q;
        } else {
            fprintf(stderr, "usage: %s [--batches N] [--angles] [--expect-w N] [--singular a,b,...]"
                    " [--constrained] [--contacts-only]\n",
                    argv[0]);
            return 2;
        }
    }
    self_test();
    if (expect_w && W != expect_w) {
        printf("FAIL %s: %s_BATCH_W is %d, this build should have %d\n", ROBOT, STR(BATCH_UPPER), W,
               expect_w);
        failures++;
    }
    if (sizeof(lanes) != W * sizeof(cdyn_real)) {
        printf("FAIL %s: sizeof lanes %u, not W scalars\n", ROBOT, (unsigned)sizeof(lanes));
        failures++;
    }
#if C(BATCH_VECTOR)
    if (__alignof__(lanes) != sizeof(lanes)) {
        printf("FAIL %s: the lane vector is not aligned to its size\n", ROBOT);
        failures++;
    }
#endif
    if (constrained != CON) {
        printf("FAIL %s: %s, but --constrained %s\n", ROBOT,
               CON ? "the batch proxLTL is generated" : "no batch proxLTL is generated",
               constrained ? "was given" : "was not given");
        failures++;
    }
#if CON
    /* the list says which robots have the contacts-only solvers: none may silently drop out */
    if (contacts != CONTACTS) {
        printf("FAIL %s: %s, but --contacts-only %s\n", ROBOT,
               CONTACTS ? "the batch constrainedABA and proxPV are generated" : "no batch"
               " constrainedABA or proxPV is generated", contacts ? "was given" : "was not given");
        failures++;
    }
#else
    if (contacts) {
        printf("FAIL %s: --contacts-only, but the robot has no constraint set\n", ROBOT);
        failures++;
    }
#endif
    check_pack(NQ);
    check_pack(NV);
    check_pack(6 * NV);
    check_pack(1);
    check_pack(0);
    for (b = 0; b < batches; ++b) {
        draw_states(angles && b == 0);
        check_placements();
        check_jacobians();
        check_dynamics();
#if FWD
        check_forward();
#endif
#if CON
        draw_capture();
        check_prox();
#endif
    }
#if CON
    check_prox_nonfinite();
#endif
    check_rnea_derivatives_nonfinite();
#if FWD
    check_nonfinite(singular);
#else
    if (singular) {
        printf("FAIL %s: --singular on a robot without forward dynamics\n", ROBOT);
        failures++;
    }
    printf("%s: no forward dynamics (M singular): minv, aba and their NaN checks do not exist\n", ROBOT);
#endif
    /* every lane has its own state, so the lanes' results differ: a form computing one lane
     * and copying it would fail the comparisons, and these would show it */
    for (k = 0; k < K_COUNT; ++k)
        /* (the derivatives: with the forward dynamics; fingers' massless links give every
         * lane the same, zero dtau_dq and dtau_dv) */
        if ((k == K_PLACE || k == K_RNEA || (FWD && (k == K_RD_DQ || k == K_RD_DV))) &&
            !lanes_differ[k]) {
            printf("FAIL %s %s: lanes 0 and 1 gave the same results: the states are not distinct\n",
                   ROBOT, kind_name[k]);
            failures++;
        }
    printf("%s W=%d %s %s%s: %d x %d states, NQ %d NV %d, %d frames; worst |batch - single| / max|single|:\n",
           ROBOT, W, sizeof(cdyn_real) == 4 ? "float" : "double",
           C(BATCH_VECTOR) ? "vector" : "plain", EXACT ? ", bit for bit" : "", batches, W, NQ, NV,
           NFRAMES);
    for (k = 0; k < K_COUNT; ++k)
        if (compared[k]) {
            printf("  %-11s %.3g (%ld of %ld outputs bit for bit)", kind_name[k], worst[k],
                   bit_equal[k], compared[k]);
#if FWD
            if (k == K_MINV || k == K_ABA || k == K_AD_DQ || k == K_AD_DV || k == K_AD_DTAU)
                printf(", %.3g eps cond1(M)", worst_over_cond[k]);
            if (k == K_PD_DDQ || k == K_PD_LAMBDA)
                printf(", %.3g eps (cond1(M) + cond1(G + mu I))", worst_over_cond[k]);
#endif
#if CON
            if (k >= K_PROX && (k - K_PROX) % 3 == 1)
                printf(", ddq and lambda %.3g eps (cond1(M) + cond1(G + mu I)%s)",
                       solvers[(k - K_PROX) / 3].worst_over_kkt,
                       solvers[(k - K_PROX) / 3].augmented ? " + norm1(G) / mu" : "");
            if (k >= K_PROX && (k - K_PROX) % 3 == 1 && VEC_ROUNDED(&solvers[(k - K_PROX) / 3]))
                printf("; converged (tolerances) %.3g", solvers[(k - K_PROX) / 3].worst_conv);
#endif
            printf("\n");
        }
    printf("%s: %s\n", ROBOT, failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
