/* model_table.h — a kinematic tree as the generic runtime's cdyn_model table:
 * in memory (for tests and cross-checks) and as C source (emitted with the robot). */
#ifndef CDYNGEN_MODEL_TABLE_H
#define CDYNGEN_MODEL_TABLE_H

#include <stdio.h>
#include "model/tree.h"
#include "cdyn_model.h"

typedef struct {
    cdyn_model model; /* points into the arrays below */
    cdyn_body *bodies;
    cdyn_frame *frames;
    int *dof_parent, *dof_body;
} model_table;

/* Builds the table from the tree (heap-allocated, host side). Returns 0 or -1 (no memory). */
int model_table_from_tree(const kin_tree *t, model_table *out);
void model_table_free(model_table *mt);

/* Loads a URDF straight into a table: parse, tree, table. Returns 0, or -1 with err set. */
int model_table_load(const char *urdf_path, int floating_base, model_table *out, char *err,
                     size_t errlen);

#endif
