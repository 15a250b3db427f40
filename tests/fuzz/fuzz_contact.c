/* fuzz_contact.c — libFuzzer target over the contact step and the cone solvers: the generated
 * fz_quad_contact_step (robots/quadruped12.urdf, floating base, four frictional feet, one of
 * them also held by a bilateral 3d contact), fz_arm_contact_step (robots/arm7.urdf,
 * --joint-limits and a frictional tool), both generated at build time (tests/fuzz.cmake), the
 * generic cdyn_contact_step beside each (both with --joint-limits), and cdyn_cone_admm / cdyn_cone_pgs on a problem made
 * of the input. Raw bytes become doubles, so NaN, infinities, subnormals and huge values all
 * occur, in the state and in the settings (dt, margin, stabilisation, mu, restitution,
 * normals, phi, tolerances, ADMM's and PGS's parameters, the soft model's stiffness and
 * damping), bad ones included.
 *
 * The contract checked (cdyn_contact.h, cdyn.h): nothing crashes or reads out of bounds (ASan,
 * UBSan); a step returns its iterations (<= max_iter; exactly max_iter without a tolerance) or
 * CDYN_E_ARG, CDYN_E_NONFINITE, CDYN_E_SINGULAR, CDYN_E_NOT_CONVERGED; on ARG, NONFINITE and
 * SINGULAR q_next and v_next are untouched (bit for bit); bad settings (dt <= 0, mu < 0,
 * restitution outside [0, 1], max_iter < 1, a zero normal, a bad solver; soft: a stiffness <= 0
 * or a damping < 0 or either not finite) are CDYN_E_ARG or, for a NaN among them,
 * CDYN_E_NONFINITE, never a step. With FLAG_TAME (finite moderate inputs,
 * valid settings) the step is taken and its outputs are finite. The cone solvers: iterations
 * or a status, NONFINITE and SINGULAR leave lambda and c zeros, and a finite problem never
 * gives NONFINITE.
 *
 * Input: byte 0 what to run (robot, solver), byte 1 FLAG_* bits, byte 2 max_iter: byte % 13
 * - 2, byte 3 the cone problem's blocks, then doubles (bytes past the end read as zero). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdyn.h"
#include "fz_arm.h"
#include "fz_arm_model.h"
#include "fz_quad.h"
#include "fz_quad_model.h"

enum {
    FLAG_TAME = 1,     /* finite moderate inputs and valid settings */
    FLAG_ARRAYS = 2,   /* per-contact mu and restitution from the input */
    FLAG_GEOMETRY = 4, /* normals and phi from the input, else the ground plane */
    FLAG_RADIUS = 8,
    FLAG_WARM = 16,  /* a second step, warm-started from the first's lambda */
    FLAG_TOLS = 32,  /* the input's tolerances, else 0 (exactly max_iter) */
    FLAG_SOLVER = 64, /* the input's ADMM parameters, else the defaults */
    FLAG_SOFT = 128   /* the soft model, its stiffness and damping from the input (per
                       * contact with FLAG_ARRAYS) */
};
#define NX 160

static const char *fuzz_what = "";

static void fuzz_fail(const char *what, int line)
{
    fprintf(stderr, "fuzz_contact: %s: check at line %d failed: %s\n", fuzz_what, line, what);
    abort();
}
#define CHECK(c) ((c) ? (void)0 : fuzz_fail(#c, __LINE__))

static int all_finite(const cdyn_real *x, int n)
{
    for (int k = 0; k < n; ++k)
        if (!isfinite(x[k]))
            return 0;
    return 1;
}

/* The input's doubles, read in turn. */
typedef struct {
    const cdyn_real *x;
    int at, tame;
} reader;

static cdyn_real take(reader *r)
{
    const cdyn_real v = r->at < NX ? r->x[r->at++] : 0;
    return r->tame ? (isfinite(v) ? fmod(v, 1e3) : 0) : v;
}

/* A tame value in [lo, hi] from x (finite). */
static cdyn_real within(cdyn_real x, cdyn_real lo, cdyn_real hi)
{
    const cdyn_real u = fabs(fmod(x, 1.0));
    return lo + (hi - lo) * u;
}

static void step_settings(reader *r, int flags, int max_iter, int n, cdyn_real *mu, cdyn_real *e,
                          cdyn_real *radius, cdyn_real *normal, cdyn_real *phi, cdyn_real *kk,
                          cdyn_real *dd, cdyn_contact_settings *s, int solver)
{
    const int tame = flags & FLAG_TAME;
    cdyn_contact_settings d = CDYN_CONTACT_SETTINGS_DEFAULT;
    *s = d;
    s->dt = take(r);
    s->ground_height = take(r);
    s->margin = take(r);
    s->stabilisation = take(r);
    s->friction = take(r);
    s->solver = solver;
    s->cone.max_iter = max_iter;
    s->cone.warm_start = (flags & FLAG_WARM) != 0;
    if (flags & FLAG_TOLS) {
        s->cone.abs_tol = take(r);
        s->cone.rel_tol = take(r);
    } else {
        s->cone.abs_tol = s->cone.rel_tol = 0;
    }
    if (flags & FLAG_SOLVER) {
        s->cone.mu_prox = take(r);
        s->cone.rho = take(r);
        s->cone.tau = take(r);
        s->cone.rho_power = take(r);
        s->cone.rho_power_factor = take(r);
        s->cone.ratio_primal_dual = take(r);
        s->cone.over_relax = take(r);
    }
    for (int k = 0; k < n; ++k) {
        mu[k] = take(r), e[k] = take(r), radius[k] = take(r), phi[k] = take(r);
        for (int a = 0; a < 3; ++a)
            normal[3 * k + a] = take(r);
    }
    if (flags & FLAG_SOFT) { /* read only with the flag: an input without it means what it
                              * did before the soft model */
        s->model = CDYN_CONTACT_SOFT;
        s->soft_stiffness = take(r);
        s->soft_damping = take(r);
        for (int k = 0; k < n; ++k)
            kk[k] = take(r), dd[k] = take(r);
        if (tame) {
            s->soft_stiffness = within(s->soft_stiffness, 1e2, 1e7);
            s->soft_damping = within(s->soft_damping, 0, 1e4);
            for (int k = 0; k < n; ++k)
                kk[k] = within(kk[k], 1e2, 1e7), dd[k] = within(dd[k], 0, 1e4);
        }
        s->stiffness = flags & FLAG_ARRAYS ? kk : NULL;
        s->damping = flags & FLAG_ARRAYS ? dd : NULL;
    }
    if (tame) { /* every setting valid */
        s->solver = solver % 2;
        s->dt = within(s->dt, 1e-4, 1e-2);
        s->margin = within(s->margin, 0, 1e-2);
        s->stabilisation = within(s->stabilisation, 0, 1);
        s->friction = within(s->friction, 0, 2);
        s->cone.max_iter = max_iter < 1 ? 1 : max_iter;
        s->cone.abs_tol = fabs(s->cone.abs_tol);
        s->cone.rel_tol = fabs(s->cone.rel_tol);
        if (flags & FLAG_SOLVER) {
            s->cone.mu_prox = within(s->cone.mu_prox, 1e-8, 1);
            s->cone.tau = within(s->cone.tau, 0.1, 1);
            if (s->cone.rho > 0) /* a given penalty (else the spectral rule) */
                s->cone.rho = within(s->cone.rho, 1e-6, 1e3);
            s->cone.rho_power = within(s->cone.rho_power, 0, 0.5);
            s->cone.rho_power_factor = within(s->cone.rho_power_factor, 0, 0.2);
            s->cone.ratio_primal_dual = within(s->cone.ratio_primal_dual, 1.5, 100);
            s->cone.over_relax = within(s->cone.over_relax, 0.1, 1.9);
        }
        for (int k = 0; k < n; ++k) {
            mu[k] = within(mu[k], 0, 2), e[k] = within(e[k], 0, 1);
            radius[k] = within(radius[k], 0, 0.1), phi[k] = within(phi[k], -1e-2, 1e-2);
            if (!(fabs(normal[3 * k]) + fabs(normal[3 * k + 1]) + fabs(normal[3 * k + 2]) > 1e-3))
                normal[3 * k + 2] = 1;
        }
    }
    s->mu = flags & FLAG_ARRAYS ? mu : NULL;
    s->restitution = flags & FLAG_ARRAYS ? e : NULL;
    s->radius = flags & FLAG_RADIUS ? radius : NULL;
    s->normal = flags & FLAG_GEOMETRY ? normal : NULL;
    s->phi = flags & FLAG_GEOMETRY ? phi : NULL;
}

/* The settings the step must refuse outright (cdyn_contact_assemble's list). */
static int settings_bad(const cdyn_contact_settings *s, int n)
{
    int bad = !(s->dt > 0) || !isfinite(s->dt) || !(s->margin >= 0) || !isfinite(s->margin) ||
              !(s->stabilisation >= 0 && s->stabilisation <= 1) || !isfinite(s->ground_height) ||
              s->cone.max_iter < 1 ||
              (s->solver != CDYN_CONTACT_ADMM && s->solver != CDYN_CONTACT_PGS) ||
              (!s->mu && !(s->friction >= 0 && isfinite(s->friction)));
    const int soft = s->model == CDYN_CONTACT_SOFT;
    bad |= soft && ((!s->stiffness && !(s->soft_stiffness > 0 && isfinite(s->soft_stiffness))) ||
                    (!s->damping && !(s->soft_damping >= 0 && isfinite(s->soft_damping))));
    for (int k = 0; k < n; ++k)
        bad |= (soft && s->stiffness && !(s->stiffness[k] > 0 && isfinite(s->stiffness[k]))) ||
               (soft && s->damping && !(s->damping[k] >= 0 && isfinite(s->damping[k]))) ||
               (s->mu && !(s->mu[k] >= 0 && isfinite(s->mu[k]))) ||
               (s->restitution && !(s->restitution[k] >= 0 && s->restitution[k] <= 1)) ||
               (s->radius && !isfinite(s->radius[k]));
    return bad;
}

/* One step's status and outputs against the contract; q_out, v_out were filled with the
 * byte 0x5a before the call. */
static void check_step(int rc, const cdyn_contact_settings *s, int n, const cdyn_real *q_out,
                       int nq, const cdyn_real *v_out, int nv, int tame)
{
    unsigned char fill[8 * 64];
    memset(fill, 0x5a, sizeof fill);
    CHECK(rc >= 0 || rc == CDYN_E_ARG || rc == CDYN_E_NONFINITE || rc == CDYN_E_SINGULAR ||
          rc == CDYN_E_NOT_CONVERGED);
    if (rc == CDYN_E_ARG || rc == CDYN_E_NONFINITE || rc == CDYN_E_SINGULAR) {
        CHECK(memcmp(q_out, fill, (size_t)nq * sizeof *q_out) == 0); /* untouched */
        CHECK(memcmp(v_out, fill, (size_t)nv * sizeof *v_out) == 0);
    }
    if (settings_bad(s, n))
        CHECK(rc == CDYN_E_ARG || rc == CDYN_E_NONFINITE);
    if (rc >= 0) {
        CHECK(rc <= s->cone.max_iter);
        CHECK(rc == 0 || s->cone.abs_tol > 0 || s->cone.rel_tol > 0 || rc == s->cone.max_iter);
    }
    CHECK(rc != CDYN_E_NOT_CONVERGED || s->cone.abs_tol > 0 || s->cone.rel_tol > 0);
    if (tame) {
        CHECK(rc >= 0 || rc == CDYN_E_NOT_CONVERGED || rc == CDYN_E_SINGULAR);
        CHECK(rc < 0 && rc != CDYN_E_NOT_CONVERGED
                  ? 1
                  : all_finite(q_out, nq) && all_finite(v_out, nv));
    }
}

/* Normalises the free-flyer quaternion (q[3..6]) of a tame quadruped state. */
static void normalise_quaternion(cdyn_real *q)
{
    cdyn_real n2 = q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6];
    if (!(n2 > 1e-12)) {
        q[3] = q[4] = q[5] = 0, q[6] = 1;
        return;
    }
    for (int k = 3; k < 7; ++k)
        q[k] /= sqrt(n2);
}

#define FUZZ_STEP(P, U, quaternion)                                                                \
    do {                                                                                           \
        enum { NQ = U##_NQ, NV = U##_NV, NK = U##_NCONSTRAINTS };                                  \
        static P##_data d;                                                                         \
        static unsigned char work[U##_GENERIC_DATA_BYTES];                                         \
        static unsigned char cwork[U##_GENERIC_CONSTRAINT_BYTES];                                  \
        static cdyn_real pbuf[(CDYN_CONTACT_PROBLEM_BYTES(NK, U##_NC, U##_NJOINT_LIMITS, NV) +     \
                               sizeof(cdyn_real) - 1) /                                            \
                              sizeof(cdyn_real)];                                                  \
        int dims[NK], fr[NK], nc = 0;                                                              \
        cdyn_real q[NQ], v[NV], tau[NV], q1[NQ], v1[NV], mu[NK], e[NK], rad[NK], nrm[3 * NK],      \
            phi[NK], kk[NK], dd[NK];                                                               \
        cdyn_data gd;                                                                              \
        cdyn_constraint_data cd;                                                                   \
        cdyn_contact_problem gp;                                                                   \
        cdyn_contact_settings s;                                                                   \
        int rc;                                                                                    \
        for (int k = 0; k < NK; ++k) {                                                             \
            dims[k] = P##_constraints[k].dim, fr[k] = P##_constraints[k].friction;                 \
            nc += dims[k];                                                                         \
        }                                                                                          \
        CHECK(nc == U##_NC);                                                                       \
        const cdyn_contact_layout layout = {                                                       \
            NK, dims, fr, U##_NJOINT_LIMITS, P##_joint_limits, NV                                  \
        };                                                                                         \
        step_settings(&r, flags, max_iter, NK, mu, e, rad, nrm, phi, kk, dd, &s, solver);          \
        for (int k = 0; k < NQ; ++k)                                                               \
            q[k] = take(&r);                                                                       \
        for (int k = 0; k < NV; ++k)                                                               \
            v[k] = take(&r), tau[k] = take(&r);                                                    \
        if (quaternion && r.tame)                                                                  \
            normalise_quaternion(q);                                                               \
        CHECK(P##_contact_reset(&d) == CDYN_OK); /* each input alone: no state carried */          \
        memset(q1, 0x5a, sizeof q1), memset(v1, 0x5a, sizeof v1);                                  \
        rc = P##_contact_step(&d, &s, q, v, tau, q1, v1);                                          \
        if (s.cone.warm_start) { /* again, warm-started from that step's lambda */                 \
            fuzz_what = #P " generated, first";                                                    \
            check_step(rc, &s, NK, q1, NQ, v1, NV, r.tame);                                        \
            memset(q1, 0x5a, sizeof q1), memset(v1, 0x5a, sizeof v1);                              \
            rc = P##_contact_step(&d, &s, q, v, tau, q1, v1);                                      \
        }                                                                                          \
        fuzz_what = #P " generated";                                                               \
        check_step(rc, &s, NK, q1, NQ, v1, NV, r.tame);                                            \
        CHECK(cdyn_data_init(&gd, &P##_model, work, sizeof work) == CDYN_OK);                      \
        CHECK(cdyn_constraint_data_init(&cd, &P##_model, P##_constraints, NK, cwork,               \
                                        sizeof cwork) == CDYN_OK);                                 \
        CHECK(cdyn_contact_problem_init(&gp, &layout, pbuf, sizeof pbuf) == CDYN_OK);              \
        memset(q1, 0x5a, sizeof q1), memset(v1, 0x5a, sizeof v1);                                  \
        rc = cdyn_contact_step(&P##_model, &gd, &cd, &gp, &s, q, v, tau, q1, v1);                  \
        fuzz_what = #P " generic";                                                                 \
        check_step(rc, &s, NK, q1, NQ, v1, NV, r.tame);                                            \
        if (rc >= 0 || rc == CDYN_E_NOT_CONVERGED) { /* q_next may be q, v_next may be v; */     \
            memset(gp.lambda, 0, (size_t)gp.nr * sizeof *gp.lambda); /* the same warm start: */ \
            memset(gp.power, 0, (size_t)gp.nr * sizeof *gp.power);   /* lambda, ADMM's vector */\
            CHECK(cdyn_contact_step(&P##_model, &gd, &cd, &gp, &s, q, v, tau, q, v) == rc);        \
        }                                                                                          \
    } while (0)

/* The cone solvers on a problem of the input: blocks from byte 3 (kinds, dims, mu), G = A A^T
 * (positive semi-definite) from the input, or raw (garbage) with FLAG_ARRAYS; g, lambda. */
static void fuzz_cones(reader *r, int flags, int max_iter, unsigned blocks, int pgs)
{
    enum { MAXM = 12 };
    cdyn_cone cones[6];
    cdyn_real G[MAXM * MAXM], A[MAXM * MAXM], g[MAXM], lambda[MAXM], c[MAXM];
    cdyn_real work[CDYN_CONE_WORK_REALS(MAXM)];
    cdyn_cone_settings s = CDYN_CONE_SETTINGS_DEFAULT;
    cdyn_cone_stats st;
    int ncones = 1 + (int)(blocks % 4), m = 0, rc;
    for (int k = 0; k < ncones; ++k) {
        const int kind = (int)((blocks >> (2 + 2 * k)) % 3);
        cones[k].kind = kind;
        cones[k].dim = kind == CDYN_CONE_FRICTION ? 3 : kind == CDYN_CONE_POSITIVE ? 1 : 2;
        cones[k].mu = take(r);
        if (r->tame)
            cones[k].mu = within(cones[k].mu, 0, 2);
        m += cones[k].dim;
    }
    s.max_iter = r->tame && max_iter < 1 ? 1 : max_iter;
    s.abs_tol = flags & FLAG_TOLS ? take(r) : 0;
    s.rel_tol = flags & FLAG_TOLS ? take(r) : 0;
    s.warm_start = (flags & FLAG_WARM) != 0;
    s.ccp = (flags & FLAG_RADIUS) != 0;
    if (flags & FLAG_SOLVER) {
        s.mu_prox = take(r), s.rho = take(r), s.tau = take(r), s.over_relax = take(r);
        s.power_iter = (int)(blocks >> 10) % 40 - 5;
        if (r->tame) {
            s.mu_prox = within(s.mu_prox, 1e-8, 1), s.tau = within(s.tau, 0.1, 1);
            if (s.rho > 0) /* a given penalty (else the spectral rule) */
                s.rho = within(s.rho, 1e-6, 1e3);
            s.over_relax = within(s.over_relax, 0.1, 1.9);
            s.power_iter = s.power_iter < 1 ? 1 : s.power_iter;
        }
    }
    if (r->tame) {
        s.abs_tol = fabs(s.abs_tol), s.rel_tol = fabs(s.rel_tol);
    }
    for (int k = 0; k < m * m; ++k)
        A[k] = take(r);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
            cdyn_real t = 0;
            for (int k = 0; k < m; ++k)
                t += A[i * m + k] * A[j * m + k];
            G[i * m + j] = flags & FLAG_ARRAYS && !r->tame ? A[i * m + j] : t;
        }
    for (int k = 0; k < m; ++k)
        g[k] = take(r), lambda[k] = take(r);
    const int finite_in = all_finite(G, m * m) && all_finite(g, m) && all_finite(lambda, m);
    fuzz_what = pgs ? "cdyn_cone_pgs" : "cdyn_cone_admm";
    rc = pgs ? cdyn_cone_pgs(cones, ncones, G, g, &s, lambda, c, work, &st)
             : cdyn_cone_admm(cones, ncones, G, g, &s, lambda, c, work, &st);
    CHECK(rc >= 0 || rc == CDYN_E_ARG || rc == CDYN_E_NONFINITE || rc == CDYN_E_SINGULAR ||
          rc == CDYN_E_NOT_CONVERGED);
    if (rc == CDYN_E_NONFINITE || rc == CDYN_E_SINGULAR)
        for (int k = 0; k < m; ++k)
            CHECK(lambda[k] == 0 && c[k] == 0);
    if (rc >= 0)
        CHECK(rc <= s.max_iter && (s.abs_tol > 0 || s.rel_tol > 0 || rc == s.max_iter));
    if (r->tame) /* finite moderate inputs, valid settings: a result */
        CHECK(finite_in && rc != CDYN_E_NONFINITE && rc != CDYN_E_ARG &&
              (rc < 0 || (all_finite(lambda, m) && all_finite(c, m))));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t b[4] = { 0 };
    cdyn_real x[NX] = { 0 };
    reader r;
    memcpy(b, data, size < sizeof b ? size : sizeof b);
    if (size > sizeof b)
        memcpy(x, data + sizeof b, size - sizeof b < sizeof x ? size - sizeof b : sizeof x);
    const int flags = b[1], max_iter = b[2] % 13 - 2, solver = (b[0] >> 2) % 3;
    r.x = x, r.at = 0, r.tame = flags & FLAG_TAME;
    switch (b[0] % 4) {
    case 0: FUZZ_STEP(fz_quad, FZ_QUAD, 1); break;
    case 1: FUZZ_STEP(fz_arm, FZ_ARM, 0); break;
    default: fuzz_cones(&r, flags, max_iter, b[3] | (unsigned)b[0] << 8, b[0] % 4 == 3); break;
    }
    return 0;
}
