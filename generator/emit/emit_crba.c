/* emit_crba.c — CRBA, Featherstone's sparse LTDL, its solve, and M^-1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emit/emit.h"

/* X Y X^-1 (compact), split into joint rotation and constant placement when cheaper. */
static sinertia inertia_to_parent(expr_prog *p, const kin_tree *t, int body, splace X, sinertia y)
{
    splace placement;
    int k;
    ex c, s;
    if (emit_joint_split(p, t, body, &placement, &k, &c, &s))
        return sinertia_act(p, placement, sinertia_rotate_axis(p, k, c, s, y));
    return sinertia_act(p, X, y);
}

/* 1 if M(r, col) is on the tree pattern: one DoF supports the other. */
static int dof_related(const kin_tree *t, int r, int col)
{
    return tree_dof_supports(t, col, r) || tree_dof_supports(t, r, col);
}

/* dst[d0 .. d0+n-1] = 0 written out, eight to a statement ("M[5] = M[6] = ... = 0;"). Not a
 * loop: gcc turns a zeroing loop into an out-of-line memset call (20 of them in talos' crba,
 * 1.98 us against 1.59 written out; M^-1's fills the same either way, 4.30 against 4.25);
 * written out, both compilers merge the stores. */
static void zeros_text(ebuf *out, const char *indent, const char *dst, int d0, int n)
{
    int k;
    for (k = 0; k < n; k++)
        ebuf_printf(out, "%s%s[%d] = %s", k % 8 == 0 ? indent : "", dst, d0 + k,
                    k % 8 == 7 || k == n - 1 ? "0;\n" : "");
}

/* The structural zeros of body i's rows of the full M (the entries outside the tree
 * pattern) as C statements, placed after its block. Written where each body's block ends
 * rather than all at once, the stores drain while the next blocks compute: talos' crba
 * (nv = 50, 1416 zeros of 2500 entries), microbenchmark 1.08 -> 0.98 us under clang and
 * 1.04 -> 0.96 under gcc; the humanoid (nv = 38) 0.51 -> 0.47 under clang, 0.47 -> 0.49
 * under gcc; the robots with 18 DoFs or fewer within 2%. */
static void crba_zeros_code(expr_prog *p, const kin_tree *t, int i)
{
    ebuf out = { 0, 0, 0, 0 };
    int nv = t->nv, r, col, start, v0 = t->bodies[i].idx_v, nb = t->bodies[i].nv;
    size_t heading;
    if (nb == 1)
        ebuf_printf(&out, "/* row %d of M: the zeros off the tree pattern */\n", v0);
    else if (nb > 1)
        ebuf_printf(&out, "/* rows %d-%d of M: the zeros off the tree pattern */\n", v0,
                    v0 + nb - 1);
    heading = out.len;
    for (r = v0; r < v0 + nb; r++)
        for (col = 0; col < nv;) {
            for (; col < nv && dof_related(t, r, col); col++)
                ;
            for (start = col; col < nv && !dof_related(t, r, col); col++)
                ;
            zeros_text(&out, "", "M", r * nv + start, col - start);
        }
    if (out.oom)
        expr_code(p, NULL);
    else if (out.len > heading) /* a chain's rows have no zeros */
        expr_code(p, out.s);
    ebuf_free(&out);
}

/* M on the tree pattern (compact, emit_ltl_index order) as handles.
 * Composite inertias Yc_i = I_i + sum over children X_c Yc_c (compact 10-number form);
 * F = Yc_i S_i, carried up the ancestors: M(j, i) = S_j^T X F. With full, the zeros of
 * each body's rows of the full M after its block. */
static void crba_pattern(expr_prog *p, const kin_tree *t, ex *H, int full)
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
            Y[t->bodies[i].parent] =
                sinertia_add(p, Y[t->bodies[i].parent], inertia_to_parent(p, t, i, X[i], Y[i]));
        if (full)
            crba_zeros_code(p, t, i);
    }
    free(X);
    free(Y);
}

void emit_crba_pattern(expr_prog *p, const kin_tree *t, ex *H)
{
    crba_pattern(p, t, H, 0);
}

/* M on the tree pattern into d->M (with pattern); with full, each entry also into both
 * triangles of the full "M" where it is computed (and the zeros after each body, crba_zeros_code). Talos'
 * crba (nv = 50, 1084 of 2500 entries on the pattern), microbenchmark: 1.59 -> 1.34 us
 * under gcc against copying d->M into M after it (a pass of 567 loads and 1084 stores);
 * clang unchanged (1.54, 1.53). */
static void store_crba(expr_prog *p, const kin_tree *t, int full, int pattern)
{
    int nnz = emit_ltl_nnz(t), nv = t->nv, r, j, k;
    ex *H = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *H);
    if (!H)
        return;
    crba_pattern(p, t, H, full);
    for (r = 0; r < nv; r++)
        for (j = r; j >= 0; j = t->dof_parent[j]) {
            k = emit_ltl_index(t, r, j);
            if (pattern)
                expr_storef(p, H[k], "d->M[%d]", k);
            if (full)
                expr_storef(p, H[k], "M[%d]", r * nv + j);
            if (full && j != r)
                expr_storef(p, H[k], "M[%d]", j * nv + r);
        }
    free(H);
}

void emit_crba(expr_prog *p, const kin_tree *t)
{
    store_crba(p, t, 1, 1);
}

void emit_crba_tree(expr_prog *p, const kin_tree *t)
{
    store_crba(p, t, 0, 1);
}

void emit_crba_full(expr_prog *p, const kin_tree *t)
{
    store_crba(p, t, 1, 0);
}

/* "row 5 (joint knee): ancestors 4 3", comment-safe (malloc'd, NULL on oom). */
static char *row_text(const kin_tree *t, int k)
{
    char text[400];
    int i, n;
    n = snprintf(text, sizeof text, "row %d (joint %.100s): ancestors", k,
                 t->bodies[t->dof_body[k]].joint_name);
    for (i = t->dof_parent[k]; i >= 0 && n > 0 && n < (int)sizeof text - 16; i = t->dof_parent[i])
        n += snprintf(text + n, sizeof text - (size_t)n, " %d", i);
    if (t->dof_parent[k] < 0 && n > 0 && n < (int)sizeof text - 16)
        snprintf(text + n, sizeof text - (size_t)n, " none");
    return expr_comment_text(text);
}

static void row_comment(expr_prog *p, const kin_tree *t, int k)
{
    char *text = row_text(t, k);
    if (text)
        expr_comment(p, text);
    free(text);
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
        expr_storef(p, H[kk], "d->L[%d]", kk);
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

/* The factor's handles: L (emit_ltl_index slots) and Dinv, negated when sign < 0; with x,
 * also the input vector x's, DoF by DoF among them. */
static void factor_inputs(expr_prog *p, const kin_tree *t, ex *L, ex *Dinv, int sign, ex *x)
{
    int k, i;
    for (k = 0; k < t->nv; k++) {
        Dinv[k] = ex_inputf(p, "d->Dinv[%d]", k);
        if (sign < 0)
            Dinv[k] = ex_neg(Dinv[k]);
        if (x)
            x[k] = ex_inputf(p, "x[%d]", k);
        for (i = t->dof_parent[k]; i >= 0; i = t->dof_parent[i]) {
            int ki = emit_ltl_index(t, k, i);
            L[ki] = ex_inputf(p, "d->L[%d]", ki);
        }
    }
}

void emit_ltl_solve(expr_prog *p, const kin_tree *t)
{
    int nnz = emit_ltl_nnz(t), k;
    ex *L = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *L);
    ex *Dinv = malloc((size_t)(t->nv > 0 ? t->nv : 1) * sizeof *Dinv);
    ex *x = malloc((size_t)(t->nv > 0 ? t->nv : 1) * sizeof *x);
    if (!L || !Dinv || !x)
        goto done;
    factor_inputs(p, t, L, Dinv, 1, x);
    ltl_solve(p, t, L, Dinv, x);
    for (k = 0; k < t->nv; k++)
        expr_storef(p, x[k], "x[%d]", k);
done:
    free(L);
    free(Dinv);
    free(x);
}

/* X <- -M^-1 X column by column, X (NV x NV, row-major) with RNEA's derivatives' pattern:
 * X(i, c) is read only where i and c are on one branch, so the other entries' products fold
 * away (L^-T keeps that pattern, as the row sweeps' subtree ends do). In place: every stored
 * entry's value depends on its own entry, read before it is stored. */
void emit_minus_minv(expr_prog *p, const kin_tree *t)
{
    int nnz = emit_ltl_nnz(t), nv = t->nv, i, c;
    ex *L = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof *L);
    ex *Dinv = malloc((size_t)(nv > 0 ? nv : 1) * sizeof *Dinv);
    ex *x = malloc((size_t)(nv > 0 ? nv : 1) * sizeof *x);
    if (!L || !Dinv || !x)
        goto done;
    factor_inputs(p, t, L, Dinv, -1, NULL);
    for (c = 0; c < nv; c++) {
        for (i = 0; i < nv; i++)
            x[i] = tree_dof_supports(t, c, i) || tree_dof_supports(t, i, c)
                       ? ex_inputf(p, "X[%d]", i * nv + c)
                       : ex_const(0.0);
        ltl_solve(p, t, L, Dinv, x);
        for (i = 0; i < nv; i++)
            expr_storef(p, x[i], "X[%d]", i * nv + c);
    }
done:
    free(L);
    free(Dinv);
    free(x);
}

/* ---- LTDL and M^-1 as in-place C text ----
 * Their inner updates run along contiguous stretches: row i of the packed pattern (its
 * root's column first, i's own last) lines up with the head of any descendant's row, and
 * DoFs are numbered depth first, so a DoF's descendants are the DoFs right after it. Each
 * stretch is one in-place vector update (axpy_text) that compilers turn into SIMD
 * operations, which SSA temporaries would hide from them. No value is known to fold here:
 * M is read from d.
 * The LTDL reads rows it has just stored. As prefixes, a row's vector loads start where its
 * vector stores started, and the store buffer forwards them; with the diagonal first (the
 * order before), they were tails, loads straddling two stores, which wait for the stores
 * to retire: gcc, which stores whole vectors, 0.162 -> 0.114 us on quadruped12, 0.88 ->
 * 0.78 on talos; clang, which keeps more of a row in registers, 0.116 -> 0.120 and 0.67 ->
 * 0.69. */

/* One past the last descendant of DoF i. */
static int dof_subtree_end(const kin_tree *t, int i)
{
    int end = i + 1;
    while (end < t->nv && tree_dof_supports(t, i, end))
        end++;
    return end;
}

/* dst[d0 + c] -= s * src[s0 + c] for c = 0 .. n-1, inside a block opened at `indent`.
 * From AXPY_LOOP_MIN on, a loop with constant bounds: both gcc and clang vectorize it,
 * where gcc turns the same statements
 * written out into scalar registers and spills them (humanoid ltl: 1.19 us written out,
 * 0.50 us as loops). It is a vector operation on one stretch, not a loop over the tree. */
#define AXPY_LOOP_MIN 4
/* Below this many products the SSA form (emit_ltl) keeps the whole factor in registers and
 * is faster with gcc (serial chains of 8 and 9 DoFs, 112 and 156 products: 0.047 and 0.059 us
 * against 0.068 and 0.080 row by row; clang is 10-20% faster row by row there); from 210
 * products (10 DoFs) on, the rows win with both (gcc 0.097 -> 0.086 us, clang 0.083 -> 0.075;
 * solo12, 474: gcc 0.186 -> 0.159, clang 0.136 -> 0.115). */
#define LTL_IN_PLACE_MIN_MUL 180

static void axpy_text(ebuf *out, const char *indent, const char *dst, int d0, const char *s,
                      const char *src, int s0, int n, expr_counts *c)
{
    int k;
    if (n >= AXPY_LOOP_MIN)
        ebuf_printf(
            out, "%s    for (int c = 0; c < %d; ++c)\n%s        %s[%d + c] -= %s * %s[%d + c];\n",
            indent, n, indent, dst, d0, s, src, s0);
    else
        for (k = 0; k < n; k++)
            ebuf_printf(out, "%s    %s[%d] -= %s * %s[%d];\n", indent, dst, d0 + k, s, src, s0 + k);
    c->mul += n;
    c->add += n;
}

static void row_comment_text(ebuf *out, const char *indent, const kin_tree *t, int k)
{
    char *text = row_text(t, k);
    if (!text) {
        out->oom = 1;
        return;
    }
    ebuf_printf(out, "%s/* %s */\n", indent, text);
    free(text);
}

/* Row i of the factor from its finished descendants k (i+1 .. the end of its subtree), leaves
 * first: a = M(k,i) / D_k, then row i's stretch (i and its ancestors) -= a times the same
 * stretch of row k, then L(k,i) = a. These are the right-looking updates of Featherstone's
 * LTDL in the same order per entry (so the same rounding), grouped by the row they update:
 * the row stays in registers across its updates and is stored once, where updating the rows
 * of one k in turn stores and reloads each (talos: gcc 1.00 -> 0.86 us, clang 1.19 -> 0.67).
 * A leaf row is M's own: it is read from d->M, never copied. */
/* Where row k's values are read while the factor is built: a leaf row is M's own. */
static const char *ltl_row_source(const kin_tree *t, int k)
{
    return dof_subtree_end(t, k) == k + 1 ? "d->M" : "d->L";
}

void emit_ltl_row_text(const kin_tree *t, int i, ebuf *out, const char *indent, expr_counts *c)
{
    int ii = emit_ltl_index(t, i, i), n = emit_dof_depth(t, i), end = dof_subtree_end(t, i), k, col;
    const int i0 = ii - (n - 1); /* row i: columns root .. i */
    row_comment_text(out, indent, t, i);
    for (k = end - 1; k > i; k--) {
        const int ki = emit_ltl_index(t, k, i), k0 = ki - (n - 1); /* row k's head */
        const char *from = k == end - 1 ? "d->M" : "d->L";
        const char *rowk = ltl_row_source(t, k);
        ebuf_printf(out, "%s{\n%s    const cdyn_real a = %s[%d] * d->Dinv[%d];\n", indent, indent,
                    rowk, ki, k);
        if (n >= AXPY_LOOP_MIN)
            ebuf_printf(out,
                        "%s    for (int c = 0; c < %d; ++c)\n%s        d->L[%d + c] = %s[%d + c] - "
                        "a * %s[%d + c];\n",
                        indent, n, indent, i0, from, i0, rowk, k0);
        else
            for (col = 0; col < n; col++)
                ebuf_printf(out, "%s    d->L[%d] = %s[%d] - a * %s[%d];\n", indent, i0 + col, from,
                            i0 + col, rowk, k0 + col);
        ebuf_printf(out, "%s    d->L[%d] = a;\n%s}\n", indent, ki, indent);
        c->mul += n + 1;
        c->add += n;
    }
    ebuf_printf(out, "%sd->D[%d] = d->L[%d] = %s[%d];\n%sd->Dinv[%d] = 1 / d->D[%d];\n", indent, i,
                ii, ltl_row_source(t, i), ii, indent, i, i);
    c->div++;
}

int emit_ltl_text(const kin_tree *t, ebuf *out, const char *indent, expr_counts *c)
{
    int i;
    if (!emit_ltl_in_place(t))
        return 1;
    memset(c, 0, sizeof *c);
    for (i = t->nv - 1; i >= 0; i--)
        emit_ltl_row_text(t, i, out, indent, c);
    return 0;
}

long emit_ltl_products(const kin_tree *t)
{
    long mul = 0;
    int k, i;
    for (k = 0; k < t->nv; k++)
        for (i = t->dof_parent[k]; i >= 0; i = t->dof_parent[i])
            mul += 1 + emit_dof_depth(t, i);
    return mul;
}

int emit_ltl_in_place(const kin_tree *t)
{
    return emit_ltl_products(t) > LTL_IN_PLACE_MIN_MUL;
}

int emit_minv_nsteps(const kin_tree *t)
{
    return 2 * t->nv + 1;
}

/* Y = L^-T into the upper triangle, rows from the leaves: Y(j, .) -= L(i, j) Y(i, .) for
 * the ancestors j of i, on i's descendants (Y(i, i) = 1 exactly). Y(j, i) gets its first
 * term from i itself, before any descendant of i reaches it: it is stored (-L(i, j), as
 * 0 - L(i, j) is exactly), so Y needs no zeros first, only its diagonal. */
static void minv_backward(const kin_tree *t, int step, ebuf *out, const char *indent,
                          expr_counts *c)
{
    int nv = t->nv, i, j;
    if (step == 0) {
        ebuf_printf(out, "%s/* Y = L^-T: its diagonal */\n", indent);
        for (j = 0; j < nv; j++)
            ebuf_printf(out, "%sMinv[%d] = 1;\n", indent, j * nv + j);
        return;
    }
    i = nv - step;
    if (t->dof_parent[i] < 0)
        return;
    row_comment_text(out, indent, t, i);
    for (j = t->dof_parent[i]; j >= 0; j = t->dof_parent[j]) {
        int end = dof_subtree_end(t, i);
        ebuf_printf(out, "%s{\n%s    const cdyn_real l = d->L[%d];\n", indent, indent,
                    emit_ltl_index(t, i, j));
        ebuf_printf(out, "%s    Minv[%d] = -l;\n", indent, j * nv + i);
        axpy_text(out, indent, "Minv", j * nv + i + 1, "l", "Minv", i * nv + i + 1, end - i - 1, c);
        ebuf_printf(out, "%s}\n", indent);
    }
}

/* Minv[i * nv + col + c] = the sum over the common ancestors j of i and column col + c
 * (from a up to the root, a itself included) of w_j Minv[j * nv + col + c], c = 0 .. n-1;
 * w_k belongs to i's k-th ancestor (w0 to i itself). One store per entry, the sum in
 * registers, four terms a line (a loop from AXPY_LOOP_MIN on). */
static void minv_sum_text(ebuf *out, const char *indent, const kin_tree *t, int i, int a, int col,
                          int n, expr_counts *c)
{
    int nv = t->nv, j, k, m, e, terms = emit_dof_depth(t, a);
    char at[16];
    if (n <= 0)
        return;
    for (e = 0; e < (n >= AXPY_LOOP_MIN ? 1 : n); e++) {
        if (n >= AXPY_LOOP_MIN) {
            ebuf_printf(out, "%s    for (int c = 0; c < %d; ++c)\n%s        Minv[%d + c] =", indent,
                        n, indent, i * nv + col);
            snprintf(at, sizeof at, "c");
        } else {
            ebuf_printf(out, "%s    Minv[%d] =", indent, i * nv + col + e);
            snprintf(at, sizeof at, "%d", e);
        }
        for (j = i, k = 0, m = 0; j >= 0; j = t->dof_parent[j], k++) {
            if (emit_dof_depth(t, j) > terms)
                continue; /* below a: Y(j, col + c) is zero */
            if (m > 0 && m % 4 == 0)
                ebuf_printf(out, "\n%s           ", indent);
            ebuf_printf(out, " %sw%d * Minv[%d + %s]", m > 0 ? "+ " : "", k, j * nv + col, at);
            m++;
        }
        ebuf_puts(out, ";\n");
    }
    c->mul += (long)n * terms;
    c->add += (long)n * (terms - 1);
}

/* X = Y^T D^-1 Y = M^-1 (M = L^T D L, Y = L^-T), upper triangle, rows from the leaves:
 * X(i, c) = sum over the common ancestors j of i and c of Y(j, i) D_j^-1 Y(j, c), since
 * Y(j, c) is zero unless j supports c. Rows j < i still hold Y when row i is written (and
 * row i reads only its own entry of itself), so the sum runs over the ancestors of
 * lca(i, c) alone, where the recursion from the root, X(i, c) = Y(i, c) / D_i - sum over
 * all of i's ancestors of L(i, j) X(j, c), reads every ancestor's finished row: talos'
 * X step takes 9,557 products instead of 11,424. */
static void minv_forward(const kin_tree *t, int i, ebuf *out, const char *indent, expr_counts *c)
{
    int nv = t->nv, j, k, end;
    row_comment_text(out, indent, t, i);
    ebuf_printf(out, "%s{\n%s    const cdyn_real w0 = d->Dinv[%d];\n", indent, indent, i);
    for (j = t->dof_parent[i], k = 1; j >= 0; j = t->dof_parent[j], k++) {
        ebuf_printf(out, "%s    const cdyn_real w%d = Minv[%d] * d->Dinv[%d];\n", indent, k,
                    j * nv + i, j);
        c->mul++;
    }
    end = dof_subtree_end(t, i);
    minv_sum_text(out, indent, t, i, i, i, end - i, c);
    for (j = t->dof_parent[i]; j >= 0; j = t->dof_parent[j]) {
        int j_end = dof_subtree_end(t, j);
        minv_sum_text(out, indent, t, i, j, end, j_end - end, c);
        end = j_end;
    }
    ebuf_printf(out, "%s}\n", indent);
    zeros_text(out, indent, "Minv", i * nv + end, nv - end); /* the other trees of a forest */
    if (i + 1 < nv) /* its mirror image, column i of the lower triangle, while it is hot */
        ebuf_printf(out,
                    "%sfor (int c = %d; c < %d; ++c)\n"
                    "%s    Minv[c * %d + %d] = Minv[%d + c];\n",
                    indent, i + 1, nv, indent, nv, i, i * nv);
}

void emit_minv_step(const kin_tree *t, int step, ebuf *out, const char *indent, expr_counts *c)
{
    int nv = t->nv;
    if (step <= nv)
        minv_backward(t, step, out, indent, c);
    else
        minv_forward(t, 2 * nv - step, out, indent, c);
}
