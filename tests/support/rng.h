/* rng.h — the small PRNGs the tests draw from, independent of the code under test and of
 * each other: a seed fixes every number a test draws.
 *
 *  - splitmix64 (Steele, Lea, Flood, OOPSLA 2014): the random robots (random_robot_parts.c)
 *    and test_generic_invariants' states;
 *  - xorshift64* (Vigna 2016): the constrained suites' states and constraint sets;
 *  - xorshift32 (Marsaglia 2003): the generated-code suites' states. */
#ifndef CDYN_TESTS_RNG_H
#define CDYN_TESTS_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t state;
} splitmix64;

uint64_t splitmix64_next(splitmix64 *g);
/* Uniform in [0, 1) from the top 53 bits. */
double splitmix64_unit(splitmix64 *g);
/* Uniform in [lo, hi). */
double splitmix64_range(splitmix64 *g, double lo, double hi);

typedef struct {
    uint64_t s;
} xorshift64s;

/* Uniform in [lo, hi) from the top 53 bits. */
double xorshift64s_uniform(xorshift64s *g, double lo, double hi);
/* x[k] uniform in [-scale, scale), k < n. */
void xorshift64s_vector(xorshift64s *g, double *x, int n, double scale);

/* In [-1, 1), from a 32-bit state (nonzero). */
double xorshift32_signed(unsigned *s);
/* A state's draws, DoF after DoF: step in [-2, 2), v, tau and a in [-1, 1). */
void xorshift32_state(unsigned *s, int nv, double *step, double *v, double *tau, double *a);

#endif
