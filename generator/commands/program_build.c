/* program_build.c — the build of a program beside the generated code in a temporary
 * folder (cdyngen bench, cdyngen simulate). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands/cli.h"
#include "commands/program_build.h"
#include "render/embedded.h"

int program_init(program_build *b, const char *cc, const char *cflags)
{
    char *p;
    memset(b, 0, sizeof *b);
    b->cc = cc;
    b->cflags = cflags;
    if (!*cc)
        return cli_usage_error("%s", "--cc: empty compiler name");
    snprintf(b->flag_text, sizeof b->flag_text, "%s", cflags);
    for (p = strtok(b->flag_text, " \t"); p; p = strtok(NULL, " \t")) {
        if (b->nflags == PROGRAM_MAX_FLAGS)
            return cli_usage_error("--cflags: more than %s flags", "64");
        b->flags[b->nflags++] = p;
    }
    return 0;
}

int program_folder(program_build *b)
{
    char err[1024];
    if (bench_tmp_create(b->dir, err, sizeof err) != 0) {
        diag_report("%s", err);
        return EXIT_BUILD;
    }
    snprintf(b->gen, sizeof b->gen, "%s/gen", b->dir);
    return 0;
}

void program_finish(program_build *b)
{
    bench_tmp_finish(b->dir);
}

int program_write_text(const char *dir, const char *file, const char *text)
{
    char path[BENCH_PATH_LEN + 256];
    FILE *f;
    int ok;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (!text || !(f = fopen(path, "w")))
        return -1;
    ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* argv of cc -std=gnu99 -DNDEBUG FLAGS... then the rest (NULL-terminated). */
static void compiler_argv(const program_build *b, char **argv, char *const *rest)
{
    int n = 0, k;
    argv[n++] = (char *)b->cc;
    argv[n++] = "-std=gnu99";
    argv[n++] = "-DNDEBUG";
    for (k = 0; k < b->nflags; k++)
        argv[n++] = b->flags[k];
    for (k = 0; rest[k]; k++)
        argv[n++] = rest[k];
    argv[n] = NULL;
}

void program_add_compile(program_build *b, const char *folder, const char *file)
{
    const int k = b->njobs++;
    char *rest[9] = { "-I", b->dir, "-I", b->gen, "-c", b->src[k], "-o", b->obj[k], NULL };
    char path[BENCH_PATH_LEN + 64]; /* via a copy: gcc's -Wrestrict sees b on both sides */
    snprintf(b->src[k], sizeof b->src[k], "%s/%s", folder, file);
    snprintf(path, sizeof path, "%s/job%d.o", b->dir, k);
    memcpy(b->obj[k], path, sizeof path);
    snprintf(path, sizeof path, "%s/job%d.log", b->dir, k);
    memcpy(b->log[k], path, sizeof path);
    compiler_argv(b, b->argv[k], rest);
    b->jobs[k].argv = b->argv[k];
    b->jobs[k].label = b->src[k] + strlen(folder) + 1;
    b->jobs[k].log = b->log[k];
}

void program_add_runtime(program_build *b)
{
    const embedded_file *e;
    for (e = embedded_files; e->path; e++)
        if (strncmp(e->path, "runtime/", 8) == 0 && strstr(e->path, ".c") &&
            b->njobs < PROGRAM_MAX_JOBS - 4)
            program_add_compile(b, b->gen, e->path + 8);
}

/* Which job failed, and its first lines: the compiler's own words. */
static int build_failed(const program_build *b, int k, const char *what)
{
    if (k == -2)
        return EXIT_BUILD; /* interrupted: bench_tmp_finish re-raises */
    diag_report("%s failed on %s; the compiler said:", what, b->jobs[k].label);
    bench_print_head(b->jobs[k].log, 12);
    return EXIT_BUILD;
}

int program_check_compiler(program_build *b)
{
    char *argv[3] = { (char *)b->cc, "--version", NULL };
    bench_job job;
    char log[BENCH_PATH_LEN + 16];
    snprintf(log, sizeof log, "%s/version.log", b->dir);
    job.argv = argv;
    job.label = b->cc;
    job.log = log;
    if (bench_run_jobs(&job, 1, 1, 0) != -1) {
        if (!bench_interrupted()) {
            diag_report("the compiler \"%s\" does not run (--cc):", b->cc);
            bench_print_head(log, 6);
        }
        return EXIT_BUILD;
    }
    return 0;
}

static int parallel_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 8 ? 8 : (int)n;
}

int program_compile(program_build *b, const char *command)
{
    int rc;
    fprintf(stderr, "cdyngen %s: compiling with %s -std=gnu99 -DNDEBUG %s\n", command, b->cc,
            b->cflags);
    rc = bench_run_jobs(b->jobs, b->njobs, parallel_jobs(), isatty(STDERR_FILENO));
    return rc == -1 ? 0 : build_failed(b, rc, "compiling");
}

void program_add_link(program_build *b, const char *exe_name)
{
    const int k = b->njobs++;
    char *rest[PROGRAM_MAX_JOBS + 4];
    int n = 0, j;
    for (j = 0; j < k; j++)
        rest[n++] = b->obj[j];
    snprintf(b->exe, sizeof b->exe, "%s/%s", b->dir, exe_name);
    rest[n++] = "-o";
    rest[n++] = b->exe;
    rest[n++] = "-lm";
    rest[n] = NULL;
    compiler_argv(b, b->argv[k], rest);
    snprintf(b->log[k], sizeof b->log[k], "%s/link.log", b->dir);
    b->jobs[k].argv = b->argv[k];
    b->jobs[k].label = "the link";
    b->jobs[k].log = b->log[k];
}

int program_run_last(program_build *b, const char *what)
{
    const int k = b->njobs - 1, rc = bench_run_jobs(&b->jobs[k], 1, 1, 0);
    return rc == -1 ? 0 : build_failed(b, rc == -2 ? -2 : k, what);
}
