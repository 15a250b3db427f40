/* test_generated_constrained.c — the generated constrained dynamics of the reference
 * robots' contact cases (ROBOT__CASE, tests/generated.cmake) against Pinocchio 3.7's
 * contact_CASE.txt, against the generic runtime on the same set, and against a dense
 * J M^-1 J^T + mu I.
 *
 * Tolerances, |x - ref| <= tol (1 + max|ref|) over each quantity (tests/support/compare.h):
 *  - J, gamma: 1e-10. Kinematics only, a few dozen roundings from q, but the tree snaps
 *    rotation entries within 1e-9 of 0 or +-1 (generator/tree.c): the URDFs' printed pi
 *    (iiwa, talos) moves entries by ~4e-12, and J with them by up to 1e-11 (measured);
 *  - three proximal iterations at mu = 1e-6 (ddq_prox3, lambda_prox3): 1e-9. The factor of
 *    G + mu I carries cond(G + mu I) <= max eig(G) / mu into lambda; the reference's own
 *    proxLTL and proxPV agree to 5e-15, and 1e-9 leaves six decades for talos' 1e5 rad/s^2;
 *  - converged ddq, J^T lambda, lambda: 1e-8 (the figure): the reference stopped at
 *    mu = 1e-12 and 1e-12 accuracy; we stop at mu = 1e-8 after 40 iterations, whose
 *    remaining error (mu / (sigma_min + mu))^40 is far below rounding;
 *  - the redundant talos case: lambda is not unique, so only J^T lambda, the sum of the
 *    two left-foot blocks and lambda_prox3 against lambda_minnorm (1e-6 absolute, as the
 *    reference README measures: the null-space component grows by rounding / mu);
 *  - generated against generic: 1e-10, the same arithmetic in another order;
 *  - proxLTLs and constrainedABA (three iterations, against ddq_prox3, lambda_prox3,
 *    ddq_cABA_prox3 and their generic twins): 2e-8. Both factorise M + J^T J / mu, whose
 *    1e6 penalty multiplies rounding by up to cond(M + J^T J / mu) ~ ||J||^2 / (mu
 *    lambda_min(M)), ~1e10 on solo12's light legs; the errors this leaves are 5e-9 at most
 *    over these 28 states (iiwa H6, solo12), as Pinocchio's own constrainedABA is off its
 *    proxLTL by 6e-10 (reference README). proxPV factorises G + mu I as proxLTL: 1e-9;
 *  - every solver converged (mu 1e-4, 100 iterations) against ddq and J^T lambda: 1e-8, and
 *    the equations M ddq + nle - tau - J^T lambda = 0, J ddq + gamma = 0: 1e-9 relative to
 *    the size of their terms;
 *  - delassus against a dense J M^-1 J^T + mu I: 1e-10 (Cholesky of M, cond(M) <= 1e8 on
 *    talos' fingers). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdyn.h"
#include "support/check_main.h"
#include "support/compare.h"
#include "support/dense.h"
#include "generated_api.h"
#include "support/registry.h"
#include "support/reference.h"

#define KIN_TOL 1e-10
#define PROX3_TOL 1e-9
#define PENALTY_PROX3_TOL 2e-8
#define EQUATION_TOL 1e-9
#define CONVERGED_TOL 1e-8
#define MINNORM_ABS 1e-6
#define GENERIC_TOL 1e-10
#define SKIP_RETURN_CODE 77

typedef struct {
    const generated_api *g;
    const cdyn_model *m;
    char robot[64], ref_case[64];
    ref_file *ref;
    void *d;
    cdyn_data gd;
    cdyn_constraint_data cd;
    void *gwork, *cwork;
    double *J, *x, *y, *G, *H, *M;
    int redundant;
} fixture;

static void setup(fixture *fx, int robot)
{
    char path[1024];
    const char *sep;
    size_t bytes, nv, nc;
    memset(fx, 0, sizeof *fx);
    fx->g = generated_robots[robot];
    fx->m = fx->g->model;
    sep = strstr(fx->g->name, "__");
    ck_assert(sep != NULL);
    snprintf(fx->robot, sizeof fx->robot, "%.*s", (int)(sep - fx->g->name), fx->g->name);
    snprintf(fx->ref_case, sizeof fx->ref_case, "%s", sep + 2);
    fx->redundant = strstr(fx->ref_case, "redundant") != NULL;
    snprintf(path, sizeof path, "%s/reference/%s/contact_%s.txt", CDYN_SHARED_DIR, fx->robot,
             fx->ref_case);
    fx->ref = ref_load(path);
    ck_assert_msg(fx->ref != NULL, "cannot read %s", path);
    ck_assert_int_eq(ref_header_int(fx->ref, "constraint_dim", -1), fx->g->nc);
    nv = (size_t)fx->g->nv;
    nc = (size_t)fx->g->nc;
    fx->d = malloc(fx->g->data_size);
    bytes = cdyn_data_size(fx->m);
    fx->gwork = malloc(bytes);
    fx->cwork = malloc(fx->g->generic_constraint_bytes);
    fx->J = malloc(nc * nv * sizeof(double));
    fx->x = malloc((nv + nc) * sizeof(double));
    fx->y = malloc((nv + nc) * sizeof(double));
    fx->G = malloc(nc * nc * sizeof(double));
    fx->H = malloc((nc * nc + nc * nv) * sizeof(double));
    fx->M = malloc(nv * nv * sizeof(double));
    ck_assert(fx->d && fx->gwork && fx->cwork && fx->J && fx->x && fx->y && fx->G && fx->H &&
              fx->M);
    ck_assert_int_eq(cdyn_data_init(&fx->gd, fx->m, fx->gwork, bytes), CDYN_OK);
    ck_assert_uint_eq(cdyn_constraint_data_size(fx->m, fx->g->constraints, fx->g->nconstraints),
                      fx->g->generic_constraint_bytes);
    ck_assert_int_eq(cdyn_constraint_data_init(&fx->cd, fx->m, fx->g->constraints,
                                               fx->g->nconstraints, fx->cwork,
                                               fx->g->generic_constraint_bytes),
                     CDYN_OK);
}

static void teardown(fixture *fx)
{
    ref_free(fx->ref);
    free(fx->d);
    free(fx->gwork);
    free(fx->cwork);
    free(fx->J);
    free(fx->x);
    free(fx->y);
    free(fx->G);
    free(fx->H);
    free(fx->M);
}

static const double *rec(const fixture *fx, int s, const char *name, int n)
{
    const ref_record *r = ref_get(fx->ref, s, name);
    ck_assert_msg(r != NULL, "%s state %d: no record %s", fx->g->name, s, name);
    ck_assert_int_eq(r->rows * r->cols, n);
    return r->v;
}

static cdyn_prox_settings settings(double mu, int iterations)
{
    cdyn_prox_settings s = { 0, 0, 0, 0, NULL, NULL, 0 };
    s.mu = mu;
    s.max_iter = iterations;
    return s;
}

static void check_kinematics(fixture *fx, int s)
{
    const generated_api *g = fx->g;
    int nv = g->nv, nc = g->nc;
    const double *q = rec(fx, s, "q", g->nq), *v = rec(fx, s, "v", nv);
    g->constraint_jacobian(fx->d, q, fx->J);
    assert_vec_close(fx->J, rec(fx, s, "Jc", nc * nv), nc * nv, KIN_TOL, "%s state %d Jc", g->name,
                     s);
    ck_assert_int_eq(cdyn_constraint_jacobian(fx->m, &fx->gd, &fx->cd, q, fx->H), CDYN_OK);
    assert_vec_close(fx->H, fx->J, nc * nv, GENERIC_TOL, "%s state %d Jc generic", g->name, s);
    g->constraint_drift(fx->d, q, v, fx->x);
    assert_vec_close(fx->x, rec(fx, s, "gamma", nc), nc, KIN_TOL, "%s state %d gamma", g->name, s);
    ck_assert_int_eq(cdyn_constraint_drift(fx->m, &fx->gd, &fx->cd, q, v, fx->y), CDYN_OK);
    assert_vec_close(fx->y, fx->x, nc, GENERIC_TOL, "%s state %d gamma generic", g->name, s);
}

static void assert_abs_close(const double *x, const double *ref, int n, double tol,
                             const char *what)
{
    int k;
    for (k = 0; k < n; k++)
        ck_assert_msg(fabs(x[k] - ref[k]) <= tol, "%s[%d]: %.17g vs %.17g (absolute %.3g)", what, k,
                      x[k], ref[k], tol);
}

/* Exactly three iterations from lambda = 0 at mu = 1e-6: Pinocchio's *_prox3. */
static void check_prox3(fixture *fx, int s)
{
    const generated_api *g = fx->g;
    int nv = g->nv, nc = g->nc;
    const double *q = rec(fx, s, "q", g->nq), *v = rec(fx, s, "v", nv);
    const double *tau = rec(fx, s, "tau", nv);
    double *ddq = fx->x, *lambda = fx->x + nv, *gddq = fx->y, *glambda = fx->y + nv;
    cdyn_prox_settings st = settings(1e-6, 3);
    ck_assert_int_eq(g->prox_ltl(fx->d, &st, q, v, tau, ddq, lambda), 3);
    assert_vec_close(ddq, rec(fx, s, "ddq_prox3", nv), nv, PROX3_TOL, "%s state %d ddq_prox3",
                     g->name, s);
    if (fx->redundant)
        assert_abs_close(lambda, rec(fx, s, "lambda_minnorm", nc), nc, MINNORM_ABS,
                         "lambda_prox3 ~ minnorm");
    else
        assert_vec_close(lambda, rec(fx, s, "lambda_prox3", nc), nc, PROX3_TOL,
                         "%s state %d lambda_prox3", g->name, s);
    ck_assert_int_eq(cdyn_prox_ltl(fx->m, &fx->gd, &fx->cd, &st, q, v, tau, gddq, glambda), 3);
    assert_vec_close(gddq, ddq, nv, GENERIC_TOL, "%s state %d ddq_prox3 generic", g->name, s);
    if (!fx->redundant)
        assert_vec_close(glambda, lambda, nc, GENERIC_TOL, "%s state %d lambda generic", g->name,
                         s);
}

typedef int (*solver_fn)(void *d, const cdyn_prox_settings *s, const cdyn_real *q,
                         const cdyn_real *v, const cdyn_real *tau, cdyn_real *ddq,
                         cdyn_real *lambda);

typedef int (*generic_fn)(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                          const cdyn_prox_settings *s, const cdyn_real *q, const cdyn_real *v,
                          const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda);

typedef struct {
    const char *name;
    solver_fn fn;
    generic_fn generic;
    double prox3_tol, generic_tol;
} solver;

static solver solver_of(const char *name, solver_fn fn, generic_fn generic, int penalised)
{
    solver s;
    s.name = name;
    s.fn = fn;
    s.generic = generic;
    s.prox3_tol = penalised ? PENALTY_PROX3_TOL : PROX3_TOL;
    s.generic_tol = penalised ? PENALTY_PROX3_TOL : GENERIC_TOL;
    return s;
}

/* The solvers generated for this set beside prox_ltl. */
static int solvers(const fixture *fx, solver *out)
{
    int n = 0;
    out[n++] = solver_of("prox_ltls", fx->g->prox_ltls, cdyn_prox_ltls, 1);
    if (fx->g->constrained_aba)
        out[n++] = solver_of("constrained_aba", fx->g->constrained_aba, cdyn_constrained_aba, 1);
    if (fx->g->prox_pv)
        out[n++] = solver_of("prox_pv", fx->g->prox_pv, cdyn_prox_pv, 0);
    return n;
}

static double max_abs(const double *x, int n)
{
    double m = 0;
    int k;
    for (k = 0; k < n; k++)
        m = fmax(m, fabs(x[k]));
    return m;
}

/* J^T lambda (nv) into out. */
static void jt_lambda(const fixture *fx, const double *J, const double *lambda, double *out)
{
    int i, k, nv = fx->g->nv;
    for (k = 0; k < nv; k++) {
        out[k] = 0;
        for (i = 0; i < fx->g->nc; i++)
            out[k] += J[i * nv + k] * lambda[i];
    }
}

/* Every other solver, three iterations: ddq_prox3 and lambda_prox3 (constrainedABA also
 * Pinocchio's primed ddq_cABA_prox3), and the same solver of the generic runtime. */
static void check_solvers_prox3(fixture *fx, int s)
{
    const generated_api *g = fx->g;
    int nv = g->nv, nc = g->nc, i, ns;
    const double *q = rec(fx, s, "q", g->nq), *v = rec(fx, s, "v", nv);
    const double *tau = rec(fx, s, "tau", nv);
    double *ddq = fx->x, *lambda = fx->x + nv, *gddq = fx->y, *glambda = fx->y + nv;
    cdyn_prox_settings st = settings(1e-6, 3);
    solver sv[4];
    ns = solvers(fx, sv);
    for (i = 0; i < ns; i++) {
        ck_assert_int_eq(sv[i].fn(fx->d, &st, q, v, tau, ddq, lambda), 3);
        assert_vec_close(ddq, rec(fx, s, "ddq_prox3", nv), nv, sv[i].prox3_tol,
                         "%s state %d %s ddq_prox3", g->name, s, sv[i].name);
        if (sv[i].fn == g->constrained_aba)
            assert_vec_close(ddq, rec(fx, s, "ddq_cABA_prox3", nv), nv, sv[i].prox3_tol,
                             "%s state %d %s ddq_cABA_prox3", g->name, s, sv[i].name);
        if (fx->redundant)
            assert_abs_close(lambda, rec(fx, s, "lambda_minnorm", nc), nc, MINNORM_ABS,
                             "lambda_prox3 ~ minnorm");
        else
            assert_vec_close(lambda, rec(fx, s, "lambda_prox3", nc), nc, sv[i].prox3_tol,
                             "%s state %d %s lambda_prox3", g->name, s, sv[i].name);
        ck_assert_int_eq(sv[i].generic(fx->m, &fx->gd, &fx->cd, &st, q, v, tau, gddq, glambda), 3);
        assert_vec_close(gddq, ddq, nv, sv[i].generic_tol, "%s state %d %s generic", g->name, s,
                         sv[i].name);
    }
}

/* r = M ddq + nle - tau - J^T lambda and J ddq + gamma, densely from the generated crba,
 * nle, constraint_jacobian and constraint_drift. */
static void check_equations(fixture *fx, int s, const double *ddq, const double *lambda,
                            const char *who)
{
    const generated_api *g = fx->g;
    int nv = g->nv, nc = g->nc, i, k;
    const double *q = rec(fx, s, "q", g->nq), *v = rec(fx, s, "v", nv);
    const double *tau = rec(fx, s, "tau", nv);
    double *h = fx->H, *gam = fx->H + nv, *res = fx->H + nv + nc, *zero = fx->H + 2 * nv + 2 * nc;
    double scale = 0;
    g->crba(fx->d, q, fx->M);
    g->nle(fx->d, q, v, h);
    g->constraint_jacobian(fx->d, q, fx->J);
    g->constraint_drift(fx->d, q, v, gam);
    for (k = 0; k < nv; k++) {
        double e = h[k] - tau[k];
        scale = fmax(scale, fabs(h[k]) + fabs(tau[k]));
        for (i = 0; i < nv; i++)
            e += fx->M[k * nv + i] * ddq[i];
        for (i = 0; i < nc; i++)
            e -= fx->J[i * nv + k] * lambda[i];
        res[k] = e;
        zero[k] = 0;
    }
    assert_vec_close(res, zero, nv, EQUATION_TOL * (1 + scale),
                     "%s state %d %s: M ddq + nle - "
                     "tau - J^T lambda",
                     g->name, s, who);
    for (i = 0; i < nc; i++) {
        double e = gam[i];
        for (k = 0; k < nv; k++)
            e += fx->J[i * nv + k] * ddq[k];
        res[i] = e;
    }
    assert_vec_close(res, zero, nc, EQUATION_TOL * (1 + max_abs(ddq, nv)),
                     "%s state %d %s: "
                     "J ddq + gamma",
                     g->name, s, who);
}

/* Converged (mu 1e-4, 100 iterations: the error contracts by mu / (sigma_min(G) + mu) per
 * iteration; the penalised solvers' lambda_k+1 = lambda_k - r / mu carries the rounding of
 * r times 1/mu into lambda, 4e-8 of the equations at mu = 1e-6 on solo12, measured): ddq and J^T lambda against the reference, the equations of motion, and
 * calling again after the workspace was filled with garbage gives the same bits. */
static void check_solvers_converged(fixture *fx, int s)
{
    const generated_api *g = fx->g;
    int nv = g->nv, nc = g->nc, i, ns;
    const double *q = rec(fx, s, "q", g->nq), *v = rec(fx, s, "v", nv);
    const double *tau = rec(fx, s, "tau", nv);
    double *ddq = fx->x, *lambda = fx->x + nv, *again = fx->y;
    cdyn_prox_settings st = settings(1e-4, 100);
    solver sv[4];
    ns = solvers(fx, sv);
    sv[ns].name = "prox_ltl";
    sv[ns++].fn = g->prox_ltl;
    for (i = 0; i < ns; i++) {
        ck_assert_int_eq(sv[i].fn(fx->d, &st, q, v, tau, ddq, lambda), 100);
        assert_vec_close(ddq, rec(fx, s, "ddq", nv), nv, CONVERGED_TOL, "%s state %d %s ddq",
                         g->name, s, sv[i].name);
        g->constraint_jacobian(fx->d, q, fx->J);
        jt_lambda(fx, fx->J, lambda, again);
        assert_vec_close(again, rec(fx, s, "Jt_lambda", nv), nv, CONVERGED_TOL,
                         "%s state %d %s J^T lambda", g->name, s, sv[i].name);
        if (!fx->redundant)
            check_equations(fx, s, ddq, lambda, sv[i].name);
        memset(fx->d, 0xff, g->data_size); /* NaNs everywhere */
        ck_assert_int_eq(sv[i].fn(fx->d, &st, q, v, tau, again, again + nv), 100);
        ck_assert_msg(memcmp(again, ddq, (size_t)(nv + nc) * sizeof *ddq) == 0,
                      "%s state %d %s: a scrambled workspace changed the result", g->name, s,
                      sv[i].name);
    }
}

static void check_converged(fixture *fx, int s)
{
    const generated_api *g = fx->g;
    int nv = g->nv, nc = g->nc, k;
    const double *q = rec(fx, s, "q", g->nq), *v = rec(fx, s, "v", nv);
    const double *tau = rec(fx, s, "tau", nv);
    double *ddq = fx->x, *lambda = fx->x + nv, *jtl = fx->y, primal, dual;
    cdyn_prox_settings st = settings(1e-8, 40);
    ck_assert_int_eq(g->prox_ltl(fx->d, &st, q, v, tau, ddq, lambda), 40);
    assert_vec_close(ddq, rec(fx, s, "ddq", nv), nv, CONVERGED_TOL, "%s state %d ddq", g->name, s);
    g->constraint_jacobian(fx->d, q, fx->J);
    jt_lambda(fx, fx->J, lambda, jtl);
    assert_vec_close(jtl, rec(fx, s, "Jt_lambda", nv), nv, CONVERGED_TOL, "%s state %d J^T lambda",
                     g->name, s);
    if (!fx->redundant) {
        assert_vec_close(lambda, rec(fx, s, "lambda", nc), nc, CONVERGED_TOL, "%s state %d lambda",
                         g->name, s);
    } else { /* rows 0-5 and 6-11 are the same foot: only their sum is defined */
        const double *ref = rec(fx, s, "lambda", nc);
        double sum[6], ref_sum[6];
        for (k = 0; k < 6; k++) {
            sum[k] = lambda[k] + lambda[6 + k];
            ref_sum[k] = ref[k] + ref[6 + k];
        }
        assert_vec_close(sum, ref_sum, 6, CONVERGED_TOL, "%s state %d left-foot sum", g->name, s);
        assert_vec_close(lambda + 12, ref + 12, 6, CONVERGED_TOL, "%s state %d right foot", g->name,
                         s);
    }
    /* the residuals left in d: primal = mu * dual (the identity the solver uses), and the
     * converged iterate's change is at rounding level relative to lambda */
    g->residuals(fx->d, &primal, &dual);
    ck_assert(primal == 1e-8 * dual);
}

/* delassus = J M^-1 J^T + mu I, densely: M from crba, Cholesky solves of J^T. */
static void check_delassus(fixture *fx, int s)
{
    const generated_api *g = fx->g;
    int nv = g->nv, nc = g->nc, i, j, k;
    const double *q = rec(fx, s, "q", g->nq);
    const double mu = 1e-6;
    double *X = fx->H; /* nv x nc: M^-1 J^T */
    ck_assert_int_eq(g->delassus(fx->d, q, mu, fx->G), 0);
    g->crba(fx->d, q, fx->M);
    g->constraint_jacobian(fx->d, q, fx->J);
    for (k = 0; k < nv; k++)
        for (i = 0; i < nc; i++)
            X[k * nc + i] = fx->J[i * nv + k];
    ck_assert_int_eq(dense_cholesky_solve(fx->M, nv, X, nc), 0);
    for (i = 0; i < nc; i++)
        for (j = 0; j < nc; j++) {
            double e = i == j ? mu : 0;
            for (k = 0; k < nv; k++)
                e += fx->J[i * nv + k] * X[k * nc + j];
            fx->H[nv * nc + i * nc + j] = e;
        }
    assert_vec_close(fx->G, fx->H + nv * nc, nc * nc, GENERIC_TOL, "%s state %d delassus", g->name,
                     s);
    ck_assert_int_eq(cdyn_delassus(fx->m, &fx->gd, &fx->cd, q, mu, fx->H), CDYN_OK);
    assert_vec_close(fx->H, fx->G, nc * nc, GENERIC_TOL, "%s state %d delassus generic", g->name,
                     s);
}

/* A NaN in q or tau gives a negative return and writes nothing past the outputs. */
static void check_bad_input(fixture *fx)
{
    const generated_api *g = fx->g;
    int nv = g->nv, nc = g->nc, k, rc;
    double *q = malloc((size_t)g->nq * sizeof *q), *tau = calloc((size_t)nv, sizeof *tau);
    double *out = malloc((size_t)(nv + nc + 8) * sizeof *out);
    cdyn_prox_settings st = settings(1e-6, 3);
    ck_assert(q && tau && out);
    g->neutral(q);
    for (k = 0; k < nv + nc + 8; k++)
        out[k] = 12345.0;
    q[0] = NAN;
    rc = g->prox_ltl(fx->d, &st, q, tau, tau, out, out + nv + 4);
    ck_assert_msg(rc < 0, "%s: NaN in q returned %d", g->name, rc);
    g->neutral(q);
    tau[nv - 1] = NAN;
    rc = g->prox_ltl(fx->d, &st, q, tau, tau, out, out + nv + 4);
    ck_assert_int_eq(rc, CDYN_E_NONFINITE);
    for (k = 0; k < 4; k++) {
        ck_assert(out[nv + k] == 12345.0);
        ck_assert(out[nv + nc + 4 + k] == 12345.0);
    }
    st.mu = 0;
    ck_assert_int_eq(g->prox_ltl(fx->d, &st, q, tau, tau, out, out + nv + 4), CDYN_E_ARG);
    st.mu = 1e-6;
    st.max_iter = 0;
    ck_assert_int_eq(g->prox_ltl(fx->d, &st, q, tau, tau, out, out + nv + 4), CDYN_E_ARG);
    free(q);
    free(tau);
    free(out);
}

START_TEST(generated_constrained_matches_reference)
{
    fixture fx;
    int s;
    setup(&fx, _i);
    ck_assert_int_eq(ref_nstates(fx.ref), 4);
    for (s = 0; s < 4; s++) {
        check_kinematics(&fx, s);
        check_prox3(&fx, s);
        check_solvers_prox3(&fx, s);
        check_solvers_converged(&fx, s);
        check_converged(&fx, s);
        check_delassus(&fx, s);
    }
    check_bad_input(&fx);
    teardown(&fx);
}
END_TEST

int main(void)
{
    const int nrobots = registry_count(generated_robots);
    Suite *s;
    TCase *tc;
    if (nrobots == 0) {
        printf("test_generated_constrained: %s/reference absent at configure time, skipping\n",
               CDYN_SHARED_DIR);
        return SKIP_RETURN_CODE;
    }
    s = suite_create("generated_constrained");
    tc = tcase_create("cases");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, generated_constrained_matches_reference, 0, nrobots);
    suite_add_tcase(s, tc);
    return check_run(s, CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
