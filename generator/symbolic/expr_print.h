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
/* The same, cut into *nparts bodies of about max_ops operations each (at a comment, a body's
 * or a pass's start, where one comes soon after): compilers take time superlinear in a
 * function's size (gcc's register allocator: talos' RNEA derivatives alone, 36k operations,
 * took 167 s at -O2). The values read across a cut pass through an array `carry` of
 * *ncarry entries, which the caller's functions share: each part but the last ends with
 * `carry[k] = value;`, each but the first starts with `const cdyn_real name = carry[k];`.
 * A program of max_ops or fewer is one body, as expr_emit's. *bodies (malloc'd, each body
 * too) is the caller's. Returns 0, or -1 on oom. */
int expr_emit_parts(expr_prog *p, int max_ops, const char *indent, char ***bodies, int *nparts,
                    int *ncarry, expr_counts *counts);
/* Op counts of the live part without emitting (the same whatever the rules). */
void expr_count(expr_prog *p, expr_counts *counts);

/* Prints a constant as C: "0", "1", "-1" stay short; others CDYN_R(x) with x the fewest
 * significant digits that read back as the same double ("9.81"), always a floating literal. */
void expr_print_const(ebuf *b, double c);

#endif
