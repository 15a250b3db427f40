/* cdyn_manifold.c — the configuration manifold's other half: difference, integrate's
 * inverse, and the derivatives of integrate and difference (declared in cdyn.h).
 *
 * Each joint's configuration is a Lie group element moved by the exponential of a body
 * twist composed on the right, as cdyn_kinematics.c integrates (Pinocchio's conventions):
 * integrate(q, v) = q exp(v) and difference(q0, q1) = log(q0^-1 q1). Revolute and
 * prismatic joints live on the real line, a continuous joint on SO(2), a planar joint on
 * SE(2), a free-flyer on SE(3). Derivatives map tangent vectors to tangent vectors; with
 * Jr the right Jacobian of exp (exp(v + d) = exp(v) exp(Jr(v) d) to first order) and
 * M = q0^-1 q1 = exp(v):
 *   d integrate / dq   = Ad(exp(v))^-1   (q exp(d) exp(v) = q exp(v) exp(Ad(exp(-v)) d))
 *   d integrate / dv   = Jr(v)           (Pinocchio's Jexp6)
 *   d difference / dq1 = Jr(v)^-1        (Pinocchio's Jlog6(M))
 *   d difference / dq0 = -Jr(v)^-1 Ad(M^-1) = -Jr(-v)^-1
 * the last because Jr(-v) is the left Jacobian Ad(M) Jr(v): one function serves both
 * difference derivatives, at M and at M^-1 = exp(-v). On the real line and on SO(2) all of
 * them are 1 (or -1).
 *
 * On SE(3), exp(u, w) = (R, V(w) u) with R = exp([w]x), V the left Jacobian of SO(3), and
 * to first order exp(v)^-1 exp(v + d) = (R^T R(w + dw), R^T (V du + d_w(V u) dw)), so
 *   Jr = [[R^T V, R^T d_w(V(w) u)], [0, R^T V]]
 *   Jr^-1 = [[A, d_w(V(w)^-1 p) A], [0, A]],  A = (R^T V)^-1, p = V u
 * (the second from the first with d(V^-1) = -V^-1 dV V^-1; Pinocchio's Jlog6 is the same
 * matrix). SE(2) is SE(3)'s restriction to the xy translations and the z rotation.
 *
 * libm offers only sqrt, sin and cos here, so the logs' angle comes from cdyn__atan2
 * below. Every coefficient is an even function of the angle; below CDYN__SMALL_ANGLE it is
 * its Taylor series through theta^6, above it its closed form in sin and cos of theta and
 * theta/2 (1 - cos theta as 2 sin^2(theta/2), which does not cancel). */
#include "cdyn_internal.h"

#define CDYN__PI CDYN_R(3.14159265358979323846)

/* ---- an angle from its cosine and sine -------------------------------------------------- */

/* atan(t) for |t| <= tan(pi/8), its Taylor series through t^13: within 1.2e-7, which one
 * step of cdyn__atan2 takes below rounding ((1.2e-7)^3 / 3 < 1e-21). */
static cdyn_real cdyn__atan_start(cdyn_real t)
{
    const cdyn_real t2 = t * t;
    return t * (1 - t2 * (CDYN_R(1.0) / 3 -
                          t2 * (CDYN_R(1.0) / 5 -
                                t2 * (CDYN_R(1.0) / 7 -
                                      t2 * (CDYN_R(1.0) / 9 -
                                            t2 * (CDYN_R(1.0) / 11 - t2 * (CDYN_R(1.0) / 13)))))));
}

/* The angle of (x, y) in (-pi, pi], as libm's atan2 but for y = -0 with x < 0 (pi, not
 * -pi): a difference's angles live in (-pi, pi]. The start a reduces to |t| <= tan(pi/8)
 * (t = min/max of |x|, |y|, then atan(t) = pi/4 + atan((t - 1)/(t + 1))) and sums a short
 * series; one step then adds d = tan(angle - a) = (y cos a - x sin a) / (x cos a + y sin a),
 * off atan(d) by d^3/3. The step's numerator is of the size of y for small angles, so a
 * tiny angle keeps its relative precision. Within 2 ulps of libm's atan2 in double and in
 * float (tests/test_manifold.c): the step's products round. */
static cdyn_real cdyn__atan2(cdyn_real y, cdyn_real x)
{
    const cdyn_real ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
    const int steep = ay > ax;
    const cdyn_real num = steep ? ax : ay, den = steep ? ay : ax;
    if (den == 0)
        return 0; /* (+-0, +-0) */
    cdyn_real t = num / den, a = 0;
    if (t > CDYN_R(0.41421356237309503)) { /* tan(pi/8) */
        t = (t - 1) / (t + 1);
        a = CDYN__PI / 4;
    }
    a += cdyn__atan_start(t);
    if (steep)
        a = CDYN__PI / 2 - a;
    if (x < 0)
        a = CDYN__PI - a;
    if (y < 0)
        a = -a;
    const cdyn_real s = CDYN_SIN(a), c = CDYN_COS(a);
    return a + (y * c - x * s) / (x * c + y * s);
}

/* ---- the coefficients of exp and log ------------------------------------------------ */

/* SO(3)'s exp([w]x) = I + A [w]x + B [w]x^2 and V(w) = I + B [w]x + C [w]x^2 at the angle
 * th = |w|: A = sin th / th, B = (1 - cos th) / th^2, C = (th - sin th) / th^3, and the
 * derivatives dB = B'(th) / th, dC = C'(th) / th (d_w B = dB w^T). */
typedef struct {
    cdyn_real A, B, C, dB, dC;
} cdyn__exp_coeffs;

static cdyn__exp_coeffs cdyn__exp_coeffs_at(cdyn_real th)
{
    const cdyn_real t2 = th * th;
    cdyn__exp_coeffs k;
    if (th < CDYN__SMALL_ANGLE && th > -CDYN__SMALL_ANGLE) {
        k.A = 1 - t2 / 6 * (1 - t2 / 20 * (1 - t2 / 42));
        k.B = (1 - t2 / 12 * (1 - t2 / 30 * (1 - t2 / 56))) / 2;
        k.C = (1 - t2 / 20 * (1 - t2 / 42 * (1 - t2 / 72))) / 6;
        k.dB =
            -CDYN_R(1.0) / 12 + t2 * (CDYN_R(1.0) / 180 - t2 * (CDYN_R(1.0) / 6720 - t2 / 453600));
        k.dC = -CDYN_R(1.0) / 60 +
               t2 * (CDYN_R(1.0) / 1260 - t2 * (CDYN_R(1.0) / 60480 - t2 / 4989600));
    } else {
        const cdyn_real s = CDYN_SIN(th), sh = CDYN_SIN(th / 2);
        const cdyn_real one_minus_cos = 2 * sh * sh, th_minus_sin = th - s;
        k.A = s / th;
        k.B = one_minus_cos / t2;
        k.C = th_minus_sin / (t2 * th);
        k.dB = (th * s - 2 * one_minus_cos) / (t2 * t2);
        k.dC = (one_minus_cos * th - 3 * th_minus_sin) / (t2 * t2 * th);
    }
    return k;
}

/* The log's coefficient D = (1 - (th/2) cot(th/2)) / th^2, with V(w)^-1 =
 * I - [w]x / 2 + D [w]x^2 and (R^T V)^-1 = I + [w]x / 2 + D [w]x^2, and dD = D'(th) / th.
 * Finite on |th| < 2 pi; logs stay within pi. */
typedef struct {
    cdyn_real D, dD;
} cdyn__log_coeffs;

static cdyn__log_coeffs cdyn__log_coeffs_at(cdyn_real th)
{
    const cdyn_real t2 = th * th;
    cdyn__log_coeffs k;
    if (th < CDYN__SMALL_ANGLE && th > -CDYN__SMALL_ANGLE) {
        k.D =
            CDYN_R(1.0) / 12 + t2 * (CDYN_R(1.0) / 720 + t2 * (CDYN_R(1.0) / 30240 + t2 / 1209600));
        k.dD = CDYN_R(1.0) / 360 +
               t2 * (CDYN_R(1.0) / 7560 + t2 * (CDYN_R(1.0) / 201600 + t2 / 5987520));
    } else {
        const cdyn_real sh = CDYN_SIN(th / 2), ch = CDYN_COS(th / 2);
        const cdyn_real th_over_sh = th / sh; /* even in th, 2 at 0 */
        k.D = (1 - th / 2 * ch / sh) / t2;
        k.dD = (th_over_sh * (th_over_sh + 2 * ch) / 4 - 2) / (t2 * t2);
    }
    return k;
}

/* ---- 3x3 blocks --------------------------------------------------------------------- */

/* S = [x]x, the cross product x x . as a matrix. */
static void cdyn__skew(cdyn_real S[9], const cdyn_real x[3])
{
    S[0] = S[4] = S[8] = 0;
    S[1] = -x[2];
    S[2] = x[1];
    S[3] = x[2];
    S[5] = -x[0];
    S[6] = -x[1];
    S[7] = x[0];
}

/* M = I + a [w]x + b [w]x^2, [w]x^2 = w w^T - |w|^2 I. */
static void cdyn__so3_poly(cdyn_real M[9], const cdyn_real w[3], cdyn_real a, cdyn_real b)
{
    const cdyn_real t2 = cdyn_dot3(w, w);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            M[3 * r + c] = b * w[r] * w[c] + (r == c ? 1 - b * t2 : 0);
    M[1] -= a * w[2];
    M[2] += a * w[1];
    M[3] += a * w[2];
    M[5] -= a * w[0];
    M[6] -= a * w[1];
    M[7] += a * w[0];
}

/* G = d_w (k1 w x x + k2 w x (w x x)) at a fixed x, for coefficients k1, k2 of th = |w|
 * with d_w k = dk w^T: -k1 [x]x + k2 ((w.x) I + w x^T - 2 x w^T) + g w^T, where
 * g = dk1 (w x x) + dk2 ((w.x) w - th^2 x). */
static void cdyn__d_series(cdyn_real G[9], const cdyn_real w[3], const cdyn_real x[3], cdyn_real k1,
                           cdyn_real dk1, cdyn_real k2, cdyn_real dk2)
{
    const cdyn_real wx = cdyn_dot3(w, x), t2 = cdyn_dot3(w, w);
    cdyn_real g[3];
    cdyn_cross3(g, w, x);
    for (int r = 0; r < 3; ++r)
        g[r] = dk1 * g[r] + dk2 * (wx * w[r] - t2 * x[r]);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            G[3 * r + c] =
                g[r] * w[c] + k2 * (w[r] * x[c] - 2 * x[r] * w[c]) + (r == c ? k2 * wx : 0);
    G[1] += k1 * x[2];
    G[2] -= k1 * x[1];
    G[3] -= k1 * x[2];
    G[5] += k1 * x[0];
    G[6] += k1 * x[1];
    G[7] -= k1 * x[0];
}

/* X (6x6) = sign [[TL, TR], [0, BR]]. */
static void cdyn__blocks6(cdyn_real X[36], const cdyn_real TL[9], const cdyn_real TR[9],
                          const cdyn_real BR[9], cdyn_real sign)
{
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            X[6 * r + c] = sign * TL[3 * r + c];
            X[6 * r + c + 3] = sign * TR[3 * r + c];
            X[6 * (r + 3) + c] = 0;
            X[6 * (r + 3) + c + 3] = sign * BR[3 * r + c];
        }
}

/* ---- SE(3): the free-flyer ---------------------------------------------------------- */

/* The log of M = q0^-1 q1 (two [p; quat] configurations) and M itself. */
typedef struct {
    cdyn_real R[9], p[3]; /* M */
    cdyn_real u[3], w[3]; /* log(M) = [u; w] */
    cdyn__log_coeffs k;   /* at |w| */
} cdyn__se3_log;

/* The relative quaternion [xyz; s] is taken with s >= 0 (the shorter way round), its angle
 * th = 2 atan2(|xyz|, s) then in [0, pi] and w = th xyz / |xyz|; u = V(w)^-1 p. Neither
 * needs unit quaternions: the angle and the axis are ratios. */
static void cdyn__log_freeflyer(cdyn__se3_log *L, const cdyn_real q0[7], const cdyn_real q1[7])
{
    const cdyn_real conj0[4] = { -q0[3], -q0[4], -q0[5], q0[6] };
    cdyn_real rel[4], R0[9], dp[3], wp[3], wwp[3];
    cdyn_quat_mul(rel, conj0, q1 + 3);
    if (rel[3] < 0)
        for (int k = 0; k < 4; ++k)
            rel[k] = -rel[k];
    const cdyn_real n2 = cdyn_dot3(rel, rel), s = CDYN_SQRT(n2);
    const cdyn_real th = 2 * cdyn__atan2(s, rel[3]);
    const cdyn_real th_over_s = s > 0 ? th / s : 2 / rel[3]; /* xyz = 0 when s = 0 */
    for (int k = 0; k < 3; ++k)
        L->w[k] = th_over_s * rel[k];
    L->k = cdyn__log_coeffs_at(th);
    const cdyn_real inv = 1 / CDYN_SQRT(n2 + rel[3] * rel[3]);
    for (int k = 0; k < 4; ++k)
        rel[k] *= inv;
    cdyn_quat_to_rot(L->R, rel);
    cdyn_quat_to_rot(R0, q0 + 3);
    for (int k = 0; k < 3; ++k)
        dp[k] = q1[k] - q0[k];
    cdyn_rot_apply_t(L->p, R0, dp);
    cdyn_cross3(wp, L->w, L->p);
    cdyn_cross3(wwp, L->w, wp);
    for (int k = 0; k < 3; ++k)
        L->u[k] = L->p[k] - CDYN_R(0.5) * wp[k] + L->k.D * wwp[k];
}

/* Jr^-1 at the twist whose angular part is w and whose exp translates by p:
 * [[A, G A], [0, A]] with A = I + [w]x / 2 + D [w]x^2, G = d_w(V(w)^-1 p). */
static void cdyn__jlog6(cdyn_real J[36], const cdyn_real w[3], const cdyn_real p[3],
                        cdyn__log_coeffs k, cdyn_real sign)
{
    cdyn_real A[9], G[9], GA[9];
    cdyn__so3_poly(A, w, CDYN_R(0.5), k.D);
    cdyn__d_series(G, w, p, CDYN_R(-0.5), 0, k.D, k.dD);
    cdyn_rot_mul(GA, G, A);
    cdyn__blocks6(J, A, GA, A, sign);
}

static void cdyn__difference_derivatives_freeflyer(cdyn_real d0[36], cdyn_real d1[36],
                                                   const cdyn_real q0[7], const cdyn_real q1[7])
{
    cdyn__se3_log L;
    cdyn__log_freeflyer(&L, q0, q1);
    if (d1)
        cdyn__jlog6(d1, L.w, L.p, L.k, 1);
    if (d0) { /* -Jr(-v)^-1: M^-1 = (R^T, -R^T p) has the angular log -w */
        const cdyn_real mw[3] = { -L.w[0], -L.w[1], -L.w[2] };
        cdyn_real mp[3];
        cdyn_rot_apply_t(mp, L.R, L.p);
        for (int k = 0; k < 3; ++k)
            mp[k] = -mp[k];
        cdyn__jlog6(d0, mw, mp, L.k, -1);
    }
}

/* At v = [u; w], exp(v) = (R, t), t = V(w) u:
 * Ad(exp(v))^-1 = [[R^T, -R^T [t]x], [0, R^T]] and Jr = [[R^T V, R^T d_w(V u)], [0, R^T V]],
 * R^T V = I - B [w]x + C [w]x^2. */
static void cdyn__integrate_derivatives_freeflyer(cdyn_real dq[36], cdyn_real dv[36],
                                                  const cdyn_real v[6])
{
    const cdyn_real *u = v, *w = v + 3;
    const cdyn__exp_coeffs k = cdyn__exp_coeffs_at(CDYN_SQRT(cdyn_dot3(w, w)));
    cdyn_real Rt[9], top[9];
    cdyn__so3_poly(Rt, w, -k.A, k.B); /* R^T = exp(-[w]x) */
    if (dq) {
        cdyn_real wu[3], wwu[3], minus_t[3], S[9];
        cdyn_cross3(wu, w, u);
        cdyn_cross3(wwu, w, wu);
        for (int r = 0; r < 3; ++r)
            minus_t[r] = -(u[r] + k.B * wu[r] + k.C * wwu[r]);
        cdyn__skew(S, minus_t);
        cdyn_rot_mul(top, Rt, S);
        cdyn__blocks6(dq, Rt, top, Rt, 1);
    }
    if (dv) {
        cdyn_real Jr3[9], G[9];
        cdyn__so3_poly(Jr3, w, -k.B, k.C);
        cdyn__d_series(G, w, u, k.B, k.dB, k.C, k.dC);
        cdyn_rot_mul(top, Rt, G);
        cdyn__blocks6(dv, Jr3, top, Jr3, 1);
    }
}

/* ---- SE(2): the planar joint, [x y cos sin], tangent [vx vy wz] ----------------------- */
/* J = [[0, -1], [1, 0]] is the 2d [z]x: J p = (-p_y, p_x). */

/* The log of M = q0^-1 q1: its rotation's angle th and translation p, and v = [V2^-1 p; th],
 * V2^-1 = alpha I - (th/2) J with alpha = (th/2) cot(th/2) = 1 - th^2 D. */
static void cdyn__log_planar(cdyn_real v[3], cdyn_real p[2], cdyn__log_coeffs *k,
                             const cdyn_real q0[4], const cdyn_real q1[4])
{
    const cdyn_real dx = q1[0] - q0[0], dy = q1[1] - q0[1];
    const cdyn_real c = q0[2] * q1[2] + q0[3] * q1[3], s = q0[2] * q1[3] - q0[3] * q1[2];
    const cdyn_real th = cdyn__atan2(s, c);
    p[0] = q0[2] * dx + q0[3] * dy;
    p[1] = q0[2] * dy - q0[3] * dx;
    *k = cdyn__log_coeffs_at(th);
    const cdyn_real alpha = 1 - th * th * k->D, half = th / 2;
    v[0] = alpha * p[0] + half * p[1];
    v[1] = alpha * p[1] - half * p[0];
    v[2] = th;
}

/* Jr^-1 = [[alpha I + (th/2) J, alpha' p - J p / 2], [0, 1]], from SE(3)'s at w = th z
 * (alpha' = -th (2 D + th^2 dD)). */
static void cdyn__jlog2(cdyn_real J[9], cdyn_real th, const cdyn_real p[2], cdyn__log_coeffs k,
                        cdyn_real sign)
{
    const cdyn_real t2 = th * th, alpha = 1 - t2 * k.D, dalpha = -th * (2 * k.D + t2 * k.dD);
    J[0] = sign * alpha;
    J[1] = -sign * th / 2;
    J[2] = sign * (dalpha * p[0] + p[1] / 2);
    J[3] = sign * th / 2;
    J[4] = sign * alpha;
    J[5] = sign * (dalpha * p[1] - p[0] / 2);
    J[6] = J[7] = 0;
    J[8] = sign;
}

static void cdyn__difference_derivatives_planar(cdyn_real d0[9], cdyn_real d1[9],
                                                const cdyn_real q0[4], const cdyn_real q1[4])
{
    cdyn_real v[3], p[2];
    cdyn__log_coeffs k;
    cdyn__log_planar(v, p, &k, q0, q1);
    if (d1)
        cdyn__jlog2(d1, v[2], p, k, 1);
    if (d0) { /* -Jr(-v)^-1 at M^-1 = (R^T, -R^T p), R by the angle v[2] */
        const cdyn_real c = CDYN_COS(v[2]), s = CDYN_SIN(v[2]);
        const cdyn_real mp[2] = { -(c * p[0] + s * p[1]), -(c * p[1] - s * p[0]) };
        cdyn__jlog2(d0, -v[2], mp, k, -1);
    }
}

/* At v = [rho; th], exp(v) = (R, t), t = V2 rho, V2 = A I + th B J:
 * Ad(exp(v))^-1 = [[R^T, (t'_y, -t'_x)], [0, 1]] with t' = -R^T t, and
 * Jr = [[R^T V2, th C rho + B J rho], [0, 1]], R^T V2 = A I - th B J. */
static void cdyn__integrate_derivatives_planar(cdyn_real dq[9], cdyn_real dv[9],
                                               const cdyn_real v[3])
{
    const cdyn_real th = v[2], rx = v[0], ry = v[1];
    const cdyn__exp_coeffs k = cdyn__exp_coeffs_at(th);
    const cdyn_real vs = th * k.B; /* (1 - cos th) / th */
    if (dq) {
        const cdyn_real c = CDYN_COS(th), s = CDYN_SIN(th);
        const cdyn_real tx = k.A * rx - vs * ry, ty = vs * rx + k.A * ry;
        const cdyn_real inv_x = -(c * tx + s * ty), inv_y = -(c * ty - s * tx); /* t' */
        const cdyn_real X[9] = { c, s, inv_y, -s, c, -inv_x, 0, 0, 1 };
        for (int r = 0; r < 9; ++r)
            dq[r] = X[r];
    }
    if (dv) {
        const cdyn_real X[9] = { k.A, vs,  th * k.C * rx - k.B * ry,
                                 -vs, k.A, th * k.C * ry + k.B * rx,
                                 0,   0,   1 };
        for (int r = 0; r < 9; ++r)
            dv[r] = X[r];
    }
}

/* ---- the API -------------------------------------------------------------------------- */

static int cdyn__model_ok(const cdyn_model *m)
{
    return m && (m->bodies || !m->nbodies);
}

/* An n x n block at (at, at) of the nv x nv row-major J (the rest already zeroed). */
static void cdyn__put_block(cdyn_real *J, int nv, int at, const cdyn_real *X, int n)
{
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
            J[(size_t)(at + r) * (size_t)nv + (size_t)(at + c)] = X[n * r + c];
}

static void cdyn__zero(cdyn_real *J, int nv)
{
    if (J)
        for (size_t k = 0; k < (size_t)nv * (size_t)nv; ++k)
            J[k] = 0;
}

/* CDYN_E_NONFINITE if a NaN or an infinity is in the inputs (a configuration, then nb
 * reals) or the outputs given (nv x nv each). Inputs too: a revolute joint's blocks are
 * constants, which no NaN reaches. */
static cdyn_status cdyn__finite_status(const cdyn_model *m, const cdyn_real *q, const cdyn_real *b,
                                       int nb, const cdyn_real *out0, const cdyn_real *out1)
{
    const size_t nn = (size_t)m->nv * (size_t)m->nv;
    const int ok = cdyn__all_finite(q, (size_t)m->nq) && cdyn__all_finite(b, (size_t)nb) &&
                   (!out0 || cdyn__all_finite(out0, nn)) && (!out1 || cdyn__all_finite(out1, nn));
    return ok ? CDYN_OK : CDYN_E_NONFINITE;
}

cdyn_status cdyn_difference(const cdyn_model *m, const cdyn_real *q0, const cdyn_real *q1,
                            cdyn_real *v)
{
    if (!cdyn__model_ok(m) || !q0 || !q1 || !v)
        return CDYN_E_ARG;
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        const cdyn_real *x0 = q0 + b->idx_q, *x1 = q1 + b->idx_q;
        cdyn_real *out = v + b->idx_v;
        switch (b->type) {
        case CDYN_JOINT_REVOLUTE:
        case CDYN_JOINT_PRISMATIC: out[0] = x1[0] - x0[0]; break;
        case CDYN_JOINT_REVOLUTE_UNBOUNDED: /* the angle of (c0, s0)^-1 (c1, s1) */
            out[0] = cdyn__atan2(x0[0] * x1[1] - x0[1] * x1[0], x0[0] * x1[0] + x0[1] * x1[1]);
            break;
        case CDYN_JOINT_PLANAR: {
            cdyn_real p[2];
            cdyn__log_coeffs k;
            cdyn__log_planar(out, p, &k, x0, x1);
            break;
        }
        case CDYN_JOINT_FREEFLYER: {
            cdyn__se3_log L;
            cdyn__log_freeflyer(&L, x0, x1);
            for (int k = 0; k < 3; ++k) {
                out[k] = L.u[k];
                out[3 + k] = L.w[k];
            }
            break;
        }
        }
    }
    const int ok = cdyn__all_finite(v, (size_t)m->nv) && cdyn__all_finite(q0, (size_t)m->nq) &&
                   cdyn__all_finite(q1, (size_t)m->nq);
    return ok ? CDYN_OK : CDYN_E_NONFINITE;
}

cdyn_status cdyn_integrate_derivatives(const cdyn_model *m, const cdyn_real *q, const cdyn_real *v,
                                       cdyn_real *dq_next_dq, cdyn_real *dq_next_dv)
{
    if (!cdyn__model_ok(m) || !q || !v)
        return CDYN_E_ARG;
    const int nv = m->nv;
    cdyn__zero(dq_next_dq, nv);
    cdyn__zero(dq_next_dv, nv);
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        cdyn_real dq[36], dv[36]; /* the joint's blocks; NULL skips one */
        cdyn_real *want_dq = dq_next_dq ? dq : NULL, *want_dv = dq_next_dv ? dv : NULL;
        switch (b->type) {
        case CDYN_JOINT_REVOLUTE:
        case CDYN_JOINT_PRISMATIC:
        case CDYN_JOINT_REVOLUTE_UNBOUNDED: dq[0] = dv[0] = 1; break;
        case CDYN_JOINT_PLANAR:
            cdyn__integrate_derivatives_planar(want_dq, want_dv, v + b->idx_v);
            break;
        case CDYN_JOINT_FREEFLYER:
            cdyn__integrate_derivatives_freeflyer(want_dq, want_dv, v + b->idx_v);
            break;
        }
        if (dq_next_dq)
            cdyn__put_block(dq_next_dq, nv, b->idx_v, dq, b->nv);
        if (dq_next_dv)
            cdyn__put_block(dq_next_dv, nv, b->idx_v, dv, b->nv);
    }
    return cdyn__finite_status(m, q, v, nv, dq_next_dq, dq_next_dv);
}

cdyn_status cdyn_difference_derivatives(const cdyn_model *m, const cdyn_real *q0,
                                        const cdyn_real *q1, cdyn_real *dv_dq0, cdyn_real *dv_dq1)
{
    if (!cdyn__model_ok(m) || !q0 || !q1)
        return CDYN_E_ARG;
    const int nv = m->nv;
    cdyn__zero(dv_dq0, nv);
    cdyn__zero(dv_dq1, nv);
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        const cdyn_real *x0 = q0 + b->idx_q, *x1 = q1 + b->idx_q;
        cdyn_real d0[36], d1[36]; /* the joint's blocks; NULL skips one */
        cdyn_real *want_d0 = dv_dq0 ? d0 : NULL, *want_d1 = dv_dq1 ? d1 : NULL;
        switch (b->type) {
        case CDYN_JOINT_REVOLUTE:
        case CDYN_JOINT_PRISMATIC:
        case CDYN_JOINT_REVOLUTE_UNBOUNDED:
            d0[0] = -1;
            d1[0] = 1;
            break;
        case CDYN_JOINT_PLANAR:
            cdyn__difference_derivatives_planar(want_d0, want_d1, x0, x1);
            break;
        case CDYN_JOINT_FREEFLYER:
            cdyn__difference_derivatives_freeflyer(want_d0, want_d1, x0, x1);
            break;
        }
        if (dv_dq0)
            cdyn__put_block(dv_dq0, nv, b->idx_v, d0, b->nv);
        if (dv_dq1)
            cdyn__put_block(dv_dq1, nv, b->idx_v, d1, b->nv);
    }
    return cdyn__finite_status(m, q0, q1, m->nq, dv_dq0, dv_dq1);
}
