/* generated_api.h — one table of function pointers per generated robot, so a test or a
 * benchmark can loop over many robots whose code was generated at build time. */
#ifndef CDYN_GENERATED_API_H
#define CDYN_GENERATED_API_H

#include <stddef.h>
#include "cdyn_config.h"
#include "cdyn_prox.h"
#include "cdyn_contact.h"

typedef struct {
    const char *name;
    size_t data_size;          /* sizeof(NAME_data) */
    size_t generic_data_bytes; /* NAME_GENERIC_DATA_BYTES */
    int nq, nv, nframes;
    const char *const *frame_names; /* (nframes) URDF link names, in frame-id order */
    void (*fk)(void *d, const cdyn_real *q);
    int (*frame_placement)(const void *d, int frame, cdyn_real R[9], cdyn_real p[3]);
    int (*frame_jacobian)(void *d, const cdyn_real *q, int frame, cdyn_reference ref, cdyn_real *J);
    void (*rnea)(void *d, const cdyn_real *q, const cdyn_real *v, const cdyn_real *a,
                 cdyn_real *tau);
    void (*nle)(void *d, const cdyn_real *q, const cdyn_real *v, cdyn_real *h);
    void (*gravity)(void *d, const cdyn_real *q, cdyn_real *g);
    void (*crba)(void *d, const cdyn_real *q, cdyn_real *M);
    /* the forward dynamics: NULL for a robot generated with --massless-links ignore whose M
     * is singular */
    int (*ltl)(void *d);
    void (*ltl_solve)(const void *d, cdyn_real *x);
    void (*ltl_factor)(const void *d, cdyn_real *L, cdyn_real *D);
    int (*minv)(void *d, const cdyn_real *q, cdyn_real *Minv);
    int (*aba)(void *d, const cdyn_real *q, const cdyn_real *v, const cdyn_real *tau,
               cdyn_real *ddq);
    void (*neutral)(cdyn_real *q);
    void (*integrate)(const cdyn_real *q, const cdyn_real *v, cdyn_real dt, cdyn_real *q_next);
    const void *model; /* the generic runtime's table: const cdyn_model * */
    /* the constraint set generated with the robot; nc = 0 and NULLs without one */
    int nc, nconstraints;
    const void *constraints; /* const cdyn_constraint * (nconstraints), for the generic side */
    size_t generic_constraint_bytes;
    void (*constraint_jacobian)(void *d, const cdyn_real *q, cdyn_real *J);
    void (*constraint_drift)(void *d, const cdyn_real *q, const cdyn_real *v, cdyn_real *gamma);
    void (*constraint_capture)(void *d, const cdyn_real *q);
    int (*prox_ltl)(void *d, const cdyn_prox_settings *s, const cdyn_real *q, const cdyn_real *v,
                    const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda);
    int (*delassus)(void *d, const cdyn_real *q, cdyn_real mu, cdyn_real *G);
    int (*impulse)(void *d, const cdyn_prox_settings *s, const cdyn_real *q,
                   const cdyn_real *v_before, cdyn_real restitution, cdyn_real *v_after,
                   cdyn_real *impulse);
    /* the residuals the last solve left in the workspace */
    void (*residuals)(const void *d, cdyn_real *primal, cdyn_real *dual);
    int (*prox_ltls)(void *d, const cdyn_prox_settings *s, const cdyn_real *q, const cdyn_real *v,
                     const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda);
    /* the solvers generated for contact sets only (NULL for a set with a loop) */
    int (*constrained_aba)(void *d, const cdyn_prox_settings *s, const cdyn_real *q,
                           const cdyn_real *v, const cdyn_real *tau, cdyn_real *ddq,
                           cdyn_real *lambda);
    int (*prox_pv)(void *d, const cdyn_prox_settings *s, const cdyn_real *q, const cdyn_real *v,
                   const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda);
    /* the contact step (NAME_contact_step, _view, _reset; NULL without a set or limits) */
    int (*contact_step)(void *d, const cdyn_contact_settings *s, const cdyn_real *q,
                        const cdyn_real *v, const cdyn_real *tau, cdyn_real *q_next,
                        cdyn_real *v_next);
    int (*contact_view)(void *d, cdyn_contact_problem *p);
    int (*contact_reset)(void *d);
    int njoint_limits;                     /* --joint-limits: the limits the step holds */
    const cdyn_joint_limit *joint_limits;  /* (njoint_limits) */
    /* the derivatives (NAME_rnea_derivatives, ...); aba_derivatives NULL with the forward
     * dynamics left out, prox_ltl_derivatives NULL without a set of contacts only */
    int (*rnea_derivatives)(void *d, const cdyn_real *q, const cdyn_real *v, const cdyn_real *a,
                            cdyn_real *dtau_dq, cdyn_real *dtau_dv);
    int (*aba_derivatives)(void *d, const cdyn_real *q, const cdyn_real *v, const cdyn_real *tau,
                           cdyn_real *ddq_dq, cdyn_real *ddq_dv, cdyn_real *ddq_dtau);
    int (*difference)(const cdyn_real *q0, const cdyn_real *q1, cdyn_real *v);
    int (*integrate_derivatives)(const cdyn_real *q, const cdyn_real *v, cdyn_real *dq_next_dq,
                                 cdyn_real *dq_next_dv);
    int (*difference_derivatives)(const cdyn_real *q0, const cdyn_real *q1, cdyn_real *dv_dq0,
                                  cdyn_real *dv_dq1);
    int (*prox_ltl_derivatives)(void *d, const cdyn_prox_settings *s, const cdyn_real *q,
                                const cdyn_real *v, const cdyn_real *ddq, const cdyn_real *lambda,
                                cdyn_real *ddq_dq, cdyn_real *ddq_dv, cdyn_real *ddq_dtau,
                                cdyn_real *lambda_dq, cdyn_real *lambda_dv, cdyn_real *lambda_dtau);
    /* the projection onto the constraint manifold (NULL without a set) */
    int (*project_position)(void *d, const cdyn_project_settings *s, const cdyn_real *q,
                            cdyn_real *q_out);
    int (*project_velocity)(void *d, const cdyn_project_settings *s, const cdyn_real *q,
                            const cdyn_real *v, cdyn_real *v_out);
} generated_api;

#endif
