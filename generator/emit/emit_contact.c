/* emit_contact.c — a contact seen from the body that carries it, for the solvers that work
 * body by body (constrainedABA, proxPV).
 *
 * Contact c holds frame F (a constant placement in body b) against the world. Its rows of
 * J ddq + gamma are K a_b + kappa: K the first dim rows of the motion transform X_{F<-b},
 * a_b the body's ABA acceleration (gravity entering as the base's upward acceleration) and
 * kappa what K a_b leaves out: gravity (a_b is offset by X_{b<-world} [-g; 0]) and, for a
 * 3d contact, the classical term w x v of the frame origin. K^T maps the multiplier, a force
 * (3d) or wrench (6d) at F in F's axes, to a force on b. */
#include <stdlib.h>
#include "emit/emit.h"

int emit_contact_body(const kin_tree *t, const tree_constraint *c)
{
    return t->frames[c->frame_a].body;
}

static splace contact_frame(const kin_tree *t, const tree_constraint *c)
{
    const tree_frame *f = &t->frames[c->frame_a];
    return splace_const(f->R, f->p);
}

void emit_contact_rows(expr_prog *p, const kin_tree *t, const tree_constraint *c, smot a, ex *rows)
{
    smot af = smot_act_inv(p, contact_frame(t, c), a);
    int r;
    for (r = 0; r < c->dim; r++)
        rows[r] = af.v[r];
}

smot emit_contact_force(expr_prog *p, const kin_tree *t, const tree_constraint *c, const ex *y)
{
    smot f = smot_zero();
    int r;
    for (r = 0; r < c->dim; r++)
        f.v[r] = y[r];
    return sforce_act(p, contact_frame(t, c), f);
}

/* rho K^T K: for the frame origin p, K a = R^T (a_lin - p x a_ang), so K^T K is the
 * spatial inertia of a unit point mass at p (M = 1, H = -[p]x, I = |p|^2 1 - p p^T),
 * whatever R; a 6d contact's angular rows R^T a_ang add 1 to the rotational block. */
sabi emit_contact_inertia(expr_prog *p, const kin_tree *t, const tree_constraint *c, ex rho)
{
    const double *o = t->frames[c->frame_a].p;
    const double pp = o[0] * o[0] + o[1] * o[1] + o[2] * o[2], ang = c->dim == 6 ? 1.0 : 0.0;
    const double I[6] = { pp - o[0] * o[0] + ang, -o[0] * o[1], -o[0] * o[2],
                          pp - o[1] * o[1] + ang, -o[1] * o[2], pp - o[2] * o[2] + ang };
    sinertia y;
    int k;
    y.m = rho;
    for (k = 0; k < 3; k++)
        y.h.v[k] = ex_mul(p, rho, ex_const(o[k]));
    for (k = 0; k < 6; k++)
        y.I.s[k] = ex_mul(p, rho, ex_const(I[k]));
    return sabi_from_inertia(y);
}

void emit_contact_bias(expr_prog *p, const kin_tree *t, const tree_constraint *c, sv3 g_body,
                       smot v_body, ex *kappa)
{
    splace F = contact_frame(t, c);
    sv3 g = sm3_apply_t(p, F.R, g_body);
    int r;
    if (c->dim == 3) {
        smot vf = smot_act_inv(p, F, v_body);
        sv3 vl = { { vf.v[0], vf.v[1], vf.v[2] } }, w = { { vf.v[3], vf.v[4], vf.v[5] } };
        g = sv3_add(p, g, sv3_cross(p, w, vl));
    }
    for (r = 0; r < c->dim; r++)
        kappa[r] = r < 3 ? g.v[r] : ex_const(0.0);
}

void emit_body_gravity(expr_prog *p, const kin_tree *t, const aba_body *B, sv3 *g)
{
    sv3 gw = sv3_const(t->gravity);
    int i;
    for (i = 0; i < t->nbodies; i++) {
        int parent = t->bodies[i].parent;
        g[i] = sm3_apply_t(p, B[i].X.R, parent < 0 ? gw : g[parent]);
    }
}

void emit_contact_carriers(const kin_tree *t, unsigned char *carries)
{
    int k, b;
    for (b = 0; b < t->nbodies; b++)
        carries[b] = 0;
    for (k = 0; k < t->nconstraints; k++)
        for (b = emit_contact_body(t, &t->constraints[k]); b >= 0; b = t->bodies[b].parent)
            carries[b] = 1;
}

/* Baumgarte for a contact set, from q and v alone: a* = -Kp e - Kd K v_b per contact, e
 * the frame's position error against d->ref_* (emit_constraint_error). */
void emit_contact_baumgarte(expr_prog *p, const kin_tree *t)
{
    int n = t->nbodies > 0 ? t->nbodies : 1, ci, r;
    aba_body *B = malloc((size_t)n * sizeof *B);
    splace *o = malloc((size_t)n * sizeof *o);
    if (!B || !o) {
        expr_comment(p, "out of memory");
        goto done;
    }
    emit_aba_pass1(p, t, B);
    for (ci = 0; ci < t->nbodies; ci++) {
        int parent = t->bodies[ci].parent;
        o[ci] = parent < 0 ? B[ci].X : splace_compose(p, o[parent], B[ci].X);
    }
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *c = &t->constraints[ci];
        int b = emit_contact_body(t, c);
        ex e[6], jv[6], kp = ex_inputf(p, "Kp[%d]", ci), kd = ex_inputf(p, "Kd[%d]", ci);
        emit_constraint_error(p, c, splace_compose(p, o[b], contact_frame(t, c)),
                              emit_constraint_reference(p, ci), e);
        emit_contact_rows(p, t, c, B[b].v, jv);
        for (r = 0; r < c->dim; r++)
            expr_storef(p, ex_neg(ex_add(p, ex_mul(p, kp, e[r]), ex_mul(p, kd, jv[r]))),
                        "astar[%d]", c->row + r);
    }
done:
    free(B);
    free(o);
}
