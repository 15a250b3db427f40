/* bench_measure.c — one robot on both sides: the generic runtime's timed loops (the
 * generated code's are bench_adapter.c.in's), the random states and the two workspaces,
 * the check that both sides agree, and the timing (bench.c says how and why). */
#define _POSIX_C_SOURCE 200112L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_loops.h"
#include "bench_measure.h"

/* ---- the generic side's loops (the generated side's are in bench_adapter.c.in) ---- */

#define MODEL(d) (((cdyn_data *)(d))->model)

static cdyn_real generic_fk(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(
        (cdyn_fk(MODEL(d), d, BENCH_Q), cdyn_frame_placement(MODEL(d), d, in->frame, out, out + 9)),
        BENCH_FK_OUT);
}

static cdyn_real generic_jacobian(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(cdyn_frame_jacobian(MODEL(d), d, BENCH_Q, in->frame, CDYN_LOCAL, out),
                BENCH_JACOBIAN_OUT);
}

static cdyn_real generic_rnea(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(cdyn_rnea(MODEL(d), d, BENCH_Q, BENCH_V, BENCH_A, out), BENCH_VECTOR_OUT);
}

static cdyn_real generic_nle(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(cdyn_nle(MODEL(d), d, BENCH_Q, BENCH_V, out), BENCH_VECTOR_OUT);
}

static cdyn_real generic_gravity(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(cdyn_gravity(MODEL(d), d, BENCH_Q, out), BENCH_VECTOR_OUT);
}

static cdyn_real generic_crba(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(cdyn_crba(MODEL(d), d, BENCH_Q, out), BENCH_MATRIX_OUT);
}

/* M NULL: d's copy of M alone (the checksum reads it there). */
static cdyn_real generic_crba_tree(void *d, const bench_inputs *in, cdyn_real *unused, long n)
{
    const cdyn_real *out = ((cdyn_data *)d)->M;
    (void)unused;
    BENCH_CALLS(cdyn_crba(MODEL(d), d, BENCH_Q, NULL), BENCH_MATRIX_OUT);
}

static cdyn_real generic_ltl(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    (void)in;
    BENCH_CALLS((void)s; out[0] = (cdyn_real)cdyn_ltl(MODEL(d), d), BENCH_LTL_OUT);
}

static cdyn_real generic_minv(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(cdyn_minv(MODEL(d), d, BENCH_Q, out), BENCH_MATRIX_OUT);
}

static cdyn_real generic_aba(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(cdyn_aba(MODEL(d), d, BENCH_Q, BENCH_V, BENCH_TAU, out), BENCH_VECTOR_OUT);
}

static cdyn_real generic_rnea_derivatives(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    const long len = BENCH_MATRIX_OUT;
    BENCH_CALLS(out[2 * len] = (cdyn_real)cdyn_rnea_derivatives(MODEL(d), d, BENCH_Q, BENCH_V,
                                                                 BENCH_A, out, out + len),
                BENCH_RNEA_DERIVATIVES_OUT);
}

static cdyn_real generic_aba_derivatives(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    const long len = BENCH_MATRIX_OUT;
    BENCH_CALLS(out[3 * len] = (cdyn_real)cdyn_aba_derivatives(MODEL(d), d, BENCH_Q, BENCH_V,
                                                                BENCH_TAU, out, out + len,
                                                                out + 2 * len),
                BENCH_ABA_DERIVATIVES_OUT);
}

/* nv + 1 calls of the generic ABA (bench_loops.h) */
#define FD_INTEGRATE(QK) cdyn_integrate(MODEL(d), BENCH_Q, u, CDYN_R(1), QK)
#define FD_ABA(Q, DDQ) cdyn_aba(MODEL(d), d, Q, BENCH_V, BENCH_TAU, DDQ)
static cdyn_real generic_aba_fd(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(BENCH_ABA_FD(FD_INTEGRATE, FD_ABA), BENCH_ABA_FD_OUT);
}

#define CDATA ((cdyn_constraint_data *)in->constraint_data)
static const cdyn_prox_settings prox3 = BENCH_PROX_SETTINGS;

static cdyn_real generic_prox_ltl(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(
        cdyn_prox_ltl(MODEL(d), d, CDATA, &prox3, BENCH_Q, BENCH_V, BENCH_TAU, out, out + in->nv),
        BENCH_SOLVE_OUT);
}

static cdyn_real generic_prox_ltls(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(
        cdyn_prox_ltls(MODEL(d), d, CDATA, &prox3, BENCH_Q, BENCH_V, BENCH_TAU, out, out + in->nv),
        BENCH_SOLVE_OUT);
}

static cdyn_real generic_constrained_aba(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(cdyn_constrained_aba(MODEL(d), d, CDATA, &prox3, BENCH_Q, BENCH_V, BENCH_TAU, out,
                                     out + in->nv),
                BENCH_SOLVE_OUT);
}

static cdyn_real generic_prox_pv(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(
        cdyn_prox_pv(MODEL(d), d, CDATA, &prox3, BENCH_Q, BENCH_V, BENCH_TAU, out, out + in->nv),
        BENCH_SOLVE_OUT);
}

static cdyn_real generic_delassus(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(cdyn_delassus(MODEL(d), d, CDATA, BENCH_Q, prox3.mu, out), BENCH_DELASSUS_OUT);
}

static cdyn_real generic_impulse(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(
        cdyn_impulse(MODEL(d), d, CDATA, &prox3, BENCH_Q, BENCH_V, CDYN_R(0.5), out, out + in->nv),
        BENCH_SOLVE_OUT);
}

/* prox_ltl (three iterations) then its derivatives, laid out as the generated side's. */
static cdyn_real generic_prox_ltl_derivatives(void *d, const bench_inputs *in, cdyn_real *out,
                                              long n)
{
    const long nv = in->nv, nc = in->nc, mm = nv * nv, cm = nc * nv;
    cdyn_real *x = out + nv + nc;
    BENCH_CALLS(((void)cdyn_prox_ltl(MODEL(d), d, CDATA, &prox3, BENCH_Q, BENCH_V, BENCH_TAU, out,
                                     out + nv),
                 out[BENCH_PROX_DERIVATIVES_OUT] = (cdyn_real)cdyn_prox_ltl_derivatives(
                     MODEL(d), d, CDATA, &prox3, BENCH_Q, BENCH_V, out, out + nv, x, x + mm,
                     x + 2 * mm, x + 3 * mm, x + 3 * mm + cm, x + 3 * mm + 2 * cm)),
                BENCH_PROX_DERIVATIVES_OUT);
}

static const cdyn_project_settings project1 = BENCH_PROJECT_SETTINGS;

static cdyn_real generic_project_position(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS((void)cdyn_project_position(MODEL(d), d, CDATA, &project1, BENCH_Q, out),
                BENCH_PROJECT_POSITION_OUT);
}

static cdyn_real generic_project_velocity(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS((void)cdyn_project_velocity(MODEL(d), d, CDATA, &project1, BENCH_Q, BENCH_V, out),
                BENCH_VECTOR_OUT);
}

/* The contact step's rows (bench.h); the problem and lambda stay in P, read there. */
#define PROBLEM ((cdyn_contact_problem *)in->contact_problem)

static cdyn_real generic_contact_problem(void *d, const bench_inputs *in, cdyn_real *unused, long n)
{
    const cdyn_real *out = PROBLEM->G;
    (void)unused;
    BENCH_CALLS((void)cdyn_contact_problem_build(MODEL(d), d, CDATA, PROBLEM,
                                                 in->contact_settings[0], BENCH_Q, BENCH_V,
                                                 BENCH_TAU),
                BENCH_CONTACT_G_OUT);
}

static cdyn_real generic_contact_solve(const bench_inputs *in, int solver, long n)
{
    const cdyn_real *out = PROBLEM->lambda;
    BENCH_CALLS((void)s; (void)cdyn_contact_solve(PROBLEM, in->contact_settings[solver]),
                BENCH_CONTACT_LAMBDA_OUT);
}

static cdyn_real generic_admm(void *d, const bench_inputs *in, cdyn_real *unused, long n)
{
    (void)d;
    (void)unused;
    return generic_contact_solve(in, 0, n);
}

static cdyn_real generic_pgs(void *d, const bench_inputs *in, cdyn_real *unused, long n)
{
    (void)d;
    (void)unused;
    return generic_contact_solve(in, 1, n);
}

static cdyn_real generic_contact_step(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS((void)cdyn_contact_step(MODEL(d), d, CDATA, PROBLEM, in->contact_settings[0],
                                        BENCH_Q, BENCH_V, BENCH_TAU, out, out + in->nq),
                BENCH_STEP_OUT);
}

static const bench_loop generic_loops[BENCH_NALGOS] = {
    generic_fk,
    generic_jacobian,
    generic_rnea,
    generic_nle,
    generic_gravity,
    generic_crba,
    generic_crba_tree,
    generic_ltl,
    generic_minv,
    generic_aba,
    generic_rnea_derivatives,
    generic_aba_derivatives,
    generic_aba_fd,
    generic_prox_ltl,
    generic_prox_ltls,
    generic_constrained_aba,
    generic_prox_pv,
    generic_delassus,
    generic_delassus,
    generic_delassus, /* the generic runtime has one route */
    generic_impulse,
    generic_prox_ltl_derivatives,
    generic_project_position,
    generic_project_velocity,
    generic_contact_problem,
    generic_admm,
    generic_pgs,
    generic_contact_step
};

/* ---- one robot's inputs and workspaces ---- */

int bench_find_index(const char *const *names, int n, const char *name)
{
    int i;
    for (i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

/* splitmix64: a fixed, portable stream, so every run draws the same states. */
static double uniform(unsigned long long *state, double lo, double hi)
{
    unsigned long long z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

/* q = integrate(neutral, u) with u uniform in [-pi, pi]^nv; v, a, tau uniform in [-1, 1].
 * Seeded per robot: its states do not depend on which other robots run. */
static void draw_states(bench_ctx *c)
{
    const int nq = c->in.nq, nv = c->in.nv;
    unsigned long long rng = 20240607u;
    int s, k;
    c->robot->api->neutral(c->neutral);
    for (s = 0; s < BENCH_POOL; s++) {
        for (k = 0; k < nv; k++)
            c->step[k] = (cdyn_real)uniform(&rng, -3.141592653589793, 3.141592653589793);
        c->robot->api->integrate(c->neutral, c->step, 1, c->q + s * nq);
        for (k = 0; k < nv; k++) {
            c->v[s * nv + k] = (cdyn_real)uniform(&rng, -1, 1);
            c->a[s * nv + k] = (cdyn_real)uniform(&rng, -1, 1);
            c->tau[s * nv + k] = (cdyn_real)uniform(&rng, -1, 1);
        }
    }
}

/* The frame's id, the same in the generated code and the model table; -1 if not. */
static int frame_id(const bench_robot *r, const cdyn_model *m)
{
    const char *name = r->ops->jacobian_frame;
    int f = bench_find_index(r->api->frame_names, r->api->nframes, name);
    return f >= 0 && f < m->nframes && strcmp(m->frames[f].name, name) == 0 ? f : -1;
}

int bench_has_contact_step(const generated_api *api)
{
    const cdyn_constraint *set = api->constraints;
    int k;
    for (k = 0; api->contact_step && set && k < api->nconstraints; k++)
        if (set[k].friction)
            return 1;
    return 0;
}

/* The contact step's settings (bench.h), the generic side's problem for the robot's set and
 * joint limits; 0, or -1. */
static int contact_init(bench_ctx *c)
{
    const generated_api *api = c->robot->api;
    const cdyn_constraint *set = api->constraints;
    const cdyn_contact_settings defaults = CDYN_CONTACT_SETTINGS_DEFAULT;
    const int n = api->nconstraints;
    size_t bytes;
    int k;
    c->contact_phi = calloc((size_t)n, sizeof *c->contact_phi);
    c->contact_dims = malloc(2 * (size_t)n * sizeof *c->contact_dims);
    if (!c->contact_phi || !c->contact_dims)
        return -1;
    for (k = 0; k < n; k++) {
        c->contact_dims[k] = set[k].dim;
        c->contact_dims[n + k] = set[k].friction;
    }
    c->contact_layout.n = n;
    c->contact_layout.dims = c->contact_dims;
    c->contact_layout.friction = c->contact_dims + n;
    c->contact_layout.nlimits = api->njoint_limits;
    c->contact_layout.limits = api->joint_limits;
    c->contact_layout.nv = api->nv;
    for (k = 0; k < 2; k++) {
        cdyn_contact_settings *s = &c->contact_settings[k];
        *s = defaults;
        s->normal = NULL; /* the world z axis */
        s->phi = c->contact_phi; /* every contact at the surface: active */
        s->solver = k == 0 ? CDYN_CONTACT_ADMM : CDYN_CONTACT_PGS;
        s->cone.max_iter = BENCH_CONTACT_ITER;
        s->cone.abs_tol = 0;
        s->cone.rel_tol = 0;
        s->cone.warm_start = 0;
        c->in.contact_settings[k] = s;
    }
    bytes = CDYN_CONTACT_PROBLEM_BYTES(n, api->nc, api->njoint_limits, api->nv);
    c->contact_buf = malloc(bytes);
    if (!c->contact_buf ||
        cdyn_contact_problem_init(&c->contact_problem, &c->contact_layout, c->contact_buf,
                                  bytes) != CDYN_OK ||
        api->contact_reset(c->data[GENERATED]) != CDYN_OK)
        return -1;
    c->in.contact_problem = &c->contact_problem;
    return 0;
}

void bench_ctx_free(bench_ctx *c)
{
    free(c->data[BATCH]);
    free(c->out[BATCH]);
    free(c->batch_pool);
    free(c->contact_phi);
    free(c->contact_dims);
    free(c->contact_buf);
    free(c->pool);
    free(c->data[GENERATED]);
    free(c->generic_buf);
    free(c->constraint_buf);
    free(c->out[GENERATED]);
    free(c->out[GENERIC]);
}

/* aligned for NAME_lanes (a GNU vector is aligned to its size); NULL out of memory */
static void *lanes_alloc(const bench_batch *b, size_t bytes)
{
    void *p = NULL;
    size_t align = b->lane_bytes > sizeof(void *) ? b->lane_bytes : sizeof(void *);
    if (posix_memalign(&p, align, bytes ? bytes : align) != 0)
        return NULL;
    memset(p, 0, bytes);
    return p;
}

/* The batch side (bench.h): its workspace, the pool packed in blocks of W consecutive
 * states, room for its largest output (prox_ltl_derivatives': ddq, lambda, three nv x nv
 * and three nc x nv matrices and the status; aba_derivatives' three matrices and the status;
 * fk's 12 reals a lane); 0, or -1. */
static int batch_init(bench_ctx *c)
{
    const bench_batch *b = c->robot->batch;
    const int nq = c->in.nq, nv = c->in.nv;
    const int nblocks = b->w > 0 && BENCH_POOL % b->w == 0 ? BENCH_POOL / b->w : 0;
    const size_t lane = b->lane_bytes;
    unsigned char *p;
    int k;
    if (nblocks == 0)
        return -1;
    c->data[BATCH] = lanes_alloc(b, b->data_size);
    c->out[BATCH] =
        lanes_alloc(b, (3 * (size_t)nv * ((size_t)nv + (size_t)c->in.nc) + (size_t)nv +
                        (size_t)c->in.nc + 12) * lane);
    c->batch_pool = lanes_alloc(b, (size_t)nblocks * ((size_t)nq + 3 * (size_t)nv) * lane);
    if (!c->data[BATCH] || !c->out[BATCH] || !c->batch_pool)
        return -1;
    c->batch_in = c->in;
    p = c->batch_pool;
    c->batch_in.q = (const cdyn_real *)(void *)p;
    c->batch_in.v = (const cdyn_real *)(void *)(p += (size_t)nblocks * nq * lane);
    c->batch_in.a = (const cdyn_real *)(void *)(p += (size_t)nblocks * nv * lane);
    c->batch_in.tau = (const cdyn_real *)(void *)(p + (size_t)nblocks * nv * lane);
    for (k = 0; k < nblocks; k++) {
        const long s = (long)k * b->w; /* the block's first state */
        b->pack((unsigned char *)(void *)c->batch_in.q + (size_t)k * nq * lane, c->q + s * nq,
                nq);
        b->pack((unsigned char *)(void *)c->batch_in.v + (size_t)k * nv * lane, c->v + s * nv,
                nv);
        b->pack((unsigned char *)(void *)c->batch_in.a + (size_t)k * nv * lane, c->a + s * nv,
                nv);
        b->pack((unsigned char *)(void *)c->batch_in.tau + (size_t)k * nv * lane,
                c->tau + s * nv, nv);
    }
    return 0;
}

int bench_ctx_init(bench_ctx *c, const bench_robot *r)
{
    const generated_api *api = r->api;
    const size_t nq = (size_t)api->nq, nv = (size_t)api->nv;
    const size_t nc = (size_t)api->nc;
    const size_t nr = nc + 2 * (size_t)api->njoint_limits; /* the contact step's rows */
    /* the largest output: a Jacobian or the contact step's, or the derivatives' (with their
     * status), or aba_fd's Jacobian and scratch */
    const size_t out_len = 12 + (nv > 6 ? nv * nv : 6 * nv) + nr * nr + nr + nq +
                           3 * nv * (nv + nc) + 3 * nv + 1;
    size_t generic_bytes;
    memset(c, 0, sizeof *c);
    c->robot = r;
    c->model = api->model;
    generic_bytes = cdyn_data_size(c->model);
    c->pool = malloc(sizeof(cdyn_real) * (BENCH_POOL * (nq + 3 * nv) + nq + nv));
    c->data[GENERATED] = calloc(1, api->data_size);
    c->generic_buf = malloc(generic_bytes);
    c->out[GENERATED] = calloc(out_len, sizeof(cdyn_real));
    c->out[GENERIC] = calloc(out_len, sizeof(cdyn_real));
    c->data[GENERIC] = &c->generic;
    c->in.nq = api->nq;
    c->in.nv = api->nv;
    c->in.frame = frame_id(r, c->model);
    c->in.nc = api->nc;
    if (api->nc > 0) {
        c->constraint_buf = malloc(api->generic_constraint_bytes);
        if (!c->constraint_buf ||
            cdyn_constraint_data_init(&c->constraints, c->model, api->constraints,
                                      api->nconstraints, c->constraint_buf,
                                      api->generic_constraint_bytes) != CDYN_OK) {
            bench_ctx_free(c);
            return -1;
        }
        c->in.constraint_data = &c->constraints;
    }
    if (!c->pool || !c->data[GENERATED] || !c->generic_buf || !c->out[GENERATED] ||
        !c->out[GENERIC] || generic_bytes == 0 || c->in.frame < 0 ||
        cdyn_data_init(&c->generic, c->model, c->generic_buf, generic_bytes) != CDYN_OK) {
        bench_ctx_free(c);
        return -1;
    }
    c->in.q = c->q = c->pool;
    c->in.v = c->v = c->q + BENCH_POOL * nq;
    c->in.a = c->a = c->v + BENCH_POOL * nv;
    c->in.tau = c->tau = c->a + BENCH_POOL * nv;
    c->neutral = c->tau + BENCH_POOL * nv;
    c->step = c->neutral + nq;
    draw_states(c);
    if ((bench_has_contact_step(api) && contact_init(c) != 0) || (r->batch && batch_init(c) != 0)) {
        bench_ctx_free(c);
        return -1;
    }
    return 0;
}

/* ltl factors the M of the last crba: computed (untimed) at one pool state. */
void bench_prime_ltl(bench_ctx *c, int side, int state)
{
    const cdyn_real *q = c->in.q + state * c->in.nq;
    if (side == GENERATED)
        c->robot->api->crba(c->data[GENERATED], q, c->out[GENERATED]);
    else
        cdyn_crba(c->model, &c->generic, q, c->out[GENERIC]);
}

void bench_prime_contact(bench_ctx *c, int side, int state)
{
    bench_inputs one = c->in; /* the pool from `state` on: the loop's first call is there */
    one.q += state * c->in.nq;
    one.v += state * c->in.nv;
    one.tau += state * c->in.nv;
    bench_sink += bench_loop_of(c, side, BENCH_CONTACT_PROBLEM)(c->data[side], &one,
                                                                 c->out[side], 1);
}

/* The projection's references: the contacts' placements at the pool's next state, so that
 * the state itself is off the manifold by a random step (the generic side starts at the
 * identity, the generated at zeros: the check compares like with like). */
static void bench_prime_references(bench_ctx *c, int side, int state)
{
    const cdyn_real *q = c->in.q + ((state + 1) % BENCH_POOL) * c->in.nq;
    if (side == GENERATED)
        c->robot->api->constraint_capture(c->data[GENERATED], q);
    else
        (void)cdyn_constraint_capture(c->model, &c->generic, c->in.constraint_data, q);
}

void bench_prime(bench_ctx *c, int side, int algo, int state)
{
    if (algo == BENCH_LTL)
        bench_prime_ltl(c, side, state);
    else if (algo == BENCH_PROJECT_POSITION)
        bench_prime_references(c, side, state);
    else if (algo == BENCH_ADMM || algo == BENCH_PGS)
        bench_prime_contact(c, side, state);
}

bench_loop bench_loop_of(const bench_ctx *c, int side, int algo)
{
    if (side == BATCH)
        return c->robot->batch ? c->robot->batch->loops[algo] : NULL;
    return side == GENERATED ? c->robot->loops[algo] : generic_loops[algo];
}

int bench_has_batch(const bench_ctx *c, int algo)
{
    return bench_loop_of(c, BATCH, algo) != NULL;
}

/* The side's inputs: the pool, or for the batch side the pool in blocks. */
static const bench_inputs *side_inputs(const bench_ctx *c, int side)
{
    return side == BATCH ? &c->batch_in : &c->in;
}

static long output_length(const bench_ctx *c, int algo)
{
    const bench_inputs *in = &c->in;
    switch (algo) {
    case BENCH_FK: return BENCH_FK_OUT;
    case BENCH_JACOBIAN: return BENCH_JACOBIAN_OUT;
    case BENCH_CRBA:
    case BENCH_MINV: return BENCH_MATRIX_OUT;
    case BENCH_LTL:
    case BENCH_CRBA_TREE: return in->nv; /* D, compared through ltl_factor */
    case BENCH_PROX_LTL:
    case BENCH_PROX_LTLS:
    case BENCH_CONSTRAINED_ABA:
    case BENCH_PROX_PV:
    case BENCH_IMPULSE: return BENCH_SOLVE_OUT;
    case BENCH_DELASSUS:
    case BENCH_DELASSUS_FACTORISED:
    case BENCH_DELASSUS_ARTICULATED: return BENCH_DELASSUS_OUT;
    case BENCH_CONTACT_STEP: return BENCH_STEP_OUT;
    case BENCH_RNEA_DERIVATIVES: return BENCH_RNEA_DERIVATIVES_OUT;
    case BENCH_ABA_DERIVATIVES: return BENCH_ABA_DERIVATIVES_OUT;
    case BENCH_ABA_FD: return BENCH_ABA_FD_OUT;
    case BENCH_PROX_LTL_DERIVATIVES: return BENCH_PROX_DERIVATIVES_OUT;
    case BENCH_PROJECT_POSITION: return BENCH_PROJECT_POSITION_OUT;
    default: return BENCH_VECTOR_OUT;
    }
}

/* The derivatives' loops write their status after their outputs (bench_loops.h). */
static int has_status(int algo)
{
    return algo == BENCH_RNEA_DERIVATIVES || algo == BENCH_ABA_DERIVATIVES ||
           algo == BENCH_PROX_LTL_DERIVATIVES;
}

/* The problem (G, g) or the solver's lambda of both sides into out; their length, or -1 when
 * the two problems differ in size or the solve did not run its iterations. */
static long contact_outputs(bench_ctx *c, int algo)
{
    cdyn_contact_problem p[2];
    long k, m, len;
    int side;
    (void)c->robot->api->contact_view(c->data[GENERATED], &p[GENERATED]);
    p[GENERIC] = c->contact_problem;
    m = p[GENERATED].m;
    if (m != p[GENERIC].m || m < c->in.nc)
        return -1;
    for (side = 0; side < 2; side++) {
        cdyn_real *out = c->out[side];
        if (algo == BENCH_CONTACT_PROBLEM) {
            for (k = 0; k < m * m; k++)
                out[k] = p[side].G[k];
            for (k = 0; k < m; k++)
                out[m * m + k] = p[side].g[k];
        } else {
            if (p[side].stats->iterations != BENCH_CONTACT_ITER)
                return -1;
            for (k = 0; k < p[side].nr; k++)
                out[k] = p[side].lambda[k];
        }
    }
    len = algo == BENCH_CONTACT_PROBLEM ? m * m + m : p[GENERATED].nr;
    return len;
}

/* Both sides on state 0: max |generated - generic| / (1 + max |generic|), so a table never
 * compares two codes that compute different things. */
double bench_disagreement(bench_ctx *c, int algo)
{
    double diff = 0, scale = 0;
    long k, n = output_length(c, algo);
    int side;
    for (side = 0; side < 2; side++) {
        bench_prime(c, side, algo, 0);
        bench_loop_of(c, side, algo)(c->data[side], &c->in, c->out[side], 1);
    }
    if (algo >= BENCH_FIRST_CONTACT && algo != BENCH_CONTACT_STEP &&
        (n = contact_outputs(c, algo)) < 0)
        return 1; /* not the same problem */
    if (has_status(algo) && (c->out[GENERATED][n] != 0 || c->out[GENERIC][n] != 0))
        return 1; /* a side's status after its outputs: not computed */
    if (algo == BENCH_CRBA_TREE) { /* M is only in d: compared through its factor */
        (void)c->robot->api->ltl(c->data[GENERATED]);
        (void)cdyn_ltl(c->model, &c->generic);
    }
    if (algo == BENCH_LTL || algo == BENCH_CRBA_TREE) {
        c->robot->api->ltl_factor(c->data[GENERATED], NULL, c->out[GENERATED]);
        cdyn_ltl_factor(c->model, &c->generic, NULL, c->out[GENERIC]);
    }
    for (k = 0; k < n; k++) {
        double g = (double)c->out[GENERATED][k], r = (double)c->out[GENERIC][k];
        diff = fmax(diff, fabs(g - r));
        scale = fmax(scale, fabs(r));
    }
    return diff / (1 + scale);
}

double bench_batch_disagreement(bench_ctx *c, int algo)
{
    const bench_batch *b = c->robot->batch;
    const long n = output_length(c, algo);
    const long stride = n + has_status(algo); /* a lane's outputs, then its status */
    cdyn_real *lanes = NULL;
    double diff = 0, scale = 0;
    int l;
    long k;
    if (!bench_has_batch(c, algo))
        return 0;
    if (algo == BENCH_CRBA_TREE) /* its M is only in d */
        return b->tree_m_disagreement(c->data[BATCH], c->data[GENERATED], &c->batch_in, &c->in);
    /* the batch form on block 0 (states 0 .. W-1), its outputs one state after another */
    bench_loop_of(c, BATCH, algo)(c->data[BATCH], &c->batch_in, c->out[BATCH], 1);
    if (algo == BENCH_FK) {
        lanes = c->out[BATCH]; /* already 12 reals per lane */
    } else {
        if (!(lanes = malloc((size_t)b->w * (size_t)stride * sizeof *lanes)))
            return 1;
        b->unpack(lanes, c->out[BATCH], (int)stride);
    }
    for (l = 0; l < b->w; l++) {
        bench_inputs one = c->in; /* state l of the pool: the single form's loop starts there */
        one.q += (long)l * c->in.nq;
        one.v += (long)l * c->in.nv;
        one.a += (long)l * c->in.nv;
        one.tau += (long)l * c->in.nv;
        bench_loop_of(c, GENERATED, algo)(c->data[GENERATED], &one, c->out[GENERATED], 1);
        if (stride > n && (lanes[(long)l * stride + n] != 0 || c->out[GENERATED][n] != 0))
            diff = 1e300; /* the lane's or the single form's status: not computed */
        for (k = 0; k < n; k++) {
            double x = (double)lanes[(long)l * stride + k], r = (double)c->out[GENERATED][k];
            if (!isfinite(x) || !isfinite(r))
                diff = 1e300;
            diff = fmax(diff, fabs(x - r));
            scale = fmax(scale, fabs(r));
        }
    }
    if (lanes != c->out[BATCH])
        free(lanes);
    return diff >= 1e300 ? 1 : diff / (1 + scale);
}

/* ---- timing ---- */

volatile cdyn_real bench_sink;

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Microseconds per call of one batch. */
static double time_batch(bench_ctx *c, int side, int algo, long calls, int batch)
{
    bench_loop loop = bench_loop_of(c, side, algo);
    double t0, t1;
    cdyn_real sum;
    bench_prime(c, side, algo, batch % BENCH_POOL);
    t0 = now_seconds();
    sum = loop(c->data[side], side_inputs(c, side), c->out[side], calls);
    t1 = now_seconds();
    bench_sink += sum;
    /* the batch form: per state */
    return 1e6 * (t1 - t0) / (double)calls / (side == BATCH ? c->robot->batch->w : 1);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static bench_time summarise(double *x, long n)
{
    bench_time t;
    qsort(x, (size_t)n, sizeof *x, compare_doubles);
    t.median = n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
    t.min = x[0];
    t.max = x[n - 1];
    return t;
}

/* Microseconds per call of each side over the batches, alternating between the sides (the
 * two, or with a batch form the three in rotation, so each goes first as often). */
int bench_measure(bench_ctx *c, int algo, long batches, long calls, bench_time *t)
{
    const int sides = bench_has_batch(c, algo) ? 3 : 2;
    double *x = malloc((size_t)sides * (size_t)batches * sizeof *x);
    long b;
    int k;
    if (!x)
        return -1;
    for (k = 0; k < sides; k++)
        time_batch(c, k, algo, calls, 0); /* warm-up */
    for (b = 0; b < batches; b++)
        for (k = 0; k < sides; k++) {
            int side = (int)((b + k) % sides);
            x[side * batches + b] = time_batch(c, side, algo, calls, (int)b);
        }
    for (k = 0; k < sides; k++)
        t[k] = summarise(x + k * batches, batches);
    free(x);
    return 0;
}
