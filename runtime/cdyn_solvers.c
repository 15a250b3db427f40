/* cdyn_solvers.c — three more constrained forward-dynamics solvers beside proxLTL
 * (cdyn_constrained.c), over the same constraint sets and conventions (cdyn.h):
 *
 *  - cdyn_prox_ltls: the augmented Lagrangian method (ALM) in joint space (Carpentier,
 *    Budhiraja, Mansard 2021, eq. 10): M + rho J^T J factorised once, each step solved, the
 *    last one refined once;
 *  - cdyn_constrained_aba: the same ALM in body coordinates: each contact's penalty folded
 *    into ABA's articulated inertias, each step an O(nv) update of the bias forces;
 *  - cdyn_prox_pv: Popov-Vereshchagin: ABA's sweeps accumulate G = J M^-1 J^T and the free
 *    constraint acceleration, then proxLTL's factorisation and iterations.
 *
 * All compute the proximal iterates (G + mu I) lambda_k+1 = r + mu lambda_k. With
 * rho = 1/mu, the ALM step ddq = argmin of the augmented Lagrangian,
 *   (M + rho J^T J) ddq = tau - nle + J^T (lambda_k - rho (gamma - a*)),
 *   lambda_k+1 = lambda_k - rho (J ddq + gamma - a*),
 * gives M ddq + nle = tau + J^T lambda_k+1, hence J ddq + gamma - a* = G lambda_k+1 - r, and
 * the update is the proximal step; the change of lambda is rho ||J ddq + gamma - a*||, so
 * the residuals are kept as cdyn_prox_ltl keeps them.
 *
 * Body-coordinate notation: a contact k on body b with frame placement (R_f, p_f) in b
 * has K = the first dim rows of the motion transform X_{f<-b}, so the frame's
 * acceleration rows are K a_b and K^T is the force transform from the frame to b. ABA's
 * a_b carries gravity as the base acceleration [-g; 0], so the constraint acceleration is
 * J ddq + gamma = K a_b + kappa with kappa = [R_{world->f}^T g; 0] (+ w_f x v_f for 3d, the
 * classical term). */
#include "cdyn_internal.h"

/* ---- shared ------------------------------------------------------------------------- */

static int cdyn__args_ok(const cdyn_model *m, const cdyn_data *d, const cdyn_constraint_data *cd,
                         const cdyn_prox_settings *s, const cdyn_real *q, const cdyn_real *v,
                         const cdyn_real *tau, const cdyn_real *ddq, const cdyn_real *lambda)
{
    return cdyn__check_cd(m, d, cd) == CDYN_OK && cdyn__settings_ok(s) && q && v && tau && ddq &&
           lambda;
}

/* 1 if no constraint of the set is a loop. */
static int cdyn__contacts_only(const cdyn_constraint_data *cd)
{
    for (int k = 0; k < cd->n; ++k)
        if (cd->set[k].frame_b >= 0)
            return 0;
    return 1;
}

static void cdyn__start(const cdyn_constraint_data *cd, const cdyn_prox_settings *s,
                        cdyn_real *lambda)
{
    if (!s->warm_start)
        for (int k = 0; k < cd->nc; ++k)
            lambda[k] = 0;
}

/* ||x - y||_inf, a NaN kept: the dual residual. */
static cdyn_real cdyn__max_change(const cdyn_real *x, const cdyn_real *y, int n)
{
    cdyn_real dual = 0;
    for (int k = 0; k < n; ++k) {
        const cdyn_real e = x[k] - y[k], a = e < 0 ? -e : e;
        if (!(a <= dual))
            dual = a;
    }
    return dual;
}

/* The ALM's multiplier step lambda -= rho r (lambda_k kept in cd->r); returns the dual
 * residual. */
static cdyn_real cdyn__alm_step(cdyn_constraint_data *cd, cdyn_real *lambda, const cdyn_real *r,
                                cdyn_real rho)
{
    for (int k = 0; k < cd->nc; ++k) {
        cd->r[k] = lambda[k];
        lambda[k] -= rho * r[k];
    }
    return cdyn__max_change(lambda, cd->r, cd->nc);
}

/* The iteration count, CDYN_E_NONFINITE, or CDYN_E_NOT_CONVERGED (the last iterate kept). */
static int cdyn__result(const cdyn_model *m, const cdyn_constraint_data *cd,
                        const cdyn_prox_settings *s, int it, const cdyn_real *ddq,
                        const cdyn_real *lambda)
{
    if (!cdyn__finite(ddq, m->nv) || !cdyn__finite(lambda, cd->nc))
        return CDYN_E_NONFINITE;
    return cdyn__prox_missed(cd, s) ? CDYN_E_NOT_CONVERGED : it;
}

/* ---- proxLTLs: the ALM in joint space ----------------------------------------------- */

/* out += J^T x, each row on its support. */
static void cdyn__jt_add(const cdyn_model *m, const cdyn_constraint_data *cd, const cdyn_real *x,
                         cdyn_real *out)
{
    const int nv = m->nv;
    for (int r = 0; r < cd->nc; ++r) {
        const int k = cdyn__constraint_of_row(cd, r), *s = cd->support + k * nv;
        const cdyn_real *J = cd->J + r * nv;
        for (int t = 0; t < cd->nsupport[k]; ++t)
            out[s[t]] += J[s[t]] * x[r];
    }
}

/* Mmu's lower triangle = M + rho J^T J; a row's support is ascending, so its pairs
 * (s[t], s[u <= t]) are below the diagonal. M's entries off the DoF ancestors are exact
 * zeros (cdyn_crba), which the factor skips. */
static void cdyn__ltls_matrix(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd,
                              cdyn_real rho)
{
    const int nv = m->nv;
    for (int i = 0; i < nv; ++i)
        for (int j = 0; j <= i; ++j)
            cd->Mmu[i * nv + j] = d->M[i * nv + j];
    for (int r = 0; r < cd->nc; ++r) {
        const int k = cdyn__constraint_of_row(cd, r), *s = cd->support + k * nv;
        const cdyn_real *J = cd->J + r * nv;
        for (int t = 0; t < cd->nsupport[k]; ++t) {
            const cdyn_real ji = rho * J[s[t]];
            for (int u = 0; u <= t; ++u)
                cd->Mmu[s[t] * nv + s[u]] += ji * J[s[u]];
        }
    }
}

/* u0 = tau - nle - rho J^T (gamma - a*): the right-hand side without lambda. */
static void cdyn__ltls_rhs(const cdyn_model *m, cdyn_constraint_data *cd, const cdyn_real *tau,
                           cdyn_real rho)
{
    for (int i = 0; i < m->nv; ++i)
        cd->u0[i] = tau[i] - cd->nle[i];
    for (int r = 0; r < cd->nc; ++r)
        cd->x[r] = -rho * (cd->gamma[r] - cd->astar[r]);
    cdyn__jt_add(m, cd, cd->x, cd->u0);
}

/* One step of iterative refinement of the ALM step (a zero step in exact arithmetic).
 * Forming M + rho J^T J rounds M's entries by ~eps rho ||J||^2, so the solve is off by up
 * to eps rho ||J||^2 / lambda_min(M) relative (1e-3 on light links) in the directions J
 * does not see. Given the step's lambda_k+1 = lambda_k - rho (J ddq + gamma - a*), the
 * residual of M ddq + nle = tau + J^T lambda_k+1 takes M and J apart (no rho in it); the
 * correction d = Mmu^-1 res is again an ALM step, so ddq += d, lambda_k+1 -= rho J d. */
static void cdyn__ltls_refine(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd,
                              const cdyn_real *tau, cdyn_real rho, cdyn_real *ddq,
                              cdyn_real *lambda)
{
    const int nv = m->nv;
    cdyn_real *res = cd->zd;
    for (int i = 0; i < nv; ++i) {
        cdyn_real y = tau[i] - cd->nle[i];
        for (int j = 0; j < nv; ++j)
            y -= d->M[i * nv + j] * ddq[j];
        res[i] = y;
    }
    cdyn__jt_add(m, cd, lambda, res);
    cdyn__ltdl_dense_solve(cd->Mmu, nv, res);
    for (int i = 0; i < nv; ++i)
        ddq[i] += res[i];
    for (int r = 0; r < cd->nc; ++r)
        lambda[r] -= rho * cdyn__row_times(m, cd, r, res);
}

/* Each iteration: the ALM step; the last one refined once (as a generated R_prox_ltls does):
 * an earlier step's rounding enters lambda only, which the last, exact step contracts by
 * mu (G + mu I)^-1. When the refined step misses a tolerance the unrefined one met, the
 * iterations go on, every step refined from then on: alternating, a residual at the
 * tolerance's rounding floor could pass unrefined and miss refined to max_iter. */
static int cdyn__ltls_iterate(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd,
                              const cdyn_prox_settings *s, const cdyn_real *tau, cdyn_real rho,
                              cdyn_real *ddq, cdyn_real *lambda)
{
    int refining = 0;
    for (int it = 1;; ++it) {
        for (int i = 0; i < m->nv; ++i)
            ddq[i] = cd->u0[i];
        cdyn__jt_add(m, cd, lambda, ddq);
        cdyn__ltdl_dense_solve(cd->Mmu, m->nv, ddq);
        for (int r = 0; r < cd->nc; ++r)
            cd->x[r] = cdyn__row_times(m, cd, r, ddq) + cd->gamma[r] - cd->astar[r];
        if (!cdyn__prox_stop(cd, s, it, cdyn__alm_step(cd, lambda, cd->x, rho)) && !refining)
            continue;
        refining = 1;
        cdyn__ltls_refine(m, d, cd, tau, rho, ddq, lambda);
        if (cdyn__prox_stop(cd, s, it, cdyn__max_change(lambda, cd->r, cd->nc)))
            return it;
    }
}

int cdyn_prox_ltls(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                   const cdyn_prox_settings *settings, const cdyn_real *q, const cdyn_real *v,
                   const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda)
{
    if (!cdyn__args_ok(m, d, cd, settings, q, v, tau, ddq, lambda))
        return CDYN_E_ARG;
    const cdyn_real rho = 1 / settings->mu;
    cdyn_status st = cdyn_nle(m, d, q, v, cd->nle); /* leaves d->v, d->a at ddq = 0 */
    if (st == CDYN_OK)
        st = cdyn_crba(m, d, q, NULL); /* M, and d->U's world columns for J */
    if (st != CDYN_OK)
        return st;
    cdyn__placements(m, d, cd);
    cdyn__jacobian(m, d, cd);
    cdyn__drift(m, d, cd);
    cdyn__baumgarte(m, cd, settings, v);
    cdyn__ltls_matrix(m, d, cd, rho);
    if (cdyn__ltdl_dense(cd->Mmu, m->nv) != 0)
        return CDYN_E_SINGULAR;
    cdyn__ltls_rhs(m, cd, tau, rho);
    cdyn__start(cd, settings, lambda);
    const int it = cdyn__ltls_iterate(m, d, cd, settings, tau, rho, ddq, lambda);
    return cdyn__result(m, cd, settings, it, ddq, lambda);
}

/* ---- contacts in body coordinates (constrained ABA, PV) ----------------------------- */

/* f = K^T (scale w): the force (3d) or [force; torque] (6d) w at contact k's frame, seen
 * in its body. */
static void cdyn__contact_force(cdyn_real f[6], const cdyn_model *m, const cdyn_constraint *c,
                                const cdyn_real *w, cdyn_real scale)
{
    const cdyn_frame *fr = &m->frames[c->frame_a];
    cdyn_real x[6] = { 0, 0, 0, 0, 0, 0 };
    for (int r = 0; r < c->dim; ++r)
        x[r] = scale * w[r];
    cdyn_force_act(f, fr->R, fr->p, x);
}

/* Contact k's kappa and a*, from pass 1's body velocity: the frame's velocity v_f gives
 * the classical term (3d) and J v for Baumgarte. */
static void cdyn__contact_terms(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd,
                                const cdyn_prox_settings *s, int k)
{
    const cdyn_frame *fr = &m->frames[cd->set[k].frame_a];
    cdyn_real vf[6], *kappa = cd->kappa + cd->row[k];
    cdyn_motion_act_inv(vf, fr->R, fr->p, d->v + 6 * fr->body);
    cdyn_rot_apply_t(kappa, cd->aR + 9 * k, m->gravity);
    if (cd->set[k].dim == 6)
        kappa[3] = kappa[4] = kappa[5] = 0;
    else
        cdyn_cross3_add(kappa, vf + 3, vf);
    cdyn__baumgarte_one(cd, s, k, vf);
}

/* What both body-coordinate solvers start from: ABA's pass 1 (placements in parents, v,
 * c, IA, pA), world placements for the frames and Baumgarte, each contact's constants. */
static void cdyn__contact_setup(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                                const cdyn_prox_settings *s, const cdyn_real *q, const cdyn_real *v)
{
    cdyn__aba_velocities(m, d, q, v);
    cdyn__bodies_in_world(m, d);
    cdyn__placements(m, d, cd);
    for (int k = 0; k < cd->n; ++k)
        cdyn__contact_terms(m, d, cd, s, k);
}

/* ---- constrained ABA: the ALM in body coordinates ----------------------------------- */

/* Contact k's penalty in its body, before pass 2. The ALM's force on the body is
 * K^T (lambda - rho (K a_b + kappa - a*)): its part linear in a_b joins the inertia,
 * IA += rho K^T K (a point mass rho at p_f; for 6d K is the whole transform and K^T K
 * also has rho I3 on the angular block: a rotational inertia rho I3 about p_f), the
 * constant part the bias, pA += rho K^T (kappa - a*) (pA is minus the external force).
 * The lambda part is added per iteration (cdyn__aba_bias_update). */
static void cdyn__aba_penalty(const cdyn_model *m, cdyn_data *d, const cdyn_constraint_data *cd,
                              int k, cdyn_real rho)
{
    const cdyn_constraint *c = &cd->set[k];
    const cdyn_frame *fr = &m->frames[c->frame_a];
    const cdyn_real rot = c->dim == 6 ? rho : 0, Irot[6] = { rot, 0, 0, rot, 0, rot };
    const int row = cd->row[k];
    cdyn_real I36[36], w[6], f[6], *IA = d->IA + 36 * fr->body, *pA = d->pA + 6 * fr->body;
    cdyn_inertia_to_mat6(I36, rho, fr->p, Irot);
    for (int r = 0; r < 36; ++r)
        IA[r] += I36[r];
    for (int r = 0; r < c->dim; ++r)
        w[r] = cd->kappa[row + r] - cd->astar[row + r];
    cdyn__contact_force(f, m, c, w, rho);
    for (int r = 0; r < 6; ++r)
        pA[r] += f[r];
}

/* Pass 2's bias forces for lambda without redoing it: pA changes by dp = -K^T lambda on
 * each contact's body; handed to the parent as dp - U D^-1 S^T dp (pa = pA + Ia c +
 * U D^-1 u with u = tau - S^T pA), and u = u0 - S^T dp. Only the support bodies change. */
static void cdyn__aba_bias_update(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                                  const cdyn_real *lambda)
{
    for (int p = 0; p < cd->nsbody; ++p)
        for (int r = 0; r < 6; ++r)
            cd->dp[6 * cd->sbody[p] + r] = 0;
    for (int k = 0; k < cd->n; ++k) {
        cdyn_real f[6], *dp = cd->dp + 6 * m->frames[cd->set[k].frame_a].body;
        cdyn__contact_force(f, m, &cd->set[k], lambda + cd->row[k], -1);
        for (int r = 0; r < 6; ++r)
            dp[r] += f[r];
    }
    for (int p = cd->nsbody - 1; p >= 0; --p) {
        const int j = cd->sbody[p];
        const cdyn_body *b = &m->bodies[j];
        cdyn_real sdp[6], Y[6][6], t[6], f[6], *dp = cd->dp + 6 * j;
        for (int jj = 0; jj < b->nv; ++jj) {
            const int k = b->idx_v + jj;
            sdp[jj] = cdyn__S_dot(d, k, dp);
            d->u[k] = cd->u0[k] - sdp[jj];
        }
        if (b->parent < 0)
            continue;
        cdyn__aba_UDinv(d, b, Y);
        for (int r = 0; r < 6; ++r) {
            t[r] = dp[r];
            for (int jj = 0; jj < b->nv; ++jj)
                t[r] -= Y[jj][r] * sdp[jj];
        }
        cdyn_force_act(f, d->liR + 9 * j, d->lip + 3 * j, t);
        for (int r = 0; r < 6; ++r)
            cd->dp[6 * b->parent + r] += f[r];
    }
}

/* r = K a_b + kappa - a* per contact, a_b from pass 3. */
static void cdyn__contact_residual(const cdyn_model *m, const cdyn_data *d,
                                   cdyn_constraint_data *cd, cdyn_real *r)
{
    for (int k = 0; k < cd->n; ++k) {
        const cdyn_frame *fr = &m->frames[cd->set[k].frame_a];
        const int row = cd->row[k];
        cdyn_real af[6];
        cdyn_motion_act_inv(af, fr->R, fr->p, d->a + 6 * fr->body);
        for (int i = 0; i < cd->set[k].dim; ++i)
            r[row + i] = af[i] + cd->kappa[row + i] - cd->astar[row + i];
    }
}

int cdyn_constrained_aba(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                         const cdyn_prox_settings *settings, const cdyn_real *q, const cdyn_real *v,
                         const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda)
{
    if (!cdyn__args_ok(m, d, cd, settings, q, v, tau, ddq, lambda) || !cdyn__contacts_only(cd))
        return CDYN_E_ARG;
    const cdyn_real rho = 1 / settings->mu;
    cdyn__contact_setup(m, d, cd, settings, q, v);
    for (int k = 0; k < cd->n; ++k)
        cdyn__aba_penalty(m, d, cd, k, rho);
    const cdyn_status st = cdyn__aba_articulated(m, d, tau);
    if (st != CDYN_OK)
        return st;
    for (int i = 0; i < m->nv; ++i)
        cd->u0[i] = d->u[i];
    cdyn__start(cd, settings, lambda);
    int it = 1;
    for (;; ++it) {
        cdyn__aba_bias_update(m, d, cd, lambda);
        cdyn__aba_accelerations(m, d, ddq);
        cdyn__contact_residual(m, d, cd, cd->x);
        if (cdyn__prox_stop(cd, settings, it, cdyn__alm_step(cd, lambda, cd->x, rho)))
            break;
    }
    return cdyn__result(m, cd, settings, it, ddq, lambda);
}

/* ---- Popov-Vereshchagin with proximal iterations ------------------------------------ */

/* With the constraint forces, body j's articulated bias is pA_j - KA_j lambda, KA_j (6 x nc,
 * one spatial force per row of lambda) the force on j's subtree per unit lambda; ABA's
 * pass 3 then gives qdd_j = D^-1 (u_j + S^T KA_j lambda - U^T a'_j). Substituting it, the
 * constraint acceleration of j's subtree, KA_j^T a_j + (terms of the subtree below j),
 * becomes Ka_j^T a'_j + (S^T KA_j)^T D^-1 (u_j + S^T KA_j lambda) + ..., with
 * Ka_j = KA_j - U D^-1 S^T KA_j handed to the parent through a'_j = X_j a_parent + c_j.
 * Down to the base (a_parent = [-g; 0]) this leaves J ddq + gamma - a* = G lambda + e with
 *   G = sum_j (S^T KA_j)^T D_j^-1 (S^T KA_j),
 *   e = sum_j (S^T KA_j)^T D_j^-1 u_j + sum_j Ka_j^T c_j + sum_roots Ka^T X a0 + kappa - a*.
 * cd->r accumulates e (then r = -e); cd->Gl G's lower triangle. */

/* KA of the support bodies: each contact's columns K^T (unit lambda); e = kappa - a*. */
static void cdyn__pv_seed(const cdyn_model *m, cdyn_constraint_data *cd)
{
    const int nc = cd->nc;
    for (int p = 0; p < cd->nsbody; ++p) {
        cdyn_real *KA = cd->KA + (size_t)6 * nc * cd->sbody[p];
        for (int r = 0; r < 6 * nc; ++r)
            KA[r] = 0;
    }
    for (int k = 0; k < cd->n; ++k) {
        const cdyn_constraint *c = &cd->set[k];
        const int row = cd->row[k];
        cdyn_real *KA = cd->KA + (size_t)6 * nc * m->frames[c->frame_a].body;
        for (int i = 0; i < c->dim; ++i) {
            const cdyn_real unit[6] = { i == 0, i == 1, i == 2, i == 3, i == 4, i == 5 };
            cdyn__contact_force(KA + 6 * (row + i), m, c, unit, 1);
            cd->r[row + i] = cd->kappa[row + i] - cd->astar[row + i];
        }
    }
    for (int r = 0; r < nc; ++r)
        for (int c = 0; c <= r; ++c)
            cd->Gl[r * nc + c] = 0;
}

/* Joint j (its subtree done): SKA = S^T KA_j per DoF, then per column c, w = D^-1 SKA(., c):
 * G(r, c) += SKA(., r) . w for r >= c, and e_c += w . u_j. Columns of rows outside j's
 * subtree are zero and skipped, so G keeps exact zeros between unrelated contacts. */
static void cdyn__pv_joint(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd, int j)
{
    const cdyn_body *b = &m->bodies[j];
    const int nc = cd->nc, k0 = b->idx_v, n = b->nv;
    const cdyn_real *KA = cd->KA + (size_t)6 * nc * j, *SKA = cd->SKA + k0 * nc;
    for (int jj = 0; jj < n; ++jj)
        for (int c = 0; c < nc; ++c)
            cd->SKA[(k0 + jj) * nc + c] = cdyn__S_dot(d, k0 + jj, KA + 6 * c);
    for (int c = 0; c < nc; ++c) {
        cdyn_real w[6];
        int nonzero = 0;
        for (int jj = 0; jj < n; ++jj) {
            w[jj] = SKA[jj * nc + c];
            nonzero |= w[jj] != 0;
        }
        if (!nonzero)
            continue;
        cdyn__ldl_small_solve(d->Dfac + 6 * k0, n, w);
        for (int r = c; r < nc; ++r) {
            cdyn_real g = 0;
            for (int jj = 0; jj < n; ++jj)
                g += SKA[jj * nc + r] * w[jj];
            cd->Gl[r * nc + c] += g;
        }
        for (int jj = 0; jj < n; ++jj)
            cd->r[c] += w[jj] * d->u[k0 + jj];
    }
}

/* Ka_j = KA_j - U D^-1 SKA_j in place (j's KA is not read again), e += Ka^T c_j, and
 * X^* Ka into the parent's KA, or for a root e += Ka^T (X a0). */
static void cdyn__pv_to_parent(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd,
                               int j)
{
    const cdyn_body *b = &m->bodies[j];
    const int nc = cd->nc, k0 = b->idx_v;
    const cdyn_real *R = d->liR + 9 * j, *p = d->lip + 3 * j;
    const cdyn_real a0[6] = { -m->gravity[0], -m->gravity[1], -m->gravity[2], 0, 0, 0 };
    cdyn_real Y[6][6], xa0[6], *KA = cd->KA + (size_t)6 * nc * j;
    cdyn__aba_UDinv(d, b, Y);
    cdyn_motion_act_inv(xa0, R, p, a0);
    for (int c = 0; c < nc; ++c) {
        cdyn_real *ka = KA + 6 * c, f[6];
        for (int jj = 0; jj < b->nv; ++jj) {
            const cdyn_real s = cd->SKA[(k0 + jj) * nc + c];
            for (int r = 0; r < 6; ++r)
                ka[r] -= Y[jj][r] * s;
        }
        cd->r[c] += cdyn__dot6(ka, d->c + 6 * j);
        if (b->parent < 0) {
            cd->r[c] += cdyn__dot6(ka, xa0);
            continue;
        }
        cdyn_real *kp = cd->KA + (size_t)6 * nc * b->parent + 6 * c;
        cdyn_force_act(f, R, p, ka);
        for (int r = 0; r < 6; ++r)
            kp[r] += f[r];
    }
}

/* G + mu I and r = -e from ABA's articulated bodies, over the support bodies. */
static void cdyn__pv_delassus(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd,
                              cdyn_real mu)
{
    cdyn__pv_seed(m, cd);
    for (int p = cd->nsbody - 1; p >= 0; --p) {
        cdyn__pv_joint(m, d, cd, cd->sbody[p]);
        cdyn__pv_to_parent(m, d, cd, cd->sbody[p]);
    }
    for (int r = 0; r < cd->nc; ++r) {
        cd->r[r] = -cd->r[r];
        cd->Gl[r * cd->nc + r] += mu;
    }
}

int cdyn_prox_pv(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                 const cdyn_prox_settings *settings, const cdyn_real *q, const cdyn_real *v,
                 const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda)
{
    if (!cdyn__args_ok(m, d, cd, settings, q, v, tau, ddq, lambda) || !cdyn__contacts_only(cd))
        return CDYN_E_ARG;
    cdyn__contact_setup(m, d, cd, settings, q, v);
    const cdyn_status st = cdyn__aba_articulated(m, d, tau);
    if (st != CDYN_OK)
        return st;
    cdyn__pv_delassus(m, d, cd, settings->mu);
    if (cdyn__block_factor(cd) != 0)
        return CDYN_E_SINGULAR;
    const int it = cdyn__prox_iterate(cd, settings, lambda);
    for (int p = 0; p < cd->nsbody; ++p) { /* u + S^T KA lambda, then ABA's pass 3 */
        const cdyn_body *b = &m->bodies[cd->sbody[p]];
        for (int k = b->idx_v; k < b->idx_v + b->nv; ++k)
            for (int c = 0; c < cd->nc; ++c)
                d->u[k] += cd->SKA[k * cd->nc + c] * lambda[c];
    }
    cdyn__aba_accelerations(m, d, ddq);
    return cdyn__result(m, cd, settings, it, ddq, lambda);
}
