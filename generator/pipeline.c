/* pipeline.c — cdyngen's stages in order (pipeline.h names them): parse, model, check,
 * then render, check the text, write. The commands (commands/) call these functions; no
 * stage calls another stage's caller. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check/inertia_check.h"
#include "check/scalar_range.h"
#include "check/validate.h"
#include "pipeline.h"
#include "render/embedded.h"
#include "render/render.h"
#include "util/diag.h"
#include "util/text.h"
#include "write/output.h"

static int parse_urdf(const robot_options *o, urdf_model *u);
static int build_tree(const robot_options *o, const urdf_model *u, kin_tree *t);
static int check_ranges(const robot_options *o, const kin_tree *t);
static int check_inertia(const robot_options *o, kin_tree *t);
static int add_constraints(const robot_options *o, kin_tree *t);
static int render_files(const robot_options *o, const kin_tree *t, render_output *r);
static int check_rendered(const robot_options *o, const kin_tree *t, const render_output *r);
static int write_files(const render_output *r, const char *out_dir, int force);

int pipeline_load(const robot_options *o, kin_tree *t)
{
    urdf_model u;
    int rc = parse_urdf(o, &u); /* parse/: URDF -> urdf_model */
    if (rc != 0)
        return rc;
    rc = build_tree(o, &u, t); /* model/: the tree; check/: its inertias */
    urdf_free(&u);
    if (rc != 0)
        return rc;
    rc = check_ranges(o, t); /* check/: its numbers fit the scalar */
    if (rc == 0)
        rc = check_inertia(o, t); /* check/: M is not singular */
    if (rc == 0)
        rc = add_constraints(o, t); /* model/: the constraint set */
    if (rc != 0)
        tree_free(t);
    return rc;
}

int pipeline_write(const robot_options *o, const kin_tree *t, const char *out_dir, int force)
{
    render_output r;
    int rc = render_files(o, t, &r); /* symbolic/, emit/, render/ */
    if (rc != 0)
        return rc;
    rc = check_rendered(o, t, &r); /* check/: every constant, the size */
    if (rc == 0)
        rc = write_files(&r, out_dir, force); /* write/: all or nothing */
    render_output_free(&r);
    return rc;
}

int pipeline_tree(const urdf_model *u, const tree_options *opt, kin_tree *t, char *err,
                  size_t errlen)
{
    if (tree_build(u, opt, t, err, errlen) < 0)
        return -1;
    if (inertia_check(u, t, err, errlen) < 0) {
        tree_free(t);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- load */

/* The constraint set on the tree (constraints.c checks every frame). */
static int add_constraints(const robot_options *o, kin_tree *t)
{
    constraint_spec specs[ROBOT_MAX_CONSTRAINTS];
    char err[1024];
    int i;
    for (i = 0; i < o->nconstraints; i++)
        specs[i] = o->constraints[i].spec;
    if (tree_add_constraints(t, specs, o->nconstraints, o->urdf, err, sizeof err) != 0) {
        diag_report("%s", err);
        return EXIT_INPUT;
    }
    t->joint_limits = o->joint_limits;
    if (o->joint_limits && tree_limited_joints(t, NULL) == 0)
        diag_report("%s: note: --joint-limits: no revolute or prismatic joint has a <limit> "
                    "with lower < upper; the contact step holds none", o->urdf);
    return 0;
}

static void print_lines(const text_list *l)
{
    int i;
    for (i = 0; i < l->n; i++)
        diag_report("%s", l->items[i]);
}

/* Warnings are what the dynamics do not need; --strict makes them errors. */
static int strict_refuses(const robot_options *o, int nwarnings)
{
    if (!o->strict || nwarnings == 0)
        return 0;
    diag_report("%s: %d warning%s, and --strict makes them errors", o->urdf, nwarnings,
                nwarnings > 1 ? "s" : "");
    return 1;
}

/* parse/: the file read into urdf_model, its warnings printed. */
static int parse_urdf(const robot_options *o, urdf_model *u)
{
    char err[1024];
    if (urdf_parse_file(o->urdf, u, err, sizeof err) < 0) {
        diag_report("%s", err);
        return EXIT_INPUT;
    }
    print_lines(&u->warnings);
    return 0;
}

/* model/ and check/'s inertia check: the tree, its notes and warnings printed; --strict
 * refuses it when the file or the tree gave any warning. */
static int build_tree(const robot_options *o, const urdf_model *u, kin_tree *t)
{
    tree_options topt;
    char err[1024];
    memset(&topt, 0, sizeof topt);
    topt.floating_base = o->floating_base;
    if (pipeline_tree(u, &topt, t, err, sizeof err) < 0) {
        diag_report("%s", err);
        return EXIT_INPUT;
    }
    print_lines(&t->notes);
    print_lines(&t->warnings);
    if (strict_refuses(o, u->warnings.n + t->warnings.n)) {
        tree_free(t);
        return EXIT_INPUT;
    }
    return 0;
}

/* check/: every number the tree holds representable in the scalar. */
static int check_ranges(const robot_options *o, const kin_tree *t)
{
    char err[1024];
    if (scalar_range_check_tree(t, o->scalar_float, o->urdf, err, sizeof err) == 0)
        return 0;
    diag_report("%s", err);
    return EXIT_INPUT;
}

/* A singular M: refused, or with --massless-links ignore kept with a note (the forward
 * dynamics are then left out, and constraints, whose solvers need them, refused). */
static int check_inertia(const robot_options *o, kin_tree *t)
{
    char err[1024], why[512];
    int body;
    if (!o->massless_ignore) {
        if (validate_inertia(t, o->urdf, err, sizeof err) == 0)
            return 0;
        diag_report("%s", err);
        return EXIT_INPUT;
    }
    if ((body = validate_singular_body(t)) == -1)
        return 0;
    if (body < 0) {
        diag_report("%s: out of memory", o->urdf);
        return EXIT_INPUT;
    }
    validate_singular_text(t, body, why, sizeof why);
    if (o->nconstraints > 0) {
        diag_report("%s:%d: joint \"%s\": the constrained solvers need M^-1, and M is singular: "
                    "%s",
                    o->urdf, t->bodies[body].line, t->bodies[body].joint_name, why);
        return EXIT_INPUT;
    }
    t->m_singular = 1;
    t->singular_body = body;
    diag_report("%s:%d: joint \"%s\": note: M is singular (%s); as --massless-links ignore asks, "
                "ltl, ltl_solve, ltl_factor, minv and aba are left out",
                o->urdf, t->bodies[body].line, t->bodies[body].joint_name, why);
    return 0;
}

/* ---------------------------------------------------------------- write */

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

/* The robot's code passes PIPELINE_MAX_OUTPUT_BYTES: `bytes` in all, or 0 when rendering
 * stopped at the limit (the functions emitted so far already pass it). */
static void report_too_big(const robot_options *o, const kin_tree *t, size_t bytes)
{
    char size[64] = "more than the";
    if (bytes > 0)
        snprintf(size, sizeof size, "%lu MiB, more than the", (unsigned long)(bytes >> 20));
    diag_report("%s: robot with %d DoFs: the generated code would be %s %d MiB cdyngen "
                "writes; split the robot or generate fewer constraints",
                o->urdf, t->nv, size, PIPELINE_MAX_OUTPUT_BYTES >> 20);
}

/* What is written must compile as it is and stay a size a compiler and a firmware image
 * can take: every printed constant representable in the scalar, and at most
 * PIPELINE_MAX_OUTPUT_BYTES in all. The DoF and chain-work limits checked after the tree
 * walk bound the rendering's time and memory; this bounds what reaches the disk. */
static int check_rendered(const robot_options *o, const kin_tree *t, const render_output *r)
{
    char err[1024];
    size_t bytes = 0;
    int i;
    for (i = 0; i < r->nfiles; i++) {
        if (scalar_range_check_text(t, o->scalar_float, o->urdf, r->files[i].content, err,
                                    sizeof err) < 0) {
            diag_report("%s", err);
            return EXIT_INPUT;
        }
        bytes += strlen(r->files[i].content);
    }
    if (bytes > PIPELINE_MAX_OUTPUT_BYTES) {
        report_too_big(o, t, bytes);
        return EXIT_INPUT;
    }
    return 0;
}

/* render/: the robot's files as text. */
static int render_files(const robot_options *o, const kin_tree *t, render_output *r)
{
    char err[1024], name[128], opts[4096];
    render_options ro;
    int rc;
    snprintf(name, sizeof name, "%s", o->name);
    pipeline_options_text(o, opts, sizeof opts);
    memset(&ro, 0, sizeof ro);
    ro.name = name;
    ro.urdf_file = text_base_name(o->urdf);
    ro.options = opts;
    ro.scalar_float = o->scalar_float;
    ro.python = o->python;
    ro.size = o->size;
    ro.batch = o->batch;
    ro.max_bytes = PIPELINE_MAX_OUTPUT_BYTES;
    rc = render_robot(t, &ro, r, err, sizeof err);
    if (rc == 0)
        return 0;
    if (rc == RENDER_TOO_BIG)
        report_too_big(o, t, 0);
    else
        diag_report("%s", err);
    return EXIT_INPUT;
}

/* write/: the rendered files and the runtime beside them, all or nothing. */
static int write_files(const render_output *r, const char *out_dir, int force)
{
    char err[1024];
    output_file *files;
    int n = collect_files(r, &files), rc;
    rc = n < 0 ? -1 : output_write_all(out_dir, files, n, force, err, sizeof err);
    if (n < 0)
        snprintf(err, sizeof err, "out of memory");
    if (rc < 0)
        diag_report("%s", err);
    free(files);
    return rc < 0 ? EXIT_INPUT : 0;
}

void pipeline_options_text(const robot_options *o, char *buf, size_t len)
{
    int i;
    snprintf(buf, len, "--name %s%s --scalar %s%s%s%s", o->name,
             o->floating_base ? " --floating-base" : "", o->scalar_float ? "float" : "double",
             o->massless_ignore ? " --massless-links ignore" : "", o->size ? " --size" : "",
             o->joint_limits ? " --joint-limits" : "");
    if (o->batch) {
        size_t n = strlen(buf);
        if (o->batch < 0)
            snprintf(buf + n, len - n, " --batch native");
        else
            snprintf(buf + n, len - n, " --batch %d", o->batch);
    }
    for (i = 0; i < o->nconstraints; i++) {
        const constraint_spec *c = &o->constraints[i].spec;
        size_t n = strlen(buf);
        if (c->frame_b)
            snprintf(buf + n, len - n, " --loop %s:%s:%dd", c->frame_a, c->frame_b, c->dim);
        else
            snprintf(buf + n, len - n, " --contact %s:%s", c->frame_a,
                     c->friction ? "friction" : c->dim == 3 ? "3d" : "6d");
    }
}
