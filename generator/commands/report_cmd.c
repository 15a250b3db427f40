/* report_cmd.c — `cdyngen report`: load the robot as the generator would, build the page,
 * write it with the generator's own guarantees (output.h: all or nothing, never over a
 * file cdyngen did not write unless --force, temporaries removed on a signal). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/text.h"
#include "commands/cli.h"
#include "write/output.h"
#include "commands/report_cmd.h"
#include "commands/report_html.h"

typedef struct {
    robot_options robot;
    const char *out;
    int force;
} report_options;

static const char usage_text[] =
    "usage: cdyngen report ROBOT.urdf [generation options] -o FILE.html [--force]\n"
    "\n"
    "Writes one self-contained HTML page (no network access: CSS, script and SVG inline)\n"
    "showing how cdyngen understood the robot: the kinematic tree as a diagram, with frames,\n"
    "contacts and loops; the sparsity of M, of its factor and of the constrained KKT factor;\n"
    "the joints in Pinocchio's order; the frames; the emitted operations per algorithm; and\n"
    "what was specialised.\n"
    "\n"
    "  -o, --output FILE    the page, NAME.html (its folder is created if missing)\n"
    "  --force              replace FILE even if cdyngen did not write it\n"
    "\n"
    "Generation options:\n" CLI_ROBOT_OPTIONS_HELP;

static int parse_report_args(int argc, char **argv, report_options *o)
{
    const char *name;
    int i, rc;
    memset(o, 0, sizeof *o);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((rc = cli_shared_option(argc, argv, &i, usage_text, &o->robot, &o->out, &o->force,
                                    "a file name")) != 0) {
            if (rc != 1)
                return rc;
        } else if ((rc = cli_positional(&o->robot, a, "report: ")) != 0) {
            return rc;
        }
    }
    if (!o->robot.urdf)
        return cli_usage_error("%s", "report: no URDF file given");
    if (!o->out)
        return cli_usage_error("%s", "report: no output file given (-o FILE.html)");
    /* the marker goes in an HTML comment for .html files only (output.c) */
    name = text_base_name(o->out);
    if (strlen(name) < 6 || strcmp(name + strlen(name) - 5, ".html") != 0)
        return cli_usage_error("-o \"%s\": expected a file name ending in .html", o->out);
    return cli_check_prefix(&o->robot);
}

/* FILE as output_write_all takes it: its folder ("." when it names none, "/" for the
 * root) and its name (checked by parse_report_args). */
static char *folder_of(const char *path, const char *name)
{
    size_t n = name > path ? (size_t)(name - path - 1) : 0;
    char *dir = malloc(n + 2);
    if (!dir)
        return NULL;
    if (name == path)
        strcpy(dir, ".");
    else if (n == 0)
        strcpy(dir, "/");
    else {
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    return dir;
}

static int write_page(const report_options *o, const char *html)
{
    output_file file;
    char err[1024], *dir;
    int rc = 0;
    file.name = text_base_name(o->out);
    file.content = html;
    if (!(dir = folder_of(o->out, file.name))) {
        diag_report("out of memory");
        return EXIT_INPUT;
    }
    if (output_write_all(dir, &file, 1, o->force, err, sizeof err) < 0) {
        diag_report("%s", err);
        rc = EXIT_INPUT;
    }
    free(dir);
    return rc;
}

int report_main(int argc, char **argv)
{
    report_options o;
    report_info info;
    kin_tree t;
    char options[4096], err[1024], *html;
    int rc = parse_report_args(argc, argv, &o);
    if (rc != 0 || (rc = pipeline_load(&o.robot, &t)) != 0)
        return rc;
    pipeline_options_text(&o.robot, options, sizeof options);
    info.urdf_file = text_base_name(o.robot.urdf);
    info.options = options;
    info.version = CDYNGEN_VERSION;
    if (report_html(&t, &info, &html, err, sizeof err) < 0) {
        diag_report("%s: %s", o.robot.urdf, err);
        rc = EXIT_INPUT;
    } else {
        rc = write_page(&o, html);
        free(html);
    }
    tree_free(&t);
    return rc;
}
