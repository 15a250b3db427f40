/* main.c — the README's worked example: forward dynamics of the sample arm with the
 * generated code, then with its tool held by a 6d contact (generated/arm7 was made with
 * --contact tool:6d), each cross-checked against the generic runtime on the same model. */
#include <math.h>
#include <stdio.h>
#include "arm7.h"
#include "arm7_model.h"

int main(void)
{
    arm7_data d; /* the whole workspace, on the stack: no heap */
    cdyn_real q0[ARM7_NQ], q[ARM7_NQ], dq[ARM7_NV], v[ARM7_NV], tau[ARM7_NV];
    cdyn_real ddq[ARM7_NV], ddq_generic[ARM7_NV], lambda[ARM7_NC], lambda_generic[ARM7_NC];
    static unsigned char cwork[ARM7_GENERIC_CONSTRAINT_BYTES]; /* its constraint workspace */
    cdyn_constraint_data cd;
    cdyn_prox_settings settings = CDYN_PROX_SETTINGS_DEFAULT; /* mu 1e-6, up to 100 iterations */
    int iterations;
    static unsigned char work[ARM7_GENERIC_DATA_BYTES]; /* the generic runtime's workspace */
    cdyn_data gd;
    int i, mismatch = 0;

    arm7_neutral(q0);
    for (i = 0; i < ARM7_NV; i++) {
        dq[i] = 0.1 * (i + 1); /* a configuration away from the neutral one */
        v[i] = 0.5;
        tau[i] = 1.0;
    }
    arm7_integrate(q0, dq, 1.0, q);
    if (arm7_aba(&d, q, v, tau, ddq) != 0) /* ddq = M(q)^-1 (tau - c(q, v) - g(q)) */
        return 2;

    if (cdyn_data_init(&gd, &arm7_model, work, sizeof work) != CDYN_OK)
        return 2;
    cdyn_aba(&arm7_model, &gd, q, v, tau, ddq_generic);
    for (i = 0; i < ARM7_NV; i++) {
        printf("ddq[%d] = %+.9f   (generic %+.9f)\n", i, ddq[i], ddq_generic[i]);
        if (!(fabs(ddq[i] - ddq_generic[i]) <= 1e-9 * (1 + fabs(ddq_generic[i]))))
            mismatch = 1;
    }

    /* the tool clamped to the world: constrained accelerations and the contact wrench */
    iterations = arm7_prox_ltl(&d, &settings, q, v, tau, ddq, lambda);
    if (iterations < 0 ||
        cdyn_constraint_data_init(&cd, &arm7_model, arm7_constraints, ARM7_NCONSTRAINTS, cwork,
                                  sizeof cwork) != CDYN_OK)
        return 3;
    if (cdyn_prox_ltl(&arm7_model, &gd, &cd, &settings, q, v, tau, ddq_generic, lambda_generic) < 0)
        return 3;
    printf("contact: %d proximal iterations, primal residual %.1e\n", iterations,
           (double)d.primal_residual);
    for (i = 0; i < ARM7_NC; i++) {
        printf("lambda[%d] = %+.9f   (generic %+.9f)\n", i, lambda[i], lambda_generic[i]);
        if (!(fabs(lambda[i] - lambda_generic[i]) <= 1e-9 * (1 + fabs(lambda_generic[i]))))
            mismatch = 1;
    }

    /* the derivatives an MPC solver needs (the README's snippet): the generated ABA
     * derivatives against the generic runtime's, M^-1 included */
    {
        static cdyn_real ddq_dq[ARM7_NV * ARM7_NV], ddq_dv[ARM7_NV * ARM7_NV];
        static cdyn_real Minv[ARM7_NV * ARM7_NV], Minv_generic[ARM7_NV * ARM7_NV];
        static cdyn_real dq_generic[ARM7_NV * ARM7_NV], dv_generic[ARM7_NV * ARM7_NV];
        if (arm7_aba_derivatives(&d, q, v, tau, ddq_dq, ddq_dv, Minv) != 0 ||
            cdyn_aba_derivatives(&arm7_model, &gd, q, v, tau, dq_generic, dv_generic,
                                 Minv_generic) != CDYN_OK)
            return 4;
        for (i = 0; i < ARM7_NV * ARM7_NV; i++)
            if (!(fabs(ddq_dq[i] - dq_generic[i]) <= 1e-9 * (1 + fabs(dq_generic[i]))) ||
                !(fabs(ddq_dv[i] - dv_generic[i]) <= 1e-9 * (1 + fabs(dv_generic[i]))) ||
                !(fabs(Minv[i] - Minv_generic[i]) <= 1e-9 * (1 + fabs(Minv_generic[i]))))
                mismatch = 1;
        printf("d ddq / d q[0][0] = %+.9f   (generic %+.9f)\n", ddq_dq[0], dq_generic[0]);
    }
    return mismatch;
}
