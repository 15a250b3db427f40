/* symspatial.h — the runtime's spatial algebra, over symbolic scalars (expr handles).
 *
 * Same conventions as the runtime: spatial vectors are [linear; angular]; a placement
 * (R, p) maps child coordinates to parent ones (x_parent = R x_child + p); matrices are
 * row-major. Constants flow through: an identity rotation or an axis-aligned joint makes
 * most products vanish while the code is generated, not while it runs. */
#ifndef CDYNGEN_SYMSPATIAL_H
#define CDYNGEN_SYMSPATIAL_H

#include "symbolic/expr.h"

typedef struct {
    ex v[3];
} sv3;
typedef struct {
    ex m[9];
} sm3; /* row-major 3x3 */
typedef struct {
    sm3 R;
    sv3 p;
} splace; /* child -> parent */
typedef struct {
    ex v[6];
} smot; /* motion or force, [linear; angular] */
/* Symmetric 3x3 as its 6 unique entries: xx xy xz yy yz zz. */
typedef struct {
    ex s[6];
} ssym3;
/* Rigid-body inertia, compact: mass, h = m c, rotational inertia about the frame origin. */
typedef struct {
    ex m;
    sv3 h;
    ssym3 I;
} sinertia;
/* Articulated (symmetric 6x6) inertia as blocks: f_lin = M v + H w, f_ang = H^T v + I w. */
typedef struct {
    ssym3 M;
    sm3 H;
    ssym3 I;
} sabi;

sv3 sv3_const(const double v[3]);
sv3 sv3_zero(void);
sv3 sv3_add(expr_prog *p, sv3 a, sv3 b);
sv3 sv3_sub(expr_prog *p, sv3 a, sv3 b);
sv3 sv3_scale(expr_prog *p, ex s, sv3 a);
sv3 sv3_cross(expr_prog *p, sv3 a, sv3 b);
ex sv3_dot(expr_prog *p, sv3 a, sv3 b);

sm3 sm3_const(const double R[9]);
sm3 sm3_identity(void);
sm3 sm3_mul(expr_prog *p, sm3 a, sm3 b);
sm3 sm3_transpose(sm3 a);
sv3 sm3_apply(expr_prog *p, sm3 a, sv3 v);   /* a v */
sv3 sm3_apply_t(expr_prog *p, sm3 a, sv3 v); /* a^T v */

ex ssym3_at(const ssym3 *s, int i, int j);
ssym3 ssym3_zero(void);
ssym3 ssym3_add(expr_prog *p, ssym3 a, ssym3 b);
sv3 ssym3_apply(expr_prog *p, ssym3 s, sv3 v);
ssym3 ssym3_congruence(expr_prog *p, sm3 r, ssym3 s); /* r s r^T */

splace splace_const(const double R[9], const double p[3]);
splace splace_identity(void);
splace splace_compose(expr_prog *p, splace a, splace b); /* a * b */
sv3 splace_point(expr_prog *p, splace a, sv3 x);         /* R x + p */

smot smot_zero(void);
smot smot_add(expr_prog *p, smot a, smot b);
smot smot_sub(expr_prog *p, smot a, smot b);
smot smot_scale(expr_prog *p, ex s, smot a);
ex smot_dot(expr_prog *p, smot a, smot b);
smot smot_act(expr_prog *p, splace x, smot m);       /* motion child -> parent */
smot smot_act_inv(expr_prog *p, splace x, smot m);   /* motion parent -> child */
smot sforce_act(expr_prog *p, splace x, smot f);     /* force child -> parent */
smot sforce_act_inv(expr_prog *p, splace x, smot f); /* force parent -> child */
smot smot_cross(expr_prog *p, smot v, smot m);       /* v x m */
smot sforce_cross(expr_prog *p, smot v, smot f);     /* v x* f */

/* Body inertia from mass, com and inertia about the com (xx xy xz yy yz zz). */
sinertia sinertia_from_body(double mass, const double com[3], const double inertia_c[6]);
sinertia sinertia_add(expr_prog *p, sinertia a, sinertia b);
smot sinertia_apply(expr_prog *p, sinertia y, smot v);
sinertia sinertia_act(expr_prog *p, splace x, sinertia y); /* child -> parent */

sabi sabi_from_inertia(sinertia y);
sabi sabi_add(expr_prog *p, sabi a, sabi b);
smot sabi_apply(expr_prog *p, sabi a, smot v);
sabi sabi_act(expr_prog *p, splace x, sabi a); /* X^-T A X^-1 */
/* Entry (i, j) of the 6x6 matrix, [linear; angular] order. */
ex sabi_at(const sabi *a, int i, int j);

/* Rotations about coordinate axis k by an angle with cosine c and sine s (c^2 + s^2 = 1,
 * as for sin/cos of a revolute angle): R = axis rotation, congruences R S R^T done with the
 * double-angle identities (4 products for the plane block instead of 12). */
ssym3 ssym3_rotate_axis(expr_prog *p, int k, ex c, ex s, ssym3 a);
sabi sabi_rotate_axis(expr_prog *p, int k, ex c, ex s, sabi a);
sinertia sinertia_rotate_axis(expr_prog *p, int k, ex c, ex s, sinertia y);
/* The rotation matrix itself (entries 0, 1, c, +-s). */
sm3 sm3_axis_rotation(int k, ex c, ex s);

/* Body force f = I a + v x* (I v) of a rigid body with mass m, com c and inertia Ic about
 * the com, by Newton-Euler at the com (fewer products than the spatial form):
 * f_lin = m (a_l + alpha x c + w x v_c), v_c = v_l + w x c;
 * f_ang = Ic alpha + w x (Ic w) + h x (a_l + alpha x c + w x v_c), h = m c. */
smot sbody_force(expr_prog *p, double m, const double c[3], const double ic[6], smot a, smot v);

#endif
