/* program_build.h — a program built from the robot's generated code and files written beside
 * it, with the user's compiler, in a temporary folder: what `cdyngen bench` and
 * `cdyngen simulate` share. The folder is removed whatever happens (bench_build.h: errors,
 * Ctrl-C, SIGTERM, SIGHUP); the compiles run in parallel with progress on a terminal. */
#ifndef CDYNGEN_PROGRAM_BUILD_H
#define CDYNGEN_PROGRAM_BUILD_H

#include "commands/bench_build.h"

#define EXIT_BUILD 3 /* the compiler or the program failed */
#define PROGRAM_MAX_FLAGS 64
#define PROGRAM_MAX_JOBS 32

typedef struct {
    const char *cc, *cflags;  /* --cc, --cflags */
    char dir[BENCH_PATH_LEN]; /* the temporary folder; the robot's code in dir/gen */
    char gen[BENCH_PATH_LEN + 8];
    char flag_text[2048]; /* --cflags, split in place */
    char *flags[PROGRAM_MAX_FLAGS];
    int nflags, njobs;
    char src[PROGRAM_MAX_JOBS][BENCH_PATH_LEN + 64], obj[PROGRAM_MAX_JOBS][BENCH_PATH_LEN + 64];
    char log[PROGRAM_MAX_JOBS][BENCH_PATH_LEN + 64], exe[BENCH_PATH_LEN + 16];
    char *argv[PROGRAM_MAX_JOBS][PROGRAM_MAX_FLAGS + PROGRAM_MAX_JOBS + 8];
    bench_job jobs[PROGRAM_MAX_JOBS];
} program_build;

/* b cleared, the compiler and its flags (split at spaces) kept: 0, or EXIT_USAGE (reported)
 * for more than PROGRAM_MAX_FLAGS flags or an empty compiler name. */
int program_init(program_build *b, const char *cc, const char *cflags);
/* The temporary folder (bench_tmp_create), the generated code to go in dir/gen: 0, or
 * EXIT_BUILD (reported). program_finish removes it. */
int program_folder(program_build *b);
void program_finish(program_build *b);

/* dir/file written whole from text (NULL: fails): 0, or -1. */
int program_write_text(const char *dir, const char *file, const char *text);

/* The compiler runs at all: a missing one is named before any long compile. 0, or
 * EXIT_BUILD (reported). */
int program_check_compiler(program_build *b);
/* A job compiling folder/file into an object of dir (cc -std=gnu99 -DNDEBUG FLAGS -I dir
 * -I gen -c); the runtime's sources of the generated folder, one job each. */
void program_add_compile(program_build *b, const char *folder, const char *file);
void program_add_runtime(program_build *b);
/* Runs every job added so far, in parallel, a progress line on a terminal, after
 * "cdyngen COMMAND: compiling with CC FLAGS": 0, or EXIT_BUILD (the failed file and the
 * compiler's first lines reported). */
int program_compile(program_build *b, const char *command);
/* A job linking every object so far into dir/exe_name (with -lm). */
void program_add_link(program_build *b, const char *exe_name);
/* The job just added, alone (what: "compiling", "linking"): 0, or EXIT_BUILD (reported). */
int program_run_last(program_build *b, const char *what);

#endif
