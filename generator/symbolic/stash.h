/* stash.h — values handed from one generated function to a later one through a workspace
 * array of R_data.
 *
 * An iterative solver emits a set-up function (factorisations, transforms) and a cheaper
 * function run once per iteration that reuses its results. Both are built from the same
 * symbolic passes: the set-up program stashes each value (a store into d->ARRAY[n]), the
 * iteration program makes the same calls in the same order and gets loads of the same
 * slots back. Exact constants are never stashed, so every zero and one still folds in the
 * later function. */
#ifndef CDYNGEN_STASH_H
#define CDYNGEN_STASH_H

#include "symbolic/symspatial.h"

typedef struct stash {
    expr_prog *p;
    const char *array; /* the R_data field, e.g. "caba" */
    int load;          /* 0: store the values (set-up); 1: load them (iteration) */
    int n;             /* slots used so far: the array's size once every call is made */
} stash;

stash stash_begin(expr_prog *p, const char *array, int load);
ex stash_ex(stash *s, ex e);
smot stash_smot(stash *s, smot m);
splace stash_splace(stash *s, splace x);

#endif
