/* main.c — the cdyngen command line: `cdyngen ROBOT.urdf -o DIR` runs the pipeline
 * (pipeline.h: parse, model, check, then render, check, write); `--summary` prints what
 * it understood. The commands `cdyngen bench` (commands/bench_cmd.c) and `cdyngen report`
 * (commands/report_cmd.c) and `cdyngen simulate` (commands/simulate_cmd.c) have files of
 * their own.
 * Exit codes: 0 success, 1 bad input (URDF, frames), 2 bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/bench_cmd.h"
#include "commands/report_cmd.h"
#include "commands/simulate_cmd.h"
#include "commands/cli.h"
#include "pipeline.h"
#include "commands/summary.h"

typedef struct {
    robot_options robot;
    const char *out_dir;
    int summary, force;
} cli_options;

static const char usage_text[] =
    "usage: cdyngen ROBOT.urdf -o DIR [--name NAME] [--floating-base]\n"
    "               [--scalar double|float] [--contact FRAME:3d|6d|friction]...\n"
    "               [--loop FRAME_A:FRAME_B:3d|6d]... [--joint-limits] [--strict] [--size]\n"
    "               [--batch W] [--python] [--summary] [--force] [--help] [--version]\n"
    "       cdyngen bench ROBOT.urdf [options]   (cdyngen bench --help)\n"
    "       cdyngen report ROBOT.urdf [options] -o FILE.html   (cdyngen report --help)\n"
    "       cdyngen simulate ROBOT.urdf [options]   (cdyngen simulate --help)\n"
    "\n"
    "Writes robot-specific, loop-unrolled C for the robot's rigid-body dynamics into DIR:\n"
    "NAME.h, NAME.c (FK, frame Jacobians, RNEA, CRBA, sparse LTL, M^-1, ABA), the model\n"
    "table for the generic runtime (NAME_model.c), the runtime sources and a CMakeLists.txt.\n"
    "\n"
    "  -o, --output DIR     output folder (created if missing; written all or nothing)\n"
    "  --force              replace files in DIR that cdyngen did not "
    "write\n" CLI_ROBOT_OPTIONS_HELP
    "  --python             also write NAME.py, a ctypes module over the shared library the\n"
    "                       CMakeLists.txt builds with -DBUILD_SHARED_LIBS=ON (numpy arrays)\n"
    "  --summary            print what was understood: joints, frames, sizes, sparsity, op counts\n"
    "  --help, --version\n";

static int parse_args(int argc, char **argv, cli_options *o)
{
    int i, rc;
    memset(o, 0, sizeof *o);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--version") == 0) {
            printf("cdyngen %s\n", CDYNGEN_VERSION);
            exit(0);
        } else if ((rc = cli_shared_option(argc, argv, &i, usage_text, &o->robot, &o->out_dir,
                                           &o->force, "a folder")) != 0) {
            if (rc != 1)
                return rc;
        } else if (strcmp(a, "--summary") == 0) {
            o->summary = 1;
        } else if (strcmp(a, "--python") == 0) {
            o->robot.python = 1; /* what -o writes: not a generation option of bench */
        } else if ((rc = cli_positional(&o->robot, a, "")) != 0) {
            return rc;
        }
    }
    if (!o->robot.urdf)
        return cli_usage_error("%s", "no URDF file given");
    if (o->robot.size && o->robot.batch)
        return cli_usage_error("%s", "--batch needs the emitted code: not with --size");
    if (!o->out_dir && !o->summary)
        return cli_usage_error("%s", "no output folder given (-o DIR), and no --summary");
    return cli_check_prefix(&o->robot);
}

int main(int argc, char **argv)
{
    cli_options o;
    kin_tree t;
    int rc;
    if (argc > 1 && strcmp(argv[1], "bench") == 0)
        return bench_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "report") == 0)
        return report_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "simulate") == 0)
        return simulate_main(argc - 1, argv + 1);
    rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc;
    if ((rc = pipeline_load(&o.robot, &t)) != 0)
        return rc;
    if (o.summary)
        summary_print(&o.robot, &t);
    if (o.out_dir && t.nconstraints > 0 && !tree_contacts_only(&t) && !o.summary)
        diag_report("note: %s", SUMMARY_LOOP_NOTE);
    if (o.out_dir)
        rc = pipeline_write(&o.robot, &t, o.out_dir, o.force);
    tree_free(&t);
    return rc;
}
