/* test_random_robots.c — the sample robots in robots/ and the seeded random-robot generator:
 * every sample parses and builds with the sizes, frames and masses of its published sources;
 * every random seed parses, builds with the size the generator booked, is reproducible, and
 * the seeds 0..99 together cover what the generator promises to roam. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/check_main.h"
#include "support/models.h"
#include "support/random_robot.h"
#include "support/random_robot_args.h"
#include "model/tree.h"
#include "pipeline.h"
#include "parse/urdf.h"

#define NSEEDS 100
#define PI 3.14159265358979323846

/* ------------------------------------------------------------ sample robots --- */

typedef struct {
    const char *file;
    int floating, nq, nv;
    double mass;           /* moving mass in kg, from the sources quoted in the file */
    const char *frames[8]; /* frames other areas rely on (contacts, tools, loops) */
} sample_robot;

static const sample_robot samples[] = {
    /* Gaz et al. 2019, links 1..7 */
    { "arm7.urdf",
      0,
      7,
      7,
      4.970684 + 0.646926 + 3.228604 + 3.587895 + 1.225946 + 1.666555 + 0.735522,
      { "base", "flange", "tool", NULL } },
    /* Mini Cheetah: trunk 3.3 kg, per leg 0.54 + 0.634 + 0.064 kg */
    { "quadruped12.urdf",
      1,
      19,
      18,
      3.3 + 4 * (0.54 + 0.634 + 0.064),
      { "trunk", "imu", "lf_foot", "rf_foot", "lh_foot", "rh_foot", NULL } },
    /* de Leva's shares add up to 100 % of 70 kg */
    { "humanoid.urdf",
      1,
      39,
      38,
      70.0,
      { "left_sole", "right_sole", "left_hand", "right_hand", "imu", "camera", NULL } },
    /* aluminium bars 20 x 6 mm: rho w t (0.10 + 0.25 + 0.20) */
    { "fourbar.urdf",
      0,
      3,
      3,
      2700.0 * 0.020 * 0.006 * (0.10 + 0.25 + 0.20),
      { "ground", "coupler_tip", "rocker_tip", NULL } },
};
#define NSAMPLES ((int)(sizeof samples / sizeof samples[0]))

/* Parses and builds robots/<file>, failing with the library's message. */
static void sample_tree(const sample_robot *s, urdf_model *u, kin_tree *t)
{
    char path[1024], err[512] = "";
    tree_options opt = { 0 };
    snprintf(path, sizeof path, "%s/robots/%s", CDYN_SOURCE_DIR, s->file);
    ck_assert_msg(urdf_parse_file(path, u, err, sizeof err) == 0, "%s", err);
    opt.floating_base = s->floating;
    ck_assert_msg(pipeline_tree(u, &opt, t, err, sizeof err) == 0, "%s", err);
}

static double total_mass(const kin_tree *t)
{
    double m = 0.0;
    int b;
    for (b = 0; b < t->nbodies; ++b)
        m += t->bodies[b].mass;
    return m;
}

START_TEST(sample_robot_builds_with_its_design_sizes)
{
    const sample_robot *s = &samples[_i];
    urdf_model u;
    kin_tree t;
    int k;
    sample_tree(s, &u, &t);
    ck_assert_int_eq(t.floating, s->floating);
    ck_assert_int_eq(t.nq, s->nq);
    ck_assert_int_eq(t.nv, s->nv);
    ck_assert_double_eq_tol(total_mass(&t), s->mass, 1e-9);
    for (k = 0; s->frames[k]; ++k)
        ck_assert_msg(tree_find_frame(&t, s->frames[k]) >= 0, "%s: no frame %s", s->file,
                      s->frames[k]);
    tree_free(&t);
    urdf_free(&u);
}
END_TEST

static int body_named(const kin_tree *t, const char *joint)
{
    int b;
    for (b = 0; b < t->nbodies; ++b)
        if (!strcmp(t->bodies[b].joint_name, joint))
            return b;
    return -1;
}

/* World pose of a frame at q = 0, where every revolute joint is the identity: the product
 * of the constant placements from the root down. */
static void frame_pose_at_zero(const kin_tree *t, int f, double R[9], double p[3])
{
    double Rn[9], pn[3];
    int b, i, j;
    memcpy(R, t->frames[f].R, sizeof Rn);
    memcpy(p, t->frames[f].p, sizeof pn);
    for (b = t->frames[f].body; b >= 0; b = t->bodies[b].parent) {
        const double *Rb = t->bodies[b].R, *pb = t->bodies[b].p;
        for (i = 0; i < 3; ++i) {
            for (j = 0; j < 3; ++j)
                Rn[3 * i + j] =
                    Rb[3 * i] * R[j] + Rb[3 * i + 1] * R[3 + j] + Rb[3 * i + 2] * R[6 + j];
            pn[i] = Rb[3 * i] * p[0] + Rb[3 * i + 1] * p[1] + Rb[3 * i + 2] * p[2] + pb[i];
        }
        memcpy(R, Rn, sizeof Rn);
        memcpy(p, pn, sizeof pn);
    }
}

/* The flange and the Franka Hand's TCP ride on joint 7: 0.107 + 0.1034 m along its z, turned
 * -pi/4 about z; at q = 0 the flange is at (0.088, 0, 0.926) (the Panda's home pose). */
START_TEST(arm7_tool_frame_sits_on_joint7)
{
    urdf_model u;
    kin_tree t;
    double c = cos(-PI / 4), s = sin(-PI / 4), R[9], p[3];
    const double Rtool[9] = { c, -s, 0, s, c, 0, 0, 0, 1 };
    int f, k;
    sample_tree(&samples[0], &u, &t);
    f = tree_find_frame(&t, "tool");
    ck_assert_int_ge(f, 0);
    ck_assert_int_eq(t.frames[f].body, body_named(&t, "joint7"));
    ck_assert_double_eq_tol(t.frames[f].p[0], 0.0, 1e-15);
    ck_assert_double_eq_tol(t.frames[f].p[1], 0.0, 1e-15);
    ck_assert_double_eq_tol(t.frames[f].p[2], 0.107 + 0.1034, 1e-15);
    for (k = 0; k < 9; ++k)
        ck_assert_double_eq_tol(t.frames[f].R[k], Rtool[k], 1e-15);
    frame_pose_at_zero(&t, tree_find_frame(&t, "flange"), R, p);
    ck_assert_double_eq_tol(p[0], 0.088, 1e-12);
    ck_assert_double_eq_tol(p[1], 0.0, 1e-12);
    ck_assert_double_eq_tol(p[2], 0.333 + 0.316 + 0.384 - 0.107, 1e-12);
    tree_free(&t);
    urdf_free(&u);
}
END_TEST

/* The four-bar is assembled at q = 0: both sides of the cut pin at B, where the coupler
 * (0.25 m from the crank tip at (0, 0.10)) meets the rocker (0.20 m from (0.30, 0)). */
START_TEST(fourbar_loop_is_closed_at_zero)
{
    urdf_model u;
    kin_tree t;
    double Rc[9], pc[3], Rr[9], pr[3];
    int k;
    sample_tree(&samples[3], &u, &t);
    frame_pose_at_zero(&t, tree_find_frame(&t, "coupler_tip"), Rc, pc);
    frame_pose_at_zero(&t, tree_find_frame(&t, "rocker_tip"), Rr, pr);
    for (k = 0; k < 3; ++k)
        ck_assert_double_eq_tol(pc[k], pr[k], 1e-12);
    ck_assert_double_eq_tol(hypot(pc[0] - 0.0, pc[1] - 0.10), 0.25, 1e-12);
    ck_assert_double_eq_tol(hypot(pr[0] - 0.30, pr[1]), 0.20, 1e-12);
    ck_assert(pc[1] > 0.0); /* the open (upper) assembly */
    tree_free(&t);
    urdf_free(&u);
}
END_TEST

/* Mini Cheetah feet: 0.195 m below the knee on each shank; hips at (+-0.19, +-0.049). */
START_TEST(quadruped_feet_sit_on_the_shanks)
{
    static const char *const legs[4] = { "lf", "rf", "lh", "rh" };
    urdf_model u;
    kin_tree t;
    char frame[32], knee[32];
    double R[9], p[3];
    int k, f;
    sample_tree(&samples[1], &u, &t);
    for (k = 0; k < 4; ++k) {
        snprintf(frame, sizeof frame, "%s_foot", legs[k]);
        snprintf(knee, sizeof knee, "%s_kfe", legs[k]);
        f = tree_find_frame(&t, frame);
        ck_assert_int_eq(t.frames[f].body, body_named(&t, knee));
        ck_assert_double_eq_tol(t.frames[f].p[2], -0.195, 1e-15);
        frame_pose_at_zero(&t, f, R, p); /* trunk at the origin with the free-flyer */
        ck_assert_double_eq_tol(p[0], k < 2 ? 0.19 : -0.19, 1e-12);
        ck_assert_double_eq_tol(p[1], k % 2 == 0 ? 0.049 + 0.062 : -0.049 - 0.062, 1e-12);
        ck_assert_double_eq_tol(p[2], -0.209 - 0.195, 1e-12);
    }
    tree_free(&t);
    urdf_free(&u);
}
END_TEST

/* ------------------------------------------------------------ random robots --- */

/* Parses and builds the robot of `seed` as "random_<seed>.urdf"; returns its text (caller
 * frees). */
static char *load_random(unsigned seed, urdf_model *u, kin_tree *t, int *floating)
{
    char name[32];
    snprintf(name, sizeof name, "random_%u.urdf", seed);
    return random_robot_tree(seed, name, u, t, floating);
}

static int moving_joints(const urdf_model *u)
{
    int j, n = 0;
    for (j = 0; j < u->njoints; ++j)
        n += u->joints[j].type != URDF_FIXED;
    return n;
}

START_TEST(random_robot_builds_with_its_booked_size)
{
    unsigned seed = (unsigned)_i;
    urdf_model u;
    kin_tree t;
    int floating = -1, again = -1;
    char *text = load_random(seed, &u, &t, &floating), *second;
    ck_assert_int_eq(t.floating, floating);
    ck_assert_int_eq(t.nv, random_robot_expected_nv(seed));
    ck_assert_int_eq(t.nq, random_robot_expected_nq(seed));
    ck_assert_int_eq(moving_joints(&u), random_robot_moving_joints(seed));
    second = random_robot_urdf(seed, &again);
    ck_assert_ptr_nonnull(second);
    ck_assert_int_eq(again, floating);
    ck_assert_msg(strcmp(text, second) == 0, "seed %u: two calls differ", seed);
    free(second);
    free(text);
    tree_free(&t);
    urdf_free(&u);
}
END_TEST

START_TEST(neighbouring_seeds_differ)
{
    unsigned seed;
    for (seed = 0; seed < 20; ++seed) {
        char *a = random_robot_urdf(seed, NULL), *b = random_robot_urdf(seed + 1, NULL);
        ck_assert_ptr_nonnull(a);
        ck_assert_ptr_nonnull(b);
        ck_assert_str_ne(a, b);
        free(a);
        free(b);
    }
}
END_TEST

/* What seeds 0..99 must show between them, as the parser sees it. */
typedef struct {
    int types[6]; /* robots using each urdf_joint_type */
    int floating_seeds, extreme_seeds, one_joint, forty_joints;
    int no_inertial, general_axis, near_axis, right_angle_rpy;
    int space, dash, dot, entity, utf8, keyword, digit_first, sanitised_clash;
} coverage;

static void sanitise(const char *in, char *out, size_t n)
{
    size_t k;
    for (k = 0; in[k] && k + 1 < n; ++k) {
        char c = in[k];
        out[k] =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '_';
    }
    out[k] = '\0';
}

static void note_name(coverage *c, const char *name)
{
    const unsigned char *s;
    c->space += strchr(name, ' ') != NULL;
    c->dash += strchr(name, '-') != NULL;
    c->dot += strchr(name, '.') != NULL;
    c->entity += strpbrk(name, "&<\"") != NULL;
    c->keyword += !strcmp(name, "int") || !strcmp(name, "double") || !strcmp(name, "return");
    c->digit_first += name[0] >= '0' && name[0] <= '9';
    for (s = (const unsigned char *)name; *s; ++s)
        if (*s >= 0x80) {
            c->utf8++;
            break;
        }
}

/* Two distinct link names that read the same once non-identifier bytes become '_'. */
static int has_sanitised_clash(const urdf_model *u)
{
    char a[256], b[256];
    int i, j;
    for (i = 0; i < u->nlinks; ++i)
        for (j = i + 1; j < u->nlinks; ++j) {
            sanitise(u->links[i].name, a, sizeof a);
            sanitise(u->links[j].name, b, sizeof b);
            if (!strcmp(a, b))
                return 1;
        }
    return 0;
}

static void note_axis(coverage *c, const double a[3])
{
    int k, zeros = 0, tiny = 0;
    for (k = 0; k < 3; ++k) {
        double x = fabs(a[k]);
        zeros += x == 0.0;
        tiny += x > 0.0 && x < 1e-3;
    }
    c->general_axis += zeros == 0 && tiny == 0;
    c->near_axis += tiny > 0;
}

static void note_robot(coverage *c, const urdf_model *u)
{
    int seen[6] = { 0 }, k;
    for (k = 0; k < u->njoints; ++k) {
        const urdf_joint *j = &u->joints[k];
        seen[j->type] = 1;
        note_name(c, j->name);
        if (j->type != URDF_FIXED && j->type != URDF_FLOATING)
            note_axis(c, j->axis);
        c->right_angle_rpy += fabs(fabs(j->origin.rpy[0]) - PI / 2) < 1e-15;
    }
    for (k = 0; k < 6; ++k)
        c->types[k] += seen[k];
    for (k = 0; k < u->nlinks; ++k) {
        note_name(c, u->links[k].name);
        c->no_inertial += !u->links[k].has_inertial;
    }
    c->sanitised_clash += has_sanitised_clash(u);
}

START_TEST(seeds_roam_the_promised_space)
{
    coverage c;
    unsigned seed;
    int k;
    memset(&c, 0, sizeof c);
    for (seed = 0; seed < NSEEDS; ++seed) {
        urdf_model u;
        kin_tree t;
        int floating, n = random_robot_moving_joints(seed);
        free(load_random(seed, &u, &t, &floating));
        note_robot(&c, &u);
        c.floating_seeds += floating;
        c.extreme_seeds += random_robot_is_extreme(seed) == 1;
        c.one_joint += n == 1;
        c.forty_joints += n == 40;
        ck_assert_int_ge(n, 1);
        ck_assert_int_le(n, 40);
        tree_free(&t);
        urdf_free(&u);
    }
    for (k = 0; k < 6; ++k)
        ck_assert_msg(c.types[k] > 0, "no %s joint in seeds 0..%d", urdf_joint_type_name(k),
                      NSEEDS - 1);
    ck_assert_int_ge(c.floating_seeds, NSEEDS / 5); /* "about a third" */
    ck_assert_int_le(c.floating_seeds, NSEEDS / 2);
    ck_assert_int_ge(c.extreme_seeds, 1); /* "a few" */
    ck_assert_int_le(c.extreme_seeds, NSEEDS / 10);
    ck_assert_int_gt(c.one_joint, 0);
    ck_assert_int_gt(c.forty_joints, 0);
    ck_assert_int_gt(c.no_inertial, 0);
    ck_assert_int_gt(c.general_axis, 0);
    ck_assert_int_gt(c.near_axis, 0);
    ck_assert_int_gt(c.right_angle_rpy, 0);
    ck_assert_int_gt(c.space, 0);
    ck_assert_int_gt(c.dash, 0);
    ck_assert_int_gt(c.dot, 0);
    ck_assert_int_gt(c.entity, 0);
    ck_assert_int_gt(c.utf8, 0);
    ck_assert_int_gt(c.keyword, 0);
    ck_assert_int_gt(c.digit_first, 0);
    ck_assert_int_gt(c.sanitised_clash, 0);
}
END_TEST

/* The big seeds are what support/random_robot.h says: 3 or more chains straight on the root (the
 * free-flyer's body for seed 1002) with more than 1000 products in the LTDL (the
 * generator's in-place threshold, counted as emit_ltl_in_place does), planar and free
 * joints where promised. */
START_TEST(big_seed_is_a_deep_forest)
{
    unsigned seed = (unsigned)_i;
    urdf_model u;
    kin_tree t;
    int floating, b, k, i, j, chains = 0, planar = 0, free_joints = 0;
    long products = 0;
    free(load_random(seed, &u, &t, &floating));
    for (b = 0; b < t.nbodies; ++b) {
        chains += t.bodies[b].parent == (t.floating ? 0 : -1);
        planar += t.bodies[b].kind == TREE_PLANAR;
        free_joints += t.bodies[b].kind == TREE_FREEFLYER && b != 0;
    }
    for (k = 0; k < t.nv; ++k)
        for (i = t.dof_parent[k]; i >= 0; i = t.dof_parent[i])
            for (products++, j = i; j >= 0; j = t.dof_parent[j])
                products++;
    ck_assert_int_ge(chains, 3);
    ck_assert_int_gt(products, 1000);
    ck_assert_int_eq(floating, seed == RANDOM_ROBOT_BIG_FIRST + 2);
    ck_assert_int_eq(planar > 0, seed != RANDOM_ROBOT_BIG_FIRST);
    ck_assert_int_eq(free_joints, seed == RANDOM_ROBOT_BIG_FIRST + 1);
    tree_free(&t);
    urdf_free(&u);
}
END_TEST

/* Outside the extreme seeds, masses stay in 1e-3..50 kg within four decades per robot. */
START_TEST(ordinary_seeds_keep_masses_sane)
{
    unsigned seed = (unsigned)_i;
    urdf_model u;
    kin_tree t;
    int floating, k;
    double lo = INFINITY, hi = 0.0;
    if (random_robot_is_extreme(seed))
        return;
    free(load_random(seed, &u, &t, &floating));
    for (k = 0; k < u.nlinks; ++k) {
        if (!u.links[k].has_inertial)
            continue;
        lo = fmin(lo, u.links[k].mass);
        hi = fmax(hi, u.links[k].mass);
    }
    if (hi > 0.0) {
        ck_assert_double_ge(lo, 1e-3);
        ck_assert_double_le(hi, 50.0);
        ck_assert_double_le(hi / lo, 1e4 * (1.0 + 1e-12));
    }
    tree_free(&t);
    urdf_free(&u);
}
END_TEST

/* The options random_urdf_tool writes (random_robot_args.h) over seeds 0..99: reproducible;
 * frictional contacts on about half the seeds, on distinct frames of moving bodies, some mixed
 * with 3d/6d contacts or loops; --joint-limits on about two in five, only where a joint has
 * limits the step can hold; and the 12 seeds the sanitizers build (tests/sanitizers.cmake)
 * have both. */
START_TEST(random_options_roam_the_contact_step)
{
    unsigned seed;
    int friction = 0, mixed = 0, limits = 0, small_friction = 0, small_limits = 0;
    for (seed = 0; seed < NSEEDS; ++seed) {
        urdf_model u;
        kin_tree t;
        int floating, lim = -1, lim2 = -1, nf, nf2;
        char *text = load_random(seed, &u, &t, &floating), a[4096] = "", b[4096] = "";
        char all[4096], again[4096];
        const char *at;
        random_robot_constraint_options(&t, seed, a, sizeof a);
        nf = random_robot_step_options(&t, seed, a, sizeof a, &lim);
        nf2 = random_robot_step_options(&t, seed, b, sizeof b, &lim2);
        ck_assert_int_eq(nf, nf2);
        ck_assert_int_eq(lim, lim2);
        random_robot_options(&t, seed, floating, all, sizeof all);
        random_robot_options(&t, seed, floating, again, sizeof again);
        ck_assert_str_eq(all, again);
        ck_assert_msg(strstr(all, a) != NULL, "seed %u: %s not in %s", seed, a, all);
        ck_assert_int_le(nf, RANDOM_ROBOT_MAX_FRICTION);
        ck_assert(!lim || tree_limited_joints(&t, NULL) > 0);
        /* each frictional contact: a frame of a moving body, named once */
        for (at = strstr(b, "--contact "); at; at = strstr(at + 1, "--contact ")) {
            char name[256];
            const char *end = strchr(at + 10, ':');
            int f, count = 0;
            const char *other;
            ck_assert(end && (size_t)(end - at - 10) < sizeof name);
            memcpy(name, at + 10, (size_t)(end - at - 10));
            name[end - at - 10] = '\0';
            ck_assert(strncmp(end, ":friction", 9) == 0);
            f = tree_find_frame(&t, name);
            ck_assert_msg(f >= 0 && t.frames[f].body >= 0, "seed %u: %s", seed, name);
            for (other = strstr(b, name); other; other = strstr(other + 1, name))
                count += other[-1] == ' ' && other[strlen(name)] == ':';
            ck_assert_int_eq(count, 1);
        }
        friction += nf > 0;
        limits += lim;
        mixed += nf > 0 && (strstr(a, ":3d") || strstr(a, ":6d"));
        small_friction += seed < 12 && nf > 0;
        small_limits += seed < 12 && lim;
        free(text);
        tree_free(&t);
        urdf_free(&u);
    }
    ck_assert_msg(friction >= 30 && friction <= 70, "%d seeds with friction", friction);
    ck_assert_msg(limits >= 20 && limits <= 60, "%d seeds with limits", limits);
    ck_assert_msg(mixed >= 10, "%d seeds with friction beside 3d/6d", mixed);
    ck_assert(small_friction > 0 && small_limits > 0);
}
END_TEST

static Suite *robots_suite(void)
{
    Suite *s = suite_create("robots");
    TCase *sample = tcase_create("samples");
    TCase *random = tcase_create("random");
    tcase_add_loop_test(sample, sample_robot_builds_with_its_design_sizes, 0, NSAMPLES);
    tcase_add_test(sample, arm7_tool_frame_sits_on_joint7);
    tcase_add_test(sample, fourbar_loop_is_closed_at_zero);
    tcase_add_test(sample, quadruped_feet_sit_on_the_shanks);
    tcase_set_timeout(random, 60);
    tcase_add_loop_test(random, random_robot_builds_with_its_booked_size, 0, NSEEDS);
    tcase_add_loop_test(random, ordinary_seeds_keep_masses_sane, 0, NSEEDS);
    tcase_add_test(random, neighbouring_seeds_differ);
    tcase_add_test(random, seeds_roam_the_promised_space);
    tcase_add_test(random, random_options_roam_the_contact_step);
    tcase_add_loop_test(random, random_robot_builds_with_its_booked_size, RANDOM_ROBOT_BIG_FIRST,
                        RANDOM_ROBOT_BIG_FIRST + RANDOM_ROBOT_BIG_COUNT);
    tcase_add_loop_test(random, ordinary_seeds_keep_masses_sane, RANDOM_ROBOT_BIG_FIRST,
                        RANDOM_ROBOT_BIG_FIRST + RANDOM_ROBOT_BIG_COUNT);
    tcase_add_loop_test(random, big_seed_is_a_deep_forest, RANDOM_ROBOT_BIG_FIRST,
                        RANDOM_ROBOT_BIG_FIRST + RANDOM_ROBOT_BIG_COUNT);
    suite_add_tcase(s, sample);
    suite_add_tcase(s, random);
    return s;
}

int main(void)
{
    return check_run(robots_suite(), CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
