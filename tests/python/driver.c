/* driver.c — the C side of the python_module test: the generated ABA of ROBOT (compiled with
 * -DROBOT=arm7 -DROBOT_H='"arm7.h"' -DROBOT_UPPER=ARM7) on q, v, tau read from stdin (NQ + NV
 * + NV numbers), printed with %.17g, after sizeof(ROBOT_data) (which the module's Data must
 * match). */
#include <stdio.h>
#include ROBOT_H

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define NQ CAT(ROBOT_UPPER, _NQ)
#define NV CAT(ROBOT_UPPER, _NV)

int main(void)
{
    CAT(ROBOT, _data) d;
    cdyn_real q[NQ], v[NV], tau[NV], ddq[NV];
    double x;
    int i, status;
    for (i = 0; i < NQ + 2 * NV; i++) {
        if (scanf("%lf", &x) != 1)
            return 2;
        if (i < NQ)
            q[i] = (cdyn_real)x;
        else if (i < NQ + NV)
            v[i - NQ] = (cdyn_real)x;
        else
            tau[i - NQ - NV] = (cdyn_real)x;
    }
    status = CAT(ROBOT, _aba)(&d, q, v, tau, ddq);
    printf("%lu %d\n", (unsigned long)sizeof d, status);
    for (i = 0; i < NV; i++)
        printf("%.17g\n", (double)ddq[i]);
    return 0;
}
