/* generate.c — render, check, write: the generated folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "embedded.h"
#include "generate.h"
#include "output.h"
#include "render.h"
#include "scalar_range.h"

/* A runtime file the folder ships: one under runtime/ that no rendered file replaces
 * (cdyn_scalar.h is rendered, fixing the folder's scalar type). */
static int shipped_runtime_file(const render_output *r, const char *path)
{
    int i;
    if (strncmp(path, "runtime/", 8) != 0)
        return 0;
    for (i = 0; i < r->nfiles; i++)
        if (strcmp(r->files[i].path, path + 8) == 0)
            return 0;
    return 1;
}

/* The runtime sources are shipped beside the generated code, so the folder builds alone. */
static int collect_files(const render_output *r, output_file **files)
{
    const embedded_file *e;
    int n = 0, i;
    for (e = embedded_files; e->path; e++)
        n += shipped_runtime_file(r, e->path);
    *files = calloc((size_t)(n + r->nfiles), sizeof **files);
    if (!*files)
        return -1;
    for (i = 0; i < r->nfiles; i++) {
        (*files)[i].name = r->files[i].path;
        (*files)[i].content = r->files[i].content;
    }
    for (e = embedded_files; e->path; e++)
        if (shipped_runtime_file(r, e->path)) {
            (*files)[i].name = e->path + 8;
            (*files)[i++].content = e->text;
        }
    return i;
}

/* What is written must compile as it is and stay a size a compiler and a firmware image
 * can take: every printed constant representable in the scalar, and at most
 * GENERATE_MAX_OUTPUT_BYTES in all. The DoF and chain-work limits checked after the tree
 * walk bound the rendering's time and memory; this bounds what reaches the disk. */
static int check_rendered(const robot_options *o, const kin_tree *t, const render_output *r,
                          char *err, size_t len)
{
    size_t bytes = 0;
    int i;
    for (i = 0; i < r->nfiles; i++) {
        if (scalar_range_check_text(t, o->scalar_float, o->urdf, r->files[i].content, err,
                                    len) < 0)
            return -1;
        bytes += strlen(r->files[i].content);
    }
    if (bytes > GENERATE_MAX_OUTPUT_BYTES) {
        snprintf(err, len, "%s: robot with %d DoFs: the generated code would be %lu MiB, more "
                 "than the %d MiB cdyngen writes; split the robot or generate fewer "
                 "constraints", o->urdf, t->nv, (unsigned long)(bytes >> 20),
                 GENERATE_MAX_OUTPUT_BYTES >> 20);
        return -1;
    }
    return 0;
}

int generate_robot(const robot_options *o, const kin_tree *t, const char *out_dir, int force)
{
    char err[1024], name[128], opts[4096];
    render_options ro;
    render_output r;
    output_file *files;
    int n, rc;
    snprintf(name, sizeof name, "%s", o->name);
    cli_options_text(o, opts, sizeof opts);
    memset(&ro, 0, sizeof ro);
    ro.name = name;
    ro.urdf_file = cli_base_name(o->urdf);
    ro.options = opts;
    ro.scalar_float = o->scalar_float;
    ro.python = o->python;
    ro.size = o->size;
    if (render_robot(t, &ro, &r, err, sizeof err) < 0) {
        cli_report("%s", err);
        return EXIT_INPUT;
    }
    if (check_rendered(o, t, &r, err, sizeof err) < 0) {
        cli_report("%s", err);
        render_output_free(&r);
        return EXIT_INPUT;
    }
    n = collect_files(&r, &files);
    rc = n < 0 ? -1 : output_write_all(out_dir, files, n, force, err, sizeof err);
    if (n < 0)
        snprintf(err, sizeof err, "out of memory");
    if (rc < 0)
        cli_report("%s", err);
    free(files);
    render_output_free(&r);
    return rc < 0 ? EXIT_INPUT : 0;
}
