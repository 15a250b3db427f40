/* test_urdf.c — stage 1: every rejection rule on a small bad_*.urdf file (exact line,
 * element, reason), every field of the ok_*.urdf files, size limits, and the reference
 * robots from Pinocchio's test set, counted by a text scan independent of the parser. */
#define _POSIX_C_SOURCE 200809L /* opendir */

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check_main.h"
#include "parse/urdf.h"

#define URDF_DIR CDYN_TESTS_DIR "/urdf/"
#define REFERENCE_DIR CDYN_SHARED_DIR "/reference/urdf/"

static void assert_empty(const urdf_model *m)
{
    ck_assert_ptr_null(m->name);
    ck_assert_ptr_null(m->file);
    ck_assert_ptr_null(m->links);
    ck_assert_ptr_null(m->joints);
    ck_assert_int_eq(m->nlinks, 0);
    ck_assert_int_eq(m->njoints, 0);
    ck_assert_int_eq(m->root, 0);
}

/* Parses a file expected to fail; returns the message and checks "path:line: ". */
static void expect_rejection(const char *path, int line, const char *element, const char *reason)
{
    urdf_model m;
    char err[1024], prefix[1024];
    memset(&m, 0xab, sizeof m); /* the parser must clear it */
    ck_assert_int_eq(urdf_parse_file(path, &m, err, sizeof err), -1);
    assert_empty(&m);
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    ck_assert_msg(strncmp(err, prefix, strlen(prefix)) == 0, "\"%s\" should start with \"%s\"", err,
                  prefix);
    ck_assert_msg(strstr(err, element) != NULL, "\"%s\" should name %s", err, element);
    ck_assert_msg(strstr(err, reason) != NULL, "\"%s\" should say \"%s\"", err, reason);
    ck_assert_ptr_null(strchr(err, '\n'));
}

/* ------------------------------------------------------------------ rejections */

typedef struct {
    const char *file;
    int line;
    const char *element;
    const char *reason;
} rejection;

static const rejection rejections[] = {
    { "bad_xml.urdf", 4, "malformed XML", "Opening and ending tag mismatch: link line 3" },
    { "bad_empty.urdf", 1, "<robot>", "empty" },
    { "bad_root.urdf", 2, "model \"not_a_robot\"", "root element must be <robot>" },
    { "bad_robot_name.urdf", 2, "<robot>", "missing name" },
    { "bad_no_links.urdf", 2, "robot \"empty_robot\"", "has no <link>" },
    { "bad_duplicate_link.urdf", 5, "link \"base\"", "duplicate link name (first at line 3)" },
    { "bad_duplicate_joint.urdf", 10, "joint \"j\"", "duplicate joint name (first at line 6)" },
    { "bad_missing_parent.urdf", 5, "joint \"orphan\"", "missing <parent>" },
    { "bad_unknown_parent.urdf", 6, "<parent>", "unknown link \"bsae\" (in joint \"j\")" },
    { "bad_missing_child.urdf", 5, "joint \"childless\"", "missing <child>" },
    { "bad_unknown_child.urdf", 7, "<child>", "unknown link \"ghost\" (in joint \"j\")" },
    { "bad_two_parents.urdf", 14, "joint \"j3\"",
      "link \"a\" is already the child of joint \"j1\"" },
    { "bad_cycle.urdf", 10, "joint \"b_to_a\"", "cycle" },
    { "bad_cycle_no_root.urdf", 14, "joint \"b_to_c\"", "cycle" },
    { "bad_self_loop.urdf", 5, "joint \"j\"", "cycle" },
    { "bad_two_roots.urdf", 5, "link \"floating_island\"", "second root" },
    { "bad_zero_axis.urdf", 8, "<axis>", "axis is zero (in joint \"j\")" },
    { "bad_mass_huge.urdf", 15, "<mass>", "mass 1e+308 kg is beyond what the dynamics can carry" },
    { "bad_nan.urdf", 6, "<origin>", "xyz \"0 NaN 0\" is not finite (in joint \"j\")" },
    { "bad_inf.urdf", 5, "<mass>", "value \"inf\" is not finite (in link \"base\")" },
    { "bad_overflow.urdf", 8, "<limit>", "lower \"-1e999\" is not finite" },
    { "bad_garbage.urdf", 6, "<inertia>", "iyy \"one\" is not a number (in link \"base\")" },
    { "bad_trailing_garbage.urdf", 8, "<axis>", "xyz \"0 0 1m\" is not a number" },
    { "bad_too_few_numbers.urdf", 5, "<origin>", "xyz \"0 0\" must hold 3 numbers, not 2" },
    { "bad_too_many_numbers.urdf", 6, "<origin>", "rpy \"0 0 0 0\" has more than 3 numbers" },
    { "bad_two_masses.urdf", 5, "<mass>", "value \"1 2\" has more than 1 number" },
    { "bad_empty_number.urdf", 5, "<mass>", "must hold 1 number, not 0" },
    { "bad_negative_mass.urdf", 5, "<mass>", "negative mass -0.5" },
    { "bad_missing_mass.urdf", 4, "<inertial>", "missing <mass> (in link \"base\")" },
    { "bad_missing_inertia_value.urdf", 6, "<inertia>", "missing iyz" },
    { "bad_unknown_type.urdf", 5, "joint \"knee\"", "unknown type \"twisty\"" },
    { "bad_missing_type.urdf", 5, "joint \"knee\"", "missing type" },
    { "bad_encoding.urdf", 1, "malformed XML", "encoder error" },
    { "bad_attlist_default.urdf", 10, "joint \"knee\"", "missing type" },
    { "bad_limit_order.urdf", 8, "<limit>", "lower 1.5 is above upper -1.5 (in joint \"knee\")" },
    { "bad_mimic_self.urdf", 8, "<mimic>", "mimics itself" },
    { "bad_entity_expansion.urdf", 3, "<!ENTITY>", "entity \"lol\" declared" },
    { "bad_external_entity.urdf", 4, "<!ENTITY>", "entity \"x\" declared" },
    { "bad_parameter_entity.urdf", 3, "<!ENTITY>", "entity \"remote\" declared" },
    { "bad_long_name.urdf", 4, "<link>", "name is longer than 255 bytes" },
};

#define NREJECTIONS ((int)(sizeof rejections / sizeof *rejections))

START_TEST(test_rejection)
{
    const rejection *r = &rejections[_i];
    char path[512];
    snprintf(path, sizeof path, "%s%s", URDF_DIR, r->file);
    expect_rejection(path, r->line, r->element, r->reason);
}
END_TEST

/* ------------------------------------------------------------------ valid files */

static void parse_ok(const char *file, urdf_model *m)
{
    char path[512], err[1024] = "not cleared";
    snprintf(path, sizeof path, "%s%s", URDF_DIR, file);
    ck_assert_msg(urdf_parse_file(path, m, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(m->file, path);
}

static void assert_origin(const urdf_origin *o, double x, double y, double z, double r, double p,
                          double w)
{
    ck_assert_double_eq(o->xyz[0], x);
    ck_assert_double_eq(o->xyz[1], y);
    ck_assert_double_eq(o->xyz[2], z);
    ck_assert_double_eq(o->rpy[0], r);
    ck_assert_double_eq(o->rpy[1], p);
    ck_assert_double_eq(o->rpy[2], w);
}

static void assert_axis(const urdf_joint *j, double x, double y, double z)
{
    ck_assert_double_eq_tol(j->axis[0], x, 1e-15);
    ck_assert_double_eq_tol(j->axis[1], y, 1e-15);
    ck_assert_double_eq_tol(j->axis[2], z, 1e-15);
}

static void assert_inertia(const urdf_link *l, double mass, double xx, double xy, double xz,
                           double yy, double yz, double zz)
{
    ck_assert_int_eq(l->has_inertial, 1);
    ck_assert_double_eq(l->mass, mass);
    ck_assert_double_eq(l->ixx, xx);
    ck_assert_double_eq(l->ixy, xy);
    ck_assert_double_eq(l->ixz, xz);
    ck_assert_double_eq(l->iyy, yy);
    ck_assert_double_eq(l->iyz, yz);
    ck_assert_double_eq(l->izz, zz);
}

static void assert_no_inertia(const urdf_link *l)
{
    ck_assert_int_eq(l->has_inertial, 0);
    ck_assert_double_eq(l->mass, 0);
    ck_assert_double_eq(l->ixx + l->iyy + l->izz, 0);
    ck_assert_double_eq(l->ixy * l->ixy + l->ixz * l->ixz + l->iyz * l->iyz, 0);
    assert_origin(&l->inertial_origin, 0, 0, 0, 0, 0, 0);
}

static void assert_joint(const urdf_joint *j, const char *name, int line, urdf_joint_type type,
                         int parent, int child)
{
    ck_assert_str_eq(j->name, name);
    ck_assert_int_eq(j->line, line);
    ck_assert_int_eq(j->type, type);
    ck_assert_int_eq(j->parent, parent);
    ck_assert_int_eq(j->child, child);
}

static void assert_limit(const urdf_joint *j, double lower, double upper, double effort,
                         double velocity)
{
    ck_assert_int_eq(j->has_limit, 1);
    ck_assert_double_eq(j->lower, lower);
    ck_assert_double_eq(j->upper, upper);
    ck_assert_double_eq(j->effort, effort);
    ck_assert_double_eq(j->velocity, velocity);
}

START_TEST(test_joint_types_links)
{
    static const char *const names[] = { "base",  "upper", "wheel",    "slider",   "bracket",
                                         "drone", "puck",  "follower", "follower2" };
    static const int lines[] = { 6, 7, 16, 22, 29, 35, 36, 37, 38 };
    urdf_model m;
    int i;
    parse_ok("ok_joint_types.urdf", &m);
    ck_assert_str_eq(m.name, "every_joint");
    ck_assert_int_eq(m.nlinks, 9);
    ck_assert_int_eq(m.root, 0);
    for (i = 0; i < 9; i++) {
        ck_assert_str_eq(m.links[i].name, names[i]);
        ck_assert_int_eq(m.links[i].line, lines[i]);
    }
    assert_no_inertia(&m.links[0]);
    assert_inertia(&m.links[1], 2.5, 0.3, 0.01, -0.02, 0.4, 0.03, 0.5);
    assert_origin(&m.links[1].inertial_origin, 0.1, -0.2, 0.3, 0.01, 0.02, -0.03);
    assert_inertia(&m.links[2], 0.125, 1e-3, 0, 0, 1e-3, 0, 2e-3);
    assert_origin(&m.links[2].inertial_origin, 0, 0, 0, 0, 0, 0);
    assert_inertia(&m.links[3], 3, 1, 0, 0, 2, 0, 3); /* triangle equality holds exactly */
    assert_origin(&m.links[3].inertial_origin, 0, 0, 0.5, 0, 0, 0);
    assert_inertia(&m.links[4], 0, 0, 0, 0, 0, 0, 0); /* massless, but it has <inertial> */
    for (i = 5; i < 9; i++)
        assert_no_inertia(&m.links[i]);
    urdf_free(&m);
    assert_empty(&m);
}
END_TEST

START_TEST(test_joint_types_joints)
{
    const double r = 0.70710678118654752440;
    const urdf_joint *j;
    urdf_model m;
    parse_ok("ok_joint_types.urdf", &m);
    ck_assert_int_eq(m.njoints, 8); /* the <joint> in <transmission> is not one */
    j = &m.joints[0];
    assert_joint(j, "shoulder", 39, URDF_REVOLUTE, 0, 1);
    assert_origin(&j->origin, 1, 2, 3, 0.1, 0.2, 0.3);
    assert_axis(j, 0, 0, -1);
    assert_limit(j, -1.5, 2.5, 30, 4);
    ck_assert_int_eq(j->has_mimic, 0);
    ck_assert_ptr_null(j->mimic_joint);
    j = &m.joints[1];
    assert_joint(j, "spin", 47, URDF_CONTINUOUS, 1, 2);
    assert_origin(&j->origin, 0, 0, 0, 0, 0, 0);
    assert_axis(j, 1, 0, 0);
    assert_limit(j, 0, 0, 10, 2);
    j = &m.joints[2];
    assert_joint(j, "slide", 52, URDF_PRISMATIC, 2, 3);
    assert_origin(&j->origin, 0, 0, -0.25, 0, 0, 0);
    assert_axis(j, r, r, 0);
    assert_limit(j, 0, 0.5, 100, 0.2);
    j = &m.joints[3];
    assert_joint(j, "weld", 59, URDF_FIXED, 0, 4);
    assert_origin(&j->origin, 0, 0, 0, 0, 0, 3.14159);
    ck_assert_int_eq(j->has_limit, 0);
    assert_joint(&m.joints[4], "fly", 64, URDF_FLOATING, 4, 5);
    j = &m.joints[5];
    assert_joint(j, "glide", 68, URDF_PLANAR, 0, 6);
    assert_axis(j, 0, -0.6, 0.8);
    j = &m.joints[6];
    assert_joint(j, "copy", 73, URDF_REVOLUTE, 1, 7);
    assert_axis(j, -1, 0, 0);
    ck_assert_int_eq(j->has_mimic, 1);
    ck_assert_str_eq(j->mimic_joint, "shoulder");
    ck_assert_double_eq(j->mimic_multiplier, -2);
    ck_assert_double_eq(j->mimic_offset, 0.5);
    ck_assert_int_eq(j->has_limit, 0);
    j = &m.joints[7];
    assert_joint(j, "copy2", 80, URDF_CONTINUOUS, 7, 8);
    ck_assert_int_eq(j->has_mimic, 1);
    ck_assert_str_eq(j->mimic_joint, "spin");
    ck_assert_double_eq(j->mimic_multiplier, 1);
    ck_assert_double_eq(j->mimic_offset, 0);
    urdf_free(&m);
}
END_TEST

START_TEST(test_axis_scale)
{
    const double r = 0.70710678118654752440;
    urdf_model m;
    parse_ok("ok_axis_scale.urdf", &m);
    ck_assert_int_eq(m.njoints, 2);
    assert_axis(&m.joints[0], r, r, 0);
    assert_axis(&m.joints[1], 0, -0.6, 0.8);
    urdf_free(&m);
}
END_TEST

START_TEST(test_odd_names)
{
    static const char *const links[] = {
        "\xc3\xa9paule_gauche", "\xe5\x90\x8d\xe5\x89\x8d", "left arm", "a-b-c", "int", "a<b>\"c\""
    };
    static const char *const joints[] = { "double", "joint with spaces",
                                          "-",      "\xf0\x9f\xa6\xbe",
                                          "return", "struct" };
    char longest[256];
    urdf_model m;
    int i;
    memset(longest, 'L', 255);
    longest[255] = '\0';
    parse_ok("ok_odd_names.urdf", &m);
    ck_assert_str_eq(m.name, "robot with spaces & symbols");
    ck_assert_int_eq(m.nlinks, 7);
    ck_assert_int_eq(m.njoints, 6);
    for (i = 0; i < 6; i++) {
        ck_assert_str_eq(m.links[i].name, links[i]);
        ck_assert_str_eq(m.joints[i].name, joints[i]);
        ck_assert_int_eq(m.joints[i].parent, i); /* a chain in file order */
        ck_assert_int_eq(m.joints[i].child, i + 1);
    }
    ck_assert_str_eq(m.links[6].name, longest);
    ck_assert_int_eq(m.root, 0);
    urdf_free(&m);
}
END_TEST

START_TEST(test_joint_type_names)
{
    ck_assert_str_eq(urdf_joint_type_name(URDF_REVOLUTE), "revolute");
    ck_assert_str_eq(urdf_joint_type_name(URDF_CONTINUOUS), "continuous");
    ck_assert_str_eq(urdf_joint_type_name(URDF_PRISMATIC), "prismatic");
    ck_assert_str_eq(urdf_joint_type_name(URDF_FIXED), "fixed");
    ck_assert_str_eq(urdf_joint_type_name(URDF_FLOATING), "floating");
    ck_assert_str_eq(urdf_joint_type_name(URDF_PLANAR), "planar");
}
END_TEST

/* A dangling mimic is a warning, not a refusal: mimic joints are independent here. */
START_TEST(test_dangling_mimic_warns)
{
    urdf_model m;
    char err[512];
    ck_assert_int_eq(urdf_parse_file(URDF_DIR "warn_mimic_unknown.urdf", &m, err, sizeof err), 0);
    ck_assert_int_eq(m.warnings.n, 1);
    ck_assert_msg(strstr(m.warnings.items[0],
                         "warn_mimic_unknown.urdf:14: <mimic>: warning: unknown "
                         "joint \"thumb\"") != NULL,
                  "%s", m.warnings.items[0]);
    ck_assert_msg(strstr(m.warnings.items[0], "(in joint \"finger\")") != NULL, "%s",
                  m.warnings.items[0]);
    ck_assert_int_eq(m.njoints, 1);
    urdf_free(&m);
    ck_assert_int_eq(m.warnings.n, 0);
}
END_TEST

/* ------------------------------------------------------------------ buffers and limits */

START_TEST(test_memory_uses_given_name)
{
    static const char ok[] = "<robot name=\"r\"><link name=\"a\"/></robot>";
    static const char bad[] = "<robot name=\"r\">\n<link name=\"a\"/>\n<joint name=\"j\"/>\n"
                              "</robot>";
    urdf_model m;
    char err[256];
    ck_assert_int_eq(urdf_parse_memory(bad, strlen(bad), "inline.urdf", &m, err, sizeof err), -1);
    ck_assert_str_eq(err, "inline.urdf:3: joint \"j\": missing type");
    ck_assert_int_eq(urdf_parse_memory(ok, strlen(ok), "inline.urdf", &m, err, sizeof err), 0);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(m.file, "inline.urdf");
    ck_assert_int_eq(m.nlinks, 1);
    urdf_free(&m);
}
END_TEST

/* A malformed parse must not leave libxml2 state behind for the next call. */
START_TEST(test_no_state_between_calls)
{
    static const char broken[] = "<robot name=\"r\">\n\n<link name=\"a\">\n";
    static const char ok[] = "<robot name=\"r\"><link name=\"a\"/></robot>";
    urdf_model m;
    char err[256];
    int round;
    for (round = 0; round < 3; round++) {
        ck_assert_int_eq(urdf_parse_memory(broken, strlen(broken), "b.urdf", &m, err, sizeof err),
                         -1);
        ck_assert_msg(strncmp(err, "b.urdf:4: malformed XML: ", 25) == 0, "%s", err);
        ck_assert_int_eq(urdf_parse_memory(ok, strlen(ok), "o.urdf", &m, err, sizeof err), 0);
        ck_assert_str_eq(err, "");
        urdf_free(&m);
    }
}
END_TEST

START_TEST(test_small_error_buffer)
{
    static const char bad[] = "<robot name=\"r\"/>";
    urdf_model m;
    char err[8];
    memset(err, 'x', sizeof err);
    ck_assert_int_eq(urdf_parse_memory(bad, strlen(bad), "abcdefghij", &m, err, sizeof err), -1);
    ck_assert_str_eq(err, "abcdefg");
    ck_assert_int_eq(urdf_parse_memory(bad, strlen(bad), "abcdefghij", &m, NULL, 0), -1);
    assert_empty(&m);
}
END_TEST

/* "<robot name="big">\n" then `count` lines of `element`; the last one is on line count+1. */
static char *many_elements(const char *element, int count, size_t *len)
{
    size_t n = strlen(element), total = 64 + (size_t)count * (n + 1);
    char *buf = malloc(total), *p = buf;
    int i;
    ck_assert_ptr_nonnull(buf);
    p += sprintf(p, "<robot name=\"big\">\n<link name=\"root\"/>\n");
    for (i = 0; i < count; i++) {
        memcpy(p, element, n);
        p += n;
        *p++ = '\n';
    }
    p += sprintf(p, "</robot>\n");
    *len = (size_t)(p - buf);
    return buf;
}

START_TEST(test_too_many_links)
{
    size_t len;
    char *buf = many_elements("<link/>", 100000, &len); /* + root: 100001 links */
    urdf_model m;
    char err[256];
    ck_assert_int_eq(urdf_parse_memory(buf, len, "big.urdf", &m, err, sizeof err), -1);
    ck_assert_str_eq(err, "big.urdf:100002: <link>: more than 100000 links");
    assert_empty(&m);
    free(buf);
}
END_TEST

START_TEST(test_too_many_joints)
{
    size_t len;
    char *buf = many_elements("<joint/>", 100001, &len);
    urdf_model m;
    char err[256];
    ck_assert_int_eq(urdf_parse_memory(buf, len, "big.urdf", &m, err, sizeof err), -1);
    ck_assert_str_eq(err, "big.urdf:100003: <joint>: more than 100000 joints");
    free(buf);
}
END_TEST

START_TEST(test_file_too_large)
{
    const char *path = "test_urdf_oversized.tmp"; /* in the test's working directory */
    FILE *f = fopen(path, "wb");
    urdf_model m;
    char err[256];
    ck_assert_ptr_nonnull(f);
    /* 64 MiB + 1 byte, sparse where the file system allows it */
    ck_assert_int_eq(fseek(f, 64L << 20, SEEK_SET), 0);
    ck_assert_int_eq(fputc(' ', f), ' ');
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(urdf_parse_file(path, &m, err, sizeof err), -1);
    remove(path);
    ck_assert_str_eq(err, "test_urdf_oversized.tmp: larger than 64 MiB");
    assert_empty(&m);
}
END_TEST

START_TEST(test_missing_file)
{
    urdf_model m;
    char err[512];
    const char *path = URDF_DIR "no_such_file.urdf";
    ck_assert_int_eq(urdf_parse_file(path, &m, err, sizeof err), -1);
    ck_assert_msg(strncmp(err, path, strlen(path)) == 0, "%s", err);
    ck_assert_ptr_nonnull(strstr(err, "cannot open"));
    assert_empty(&m);
}
END_TEST

/* ------------------------------------------------------------------ reference robots */

#define MAX_REFERENCE_FILES 64
static char reference_files[MAX_REFERENCE_FILES][256];
static int nreference_files;

static int compare_names(const void *a, const void *b)
{
    return strcmp(a, b);
}

static void list_reference_files(void)
{
    DIR *dir = opendir(REFERENCE_DIR);
    struct dirent *e;
    if (dir == NULL) {
        printf("test_urdf: %s is absent, skipping the reference URDF tests\n", REFERENCE_DIR);
        return;
    }
    while ((e = readdir(dir)) != NULL && nreference_files < MAX_REFERENCE_FILES) {
        size_t n = strlen(e->d_name);
        if (n > 5 && n < 256 && strcmp(e->d_name + n - 5, ".urdf") == 0)
            strcpy(reference_files[nreference_files++], e->d_name);
    }
    closedir(dir);
    qsort(reference_files, (size_t)nreference_files, sizeof *reference_files, compare_names);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    long n;
    char *text;
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    rewind(f);
    text = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(text);
    ck_assert_int_eq(fread(text, 1, (size_t)n, f), n);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* Counts "<tag" start tags outside comments; with `typed`, only those with a type
 * attribute (a robot's <joint>, not the <joint> of a <transmission>). */
static int count_start_tags(const char *text, const char *tag, int typed)
{
    size_t n = strlen(tag);
    const char *p = text;
    int count = 0;
    while ((p = strchr(p, '<')) != NULL) {
        if (strncmp(p, "<!--", 4) == 0) {
            p = strstr(p, "-->");
            if (p == NULL)
                break;
            continue;
        }
        p++;
        if (strncmp(p, tag, n) == 0 && strchr(" \t\r\n/>", p[n]) != NULL) {
            const char *end = strchr(p, '>');
            const char *type = strstr(p, "type=");
            if (!typed || (type != NULL && end != NULL && type < end))
                count++;
        }
    }
    return count;
}

START_TEST(test_reference_robot)
{
    const char *file = reference_files[_i];
    char path[512], err[1024];
    urdf_model m;
    char *text;
    int i, nchildren = 0;
    snprintf(path, sizeof path, "%s%s", REFERENCE_DIR, file);
    text = read_text(path);
    ck_assert_msg(urdf_parse_file(path, &m, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(m.nlinks, count_start_tags(text, "link", 0));
    ck_assert_int_eq(m.njoints, count_start_tags(text, "joint", 1));
    if (strcmp(file, "talos_full_v2.urdf") == 0) {
        ck_assert_int_eq(m.nlinks, 60);
        ck_assert_int_eq(m.njoints, 59);
    }
    ck_assert_int_eq(m.njoints, m.nlinks - 1);
    for (i = 0; i < m.njoints; i++) {
        ck_assert_int_ne(m.joints[i].child, m.root);
        ck_assert(m.joints[i].parent >= 0 && m.joints[i].parent < m.nlinks);
        nchildren += m.joints[i].child >= 0 && m.joints[i].child < m.nlinks;
    }
    ck_assert_int_eq(nchildren, m.njoints);
    urdf_free(&m);
    free(text);
}
END_TEST

/* ------------------------------------------------------------------ suite */

static Suite *urdf_suite(void)
{
    Suite *s = suite_create("urdf");
    TCase *tc = tcase_create("rejections");
    tcase_add_loop_test(tc, test_rejection, 0, NREJECTIONS);
    suite_add_tcase(s, tc);

    tc = tcase_create("valid");
    tcase_add_test(tc, test_joint_types_links);
    tcase_add_test(tc, test_joint_types_joints);
    tcase_add_test(tc, test_axis_scale);
    tcase_add_test(tc, test_odd_names);
    tcase_add_test(tc, test_joint_type_names);
    suite_add_tcase(s, tc);

    tc = tcase_create("limits");
    tcase_add_test(tc, test_dangling_mimic_warns);
    tcase_add_test(tc, test_memory_uses_given_name);
    tcase_add_test(tc, test_no_state_between_calls);
    tcase_add_test(tc, test_small_error_buffer);
    tcase_add_test(tc, test_too_many_links);
    tcase_add_test(tc, test_too_many_joints);
    tcase_add_test(tc, test_file_too_large);
    tcase_add_test(tc, test_missing_file);
    tcase_set_timeout(tc, 30);
    suite_add_tcase(s, tc);

    list_reference_files();
    if (nreference_files > 0) {
        tc = tcase_create("reference");
        tcase_add_loop_test(tc, test_reference_robot, 0, nreference_files);
        suite_add_tcase(s, tc);
    }
    return s;
}

int main(void)
{
    return check_run(urdf_suite(), CK_FORK_GETENV) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
