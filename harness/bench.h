/* bench.h — what the benchmark knows about each robot: the generated code's timed loops,
 * its generated_api (sizes, neutral, integrate, model table) and the emitted op counts. */
#ifndef CDYN_BENCH_H
#define CDYN_BENCH_H

#include "cdyn_config.h"
#include "generated_api.h"

#define BENCH_POOL 64 /* random states, cycled through by every timed loop */

/* The timed algorithms, in table order. */
typedef enum {
    BENCH_FK,
    BENCH_JACOBIAN,
    BENCH_RNEA,
    BENCH_NLE,
    BENCH_GRAVITY,
    BENCH_CRBA,
    BENCH_CRBA_TREE,
    BENCH_LTL,
    BENCH_MINV,
    BENCH_ABA,
    /* the analytical derivatives (all outputs of each), and the user's alternative to
     * aba_derivatives: dddq/dq by forward differences, nv + 1 calls of aba */
    BENCH_RNEA_DERIVATIVES,
    BENCH_ABA_DERIVATIVES,
    BENCH_ABA_FD,
    /* robots generated with constraints; constrained_aba and prox_pv for contact sets */
    BENCH_PROX_LTL,
    BENCH_PROX_LTLS,
    BENCH_CONSTRAINED_ABA,
    BENCH_PROX_PV,
    BENCH_DELASSUS,
    BENCH_DELASSUS_FACTORISED,
    BENCH_DELASSUS_ARTICULATED,
    BENCH_IMPULSE,
    /* contact sets: prox_ltl (three iterations) followed by its derivatives */
    BENCH_PROX_LTL_DERIVATIVES,
    /* any set: the projection onto the manifold (seed 003), one Gauss-Newton step of the
     * position and the velocity's projection, three proximal iterations each */
    BENCH_PROJECT_POSITION,
    BENCH_PROJECT_VELOCITY,
    /* robots generated with a contact step (NAME_contact_*), every contact of the set active */
    BENCH_CONTACT_PROBLEM,
    BENCH_ADMM,
    BENCH_PGS,
    BENCH_CONTACT_STEP,
    BENCH_NALGOS
} bench_algo;
#define BENCH_FIRST_CONSTRAINED BENCH_PROX_LTL
#define BENCH_FIRST_CONTACT BENCH_CONTACT_PROBLEM

/* The state pool: BENCH_POOL rows of nq (q) or nv (v, a, tau) values. */
typedef struct {
    const cdyn_real *q, *v, *a, *tau;
    int nq, nv;
    int frame;             /* the frame whose Jacobian and placement are timed */
    int nc;                /* constraint rows (0 without constraints) */
    void *constraint_data; /* the generic side's cdyn_constraint_data */
    /* the contact step's rows (robots with one): settings[0] ADMM, [1] PGS (BENCH_CONTACT_SETTINGS),
     * and the generic side's cdyn_contact_problem */
    const cdyn_contact_settings *contact_settings[2];
    void *contact_problem;
} bench_inputs;

/* The constrained solvers are timed with exactly three proximal iterations at mu = 1e-6,
 * from lambda = 0, as Pinocchio's harness does (ProximalSettings(0, 1e-6, 3)). */
#define BENCH_PROX_SETTINGS                                                                        \
    {                                                                                              \
        CDYN_R(1e-6), 3, CDYN_R(0), CDYN_R(0), 0, 0, 0                                             \
    }

/* The contact step's rows time a problem with every contact of the set active, whatever q:
 * settings.phi is a zero per constraint (normal NULL: the world z axis is each contact's
 * normal; the cost is the same for any normal), dt 1e-3, mu 0.8, the solver's tolerances 0
 * so that it runs exactly BENCH_CONTACT_ITER iterations from lambda = 0, as Pinocchio's peer
 * (pinocchio_admm: ADMMContactSolverTpl, 20 iterations, mu 0.8) does. */
#define BENCH_CONTACT_ITER 20

/* The projection's rows: exactly one Gauss-Newton step (tol 0, max_iter 1: it then reports
 * CDYN_E_NOT_CONVERGED, having evaluated the error twice) and three proximal iterations per
 * solve, against references captured at the next state of the pool (bench_prime). */
#define BENCH_PROJECT_SETTINGS                                                                     \
    {                                                                                              \
        CDYN_R(0), 1, CDYN_R(1e-9), 3                                                              \
    }

/* aba_fd's step: forward differences in the tangent space, column k of dddq/dq being
 * (aba(integrate(q, h u_k), v, tau) - aba(q, v, tau)) / h, h about the square root of the
 * scalar's epsilon. */
#if CDYN_SCALAR_FLOAT
#define BENCH_FD_STEP CDYN_R(3.5e-4)
#else
#define BENCH_FD_STEP CDYN_R(1.5e-8)
#endif

/* n calls of one algorithm on states cycled through the pool, outputs into out; returns
 * the sum of one output entry per call (so no call can be optimised away). d is the side's
 * workspace: a NAME_data, or a cdyn_data for the generic runtime. */
typedef cdyn_real (*bench_loop)(void *d, const bench_inputs *in, cdyn_real *out, long n);

/* Emitted operation counts from render_op_counts, written by bench_ops at build time. */
#define BENCH_MAX_COUNTS 32
typedef struct {
    const char *algorithm;
    long mul, add;
} bench_op_count;
typedef struct {
    const char *jacobian_frame; /* the frame whose Jacobian is timed and counted */
    int ncounts;
    bench_op_count counts[BENCH_MAX_COUNTS];
} bench_ops;

/* A robot generated with --batch W (NAME_batch.h), from bench_batch_adapter.c.in: its
 * NAME_batch_* forms timed as a third side, each call W states of the pool (BENCH_POOL / w
 * blocks of w consecutive states, packed as NAME_lanes: bench_inputs' q, v, a, tau then
 * point to lanes, not reals). A loop's out is a NAME_lanes array, except fk's, which writes
 * the timed frame's placement of each lane as 12 reals per lane (R, p), as the single form's
 * loop does for its one state. */
typedef struct {
    int w;                  /* NAME_BATCH_W: lanes per call */
    size_t data_size;       /* sizeof(NAME_batch_data) */
    size_t lane_bytes;      /* sizeof(NAME_lanes): the alignment of the workspace and arrays */
    void (*pack)(void *out, const cdyn_real *states, int n);   /* NAME_batch_pack */
    void (*unpack)(cdyn_real *states, const void *in, int n); /* NAME_batch_unpack */
    const bench_loop *loops; /* (BENCH_NALGOS) the batch forms' loops; NULL where none */
    /* crba_tree's lanes against the single form: NAME_batch_crba(d, block 0, NULL) and, per
     * lane l, NAME_crba(single, state l, NULL), compared on d->M (the tree pattern, which
     * neither writes elsewhere): max |lane - single| / (1 + max |single|), 1 if not finite */
    double (*tree_m_disagreement)(void *d, void *single, const bench_inputs *batch_in,
                                  const bench_inputs *in);
} bench_batch;

typedef struct {
    const generated_api *api;
    const bench_loop *loops; /* (BENCH_NALGOS) generated code, from bench_adapter.c.in */
    const bench_ops *ops;
    const char *urdf;       /* file name, for the report */
    const long *code_bytes; /* (BENCH_NALGOS) bytes of machine code, -1 unknown; or NULL */
    const bench_batch *batch; /* --batch: the batch forms; NULL without */
} bench_robot;

extern const bench_robot bench_robots[]; /* written by CMake; ends with a zeroed entry */

#endif
