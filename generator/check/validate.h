/* validate.h — stage 2b: reject trees whose joint-space inertia matrix is singular. */
#ifndef CDYNGEN_VALIDATE_H
#define CDYNGEN_VALIDATE_H

#include <stddef.h>
#include "model/tree.h"

/* Factorises M at the neutral configuration (sparse LTDL, leaves first) and rejects the
 * tree when a pivot vanishes: the joint of that DoF moves nothing with inertia that its
 * descendants do not already account for. Returns 0, or -1 with
 * "file:line: joint "name": ..." in err. */
int validate_inertia(const kin_tree *t, const char *file, char *err, size_t errlen);
/* The body whose joint makes M singular (the first from the leaves), -1 when M is positive
 * definite, -2 when out of memory. */
int validate_singular_body(const kin_tree *t);
/* Why M is singular, naming that body's joint, for a note or a header comment. */
void validate_singular_text(const kin_tree *t, int body, char *buf, size_t len);

#endif
