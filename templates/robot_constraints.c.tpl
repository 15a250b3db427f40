{# NAME.c's constrained dynamics, included by robot.c.tpl for a robot generated with
   constraints (the same values: X.body, X.ops, X.unused). #}
/* ==== constrained dynamics: {{ ncon }} constraints, {{ nc }} rows ==== */

static const cdyn_real {{ name }}__no_gains[{{ ncon }}] = { 0 };

/* M on the tree pattern (CRBA), nle (RNEA with a = 0), J on the supports, gamma and the
 * constraint frames' placements, in one pass: joint transforms and sin/cos are shared.
 * {{ con_terms.ops }} */
static void {{ name }}__constraint_terms({{ name }}_data *d, const cdyn_real *q, const cdyn_real *v)
{
{{ con_terms.unused }}{{ con_terms.body }}}

/* M on the tree pattern, J on the supports and the frames' placements (no velocities).
 * {{ con_terms_kin.ops }} */
static void {{ name }}__constraint_terms_kin({{ name }}_data *d, const cdyn_real *q)
{
{{ con_terms_kin.unused }}{{ con_terms_kin.body }}}

/* {{ con_jacobian.ops }} */
void {{ name }}_constraint_jacobian({{ name }}_data *d, const cdyn_real *q, cdyn_real *J)
{
    int k;
{{ con_jacobian.unused }}    for (k = 0; k < {{ NAME }}_NC * {{ NAME }}_NV; ++k)
        J[k] = 0;
{{ con_jacobian.body }}}

/* {{ con_drift.ops }} */
void {{ name }}_constraint_drift({{ name }}_data *d, const cdyn_real *q, const cdyn_real *v, cdyn_real *gamma)
{
{{ con_drift.unused }}{{ con_drift.body }}}

void {{ name }}_constraint_capture({{ name }}_data *d, const cdyn_real *q)
{
    int k;
    {{ name }}_fk(d, q);
    for (k = 0; k < 9; ++k) {
{% for c in constraints %}
{% if not c.is_loop %}
        d->ref_R[{{ c.index }}][k] = d->oMf_R[{{ NAME }}_FRAME_{{ c.frame_a }}][k];
{% endif %}
{% endfor %}
    }
    for (k = 0; k < 3; ++k) {
{% for c in constraints %}
{% if not c.is_loop %}
        d->ref_p[{{ c.index }}][k] = d->oMf_p[{{ NAME }}_FRAME_{{ c.frame_a }}][k];
{% endif %}
{% endfor %}
    }
}

/* The constraint columns of the KKT factor, B = D^-1 L^-T J^T (each row on its support),
 * and the L^T D L of G + mu I = B^T D B + mu I, Featherstone's order on its fill pattern.
 * Returns 0, or -1 on a non-positive pivot.
 * {{ kkt_factor.ops }} */
static int {{ name }}__kkt_factor({{ name }}_data *d, cdyn_real mu)
{
    int k;
{{ kkt_factor.unused }}{{ kkt_factor.body }}    for (k = 0; k < {{ NAME }}_NC; ++k)
        if (!(d->GD[k] > 0))
            return -1;
    return 0;
}

/* x <- (G + mu I)^-1 x with that factor: one proximal iteration's solve.
 * {{ kkt_solve.ops }} */
static void {{ name }}__kkt_solve(const {{ name }}_data *d, cdyn_real *x)
{
{{ kkt_solve.body }}}

/* G + mu I, the same route, into G (full).
 * {{ delassus.ops }} */
static void {{ name }}__delassus(const {{ name }}_data *d, cdyn_real mu, cdyn_real *G)
{
{{ delassus.unused }}{{ delassus.body }}}

/* z = L^-T (tau - nle), d->zd = D^-1 z, d->r = a* - gamma - B^T z.
 * {{ prox_rhs.ops }} */
static void {{ name }}__prox_rhs({{ name }}_data *d, const cdyn_real *tau, const cdyn_real *astar)
{
{{ prox_rhs.body }}}

/* d->r = -(1 + restitution) J v_before.
 * {{ impulse_rhs.ops }} */
static void {{ name }}__impulse_rhs({{ name }}_data *d, const cdyn_real *v_before, cdyn_real restitution)
{
{{ impulse_rhs.unused }}{{ impulse_rhs.body }}}

/* Baumgarte: a* = -Kp e - Kd J v per constraint.
 * {{ baumgarte.ops }} */
static void {{ name }}__baumgarte(const {{ name }}_data *d, const cdyn_real *v, const cdyn_real *Kp,
    const cdyn_real *Kd, cdyn_real *astar)
{
{{ baumgarte.body }}}

/* ddq = L^-1 (D^-1 z + B lambda).
 * {{ prox_ddq.ops }} */
static void {{ name }}__prox_ddq(const {{ name }}_data *d, const cdyn_real *lambda, cdyn_real *ddq)
{
{{ prox_ddq.body }}}

/* v_after = v_before + L^-1 B impulse.
 * {{ impulse_velocity.ops }} */
static void {{ name }}__impulse_velocity(const {{ name }}_data *d, const cdyn_real *impulse,
    const cdyn_real *v_before, cdyn_real *v_after)
{
{{ impulse_velocity.body }}}

static int {{ name }}__settings_ok(const cdyn_prox_settings *s)
{
    return s && s->mu > 0 && s->max_iter >= 1;
}

/* The iteration count, or CDYN_E_NOT_CONVERGED when a positive tolerance of s is not met
 * by the last iterate (ddq and lambda keep it; the residuals are in d). */
static int {{ name }}__result(const {{ name }}_data *d, const cdyn_prox_settings *s, int it)
{
    const int missed = (s->abs_tol > 0 && !(d->primal_residual <= s->abs_tol)) ||
                       (s->rel_tol > 0 && !(d->dual_residual <= s->rel_tol));
    return missed ? CDYN_E_NOT_CONVERGED : it;
}

/* Proximal iterations on lambda from d->r: (G + mu I) lambda_k+1 = r + mu lambda_k. The
 * primal residual G lambda_k+1 - r equals mu (lambda_k - lambda_k+1), so both residuals
 * come from the change of lambda. Stops when every positive tolerance is met. */
static int {{ name }}__prox_iterate({{ name }}_data *d, const cdyn_prox_settings *s, cdyn_real *lambda)
{
    const int use_tol = s->abs_tol > 0 || s->rel_tol > 0;
    cdyn_real x[{{ NAME }}_NC];
    int it, k;
    if (!s->warm_start)
        for (k = 0; k < {{ NAME }}_NC; ++k)
            lambda[k] = 0;
    for (it = 1;; ++it) {
        cdyn_real dual = 0;
        for (k = 0; k < {{ NAME }}_NC; ++k)
            x[k] = d->r[k] + s->mu * lambda[k];
        {{ name }}__kkt_solve(d, x);
        for (k = 0; k < {{ NAME }}_NC; ++k) {
            const cdyn_real e = x[k] - lambda[k], a = e < 0 ? -e : e;
            if (!(a <= dual))
                dual = a;          /* keeps a NaN */
            lambda[k] = x[k];
        }
        d->dual_residual = dual;
        d->primal_residual = s->mu * dual;
        if (it >= s->max_iter)
            return it;
        if (use_tol && (!(s->abs_tol > 0) || d->primal_residual <= s->abs_tol) &&
            (!(s->rel_tol > 0) || dual <= s->rel_tol))
            return it;
    }
}

int {{ name }}_prox_ltl({{ name }}_data *d, const cdyn_prox_settings *settings, const cdyn_real *q,
                 const cdyn_real *v, const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda)
{
    cdyn_real astar[{{ NAME }}_NC];
    int k, it;
    if (!{{ name }}__settings_ok(settings))
        return CDYN_E_ARG;
    {{ name }}__constraint_terms(d, q, v);
    if ({{ name }}_ltl(d) != 0 || {{ name }}__kkt_factor(d, settings->mu) != 0)
        return CDYN_E_SINGULAR;
    if (settings->Kp || settings->Kd)
        {{ name }}__baumgarte(d, v, settings->Kp ? settings->Kp : {{ name }}__no_gains,
                   settings->Kd ? settings->Kd : {{ name }}__no_gains, astar);
    else
        for (k = 0; k < {{ NAME }}_NC; ++k)
            astar[k] = 0;
    {{ name }}__prox_rhs(d, tau, astar);
    it = {{ name }}__prox_iterate(d, settings, lambda);
    {{ name }}__prox_ddq(d, lambda, ddq);
    return {{ name }}__finite(ddq, {{ NAME }}_NV) && {{ name }}__finite(lambda, {{ NAME }}_NC) ? {{ name }}__result(d, settings, it) : CDYN_E_NONFINITE;
}

/* The residuals of a primal step of the augmented Lagrangian (d->r = J ddq + gamma - a* at
 * ddq_k+1), as __prox_iterate keeps them: the change of lambda is rho |d->r|. Returns 1 when
 * the iterations stop. */
static int {{ name }}__alm_stops({{ name }}_data *d, const cdyn_prox_settings *s, int it)
{
    const int use_tol = s->abs_tol > 0 || s->rel_tol > 0;
    const cdyn_real rho = 1 / s->mu;
    cdyn_real primal = 0;
    int k;
    for (k = 0; k < {{ NAME }}_NC; ++k) {
        const cdyn_real r = d->r[k], a = r < 0 ? -r : r;
        if (!(a <= primal))
            primal = a;            /* keeps a NaN */
    }
    d->primal_residual = primal;
    d->dual_residual = rho * primal;
    if (it >= s->max_iter)
        return 1;
    return use_tol && (!(s->abs_tol > 0) || primal <= s->abs_tol) &&
           (!(s->rel_tol > 0) || d->dual_residual <= s->rel_tol);
}

/* lambda_k+1 = lambda_k - r / mu: the proximal iterate. */
static void {{ name }}__alm_step(const {{ name }}_data *d, const cdyn_prox_settings *s, cdyn_real *lambda)
{
    const cdyn_real rho = 1 / s->mu;
    int k;
    for (k = 0; k < {{ NAME }}_NC; ++k)
        lambda[k] -= rho * d->r[k];
}

/* Both: the residuals, then lambda_k+1; returns 1 when the iterations stop. */
static int {{ name }}__alm_update({{ name }}_data *d, const cdyn_prox_settings *s, cdyn_real *lambda, int it)
{
    const int stops = {{ name }}__alm_stops(d, s, it);
    {{ name }}__alm_step(d, s, lambda);
    return stops;
}

{{ ltls_factor.parts_text }}/* M + rho J^T J, factorised (proxLTLs). Returns 0, or -1 on a non-positive pivot.
 * {{ ltls_factor.ops }} */
static int {{ name }}__ltls_factor({{ name }}_data *d, cdyn_real rho)
{
    int k;
{{ ltls_factor.unused }}{{ ltls_factor.body }}    for (k = 0; k < {{ NAME }}_NV; ++k)
        if (!(d->Dmu[k] > 0))
            return -1;
    return 0;
}

/* tau - nle, gamma - a* and rho (gamma - a*).
 * {{ ltls_rhs.ops }} */
static void {{ name }}__ltls_rhs({{ name }}_data *d, const cdyn_real *tau, const cdyn_real *astar, cdyn_real rho)
{
{{ ltls_rhs.unused }}{{ ltls_rhs.body }}}

/* One primal step: ddq = (M + rho J^T J)^-1 (tau - nle + J^T (lambda - rho (gamma - a*)));
 * d->r = J ddq + gamma - a*.
 * {{ ltls_iterate.ops }} */
static void {{ name }}__ltls_iterate({{ name }}_data *d, const cdyn_real *lambda, cdyn_real rho, cdyn_real *ddq)
{
{{ ltls_iterate.unused }}{{ ltls_iterate.body }}}

/* The last primal step (ddq and d->r, at lambda) refined once against M and J apart:
 * M + rho J^T J rounds M's entries by ~eps rho ||J||^2. The earlier steps' rounding enters
 * lambda only, which the last, refined step contracts by mu (G + mu I)^-1.
 * {{ ltls_refine.ops }} */
static void {{ name }}__ltls_refine({{ name }}_data *d, const cdyn_real *lambda, cdyn_real rho, cdyn_real *ddq)
{
{{ ltls_refine.unused }}{{ ltls_refine.body }}}

int {{ name }}_prox_ltls({{ name }}_data *d, const cdyn_prox_settings *settings, const cdyn_real *q,
                 const cdyn_real *v, const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda)
{
    cdyn_real astar[{{ NAME }}_NC];
    int k, it, refining = 0;
    if (!{{ name }}__settings_ok(settings))
        return CDYN_E_ARG;
    {{ name }}__constraint_terms(d, q, v);
    if ({{ name }}__ltls_factor(d, 1 / settings->mu) != 0)
        return CDYN_E_SINGULAR;
    if (settings->Kp || settings->Kd)
        {{ name }}__baumgarte(d, v, settings->Kp ? settings->Kp : {{ name }}__no_gains,
                   settings->Kd ? settings->Kd : {{ name }}__no_gains, astar);
    else
        for (k = 0; k < {{ NAME }}_NC; ++k)
            astar[k] = 0;
    {{ name }}__ltls_rhs(d, tau, astar, 1 / settings->mu);
    if (!settings->warm_start)
        for (k = 0; k < {{ NAME }}_NC; ++k)
            lambda[k] = 0;
    for (it = 1;; ++it) {
        {{ name }}__ltls_iterate(d, lambda, 1 / settings->mu, ddq);
        if (!refining && !{{ name }}__alm_stops(d, settings, it)) {
            {{ name }}__alm_step(d, settings, lambda);
            continue;
        }
        /* Once the unrefined step has passed, every step is refined: alternating, a residual at
         * the tolerance's rounding floor could pass unrefined and miss refined to max_iter. */
        refining = 1;
        {{ name }}__ltls_refine(d, lambda, 1 / settings->mu, ddq);
        if ({{ name }}__alm_update(d, settings, lambda, it))
            break;
    }
    return {{ name }}__finite(ddq, {{ NAME }}_NV) && {{ name }}__finite(lambda, {{ NAME }}_NC) ? {{ name }}__result(d, settings, it) : CDYN_E_NONFINITE;
}
{% if contacts_only %}

/* a* = -Kp e - Kd J v per contact, from q and v alone.
 * {{ contact_baumgarte.ops }} */
static void {{ name }}__contact_baumgarte(const {{ name }}_data *d, const cdyn_real *q, const cdyn_real *v,
    const cdyn_real *Kp, const cdyn_real *Kd, cdyn_real *astar)
{
{{ contact_baumgarte.unused }}{{ contact_baumgarte.body }}}

/* a* of the settings: Baumgarte's, or 0 without gains. */
static void {{ name }}__contact_astar(const {{ name }}_data *d, const cdyn_prox_settings *s, const cdyn_real *q,
    const cdyn_real *v, cdyn_real *astar)
{
    int k;
    if (s->Kp || s->Kd) {
        {{ name }}__contact_baumgarte(d, q, v, s->Kp ? s->Kp : {{ name }}__no_gains,
                               s->Kd ? s->Kd : {{ name }}__no_gains, astar);
        return;
    }
    for (k = 0; k < {{ NAME }}_NC; ++k)
        astar[k] = 0;
}

{{ caba_setup.parts_text }}/* constrainedABA set-up: passes 1 and 2 with rho K^T K in the contact bodies' inertias,
 * then the first iteration's pass 3 (lambda = 0) as caba_forward does it.
 * {{ caba_setup.ops }} */
static void {{ name }}__caba_setup({{ name }}_data *d, const cdyn_real *q, const cdyn_real *v,
    const cdyn_real *tau, cdyn_real rho, const cdyn_real *astar, cdyn_real *ddq)
{
{{ caba_setup.unused }}{{ caba_setup.body }}}

/* d->u = d->u0 - S^T (the multiplier's part of the bias forces), up the carrying bodies.
 * {{ caba_delta.ops }} */
static void {{ name }}__caba_delta({{ name }}_data *d, const cdyn_real *lambda)
{
{{ caba_delta.unused }}{{ caba_delta.body }}}

/* Pass 3 of the bodies that carry a contact: their ddq, and d->r = J ddq + gamma - a*.
 * {{ caba_forward.ops }} */
static void {{ name }}__caba_forward({{ name }}_data *d, cdyn_real *ddq)
{
{{ caba_forward.unused }}{{ caba_forward.body }}}

/* Pass 3 of the other bodies, from d->caba_acc: the rest of ddq.
 * {{ caba_rest.ops }} */
static void {{ name }}__caba_rest(const {{ name }}_data *d, cdyn_real *ddq)
{
{{ caba_rest.unused }}{{ caba_rest.body }}}

int {{ name }}_constrained_aba({{ name }}_data *d, const cdyn_prox_settings *settings, const cdyn_real *q,
                 const cdyn_real *v, const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda)
{
    cdyn_real astar[{{ NAME }}_NC];
    int k, it;
    if (!{{ name }}__settings_ok(settings))
        return CDYN_E_ARG;
    {{ name }}__contact_astar(d, settings, q, v, astar);
    {{ name }}__caba_setup(d, q, v, tau, 1 / settings->mu, astar, ddq);
    if (settings->warm_start) {     /* the set-up's pass 3 redone at the given lambda */
        {{ name }}__caba_delta(d, lambda);
        {{ name }}__caba_forward(d, ddq);
    } else {
        for (k = 0; k < {{ NAME }}_NC; ++k)
            lambda[k] = 0;
    }
    for (it = 1;; ++it) {
        if ({{ name }}__alm_update(d, settings, lambda, it))
            break;
        {{ name }}__caba_delta(d, lambda);
        {{ name }}__caba_forward(d, ddq);
    }
    {{ name }}__caba_rest(d, ddq);
    return {{ name }}__finite(ddq, {{ NAME }}_NV) && {{ name }}__finite(lambda, {{ NAME }}_NC) ? {{ name }}__result(d, settings, it) : CDYN_E_NONFINITE;
}

{{ pv_setup.parts_text }}/* proxPV set-up: ABA's passes with the constraint force maps, G + mu I factorised into
 * d->Gl, d->GD, d->GDinv, and d->r. Returns 0, or -1 on a non-positive pivot.
 * {{ pv_setup.ops }} */
static int {{ name }}__pv_setup({{ name }}_data *d, const cdyn_real *q, const cdyn_real *v,
    const cdyn_real *tau, cdyn_real mu, const cdyn_real *astar)
{
    int k;
{{ pv_setup.unused }}{{ pv_setup.body }}    for (k = 0; k < {{ NAME }}_NC; ++k)
        if (!(d->GD[k] > 0))
            return -1;
    return 0;
}

/* The last sweep: ddq with the multipliers' forces.
 * {{ pv_forward.ops }} */
static void {{ name }}__pv_forward(const {{ name }}_data *d, const cdyn_real *lambda, cdyn_real *ddq)
{
{{ pv_forward.unused }}{{ pv_forward.body }}}

int {{ name }}_prox_pv({{ name }}_data *d, const cdyn_prox_settings *settings, const cdyn_real *q,
                 const cdyn_real *v, const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda)
{
    cdyn_real astar[{{ NAME }}_NC];
    int it;
    if (!{{ name }}__settings_ok(settings))
        return CDYN_E_ARG;
    {{ name }}__contact_astar(d, settings, q, v, astar);
    if ({{ name }}__pv_setup(d, q, v, tau, settings->mu, astar) != 0)
        return CDYN_E_SINGULAR;
    it = {{ name }}__prox_iterate(d, settings, lambda);
    {{ name }}__pv_forward(d, lambda, ddq);
    return {{ name }}__finite(ddq, {{ NAME }}_NV) && {{ name }}__finite(lambda, {{ NAME }}_NC) ? {{ name }}__result(d, settings, it) : CDYN_E_NONFINITE;
}
{% endif %}

{% if contacts_only %}
{{ pv_delassus.parts_text }}/* {{ pv_delassus.ops }} */
static void {{ name }}__pv_delassus({{ name }}_data *d, const cdyn_real *q, cdyn_real mu, cdyn_real *G)
{
{{ pv_delassus.unused }}{{ pv_delassus.body }}}

int {{ name }}_delassus_articulated({{ name }}_data *d, const cdyn_real *q, cdyn_real mu, cdyn_real *G)
{
    int k;
    {{ name }}__pv_delassus(d, q, mu, G);
    for (k = 0; k < {{ NAME }}_NC; ++k)
        if (!(G[k * {{ NAME }}_NC + k] > 0))
            return CDYN_E_SINGULAR;
    return 0;
}

{% endif %}
/* The route: {% if delassus_articulated %}articulated sweeps{% else %}M's factor and B^T D B{% endif %} ({{ delassus_ops_factor }} operations by the factor{% if contacts_only %}, {{ delassus_ops_articulated }} by the sweeps{% endif %}). */
int {{ name }}_delassus_factorised({{ name }}_data *d, const cdyn_real *q, cdyn_real mu, cdyn_real *G)
{
    {{ name }}__constraint_terms_kin(d, q);
    if ({{ name }}_ltl(d) != 0)
        return CDYN_E_SINGULAR;
    {{ name }}__delassus(d, mu, G);
    return 0;
}

int {{ name }}_delassus({{ name }}_data *d, const cdyn_real *q, cdyn_real mu, cdyn_real *G)
{
{% if delassus_articulated %}
    return {{ name }}_delassus_articulated(d, q, mu, G);
{% else %}
    return {{ name }}_delassus_factorised(d, q, mu, G);
{% endif %}
}

int {{ name }}_impulse({{ name }}_data *d, const cdyn_prox_settings *settings, const cdyn_real *q,
                const cdyn_real *v_before, cdyn_real restitution, cdyn_real *v_after,
                cdyn_real *impulse)
{
    int it;
    if (!{{ name }}__settings_ok(settings))
        return CDYN_E_ARG;
    {{ name }}__constraint_terms_kin(d, q);
    if ({{ name }}_ltl(d) != 0 || {{ name }}__kkt_factor(d, settings->mu) != 0)
        return CDYN_E_SINGULAR;
    {{ name }}__impulse_rhs(d, v_before, restitution);
    it = {{ name }}__prox_iterate(d, settings, impulse);
    {{ name }}__impulse_velocity(d, impulse, v_before, v_after);
    return {{ name }}__finite(v_after, {{ NAME }}_NV) && {{ name }}__finite(impulse, {{ NAME }}_NC) ? {{ name }}__result(d, settings, it) : CDYN_E_NONFINITE;
}

/* ==== the projection onto the constraint manifold (seed 003; cdyn_prox.h) ==== */

/* Baumgarte's stiffness 1 on the bilateral constraints, 0 on the frictional contacts: with
 * no damping and v = 0, __baumgarte gives a* = -e on the corrected rows and 0 on the others
 * (whose points the projection keeps where they are). */
static const cdyn_real {{ name }}__corrected[{{ ncon }}] = { {% for c in constraints %}{% if c.friction %}0{% else %}1{% endif %}{% if not loop.last %}, {% endif %}{% endfor %} };
static const cdyn_real {{ name }}__zero_v[{{ NAME }}_NV] = { 0 };

/* The settings given (or the defaults), checked: 1 when usable. */
static int {{ name }}__project_settings(const cdyn_project_settings *given, cdyn_project_settings *s)
{
    static const cdyn_project_settings defaults = CDYN_PROJECT_SETTINGS_DEFAULT;
    *s = given ? *given : defaults;
    return s->tol >= 0 && s->tol < (cdyn_real)1e30 && s->mu > 0 && s->mu < (cdyn_real)1e30 &&
           s->max_iter >= 1 && s->prox_iter >= 1;
}

/* (G + mu I) lambda = d->r by at most prox_iter proximal iterations from 0, stopping at a
 * primal residual ||G lambda - r||_inf <= tol; the iterations, or CDYN_E_NOT_CONVERGED. */
static int {{ name }}__project_solve({{ name }}_data *d, const cdyn_project_settings *s, cdyn_real *lambda)
{
    cdyn_prox_settings p = CDYN_PROX_SETTINGS_DEFAULT;
    p.mu = s->mu;
    p.max_iter = s->prox_iter;
    p.abs_tol = s->tol;
    p.rel_tol = 0;
    p.warm_start = 0;
    return {{ name }}__result(d, &p, {{ name }}__prox_iterate(d, &p, lambda));
}

int {{ name }}_project_position({{ name }}_data *d, const cdyn_project_settings *settings, const cdyn_real *q,
                 cdyn_real *q_out)
{
    cdyn_project_settings s;
    cdyn_real lambda[{{ NAME }}_NC], dq[{{ NAME }}_NV];
    int it, k;
    if (!d || !q || !q_out || !{{ name }}__project_settings(settings, &s))
        return CDYN_E_ARG;
    if (!{{ name }}__finite(q, {{ NAME }}_NQ))
        return CDYN_E_NONFINITE;
    for (k = 0; k < {{ NAME }}_NQ; ++k)
        q_out[k] = q[k];
    for (it = 0;; ++it) {
        cdyn_real worst = 0;
        {{ name }}__constraint_terms_kin(d, q_out);
        {{ name }}__baumgarte(d, {{ name }}__zero_v, {{ name }}__corrected, {{ name }}__no_gains, d->r);
        for (k = 0; k < {{ NAME }}_NC; ++k) {
            const cdyn_real a = d->r[k] < 0 ? -d->r[k] : d->r[k];
            if (!(a <= worst))
                worst = a; /* keeps a NaN */
        }
        if (worst <= s.tol)
            return it;
        if (!(worst == worst) || !{{ name }}__finite(q_out, {{ NAME }}_NQ))
            return CDYN_E_NONFINITE;
        if (it == s.max_iter)
            return CDYN_E_NOT_CONVERGED;
        if ({{ name }}_ltl(d) != 0 || {{ name }}__kkt_factor(d, s.mu) != 0)
            return CDYN_E_SINGULAR;
        (void){{ name }}__project_solve(d, &s, lambda);
        {{ name }}__impulse_velocity(d, lambda, {{ name }}__zero_v, dq); /* dq = M^-1 J^T lambda */
        if (!{{ name }}__finite(dq, {{ NAME }}_NV))
            return CDYN_E_NONFINITE;
        {{ name }}_integrate(q_out, dq, 1, q_out);
    }
}

int {{ name }}_project_velocity({{ name }}_data *d, const cdyn_project_settings *settings, const cdyn_real *q,
                 const cdyn_real *v, cdyn_real *v_out)
{
    cdyn_project_settings s;
    cdyn_real lambda[{{ NAME }}_NC], v_in[{{ NAME }}_NV];
    int it, k;
    if (!d || !q || !v || !v_out || !{{ name }}__project_settings(settings, &s))
        return CDYN_E_ARG;
    if (!{{ name }}__finite(q, {{ NAME }}_NQ) || !{{ name }}__finite(v, {{ NAME }}_NV))
        return CDYN_E_NONFINITE;
    for (k = 0; k < {{ NAME }}_NV; ++k)
        v_in[k] = v[k]; /* v_out may be v */
    {{ name }}__constraint_terms_kin(d, q);
    if ({{ name }}_ltl(d) != 0 || {{ name }}__kkt_factor(d, s.mu) != 0)
        return CDYN_E_SINGULAR;
    {{ name }}__impulse_rhs(d, v_in, 0); /* d->r = -J v */
{% for c in constraints %}
{% if c.friction %}
    for (k = {{ c.row }}; k < {{ c.row }} + 3; ++k) /* {{ c.comment }}: no change */
        d->r[k] = 0;
{% endif %}
{% endfor %}
    it = {{ name }}__project_solve(d, &s, lambda);
    {{ name }}__impulse_velocity(d, lambda, v_in, v_out);
    return {{ name }}__finite(v_out, {{ NAME }}_NV) ? it : CDYN_E_NONFINITE;
}
{% if contacts_only %}

/* ==== the derivatives of the converged constrained dynamics ==== */

{{ con_derivatives.parts_text }}/* RNEA's derivative terms at a = ddq with the contact forces lambda taken off their bodies
 * (into d->dcol), and each contact's rows of d(J ddq + gamma) by q and by v on its support.
 * {{ con_derivatives.ops }} */
static void {{ name }}__constrained_derivative_terms({{ name }}_data *d, const cdyn_real *q,
    const cdyn_real *v, const cdyn_real *a, const cdyn_real *lambda, cdyn_real *lambda_dq,
    cdyn_real *lambda_dv)
{
{{ con_derivatives.unused }}{{ con_derivatives.body }}}

/* (row r, DoF j on r's support, index of J(r, j) and B(j, r) in d->Jc and d->B), rows
 * ascending: the products with B and B^T by whole rows. */
static const int {{ name }}__con_pairs[{{ ncon_pairs }}][3] = {
{{ con_pairs }}
};

/* x -= l y over one row of a {{ NAME }}_NV-column matrix (two distinct rows). */
static void {{ name }}__row_axpy(cdyn_real *restrict x, cdyn_real l, const cdyn_real *restrict y)
{
    int c;
    for (c = 0; c < {{ NAME }}_NV; ++c)
        x[c] -= l * y[c];
}

{% if nkkt_pairs %}
/* (row i, column j < i) of G + mu I's factor on its pattern (d->Gl[i NC + j]), rows
 * ascending; row i's are [first[i], first[i + 1]). */
static const int {{ name }}__kkt_pairs[{{ nkkt_pairs }}][2] = {
{{ kkt_pairs }}
};
static const int {{ name }}__kkt_row_first[{{ NAME }}_NC + 1] = {
{{ kkt_row_first }}
};

{% endif %}
/* X <- (G + mu I)^-1 X for X of NC rows of NV columns: {{ name }}__kkt_solve's steps (Lc^-T,
 * Dc^-1, Lc^-1, each entry's terms in its order) on whole rows, which vectorise over the
 * columns; a column at a time, the solves took most of the derivatives' time. */
static void {{ name }}__kkt_solve_rows(const {{ name }}_data *d, cdyn_real *X)
{
    int i, c;
{% if nkkt_pairs %}
    int t;
    for (i = {{ NAME }}_NC - 1; i >= 0; --i)
        for (t = {{ name }}__kkt_row_first[i]; t < {{ name }}__kkt_row_first[i + 1]; ++t)
            {{ name }}__row_axpy(X + {{ name }}__kkt_pairs[t][1] * {{ NAME }}_NV,
                           d->Gl[i * {{ NAME }}_NC + {{ name }}__kkt_pairs[t][1]], X + i * {{ NAME }}_NV);
{% endif %}
    for (i = 0; i < {{ NAME }}_NC; ++i) {
        const cdyn_real f = d->GDinv[i];
        for (c = 0; c < {{ NAME }}_NV; ++c)
            X[i * {{ NAME }}_NV + c] = X[i * {{ NAME }}_NV + c] * f;
    }
{% if nkkt_pairs %}
    for (i = 0; i < {{ NAME }}_NC; ++i)
        for (t = {{ name }}__kkt_row_first[i]; t < {{ name }}__kkt_row_first[i + 1]; ++t)
            {{ name }}__row_axpy(X + i * {{ NAME }}_NV, d->Gl[i * {{ NAME }}_NC + {{ name }}__kkt_pairs[t][1]],
                           X + {{ name }}__kkt_pairs[t][1] * {{ NAME }}_NV);
{% endif %}
}

/* A <- G^-1 A (NC x NV) by proximal iterations on the factor of G + mu I the solve left,
 * (G + mu I) X_k+1 = A + mu X_k from X_0 = 0 (Pinocchio's), as their steps
 * W_k = mu (G + mu I)^-1 W_k-1 added up, until a step moves no entry by more than a few
 * roundings of the largest, or max_iter steps. */
static void {{ name }}__g_inverse_rows({{ name }}_data *d, const cdyn_prox_settings *s, cdyn_real *A)
{
    cdyn_real *W = d->deriv_W;
    int it, k;
    {{ name }}__kkt_solve_rows(d, A);
    for (k = 0; k < {{ NAME }}_NC * {{ NAME }}_NV; ++k)
        W[k] = A[k];
    for (it = 1; it < s->max_iter; ++it) {
        cdyn_real step = 0, size = 0;
        for (k = 0; k < {{ NAME }}_NC * {{ NAME }}_NV; ++k)
            W[k] = s->mu * W[k];
        {{ name }}__kkt_solve_rows(d, W);
        for (k = 0; k < {{ NAME }}_NC * {{ NAME }}_NV; ++k) {
            const cdyn_real w = W[k] < 0 ? -W[k] : W[k];
            A[k] += W[k];
            step = w > step ? w : step;
            size = (A[k] < 0 ? -A[k] : A[k]) > size ? (A[k] < 0 ? -A[k] : A[k]) : size;
        }
        if (!(step > 4 * CDYN_EPS * size)) /* a NaN stops too: the caller sees it */
            break;
    }
}

/* One variable's derivatives: R (NV x NV) = d(M ddq + nle - J^T lambda) and A (NC x NV) =
 * d(J ddq + gamma) in; dlambda = G^-1 (J M^-1 R - A) into A, dddq = M^-1 (J^T dlambda - R)
 * = L^-1 (B dlambda - D^-1 L^-T R) into R (J M^-1 = B^T L^-T, B = D^-1 L^-T J^T). */
static void {{ name }}__kkt_columns({{ name }}_data *d, const cdyn_prox_settings *s, cdyn_real *R,
                              cdyn_real *A)
{
    int t, k;
{% if nltl_pairs %}
    {{ name }}__solve_lt_rows(d, R, {{ name }}__subtree_end); /* R is zero off each DoF's branch */
{% else %}
    {{ name }}__solve_lt_rows(d, R, 0);
{% endif %}
    for (k = 0; k < {{ NAME }}_NC * {{ NAME }}_NV; ++k)
        A[k] = -A[k];
    for (t = 0; t < {{ ncon_pairs }}; ++t)
        {{ name }}__row_axpy(A + {{ name }}__con_pairs[t][0] * {{ NAME }}_NV, -d->B[{{ name }}__con_pairs[t][2]],
                       R + {{ name }}__con_pairs[t][1] * {{ NAME }}_NV);
    {{ name }}__g_inverse_rows(d, s, A);
    {{ name }}__scale_d_rows(d, R, -1);
    for (t = 0; t < {{ ncon_pairs }}; ++t)
        {{ name }}__row_axpy(R + {{ name }}__con_pairs[t][1] * {{ NAME }}_NV, -d->B[{{ name }}__con_pairs[t][2]],
                       A + {{ name }}__con_pairs[t][0] * {{ NAME }}_NV);
    {{ name }}__solve_l_rows(d, R);
}

int {{ name }}_prox_ltl_derivatives({{ name }}_data *d, const cdyn_prox_settings *settings,
                              const cdyn_real *q, const cdyn_real *v, const cdyn_real *ddq,
                              const cdyn_real *lambda, cdyn_real *ddq_dq, cdyn_real *ddq_dv,
                              cdyn_real *ddq_dtau, cdyn_real *lambda_dq, cdyn_real *lambda_dv,
                              cdyn_real *lambda_dtau)
{
    int k;
    if (!{{ name }}__settings_ok(settings) || !q || !v || !ddq || !lambda || !ddq_dq || !ddq_dv ||
        !ddq_dtau || !lambda_dq || !lambda_dv || !lambda_dtau)
        return CDYN_E_ARG;
    for (k = 0; k < {{ NAME }}_NCONSTRAINTS; ++k) /* Baumgarte's terms are not differentiated */
        if ((settings->Kp && settings->Kp[k] != 0) || (settings->Kd && settings->Kd[k] != 0))
            return CDYN_E_ARG;
    for (k = 0; k < {{ NAME }}_NC * {{ NAME }}_NV; ++k) {
        lambda_dq[k] = 0;
        lambda_dv[k] = 0;
        lambda_dtau[k] = 0;
    }
    {{ name }}__constrained_derivative_terms(d, q, v, ddq, lambda, lambda_dq, lambda_dv);
    {{ name }}__derivative_entries(d, ddq_dq, ddq_dv);
    {{ name }}__kkt_columns(d, settings, ddq_dq, lambda_dq);
    {{ name }}__kkt_columns(d, settings, ddq_dv, lambda_dv);
    for (k = 0; k < {{ NAME }}_NV * {{ NAME }}_NV; ++k)
        ddq_dtau[k] = 0;
    for (k = 0; k < {{ NAME }}_NV; ++k)
        ddq_dtau[k * {{ NAME }}_NV + k] = -1;
    {{ name }}__kkt_columns(d, settings, ddq_dtau, lambda_dtau);
    return {{ name }}__finite(ddq_dq, {{ NAME }}_NV * {{ NAME }}_NV) &&
                   {{ name }}__finite(ddq_dv, {{ NAME }}_NV * {{ NAME }}_NV) &&
                   {{ name }}__finite(ddq_dtau, {{ NAME }}_NV * {{ NAME }}_NV) &&
                   {{ name }}__finite(lambda_dq, {{ NAME }}_NC * {{ NAME }}_NV) &&
                   {{ name }}__finite(lambda_dv, {{ NAME }}_NC * {{ NAME }}_NV) &&
                   {{ name }}__finite(lambda_dtau, {{ NAME }}_NC * {{ NAME }}_NV)
               ? 0
               : CDYN_E_NONFINITE;
}
{% endif %}
