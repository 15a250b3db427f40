/* fuzz_generated.c — libFuzzer target over the generated code of three committed sample
 * robots (generated/arm7: a 6d contact, quadruped12: floating base and four 3d contacts,
 * fourbar: a loop) and the generic runtime's ABA, fed raw fuzzer bytes as doubles, so NaN,
 * infinities, subnormals and huge values all occur.
 *
 * Nothing may crash or read out of bounds (ASan, UBSan), and every result must keep the
 * contract the headers' comments state; a broken one prints the check and aborts, which
 * libFuzzer reports with the input. The input (bytes past its end read as zero):
 *   byte 0  the robot (mod 3)          byte 3  a frame id: byte - 64, valid or not
 *   byte 1  FLAG_* bits                byte 4  a reference: byte % 4 - 1, valid or not
 *   byte 2  max_iter: byte % 13 - 2    byte 5  the byte the workspace is filled with
 *   then doubles, 8 bytes each: mu, abs_tol, rel_tol, dt, restitution, and q, v, tau, a,
 *   lambda, Kp, Kd at the robot's sizes.
 * With FLAG_TAME each double is made finite with |x| < 1e3 and each quaternion or
 * [cos, sin] pair normalised: ABA must then succeed and agree with the generic runtime,
 * and every output must be finite. Outputs are filled with NaN before each call, so an
 * entry a function forgets to write shows up as well.
 *
 * The three APIs differ only by their prefix: the per-robot part below is written once
 * and instantiated by including this file again with FUZZ_ROBOT defined (a table of
 * function pointers would need casts between function types that take different data
 * types, whose calls are undefined behaviour). */
#ifndef FUZZ_ROBOT

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm7.h"
#include "arm7_model.h"
#include "fourbar.h"
#include "fourbar_model.h"
#include "quadruped12.h"
#include "quadruped12_model.h"

enum {
    FLAG_TAME = 1, /* finite, moderate inputs (above) */
    FLAG_KP = 2,   /* Baumgarte gains from the input, else NULL */
    FLAG_KD = 4,
    FLAG_WARM = 8,  /* settings.warm_start */
    FLAG_NO_L = 16, /* R_ltl_factor with L = NULL */
    FLAG_NO_D = 32  /* ... with D = NULL */
};
#define FUZZ_CAPTURE(flags) ((flags) >> 6) /* 0: capture at q, 1: at q_next, else keep the fill */
#define FUZZ_NX 96 /* the doubles q .. Kd of the largest robot (quadruped12: 93) */

typedef struct {
    int flags, frame, ref, fill;
    cdyn_prox_settings s; /* Kp and Kd are set per robot */
    cdyn_real dt, restitution;
    cdyn_real x[FUZZ_NX]; /* q, v, tau, a, lambda, Kp, Kd */
} fuzz_input;

static const char *fuzz_robot = "";

static void fuzz_fail(const char *what, int line)
{
    fprintf(stderr, "fuzz_generated: %s: check at line %d failed: %s\n", fuzz_robot, line, what);
    abort();
}
#define CHECK(c) ((c) ? (void)0 : fuzz_fail(#c, __LINE__))

static int all_finite(const cdyn_real *x, int n)
{
    int k;
    for (k = 0; k < n; ++k)
        if (!isfinite(x[k]))
            return 0;
    return 1;
}

static cdyn_real max_abs(const cdyn_real *x, int n)
{
    cdyn_real m = 0;
    int k;
    for (k = 0; k < n; ++k)
        m = fabs(x[k]) > m ? fabs(x[k]) : m;
    return m;
}

static void poison(cdyn_real *x, int n)
{
    memset(x, 0xff, (size_t)n * sizeof *x); /* all bits set: a NaN */
}

static int same_bits(const cdyn_real *a, const cdyn_real *b, int n)
{
    return memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

/* M (n x n) equals its transpose bit for bit: the generated code copies one triangle. */
static int symmetric(const cdyn_real *M, int n)
{
    int i, j;
    for (i = 0; i < n; ++i)
        for (j = 0; j < i; ++j)
            if (memcmp(&M[i * n + j], &M[j * n + i], sizeof *M) != 0)
                return 0;
    return 1;
}

/* The part of body b's coordinates that has unit norm: a quaternion [qx qy qz qw] or a
 * [cos, sin] pair; *one is where the neutral value's 1 sits. Returns its length, or 0. */
static int unit_part(const cdyn_body *b, int *at, int *one)
{
    switch (b->type) {
    case CDYN_JOINT_FREEFLYER: *at = b->idx_q + 3, *one = 3; return 4;
    case CDYN_JOINT_REVOLUTE_UNBOUNDED: *at = b->idx_q, *one = 0; return 2;
    case CDYN_JOINT_PLANAR: *at = b->idx_q + 2, *one = 0; return 2;
    default: return 0;
    }
}

static void normalise(const cdyn_model *m, cdyn_real *q)
{
    int b, k, at, one, n;
    for (b = 0; b < m->nbodies; ++b) {
        cdyn_real *x, s, n2 = 0;
        if ((n = unit_part(&m->bodies[b], &at, &one)) == 0)
            continue;
        x = q + at;
        s = max_abs(x, n); /* scaled first: the squares of subnormals vanish */
        for (k = 0; k < n; ++k) {
            x[k] = s > 0 ? x[k] / s : k == one;
            n2 += x[k] * x[k];
        }
        for (k = 0; k < n; ++k)
            x[k] /= sqrt(n2);
    }
}

static int normalised(const cdyn_model *m, const cdyn_real *q, cdyn_real tol)
{
    int b, k, at, one, n;
    for (b = 0; b < m->nbodies; ++b) {
        cdyn_real n2 = 0;
        n = unit_part(&m->bodies[b], &at, &one);
        for (k = 0; k < n; ++k)
            n2 += q[at + k] * q[at + k];
        if (n > 0 && !(fabs(n2 - 1) <= tol))
            return 0;
    }
    return 1;
}

/* R_aba and cdyn_aba: 0 with every ddq finite, CDYN_E_NONFINITE with some ddq not,
 * or CDYN_E_SINGULAR. */
static void check_aba(int rc, const cdyn_real *ddq, int nv)
{
    CHECK(rc == 0 || rc == CDYN_E_SINGULAR || rc == CDYN_E_NONFINITE);
    CHECK(rc != 0 || all_finite(ddq, nv));
    CHECK(rc != CDYN_E_NONFINITE || !all_finite(ddq, nv));
}

/* The constrained solvers and R_impulse: CDYN_E_ARG exactly for bad settings; else the
 * iterations (1..max_iter, exactly max_iter without a positive tolerance) with finite
 * results, CDYN_E_NOT_CONVERGED (only with a positive tolerance; its last iterate finite),
 * CDYN_E_SINGULAR, or CDYN_E_NONFINITE with some result not finite. */
static void check_solver(int rc, const cdyn_prox_settings *s, const cdyn_real *x, int nx,
                         const cdyn_real *lambda, int nc)
{
    const int finite = all_finite(x, nx) && all_finite(lambda, nc);
    if (!(s->mu > 0) || s->max_iter < 1) {
        CHECK(rc == CDYN_E_ARG);
        return;
    }
    CHECK(rc >= 1 || rc == CDYN_E_SINGULAR || rc == CDYN_E_NONFINITE || rc == CDYN_E_NOT_CONVERGED);
    CHECK(rc < 1 || (rc <= s->max_iter && finite));
    CHECK(rc != CDYN_E_NOT_CONVERGED || ((s->abs_tol > 0 || s->rel_tol > 0) && finite));
    CHECK(rc < 1 || s->abs_tol > 0 || s->rel_tol > 0 || rc == s->max_iter);
    CHECK(rc != CDYN_E_NONFINITE || !finite);
}

#define FUZZ_CAT_(a, b) a##b
#define FUZZ_CAT(a, b) FUZZ_CAT_(a, b)
#define FUZZ_STR_(a) #a
#define FUZZ_STR(a) FUZZ_STR_(a)
#define P(name) FUZZ_CAT(FUZZ_ROBOT, name) /* P(_aba): arm7_aba */
#define U(name) FUZZ_CAT(FUZZ_UPPER, name) /* U(_NQ): ARM7_NQ */

#define FUZZ_ROBOT arm7
#define FUZZ_UPPER ARM7
#include __FILE__
#undef FUZZ_ROBOT
#undef FUZZ_UPPER
#define FUZZ_ROBOT quadruped12
#define FUZZ_UPPER QUADRUPED12
#include __FILE__
#undef FUZZ_ROBOT
#undef FUZZ_UPPER
#define FUZZ_ROBOT fourbar
#define FUZZ_UPPER FOURBAR
#include __FILE__

/* libFuzzer calls this with unaligned bytes: everything is memcpy'd out. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t b[6] = { 0 };
    cdyn_real r[5 + FUZZ_NX] = { 0 };
    fuzz_input in;
    int k;
    memcpy(b, data, size < sizeof b ? size : sizeof b);
    if (size > sizeof b)
        memcpy(r, data + sizeof b, size - sizeof b < sizeof r ? size - sizeof b : sizeof r);
    if (b[1] & FLAG_TAME)
        for (k = 0; k < 5 + FUZZ_NX; ++k)
            r[k] = isfinite(r[k]) ? fmod(r[k], 1e3) : 0;
    memset(&in, 0, sizeof in);
    in.flags = b[1];
    in.frame = b[3] - 64;
    in.ref = b[4] % 4 - 1;
    in.fill = b[5];
    in.s.mu = r[0];
    in.s.abs_tol = r[1];
    in.s.rel_tol = r[2];
    in.s.max_iter = b[2] % 13 - 2;
    in.s.warm_start = (b[1] & FLAG_WARM) != 0;
    in.dt = r[3];
    in.restitution = r[4];
    memcpy(in.x, r + 5, sizeof in.x);
    switch (b[0] % 3) {
    case 0: fuzz_arm7(&in); break;
    case 1: fuzz_quadruped12(&in); break;
    default: fuzz_fourbar(&in); break;
    }
    return 0;
}

#else /* ---- the per-robot part: FUZZ_ROBOT and FUZZ_UPPER name the robot ---- */

static void FUZZ_CAT(fuzz_, FUZZ_ROBOT)(const fuzz_input *in)
{
    enum { NQ = U(_NQ), NV = U(_NV), NC = U(_NC), NK = U(_NCONSTRAINTS), NF = U(_NFRAMES) };
    typedef int (*solver)(P(_data) *, const cdyn_prox_settings *, const cdyn_real *,
                          const cdyn_real *, const cdyn_real *, cdyn_real *, cdyn_real *);
    typedef int (*delassus)(P(_data) *, const cdyn_real *, cdyn_real, cdyn_real *);
    static const solver solvers[] = {
        P(_prox_ltl),
        P(_prox_ltls),
#if U(_HAS_CONSTRAINED_ABA)
        P(_constrained_aba),
#endif
#if U(_HAS_PROX_PV)
        P(_prox_pv),
#endif
    };
    static const delassus delassus_routes[] = {
        P(_delassus),
        P(_delassus_factorised),
#if U(_HAS_PROX_PV) /* generated with prox_pv: contacts only */
        P(_delassus_articulated),
#endif
    };
    const cdyn_model *model = &P(_model);
    const int tame = in->flags & FLAG_TAME, frame = in->frame >= 0 && in->frame < NF;
    P(_data) d, d2;
    unsigned char work[U(_GENERIC_DATA_BYTES)];
    cdyn_data gd;
    cdyn_real q[NQ], v[NV], tau[NV], acc[NV], lambda0[NC], kp[NK], kd[NK];
    cdyn_real qn[NQ], qi[NQ], x[NV], x2[NV], R[9], p[3], J[6 * NV], M[NV * NV], L[NV * NV];
    cdyn_real D[NV], Jc[NC * NV], gamma[NC], G[NC * NC], lam[NC], lam2[NC];
    cdyn_prox_settings s = in->s;
    const cdyn_real *src = in->x;
    size_t i;
    int k, j, rc, rc2;

    fuzz_robot = FUZZ_STR(FUZZ_ROBOT);
    memcpy(q, src, sizeof q), src += NQ;
    memcpy(v, src, sizeof v), src += NV;
    memcpy(tau, src, sizeof tau), src += NV;
    memcpy(acc, src, sizeof acc), src += NV;
    memcpy(lambda0, src, sizeof lambda0), src += NC;
    memcpy(kp, src, sizeof kp), src += NK;
    memcpy(kd, src, sizeof kd);
    if (tame)
        normalise(model, q);
    memset(&d, in->fill, sizeof d);

    /* kinematics: a frame id or reference out of range is refused with -1 */
    P(_fk)(&d, q);
    poison(R, 9), poison(p, 3);
    CHECK(P(_frame_placement)(&d, in->frame, R, p) == (frame ? 0 : -1));
    CHECK(!frame || !tame || (all_finite(R, 9) && all_finite(p, 3)));
    for (k = 0; k < 3; ++k) { /* LOCAL and LOCAL_WORLD_ALIGNED at a valid frame, then the input's */
        const int f = k < 2 ? (in->frame + 64) % NF : in->frame, ref = k < 2 ? k : in->ref;
        const int ok = f >= 0 && f < NF && (ref == CDYN_LOCAL || ref == CDYN_LOCAL_WORLD_ALIGNED);
        poison(J, 6 * NV);
        rc = P(_frame_jacobian)(&d, q, f, (cdyn_reference)ref, J);
        CHECK(rc == (ok ? 0 : -1));
        CHECK(!ok || !tame || all_finite(J, 6 * NV));
    }

    /* dynamics */
    poison(x, NV), P(_rnea)(&d, q, v, acc, x);
    CHECK(!tame || all_finite(x, NV));
    poison(x, NV), P(_nle)(&d, q, v, x);
    CHECK(!tame || all_finite(x, NV));
    poison(x, NV), P(_gravity)(&d, q, x);
    CHECK(!tame || all_finite(x, NV));
    poison(M, NV * NV), P(_crba)(&d, q, M);
    CHECK(symmetric(M, NV) && (!tame || all_finite(M, NV * NV)));
    rc = P(_ltl)(&d);
    CHECK(rc == 0 || rc == CDYN_E_SINGULAR);
    CHECK(!tame || rc == 0); /* M is positive definite at any finite q */
    poison(L, NV * NV), poison(D, NV);
    P(_ltl_factor)(&d, in->flags & FLAG_NO_L ? NULL : L, in->flags & FLAG_NO_D ? NULL : D);
    for (k = 0; k < NV && !(in->flags & FLAG_NO_L); ++k)
        for (j = k; j < NV; ++j)
            CHECK(L[k * NV + j] == (j == k)); /* unit lower triangular */
    CHECK((in->flags & FLAG_NO_L) || !tame || all_finite(L, NV * NV));
    for (k = 0; k < NV && !(in->flags & FLAG_NO_D) && rc == 0; ++k)
        CHECK(D[k] > 0); /* the pivots R_ltl accepted */
    memcpy(x, tau, sizeof x), P(_ltl_solve)(&d, x);
    CHECK(!tame || all_finite(x, NV));
    poison(M, NV * NV);
    rc = P(_minv)(&d, q, M);
    CHECK(rc == 0 || rc == CDYN_E_SINGULAR);
    CHECK(rc != 0 || symmetric(M, NV));
    CHECK(!tame || (rc == 0 && all_finite(M, NV * NV)));

    /* ABA, generated and generic, and again on a workspace filled with other bytes:
     * nothing may depend on what d held before */
    poison(x, NV), rc = P(_aba)(&d, q, v, tau, x);
    check_aba(rc, x, NV);
    CHECK(cdyn_data_init(&gd, model, work, sizeof work) == CDYN_OK);
    poison(x2, NV), rc2 = cdyn_aba(model, &gd, q, v, tau, x2);
    check_aba(rc2, x2, NV);
    if (tame) {
        /* Both ABAs form velocity products of size |v|^2 (up to 1e6 here) that may cancel
         * in ddq, and round them differently: eps |v|^2 times the conditioning of the
         * articulated inertias, hence the second term. A fuzzer input (quadruped12,
         * |v| = 845, |ddq| = 9.81) differed by 1.1e-7: 1e-8 relative to ddq, 1.5e-13 |v|^2. */
        cdyn_real err = 0, scale = max_abs(x2, NV), vmax = max_abs(v, NV);
        for (k = 0; k < NV; ++k)
            err = fabs(x[k] - x2[k]) > err ? fabs(x[k] - x2[k]) : err;
        CHECK(rc == 0 && rc2 == 0);
        CHECK(err <= 1e-8 * (scale > 1 ? scale : 1) + 1e-11 * vmax * vmax);
    }
    memset(&d2, ~in->fill, sizeof d2);
    poison(x2, NV), rc2 = P(_aba)(&d2, q, v, tau, x2);
    CHECK(rc2 == rc && same_bits(x, x2, NV));

    /* the configuration manifold */
    poison(qn, NQ), P(_neutral)(qn);
    CHECK(all_finite(qn, NQ) && normalised(model, qn, 0));
    poison(qn, NQ), P(_integrate)(q, v, in->dt, qn);
    memcpy(qi, q, sizeof qi), P(_integrate)(qi, v, in->dt, qi);
    CHECK(same_bits(qn, qi, NQ)); /* q_next may be q */
    CHECK(!tame || (all_finite(qn, NQ) && normalised(model, qn, 1e-12)));

    /* constraints; the contacts' references at q, at q_next or left as the fill bytes */
    poison(Jc, NC * NV), P(_constraint_jacobian)(&d, q, Jc);
    CHECK(!tame || all_finite(Jc, NC * NV));
    poison(gamma, NC), P(_constraint_drift)(&d, q, v, gamma);
    CHECK(!tame || all_finite(gamma, NC));
    if (FUZZ_CAPTURE(in->flags) < 2)
        P(_constraint_capture)(&d, FUZZ_CAPTURE(in->flags) == 0 ? q : qn);
    s.Kp = in->flags & FLAG_KP ? kp : NULL;
    s.Kd = in->flags & FLAG_KD ? kd : NULL;
    for (i = 0; i < sizeof solvers / sizeof solvers[0]; ++i) {
        memcpy(lam, lambda0, sizeof lam), poison(x, NV);
        rc = solvers[i](&d, &s, q, v, tau, x, lam);
        check_solver(rc, &s, x, NV, lam, NC);
        memset(&d2, ~in->fill, sizeof d2); /* all but the [in] references */
        memcpy(d2.ref_R, d.ref_R, sizeof d.ref_R), memcpy(d2.ref_p, d.ref_p, sizeof d.ref_p);
        memcpy(lam2, lambda0, sizeof lam2), poison(x2, NV);
        rc2 = solvers[i](&d2, &s, q, v, tau, x2, lam2);
        CHECK(rc2 == rc && same_bits(x, x2, NV) && same_bits(lam, lam2, NC));
    }
    for (i = 0; i < sizeof delassus_routes / sizeof delassus_routes[0]; ++i) {
        poison(G, NC * NC), rc = delassus_routes[i](&d, q, s.mu, G);
        CHECK(rc == 0 || rc == CDYN_E_SINGULAR);
        CHECK(rc != 0 || !tame || all_finite(G, NC * NC));
    }
    memcpy(lam, lambda0, sizeof lam), poison(x, NV);
    rc = P(_impulse)(&d, &s, q, v, in->restitution, x, lam);
    check_solver(rc, &s, x, NV, lam, NC);
}

#endif
