/* expr.h — a small scalar-expression builder for straight-line generated code.
 *
 * A program is a DAG of SSA nodes: named inputs ("q[3]", "d->M[12]"), and operations
 * (add, sub, mul, div, sqrt, sin, cos). A value handle `ex` is either an exact constant or
 * a node with a sign, so negation is free. Every builder folds what IEEE arithmetic in a C
 * compiler may not: x*0, x*1, x*-1, x+0, x-x, constant op constant, (-a)*(-b), a+(-b).
 * Nodes are hash-consed (commutative operands in canonical order), so a repeated
 * expression is one node. Stores name the outputs; only nodes that reach a store are
 * printed (expr_print.h). */
#ifndef CDYNGEN_EXPR_H
#define CDYNGEN_EXPR_H

#include <stddef.h>
#include "util/ebuf.h" /* the text buffer most users of expr.h also write into */

/* A value: node < 0 means the exact constant c; otherwise (neg ? -1 : 1) * node. */
typedef struct {
    int node;
    int neg;
    double c;
} ex;

typedef struct expr_prog expr_prog;

/* Operation counts of emitted code (subtractions count as adds). */
typedef struct {
    long mul, add, div, sqrt, sincos;
} expr_counts;

expr_prog *expr_new(void);
void expr_free(expr_prog *p);
/* 1 if an allocation failed at some point (the program is then unusable). */
int expr_failed(const expr_prog *p);

ex ex_const(double c);
/* A named input, read once, just before its first use (or before the first store to its
 * array); the same name gives the same node. */
ex ex_input(expr_prog *p, const char *name);
ex ex_inputf(expr_prog *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

ex ex_add(expr_prog *p, ex a, ex b);
ex ex_sub(expr_prog *p, ex a, ex b);
ex ex_mul(expr_prog *p, ex a, ex b);
ex ex_div(expr_prog *p, ex a, ex b);
ex ex_neg(ex a);
ex ex_sqrt(expr_prog *p, ex a);
ex ex_sin(expr_prog *p, ex a);
ex ex_cos(expr_prog *p, ex a);
/* a*b + c*d, a*b - c*d: shorthands used all over the spatial algebra. */
ex ex_fma2(expr_prog *p, ex a, ex b, ex c, ex d);
ex ex_fms2(expr_prog *p, ex a, ex b, ex c, ex d);

int ex_is_const(ex a, double c); /* 1 if a is exactly the constant c */
int ex_is_zero(ex a);

/* Names the temporary an input is read into (`q_knee` for "q[7]") instead of tN, so that a
 * reader finds a joint's coordinates; `ident` must be a C identifier unique in the emitted
 * function. Changes no arithmetic; an input the program does not read is ignored. */
void expr_name_input(expr_prog *p, const char *input, const char *ident);

/* Output `target = value;` (target is C text such as "tau[2]" or "d->M[3]"). */
void expr_store(expr_prog *p, const char *target, ex value);
void expr_storef(expr_prog *p, ex value, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The same store printed where a comment made now would be (after the banner made just
 * before it), not right after its value: for an output that belongs to a later block than
 * the value it stores (RNEA's tau_i, whose force f_i a child's block finished). Only its
 * place in the text differs; a target must not be stored twice with expr_store_here. */
void expr_store_here(expr_prog *p, const char *target, ex value);
/* A block comment, printed before the next emitted node created after this call; of
 * several with nothing emitted between them only the last is printed. A section heading
 * (expr_section) is printed even when block comments follow it directly. Any bytes: the
 * text is made comment-safe. */
void expr_comment(expr_prog *p, const char *text);
void expr_section(expr_prog *p, const char *text);
/* CDYN_BARRIER(), printed where a comment made now would be: the compiler may not move
 * memory reads and writes across it (see cdyn_config.h). */
void expr_barrier(expr_prog *p);
/* C statements (lines separated by newlines, each printed indented), placed as a comment
 * made now would be: after every node made before this call and the stores of their values,
 * except constant stores, which come last. NULL (out of memory) fails the program. */
void expr_code(expr_prog *p, const char *lines);
/* Comment-safe text (malloc'd, NULL on oom): no star-slash or slash-star pair, no "??"
 * (trigraphs), printable ASCII only (other bytes as \xNN, backslashes doubled). */
char *expr_comment_text(const char *s);

#endif
