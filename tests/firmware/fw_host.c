/* fw_host.c — the host side of the firmware runs, for one robot (FW_MODEL, compiled with its
 * double model table from generated/NAME):
 *
 *   fw_host states float|double FILE   writes fw_states.h: random states on the manifold,
 *                                      rounded to the target's scalar, as exact hex literals
 *   fw_host compare float|double FILE  reads the target's output (harness.c.in) and compares
 *                                      every result with the double generic runtime on the
 *                                      same inputs, against the bounds below
 *
 * The bounds (README, "Float accuracy") are in units of the target scalar's epsilon u, on
 * the error relative to the output's size, max|y - x| / max|x|:
 *   - forward quantities (placements, Jacobians, RNEA, CRBA, integrate, J, gamma):
 *     FWD_BOUND u: sums of products along the tree, whose rounding grows with the number
 *     of terms (a few hundred at the humanoid's depth);
 *   - what solves with M (the factor, its solve, M^-1, ABA): FWD_BOUND u times the pivot
 *     growth of the factorisation, g = max_k M_kk / D_k (measured here, in double), by which
 *     the backward error of an LTDL solve is amplified;
 *   - the Delassus matrix and the proximal solvers: FWD_BOUND u times g times the growth of
 *     G + mu I's factor, max_k G_kk / GD_k, and, for the augmented-Lagrangian solvers
 *     (prox_ltls, constrained_aba), times 1 + |G| / mu: their multiplier step multiplies the
 *     rounding of J ddq by 1/mu (cdyn.h).
 * The derivatives and the projections, each output of a call (an nv x nv or nc x nv matrix)
 * compared on its own scale, the call's bound the largest its outputs need:
 *   - rnea_derivatives, integrate_derivatives, difference_derivatives: FWD_BOUND u. The
 *     first is RNEA's recursion differentiated (its sums of products along the tree, a few
 *     more terms per entry); the manifold's are closed forms per joint (1 for a revolute
 *     joint; the SE(3) exponential's Jacobians for a free-flyer, at rotations of at most
 *     sqrt 3 rad, away from the logarithm's cut at pi);
 *   - aba_derivatives: dddq/dtau = M^-1 and dddq/dv = -M^-1 dtau/dv are solves with M
 *     (FWD_BOUND u g). dddq/dq = -M^-1 dtau/dq(a) is taken at the a = ddq that ABA computed,
 *     off by up to FWD_BOUND u g relative; dtau/dq is affine in a, so that error reaches its
 *     right-hand side scaled by s = max|dtau/dq(a) - dtau/dq(0)| / max|dtau/dq(a)| (measured
 *     here; 0.06 to 2.2), and the solve amplifies the sum: FWD_BOUND u g (1 + g s). The
 *     nearest its bound is dddq/dv on quadruped12, where |M^-1| |dtau/dv| is up to 28
 *     times the result (cancellation the pivot growth does not see): 0.3 of it;
 *   - prox_ltl_derivatives: one KKT solve per column with prox_ltl's own factors, M's and
 *     G + mu I's, and its proximal iterations (at the same mu and count), on a right-hand
 *     side formed as RNEA's derivatives are: the proximal solvers' bound, FWD_BOUND u g g_G.
 *     Its ddq and lambda are inputs (prox_ltl's, from the host), so no solver error enters;
 *   - project_position, project_velocity: each Gauss-Newton step and the velocity's one
 *     correction is M^-1 J^T lambda with (G + mu I) lambda = target, prox_ltl's solve and
 *     back-substitution, at the solvers' mu: FWD_BOUND u g g_G. Gauss-Newton contracts the
 *     earlier steps' rounding; the last leaves the constraint error at FK's rounding, which
 *     the same solve maps to q.
 * Each bound is checked on every state; the largest error and error/bound are printed. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cdyn.h"
#include FW_MODEL_HEADER

#define FWD_BOUND 1000.0
#define NSTATES 12
#define ITERATIONS 3
#define MAXVAL 4096
#define PROJECT_OFFSET 1e-2 /* its input's distance from the manifold, per coordinate */

static double uniform(unsigned *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return (double)*s / 2147483648.0 - 1.0;
}

static double round_to(int is_float, double x)
{
    return is_float ? (double)(float)x : x;
}

/* The proximal damping: Pinocchio's 1e-6 in double; in float, 1e-3, so that the penalty
 * 1/mu of the augmented-Lagrangian solvers does not eat float's seven digits. */
static double mu_of(int is_float)
{
    return is_float ? 1e-3 : 1e-6;
}

static double project_tol(int is_float)
{
    return is_float ? 1e-5 : 1e-12;
}

typedef struct {
    double *q, *v, *a, *tau; /* [NSTATES][nq or nv] */
    double *qn;          /* integrate(q, v, 1): difference_derivatives' other end */
    double *qp;          /* project_position's input: q moved off the set's manifold */
    double *ddq, *lambda; /* prox_ltl's results at (q, v, tau): its derivatives' input */
} states;

/* The same states in both modes: a fixed seed, the configuration integrated from neutral. */
static void make_states(const cdyn_model *m, int is_float, states *st)
{
    unsigned seed = 20240817u;
    double *q0 = malloc(sizeof(double) * (size_t)m->nq),
           *dq = malloc(sizeof(double) * (size_t)m->nv);
    int s, k;
    st->q = malloc(sizeof(double) * (size_t)(NSTATES * m->nq));
    st->v = malloc(sizeof(double) * (size_t)(NSTATES * m->nv));
    st->a = malloc(sizeof(double) * (size_t)(NSTATES * m->nv));
    st->tau = malloc(sizeof(double) * (size_t)(NSTATES * m->nv));
    st->qn = st->qp = st->ddq = st->lambda = NULL; /* make_inputs */
    if (!q0 || !dq || !st->q || !st->v || !st->a || !st->tau) {
        fprintf(stderr, "fw_host: out of memory\n");
        exit(2);
    }
    cdyn_neutral(m, q0);
    for (s = 0; s < NSTATES; s++) {
        for (k = 0; k < m->nv; k++) {
            dq[k] = 2 * uniform(&seed);
            st->v[s * m->nv + k] = round_to(is_float, uniform(&seed));
            st->a[s * m->nv + k] = round_to(is_float, uniform(&seed));
            st->tau[s * m->nv + k] = round_to(is_float, uniform(&seed));
        }
        cdyn_integrate(m, q0, dq, 1.0, st->q + s * m->nq);
        for (k = 0; k < m->nq; k++)
            st->q[s * m->nq + k] = round_to(is_float, st->q[s * m->nq + k]);
    }
    free(q0);
    free(dq);
}

static void free_states(states *st)
{
    free(st->q);
    free(st->v);
    free(st->a);
    free(st->tau);
    free(st->qn);
    free(st->qp);
    free(st->ddq);
    free(st->lambda);
}

/* ---- the generic runtime, and the inputs it computes ---- */

/* The generic runtime's side, in double. */
typedef struct {
    const cdyn_model *m;
    cdyn_data d;
    cdyn_constraint_data cd;
    void *work, *constraint_work; /* the buffers d and cd are carved from */
    int nc, is_float;
    double growth, g_growth, g_size; /* of M's factor; of G + mu I's; max|G| */
    double a_share; /* of dtau/dq at a = ABA's ddq, the part a contributes (see bound_of) */
    int nblocks, block[6]; /* the last result's outputs, compared each on its own */
} reference;

/* One state's inputs. */
typedef struct {
    const double *q, *v, *a, *tau, *qn, *qp, *ddq, *lambda;
} inputs;

static inputs inputs_of(const reference *r, const states *st, int s)
{
    const int nq = r->m->nq, nv = r->m->nv;
    inputs in;
    in.q = st->q + s * nq;
    in.v = st->v + s * nv;
    in.a = st->a + s * nv;
    in.tau = st->tau + s * nv;
    in.qn = st->qn + s * nq;
    in.qp = st->qp + s * nq;
    in.ddq = st->ddq + s * nv;
    in.lambda = st->lambda + s * r->nc;
    return in;
}

static void *checked_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "fw_host: out of memory\n");
        exit(2);
    }
    return p;
}

static void reference_init(reference *r, const cdyn_model *m, int is_float)
{
    size_t bytes = cdyn_data_size(m);
    r->m = m;
    r->is_float = is_float;
    r->nc = 0;
    r->work = checked_malloc(bytes);
    r->constraint_work = NULL;
    if (cdyn_data_init(&r->d, m, r->work, bytes) != CDYN_OK)
        exit(2);
#if FW_NCONSTRAINTS > 0
    bytes = cdyn_constraint_data_size(m, FW_CONSTRAINTS, FW_NCONSTRAINTS);
    r->constraint_work = checked_malloc(bytes);
    if (cdyn_constraint_data_init(&r->cd, m, FW_CONSTRAINTS, FW_NCONSTRAINTS, r->constraint_work,
                                  bytes) != CDYN_OK)
        exit(2);
    r->nc = cdyn_constraint_dim(&r->cd);
#endif
}

static void reference_free(reference *r)
{
    free(r->work);
    free(r->constraint_work);
}

static int contacts_only(const reference *r)
{
    int k;
    for (k = 0; k < r->cd.n; k++)
        if (r->cd.set[k].frame_b >= 0)
            return 0;
    return 1;
}

static void round_all(int is_float, double *x, int n)
{
    int k;
    for (k = 0; k < n; k++)
        x[k] = round_to(is_float, x[k]);
}

/* The settings of the projections: the defaults' tolerance and counts for the target's
 * scalar (CDYN_PROJECT_SETTINGS_DEFAULT: 1e-5 in float, 1e-12 in double; 10 steps, 10
 * proximal iterations), at the solvers' mu (mu_of), whose G + mu I the bounds measure.
 * Gauss-Newton squares the error each step (1e-2 -> 1e-4 -> 1e-8 here), so both sides stop
 * after the same steps unless an error lands within rounding of tol; the counts are
 * compared. */
static cdyn_project_settings project_settings(int is_float)
{
    const cdyn_project_settings s = { project_tol(is_float), 10, mu_of(is_float), 10 };
    return s;
}

/* A configuration on the set's manifold, in double, into q_on: q itself, with the contacts'
 * references captured there; for a set with a loop, which a random q does not close, the
 * projection of the configuration 0.3 of the way from neutral (the sample four-bar's
 * assembled pose) to q. Gauss-Newton from q itself reaches the loop too, but far off, at
 * joint angles up to 60 rad; from 0.3 of the way it stays within 2.2 rad. w: nv scratch. */
static void on_manifold(reference *r, const double *q, double *q_on, double *w)
{
    const cdyn_model *m = r->m;
    int rc = 0, k;
    memcpy(q_on, q, sizeof(double) * (size_t)m->nq);
    if (r->nc == 0)
        return;
    cdyn_constraint_capture(m, &r->d, &r->cd, q);
    if (!contacts_only(r)) {
        cdyn_neutral(m, q_on);
        cdyn_difference(m, q_on, q, w);
        for (k = 0; k < m->nv; k++)
            w[k] *= 0.3;
        cdyn_integrate(m, q_on, w, 1.0, q_on);
        rc = cdyn_project_position(m, &r->d, &r->cd, NULL, q_on, q_on);
    }
    if (rc < 0) {
        fprintf(stderr, "fw_host: no configuration on the manifold (%d)\n", rc);
        exit(2);
    }
}

/* The inputs beyond q, v, a and tau, computed here in double and rounded to the target's
 * scalar, so that both sides evaluate the same bits: integrate(q, v, 1) for
 * difference_derivatives (a rotation of at most |v| = sqrt 3 rad, away from the log's
 * cut at pi); q on the manifold moved off it by a random step of PROJECT_OFFSET per
 * coordinate for project_position (Gauss-Newton's region); prox_ltl's ddq and lambda at
 * (q, v, tau) for its derivatives. Their own seed: fw_q .. fw_tau are unchanged. */
static void make_inputs(reference *r, states *st)
{
    const cdyn_model *m = r->m;
    const int nq = m->nq, nv = m->nv, nc = r->nc;
    const cdyn_prox_settings ps = { mu_of(r->is_float), ITERATIONS, 0, 0, NULL, NULL, 0 };
    unsigned seed = 20240818u;
    double *w = checked_malloc(sizeof(double) * (size_t)nv),
           *q_on = checked_malloc(sizeof(double) * (size_t)nq);
    int s, k;
    st->qn = checked_malloc(sizeof(double) * (size_t)(NSTATES * nq));
    st->qp = checked_malloc(sizeof(double) * (size_t)(NSTATES * nq));
    st->ddq = checked_malloc(sizeof(double) * (size_t)(NSTATES * nv));
    st->lambda = checked_malloc(sizeof(double) * (size_t)(NSTATES * nc));
    for (s = 0; s < NSTATES; s++) {
        const double *q = st->q + s * nq, *v = st->v + s * nv;
        cdyn_integrate(m, q, v, 1.0, st->qn + s * nq);
        round_all(r->is_float, st->qn + s * nq, nq);
        on_manifold(r, q, q_on, w);
        for (k = 0; k < nv; k++)
            w[k] = PROJECT_OFFSET * uniform(&seed);
        cdyn_integrate(m, q_on, w, 1.0, st->qp + s * nq);
        round_all(r->is_float, st->qp + s * nq, nq);
        if (nc == 0)
            continue;
        cdyn_prox_ltl(m, &r->d, &r->cd, &ps, q, v, st->tau + s * nv, st->ddq + s * nv,
                      st->lambda + s * nc);
        round_all(r->is_float, st->ddq + s * nv, nv);
        round_all(r->is_float, st->lambda + s * nc, nc);
    }
    free(w);
    free(q_on);
}

static void write_array(FILE *f, const char *name, const double *x, int n, int is_float)
{
    int s, k;
    fprintf(f, "static const cdyn_real %s[FW_NSTATES][%d] = {\n", name, n);
    for (s = 0; s < NSTATES; s++) {
        fprintf(f, "    {");
        for (k = 0; k < n; k++)
            fprintf(f, "%s%a%s", k ? ", " : "", x[s * n + k], is_float ? "f" : "");
        fprintf(f, "},\n");
    }
    fprintf(f, "};\n");
}

static int write_states(const cdyn_model *m, int is_float, const char *path)
{
    const cdyn_project_settings ps = project_settings(is_float);
    states st;
    reference r;
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 2;
    }
    make_states(m, is_float, &st);
    reference_init(&r, m, is_float);
    make_inputs(&r, &st);
    fprintf(f,
            "/* fw_states.h — written by fw_host: the states the firmware evaluates. */\n"
            "#define FW_NSTATES %d\n#define FW_ITERATIONS %d\n#define FW_MU CDYN_R(%g)\n"
            "#define FW_PROJECT_SETTINGS {CDYN_R(%g), %d, CDYN_R(%g), %d}\n",
            NSTATES, ITERATIONS, mu_of(is_float), ps.tol, ps.max_iter, ps.mu, ps.prox_iter);
    write_array(f, "fw_q", st.q, m->nq, is_float);
    write_array(f, "fw_v", st.v, m->nv, is_float);
    write_array(f, "fw_a", st.a, m->nv, is_float);
    write_array(f, "fw_tau", st.tau, m->nv, is_float);
    write_array(f, "fw_qn", st.qn, m->nq, is_float);
    if (r.nc > 0)
        write_array(f, "fw_qp", st.qp, m->nq, is_float);
    if (r.nc > 0 && contacts_only(&r)) { /* where prox_ltl_derivatives is generated */
        write_array(f, "fw_ddq", st.ddq, m->nv, is_float);
        write_array(f, "fw_lambda", st.lambda, r.nc, is_float);
    }
    free_states(&st);
    reference_free(&r);
    return fclose(f) == 0 ? 0 : 2;
}

/* ---- compare ---- */

enum { FWD, FACTOR, DELASSUS, PROX, ALM, ABA_DERIV };

typedef struct {
    const char *name;
    int kind;
    double max_err, max_ratio, ticks;
    int calls;
} result_stat;

static result_stat stats[] = {
    { "neutral", FWD, 0, 0, 0, 0 },
    { "fk", FWD, 0, 0, 0, 0 },
    { "jacobian", FWD, 0, 0, 0, 0 },
    { "jacobian_world", FWD, 0, 0, 0, 0 },
    { "rnea", FWD, 0, 0, 0, 0 },
    { "nle", FWD, 0, 0, 0, 0 },
    { "gravity", FWD, 0, 0, 0, 0 },
    { "crba", FWD, 0, 0, 0, 0 },
    { "ltl", FACTOR, 0, 0, 0, 0 },
    { "ltl_solve", FACTOR, 0, 0, 0, 0 },
    { "minv", FACTOR, 0, 0, 0, 0 },
    { "aba", FACTOR, 0, 0, 0, 0 },
    { "integrate", FWD, 0, 0, 0, 0 },
    { "constraint_jacobian", FWD, 0, 0, 0, 0 },
    { "constraint_drift", FWD, 0, 0, 0, 0 },
    { "delassus", DELASSUS, 0, 0, 0, 0 },
    { "delassus_factorised", DELASSUS, 0, 0, 0, 0 },
    { "delassus_articulated", DELASSUS, 0, 0, 0, 0 },
    { "prox_ltl", PROX, 0, 0, 0, 0 },
    { "prox_ltls", ALM, 0, 0, 0, 0 },
    { "constrained_aba", ALM, 0, 0, 0, 0 },
    { "prox_pv", PROX, 0, 0, 0, 0 },
    { "impulse", PROX, 0, 0, 0, 0 },
    { "rnea_derivatives", FWD, 0, 0, 0, 0 },
    { "aba_derivatives", ABA_DERIV, 0, 0, 0, 0 },
    { "integrate_derivatives", FWD, 0, 0, 0, 0 },
    { "difference_derivatives", FWD, 0, 0, 0, 0 },
    { "prox_ltl_derivatives", PROX, 0, 0, 0, 0 },
    { "project_position", PROX, 0, 0, 0, 0 },
    { "project_velocity", PROX, 0, 0, 0, 0 },
};
#define NSTATS ((int)(sizeof stats / sizeof stats[0]))

/* max|dtau/dq(a) - dtau/dq(0)| / max|dtau/dq(a)| at a = ABA(q, v, tau): the share of
 * aba_derivatives' right-hand side that ABA's ddq brings (see bound_of). W: nv x nv. */
static double acceleration_share(reference *r, const double *q, const double *v,
                                 const double *tau, double *W)
{
    const int nv = r->m->nv;
    double *ddq = checked_malloc(sizeof(double) * (size_t)(2 * nv + nv * nv)), *zero = ddq + nv,
           *Ra = zero + nv, diff = 0, size = 0;
    int k;
    cdyn_aba(r->m, &r->d, q, v, tau, ddq);
    memset(zero, 0, sizeof(double) * (size_t)nv);
    cdyn_rnea_derivatives(r->m, &r->d, q, v, ddq, Ra, NULL);
    cdyn_rnea_derivatives(r->m, &r->d, q, v, zero, W, NULL);
    for (k = 0; k < nv * nv; k++) {
        diff = fmax(diff, fabs(Ra[k] - W[k]));
        size = fmax(size, fabs(Ra[k]));
    }
    free(ddq);
    return size > 0 ? diff / size : 0;
}

/* The conditioning figures the bounds use, at state q. */
static void reference_conditioning(reference *r, const double *q, const double *v,
                                   const double *tau)
{
    const int nv = r->m->nv, nc = r->nc;
    double *M = checked_malloc(sizeof(double) * (size_t)(nv * nv + nv + nc * nc + 2 * nv + 2 * nc));
    double *D = M + nv * nv, *G = D + nv, *x = G + nc * nc;
    int k;
    cdyn_crba(r->m, &r->d, q, M);
    cdyn_ltl(r->m, &r->d);
    cdyn_ltl_factor(r->m, &r->d, NULL, D);
    r->growth = 1;
    for (k = 0; k < nv; k++)
        r->growth = fmax(r->growth, M[k * nv + k] / D[k]);
    r->a_share = acceleration_share(r, q, v, tau, M);
    r->g_growth = 1;
    r->g_size = 0;
    if (nc > 0) {
        const cdyn_prox_settings s = { mu_of(r->is_float), 1, 0, 0, NULL, NULL, 0 };
        cdyn_delassus(r->m, &r->d, &r->cd, q, s.mu, G);
        cdyn_prox_ltl(r->m, &r->d, &r->cd, &s, q, v, tau, x, x + nv);
        for (k = 0; k < nc * nc; k++)
            r->g_size = fmax(r->g_size, fabs(G[k]));
        for (k = 0; k < nc; k++)
            r->g_growth = fmax(r->g_growth, G[k * nc + k] / r->cd.GD[k]);
    }
    free(M);
}

static double bound_of(const reference *r, int kind)
{
    const double u = r->is_float ? FLT_EPSILON : DBL_EPSILON, fwd = FWD_BOUND * u;
    switch (kind) {
    case FACTOR: return fwd * r->growth;
    case DELASSUS:
    case PROX: return fwd * r->growth * r->g_growth;
    case ALM: return fwd * r->growth * r->g_growth * (1 + r->g_size / mu_of(r->is_float));
    case ABA_DERIV: return fwd * r->growth * (1 + r->growth * r->a_share);
    default: return fwd;
    }
}

typedef int (*generic_solver)(const cdyn_model *, cdyn_data *, cdyn_constraint_data *,
                              const cdyn_prox_settings *, const cdyn_real *, const cdyn_real *,
                              const cdyn_real *, cdyn_real *, cdyn_real *);

static int solver_ref(reference *r, generic_solver f, const double *q, const double *v,
                      const double *tau, double *x, long *status)
{
    const cdyn_prox_settings s = { mu_of(r->is_float), ITERATIONS, 0, 0, NULL, NULL, 0 };
    memset(x, 0, sizeof(double) * (size_t)(r->m->nv + r->nc));
    *status = f(r->m, &r->d, &r->cd, &s, q, v, tau, x, x + r->m->nv);
    return r->m->nv + r->nc;
}

/* Splits a result into n_a outputs of len_a values, then n_b of len_b; returns its length. */
static int split(reference *r, int n_a, int len_a, int n_b, int len_b)
{
    int k;
    r->nblocks = n_a + n_b;
    for (k = 0; k < r->nblocks; k++)
        r->block[k] = k < n_a ? len_a : len_b;
    return n_a * len_a + n_b * len_b;
}

/* The derivatives and the projections, as reference_eval. Each output of a derivative is
 * its own block (an nv x nv or nc x nv matrix), compared on its own scale. */
static int derivative_eval(reference *r, const char *name, const inputs *in, double *x,
                           long *status)
{
    const cdyn_model *m = r->m;
    const int nv = m->nv, nn = nv * nv, nc = r->nc;
    if (!strcmp(name, "rnea_derivatives"))
        return *status = cdyn_rnea_derivatives(m, &r->d, in->q, in->v, in->a, x, x + nn),
               split(r, 2, nn, 0, 0);
    if (!strcmp(name, "aba_derivatives"))
        return *status = cdyn_aba_derivatives(m, &r->d, in->q, in->v, in->tau, x, x + nn,
                                              x + 2 * nn),
               split(r, 3, nn, 0, 0);
    if (!strcmp(name, "integrate_derivatives"))
        return *status = cdyn_integrate_derivatives(m, in->q, in->v, x, x + nn),
               split(r, 2, nn, 0, 0);
    if (!strcmp(name, "difference_derivatives"))
        return *status = cdyn_difference_derivatives(m, in->q, in->qn, x, x + nn),
               split(r, 2, nn, 0, 0);
    if (nc == 0)
        return -1;
    if (!strcmp(name, "prox_ltl_derivatives")) {
        /* prox_ltl first, for its factor; the derivatives at the inputs' ddq and lambda */
        const cdyn_prox_settings s = { mu_of(r->is_float), ITERATIONS, 0, 0, NULL, NULL, 0 };
        cdyn_prox_ltl(m, &r->d, &r->cd, &s, in->q, in->v, in->tau, x, x + nv);
        *status = cdyn_prox_ltl_derivatives(m, &r->d, &r->cd, &s, in->q, in->v, in->ddq,
                                            in->lambda, x, x + nn, x + 2 * nn, x + 3 * nn,
                                            x + 3 * nn + nc * nv, x + 3 * nn + 2 * nc * nv);
        return split(r, 3, nn, 3, nc * nv);
    }
    if (!strcmp(name, "project_position")) {
        const cdyn_project_settings s = project_settings(r->is_float);
        cdyn_constraint_capture(m, &r->d, &r->cd, in->q); /* the references, as on_manifold */
        return *status = cdyn_project_position(m, &r->d, &r->cd, &s, in->qp, x), m->nq;
    }
    if (!strcmp(name, "project_velocity")) {
        const cdyn_project_settings s = project_settings(r->is_float);
        return *status = cdyn_project_velocity(m, &r->d, &r->cd, &s, in->q, in->v, x), nv;
    }
    return -1;
}

/* The generic result for the function `name` at one state into x; returns its length, or
 * -1 for a name it does not know. */
static int reference_eval(reference *r, const char *name, const inputs *in, double *x,
                          long *status)
{
    const cdyn_model *m = r->m;
    const double *q = in->q, *v = in->v, *a = in->a, *tau = in->tau;
    const int nv = m->nv, nc = r->nc, last = m->nframes - 1;
    int f;
    *status = 0;
    r->nblocks = 0;
    if ((f = derivative_eval(r, name, in, x, status)) >= 0)
        return f;
    if (!strcmp(name, "neutral"))
        return cdyn_neutral(m, x), m->nq;
    if (!strcmp(name, "fk")) {
        cdyn_fk(m, &r->d, q);
        for (f = 0; f < m->nframes; f++)
            cdyn_frame_placement(m, &r->d, f, x + 12 * f, x + 12 * f + 9);
        return 12 * m->nframes;
    }
    if (!strcmp(name, "jacobian") || !strcmp(name, "jacobian_world"))
        return cdyn_frame_jacobian(m, &r->d, q, last,
                                   name[8] ? CDYN_LOCAL_WORLD_ALIGNED : CDYN_LOCAL, x),
               6 * nv;
    if (!strcmp(name, "rnea"))
        return cdyn_rnea(m, &r->d, q, v, a, x), nv;
    if (!strcmp(name, "nle"))
        return cdyn_nle(m, &r->d, q, v, x), nv;
    if (!strcmp(name, "gravity"))
        return cdyn_gravity(m, &r->d, q, x), nv;
    if (!strcmp(name, "crba"))
        return cdyn_crba(m, &r->d, q, x), nv * nv;
    if (!strcmp(name, "ltl")) {
        cdyn_crba(m, &r->d, q, x);
        *status = cdyn_ltl(m, &r->d);
        cdyn_ltl_factor(m, &r->d, x, x + nv * nv);
        return nv * nv + nv;
    }
    if (!strcmp(name, "ltl_solve")) {
        memcpy(x, tau, sizeof(double) * (size_t)nv);
        cdyn_crba(m, &r->d, q, x + nv);
        cdyn_ltl(m, &r->d);
        return cdyn_ltl_solve(m, &r->d, x), nv;
    }
    if (!strcmp(name, "minv"))
        return *status = cdyn_minv(m, &r->d, q, x), nv * nv;
    if (!strcmp(name, "aba"))
        return *status = cdyn_aba(m, &r->d, q, v, tau, x), nv;
    if (!strcmp(name, "integrate"))
        return cdyn_integrate(m, q, v, 0.05, x), m->nq;
    if (nc == 0)
        return -1;
    if (!strcmp(name, "constraint_jacobian"))
        return cdyn_constraint_jacobian(m, &r->d, &r->cd, q, x), nc * nv;
    if (!strcmp(name, "constraint_drift"))
        return cdyn_constraint_drift(m, &r->d, &r->cd, q, v, x), nc;
    if (!strncmp(name, "delassus", 8))
        return *status = cdyn_delassus(m, &r->d, &r->cd, q, mu_of(r->is_float), x), nc * nc;
    if (!strcmp(name, "prox_ltl"))
        return solver_ref(r, cdyn_prox_ltl, q, v, tau, x, status);
    if (!strcmp(name, "prox_ltls"))
        return solver_ref(r, cdyn_prox_ltls, q, v, tau, x, status);
    if (!strcmp(name, "constrained_aba"))
        return solver_ref(r, cdyn_constrained_aba, q, v, tau, x, status);
    if (!strcmp(name, "prox_pv"))
        return solver_ref(r, cdyn_prox_pv, q, v, tau, x, status);
    if (!strcmp(name, "impulse")) {
        const cdyn_prox_settings s = { mu_of(r->is_float), ITERATIONS, 0, 0, NULL, NULL, 0 };
        memset(x, 0, sizeof(double) * (size_t)(nv + nc));
        *status = cdyn_impulse(m, &r->d, &r->cd, &s, q, v, 0.5, x, x + nv);
        return nv + nc;
    }
    return -1;
}

/* Parses "name status ticks hex..." into its parts; returns the number of values, or -1. */
static int parse_line(char *line, int is_float, char **name, long *status, double *ticks, double *y)
{
    char *tok = strtok(line, " \n");
    int n = 0;
    if (!tok)
        return -1;
    *name = tok;
    if (!(tok = strtok(NULL, " \n")))
        return -1;
    *status = strtol(tok, NULL, 10);
    if (!(tok = strtok(NULL, " \n")))
        return -1;
    *ticks = strtod(tok, NULL);
    while ((tok = strtok(NULL, " \n")) && n < MAXVAL * 4) {
        unsigned long long bits = strtoull(tok, NULL, 16);
        if (is_float) {
            unsigned int b = (unsigned int)bits;
            float f;
            memcpy(&f, &b, sizeof f);
            y[n++] = f;
        } else {
            memcpy(&y[n++], &bits, sizeof(double));
        }
    }
    return n;
}

static result_stat *stat_of(const char *name)
{
    int i;
    for (i = 0; i < NSTATS; i++)
        if (!strcmp(stats[i].name, name))
            return &stats[i];
    return NULL;
}

/* max|y - x| / max|x|: the error relative to the output's size (a zero output: absolute). */
static double relative_error(const double *y, const double *x, int n)
{
    double diff = 0, size = 0;
    int i;
    for (i = 0; i < n; i++) {
        diff = fmax(diff, fabs(y[i] - x[i]));
        size = fmax(size, fabs(x[i]));
        if (isnan(y[i]))
            return INFINITY;
    }
    return size > 0 ? diff / size : diff;
}

/* The largest relative error over the result's outputs, each on its own scale. */
static double blocks_error(const reference *r, const double *y, const double *x, int n)
{
    double err = 0;
    int b, at = 0;
    if (r->nblocks == 0)
        return relative_error(y, x, n);
    for (b = 0; b < r->nblocks; at += r->block[b++])
        err = fmax(err, relative_error(y + at, x + at, r->block[b]));
    return err;
}

static int compare(const cdyn_model *m, int is_float, const char *path, const char *summary)
{
    FILE *f = fopen(path, "r"), *out;
    char *line = checked_malloc(1 << 20);
    double *x = checked_malloc(sizeof(double) * MAXVAL * 4),
           *y = checked_malloc(sizeof(double) * MAXVAL * 4);
    double per_tick = 0;
    long data_bytes = 0;
    reference r;
    states st;
    int s = -1, ended = 0, failed = 0, i;
    if (!f) {
        perror(path);
        return 2;
    }
    make_states(m, is_float, &st);
    reference_init(&r, m, is_float);
    make_inputs(&r, &st);
    while (fgets(line, 1 << 20, f)) {
        char *name;
        long status, ref_status;
        double ticks, err, bound;
        int n, nref;
        inputs in;
        result_stat *rs;
        if (!strncmp(line, "end", 3)) {
            ended = 1;
            continue;
        }
        n = parse_line(line, is_float, &name, &status, &ticks, y);
        if (n < 0)
            continue;
        if (!strcmp(name, "data_bytes")) {
            data_bytes = status; /* sizeof(NAME_data) on the target */
            continue;
        }
        if (!strcmp(name, "calibrate")) {
            per_tick = (double)status / ticks; /* instructions per tick */
            continue;
        }
        if (!(rs = stat_of(name))) {
            fprintf(stderr, "fw_host: unknown result \"%s\"\n", name);
            failed = 1;
            break;
        }
        if (!strcmp(name, "fk") && ++s < NSTATES)
            reference_conditioning(&r, st.q + s * m->nq, st.v + s * m->nv, st.tau + s * m->nv);
        if (s >= NSTATES || (s < 0 && rs != &stats[0])) {
            fprintf(stderr, "fw_host: \"%s\" outside the %d states\n", name, NSTATES);
            failed = 1;
            break;
        }
        in = inputs_of(&r, &st, s < 0 ? 0 : s);
        nref = reference_eval(&r, name, &in, x, &ref_status);
        if (nref != n || ref_status != status) {
            fprintf(stderr,
                    "fw_host: state %d %s: %d values, status %ld; the generic runtime: "
                    "%d values, status %ld\n",
                    s, name, n, status, nref, ref_status);
            failed = 1;
            continue;
        }
        err = blocks_error(&r, y, x, n);
        bound = bound_of(&r, rs->kind);
        if (!(err <= bound)) {
            fprintf(stderr, "fw_host: state %d %s: error %.3g above the bound %.3g\n", s, name, err,
                    bound);
            failed = 1;
        }
        rs->max_err = fmax(rs->max_err, err);
        rs->max_ratio = fmax(rs->max_ratio, err / bound);
        rs->ticks += ticks;
        rs->calls++;
    }
    fclose(f);
    if (!ended || s != NSTATES - 1 || per_tick <= 0) {
        fprintf(stderr, "fw_host: the output stopped early (state %d of %d%s)\n", s + 1, NSTATES,
                per_tick <= 0 ? ", no calibration" : "");
        failed = 1;
    }
    out = summary ? fopen(summary, "w") : NULL;
    printf("sizeof(data) on the target: %ld bytes\n", data_bytes);
    if (out)
        fprintf(out, "data_bytes %ld\n", data_bytes);
    printf("%-22s %6s %10s %10s %14s\n", "function", "calls", "max error", "error/bound",
           "instructions");
    for (i = 0; i < NSTATS; i++) {
        const result_stat *rs = &stats[i];
        if (!rs->calls)
            continue;
        if (i > 0 && rs->calls != NSTATES) {
            fprintf(stderr, "fw_host: %s ran %d times, not %d\n", rs->name, rs->calls, NSTATES);
            failed = 1;
        }
        printf("%-22s %6d %10.2e %10.3f %14.0f\n", rs->name, rs->calls, rs->max_err, rs->max_ratio,
               rs->ticks * per_tick / rs->calls);
        if (out)
            fprintf(out, "%s %.3e %.4f %.0f\n", rs->name, rs->max_err, rs->max_ratio,
                    rs->ticks * per_tick / rs->calls);
    }
    if (out)
        fclose(out);
    free_states(&st);
    reference_free(&r);
    free(line);
    free(x);
    free(y);
    return failed;
}

int main(int argc, char **argv)
{
    int is_float;
    if (argc < 4 || (strcmp(argv[2], "float") && strcmp(argv[2], "double"))) {
        fprintf(stderr, "usage: %s states|compare float|double FILE [SUMMARY]\n", argv[0]);
        return 2;
    }
    is_float = !strcmp(argv[2], "float");
    if (!strcmp(argv[1], "states"))
        return write_states(&FW_MODEL, is_float, argv[3]);
    return compare(&FW_MODEL, is_float, argv[3], argc > 4 ? argv[4] : NULL);
}
