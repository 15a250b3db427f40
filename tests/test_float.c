/* test_float.c — the sample robots generated with --scalar float agree with the double
 * generic runtime.
 *
 * Tolerances, relative to each quantity's size (1 + max|x|), in units of float's epsilon
 * (1.19e-7): RNEA and CRBA are sums of products along the tree, whose rounding grows with
 * the number of terms (a few hundred at the humanoid's depth), so 1000 eps (1.2e-4). ABA
 * solves with M: its rounding is further amplified by the pivot growth of the
 * factorisation, max_k M_kk / D_k (measured here in double), so 1000 eps times that. */
#include <check.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include "cdyn.h"
#include "support/check_main.h"
#include "support/compare.h"
#include "model/model_table.h"

#define FORWARD_TOL (1000 * (double)FLT_EPSILON)
#define STATES 10

void arm7_f_in_float(const double *, const double *, const double *, const double *, double *,
                     double *, double *);
void quadruped12_f_in_float(const double *, const double *, const double *, const double *,
                            double *, double *, double *);
void humanoid_f_in_float(const double *, const double *, const double *, const double *, double *,
                         double *, double *);

static const struct {
    const char *urdf;
    int floating;
    void (*in_float)(const double *, const double *, const double *, const double *, double *,
                     double *, double *);
} robots[] = {
    { "arm7.urdf", 0, arm7_f_in_float },
    { "quadruped12.urdf", 1, quadruped12_f_in_float },
    { "humanoid.urdf", 1, humanoid_f_in_float },
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

int main(void)
{
    Suite *s = suite_create("float");
    TCase *tc = tcase_create("samples");
    tcase_add_loop_test(tc, float_agrees_with_double, 0, (int)(sizeof robots / sizeof robots[0]));
    suite_add_tcase(s, tc);
    return check_run(s, CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
