/* bench.c — generated code against the generic runtime, same robots, same inputs, one run.
 *
 * Not part of the default build: the generated code of the biggest robots is large (talos:
 * ~60k lines of straight-line C) and its -O3 build takes about a minute on two cores.
 *   cmake --build BUILD --target bench
 *   BUILD/tests/bench [--robot NAME]... [--batches N] [--calls N] [--markdown FILE] [--list]
 * or `cmake --build BUILD --target bench_run` (writes BUILD/tests/bench.md too).
 * `cdyngen bench ROBOT.urdf` builds this same program for one robot with the user's
 * compiler, and passes --algorithms, --csv, --json and --svg (bench_report.c).
 * This file is the program (options, the run over robots and algorithms, --callgrind-one);
 * bench_measure.c sets up a robot's states and both sides and times them, bench_report.c
 * prints the tables and writes the files.
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
 * A robot generated with --batch W (`cdyngen bench --batch W`; bench.h's bench_batch) adds a
 * third side to fk, rnea, nle, gravity, crba, minv, aba, rnea_derivatives and aba_derivatives
 * (prox_ltl, prox_ltls with a constraint set; constrained_aba, prox_pv, prox_ltl_derivatives
 * with contacts only): the batch form, each call on W states of the same pool (BENCH_POOL / W
 * blocks of W consecutive states), its batches rotating with the other two sides'; its
 * figure is the median batch divided by M and by W, per state, printed after the robot's
 * rows beside the single form's with their ratio and the states per second on one core, and
 * checked lane by lane against the single form.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_measure.h"
#include "bench_report.h"

#define BENCH_STR_(x) #x
#define BENCH_STR(x) BENCH_STR_(x)
#if defined(__clang__)
#define BENCH_COMPILER                                                                             \
    "clang " BENCH_STR(__clang_major__) "." BENCH_STR(__clang_minor__) "." BENCH_STR(              \
        __clang_patchlevel__)
#elif defined(__GNUC__)
#define BENCH_COMPILER "gcc " __VERSION__
#else
#define BENCH_COMPILER "unknown compiler"
#endif
#ifndef BENCH_FLAGS
extern const char bench_flags[]; /* written beside the registry by cdyngen bench */
#define BENCH_FLAGS bench_flags
#endif

static const char *const side_names[3] = { "generated", "generic", "batch" };
static const char *const algo_names[BENCH_NALGOS] = { "fk",
                                                      "jacobian",
                                                      "rnea",
                                                      "nle",
                                                      "gravity",
                                                      "crba",
                                                      "crba_tree",
                                                      "ltl",
                                                      "minv",
                                                      "aba",
                                                      "rnea_derivatives",
                                                      "aba_derivatives",
                                                      "aba_fd",
                                                      "prox_ltl",
                                                      "prox_ltls",
                                                      "constrained_aba",
                                                      "prox_pv",
                                                      "delassus",
                                                      "delassus_factorised",
                                                      "delassus_articulated",
                                                      "impulse",
                                                      "prox_ltl_derivatives",
                                                      "project_position",
                                                      "project_velocity",
                                                      "contact_problem",
                                                      "admm",
                                                      "pgs",
                                                      "contact_step" };

/* ---- options ---- */

#define MAX_SELECTED 16

typedef struct {
    const char *robots[MAX_SELECTED];
    int nrobots;
    long batches, calls;
    const char *markdown;         /* file for the Markdown table, or NULL */
    const char *csv, *json, *svg; /* the rows as files (bench_report.h), or NULL */
    int algorithms[BENCH_NALGOS]; /* --algorithms: 1 for each one asked for */
    int algorithms_given;
    int list, help;
    const char *one_robot, *one_algo, *one_side; /* --callgrind-one */
} bench_options;

static const char usage_text[] =
    "usage: bench [--robot NAME]... [--batches N] [--calls N] [--algorithms LIST]\n"
    "             [--markdown FILE] [--csv FILE] [--json FILE] [--svg FILE] [--list] [--help]\n"
    "       bench --callgrind-one ROBOT ALGORITHM generated|generic|batch [--calls N]\n"
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
        if ((algo = bench_find_index(algo_names, BENCH_NALGOS, name)) < 0) {
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

/* ---- the run ---- */

static const bench_op_count *op_count(const bench_ops *ops, const char *algorithm)
{
    int i;
    for (i = 0; i < ops->ncounts; i++)
        if (strcmp(ops->counts[i].algorithm, algorithm) == 0)
            return &ops->counts[i];
    return NULL;
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

#define TABLE1_ROWS 64 /* constraint sets in Table I */

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
        return 0; /* not generated for this robot (no set, or a loop) */
    if (algo >= BENCH_FIRST_CONTACT && !bench_has_contact_step(r->api))
        return 0; /* the contact step's rows need a frictional contact */
    if (o->algorithms_given)
        return o->algorithms[algo];
    return (algo >= BENCH_FIRST_CONSTRAINED) == (r->api->nc > 0);
}

/* aba_fd's count is nv + 1 times aba's (the integrates and differences not counted);
 * prox_ltl_derivatives' is the derivatives' and the prox_ltl timed before them. */
static bench_row make_row(const bench_ctx *c, int algo, const bench_time *t, double diff)
{
    const bench_robot *r = c->robot;
    const int fd = algo == BENCH_ABA_FD;
    const bench_op_count *ops = op_count(r->ops, algo_names[fd ? BENCH_ABA : algo]);
    const bench_op_count *solve =
        algo == BENCH_PROX_LTL_DERIVATIVES ? op_count(r->ops, algo_names[BENCH_PROX_LTL]) : NULL;
    const long times = fd ? r->api->nv + 1 : 1;
    bench_row row;
    row.robot = r->api->name;
    row.algorithm = algo_names[algo];
    row.generated = t[GENERATED];
    row.generic = t[GENERIC];
    row.mul = ops ? times * ops->mul : -1;
    row.add = ops ? times * ops->add : -1;
    if (solve && ops) {
        row.mul += solve->mul;
        row.add += solve->add;
    }
    row.code_bytes = r->code_bytes ? r->code_bytes[algo] : -1;
    row.rel_diff = diff;
    row.batch_w = bench_has_batch(c, algo) ? r->batch->w : 0;
    row.batch = row.batch_w ? t[BATCH] : t[GENERATED];
    row.batch_rel_diff = 0;
    return row;
}

static int bench_robot_run(const bench_robot *r, const bench_options *o, FILE *md,
                           bench_table1_row *table1, bench_rows *rows)
{
    bench_ctx c;
    const int first = rows->n; /* this robot's rows: rows->rows[first..] */
    int algo;
    if (bench_ctx_init(&c, r) != 0) {
        fprintf(stderr, "bench: %s: cannot set up (memory, model or frame \"%s\")\n", r->api->name,
                r->ops->jacobian_frame);
        return -1;
    }
    printf("%s (%s, nq %d, nv %d; Jacobian of \"%s\", LOCAL%s)\n", r->api->name, r->urdf,
           r->api->nq, r->api->nv, r->ops->jacobian_frame,
           r->api->nc && !o->algorithms_given ? "; constrained solvers only" : "");
    for (algo = 0; algo < BENCH_NALGOS; algo++) {
        bench_time t[3];
        bench_row row;
        double diff, batch_diff;
        if (!timed(o, r, algo))
            continue;
        diff = bench_disagreement(&c, algo);
        batch_diff = bench_batch_disagreement(&c, algo);
        if (bench_measure(&c, algo, o->batches, o->calls, t) != 0) {
            bench_ctx_free(&c);
            return -1;
        }
        row = make_row(&c, algo, t, diff);
        row.batch_rel_diff = batch_diff;
        bench_print_row(stdout, &row, algo, 0);
        if (md)
            bench_print_row(md, &row, algo, 1);
        if (table1)
            bench_table1_record(table1, algo, &row);
        if (rows->n < MAX_ROWS)
            rows->rows[rows->n++] = row;
        fflush(stdout);
    }
    if (rows->n > first) { /* --batch: the batch forms' table after the robot's rows */
        bench_print_batch(stdout, rows->rows + first, rows->n - first, 0);
        if (md)
            bench_print_batch(md, rows->rows + first, rows->n - first, 1);
    }
    bench_ctx_free(&c);
    return 0;
}

/* The rows as the files asked for; 0, or -1 naming the one that failed. */
static int write_row_files(const bench_options *o, const bench_setup *s, const bench_rows *rows)
{
    const struct {
        const char *path;
        int (*write)(const char *, const bench_setup *, const bench_row *, int);
    } files[3] = { { o->csv, bench_write_csv },
                   { o->json, bench_write_json },
                   { o->svg, bench_write_svg } };
    int k;
    for (k = 0; k < 3; k++)
        if (files[k].path && files[k].write(files[k].path, s, rows->rows, rows->n) != 0) {
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
    static bench_table1_row table1[TABLE1_ROWS];
    static bench_rows rows;
    char cpu[256];
    bench_setup s = { cpu, BENCH_COMPILER, BENCH_FLAGS, o->batches, o->calls, 0 };
    FILE *md = NULL;
    int rc = 0, n1 = 0;
    if (o->markdown && !(md = fopen(o->markdown, "w"))) {
        fprintf(stderr, "bench: cannot write %s\n", o->markdown);
        return 1;
    }
    cpu_model(cpu, sizeof cpu);
    for (r = bench_robots; r->api; r++)
        if (selected(o, r) && r->batch && !s.batch_w)
            s.batch_w = r->batch->w; /* the files' batch fields */
    bench_print_header(stdout, &s, 0);
    if (md)
        bench_print_header(md, &s, 1);
    for (r = bench_robots; r->api && rc == 0; r++) {
        bench_table1_row *row = r->api->nc && n1 < TABLE1_ROWS ? &table1[n1++] : NULL;
        if (!selected(o, r)) {
            n1 -= row != NULL;
            continue;
        }
        if (row) {
            memset(row, 0, sizeof *row);
            row->name = r->api->name;
            row->nv = r->api->nv;
            row->nc = r->api->nc;
        }
        rc = bench_robot_run(r, o, md, row, &rows);
    }
    bench_table1_print(stdout, table1, n1, 0);
    if (md)
        bench_table1_print(md, table1, n1, 1);
    printf("\n%s\n", jacobian_note);
    if (md)
        fprintf(md, "\n%s\n", jacobian_note);
    printf("checksum: %.17g\n", (double)bench_sink);
    if (md && fclose(md) != 0)
        rc = -1;
    if (rc == 0)
        rc = write_row_files(o, &s, &rows);
    return rc ? 1 : 0;
}

/* ---- callgrind ---- */

/* The only function callgrind collects in --callgrind-one (--toggle-collect). */
cdyn_real bench_measured_calls(bench_loop loop, void *d, const bench_inputs *in, cdyn_real *out,
                               long n);
cdyn_real bench_measured_calls(bench_loop loop, void *d, const bench_inputs *in, cdyn_real *out,
                               long n)
{
    return loop(d, in, out, n);
}

static int run_one(const bench_options *o)
{
    /* called through a volatile pointer, so it is never inlined away */
    cdyn_real (*volatile measured)(bench_loop, void *, const bench_inputs *, cdyn_real *, long) =
        bench_measured_calls;
    const bench_robot *r = find_robot(o->one_robot);
    int algo = bench_find_index(algo_names, BENCH_NALGOS, o->one_algo);
    int side = bench_find_index(side_names, 3, o->one_side);
    bench_ctx c;
    if (!r || algo < 0 || side < 0) {
        fprintf(stderr, "bench: --callgrind-one: unknown robot, algorithm or side\n%s", usage_text);
        return 2;
    }
    if (bench_ctx_init(&c, r) != 0) {
        fprintf(stderr, "bench: %s: cannot set up\n", r->api->name);
        return 1;
    }
    if (side == BATCH && !bench_has_batch(&c, algo)) {
        fprintf(stderr, "bench: --callgrind-one: %s has no batch form of %s\n", r->api->name,
                algo_names[algo]);
        bench_ctx_free(&c);
        return 2;
    }
    bench_prime(&c, side, algo, 0);
    bench_sink += measured(bench_loop_of(&c, side, algo), c.data[side],
                           side == BATCH ? &c.batch_in : &c.in, c.out[side], o->calls);
    printf("%s %s %s: %ld calls, checksum %.17g\n", r->api->name, algo_names[algo],
           side_names[side], o->calls, (double)bench_sink);
    bench_ctx_free(&c);
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
