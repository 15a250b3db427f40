/* sim_csv.c — the trace of `cdyngen simulate` as CSV: a header line of column names, then
 * one row per sample, every number in %.17g (read back exactly). The columns
 * (docs/simulate.md): k, t, q_NAME for each coordinate of q, v_NAME for each of v, then per
 * frictional contact C: C_x, C_y, C_z (its point), C_normal_force, C_friction_force,
 * C_penetration, C_state (0 separated, 1 sticking, 2 sliding), then energy, iterations,
 * residual, converged. */
#include <stdio.h>
#include <string.h>
#include "sim_trace.h"

/* prefix name suffix as one field, quoted (RFC 4180) when the name holds a comma, a quote or
 * a line break. */
static void field(FILE *f, const char *prefix, const char *name, const char *suffix)
{
    const char *c;
    if (!strpbrk(name, ",\"\r\n")) {
        fprintf(f, ",%s%s%s", prefix, name, suffix);
        return;
    }
    fprintf(f, ",\"%s", prefix);
    for (c = name; *c; c++) {
        if (*c == '"')
            fputc('"', f); /* a quote doubled */
        fputc(*c, f);
    }
    fprintf(f, "%s\"", suffix);
}

static void header(const sim_trace *tr, FILE *f)
{
    static const char *const contact_columns[7] = { "_x", "_y", "_z", "_normal_force",
                                                     "_friction_force", "_penetration", "_state" };
    int j, c;
    fputs("k,t", f);
    for (j = 0; j < tr->nq; j++)
        field(f, "q_", tr->q_names[j], "");
    for (j = 0; j < tr->nv; j++)
        field(f, "v_", tr->v_names[j], "");
    for (c = 0; c < tr->ncontacts; c++)
        for (j = 0; j < 7; j++)
            field(f, "", tr->contact_names[c], contact_columns[j]);
    fputs(",energy,iterations,residual,converged\n", f);
}

static void row(const sim_trace *tr, int k, FILE *f)
{
    const size_t n = (size_t)k;
    int j, c;
    fprintf(f, "%d,%.17g", k, tr->t[k]);
    for (j = 0; j < tr->nq; j++)
        fprintf(f, ",%.17g", tr->q[n * (size_t)tr->nq + (size_t)j]);
    for (j = 0; j < tr->nv; j++)
        fprintf(f, ",%.17g", tr->v[n * (size_t)tr->nv + (size_t)j]);
    for (c = 0; c < tr->ncontacts; c++) {
        const size_t at = n * (size_t)tr->ncontacts + (size_t)c;
        const double *p = tr->contact_point + 3 * at;
        fprintf(f, ",%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d", p[0], p[1], p[2],
                tr->normal_force[at], tr->friction_force[at], tr->penetration[at],
                tr->contact_state[at]);
    }
    fprintf(f, ",%.17g,%d,%.17g,%d\n", tr->energy[k], tr->iterations[k], tr->residual[k],
            tr->converged[k]);
}

int sim_write_csv(const sim_trace *tr, FILE *f)
{
    int k;
    header(tr, f);
    for (k = 0; k < tr->nsamples; k++)
        row(tr, k, f);
    return ferror(f) ? -1 : 0;
}
