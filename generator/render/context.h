/* context.h — the values the templates of one robot's folder read (robot.h.tpl, robot.c.tpl,
 * model.c.tpl, ...): its names and sizes, frames, bodies, constraint set, and the emitted
 * functions' bodies. Internal to render/. */
#ifndef CDYNGEN_RENDER_CONTEXT_H
#define CDYNGEN_RENDER_CONTEXT_H

#include "model/tree.h"
#include "render/render.h"
#include "render/template.h"

/* Everything the templates read, for t with options o (o->size: no function bodies, NAME.c
 * calls the runtime), into *ctx (tpl_free it). Returns 0; -1 out of memory, or
 * RENDER_TOO_BIG when the functions' text passes o->max_bytes; *ctx is NULL then. */
int context_build(const kin_tree *t, const render_options *o, tpl_value **ctx);

#endif
