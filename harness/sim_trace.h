/* sim_trace.h — what the program of `cdyngen simulate` records at each step of its run,
 * and the writers of the run's CSV, SVG plots and HTML animation (sim_csv.c, sim_svg.c,
 * sim_html.c). The program is compiled with the user's compiler beside the robot's
 * generated code; these writers are plain C99 and know nothing of the robot but this. */
#ifndef CDYN_SIM_TRACE_H
#define CDYN_SIM_TRACE_H

#include <stdio.h>

/* A contact's state at a step, as the animation colours it. */
enum { SIM_SEPARATED = 0, SIM_STICKING = 1, SIM_SLIDING = 2 };

typedef struct {
    /* the robot and the run */
    const char *robot;               /* the generated prefix */
    const char *urdf;                /* the URDF's file name (titles) */
    int nq, nv;
    const char *const *q_names;      /* (nq) "base_x", ..., "lf_hip" (CSV header, legends) */
    const char *const *v_names;      /* (nv) */
    int base_z;                      /* the index in q of the base height, -1: a fixed base */
    double dt;                       /* the step, s */
    double ground;                   /* the ground plane's height z, m */
    const char *model;               /* "rigid" or "soft" */
    /* what the animation draws: the robot's frames as points, each joined to its parent */
    int npoints;
    const char *const *point_names;  /* (npoints) the frames' names */
    const int *point_parent;         /* (npoints) the point it is drawn from, -1: none */
    int ncontacts;                   /* the frictional contacts */
    const char *const *contact_names;/* (ncontacts) their frames' names */
    /* the samples: every step, k = 0 .. nsamples - 1 (sample 0 is the initial state) */
    int nsamples;
    const double *t;                 /* (nsamples) s */
    const double *q, *v;             /* (nsamples x nq), (nsamples x nv) */
    const double *points;            /* (nsamples x npoints x 3) world positions, from FK */
    const double *contact_point;     /* (nsamples x ncontacts x 3) world positions */
    const double *normal_force;      /* (nsamples x ncontacts) N (impulse / dt) */
    const double *friction_force;    /* (nsamples x ncontacts) |tangential| N */
    const double *penetration;       /* (nsamples x ncontacts) max(0, -phi), m */
    const int *contact_state;        /* (nsamples x ncontacts) SIM_SEPARATED, ... */
    const double *energy;            /* (nsamples) kinetic + potential, J */
    const int *iterations;           /* (nsamples) the step's solver iterations */
    const double *residual;          /* (nsamples) the largest of the step's residuals */
    const int *converged;            /* (nsamples) 0 when the step reported no convergence */
} sim_trace;

/* Each writes the whole trace to f; 0, or -1 when a write failed. */
int sim_write_csv(const sim_trace *tr, FILE *f);
int sim_write_svg(const sim_trace *tr, FILE *f);
int sim_write_html(const sim_trace *tr, FILE *f);

#endif
