/* bad_firmware.c — everything the firmware checks must refuse, for firmware_checks_fail:
 * heap, stdio, double arithmetic in a float build, recursion and a variable-length array. */
#include <stdio.h>
#include <stdlib.h>
#include "semihost.h"

/* noinline: left to itself, gcc folds both into main (and the recursion into a loop). */
__attribute__((noinline)) static int depth(int n)
{
    return n <= 1 ? n : depth(n - 1) + depth(n - 2);
}

__attribute__((noinline)) static float sum_vla(int n, float x)
{
    float a[n];
    int i;
    for (i = 0; i < n; i++)
        a[i] = x * (float)i;
    return a[n - 1];
}

int main(void)
{
    volatile int n = 8;
    volatile float x = 2.0f;
    double *p = malloc(sizeof *p * (size_t)n);
    if (!p)
        return 1;
    p[0] = (double)x / n;
    printf("%f %d %f\n", p[0], depth(n), (double)sum_vla(n, x));
    free(p);
    return 0;
}
