/* cdyn.h — the generic runtime: rigid-body algorithms over a cdyn_model table.
 *
 * Every function takes the (const) model and a caller-owned cdyn_data whose scratch
 * lives in a caller buffer of cdyn_data_size(model) bytes: no heap, no global state,
 * re-entrant. Vectors: q (nq), v/a/tau (nv); matrices row-major. */
#ifndef CDYN_H
#define CDYN_H

#include "cdyn_model.h"

typedef struct cdyn_data cdyn_data;   /* defined below; fields point into the buffer */

/* Bytes of workspace a cdyn_data needs for this model. */
size_t cdyn_data_size(const cdyn_model *m);
/* Carves the workspace out of buf (aligned for cdyn_real); CDYN_E_SIZE if too small. */
cdyn_status cdyn_data_init(cdyn_data *d, const cdyn_model *m, void *buf, size_t bytes);

/* Forward kinematics: world placements of every body and frame, kept in d. */
cdyn_status cdyn_fk(const cdyn_model *m, cdyn_data *d, const cdyn_real *q);
/* A frame's world rotation (3x3) and position, after cdyn_fk. */
cdyn_status cdyn_frame_placement(const cdyn_model *m, const cdyn_data *d, int frame,
                                 cdyn_real R[9], cdyn_real p[3]);
/* 6 x nv frame Jacobian, rows [linear; angular]; runs cdyn_fk first. */
cdyn_status cdyn_frame_jacobian(const cdyn_model *m, cdyn_data *d, const cdyn_real *q,
                                int frame, cdyn_reference ref, cdyn_real *J);
/* Inverse dynamics tau = M(q) a + c(q, v) + g(q). */
cdyn_status cdyn_rnea(const cdyn_model *m, cdyn_data *d, const cdyn_real *q,
                      const cdyn_real *v, const cdyn_real *a, cdyn_real *tau);
cdyn_status cdyn_nle(const cdyn_model *m, cdyn_data *d, const cdyn_real *q,
                     const cdyn_real *v, cdyn_real *h);
cdyn_status cdyn_gravity(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, cdyn_real *g);
/* Joint-space inertia matrix (nv x nv, full symmetric); also kept in d for cdyn_ltl. */
cdyn_status cdyn_crba(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, cdyn_real *M);
/* Featherstone's sparse factorisation M = L^T D L (L unit lower triangular, sparse along
 * the expanded parent array) of the M of the last cdyn_crba; sqrt-free. */
cdyn_status cdyn_ltl(const cdyn_model *m, cdyn_data *d);
/* x <- M^-1 x with the factor of the last cdyn_ltl. */
cdyn_status cdyn_ltl_solve(const cdyn_model *m, const cdyn_data *d, cdyn_real *x);
/* The factor of the last cdyn_ltl: L (nv x nv, unit lower) and D (nv); either may be NULL. */
cdyn_status cdyn_ltl_factor(const cdyn_model *m, const cdyn_data *d, cdyn_real *L, cdyn_real *D);
/* M^-1 (nv x nv) at q: crba, ltl, then the unit columns solved. */
cdyn_status cdyn_minv(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, cdyn_real *Minv);
/* Forward dynamics ddq = M^-1 (tau - c - g) by the articulated-body algorithm. */
cdyn_status cdyn_aba(const cdyn_model *m, cdyn_data *d, const cdyn_real *q,
                     const cdyn_real *v, const cdyn_real *tau, cdyn_real *ddq);
/* The neutral configuration, and q (+) v dt on the configuration manifold
 * (quaternions and [cos, sin] pairs stay normalised). */
cdyn_status cdyn_neutral(const cdyn_model *m, cdyn_real *q);
cdyn_status cdyn_integrate(const cdyn_model *m, const cdyn_real *q, const cdyn_real *v,
                           cdyn_real dt, cdyn_real *q_next);

/* The workspace; fields are the runtime's own, shapes in comments. */
struct cdyn_data {
    const cdyn_model *model;
    /* filled in by the runtime */
    cdyn_real *scratch;
};

#endif
