/* inertia_check.h — stage 2b: are the inertias the tree lumped usable, and plausible?
 *
 * Refuses only what leaves the dynamics undefined, warns about what is merely implausible,
 * and notes what it ignores (see inertia_check.c for the rules and the noise tolerance). */
#ifndef CDYNGEN_INERTIA_CHECK_H
#define CDYNGEN_INERTIA_CHECK_H

#include <stddef.h>
#include "model/tree.h"
#include "parse/urdf.h"

/* Noise, relative to a body's scale (its largest principal moment or its mass times its
 * extent squared, whichever is larger): a principal moment of -1e-11 times the scale is
 * rounding, not a negative moment. CAD exporters leave noise at 1e-12 of the scale and
 * below (a point mass's 2.4e-35 off-diagonal, a -5e-20 diagonal); 1e-10 passes it with
 * room to spare and still catches any error a human or an exporter writes. */
#define INERTIA_NOISE_RTOL 1e-10

/* Checks the lumped bodies of t (built from u). Appends warnings and notes to t->warnings
 * and t->notes; returns 0, or -1 with "file:line: joint "name": reason" in err when a
 * moving body's inertia is not positive semi-definite. */
int inertia_check(const urdf_model *u, kin_tree *t, char *err, size_t errlen);

#endif
