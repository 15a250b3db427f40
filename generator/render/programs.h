/* programs.h — render's inner step: each emitted algorithm run into C text (for the
 * templates) or only counted (for the op counts). Internal to render/. */
#ifndef CDYNGEN_RENDER_PROGRAMS_H
#define CDYNGEN_RENDER_PROGRAMS_H

#include "model/tree.h"
#include "symbolic/expr.h"

/* An expr program the emitter builds, or C text it writes directly (emit_crba.c: the
 * in-place LTDL, and M^-1 as all its steps). A text function returns 1 to decline, when the
 * algorithm's expr program is to be used instead. */
typedef void (*program_build)(expr_prog *p, const kin_tree *t);
typedef int (*program_text)(const kin_tree *t, ebuf *out, const char *indent, expr_counts *c);

typedef struct {
    const char *name; /* the template's name for it (robot.c.tpl: NAME.body, ...) */
    program_build build;
    program_text text; /* tried first when not NULL */
    int contacts_only; /* emitted only for a constraint set without loops */
    /* The parameters of its generated function that the body alone may leave unused, in
     * the signature's order: the function casts those to (void). The template's own code
     * around the body uses the others. */
    const char *params;
} program;

/* The unconstrained algorithms in the order of the op counts; and the constrained
 * functions' parts, emitted only for a robot generated with constraints (emit_constraint.c). */
extern const program program_algorithms[];
extern const int program_nalgorithms;
#define PROGRAM_NCONSTRAINED 25 /* the definition's size must agree: checked by the compiler */
extern const program program_constrained[PROGRAM_NCONSTRAINED];
/* NAME_batch_crba's body with M (--batch): the full M without d->M. */
extern const program program_batch_crba;
/* -M^-1 X in straight-line code for R_aba_derivatives, on a tree small enough for it
 * (program_minus_minv_unrolled); a bigger one runs the row sweeps of robot.c.tpl. */
extern const program program_minus_minv;
int program_minus_minv_unrolled(const kin_tree *t);

/* The algorithm or constrained part of that name (one of the tables'). */
const program *program_named(const char *name);

/* The forward dynamics, left out when M is singular (--massless-links ignore). */
int program_left_out(const kin_tree *t, const char *name);

typedef struct {
    char *body; /* the C text; NULL when only counted */
    expr_counts c;
} emitted;

/* Runs one algorithm into e: with `indent`, its C text (each line so indented) and counts;
 * with NULL, the counts only. 0, or -1 out of memory (e->body freed). */
int program_run(const kin_tree *t, const program *a, emitted *e, const char *indent);
/* An expr program's body cut into parts of about max_ops operations (expr_emit_parts). */
typedef struct {
    char **bodies;
    int n, ncarry;
    expr_counts c;
} emitted_parts;
int program_run_parts(const kin_tree *t, const program *a, int max_ops, emitted_parts *ep);
void program_parts_free(emitted_parts *ep);
/* The same for frame's Jacobian columns: LOCAL with `local`, else LOCAL_WORLD_ALIGNED. */
int program_run_jacobian(const kin_tree *t, int frame, int local, emitted *e, const char *indent);
/* The next chunk of M^-1's steps from *step (advanced): one static function's worth. */
int program_run_minv_chunk(const kin_tree *t, int *step, emitted *e);
/* Whether NAME_ltl is emitted in parts (a big in-place factor), and the next part from
 * *step (advanced; step s is row nv - 1 - s, nv steps): one static function's worth of rows. */
int program_ltl_in_parts(const kin_tree *t);
int program_run_ltl_part(const kin_tree *t, int *step, emitted *e);
/* The sum of the algorithm's operations, or -1 out of memory. */
long program_ops(const kin_tree *t, const program *a);
/* "N mul, N add, ..." as comment text (malloc'd, NULL on oom). */
char *program_ops_text(const expr_counts *c);

/* The (void) casts, one "    (void)P;\n" line each, of the parameters in `params` (space
 * separated) that none of the n bodies names; "" when all are used. malloc'd, NULL on oom. */
char *program_unused_text(const char *params, const char *const *bodies, int n);

#endif
