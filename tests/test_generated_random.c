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
 * solve_tol is the worst measured over these seeds, random26 with its 1e3 rad/s^2), and
 * for proxPV the pivot growth of G + mu I (delassus_growth). */
/* The pivot growth of the LtDL factor of G + mu I (the largest diagonal entry over its
 * pivot), at the fixture's q: proxPV forms G by its sweeps rather than from M's factor,
 * and the rounding of those entries reaches lambda multiplied by it, as M's rounding does
 * by M's pivot growth (set_solve_tolerance). */
static double delassus_growth(fixture *fx, cdyn_constraint_data *cd, const cdyn_prox_settings *st)
{
    const int nc = fx->g->nc, nv = fx->g->nv;
    double growth = 1, *G = malloc(sizeof(double) * (size_t)(nc * nc + nv + nc));
    ck_assert(G != NULL);
    ck_assert_int_ge(cdyn_prox_ltl(fx->m, &fx->gd, cd, st, fx->q, fx->v, fx->tau, G, G + nv), 0);
    ck_assert_int_eq(cdyn_delassus(fx->m, &fx->gd, cd, fx->q, st->mu, G), CDYN_OK);
    for (int k = 0; k < nc; k++) /* cd->GD: the pivots of prox_ltl's factor of G + mu I */
        if (G[k * nc + k] / cd->GD[k] > growth)
            growth = G[k * nc + k] / cd->GD[k];
    free(G);
    return growth;
}

static void check_other_solvers(fixture *fx, int s, cdyn_constraint_data *cd,
                                const cdyn_prox_settings *st, double dgrowth, const double *A,
                                double *B)
{
    const generated_api *g = fx->g;
    struct {
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
    solvers[2].growth = dgrowth;
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
    const double dgrowth = delassus_growth(fx, &cd, &st), lambda_tol = fx->solve_tol * dgrowth;
    ck_assert_int_eq(g->prox_ltl(fx->d, &st, fx->q, fx->v, fx->tau, A, A + nv), 3);
    ck_assert_int_eq(cdyn_prox_ltl(fx->m, &fx->gd, &cd, &st, fx->q, fx->v, fx->tau, B, B + nv), 3);
    assert_vec_close(A, B, nv, fx->solve_tol, "%s state %d prox_ltl ddq", r, s);
    assert_vec_close(A + nv, B + nv, nc, lambda_tol, "%s state %d prox_ltl lambda", r, s);
    check_other_solvers(fx, s, &cd, &st, dgrowth, A, B);
    ck_assert_int_eq(g->impulse(fx->d, &st, fx->q, fx->v, 0.5, A, A + nv), 3);
    ck_assert_int_eq(cdyn_impulse(fx->m, &fx->gd, &cd, &st, fx->q, fx->v, 0.5, B, B + nv), 3);
    assert_vec_close(A, B, nv, fx->solve_tol, "%s state %d impulse v+", r, s);
    assert_vec_close(A + nv, B + nv, nc, lambda_tol, "%s state %d impulse", r, s);
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

/* ---- the contact step ---------------------------------------------------------------------
 * Robots generated with frictional contacts (--contact F:friction, random_robot_args.h) or
 * --joint-limits have NAME_contact_step; the generic cdyn_contact_step runs beside it from the
 * same state on the same model, set and limits. Per robot STEP_STATES random states; per
 * state random geometry and coefficients, and both solvers:
 *  - geometry: each frictional contact's signed distance phi uniform in [-1e-3, 5e-3] with a
 *    random unit normal (settings.phi, settings.normal), or, every other state, the plane
 *    z = ground_height put 1e-3 below to 5e-3 above one frictional contact's point (radius
 *    random in [0, 2e-2]), the others where they happen to be; each limited joint's q near its
 *    lower or upper limit (within [-1e-3, 5e-3] of it) or anywhere between them;
 *  - mu in [0, 1.5] and restitution in [0, 1] per contact, stabilisation in [0, 1];
 *  - the margin and dt the defaults (1e-3): contacts with phi <= 1e-3, or reaching it within
 *    the step, are active (about half of them).
 * 1. Generated = generic (check_step_pair): a fixed iteration count (abs_tol = rel_tol = 0,
 *    max_iter 50) so that both sides take the same path through the solver (a tolerance
 *    test could stop them an iteration apart on rounding, and one iteration changes lambda
 *    by far more than rounding does); then a second step from the first's result warm-started
 *    from the first's lambda. q_next, v_next and lambda to STEP_TOL relative to each vector's
 *    largest entry. Tolerance: the two sides build J, G = J M^-1 J^T and v_f with different
 *    operation orders (the generated factor of M vs the generic CRBA/ABA), ~1e-13 relative
 *    apart times cond(M) (solve_tol); the 50 iterations are non-expansive maps (projections
 *    onto cones, ADMM's averaged steps, PGS's block sweeps) that carry such perturbations
 *    without growing them beyond the conditioning of G (cond(G) up to ~1e4 on these sets, so
 *    ~1e-13 * 1e4 = 1e-9); extreme seeds get it times their pivot growth, like every solve here.
 * 2. Coulomb's law on converged solves (check_coulomb): abs_tol 1e-12, max_iter 5000, then by
 *    this file's own arithmetic on the step it took: the momentum balance
 *    M (v+ - v) = dt (tau - nle) + J^T lambda (M and nle by the generated code), the reported
 *    velocities c = J v+ (rotated into the contact bases), each active frictional contact's
 *    lambda in its cone, c_n = v+_n - b >= 0 and lambda . (c + s) = 0 (s the De Saxce shift),
 *    each limit's lambda >= 0, c - b >= 0, lambda (c - b) = 0, the bilateral rows held (c = 0),
 *    and lambda = 0 for a block left out. Tolerance: COULOMB_TOL of the problem's impulse and
 *    velocity scales: the solvers stop at 1e-12 absolute residuals, and the answer's error is
 *    about cond(G) times that. A solve that does not converge (a Coulomb problem need not have
 *    a solution a splitting method reaches: a bilateral constraint on the contact's own body
 *    can forbid the velocity its bound asks for) is counted, not checked, and at most a
 *    quarter of the solves may be such. */
#define STEP_STATES 2
#define STEP_TOL 1e-9
#define STEP_ITER 50
#define COULOMB_TOL 1e-7
#define STEP_MAXC 64

typedef struct {
    const generated_api *g;
    void *cwork, *pwork;
    cdyn_constraint_data cd, *set_data;
    cdyn_contact_problem gp;
    int n, nr, dims[STEP_MAXC], friction[STEP_MAXC], nfriction;
    double mu[STEP_MAXC], e[STEP_MAXC], radius[STEP_MAXC], normal[3 * STEP_MAXC], phi[STEP_MAXC];
} step_fixture;

static int step_robots, step_pairs, step_active, coulomb_checked, coulomb_unconverged,
    limit_rows_active, step_with_limits, pgs_rounding_singular;

static double unit_draw(unsigned *r)
{
    return 0.5 * (xorshift32_signed(r) + 1); /* [0, 1) */
}

static void step_open(fixture *fx, step_fixture *sf)
{
    const generated_api *g = fx->g;
    int k, nc = 0;
    memset(sf, 0, sizeof *sf);
    sf->g = g;
    sf->n = g->nconstraints;
    ck_assert(sf->n <= STEP_MAXC);
    for (k = 0; k < sf->n; k++) {
        const cdyn_constraint *c = (const cdyn_constraint *)g->constraints + k;
        sf->dims[k] = c->dim;
        sf->friction[k] = c->friction;
        sf->nfriction += c->friction;
        nc += c->dim;
    }
    ck_assert_int_eq(nc, g->nc);
    sf->nr = nc + 2 * g->njoint_limits;
    {
        const cdyn_contact_layout layout = { sf->n,           sf->dims,
                                             sf->friction,    g->njoint_limits,
                                             g->joint_limits, g->nv };
        const size_t pbytes = CDYN_CONTACT_PROBLEM_BYTES(sf->n, nc, g->njoint_limits, g->nv);
        sf->pwork = malloc(pbytes);
        sf->cwork = malloc(g->generic_constraint_bytes + 1);
        ck_assert(sf->pwork && sf->cwork);
        if (sf->n > 0) {
            ck_assert_int_eq(cdyn_constraint_data_init(&sf->cd, fx->m, g->constraints, sf->n,
                                                       sf->cwork, g->generic_constraint_bytes),
                             CDYN_OK);
            sf->set_data = &sf->cd;
        }
        ck_assert_int_eq(cdyn_contact_problem_init(&sf->gp, &layout, sf->pwork, pbytes), CDYN_OK);
    }
    ck_assert_int_eq(g->contact_reset(fx->d), CDYN_OK);
}

static void step_close(step_fixture *sf)
{
    free(sf->pwork);
    free(sf->cwork);
}

/* Each limited joint near one of its limits or anywhere between them (fx->q). */
static void limit_state(fixture *fx)
{
    int l;
    for (l = 0; l < fx->g->njoint_limits; l++) {
        const cdyn_joint_limit *j = &fx->g->joint_limits[l];
        const double off = -1e-3 + 6e-3 * unit_draw(&fx->rng), u = unit_draw(&fx->rng);
        fx->q[j->idx_q] = u < 1.0 / 3   ? j->lower + off
                          : u < 2.0 / 3 ? j->upper - off
                                        : j->lower + (j->upper - j->lower) * unit_draw(&fx->rng);
    }
}

/* Random settings for state s (see above); the arrays live in sf. */
static cdyn_contact_settings step_settings(fixture *fx, step_fixture *sf, int s, int solver)
{
    cdyn_contact_settings st = CDYN_CONTACT_SETTINGS_DEFAULT;
    int k;
    st.solver = solver;
    st.stabilisation = unit_draw(&fx->rng);
    for (k = 0; k < sf->n; k++) {
        double *u = sf->normal + 3 * k, len;
        sf->mu[k] = 1.5 * unit_draw(&fx->rng);
        sf->e[k] = unit_draw(&fx->rng);
        sf->radius[k] = 2e-2 * unit_draw(&fx->rng);
        sf->phi[k] = -1e-3 + 6e-3 * unit_draw(&fx->rng);
        do {
            u[0] = xorshift32_signed(&fx->rng);
            u[1] = xorshift32_signed(&fx->rng);
            u[2] = xorshift32_signed(&fx->rng);
            len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        } while (len < 0.1 || len > 1);
        u[0] /= len, u[1] /= len, u[2] /= len;
    }
    st.mu = sf->mu;
    st.restitution = sf->e;
    if (s % 2 == 0) {
        st.phi = sf->phi;
        st.normal = sf->normal;
    } else if (sf->nfriction > 0) { /* the ground plane near one frictional contact */
        int pick = (int)(unit_draw(&fx->rng) * sf->nfriction), f = -1;
        double R[9], p[3];
        for (k = 0; k < sf->n && f < 0; k++)
            if (sf->friction[k] && pick-- == 0)
                f = k;
        fx->g->fk(fx->d, fx->q);
        ck_assert_int_eq(fx->g->frame_placement(
                             fx->d, ((const cdyn_constraint *)fx->g->constraints)[f].frame_a, R, p),
                         0);
        st.radius = sf->radius;
        st.ground_height = p[2] - sf->radius[f] - sf->phi[f];
    }
    return st;
}

/* 1 if a block of p's active problem has a pivot at rounding level: its diagonal block's
 * Cholesky (a friction cone's normal entry, a half line's entry) meets a pivot below 1e-12
 * of the block's largest diagonal entry. */
static int rank_deficient_block(const cdyn_contact_problem *p)
{
    int k, i, j, l;
    for (k = 0; k < p->nb; k++) {
        const int r = p->block_row[k], d = p->cones[k].dim, m = p->m;
        double F[36], top = 0;
        if (r < 0)
            continue;
        for (i = 0; i < d; i++)
            top = fmax(top, fabs(p->G[(size_t)(r + i) * m + r + i]));
        if (p->cones[k].kind != CDYN_CONE_FREE) {
            const int n = p->cones[k].kind == CDYN_CONE_FRICTION ? 2 : 0;
            if (p->G[(size_t)(r + n) * m + r + n] <= 1e-12 * top)
                return 1;
            continue;
        }
        for (i = 0; i < d; i++)
            for (j = 0; j <= i; j++) {
                double a = p->G[(size_t)(r + i) * m + r + j];
                for (l = 0; l < j; l++)
                    a -= F[i * 6 + l] * F[j * 6 + l];
                if (j < i)
                    F[i * 6 + j] = a / F[j * 6 + j];
                else if (a <= 1e-12 * top)
                    return 1;
                else
                    F[i * 6 + i] = sqrt(a);
            }
    }
    return 0;
}

static double gap_rel(const double *x, const double *ref, int n, double floor)
{
    double gap = 0, scale = floor;
    int k;
    for (k = 0; k < n; k++) {
        if (!(fabs(x[k] - ref[k]) <= fabs(x[k] - ref[k])))
            return HUGE_VAL; /* a NaN on either side */
        gap = fmax(gap, fabs(x[k] - ref[k]));
        scale = fmax(scale, fmax(fabs(ref[k]), fabs(x[k])));
    }
    return scale > 0 ? gap / scale : gap;
}

/* One step by both sides from (q, v, tau): the same status, and for a step taken the same
 * q_next, v_next and lambda. Returns the status; q1, v1 the generated step's. */
static int step_both(fixture *fx, step_fixture *sf, const cdyn_contact_settings *st,
                     const double *q, const double *v, double *q1, double *v1, double tol,
                     const char *what)
{
    const generated_api *g = fx->g;
    const int nq = g->nq, nv = g->nv;
    double *q2 = malloc((size_t)(nq + nv) * sizeof *q2), *v2 = q2 + nq;
    cdyn_contact_problem p;
    int ig, ic;
    ck_assert(q2 != NULL);
    ig = g->contact_step(fx->d, st, q, v, fx->tau, q1, v1);
    ic = cdyn_contact_step(fx->m, &fx->gd, sf->set_data, &sf->gp, st, q, v, fx->tau, q2, v2);
    ck_assert_int_eq(g->contact_view(fx->d, &p), CDYN_OK);
    if (ig != ic && st->solver == CDYN_CONTACT_PGS &&
        (ig == CDYN_E_SINGULAR || ic == CDYN_E_SINGULAR)) {
        /* PGS refuses a block whose pivot is not positive, and a rank-deficient block (a 6d
         * constraint on a body with fewer DoFs, a contact that cannot move along its normal)
         * has a pivot of rounding size, +-1e-17, on either side of 0: the two sides may then
         * disagree (reported as a bug of cdyn_cone_pgs). Held to that: the generic problem has
         * such a block, by this file's own pivots. */
        ck_assert_msg(rank_deficient_block(&sf->gp), "%s %s: generated status %d, generic %d",
                      g->name, what, ig, ic);
        pgs_rounding_singular++;
        free(q2);
        return CDYN_E_SINGULAR;
    }
    ck_assert_msg(ig == ic, "%s %s: generated status %d, generic %d", g->name, what, ig, ic);
    ck_assert_int_eq(p.nr, sf->nr);
    if (ig >= 0 || ig == CDYN_E_NOT_CONVERGED) {
        /* v_next = v_f + M^-1 J^T lambda rounds relative to v_f's size: its floor (a DoF
         * held still ends at +-1e-16 on either side) */
        double vfloor = 0, gq, gv, gl, gG, gg;
        int k;
        for (k = 0; k < nv; k++)
            vfloor = fmax(vfloor, fmax(fabs(v[k]), fabs(p.vf[k])));
        /* the problem both solved: the same active blocks, G and g (built from the generated
         * factor of M or the generic ABA, solve_tol apart like every M^-1 here) */
        ck_assert_int_eq(p.m, sf->gp.m);
        for (k = 0; k < p.nb; k++)
            ck_assert_msg(p.active[k] == sf->gp.active[k], "%s %s: block %d active %d vs %d",
                          g->name, what, k, p.active[k], sf->gp.active[k]);
        gG = gap_rel(p.G, sf->gp.G, p.m * p.m, 0);
        gg = gap_rel(p.g, sf->gp.g, p.m, 0);
        ck_assert_msg(gG <= fx->solve_tol && gg <= fx->solve_tol,
                      "%s %s: generated/generic G %.3g, g %.3g (tol %.3g)", g->name, what, gG, gg,
                      fx->solve_tol);
        gq = gap_rel(q1, q2, nq, 1);
        gv = gap_rel(v1, v2, nv, vfloor);
        gl = gap_rel(p.lambda, sf->gp.lambda, p.nr, 0);
        ck_assert_msg(gq <= tol && gv <= tol && gl <= tol,
                      "%s %s: generated/generic q_next %.3g, v_next %.3g, lambda %.3g (tol %.3g)",
                      g->name, what, gq, gv, gl, tol);
        step_active += p.m > 0;
        for (k = p.n; k < p.nb; k++)
            limit_rows_active += p.active[k];
    }
    free(q2);
    return ig;
}

static void check_step_pair(fixture *fx, step_fixture *sf, int s, int solver)
{
    const generated_api *g = fx->g;
    const int nq = g->nq, nv = g->nv;
    const double tol = STEP_TOL * fx->solve_tol / TOL;
    double *q1 = malloc((size_t)(2 * nq + 2 * nv) * sizeof *q1), *v1 = q1 + nq, *q2 = v1 + nv,
           *v2 = q2 + nq;
    char what[64];
    cdyn_contact_settings st = step_settings(fx, sf, s, solver);
    int it;
    ck_assert(q1 != NULL);
    st.cone.abs_tol = st.cone.rel_tol = 0;
    st.cone.max_iter = STEP_ITER;
    st.cone.rho_power_factor = 0; /* ADMM's penalty fixed (its increment (L/m)^0 = 1): an
                                   * adaptation is a comparison of residuals that rounding
                                   * can tip one iteration apart on the two sides */
    st.cone.warm_start = 0;
    snprintf(what, sizeof what, "state %d %s", s, solver == CDYN_CONTACT_PGS ? "PGS" : "ADMM");
    it = step_both(fx, sf, &st, fx->q, fx->v, q1, v1, tol, what);
    ck_assert_msg(it == 0 || it == STEP_ITER || it == CDYN_E_SINGULAR,
                  "%s %s: status %d after a fixed %d iterations", g->name, what, it, STEP_ITER);
    if (it < 0)
        goto done; /* PGS on a block with a zero diagonal: refused by both, as checked */
    /* the next step from there, warm-started from this step's lambda on both sides */
    st.cone.warm_start = 1;
    strcat(what, " warm");
    it = step_both(fx, sf, &st, q1, v1, q2, v2, tol, what);
    ck_assert_msg(it == 0 || it == STEP_ITER || it == CDYN_E_SINGULAR, "%s %s: status %d", g->name,
                  what, it);
    step_pairs++;
done:
    free(q1);
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

/* Coulomb's law on a converged step of the generated code (see above). */
static void check_coulomb(fixture *fx, step_fixture *sf, int s, int solver)
{
    const generated_api *g = fx->g;
    const int nq = g->nq, nv = g->nv;
    double *q1 = malloc((size_t)(nq + 3 * nv + nv * nv) * sizeof *q1), *v1 = q1 + nq, *h = v1 + nv,
           *r = h + nv, *M = r + nv;
    const double growth = fx->solve_tol / TOL; /* 1 but on extreme seeds */
    double lam_scale = 0, vel_scale = 0;
    cdyn_contact_settings st = step_settings(fx, sf, s, solver);
    cdyn_contact_problem p;
    int it, k, a, j;
    ck_assert(q1 != NULL);
    st.cone.abs_tol = 1e-12;
    st.cone.rel_tol = 0;
    st.cone.max_iter = 5000;
    it = g->contact_step(fx->d, &st, fx->q, fx->v, fx->tau, q1, v1);
    if (it == CDYN_E_NOT_CONVERGED)
        coulomb_unconverged++;
    ck_assert_msg(it >= 0 || it == CDYN_E_NOT_CONVERGED || it == CDYN_E_SINGULAR,
                  "%s state %d: contact_step %d", g->name, s, it);
    if (it < 0)
        goto done;
    ck_assert_int_eq(g->contact_view(fx->d, &p), CDYN_OK);
    /* the scales: impulses, and velocities (J v_f, the bounds, v+) */
    for (k = 0; k < p.nr; k++)
        lam_scale = fmax(lam_scale, fabs(p.lambda[k]));
    for (k = 0; k < p.nr; k++)
        vel_scale = fmax(vel_scale, fmax(fabs(p.Jvf[k]), fabs(p.c[k])));
    for (k = 0; k < p.nb; k++)
        if (p.active[k] && p.cones[k].kind != CDYN_CONE_FREE)
            vel_scale = fmax(vel_scale, fabs(p.bound[k]));
    lam_scale = fmax(lam_scale, 1e-300);
    vel_scale = fmax(vel_scale, 1e-300);
    /* M (v+ - v) = dt (tau - nle) + J^T lambda, J^T lambda from the rows in each frame's axes
     * (a frictional contact's lambda taken back from its basis: T^T lambda) */
    g->crba(fx->d, fx->q, M);
    g->nle(fx->d, fx->q, fx->v, h);
    for (j = 0; j < nv; j++) {
        r[j] = -st.dt * (fx->tau[j] - h[j]);
        for (k = 0; k < nv; k++)
            r[j] += M[j * nv + k] * (v1[k] - fx->v[k]);
    }
    for (k = 0; k < p.nb; k++) {
        const int row = p.set_row[k], d = p.cones[k].dim;
        double l[6];
        for (a = 0; a < d; a++)
            l[a] = p.lambda[row + a];
        if (p.cones[k].kind == CDYN_CONE_FRICTION) {
            const double *T = p.T + 9 * k;
            for (a = 0; a < 3; a++)
                l[a] = T[a] * p.lambda[row] + T[3 + a] * p.lambda[row + 1] +
                       T[6 + a] * p.lambda[row + 2];
        }
        for (a = 0; a < d; a++)
            for (j = 0; j < nv; j++)
                r[j] -= p.J[(size_t)(row + a) * nv + j] * l[a];
    }
    /* each row's residual against the sizes of its terms: v+ was solved with M's factor, so
     * M v+ reproduces the right side to eps cond(M) of them (cond(M) < 1e7 on ordinary seeds:
     * 1e-8 = 100 solve_tol; extreme seeds: solve_tol's pivot growth) */
    for (j = 0; j < nv; j++) {
        double size = fabs(st.dt * (fx->tau[j] - h[j]));
        for (k = 0; k < nv; k++)
            size += fabs(M[j * nv + k] * (v1[k] - fx->v[k]));
        for (k = 0; k < p.nr; k++)
            size += fabs(p.J[(size_t)k * nv + j]) * lam_scale;
        ck_assert_msg(fabs(r[j]) <= 100 * fx->solve_tol * size,
                      "%s state %d: momentum balance of DoF %d off by %g (terms %g)", g->name, s, j,
                      r[j], size);
    }
    /* the velocities reported are the step's: c = T J v+ */
    for (k = 0; k < p.nb; k++) {
        const int row = p.set_row[k], d = p.cones[k].dim;
        double jv[6], c[6];
        for (a = 0; a < d; a++) {
            jv[a] = 0;
            for (j = 0; j < nv; j++)
                jv[a] += p.J[(size_t)(row + a) * nv + j] * v1[j];
        }
        for (a = 0; a < d; a++)
            c[a] = jv[a];
        if (p.cones[k].kind == CDYN_CONE_FRICTION)
            for (a = 0; a < 3; a++)
                c[a] = p.T[9 * k + 3 * a] * jv[0] + p.T[9 * k + 3 * a + 1] * jv[1] +
                       p.T[9 * k + 3 * a + 2] * jv[2];
        for (a = 0; a < d; a++)
            ck_assert_msg(fabs(c[a] - p.c[row + a]) <= COULOMB_TOL * growth * vel_scale,
                          "%s state %d block %d row %d: c %g, J v+ %g", g->name, s, k, a,
                          p.c[row + a], c[a]);
    }
    if (it == CDYN_E_NOT_CONVERGED)
        goto done; /* the last iterate: the step is taken, the law not met */
    coulomb_checked++;
    for (k = 0; k < p.nb; k++) {
        const double *l = p.lambda + p.set_row[k], *c = p.c + p.set_row[k];
        const double lt = COULOMB_TOL * growth * lam_scale, vt = COULOMB_TOL * growth * vel_scale;
        if (p.cones[k].kind == CDYN_CONE_FREE) {
            for (a = 0; a < p.cones[k].dim; a++)
                ck_assert_msg(fabs(c[a]) <= vt, "%s state %d: bilateral row %d of %d moves: %g",
                              g->name, s, a, k, c[a]);
        } else if (!p.active[k]) {
            for (a = 0; a < p.cones[k].dim; a++)
                ck_assert_msg(l[a] == 0, "%s state %d: block %d left out with lambda %g", g->name,
                              s, k, l[a]);
        } else if (p.cones[k].kind == CDYN_CONE_FRICTION) {
            const double mu = sf->mu[k], ln = hypot(l[0], l[1]), ct = hypot(c[0], c[1]);
            const double cn = c[2] - p.bound[k],
                         compl = l[0] * c[0] + l[1] * c[1] + l[2] * (cn + mu * ct);
            ck_assert(p.cones[k].mu == mu);
            ck_assert_msg(l[2] >= -lt && ln <= mu * l[2] + lt,
                          "%s state %d contact %d: lambda (%g %g %g) outside its cone mu %g",
                          g->name, s, k, l[0], l[1], l[2], mu);
            ck_assert_msg(cn >= -vt, "%s state %d contact %d sinks: c_n %g", g->name, s, k, cn);
            ck_assert_msg(fabs(compl ) <= COULOMB_TOL * growth * lam_scale * vel_scale,
                          "%s state %d contact %d: lambda . (c + s) = %g", g->name, s, k, compl );
        } else { /* a limit's half line */
            const double cn = c[0] - p.bound[k];
            ck_assert_msg(l[0] >= -lt && cn >= -vt &&
                              fabs(l[0] * cn) <= COULOMB_TOL * growth * lam_scale * vel_scale,
                          "%s state %d limit row %d: lambda %g, c - b %g", g->name, s, k, l[0], cn);
        }
    }
done:
    free(q1);
}

START_TEST(contact_step_generated_equals_generic)
{
    fixture fx;
    step_fixture sf;
    int s;
    setup(&fx, _i);
    if (!fx.g->contact_step) {
        teardown(&fx);
        return;
    }
    step_open(&fx, &sf);
    step_robots++;
    step_with_limits += fx.g->njoint_limits > 0;
    for (s = 0; s < STEP_STATES; s++) {
        random_state(&fx);
        limit_state(&fx);
        if (fx.g->aba) { /* the factor's pivot growth (set_solve_tolerance) at this q */
            fx.g->crba(fx.d, fx.q, fx.Y);
            ck_assert_int_eq(fx.g->ltl(fx.d), 0);
            ck_assert_int_eq(cdyn_crba(fx.m, &fx.gd, fx.q, fx.Y), CDYN_OK);
            ck_assert_int_eq(cdyn_ltl(fx.m, &fx.gd), CDYN_OK);
            set_solve_tolerance(&fx, fx.Y);
        }
        check_step_pair(&fx, &sf, s, CDYN_CONTACT_ADMM);
        check_step_pair(&fx, &sf, s, CDYN_CONTACT_PGS);
        check_coulomb(&fx, &sf, s, CDYN_CONTACT_ADMM);
        check_coulomb(&fx, &sf, s, CDYN_CONTACT_PGS);
    }
    step_close(&sf);
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
    tcase_add_loop_test(tc, contact_step_generated_equals_generic, 0, nrobots);
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
    /* nor the contact step: every robot with one ran its pairs (a pair is skipped only when
     * PGS meets a zero diagonal), most states activate a block, the limits took part, and
     * at most a quarter of the converged solves failed to converge */
    printf("test_generated_random: %d robots with a contact step (%d with limits), %d step "
           "pairs, %d steps with active blocks, %d active limit rows, Coulomb's law checked on "
           "%d solves, %d not converged, %d PGS refusals of a block singular to rounding\n",
           step_robots, step_with_limits, step_pairs, step_active, limit_rows_active,
           coulomb_checked, coulomb_unconverged, pgs_rounding_singular);
    if (step_robots == 0 || step_with_limits == 0 || step_pairs < step_robots * STEP_STATES ||
        step_active < step_pairs || limit_rows_active == 0 ||
        4 * coulomb_unconverged > coulomb_checked + coulomb_unconverged)
        failed = 1;
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
