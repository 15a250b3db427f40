/* index_tables.c — the index tables the generated loops walk, as C initialisers: the loops
 * stay small (no per-robot unrolling of nv^2 entries) while the tables carry the tree. */
#include "render/index_tables.h"

#include <stdlib.h>

#include "emit/emit.h"
#include "model/constraints.h"
#include "util/ebuf.h"

static void set_list(tpl_value *ctx, const char *key, const char *count_key, ebuf *b, int n)
{
    char *s = ebuf_take(b);
    tpl_dict_set(ctx, key, s ? tpl_string_take(s) : NULL);
    tpl_dict_set(ctx, count_key, tpl_int(n));
}

/* The separator before the n-th initialiser of a list, per_line to a line. */
static const char *separator(int n, int per_line)
{
    return n % per_line ? ", " : n ? ",\n    " : "    ";
}

/* 1 when DoF a is DoF i or one of its ancestors. */
static int ancestor_or_self(const kin_tree *t, int i, int a)
{
    return a <= i && emit_ltl_index(t, i, a) >= 0;
}

/* The pairs (DoF, strict ancestor) of M's factor, as (other DoF's row offset in an nv-column
 * matrix, index of L(DoF, ancestor) in d->L) rows: ltl_rows DoF by DoF (ancestors ascending), ltl_cols ancestor by ancestor
 * (descendants descending), with ltl_row_first and ltl_col_first their first rows per DoF
 * (nv + 1 of each); nltl_pairs their count. M^-1's sweeps over the rows of a matrix gather
 * into one row at a time: L^-1 from its ancestors (root first), L^-T from its descendants
 * (leaves first). */
static void ltl_pairs_value(const kin_tree *t, tpl_value *ctx)
{
    ebuf rows = { 0, 0, 0, 0 }, cols = { 0, 0, 0, 0 };
    ebuf row_first = { 0, 0, 0, 0 }, col_first = { 0, 0, 0, 0 };
    int i, a, n = 0, m = 0;
    ebuf_puts(&rows, "");
    ebuf_puts(&cols, "");
    ebuf_puts(&row_first, "");
    ebuf_puts(&col_first, "");
    for (i = 0; i <= t->nv; i++) {
        ebuf_printf(&row_first, "%s%d", separator(i, 16), n);
        ebuf_printf(&col_first, "%s%d", separator(i, 16), m);
        if (i == t->nv)
            break;
        for (a = 0; a < i; a++)
            if (emit_ltl_index(t, i, a) >= 0)
                ebuf_printf(&rows, "%s{ %d, %d }", separator(n++, 8), a * t->nv,
                            emit_ltl_index(t, i, a));
        for (a = t->nv - 1; a > i; a--)
            if (emit_ltl_index(t, a, i) >= 0)
                ebuf_printf(&cols, "%s{ %d, %d }", separator(m++, 8), a * t->nv,
                            emit_ltl_index(t, a, i));
    }
    set_list(ctx, "ltl_rows", "nltl_pairs", &rows, n);
    set_list(ctx, "ltl_cols", "nltl_cols", &cols, m);
    set_list(ctx, "ltl_row_first", "nltl_row_first", &row_first, t->nv + 1);
    set_list(ctx, "ltl_col_first", "nltl_col_first", &col_first, t->nv + 1);
}

/* How row i of RNEA's derivatives computes column j (robot.c.tpl): 0 not at all (a structural
 * zero), 1 from i's composite terms and j's motion changes (j an ancestor of i, i itself, or
 * on i's joint), 2 from i's axis and j's force changes (j a descendant on another body). */
static int entry_kind(const kin_tree *t, int i, int j)
{
    if (ancestor_or_self(t, i, j) || t->dof_body[i] == t->dof_body[j])
        return 1;
    return ancestor_or_self(t, j, i) ? 2 : 0;
}

/* deriv_runs: (row, first column, length, kind) of each run of consecutive columns one row of
 * RNEA's derivatives computes one way (entry_kind), rows ascending; nderiv_runs their count.
 * In depth-first order a row has a few runs: its ancestors' joints, its subtree. */
static void deriv_runs_value(const kin_tree *t, tpl_value *ctx)
{
    ebuf b = { 0, 0, 0, 0 };
    int i, j, n = 0;
    ebuf_puts(&b, "");
    for (i = 0; i < t->nv; i++)
        for (j = 0; j < t->nv;) {
            const int kind = entry_kind(t, i, j);
            int e = j + 1;
            while (e < t->nv && entry_kind(t, i, e) == kind)
                e++;
            if (kind)
                ebuf_printf(&b, "%s{ %d, %d, %d, %d }", separator(n++, 5), i, j, e - j, kind);
            j = e;
        }
    set_list(ctx, "deriv_runs", "nderiv_runs", &b, n);
}

int index_subtree_end(const kin_tree *t, int k)
{
    int j, end = k + 1;
    for (j = k + 1; j < t->nv; j++)
        if (entry_kind(t, k, j) != 0)
            end = j + 1;
    return end;
}

/* subtree_end: index_subtree_end DoF by DoF. */
static void subtree_end_value(const kin_tree *t, tpl_value *ctx)
{
    ebuf b = { 0, 0, 0, 0 };
    int i;
    ebuf_puts(&b, "");
    for (i = 0; i < t->nv; i++)
        ebuf_printf(&b, "%s%d", separator(i, 16), index_subtree_end(t, i));
    set_list(ctx, "subtree_end", "nsubtree_end", &b, t->nv);
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
    set_list(ctx, "con_pairs", "ncon_pairs", &b, n);
}

void index_tables_value(const kin_tree *t, tpl_value *ctx)
{
    ltl_pairs_value(t, ctx);
    deriv_runs_value(t, ctx);
    subtree_end_value(t, ctx);
    if (t->nconstraints > 0)
        con_pairs_value(t, ctx);
}
