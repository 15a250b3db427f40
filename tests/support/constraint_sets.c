/* constraint_sets.c — see constraint_sets.h. */
#include "constraint_sets.h"

#include <check.h>
#include <stddef.h>
#include "models.h"

int sample_set_constraints(const sample_set *s, const cdyn_model *m, cdyn_constraint *set)
{
    for (int k = 0; k < s->n; ++k) {
        set[k].frame_a = frame_named(m, s->c[k].a);
        set[k].frame_b = s->c[k].b ? frame_named(m, s->c[k].b) : -1;
        set[k].dim = s->c[k].dim;
        set[k].friction = 0;
    }
    return s->n;
}

int random_constraint_set(const cdyn_model *m, xorshift64s *g, int max_n, int loops,
                          cdyn_constraint *set)
{
    int moving[512], nmoving = 0, n = 1 + (int)xorshift64s_uniform(g, 0, max_n - 1e-9);
    for (int k = 0; k < m->nframes && nmoving < 512; ++k)
        if (m->frames[k].body >= 0)
            moving[nmoving++] = k;
    for (int k = 0; k < n; ++k) {
        cdyn_constraint *c = &set[k];
        do {
            c->frame_a = moving[(int)xorshift64s_uniform(g, 0, nmoving - 1e-9)];
            c->frame_b = loops && xorshift64s_uniform(g, 0, 1) < 1.0 / 3
                             ? (int)xorshift64s_uniform(g, 0, m->nframes - 1e-9)
                             : -1;
            c->dim = xorshift64s_uniform(g, 0, 1) < 0.5 ? 3 : 6;
            c->friction = 0;
        } while (cdyn_constraint_data_size(m, c, 1) == 0);
    }
    return n;
}

void random_state(const cdyn_model *m, xorshift64s *g, double *q, double *v, double *tau,
                  double *step)
{
    ck_assert_int_eq(cdyn_neutral(m, q), CDYN_OK);
    xorshift64s_vector(g, step, m->nv, 3.0);
    ck_assert_int_eq(cdyn_integrate(m, q, step, 1.0, q), CDYN_OK);
    xorshift64s_vector(g, v, m->nv, 1.0);
    xorshift64s_vector(g, tau, m->nv, 5.0);
}

cdyn_prox_settings prox_settings(double mu, int iterations)
{
    cdyn_prox_settings s = { 0, 0, 0, 0, NULL, NULL, 0 };
    s.mu = mu;
    s.max_iter = iterations;
    return s;
}
