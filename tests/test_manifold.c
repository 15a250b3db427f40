/* test_manifold.c — cdyn_difference and the derivatives of integrate and difference
 * (runtime/cdyn_manifold.c), in the scalar the build asks for: this file is built twice,
 * once with -DCDYN_FLOAT (test_manifold_float compiles the runtime files it calls in
 * float). The float build has only the hand-written models (the random robots come
 * through the double generator); the double build adds 63 seeded random robots.
 *
 * Every expected value is independent of the function it checks:
 *  - difference against integrate (cdyn_kinematics.c, tested by test_generic_invariants):
 *    difference(q0, integrate(q0, v)) = v for rotations below pi, integrate(q0,
 *    difference(q0, q1)) = q1; a continuous joint's angle against libm's atan2;
 *  - each derivative against central finite differences of its tangent-space definition,
 *    taken through integrate (perturbing) and difference (reading back);
 *  - identities between the four matrices, and their values at v = 0 and q0 = q1;
 *  - the Taylor branch against the closed form on both sides of CDYN__SMALL_ANGLE.
 *
 * Tolerances, relative to 1 + the largest entry of the reference: double, 1e-12 for round
 * trips, identities and the switch (a few dozen roundings of 1e-16; seen: 2e-15, 3e-14,
 * 3e-14), central differences with step 1e-6 within 1e-7 (truncation h^2 ~ 1e-12,
 * rounding eps / h ~ 1e-10; seen: 5e-10); float, 5e-6 for round trips, identities and the
 * switch (float's eps is 6e-8; seen: 6e-7, 4e-7, 2e-7), central differences with step 1e-2
 * within 3e-4 (truncation h^2 / 6 ~ 2e-5 times the third derivative, rounding 6e-8 / h ~
 * 6e-6; seen: 2e-5). The largest errors seen are printed after the suite. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdyn.h"
#include "cdyn_internal.h" /* CDYN__SMALL_ANGLE: where the series hand over */
#include "support/check_main.h"
#include "support/rng.h"
#ifndef CDYN_FLOAT
#include "support/models.h"
#include "support/random_robot.h"
#endif

#define PI 3.14159265358979323846
#ifdef CDYN_FLOAT
#define RT_TOL 5e-6
#define ID_TOL 5e-6
#define FD_STEP 1e-2
#define FD_TOL 3e-4
#define BRANCH_TOL 5e-6
#define BRANCH_DELTA 1e-5 /* relative offset of the angles either side of the switch */
#define FD_PI_MARGIN 5e-2 /* the finite differences' steps must not cross pi */
#define RT_PI_MARGIN 1e-3
#define ATAN_ULP 0x1p-23
#define ATAN_ULPS 2.0 /* seen: 1.3 */
#else
#define RT_TOL 1e-12
#define ID_TOL 1e-12
#define FD_STEP 1e-6
#define FD_TOL 1e-7
#define BRANCH_TOL 1e-12
#define BRANCH_DELTA 1e-9
#define FD_PI_MARGIN 1e-3
#define RT_PI_MARGIN 1e-7
#define ATAN_ULP 0x1p-52
#define ATAN_ULPS 3.0 /* seen: 1.9 (libm's own rounding included) */
#endif
#define NSTATES 4
#define NSEEDS 60

/* ---- the largest errors seen, printed after the suite (run without fork) ---------------- */

enum {
    E_ATAN,
    E_RT_V,
    E_RT_Q,
    E_FD_INT_DQ,
    E_FD_INT_DV,
    E_FD_DIFF_DQ0,
    E_FD_DIFF_DQ1,
    E_IDENT,
    E_BRANCH,
    E_COUNT
};
static const char *const error_names[E_COUNT] = {
    "atan2 (ulps of the result)",         "difference(q0, integrate(q0, v)) - v",
    "integrate(q0, difference) - q1",     "dq_next/dq vs central differences",
    "dq_next/dv vs central differences",  "dv/dq0 vs central differences",
    "dv/dq1 vs central differences",      "identities",
    "Taylor vs closed form at the switch"
};
static double worst[E_COUNT];

static void record(int what, double err)
{
    if (!(err <= worst[what]))
        worst[what] = err;
}

/* max |x - ref| / (1 + max |ref|); infinite for a NaN. */
static double rel_err(const cdyn_real *x, const double *ref, int n)
{
    double e = 0, scale = 0;
    for (int k = 0; k < n; ++k) {
        const double d = fabs((double)x[k] - ref[k]);
        if (d != d)
            return INFINITY;
        if (d > e)
            e = d;
        if (fabs(ref[k]) > scale)
            scale = fabs(ref[k]);
    }
    return e / (1 + scale);
}

static double rel_err_real(const cdyn_real *x, const cdyn_real *ref, int n, double *buf)
{
    for (int k = 0; k < n; ++k)
        buf[k] = (double)ref[k];
    return rel_err(x, buf, n);
}

/* ---- models ---------------------------------------------------------------------------- */

typedef struct {
    cdyn_model model;
    cdyn_body bodies[10];
    int dof_parent[64], dof_body[64];
} hand_model;

/* The manifold functions read a body's type and indices only. */
static void add_joint(hand_model *h, cdyn_joint_type type, int parent)
{
    static const int nq_of[] = { 1, 2, 1, 4, 7 }, nv_of[] = { 1, 1, 1, 3, 6 };
    cdyn_model *m = &h->model;
    cdyn_body *b = &h->bodies[m->nbodies];
    memset(b, 0, sizeof *b);
    b->type = type;
    b->parent = parent;
    b->idx_q = m->nq;
    b->nq = nq_of[type];
    b->idx_v = m->nv;
    b->nv = nv_of[type];
    b->axis[2] = 1;
    b->R[0] = b->R[4] = b->R[8] = 1;
    b->mass = 1;
    const int up = parent < 0 ? -1 : h->bodies[parent].idx_v + h->bodies[parent].nv - 1;
    for (int k = 0; k < b->nv; ++k) {
        h->dof_parent[b->idx_v + k] = k ? b->idx_v + k - 1 : up;
        h->dof_body[b->idx_v + k] = m->nbodies;
    }
    m->nq += b->nq;
    m->nv += b->nv;
    m->nbodies++;
}

static void hand_init(hand_model *h, const char *name)
{
    memset(h, 0, sizeof *h);
    h->model.name = name;
    h->model.bodies = h->bodies;
    h->model.dof_parent = h->dof_parent;
    h->model.dof_body = h->dof_body;
}

/* Every joint type, a free-flyer and a planar joint twice (root and mid-tree). */
static void hand_every_joint(hand_model *h)
{
    hand_init(h, "every_joint");
    add_joint(h, CDYN_JOINT_FREEFLYER, -1);
    add_joint(h, CDYN_JOINT_REVOLUTE, 0);
    add_joint(h, CDYN_JOINT_PRISMATIC, 1);
    add_joint(h, CDYN_JOINT_REVOLUTE_UNBOUNDED, 2);
    add_joint(h, CDYN_JOINT_PLANAR, 3);
    add_joint(h, CDYN_JOINT_FREEFLYER, 4);
    add_joint(h, CDYN_JOINT_REVOLUTE_UNBOUNDED, 0);
    add_joint(h, CDYN_JOINT_PLANAR, 6);
}

static void hand_single(hand_model *h, cdyn_joint_type type)
{
    hand_init(h, "single");
    add_joint(h, type, -1);
}

/* ---- states ---------------------------------------------------------------------------- */

/* q: angles in [-pi, pi], positions in [-1, 1], (cos, sin) on the circle, quaternions
 * uniform on the unit sphere (rejection in the 4-ball). */
static void random_q(const cdyn_model *m, splitmix64 *g, cdyn_real *q)
{
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        cdyn_real *x = q + b->idx_q;
        double th, n2, u[4];
        switch (b->type) {
        case CDYN_JOINT_REVOLUTE: x[0] = (cdyn_real)splitmix64_range(g, -PI, PI); break;
        case CDYN_JOINT_PRISMATIC: x[0] = (cdyn_real)splitmix64_range(g, -1, 1); break;
        case CDYN_JOINT_REVOLUTE_UNBOUNDED:
            th = splitmix64_range(g, -PI, PI);
            x[0] = (cdyn_real)cos(th);
            x[1] = (cdyn_real)sin(th);
            break;
        case CDYN_JOINT_PLANAR:
            x[0] = (cdyn_real)splitmix64_range(g, -1, 1);
            x[1] = (cdyn_real)splitmix64_range(g, -1, 1);
            th = splitmix64_range(g, -PI, PI);
            x[2] = (cdyn_real)cos(th);
            x[3] = (cdyn_real)sin(th);
            break;
        case CDYN_JOINT_FREEFLYER:
            for (int k = 0; k < 3; ++k)
                x[k] = (cdyn_real)splitmix64_range(g, -1, 1);
            do {
                n2 = 0;
                for (int k = 0; k < 4; ++k) {
                    u[k] = splitmix64_range(g, -1, 1);
                    n2 += u[k] * u[k];
                }
            } while (n2 > 1 || n2 < 1e-2);
            for (int k = 0; k < 4; ++k)
                x[3 + k] = (cdyn_real)(u[k] / sqrt(n2));
            break;
        }
    }
}

/* A unit vector, uniform on the sphere. */
static void random_direction(splitmix64 *g, double n[3])
{
    double n2;
    do {
        n2 = 0;
        for (int k = 0; k < 3; ++k) {
            n[k] = splitmix64_range(g, -1, 1);
            n2 += n[k] * n[k];
        }
    } while (n2 > 1 || n2 < 1e-2);
    for (int k = 0; k < 3; ++k)
        n[k] /= sqrt(n2);
}

/* v with every rotation by exactly the angle th (random axis or sign) when th >= 0, else
 * by a random angle below 3 (< pi, so that difference gives v back); translations in
 * [-1, 1], bounded revolute joints up to 6 (not wrapped). */
static void random_v(const cdyn_model *m, splitmix64 *g, double th, cdyn_real *v)
{
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        cdyn_real *x = v + b->idx_v;
        const double a = th >= 0 ? th : splitmix64_range(g, 0, 3);
        const double sign = splitmix64_unit(g) < 0.5 ? -1 : 1;
        double n[3];
        switch (b->type) {
        case CDYN_JOINT_REVOLUTE:
            x[0] = (cdyn_real)(th >= 0 ? sign * th : splitmix64_range(g, -6, 6));
            break;
        case CDYN_JOINT_PRISMATIC: x[0] = (cdyn_real)splitmix64_range(g, -1, 1); break;
        case CDYN_JOINT_REVOLUTE_UNBOUNDED: x[0] = (cdyn_real)(sign * a); break;
        case CDYN_JOINT_PLANAR:
            x[0] = (cdyn_real)splitmix64_range(g, -1, 1);
            x[1] = (cdyn_real)splitmix64_range(g, -1, 1);
            x[2] = (cdyn_real)(sign * a);
            break;
        case CDYN_JOINT_FREEFLYER:
            random_direction(g, n);
            for (int k = 0; k < 3; ++k) {
                x[k] = (cdyn_real)splitmix64_range(g, -1, 1);
                x[3 + k] = (cdyn_real)(a * n[k]);
            }
            break;
        }
    }
}

/* ---- the fixture: a model's buffers ------------------------------------------------------ */

typedef struct {
    const cdyn_model *m;
    const char *what;
    int nq, nv;
    cdyn_real *q0, *q1, *v, *tmp, *tmp2, *tv, *tv2, *dv; /* nq or nv each (nq >= nv) */
    cdyn_real *A, *B, *C, *D;                            /* nv x nv */
    double *ref, *ref2, *buf;                            /* nv x nv */
} fixture;

static void fixture_init(fixture *fx, const cdyn_model *m, const char *what)
{
    const size_t n = (size_t)m->nq + 1, nn = (size_t)m->nv * (size_t)m->nv + 1;
    fx->m = m;
    fx->what = what;
    fx->nq = m->nq;
    fx->nv = m->nv;
    cdyn_real **vecs[] = {
        &fx->q0, &fx->q1, &fx->v, &fx->tmp, &fx->tmp2, &fx->tv, &fx->tv2, &fx->dv
    };
    for (size_t k = 0; k < sizeof vecs / sizeof vecs[0]; ++k)
        ck_assert_ptr_nonnull(*vecs[k] = malloc(n * sizeof(cdyn_real)));
    cdyn_real **mats[] = { &fx->A, &fx->B, &fx->C, &fx->D };
    for (size_t k = 0; k < sizeof mats / sizeof mats[0]; ++k)
        ck_assert_ptr_nonnull(*mats[k] = malloc(nn * sizeof(cdyn_real)));
    ck_assert_ptr_nonnull(fx->ref = malloc(nn * sizeof(double)));
    ck_assert_ptr_nonnull(fx->ref2 = malloc(nn * sizeof(double)));
    ck_assert_ptr_nonnull(fx->buf = malloc(nn * sizeof(double)));
}

static void fixture_free(fixture *fx)
{
    cdyn_real *all[] = { fx->q0,  fx->q1, fx->v, fx->tmp, fx->tmp2, fx->tv,
                         fx->tv2, fx->dv, fx->A, fx->B,   fx->C,    fx->D };
    for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k)
        free(all[k]);
    free(fx->ref);
    free(fx->ref2);
    free(fx->buf);
}

/* max |a - b| over q, a free-flyer's quaternion compared up to its sign. */
static double q_distance(const cdyn_model *m, const cdyn_real *a, const cdyn_real *b)
{
    double e = 0;
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *bd = &m->bodies[i];
        const cdyn_real *x = a + bd->idx_q, *y = b + bd->idx_q;
        double sign = 1;
        if (bd->type == CDYN_JOINT_FREEFLYER) {
            double dot = 0;
            for (int k = 3; k < 7; ++k)
                dot += (double)x[k] * (double)y[k];
            sign = dot < 0 ? -1 : 1;
        }
        for (int k = 0; k < bd->nq; ++k) {
            const double d = fabs((double)x[k] - (k >= 3 ? sign : 1) * (double)y[k]);
            if (!(d <= e))
                e = d;
        }
    }
    return e;
}

/* ---- round trips -------------------------------------------------------------------------- */

/* difference(q0, integrate(q0, v)) = v, and integrate(q0, difference(q0, q1)) = q1 for an
 * unrelated q1; the free-flyer's log stays within pi, a continuous joint's in (-pi, pi]. */
static void check_round_trips(fixture *fx, splitmix64 *g)
{
    const cdyn_model *m = fx->m;
    ck_assert_int_eq(cdyn_integrate(m, fx->q0, fx->v, 1, fx->q1), CDYN_OK);
    ck_assert_int_eq(cdyn_difference(m, fx->q0, fx->q1, fx->dv), CDYN_OK);
    double e = rel_err_real(fx->dv, fx->v, fx->nv, fx->buf);
    record(E_RT_V, e);
    ck_assert_msg(e <= RT_TOL, "%s: difference(q0, integrate(q0, v)) off v by %.3g", fx->what, e);

    random_q(m, g, fx->q1);
    ck_assert_int_eq(cdyn_difference(m, fx->q0, fx->q1, fx->dv), CDYN_OK);
    ck_assert_int_eq(cdyn_integrate(m, fx->q0, fx->dv, 1, fx->tmp), CDYN_OK);
    e = q_distance(m, fx->tmp, fx->q1);
    record(E_RT_Q, e);
    ck_assert_msg(e <= RT_TOL * 2, "%s: integrate(q0, difference(q0, q1)) off q1 by %.3g", fx->what,
                  e);
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        const cdyn_real *x = fx->dv + b->idx_v;
        if (b->type == CDYN_JOINT_FREEFLYER) {
            const double th = sqrt((double)x[3] * x[3] + (double)x[4] * x[4] + (double)x[5] * x[5]);
            ck_assert_msg(th <= PI * (1 + RT_TOL), "%s: log angle %.17g beyond pi", fx->what, th);
        } else if (b->type == CDYN_JOINT_REVOLUTE_UNBOUNDED) {
            ck_assert_msg(x[0] > -PI && x[0] <= PI * (1 + RT_TOL), "%s: angle %.17g", fx->what,
                          (double)x[0]);
        }
    }
}

/* ---- central differences --------------------------------------------------------------- */

enum { D_INT_DQ, D_INT_DV, D_DIFF_DQ0, D_DIFF_DQ1 };

/* out = f(e) of the tangent-space definition of derivative `which`, for the column k:
 *   D_INT_DQ: difference(q1, integrate(integrate(q0, e u_k), v)), q1 = integrate(q0, v)
 *   D_INT_DV: difference(q1, integrate(q0, v + e u_k))
 *   D_DIFF_DQ0: difference(integrate(q0, e u_k), q1)
 *   D_DIFF_DQ1: difference(q0, integrate(q1, e u_k)) */
static void tangent_map(fixture *fx, int which, int k, double e, cdyn_real *out)
{
    const cdyn_model *m = fx->m;
    for (int j = 0; j < fx->nv; ++j)
        fx->tv[j] = 0;
    fx->tv[k] = (cdyn_real)e;
    switch (which) {
    case D_INT_DQ:
        ck_assert_int_eq(cdyn_integrate(m, fx->q0, fx->tv, 1, fx->tmp), CDYN_OK);
        ck_assert_int_eq(cdyn_integrate(m, fx->tmp, fx->v, 1, fx->tmp2), CDYN_OK);
        ck_assert_int_eq(cdyn_difference(m, fx->q1, fx->tmp2, out), CDYN_OK);
        break;
    case D_INT_DV:
        for (int j = 0; j < fx->nv; ++j)
            fx->tv2[j] = fx->v[j] + fx->tv[j];
        ck_assert_int_eq(cdyn_integrate(m, fx->q0, fx->tv2, 1, fx->tmp), CDYN_OK);
        ck_assert_int_eq(cdyn_difference(m, fx->q1, fx->tmp, out), CDYN_OK);
        break;
    case D_DIFF_DQ0:
        ck_assert_int_eq(cdyn_integrate(m, fx->q0, fx->tv, 1, fx->tmp), CDYN_OK);
        ck_assert_int_eq(cdyn_difference(m, fx->tmp, fx->q1, out), CDYN_OK);
        break;
    default:
        ck_assert_int_eq(cdyn_integrate(m, fx->q1, fx->tv, 1, fx->tmp), CDYN_OK);
        ck_assert_int_eq(cdyn_difference(m, fx->q0, fx->tmp, out), CDYN_OK);
        break;
    }
}

/* ref (nv x nv, row-major) = central differences of tangent_map. */
static void central_differences(fixture *fx, int which, double *ref)
{
    const int nv = fx->nv;
    for (int k = 0; k < nv; ++k) {
        tangent_map(fx, which, k, FD_STEP, fx->dv);
        for (int r = 0; r < nv; ++r)
            fx->buf[r] = (double)fx->dv[r];
        tangent_map(fx, which, k, -FD_STEP, fx->dv);
        for (int r = 0; r < nv; ++r)
            ref[r * nv + k] = (fx->buf[r] - (double)fx->dv[r]) / (2 * FD_STEP);
    }
}

/* Every entry outside the joints' diagonal blocks is exactly 0. */
static void check_block_diagonal(fixture *fx, const cdyn_real *J, const char *name)
{
    const cdyn_model *m = fx->m;
    const int nv = fx->nv;
    for (int r = 0; r < nv; ++r)
        for (int c = 0; c < nv; ++c) {
            const cdyn_body *b = &m->bodies[m->dof_body[r]];
            const int inside = c >= b->idx_v && c < b->idx_v + b->nv;
            ck_assert_msg(inside || J[r * nv + c] == 0, "%s: %s[%d][%d] = %g outside the blocks",
                          fx->what, name, r, c, (double)J[r * nv + c]);
        }
}

static void fill(cdyn_real *x, int n, double value)
{
    for (int k = 0; k < n; ++k)
        x[k] = (cdyn_real)value;
}

/* The four matrices at (q0, v), q1 = integrate(q0, v), against central differences. */
static void check_finite_differences(fixture *fx)
{
    const cdyn_model *m = fx->m;
    const int nv = fx->nv, nn = nv * nv;
    static const char *const names[] = { "dq_next/dq", "dq_next/dv", "dv/dq0", "dv/dq1" };
    static const int slot[] = { E_FD_INT_DQ, E_FD_INT_DV, E_FD_DIFF_DQ0, E_FD_DIFF_DQ1 };
    cdyn_real *got[4] = { fx->A, fx->B, fx->C, fx->D };
    for (int w = 0; w < 4; ++w)
        fill(got[w], nn, 7.5); /* every entry must be written */
    ck_assert_int_eq(cdyn_integrate(m, fx->q0, fx->v, 1, fx->q1), CDYN_OK);
    ck_assert_int_eq(cdyn_integrate_derivatives(m, fx->q0, fx->v, fx->A, fx->B), CDYN_OK);
    ck_assert_int_eq(cdyn_difference_derivatives(m, fx->q0, fx->q1, fx->C, fx->D), CDYN_OK);
    for (int w = 0; w < 4; ++w) {
        central_differences(fx, w, fx->ref);
        const double e = rel_err(got[w], fx->ref, nn);
        record(slot[w], e);
        ck_assert_msg(e <= FD_TOL, "%s: %s off its central differences by %.3g", fx->what, names[w],
                      e);
        check_block_diagonal(fx, got[w], names[w]);
    }
}

/* ---- identities ----------------------------------------------------------------------------- */

/* out = X Y (nv x nv) in double. */
static void mul(const cdyn_real *X, const cdyn_real *Y, int n, double *out)
{
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            double s = 0;
            for (int k = 0; k < n; ++k)
                s += (double)X[r * n + k] * (double)Y[k * n + c];
            out[r * n + c] = s;
        }
}

static void identity(double *I, int n, double scale)
{
    for (int k = 0; k < n * n; ++k)
        I[k] = 0;
    for (int k = 0; k < n; ++k)
        I[k * n + k] = scale;
}

static void expect_close(fixture *fx, const double *x, const double *ref, int n, const char *what)
{
    double e = 0, scale = 0;
    for (int k = 0; k < n; ++k) {
        const double d = fabs(x[k] - ref[k]);
        if (!(d <= e))
            e = d;
        if (fabs(ref[k]) > scale)
            scale = fabs(ref[k]);
    }
    e /= 1 + scale;
    record(E_IDENT, e);
    ck_assert_msg(e <= ID_TOL, "%s: %s off by %.3g", fx->what, what, e);
}

static void expect_close_real(fixture *fx, const cdyn_real *x, const double *ref, int n,
                              const char *what)
{
    for (int k = 0; k < n; ++k)
        fx->ref2[k] = (double)x[k];
    expect_close(fx, fx->ref2, ref, n, what);
}

/* At (q0, v), q1 = integrate(q0, v):
 *  - dv/dq1 (q0, q1) dq_next/dv (q0, v) = I (difference undoes integrate);
 *  - dv/dq0 = -dv/dq1 dq_next/dq (q1 stays put when q0 moves and v follows);
 *  - at v = 0: dq_next/dv = dq_next/dq = I; at q0 = q1: dv/dq1 = I, dv/dq0 = -I. */
static void check_identities(fixture *fx)
{
    const cdyn_model *m = fx->m;
    const int nv = fx->nv, nn = nv * nv;
    ck_assert_int_eq(cdyn_integrate(m, fx->q0, fx->v, 1, fx->q1), CDYN_OK);
    ck_assert_int_eq(cdyn_integrate_derivatives(m, fx->q0, fx->v, fx->A, fx->B), CDYN_OK);
    ck_assert_int_eq(cdyn_difference_derivatives(m, fx->q0, fx->q1, fx->C, fx->D), CDYN_OK);
    mul(fx->D, fx->B, nv, fx->ref);
    identity(fx->buf, nv, 1);
    expect_close(fx, fx->ref, fx->buf, nn, "dv/dq1 dq_next/dv - I");
    mul(fx->D, fx->A, nv, fx->ref);
    for (int k = 0; k < nn; ++k)
        fx->ref[k] = -fx->ref[k];
    expect_close_real(fx, fx->C, fx->ref, nn, "dv/dq0 + dv/dq1 dq_next/dq");

    fill(fx->dv, nv, 0);
    ck_assert_int_eq(cdyn_integrate_derivatives(m, fx->q0, fx->dv, fx->A, fx->B), CDYN_OK);
    expect_close_real(fx, fx->A, fx->buf, nn, "dq_next/dq at v = 0");
    expect_close_real(fx, fx->B, fx->buf, nn, "dq_next/dv at v = 0");
    ck_assert_int_eq(cdyn_difference_derivatives(m, fx->q0, fx->q0, fx->C, fx->D), CDYN_OK);
    expect_close_real(fx, fx->D, fx->buf, nn, "dv/dq1 at q0 = q1");
    identity(fx->buf, nv, -1);
    expect_close_real(fx, fx->C, fx->buf, nn, "dv/dq0 at q0 = q1");
}

static void check_state(fixture *fx, splitmix64 *g)
{
    check_round_trips(fx, g);
    check_finite_differences(fx);
    check_identities(fx);
}

/* ---- the tests ------------------------------------------------------------------------------ */

/* A continuous joint's difference from (1, 0) is the angle of (x, y): atan2(y, x), here
 * held to libm's within ATAN_ULPS ulps of the result (an absolute ulp of 1 for a zero). */
static void check_atan2(const cdyn_model *m, double x, double y)
{
    const cdyn_real q0[2] = { 1, 0 }, q1[2] = { (cdyn_real)x, (cdyn_real)y };
    cdyn_real v[1];
    ck_assert_int_eq(cdyn_difference(m, q0, q1, v), CDYN_OK);
    const double want = q1[1] == 0 && q1[0] < 0 ? PI : atan2((double)q1[1], (double)q1[0]);
    double ulp = fabs(want) * ATAN_ULP;
    if (ulp == 0)
        ulp = ATAN_ULP;
    const double e = fabs((double)v[0] - want) / ulp;
    record(E_ATAN, e);
    ck_assert_msg(e <= ATAN_ULPS, "atan2(%.9g, %.9g) = %.17g, libm %.17g: %.2f ulps", y, x,
                  (double)v[0], want, e);
}

START_TEST(test_atan2)
{
    hand_model h;
    hand_single(&h, CDYN_JOINT_REVOLUTE_UNBOUNDED);
    /* the whole circle, finely */
    for (int k = -200000; k <= 200000; ++k) {
        const double a = PI * k / 200000;
        check_atan2(&h.model, cos(a), sin(a));
    }
    /* near 0, +-pi/2 and +-pi, at every scale of the offset, and unnormalised pairs */
    for (double d = 1e-30; d < 1; d *= 1.7)
        for (int s = -1; s <= 1; s += 2) {
            check_atan2(&h.model, 1, s * d);
            check_atan2(&h.model, -1, s * d);
            check_atan2(&h.model, s * d, 1);
            check_atan2(&h.model, s * d, -1);
            check_atan2(&h.model, 1e-3 * cos(s * d), 1e-3 * sin(s * d));
            check_atan2(&h.model, 1e3 * cos(PI - d), 1e3 * sin(PI - d));
        }
    /* the axes and the branch cut: (-1, +-0) is pi (the range is (-pi, pi]) */
    const cdyn_real q0[2] = { 1, 0 };
    const cdyn_real cases[][2] = {
        { 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 }, { -1, -0.0f }, { 2, 2 }
    };
    const double want[] = { 0, PI / 2, PI, -PI / 2, PI, PI / 4 };
    for (int k = 0; k < 6; ++k) {
        cdyn_real v[1];
        ck_assert_int_eq(cdyn_difference(&h.model, q0, cases[k], v), CDYN_OK);
        ck_assert_msg(fabs((double)v[0] - want[k]) <= 2 * ATAN_ULP * (1 + fabs(want[k])),
                      "case %d: %.17g, want %.17g", k, (double)v[0], want[k]);
    }
}
END_TEST

START_TEST(test_hand_random_states)
{
    hand_model h;
    fixture fx;
    splitmix64 g = { 0x3A41F0u + (uint64_t)_i };
    if (_i == 0)
        hand_every_joint(&h);
    else
        hand_single(&h, (cdyn_joint_type)(_i - 1));
    fixture_init(&fx, &h.model, "hand model");
    for (int s = 0; s < 20; ++s) {
        random_q(&h.model, &g, fx.q0);
        random_v(&h.model, &g, -1, fx.v);
        check_state(&fx, &g);
    }
    fixture_free(&fx);
}
END_TEST

/* Rotations of given angles: tiny, around the switch to the series, and near pi (the
 * finite differences keep their steps off pi; the round trips and identities go nearer). */
START_TEST(test_angles)
{
    const double s = (double)CDYN__SMALL_ANGLE;
    const double fd_angles[] = { 0,
                                 1e-12,
                                 1e-9,
                                 1e-6,
                                 1e-3,
                                 s * (1 - 1e-3),
                                 s * (1 - BRANCH_DELTA),
                                 s * (1 + BRANCH_DELTA),
                                 s * (1 + 1e-3),
                                 0.5,
                                 1,
                                 2,
                                 3,
                                 PI - 2 * FD_PI_MARGIN,
                                 PI - FD_PI_MARGIN };
    hand_model h;
    fixture fx;
    char what[96] = "every joint";
    splitmix64 g = { 0xA27u };
    hand_every_joint(&h);
    fixture_init(&fx, &h.model, what);
    for (size_t a = 0; a < sizeof fd_angles / sizeof fd_angles[0]; ++a)
        for (int rep = 0; rep < 4; ++rep) {
            snprintf(what, sizeof what, "every joint, angles %.17g", fd_angles[a]);
            random_q(&h.model, &g, fx.q0);
            random_v(&h.model, &g, fd_angles[a], fx.v);
            check_state(&fx, &g);
        }
    const double near_pi[] = { PI - 1e-2, PI - RT_PI_MARGIN, PI - 2 * RT_PI_MARGIN };
    for (size_t a = 0; a < sizeof near_pi / sizeof near_pi[0]; ++a)
        for (int rep = 0; rep < 4; ++rep) {
            snprintf(what, sizeof what, "every joint, angles pi - %.3g", PI - near_pi[a]);
            random_q(&h.model, &g, fx.q0);
            random_v(&h.model, &g, near_pi[a], fx.v);
            check_round_trips(&fx, &g);
            check_identities(&fx);
        }
    fixture_free(&fx);
}
END_TEST

/* The four matrices at (q0, lambda v0), q1 = integrate(q0, lambda v0), into J[0..3]. */
static void matrices_at(fixture *fx, const cdyn_real *v0, double lambda, double *J)
{
    const cdyn_model *m = fx->m;
    const int nv = fx->nv, nn = nv * nv;
    for (int k = 0; k < nv; ++k)
        fx->v[k] = (cdyn_real)((double)v0[k] * lambda);
    ck_assert_int_eq(cdyn_integrate(m, fx->q0, fx->v, 1, fx->q1), CDYN_OK);
    ck_assert_int_eq(cdyn_integrate_derivatives(m, fx->q0, fx->v, fx->A, fx->B), CDYN_OK);
    ck_assert_int_eq(cdyn_difference_derivatives(m, fx->q0, fx->q1, fx->C, fx->D), CDYN_OK);
    const cdyn_real *got[4] = { fx->A, fx->B, fx->C, fx->D };
    for (int w = 0; w < 4; ++w)
        for (int k = 0; k < nn; ++k)
            J[w * nn + k] = (double)got[w][k];
}

/* The series below CDYN__SMALL_ANGLE and the closed forms above it agree where they meet:
 * with every rotation's angle at s (1 + d) for d = -3 delta, -delta (series) and +delta
 * (closed forms), the last matrices equal the linear extrapolation of the first two,
 * 2 J(-delta) - J(-3 delta), to their rounding (the extrapolation's own error is
 * O(delta^2)). */
START_TEST(test_series_switch)
{
    const double s = (double)CDYN__SMALL_ANGLE;
    hand_model h;
    fixture fx;
    splitmix64 g = { 0x5317u };
    hand_every_joint(&h);
    fixture_init(&fx, &h.model, "series switch");
    const int nv = fx.nv, nn = nv * nv;
    double *J = malloc(3 * 4 * (size_t)nn * sizeof(double));
    cdyn_real *v0 = malloc((size_t)nv * sizeof(cdyn_real));
    ck_assert_ptr_nonnull(J);
    ck_assert_ptr_nonnull(v0);
    for (int rep = 0; rep < 20; ++rep) {
        random_q(&h.model, &g, fx.q0);
        random_v(&h.model, &g, s, v0);
        matrices_at(&fx, v0, 1 - 3 * BRANCH_DELTA, J);
        matrices_at(&fx, v0, 1 - BRANCH_DELTA, J + 4 * nn);
        matrices_at(&fx, v0, 1 + BRANCH_DELTA, J + 8 * nn);
        for (int k = 0; k < 4 * nn; ++k)
            J[k] = 2 * J[4 * nn + k] - J[k];
        for (int w = 0; w < 4; ++w) {
            double e = 0, scale = 0;
            for (int k = 0; k < nn; ++k) {
                const double d = fabs(J[8 * nn + w * nn + k] - J[w * nn + k]);
                if (!(d <= e))
                    e = d;
                if (fabs(J[w * nn + k]) > scale)
                    scale = fabs(J[w * nn + k]);
            }
            e /= 1 + scale;
            record(E_BRANCH, e);
            ck_assert_msg(e <= BRANCH_TOL, "matrix %d jumps by %.3g across the switch", w, e);
        }
    }
    free(J);
    free(v0);
    fixture_free(&fx);
}
END_TEST

#ifndef CDYN_FLOAT
static const unsigned big_seeds = RANDOM_ROBOT_BIG_COUNT;

START_TEST(test_random_robots)
{
    const unsigned seed =
        _i < NSEEDS ? (unsigned)_i : RANDOM_ROBOT_BIG_FIRST + (unsigned)(_i - NSEEDS);
    char what[64];
    random_model r;
    fixture fx;
    splitmix64 g = { 0x6D0000u + seed };
    random_model_open(&r, seed);
    snprintf(what, sizeof what, "seed %u", seed);
    fixture_init(&fx, &r.mt.model, what);
    for (int s = 0; s < NSTATES; ++s) {
        random_q(&r.mt.model, &g, fx.q0);
        random_v(&r.mt.model, &g, -1, fx.v);
        check_state(&fx, &g);
    }
    fixture_free(&fx);
    random_model_close(&r);
}
END_TEST
#endif

/* Null model or inputs: CDYN_E_ARG; null outputs of the derivatives are skipped; a NaN or
 * an infinity in q or v: CDYN_E_NONFINITE, without a crash. */
START_TEST(test_bad_input)
{
    hand_model h;
    fixture fx;
    splitmix64 g = { 0xBAD };
    hand_every_joint(&h);
    const cdyn_model *m = &h.model;
    const int nn = m->nv * m->nv;
    fixture_init(&fx, m, "bad input");
    random_q(m, &g, fx.q0);
    random_q(m, &g, fx.q1);
    random_v(m, &g, -1, fx.v);
    ck_assert_int_eq(cdyn_difference(NULL, fx.q0, fx.q1, fx.dv), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_difference(m, NULL, fx.q1, fx.dv), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_difference(m, fx.q0, NULL, fx.dv), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_difference(m, fx.q0, fx.q1, NULL), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_integrate_derivatives(NULL, fx.q0, fx.v, fx.A, fx.B), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_integrate_derivatives(m, NULL, fx.v, fx.A, fx.B), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_integrate_derivatives(m, fx.q0, NULL, fx.A, fx.B), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_difference_derivatives(NULL, fx.q0, fx.q1, fx.C, fx.D), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_difference_derivatives(m, NULL, fx.q1, fx.C, fx.D), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_difference_derivatives(m, fx.q0, NULL, fx.C, fx.D), CDYN_E_ARG);
    cdyn_model broken = *m;
    broken.bodies = NULL;
    ck_assert_int_eq(cdyn_difference(&broken, fx.q0, fx.q1, fx.dv), CDYN_E_ARG);

    /* one output alone is the same as with both */
    ck_assert_int_eq(cdyn_integrate_derivatives(m, fx.q0, fx.v, fx.A, fx.B), CDYN_OK);
    ck_assert_int_eq(cdyn_integrate_derivatives(m, fx.q0, fx.v, NULL, fx.D), CDYN_OK);
    ck_assert_int_eq(cdyn_integrate_derivatives(m, fx.q0, fx.v, fx.C, NULL), CDYN_OK);
    ck_assert_int_eq(memcmp(fx.A, fx.C, (size_t)nn * sizeof(cdyn_real)), 0);
    ck_assert_int_eq(memcmp(fx.B, fx.D, (size_t)nn * sizeof(cdyn_real)), 0);
    ck_assert_int_eq(cdyn_integrate_derivatives(m, fx.q0, fx.v, NULL, NULL), CDYN_OK);
    ck_assert_int_eq(cdyn_difference_derivatives(m, fx.q0, fx.q1, fx.A, fx.B), CDYN_OK);
    ck_assert_int_eq(cdyn_difference_derivatives(m, fx.q0, fx.q1, NULL, fx.D), CDYN_OK);
    ck_assert_int_eq(cdyn_difference_derivatives(m, fx.q0, fx.q1, fx.C, NULL), CDYN_OK);
    ck_assert_int_eq(memcmp(fx.A, fx.C, (size_t)nn * sizeof(cdyn_real)), 0);
    ck_assert_int_eq(memcmp(fx.B, fx.D, (size_t)nn * sizeof(cdyn_real)), 0);

    /* a NaN, then an infinity, in each coordinate of q0, q1 and v in turn */
    const double bad[2] = { NAN, INFINITY };
    for (int b = 0; b < 2; ++b) {
        for (int k = 0; k < m->nq; ++k) {
            const cdyn_real keep0 = fx.q0[k], keep1 = fx.q1[k];
            fx.q0[k] = (cdyn_real)bad[b];
            ck_assert_int_eq(cdyn_difference(m, fx.q0, fx.q1, fx.dv), CDYN_E_NONFINITE);
            ck_assert_int_eq(cdyn_difference_derivatives(m, fx.q0, fx.q1, fx.C, fx.D),
                             CDYN_E_NONFINITE);
            ck_assert_int_eq(cdyn_difference_derivatives(m, fx.q0, fx.q1, NULL, NULL),
                             CDYN_E_NONFINITE);
            ck_assert_int_eq(cdyn_integrate_derivatives(m, fx.q0, fx.v, fx.A, fx.B),
                             CDYN_E_NONFINITE);
            fx.q0[k] = keep0;
            fx.q1[k] = (cdyn_real)bad[b];
            ck_assert_int_eq(cdyn_difference(m, fx.q0, fx.q1, fx.dv), CDYN_E_NONFINITE);
            ck_assert_int_eq(cdyn_difference_derivatives(m, fx.q0, fx.q1, fx.C, fx.D),
                             CDYN_E_NONFINITE);
            fx.q1[k] = keep1;
        }
        for (int k = 0; k < m->nv; ++k) {
            const cdyn_real keep = fx.v[k];
            fx.v[k] = (cdyn_real)bad[b];
            ck_assert_int_eq(cdyn_integrate_derivatives(m, fx.q0, fx.v, fx.A, fx.B),
                             CDYN_E_NONFINITE);
            ck_assert_int_eq(cdyn_integrate_derivatives(m, fx.q0, fx.v, NULL, NULL),
                             CDYN_E_NONFINITE);
            fx.v[k] = keep;
        }
    }
    /* and clean inputs are fine again */
    ck_assert_int_eq(cdyn_difference(m, fx.q0, fx.q1, fx.dv), CDYN_OK);
    ck_assert_int_eq(cdyn_difference_derivatives(m, fx.q0, fx.q1, fx.C, fx.D), CDYN_OK);
    ck_assert_int_eq(cdyn_integrate_derivatives(m, fx.q0, fx.v, fx.A, fx.B), CDYN_OK);
    fixture_free(&fx);
}
END_TEST

static Suite *manifold_suite(void)
{
    Suite *s = suite_create(CDYN_SCALAR_FLOAT ? "manifold_float" : "manifold");
    TCase *tc = tcase_create("manifold");
    tcase_add_test(tc, test_atan2);
    tcase_add_loop_test(tc, test_hand_random_states, 0, 6); /* every joint, then each alone */
    tcase_add_test(tc, test_angles);
    tcase_add_test(tc, test_series_switch);
    tcase_add_test(tc, test_bad_input);
#ifndef CDYN_FLOAT
    tcase_add_loop_test(tc, test_random_robots, 0, NSEEDS + (int)big_seeds);
#endif
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    const int failed = check_run(manifold_suite(), CK_NOFORK);
    printf("largest errors (%s):\n", CDYN_SCALAR_FLOAT ? "float" : "double");
    for (int k = 0; k < E_COUNT; ++k)
        printf("  %-40s %.3g\n", error_names[k], worst[k]);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
