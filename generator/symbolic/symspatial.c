/* symspatial.c — spatial algebra over expr handles; zeros fold as the code is built. */
#include "symbolic/symspatial.h"

/* ---- 3-vectors ---- */

sv3 sv3_const(const double v[3])
{
    sv3 r;
    int i;
    for (i = 0; i < 3; i++)
        r.v[i] = ex_const(v[i]);
    return r;
}

sv3 sv3_zero(void)
{
    static const double z[3] = { 0, 0, 0 };
    return sv3_const(z);
}

sv3 sv3_add(expr_prog *p, sv3 a, sv3 b)
{
    int i;
    for (i = 0; i < 3; i++)
        a.v[i] = ex_add(p, a.v[i], b.v[i]);
    return a;
}

sv3 sv3_sub(expr_prog *p, sv3 a, sv3 b)
{
    int i;
    for (i = 0; i < 3; i++)
        a.v[i] = ex_sub(p, a.v[i], b.v[i]);
    return a;
}

sv3 sv3_scale(expr_prog *p, ex s, sv3 a)
{
    int i;
    for (i = 0; i < 3; i++)
        a.v[i] = ex_mul(p, s, a.v[i]);
    return a;
}

sv3 sv3_cross(expr_prog *p, sv3 a, sv3 b)
{
    sv3 r;
    r.v[0] = ex_fms2(p, a.v[1], b.v[2], a.v[2], b.v[1]);
    r.v[1] = ex_fms2(p, a.v[2], b.v[0], a.v[0], b.v[2]);
    r.v[2] = ex_fms2(p, a.v[0], b.v[1], a.v[1], b.v[0]);
    return r;
}

ex sv3_dot(expr_prog *p, sv3 a, sv3 b)
{
    return ex_add(p, ex_fma2(p, a.v[0], b.v[0], a.v[1], b.v[1]), ex_mul(p, a.v[2], b.v[2]));
}

/* ---- 3x3 matrices ---- */

sm3 sm3_const(const double R[9])
{
    sm3 r;
    int i;
    for (i = 0; i < 9; i++)
        r.m[i] = ex_const(R[i]);
    return r;
}

sm3 sm3_identity(void)
{
    static const double id[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    return sm3_const(id);
}

/* sum_k a_k b_k over three terms */
static ex dot3(expr_prog *p, ex a0, ex b0, ex a1, ex b1, ex a2, ex b2)
{
    return ex_add(p, ex_fma2(p, a0, b0, a1, b1), ex_mul(p, a2, b2));
}

sm3 sm3_mul(expr_prog *p, sm3 a, sm3 b)
{
    sm3 r;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            r.m[3 * i + j] =
                dot3(p, a.m[3 * i], b.m[j], a.m[3 * i + 1], b.m[3 + j], a.m[3 * i + 2], b.m[6 + j]);
    return r;
}

sm3 sm3_transpose(sm3 a)
{
    sm3 r;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            r.m[3 * j + i] = a.m[3 * i + j];
    return r;
}

sv3 sm3_apply(expr_prog *p, sm3 a, sv3 v)
{
    sv3 r;
    int i;
    for (i = 0; i < 3; i++)
        r.v[i] = dot3(p, a.m[3 * i], v.v[0], a.m[3 * i + 1], v.v[1], a.m[3 * i + 2], v.v[2]);
    return r;
}

sv3 sm3_apply_t(expr_prog *p, sm3 a, sv3 v)
{
    sv3 r;
    int i;
    for (i = 0; i < 3; i++)
        r.v[i] = dot3(p, a.m[i], v.v[0], a.m[3 + i], v.v[1], a.m[6 + i], v.v[2]);
    return r;
}

/* Skew matrix [v]x so that [v]x w = v x w. */
static sm3 sm3_skew(sv3 v)
{
    sm3 r;
    r.m[0] = ex_const(0);
    r.m[1] = ex_neg(v.v[2]);
    r.m[2] = v.v[1];
    r.m[3] = v.v[2];
    r.m[4] = ex_const(0);
    r.m[5] = ex_neg(v.v[0]);
    r.m[6] = ex_neg(v.v[1]);
    r.m[7] = v.v[0];
    r.m[8] = ex_const(0);
    return r;
}

/* ---- symmetric 3x3 ---- */

static const int sym_index[9] = { 0, 1, 2, 1, 3, 4, 2, 4, 5 };

ex ssym3_at(const ssym3 *s, int i, int j)
{
    return s->s[sym_index[3 * i + j]];
}

ssym3 ssym3_zero(void)
{
    ssym3 r;
    int i;
    for (i = 0; i < 6; i++)
        r.s[i] = ex_const(0);
    return r;
}

ssym3 ssym3_add(expr_prog *p, ssym3 a, ssym3 b)
{
    int i;
    for (i = 0; i < 6; i++)
        a.s[i] = ex_add(p, a.s[i], b.s[i]);
    return a;
}

static sm3 ssym3_full(ssym3 s)
{
    sm3 r;
    int i;
    for (i = 0; i < 9; i++)
        r.m[i] = s.s[sym_index[i]];
    return r;
}

sv3 ssym3_apply(expr_prog *p, ssym3 s, sv3 v)
{
    return sm3_apply(p, ssym3_full(s), v);
}

/* The upper triangle of a b^T-like product a * c where the result is known symmetric. */
static ssym3 sym_of_product(expr_prog *p, sm3 a, sm3 bt)
{
    ssym3 r;
    int i, j, k = 0;
    for (i = 0; i < 3; i++)
        for (j = i; j < 3; j++)
            r.s[k++] = dot3(p, a.m[3 * i], bt.m[3 * j], a.m[3 * i + 1], bt.m[3 * j + 1],
                            a.m[3 * i + 2], bt.m[3 * j + 2]);
    return r;
}

ssym3 ssym3_congruence(expr_prog *p, sm3 r, ssym3 s)
{
    sm3 rs = sm3_mul(p, r, ssym3_full(s));
    return sym_of_product(p, rs, r); /* (r s) r^T, row i of rs against row j of r */
}

/* ---- placements ---- */

splace splace_const(const double R[9], const double p[3])
{
    splace x;
    x.R = sm3_const(R);
    x.p = sv3_const(p);
    return x;
}

splace splace_identity(void)
{
    static const double z[3] = { 0, 0, 0 };
    splace x;
    x.R = sm3_identity();
    x.p = sv3_const(z);
    return x;
}

splace splace_compose(expr_prog *p, splace a, splace b)
{
    splace x;
    x.R = sm3_mul(p, a.R, b.R);
    x.p = sv3_add(p, sm3_apply(p, a.R, b.p), a.p);
    return x;
}

sv3 splace_point(expr_prog *p, splace a, sv3 x)
{
    return sv3_add(p, sm3_apply(p, a.R, x), a.p);
}

/* ---- motions and forces ---- */

static sv3 lin(smot m)
{
    sv3 r;
    r.v[0] = m.v[0];
    r.v[1] = m.v[1];
    r.v[2] = m.v[2];
    return r;
}

static sv3 ang(smot m)
{
    sv3 r;
    r.v[0] = m.v[3];
    r.v[1] = m.v[4];
    r.v[2] = m.v[5];
    return r;
}

static smot make_mot(sv3 l, sv3 a)
{
    smot r;
    int i;
    for (i = 0; i < 3; i++) {
        r.v[i] = l.v[i];
        r.v[3 + i] = a.v[i];
    }
    return r;
}

smot smot_zero(void)
{
    return make_mot(sv3_zero(), sv3_zero());
}

smot smot_add(expr_prog *p, smot a, smot b)
{
    int i;
    for (i = 0; i < 6; i++)
        a.v[i] = ex_add(p, a.v[i], b.v[i]);
    return a;
}

smot smot_sub(expr_prog *p, smot a, smot b)
{
    int i;
    for (i = 0; i < 6; i++)
        a.v[i] = ex_sub(p, a.v[i], b.v[i]);
    return a;
}

smot smot_scale(expr_prog *p, ex s, smot a)
{
    int i;
    for (i = 0; i < 6; i++)
        a.v[i] = ex_mul(p, s, a.v[i]);
    return a;
}

ex smot_dot(expr_prog *p, smot a, smot b)
{
    return ex_add(p, sv3_dot(p, lin(a), lin(b)), sv3_dot(p, ang(a), ang(b)));
}

/* [R v + p x (R w); R w] */
smot smot_act(expr_prog *p, splace x, smot m)
{
    sv3 w = sm3_apply(p, x.R, ang(m));
    sv3 v = sv3_add(p, sm3_apply(p, x.R, lin(m)), sv3_cross(p, x.p, w));
    return make_mot(v, w);
}

/* [R^T (v - p x w); R^T w] */
smot smot_act_inv(expr_prog *p, splace x, smot m)
{
    sv3 w = ang(m);
    sv3 v = sv3_sub(p, lin(m), sv3_cross(p, x.p, w));
    return make_mot(sm3_apply_t(p, x.R, v), sm3_apply_t(p, x.R, w));
}

/* [R f; R n + p x (R f)] */
smot sforce_act(expr_prog *p, splace x, smot f)
{
    sv3 rf = sm3_apply(p, x.R, lin(f));
    sv3 n = sv3_add(p, sm3_apply(p, x.R, ang(f)), sv3_cross(p, x.p, rf));
    return make_mot(rf, n);
}

/* [R^T f; R^T (n - p x f)] */
smot sforce_act_inv(expr_prog *p, splace x, smot f)
{
    sv3 n = sv3_sub(p, ang(f), sv3_cross(p, x.p, lin(f)));
    return make_mot(sm3_apply_t(p, x.R, lin(f)), sm3_apply_t(p, x.R, n));
}

/* [w x ml + v x mw; w x mw] */
smot smot_cross(expr_prog *p, smot v, smot m)
{
    sv3 l = sv3_add(p, sv3_cross(p, ang(v), lin(m)), sv3_cross(p, lin(v), ang(m)));
    return make_mot(l, sv3_cross(p, ang(v), ang(m)));
}

/* [w x fl; w x fn + v x fl] */
smot sforce_cross(expr_prog *p, smot v, smot f)
{
    sv3 n = sv3_add(p, sv3_cross(p, ang(v), ang(f)), sv3_cross(p, lin(v), lin(f)));
    return make_mot(sv3_cross(p, ang(v), lin(f)), n);
}

/* ---- rigid-body inertias ---- */

sinertia sinertia_from_body(double mass, const double com[3], const double ic[6])
{
    /* I_o = I_c + m (|c|^2 1 - c c^T) */
    double cc = com[0] * com[0] + com[1] * com[1] + com[2] * com[2];
    double io[6];
    sinertia y;
    int i, j, k = 0;
    for (i = 0; i < 3; i++)
        for (j = i; j < 3; j++, k++)
            io[k] = ic[k] + mass * ((i == j ? cc : 0.0) - com[i] * com[j]);
    y.m = ex_const(mass);
    for (i = 0; i < 3; i++)
        y.h.v[i] = ex_const(mass * com[i]);
    for (k = 0; k < 6; k++)
        y.I.s[k] = ex_const(io[k]);
    return y;
}

sinertia sinertia_add(expr_prog *p, sinertia a, sinertia b)
{
    a.m = ex_add(p, a.m, b.m);
    a.h = sv3_add(p, a.h, b.h);
    a.I = ssym3_add(p, a.I, b.I);
    return a;
}

/* [m v - h x w; I w + h x v] */
smot sinertia_apply(expr_prog *p, sinertia y, smot v)
{
    sv3 f = sv3_sub(p, sv3_scale(p, y.m, lin(v)), sv3_cross(p, y.h, ang(v)));
    sv3 n = sv3_add(p, ssym3_apply(p, y.I, ang(v)), sv3_cross(p, y.h, lin(v)));
    return make_mot(f, n);
}

/* Rotate, then move the origin by p:
 * h' = R h + m p;  I' = R I R^T + m (|p|^2 1 - p p^T) + 2 (p.h_r) 1 - p h_r^T - h_r p^T. */
sinertia sinertia_act(expr_prog *p, splace x, sinertia y)
{
    sinertia r;
    sv3 hr = sm3_apply(p, x.R, y.h);
    ssym3 ir = ssym3_congruence(p, x.R, y.I);
    sv3 mp = sv3_scale(p, y.m, x.p);
    ex pp_m = sv3_dot(p, mp, x.p), ph2 = ex_mul(p, ex_const(2.0), sv3_dot(p, x.p, hr));
    int i, j, k = 0;
    r.m = y.m;
    r.h = sv3_add(p, hr, mp);
    for (i = 0; i < 3; i++)
        for (j = i; j < 3; j++, k++) {
            /* -(m p_i p_j) - p_i h_j - h_i p_j, with the diagonal terms */
            ex t = ex_add(p, ex_mul(p, mp.v[i], x.p.v[j]),
                          ex_fma2(p, x.p.v[i], hr.v[j], hr.v[i], x.p.v[j]));
            ex e = ex_sub(p, ir.s[k], t);
            if (i == j)
                e = ex_add(p, e, ex_add(p, pp_m, ph2));
            r.I.s[k] = e;
        }
    return r;
}

/* ---- articulated inertias ---- */

sabi sabi_from_inertia(sinertia y)
{
    sabi a;
    int k;
    for (k = 0; k < 6; k++)
        a.M.s[k] = ex_const(0);
    a.M.s[0] = a.M.s[3] = a.M.s[5] = y.m;
    /* H = -[h]x, so that f_lin = m v - h x w */
    a.H = sm3_skew(y.h);
    for (k = 0; k < 9; k++)
        a.H.m[k] = ex_neg(a.H.m[k]);
    a.I = y.I;
    return a;
}

sabi sabi_add(expr_prog *p, sabi a, sabi b)
{
    int k;
    a.M = ssym3_add(p, a.M, b.M);
    a.I = ssym3_add(p, a.I, b.I);
    for (k = 0; k < 9; k++)
        a.H.m[k] = ex_add(p, a.H.m[k], b.H.m[k]);
    return a;
}

smot sabi_apply(expr_prog *p, sabi a, smot v)
{
    sv3 f = sv3_add(p, ssym3_apply(p, a.M, lin(v)), sm3_apply(p, a.H, ang(v)));
    sv3 n = sv3_add(p, sm3_apply_t(p, a.H, lin(v)), ssym3_apply(p, a.I, ang(v)));
    return make_mot(f, n);
}

/* Rotate every block (M_r = R M R^T, H_r = R H R^T, I_r = R I R^T), then move the origin:
 * M' = M_r, H' = H_r - M_r [p], I' = I_r + [p] H_r + ([p] H_r)^T - [p] M_r [p]. */
sabi sabi_act(expr_prog *p, splace x, sabi a)
{
    sabi r;
    sm3 skp = sm3_skew(x.p), hr, ph, mp, mr;
    ssym3 ir;
    int i, j, k = 0;
    r.M = ssym3_congruence(p, x.R, a.M);
    hr = sm3_mul(p, sm3_mul(p, x.R, a.H), sm3_transpose(x.R));
    ir = ssym3_congruence(p, x.R, a.I);
    mr = ssym3_full(r.M);
    mp = sm3_mul(p, mr, skp); /* M_r [p] */
    ph = sm3_mul(p, skp, hr); /* [p] H_r */
    for (k = 0; k < 9; k++)
        r.H.m[k] = ex_sub(p, hr.m[k], mp.m[k]);
    k = 0;
    for (i = 0; i < 3; i++)
        for (j = i; j < 3; j++, k++) {
            /* ([p] M_r [p])_ij = row i of [p] . column j of M_r [p] */
            ex pmp = dot3(p, skp.m[3 * i], mp.m[j], skp.m[3 * i + 1], mp.m[3 + j], skp.m[3 * i + 2],
                          mp.m[6 + j]);
            ex e = ex_add(p, ir.s[k], ex_add(p, ph.m[3 * i + j], ph.m[3 * j + i]));
            r.I.s[k] = ex_sub(p, e, pmp);
        }
    return r;
}

ex sabi_at(const sabi *a, int i, int j)
{
    if (i < 3 && j < 3)
        return ssym3_at(&a->M, i, j);
    if (i < 3)
        return a->H.m[3 * i + (j - 3)];
    if (j < 3)
        return a->H.m[3 * j + (i - 3)];
    return ssym3_at(&a->I, i - 3, j - 3);
}

/* ---- rotations about a coordinate axis ---- */

sm3 sm3_axis_rotation(int k, ex c, ex s)
{
    sm3 r = sm3_identity();
    int a = (k + 1) % 3, b = (k + 2) % 3;
    r.m[3 * a + a] = c;
    r.m[3 * b + b] = c;
    r.m[3 * a + b] = ex_neg(s);
    r.m[3 * b + a] = s;
    return r;
}

/* Shared per angle: s^2, c s, 2 c s and 2 s^2 (so that cos 2t = 1 - 2 s^2). */
typedef struct {
    ex s2, cs, S2, s2x2;
} double_angle;

static double_angle double_angle_of(expr_prog *p, ex c, ex s)
{
    double_angle d;
    d.s2 = ex_mul(p, s, s);
    d.cs = ex_mul(p, c, s);
    d.S2 = ex_add(p, d.cs, d.cs);
    d.s2x2 = ex_add(p, d.s2, d.s2);
    return d;
}

/* The plane block [[xaa, xab], [xba, xbb]] of R X R^T (R the plane rotation): with
 * delta = xaa - xbb, sigma = xab + xba, t = delta s^2 + sigma c s, u = c s delta - s^2 sigma:
 * x'aa = xaa - t, x'bb = xbb + t, x'ab = xab + u, x'ba = xba + u. */
static void rotate_plane(expr_prog *p, const double_angle *d, ex *aa, ex *ab, ex *ba, ex *bb)
{
    ex delta = ex_sub(p, *aa, *bb), sigma = ex_add(p, *ab, *ba);
    ex t = ex_add(p, ex_mul(p, delta, d->s2), ex_mul(p, sigma, d->cs));
    ex u = ex_sub(p, ex_mul(p, delta, d->cs), ex_mul(p, sigma, d->s2));
    *aa = ex_sub(p, *aa, t);
    *bb = ex_add(p, *bb, t);
    *ab = ex_add(p, *ab, u);
    *ba = ex_add(p, *ba, u);
}

/* Full 3x3 (not necessarily symmetric) R X R^T. */
static sm3 sm3_rotate_axis(expr_prog *p, int k, ex c, ex s, sm3 x)
{
    double_angle d = double_angle_of(p, c, s);
    int a = (k + 1) % 3, b = (k + 2) % 3;
    sm3 r = x;
    rotate_plane(p, &d, &r.m[3 * a + a], &r.m[3 * a + b], &r.m[3 * b + a], &r.m[3 * b + b]);
    /* column k and row k rotate as vectors */
    r.m[3 * a + k] = ex_fms2(p, c, x.m[3 * a + k], s, x.m[3 * b + k]);
    r.m[3 * b + k] = ex_fma2(p, s, x.m[3 * a + k], c, x.m[3 * b + k]);
    r.m[3 * k + a] = ex_fms2(p, c, x.m[3 * k + a], s, x.m[3 * k + b]);
    r.m[3 * k + b] = ex_fma2(p, s, x.m[3 * k + a], c, x.m[3 * k + b]);
    return r;
}

ssym3 ssym3_rotate_axis(expr_prog *p, int k, ex c, ex s, ssym3 x)
{
    double_angle d = double_angle_of(p, c, s);
    int a = (k + 1) % 3, b = (k + 2) % 3;
    ex aa = ssym3_at(&x, a, a), ab = ssym3_at(&x, a, b), bb = ssym3_at(&x, b, b);
    ex ak = ssym3_at(&x, a, k), bk = ssym3_at(&x, b, k);
    ssym3 r = x;
    /* sigma = 2 xab: t = delta s^2 + xab (2 c s), u = c s delta - xab (2 s^2) */
    ex delta = ex_sub(p, aa, bb);
    ex t = ex_add(p, ex_mul(p, delta, d.s2), ex_mul(p, ab, d.S2));
    ex u = ex_sub(p, ex_mul(p, delta, d.cs), ex_mul(p, ab, d.s2x2));
    r.s[sym_index[3 * a + a]] = ex_sub(p, aa, t);
    r.s[sym_index[3 * b + b]] = ex_add(p, bb, t);
    r.s[sym_index[3 * a + b]] = ex_add(p, ab, u);
    r.s[sym_index[3 * a + k]] = ex_fms2(p, c, ak, s, bk);
    r.s[sym_index[3 * b + k]] = ex_fma2(p, s, ak, c, bk);
    return r;
}

sabi sabi_rotate_axis(expr_prog *p, int k, ex c, ex s, sabi x)
{
    x.M = ssym3_rotate_axis(p, k, c, s, x.M);
    x.I = ssym3_rotate_axis(p, k, c, s, x.I);
    x.H = sm3_rotate_axis(p, k, c, s, x.H);
    return x;
}

sinertia sinertia_rotate_axis(expr_prog *p, int k, ex c, ex s, sinertia y)
{
    y.h = sm3_apply(p, sm3_axis_rotation(k, c, s), y.h);
    y.I = ssym3_rotate_axis(p, k, c, s, y.I);
    return y;
}

/* ---- Newton-Euler at the centre of mass ---- */

smot sbody_force(expr_prog *p, double m, const double c[3], const double ic[6], smot a, smot v)
{
    sv3 cc = sv3_const(c), w = ang(v), al = ang(a);
    ssym3 I;
    sv3 vc, acc, fl, n;
    int k;
    for (k = 0; k < 6; k++)
        I.s[k] = ex_const(ic[k]);
    vc = sv3_add(p, lin(v), sv3_cross(p, w, cc));
    acc = sv3_add(p, lin(a), sv3_add(p, sv3_cross(p, al, cc), sv3_cross(p, w, vc)));
    fl = sv3_scale(p, ex_const(m), acc);
    n = sv3_add(p, ssym3_apply(p, I, al), sv3_cross(p, w, ssym3_apply(p, I, w)));
    /* c x (m acc) = h x acc with h = m c folded at generation time */
    n = sv3_add(p, n, sv3_cross(p, sv3_scale(p, ex_const(m), cc), acc));
    return make_mot(fl, n);
}
