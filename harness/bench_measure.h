/* bench_measure.h — one robot on both sides (bench_measure.c): its random states and the
 * two workspaces, the check that both sides compute the same, and the timing of
 * alternating batches. The generic runtime's timed loops are there too; the generated
 * code's are bench_adapter.c.in's. */
#ifndef CDYN_BENCH_MEASURE_H
#define CDYN_BENCH_MEASURE_H

#include "bench.h"
#include "bench_report.h"
#include "cdyn.h"

/* One robot's inputs and both sides' workspaces. */
typedef struct {
    const bench_robot *robot;
    const cdyn_model *model;
    bench_inputs in;            /* points into pool */
    cdyn_real *pool;            /* one block for the arrays below */
    cdyn_real *q, *v, *a, *tau; /* (BENCH_POOL x nq or nv) the states */
    cdyn_real *neutral, *step;  /* (nq), (nv) scratch for drawing q */
    void *data[3];              /* per side: the NAME_data, the cdyn_data, NAME_batch_data */
    cdyn_data generic;
    void *generic_buf;
    cdyn_constraint_data constraints; /* the generic side's, when the robot has a set */
    void *constraint_buf;
    /* the contact step's rows (bench_has_contact_step): ADMM and PGS settings, the zero phi
     * of every constraint, the generic side's problem and its layout */
    cdyn_contact_settings contact_settings[2];
    cdyn_real *contact_phi;
    int *contact_dims; /* (2 n) dims, then friction flags */
    cdyn_contact_layout contact_layout;
    cdyn_contact_problem contact_problem;
    void *contact_buf;
    cdyn_real *out[3]; /* per side: room for the largest output (lanes for the batch side) */
    /* --batch (robot->batch): the pool packed in blocks of W states (bench.h), aligned */
    bench_inputs batch_in;
    void *batch_pool;
} bench_ctx;

/* Every timed call's checksum adds up here, printed at the end so no call is optimised
 * away. */
extern volatile cdyn_real bench_sink;

/* The index of name in names[n], or -1 (algorithm, side and frame names). */
int bench_find_index(const char *const *names, int n, const char *name);

/* Both sides' workspaces and the robot's BENCH_POOL random states; 0, or -1 (memory, the
 * model, or a Jacobian frame the model table does not name alike) with nothing held. */
int bench_ctx_init(bench_ctx *c, const bench_robot *r);
void bench_ctx_free(bench_ctx *c);
/* 1 when the robot has a contact step and its set a frictional contact: the contact
 * step's rows are timed for it. */
int bench_has_contact_step(const generated_api *api);
/* ltl factors the M of the last crba: computed (untimed) at one pool state. */
void bench_prime_ltl(bench_ctx *c, int side, int state);
/* admm and pgs solve the side's contact problem built (untimed) at one pool state. */
void bench_prime_contact(bench_ctx *c, int side, int state);
/* Before each batch of algo: the primes above where algo needs one. */
void bench_prime(bench_ctx *c, int side, int algo, int state);
/* The side's timed loop of algo. */
bench_loop bench_loop_of(const bench_ctx *c, int side, int algo);
/* Both sides on state 0: max |generated - generic| / (1 + max |generic|). */
double bench_disagreement(bench_ctx *c, int algo);
/* 1 when the robot has a batch form of algo (--batch): it is timed as a third side. */
int bench_has_batch(const bench_ctx *c, int algo);
/* The batch form on the pool's first block against the single-state generated form on each
 * of its W states: max |batch - single| / (1 + max |single|); 1 when a lane is not finite. */
double bench_batch_disagreement(bench_ctx *c, int algo);
/* Microseconds per call of each side: a warm-up batch each, then `batches` batches of
 * `calls` calls, the sides alternating; 0, or -1 out of memory. With a batch form
 * (bench_has_batch) t[BATCH] too, in microseconds per state (per call / W), the three
 * sides rotating; t then has three entries. */
int bench_measure(bench_ctx *c, int algo, long batches, long calls, bench_time *t);

#endif
