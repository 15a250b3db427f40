/* cdyn_contact.c — the contact step's problem (cdyn_contact.h): from the set's J and
 * Delassus matrix, the frames' placements and the free velocity, the cone complementarity
 * problem over this step's active contacts; its solve; and the generic step over a model
 * table (cdyn_contact_step). The generated R_contact_step calls the same assembly and
 * solve with its own J, G and ABA, so both take the same path to rounding. */
#include "cdyn.h"
#include "cdyn_internal.h"

#include <stdint.h>

static int finite(cdyn_real x)
{
    return x - x == 0; /* NaN - NaN and inf - inf are NaN */
}

static int all_finite(const cdyn_real *x, int n)
{
    cdyn_real s = 0;
    for (int k = 0; k < n; ++k)
        s += x[k] - x[k];
    return s == 0;
}

/* Points p's arrays into buf (the layout of CDYN_CONTACT_PROBLEM_BYTES) and refills what
 * the set decides: rows, blocks' kinds and sizes; the active flags are read back (as 0 or
 * 1), so a buffer of unknown bytes gives a consistent, in-bounds problem. */
static cdyn_status carve(cdyn_contact_problem *p, const int *dims, const int *friction, int n,
                         int nv, void *buf, size_t bytes)
{
    int nc = 0;
    if (!p || !dims || !friction || !buf || n < 1 || nv < 1)
        return CDYN_E_ARG;
    for (int k = 0; k < n; ++k) {
        if (dims[k] < 1 || dims[k] > 6 || (friction[k] != 0 && friction[k] != 1) ||
            (friction[k] && dims[k] != 3))
            return CDYN_E_ARG;
        nc += dims[k];
    }
    if (bytes < CDYN_CONTACT_PROBLEM_BYTES(n, nc, nv))
        return CDYN_E_SIZE;
    const size_t un = (size_t)n, unc = (size_t)nc;
    const size_t mis = (size_t)((uintptr_t)buf % sizeof(cdyn_real));
    cdyn_real *next = (cdyn_real *)(void *)((char *)buf + (mis ? sizeof(cdyn_real) - mis : 0));
    p->n = n;
    p->nc = nc;
    p->nv = nv;
    p->J = cdyn__carve(&next, unc * (size_t)nv);
    p->Gset = cdyn__carve(&next, unc * unc);
    p->G = cdyn__carve(&next, unc * unc);
    p->basis = cdyn__carve(&next, 9 * un);
    p->T = cdyn__carve(&next, 9 * un);
    p->phi = cdyn__carve(&next, un);
    p->bound = cdyn__carve(&next, un);
    p->Jv = cdyn__carve(&next, unc);
    p->Jvf = cdyn__carve(&next, unc);
    p->g = cdyn__carve(&next, unc);
    p->x = cdyn__carve(&next, unc);
    p->y = cdyn__carve(&next, unc);
    p->lambda = cdyn__carve(&next, unc);
    p->c = cdyn__carve(&next, unc);
    p->impulse = cdyn__carve(&next, (size_t)nv);
    p->work = cdyn__carve(&next, CDYN_CONE_WORK_REALS(nc));
    p->stats = (cdyn_cone_stats *)(void *)next;
    p->cones = (cdyn_cone *)(void *)(p->stats + 1);
    p->step_cones = p->cones + n;
    int *ints = (int *)(void *)(p->step_cones + n);
    p->block_row = ints;
    p->set_row = ints + n;
    p->active = ints + 2 * n;
    p->m = p->ncones = 0;
    for (int k = 0, row = 0; k < n; row += dims[k], ++k) {
        p->set_row[k] = row;
        p->cones[k].kind = friction[k] ? CDYN_CONE_FRICTION : CDYN_CONE_FREE;
        p->cones[k].dim = dims[k];
        p->active[k] = p->active[k] == 1;
        p->block_row[k] = p->active[k] ? p->m : -1;
        if (p->active[k]) {
            p->m += dims[k];
            p->ncones++;
        }
    }
    return CDYN_OK;
}

cdyn_status cdyn_contact_problem_init(cdyn_contact_problem *p, const int *dims,
                                      const int *friction, int n, int nv, void *buf, size_t bytes)
{
    const cdyn_status st = carve(p, dims, friction, n, nv, buf, bytes);
    if (st != CDYN_OK)
        return st;
    for (int k = 0; k < n; ++k) {
        p->active[k] = 0;
        p->block_row[k] = -1;
        p->cones[k].mu = 0;
    }
    p->m = p->ncones = 0;
    for (int r = 0; r < p->nc; ++r)
        p->lambda[r] = 0;
    p->stats->iterations = 0;
    p->stats->primal = p->stats->dual = p->stats->complementarity = 0;
    p->stats->change = p->stats->rho = 0;
    return CDYN_OK;
}

cdyn_status cdyn_contact_problem_attach(cdyn_contact_problem *p, const int *dims,
                                        const int *friction, int n, int nv, void *buf,
                                        size_t bytes)
{
    return carve(p, dims, friction, n, nv, buf, bytes);
}

/* ---- assembly ----------------------------------------------------------------------- */

static int settings_ok(const cdyn_contact_settings *s, int n)
{
    if (!(s->dt > 0) || !finite(s->dt) || !(s->margin >= 0) || !finite(s->margin) ||
        !(s->stabilisation >= 0 && s->stabilisation <= 1) || !finite(s->ground_height))
        return 0;
    if (!s->mu && !(s->friction >= 0 && finite(s->friction)))
        return 0;
    for (int k = 0; k < n; ++k) {
        if (s->mu && !(s->mu[k] >= 0 && finite(s->mu[k])))
            return 0;
        if (s->restitution && !(s->restitution[k] >= 0 && s->restitution[k] <= 1))
            return 0;
        if (s->radius && !finite(s->radius[k]))
            return 0;
    }
    return s->solver == CDYN_CONTACT_ADMM || s->solver == CDYN_CONTACT_PGS;
}

/* The world normal of contact k, unit; 0 if the caller's is zero or not finite. */
static int contact_normal(const cdyn_contact_settings *s, int k, cdyn_real nrm[3])
{
    if (!s->normal) {
        nrm[0] = nrm[1] = 0;
        nrm[2] = 1;
        return 1;
    }
    const cdyn_real *u = s->normal + 3 * k;
    const cdyn_real len2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    if (!(len2 > 0) || !finite(len2))
        return 0;
    const cdyn_real inv = 1 / sqrt(len2);
    for (int i = 0; i < 3; ++i)
        nrm[i] = u[i] * inv;
    return 1;
}

/* Rows t1, t2, n of the contact basis: t1 the frame's x axis (a column of the row-major
 * world rotation R) made orthogonal to n, or its y axis when x is within ~6 degrees of n
 * (the nearer of the two is then far from n: they are orthogonal). */
static void contact_basis(const cdyn_real R[9], const cdyn_real nrm[3], cdyn_real B[9])
{
    cdyn_real t[3];
    for (int axis = 0; axis < 2; ++axis) {
        const cdyn_real a[3] = { R[axis], R[3 + axis], R[6 + axis] };
        const cdyn_real an = a[0] * nrm[0] + a[1] * nrm[1] + a[2] * nrm[2];
        for (int i = 0; i < 3; ++i)
            t[i] = a[i] - an * nrm[i];
        if (t[0] * t[0] + t[1] * t[1] + t[2] * t[2] > CDYN_R(1e-2))
            break;
    }
    const cdyn_real inv = 1 / sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
    for (int i = 0; i < 3; ++i) {
        B[i] = t[i] * inv;
        B[6 + i] = nrm[i];
    }
    cdyn_cross3(B + 3, B + 6, B); /* t2 = n x t1 */
}

/* T = B R: frame A's components to the basis's (B's rows are world vectors). */
static void basis_from_frame(const cdyn_real B[9], const cdyn_real R[9], cdyn_real T[9])
{
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            T[3 * r + c] = B[3 * r] * R[c] + B[3 * r + 1] * R[3 + c] + B[3 * r + 2] * R[6 + c];
}

/* y = T x for a frictional contact's 3 rows, y = x for a bilateral constraint's (T NULL);
 * transposed: y = T^T x. */
static void rotate(const cdyn_real *T, int dim, int transposed, const cdyn_real *x, cdyn_real *y)
{
    if (!T) {
        for (int i = 0; i < dim; ++i)
            y[i] = x[i];
        return;
    }
    cdyn_real t[3];
    for (int i = 0; i < 3; ++i)
        t[i] = transposed ? T[i] * x[0] + T[3 + i] * x[1] + T[6 + i] * x[2]
                          : T[3 * i] * x[0] + T[3 * i + 1] * x[1] + T[3 * i + 2] * x[2];
    y[0] = t[0];
    y[1] = t[1];
    y[2] = t[2];
}

static const cdyn_real *rotation_of(const cdyn_contact_problem *p, int k)
{
    return p->cones[k].kind == CDYN_CONE_FRICTION ? p->T + 9 * k : 0;
}

/* Geometry of frictional contact k: normal, basis, T, phi; CDYN_E_ARG for a zero normal,
 * CDYN_E_NONFINITE for a NaN. */
static cdyn_status contact_geometry(cdyn_contact_problem *p, const cdyn_contact_settings *s, int k,
                                    const cdyn_real *R, const cdyn_real *pos)
{
    cdyn_real nrm[3];
    if (!contact_normal(s, k, nrm))
        return s->normal && !all_finite(s->normal + 3 * k, 3) ? CDYN_E_NONFINITE : CDYN_E_ARG;
    if (!all_finite(R, 9) || !all_finite(pos, 3))
        return CDYN_E_NONFINITE;
    const cdyn_real radius = s->radius ? s->radius[k] : 0;
    cdyn_real phi = s->phi ? s->phi[k]
                           : nrm[0] * pos[0] + nrm[1] * pos[1] + nrm[2] * (pos[2] - s->ground_height) -
                                 radius;
    if (!finite(phi))
        return CDYN_E_NONFINITE;
    p->phi[k] = phi;
    contact_basis(R, nrm, p->basis + 9 * k);
    basis_from_frame(p->basis + 9 * k, R, p->T + 9 * k);
    p->cones[k].mu = s->mu ? s->mu[k] : s->friction;
    return CDYN_OK;
}

/* b: the normal velocity the contact must reach (seed 002's -phi/dt, a fraction of it when
 * penetrating, restitution's -e v_n when it arrives within the step). */
static cdyn_real normal_bound(const cdyn_contact_settings *s, int k, cdyn_real phi, cdyn_real vn)
{
    cdyn_real b = phi >= 0 ? -phi / s->dt : -s->stabilisation * phi / s->dt;
    const cdyn_real e = s->restitution ? s->restitution[k] : 0;
    if (e > 0 && vn < 0 && phi + s->dt * vn <= 0 && -e * vn > b)
        b = -e * vn;
    return b;
}

/* G's block (i, j) of the step's problem: T_i Gset_ij T_j^T. */
static void delassus_block(cdyn_contact_problem *p, int i, int j)
{
    const int di = p->cones[i].dim, dj = p->cones[j].dim, nc = p->nc, m = p->m;
    const cdyn_real *Ti = rotation_of(p, i), *Tj = rotation_of(p, j);
    cdyn_real col[6] = { 0 }, rot[6] = { 0 }, blk[6][6];
    for (int b = 0; b < dj; ++b) { /* column b of Gset_ij, rotated by T_i */
        for (int a = 0; a < di; ++a)
            col[a] = p->Gset[(size_t)(p->set_row[i] + a) * nc + p->set_row[j] + b];
        rotate(Ti, di, 0, col, rot);
        for (int a = 0; a < di; ++a)
            blk[a][b] = rot[a];
    }
    for (int a = 0; a < di; ++a) { /* each row, rotated by T_j */
        rotate(Tj, dj, 0, blk[a], rot);
        for (int b = 0; b < dj; ++b)
            p->G[(size_t)(p->block_row[i] + a) * m + p->block_row[j] + b] = rot[b];
    }
}

cdyn_status cdyn_contact_assemble(cdyn_contact_problem *p, const cdyn_contact_settings *s,
                                  const cdyn_real *aR, const cdyn_real *ap, const cdyn_real *v,
                                  const cdyn_real *vf)
{
    if (!p || !s || !aR || !ap || !v || !vf)
        return CDYN_E_ARG;
    if (!settings_ok(s, p->n))
        return s->dt - s->dt != 0 ? CDYN_E_NONFINITE : CDYN_E_ARG;
    const int nc = p->nc, nv = p->nv;
    if (!all_finite(v, nv) || !all_finite(vf, nv) || !all_finite(p->J, nc * nv) ||
        !all_finite(p->Gset, nc * nc))
        return CDYN_E_NONFINITE;
    for (int k = 0; k < p->n; ++k) {
        if (p->cones[k].kind != CDYN_CONE_FRICTION) {
            p->active[k] = 1;
            continue;
        }
        const cdyn_status st = contact_geometry(p, s, k, aR + 9 * k, ap + 3 * k);
        if (st != CDYN_OK)
            return st;
    }
    for (int r = 0; r < nc; ++r) { /* J v and J v_f in the frames' axes */
        cdyn_real a = 0, b = 0;
        for (int j = 0; j < nv; ++j) {
            a += p->J[(size_t)r * nv + j] * v[j];
            b += p->J[(size_t)r * nv + j] * vf[j];
        }
        p->Jv[r] = a;
        p->Jvf[r] = b;
    }
    p->m = p->ncones = 0;
    for (int k = 0; k < p->n; ++k) { /* rotate into the bases, number the active blocks */
        const int d = p->cones[k].dim, r = p->set_row[k];
        rotate(rotation_of(p, k), d, 0, p->Jv + r, p->Jv + r);
        rotate(rotation_of(p, k), d, 0, p->Jvf + r, p->Jvf + r);
        if (p->cones[k].kind == CDYN_CONE_FRICTION) /* within the margin, or brought there */
            p->active[k] = p->phi[k] <= s->margin || p->phi[k] + s->dt * p->Jvf[r + 2] <= s->margin;
        p->block_row[k] = p->active[k] ? p->m : -1;
        if (p->active[k]) {
            p->m += d;
            p->ncones++;
        }
    }
    for (int i = 0; i < p->n; ++i) {
        if (!p->active[i])
            continue;
        for (int j = 0; j < p->n; ++j)
            if (p->active[j])
                delassus_block(p, i, j);
        const int d = p->cones[i].dim, r = p->set_row[i], row = p->block_row[i];
        for (int a = 0; a < d; ++a)
            p->g[row + a] = p->Jvf[r + a];
        if (p->cones[i].kind == CDYN_CONE_FRICTION) {
            p->bound[i] = normal_bound(s, i, p->phi[i], p->Jv[r + 2]);
            p->g[row + 2] -= p->bound[i];
        }
    }
    return CDYN_OK;
}

/* ---- the solve ---------------------------------------------------------------------- */

/* The active blocks' cones, packed (p->cones keeps every constraint's, in set order). */
static int active_cones(const cdyn_contact_problem *p, cdyn_cone *out)
{
    int n = 0;
    for (int k = 0; k < p->n; ++k)
        if (p->active[k])
            out[n++] = p->cones[k];
    return n;
}

static void clear_results(cdyn_contact_problem *p)
{
    for (int r = 0; r < p->nc; ++r)
        p->lambda[r] = p->c[r] = 0;
    for (int j = 0; j < p->nv; ++j)
        p->impulse[j] = 0;
}

/* lambda, c and the impulse from the solver's x: lambda in the set's layout, the velocities
 * J v+ = J v_f + Gset lambda_A of every row (left-out contacts too), J^T lambda_A. */
static void scatter_results(cdyn_contact_problem *p)
{
    const int nc = p->nc, nv = p->nv;
    cdyn_real *lambdaA = p->y; /* the solver's c is no longer needed */
    for (int k = 0; k < p->n; ++k) {
        const int d = p->cones[k].dim, r = p->set_row[k], b = p->block_row[k];
        for (int a = 0; a < d; ++a)
            p->lambda[r + a] = b >= 0 ? p->x[b + a] : 0;
    }
    for (int k = 0; k < p->n; ++k)
        rotate(rotation_of(p, k), p->cones[k].dim, 1, p->lambda + p->set_row[k],
               lambdaA + p->set_row[k]);
    for (int r = 0; r < nc; ++r) {
        cdyn_real s = 0;
        for (int j = 0; j < nc; ++j)
            s += p->Gset[(size_t)r * nc + j] * lambdaA[j];
        p->c[r] = s;
    }
    for (int k = 0; k < p->n; ++k) {
        const int r = p->set_row[k];
        rotate(rotation_of(p, k), p->cones[k].dim, 0, p->c + r, p->c + r);
        for (int a = 0; a < p->cones[k].dim; ++a)
            p->c[r + a] += p->Jvf[r + a];
    }
    for (int j = 0; j < nv; ++j) {
        cdyn_real s = 0;
        for (int r = 0; r < nc; ++r)
            s += p->J[(size_t)r * nv + j] * lambdaA[r];
        p->impulse[j] = s;
    }
}

int cdyn_contact_solve(cdyn_contact_problem *p, const cdyn_contact_settings *s)
{
    if (!p || !s || (s->solver != CDYN_CONTACT_ADMM && s->solver != CDYN_CONTACT_PGS))
        return CDYN_E_ARG;
    p->stats->iterations = 0;
    p->stats->primal = p->stats->dual = p->stats->complementarity = p->stats->change = 0;
    if (p->m == 0) {
        clear_results(p);
        scatter_results(p);
        return 0;
    }
    cdyn_cone *cones = p->step_cones;
    const int ncones = active_cones(p, cones);
    for (int k = 0; k < p->n; ++k) /* warm start: the last step's lambda of these contacts */
        if (p->active[k])
            for (int a = 0; a < p->cones[k].dim; ++a)
                p->x[p->block_row[k] + a] = s->cone.warm_start ? p->lambda[p->set_row[k] + a] : 0;
    const int it = s->solver == CDYN_CONTACT_ADMM
                       ? cdyn_cone_admm(cones, ncones, p->G, p->g, &s->cone, p->x, p->y, p->work,
                                        p->stats)
                       : cdyn_cone_pgs(cones, ncones, p->G, p->g, &s->cone, p->x, p->y, p->work,
                                       p->stats);
    if (it < 0 && it != CDYN_E_NOT_CONVERGED) {
        clear_results(p);
        return it;
    }
    scatter_results(p);
    return it;
}

/* ---- the generic step ----------------------------------------------------------------- */

static int problem_matches(const cdyn_constraint_data *cd, const cdyn_contact_problem *p, int nv)
{
    if (p->n != cd->n || p->nc != cd->nc || p->nv != nv)
        return 0;
    for (int k = 0; k < cd->n; ++k)
        if (p->cones[k].dim != cd->set[k].dim ||
            (p->cones[k].kind == CDYN_CONE_FRICTION) != (cd->set[k].friction == 1))
            return 0;
    return 1;
}

cdyn_status cdyn_contact_problem_build(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                                       cdyn_contact_problem *p, const cdyn_contact_settings *s,
                                       const cdyn_real *q, const cdyn_real *v, const cdyn_real *tau)
{
    if (cdyn__check_cd(m, d, cd) || !p || !s || !q || !v || !tau || !problem_matches(cd, p, m->nv))
        return CDYN_E_ARG;
    if (!(s->dt > 0))
        return s->dt - s->dt != 0 ? CDYN_E_NONFINITE : CDYN_E_ARG;
    if (!all_finite(q, m->nq) || !all_finite(v, m->nv) || !all_finite(tau, m->nv))
        return CDYN_E_NONFINITE;
    cdyn_status st = cdyn_constraint_jacobian(m, d, cd, q, p->J);
    if (st == CDYN_OK)
        st = cdyn_delassus(m, d, cd, q, 0, p->Gset);
    if (st == CDYN_OK)
        st = cdyn_aba(m, d, q, v, tau, cd->zd); /* zd: free scratch of nv between solves */
    if (st != CDYN_OK)
        return st;
    cdyn_real *vf = cd->u0;
    for (int j = 0; j < m->nv; ++j)
        vf[j] = v[j] + s->dt * cd->zd[j];
    return cdyn_contact_assemble(p, s, cd->aR, cd->ap, v, vf);
}

int cdyn_contact_step(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                      cdyn_contact_problem *p, const cdyn_contact_settings *s, const cdyn_real *q,
                      const cdyn_real *v, const cdyn_real *tau, cdyn_real *q_next,
                      cdyn_real *v_next)
{
    if (!q_next || !v_next)
        return CDYN_E_ARG;
    const cdyn_status built = cdyn_contact_problem_build(m, d, cd, p, s, q, v, tau);
    if (built != CDYN_OK)
        return built;
    const int it = cdyn_contact_solve(p, s);
    if (it < 0 && it != CDYN_E_NOT_CONVERGED)
        return it;
    cdyn_real *tau_c = cd->zd, *acc = cd->u0; /* tau + J^T lambda / dt, then v+'s ddq */
    for (int j = 0; j < m->nv; ++j)
        tau_c[j] = tau[j] + p->impulse[j] / s->dt;
    const cdyn_status st = cdyn_aba(m, d, q, v, tau_c, acc);
    if (st != CDYN_OK)
        return st;
    for (int j = 0; j < m->nv; ++j)
        v_next[j] = v[j] + s->dt * acc[j];
    cdyn_integrate(m, q, v_next, s->dt, q_next);
    return it;
}
