/* cdyn_dynamics.c — RNEA, CRBA, Featherstone's sparse LTL and ABA over the model table
 * (Featherstone, Rigid Body Dynamics Algorithms; Pinocchio's LOCAL convention: every
 * body quantity in its own frame, gravity entering as the base acceleration). */
#include "cdyn_internal.h"

static void cdyn__add6(cdyn_real *x, const cdyn_real *y)
{
    for (int r = 0; r < 6; ++r)
        x[r] += y[r];
}

/* ---- inverse dynamics (RNEA) -------------------------------------------------------- */

/* Forward: v_i = X_i v_parent + S qd_i, a_i = X_i a_parent + S qdd_i + v_i x S qd_i
 * (a_root's parent is -gravity), f_i = I_i a_i + v_i x* I_i v_i.
 * Backward: tau_i = S_i^T f_i, f_parent += X_i^* f_i.
 * v == NULL means zero velocity, a == NULL zero acceleration. */
static void cdyn__rnea(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, const cdyn_real *v,
                       const cdyn_real *a, cdyn_real *tau)
{
    const cdyn_real a_base[6] = { -m->gravity[0], -m->gravity[1], -m->gravity[2], 0, 0, 0 };
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        const cdyn_real *R = d->liR + 9 * i, *p = d->lip + 3 * i;
        cdyn_real *vi = d->v + 6 * i, *ai = d->a + 6 * i, *fi = d->f + 6 * i;
        cdyn__joint_placement(m, d, i, q);
        cdyn_motion_act_inv(ai, R, p, b->parent < 0 ? a_base : d->a + 6 * b->parent);
        if (a)
            cdyn__S_add(ai, d, b, a + b->idx_v);
        if (!v) {
            cdyn_inertia_mul(fi, b->mass, b->com, b->inertia, ai);
            continue;
        }
        cdyn_real vJ[6] = { 0, 0, 0, 0, 0, 0 }, t[6], h[6];
        cdyn__S_add(vJ, d, b, v + b->idx_v);
        if (b->parent < 0) {
            for (int r = 0; r < 6; ++r)
                vi[r] = vJ[r];
        } else {
            cdyn_motion_act_inv(vi, R, p, d->v + 6 * b->parent);
            cdyn__add6(vi, vJ);
        }
        cdyn_motion_cross(t, vi, vJ);
        cdyn__add6(ai, t);
        cdyn_inertia_mul(fi, b->mass, b->com, b->inertia, ai);
        cdyn_inertia_mul(h, b->mass, b->com, b->inertia, vi);
        cdyn_force_cross(t, vi, h);
        cdyn__add6(fi, t);
    }
    for (int i = m->nbodies - 1; i >= 0; --i) {
        const cdyn_body *b = &m->bodies[i];
        const cdyn_real *fi = d->f + 6 * i;
        for (int k = b->idx_v; k < b->idx_v + b->nv; ++k)
            tau[k] = cdyn__S_dot(d, k, fi);
        if (b->parent >= 0) {
            cdyn_real t[6];
            cdyn_force_act(t, d->liR + 9 * i, d->lip + 3 * i, fi);
            cdyn__add6(d->f + 6 * b->parent, t);
        }
    }
}

cdyn_status cdyn_rnea(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, const cdyn_real *v,
                      const cdyn_real *a, cdyn_real *tau)
{
    if (cdyn__check(m, d) || !q || !v || !a || !tau)
        return CDYN_E_ARG;
    cdyn__rnea(m, d, q, v, a, tau);
    return CDYN_OK;
}

cdyn_status cdyn_nle(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, const cdyn_real *v,
                     cdyn_real *h)
{
    if (cdyn__check(m, d) || !q || !v || !h)
        return CDYN_E_ARG;
    cdyn__rnea(m, d, q, v, NULL, h);
    return CDYN_OK;
}

cdyn_status cdyn_gravity(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, cdyn_real *g)
{
    if (cdyn__check(m, d) || !q || !g)
        return CDYN_E_ARG;
    cdyn__rnea(m, d, q, NULL, NULL, g);
    return CDYN_OK;
}

/* ---- joint-space inertia (CRBA) ----------------------------------------------------- */

/* DoF k's ancestor list (root first, k last) and its length. */
static const int *cdyn__ancestors(const cdyn_data *d, int k, int *len)
{
    *len = d->anc_start[k + 1] - d->anc_start[k];
    return d->anc + d->anc_start[k];
}

/* Body placements, then each body's inertia and each DoF's motion column J_k = oX_i S_k,
 * all in world axes. */
void cdyn__crba_world(const cdyn_model *m, cdyn_data *d, const cdyn_real *q)
{
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        cdyn_real I10[10], *Ic = d->Ic + 10 * i;
        cdyn__joint_placement(m, d, i, q);
        cdyn__body_in_world(m, d, i);
        const cdyn_real *R = d->oR + 9 * i, *p = d->op + 3 * i;
        cdyn_inertia10_from_body(I10, b->mass, b->com, b->inertia);
        for (int r = 0; r < 10; ++r)
            Ic[r] = 0;
        cdyn_inertia10_add_act(Ic, R, p, I10);
        for (int k = b->idx_v; k < b->idx_v + b->nv; ++k)
            cdyn__act_S(d->U + 6 * k, R, p, d, k);
    }
}

/* M does not depend on the frame it is computed in; in world axes composite inertias add
 * without transforms. Leaves first, with Ic_i complete when body i is reached:
 *   F = Ic_i J_k,  M(j, k) = M(k, j) = J_j^T F  for every ancestor j of DoF k (and k),
 *   Ic_parent += Ic_i. */
cdyn_status cdyn_crba(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, cdyn_real *M)
{
    if (cdyn__check(m, d) || !q)
        return CDYN_E_ARG;
    const int nv = m->nv;
    cdyn__crba_world(m, d, q);
    for (int k = 0; k < nv * nv; ++k)
        d->M[k] = 0;
    for (int i = m->nbodies - 1; i >= 0; --i) {
        const cdyn_body *b = &m->bodies[i];
        for (int k = b->idx_v; k < b->idx_v + b->nv; ++k) {
            cdyn_real F[6];
            int n;
            const int *anc = cdyn__ancestors(d, k, &n);
            cdyn_inertia10_mul(F, d->Ic + 10 * i, d->U + 6 * k);
            for (int t = 0; t < n; ++t) {
                const int j = anc[t];
                const cdyn_real x = cdyn__dot6(d->U + 6 * j, F);
                d->M[j * nv + k] = x;
                d->M[k * nv + j] = x;
            }
        }
        if (b->parent >= 0)
            for (int r = 0; r < 10; ++r)
                d->Ic[10 * b->parent + r] += d->Ic[10 * i + r];
    }
    if (M)
        for (int k = 0; k < nv * nv; ++k)
            M[k] = d->M[k];
    return CDYN_OK;
}

/* ---- Featherstone's sparse LTL (LTDL) ----------------------------------------------- */

/* Featherstone (2005), in place on the lower tree pattern of H = M, lambda = dof_parent:
 *   for k = n-1 .. 0:
 *     for i = lambda(k), lambda(lambda(k)), ...:
 *       a = H(k,i) / H(k,k)
 *       for j = i, lambda(i), ...:  H(i,j) -= a H(k,j)
 *       H(k,i) = a
 * leaves D = diag(H) and L (unit lower) below it, M = L^T D L; no fill-in outside the
 * ancestors of each row. The ancestors of i are the first entries of k's list. */
cdyn_status cdyn_ltl(const cdyn_model *m, cdyn_data *d)
{
    if (cdyn__check(m, d))
        return CDYN_E_ARG;
    const int nv = m->nv;
    cdyn_real *H = d->LD;
    for (int k = 0; k < nv; ++k) {
        int n;
        const int *anc = cdyn__ancestors(d, k, &n);
        for (int t = 0; t < n; ++t)
            H[k * nv + anc[t]] = d->M[k * nv + anc[t]];
    }
    for (int k = nv - 1; k >= 0; --k) {
        cdyn_real *Hk = H + k * nv;
        int n;
        const int *anc = cdyn__ancestors(d, k, &n);
        if (!(Hk[k] > 0))
            return CDYN_E_SINGULAR;
        const cdyn_real inv = 1 / Hk[k];
        for (int t = n - 2; t >= 0; --t) { /* nearest ancestor first: H(k, .) is read */
            const int i = anc[t];          /* above i before it is overwritten      */
            cdyn_real *Hi = H + i * nv;
            const cdyn_real a = Hk[i] * inv;
            for (int u = 0; u <= t; ++u)
                Hi[anc[u]] -= a * Hk[anc[u]];
            Hk[i] = a;
        }
    }
    return CDYN_OK;
}

/* x <- L^-1 D^-1 L^-T x, each sweep along the ancestors only. */
cdyn_status cdyn_ltl_solve(const cdyn_model *m, const cdyn_data *d, cdyn_real *x)
{
    if (cdyn__check(m, d) || !x)
        return CDYN_E_ARG;
    const int nv = m->nv;
    const cdyn_real *H = d->LD;
    for (int i = nv - 1; i >= 0; --i) { /* L^T y = x, leaves to root */
        int n;
        const int *anc = cdyn__ancestors(d, i, &n);
        const cdyn_real xi = x[i];
        for (int t = 0; t + 1 < n; ++t)
            x[anc[t]] -= H[i * nv + anc[t]] * xi;
    }
    for (int i = 0; i < nv; ++i)
        x[i] /= H[i * nv + i];
    for (int i = 0; i < nv; ++i) { /* L x = z, root to leaves */
        int n;
        const int *anc = cdyn__ancestors(d, i, &n);
        cdyn_real s = x[i];
        for (int t = 0; t + 1 < n; ++t)
            s -= H[i * nv + anc[t]] * x[anc[t]];
        x[i] = s;
    }
    return CDYN_OK;
}

cdyn_status cdyn_ltl_factor(const cdyn_model *m, const cdyn_data *d, cdyn_real *L, cdyn_real *D)
{
    if (cdyn__check(m, d))
        return CDYN_E_ARG;
    const int nv = m->nv;
    for (int k = 0; k < nv; ++k) {
        if (D)
            D[k] = d->LD[k * nv + k];
        if (!L)
            continue;
        int n;
        const int *anc = cdyn__ancestors(d, k, &n);
        for (int j = 0; j < nv; ++j)
            L[k * nv + j] = 0;
        for (int t = 0; t + 1 < n; ++t)
            L[k * nv + anc[t]] = d->LD[k * nv + anc[t]];
        L[k * nv + k] = 1;
    }
    return CDYN_OK;
}

/* Column a of L^-1 (row a of LinvT) solves L x = e_a and lives on a's subtree
 * [a, subtree_end(a)). Forward substitution in push form keeps the inner loops
 * contiguous: once x_b is final, x_i -= L(i, b) x_b for the DoFs i of b's subtree. */
static void cdyn__linv_t(const cdyn_model *m, cdyn_data *d)
{
    const int nv = m->nv;
    for (int a = 0; a < nv; ++a) {
        cdyn_real *x = d->LinvT + a * nv;
        const int end_a = d->subtree_end[a];
        for (int i = a; i < end_a; ++i)
            x[i] = 0;
        x[a] = 1;
        for (int b = a; b < end_a; ++b) {
            const cdyn_real xb = x[b];
            for (int i = b + 1; i < d->subtree_end[b]; ++i)
                x[i] -= d->LD[i * nv + b] * xb;
        }
    }
}

/* M^-1 = L^-1 D^-1 L^-T, so for i >= k
 *   Minv(k, i) = sum over the ancestors a of k of LinvT(a, k) LinvT(a, i) / D(a),
 * where LinvT(a, .) is nonzero on a's subtree only: row k is a sum of contiguous axpys
 * over [k, subtree_end(a)); the lower part follows by symmetry. */
static void cdyn__minv_row(const cdyn_model *m, cdyn_data *d, int k, cdyn_real *Minv)
{
    const int nv = m->nv;
    cdyn_real *row = Minv + k * nv;
    int n;
    const int *anc = cdyn__ancestors(d, k, &n);
    for (int i = k; i < nv; ++i)
        row[i] = 0;
    for (int t = 0; t < n; ++t) {
        const int a = anc[t], end = d->subtree_end[a];
        const cdyn_real *u = d->LinvT + a * nv;
        const cdyn_real s = u[k] / d->LD[a * nv + a];
        for (int i = k; i < end; ++i)
            row[i] += u[i] * s;
    }
    for (int i = k + 1; i < nv; ++i)
        Minv[i * nv + k] = row[i];
}

void cdyn__minv_factored(const cdyn_model *m, cdyn_data *d, cdyn_real *Minv)
{
    cdyn__linv_t(m, d);
    for (int k = 0; k < m->nv; ++k)
        cdyn__minv_row(m, d, k, Minv);
}

cdyn_status cdyn_minv(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, cdyn_real *Minv)
{
    if (cdyn__check(m, d) || !q || !Minv)
        return CDYN_E_ARG;
    cdyn_status st = cdyn_crba(m, d, q, NULL);
    if (st == CDYN_OK)
        st = cdyn_ltl(m, d);
    if (st != CDYN_OK)
        return st;
    cdyn__minv_factored(m, d, Minv);
    return CDYN_OK;
}

/* ---- forward dynamics (ABA) --------------------------------------------------------- */

/* In place LDL^T of the n x n symmetric A (row stride 6, lower part read): the strict
 * lower part becomes L, the diagonal 1/D. -1 on a non-positive pivot. */
static int cdyn__ldl_small(cdyn_real *A, int n)
{
    cdyn_real D[6];
    for (int j = 0; j < n; ++j) {
        cdyn_real dj = A[6 * j + j];
        for (int k = 0; k < j; ++k)
            dj -= A[6 * j + k] * A[6 * j + k] * D[k];
        if (!(dj > 0))
            return -1;
        D[j] = dj;
        for (int i = j + 1; i < n; ++i) {
            cdyn_real x = A[6 * i + j];
            for (int k = 0; k < j; ++k)
                x -= A[6 * i + k] * A[6 * j + k] * D[k];
            A[6 * i + j] = x / dj;
        }
        A[6 * j + j] = 1 / dj;
    }
    return 0;
}

/* x <- A^-1 x with the factor of cdyn__ldl_small. */
void cdyn__ldl_small_solve(const cdyn_real *F, int n, cdyn_real *x)
{
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < i; ++k)
            x[i] -= F[6 * i + k] * x[k];
    for (int i = 0; i < n; ++i)
        x[i] *= F[6 * i + i];
    for (int i = n - 1; i >= 0; --i)
        for (int k = i + 1; k < n; ++k)
            x[i] -= F[6 * k + i] * x[k];
}

/* Pass 1, root to leaves: v_i, c_i = v_i x S qd_i, IA_i = I_i, pA_i = v_i x* I_i v_i. */
void cdyn__aba_velocities(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, const cdyn_real *v)
{
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        cdyn_real *vi = d->v + 6 * i;
        cdyn_real vJ[6] = { 0, 0, 0, 0, 0, 0 }, h[6];
        cdyn__joint_placement(m, d, i, q);
        cdyn__S_add(vJ, d, b, v + b->idx_v);
        if (b->parent < 0) {
            for (int r = 0; r < 6; ++r)
                vi[r] = vJ[r];
        } else {
            cdyn_motion_act_inv(vi, d->liR + 9 * i, d->lip + 3 * i, d->v + 6 * b->parent);
            cdyn__add6(vi, vJ);
        }
        cdyn_motion_cross(d->c + 6 * i, vi, vJ);
        cdyn_inertia_to_mat6(d->IA + 36 * i, b->mass, b->com, b->inertia);
        cdyn_inertia_mul(h, b->mass, b->com, b->inertia, vi);
        cdyn_force_cross(d->pA + 6 * i, vi, h);
    }
}

/* Y = U D^-1 for body b's joint (n columns of 6), D factored in Dfac. */
void cdyn__aba_UDinv(const cdyn_data *d, const cdyn_body *b, cdyn_real Y[6][6])
{
    const int k0 = b->idx_v, n = b->nv;
    const cdyn_real *U = d->U + 6 * k0, *F = d->Dfac + 6 * k0;
    if (n == 1) {
        for (int r = 0; r < 6; ++r)
            Y[0][r] = U[r] * F[0];
        return;
    }
    for (int r = 0; r < 6; ++r) {
        cdyn_real y[6];
        for (int j = 0; j < n; ++j)
            y[j] = U[6 * j + r];
        cdyn__ldl_small_solve(F, n, y);
        for (int j = 0; j < n; ++j)
            Y[j][r] = y[j];
    }
}

/* Body i's articulated inertia and bias force handed to its parent:
 * Ia = IA - U D^-1 U^T, pa = pA + Ia c + U D^-1 u, then X^* Ia X^-1 and X^* pa. */
static void cdyn__aba_to_parent(const cdyn_model *m, cdyn_data *d, int i)
{
    const cdyn_body *b = &m->bodies[i];
    const cdyn_real *R = d->liR + 9 * i, *p = d->lip + 3 * i;
    cdyn_real *IA = d->IA + 36 * i;
    cdyn_real Y[6][6], pa[6], t[6];
    cdyn__aba_UDinv(d, b, Y);
    for (int j = 0; j < b->nv; ++j) {
        const cdyn_real *U = d->U + 6 * (b->idx_v + j);
        for (int r = 0; r < 6; ++r)
            for (int c = 0; c < 6; ++c)
                IA[6 * r + c] -= U[r] * Y[j][c];
    }
    for (int r = 0; r < 6; ++r) {
        const cdyn_real *row = IA + 6 * r, *c = d->c + 6 * i;
        pa[r] = d->pA[6 * i + r] + row[0] * c[0] + row[1] * c[1] + row[2] * c[2] + row[3] * c[3] +
                row[4] * c[4] + row[5] * c[5];
        for (int j = 0; j < b->nv; ++j)
            pa[r] += Y[j][r] * d->u[b->idx_v + j];
    }
    cdyn_mat6_add_act(d->IA + 36 * b->parent, R, p, IA);
    cdyn_force_act(t, R, p, pa);
    cdyn__add6(d->pA + 6 * b->parent, t);
}

/* Pass 2, leaves to root: U = IA S, D = S^T U (factored), u = tau - S^T pA. */
cdyn_status cdyn__aba_articulated(const cdyn_model *m, cdyn_data *d, const cdyn_real *tau)
{
    for (int i = m->nbodies - 1; i >= 0; --i) {
        const cdyn_body *b = &m->bodies[i];
        const int k0 = b->idx_v, n = b->nv;
        for (int k = k0; k < k0 + n; ++k) {
            cdyn__mat6_mul_S(d->U + 6 * k, d->IA + 36 * i, d, k);
            d->u[k] = tau[k] - cdyn__S_dot(d, k, d->pA + 6 * i);
        }
        cdyn_real *F = d->Dfac + 6 * k0;
        if (n == 1) {
            const cdyn_real D = cdyn__S_dot(d, k0, d->U + 6 * k0);
            if (!(D > 0))
                return CDYN_E_SINGULAR;
            F[0] = 1 / D;
        } else {
            for (int r = 0; r < n; ++r)
                for (int c = 0; c <= r; ++c)
                    F[6 * r + c] = cdyn__S_dot(d, k0 + r, d->U + 6 * (k0 + c));
            if (cdyn__ldl_small(F, n))
                return CDYN_E_SINGULAR;
        }
        if (b->parent >= 0)
            cdyn__aba_to_parent(m, d, i);
    }
    return CDYN_OK;
}

/* Pass 3, root to leaves: a' = X a_parent + c, qdd = D^-1 (u - U^T a'), a = a' + S qdd. */
void cdyn__aba_accelerations(const cdyn_model *m, cdyn_data *d, cdyn_real *ddq)
{
    const cdyn_real a_base[6] = { -m->gravity[0], -m->gravity[1], -m->gravity[2], 0, 0, 0 };
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        const int k0 = b->idx_v, n = b->nv;
        cdyn_real *ai = d->a + 6 * i;
        cdyn_motion_act_inv(ai, d->liR + 9 * i, d->lip + 3 * i,
                            b->parent < 0 ? a_base : d->a + 6 * b->parent);
        cdyn__add6(ai, d->c + 6 * i);
        for (int k = k0; k < k0 + n; ++k) {
            const cdyn_real *U = d->U + 6 * k;
            ddq[k] = d->u[k] - (U[0] * ai[0] + U[1] * ai[1] + U[2] * ai[2] + U[3] * ai[3] +
                                U[4] * ai[4] + U[5] * ai[5]);
        }
        if (n == 1)
            ddq[k0] *= d->Dfac[6 * k0];
        else
            cdyn__ldl_small_solve(d->Dfac + 6 * k0, n, ddq + k0);
        cdyn__S_add(ai, d, b, ddq + k0);
    }
}

/* 1 if every x[k] is finite: x - x is 0 for a finite x, NaN otherwise. */
int cdyn__finite(const cdyn_real *x, int n)
{
    cdyn_real s = 0;
    for (int k = 0; k < n; ++k)
        s += x[k] - x[k];
    return s == 0;
}

cdyn_status cdyn_aba(const cdyn_model *m, cdyn_data *d, const cdyn_real *q, const cdyn_real *v,
                     const cdyn_real *tau, cdyn_real *ddq)
{
    if (cdyn__check(m, d) || !q || !v || !tau || !ddq)
        return CDYN_E_ARG;
    cdyn__aba_velocities(m, d, q, v);
    const cdyn_status s = cdyn__aba_articulated(m, d, tau);
    if (s != CDYN_OK)
        return s;
    cdyn__aba_accelerations(m, d, ddq);
    return cdyn__finite(ddq, m->nv) ? CDYN_OK : CDYN_E_NONFINITE;
}
