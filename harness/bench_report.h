/* bench_report.h — the benchmark's rows for people and scripts: the text tables bench
 * prints (and writes as Markdown), and the files CSV, JSON and an SVG bar chart. The files'
 * field names are documented in docs/benchmarks.md (cdyngen bench) and are part of the
 * interface: add fields, never rename them. */
#ifndef CDYN_BENCH_REPORT_H
#define CDYN_BENCH_REPORT_H

#include <stdio.h>

enum { GENERATED = 0, GENERIC = 1 }; /* the two sides: the index of every per-side pair */
enum { BATCH = 2 }; /* with --batch, a third side: the batch form, per state (bench.h) */

/* Microseconds per call over the batches of one side. */
typedef struct {
    double median, min, max;
} bench_time;

typedef struct {
    const char *robot, *algorithm;
    bench_time generated, generic;
    long mul, add;   /* emitted operations; -1 when unknown */
    long code_bytes; /* machine code of the generated function; -1 when unknown */
    double rel_diff; /* largest relative difference of the two sides' outputs */
    /* --batch (batch_w > 0 for the algorithms with a batch form): the batch form's time
     * per state (the call's divided by batch_w), timed with the two sides above, and the
     * largest relative difference of its lanes from the single-state form's results */
    int batch_w;
    bench_time batch;
    double batch_rel_diff;
} bench_row;

/* Where the rows were measured. */
typedef struct {
    const char *cpu, *compiler, *flags;
    long batches, calls;
    int batch_w; /* the robots' --batch W, 0 without: the files' batch fields then */
} bench_setup;

/* Each writes the whole file (to FILE.tmp, then renamed), returning 0 or -1 with errno. */
int bench_write_csv(const char *path, const bench_setup *s, const bench_row *rows, int n);
int bench_write_json(const char *path, const bench_setup *s, const bench_row *rows, int n);
/* One pair of bars per row (generated, generic) on a log scale of microseconds; the robots,
 * compiler and machine in the title. */
int bench_write_svg(const char *path, const bench_setup *s, const bench_row *rows, int n);

/* The text tables, on stdout and, with markdown, as Markdown (bench --markdown): the
 * heading (the machine, compiler, method and column names), then one line per row; algo
 * (a bench_algo) sets how far the sides may differ before the row is flagged DIFFERENT. */
void bench_print_header(FILE *f, const bench_setup *s, int markdown);
void bench_print_row(FILE *f, const bench_row *r, int algo, int markdown);
/* --batch: the rows with a batch form (batch_w > 0), one line each: the batch form's time
 * per state beside the single-state form's, their ratio, and states per second per core;
 * nothing when no row has one. */
void bench_print_batch(FILE *f, const bench_row *rows, int n, int markdown);

/* Seed 001's Table I: one row per constraint set, its four solvers (cABA, PV, LTLs, LTL)
 * side by side, generated then generic. */
typedef struct {
    const char *name; /* the robot's */
    int nv, nc;
    double us[4][2]; /* per solver, generated and generic; 0: not emitted */
} bench_table1_row;
/* The row's time into the set's line when algo is one of the four. */
void bench_table1_record(bench_table1_row *row, int algo, const bench_row *r);
void bench_table1_print(FILE *f, const bench_table1_row *rows, int n, int markdown);

#endif
