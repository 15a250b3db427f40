/* test_generated_size.c — `cdyngen --size` (issue 15): NAME.c calls the generic runtime instead
 * of straight-line code, behind the same NAME.h. Each size-form robot is held against the
 * full (straight-line) form of the same robot and set, generated beside it: every function of
 * NAME.h on random states, at the tolerances test_generated_random holds the full form to
 * against the generic runtime (1e-10 relative; 1e3 times that for the two solvers that
 * factorise M + J^T J / mu). The pairs: quadruped12 on a free-flyer with its four 3d feet,
 * arm7 with its 6d tool (a rotation in Baumgarte's error) and the four-bar with its 3d loop.
 *
 * And what only the size form has to get right, its workspace being the runtime's carved
 * anew by every call:
 *  - a NAME_data memcpy'd to another address after crba gives the same ltl, bit for bit
 *    (the original scrambled meanwhile: no pointer into it may survive);
 *  - an uninitialised NAME_data (bytes 0xa5, then 0xff) gives the same results;
 *  - the const functions on a NAME_data no function has filled: frame_placement returns -1,
 *    ltl_solve and ltl_factor leave their outputs as they are (they cannot trust its index
 *    tables, and may not write them);
 *  - the caller-facing fields: ref_R/ref_p written by constraint_capture and read by the
 *    solvers' Baumgarte terms, primal_residual/dual_residual after a solve.
 * The derivatives NAME_rnea_derivatives and NAME_aba_derivatives (every entry written) are
 * held to 1e-12 (DERIV_TOL). */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdyn.h"
#include "support/check_main.h"
#include "support/compare.h"
#include "support/rng.h"
#include "generated_api.h"
#include "size_q12_full.h"
#include "size_q12.h"
#include "size_arm7_full.h"
#include "size_arm7.h"
#include "fourbar_loop.h"
#include "size_fourbar.h"

#define TOL 1e-10
#define PENALTY_GROWTH 1e3 /* as test_generated_random: prox_ltls, constrained_aba */
/* NAME_rnea_derivatives and NAME_aba_derivatives, size form (the runtime's
 * cdyn_rnea_derivatives, cdyn_aba_derivatives) against full form (straight-line code):
 * 1e-12 relative, measured 1.1e-15 (RNEA's) and 4.0e-13 (ABA's, quadruped12's solve with M) */
#define DERIV_TOL 1e-12
#define STATES 4

extern const generated_api size_q12_full_api, size_q12_api, size_arm7_full_api, size_arm7_api,
    fourbar_loop_api, size_fourbar_api;

typedef int (*delassus_fn)(void *d, const cdyn_real *q, cdyn_real mu, cdyn_real *G);

/* What generated_api does not carry: the two named Delassus routes and where ref_R/ref_p
 * sit in each form's NAME_data. [0] the full form, [1] the size form. */
typedef struct {
    const generated_api *api[2];
    delassus_fn factorised[2], articulated[2];
    size_t ref_R[2], ref_p[2];
} pair;

#define DELASSUS(fn, type)                                                                         \
    static int fn##_w(void *d, const cdyn_real *q, cdyn_real mu, cdyn_real *G)                     \
    {                                                                                              \
        return fn((type *)d, q, mu, G);                                                            \
    }
DELASSUS(size_q12_full_delassus_factorised, size_q12_full_data)
DELASSUS(size_q12_full_delassus_articulated, size_q12_full_data)
DELASSUS(size_q12_delassus_factorised, size_q12_data)
DELASSUS(size_q12_delassus_articulated, size_q12_data)
DELASSUS(size_arm7_full_delassus_factorised, size_arm7_full_data)
DELASSUS(size_arm7_full_delassus_articulated, size_arm7_full_data)
DELASSUS(size_arm7_delassus_factorised, size_arm7_data)
DELASSUS(size_arm7_delassus_articulated, size_arm7_data)
DELASSUS(fourbar_loop_delassus_factorised, fourbar_loop_data)
DELASSUS(size_fourbar_delassus_factorised, size_fourbar_data)

static const pair pairs[] = {
    { { &size_q12_full_api, &size_q12_api },
      { size_q12_full_delassus_factorised_w, size_q12_delassus_factorised_w },
      { size_q12_full_delassus_articulated_w, size_q12_delassus_articulated_w },
      { offsetof(size_q12_full_data, ref_R), offsetof(size_q12_data, ref_R) },
      { offsetof(size_q12_full_data, ref_p), offsetof(size_q12_data, ref_p) } },
    { { &size_arm7_full_api, &size_arm7_api },
      { size_arm7_full_delassus_factorised_w, size_arm7_delassus_factorised_w },
      { size_arm7_full_delassus_articulated_w, size_arm7_delassus_articulated_w },
      { offsetof(size_arm7_full_data, ref_R), offsetof(size_arm7_data, ref_R) },
      { offsetof(size_arm7_full_data, ref_p), offsetof(size_arm7_data, ref_p) } },
    { { &fourbar_loop_api, &size_fourbar_api },
      { fourbar_loop_delassus_factorised_w, size_fourbar_delassus_factorised_w },
      { NULL, NULL },
      { offsetof(fourbar_loop_data, ref_R), offsetof(size_fourbar_data, ref_R) },
      { offsetof(fourbar_loop_data, ref_p), offsetof(size_fourbar_data, ref_p) } },
};
#define NPAIRS ((int)(sizeof pairs / sizeof pairs[0]))

typedef struct {
    const pair *p;
    const generated_api *f, *s; /* full, size */
    void *df, *ds, *copy;       /* their workspaces, and one more of the size form */
    double *q, *v, *tau, *a, *x, *y, *X, *Y;
    unsigned rng;
} fixture;

static void setup(fixture *fx, int k)
{
    size_t nv2;
    memset(fx, 0, sizeof *fx);
    fx->p = &pairs[k];
    fx->f = fx->p->api[0];
    fx->s = fx->p->api[1];
    ck_assert_int_eq(fx->f->nq, fx->s->nq);
    ck_assert_int_eq(fx->f->nv, fx->s->nv);
    ck_assert_int_eq(fx->f->nframes, fx->s->nframes);
    ck_assert_int_eq(fx->f->nc, fx->s->nc);
    ck_assert_int_eq(fx->f->nconstraints, fx->s->nconstraints);
    ck_assert_uint_eq(fx->s->generic_data_bytes, cdyn_data_size(fx->s->model));
    nv2 = (size_t)(2 * (fx->f->nv + fx->f->nc) * (fx->f->nv + fx->f->nc) + 16);
    fx->df = malloc(fx->f->data_size);
    fx->ds = malloc(fx->s->data_size);
    fx->copy = malloc(fx->s->data_size);
    fx->q = malloc(8 * nv2 * sizeof(double));
    ck_assert(fx->df && fx->ds && fx->copy && fx->q);
    memset(fx->ds, 0xa5, fx->s->data_size); /* never initialised: garbage bytes */
    fx->v = fx->q + nv2;
    fx->tau = fx->v + nv2;
    fx->a = fx->tau + nv2;
    fx->x = fx->a + nv2;
    fx->y = fx->x + nv2;
    fx->X = fx->y + nv2;
    fx->Y = fx->X + nv2;
    fx->rng = 2463534242u + (unsigned)k;
}

static void teardown(fixture *fx)
{
    free(fx->df);
    free(fx->ds);
    free(fx->copy);
    free(fx->q);
}

/* neutral (+) random v, as test_generated_random. */
static void random_state(fixture *fx)
{
    int nv = fx->f->nv;
    xorshift32_state(&fx->rng, nv, fx->x, fx->v, fx->tau, fx->a);
    fx->f->neutral(fx->y);
    fx->f->integrate(fx->y, fx->x, 1.0, fx->q);
}

static void check_kinematics(fixture *fx, int st)
{
    const generated_api *f = fx->f, *s = fx->s;
    const char *r = s->name;
    double R[9], p[3], sR[9], sp[3];
    int k, nv = f->nv, ref;
    f->neutral(fx->x);
    s->neutral(fx->y);
    assert_vec_close(fx->y, fx->x, f->nq, TOL, "%s neutral", r);
    f->integrate(fx->q, fx->v, 0.01, fx->x);
    s->integrate(fx->q, fx->v, 0.01, fx->y);
    assert_vec_close(fx->y, fx->x, f->nq, TOL, "%s state %d integrate", r, st);
    f->fk(fx->df, fx->q);
    s->fk(fx->ds, fx->q);
    for (k = 0; k < f->nframes; k++) {
        ck_assert_str_eq(s->frame_names[k], f->frame_names[k]);
        ck_assert_int_eq(f->frame_placement(fx->df, k, R, p), 0);
        ck_assert_int_eq(s->frame_placement(fx->ds, k, sR, sp), 0);
        assert_vec_close(sR, R, 9, TOL, "%s state %d frame %d R", r, st, k);
        assert_vec_close(sp, p, 3, TOL, "%s state %d frame %d p", r, st, k);
    }
    ck_assert_int_eq(s->frame_placement(fx->ds, f->nframes, sR, sp), -1);
    ck_assert_int_eq(s->frame_placement(fx->ds, -1, sR, sp), -1);
    for (k = 0; k < f->nframes; k++)
        for (ref = CDYN_LOCAL; ref <= CDYN_LOCAL_WORLD_ALIGNED; ref++) {
            ck_assert_int_eq(f->frame_jacobian(fx->df, fx->q, k, (cdyn_reference)ref, fx->X), 0);
            ck_assert_int_eq(s->frame_jacobian(fx->ds, fx->q, k, (cdyn_reference)ref, fx->Y), 0);
            assert_vec_close(fx->Y, fx->X, 6 * nv, TOL, "%s state %d frame %d J(%d)", r, st, k,
                             ref);
            /* the frame's placement is left in d by both forms */
            ck_assert_int_eq(f->frame_placement(fx->df, k, R, p), 0);
            ck_assert_int_eq(s->frame_placement(fx->ds, k, sR, sp), 0);
            assert_vec_close(sp, p, 3, TOL, "%s state %d frame %d p after J", r, st, k);
        }
    ck_assert_int_eq(s->frame_jacobian(fx->ds, fx->q, 0, (cdyn_reference)7, fx->Y), -1);
    ck_assert_int_eq(s->frame_jacobian(fx->ds, fx->q, f->nframes, CDYN_LOCAL, fx->Y), -1);
}

static void check_dynamics(fixture *fx, int st)
{
    const generated_api *f = fx->f, *s = fx->s;
    const char *r = s->name;
    int nv = f->nv, n2 = nv * nv, i;
    double *x = fx->x, *y = fx->y;
    f->rnea(fx->df, fx->q, fx->v, fx->a, x);
    s->rnea(fx->ds, fx->q, fx->v, fx->a, y);
    assert_vec_close(y, x, nv, TOL, "%s state %d rnea", r, st);
    f->nle(fx->df, fx->q, fx->v, x);
    s->nle(fx->ds, fx->q, fx->v, y);
    assert_vec_close(y, x, nv, TOL, "%s state %d nle", r, st);
    f->gravity(fx->df, fx->q, x);
    s->gravity(fx->ds, fx->q, y);
    assert_vec_close(y, x, nv, TOL, "%s state %d gravity", r, st);
    f->crba(fx->df, fx->q, fx->X);
    s->crba(fx->ds, fx->q, fx->Y);
    assert_vec_close(fx->Y, fx->X, n2, TOL, "%s state %d crba", r, st);

    /* crba, then the workspace moved (the original scrambled), then ltl on the copy */
    memcpy(fx->copy, fx->ds, s->data_size);
    memset(fx->ds, 0xff, s->data_size);
    ck_assert_int_eq(f->ltl(fx->df), 0);
    ck_assert_int_eq(s->ltl(fx->copy), 0);
    f->ltl_factor(fx->df, fx->X, x);
    s->ltl_factor(fx->copy, fx->Y, y);
    assert_vec_close(fx->Y, fx->X, n2, TOL, "%s state %d L (moved after crba)", r, st);
    assert_vec_close(y, x, nv, TOL, "%s state %d D (moved after crba)", r, st);
    /* the same factor, bit for bit, from the scrambled original after crba again */
    s->crba(fx->ds, fx->q, fx->X + n2);
    ck_assert_int_eq(s->ltl(fx->ds), 0);
    s->ltl_factor(fx->ds, fx->X + n2, x + nv);
    ck_assert(memcmp(fx->X + n2, fx->Y, (size_t)n2 * sizeof(double)) == 0);
    ck_assert(memcmp(x + nv, y, (size_t)nv * sizeof(double)) == 0);
    for (i = 0; i < nv; i++)
        x[i] = y[i] = fx->tau[i];
    f->ltl_solve(fx->df, x);
    s->ltl_solve(fx->copy, y);
    assert_vec_close(y, x, nv, TOL, "%s state %d ltl_solve", r, st);

    ck_assert_int_eq(f->minv(fx->df, fx->q, fx->X), 0);
    ck_assert_int_eq(s->minv(fx->ds, fx->q, fx->Y), 0);
    assert_vec_close(fx->Y, fx->X, n2, TOL, "%s state %d minv", r, st);
    ck_assert_int_eq(f->aba(fx->df, fx->q, fx->v, fx->tau, x), 0);
    ck_assert_int_eq(s->aba(fx->ds, fx->q, fx->v, fx->tau, y), 0);
    assert_vec_close(y, x, nv, TOL, "%s state %d aba", r, st);
    /* the derivatives: the size form's functions call cdyn_rnea_derivatives and cdyn_aba_derivatives,
     * the full form's are its own straight-line code (DERIV_TOL above) */
    for (i = 0; i < 2 * n2; i++)
        fx->X[i] = fx->Y[i] = fx->x[i] = fx->y[i] = 0.0 / 0.0; /* every entry written */
    ck_assert_int_eq(f->rnea_derivatives(fx->df, fx->q, fx->v, fx->a, fx->X, fx->X + n2), 0);
    ck_assert_int_eq(s->rnea_derivatives(fx->ds, fx->q, fx->v, fx->a, fx->Y, fx->Y + n2), 0);
    assert_vec_close(fx->Y, fx->X, n2, DERIV_TOL, "%s state %d rnea_dq", r, st);
    assert_vec_close(fx->Y + n2, fx->X + n2, n2, DERIV_TOL, "%s state %d rnea_dv", r, st);
    ck_assert_int_eq(f->aba_derivatives(fx->df, fx->q, fx->v, fx->tau, fx->X, fx->X + n2, x), 0);
    ck_assert_int_eq(s->aba_derivatives(fx->ds, fx->q, fx->v, fx->tau, fx->Y, fx->Y + n2, y), 0);
    assert_vec_close(fx->Y, fx->X, n2, DERIV_TOL, "%s state %d aba_dq", r, st);
    assert_vec_close(fx->Y + n2, fx->X + n2, n2, DERIV_TOL, "%s state %d aba_dv", r, st);
    assert_vec_close(y, x, n2, DERIV_TOL, "%s state %d aba_dtau", r, st);
    /* the status contract (docs/api.md): a NaN in any entry of q. The size form returns what
     * the generic runtime returns; the full form never reads what it folded away (a
     * free-flyer's position in ABA), so its error must come with one of the size form's,
     * not the converse. */
    for (i = 0; i < f->nq; i++) {
        cdyn_data gd;
        const double keep = fx->q[i];
        int sf, ss, sg;
        fx->q[i] = 0.0 / 0.0;
        sf = f->aba(fx->df, fx->q, fx->v, fx->tau, x);
        ss = s->aba(fx->ds, fx->q, fx->v, fx->tau, y);
        ck_assert_int_eq(cdyn_data_attach(&gd, s->model, fx->copy, s->generic_data_bytes), CDYN_OK);
        sg = cdyn_aba(s->model, &gd, fx->q, fx->v, fx->tau, y);
        ck_assert_msg(ss == sg && (sf == 0 || ss != 0),
                      "%s aba with a NaN in q[%d]: size %d, "
                      "generic %d, full %d",
                      r, i, ss, sg, sf);
        ck_assert_int_eq(s->minv(fx->ds, fx->q, fx->Y), cdyn_minv(s->model, &gd, fx->q, fx->Y));
        fx->q[i] = keep;
    }
}

static double *ref_field(void *d, size_t offset)
{
    return (double *)((char *)d + offset);
}

typedef int (*solver_fn)(void *, const cdyn_prox_settings *, const cdyn_real *, const cdyn_real *,
                         const cdyn_real *, cdyn_real *, cdyn_real *);

/* J, gamma, the references, every Delassus route, every solver (with Baumgarte gains, so the
 * references count) and an impact, at mu = 1e-2 and three iterations as test_generated_random. */
static void check_constraints(fixture *fx, int st)
{
    const pair *p = fx->p;
    const generated_api *f = fx->f, *s = fx->s;
    const char *r = s->name;
    const int nv = f->nv, nc = f->nc, n = f->nconstraints;
    double Kp[8], Kd[8], *A = fx->X, *B = fx->Y;
    double pf, df_, ps, ds_;
    cdyn_prox_settings set = { 1e-2, 3, 0, 0, NULL, NULL, 0 };
    const struct {
        const char *name;
        solver_fn full, size;
        double tol;
    } solvers[4] = {
        { "prox_ltl", f->prox_ltl, s->prox_ltl, TOL },
        { "prox_ltls", f->prox_ltls, s->prox_ltls, TOL * PENALTY_GROWTH },
        { "constrained_aba", f->constrained_aba, s->constrained_aba, TOL * PENALTY_GROWTH },
        { "prox_pv", f->prox_pv, s->prox_pv, TOL },
    };
    int k, g;
    ck_assert_int_le(n, 8);
    for (k = 0; k < n; k++) {
        Kp[k] = 100 * (1 + k);
        Kd[k] = 20;
    }
    f->constraint_jacobian(fx->df, fx->q, A);
    s->constraint_jacobian(fx->ds, fx->q, B);
    assert_vec_close(B, A, nc * nv, TOL, "%s state %d constraint J", r, st);
    f->constraint_drift(fx->df, fx->q, fx->v, A);
    s->constraint_drift(fx->ds, fx->q, fx->v, B);
    assert_vec_close(B, A, nc, TOL, "%s state %d gamma", r, st);

    /* references: captured at a neutral pose, then the solvers run at q with gains */
    f->neutral(fx->x);
    f->constraint_capture(fx->df, fx->x);
    s->constraint_capture(fx->ds, fx->x);
    for (k = 0; k < n; k++) {
        const double *ff = ref_field(fx->df, p->ref_R[0]), *sf = ref_field(fx->ds, p->ref_R[1]);
        const double *fpos = ref_field(fx->df, p->ref_p[0]), *spos = ref_field(fx->ds, p->ref_p[1]);
        const cdyn_constraint *c = (const cdyn_constraint *)f->constraints + k;
        if (c->frame_b >= 0)
            continue; /* a loop has no reference of its own */
        assert_vec_close(sf + 9 * k, ff + 9 * k, 9, TOL, "%s constraint %d ref_R", r, k);
        assert_vec_close(spos + 3 * k, fpos + 3 * k, 3, TOL, "%s constraint %d ref_p", r, k);
    }

    for (g = 0; g < 3; g++) {
        const delassus_fn ff = g == 0 ? NULL : g == 1 ? p->factorised[0] : p->articulated[0];
        const delassus_fn sf = g == 0 ? NULL : g == 1 ? p->factorised[1] : p->articulated[1];
        if (g > 0 && !ff)
            continue;
        ck_assert_int_eq(
            g == 0 ? f->delassus(fx->df, fx->q, set.mu, A) : ff(fx->df, fx->q, set.mu, A), 0);
        ck_assert_int_eq(
            g == 0 ? s->delassus(fx->ds, fx->q, set.mu, B) : sf(fx->ds, fx->q, set.mu, B), 0);
        assert_vec_close(B, A, nc * nc, TOL, "%s state %d delassus route %d", r, st, g);
    }

    for (g = 0; g < 2; g++) { /* without gains, then with (the references read) */
        set.Kp = g ? Kp : NULL;
        set.Kd = g ? Kd : NULL;
        for (k = 0; k < 4; k++) {
            if (!solvers[k].full) {
                ck_assert(!solvers[k].size);
                continue;
            }
            ck_assert_int_eq(solvers[k].full(fx->df, &set, fx->q, fx->v, fx->tau, A, A + nv), 3);
            ck_assert_int_eq(solvers[k].size(fx->ds, &set, fx->q, fx->v, fx->tau, B, B + nv), 3);
            assert_vec_close(B, A, nv, solvers[k].tol, "%s state %d %s%s ddq", r, st,
                             solvers[k].name, g ? " (Baumgarte)" : "");
            assert_vec_close(B + nv, A + nv, nc, solvers[k].tol, "%s state %d %s%s lambda", r, st,
                             solvers[k].name, g ? " (Baumgarte)" : "");
            f->residuals(fx->df, &pf, &df_);
            s->residuals(fx->ds, &ps, &ds_);
            assert_vec_close(&ds_, &df_, 1, solvers[k].tol, "%s %s dual residual", r,
                             solvers[k].name);
            ck_assert(ps == set.mu * ds_ && pf == set.mu * df_);
        }
    }
    set.Kp = set.Kd = NULL;
    /* a bad setting is refused before anything runs, the residuals left as they were */
    set.mu = -1;
    ck_assert_int_eq(s->prox_ltl(fx->ds, &set, fx->q, fx->v, fx->tau, B, B + nv), CDYN_E_ARG);
    ck_assert_int_eq(f->prox_ltl(fx->df, &set, fx->q, fx->v, fx->tau, A, A + nv), CDYN_E_ARG);
    s->residuals(fx->ds, &pf, &df_);
    ck_assert(pf == ps && df_ == ds_);
    set.mu = 1e-2;
    ck_assert_int_eq(f->impulse(fx->df, &set, fx->q, fx->v, 0.5, A, A + nv), 3);
    ck_assert_int_eq(s->impulse(fx->ds, &set, fx->q, fx->v, 0.5, B, B + nv), 3);
    assert_vec_close(B, A, nv, TOL, "%s state %d impulse v+", r, st);
    assert_vec_close(B + nv, A + nv, nc, TOL, "%s state %d impulse", r, st);
    /* the projection (seed 003): both forms' references captured at the state, which is
     * then moved off the manifold by 1e-2 v; the same Gauss-Newton steps and the same q and
     * v to the rounding of the steps */
    {
        cdyn_project_settings ps_ = CDYN_PROJECT_SETTINGS_DEFAULT;
        double qp[64], qf[64], qs[64];
        int itf, its;
        ck_assert_int_le(f->nq, 64);
        f->constraint_capture(fx->df, fx->q);
        s->constraint_capture(fx->ds, fx->q);
        f->integrate(fx->q, fx->v, 1e-2, qp);
        itf = f->project_position(fx->df, &ps_, qp, qf);
        its = s->project_position(fx->ds, &ps_, qp, qs);
        ck_assert_msg(itf == its && itf >= 1, "%s state %d project_position %d vs %d steps", r,
                      st, itf, its);
        assert_vec_close(qs, qf, f->nq, TOL, "%s state %d project_position", r, st);
        ck_assert_int_ge(f->project_velocity(fx->df, &ps_, fx->q, fx->v, A), 1);
        ck_assert_int_ge(s->project_velocity(fx->ds, &ps_, fx->q, fx->v, B), 1);
        assert_vec_close(B, A, nv, TOL, "%s state %d project_velocity", r, st);
    }
}

START_TEST(size_equals_full)
{
    fixture fx;
    int st;
    setup(&fx, _i);
    for (st = 0; st < STATES; st++) {
        random_state(&fx);
        check_kinematics(&fx, st);
        check_dynamics(&fx, st);
        check_constraints(&fx, st);
        memset(fx.ds, st % 2 ? 0xff : 0x00, fx.s->data_size); /* forgotten between states */
    }
    teardown(&fx);
}
END_TEST

/* The functions that take a const NAME_data read it only: on bytes no function wrote, they
 * refuse (frame_placement -1) or leave their outputs alone, never index by garbage. */
START_TEST(const_functions_on_unfilled_workspace)
{
    const generated_api *s = pairs[_i].api[1];
    double R[9], p[3], x[64], L[64 * 64], D[64], keep[64];
    unsigned char *d = malloc(s->data_size);
    int fill, k;
    ck_assert(d && s->nv <= 64);
    for (fill = 0; fill < 3; fill++) {
        memset(d, fill == 0 ? 0x00 : fill == 1 ? 0xff : 0x5a, s->data_size);
        ck_assert_int_eq(s->frame_placement(d, 0, R, p), -1);
        for (k = 0; k < 64; k++)
            keep[k] = x[k] = D[k] = k + 0.5;
        s->ltl_solve(d, x);
        s->ltl_factor(d, L, D);
        ck_assert(memcmp(x, keep, sizeof x) == 0 && memcmp(D, keep, sizeof D) == 0);
    }
    /* once a function has filled it, the same call works */
    s->neutral(x);
    s->fk(d, x);
    ck_assert_int_eq(s->frame_placement(d, 0, R, p), 0);
    free(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("generated_size");
    TCase *tc = tcase_create("size");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, size_equals_full, 0, NPAIRS);
    tcase_add_loop_test(tc, const_functions_on_unfilled_workspace, 0, NPAIRS);
    suite_add_tcase(s, tc);
    return check_run(s, CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
