/* cdyn_projection.c — the projection of a configuration and a velocity back onto the
 * constraint set's manifold (seed 003: Savin, "constraint drift"), by the KKT factor that
 * cdyn_prox_ltl uses.
 *
 * Each correction is the least change in the kinetic-energy metric: dq = M^-1 J^T lambda with
 * J dq = target, lambda from (G + mu I) lambda = target by proximal iterations, G = J M^-1 J^T.
 * The metric is M's rather than the seed's Euclidean one: it weighs metres and radians by the
 * inertia they move (a Euclidean step mixes units), it is the metric in which the projected
 * velocity loses the least kinetic energy, and its factor is the one the solvers already have.
 * From lambda_0 = 0 the proximal iterations reach the minimum-norm lambda of a redundant set,
 * so a redundant set is corrected in the least-squares sense.
 *
 * The bilateral constraints (loops, 3d and 6d contacts) are corrected: position error e -> 0,
 * velocity J v -> 0. A frictional contact (the step's unilateral one) is not a position
 * constraint: its rows ask no change (J dq = 0, J (v_out - v) = 0), so the projection moves
 * no contact point that the step put somewhere, to first order. */
#include "cdyn.h"
#include "cdyn_internal.h"

static const cdyn_project_settings cdyn__project_default = CDYN_PROJECT_SETTINGS_DEFAULT;

static int cdyn__project_settings_ok(const cdyn_project_settings *s)
{
    return s->tol >= 0 && s->tol < CDYN_R(1e30) && s->mu > 0 && s->mu < CDYN_R(1e30) &&
           s->max_iter >= 1 && s->prox_iter >= 1;
}

/* The inner solve's settings: prox_iter proximal iterations at most, stopping once the
 * primal residual ||G lambda - r||_inf (= mu ||lambda_k+1 - lambda_k||_inf) is within tol. */
static cdyn_prox_settings cdyn__inner(const cdyn_project_settings *s)
{
    cdyn_prox_settings p = CDYN_PROX_SETTINGS_DEFAULT;
    p.mu = s->mu;
    p.max_iter = s->prox_iter;
    p.abs_tol = s->tol;
    p.rel_tol = 0;
    p.warm_start = 0;
    return p;
}

/* cd->r = minus each bilateral row's position error (0 on frictional rows); returns the
 * largest |error| (NaN if one is NaN). Needs the placements (cdyn__kinematics). */
static cdyn_real cdyn__position_target(const cdyn_constraint_data *cd)
{
    cdyn_real worst = 0;
    for (int k = 0; k < cd->n; ++k) {
        cdyn_real e[6];
        cdyn_real *r = cd->r + cd->row[k];
        cdyn__position_error(cd, k, e);
        for (int a = 0; a < cd->set[k].dim; ++a) {
            const cdyn_real x = cd->set[k].friction ? 0 : e[a], ax = x < 0 ? -x : x;
            r[a] = -x;
            if (!(ax <= worst))
                worst = ax; /* keeps a NaN */
        }
    }
    return worst;
}

/* The factor of G + mu I from the kinematics at q (cdyn__kinematics: M's factor, J, B):
 * 0, or CDYN_E_SINGULAR. */
static cdyn_status cdyn__project_factor(const cdyn_model *m, const cdyn_data *d,
                                        cdyn_constraint_data *cd, const cdyn_project_settings *s)
{
    cdyn__delassus_lower(m, d, cd, s->mu);
    return cdyn__block_factor(cd) == 0 ? CDYN_OK : CDYN_E_SINGULAR;
}

int cdyn_project_position(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                          const cdyn_project_settings *settings, const cdyn_real *q,
                          cdyn_real *q_out)
{
    const cdyn_project_settings *s = settings ? settings : &cdyn__project_default;
    cdyn_real *lambda = cd ? cd->kappa : NULL, *dq = cd ? cd->zd : NULL;
    if (cdyn__check_cd(m, d, cd) || !cdyn__project_settings_ok(s) || !q || !q_out)
        return CDYN_E_ARG;
    if (!cdyn__finite(q, m->nq))
        return CDYN_E_NONFINITE;
    const cdyn_prox_settings inner = cdyn__inner(s);
    for (int k = 0; k < m->nq; ++k)
        q_out[k] = q[k];
    for (int it = 0;; ++it) {
        cdyn_status st = cdyn__kinematics(m, d, cd, q_out);
        if (st != CDYN_OK)
            return st;
        const cdyn_real worst = cdyn__position_target(cd);
        if (worst <= s->tol)
            return it;
        if (!(worst == worst) || !cdyn__finite(q_out, m->nq))
            return CDYN_E_NONFINITE;
        if (it == s->max_iter)
            return CDYN_E_NOT_CONVERGED;
        if ((st = cdyn__project_factor(m, d, cd, s)) != CDYN_OK)
            return st; /* factorised only when a step is taken */
        (void)cdyn__prox_iterate(cd, &inner, lambda);
        cdyn__back_substitute(m, d, cd, NULL, lambda, dq); /* dq = M^-1 J^T lambda */
        if (!cdyn__finite(dq, m->nv))
            return CDYN_E_NONFINITE;
        (void)cdyn_integrate(m, q_out, dq, 1, q_out);
    }
}

int cdyn_project_velocity(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                          const cdyn_project_settings *settings, const cdyn_real *q,
                          const cdyn_real *v, cdyn_real *v_out)
{
    const cdyn_project_settings *s = settings ? settings : &cdyn__project_default;
    cdyn_real *lambda = cd ? cd->kappa : NULL, *dv = cd ? cd->zd : NULL;
    if (cdyn__check_cd(m, d, cd) || !cdyn__project_settings_ok(s) || !q || !v || !v_out)
        return CDYN_E_ARG;
    if (!cdyn__finite(q, m->nq) || !cdyn__finite(v, m->nv))
        return CDYN_E_NONFINITE;
    const cdyn_prox_settings inner = cdyn__inner(s);
    cdyn_status st = cdyn__kinematics(m, d, cd, q);
    if (st == CDYN_OK)
        st = cdyn__project_factor(m, d, cd, s);
    if (st != CDYN_OK)
        return st;
    for (int r = 0; r < cd->nc; ++r)
        cd->r[r] = cd->set[cdyn__constraint_of_row(cd, r)].friction
                       ? 0
                       : -cdyn__row_times(m, cd, r, v);
    const int it = cdyn__prox_iterate(cd, &inner, lambda);
    cdyn__back_substitute(m, d, cd, NULL, lambda, dv); /* M^-1 J^T lambda */
    for (int k = 0; k < m->nv; ++k)
        v_out[k] = v[k] + dv[k];
    if (!cdyn__finite(v_out, m->nv))
        return CDYN_E_NONFINITE;
    return cdyn__prox_missed(cd, &inner) ? CDYN_E_NOT_CONVERGED : it;
}
