/* main.c — the README's contact example: the sample quadruped (generated with
 * --floating-base and --contact X:friction on its four feet) dropped 5 cm onto the ground,
 * its joints held by PD control, one semi-implicit Euler step per millisecond. After a
 * second it stands: the test fails (exit 1) unless the base is still, every foot carries
 * weight and the feet's normal impulses add up to the robot's weight times dt. */
#include <math.h>
#include <stdio.h>
#include "quadruped12.h"

#define MASS 8.252 /* the sample quadruped's mass, kg */

int main(void)
{
    static quadruped12_data d; /* the workspace: no heap */
    cdyn_contact_settings s = CDYN_CONTACT_SETTINGS_DEFAULT; /* dt 1 ms, ground z = 0, ADMM */
    cdyn_contact_problem p;
    cdyn_real q[QUADRUPED12_NQ], q0[QUADRUPED12_NQ], v[QUADRUPED12_NV] = { 0 };
    cdyn_real tau[QUADRUPED12_NV] = { 0 }, R[9], foot[3], weight = 0, speed = 0;
    int k, j, c, loaded = 0;

    s.friction = 0.8;
    quadruped12_neutral(q0); /* legs straight down */
    quadruped12_fk(&d, q0);
    quadruped12_frame_placement(&d, QUADRUPED12_FRAME_LF_FOOT, R, foot);
    for (j = 0; j < QUADRUPED12_NQ; ++j)
        q[j] = q0[j];
    q[2] = 0.05 - foot[2]; /* the feet 5 cm above the ground */
    quadruped12_contact_reset(&d);

    for (k = 0; k < 1000; ++k) {
        for (j = 6; j < QUADRUPED12_NV; ++j) /* PD on the joints towards the neutral pose */
            tau[j] = 50 * (q0[j + 1] - q[j + 1]) - 0.2 * v[j];
        if (quadruped12_contact_step(&d, &s, q, v, tau, q, v) < 0)
            return 2;
    }

    quadruped12_contact_view(&d, &p); /* the last step's impulses, in each contact's basis */
    for (c = 0; c < 4; ++c) {
        const cdyn_real *l = p.lambda + 3 * c; /* tangential t1, t2, then normal */
        printf("foot %d: normal force %6.2f N, friction %5.2f N\n", c, l[2] / s.dt,
               sqrt(l[0] * l[0] + l[1] * l[1]) / s.dt);
        weight += l[2] / s.dt;
        loaded += l[2] > 0;
    }
    for (j = 0; j < QUADRUPED12_NV; ++j)
        speed = fmax(speed, fabs(v[j]));
    printf("base height %.4f m, weight carried %.3f N (m g = %.3f N), |v| < %.1e, %d ADMM "
           "iterations\n", q[2], weight, MASS * 9.81, speed, p.stats->iterations);
    return loaded == 4 && speed < 1e-6 && fabs(weight - MASS * 9.81) < 1e-6 * MASS * 9.81 ? 0 : 1;
}
