{# NAME.c's contact step (cdyn_contact.h), included by robot.c.tpl for a robot with a
   constraint set or --joint-limits: the robot-specific parts of the step's problem (J,
   J M^-1 J^T, the limits' M^-1 columns, the free velocity), from one kinematic pass and M's
   sparse factor; the assembly and the cone solvers are the runtime's. #}
/* ==== the contact step ==== */
{% if constraints %}

static const int {{ name }}__con_dims[{{ ncon }}] = { {% for c in constraints %}{{ c.dim }}{% if not loop.last %}, {% endif %}{% endfor %} };
static const int {{ name }}__con_friction[{{ ncon }}] = { {% for c in constraints %}{{ c.friction }}{% if not loop.last %}, {% endif %}{% endfor %} };
{% for c in constraints %}
static const int {{ name }}__support_{{ c.index }}[{{ c.nsupport }}] = { {{ c.support }} };
{% endfor %}
{% endif %}

static const cdyn_contact_layout {{ name }}__contact_layout = {
    {{ ncon }}, {% if constraints %}{{ name }}__con_dims, {{ name }}__con_friction{% else %}0, 0{% endif %},
    {{ nlimits }}, {% if has_limits %}{{ name }}_joint_limits{% else %}0{% endif %}, {{ NAME }}_NV
};

int {{ name }}_contact_view({{ name }}_data *d, cdyn_contact_problem *p)
{
    if (!d || !p)
        return CDYN_E_ARG;
    return cdyn_contact_problem_attach(p, &{{ name }}__contact_layout, d->contact_buf, sizeof d->contact_buf);
}

size_t {{ name }}_data_size(void)
{
    return sizeof({{ name }}_data);
}

int {{ name }}_contact_reset({{ name }}_data *d)
{
    cdyn_contact_problem p;
    if (!d)
        return CDYN_E_ARG;
    return cdyn_contact_problem_init(&p, &{{ name }}__contact_layout, d->contact_buf, sizeof d->contact_buf);
}
{% if constraints %}

/* The dense J (rows in each frame A's axes) from the compact one on the supports. */
static void {{ name }}__contact_jacobian(const {{ name }}_data *d, cdyn_real *J)
{
    int k, a;
    for (k = 0; k < {{ NAME }}_NC * {{ NAME }}_NV; ++k)
        J[k] = 0;
{% for c in constraints %}
    for (a = 0; a < {{ c.dim }}; ++a)
        for (k = 0; k < {{ c.nsupport }}; ++k)
            J[({{ c.row }} + a) * {{ NAME }}_NV + {{ name }}__support_{{ c.index }}[k]] = d->Jc[{{ c.offset }} + a * {{ c.nsupport }} + k];
{% endfor %}
}
{% endif %}

/* The step's problem into p, a view of d's buffer: the robot's terms, then the assembly. */
static int {{ name }}__contact_terms({{ name }}_data *d, cdyn_contact_problem *p,
                 const cdyn_contact_settings *settings, const cdyn_real *q, const cdyn_real *v,
                 const cdyn_real *tau)
{
    int k;
{% if has_limits %}
    int l;
{% endif %}
    if (!settings || !q || !v || !tau)
        return CDYN_E_ARG;
    if (!{{ name }}__finite(q, {{ NAME }}_NQ) || !{{ name }}__finite(v, {{ NAME }}_NV) || !{{ name }}__finite(tau, {{ NAME }}_NV))
        return CDYN_E_NONFINITE;
{% if constraints %}
    /* one kinematic pass: M, nle, J on the supports and the frames' placements */
    {{ name }}__constraint_terms(d, q, v);
    if ({{ name }}_ltl(d) != 0)
        return CDYN_E_SINGULAR;
    {{ name }}__delassus(d, 0, p->Gset);
    {{ name }}__contact_jacobian(d, p->J);
    for (k = 0; k < {{ NAME }}_NV; ++k)
        p->vf[k] = tau[k] - d->nle[k];
{% else %}
    {{ name }}_nle(d, q, v, p->vf);
    for (k = 0; k < {{ NAME }}_NV; ++k)
        p->vf[k] = tau[k] - p->vf[k];
    {{ name }}_crba(d, q, 0);
    if ({{ name }}_ltl(d) != 0)
        return CDYN_E_SINGULAR;
{% endif %}
    {{ name }}_ltl_solve(d, p->vf); /* the free velocity v + dt M^-1 (tau - nle) */
    for (k = 0; k < {{ NAME }}_NV; ++k)
        p->vf[k] = v[k] + settings->dt * p->vf[k];
{% if has_limits %}
    for (l = 0; l < {{ nlimits }}; ++l) { /* M^-1 e_k for each limited DoF k */
        cdyn_real *y = p->Y + l * {{ NAME }}_NV;
        for (k = 0; k < {{ NAME }}_NV; ++k)
            y[k] = 0;
        y[{{ name }}_joint_limits[l].idx_v] = 1;
        {{ name }}_ltl_solve(d, y);
    }
{% endif %}
    return cdyn_contact_assemble(p, settings, q, {% if constraints %}&d->con_a_R[0][0], &d->con_a_p[0][0]{% else %}0, 0{% endif %}, v, p->vf);
}

int {{ name }}_contact_problem({{ name }}_data *d, const cdyn_contact_settings *settings, const cdyn_real *q,
                 const cdyn_real *v, const cdyn_real *tau)
{
    cdyn_contact_problem p;
    if ({{ name }}_contact_view(d, &p) != CDYN_OK)
        return CDYN_E_ARG;
    return {{ name }}__contact_terms(d, &p, settings, q, v, tau);
}

int {{ name }}_contact_solve({{ name }}_data *d, const cdyn_contact_settings *settings)
{
    cdyn_contact_problem p;
    if ({{ name }}_contact_view(d, &p) != CDYN_OK)
        return CDYN_E_ARG;
    return cdyn_contact_solve(&p, settings);
}

int {{ name }}_contact_step({{ name }}_data *d, const cdyn_contact_settings *settings, const cdyn_real *q,
                 const cdyn_real *v, const cdyn_real *tau, cdyn_real *q_next, cdyn_real *v_next)
{
    cdyn_contact_problem p;
    int k, it;
    if (!q_next || !v_next || {{ name }}_contact_view(d, &p) != CDYN_OK)
        return CDYN_E_ARG;
    it = {{ name }}__contact_terms(d, &p, settings, q, v, tau);
    if (it != CDYN_OK)
        return it;
    it = cdyn_contact_solve(&p, settings);
    if (it < 0 && it != CDYN_E_NOT_CONVERGED)
        return it;
    /* v+ = v_f + M^-1 J^T lambda, with the factor of M the problem left */
    for (k = 0; k < {{ NAME }}_NV; ++k)
        p.scratch[k] = p.impulse[k];
    {{ name }}_ltl_solve(d, p.scratch);
    for (k = 0; k < {{ NAME }}_NV; ++k)
        v_next[k] = p.vf[k] + p.scratch[k];
    {{ name }}_integrate(q, v_next, settings->dt, q_next);
{% if has_bilateral %}
    if (settings->project) { /* seed 003: back onto the bilateral constraints' manifold */
        int pr = {{ name }}_project_position(d, 0, q_next, q_next);
        if (pr >= 0)
            pr = {{ name }}_project_velocity(d, 0, q_next, v_next, v_next);
        if (pr < 0)
            return pr;
    }
{% endif %}
    return it;
}
