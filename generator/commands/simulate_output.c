/* simulate_output.c — the simulation's files moved into place all or nothing. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands/simulate_output.h"
#include "util/diag.h"

/* A new file beside target (target.XXXXXX), open for writing; its name in *temp. */
static FILE *open_beside(const char *target, char **temp)
{
    const size_t n = strlen(target) + 8;
    mode_t mask;
    FILE *f;
    int fd;
    *temp = malloc(n);
    if (!*temp)
        return NULL;
    snprintf(*temp, n, "%s.XXXXXX", target);
    if ((fd = mkstemp(*temp)) < 0) {
        free(*temp);
        *temp = NULL;
        return NULL;
    }
    mask = umask(0); /* mkstemp makes it 0600; the user's umask decides, as fopen's would */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    if (!(f = fdopen(fd, "w"))) {
        close(fd);
        remove(*temp);
    }
    return f;
}

int simulate_output_check(const char *target)
{
    char *temp;
    struct stat st;
    FILE *f;
    if (stat(target, &st) == 0 && S_ISDIR(st.st_mode)) {
        diag_report("%s: is a folder, not a file", target);
        return -1;
    }
    if (!(f = open_beside(target, &temp))) {
        diag_report("cannot write %s: %s", target, strerror(errno));
        free(temp);
        return -1;
    }
    fclose(f);
    remove(temp);
    free(temp);
    return 0;
}

/* source copied whole into a new file beside target: 0 with *temp its name, or -1. */
static int copy_beside(const char *source, const char *target, char **temp)
{
    char buf[65536];
    FILE *in = fopen(source, "rb"), *out = NULL;
    size_t n;
    int ok = in != NULL;
    *temp = NULL;
    if (ok)
        ok = (out = open_beside(target, temp)) != NULL;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    ok = ok && !ferror(in);
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        ok = 0;
    if (!ok && *temp) {
        remove(*temp);
        free(*temp);
        *temp = NULL;
    }
    return ok ? 0 : -1;
}

int simulate_output_place(const char *const *sources, const char *const *targets, int n)
{
    char *temps[SIMULATE_MAX_OUTPUTS] = { 0 };
    int k, failed = -1;
    for (k = 0; k < n && failed < 0; k++)
        if (copy_beside(sources[k], targets[k], &temps[k]) != 0)
            failed = k;
    if (failed >= 0)
        diag_report("cannot write %s: %s", targets[failed], strerror(errno));
    /* every copy complete: the renames cannot fail half-way for want of space */
    for (k = 0; k < n && failed < 0; k++)
        if (rename(temps[k], targets[k]) != 0) {
            diag_report("cannot write %s: %s", targets[k], strerror(errno));
            failed = k;
        }
    for (k = 0; k < n; k++) {
        if (temps[k] && failed >= 0)
            remove(temps[k]);
        free(temps[k]);
    }
    return failed >= 0 ? -1 : 0;
}
