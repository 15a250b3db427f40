/* cdyn_internal.h — helpers shared by the runtime's own files; not part of the API.
 *
 * Every joint's motion subspace S is constant in its body frame (so the joint bias c_J is
 * zero); d->S holds it per DoF and d->S_pick marks the columns that are a single signed
 * unit entry, whose products are column picks. */
#ifndef CDYN_INTERNAL_H
#define CDYN_INTERNAL_H

#include "cdyn.h"
#include "cdyn_spatial.h"

/* The placement of body i in its parent, (R_i, p_i) * X_J(q), into d->liR / d->lip. */
void cdyn__joint_placement(const cdyn_model *m, cdyn_data *d, int i, const cdyn_real *q);
/* Body i's world placement d->oR / d->op from its parent's and d->liR / d->lip. */
void cdyn__body_in_world(const cdyn_model *m, cdyn_data *d, int i);
/* Every body's placements (joint and world), composite inertia seed d->Ic and each DoF's
 * motion column in world axes about the world origin, d->U (CRBA's first pass). */
void cdyn__crba_world(const cdyn_model *m, cdyn_data *d, const cdyn_real *q);

/* S_k^T x for DoF k and a 6-vector x (a force, or a column of a 6x6). */
static inline cdyn_real cdyn__S_dot(const cdyn_data *d, int k, const cdyn_real x[6])
{
    const cdyn_real *s = d->S + 6 * k;
    const int pick = d->S_pick[k];
    if (pick >= 0)
        return s[pick] * x[pick];
    return s[0] * x[0] + s[1] * x[1] + s[2] * x[2] + s[3] * x[3] + s[4] * x[4] + s[5] * x[5];
}

/* res += S qd for body b's DoFs (qd: the body's nv rates). */
static inline void cdyn__S_add(cdyn_real res[6], const cdyn_data *d, const cdyn_body *b,
                               const cdyn_real *qd)
{
    for (int j = 0; j < b->nv; ++j) {
        const int k = b->idx_v + j, pick = d->S_pick[k];
        const cdyn_real *s = d->S + 6 * k;
        if (pick >= 0) {
            res[pick] += s[pick] * qd[j];
        } else {
            for (int r = 0; r < 6; ++r)
                res[r] += s[r] * qd[j];
        }
    }
}

/* res = X S_k for a row-major 6x6 X (a column pick when S_k is a unit column). */
static inline void cdyn__mat6_mul_S(cdyn_real res[6], const cdyn_real X[36], const cdyn_data *d,
                                    int k)
{
    const cdyn_real *s = d->S + 6 * k;
    const int pick = d->S_pick[k];
    if (pick >= 0) {
        for (int r = 0; r < 6; ++r)
            res[r] = s[pick] * X[6 * r + pick];
        return;
    }
    for (int r = 0; r < 6; ++r) {
        const cdyn_real *x = X + 6 * r;
        res[r] = x[0] * s[0] + x[1] * s[1] + x[2] * s[2] + x[3] * s[3] + x[4] * s[4]
               + x[5] * s[5];
    }
}

/* res = (R, p) S_k: DoF k's motion column expressed in the target frame. */
static inline void cdyn__act_S(cdyn_real res[6], const cdyn_real R[9], const cdyn_real p[3],
                               const cdyn_data *d, int k)
{
    const int pick = d->S_pick[k];
    const cdyn_real *s = d->S + 6 * k;
    if (pick >= 3) {            /* rotation about +-e: w = +-R e, v = p x w */
        const int c = pick - 3;
        res[3] = s[pick] * R[c];
        res[4] = s[pick] * R[3 + c];
        res[5] = s[pick] * R[6 + c];
        cdyn_cross3(res, p, res + 3);
    } else if (pick >= 0) {     /* translation along +-e */
        res[0] = s[pick] * R[pick];
        res[1] = s[pick] * R[3 + pick];
        res[2] = s[pick] * R[6 + pick];
        res[3] = res[4] = res[5] = 0;
    } else {
        cdyn_motion_act(res, R, p, s);
    }
}

#endif
