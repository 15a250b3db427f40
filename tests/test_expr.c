/* test_expr.c — the scalar-expression builder: every folding rule with its exact emitted
 * text, sign tracking, CSE, dead-code elimination, op counts, constant round trips. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "symbolic/expr.h"
#include "symbolic/expr_print.h"

/* Emits p with no indent; the caller frees the text. */
/* The printer's rules of a robot's functions (emit/input_names.c): sin/cos batched by
 * cdyn_sincos_n, plain q[N] angles read in place. */
static const expr_print_rules robot_rules = { "cdyn_sincos_n", "q" };

static char *emit_text(expr_prog *p, expr_counts *c)
{
    ebuf b = { 0, 0, 0, 0 };
    expr_counts local;
    expr_set_print_rules(p, &robot_rules);
    ebuf_puts(&b, "");
    ck_assert_int_eq(expr_emit(p, &b, "", c ? c : &local), 0);
    return ebuf_take(&b);
}

/* Builds y = f(x, z) with inputs x, z and checks the emitted text. */
typedef ex (*binary_case)(expr_prog *p, ex x, ex z);

static void check_case(binary_case f, const char *expected)
{
    expr_prog *p = expr_new();
    ex x = ex_input(p, "x"), z = ex_input(p, "z");
    char *text;
    expr_store(p, "y", f(p, x, z));
    text = emit_text(p, NULL);
    ck_assert_str_eq(text, expected);
    free(text);
    expr_free(p);
}

static ex mul_zero(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_mul(p, x, ex_const(0.0));
}
static ex zero_mul(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_mul(p, ex_const(0.0), x);
}
static ex mul_one(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_mul(p, x, ex_const(1.0));
}
static ex mul_minus_one(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_mul(p, x, ex_const(-1.0));
}
static ex add_zero(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_add(p, ex_const(0.0), x);
}
static ex sub_zero(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_sub(p, x, ex_const(0.0));
}
static ex zero_sub(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_sub(p, ex_const(0.0), x);
}
static ex sub_self(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_sub(p, x, x);
}
static ex add_neg_self(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_add(p, ex_neg(x), x);
}
static ex add_self(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_add(p, x, x);
}
static ex const_const(expr_prog *p, ex x, ex z)
{
    (void)x;
    (void)z;
    return ex_add(p, ex_mul(p, ex_const(2.0), ex_const(3.0)), ex_const(0.5));
}
static ex neg_neg_mul(expr_prog *p, ex x, ex z)
{
    return ex_mul(p, ex_neg(x), ex_neg(z));
}
static ex neg_mul(expr_prog *p, ex x, ex z)
{
    return ex_mul(p, ex_neg(x), z);
}
static ex add_neg(expr_prog *p, ex x, ex z)
{
    return ex_add(p, x, ex_neg(z));
}
static ex neg_add(expr_prog *p, ex x, ex z)
{
    return ex_add(p, ex_neg(x), z);
}
static ex neg_add_neg(expr_prog *p, ex x, ex z)
{
    return ex_add(p, ex_neg(x), ex_neg(z));
}
static ex sub_rev(expr_prog *p, ex x, ex z)
{
    return ex_sub(p, z, x);
}
static ex mul_neg_const(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_mul(p, ex_const(-3.0), x);
}
static ex add_const(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_add(p, x, ex_const(2.5));
}
static ex add_neg_const(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_add(p, x, ex_const(-2.5));
}
static ex const_minus_x(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_sub(p, ex_const(2.5), x);
}
static ex div_pow2(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_div(p, x, ex_const(4.0));
}
static ex div_three(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_div(p, ex_neg(x), ex_const(3.0));
}
static ex div_one(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_div(p, x, ex_const(-1.0));
}
static ex div_nodes(expr_prog *p, ex x, ex z)
{
    return ex_div(p, ex_neg(x), z);
}
static ex zero_div(expr_prog *p, ex x, ex z)
{
    (void)x;
    return ex_div(p, ex_const(0.0), z);
}
/* sin and cos of one input, by the batched cdyn_sincos_n (cdyn_trig.h) */
#define SINCOS_OF_T0                                                                               \
    "cdyn_real angle[1], sin_angle[1], cos_angle[1];\nangle[0] = t0;\n"                            \
    "cdyn_sincos_n(angle, sin_angle, cos_angle, 1);\n"
static ex sin_neg(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_sin(p, ex_neg(x));
}
static ex cos_neg(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_cos(p, ex_neg(x));
}
static ex sqrt_x(expr_prog *p, ex x, ex z)
{
    (void)z;
    return ex_sqrt(p, x);
}
static ex sin_const(expr_prog *p, ex x, ex z)
{
    (void)x;
    (void)z;
    return ex_cos(p, ex_const(0.0));
}

static const struct {
    binary_case f;
    const char *text;
} cases[] = {
    { mul_zero, "y = 0;\n" },
    { zero_mul, "y = 0;\n" },
    { mul_one, "const cdyn_real t0 = x;\ny = t0;\n" },
    { mul_minus_one, "const cdyn_real t0 = x;\ny = -t0;\n" },
    { add_zero, "const cdyn_real t0 = x;\ny = t0;\n" },
    { sub_zero, "const cdyn_real t0 = x;\ny = t0;\n" },
    { zero_sub, "const cdyn_real t0 = x;\ny = -t0;\n" },
    { sub_self, "y = 0;\n" },
    { add_neg_self, "y = 0;\n" },
    { add_self, "const cdyn_real t0 = x;\nconst cdyn_real t1 = t0 * CDYN_R(2.0);\ny = t1;\n" },
    { const_const, "y = CDYN_R(6.5);\n" },
    { neg_neg_mul, "const cdyn_real t0 = x;\nconst cdyn_real t1 = z;\n"
                   "const cdyn_real t2 = t0 * t1;\ny = t2;\n" },
    { neg_mul, "const cdyn_real t0 = x;\nconst cdyn_real t1 = z;\n"
               "const cdyn_real t2 = t0 * t1;\ny = -t2;\n" },
    { add_neg, "const cdyn_real t0 = x;\nconst cdyn_real t1 = z;\n"
               "const cdyn_real t2 = t0 - t1;\ny = t2;\n" },
    { neg_add, "const cdyn_real t0 = x;\nconst cdyn_real t1 = z;\n"
               "const cdyn_real t2 = t0 - t1;\ny = -t2;\n" },
    { neg_add_neg, "const cdyn_real t0 = x;\nconst cdyn_real t1 = z;\n"
                   "const cdyn_real t2 = t0 + t1;\ny = -t2;\n" },
    { sub_rev, "const cdyn_real t0 = x;\nconst cdyn_real t1 = z;\n"
               "const cdyn_real t2 = t0 - t1;\ny = -t2;\n" },
    { mul_neg_const,
      "const cdyn_real t0 = x;\nconst cdyn_real t1 = t0 * CDYN_R(3.0);\ny = -t1;\n" },
    { add_const, "const cdyn_real t0 = x;\nconst cdyn_real t1 = t0 + CDYN_R(2.5);\ny = t1;\n" },
    { add_neg_const, "const cdyn_real t0 = x;\nconst cdyn_real t1 = t0 - CDYN_R(2.5);\ny = t1;\n" },
    { const_minus_x,
      "const cdyn_real t0 = x;\nconst cdyn_real t1 = t0 - CDYN_R(2.5);\ny = -t1;\n" },
    { div_pow2, "const cdyn_real t0 = x;\nconst cdyn_real t1 = t0 * CDYN_R(0.25);\ny = t1;\n" },
    { div_three, "const cdyn_real t0 = x;\nconst cdyn_real t1 = t0 / CDYN_R(3.0);\ny = -t1;\n" },
    { div_one, "const cdyn_real t0 = x;\ny = -t0;\n" },
    { div_nodes, "const cdyn_real t0 = x;\nconst cdyn_real t1 = z;\n"
                 "const cdyn_real t2 = t0 / t1;\ny = -t2;\n" },
    { zero_div, "y = 0;\n" },
    { sin_neg,
      "const cdyn_real t0 = x;\n" SINCOS_OF_T0 "const cdyn_real t1 = sin_angle[0];\ny = -t1;\n" },
    { cos_neg,
      "const cdyn_real t0 = x;\n" SINCOS_OF_T0 "const cdyn_real t1 = cos_angle[0];\ny = t1;\n" },
    { sqrt_x, "const cdyn_real t0 = x;\nconst cdyn_real t1 = CDYN_SQRT(t0);\ny = t1;\n" },
    { sin_const, "y = 1;\n" },
};

START_TEST(folding_rules)
{
    check_case(cases[_i].f, cases[_i].text);
}
END_TEST

START_TEST(sign_tracking)
{
    expr_prog *p = expr_new();
    ex x = ex_input(p, "x");
    ex nn = ex_neg(ex_neg(x));
    ck_assert_int_eq(nn.node, x.node);
    ck_assert_int_eq(nn.neg, 0);
    ck_assert_int_eq(ex_neg(x).neg, 1);
    ck_assert(ex_is_const(ex_neg(ex_const(2.0)), -2.0));
    ck_assert(ex_is_zero(ex_neg(ex_const(0.0))));
    /* -(x*y) and (-x)*y are the same node with the same sign */
    {
        ex y = ex_input(p, "y");
        ex a = ex_neg(ex_mul(p, x, y)), b = ex_mul(p, ex_neg(x), y);
        ck_assert_int_eq(a.node, b.node);
        ck_assert_int_eq(a.neg, b.neg);
    }
    expr_free(p);
}
END_TEST

START_TEST(cse_commutative)
{
    expr_prog *p = expr_new();
    ex x = ex_input(p, "x"), y = ex_input(p, "y");
    expr_counts c;
    char *text;
    ck_assert_int_eq(ex_mul(p, x, y).node, ex_mul(p, y, x).node);
    ck_assert_int_eq(ex_add(p, x, y).node, ex_add(p, y, x).node);
    /* x - y and y - x share one node, opposite signs */
    ck_assert_int_eq(ex_sub(p, x, y).node, ex_sub(p, y, x).node);
    ck_assert_int_ne(ex_sub(p, x, y).neg, ex_sub(p, y, x).neg);
    ck_assert_int_eq(ex_input(p, "x").node, x.node);
    expr_store(p, "a", ex_add(p, ex_mul(p, x, y), ex_mul(p, y, x)));
    expr_store(p, "b", ex_sub(p, ex_mul(p, y, x), ex_mul(p, x, y)));
    text = emit_text(p, &c);
    ck_assert_str_eq(text, "const cdyn_real t0 = x;\nconst cdyn_real t1 = y;\n"
                           "const cdyn_real t2 = t0 * t1;\n"
                           "const cdyn_real t3 = t2 * CDYN_R(2.0);\na = t3;\nb = 0;\n");
    ck_assert_int_eq(c.mul, 2);
    ck_assert_int_eq(c.add, 0);
    free(text);
    expr_free(p);
}
END_TEST

START_TEST(dead_code)
{
    expr_prog *p = expr_new();
    ex x = ex_input(p, "x"), y = ex_input(p, "unused"), s;
    expr_counts c;
    char *text;
    (void)ex_mul(p, x, y); /* never stored */
    (void)ex_sin(p, y);
    s = ex_add(p, ex_mul(p, x, x), ex_const(1.0));
    expr_store(p, "out[0]", s);
    text = emit_text(p, &c);
    ck_assert_str_eq(text, "const cdyn_real t0 = x;\nconst cdyn_real t1 = t0 * t0 + 1;\n"
                           "out[0] = t1;\n");
    ck_assert_ptr_null(strstr(text, "unused"));
    ck_assert_int_eq(c.mul, 1);
    ck_assert_int_eq(c.add, 1);
    ck_assert_int_eq(c.sincos, 0);
    free(text);
    expr_free(p);
}
END_TEST

START_TEST(op_counting)
{
    expr_prog *p = expr_new();
    ex q = ex_input(p, "q[0]"), v = ex_input(p, "v[0]");
    ex s = ex_sin(p, q), c = ex_cos(p, q), s2 = ex_sin(p, q);
    ex r = ex_sqrt(p, ex_add(p, ex_mul(p, s, s), ex_mul(p, c, c)));
    ex w = ex_div(p, v, r);
    expr_counts n1, n2;
    char *text;
    ck_assert_int_eq(s.node, s2.node); /* sin(q) built twice, one node */
    expr_store(p, "a", ex_sub(p, w, ex_mul(p, ex_const(0.5), v)));
    expr_store(p, "b", ex_mul(p, s, ex_const(1.0)));
    expr_count(p, &n1);
    text = emit_text(p, &n2);
    ck_assert_int_eq(n1.mul, 3);
    ck_assert_int_eq(n1.add, 2);
    ck_assert_int_eq(n1.div, 1);
    ck_assert_int_eq(n1.sqrt, 1);
    ck_assert_int_eq(n1.sincos, 2);
    ck_assert_int_eq(n2.mul, n1.mul);
    ck_assert_int_eq(n2.add, n1.add);
    ck_assert_int_eq(n2.div, n1.div);
    ck_assert_int_eq(n2.sincos, n1.sincos);
    free(text);
    expr_free(p);
}
END_TEST

/* Stores follow their value; a store to x reads every input of x first (so x <- f(x) is
 * safe): x[1] is read before x[0] is written, though it is used only after. */
START_TEST(order_and_comments)
{
    expr_prog *p = expr_new();
    ex x0 = ex_input(p, "x[0]"), x1, a;
    char *text;
    expr_comment(p, "first");
    a = ex_mul(p, x0, ex_const(3.0));
    expr_store(p, "x[0]", a);
    expr_section(p, "section */ heading");
    expr_comment(p, "skipped: nothing emitted after it");
    expr_comment(p, "second");
    x1 = ex_input(p, "x[1]");
    expr_store(p, "x[1]", ex_add(p, x1, a));
    expr_store(p, "k", ex_const(-0.0));
    text = emit_text(p, NULL);
    ck_assert_str_eq(text, "/* first */\nconst cdyn_real t0 = x[0];\n"
                           "const cdyn_real t1 = t0 * CDYN_R(3.0);\n"
                           "const cdyn_real t2 = x[1];\nx[0] = t1;\n"
                           "/* section * / heading */\n/* second */\nconst cdyn_real t3 = t1 + "
                           "t2;\nx[1] = t3;\nk = 0;\n");
    free(text);
    expr_free(p);
}
END_TEST

/* expr_store_here places a store as a comment made then: after the banner of the block it
 * belongs to, not right after the value an earlier block made. */
START_TEST(store_here_after_its_banner)
{
    expr_prog *p = expr_new();
    ex x = ex_input(p, "x"), f;
    char *text;
    expr_comment(p, "body 1");
    f = ex_mul(p, x, x);
    expr_store(p, "g", f);
    expr_comment(p, "body 0");
    expr_store_here(p, "tau[0]", f);
    expr_store_here(p, "k", ex_const(2.0));
    expr_store(p, "h", ex_add(p, f, x));
    text = emit_text(p, NULL);
    ck_assert_str_eq(text, "/* body 1 */\nconst cdyn_real t0 = x;\nconst cdyn_real t1 = t0 * t0;\n"
                           "g = t1;\n/* body 0 */\ntau[0] = t1;\nconst cdyn_real t2 = t0 + t1;\n"
                           "h = t2;\nk = CDYN_R(2.0);\n");
    free(text);
    expr_free(p);
}
END_TEST

/* A barrier comes out after the comments made with it, once however many were made
 * together; the block's input loads after both. */
START_TEST(barriers)
{
    expr_prog *p = expr_new();
    ex x = ex_input(p, "x");
    char *text;
    expr_comment(p, "body 1");
    expr_barrier(p);
    expr_store(p, "y[0]", ex_mul(p, x, x));
    expr_barrier(p);
    expr_comment(p, "body 2");
    expr_barrier(p);
    expr_store(p, "y[1]", ex_add(p, x, ex_const(1.0)));
    expr_barrier(p);
    text = emit_text(p, NULL);
    ck_assert_str_eq(text, "/* body 1 */\nCDYN_BARRIER();\nconst cdyn_real t0 = x;\n"
                           "const cdyn_real t1 = t0 * t0;\ny[0] = t1;\n"
                           "/* body 2 */\nCDYN_BARRIER();\nconst cdyn_real t2 = t0 + 1;\n"
                           "y[1] = t2;\nCDYN_BARRIER();\n");
    free(text);
    expr_free(p);
}
END_TEST

/* Other arrays are read just before their first use, after unrelated stores: short live
 * ranges in long straight-line code. An input that is only stored goes out where it was made. */
START_TEST(inputs_read_at_first_use)
{
    expr_prog *p = expr_new();
    ex a = ex_input(p, "d->a[0]"), b = ex_input(p, "b[0]"), s;
    char *text;
    expr_store(p, "d->copy", ex_input(p, "d->a[1]"));
    s = ex_mul(p, a, ex_const(2.0));
    expr_store(p, "c[0]", s);
    expr_store(p, "c[1]", ex_mul(p, b, s));
    text = emit_text(p, NULL);
    ck_assert_str_eq(text, "const cdyn_real t0 = d->a[1];\nd->copy = t0;\n"
                           "const cdyn_real t1 = d->a[0];\nconst cdyn_real t2 = t1 * CDYN_R(2.0);\n"
                           "c[0] = t2;\nconst cdyn_real t3 = b[0];\n"
                           "const cdyn_real t4 = t3 * t2;\nc[1] = t4;\n");
    free(text);
    expr_free(p);
}
END_TEST

/* A rotation of x in place: every x is read before any is written, even when a read value
 * is itself what gets stored. */
START_TEST(in_place_rotation)
{
    expr_prog *p = expr_new();
    ex x0 = ex_input(p, "x[0]"), x1 = ex_input(p, "x[1]"), x2 = ex_input(p, "x[2]");
    char *text;
    expr_store(p, "x[1]", x0);
    expr_store(p, "x[2]", x1);
    expr_store(p, "x[0]", x2);
    text = emit_text(p, NULL);
    ck_assert_str_eq(text, "const cdyn_real t0 = x[0];\nconst cdyn_real t1 = x[1];\n"
                           "const cdyn_real t2 = x[2];\n"
                           "x[2] = t1;\nx[0] = t2;\nx[1] = t0;\n");
    free(text);
    expr_free(p);
}
END_TEST

/* The sin/cos of inputs come out all at once where the first is needed: one cdyn_sincos_n
 * (no libm call clobbering the vector registers per joint), then the results as
 * temporaries. Angles that are plain q[N] are read from q itself, one call per stretch of
 * consecutive N; any other input goes through angle[] (SINCOS_OF_T0 above). */
START_TEST(trig_all_at_once)
{
    expr_prog *p = expr_new();
    ex q0 = ex_input(p, "q[0]"), q1, s0, c0;
    char *text;
    s0 = ex_sin(p, q0);
    c0 = ex_cos(p, q0);
    expr_store(p, "y[0]", ex_mul(p, s0, c0));
    q1 = ex_input(p, "q[1]");
    expr_store(p, "y[1]", ex_sin(p, q1));
    text = emit_text(p, NULL);
    ck_assert_str_eq(text,
                     "cdyn_real sin_angle[2], cos_angle[2];\n"
                     "cdyn_sincos_n(q + 0, sin_angle, cos_angle, 2);\n"
                     "const cdyn_real t0 = sin_angle[0];\nconst cdyn_real t1 = cos_angle[0];\n"
                     "const cdyn_real t2 = sin_angle[1];\ny[1] = t2;\n"
                     "const cdyn_real t3 = t0 * t1;\ny[0] = t3;\n");
    free(text);
    expr_free(p);
}
END_TEST

/* The batching is the caller's rule: without rules each sin and cos is its own call, and
 * with a batch function but no angle array, q[N] is copied into angle[] like any input. */
START_TEST(trig_rules_from_the_caller)
{
    static const expr_print_rules no_array = { "cdyn_sincos_n", NULL };
    expr_prog *p = expr_new();
    ebuf b = { 0, 0, 0, 0 };
    expr_counts c;
    char *text;
    expr_store(p, "y", ex_sin(p, ex_input(p, "q[2]")));
    ebuf_puts(&b, "");
    ck_assert_int_eq(expr_emit(p, &b, "", &c), 0);
    text = ebuf_take(&b);
    ck_assert_str_eq(text, "const cdyn_real t0 = q[2];\nconst cdyn_real t1 = CDYN_SIN(t0);\n"
                           "y = t1;\n");
    ck_assert_int_eq(c.sincos, 1);
    free(text);
    expr_set_print_rules(p, &no_array);
    ebuf_puts(&b, "");
    ck_assert_int_eq(expr_emit(p, &b, "", &c), 0);
    text = ebuf_take(&b);
    ck_assert_str_eq(text, "const cdyn_real t0 = q[2];\n"
                           "cdyn_real angle[1], sin_angle[1], cos_angle[1];\nangle[0] = t0;\n"
                           "cdyn_sincos_n(angle, sin_angle, cos_angle, 1);\n"
                           "const cdyn_real t1 = sin_angle[0];\ny = t1;\n");
    ck_assert_int_eq(c.sincos, 1);
    free(text);
    expr_free(p);
}
END_TEST

/* Past 16 angles the results are read where they are used, not held in temporaries live
 * across the function. */
START_TEST(trig_read_in_place_past_16)
{
    expr_prog *p = expr_new();
    ex s = ex_const(0.0);
    char name[16], *text;
    int k;
    for (k = 0; k < 17; k++) {
        snprintf(name, sizeof name, "q[%d]", k);
        s = ex_add(p, s, ex_mul(p, ex_sin(p, ex_input(p, name)), ex_input(p, "w")));
    }
    expr_store(p, "y", s);
    text = emit_text(p, NULL);
    ck_assert_ptr_nonnull(strstr(text, "cdyn_sincos_n(q + 0, sin_angle, cos_angle, 17);\n"));
    ck_assert_ptr_nonnull(strstr(text, "sin_angle[16]"));
    ck_assert_ptr_null(strstr(text, "= sin_angle["));
    free(text);
    expr_free(p);
}
END_TEST

/* Slots follow the q index whatever the order of use; a gap starts another call; the same
 * angle twice is one slot. */
START_TEST(trig_q_stretches)
{
    expr_prog *p = expr_new();
    char *text;
    expr_store(p, "y[0]", ex_sin(p, ex_input(p, "q[5]")));
    expr_store(p, "y[1]", ex_cos(p, ex_input(p, "q[3]")));
    expr_store(p, "y[2]", ex_sin(p, ex_input(p, "q[9]")));
    expr_store(p, "y[3]", ex_sin(p, ex_input(p, "q[4]")));
    expr_store(p, "y[4]", ex_cos(p, ex_input(p, "q[5]")));
    text = emit_text(p, NULL);
    ck_assert_str_eq(text, "cdyn_real sin_angle[4], cos_angle[4];\n"
                           "cdyn_sincos_n(q + 3, sin_angle, cos_angle, 3);\n"
                           "cdyn_sincos_n(q + 9, sin_angle + 3, cos_angle + 3, 1);\n"
                           "const cdyn_real t0 = sin_angle[2];\ny[0] = t0;\n"
                           "const cdyn_real t1 = cos_angle[0];\ny[1] = t1;\n"
                           "const cdyn_real t2 = sin_angle[3];\ny[2] = t2;\n"
                           "const cdyn_real t3 = sin_angle[1];\ny[3] = t3;\n"
                           "const cdyn_real t4 = cos_angle[2];\ny[4] = t4;\n");
    free(text);
    expr_free(p);
}
END_TEST

static const double round_trip_values[] = {
    0.1,
    -0.1,
    1.0 / 3.0,
    2.0,
    -7.0,
    1e-300,
    -4.9406564584124654e-324,
    1.7976931348623157e308,
    0.023599999999999999,
    9.81,
    123456789.0,
    1e22,
    3.141592653589793,
    6.02214076e23,
};

/* CDYN_R(...) text parses back to the same double; 0, 1, -1 are printed bare. */
START_TEST(constant_round_trip)
{
    ebuf b = { 0, 0, 0, 0 };
    double v = round_trip_values[_i], back;
    char *text, *end;
    ebuf_puts(&b, "");
    expr_print_const(&b, v);
    text = ebuf_take(&b);
    ck_assert_int_eq(strncmp(text, "CDYN_R(", 7), 0);
    back = strtod(text + 7, &end);
    ck_assert_str_eq(end, ")");
    ck_assert(back == v);
    ck_assert(strpbrk(text + 7, ".eE") != NULL); /* a floating literal, never an int */
    free(text);
}
END_TEST

/* 0, 1, -1 are printed bare; any other constant in its shortest round-trip form, not
 * %.17g's "9.8100000000000005". */
static const struct {
    double value;
    const char *text;
} constant_spellings[] = {
    { 0.0, "0" },
    { -0.0, "0" },
    { 1.0, "1" },
    { -1.0, "-1" },
    { 9.81, "CDYN_R(9.81)" },
    { 0.316, "CDYN_R(0.316)" },
    { 0.1, "CDYN_R(0.1)" },
    { 2.0, "CDYN_R(2.0)" },
    { 1e22, "CDYN_R(1e+22)" },
    { 1.0 / 3.0, "CDYN_R(0.3333333333333333)" },
    { 4.9406564584124654e-324, "CDYN_R(5e-324)" },
};

START_TEST(constant_spelling)
{
    ebuf b = { 0, 0, 0, 0 };
    char *text;
    ebuf_puts(&b, "");
    expr_print_const(&b, constant_spellings[_i].value);
    text = ebuf_take(&b);
    ck_assert_str_eq(text, constant_spellings[_i].text);
    free(text);
}
END_TEST

/* A product used once, by a sum, is written inside it (one statement, so the compiler may
 * fuse it); a product used twice, stored, or used by a product keeps its temporary. */
START_TEST(products_inlined_into_sums)
{
    expr_prog *p = expr_new();
    ex a = ex_input(p, "a"), b = ex_input(p, "b"), c = ex_input(p, "c");
    ex ab = ex_mul(p, a, b), bc = ex_mul(p, b, c), ca = ex_mul(p, c, a);
    expr_counts n;
    char *text;
    expr_store(p, "x", ex_sub(p, ab, bc)); /* both inlined */
    expr_store(p, "y", ex_add(p, ca, c));  /* ca used twice: kept */
    expr_store(p, "z", ex_mul(p, ca, a));
    text = emit_text(p, &n);
    ck_assert_str_eq(text, "const cdyn_real t0 = a;\nconst cdyn_real t1 = c;\n"
                           "const cdyn_real t2 = t0 * t1;\n"
                           "const cdyn_real t3 = b;\n"
                           "const cdyn_real t4 = t0 * t3 - t3 * t1;\nx = t4;\n"
                           "const cdyn_real t5 = t1 + t2;\ny = t5;\n"
                           "const cdyn_real t6 = t0 * t2;\nz = t6;\n");
    ck_assert_int_eq(n.mul, 4);
    ck_assert_int_eq(n.add, 2);
    free(text);
    expr_free(p);
}
END_TEST

/* A large program: hash table growth keeps CSE exact. */
START_TEST(many_nodes)
{
    expr_prog *p = expr_new();
    ex acc = ex_const(0.0);
    expr_counts c;
    int i;
    for (i = 0; i < 5000; i++) {
        ex x = ex_inputf(p, "x[%d]", i % 100);
        acc = ex_add(p, acc, ex_mul(p, x, ex_inputf(p, "y[%d]", i % 100)));
    }
    for (i = 0; i < 100; i++)
        (void)ex_mul(p, ex_inputf(p, "y[%d]", i), ex_inputf(p, "x[%d]", i));
    expr_store(p, "s", acc);
    expr_count(p, &c);
    ck_assert_int_eq(c.mul, 100); /* 100 distinct products, reused */
    ck_assert_int_eq(c.add, 4999);
    ck_assert(!expr_failed(p));
    expr_free(p);
}
END_TEST

/* expr_emit_parts: values a later part reads go into carry[] once, at the end of the part
 * that made them (x, z, a = x + z after part 0), and are read back where a part first uses
 * them; a slot whose value has no reader left is reused (x's slot 0 takes d); a value no
 * later part reads is not carried (c). Cuts fall at the comments past max_ops. */
START_TEST(parts_carry_each_value_once)
{
    expr_prog *p = expr_new();
    ex x = ex_input(p, "x"), z = ex_input(p, "z"), a, c, d;
    char **bodies;
    int n, ncarry, k;
    expr_counts cnt;
    static const char *const expected[3] = {
        "const cdyn_real t0 = x;\nconst cdyn_real t1 = z;\nconst cdyn_real t2 = t0 + t1;\n"
        "carry[0] = t0;\ncarry[1] = t1;\ncarry[2] = t2;\n",
        "/* second */\nconst cdyn_real t3 = carry[0];\nconst cdyn_real t4 = carry[2];\n"
        "const cdyn_real t5 = t3 - t4 * t4;\nconst cdyn_real t6 = t5 * t5;\ncarry[0] = t6;\n",
        "/* third */\nconst cdyn_real t7 = carry[2];\nconst cdyn_real t8 = carry[0];\n"
        "const cdyn_real t9 = t7 + t8;\ny[0] = t9;\nconst cdyn_real t10 = carry[1];\n"
        "const cdyn_real t11 = t10 - t8;\ny[1] = -t11;\n",
    };
    a = ex_add(p, x, z);
    expr_section(p, "second");
    c = ex_sub(p, ex_mul(p, a, a), x);
    d = ex_mul(p, c, c);
    expr_section(p, "third");
    expr_store(p, "y[0]", ex_add(p, d, a));
    expr_store(p, "y[1]", ex_sub(p, d, z));
    ck_assert_int_eq(expr_emit_parts(p, 2, "", &bodies, &n, &ncarry, &cnt), 0);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(ncarry, 3);
    ck_assert_int_eq(cnt.mul, 2);
    ck_assert_int_eq(cnt.add, 4);
    for (k = 0; k < n; k++) {
        ck_assert_str_eq(bodies[k], expected[k]);
        free(bodies[k]);
    }
    free(bodies);
    expr_free(p);
}
END_TEST

/* A program of max_ops or fewer: one part, expr_emit's text, nothing carried; and sin/cos
 * read in place (past 16 angles) become temporaries when carried. */
START_TEST(parts_small_program_whole)
{
    expr_prog *p = expr_new();
    ex x = ex_input(p, "x"), z = ex_input(p, "z");
    char **bodies, *whole;
    int n, ncarry;
    expr_counts cnt;
    expr_store(p, "y", ex_mul(p, ex_add(p, x, z), z));
    whole = emit_text(p, NULL);
    ck_assert_int_eq(expr_emit_parts(p, 2, "", &bodies, &n, &ncarry, &cnt), 0);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(ncarry, 0);
    ck_assert_str_eq(bodies[0], whole);
    free(bodies[0]);
    free(bodies);
    free(whole);
    expr_free(p);
}
END_TEST

START_TEST(parts_carry_sin_cos_slots)
{
    expr_prog *p = expr_new();
    ex s = ex_const(0.0), c = ex_const(0.0);
    char **bodies;
    int n, ncarry, k;
    expr_counts cnt;
    expr_set_print_rules(p, &robot_rules);
    for (k = 0; k < 17; k++) {
        ex q = ex_inputf(p, "q[%d]", k);
        s = ex_add(p, s, ex_sin(p, q));
        c = ex_add(p, c, ex_cos(p, q));
    }
    expr_store(p, "s", s);
    expr_section(p, "later");
    expr_store(p, "c", ex_mul(p, c, ex_sin(p, ex_inputf(p, "q[0]"))));
    ck_assert_int_eq(expr_emit_parts(p, 60, "", &bodies, &n, &ncarry, &cnt), 0);
    ck_assert_int_eq(n, 2);
    ck_assert_ptr_nonnull(strstr(bodies[0], "cdyn_sincos_n(q + 0, sin_angle, cos_angle, 17);"));
    ck_assert_ptr_null(strstr(bodies[1], "_angle"));
    ck_assert_ptr_nonnull(strstr(bodies[1], "/* later */\nconst cdyn_real"));
    for (k = 0; k < n; k++)
        free(bodies[k]);
    free(bodies);
    expr_free(p);
}
END_TEST

static Suite *expr_suite(void)
{
    Suite *s = suite_create("expr");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, folding_rules, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_test(tc, sign_tracking);
    tcase_add_test(tc, cse_commutative);
    tcase_add_test(tc, dead_code);
    tcase_add_test(tc, op_counting);
    tcase_add_test(tc, order_and_comments);
    tcase_add_test(tc, barriers);
    tcase_add_test(tc, store_here_after_its_banner);
    tcase_add_test(tc, inputs_read_at_first_use);
    tcase_add_test(tc, trig_all_at_once);
    tcase_add_test(tc, trig_q_stretches);
    tcase_add_test(tc, trig_read_in_place_past_16);
    tcase_add_test(tc, trig_rules_from_the_caller);
    tcase_add_test(tc, in_place_rotation);
    tcase_add_loop_test(tc, constant_round_trip, 0,
                        (int)(sizeof round_trip_values / sizeof round_trip_values[0]));
    tcase_add_loop_test(tc, constant_spelling, 0,
                        (int)(sizeof constant_spellings / sizeof constant_spellings[0]));
    tcase_add_test(tc, products_inlined_into_sums);
    tcase_add_test(tc, many_nodes);
    tcase_add_test(tc, parts_carry_each_value_once);
    tcase_add_test(tc, parts_small_program_whole);
    tcase_add_test(tc, parts_carry_sin_cos_slots);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(expr_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
