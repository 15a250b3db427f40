/* output.c — see output.h: stage every file, check every target, then swap, or roll back. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "write/output.h"

#define PATH_LEN 4200

/* ---- failure injection, for tests ---- */

static int fail_at = -1, steps;

int output_fail_step(int k)
{
    int taken = steps;
    fail_at = k;
    steps = 0;
    return taken;
}

/* Counts one file-system step; nonzero (errno EIO) when a test asked this one to fail. */
static int injected(void)
{
    if (steps++ == fail_at) {
        errno = EIO;
        return 1;
    }
    return 0;
}

/* ---- signals: the temporaries go with the process ---- */

static const int caught[] = { SIGINT, SIGTERM, SIGHUP, SIGXFSZ };
#define NCAUGHT ((int)(sizeof caught / sizeof caught[0]))
static char (*volatile temporaries)[PATH_LEN];
static volatile sig_atomic_t ntemporaries;

static void remove_temporaries(int sig)
{
    int i;
    for (i = 0; i < ntemporaries; i++)
        if (temporaries[i][0])
            unlink(temporaries[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_signals(struct sigaction *old)
{
    struct sigaction sa;
    int i;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_temporaries;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < NCAUGHT; i++)
        sigaddset(&sa.sa_mask, caught[i]);
    for (i = 0; i < NCAUGHT; i++)
        sigaction(caught[i], &sa, &old[i]);
}

static void restore_signals(const struct sigaction *old)
{
    int i;
    for (i = 0; i < NCAUGHT; i++)
        sigaction(caught[i], &old[i], NULL);
    ntemporaries = 0;
    temporaries = NULL;
}

/* Holds (how = SIG_BLOCK) or releases the caught signals: the swap is never cut in two. */
static void hold_signals(int how)
{
    sigset_t set;
    int i;
    sigemptyset(&set);
    for (i = 0; i < NCAUGHT; i++)
        sigaddset(&set, caught[i]);
    sigprocmask(how, &set, NULL);
}

/* ---- the folder ---- */

static int make_dirs(const char *dir, char *err, size_t errlen)
{
    char path[4096];
    size_t i, n = strlen(dir);
    if (n == 0 || n >= sizeof path) {
        snprintf(err, errlen, "%s: bad output folder name", dir);
        return -1;
    }
    memcpy(path, dir, n + 1);
    for (i = 1; i <= n; i++) {
        if (path[i] != '/' && path[i] != '\0')
            continue;
        path[i] = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "%s: cannot create folder: %s", path, strerror(errno));
            return -1;
        }
        path[i] = i < n ? '/' : '\0';
    }
    return 0;
}

/* Is entry ".NAME" + tail + six mkstemp characters? */
static int is_own(const char *entry, const char *name, const char *tail)
{
    size_t n = strlen(name), t = strlen(tail), i;
    if (entry[0] != '.' || strncmp(entry + 1, name, n) != 0 ||
        strncmp(entry + 1 + n, tail, t) != 0 || strlen(entry + 1 + n + t) != 6)
        return 0;
    for (i = 1 + n + t; entry[i]; i++)
        if (!((entry[i] >= 'a' && entry[i] <= 'z') || (entry[i] >= 'A' && entry[i] <= 'Z') ||
              (entry[i] >= '0' && entry[i] <= '9')))
            return 0;
    return 1;
}

/* What an interrupted run left: temporaries go; a backup goes where its file exists, and is
 * put back where it does not. Best effort: what stays is harmless. */
static void clean_leftovers(const char *dir, const output_file *files, int n)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int i;
    if (!d)
        return;
    while ((e = readdir(d)) != NULL)
        for (i = 0; i < n; i++) {
            char path[PATH_LEN], final[PATH_LEN];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            snprintf(final, sizeof final, "%s/%s", dir, files[i].name);
            if (is_own(e->d_name, files[i].name, "."))
                unlink(path);
            else if (is_own(e->d_name, files[i].name, ".bak."))
                (void)(lstat(final, &st) == 0 ? unlink(path) : rename(path, final));
        }
    closedir(d);
}

static int has_marker(const char *path)
{
    char head[513];
    ssize_t got;
    int fd = open(path, O_RDONLY), found = 0;
    if (fd < 0)
        return 0;
    got = read(fd, head, sizeof head - 1);
    close(fd);
    if (got > 0) {
        head[got] = '\0';
        found = strstr(head, OUTPUT_MARKER) != NULL;
    }
    return found;
}

/* A folder in the way, or (without force) a file cdyngen did not write. */
static int check_target(const char *dir, const char *name, int force, char *err, size_t errlen)
{
    char final[PATH_LEN];
    struct stat st;
    snprintf(final, sizeof final, "%s/%s", dir, name);
    if (lstat(final, &st) != 0)
        return 0;
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: is a folder; cdyngen writes a file of that name there", final);
        return -1;
    }
    if (force)
        return 0;
    if (!S_ISREG(st.st_mode) || !has_marker(final)) {
        snprintf(err, errlen,
                 "%s: exists and was not written by cdyngen (no \"%s\" at its "
                 "top); move it away, or use --force to replace it",
                 final, OUTPUT_MARKER);
        return -1;
    }
    return 0;
}

/* ---- staging ---- */

static int ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), k = strlen(suffix);
    return n >= k && strcmp(name + n - k, suffix) == 0;
}

/* In a comment of the file's language: an HTML page (cdyngen report) must begin with
 * markup, or a browser shows the line and renders in quirks mode. */
static const char *marker_line(const char *name)
{
    if (ends_with(name, ".html"))
        return "<!-- " OUTPUT_MARKER ": a later run replaces this file. -->\n";
    return ends_with(name, ".txt") || ends_with(name, ".py")
               ? "# " OUTPUT_MARKER ": a later run replaces this file.\n"
               : "/* " OUTPUT_MARKER ": a later run replaces this file. */\n";
}

static int write_all(int fd, const char *s)
{
    size_t left = strlen(s);
    while (left > 0) {
        ssize_t w = write(fd, s, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        left -= (size_t)w;
    }
    return 0;
}

/* The marker and the content in a fresh temporary beside the target; its name into tmp. */
static int write_temp(const char *dir, const output_file *f, mode_t mode, char *tmp, char *err,
                      size_t errlen)
{
    int fd, ok;
    snprintf(tmp, PATH_LEN, "%s/.%s.XXXXXX", dir, f->name);
    fd = injected() ? -1 : mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "%s/%s: cannot write: %s", dir, f->name, strerror(errno));
        tmp[0] = '\0';
        return -1;
    }
    ok = !injected() && fchmod(fd, mode) == 0 && write_all(fd, marker_line(f->name)) == 0 &&
         write_all(fd, f->content) == 0 && !injected() && fsync(fd) == 0;
    if (close(fd) != 0 || !ok) {
        snprintf(err, errlen, "%s/%s: cannot write: %s", dir, f->name, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- the swap ---- */

typedef struct {
    char final[PATH_LEN], backup[PATH_LEN];
    int placed; /* the temporary is now the final file */
} swap_state;

/* A second name for the file about to be replaced: a hard link where the file system has
 * them (the final name never disappears), else the file moved aside. */
static int keep_old(swap_state *s, const char *dir, const char *name)
{
    int fd;
    snprintf(s->backup, sizeof s->backup, "%s/.%s.bak.XXXXXX", dir, name);
    fd = injected() ? -1 : mkstemp(s->backup);
    if (fd < 0) {
        s->backup[0] = '\0';
        return -1;
    }
    close(fd);
    unlink(s->backup);
    if (injected())
        return -1;
    if (link(s->final, s->backup) == 0)
        return 0;
    if (errno != EPERM && errno != EMLINK && errno != ENOSYS && errno != EOPNOTSUPP)
        return -1;
    return rename(s->final, s->backup);
}

/* Puts back every file replaced so far, removes every file added. A backup that is still a
 * second link to the unreplaced file is only removed: rename() between two links of one
 * file does nothing. */
static void roll_back(swap_state *s, int upto)
{
    struct stat st;
    int i;
    for (i = upto; i >= 0; i--) {
        if (s[i].backup[0] && !s[i].placed && lstat(s[i].final, &st) == 0)
            unlink(s[i].backup);
        else if (s[i].backup[0])
            rename(s[i].backup, s[i].final);
        else if (s[i].placed)
            unlink(s[i].final);
    }
}

static int swap_in(const char *dir, const output_file *files, int n, char (*tmp)[PATH_LEN],
                   swap_state *s, char *err, size_t errlen)
{
    int i;
    for (i = 0; i < n; i++) {
        struct stat st;
        snprintf(s[i].final, sizeof s[i].final, "%s/%s", dir, files[i].name);
        if (lstat(s[i].final, &st) == 0 && keep_old(&s[i], dir, files[i].name) != 0) {
            snprintf(err, errlen, "%s: cannot keep the old file while replacing it: %s", s[i].final,
                     strerror(errno));
            s[i].backup[0] = '\0';
            roll_back(s, i);
            return -1;
        }
        if (injected() || rename(tmp[i], s[i].final) != 0) {
            snprintf(err, errlen, "%s: cannot rename: %s", s[i].final, strerror(errno));
            roll_back(s, i);
            return -1;
        }
        tmp[i][0] = '\0';
        s[i].placed = 1;
    }
    for (i = 0; i < n; i++)
        if (s[i].backup[0])
            unlink(s[i].backup);
    return 0;
}

static int valid_names(const output_file *files, int n, char *err, size_t errlen)
{
    int i;
    for (i = 0; i < n; i++)
        if (strchr(files[i].name, '/') || files[i].name[0] == '\0' || files[i].name[0] == '.') {
            snprintf(err, errlen, "%s: bad output file name", files[i].name);
            return -1;
        }
    return 0;
}

int output_write_all(const char *dir, const output_file *files, int n, int force, char *err,
                     size_t errlen)
{
    char(*tmp)[PATH_LEN];
    swap_state *s;
    struct sigaction old[NCAUGHT];
    mode_t mask;
    int i, rc = 0;
    if (valid_names(files, n, err, errlen) < 0 || make_dirs(dir, err, errlen) < 0)
        return -1;
    clean_leftovers(dir, files, n);
    for (i = 0; i < n; i++)
        if (check_target(dir, files[i].name, force, err, errlen) < 0)
            return -1;
    tmp = calloc((size_t)(n > 0 ? n : 1), sizeof *tmp);
    s = calloc((size_t)(n > 0 ? n : 1), sizeof *s);
    if (!tmp || !s) {
        free(tmp);
        free(s);
        snprintf(err, errlen, "%s: out of memory", dir);
        return -1;
    }
    mask = umask(0);
    umask(mask);
    temporaries = tmp;
    ntemporaries = n;
    catch_signals(old);
    for (i = 0; i < n && rc == 0; i++)
        rc = write_temp(dir, &files[i], 0666 & ~mask, tmp[i], err, errlen);
    hold_signals(SIG_BLOCK);
    if (rc == 0)
        rc = swap_in(dir, files, n, tmp, s, err, errlen);
    for (i = 0; i < n; i++)
        if (tmp[i][0])
            unlink(tmp[i]);
    restore_signals(old);
    hold_signals(SIG_UNBLOCK);
    free(tmp);
    free(s);
    return rc;
}
