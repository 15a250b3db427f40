/* test_generic_derivatives.c — the analytical derivatives of the generic runtime
 * (cdyn_rnea_derivatives, cdyn_aba_derivatives, cdyn_prox_ltl_derivatives: runtime/cdyn.h,
 * "derivatives") checked five ways:
 *
 *  1. against Pinocchio 3.7 (CDYN_SHARED_DIR/reference/<robot>/derivatives.txt, the six
 *     robots, four states): rnea_dq, rnea_dv at (q, v, a), aba_dq, aba_dv, aba_dtau at
 *     (q, v, tau), each robot built from its URDF (model_table_load, free-flyer root where
 *     test_generic_reference uses one) and from model.txt alone (so a parser/tree error and
 *     a runtime error fail in different test cases);
 *  2. against Pinocchio's computeConstraintDynamicsDerivatives (derivatives_<case>.txt, the
 *     non-redundant contact cases): the set of contact_<case>.txt (contacts on frames, 3d/6d,
 *     LOCAL), cdyn_prox_ltl at Pinocchio's ProximalSettings(1e-12, 1e-12, mu 1e-12, 200),
 *     then cdyn_prox_ltl_derivatives with the same settings: ddq, lambda and the six
 *     matrices. On a mismatch, central differences of cdyn_prox_ltl (or cdyn_rnea/cdyn_aba)
 *     say which side is right, in the failure message;
 *  3. against central differences of the runtime's own cdyn_rnea, cdyn_aba and converged
 *     cdyn_prox_ltl, q moved in the tangent space (q_e = cdyn_integrate(q, e u_k, 1)), on
 *     40 seeded random robots and the three big ones (free-flyer roots and mid-tree
 *     floating joints, revolute joints on skewed axes, continuous [cos, sin] joints,
 *     prismatic and planar joints: test_coverage asserts each was met) and the four sample
 *     robots, with random contact sets (3d and 6d, no loops, no gains);
 *  4. identities needing no reference: aba_dtau = cdyn_minv; aba_dq = -M^-1 rnea_dq and
 *     aba_dv = -M^-1 rnea_dv at a = ABA(q, v, tau), M^-1 applied by a dense Cholesky of
 *     cdyn_crba's M; the constrained ddq_dtau = M^-1 - W G^-1 W^T and lambda_dtau =
 *     -G^-1 W^T (W = M^-1 J^T, G = J W, dense); the RNEA derivatives' structural zeros
 *     (entry (k, j) exactly 0 unless k and j are on one branch of model->dof_parent), every
 *     entry written (outputs are filled with NaN before each call);
 *  5. bad input: NULL model, data or input, mismatched data, NaN inputs, loops and
 *     Baumgarte gains refused, NULL outputs allowed, and a singular set (the same 6d
 *     contact twice), whose ddq derivatives must equal the set's without the duplicate.
 *
 * Tolerances, max|x - ref| <= tol (1 + max|ref|) per matrix (the README's advice, talos
 * reaches 1e5 rad/s^2):
 *  - Pinocchio: 1e-9, the bound. The inputs round-trip exactly; the URDF-built
 *    models differ from Pinocchio's by up to 2e-11 (snapped right angles,
 *    test_generic_reference), the model.txt ones by rounding only;
 *  - central differences: FD_TOL = 1e-7. The differences are central and Richardson-
 *    extrapolated, (4 D(h) - D(2h)) / 3 with D(h) = (f(x + h) - f(x - h)) / 2h: error
 *    h^4 |f^(5)| / 30 (truncation) + ~1.5 delta / h (delta the rounding noise of one
 *    evaluation). Plain central differences at h = 1e-6 were tried first and do not reach
 *    1e-7: delta is not eps |f| but up to ~cond(M) eps |f| for ABA and the constrained solve,
 *    and the random robots reach cond(M) ~ 5e6 with |ddq| ~ 7e4 while the derivatives are
 *    ~1e3, so delta / h alone was 3.6e-5 relative (seed 11, aba_dv; the error fell as 1/h,
 *    4e-7 at h = 1e-4: noise, not a wrong derivative). Light links at 1e5 rad/s^2 (the
 *    humanoid's hands) have the opposite problem: |f^(5)| is large and h = 1e-3 truncates at
 *    3e-7. No single step fits both, so each matrix is compared at the steps
 *    h = 3e-3, 1e-3, 3e-4, 1e-4 and must agree within FD_TOL at one of them (fd_best); a
 *    wrong derivative disagrees at every step (checked by perturbing the runtime's outputs by
 *    1e-6 relative in one entry: caught). Measured, at the best step: RNEA 1e-12, ABA 1e-8,
 *    proxLTL 7e-9 (sample robots) and 3e-8 (random robots); each matrix off was traced to
 *    FD noise or truncation by a table over h before this scheme was chosen. q moves in the
 *    tangent space: q_e = cdyn_integrate(q, e u_k, 1). FD_TOL_EXTREME = 1e-6 for the few
 *    "extreme" random seeds (masses over six decades, cond(M) up to 2e8, random_robot.h:
 *    measured 4e-7). Contact sets are used only when cond(G) = max/min eigenvalue of the
 *    dense J M^-1 J^T <= COND_G_MAX (1e6): the rest (rank-deficient sets, e.g. a 6d contact
 *    supported by fewer than 6 DoFs or two contacts on one rigid chain, and near-singular
 *    ones, whose lambda is not or barely defined) are skipped and counted; test_coverage
 *    asserts enough were used. The differences run proxLTL with tolerances 0 and
 *    FD_PROX_ITER iterations, so that no stopping test can switch between x + h and x - h;
 *    at mu = 1e-12 an iteration contracts the error by mu / (mu + sigma_min(G)), tiny on
 *    the sets used, so that is converged to rounding;
 *  - identities: 1e-10 (IDENT_TOL) relative to 1 + max|x|, 1e-8 on extreme seeds: M^-1 by
 *    the sparse factor or a dense Cholesky differ by ~cond(M) eps (measured 4.5e-9 on an
 *    extreme seed, below 1e-10 elsewhere); the dense constrained ones also by cond(G) eps,
 *    hence IDENT_TOL (1 + 1e-6 cond(G)) there (check_constrained_identities);
 *  - the duplicated contact: 1e-9 (measured 5e-13: the duplicate's rows of J are bitwise
 *    those of the original, so lambda's null-space part cancels exactly in J^T lambda);
 *  - structural zeros: exactly 0. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdyn.h"
#include "model/model_table.h"
#include "support/check_main.h"
#include "support/constraint_sets.h"
#include "support/dense.h"
#include "support/models.h"
#include "support/random_robot.h"
#include "support/reference.h"
#include "support/rng.h"

#define REF_DIR CDYN_SHARED_DIR "/reference"
#define SKIP_RETURN_CODE 77

#define REF_TOL 1e-9
#define FD_TOL 1e-7
#define FD_TOL_EXTREME 1e-6
#define IDENT_TOL 1e-10
#define IDENT_TOL_EXTREME 1e-8
#define COND_G_MAX 1e6
#define FD_PROX_ITER 20
#define NSEEDS 40
#define MAXCON 4
#define SET_TRIES 12

static const unsigned random_seeds_big[] = { RANDOM_ROBOT_BIG_FIRST, RANDOM_ROBOT_BIG_FIRST + 1,
                                             RANDOM_ROBOT_BIG_FIRST + 2 };
#define NRANDOM (NSEEDS + (int)(sizeof random_seeds_big / sizeof random_seeds_big[0]))

static unsigned random_seed_at(int i)
{
    return i < NSEEDS ? (unsigned)i : random_seeds_big[i - NSEEDS];
}

/* ---- small helpers ------------------------------------------------------------------------ */

/* Failures of the comparisons, collected so that one test case reports every matrix that is
 * off (the first FAIL_SHOWN in full), then fails at its end (failures_flush). */
#define FAIL_SHOWN 4
static char fail_text[FAIL_SHOWN * 640];
static int fail_count;

static void note_failure(const char *fmt, ...)
{
    va_list ap;
    const size_t len = strlen(fail_text);
    if (fail_count++ < FAIL_SHOWN && len < sizeof fail_text) {
        va_start(ap, fmt);
        vsnprintf(fail_text + len, sizeof fail_text - len, fmt, ap);
        va_end(ap);
        const size_t l2 = strlen(fail_text);
        snprintf(fail_text + l2, sizeof fail_text - l2, "\n    ");
    }
}

static void failures_reset(void)
{
    fail_text[0] = 0;
    fail_count = 0;
}

static void failures_flush(void)
{
    const int n = fail_count;
    fail_count = 0;
    ck_assert_msg(n == 0, "%d comparison(s) failed:\n    %s", n, fail_text);
}

static double *dalloc(size_t n)
{
    double *p = calloc(n ? n : 1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    return p;
}

static void fill_nan(double *x, size_t n)
{
    for (size_t k = 0; k < n; ++k)
        x[k] = NAN;
}

/* max|x - ref| / (1 + max|ref|) over n values; a NaN counts as infinite. *at: the worst. */
static double rel_err(const double *x, const double *ref, int n, int *at)
{
    double scale = 0, err = 0;
    int w = 0;
    for (int k = 0; k < n; ++k) {
        double e = fabs(x[k] - ref[k]);
        if (e != e)
            e = INFINITY;
        if (fabs(ref[k]) > scale)
            scale = fabs(ref[k]);
        if (e > err) {
            err = e;
            w = k;
        }
    }
    if (at)
        *at = w;
    return err / (1 + scale);
}

static int all_finite(const double *x, int n)
{
    for (int k = 0; k < n; ++k)
        if (!isfinite(x[k]))
            return 0;
    return 1;
}

/* Where a rows x cols matrix is off: the rows and columns holding an entry with
 * |x - ref| > tol (1 + max|ref|), as "rows {..} cols {..}" (the first 12 of each). */
static void describe_pattern(const double *x, const double *ref, int rows, int cols, double tol,
                             char *out, size_t size)
{
    double scale = 0;
    for (int k = 0; k < rows * cols; ++k)
        if (fabs(ref[k]) > scale)
            scale = fabs(ref[k]);
    const double lim = tol * (1 + scale);
    size_t len = (size_t)snprintf(out, size, "rows {");
    for (int pass = 0; pass < 2; ++pass) {
        int shown = 0, count = 0;
        const int n = pass ? cols : rows;
        for (int i = 0; i < n; ++i) {
            int bad = 0;
            for (int j = 0; j < (pass ? rows : cols) && !bad; ++j) {
                const int k = pass ? j * cols + i : i * cols + j;
                bad = !(fabs(x[k] - ref[k]) <= lim);
            }
            if (!bad)
                continue;
            ++count;
            if (shown++ < 12 && len < size)
                len += (size_t)snprintf(out + len, size - len, "%s%d", shown > 1 ? " " : "", i);
        }
        if (len < size)
            len += (size_t)snprintf(out + len, size - len, "%s} (%d of %d)%s",
                                    shown > 12 ? " ..." : "", count, n, pass ? "" : ", cols {");
    }
}

/* A model's workspace. */
typedef struct {
    const cdyn_model *m;
    cdyn_data d;
    void *buf;
} workspace;

static void workspace_open(workspace *w, const cdyn_model *m)
{
    const size_t bytes = cdyn_data_size(m);
    ck_assert_uint_gt(bytes, 0);
    w->m = m;
    w->buf = malloc(bytes);
    ck_assert_ptr_nonnull(w->buf);
    ck_assert_int_eq(cdyn_data_init(&w->d, m, w->buf, bytes), CDYN_OK);
}

static void workspace_close(workspace *w)
{
    free(w->buf);
}

/* A constraint set's workspace. */
typedef struct {
    cdyn_constraint set[2 * MAXCON];
    int n, nc;
    cdyn_constraint_data cd;
    void *buf;
} constraint_ws;

static void constraint_ws_open(constraint_ws *c, const cdyn_model *m, const cdyn_constraint *set,
                               int n)
{
    memcpy(c->set, set, (size_t)n * sizeof *set);
    c->n = n;
    const size_t bytes = cdyn_constraint_data_size(m, c->set, n);
    ck_assert_uint_gt(bytes, 0);
    c->buf = malloc(bytes);
    ck_assert_ptr_nonnull(c->buf);
    ck_assert_int_eq(cdyn_constraint_data_init(&c->cd, m, c->set, n, c->buf, bytes), CDYN_OK);
    c->nc = cdyn_constraint_dim(&c->cd);
}

static void constraint_ws_close(constraint_ws *c)
{
    free(c->buf);
}

static cdyn_prox_settings pinocchio_settings(void)
{
    /* ProximalSettings(absolute 1e-12, relative 1e-12, mu 1e-12, max_iter 200) */
    cdyn_prox_settings s = { 1e-12, 200, 1e-12, 1e-12, NULL, NULL, 0 };
    return s;
}

/* The converged solve the differences and the random sets use: no stopping test. */
static cdyn_prox_settings fixed_settings(void)
{
    return prox_settings(1e-12, FD_PROX_ITER);
}

/* ---- central differences of the runtime's own functions ------------------------------------ */

enum { F_RNEA, F_ABA, F_PROX };
enum { WRT_Q, WRT_V, WRT_U };

typedef struct {
    int kind;
    const cdyn_model *m;
    cdyn_data *d;
    cdyn_constraint_data *cd; /* F_PROX */
    int nc;
} fd_fn;

/* f(q, v, u): rnea(q, v, a = u), aba(q, v, tau = u) or [ddq; lambda] of a converged
 * proxLTL (fixed iterations from lambda_0 = 0). */
static void fd_eval(const fd_fn *f, const double *q, const double *v, const double *u, double *out)
{
    if (f->kind == F_RNEA) {
        ck_assert_int_eq(cdyn_rnea(f->m, f->d, q, v, u, out), CDYN_OK);
    } else if (f->kind == F_ABA) {
        ck_assert_int_eq(cdyn_aba(f->m, f->d, q, v, u, out), CDYN_OK);
    } else {
        const cdyn_prox_settings st = fixed_settings();
        const int it = cdyn_prox_ltl(f->m, f->d, f->cd, &st, q, v, u, out, out + f->m->nv);
        ck_assert_msg(it == FD_PROX_ITER, "prox_ltl for differences returned %d", it);
    }
}

/* f at q (+) e u_k (tangent space), v + e u_k or u + e u_k. */
static void fd_point(const fd_fn *f, int wrt, int k, double e, const double *q, const double *v,
                     const double *u, double *qe, double *ve, double *ue, double *step, double *out)
{
    const cdyn_model *m = f->m;
    const int nv = m->nv;
    memcpy(ve, v, sizeof *ve * (size_t)nv);
    memcpy(ue, u, sizeof *ue * (size_t)nv);
    if (wrt == WRT_Q) {
        memset(step, 0, sizeof *step * (size_t)nv);
        step[k] = e;
        ck_assert_int_eq(cdyn_integrate(m, q, step, 1.0, qe), CDYN_OK);
    } else {
        memcpy(qe, q, sizeof *qe * (size_t)m->nq);
        if (wrt == WRT_V)
            ve[k] += e;
        else
            ue[k] += e;
    }
    fd_eval(f, qe, ve, ue, out);
}

/* Jac (nout x nv, row-major): central differences of f with respect to q (in the tangent
 * space), v or u, Richardson-extrapolated: (4 D(h) - D(2h)) / 3 with D(h) = (f(+h) -
 * f(-h)) / 2h, which cancels D's h^2 term: error h^4 |f^(5)| / 30 + ~1.5 delta / h. */
static void fd_jacobian(const fd_fn *f, int wrt, const double *q, const double *v, const double *u,
                        double h, double *Jac)
{
    const cdyn_model *m = f->m;
    const int nv = m->nv, nout = nv + (f->kind == F_PROX ? f->nc : 0);
    double *qe = dalloc((size_t)m->nq), *ve = dalloc((size_t)nv), *ue = dalloc((size_t)nv);
    double *step = dalloc((size_t)nv), *fp = dalloc((size_t)nout), *fm = dalloc((size_t)nout);
    double *gp = dalloc((size_t)nout), *gm = dalloc((size_t)nout);
    for (int k = 0; k < nv; ++k) {
        fd_point(f, wrt, k, h, q, v, u, qe, ve, ue, step, fp);
        fd_point(f, wrt, k, -h, q, v, u, qe, ve, ue, step, fm);
        fd_point(f, wrt, k, 2 * h, q, v, u, qe, ve, ue, step, gp);
        fd_point(f, wrt, k, -2 * h, q, v, u, qe, ve, ue, step, gm);
        for (int r = 0; r < nout; ++r)
            Jac[r * nv + k] = (4 * (fp[r] - fm[r]) / (2 * h) - (gp[r] - gm[r]) / (4 * h)) / 3;
    }
    free(qe);
    free(ve);
    free(ue);
    free(step);
    free(fp);
    free(fm);
    free(gp);
    free(gm);
}

/* The step ladder: a derivative agrees with the differences when it does at one step. */
static const double fd_steps[] = { 3e-3, 1e-3, 3e-4, 1e-4 };
#define NSTEPS ((int)(sizeof fd_steps / sizeof fd_steps[0]))

/* For each of the nparts matrices X[p] (rows[p] x nv, rows off[p].. of f's outputs): the
 * smallest rel_err against fd_jacobian over the ladder (err[p]), its step (h[p]) and those
 * differences (best[p], rows[p] x nv). */
static void fd_best(const fd_fn *f, int wrt, const double *q, const double *v, const double *u,
                    int nparts, double *const *X, const int *rows, const int *off, double *err,
                    double *h, double **best)
{
    const int nv = f->m->nv, nout = nv + (f->kind == F_PROX ? f->nc : 0);
    double *F = dalloc((size_t)nout * (size_t)nv);
    for (int p = 0; p < nparts; ++p)
        err[p] = INFINITY;
    for (int s = 0; s < NSTEPS; ++s) {
        fd_jacobian(f, wrt, q, v, u, fd_steps[s], F);
        for (int p = 0; p < nparts; ++p) {
            const double e = rel_err(X[p], F + off[p] * nv, rows[p] * nv, NULL);
            if (e < err[p] || s == 0) {
                err[p] = e;
                h[p] = fd_steps[s];
                memcpy(best[p], F + off[p] * nv, sizeof *F * (size_t)(rows[p] * nv));
            }
        }
    }
    free(F);
}

/* ---- structural zeros ------------------------------------------------------------------------ */

/* 1 if DoF a is DoF b or one of its ancestors (model->dof_parent). */
static int dof_ancestor(const cdyn_model *m, int a, int b)
{
    for (int k = b; k >= 0; k = m->dof_parent[k])
        if (k == a)
            return 1;
    return 0;
}

static long zeros_checked, zeros_robots;

/* Entry (k, j) of an RNEA derivative is exactly 0 unless k and j are on one branch. */
static void check_structural_zeros(const cdyn_model *m, const double *X, const char *what,
                                   const char *name)
{
    const int nv = m->nv;
    long count = 0;
    for (int k = 0; k < nv; ++k)
        for (int j = 0; j < nv; ++j) {
            if (dof_ancestor(m, k, j) || dof_ancestor(m, j, k))
                continue;
            ++count;
            ck_assert_msg(X[k * nv + j] == 0,
                          "%s: %s[%d][%d] = %.17g, but DoFs %d and %d are on different branches",
                          what, name, k, j, X[k * nv + j], k, j);
        }
    zeros_checked += count;
    zeros_robots += count > 0;
}

/* ---- identities -------------------------------------------------------------------------- */

static double worst_ident;
static char worst_ident_where[200];

static void assert_rel(const double *x, const double *ref, int n, double tol, const char *what,
                       const char *name, double *worst)
{
    int at;
    const double e = rel_err(x, ref, n, &at);
    if (worst && e > *worst) {
        *worst = e;
        snprintf(worst_ident_where, sizeof worst_ident_where, "%s: %s", what, name);
    }
    if (!(e <= tol))
        note_failure("%s: %s: |x - ref| / (1 + max|ref|) = %.3g at [%d] (x %.17g, ref %.17g), "
                     "tolerance %.3g",
                     what, name, e, at, x[at], ref[at], tol);
}

/* aba_dtau = cdyn_minv; aba_dq = -M^-1 rnea_dq and aba_dv = -M^-1 rnea_dv at a = ABA(q, v,
 * tau), M^-1 by a dense Cholesky of cdyn_crba's M. Also: what the derivatives leave in d
 * (M for rnea, M and its factor for aba) is what cdyn_crba and cdyn_ltl give. */
static void check_identities(workspace *w, const char *what, const double *q, const double *v,
                             const double *tau, double tol)
{
    const cdyn_model *m = w->m;
    const int nv = m->nv, nn = nv * nv;
    double *Adq = dalloc((size_t)nn), *Adv = dalloc((size_t)nn), *Adt = dalloc((size_t)nn);
    double *Rdq = dalloc((size_t)nn), *Rdv = dalloc((size_t)nn), *Minv = dalloc((size_t)nn);
    double *M = dalloc((size_t)nn), *ddq = dalloc((size_t)nv), *x = dalloc((size_t)nv);
    double *y = dalloc((size_t)nv);
    ck_assert_int_eq(cdyn_aba(m, &w->d, q, v, tau, ddq), CDYN_OK);
    ck_assert_int_eq(cdyn_crba(m, &w->d, q, M), CDYN_OK);
    ck_assert_int_eq(cdyn_minv(m, &w->d, q, Minv), CDYN_OK);

    fill_nan(Adq, (size_t)nn);
    fill_nan(Adv, (size_t)nn);
    fill_nan(Adt, (size_t)nn);
    ck_assert_int_eq(cdyn_aba_derivatives(m, &w->d, q, v, tau, Adq, Adv, Adt), CDYN_OK);
    /* the factor left in d: M^-1 b by it equals the dense solve */
    for (int k = 0; k < nv; ++k)
        x[k] = y[k] = tau[k] - 0.5 * k;
    ck_assert_int_eq(cdyn_ltl_solve(m, &w->d, x), CDYN_OK);
    ck_assert_int_eq(dense_cholesky_solve(M, nv, y, 1), 0);
    assert_rel(x, y, nv, tol, what, "cdyn_ltl_solve after cdyn_aba_derivatives", &worst_ident);
    assert_rel(Adt, Minv, nn, tol, what, "aba_dtau vs cdyn_minv", &worst_ident);

    fill_nan(Rdq, (size_t)nn);
    fill_nan(Rdv, (size_t)nn);
    ck_assert_int_eq(cdyn_rnea_derivatives(m, &w->d, q, v, ddq, Rdq, Rdv), CDYN_OK);
    assert_rel(w->d.M, M, nn, 1e-13, what, "d->M after cdyn_rnea_derivatives vs cdyn_crba", NULL);
    for (int k = 0; k < nn; ++k) {
        Rdq[k] = -Rdq[k];
        Rdv[k] = -Rdv[k];
    }
    ck_assert_int_eq(dense_cholesky_solve(M, nv, Rdq, nv), 0);
    ck_assert_int_eq(dense_cholesky_solve(M, nv, Rdv, nv), 0);
    assert_rel(Adq, Rdq, nn, tol, what, "aba_dq vs -M^-1 rnea_dq(a = aba)", &worst_ident);
    assert_rel(Adv, Rdv, nn, tol, what, "aba_dv vs -M^-1 rnea_dv(a = aba)", &worst_ident);
    free(Adq);
    free(Adv);
    free(Adt);
    free(Rdq);
    free(Rdv);
    free(Minv);
    free(M);
    free(ddq);
    free(x);
    free(y);
}

/* ---- unconstrained derivatives against central differences ----------------------------------- */

typedef struct {
    double rnea, aba, prox; /* worst relative errors against the differences */
    double cond_g;          /* largest cond(G) of a set used */
    char where[3][160];     /* where they were met */
} fd_worst;

static fd_worst fd_random, fd_extreme, fd_sample;

static void check_fd_unconstrained(workspace *w, const char *what, const double *q, const double *v,
                                   const double *tau, const double *a, double tol, fd_worst *worst)
{
    const cdyn_model *m = w->m;
    const int nv = m->nv, nn = nv * nv;
    double *X[5], *F = dalloc((size_t)nn);
    const char *names[5] = { "rnea_dq", "rnea_dv", "aba_dq", "aba_dv", "aba_dtau" };
    for (int k = 0; k < 5; ++k) {
        X[k] = dalloc((size_t)nn);
        fill_nan(X[k], (size_t)nn);
    }
    ck_assert_int_eq(cdyn_rnea_derivatives(m, &w->d, q, v, a, X[0], X[1]), CDYN_OK);
    ck_assert_int_eq(cdyn_aba_derivatives(m, &w->d, q, v, tau, X[2], X[3], X[4]), CDYN_OK);
    check_structural_zeros(m, X[0], what, "rnea_dq");
    check_structural_zeros(m, X[1], what, "rnea_dv");
    for (int k = 0; k < 5; ++k) {
        const fd_fn f = { k < 2 ? F_RNEA : F_ABA, m, &w->d, NULL, 0 };
        const int wrt = k < 2 ? k : k - 2, rows = nv, off = 0;
        char pattern[256];
        int at;
        double e, h;
        fd_best(&f, wrt, q, v, k < 2 ? a : tau, 1, &X[k], &rows, &off, &e, &h, &F);
        rel_err(X[k], F, nn, &at);
        double *slot = k < 2 ? &worst->rnea : &worst->aba;
        if (e > *slot) {
            *slot = e;
            snprintf(worst->where[k < 2 ? 0 : 1], sizeof worst->where[0], "%s %s", what, names[k]);
        }
        if (!(e <= tol)) {
            describe_pattern(X[k], F, nv, nv, tol, pattern, sizeof pattern);
            note_failure("%s: %s against central differences: %.3g at (%d, %d) (x %.17g, fd "
                         "%.17g, best step %.0e), tolerance %.3g; off in %s",
                         what, names[k], e, at / nv, at % nv, X[k][at], F[at], h, tol, pattern);
        }
    }
    for (int k = 0; k < 5; ++k)
        free(X[k]);
    free(F);
}

/* ---- constrained derivatives against central differences and dense identities --------------- */

/* Dense G = J M^-1 J^T's condition number (max / min eigenvalue; infinite when singular),
 * with M, J (nc x nv), W = M^-1 J^T (nv x nc) and G (nc x nc) left in the buffers. */
static double delassus_cond(workspace *w, constraint_ws *c, const double *q, double *M, double *J,
                            double *W, double *G)
{
    const int nv = w->m->nv, nc = c->nc;
    double *ev = dalloc((size_t)nc), *V = dalloc((size_t)nc * (size_t)nc);
    ck_assert_int_eq(cdyn_crba(w->m, &w->d, q, M), CDYN_OK);
    ck_assert_int_eq(cdyn_constraint_jacobian(w->m, &w->d, &c->cd, q, J), CDYN_OK);
    ck_assert_int_eq(dense_jminvjt(M, J, nv, nc, W, G), 0);
    double *Gc = dalloc((size_t)nc * (size_t)nc);
    memcpy(Gc, G, sizeof *Gc * (size_t)nc * (size_t)nc);
    ck_assert_int_eq(dense_sym_eigen(Gc, nc, ev, V), 0);
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < nc; ++i) {
        lo = ev[i] < lo ? ev[i] : lo;
        hi = ev[i] > hi ? ev[i] : hi;
    }
    free(ev);
    free(V);
    free(Gc);
    return lo > 0 ? hi / lo : INFINITY;
}

/* ddq_dtau = M^-1 - W G^-1 W^T and lambda_dtau = -G^-1 W^T (lambda = -G^-1 (J M^-1 (tau -
 * nle) + gamma)), dense; rounding is cond(G) eps of the terms at most, so the tolerance
 * is IDENT_TOL (1 + cond(G) 1e-6) (1e-10 at cond 1, 1e-4 at the largest accepted 1e6 would
 * be far too loose: cond(G) enters through G^-1 only, hence the factor 1e-6). */
static void check_constrained_identities(workspace *w, constraint_ws *c, const char *what,
                                         const double *M, const double *W, const double *G,
                                         double cond, const double *ddq_dtau,
                                         const double *lambda_dtau, double tol)
{
    const int nv = w->m->nv, nc = c->nc;
    double *GiWt = dalloc((size_t)nc * (size_t)nv), *Minv = dalloc((size_t)nv * (size_t)nv);
    double *ref = dalloc((size_t)nv * (size_t)nv);
    for (int i = 0; i < nc; ++i) /* W^T */
        for (int k = 0; k < nv; ++k)
            GiWt[i * nv + k] = W[k * nc + i];
    ck_assert_int_eq(dense_cholesky_solve(G, nc, GiWt, nv), 0);
    for (int k = 0; k < nv * nv; ++k)
        Minv[k] = (k / nv) == (k % nv);
    ck_assert_int_eq(dense_cholesky_solve(M, nv, Minv, nv), 0);
    for (int r = 0; r < nv; ++r)
        for (int k = 0; k < nv; ++k) {
            double s = Minv[r * nv + k];
            for (int i = 0; i < nc; ++i)
                s -= W[r * nc + i] * GiWt[i * nv + k];
            ref[r * nv + k] = s;
        }
    const double t = tol * (1 + 1e-6 * cond);
    assert_rel(ddq_dtau, ref, nv * nv, t, what, "ddq_dtau vs M^-1 - W G^-1 W^T (dense)",
               &worst_ident);
    for (int k = 0; k < nc * nv; ++k)
        GiWt[k] = -GiWt[k];
    assert_rel(lambda_dtau, GiWt, nc * nv, t, what, "lambda_dtau vs -G^-1 W^T (dense)",
               &worst_ident);
    free(GiWt);
    free(Minv);
    free(ref);
}

static int sets_checked, sets_skipped, sets_3d, sets_6d;

/* The six constrained derivatives at (q, v, tau) on c's set against central differences of
 * the fixed-iteration proxLTL, and the dense identities. Returns 0 (skipped, not checked)
 * when cond(G) > COND_G_MAX. */
static int check_fd_constrained(workspace *w, constraint_ws *c, const char *what, const double *q,
                                const double *v, const double *tau, double tol, fd_worst *worst)
{
    const cdyn_model *m = w->m;
    const int nv = m->nv, nc = c->nc, nn = nv * nv;
    double *M = dalloc((size_t)nn), *J = dalloc((size_t)nc * (size_t)nv);
    double *W = dalloc((size_t)nc * (size_t)nv), *G = dalloc((size_t)nc * (size_t)nc);
    const double cond = delassus_cond(w, c, q, M, J, W, G);
    if (!(cond <= COND_G_MAX)) {
        ++sets_skipped;
        free(M);
        free(J);
        free(W);
        free(G);
        return 0;
    }
    if (cond > worst->cond_g)
        worst->cond_g = cond;
    ++sets_checked;
    for (int k = 0; k < c->n; ++k) {
        sets_3d += c->set[k].dim == 3;
        sets_6d += c->set[k].dim == 6;
    }
    const cdyn_prox_settings st = pinocchio_settings();
    double *ddq = dalloc((size_t)nv), *lambda = dalloc((size_t)nc), *X[6];
    double *F = dalloc((size_t)(nv + nc) * (size_t)nv);
    const char *names[6] = {
        "ddq_dq", "ddq_dv", "ddq_dtau", "lambda_dq", "lambda_dv", "lambda_dtau"
    };
    for (int k = 0; k < 6; ++k) {
        X[k] = dalloc((size_t)(k < 3 ? nv : nc) * (size_t)nv);
        fill_nan(X[k], (size_t)(k < 3 ? nv : nc) * (size_t)nv);
    }
    const int it = cdyn_prox_ltl(m, &w->d, &c->cd, &st, q, v, tau, ddq, lambda);
    ck_assert_msg(it >= 1, "%s: cdyn_prox_ltl returned %d", what, it);
    ck_assert_int_eq(cdyn_prox_ltl_derivatives(m, &w->d, &c->cd, &st, q, v, ddq, lambda, X[0], X[1],
                                               X[2], X[3], X[4], X[5]),
                     CDYN_OK);
    check_constrained_identities(w, c, what, M, W, G, cond, X[2], X[5],
                                 tol > FD_TOL ? IDENT_TOL_EXTREME : IDENT_TOL);
    const fd_fn f = { F_PROX, m, &w->d, &c->cd, nc };
    for (int wrt = 0; wrt < 3; ++wrt) {
        double *Xp[2] = { X[wrt], X[3 + wrt] }, *Fb[2] = { F, F + nn }, err[2], h[2];
        const int rows[2] = { nv, nc }, off[2] = { 0, nv };
        fd_best(&f, wrt, q, v, tau, 2, Xp, rows, off, err, h, Fb);
        for (int part = 0; part < 2; ++part) {
            const int k = part * 3 + wrt;
            char pattern[256];
            int at;
            rel_err(X[k], Fb[part], rows[part] * nv, &at);
            if (err[part] > worst->prox) {
                worst->prox = err[part];
                snprintf(worst->where[2], sizeof worst->where[2], "%s %s", what, names[k]);
            }
            if (!(err[part] <= tol)) {
                describe_pattern(X[k], Fb[part], rows[part], nv, tol, pattern, sizeof pattern);
                note_failure("%s (cond(G) %.3g): %s against central differences: %.3g at (%d, "
                             "%d) (x %.17g, fd %.17g, best step %.0e), tolerance %.3g; off in %s",
                             what, cond, names[k], err[part], at / nv, at % nv, X[k][at],
                             Fb[part][at], h[part], tol, pattern);
            }
        }
    }
    for (int k = 0; k < 6; ++k)
        free(X[k]);
    free(F);
    free(ddq);
    free(lambda);
    free(M);
    free(J);
    free(W);
    free(G);
    return 1;
}

/* ---- joint-type coverage ----------------------------------------------------------------- */

static int type_seen[5], skewed_revolute, midtree_floating;

static void count_joints(const cdyn_model *m)
{
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        if ((int)b->type >= 0 && (int)b->type < 5)
            ++type_seen[b->type];
        if (b->type == CDYN_JOINT_REVOLUTE || b->type == CDYN_JOINT_REVOLUTE_UNBOUNDED) {
            int nonzero = 0;
            for (int k = 0; k < 3; ++k)
                nonzero += b->axis[k] != 0;
            skewed_revolute += nonzero > 1;
        }
        if ((b->type == CDYN_JOINT_FREEFLYER || b->type == CDYN_JOINT_PLANAR) && b->parent >= 0)
            ++midtree_floating;
    }
}

/* ---- 3. random robots --------------------------------------------------------------------- */

/* One random state, the unconstrained checks and identities; then random contact sets
 * (no loops) until one is well conditioned (at most SET_TRIES draws). */
static void run_robot(const cdyn_model *m, const char *what, uint64_t seed, int extreme,
                      int contacts, fd_worst *worst)
{
    const int nv = m->nv;
    const double tol = extreme ? FD_TOL_EXTREME : FD_TOL;
    workspace w;
    xorshift64s g = { 0x9E3779B97F4A7C15ull ^ (seed * 0x100000001B3ull) };
    double *q = dalloc((size_t)m->nq), *v = dalloc((size_t)nv), *tau = dalloc((size_t)nv);
    double *a = dalloc((size_t)nv), *step = dalloc((size_t)nv);
    workspace_open(&w, m);
    count_joints(m);
    random_state(m, &g, q, v, tau, step);
    xorshift64s_vector(&g, a, nv, 1.0);
    check_fd_unconstrained(&w, what, q, v, tau, a, tol, worst);
    check_identities(&w, what, q, v, tau, extreme ? IDENT_TOL_EXTREME : IDENT_TOL);
    for (int t = 0; contacts && t < SET_TRIES; ++t) {
        cdyn_constraint set[MAXCON];
        constraint_ws c;
        char name[160];
        const int n = random_constraint_set(m, &g, MAXCON, 0, set);
        constraint_ws_open(&c, m, set, n);
        snprintf(name, sizeof name, "%s, random set %d (%d contacts, %d rows)", what, t, n, c.nc);
        const int used = check_fd_constrained(&w, &c, name, q, v, tau, tol, worst);
        constraint_ws_close(&c);
        if (used)
            break;
    }
    workspace_close(&w);
    free(q);
    free(v);
    free(tau);
    free(a);
    free(step);
}

static int random_robots_run;

START_TEST(test_random_robots)
{
    const unsigned seed = random_seed_at(_i);
    const int extreme = random_robot_is_extreme(seed) == 1;
    random_model r;
    char what[96];
    failures_reset();
    random_model_open(&r, seed);
    snprintf(what, sizeof what, "random seed %u (nv %d%s)", seed, r.mt.model.nv,
             extreme ? ", extreme" : "");
    run_robot(&r.mt.model, what, seed, extreme, 1, extreme ? &fd_extreme : &fd_random);
    ++random_robots_run;
    random_model_close(&r);
    failures_flush();
}
END_TEST

/* ---- the sample robots: the unconstrained checks and named contact sets ------------------- */

static const struct {
    const char *file;
    int floating;
} samples[] = {
    { "arm7.urdf", 0 },
    { "quadruped12.urdf", 1 },
    { "humanoid.urdf", 1 },
    { "fourbar.urdf", 0 },
};
#define NSAMPLE_ROBOTS ((int)(sizeof samples / sizeof samples[0]))

static const sample_set contact_sets[] = {
    { "arm7.urdf", "arm7 tool 6d", 0, 1, { { "tool", NULL, 6 } } },
    { "arm7.urdf", "arm7 tool 3d", 0, 1, { { "tool", NULL, 3 } } },
    { "quadruped12.urdf",
      "quadruped12 four feet 3d",
      1,
      4,
      { { "lf_foot", NULL, 3 },
        { "rf_foot", NULL, 3 },
        { "lh_foot", NULL, 3 },
        { "rh_foot", NULL, 3 } } },
    { "quadruped12.urdf",
      "quadruped12 lf_foot 6d + rh_foot 3d",
      1,
      2,
      { { "lf_foot", NULL, 6 }, { "rh_foot", NULL, 3 } } },
    { "humanoid.urdf",
      "humanoid soles 6d",
      1,
      2,
      { { "left_sole", NULL, 6 }, { "right_sole", NULL, 6 } } },
    { "humanoid.urdf",
      "humanoid soles 6d, left hand 6d, right hand 3d",
      1,
      4,
      { { "left_sole", NULL, 6 },
        { "right_sole", NULL, 6 },
        { "left_hand", NULL, 6 },
        { "right_hand", NULL, 3 } } },
};
#define NCONTACT_SETS ((int)(sizeof contact_sets / sizeof contact_sets[0]))

START_TEST(test_sample_robots)
{
    model_table mt;
    char what[96];
    failures_reset();
    load_sample(samples[_i].file, samples[_i].floating, &mt);
    snprintf(what, sizeof what, "sample %s", samples[_i].file);
    for (uint64_t s = 0; s < 3; ++s)
        run_robot(&mt.model, what, 100 + 7 * (uint64_t)_i + s, 0, 0, &fd_sample);
    model_table_free(&mt);
    failures_flush();
}
END_TEST

static int sample_sets_used;

START_TEST(test_sample_contact_sets)
{
    const sample_set *s = &contact_sets[_i];
    model_table mt;
    cdyn_constraint set[SAMPLE_SET_MAX];
    workspace w;
    constraint_ws c;
    failures_reset();
    load_sample(s->file, s->floating, &mt);
    const cdyn_model *m = &mt.model;
    workspace_open(&w, m);
    constraint_ws_open(&c, m, set, sample_set_constraints(s, m, set));
    xorshift64s g = { 0xA0761D6478BD642Full + (uint64_t)_i };
    double *q = dalloc((size_t)m->nq), *v = dalloc((size_t)m->nv), *tau = dalloc((size_t)m->nv);
    double *step = dalloc((size_t)m->nv);
    for (int state = 0; state < 2; ++state) {
        char what[160];
        random_state(m, &g, q, v, tau, step);
        snprintf(what, sizeof what, "%s, state %d", s->what, state);
        sample_sets_used += check_fd_constrained(&w, &c, what, q, v, tau, FD_TOL, &fd_sample);
    }
    constraint_ws_close(&c);
    workspace_close(&w);
    model_table_free(&mt);
    free(q);
    free(v);
    free(tau);
    free(step);
    failures_flush();
}
END_TEST

/* Every joint type met, sets used, zeros checked; the measured worst errors printed. */
START_TEST(test_coverage)
{
    static const char *type_names[5] = { "revolute", "continuous", "prismatic", "planar",
                                         "free-flyer" };
    fprintf(stderr,
            "central differences (best step of the ladder): worst |x - fd| / (1 + max|fd|): "
            "random robots (not extreme) rnea "
            "%.2e aba %.2e proxLTL %.2e (cond(G) <= %.2e); sample robots rnea %.2e aba %.2e "
            "proxLTL %.2e (cond(G) <= %.2e)\n",
            fd_random.rnea, fd_random.aba, fd_random.prox, fd_random.cond_g, fd_sample.rnea,
            fd_sample.aba, fd_sample.prox, fd_sample.cond_g);
    fprintf(stderr, "  extreme random seeds: rnea %.2e aba %.2e proxLTL %.2e\n", fd_extreme.rnea,
            fd_extreme.aba, fd_extreme.prox);
    for (int k = 0; k < 3; ++k)
        fprintf(stderr, "  worst %s at: %s; %s; %s\n",
                k == 0   ? "rnea"
                : k == 1 ? "aba"
                         : "proxLTL",
                fd_random.where[k], fd_extreme.where[k], fd_sample.where[k]);
    fprintf(stderr,
            "contact sets: %d checked (%d 3d and %d 6d contacts), %d skipped (cond(G) > %.0e); "
            "identities worst %.2e (%s); structural zeros checked %ld on %ld robots\n",
            sets_checked, sets_3d, sets_6d, sets_skipped, COND_G_MAX, worst_ident,
            worst_ident_where, zeros_checked, zeros_robots);
    fprintf(stderr,
            "joints met: revolute %d (skewed %d), continuous %d, prismatic %d, planar %d, "
            "free-flyer %d (%d floating or planar joints below the root)\n",
            type_seen[0], skewed_revolute, type_seen[1], type_seen[2], type_seen[3], type_seen[4],
            midtree_floating);
    ck_assert_int_eq(random_robots_run, NRANDOM);
    for (int t = 0; t < 5; ++t)
        ck_assert_msg(type_seen[t] > 0, "no %s joint among the robots", type_names[t]);
    ck_assert_int_gt(skewed_revolute, 0);
    ck_assert_int_gt(midtree_floating, 0);
    ck_assert_int_gt(zeros_robots, 0);
    ck_assert_msg(sample_sets_used == 2 * NCONTACT_SETS, "sample sets: %d of %d states used",
                  sample_sets_used, 2 * NCONTACT_SETS);
    ck_assert_msg(sets_checked >= NRANDOM / 2 + 2 * NCONTACT_SETS,
                  "only %d contact sets were conditioned well enough", sets_checked);
    ck_assert(sets_3d > 0 && sets_6d > 0);
}
END_TEST

/* ---- 5. bad input -------------------------------------------------------------------------- */

START_TEST(test_bad_input)
{
    model_table mt, other;
    load_sample("quadruped12.urdf", 1, &mt);
    load_sample("arm7.urdf", 0, &other);
    const cdyn_model *m = &mt.model;
    const int nv = m->nv, nn = nv * nv;
    workspace w, wo;
    workspace_open(&w, m);
    workspace_open(&wo, &other.model);
    double *q = dalloc((size_t)m->nq), *v = dalloc((size_t)nv), *tau = dalloc((size_t)nv);
    double *step = dalloc((size_t)nv), *X[6], *Y[6];
    for (int k = 0; k < 6; ++k) {
        X[k] = dalloc((size_t)nn);
        Y[k] = dalloc((size_t)nn);
    }
    xorshift64s g = { 0x5EED5EED5EEDull };
    random_state(m, &g, q, v, tau, step);

    /* NULL model, data, inputs; data of another model */
    ck_assert_int_eq(cdyn_rnea_derivatives(NULL, &w.d, q, v, tau, X[0], X[1]), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_rnea_derivatives(m, NULL, q, v, tau, X[0], X[1]), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_rnea_derivatives(m, &w.d, NULL, v, tau, X[0], X[1]), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_rnea_derivatives(m, &w.d, q, NULL, tau, X[0], X[1]), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_rnea_derivatives(m, &w.d, q, v, NULL, X[0], X[1]), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_rnea_derivatives(m, &wo.d, q, v, tau, X[0], X[1]), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_aba_derivatives(NULL, &w.d, q, v, tau, X[0], X[1], X[2]), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_aba_derivatives(m, NULL, q, v, tau, X[0], X[1], X[2]), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_aba_derivatives(m, &w.d, NULL, v, tau, X[0], X[1], X[2]), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_aba_derivatives(m, &w.d, q, NULL, tau, X[0], X[1], X[2]), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_aba_derivatives(m, &w.d, q, v, NULL, X[0], X[1], X[2]), CDYN_E_ARG);
    ck_assert_int_eq(cdyn_aba_derivatives(m, &wo.d, q, v, tau, X[0], X[1], X[2]), CDYN_E_ARG);

    /* NULL outputs: the others are what a full call gives */
    ck_assert_int_eq(cdyn_rnea_derivatives(m, &w.d, q, v, tau, X[0], X[1]), CDYN_OK);
    ck_assert_int_eq(cdyn_rnea_derivatives(m, &w.d, q, v, tau, NULL, NULL), CDYN_OK);
    fill_nan(Y[1], (size_t)nn);
    ck_assert_int_eq(cdyn_rnea_derivatives(m, &w.d, q, v, tau, NULL, Y[1]), CDYN_OK);
    ck_assert(rel_err(Y[1], X[1], nn, NULL) <= 1e-14);
    fill_nan(Y[0], (size_t)nn);
    ck_assert_int_eq(cdyn_rnea_derivatives(m, &w.d, q, v, tau, Y[0], NULL), CDYN_OK);
    ck_assert(rel_err(Y[0], X[0], nn, NULL) <= 1e-14);
    ck_assert_int_eq(cdyn_aba_derivatives(m, &w.d, q, v, tau, X[0], X[1], X[2]), CDYN_OK);
    ck_assert_int_eq(cdyn_aba_derivatives(m, &w.d, q, v, tau, NULL, NULL, NULL), CDYN_OK);
    for (int k = 0; k < 3; ++k) {
        fill_nan(Y[k], (size_t)nn);
        ck_assert_int_eq(cdyn_aba_derivatives(m, &w.d, q, v, tau, k == 0 ? Y[0] : NULL,
                                              k == 1 ? Y[1] : NULL, k == 2 ? Y[2] : NULL),
                         CDYN_OK);
        ck_assert_msg(rel_err(Y[k], X[k], nn, NULL) <= 1e-14, "aba output %d alone differs", k);
    }

    /* NaN in an input: no crash, an error. cdyn_aba_derivatives reports as cdyn_aba, which
     * calls a NaN pivot singular: NaN in q may give CDYN_E_SINGULAR (documented), NaN in v
     * or tau (which never reach a pivot) CDYN_E_NONFINITE. */
    double *vecs[3] = { q, v, tau };
    const int idx[3] = { 9, 4, 11 }; /* a leg joint, the base's angular rate, a leg torque */
    for (int which = 0; which < 3; ++which) {
        const double keep = vecs[which][idx[which]];
        vecs[which][idx[which]] = NAN;
        const int r = cdyn_rnea_derivatives(m, &w.d, q, v, tau, X[0], X[1]);
        ck_assert_msg(r == CDYN_E_NONFINITE, "rnea_derivatives with NaN in input %d: %d", which, r);
        const int s = cdyn_aba_derivatives(m, &w.d, q, v, tau, X[0], X[1], X[2]);
        fprintf(stderr, "NaN in %s: rnea_derivatives %s, aba_derivatives %s\n",
                which == 0   ? "q"
                : which == 1 ? "v"
                             : "tau/a",
                cdyn_strerror((cdyn_status)r), cdyn_strerror((cdyn_status)s));
        if (which == 0)
            ck_assert_msg(s == CDYN_E_NONFINITE || s == CDYN_E_SINGULAR,
                          "aba_derivatives with NaN in q: %d", s);
        else
            ck_assert_msg(s == CDYN_E_NONFINITE, "aba_derivatives with NaN in input %d: %d", which,
                          s);
        vecs[which][idx[which]] = keep;
    }
    /* the free-flyer's quaternion too */
    {
        const double keep = q[5];
        q[5] = NAN;
        ck_assert_int_eq(cdyn_rnea_derivatives(m, &w.d, q, v, tau, X[0], X[1]), CDYN_E_NONFINITE);
        const int s = cdyn_aba_derivatives(m, &w.d, q, v, tau, X[0], X[1], X[2]);
        ck_assert(s == CDYN_E_NONFINITE || s == CDYN_E_SINGULAR);
        q[5] = keep;
    }
    ck_assert_int_eq(cdyn_aba_derivatives(m, &w.d, q, v, tau, X[0], X[1], X[2]), CDYN_OK);

    /* the constrained derivatives */
    const cdyn_constraint feet[2] = { { frame_named(m, "lf_foot"), -1, 3, 0 },
                                      { frame_named(m, "rh_foot"), -1, 6, 0 } };
    constraint_ws c;
    constraint_ws_open(&c, m, feet, 2);
    cdyn_prox_settings st = pinocchio_settings();
    double *ddq = dalloc((size_t)nv), *lambda = dalloc((size_t)c.nc);
    ck_assert_int_ge(cdyn_prox_ltl(m, &w.d, &c.cd, &st, q, v, tau, ddq, lambda), 1);
#define PD(M_, D_, CD_, ST_, Q_, V_, DDQ_, L_)                                                     \
    cdyn_prox_ltl_derivatives(M_, D_, CD_, ST_, Q_, V_, DDQ_, L_, X[0], X[1], X[2], X[3], X[4],    \
                              X[5])
    ck_assert_int_eq(PD(m, &w.d, &c.cd, &st, q, v, ddq, lambda), CDYN_OK);
    ck_assert_int_eq(PD(NULL, &w.d, &c.cd, &st, q, v, ddq, lambda), CDYN_E_ARG);
    ck_assert_int_eq(PD(m, NULL, &c.cd, &st, q, v, ddq, lambda), CDYN_E_ARG);
    ck_assert_int_eq(PD(m, &w.d, NULL, &st, q, v, ddq, lambda), CDYN_E_ARG);
    ck_assert_int_eq(PD(m, &w.d, &c.cd, NULL, q, v, ddq, lambda), CDYN_E_ARG);
    ck_assert_int_eq(PD(m, &w.d, &c.cd, &st, NULL, v, ddq, lambda), CDYN_E_ARG);
    ck_assert_int_eq(PD(m, &w.d, &c.cd, &st, q, NULL, ddq, lambda), CDYN_E_ARG);
    ck_assert_int_eq(PD(m, &w.d, &c.cd, &st, q, v, NULL, lambda), CDYN_E_ARG);
    ck_assert_int_eq(PD(m, &w.d, &c.cd, &st, q, v, ddq, NULL), CDYN_E_ARG);
    ck_assert_int_eq(PD(&other.model, &w.d, &c.cd, &st, q, v, ddq, lambda), CDYN_E_ARG);
    /* Baumgarte gains are refused (contacts without gains only) */
    const double gains[2] = { 10, 10 };
    st.Kp = gains;
    ck_assert_int_eq(PD(m, &w.d, &c.cd, &st, q, v, ddq, lambda), CDYN_E_ARG);
    st.Kp = NULL;
    st.Kd = gains;
    ck_assert_int_eq(PD(m, &w.d, &c.cd, &st, q, v, ddq, lambda), CDYN_E_ARG);
    st.Kd = NULL;
    /* every output may be NULL; one alone equals the full call's */
    ck_assert_int_ge(cdyn_prox_ltl(m, &w.d, &c.cd, &st, q, v, tau, ddq, lambda), 1);
    ck_assert_int_eq(PD(m, &w.d, &c.cd, &st, q, v, ddq, lambda), CDYN_OK);
    ck_assert_int_eq(cdyn_prox_ltl_derivatives(m, &w.d, &c.cd, &st, q, v, ddq, lambda, NULL, NULL,
                                               NULL, NULL, NULL, NULL),
                     CDYN_OK);
    for (int k = 0; k < 6; ++k) {
        double *o[6] = { NULL, NULL, NULL, NULL, NULL, NULL };
        const int n = (k < 3 ? nv : c.nc) * nv;
        fill_nan(Y[k], (size_t)n);
        o[k] = Y[k];
        ck_assert_int_eq(cdyn_prox_ltl(m, &w.d, &c.cd, &st, q, v, tau, ddq, lambda) >= 1, 1);
        ck_assert_int_eq(cdyn_prox_ltl_derivatives(m, &w.d, &c.cd, &st, q, v, ddq, lambda, o[0],
                                                   o[1], o[2], o[3], o[4], o[5]),
                         CDYN_OK);
        ck_assert_msg(rel_err(Y[k], X[k], n, NULL) <= 1e-12,
                      "prox derivative output %d alone differs", k);
    }
    /* NaN in q, v, ddq or lambda: an error, no crash */
    double *ins[4] = { q, v, ddq, lambda };
    const int at[4] = { 8, 2, 5, 1 };
    for (int which = 0; which < 4; ++which) {
        ck_assert_int_ge(cdyn_prox_ltl(m, &w.d, &c.cd, &st, q, v, tau, ddq, lambda), 1);
        const double keep = ins[which][at[which]];
        ins[which][at[which]] = NAN;
        const int r = PD(m, &w.d, &c.cd, &st, q, v, ddq, lambda);
        fprintf(stderr, "NaN in %s: prox_ltl_derivatives %s\n",
                which == 0   ? "q"
                : which == 1 ? "v"
                : which == 2 ? "ddq"
                             : "lambda",
                cdyn_strerror((cdyn_status)r));
        if (which == 0)
            ck_assert_msg(r == CDYN_E_NONFINITE || r == CDYN_E_SINGULAR,
                          "prox_ltl_derivatives with NaN in q: %d", r);
        else
            ck_assert_msg(r == CDYN_E_NONFINITE, "prox_ltl_derivatives with NaN in input %d: %d",
                          which, r);
        ins[which][at[which]] = keep;
    }
    constraint_ws_close(&c);

    /* a loop is refused (contacts only) */
    {
        model_table fb;
        load_sample("fourbar.urdf", 0, &fb);
        workspace wf;
        workspace_open(&wf, &fb.model);
        const cdyn_constraint loop[1] = { { frame_named(&fb.model, "coupler_tip"),
                                            frame_named(&fb.model, "rocker_tip"), 3, 0 } };
        constraint_ws cl;
        constraint_ws_open(&cl, &fb.model, loop, 1);
        double qf[8] = { 0 }, vf[8] = { 0.1, -0.2, 0.3 }, tf[8] = { 0.5, 0, -0.5 }, af[8], lf[8];
        double *Z = dalloc(64);
        ck_assert_int_eq(cdyn_neutral(&fb.model, qf), CDYN_OK);
        ck_assert_int_ge(cdyn_prox_ltl(&fb.model, &wf.d, &cl.cd, &st, qf, vf, tf, af, lf), 1);
        ck_assert_int_eq(cdyn_prox_ltl_derivatives(&fb.model, &wf.d, &cl.cd, &st, qf, vf, af, lf, Z,
                                                   NULL, NULL, NULL, NULL, NULL),
                         CDYN_E_ARG);
        free(Z);
        constraint_ws_close(&cl);
        workspace_close(&wf);
        model_table_free(&fb);
    }
#undef PD
    for (int k = 0; k < 6; ++k) {
        free(X[k]);
        free(Y[k]);
    }
    free(q);
    free(v);
    free(tau);
    free(step);
    free(ddq);
    free(lambda);
    workspace_close(&w);
    workspace_close(&wo);
    model_table_free(&mt);
    model_table_free(&other);
}
END_TEST

/* The same 6d contact twice: G is singular and lambda not unique, but ddq, and so its
 * derivatives, are those of the set without the duplicate, and the two duplicated blocks
 * of any lambda derivative add up to that set's block. cdyn.h documents no special error
 * for this: the result must be a reported error (negative) or finite results that obey
 * the above. Measured worst difference printed. */
static double singular_worst = -1;

static void check_duplicate(const cdyn_model *m, int dup_frame, int other_frame, const double *q,
                            const double *v, const double *tau, const char *what)
{
    const int nv = m->nv, nn = nv * nv;
    const cdyn_constraint single[2] = { { dup_frame, -1, 6, 0 }, { other_frame, -1, 6, 0 } };
    const cdyn_constraint twice[3] = { { dup_frame, -1, 6, 0 },
                                       { dup_frame, -1, 6, 0 },
                                       { other_frame, -1, 6, 0 } };
    workspace w;
    constraint_ws cs, ct;
    workspace_open(&w, m);
    constraint_ws_open(&cs, m, single, 2);
    constraint_ws_open(&ct, m, twice, 3);
    cdyn_prox_settings st = pinocchio_settings();
    double *ddq = dalloc((size_t)nv), *lam = dalloc(18), *ddq2 = dalloc((size_t)nv);
    double *lam2 = dalloc(18), *A[6], *B[6];
    for (int k = 0; k < 6; ++k) {
        A[k] = dalloc((size_t)nn + 18 * (size_t)nv);
        B[k] = dalloc((size_t)nn + 18 * (size_t)nv);
        fill_nan(B[k], (size_t)nn + 18 * (size_t)nv);
    }
    ck_assert_int_ge(cdyn_prox_ltl(m, &w.d, &cs.cd, &st, q, v, tau, ddq, lam), 1);
    ck_assert_int_eq(cdyn_prox_ltl_derivatives(m, &w.d, &cs.cd, &st, q, v, ddq, lam, A[0], A[1],
                                               A[2], A[3], A[4], A[5]),
                     CDYN_OK);
    const int it = cdyn_prox_ltl(m, &w.d, &ct.cd, &st, q, v, tau, ddq2, lam2);
    ck_assert_msg(it >= 1 || it == CDYN_E_NOT_CONVERGED || it == CDYN_E_SINGULAR,
                  "%s: prox_ltl on the duplicated set: %d", what, it);
    if (it == CDYN_E_SINGULAR) {
        fprintf(stderr, "%s: duplicated 6d contact: cdyn_prox_ltl reports CDYN_E_SINGULAR\n", what);
        goto done;
    }
    const int r = cdyn_prox_ltl_derivatives(m, &w.d, &ct.cd, &st, q, v, ddq2, lam2, B[0], B[1],
                                            B[2], B[3], B[4], B[5]);
    fprintf(stderr, "%s: duplicated 6d contact: prox_ltl %d, prox_ltl_derivatives %d (%s)\n", what,
            it, r, cdyn_strerror((cdyn_status)r));
    ck_assert_msg(r == CDYN_OK || r < 0, "%s: status %d", what, r);
    ck_assert_msg(r != CDYN_E_ARG, "%s: a valid set refused", what);
    if (r != CDYN_OK)
        goto done;
    for (int k = 0; k < 3; ++k) {
        ck_assert_msg(all_finite(B[k], nn), "%s: OK but non-finite ddq derivative %d", what, k);
        ck_assert_msg(all_finite(B[3 + k], 18 * nv), "%s: OK but non-finite lambda derivative %d",
                      what, k);
        const double e = rel_err(B[k], A[k], nn, NULL);
        if (e > singular_worst)
            singular_worst = e;
        ck_assert_msg(e <= 1e-9, "%s: ddq derivative %d with the duplicate off by %.3g", what, k,
                      e);
        /* lambda rows: blocks 0 and 1 (the duplicate) add up to block 0, block 2 is block 1 */
        double *sum = dalloc(12 * (size_t)nv);
        for (int j = 0; j < 6 * nv; ++j) {
            sum[j] = B[3 + k][j] + B[3 + k][6 * nv + j];
            sum[6 * nv + j] = B[3 + k][12 * nv + j];
        }
        const double el = rel_err(sum, A[3 + k], 12 * nv, NULL);
        if (el > singular_worst)
            singular_worst = el;
        ck_assert_msg(el <= 1e-9, "%s: lambda derivative %d, duplicated blocks summed, off by %.3g",
                      what, k, el);
        free(sum);
    }
done:
    for (int k = 0; k < 6; ++k) {
        free(A[k]);
        free(B[k]);
    }
    free(ddq);
    free(lam);
    free(ddq2);
    free(lam2);
    constraint_ws_close(&cs);
    constraint_ws_close(&ct);
    workspace_close(&w);
}

START_TEST(test_singular_sample)
{
    model_table mt;
    load_sample("humanoid.urdf", 1, &mt);
    const cdyn_model *m = &mt.model;
    xorshift64s g = { 0xC0FFEEull };
    double *q = dalloc((size_t)m->nq), *v = dalloc((size_t)m->nv), *tau = dalloc((size_t)m->nv);
    double *step = dalloc((size_t)m->nv);
    random_state(m, &g, q, v, tau, step);
    check_duplicate(m, frame_named(m, "left_sole"), frame_named(m, "right_sole"), q, v, tau,
                    "humanoid left_sole 6d twice + right_sole 6d");
    fprintf(stderr, "duplicated contact: worst difference to the set without it %.2e\n",
            singular_worst);
    free(q);
    free(v);
    free(tau);
    free(step);
    model_table_free(&mt);
}
END_TEST

/* ---- 1, 2. against Pinocchio 3.7 ---------------------------------------------------------- */

static const struct {
    const char *dir, *urdf;
    int floating;
} robots[] = {
    { "iiwa", "iiwa.urdf", 0 },
    { "ur5", "ur5_robot.urdf", 0 },
    { "double_pendulum", "double_pendulum.urdf", 0 },
    { "solo12", "solo12.urdf", 1 },
    { "hyq", "hyq_no_sensors.urdf", 1 },
    { "talos_full_v2", "talos_full_v2.urdf", 1 },
};
#define NROBOTS ((int)(sizeof robots / sizeof robots[0]))
enum { ROBOT_IIWA = 0, ROBOT_SOLO12 = 3, ROBOT_TALOS = 5 };

static const struct {
    int robot;
    const char *name;
} cases[] = {
    { ROBOT_IIWA, "H6" },     { ROBOT_IIWA, "H3" },    { ROBOT_SOLO12, "F3x2" },
    { ROBOT_SOLO12, "F3x4" }, { ROBOT_TALOS, "F6x2" }, { ROBOT_TALOS, "F6x2_H6x2" },
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static ref_file *load_ref(int robot, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", REF_DIR, robots[robot].dir, file);
    ref_file *f = ref_load(path);
    ck_assert_msg(f != NULL, "cannot read %s", path);
    return f;
}

static const ref_record *need(const ref_file *f, int state, const char *name, int rows, int cols)
{
    const ref_record *r = ref_get(f, state, name);
    ck_assert_msg(r != NULL, "state %d: no record %s", state, name);
    ck_assert_msg(r->rows == rows && r->cols == cols, "%s is %dx%d, expected %dx%d", name, r->rows,
                  r->cols, rows, cols);
    return r;
}

static void read_vector(double *x, const ref_file *f, int state, const char *name, int n)
{
    memcpy(x, need(f, state, name, n, 1)->v, sizeof *x * (size_t)n);
}

/* The model as Pinocchio built it, from model.txt alone (as test_generic_reference). */
typedef struct {
    cdyn_model model;
    cdyn_body *bodies;
    cdyn_frame *frames;
    int *dof_parent, *dof_body;
} txt_model;

static cdyn_joint_type joint_type(const char *t)
{
    if (strstr(t, "FreeFlyer"))
        return CDYN_JOINT_FREEFLYER;
    if (strstr(t, "Planar"))
        return CDYN_JOINT_PLANAR;
    if (strstr(t, "Unbounded") || strstr(t, "RUB"))
        return CDYN_JOINT_REVOLUTE_UNBOUNDED;
    if (strstr(t, "Prismatic") || !strncmp(t, "JointModelP", 11))
        return CDYN_JOINT_PRISMATIC;
    ck_assert_msg(strstr(t, "Revolute") || !strncmp(t, "JointModelR", 11), "unknown joint type %s",
                  t);
    return CDYN_JOINT_REVOLUTE;
}

static void txt_model_build(txt_model *t, const ref_file *mf)
{
    const int nb = ref_njoints(mf), nf = ref_nframes(mf);
    const int nv = ref_header_int(mf, "nv", -1), nq = ref_header_int(mf, "nq", -1);
    ck_assert(nb > 0 && nv > 0 && nq > 0);
    t->bodies = calloc((size_t)nb, sizeof *t->bodies);
    t->frames = calloc((size_t)nf + 1, sizeof *t->frames);
    t->dof_parent = malloc(sizeof(int) * (size_t)nv);
    t->dof_body = malloc(sizeof(int) * (size_t)nv);
    ck_assert(t->bodies && t->frames && t->dof_parent && t->dof_body);
    for (int i = 0; i < nb; ++i) {
        const ref_joint *j = ref_joint_at(mf, i);
        cdyn_body *b = &t->bodies[i];
        char name[256];
        b->type = joint_type(j->type);
        b->parent = j->parent - 1;
        b->idx_q = j->idx_q;
        b->nq = j->nq;
        b->idx_v = j->idx_v;
        b->nv = j->nv;
        snprintf(name, sizeof name, "placement.%s", j->name);
        const ref_record *pl = need(mf, -1, name, 1, 12);
        snprintf(name, sizeof name, "inertia.%s", j->name);
        const ref_record *in = need(mf, -1, name, 1, 10);
        snprintf(name, sizeof name, "S.%s", j->name);
        const ref_record *S = need(mf, -1, name, 6, j->nv);
        for (int k = 0; k < 9; ++k)
            b->R[k] = pl->v[k];
        for (int k = 0; k < 3; ++k) {
            b->p[k] = pl->v[9 + k];
            b->com[k] = in->v[1 + k];
            b->axis[k] = S->v[j->nv * (k + (b->type == CDYN_JOINT_PRISMATIC ? 0 : 3))];
        }
        b->mass = in->v[0];
        for (int k = 0; k < 6; ++k)
            b->inertia[k] = in->v[4 + k];
        const int up =
            b->parent < 0 ? -1 : t->bodies[b->parent].idx_v + t->bodies[b->parent].nv - 1;
        for (int k = 0; k < b->nv; ++k) {
            t->dof_parent[b->idx_v + k] = k ? b->idx_v + k - 1 : up;
            t->dof_body[b->idx_v + k] = i;
        }
    }
    for (int k = 0; k < nf; ++k) {
        const ref_frame *rf = ref_frame_at(mf, k);
        t->frames[k].name = rf->name;
        t->frames[k].body = rf->parent_joint - 1;
        memcpy(t->frames[k].R, rf->R, sizeof rf->R);
        memcpy(t->frames[k].p, rf->p, sizeof rf->p);
    }
    const ref_record *g = need(mf, -1, "gravity_world", 3, 1);
    t->model = (cdyn_model){ ref_header(mf, "robot"),
                             nb,
                             nq,
                             nv,
                             nf,
                             t->bodies,
                             t->frames,
                             t->dof_parent,
                             t->dof_body,
                             { g->v[0], g->v[1], g->v[2] } };
}

static void txt_model_free(txt_model *t)
{
    free(t->bodies);
    free(t->frames);
    free(t->dof_parent);
    free(t->dof_body);
}

/* A reference robot built from its URDF (source 0) or from model.txt (source 1). */
typedef struct {
    model_table mt;
    txt_model tm;
    ref_file *mf;
    int source;
    const cdyn_model *m;
} ref_robot;

static const char *source_name(int source)
{
    return source ? "model.txt" : "urdf";
}

static void ref_robot_open(ref_robot *r, int robot, int source)
{
    memset(r, 0, sizeof *r);
    r->source = source;
    r->mf = load_ref(robot, "model.txt");
    if (source == 0) {
        char path[512], err[512] = "";
        snprintf(path, sizeof path, "%s/urdf/%s", REF_DIR, robots[robot].urdf);
        ck_assert_msg(model_table_load(path, robots[robot].floating, &r->mt, err, sizeof err) == 0,
                      "model_table_load(%s): %s", path, err);
        r->m = &r->mt.model;
    } else {
        txt_model_build(&r->tm, r->mf);
        r->m = &r->tm.model;
    }
    ck_assert_int_eq(r->m->nv, ref_header_int(r->mf, "nv", -1));
    ck_assert_int_eq(r->m->nq, ref_header_int(r->mf, "nq", -1));
}

static void ref_robot_close(ref_robot *r)
{
    if (r->source == 0)
        model_table_free(&r->mt);
    else
        txt_model_free(&r->tm);
    ref_free(r->mf);
}

/* On a mismatch with the reference, what central differences of fn say about the runtime's
 * x and the reference's ref (rows x nv, rows off.. of fn's outputs): appended to msg. */
static void diagnose(char *msg, size_t size, const fd_fn *fn, int wrt, const double *q,
                     const double *v, const double *u, const double *x, const double *ref, int rows,
                     int off)
{
    const int nv = fn->m->nv;
    const size_t len = strlen(msg);
    char pattern[256];
    double *X[2] = { (double *)x, (double *)ref }, err[2], h[2];
    double *best[2] = { dalloc((size_t)rows * (size_t)nv), dalloc((size_t)rows * (size_t)nv) };
    const int r2[2] = { rows, rows }, o2[2] = { off, off };
    describe_pattern(x, ref, rows, nv, REF_TOL, pattern, sizeof pattern);
    fd_best(fn, wrt, q, v, u, 2, X, r2, o2, err, h, best);
    snprintf(msg + len, size - len,
             "; off in %s; against central differences (best step): runtime %.3g (%.0e), "
             "reference %.3g (%.0e)",
             pattern, err[0], h[0], err[1], h[1]);
    free(best[0]);
    free(best[1]);
}

START_TEST(test_reference_unconstrained)
{
    const int robot = _i / 2, source = _i % 2;
    ref_robot rr;
    workspace w;
    failures_reset();
    ref_robot_open(&rr, robot, source);
    const cdyn_model *m = rr.m;
    const int nv = m->nv, nn = nv * nv;
    ref_file *f = load_ref(robot, "derivatives.txt");
    ck_assert_int_eq(ref_nstates(f), 4);
    workspace_open(&w, m);
    const char *names[5] = { "rnea_dq", "rnea_dv", "aba_dq", "aba_dv", "aba_dtau" };
    double *q = dalloc((size_t)m->nq), *v = dalloc((size_t)nv), *tau = dalloc((size_t)nv);
    double *a = dalloc((size_t)nv), *X[5], worst[5] = { 0 };
    char msg[1024] = "";
    for (int k = 0; k < 5; ++k)
        X[k] = dalloc((size_t)nn);
    char what[96];
    snprintf(what, sizeof what, "%s (%s)", robots[robot].dir, source_name(source));
    for (int s = 0; s < 4; ++s) {
        read_vector(q, f, s, "q", m->nq);
        read_vector(v, f, s, "v", nv);
        read_vector(tau, f, s, "tau", nv);
        read_vector(a, f, s, "a", nv);
        for (int k = 0; k < 5; ++k)
            fill_nan(X[k], (size_t)nn);
        ck_assert_int_eq(cdyn_rnea_derivatives(m, &w.d, q, v, a, X[0], X[1]), CDYN_OK);
        ck_assert_int_eq(cdyn_aba_derivatives(m, &w.d, q, v, tau, X[2], X[3], X[4]), CDYN_OK);
        for (int k = 0; k < 5; ++k) {
            const double *ref = need(f, s, names[k], nv, nv)->v;
            int at;
            const double e = rel_err(X[k], ref, nn, &at);
            if (e > worst[k])
                worst[k] = e;
            if (!(e <= REF_TOL) && !msg[0]) {
                const fd_fn fn = { k < 2 ? F_RNEA : F_ABA, m, &w.d, NULL, 0 };
                snprintf(msg, sizeof msg,
                         "%s state %d: %s: |x - ref| / (1 + max|ref|) = %.3g at (%d, %d) (x %.17g, "
                         "ref %.17g), tolerance %.3g",
                         what, s, names[k], e, at / nv, at % nv, X[k][at], ref[at], REF_TOL);
                diagnose(msg, sizeof msg, &fn, k < 2 ? k : k - 2, q, v, k < 2 ? a : tau, X[k], ref,
                         nv, 0);
            }
        }
        check_structural_zeros(m, X[0], what, "rnea_dq");
        check_structural_zeros(m, X[1], what, "rnea_dv");
        check_identities(&w, what, q, v, tau, IDENT_TOL);
    }
    fprintf(stderr,
            "Pinocchio derivatives, %s: worst |x - ref| / (1 + max|ref|) over 4 states: rnea_dq "
            "%.2e rnea_dv %.2e aba_dq %.2e aba_dv %.2e aba_dtau %.2e\n",
            what, worst[0], worst[1], worst[2], worst[3], worst[4]);
    if (msg[0])
        note_failure("%s", msg);
    for (int k = 0; k < 5; ++k)
        free(X[k]);
    free(q);
    free(v);
    free(tau);
    free(a);
    workspace_close(&w);
    ref_free(f);
    ref_robot_close(&rr);
    failures_flush();
}
END_TEST

/* The set of contact_<case>.txt: contacts on frames, 3d or 6d, LOCAL, in file order. */
static int reference_set(const cdyn_model *m, const ref_file *cf, cdyn_constraint *set, int max)
{
    const int n = ref_ncontacts(cf);
    ck_assert(n >= 1 && n <= max);
    for (int k = 0; k < n; ++k) {
        const ref_contact *c = ref_contact_at(cf, k);
        ck_assert_int_eq(c->index, k);
        set[k].frame_a = frame_named(m, c->frame);
        set[k].frame_b = -1;
        set[k].dim = c->dim;
        set[k].friction = 0;
        ck_assert_int_eq(m->frames[set[k].frame_a].body, c->parent_joint - 1);
    }
    return n;
}

START_TEST(test_reference_contact)
{
    const int ci = _i / 2, source = _i % 2, robot = cases[ci].robot;
    ref_robot rr;
    workspace w;
    constraint_ws c;
    char file[128], what[128], msg[1536] = "";
    cdyn_constraint set[2 * MAXCON];
    ref_robot_open(&rr, robot, source);
    const cdyn_model *m = rr.m;
    const int nv = m->nv;
    snprintf(file, sizeof file, "contact_%s.txt", cases[ci].name);
    ref_file *cf = load_ref(robot, file);
    snprintf(file, sizeof file, "derivatives_%s.txt", cases[ci].name);
    ref_file *f = load_ref(robot, file);
    snprintf(what, sizeof what, "%s %s (%s)", robots[robot].dir, cases[ci].name,
             source_name(source));
    workspace_open(&w, m);
    constraint_ws_open(&c, m, set, reference_set(m, cf, set, 2 * MAXCON));
    const int nc = c.nc;
    ck_assert_int_eq(nc, ref_header_int(f, "constraint_dim", -1));
    ck_assert_int_eq(ref_nstates(f), 4);
    const cdyn_prox_settings st = pinocchio_settings();
    const char *names[8] = { "ddq",      "lambda",    "ddq_dq",    "ddq_dv",
                             "ddq_dtau", "lambda_dq", "lambda_dv", "lambda_dtau" };
    double *q = dalloc((size_t)m->nq), *v = dalloc((size_t)nv), *tau = dalloc((size_t)nv);
    double *X[8], worst[8] = { 0 };
    int iters[4] = { 0 };
    for (int k = 0; k < 8; ++k)
        X[k] = dalloc(k == 0   ? (size_t)nv
                      : k == 1 ? (size_t)nc
                               : (size_t)(k < 5 ? nv : nc) * (size_t)nv);
    for (int s = 0; s < 4; ++s) {
        read_vector(q, f, s, "q", m->nq);
        read_vector(v, f, s, "v", nv);
        read_vector(tau, f, s, "tau", nv);
        for (int k = 2; k < 8; ++k)
            fill_nan(X[k], (size_t)(k < 5 ? nv : nc) * (size_t)nv);
        iters[s] = cdyn_prox_ltl(m, &w.d, &c.cd, &st, q, v, tau, X[0], X[1]);
        ck_assert_msg(iters[s] >= 1, "%s state %d: cdyn_prox_ltl returned %d", what, s, iters[s]);
        ck_assert_int_eq(cdyn_prox_ltl_derivatives(m, &w.d, &c.cd, &st, q, v, X[0], X[1], X[2],
                                                   X[3], X[4], X[5], X[6], X[7]),
                         CDYN_OK);
        for (int k = 0; k < 8; ++k) {
            const int rows = k == 0 ? nv : k == 1 ? nc : k < 5 ? nv : nc, cols = k < 2 ? 1 : nv;
            const double *ref = need(f, s, names[k], rows, cols)->v;
            int at;
            const double e = rel_err(X[k], ref, rows * cols, &at);
            if (e > worst[k])
                worst[k] = e;
            if (e <= REF_TOL || msg[0])
                continue;
            snprintf(msg, sizeof msg,
                     "%s state %d: %s: |x - ref| / (1 + max|ref|) = %.3g at (%d, %d) (x %.17g, ref "
                     "%.17g), tolerance %.3g",
                     what, s, names[k], e, at / cols, at % cols, X[k][at], ref[at], REF_TOL);
            if (k >= 2) { /* central differences of the fixed-iteration proxLTL decide */
                const int wrt = (k - 2) % 3;
                const fd_fn fn = { F_PROX, m, &w.d, &c.cd, nc };
                diagnose(msg, sizeof msg, &fn, wrt, q, v, tau, X[k], ref, rows, k < 5 ? 0 : nv);
            }
        }
    }
    fprintf(
        stderr,
        "Pinocchio constrained derivatives, %s (iterations %d %d %d %d): worst |x - ref| / (1 + "
        "max|ref|): ddq %.2e lambda %.2e ddq_dq %.2e ddq_dv %.2e ddq_dtau %.2e lambda_dq %.2e "
        "lambda_dv %.2e lambda_dtau %.2e\n",
        what, iters[0], iters[1], iters[2], iters[3], worst[0], worst[1], worst[2], worst[3],
        worst[4], worst[5], worst[6], worst[7]);
    ck_assert_msg(!msg[0], "%s", msg);
    for (int k = 0; k < 8; ++k)
        free(X[k]);
    free(q);
    free(v);
    free(tau);
    constraint_ws_close(&c);
    workspace_close(&w);
    ref_free(cf);
    ref_free(f);
    ref_robot_close(&rr);
}
END_TEST

/* talos' redundant case (left sole twice, right sole) against derivatives_F6x2.txt: the
 * same states, and ddq is that of F6x2. */
START_TEST(test_reference_redundant)
{
    ref_robot rr;
    ref_robot_open(&rr, ROBOT_TALOS, 0);
    const cdyn_model *m = rr.m;
    ref_file *f = load_ref(ROBOT_TALOS, "derivatives_F6x2.txt");
    ref_file *cf = load_ref(ROBOT_TALOS, "contact_F6x2_redundant.txt");
    double *q = dalloc((size_t)m->nq), *v = dalloc((size_t)m->nv), *tau = dalloc((size_t)m->nv);
    ck_assert_int_eq(ref_ncontacts(cf), 3);
    ck_assert_str_eq(ref_contact_at(cf, 0)->frame, ref_contact_at(cf, 1)->frame);
    for (int s = 0; s < 4; ++s) {
        char what[96];
        read_vector(q, f, s, "q", m->nq);
        read_vector(v, f, s, "v", m->nv);
        read_vector(tau, f, s, "tau", m->nv);
        ck_assert(memcmp(q, need(cf, s, "q", m->nq, 1)->v, sizeof *q * (size_t)m->nq) == 0);
        snprintf(what, sizeof what, "talos F6x2_redundant state %d", s);
        check_duplicate(m, frame_named(m, ref_contact_at(cf, 0)->frame),
                        frame_named(m, ref_contact_at(cf, 2)->frame), q, v, tau, what);
    }
    free(q);
    free(v);
    free(tau);
    ref_free(f);
    ref_free(cf);
    ref_robot_close(&rr);
}
END_TEST

int main(void)
{
    FILE *probe = fopen(REF_DIR "/iiwa/derivatives.txt", "r");
    const int have_ref = probe != NULL;
    if (probe)
        fclose(probe);
    Suite *s = suite_create("generic_derivatives");
    if (have_ref) {
        TCase *ref = tcase_create("pinocchio");
        tcase_set_timeout(ref, 600);
        tcase_add_loop_test(ref, test_reference_unconstrained, 0, 2 * NROBOTS);
        tcase_add_loop_test(ref, test_reference_contact, 0, 2 * NCASES);
        tcase_add_test(ref, test_reference_redundant);
        suite_add_tcase(s, ref);
    } else {
        printf("test_generic_derivatives: no reference vectors in %s: the Pinocchio comparisons "
               "are skipped\n",
               REF_DIR);
    }
    TCase *fd = tcase_create("differences");
    tcase_set_timeout(fd, 1200);
    tcase_add_loop_test(fd, test_random_robots, 0, NRANDOM);
    tcase_add_loop_test(fd, test_sample_robots, 0, NSAMPLE_ROBOTS);
    tcase_add_loop_test(fd, test_sample_contact_sets, 0, NCONTACT_SETS);
    tcase_add_test(fd, test_singular_sample);
    tcase_add_test(fd, test_coverage);
    suite_add_tcase(s, fd);
    TCase *bad = tcase_create("bad_input");
    tcase_add_test(bad, test_bad_input);
    suite_add_tcase(s, bad);
    /* no fork: test_coverage reads the counts the others leave */
    const int failed = check_run(s, CK_NOFORK);
    if (failed)
        return EXIT_FAILURE;
    return have_ref ? EXIT_SUCCESS : SKIP_RETURN_CODE;
}
