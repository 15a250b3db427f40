/* context.h — the values the templates of one robot's folder read (robot.h.tpl, robot.c.tpl,
 * model.c.tpl, ...): its names and sizes, frames, bodies, constraint set, and the emitted
 * functions' bodies. Internal to render/. */
#ifndef CDYNGEN_RENDER_CONTEXT_H
#define CDYNGEN_RENDER_CONTEXT_H

#include "model/tree.h"
#include "render/render.h"
#include "render/template.h"

/* Everything the templates read, for t with options o (o->size: no function bodies, NAME.c
 * calls the runtime). NULL when out of memory. tpl_free it. */
tpl_value *context_build(const kin_tree *t, const render_options *o);

#endif
