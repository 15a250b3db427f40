/* main.c — the cdyngen command line: parse, build the tree, validate, render, write.
 * Exit codes: 0 success, 1 bad input (URDF, frames), 2 bad usage. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "urdf.h"
#include "tree.h"
#include "constraints.h"
#include "validate.h"
#include "scalar_range.h"

/* Why a set with a loop gets proxLTL and proxLTLs only. */
#define LOOP_NOTE "constrained_aba and prox_pv are not generated: they eliminate the tree " \
    "from the leaves, which takes constraints between a body and the world (contacts); a " \
    "loop ties two branches together"
#include "render.h"
#include "output.h"
#include "prefix.h"
#include "embedded.h"

#define EXIT_INPUT 1
#define EXIT_USAGE 2
#define MAX_CONSTRAINTS 64
#define MAX_OUTPUT_BYTES (128 << 20)

typedef struct {
    constraint_spec spec;           /* frame_b NULL for a contact */
    char text[512];                 /* the argument, split in place */
} constraint_arg;

typedef struct {
    const char *urdf, *out_dir, *name;
    char default_name[PREFIX_MAX + 8];  /* the prefix taken from the file name */
    int floating_base, scalar_float, summary, force;
    constraint_arg constraints[MAX_CONSTRAINTS];
    int ncontacts, nconstraints;
} cli_options;

static const char usage_text[] =
    "usage: cdyngen ROBOT.urdf -o DIR [--name NAME] [--floating-base]\n"
    "               [--scalar double|float] [--contact FRAME:3d|6d]...\n"
    "               [--loop FRAME_A:FRAME_B:3d|6d]... [--summary] [--force] [--help]\n"
    "               [--version]\n"
    "\n"
    "Writes robot-specific, loop-unrolled C for the robot's rigid-body dynamics into DIR:\n"
    "NAME.h, NAME.c (FK, frame Jacobians, RNEA, CRBA, sparse LTL, M^-1, ABA), the model\n"
    "table for the generic runtime (NAME_model.c), the runtime sources and a CMakeLists.txt.\n"
    "\n"
    "  -o, --output DIR     output folder (created if missing; written all or nothing)\n"
    "  --force              replace files in DIR that cdyngen did not write\n"
    "  --name NAME          C prefix of every emitted name (default: the URDF file name);\n"
    "                       not cdyn or cdyn_*, a C header's or a CMake target's name\n"
    "  --floating-base      add a free-flyer joint between the world and the root link\n"
    "  --scalar TYPE        double (default) or float\n"
    "  --contact FRAME:3d|6d   a contact of a link frame with the world (3d: its origin,\n"
    "                       6d: its placement); the constrained solvers are emitted for the set\n"
    "  --loop A:B:3d|6d     a loop closure: frame A's origin (3d) or placement (6d) held on B's\n"
    "  --summary            print what was understood: joints, frames, sizes, sparsity, op counts\n"
    "  --help, --version\n";

/* "cdyngen: " and the message on stderr, control characters escaped: a name or path from
 * the input cannot start a line of its own or drive the terminal. */
static void report(const char *fmt, ...)
{
    char msg[2048];
    const unsigned char *c;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fputs("cdyngen: ", stderr);
    for (c = (const unsigned char *)msg; *c; c++) {
        if (*c == '\n')
            fputs("\\n", stderr);
        else if (*c == '\r')
            fputs("\\r", stderr);
        else if (*c == '\t')
            fputs("\\t", stderr);
        else if (*c < 0x20 || *c == 0x7f)
            fprintf(stderr, "\\x%02x", *c);
        else
            fputc(*c, stderr);
    }
    fputc('\n', stderr);
}

static int usage_error(const char *fmt, const char *arg)
{
    report(fmt, arg);
    fputs("(run 'cdyngen --help' for usage)\n", stderr);
    return EXIT_USAGE;
}

/* The prefix from --name or the file name, checked before anything is read or written. */
static int check_prefix(cli_options *o)
{
    const char *why;
    if (!o->name) {
        prefix_from_path(o->urdf, o->default_name, sizeof o->default_name);
        o->name = o->default_name;
        if ((why = prefix_problem(o->name)) != NULL) {
            report("the prefix \"%s\" taken from the file name %s; choose another with --name",
                   o->name, why);
            return EXIT_USAGE;
        }
    } else if ((why = prefix_problem(o->name)) != NULL) {
        report("--name \"%s\" %s", o->name, why);
        return EXIT_USAGE;
    }
    return 0;
}

static int parse_args(int argc, char **argv, cli_options *o)
{
    int i;
    memset(o, 0, sizeof *o);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            exit(0);
        } else if (strcmp(a, "--version") == 0) {
            printf("cdyngen %s\n", CDYNGEN_VERSION);
            exit(0);
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (!has_value)
                return usage_error("%s needs a folder", a);
            o->out_dir = argv[++i];
        } else if (strcmp(a, "--name") == 0) {
            if (!has_value)
                return usage_error("%s needs a name", a);
            o->name = argv[++i];
        } else if (strcmp(a, "--force") == 0) {
            o->force = 1;
        } else if (strcmp(a, "--floating-base") == 0) {
            o->floating_base = 1;
        } else if (strcmp(a, "--scalar") == 0) {
            if (!has_value)
                return usage_error("%s needs double or float", a);
            a = argv[++i];
            if (strcmp(a, "float") != 0 && strcmp(a, "double") != 0)
                return usage_error("--scalar \"%s\": expected double or float", a);
            o->scalar_float = strcmp(a, "float") == 0;
        } else if (strcmp(a, "--contact") == 0 || strcmp(a, "--loop") == 0) {
            int is_loop = strcmp(a, "--loop") == 0;
            if (!has_value)
                return usage_error("%s needs an argument", a);
            if (o->nconstraints == MAX_CONSTRAINTS)
                return usage_error("%s: too many constraints", a);
            constraint_arg *c = &o->constraints[o->nconstraints];
            if (constraint_spec_parse(&c->spec, argv[++i], is_loop, c->text, sizeof c->text) < 0)
                return usage_error(is_loop ? "--loop \"%s\": expected FRAME_A:FRAME_B:3d|6d"
                                           : "--contact \"%s\": expected FRAME:3d|6d", argv[i]);
            o->nconstraints++;
        } else if (strcmp(a, "--summary") == 0) {
            o->summary = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error("unknown option \"%s\"", a);
        } else if (!o->urdf) {
            o->urdf = a;
        } else {
            return usage_error("unexpected argument \"%s\"", a);
        }
    }
    if (!o->urdf)
        return usage_error("%s", "no URDF file given");
    if (!o->out_dir && !o->summary)
        return usage_error("%s", "no output folder given (-o DIR), and no --summary");
    return check_prefix(o);
}

/* The constraint set on the tree (constraints.c checks every frame). */
static int add_constraints(const cli_options *o, kin_tree *t)
{
    constraint_spec specs[MAX_CONSTRAINTS];
    char err[1024];
    int i;
    for (i = 0; i < o->nconstraints; i++)
        specs[i] = o->constraints[i].spec;
    if (tree_add_constraints(t, specs, o->nconstraints, o->urdf, err, sizeof err) != 0) {
        report("%s", err);
        return EXIT_INPUT;
    }
    return 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static const char *kind_name(tree_joint_kind k)
{
    static const char *names[] = {"revolute", "continuous", "prismatic", "planar", "free-flyer"};
    return names[k];
}

static void axis_text(const tree_body *b, char *s, size_t n)
{
    if (b->kind == TREE_FREEFLYER)
        snprintf(s, n, "-");
    else if (b->axis_index >= 0)
        snprintf(s, n, "%c%c", b->axis_sign > 0 ? '+' : '-', "xyz"[b->axis_index]);
    else
        snprintf(s, n, "(%.6g %.6g %.6g)", b->axis[0], b->axis[1], b->axis[2]);
}

/* Each constraint's rows and support, and the nonzeros of the KKT factor. */
static void print_constraints(const kin_tree *t)
{
    long nnz_G = t->nconstraints ? tree_constraint_factor_pattern(t, NULL) : 0;
    int i, k;
    if (t->nconstraints == 0)
        return;
    printf("constraints: %d, dimension %d (rows of J and lambda)\n", t->nconstraints, t->nc);
    for (i = 0; i < t->nconstraints; i++) {
        const tree_constraint *c = &t->constraints[i];
        if (c->is_loop)
            printf("  loop %dD %s - %s", c->dim, t->frames[c->frame_a].name,
                   t->frames[c->frame_b].name);
        else
            printf("  contact %dD %s", c->dim, t->frames[c->frame_a].name);
        printf(", rows %d..%d, supported by %d DoFs:", c->row, c->row + c->dim - 1, c->nsupport);
        for (k = 0; k < c->nsupport; k++)
            printf(" %d", c->support[k]);
        printf("\n");
    }
    printf("KKT factor of [[-mu I, J], [J^T, M]] (constraints first) nonzeros: %ld "
           "(M's factor %d, J block %d, constraint block %ld of %d)\n",
           (long)t->nnz_L + t->nnz_J + nnz_G, t->nnz_L, t->nnz_J, nnz_G, t->nc * (t->nc + 1) / 2);
    printf("M + J^T J / mu factor (proxLTLs) nonzeros: %ld (M's factor %d)\n",
           tree_augmented_pattern(t, NULL), t->nnz_L);
    printf("solvers: prox_ltl, prox_ltls%s, delassus, impulse\n",
           tree_contacts_only(t) ? ", constrained_aba, prox_pv" : "");
    if (!tree_contacts_only(t))
        printf("  (%s)\n", LOOP_NOTE);
}

static void print_summary(const cli_options *o, const kin_tree *t)
{
    emit_count counts[32];
    int i, n;
    printf("robot %s from %s, %s base\n", t->name, base_name(o->urdf),
           t->floating ? "floating (free-flyer)" : "fixed");
    printf("nq %d  nv %d  bodies %d  frames %d  depth %d\n", t->nq, t->nv, t->nbodies,
           t->nframes, t->max_depth);
    printf("nonzeros: M %d of %d, LTL factor %d of %d\n", t->nnz_M, t->nv * t->nv, t->nnz_L,
           t->nv * (t->nv + 1) / 2);
    printf("joints, in order:\n");
    printf("  %3s  %-32s %-11s %-22s %-32s %4s %4s\n", "id", "joint", "type", "axis", "parent",
           "q", "v");
    for (i = 0; i < t->nbodies; i++) {
        const tree_body *b = &t->bodies[i];
        char axis[64];
        axis_text(b, axis, sizeof axis);
        printf("  %3d  %-32s %-11s %-22s %-32s %4d %4d\n", i + 1, b->joint_name, kind_name(b->kind),
               axis, b->parent < 0 ? "world" : t->bodies[b->parent].joint_name, b->idx_q, b->idx_v);
    }
    printf("frames (URDF links):\n");
    for (i = 0; i < t->nframes; i++)
        printf("  %-40s on %s\n", t->frames[i].name,
               t->frames[i].body < 0 ? "world" : t->bodies[t->frames[i].body].joint_name);
    print_constraints(t);
    n = render_op_counts(t, counts, (int)(sizeof counts / sizeof counts[0]));
    if (n > 0) {
        printf("emitted operations:\n  %-21s %8s %8s %6s %6s %7s\n", "algorithm", "mul", "add",
               "div", "sqrt", "sincos");
        for (i = 0; i < n; i++)
            printf("  %-21s %8ld %8ld %6ld %6ld %7ld\n", counts[i].algorithm, counts[i].mul,
                   counts[i].add, counts[i].div, counts[i].sqrt, counts[i].sincos);
    }
}

/* The runtime sources are shipped beside the generated code, so the folder builds alone. */
static int collect_files(const render_output *r, output_file **files)
{
    const embedded_file *e;
    int n = 0, i;
    for (e = embedded_files; e->path; e++)
        n += strncmp(e->path, "runtime/", 8) == 0;
    *files = calloc((size_t)(n + r->nfiles), sizeof **files);
    if (!*files)
        return -1;
    for (i = 0; i < r->nfiles; i++) {
        (*files)[i].name = r->files[i].path;
        (*files)[i].content = r->files[i].content;
    }
    for (e = embedded_files; e->path; e++)
        if (strncmp(e->path, "runtime/", 8) == 0) {
            (*files)[i].name = e->path + 8;
            (*files)[i++].content = e->text;
        }
    return i;
}

/* What is written must compile as it is and stay a size a compiler and a firmware image
 * can take: every printed constant representable in the scalar, and at most
 * MAX_OUTPUT_BYTES in all. The DoF and chain-work limits checked after the tree walk
 * bound the rendering's time and memory; this bounds what reaches the disk. */
static int check_rendered(const cli_options *o, const kin_tree *t, const render_output *r,
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
    if (bytes > MAX_OUTPUT_BYTES) {
        snprintf(err, len, "%s: robot with %d DoFs: the generated code would be %lu MiB, more "
                 "than the %d MiB cdyngen writes; split the robot or generate fewer "
                 "constraints", o->urdf, t->nv, (unsigned long)(bytes >> 20),
                 MAX_OUTPUT_BYTES >> 20);
        return -1;
    }
    return 0;
}

static int generate(const cli_options *o, const kin_tree *t)
{
    char err[1024], name[128], opts[4096];
    render_options ro;
    render_output r;
    output_file *files;
    int n, rc, i;
    snprintf(name, sizeof name, "%s", o->name);
    snprintf(opts, sizeof opts, "--name %s%s --scalar %s", name,
             o->floating_base ? " --floating-base" : "", o->scalar_float ? "float" : "double");
    for (i = 0; i < o->nconstraints; i++) {
        const constraint_spec *c = &o->constraints[i].spec;
        size_t len = strlen(opts);
        if (c->frame_b)
            snprintf(opts + len, sizeof opts - len, " --loop %s:%s:%dd", c->frame_a, c->frame_b,
                     c->dim);
        else
            snprintf(opts + len, sizeof opts - len, " --contact %s:%dd", c->frame_a, c->dim);
    }
    memset(&ro, 0, sizeof ro);
    ro.name = name;
    ro.urdf_file = base_name(o->urdf);
    ro.options = opts;
    ro.scalar_float = o->scalar_float;
    if (render_robot(t, &ro, &r, err, sizeof err) < 0) {
        report("%s", err);
        return EXIT_INPUT;
    }
    if (check_rendered(o, t, &r, err, sizeof err) < 0) {
        report("%s", err);
        render_output_free(&r);
        return EXIT_INPUT;
    }
    n = collect_files(&r, &files);
    rc = n < 0 ? -1 : output_write_all(o->out_dir, files, n, o->force, err, sizeof err);
    if (n < 0)
        snprintf(err, sizeof err, "out of memory");
    if (rc < 0)
        report("%s", err);
    free(files);
    render_output_free(&r);
    return rc < 0 ? EXIT_INPUT : 0;
}

int main(int argc, char **argv)
{
    cli_options o;
    urdf_model u;
    kin_tree t;
    tree_options topt;
    char err[1024];
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc;
    if (urdf_parse_file(o.urdf, &u, err, sizeof err) < 0) {
        report("%s", err);
        return EXIT_INPUT;
    }
    topt.floating_base = o.floating_base;
    rc = tree_build(&u, &topt, &t, err, sizeof err);
    urdf_free(&u);
    if (rc < 0) {
        report("%s", err);
        return EXIT_INPUT;
    }
    if (scalar_range_check_tree(&t, o.scalar_float, o.urdf, err, sizeof err) < 0 ||
        validate_inertia(&t, o.urdf, err, sizeof err) < 0) {
        report("%s", err);
        rc = EXIT_INPUT;
    } else {
        rc = add_constraints(&o, &t);
    }
    if (rc == 0 && o.summary)
        print_summary(&o, &t);
    if (rc == 0 && o.out_dir && t.nconstraints > 0 && !tree_contacts_only(&t) && !o.summary)
        report("note: %s", LOOP_NOTE);
    if (rc == 0 && o.out_dir)
        rc = generate(&o, &t);
    tree_free(&t);
    return rc;
}
