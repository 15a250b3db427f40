/* contact_sim.h — a robot simulated by its generated contact step and, side by side from
 * the same state every step, by the generic runtime's (cdyn_contact_step) on the same model
 * and set: the machinery test_contact.c (rigid contacts) and test_soft_contact.c (soft ones)
 * share. Each step's results must agree: generated against generic 1e-10 relative (the same
 * arithmetic, M^-1 by the generated factor or by ABA). Static inline functions: a program
 * may use some of them without a warning. */
#ifndef CDYN_TESTS_CONTACT_SIM_H
#define CDYN_TESTS_CONTACT_SIM_H

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cdyn.h"
#include "generated_api.h"

#define DT 1e-3
#define G0 9.81
#define MAXV 64
#define MAXC 32

/* One simulated robot: the generated step in d, the generic one in gd/cd/gp. */
typedef struct {
    const generated_api *g;
    const cdyn_model *m;
    const cdyn_constraint *set;
    void *d, *gwork, *cwork, *pwork;
    cdyn_data gd;
    cdyn_constraint_data cd;
    cdyn_contact_problem gp; /* the generic step's */
    cdyn_constraint_data *set_data; /* &cd, or NULL without a set (limits only) */
    double q[MAXV], v[MAXV];
} sim;

static inline void sim_open(sim *s, const generated_api *g)
{
    int dims[MAXC], friction[MAXC], nc = 0;
    memset(s, 0, sizeof *s);
    s->g = g;
    s->m = g->model;
    s->set = g->constraints;
    ck_assert(g->nconstraints <= MAXC && g->nq <= MAXV && g->contact_step);
    for (int k = 0; k < g->nconstraints; ++k) {
        dims[k] = s->set[k].dim;
        friction[k] = s->set[k].friction;
        nc += dims[k];
    }
    const cdyn_contact_layout layout = { g->nconstraints, dims, friction, g->njoint_limits,
                                         g->joint_limits, g->nv };
    const size_t pbytes = CDYN_CONTACT_PROBLEM_BYTES(g->nconstraints, nc, g->njoint_limits, g->nv);
    s->d = calloc(1, g->data_size);
    s->gwork = malloc(cdyn_data_size(s->m));
    s->cwork = malloc(g->generic_constraint_bytes + 1);
    s->pwork = malloc(pbytes);
    ck_assert(s->d && s->gwork && s->cwork && s->pwork);
    ck_assert_int_eq(cdyn_data_init(&s->gd, s->m, s->gwork, cdyn_data_size(s->m)), CDYN_OK);
    if (g->nconstraints > 0) {
        ck_assert_int_eq(cdyn_constraint_data_init(&s->cd, s->m, s->set, g->nconstraints,
                                                   s->cwork, g->generic_constraint_bytes),
                         CDYN_OK);
        s->set_data = &s->cd;
    }
    ck_assert_int_eq(cdyn_contact_problem_init(&s->gp, &layout, s->pwork, pbytes), CDYN_OK);
    ck_assert_int_eq(g->contact_reset(s->d), CDYN_OK);
    g->neutral(s->q);
}

static inline void sim_close(sim *s)
{
    free(s->d);
    free(s->gwork);
    free(s->cwork);
    free(s->pwork);
}

static inline cdyn_contact_problem sim_view(sim *s)
{
    cdyn_contact_problem p;
    ck_assert_int_eq(s->g->contact_view(s->d, &p), CDYN_OK);
    return p;
}

static inline double rel_gap(const double *a, const double *b, int n, double floor)
{
    double gap = 0, scale = floor;
    for (int k = 0; k < n; ++k) {
        gap = fmax(gap, fabs(a[k] - b[k]));
        scale = fmax(scale, fabs(b[k]));
    }
    return gap / scale;
}

/* One step from s->q, s->v by the generated code; the generic runtime steps from the same
 * state, and the two must agree. Returns the generated step's iterations. */
static inline int sim_step(sim *s, const cdyn_contact_settings *set, const double *tau)
{
    double qg[MAXV], vg[MAXV], q1[MAXV], v1[MAXV];
    const int nq = s->g->nq, nv = s->g->nv;
    const int it = s->g->contact_step(s->d, set, s->q, s->v, tau, q1, v1);
    ck_assert_msg(it >= 0, "%s: contact_step %d", s->g->name, it);
    const int itg =
        cdyn_contact_step(s->m, &s->gd, s->set_data, &s->gp, set, s->q, s->v, tau, qg, vg);
    ck_assert_msg(itg >= 0, "%s: cdyn_contact_step %d", s->g->name, itg);
    const cdyn_contact_problem p = sim_view(s);
    ck_assert_msg(rel_gap(v1, vg, nv, 1e-3) <= 1e-10, "%s: v generated/generic %g", s->g->name,
                  rel_gap(v1, vg, nv, 1e-3));
    ck_assert(rel_gap(q1, qg, nq, 1) <= 1e-10);
    ck_assert_msg(rel_gap(p.lambda, s->gp.lambda, p.nc, 1e-3) <= 1e-9,
                  "%s: lambda generated/generic %g", s->g->name,
                  rel_gap(p.lambda, s->gp.lambda, p.nc, 1e-3));
    memcpy(s->q, q1, sizeof(double) * (size_t)nq);
    memcpy(s->v, v1, sizeof(double) * (size_t)nv);
    return it;
}

static inline double normal_sum(const cdyn_contact_problem *p)
{
    double sum = 0;
    for (int k = 0; k < p->n; ++k)
        if (p->cones[k].kind == CDYN_CONE_FRICTION)
            sum += p->lambda[p->set_row[k] + 2];
    return sum;
}

static inline double vmax(const double *v, int n)
{
    double a = 0;
    for (int k = 0; k < n; ++k)
        a = fmax(a, fabs(v[k]));
    return a;
}


#endif
