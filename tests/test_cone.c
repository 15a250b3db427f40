/* The cones and solvers of runtime/cdyn_cone.c (cdyn_contact.h), in the scalar the build
 * asks for: this file is built twice, once with -DCDYN_FLOAT (test_cone_float compiles
 * cdyn_cone.c itself in float).
 *
 * Every check is independent of the code under test: cone membership, the polar identities,
 * the shift and the velocity c = G lambda + g are computed here in double, and the solvers'
 * answers are held against closed forms, brute-force enumeration and each other.
 *
 * Tolerances. Double: the cone identities within 1e-12 of |x| (their arithmetic is a dozen
 * operations, ~1e-15); solvers run to abs_tol 1e-12 and their answer's conditions are checked
 * within 1e-8 of the problem's scale (the answer's error is about cond(G) abs_tol, cond(G)
 * ~1e2..1e3 here). Float: the identities within 2e-5 of |x| (a dozen roundings of 6e-8);
 * solvers to 1e-4 (the rounding of c = G lambda + g over 24 rows is ~1e-5) and conditions
 * within 2e-3 of the scale. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "support/check_main.h"
#include "support/dense.h"
#include "support/rng.h"
#include "cdyn.h"

#ifdef CDYN_FLOAT
#define CONE_TOL 2e-5
#define SOLVE_TOL 1e-4
#define CHECK_TOL 2e-3
#define AGREE_TOL 2e-3
#define CLOSED_TOL 1e-4
#define RHO_TOL 1e-5
#define RHO_SPAN 1e-6 /* the penalty rule's floor of m = mu_prox, as L RHO_SPAN */
#else
#define CONE_TOL 1e-12
#define SOLVE_TOL 1e-12
#define CHECK_TOL 1e-8
#define AGREE_TOL 1e-8
#define CLOSED_TOL 1e-9
#define RHO_TOL 1e-13
#define RHO_SPAN 1e-12
#endif

enum { MAXM = 24, MAXC = 24 };
#define WORK CDYN_CONE_WORK_REALS(MAXM)

/* ---- independent cone arithmetic (double) ------------------------------------------- */

/* Distance of x (3) to K = {|t| <= mu n}, or to K* = {mu |t| <= n}, by the 2d geometry of
 * the (|t|, n) half plane: inside 0, else the distance to the boundary ray, or to the apex
 * when x is in the polar cone. */
static double ray_distance(double t, double n, double dt, double dn)
{
    /* the ray (dt, dn) (unit), the point (t, n), t >= 0 */
    const double along = t * dt + n * dn;
    if (along <= 0)
        return hypot(t, n);
    return fabs(t * dn - n * dt);
}

static double dist_K(double mu, const double *x)
{
    const double t = hypot(x[0], x[1]), n = x[2], r = hypot(mu, 1);
    if (t <= mu * n)
        return 0;
    return ray_distance(t, n, mu / r, 1 / r);
}

static double dist_Kdual(double mu, const double *x)
{
    const double t = hypot(x[0], x[1]), n = x[2], r = hypot(mu, 1);
    if (mu * t <= n)
        return 0;
    return ray_distance(t, n, 1 / r, mu / r);
}

static double norm3(const double *x)
{
    return sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
}

static double log_uniform(splitmix64 *r, double lo_exp, double hi_exp)
{
    return pow(10, splitmix64_range(r, lo_exp, hi_exp));
}

/* A friction coefficient in [0, 2], exactly 0 one time in eight. */
static double random_mu(splitmix64 *r)
{
    return splitmix64_unit(r) < 0.125 ? 0 : splitmix64_range(r, 0, 2);
}

/* A random 3-vector: each component of its own sign and scale (two decades), the whole
 * over sixteen decades. */
static void random_vector3(splitmix64 *r, cdyn_real *x)
{
    const double scale = log_uniform(r, -8, 8);
    for (int j = 0; j < 3; ++j)
        x[j] = (cdyn_real)(scale * splitmix64_range(r, -1, 1) * log_uniform(r, -1, 1));
}

/* ---- cones -------------------------------------------------------------------------- */

START_TEST(rows_of_valid_and_invalid_blocks)
{
    cdyn_cone ok[3] = { { CDYN_CONE_FRICTION, 3, 0.5f },
                        { CDYN_CONE_POSITIVE, 1, 0 },
                        { CDYN_CONE_FREE, 6, 0 } };
    ck_assert_int_eq(cdyn_cone_rows(ok, 3), 10);
    ck_assert_int_eq(cdyn_cone_rows(ok, 0), 0);
    ck_assert_int_eq(cdyn_cone_rows(NULL, 1), -1);
    ck_assert_int_eq(cdyn_cone_rows(ok, -1), -1);
    const cdyn_cone bad[7] = { { CDYN_CONE_FRICTION, 2, 0.5f },
                               { CDYN_CONE_FRICTION, 3, -0.1f },
                               { CDYN_CONE_FRICTION, 3, NAN },
                               { CDYN_CONE_FRICTION, 3, INFINITY },
                               { CDYN_CONE_POSITIVE, 2, 0 },
                               { CDYN_CONE_FREE, 7, 0 },
                               { 3, 1, 0 } };
    for (int k = 0; k < 7; ++k) {
        cdyn_cone two[2] = { ok[0], bad[k] };
        ck_assert_int_eq(cdyn_cone_rows(two, 2), -1);
    }
    ok[0].mu = 0; /* mu = 0 is a frictionless contact, valid */
    ck_assert_int_eq(cdyn_cone_rows(ok, 1), 3);
}
END_TEST

/* P = P_K, D = P_K*: for every x, P x in K and x - P x in the polar cone -K*, orthogonal to
 * P x; together these say P x is the projection (they are its optimality conditions).
 * Moreau's decomposition then gives x = P_K(x) - P_K*(-x), and symmetrically
 * x = P_K*(x) - P_K(-x); both are idempotent. A block set of a friction cone, a half line
 * and free rows is projected at once. */
START_TEST(projections_onto_the_cones_and_their_duals)
{
    splitmix64 r = { 20240611 };
    for (int sample = 0; sample < 100000; ++sample) {
        const int dfree = 1 + (int)(splitmix64_unit(&r) * 6);
        const cdyn_cone cones[3] = { { CDYN_CONE_FRICTION, 3, (cdyn_real)random_mu(&r) },
                                     { CDYN_CONE_POSITIVE, 1, 0 },
                                     { CDYN_CONE_FREE, dfree, 0 } };
        const double mu = cones[0].mu;
        cdyn_real x[10], nx[10], p[10], d[10], pp[10], dd[10], pn[10], dn[10];
        random_vector3(&r, x);
        x[3] = (cdyn_real)(splitmix64_range(&r, -1, 1) * log_uniform(&r, -6, 6));
        for (int j = 0; j < dfree; ++j)
            x[4 + j] = (cdyn_real)splitmix64_range(&r, -1, 1);
        const int m = 4 + dfree;
        for (int j = 0; j < m; ++j)
            nx[j] = -x[j];
        cdyn_cone_project(cones, 3, x, p);
        cdyn_cone_project_dual(cones, 3, x, d);
        cdyn_cone_project(cones, 3, p, pp);
        cdyn_cone_project_dual(cones, 3, d, dd);
        cdyn_cone_project(cones, 3, nx, pn);
        cdyn_cone_project_dual(cones, 3, nx, dn);

        double xd[3], pd[3], dd3[3], rp[3], rd[3];
        for (int j = 0; j < 3; ++j) {
            xd[j] = x[j], pd[j] = p[j], dd3[j] = d[j];
            rp[j] = -(xd[j] - pd[j]);  /* -(x - P x) must be in K* */
            rd[j] = -(xd[j] - dd3[j]); /* -(x - D x) must be in K */
        }
        const double tol = CONE_TOL * norm3(xd);
        ck_assert_double_le(dist_K(mu, pd), tol);
        ck_assert_double_le(dist_Kdual(mu, rp), tol);
        ck_assert_double_le(dist_Kdual(mu, dd3), tol);
        ck_assert_double_le(dist_K(mu, rd), tol);
        double op = 0, od = 0;
        for (int j = 0; j < 3; ++j) {
            op += (xd[j] - pd[j]) * pd[j];
            od += (xd[j] - dd3[j]) * dd3[j];
            ck_assert_double_le(fabs((double)pp[j] - pd[j]), tol);
            ck_assert_double_le(fabs((double)dd[j] - dd3[j]), tol);
            ck_assert_double_le(fabs(pd[j] - (double)dn[j] - xd[j]), tol);
            ck_assert_double_le(fabs(dd3[j] - (double)pn[j] - xd[j]), tol);
        }
        ck_assert_double_le(fabs(op), tol * norm3(xd));
        ck_assert_double_le(fabs(od), tol * norm3(xd));
        /* the half line is its own dual; free rows: K everything, K* = {0} */
        ck_assert(p[3] == (x[3] > 0 ? x[3] : 0) && d[3] == p[3]);
        for (int j = 4; j < m; ++j)
            ck_assert(p[j] == x[j] && d[j] == 0);
    }
}
END_TEST

/* Edges the random draws rarely reach: mu = 0 (K the normal half line, K* the half space
 * n >= 0), the apex, points on the axis, exactly on the cone. */
START_TEST(projection_edge_cases)
{
    const cdyn_cone k0 = { CDYN_CONE_FRICTION, 3, 0 }, k1 = { CDYN_CONE_FRICTION, 3, 1 };
    const cdyn_real cases[5][3] = {
        { 0, 0, -2 }, { 3, 4, 2 }, { 3, 4, -2 }, { 0, 0, 0 }, { 3, 4, 5 }
    };
    const cdyn_real want_k0[5][3] = {
        { 0, 0, 0 }, { 0, 0, 2 }, { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 5 }
    };
    const cdyn_real want_d0[5][3] = {
        { 0, 0, 0 }, { 3, 4, 2 }, { 3, 4, 0 }, { 0, 0, 0 }, { 3, 4, 5 }
    };
    /* mu = 1 (self-dual): (3, 4, 5) is on the cone; (3, 4, +-2) go to ((5 +- 2)/2) (3/5, 4/5, 1) */
    const cdyn_real want_k1[5][3] = {
        { 0, 0, 0 }, { 2.1f, 2.8f, 3.5f }, { 0.9f, 1.2f, 1.5f }, { 0, 0, 0 }, { 3, 4, 5 }
    };
    for (int c = 0; c < 5; ++c) {
        cdyn_real y[3];
        cdyn_cone_project(&k0, 1, cases[c], y);
        for (int j = 0; j < 3; ++j)
            ck_assert_double_eq_tol(y[j], want_k0[c][j], 1e-6);
        cdyn_cone_project_dual(&k0, 1, cases[c], y);
        for (int j = 0; j < 3; ++j)
            ck_assert_double_eq_tol(y[j], want_d0[c][j], 1e-6);
        cdyn_cone_project(&k1, 1, cases[c], y);
        for (int j = 0; j < 3; ++j)
            ck_assert_double_eq_tol(y[j], want_k1[c][j], 1e-6);
        cdyn_cone_project_dual(&k1, 1, cases[c], y); /* mu = 1: K* = K */
        for (int j = 0; j < 3; ++j)
            ck_assert_double_eq_tol(y[j], want_k1[c][j], 1e-6);
    }
    cdyn_real x[3] = { 3, 4, 2 };
    cdyn_cone_project(&k1, 1, x, x); /* in place */
    ck_assert_double_eq_tol(x[2], 3.5, 1e-6);
}
END_TEST

/* s = (0, 0, mu |c_t|), zero on other blocks. c + s is in K* exactly when c_n >= 0 (its
 * normal part c_n + mu |c_t| against mu |c_t|); for c_n < 0 its distance to K* is
 * |c_n| / sqrt(1 + mu^2) to the boundary, or |c + s| to the apex when
 * |c_t| (1 + mu^2) <= -mu c_n. */
START_TEST(de_saxce_shift)
{
    splitmix64 r = { 77 };
    for (int sample = 0; sample < 100000; ++sample) {
        const cdyn_cone cones[3] = { { CDYN_CONE_POSITIVE, 1, 0 },
                                     { CDYN_CONE_FRICTION, 3, (cdyn_real)random_mu(&r) },
                                     { CDYN_CONE_FREE, 2, 0 } };
        cdyn_real c[6], s[6], v[6], pv[6];
        for (int j = 0; j < 6; ++j)
            c[j] = (cdyn_real)splitmix64_range(&r, -1, 1);
        random_vector3(&r, c + 1);
        cdyn_cone_desaxce(cones, 3, c, s);
        const double mu = cones[1].mu, ct = hypot(c[1], c[2]), cn = c[3];
        ck_assert(s[0] == 0 && s[1] == 0 && s[2] == 0 && s[4] == 0 && s[5] == 0);
        ck_assert_double_le(fabs(s[3] - mu * ct), CONE_TOL * (mu * ct + 1e-300));
        for (int j = 0; j < 6; ++j)
            v[j] = c[j] + s[j];
        cdyn_cone_project_dual(cones, 3, v, pv);
        const double vd[3] = { v[1], v[2], v[3] }, scale = norm3(vd);
        const double gap = hypot(pv[1] - vd[0], hypot(pv[2] - vd[1], pv[3] - vd[2]));
        double want = 0;
        if (cn < 0)
            want = ct * (1 + mu * mu) <= -mu * cn ? scale : -cn / hypot(1, mu);
        ck_assert_double_le(fabs(gap - want), 4 * CONE_TOL * scale);
        ck_assert_double_le(fabs(dist_Kdual(mu, vd) - want), 4 * CONE_TOL * scale);
    }
}
END_TEST

/* ---- problems ----------------------------------------------------------------------- */

typedef struct {
    int ncones, m;
    cdyn_cone cones[MAXC];
    cdyn_real G[MAXM * MAXM], g[MAXM];
} problem;

/* G = A A^T + eps I (A m x (m + 2), entries in [-1, 1], eps 0.1: cond(G) ~1e2..1e3) and g in
 * [-1, 1], a unilateral block's normal row in [-1, 0.3] so that most touch. Blocks: a
 * friction cone (mu from random_mu, or 0 when frictionless), a half line, or free rows
 * (1..3), up to m rows. */
static void random_problem(problem *p, splitmix64 *r, int m, int frictionless)
{
    double A[MAXM * (MAXM + 2)];
    p->ncones = p->m = 0;
    while (p->m < m) {
        const double u = splitmix64_unit(r);
        cdyn_cone *k = &p->cones[p->ncones++];
        const int left = m - p->m;
        if (u < 0.6 && left >= 3)
            *k = (cdyn_cone){ CDYN_CONE_FRICTION, 3, (cdyn_real)(frictionless ? 0 : random_mu(r)) };
        else if (u < 0.85 || left == 1)
            *k = (cdyn_cone){ CDYN_CONE_POSITIVE, 1, 0 };
        else
            *k = (cdyn_cone){ CDYN_CONE_FREE, 1 + (int)(splitmix64_unit(r) * (left < 3 ? left : 3)),
                              0 };
        p->m += k->dim;
    }
    const int n = m + 2;
    for (int i = 0; i < m * n; ++i)
        A[i] = splitmix64_range(r, -1, 1);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
            double s = i == j ? 0.1 : 0;
            for (int l = 0; l < n; ++l)
                s += A[i * n + l] * A[j * n + l];
            p->G[i * m + j] = (cdyn_real)s;
        }
    for (int i = 0, row = 0; i < p->ncones; row += p->cones[i].dim, ++i)
        for (int j = 0; j < p->cones[i].dim; ++j) {
            const int normal = p->cones[i].kind != CDYN_CONE_FREE && j == p->cones[i].dim - 1;
            p->g[row + j] =
                (cdyn_real)(normal ? splitmix64_range(r, -1, 0.3) : splitmix64_range(r, -1, 1));
        }
}

static cdyn_cone_settings solve_settings(int ccp)
{
    cdyn_cone_settings s = CDYN_CONE_SETTINGS_DEFAULT;
    s.max_iter = 100000;
    s.abs_tol = (cdyn_real)SOLVE_TOL;
    s.ccp = ccp;
    return s;
}

static double max_abs_real(const cdyn_real *x, int n)
{
    double e = 0;
    for (int k = 0; k < n; ++k)
        e = fmax(e, fabs((double)x[k]));
    return e;
}

/* The problem's conditions at lambda, all in double from the scalars given: lambda in K,
 * c + s in K* (Coulomb: c_n >= 0; the relaxation: mu |c_t| <= c_n; free rows: c = 0) and
 * lambda . (c + s) = 0, within CHECK_TOL of the scales of lambda, of c and of their product. */
static void check_solution(const problem *p, int ccp, const cdyn_real *lambda)
{
    const int m = p->m;
    double c[MAXM], l[MAXM];
    const double sl = fmax(1, max_abs_real(lambda, m));
    double sc = 1;
    for (int i = 0; i < m; ++i) {
        double e = p->g[i], a = fabs((double)p->g[i]);
        for (int j = 0; j < m; ++j) {
            e += (double)p->G[i * m + j] * lambda[j];
            a += fabs((double)p->G[i * m + j] * lambda[j]);
        }
        c[i] = e, l[i] = lambda[i];
        sc = fmax(sc, a);
    }
    for (int i = 0, r = 0; i < p->ncones; r += p->cones[i].dim, ++i) {
        const cdyn_cone *k = &p->cones[i];
        if (k->kind == CDYN_CONE_FREE) {
            for (int j = 0; j < k->dim; ++j)
                ck_assert_double_le(fabs(c[r + j]), CHECK_TOL * sc);
        } else if (k->kind == CDYN_CONE_POSITIVE) {
            ck_assert_double_ge(l[r], -CHECK_TOL * sl);
            ck_assert_double_ge(c[r], -CHECK_TOL * sc);
            ck_assert_double_le(fabs(l[r] * c[r]), CHECK_TOL * sl * sc);
        } else {
            const double mu = k->mu, ct = hypot(c[r], c[r + 1]);
            const double v[3] = { c[r], c[r + 1], c[r + 2] + (ccp ? 0 : mu * ct) };
            ck_assert_double_le(dist_K(mu, l + r), CHECK_TOL * sl);
            ck_assert_double_le(dist_Kdual(mu, v), CHECK_TOL * sc);
            ck_assert_double_le(fabs(l[r] * v[0] + l[r + 1] * v[1] + l[r + 2] * v[2]),
                                CHECK_TOL * sl * sc);
        }
    }
}

typedef int (*solver)(const cdyn_cone *, int, const cdyn_real *, const cdyn_real *,
                      const cdyn_cone_settings *, cdyn_real *, cdyn_real *, cdyn_real *,
                      cdyn_cone_stats *);

/* Solves to SOLVE_TOL, checks the answer and the returned c and stats, then re-solves warm
 * from it: one iteration (the fewest a solve does). The re-solve asks 100 abs_tol: the
 * answer is within about cond(G) abs_tol of the solution, and one iteration from it leaves
 * residuals of that size, not below abs_tol itself (PGS's residuals do not decrease
 * monotonically; ADMM restarts from the spectral penalty, not the adapted one). */
static void solve_and_check(const problem *p, solver f, int ccp, cdyn_real *lambda)
{
    cdyn_cone_settings s = solve_settings(ccp);
    cdyn_real c[MAXM], work[WORK], again[MAXM];
    cdyn_cone_stats st;
    const int it = f(p->cones, p->ncones, p->G, p->g, &s, lambda, c, work, &st);
    ck_assert_int_ge(it, 1);
    ck_assert_int_eq(st.iterations, it);
    check_solution(p, ccp, lambda);
    for (int i = 0; i < p->m; ++i) {
        double e = p->g[i];
        for (int j = 0; j < p->m; ++j)
            e += (double)p->G[i * p->m + j] * lambda[j];
        ck_assert_double_le(fabs(e - c[i]), CHECK_TOL * (1 + fabs(e)));
    }
    ck_assert_double_le(st.dual, CHECK_TOL);
    ck_assert_double_le(st.complementarity, CHECK_TOL);
    s.warm_start = 1;
    s.abs_tol *= 100;
    memcpy(again, lambda, sizeof again);
    ck_assert_int_eq(f(p->cones, p->ncones, p->G, p->g, &s, again, NULL, work, &st), 1);
    ck_assert_double_le(max_abs_real(again, p->m) - max_abs_real(lambda, p->m),
                        AGREE_TOL * fmax(1, max_abs_real(lambda, p->m)));
}

/* Random problems of 3..24 rows, under Coulomb's law and its convex relaxation, by both
 * solvers; the relaxation is a strictly convex QP (G positive definite): one answer, so
 * ADMM and PGS agree. */
START_TEST(random_problems_by_both_solvers)
{
    splitmix64 r = { 1000 + (uint64_t)_i };
    problem p;
    random_problem(&p, &r, 3 + _i % 22, 0);
    for (int ccp = 0; ccp <= 1; ++ccp) {
        cdyn_real la[MAXM], lp[MAXM];
        solve_and_check(&p, cdyn_cone_admm, ccp, la);
        solve_and_check(&p, cdyn_cone_pgs, ccp, lp);
        if (ccp) {
            const double scale = fmax(1, max_abs_real(la, p.m));
            for (int k = 0; k < p.m; ++k)
                ck_assert_double_le(fabs((double)la[k] - lp[k]), AGREE_TOL * scale);
        }
    }
}
END_TEST

/* The frictionless problem (half lines, friction cones with mu = 0, free rows) is an LCP;
 * with G positive definite its answer is unique, found by trying every active set of the
 * unilateral rows: free rows and the active set solved with c = 0, the rest at lambda = 0,
 * the one with lambda >= 0 and c >= 0. The mu = 0 cones' tangential rows stay at 0. */
static void lcp_by_enumeration(const problem *p, double *want)
{
    int uni[MAXM], nuni = 0, fixed0[MAXM] = { 0 }, isfree[MAXM] = { 0 };
    for (int i = 0, r = 0; i < p->ncones; r += p->cones[i].dim, ++i) {
        const cdyn_cone *k = &p->cones[i];
        if (k->kind == CDYN_CONE_FREE)
            for (int j = 0; j < k->dim; ++j)
                isfree[r + j] = 1;
        else
            uni[nuni++] = r + k->dim - 1;
        if (k->kind == CDYN_CONE_FRICTION)
            fixed0[r] = fixed0[r + 1] = 1;
    }
    const int m = p->m;
    int found = 0;
    for (unsigned set = 0; set < (1u << nuni) && !found; ++set) {
        int act[MAXM], na = 0, on[MAXM] = { 0 };
        double Gaa[MAXM * MAXM], x[MAXM];
        for (int i = 0; i < m; ++i)
            on[i] = isfree[i];
        for (int u = 0; u < nuni; ++u)
            if (set & (1u << u))
                on[uni[u]] = 1;
        for (int i = 0; i < m; ++i)
            if (on[i] && !fixed0[i])
                act[na++] = i;
        for (int a = 0; a < na; ++a) {
            x[a] = -(double)p->g[act[a]];
            for (int b = 0; b < na; ++b)
                Gaa[a * na + b] = p->G[act[a] * m + act[b]];
        }
        ck_assert_int_eq(dense_cholesky_solve(Gaa, na, x, 1), 0);
        for (int i = 0; i < m; ++i)
            want[i] = 0;
        for (int a = 0; a < na; ++a)
            want[act[a]] = x[a];
        found = 1;
        for (int u = 0; u < nuni; ++u) {
            const int i = uni[u];
            double c = p->g[i];
            for (int j = 0; j < m; ++j)
                c += (double)p->G[i * m + j] * want[j];
            if (want[i] < -1e-12 || c < -1e-12)
                found = 0;
        }
    }
    ck_assert(found);
}

START_TEST(frictionless_lcp_against_enumeration)
{
    splitmix64 r = { 5000 + (uint64_t)_i };
    problem p;
    double want[MAXM];
    random_problem(&p, &r, 3 + _i % 6, 1);
    lcp_by_enumeration(&p, want);
    const double scale = fmax(1, dense_max_abs(want, p.m));
    for (int f = 0; f < 2; ++f) {
        cdyn_real lambda[MAXM], work[WORK];
        cdyn_cone_settings s = solve_settings(_i % 2);
        const int it = (f ? cdyn_cone_pgs : cdyn_cone_admm)(p.cones, p.ncones, p.G, p.g, &s, lambda,
                                                            NULL, work, NULL);
        ck_assert_int_ge(it, 1);
        for (int k = 0; k < p.m; ++k)
            ck_assert_double_le(fabs(lambda[k] - want[k]), AGREE_TOL * scale);
    }
}
END_TEST

/* One contact, G = diag(a, a, b). Coulomb's law: g_n >= 0 separates (lambda = 0, c = g:
 * c + s is in K* whenever c_n >= 0); g_n < 0 gives c_n = 0, lambda_n = -g_n / b, and sticks
 * (c = 0, lambda_t = -g_t / a) when |g_t| / a <= mu lambda_n, else slides: lambda_t = -mu
 * lambda_n g_t/|g_t| against the slip c_t = g_t (1 - a mu lambda_n / |g_t|). The convex
 * relaxation separates only when g is in K* (mu |g_t| <= g_n), sticks as Coulomb's, and
 * otherwise slides with lambda_n = (mu |g_t| - g_n)/(a mu^2 + b) and c_n = mu |c_t| > 0:
 * even a separating contact (g = (1, -2, 0.5)) pushes, the relaxation's known artefact. */
START_TEST(stick_slide_and_separate_in_closed_form)
{
    const double a = 2, b = 0.5, mu = 0.6;
    const cdyn_cone cone = { CDYN_CONE_FRICTION, 3, (cdyn_real)mu };
    const cdyn_real G[9] = { (cdyn_real)a, 0, 0, 0, (cdyn_real)a, 0, 0, 0, (cdyn_real)b };
    const double gs[5][3] = {
        { 0.3, -0.2, -1 }, { 3, 4, -1 }, { 1, -2, 0.5 }, { -0.4, 1.2, -3 }, { 0.3, 0.4, 2 }
    };
    for (int c = 0; c < 5; ++c)
        for (int ccp = 0; ccp <= 1; ++ccp) {
            const double *gd = gs[c], gt = hypot(gd[0], gd[1]);
            double want[3] = { 0, 0, 0 };
            const int apart = ccp ? mu * gt <= gd[2] : gd[2] >= 0;
            if (!apart && gd[2] < 0 && gt / a <= mu * (-gd[2] / b)) {
                want[0] = -gd[0] / a, want[1] = -gd[1] / a, want[2] = -gd[2] / b;
            } else if (!apart) {
                want[2] = ccp ? (mu * gt - gd[2]) / (a * mu * mu + b) : -gd[2] / b;
                want[0] = -mu * want[2] * gd[0] / gt, want[1] = -mu * want[2] * gd[1] / gt;
            }
            const cdyn_real g[3] = { (cdyn_real)gd[0], (cdyn_real)gd[1], (cdyn_real)gd[2] };
            for (int f = 0; f < 2; ++f) {
                cdyn_real lambda[3], cv[3], work[CDYN_CONE_WORK_REALS(3)];
                cdyn_cone_settings s = solve_settings(ccp);
                ck_assert_int_ge((f ? cdyn_cone_pgs : cdyn_cone_admm)(&cone, 1, G, g, &s, lambda,
                                                                      cv, work, NULL),
                                 1);
                for (int j = 0; j < 3; ++j) {
                    const double cj = (j < 2 ? a : b) * want[j] + gd[j];
                    ck_assert_double_le(fabs(lambda[j] - want[j]), CLOSED_TOL * 4);
                    ck_assert_double_le(fabs(cv[j] - cj), CLOSED_TOL * 4);
                }
            }
        }
}
END_TEST

/* With both tolerances 0 a solver does exactly max_iter iterations; the same iterations
 * asked with an abs_tol they cannot reach give CDYN_E_NOT_CONVERGED and the same last
 * iterate. */
START_TEST(max_iter_without_tolerances_and_not_converged)
{
    splitmix64 r = { 31 };
    problem p;
    random_problem(&p, &r, 12, 0);
    for (int f = 0; f < 2; ++f) {
        const solver fn = f ? cdyn_cone_pgs : cdyn_cone_admm;
        cdyn_cone_settings s = solve_settings(0);
        cdyn_real l1[MAXM], l2[MAXM], c2[MAXM], work[WORK];
        cdyn_cone_stats st;
        s.abs_tol = s.rel_tol = 0;
        s.max_iter = 3;
        ck_assert_int_eq(fn(p.cones, p.ncones, p.G, p.g, &s, l1, NULL, work, &st), 3);
        ck_assert_int_eq(st.iterations, 3);
        s.abs_tol = (cdyn_real)SOLVE_TOL;
        ck_assert_int_eq(fn(p.cones, p.ncones, p.G, p.g, &s, l2, c2, work, &st),
                         CDYN_E_NOT_CONVERGED);
        ck_assert_int_eq(st.iterations, 3);
        ck_assert(st.dual > SOLVE_TOL || st.complementarity > SOLVE_TOL || st.primal > SOLVE_TOL ||
                  st.change > 0);
        for (int k = 0; k < p.m; ++k)
            ck_assert(l1[k] == l2[k] && isfinite((double)c2[k]));
        /* rel_tol alone: stops once the change is small, before max_iter */
        s.abs_tol = 0;
        s.rel_tol = (cdyn_real)(CHECK_TOL);
        s.max_iter = 100000;
        const int it = fn(p.cones, p.ncones, p.G, p.g, &s, l2, NULL, work, &st);
        ck_assert_int_ge(it, 1);
        ck_assert_double_le(st.change, CHECK_TOL * fmax(1, max_abs_real(l2, p.m)));
    }
}
END_TEST

/* ---- bad input ---------------------------------------------------------------------- */

static void assert_zeros(const cdyn_real *x, int n)
{
    for (int k = 0; k < n; ++k)
        ck_assert(x[k] == 0);
}

START_TEST(bad_input)
{
    splitmix64 r = { 9 };
    problem p;
    random_problem(&p, &r, 8, 0);
    const int m = p.m;
    for (int f = 0; f < 2; ++f) {
        const solver fn = f ? cdyn_cone_pgs : cdyn_cone_admm;
        cdyn_real lambda[MAXM], c[MAXM], work[WORK], G[MAXM * MAXM], g[MAXM];
        const cdyn_cone_settings good = solve_settings(0);
        cdyn_cone_settings s = good;
        memcpy(G, p.G, sizeof G);
        memcpy(g, p.g, sizeof g);
        /* non-finite G, g, warm-start lambda: zeros out, never a NaN */
        for (int which = 0; which < 4; ++which) {
            for (int k = 0; k < m; ++k)
                lambda[k] = 5, c[k] = 7;
            s = good;
            if (which == 0)
                g[2] = NAN;
            else if (which == 1)
                G[m + 1] = INFINITY;
            else
                s.warm_start = 1, lambda[1] = which == 2 ? NAN : -INFINITY;
            ck_assert_int_eq(fn(p.cones, p.ncones, G, g, &s, lambda, c, work, NULL),
                             CDYN_E_NONFINITE);
            assert_zeros(lambda, m);
            assert_zeros(c, m);
            memcpy(G, p.G, sizeof G);
            memcpy(g, p.g, sizeof g);
        }
        /* a NaN lambda without warm start is not read */
        s = good;
        lambda[0] = NAN;
        ck_assert_int_ge(fn(p.cones, p.ncones, G, g, &s, lambda, NULL, work, NULL), 1);
        /* settings and arrays */
        cdyn_cone_settings bad[6];
        for (int k = 0; k < 6; ++k)
            bad[k] = good;
        bad[0].max_iter = 0;
        bad[1].abs_tol = -1;
        bad[2].rel_tol = NAN;
        bad[3].abs_tol = NAN;
        if (f) {
            bad[4].over_relax = 2;
            bad[5].over_relax = 0;
        } else {
            bad[4].tau = 0;
            bad[5].mu_prox = -1;
        }
        for (int k = 0; k < 6; ++k) {
            lambda[0] = 3;
            ck_assert_int_eq(fn(p.cones, p.ncones, G, g, &bad[k], lambda, c, work, NULL),
                             CDYN_E_ARG);
            ck_assert(lambda[0] == 3); /* untouched */
        }
        cdyn_cone cones[MAXC];
        memcpy(cones, p.cones, sizeof cones);
        cones[0].kind = CDYN_CONE_FRICTION, cones[0].dim = 3, cones[0].mu = -0.5f;
        ck_assert_int_eq(fn(cones, p.ncones, G, g, &s, lambda, c, work, NULL), CDYN_E_ARG);
        ck_assert_int_eq(fn(p.cones, 0, G, g, &s, lambda, c, work, NULL), CDYN_E_ARG);
        ck_assert_int_eq(fn(NULL, 1, G, g, &s, lambda, c, work, NULL), CDYN_E_ARG);
        ck_assert_int_eq(fn(p.cones, p.ncones, NULL, g, &s, lambda, c, work, NULL), CDYN_E_ARG);
        ck_assert_int_eq(fn(p.cones, p.ncones, G, NULL, &s, lambda, c, work, NULL), CDYN_E_ARG);
        ck_assert_int_eq(fn(p.cones, p.ncones, G, g, NULL, lambda, c, work, NULL), CDYN_E_ARG);
        ck_assert_int_eq(fn(p.cones, p.ncones, G, g, &s, NULL, c, work, NULL), CDYN_E_ARG);
        ck_assert_int_eq(fn(p.cones, p.ncones, G, g, &s, lambda, c, NULL, NULL), CDYN_E_ARG);
    }
    /* ADMM: the spectral rule needs power iterations, a given rho does not */
    cdyn_cone_settings s = solve_settings(0);
    cdyn_real lambda[MAXM], work[WORK];
    s.power_iter = 0;
    ck_assert_int_eq(cdyn_cone_admm(p.cones, p.ncones, p.G, p.g, &s, lambda, NULL, work, NULL),
                     CDYN_E_ARG);
    s.rho = 1;
    ck_assert_int_ge(cdyn_cone_admm(p.cones, p.ncones, p.G, p.g, &s, lambda, NULL, work, NULL), 1);
    check_solution(&p, 0, lambda);
    /* the spectral rule's L / mu_prox underflowing to 0 (a subnormal G, a huge mu_prox): the
     * power x^p of 0 used to loop for ever in its range reduction; now a status comes back */
    {
        const cdyn_cone one[1] = { { CDYN_CONE_FRICTION, 3, 0.5f } };
        const cdyn_real tiny = sizeof(cdyn_real) == sizeof(float)
                                   ? CDYN_R(1e-30) * CDYN_R(1e-14)
                                   : CDYN_R(1e-300) * CDYN_R(1e-20);
        const cdyn_real Gt[9] = { tiny, 0, 0, 0, tiny, 0, 0, 0, tiny }, gt[3] = { 0, 0, -1 };
        cdyn_cone_settings t = solve_settings(0);
        t.rho = 0;
        t.power_iter = 5;
        t.mu_prox = CDYN_R(1e30);
        const int rc = cdyn_cone_admm(one, 1, Gt, gt, &t, lambda, NULL, work, NULL);
        ck_assert(rc >= 1 || rc == CDYN_E_NOT_CONVERGED || rc == CDYN_E_NONFINITE ||
                  rc == CDYN_E_SINGULAR);
    }
    /* a given rho whose 1 / (tau rho) overflows (a subnormal) is refused, not iterated as NaN */
    s.rho = sizeof(cdyn_real) == sizeof(float) ? CDYN_R(1e-30) * CDYN_R(1e-10)
                                               : CDYN_R(1e-300) * CDYN_R(1e-10);
    if (s.rho > 0) /* the platform keeps subnormals */
        ck_assert_int_eq(
            cdyn_cone_admm(p.cones, p.ncones, p.G, p.g, &s, lambda, NULL, work, NULL), CDYN_E_ARG);
}
END_TEST

/* PGS divides by diagonal entries and factors free rows' blocks; ADMM factors
 * G + (mu_prox + tau rho) I: not positive definite gives CDYN_E_SINGULAR and zeros. */
START_TEST(singular)
{
    const cdyn_cone pos[2] = { { CDYN_CONE_POSITIVE, 1, 0 }, { CDYN_CONE_FREE, 2, 0 } };
    const cdyn_real G0[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 1 }; /* zero diagonal entry */
    const cdyn_real G1[9] = { 1, 0, 0, 0, 1, 1, 0, 1, 1 }; /* singular free block */
    const cdyn_real Gneg[9] = { -1, 0, 0, 0, -1, 0, 0, 0, -1 };
    const cdyn_real g[3] = { -1, 1, 1 };
    cdyn_real lambda[3], c[3], work[CDYN_CONE_WORK_REALS(3)];
    cdyn_cone_settings s = solve_settings(0);
    ck_assert_int_eq(cdyn_cone_pgs(pos, 2, G0, g, &s, lambda, c, work, NULL), CDYN_E_SINGULAR);
    assert_zeros(lambda, 3);
    ck_assert_int_eq(cdyn_cone_pgs(pos, 2, G1, g, &s, lambda, c, work, NULL), CDYN_E_SINGULAR);
    s.rho = 1;
    s.mu_prox = 0;
    ck_assert_int_eq(cdyn_cone_admm(pos, 2, Gneg, g, &s, lambda, c, work, NULL), CDYN_E_SINGULAR);
    assert_zeros(c, 3);
    /* a positive semi-definite G is fine for ADMM (the penalty makes it definite); the half
     * line's row, G = 0 there, separates: lambda = 0, c = 1 */
    const cdyn_real gsep[3] = { 1, 1, 1 };
    ck_assert_int_ge(cdyn_cone_admm(pos, 2, G0, gsep, &s, lambda, c, work, NULL), 1);
    ck_assert_double_le(fabs(lambda[0]), CLOSED_TOL);
    ck_assert_double_le(fabs(lambda[1] + 1) + fabs(lambda[2] + 1), CLOSED_TOL);
    /* a G of rounding's size (subnormal entries; found by fuzz_contact): PGS would divide a
     * moderate velocity by it into an overflow, so it is singular; ADMM keeps tau rho above
     * the square root of the smallest normal and returns finite lambda and c */
    const cdyn_cone fric[1] = { { CDYN_CONE_FRICTION, 3, CDYN_R(0.5) } };
    const cdyn_real tiny = sizeof(cdyn_real) == sizeof(float) ? CDYN_R(1e-30) * CDYN_R(1e-14)
                                                              : CDYN_R(1e-300) * CDYN_R(1e-20);
    const cdyn_real Gt[9] = { tiny, 0, 0, 0, tiny, 0, 0, 0, tiny }, gt[3] = { 1, -2, -1 };
    s = solve_settings(0);
    s.rho = 0; /* the spectral rule */
    s.mu_prox = CDYN_R(1e-8);
    ck_assert_int_eq(cdyn_cone_pgs(fric, 1, Gt, gt, &s, lambda, c, work, NULL), CDYN_E_SINGULAR);
    assert_zeros(lambda, 3);
    /* fuzz_contact's input: G zero but one subnormal entry, mu_prox 1e-8 above L, so the
     * adaptation's increment (L/mu_prox)^0.05 is below 1 and takes rho down each iteration
     * until 1 / (tau rho) overflowed into NaN; tau rho is now kept above SQRT_MIN */
    {
        const cdyn_cone three[3] = { { CDYN_CONE_FRICTION, 3, CDYN_R(0.5) },
                                     { CDYN_CONE_FRICTION, 3, CDYN_R(0.5) },
                                     { CDYN_CONE_FREE, 2, 0 } };
        cdyn_real G8[64] = { 0 }, g8[8] = { 0 }, l8[8] = { 0 }, c8[8];
        cdyn_real w8[CDYN_CONE_WORK_REALS(8)];
        G8[0] = tiny;
        cdyn_cone_settings f = solve_settings(1);
        f.rho = 0;
        f.mu_prox = CDYN_R(1e-8);
        f.tau = CDYN_R(0.1);
        f.power_iter = 6;
        f.max_iter = 4;
        f.abs_tol = f.rel_tol = 0;
        f.warm_start = 1;
        ck_assert_int_eq(cdyn_cone_admm(three, 3, G8, g8, &f, l8, c8, w8, NULL), 4);
        for (int k = 0; k < 8; ++k)
            ck_assert(isfinite(l8[k]) && isfinite(c8[k]));
    }
}
END_TEST

/* ---- the penalty's spectral rule ---------------------------------------------------- */

/* rho = sqrt(L m) (L/m)^rho_power against libm's pow: G diagonal (L its largest entry, the
 * others at most 2% of it, so 20 power iterations leave 0.02^40 of error), one iteration
 * and an unreachable ratio_primal_dual (no adaptation). Exponents of both signs and
 * conditions L/m on both sides of 1 exercise the ln and exp of cdyn_cone.c over their
 * reductions; mu_prox = 0 takes the floor m = RHO_SPAN L. */
START_TEST(spectral_penalty_against_libm)
{
    const cdyn_cone cones[2] = { { CDYN_CONE_FRICTION, 3, 0.5f }, { CDYN_CONE_FREE, 3, 0 } };
    const double mus[6] = { 0, 1e-6, 1e-3, 0.5, 37, 1e4 };
    const double powers[7] = { -1, -0.5, 0.05, 0.2, 0.37, 0.999, 1 };
    const double L = 3.7;
    cdyn_real G[36] = { 0 }, g[6] = { 0.1f, -0.2f, -1, 0.3f, 0, -0.5f }, lambda[6], work[CDYN_CONE_WORK_REALS(6)];
    for (int i = 0; i < 6; ++i)
        G[i * 7] = (cdyn_real)(i == 2 ? L : L * 0.02 * (i + 1) / 7);
    for (int a = 0; a < 6; ++a)
        for (int b = 0; b < 7; ++b) {
            cdyn_cone_settings s = solve_settings(0);
            cdyn_cone_stats st;
            s.max_iter = 1;
            s.abs_tol = 0;
            s.mu_prox = (cdyn_real)mus[a];
            s.rho_power = (cdyn_real)powers[b];
            s.ratio_primal_dual = (cdyn_real)1e30;
            ck_assert_int_eq(cdyn_cone_admm(cones, 2, G, g, &s, lambda, NULL, work, &st), 1);
            const double Lr = (double)G[14], m = fmax(s.mu_prox, (cdyn_real)RHO_SPAN * G[14]);
            const double want = sqrt(Lr * m) * pow(Lr / m, (double)s.rho_power);
            ck_assert_double_le(fabs(st.rho - want), RHO_TOL * want);
        }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cone");
    TCase *cones = tcase_create("cones");
    tcase_add_test(cones, rows_of_valid_and_invalid_blocks);
    tcase_add_test(cones, projections_onto_the_cones_and_their_duals);
    tcase_add_test(cones, projection_edge_cases);
    tcase_add_test(cones, de_saxce_shift);
    suite_add_tcase(s, cones);
    TCase *solvers = tcase_create("solvers");
    tcase_set_timeout(solvers, 120);
    tcase_add_loop_test(solvers, random_problems_by_both_solvers, 0, 44);
    tcase_add_loop_test(solvers, frictionless_lcp_against_enumeration, 0, 24);
    tcase_add_test(solvers, stick_slide_and_separate_in_closed_form);
    tcase_add_test(solvers, max_iter_without_tolerances_and_not_converged);
    tcase_add_test(solvers, bad_input);
    tcase_add_test(solvers, singular);
    tcase_add_test(solvers, spectral_penalty_against_libm);
    suite_add_tcase(s, solvers);
    return check_run(s, CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
