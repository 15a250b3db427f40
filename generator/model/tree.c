/* tree.c — stage 2: URDF links and joints to the kinematic tree of moving bodies.
 *
 * A depth-first walk from the root link, children visited in strcmp order of their joint
 * names (Pinocchio's order, inherited from urdfdom's std::map). Every link is placed in the
 * frame of the body that carries it; a fixed joint adds no body, its child link's inertia is
 * lumped into the carrying body and the link is kept as a frame. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/tree.h"
#include "util/text.h"

/* Angles this close to a multiple of pi/2 are made that multiple, and joint axes this close
 * (in angle) to +-x, +-y, +-z are made that axis: URDFs write right angles as rounded
 * decimals (iiwa's 1.57079632679 is 4.9e-12 short), and exact 0 and +-1 entries let the
 * emitter drop whole products (iiwa's ABA: 1170 -> 669 multiplications). The angles are
 * snapped, never the entries of a rotation one at a time, so every rotation stays orthogonal
 * to rounding: a genuine 4e-10 entry (an rpy of 0.27931 5.4949e-05 -0.00019159) is kept.
 * 1e-9 rad moves a point 1 m away by 1 nm. */
#define ANGLE_TOL 1e-9
/* Composing two rotations leaves rounding (a few ulp) where the exact product is 0 or +-1;
 * those entries are cleaned to the exact value, which moves nothing beyond rounding. */
#define ROUNDING_TOL 1e-15

typedef struct {
    double R[9], p[3];
} placement;

typedef struct { /* inertia accumulated about the body origin */
    double mass, h[3], I[9];
} lumped_inertia;

typedef struct {
    const urdf_model *u;
    const tree_options *opt;
    kin_tree *t;
    int **children; /* per link: child joint indices, sorted by joint name */
    int *nchildren;
    lumped_inertia *lump; /* per body */
    char *err;
    size_t errlen;
} builder;

static int fail(builder *b, int line, const char *joint, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(b->err, b->errlen, "%s:%d: joint \"%s\": %s", b->u->file ? b->u->file : "?", line,
             joint, msg);
    return -1;
}

/* ---- 3x3 algebra on row-major arrays ---- */

/* An entry within rounding of 0 or +-1 made exact (see ROUNDING_TOL). */
static double clean(double x)
{
    if (fabs(x) < ROUNDING_TOL)
        return 0.0;
    if (fabs(x - 1.0) < ROUNDING_TOL)
        return 1.0;
    if (fabs(x + 1.0) < ROUNDING_TOL)
        return -1.0;
    return x;
}

/* cos and sin of an angle, exact when the angle is within ANGLE_TOL of a multiple of pi/2
 * (counted into *snapped: kin_tree.nsnapped, for `cdyngen report` and --summary). */
static void snapped_cos_sin(double angle, double *c, double *s, int *snapped)
{
    static const double cos4[4] = { 1, 0, -1, 0 }, sin4[4] = { 0, 1, 0, -1 };
    const double half_pi = 1.57079632679489661923;
    double k = floor(angle / half_pi + 0.5);
    if (fabs(angle - k * half_pi) < ANGLE_TOL && fabs(k) < 1e9) {
        int quarter = (int)fmod(k, 4.0);
        quarter = quarter < 0 ? quarter + 4 : quarter;
        *c = cos4[quarter];
        *s = sin4[quarter];
        *snapped += angle != 0.0;
        return;
    }
    *c = cos(angle);
    *s = sin(angle);
}

static void mat3_mul(double out[9], const double a[9], const double b[9])
{
    double r[9];
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    memcpy(out, r, sizeof r);
}

static void mat3_vec(double out[3], const double a[9], const double x[3])
{
    double r[3];
    int i;
    for (i = 0; i < 3; i++)
        r[i] = a[3 * i] * x[0] + a[3 * i + 1] * x[1] + a[3 * i + 2] * x[2];
    memcpy(out, r, sizeof r);
}

static void mat3_transpose(double out[9], const double a[9])
{
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            out[3 * j + i] = a[3 * i + j];
}

/* R = Rz(yaw) Ry(pitch) Rx(roll), as the URDF specification defines rpy. */
static void rpy_to_matrix(double R[9], const double rpy[3], int *snapped)
{
    double cr, sr, cp, sp, cy, sy;
    snapped_cos_sin(rpy[0], &cr, &sr, snapped);
    snapped_cos_sin(rpy[1], &cp, &sp, snapped);
    snapped_cos_sin(rpy[2], &cy, &sy, snapped);
    R[0] = cy * cp, R[1] = cy * sp * sr - sy * cr, R[2] = cy * sp * cr + sy * sr;
    R[3] = sy * cp, R[4] = sy * sp * sr + cy * cr, R[5] = sy * sp * cr - cy * sr;
    R[6] = -sp, R[7] = cp * sr, R[8] = cp * cr;
}

static placement origin_placement(const urdf_origin *o, int *snapped)
{
    placement x;
    rpy_to_matrix(x.R, o->rpy, snapped);
    memcpy(x.p, o->xyz, sizeof x.p);
    return x;
}

/* a * b: b expressed in a's frame composed onto a. */
static placement compose(const placement *a, const placement *b)
{
    placement x;
    int i;
    mat3_mul(x.R, a->R, b->R);
    mat3_vec(x.p, a->R, b->p);
    for (i = 0; i < 3; i++)
        x.p[i] += a->p[i];
    for (i = 0; i < 9; i++)
        x.R[i] = clean(x.R[i]);
    return x;
}

static placement identity_placement(void)
{
    placement x = { { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, { 0, 0, 0 } };
    return x;
}

/* A rotation taking +z onto the unit vector a (used to put a planar joint's plane in xy). */
static void rotation_z_to(double R[9], const double a[3])
{
    double ex[3] = { 1, 0, 0 }, x[3], y[3], n;
    int i;
    if (fabs(a[0]) > 0.9) {
        ex[0] = 0;
        ex[1] = 1;
    }
    /* x = ex - (ex.a) a, normalised; y = a cross x */
    n = ex[0] * a[0] + ex[1] * a[1] + ex[2] * a[2];
    for (i = 0; i < 3; i++)
        x[i] = ex[i] - n * a[i];
    n = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    for (i = 0; i < 3; i++)
        x[i] /= n;
    y[0] = a[1] * x[2] - a[2] * x[1];
    y[1] = a[2] * x[0] - a[0] * x[2];
    y[2] = a[0] * x[1] - a[1] * x[0];
    for (i = 0; i < 3; i++) {
        R[3 * i] = clean(x[i]);
        R[3 * i + 1] = clean(y[i]);
        R[3 * i + 2] = a[i];
    }
}

/* ---- inertia lumping ---- */

/* Adds a link's inertial (given in the link frame) to a body, the link placed at x. */
static void lump_link(lumped_inertia *acc, const urdf_link *l, const placement *x, int *snapped)
{
    placement in = origin_placement(&l->inertial_origin, snapped), c = compose(x, &in);
    double Ic[9] = { l->ixx, l->ixy, l->ixz, l->ixy, l->iyy, l->iyz, l->ixz, l->iyz, l->izz };
    double Rt[9], tmp[9], cc;
    int i, j;
    if (!l->has_inertial)
        return;
    /* rotate the central inertia into the body axes: R Ic R^T */
    mat3_transpose(Rt, c.R);
    mat3_mul(tmp, c.R, Ic);
    mat3_mul(tmp, tmp, Rt);
    /* parallel axis theorem to the body origin: I_o = I_c + m (|c|^2 1 - c c^T) */
    cc = c.p[0] * c.p[0] + c.p[1] * c.p[1] + c.p[2] * c.p[2];
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++)
            acc->I[3 * i + j] += tmp[3 * i + j] + l->mass * ((i == j ? cc : 0.0) - c.p[i] * c.p[j]);
        acc->h[i] += l->mass * c.p[i];
    }
    acc->mass += l->mass;
}

/* Back from origin form to (mass, com, inertia about com). */
static void finish_inertia(tree_body *body, const lumped_inertia *acc)
{
    double c[3] = { 0, 0, 0 }, cc, I[9];
    int i, j;
    body->mass = acc->mass;
    if (acc->mass > 0)
        for (i = 0; i < 3; i++)
            c[i] = acc->h[i] / acc->mass;
    cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            I[3 * i + j] = acc->I[3 * i + j] - acc->mass * ((i == j ? cc : 0.0) - c[i] * c[j]);
    memcpy(body->com, c, sizeof c);
    body->inertia[0] = I[0];
    body->inertia[1] = 0.5 * (I[1] + I[3]);
    body->inertia[2] = 0.5 * (I[2] + I[6]);
    body->inertia[3] = I[4];
    body->inertia[4] = 0.5 * (I[5] + I[7]);
    body->inertia[5] = I[8];
}

/* ---- joints ---- */

/* Counts an axis it changes into *snapped. */
static void set_axis(tree_body *body, const double axis[3], int *snapped)
{
    int k;
    memcpy(body->axis, axis, sizeof body->axis);
    body->axis_index = -1;
    body->axis_sign = 1;
    for (k = 0; k < 3; k++) {
        int o1 = (k + 1) % 3, o2 = (k + 2) % 3;
        if (fabs(axis[o1]) < ANGLE_TOL && fabs(axis[o2]) < ANGLE_TOL &&
            fabs(fabs(axis[k]) - 1.0) < ANGLE_TOL) {
            body->axis_index = k;
            body->axis_sign = axis[k] > 0 ? 1 : -1;
            *snapped += axis[o1] != 0.0 || axis[o2] != 0.0 || fabs(axis[k]) != 1.0;
            body->axis[o1] = body->axis[o2] = 0.0;
            body->axis[k] = body->axis_sign;
        }
    }
}

static void kind_sizes(tree_joint_kind k, int *nq, int *nv)
{
    static const int q[] = { 1, 2, 1, 4, 7 }, v[] = { 1, 1, 1, 3, 6 };
    *nq = q[k];
    *nv = v[k];
}

/* Appends a body; returns its index or -1 (no memory). */
static int add_body(builder *b, const char *joint, const char *link, int line, tree_joint_kind kind,
                    int parent, const placement *x)
{
    kin_tree *t = b->t;
    tree_body *body;
    tree_body *grown = realloc(t->bodies, (size_t)(t->nbodies + 1) * sizeof *grown);
    lumped_inertia *lump = realloc(b->lump, (size_t)(t->nbodies + 1) * sizeof *lump);
    if (grown)
        t->bodies = grown;
    if (lump)
        b->lump = lump;
    if (!grown || !lump)
        return -1;
    body = &t->bodies[t->nbodies];
    memset(body, 0, sizeof *body);
    memset(&b->lump[t->nbodies], 0, sizeof *b->lump);
    body->joint_name = text_dup(joint);
    body->link_name = text_dup(link);
    if (!body->joint_name || !body->link_name) {
        free(body->joint_name);
        free(body->link_name);
        return -1;
    }
    body->line = line;
    body->kind = kind;
    body->parent = parent;
    body->axis_index = -1;
    body->axis_sign = 1;
    body->lower = 1.0;
    body->upper = -1.0;
    memcpy(body->R, x->R, sizeof body->R);
    memcpy(body->p, x->p, sizeof body->p);
    kind_sizes(kind, &body->nq, &body->nv);
    body->idx_q = t->nq;
    body->idx_v = t->nv;
    t->nq += body->nq;
    t->nv += body->nv;
    return t->nbodies++;
}

static int joint_kind(urdf_joint_type type, tree_joint_kind *kind)
{
    switch (type) {
    case URDF_REVOLUTE: *kind = TREE_REVOLUTE; return 1;
    case URDF_CONTINUOUS: *kind = TREE_REVOLUTE_UNBOUNDED; return 1;
    case URDF_PRISMATIC: *kind = TREE_PRISMATIC; return 1;
    case URDF_PLANAR: *kind = TREE_PLANAR; return 1;
    case URDF_FLOATING: *kind = TREE_FREEFLYER; return 1;
    case URDF_FIXED: break;
    }
    return 0;
}

/* A joint waiting on the walk's stack: its parent body and its frame in that body. */
typedef struct {
    int joint, body;
    placement joint_in_body;
} pending_joint;

/* A moving joint: a new body whose frame is the joint frame (the child link frame, except for
 * a planar joint off +z, whose frame is turned so its plane is xy). Returns the body, and the
 * child link's placement in it. */
static int add_moving_joint(builder *b, const urdf_joint *j, tree_joint_kind kind, int body,
                            const placement *joint_in_body, placement *child_in_body)
{
    placement x = *joint_in_body;
    int k;
    *child_in_body = identity_placement();
    if (kind == TREE_PLANAR &&
        !(fabs(j->axis[0]) < ANGLE_TOL && fabs(j->axis[1]) < ANGLE_TOL && j->axis[2] > 0)) {
        placement turn = identity_placement();
        rotation_z_to(turn.R, j->axis);
        x = compose(joint_in_body, &turn);
        mat3_transpose(child_in_body->R, turn.R);
    }
    k = add_body(b, j->name, b->u->links[j->child].name, j->line, kind, body, &x);
    if (k < 0)
        return fail(b, j->line, j->name, "out of memory");
    if (kind == TREE_REVOLUTE || kind == TREE_REVOLUTE_UNBOUNDED || kind == TREE_PRISMATIC)
        set_axis(&b->t->bodies[k], j->axis, &b->t->nsnapped);
    if (kind == TREE_PLANAR)
        set_axis(&b->t->bodies[k], (const double[3]){ 0, 0, 1 }, &b->t->nsnapped);
    if (j->has_limit && b->t->bodies[k].nq == 1) {
        b->t->bodies[k].lower = j->lower;
        b->t->bodies[k].upper = j->upper;
    }
    return k;
}

/* Places `link` in body `body` at `link_in_body` and stacks its child joints, the first
 * child on top. */
static void place_link(builder *b, int link, int body, const placement *link_in_body,
                       pending_joint *stack, int *top)
{
    tree_frame *f = &b->t->frames[link];
    int c;
    f->body = body;
    memcpy(f->R, link_in_body->R, sizeof f->R);
    memcpy(f->p, link_in_body->p, sizeof f->p);
    if (body >= 0)
        lump_link(&b->lump[body], &b->u->links[link], link_in_body, &b->t->nsnapped);
    for (c = b->nchildren[link] - 1; c >= 0; c--) {
        const urdf_joint *j = &b->u->joints[b->children[link][c]];
        placement origin = origin_placement(&j->origin, &b->t->nsnapped);
        pending_joint *e = &stack[(*top)++];
        e->joint = b->children[link][c];
        e->body = body;
        e->joint_in_body = compose(link_in_body, &origin);
    }
}

/* Depth first from the root link, children in Pinocchio's order, with a stack of its own
 * (one entry per joint at most): a chain as deep as the URDF allows cannot overflow the C
 * stack. Bodies are numbered in the order they are reached. */
static int walk(builder *b, int root_body)
{
    pending_joint *stack = malloc((size_t)(b->u->njoints > 0 ? b->u->njoints : 1) * sizeof *stack);
    placement id = identity_placement();
    int top = 0;
    if (!stack)
        return fail(b, 0, "", "out of memory");
    place_link(b, b->u->root, root_body, &id, stack, &top);
    while (top > 0) {
        pending_joint e = stack[--top];
        const urdf_joint *j = &b->u->joints[e.joint];
        tree_joint_kind kind;
        placement child_in_body;
        int body = e.body;
        if (joint_kind(j->type, &kind)) {
            body = add_moving_joint(b, j, kind, e.body, &e.joint_in_body, &child_in_body);
            if (body < 0) {
                free(stack);
                return -1;
            }
        } else {
            child_in_body = e.joint_in_body;
        }
        place_link(b, j->child, body, &child_in_body, stack, &top);
    }
    free(stack);
    return 0;
}

/* The limits of tree.h, on the bodies as the walk numbered them (parents first). */
static int check_limits(builder *b)
{
    const kin_tree *t = b->t;
    double work = 0.0, worst = -1.0;
    int *path = malloc((size_t)(t->nbodies > 0 ? t->nbodies : 1) * sizeof *path);
    int i, a, deepest = 0;
    if (!path)
        return fail(b, 0, "", "out of memory");
    if (t->nv > TREE_MAX_DOFS) {
        const tree_body *last = &t->bodies[t->nbodies - 1];
        free(path);
        return fail(b, last->line, last->joint_name,
                    "the robot has %d DoFs, this joint's the last; "
                    "cdyngen generates at most %d",
                    t->nv, TREE_MAX_DOFS);
    }
    for (i = 0; i < t->nbodies; i++) {
        int parent = t->bodies[i].parent;
        path[i] = (parent < 0 ? 0 : path[parent]) + t->bodies[i].nv;
        for (a = 0; a < t->bodies[i].nv; a++)
            work += (double)(path[i] - a) * (double)(path[i] - a);
        if (path[i] > worst) {
            worst = path[i];
            deepest = i;
        }
    }
    free(path);
    if (work > TREE_MAX_CHAIN_WORK) {
        const tree_body *d = &t->bodies[deepest];
        return fail(b, d->line, d->joint_name,
                    "a chain of %d DoFs ends here, and the chains' "
                    "dense factorisation would emit %.3g operations; cdyngen generates at most "
                    "%.3g (one chain of 143 DoFs)",
                    (int)worst, work, TREE_MAX_CHAIN_WORK);
    }
    return 0;
}

/* ---- children lists in Pinocchio's order ---- */

typedef struct {
    const char *name;
    int joint;
} named_joint;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const named_joint *)a)->name, ((const named_joint *)b)->name);
}

/* Child joints of every link, sorted by joint name. */
static int build_children(builder *b)
{
    const urdf_model *u = b->u;
    named_joint *all = malloc((size_t)(u->njoints > 0 ? u->njoints : 1) * sizeof *all);
    int i, n;
    b->children = calloc((size_t)u->nlinks, sizeof *b->children);
    b->nchildren = calloc((size_t)u->nlinks, sizeof *b->nchildren);
    if (!all || !b->children || !b->nchildren) {
        free(all);
        return -1;
    }
    for (i = 0; i < u->njoints; i++) {
        all[i].name = u->joints[i].name;
        all[i].joint = i;
    }
    qsort(all, (size_t)u->njoints, sizeof *all, by_name);
    for (n = 0; n < u->njoints; n++) {
        int p = u->joints[all[n].joint].parent;
        int *grown = realloc(b->children[p], (size_t)(b->nchildren[p] + 1) * sizeof *grown);
        if (!grown) {
            free(all);
            return -1;
        }
        b->children[p] = grown;
        grown[b->nchildren[p]++] = all[n].joint;
    }
    free(all);
    return 0;
}

/* ---- sparsity ---- */

static int build_sparsity(kin_tree *t)
{
    int i, k;
    t->dof_parent = malloc((size_t)(t->nv > 0 ? t->nv : 1) * sizeof(int));
    t->dof_body = malloc((size_t)(t->nv > 0 ? t->nv : 1) * sizeof(int));
    t->depth = calloc((size_t)(t->nbodies > 0 ? t->nbodies : 1), sizeof(int));
    t->subtree = calloc((size_t)(t->nbodies > 0 ? t->nbodies : 1), sizeof(int));
    t->dof_depth = malloc((size_t)(t->nv > 0 ? t->nv : 1) * sizeof(int));
    t->ltl_start = malloc((size_t)(t->nv + 1) * sizeof(int));
    if (!t->dof_parent || !t->dof_body || !t->depth || !t->subtree || !t->dof_depth ||
        !t->ltl_start)
        return -1;
    for (i = 0; i < t->nbodies; i++) {
        const tree_body *body = &t->bodies[i];
        int parent_last =
            body->parent < 0 ? -1 : t->bodies[body->parent].idx_v + t->bodies[body->parent].nv - 1;
        for (k = 0; k < body->nv; k++) {
            t->dof_parent[body->idx_v + k] = k == 0 ? parent_last : body->idx_v + k - 1;
            t->dof_body[body->idx_v + k] = i;
        }
        t->depth[i] = body->parent < 0 ? 1 : t->depth[body->parent] + 1;
        if (t->depth[i] > t->max_depth)
            t->max_depth = t->depth[i];
    }
    for (i = t->nbodies - 1; i >= 0; i--) {
        t->subtree[i] += 1;
        if (t->bodies[i].parent >= 0)
            t->subtree[t->bodies[i].parent] += t->subtree[i];
    }
    t->nnz_M = t->nnz_L = 0;
    t->ltl_start[0] = 0;
    for (i = 0; i < t->nv; i++) { /* dof_parent[i] < i: its depth is known */
        t->dof_depth[i] = t->dof_parent[i] < 0 ? 1 : t->dof_depth[t->dof_parent[i]] + 1;
        t->ltl_start[i + 1] = t->ltl_start[i] + t->dof_depth[i];
        t->nnz_M += 2 * t->dof_depth[i] - 1;
    }
    t->nnz_L = t->ltl_start[t->nv];
    return 0;
}

int tree_dof_supports(const kin_tree *t, int j, int i)
{
    for (; i >= 0; i = t->dof_parent[i])
        if (i == j)
            return 1;
    return 0;
}

int tree_find_frame(const kin_tree *t, const char *name)
{
    int i;
    for (i = 0; i < t->nframes; i++)
        if (strcmp(t->frames[i].name, name) == 0)
            return i;
    return -1;
}

int tree_frame_at_body_origin(const tree_frame *f)
{
    static const double identity[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    int k;
    if (f->body < 0)
        return 0;
    for (k = 0; k < 9; k++)
        if (f->R[k] != identity[k])
            return 0;
    return f->p[0] == 0 && f->p[1] == 0 && f->p[2] == 0;
}

/* ---- entry points ---- */

static int build(builder *b)
{
    const urdf_model *u = b->u;
    kin_tree *t = b->t;
    placement id = identity_placement();
    int i, root_body = -1;
    t->name = text_dup(u->name ? u->name : "robot");
    t->frames = calloc((size_t)(u->nlinks > 0 ? u->nlinks : 1), sizeof *t->frames);
    if (!t->name || !t->frames || build_children(b) < 0)
        return fail(b, 0, "", "out of memory");
    t->nframes = u->nlinks;
    for (i = 0; i < u->nlinks; i++) {
        t->frames[i].line = u->links[i].line;
        t->frames[i].has_inertial = u->links[i].has_inertial;
        if (!(t->frames[i].name = text_dup(u->links[i].name)))
            return fail(b, 0, "", "out of memory");
    }
    t->gravity[2] = -9.81;
    t->floating = b->opt && b->opt->floating_base;
    for (i = 0; t->floating && i < u->njoints; i++)
        if (u->joints[i].type == URDF_FLOATING && u->joints[i].parent == u->root)
            return fail(b, u->joints[i].line, u->joints[i].name,
                        "the file already has a "
                        "floating root joint (from link \"%s\"), and --floating-base would add a "
                        "second free-flyer above it: leave --floating-base out",
                        u->links[u->root].name);
    if (t->floating) {
        root_body = add_body(b, "root_joint", u->links[u->root].name, u->links[u->root].line,
                             TREE_FREEFLYER, -1, &id);
        if (root_body < 0)
            return fail(b, 0, "root_joint", "out of memory");
    }
    if (walk(b, root_body) < 0 || check_limits(b) < 0)
        return -1;
    for (i = 0; i < t->nbodies; i++)
        finish_inertia(&t->bodies[i], &b->lump[i]);
    if (build_sparsity(t) < 0)
        return fail(b, 0, "", "out of memory");
    return 0;
}

int tree_build(const urdf_model *u, const tree_options *opt, kin_tree *out, char *err,
               size_t errlen)
{
    builder b;
    int rc, i;
    memset(out, 0, sizeof *out);
    memset(&b, 0, sizeof b);
    b.u = u;
    b.opt = opt;
    b.t = out;
    b.err = err;
    b.errlen = errlen;
    rc = build(&b);
    for (i = 0; b.children && i < u->nlinks; i++)
        free(b.children[i]);
    free(b.children);
    free(b.nchildren);
    free(b.lump);
    if (rc < 0)
        tree_free(out);
    return rc;
}

void tree_free(kin_tree *t)
{
    int i;
    for (i = 0; i < t->nbodies; i++) {
        free(t->bodies[i].joint_name);
        free(t->bodies[i].link_name);
    }
    for (i = 0; i < t->nframes; i++)
        free(t->frames[i].name);
    for (i = 0; i < t->nconstraints; i++) {
        free(t->constraints[i].support);
        free(t->constraints[i].dof_pos);
    }
    free(t->constraints);
    t->constraints = NULL;
    t->nconstraints = 0;
    free(t->bodies);
    free(t->frames);
    free(t->name);
    free(t->dof_parent);
    free(t->dof_body);
    free(t->depth);
    free(t->subtree);
    free(t->dof_depth);
    free(t->ltl_start);
    text_list_free(&t->warnings);
    text_list_free(&t->notes);
    memset(t, 0, sizeof *t);
}
