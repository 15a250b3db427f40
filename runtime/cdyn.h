/* cdyn.h — the generic runtime: rigid-body algorithms over a cdyn_model table.
 *
 * Every function takes the (const) model and a caller-owned cdyn_data whose scratch
 * lives in a caller buffer of cdyn_data_size(model) bytes: no heap, no global state,
 * re-entrant. Vectors: q (nq), v/a/tau (nv); matrices row-major. */
#ifndef CDYN_H
#define CDYN_H

#include "cdyn_model.h"
#include "cdyn_prox.h"
#include "cdyn_contact.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cdyn_data cdyn_data; /* defined below; fields point into the buffer */

/* Bytes of workspace a cdyn_data needs for this model; 0 if the model is inconsistent
 * (a parent after its child, an index out of range, DoFs not in depth-first order). */
size_t cdyn_data_size(const cdyn_model *m);
/* The same as a constant expression of the model's sizes, for a static buffer (nnz: the
 * DoF pairs (k, j) with j = k or an ancestor of k). A generated R_model.h defines
 * R_GENERIC_DATA_BYTES with it. Reals, then ints, then slack to align any buffer. */
#define CDYN__DATA_REALS(nbodies, nv, nframes)                                                     \
    ((size_t)(nv)*6 + (size_t)(nbodies) * (9 + 3 + 9 + 3) + (size_t)(nframes) * (9 + 3) +          \
     (size_t)(nbodies) * (6 * 5 + 36 + 10) + (size_t)(nv) * (6 + 6 + 1) +                          \
     3 * (size_t)(nv) * (size_t)(nv) + (size_t)(nv) * (7 * 6 + 1))
#define CDYN__DATA_INTS(nbodies, nv, nnz) (3 * (size_t)(nv) + (size_t)(nbodies) + 1 + (size_t)(nnz))
#define CDYN_DATA_BYTES(nbodies, nv, nframes, nnz)                                                 \
    (CDYN__DATA_REALS(nbodies, nv, nframes) * sizeof(cdyn_real) +                                  \
     CDYN__DATA_INTS(nbodies, nv, nnz) * sizeof(int) + sizeof(cdyn_real) - 1)
/* Carves the workspace out of buf (aligned for cdyn_real); CDYN_E_SIZE if too small,
 * CDYN_E_ARG for an inconsistent model. Zeroes it and fills its constant tables (each
 * DoF's S column and the index tables below). On an error d refers to no model, and every
 * function refuses it (as after the two below). */
cdyn_status cdyn_data_init(cdyn_data *d, const cdyn_model *m, void *buf, size_t bytes);
/* The same carving over a buffer that already holds a workspace of m, which may have been
 * copied or moved since (d's pointers are the old address's; a cdyn_data is only pointers):
 * refills the constant tables and keeps every result, so the M of a cdyn_crba before is
 * there for cdyn_ltl after. Also the way to use a buffer whose bytes are unknown (never
 * initialised): the results are then unknown until a function computes them, but every
 * function is safe to call. What cdyn_data_init costs without the zeroing: O(nv depth). */
cdyn_status cdyn_data_attach(cdyn_data *d, const cdyn_model *m, void *buf, size_t bytes);
/* The carving alone, writing nothing into buf, for the functions that take a const
 * cdyn_data (cdyn_frame_placement, cdyn_ltl_solve, cdyn_ltl_factor) on a const buffer.
 * CDYN_OK when buf's ancestor lists, which those functions index by, are m's (it was
 * initialised or attached for m, then maybe copied); otherwise CDYN_E_ARG and d refers to
 * no model. O(nv depth) reads. */
cdyn_status cdyn_data_view(cdyn_data *d, const cdyn_model *m, const void *buf, size_t bytes);

/* Forward kinematics: world placements of every body and frame, kept in d. */
cdyn_status cdyn_fk(const cdyn_model *m, cdyn_data *d, const cdyn_real *q);
/* A frame's world rotation (3x3) and position, after cdyn_fk. */
cdyn_status cdyn_frame_placement(const cdyn_model *m, const cdyn_data *d, int frame, cdyn_real R[9],
                                 cdyn_real p[3]);
/* 6 x nv frame Jacobian, rows [linear; angular]. Like Pinocchio's computeFrameJacobian it
 * visits only the bodies that support the frame: afterwards d holds their placements in
 * their parents and the frame's world placement (for cdyn_frame_placement), not a full
 * cdyn_fk. */
cdyn_status cdyn_frame_jacobian(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, int frame,
                                cdyn_reference ref, cdyn_real *J);
/* Inverse dynamics tau = M(q) a + c(q, v) + g(q). */
cdyn_status cdyn_rnea(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, const cdyn_real *v,
                      const cdyn_real *a, cdyn_real *tau);
cdyn_status cdyn_nle(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, const cdyn_real *v,
                     cdyn_real *h);
cdyn_status cdyn_gravity(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, cdyn_real *g);
/* Joint-space inertia matrix (nv x nv, full symmetric; M may be NULL); also kept in d
 * for cdyn_ltl. */
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
/* Forward dynamics ddq = M^-1 (tau - c - g) by the articulated-body algorithm.
 * CDYN_E_SINGULAR when a pivot S^T IA S is not positive (NaN included), CDYN_E_NONFINITE when
 * a NaN or infinity reached ddq. */
cdyn_status cdyn_aba(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, const cdyn_real *v,
                     const cdyn_real *tau, cdyn_real *ddq);
/* The neutral configuration, and q (+) v dt on the configuration manifold
 * (quaternions and [cos, sin] pairs stay normalised; q_next may be q). */
cdyn_status cdyn_neutral(const cdyn_model *m, cdyn_real *q);
cdyn_status cdyn_integrate(const cdyn_model *m, const cdyn_real *q, const cdyn_real *v,
                           cdyn_real dt, cdyn_real *q_next);

/* ---- derivatives (cdyn_derivatives.c, cdyn_manifold.c) ---------------------------------
 * Conventions (Pinocchio's): a derivative with respect to q is taken in the tangent space,
 * column k being d/de f(integrate(q, e u_k)) at e = 0, so a free-flyer's first six columns
 * are its base's LOCAL linear and angular directions; matrices are full (every entry
 * written, the structural zeros too) and row-major: nv x nv, nc x nv for lambda. Any
 * output may be NULL (not computed). */

/* dtau/dq and dtau/dv of tau = RNEA(q, v, a) (dtau/da is M: cdyn_crba). Also leaves M in
 * d, as cdyn_crba does. O(nv depth): entry (k, j) is zero unless k and j are on one branch. */
cdyn_status cdyn_rnea_derivatives(const cdyn_model *m, cdyn_data *d, const cdyn_real *q,
                                  const cdyn_real *v, const cdyn_real *a, cdyn_real *dtau_dq,
                                  cdyn_real *dtau_dv);
/* dddq/dq, dddq/dv and dddq/dtau = M^-1 of ddq = ABA(q, v, tau): the RNEA derivatives at
 * a = ABA(q, v, tau) solved by M's sparse factor, -M^-1 dtau/dq and -M^-1 dtau/dv. Leaves
 * M and its factor in d (as cdyn_crba and cdyn_ltl). CDYN_E_SINGULAR and CDYN_E_NONFINITE
 * as cdyn_aba. */
cdyn_status cdyn_aba_derivatives(const cdyn_model *m, cdyn_data *d, const cdyn_real *q,
                                 const cdyn_real *v, const cdyn_real *tau, cdyn_real *ddq_dq,
                                 cdyn_real *ddq_dv, cdyn_real *ddq_dtau);

/* The configuration manifold's derivatives (cdyn_manifold.c). difference is integrate's
 * inverse: integrate(q0, difference(q0, q1), 1) = q1, v (nv) the tangent vector in q0's
 * tangent space (a free-flyer's in its base frame, as v). The derivatives of
 * q_next = integrate(q, v, 1) in the tangent spaces of q and q_next: dq_next/dq (nv x nv)
 * and dq_next/dv (nv x nv); of v = difference(q0, q1): dv/dq0 and dv/dq1. Block diagonal
 * per joint: 1 for revolute and prismatic joints, the SE(3)/SE(2) adjoint and exponential
 * Jacobians for a free-flyer and a planar joint. */
cdyn_status cdyn_difference(const cdyn_model *m, const cdyn_real *q0, const cdyn_real *q1,
                            cdyn_real *v);
cdyn_status cdyn_integrate_derivatives(const cdyn_model *m, const cdyn_real *q, const cdyn_real *v,
                                       cdyn_real *dq_next_dq, cdyn_real *dq_next_dv);
cdyn_status cdyn_difference_derivatives(const cdyn_model *m, const cdyn_real *q0,
                                        const cdyn_real *q1, cdyn_real *dv_dq0, cdyn_real *dv_dq1);

/* ---- constrained dynamics (cdyn_constrained.c) ----------------------------------------
 * A constraint set given at run time. Conventions (Pinocchio's RigidConstraintModel, LOCAL):
 *  - a contact (frame_b = -1) holds frame A against the world: 3d constrains the classical
 *    linear acceleration of A's origin, 6d A's spatial acceleration, both in A's axes;
 *  - a loop (frame_b >= 0) holds A's origin (3d) or A's whole placement (6d) on frame B's:
 *    J v = R_A^T (v_A - v_B) for 3d (the velocities of the two origins, in world axes),
 *    J v = X_A^-1 (V_A - V_B) for 6d (spatial velocities differenced in the world);
 *  - gamma = the constraint acceleration at ddq = 0 (no gravity): for a contact A's
 *    classical (3d) or spatial (6d) acceleration in LOCAL; for a loop the same difference
 *    as J v, of accelerations taken in the world, expressed in A's axes;
 *  - lambda, stacked in set order (3 or 6 rows each), is the force (3d) or [force; torque]
 *    (6d) applied on the robot at A, in A's axes: M ddq + nle = tau + J^T lambda;
 *  - Baumgarte: a* = -Kp e - Kd (J v) per constraint, e the position error in A's axes
 *    (3d: R_A^T (p_A - p_ref); 6d: that and, for the rotation R_e = R_ref^T R_A, the
 *    small-angle vector vee(R_e - R_e^T) / 2 = sin(angle) axis, which needs no libm
 *    beyond sqrt/sin/cos); the reference is ref_R/ref_p for a contact (set them, or
 *    cdyn_constraint_capture), frame B's placement for a loop. */
typedef struct {
    int frame_a; /* frame index in the model */
    int frame_b; /* -1: a contact with the world; else the other frame of a loop */
    int dim;     /* 3 or 6 */
    int friction; /* 1: a unilateral contact with Coulomb friction (a 3d contact) in the
                   * contact step (cdyn_contact_step); the solvers above hold it bilaterally */
} cdyn_constraint;

/* The workspace of one constraint set; fields point into the caller's buffer. */
typedef struct cdyn_constraint_data {
    const cdyn_model *model;
    const cdyn_constraint *set;
    int n, nc;          /* constraints, rows */
    int *row;           /* (n) first row of each constraint */
    int *nsupport;      /* (n) DoFs supporting each constraint (both chains of a loop) */
    int *support;       /* (n x nv) those DoFs, ascending (closed under dof_parent) */
    cdyn_real *ref_R;   /* (n x 9) reference rotation of each contact, world */
    cdyn_real *ref_p;   /* (n x 3) reference position of each contact, world */
    cdyn_real *aR, *ap; /* (n x 9, n x 3) frame A's world placement */
    cdyn_real *bR, *bp; /* (n x 9, n x 3) frame B's (the identity for a contact) */
    cdyn_real *J;       /* (nc x nv) J, nonzero on each row's support only */
    cdyn_real *B;       /* (nc x nv) D^-1 L^-T J^T, transposed, on the same supports */
    cdyn_real *gamma;   /* (nc) drift */
    cdyn_real *astar;   /* (nc) Baumgarte's desired constraint acceleration */
    cdyn_real *r;       /* (nc) right-hand side of the proximal iterations */
    cdyn_real *x;       /* (nc) one iteration's solve */
    cdyn_real *Gl;      /* (nc x nc) L^T D L of G + mu I: L strictly below the diagonal */
    cdyn_real *GD;      /* (nc) its D */
    cdyn_real *nle;     /* (nv) nonlinear effects */
    cdyn_real *zd;      /* (nv) D^-1 L^-T (tau - nle) */
    /* the other solvers' (cdyn_solvers.c); "per body" arrays hold nv >= nbodies entries */
    cdyn_real *kappa; /* (nc) constrained_aba, prox_pv: each contact's constraint
                             * acceleration minus K a_b (a_b its body's ABA acceleration) */
    cdyn_real *u0;    /* (nv) constrained_aba: ABA's u = tau - S^T pA at lambda = 0;
                             * prox_ltls: tau - nle - J^T (gamma - a*) / mu */
    cdyn_real *dp;    /* (nv x 6) constrained_aba: per body, the change of pA by lambda */
    cdyn_real *KA;    /* (nv x nc x 6) prox_pv: per body, the force on its subtree per
                             * unit lambda, one 6-vector per row */
    cdyn_real *SKA;   /* (nv x nc) prox_pv: S^T KA per DoF */
    cdyn_real *Mmu;   /* (nv x nv) prox_ltls: L^T D L of M + J^T J / mu (dense) */
    int *sbody;       /* (nv) the bodies supporting some constraint, ascending */
    int nsbody;       /* how many */
    cdyn_real primal_residual, dual_residual;
} cdyn_constraint_data;

/* The workspace bytes as a constant expression of the model's nv and the set's number of
 * constraints n and rows nc (a generated R_model.h defines R_GENERIC_CONSTRAINT_BYTES). */
#define CDYN__CONSTRAINT_REALS(nv, n, nc)                                                          \
    ((size_t)(n)*36 + 2 * (size_t)(nc) * (size_t)(nv) + 5 * (size_t)(nc) +                         \
     (size_t)(nc) * (size_t)(nc) + 2 * (size_t)(nv) + (size_t)(nc) + 7 * (size_t)(nv) +            \
     7 * (size_t)(nc) * (size_t)(nv) + (size_t)(nv) * (size_t)(nv))
#define CDYN__CONSTRAINT_INTS(nv, n) (2 * (size_t)(n) + (size_t)(n) * (size_t)(nv) + (size_t)(nv))
#define CDYN_CONSTRAINT_DATA_BYTES(nv, n, nc)                                                      \
    (CDYN__CONSTRAINT_REALS(nv, n, nc) * sizeof(cdyn_real) +                                       \
     CDYN__CONSTRAINT_INTS(nv, n) * sizeof(int) + sizeof(cdyn_real) - 1)

/* Bytes of workspace for the set (n constraints); 0 if a constraint is invalid (frame out
 * of range, dim not 3 or 6, a contact on a world-fixed frame, a loop within one body). */
size_t cdyn_constraint_data_size(const cdyn_model *m, const cdyn_constraint *set, int n);
/* Carves cd out of buf; the set is referenced, not copied. Reference placements start as
 * the identity at the origin. CDYN_E_SIZE if too small, CDYN_E_ARG for an invalid set. */
cdyn_status cdyn_constraint_data_init(cdyn_constraint_data *cd, const cdyn_model *m,
                                      const cdyn_constraint *set, int n, void *buf, size_t bytes);
/* As cdyn_data_attach, for a buffer that holds (or is to hold) cd's workspace for this set:
 * the carving, and what depends on the set alone refilled (rows, supports, frame B of each
 * contact at the world's origin, the zeros of J and B off the supports); the reference
 * placements, every other real and cd's residual fields are left as they are. Nothing a
 * solver reads survives from an earlier call but ref_R/ref_p, so a buffer of unknown bytes
 * gives the results of cdyn_constraint_data_init once the references are set. */
cdyn_status cdyn_constraint_data_attach(cdyn_constraint_data *cd, const cdyn_model *m,
                                        const cdyn_constraint *set, int n, void *buf, size_t bytes);
/* The total dimension of the set (sum of dims). */
int cdyn_constraint_dim(const cdyn_constraint_data *cd);
/* Sets every contact's reference placement to its frame's current world placement at q
 * (e.g. at touchdown). */
cdyn_status cdyn_constraint_capture(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                                    const cdyn_real *q);
/* Stacked constraint Jacobian J (nc x nv, row-major) and drift gamma (nc). */
cdyn_status cdyn_constraint_jacobian(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                                     const cdyn_real *q, cdyn_real *J);
cdyn_status cdyn_constraint_drift(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                                  const cdyn_real *q, const cdyn_real *v, cdyn_real *gamma);
/* Constrained forward dynamics by proxLTL (Carpentier, Budhiraja, Mansard 2021): M = L^T D L,
 * then B = D^-1 L^-T J^T on each constraint's support and G + mu I = B^T D B + mu I (the
 * constraint block of the sparse factor of [[-mu I, J], [J^T, M]], constraints first),
 * factorised once; proximal iterations on lambda; ddq = L^-1 (D^-1 L^-T (tau - nle) + B lambda).
 * lambda (nc) is in (warm start) and out; ddq (nv) out. Returns the number of iterations
 * done (>= 1), or a negative cdyn_status: CDYN_E_SINGULAR for a non-positive pivot,
 * CDYN_E_NONFINITE when a NaN or infinity reached ddq or lambda, CDYN_E_NOT_CONVERGED when a
 * positive abs_tol or rel_tol is not met after max_iter iterations (ddq and lambda hold the
 * last iterate). The last primal and dual residuals are left in cd
 * (cdyn_constraint_residuals). The other solvers return the same. */
int cdyn_prox_ltl(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                  const cdyn_prox_settings *settings, const cdyn_real *q, const cdyn_real *v,
                  const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda);
/* The derivatives of the converged constrained dynamics (ddq, lambda) of the last
 * cdyn_prox_ltl on d and cd (same q, v and settings; ddq and lambda its results) with
 * respect to q, v and tau: dddq/dq, dddq/dv, dddq/dtau (nv x nv), dlambda/dq, dlambda/dv,
 * dlambda/dtau (nc x nv), the conventions of the derivatives above. From the solve's own
 * factor (M = L^T D L and G + mu I), one back-substitution per column: with
 * r = d(M ddq + nle - J^T lambda) and c = d(J ddq + gamma) at ddq and lambda fixed,
 * dlambda = G^-1 (J M^-1 r - c) and dddq = M^-1 (J^T dlambda - r), G^-1 applied by proximal
 * iterations on (G + mu I) until they settle (at most settings->max_iter), as Pinocchio's
 * computeConstraintDynamicsDerivatives. Contacts (frame_b = -1) without Baumgarte gains:
 * CDYN_E_ARG for a loop or Kp/Kd given; CDYN_E_NONFINITE if a NaN or infinity reaches a
 * result; any output may be NULL. */
cdyn_status cdyn_prox_ltl_derivatives(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                                      const cdyn_prox_settings *settings, const cdyn_real *q,
                                      const cdyn_real *v, const cdyn_real *ddq,
                                      const cdyn_real *lambda, cdyn_real *ddq_dq, cdyn_real *ddq_dv,
                                      cdyn_real *ddq_dtau, cdyn_real *lambda_dq,
                                      cdyn_real *lambda_dv, cdyn_real *lambda_dtau);
/* Three more solvers of the same iterates, lambda_0 = 0 (or the lambda passed in, with
 * warm_start), (G + mu I) lambda_k+1 = a* - gamma - J M^-1 (tau - nle) + mu lambda_k, each
 * leaving ddq with M ddq + nle = tau + J^T lambda for the final lambda, the same return
 * values, residuals and stopping rule as cdyn_prox_ltl (CDYN_E_ARG also for bad settings),
 * so they differ from it by rounding only. With rho = 1/mu, one proximal step is one step
 * of the augmented Lagrangian method (ALM):
 *   (M + rho J^T J) ddq = tau - nle + J^T (lambda_k - rho (gamma - a*)),
 *   lambda_k+1 = lambda_k - rho (J ddq + gamma - a*)
 * whose primal residual ||J ddq + gamma - a*||_inf is mu times the change of lambda. The
 * multiplier step cancels the frame accelerations in r and multiplies their rounding by
 * rho (1e6 at the default mu): the ALM solvers (prox_ltls, constrained_aba) lose up to
 * ~eps rho |J ddq| / |lambda| relative (measured against cdyn_prox_ltl on the sample
 * robots: 4e-13 and 3e-9; up to 2e-7 and 1e-6 on links of grams accelerating at 1e5),
 * and their dual residual has a floor of about eps rho |J ddq| (stop them on abs_tol, the
 * primal residual, rather than rel_tol). Use a larger mu in float.
 *
 * cdyn_prox_ltls: the ALM in joint space (Carpentier et al. 2021, eq. 10): M + rho J^T J
 * factorised once as a dense L^T D L skipping exact zeros (a contact keeps M's tree
 * pattern; a loop couples its two chains), then per iteration a solve, and the last
 * iteration's refined once against M and J apart (a solve and M times a vector): forming
 * M + rho J^T J rounds away M's small entries, which costs up to eps rho ||J||^2 /
 * lambda_min(M) relative without it. The earlier iterations' rounding enters lambda only,
 * which the last, refined one contracts by mu (G + mu I)^-1. Any set. */
int cdyn_prox_ltls(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                   const cdyn_prox_settings *settings, const cdyn_real *q, const cdyn_real *v,
                   const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda);
/* cdyn_constrained_aba: the ALM in body coordinates, O(nv) per iteration: ABA with each
 * contact's penalty rho K^T K folded into its body's articulated inertia (K the rows of
 * the motion transform from the body to the contact frame: a point mass rho at the frame
 * origin, plus rho I3 on the rotation for 6d), articulated once; each iteration then
 * updates only the bias forces of the bodies supporting a contact and reruns ABA's last
 * pass. Contacts only: a set with a loop (frame_b >= 0), whose penalty would couple two
 * branches, returns CDYN_E_ARG (use cdyn_prox_ltls or cdyn_prox_ltl). */
int cdyn_constrained_aba(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                         const cdyn_prox_settings *settings, const cdyn_real *q, const cdyn_real *v,
                         const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda);
/* cdyn_prox_pv: Popov-Vereshchagin with proximal iterations: ABA's first two passes
 * unchanged, carrying per body the map KA from lambda to the force on its subtree, which
 * accumulates G = J M^-1 J^T and the free constraint acceleration without forming M; then
 * cdyn_prox_ltl's factorisation of G + mu I and iterations, and ABA's last pass once with
 * the final lambda. Contacts only: CDYN_E_ARG for a set with a loop. */
int cdyn_prox_pv(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                 const cdyn_prox_settings *settings, const cdyn_real *q, const cdyn_real *v,
                 const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda);
/* G = J M^-1 J^T + mu I (nc x nc), from the same factorisation (M^-1 is never formed). */
cdyn_status cdyn_delassus(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                          const cdyn_real *q, cdyn_real mu, cdyn_real *G);
/* Impact: M (v_after - v_before) = J^T impulse with J v_after = -restitution J v_before,
 * by the same factorisation and proximal iterations (Baumgarte gains unused). Returns the
 * iterations, or a negative cdyn_status as cdyn_prox_ltl. */
int cdyn_impulse(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                 const cdyn_prox_settings *settings, const cdyn_real *q, const cdyn_real *v_before,
                 cdyn_real restitution, cdyn_real *v_after, cdyn_real *impulse);
/* The projection onto the constraint manifold (cdyn_projection.c; cdyn_project_settings in
 * cdyn_prox.h, NULL for CDYN_PROJECT_SETTINGS_DEFAULT). Corrected: the bilateral constraints
 * (loops; 3d and 6d contacts against their references, cdyn_constraint_capture); a frictional
 * contact's rows ask no change, so its point stays where it is (to first order).
 * cdyn_project_position: Gauss-Newton from q, q <- integrate(q, M^-1 J^T lambda) with
 * (G + mu I) lambda = -e, until every bilateral row's |e| <= tol; returns the steps taken
 * (0: q already within tol). q_out may be q.
 * cdyn_project_velocity: v_out = v + M^-1 J^T lambda with J v_out = 0 on the bilateral rows
 * (and J v_out = J v on the frictional ones): of all such velocities the one closest to v in
 * the kinetic-energy metric, so it loses the least energy; returns the proximal iterations.
 * v_out may be v. A redundant set is corrected in the least-squares sense. Both return
 * CDYN_E_ARG, CDYN_E_NONFINITE (a NaN or infinity in the input or reached), CDYN_E_SINGULAR
 * or CDYN_E_NOT_CONVERGED (tol unmet after max_iter; the output holds the last iterate). They
 * use d and cd's arrays as scratch. */
int cdyn_project_position(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                          const cdyn_project_settings *settings, const cdyn_real *q,
                          cdyn_real *q_out);
int cdyn_project_velocity(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                          const cdyn_project_settings *settings, const cdyn_real *q,
                          const cdyn_real *v, cdyn_real *v_out);
/* The last solve's primal residual ||J ddq + gamma - a*||_inf (impulse: ||J v_after +
 * restitution J v_before||_inf) and dual residual ||lambda_k - lambda_{k-1}||_inf. */
void cdyn_constraint_residuals(const cdyn_constraint_data *cd, cdyn_real *primal, cdyn_real *dual);
/* Reference placement of constraint k (a contact), world rotation (row-major) and position. */
cdyn_status cdyn_constraint_set_reference(cdyn_constraint_data *cd, int k, const cdyn_real R[9],
                                          const cdyn_real p[3]);

/* ---- the contact step (cdyn_contact.c, cdyn_contact.h) ---------------------------------
 * One semi-implicit Euler step with the set's frictional contacts unilateral (Coulomb
 * cones), its other constraints held at the velocity level and the layout's joint limits
 * unilateral:
 *   M (v+ - v) = dt (tau - nle) + J^T lambda,   q+ = integrate(q, v+ dt),
 * lambda solving the cone complementarity problem over this step's active blocks
 * (cdyn_contact.h). p is carved by cdyn_contact_problem_init for cd's set (NULL for none:
 * limits only) and keeps the step's problem and results (p->lambda: impulses, p->c: J v+,
 * p->impulse: J^T lambda, p->vf, p->stats); its lambda warm-starts the next step. Returns
 * the solver's iterations (0 when no block is active) or a negative cdyn_status (CDYN_E_ARG,
 * CDYN_E_NONFINITE, CDYN_E_SINGULAR: q_next and v_next untouched; CDYN_E_NOT_CONVERGED:
 * the step is taken with the last iterate). q_next may be q, v_next may be v. */
int cdyn_contact_step(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                      cdyn_contact_problem *p, const cdyn_contact_settings *settings,
                      const cdyn_real *q, const cdyn_real *v, const cdyn_real *tau,
                      cdyn_real *q_next, cdyn_real *v_next);
/* The step's problem alone (J, Gset, Y, p->vf, the assembly): what cdyn_contact_step does
 * before its solve (cdyn_contact_solve). */
cdyn_status cdyn_contact_problem_build(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                                       cdyn_contact_problem *p, const cdyn_contact_settings *settings,
                                       const cdyn_real *q, const cdyn_real *v, const cdyn_real *tau);

/* The workspace; fields are the runtime's own, shapes in comments. Rotations are
 * row-major 3x3, 6x6 matrices row-major, spatial vectors [linear; angular]. */
struct cdyn_data {
    const cdyn_model *model;
    /* constant, from the model (cdyn_data_init) */
    cdyn_real *S;     /* (nv x 6) motion subspace column of each DoF, in its body frame */
    int *S_pick;      /* (nv) row of the only nonzero of the DoF's S column, or -1 */
    int *axis_index;  /* (nbodies) 0/1/2 if the joint axis is exactly +-x/y/z, else -1 */
    int *anc_start;   /* (nv + 1) where each DoF's ancestor list starts in anc */
    int *anc;         /* (anc_start[nv]) each DoF's ancestors root first, itself last:
                         * the sparsity of row k of M's factor, walked without pointer chasing */
    int *subtree_end; /* (nv) one past the last DoF of each DoF's subtree (DoFs of a
                         * subtree are contiguous) */
    /* kinematics */
    cdyn_real *liR; /* (nbodies x 9) rotation of each body in its parent (world for roots) */
    cdyn_real *lip; /* (nbodies x 3) position of each body in its parent */
    cdyn_real *oR;  /* (nbodies x 9) rotation of each body in the world (cdyn_fk) */
    cdyn_real *op;  /* (nbodies x 3) position of each body in the world (cdyn_fk) */
    cdyn_real *ofR; /* (nframes x 9) rotation of each frame in the world */
    cdyn_real *ofp; /* (nframes x 3) position of each frame in the world */
    /* dynamics, in each body's frame unless noted */
    cdyn_real *v;     /* (nbodies x 6) spatial velocity */
    cdyn_real *a;     /* (nbodies x 6) spatial acceleration, gravity as base acceleration */
    cdyn_real *f;     /* (nbodies x 6) RNEA: net force of the subtree on the body */
    cdyn_real *c;     /* (nbodies x 6) ABA: velocity-product acceleration v x (S qd) */
    cdyn_real *pA;    /* (nbodies x 6) ABA: articulated bias force */
    cdyn_real *IA;    /* (nbodies x 36) ABA: articulated inertia */
    cdyn_real *Ic;    /* (nbodies x 10) CRBA: composite inertia in world axes: m, m com (3),
                         * inertia about the world origin (xx xy xz yy yz zz) */
    cdyn_real *U;     /* (nv x 6) ABA: IA S per DoF; CRBA: S per DoF in world axes */
    cdyn_real *Dfac;  /* (nv x 6) ABA: LDL^T of each joint's S^T IA S, rows of its DoFs:
                         * strict lower part L, 1/D on the diagonal */
    cdyn_real *u;     /* (nv) ABA: tau - S^T pA */
    cdyn_real *M;     /* (nv x nv) joint-space inertia of the last cdyn_crba */
    cdyn_real *LD;    /* (nv x nv) its LTL factor: L strictly below the diagonal (DoF
                         * ancestors only), D on the diagonal; the rest is unused */
    cdyn_real *LinvT; /* (nv x nv) minv: (L^-1)^T; row a is used on a's subtree only */
    cdyn_real *dcol;  /* (nv x 42) derivatives: per DoF seven world 6-vectors (cdyn_derivatives.c) */
    cdyn_real *ddq;   /* (nv) derivatives: the accelerations they are taken at */
};

#ifdef __cplusplus
}
#endif

#endif
