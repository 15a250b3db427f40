/* test_generic_solvers.h — what the two files of test_generic_solvers share: the solvers
 * compared with cdyn_prox_ltl, the fixture (a model, a set, dense scratch), the sample
 * sets and the random seeds. test_generic_solvers.c holds the comparisons, the redundant
 * set, the refusals and main; test_generic_solvers_workspace.c the workspace checks. */
#ifndef CDYN_TESTS_TEST_GENERIC_SOLVERS_H
#define CDYN_TESTS_TEST_GENERIC_SOLVERS_H

#include <check.h>
#include <stddef.h>
#include "cdyn.h"
#include "support/constraint_sets.h"
#include "support/models.h"
#include "support/rng.h"

#define NSEEDS 40
#define MAXCON 4

typedef int (*solver_fn)(const cdyn_model *, cdyn_data *, cdyn_constraint_data *,
                         const cdyn_prox_settings *, const cdyn_real *, const cdyn_real *,
                         const cdyn_real *, cdyn_real *, cdyn_real *);

typedef struct {
    const char *name;
    solver_fn f;
    int loops;  /* accepts sets with loops */
    double tol; /* against prox_ltl after 3 iterations, well conditioned */
    double alm; /* the factor of its multiplier step's loss (tolerances()) */
} solver;

#define NSOLVERS 3
extern const solver solvers[NSOLVERS]; /* prox_pv, prox_ltls, constrained_aba */

/* ---- the fixture ---- */

typedef struct {
    const cdyn_model *m;
    const char *what;
    int sample; /* a sample robot (else a random one), for the figures */
    cdyn_constraint set[2 * MAXCON + 2];
    int n, nc, nv, nq, loops;
    cdyn_data d;
    cdyn_constraint_data cd;
    void *dbuf, *cbuf;
    size_t dbytes, cbytes;
    double *q, *v, *tau, *ddq0, *lam0, *ddq, *lam, *init, *M, *J, *G, *H, *nle, *gamma, *x, *y;
    double gmax, gmin; /* G's extreme eigenvalues (dense_terms), negative ones as 0 */
} fixture;

void fixture_open(fixture *fx, const cdyn_model *m, const char *what, int sample,
                  const cdyn_constraint *set, int n);
void fixture_close(fixture *fx);

/* ---- models and sets ---- */

extern const sample_set sample_sets[];
extern const int nsample_sets;

/* Seeds 0 .. NSEEDS-1, then the big ones (random_robot.h). */
unsigned seed_of(int i);

/* test_generic_solvers_workspace.c: its tests, added to tc in their place. */
void add_workspace_tests(TCase *tc);

#endif
