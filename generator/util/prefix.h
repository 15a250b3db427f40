/* prefix.h — the C prefix of every emitted name (files NAME.c, NAME.h, NAME_model.[ch];
 * symbols NAME_*; macros NAME_*; the CMake target NAME): taken from --name or from the URDF's
 * file name, and refused where it would collide with what else the output folder holds or
 * what its users build it with. */
#ifndef CDYNGEN_PREFIX_H
#define CDYNGEN_PREFIX_H

#include <stddef.h>

#define PREFIX_MAX 64 /* characters; longer prefixes are refused, never truncated */

/* The file name without folder and extension, other characters as '_', and "robot_" before
 * a leading digit or underscore; "robot" when nothing is left. */
void prefix_from_path(const char *path, char *name, size_t n);

/* NULL when name is a usable prefix, else why it is not (a phrase after the name). */
const char *prefix_problem(const char *name);

#endif
