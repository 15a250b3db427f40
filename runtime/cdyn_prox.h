/* cdyn_prox.h — the settings and status shared by every proximal constrained-dynamics
 * solver, generated (R_prox_ltl, R_impulse) and generic (cdyn_prox_ltl, cdyn_impulse).
 *
 * One proximal iteration solves (G + mu I) lambda_{k+1} = a* - gamma - J ddq_free + mu lambda_k,
 * G = J M^-1 J^T the Delassus matrix, lambda the wrench the environment (or frame B of a
 * loop) applies on the robot: M ddq + nle = tau + J^T lambda. From lambda_0 = 0 the
 * iterates converge to the minimum-norm multiplier when the constraints are redundant,
 * and ddq to the least-squares solution when they are inconsistent. */
#ifndef CDYN_PROX_H
#define CDYN_PROX_H

#include "cdyn_model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    cdyn_real mu; /* proximal damping added to G (Pinocchio's ProximalSettings::mu), > 0 */
    int max_iter; /* at most this many iterations, >= 1 */
    cdyn_real
        abs_tol; /* primal: stop when ||J ddq + gamma - a*||_inf <= abs_tol (0: not a criterion) */
    cdyn_real
        rel_tol; /* dual: stop when ||lambda_{k+1} - lambda_k||_inf <= rel_tol (0: not a criterion) */
    const cdyn_real
        *Kp; /* (number of constraints) Baumgarte stiffness of each constraint, or NULL (0) */
    const cdyn_real *Kd; /* (number of constraints) Baumgarte damping, or NULL (0) */
    int warm_start;      /* 1: start from the lambda passed in; 0: from lambda_0 = 0 */
} cdyn_prox_settings;

/* A solver stops after an iteration when every tolerance that is > 0 is met; with
 * abs_tol = rel_tol = 0 it does exactly max_iter iterations, as Pinocchio's constraintDynamics
 * with accuracy 0. A tolerance still unmet after max_iter is CDYN_E_NOT_CONVERGED. mu 1e-6
 * and abs_tol 1e-10 are good defaults in double (Pinocchio's); float resolves 6e-8 of a
 * value, and 1/mu multiplies the augmented-Lagrangian solvers' rounding, so there the
 * defaults are mu 1e-3 and abs_tol 1e-4. */
#ifdef CDYN_FLOAT
#define CDYN_PROX_SETTINGS_DEFAULT                                                                 \
    {                                                                                              \
        CDYN_R(1e-3), 100, CDYN_R(1e-4), CDYN_R(0), 0, 0, 0                                        \
    }
#else
#define CDYN_PROX_SETTINGS_DEFAULT                                                                 \
    {                                                                                              \
        CDYN_R(1e-6), 100, CDYN_R(1e-10), CDYN_R(0), 0, 0, 0                                       \
    }
#endif

/* The projection onto the constraint manifold (seed 003; generated R_project_position and
 * R_project_velocity, generic cdyn_project_position and cdyn_project_velocity): Gauss-Newton
 * on the bilateral constraints' position error, each step the least change of q in the
 * kinetic-energy metric, dq = M^-1 J^T lambda with J dq = -e; and the velocity's projection
 * onto J v = 0 in the same metric. lambda from the proximal iterations on (G + mu I) that
 * cdyn_prox_ltl uses. */
typedef struct {
    cdyn_real tol; /* position: stop when every bilateral row's |error| <= tol (m, rad);
                    * both: the inner solves stop at a primal residual <= tol */
    int max_iter;  /* at most this many Gauss-Newton steps (position), >= 1 */
    cdyn_real mu;  /* the proximal damping of G, > 0: small against G's smallest eigenvalue
                    * of interest (each solve is then exact to mu / that eigenvalue) */
    int prox_iter; /* at most this many proximal iterations per solve, >= 1 */
} cdyn_project_settings;

/* Double resolves a loop or a foot to 1e-12 m in a few steps; float to about 1e-6 m (6e-8
 * of a metre-sized robot), so its tolerance is 1e-5 and its damping larger. */
#ifdef CDYN_FLOAT
#define CDYN_PROJECT_SETTINGS_DEFAULT                                                              \
    {                                                                                              \
        CDYN_R(1e-5), 10, CDYN_R(1e-6), 10                                                         \
    }
#else
#define CDYN_PROJECT_SETTINGS_DEFAULT                                                              \
    {                                                                                              \
        CDYN_R(1e-12), 10, CDYN_R(1e-9), 10                                                        \
    }
#endif

#ifdef __cplusplus
}
#endif

#endif
