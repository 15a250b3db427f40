/* test_generic_constrained.c — the generic constrained dynamics (runtime/cdyn_constrained.c)
 * checked without any reference file, against what the constraints mean:
 *
 *  - J against the frame Jacobians (cdyn_frame_jacobian, itself checked against Pinocchio
 *    and finite differences): 3d R_A^T (pdot_A - pdot_B), 6d R_A^T [pdot_A - pdot_B -
 *    w_B x (p_A - p_B); w_A - w_B] (this and the next: test_generic_constrained_kinematics.c,
 *    the fixture: test_generic_constrained.h);
 *  - J ddq + gamma against the time derivative, by finite differences along
 *    q(t) = q (+) (v t + ddq t^2 / 2), v(t) = v + ddq t, of R_A^T (pdot_A - pdot_B) (3d) or
 *    of the two frames' spatial velocities at the world origin, differenced and seen in
 *    A's frame (6d) — so gamma is checked for contacts and loops alike;
 *  - the dynamics: M ddq + nle = tau + J^T lambda for any lambda, and the converged
 *    lambda equals the minimum-norm least-squares multiplier of a dense J M^-1 J^T
 *    (Cholesky of M, Jacobi eigen-decomposition), redundant and degenerate sets included;
 *  - J ddq + gamma = a* when J has full row rank, Baumgarte's a* included;
 *  - impacts: M (v+ - v-) = J^T impulse, J v+ = -e J v-, kinetic energy not increased;
 *  - warm start: from a converged lambda, one iteration meets the tolerance;
 *  - delassus = the dense J M^-1 J^T + mu I;
 *  - bad sets, small buffers, NaN inputs and bad settings are refused.
 * on the sample robots and 40 seeded random robots (tests/support/random_robot.h) with random
 * sets of contacts and loops (3d and 6d, loops to world-fixed frames too).
 *
 * Tolerances (relative to the size of the quantities compared, as compare.h):
 *  - J: 1e-12, the same products in another order (a few ulps per joint on the chain);
 *  - J ddq + gamma by differences: 1e-7. Richardson-extrapolated central differences
 *    with h = 1e-3: truncation ~h^4 |f^(5)| (velocities ~1 rad/s, <1e-10) and rounding
 *    eps |f| / h (~1e-13); both far below 1e-7, which any error in gamma exceeds;
 *  - algebraic identities (equation of motion, impulse momentum): 1e-9 of the terms' scale;
 *  - the constraints held after convergence (full-rank sets): J ddq + gamma = a* and
 *    J v+ = -e J v- to 1e-9 of the terms (the solve's residual is cond(G + mu I) eps);
 *  - converged against dense: 1e-8 for ddq, J^T lambda and lambda. States are used when
 *    the nonzero spectrum of J M^-1 J^T lies within 1e6 of its largest eigenvalue and the
 *    zero one below 1e-12 of it (rank well defined); then rounding moves lambda by
 *    ~cond eps <= 1e-10, and 60 iterations at mu = 1e-4 sigma_min leave (1e-4)^60. */
#include "test_generic_constrained.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/check_main.h"
#include "support/compare.h"
#include "support/dense.h"
#include "support/models.h"

#define ALG_TOL 1e-9
#define DENSE_TOL 1e-8
#define HOLD_TOL 1e-9
#define NSEEDS 40
#define NSTATES 4

/* ---- the fixture: a model, a set and dense scratch ---- */

void fixture_open(fixture *fx, const cdyn_model *m, const char *what, const cdyn_constraint *set,
                  int n)
{
    memset(fx, 0, sizeof *fx);
    fx->m = m;
    fx->what = what;
    fx->n = n;
    memcpy(fx->set, set, (size_t)n * sizeof *set);
    fx->nv = m->nv;
    fx->nq = m->nq;
    const size_t size = cdyn_data_size(m), csize = cdyn_constraint_data_size(m, fx->set, n);
    ck_assert_msg(csize > 0, "%s: the set is refused", what);
    fx->dbuf = malloc(size);
    fx->cbuf = malloc(csize);
    ck_assert(fx->dbuf && fx->cbuf);
    ck_assert_int_eq(cdyn_data_init(&fx->d, m, fx->dbuf, size), CDYN_OK);
    ck_assert_int_eq(cdyn_constraint_data_init(&fx->cd, m, fx->set, n, fx->cbuf, csize), CDYN_OK);
    fx->nc = cdyn_constraint_dim(&fx->cd);
    const size_t nv = (size_t)fx->nv, nc = (size_t)fx->nc, big = (nv + nc) * (nv + nc) + 6 * nv;
    double **vecs[] = { &fx->q, &fx->v, &fx->tau, &fx->ddq, &fx->lambda, &fx->x, &fx->y, &fx->w };
    for (size_t k = 0; k < sizeof vecs / sizeof vecs[0]; ++k)
        ck_assert_ptr_nonnull(*vecs[k] = calloc(big, sizeof(double)));
    double **mats[] = { &fx->J, &fx->Jref, &fx->M, &fx->G, &fx->H };
    for (size_t k = 0; k < sizeof mats / sizeof mats[0]; ++k)
        ck_assert_ptr_nonnull(*mats[k] = calloc(big, sizeof(double)));
}

void fixture_close(fixture *fx)
{
    void *all[] = { fx->dbuf, fx->cbuf, fx->q, fx->v,    fx->tau, fx->ddq, fx->lambda, fx->x,
                    fx->y,    fx->w,    fx->J, fx->Jref, fx->M,   fx->G,   fx->H };
    for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k)
        free(all[k]);
}

/* ---- dynamics against dense linear algebra ---- */

/* Dense G = J M^-1 J^T (fx->G) and W = M^-1 J^T (fx->H, nv x nc), M from cdyn_crba. */
static void dense_delassus(fixture *fx)
{
    ck_assert_int_eq(cdyn_crba(fx->m, &fx->d, fx->q, fx->M), CDYN_OK);
    ck_assert_int_eq(cdyn_constraint_jacobian(fx->m, &fx->d, &fx->cd, fx->q, fx->J), CDYN_OK);
    ck_assert_int_eq(dense_jminvjt(fx->M, fx->J, fx->nv, fx->nc, fx->H, fx->G), 0);
}

/* The spectrum of G (eigenvectors left in fx->Jref's columns): its largest eigenvalue,
 * smallest nonzero one and rank; -1 when the gap between zero and nonzero eigenvalues is
 * not clear (some eigenvalue between 1e-12 and 1e-6 of the largest). */
static int spectrum(fixture *fx, double *gmax, double *gmin)
{
    const int nc = fx->nc;
    double *w = fx->w, *V = fx->Jref;
    int rank = 0, clear = 1;
    ck_assert_int_eq(dense_sym_eigen(fx->G, nc, w, V), 0);
    *gmax = dense_max_abs(w, nc);
    *gmin = *gmax;
    for (int i = 0; i < nc; ++i) {
        if (w[i] > 1e-6 * *gmax) {
            ++rank;
            if (w[i] < *gmin)
                *gmin = w[i];
        } else if (fabs(w[i]) > 1e-12 * *gmax) {
            clear = 0;
        }
    }
    return clear && *gmax > 0 ? rank : -1;
}

/* mu for a converged solve: 1e-2 of the smallest nonzero eigenvalue (each iteration
 * shrinks the error 100-fold; G + mu I keeps a condition <= 1e8 on the states compared). */
static double converging_mu(double gmin)
{
    return gmin > 0 ? 1e-2 * gmin : 1e-6;
}

/* ||b's component in G's null space|| (eigenvectors in fx->Jref from spectrum). */
static double null_part(fixture *fx, const double *b, double gmax)
{
    const int nc = fx->nc;
    double s = 0;
    for (int e = 0; e < nc; ++e) {
        double c = 0;
        if (fx->w[e] > 1e-6 * gmax)
            continue;
        for (int i = 0; i < nc; ++i)
            c += fx->Jref[i * nc + e] * b[i];
        s += c * c;
    }
    return sqrt(s);
}

/* M ddq + nle - tau - J^T lambda, relative to its terms. */
static void check_motion_equation(fixture *fx, const double *ddq, const double *lambda,
                                  const char *solve, int state)
{
    const int nv = fx->nv, nc = fx->nc;
    double *r = fx->x, *t = fx->y;
    ck_assert_int_eq(cdyn_nle(fx->m, &fx->d, fx->q, fx->v, r), CDYN_OK);
    const double scale = 1 + dense_max_abs(r, nv) + dense_max_abs(fx->tau, nv) +
                         dense_max_abs(fx->M, nv * nv) * dense_max_abs(ddq, nv) +
                         dense_max_abs(fx->J, nc * nv) * dense_max_abs(lambda, nc);
    dense_mul(fx->M, nv, nv, ddq, t);
    for (int k = 0; k < nv; ++k)
        r[k] += t[k] - fx->tau[k];
    dense_mul_t(fx->J, nc, nv, lambda, t);
    for (int k = 0; k < nv; ++k)
        r[k] -= t[k];
    const double e = dense_max_abs(r, nv);
    ck_assert_msg(e <= ALG_TOL * scale,
                  "%s state %d %s: |M ddq + nle - tau - J^T lambda| = %.3g"
                  " (scale %.3g)",
                  fx->what, state, solve, e, scale);
}

/* Converged proxLTL against the dense minimum-norm solution; returns 1 if compared.
 * ddq and J^T lambda always; lambda when the set is consistent (b in G's range): for an
 * inconsistent set lambda's null-space part grows by b_null / mu every iteration while
 * ddq converges to the least-squares acceleration, as the proximal method should. */
static int check_against_dense(fixture *fx, int state)
{
    const int nv = fx->nv, nc = fx->nc;
    double gmax, gmin;
    dense_delassus(fx);
    const int rank = spectrum(fx, &gmax, &gmin);
    cdyn_prox_settings st = prox_settings(converging_mu(gmin), 60);
    const int it =
        cdyn_prox_ltl(fx->m, &fx->d, &fx->cd, &st, fx->q, fx->v, fx->tau, fx->ddq, fx->lambda);
    ck_assert_msg(it == 60, "%s state %d: prox_ltl returned %d", fx->what, state, it);
    check_motion_equation(fx, fx->ddq, fx->lambda, "prox_ltl", state);
    if (rank < 0 || gmax > 1e6 * gmin)
        return 0;
    /* b = -gamma - J M^-1 (tau - nle), lambda* = G^+ b, ddq* = M^-1 (tau - nle) + W lambda* */
    double *f = fx->x, *b = fx->y, *lam = fx->w + nc, *ddq = lam + nc, *gamma = ddq + nv;
    double *jtl = gamma + nc, *jtl_ref = jtl + nv;
    ck_assert_int_eq(cdyn_nle(fx->m, &fx->d, fx->q, fx->v, f), CDYN_OK);
    for (int k = 0; k < nv; ++k)
        f[k] = fx->tau[k] - f[k];
    ck_assert_int_eq(dense_cholesky_solve(fx->M, nv, f, 1), 0);
    ck_assert_int_eq(cdyn_constraint_drift(fx->m, &fx->d, &fx->cd, fx->q, fx->v, gamma), CDYN_OK);
    dense_mul(fx->J, nc, nv, f, b);
    for (int i = 0; i < nc; ++i)
        b[i] = -gamma[i] - b[i];
    ck_assert_int_eq(dense_minnorm_solve(fx->G, nc, b, lam, 1e-9), rank);
    dense_mul(fx->H, nv, nc, lam, ddq);
    for (int k = 0; k < nv; ++k)
        ddq[k] += f[k];
    assert_vec_close(fx->ddq, ddq, nv, DENSE_TOL, "%s state %d ddq (rank %d of %d)", fx->what,
                     state, rank, nc);
    dense_mul_t(fx->J, nc, nv, fx->lambda, jtl);
    dense_mul_t(fx->J, nc, nv, lam, jtl_ref);
    assert_vec_close(jtl, jtl_ref, nv, DENSE_TOL, "%s state %d J^T lambda (rank %d of %d)",
                     fx->what, state, rank, nc);
    if (null_part(fx, b, gmax) <= 1e-12 * (1 + dense_max_abs(b, nc)))
        assert_vec_close(fx->lambda, lam, nc, DENSE_TOL, "%s state %d lambda (rank %d of %d)",
                         fx->what, state, rank, nc);
    if (rank == nc) { /* the constraints hold: J ddq + gamma = 0 */
        dense_mul(fx->J, nc, nv, fx->ddq, b);
        for (int i = 0; i < nc; ++i)
            b[i] += gamma[i];
        const double scale =
            1 + dense_max_abs(gamma, nc) + dense_max_abs(fx->J, nc * nv) * dense_max_abs(ddq, nv);
        ck_assert_msg(dense_max_abs(b, nc) <= HOLD_TOL * scale,
                      "%s state %d: |J ddq + gamma| = %.3g", fx->what, state, dense_max_abs(b, nc));
    }
    return 1;
}

/* delassus = J M^-1 J^T + mu I (dense_delassus' G). */
static void check_delassus(fixture *fx, int state)
{
    const int nc = fx->nc;
    const double mu = 1e-3;
    dense_delassus(fx);
    for (int i = 0; i < nc; ++i)
        fx->G[i * nc + i] += mu;
    ck_assert_int_eq(cdyn_delassus(fx->m, &fx->d, &fx->cd, fx->q, mu, fx->Jref), CDYN_OK);
    assert_vec_close(fx->Jref, fx->G, nc * nc, ALG_TOL, "%s state %d delassus", fx->what, state);
}

/* Impact with restitution e: momentum, J v+ = -e J v- (full rank), energy not increased. */
static void check_impulse(fixture *fx, int state, double e)
{
    const int nv = fx->nv, nc = fx->nc;
    double gmax, gmin, *vplus = fx->ddq, *p = fx->lambda, *r = fx->x, *t = fx->y;
    dense_delassus(fx);
    const int rank = spectrum(fx, &gmax, &gmin);
    cdyn_prox_settings st = prox_settings(converging_mu(gmin), 60);
    ck_assert_int_eq(cdyn_impulse(fx->m, &fx->d, &fx->cd, &st, fx->q, fx->v, e, vplus, p), 60);
    for (int k = 0; k < nv; ++k)
        t[k] = vplus[k] - fx->v[k];
    dense_mul(fx->M, nv, nv, t, r);
    dense_mul_t(fx->J, nc, nv, p, t);
    const double scale =
        1 + dense_max_abs(fx->M, nv * nv) * (dense_max_abs(vplus, nv) + dense_max_abs(fx->v, nv)) +
        dense_max_abs(fx->J, nc * nv) * dense_max_abs(p, nc);
    ck_assert_msg(dense_max_diff(r, t, nv) <= ALG_TOL * scale,
                  "%s state %d: M dv != J^T impulse (%.3g)", fx->what, state,
                  dense_max_diff(r, t, nv));
    dense_mul(fx->M, nv, nv, fx->v, r);
    dense_mul(fx->M, nv, nv, vplus, t);
    double before = 0, after = 0;
    for (int k = 0; k < nv; ++k) {
        before += fx->v[k] * r[k];
        after += vplus[k] * t[k];
    }
    ck_assert_msg(after <= before * (1 + ALG_TOL) + ALG_TOL, "%s state %d: energy %.17g -> %.17g",
                  fx->what, state, before, after);
    if (rank != nc || gmax > 1e6 * gmin)
        return;
    dense_mul(fx->J, nc, nv, vplus, r);
    dense_mul(fx->J, nc, nv, fx->v, t);
    for (int i = 0; i < nc; ++i)
        r[i] += e * t[i];
    ck_assert_msg(dense_max_abs(r, nc) <= HOLD_TOL * (1 + dense_max_abs(t, nc)),
                  "%s state %d: |J v+ + e J v-| = %.3g", fx->what, state, dense_max_abs(r, nc));
}

/* From a converged lambda, a warm start meets a tolerance a cold start needs many
 * iterations for (well-posed full-rank sets: otherwise lambda need not converge). */
static void check_warm_start(fixture *fx, int state)
{
    double gmax, gmin;
    dense_delassus(fx);
    if (spectrum(fx, &gmax, &gmin) != fx->nc || gmax > 1e6 * gmin)
        return;
    cdyn_prox_settings st = prox_settings(converging_mu(gmin), 60);
    ck_assert_int_eq(
        cdyn_prox_ltl(fx->m, &fx->d, &fx->cd, &st, fx->q, fx->v, fx->tau, fx->ddq, fx->lambda), 60);
    st.max_iter = 100;
    st.rel_tol = 1e-9 * (1 + dense_max_abs(fx->lambda, fx->nc));
    const int cold =
        cdyn_prox_ltl(fx->m, &fx->d, &fx->cd, &st, fx->q, fx->v, fx->tau, fx->ddq, fx->lambda);
    ck_assert_msg(cold > 1 && cold < 100, "%s state %d: cold start took %d", fx->what, state, cold);
    st.warm_start = 1;
    const int warm =
        cdyn_prox_ltl(fx->m, &fx->d, &fx->cd, &st, fx->q, fx->v, fx->tau, fx->ddq, fx->lambda);
    ck_assert_msg(warm == 1, "%s state %d: warm start took %d (cold %d)", fx->what, state, warm,
                  cold);
    cdyn_real primal, dual;
    cdyn_constraint_residuals(&fx->cd, &primal, &dual);
    ck_assert(dual <= st.rel_tol && primal == st.mu * dual);
}

/* Baumgarte: with gains and a reference, the converged J ddq + gamma equals
 * a* = -Kp e - Kd J v, e computed here from the frame placements (full-rank sets only). */
static void check_baumgarte(fixture *fx, int state)
{
    const int nv = fx->nv, nc = fx->nc;
    double gmax, gmin, Kp[MAXCON + 2], Kd[MAXCON + 2];
    dense_delassus(fx);
    if (spectrum(fx, &gmax, &gmin) != nc || gmax > 1e6 * gmin)
        return;
    const double Rref[9] = { 0, -1, 0, 1, 0, 0, 0, 0, 1 }, pref[3] = { 0.1, -0.2, 0.3 };
    for (int k = 0; k < fx->n; ++k) {
        Kp[k] = 100 + 10 * k;
        Kd[k] = 20 + k;
        ck_assert_int_eq(cdyn_constraint_set_reference(&fx->cd, k, Rref, pref), CDYN_OK);
    }
    cdyn_prox_settings st = prox_settings(converging_mu(gmin), 60);
    st.Kp = Kp;
    st.Kd = Kd;
    ck_assert_int_eq(
        cdyn_prox_ltl(fx->m, &fx->d, &fx->cd, &st, fx->q, fx->v, fx->tau, fx->ddq, fx->lambda), 60);
    double *lhs = fx->x, *gamma = fx->y, *jv = fx->w;
    ck_assert_int_eq(cdyn_constraint_drift(fx->m, &fx->d, &fx->cd, fx->q, fx->v, gamma), CDYN_OK);
    dense_mul(fx->J, nc, nv, fx->ddq, lhs);
    dense_mul(fx->J, nc, nv, fx->v, jv);
    for (int k = 0, row = 0; k < fx->n; row += fx->set[k].dim, ++k) {
        const cdyn_constraint *c = &fx->set[k];
        double RA[9], pA[3], RB[9], pB[3], d[3], e[6], Re[9], astar[6];
        frame_world(fx, fx->q, c->frame_a, fx->H, RA, pA);
        if (c->frame_b >= 0) {
            frame_world(fx, fx->q, c->frame_b, fx->H, RB, pB);
        } else {
            memcpy(RB, Rref, sizeof RB);
            memcpy(pB, pref, sizeof pB);
        }
        for (int r = 0; r < 3; ++r)
            d[r] = pA[r] - pB[r];
        rot_t_apply(e, RA, d);
        for (int r = 0; r < 3; ++r) /* R_e = R_B^T R_A */
            for (int q = 0; q < 3; ++q)
                Re[3 * r + q] = RB[r] * RA[q] + RB[3 + r] * RA[3 + q] + RB[6 + r] * RA[6 + q];
        e[3] = 0.5 * (Re[7] - Re[5]);
        e[4] = 0.5 * (Re[2] - Re[6]);
        e[5] = 0.5 * (Re[3] - Re[1]);
        for (int r = 0; r < c->dim; ++r) {
            astar[r] = -Kp[k] * e[r] - Kd[k] * jv[row + r];
            lhs[row + r] += gamma[row + r];
        }
        const double scale = 1 + dense_max_abs(astar, c->dim) + dense_max_abs(gamma + row, c->dim) +
                             dense_max_abs(fx->J, nc * nv) * dense_max_abs(fx->ddq, nv);
        ck_assert_msg(dense_max_diff(lhs + row, astar, c->dim) <= HOLD_TOL * scale,
                      "%s state %d constraint %d: |J ddq + gamma - a*| = %.3g", fx->what, state, k,
                      dense_max_diff(lhs + row, astar, c->dim));
    }
}

static void run_all(fixture *fx, uint64_t seed, int *compared, int *total)
{
    xorshift64s g = { 0x9E3779B97F4A7C15ull ^ (seed * 0x100000001B3ull) };
    for (int s = 0; s < NSTATES; ++s) {
        random_state(fx->m, &g, fx->q, fx->v, fx->tau, fx->w);
        check_kinematics(fx, &g, s);
        *compared += check_against_dense(fx, s);
        ++*total;
        check_delassus(fx, s);
        check_impulse(fx, s, s % 2 ? 0.5 : 0.0);
        if (s == 0)
            check_warm_start(fx, s);
        if (s == 1)
            check_baumgarte(fx, s);
    }
}

/* Sets on the sample robots, redundant and degenerate ones among them. */
static const sample_set sample_sets[] = {
    { "arm7.urdf", "arm7 tool 6d", 0, 1, { { "tool", NULL, 6 } } },
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
      "quadruped12 four feet 3d + lf_foot 6d",
      1,
      5,
      { { "lf_foot", NULL, 3 },
        { "rf_foot", NULL, 3 },
        { "lh_foot", NULL, 3 },
        { "rh_foot", NULL, 3 },
        { "lf_foot", NULL, 6 } } },
    { "humanoid.urdf",
      "humanoid left_sole 6d twice + right_sole 6d",
      1,
      3,
      { { "left_sole", NULL, 6 }, { "left_sole", NULL, 6 }, { "right_sole", NULL, 6 } } },
    { "humanoid.urdf",
      "humanoid hands held together 6d, feet 6d",
      1,
      3,
      { { "left_hand", "right_hand", 6 }, { "left_sole", NULL, 6 }, { "right_sole", NULL, 6 } } },
    { "fourbar.urdf", "fourbar loop 3d", 0, 1, { { "coupler_tip", "rocker_tip", 3 } } },
    { "fourbar.urdf", "fourbar loop 6d", 0, 1, { { "coupler_tip", "rocker_tip", 6 } } },
};
#define NSAMPLES ((int)(sizeof sample_sets / sizeof sample_sets[0]))

static int sample_compared, sample_total;

START_TEST(test_sample_sets)
{
    const sample_set *s = &sample_sets[_i];
    model_table mt;
    cdyn_constraint set[SAMPLE_SET_MAX];
    fixture fx;
    load_sample(s->file, s->floating, &mt);
    fixture_open(&fx, &mt.model, s->what, set, sample_set_constraints(s, &mt.model, set));
    run_all(&fx, (uint64_t)_i, &sample_compared, &sample_total);
    fixture_close(&fx);
    model_table_free(&mt);
}
END_TEST

static int random_compared, random_total;

/* A random set on a random robot: 1 to MAXCON constraints on frames of moving bodies, a
 * third of them loops (to another body's frame or a world-fixed one), 3d or 6d. */
START_TEST(test_random_sets)
{
    const unsigned seed = (unsigned)_i;
    char what[96];
    random_model r;
    cdyn_constraint set[MAXCON + 2];
    fixture fx;
    xorshift64s g = { 0xD1B54A32D192ED03ull + seed };
    random_model_open(&r, seed);
    const int n = random_constraint_set(&r.mt.model, &g, MAXCON, 1, set);
    snprintf(what, sizeof what, "seed %u (nv %d, %d constraints)", seed, r.mt.model.nv, n);
    fixture_open(&fx, &r.mt.model, what, set, n);
    run_all(&fx, seed, &random_compared, &random_total);
    fixture_close(&fx);
    random_model_close(&r);
}
END_TEST

/* The comparisons against the dense solution must not all be skipped as ill-posed. */
START_TEST(test_coverage)
{
    ck_assert_int_eq(sample_total, NSAMPLES * NSTATES);
    ck_assert_int_eq(random_total, NSEEDS * NSTATES);
    ck_assert_msg(2 * sample_compared >= sample_total, "sample sets: %d of %d compared",
                  sample_compared, sample_total);
    ck_assert_msg(2 * random_compared >= random_total, "random sets: %d of %d compared",
                  random_compared, random_total);
    printf("dense comparisons: sample sets %d of %d states, random sets %d of %d\n",
           sample_compared, sample_total, random_compared, random_total);
}
END_TEST

/* ---- the API refuses what it cannot do ---- */

START_TEST(test_bad_input)
{
    model_table mt, other;
    load_sample("arm7.urdf", 0, &mt);
    load_sample("fourbar.urdf", 0, &other);
    const cdyn_model *m = &mt.model;
    const int tool = frame_named(m, "tool"), base = frame_named(m, "base");
    const int link3 = frame_named(m, "link3"), link3b = frame_named(m, "link2");
    const cdyn_constraint good[1] = { { tool, -1, 6, 0 } };
    const cdyn_constraint bad[][1] = {
        { { m->nframes, -1, 3, 0 } }, { { -1, -1, 3, 0 } },   { { tool, m->nframes, 3, 0 } },
        { { tool, -2, 3, 0 } },       { { tool, -1, 4, 0 } }, { { base, -1, 3, 0 } },
        { { tool, tool, 6, 0 } },
    };
    (void)link3;
    (void)link3b;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k)
        ck_assert_msg(cdyn_constraint_data_size(m, bad[k], 1) == 0, "bad set %zu accepted", k);
    ck_assert_uint_eq(cdyn_constraint_data_size(m, good, 0), 0);
    ck_assert_uint_eq(cdyn_constraint_data_size(NULL, good, 1), 0);
    ck_assert_uint_eq(cdyn_constraint_data_size(m, NULL, 1), 0);
    /* a contact on a world-fixed frame moves nothing; a loop from it to a moving one does */
    const cdyn_constraint to_world[1] = { { base, tool, 3, 0 } };
    ck_assert_uint_gt(cdyn_constraint_data_size(m, to_world, 1), 0);

    const size_t bytes = cdyn_constraint_data_size(m, good, 1);
    ck_assert_uint_eq(bytes, CDYN_CONSTRAINT_DATA_BYTES(m->nv, 1, 6));
    unsigned char *raw = malloc(bytes + 64);
    cdyn_constraint_data cd;
    ck_assert_ptr_nonnull(raw);
    memset(raw, 0xA5, bytes + 64);
    ck_assert_int_eq(cdyn_constraint_data_init(&cd, m, good, 1, raw + 1, bytes - 1), CDYN_E_SIZE);
    ck_assert_int_eq(cdyn_constraint_data_init(&cd, m, bad[0], 1, raw + 1, bytes), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_constraint_data_init(NULL, m, good, 1, raw + 1, bytes), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_constraint_data_init(&cd, m, good, 1, raw + 1, bytes), CDYN_OK);
    for (size_t k = bytes + 1; k < bytes + 64; ++k) /* misaligned, and nothing written past */
        ck_assert_msg(raw[k] == 0xA5, "byte %zu past the workspace written", k - 1);
    ck_assert_int_eq(raw[0], 0xA5);

    const size_t dbytes = cdyn_data_size(m);
    void *dbuf = malloc(dbytes);
    cdyn_data d;
    ck_assert_int_eq(cdyn_data_init(&d, m, dbuf, dbytes), CDYN_OK);
    double q[16], v[16], tau[16], out[16 + 6 + 8], R[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 },
                                                   p[3] = { 0 };
    cdyn_prox_settings st = prox_settings(1e-6, 3);
    ck_assert_int_eq(cdyn_neutral(m, q), CDYN_OK);
    for (int k = 0; k < m->nv; ++k)
        v[k] = tau[k] = 0.1 * k;
    for (int k = 0; k < 16 + 6 + 8; ++k)
        out[k] = 12345.0;
    double *ddq = out, *lambda = out + m->nv + 4;
    ck_assert_int_eq(cdyn_prox_ltl(m, &d, &cd, &st, q, v, tau, ddq, lambda), 3);
    tau[2] = NAN;
    ck_assert_int_eq(cdyn_prox_ltl(m, &d, &cd, &st, q, v, tau, ddq, lambda), CDYN_E_NONFINITE);
    tau[2] = 0;
    q[0] = NAN;
    ck_assert_int_lt(cdyn_prox_ltl(m, &d, &cd, &st, q, v, tau, ddq, lambda), 0);
    ck_assert_int_lt(cdyn_impulse(m, &d, &cd, &st, q, v, 0, ddq, lambda), 0);
    ck_assert_int_eq(cdyn_neutral(m, q), CDYN_OK);
    for (int k = 0; k < 4; ++k) {
        ck_assert(out[m->nv + k] == 12345.0);
        ck_assert(out[m->nv + 4 + 6 + k] == 12345.0);
    }
    st.mu = 0;
    ck_assert_int_eq(cdyn_prox_ltl(m, &d, &cd, &st, q, v, tau, ddq, lambda), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_impulse(m, &d, &cd, &st, q, v, 0, ddq, lambda), CDYN_E_ARG);
    st.mu = 1e-6;
    st.max_iter = 0;
    ck_assert_int_eq(cdyn_prox_ltl(m, &d, &cd, &st, q, v, tau, ddq, lambda), CDYN_E_ARG);
    st.max_iter = 3;
    ck_assert_int_eq(cdyn_prox_ltl(m, &d, &cd, NULL, q, v, tau, ddq, lambda), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_prox_ltl(m, &d, &cd, &st, q, v, tau, NULL, lambda), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_prox_ltl(&other.model, &d, &cd, &st, q, v, tau, ddq, lambda), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_delassus(m, &d, &cd, q, 0, NULL), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_constraint_jacobian(m, &d, NULL, q, out), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_constraint_set_reference(&cd, 1, R, p), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_constraint_set_reference(&cd, 0, R, p), CDYN_OK);
    ck_assert_int_eq(cdyn_constraint_dim(&cd), 6);
    /* capture: the contact's reference becomes the tool's placement, so e = 0 and with
     * v = 0 Baumgarte asks for nothing: the same result as without gains */
    const double gains[1] = { 50 };
    double ddq0[16], lam0[6];
    for (int k = 0; k < m->nv; ++k)
        v[k] = 0;
    ck_assert_int_eq(cdyn_constraint_capture(m, &d, &cd, q), CDYN_OK);
    ck_assert_int_eq(cdyn_prox_ltl(m, &d, &cd, &st, q, v, tau, ddq0, lam0), 3);
    st.Kp = gains;
    st.Kd = gains;
    ck_assert_int_eq(cdyn_prox_ltl(m, &d, &cd, &st, q, v, tau, ddq, lambda), 3);
    for (int k = 0; k < m->nv; ++k)
        ck_assert(fabs(ddq[k] - ddq0[k]) <= 1e-12 * (1 + fabs(ddq0[k])));
    free(raw);
    free(dbuf);
    model_table_free(&mt);
    model_table_free(&other);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("generic_constrained");
    TCase *tc = tcase_create("all");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_sample_sets, 0, NSAMPLES);
    tcase_add_loop_test(tc, test_random_sets, 0, NSEEDS);
    tcase_add_test(tc, test_coverage);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    /* no fork: test_coverage reads the others' counts */
    return check_run(s, CK_NOFORK) ? EXIT_FAILURE : EXIT_SUCCESS;
}
