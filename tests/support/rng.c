/* rng.c — see rng.h. */
#include "rng.h"

uint64_t splitmix64_next(splitmix64 *g)
{
    uint64_t z = (g->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double splitmix64_unit(splitmix64 *g)
{
    return (double)(splitmix64_next(g) >> 11) * (1.0 / 9007199254740992.0);
}

double splitmix64_range(splitmix64 *g, double lo, double hi)
{
    return lo + (hi - lo) * splitmix64_unit(g);
}

double xorshift64s_uniform(xorshift64s *g, double lo, double hi)
{
    g->s ^= g->s >> 12;
    g->s ^= g->s << 25;
    g->s ^= g->s >> 27;
    return lo + (hi - lo) * (double)((g->s * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

void xorshift64s_vector(xorshift64s *g, double *x, int n, double scale)
{
    for (int k = 0; k < n; ++k)
        x[k] = xorshift64s_uniform(g, -scale, scale);
}

double xorshift32_signed(unsigned *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return (double)*s / 2147483648.0 - 1.0;
}

void xorshift32_state(unsigned *s, int nv, double *step, double *v, double *tau, double *a)
{
    int i;
    for (i = 0; i < nv; i++) {
        step[i] = 2 * xorshift32_signed(s);
        v[i] = xorshift32_signed(s);
        tau[i] = xorshift32_signed(s);
        a[i] = xorshift32_signed(s);
    }
}
