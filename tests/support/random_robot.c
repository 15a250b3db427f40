/* random_robot.c — seeded random URDF robots for stress tests.
 *
 * One splitmix64 stream per robot, no globals: the same seed always gives the same text.
 * A robot is first built as a table of links (each with the joint to its parent), then
 * repaired so that its joint-space inertia matrix stays positive definite, then printed. */
#include "random_robot.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RR_MAX_MOVING 40       /* ordinary seeds */
#define RR_MAX_BIG_MOVING 90   /* big seeds: at most RR_MAX_TIPS chains of RR_BIG_CHAIN_MAX */
#define RR_MAX_LINKS 400
#define RR_NAME_LEN 128
#define RR_PI 3.14159265358979323846
#define RR_MAX_TIPS 6
#define RR_BIG_CHAIN_MIN 8
#define RR_BIG_CHAIN_MAX 15
#define RR_BIG_MIN_PRODUCTS 1000   /* the generator's LTL_IN_PLACE_MIN_MUL (emit_crba.c) */

/* ------------------------------------------------------------------ PRNG --- */

/* splitmix64 (Steele, Lea, Flood, OOPSLA 2014): tiny state, good enough mixing. */
typedef struct {
    uint64_t state;
} rr_rng;

static uint64_t rr_next(rr_rng *g)
{
    uint64_t z = (g->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1) from the top 53 bits. */
static double rr_unit(rr_rng *g)
{
    return (double)(rr_next(g) >> 11) * (1.0 / 9007199254740992.0);
}

static double rr_range(rr_rng *g, double lo, double hi)
{
    return lo + (hi - lo) * rr_unit(g);
}

/* Uniform integer in [lo, hi]. */
static int rr_int(rr_rng *g, int lo, int hi)
{
    return lo + (int)(rr_next(g) % (uint64_t)(hi - lo + 1));
}

static int rr_chance(rr_rng *g, double p)
{
    return rr_unit(g) < p;
}

static double rr_sign(rr_rng *g)
{
    return rr_chance(g, 0.5) ? 1.0 : -1.0;
}

static void rr_shuffle(rr_rng *g, int *a, int n)
{
    int i;
    for (i = n - 1; i > 0; --i) {
        int j = rr_int(g, 0, i), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* ------------------------------------------------------------ the model --- */

typedef enum {
    RR_REVOLUTE, RR_CONTINUOUS, RR_PRISMATIC, RR_FIXED, RR_FLOATING, RR_PLANAR
} rr_type;

static const char *const rr_type_names[] = {
    "revolute", "continuous", "prismatic", "fixed", "floating", "planar"
};

/* How an <origin> is written: absent, empty element, both attributes, or one of them. */
typedef enum { RR_ORIGIN_ABSENT, RR_ORIGIN_EMPTY, RR_ORIGIN_BOTH, RR_ORIGIN_XYZ, RR_ORIGIN_RPY } rr_origin_form;

typedef struct {
    double xyz[3], rpy[3];  /* an attribute that is not written holds zeros */
    rr_origin_form form;
} rr_origin;

typedef struct {
    int present;
    rr_origin frame;        /* com and the axes the inertia is written in */
    double mass;
    double I[6];            /* xx xy xz yy yz zz about the com */
} rr_inertial;

typedef enum { RR_LIMIT_NONE, RR_LIMIT_FULL, RR_LIMIT_EFFORT_ONLY } rr_limit_form;

typedef struct {
    char name[RR_NAME_LEN];       /* the link */
    char joint[RR_NAME_LEN];      /* the joint to its parent (not for the root) */
    int parent;                   /* parent link, -1 for the root */
    rr_type type;                 /* RR_FIXED for the root */
    rr_origin origin;
    double axis[3];
    int axis_written;             /* 0: no <axis>, URDF's default (1 0 0) */
    rr_limit_form limit;
    double lower, upper, effort, velocity;
    int dynamics, visual;         /* extra elements a parser must skip or accept */
    rr_inertial inertial;
} rr_link;

typedef enum {
    RR_CHAIN, RR_STAR, RR_RANDOM_TREE, RR_MULTI_CHAIN, RR_BINARY, RR_CATERPILLAR,
    RR_FOREST               /* big seeds only: chains of given lengths from the root */
} rr_shape;
#define RR_NSHAPES RR_FOREST   /* the shapes ordinary seeds draw from */

typedef struct {
    rr_rng rng;
    rr_link link[RR_MAX_LINKS];
    int nlinks;
    int moving[RR_MAX_BIG_MOVING + 1]; /* moving[0] = root, then links with moving joints */
    int nbodies;
    int tip[RR_MAX_TIPS];          /* chain ends for the multi-chain, caterpillar and forest */
    int ntips;
    int chain_len[RR_MAX_TIPS];    /* forest: moving joints per chain, chain after chain */
    unsigned char planar[RR_MAX_BIG_MOVING + 1]; /* big seeds: moving joints made planar */
    int order[2 * RR_MAX_LINKS];   /* print order: k >= 0 link k, k < 0 joint of link -k */
    int norder;
    /* flavour of this robot */
    int floating_base, extreme, nmoving, floating_at, planar_at;
    rr_shape shape;
    double mass_lo, mass_span;     /* log10 of the lightest mass, decades spanned */
    double length;                 /* typical joint offset, shrinks for long chains */
    double odd_rate;               /* share of odd names */
    int collide_stem, collide_k, name_style;
    /* bookkeeping */
    int nv, nq;
} rr_robot;

/* ------------------------------------------------------------ geometry --- */

typedef struct {
    double R[9], p[3];
} rr_pose;

/* URDF rpy: R = Rz(yaw) Ry(pitch) Rx(roll), row-major. */
static void rr_rpy_to_R(const double rpy[3], double R[9])
{
    double cr = cos(rpy[0]), sr = sin(rpy[0]), cp = cos(rpy[1]), sp = sin(rpy[1]);
    double cy = cos(rpy[2]), sy = sin(rpy[2]);
    R[0] = cy * cp; R[1] = cy * sp * sr - sy * cr; R[2] = cy * sp * cr + sy * sr;
    R[3] = sy * cp; R[4] = sy * sp * sr + cy * cr; R[5] = sy * sp * cr - cy * sr;
    R[6] = -sp;     R[7] = cp * sr;                R[8] = cp * cr;
}

static void rr_origin_pose(const rr_origin *o, rr_pose *T)
{
    rr_rpy_to_R(o->rpy, T->R);
    memcpy(T->p, o->xyz, sizeof T->p);
}

/* out = A * B (B's frame given in A's). */
static void rr_pose_mul(const rr_pose *A, const rr_pose *B, rr_pose *out)
{
    rr_pose r;
    int i, j;
    for (i = 0; i < 3; ++i) {
        for (j = 0; j < 3; ++j)
            r.R[3 * i + j] = A->R[3 * i] * B->R[j] + A->R[3 * i + 1] * B->R[3 + j]
                           + A->R[3 * i + 2] * B->R[6 + j];
        r.p[i] = A->R[3 * i] * B->p[0] + A->R[3 * i + 1] * B->p[1] + A->R[3 * i + 2] * B->p[2]
               + A->p[i];
    }
    *out = r;
}

static double rr_dot(const double *a, const double *b, int n)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; ++i)
        s += a[i] * b[i];
    return s;
}

static void rr_unit_axis(const double a[3], double u[3])
{
    double n = sqrt(rr_dot(a, a, 3));
    u[0] = a[0] / n; u[1] = a[1] / n; u[2] = a[2] / n;
}

/* ------------------------------------------------------- random pieces --- */

static double rr_right_angle(rr_rng *g)
{
    static const double angles[] = {0.0, RR_PI / 2, -RR_PI / 2, RR_PI};
    return angles[rr_int(g, 0, 3)];
}

/* Zero, exact right angles, or arbitrary: the cases an emitter folds differently. */
static void rr_random_rpy(rr_rng *g, double rpy[3], double p_zero, double p_right)
{
    double u = rr_unit(g);
    int i;
    for (i = 0; i < 3; ++i)
        rpy[i] = 0.0;
    if (u < p_zero)
        return;
    for (i = 0; i < 3; ++i)
        rpy[i] = u < p_zero + p_right ? rr_right_angle(g) : rr_range(g, -RR_PI, RR_PI);
}

/* Millimetre-rounded values look like published drawings; others use all 53 bits. */
static double rr_length(rr_rng *g, double scale, int rounded)
{
    double x = rr_range(g, -scale, scale);
    return rounded ? floor(x * 1000.0 + 0.5) / 1000.0 : x;
}

static void rr_random_xyz(rr_rng *g, double xyz[3], double scale)
{
    double u = rr_unit(g);
    int rounded = rr_chance(g, 0.5), i;
    for (i = 0; i < 3; ++i)
        xyz[i] = 0.0;
    if (u < 0.15)
        return;
    if (u < 0.5) {          /* an offset along one axis only */
        double x = rr_length(g, scale, rounded);
        xyz[rr_int(g, 0, 2)] = x != 0.0 ? x : scale;
        return;
    }
    for (i = 0; i < 3; ++i)
        xyz[i] = rr_length(g, scale, rounded);
}

/* Picks how to write the origin; zero parts may be left out, as URDF allows. */
static void rr_origin_form_for(rr_rng *g, rr_origin *o)
{
    int zero_xyz = o->xyz[0] == 0.0 && o->xyz[1] == 0.0 && o->xyz[2] == 0.0;
    int zero_rpy = o->rpy[0] == 0.0 && o->rpy[1] == 0.0 && o->rpy[2] == 0.0;
    double u = rr_unit(g);
    o->form = RR_ORIGIN_BOTH;
    if (zero_xyz && zero_rpy)
        o->form = u < 0.5 ? RR_ORIGIN_ABSENT : u < 0.7 ? RR_ORIGIN_EMPTY : RR_ORIGIN_BOTH;
    else if (zero_rpy && u < 0.5)
        o->form = RR_ORIGIN_XYZ;
    else if (zero_xyz && u < 0.5)
        o->form = RR_ORIGIN_RPY;
}

static void rr_random_origin(rr_rng *g, rr_origin *o, double scale)
{
    rr_random_xyz(g, o->xyz, scale);
    rr_random_rpy(g, o->rpy, 0.4, 0.3);
    rr_origin_form_for(g, o);
}

/* Exactly aligned (sometimes unnormalised or left to the default), aligned but for
 * tiny components, or skewed and unnormalised. */
static void rr_random_axis(rr_rng *g, rr_link *l)
{
    double u = rr_unit(g), s = rr_sign(g);
    int k = rr_int(g, 0, 2), i;
    l->axis_written = 1;
    for (i = 0; i < 3; ++i)
        l->axis[i] = 0.0;
    if (u < 0.08) {
        l->axis[0] = 1.0;
        l->axis_written = 0;
    } else if (u < 0.5) {
        l->axis[k] = s * (rr_chance(g, 0.8) ? 1.0 : rr_range(g, 0.5, 3.0));
    } else if (u < 0.65) {
        double tiny = rr_chance(g, 0.3) ? 1e-14 : pow(10.0, rr_range(g, -7.0, -3.0));
        l->axis[k] = s;
        l->axis[(k + 1) % 3] = rr_sign(g) * tiny;
        if (rr_chance(g, 0.5)) {
            double other = tiny * rr_range(g, 0.1, 1.0);
            l->axis[(k + 2) % 3] = rr_sign(g) * other;  /* one draw per statement: */
        }                                               /* evaluation order is unspecified */
    } else {
        do {
            for (i = 0; i < 3; ++i)
                l->axis[i] = rr_chance(g, 0.3) ? (double)rr_int(g, -1, 1) : rr_range(g, -2.0, 2.0);
        } while (rr_dot(l->axis, l->axis, 3) < 0.1);
    }
}

static void rr_random_limits(rr_rng *g, rr_link *l)
{
    l->effort = rr_range(g, 1.0, 500.0);
    l->velocity = rr_range(g, 0.5, 30.0);
    l->limit = RR_LIMIT_FULL;
    if (l->type == RR_REVOLUTE) {
        l->lower = -rr_range(g, 0.1, RR_PI);
        l->upper = rr_range(g, 0.1, RR_PI);
    } else if (l->type == RR_PRISMATIC) {
        l->lower = -rr_range(g, 0.01, 0.5);
        l->upper = rr_range(g, 0.01, 0.5);
    } else if (l->type == RR_CONTINUOUS) {
        l->limit = rr_chance(g, 0.5) ? RR_LIMIT_EFFORT_ONLY : RR_LIMIT_NONE;
    } else {
        l->limit = RR_LIMIT_NONE;
    }
}

/* R diag(d) R^T, upper triangle as xx xy xz yy yz zz. */
static void rr_rotate_inertia(const double R[9], const double d[3], double I[6])
{
    static const int row[6] = {0, 0, 0, 1, 1, 2}, col[6] = {0, 1, 2, 1, 2, 2};
    int e, k;
    double scale = d[0] + d[1] + d[2];
    for (e = 0; e < 6; ++e) {
        I[e] = 0.0;
        for (k = 0; k < 3; ++k)
            I[e] += R[3 * row[e] + k] * d[k] * R[3 * col[e] + k];
        if (fabs(I[e]) < 1e-14 * scale)
            I[e] = 0.0;     /* rounding residue of cos(pi/2): write the exact zero */
    }
}

/* A mass with a physically valid inertia: principal moments from second moments
 * s_k = m r_k^2 along each principal axis (so Ixx = s_y + s_z, ... satisfy the triangle
 * inequality strictly), turned by a random rotation, about a random com. */
static void rr_random_inertial(rr_robot *r, rr_inertial *in)
{
    rr_rng *g = &r->rng;
    double s[3], d[3], R[9], rpy[3];
    int k;
    in->present = 1;
    in->mass = pow(10.0, r->mass_lo + r->mass_span * rr_unit(g));
    for (k = 0; k < 3; ++k) {
        double radius = rr_range(g, 0.03, 0.12);
        s[k] = in->mass * radius * radius;
    }
    d[0] = s[1] + s[2]; d[1] = s[0] + s[2]; d[2] = s[0] + s[1];
    rr_random_rpy(g, rpy, 0.4, 0.2);
    rr_rpy_to_R(rpy, R);
    rr_rotate_inertia(R, d, in->I);
    for (k = 0; k < 3; ++k)
        in->frame.xyz[k] = 0.0;
    if (rr_chance(g, 0.8))
        rr_random_xyz(g, in->frame.xyz, 0.15);
    rr_random_rpy(g, in->frame.rpy, 0.5, 0.2);
    rr_origin_form_for(g, &in->frame);
}

/* ---------------------------------------------------------------- names --- */

/* What a code generator must survive: C keywords and library names, leading digits,
 * spaces and punctuation, characters XML escapes, UTF-8, case-only differences, and a
 * name longer than C's 63 significant characters. */
static const char *const rr_odd_names[] = {
    "int", "double", "for", "return", "struct", "static", "void", "const", "_Bool",
    "main", "NULL", "M_PI", "errno", "sqrt", "nv", "q", "data", "model",
    "2nd link", "0", "42", "3d-printed bracket", "two  spaces", "left leg/knee",
    "R&D arm", "x<y", "say \"hi\"", "it's", "__reserved", "_Hidden",
    "\xc3\xa9" "paule gauche",                          /* épaule gauche */
    "\xce\xb3\xcf\x89\xce\xbd\xce\xaf\xce\xb1",         /* γωνία */
    "\xe5\x85\xb3\xe8\x8a\x82",                         /* 关节 */
    "Knie-\xc3\x9c",                                    /* Knie-Ü */
    "\xf0\x9f\xa4\x96" "arm",                           /* robot emoji, then arm */
    "a_very_long_name_that_keeps_going_well_past_the_sixty_three_significant_characters",
    "Knee", "knee", "KNEE", "a-b", "a_b", "a.b", "a b"
};
#define RR_NODD ((int)(sizeof rr_odd_names / sizeof rr_odd_names[0]))

/* Separators that all sanitise to '_': "seg-3", "seg_3", "seg.3" and "seg 3" collide. */
static const char *const rr_collide_fmt[] = {"%s-%d", "%s_%d", "%s.%d", "%s %d"};
static const char *const rr_collide_stems[] = {"seg", "arm", "Leg", "x"};
static const char *const rr_link_styles[] = {"link_%d", "Link%d", "body-%d", "l%d"};
static const char *const rr_joint_styles[] = {"joint_%d", "J%d", "hinge-%d", "j%d"};

static int rr_name_used(const rr_robot *r, const char *name)
{
    int i;
    for (i = 0; i < r->nlinks; ++i)
        if (!strcmp(r->link[i].name, name) || !strcmp(r->link[i].joint, name))
            return 1;
    return 0;
}

/* An odd name when the dice say so and it is still free, else the robot's plain style;
 * a plain name already taken (only by an odd one) gets primes until it is free. */
static void rr_make_name(rr_robot *r, char dst[RR_NAME_LEN], const char *plain_fmt, int index)
{
    rr_rng *g = &r->rng;
    char cand[RR_NAME_LEN];
    if (rr_chance(g, r->odd_rate)) {
        if (r->collide_stem >= 0 && rr_chance(g, 0.5))
            snprintf(cand, sizeof cand, rr_collide_fmt[rr_int(g, 0, 3)],
                     rr_collide_stems[r->collide_stem], r->collide_k);
        else
            snprintf(cand, sizeof cand, "%s", rr_odd_names[rr_int(g, 0, RR_NODD - 1)]);
        if (!rr_name_used(r, cand)) {
            memcpy(dst, cand, sizeof cand);
            return;
        }
    }
    snprintf(cand, sizeof cand, plain_fmt, index);
    while (rr_name_used(r, cand) && strlen(cand) + 2 < sizeof cand)
        strcat(cand, "'");
    memcpy(dst, cand, sizeof cand);
}

/* --------------------------------------------------------------- building --- */

static int rr_dofs(rr_type t)
{
    return t == RR_FIXED ? 0 : t == RR_PLANAR ? 3 : t == RR_FLOATING ? 6 : 1;
}

static int rr_nq_of(rr_type t)
{
    return t == RR_FIXED ? 0 : t == RR_CONTINUOUS ? 2 : t == RR_PLANAR ? 4 : t == RR_FLOATING ? 7 : 1;
}

/* A new link under `parent` with a joint of type `t`; returns its index. The caller
 * guarantees room (the link count is bounded by construction). */
static int rr_new_link(rr_robot *r, int parent, rr_type t, double p_inertial)
{
    rr_rng *g = &r->rng;
    int i = r->nlinks;
    rr_link *l = &r->link[i];
    memset(l, 0, sizeof *l);
    l->parent = parent;
    l->type = t;
    rr_make_name(r, l->name, parent < 0 || t == RR_FIXED ? "frame_%d" : rr_link_styles[r->name_style], i);
    r->nlinks++;                          /* the link name now counts as used */
    if (parent >= 0) {
        rr_make_name(r, l->joint, t == RR_FIXED ? "fixed_%d" : rr_joint_styles[r->name_style], i);
        rr_random_origin(g, &l->origin, r->length);
        if (t != RR_FLOATING && t != RR_FIXED)
            rr_random_axis(g, l);
        else if (t == RR_FIXED && rr_chance(g, 0.1))
            rr_random_axis(g, l);         /* an axis on a fixed joint means nothing */
        rr_random_limits(g, l);
        l->dynamics = t != RR_FIXED && rr_chance(g, 0.1);
    }
    l->visual = rr_chance(g, 0.08);
    if (rr_chance(g, p_inertial))
        rr_random_inertial(r, &l->inertial);
    return i;
}

static int rr_body_of(const rr_robot *r, int l)
{
    while (l > 0 && r->link[l].type == RR_FIXED)
        l = r->link[l].parent;
    return l < 0 ? 0 : l;
}

/* Chooses the parent body of moving joint number i (1-based) for the robot's shape;
 * *tip_slot is the chain whose end must move to the new body, or -1. */
static int rr_pick_parent(rr_robot *r, int i, int *tip_slot)
{
    rr_rng *g = &r->rng;
    *tip_slot = -1;
    switch (r->shape) {
    case RR_CHAIN:
        return r->moving[r->nbodies - 1];
    case RR_STAR:
        return 0;
    case RR_MULTI_CHAIN:
        *tip_slot = (i - 1) % r->ntips;
        return r->tip[*tip_slot];
    case RR_BINARY:
        return r->moving[(r->nbodies - 1) / 2];
    case RR_CATERPILLAR:
        if (rr_chance(g, 0.5))
            *tip_slot = 0;              /* grow the spine, else hang a leg off it */
        return r->tip[0];
    case RR_FOREST:
        for (*tip_slot = 0; i > r->chain_len[*tip_slot]; ++*tip_slot)
            i -= r->chain_len[*tip_slot];
        return r->tip[*tip_slot];
    default:
        return r->moving[rr_int(g, 0, r->nbodies - 1)];
    }
}

/* Where the new joint hangs: the body's own link, a fixed chain grown below it (mounts
 * and brackets), or a fixed link already in its cluster. */
static int rr_mount_point(rr_robot *r, int body)
{
    rr_rng *g = &r->rng;
    int at = body, k, n;
    if (rr_chance(g, 0.2)) {
        n = rr_int(g, 1, 2);
        for (k = 0; k < n; ++k)
            at = rr_new_link(r, at, RR_FIXED, 0.3);
        return at;
    }
    if (rr_chance(g, 0.15)) {
        for (k = r->nlinks - 1; k > 0; --k)
            if (r->link[k].type == RR_FIXED && rr_body_of(r, k) == body)
                return k;
    }
    return at;
}

static rr_type rr_pick_type(rr_robot *r, int i, int mount)
{
    rr_rng *g = &r->rng;
    double u;
    /* a free joint in the middle of the tree, never straight on a world-fixed root */
    if (i == r->floating_at && (rr_body_of(r, mount) != 0 || r->floating_base))
        return RR_FLOATING;
    if (i == r->planar_at || r->planar[i])
        return RR_PLANAR;
    u = rr_unit(g);
    return u < 0.5 ? RR_REVOLUTE : u < 0.7 ? RR_CONTINUOUS : RR_PRISMATIC;
}

/* 1..40 moving joints: small robots often, the full 40 sometimes. */
static int rr_pick_size(rr_rng *g)
{
    double u = rr_unit(g);
    if (u < 0.2)
        return rr_int(g, 1, 4);
    if (u < 0.7)
        return rr_int(g, 5, 20);
    if (u < 0.85)
        return rr_int(g, 21, 39);
    return RR_MAX_MOVING;
}

static void rr_pick_shape(rr_robot *r)
{
    rr_rng *g = &r->rng;
    int i;
    r->floating_base = rr_chance(g, 1.0 / 3.0);
    r->extreme = rr_chance(g, 0.05);
    r->nmoving = rr_pick_size(g);
    r->shape = (rr_shape)rr_int(g, 0, RR_NSHAPES - 1);
    r->ntips = rr_int(g, 2, RR_MAX_TIPS);
    for (i = 0; i < RR_MAX_TIPS; ++i)
        r->tip[i] = 0;
    /* masses between 1e-3 and 50 kg spanning up to four decades; six for extreme seeds */
    r->mass_span = r->extreme ? 6.0 : rr_range(g, 0.0, 4.0);
    r->mass_lo = r->extreme ? -4.0 : rr_range(g, -3.0, log10(50.0) - r->mass_span);
    /* keep long chains within a few metres so that M stays well conditioned */
    r->length = 0.4 * (r->nmoving > 8 ? sqrt(8.0 / r->nmoving) : 1.0);
    r->floating_at = r->nmoving >= 2 && rr_chance(g, 0.08) ? rr_int(g, 2, r->nmoving) : -1;
    r->planar_at = rr_chance(g, 0.1) ? rr_int(g, 1, r->nmoving) : -1;
}

/* Names: how many odd ones, which collision stem, which plain style. */
static void rr_pick_names(rr_robot *r)
{
    rr_rng *g = &r->rng;
    r->odd_rate = rr_chance(g, 0.75) ? rr_range(g, 0.1, 0.6) : 0.0;
    r->collide_stem = rr_chance(g, 0.4) ? rr_int(g, 0, 3) : -1;
    r->collide_k = rr_int(g, 0, 9);
    r->name_style = rr_int(g, 0, 3);
}

/* Products of the LTDL factorisation of one chain of n 1-DoF joints on a fixed root: the
 * generator's count (emit_ltl_in_place), sum over DoFs k at depth d of the ancestors i at
 * depth j < d of 1 + j. */
static int rr_chain_products(int n)
{
    return n * (n - 1) / 2 + (n - 1) * n * (n + 1) / 6;
}

/* Big seeds: a forest of deep chains straight on the root (several root DoFs), drawn until
 * the factorisation has more than RR_BIG_MIN_PRODUCTS products even if every joint were
 * 1-DoF on a fixed base, so that the generator always takes its in-place LTDL. Variant 0:
 * fixed base, 1-DoF joints; 1: fixed base, planar joints and a floating joint in the
 * middle of chains, a planar one below the floating one; 2: free-flyer root, a planar
 * joint mid-chain. Masses and lengths follow the ordinary rules (never extreme). */
static void rr_pick_big_shape(rr_robot *r, int variant)
{
    rr_rng *g = &r->rng;
    int i, c, products = 0, order[RR_MAX_TIPS], start[RR_MAX_TIPS], longest = 0;
    r->floating_base = variant == 2;
    r->extreme = 0;
    r->shape = RR_FOREST;
    r->ntips = rr_int(g, 3, 4);
    for (c = 0; c < r->ntips; ++c) {
        r->chain_len[c] = rr_int(g, RR_BIG_CHAIN_MIN, RR_BIG_CHAIN_MAX);
        products += rr_chain_products(r->chain_len[c]);
    }
    while (products <= RR_BIG_MIN_PRODUCTS) {
        if (r->ntips < RR_MAX_TIPS) {
            c = r->ntips++;
            r->chain_len[c] = rr_int(g, RR_BIG_CHAIN_MIN, RR_BIG_CHAIN_MAX);
        } else {        /* lengthen the shortest chain */
            for (c = 0, i = 1; i < r->ntips; ++i)
                if (r->chain_len[i] < r->chain_len[c])
                    c = i;
            products -= rr_chain_products(r->chain_len[c]++);
        }
        products += rr_chain_products(r->chain_len[c]);
    }
    r->nmoving = 0;
    for (c = 0; c < r->ntips; ++c) {
        r->tip[c] = 0;
        start[c] = r->nmoving;  /* joint start[c] + d is at depth d in chain c */
        r->nmoving += r->chain_len[c];
        if (r->chain_len[c] > longest)
            longest = r->chain_len[c];
        order[c] = c;
    }
    r->mass_span = rr_range(g, 0.0, 4.0);
    r->mass_lo = rr_range(g, -3.0, log10(50.0) - r->mass_span);
    r->length = 0.4 * sqrt(8.0 / longest);
    r->floating_at = r->planar_at = -1;
    rr_shuffle(g, order, r->ntips);
    if (variant == 1) {
        int nplanar = rr_int(g, 2, r->ntips - 1), len;
        for (c = 0; c < nplanar; ++c) {
            len = r->chain_len[order[c]];
            r->planar[start[order[c]] + rr_int(g, 2, len - 1)] = 1;
        }
        len = r->chain_len[order[nplanar]];
        i = rr_int(g, 3, len - 3);
        r->floating_at = start[order[nplanar]] + i;
        r->planar[start[order[nplanar]] + rr_int(g, i + 1, len - 1)] = 1;
    } else if (variant == 2) {
        r->planar[start[order[0]] + rr_int(g, 2, r->chain_len[order[0]] - 1)] = 1;
    }
}

static void rr_pick_flavour(rr_robot *r, unsigned seed)
{
    if (seed - RANDOM_ROBOT_BIG_FIRST < RANDOM_ROBOT_BIG_COUNT)
        rr_pick_big_shape(r, (int)(seed - RANDOM_ROBOT_BIG_FIRST));
    else
        rr_pick_shape(r);
    rr_pick_names(r);
}

/* Sensor frames and brackets: fixed leaves, sometimes two deep, mostly massless. */
static void rr_add_fixed_leaves(rr_robot *r)
{
    rr_rng *g = &r->rng;
    int n = rr_int(g, 0, 1 + r->nmoving / 4), k;
    for (k = 0; k < n; ++k) {
        int at = rr_new_link(r, rr_int(g, 0, r->nlinks - 1), RR_FIXED, 0.4);
        if (rr_chance(g, 0.25))
            rr_new_link(r, at, RR_FIXED, 0.3);
    }
}

/* ---------------------------------------------------- positive definiteness --- */

static int rr_cluster_has_mass(const rr_robot *r, int body)
{
    int l;
    for (l = 0; l < r->nlinks; ++l)
        if (r->link[l].inertial.present && rr_body_of(r, l) == body)
            return 1;
    return 0;
}

/* Placement of link c's joint frame in the frame of its body's parent body b. */
static void rr_pose_in_body(const rr_robot *r, int c, int b, rr_pose *T)
{
    rr_pose step;
    rr_origin_pose(&r->link[c].origin, T);
    for (c = r->link[c].parent; c != b; c = r->link[c].parent) {
        rr_origin_pose(&r->link[c].origin, &step);
        rr_pose_mul(&step, T, T);
    }
}

/* Motion of a 1-DoF joint as a unit-axis twist [linear; angular] at b's origin. */
static void rr_joint_twist(const rr_link *l, const rr_pose *T, double s[6])
{
    double a0[3], a[3];
    int i;
    rr_unit_axis(l->axis, a0);
    for (i = 0; i < 3; ++i)
        a[i] = T->R[3 * i] * a0[0] + T->R[3 * i + 1] * a0[1] + T->R[3 * i + 2] * a0[2];
    if (l->type == RR_PRISMATIC) {
        memcpy(s, a, sizeof a);
        s[3] = s[4] = s[5] = 0.0;
        return;
    }
    /* rotation about the line through p: the origin moves with p x a */
    s[0] = T->p[1] * a[2] - T->p[2] * a[1];
    s[1] = T->p[2] * a[0] - T->p[0] * a[2];
    s[2] = T->p[0] * a[1] - T->p[1] * a[0];
    memcpy(s + 3, a, sizeof a);
}

/* A massless 1-DoF body b is harmless when a massive 1-DoF child cannot undo b's motion:
 * with both twists clearly apart (sin^2 of their angle above 0.02, e.g. parallel
 * revolute axes at least 0.15 m apart) only zero velocities leave the child at rest. */
static int rr_is_pinned(const rr_robot *r, int b)
{
    rr_pose own = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}}, T;
    double sb[6], sc[6], cross;
    int c;
    rr_joint_twist(&r->link[b], &own, sb);
    for (c = b + 1; c < r->nlinks; ++c) {
        const rr_link *l = &r->link[c];
        if (l->type == RR_FIXED || rr_dofs(l->type) != 1 || rr_body_of(r, l->parent) != b)
            continue;
        if (!rr_cluster_has_mass(r, c))
            continue;
        rr_pose_in_body(r, c, b, &T);
        rr_joint_twist(l, &T, sc);
        cross = rr_dot(sb, sc, 6);
        if (1.0 - cross * cross / (rr_dot(sb, sb, 6) * rr_dot(sc, sc, 6)) > 0.02)
            return 1;
    }
    return 0;
}

/* Leaves first (children have larger indices), so each child is final when its parent
 * is looked at. Multi-DoF bodies and a floating root always get mass of their own. */
static void rr_repair_mass(rr_robot *r)
{
    int l;
    for (l = r->nlinks - 1; l > 0; --l) {
        rr_link *k = &r->link[l];
        if (k->type == RR_FIXED || rr_cluster_has_mass(r, l))
            continue;
        if (rr_dofs(k->type) > 1 || !rr_is_pinned(r, l))
            rr_random_inertial(r, &k->inertial);
    }
    if (r->floating_base && !rr_cluster_has_mass(r, 0))
        rr_random_inertial(r, &r->link[0].inertial);
}

/* ---------------------------------------------------------- print order --- */

/* Links then joints, each link followed by its joint, or all shuffled: URDF does not
 * care and neither may the parser. */
static void rr_pick_order(rr_robot *r)
{
    double u = rr_unit(&r->rng);
    int l;
    r->norder = 0;
    for (l = 0; l < r->nlinks; ++l) {
        r->order[r->norder++] = l;
        if (l > 0 && u >= 0.4)
            r->order[r->norder++] = -l;
    }
    for (l = 1; l < r->nlinks && u < 0.4; ++l)
        r->order[r->norder++] = -l;
    if (u >= 0.7)
        rr_shuffle(&r->rng, r->order, r->norder);
}

static void rr_build(rr_robot *r, unsigned seed)
{
    int i, slot, parent, mount, l;
    memset(r, 0, sizeof *r);
    r->rng.state = 0x6364796e67656e00ULL ^ (uint64_t)seed;   /* "cdyngen\0" */
    rr_pick_flavour(r, seed);
    rr_new_link(r, -1, RR_FIXED, 0.5);
    r->moving[r->nbodies++] = 0;
    for (i = 1; i <= r->nmoving; ++i) {
        parent = rr_pick_parent(r, i, &slot);
        mount = rr_mount_point(r, parent);
        l = rr_new_link(r, mount, rr_pick_type(r, i, mount), 0.8);
        r->moving[r->nbodies++] = l;
        if (slot >= 0)
            r->tip[slot] = l;
    }
    rr_add_fixed_leaves(r);
    rr_repair_mass(r);
    rr_pick_order(r);
    r->nv = 6 * r->floating_base;
    r->nq = 7 * r->floating_base;
    for (l = 1; l < r->nlinks; ++l) {
        r->nv += rr_dofs(r->link[l].type);
        r->nq += rr_nq_of(r->link[l].type);
    }
}

static rr_robot *rr_generate(unsigned seed)
{
    rr_robot *r = malloc(sizeof *r);
    if (r)
        rr_build(r, seed);
    return r;
}

/* -------------------------------------------------------------- printing --- */

typedef struct {
    char *s;
    size_t len, cap;
    int failed;
} rr_buf;

static void rr_printf(rr_buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (b->failed)
        return;
    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        {
            size_t cap = 2 * b->cap + (size_t)n + 1;
            char *s = realloc(b->s, cap);
            if (!s) {
                b->failed = 1;
                return;
            }
            b->s = s;
            b->cap = cap;
        }
    }
}

/* The shortest decimal that reads back as the same double. */
static const char *rr_num(char out[32], double x)
{
    int prec;
    if (x == 0.0)
        x = 0.0;                          /* no "-0" */
    for (prec = 1; prec <= 17; ++prec) {
        snprintf(out, 32, "%.*g", prec, x);
        if (strtod(out, NULL) == x)
            break;
    }
    return out;
}

static void rr_print_vec3(rr_buf *b, const char *attr, const double v[3])
{
    char x[32], y[32], z[32];
    rr_printf(b, " %s=\"%s %s %s\"", attr, rr_num(x, v[0]), rr_num(y, v[1]), rr_num(z, v[2]));
}

static void rr_print_name(rr_buf *b, const char *name)
{
    for (; *name; ++name) {
        switch (*name) {
        case '&': rr_printf(b, "&amp;"); break;
        case '<': rr_printf(b, "&lt;"); break;
        case '>': rr_printf(b, "&gt;"); break;
        case '"': rr_printf(b, "&quot;"); break;
        default: rr_printf(b, "%c", *name);
        }
    }
}

static void rr_print_origin(rr_buf *b, const rr_origin *o, const char *indent)
{
    if (o->form == RR_ORIGIN_ABSENT)
        return;
    rr_printf(b, "%s<origin", indent);
    if (o->form == RR_ORIGIN_BOTH || o->form == RR_ORIGIN_XYZ)
        rr_print_vec3(b, "xyz", o->xyz);
    if (o->form == RR_ORIGIN_BOTH || o->form == RR_ORIGIN_RPY)
        rr_print_vec3(b, "rpy", o->rpy);
    rr_printf(b, "/>\n");
}

static void rr_print_inertial(rr_buf *b, const rr_inertial *in)
{
    static const char *const names[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
    char x[32];
    int e;
    rr_printf(b, "    <inertial>\n");
    rr_print_origin(b, &in->frame, "      ");
    rr_printf(b, "      <mass value=\"%s\"/>\n      <inertia", rr_num(x, in->mass));
    for (e = 0; e < 6; ++e)
        rr_printf(b, " %s=\"%s\"", names[e], rr_num(x, in->I[e]));
    rr_printf(b, "/>\n    </inertial>\n");
}

static void rr_print_link(rr_buf *b, const rr_link *l)
{
    rr_printf(b, "  <link name=\"");
    rr_print_name(b, l->name);
    if (!l->inertial.present && !l->visual) {
        rr_printf(b, "\"/>\n");
        return;
    }
    rr_printf(b, "\">\n");
    if (l->visual)
        rr_printf(b, "    <visual>\n      <geometry><box size=\"0.05 0.05 0.1\"/></geometry>\n"
                     "    </visual>\n");
    if (l->inertial.present)
        rr_print_inertial(b, &l->inertial);
    rr_printf(b, "  </link>\n");
}

static void rr_print_limit(rr_buf *b, const rr_link *l)
{
    char w[32], x[32], y[32], z[32];
    if (l->limit == RR_LIMIT_FULL)
        rr_printf(b, "    <limit lower=\"%s\" upper=\"%s\" effort=\"%s\" velocity=\"%s\"/>\n",
                  rr_num(w, l->lower), rr_num(x, l->upper), rr_num(y, l->effort),
                  rr_num(z, l->velocity));
    else if (l->limit == RR_LIMIT_EFFORT_ONLY)
        rr_printf(b, "    <limit effort=\"%s\" velocity=\"%s\"/>\n", rr_num(y, l->effort),
                  rr_num(z, l->velocity));
}

static void rr_print_joint(rr_buf *b, const rr_robot *r, const rr_link *l)
{
    rr_printf(b, "  <joint name=\"");
    rr_print_name(b, l->joint);
    rr_printf(b, "\" type=\"%s\">\n", rr_type_names[l->type]);
    rr_print_origin(b, &l->origin, "    ");
    rr_printf(b, "    <parent link=\"");
    rr_print_name(b, r->link[l->parent].name);
    rr_printf(b, "\"/>\n    <child link=\"");
    rr_print_name(b, l->name);
    rr_printf(b, "\"/>\n");
    if (l->axis_written) {
        rr_printf(b, "    <axis");
        rr_print_vec3(b, "xyz", l->axis);
        rr_printf(b, "/>\n");
    }
    rr_print_limit(b, l);
    if (l->dynamics)
        rr_printf(b, "    <dynamics damping=\"0.05\" friction=\"0\"/>\n");
    rr_printf(b, "  </joint>\n");
}

static char *rr_print(const rr_robot *r, unsigned seed)
{
    rr_buf b = {NULL, 0, 0, 0};
    int k;
    b.s = malloc(4096);
    if (!b.s)
        return NULL;
    b.cap = 4096;
    b.s[0] = '\0';
    rr_printf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<!-- cdyngen random robot: seed %u, %d moving joints, nq %d, nv %d, %s -->\n"
                  "<robot name=\"random_%u\">\n",
              seed, r->nmoving, r->nq, r->nv,
              r->floating_base ? "for a floating base" : "fixed base", seed);
    for (k = 0; k < r->norder; ++k) {
        if (r->order[k] >= 0)
            rr_print_link(&b, &r->link[r->order[k]]);
        else
            rr_print_joint(&b, r, &r->link[-r->order[k]]);
    }
    rr_printf(&b, "</robot>\n");
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* ------------------------------------------------------------ public API --- */

char *random_robot_urdf(unsigned seed, int *floating_base)
{
    rr_robot *r = rr_generate(seed);
    char *text;
    if (!r)
        return NULL;
    text = rr_print(r, seed);
    if (text && floating_base)
        *floating_base = r->floating_base;
    free(r);
    return text;
}

int random_robot_expected_nv(unsigned seed)
{
    rr_robot *r = rr_generate(seed);
    int nv = r ? r->nv : -1;
    free(r);
    return nv;
}

int random_robot_expected_nq(unsigned seed)
{
    rr_robot *r = rr_generate(seed);
    int nq = r ? r->nq : -1;
    free(r);
    return nq;
}

int random_robot_moving_joints(unsigned seed)
{
    rr_robot *r = rr_generate(seed);
    int n = r ? r->nmoving : -1;
    free(r);
    return n;
}

int random_robot_is_extreme(unsigned seed)
{
    rr_robot *r = rr_generate(seed);
    int e = r ? r->extreme : -1;
    free(r);
    return e;
}
