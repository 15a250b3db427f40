/* cdyn_cone.c — the cone complementarity problem of cdyn_contact.h: its cones (projections
 * onto K and K*, the De Saxce shift), the measure of its conditions, and two solvers on a
 * dense G: ADMM after Pinocchio 3.7's ADMMContactSolverTpl, and projected Gauss-Seidel.
 *
 * Projections onto the cone {|t| <= a n} and its dual are closed forms: a point inside is
 * itself, a point in the polar cone goes to 0, any other to its projection on the
 * boundary ray through it. For the friction cone K = {|t| <= mu n} the ray is
 * (mu t/|t|, 1), for K* = {mu |t| <= n} it is (t/|t|, mu); both stay defined at mu = 0,
 * where K is the normal half line and K* the half space n >= 0.
 *
 * The ADMM needs x^p for a real p (the spectral rule of its penalty): without libm it is
 * exp(p ln x) with the ln and exp below, both reduced by powers of two and summed as
 * series, within a few ulps. */
#include <float.h>

#include "cdyn_internal.h"

/* The penalty's spectral rule floors m = mu_prox, and the adapted penalty is kept, within
 * this fraction of L (and L over it): beyond it G + rho I is G's rounding, or the
 * identity's, and the factor says nothing more. */
#ifdef CDYN_FLOAT
#define RHO_SPAN CDYN_R(1e-6)
#else
#define RHO_SPAN CDYN_R(1e-12)
#endif

/* The power iteration for G's largest eigenvalue stops when its estimate changes by at most
 * this fraction (Pinocchio's PowerIterationAlgoTpl rel_tol, 1e-8; a few ulps in float). */
#ifdef CDYN_FLOAT
#define POWER_TOL CDYN_R(4e-7)
#else
#define POWER_TOL CDYN_R(1e-8)
#endif

/* ---- scalars ------------------------------------------------------------------------ */

/* The scalar's smallest normal and largest finite numbers (float.h: freestanding, no libm). */
#ifdef CDYN_FLOAT
#define CDYN_REAL_MIN_NORMAL FLT_MIN
#define CDYN_REAL_MAX FLT_MAX
#else
#define CDYN_REAL_MIN_NORMAL DBL_MIN
#define CDYN_REAL_MAX DBL_MAX
#endif

/* The square root of the smallest normal number (2^-63 in float, 2^-511 in double): the
 * floor of a pivot PGS divides by and of ADMM's tau rho, whose reciprocals then stay
 * below 1 / SQRT_MIN, so that a moderate velocity divided by them is finite. A G this
 * small (subnormal products of a Delassus matrix of 1e-160 m/N s) is rounding, not a
 * mechanism: physical ones are around 1e-6 to 1e6. */
#ifdef CDYN_FLOAT
#define SQRT_MIN CDYN_R(1.0842021724855044e-19)
#else
#define SQRT_MIN CDYN_R(1.4916681462400413e-154)
#endif

static cdyn_real absr(cdyn_real x)
{
    return x < 0 ? -x : x;
}

/* The larger of m and a, a NaN in either kept: a NaN residual never looks small. */
static cdyn_real max_nan(cdyn_real m, cdyn_real a)
{
    return (m != m || a <= m) ? m : a;
}

static cdyn_real norm2(cdyn_real a, cdyn_real b)
{
    return CDYN_SQRT(a * a + b * b);
}

/* ln 2 in two parts (fdlibm's): k LN2_HI is exact for |k| < 2^11 in double. */
#define LN2_HI CDYN_R(6.93147180369123816490e-01)
#define LN2_LO CDYN_R(1.90821492927058770002e-10)
#define INV_LN2 CDYN_R(1.44269504088896338700e+00)
#define TWO32 CDYN_R(4294967296.0)
#define TWO_M32 CDYN_R(2.3283064365386962890625e-10)

/* ln x for a finite x > 0: x = f 2^k with f in [sqrt(1/2), sqrt(2)), and
 * ln f = 2 atanh(u) = 2 (u + u^3/3 + u^5/5 + ...), u = (f - 1)/(f + 1), |u| <= 0.172: twelve
 * terms leave u^24/25 < 1e-19 relative. The reduction multiplies by powers of two (exact). */
static cdyn_real ln_pos(cdyn_real x)
{
    cdyn_real k = 0, s = 0;
    while (x > TWO32) {
        x *= TWO_M32;
        k += 32;
    }
    while (x < TWO_M32) {
        x *= TWO32;
        k -= 32;
    }
    while (x > CDYN_R(1.4142135623730951)) {
        x *= CDYN_R(0.5);
        k += 1;
    }
    while (x < CDYN_R(0.70710678118654752)) {
        x *= 2;
        k -= 1;
    }
    const cdyn_real u = (x - 1) / (x + 1), u2 = u * u;
    for (int j = 11; j >= 0; --j)
        s = s * u2 + 1 / (cdyn_real)(2 * j + 1);
    return k * LN2_HI + (k * LN2_LO + 2 * u * s);
}

/* e^y: y = n ln 2 + r with |r| <= ln2/2, e^r by Taylor's series to r^16/16! (the next term
 * < 1e-21), then scaled by 2^n one power of two at a time (exact until the range's ends).
 * |y| is clamped to 1500, past both scalars' range, so n fits an int. */
static cdyn_real exp_real(cdyn_real y)
{
    if (y > 1500)
        y = 1500;
    if (y < -1500)
        y = -1500;
    int n = (int)(y * INV_LN2 + (y < 0 ? CDYN_R(-0.5) : CDYN_R(0.5)));
    const cdyn_real r = (y - (cdyn_real)n * LN2_HI) - (cdyn_real)n * LN2_LO;
    cdyn_real e = 1;
    for (int j = 16; j >= 1; --j)
        e = 1 + e * r / (cdyn_real)j;
    for (; n >= 32; n -= 32)
        e *= TWO32;
    for (; n <= -32; n += 32)
        e *= TWO_M32;
    for (; n > 0; --n)
        e *= 2;
    for (; n < 0; ++n)
        e *= CDYN_R(0.5);
    return e;
}

/* x^p for x > 0. A ratio that underflowed to 0 or overflowed to infinity (L / mu_prox of
 * an extreme G) is taken as the nearest normal number: ln_pos's reductions by 2^32 never
 * end on 0 or infinity. A NaN stays NaN. */
static cdyn_real pos_pow(cdyn_real x, cdyn_real p)
{
    if (p == 0 || x != x)
        return p == 0 ? 1 : x;
    if (x < CDYN_REAL_MIN_NORMAL)
        x = CDYN_REAL_MIN_NORMAL;
    if (x > CDYN_REAL_MAX)
        x = CDYN_REAL_MAX;
    return exp_real(p * ln_pos(x));
}

/* ---- cones -------------------------------------------------------------------------- */

static int block_ok(const cdyn_cone *k)
{
    switch (k->kind) {
    case CDYN_CONE_FRICTION: return k->dim == 3 && k->mu >= 0 && k->mu - k->mu == 0;
    case CDYN_CONE_POSITIVE: return k->dim == 1;
    case CDYN_CONE_FREE: return k->dim >= 1 && k->dim <= 6;
    default: return 0;
    }
}

int cdyn_cone_rows(const cdyn_cone *cones, int ncones)
{
    int rows = 0;
    if (ncones < 0 || (ncones > 0 && !cones))
        return -1;
    for (int i = 0; i < ncones; ++i) {
        if (!block_ok(&cones[i]) || rows > 0x7fffffff - 6)
            return -1;
        rows += cones[i].dim;
    }
    return rows;
}

/* y = P_K(x) for K = {|t| <= mu n} (x may be y). The polar cone {mu |t| <= -n} is tested
 * first: at mu = 0 the inside test |t| <= 0 would also pass (0, 0, n < 0). */
static void project_friction(cdyn_real mu, const cdyn_real *x, cdyn_real *y)
{
    const cdyn_real t1 = x[0], t2 = x[1], n = x[2], t = norm2(t1, t2);
    if (mu * t <= -n) {
        y[0] = y[1] = y[2] = 0;
    } else if (t <= mu * n) {
        y[0] = t1, y[1] = t2, y[2] = n;
    } else { /* t > 0 here: on the ray (mu t/|t|, 1) */
        const cdyn_real a = (mu * t + n) / (mu * mu + 1), b = mu * a / t;
        y[0] = b * t1, y[1] = b * t2, y[2] = a;
    }
}

/* y = P_K*(x) for K* = {mu |t| <= n} (x may be y). Its inside is tested first: at mu = 0
 * the polar cone -K is the half line, and (0, 0, n >= 0) is inside K*, not in it. */
static void project_friction_dual(cdyn_real mu, const cdyn_real *x, cdyn_real *y)
{
    const cdyn_real t1 = x[0], t2 = x[1], n = x[2], t = norm2(t1, t2);
    if (mu * t <= n) {
        y[0] = t1, y[1] = t2, y[2] = n;
    } else if (t <= -mu * n) {
        y[0] = y[1] = y[2] = 0;
    } else { /* t > 0 here: on the ray (t/|t|, mu) */
        const cdyn_real a = (t + mu * n) / (mu * mu + 1), b = a / t;
        y[0] = b * t1, y[1] = b * t2, y[2] = mu * a;
    }
}

/* One block of P_K (dual = 0) or P_K* (dual = 1). */
static void project_block(const cdyn_cone *k, int dual, const cdyn_real *x, cdyn_real *y)
{
    if (k->kind == CDYN_CONE_FRICTION) {
        if (dual)
            project_friction_dual(k->mu, x, y);
        else
            project_friction(k->mu, x, y);
    } else if (k->kind == CDYN_CONE_POSITIVE) {
        y[0] = x[0] > 0 ? x[0] : 0;
    } else { /* free rows: K is everything, K* = {0} */
        for (int j = 0; j < k->dim; ++j)
            y[j] = dual ? 0 : x[j];
    }
}

static void project_all(const cdyn_cone *cones, int ncones, int dual, const cdyn_real *x,
                        cdyn_real *y)
{
    for (int i = 0, r = 0; i < ncones; r += cones[i].dim, ++i)
        project_block(&cones[i], dual, x + r, y + r);
}

void cdyn_cone_project(const cdyn_cone *cones, int ncones, const cdyn_real *x, cdyn_real *y)
{
    project_all(cones, ncones, 0, x, y);
}

void cdyn_cone_project_dual(const cdyn_cone *cones, int ncones, const cdyn_real *x, cdyn_real *y)
{
    project_all(cones, ncones, 1, x, y);
}

void cdyn_cone_desaxce(const cdyn_cone *cones, int ncones, const cdyn_real *c, cdyn_real *s)
{
    for (int i = 0, r = 0; i < ncones; r += cones[i].dim, ++i) {
        if (cones[i].kind == CDYN_CONE_FRICTION) {
            s[r] = s[r + 1] = 0;
            s[r + 2] = cones[i].mu * norm2(c[r], c[r + 1]);
        } else {
            for (int j = 0; j < cones[i].dim; ++j)
                s[r + j] = 0;
        }
    }
}

/* s = the shift of c, or zeros for the convex relaxation. */
static void shift_of(const cdyn_cone *cones, int ncones, int m, int ccp, const cdyn_real *c,
                     cdyn_real *s)
{
    if (!ccp) {
        cdyn_cone_desaxce(cones, ncones, c, s);
        return;
    }
    for (int r = 0; r < m; ++r)
        s[r] = 0;
}

/* |a - b| over d rows (Euclidean). */
static cdyn_real dist(const cdyn_real *a, const cdyn_real *b, int d)
{
    cdyn_real e = 0;
    for (int j = 0; j < d; ++j)
        e += (a[j] - b[j]) * (a[j] - b[j]);
    return CDYN_SQRT(e);
}

/* a . b in four running sums: one sum's chain of dependent additions would bound the
 * solves (the forward substitution, G x) by the adder's latency, not its throughput. */
static cdyn_real dot(const cdyn_real *a, const cdyn_real *b, int d)
{
    cdyn_real e0 = 0, e1 = 0, e2 = 0, e3 = 0;
    int j = 0;
    for (; j + 4 <= d; j += 4) {
        e0 += a[j] * b[j];
        e1 += a[j + 1] * b[j + 1];
        e2 += a[j + 2] * b[j + 2];
        e3 += a[j + 3] * b[j + 3];
    }
    for (; j < d; ++j)
        e0 += a[j] * b[j];
    return (e0 + e1) + (e2 + e3);
}

/* One block's distance of lambda to K, of v = c + s to K*, and |lambda . v|. Free rows:
 * lambda is in K, the distance of c to K* = {0} is |c|, and |lambda . c| is kept (0 at a
 * solution, where c = 0). */
static void block_conditions(const cdyn_cone *k, int ccp, const cdyn_real *lambda,
                             const cdyn_real *c, cdyn_real res[3])
{
    cdyn_real v[3], p[3];
    if (k->kind == CDYN_CONE_FREE) {
        res[0] = 0;
        res[1] = CDYN_SQRT(dot(c, c, k->dim));
        res[2] = absr(dot(lambda, c, k->dim));
        return;
    }
    for (int j = 0; j < k->dim; ++j)
        v[j] = c[j];
    if (!ccp && k->kind == CDYN_CONE_FRICTION)
        v[2] += k->mu * norm2(c[0], c[1]);
    project_block(k, 0, lambda, p);
    res[0] = dist(lambda, p, k->dim);
    project_block(k, 1, v, p);
    res[1] = dist(v, p, k->dim);
    res[2] = absr(dot(lambda, v, k->dim));
}

void cdyn_cone_conditions(const cdyn_cone *cones, int ncones, int ccp, const cdyn_real *lambda,
                          const cdyn_real *c, cdyn_cone_stats *st)
{
    st->primal = st->dual = st->complementarity = 0;
    for (int i = 0, r = 0; i < ncones; r += cones[i].dim, ++i) {
        cdyn_real res[3];
        block_conditions(&cones[i], ccp, lambda + r, c + r, res);
        st->primal = max_nan(st->primal, res[0]);
        st->dual = max_nan(st->dual, res[1]);
        st->complementarity = max_nan(st->complementarity, res[2]);
    }
}

/* ---- shared by the solvers ---------------------------------------------------------- */

/* Settings both solvers read, and the arrays; m = cdyn_cone_rows. */
static int common_ok(const cdyn_cone *cones, int ncones, int m, const cdyn_real *G,
                     const cdyn_real *g, const cdyn_cone_settings *s, const cdyn_real *lambda,
                     const cdyn_real *work)
{
    return cones && ncones >= 1 && m >= 1 && G && g && s && lambda && work && s->max_iter >= 1 &&
           s->abs_tol >= 0 && s->rel_tol >= 0; /* a NaN tolerance fails >= */
}

/* 1 if G, g and (warm start) lambda are finite; if not, lambda is not read. */
static int inputs_finite(int m, const cdyn_real *G, const cdyn_real *g, const cdyn_cone_settings *s,
                         const cdyn_real *lambda)
{
    return cdyn__all_finite(G, (size_t)m * (size_t)m) && cdyn__all_finite(g, (size_t)m) &&
           (!s->warm_start || cdyn__all_finite(lambda, (size_t)m));
}

/* A failed solve leaves zeros (never a NaN) in lambda, c and st. */
static int fail(int m, cdyn_real *lambda, cdyn_real *c, cdyn_cone_stats *st, int status)
{
    for (int r = 0; r < m; ++r) {
        lambda[r] = 0;
        if (c)
            c[r] = 0;
    }
    if (st) {
        st->iterations = 0;
        st->primal = st->dual = st->complementarity = st->change = st->rho = 0;
    }
    return status;
}

/* out = G x + g. */
static void mul_add(const cdyn_real *G, int m, const cdyn_real *x, const cdyn_real *g,
                    cdyn_real *out)
{
    for (int i = 0; i < m; ++i)
        out[i] = dot(G + (size_t)i * (size_t)m, x, m) + g[i];
}

static cdyn_real norm_inf(const cdyn_real *x, int m)
{
    cdyn_real e = 0;
    for (int r = 0; r < m; ++r)
        e = max_nan(e, absr(x[r]));
    return e;
}

/* |x - y|_inf. */
static cdyn_real diff_inf(const cdyn_real *x, const cdyn_real *y, int m)
{
    cdyn_real e = 0;
    for (int r = 0; r < m; ++r)
        e = max_nan(e, absr(x[r] - y[r]));
    return e;
}

/* 1 when the iterations stop: every positive tolerance met, abs_tol by res and rel_tol by
 * the change against the larger of |lambda|_inf before and after it. Never with no
 * positive tolerance (max_iter iterations then); a NaN meets nothing. */
static int tolerances_met(const cdyn_cone_settings *s, cdyn_real res, cdyn_real change,
                          cdyn_real before, cdyn_real after)
{
    if (!(s->abs_tol > 0) && !(s->rel_tol > 0))
        return 0;
    if (s->abs_tol > 0 && !(res <= s->abs_tol))
        return 0;
    return !(s->rel_tol > 0) || change <= s->rel_tol * (before > after ? before : after);
}

/* The solve's outcome: lambda = the last iterate, c = G lambda + g (into cbuf when the
 * caller has no c), st from cdyn_cone_conditions; the iterations, CDYN_E_NOT_CONVERGED, or
 * CDYN_E_NONFINITE if the iterations overflowed. */
static int finish(const cdyn_cone *cones, int ncones, int m, const cdyn_real *G, const cdyn_real *g,
                  const cdyn_cone_settings *s, int it, int stopped, cdyn_real change, cdyn_real rho,
                  cdyn_real *lambda, cdyn_real *c, cdyn_real *cbuf, cdyn_cone_stats *st)
{
    cdyn_real *cv = c ? c : cbuf;
    mul_add(G, m, lambda, g, cv);
    if (!cdyn__all_finite(lambda, (size_t)m) || !cdyn__all_finite(cv, (size_t)m))
        return fail(m, lambda, c, st, CDYN_E_NONFINITE);
    if (st) {
        cdyn_cone_conditions(cones, ncones, s->ccp, lambda, cv, st);
        st->iterations = it;
        st->change = change;
        st->rho = rho;
    }
    if (!stopped && (s->abs_tol > 0 || s->rel_tol > 0))
        return CDYN_E_NOT_CONVERGED;
    return it;
}

/* A function kept out of line (where the compiler has a way to say it). */
#ifdef __GNUC__
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* Before a loop over groups of 4 whose body is one vector step: clang's loop vectoriser
 * would otherwise take 4 groups at a time and leave the short loops of m = 12 to 24 rows
 * to its scalar remainder. */
#ifdef __clang__
#define BY_GROUPS _Pragma("clang loop vectorize(disable)")
#else
#define BY_GROUPS
#endif

/* ---- dense Cholesky ----------------------------------------------------------------- */

/* F's strict lower triangle = L's and its diagonal = 1 / L's diagonal, with L L^T = A +
 * shift I, A symmetric n x n read in its lower triangle, both of row stride ld (F may be
 * A); 0, or -1 at a pivot that is not above floor (NaN included). The reciprocals turn the
 * solves' divisions, whose latency chains them, into products. */
static int cholesky(const cdyn_real *A, int n, int ld, cdyn_real shift, cdyn_real floor,
                    cdyn_real *F)
{
    for (int i = 0; i < n; ++i) {
        cdyn_real *Fi = F + (size_t)i * (size_t)ld;
        const cdyn_real *Ai = A + (size_t)i * (size_t)ld;
        for (int j = 0; j <= i; ++j) {
            const cdyn_real *Fj = F + (size_t)j * (size_t)ld;
            const cdyn_real a = Ai[j] + (i == j ? shift : 0) - dot(Fi, Fj, j);
            if (j < i) {
                Fi[j] = a * Fj[j];
            } else {
                if (!(a > floor))
                    return -1;
                Fi[i] = 1 / CDYN_SQRT(a);
            }
        }
    }
    return 0;
}

/* x <- (L L^T)^-1 x: forward by rows of L, backward by its rows too (column-oriented on L^T:
 * each x[k] found is taken out of the rows above it, a contiguous update). */
static void cholesky_solve(const cdyn_real *F, int n, int ld, cdyn_real *x)
{
    for (int i = 0; i < n; ++i) {
        const cdyn_real *Fi = F + (size_t)i * (size_t)ld;
        x[i] = (x[i] - dot(Fi, x, i)) * Fi[i];
    }
    for (int k = n - 1; k >= 0; --k) {
        const cdyn_real *Fk = F + (size_t)k * (size_t)ld;
        const cdyn_real xk = x[k] * Fk[k];
        x[k] = xk;
        for (int i = 0; i < k; ++i)
            x[i] -= Fk[i] * xk;
    }
}

/* ---- ADMM's padded kernels ------------------------------------------------------------
 * Its matrices (G's padded copy Gp, the factor F of G + shift I) have the row stride mp =
 * CDYN_CONE_PAD(m), a multiple of 4, and zeros past m in every row and in rows m..mp-1; its
 * vectors are mp long with zeros past m. Every inner loop then runs over whole groups of 4
 * contiguous reals, which compilers turn into single vector operations without the
 * remainder loops and alias checks that an m of run time costs. */

/* W's rows 0..m-1 = G's, padded with zeros (G: m x m, row-major; rows m..mp-1 of W are
 * never read). One select per entry, not a copy loop that compilers would turn into a
 * call to memmove, which firmware may not have. */
static void pad_copy(const cdyn_real *restrict G, int m, int mp, cdyn_real *restrict W)
{
    for (int i = 0; i < m; ++i) {
        cdyn_real *Wi = W + (size_t)i * (size_t)mp;
        const cdyn_real *Gi = G + (size_t)i * (size_t)m;
        for (int j = 0; j < mp; ++j)
            Wi[j] = j < m ? Gi[j] : 0;
    }
}

/* out = W r for a symmetric padded W (its rows are its columns): per group of 4 rows, the
 * sum over j of W's row j's group times r_j, in 4 running sums. */
static void sym_mul(const cdyn_real *restrict W, int m, int mp, const cdyn_real *restrict r,
                    cdyn_real *restrict out)
{
    for (int i = 0; i < mp; i += 4) {
        cdyn_real a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (int j = 0; j < m; ++j) {
            const cdyn_real *w = W + (size_t)j * (size_t)mp + (size_t)i, rj = r[j];
            a0 += w[0] * rj;
            a1 += w[1] * rj;
            a2 += w[2] * rj;
            a3 += w[3] * rj;
        }
        out[i] = a0, out[i + 1] = a1, out[i + 2] = a2, out[i + 3] = a3;
    }
}

/* dinv = 1 / pivot for a row before m (0 past it); 0 if that pivot is not positive (NaN
 * included). */
static int pivot_ok(cdyn_real pivot, int row, int m, cdyn_real *dinv)
{
    *dinv = row < m ? 1 / pivot : 0;
    return row >= m || pivot > 0;
}

/* Block K's diagonal tile of the factor, from F's (rows K..K+3 of G + shift I less the
 * rows above them), in scalars: its pivots (-1 at one that is not positive; none past m,
 * where dinv is 0), U = a row less the block's earlier rows, over D, at (K + p, K + q), and
 * V = D U at (K + q, K + p) and in vd[4 p + q] (q > p), for the block's other tiles. */
static int factor_diagonal(int m, int K, size_t ld, cdyn_real shift, cdyn_real *restrict F,
                           cdyn_real *restrict dinv, cdyn_real *restrict vd)
{
    cdyn_real *A0 = F + (size_t)K * ld + (size_t)K, *A1 = A0 + ld, *A2 = A1 + ld, *A3 = A2 + ld;
    cdyn_real *d = dinv + K;
    if (!pivot_ok(A0[0] + shift, K, m, &d[0]))
        return -1;
    const cdyn_real v01 = A0[1], v02 = A0[2], v03 = A0[3];
    const cdyn_real u01 = v01 * d[0], u02 = v02 * d[0], u03 = v03 * d[0];
    if (!pivot_ok(A1[1] + shift - v01 * u01, K + 1, m, &d[1]))
        return -1;
    const cdyn_real v12 = A1[2] - v01 * u02, v13 = A1[3] - v01 * u03;
    const cdyn_real u12 = v12 * d[1], u13 = v13 * d[1];
    if (!pivot_ok(A2[2] + shift - v02 * u02 - v12 * u12, K + 2, m, &d[2]))
        return -1;
    const cdyn_real v23 = A2[3] - v02 * u03 - v12 * u13, u23 = v23 * d[2];
    if (!pivot_ok(A3[3] + shift - v03 * u03 - v13 * u13 - v23 * u23, K + 3, m, &d[3]))
        return -1;
    A0[1] = u01, A0[2] = u02, A0[3] = u03, A1[2] = u12, A1[3] = u13, A2[3] = u23;
    A1[0] = v01, A2[0] = v02, A3[0] = v03, A2[1] = v12, A3[1] = v13, A3[2] = v23;
    vd[1] = v01, vd[2] = v02, vd[3] = v03, vd[6] = v12, vd[7] = v13;
    vd[11] = v23;
    return 0;
}

/* Block K's tile at columns J.. (J > K): row p less the block's earlier rows (vd: the
 * diagonal tile's V), U = that over D at (K + p, J + q), V = D U at (J + q, K + p). Row by
 * row, four entries a vector step. */
static void factor_panel(const cdyn_real *restrict vd, const cdyn_real *restrict dinv, int K,
                         int J, size_t ld, cdyn_real *restrict F)
{
    cdyn_real *R0 = F + (size_t)K * ld + (size_t)J, *R1 = R0 + ld, *R2 = R1 + ld, *R3 = R2 + ld;
    cdyn_real v0[4], v1[4], v2[4], v3[4];
    for (int q = 0; q < 4; ++q) {
        v0[q] = R0[q];
        R0[q] = v0[q] * dinv[K];
    }
    for (int q = 0; q < 4; ++q) {
        v1[q] = R1[q] - vd[1] * R0[q];
        R1[q] = v1[q] * dinv[K + 1];
    }
    for (int q = 0; q < 4; ++q) {
        v2[q] = R2[q] - vd[2] * R0[q] - vd[6] * R1[q];
        R2[q] = v2[q] * dinv[K + 2];
    }
    for (int q = 0; q < 4; ++q) {
        v3[q] = R3[q] - vd[3] * R0[q] - vd[7] * R1[q] - vd[11] * R2[q];
        R3[q] = v3[q] * dinv[K + 3];
    }
    for (int q = 0; q < 4; ++q) {
        cdyn_real *V = F + (size_t)(J + q) * ld + (size_t)K;
        V[0] = v0[q], V[1] = v1[q], V[2] = v2[q], V[3] = v3[q];
    }
}

/* The rows below block K (those before m) less its rows U (F's rows K..K+3, which this
 * does not write): row i's columns from i's own group of 4 on, less the sum over p of
 * V_K+p,i U_K+p, four products per entry, a group's four entries one vector step (U and F
 * restrict: the rows read are not those written). Out of line: clang 14 leaves this loop
 * scalar once it is inlined into the factor (three times the instructions). */
NOINLINE
static void factor_update(const cdyn_real *restrict U, int m, int mp, int K,
                          cdyn_real *restrict F)
{
    const size_t ld = (size_t)mp;
    for (int g = K + 4; g < mp; g += 4) {
        const int last = g + 3 < m - 1 ? g + 3 : m - 1;
        const cdyn_real *U0 = U + g, *U1 = U0 + ld, *U2 = U1 + ld, *U3 = U2 + ld;
        for (int i = K + 4; i <= last; ++i) {
            cdyn_real *Fi = F + (size_t)i * ld;
            const cdyn_real w0 = Fi[K], w1 = Fi[K + 1], w2 = Fi[K + 2], w3 = Fi[K + 3];
            Fi[g] -= w0 * U0[0] + w1 * U1[0] + w2 * U2[0] + w3 * U3[0];
            Fi[g + 1] -= w0 * U0[1] + w1 * U1[1] + w2 * U2[1] + w3 * U3[1];
            Fi[g + 2] -= w0 * U0[2] + w1 * U1[2] + w2 * U2[2] + w3 * U3[2];
            Fi[g + 3] -= w0 * U0[3] + w1 * U1[3] + w2 * U2[3] + w3 * U3[3];
        }
    }
}

/* G + shift I = U^T D U (LDL^T without pivoting) for a symmetric padded G: F's strict upper
 * triangle = the unit upper U, its strict lower triangle = (D U)^T (the backward solve
 * reads its rows contiguously), dinv = 1 / D (0 past m). Pivot k is Schur's complement, so
 * a positive definite G + shift I never needs a swap, and one that is not positive (NaN
 * included) says it is not: -1. On G's upper triangle copied into F (zero rows past m),
 * by blocks of 4 rows: the block's rows (factor_diagonal, factor_panel), then the rows
 * below less the block's (factor_update), four rows' multiples at once, a vector step per
 * 16 products. The shift joins a diagonal entry when its block is reached. */
static int spd_factor(const cdyn_real *restrict G, int m, int mp, cdyn_real shift,
                      cdyn_real *restrict F, cdyn_real *restrict dinv)
{
    const size_t ld = (size_t)mp;
    for (int i = 0; i < mp; ++i) /* by groups of 4: a vector step, not a call to memcpy */
        for (int j = i & ~3; j < mp; j += 4) {
            const cdyn_real *Gi = G + (size_t)i * ld + (size_t)j;
            cdyn_real *Fi = F + (size_t)i * ld + (size_t)j;
            const int live = i < m;
            Fi[0] = live ? Gi[0] : 0, Fi[1] = live ? Gi[1] : 0;
            Fi[2] = live ? Gi[2] : 0, Fi[3] = live ? Gi[3] : 0;
        }
    for (int K = 0; K < mp; K += 4) {
        cdyn_real vd[16];
        if (factor_diagonal(m, K, ld, shift, F, dinv, vd) != 0)
            return -1;
        for (int J = K + 4; J < mp; J += 4)
            factor_panel(vd, dinv, K, J, ld, F);
        factor_update(F + (size_t)K * ld, m, mp, K, F);
    }
    return 0;
}

/* x = (U^T D U)^-1 b by blocks of 4 rows: each block's triangle in scalars, then the rows
 * after it (forward) or before it (backward) updated a group of 4 at a time, four
 * products per entry: a chain of dependent steps per block, not per row. b and t (mp
 * each) are overwritten; x may not be either. */
static void spd_solve(const cdyn_real *restrict F, const cdyn_real *restrict dinv, int mp,
                      cdyn_real *restrict b, cdyn_real *restrict t, cdyn_real *restrict x)
{
    const size_t ld = (size_t)mp;
    for (int K = 0; K < mp; K += 4) { /* U^T y = b, y in t */
        const cdyn_real *F0 = F + (size_t)K * ld, *F1 = F0 + ld, *F2 = F1 + ld, *F3 = F2 + ld;
        const cdyn_real y0 = b[K];
        const cdyn_real y1 = b[K + 1] - y0 * F0[K + 1];
        const cdyn_real y2 = b[K + 2] - y0 * F0[K + 2] - y1 * F1[K + 2];
        const cdyn_real y3 = b[K + 3] - y0 * F0[K + 3] - y1 * F1[K + 3] - y2 * F2[K + 3];
        t[K] = y0, t[K + 1] = y1, t[K + 2] = y2, t[K + 3] = y3;
        BY_GROUPS
        for (int j = K + 4; j < mp; j += 4) {
            b[j] -= y0 * F0[j] + y1 * F1[j] + y2 * F2[j] + y3 * F3[j];
            b[j + 1] -= y0 * F0[j + 1] + y1 * F1[j + 1] + y2 * F2[j + 1] + y3 * F3[j + 1];
            b[j + 2] -= y0 * F0[j + 2] + y1 * F1[j + 2] + y2 * F2[j + 2] + y3 * F3[j + 2];
            b[j + 3] -= y0 * F0[j + 3] + y1 * F1[j + 3] + y2 * F2[j + 3] + y3 * F3[j + 3];
        }
    }
    for (int K = mp - 4; K >= 0; K -= 4) { /* D U x = y, by (D U)^T's rows (F's lower) */
        const cdyn_real *F0 = F + (size_t)K * ld, *F1 = F0 + ld, *F2 = F1 + ld, *F3 = F2 + ld;
        const cdyn_real x3 = t[K + 3] * dinv[K + 3];
        const cdyn_real x2 = (t[K + 2] - x3 * F3[K + 2]) * dinv[K + 2];
        const cdyn_real x1 = (t[K + 1] - x3 * F3[K + 1] - x2 * F2[K + 1]) * dinv[K + 1];
        const cdyn_real x0 = (t[K] - x3 * F3[K] - x2 * F2[K] - x1 * F1[K]) * dinv[K];
        x[K] = x0, x[K + 1] = x1, x[K + 2] = x2, x[K + 3] = x3;
        BY_GROUPS
        for (int j = 0; j < K; j += 4) {
            t[j] -= x0 * F0[j] + x1 * F1[j] + x2 * F2[j] + x3 * F3[j];
            t[j + 1] -= x0 * F0[j + 1] + x1 * F1[j + 1] + x2 * F2[j + 1] + x3 * F3[j + 1];
            t[j + 2] -= x0 * F0[j + 2] + x1 * F1[j + 2] + x2 * F2[j + 2] + x3 * F3[j + 2];
            t[j + 3] -= x0 * F0[j + 3] + x1 * F1[j + 3] + x2 * F2[j + 3] + x3 * F3[j + 3];
        }
    }
}

/* ---- ADMM --------------------------------------------------------------------------- */

typedef struct {
    const cdyn_cone *cones;
    int ncones, m;
    const cdyn_real *G, *g;
    const cdyn_cone_settings *s;
    int mp;                   /* the padded rows: CDYN_CONE_PAD(m) */
    cdyn_real *Gp;            /* (mp x mp) G, padded */
    cdyn_real *F, *dinv;      /* (mp x mp, mp) G + (mu_prox + tau rho) I = U^T D U */
    cdyn_real *x, *y, *z;     /* (mp; y: m) primal, projected primal (lambda), dual */
    cdyn_real *b, *t;         /* (mp) right-hand side, the solve's scratch */
    cdyn_real *xp, *yp;       /* (mp) previous x and y */
    cdyn_real rho, increment; /* penalty, its adaptation factor (1: none) */
    cdyn_real L;              /* G's largest eigenvalue (estimate) */
    cdyn_real *power;         /* (m, or NULL) the power iteration's vector, in and out */
    cdyn_real primal, dual, comp, change;
} admm;

static int admm_settings_ok(const cdyn_cone_settings *s)
{
    const int spectral = !(s->rho > 0);
    /* a given rho so small that 1 / (tau rho) overflows would make every iterate NaN */
    const cdyn_real inv_penalty = spectral ? 0 : 1 / (s->tau * s->rho);
    return s->mu_prox >= 0 && s->mu_prox - s->mu_prox == 0 && s->tau > 0 && s->tau <= 1 &&
           s->rho - s->rho == 0 && inv_penalty - inv_penalty == 0 &&
           (!spectral || s->power_iter >= 1) &&
           s->rho_power - s->rho_power == 0 && s->rho_power_factor - s->rho_power_factor == 0 &&
           s->ratio_primal_dual > 0;
}

/* The largest eigenvalue L of G by Pinocchio's power iteration (PowerIterationAlgoTpl) on
 * G's padded copy a->Gp: the vector w, kept unnormalised, starts as ones / sqrt(m) (norm 1),
 * or as a->power, the last solve's w (its norm that solve's L) when the caller keeps one;
 * each iteration is w <- G w / |w|, at most power_iter of them, and they stop when |w|
 * changes by at most POWER_TOL of itself. A warm w on a G that moved little since takes
 * one iteration instead of twenty. Both |w| and the largest diagonal entry are below L
 * (Rayleigh quotients), so the larger one is taken: ones may be orthogonal to the top
 * eigenvector (G = [1 -1; -1 1]). A zero G has no scale: 1. v and w are a->b and a->t. */
static cdyn_real largest_eigenvalue(admm *a, int iters)
{
    const int m = a->m, mp = a->mp;
    cdyn_real diag = 0, *v = a->b, *w = a->t;
    for (int r = 0; r < mp; ++r) {
        w[r] = r < m ? (a->power ? a->power[r] : 1 / CDYN_SQRT((cdyn_real)m)) : 0;
        if (r < m)
            diag = max_nan(diag, a->Gp[(size_t)r * (size_t)mp + (size_t)r]);
    }
    cdyn_real L = CDYN_SQRT(dot(w, w, mp));
    if (!(L > 0) || !(L <= CDYN_REAL_MAX)) { /* a zero, NaN or overflowed start: ones */
        for (int r = 0; r < m; ++r)
            w[r] = 1 / CDYN_SQRT((cdyn_real)m);
        L = 1;
    }
    for (int k = 0; k < iters; ++k) {
        const cdyn_real inv = 1 / L, before = L;
        for (int r = 0; r < mp; ++r)
            v[r] = w[r] * inv;
        sym_mul(a->Gp, m, mp, v, w);
        L = CDYN_SQRT(dot(w, w, mp));
        if (!(L > 0))
            break;
        if (absr(L - before) <= POWER_TOL * (L > before ? L : before))
            break;
    }
    if (a->power)
        for (int r = 0; r < m; ++r) /* the next solve's start (a zero one is refused there) */
            a->power[r] = L > 0 && L <= CDYN_REAL_MAX ? w[r] : 0;
    L = L > diag ? L : diag;
    return L > 0 ? L : 1;
}

/* rho (settings, or sqrt(L m) (L/m)^rho_power) and its adaptation factor
 * (L/m)^rho_power_factor, m = mu_prox floored at RHO_SPAN L (mu_prox = 0 has no ratio).
 * Without power iterations (a given rho, power_iter < 1) rho is not adapted. */
static void admm_penalty(admm *a)
{
    const cdyn_cone_settings *s = a->s;
    a->rho = s->rho;
    a->increment = 1;
    if (s->power_iter < 1)
        return;
    const cdyn_real L = largest_eigenvalue(a, s->power_iter);
    const cdyn_real mm = s->mu_prox > RHO_SPAN * L ? s->mu_prox : RHO_SPAN * L, cond = L / mm;
    a->L = L;
    if (!(s->rho > 0))
        a->rho = CDYN_SQRT(L * mm) * pos_pow(cond, s->rho_power);
    if (!(s->tau * a->rho >= SQRT_MIN)) /* a G of rounding's size: 1 / (tau rho) would overflow */
        a->rho = SQRT_MIN / s->tau;
    a->increment = pos_pow(cond, s->rho_power_factor);
}

static int admm_factor(admm *a)
{
    return spd_factor(a->Gp, a->m, a->mp, a->s->mu_prox + a->s->tau * a->rho, a->F, a->dinv);
}

/* x = lambda (warm start) or 0, y = P_K(x), z = P_K*(c + s(c) - (mu_prox + tau rho) y) with
 * c = G y + g. Pinocchio shifts by s(c - (mu_prox + tau rho) y); the shift of c itself makes
 * z = c + s exactly when y solves the problem (Moreau: -y is normal to K* at c + s), so a
 * warm start from a solution stays there. */
static void admm_start(admm *a)
{
    const int m = a->m;
    const cdyn_real prox = a->s->mu_prox + a->s->tau * a->rho;
    for (int r = 0; r < m; ++r)
        a->x[r] = a->s->warm_start ? a->y[r] : 0;
    cdyn_cone_project(a->cones, a->ncones, a->x, a->y);
    mul_add(a->G, m, a->y, a->g, a->b);
    shift_of(a->cones, a->ncones, m, a->s->ccp, a->b, a->t);
    for (int r = 0; r < m; ++r)
        a->z[r] = a->b[r] + a->t[r] - prox * a->y[r];
    cdyn_cone_project_dual(a->cones, a->ncones, a->z, a->z);
}

/* max over blocks of |y_i . z_i|. */
static cdyn_real admm_complementarity(const admm *a)
{
    cdyn_real e = 0;
    for (int i = 0, r = 0; i < a->ncones; r += a->cones[i].dim, ++i)
        e = max_nan(e, absr(dot(a->y + r, a->z + r, a->cones[i].dim)));
    return e;
}

/* b = -(g + s(z) - tau rho y - mu_prox x - z), s(z) the De Saxce shift (in t, the solve's
 * scratch, free until the solve). */
static void admm_rhs(admm *a, cdyn_real tr, cdyn_real mu)
{
    const int m = a->m;
    const cdyn_real *g = a->g, *y = a->y, *x = a->x, *z = a->z, *sz = a->t;
    shift_of(a->cones, a->ncones, m, a->s->ccp, z, a->t);
    for (int r = 0; r < m; ++r)
        a->b[r] = -(g[r] + sz[r] - tr * y[r] - mu * x[r] - z[r]);
}

/* One iteration: (G + (mu_prox + tau rho) I) x = b (admm_rhs), y = P_K(x - z/(tau rho)),
 * z -= tau rho (x - y); then its residuals. */
static void admm_iterate(admm *a)
{
    const int m = a->m;
    const cdyn_real tr = a->s->tau * a->rho, mu = a->s->mu_prox;
    admm_rhs(a, tr, mu);
    for (int r = 0; r < m; ++r) {
        a->xp[r] = a->x[r];
        a->yp[r] = a->y[r];
    }
    spd_solve(a->F, a->dinv, a->mp, a->b, a->t, a->x);
    const cdyn_real inv_tr = 1 / tr;
    for (int r = 0; r < m; ++r)
        a->b[r] = a->x[r] - a->z[r] * inv_tr;
    cdyn_cone_project(a->cones, a->ncones, a->b, a->y);
    cdyn_real primal = 0, dual = 0, change = 0;
    for (int r = 0; r < m; ++r) {
        const cdyn_real dx = a->x[r] - a->y[r], dy = a->y[r] - a->yp[r];
        a->z[r] -= tr * dx;
        primal = max_nan(primal, absr(dx));
        dual = max_nan(dual, absr(tr * dy + mu * (a->x[r] - a->xp[r])));
        change = max_nan(change, absr(dy));
    }
    a->primal = primal;
    a->dual = dual;
    a->change = change;
    a->comp = a->s->abs_tol > 0 ? admm_complementarity(a) : 0; /* read by abs_tol only */
}

/* Pinocchio's adaptation: rho up by the increment when the primal residual exceeds
 * ratio_primal_dual times the dual one, down in the opposite case, then G + (mu_prox +
 * tau rho) I refactorised. rho stays within [RHO_SPAN L, L / RHO_SPAN] and tau rho above
 * SQRT_MIN (a problem without a solution would drive it out of range). 0, or -1 if the
 * factor fails. */
static int admm_adapt(admm *a)
{
    const cdyn_real ratio = a->s->ratio_primal_dual;
    cdyn_real rho = a->rho;
    if (a->increment == 1)
        return 0;
    if (a->primal > ratio * a->dual)
        rho *= a->increment;
    else if (a->dual > ratio * a->primal)
        rho /= a->increment;
    if (rho == a->rho || !(rho >= RHO_SPAN * a->L && rho <= a->L / RHO_SPAN) ||
        !(a->s->tau * rho >= SQRT_MIN))
        return 0;
    a->rho = rho;
    return admm_factor(a);
}

/* The workspace: Gp and F (mp x mp), then dinv, x, z, b, t, x_prev, y_prev (mp each; the
 * rows past m zero, for the padded products); y is lambda. */
static void admm_carve(admm *a, cdyn_real *work, cdyn_real *lambda)
{
    const size_t mp = CDYN_CONE_PAD(a->m);
    cdyn_real *next = work;
    a->mp = (int)mp;
    a->Gp = cdyn__carve(&next, mp * mp);
    a->F = cdyn__carve(&next, mp * mp);
    a->dinv = cdyn__carve(&next, 7 * mp);
    for (size_t r = 0; r < 7 * mp; ++r)
        a->dinv[r] = 0;
    a->x = a->dinv + mp;
    a->z = a->x + mp;
    a->b = a->z + mp;
    a->t = a->b + mp;
    a->xp = a->t + mp;
    a->yp = a->xp + mp;
    a->y = lambda;
}

int cdyn__cone_admm_from(const cdyn_cone *cones, int ncones, const cdyn_real *G, const cdyn_real *g,
                         const cdyn_cone_settings *settings, cdyn_real *lambda, cdyn_real *c,
                         cdyn_real *work, cdyn_cone_stats *st, cdyn_real *power)
{
    const int m = cdyn_cone_rows(cones, ncones);
    if (!common_ok(cones, ncones, m, G, g, settings, lambda, work) || !admm_settings_ok(settings))
        return CDYN_E_ARG;
    if (!inputs_finite(m, G, g, settings, lambda))
        return fail(m, lambda, c, st, CDYN_E_NONFINITE);
    admm a = { .cones = cones, .ncones = ncones, .m = m, .G = G, .g = g, .s = settings,
               .power = power };
    admm_carve(&a, work, lambda);
    pad_copy(G, m, a.mp, a.Gp);
    admm_penalty(&a);
    if (admm_factor(&a) != 0)
        return fail(m, lambda, c, st, CDYN_E_SINGULAR);
    admm_start(&a);
    int it = 0, stopped = 0;
    while (!stopped && it < settings->max_iter) {
        ++it;
        admm_iterate(&a);
        const cdyn_real res = max_nan(max_nan(a.primal, a.dual), a.comp);
        const int rel = settings->rel_tol > 0; /* the norms only when they are read */
        stopped = tolerances_met(settings, res, a.change, rel ? norm_inf(a.yp, m) : 0,
                                 rel ? norm_inf(a.y, m) : 0);
        if (!stopped && it < settings->max_iter && admm_adapt(&a) != 0)
            return fail(m, lambda, c, st, CDYN_E_SINGULAR);
    }
    return finish(cones, ncones, m, G, g, settings, it, stopped, a.change, a.rho, lambda, c, a.b,
                  st);
}

int cdyn_cone_admm(const cdyn_cone *cones, int ncones, const cdyn_real *G, const cdyn_real *g,
                   const cdyn_cone_settings *settings, cdyn_real *lambda, cdyn_real *c,
                   cdyn_real *work, cdyn_cone_stats *st)
{
    return cdyn__cone_admm_from(cones, ncones, G, g, settings, lambda, c, work, st, 0);
}

/* ---- projected Gauss-Seidel --------------------------------------------------------- */

static int pgs_settings_ok(const cdyn_cone_settings *s)
{
    return s->over_relax > 0 && s->over_relax < 2;
}

/* G's entry (i, j) relative to the block's first row r. */
#define GB(G, m, r, i, j) ((G)[(size_t)((r) + (i)) * (size_t)(m) + (size_t)((r) + (j))])

/* The largest eigenvalue of a friction block's tangential 2 x 2 (closed form). */
static cdyn_real tangent_eigenvalue(const cdyn_real *G, int m, int r)
{
    const cdyn_real a = GB(G, m, r, 0, 0), b = GB(G, m, r, 1, 1);
    const cdyn_real o = (GB(G, m, r, 0, 1) + GB(G, m, r, 1, 0)) / 2;
    return (a + b) / 2 + norm2((a - b) / 2, o);
}

/* A bound above the largest eigenvalue of a friction block's 3 x 3: the smaller of its
 * trace (G is positive semi-definite) and Gershgorin's largest row sum. */
static cdyn_real block_eigen_bound(const cdyn_real *G, int m, int r)
{
    cdyn_real trace = 0, rows = 0;
    for (int i = 0; i < 3; ++i) {
        cdyn_real row = 0;
        for (int j = 0; j < 3; ++j)
            row += absr(GB(G, m, r, i, j));
        trace += GB(G, m, r, i, i);
        rows = row > rows ? row : rows;
    }
    return trace < rows ? trace : rows;
}

/* F (d x d) = the Cholesky factor of the free rows' diagonal block at row r; 0, or -1 when
 * the block is singular to rounding: a pivot below RHO_SPAN times its largest diagonal
 * entry (a rank-deficient block's pivot is rounding noise of either sign, and the two sides
 * of a comparison must not decide by it), or below SQRT_MIN. */
static int free_factor(const cdyn_real *G, int m, int r, int d, cdyn_real F[36])
{
    cdyn_real dmax = 0;
    for (int i = 0; i < d; ++i) {
        for (int j = 0; j < d; ++j)
            F[i * d + j] = GB(G, m, r, i, j);
        dmax = F[i * d + i] > dmax ? F[i * d + i] : dmax;
    }
    return cholesky(F, d, d, 0, RHO_SPAN * dmax > SQRT_MIN ? RHO_SPAN * dmax : SQRT_MIN, F);
}

/* 1 if every block's steps are defined: diagonal entries of at least SQRT_MIN where PGS
 * divides by them (a friction cone's tangential rows only when mu > 0), a factor for free
 * rows. */
static int pgs_blocks_ok(const cdyn_cone *cones, int ncones, const cdyn_real *G, int m)
{
    cdyn_real F[36];
    for (int i = 0, r = 0; i < ncones; r += cones[i].dim, ++i) {
        const cdyn_cone *k = &cones[i];
        if (k->kind == CDYN_CONE_FREE && free_factor(G, m, r, k->dim, F) != 0)
            return 0;
        if (k->kind == CDYN_CONE_POSITIVE && !(GB(G, m, r, 0, 0) >= SQRT_MIN))
            return 0;
        if (k->kind == CDYN_CONE_FRICTION &&
            (!(GB(G, m, r, 2, 2) >= SQRT_MIN) ||
             (k->mu > 0 && !(GB(G, m, r, 0, 0) >= SQRT_MIN && GB(G, m, r, 1, 1) >= SQRT_MIN))))
            return 0;
    }
    return 1;
}

/* v = the block's rows of G lambda + g. */
static void block_velocity(const cdyn_real *G, const cdyn_real *g, int m, int r, int d,
                           const cdyn_real *lambda, cdyn_real *v)
{
    for (int j = 0; j < d; ++j)
        v[j] = dot(G + (size_t)(r + j) * (size_t)m, lambda, m) + g[r + j];
}

/* Coulomb's friction cone: the normal row's step, clamped at 0, then the tangential pair's
 * projected on the disc of radius mu lambda_n. The pair's step is 1 over the largest
 * eigenvalue of its 2 x 2 (Pinocchio divides by the smaller diagonal entry: when the
 * other is twice as large, that step overshoots, and unprojected it diverges). */
static void pgs_coulomb(const cdyn_real *G, int m, int r, cdyn_real mu, cdyn_real w,
                        const cdyn_real v[3], cdyn_real *l)
{
    const cdyn_real ln = l[2] - w * v[2] / GB(G, m, r, 2, 2);
    const cdyn_real n = ln > 0 ? ln : 0, dn = n - l[2];
    l[2] = n;
    if (!(mu > 0)) {
        l[0] = l[1] = 0;
        return;
    }
    const cdyn_real h = w / tangent_eigenvalue(G, m, r);
    const cdyn_real t1 = l[0] - h * (v[0] + GB(G, m, r, 0, 2) * dn);
    const cdyn_real t2 = l[1] - h * (v[1] + GB(G, m, r, 1, 2) * dn);
    const cdyn_real t = norm2(t1, t2), f = t > mu * n ? mu * n / t : 1;
    l[0] = f * t1, l[1] = f * t2;
}

/* The convex relaxation's friction cone: a projected gradient step on the whole block,
 * lambda = P_K(lambda - w v / eta), eta above the block's largest eigenvalue. Coulomb's
 * update would converge to the De Saxce solution, which is not the relaxation's. */
static void pgs_ccp(const cdyn_real *G, int m, int r, cdyn_real mu, cdyn_real w,
                    const cdyn_real v[3], cdyn_real *l)
{
    const cdyn_real h = w / block_eigen_bound(G, m, r);
    cdyn_real x[3];
    for (int j = 0; j < 3; ++j)
        x[j] = l[j] - h * v[j];
    project_friction(mu, x, l);
}

/* Free rows: lambda += the step that zeroes their velocity, G_ii^-1 (-v). */
static void pgs_free(const cdyn_real *G, int m, int r, int d, const cdyn_real *v, cdyn_real *l)
{
    cdyn_real F[36], dl[6];
    (void)free_factor(G, m, r, d, F); /* positive definite: pgs_blocks_ok */
    for (int j = 0; j < d; ++j)
        dl[j] = -v[j];
    cholesky_solve(F, d, d, dl);
    for (int j = 0; j < d; ++j)
        l[j] += dl[j];
}

/* One sweep over the blocks in order. */
static void pgs_sweep(const cdyn_cone *cones, int ncones, const cdyn_real *G, const cdyn_real *g,
                      int m, const cdyn_cone_settings *s, cdyn_real *lambda)
{
    const cdyn_real w = s->over_relax;
    for (int i = 0, r = 0; i < ncones; r += cones[i].dim, ++i) {
        const cdyn_cone *k = &cones[i];
        cdyn_real v[6];
        block_velocity(G, g, m, r, k->dim, lambda, v);
        if (k->kind == CDYN_CONE_FRICTION && s->ccp)
            pgs_ccp(G, m, r, k->mu, w, v, lambda + r);
        else if (k->kind == CDYN_CONE_FRICTION)
            pgs_coulomb(G, m, r, k->mu, w, v, lambda + r);
        else if (k->kind == CDYN_CONE_POSITIVE)
            lambda[r] = max_nan(0, lambda[r] - w * v[0] / GB(G, m, r, 0, 0));
        else
            pgs_free(G, m, r, k->dim, v, lambda + r);
    }
}

int cdyn_cone_pgs(const cdyn_cone *cones, int ncones, const cdyn_real *G, const cdyn_real *g,
                  const cdyn_cone_settings *settings, cdyn_real *lambda, cdyn_real *c,
                  cdyn_real *work, cdyn_cone_stats *st)
{
    const int m = cdyn_cone_rows(cones, ncones);
    if (!common_ok(cones, ncones, m, G, g, settings, lambda, work) || !pgs_settings_ok(settings))
        return CDYN_E_ARG;
    if (!inputs_finite(m, G, g, settings, lambda))
        return fail(m, lambda, c, st, CDYN_E_NONFINITE);
    if (!pgs_blocks_ok(cones, ncones, G, m))
        return fail(m, lambda, c, st, CDYN_E_SINGULAR);
    cdyn_real *prev = work, *cv = work + m;
    cdyn_cone_stats now;
    cdyn_real change = 0;
    if (!settings->warm_start)
        for (int r = 0; r < m; ++r)
            lambda[r] = 0;
    int it = 0, stopped = 0;
    while (!stopped && it < settings->max_iter) {
        ++it;
        for (int r = 0; r < m; ++r)
            prev[r] = lambda[r];
        pgs_sweep(cones, ncones, G, g, m, settings, lambda);
        mul_add(G, m, lambda, g, cv);
        cdyn_cone_conditions(cones, ncones, settings->ccp, lambda, cv, &now);
        change = diff_inf(lambda, prev, m);
        stopped = tolerances_met(settings, max_nan(now.dual, now.complementarity), change,
                                 norm_inf(prev, m), norm_inf(lambda, m));
    }
    return finish(cones, ncones, m, G, g, settings, it, stopped, change, 0, lambda, c, cv, st);
}
