/* emit_crba.c — CRBA, Featherstone's sparse LTDL, its solve, and M^-1. */
#include <stdio.h>
#include <stdlib.h>
#include "emit.h"

/* X Y X^-1 (compact), split into joint rotation and constant placement when cheaper. */
static sinertia inertia_to_parent(expr_prog *p, const kin_tree *t, int body, splace X,
                                  sinertia y)
{
    splace placement;
    int k;
    ex c, s;
    if (emit_joint_split(p, t, body, &placement, &k, &c, &s))
        return sinertia_act(p, placement, sinertia_rotate_axis(p, k, c, s, y));
    return sinertia_act(p, X, y);
}

/* M on the tree pattern (compact, emit_ltl_index order) as handles.
 * Composite inertias Yc_i = I_i + sum over children X_c Yc_c (compact 10-number form);
 * F = Yc_i S_i, carried up the ancestors: M(j, i) = S_j^T X F. */
static void crba_pattern(expr_prog *p, const kin_tree *t, ex *H)
{
    int n = t->nbodies, i, j, a, b;
    splace *X = malloc((size_t)(n > 0 ? n : 1) * sizeof *X);
    sinertia *Y = malloc((size_t)(n > 0 ? n : 1) * sizeof *Y);
    if (!X || !Y) {
        free(X);
        free(Y);
        return;
    }
    for (i = 0; i < n; i++) {
        X[i] = emit_joint_placement(p, t, i);
        Y[i] = emit_body_inertia(t, i);
    }
    for (i = n - 1; i >= 0; i--) {
        smot Si[6], F[6];
        int ni = emit_joint_subspace(t, i, Si), vi = t->bodies[i].idx_v;
        emit_body_comment(p, t, i, "composite inertia, M columns of its DoFs");
        for (b = 0; b < ni; b++)
            F[b] = sinertia_apply(p, Y[i], Si[b]);
        for (a = 0; a < ni; a++)
            for (b = a; b < ni; b++)
                H[emit_ltl_index(t, vi + b, vi + a)] = smot_dot(p, Si[a], F[b]);
        for (j = i; t->bodies[j].parent >= 0; j = t->bodies[j].parent) {
            int parent = t->bodies[j].parent, vp = t->bodies[parent].idx_v;
            smot Sp[6];
            int np = emit_joint_subspace(t, parent, Sp);
            for (b = 0; b < ni; b++)
                F[b] = sforce_act(p, X[j], F[b]);
            for (a = 0; a < np; a++)
                for (b = 0; b < ni; b++)
                    H[emit_ltl_index(t, vi + b, vp + a)] = smot_dot(p, Sp[a], F[b]);
        }
        if (t->bodies[i].parent >= 0)
            Y[t->bodies[i].parent] = sinertia_add(p, Y[t->bodies[i].parent],
                                                  inertia_to_parent(p, t, i, X[i], Y[i]));
    }
    free(X);
    free(Y);
}

void emit_crba(expr_prog *p, const kin_tree *t)
{
    int nnz = emit_ltl_nnz(t), i, j;
    ex *H = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *H);
    if (!H)
        return;
    crba_pattern(p, t, H);
    for (i = 0; i < t->nv; i++)
        for (j = 0; j < t->nv; j++) {
            int k = emit_ltl_index(t, i >= j ? i : j, i >= j ? j : i);
            expr_storef(p, k >= 0 ? H[k] : ex_const(0.0), "M[%d]", i * t->nv + j);
        }
    for (i = 0; i < nnz; i++)
        expr_storef(p, H[i], "d->M[%d]", i);
    free(H);
}

/* "row 5 (joint knee): ancestors 4, 3" */
static void row_comment(expr_prog *p, const kin_tree *t, int k)
{
    char text[400];
    int i, n;
    n = snprintf(text, sizeof text, "row %d (joint %.100s): ancestors", k,
                 t->bodies[t->dof_body[k]].joint_name);
    for (i = t->dof_parent[k]; i >= 0 && n > 0 && n < (int)sizeof text - 16; i = t->dof_parent[i])
        n += snprintf(text + n, sizeof text - (size_t)n, " %d", i);
    if (t->dof_parent[k] < 0 && n > 0 && n < (int)sizeof text - 16)
        snprintf(text + n, sizeof text - (size_t)n, " none");
    expr_comment(p, text);
}

/* Featherstone's LTDL, in place on the compact pattern: afterwards H(k, k) = D_k and
 * H(k, i) = L_ki. Row k from nv-1 down to 0; fill-in stays on the ancestors. */
static void ltl_factor(expr_prog *p, const kin_tree *t, ex *H, ex *Dinv)
{
    int k, i, j;
    for (k = t->nv - 1; k >= 0; k--) {
        ex dk = H[emit_ltl_index(t, k, k)];
        row_comment(p, t, k);
        Dinv[k] = ex_div(p, ex_const(1.0), dk);
        for (i = t->dof_parent[k]; i >= 0; i = t->dof_parent[i]) {
            int ki = emit_ltl_index(t, k, i);
            ex a = ex_mul(p, H[ki], Dinv[k]);
            for (j = i; j >= 0; j = t->dof_parent[j]) {
                int ij = emit_ltl_index(t, i, j);
                H[ij] = ex_sub(p, H[ij], ex_mul(p, a, H[emit_ltl_index(t, k, j)]));
            }
            H[ki] = a;
        }
    }
}

/* x <- L^-1 D^-1 L^-T x. */
static void ltl_solve(expr_prog *p, const kin_tree *t, const ex *L, const ex *Dinv, ex *x)
{
    int i, j;
    for (i = t->nv - 1; i >= 0; i--)
        for (j = t->dof_parent[i]; j >= 0; j = t->dof_parent[j])
            x[j] = ex_sub(p, x[j], ex_mul(p, L[emit_ltl_index(t, i, j)], x[i]));
    for (i = 0; i < t->nv; i++)
        x[i] = ex_mul(p, x[i], Dinv[i]);
    for (i = 0; i < t->nv; i++)
        for (j = t->dof_parent[i]; j >= 0; j = t->dof_parent[j])
            x[i] = ex_sub(p, x[i], ex_mul(p, L[emit_ltl_index(t, i, j)], x[j]));
}

void emit_ltl(expr_prog *p, const kin_tree *t)
{
    int nnz = emit_ltl_nnz(t), k;
    ex *H = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *H);
    ex *Dinv = malloc((size_t)(t->nv > 0 ? t->nv : 1) * sizeof *Dinv);
    if (!H || !Dinv)
        goto done;
    for (k = 0; k < nnz; k++)
        H[k] = ex_inputf(p, "d->M[%d]", k);
    ltl_factor(p, t, H, Dinv);
    for (k = 0; k < t->nv; k++) {
        int i, kk = emit_ltl_index(t, k, k);
        expr_storef(p, H[kk], "d->D[%d]", k);
        expr_storef(p, Dinv[k], "d->Dinv[%d]", k);
        for (i = t->dof_parent[k]; i >= 0; i = t->dof_parent[i]) {
            int ki = emit_ltl_index(t, k, i);
            expr_storef(p, H[ki], "d->L[%d]", ki);
        }
    }
done:
    free(H);
    free(Dinv);
}

void emit_ltl_solve(expr_prog *p, const kin_tree *t)
{
    int nnz = emit_ltl_nnz(t), k;
    ex *L = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *L);
    ex *Dinv = malloc((size_t)(t->nv > 0 ? t->nv : 1) * sizeof *Dinv);
    ex *x = malloc((size_t)(t->nv > 0 ? t->nv : 1) * sizeof *x);
    if (!L || !Dinv || !x)
        goto done;
    for (k = 0; k < t->nv; k++) {
        int i;
        Dinv[k] = ex_inputf(p, "d->Dinv[%d]", k);
        x[k] = ex_inputf(p, "x[%d]", k);
        for (i = t->dof_parent[k]; i >= 0; i = t->dof_parent[i]) {
            int ki = emit_ltl_index(t, k, i);
            L[ki] = ex_inputf(p, "d->L[%d]", ki);
        }
    }
    ltl_solve(p, t, L, Dinv, x);
    for (k = 0; k < t->nv; k++)
        expr_storef(p, x[k], "x[%d]", k);
done:
    free(L);
    free(Dinv);
    free(x);
}

/* M^-1 = L^-1 D^-1 L^-T from the factor in d, column by column from unit vectors: the zeros
 * of e_k fold, and only one triangle is computed (the other is the same temporaries). */
void emit_minv(expr_prog *p, const kin_tree *t, int first, int end)
{
    int nnz = emit_ltl_nnz(t), nv = t->nv, k, i;
    ex *L = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *L);
    ex *Dinv = malloc((size_t)(nv > 0 ? nv : 1) * sizeof *Dinv);
    ex *x = malloc((size_t)(nv > 0 ? nv : 1) * sizeof *x);
    if (!L || !Dinv || !x)
        goto done;
    for (k = 0; k < nv; k++) {
        Dinv[k] = ex_inputf(p, "d->Dinv[%d]", k);
        for (i = t->dof_parent[k]; i >= 0; i = t->dof_parent[i]) {
            int ki = emit_ltl_index(t, k, i);
            L[ki] = ex_inputf(p, "d->L[%d]", ki);
        }
    }
    for (k = first; k < end && k < nv; k++) {
        char text[48];
        snprintf(text, sizeof text, "column %d", k);
        expr_comment(p, text);
        for (i = 0; i < nv; i++)
            x[i] = ex_const(i == k ? 1.0 : 0.0);
        ltl_solve(p, t, L, Dinv, x);
        for (i = 0; i <= k; i++) {
            expr_storef(p, x[i], "Minv[%d]", i * nv + k);
            if (i != k)
                expr_storef(p, x[i], "Minv[%d]", k * nv + i);
        }
    }
done:
    free(L);
    free(Dinv);
    free(x);
}
