/* cli.h — what every cdyngen command shares: the generation options, one message shape,
 * and the robot loaded from them (parsed, built, range-checked, validated, constrained). */
#ifndef CDYNGEN_CLI_H
#define CDYNGEN_CLI_H

#include <stddef.h>
#include "constraints.h"
#include "prefix.h"
#include "tree.h"

#define EXIT_INPUT 1            /* bad input: the URDF, a frame name */
#define EXIT_USAGE 2            /* bad usage */
#define CLI_MAX_CONSTRAINTS 64

typedef struct {
    constraint_spec spec;           /* frame_b NULL for a contact */
    char text[512];                 /* the argument, split in place */
} constraint_arg;

/* What decides the generated code: the URDF and the generation options. */
typedef struct {
    const char *urdf, *name;
    char default_name[PREFIX_MAX + 8];  /* the prefix taken from the file name */
    int floating_base, scalar_float;
    int strict;                         /* --strict: warnings are errors */
    int massless_ignore;                /* --massless-links ignore: a singular M is accepted */
    int python;                         /* --python: also NAME.py (cdyngen -o only) */
    int size;                           /* --size: NAME.c calls the generic runtime */
    constraint_arg constraints[CLI_MAX_CONSTRAINTS];
    int nconstraints;
} robot_options;

/* The generation options' lines of a usage text. */
#define CLI_ROBOT_OPTIONS_HELP \
    "  --name NAME          C prefix of every emitted name (default: the URDF file name);\n" \
    "                       not cdyn or cdyn_*, a C header's or a CMake target's name\n" \
    "  --floating-base      add a free-flyer joint between the world and the root link\n" \
    "  --scalar TYPE        double (default) or float\n" \
    "  --contact FRAME:3d|6d   a contact of a link frame with the world (3d: its origin,\n" \
    "                       6d: its placement); the constrained solvers are emitted for the set\n" \
    "  --loop A:B:3d|6d     a loop closure: frame A's origin (3d) or placement (6d) held on B's\n" \
    "  --strict             treat warnings about the URDF as errors\n" \
    "  --massless-links refuse|ignore   when moving links carry no inertia, M is singular:\n" \
    "                       refuse the robot (default), or emit only the kinematics and the\n" \
    "                       inverse dynamics (no ltl, minv, aba, constrained solvers)\n" \
    "  --size               small code for firmware: the same NAME.h, but NAME.c calls the\n" \
    "                       generic runtime over the model table instead of straight-line\n" \
    "                       code (humanoid: 1/14 to 1/22 of the code, mostly 4-15 times\n" \
    "                       the time, 4-5 times the RAM)\n"

/* "cdyngen: " and the message on stderr, one line, control characters escaped. */
void cli_report(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Reports fmt (with arg) and the pointer to --help; returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, const char *arg);

/* argv[*i] as a generation option: 1 when it is one (*i moved past its value), 0 when it is
 * not, EXIT_USAGE (reported) when its value is bad or missing. */
int cli_robot_option(int argc, char **argv, int *i, robot_options *o);
/* argv[*i] as -o/--output VALUE (`what` names the value: "a folder") or --force: 1 when it
 * is one of them, 0 when not, EXIT_USAGE (reported) when the value is missing. */
int cli_output_option(int argc, char **argv, int *i, const char **out, int *force,
                      const char *what);
/* Any other argument a of `command` ("" or "bench: "): the URDF the first time; an unknown
 * option or a second file is EXIT_USAGE (reported). */
int cli_positional(robot_options *o, const char *a, const char *command);
/* The prefix from --name or the file name, checked before anything is read or written:
 * 0, or EXIT_USAGE (reported). */
int cli_check_prefix(robot_options *o);
/* The robot as the options describe it: 0 with *t built (tree_free it), or EXIT_INPUT. */
int cli_load_robot(const robot_options *o, kin_tree *t);
/* The options as a command line ("--name arm7 --scalar double --contact tool:3d"). */
void cli_options_text(const robot_options *o, char *buf, size_t len);
const char *cli_base_name(const char *path);

#endif
