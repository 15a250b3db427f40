#define _POSIX_C_SOURCE 200809L /* mkdtemp */
/* test_emit.c — code emitted for small trees: hand-counted ops for a pendulum, no
 * products with exact 0/1 constants, sin/cos once per joint, identifiers from arbitrary
 * names, and the rendered files compiling warning-free (gcc, clang; double, float). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "render/render.h"
#include "check/scalar_range.h"
#include "model/tree.h"
#include "pipeline.h"
#include "parse/urdf.h"

#define INERTIAL(m)                                                                                \
    "<inertial><origin xyz=\"0.25 0 0\"/><mass value=\"" m "\"/>"                                  \
    "<inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.2\" iyz=\"0\" izz=\"0.3\"/></inertial>"

/* One revolute joint about +z; the joint frame is turned by rpy (pi/2, 0, 0), which the
 * tree snaps to an exact permutation, so gravity (world -z) lies along the body's -y axis. */
static const char pendulum_urdf[] =
    "<robot name=\"pendulum\">"
    "<link name=\"base\"/>"
    "<link name=\"arm\">" INERTIAL(
        "2") "</link>"
             "<joint name=\"hinge\" type=\"revolute\"><parent link=\"base\"/><child link=\"arm\"/>"
             "<origin xyz=\"0 0 1\" rpy=\"1.5707963267948966 0 0\"/><axis xyz=\"0 0 1\"/>"
             "<limit lower=\"-3\" upper=\"3\" effort=\"1\" velocity=\"1\"/></joint>"
             "</robot>";

/* Axis-aligned joints, identity rotations. */
static const char aligned_urdf[] =
    "<robot name=\"aligned\">"
    "<link name=\"base\"/>"
    "<link name=\"l1\">" INERTIAL(
        "1.5") "</link>"
               "<link name=\"l2\">" INERTIAL(
                   "1.25") "</link>"
                           "<link name=\"l3\">" INERTIAL(
                               "0.75") "</link>"
                                       "<link name=\"l4\">" INERTIAL(
                                           "0.5") "</link>"
                                                  "<joint name=\"j1\" type=\"revolute\"><parent "
                                                  "link=\"base\"/><child link=\"l1\"/>"
                                                  "<axis xyz=\"0 0 1\"/><limit lower=\"-3\" "
                                                  "upper=\"3\" effort=\"1\" "
                                                  "velocity=\"1\"/></joint>"
                                                  "<joint name=\"j2\" type=\"revolute\"><parent "
                                                  "link=\"l1\"/><child link=\"l2\"/>"
                                                  "<origin xyz=\"0 0 0.3\"/><axis xyz=\"0 1 0\"/>"
                                                  "<limit lower=\"-3\" upper=\"3\" effort=\"1\" "
                                                  "velocity=\"1\"/></joint>"
                                                  "<joint name=\"j3\" type=\"revolute\"><parent "
                                                  "link=\"l2\"/><child link=\"l3\"/>"
                                                  "<origin xyz=\"0.4 0 0\"/><axis xyz=\"-1 0 0\"/>"
                                                  "<limit lower=\"-3\" upper=\"3\" effort=\"1\" "
                                                  "velocity=\"1\"/></joint>"
                                                  "<joint name=\"j4\" type=\"prismatic\"><parent "
                                                  "link=\"l3\"/><child link=\"l4\"/>"
                                                  "<axis xyz=\"0 0 1\"/><limit lower=\"-1\" "
                                                  "upper=\"1\" effort=\"1\" "
                                                  "velocity=\"1\"/></joint>"
                                                  "</robot>";

/* Every joint kind, a general axis, a rotated placement, and names that are not C. */
static const char weird_urdf[] =
    "<robot name=\"we&quot;ird*/\">"
    "<link name=\"base\">" INERTIAL(
        "1") "</link>"
             "<link name=\"a-b\">" INERTIAL(
                 "1") "</link>"
                      "<link name=\"a_b\">" INERTIAL(
                          "1") "</link>"
                               "<link name=\"int\">" INERTIAL(
                                   "1") "</link>"
                                        "<link name=\"3d cam\">" INERTIAL(
                                            "1") "</link>"
                                                 "<link name=\"x*/y &quot;q&quot; "
                                                 "t?\?/\">" INERTIAL(
                                                     "1") "</link>"
                                                          "<link name=\"caf\xc3\xa9\">" INERTIAL(
                                                              "1") "</link>"
                                                                   "<joint name=\"j1\" "
                                                                   "type=\"revolute\"><parent "
                                                                   "link=\"base\"/><child "
                                                                   "link=\"a-b\"/>"
                                                                   "<origin xyz=\"0.1 0 0.2\" "
                                                                   "rpy=\"0.3 0.2 0.1\"/><axis "
                                                                   "xyz=\"1 1 0\"/>"
                                                                   "<limit lower=\"-1\" "
                                                                   "upper=\"1\" effort=\"1\" "
                                                                   "velocity=\"1\"/></joint>"
                                                                   "<joint name=\"j2\" "
                                                                   "type=\"continuous\"><parent "
                                                                   "link=\"a-b\"/><child "
                                                                   "link=\"a_b\"/>"
                                                                   "<origin xyz=\"0 0.3 0\"/><axis "
                                                                   "xyz=\"0 1 0\"/></joint>"
                                                                   "<joint name=\"j3\" "
                                                                   "type=\"prismatic\"><parent "
                                                                   "link=\"a_b\"/><child "
                                                                   "link=\"int\"/>"
                                                                   "<axis xyz=\"0 0 -1\"/><limit "
                                                                   "lower=\"-1\" upper=\"1\" "
                                                                   "effort=\"1\" "
                                                                   "velocity=\"1\"/></joint>"
                                                                   "<joint name=\"j4\" "
                                                                   "type=\"planar\"><parent "
                                                                   "link=\"base\"/><child "
                                                                   "link=\"3d cam\"/>"
                                                                   "<origin xyz=\"0 0 0.5\"/><axis "
                                                                   "xyz=\"0 0 1\"/></joint>"
                                                                   "<joint name=\"j5\" "
                                                                   "type=\"fixed\"><parent "
                                                                   "link=\"int\"/><child "
                                                                   "link=\"x*/y &quot;q&quot; "
                                                                   "t?\?/\"/>"
                                                                   "<origin xyz=\"0 0 0.1\" "
                                                                   "rpy=\"0 1.5707963267948966 "
                                                                   "0\"/></joint>"
                                                                   "<joint name=\"j6\" "
                                                                   "type=\"revolute\"><parent "
                                                                   "link=\"3d cam\"/><child "
                                                                   "link=\"caf\xc3\xa9\"/>"
                                                                   "<axis xyz=\"0 0 1\"/><limit "
                                                                   "lower=\"-1\" upper=\"1\" "
                                                                   "effort=\"1\" "
                                                                   "velocity=\"1\"/></joint>"
                                                                   "</robot>";

/* No moving joint at all: every array is empty, every function body too. */
static const char lone_urdf[] = "<robot name=\"lone\"><link name=\"base\">" INERTIAL(
    "1") "</link><link name=\"cam\"/>"
         "<joint name=\"fix\" type=\"fixed\"><parent link=\"base\"/><child link=\"cam\"/>"
         "<origin xyz=\"0 0 1\"/></joint></robot>";

static void build_tree(const char *text, int floating, kin_tree *t)
{
    urdf_model u;
    tree_options opt;
    char err[512] = "";
    int rc = urdf_parse_memory(text, strlen(text), "test.urdf", &u, err, sizeof err);
    ck_assert_msg(rc == 0, "urdf: %s", err);
    opt.floating_base = floating;
    rc = pipeline_tree(&u, &opt, t, err, sizeof err);
    urdf_free(&u);
    ck_assert_msg(rc == 0, "tree: %s", err);
}

static void render(const kin_tree *t, const char *name, int scalar_float, render_output *out)
{
    render_options o;
    char err[512] = "";
    memset(&o, 0, sizeof o);
    o.name = name;
    o.urdf_file = "test.urdf";
    o.options = scalar_float ? "--scalar float" : "--scalar double";
    o.scalar_float = scalar_float;
    ck_assert_msg(render_robot(t, &o, out, err, sizeof err) == 0, "render: %s", err);
}

static const char *file_text(const render_output *out, const char *path)
{
    int i;
    for (i = 0; i < out->nfiles; i++)
        if (strcmp(out->files[i].path, path) == 0)
            return out->files[i].content;
    ck_abort_msg("no file %s", path);
    return NULL;
}

static const emit_count *find_count(const emit_count *c, int n, const char *alg)
{
    int i;
    for (i = 0; i < n; i++)
        if (strcmp(c[i].algorithm, alg) == 0)
            return &c[i];
    ck_abort_msg("no count for %s", alg);
    return NULL;
}

/* Hand count for the pendulum: m = 2, com c = (0.25, 0, 0), h = m c = (0.5, 0, 0),
 * Ic = diag(0.1, 0.2, 0.3). The base acceleration -g = (0, 0, 9.81) in the world is
 * (0, 9.81, 0) in the turned joint frame, so in the body a_lin = Rz(q)^T (0, 9.81, 0) =
 * (9.81 s, 9.81 c, 0); w = (0, 0, qd), alpha = (0, 0, qdd).
 * RNEA, Newton-Euler at the com: v_c = w x c = (0, 0.25 qd, 0),
 *   acc = a_lin + alpha x c + w x v_c = (9.81 s - qd (0.25 qd), 9.81 c + 0.25 qdd, 0),
 *   tau = n_z = (Ic alpha)_z + (w x Ic w)_z + (h x acc)_z = 0.3 qdd + 0 + 0.5 acc_y
 * -> rnea: 4 mul (9.81 c, 0.25 qdd, 0.5 acc_y, 0.3 qdd), 2 add, 1 cos (acc_x, hence sin,
 *    is dead); nle and gravity (qdd = 0): tau = 0.5 (9.81 c): 2 mul, 0 add, 1 cos;
 * crba: M = Ic_zz + m c^2 = 0.425, a constant: no op at all;
 * aba: the bias force pA = (h x (w x v_c))_z = 0 folds, D = 0.425 is constant (1/D folds),
 *    U_lin = (0, 0.5, 0): qdd = (tau - 0.5 (9.81 c)) / 0.425 -> 3 mul, 1 add, 0 div, 1 cos;
 * fk: R = Rx(pi/2) Rz(q) has entries 0, +-1, +-c, +-s: no mul, no add, 1 sin + 1 cos. */
START_TEST(pendulum_hand_count)
{
    static const struct {
        const char *alg;
        long mul, add, div, sqrt, sincos;
    } expect[] = {
        { "rnea", 4, 2, 0, 0, 1 }, { "nle", 2, 0, 0, 0, 1 }, { "gravity", 2, 0, 0, 0, 1 },
        { "crba", 0, 0, 0, 0, 0 }, { "aba", 3, 1, 0, 0, 1 }, { "fk", 0, 0, 0, 0, 2 },
    };
    kin_tree t;
    emit_count c[32];
    render_output out;
    int n, i;
    build_tree(pendulum_urdf, 0, &t);
    n = render_op_counts(&t, c, 32);
    ck_assert_int_gt(n, 0);
    for (i = 0; i < (int)(sizeof expect / sizeof expect[0]); i++) {
        const emit_count *e = find_count(c, n, expect[i].alg);
        ck_assert_msg(e->mul == expect[i].mul && e->add == expect[i].add &&
                          e->div == expect[i].div && e->sqrt == expect[i].sqrt &&
                          e->sincos == expect[i].sincos,
                      "%s: got %ld mul %ld add %ld div %ld sqrt %ld sincos", expect[i].alg, e->mul,
                      e->add, e->div, e->sqrt, e->sincos);
    }
    render(&t, "pendulum", 0, &out);
    ck_assert_ptr_nonnull(strstr(file_text(&out, "pendulum.c"), "    d->M[0] = CDYN_R(0.425);\n"));
    render_output_free(&out);
    tree_free(&t);
}
END_TEST

/* Splits `c` into functions (a line starting without blank opens one) and calls f on each
 * line of code in a function body. */
static int is_operand_trivial(const char *tok)
{
    return strcmp(tok, "0") == 0 || strcmp(tok, "1") == 0 || strcmp(tok, "-1") == 0 ||
           strncmp(tok, "CDYN_R(0)", 9) == 0 || strncmp(tok, "CDYN_R(1)", 9) == 0 ||
           strncmp(tok, "CDYN_R(-1)", 10) == 0 || strncmp(tok, "CDYN_R(0.0)", 11) == 0 ||
           strncmp(tok, "CDYN_R(1.0)", 11) == 0 || strncmp(tok, "CDYN_R(-1.0)", 12) == 0;
}

/* Every `const cdyn_real tN = a op b;` line: no product with an exact 0, 1 or -1, no sum
 * with an exact 0 (1 - x and 1 / D are real work and stay). */
START_TEST(no_trivial_products)
{
    kin_tree t;
    render_output out;
    const char *c, *line;
    int checked = 0;
    build_tree(aligned_urdf, _i, &t);
    render(&t, "aligned", 0, &out);
    c = file_text(&out, "aligned.c");
    for (line = c; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        char buf[512], a[128], op[8], b[128];
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len >= sizeof buf || strncmp(line, "    const cdyn_real t", 21) != 0)
            continue;
        memcpy(buf, line, len);
        buf[len] = '\0';
        if (sscanf(strchr(buf, '=') + 1, " %127s %7s %127[^;]", a, op, b) != 3)
            continue; /* a load or a function call */
        if (strcmp(op, "*") == 0)
            ck_assert_msg(!is_operand_trivial(a) && !is_operand_trivial(b), "trivial: %s", buf);
        else
            ck_assert_msg(strcmp(a, "0") != 0 && strcmp(b, "0") != 0, "zero term: %s", buf);
        ck_assert_msg(strcmp(a, b) != 0 || strcmp(op, "-") != 0, "x - x: %s", buf);
        checked++;
    }
    ck_assert_int_gt(checked, 50);
    ck_assert_ptr_null(strstr(c, "+ 0;"));
    ck_assert_ptr_null(strstr(c, "* 0;"));
    render_output_free(&out);
    tree_free(&t);
}
END_TEST

/* Counts the angles each function hands to cdyn_sincos_n ("angle[k] = q_hinge;", or a
 * stretch "cdyn_sincos_n(q + 7, ..., 3)"): each at most once, and fk needs exactly one per
 * revolute joint. */
START_TEST(sincos_once_per_joint)
{
    kin_tree t;
    render_output out;
    const char *c, *fn;
    int nrev = 0, i, functions = 0;
    build_tree(aligned_urdf, 1, &t);
    for (i = 0; i < t.nbodies; i++)
        nrev += t.bodies[i].kind == TREE_REVOLUTE;
    ck_assert_int_eq(nrev, 3);
    render(&t, "aligned", 0, &out);
    c = file_text(&out, "aligned.c");
    for (fn = strstr(c, "\n{\n"); fn; fn = strstr(fn + 1, "\n{\n")) {
        const char *end = strstr(fn, "\n}\n"), *s;
        const char *head = fn;
        while (head > c && head[-1] != '\n')
            head--;
        while (head > c && strncmp(head, "void", 4) != 0 && strncmp(head, "int", 3) != 0 &&
               strncmp(head, "static", 6) != 0) {
            head--;
            while (head > c && head[-1] != '\n')
                head--;
        }
        ck_assert_ptr_nonnull(end);
        functions++;
        {
            const char *args[64];
            int n = 0, k;
            for (s = strstr(fn, "    angle["); s && s < end; s = strstr(s + 1, "    angle[")) {
                const char *a = strstr(s, "] = ") + 4;
                size_t len = strcspn(a, ";");
                for (k = 0; k < n; k++)
                    ck_assert_msg(strncmp(args[k], a, len + 1) != 0, "angle %.*s twice in %.40s",
                                  (int)len, a, head);
                ck_assert_int_lt(n, 64);
                args[n++] = a;
            }
            { /* plus the stretches read straight from q: disjoint, within q */
                int seen[64] = { 0 }, first, count;
                for (s = strstr(fn, "cdyn_sincos_n(q + "); s && s < end;
                     s = strstr(s + 1, "cdyn_sincos_n(q + ")) {
                    const char *last = strchr(s, ')'); /* the count: the last argument */
                    first = atoi(s + strlen("cdyn_sincos_n(q + "));
                    while (last[-1] != ' ')
                        last--;
                    count = atoi(last);
                    ck_assert_int_ge(first, 0);
                    ck_assert_int_le(first + count, 64);
                    for (k = first; k < first + count; k++) {
                        ck_assert_msg(!seen[k], "q[%d] twice in %.40s", k, head);
                        seen[k] = 1;
                        n++;
                    }
                }
            }
            ck_assert_int_le(n, nrev);
            if (strncmp(head, "void aligned_fk(", 16) == 0)
                ck_assert_int_eq(n, nrev);
        }
    }
    ck_assert_int_gt(functions, 10);
    render_output_free(&out);
    tree_free(&t);
}
END_TEST

/* Clashing frame ids get the smallest free suffix, even when a name is itself a suffixed
 * form of another: p-q, p.q -> P_Q, P_Q_2; p_q_2 -> P_Q_2_2; p:q -> P_Q_3 (not P_Q_2). */
START_TEST(clashing_frame_ids_get_the_smallest_free_suffix)
{
    static const char urdf[] = "<robot name=\"clash\"><link name=\"base\">" INERTIAL(
        "1") "</link>"
             "<link name=\"p-q\"/><link name=\"p.q\"/><link name=\"p_q_2\"/><link name=\"p:q\"/>"
             "<joint name=\"f1\" type=\"fixed\"><parent link=\"base\"/><child "
             "link=\"p-q\"/></joint>"
             "<joint name=\"f2\" type=\"fixed\"><parent link=\"p-q\"/><child link=\"p.q\"/></joint>"
             "<joint name=\"f3\" type=\"fixed\"><parent link=\"p.q\"/><child "
             "link=\"p_q_2\"/></joint>"
             "<joint name=\"f4\" type=\"fixed\"><parent link=\"p_q_2\"/><child "
             "link=\"p:q\"/></joint>"
             "</robot>";
    static const char *const expected[] = { "CLASH_FRAME_P_Q = 1,  /* p-q */",
                                            "CLASH_FRAME_P_Q_2 = 2,  /* p.q */",
                                            "CLASH_FRAME_P_Q_2_2 = 3,  /* p_q_2 */",
                                            "CLASH_FRAME_P_Q_3 = 4  /* p:q */" };
    kin_tree t;
    render_output out;
    const char *h;
    size_t i;
    build_tree(urdf, 0, &t);
    render(&t, "clash", 0, &out);
    h = file_text(&out, "clash.h");
    for (i = 0; i < sizeof expected / sizeof expected[0]; i++)
        ck_assert_msg(strstr(h, expected[i]) != NULL, "missing \"%s\"", expected[i]);
    render_output_free(&out);
    tree_free(&t);
}
END_TEST

/* Frame ids: upper case, unique, and comments and strings that cannot break out. */
START_TEST(names_are_sanitised)
{
    kin_tree t;
    render_output out;
    const char *h, *c;
    build_tree(weird_urdf, 0, &t);
    render(&t, "weird", 0, &out);
    h = file_text(&out, "weird.h");
    c = file_text(&out, "weird.c");
    ck_assert_ptr_nonnull(strstr(h, "WEIRD_FRAME_A_B = "));
    ck_assert_ptr_nonnull(strstr(h, "WEIRD_FRAME_A_B_2 = "));
    ck_assert_ptr_nonnull(strstr(h, "WEIRD_FRAME_INT = "));
    ck_assert_ptr_nonnull(strstr(h, "WEIRD_FRAME_3D_CAM = "));
    ck_assert_ptr_nonnull(strstr(h, "WEIRD_FRAME_CAF__ = "));
    ck_assert_ptr_nonnull(strstr(c, "\"x*/y \\\"q\\\" t\\?\\?/\""));
    ck_assert_ptr_nonnull(strstr(h, "/* x* /y \"q\" t? ?/ */"));
    ck_assert_ptr_null(strstr(h, "?\?"));
    ck_assert_ptr_null(strstr(c, "?\?"));
    render_output_free(&out);
    tree_free(&t);
}
END_TEST

static int have_tool(const char *cc)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "command -v %s > /dev/null 2>&1", cc);
    return system(cmd) == 0;
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fputs(text, f) >= 0, 1);
    fclose(f);
}

/* _i: bit 0 float, bit 1 clang, bit 2 floating base, bit 3 the robot without joints. */
START_TEST(rendered_files_compile)
{
    const char *cc = _i & 2 ? "clang" : "gcc";
    int scalar_float = _i & 1;
    kin_tree t;
    render_output out;
    char dir[] = "/tmp/cdyn_test_emit_XXXXXX", cmd[2048];
    int i, rc;
    if (!have_tool(cc)) {
        fprintf(stderr, "test_emit: %s not found, compile check skipped\n", cc);
        return;
    }
    build_tree(_i & 8 ? lone_urdf : weird_urdf, (_i & 4) != 0, &t);
    render(&t, "weird", scalar_float, &out);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (i = 0; i < out.nfiles; i++)
        write_file(dir, out.files[i].path, out.files[i].content);
    snprintf(cmd, sizeof cmd,
             "cd %s && %s -std=c99 -Wall -Wextra -Wpedantic -Werror %s -I. -I%s/runtime "
             "-c weird.c weird_model.c 2> errors.txt; s=$?; cat errors.txt >&2; "
             "rm -f *.o *.c *.h *.txt CMakeLists.txt; cd / && rmdir %s; exit $s",
             dir, cc, scalar_float ? "-DCDYN_FLOAT" : "", CDYN_SOURCE_DIR, dir);
    rc = system(cmd);
    ck_assert_msg(rc == 0, "%s%s failed to compile the rendered files", cc,
                  scalar_float ? " -DCDYN_FLOAT" : "");
    render_output_free(&out);
    tree_free(&t);
}
END_TEST

/* The same tree renders the same bytes twice (generated/ must diff clean). */
START_TEST(deterministic_output)
{
    kin_tree t;
    render_output a, b;
    int i;
    build_tree(weird_urdf, 1, &t);
    render(&t, "weird", 0, &a);
    render(&t, "weird", 0, &b);
    ck_assert_int_eq(a.nfiles, b.nfiles);
    for (i = 0; i < a.nfiles; i++) {
        ck_assert_str_eq(a.files[i].path, b.files[i].path);
        ck_assert_str_eq(a.files[i].content, b.files[i].content);
    }
    ck_assert_ptr_nonnull(strstr(file_text(&a, "weird.h"),
                                 "/* weird.h — generated by cdyngen " CDYNGEN_VERSION
                                 " from test.urdf (options: --scalar double). Do not edit. */\n"));
    ck_assert_ptr_nonnull(
        strstr(file_text(&a, "CMakeLists.txt"), "add_library(weird::weird ALIAS weird)"));
    ck_assert_int_eq(a.nfiles, 6); /* with cdyn_scalar.h; weird.py only with o.python */
    render_output_free(&a);
    render_output_free(&b);
    tree_free(&t);
}
END_TEST

static int text_check(const kin_tree *t, int scalar_float, const char *text, char *err)
{
    return scalar_range_check_text(t, scalar_float, "test.urdf", text, err, 512);
}

/* Every CDYN_R constant of the output is a normal number of its scalar: the pendulum's
 * rendered files pass in both; hand-written literals just outside each range, infinity and
 * NaN are refused, laid at the body of the comment before them; and a body inertia of
 * 1e-310 set behind the tree check's back (a subnormal pivot, and its 1 / D folds to
 * infinity) is caught in the real output, naming the joint. */
START_TEST(constants_outside_the_scalar_are_refused)
{
    static const struct {
        const char *literal;
        int bad_in_double, bad_in_float;
    } cases[] = {
        { "CDYN_R(1e-50)", 0, 1 },   { "CDYN_R(-2e38)", 0, 0 },  { "CDYN_R(3.5e38)", 0, 1 },
        { "CDYN_R(1.2e-38)", 0, 0 }, { "CDYN_R(2e-308)", 1, 1 }, { "CDYN_R(-1e-310)", 1, 1 },
        { "CDYN_R(inf)", 1, 1 },     { "CDYN_R(-inf)", 1, 1 },   { "CDYN_R(nan)", 1, 1 },
        { "CDYN_R(1e308)", 0, 1 },   { "CDYN_R(0.5)", 0, 0 },
    };
    kin_tree t;
    render_output out;
    char err[512], text[256];
    int i, f;
    build_tree(pendulum_urdf, 0, &t);
    for (f = 0; f < 2; f++) {
        render(&t, "pendulum", f, &out);
        for (i = 0; i < out.nfiles; i++)
            ck_assert_msg(text_check(&t, f, out.files[i].content, err) == 0, "%s", err);
        render_output_free(&out);
    }
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++)
        for (f = 0; f < 2; f++) {
            int bad = f ? cases[i].bad_in_float : cases[i].bad_in_double;
            snprintf(text, sizeof text,
                     "#define CDYN_R(x) (x)\n/* body 0 \"hinge\" <- \"world\": revolute +z (link "
                     "arm) */\n"
                     "t0 = %s * q[0];\n",
                     cases[i].literal);
            err[0] = 0;
            ck_assert_msg(text_check(&t, f, text, err) == -bad, "%s in %s", cases[i].literal,
                          f ? "float" : "double");
            if (bad)
                ck_assert_msg(strstr(err, "test.urdf:1: joint \"hinge\"") &&
                                  strstr(err, f ? "float" : "double"),
                              "%s", err);
        }
    t.bodies[0].mass = 0;
    for (i = 0; i < 3; i++)
        t.bodies[0].com[i] = 0;
    for (i = 0; i < 6; i++)
        t.bodies[0].inertia[i] = i == 0 || i == 3 || i == 5 ? 1e-310 : 0;
    render(&t, "pendulum", 0, &out);
    ck_assert_ptr_nonnull(strstr(file_text(&out, "pendulum.c"), "CDYN_R(inf)"));
    ck_assert_int_eq(text_check(&t, 0, file_text(&out, "pendulum.c"), err), -1);
    ck_assert_msg(strstr(err, "test.urdf:1: joint \"hinge\": the generated code folds") &&
                      strstr(err, "double cannot hold"),
                  "%s", err);
    ck_assert_int_eq(scalar_range_check_tree(&t, 0, "test.urdf", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "test.urdf:1: joint \"hinge\": inertia 1e-310"), "%s", err);
    render_output_free(&out);
    tree_free(&t);
}
END_TEST

static Suite *emit_suite(void)
{
    Suite *s = suite_create("emit");
    TCase *tc = tcase_create("emit");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, pendulum_hand_count);
    tcase_add_loop_test(tc, no_trivial_products, 0, 2);
    tcase_add_test(tc, sincos_once_per_joint);
    tcase_add_test(tc, names_are_sanitised);
    tcase_add_test(tc, clashing_frame_ids_get_the_smallest_free_suffix);
    tcase_add_loop_test(tc, rendered_files_compile, 0, 16);
    tcase_add_test(tc, deterministic_output);
    tcase_add_test(tc, constants_outside_the_scalar_are_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(emit_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
