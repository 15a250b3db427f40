/* emit_derivatives.c — the analytical derivatives of RNEA (Carpentier & Mansard, RSS 2018,
 * in the world frame as Pinocchio's and the runtime's cdyn_derivatives.c, whose header
 * comment derives the formulas), unrolled over one robot's tree.
 *
 * Every quantity is in world axes. Forward, per body: its world placement, world motion
 * columns S_j, velocity v, acceleration a (gravity as the base's upward acceleration),
 * inertia I, force f = I a + v x* I v and the variation B (B x = v x* I x - I (v x x) +
 * x x* I v); per DoF j the changes dV_j = v_p x S_j, dA_j = a_p x S_j + v_p x dV_j and
 * dAv_j = (v_b + v_p) x S_j that do not turn with j's subtree (p: the parent body of j's
 * joint). Backward, composites Ic, Bc, F carried up, and per DoF Ic S, Bc^T S and the
 * force changes S x* F + Ic dA + Bc dV, Ic dAv + Bc S, stored per DoF. The entries on each
 * branch (only pairs of DoFs of which one is the other's ancestor are ever nonzero) are
 * 6-vector dot products of those terms, taken by loops over runs of consecutive columns in
 * the generated code (index_tables.c): O(nv depth) of them, which straight-line code would
 * spread over more instructions than the instruction cache holds. */
#include <stdio.h>
#include <stdlib.h>
#include "emit/emit.h"

typedef struct {
    smot S, dV, dA, dAv, IS, BS, FQ, FV;
} dof_terms;

/* The variation B x = v x* I x - I (v x x) + x x* h of a body (or a composite), h = I v
 * its momentum. Its first part is dI/dt, a spatial inertia again with mass 0, first moment
 * hd = w x c + m v_lin and rotational part Id = [w] Io - Io [w] - [v_lin][c] - [c][v_lin]
 * (c the first moment, Io about the origin), so B is 15 numbers that add up over a subtree:
 *   B (a, b)   = (b x (hd + h_lin),  (hd - h_lin) x a + Id b - h_ang x b),
 *   B^T (a, b) = (b x (hd - h_lin),  (hd + h_lin) x a + Id b + h_ang x b). */
typedef struct {
    sv3 hd, hl, hn;
    ssym3 Id;
} svariation;

typedef struct {
    splace oX;
    smot v, a, f;
    sinertia I;
    svariation B;
} body_terms;

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

static smot join(sv3 l, sv3 a)
{
    smot m;
    int r;
    for (r = 0; r < 3; r++) {
        m.v[r] = l.v[r];
        m.v[3 + r] = a.v[r];
    }
    return m;
}

/* B of a body with world inertia I (first moment c, Io) moving at v, momentum h. */
static svariation body_variation(expr_prog *p, sinertia I, smot v, smot h)
{
    svariation B;
    sv3 w = ang(v), vl = lin(v), col[3];
    int r, c, k = 0;
    B.hd = sv3_add(p, sv3_cross(p, w, I.h), sv3_scale(p, I.m, vl));
    B.hl = lin(h);
    B.hn = ang(h);
    for (c = 0; c < 3; c++) { /* column c of [w] Io */
        sv3 ioc;
        for (r = 0; r < 3; r++)
            ioc.v[r] = ssym3_at(&I.I, r, c);
        col[c] = sv3_cross(p, w, ioc);
    }
    for (r = 0; r < 3; r++) /* [w] Io + ([w] Io)^T - (c vl^T + vl c^T) + 2 (vl . c) 1 */
        for (c = r; c < 3; c++) {
            ex e = ex_add(p, col[c].v[r], col[r].v[c]);
            e = ex_sub(p, e, ex_fma2(p, I.h.v[r], vl.v[c], vl.v[r], I.h.v[c]));
            if (r == c)
                e = ex_add(p, e, ex_mul(p, ex_const(2.0), sv3_dot(p, vl, I.h)));
            B.Id.s[k++] = e;
        }
    return B;
}

static svariation variation_add(expr_prog *p, svariation a, svariation b)
{
    a.hd = sv3_add(p, a.hd, b.hd);
    a.hl = sv3_add(p, a.hl, b.hl);
    a.hn = sv3_add(p, a.hn, b.hn);
    a.Id = ssym3_add(p, a.Id, b.Id);
    return a;
}

/* B x (transposed: B^T x). */
static smot variation_apply(expr_prog *p, const svariation *B, smot x, int transposed)
{
    sv3 a = lin(x), b = ang(x);
    sv3 plus = sv3_add(p, B->hd, B->hl), minus = sv3_sub(p, B->hd, B->hl);
    sv3 l = sv3_cross(p, b, transposed ? minus : plus);
    sv3 n = sv3_add(p, sv3_cross(p, transposed ? plus : minus, a), ssym3_apply(p, B->Id, b));
    sv3 hb = sv3_cross(p, B->hn, b);
    n = transposed ? sv3_add(p, n, hb) : sv3_sub(p, n, hb);
    return join(l, n);
}

/* A contact's frame in the world: its body's placement times the frame's constant offset. */
static splace contact_frame(expr_prog *p, const kin_tree *t, const tree_constraint *c, splace oX)
{
    const tree_frame *f = &t->frames[c->frame_a];
    return splace_compose(p, oX, splace_const(f->R, f->p));
}

/* The world wrench of the contacts on body i: lambda's rows are a force (3d) or [force;
 * torque] (6d) at the frame's origin in its axes ("lambda[r]"). */
static smot contact_wrenches(expr_prog *p, const kin_tree *t, int i, splace oX)
{
    smot w = smot_zero();
    int k, r;
    for (k = 0; k < t->nconstraints; k++) {
        const tree_constraint *c = &t->constraints[k];
        smot l = smot_zero();
        if (t->frames[c->frame_a].body != i)
            continue;
        for (r = 0; r < c->dim; r++)
            l.v[r] = ex_inputf(p, "lambda[%d]", c->row + r);
        w = smot_add(p, w, sforce_act(p, contact_frame(p, t, c, oX), l));
    }
    return w;
}

/* Body i's forward step, after its parent's. */
static void forward_body(expr_prog *p, const kin_tree *t, int i, body_terms *bt, dof_terms *dt,
                         int with_contacts)
{
    const tree_body *tb = &t->bodies[i];
    body_terms *b = &bt[i];
    smot S[6], vJ = smot_zero(), aJ = smot_zero(), zero = smot_zero(), h;
    smot vp = tb->parent < 0 ? zero : bt[tb->parent].v;
    smot ap = tb->parent < 0 ? emit_base_acceleration(t) : bt[tb->parent].a;
    splace X = emit_joint_placement(p, t, i);
    int n = emit_joint_subspace(t, i, S), k;
    emit_body_comment(p, t, i, "world placement, motion columns, velocity, acceleration, force");
    b->oX = tb->parent < 0 ? X : splace_compose(p, bt[tb->parent].oX, X);
    for (k = 0; k < n; k++) {
        const int j = tb->idx_v + k;
        dt[j].S = smot_act(p, b->oX, S[k]);
        vJ = smot_add(p, vJ, smot_scale(p, ex_inputf(p, "v[%d]", j), dt[j].S));
        aJ = smot_add(p, aJ, smot_scale(p, ex_inputf(p, "a[%d]", j), dt[j].S));
    }
    b->v = smot_add(p, vp, vJ);
    b->a = smot_add(p, smot_add(p, ap, aJ), smot_cross(p, b->v, vJ));
    b->I = sinertia_act(p, b->oX, emit_body_inertia(t, i));
    h = sinertia_apply(p, b->I, b->v);
    b->f = smot_add(p, sinertia_apply(p, b->I, b->a), sforce_cross(p, b->v, h));
    if (with_contacts)
        b->f = smot_sub(p, b->f, contact_wrenches(p, t, i, b->oX));
    b->B = body_variation(p, b->I, b->v, h);
    for (k = 0; k < n; k++) {
        dof_terms *d = &dt[tb->idx_v + k];
        d->dV = smot_cross(p, vp, d->S);
        d->dA = smot_add(p, smot_cross(p, ap, d->S), smot_cross(p, vp, d->dV));
        d->dAv = smot_cross(p, smot_add(p, b->v, vp), d->S);
    }
}

/* Body i's backward step: its DoFs' terms from the composites, which then go up. */
static void backward_body(expr_prog *p, const kin_tree *t, int i, body_terms *bt, dof_terms *dt)
{
    const tree_body *tb = &t->bodies[i];
    body_terms *b = &bt[i];
    int k;
    emit_body_heading(p, t, i, "composite terms of its DoFs");
    for (k = 0; k < tb->nv; k++) {
        dof_terms *d = &dt[tb->idx_v + k];
        d->IS = sinertia_apply(p, b->I, d->S);
        d->BS = variation_apply(p, &b->B, d->S, 1);
        d->FQ = smot_add(p, sforce_cross(p, d->S, b->f), sinertia_apply(p, b->I, d->dA));
        d->FQ = smot_add(p, d->FQ, variation_apply(p, &b->B, d->dV, 0));
        d->FV = smot_add(p, sinertia_apply(p, b->I, d->dAv), variation_apply(p, &b->B, d->S, 0));
    }
    if (tb->parent < 0)
        return;
    bt[tb->parent].I = sinertia_add(p, bt[tb->parent].I, b->I);
    bt[tb->parent].f = smot_add(p, bt[tb->parent].f, b->f);
    bt[tb->parent].B = variation_add(p, bt[tb->parent].B, b->B);
}

/* DoF k's terms into column k of d->dcol in the layout the runs of the generated code read
 * (robot.c.tpl): [Ic S | Bc^T S | dA | dV | dAv | S | force changes by q | by v]. The force
 * changes only for a DoF with an ancestor on another body: no other entry reads them. */
static void store_terms(expr_prog *p, const kin_tree *t, const dof_terms *dt, int k)
{
    const dof_terms *K = &dt[k];
    const smot *parts[8];
    int j = t->dof_parent[k], n, c, r;
    parts[0] = &K->IS;
    parts[1] = &K->BS;
    parts[2] = &K->dA;
    parts[3] = &K->dV;
    parts[4] = &K->dAv;
    parts[5] = &K->S;
    parts[6] = &K->FQ;
    parts[7] = &K->FV;
    while (j >= 0 && t->dof_body[j] == t->dof_body[k])
        j = t->dof_parent[j];
    n = j >= 0 ? 8 : 6;
    for (c = 0; c < n; c++)
        for (r = 0; r < 6; r++)
            expr_storef(p, parts[c]->v[r], "d->dcol[%d][%d]", 6 * c + r, k);
}

/* Contact c's rows of d(J ddq + gamma) at ddq fixed, by q ("lambda_dq") and by v
 * ("lambda_dv"), row-major NC x NV, on its support: with dA the world change of its body's
 * acceleration that does not turn with the body (gravity taken out) and dV its velocity's,
 * seen in the frame's axes: 6d the spatial acceleration, 3d the classical one a_lin + w x v_lin
 * (vl: the frame's velocity in its axes). */
static void store_contact_rows(expr_prog *p, const kin_tree *t, const body_terms *bt,
                               const dof_terms *dt, const tree_constraint *c)
{
    const int b = t->frames[c->frame_a].body;
    const splace oXc = contact_frame(p, t, c, bt[b].oX);
    const smot vb = bt[b].v, vl = smot_act_inv(p, oXc, vb), g = emit_base_acceleration(t);
    int k, r, by_v;
    for (k = 0; k < c->nsupport; k++) {
        const dof_terms *J = &dt[c->support[k]];
        for (by_v = 0; by_v < 2; by_v++) {
            smot dV = by_v ? J->S : J->dV, dA, rows, dv;
            if (by_v)
                dA = J->dAv;
            else /* dA includes gravity as the base's acceleration g = -gravity: take it out */
                dA = smot_sub(p, J->dA, smot_cross(p, g, J->S));
            dA = smot_sub(p, dA, smot_cross(p, vb, dV));
            rows = smot_act_inv(p, oXc, dA);
            if (c->dim == 3) {
                dv = smot_act_inv(p, oXc, dV);
                rows = join(sv3_add(p, lin(rows), sv3_add(p, sv3_cross(p, ang(dv), lin(vl)),
                                                           sv3_cross(p, ang(vl), lin(dv)))),
                            ang(rows));
            }
            for (r = 0; r < c->dim; r++)
                expr_storef(p, rows.v[r], "%s[%d]", by_v ? "lambda_dv" : "lambda_dq",
                            (c->row + r) * t->nv + c->support[k]);
        }
    }
}

static void emit_derivative_terms(expr_prog *p, const kin_tree *t, int with_contacts)
{
    const int n = t->nbodies, nv = t->nv;
    body_terms *bt = malloc((size_t)(n > 0 ? n : 1) * sizeof *bt);
    dof_terms *dt = malloc((size_t)(nv > 0 ? nv : 1) * sizeof *dt);
    int i, k;
    if (!bt || !dt) {
        expr_comment(p, "out of memory");
        goto done;
    }
    expr_section(p, "root to leaves: world placements, velocities, accelerations, forces and "
                    "each DoF's changes");
    for (i = 0; i < n; i++)
        forward_body(p, t, i, bt, dt, with_contacts);
    expr_section(p, "leaves to root: composites and each DoF's force changes");
    for (i = n - 1; i >= 0; i--)
        backward_body(p, t, i, bt, dt);
    expr_section(p, "each DoF's terms, for the entries on its branch");
    for (k = 0; k < nv; k++)
        store_terms(p, t, dt, k);
    if (with_contacts) {
        expr_section(p, "the contact accelerations' derivatives at ddq fixed, on each support");
        for (k = 0; k < t->nconstraints; k++)
            store_contact_rows(p, t, bt, dt, &t->constraints[k]);
    }
done:
    free(bt);
    free(dt);
}

void emit_rnea_derivatives(expr_prog *p, const kin_tree *t)
{
    emit_derivative_terms(p, t, 0);
}

void emit_constrained_derivatives(expr_prog *p, const kin_tree *t)
{
    emit_derivative_terms(p, t, 1);
}
