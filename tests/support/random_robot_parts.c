/* random_robot_parts.c — the pieces a random robot is built of: its PRNG (splitmix64),
 * pose geometry, random origins, axes, limits and inertials, and names (plain, odd, and
 * ones that collide once sanitised). The robot itself: random_robot_shape.c. */
#include "random_robot_model.h"
#include "rng.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ PRNG --- */

/* Uniform integer in [lo, hi]. */
int rr_int(rr_rng *g, int lo, int hi)
{
    return lo + (int)(splitmix64_next(g) % (uint64_t)(hi - lo + 1));
}

int rr_chance(rr_rng *g, double p)
{
    return splitmix64_unit(g) < p;
}

static double rr_sign(rr_rng *g)
{
    return rr_chance(g, 0.5) ? 1.0 : -1.0;
}

void rr_shuffle(rr_rng *g, int *a, int n)
{
    int i;
    for (i = n - 1; i > 0; --i) {
        int j = rr_int(g, 0, i), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* ------------------------------------------------------------ geometry --- */

/* URDF rpy: R = Rz(yaw) Ry(pitch) Rx(roll), row-major. */
static void rr_rpy_to_R(const double rpy[3], double R[9])
{
    double cr = cos(rpy[0]), sr = sin(rpy[0]), cp = cos(rpy[1]), sp = sin(rpy[1]);
    double cy = cos(rpy[2]), sy = sin(rpy[2]);
    R[0] = cy * cp;
    R[1] = cy * sp * sr - sy * cr;
    R[2] = cy * sp * cr + sy * sr;
    R[3] = sy * cp;
    R[4] = sy * sp * sr + cy * cr;
    R[5] = sy * sp * cr - cy * sr;
    R[6] = -sp;
    R[7] = cp * sr;
    R[8] = cp * cr;
}

void rr_origin_pose(const rr_origin *o, rr_pose *T)
{
    rr_rpy_to_R(o->rpy, T->R);
    memcpy(T->p, o->xyz, sizeof T->p);
}

/* out = A * B (B's frame given in A's). */
void rr_pose_mul(const rr_pose *A, const rr_pose *B, rr_pose *out)
{
    rr_pose r;
    int i, j;
    for (i = 0; i < 3; ++i) {
        for (j = 0; j < 3; ++j)
            r.R[3 * i + j] = A->R[3 * i] * B->R[j] + A->R[3 * i + 1] * B->R[3 + j] +
                             A->R[3 * i + 2] * B->R[6 + j];
        r.p[i] =
            A->R[3 * i] * B->p[0] + A->R[3 * i + 1] * B->p[1] + A->R[3 * i + 2] * B->p[2] + A->p[i];
    }
    *out = r;
}

double rr_dot(const double *a, const double *b, int n)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; ++i)
        s += a[i] * b[i];
    return s;
}

void rr_unit_axis(const double a[3], double u[3])
{
    double n = sqrt(rr_dot(a, a, 3));
    u[0] = a[0] / n;
    u[1] = a[1] / n;
    u[2] = a[2] / n;
}

/* ------------------------------------------------------- random pieces --- */

static double rr_right_angle(rr_rng *g)
{
    static const double angles[] = { 0.0, RR_PI / 2, -RR_PI / 2, RR_PI };
    return angles[rr_int(g, 0, 3)];
}

/* Zero, exact right angles, or arbitrary: the cases an emitter folds differently. */
static void rr_random_rpy(rr_rng *g, double rpy[3], double p_zero, double p_right)
{
    double u = splitmix64_unit(g);
    int i;
    for (i = 0; i < 3; ++i)
        rpy[i] = 0.0;
    if (u < p_zero)
        return;
    for (i = 0; i < 3; ++i)
        rpy[i] = u < p_zero + p_right ? rr_right_angle(g) : splitmix64_range(g, -RR_PI, RR_PI);
}

/* Millimetre-rounded values look like published drawings; others use all 53 bits. */
static double rr_length(rr_rng *g, double scale, int rounded)
{
    double x = splitmix64_range(g, -scale, scale);
    return rounded ? floor(x * 1000.0 + 0.5) / 1000.0 : x;
}

static void rr_random_xyz(rr_rng *g, double xyz[3], double scale)
{
    double u = splitmix64_unit(g);
    int rounded = rr_chance(g, 0.5), i;
    for (i = 0; i < 3; ++i)
        xyz[i] = 0.0;
    if (u < 0.15)
        return;
    if (u < 0.5) { /* an offset along one axis only */
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
    double u = splitmix64_unit(g);
    o->form = RR_ORIGIN_BOTH;
    if (zero_xyz && zero_rpy)
        o->form = u < 0.5 ? RR_ORIGIN_ABSENT : u < 0.7 ? RR_ORIGIN_EMPTY : RR_ORIGIN_BOTH;
    else if (zero_rpy && u < 0.5)
        o->form = RR_ORIGIN_XYZ;
    else if (zero_xyz && u < 0.5)
        o->form = RR_ORIGIN_RPY;
}

void rr_random_origin(rr_rng *g, rr_origin *o, double scale)
{
    rr_random_xyz(g, o->xyz, scale);
    rr_random_rpy(g, o->rpy, 0.4, 0.3);
    rr_origin_form_for(g, o);
}

/* Exactly aligned (sometimes unnormalised or left to the default), aligned but for
 * tiny components, or skewed and unnormalised. */
void rr_random_axis(rr_rng *g, rr_link *l)
{
    double u = splitmix64_unit(g), s = rr_sign(g);
    int k = rr_int(g, 0, 2), i;
    l->axis_written = 1;
    for (i = 0; i < 3; ++i)
        l->axis[i] = 0.0;
    if (u < 0.08) {
        l->axis[0] = 1.0;
        l->axis_written = 0;
    } else if (u < 0.5) {
        l->axis[k] = s * (rr_chance(g, 0.8) ? 1.0 : splitmix64_range(g, 0.5, 3.0));
    } else if (u < 0.65) {
        double tiny = rr_chance(g, 0.3) ? 1e-14 : pow(10.0, splitmix64_range(g, -7.0, -3.0));
        l->axis[k] = s;
        l->axis[(k + 1) % 3] = rr_sign(g) * tiny;
        if (rr_chance(g, 0.5)) {
            double other = tiny * splitmix64_range(g, 0.1, 1.0);
            l->axis[(k + 2) % 3] = rr_sign(g) * other; /* one draw per statement: */
        }                                              /* evaluation order is unspecified */
    } else {
        do {
            for (i = 0; i < 3; ++i)
                l->axis[i] =
                    rr_chance(g, 0.3) ? (double)rr_int(g, -1, 1) : splitmix64_range(g, -2.0, 2.0);
        } while (rr_dot(l->axis, l->axis, 3) < 0.1);
    }
}

void rr_random_limits(rr_rng *g, rr_link *l)
{
    l->effort = splitmix64_range(g, 1.0, 500.0);
    l->velocity = splitmix64_range(g, 0.5, 30.0);
    l->limit = RR_LIMIT_FULL;
    if (l->type == RR_REVOLUTE) {
        l->lower = -splitmix64_range(g, 0.1, RR_PI);
        l->upper = splitmix64_range(g, 0.1, RR_PI);
    } else if (l->type == RR_PRISMATIC) {
        l->lower = -splitmix64_range(g, 0.01, 0.5);
        l->upper = splitmix64_range(g, 0.01, 0.5);
    } else if (l->type == RR_CONTINUOUS) {
        l->limit = rr_chance(g, 0.5) ? RR_LIMIT_EFFORT_ONLY : RR_LIMIT_NONE;
    } else {
        l->limit = RR_LIMIT_NONE;
    }
}

/* R diag(d) R^T, upper triangle as xx xy xz yy yz zz. */
static void rr_rotate_inertia(const double R[9], const double d[3], double I[6])
{
    static const int row[6] = { 0, 0, 0, 1, 1, 2 }, col[6] = { 0, 1, 2, 1, 2, 2 };
    int e, k;
    double scale = d[0] + d[1] + d[2];
    for (e = 0; e < 6; ++e) {
        I[e] = 0.0;
        for (k = 0; k < 3; ++k)
            I[e] += R[3 * row[e] + k] * d[k] * R[3 * col[e] + k];
        if (fabs(I[e]) < 1e-14 * scale)
            I[e] = 0.0; /* rounding residue of cos(pi/2): write the exact zero */
    }
}

/* A mass with a physically valid inertia: principal moments from second moments
 * s_k = m r_k^2 along each principal axis (so Ixx = s_y + s_z, ... satisfy the triangle
 * inequality strictly), turned by a random rotation, about a random com. */
void rr_random_inertial(rr_robot *r, rr_inertial *in)
{
    rr_rng *g = &r->rng;
    double s[3], d[3], R[9], rpy[3];
    int k;
    in->present = 1;
    in->mass = pow(10.0, r->mass_lo + r->mass_span * splitmix64_unit(g));
    for (k = 0; k < 3; ++k) {
        double radius = splitmix64_range(g, 0.03, 0.12);
        s[k] = in->mass * radius * radius;
    }
    d[0] = s[1] + s[2];
    d[1] = s[0] + s[2];
    d[2] = s[0] + s[1];
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
    "int",
    "double",
    "for",
    "return",
    "struct",
    "static",
    "void",
    "const",
    "_Bool",
    "main",
    "NULL",
    "M_PI",
    "errno",
    "sqrt",
    "nv",
    "q",
    "data",
    "model",
    "2nd link",
    "0",
    "42",
    "3d-printed bracket",
    "two  spaces",
    "left leg/knee",
    "R&D arm",
    "x<y",
    "say \"hi\"",
    "it's",
    "__reserved",
    "_Hidden",
    "\xc3\xa9"
    "paule gauche",                             /* épaule gauche */
    "\xce\xb3\xcf\x89\xce\xbd\xce\xaf\xce\xb1", /* γωνία */
    "\xe5\x85\xb3\xe8\x8a\x82",                 /* 关节 */
    "Knie-\xc3\x9c",                            /* Knie-Ü */
    "\xf0\x9f\xa4\x96"
    "arm", /* robot emoji, then arm */
    "a_very_long_name_that_keeps_going_well_past_the_sixty_three_significant_characters",
    "Knee",
    "knee",
    "KNEE",
    "a-b",
    "a_b",
    "a.b",
    "a b"
};
#define RR_NODD ((int)(sizeof rr_odd_names / sizeof rr_odd_names[0]))

/* Separators that all sanitise to '_': "seg-3", "seg_3", "seg.3" and "seg 3" collide. */
static const char *const rr_collide_fmt[] = { "%s-%d", "%s_%d", "%s.%d", "%s %d" };
static const char *const rr_collide_stems[] = { "seg", "arm", "Leg", "x" };

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
void rr_make_name(rr_robot *r, char dst[RR_NAME_LEN], const char *plain_fmt, int index)
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
