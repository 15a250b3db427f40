/* test_generic_constrained.h — what the two files of test_generic_constrained share: the
 * fixture (a model, a set and dense scratch) and the frame kinematics the checks are built
 * on. test_generic_constrained.c holds the dynamics checks, the sets and main;
 * test_generic_constrained_kinematics.c J and gamma against the frame Jacobians. */
#ifndef CDYN_TESTS_TEST_GENERIC_CONSTRAINED_H
#define CDYN_TESTS_TEST_GENERIC_CONSTRAINED_H

#include <check.h>
#include "cdyn.h"
#include "support/constraint_sets.h"
#include "support/rng.h"

#define MAXCON 4

/* ---- the fixture: a model, a set and dense scratch ---- */

typedef struct {
    const cdyn_model *m;
    const char *what;
    cdyn_constraint set[MAXCON + 2];
    int n, nc, nv, nq;
    cdyn_data d;
    cdyn_constraint_data cd;
    void *dbuf, *cbuf;
    double *q, *v, *tau, *ddq, *lambda, *x, *y, *J, *Jref, *M, *G, *H, *w;
} fixture;

void fixture_open(fixture *fx, const cdyn_model *m, const char *what, const cdyn_constraint *set,
                  int n);
void fixture_close(fixture *fx);

/* ---- test_generic_constrained_kinematics.c ---- */

/* y = R^T x. */
void rot_t_apply(double y[3], const double R[9], const double x[3]);
/* The world Jacobian (6 x nv, LOCAL_WORLD_ALIGNED) and placement of a frame at q. */
void frame_world(fixture *fx, const double *q, int f, double *J6, double R[9], double p[3]);
/* J and J a + gamma (a random) against the frame Jacobians and their time derivative. */
void check_kinematics(fixture *fx, xorshift64s *g, int state);

#endif
