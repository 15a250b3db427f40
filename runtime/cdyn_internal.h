/* cdyn_internal.h — helpers shared by the runtime's own files; not part of the API.
 *
 * Every joint's motion subspace S is constant in its body frame (so the joint bias c_J is
 * zero); d->S holds it per DoF and d->S_pick marks the columns that are a single signed
 * unit entry, whose products are column picks. */
#ifndef CDYN_INTERNAL_H
#define CDYN_INTERNAL_H

#include "cdyn.h"
#include "cdyn_spatial.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Below this angle the exponential maps (cdyn_kinematics.c), their logarithms and their
 * Jacobians (cdyn_manifold.c) use Taylor series: their closed forms lose precision to
 * cancellation (theta - sin theta) or divide 0 by 0. The exponentials' series are truncated
 * after the theta^4 term, whose successor is below rounding here; cdyn_manifold.c's keep
 * the theta^6 term too. */
#ifdef CDYN_FLOAT
#define CDYN__SMALL_ANGLE CDYN_R(0.3)
#else
#define CDYN__SMALL_ANGLE CDYN_R(1e-2)
#endif

/* CDYN_OK if d was set up for m (cdyn_data_init, attach or view), else CDYN_E_ARG: the
 * check every function taking a model and its data starts with. */
static inline cdyn_status cdyn__check(const cdyn_model *m, const cdyn_data *d)
{
    return m && d && d->model == m ? CDYN_OK : CDYN_E_ARG;
}

/* a . b for 6-vectors (a motion and a force, or two rows). */
static inline cdyn_real cdyn__dot6(const cdyn_real a[6], const cdyn_real b[6])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

/* 1 if every x[k] is finite (x - x is 0 for a number, NaN for a NaN or an infinity). The
 * differences are summed in four lanes, without a branch per entry, so that compilers
 * vectorise it: a NaN in the sum stays NaN. */
static inline int cdyn__all_finite(const cdyn_real *x, size_t n)
{
    cdyn_real s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        s0 += x[k] - x[k];
        s1 += x[k + 1] - x[k + 1];
        s2 += x[k + 2] - x[k + 2];
        s3 += x[k + 3] - x[k + 3];
    }
    for (; k < n; ++k)
        s0 += x[k] - x[k];
    return (s0 + s1) + (s2 + s3) == 0;
}

/* The next n reals of a workspace being carved into arrays: *next, which moves past them. */
static inline cdyn_real *cdyn__carve(cdyn_real **next, size_t n)
{
    cdyn_real *p = *next;
    *next += n;
    return p;
}

/* cdyn_cone_admm with the power iteration's vector kept by the caller (m reals, or NULL):
 * its start, and on return the last G v (cdyn_cone.c), so that a sequence of solves on
 * slowly changing G, a simulation's steps, finds L in one or two products each. */
int cdyn__cone_admm_from(const cdyn_cone *cones, int ncones, const cdyn_real *G, const cdyn_real *g,
                         const cdyn_cone_settings *settings, cdyn_real *lambda, cdyn_real *c,
                         cdyn_real *work, cdyn_cone_stats *st, cdyn_real *power);

/* The placement of body i in its parent, (R_i, p_i) * X_J(q), into d->liR / d->lip. */
void cdyn__joint_placement(const cdyn_model *m, cdyn_data *d, int i, const cdyn_real *q);
/* Body i's world placement d->oR / d->op from its parent's and d->liR / d->lip. */
void cdyn__body_in_world(const cdyn_model *m, cdyn_data *d, int i);
/* Every body's placements (joint and world), composite inertia seed d->Ic and each DoF's
 * motion column in world axes about the world origin, d->U (CRBA's first pass). */
void cdyn__crba_world(const cdyn_model *m, cdyn_data *d, const cdyn_real *q);

/* ABA's passes (cdyn_dynamics.c), for the constrained solvers that modify what flows
 * between them. Pass 1: joint placements, v, c = v x S qd, IA = I, pA = v x* I v. */
void cdyn__aba_velocities(const cdyn_model *m, cdyn_data *d, const cdyn_real *q,
                          const cdyn_real *v);
/* Pass 2, leaves to root: U = IA S, D = S^T U (factored in Dfac), u = tau - S^T pA, and
 * each body's IA, pA handed to its parent (IA left articulated as Ia = IA - U D^-1 U^T).
 * CDYN_E_SINGULAR on a non-positive pivot. */
cdyn_status cdyn__aba_articulated(const cdyn_model *m, cdyn_data *d, const cdyn_real *tau);
/* Pass 3, root to leaves: a' = X a_parent + c, qdd = D^-1 (u - U^T a'), a = a' + S qdd
 * (a in d->a, gravity entering as the base acceleration [-g; 0]). */
void cdyn__aba_accelerations(const cdyn_model *m, cdyn_data *d, cdyn_real *ddq);
/* M^-1 (both triangles) from the factor of the last cdyn_ltl, as cdyn_minv. */
void cdyn__minv_factored(const cdyn_model *m, cdyn_data *d, cdyn_real *Minv);
/* Y = U D^-1 for body b's joint, one column of 6 per DoF. */
void cdyn__aba_UDinv(const cdyn_data *d, const cdyn_body *b, cdyn_real Y[6][6]);
/* x <- D^-1 x for a joint's n x n D factored in Dfac (row stride 6). */
void cdyn__ldl_small_solve(const cdyn_real *F, int n, cdyn_real *x);

/* Constraint sets (cdyn_constrained.c). CDYN_E_ARG unless m, d, cd belong together. */
cdyn_status cdyn__check_cd(const cdyn_model *m, const cdyn_data *d, const cdyn_constraint_data *cd);
/* mu > 0 and max_iter >= 1. */
int cdyn__settings_ok(const cdyn_prox_settings *s);
/* 1 if every x[k] is finite. */
int cdyn__finite(const cdyn_real *x, int n);
/* Body world placements (d->oR, d->op) from the joint placements in d. */
void cdyn__bodies_in_world(const cdyn_model *m, cdyn_data *d);
/* Every constraint frame's world placement (cd->aR, ap, bR, bp), after the bodies'. */
void cdyn__placements(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd);
/* cd->J on each row's support, from d->U's world columns (cdyn__crba_world) and the
 * placements. */
void cdyn__jacobian(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd);
/* cd->gamma from RNEA's d->v, d->a at ddq = 0 (cdyn_nle) and the placements. */
void cdyn__drift(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd);
/* cd->astar for the set, J v from cd->J; or for constraint k alone, given its rows of J v
 * (the placements needed either way). */
void cdyn__baumgarte(const cdyn_model *m, cdyn_constraint_data *cd, const cdyn_prox_settings *s,
                     const cdyn_real *v);
void cdyn__baumgarte_one(cdyn_constraint_data *cd, const cdyn_prox_settings *s, int k,
                         const cdyn_real jv[6]);
/* The constraint owning row r, and (J x)[r] on its support. */
int cdyn__constraint_of_row(const cdyn_constraint_data *cd, int r);
cdyn_real cdyn__row_times(const cdyn_model *m, const cdyn_constraint_data *cd, int r,
                          const cdyn_real *x);
/* Featherstone's L^T D L of a dense symmetric n x n A in place, rows n-1 .. 0, exact zeros
 * skipped (D on the diagonal, L strictly below); -1 on a non-positive pivot. The solve
 * gives x <- A^-1 x. */
int cdyn__ltdl_dense(cdyn_real *A, int n);
void cdyn__ltdl_dense_solve(const cdyn_real *A, int n, cdyn_real *x);
/* That factor of G + mu I given in cd->Gl (lower triangle); -1 on a non-positive pivot. */
int cdyn__block_factor(cdyn_constraint_data *cd);
/* Proximal iterations from cd->r with the factor of cdyn__block_factor; returns the
 * iterations done. */
int cdyn__prox_iterate(cdyn_constraint_data *cd, const cdyn_prox_settings *s, cdyn_real *lambda);
/* 1 when a positive tolerance of s is not met by the residuals in cd (NaN included). */
int cdyn__prox_missed(const cdyn_constraint_data *cd, const cdyn_prox_settings *s);
/* Records iteration `it`'s residuals from dual = ||lambda_k+1 - lambda_k||_inf (primal =
 * mu dual); 1 when the iterations stop (max_iter, or every positive tolerance met). */
int cdyn__prox_stop(cdyn_constraint_data *cd, const cdyn_prox_settings *s, int it, cdyn_real dual);
/* M (crba, world columns), its L^T D L, the placements, J and B = D^-1 L^-T J^T at q: what
 * every solve of the set shares. */
cdyn_status cdyn__kinematics(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                             const cdyn_real *q);
/* G + mu I = B^T D B + mu I into cd->Gl's lower triangle. */
void cdyn__delassus_lower(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd,
                          cdyn_real mu);
/* Constraint k's position error in frame A's axes (its rows' order): the translation, then
 * for 6d the small-angle rotation, against the contact's reference or the loop's frame B. */
void cdyn__position_error(const cdyn_constraint_data *cd, int k, cdyn_real e[6]);
/* out = L^-1 (base + B lambda) = base' + M^-1 J^T lambda (base D^-1 L^-T of something, or
 * NULL for 0). */
void cdyn__back_substitute(const cdyn_model *m, const cdyn_data *d, const cdyn_constraint_data *cd,
                           const cdyn_real *base, const cdyn_real *lambda, cdyn_real *out);

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
        res[r] = x[0] * s[0] + x[1] * s[1] + x[2] * s[2] + x[3] * s[3] + x[4] * s[4] + x[5] * s[5];
    }
}

/* res = (R, p) S_k: DoF k's motion column expressed in the target frame. */
static inline void cdyn__act_S(cdyn_real res[6], const cdyn_real R[9], const cdyn_real p[3],
                               const cdyn_data *d, int k)
{
    const int pick = d->S_pick[k];
    const cdyn_real *s = d->S + 6 * k;
    if (pick >= 3) { /* rotation about +-e: w = +-R e, v = p x w */
        const int c = pick - 3;
        res[3] = s[pick] * R[c];
        res[4] = s[pick] * R[3 + c];
        res[5] = s[pick] * R[6 + c];
        cdyn_cross3(res, p, res + 3);
    } else if (pick >= 0) { /* translation along +-e */
        res[0] = s[pick] * R[pick];
        res[1] = s[pick] * R[3 + pick];
        res[2] = s[pick] * R[6 + pick];
        res[3] = res[4] = res[5] = 0;
    } else {
        cdyn_motion_act(res, R, p, s);
    }
}

#ifdef __cplusplus
}
#endif

#endif
