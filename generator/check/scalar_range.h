/* scalar_range.h — stage 2c and 4b: every number the generated code holds as a constant is
 * finite and a normal number of the chosen scalar (double or float). */
#ifndef CDYNGEN_SCALAR_RANGE_H
#define CDYNGEN_SCALAR_RANGE_H

#include <stddef.h>
#include "model/tree.h"

/* The model's own numbers (each body's placement, axis, mass, com and inertia, each frame's
 * placement): 0 when each is zero or of a magnitude in [smallest normal, largest finite] of
 * the scalar, else -1 with "file:line: joint or link "name": ..." in err. A subnormal
 * would be flushed or lose its digits, a larger magnitude is infinity. */
int scalar_range_check_tree(const kin_tree *t, int scalar_float, const char *file, char *err,
                            size_t errlen);

/* The same for every CDYN_R(...) constant of rendered C text: the values the emitter folded
 * at generation time (1 / a pivot of 1e-310 kg m^2 is infinity). An offending constant is
 * laid at the body of the body banner ("body N \"joint\" ...") before it. */
int scalar_range_check_text(const kin_tree *t, int scalar_float, const char *file, const char *text,
                            char *err, size_t errlen);

#endif
