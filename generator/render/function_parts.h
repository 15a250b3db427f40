/* function_parts.h — a generated function too big to compile as one, emitted as parts
 * (expr_emit_parts) that pass their values through d->carry. Internal to render/. */
#ifndef CDYNGEN_RENDER_FUNCTION_PARTS_H
#define CDYNGEN_RENDER_FUNCTION_PARTS_H

#include "model/tree.h"
#include "render/programs.h"
#include "render/template.h"

/* The parameter list each part of the function `name` repeats, as the templates declare
 * it ("N_data *d, const cdyn_real *q", N the robot's prefix); NULL for a function that is
 * always emitted whole. */
const char *part_signature(const char *name);

/* Program a's template value, in parts when it is big: {body, ops, unused, parts_text}, the
 * parts as static CDYN_NOINLINE functions (the template writes parts_text before the
 * function) and the body calling them in turn over d->carry. With a lane type (--batch and
 * a function with a batch form; else NULL), also {lanes, lanes_parts_text}: the same for
 * PREFIX_batch_data, retyped (lanes.h). ncarry[0] and, with a lane type, ncarry[1] are
 * raised to the carry[] length the parts need. NULL out of memory. */
tpl_value *function_parts_value(const kin_tree *t, const program *a, const char *signature,
                                const char *prefix, const char *lane_type, int ncarry[2]);

#endif
