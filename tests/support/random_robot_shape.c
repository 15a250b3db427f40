/* random_robot_shape.c — a random robot built from its seed: flavour (size, shape, masses,
 * names), the tree of links and joints, fixed leaves, the mass repair that keeps the
 * joint-space inertia matrix positive definite, and the order the URDF lists them in. */
#include "random_robot.h"
#include "random_robot_model.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------- building --- */

/* The plain naming styles (r->name_style picks one; rr_make_name may pick an odd name). */
static const char *const rr_link_styles[] = { "link_%d", "Link%d", "body-%d", "l%d" };
static const char *const rr_joint_styles[] = { "joint_%d", "J%d", "hinge-%d", "j%d" };

static int rr_dofs(rr_type t)
{
    return t == RR_FIXED ? 0 : t == RR_PLANAR ? 3 : t == RR_FLOATING ? 6 : 1;
}

static int rr_nq_of(rr_type t)
{
    return t == RR_FIXED        ? 0
           : t == RR_CONTINUOUS ? 2
           : t == RR_PLANAR     ? 4
           : t == RR_FLOATING   ? 7
                                : 1;
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
    rr_make_name(r, l->name,
                 parent < 0 || t == RR_FIXED ? "frame_%d" : rr_link_styles[r->name_style], i);
    r->nlinks++; /* the link name now counts as used */
    if (parent >= 0) {
        rr_make_name(r, l->joint, t == RR_FIXED ? "fixed_%d" : rr_joint_styles[r->name_style], i);
        rr_random_origin(g, &l->origin, r->length);
        if (t != RR_FLOATING && t != RR_FIXED)
            rr_random_axis(g, l);
        else if (t == RR_FIXED && rr_chance(g, 0.1))
            rr_random_axis(g, l); /* an axis on a fixed joint means nothing */
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
    case RR_CHAIN: return r->moving[r->nbodies - 1];
    case RR_STAR: return 0;
    case RR_MULTI_CHAIN: *tip_slot = (i - 1) % r->ntips; return r->tip[*tip_slot];
    case RR_BINARY: return r->moving[(r->nbodies - 1) / 2];
    case RR_CATERPILLAR:
        if (rr_chance(g, 0.5))
            *tip_slot = 0; /* grow the spine, else hang a leg off it */
        return r->tip[0];
    case RR_FOREST:
        for (*tip_slot = 0; i > r->chain_len[*tip_slot]; ++*tip_slot)
            i -= r->chain_len[*tip_slot];
        return r->tip[*tip_slot];
    default: return r->moving[rr_int(g, 0, r->nbodies - 1)];
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
    u = splitmix64_unit(g);
    return u < 0.5 ? RR_REVOLUTE : u < 0.7 ? RR_CONTINUOUS : RR_PRISMATIC;
}

/* 1..40 moving joints: small robots often, the full 40 sometimes. */
static int rr_pick_size(rr_rng *g)
{
    double u = splitmix64_unit(g);
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
    r->mass_span = r->extreme ? 6.0 : splitmix64_range(g, 0.0, 4.0);
    r->mass_lo = r->extreme ? -4.0 : splitmix64_range(g, -3.0, log10(50.0) - r->mass_span);
    /* keep long chains within a few metres so that M stays well conditioned */
    r->length = 0.4 * (r->nmoving > 8 ? sqrt(8.0 / r->nmoving) : 1.0);
    r->floating_at = r->nmoving >= 2 && rr_chance(g, 0.08) ? rr_int(g, 2, r->nmoving) : -1;
    r->planar_at = rr_chance(g, 0.1) ? rr_int(g, 1, r->nmoving) : -1;
}

/* Names: how many odd ones, which collision stem, which plain style. */
static void rr_pick_names(rr_robot *r)
{
    rr_rng *g = &r->rng;
    r->odd_rate = rr_chance(g, 0.75) ? splitmix64_range(g, 0.1, 0.6) : 0.0;
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
        } else { /* lengthen the shortest chain */
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
        start[c] = r->nmoving; /* joint start[c] + d is at depth d in chain c */
        r->nmoving += r->chain_len[c];
        if (r->chain_len[c] > longest)
            longest = r->chain_len[c];
        order[c] = c;
    }
    r->mass_span = splitmix64_range(g, 0.0, 4.0);
    r->mass_lo = splitmix64_range(g, -3.0, log10(50.0) - r->mass_span);
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
    rr_pose own = { { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, { 0, 0, 0 } }, T;
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
    double u = splitmix64_unit(&r->rng);
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
    r->rng.state = 0x6364796e67656e00ULL ^ (uint64_t)seed; /* "cdyngen\0" */
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

rr_robot *rr_generate(unsigned seed)
{
    rr_robot *r = malloc(sizeof *r);
    if (r)
        rr_build(r, seed);
    return r;
}
