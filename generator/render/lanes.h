/* lanes.h — the batch forms' bodies (--batch): a single-state body retyped so that every
 * value is a vector of W states' values (lanes.c says how). Internal to render/. */
#ifndef CDYNGEN_RENDER_LANES_H
#define CDYNGEN_RENDER_LANES_H

/* body with cdyn_real read as lane_type, the trigonometric and square-root calls as
 * PREFIX__sincos_lanes, PREFIX__sqrt_lanes, PREFIX__sin_lanes, PREFIX__cos_lanes, and each
 * constant stored alone as PREFIX__splat(constant). malloc'd; NULL out of memory. */
char *lanes_retype(const char *body, const char *lane_type, const char *prefix);

#endif
