/* output.c — atomic writing of the generated folder. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output.h"

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

/* Writes content to a fresh temporary file in dir; its name goes to tmp. */
static int write_temp(const char *dir, const output_file *f, char *tmp, size_t tmplen,
                      char *err, size_t errlen)
{
    size_t len = strlen(f->content);
    int fd;
    FILE *fp;
    snprintf(tmp, tmplen, "%s/.%s.XXXXXX", dir, f->name);
    fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "%s/%s: cannot write: %s", dir, f->name, strerror(errno));
        tmp[0] = '\0';
        return -1;
    }
    fchmod(fd, 0644);
    fp = fdopen(fd, "wb");
    if (!fp || fwrite(f->content, 1, len, fp) != len || fflush(fp) != 0 || fsync(fd) != 0) {
        snprintf(err, errlen, "%s/%s: cannot write: %s", dir, f->name, strerror(errno));
        if (fp)
            fclose(fp);
        else
            close(fd);
        return -1;
    }
    if (fclose(fp) != 0) {
        snprintf(err, errlen, "%s/%s: cannot write: %s", dir, f->name, strerror(errno));
        return -1;
    }
    return 0;
}

int output_write_all(const char *dir, const output_file *files, int n, char *err,
                     size_t errlen)
{
    char (*tmp)[4200];
    int i, rc = 0;
    for (i = 0; i < n; i++)
        if (strchr(files[i].name, '/') || files[i].name[0] == '\0' || files[i].name[0] == '.') {
            snprintf(err, errlen, "%s: bad output file name", files[i].name);
            return -1;
        }
    if (make_dirs(dir, err, errlen) < 0)
        return -1;
    tmp = calloc((size_t)(n > 0 ? n : 1), sizeof *tmp);
    if (!tmp) {
        snprintf(err, errlen, "%s: out of memory", dir);
        return -1;
    }
    for (i = 0; i < n && rc == 0; i++)
        rc = write_temp(dir, &files[i], tmp[i], sizeof tmp[i], err, errlen);
    /* all written: only now replace the old files, each rename being atomic */
    for (i = 0; i < n && rc == 0; i++) {
        char final[4200];
        snprintf(final, sizeof final, "%s/%s", dir, files[i].name);
        if (rename(tmp[i], final) != 0) {
            snprintf(err, errlen, "%s: cannot rename: %s", final, strerror(errno));
            rc = -1;
            break;
        }
        tmp[i][0] = '\0';
    }
    for (i = 0; i < n; i++)
        if (tmp[i][0])
            unlink(tmp[i]);
    free(tmp);
    return rc;
}
