/* test_float.c — the sample robots generated with --scalar float agree with the double
 * generic runtime.
 *
 * Tolerances, relative to each quantity's size (1 + max|x|), in units of float's epsilon
 * (1.19e-7): RNEA and CRBA are sums of products along the tree, whose rounding grows with
 * the number of terms (a few hundred at the humanoid's depth), so 1000 eps (1.2e-4). ABA
 * solves with M: its rounding is further amplified by the pivot growth of the
 * factorisation, max_k M_kk / D_k (measured here in double), so 1000 eps times that.
 *
 * The derivatives (NAME_rnea_derivatives, NAME_aba_derivatives in float against the double
 * cdyn_rnea_derivatives and cdyn_aba_derivatives), bounds set from 6000 random states per
 * robot (four seeds; eps = FLT_EPSILON, errors relative to 1 + max|x| of each matrix):
 *  - dtau/dq, dtau/dv: sums of products along the tree, as RNEA, with no solve: measured
 *    <= 29.5 eps (the humanoid's dtau/dv; arm7 12.1, quadruped 16.3; 99% of states under
 *    12), bound 100 eps (3.4x);
 *  - dddq/dq, dddq/dv = -M^-1 dtau/dq, -M^-1 dtau/dv at a = the float ABA's ddq, and
 *    dddq/dtau = M^-1: solves with M. First-order perturbation theory bounds a solve's
 *    relative error by cond(M) times the relative perturbations of M and of the right-hand
 *    side: cond(M) eps for M^-1 (its right-hand sides, unit vectors, are exact), 2 cond(M)
 *    eps for dddq/dq and dddq/dv, whose right-hand side carries ddq's rounding, itself a
 *    solve with M. cond(M) is the 2-norm condition number (max / min eigenvalue of the
 *    double M), per state. Measured constants: dddq/dq, dddq/dv <= 0.78 (arm7, 493 eps at
 *    cond ~900; quadruped 0.12, humanoid 0.03), so 2.6x under the bound; M^-1 <= 0.016.
 *    The pivot growth max_k M_kk / D_k that bounds ABA above does not bound these: a
 *    humanoid state at growth 40 and cond(M) 2.2e6 had M^-1 off by 1.9e3 eps (47 eps times
 *    the growth), and dddq/dq reaches 1.6e3 eps times the growth. On the humanoid the bound
 *    is loose (cond(M) up to 4e6, its light hands, against errors of 1.2e5 eps at most):
 *    its worst case is not met on these states, and a tighter factor for it alone would be
 *    fitted, not derived. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "cdyn.h"
#include "support/check_main.h"
#include "support/compare.h"
#include "model/model_table.h"
#include "support/dense.h"

#define FORWARD_TOL (1000 * (double)FLT_EPSILON)
#define STATES 10
/* The derivatives (float_derivatives_agree_with_double): see the comment at the top. */
#define RNEA_DERIV_TOL (100 * (double)FLT_EPSILON)
#define ABA_DERIV_TOL (2 * (double)FLT_EPSILON) /* times cond(M) */
#define MINV_TOL ((double)FLT_EPSILON)          /* times cond(M) */
#define DERIV_STATES 50

void arm7_f_in_float(const double *, const double *, const double *, const double *, double *,
                     double *, double *);
void quadruped12_f_in_float(const double *, const double *, const double *, const double *,
                            double *, double *, double *);
void humanoid_f_in_float(const double *, const double *, const double *, const double *, double *,
                         double *, double *);
#define DERIVATIVES_IN_FLOAT(name)                                                                 \
    int name##_derivatives_in_float(const double *, const double *, const double *,                \
                                    const double *, double *, double *, double *, double *,        \
                                    double *);
DERIVATIVES_IN_FLOAT(arm7_f)
DERIVATIVES_IN_FLOAT(quadruped12_f)
DERIVATIVES_IN_FLOAT(humanoid_f)

static const struct {
    const char *urdf;
    int floating;
    void (*in_float)(const double *, const double *, const double *, const double *, double *,
                     double *, double *);
    int (*derivatives_in_float)(const double *, const double *, const double *, const double *,
                                double *, double *, double *, double *, double *);
} robots[] = {
    { "arm7.urdf", 0, arm7_f_in_float, arm7_f_derivatives_in_float },
    { "quadruped12.urdf", 1, quadruped12_f_in_float, quadruped12_f_derivatives_in_float },
    { "humanoid.urdf", 1, humanoid_f_in_float, humanoid_f_derivatives_in_float },
};

static double uniform(unsigned *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return (double)*s / 2147483648.0 - 1.0;
}

/* max_k M_kk / D_k of the LTDL factor: how much the solve amplifies rounding. */
static double pivot_growth(const cdyn_model *m, cdyn_data *d, const double *M, double *D)
{
    double g = 1;
    int k, nv = m->nv;
    ck_assert_int_eq(cdyn_ltl(m, d), CDYN_OK);
    ck_assert_int_eq(cdyn_ltl_factor(m, d, NULL, D), CDYN_OK);
    for (k = 0; k < nv; k++)
        if (M[k * nv + k] / D[k] > g)
            g = M[k * nv + k] / D[k];
    return g;
}

START_TEST(float_agrees_with_double)
{
    char path[1024], err[1024];
    model_table mt;
    cdyn_data d;
    void *work;
    double *buf, *q0, *q, *dq, *v, *a, *tau, *x, *M, *xf, *Mf;
    unsigned seed = 12345u + (unsigned)_i;
    int s, k, nq, nv;
    snprintf(path, sizeof path, "%s/robots/%s", CDYN_SOURCE_DIR, robots[_i].urdf);
    ck_assert_msg(model_table_load(path, robots[_i].floating, &mt, err, sizeof err) == 0, "%s",
                  err);
    nq = mt.model.nq;
    nv = mt.model.nv;
    work = malloc(cdyn_data_size(&mt.model));
    buf = malloc((size_t)(2 * nq + 6 * nv + 2 * nv * nv) * sizeof *buf);
    ck_assert(work && buf);
    ck_assert_int_eq(cdyn_data_init(&d, &mt.model, work, cdyn_data_size(&mt.model)), CDYN_OK);
    q0 = buf, q = q0 + nq, dq = q + nq, v = dq + nv, a = v + nv, tau = a + nv, x = tau + nv;
    xf = x + nv, M = xf + nv, Mf = M + nv * nv;
    cdyn_neutral(&mt.model, q0);
    for (s = 0; s < STATES; s++) {
        double growth;
        for (k = 0; k < nv; k++) {
            dq[k] = 2 * uniform(&seed);
            v[k] = uniform(&seed);
            a[k] = uniform(&seed);
            tau[k] = uniform(&seed);
        }
        cdyn_integrate(&mt.model, q0, dq, 1.0, q);
        robots[_i].in_float(q, v, a, tau, x, Mf, xf); /* x <- rnea, Mf <- M, xf <- aba */
        cdyn_rnea(&mt.model, &d, q, v, a, dq);
        assert_vec_close(x, dq, nv, FORWARD_TOL, "%s state %d rnea", robots[_i].urdf, s);
        cdyn_crba(&mt.model, &d, q, M);
        assert_vec_close(Mf, M, nv * nv, FORWARD_TOL, "%s state %d crba", robots[_i].urdf, s);
        growth = pivot_growth(&mt.model, &d, M, x);
        cdyn_aba(&mt.model, &d, q, v, tau, dq);
        assert_vec_close(xf, dq, nv, FORWARD_TOL * growth, "%s state %d aba (growth %.3g)",
                         robots[_i].urdf, s, growth);
    }
    free(work);
    free(buf);
    model_table_free(&mt);
}
END_TEST

static double rel_err(const double *x, const double *ref, int n)
{
    double scale = 0, err = 0;
    int k;
    for (k = 0; k < n; k++) {
        double e = fabs(x[k] - ref[k]);
        if (e != e)
            e = INFINITY;
        if (fabs(ref[k]) > scale)
            scale = fabs(ref[k]);
        if (e > err)
            err = e;
    }
    return err / (1 + scale);
}

/* 2-norm condition number of the symmetric positive definite M: max / min eigenvalue. */
static double condition(const double *M, int nv, double *w, double *V)
{
    double lo = INFINITY, hi = 0;
    int k;
    ck_assert_int_eq(dense_sym_eigen(M, nv, w, V), 0);
    for (k = 0; k < nv; k++) {
        lo = w[k] < lo ? w[k] : lo;
        hi = w[k] > hi ? w[k] : hi;
    }
    ck_assert(lo > 0);
    return hi / lo;
}

START_TEST(float_derivatives_agree_with_double)
{
    static const char *const names[5] = { "rnea_dq", "rnea_dv", "aba_dq", "aba_dv", "aba_dtau" };
    char path[1024], err[1024];
    model_table mt;
    cdyn_data d;
    void *work;
    double *q0, *q, *dq, *v, *a, *tau, *D, *M, *w, *V, *F[5], *G[5];
    double worst[5] = { 0 }, gmax = 0, cmax = 0;
    unsigned seed = 777u + 31u * (unsigned)_i;
    int s, k, nq, nv, nn;
    snprintf(path, sizeof path, "%s/robots/%s", CDYN_SOURCE_DIR, robots[_i].urdf);
    ck_assert_msg(model_table_load(path, robots[_i].floating, &mt, err, sizeof err) == 0, "%s",
                  err);
    nq = mt.model.nq;
    nv = mt.model.nv;
    nn = nv * nv;
    work = malloc(cdyn_data_size(&mt.model));
    q0 = malloc((size_t)(2 * nq + 6 * nv + 12 * nn) * sizeof *q0);
    ck_assert(work && q0);
    ck_assert_int_eq(cdyn_data_init(&d, &mt.model, work, cdyn_data_size(&mt.model)), CDYN_OK);
    q = q0 + nq, dq = q + nq, v = dq + nv, a = v + nv, tau = a + nv, D = tau + nv, w = D + nv;
    M = w + nv, V = M + nn;
    for (k = 0; k < 5; k++) {
        F[k] = V + nn + (size_t)k * (size_t)nn;
        G[k] = F[k] + 5 * (size_t)nn;
    }
    cdyn_neutral(&mt.model, q0);
    for (s = 0; s < DERIV_STATES; s++) {
        double growth, cond, tol[5];
        for (k = 0; k < nv; k++) {
            dq[k] = 2 * uniform(&seed);
            v[k] = uniform(&seed);
            a[k] = uniform(&seed);
            tau[k] = uniform(&seed);
        }
        cdyn_integrate(&mt.model, q0, dq, 1.0, q);
        ck_assert_int_eq(
            robots[_i].derivatives_in_float(q, v, a, tau, F[0], F[1], F[2], F[3], F[4]), 0);
        ck_assert_int_eq(cdyn_rnea_derivatives(&mt.model, &d, q, v, a, G[0], G[1]), CDYN_OK);
        ck_assert_int_eq(cdyn_aba_derivatives(&mt.model, &d, q, v, tau, G[2], G[3], G[4]),
                         CDYN_OK);
        ck_assert_int_eq(cdyn_crba(&mt.model, &d, q, M), CDYN_OK);
        growth = pivot_growth(&mt.model, &d, M, D);
        cond = condition(M, nv, w, V);
        gmax = growth > gmax ? growth : gmax;
        cmax = cond > cmax ? cond : cmax;
        tol[0] = tol[1] = RNEA_DERIV_TOL;
        tol[2] = tol[3] = ABA_DERIV_TOL * cond;
        tol[4] = MINV_TOL * cond;
        for (k = 0; k < 5; k++) {
            const double e = rel_err(F[k], G[k], nn);
            worst[k] = e / (double)FLT_EPSILON > worst[k] ? e / (double)FLT_EPSILON : worst[k];
            assert_vec_close(F[k], G[k], nn, tol[k], "%s state %d %s (pivot growth %.3g, cond(M) %.3g)",
                             robots[_i].urdf, s, names[k], growth, cond);
        }
    }
    fprintf(stderr,
            "%s: float derivatives, worst |x - ref| / (1 + max|ref|) in FLT_EPSILON over %d "
            "states: rnea_dq %.3g rnea_dv %.3g aba_dq %.3g aba_dv %.3g aba_dtau %.3g (pivot growth "
            "<= %.3g, cond(M) <= %.3g)\n",
            robots[_i].urdf, DERIV_STATES, worst[0], worst[1], worst[2], worst[3], worst[4], gmax,
            cmax);
    free(work);
    free(q0);
    model_table_free(&mt);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("float");
    TCase *tc = tcase_create("samples");
    tcase_add_loop_test(tc, float_agrees_with_double, 0, (int)(sizeof robots / sizeof robots[0]));
    tcase_add_loop_test(tc, float_derivatives_agree_with_double, 0,
                        (int)(sizeof robots / sizeof robots[0]));
    suite_add_tcase(s, tc);
    return check_run(s, CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
