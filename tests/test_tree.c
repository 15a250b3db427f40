/* test_tree.c — the kinematic tree: Pinocchio's joint order, placements, lumped inertias,
 * motion subspaces and frames on the reference robots, and the tree rules on small URDFs. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/tree.h"
#include "pipeline.h"
#include "parse/urdf.h"
#include "check/validate.h"
#include "model/model_table.h"
#include "cdyn.h"
#include "support/check_main.h"
#include "support/reference.h"

static const struct {
    const char *dir, *urdf;
    int floating;
} robots[] = {
    { "iiwa", "iiwa.urdf", 0 },
    { "ur5", "ur5_robot.urdf", 0 },
    { "double_pendulum", "double_pendulum.urdf", 0 },
    { "solo12", "solo12.urdf", 1 },
    { "hyq", "hyq_no_sensors.urdf", 1 },
    { "talos_full_v2", "talos_full_v2.urdf", 1 },
};

/* A model.txt record of a joint ("placement.<joint>", ...) with its size checked. */
static const double *joint_record(const ref_file *ref, const char *kind, const char *joint, int n)
{
    char name[300];
    const ref_record *r;
    snprintf(name, sizeof name, "%s.%s", kind, joint);
    r = ref_get(ref, -1, name);
    ck_assert_msg(r != NULL, "model.txt has no %s", name);
    ck_assert_int_eq(r->rows * r->cols, n);
    return r->v;
}

/* |x - ref| <= 1e-11 (1 + |ref|): the reference URDFs write right angles rounded to 12
 * digits (1.57079632679, 3.14159265359, 4.71238898038: at most 4.9e-12 off), which tree.c
 * makes exact and Pinocchio does not; everything else agrees to rounding. */
static void assert_close(double x, double ref, const char *what, const char *joint, int k)
{
    ck_assert_msg(fabs(x - ref) <= 1e-11 * (1.0 + fabs(ref)), "%s of %s [%d]: %.17g vs %.17g", what,
                  joint, k, x, ref);
}

static ref_file *build_reference_tree(int i, kin_tree *t)
{
    char path[1024], err[1024];
    urdf_model u;
    tree_options opt = { 0 };
    ref_file *ref;
    snprintf(path, sizeof path, "%s/reference/%s/model.txt", CDYN_SHARED_DIR, robots[i].dir);
    if (!(ref = ref_load(path)))
        return NULL;
    snprintf(path, sizeof path, "%s/reference/urdf/%s", CDYN_SHARED_DIR, robots[i].urdf);
    ck_assert_msg(urdf_parse_file(path, &u, err, sizeof err) == 0, "%s", err);
    opt.floating_base = robots[i].floating;
    ck_assert_msg(pipeline_tree(&u, &opt, t, err, sizeof err) == 0, "%s", err);
    urdf_free(&u);
    ck_assert_msg(validate_inertia(t, path, err, sizeof err) == 0, "%s", err);
    return ref;
}

static void check_joint_kind(const tree_body *b, const ref_joint *j)
{
    if (strcmp(j->type, "JointModelFreeFlyer") == 0) {
        ck_assert_int_eq(b->kind, TREE_FREEFLYER);
    } else {
        ck_assert_msg(strncmp(j->type, "JointModelR", 11) == 0 && strlen(j->type) == 12,
                      "reference type %s not covered by this test", j->type);
        ck_assert_int_eq(b->kind, TREE_REVOLUTE);
        ck_assert_int_eq(b->axis_index, j->type[11] - 'X');
        ck_assert_int_eq(b->axis_sign, 1);
    }
}

static void check_body(const kin_tree *t, int i, const ref_file *ref)
{
    const tree_body *b = &t->bodies[i];
    const ref_joint *j = ref_joint_at(ref, i);
    const double *placement = joint_record(ref, "placement", j->name, 12);
    const double *inertia = joint_record(ref, "inertia", j->name, 10);
    const double *refS = joint_record(ref, "S", j->name, 6 * j->nv);
    double S[36] = { 0 };
    int k, c;
    ck_assert_str_eq(b->joint_name, j->name);
    ck_assert_int_eq(b->idx_q, j->idx_q);
    ck_assert_int_eq(b->nq, j->nq);
    ck_assert_int_eq(b->idx_v, j->idx_v);
    ck_assert_int_eq(b->nv, j->nv);
    ck_assert_int_eq(b->parent + 1, j->parent);
    check_joint_kind(b, j);
    for (k = 0; k < 9; k++)
        assert_close(b->R[k], placement[k], "placement R", j->name, k);
    for (k = 0; k < 3; k++)
        assert_close(b->p[k], placement[9 + k], "placement p", j->name, k);
    assert_close(b->mass, inertia[0], "mass", j->name, 0);
    for (k = 0; k < 3; k++)
        assert_close(b->com[k], inertia[1 + k], "com", j->name, k);
    for (k = 0; k < 6; k++)
        assert_close(b->inertia[k], inertia[4 + k], "inertia", j->name, k);
    /* S (6 x nv): free-flyer identity; revolute [0; axis] */
    for (c = 0; c < b->nv; c++)
        for (k = 0; k < 6; k++)
            S[k * b->nv + c] = b->kind == TREE_FREEFLYER ? (k == c) : (k >= 3 ? b->axis[k - 3] : 0);
    for (k = 0; k < 6 * b->nv; k++)
        assert_close(S[k], refS[k], "S", j->name, k);
}

static void check_frames(const kin_tree *t, const ref_file *ref)
{
    int i, k;
    for (i = 0; i < ref_nframes(ref); i++) {
        const ref_frame *rf = ref_frame_at(ref, i);
        int f = tree_find_frame(t, rf->name);
        ck_assert_msg(f >= 0, "frame %s missing", rf->name);
        ck_assert_int_eq(t->frames[f].body + 1, rf->parent_joint);
        for (k = 0; k < 9; k++)
            assert_close(t->frames[f].R[k], rf->R[k], "frame R", rf->name, k);
        for (k = 0; k < 3; k++)
            assert_close(t->frames[f].p[k], rf->p[k], "frame p", rf->name, k);
    }
}

START_TEST(reference_robot_matches_pinocchio_model)
{
    kin_tree t;
    ref_file *ref = build_reference_tree(_i, &t);
    int i;
    if (!ref) {
        printf("test_tree: %s/reference absent, skipping %s\n", CDYN_SHARED_DIR, robots[_i].dir);
        return;
    }
    ck_assert_int_eq(t.nq, ref_header_int(ref, "nq", -1));
    ck_assert_int_eq(t.nv, ref_header_int(ref, "nv", -1));
    ck_assert_int_eq(t.nbodies, ref_njoints(ref));
    for (i = 0; i < t.nbodies; i++)
        check_body(&t, i, ref);
    check_frames(&t, ref);
    tree_free(&t);
    ref_free(ref);
}
END_TEST

/* ---- small trees ---- */

static void build_from_text(const char *urdf, int floating, kin_tree *t)
{
    urdf_model u;
    tree_options opt = { 0 };
    char err[1024];
    ck_assert_msg(urdf_parse_memory(urdf, strlen(urdf), "mem.urdf", &u, err, sizeof err) == 0, "%s",
                  err);
    opt.floating_base = floating;
    ck_assert_msg(pipeline_tree(&u, &opt, t, err, sizeof err) == 0, "%s", err);
    urdf_free(&u);
}

#define LINK(n, m)                                                                                 \
    "<link name=\"" n "\"><inertial><mass value=\"" m "\"/>"                                       \
    "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial></link>"
#define JOINT(n, type, parent, child, xyz, axis)                                                   \
    "<joint name=\"" n "\" type=\"" type "\">"                                                     \
    "<parent link=\"" parent "\"/><child link=\"" child "\"/><origin xyz=\"" xyz "\"/>"            \
    "<axis xyz=\"" axis                                                                            \
    "\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>"

/* base -> (z) a -> (x) b, and base -> (y) c; sibling joints named so that strcmp order
 * ("j_a" < "j_c") differs from file order. */
static const char branchy[] = "<robot name=\"branchy\">" LINK("base", "1") LINK("a", "2")
    LINK("b", "3") LINK("c", "4") JOINT("j_c", "revolute", "base", "c", "0 0 0", "0 1 0")
        JOINT("j_b", "prismatic", "a", "b", "1 0 0", "1 0 0")
            JOINT("j_a", "continuous", "base", "a", "0 0 1", "0 0 -1") "</robot>";

START_TEST(order_sizes_and_expanded_parents)
{
    kin_tree t;
    build_from_text(branchy, 1, &t);
    ck_assert_int_eq(t.nbodies, 4);
    ck_assert_str_eq(t.bodies[0].joint_name, "root_joint");
    ck_assert_str_eq(t.bodies[1].joint_name, "j_a");
    ck_assert_str_eq(t.bodies[2].joint_name, "j_b");
    ck_assert_str_eq(t.bodies[3].joint_name, "j_c");
    ck_assert_int_eq(t.bodies[1].kind, TREE_REVOLUTE_UNBOUNDED);
    ck_assert_int_eq(t.bodies[1].axis_index, 2);
    ck_assert_int_eq(t.bodies[1].axis_sign, -1);
    ck_assert_int_eq(t.bodies[2].kind, TREE_PRISMATIC);
    /* sizes: free-flyer 7/6, continuous 2/1, prismatic 1/1, revolute 1/1 */
    ck_assert_int_eq(t.nq, 11);
    ck_assert_int_eq(t.nv, 9);
    ck_assert_int_eq(t.bodies[3].idx_q, 10);
    ck_assert_int_eq(t.bodies[3].idx_v, 8);
    /* DoFs: 0..5 free-flyer chain, 6 = j_a, 7 = j_b, 8 = j_c */
    ck_assert_int_eq(t.dof_parent[0], -1);
    ck_assert_int_eq(t.dof_parent[5], 4);
    ck_assert_int_eq(t.dof_parent[6], 5);
    ck_assert_int_eq(t.dof_parent[7], 6);
    ck_assert_int_eq(t.dof_parent[8], 5);
    ck_assert_int_eq(t.dof_body[7], 2);
    ck_assert_int_eq(t.depth[2], 3);
    ck_assert_int_eq(t.subtree[0], 4);
    ck_assert_int_eq(t.max_depth, 3);
    /* ancestors per DoF: 0,1,2,3,4,5, 6, 7, 6 -> nnz L = sum(a+1) = 21+7+8+7 = 43 */
    ck_assert_int_eq(t.nnz_L, 43);
    ck_assert_int_eq(t.nnz_M, 2 * 43 - 9);
    ck_assert(tree_dof_supports(&t, 6, 7));
    ck_assert(!tree_dof_supports(&t, 6, 8));
    tree_free(&t);
}
END_TEST

/* A fixed child 2 m along x with mass 3 is lumped into a body of mass 1 at its origin. */
static const char lumped[] =
    "<robot name=\"lumped\"><link name=\"world\"/>" LINK("arm", "1") LINK("tip", "3") JOINT(
        "j", "revolute", "world", "arm", "0 0 0",
        "0 0 1") "<joint name=\"weld\" type=\"fixed\"><parent link=\"arm\"/><child link=\"tip\"/>"
                 "<origin xyz=\"2 0 0\" rpy=\"0 0 1.5707963267948966\"/></joint></robot>";

START_TEST(fixed_joint_lumps_inertia_and_keeps_frame)
{
    kin_tree t;
    int f;
    build_from_text(lumped, 0, &t);
    ck_assert_int_eq(t.nbodies, 1);
    ck_assert_double_eq_tol(t.bodies[0].mass, 4.0, 1e-15);
    /* com = (1*0 + 3*2)/4 = 1.5 along x */
    ck_assert_double_eq_tol(t.bodies[0].com[0], 1.5, 1e-15);
    /* about the com: unit inertias (2) plus m d^2 off the x axis: 1*1.5^2 + 3*0.5^2 = 3 */
    ck_assert_double_eq_tol(t.bodies[0].inertia[0], 2.0, 1e-14);
    ck_assert_double_eq_tol(t.bodies[0].inertia[3], 5.0, 1e-14);
    ck_assert_double_eq_tol(t.bodies[0].inertia[5], 5.0, 1e-14);
    ck_assert_double_eq_tol(t.bodies[0].inertia[1], 0.0, 1e-15);
    f = tree_find_frame(&t, "tip");
    ck_assert_int_ge(f, 0);
    ck_assert_int_eq(t.frames[f].body, 0);
    ck_assert_double_eq(t.frames[f].p[0], 2.0);
    /* a right angle written as a rounded decimal becomes an exact rotation */
    ck_assert_double_eq(t.frames[f].R[0], 0.0);
    ck_assert_double_eq(t.frames[f].R[1], -1.0);
    ck_assert_double_eq(t.frames[f].R[3], 1.0);
    ck_assert_int_eq(t.frames[tree_find_frame(&t, "world")].body, -1);
    tree_free(&t);
}
END_TEST

/* A joint origin with small genuine angles (from a real CAD export: R[2] is 4e-10) between a
 * floating base and an arm, and a weld written with rounded right angles. */
static const char small_angles[] = "<robot name=\"sa\">" LINK("base", "2") LINK("arm", "1") LINK(
    "tip",
    "0.5") "<joint name=\"shoulder\" type=\"revolute\"><parent link=\"base\"/><child link=\"arm\"/>"
           "<origin xyz=\"0.1 0.2 0.3\" rpy=\"0.27931 5.4949E-05 -0.00019159\"/><axis xyz=\"0 1 "
           "0\"/>"
           "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>"
           "<joint name=\"weld\" type=\"fixed\"><parent link=\"arm\"/><child link=\"tip\"/>"
           "<origin xyz=\"0 0 0.4\" rpy=\"1.57079632679 0 -3.14159265359\"/></joint></robot>";

/* max |R R^T - 1| */
static double orthogonality_error(const double R[9])
{
    double worst = 0;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            double d = R[3 * i] * R[3 * j] + R[3 * i + 1] * R[3 * j + 1] +
                       R[3 * i + 2] * R[3 * j + 2] - (i == j);
            worst = fabs(d) > worst ? fabs(d) : worst;
        }
    return worst;
}

/* The angles are snapped, not the entries: a rotation of small genuine angles keeps its
 * 4e-10 entry and stays orthogonal to rounding (1e-15: a few ulp of the 1-sized entries),
 * so a floating robot at rest needs exactly its weight and no sideways force; rounded right
 * angles still become exact 0 and +-1. */
START_TEST(angles_are_snapped_and_rotations_stay_orthogonal)
{
    kin_tree t;
    model_table mt;
    cdyn_data d;
    static unsigned char work[1 << 16];
    cdyn_real q[8], v[7] = { 0 }, a[7] = { 0 }, tau[7];
    const double *R;
    int f, k;
    build_from_text(small_angles, 1, &t);
    R = t.bodies[1].R;
    ck_assert_msg(orthogonality_error(R) <= 1e-15, "|R R^T - 1| = %g", orthogonality_error(R));
    /* cy sp cr + sy sr of the URDF's rpy, computed apart from tree.c */
    ck_assert_double_eq_tol(
        R[2], cos(-0.00019159) * sin(5.4949E-05) * cos(0.27931) + sin(-0.00019159) * sin(0.27931),
        1e-18);
    ck_assert_double_ne(R[2], 0.0);
    f = tree_find_frame(&t, "tip");
    for (k = 0; k < 9; k++)
        ck_assert_msg(t.frames[f].R[k] == 0.0 || fabs(t.frames[f].R[k]) == 1.0,
                      "tip R[%d] = %.17g is not folded", k, t.frames[f].R[k]);
    ck_assert_int_ge(t.nsnapped, 2);
    /* at rest in the neutral pose, the base carries the weight (3.5 kg) straight up */
    ck_assert_int_eq(model_table_from_tree(&t, &mt), 0);
    ck_assert_uint_le(cdyn_data_size(&mt.model), sizeof work);
    ck_assert_int_eq(cdyn_data_init(&d, &mt.model, work, sizeof work), CDYN_OK);
    ck_assert_int_eq(cdyn_neutral(&mt.model, q), CDYN_OK);
    ck_assert_int_eq(cdyn_rnea(&mt.model, &d, q, v, a, tau), CDYN_OK);
    ck_assert_msg(fabs(tau[0]) <= 1e-15 * 3.5 * 9.81 && fabs(tau[1]) <= 1e-15 * 3.5 * 9.81,
                  "sideways base force %g %g", tau[0], tau[1]);
    ck_assert_double_eq_tol(tau[2], 3.5 * 9.81, 1e-15 * 3.5 * 9.81);
    model_table_free(&mt);
    tree_free(&t);
}
END_TEST

static const char skewed_planar[] = "<robot name=\"sp\">" LINK("base", "1") LINK("slider", "2")
    LINK("arm", "1") JOINT("plane", "planar", "base", "slider", "0 0 0", "1 1 0")
        JOINT("hinge", "revolute", "slider", "arm", "0 0 0.5", "1 2 2") "</robot>";

START_TEST(planar_and_general_axes)
{
    kin_tree t;
    const double *R;
    int f;
    build_from_text(skewed_planar, 0, &t);
    ck_assert_int_eq(t.bodies[0].kind, TREE_PLANAR);
    ck_assert_int_eq(t.nq, 5);
    ck_assert_int_eq(t.nv, 4);
    /* the planar joint frame's z is the URDF axis (1 1 0)/sqrt 2 */
    R = t.bodies[0].R;
    ck_assert_double_eq_tol(R[2], sqrt(0.5), 1e-15);
    ck_assert_double_eq_tol(R[5], sqrt(0.5), 1e-15);
    ck_assert_double_eq_tol(R[8], 0.0, 1e-15);
    /* the slider link frame is turned back: its placement in the body is R^T */
    f = tree_find_frame(&t, "slider");
    ck_assert_double_eq_tol(t.frames[f].R[6], R[2], 1e-15);
    ck_assert_int_eq(t.bodies[1].axis_index, -1);
    ck_assert_double_eq_tol(t.bodies[1].axis[0], 1.0 / 3.0, 1e-15);
    ck_assert_double_eq_tol(t.bodies[1].axis[2], 2.0 / 3.0, 1e-15);
    /* the hinge's placement is in the turned planar frame: p = R^T (0 0 0.5) */
    ck_assert_double_eq_tol(t.bodies[1].p[0], R[6] * 0.5, 1e-15);
    ck_assert_double_eq_tol(t.bodies[1].p[2], R[8] * 0.5, 1e-15);
    tree_free(&t);
}
END_TEST

/* Two coincident z axes with nothing but the far body carrying inertia: M is singular and the
 * first joint is the one to blame. */
static const char singular[] =
    "<robot name=\"s\"><link name=\"world\"/><link name=\"massless\"/>" LINK("tip", "1")
        JOINT("first", "revolute", "world", "massless", "0 0 0", "0 0 1")
            JOINT("second", "revolute", "massless", "tip", "0 0 0", "0 0 1") "</robot>";

START_TEST(singular_tree_is_rejected_naming_the_joint)
{
    kin_tree t;
    char err[1024];
    build_from_text(singular, 0, &t);
    ck_assert_int_eq(validate_inertia(&t, "mem.urdf", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "mem.urdf:") == err, "%s", err);
    ck_assert_msg(strstr(err, "joint \"first\"") != NULL, "%s", err);
    tree_free(&t);
    build_from_text(branchy, 1, &t);
    ck_assert_msg(validate_inertia(&t, "mem.urdf", err, sizeof err) == 0, "%s", err);
    tree_free(&t);
}
END_TEST

/* A URDF of n joints of `type`: a chain (each on the last link) or a star (all on the
 * first), written into a heap buffer the caller frees. */
static char *many_joints(int n, const char *type, int chain)
{
    size_t cap = (size_t)n * 400 + 512, k = 0;
    char *s = malloc(cap);
    int i;
    ck_assert_ptr_nonnull(s);
    k += (size_t)snprintf(s + k, cap - k, "<robot name=\"many\">" LINK("l0", "1"));
    for (i = 1; i <= n; i++)
        k += (size_t)snprintf(s + k, cap - k,
                              "<link name=\"l%d\"><inertial><mass value=\"1\"/><inertia "
                              "ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/>"
                              "</inertial></link><joint name=\"j%d\" type=\"%s\"><parent "
                              "link=\"l%d\"/><child link=\"l%d\"/><axis xyz=\"0 0 1\"/>"
                              "</joint>",
                              i, i, type, chain ? i - 1 : 0, i);
    snprintf(s + k, cap - k, "</robot>");
    return s;
}

/* tree_build's verdict on a text: 0, or -1 with the message in err. */
static int try_build(const char *urdf, char *err, size_t errlen)
{
    urdf_model u;
    kin_tree t;
    tree_options opt = { 0 };
    int rc;
    ck_assert_msg(urdf_parse_memory(urdf, strlen(urdf), "mem.urdf", &u, err, errlen) == 0, "%s",
                  err);
    rc = pipeline_tree(&u, &opt, &t, err, errlen);
    if (rc == 0)
        tree_free(&t);
    urdf_free(&u);
    return rc;
}

START_TEST(deep_fixed_chain_is_walked_without_recursion)
{
    char err[1024];
    char *urdf = many_joints(30000, "fixed", 1); /* recursion overflowed at ~12,000 */
    ck_assert_msg(try_build(urdf, err, sizeof err) == 0, "%s", err);
    free(urdf);
}
END_TEST

START_TEST(limits_are_checked_naming_the_joint)
{
    char err[1024];
    char *urdf = many_joints(143, "continuous", 1); /* work 984,984: accepted */
    ck_assert_msg(try_build(urdf, err, sizeof err) == 0, "%s", err);
    free(urdf);
    urdf = many_joints(144, "continuous", 1); /* work 1,005,720: refused */
    ck_assert_int_eq(try_build(urdf, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "joint \"j144\": a chain of 144 DoFs ends here") != NULL, "%s", err);
    free(urdf);
    urdf = many_joints(TREE_MAX_DOFS, "continuous", 0);
    ck_assert_msg(try_build(urdf, err, sizeof err) == 0, "%s", err);
    free(urdf);
    urdf = many_joints(TREE_MAX_DOFS + 1, "continuous", 0);
    ck_assert_int_eq(try_build(urdf, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "the robot has 1025 DoFs") != NULL, "%s", err);
    ck_assert_msg(strstr(err, "mem.urdf:") == err, "%s", err);
    free(urdf);
}
END_TEST

static Suite *tree_suite(void)
{
    Suite *s = suite_create("tree");
    TCase *tc = tcase_create("reference");
    TCase *small = tcase_create("small");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, reference_robot_matches_pinocchio_model, 0,
                        (int)(sizeof robots / sizeof robots[0]));
    tcase_add_test(small, order_sizes_and_expanded_parents);
    tcase_add_test(small, fixed_joint_lumps_inertia_and_keeps_frame);
    tcase_add_test(small, planar_and_general_axes);
    tcase_add_test(small, angles_are_snapped_and_rotations_stay_orthogonal);
    tcase_add_test(small, singular_tree_is_rejected_naming_the_joint);
    tcase_add_test(small, deep_fixed_chain_is_walked_without_recursion);
    tcase_add_test(small, limits_are_checked_naming_the_joint);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, small);
    return s;
}

int main(void)
{
    return check_run(tree_suite(), CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
