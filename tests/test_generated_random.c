/* test_generated_random.c — code generated for seeded random robots
 * (tests/support/random_robot.h: every joint type, skewed axes, fixed chains, massless
 * links, odd names, floating bases)
 * equals the generic runtime on random states, for every generated function, and satisfies
 * RNEA(q, v, ABA(q, v, tau)) = tau on its own; for the robots generated with a random
 * contact/loop set, the constrained solvers (J, gamma, delassus, prox_ltl, prox_ltls,
 * constrained_aba and prox_pv for contact sets, impulse) too. The accepted files of the
 * real-URDF corpus (tests/urdf: inertia noise, warned and noted inertias, small angles,
 * odd names, axis scales, a dangling mimic) are held to the same checks.
 *
 * Tolerance: 1e-10 relative to each quantity's size. Both sides evaluate the same model in
 * double with different operation orders, so they differ by a few ulps times the condition
 * of the computation; on the seeds the generator marks extreme (masses over six decades)
 * the factor and everything solved with it get that tolerance times the pivot growth of
 * the factorisation (see set_solve_tolerance), and nothing else is widened. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdyn.h"
#include "support/check_main.h"
#include "support/compare.h"
#include "support/rng.h"
#include "generated_api.h"
#include "support/registry.h"
#include "support/random_robot.h"

#define TOL 1e-10
#define STATES 5
#define PENALTY_GROWTH 1e3

typedef struct {
    const generated_api *g;
    const cdyn_model *m;
    void *d;
    cdyn_data gd;
    void *gwork;
    double *q, *v, *tau, *a, *x, *y, *X, *Y;
    unsigned rng;
    int extreme;      /* the seed spans six decades of mass */
    double solve_tol; /* for the factor, solves, M^-1 and ABA (see below) */
} fixture;

static void setup(fixture *fx, int robot)
{
    size_t bytes, nv2;
    unsigned seed;
    memset(fx, 0, sizeof *fx);
    fx->g = generated_robots[robot];
    fx->m = fx->g->model;
    /* randomN is seed N; the corpus files (corpus_*) are ordinary robots */
    seed = strncmp(fx->g->name, "random", 6) == 0
               ? (unsigned)strtoul(fx->g->name + strlen("random"), NULL, 10)
               : 0x5eedu;
    fx->extreme = strncmp(fx->g->name, "random", 6) == 0 && random_robot_is_extreme(seed) == 1;
    fx->rng = 2463534242u + seed;
    bytes = cdyn_data_size(fx->m);
    ck_assert_uint_eq(fx->g->generic_data_bytes, bytes); /* the static size is exact */
    nv2 = (size_t)(fx->g->nv * fx->g->nv + 6 * fx->g->nv + 1);
    fx->d = malloc(fx->g->data_size);
    fx->gwork = malloc(bytes);
    fx->q = malloc((size_t)(fx->g->nq + 1) * sizeof(double));
    fx->v = malloc(nv2 * 8 * sizeof(double));
    ck_assert(fx->d && fx->gwork && fx->q && fx->v);
    fx->tau = fx->v + nv2;
    fx->a = fx->tau + nv2;
    fx->x = fx->a + nv2;
    fx->y = fx->x + nv2;
    fx->X = fx->y + nv2;
    fx->Y = fx->X + nv2;
    ck_assert_int_eq(cdyn_data_init(&fx->gd, fx->m, fx->gwork, bytes), CDYN_OK);
}

static void teardown(fixture *fx)
{
    free(fx->d);
    free(fx->gwork);
    free(fx->q);
    free(fx->v);
}

/* A random state on the configuration manifold: neutral (+) random v. */
static void random_state(fixture *fx)
{
    int nv = fx->g->nv;
    xorshift32_state(&fx->rng, nv, fx->x, fx->v, fx->tau, fx->a);
    cdyn_neutral(fx->m, fx->y);
    cdyn_integrate(fx->m, fx->y, fx->x, 1.0, fx->q);
}

static void check_configuration_ops(fixture *fx, int s)
{
    const char *r = fx->g->name;
    int nq = fx->g->nq;
    fx->g->neutral(fx->x);
    cdyn_neutral(fx->m, fx->y);
    assert_vec_close(fx->x, fx->y, nq, TOL, "%s neutral", r);
    fx->g->integrate(fx->q, fx->v, 0.01, fx->x);
    cdyn_integrate(fx->m, fx->q, fx->v, 0.01, fx->y);
    assert_vec_close(fx->x, fx->y, nq, TOL, "%s state %d integrate", r, s);
}

/* On extreme seeds the factorisation cancels: a pivot D_k can be 1e5 times smaller than
 * M_kk, and rounding in it grows by that ratio in L, D, solves, M^-1 and ABA. The
 * tolerance there is TOL times the largest such growth, read from the generic side. */
static void set_solve_tolerance(fixture *fx, const double *M)
{
    int k, nv = fx->g->nv;
    double growth = 1, *D = fx->X; /* X is free until the caller fills it */
    fx->solve_tol = TOL;
    if (!fx->extreme)
        return;
    cdyn_ltl_factor(fx->m, &fx->gd, NULL, D);
    for (k = 0; k < nv; k++)
        if (M[k * nv + k] / D[k] > growth)
            growth = M[k * nv + k] / D[k];
    fx->solve_tol = TOL * growth;
}

static void check_dynamics(fixture *fx, int s)
{
    const generated_api *g = fx->g;
    const cdyn_model *m = fx->m;
    const char *r = g->name;
    int nv = g->nv, n2 = nv * nv, i;
    double *x = fx->x, *y = fx->y;

    g->rnea(fx->d, fx->q, fx->v, fx->a, x);
    cdyn_rnea(m, &fx->gd, fx->q, fx->v, fx->a, y);
    assert_vec_close(x, y, nv, TOL, "%s state %d rnea", r, s);
    g->nle(fx->d, fx->q, fx->v, x);
    cdyn_nle(m, &fx->gd, fx->q, fx->v, y);
    assert_vec_close(x, y, nv, TOL, "%s state %d nle", r, s);
    g->gravity(fx->d, fx->q, x);
    cdyn_gravity(m, &fx->gd, fx->q, y);
    assert_vec_close(x, y, nv, TOL, "%s state %d gravity", r, s);
    for (i = 0; i < n2; i++)
        fx->X[i] = 1e300; /* crba writes every entry of M, its structural zeros too */
    g->crba(fx->d, fx->q, fx->X);
    cdyn_crba(m, &fx->gd, fx->q, fx->Y);
    assert_vec_close(fx->X, fx->Y, n2, TOL, "%s state %d crba", r, s);
    /* the generated functions alone: RNEA(q, v, a) = M(q) a + nle(q, v) */
    g->nle(fx->d, fx->q, fx->v, y);
    for (i = 0; i < nv; i++) {
        int k;
        for (k = 0; k < nv; k++)
            y[i] += fx->X[i * nv + k] * fx->a[k];
    }
    g->rnea(fx->d, fx->q, fx->v, fx->a, x);
    assert_vec_close(x, y, nv, TOL, "%s state %d rnea = M a + nle", r, s);
    if (!g->aba)
        return; /* a singular M (--massless-links ignore): no forward dynamics */
    /* With M NULL, crba refills d's tree pattern alone: d holds the neutral q's M in
     * between, so the factor below compares this state's only if the NULL call wrote it. */
    {
        double *qn = malloc((size_t)(g->nq + n2) * sizeof *qn);
        ck_assert(qn != NULL);
        g->neutral(qn);
        g->crba(fx->d, qn, qn + g->nq);
        g->crba(fx->d, fx->q, NULL);
        free(qn);
    }
    ck_assert_int_eq(g->ltl(fx->d), 0);
    ck_assert_int_eq(cdyn_ltl(m, &fx->gd), CDYN_OK);
    set_solve_tolerance(fx, fx->Y);
    g->ltl_factor(fx->d, fx->X, x);
    cdyn_ltl_factor(m, &fx->gd, fx->Y, y);
    assert_vec_close(fx->X, fx->Y, n2, fx->solve_tol, "%s state %d L", r, s);
    assert_vec_close(x, y, nv, fx->solve_tol, "%s state %d D", r, s);
    for (i = 0; i < nv; i++)
        x[i] = y[i] = fx->tau[i];
    g->ltl_solve(fx->d, x);
    cdyn_ltl_solve(m, &fx->gd, y);
    assert_vec_close(x, y, nv, fx->solve_tol, "%s state %d ltl_solve", r, s);
    ck_assert_int_eq(g->minv(fx->d, fx->q, fx->X), 0);
    ck_assert_int_eq(cdyn_minv(m, &fx->gd, fx->q, fx->Y), CDYN_OK);
    assert_vec_close(fx->X, fx->Y, n2, fx->solve_tol, "%s state %d minv", r, s);
    ck_assert_int_eq(g->aba(fx->d, fx->q, fx->v, fx->tau, x), 0);
    cdyn_aba(m, &fx->gd, fx->q, fx->v, fx->tau, y);
    assert_vec_close(x, y, nv, fx->solve_tol, "%s state %d aba", r, s);
    /* the generated pair alone: RNEA undoes ABA */
    g->rnea(fx->d, fx->q, fx->v, x, y);
    assert_vec_close(y, fx->tau, nv, TOL, "%s state %d rnea(aba) = tau", r, s);
}

static void check_frames(fixture *fx, int s)
{
    const generated_api *g = fx->g;
    const char *r = g->name;
    double R[9], p[3], gR[9], gp[3];
    int f, nv = g->nv, ref;
    g->fk(fx->d, fx->q);
    ck_assert_int_eq(cdyn_fk(fx->m, &fx->gd, fx->q), CDYN_OK);
    ck_assert_int_eq(g->nframes, fx->m->nframes);
    for (f = 0; f < g->nframes; f++) {
        ck_assert_str_eq(g->frame_names[f], fx->m->frames[f].name);
        ck_assert_int_eq(g->frame_placement(fx->d, f, R, p), 0);
        ck_assert_int_eq(cdyn_frame_placement(fx->m, &fx->gd, f, gR, gp), CDYN_OK);
        assert_vec_close(R, gR, 9, TOL, "%s state %d frame %d R", r, s, f);
        assert_vec_close(p, gp, 3, TOL, "%s state %d frame %d p", r, s, f);
        for (ref = CDYN_LOCAL; ref <= CDYN_LOCAL_WORLD_ALIGNED; ref++) {
            ck_assert_int_eq(g->frame_jacobian(fx->d, fx->q, f, (cdyn_reference)ref, fx->X), 0);
            ck_assert_int_eq(
                cdyn_frame_jacobian(fx->m, &fx->gd, fx->q, f, (cdyn_reference)ref, fx->Y), CDYN_OK);
            assert_vec_close(fx->X, fx->Y, 6 * nv, TOL, "%s state %d frame %d J(%d)", r, s, f, ref);
        }
    }
}

static int solver_runs; /* solvers beside proxLTL checked, across tests */

typedef int (*generic_solver)(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                              const cdyn_prox_settings *s, const cdyn_real *q, const cdyn_real *v,
                              const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda);

static int all_finite(const double *x, int n);

static int not_converged_runs; /* solver runs that reported CDYN_E_NOT_CONVERGED */

/* A tolerance no iterate can meet (1e-300) in 2 iterations, unless it hits an exact zero:
 * every solver, generated and generic, returns CDYN_E_NOT_CONVERGED exactly when its last
 * primal residual is above the tolerance, and leaves that last iterate (finite). */
static void check_not_converged(fixture *fx, cdyn_constraint_data *cd, double *B)
{
    const generated_api *g = fx->g;
    const cdyn_prox_settings st = { 1e-2, 2, 1e-300, 0, NULL, NULL, 0 };
    const int nv = g->nv, nc = g->nc;
    cdyn_real primal, dual;
    int i;
    for (i = 0; i < 5; i++) {
        int sg, sc;
        if ((i == 2 || i == 3) && !g->constrained_aba)
            continue;
        sg = i == 0   ? g->prox_ltl(fx->d, &st, fx->q, fx->v, fx->tau, B, B + nv)
             : i == 1 ? g->prox_ltls(fx->d, &st, fx->q, fx->v, fx->tau, B, B + nv)
             : i == 2 ? g->constrained_aba(fx->d, &st, fx->q, fx->v, fx->tau, B, B + nv)
             : i == 3 ? g->prox_pv(fx->d, &st, fx->q, fx->v, fx->tau, B, B + nv)
                      : g->impulse(fx->d, &st, fx->q, fx->v, 0.5, B, B + nv);
        g->residuals(fx->d, &primal, &dual);
        ck_assert_msg((sg == CDYN_E_NOT_CONVERGED) == (primal > st.abs_tol) && sg != 0 &&
                          all_finite(B, nv + nc),
                      "%s solver %d: status %d with primal residual %g "
                      "at tolerance 1e-300",
                      g->name, i, sg, primal);
        not_converged_runs += sg == CDYN_E_NOT_CONVERGED;
        sc = i == 0   ? cdyn_prox_ltl(fx->m, &fx->gd, cd, &st, fx->q, fx->v, fx->tau, B, B + nv)
             : i == 1 ? cdyn_prox_ltls(fx->m, &fx->gd, cd, &st, fx->q, fx->v, fx->tau, B, B + nv)
             : i == 2
                 ? cdyn_constrained_aba(fx->m, &fx->gd, cd, &st, fx->q, fx->v, fx->tau, B, B + nv)
             : i == 3 ? cdyn_prox_pv(fx->m, &fx->gd, cd, &st, fx->q, fx->v, fx->tau, B, B + nv)
                      : cdyn_impulse(fx->m, &fx->gd, cd, &st, fx->q, fx->v, 0.5, B, B + nv);
        cdyn_constraint_residuals(cd, &primal, &dual);
        ck_assert_msg((sc == CDYN_E_NOT_CONVERGED) == (primal > st.abs_tol) && sc != 0,
                      "%s generic solver %d: status %d with primal residual %g at tolerance "
                      "1e-300",
                      g->name, i, sc, primal);
    }
}

/* proxLTLs, and for contact sets constrainedABA and proxPV: the same three iterates as the
 * generated proxLTL in A (ddq, lambda), and generated = generic. Their tolerance is
 * solve_tol times PENALTY_GROWTH for the two that factorise M + J^T J / mu (the penalty
 * 1/mu = 100 multiplies rounding by up to ||J||^2 / (mu lambda_min(M)): 55 times
 * solve_tol is the worst measured over these seeds, random26 with its 1e3 rad/s^2). */
static void check_other_solvers(fixture *fx, int s, cdyn_constraint_data *cd,
                                const cdyn_prox_settings *st, const double *A, double *B)
{
    const generated_api *g = fx->g;
    const struct {
        const char *name;
        int (*fn)(void *, const cdyn_prox_settings *, const cdyn_real *, const cdyn_real *,
                  const cdyn_real *, cdyn_real *, cdyn_real *);
        generic_solver generic;
        double growth;
    } solvers[3] = {
        { "prox_ltls", g->prox_ltls, cdyn_prox_ltls, PENALTY_GROWTH },
        { "constrained_aba", g->constrained_aba, cdyn_constrained_aba, PENALTY_GROWTH },
        { "prox_pv", g->prox_pv, cdyn_prox_pv, 1 },
    };
    int nv = g->nv, nc = g->nc, i;
    double *C = B + nv + nc;
    for (i = 0; i < 3; i++) {
        double tol = fx->solve_tol * solvers[i].growth;
        if (!solvers[i].fn)
            continue;
        ck_assert_int_eq(solvers[i].fn(fx->d, st, fx->q, fx->v, fx->tau, B, B + nv), 3);
        assert_vec_close(B, A, nv, tol, "%s state %d %s ddq = prox_ltl's", g->name, s,
                         solvers[i].name);
        assert_vec_close(B + nv, A + nv, nc, tol, "%s state %d %s lambda = prox_ltl's", g->name, s,
                         solvers[i].name);
        ck_assert_int_eq(
            solvers[i].generic(fx->m, &fx->gd, cd, st, fx->q, fx->v, fx->tau, C, C + nv), 3);
        assert_vec_close(C, B, nv, tol, "%s state %d %s generic ddq", g->name, s, solvers[i].name);
        assert_vec_close(C + nv, B + nv, nc, tol, "%s state %d %s generic lambda", g->name, s,
                         solvers[i].name);
        solver_runs++;
    }
    check_not_converged(fx, cd, B);
}

/* The constraint set generated with the robot (random_urdf_tool adds one to about two
 * seeds in three) against the generic runtime on the same set: J, gamma, G + mu I, three
 * proximal iterations and an impact. mu = 1e-2 keeps cond(G + mu I) moderate on the
 * random sets, redundant ones included (this compares arithmetic, not convergence); what
 * is solved with the factors gets solve_tol. */
static int check_constraints(fixture *fx, int s)
{
    const generated_api *g = fx->g;
    const char *r = g->name;
    int nv = g->nv, nc = g->nc;
    size_t bytes = g->generic_constraint_bytes;
    cdyn_constraint_data cd;
    cdyn_prox_settings st = { 1e-2, 3, 0, 0, NULL, NULL, 0 };
    void *work;
    double *A, *B;
    if (nc == 0)
        return 0;
    work = malloc(bytes);
    A = malloc((size_t)(nc * nc + nc * nv + nv + nc) * sizeof *A);
    B = malloc((size_t)(nc * nc + nc * nv + 2 * (nv + nc)) * sizeof *B);
    ck_assert(work && A && B);
    ck_assert_uint_eq(cdyn_constraint_data_size(fx->m, g->constraints, g->nconstraints), bytes);
    ck_assert_int_eq(
        cdyn_constraint_data_init(&cd, fx->m, g->constraints, g->nconstraints, work, bytes),
        CDYN_OK);
    g->constraint_jacobian(fx->d, fx->q, A);
    ck_assert_int_eq(cdyn_constraint_jacobian(fx->m, &fx->gd, &cd, fx->q, B), CDYN_OK);
    assert_vec_close(A, B, nc * nv, TOL, "%s state %d constraint J", r, s);
    g->constraint_drift(fx->d, fx->q, fx->v, A);
    ck_assert_int_eq(cdyn_constraint_drift(fx->m, &fx->gd, &cd, fx->q, fx->v, B), CDYN_OK);
    assert_vec_close(A, B, nc, TOL, "%s state %d gamma", r, s);
    ck_assert_int_eq(g->delassus(fx->d, fx->q, st.mu, A), 0);
    ck_assert_int_eq(cdyn_delassus(fx->m, &fx->gd, &cd, fx->q, st.mu, B), CDYN_OK);
    assert_vec_close(A, B, nc * nc, fx->solve_tol, "%s state %d delassus", r, s);
    ck_assert_int_eq(g->prox_ltl(fx->d, &st, fx->q, fx->v, fx->tau, A, A + nv), 3);
    ck_assert_int_eq(cdyn_prox_ltl(fx->m, &fx->gd, &cd, &st, fx->q, fx->v, fx->tau, B, B + nv), 3);
    assert_vec_close(A, B, nv, fx->solve_tol, "%s state %d prox_ltl ddq", r, s);
    assert_vec_close(A + nv, B + nv, nc, fx->solve_tol, "%s state %d prox_ltl lambda", r, s);
    check_other_solvers(fx, s, &cd, &st, A, B);
    ck_assert_int_eq(g->impulse(fx->d, &st, fx->q, fx->v, 0.5, A, A + nv), 3);
    ck_assert_int_eq(cdyn_impulse(fx->m, &fx->gd, &cd, &st, fx->q, fx->v, 0.5, B, B + nv), 3);
    assert_vec_close(A, B, nv, fx->solve_tol, "%s state %d impulse v+", r, s);
    assert_vec_close(A + nv, B + nv, nc, fx->solve_tol, "%s state %d impulse", r, s);
    free(work);
    free(A);
    free(B);
    return 1;
}

static int constrained_robots;

static int all_finite(const double *x, int n)
{
    int k;
    for (k = 0; k < n; k++)
        if (!(x[k] - x[k] == 0))
            return 0;
    return 1;
}

/* The status contract (docs/api.md, "Status contract"): one hostile value in one entry of q, v
 * or tau, for every entry in turn. Both sides return 0, CDYN_E_SINGULAR or CDYN_E_NONFINITE;
 * 0 always comes with a finite ddq and NONFINITE with a non-finite one; for a subnormal both
 * return 0 and the same ddq. 1e300 overflows on each side in its own way (v x* I v holds
 * v * v terms that cancel: the generated code folds them to zero, the generic one makes
 * inf - inf; a quaternion or [cos, sin] pair of norm 1e300 is no rotation), so there only
 * the first rule holds. A NaN or
 * infinity is not always seen by both: the generated code never reads what folds away (a
 * free-flyer's position in ABA), the generic runtime multiplies it by zero; so there a
 * generated error must come with a generic one, not the converse. */
static void check_status_contract(fixture *fx)
{
    static const double hostile[] = { 0.0 / 0.0, 1.0 / 0.0, -1.0 / 0.0, 1e300,
                                      -1e300,    4.9e-324,  -1e-310 };
    const generated_api *g = fx->g;
    int nv = g->nv, nq = g->nq, h, slot, k, n;
    double *x = fx->x, *y = fx->y;
    if (!g->aba)
        return; /* no forward dynamics to hold to it */
    for (h = 0; h < (int)(sizeof hostile / sizeof hostile[0]); h++)
        for (slot = 0; slot < 3; slot++) {
            double *in = slot == 0 ? fx->q : slot == 1 ? fx->v : fx->tau;
            const char *what = slot == 0 ? "q" : slot == 1 ? "v" : "tau";
            n = slot == 0 ? nq : nv;
            for (k = 0; k < n; k++) {
                double keep = in[k];
                int sg, sc, finite_value = hostile[h] - hostile[h] == 0;
                int subnormal = fabs(hostile[h]) < 1;
                in[k] = hostile[h];
                sg = g->aba(fx->d, fx->q, fx->v, fx->tau, x);
                sc = cdyn_aba(fx->m, &fx->gd, fx->q, fx->v, fx->tau, y);
                in[k] = keep;
                ck_assert_msg(sg == 0 || sg == CDYN_E_SINGULAR || sg == CDYN_E_NONFINITE,
                              "%s aba status %d", g->name, sg);
                ck_assert_msg(sc == 0 || sc == CDYN_E_SINGULAR || sc == CDYN_E_NONFINITE,
                              "%s cdyn_aba status %d", g->name, sc);
                ck_assert_msg((sg == 0) == all_finite(x, nv) || sg == CDYN_E_SINGULAR,
                              "%s aba status %d with %s ddq (%g in %s[%d])", g->name, sg,
                              all_finite(x, nv) ? "a finite" : "a non-finite", hostile[h], what, k);
                ck_assert_msg((sc == 0) == all_finite(y, nv) || sc == CDYN_E_SINGULAR,
                              "%s cdyn_aba status %d with %s ddq (%g in %s[%d])", g->name, sc,
                              all_finite(y, nv) ? "a finite" : "a non-finite", hostile[h], what, k);
                if (subnormal) {
                    ck_assert_msg(sg == 0 && sc == 0, "%s aba status %d, generic %d (%g in %s[%d])",
                                  g->name, sg, sc, hostile[h], what, k);
                    assert_vec_close(x, y, nv, fx->solve_tol, "%s aba with %g in %s[%d]", g->name,
                                     hostile[h], what, k);
                } else if (!finite_value && sg != 0) {
                    ck_assert_msg(sc != 0, "%s aba status %d, generic 0 (%g in %s[%d])", g->name,
                                  sg, hostile[h], what, k);
                }
            }
        }
}

START_TEST(generated_equals_generic)
{
    fixture fx;
    int s;
    setup(&fx, _i);
    for (s = 0; s < STATES; s++) {
        random_state(&fx);
        check_configuration_ops(&fx, s);
        check_dynamics(&fx, s);
        check_frames(&fx, s);
        if (check_constraints(&fx, s) && s == 0)
            constrained_robots++;
    }
    check_status_contract(&fx);
    teardown(&fx);
}
END_TEST

int main(void)
{
    const int nrobots = registry_count(generated_robots);
    Suite *s = suite_create("generated_random");
    TCase *tc = tcase_create("robots");
    int failed;
    if (nrobots == 0) {
        fprintf(stderr, "test_generated_random: no random robots were generated\n");
        return EXIT_FAILURE;
    }
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, generated_equals_generic, 0, nrobots);
    suite_add_tcase(s, tc);
    failed = check_run(s, CK_NOFORK); /* constrained_robots counts across tests */
    /* the constrained part must not silently check nothing: every set has proxLTLs beside
     * proxLTL in every state (contact sets also constrainedABA and proxPV) */
    printf("test_generated_random: %d of %d robots with a constraint set, %d runs of the other "
           "solvers, %d reported not converged\n",
           constrained_robots, nrobots, solver_runs, not_converged_runs);
    if (constrained_robots == 0 || solver_runs < constrained_robots * STATES ||
        not_converged_runs < constrained_robots * STATES)
        failed = 1;
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
