/* cli.c — the parts of the command line every cdyngen command shares. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "scalar_range.h"
#include "urdf.h"
#include "validate.h"

/* Control characters escaped: a name or path from the input cannot start a line of its own
 * or drive the terminal. */
void cli_report(const char *fmt, ...)
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

int cli_usage_error(const char *fmt, const char *arg)
{
    cli_report(fmt, arg);
    fputs("(run 'cdyngen --help' for usage)\n", stderr);
    return EXIT_USAGE;
}

int cli_robot_option(int argc, char **argv, int *i, robot_options *o)
{
    const char *a = argv[*i];
    const int has_value = *i + 1 < argc;
    if (strcmp(a, "--name") == 0) {
        if (!has_value)
            return cli_usage_error("%s needs a name", a);
        o->name = argv[++*i];
    } else if (strcmp(a, "--floating-base") == 0) {
        o->floating_base = 1;
    } else if (strcmp(a, "--strict") == 0) {
        o->strict = 1;
    } else if (strcmp(a, "--size") == 0) {
        o->size = 1;
    } else if (strcmp(a, "--massless-links") == 0) {
        if (!has_value)
            return cli_usage_error("%s needs refuse or ignore", a);
        a = argv[++*i];
        if (strcmp(a, "refuse") != 0 && strcmp(a, "ignore") != 0)
            return cli_usage_error("--massless-links \"%s\": expected refuse or ignore", a);
        o->massless_ignore = strcmp(a, "ignore") == 0;
    } else if (strcmp(a, "--scalar") == 0) {
        if (!has_value)
            return cli_usage_error("%s needs double or float", a);
        a = argv[++*i];
        if (strcmp(a, "float") != 0 && strcmp(a, "double") != 0)
            return cli_usage_error("--scalar \"%s\": expected double or float", a);
        o->scalar_float = strcmp(a, "float") == 0;
    } else if (strcmp(a, "--contact") == 0 || strcmp(a, "--loop") == 0) {
        const int is_loop = strcmp(a, "--loop") == 0;
        constraint_arg *c = &o->constraints[o->nconstraints];
        if (!has_value)
            return cli_usage_error("%s needs an argument", a);
        if (o->nconstraints == CLI_MAX_CONSTRAINTS)
            return cli_usage_error("%s: too many constraints", a);
        if (constraint_spec_parse(&c->spec, argv[++*i], is_loop, c->text, sizeof c->text) < 0)
            return cli_usage_error(is_loop ? "--loop \"%s\": expected FRAME_A:FRAME_B:3d|6d"
                                           : "--contact \"%s\": expected FRAME:3d|6d", argv[*i]);
        o->nconstraints++;
    } else {
        return 0;
    }
    return 1;
}

int cli_output_option(int argc, char **argv, int *i, const char **out, int *force,
                      const char *what)
{
    char msg[128];
    if (strcmp(argv[*i], "--force") == 0) {
        *force = 1;
        return 1;
    }
    if (strcmp(argv[*i], "-o") != 0 && strcmp(argv[*i], "--output") != 0)
        return 0;
    if (*i + 1 >= argc) {
        snprintf(msg, sizeof msg, "%s needs %s", argv[*i], what);
        return cli_usage_error("%s", msg);
    }
    *out = argv[++*i];
    return 1;
}

int cli_positional(robot_options *o, const char *a, const char *command)
{
    const int option = a[0] == '-' && a[1] != '\0';
    char msg[1024];
    if (option || o->urdf) {
        snprintf(msg, sizeof msg, "%s%s \"%s\"", command,
                 option ? "unknown option" : "unexpected argument", a);
        return cli_usage_error("%s", msg);
    }
    o->urdf = a;
    return 0;
}

int cli_check_prefix(robot_options *o)
{
    const char *why;
    if (!o->name) {
        prefix_from_path(o->urdf, o->default_name, sizeof o->default_name);
        o->name = o->default_name;
        if ((why = prefix_problem(o->name)) != NULL) {
            cli_report("the prefix \"%s\" taken from the file name %s; choose another with --name",
                   o->name, why);
            return EXIT_USAGE;
        }
    } else if ((why = prefix_problem(o->name)) != NULL) {
        cli_report("--name \"%s\" %s", o->name, why);
        return EXIT_USAGE;
    }
    return 0;
}

/* The constraint set on the tree (constraints.c checks every frame). */
static int add_constraints(const robot_options *o, kin_tree *t)
{
    constraint_spec specs[CLI_MAX_CONSTRAINTS];
    char err[1024];
    int i;
    for (i = 0; i < o->nconstraints; i++)
        specs[i] = o->constraints[i].spec;
    if (tree_add_constraints(t, specs, o->nconstraints, o->urdf, err, sizeof err) != 0) {
        cli_report("%s", err);
        return EXIT_INPUT;
    }
    return 0;
}

static void print_lines(const text_list *l)
{
    int i;
    for (i = 0; i < l->n; i++)
        cli_report("%s", l->items[i]);
}

/* Warnings are what the dynamics do not need; --strict makes them errors. */
static int strict_refuses(const robot_options *o, int nwarnings)
{
    if (!o->strict || nwarnings == 0)
        return 0;
    cli_report("%s: %d warning%s, and --strict makes them errors", o->urdf, nwarnings,
               nwarnings > 1 ? "s" : "");
    return 1;
}

/* Parses the URDF and builds the tree, printing warnings and notes as they come. */
static int build_tree(const robot_options *o, kin_tree *t)
{
    urdf_model u;
    tree_options topt;
    char err[1024];
    int rc;
    if (urdf_parse_file(o->urdf, &u, err, sizeof err) < 0) {
        cli_report("%s", err);
        return EXIT_INPUT;
    }
    print_lines(&u.warnings);
    memset(&topt, 0, sizeof topt);
    topt.floating_base = o->floating_base;
    rc = tree_build(&u, &topt, t, err, sizeof err);
    if (rc < 0) {
        cli_report("%s", err);
    } else {
        print_lines(&t->notes);
        print_lines(&t->warnings);
        if (strict_refuses(o, u.warnings.n + t->warnings.n)) {
            tree_free(t);
            rc = -1;
        }
    }
    urdf_free(&u);
    return rc < 0 ? EXIT_INPUT : 0;
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
        cli_report("%s", err);
        return EXIT_INPUT;
    }
    if ((body = validate_singular_body(t)) == -1)
        return 0;
    if (body < 0) {
        cli_report("%s: out of memory", o->urdf);
        return EXIT_INPUT;
    }
    validate_singular_text(t, body, why, sizeof why);
    if (o->nconstraints > 0) {
        cli_report("%s:%d: joint \"%s\": the constrained solvers need M^-1, and M is singular: "
                   "%s", o->urdf, t->bodies[body].line, t->bodies[body].joint_name, why);
        return EXIT_INPUT;
    }
    t->m_singular = 1;
    t->singular_body = body;
    cli_report("%s:%d: joint \"%s\": note: M is singular (%s); as --massless-links ignore asks, "
               "ltl, ltl_solve, ltl_factor, minv and aba are left out", o->urdf,
               t->bodies[body].line, t->bodies[body].joint_name, why);
    return 0;
}

int cli_load_robot(const robot_options *o, kin_tree *t)
{
    char err[1024];
    int rc = build_tree(o, t);
    if (rc != 0)
        return rc;
    if (scalar_range_check_tree(t, o->scalar_float, o->urdf, err, sizeof err) < 0) {
        cli_report("%s", err);
        rc = EXIT_INPUT;
    } else if ((rc = check_inertia(o, t)) == 0) {
        rc = add_constraints(o, t);
    }
    if (rc != 0)
        tree_free(t);
    return rc;
}

void cli_options_text(const robot_options *o, char *buf, size_t len)
{
    int i;
    snprintf(buf, len, "--name %s%s --scalar %s%s%s", o->name,
             o->floating_base ? " --floating-base" : "", o->scalar_float ? "float" : "double",
             o->massless_ignore ? " --massless-links ignore" : "", o->size ? " --size" : "");
    for (i = 0; i < o->nconstraints; i++) {
        const constraint_spec *c = &o->constraints[i].spec;
        size_t n = strlen(buf);
        if (c->frame_b)
            snprintf(buf + n, len - n, " --loop %s:%s:%dd", c->frame_a, c->frame_b, c->dim);
        else
            snprintf(buf + n, len - n, " --contact %s:%dd", c->frame_a, c->dim);
    }
}

const char *cli_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}
