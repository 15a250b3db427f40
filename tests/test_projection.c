/* test_projection.c — the projection onto the constraint manifold (seed 003): generated
 * R_project_position / R_project_velocity on the sample humanoid with both soles in 6d
 * contact, and the generic cdyn_project_* on it, on redundant and frictional sets and on
 * seeded random robots with random contact sets. (The four-bar's loop held for 10 s is in
 * test_fourbar_simulation; the --size form against the straight-line one in
 * test_generated_size.)
 *
 * What is asserted, and why the tolerances:
 *  - position: from a configuration on the manifold (the references captured there) moved
 *    off it by a random step of 1e-3 (m, rad per coordinate), Gauss-Newton returns to it
 *    in at most 4 steps (the error is squared each step: 1e-3 -> 1e-6 -> 1e-12) with every
 *    sole's placement back to 1e-12 (m and rotation entries), checked by FK, not by the
 *    function's own error;
 *  - velocity: J v_out = 0 to 1e-12 (1 + |v|) and v_out is the kinetic-energy projection,
 *    compared with v - M^-1 J^T (J M^-1 J^T)^-1 J v formed densely by the test (Cholesky of
 *    M and of the Delassus matrix, tests/support/dense.c) to 1e-9 relative: the two round
 *    differently through G, whose condition number here is up to ~1e6; the kinetic energy
 *    lost is exactly |v - v_out|_M^2 / 2 (Pythagoras in the M metric) to 1e-9 relative;
 *  - generated = generic to 1e-10;
 *  - a redundant set (a sole's 6d contact twice) is held in the least-squares sense: the
 *    same return to the manifold; a frictional contact's point is not moved beyond second
 *    order (|dq|^2, 1e-5 m for a 1e-3 step), and its J v is kept;
 *  - bad input is refused: NaN (CDYN_E_NONFINITE), bad settings (CDYN_E_ARG), an unmet
 *    tolerance (CDYN_E_NOT_CONVERGED, the last iterate kept). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdyn.h"
#include "generated_api.h"
#include "support/check_main.h"
#include "support/constraint_sets.h"
#include "support/contact_sim.h"
#include "support/dense.h"
#include "support/models.h"
#include "support/rng.h"

#define NQ_MAX 64
#define NV_MAX 64
#define NC_MAX 36
#define POS_TOL 1e-12
#define GEN_TOL 1e-10
#define RANDOM_SEEDS 12

extern const generated_api humanoid_feet_api;

/* The generic runtime's workspaces for a model and a set. */
typedef struct {
    const cdyn_model *m;
    cdyn_data d;
    cdyn_constraint_data cd;
    void *dbuf, *cbuf;
} generic;

static void generic_open(generic *g, const cdyn_model *m, const cdyn_constraint *set, int n)
{
    const size_t db = cdyn_data_size(m), cb = cdyn_constraint_data_size(m, set, n);
    ck_assert(db > 0 && cb > 0);
    g->m = m;
    g->dbuf = malloc(db);
    g->cbuf = malloc(cb);
    ck_assert(g->dbuf && g->cbuf);
    ck_assert_int_eq(cdyn_data_init(&g->d, m, g->dbuf, db), CDYN_OK);
    ck_assert_int_eq(cdyn_constraint_data_init(&g->cd, m, set, n, g->cbuf, cb), CDYN_OK);
}

static void generic_close(generic *g)
{
    free(g->dbuf);
    free(g->cbuf);
}

/* The largest difference between frame f's placement at q0 and at q1 (generic FK). */
static double placement_gap(generic *g, int f, const double *q0, const double *q1)
{
    double R0[9], p0[3], R1[9], p1[3], gap = 0;
    ck_assert_int_eq(cdyn_fk(g->m, &g->d, q0), CDYN_OK);
    ck_assert_int_eq(cdyn_frame_placement(g->m, &g->d, f, R0, p0), CDYN_OK);
    ck_assert_int_eq(cdyn_fk(g->m, &g->d, q1), CDYN_OK);
    ck_assert_int_eq(cdyn_frame_placement(g->m, &g->d, f, R1, p1), CDYN_OK);
    for (int k = 0; k < 9; ++k)
        gap = fmax(gap, fabs(R0[k] - R1[k]));
    for (int k = 0; k < 3; ++k)
        gap = fmax(gap, fabs(p0[k] - p1[k]));
    return gap;
}

/* q on the manifold (random joints), its references captured, and qp = q moved by a
 * random step of `size` per coordinate. */
static void off_manifold(generic *g, xorshift64s *rng, double size, double *q, double *qp)
{
    double v[NV_MAX], tau[NV_MAX], step[NV_MAX], dq[NV_MAX];
    random_state(g->m, rng, q, v, tau, step);
    ck_assert_int_eq(cdyn_constraint_capture(g->m, &g->d, &g->cd, q), CDYN_OK);
    xorshift64s_vector(rng, dq, g->m->nv, size);
    ck_assert_int_eq(cdyn_integrate(g->m, q, dq, 1, qp), CDYN_OK);
}

/* The humanoid's soles back to their references (generated and generic) and the two
 * results equal. */
START_TEST(humanoid_soles_return)
{
    const generated_api *a = &humanoid_feet_api;
    const cdyn_model *m = a->model;
    const cdyn_constraint *set = a->constraints;
    void *d = malloc(a->data_size);
    generic g;
    xorshift64s rng = { 0x9e3779b97f4a7c15ull + (unsigned)_i };
    double q[NQ_MAX], qp[NQ_MAX], qg[NQ_MAX], qo[NQ_MAX];
    ck_assert(d && m->nq <= NQ_MAX && m->nv <= NV_MAX);
    generic_open(&g, m, set, a->nconstraints);
    off_manifold(&g, &rng, 1e-3, q, qp);
    a->constraint_capture(d, q);
    const int it = a->project_position(d, NULL, qp, qo);
    const int itg = cdyn_project_position(m, &g.d, &g.cd, NULL, qp, qg);
    ck_assert_msg(it >= 1 && it <= 4 && itg == it, "steps: generated %d, generic %d", it, itg);
    for (int k = 0; k < a->nconstraints; ++k) {
        const double gap = placement_gap(&g, set[k].frame_a, q, qo);
        ck_assert_msg(gap <= POS_TOL, "contact %d: %.3g off its reference", k, gap);
        ck_assert_msg(placement_gap(&g, set[k].frame_a, qp, q) > 1e-5, "the step moved it");
    }
    ck_assert_msg(dense_max_diff(qo, qg, m->nq) <= GEN_TOL, "generated vs generic %.3g",
                  dense_max_diff(qo, qg, m->nq));
    /* in place, and already on the manifold: no step */
    ck_assert_int_eq(a->project_position(d, NULL, qo, qo), 0);
    generic_close(&g);
    free(d);
}
END_TEST

/* v - M^-1 J^T (J M^-1 J^T)^-1 J v, densely. */
static void dense_projection(const double *M, const double *J, int nv, int nc, const double *v,
                             double *out)
{
    double W[NV_MAX * NC_MAX], G[NC_MAX * NC_MAX], Jv[NC_MAX], y[NC_MAX];
    ck_assert_int_eq(dense_jminvjt(M, J, nv, nc, W, G), 0);
    dense_mul(J, nc, nv, v, Jv);
    ck_assert_int_eq(dense_cholesky_solve(G, nc, Jv, 1), 0);
    memcpy(y, Jv, sizeof(double) * (size_t)nc);
    dense_mul(W, nv, nc, y, out);
    for (int k = 0; k < nv; ++k)
        out[k] = v[k] - out[k];
}

static double kinetic(const double *M, const double *v, int nv)
{
    double Mv[NV_MAX], e = 0;
    dense_mul(M, nv, nv, v, Mv);
    for (int k = 0; k < nv; ++k)
        e += v[k] * Mv[k];
    return e / 2;
}

START_TEST(humanoid_velocity_projection)
{
    const generated_api *a = &humanoid_feet_api;
    const cdyn_model *m = a->model;
    const int nv = m->nv, nc = a->nc;
    void *d = malloc(a->data_size);
    generic g;
    xorshift64s rng = { 0x2545f4914f6cdd1dull + (unsigned)_i };
    double q[NQ_MAX], v[NV_MAX], tau[NV_MAX], step[NV_MAX], vo[NV_MAX], vg[NV_MAX],
        ref[NV_MAX], dv[NV_MAX];
    double M[NV_MAX * NV_MAX], J[NC_MAX * NV_MAX], Jv[NC_MAX];
    ck_assert(d && nc <= NC_MAX);
    generic_open(&g, m, a->constraints, a->nconstraints);
    random_state(m, &rng, q, v, tau, step);
    const int it = a->project_velocity(d, NULL, q, v, vo);
    ck_assert_int_ge(it, 1);
    ck_assert_int_ge(cdyn_project_velocity(m, &g.d, &g.cd, NULL, q, v, vg), 1);
    ck_assert_int_eq(cdyn_crba(m, &g.d, q, M), CDYN_OK);
    ck_assert_int_eq(cdyn_constraint_jacobian(m, &g.d, &g.cd, q, J), CDYN_OK);
    dense_mul(J, nc, nv, vo, Jv);
    /* a light link's velocity may come out larger than v's (the M-norm cannot) */
    const double scale = 1 + fmax(dense_max_abs(v, nv), dense_max_abs(vo, nv));
    ck_assert_msg(dense_max_abs(Jv, nc) <= 1e-12 * scale, "|J v_out| %.3g",
                  dense_max_abs(Jv, nc));
    dense_projection(M, J, nv, nc, v, ref);
    ck_assert_msg(dense_max_diff(vo, ref, nv) <= 1e-9 * scale, "against the dense projection %.3g",
                  dense_max_diff(vo, ref, nv));
    {
        /* the same number of iterations on both sides (a tolerance may stop them one apart,
         * and the iterates differ by the residual over G's smallest eigenvalue) */
        cdyn_project_settings fixed = CDYN_PROJECT_SETTINGS_DEFAULT;
        double vf[NV_MAX];
        fixed.tol = 0;
        fixed.prox_iter = 6;
        ck_assert_int_eq(a->project_velocity(d, &fixed, q, v, vf), 6);
        ck_assert_int_eq(cdyn_project_velocity(m, &g.d, &g.cd, &fixed, q, v, vg), 6);
        ck_assert_msg(dense_max_diff(vf, vg, nv) <= GEN_TOL * scale, "generated vs generic %.3g",
                      dense_max_diff(vf, vg, nv));
    }
    for (int k = 0; k < nv; ++k)
        dv[k] = v[k] - vo[k];
    const double lost = kinetic(M, v, nv) - kinetic(M, vo, nv), must = kinetic(M, dv, nv);
    ck_assert_msg(lost >= 0 && fabs(lost - must) <= 1e-9 * kinetic(M, v, nv),
                  "energy lost %.17g, the M-projection's %.17g", lost, must);
    /* in place */
    ck_assert_int_ge(a->project_velocity(d, NULL, q, v, v), 1);
    ck_assert(dense_max_diff(v, vo, nv) == 0);
    generic_close(&g);
    free(d);
}
END_TEST

/* Generic sets on the humanoid: both soles 6d with the left one twice (redundant), and the
 * left sole 6d with the right one a frictional contact. */
START_TEST(redundant_and_frictional_sets)
{
    model_table mt;
    generic g;
    xorshift64s rng = { 0x853c49e6748fea9bull + (unsigned)_i };
    double q[NQ_MAX], qp[NQ_MAX], qo[NQ_MAX], v[NV_MAX], tau[NV_MAX], step[NV_MAX], vo[NV_MAX];
    double J[NC_MAX * NV_MAX], Jv[NC_MAX], Jvo[NC_MAX];
    load_sample("humanoid.urdf", 1, &mt);
    const cdyn_model *m = &mt.model;
    const int left = frame_named(m, "left_sole"), right = frame_named(m, "right_sole");
    const cdyn_constraint redundant[3] = { { left, -1, 6, 0 }, { left, -1, 6, 0 },
                                           { right, -1, 6, 0 } };
    const cdyn_constraint frictional[2] = { { left, -1, 6, 0 }, { right, -1, 3, 1 } };

    generic_open(&g, m, redundant, 3);
    off_manifold(&g, &rng, 1e-3, q, qp);
    int it = cdyn_project_position(m, &g.d, &g.cd, NULL, qp, qo);
    ck_assert_msg(it >= 1 && it <= 4, "redundant set: %d steps", it);
    ck_assert(placement_gap(&g, left, q, qo) <= POS_TOL);
    ck_assert(placement_gap(&g, right, q, qo) <= POS_TOL);
    random_state(m, &rng, q, v, tau, step);
    ck_assert_int_ge(cdyn_project_velocity(m, &g.d, &g.cd, NULL, q, v, vo), 1);
    ck_assert_int_eq(cdyn_constraint_jacobian(m, &g.d, &g.cd, q, J), CDYN_OK);
    dense_mul(J, 18, m->nv, vo, Jvo);
    ck_assert_msg(dense_max_abs(Jvo, 18) <= 1e-12 * (1 + dense_max_abs(v, m->nv)),
                  "redundant |J v_out| %.3g", dense_max_abs(Jvo, 18));
    generic_close(&g);

    generic_open(&g, m, frictional, 2);
    off_manifold(&g, &rng, 1e-3, q, qp);
    it = cdyn_project_position(m, &g.d, &g.cd, NULL, qp, qo);
    ck_assert_msg(it >= 1 && it <= 4, "frictional set: %d steps", it);
    ck_assert(placement_gap(&g, left, q, qo) <= POS_TOL);
    {
        double R[9], p0[3], p1[3];
        ck_assert_int_eq(cdyn_fk(m, &g.d, qp), CDYN_OK);
        ck_assert_int_eq(cdyn_frame_placement(m, &g.d, right, R, p0), CDYN_OK);
        ck_assert_int_eq(cdyn_fk(m, &g.d, qo), CDYN_OK);
        ck_assert_int_eq(cdyn_frame_placement(m, &g.d, right, R, p1), CDYN_OK);
        const double moved = fmax(fabs(p0[0] - p1[0]), fmax(fabs(p0[1] - p1[1]), fabs(p0[2] - p1[2])));
        ck_assert_msg(moved <= 1e-5, "the frictional contact's point moved %.3g m", moved);
    }
    random_state(m, &rng, q, v, tau, step);
    ck_assert_int_ge(cdyn_project_velocity(m, &g.d, &g.cd, NULL, q, v, vo), 1);
    ck_assert_int_eq(cdyn_constraint_jacobian(m, &g.d, &g.cd, q, J), CDYN_OK);
    dense_mul(J, 9, m->nv, v, Jv);
    dense_mul(J, 9, m->nv, vo, Jvo);
    const double scale = 1e-12 * (1 + dense_max_abs(v, m->nv));
    ck_assert_msg(dense_max_abs(Jvo, 6) <= scale, "6d rows: %.3g", dense_max_abs(Jvo, 6));
    ck_assert_msg(dense_max_diff(Jvo + 6, Jv + 6, 3) <= scale, "frictional rows changed by %.3g",
                  dense_max_diff(Jvo + 6, Jv + 6, 3));
    generic_close(&g);
    model_table_free(&mt);
}
END_TEST

/* Seeded random robots with random contact sets (3d and 6d): moved off the manifold by 1e-4
 * (their links are up to metres long), Gauss-Newton returns within 1e-12 in at most 6
 * steps; a set may be redundant. */
START_TEST(random_robots_return)
{
    random_model r;
    generic g;
    cdyn_constraint set[4];
    xorshift64s rng = { 0xda942042e4dd58b5ull + (unsigned)_i };
    double q[NQ_MAX], qp[NQ_MAX], qo[NQ_MAX];
    random_model_open(&r, 100 + (unsigned)_i);
    const cdyn_model *m = &r.mt.model;
    if (m->nq > NQ_MAX || m->nv > NV_MAX) {
        random_model_close(&r);
        return;
    }
    const int n = random_constraint_set(m, &rng, 4, 0, set);
    int rows = 0;
    for (int k = 0; k < n; ++k)
        rows += set[k].dim;
    if (rows > NC_MAX) {
        random_model_close(&r);
        return;
    }
    generic_open(&g, m, set, n);
    off_manifold(&g, &rng, 1e-4, q, qp);
    const int it = cdyn_project_position(m, &g.d, &g.cd, NULL, qp, qo);
    ck_assert_msg(it >= 0 && it <= 6, "seed %d: %d steps", 100 + _i, it);
    for (int k = 0; k < n; ++k) {
        const double gap = placement_gap(&g, set[k].frame_a, q, qo);
        /* a 3d contact holds the origin alone: its rotation may change */
        double R0[9], p0[3], R1[9], p1[3];
        ck_assert_int_eq(cdyn_fk(m, &g.d, q), CDYN_OK);
        ck_assert_int_eq(cdyn_frame_placement(m, &g.d, set[k].frame_a, R0, p0), CDYN_OK);
        ck_assert_int_eq(cdyn_fk(m, &g.d, qo), CDYN_OK);
        ck_assert_int_eq(cdyn_frame_placement(m, &g.d, set[k].frame_a, R1, p1), CDYN_OK);
        const double dp = fmax(fabs(p0[0] - p1[0]), fmax(fabs(p0[1] - p1[1]), fabs(p0[2] - p1[2])));
        ck_assert_msg((set[k].dim == 6 ? gap : dp) <= POS_TOL, "seed %d contact %d: %.3g",
                      100 + _i, k, set[k].dim == 6 ? gap : dp);
    }
    generic_close(&g);
    random_model_close(&r);
}
END_TEST

START_TEST(bad_input)
{
    const generated_api *a = &humanoid_feet_api;
    const cdyn_model *m = a->model;
    void *d = malloc(a->data_size);
    generic g;
    xorshift64s rng = { 77 };
    double q[NQ_MAX], qp[NQ_MAX], qo[NQ_MAX], v[NV_MAX];
    cdyn_project_settings s = CDYN_PROJECT_SETTINGS_DEFAULT;
    ck_assert(d);
    generic_open(&g, m, a->constraints, a->nconstraints);
    off_manifold(&g, &rng, 1e-3, q, qp);
    a->constraint_capture(d, q);
    for (int k = 0; k < m->nv; ++k)
        v[k] = 0.1;
    /* one Gauss-Newton step cannot reach 1e-12 from 1e-3: the last iterate is kept */
    s.max_iter = 1;
    ck_assert_int_eq(a->project_position(d, &s, qp, qo), CDYN_E_NOT_CONVERGED);
    ck_assert_int_eq(cdyn_project_position(m, &g.d, &g.cd, &s, qp, qo), CDYN_E_NOT_CONVERGED);
    ck_assert(dense_max_diff(qo, qp, m->nq) > 0);
    s = (cdyn_project_settings)CDYN_PROJECT_SETTINGS_DEFAULT;
    const cdyn_project_settings bad[4] = { { -1, 10, 1e-9, 10 }, { 1e-12, 0, 1e-9, 10 },
                                           { 1e-12, 10, 0, 10 }, { 1e-12, 10, 1e-9, 0 } };
    for (int k = 0; k < 4; ++k) {
        ck_assert_int_eq(a->project_position(d, &bad[k], qp, qo), CDYN_E_ARG);
        ck_assert_int_eq(a->project_velocity(d, &bad[k], qp, v, qo), CDYN_E_ARG);
        ck_assert_int_eq(cdyn_project_position(m, &g.d, &g.cd, &bad[k], qp, qo), CDYN_E_ARG);
        ck_assert_int_eq(cdyn_project_velocity(m, &g.d, &g.cd, &bad[k], qp, v, qo), CDYN_E_ARG);
    }
    ck_assert_int_eq(a->project_position(d, &s, NULL, qo), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_project_position(m, &g.d, NULL, &s, qp, qo), CDYN_E_ARG);
    qp[3] = NAN;
    ck_assert_int_eq(a->project_position(d, &s, qp, qo), CDYN_E_NONFINITE);
    ck_assert_int_eq(a->project_velocity(d, &s, qp, v, qo), CDYN_E_NONFINITE);
    ck_assert_int_eq(cdyn_project_position(m, &g.d, &g.cd, &s, qp, qo), CDYN_E_NONFINITE);
    ck_assert_int_eq(cdyn_project_velocity(m, &g.d, &g.cd, &s, qp, v, qo), CDYN_E_NONFINITE);
    qp[3] = 0;
    v[2] = INFINITY;
    ck_assert_int_eq(a->project_velocity(d, &s, q, v, qo), CDYN_E_NONFINITE);
    ck_assert_int_eq(cdyn_project_velocity(m, &g.d, &g.cd, &s, q, v, qo), CDYN_E_NONFINITE);
    generic_close(&g);
    free(d);
}
END_TEST

/* The contact step with settings.project (seed 003 after each step): the humanoid held by
 * both soles (bilateral 6d rows, which the step holds at the velocity level only) falls limp
 * for 0.5 s. Projected, every sole stays on its reference to 1e-10 (the projection's 1e-12
 * and FK's rounding); unprojected, the integrator's drift is measured beside it. The
 * generated and generic steps agree every step (contact_sim.h's sim_step: 1e-10). */
static double soles_drift(int project, int steps)
{
    const generated_api *a = &humanoid_feet_api;
    cdyn_contact_settings set = CDYN_CONTACT_SETTINGS_DEFAULT;
    const double tau[MAXV] = { 0 };
    double q0[MAXV], drift = 0;
    sim s;
    generic g;
    set.project = project;
    sim_open(&s, a);
    generic_open(&g, s.m, s.set, a->nconstraints);
    memcpy(q0, s.q, sizeof q0);
    a->constraint_capture(s.d, s.q);
    ck_assert_int_eq(cdyn_constraint_capture(s.m, &s.gd, &s.cd, s.q), CDYN_OK);
    for (int step = 0; step < steps; ++step) {
        (void)sim_step(&s, &set, tau);
        for (int k = 0; k < a->nconstraints; ++k)
            drift = fmax(drift, placement_gap(&g, s.set[k].frame_a, q0, s.q));
    }
    ck_assert_msg(vmax(s.v, a->nv) > 1e-2, "the robot moved (|v| %.3g)", vmax(s.v, a->nv));
    generic_close(&g);
    sim_close(&s);
    return drift;
}

START_TEST(contact_step_projects)
{
    const double projected = soles_drift(1, 500), free_drift = soles_drift(0, 500);
    printf("humanoid on both soles, 0.5 s limp: soles off their references by %.3g "
           "(projected) and %.3g (not)\n", projected, free_drift);
    ck_assert_msg(projected <= 1e-10, "projected drift %.3g", projected);
    ck_assert_msg(free_drift > 100 * projected, "unprojected drift %.3g", free_drift);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("projection");
    TCase *tc = tcase_create("projection");
    tcase_add_loop_test(tc, humanoid_soles_return, 0, 8);
    tcase_add_loop_test(tc, humanoid_velocity_projection, 0, 8);
    tcase_add_loop_test(tc, redundant_and_frictional_sets, 0, 4);
    tcase_add_loop_test(tc, random_robots_return, 0, RANDOM_SEEDS);
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, contact_step_projects);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return check_run(s, CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
