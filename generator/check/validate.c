/* validate.c — is M positive definite? Checked once, at the neutral configuration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check/validate.h"
#include "model/model_table.h"
#include "cdyn.h"

/* A pivot below this fraction of its diagonal entry is rounding noise on a zero: the joint
 * adds no inertia of its own. Real robots (finger links of 1e-6 kg m^2 on 100 kg bodies)
 * stay above 1e-9; an exact zero comes out near 1e-16. */
#define PIVOT_RTOL 1e-12

/* In-place LTDL of the dense M along the expanded parent array; returns the first DoF
 * (from the leaves) whose pivot vanishes, or -1. */
static int first_vanishing_pivot(const kin_tree *t, double *M)
{
    int n = t->nv, k, i, j;
    for (k = n - 1; k >= 0; k--) {
        double diag = M[k * n + k];
        if (!(diag > 0))
            return k;
        for (i = t->dof_parent[k]; i >= 0; i = t->dof_parent[i]) {
            double a = M[k * n + i] / diag;
            for (j = i; j >= 0; j = t->dof_parent[j])
                M[i * n + j] -= a * M[k * n + j];
            M[k * n + i] = a;
        }
    }
    return -1;
}

static int diag_scale_check(const kin_tree *t, const double *M0, double *M)
{
    int n = t->nv, k, bad = first_vanishing_pivot(t, M);
    if (bad >= 0)
        return bad;
    for (k = 0; k < n; k++)
        if (M[k * n + k] <= PIVOT_RTOL * M0[k * n + k])
            return k;
    return -1;
}

int validate_singular_body(const kin_tree *t)
{
    model_table mt;
    size_t n = (size_t)t->nv, bytes;
    double *q = NULL, *M0 = NULL, *M = NULL;
    void *work = NULL;
    cdyn_data d;
    int bad = -2;
    if (t->nv == 0)
        return -1;
    if (model_table_from_tree(t, &mt) < 0)
        return -2;
    bytes = cdyn_data_size(&mt.model);
    q = malloc((size_t)t->nq * sizeof *q);
    M0 = malloc(n * n * sizeof *M0);
    M = malloc(n * n * sizeof *M);
    work = malloc(bytes);
    if (q && M0 && M && work && cdyn_data_init(&d, &mt.model, work, bytes) == CDYN_OK &&
        cdyn_neutral(&mt.model, q) == CDYN_OK && cdyn_crba(&mt.model, &d, q, M0) == CDYN_OK) {
        memcpy(M, M0, n * n * sizeof *M);
        bad = diag_scale_check(t, M0, M);
        bad = bad >= 0 ? t->dof_body[bad] : -1;
    }
    free(q);
    free(M0);
    free(M);
    free(work);
    model_table_free(&mt);
    return bad;
}

void validate_singular_text(const kin_tree *t, int body, char *buf, size_t len)
{
    snprintf(buf, len,
             "nothing with inertia moves with joint \"%s\" beyond what its other "
             "joints move (its subtree has no mass or inertia about its motion)",
             t->bodies[body].joint_name);
}

int validate_inertia(const kin_tree *t, const char *file, char *err, size_t errlen)
{
    int bad = validate_singular_body(t);
    if (bad == -2) {
        snprintf(err, errlen, "%s: out of memory", file);
        return -1;
    }
    if (bad < 0)
        return 0;
    snprintf(err, errlen,
             "%s:%d: joint \"%s\": nothing with inertia moves with this joint beyond what "
             "its other joints move (its subtree has no mass or inertia about its motion), "
             "so the joint-space inertia matrix is singular; give a link in its subtree an "
             "<inertial>, or generate the kinematics and inverse dynamics only with "
             "--massless-links ignore",
             file, t->bodies[bad].line, t->bodies[bad].joint_name);
    return -1;
}
