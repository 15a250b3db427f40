/* render.h — last generator stage before writing: the emitted code laid out by templates.
 *
 * The generator computes every number, zero and order (emit_*.c); the templates in
 * templates/ only lay the files out. The output depends on the kin_tree and the options
 * only (no time stamps, no paths), so regenerated folders diff cleanly. */
#ifndef CDYNGEN_RENDER_H
#define CDYNGEN_RENDER_H

#include <stddef.h>
#include "model/tree.h"

typedef struct {
    char *path;
    char *content;
} render_file; /* path relative to the out dir */
typedef struct {
    render_file *files;
    int nfiles;
} render_output;

typedef struct {
    const char *name;      /* C prefix, already a valid identifier */
    const char *urdf_file; /* file name only, for the banner */
    const char *options;   /* e.g. "--floating-base --scalar float", for the banner */
    int scalar_float;
    int python; /* also NAME.py, the ctypes module (--python) */
    int size;   /* --size: NAME.c calls the generic runtime (robot_size.c.tpl);
                                * nothing is emitted */
    int batch;  /* --batch: W lanes (4, 8, 16), or -1 for the target's widest (native);
                 * 0: none. Adds NAME_batch.h and NAME_batch.c. */
    size_t max_bytes; /* the emitted functions' text at most (0: no limit): past it, the
                       * rest is not emitted and render_robot returns RENDER_TOO_BIG */
} render_options;
#define RENDER_TOO_BIG 1

/* Renders NAME.h, NAME.c, NAME_model.h, NAME_model.c, CMakeLists.txt, cdyn_scalar.h (which
 * replaces the runtime's own: it fixes the folder's scalar type) and, with o->python, NAME.py.
 * With o->size, NAME.c is the runtime's callers (templates/robot_size.c.tpl).
 * Returns 0; -1 with a message in err, or RENDER_TOO_BIG; *out is empty then. */
int render_robot(const kin_tree *t, const render_options *o, render_output *out, char *err,
                 size_t errlen);
void render_output_free(render_output *out);

/* Op counts per emitted algorithm, for `cdyngen --summary` and the benchmark. */
typedef struct {
    const char *algorithm;
    long mul, add, div, sqrt, sincos;
} emit_count;
int render_op_counts(const kin_tree *t, emit_count *counts, int max); /* returns how many */
/* The frame whose Jacobian render_op_counts counts: of the first of the deepest bodies
 * carrying a frame, the last frame (an end frame: tool, foot, sole); -1 if none moves. */
int render_counted_jacobian_frame(const kin_tree *t);
/* The index K of frame's Jacobian functions (NAME__jacobian_local_K for LOCAL,
 * NAME__jacobian_K for LOCAL_WORLD_ALIGNED): frames at one place share them. */
int render_jacobian_index(const kin_tree *t, int frame);
/* The "jacobian" count (LOCAL columns) for `frame`; 0, or -1 on oom. */
int render_jacobian_count(const kin_tree *t, int frame, emit_count *count);

/* Helpers shared with tests: C-safe text from arbitrary bytes (malloc'd, NULL on oom).
 * comment: no "*" "/" pair, no "??", printable ASCII only (other bytes as \xNN);
 * string: the contents of a C string literal ('"', '\\', '?' and non-printables escaped);
 * python_bytes: the contents of a Python bytes literal b"..." (printable ASCII as is; '"',
 * '\\' and every other byte as \xNN);
 * ident: [A-Za-z0-9_] only, upper-cased when `upper`. */
char *render_comment_text(const char *s);
char *render_string_text(const char *s);
char *render_python_bytes_text(const char *s);
char *render_ident_text(const char *s, int upper);

#endif
