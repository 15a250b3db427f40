/* cli.h — what every cdyngen command shares on its command line: the generation options
 * (robot_options, pipeline.h) read from argv, and usage errors. */
#ifndef CDYNGEN_CLI_H
#define CDYNGEN_CLI_H

#include <stddef.h>
#include "pipeline.h"
#include "util/diag.h"

/* The generation options' lines of a usage text. */
#define CLI_ROBOT_OPTIONS_HELP                                                                     \
    "  --name NAME          C prefix of every emitted name (default: the URDF file name);\n"       \
    "                       not cdyn or cdyn_*, a C header's or a CMake target's name\n"           \
    "  --floating-base      add a free-flyer joint between the world and the root link\n"          \
    "  --scalar TYPE        double (default) or float\n"                                           \
    "  --contact FRAME:3d|6d|friction   a contact of a link frame with the world (3d: its\n"     \
    "                       origin, 6d: its placement, held; friction: its origin, unilateral\n"  \
    "                       with Coulomb friction in the contact step R_contact_step); the\n"     \
    "                       constrained solvers are emitted for the set\n"                        \
    "  --loop A:B:3d|6d     a loop closure: frame A's origin (3d) or placement (6d) held on B's\n" \
    "  --joint-limits       the contact step also holds the revolute and prismatic joints'\n"    \
    "                       URDF <limit lower upper> as unilateral constraints\n"               \
    "  --strict             treat warnings about the URDF as errors\n"                             \
    "  --massless-links refuse|ignore   when moving links carry no inertia, M is singular:\n"      \
    "                       refuse the robot (default), or emit only the kinematics and the\n"     \
    "                       inverse dynamics (no ltl, minv, aba, constrained solvers)\n"           \
    "  --size               small code for firmware: the same NAME.h, but NAME.c calls the\n"      \
    "                       generic runtime over the model table instead of straight-line\n"       \
    "                       code (humanoid: 1/14 to 1/22 of the code, mostly 4-15 times\n"         \
    "                       the time, 4-5 times the RAM)\n"                                    \
    "  --batch W            also NAME_batch.h/.c: the unconstrained algorithms, their\n"       \
    "                       derivatives, proxLTL, constrainedABA, proxPV (as generated) on\n"   \
    "                       W states in vector lanes (W = 4, 8, 16, or native: the widest)\n"

/* Reports fmt (with arg) and the pointer to --help; returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, const char *arg);

/* argv[*i] as a generation option: 1 when it is one (*i moved past its value), 0 when it is
 * not, EXIT_USAGE (reported) when its value is bad or missing. */
int cli_robot_option(int argc, char **argv, int *i, robot_options *o);
/* argv[*i] as `name` VALUE into *dst: 1 when it is that option, 0 when not, EXIT_USAGE
 * (reported) when the value is missing. */
int cli_value_option(int argc, char **argv, int *i, const char *name, const char **dst);
/* argv[*i] as -o/--output VALUE (`what` names the value: "a folder") or --force: 1 when it
 * is one of them, 0 when not, EXIT_USAGE (reported) when the value is missing. */
int cli_output_option(int argc, char **argv, int *i, const char **out, int *force,
                      const char *what);
/* argv[*i] as an option `cdyngen` and `cdyngen report` share: --help or -h (prints usage,
 * exits 0), a generation option, -o VALUE or --force. 1 when it is one, 0 when not,
 * EXIT_USAGE (reported) when its value is bad or missing. */
int cli_shared_option(int argc, char **argv, int *i, const char *usage, robot_options *o,
                      const char **out, int *force, const char *what);
/* Any other argument a of `command` ("" or "bench: "): the URDF the first time; an unknown
 * option or a second file is EXIT_USAGE (reported). */
int cli_positional(robot_options *o, const char *a, const char *command);
/* The prefix from --name or the file name, checked before anything is read or written:
 * 0, or EXIT_USAGE (reported). */
int cli_check_prefix(robot_options *o);
#endif
