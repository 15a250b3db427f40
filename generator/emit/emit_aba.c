/* emit_aba.c — the articulated-body algorithm (Featherstone RBDA 7.3, Pinocchio LOCAL). */
#include <stdio.h>
#include <stdlib.h>
#include "emit/emit.h"
#include "symbolic/stash.h"

static void ldl_factor(expr_prog *p, int n, ex A[6][6], sym_ldl *f)
{
    ex d[6];
    int i, j, k;
    f->n = n;
    for (j = 0; j < n; j++) {
        ex s = A[j][j];
        for (k = 0; k < j; k++)
            s = ex_sub(p, s, ex_mul(p, ex_mul(p, f->L[j][k], f->L[j][k]), d[k]));
        d[j] = f->d[j] = s;
        f->dinv[j] = ex_div(p, ex_const(1.0), s);
        f->L[j][j] = ex_const(1.0);
        for (i = j + 1; i < n; i++) {
            ex e = A[i][j];
            for (k = 0; k < j; k++)
                e = ex_sub(p, e, ex_mul(p, ex_mul(p, f->L[i][k], f->L[j][k]), d[k]));
            f->L[i][j] = ex_mul(p, e, f->dinv[j]);
        }
    }
}

void emit_ldl_solve(expr_prog *p, const sym_ldl *f, ex *x)
{
    int i, k, n = f->n;
    for (i = 0; i < n; i++)
        for (k = 0; k < i; k++)
            x[i] = ex_sub(p, x[i], ex_mul(p, f->L[i][k], x[k]));
    for (i = 0; i < n; i++)
        x[i] = ex_mul(p, x[i], f->dinv[i]);
    for (i = n - 1; i >= 0; i--)
        for (k = i + 1; k < n; k++)
            x[i] = ex_sub(p, x[i], ex_mul(p, f->L[k][i], x[k]));
}

/* The inverse of the factorised matrix, unit columns solved (zeros fold). */
static void ldl_inverse(expr_prog *p, const sym_ldl *f, ex Ainv[6][6])
{
    int i, j, n = f->n;
    for (j = 0; j < n; j++) {
        ex x[6];
        for (i = 0; i < n; i++)
            x[i] = ex_const(i == j ? 1.0 : 0.0);
        emit_ldl_solve(p, f, x);
        for (i = 0; i < n; i++)
            Ainv[i][j] = x[i];
    }
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            Ainv[j][i] = Ainv[i][j];
}

void emit_aba_pass1(expr_prog *p, const kin_tree *t, aba_body *B)
{
    int i;
    expr_section(p, "pass 1 (root to leaves): velocities, bias accelerations and forces");
    for (i = 0; i < t->nbodies; i++) {
        int parent = t->bodies[i].parent;
        smot vj;
        emit_body_comment(p, t, i, NULL);
        vj = emit_joint_motion(p, t, i, "v");
        sinertia y = emit_body_inertia(t, i);
        aba_body *b = &B[i];
        b->X = emit_joint_placement(p, t, i);
        b->nv = emit_joint_subspace(t, i, b->S);
        if (parent < 0) {
            b->v = vj;
            b->c = smot_zero();
        } else {
            b->v = smot_add(p, smot_act_inv(p, b->X, B[parent].v), vj);
            b->c = smot_cross(p, b->v, vj);
        }
        b->IA = sabi_from_inertia(y);
        b->pA = emit_body_force(p, t, i, smot_zero(), b->v);
    }
}

/* Ia = IA - U D^-1 U^T = IA - sum_a w_a U_a^T with w_a = sum_c U_c Dinv(c, a). The sum is
 * symmetric, so only the upper triangles of the M and I blocks are formed. */
static sabi subtract_projection(expr_prog *p, sabi ia, const aba_body *b)
{
    int a, c, i, j, k;
    for (a = 0; a < b->nv; a++) {
        smot w = smot_zero();
        const smot *u = &b->U[a];
        for (c = 0; c < b->nv; c++)
            w = smot_add(p, w, smot_scale(p, b->Dinv[c][a], b->U[c]));
        for (i = 0, k = 0; i < 3; i++)
            for (j = i; j < 3; j++, k++) {
                ia.M.s[k] = ex_sub(p, ia.M.s[k], ex_mul(p, w.v[i], u->v[j]));
                ia.I.s[k] = ex_sub(p, ia.I.s[k], ex_mul(p, w.v[3 + i], u->v[3 + j]));
            }
        for (i = 0; i < 3; i++)
            for (j = 0; j < 3; j++)
                ia.H.m[3 * i + j] = ex_sub(p, ia.H.m[3 * i + j], ex_mul(p, w.v[i], u->v[3 + j]));
    }
    return ia;
}

/* Ia S = IA S - U D^-1 (S^T IA S) = 0 exactly; when a column of S is a signed unit vector
 * e_r, row and column r of Ia are zero, and saying so exactly (rather than as D - D D^-1 D)
 * removes their arithmetic here and in the transform to the parent. */
static sabi zero_motion_rows(sabi ia, const aba_body *b)
{
    static const int sym[9] = { 0, 1, 2, 1, 3, 4, 2, 4, 5 }; /* (i, j) -> ssym3 slot */
    int a, r, j;
    for (a = 0; a < b->nv; a++) {
        int row = -1, nonzero = 0;
        for (r = 0; r < 6; r++)
            if (!ex_is_zero(b->S[a].v[r])) {
                nonzero++;
                row = r;
            }
        if (nonzero != 1 ||
            !(ex_is_const(b->S[a].v[row], 1.0) || ex_is_const(b->S[a].v[row], -1.0)))
            continue;
        for (j = 0; j < 3; j++) {
            if (row < 3) {
                ia.M.s[sym[3 * row + j]] = ex_const(0.0);
                ia.H.m[3 * row + j] = ex_const(0.0);
            } else {
                ia.I.s[sym[3 * (row - 3) + j]] = ex_const(0.0);
                ia.H.m[3 * j + (row - 3)] = ex_const(0.0);
            }
        }
    }
    return ia;
}

/* X^-T Ia X^-1, in two steps (joint rotation, then the constant placement) when the joint
 * splits so: the double-angle rotation is cheaper than the composed one. */
static sabi articulated_to_parent(expr_prog *p, const kin_tree *t, int body, splace X, sabi ia)
{
    splace placement;
    int k;
    ex c, s;
    if (emit_joint_split(p, t, body, &placement, &k, &c, &s))
        return sabi_act(p, placement, sabi_rotate_axis(p, k, c, s, ia));
    return sabi_act(p, X, ia);
}

void emit_aba_pass2(expr_prog *p, const kin_tree *t, aba_body *B)
{
    int i, a, c;
    expr_section(p, "pass 2 (leaves to root): articulated inertias and bias forces");
    for (i = t->nbodies - 1; i >= 0; i--) {
        aba_body *b = &B[i];
        int parent = t->bodies[i].parent, n = b->nv;
        ex D[6][6];
        emit_body_comment(p, t, i, NULL);
        for (a = 0; a < n; a++) {
            b->U[a] = sabi_apply(p, b->IA, b->S[a]);
            b->u[a] = ex_sub(p, ex_inputf(p, "tau[%d]", t->bodies[i].idx_v + a),
                             smot_dot(p, b->S[a], b->pA));
        }
        for (a = 0; a < n; a++)
            for (c = 0; c < n; c++)
                D[a][c] = smot_dot(p, b->S[a], b->U[c]);
        ldl_factor(p, n, D, &b->ldl);
        if (parent < 0)
            continue;
        ldl_inverse(p, &b->ldl, b->Dinv);
        {
            sabi ia = zero_motion_rows(subtract_projection(p, b->IA, b), b);
            smot pa = smot_add(p, b->pA, sabi_apply(p, ia, b->c));
            for (a = 0; a < n; a++) {
                ex du = ex_const(0.0);
                for (c = 0; c < n; c++)
                    du = ex_add(p, du, ex_mul(p, b->Dinv[a][c], b->u[c]));
                pa = smot_add(p, pa, smot_scale(p, du, b->U[a]));
            }
            B[parent].IA = sabi_add(p, B[parent].IA, articulated_to_parent(p, t, i, b->X, ia));
            B[parent].pA = smot_add(p, B[parent].pA, sforce_act(p, b->X, pa));
        }
    }
}

void emit_aba_pass3(expr_prog *p, const kin_tree *t, aba_body *B, smot *acc,
                    const unsigned char *only)
{
    smot a0 = emit_base_acceleration(t);
    int i, a, c;
    expr_section(p, "pass 3 (root to leaves): accelerations");
    for (i = 0; i < t->nbodies; i++) {
        aba_body *b = &B[i];
        int parent = t->bodies[i].parent, n = b->nv;
        smot ai;
        ex r[6], qdd[6];
        if (only && !only[i])
            continue;
        emit_body_comment(p, t, i, NULL);
        ai = smot_add(p, smot_act_inv(p, b->X, parent < 0 ? a0 : acc[parent]), b->c);
        for (a = 0; a < n; a++)
            r[a] = ex_sub(p, b->u[a], smot_dot(p, b->U[a], ai));
        if (parent < 0) {
            for (a = 0; a < n; a++)
                qdd[a] = r[a];
            emit_ldl_solve(p, &b->ldl, qdd);
        } else {
            for (a = 0; a < n; a++) {
                qdd[a] = ex_const(0.0);
                for (c = 0; c < n; c++)
                    qdd[a] = ex_add(p, qdd[a], ex_mul(p, b->Dinv[a][c], r[c]));
            }
        }
        for (a = 0; a < n; a++) {
            expr_storef(p, qdd[a], "ddq[%d]", t->bodies[i].idx_v + a);
            ai = smot_add(p, ai, smot_scale(p, qdd[a], b->S[a]));
        }
        acc[i] = ai;
    }
}

void emit_aba_pivots(expr_prog *p, const kin_tree *t, const aba_body *B, const char *array)
{
    int i, a;
    for (i = 0; i < t->nbodies; i++)
        for (a = 0; a < B[i].nv; a++)
            expr_storef(p, B[i].ldl.d[a], "%s[%d]", array, t->bodies[i].idx_v + a);
}

/* The pivots go to d->aba_D, checked by R_aba after the passes (see robot.c.tpl). */
void emit_aba(expr_prog *p, const kin_tree *t)
{
    int n = t->nbodies > 0 ? t->nbodies : 1;
    aba_body *B = malloc((size_t)n * sizeof *B);
    smot *acc = malloc((size_t)n * sizeof *acc);
    if (B && acc) {
        emit_aba_pass1(p, t, B);
        emit_aba_pass2(p, t, B);
        emit_aba_pivots(p, t, B, "d->aba_D");
        emit_aba_pass3(p, t, B, acc, NULL);
    }
    free(B);
    free(acc);
}

void emit_aba_stash(stash *s, const kin_tree *t, aba_body *B)
{
    int i, a, c;
    for (i = 0; i < t->nbodies; i++) {
        aba_body *b = &B[i];
        b->X = stash_splace(s, b->X);
        b->c = stash_smot(s, b->c);
        for (a = 0; a < b->nv; a++)
            b->U[a] = stash_smot(s, b->U[a]);
        if (t->bodies[i].parent < 0) {
            for (a = 0; a < b->nv; a++) {
                b->ldl.dinv[a] = stash_ex(s, b->ldl.dinv[a]);
                for (c = 0; c < a; c++)
                    b->ldl.L[a][c] = stash_ex(s, b->ldl.L[a][c]);
            }
            continue;
        }
        for (a = 0; a < b->nv; a++)
            for (c = a; c < b->nv; c++)
                b->Dinv[a][c] = b->Dinv[c][a] = stash_ex(s, b->Dinv[a][c]);
    }
}
