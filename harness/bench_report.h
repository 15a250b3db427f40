/* bench_report.h — the benchmark's rows as files for scripts and people: CSV, JSON and an
 * SVG bar chart. The field names are documented in the README (cdyngen bench) and are
 * part of the interface: add fields, never rename them. */
#ifndef CDYN_BENCH_REPORT_H
#define CDYN_BENCH_REPORT_H

/* Microseconds per call over the batches of one side. */
typedef struct {
    double median, min, max;
} bench_time;

typedef struct {
    const char *robot, *algorithm;
    bench_time generated, generic;
    long mul, add;              /* emitted operations; -1 when unknown */
    long code_bytes;            /* machine code of the generated function; -1 when unknown */
    double rel_diff;            /* largest relative difference of the two sides' outputs */
} bench_row;

/* Where the rows were measured. */
typedef struct {
    const char *cpu, *compiler, *flags;
    long batches, calls;
} bench_setup;

/* Each writes the whole file (to FILE.tmp, then renamed), returning 0 or -1 with errno. */
int bench_write_csv(const char *path, const bench_setup *s, const bench_row *rows, int n);
int bench_write_json(const char *path, const bench_setup *s, const bench_row *rows, int n);
/* One pair of bars per row (generated, generic) on a log scale of microseconds; the robots,
 * compiler and machine in the title. */
int bench_write_svg(const char *path, const bench_setup *s, const bench_row *rows, int n);

#endif
