/* emit_ltls.c — proxLTLs (Sathya and Carpentier, eq. 10): the augmented Lagrangian on
 * M_mu = M + rho J^T J, rho = 1/mu, in joint space.
 *
 * Each iteration solves M_mu ddq = tau - nle + J^T (lambda_k - rho (gamma - a*)) and sets
 * lambda_k+1 = lambda_k - rho (J ddq + gamma - a*): the proximal iterate of proxLTL, with
 * M ddq + nle = tau + J^T lambda_k+1. The last step is refined once against M and J apart. M_mu is factorised once, by Featherstone's L^T D L on
 * tree_augmented_pattern: for contacts M's own tree pattern (J^T J only couples DoFs of one
 * chain); a loop couples its two chains, and the factor fills in where their elimination
 * meets (the pattern says where, every other product is never built). */
#include <stdlib.h>
#include "model/constraints.h"
#include "emit/emit.h"

typedef struct {
    unsigned char *pat;
    int *index;
    int nnz; /* strictly lower entries: the size of d->Lmu */
} augmented;

static int augmented_open(const kin_tree *t, augmented *a)
{
    size_t n = (size_t)(t->nv > 0 ? t->nv * t->nv : 1);
    int i, j;
    a->pat = calloc(n, 1);
    a->index = calloc(n, sizeof *a->index);
    a->nnz = 0;
    if (!a->pat || !a->index || tree_augmented_pattern(t, a->pat) < 0)
        return -1;
    for (i = 0; i < t->nv; i++)
        for (j = 0; j < i; j++)
            a->index[i * t->nv + j] = a->pat[i * t->nv + j] ? a->nnz++ : -1;
    return 0;
}

static void augmented_close(augmented *a)
{
    free(a->pat);
    free(a->index);
}

static dense_factor factor_of(const kin_tree *t, const augmented *a)
{
    dense_factor f;
    f.n = t->nv;
    f.pat = a->pat;
    f.index = a->index;
    f.L = "Lmu";
    f.D = "Dmu";
    f.Dinv = "Dmuinv";
    return f;
}

int emit_ltls_nnz(const kin_tree *t)
{
    augmented a;
    int n = augmented_open(t, &a) == 0 ? a.nnz : -1;
    augmented_close(&a);
    return n;
}

static ex J_at(expr_prog *p, const tree_constraint *c, int r, int k)
{
    return ex_inputf(p, "d->Jc[%d]", c->offset + r * c->nsupport + k);
}

/* M (tree pattern, d->M) + rho J^T J, factorised into d->Lmu, d->Dmu, d->Dmuinv. */
void emit_ltls_factor(expr_prog *p, const kin_tree *t)
{
    augmented a;
    ex *A = calloc((size_t)(t->nv > 0 ? t->nv * t->nv : 1), sizeof *A);
    ex rho = ex_input(p, "rho");
    int nv = t->nv, i, j, ci, r, k, l;
    if (!A || augmented_open(t, &a) != 0) {
        expr_comment(p, "out of memory");
        goto done;
    }
    for (i = 0; i < nv * nv; i++)
        A[i] = ex_const(0.0);
    for (i = 0; i < nv; i++)
        for (j = i; j >= 0; j = t->dof_parent[j])
            A[i * nv + j] = ex_inputf(p, "d->M[%d]", emit_ltl_index(t, i, j));
    expr_section(p, "M + rho J^T J on each support");
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *c = &t->constraints[ci];
        for (k = 0; k < c->nsupport; k++)
            for (l = 0; l <= k; l++) {
                ex s = ex_const(0.0);
                for (r = 0; r < c->dim; r++)
                    s = ex_add(p, s, ex_mul(p, J_at(p, c, r, k), J_at(p, c, r, l)));
                A[c->support[k] * nv + c->support[l]] =
                    ex_add(p, A[c->support[k] * nv + c->support[l]], ex_mul(p, rho, s));
            }
    }
    {
        dense_factor f = factor_of(t, &a);
        expr_section(p, "L^T D L of M + rho J^T J on its pattern");
        emit_dense_factor(p, &f, A);
    }
done:
    augmented_close(&a);
    free(A);
}

/* d->ltls_b = tau - nle, d->ltls_c = gamma - a*, d->ltls_rc = rho (gamma - a*). */
void emit_ltls_rhs(expr_prog *p, const kin_tree *t)
{
    ex rho = ex_input(p, "rho");
    int i, r;
    for (i = 0; i < t->nv; i++)
        expr_storef(p, ex_sub(p, ex_inputf(p, "tau[%d]", i), ex_inputf(p, "d->nle[%d]", i)),
                    "d->ltls_b[%d]", i);
    for (r = 0; r < t->nc; r++) {
        ex c = ex_sub(p, ex_inputf(p, "d->gamma[%d]", r), ex_inputf(p, "astar[%d]", r));
        expr_storef(p, c, "d->ltls_c[%d]", r);
        expr_storef(p, ex_mul(p, rho, c), "d->ltls_rc[%d]", r);
    }
}

/* x += J^T y (y: nc handles). */
static void add_jt(expr_prog *p, const kin_tree *t, const ex *y, ex *x)
{
    int ci, r, k;
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *c = &t->constraints[ci];
        for (r = 0; r < c->dim; r++)
            for (k = 0; k < c->nsupport; k++)
                x[c->support[k]] =
                    ex_add(p, x[c->support[k]], ex_mul(p, J_at(p, c, r, k), y[c->row + r]));
    }
}

/* y = J x + base (base: the input array "d->ltls_c", or none). */
static void times_j(expr_prog *p, const kin_tree *t, const ex *x, int with_c, ex *y)
{
    int ci, r, k;
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *c = &t->constraints[ci];
        for (r = 0; r < c->dim; r++) {
            ex e = with_c ? ex_inputf(p, "d->ltls_c[%d]", c->row + r) : ex_const(0.0);
            for (k = 0; k < c->nsupport; k++)
                e = ex_add(p, e, ex_mul(p, J_at(p, c, r, k), x[c->support[k]]));
            y[c->row + r] = e;
        }
    }
}

/* x = M_mu^-1 (b + J^T (lambda - rho c)), from d->ltls_b and the input lambda. */
static void primal_step(expr_prog *p, const kin_tree *t, const dense_factor *f, ex *x, ex *y)
{
    int i, r;
    for (i = 0; i < t->nv; i++)
        x[i] = ex_inputf(p, "d->ltls_b[%d]", i);
    for (r = 0; r < t->nc; r++)
        y[r] = ex_sub(p, ex_inputf(p, "lambda[%d]", r), ex_inputf(p, "d->ltls_rc[%d]", r));
    add_jt(p, t, y, x);
    emit_dense_solve(p, f, x);
}

/* ddq = x and d->r = J x + c. */
static void store_step(expr_prog *p, const kin_tree *t, const ex *x, ex *y)
{
    int i, r;
    for (i = 0; i < t->nv; i++)
        expr_storef(p, x[i], "ddq[%d]", i);
    times_j(p, t, x, 1, y);
    for (r = 0; r < t->nc; r++)
        expr_storef(p, y[r], "d->r[%d]", r);
}

typedef void (*ltls_body)(expr_prog *p, const kin_tree *t, const dense_factor *f, ex *x, ex *y);

/* The scratch of one step (x: 2 nv handles, y: nc) around body. */
static void with_step(expr_prog *p, const kin_tree *t, ltls_body body)
{
    augmented a;
    ex *x = malloc((size_t)(t->nv > 0 ? t->nv : 1) * 2 * sizeof *x);
    ex *y = malloc((size_t)(t->nc > 0 ? t->nc : 1) * sizeof *y);
    if (!x || !y || augmented_open(t, &a) != 0)
        expr_comment(p, "out of memory");
    else {
        dense_factor f = factor_of(t, &a);
        body(p, t, &f, x, y);
    }
    augmented_close(&a);
    free(x);
    free(y);
}

static void iterate_body(expr_prog *p, const kin_tree *t, const dense_factor *f, ex *x, ex *y)
{
    primal_step(p, t, f, x, y);
    store_step(p, t, x, y);
}

/* One primal step: ddq and d->r = J ddq + c, with which lambda_k+1 = lambda - rho d->r. */
void emit_ltls_iterate(expr_prog *p, const kin_tree *t)
{
    with_step(p, t, iterate_body);
}

static void refine_body(expr_prog *p, const kin_tree *t, const dense_factor *f, ex *x, ex *y)
{
    ex rho = ex_input(p, "rho");
    ex *res = x + t->nv;
    int i, j, r, nv = t->nv;
    for (i = 0; i < nv; i++)
        x[i] = ex_inputf(p, "ddq[%d]", i);
    for (r = 0; r < t->nc; r++)
        y[r] = ex_sub(p, ex_inputf(p, "lambda[%d]", r), ex_mul(p, rho, ex_inputf(p, "d->r[%d]", r)));
    for (i = 0; i < nv; i++)
        res[i] = ex_inputf(p, "d->ltls_b[%d]", i);
    for (i = 0; i < nv; i++)
        for (j = i; j >= 0; j = t->dof_parent[j]) {
            ex m = ex_inputf(p, "d->M[%d]", emit_ltl_index(t, i, j));
            res[i] = ex_sub(p, res[i], ex_mul(p, m, x[j]));
            if (j != i)
                res[j] = ex_sub(p, res[j], ex_mul(p, m, x[i]));
        }
    add_jt(p, t, y, res);
    emit_dense_solve(p, f, res);
    for (i = 0; i < nv; i++)
        x[i] = ex_add(p, x[i], res[i]);
    store_step(p, t, x, y);
}

/* One step of iterative refinement of the last primal step (ddq and d->r from
 * ltls_iterate at the input lambda): forming M + rho J^T J rounds M's entries by
 * ~eps rho ||J||^2, which loses digits where J does not see (1e-4 relative on random
 * robots' gram-scale links). The residual of M ddq + nle = tau + J^T lambda', lambda' =
 * lambda - rho d->r, formed with M and J apart, is solved again and added. Only the last
 * step is refined: an earlier step's error enters lambda, which the next exact step
 * contracts by mu (G + mu I)^-1. */
void emit_ltls_refine(expr_prog *p, const kin_tree *t)
{
    with_step(p, t, refine_body);
}
