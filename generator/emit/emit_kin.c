/* emit_kin.c — forward kinematics and frame Jacobians. */
#include <stdio.h>
#include <stdlib.h>
#include "emit/emit.h"

/* oMi = oM_parent * liMi, then every frame oMf = oMb * bMf, except the frames at their
 * body's origin: robot.c.tpl copies those from oMb after this code. Stored here, each of
 * their values would be one more scalar store where it is computed, which clang (14) does
 * not combine: quadruped12 FK 0.139 -> 0.114 us, talos 0.45 -> 0.37 under clang; gcc,
 * which packs those stores into vectors itself, pays for the copies' reloads on the small
 * tree (quadruped12 0.082 -> 0.096 us, still 7x Pinocchio) and not on talos (0.335). */
void emit_fk(expr_prog *p, const kin_tree *t)
{
    splace *o = malloc((size_t)(t->nbodies > 0 ? t->nbodies : 1) * sizeof *o);
    int i, f;
    if (!o) {
        expr_comment(p, "out of memory");
        return;
    }
    for (i = 0; i < t->nbodies; i++) {
        const tree_body *b = &t->bodies[i];
        splace x;
        emit_body_heading(p, t, i, NULL); /* the banner above the joint's placement, */
        x = emit_joint_placement(p, t, i);
        expr_barrier(p); /* the barrier where it was measured */
        o[i] = b->parent < 0 ? x : splace_compose(p, o[b->parent], x);
        emit_store_placement(p, o[i], "oMb", i);
    }
    expr_section(p, "frames");
    for (f = 0; f < t->nframes; f++) {
        const tree_frame *fr = &t->frames[f];
        splace x = splace_const(fr->R, fr->p);
        if (tree_frame_at_body_origin(fr))
            continue;
        emit_store_placement(p, fr->body < 0 ? x : splace_compose(p, o[fr->body], x), "oMf", f);
    }
    free(o);
}

/* Column for motion S of body j, seen at the frame origin pf, in world axes:
 * w = R_j S_ang, v = R_j S_lin + w x (pf - p_j). */
smot emit_world_column(expr_prog *p, splace oj, smot s, sv3 pf)
{
    sv3 sl, sa, w, v;
    smot c;
    int i;
    for (i = 0; i < 3; i++) {
        sl.v[i] = s.v[i];
        sa.v[i] = s.v[3 + i];
    }
    w = sm3_apply(p, oj.R, sa);
    v = sv3_add(p, sm3_apply(p, oj.R, sl), sv3_cross(p, w, sv3_sub(p, pf, oj.p)));
    for (i = 0; i < 3; i++) {
        c.v[i] = v.v[i];
        c.v[3 + i] = w.v[i];
    }
    return c;
}

/* World placements of `body` and its ancestors, from q (the others are left alone). */
static void chain_placements(expr_prog *p, const kin_tree *t, int body, splace *o)
{
    int i;
    if (body < 0)
        return;
    chain_placements(p, t, t->bodies[body].parent, o);
    i = t->bodies[body].parent;
    emit_body_heading(p, t, body, "world placement");
    o[body] = emit_joint_placement(p, t, body);
    if (i >= 0)
        o[body] = splace_compose(p, o[i], o[body]);
}

static void store_frame(expr_prog *p, splace f)
{
    int k;
    for (k = 0; k < 9; k++)
        expr_storef(p, f.R.m[k], "d->oMf_R[frame][%d]", k);
    for (k = 0; k < 3; k++)
        expr_storef(p, f.p.v[k], "d->oMf_p[frame][%d]", k);
}

static void store_column(expr_prog *p, const kin_tree *t, smot c, int col)
{
    int i;
    for (i = 0; i < 6; i++)
        expr_storef(p, c.v[i], "J[%d]", i * t->nv + col);
}

/* LOCAL columns from the frame towards the root: with jMf the frame's placement in body j,
 * j's column is X_f<-j S_j = jMf^-1 S_j, and pMf = pMj(q) jMf moves one body up. The last
 * step (the root's joint placement) gives oMf, so no world placement of a body is needed,
 * and each column costs one inverse motion transform instead of a world column (a cross
 * product about the frame origin) rotated into the frame's axes. */
static void local_jacobian(expr_prog *p, const kin_tree *t, const tree_frame *fr)
{
    splace x = splace_const(fr->R, fr->p);
    int j, k;
    for (j = fr->body; j >= 0; j = t->bodies[j].parent) {
        smot S[6];
        int n = emit_joint_subspace(t, j, S);
        emit_body_heading(p, t, j, "its columns, then the frame's placement one body up");
        for (k = 0; k < n; k++)
            store_column(p, t, smot_act_inv(p, x, S[k]), t->bodies[j].idx_v + k);
        x = splace_compose(p, emit_joint_placement(p, t, j), x);
    }
    store_frame(p, x);
}

/* LOCAL_WORLD_ALIGNED columns: the placements of the supporting bodies from q, each
 * column in world axes about the frame's origin. */
static void world_jacobian(expr_prog *p, const kin_tree *t, const tree_frame *fr)
{
    const int body = fr->body;
    splace *o = malloc((size_t)(t->nbodies > 0 ? t->nbodies : 1) * sizeof *o), f;
    int k, j;
    if (!o) {
        expr_comment(p, "out of memory");
        return;
    }
    chain_placements(p, t, body, o);
    f = splace_compose(p, o[body], splace_const(fr->R, fr->p));
    store_frame(p, f);
    for (j = body; j >= 0; j = t->bodies[j].parent) {
        smot S[6];
        int n = emit_joint_subspace(t, j, S);
        emit_body_heading(p, t, j, "its columns");
        for (k = 0; k < n; k++)
            store_column(p, t, emit_world_column(p, o[j], S[k], f.p), t->bodies[j].idx_v + k);
    }
    free(o);
}

/* Only the kinematics of the frame's branch; the frame's world placement is stored into
 * d->oMf_*[frame]. The frame's offset in its body is a constant of the program, folded
 * like the joints' placements: a foot or sole frame with no rotation drops a third of the
 * products (quadruped12's foot, LOCAL: 138/85 -> 91/54 mul/add). */
void emit_jacobian(expr_prog *p, const kin_tree *t, int frame, int local)
{
    if (local)
        local_jacobian(p, t, &t->frames[frame]);
    else
        world_jacobian(p, t, &t->frames[frame]);
}
