/* tree.h — stage 2: the kinematic tree the dynamics run on.
 *
 * From a parsed URDF: fixed joints merged (inertia lumped into the moving parent, the
 * merged link kept as a frame), optional free-flyer root, bodies in Pinocchio's joint
 * order (depth first, siblings by strcmp of the joint name), joint specialisation, and the
 * constant parent-to-joint placements and spatial inertias. A body's frame is its joint
 * frame; everything attached to it is expressed there. */
#ifndef CDYNGEN_TREE_H
#define CDYNGEN_TREE_H

#include <stddef.h>
#include "parse/urdf.h"
#include "util/text.h"

typedef enum {
    TREE_REVOLUTE,
    TREE_REVOLUTE_UNBOUNDED,
    TREE_PRISMATIC,
    TREE_PLANAR,
    TREE_FREEFLYER
} tree_joint_kind; /* same order as cdyn_joint_type */

typedef struct {
    char *joint_name; /* URDF joint name ("root_joint" for an added free-flyer) */
    char *link_name;  /* URDF child link */
    int line;         /* line of the URDF joint (of the root link for an added free-flyer) */
    tree_joint_kind kind;
    int axis_index; /* 0/1/2 when the axis is +-x/+-y/+-z, -1 for a general axis */
    int axis_sign;  /* +1 or -1 when axis_index >= 0 */
    double axis[3]; /* unit axis in the joint frame */
    int parent;     /* parent body, -1 = world */
    int idx_q, nq, idx_v, nv;
    double R[9], p[3];               /* joint frame in parent body frame (row-major R) */
    double mass, com[3], inertia[6]; /* lumped: mass, com, inertia about com (xx xy xz yy yz zz) */
    double lower, upper;             /* position limits (nq == 1 only); lower > upper if none */
} tree_body;

typedef struct {
    char *name;        /* URDF link name */
    int line;          /* line of the URDF link */
    int body;          /* -1 = world (links fixed to a fixed-base root) */
    int has_inertial;  /* the URDF link has an <inertial> (lumped into the body) */
    double R[9], p[3]; /* link frame in the body frame */
} tree_frame;

/* A constraint of the set chosen at generation time (constraints.c). */
typedef struct {
    int frame_a; /* the constrained frame */
    int frame_b; /* a loop's other frame; -1 for a contact (the world) */
    int is_loop;
    int dim;      /* 3 or 6 */
    int friction; /* a unilateral contact with Coulomb friction (3d) in the contact step */
    int row;      /* its first row in the stacked lambda */
    int *support; /* the DoFs that move A or B (both chains to the root), ascending */
    int nsupport;
    int *dof_pos; /* (nv) position of each DoF in support, -1 outside */
    int offset;   /* its block (dim x nsupport, row-major) in the compact J and B */
} tree_constraint;

typedef struct {
    char *name;        /* robot name from the URDF */
    tree_body *bodies; /* in joint order: parent < child */
    int nbodies;
    tree_frame *frames; /* one per URDF link, in URDF order */
    int nframes;
    int nq, nv;
    int floating; /* 1 if a free-flyer root was added */
    double gravity[3];
    /* sparsity (Featherstone's expanded parent array and friends) */
    int *dof_parent; /* (nv) -1 = none */
    int *dof_body;   /* (nv) */
    int *dof_depth;  /* (nv) DoFs from the root to it, itself included */
    int *ltl_start;  /* (nv + 1) where row i of L's pattern starts (dof_depth summed below i) */
    int *depth;      /* (nbodies) root bodies have depth 1 */
    int *subtree;    /* (nbodies) bodies in each subtree, itself included */
    int max_depth;
    int nnz_M;      /* nonzeros of M (full symmetric) */
    int nnz_L;      /* nonzeros of its LTL factor (lower triangle, diagonal included) */
    int nsnapped;   /* angles and axes made exact right angles (within 1e-9 rad, tree.c) */
    int m_singular; /* M is singular and --massless-links ignore accepted it: no forward dynamics */
    int singular_body;  /* then the body whose joint makes it so (validate.c) */
    text_list warnings; /* "file:line: link "name": warning: ..." (inertia_check.c) */
    text_list notes;    /* "file:line: link "name": note: ...": what was ignored */
    /* constraints (constraints.c; none unless tree_add_constraints was called) */
    tree_constraint *constraints;
    int nconstraints;
    int nc;    /* total dimension: rows of J, entries of lambda */
    int nnz_J; /* entries of the compact J (each row on its constraint's support) */
    int joint_limits; /* --joint-limits: the contact step holds tree_limited_joints' limits */
} kin_tree;

typedef struct {
    int floating_base; /* add a free-flyer between world and the root link */
} tree_options;

/* What cdyngen generates at most, checked as soon as the bodies are known (before anything
 * is sized by them): DoFs, and the work of the chains, sum over DoFs of (the DoFs from the
 * root to it)^2, which the dense factorisation of a chain emits (one chain of 143 DoFs is
 * 0.98e6; talos, 50 DoFs, is 6.6e3). Both bound generation time (seconds), memory and output
 * (~100 MB), and keep every count in an int. */
#define TREE_MAX_DOFS 1024
#define TREE_MAX_CHAIN_WORK 1e6

/* Builds the tree. On failure (a cycle, a bad limit, too many DoFs) returns -1 with
 * "file:line: joint "name": reason". The lumped inertias are checked after it, by the
 * check stage (check/inertia_check.h; pipeline_tree runs both). */
int tree_build(const urdf_model *u, const tree_options *opt, kin_tree *out, char *err,
               size_t errlen);
void tree_free(kin_tree *t);

/* Index of the frame named `name`, or -1. */
int tree_find_frame(const kin_tree *t, const char *name);
/* 1 if the frame is its (moving) body's own frame: the identity placement in it. */
int tree_frame_at_body_origin(const tree_frame *f);

/* 1 if DoF j is DoF i or one of its ancestors (M(i,j) may be nonzero). */
int tree_dof_supports(const kin_tree *t, int j, int i);

#endif
