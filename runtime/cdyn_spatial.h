/* cdyn_spatial.h — spatial algebra for the runtime and generated code.
 *
 * Spatial vectors are [linear; angular]. A placement (R, p) maps child coordinates to
 * parent ones, x_parent = R x_child + p; rotations are row-major 3x3. Outputs come first
 * and never alias an input. The small helpers that sit in every inner loop are static
 * inline so the algorithms compile to straight code; the larger ones live in
 * cdyn_spatial.c.
 *
 * Spatial inertias come in two forms:
 *  - "body" form, as in cdyn_body: mass m, centre of mass c, rotational inertia about c;
 *  - "10" form (I10): m, h = m c (3), inertia about the origin Io (xx xy xz yy yz zz),
 *    which adds linearly and so suits composite inertias;
 *  - full 6x6 row-major (I36), for articulated inertias. */
#ifndef CDYN_SPATIAL_H
#define CDYN_SPATIAL_H

#include "cdyn_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* res = a x b */
static inline void cdyn_cross3(cdyn_real res[3], const cdyn_real a[3], const cdyn_real b[3])
{
    res[0] = a[1] * b[2] - a[2] * b[1];
    res[1] = a[2] * b[0] - a[0] * b[2];
    res[2] = a[0] * b[1] - a[1] * b[0];
}

/* res += a x b */
static inline void cdyn_cross3_add(cdyn_real res[3], const cdyn_real a[3], const cdyn_real b[3])
{
    res[0] += a[1] * b[2] - a[2] * b[1];
    res[1] += a[2] * b[0] - a[0] * b[2];
    res[2] += a[0] * b[1] - a[1] * b[0];
}

static inline cdyn_real cdyn_dot3(const cdyn_real a[3], const cdyn_real b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* res = R x */
static inline void cdyn_rot_apply(cdyn_real res[3], const cdyn_real R[9], const cdyn_real x[3])
{
    res[0] = R[0] * x[0] + R[1] * x[1] + R[2] * x[2];
    res[1] = R[3] * x[0] + R[4] * x[1] + R[5] * x[2];
    res[2] = R[6] * x[0] + R[7] * x[1] + R[8] * x[2];
}

/* res = R^T x */
static inline void cdyn_rot_apply_t(cdyn_real res[3], const cdyn_real R[9], const cdyn_real x[3])
{
    res[0] = R[0] * x[0] + R[3] * x[1] + R[6] * x[2];
    res[1] = R[1] * x[0] + R[4] * x[1] + R[7] * x[2];
    res[2] = R[2] * x[0] + R[5] * x[1] + R[8] * x[2];
}

/* res = A B */
static inline void cdyn_rot_mul(cdyn_real res[9], const cdyn_real A[9], const cdyn_real B[9])
{
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            res[3 * r + c] = A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c];
}

/* res = A B^T */
static inline void cdyn_rot_mul_t(cdyn_real res[9], const cdyn_real A[9], const cdyn_real B[9])
{
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            res[3 * r + c] =
                A[3 * r] * B[3 * c] + A[3 * r + 1] * B[3 * c + 1] + A[3 * r + 2] * B[3 * c + 2];
}

/* Motion child -> parent: w' = R w, v' = R v + p x w'. */
static inline void cdyn_motion_act(cdyn_real res[6], const cdyn_real R[9], const cdyn_real p[3],
                                   const cdyn_real m[6])
{
    cdyn_rot_apply(res + 3, R, m + 3);
    cdyn_rot_apply(res, R, m);
    cdyn_cross3_add(res, p, res + 3);
}

/* Motion parent -> child: w' = R^T w, v' = R^T (v - p x w). */
static inline void cdyn_motion_act_inv(cdyn_real res[6], const cdyn_real R[9], const cdyn_real p[3],
                                       const cdyn_real m[6])
{
    cdyn_real t[3];
    cdyn_cross3(t, m + 3, p); /* w x p = -(p x w) */
    t[0] += m[0];
    t[1] += m[1];
    t[2] += m[2];
    cdyn_rot_apply_t(res, R, t);
    cdyn_rot_apply_t(res + 3, R, m + 3);
}

/* Force child -> parent: f' = R f, n' = R n + p x f'. */
static inline void cdyn_force_act(cdyn_real res[6], const cdyn_real R[9], const cdyn_real p[3],
                                  const cdyn_real f[6])
{
    cdyn_rot_apply(res, R, f);
    cdyn_rot_apply(res + 3, R, f + 3);
    cdyn_cross3_add(res + 3, p, res);
}

/* Force parent -> child: f' = R^T f, n' = R^T (n - p x f). */
static inline void cdyn_force_act_inv(cdyn_real res[6], const cdyn_real R[9], const cdyn_real p[3],
                                      const cdyn_real f[6])
{
    cdyn_real t[3];
    cdyn_cross3(t, f, p); /* f x p = -(p x f) */
    t[0] += f[3];
    t[1] += f[4];
    t[2] += f[5];
    cdyn_rot_apply_t(res, R, f);
    cdyn_rot_apply_t(res + 3, R, t);
}

/* Motion cross motion v x m = [w x m_v + v x m_w; w x m_w]. */
static inline void cdyn_motion_cross(cdyn_real res[6], const cdyn_real v[6], const cdyn_real m[6])
{
    cdyn_cross3(res, v + 3, m);
    cdyn_cross3_add(res, v, m + 3);
    cdyn_cross3(res + 3, v + 3, m + 3);
}

/* Motion cross force v x* f = [w x f; w x n + v x f]. */
static inline void cdyn_force_cross(cdyn_real res[6], const cdyn_real v[6], const cdyn_real f[6])
{
    cdyn_cross3(res, v + 3, f);
    cdyn_cross3(res + 3, v + 3, f + 3);
    cdyn_cross3_add(res + 3, v, f);
}

/* Body-form inertia times motion: f = m (v - c x w), n = Ic w + c x f. */
static inline void cdyn_inertia_mul(cdyn_real res[6], cdyn_real mass, const cdyn_real com[3],
                                    const cdyn_real I[6], const cdyn_real m[6])
{
    const cdyn_real *w = m + 3;
    cdyn_real cw[3];
    cdyn_cross3(cw, com, w);
    res[0] = mass * (m[0] - cw[0]);
    res[1] = mass * (m[1] - cw[1]);
    res[2] = mass * (m[2] - cw[2]);
    res[3] = I[0] * w[0] + I[1] * w[1] + I[2] * w[2];
    res[4] = I[1] * w[0] + I[3] * w[1] + I[4] * w[2];
    res[5] = I[2] * w[0] + I[4] * w[1] + I[5] * w[2];
    cdyn_cross3_add(res + 3, com, res);
}

/* I10 form times motion: f = m v - h x w, n = Io w + h x v. */
static inline void cdyn_inertia10_mul(cdyn_real res[6], const cdyn_real I10[10],
                                      const cdyn_real m[6])
{
    const cdyn_real *h = I10 + 1, *Io = I10 + 4, *w = m + 3;
    cdyn_cross3(res, w, h);
    res[0] += I10[0] * m[0];
    res[1] += I10[0] * m[1];
    res[2] += I10[0] * m[2];
    res[3] = Io[0] * w[0] + Io[1] * w[1] + Io[2] * w[2];
    res[4] = Io[1] * w[0] + Io[3] * w[1] + Io[4] * w[2];
    res[5] = Io[2] * w[0] + Io[4] * w[1] + Io[5] * w[2];
    cdyn_cross3_add(res + 3, h, m);
}

/* R (3x3) of a rotation by the angle whose cosine and sine are (c, s) about the unit
 * axis a: R = c I + s [a]x + (1 - c) a a^T. (c, s) need not be normalised. */
void cdyn_rot_axis(cdyn_real R[9], const cdyn_real a[3], cdyn_real c, cdyn_real s);

/* R of the unit quaternion q = [x y z w] (w last). */
void cdyn_quat_to_rot(cdyn_real R[9], const cdyn_real q[4]);

/* res = a (x) b, Hamilton product of quaternions [x y z w]. */
void cdyn_quat_mul(cdyn_real res[4], const cdyn_real a[4], const cdyn_real b[4]);

/* I10 form of a body-form inertia: h = m c, Io = Ic + m ([c]x)^T [c]x. */
void cdyn_inertia10_from_body(cdyn_real I10[10], cdyn_real mass, const cdyn_real com[3],
                              const cdyn_real I[6]);

/* acc += the I10 inertia I (child coordinates) expressed in the parent by (R, p). */
void cdyn_inertia10_add_act(cdyn_real acc[10], const cdyn_real R[9], const cdyn_real p[3],
                            const cdyn_real I10[10]);

/* Full 6x6 matrix of a body-form inertia: [[m 1, -m [c]x], [m [c]x, Io]]. */
void cdyn_inertia_to_mat6(cdyn_real I36[36], cdyn_real mass, const cdyn_real com[3],
                          const cdyn_real I[6]);

/* acc += X* I X^-1: the symmetric 6x6 inertia I (child coordinates) expressed in the
 * parent by (R, p). */
void cdyn_mat6_add_act(cdyn_real acc[36], const cdyn_real R[9], const cdyn_real p[3],
                       const cdyn_real I36[36]);

#ifdef __cplusplus
}
#endif

#endif
