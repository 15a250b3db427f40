/* test_lanes.c — render/lanes.c, the batch forms' retyping of a single-state body: each rule
 * with its exact text (type, calls, splatted constants) and what it must leave alone
 * (comments, a for's int counter, compound and compared assignments, other identifiers). */
#include <check.h>
#include <stdlib.h>
#include "render/lanes.h"

static void check_retype(const char *body, const char *expected)
{
    char *text = lanes_retype(body, "r_lanes", "r");
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, expected);
    free(text);
}

START_TEST(type_and_calls)
{
    check_retype("    const cdyn_real t0 = q[1] * CDYN_R(0.5);\n",
                 "    const r_lanes t0 = q[1] * CDYN_R(0.5);\n");
    check_retype("    cdyn_real sin_angle[2], cos_angle[2];\n"
                 "    cdyn_sincos_n(q + 3, sin_angle, cos_angle, 2);\n",
                 "    r_lanes sin_angle[2], cos_angle[2];\n"
                 "    r__sincos_lanes(q + 3, sin_angle, cos_angle, 2);\n");
    check_retype("x = CDYN_SQRT(a) + CDYN_SIN(b) * CDYN_COS(c);",
                 "x = r__sqrt_lanes(a) + r__sin_lanes(b) * r__cos_lanes(c);");
}
END_TEST

START_TEST(only_whole_identifiers)
{
    /* names that contain a rewritten one are other names */
    check_retype("my_cdyn_real = cdyn_reals + CDYN_SQRT2(x);",
                 "my_cdyn_real = cdyn_reals + CDYN_SQRT2(x);");
}
END_TEST

START_TEST(constants_stored_alone_are_splatted)
{
    check_retype("    d->M[3] = 0;\n", "    d->M[3] = r__splat(0);\n");
    check_retype("    J[7] = -1;\n", "    J[7] = r__splat(-1);\n");
    check_retype("    p[2] = CDYN_R(0.333);\n", "    p[2] = r__splat(CDYN_R(0.333));\n");
    check_retype("    p[2] = -CDYN_R(2.5e-07);\n", "    p[2] = r__splat(-CDYN_R(2.5e-07));\n");
    check_retype("    x = 1.5e-3;\n", "    x = r__splat(1.5e-3);\n");
    /* a chain: only the last store takes the constant */
    check_retype("    M[0] = M[5] = 0;\n", "    M[0] = M[5] = r__splat(0);\n");
    /* a temporary initialised to a constant */
    check_retype("    const cdyn_real w = CDYN_R(0.25);\n",
                 "    const r_lanes w = r__splat(CDYN_R(0.25));\n");
}
END_TEST

START_TEST(other_assignments_untouched)
{
    /* an operation with a constant lifts it by itself; not a constant alone */
    check_retype("t1 = 1 / t0;", "t1 = 1 / t0;");
    check_retype("t1 = 2 * x;", "t1 = 2 * x;");
    check_retype("t1 = x;", "t1 = x;");
    /* compound assignments and comparisons */
    check_retype("x -= 0; y += 1; z *= 2; w /= 4;", "x -= 0; y += 1; z *= 2; w /= 4;");
    check_retype("a == 0; b != 0; c <= 0; e >= 0;", "a == 0; b != 0; c <= 0; e >= 0;");
    /* a for's counter stays an int */
    check_retype("for (int c = 0; c < 7; ++c)\n    Minv[c] = 1;\n",
                 "for (int c = 0; c < 7; ++c)\n    Minv[c] = r__splat(1);\n");
}
END_TEST

START_TEST(comments_untouched)
{
    check_retype("/* cdyn_real x = 0; CDYN_SQRT(y) */\nx = 0;\n",
                 "/* cdyn_real x = 0; CDYN_SQRT(y) */\nx = r__splat(0);\n");
    check_retype("/* unterminated cdyn_real", "/* unterminated cdyn_real");
}
END_TEST

static Suite *lanes_suite(void)
{
    Suite *s = suite_create("lanes");
    TCase *tc = tcase_create("retype");
    tcase_add_test(tc, type_and_calls);
    tcase_add_test(tc, only_whole_identifiers);
    tcase_add_test(tc, constants_stored_alone_are_splatted);
    tcase_add_test(tc, other_assignments_untouched);
    tcase_add_test(tc, comments_untouched);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lanes_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
