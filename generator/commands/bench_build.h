/* bench_build.h — what `cdyngen bench` needs from the system: a temporary folder that is
 * removed whatever happens (errors, Ctrl-C, SIGTERM, SIGHUP), and the compiler and the
 * benchmark run as child processes that an interruption stops. */
#ifndef CDYNGEN_BENCH_BUILD_H
#define CDYNGEN_BENCH_BUILD_H

#include <stddef.h>

#define BENCH_PATH_LEN 4096

/* Creates $TMPDIR/cdyngen-bench-XXXXXX (TMPDIR defaults to /tmp) into dir and catches
 * SIGINT, SIGTERM and SIGHUP from then on. 0, or -1 with err set. */
int bench_tmp_create(char dir[BENCH_PATH_LEN], char *err, size_t errlen);
/* Removes the folder and everything in it; then, if a signal arrived, dies of it. */
void bench_tmp_finish(const char *dir);
/* The signal that arrived since bench_tmp_create, or 0. */
int bench_interrupted(void);

typedef struct {
    char **argv;       /* argv[0] looked up in PATH */
    const char *label; /* shown while it runs: "arm7.c" */
    const char *log;   /* its stdout and stderr go here */
} bench_job;

/* Runs the jobs, at most `parallel` at once, in order of the array; with `progress`, a
 * line on stderr says which run and for how long. Returns -1 when all succeeded, the index
 * of the first that failed (the others are stopped), or -2 when a signal arrived. */
int bench_run_jobs(const bench_job *jobs, int n, int parallel, int progress);

/* Runs argv with the terminal's stdout and stderr; its exit status (0 success), or -2
 * when a signal arrived, -1 when it could not run. */
int bench_run_attached(char **argv);

/* The first `lines` lines of a file to stderr, each indented. */
void bench_print_head(const char *path, int lines);

#endif
