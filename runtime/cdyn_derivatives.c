/* cdyn_derivatives.c — analytical derivatives of RNEA, ABA and the converged constrained
 * dynamics (Carpentier & Mansard, RSS 2018, in the world frame as Pinocchio's).
 *
 * Derivation. Every quantity is in world axes; S_j is DoF j's world motion column, p(j)
 * the parent body of j's joint. Moving q_j along its tangent direction moves every body
 * of j's subtree rigidly by the twist S_j, so their S, inertias and body forces turn with
 * it (d/dq_j x = S_j x x, S_j x* f), and what does not turn with it is
 *   dV_j = v_p(j) x S_j                              (the velocity's change, every body),
 *   dA_j = a_p(j) x S_j + v_p(j) x dV_j - v_i x dV_j   (body i's acceleration's),
 * a_p(j) including gravity as the base's upward acceleration. A body force f = I a + v x* I v
 * then changes by S_j x* f + I dA_j + B dV_j with B = (v x* I - I v x) + (h x*)^T, h = I v:
 * B dV = v x* I dV - I (v x dV) + dV x* h, linear in the body, so composites add up. For
 * tau_k = S_k . F_b(k), F the subtree's force, the turning of S_k and of F cancel, leaving
 *   dtau_k/dq_j = (Ic S_k) . dA_j + (Bc^T S_k) . dV_j       k in j's subtree (or j's joint),
 *   dtau_k/dq_j = S_k . (S_j x* F_b(j) + Ic dA_j + Bc dV_j)   j in k's strict subtree,
 * composites taken at k's body and j's body respectively; for v the same with
 * dV_j -> S_j, dA_j -> (v_b(j) + v_p(j)) x S_j and no turning term. Entry (k, j) is zero
 * unless k and j are on one branch. ABA's derivatives are those of RNEA at a = ddq solved
 * by M's factor; the constrained ones add the contact forces (which turn with their body)
 * and the contact accelerations' derivatives, then solve the KKT system by the factor the
 * solver left. */
#include "cdyn_internal.h"

/* The seven world 6-vectors kept per DoF in d->dcol. */
enum { COL_DV = 0, COL_DA = 6, COL_DAV = 12, COL_IS = 18, COL_BS = 24, COL_FQ = 30, COL_FV = 36 };

static cdyn_real *cdyn__col(const cdyn_data *d, int k, int which)
{
    return d->dcol + 42 * k + which;
}

static void cdyn__set6(cdyn_real *x, const cdyn_real *y)
{
    for (int r = 0; r < 6; ++r)
        x[r] = y[r];
}

static void cdyn__add6(cdyn_real *x, const cdyn_real *y)
{
    for (int r = 0; r < 6; ++r)
        x[r] += y[r];
}

/* B e_c for every unit motion e_c: v x* (I e_c) - I (v x e_c) + e_c x* h, row-major. */
static void cdyn__body_variation(cdyn_real B[36], const cdyn_real I10[10], const cdyn_real v[6],
                                 const cdyn_real h[6])
{
    for (int c = 0; c < 6; ++c) {
        cdyn_real e[6] = { 0, 0, 0, 0, 0, 0 }, Ie[6], t[6], ve[6], Ive[6], eh[6];
        e[c] = 1;
        cdyn_inertia10_mul(Ie, I10, e);
        cdyn_force_cross(t, v, Ie);
        cdyn_motion_cross(ve, v, e);
        cdyn_inertia10_mul(Ive, I10, ve);
        cdyn_force_cross(eh, e, h);
        for (int r = 0; r < 6; ++r)
            B[6 * r + c] = t[r] - Ive[r] + eh[r];
    }
}

static void cdyn__mat6_mul(cdyn_real res[6], const cdyn_real B[36], const cdyn_real x[6])
{
    for (int r = 0; r < 6; ++r)
        res[r] = cdyn__dot6(B + 6 * r, x);
}

static void cdyn__mat6_mul_t(cdyn_real res[6], const cdyn_real B[36], const cdyn_real x[6])
{
    for (int c = 0; c < 6; ++c) {
        cdyn_real s = 0;
        for (int r = 0; r < 6; ++r)
            s += B[6 * r + c] * x[r];
        res[c] = s;
    }
}

/* Forward pass, root to leaves: body placements, world S (d->U), world velocity (d->v),
 * acceleration with gravity (d->a), inertia (d->Ic), body force minus fext (d->f), the
 * variation B (d->IA); per DoF dV, dA and the v-derivative of the acceleration. fext (NULL:
 * none) holds a world wrench per body. */
static void cdyn__derivative_forward(const cdyn_model *m, cdyn_data *d, const cdyn_real *q,
                                     const cdyn_real *v, const cdyn_real *a,
                                     const cdyn_real *fext)
{
    const cdyn_real a_world[6] = { -m->gravity[0], -m->gravity[1], -m->gravity[2], 0, 0, 0 };
    const cdyn_real zero[6] = { 0, 0, 0, 0, 0, 0 };
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        const cdyn_real *vp = b->parent < 0 ? zero : d->v + 6 * b->parent;
        const cdyn_real *ap = b->parent < 0 ? a_world : d->a + 6 * b->parent;
        cdyn_real *vi = d->v + 6 * i, *ai = d->a + 6 * i, *Ic = d->Ic + 10 * i;
        cdyn_real vJ[6] = { 0, 0, 0, 0, 0, 0 }, I10[10], h[6], t[6];
        cdyn__joint_placement(m, d, i, q);
        cdyn__body_in_world(m, d, i);
        const cdyn_real *R = d->oR + 9 * i, *p = d->op + 3 * i;
        cdyn__set6(ai, ap);
        for (int k = b->idx_v; k < b->idx_v + b->nv; ++k) {
            const cdyn_real *S = d->U + 6 * k;
            cdyn__act_S(d->U + 6 * k, R, p, d, k);
            for (int r = 0; r < 6; ++r) {
                vJ[r] += S[r] * v[k];
                ai[r] += S[r] * a[k];
            }
        }
        for (int r = 0; r < 6; ++r)
            vi[r] = vp[r] + vJ[r];
        cdyn_motion_cross(t, vi, vJ);
        cdyn__add6(ai, t);
        cdyn_inertia10_from_body(I10, b->mass, b->com, b->inertia);
        for (int r = 0; r < 10; ++r)
            Ic[r] = 0;
        cdyn_inertia10_add_act(Ic, R, p, I10);
        cdyn_inertia10_mul(h, Ic, vi);
        cdyn_inertia10_mul(d->f + 6 * i, Ic, ai);
        cdyn_force_cross(t, vi, h);
        cdyn__add6(d->f + 6 * i, t);
        if (fext)
            for (int r = 0; r < 6; ++r)
                d->f[6 * i + r] -= fext[6 * i + r];
        cdyn__body_variation(d->IA + 36 * i, Ic, vi, h);
        for (int k = b->idx_v; k < b->idx_v + b->nv; ++k) {
            const cdyn_real *S = d->U + 6 * k;
            cdyn_real *dV = cdyn__col(d, k, COL_DV), *dA = cdyn__col(d, k, COL_DA);
            cdyn_real *dAv = cdyn__col(d, k, COL_DAV), vv[6];
            cdyn_motion_cross(dV, vp, S);
            cdyn_motion_cross(dA, ap, S);
            cdyn_motion_cross(t, vp, dV);
            cdyn__add6(dA, t);
            for (int r = 0; r < 6; ++r)
                vv[r] = vi[r] + vp[r];
            cdyn_motion_cross(dAv, vv, S);
        }
    }
}

/* Backward pass, leaves to root: composites Ic, B, F carried up; per DoF Ic S, Bc^T S and
 * the two force changes of a move of the DoF seen from its ancestors. */
static void cdyn__derivative_backward(const cdyn_model *m, cdyn_data *d)
{
    for (int i = m->nbodies - 1; i >= 0; --i) {
        const cdyn_body *b = &m->bodies[i];
        const cdyn_real *Ic = d->Ic + 10 * i, *Bc = d->IA + 36 * i, *F = d->f + 6 * i;
        for (int k = b->idx_v; k < b->idx_v + b->nv; ++k) {
            const cdyn_real *S = d->U + 6 * k;
            cdyn_real *Fq = cdyn__col(d, k, COL_FQ), *Fv = cdyn__col(d, k, COL_FV), t[6];
            cdyn_inertia10_mul(cdyn__col(d, k, COL_IS), Ic, S);
            cdyn__mat6_mul_t(cdyn__col(d, k, COL_BS), Bc, S);
            cdyn_force_cross(Fq, S, F);
            cdyn_inertia10_mul(t, Ic, cdyn__col(d, k, COL_DA));
            cdyn__add6(Fq, t);
            cdyn__mat6_mul(t, Bc, cdyn__col(d, k, COL_DV));
            cdyn__add6(Fq, t);
            cdyn_inertia10_mul(Fv, Ic, cdyn__col(d, k, COL_DAV));
            cdyn__mat6_mul(t, Bc, S);
            cdyn__add6(Fv, t);
        }
        if (b->parent < 0)
            continue;
        for (int r = 0; r < 10; ++r)
            d->Ic[10 * b->parent + r] += Ic[r];
        for (int r = 0; r < 36; ++r)
            d->IA[36 * b->parent + r] += Bc[r];
        cdyn__add6(d->f + 6 * b->parent, F);
    }
}

/* The entries on each branch: (k, j) for j an ancestor of k or k itself, and (j, k). Two
 * DoFs of one joint are each in the other's subtree: both entries take the first form. */
static void cdyn__derivative_entries(const cdyn_model *m, cdyn_data *d, cdyn_real *dq,
                                     cdyn_real *dv)
{
    const int nv = m->nv;
    for (int k = 0; k < nv; ++k) {
        const cdyn_real *Ik = cdyn__col(d, k, COL_IS), *Bk = cdyn__col(d, k, COL_BS);
        const cdyn_real *Sk = d->U + 6 * k;
        const int bk = m->dof_body[k];
        for (int t = d->anc_start[k]; t < d->anc_start[k + 1]; ++t) {
            const int j = d->anc[t];
            const cdyn_real *Sj = d->U + 6 * j;
            const cdyn_real mkj = cdyn__dot6(Ik, Sj);
            d->M[k * nv + j] = d->M[j * nv + k] = mkj;
            if (dq)
                dq[k * nv + j] =
                    cdyn__dot6(Ik, cdyn__col(d, j, COL_DA)) + cdyn__dot6(Bk, cdyn__col(d, j, COL_DV));
            if (dv)
                dv[k * nv + j] = cdyn__dot6(Ik, cdyn__col(d, j, COL_DAV)) + cdyn__dot6(Bk, Sj);
            if (j == k)
                continue;
            if (m->dof_body[j] == bk) {
                const cdyn_real *Ij = cdyn__col(d, j, COL_IS), *Bj = cdyn__col(d, j, COL_BS);
                if (dq)
                    dq[j * nv + k] = cdyn__dot6(Ij, cdyn__col(d, k, COL_DA)) +
                                     cdyn__dot6(Bj, cdyn__col(d, k, COL_DV));
                if (dv)
                    dv[j * nv + k] = cdyn__dot6(Ij, cdyn__col(d, k, COL_DAV)) + cdyn__dot6(Bj, Sk);
            } else {
                if (dq)
                    dq[j * nv + k] = cdyn__dot6(Sj, cdyn__col(d, k, COL_FQ));
                if (dv)
                    dv[j * nv + k] = cdyn__dot6(Sj, cdyn__col(d, k, COL_FV));
            }
        }
    }
}

static void cdyn__zero(cdyn_real *x, int n)
{
    if (x)
        for (int k = 0; k < n; ++k)
            x[k] = 0;
}

/* The RNEA derivatives at (q, v, a) with the world wrenches fext (NULL: none) taken off,
 * into dq and dv (either may be NULL); M into d->M. */
static void cdyn__rnea_derivatives(const cdyn_model *m, cdyn_data *d, const cdyn_real *q,
                                   const cdyn_real *v, const cdyn_real *a, const cdyn_real *fext,
                                   cdyn_real *dq, cdyn_real *dv)
{
    const int nn = m->nv * m->nv;
    cdyn__derivative_forward(m, d, q, v, a, fext);
    cdyn__derivative_backward(m, d);
    cdyn__zero(dq, nn);
    cdyn__zero(dv, nn);
    cdyn__zero(d->M, nn);
    cdyn__derivative_entries(m, d, dq, dv);
}

cdyn_status cdyn_rnea_derivatives(const cdyn_model *m, cdyn_data *d, const cdyn_real *q,
                                  const cdyn_real *v, const cdyn_real *a, cdyn_real *dtau_dq,
                                  cdyn_real *dtau_dv)
{
    if (cdyn__check(m, d) || !q || !v || !a)
        return CDYN_E_ARG;
    cdyn__rnea_derivatives(m, d, q, v, a, NULL, dtau_dq, dtau_dv);
    const int nn = m->nv * m->nv;
    if ((dtau_dq && !cdyn__all_finite(dtau_dq, (size_t)nn)) ||
        (dtau_dv && !cdyn__all_finite(dtau_dv, (size_t)nn)) ||
        !cdyn__all_finite(d->M, (size_t)nn))
        return CDYN_E_NONFINITE;
    return CDYN_OK;
}

/* ---- solves with M's factor, on every column of a row-major matrix at once ------------ */

/* X <- L^-T X (rows n-1 .. 0 pushed into their ancestors' rows). */
static void cdyn__solve_lt_rows(const cdyn_model *m, const cdyn_data *d, cdyn_real *X, int cols)
{
    const int nv = m->nv;
    for (int i = nv - 1; i >= 0; --i) {
        const cdyn_real *xi = X + i * cols;
        for (int t = d->anc_start[i]; t + 1 < d->anc_start[i + 1]; ++t) {
            const int a = d->anc[t];
            const cdyn_real l = d->LD[i * nv + a];
            cdyn_real *xa = X + a * cols;
            for (int c = 0; c < cols; ++c)
                xa[c] -= l * xi[c];
        }
    }
}

/* X <- L^-1 X (rows 0 .. n-1 pulled from their ancestors' rows). */
static void cdyn__solve_l_rows(const cdyn_model *m, const cdyn_data *d, cdyn_real *X, int cols)
{
    const int nv = m->nv;
    for (int i = 0; i < nv; ++i) {
        cdyn_real *xi = X + i * cols;
        for (int t = d->anc_start[i]; t + 1 < d->anc_start[i + 1]; ++t) {
            const int a = d->anc[t];
            const cdyn_real l = d->LD[i * nv + a];
            const cdyn_real *xa = X + a * cols;
            for (int c = 0; c < cols; ++c)
                xi[c] -= l * xa[c];
        }
    }
}

/* X <- s D^-1 X. */
static void cdyn__scale_d_rows(const cdyn_model *m, const cdyn_data *d, cdyn_real *X, int cols,
                               cdyn_real s)
{
    const int nv = m->nv;
    for (int i = 0; i < nv; ++i) {
        const cdyn_real f = s / d->LD[i * nv + i];
        for (int c = 0; c < cols; ++c)
            X[i * cols + c] *= f;
    }
}

/* X <- -M^-1 X. */
static void cdyn__minus_minv_times(const cdyn_model *m, const cdyn_data *d, cdyn_real *X)
{
    cdyn__solve_lt_rows(m, d, X, m->nv);
    cdyn__scale_d_rows(m, d, X, m->nv, -1);
    cdyn__solve_l_rows(m, d, X, m->nv);
}

cdyn_status cdyn_aba_derivatives(const cdyn_model *m, cdyn_data *d, const cdyn_real *q,
                                 const cdyn_real *v, const cdyn_real *tau, cdyn_real *ddq_dq,
                                 cdyn_real *ddq_dv, cdyn_real *ddq_dtau)
{
    if (cdyn__check(m, d) || !q || !v || !tau)
        return CDYN_E_ARG;
    cdyn_status st = cdyn_aba(m, d, q, v, tau, d->ddq);
    if (st != CDYN_OK)
        return st;
    cdyn__rnea_derivatives(m, d, q, v, d->ddq, NULL, ddq_dq, ddq_dv);
    st = cdyn_ltl(m, d);
    if (st != CDYN_OK)
        return st;
    const int nn = m->nv * m->nv;
    if (ddq_dq)
        cdyn__minus_minv_times(m, d, ddq_dq);
    if (ddq_dv)
        cdyn__minus_minv_times(m, d, ddq_dv);
    if (ddq_dtau)
        cdyn__minv_factored(m, d, ddq_dtau);
    if ((ddq_dq && !cdyn__all_finite(ddq_dq, (size_t)nn)) ||
        (ddq_dv && !cdyn__all_finite(ddq_dv, (size_t)nn)) ||
        (ddq_dtau && !cdyn__all_finite(ddq_dtau, (size_t)nn)))
        return CDYN_E_NONFINITE;
    return CDYN_OK;
}

/* ---- the constrained dynamics' derivatives ---------------------------------------------- */

/* The contacts' wrenches on their bodies in world axes, fext (nbodies x 6): lambda's rows
 * are a force (3d) or [force; torque] (6d) at frame A's origin in A's axes. */
static void cdyn__contact_wrenches(const cdyn_model *m, const cdyn_constraint_data *cd,
                                   const cdyn_real *lambda, cdyn_real *fext)
{
    for (int k = 0; k < 6 * m->nbodies; ++k)
        fext[k] = 0;
    for (int k = 0; k < cd->n; ++k) {
        const int b = m->frames[cd->set[k].frame_a].body;
        const cdyn_real *l = lambda + cd->row[k], *R = cd->aR + 9 * k, *p = cd->ap + 3 * k;
        cdyn_real w[6] = { 0, 0, 0, 0, 0, 0 }, t[3];
        cdyn_rot_apply(w, R, l);
        if (cd->set[k].dim == 6)
            cdyn_rot_apply(w + 3, R, l + 3);
        cdyn_cross3(t, p, w);
        for (int r = 0; r < 3; ++r) {
            fext[6 * b + r] += w[r];
            fext[6 * b + 3 + r] += w[3 + r] + t[r];
        }
    }
}

/* Rows of one contact's acceleration derivative for DoF j, from the world change of its
 * body's acceleration dA (what does not turn with the body) and of its velocity dV, seen
 * in the frame's axes (vl: the frame's own velocity there): 6d the spatial acceleration,
 * 3d the classical one, a_lin + w x v_lin. */
static void cdyn__contact_rows(const cdyn_real *R, const cdyn_real *p, const cdyn_real vl[6],
                               int dim, const cdyn_real dA[6], const cdyn_real dV[6],
                               cdyn_real out[6])
{
    cdyn_motion_act_inv(out, R, p, dA);
    if (dim == 6)
        return;
    cdyn_real dv[6];
    cdyn_motion_act_inv(dv, R, p, dV);
    cdyn_cross3_add(out, dv + 3, vl);
    cdyn_cross3_add(out, vl + 3, dv);
}

/* A (nc x nv): the derivative of the contact accelerations J ddq + gamma at ddq fixed, by
 * q (by_v = 0) or by v (1), after the forward pass at a = ddq. */
static void cdyn__contact_derivatives(const cdyn_model *m, const cdyn_data *d,
                                      const cdyn_constraint_data *cd, int by_v, cdyn_real *A)
{
    const int nv = m->nv;
    const cdyn_real g[6] = { m->gravity[0], m->gravity[1], m->gravity[2], 0, 0, 0 };
    for (int k = 0; k < nv * cd->nc; ++k)
        A[k] = 0;
    for (int k = 0; k < cd->n; ++k) {
        const int b = m->frames[cd->set[k].frame_a].body, dim = cd->set[k].dim;
        const int *s = cd->support + k * nv;
        const cdyn_real *R = cd->aR + 9 * k, *p = cd->ap + 3 * k, *vb = d->v + 6 * b;
        cdyn_real vl[6];
        cdyn_motion_act_inv(vl, R, p, vb);
        for (int t = 0; t < cd->nsupport[k]; ++t) {
            const int j = s[t];
            const cdyn_real *S = d->U + 6 * j;
            const cdyn_real *dV = by_v ? S : cdyn__col(d, j, COL_DV);
            cdyn_real dA[6], w[6], rows[6];
            cdyn_motion_cross(w, vb, dV);
            if (by_v) {
                for (int r = 0; r < 6; ++r)
                    dA[r] = cdyn__col(d, j, COL_DAV)[r] - w[r];
            } else {
                cdyn_real gs[6];
                cdyn_motion_cross(gs, g, S); /* the acceleration without gravity */
                for (int r = 0; r < 6; ++r)
                    dA[r] = cdyn__col(d, j, COL_DA)[r] + gs[r] - w[r];
            }
            cdyn__contact_rows(R, p, vl, dim, dA, dV, rows);
            for (int r = 0; r < dim; ++r)
                A[(cd->row[k] + r) * nv + j] = rows[r];
        }
    }
}

/* X <- (G + mu I)^-1 X for the nc x cols matrix X, with the factor in cd->Gl. */
static void cdyn__solve_g_rows(const cdyn_constraint_data *cd, cdyn_real *X, int cols)
{
    const int nc = cd->nc;
    const cdyn_real *F = cd->Gl;
    for (int i = nc - 1; i >= 0; --i)
        for (int a = 0; a < i; ++a) {
            const cdyn_real l = F[i * nc + a];
            if (l != 0)
                for (int c = 0; c < cols; ++c)
                    X[a * cols + c] -= l * X[i * cols + c];
        }
    for (int i = 0; i < nc; ++i) {
        const cdyn_real f = 1 / F[i * nc + i];
        for (int c = 0; c < cols; ++c)
            X[i * cols + c] *= f;
    }
    for (int i = 0; i < nc; ++i)
        for (int a = 0; a < i; ++a) {
            const cdyn_real l = F[i * nc + a];
            if (l != 0)
                for (int c = 0; c < cols; ++c)
                    X[i * cols + c] -= l * X[a * cols + c];
        }
}

/* X <- G^-1 X by proximal iterations (G + mu I) X_k+1 = X_0 + mu X_k from X_0 = 0
 * (Pinocchio's), as their steps D_k = X_k+1 - X_k = mu (G + mu I)^-1 D_k-1 added up: until
 * a step moves no entry by more than a few roundings of the largest, or max_iter steps.
 * W (as X) is scratch. */
static void cdyn__g_inverse_rows(const cdyn_constraint_data *cd, const cdyn_prox_settings *s,
                                 int cols, cdyn_real *X, cdyn_real *W)
{
    const int n = cd->nc * cols;
    cdyn__solve_g_rows(cd, X, cols);
    for (int k = 0; k < n; ++k)
        W[k] = X[k];
    for (int it = 1; it < s->max_iter; ++it) {
        cdyn_real step = 0, size = 0;
        for (int k = 0; k < n; ++k)
            W[k] *= s->mu;
        cdyn__solve_g_rows(cd, W, cols);
        for (int k = 0; k < n; ++k) {
            const cdyn_real w = W[k] < 0 ? -W[k] : W[k];
            X[k] += W[k];
            const cdyn_real x = X[k] < 0 ? -X[k] : X[k];
            step = w > step ? w : step;
            size = x > size ? x : size;
        }
        if (!(step > 4 * CDYN_EPS * size)) /* a NaN stops too: the caller sees it */
            break;
    }
}

/* One variable's derivatives (q, v or tau): R (nv x nv) = d(M ddq + nle - J^T lambda) and
 * A (nc x nv) = d(J ddq + gamma) in, then dlambda = G^-1 (J M^-1 R - A) into A and
 * dddq = M^-1 (J^T dlambda - R) = L^-1 (B dlambda - D^-1 L^-T R) into R. J M^-1 = B^T L^-T
 * with B = D^-1 L^-T J^T kept by the solve (cd->B, rows on each constraint's support). */
static void cdyn__kkt_solve(const cdyn_model *m, const cdyn_data *d, const cdyn_constraint_data *cd,
                            const cdyn_prox_settings *s, cdyn_real *R, cdyn_real *A, cdyn_real *W)
{
    const int nv = m->nv, nc = cd->nc;
    cdyn__solve_lt_rows(m, d, R, nv);
    for (int r = 0; r < nc; ++r) {
        const int k = cdyn__constraint_of_row(cd, r), *sup = cd->support + k * nv;
        const cdyn_real *b = cd->B + r * nv;
        cdyn_real *a = A + r * nv;
        for (int c = 0; c < nv; ++c)
            a[c] = -a[c];
        for (int t = 0; t < cd->nsupport[k]; ++t) {
            const cdyn_real bi = b[sup[t]], *y = R + sup[t] * nv;
            for (int c = 0; c < nv; ++c)
                a[c] += bi * y[c];
        }
    }
    cdyn__g_inverse_rows(cd, s, nv, A, W);
    cdyn__scale_d_rows(m, d, R, nv, -1);
    for (int r = 0; r < nc; ++r) {
        const int k = cdyn__constraint_of_row(cd, r), *sup = cd->support + k * nv;
        const cdyn_real *b = cd->B + r * nv, *a = A + r * nv;
        for (int t = 0; t < cd->nsupport[k]; ++t) {
            const cdyn_real bi = b[sup[t]];
            cdyn_real *x = R + sup[t] * nv;
            for (int c = 0; c < nv; ++c)
                x[c] += bi * a[c];
        }
    }
    cdyn__solve_l_rows(m, d, R, nv);
}

/* Contacts only, and no Baumgarte gain (their terms are not differentiated). */
static int cdyn__derivable_set(const cdyn_constraint_data *cd, const cdyn_prox_settings *s)
{
    for (int k = 0; k < cd->n; ++k) {
        if (cd->set[k].frame_b >= 0)
            return 0;
        if ((s->Kp && s->Kp[k] != 0) || (s->Kd && s->Kd[k] != 0))
            return 0;
    }
    return 1;
}

static int cdyn__finite_or_null(const cdyn_real *x, int n)
{
    return !x || cdyn__all_finite(x, (size_t)n);
}

cdyn_status cdyn_prox_ltl_derivatives(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                                      const cdyn_prox_settings *settings, const cdyn_real *q,
                                      const cdyn_real *v, const cdyn_real *ddq,
                                      const cdyn_real *lambda, cdyn_real *ddq_dq, cdyn_real *ddq_dv,
                                      cdyn_real *ddq_dtau, cdyn_real *lambda_dq,
                                      cdyn_real *lambda_dv, cdyn_real *lambda_dtau)
{
    if (cdyn__check_cd(m, d, cd) || !cdyn__settings_ok(settings) || !q || !v || !ddq || !lambda ||
        !cdyn__derivable_set(cd, settings))
        return CDYN_E_ARG;
    const int nv = m->nv, nc = cd->nc, want_q = ddq_dq || lambda_dq, want_v = ddq_dv || lambda_dv;
    /* scratch where an output is not wanted: LinvT (nv x nv), KA and SKA (nc x nv or more) */
    cdyn_real *Rq = want_q && !ddq_dq ? d->LinvT : ddq_dq;
    cdyn_real *Rv = want_v && !ddq_dv && Rq != d->LinvT ? d->LinvT : ddq_dv;
    cdyn__contact_wrenches(m, cd, lambda, d->pA);
    cdyn__rnea_derivatives(m, d, q, v, ddq, d->pA, Rq, Rv);
    if (want_q) {
        cdyn_real *A = lambda_dq ? lambda_dq : cd->KA;
        cdyn__contact_derivatives(m, d, cd, 0, A);
        cdyn__kkt_solve(m, d, cd, settings, Rq, A, cd->SKA);
    }
    if (want_v) {
        cdyn_real *A = lambda_dv ? lambda_dv : cd->KA;
        if (!Rv) { /* both wanted without their ddq outputs: the pass again for v */
            Rv = d->LinvT;
            cdyn__rnea_derivatives(m, d, q, v, ddq, d->pA, NULL, Rv);
        }
        cdyn__contact_derivatives(m, d, cd, 1, A);
        cdyn__kkt_solve(m, d, cd, settings, Rv, A, cd->SKA);
    }
    if (ddq_dtau || lambda_dtau) {
        cdyn_real *R = ddq_dtau ? ddq_dtau : d->LinvT, *A = lambda_dtau ? lambda_dtau : cd->KA;
        for (int k = 0; k < nv * nv; ++k)
            R[k] = 0;
        for (int k = 0; k < nv; ++k)
            R[k * nv + k] = -1;
        for (int k = 0; k < nc * nv; ++k)
            A[k] = 0;
        cdyn__kkt_solve(m, d, cd, settings, R, A, cd->SKA);
    }
    const int nn = nv * nv, nl = nc * nv;
    if (!cdyn__finite_or_null(ddq_dq, nn) || !cdyn__finite_or_null(ddq_dv, nn) ||
        !cdyn__finite_or_null(ddq_dtau, nn) || !cdyn__finite_or_null(lambda_dq, nl) ||
        !cdyn__finite_or_null(lambda_dv, nl) || !cdyn__finite_or_null(lambda_dtau, nl))
        return CDYN_E_NONFINITE;
    return CDYN_OK;
}
