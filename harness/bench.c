/* bench.c — generated code against the generic runtime, same robots, same inputs, one run.
 *
 * Not part of the default build: the generated code of the biggest robots is large (talos:
 * ~60k lines of straight-line C) and its -O3 build takes about a minute on two cores.
 *   cmake --build BUILD --target bench
 *   BUILD/tests/bench [--robot NAME]... [--batches N] [--calls N] [--markdown FILE] [--list]
 * or `cmake --build BUILD --target bench_run` (writes BUILD/tests/bench.md too).
 * `cdyngen bench ROBOT.urdf` builds this same program for one robot with the user's
 * compiler, and passes --algorithms, --csv, --json and --svg (bench_report.c).
 *
 * Method: the generated code, the generic runtime and these loops are all compiled
 * -O3 -march=native -DNDEBUG. Per robot, 64 random states on the manifold
 * (q = integrate(neutral, u), u uniform in [-pi, pi]; v, a, tau uniform in [-1, 1]) are
 * cycled through by every loop; each call adds one of its outputs to a checksum kept in a
 * volatile sink and printed at the end. Per algorithm: one warm-up batch per side, then N batches of M calls
 * (default 40 x 1000) timed with clock_gettime(CLOCK_MONOTONIC), generated and generic
 * batches alternating (and which goes first alternating too) so machine noise hits both
 * alike; the figure is the median batch divided by M. ltl times the factorisation only,
 * of the M of a crba run (untimed) before each batch.
 *
 * Caveat: a big generated function (humanoid rnea: 32 KB of code, run once per call) does
 * not fit in the L1 instruction cache, so its time depends on where its pages land in
 * physical memory. On the project's VMs one link of the program ran humanoid rnea 2.2x
 * slower than a byte-identical copy of it, stably; alternating batches cannot cancel that.
 * If a row looks off, copy the binary, run the copy, and check with the instruction counts.
 *
 * Instruction counts, repeatable on a shared machine where times drift by 20% (valgrind
 * 3.19 cannot run AVX-512 code: build for it with -DCDYN_BENCH_MARCH=x86-64-v3):
 *   valgrind --tool=callgrind --toggle-collect=bench_measured_calls \
 *       --callgrind-out-file=cg.out BUILD/tests/bench --callgrind-one arm7 aba generated --calls 1000
 * runs exactly 1000 calls inside bench_measured_calls (the set-up is not collected); the
 * "totals:" line of cg.out divided by 1000 is the instructions per call, loop included
 * (a few instructions, the same for both sides). tests/bench/callgrind.sh does this for every
 * robot, algorithm and side. */
#define _POSIX_C_SOURCE 200112L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_loops.h"
#include "bench_report.h"
#include "cdyn.h"

#define BENCH_STR_(x) #x
#define BENCH_STR(x) BENCH_STR_(x)
#if defined(__clang__)
#define BENCH_COMPILER "clang " BENCH_STR(__clang_major__) "." BENCH_STR(__clang_minor__) \
    "." BENCH_STR(__clang_patchlevel__)
#elif defined(__GNUC__)
#define BENCH_COMPILER "gcc " __VERSION__
#else
#define BENCH_COMPILER "unknown compiler"
#endif
#ifndef BENCH_FLAGS
extern const char bench_flags[];    /* written beside the registry by cdyngen bench */
#define BENCH_FLAGS bench_flags
#endif

enum { GENERATED = 0, GENERIC = 1 };
static const char *const side_names[2] = {"generated", "generic"};
static const char *const algo_names[BENCH_NALGOS] = {
    "fk", "jacobian", "rnea", "nle", "gravity", "crba", "crba_tree", "ltl", "minv", "aba",
    "prox_ltl", "prox_ltls", "constrained_aba", "prox_pv", "delassus", "delassus_factorised",
    "delassus_articulated", "impulse"
};

/* ---- the generic side's loops (the generated side's are in bench_adapter.c.in) ---- */

#define MODEL(d) (((cdyn_data *)(d))->model)

static cdyn_real generic_fk(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS((cdyn_fk(MODEL(d), d, BENCH_Q),
                 cdyn_frame_placement(MODEL(d), d, in->frame, out, out + 9)), BENCH_FK_OUT);
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

#define CDATA ((cdyn_constraint_data *)in->constraint_data)
static const cdyn_prox_settings prox3 = BENCH_PROX_SETTINGS;

static cdyn_real generic_prox_ltl(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(cdyn_prox_ltl(MODEL(d), d, CDATA, &prox3, BENCH_Q, BENCH_V, BENCH_TAU, out,
                              out + in->nv), BENCH_SOLVE_OUT);
}

static cdyn_real generic_prox_ltls(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(cdyn_prox_ltls(MODEL(d), d, CDATA, &prox3, BENCH_Q, BENCH_V, BENCH_TAU, out,
                               out + in->nv), BENCH_SOLVE_OUT);
}

static cdyn_real generic_constrained_aba(void *d, const bench_inputs *in, cdyn_real *out,
                                         long n)
{
    BENCH_CALLS(cdyn_constrained_aba(MODEL(d), d, CDATA, &prox3, BENCH_Q, BENCH_V, BENCH_TAU,
                                     out, out + in->nv), BENCH_SOLVE_OUT);
}

static cdyn_real generic_prox_pv(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(cdyn_prox_pv(MODEL(d), d, CDATA, &prox3, BENCH_Q, BENCH_V, BENCH_TAU, out,
                             out + in->nv), BENCH_SOLVE_OUT);
}

static cdyn_real generic_delassus(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(cdyn_delassus(MODEL(d), d, CDATA, BENCH_Q, prox3.mu, out), BENCH_DELASSUS_OUT);
}

static cdyn_real generic_impulse(void *d, const bench_inputs *in, cdyn_real *out, long n)
{
    BENCH_CALLS(cdyn_impulse(MODEL(d), d, CDATA, &prox3, BENCH_Q, BENCH_V, CDYN_R(0.5), out,
                             out + in->nv), BENCH_SOLVE_OUT);
}

static const bench_loop generic_loops[BENCH_NALGOS] = {
    generic_fk, generic_jacobian, generic_rnea, generic_nle, generic_gravity, generic_crba,
    generic_crba_tree, generic_ltl, generic_minv, generic_aba, generic_prox_ltl,
    generic_prox_ltls, generic_constrained_aba, generic_prox_pv, generic_delassus,
    generic_delassus, generic_delassus,     /* the generic runtime has one route */
    generic_impulse
};

/* ---- options ---- */

#define MAX_SELECTED 16

typedef struct {
    const char *robots[MAX_SELECTED];
    int nrobots;
    long batches, calls;
    const char *markdown;       /* file for the Markdown table, or NULL */
    const char *csv, *json, *svg;   /* the rows as files (bench_report.h), or NULL */
    int algorithms[BENCH_NALGOS];   /* --algorithms: 1 for each one asked for */
    int algorithms_given;
    int list, help;
    const char *one_robot, *one_algo, *one_side;   /* --callgrind-one */
} bench_options;

static const char usage_text[] =
    "usage: bench [--robot NAME]... [--batches N] [--calls N] [--algorithms LIST]\n"
    "             [--markdown FILE] [--csv FILE] [--json FILE] [--svg FILE] [--list] [--help]\n"
    "       bench --callgrind-one ROBOT ALGORITHM generated|generic [--calls N]\n"
    "Times the generated code against the generic runtime (median of N batches of M calls).\n"
    "--algorithms fk,aba,...: those only, for every robot (default: a robot generated with\n"
    "constraints times its solvers, any other its unconstrained algorithms).\n"
    "--callgrind-one runs exactly M calls inside bench_measured_calls, for valgrind's\n"
    "callgrind --toggle-collect=bench_measured_calls (instructions per call).\n";

static int positive(const char *s, long *out)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || x <= 0)
        return -1;
    *out = x;
    return 0;
}

static int find_index(const char *const *names, int n, const char *name)
{
    int i;
    for (i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

/* "fk,aba,prox_ltl": each a name of algo_names; -1 on an unknown one or an empty list. */
static int parse_algorithms(const char *list, bench_options *o)
{
    char name[64];
    const char *p = list;
    memset(o->algorithms, 0, sizeof o->algorithms);
    while (*p) {
        size_t len = strcspn(p, ",");
        int algo;
        if (len == 0 || len >= sizeof name)
            return -1;
        memcpy(name, p, len);
        name[len] = '\0';
        if ((algo = find_index(algo_names, BENCH_NALGOS, name)) < 0) {
            fprintf(stderr, "bench: unknown algorithm \"%s\"\n", name);
            return -1;
        }
        o->algorithms[algo] = 1;
        p += len + (p[len] == ',');
    }
    o->algorithms_given = 1;
    return list[0] == '\0' ? -1 : 0;
}

static int parse_options(int argc, char **argv, bench_options *o)
{
    int i;
    memset(o, 0, sizeof *o);
    o->batches = 40;
    o->calls = 1000;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has1 = i + 1 < argc, has3 = i + 3 < argc;
        if (strcmp(a, "--robot") == 0 && has1 && o->nrobots < MAX_SELECTED)
            o->robots[o->nrobots++] = argv[++i];
        else if (strcmp(a, "--batches") == 0 && has1 && positive(argv[i + 1], &o->batches) == 0)
            i++;
        else if (strcmp(a, "--calls") == 0 && has1 && positive(argv[i + 1], &o->calls) == 0)
            i++;
        else if (strcmp(a, "--markdown") == 0 && has1)
            o->markdown = argv[++i];
        else if (strcmp(a, "--csv") == 0 && has1)
            o->csv = argv[++i];
        else if (strcmp(a, "--json") == 0 && has1)
            o->json = argv[++i];
        else if (strcmp(a, "--svg") == 0 && has1)
            o->svg = argv[++i];
        else if (strcmp(a, "--algorithms") == 0 && has1 && parse_algorithms(argv[i + 1], o) == 0)
            i++;
        else if (strcmp(a, "--list") == 0)
            o->list = 1;
        else if (strcmp(a, "--help") == 0)
            o->help = 1;
        else if (strcmp(a, "--callgrind-one") == 0 && has3) {
            o->one_robot = argv[++i];
            o->one_algo = argv[++i];
            o->one_side = argv[++i];
        } else
            return -1;
    }
    return 0;
}

static const bench_robot *find_robot(const char *name)
{
    const bench_robot *r;
    for (r = bench_robots; r->api; r++)
        if (strcmp(r->api->name, name) == 0)
            return r;
    return NULL;
}

static int selected(const bench_options *o, const bench_robot *r)
{
    int i;
    for (i = 0; i < o->nrobots; i++)
        if (strcmp(o->robots[i], r->api->name) == 0)
            return 1;
    return o->nrobots == 0;
}

/* ---- one robot's inputs and workspaces ---- */

typedef struct {
    const bench_robot *robot;
    const cdyn_model *model;
    bench_inputs in;            /* points into pool */
    cdyn_real *pool;            /* one block for the arrays below */
    cdyn_real *q, *v, *a, *tau; /* (BENCH_POOL x nq or nv) the states */
    cdyn_real *neutral, *step;  /* (nq), (nv) scratch for drawing q */
    void *data[2];              /* per side: the NAME_data, the cdyn_data */
    cdyn_data generic;
    void *generic_buf;
    cdyn_constraint_data constraints;   /* the generic side's, when the robot has a set */
    void *constraint_buf;
    cdyn_real *out[2];          /* per side: room for the largest output */
} bench_ctx;

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
    int f = find_index(r->api->frame_names, r->api->nframes, name);
    return f >= 0 && f < m->nframes && strcmp(m->frames[f].name, name) == 0 ? f : -1;
}

static void ctx_free(bench_ctx *c)
{
    free(c->pool);
    free(c->data[GENERATED]);
    free(c->generic_buf);
    free(c->constraint_buf);
    free(c->out[GENERATED]);
    free(c->out[GENERIC]);
}

static int ctx_init(bench_ctx *c, const bench_robot *r)
{
    const generated_api *api = r->api;
    const size_t nq = (size_t)api->nq, nv = (size_t)api->nv;
    const size_t nc = (size_t)api->nc;
    const size_t out_len = 12 + (nv > 6 ? nv * nv : 6 * nv) + nc * nc + nc;
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
            ctx_free(c);
            return -1;
        }
        c->in.constraint_data = &c->constraints;
    }
    if (!c->pool || !c->data[GENERATED] || !c->generic_buf || !c->out[GENERATED] ||
        !c->out[GENERIC] || generic_bytes == 0 || c->in.frame < 0 ||
        cdyn_data_init(&c->generic, c->model, c->generic_buf, generic_bytes) != CDYN_OK) {
        ctx_free(c);
        return -1;
    }
    c->in.q = c->q = c->pool;
    c->in.v = c->v = c->q + BENCH_POOL * nq;
    c->in.a = c->a = c->v + BENCH_POOL * nv;
    c->in.tau = c->tau = c->a + BENCH_POOL * nv;
    c->neutral = c->tau + BENCH_POOL * nv;
    c->step = c->neutral + nq;
    draw_states(c);
    return 0;
}

/* ltl factors the M of the last crba: computed (untimed) at one pool state. */
static void prime_ltl(bench_ctx *c, int side, int state)
{
    const cdyn_real *q = c->in.q + state * c->in.nq;
    if (side == GENERATED)
        c->robot->api->crba(c->data[GENERATED], q, c->out[GENERATED]);
    else
        cdyn_crba(c->model, &c->generic, q, c->out[GENERIC]);
}

static bench_loop loop_of(const bench_ctx *c, int side, int algo)
{
    return side == GENERATED ? c->robot->loops[algo] : generic_loops[algo];
}

static long output_length(const bench_ctx *c, int algo)
{
    const bench_inputs *in = &c->in;
    switch (algo) {
    case BENCH_FK: return BENCH_FK_OUT;
    case BENCH_JACOBIAN: return BENCH_JACOBIAN_OUT;
    case BENCH_CRBA: case BENCH_MINV: return BENCH_MATRIX_OUT;
    case BENCH_LTL: case BENCH_CRBA_TREE: return in->nv;  /* D, compared through ltl_factor */
    case BENCH_PROX_LTL: case BENCH_PROX_LTLS: case BENCH_CONSTRAINED_ABA: case BENCH_PROX_PV:
    case BENCH_IMPULSE: return BENCH_SOLVE_OUT;
    case BENCH_DELASSUS: case BENCH_DELASSUS_FACTORISED: case BENCH_DELASSUS_ARTICULATED:
        return BENCH_DELASSUS_OUT;
    default: return BENCH_VECTOR_OUT;
    }
}

/* Both sides on state 0: max |generated - generic| / (1 + max |generic|), so a table never
 * compares two codes that compute different things. */
static double disagreement(bench_ctx *c, int algo)
{
    double diff = 0, scale = 0;
    long k, n = output_length(c, algo);
    int side;
    for (side = 0; side < 2; side++) {
        if (algo == BENCH_LTL)
            prime_ltl(c, side, 0);
        loop_of(c, side, algo)(c->data[side], &c->in, c->out[side], 1);
    }
    if (algo == BENCH_CRBA_TREE) {     /* M is only in d: compared through its factor */
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

/* ---- timing ---- */

static volatile cdyn_real sink;

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Microseconds per call of one batch. */
static double time_batch(bench_ctx *c, int side, int algo, long calls, int batch)
{
    bench_loop loop = loop_of(c, side, algo);
    double t0, t1;
    cdyn_real sum;
    if (algo == BENCH_LTL)
        prime_ltl(c, side, batch % BENCH_POOL);
    t0 = now_seconds();
    sum = loop(c->data[side], &c->in, c->out[side], calls);
    t1 = now_seconds();
    sink += sum;
    return 1e6 * (t1 - t0) / (double)calls;
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

/* Microseconds per call of each side over the batches, alternating between the sides. */
static int measure(bench_ctx *c, int algo, const bench_options *o, bench_time t[2])
{
    double *x = malloc(2 * (size_t)o->batches * sizeof *x);
    long b;
    int k;
    if (!x)
        return -1;
    time_batch(c, GENERATED, algo, o->calls, 0);      /* warm-up */
    time_batch(c, GENERIC, algo, o->calls, 0);
    for (b = 0; b < o->batches; b++)
        for (k = 0; k < 2; k++) {
            int side = (int)((b + k) % 2);
            x[side * o->batches + b] = time_batch(c, side, algo, o->calls, (int)b);
        }
    t[GENERATED] = summarise(x, o->batches);
    t[GENERIC] = summarise(x + o->batches, o->batches);
    free(x);
    return 0;
}

/* ---- report ---- */

static const bench_op_count *op_count(const bench_ops *ops, const char *algorithm)
{
    int i;
    for (i = 0; i < ops->ncounts; i++)
        if (strcmp(ops->counts[i].algorithm, algorithm) == 0)
            return &ops->counts[i];
    return NULL;
}

/* "mul/add" as render_op_counts (cdyngen --summary) gives them. */
static void format_ops(char *buf, size_t len, const bench_row *r)
{
    if (r->mul >= 0)
        snprintf(buf, len, "%ld/%ld", r->mul, r->add);
    else
        snprintf(buf, len, "?");
}

static void format_bytes(char *buf, size_t len, long bytes)
{
    if (bytes < 0)
        snprintf(buf, len, "?");
    else if (bytes < 10000)
        snprintf(buf, len, "%ld B", bytes);
    else
        snprintf(buf, len, "%.0f KB", (double)bytes / 1024);
}

/* Three significant digits, never an exponent. */
static void format_us(char *buf, size_t len, double us)
{
    int decimals = us > 0 ? 2 - (int)floor(log10(us)) : 3;
    if (decimals < 0)
        decimals = 0;
    snprintf(buf, len, "%.*f", decimals, us);
}

static void cpu_model(char *buf, size_t len)
{
    char line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");
    snprintf(buf, len, "unknown");
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            colon += 1 + (colon[1] == ' ');
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(buf, len, "%s", colon);
            break;
        }
    }
    if (f)
        fclose(f);
}

static void print_header(FILE *f, const bench_options *o, const char *cpu, int markdown)
{
    if (markdown) {
        fprintf(f, "CPU: %s; %s, `%s`; median of %ld batches of %ld calls, generated and "
                "generic batches alternating in one run.\n\n", cpu, BENCH_COMPILER, BENCH_FLAGS,
                o->batches, o->calls);
        fprintf(f, "| robot | algorithm | generated µs | generic µs | speed-up | emitted mul/add "
                   "| code |\n|---|---|---:|---:|---:|---:|---:|\n");
        return;
    }
    fprintf(f, "cdyngen benchmark: generated code vs the generic runtime, same inputs, one run\n");
    fprintf(f, "cpu:      %s\n", cpu);
    fprintf(f, "compiler: %s, %s (generated code, runtime and loops)\n", BENCH_COMPILER,
            BENCH_FLAGS);
    fprintf(f, "method:   median of %ld batches of %ld calls after a warm-up batch, generated and\n"
               "          generic batches alternating; %d random states on the manifold, cycled\n",
            o->batches, o->calls, BENCH_POOL);
    fprintf(f, "\n%-14s %-20s %10s %17s %10s %9s %15s %8s %8s\n", "robot", "algorithm",
            "generated", "(min-max) us", "generic", "speed-up", "emitted mul/add", "code",
            "rel diff");
}

/* How far generated and generic may differ before the row is flagged: rounding, except
 * for the solvers that factorise M + J^T J / mu (its 1e6 penalty costs digits: about 1e-9
 * measured on the reference robots, tests/test_generated_constrained.c). */
static double flag_above(int algo)
{
    return algo == BENCH_PROX_LTLS || algo == BENCH_CONSTRAINED_ABA ? 1e-7 : 1e-9;
}

static void print_row(FILE *f, const bench_row *r, int algo, int markdown)
{
    char gen[32], lo[32], hi[32], range[72], ref[32], ops[48], code[32];
    format_us(gen, sizeof gen, r->generated.median);
    format_us(lo, sizeof lo, r->generated.min);
    format_us(hi, sizeof hi, r->generated.max);
    snprintf(range, sizeof range, "(%s-%s)", lo, hi);
    format_us(ref, sizeof ref, r->generic.median);
    format_ops(ops, sizeof ops, r);
    format_bytes(code, sizeof code, r->code_bytes);
    if (markdown)
        fprintf(f, "| %s | %s | %s | %s | %.2f× | %s | %s |\n", r->robot, r->algorithm, gen, ref,
                r->generic.median / r->generated.median, ops, code);
    else
        fprintf(f, "%-14s %-20s %10s %17s %10s %8.2fx %15s %8s %8.1e%s\n", "", r->algorithm, gen,
                range, ref, r->generic.median / r->generated.median, ops, code, r->rel_diff,
                r->rel_diff > flag_above(algo) ? " DIFFERENT" : "");
}

/* Seed 001's Table I: one row per constraint set, the four solvers side by side. */
#define TABLE1_ROWS 64
static const int table1_algos[4] = {BENCH_CONSTRAINED_ABA, BENCH_PROX_PV, BENCH_PROX_LTLS,
                                    BENCH_PROX_LTL};
typedef struct {
    const bench_robot *robot;
    double us[4][2];            /* per table1_algos, generated and generic; 0: not emitted */
} table1_row;

static void table1_record(table1_row *row, int algo, const bench_row *r)
{
    int k;
    for (k = 0; k < 4; k++)
        if (table1_algos[k] == algo) {
            row->us[k][GENERATED] = r->generated.median;
            row->us[k][GENERIC] = r->generic.median;
        }
}

static void table1_cell(FILE *f, double us, const char *sep)
{
    char cell[32];
    if (us > 0)
        format_us(cell, sizeof cell, us);
    else
        snprintf(cell, sizeof cell, "-");
    fprintf(f, "%s%8s", sep, cell);
}

/* Generated µs of the four solvers, then their generic µs, and the fastest generated. */
static void table1_print(FILE *f, const table1_row *rows, int n, int markdown)
{
    static const char *names[4] = {"cABA", "PV", "LTLs", "LTL"};
    const char *sep = markdown ? " | " : " ";
    int i, k, side;
    if (n == 0)
        return;
    fprintf(f, "\nTable I layout (seed 001): three proximal iterations, mu = 1e-6; µs, "
               "generated | generic\n\n");
    fprintf(f, markdown ? "| set | nv | m" : "%-20s %3s %3s", "set", "nv", "m");
    for (side = 0; side < 2; side++)
        for (k = 0; k < 4; k++)
            fprintf(f, "%s%8s", sep, names[k]);
    fprintf(f, "%s%s\n", sep, markdown ? "fastest |" : "fastest");
    if (markdown)
        fprintf(f, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (i = 0; i < n; i++) {
        const table1_row *r = &rows[i];
        int best = 0;
        fprintf(f, markdown ? "| %s | %d | %d" : "%-20s %3d %3d", r->robot->api->name,
                r->robot->api->nv, r->robot->api->nc);
        for (side = 0; side < 2; side++)
            for (k = 0; k < 4; k++)
                table1_cell(f, r->us[k][side], sep);
        for (k = 1; k < 4; k++)
            if (r->us[k][GENERATED] > 0 && r->us[k][GENERATED] < r->us[best][GENERATED])
                best = k;
        fprintf(f, "%s%s%s\n", sep, names[best], markdown ? " |" : "");
    }
}

/* Every row measured in this run, for the CSV, JSON and SVG files. */
#define MAX_ROWS 1024
typedef struct {
    bench_row rows[MAX_ROWS];
    int n;
} bench_rows;

/* Whether algo is timed for r: --algorithms, where it was generated; else a robot
 * generated with a constraint set on its solvers only (its unconstrained code is the same
 * as the robot's own entry), any other on its unconstrained algorithms. */
static int timed(const bench_options *o, const bench_robot *r, int algo)
{
    if (!r->loops[algo])
        return 0;               /* not generated for this robot (no set, or a loop) */
    if (o->algorithms_given)
        return o->algorithms[algo];
    return (algo >= BENCH_FIRST_CONSTRAINED) == (r->api->nc > 0);
}

static bench_row make_row(const bench_ctx *c, int algo, const bench_time t[2], double diff)
{
    const bench_robot *r = c->robot;
    const bench_op_count *ops = op_count(r->ops, algo_names[algo]);
    bench_row row;
    row.robot = r->api->name;
    row.algorithm = algo_names[algo];
    row.generated = t[GENERATED];
    row.generic = t[GENERIC];
    row.mul = ops ? ops->mul : -1;
    row.add = ops ? ops->add : -1;
    row.code_bytes = r->code_bytes ? r->code_bytes[algo] : -1;
    row.rel_diff = diff;
    return row;
}

static int bench_robot_run(const bench_robot *r, const bench_options *o, FILE *md,
                           table1_row *table1, bench_rows *rows)
{
    bench_ctx c;
    int algo;
    if (ctx_init(&c, r) != 0) {
        fprintf(stderr, "bench: %s: cannot set up (memory, model or frame \"%s\")\n",
                r->api->name, r->ops->jacobian_frame);
        return -1;
    }
    printf("%s (%s, nq %d, nv %d; Jacobian of \"%s\", LOCAL%s)\n", r->api->name, r->urdf,
           r->api->nq, r->api->nv, r->ops->jacobian_frame,
           r->api->nc && !o->algorithms_given ? "; constrained solvers only" : "");
    for (algo = 0; algo < BENCH_NALGOS; algo++) {
        bench_time t[2];
        bench_row row;
        double diff;
        if (!timed(o, r, algo))
            continue;
        diff = disagreement(&c, algo);
        if (measure(&c, algo, o, t) != 0) {
            ctx_free(&c);
            return -1;
        }
        row = make_row(&c, algo, t, diff);
        print_row(stdout, &row, algo, 0);
        if (md)
            print_row(md, &row, algo, 1);
        if (table1)
            table1_record(table1, algo, &row);
        if (rows->n < MAX_ROWS)
            rows->rows[rows->n++] = row;
        fflush(stdout);
    }
    ctx_free(&c);
    return 0;
}

/* The rows as the files asked for; 0, or -1 naming the one that failed. */
static int write_row_files(const bench_options *o, const char *cpu, const bench_rows *rows)
{
    const bench_setup s = {cpu, BENCH_COMPILER, BENCH_FLAGS, o->batches, o->calls};
    const struct {
        const char *path;
        int (*write)(const char *, const bench_setup *, const bench_row *, int);
    } files[3] = {{o->csv, bench_write_csv}, {o->json, bench_write_json},
                  {o->svg, bench_write_svg}};
    int k;
    for (k = 0; k < 3; k++)
        if (files[k].path && files[k].write(files[k].path, &s, rows->rows, rows->n) != 0) {
            fprintf(stderr, "bench: cannot write %s\n", files[k].path);
            return -1;
        }
    return 0;
}

static const char jacobian_note[] =
    "jacobian: LOCAL, of the frame named in the robot's heading (an end frame on the deepest\n"
    "body unless tests/bench.cmake names one); both codes compute the kinematics of that\n"
    "frame's branch only; its op count is of the same LOCAL columns.";

static int run_all(const bench_options *o)
{
    const bench_robot *r;
    static table1_row table1[TABLE1_ROWS];
    static bench_rows rows;
    char cpu[256];
    FILE *md = NULL;
    int rc = 0, n1 = 0;
    if (o->markdown && !(md = fopen(o->markdown, "w"))) {
        fprintf(stderr, "bench: cannot write %s\n", o->markdown);
        return 1;
    }
    cpu_model(cpu, sizeof cpu);
    print_header(stdout, o, cpu, 0);
    if (md)
        print_header(md, o, cpu, 1);
    for (r = bench_robots; r->api && rc == 0; r++) {
        table1_row *row = r->api->nc && n1 < TABLE1_ROWS ? &table1[n1++] : NULL;
        if (!selected(o, r)) {
            n1 -= row != NULL;
            continue;
        }
        if (row) {
            memset(row, 0, sizeof *row);
            row->robot = r;
        }
        rc = bench_robot_run(r, o, md, row, &rows);
    }
    table1_print(stdout, table1, n1, 0);
    if (md)
        table1_print(md, table1, n1, 1);
    printf("\n%s\n", jacobian_note);
    if (md)
        fprintf(md, "\n%s\n", jacobian_note);
    printf("checksum: %.17g\n", (double)sink);
    if (md && fclose(md) != 0)
        rc = -1;
    if (rc == 0)
        rc = write_row_files(o, cpu, &rows);
    return rc ? 1 : 0;
}

/* ---- callgrind ---- */

/* The only function callgrind collects in --callgrind-one (--toggle-collect). */
cdyn_real bench_measured_calls(bench_loop loop, void *d, const bench_inputs *in,
                               cdyn_real *out, long n);
cdyn_real bench_measured_calls(bench_loop loop, void *d, const bench_inputs *in,
                               cdyn_real *out, long n)
{
    return loop(d, in, out, n);
}

static int run_one(const bench_options *o)
{
    /* called through a volatile pointer, so it is never inlined away */
    cdyn_real (*volatile measured)(bench_loop, void *, const bench_inputs *, cdyn_real *,
                                   long) = bench_measured_calls;
    const bench_robot *r = find_robot(o->one_robot);
    int algo = find_index(algo_names, BENCH_NALGOS, o->one_algo);
    int side = find_index(side_names, 2, o->one_side);
    bench_ctx c;
    if (!r || algo < 0 || side < 0) {
        fprintf(stderr, "bench: --callgrind-one: unknown robot, algorithm or side\n%s", usage_text);
        return 2;
    }
    if (ctx_init(&c, r) != 0) {
        fprintf(stderr, "bench: %s: cannot set up\n", r->api->name);
        return 1;
    }
    if (algo == BENCH_LTL)
        prime_ltl(&c, side, 0);
    sink += measured(loop_of(&c, side, algo), c.data[side], &c.in, c.out[side], o->calls);
    printf("%s %s %s: %ld calls, checksum %.17g\n", r->api->name, algo_names[algo],
           side_names[side], o->calls, (double)sink);
    ctx_free(&c);
    return 0;
}

int main(int argc, char **argv)
{
    bench_options o;
    const bench_robot *r;
    int i;
    if (parse_options(argc, argv, &o) != 0) {
        fprintf(stderr, "%s", usage_text);
        return 2;
    }
    if (o.help) {
        printf("%s", usage_text);
        return 0;
    }
    if (o.list) {
        for (r = bench_robots; r->api; r++)
            printf("%s\n", r->api->name);
        return 0;
    }
    if (o.one_robot)
        return run_one(&o);
    for (i = 0; i < o.nrobots; i++)
        if (!find_robot(o.robots[i])) {
            fprintf(stderr, "bench: no robot \"%s\" (try --list)\n", o.robots[i]);
            return 2;
        }
    return run_all(&o);
}
