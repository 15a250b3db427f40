/* random_robot_model.h — what the parts of the random-robot generator share, internal to
 * them: the robot as a table of links (each with the joint to its parent), its PRNG, and
 * the functions one part calls in another.
 *
 *  - random_robot_parts.c: the PRNG, pose geometry, random pieces (origins, axes, limits,
 *    inertials) and names;
 *  - random_robot_shape.c: the robot built from the seed (shape, joint types, fixed
 *    leaves), repaired so that M stays positive definite, and its print order;
 *  - random_robot_urdf.c: the robot printed as URDF, and the public API (random_robot.h).
 *
 * One splitmix64 stream per robot, no globals: the same seed always gives the same text. */
#ifndef CDYN_TESTS_RANDOM_ROBOT_MODEL_H
#define CDYN_TESTS_RANDOM_ROBOT_MODEL_H

#include <stdint.h>
#include "rng.h"

#define RR_MAX_MOVING 40     /* ordinary seeds */
#define RR_MAX_BIG_MOVING 90 /* big seeds: at most RR_MAX_TIPS chains of RR_BIG_CHAIN_MAX */
#define RR_MAX_LINKS 400
#define RR_NAME_LEN 128
#define RR_PI 3.14159265358979323846
#define RR_MAX_TIPS 6
#define RR_BIG_CHAIN_MIN 8
#define RR_BIG_CHAIN_MAX 15
#define RR_BIG_MIN_PRODUCTS 1000 /* the generator's LTL_IN_PLACE_MIN_MUL (emit_crba.c) */

/* One splitmix64 stream per robot (rng.h). */
typedef splitmix64 rr_rng;

/* ------------------------------------------------------------ the model --- */

typedef enum { RR_REVOLUTE, RR_CONTINUOUS, RR_PRISMATIC, RR_FIXED, RR_FLOATING, RR_PLANAR } rr_type;

/* How an <origin> is written: absent, empty element, both attributes, or one of them. */
typedef enum {
    RR_ORIGIN_ABSENT,
    RR_ORIGIN_EMPTY,
    RR_ORIGIN_BOTH,
    RR_ORIGIN_XYZ,
    RR_ORIGIN_RPY
} rr_origin_form;

typedef struct {
    double xyz[3], rpy[3]; /* an attribute that is not written holds zeros */
    rr_origin_form form;
} rr_origin;

typedef struct {
    int present;
    rr_origin frame; /* com and the axes the inertia is written in */
    double mass;
    double I[6]; /* xx xy xz yy yz zz about the com */
} rr_inertial;

typedef enum { RR_LIMIT_NONE, RR_LIMIT_FULL, RR_LIMIT_EFFORT_ONLY } rr_limit_form;

typedef struct {
    char name[RR_NAME_LEN];  /* the link */
    char joint[RR_NAME_LEN]; /* the joint to its parent (not for the root) */
    int parent;              /* parent link, -1 for the root */
    rr_type type;            /* RR_FIXED for the root */
    rr_origin origin;
    double axis[3];
    int axis_written; /* 0: no <axis>, URDF's default (1 0 0) */
    rr_limit_form limit;
    double lower, upper, effort, velocity;
    int dynamics, visual; /* extra elements a parser must skip or accept */
    rr_inertial inertial;
} rr_link;

typedef enum {
    RR_CHAIN,
    RR_STAR,
    RR_RANDOM_TREE,
    RR_MULTI_CHAIN,
    RR_BINARY,
    RR_CATERPILLAR,
    RR_FOREST /* big seeds only: chains of given lengths from the root */
} rr_shape;
#define RR_NSHAPES RR_FOREST /* the shapes ordinary seeds draw from */

typedef struct {
    rr_rng rng;
    rr_link link[RR_MAX_LINKS];
    int nlinks;
    int moving[RR_MAX_BIG_MOVING + 1]; /* moving[0] = root, then links with moving joints */
    int nbodies;
    int tip[RR_MAX_TIPS]; /* chain ends for the multi-chain, caterpillar and forest */
    int ntips;
    int chain_len[RR_MAX_TIPS]; /* forest: moving joints per chain, chain after chain */
    unsigned char planar[RR_MAX_BIG_MOVING + 1]; /* big seeds: moving joints made planar */
    int order[2 * RR_MAX_LINKS]; /* print order: k >= 0 link k, k < 0 joint of link -k */
    int norder;
    /* flavour of this robot */
    int floating_base, extreme, nmoving, floating_at, planar_at;
    rr_shape shape;
    double mass_lo, mass_span; /* log10 of the lightest mass, decades spanned */
    double length;             /* typical joint offset, shrinks for long chains */
    double odd_rate;           /* share of odd names */
    int collide_stem, collide_k, name_style;
    /* bookkeeping */
    int nv, nq;
} rr_robot;

typedef struct {
    double R[9], p[3];
} rr_pose;

/* ---------------------------------------------- random_robot_parts.c --- */

int rr_int(rr_rng *g, int lo, int hi);
int rr_chance(rr_rng *g, double p);
void rr_shuffle(rr_rng *g, int *a, int n);

/* geometry */
void rr_origin_pose(const rr_origin *o, rr_pose *T);
void rr_pose_mul(const rr_pose *A, const rr_pose *B, rr_pose *out);
double rr_dot(const double *a, const double *b, int n);
void rr_unit_axis(const double a[3], double u[3]);

/* random pieces and names */
void rr_random_origin(rr_rng *g, rr_origin *o, double scale);
void rr_random_axis(rr_rng *g, rr_link *l);
void rr_random_limits(rr_rng *g, rr_link *l);
void rr_random_inertial(rr_robot *r, rr_inertial *in);
void rr_make_name(rr_robot *r, char dst[RR_NAME_LEN], const char *plain_fmt, int index);

/* ---------------------------------------------- random_robot_shape.c --- */

/* The robot of `seed`, built and repaired (malloc'd; free() it), or NULL. */
rr_robot *rr_generate(unsigned seed);

#endif
