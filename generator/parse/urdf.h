/* urdf.h — stage 1: a URDF file parsed and validated into plain structs.
 *
 * Nothing here knows about dynamics: it records what the file says, checks that it
 * is a well-formed tree with finite numbers and non-negative masses (whether the inertias
 * are usable depends on how links are lumped: inertia_check.c), and rejects anything else
 * with "file:line: element "name": what is wrong" in a caller buffer. */
#ifndef CDYNGEN_URDF_H
#define CDYNGEN_URDF_H

#include "util/text.h"

#include <stddef.h>

typedef struct {
    double xyz[3];
    double rpy[3]; /* fixed-axis roll, pitch, yaw: R = Rz(yaw) Ry(pitch) Rx(roll) */
} urdf_origin;

typedef struct {
    char *name;
    int line;
    int has_inertial; /* 0: no <inertial>, zero inertia as in Pinocchio */
    urdf_origin inertial_origin;
    double mass;
    double ixx, ixy, ixz, iyy, iyz, izz; /* about the com, in the inertial origin's axes */
} urdf_link;

typedef enum {
    URDF_REVOLUTE,
    URDF_CONTINUOUS,
    URDF_PRISMATIC,
    URDF_FIXED,
    URDF_FLOATING,
    URDF_PLANAR
} urdf_joint_type;

typedef struct {
    char *name;
    int line;
    urdf_joint_type type;
    int parent, child;  /* link indices */
    urdf_origin origin; /* child link frame in parent link frame */
    double axis[3];     /* normalised; default (1 0 0) */
    int has_limit;      /* a <limit> element; its missing attributes read as 0 */
    double lower, upper, effort, velocity;
    int has_mimic;
    char *mimic_joint;
    double mimic_multiplier, mimic_offset;
} urdf_joint;

typedef struct {
    char *name; /* robot name */
    char *file; /* path as given */
    urdf_link *links;
    int nlinks;
    urdf_joint *joints; /* in file order */
    int njoints;
    int root;           /* the one link that is no joint's child */
    text_list warnings; /* "file:line: element: warning: ...", in file order */
} urdf_model;

/* Parses and validates `path`. On failure returns -1, leaves *out empty and writes one
 * line "path:line: element "name": reason" into err. */
int urdf_parse_file(const char *path, urdf_model *out, char *err, size_t errlen);

/* The same from a buffer; `name` stands for the file in messages. */
int urdf_parse_memory(const char *buf, size_t len, const char *name, urdf_model *out, char *err,
                      size_t errlen);

void urdf_free(urdf_model *m);

const char *urdf_joint_type_name(urdf_joint_type t);

#endif
