/* test_generic_invariants.c — identities the generic runtime must satisfy on any robot,
 * checked without a reference: on hand-written models (every joint type, skewed and
 * negative axes, rotated joint frames, a frame on the world) and on 60 seeded random
 * robots from support/random_robot.h, each at random states drawn by a PRNG of the tests'
 * own (support/rng.h, splitmix64).
 *
 *  - RNEA(q, v, ABA(q, v, tau)) = tau and M ABA + nle = tau;
 *  - nle = RNEA(q, v, 0), gravity = RNEA(q, 0, 0);
 *  - M symmetric positive definite (a dense Cholesky here succeeds);
 *  - L^T D L = M with L in the tree pattern; ltl_solve = a dense solve; M^-1 M = I;
 *  - frame Jacobians = central finite differences of frame placements along integrate;
 *    J_lwa = blockdiag(R, R) J_local;
 *  - integrate keeps quaternions and (cos, sin) pairs unit and composes: two half steps
 *    equal one step (a constant body twist), and a zero step is the identity.
 *
 * Tolerances (see each check): 1e-9 relative to the magnitude of the terms summed for the
 * algebraic identities (double rounding is 1e-16, so this leaves six decades for depth and
 * conditioning); 1e-6 for finite differences with step 1e-6 (truncation h^2 ~ 1e-12,
 * rounding eps/h ~ 1e-10, both times the size of the kinematics). */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdyn.h"
#include "support/check_main.h"
#include "support/dense.h"
#include "support/models.h"
#include "support/random_robot.h"
#include "support/rng.h"

#define NSEEDS 60
#define NSTATES 3
#ifndef ALG_TOL
#define ALG_TOL 1e-9 /* algebraic identities, relative */
#endif
#ifndef EXACT_TOL
#define EXACT_TOL 1e-12 /* the same computation reached two ways */
#endif
#define FD_STEP 1e-6
#ifndef FD_TOL
#define FD_TOL 1e-6
#endif
#define PI 3.14159265358979323846

/* q drawn sensibly: angles in [-pi, pi], positions in [-1, 1], (cos, sin) on the circle,
 * quaternions uniform on the unit sphere (rejection in the 4-ball). */
static void random_q(const cdyn_model *m, splitmix64 *g, cdyn_real *q)
{
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        cdyn_real *x = q + b->idx_q;
        double th, n2, u[4];
        switch (b->type) {
        case CDYN_JOINT_REVOLUTE: x[0] = splitmix64_range(g, -PI, PI); break;
        case CDYN_JOINT_PRISMATIC: x[0] = splitmix64_range(g, -1, 1); break;
        case CDYN_JOINT_REVOLUTE_UNBOUNDED:
            th = splitmix64_range(g, -PI, PI);
            x[0] = cos(th);
            x[1] = sin(th);
            break;
        case CDYN_JOINT_PLANAR:
            x[0] = splitmix64_range(g, -1, 1);
            x[1] = splitmix64_range(g, -1, 1);
            th = splitmix64_range(g, -PI, PI);
            x[2] = cos(th);
            x[3] = sin(th);
            break;
        case CDYN_JOINT_FREEFLYER:
            for (int k = 0; k < 3; ++k)
                x[k] = splitmix64_range(g, -1, 1);
            do {
                n2 = 0;
                for (int k = 0; k < 4; ++k) {
                    u[k] = splitmix64_range(g, -1, 1);
                    n2 += u[k] * u[k];
                }
            } while (n2 > 1 || n2 < 1e-2);
            for (int k = 0; k < 4; ++k)
                x[3 + k] = u[k] / sqrt(n2);
            break;
        }
    }
}

static void random_vector(splitmix64 *g, cdyn_real *x, int n)
{
    for (int k = 0; k < n; ++k)
        x[k] = splitmix64_range(g, -1, 1);
}

/* ---- hand-written models ------------------------------------------------------------- */

typedef struct {
    cdyn_model model;
    cdyn_body bodies[8];
    cdyn_frame frames[10];
    int dof_parent[32], dof_body[32];
} hand_model;

/* R = Rz(yaw) Ry(pitch) Rx(roll), row-major. */
static void rpy(cdyn_real R[9], double r, double p, double y)
{
    const double cr = cos(r), sr = sin(r), cp = cos(p), sp = sin(p), cy = cos(y), sy = sin(y);
    const double M[9] = { cy * cp,
                          cy * sp * sr - sy * cr,
                          cy * sp * cr + sy * sr,
                          sy * cp,
                          sy * sp * sr + cy * cr,
                          sy * sp * cr - cy * sr,
                          -sp,
                          cp * sr,
                          cp * cr };
    for (int k = 0; k < 9; ++k)
        R[k] = M[k];
}

static void add_body(hand_model *h, cdyn_joint_type type, int parent, double ax, double ay,
                     double az, const double xyz_rpy[6], double mass, const double com[3],
                     const double inertia[6])
{
    static const int nq_of[] = { 1, 2, 1, 4, 7 }, nv_of[] = { 1, 1, 1, 3, 6 };
    cdyn_model *m = &h->model;
    cdyn_body *b = &h->bodies[m->nbodies];
    const double n = sqrt(ax * ax + ay * ay + az * az);
    b->type = type;
    b->parent = parent;
    b->idx_q = m->nq;
    b->nq = nq_of[type];
    b->idx_v = m->nv;
    b->nv = nv_of[type];
    b->axis[0] = ax / n;
    b->axis[1] = ay / n;
    b->axis[2] = az / n;
    rpy(b->R, xyz_rpy[3], xyz_rpy[4], xyz_rpy[5]);
    for (int k = 0; k < 3; ++k) {
        b->p[k] = xyz_rpy[k];
        b->com[k] = com[k];
    }
    b->mass = mass;
    for (int k = 0; k < 6; ++k)
        b->inertia[k] = inertia[k];
    const int up = parent < 0 ? -1 : h->bodies[parent].idx_v + h->bodies[parent].nv - 1;
    for (int k = 0; k < b->nv; ++k) {
        h->dof_parent[b->idx_v + k] = k ? b->idx_v + k - 1 : up;
        h->dof_body[b->idx_v + k] = m->nbodies;
    }
    m->nq += b->nq;
    m->nv += b->nv;
    m->nbodies++;
}

static void add_frame(hand_model *h, const char *name, int body, const double xyz_rpy[6])
{
    cdyn_frame *f = &h->frames[h->model.nframes++];
    f->name = name;
    f->body = body;
    rpy(f->R, xyz_rpy[3], xyz_rpy[4], xyz_rpy[5]);
    for (int k = 0; k < 3; ++k)
        f->p[k] = xyz_rpy[k];
}

static void hand_init(hand_model *h, const char *name)
{
    memset(h, 0, sizeof *h);
    h->model.name = name;
    h->model.bodies = h->bodies;
    h->model.frames = h->frames;
    h->model.dof_parent = h->dof_parent;
    h->model.dof_body = h->dof_body;
    h->model.gravity[2] = -9.81;
}

static const double I_a[6] = { 0.02, 0.001, -0.002, 0.03, 0.0015, 0.025 };
static const double I_b[6] = { 0.11, -0.01, 0.004, 0.09, 0.002, 0.05 };
static const double com_a[3] = { 0.05, -0.02, 0.1 }, com_b[3] = { -0.03, 0.04, 0.2 };

static void hand_double_pendulum(hand_model *h)
{
    const double o1[6] = { 0, 0, 0.5, 0, 0, 0 }, o2[6] = { 0, 0.1, 0.4, 0, 0, 0 };
    const double tip[6] = { 0, 0, 0.45, 0, 0, 0 };
    hand_init(h, "double_pendulum");
    add_body(h, CDYN_JOINT_REVOLUTE, -1, 1, 0, 0, o1, 1.0, com_a, I_a);
    add_body(h, CDYN_JOINT_REVOLUTE, 0, 1, 0, 0, o2, 0.7, com_b, I_b);
    add_frame(h, "tip", 1, tip);
}

/* Every joint type once, with skewed and negative axes and rotated joint frames. */
static void hand_chain(hand_model *h)
{
    const double o1[6] = { 0.1, 0, 0.3, 0.2, -0.1, 0.4 }, o2[6] = { 0, 0.2, 0.1, 0, PI / 2, 0 };
    const double o3[6] = { 0.3, -0.1, 0, -0.3, 0.5, 1.1 }, o4[6] = { 0, 0, 0.25, 0.7, 0, -0.2 };
    const double o5[6] = { 0.2, 0.1, -0.1, 0.1, 0.2, 0.3 };
    const double f1[6] = { 0.1, 0.2, 0.3, 0.3, -0.7, 1.9 }, f2[6] = { 0, 0, 0, 0, 0, 0 };
    const double fw[6] = { 1, 2, 3, 0.1, 0.2, 0.3 };
    hand_init(h, "chain");
    add_body(h, CDYN_JOINT_REVOLUTE, -1, 0, 0, 1, o1, 2.0, com_a, I_b);
    add_body(h, CDYN_JOINT_PRISMATIC, 0, 1, -2, 0.5, o2, 1.5, com_b, I_a);
    add_body(h, CDYN_JOINT_REVOLUTE_UNBOUNDED, 1, 0, -1, 0, o3, 1.2, com_a, I_a);
    add_body(h, CDYN_JOINT_REVOLUTE, 2, 1, 2, 3, o4, 0.9, com_b, I_b);
    add_body(h, CDYN_JOINT_PLANAR, 3, 0, 0, 1, o5, 0.8, com_a, I_b);
    add_frame(h, "end", 4, f1);
    add_frame(h, "skew", 3, f2);
    add_frame(h, "world_marker", -1, fw);
}

/* A free-flyer with two branches. */
static void hand_floating(hand_model *h)
{
    const double o0[6] = { 0, 0, 0, 0, 0, 0 }, oa[6] = { 0.3, 0.1, 0, 0, 0, 0.5 };
    const double ob[6] = { 0, 0.4, 0, 0.2, 0, 0 }, oc[6] = { -0.3, 0.1, 0, PI, 0, 0 };
    const double od[6] = { 0, 0, -0.3, 0, -PI / 2, 0 }, fa[6] = { 0, 0, 0.2, 0, 0, 0 };
    hand_init(h, "floating");
    add_body(h, CDYN_JOINT_FREEFLYER, -1, 1, 0, 0, o0, 5.0, com_a, I_b);
    add_body(h, CDYN_JOINT_REVOLUTE, 0, 1, 0, 0, oa, 1.0, com_b, I_a);
    add_body(h, CDYN_JOINT_REVOLUTE, 1, 0, 1, 0, ob, 0.8, com_a, I_a);
    add_body(h, CDYN_JOINT_REVOLUTE, 0, 0, 0, -1, oc, 1.1, com_b, I_b);
    add_body(h, CDYN_JOINT_PRISMATIC, 3, 1, 0, 0, od, 0.6, com_a, I_a);
    add_frame(h, "base", 0, o0);
    add_frame(h, "foot_a", 2, fa);
    add_frame(h, "foot_b", 4, fa);
}

static void (*const hand_models[])(hand_model *) = { hand_double_pendulum, hand_chain,
                                                     hand_floating };
#define NHAND ((int)(sizeof hand_models / sizeof hand_models[0]))

/* ---- dense linear algebra of the test's own -------------------------------------------- */

static double max_abs(const cdyn_real *x, int n)
{
    double s = 0;
    for (int k = 0; k < n; ++k)
        if (fabs((double)x[k]) > s)
            s = fabs((double)x[k]);
    return s;
}

/* max |x - y|, NaN counting as infinite. */
static double max_diff(const cdyn_real *x, const cdyn_real *y, int n)
{
    double e = 0;
    for (int k = 0; k < n; ++k) {
        const double d = fabs((double)x[k] - (double)y[k]);
        if (!(d <= e))
            e = d;
    }
    return e;
}

/* ---- the checks ---------------------------------------------------------------------- */

typedef struct {
    const cdyn_model *m;
    cdyn_data d;
    void *buf;
    const char *what; /* "seed 12" or the hand model's name */
    int state;
    double cond_tol; /* tolerance of forward errors (they grow with cond(M)) */
    cdyn_real *q, *v, *tau, *a, *ddq, *x, *y, *M, *Minv, *L, *D, *J, *J2, *qp, *qm;
    double *G;
    cdyn_real (*pos)[2][3], (*rot)[2][9]; /* frame placements at q +- h e_j */
} fixture;

static void fixture_init(fixture *fx, const cdyn_model *m, const char *what, double cond_tol)
{
    const size_t nq = (size_t)m->nq, nv = (size_t)m->nv, r = sizeof(cdyn_real);
    const size_t nf = (size_t)m->nframes + 1, bytes = cdyn_data_size(m);
    memset(fx, 0, sizeof *fx);
    fx->m = m;
    fx->what = what;
    fx->cond_tol = cond_tol;
    fx->buf = malloc(bytes);
    ck_assert_ptr_nonnull(fx->buf);
    ck_assert_int_eq(cdyn_data_init(&fx->d, m, fx->buf, bytes), CDYN_OK);
    cdyn_real **vecs[] = { &fx->v, &fx->tau, &fx->a, &fx->ddq, &fx->x, &fx->y, &fx->D };
    for (size_t k = 0; k < sizeof vecs / sizeof vecs[0]; ++k)
        ck_assert_ptr_nonnull(*vecs[k] = malloc(r * nv + 1));
    cdyn_real **mats[] = { &fx->M, &fx->Minv, &fx->L };
    for (size_t k = 0; k < sizeof mats / sizeof mats[0]; ++k)
        ck_assert_ptr_nonnull(*mats[k] = malloc(r * nv * nv + 1));
    ck_assert_ptr_nonnull(fx->q = malloc(r * nq + 1));
    ck_assert_ptr_nonnull(fx->qp = malloc(r * nq + 1));
    ck_assert_ptr_nonnull(fx->qm = malloc(r * nq + 1));
    ck_assert_ptr_nonnull(fx->J = malloc(r * 6 * nv + 1));
    ck_assert_ptr_nonnull(fx->J2 = malloc(r * 6 * nv + 1));
    ck_assert_ptr_nonnull(fx->G = malloc(sizeof(double) * nv * nv + 1));
    ck_assert_ptr_nonnull(fx->pos = malloc(sizeof *fx->pos * nf * nv + 1));
    ck_assert_ptr_nonnull(fx->rot = malloc(sizeof *fx->rot * nf * nv + 1));
}

static void fixture_free(fixture *fx)
{
    void *all[] = { fx->buf, fx->q,  fx->v,    fx->tau, fx->a,  fx->ddq, fx->x,
                    fx->y,   fx->M,  fx->Minv, fx->L,   fx->D,  fx->J,   fx->J2,
                    fx->qp,  fx->qm, fx->G,    fx->pos, fx->rot };
    for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k)
        free(all[k]);
}

#define FAIL_IF(cond, fx, ...)                                                                     \
    do {                                                                                           \
        if (cond) {                                                                                \
            char msg_[512];                                                                        \
            snprintf(msg_, sizeof msg_, __VA_ARGS__);                                              \
            ck_abort_msg("%s (nv %d) state %d: %s", (fx)->what, (fx)->m->nv, (fx)->state, msg_);   \
        }                                                                                          \
    } while (0)

/* ABA against RNEA and against M, nle: the residuals sum terms as large as |tau|, |nle|
 * and |M| |ddq|, so they are bounded by ALG_TOL times that scale. */
static void check_forward_inverse(fixture *fx)
{
    const cdyn_model *m = fx->m;
    const int nv = m->nv;
    ck_assert_int_eq(cdyn_aba(m, &fx->d, fx->q, fx->v, fx->tau, fx->ddq), CDYN_OK);
    ck_assert_int_eq(cdyn_crba(m, &fx->d, fx->q, fx->M), CDYN_OK);
    ck_assert_int_eq(cdyn_nle(m, &fx->d, fx->q, fx->v, fx->x), CDYN_OK);
    const double scale = 1 + max_abs(fx->tau, nv) + max_abs(fx->x, nv) +
                         max_abs(fx->M, nv * nv) * max_abs(fx->ddq, nv);
    for (int i = 0; i < nv; ++i) { /* y = M ddq + nle */
        double s = fx->x[i];
        for (int j = 0; j < nv; ++j)
            s += fx->M[i * nv + j] * fx->ddq[j];
        fx->y[i] = s;
    }
    double e = max_diff(fx->y, fx->tau, nv);
    FAIL_IF(e > ALG_TOL * scale, fx, "|M aba + nle - tau| = %.3g (scale %.3g)", e, scale);
    ck_assert_int_eq(cdyn_rnea(m, &fx->d, fx->q, fx->v, fx->ddq, fx->y), CDYN_OK);
    e = max_diff(fx->y, fx->tau, nv);
    FAIL_IF(e > ALG_TOL * scale, fx, "|rnea(q, v, aba) - tau| = %.3g (scale %.3g)", e, scale);
}

/* nle and gravity are RNEA with zero acceleration / zero velocity too. */
static void check_special_rnea(fixture *fx)
{
    const cdyn_model *m = fx->m;
    const int nv = m->nv;
    for (int k = 0; k < nv; ++k)
        fx->a[k] = 0;
    ck_assert_int_eq(cdyn_nle(m, &fx->d, fx->q, fx->v, fx->x), CDYN_OK);
    ck_assert_int_eq(cdyn_rnea(m, &fx->d, fx->q, fx->v, fx->a, fx->y), CDYN_OK);
    double e = max_diff(fx->x, fx->y, nv);
    FAIL_IF(e > EXACT_TOL * (1 + max_abs(fx->y, nv)), fx, "|nle - rnea(q, v, 0)| = %.3g", e);
    ck_assert_int_eq(cdyn_gravity(m, &fx->d, fx->q, fx->x), CDYN_OK);
    ck_assert_int_eq(cdyn_rnea(m, &fx->d, fx->q, fx->a, fx->a, fx->y), CDYN_OK);
    e = max_diff(fx->x, fx->y, nv);
    FAIL_IF(e > EXACT_TOL * (1 + max_abs(fx->y, nv)), fx, "|gravity - rnea(q, 0, 0)| = %.3g", e);
}

static int is_ancestor_dof(const cdyn_model *m, int j, int i)
{
    for (int k = m->dof_parent[i]; k >= 0; k = m->dof_parent[k])
        if (k == j)
            return 1;
    return 0;
}

/* M symmetric positive definite; L^T D L = M with L unit lower in the tree pattern. A
 * backward-stable factorisation reproduces M to rounding times |M|. */
static void check_factorisation(fixture *fx)
{
    const cdyn_model *m = fx->m;
    const int nv = m->nv;
    ck_assert_int_eq(cdyn_crba(m, &fx->d, fx->q, fx->M), CDYN_OK);
    const double scale = max_abs(fx->M, nv * nv);
    for (int i = 0; i < nv; ++i)
        for (int j = 0; j < i; ++j)
            FAIL_IF(fabs((double)(fx->M[i * nv + j] - fx->M[j * nv + i])) > EXACT_TOL * scale, fx,
                    "M not symmetric at (%d, %d)", i, j);
    FAIL_IF(dense_cholesky(fx->M, fx->G, nv) != 0, fx, "M is not positive definite");
    ck_assert_int_eq(cdyn_ltl(m, &fx->d), CDYN_OK);
    ck_assert_int_eq(cdyn_ltl_factor(m, &fx->d, fx->L, fx->D), CDYN_OK);
    for (int i = 0; i < nv; ++i) {
        FAIL_IF(!(fx->D[i] > 0), fx, "D[%d] = %g", i, (double)fx->D[i]);
        for (int j = 0; j < nv; ++j) {
            const double l = fx->L[i * nv + j];
            const int allowed = i == j ? l == 1 : (j < i && is_ancestor_dof(m, j, i)) || l == 0;
            FAIL_IF(!allowed, fx, "L[%d][%d] = %g outside the unit lower tree pattern", i, j, l);
        }
    }
    double e = 0;
    for (int i = 0; i < nv; ++i) /* (L^T D L)(i, j) = sum_k L(k,i) D(k) L(k,j) */
        for (int j = 0; j < nv; ++j) {
            double s = 0;
            for (int k = 0; k < nv; ++k)
                s += fx->L[k * nv + i] * fx->D[k] * fx->L[k * nv + j];
            if (!(fabs(s - fx->M[i * nv + j]) <= e))
                e = fabs(s - fx->M[i * nv + j]);
        }
    FAIL_IF(e > ALG_TOL * scale, fx, "|L^T D L - M| = %.3g (|M| %.3g)", e, scale);
}

/* Solves: forward errors grow with cond(M), hence cond_tol relative to the solution. */
static void check_solves(fixture *fx, splitmix64 *g)
{
    const cdyn_model *m = fx->m;
    const int nv = m->nv;
    ck_assert_int_eq(cdyn_crba(m, &fx->d, fx->q, fx->M), CDYN_OK);
    ck_assert_int_eq(dense_cholesky(fx->M, fx->G, nv), 0);
    ck_assert_int_eq(cdyn_ltl(m, &fx->d), CDYN_OK);
    random_vector(g, fx->x, nv);
    dense_cholesky_solve_factored(fx->G, nv, fx->x, fx->y);
    ck_assert_int_eq(cdyn_ltl_solve(m, &fx->d, fx->x), CDYN_OK);
    double e = max_diff(fx->x, fx->y, nv), scale = 1 + max_abs(fx->y, nv);
    FAIL_IF(e > fx->cond_tol * scale, fx, "|ltl_solve - dense solve| = %.3g (|x| %.3g)", e, scale);

    ck_assert_int_eq(cdyn_minv(m, &fx->d, fx->q, fx->Minv), CDYN_OK);
    e = 0;
    for (int i = 0; i < nv; ++i)
        for (int j = 0; j < nv; ++j) {
            double s = -(double)(i == j);
            for (int k = 0; k < nv; ++k)
                s += fx->Minv[i * nv + k] * fx->M[k * nv + j];
            if (!(fabs(s) <= e))
                e = fabs(s);
        }
    FAIL_IF(e > fx->cond_tol, fx, "|M^-1 M - I| = %.3g", e);
}

/* vee((A - A^T) / 2) of A = R0^T R1: the rotation's log to O(angle^3), ample for 1e-6 steps. */
static void small_log(double w[3], const cdyn_real R0[9], const cdyn_real R1[9])
{
    double A[9];
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            A[3 * r + c] = R0[r] * R1[c] + R0[3 + r] * R1[3 + c] + R0[6 + r] * R1[6 + c];
    w[0] = (A[7] - A[5]) / 2;
    w[1] = (A[2] - A[6]) / 2;
    w[2] = (A[3] - A[1]) / 2;
}

/* Placements of every frame at q + h e_j (s = 0) and q - h e_j (s = 1), for every DoF j. */
static void perturbed_placements(fixture *fx)
{
    const cdyn_model *m = fx->m;
    const int nv = m->nv, nf = m->nframes;
    for (int j = 0; j < nv; ++j)
        for (int s = 0; s < 2; ++s) {
            for (int k = 0; k < nv; ++k)
                fx->y[k] = k == j ? (s ? -FD_STEP : FD_STEP) : 0;
            ck_assert_int_eq(cdyn_integrate(m, fx->q, fx->y, 1, fx->qp), CDYN_OK);
            ck_assert_int_eq(cdyn_fk(m, &fx->d, fx->qp), CDYN_OK);
            for (int f = 0; f < nf; ++f)
                ck_assert_int_eq(cdyn_frame_placement(m, &fx->d, f, fx->rot[f * nv + j][s],
                                                      fx->pos[f * nv + j][s]),
                                 CDYN_OK);
        }
}

/* J_local: column j = [R^T dp/dq_j; d log(R0^T R)/dq_j], by central differences; J_lwa =
 * blockdiag(R, R) J_local. */
static void check_jacobians(fixture *fx)
{
    const cdyn_model *m = fx->m;
    const int nv = m->nv;
    perturbed_placements(fx);
    ck_assert_int_eq(cdyn_fk(m, &fx->d, fx->q), CDYN_OK);
    for (int f = 0; f < m->nframes; ++f) {
        cdyn_real R[9], p[3];
        ck_assert_int_eq(cdyn_frame_placement(m, &fx->d, f, R, p), CDYN_OK);
        ck_assert_int_eq(cdyn_frame_jacobian(m, &fx->d, fx->q, f, CDYN_LOCAL, fx->J), CDYN_OK);
        ck_assert_int_eq(cdyn_frame_jacobian(m, &fx->d, fx->q, f, CDYN_LOCAL_WORLD_ALIGNED, fx->J2),
                         CDYN_OK);
        const double scale = 1 + max_abs(fx->J, 6 * nv);
        double e_fd = 0, e_lwa = 0;
        for (int j = 0; j < nv; ++j) {
            const cdyn_real *pp = fx->pos[f * nv + j][0], *pm = fx->pos[f * nv + j][1];
            double dp[3], wp[3], wm[3], col[6];
            small_log(wp, R, fx->rot[f * nv + j][0]);
            small_log(wm, R, fx->rot[f * nv + j][1]);
            for (int k = 0; k < 3; ++k) {
                dp[k] = (pp[k] - pm[k]) / (2 * FD_STEP);
                col[3 + k] = (wp[k] - wm[k]) / (2 * FD_STEP);
            }
            for (int k = 0; k < 3; ++k)
                col[k] = R[k] * dp[0] + R[3 + k] * dp[1] + R[6 + k] * dp[2];
            for (int r = 0; r < 6; ++r) {
                const double d = fabs(col[r] - fx->J[r * nv + j]);
                if (!(d <= e_fd))
                    e_fd = d;
                const int base = r < 3 ? 0 : 3, rr = r - base;
                const double lwa = R[3 * rr] * fx->J[base * nv + j] +
                                   R[3 * rr + 1] * fx->J[(base + 1) * nv + j] +
                                   R[3 * rr + 2] * fx->J[(base + 2) * nv + j];
                if (!(fabs(lwa - fx->J2[r * nv + j]) <= e_lwa))
                    e_lwa = fabs(lwa - fx->J2[r * nv + j]);
            }
        }
        FAIL_IF(e_fd > FD_TOL * scale, fx, "frame %s: |J_local - finite differences| = %.3g",
                m->frames[f].name, e_fd);
        FAIL_IF(e_lwa > EXACT_TOL * scale, fx, "frame %s: |J_lwa - R J_local| = %.3g",
                m->frames[f].name, e_lwa);
    }
}

/* Unit quaternions and pairs after integrate; two half steps of a constant twist equal
 * one step; a zero step changes nothing. */
static void check_integrate(fixture *fx, splitmix64 *g)
{
    const cdyn_model *m = fx->m;
    const double dt = 0.37;
    random_vector(g, fx->y, m->nv);
    for (int k = 0; k < m->nv; ++k)
        fx->y[k] *= 3; /* large steps: angles beyond pi */
    ck_assert_int_eq(cdyn_integrate(m, fx->q, fx->y, dt, fx->qp), CDYN_OK);
    ck_assert_int_eq(cdyn_integrate(m, fx->q, fx->y, dt / 2, fx->qm), CDYN_OK);
    ck_assert_int_eq(cdyn_integrate(m, fx->qm, fx->y, dt / 2, fx->qm), CDYN_OK); /* in place */
    double e = max_diff(fx->qp, fx->qm, m->nq);
    FAIL_IF(e > EXACT_TOL * 100 * (1 + max_abs(fx->qp, m->nq)), fx,
            "integrate(dt) vs two dt/2 steps: %.3g", e);
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        const cdyn_real *x = fx->qp + b->idx_q;
        double n2 = -1;
        if (b->type == CDYN_JOINT_FREEFLYER)
            n2 = x[3] * x[3] + x[4] * x[4] + x[5] * x[5] + x[6] * x[6];
        else if (b->type == CDYN_JOINT_REVOLUTE_UNBOUNDED)
            n2 = x[0] * x[0] + x[1] * x[1];
        else if (b->type == CDYN_JOINT_PLANAR)
            n2 = x[2] * x[2] + x[3] * x[3];
        FAIL_IF(n2 >= 0 && fabs(n2 - 1) > 1e-14, fx, "body %d: |unit part|^2 - 1 = %.3g", i,
                n2 - 1);
    }
    ck_assert_int_eq(cdyn_integrate(m, fx->q, fx->y, 0, fx->qp), CDYN_OK);
    e = max_diff(fx->qp, fx->q, m->nq);
    FAIL_IF(e > 1e-15 * (1 + max_abs(fx->q, m->nq)), fx, "integrate with dt = 0 moved q by %.3g",
            e);
}

static void run_invariants(const cdyn_model *m, const char *what, unsigned seed, double cond_tol)
{
    fixture fx;
    splitmix64 g = { 0x5EED0000ull + seed };
    fixture_init(&fx, m, what, cond_tol);
    for (fx.state = 0; fx.state < NSTATES; ++fx.state) {
        random_q(m, &g, fx.q);
        random_vector(&g, fx.v, m->nv);
        random_vector(&g, fx.tau, m->nv);
        check_forward_inverse(&fx);
        check_special_rnea(&fx);
        check_factorisation(&fx);
        check_solves(&fx, &g);
        check_jacobians(&fx);
        check_integrate(&fx, &g);
    }
    fixture_free(&fx);
}

START_TEST(test_hand_models)
{
    hand_model h;
    hand_models[_i](&h);
    run_invariants(&h.model, h.model.name, (unsigned)_i, ALG_TOL);
}
END_TEST

START_TEST(test_random_robots)
{
    const unsigned seed = (unsigned)_i;
    char what[64];
    random_model r;
    random_model_open(&r, seed);
    ck_assert_int_eq(r.mt.model.nv, random_robot_expected_nv(seed));
    ck_assert_int_eq(r.mt.model.nq, random_robot_expected_nq(seed));
    snprintf(what, sizeof what, "seed %u", seed);
    /* the extreme seeds have cond(M) near 1e8: forward errors ~ 1e8 eps ~ 1e-8 */
    run_invariants(&r.mt.model, what, seed, random_robot_is_extreme(seed) ? 1e-6 : ALG_TOL);
    random_model_close(&r);
}
END_TEST

/* ---- API contracts -------------------------------------------------------------------- */

START_TEST(test_api_errors)
{
    hand_model h, other;
    hand_floating(&h);
    hand_chain(&other);
    const cdyn_model *m = &h.model;
    const size_t bytes = cdyn_data_size(m);
    ck_assert_uint_gt(bytes, 0);
    ck_assert_uint_eq(cdyn_data_size(NULL), 0);
    char *raw = malloc(bytes + 1);
    cdyn_data d;
    ck_assert_int_eq(cdyn_data_init(&d, m, raw + 1, bytes - 1), CDYN_E_SIZE);
    ck_assert_int_eq(cdyn_data_init(&d, m, raw + 1, bytes), CDYN_OK); /* misaligned is fine */
    ck_assert_int_eq(cdyn_data_init(NULL, m, raw, bytes), CDYN_E_ARG);
    cdyn_real q[32], v[32], out[32 * 32], R[9], p[3];
    ck_assert_int_eq(cdyn_neutral(m, q), CDYN_OK);
    for (int k = 0; k < m->nv; ++k)
        v[k] = 0;
    ck_assert_int_eq(cdyn_rnea(&other.model, &d, q, v, v, out), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_aba(&other.model, &d, q, v, v, out), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_ltl_solve(&other.model, &d, out), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_rnea(m, &d, NULL, v, v, out), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_frame_placement(m, &d, m->nframes, R, p), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_frame_jacobian(m, &d, q, -1, CDYN_LOCAL, out), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_frame_jacobian(m, &d, q, 0, (cdyn_reference)7, out), CDYN_E_ARG);
    /* at the neutral configuration the base frame is the identity */
    ck_assert_int_eq(cdyn_fk(m, &d, q), CDYN_OK);
    ck_assert_int_eq(cdyn_frame_placement(m, &d, 0, R, p), CDYN_OK);
    for (int k = 0; k < 9; ++k)
        ck_assert(R[k] == (k % 4 == 0));
    ck_assert(p[0] == 0 && p[1] == 0 && p[2] == 0);
    ck_assert(q[6] == 1 && q[3] == 0);
    for (int s = CDYN_E_SINGULAR; s <= CDYN_OK; ++s)
        ck_assert(strlen(cdyn_strerror((cdyn_status)s)) > 0);
    free(raw);
}
END_TEST

/* Tables the runtime cannot sweep are refused up front: breadth-first DoFs (subtrees not
 * contiguous) and a parent listed after its child. */
START_TEST(test_inconsistent_models)
{
    hand_model h;
    const double o[6] = { 0, 0, 0.1, 0, 0, 0 };
    cdyn_data d;
    char buf[4096];
    hand_init(&h, "breadth_first");
    add_body(&h, CDYN_JOINT_REVOLUTE, -1, 1, 0, 0, o, 1, com_a, I_a);
    add_body(&h, CDYN_JOINT_REVOLUTE, 0, 0, 1, 0, o, 1, com_a, I_a);
    add_body(&h, CDYN_JOINT_REVOLUTE, 0, 0, 0, 1, o, 1, com_a, I_a);
    ck_assert_uint_gt(cdyn_data_size(&h.model), 0); /* 0 -> 1, 0 -> 2: depth first */
    add_body(&h, CDYN_JOINT_REVOLUTE, 1, 1, 0, 0, o, 1, com_a, I_a);
    ck_assert_uint_eq(cdyn_data_size(&h.model), 0); /* 1 -> 3 after 2: not */
    ck_assert_int_eq(cdyn_data_init(&d, &h.model, buf, sizeof buf), CDYN_E_ARG);
    hand_double_pendulum(&h);
    h.bodies[0].parent = 1;
    ck_assert_uint_eq(cdyn_data_size(&h.model), 0);
    ck_assert_int_eq(cdyn_data_init(&d, &h.model, buf, sizeof buf), CDYN_E_ARG);
}
END_TEST

/* A massless body makes M singular: the factorisation and ABA say so. */
START_TEST(test_singular)
{
    hand_model h;
    hand_double_pendulum(&h);
    h.bodies[1].mass = 0;
    for (int k = 0; k < 6; ++k)
        h.bodies[1].inertia[k] = 0;
    const cdyn_model *m = &h.model;
    const size_t bytes = cdyn_data_size(m);
    void *buf = malloc(bytes);
    cdyn_data d;
    cdyn_real q[2] = { 0.3, -0.2 }, v[2] = { 0, 0 }, out[4];
    ck_assert_int_eq(cdyn_data_init(&d, m, buf, bytes), CDYN_OK);
    ck_assert_int_eq(cdyn_crba(m, &d, q, out), CDYN_OK);
    ck_assert(out[3] == 0);
    ck_assert_int_eq(cdyn_ltl(m, &d), CDYN_E_SINGULAR);
    ck_assert_int_eq(cdyn_minv(m, &d, q, out), CDYN_E_SINGULAR);
    ck_assert_int_eq(cdyn_aba(m, &d, q, v, v, out), CDYN_E_SINGULAR);
    free(buf);
}
END_TEST

/* A pendulum with a point mass: M and gravity in closed form. */
START_TEST(test_point_pendulum)
{
    hand_model h;
    const double o[6] = { 0, 0, 0, 0, 0, 0 }, com[3] = { 0, 0, -0.5 }, I0[6] = { 0 };
    hand_init(&h, "point_pendulum");
    add_body(&h, CDYN_JOINT_REVOLUTE, -1, 1, 0, 0, o, 2.0, com, I0);
    const cdyn_model *m = &h.model;
    const size_t bytes = cdyn_data_size(m);
    void *buf = malloc(bytes);
    cdyn_data d;
    const cdyn_real q[1] = { 0.4 }, v[1] = { 1.5 };
    cdyn_real out[1];
    ck_assert_int_eq(cdyn_data_init(&d, m, buf, bytes), CDYN_OK);
    ck_assert_int_eq(cdyn_crba(m, &d, q, out), CDYN_OK);
    ck_assert_double_eq_tol(out[0], 2.0 * 0.25, 1e-15); /* m l^2 */
    ck_assert_int_eq(cdyn_gravity(m, &d, q, out), CDYN_OK);
    ck_assert_double_eq_tol(out[0], 2.0 * 9.81 * 0.5 * sin(0.4), 1e-14); /* m g l sin q */
    ck_assert_int_eq(cdyn_nle(m, &d, q, v, out), CDYN_OK);               /* no Coriolis */
    ck_assert_double_eq_tol(out[0], 2.0 * 9.81 * 0.5 * sin(0.4), 1e-14);
    free(buf);
}
END_TEST

static Suite *generic_invariants_suite(void)
{
    Suite *s = suite_create("generic_invariants");
    TCase *api = tcase_create("api");
    tcase_add_test(api, test_api_errors);
    tcase_add_test(api, test_inconsistent_models);
    tcase_add_test(api, test_singular);
    tcase_add_test(api, test_point_pendulum);
    suite_add_tcase(s, api);
    TCase *hand = tcase_create("hand_models");
    tcase_add_loop_test(hand, test_hand_models, 0, NHAND);
    suite_add_tcase(s, hand);
    TCase *rnd = tcase_create("random_robots");
    tcase_add_loop_test(rnd, test_random_robots, 0, NSEEDS);
    tcase_set_timeout(rnd, 60);
    suite_add_tcase(s, rnd);
    return s;
}

int main(void)
{
    return check_run(generic_invariants_suite(), CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
