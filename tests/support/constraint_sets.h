/* constraint_sets.h — what the generic constrained suites (test_generic_constrained,
 * test_generic_solvers) draw their cases from: constraint sets named on the sample robots,
 * random sets on any model, random states, and the solvers' settings. */
#ifndef CDYN_TESTS_CONSTRAINT_SETS_H
#define CDYN_TESTS_CONSTRAINT_SETS_H

#include "cdyn.h"
#include "rng.h"

#define SAMPLE_SET_MAX 6 /* constraints in a sample set at most */

/* A set on a sample robot: robots/<file>, its constraints by frame name (b NULL: to the
 * world). */
typedef struct {
    const char *file, *what;
    int floating, n;
    struct {
        const char *a, *b;
        int dim;
    } c[SAMPLE_SET_MAX];
} sample_set;

/* The set of s on m (m loaded from s->file) into set; returns s->n. */
int sample_set_constraints(const sample_set *s, const cdyn_model *m, cdyn_constraint *set);

/* 1 to max_n constraints on frames of moving bodies, 3d or 6d; with `loops`, a third of
 * them loops (to another frame, world-fixed ones included). Returns how many. */
int random_constraint_set(const cdyn_model *m, xorshift64s *g, int max_n, int loops,
                          cdyn_constraint *set);

/* A random state: q = neutral (+) a random step (in [-3, 3), left in step), v in [-1, 1),
 * tau in [-5, 5). */
void random_state(const cdyn_model *m, xorshift64s *g, double *q, double *v, double *tau,
                  double *step);

/* Settings with mu and a fixed number of iterations: no tolerances, gains or warm start. */
cdyn_prox_settings prox_settings(double mu, int iterations);

#endif
