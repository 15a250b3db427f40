/* emit_constraint.c — the constraint set's kinematics and proxLTL, unrolled for one robot.
 *
 * Kinematics (conventions in runtime/cdyn.h): J in frame A's axes (LOCAL), gamma the
 * constraint acceleration at ddq = 0, both built from world columns of the supporting DoFs.
 * proxLTL (Carpentier, Budhiraja, Mansard 2021) factorises K = [[-mu I, J], [J^T, M]],
 * constraints first, as K = Lk^T Dk Lk with Lk = [[Lc, 0], [B, L]]: the DoF rows are M's own
 * factor M = L^T D L (emit_crba.c), the constraint columns of the DoF rows are
 * B = D^-1 L^-T J^T (on each constraint's support only), and the constraint block is the
 * factor of -(G + mu I), G = J M^-1 J^T = B^T D B. The proximal iterations only change the
 * constraint part of the right-hand side, so each one is a solve with the small block;
 * ddq = L^-1 (D^-1 L^-T (tau - nle) + B lambda) once at the end. Every product with a
 * structural zero (outside a support, between constraints whose supports do not meet)
 * is never built, and exact zeros of J (axes, planar mechanisms) fold away. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/constraints.h"
#include "emit/emit.h"

/* Per-body results of one forward pass: X in the parent, o in the world, v and a. */
typedef struct {
    splace *X, *o;
    smot *v, *a;
} body_pass;

static int pass_alloc(const kin_tree *t, body_pass *b)
{
    size_t n = (size_t)(t->nbodies > 0 ? t->nbodies : 1);
    b->X = malloc(n * sizeof *b->X);
    b->o = malloc(n * sizeof *b->o);
    b->v = malloc(n * sizeof *b->v);
    b->a = malloc(n * sizeof *b->a);
    return b->X && b->o && b->v && b->a ? 0 : -1;
}

static void pass_free(body_pass *b)
{
    free(b->X);
    free(b->o);
    free(b->v);
    free(b->a);
}

/* RNEA's forward pass (the same nodes, shared with it) and world placements. */
static void forward_pass(expr_prog *p, const kin_tree *t, const char *vname, body_pass *b)
{
    int i;
    for (i = 0; i < t->nbodies; i++) {
        int parent = t->bodies[i].parent;
        emit_rnea_forward_body(p, t, i, vname, NULL, b->X, b->v, b->a);
        b->o[i] = parent < 0 ? b->X[i] : splace_compose(p, b->o[parent], b->X[i]);
    }
}

static splace frame_world(expr_prog *p, const kin_tree *t, int f, const body_pass *b)
{
    const tree_frame *fr = &t->frames[f];
    splace x = splace_const(fr->R, fr->p);
    return fr->body < 0 ? x : splace_compose(p, b->o[fr->body], x);
}

/* 1 if body `anc` is `body` or one of its ancestors. */
static int body_supports(const kin_tree *t, int anc, int body)
{
    for (; body >= 0; body = t->bodies[body].parent)
        if (body == anc)
            return 1;
    return 0;
}

static smot column_at(expr_prog *p, const kin_tree *t, const body_pass *b, int dof, int frame,
                      sv3 point)
{
    smot S[6];
    int body = t->dof_body[dof];
    emit_joint_subspace(t, body, S);
    if (frame < 0 || !body_supports(t, body, t->frames[frame].body))
        return smot_zero();
    return emit_world_column(p, b->o[body], S[dof - t->bodies[body].idx_v], point);
}

/* Column `dof` of constraint c's rows into col[0 .. dim-1]: R_A^T (column of A - column
 * of B), both taken at A's origin for 6d (spatial velocities), at each origin for 3d. */
static void constraint_column(expr_prog *p, const kin_tree *t, const tree_constraint *c,
                              const body_pass *b, splace A, splace B, int dof, ex *col)
{
    smot ca = column_at(p, t, b, dof, c->frame_a, A.p);
    smot cb = column_at(p, t, b, dof, c->frame_b, c->dim == 6 ? A.p : B.p);
    smot d = smot_sub(p, ca, cb);
    sv3 lin = { { d.v[0], d.v[1], d.v[2] } }, ang = { { d.v[3], d.v[4], d.v[5] } };
    int i;
    lin = sm3_apply_t(p, A.R, lin);
    ang = sm3_apply_t(p, A.R, ang);
    for (i = 0; i < 3; i++) {
        col[i] = lin.v[i];
        if (c->dim == 6)
            col[3 + i] = ang.v[i];
    }
}

static splace frame_b_world(expr_prog *p, const kin_tree *t, const tree_constraint *c,
                            const body_pass *b)
{
    return c->frame_b >= 0 ? frame_world(p, t, c->frame_b, b) : splace_identity();
}

/* The compact J of every constraint into Jh (tree_constraint_index order). */
static void constraint_jacobian(expr_prog *p, const kin_tree *t, const body_pass *b, ex *Jh)
{
    int ci, k, r;
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *c = &t->constraints[ci];
        splace A = frame_world(p, t, c->frame_a, b), B = frame_b_world(p, t, c, b);
        for (k = 0; k < c->nsupport; k++) {
            ex col[6];
            constraint_column(p, t, c, b, A, B, c->support[k], col);
            for (r = 0; r < c->dim; r++)
                Jh[c->offset + r * c->nsupport + k] = col[r];
        }
    }
}

/* A frame's velocity and acceleration in its own axes; the world's are 0 and the base's
 * upward acceleration [-g; 0] (gravity enters every acceleration this way, so it cancels
 * in the differences below). */
static void frame_motion(expr_prog *p, const kin_tree *t, int f, const body_pass *b, smot *v,
                         smot *a)
{
    const tree_frame *fr = &t->frames[f];
    splace x = splace_const(fr->R, fr->p);
    if (fr->body < 0) {
        *v = smot_zero();
        *a = smot_act_inv(p, x, emit_base_acceleration(t));
        return;
    }
    *v = smot_act_inv(p, x, b->v[fr->body]);
    *a = smot_act_inv(p, x, b->a[fr->body]);
}

/* Classical linear acceleration of a frame origin in its own axes: a_lin + w x v_lin. */
static sv3 classical(expr_prog *p, smot v, smot a)
{
    sv3 vl = { { v.v[0], v.v[1], v.v[2] } }, w = { { v.v[3], v.v[4], v.v[5] } };
    sv3 al = { { a.v[0], a.v[1], a.v[2] } };
    return sv3_add(p, al, sv3_cross(p, w, vl));
}

/* gamma of constraint c into g[0 .. dim-1]: 6d: a_A - X_{A<-B} a_B; 3d: the classical
 * acceleration of A's origin minus B's (in world axes) seen in A's axes. A contact's B is
 * the world: a_B = [-g; 0], which removes gravity from A's. */
static void constraint_drift(expr_prog *p, const kin_tree *t, const tree_constraint *c,
                             const body_pass *b, ex *g)
{
    splace A = frame_world(p, t, c->frame_a, b), B = frame_b_world(p, t, c, b);
    smot va, aa, vb, ab;
    int i;
    frame_motion(p, t, c->frame_a, b, &va, &aa);
    if (c->frame_b >= 0) {
        frame_motion(p, t, c->frame_b, b, &vb, &ab);
    } else {
        vb = smot_zero();
        ab = emit_base_acceleration(t);
    }
    if (c->dim == 6) {
        smot d = smot_sub(p, aa, smot_act_inv(p, A, smot_act(p, B, ab)));
        for (i = 0; i < 6; i++)
            g[i] = d.v[i];
    } else {
        sv3 bw = sm3_apply(p, B.R, classical(p, vb, ab));
        sv3 d = sv3_sub(p, classical(p, va, aa), sm3_apply_t(p, A.R, bw));
        for (i = 0; i < 3; i++)
            g[i] = d.v[i];
    }
}

/* J (compact, d->Jc), the frames' placements, and with dynamics gamma and nle too; M on
 * the tree pattern always. One program, so joint transforms and sin/cos are shared. */
static void constraint_terms(expr_prog *p, const kin_tree *t, int dynamics)
{
    int nnz = emit_ltl_nnz(t), ci, k, r;
    ex *H = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *H);
    ex *Jh = malloc((size_t)(t->nnz_J > 0 ? t->nnz_J : 1) * sizeof *Jh);
    body_pass b = { NULL, NULL, NULL, NULL };
    if (!H || !Jh || pass_alloc(t, &b) != 0) {
        expr_comment(p, "out of memory");
        goto done;
    }
    if (dynamics)
        emit_rnea(p, t, "v", NULL, "d->nle");
    expr_section(p, "M on the tree pattern (CRBA)");
    emit_crba_pattern(p, t, H);
    for (k = 0; k < nnz; k++)
        expr_storef(p, H[k], "d->M[%d]", k);
    forward_pass(p, t, dynamics ? "v" : NULL, &b);
    expr_section(p, "constraint Jacobian (support columns), placements and drift");
    constraint_jacobian(p, t, &b, Jh);
    for (k = 0; k < t->nnz_J; k++)
        expr_storef(p, Jh[k], "d->Jc[%d]", k);
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *c = &t->constraints[ci];
        ex g[6];
        emit_store_placement(p, frame_world(p, t, c->frame_a, &b), "con_a", ci);
        if (c->frame_b >= 0)
            emit_store_placement(p, frame_world(p, t, c->frame_b, &b), "con_b", ci);
        if (!dynamics)
            continue;
        constraint_drift(p, t, c, &b, g);
        for (r = 0; r < c->dim; r++)
            expr_storef(p, g[r], "d->gamma[%d]", c->row + r);
    }
done:
    pass_free(&b);
    free(H);
    free(Jh);
}

void emit_constraint_terms(expr_prog *p, const kin_tree *t)
{
    constraint_terms(p, t, 1);
}

void emit_constraint_terms_kin(expr_prog *p, const kin_tree *t)
{
    constraint_terms(p, t, 0);
}

/* The dense J (NC x NV) for the user; its other entries are zeroed by the caller. */
void emit_constraint_jacobian(expr_prog *p, const kin_tree *t)
{
    ex *Jh = malloc((size_t)(t->nnz_J > 0 ? t->nnz_J : 1) * sizeof *Jh);
    body_pass b = { NULL, NULL, NULL, NULL };
    int ci, r, k;
    if (!Jh || pass_alloc(t, &b) != 0) {
        expr_comment(p, "out of memory");
        goto done;
    }
    forward_pass(p, t, NULL, &b);
    constraint_jacobian(p, t, &b, Jh);
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *c = &t->constraints[ci];
        for (r = 0; r < c->dim; r++)
            for (k = 0; k < c->nsupport; k++)
                expr_storef(p, Jh[c->offset + r * c->nsupport + k], "J[%d]",
                            (c->row + r) * t->nv + c->support[k]);
    }
done:
    pass_free(&b);
    free(Jh);
}

void emit_constraint_drift(expr_prog *p, const kin_tree *t)
{
    body_pass b = { NULL, NULL, NULL, NULL };
    int ci, r;
    if (pass_alloc(t, &b) != 0) {
        expr_comment(p, "out of memory");
        pass_free(&b);
        return;
    }
    forward_pass(p, t, "v", &b);
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *c = &t->constraints[ci];
        ex g[6];
        constraint_drift(p, t, c, &b, g);
        for (r = 0; r < c->dim; r++)
            expr_storef(p, g[r], "gamma[%d]", c->row + r);
    }
    pass_free(&b);
}

/* ---- the KKT factor ---- */

static ex L_at(expr_prog *p, const kin_tree *t, int i, int j)
{
    return ex_inputf(p, "d->L[%d]", emit_ltl_index(t, i, j));
}

/* X = L^-T J^T (= D B) and B = D^-1 X, row by row on each constraint's support: the
 * backward sweep of the factor from the deepest supporting DoF. */
static void kkt_columns(expr_prog *p, const kin_tree *t, ex *X, ex *Bh)
{
    ex *x = malloc((size_t)(t->nv > 0 ? t->nv : 1) * sizeof *x);
    int ci, r, k, j;
    if (!x)
        return;
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *c = &t->constraints[ci];
        for (r = 0; r < c->dim; r++) {
            int base = c->offset + r * c->nsupport;
            for (k = 0; k < c->nsupport; k++)
                x[c->support[k]] = ex_inputf(p, "d->Jc[%d]", base + k);
            for (k = c->nsupport - 1; k >= 0; k--) {
                int i = c->support[k];
                for (j = t->dof_parent[i]; j >= 0; j = t->dof_parent[j])
                    x[j] = ex_sub(p, x[j], ex_mul(p, L_at(p, t, i, j), x[i]));
            }
            for (k = 0; k < c->nsupport; k++) {
                int i = c->support[k];
                X[base + k] = x[i];
                Bh[base + k] = ex_mul(p, x[i], ex_inputf(p, "d->Dinv[%d]", i));
            }
        }
    }
    free(x);
}

/* G(r, s) = sum over the shared support of X(r, k) B(s, k). */
static ex delassus_entry(expr_prog *p, const kin_tree *t, const ex *X, const ex *Bh, int r, int s)
{
    const tree_constraint *a = &t->constraints[tree_constraint_of_row(t, r)];
    const tree_constraint *b = &t->constraints[tree_constraint_of_row(t, s)];
    ex g = ex_const(0.0);
    int k;
    for (k = 0; k < a->nsupport; k++) {
        int dof = a->support[k], kb = b->dof_pos[dof];
        if (kb < 0)
            continue;
        g = ex_add(p, g,
                   ex_mul(p, X[tree_constraint_index(t, r, dof)],
                          Bh[b->offset + (s - b->row) * b->nsupport + kb]));
    }
    return g;
}

/* G + mu I as handles (lower triangle of an nc x nc array), or NULL on oom. */
static ex *delassus(expr_prog *p, const kin_tree *t, int store_B)
{
    int nc = t->nc, r, s, k;
    ex *X = malloc((size_t)(t->nnz_J > 0 ? t->nnz_J : 1) * sizeof *X);
    ex *Bh = malloc((size_t)(t->nnz_J > 0 ? t->nnz_J : 1) * sizeof *Bh);
    ex *G = calloc((size_t)(nc > 0 ? nc * nc : 1), sizeof *G);
    ex mu = ex_input(p, "mu");
    if (!X || !Bh || !G) {
        free(G);
        G = NULL;
        goto done;
    }
    expr_section(p, "B = D^-1 L^-T J^T on each support");
    kkt_columns(p, t, X, Bh);
    if (store_B)
        for (k = 0; k < t->nnz_J; k++)
            expr_storef(p, Bh[k], "d->B[%d]", k);
    expr_section(p, "G + mu I = B^T D B + mu I where supports meet");
    for (r = 0; r < nc; r++)
        for (s = 0; s <= r; s++) {
            G[r * nc + s] = delassus_entry(p, t, X, Bh, r, s);
            if (r == s)
                G[r * nc + s] = ex_add(p, G[r * nc + s], mu);
        }
done:
    free(X);
    free(Bh);
    return G;
}

/* The slot of (k, i) in the stored factor: the compact index, or k * n + i. */
static int slot(const dense_factor *f, int k, int i)
{
    return f->index ? f->index[k * f->n + i] : k * f->n + i;
}

void emit_dense_factor(expr_prog *p, const dense_factor *f, ex *A)
{
    int n = f->n, k, i, j;
    for (k = n - 1; k >= 0; k--) {
        ex dinv = ex_div(p, ex_const(1.0), A[k * n + k]);
        expr_storef(p, A[k * n + k], "d->%s[%d]", f->D, k);
        expr_storef(p, dinv, "d->%s[%d]", f->Dinv, k);
        for (i = k - 1; i >= 0; i--) { /* row k's entries left of i still unscaled */
            ex a;
            if (!f->pat[k * n + i])
                continue;
            a = ex_mul(p, A[k * n + i], dinv);
            for (j = 0; j <= i; j++)
                if (f->pat[k * n + j])
                    A[i * n + j] = ex_sub(p, A[i * n + j], ex_mul(p, a, A[k * n + j]));
            A[k * n + i] = a;
            expr_storef(p, a, "d->%s[%d]", f->L, slot(f, k, i));
        }
    }
}

void emit_dense_solve(expr_prog *p, const dense_factor *f, ex *x)
{
    int n = f->n, i, j;
    for (i = n - 1; i >= 0; i--)
        for (j = 0; j < i; j++)
            if (f->pat[i * n + j])
                x[j] = ex_sub(p, x[j],
                              ex_mul(p, ex_inputf(p, "d->%s[%d]", f->L, slot(f, i, j)), x[i]));
    for (i = 0; i < n; i++)
        x[i] = ex_mul(p, x[i], ex_inputf(p, "d->%s[%d]", f->Dinv, i));
    for (i = 0; i < n; i++)
        for (j = 0; j < i; j++)
            if (f->pat[i * n + j])
                x[i] = ex_sub(p, x[i],
                              ex_mul(p, ex_inputf(p, "d->%s[%d]", f->L, slot(f, i, j)), x[j]));
}

static dense_factor delassus_factor(const kin_tree *t, const unsigned char *pat)
{
    dense_factor f;
    f.n = t->nc;
    f.pat = pat;
    f.index = NULL;
    f.L = "Gl";
    f.D = "GD";
    f.Dinv = "GDinv";
    return f;
}

static unsigned char *factor_pattern(const kin_tree *t)
{
    unsigned char *pat = calloc((size_t)(t->nc > 0 ? t->nc * t->nc : 1), 1);
    if (pat && tree_constraint_factor_pattern(t, pat) < 0) {
        free(pat);
        return NULL;
    }
    return pat;
}

int emit_delassus_factor(expr_prog *p, const kin_tree *t, ex *G)
{
    unsigned char *pat = factor_pattern(t);
    if (!pat)
        return -1;
    dense_factor f = delassus_factor(t, pat);
    expr_section(p, "L^T D L of G + mu I (the constraint block of the KKT factor, negated)");
    emit_dense_factor(p, &f, G);
    free(pat);
    return 0;
}

void emit_kkt_factor(expr_prog *p, const kin_tree *t)
{
    unsigned char *pat = factor_pattern(t);
    ex *G = pat ? delassus(p, t, 1) : NULL;
    if (G) {
        dense_factor f = delassus_factor(t, pat);
        expr_section(p, "L^T D L of G + mu I (the constraint block of the KKT factor, negated)");
        emit_dense_factor(p, &f, G);
    } else {
        expr_comment(p, "out of memory");
    }
    free(G);
    free(pat);
}

void emit_delassus(expr_prog *p, const kin_tree *t)
{
    ex *G = delassus(p, t, 0);
    int r, s, nc = t->nc;
    if (!G) {
        expr_comment(p, "out of memory");
        return;
    }
    for (r = 0; r < nc; r++)
        for (s = 0; s <= r; s++) {
            expr_storef(p, G[r * nc + s], "G[%d]", r * nc + s);
            if (s != r)
                expr_storef(p, G[r * nc + s], "G[%d]", s * nc + r);
        }
    free(G);
}

/* x <- (G + mu I)^-1 x = Lc^-1 Dc^-1 Lc^-T x, on the factor's pattern. */
void emit_kkt_solve(expr_prog *p, const kin_tree *t)
{
    unsigned char *pat = factor_pattern(t);
    ex *x = malloc((size_t)(t->nc > 0 ? t->nc : 1) * sizeof *x);
    int i;
    if (pat && x) {
        dense_factor f = delassus_factor(t, pat);
        for (i = 0; i < t->nc; i++)
            x[i] = ex_inputf(p, "x[%d]", i);
        emit_dense_solve(p, &f, x);
        for (i = 0; i < t->nc; i++)
            expr_storef(p, x[i], "x[%d]", i);
    } else {
        expr_comment(p, "out of memory");
    }
    free(pat);
    free(x);
}

/* ---- right-hand sides and the final accelerations ---- */

/* z = L^-T (tau - nle); d->zd = D^-1 z; r = a* - gamma - J M^-1 (tau - nle) = a* - gamma - B^T z. */
void emit_prox_rhs(expr_prog *p, const kin_tree *t)
{
    ex *z = malloc((size_t)(t->nv > 0 ? t->nv : 1) * sizeof *z);
    int i, j, r;
    if (!z) {
        expr_comment(p, "out of memory");
        return;
    }
    for (i = 0; i < t->nv; i++)
        z[i] = ex_sub(p, ex_inputf(p, "tau[%d]", i), ex_inputf(p, "d->nle[%d]", i));
    for (i = t->nv - 1; i >= 0; i--)
        for (j = t->dof_parent[i]; j >= 0; j = t->dof_parent[j])
            z[j] = ex_sub(p, z[j], ex_mul(p, L_at(p, t, i, j), z[i]));
    for (i = 0; i < t->nv; i++)
        expr_storef(p, ex_mul(p, z[i], ex_inputf(p, "d->Dinv[%d]", i)), "d->zd[%d]", i);
    for (r = 0; r < t->nc; r++) {
        const tree_constraint *c = &t->constraints[tree_constraint_of_row(t, r)];
        ex e = ex_sub(p, ex_inputf(p, "astar[%d]", r), ex_inputf(p, "d->gamma[%d]", r));
        for (i = 0; i < c->nsupport; i++)
            e = ex_sub(p, e,
                       ex_mul(p,
                              ex_inputf(p, "d->B[%d]", tree_constraint_index(t, r, c->support[i])),
                              z[c->support[i]]));
        expr_storef(p, e, "d->r[%d]", r);
    }
    free(z);
}

/* (J x)[r] on the support, for x the C array named `vec`. */
static ex constraint_velocity(expr_prog *p, const kin_tree *t, int r, const char *vec)
{
    const tree_constraint *c = &t->constraints[tree_constraint_of_row(t, r)];
    ex e = ex_const(0.0);
    int k;
    for (k = 0; k < c->nsupport; k++)
        e = ex_add(p, e,
                   ex_mul(p, ex_inputf(p, "d->Jc[%d]", tree_constraint_index(t, r, c->support[k])),
                          ex_inputf(p, "%s[%d]", vec, c->support[k])));
    return e;
}

/* Impact: r = -(1 + e) J v_before. */
void emit_impulse_rhs(expr_prog *p, const kin_tree *t)
{
    ex s = ex_neg(ex_add(p, ex_const(1.0), ex_input(p, "restitution")));
    int r;
    for (r = 0; r < t->nc; r++)
        expr_storef(p, ex_mul(p, s, constraint_velocity(p, t, r, "v_before")), "d->r[%d]", r);
}

static splace placement_input(expr_prog *p, const char *field, int ci)
{
    splace x;
    int k;
    for (k = 0; k < 9; k++)
        x.R.m[k] = ex_inputf(p, "d->%s_R[%d][%d]", field, ci, k);
    for (k = 0; k < 3; k++)
        x.p.v[k] = ex_inputf(p, "d->%s_p[%d][%d]", field, ci, k);
    return x;
}

splace emit_constraint_reference(expr_prog *p, int ci)
{
    return placement_input(p, "ref", ci);
}

/* Position error of a constraint in A's axes: 3d R_A^T (p_A - p_ref); 6d also the
 * small-angle rotation vee(R_e - R_e^T) / 2, R_e = R_ref^T R_A. */
void emit_constraint_error(expr_prog *p, const tree_constraint *c, splace A, splace ref, ex *e)
{
    sm3 Re;
    sv3 d = sm3_apply_t(p, A.R, sv3_sub(p, A.p, ref.p));
    int k;
    for (k = 0; k < 3; k++)
        e[k] = d.v[k];
    if (c->dim < 6)
        return;
    Re = sm3_mul(p, sm3_transpose(ref.R), A.R);
    e[3] = ex_mul(p, ex_const(0.5), ex_sub(p, Re.m[7], Re.m[5]));
    e[4] = ex_mul(p, ex_const(0.5), ex_sub(p, Re.m[2], Re.m[6]));
    e[5] = ex_mul(p, ex_const(0.5), ex_sub(p, Re.m[3], Re.m[1]));
}

/* The error from the placements in d: the contact's d->ref_* or the loop's frame B. */
static void position_error(expr_prog *p, int ci, const tree_constraint *c, ex *e)
{
    emit_constraint_error(
        p, c, placement_input(p, "con_a", ci),
        c->is_loop ? placement_input(p, "con_b", ci) : emit_constraint_reference(p, ci), e);
}

/* Baumgarte: a* = -Kp e - Kd J v per constraint (Kp, Kd: arrays of the generated function). */
void emit_baumgarte(expr_prog *p, const kin_tree *t)
{
    int ci, r;
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *c = &t->constraints[ci];
        ex e[6], kp = ex_inputf(p, "Kp[%d]", ci), kd = ex_inputf(p, "Kd[%d]", ci);
        position_error(p, ci, c, e);
        for (r = 0; r < c->dim; r++) {
            ex a = ex_add(p, ex_mul(p, kp, e[r]),
                          ex_mul(p, kd, constraint_velocity(p, t, c->row + r, "v")));
            expr_storef(p, ex_neg(a), "astar[%d]", c->row + r);
        }
    }
}

/* y = L^-1 (base + B lambda), base d->zd (prox) or 0 (impulse); out = y (+ v_before). */
static void kkt_back_substitute(expr_prog *p, const kin_tree *t, int impulse)
{
    ex *y = malloc((size_t)(t->nv > 0 ? t->nv : 1) * sizeof *y);
    const char *lam = impulse ? "impulse" : "lambda";
    int i, j, ci, r, k;
    if (!y) {
        expr_comment(p, "out of memory");
        return;
    }
    for (i = 0; i < t->nv; i++)
        y[i] = impulse ? ex_const(0.0) : ex_inputf(p, "d->zd[%d]", i);
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *c = &t->constraints[ci];
        for (r = 0; r < c->dim; r++) {
            ex l = ex_inputf(p, "%s[%d]", lam, c->row + r);
            for (k = 0; k < c->nsupport; k++)
                y[c->support[k]] =
                    ex_add(p, y[c->support[k]],
                           ex_mul(p, ex_inputf(p, "d->B[%d]", c->offset + r * c->nsupport + k), l));
        }
    }
    for (i = 0; i < t->nv; i++)
        for (j = t->dof_parent[i]; j >= 0; j = t->dof_parent[j])
            y[i] = ex_sub(p, y[i], ex_mul(p, L_at(p, t, i, j), y[j]));
    for (i = 0; i < t->nv; i++) {
        if (impulse)
            expr_storef(p, ex_add(p, ex_inputf(p, "v_before[%d]", i), y[i]), "v_after[%d]", i);
        else
            expr_storef(p, y[i], "ddq[%d]", i);
    }
    free(y);
}

void emit_prox_ddq(expr_prog *p, const kin_tree *t)
{
    kkt_back_substitute(p, t, 0);
}

void emit_impulse_velocity(expr_prog *p, const kin_tree *t)
{
    kkt_back_substitute(p, t, 1);
}
