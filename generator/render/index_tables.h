/* index_tables.h — the index tables the generated loops walk (robot.c.tpl,
 * robot_constraints.c.tpl): the pairs of M's factor, J's pattern, and the runs of each row
 * of the derivatives. Internal to render/. */
#ifndef CDYNGEN_RENDER_INDEX_TABLES_H
#define CDYNGEN_RENDER_INDEX_TABLES_H

#include "model/tree.h"
#include "render/template.h"

/* Sets in ctx: ltl_rows/nltl_pairs, ltl_cols, ltl_row_first, ltl_col_first, ltl_column,
 * deriv_runs/nderiv_runs, subtree_end and, with constraints, con_pairs/ncon_pairs (each a C
 * initialiser list and its length). A NULL list (out of memory) is remembered by ctx and
 * fails the rendering. */
void index_tables_value(const kin_tree *t, tpl_value *ctx);

/* end[k]: one past the last DoF of DoF k's subtree (nv of them). Ancestors come first, so
 * k's branch (its ancestors, itself, its descendants: where row k of RNEA's derivatives, and
 * of L^-T times them, can be nonzero) lies before it: the first sweep of M^-1 skips the
 * columns after. */
void index_subtree_ends(const kin_tree *t, int *end);

#endif
