/* cli.c — the parts of the command line every cdyngen command shares. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/cli.h"
#include "check/scalar_range.h"
#include "parse/urdf.h"
#include "check/validate.h"

int cli_usage_error(const char *fmt, const char *arg)
{
    diag_report(fmt, arg);
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
    } else if (strcmp(a, "--batch") == 0) {
        if (!has_value)
            return cli_usage_error("%s needs 4, 8, 16 or native", a);
        a = argv[++*i];
        o->batch = strcmp(a, "native") == 0 ? -1 : strcmp(a, "4") == 0 ? 4
                 : strcmp(a, "8") == 0      ? 8
                 : strcmp(a, "16") == 0     ? 16
                                            : 0;
        if (!o->batch)
            return cli_usage_error("--batch \"%s\": expected 4, 8, 16 or native", a);
    } else if (strcmp(a, "--joint-limits") == 0) {
        o->joint_limits = 1;
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
        if (o->nconstraints == ROBOT_MAX_CONSTRAINTS)
            return cli_usage_error("%s: too many constraints", a);
        if (constraint_spec_parse(&c->spec, argv[++*i], is_loop, c->text, sizeof c->text) < 0)
            return cli_usage_error(is_loop ? "--loop \"%s\": expected FRAME_A:FRAME_B:3d|6d"
                                           : "--contact \"%s\": expected FRAME:3d|6d|friction",
                                   argv[*i]);
        o->nconstraints++;
    } else {
        return 0;
    }
    return 1;
}

int cli_value_option(int argc, char **argv, int *i, const char *name, const char **dst)
{
    if (strcmp(argv[*i], name) != 0)
        return 0;
    if (*i + 1 >= argc)
        return cli_usage_error("%s needs a value", name);
    *dst = argv[++*i];
    return 1;
}

int cli_output_option(int argc, char **argv, int *i, const char **out, int *force, const char *what)
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
            diag_report("the prefix \"%s\" taken from the file name %s; choose another with --name",
                        o->name, why);
            return EXIT_USAGE;
        }
    } else if ((why = prefix_problem(o->name)) != NULL) {
        diag_report("--name \"%s\" %s", o->name, why);
        return EXIT_USAGE;
    }
    return 0;
}

int cli_shared_option(int argc, char **argv, int *i, const char *usage, robot_options *o,
                      const char **out, int *force, const char *what)
{
    int rc;
    if (strcmp(argv[*i], "--help") == 0 || strcmp(argv[*i], "-h") == 0) {
        fputs(usage, stdout);
        exit(0);
    }
    if ((rc = cli_robot_option(argc, argv, i, o)) != 0)
        return rc;
    return cli_output_option(argc, argv, i, out, force, what);
}
