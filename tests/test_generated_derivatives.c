/* test_generated_derivatives.c — the GENERATED derivatives (NAME_rnea_derivatives,
 * NAME_aba_derivatives, NAME_difference, NAME_integrate_derivatives,
 * NAME_difference_derivatives, and NAME_prox_ltl_derivatives when the adapter carries it) of
 * the robots tests/generated.cmake builds, through their generated_api adapters
 * (tests/generated_derivatives.cmake names the tables):
 *
 *  a. the six reference robots against Pinocchio 3.7 (CDYN_SHARED_DIR/reference/<robot>/
 *     derivatives.txt, four states): rnea_dq, rnea_dv at (q, v, a), aba_dq, aba_dv, aba_dtau
 *     at (q, v, tau);
 *  b. generated = generic (cdyn_rnea_derivatives, cdyn_aba_derivatives, cdyn_difference,
 *     cdyn_integrate_derivatives, cdyn_difference_derivatives over the robot's own model
 *     table, api->model) on those states and on the random robots and corpus files of
 *     test_generated_random (random states: neutral (+) a random step, free-flyers,
 *     continuous, prismatic and planar joints; test_coverage asserts each was met); with
 *     them difference(q, integrate(q, v, 1)) = v from the generated functions alone;
 *  c. identities: ddq_dtau = NAME_minv; ddq_dtau NULL leaves ddq_dq and ddq_dv bit for bit
 *     those of the full call; every entry written (every output filled with NaN before each
 *     call); the RNEA derivatives' entries (k, j) exactly 0 unless k and j are on one branch
 *     of model->dof_parent;
 *  d. bad input on the reference robots and the first NAN_ROBOTS random robots: a NaN in
 *     each entry of q, v and a/tau in turn. The generated functions return
 *     CDYN_E_NONFINITE "when a NaN or infinity reached" the outputs (robot.h), and
 *     aba_derivatives may return CDYN_E_SINGULAR for a NaN in q (a NaN pivot, as NAME_aba);
 *     an entry the generated code never reads, folded away because the derivatives do not
 *     depend on it, gives 0, and then the outputs must be the clean call's bit for bit (met
 *     on random8 only, a star of 40 lone bodies on fixed axes: dtau/dq and dtau/dv do not
 *     depend on a, some not on v, and gravity has no moment about a vertical axis). An error of the generated code must come with one of the generic
 *     runtime, which reads every entry. NULL outputs: CDYN_E_ARG (ddq_dtau alone may be
 *     NULL);
 *  e. when api->prox_ltl_derivatives is not NULL (skipped, saying so, while the adapter has
 *     none): the reference contact cases of test_generated_constrained, NAME_prox_ltl at
 *     Pinocchio's ProximalSettings(1e-12, 1e-12, mu 1e-12, 200) then
 *     NAME_prox_ltl_derivatives, against derivatives_<case>.txt and against
 *     cdyn_prox_ltl/cdyn_prox_ltl_derivatives on the same set; the redundant talos case
 *     (no file: lambda is not unique) against derivatives_F6x2.txt through ddq and its
 *     derivatives, and lambda and its derivatives with the duplicated blocks summed.
 *
 * Tolerances, max|x - ref| <= tol (1 + max|ref|) per matrix (tests/support/compare.h):
 *  - Pinocchio: REF_TOL 1e-9, the bound and test_generic_derivatives' (the tree snaps
 *    right angles by < 1e-11; the inputs round-trip exactly);
 *  - generic: GENERIC_TOL 1e-10, test_generated_random's: the same model in double in
 *    another order of operations. On the seeds random_robot.h marks extreme (masses over
 *    six decades) ABA's derivatives, solved by M's factor as NAME_aba and NAME_minv are,
 *    get it times the factor's pivot growth max_k M_kk / D_k (test_generated_random's
 *    set_solve_tolerance), nothing else;
 *  - difference(q, integrate(q, v, 1)) = v: MANIFOLD_TOL 1e-12 (a log of an exp: a few ulps
 *    of the angles, |v| < 2);
 *  - ddq_dtau = NAME_minv and the NULL ddq_dtau call: bit for bit (the same generated steps);
 *    structural zeros: exactly 0.
 * Measured (printed by each test and test_coverage): against Pinocchio <= 2e-11 unconstrained
 * (iiwa's aba_dq), <= 9e-11 constrained (iiwa H6's ddq_dq); against generic <= 2.5e-12 on the
 * reference robots and contact cases (talos), 1.4e-11 on the ordinary random robots,
 * 2.1e-8 on an extreme seed at pivot growth 1.4e5 (tolerance 1.4e-5); manifold functions
 * bit for bit (NAME_difference and its derivatives are the runtime's over the table). The
 * redundant case's NAME_prox_ltl may stop at CDYN_E_NOT_CONVERGED (its lambda never
 * settles), as the generic one does: its last iterate is used. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdyn.h"
#include "generated_api.h"
#include "support/check_main.h"
#include "support/random_robot.h"
#include "support/reference.h"
#include "support/registry.h"
#include "support/rng.h"

#define REF_DIR CDYN_SHARED_DIR "/reference"
#define SKIP_RETURN_CODE 77

#define REF_TOL 1e-9
#define GENERIC_TOL 1e-10
#define MANIFOLD_TOL 1e-12
#define RANDOM_STATES 3
#define NAN_ROBOTS 12 /* the random robots whose every input entry gets a NaN */

/* tests/generated_derivatives.cmake writes these tables (NULL-terminated). */
extern const generated_api *const deriv_reference_robots[];
extern const generated_api *const deriv_contact_robots[];
extern const generated_api *const deriv_random_robots[];

/* ---- failures and measured errors ---------------------------------------------------------- */

/* A test case collects its failing comparisons (the first FAIL_SHOWN in full) and fails at
 * its end, so one run shows every matrix that is off. */
#define FAIL_SHOWN 6
static char fail_text[FAIL_SHOWN * 400];
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

static void failures_flush(void)
{
    const int n = fail_count;
    fail_count = 0;
    char text[sizeof fail_text];
    memcpy(text, fail_text, sizeof text);
    fail_text[0] = 0;
    ck_assert_msg(n == 0, "%d comparison(s) failed:\n    %s", n, text);
}

/* max|x - ref| / (1 + max|ref|) over n values; a NaN counts as infinite; *at: the worst. */
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
        if (e > err || (k == 0 && e == err)) {
            err = e;
            w = k;
        }
    }
    if (at)
        *at = w;
    return err / (1 + scale);
}

/* rel_err against tol, the worst kept in *worst (may be NULL), a failure noted; cols for
 * the message's (row, column). */
static void check_close(const double *x, const double *ref, int n, int cols, double tol,
                        double *worst, const char *fmt, ...)
{
    int at;
    const double e = rel_err(x, ref, n, &at);
    if (worst && e > *worst)
        *worst = e;
    if (e <= tol)
        return;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    note_failure("%s: |x - ref| / (1 + max|ref|) = %.3g at (%d, %d) (x %.17g, ref %.17g), "
                 "tolerance %.3g",
                 what, e, at / cols, at % cols, x[at], ref[at], tol);
}

static void check_bits(const double *x, const double *ref, int n, const char *fmt, ...)
{
    if (memcmp(x, ref, sizeof *x * (size_t)n) == 0)
        return;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    int k = 0;
    while (k < n && memcmp(&x[k], &ref[k], sizeof *x) == 0)
        ++k;
    note_failure("%s: not bit for bit: first at [%d] (%.17g, %.17g)", what, k, x[k], ref[k]);
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

static int all_finite(const double *x, int n)
{
    for (int k = 0; k < n; ++k)
        if (!isfinite(x[k]))
            return 0;
    return 1;
}

/* The worst errors, by kind, and where. */
enum { W_RNEA, W_ABA, W_MANIFOLD, W_ROUNDTRIP, W_PROX, NW };
static const char *const worst_names[NW] = { "rnea", "aba", "manifold", "difference(integrate)",
                                             "prox_ltl" };
typedef struct {
    double e[NW];
    char where[NW][160];
} worst_set;

static worst_set worst_ref_generic, worst_random, worst_extreme, worst_contact_generic;

static void keep_worst(worst_set *w, int kind, double e, const char *where)
{
    if (e > w->e[kind]) {
        w->e[kind] = e;
        snprintf(w->where[kind], sizeof w->where[kind], "%.150s", where);
    }
}

/* ---- a generated robot beside its generic model -------------------------------------------- */

typedef struct {
    const generated_api *g;
    const cdyn_model *m;
    void *d; /* NAME_data */
    cdyn_data gd;
    void *gwork;
    int nq, nv, nn;
    double *X[5], *Y[5], *Z[2]; /* generated, generic, NULL-ddq_dtau call */
    double *q1, *dv, *buf;
} fixture;

static void fixture_open(fixture *fx, const generated_api *g)
{
    memset(fx, 0, sizeof *fx);
    fx->g = g;
    fx->m = g->model;
    fx->nq = g->nq;
    fx->nv = g->nv;
    fx->nn = g->nv * g->nv;
    ck_assert_int_eq(fx->m->nv, g->nv);
    ck_assert_int_eq(fx->m->nq, g->nq);
    const size_t bytes = cdyn_data_size(fx->m);
    ck_assert_uint_eq(g->generic_data_bytes, bytes);
    fx->d = malloc(g->data_size);
    fx->gwork = malloc(bytes);
    ck_assert(fx->d && fx->gwork);
    ck_assert_int_eq(cdyn_data_init(&fx->gd, fx->m, fx->gwork, bytes), CDYN_OK);
    for (int k = 0; k < 5; ++k) {
        fx->X[k] = dalloc((size_t)fx->nn);
        fx->Y[k] = dalloc((size_t)fx->nn);
    }
    fx->Z[0] = dalloc((size_t)fx->nn);
    fx->Z[1] = dalloc((size_t)fx->nn);
    fx->q1 = dalloc((size_t)fx->nq);
    fx->dv = dalloc((size_t)fx->nv);
    fx->buf = dalloc(4 * (size_t)(fx->nq + fx->nv));
}

static void fixture_close(fixture *fx)
{
    for (int k = 0; k < 5; ++k) {
        free(fx->X[k]);
        free(fx->Y[k]);
    }
    free(fx->Z[0]);
    free(fx->Z[1]);
    free(fx->q1);
    free(fx->dv);
    free(fx->buf);
    free(fx->d);
    free(fx->gwork);
}

/* 1 if DoF a is DoF b or one of its ancestors (model->dof_parent). */
static int dof_ancestor(const cdyn_model *m, int a, int b)
{
    for (int k = b; k >= 0; k = m->dof_parent[k])
        if (k == a)
            return 1;
    return 0;
}

static long zeros_checked;

/* Entry (k, j) of an RNEA derivative is exactly 0 unless k and j are on one branch. */
static void check_structural_zeros(const fixture *fx, const double *X, const char *what,
                                   const char *name)
{
    const int nv = fx->nv;
    for (int k = 0; k < nv; ++k)
        for (int j = 0; j < nv; ++j) {
            if (dof_ancestor(fx->m, k, j) || dof_ancestor(fx->m, j, k))
                continue;
            ++zeros_checked;
            if (X[k * nv + j] != 0) {
                note_failure("%s: %s[%d][%d] = %.17g, but DoFs %d and %d are on different "
                             "branches",
                             what, name, k, j, X[k * nv + j], k, j);
                return;
            }
        }
}

/* ABA's rounding through M's factor: max_k M_kk / D_k of the generic factor at q (left in
 * the generic workspace by cdyn_aba_derivatives, which the caller ran last). */
static double pivot_growth(fixture *fx, const double *q)
{
    double *M = fx->Z[0], *D = fx->dv, growth = 1;
    ck_assert_int_eq(cdyn_ltl_factor(fx->m, &fx->gd, NULL, D), CDYN_OK);
    ck_assert_int_eq(cdyn_crba(fx->m, &fx->gd, q, M), CDYN_OK);
    for (int k = 0; k < fx->nv; ++k)
        if (M[k * fx->nv + k] / D[k] > growth)
            growth = M[k * fx->nv + k] / D[k];
    return growth;
}

static const char *const deriv_names[5] = { "rnea_dq", "rnea_dv", "aba_dq", "aba_dv",
                                            "aba_dtau" };

/* The generated derivatives at (q, v, a) and (q, v, tau) into fx->X (NaN-filled first, each
 * entry must be written), with the checks that need nothing else: status 0, every entry
 * finite, the structural zeros, ddq_dtau = NAME_minv and the NULL ddq_dtau call. */
static void generated_derivatives(fixture *fx, const char *what, const double *q, const double *v,
                                  const double *a, const double *tau)
{
    const generated_api *g = fx->g;
    const int nn = fx->nn;
    for (int k = 0; k < 5; ++k)
        fill_nan(fx->X[k], (size_t)nn);
    ck_assert_int_eq(g->rnea_derivatives(fx->d, q, v, a, fx->X[0], fx->X[1]), 0);
    for (int k = 0; k < 2; ++k)
        ck_assert_msg(all_finite(fx->X[k], nn), "%s: %s: an entry not written (NaN left)", what,
                      deriv_names[k]);
    check_structural_zeros(fx, fx->X[0], what, "rnea_dq");
    check_structural_zeros(fx, fx->X[1], what, "rnea_dv");
    if (!g->aba_derivatives)
        return; /* --massless-links ignore on a singular M: no forward dynamics */
    ck_assert_int_eq(g->aba_derivatives(fx->d, q, v, tau, fx->X[2], fx->X[3], fx->X[4]), 0);
    for (int k = 2; k < 5; ++k)
        ck_assert_msg(all_finite(fx->X[k], nn), "%s: %s: an entry not written (NaN left)", what,
                      deriv_names[k]);
    /* ddq_dtau is NAME_minv's M^-1, by the same generated steps */
    fill_nan(fx->Z[0], (size_t)nn);
    ck_assert_int_eq(g->minv(fx->d, q, fx->Z[0]), 0);
    check_bits(fx->X[4], fx->Z[0], nn, "%s: aba_dtau vs NAME_minv", what);
    /* without ddq_dtau: the same ddq_dq and ddq_dv */
    fill_nan(fx->Z[0], (size_t)nn);
    fill_nan(fx->Z[1], (size_t)nn);
    ck_assert_int_eq(g->aba_derivatives(fx->d, q, v, tau, fx->Z[0], fx->Z[1], NULL), 0);
    check_bits(fx->Z[0], fx->X[2], nn, "%s: aba_dq with ddq_dtau NULL", what);
    check_bits(fx->Z[1], fx->X[3], nn, "%s: aba_dv with ddq_dtau NULL", what);
}

/* fx->X (generated_derivatives just ran) against the generic runtime at the same inputs;
 * ABA's three at aba_tol. */
static void compare_generic(fixture *fx, const char *what, const double *q, const double *v,
                            const double *a, const double *tau, double aba_tol, worst_set *w)
{
    const cdyn_model *m = fx->m;
    const int nn = fx->nn, nv = fx->nv, naba = fx->g->aba_derivatives ? 5 : 2;
    for (int k = 0; k < 5; ++k)
        fill_nan(fx->Y[k], (size_t)nn);
    ck_assert_int_eq(cdyn_rnea_derivatives(m, &fx->gd, q, v, a, fx->Y[0], fx->Y[1]), CDYN_OK);
    if (naba == 5)
        ck_assert_int_eq(cdyn_aba_derivatives(m, &fx->gd, q, v, tau, fx->Y[2], fx->Y[3], fx->Y[4]),
                         CDYN_OK);
    for (int k = 0; k < naba; ++k) {
        double e = 0;
        check_close(fx->X[k], fx->Y[k], nn, nv, k < 2 ? GENERIC_TOL : aba_tol, &e,
                    "%s: %s vs generic", what, deriv_names[k]);
        keep_worst(w, k < 2 ? W_RNEA : W_ABA, e, what);
    }
}

/* difference, integrate_derivatives, difference_derivatives against the generic runtime at
 * q and q1, and difference(q, integrate(q, v, 1)) = v by the generated functions. */
static void check_manifold(fixture *fx, const char *what, const double *q, const double *q1,
                           const double *v, worst_set *w)
{
    const generated_api *g = fx->g;
    const cdyn_model *m = fx->m;
    const int nn = fx->nn, nv = fx->nv;
    double *x = fx->buf, *y = x + nv, *qn = y + nv, e = 0;
    fill_nan(x, (size_t)nv);
    ck_assert_int_eq(g->difference(q, q1, x), 0);
    ck_assert_int_eq(cdyn_difference(m, q, q1, y), CDYN_OK);
    check_close(x, y, nv, 1, GENERIC_TOL, &e, "%s: difference vs generic", what);
    keep_worst(w, W_MANIFOLD, e, what);
    for (int k = 0; k < 4; ++k) {
        fill_nan(fx->X[k], (size_t)nn);
        fill_nan(fx->Y[k], (size_t)nn);
    }
    ck_assert_int_eq(g->integrate_derivatives(q, v, fx->X[0], fx->X[1]), 0);
    ck_assert_int_eq(cdyn_integrate_derivatives(m, q, v, fx->Y[0], fx->Y[1]), CDYN_OK);
    ck_assert_int_eq(g->difference_derivatives(q, q1, fx->X[2], fx->X[3]), 0);
    ck_assert_int_eq(cdyn_difference_derivatives(m, q, q1, fx->Y[2], fx->Y[3]), CDYN_OK);
    static const char *const names[4] = { "dq_next_dq", "dq_next_dv", "dv_dq0", "dv_dq1" };
    for (int k = 0; k < 4; ++k) {
        e = 0;
        check_close(fx->X[k], fx->Y[k], nn, nv, GENERIC_TOL, &e, "%s: %s vs generic", what,
                    names[k]);
        keep_worst(w, W_MANIFOLD, e, what);
    }
    /* integrate's inverse, the generated functions alone */
    g->integrate(q, v, 1.0, qn);
    fill_nan(x, (size_t)nv);
    ck_assert_int_eq(g->difference(q, qn, x), 0);
    e = 0;
    check_close(x, v, nv, 1, MANIFOLD_TOL, &e, "%s: difference(q, integrate(q, v, 1)) vs v", what);
    keep_worst(w, W_ROUNDTRIP, e, what);
}

/* ---- d. bad input -------------------------------------------------------------------------- */

static int nan_entries, nan_not_read;

/* The status of a call with a NaN in one input entry, whose clean call left clean[0..nout)
 * (nn each) and whose NaN call left out[0..nout): an error as documented (CDYN_E_NONFINITE;
 * CDYN_E_SINGULAR allowed for aba_derivatives with a NaN in q, a NaN pivot as NAME_aba), or
 * 0 when the generated code never reads that entry (folded away, the derivatives not
 * depending on it), and then the outputs are the clean call's, bit for bit. An error must
 * come with one of the generic runtime, which reads every entry. */
static void check_nan_status(const char *what, const char *fn, const char *input, int i, int r,
                             int rg, int singular_ok, double *const *out, double *const *clean,
                             int nout, int nn)
{
    ++nan_entries;
    if (r == 0) {
        ++nan_not_read;
        for (int k = 0; k < nout; ++k)
            if (memcmp(out[k], clean[k], sizeof *out[k] * (size_t)nn) != 0) {
                note_failure("%s: %s with NaN in %s[%d]: 0, but output %d is not the clean "
                             "call's (%s)",
                             what, fn, input, i, k,
                             all_finite(out[k], nn) ? "finite" : "a NaN or infinity in it");
                return;
            }
    } else if (!(r == CDYN_E_NONFINITE || (singular_ok && r == CDYN_E_SINGULAR))) {
        note_failure("%s: %s with NaN in %s[%d]: status %d", what, fn, input, i, r);
    } else if (rg == CDYN_OK) {
        note_failure("%s: %s with NaN in %s[%d]: %d, but the generic runtime 0", what, fn, input,
                     i, r);
    }
}

/* A NaN in each entry of q, v and a/tau in turn, then NULL outputs. */
static void check_bad_input(fixture *fx, const char *what, double *q, double *v, double *a,
                            double *tau)
{
    const generated_api *g = fx->g;
    const cdyn_model *m = fx->m;
    const int nn = fx->nn, aba = g->aba_derivatives != NULL;
    double *vecs[4] = { q, v, a, tau };
    const int lens[4] = { fx->nq, fx->nv, fx->nv, fx->nv };
    static const char *const vnames[4] = { "q", "v", "a", "tau" };
    /* the clean calls' outputs: Y[0..1] rnea, Y[2..4] aba */
    ck_assert_int_eq(g->rnea_derivatives(fx->d, q, v, a, fx->Y[0], fx->Y[1]), 0);
    if (aba)
        ck_assert_int_eq(g->aba_derivatives(fx->d, q, v, tau, fx->Y[2], fx->Y[3], fx->Y[4]), 0);
    for (int which = 0; which < 4; ++which)
        for (int i = 0; i < lens[which]; ++i) {
            const double keep = vecs[which][i];
            vecs[which][i] = NAN;
            if (which != 3) { /* rnea_derivatives reads q, v, a */
                for (int k = 0; k < 2; ++k)
                    fill_nan(fx->X[k], (size_t)nn);
                const int r = g->rnea_derivatives(fx->d, q, v, a, fx->X[0], fx->X[1]);
                const int rg = cdyn_rnea_derivatives(m, &fx->gd, q, v, a, fx->Z[0], fx->Z[1]);
                check_nan_status(what, "rnea_derivatives", vnames[which], i, r, rg, 0, fx->X,
                                 fx->Y, 2, nn);
            }
            if (which != 2 && aba) { /* aba_derivatives reads q, v, tau */
                for (int k = 2; k < 5; ++k)
                    fill_nan(fx->X[k], (size_t)nn);
                const int r = g->aba_derivatives(fx->d, q, v, tau, fx->X[2], fx->X[3], fx->X[4]);
                const int rg = cdyn_aba_derivatives(m, &fx->gd, q, v, tau, fx->Z[0], fx->Z[1], NULL);
                check_nan_status(what, "aba_derivatives", vnames[which], i, r, rg, which == 0,
                                 fx->X + 2, fx->Y + 2, 3, nn);
            }
            vecs[which][i] = keep;
        }
    /* NULL outputs */
    double *X0 = fx->X[0], *X1 = fx->X[1];
    ck_assert_int_eq(g->rnea_derivatives(fx->d, q, v, a, NULL, X1), CDYN_E_ARG);
    ck_assert_int_eq(g->rnea_derivatives(fx->d, q, v, a, X0, NULL), CDYN_E_ARG);
    ck_assert_int_eq(g->rnea_derivatives(fx->d, q, v, a, NULL, NULL), CDYN_E_ARG);
    if (aba) {
        ck_assert_int_eq(g->aba_derivatives(fx->d, q, v, tau, NULL, X1, fx->X[4]), CDYN_E_ARG);
        ck_assert_int_eq(g->aba_derivatives(fx->d, q, v, tau, X0, NULL, fx->X[4]), CDYN_E_ARG);
        ck_assert_int_eq(g->aba_derivatives(fx->d, q, v, tau, NULL, NULL, NULL), CDYN_E_ARG);
    }
    /* and the inputs restored: back to 0 */
    ck_assert_int_eq(g->rnea_derivatives(fx->d, q, v, a, X0, X1), 0);
    if (aba)
        ck_assert_int_eq(g->aba_derivatives(fx->d, q, v, tau, X0, X1, NULL), 0);
}

/* ---- a, b, c, d on the reference robots ---------------------------------------------------- */

static ref_file *load_ref(const char *robot, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", REF_DIR, robot, file);
    ref_file *f = ref_load(path);
    ck_assert_msg(f != NULL, "cannot read %s", path);
    return f;
}

static const double *need(const ref_file *f, int state, const char *name, int rows, int cols)
{
    const ref_record *r = ref_get(f, state, name);
    ck_assert_msg(r != NULL, "state %d: no record %s", state, name);
    ck_assert_msg(r->rows == rows && r->cols == cols, "%s is %dx%d, expected %dx%d", name, r->rows,
                  r->cols, rows, cols);
    return r->v;
}

static int reference_robots_run;

START_TEST(test_reference)
{
    const generated_api *g = deriv_reference_robots[_i];
    fixture fx;
    fixture_open(&fx, g);
    ref_file *f = load_ref(g->name, "derivatives.txt");
    ck_assert_int_eq(ref_nstates(f), 4);
    const int nq = fx.nq, nv = fx.nv, nn = fx.nn;
    double *q = dalloc((size_t)nq), *v = dalloc((size_t)nv), *a = dalloc((size_t)nv);
    double *tau = dalloc((size_t)nv), vs_ref[5] = { 0 };
    worst_set w;
    memset(&w, 0, sizeof w);
    ck_assert_msg(g->aba_derivatives != NULL, "%s: no aba_derivatives", g->name);
    for (int s = 0; s < 4; ++s) {
        char what[96];
        snprintf(what, sizeof what, "%s state %d", g->name, s);
        memcpy(q, need(f, s, "q", nq, 1), sizeof *q * (size_t)nq);
        memcpy(v, need(f, s, "v", nv, 1), sizeof *v * (size_t)nv);
        memcpy(a, need(f, s, "a", nv, 1), sizeof *a * (size_t)nv);
        memcpy(tau, need(f, s, "tau", nv, 1), sizeof *tau * (size_t)nv);
        generated_derivatives(&fx, what, q, v, a, tau);
        for (int k = 0; k < 5; ++k)
            check_close(fx.X[k], need(f, s, deriv_names[k], nv, nv), nn, nv, REF_TOL, &vs_ref[k],
                        "%s: %s vs Pinocchio", what, deriv_names[k]);
        compare_generic(&fx, what, q, v, a, tau, GENERIC_TOL, &w);
        /* the next state's q (the first's for the last) for difference */
        memcpy(fx.q1, need(f, (s + 1) % 4, "q", nq, 1), sizeof *q * (size_t)nq);
        check_manifold(&fx, what, q, fx.q1, v, &w);
        if (s == 0)
            check_bad_input(&fx, what, q, v, a, tau);
    }
    fprintf(stderr,
            "%s: worst |x - ref| / (1 + max|ref|) over 4 states: vs Pinocchio rnea_dq %.2e "
            "rnea_dv %.2e aba_dq %.2e aba_dv %.2e aba_dtau %.2e; vs generic rnea %.2e aba %.2e "
            "manifold %.2e, difference(integrate) %.2e\n",
            g->name, vs_ref[0], vs_ref[1], vs_ref[2], vs_ref[3], vs_ref[4], w.e[W_RNEA],
            w.e[W_ABA], w.e[W_MANIFOLD], w.e[W_ROUNDTRIP]);
    for (int k = 0; k < NW; ++k)
        keep_worst(&worst_ref_generic, k, w.e[k], w.where[k]);
    ++reference_robots_run;
    free(q);
    free(v);
    free(a);
    free(tau);
    ref_free(f);
    fixture_close(&fx);
    failures_flush();
}
END_TEST

/* ---- b, c, d on the random robots and the corpus files ------------------------------------- */

static int type_seen[5], random_robots_run, random_extreme_run;

static void count_joints(const cdyn_model *m)
{
    for (int i = 0; i < m->nbodies; ++i)
        if ((int)m->bodies[i].type >= 0 && (int)m->bodies[i].type < 5)
            ++type_seen[m->bodies[i].type];
}

/* 1 for a seeded random robot ("randomN") that random_robot.h marks extreme. */
static int is_extreme_robot(const char *name)
{
    return strncmp(name, "random", 6) == 0 &&
           random_robot_is_extreme((unsigned)strtoul(name + 6, NULL, 10)) == 1;
}

START_TEST(test_random)
{
    const generated_api *g = deriv_random_robots[_i];
    fixture fx;
    fixture_open(&fx, g);
    const cdyn_model *m = fx.m;
    const int nv = fx.nv, random = strncmp(g->name, "random", 6) == 0;
    const unsigned seed =
        random ? (unsigned)strtoul(g->name + strlen("random"), NULL, 10) : 0x5eedu + (unsigned)_i;
    const int extreme = is_extreme_robot(g->name);
    /* not test_generated_random's states: another stream of the same generator */
    unsigned rng = 0x2545F491u + 7919u * seed;
    double *q = dalloc((size_t)fx.nq), *q0 = dalloc((size_t)fx.nq), *step = dalloc((size_t)nv);
    double *v = dalloc((size_t)nv), *a = dalloc((size_t)nv), *tau = dalloc((size_t)nv);
    double *junk = dalloc((size_t)nv);
    count_joints(m);
    ck_assert_int_eq(cdyn_neutral(m, q0), CDYN_OK);
    for (int s = 0; s < RANDOM_STATES; ++s) {
        char what[160];
        snprintf(what, sizeof what, "%s (nv %d%s) state %d", g->name, nv,
                 extreme ? ", extreme" : "", s);
        xorshift32_state(&rng, nv, step, v, tau, a);
        ck_assert_int_eq(cdyn_integrate(m, q0, step, 1.0, q), CDYN_OK);
        generated_derivatives(&fx, what, q, v, a, tau);
        double aba_tol = GENERIC_TOL;
        if (extreme && g->aba_derivatives) {
            ck_assert_int_eq(cdyn_aba_derivatives(m, &fx.gd, q, v, tau, fx.Y[2], fx.Y[3], NULL),
                             CDYN_OK);
            const double growth = pivot_growth(&fx, q);
            aba_tol = GENERIC_TOL * growth;
            const size_t len = strlen(what);
            snprintf(what + len, sizeof what - len, ", pivot growth %.3g", growth);
        }
        compare_generic(&fx, what, q, v, a, tau, aba_tol, extreme ? &worst_extreme : &worst_random);
        /* another random configuration for difference */
        xorshift32_state(&rng, nv, step, junk, junk, junk);
        ck_assert_int_eq(cdyn_integrate(m, q0, step, 1.0, fx.q1), CDYN_OK);
        check_manifold(&fx, what, q, fx.q1, v, extreme ? &worst_extreme : &worst_random);
        if (s == 0 && _i < NAN_ROBOTS)
            check_bad_input(&fx, what, q, v, a, tau);
    }
    ++random_robots_run;
    random_extreme_run += extreme;
    free(q);
    free(q0);
    free(step);
    free(v);
    free(a);
    free(tau);
    free(junk);
    fixture_close(&fx);
    failures_flush();
}
END_TEST

/* ---- e. the constrained derivatives on the reference contact cases ------------------------- */

static int contact_cases_run, contact_cases_skipped;

/* ProximalSettings(absolute 1e-12, relative 1e-12, mu 1e-12, max_iter 200) */
static cdyn_prox_settings pinocchio_settings(void)
{
    cdyn_prox_settings s = { 1e-12, 200, 1e-12, 1e-12, NULL, NULL, 0 };
    return s;
}

START_TEST(test_contact)
{
    const generated_api *g = deriv_contact_robots[_i];
    if (!g->prox_ltl_derivatives) {
        fprintf(stderr,
                "%s: api->prox_ltl_derivatives is NULL (NAME_prox_ltl_derivatives not in the "
                "adapter yet): its checks are skipped\n",
                g->name);
        ++contact_cases_skipped;
        return;
    }
    const char *sep = strstr(g->name, "__");
    ck_assert_ptr_nonnull(sep);
    char robot[64], ref_case[64], file[128];
    snprintf(robot, sizeof robot, "%.*s", (int)(sep - g->name), g->name);
    snprintf(ref_case, sizeof ref_case, "%s", sep + 2);
    const int redundant = strstr(ref_case, "redundant") != NULL;
    fixture fx;
    fixture_open(&fx, g);
    const cdyn_model *m = fx.m;
    const int nv = fx.nv, nc = g->nc, nq = fx.nq;
    cdyn_constraint_data cd;
    void *cwork = malloc(g->generic_constraint_bytes);
    ck_assert_ptr_nonnull(cwork);
    ck_assert_int_eq(cdyn_constraint_data_init(&cd, m, g->constraints, g->nconstraints, cwork,
                                               g->generic_constraint_bytes),
                     CDYN_OK);
    /* the redundant case: derivatives_F6x2.txt's states and ddq's derivatives; lambda's rows
     * are [left sole, left sole again, right sole] against F6x2's [left, right] */
    snprintf(file, sizeof file, "derivatives_%s.txt", redundant ? "F6x2" : ref_case);
    ref_file *f = load_ref(robot, file);
    const int ref_nc = ref_header_int(f, "constraint_dim", -1);
    ck_assert_int_eq(ref_nc, redundant ? nc - 6 : nc);
    ck_assert_int_eq(ref_nstates(f), 4);
    const cdyn_prox_settings st = pinocchio_settings();
    static const char *const names[8] = { "ddq",      "lambda",    "ddq_dq",    "ddq_dv",
                                          "ddq_dtau", "lambda_dq", "lambda_dv", "lambda_dtau" };
    double *q = dalloc((size_t)nq), *v = dalloc((size_t)nv), *tau = dalloc((size_t)nv);
    double *X[8], *Y[8], *sum = dalloc((size_t)ref_nc * (size_t)nv), vs_ref[8] = { 0 };
    worst_set w;
    memset(&w, 0, sizeof w);
    for (int k = 0; k < 8; ++k) {
        const size_t n = k == 0 ? (size_t)nv : k == 1 ? (size_t)nc : (size_t)(k < 5 ? nv : nc) * (size_t)nv;
        X[k] = dalloc(n);
        Y[k] = dalloc(n);
    }
    for (int s = 0; s < 4; ++s) {
        char what[128];
        snprintf(what, sizeof what, "%s state %d", g->name, s);
        memcpy(q, need(f, s, "q", nq, 1), sizeof *q * (size_t)nq);
        memcpy(v, need(f, s, "v", nv, 1), sizeof *v * (size_t)nv);
        memcpy(tau, need(f, s, "tau", nv, 1), sizeof *tau * (size_t)nv);
        for (int k = 2; k < 8; ++k) {
            fill_nan(X[k], (size_t)(k < 5 ? nv : nc) * (size_t)nv);
            fill_nan(Y[k], (size_t)(k < 5 ? nv : nc) * (size_t)nv);
        }
        /* the duplicated contact: lambda is not unique, so its dual test may never pass
         * (CDYN_E_NOT_CONVERGED, ddq and lambda the last iterate, as the generic runtime) */
        const int it = g->prox_ltl(fx.d, &st, q, v, tau, X[0], X[1]);
        ck_assert_msg(it >= 1 || (redundant && it == CDYN_E_NOT_CONVERGED),
                      "%s: NAME_prox_ltl returned %d", what, it);
        const int r = g->prox_ltl_derivatives(fx.d, &st, q, v, X[0], X[1], X[2], X[3], X[4], X[5],
                                              X[6], X[7]);
        const int itg = cdyn_prox_ltl(m, &fx.gd, &cd, &st, q, v, tau, Y[0], Y[1]);
        ck_assert_msg(itg >= 1 || (redundant && itg == CDYN_E_NOT_CONVERGED),
                      "%s: cdyn_prox_ltl returned %d", what, itg);
        const int rg = cdyn_prox_ltl_derivatives(m, &fx.gd, &cd, &st, q, v, Y[0], Y[1], Y[2], Y[3],
                                                 Y[4], Y[5], Y[6], Y[7]);
        if (redundant) {
            /* G is singular: a reported error is allowed (cdyn.h documents none), as long as
             * the generic runtime reports one too; else the results below */
            fprintf(stderr,
                    "%s: duplicated 6d contact: prox_ltl %d (generic %d), prox_ltl_derivatives %d "
                    "(generic %d)\n",
                    what, it, itg, r, rg);
            ck_assert_msg(r == 0 || (r < 0 && r != CDYN_E_ARG), "%s: status %d", what, r);
            if (r != 0)
                continue;
        } else {
            ck_assert_msg(r == 0, "%s: NAME_prox_ltl_derivatives returned %d", what, r);
            ck_assert_msg(rg == CDYN_OK, "%s: cdyn_prox_ltl_derivatives returned %d", what, rg);
        }
        for (int k = 2; k < 8; ++k)
            ck_assert_msg(all_finite(X[k], (k < 5 ? nv : nc) * nv),
                          "%s: %s: an entry not written (NaN left)", what, names[k]);
        for (int k = 0; k < (redundant ? 5 : 8); ++k) {
            if (redundant && k == 1)
                continue; /* lambda: its duplicated blocks summed, below */
            const int rows = k == 0 ? nv : k == 1 ? nc : k < 5 ? nv : nc, cols = k < 2 ? 1 : nv;
            check_close(X[k], need(f, s, names[k], rows, cols), rows * cols, cols, REF_TOL,
                        &vs_ref[k], "%s: %s vs Pinocchio", what, names[k]);
            if (rg == CDYN_OK) {
                double e = 0;
                check_close(X[k], Y[k], rows * cols, cols, GENERIC_TOL, &e, "%s: %s vs generic",
                            what, names[k]);
                keep_worst(&w, W_PROX, e, what);
            }
        }
        if (redundant)
            for (int k = 1; k < 8; k += k == 1 ? 4 : 1) { /* rows [0, 6) + [6, 12) = F6x2's [0, 6) */
                const int cols = k == 1 ? 1 : nv;
                for (int j = 0; j < 6 * cols; ++j) {
                    sum[j] = X[k][j] + X[k][6 * cols + j];
                    sum[6 * cols + j] = X[k][12 * cols + j];
                }
                check_close(sum, need(f, s, names[k], ref_nc, cols), ref_nc * cols, cols, REF_TOL,
                            &vs_ref[k], "%s: %s, the duplicated blocks summed, vs Pinocchio F6x2",
                            what, names[k]);
            }
    }
    fprintf(stderr,
            "%s: worst |x - ref| / (1 + max|ref|): vs Pinocchio ddq %.2e lambda %.2e ddq_dq %.2e "
            "ddq_dv %.2e ddq_dtau %.2e lambda_dq %.2e lambda_dv %.2e lambda_dtau %.2e; vs generic "
            "%.2e\n",
            g->name, vs_ref[0], vs_ref[1], vs_ref[2], vs_ref[3], vs_ref[4], vs_ref[5], vs_ref[6],
            vs_ref[7], w.e[W_PROX]);
    keep_worst(&worst_contact_generic, W_PROX, w.e[W_PROX], w.where[W_PROX]);
    ++contact_cases_run;
    for (int k = 0; k < 8; ++k) {
        free(X[k]);
        free(Y[k]);
    }
    free(q);
    free(v);
    free(tau);
    free(sum);
    free(cwork);
    ref_free(f);
    fixture_close(&fx);
    failures_flush();
}
END_TEST

/* ---- what ran, and the worst errors -------------------------------------------------------- */

static void print_worst(const char *title, const worst_set *w, int from, int to)
{
    fprintf(stderr, "%s:", title);
    for (int k = from; k < to; ++k)
        fprintf(stderr, " %s %.2e (%s)%s", worst_names[k], w->e[k], w->where[k],
                k + 1 < to ? ";" : "\n");
}

START_TEST(test_coverage)
{
    static const char *const type_names[5] = { "revolute", "continuous", "prismatic", "planar",
                                               "free-flyer" };
    print_worst("generated vs generic, reference robots", &worst_ref_generic, 0, W_PROX);
    print_worst("generated vs generic, random robots (not extreme)", &worst_random, 0, W_PROX);
    print_worst("generated vs generic, extreme random seeds", &worst_extreme, 0, W_PROX);
    print_worst("generated vs generic, contact cases", &worst_contact_generic, W_PROX, NW);
    fprintf(stderr,
            "robots: %d reference, %d random and corpus (%d extreme); contact cases %d checked, "
            "%d skipped (no prox_ltl_derivatives); joints met: revolute %d, continuous %d, "
            "prismatic %d, planar %d, free-flyer %d; structural zeros checked %ld; NaN entries "
            "%d (%d calls returned 0: the entry not read, the clean call's outputs)\n",
            reference_robots_run, random_robots_run, random_extreme_run, contact_cases_run,
            contact_cases_skipped, type_seen[0], type_seen[1], type_seen[2], type_seen[3],
            type_seen[4], zeros_checked, nan_entries, nan_not_read);
    ck_assert_int_eq(random_robots_run, registry_count(deriv_random_robots));
    ck_assert_int_eq(reference_robots_run, registry_count(deriv_reference_robots));
    if (random_robots_run > 0) {
        for (int t = 0; t < 5; ++t)
            ck_assert_msg(type_seen[t] > 0, "no %s joint among the robots", type_names[t]);
        /* every extreme seed in the build ran its wider tolerance (the sanitizers' short
         * seed list may hold none; the default list does) */
        int extreme_built = 0;
        for (int r = 0; deriv_random_robots[r]; ++r)
            extreme_built += is_extreme_robot(deriv_random_robots[r]->name);
        ck_assert_int_eq(random_extreme_run, extreme_built);
    }
    ck_assert_int_gt(zeros_checked, 0);
    ck_assert_int_eq(contact_cases_run + contact_cases_skipped,
                     registry_count(deriv_contact_robots));
}
END_TEST

int main(void)
{
    const int nref = registry_count(deriv_reference_robots);
    const int ncontact = registry_count(deriv_contact_robots);
    const int nrandom = registry_count(deriv_random_robots);
    Suite *s = suite_create("generated_derivatives");
    TCase *tc = tcase_create("robots");
    tcase_set_timeout(tc, 600);
    if (nref > 0) {
        tcase_add_loop_test(tc, test_reference, 0, nref);
        tcase_add_loop_test(tc, test_contact, 0, ncontact);
    } else {
        printf("test_generated_derivatives: %s absent at configure time: the Pinocchio "
               "comparisons are skipped\n",
               REF_DIR);
    }
    tcase_add_loop_test(tc, test_random, 0, nrandom);
    tcase_add_test(tc, test_coverage);
    suite_add_tcase(s, tc);
    /* no fork: test_coverage reads the counts the others leave */
    if (check_run(s, CK_NOFORK))
        return EXIT_FAILURE;
    return nref > 0 ? EXIT_SUCCESS : SKIP_RETURN_CODE;
}
