/* bench_build.c — the temporary folder and the child processes of `cdyngen bench`. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "commands/bench_build.h"

static volatile sig_atomic_t caught; /* the signal that asks us to stop, or 0 */

static void on_signal(int sig)
{
    caught = sig;
}

/* Without SA_RESTART, so a wait returns (EINTR) and the caller stops its children. */
static void catch_signals(void)
{
    static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa;
    int k;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (k = 0; k < 3; k++)
        sigaction(sigs[k], &sa, NULL);
}

int bench_interrupted(void)
{
    return caught;
}

int bench_tmp_create(char dir[BENCH_PATH_LEN], char *err, size_t errlen)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    catch_signals();
    if (snprintf(dir, BENCH_PATH_LEN, "%s/cdyngen-bench-XXXXXX", tmp) >= BENCH_PATH_LEN ||
        !mkdtemp(dir)) {
        snprintf(err, errlen, "cannot create a temporary folder in %s: %s", tmp, strerror(errno));
        dir[0] = '\0';
        return -1;
    }
    return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void bench_tmp_finish(const char *dir)
{
    if (dir[0])
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (caught) {
        signal(caught, SIG_DFL);
        raise(caught);
    }
}

/* fork + exec with stdout and stderr into log (NULL: the terminal's); -1 if fork fails.
 * Each child leads a process group of its own, so stopping it stops what it started too
 * (a compiler driver's cc1 and as). */
static pid_t spawn(char **argv, const char *log)
{
    pid_t pid = fork();
    if (pid > 0)
        setpgid(pid, pid); /* both sides set it: no race with the exec */
    if (pid != 0)
        return pid;
    setpgid(0, 0);
    if (log) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
            _exit(127);
        close(fd);
    }
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run \"%s\": %s\n", argv[0], strerror(errno));
    _exit(127);
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* "compiling arm7.c, cdyn_solvers.c (12 s)" over the previous progress line. */
static void show_progress(const bench_job *jobs, const pid_t *pids, int n, int done, double t0)
{
    int k, first = 1;
    fprintf(stderr, "\r\033[Kcompiling (%d of %d done, %.0f s): ", done, n, seconds() - t0);
    for (k = 0; k < n; k++)
        if (pids[k] > 0) {
            fprintf(stderr, "%s%s", first ? "" : ", ", jobs[k].label);
            first = 0;
        }
    fflush(stderr);
}

static void stop_all(pid_t *pids, int n)
{
    int k;
    for (k = 0; k < n; k++)
        if (pids[k] > 0)
            kill(-pids[k], SIGTERM);
}

/* The job whose child ended, marked ended; -1 if none of ours. */
static int reap(pid_t pid, pid_t *pids, int n)
{
    int k;
    for (k = 0; k < n; k++)
        if (pids[k] == pid) {
            pids[k] = -1;
            return k;
        }
    return -1;
}

int bench_run_jobs(const bench_job *jobs, int n, int parallel, int progress)
{
    const struct timespec tick = { 0, 100000000 }; /* 0.1 s */
    pid_t *pids = calloc((size_t)(n > 0 ? n : 1), sizeof *pids);
    int next = 0, running = 0, done = 0, failed = -1, status, k;
    const double t0 = seconds();
    if (!pids)
        return 0;
    while (next < n || running > 0) {
        pid_t pid;
        while (!caught && failed < 0 && running < parallel && next < n) {
            if ((pids[next] = spawn(jobs[next].argv, jobs[next].log)) < 0)
                failed = next;
            running += pids[next++] > 0;
        }
        if (running == 0)
            break;
        if ((pid = waitpid(-1, &status, WNOHANG)) == 0) {
            if (progress)
                show_progress(jobs, pids, n, done, t0);
            nanosleep(&tick, NULL); /* a signal cuts it short */
        } else if (pid > 0 && (k = reap(pid, pids, n)) >= 0) {
            running--, done++;
            if (failed < 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
                failed = k;
                stop_all(pids, n);
            }
        } else if (pid < 0 && errno != EINTR) {
            break;
        }
        if (caught && failed < 0) {
            failed = n; /* not a job's fault: stop them all */
            stop_all(pids, n);
        }
    }
    if (progress)
        fputs("\r\033[K", stderr);
    free(pids);
    return caught ? -2 : failed >= 0 && failed < n ? failed : -1;
}

int bench_run_attached(char **argv)
{
    pid_t pid = spawn(argv, NULL);
    int status, stopped = 0;
    if (pid < 0)
        return -1;
    for (;;) {
        pid_t w = waitpid(pid, &status, 0);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            return -1;
        if (caught && !stopped) {
            kill(-pid, SIGTERM);
            stopped = 1;
        }
    }
    if (caught)
        return -2;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void bench_print_head(const char *path, int lines)
{
    char line[512];
    FILE *f = fopen(path, "r");
    while (f && lines-- > 0 && fgets(line, sizeof line, f))
        fprintf(stderr, "    %s%s", line, strchr(line, '\n') ? "" : "\n");
    if (f)
        fclose(f);
}
