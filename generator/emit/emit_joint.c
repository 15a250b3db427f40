/* emit_joint.c — joint models and tree-pattern indexing shared by every algorithm. */
#include <stdio.h>
#include "emit/emit.h"

/* Rodrigues: R = c 1 + s [u]x + (1 - c) u u^T for a general unit axis u. */
static sm3 general_rotation(expr_prog *p, const double u[3], ex c, ex s)
{
    ex omc = ex_sub(p, ex_const(1.0), c);
    sm3 r;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            ex e = ex_mul(p, omc, ex_const(u[i] * u[j]));
            if (i == j)
                e = ex_add(p, e, c);
            r.m[3 * i + j] = e;
        }
    /* [u]x entries */
    r.m[1] = ex_sub(p, r.m[1], ex_mul(p, s, ex_const(u[2])));
    r.m[2] = ex_add(p, r.m[2], ex_mul(p, s, ex_const(u[1])));
    r.m[3] = ex_add(p, r.m[3], ex_mul(p, s, ex_const(u[2])));
    r.m[5] = ex_sub(p, r.m[5], ex_mul(p, s, ex_const(u[0])));
    r.m[6] = ex_sub(p, r.m[6], ex_mul(p, s, ex_const(u[1])));
    r.m[7] = ex_add(p, r.m[7], ex_mul(p, s, ex_const(u[0])));
    return r;
}

static sm3 revolute_rotation(expr_prog *p, const tree_body *b, ex c, ex s)
{
    if (b->axis_index >= 0)
        return sm3_axis_rotation(b->axis_index, c, b->axis_sign > 0 ? s : ex_neg(s));
    return general_rotation(p, b->axis, c, s);
}

/* Unit quaternion (x y z w) to a rotation matrix. */
static sm3 quaternion_rotation(expr_prog *p, ex x, ex y, ex z, ex w)
{
    ex two = ex_const(2.0), one = ex_const(1.0);
    ex xx = ex_mul(p, x, x), yy = ex_mul(p, y, y), zz = ex_mul(p, z, z);
    ex xy = ex_mul(p, x, y), xz = ex_mul(p, x, z), yz = ex_mul(p, y, z);
    ex xw = ex_mul(p, x, w), yw = ex_mul(p, y, w), zw = ex_mul(p, z, w);
    sm3 r;
    r.m[0] = ex_sub(p, one, ex_mul(p, two, ex_add(p, yy, zz)));
    r.m[1] = ex_mul(p, two, ex_sub(p, xy, zw));
    r.m[2] = ex_mul(p, two, ex_add(p, xz, yw));
    r.m[3] = ex_mul(p, two, ex_add(p, xy, zw));
    r.m[4] = ex_sub(p, one, ex_mul(p, two, ex_add(p, xx, zz)));
    r.m[5] = ex_mul(p, two, ex_sub(p, yz, xw));
    r.m[6] = ex_mul(p, two, ex_sub(p, xz, yw));
    r.m[7] = ex_mul(p, two, ex_add(p, yz, xw));
    r.m[8] = ex_sub(p, one, ex_mul(p, two, ex_add(p, xx, yy)));
    return r;
}

static ex qin(expr_prog *p, int k)
{
    return ex_inputf(p, "q[%d]", k);
}

/* The joint transform X_J(q) alone. */
static splace joint_transform(expr_prog *p, const tree_body *b)
{
    splace x = splace_identity();
    int k = b->idx_q, i;
    switch (b->kind) {
    case TREE_REVOLUTE:
        x.R = revolute_rotation(p, b, ex_cos(p, qin(p, k)), ex_sin(p, qin(p, k)));
        break;
    case TREE_REVOLUTE_UNBOUNDED: x.R = revolute_rotation(p, b, qin(p, k), qin(p, k + 1)); break;
    case TREE_PRISMATIC:
        for (i = 0; i < 3; i++)
            x.p.v[i] = ex_mul(p, qin(p, k), ex_const(b->axis[i]));
        break;
    case TREE_PLANAR:
        x.R = sm3_axis_rotation(2, qin(p, k + 2), qin(p, k + 3));
        x.p.v[0] = qin(p, k);
        x.p.v[1] = qin(p, k + 1);
        break;
    case TREE_FREEFLYER:
        for (i = 0; i < 3; i++)
            x.p.v[i] = qin(p, k + i);
        x.R = quaternion_rotation(p, qin(p, k + 3), qin(p, k + 4), qin(p, k + 5), qin(p, k + 6));
        break;
    }
    return x;
}

splace emit_joint_placement(expr_prog *p, const kin_tree *t, int body)
{
    const tree_body *b = &t->bodies[body];
    return splace_compose(p, splace_const(b->R, b->p), joint_transform(p, b));
}

static smot unit_motion(int row, double value)
{
    smot m = smot_zero();
    m.v[row] = ex_const(value);
    return m;
}

int emit_joint_subspace(const kin_tree *t, int body, smot S[6])
{
    const tree_body *b = &t->bodies[body];
    int i;
    switch (b->kind) {
    case TREE_REVOLUTE:
    case TREE_REVOLUTE_UNBOUNDED:
    case TREE_PRISMATIC:
        S[0] = smot_zero();
        for (i = 0; i < 3; i++)
            S[0].v[(b->kind == TREE_PRISMATIC ? 0 : 3) + i] = ex_const(b->axis[i]);
        return 1;
    case TREE_PLANAR:
        S[0] = unit_motion(0, 1.0);
        S[1] = unit_motion(1, 1.0);
        S[2] = unit_motion(5, 1.0);
        return 3;
    case TREE_FREEFLYER:
        for (i = 0; i < 6; i++)
            S[i] = unit_motion(i, 1.0);
        return 6;
    }
    return 0;
}

int emit_joint_split(expr_prog *p, const kin_tree *t, int body, splace *placement, int *k, ex *c,
                     ex *s)
{
    const tree_body *b = &t->bodies[body];
    int i;
    if (b->kind != TREE_REVOLUTE || b->axis_index < 0)
        return 0;
    for (i = 0; i < 9; i++)
        if (b->R[i] != 0.0 && b->R[i] != 1.0 && b->R[i] != -1.0)
            return 0;
    *placement = splace_const(b->R, b->p);
    *k = b->axis_index;
    *c = ex_cos(p, qin(p, b->idx_q));
    *s = ex_sin(p, qin(p, b->idx_q));
    if (b->axis_sign < 0)
        *s = ex_neg(*s);
    return 1;
}

smot emit_body_force(expr_prog *p, const kin_tree *t, int body, smot a, smot v)
{
    const tree_body *b = &t->bodies[body];
    return sbody_force(p, b->mass, b->com, b->inertia, a, v);
}

smot emit_joint_motion(expr_prog *p, const kin_tree *t, int body, const char *vec)
{
    smot S[6], m = smot_zero();
    int n = emit_joint_subspace(t, body, S), k;
    if (!vec)
        return m;
    for (k = 0; k < n; k++) {
        ex qd = ex_inputf(p, "%s[%d]", vec, t->bodies[body].idx_v + k);
        m = smot_add(p, m, smot_scale(p, qd, S[k]));
    }
    return m;
}

sinertia emit_body_inertia(const kin_tree *t, int body)
{
    const tree_body *b = &t->bodies[body];
    return sinertia_from_body(b->mass, b->com, b->inertia);
}

smot emit_base_acceleration(const kin_tree *t)
{
    smot a = smot_zero();
    int i;
    for (i = 0; i < 3; i++)
        a.v[i] = ex_const(-t->gravity[i]);
    return a;
}

int emit_dof_depth(const kin_tree *t, int i)
{
    return t->dof_depth[i];
}

int emit_ltl_index(const kin_tree *t, int i, int j)
{
    int k;
    for (k = i; k >= 0 && k != j; k = t->dof_parent[k])
        ;
    return k < 0 ? -1 : t->ltl_start[i] + t->dof_depth[j] - 1;
}

int emit_ltl_nnz(const kin_tree *t)
{
    return t->ltl_start[t->nv];
}

void emit_body_heading(expr_prog *p, const kin_tree *t, int body, const char *what)
{
    const tree_body *b = &t->bodies[body];
    char label[96], text[1024];
    /* body 10 "right_knee_joint" <- "right_hip_pitch_joint": revolute +y (link right_shank) */
    snprintf(text, sizeof text, "body %d \"%.200s\" <- \"%.200s\": %s (link %.200s)%s%s", body,
             b->joint_name, b->parent < 0 ? "world" : t->bodies[b->parent].joint_name,
             emit_joint_label(b, label, sizeof label), b->link_name, what ? ", " : "",
             what ? what : "");
    expr_comment(p, text);
}

void emit_body_comment(expr_prog *p, const kin_tree *t, int body, const char *what)
{
    emit_body_heading(p, t, body, what);
    expr_barrier(p);
}

const char *emit_joint_label(const tree_body *b, char *buf, size_t len)
{
    static const char *const kind[] = { "revolute", "continuous", "prismatic", "planar",
                                        "free-flyer" };
    if (b->kind == TREE_PLANAR || b->kind == TREE_FREEFLYER)
        snprintf(buf, len, "%s", kind[b->kind]);
    else if (b->axis_index >= 0)
        snprintf(buf, len, "%s %c%c", kind[b->kind], b->axis_sign > 0 ? '+' : '-',
                 "xyz"[b->axis_index]);
    else
        snprintf(buf, len, "%s about (%.6g, %.6g, %.6g)", kind[b->kind], b->axis[0], b->axis[1],
                 b->axis[2]);
    return buf;
}

void emit_store_placement(expr_prog *p, splace x, const char *field, int index)
{
    int k;
    for (k = 0; k < 9; k++)
        expr_storef(p, x.R.m[k], "d->%s_R[%d][%d]", field, index, k);
    for (k = 0; k < 3; k++)
        expr_storef(p, x.p.v[k], "d->%s_p[%d][%d]", field, index, k);
}
