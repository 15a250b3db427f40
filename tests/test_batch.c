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
 *   NULL form: d->M on the tree pattern against the single-state d->M), minv, aba (their
 *   masks 0, the single-state statuses 0).
 * Tolerance: max_k |batch_k - single_k| <= TOL max_k |single_k| per output and lane, TOL =
 * 1e-12 in double and 1e-5 in float (the forms are the same operations in the same order; only
 * an fma contracted in one and not the other can move the last bits, by a few eps for
 * everything but minv and aba); minv and aba, whose roundings are amplified by cond(M), get
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
 * pack/unpack: bit patterns (NaNs with payloads, infinities, -0, subnormals) round-trip exactly,
 * x[i] lane l = states[l n + i], nothing written outside n entries.
 * The comparison itself is checked first: it must reject one entry off by one ulp (exact) or
 * by twice the tolerance.
 * A constraint set (--constrained; NAME_batch_prox_ltl exists): per batch, each lane captures
 * its references at its own configuration (its q moved by a small step: the Baumgarte terms
 * act) and gets its own warm-start lambda; batch_constraint_capture's references, and
 * batch_prox_ltl's ddq, lambda and residuals against the single-state constraint_capture and
 * prox_ltl: (a) mu 1e-2, exactly 3 iterations, Kp and Kd, warm start: mask 0, d->iterations 3;
 * (b) the default settings: d->iterations the most any lane's single-state call takes, a mask
 * bit exactly where the lane's primal residual misses abs_tol, and each lane the single-state
 * result of exactly d->iterations iterations (plain form: of its own count); (c) max_iter one
 * fewer: the bits exactly the lanes whose single-state call is CDYN_E_NOT_CONVERGED.
 * Bit for bit under -DBATCH_EXACT, else max(TOL, 16 eps (cond1(M) + cond1(G + mu I))) of the
 * lane (the residuals: that times max|lambda|). Then NaN in each tau entry of lane L (fixed
 * count): the mask bit L as the single-state status, the other lanes bit for bit; with the
 * default settings bit L only and the other lanes within abs_tol; bad settings (mu 0, -1,
 * NaN, max_iter 0, -3, NULL): CDYN_E_ARG, ddq, lambda and d unwritten.
 *
 * Options: --batches N (default 3: 3 W states), --angles (every q entry is a revolute angle:
 * the last lane's angles are moved by ~1.5e5 rad, past cdyn_sincos_n's 1e5 (float 1e4) switch
 * to libm, in the first batch), --singular a,b,... (NQ values), --expect-w N, --constrained (the
 * robot has a constraint set: its batch proxLTL must exist, and is checked).
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
    K_PLACE, K_JAC, K_RNEA, K_NLE, K_GRAV, K_CRBA, K_CRBA_TREE, K_MINV, K_ABA,
    K_CAPTURE, K_PROX_DDQ, K_PROX_LAMBDA, K_PROX_RES, K_COUNT
};
static const char *const kind_name[K_COUNT] = { "placement", "jacobian", "rnea", "nle", "gravity",
                                                 "crba", "crba(NULL)", "minv", "aba", "capture",
                                                 "prox ddq", "prox lambda", "prox resid" };
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

static void check_dynamics(void)
{
    int l;
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
static double worst_over_cond[K_COUNT]; /* |batch - single| / max|single| / (eps cond1(M)) */

static double norm1(const cdyn_real *A)
{
    double best = 0;
    int i, j;
    for (j = 0; j < NV; ++j) {
        double c = 0;
        for (i = 0; i < NV; ++i)
            c += fabs((double)A[i * NV + j]);
        if (c > best)
            best = c;
    }
    return best;
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
/* ---- proxLTL on the constraint set (NAME_batch_constraint_capture, NAME_batch_prox_ltl) ----
 * Each lane captures its references at its own configuration qc (the lane's q moved by a small
 * random step, so that the contacts' position and rotation errors are not zero and the
 * Baumgarte gains act), and gets its own warm-start lambda0. */
static cdyn_real qc_of[W][NQ], lam0_of[W][NC], Kp[NCON], Kd[NCON];
static lanes QC[NQ], LAM0[NC];
/* Where the two sides may round differently: ddq and lambda go through M's factor and, every
 * iteration, through G + mu I's, as minv and aba through M's: max(TOL, 16 eps (cond1(M) +
 * cond1(G + mu I))) of the lane, relative to the largest entry; the residuals (changes of
 * lambda) absolutely, that bound times max|lambda|. */
static double tol_kkt[W], eps_kkt[W], worst_over_kkt;

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

/* One lane's single-state proxLTL: capture at qc, then solve from lambda0 (read when warm). */
static int single_prox(int l, const cdyn_prox_settings *s, const cdyn_real *tau, cdyn_real *ddq,
                       cdyn_real *lambda)
{
    F(constraint_capture)(&sd, qc_of[l]);
    memcpy(lambda, lam0_of[l], sizeof lam0_of[l]);
    return F(prox_ltl)(&sd, s, q_of[l], v_of[l], tau, ddq, lambda);
}

/* Lane l of the batch results against the single-state ones: ddq, lambda (relative, tol of the
 * lane) and the two residuals (absolute: tol times max|lambda|). */
static void compare_prox(const lanes *ddq, const lanes *lambda, const cdyn_real *sddq,
                         const cdyn_real *slam, double sprimal, double sdual, int l,
                         const char *what)
{
    cdyn_real got[NV > NC ? NV : NC], res[2], sres[2];
    double lmax = 0, tol = tol_kkt[l], e = 0, scale = 0, el = 0;
    char w[96];
    int k;
    lanes_get(got, ddq, NV, l);
    snprintf(w, sizeof w, "%s ddq", what);
    compare(got, sddq, NV, K_PROX_DDQ, EXACT, tol, w, l, 0);
    for (k = 0; k < NV; ++k) {
        if (fabs((double)got[k] - (double)sddq[k]) > e)
            e = fabs((double)got[k] - (double)sddq[k]);
        if (fabs((double)sddq[k]) > scale)
            scale = fabs((double)sddq[k]);
    }
    lanes_get(got, lambda, NC, l);
    snprintf(w, sizeof w, "%s lambda", what);
    compare(got, slam, NC, K_PROX_LAMBDA, EXACT, tol, w, l, 0);
    for (k = 0; k < NC; ++k) {
        if (fabs((double)slam[k]) > lmax)
            lmax = fabs((double)slam[k]);
        if (fabs((double)got[k] - (double)slam[k]) > el)
            el = fabs((double)got[k] - (double)slam[k]);
    }
    if (scale > 0 && e / scale / eps_kkt[l] > worst_over_kkt)
        worst_over_kkt = e / scale / eps_kkt[l];
    if (lmax > 0 && el / lmax / eps_kkt[l] > worst_over_kkt)
        worst_over_kkt = el / lmax / eps_kkt[l];
    /* the residuals: bit for bit, or within tol max|lambda| (a difference of two lambdas) */
    res[0] = lane_get(&bd.dual_residual, l);
    res[1] = lane_get(&bd.primal_residual, l);
    sres[0] = (cdyn_real)sdual;
    sres[1] = (cdyn_real)sprimal;
    snprintf(w, sizeof w, "%s residuals (dual, primal)", what);
    compare(res, sres, 2, K_PROX_RES, EXACT,
            lmax > 0 && fabs(sdual) > 0 ? tol * lmax / fabs(sdual) : tol, w, l, 0);
}

/* Fixed count, then a tolerance: lane by lane against the single-state proxLTL. */
static void check_prox(void)
{
    static lanes ddq[NV], lam[NC];
    static cdyn_real sddq[NV], slam[NC], Gmu[NC * NC], Ml[NV * NV], Mi[NV * NV];
    static int counts[W];
    const double eps = sizeof(cdyn_real) == 4 ? 5.96e-8 : 1.11e-16;
    cdyn_prox_settings s = fixed_settings(), t = CDYN_PROX_SETTINGS_DEFAULT;
    char what[96];
    int l, m, st, most = 0;
    for (l = 0; l < W; ++l) {
        F(crba)(&sd, q_of[l], Ml);
        F(minv)(&sd, q_of[l], Mi);
        if (F(delassus)(&sd, q_of[l], s.mu, Gmu) != 0) {
            printf("FAIL %s single-state delassus refused lane %d's state\n", ROBOT, l);
            failures++;
        }
        eps_kkt[l] = eps * (norm1(Ml) * norm1(Mi) + cond1(Gmu, NC));
        tol_kkt[l] = 16 * eps_kkt[l] > TOL ? 16 * eps_kkt[l] : TOL;
    }
    check_capture();

    /* exactly 3 iterations, gains, warm start */
    memcpy(lam, LAM0, sizeof LAM0);
    m = BF(prox_ltl)(&bd, &s, Q, V, T, ddq, lam);
    if (m != 0 || bd.iterations != 3) {
        printf("FAIL %s batch_prox_ltl (3 iterations): mask %#x, %d iterations\n", ROBOT, m,
               bd.iterations);
        failures++;
    }
    for (l = 0; l < W; ++l) {
        st = single_prox(l, &s, tau_of[l], sddq, slam);
        if (st != 3) {
            printf("FAIL %s single-state prox_ltl (3 iterations) returned %d on lane %d\n", ROBOT, st, l);
            failures++;
        }
        compare_prox(ddq, lam, sddq, slam, sd.primal_residual, sd.dual_residual, l,
                     "prox_ltl (3 iterations)");
    }

    /* the default settings (abs_tol 1e-10): the most iterations any lane needs, on every lane */
    t.max_iter = 100;
    memcpy(lam, LAM0, sizeof LAM0);
    m = BF(prox_ltl)(&bd, &t, Q, V, T, ddq, lam);
    for (l = 0; l < W; ++l) {
        cdyn_real pr = lane_get(&bd.primal_residual, l);
        st = single_prox(l, &t, tau_of[l], sddq, slam);
        counts[l] = st == CDYN_E_NOT_CONVERGED ? t.max_iter : st;
        if (counts[l] > most)
            most = counts[l];
        if (st < 0 && st != CDYN_E_NOT_CONVERGED) {
            printf("FAIL %s single-state prox_ltl (default settings) returned %d on lane %d\n", ROBOT,
                   st, l);
            failures++;
        }
        if (((m >> l) & 1) != !(pr <= t.abs_tol)) {
            printf("FAIL %s batch_prox_ltl (default settings) lane %d: mask bit %d, primal residual"
                   " %.3g against abs_tol %.3g\n", ROBOT, l, (m >> l) & 1, (double)pr, (double)t.abs_tol);
            failures++;
        }
#if C(BATCH_VECTOR)
        (void)sddq;
#else
        /* plain: each lane stops at its own count, as the single-state function */
        compare_prox(ddq, lam, sddq, slam, sd.primal_residual, sd.dual_residual, l,
                     "prox_ltl (default settings, plain)");
#endif
    }
    if (bd.iterations != most) {
        printf("FAIL %s batch_prox_ltl (default settings): %d iterations, the lanes' single-state"
               " counts' maximum is %d\n", ROBOT, bd.iterations, most);
        failures++;
    }
#if C(BATCH_VECTOR)
    /* every lane ran d->iterations: the single-state function run for exactly that many */
    {
        cdyn_prox_settings e = t;
        e.abs_tol = 0;
        e.max_iter = bd.iterations > 0 ? bd.iterations : 1;
        for (l = 0; l < W; ++l) {
            st = single_prox(l, &e, tau_of[l], sddq, slam);
            snprintf(what, sizeof what, "prox_ltl (default settings, %d iterations)", e.max_iter);
            compare_prox(ddq, lam, sddq, slam, sd.primal_residual, sd.dual_residual, l, what);
        }
    }
#endif
    printf("%s: prox_ltl default settings: %d iterations, single-state counts", ROBOT, bd.iterations);
    for (l = 0; l < W; ++l)
        printf(" %d", counts[l]);
    printf(", mask %#x", m);
    /* one iteration fewer than the most: the lanes that needed the most miss abs_tol, their
     * bits (the single-state CDYN_E_NOT_CONVERGED), the others' clear; results as the
     * single-state ones, every lane having run max_iter */
    if (most > 1) {
        int want = 0;
        t.max_iter = most - 1;
        memcpy(lam, LAM0, sizeof LAM0);
        m = BF(prox_ltl)(&bd, &t, Q, V, T, ddq, lam);
        for (l = 0; l < W; ++l) {
            st = single_prox(l, &t, tau_of[l], sddq, slam);
            want |= (st == CDYN_E_NOT_CONVERGED) << l;
            snprintf(what, sizeof what, "prox_ltl (default settings, max_iter %d)", t.max_iter);
            compare_prox(ddq, lam, sddq, slam, sd.primal_residual, sd.dual_residual, l, what);
        }
        if (m != want || want == 0 || bd.iterations != t.max_iter) {
            printf("\nFAIL %s batch_prox_ltl (default settings, max_iter %d): mask %#x, %d iterations;"
                   " the single-state functions missed abs_tol on %#x\n", ROBOT, t.max_iter, m,
                   bd.iterations, want);
            failures++;
        }
        printf("; max_iter %d: mask %#x", t.max_iter, m);
    }
    printf("\n");
}

/* A NaN in each tau entry of lane L (fixed count): the mask against the single-state status,
 * the other lanes bit for bit the clean run's; then bad settings: CDYN_E_ARG, nothing written. */
static void check_prox_nonfinite(void)
{
    static lanes ddq0[NV], lam0[NC], ddq[NV], lam[NC], t2[NV];
    static cdyn_real sddq[NV], slam[NC], ts[NV];
    static bdata before;
    const int L = W > 2 ? 2 : W - 1;
    cdyn_prox_settings s = fixed_settings(), bad[5];
    lanes pr0, du0;
    int k, m, st, refused = 0;
    memcpy(lam0, LAM0, sizeof LAM0);
    m = BF(prox_ltl)(&bd, &s, Q, V, T, ddq0, lam0);
    pr0 = bd.primal_residual;
    du0 = bd.dual_residual;
    for (k = 0; k < NV; ++k) {
        memcpy(t2, T, sizeof T);
        lane_set(&t2[k], L, (cdyn_real)NAN);
        memcpy(ts, tau_of[L], sizeof ts);
        ts[k] = (cdyn_real)NAN;
        memcpy(lam, LAM0, sizeof LAM0);
        m = BF(prox_ltl)(&bd, &s, Q, V, t2, ddq, lam);
        st = single_prox(L, &s, ts, sddq, slam);
        refused += st < 0;
        if (m != (st < 0 ? 1 << L : 0) || bd.iterations != 3) {
            printf("FAIL %s prox_ltl with NaN in tau[%d] of lane %d: mask %#x, %d iterations; the"
                   " single-state prox_ltl returned %d\n", ROBOT, k, L, m, bd.iterations, st);
            failures++;
        }
        if (!others_untouched(ddq, ddq0, NV, L) || !others_untouched(lam, lam0, NC, L) ||
            !others_untouched(&bd.primal_residual, &pr0, 1, L) ||
            !others_untouched(&bd.dual_residual, &du0, 1, L)) {
            printf("FAIL %s prox_ltl with NaN in tau[%d] of lane %d: another lane changed\n", ROBOT, k, L);
            failures++;
        }
    }
    if (refused != NV) {
        printf("FAIL %s: a NaN in tau refused by the single-state prox_ltl in %d of %d entries\n", ROBOT,
               refused, NV);
        failures++;
    }
    /* with a tolerance the NaN lane never converges: its bit, and the others still meet it */
    {
        cdyn_prox_settings t = CDYN_PROX_SETTINGS_DEFAULT;
        int l;
        memcpy(t2, T, sizeof T);
        lane_set(&t2[0], L, (cdyn_real)NAN);
        memcpy(lam, LAM0, sizeof LAM0);
        m = BF(prox_ltl)(&bd, &t, Q, V, t2, ddq, lam);
        if (m != 1 << L) {
            printf("FAIL %s prox_ltl (default settings) with NaN in tau[0] of lane %d: mask %#x\n",
                   ROBOT, L, m);
            failures++;
        }
        for (l = 0; l < W; ++l)
            if (l != L && !(lane_get(&bd.primal_residual, l) <= t.abs_tol)) {
                printf("FAIL %s prox_ltl (default settings), NaN in lane %d: lane %d's residual %.3g\n",
                       ROBOT, L, l, (double)lane_get(&bd.primal_residual, l));
                failures++;
            }
        printf("%s: prox_ltl NaN in tau of lane %d: mask bit %d only, the other lanes bit for bit"
               " (3 iterations); default settings: %d iterations (max_iter %d)\n",
               ROBOT, L, L, bd.iterations, t.max_iter);
    }
    /* bad settings */
    for (k = 0; k < 5; ++k)
        bad[k] = s;
    bad[0].mu = 0;
    bad[1].mu = -1;
    bad[2].mu = (cdyn_real)NAN;
    bad[3].max_iter = 0;
    bad[4].max_iter = -3;
    for (k = 0; k <= 5; ++k) {
        const cdyn_prox_settings *p = k < 5 ? &bad[k] : NULL;
        memset(ddq, 0x5a, sizeof ddq);
        memset(lam, 0x5a, sizeof lam);
        memcpy(ddq0, ddq, sizeof ddq);
        memcpy(lam0, lam, sizeof lam);
        memcpy(&before, &bd, sizeof bd);
        m = BF(prox_ltl)(&bd, p, Q, V, T, ddq, lam);
        st = F(prox_ltl)(&sd, p, q_of[0], v_of[0], tau_of[0], sddq, slam);
        if (m != CDYN_E_ARG || st != CDYN_E_ARG || memcmp(ddq, ddq0, sizeof ddq) != 0 ||
            memcmp(lam, lam0, sizeof lam) != 0 || memcmp(&before, &bd, sizeof bd) != 0) {
            printf("FAIL %s prox_ltl bad settings %d (mu %g, max_iter %d%s): returned %d (single %d),"
                   " or wrote ddq, lambda or d\n", ROBOT, k, p ? (double)p->mu : 0, p ? p->max_iter : 0,
                   p ? "" : ", NULL", m, st);
            failures++;
        }
    }
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
    int batches = 3, angles = 0, expect_w = 0, constrained = 0, b, k, i;
    cdyn_real singular_q[NQ];
    const cdyn_real *singular = NULL;
    for (i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--batches") && i + 1 < argc)
            batches = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--angles"))
            angles = 1;
        else if (!strcmp(argv[i], "--constrained"))
            constrained = 1;
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
                    " [--constrained]\n",
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
        if ((k == K_PLACE || k == K_RNEA) && !lanes_differ[k]) {
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
            if (k == K_MINV || k == K_ABA)
                printf(", %.3g eps cond1(M)", worst_over_cond[k]);
#endif
#if CON
            if (k == K_PROX_LAMBDA)
                printf(", ddq and lambda %.3g eps (cond1(M) + cond1(G + mu I))", worst_over_kkt);
#endif
            printf("\n");
        }
    printf("%s: %s\n", ROBOT, failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
