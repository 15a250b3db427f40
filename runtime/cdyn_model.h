/* cdyn_model.h — the model table read by the generic runtime, and its API.
 *
 * Conventions (Pinocchio-compatible):
 *  - spatial vectors are [linear; angular]; matrices are row-major;
 *  - a placement (R, p) maps child coordinates to parent ones: x_parent = R x_child + p;
 *  - each body's frame is its joint frame; a body's pose in its parent body is
 *    (R, p) * X_joint(q);
 *  - velocities and accelerations of a body are expressed in that body's frame;
 *  - gravity is given in the world frame (default [0 0 -9.81]).
 * The table is const and can live in flash; all scratch is in a caller-owned cdyn_data. */
#ifndef CDYN_MODEL_H
#define CDYN_MODEL_H

#include <stddef.h>
#include "cdyn_config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CDYN_JOINT_REVOLUTE = 0,       /* nq 1, nv 1: rotation by q about axis */
    CDYN_JOINT_REVOLUTE_UNBOUNDED, /* nq 2 [cos q, sin q], nv 1: continuous joint about axis */
    CDYN_JOINT_PRISMATIC,          /* nq 1, nv 1: translation by q along axis */
    CDYN_JOINT_PLANAR,   /* nq 4 [x y cos sin], nv 3 [vx vy wz] in the joint frame's xy plane */
    CDYN_JOINT_FREEFLYER /* nq 7 [x y z qx qy qz qw], nv 6 [v w] in the body frame */
} cdyn_joint_type;

typedef struct {
    cdyn_joint_type type;
    int parent;               /* parent body index, -1 = world */
    int idx_q, nq, idx_v, nv; /* where the joint's coordinates sit in q and v */
    cdyn_real axis[3];        /* unit axis in the joint frame (revolute, prismatic) */
    cdyn_real R[9];           /* joint frame in parent body frame at q = neutral (row-major) */
    cdyn_real p[3];
    cdyn_real mass;       /* body inertia, fixed links already lumped in */
    cdyn_real com[3];     /* centre of mass in the body frame */
    cdyn_real inertia[6]; /* rotational inertia about the com: xx xy xz yy yz zz */
} cdyn_body;

typedef struct {
    const char *name; /* URDF link name */
    int body;         /* body the frame is attached to, -1 = world */
    cdyn_real R[9];   /* placement of the frame in its body frame */
    cdyn_real p[3];
} cdyn_frame;

typedef struct {
    const char *name;
    int nbodies, nq, nv, nframes;
    const cdyn_body *bodies;  /* (nbodies) in joint order: parent index < child index */
    const cdyn_frame *frames; /* (nframes) */
    const int *dof_parent;    /* (nv) Featherstone's expanded parent array, -1 = none */
    const int *dof_body;      /* (nv) body that owns each DoF */
    cdyn_real gravity[3];     /* world frame */
} cdyn_model;

typedef enum {
    CDYN_OK = 0,
    CDYN_E_ARG = -1,          /* null pointer, bad index or mismatched model/data */
    CDYN_E_SIZE = -2,         /* workspace too small */
    CDYN_E_SINGULAR = -3,     /* a non-positive pivot (M not positive definite) */
    CDYN_E_NONFINITE = -4,    /* a NaN or infinity in an input reached the result */
    CDYN_E_NOT_CONVERGED = -5 /* a solver asked for a tolerance stopped at max_iter without
                                 * meeting it: ddq and lambda hold its last iterate */
} cdyn_status;

const char *cdyn_strerror(cdyn_status s);

#ifdef __cplusplus
}
#endif

#endif
