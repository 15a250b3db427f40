/* expr_print.h — an expr program's live part printed as straight-line C for the cdyn runtime
 * (cdyn_real temporaries, CDYN_R constants, CDYN_SQRT / CDYN_SIN / CDYN_COS, CDYN_BARRIER).
 *
 * What the printer cannot know from the algebra, how the code it prints into lays out its
 * inputs, the caller hands in as expr_print_rules: a robot's emitters do so in
 * emit/input_names.c, so symbolic/ knows nothing of joints or of q. */
#ifndef CDYNGEN_EXPR_PRINT_H
#define CDYNGEN_EXPR_PRINT_H

#include "symbolic/expr.h"
#include "util/ebuf.h"

typedef struct {
    /* Batches the sin and cos of inputs: `fn(angles, sin_out, cos_out, n)` all at once,
     * where the first is needed (for the cdyn runtime "cdyn_sincos_n", cdyn_trig.h). NULL:
     * each sin and cos is its own CDYN_SIN / CDYN_COS. */
    const char *sincos_fn;
    /* An input array whose plain entries ARRAY[N] are angles, one after another, so that
     * the batch reads a stretch of them in place ("q": fn(q + 3, ...)); NULL: none, the
     * angles are copied into a local angle[] first. */
    const char *angle_array;
} expr_print_rules;

/* The rules expr_emit follows for this program (copied; the strings must outlive p).
 * Without a call, none: no batching. */
void expr_set_print_rules(expr_prog *p, const expr_print_rules *rules);

/* Emits the live part of the program: temporaries in the order they were made, each after
 * the comments made before it and then the first reads of its inputs (a block's banner, then
 * its loads), stores right after the value they store (expr_store_here's where they were
 * made), constant stores last. Each line starts with `indent`. Returns 0, or -1 on oom. */
int expr_emit(expr_prog *p, ebuf *out, const char *indent, expr_counts *counts);
/* Op counts of the live part without emitting (the same whatever the rules). */
void expr_count(expr_prog *p, expr_counts *counts);

/* Prints a constant as C: "0", "1", "-1" stay short; others CDYN_R(x) with x the fewest
 * significant digits that read back as the same double ("9.81"), always a floating literal. */
void expr_print_const(ebuf *b, double c);

#endif
