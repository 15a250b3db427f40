/* index_tables.c — the index tables the generated loops walk, as C initialisers: the loops
 * stay small (no per-robot unrolling of nv^2 entries) while the tables carry the tree. */
#include "render/index_tables.h"

#include <stdlib.h>

#include "model/constraints.h"
#include "util/ebuf.h"

/* ok 0: out of memory on the way, remembered by ctx as a NULL list. count_key NULL: a list
 * whose length the templates know (NV or NV + 1). */
static void set_list(tpl_value *ctx, const char *key, const char *count_key, ebuf *b, int n, int ok)
{
    char *s = ebuf_take(b);
    if (!ok) {
        free(s);
        s = NULL;
    }
    tpl_dict_set(ctx, key, s ? tpl_string_take(s) : NULL);
    if (count_key)
        tpl_dict_set(ctx, count_key, tpl_int(n));
}

/* The separator before the n-th initialiser of a list, per_line to a line. */
static const char *separator(int n, int per_line)
{
    return n % per_line ? ", " : n ? ",\n    " : "    ";
}

/* Each DoF's depth (itself and its ancestors) and the offset of its row in d->L (the depths
 * of the DoFs before it): emit_ltl_index(t, i, a) = off[i] + depth[a] - 1 for a an ancestor
 * of i, without walking the tree per pair (a 1024-DoF chain has half a million pairs). */
typedef struct {
    int *depth, *off;
} ltl_layout;

static int layout_open(const kin_tree *t, ltl_layout *l)
{
    int k, n = t->nv > 0 ? t->nv : 1;
    l->depth = malloc((size_t)n * sizeof *l->depth);
    l->off = malloc((size_t)n * sizeof *l->off);
    if (!l->depth || !l->off) {
        free(l->depth);
        free(l->off);
        return -1;
    }
    for (k = 0; k < t->nv; k++) {
        l->depth[k] = 1 + (t->dof_parent[k] >= 0 ? l->depth[t->dof_parent[k]] : 0);
        l->off[k] = k ? l->off[k - 1] + l->depth[k - 1] : 0;
    }
    return 0;
}

static void layout_close(ltl_layout *l)
{
    free(l->depth);
    free(l->off);
}

/* ltl_rows: the pairs (DoF, strict ancestor) of M's factor, as (other DoF's row offset in an
 * nv-column matrix, index of L(DoF, ancestor) in d->L), DoF by DoF (ancestors ascending);
 * ltl_cols the same ancestor by ancestor (descendants descending); ltl_row_first and
 * ltl_col_first their first rows per DoF (nv + 1 of each); nltl_pairs their count. M^-1's
 * sweeps over the rows of a matrix gather into one row at a time: L^-1 from its ancestors
 * (root first), L^-T from its descendants (leaves first). */
static void ltl_pairs_value(const kin_tree *t, const ltl_layout *l, tpl_value *ctx)
{
    ebuf rows = { 0, 0, 0, 0 }, cols = { 0, 0, 0, 0 };
    ebuf row_first = { 0, 0, 0, 0 }, col_first = { 0, 0, 0, 0 };
    const int nv = t->nv;
    int *count = calloc((size_t)nv + 1, sizeof *count), *chain = malloc(((size_t)nv + 1) * sizeof *chain);
    int *col_i = NULL, i, a, k, n = 0, total = 0, ok = 1;
    ebuf_puts(&rows, "");
    ebuf_puts(&cols, "");
    ebuf_puts(&row_first, "");
    ebuf_puts(&col_first, "");
    for (i = 0; i < nv; i++)
        total += l->depth[i] - 1;
    col_i = malloc(((size_t)total + 1) * sizeof *col_i);
    if (!count || !chain || !col_i) {
        ok = 0;
        goto done;
    }
    for (i = 0; i < nv; i++) {
        ebuf_printf(&row_first, "%s%d", separator(i, 16), n);
        for (k = 0, a = t->dof_parent[i]; a >= 0; a = t->dof_parent[a])
            chain[k++] = a;
        while (k-- > 0) {
            ebuf_printf(&rows, "%s{ %d, %d }", separator(n++, 8), chain[k] * nv,
                        l->off[i] + l->depth[chain[k]] - 1);
            count[chain[k] + 1]++;
        }
    }
    ebuf_printf(&row_first, "%s%d", separator(nv, 16), n);
    for (a = 0; a < nv; a++) { /* count[a] becomes the first of a's descendants */
        count[a + 1] += count[a];
        ebuf_printf(&col_first, "%s%d", separator(a, 16), count[a]);
    }
    ebuf_printf(&col_first, "%s%d", separator(nv, 16), n);
    for (i = nv - 1; i >= 0; i--) /* descendants descending, per ancestor */
        for (a = t->dof_parent[i]; a >= 0; a = t->dof_parent[a])
            col_i[count[a]++] = i;
    for (a = 0, k = 0; a < nv; a++)
        for (; k < count[a]; k++)
            ebuf_printf(&cols, "%s{ %d, %d }", separator(k, 8), col_i[k] * nv,
                        l->off[col_i[k]] + l->depth[a] - 1);
done:
    free(count);
    free(chain);
    free(col_i);
    set_list(ctx, "ltl_rows", "nltl_pairs", &rows, n, ok);
    set_list(ctx, "ltl_cols", NULL, &cols, n, ok);
    set_list(ctx, "ltl_row_first", NULL, &row_first, nv + 1, ok);
    set_list(ctx, "ltl_col_first", NULL, &col_first, nv + 1, ok);
}

/* ltl_column: the column of each entry of d->L, DoF by DoF: its ancestors (root first), then
 * the DoF itself (where d->L holds D): NAME_ltl_factor copies the compact factor into a dense
 * L by it, a loop where straight-line copies of nv^2 entries took gcc 5 s on an 80-DoF tree. */
static void ltl_column_value(const kin_tree *t, tpl_value *ctx)
{
    ebuf b = { 0, 0, 0, 0 };
    int *chain = malloc(((size_t)t->nv + 1) * sizeof *chain);
    int i, a, k, n = 0;
    ebuf_puts(&b, "");
    for (i = 0; chain && i < t->nv; i++) {
        for (k = 0, a = i; a >= 0; a = t->dof_parent[a])
            chain[k++] = a;
        while (k-- > 0)
            ebuf_printf(&b, "%s%d", separator(n++, 16), chain[k]);
    }
    if (n == 0)
        ebuf_puts(&b, "    0"); /* an array of one, NAME_NNZ being 0 */
    set_list(ctx, "ltl_column", NULL, &b, n, chain != NULL);
    free(chain);
}

void index_subtree_ends(const kin_tree *t, int *end)
{
    int k;
    for (k = 0; k < t->nv; k++)
        end[k] = k + 1;
    for (k = t->nv - 1; k >= 0; k--) /* children come after their parents */
        if (t->dof_parent[k] >= 0 && end[k] > end[t->dof_parent[k]])
            end[t->dof_parent[k]] = end[k];
}

/* Row i of RNEA's derivatives, column by column (kind[j]): 0 not computed (a structural
 * zero); 1 from i's composite terms and j's motion changes (j an ancestor of i, i itself, or
 * on i's joint); 2 from i's axis and j's force changes (j a descendant on another body). */
static void row_kinds(const kin_tree *t, int i, const int *end, int *kind)
{
    int j;
    for (j = 0; j < t->nv; j++)
        kind[j] = 0;
    for (j = i; j >= 0; j = t->dof_parent[j])
        kind[j] = 1;
    for (j = i + 1; j < end[i]; j++) /* a descendant: its parent is i or a descendant */
        if (t->dof_parent[j] >= 0 && (t->dof_parent[j] == i || kind[t->dof_parent[j]] == 2))
            kind[j] = 2;
    for (j = i + 1; j < end[i]; j++)
        if (kind[j] == 2 && t->dof_body[j] == t->dof_body[i])
            kind[j] = 1;
}

/* deriv_runs: (row, first column, length, kind) of each run of consecutive columns one row of
 * RNEA's derivatives computes one way (row_kinds), rows ascending; nderiv_runs their count.
 * A row has a few runs: its ancestors' joints, its subtree. subtree_end: index_subtree_ends. */
static void deriv_runs_value(const kin_tree *t, tpl_value *ctx)
{
    ebuf b = { 0, 0, 0, 0 }, ends = { 0, 0, 0, 0 };
    const size_t n1 = t->nv > 0 ? (size_t)t->nv : 1;
    int *end = malloc(n1 * sizeof *end), *kind = malloc(n1 * sizeof *kind);
    int i, j, n = 0, ok = end && kind;
    ebuf_puts(&b, "");
    ebuf_puts(&ends, "");
    if (!ok)
        goto done;
    index_subtree_ends(t, end);
    for (i = 0; i < t->nv; i++) {
        ebuf_printf(&ends, "%s%d", separator(i, 16), end[i]);
        row_kinds(t, i, end, kind);
        for (j = 0; j < t->nv;) {
            int e = j + 1;
            while (e < t->nv && kind[e] == kind[j])
                e++;
            if (kind[j])
                ebuf_printf(&b, "%s{ %d, %d, %d, %d }", separator(n++, 5), i, j, e - j, kind[j]);
            j = e;
        }
    }
done:
    free(end);
    free(kind);
    set_list(ctx, "deriv_runs", "nderiv_runs", &b, n, ok);
    set_list(ctx, "subtree_end", NULL, &ends, t->nv, ok);
}

/* con_pairs: the (row r, DoF j on its constraint's support, index of J(r, j) and B(j, r) in
 * the compact d->Jc and d->B) triples, rows ascending; ncon_pairs their count:
 * R_prox_ltl_derivatives' products with B and B^T, by whole rows. */
static void con_pairs_value(const kin_tree *t, tpl_value *ctx)
{
    ebuf b = { 0, 0, 0, 0 };
    int k, r, j, n = 0;
    ebuf_puts(&b, "");
    for (k = 0; k < t->nconstraints; k++) {
        const tree_constraint *c = &t->constraints[k];
        for (r = c->row; r < c->row + c->dim; r++)
            for (j = 0; j < c->nsupport; j++) {
                ebuf_printf(&b, "%s{ %d, %d, %d }", separator(n, 6), r, c->support[j],
                            tree_constraint_index(t, r, c->support[j]));
                n++;
            }
    }
    set_list(ctx, "con_pairs", "ncon_pairs", &b, n, 1);
}

/* kkt_pairs: the (row i, column j < i) entries of G + mu I's factor on its fill pattern
 * (d->Gl[i NC + j]), rows ascending and each row's columns ascending; kkt_row_first: row i's
 * are [first[i], first[i + 1]); nkkt_pairs their count: R_prox_ltl_derivatives' solves with
 * G + mu I by whole rows, in R__kkt_solve's order. */
static void kkt_pairs_value(const kin_tree *t, tpl_value *ctx)
{
    ebuf b = { 0, 0, 0, 0 }, f = { 0, 0, 0, 0 };
    unsigned char *pat = calloc((size_t)(t->nc > 0 ? t->nc * t->nc : 1), 1);
    int i, j, n = 0, ok = pat && tree_constraint_factor_pattern(t, pat) >= 0;
    ebuf_puts(&b, "");
    ebuf_puts(&f, "");
    for (i = 0; ok && i < t->nc; i++) {
        ebuf_printf(&f, "%s%d", separator(i, 16), n);
        for (j = 0; j < i; j++)
            if (pat[i * t->nc + j]) {
                ebuf_printf(&b, "%s{ %d, %d }", separator(n, 8), i, j);
                n++;
            }
    }
    ebuf_printf(&f, "%s%d", separator(t->nc, 16), n);
    free(pat);
    set_list(ctx, "kkt_pairs", "nkkt_pairs", &b, n, ok);
    set_list(ctx, "kkt_row_first", NULL, &f, t->nc + 1, ok);
}

void index_tables_value(const kin_tree *t, tpl_value *ctx)
{
    ltl_layout l;
    if (layout_open(t, &l) != 0) {
        tpl_dict_set(ctx, "ltl_rows", NULL);
        return;
    }
    ltl_pairs_value(t, &l, ctx);
    layout_close(&l);
    ltl_column_value(t, ctx);
    deriv_runs_value(t, ctx);
    if (t->nconstraints > 0) {
        con_pairs_value(t, ctx);
        kkt_pairs_value(t, ctx);
    }
}
