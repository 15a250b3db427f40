/* generate.h — the robot rendered, checked and written into a folder: what `cdyngen -o`
 * does, and what `cdyngen bench` does in a temporary folder. */
#ifndef CDYNGEN_GENERATE_H
#define CDYNGEN_GENERATE_H

#include "cli.h"
#include "tree.h"

/* The rendered code is refused above this size (README, Security). */
#define GENERATE_MAX_OUTPUT_BYTES (128 << 20)

/* Renders t, checks every constant and the total size, and writes the files (robot, model
 * table, runtime, CMakeLists.txt, the Python module with o->python) into out_dir all or nothing (output.h). Returns 0, or
 * EXIT_INPUT with the reason reported. */
int generate_robot(const robot_options *o, const kin_tree *t, const char *out_dir, int force);

#endif
