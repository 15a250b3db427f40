/* output.h — last stage: files written into the output folder all or nothing. */
#ifndef CDYNGEN_OUTPUT_H
#define CDYNGEN_OUTPUT_H

#include <stddef.h>

typedef struct {
    const char *name;       /* file name inside the folder (no '/') */
    const char *content;    /* NUL-terminated text */
} output_file;

/* Creates `dir` (and missing parents), writes every file to a temporary name beside its
 * target, and renames them into place only once all were written. On failure nothing in
 * `dir` is changed, the temporaries are removed, and err names the path and reason. */
int output_write_all(const char *dir, const output_file *files, int n, char *err,
                     size_t errlen);

#endif
