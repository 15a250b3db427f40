/* inertia_check.c — stage 2b: are the inertias the tree lumped usable, and plausible?
 *
 * Refuse only what leaves the dynamics undefined; say what is merely implausible:
 * - refused: a moving body whose lumped inertia about its com is not positive
 *   semi-definite beyond noise. Its spatial inertia is then indefinite: some motion has
 *   negative kinetic energy, and M is not positive definite in general;
 * - warned (kin_tree.warnings; --strict makes them errors): a link whose own inertia is not
 *   positive semi-definite, or has rotational inertia without mass, in a body that is
 *   fine; a body whose principal moments violate the triangle inequality (no rigid body has
 *   them, but M stays positive definite);
 * - noted (kin_tree.notes): inertia on a link fixed to the world moves with nothing and is
 *   ignored.
 * Every tolerance is INERTIA_NOISE_RTOL times the body's own scale, so noise passes
 * whatever the units or the size of the robot, and an all-zero point mass has a scale. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check/inertia_check.h"

typedef struct {
    const urdf_model *u;
    kin_tree *t;
    double *scale;   /* per body: the noise scale */
    int *own_frame;  /* per body: the frame of its joint's child link */
    int world_first; /* the first link fixed to the world with an inertia, or -1 */
    int world_count; /* how many such links */
    char *err;
    size_t errlen;
} checker;

/* ---- eigenvalues ---- */

/* Eigenvalues of a symmetric 3x3 matrix with entries of order one, ascending
 * (Smith 1961, closed form). */
static void unit_symmetric_eigenvalues(const double a[6], double lambda[3])
{
    /* a = xx xy xz yy yz zz */
    double off = a[1] * a[1] + a[2] * a[2] + a[4] * a[4];
    double q = (a[0] + a[3] + a[5]) / 3.0, p, b[6], r, phi, t;
    if (off == 0.0) {
        lambda[0] = a[0], lambda[1] = a[3], lambda[2] = a[5];
    } else {
        p = sqrt(((a[0] - q) * (a[0] - q) + (a[3] - q) * (a[3] - q) + (a[5] - q) * (a[5] - q) +
                  2.0 * off) /
                 6.0);
        b[0] = (a[0] - q) / p, b[1] = a[1] / p, b[2] = a[2] / p;
        b[3] = (a[3] - q) / p, b[4] = a[4] / p, b[5] = (a[5] - q) / p;
        r = 0.5 * (b[0] * (b[3] * b[5] - b[4] * b[4]) - b[1] * (b[1] * b[5] - b[4] * b[2]) +
                   b[2] * (b[1] * b[4] - b[3] * b[2]));
        r = r < -1.0 ? -1.0 : r > 1.0 ? 1.0 : r;
        phi = acos(r) / 3.0;
        lambda[2] = q + 2.0 * p * cos(phi);
        lambda[0] = q + 2.0 * p * cos(phi + 2.0943951023931954923); /* + 2 pi / 3 */
        lambda[1] = 3.0 * q - lambda[0] - lambda[2];
    }
    /* sort ascending (the diagonal branch is unsorted) */
    if (lambda[0] > lambda[1])
        t = lambda[0], lambda[0] = lambda[1], lambda[1] = t;
    if (lambda[1] > lambda[2])
        t = lambda[1], lambda[1] = lambda[2], lambda[2] = t;
    if (lambda[0] > lambda[1])
        t = lambda[0], lambda[0] = lambda[1], lambda[1] = t;
}

/* The same for any finite entries: scaled to order one so squares neither overflow
 * nor underflow. */
static void symmetric_eigenvalues(const double a[6], double lambda[3])
{
    double scale = 0, unit[6];
    int i;
    for (i = 0; i < 6; i++)
        scale = fabs(a[i]) > scale ? fabs(a[i]) : scale;
    if (scale == 0) {
        lambda[0] = lambda[1] = lambda[2] = 0;
        return;
    }
    for (i = 0; i < 6; i++)
        unit[i] = a[i] / scale;
    unit_symmetric_eigenvalues(unit, lambda);
    for (i = 0; i < 3; i++)
        lambda[i] *= scale;
}

/* ---- messages ---- */

/* Appends "file:line: link "name": kind: reason" to list. */
static int say(checker *c, text_list *list, int frame, const char *kind, const char *fmt, ...)
{
    char reason[512], line[1024];
    const tree_frame *f = &c->t->frames[frame];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    snprintf(line, sizeof line, "%s:%d: link \"%s\": %s: %s", c->u->file ? c->u->file : "?",
             f->line, f->name, kind, reason);
    if (text_list_add(list, line) < 0) {
        snprintf(c->err, c->errlen, "%s: out of memory", c->u->file ? c->u->file : "?");
        return -1;
    }
    return 0;
}

/* ---- scales ---- */

static double norm3(const double x[3])
{
    return sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
}

static double max2(double a, double b)
{
    return a > b ? a : b;
}

/* Each body's noise scale: the larger of its largest principal moment and its mass times
 * its extent squared (the farthest of its com, its frames and its children's joints). A
 * point mass at the end of nothing takes the robot's largest extent, or 1 m. */
static void body_scales(checker *c)
{
    const kin_tree *t = c->t;
    double *extent = c->scale, robot_extent = 0;
    int i;
    for (i = 0; i < t->nbodies; i++)
        extent[i] = norm3(t->bodies[i].com);
    for (i = 0; i < t->nframes; i++)
        if (t->frames[i].body >= 0)
            extent[t->frames[i].body] = max2(extent[t->frames[i].body], norm3(t->frames[i].p));
    for (i = 0; i < t->nbodies; i++)
        if (t->bodies[i].parent >= 0)
            extent[t->bodies[i].parent] = max2(extent[t->bodies[i].parent], norm3(t->bodies[i].p));
    for (i = 0; i < t->nbodies; i++)
        robot_extent = max2(robot_extent, extent[i]);
    robot_extent = robot_extent > 0 ? robot_extent : 1.0;
    for (i = 0; i < t->nbodies; i++) {
        const tree_body *b = &t->bodies[i];
        double lambda[3], length = extent[i] > 0 ? extent[i] : robot_extent;
        symmetric_eigenvalues(b->inertia, lambda);
        c->scale[i] = max2(lambda[2], b->mass * length * length);
    }
}

/* ---- the rules ---- */

static int check_body(checker *c, int i)
{
    const tree_body *b = &c->t->bodies[i];
    double lambda[3], tol = INERTIA_NOISE_RTOL * c->scale[i];
    symmetric_eigenvalues(b->inertia, lambda);
    if (lambda[0] < -tol) {
        snprintf(c->err, c->errlen,
                 "%s:%d: joint \"%s\": the inertia it moves (link \"%s\" and "
                 "the links fixed to it) is not positive semi-definite: smallest principal "
                 "moment %g kg m^2 about the com, beyond the noise tolerance %g; some motion "
                 "would have negative kinetic energy, so M is not positive definite",
                 c->u->file ? c->u->file : "?", b->line, b->joint_name, b->link_name, lambda[0],
                 tol);
        return -1;
    }
    lambda[0] = max2(lambda[0], 0.0); /* noise, not a moment */
    lambda[1] = max2(lambda[1], 0.0);
    if (b->mass > 0 && lambda[0] + lambda[1] < lambda[2] - tol)
        return say(c, &c->t->warnings, c->own_frame[i], "warning",
                   "the body it belongs to (joint \"%s\") has principal moments %.6g, %.6g, "
                   "%.6g kg m^2, which violate the triangle inequality by %.2g%%: no rigid "
                   "body has them; used as written",
                   b->joint_name, lambda[0], lambda[1], lambda[2],
                   100.0 * (lambda[2] - lambda[0] - lambda[1]) / lambda[2]);
    return 0;
}

static int check_link(checker *c, int frame)
{
    const urdf_link *l = &c->u->links[frame];
    const double a[6] = { l->ixx, l->ixy, l->ixz, l->iyy, l->iyz, l->izz };
    double lambda[3], tol;
    int body = c->t->frames[frame].body;
    if (!l->has_inertial)
        return 0;
    if (body < 0) {
        int k, any = l->mass != 0.0;
        for (k = 0; k < 6; k++)
            any |= a[k] != 0.0;
        if (any && c->world_count++ == 0)
            c->world_first = frame;
        return 0;
    }
    tol = INERTIA_NOISE_RTOL * c->scale[body];
    symmetric_eigenvalues(a, lambda);
    if (lambda[0] < -tol)
        return say(c, &c->t->warnings, frame, "warning",
                   "its inertia is not positive "
                   "semi-definite (smallest principal moment %g kg m^2, beyond the noise "
                   "tolerance %g), but the body it is lumped into is; used as written",
                   lambda[0], tol);
    if (l->mass == 0.0 && max2(fabs(lambda[0]), fabs(lambda[2])) > tol)
        return say(c, &c->t->warnings, frame, "warning",
                   "its mass is 0 but its rotational "
                   "inertia is not (largest principal moment %g kg m^2); used as written",
                   lambda[2]);
    return 0;
}

/* One note for all the links fixed to the world that carry an inertia (a hostile file may
 * have thousands). */
static int world_note(checker *c)
{
    if (c->world_count == 0)
        return 0;
    if (c->world_count == 1)
        return say(c, &c->t->notes, c->world_first, "note",
                   "its <inertial> is ignored: the "
                   "link is fixed to the world, so nothing moves it");
    return say(c, &c->t->notes, c->world_first, "note",
               "its <inertial> and those of %d other "
               "link(s) fixed to the world are ignored: nothing moves them",
               c->world_count - 1);
}

static int check_all(checker *c)
{
    kin_tree *t = c->t;
    int i;
    for (i = 0; i < t->nframes; i++)
        if (t->frames[i].body >= 0 &&
            strcmp(t->frames[i].name, t->bodies[t->frames[i].body].link_name) == 0)
            c->own_frame[t->frames[i].body] = i;
    body_scales(c);
    for (i = 0; i < t->nbodies; i++)
        if (check_body(c, i) < 0)
            return -1;
    for (i = 0; i < t->nframes; i++)
        if (check_link(c, i) < 0)
            return -1;
    return world_note(c);
}

int inertia_check(const urdf_model *u, kin_tree *t, char *err, size_t errlen)
{
    checker c;
    size_t n = (size_t)(t->nbodies > 0 ? t->nbodies : 1);
    int rc;
    c.u = u;
    c.t = t;
    c.err = err;
    c.errlen = errlen;
    c.world_first = -1;
    c.world_count = 0;
    c.scale = calloc(n, sizeof *c.scale);
    c.own_frame = calloc(n, sizeof *c.own_frame);
    if (!c.scale || !c.own_frame) {
        snprintf(err, errlen, "%s: out of memory", u->file ? u->file : "?");
        rc = -1;
    } else {
        rc = check_all(&c);
    }
    free(c.scale);
    free(c.own_frame);
    return rc;
}
