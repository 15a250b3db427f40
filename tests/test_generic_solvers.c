/* test_generic_solvers.c — the generic runtime's other constrained solvers
 * (runtime/cdyn_solvers.c: cdyn_prox_pv, cdyn_prox_ltls, cdyn_constrained_aba) against
 * cdyn_prox_ltl (itself checked by test_generic_constrained) and against what the
 * constraints mean:
 *
 *  - the same iterates: mu = 1e-6, exactly 3 iterations (abs_tol = rel_tol = 0), from
 *    lambda_0 = 0, from a random warm start and with Baumgarte gains: ddq and lambda equal
 *    prox_ltl's; primal residual = mu dual exactly, and = ||J ddq + gamma||_inf (dense);
 *  - converged: M ddq + nle = tau + J^T lambda and J ddq + gamma = 0, with M, nle, J,
 *    gamma from cdyn_crba / cdyn_nle / cdyn_constraint_jacobian / cdyn_constraint_drift
 *    and checked densely, on full-rank sets with cond(J M^-1 J^T) <= 1e6;
 *  - a redundant set (one contact twice): the same ddq as prox_ltl, and the pair's summed
 *    lambda equal to prox_ltl's;
 *  - nothing is carried over between calls, and workspaces carved anew over junk bytes
 *    work as initialised ones (test_generic_solvers_workspace.c);
 *  - loops are refused by prox_pv and constrained_aba, bad arguments by all three;
 * on the sample robots' sets and seeded random robots (tests/support/random_robot.h) with
 * random contact sets (and, for prox_ltls, random sets with loops). The worst figures are
 * printed (test_figures). The fixture, solver table and sample sets the two files share:
 * test_generic_solvers.h.
 *
 * Tolerances, relative to 1 + max |reference| (compare.h):
 *  - against prox_ltl (tolerances() has the reasoning): 1e-9 for prox_pv and prox_ltls,
 *    1e-8 for constrained_aba (the 1e6 penalty in its inertias: measured 3.3e-9), widened
 *    on ill-posed sets by 1000 eps cond(G + mu I), and on the random robots for the two
 *    augmented-Lagrangian solvers by what their multiplier step lambda - r / mu loses on
 *    links of grams accelerating at 1e5 (measured up to 2e-7 for prox_ltls, 1e-6 for
 *    constrained_aba, on full-rank well-conditioned sets);
 *  - converged: 1e-9 of the terms' scale, at mu = CONV_MU = 1e-7 of G's largest eigenvalue
 *    (scale-free; at 1e-8 constrained_aba's motion residual, ~eps |K|^2 |ddq| / mu from
 *    its penalised inertias, measured 8e-10: too close), stopping on the primal residual
 *    (abs_tol = 1e-12 of the scale), which the ALM solvers measure directly (their dual,
 *    r / mu, has a rounding floor of eps |J ddq| / mu). */
#include "test_generic_solvers.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/check_main.h"
#include "support/compare.h"
#include "support/dense.h"
#include "support/random_robot.h"

#define CONV_TOL 1e-9
#define CONV_MU 1e-7
#define CONV_ITER 200
#define CONV_ABS 1e-12
#define NSTATES 3

const solver solvers[NSOLVERS] = {
    { "prox_pv", cdyn_prox_pv, 0, 1e-9, 0 },
    { "prox_ltls", cdyn_prox_ltls, 1, 1e-9, 10 },
    { "constrained_aba", cdyn_constrained_aba, 0, 1e-8, 100 },
};

/* The worst agreement seen, per solver: 3 iterations (sample robots, random robots), and
 * the converged residuals (motion equation, constraint). */
static double worst_same[NSOLVERS][2][2], worst_ratio[NSOLVERS], worst_motion[NSOLVERS],
    worst_hold[NSOLVERS], worst_redundant[NSOLVERS]; /* worst_same[solver][random][ill-posed] */
static int compared_same[NSOLVERS], compared_conv[NSOLVERS];

/* ---- the fixture ---- */

void fixture_open(fixture *fx, const cdyn_model *m, const char *what, int sample,
                  const cdyn_constraint *set, int n)
{
    memset(fx, 0, sizeof *fx);
    fx->m = m;
    fx->what = what;
    fx->sample = sample;
    fx->n = n;
    memcpy(fx->set, set, (size_t)n * sizeof *set);
    for (int k = 0; k < n; ++k)
        fx->loops |= set[k].frame_b >= 0;
    fx->nv = m->nv;
    fx->nq = m->nq;
    fx->dbytes = cdyn_data_size(m);
    fx->cbytes = cdyn_constraint_data_size(m, fx->set, n);
    ck_assert_msg(fx->cbytes > 0, "%s: the set is refused", what);
    fx->dbuf = malloc(fx->dbytes);
    fx->cbuf = malloc(fx->cbytes);
    ck_assert(fx->dbuf && fx->cbuf);
    ck_assert_int_eq(cdyn_data_init(&fx->d, m, fx->dbuf, fx->dbytes), CDYN_OK);
    ck_assert_int_eq(cdyn_constraint_data_init(&fx->cd, m, fx->set, n, fx->cbuf, fx->cbytes),
                     CDYN_OK);
    fx->nc = cdyn_constraint_dim(&fx->cd);
    const size_t big = (size_t)(fx->nv + fx->nc + 8) * (size_t)(fx->nv + fx->nc + 8);
    double **all[] = { &fx->q,   &fx->v,     &fx->tau, &fx->ddq0, &fx->lam0, &fx->ddq,
                       &fx->lam, &fx->init,  &fx->M,   &fx->J,    &fx->G,    &fx->H,
                       &fx->nle, &fx->gamma, &fx->x,   &fx->y };
    for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k)
        ck_assert_ptr_nonnull(*all[k] = calloc(big, sizeof(double)));
}

void fixture_close(fixture *fx)
{
    void *all[] = { fx->dbuf, fx->cbuf, fx->q,   fx->v,     fx->tau, fx->ddq0,
                    fx->lam0, fx->ddq,  fx->lam, fx->init,  fx->M,   fx->J,
                    fx->G,    fx->H,    fx->nle, fx->gamma, fx->x,   fx->y };
    for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k)
        free(all[k]);
}

/* max |x - ref| / (1 + max |ref|), compare.h's measure (NaN gives NaN). */
static double rel_diff(const double *x, const double *ref, int n)
{
    return dense_max_diff(x, ref, n) / (1 + dense_max_abs(ref, n));
}

static void note(double *worst, double e)
{
    if (!(e <= *worst))
        *worst = e;
}

/* ---- dense terms at the fixture's state ---- */

/* M, nle, J, gamma; W = M^-1 J^T (fx->H, nv x nc), G = J W (fx->G) and its extreme
 * eigenvalues. */
static void dense_terms(fixture *fx)
{
    const int nv = fx->nv, nc = fx->nc;
    ck_assert_int_eq(cdyn_crba(fx->m, &fx->d, fx->q, fx->M), CDYN_OK);
    ck_assert_int_eq(cdyn_nle(fx->m, &fx->d, fx->q, fx->v, fx->nle), CDYN_OK);
    ck_assert_int_eq(cdyn_constraint_jacobian(fx->m, &fx->d, &fx->cd, fx->q, fx->J), CDYN_OK);
    ck_assert_int_eq(cdyn_constraint_drift(fx->m, &fx->d, &fx->cd, fx->q, fx->v, fx->gamma),
                     CDYN_OK);
    ck_assert_int_eq(dense_jminvjt(fx->M, fx->J, nv, nc, fx->H, fx->G), 0);
    double *w = fx->x, *V = fx->y;
    ck_assert_int_eq(dense_sym_eigen(fx->G, nc, w, V), 0);
    fx->gmax = 0;
    fx->gmin = INFINITY;
    for (int i = 0; i < nc; ++i) {
        fx->gmax = fmax(fx->gmax, w[i]);
        fx->gmin = fmin(fx->gmin, fmax(w[i], 0));
    }
}

/* ---- the same iterates as prox_ltl ---- */

/* The tolerances of one comparison with prox_ltl (ddq0, lam0) at mu, relative:
 *  - the solver's base: 1e-9 (the brief's), 1e-8 for constrained_aba (its articulated
 *    inertias carry the penalty: a point mass of 1/mu = 1e6 at each contact, of which
 *    pass 2 subtracts U D^-1 U^T again; measured up to 3.3e-9 on the sample robots);
 *  - ill-posed sets (redundant, inconsistent, ill-conditioned): C_KAPPA eps kappa, kappa =
 *    cond(G + mu I) from G's spectrum: what any two backward-stable evaluations of the
 *    iterates may differ by, (G + mu I)^-1 amplifying perturbations of G (measured below
 *    0.2 of it);
 *  - on the random robots, for the two augmented-Lagrangian (ALM) solvers, the loss of
 *    their multiplier step lambda - r / mu: r = J ddq + gamma - a* cancels frame
 *    accelerations of size acc = max_i sum_k |J_ik ddq_k| + |gamma| + |g| (constrained_aba's
 *    a_b carries gravity), so lambda is off by ~eps acc / mu absolutely, ddq by |W| times
 *    that (W = M^-1 J^T): on links of grams accelerating at 1e5 that reaches 1e-7 .. 1e-6
 *    relative. Factor 10 for prox_ltls (measured below 0.1 of it), 100 for
 *    constrained_aba (up to 0.4: its penalised pass 2 loses the same kind of digits). The
 *    sample robots have no such links (measured prox_ltls 4e-13, constrained_aba 3e-9).
 * A wrong term, sign or stale value is off by O(1) (the figures printed by test_figures
 * give the worst error/tolerance). */
#define C_KAPPA 1000.0
static void tolerances(const fixture *fx, double mu, int s, double *tol_ddq, double *tol_lambda)
{
    const int nv = fx->nv, nc = fx->nc;
    const double *g = fx->m->gravity, kappa = (fx->gmax + mu) / (fx->gmin + mu);
    double acc = 0;
    for (int i = 0; i < nc; ++i) {
        double a = 0;
        for (int k = 0; k < nv; ++k)
            a += fabs(fx->J[i * nv + k] * fx->ddq0[k]);
        acc = fmax(acc, a);
    }
    acc += dense_max_abs(fx->gamma, nc) + sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    const double loss = fx->sample ? 0 : solvers[s].alm * DBL_EPSILON * acc / mu;
    const double base = fmax(solvers[s].tol, C_KAPPA * DBL_EPSILON * kappa);
    *tol_lambda = fmax(base, loss / (1 + dense_max_abs(fx->lam0, nc)));
    *tol_ddq = fmax(base, loss * dense_max_abs(fx->H, nv * nc) / (1 + dense_max_abs(fx->ddq0, nv)));
}

/* The residuals a solver left: primal = mu dual exactly, and without gains (a* = 0) the
 * primal one is ||J ddq + gamma||_inf, evaluated here densely (to ddq's accuracy). */
static void check_residuals(fixture *fx, const cdyn_prox_settings *st, int s, double tol_ddq,
                            const char *how, int state)
{
    const int nv = fx->nv, nc = fx->nc;
    cdyn_real p, dl;
    cdyn_constraint_residuals(&fx->cd, &p, &dl);
    ck_assert_msg(p == st->mu * dl, "%s %s: primal %.17g != mu dual", fx->what, solvers[s].name, p);
    if (st->Kp || st->Kd)
        return;
    double *r = fx->x;
    dense_mul(fx->J, nc, nv, fx->ddq, r);
    for (int i = 0; i < nc; ++i)
        r[i] += fx->gamma[i];
    const double scale = 1 + dense_max_abs(fx->gamma, nc) +
                         dense_max_abs(fx->J, nc * nv) * dense_max_abs(fx->ddq, nv);
    ck_assert_msg(fabs(p - dense_max_abs(r, nc)) <= tol_ddq * scale,
                  "%s state %d %s: %s primal residual %.17g, |J ddq + gamma| %.17g", fx->what,
                  state, how, solvers[s].name, p, dense_max_abs(r, nc));
}

/* prox_ltl and each solver with settings st from lambda = fx->init: ddq and lambda agree
 * (the dense terms are the state's). */
static void compare_with_ltl(fixture *fx, const cdyn_prox_settings *st, const char *how, int state)
{
    const int nv = fx->nv, nc = fx->nc;
    memcpy(fx->lam0, fx->init, (size_t)nc * sizeof(double));
    ck_assert_int_eq(
        cdyn_prox_ltl(fx->m, &fx->d, &fx->cd, st, fx->q, fx->v, fx->tau, fx->ddq0, fx->lam0),
        st->max_iter);
    for (int s = 0; s < NSOLVERS; ++s) {
        memcpy(fx->lam, fx->init, (size_t)nc * sizeof(double));
        const int it =
            solvers[s].f(fx->m, &fx->d, &fx->cd, st, fx->q, fx->v, fx->tau, fx->ddq, fx->lam);
        if (fx->loops && !solvers[s].loops) {
            ck_assert_msg(it == CDYN_E_ARG, "%s: %s accepted a loop (%d)", fx->what,
                          solvers[s].name, it);
            continue;
        }
        ck_assert_msg(it == st->max_iter, "%s state %d %s: %s returned %d", fx->what, state, how,
                      solvers[s].name, it);
        double tol_ddq, tol_lambda;
        tolerances(fx, st->mu, s, &tol_ddq, &tol_lambda);
        assert_vec_close(fx->ddq, fx->ddq0, nv, tol_ddq, "%s state %d %s: %s ddq", fx->what, state,
                         how, solvers[s].name);
        assert_vec_close(fx->lam, fx->lam0, nc, tol_lambda, "%s state %d %s: %s lambda", fx->what,
                         state, how, solvers[s].name);
        check_residuals(fx, st, s, tol_ddq, how, state);
        const double ed = rel_diff(fx->ddq, fx->ddq0, nv), el = rel_diff(fx->lam, fx->lam0, nc);
        note(&worst_same[s][!fx->sample][!(fx->gmin > 1e-6 * fx->gmax)], fmax(ed, el));
        note(&worst_ratio[s], fmax(ed / tol_ddq, el / tol_lambda));
        ++compared_same[s];
    }
}

/* Three iterations at mu = 1e-6: cold, warm from a random lambda, with Baumgarte gains
 * towards a reference away from the frames (so a* is large). */
static void check_three_iterations(fixture *fx, xorshift64s *g, int state)
{
    double Kp[2 * MAXCON + 2], Kd[2 * MAXCON + 2];
    const double Rref[9] = { 0, -1, 0, 1, 0, 0, 0, 0, 1 }, pref[3] = { 0.1, -0.2, 0.3 };
    cdyn_prox_settings st = prox_settings(1e-6, 3);
    dense_terms(fx);
    memset(fx->init, 0, (size_t)fx->nc * sizeof(double));
    compare_with_ltl(fx, &st, "cold", state);
    xorshift64s_vector(g, fx->init, fx->nc, 20.0);
    st.warm_start = 1;
    compare_with_ltl(fx, &st, "warm", state);
    for (int k = 0; k < fx->n; ++k) {
        Kp[k] = 100 + 10 * k;
        Kd[k] = 20 + k;
        ck_assert_int_eq(cdyn_constraint_set_reference(&fx->cd, k, Rref, pref), CDYN_OK);
    }
    st.Kp = Kp;
    st.Kd = Kd;
    st.warm_start = 0;
    compare_with_ltl(fx, &st, "Baumgarte", state);
}

/* ---- converged, against the dense equations ---- */

/* Each solver converged on a full-rank set with cond(G) <= 1e6: the motion equation and
 * the constraints hold. The stopping test is the primal one, ||J ddq + gamma||_inf <=
 * abs_tol = CONV_ABS of the terms' scale (taken from a converged prox_ltl): it is what the
 * ALM solvers measure directly (their dual residual, rho times it, has a rounding floor of
 * rho eps |J ddq|). */
static void check_converged(fixture *fx, int state)
{
    const int nv = fx->nv, nc = fx->nc;
    dense_terms(fx);
    if (!(fx->gmin > 1e-6 * fx->gmax))
        return;
    cdyn_prox_settings st = prox_settings(CONV_MU * fx->gmax, CONV_ITER);
    ck_assert_int_eq(
        cdyn_prox_ltl(fx->m, &fx->d, &fx->cd, &st, fx->q, fx->v, fx->tau, fx->ddq0, fx->lam0),
        CONV_ITER);
    st.abs_tol = CONV_ABS * (1 + dense_max_abs(fx->gamma, nc) +
                             dense_max_abs(fx->J, nc * nv) * dense_max_abs(fx->ddq0, nv));
    for (int s = 0; s < NSOLVERS; ++s) {
        if (fx->loops && !solvers[s].loops)
            continue;
        const int it =
            solvers[s].f(fx->m, &fx->d, &fx->cd, &st, fx->q, fx->v, fx->tau, fx->ddq, fx->lam);
        ck_assert_msg(it > 0 && it < CONV_ITER, "%s state %d: %s returned %d", fx->what, state,
                      solvers[s].name, it);
        double *r = fx->x, *t = fx->y;
        dense_mul(fx->M, nv, nv, fx->ddq, r);
        dense_mul_t(fx->J, nc, nv, fx->lam, t);
        const double scale = 1 + dense_max_abs(fx->nle, nv) + dense_max_abs(fx->tau, nv) +
                             dense_max_abs(fx->M, nv * nv) * dense_max_abs(fx->ddq, nv) +
                             dense_max_abs(fx->J, nc * nv) * dense_max_abs(fx->lam, nc);
        for (int k = 0; k < nv; ++k)
            r[k] += fx->nle[k] - fx->tau[k] - t[k];
        const double em = dense_max_abs(r, nv) / scale;
        ck_assert_msg(em <= CONV_TOL,
                      "%s state %d %s: |M ddq + nle - tau - J^T lambda| = %.3g"
                      " of %.3g",
                      fx->what, state, solvers[s].name, em, scale);
        dense_mul(fx->J, nc, nv, fx->ddq, r);
        for (int i = 0; i < nc; ++i)
            r[i] += fx->gamma[i];
        const double hscale = 1 + dense_max_abs(fx->gamma, nc) +
                              dense_max_abs(fx->J, nc * nv) * dense_max_abs(fx->ddq, nv);
        const double eh = dense_max_abs(r, nc) / hscale;
        ck_assert_msg(eh <= CONV_TOL, "%s state %d %s: |J ddq + gamma| = %.3g of %.3g", fx->what,
                      state, solvers[s].name, eh, hscale);
        note(&worst_motion[s], em);
        note(&worst_hold[s], eh);
        ++compared_conv[s];
    }
}

static void run_all(fixture *fx, uint64_t seed)
{
    xorshift64s g = { 0x9E3779B97F4A7C15ull ^ (seed * 0x100000001B3ull) };
    for (int s = 0; s < NSTATES; ++s) {
        random_state(fx->m, &g, fx->q, fx->v, fx->tau, fx->x);
        check_three_iterations(fx, &g, s);
        check_converged(fx, s);
    }
}

/* ---- models and sets ---- */

const sample_set sample_sets[] = {
    { "arm7.urdf", "arm7 tool 6d", 0, 1, { { "tool", NULL, 6 } } },
    { "arm7.urdf", "arm7 tool 3d", 0, 1, { { "tool", NULL, 3 } } },
    { "arm7.urdf",
      "arm7 tool 3d + 6d on link3 (7 DoFs, 9 rows)",
      0,
      2,
      { { "tool", NULL, 3 }, { "link3", NULL, 6 } } },
    { "quadruped12.urdf",
      "quadruped12 four feet 3d",
      1,
      4,
      { { "lf_foot", NULL, 3 },
        { "rf_foot", NULL, 3 },
        { "lh_foot", NULL, 3 },
        { "rh_foot", NULL, 3 } } },
    { "quadruped12.urdf",
      "quadruped12 two feet 3d",
      1,
      2,
      { { "lf_foot", NULL, 3 }, { "rh_foot", NULL, 3 } } },
    { "quadruped12.urdf",
      "quadruped12 four feet 3d + lf_foot 6d",
      1,
      5,
      { { "lf_foot", NULL, 3 },
        { "rf_foot", NULL, 3 },
        { "lh_foot", NULL, 3 },
        { "rh_foot", NULL, 3 },
        { "lf_foot", NULL, 6 } } },
    { "humanoid.urdf",
      "humanoid feet 6d",
      1,
      2,
      { { "left_sole", NULL, 6 }, { "right_sole", NULL, 6 } } },
    { "humanoid.urdf",
      "humanoid left_sole 6d twice + right_sole 6d",
      1,
      3,
      { { "left_sole", NULL, 6 }, { "left_sole", NULL, 6 }, { "right_sole", NULL, 6 } } },
    { "humanoid.urdf",
      "humanoid feet 6d, hands 3d",
      1,
      4,
      { { "left_sole", NULL, 6 },
        { "right_sole", NULL, 6 },
        { "left_hand", NULL, 3 },
        { "right_hand", NULL, 3 } } },
    { "humanoid.urdf",
      "humanoid hands held together 6d, feet 6d",
      1,
      3,
      { { "left_hand", "right_hand", 6 }, { "left_sole", NULL, 6 }, { "right_sole", NULL, 6 } } },
    { "fourbar.urdf", "fourbar loop 3d", 0, 1, { { "coupler_tip", "rocker_tip", 3 } } },
    { "fourbar.urdf", "fourbar loop 6d", 0, 1, { { "coupler_tip", "rocker_tip", 6 } } },
};
const int nsample_sets = (int)(sizeof sample_sets / sizeof sample_sets[0]);

START_TEST(test_sample_sets)
{
    const sample_set *s = &sample_sets[_i];
    model_table mt;
    cdyn_constraint set[MAXCON + 2];
    fixture fx;
    load_sample(s->file, s->floating, &mt);
    const int n = sample_set_constraints(s, &mt.model, set);
    fixture_open(&fx, &mt.model, s->what, 1, set, n);
    run_all(&fx, (uint64_t)_i);
    fixture_close(&fx);
    model_table_free(&mt);
}
END_TEST

unsigned seed_of(int i)
{
    return i < NSEEDS ? (unsigned)i : RANDOM_ROBOT_BIG_FIRST + (unsigned)(i - NSEEDS);
}

START_TEST(test_random_sets)
{
    const unsigned seed = seed_of(_i);
    random_model r;
    cdyn_constraint set[MAXCON + 2];
    char what[128];
    fixture fx;
    xorshift64s g = { 0xD1B54A32D192ED03ull + seed };
    random_model_open(&r, seed);
    for (int loops = 0; loops < 2; ++loops) {
        const int n = random_constraint_set(&r.mt.model, &g, MAXCON, loops, set);
        snprintf(what, sizeof what, "seed %u (nv %d, %d %s)", seed, r.mt.model.nv, n,
                 loops ? "constraints, loops allowed" : "contacts");
        fixture_open(&fx, &r.mt.model, what, 0, set, n);
        run_all(&fx, seed + 1000u * (unsigned)loops);
        fixture_close(&fx);
    }
    random_model_close(&r);
}
END_TEST

/* ---- a redundant set: one contact twice ---- */

/* Converged from lambda_0 = 0, the solvers agree with prox_ltl on ddq and on the total
 * multiplier of the duplicated pair (rows 0..dim-1 and dim..2 dim-1); the split between
 * the two is the minimum-norm one in exact arithmetic but its rounding is not compared. */
static void check_redundant(fixture *fx, int state)
{
    const int nv = fx->nv, nc = fx->nc, dim = fx->set[0].dim;
    double sum0[6], sum[6], tol_ddq, tol_lambda;
    dense_terms(fx);
    cdyn_prox_settings st = prox_settings(1e-6, 60);
    ck_assert_int_eq(
        cdyn_prox_ltl(fx->m, &fx->d, &fx->cd, &st, fx->q, fx->v, fx->tau, fx->ddq0, fx->lam0), 60);
    for (int r = 0; r < dim; ++r)
        sum0[r] = fx->lam0[r] + fx->lam0[dim + r];
    for (int s = 0; s < NSOLVERS; ++s) {
        ck_assert_int_eq(
            solvers[s].f(fx->m, &fx->d, &fx->cd, &st, fx->q, fx->v, fx->tau, fx->ddq, fx->lam), 60);
        tolerances(fx, st.mu, s, &tol_ddq, &tol_lambda);
        for (int r = 0; r < dim; ++r)
            sum[r] = fx->lam[r] + fx->lam[dim + r];
        assert_vec_close(fx->ddq, fx->ddq0, nv, tol_ddq, "%s state %d: %s ddq", fx->what, state,
                         solvers[s].name);
        assert_vec_close(sum, sum0, dim, tol_lambda, "%s state %d: %s pair's lambda", fx->what,
                         state, solvers[s].name);
        assert_vec_close(fx->lam + 2 * dim, fx->lam0 + 2 * dim, nc - 2 * dim, tol_lambda,
                         "%s state %d: %s other lambda", fx->what, state, solvers[s].name);
        note(&worst_redundant[s], fmax(rel_diff(fx->ddq, fx->ddq0, nv), rel_diff(sum, sum0, dim)));
    }
}

START_TEST(test_redundant)
{
    model_table mt;
    load_sample("quadruped12.urdf", 1, &mt);
    const cdyn_model *m = &mt.model;
    const int lf = frame_named(m, "lf_foot"), rf = frame_named(m, "rf_foot");
    const int lh = frame_named(m, "lh_foot"), rh = frame_named(m, "rh_foot");
    const cdyn_constraint set[5] = {
        { lf, -1, 3, 0 }, { lf, -1, 3, 0 }, { rf, -1, 3, 0 }, { lh, -1, 3, 0 }, { rh, -1, 3, 0 }
    };
    fixture fx;
    xorshift64s g = { 12345 };
    fixture_open(&fx, m, "quadruped12 lf_foot twice + three feet", 1, set, 5);
    for (int s = 0; s < NSTATES; ++s) {
        random_state(fx.m, &g, fx.q, fx.v, fx.tau, fx.x);
        check_redundant(&fx, s);
    }
    fixture_close(&fx);
    model_table_free(&mt);
}
END_TEST

/* ---- the API refuses what it cannot do ---- */

START_TEST(test_bad_input)
{
    model_table mt, other;
    load_sample("humanoid.urdf", 1, &mt);
    load_sample("arm7.urdf", 0, &other);
    const cdyn_model *m = &mt.model;
    const int ls = frame_named(m, "left_sole"), lh = frame_named(m, "left_hand");
    const int rh = frame_named(m, "right_hand");
    const cdyn_constraint contacts[2] = { { ls, -1, 6, 0 }, { lh, -1, 3, 0 } };
    const cdyn_constraint loop[2] = { { ls, -1, 6, 0 }, { lh, rh, 3, 0 } };
    fixture fx, fl;
    fixture_open(&fx, m, "humanoid contacts", 1, contacts, 2);
    fixture_open(&fl, m, "humanoid with a loop", 1, loop, 2);
    ck_assert_int_eq(cdyn_neutral(m, fx.q), CDYN_OK);
    memcpy(fl.q, fx.q, (size_t)m->nq * sizeof(double));
    cdyn_prox_settings st = prox_settings(1e-6, 3);
    for (int s = 0; s < NSOLVERS; ++s) {
        solver_fn f = solvers[s].f;
        double *q = fx.q, *v = fx.v, *tau = fx.tau, *ddq = fx.ddq, *lam = fx.lam;
        ck_assert_int_eq(f(m, &fx.d, &fx.cd, &st, q, v, tau, ddq, lam), 3);
        ck_assert_int_eq(f(m, &fl.d, &fl.cd, &st, q, v, tau, ddq, lam),
                         solvers[s].loops ? 3 : CDYN_E_ARG);
        ck_assert_int_eq(f(NULL, &fx.d, &fx.cd, &st, q, v, tau, ddq, lam), CDYN_E_ARG);
        ck_assert_int_eq(f(m, NULL, &fx.cd, &st, q, v, tau, ddq, lam), CDYN_E_ARG);
        ck_assert_int_eq(f(m, &fx.d, NULL, &st, q, v, tau, ddq, lam), CDYN_E_ARG);
        ck_assert_int_eq(f(m, &fx.d, &fx.cd, NULL, q, v, tau, ddq, lam), CDYN_E_ARG);
        ck_assert_int_eq(f(m, &fx.d, &fx.cd, &st, NULL, v, tau, ddq, lam), CDYN_E_ARG);
        ck_assert_int_eq(f(m, &fx.d, &fx.cd, &st, q, NULL, tau, ddq, lam), CDYN_E_ARG);
        ck_assert_int_eq(f(m, &fx.d, &fx.cd, &st, q, v, NULL, ddq, lam), CDYN_E_ARG);
        ck_assert_int_eq(f(m, &fx.d, &fx.cd, &st, q, v, tau, NULL, lam), CDYN_E_ARG);
        ck_assert_int_eq(f(m, &fx.d, &fx.cd, &st, q, v, tau, ddq, NULL), CDYN_E_ARG);
        ck_assert_int_eq(f(&other.model, &fx.d, &fx.cd, &st, q, v, tau, ddq, lam), CDYN_E_ARG);
        cdyn_prox_settings bad = st;
        bad.mu = 0;
        ck_assert_int_eq(f(m, &fx.d, &fx.cd, &bad, q, v, tau, ddq, lam), CDYN_E_ARG);
        bad.mu = -1e-6;
        ck_assert_int_eq(f(m, &fx.d, &fx.cd, &bad, q, v, tau, ddq, lam), CDYN_E_ARG);
        bad.mu = NAN;
        ck_assert_int_eq(f(m, &fx.d, &fx.cd, &bad, q, v, tau, ddq, lam), CDYN_E_ARG);
        bad = st;
        bad.max_iter = 0;
        ck_assert_int_eq(f(m, &fx.d, &fx.cd, &bad, q, v, tau, ddq, lam), CDYN_E_ARG);
        tau[3] = NAN;
        ck_assert_int_eq(f(m, &fx.d, &fx.cd, &st, q, v, tau, ddq, lam), CDYN_E_NONFINITE);
        tau[3] = 0;
    }
    fixture_close(&fx);
    fixture_close(&fl);
    model_table_free(&mt);
    model_table_free(&other);
}
END_TEST

/* Every solver was compared; the figures for the record. */
START_TEST(test_figures)
{
    for (int s = 0; s < NSOLVERS; ++s) {
        ck_assert_msg(compared_same[s] > 0 && compared_conv[s] > 0, "%s: %d, %d comparisons",
                      solvers[s].name, compared_same[s], compared_conv[s]);
        printf("%s: vs prox_ltl after 3 iterations (%d runs), full rank and cond(G) <= 1e6:"
               " sample sets %.2g, random %.2g; others: sample %.2g, random %.2g; worst"
               " error/tolerance %.2g. Converged (%d runs): motion %.2g, constraints %.2g;"
               " redundant %.2g\n",
               solvers[s].name, compared_same[s], worst_same[s][0][0], worst_same[s][1][0],
               worst_same[s][0][1], worst_same[s][1][1], worst_ratio[s], compared_conv[s],
               worst_motion[s], worst_hold[s], worst_redundant[s]);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("generic_solvers");
    TCase *tc = tcase_create("all");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_sample_sets, 0, nsample_sets);
    tcase_add_loop_test(tc, test_random_sets, 0, NSEEDS + (int)RANDOM_ROBOT_BIG_COUNT);
    tcase_add_test(tc, test_redundant);
    add_workspace_tests(tc); /* test_generic_solvers_workspace.c */
    tcase_add_test(tc, test_bad_input);
    tcase_add_test(tc, test_figures);
    suite_add_tcase(s, tc);
    /* no fork: test_figures reads the others' counts */
    return check_run(s, CK_NOFORK) ? EXIT_FAILURE : EXIT_SUCCESS;
}
