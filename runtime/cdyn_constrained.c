/* cdyn_constrained.c — constraint sets given at run time and proxLTL (Carpentier,
 * Budhiraja, Mansard, RSS 2021) over the model table: the same arithmetic as a generated
 * R_prox_ltl, so the two can be cross-checked and timed against each other.
 *
 * The KKT matrix [[-mu I, J], [J^T, M]] is factorised constraints first: M = L^T D L by
 * Featherstone's LTL, then B = D^-1 L^-T J^T on each constraint's support (the DoFs of the
 * chains that move its frames, closed under dof_parent, so the sweep never leaves it),
 * then G + mu I = B^T D B + mu I, dense but small, by the same L^T D L. */
#include <stdint.h>
#include "cdyn_internal.h"

/* ---- the set and its workspace ------------------------------------------------------ */

static int cdyn__constraint_ok(const cdyn_model *m, const cdyn_constraint *c)
{
    if (c->frame_a < 0 || c->frame_a >= m->nframes || c->frame_b < -1 || c->frame_b >= m->nframes ||
        (c->dim != 3 && c->dim != 6) || (c->friction != 0 && c->friction != 1) ||
        (c->friction && (c->dim != 3 || c->frame_b >= 0)))
        return 0; /* a frictional contact is a 3d contact with the world */
    const int body_a = m->frames[c->frame_a].body;
    if (c->frame_b < 0)
        return body_a >= 0; /* a contact on the world moves nothing */
    return body_a != m->frames[c->frame_b].body;
}

/* The set's rows, or -1 if a constraint is invalid. */
static int cdyn__set_rows(const cdyn_model *m, const cdyn_constraint *set, int n)
{
    int nc = 0;
    if (!m || !set || n < 1 || m->nv < 1 || !m->frames || m->nbodies > m->nv)
        return -1; /* nbodies <= nv bounds the per-body workspace */
    for (int k = 0; k < n; ++k) {
        if (!cdyn__constraint_ok(m, &set[k]))
            return -1;
        nc += set[k].dim;
    }
    return nc;
}

size_t cdyn_constraint_data_size(const cdyn_model *m, const cdyn_constraint *set, int n)
{
    const int nc = cdyn__set_rows(m, set, n);
    return nc < 0 ? 0 : CDYN_CONSTRAINT_DATA_BYTES(m->nv, n, nc);
}

/* The last DoF of a frame's body (its chain's deepest), -1 for the world. */
static int cdyn__frame_dof(const cdyn_model *m, int frame)
{
    const int body = frame < 0 ? -1 : m->frames[frame].body;
    return body < 0 ? -1 : m->bodies[body].idx_v + m->bodies[body].nv - 1;
}

/* Constraint k's support: the DoFs on A's chain and B's, ascending: flags first, then
 * compacted in place (entry n <= dof is written after flag dof is read). O(nv), since
 * cdyn_constraint_data_attach runs it on every call of a --size robot. */
static void cdyn__init_support(const cdyn_model *m, cdyn_constraint_data *cd, int k)
{
    const cdyn_constraint *c = &cd->set[k];
    int *s = cd->support + k * m->nv, n = 0;
    for (int dof = 0; dof < m->nv; ++dof)
        s[dof] = 0;
    for (int j = cdyn__frame_dof(m, c->frame_a); j >= 0; j = m->dof_parent[j])
        s[j] = 1;
    for (int j = cdyn__frame_dof(m, c->frame_b); j >= 0; j = m->dof_parent[j])
        s[j] = 1;
    for (int dof = 0; dof < m->nv; ++dof)
        if (s[dof])
            s[n++] = dof;
    cd->nsupport[k] = n;
}

/* The bodies supporting some constraint (both chains of a loop), ascending into
 * cd->sbody: flags first, then compacted in place (entry p <= i is written after flag i
 * is read). */
static void cdyn__init_support_bodies(const cdyn_model *m, cdyn_constraint_data *cd)
{
    int *flag = cd->sbody;
    for (int i = 0; i < m->nbodies; ++i)
        flag[i] = 0;
    for (int k = 0; k < cd->n; ++k) {
        const int f[2] = { cd->set[k].frame_a, cd->set[k].frame_b };
        for (int side = 0; side < 2; ++side)
            for (int b = f[side] < 0 ? -1 : m->frames[f[side]].body; b >= 0;
                 b = m->bodies[b].parent)
                flag[b] = 1;
    }
    cd->nsbody = 0;
    for (int i = 0; i < m->nbodies; ++i)
        if (flag[i])
            cd->sbody[cd->nsbody++] = i;
}

/* The set's rows after the checks every way of carving shares, or a negative cdyn_status;
 * on an error cd (when given) refers to no model and no constraint. */
static int cdyn__constraint_args(cdyn_constraint_data *cd, const cdyn_model *m,
                                 const cdyn_constraint *set, int n, const void *buf, size_t bytes)
{
    const int nc = cdyn__set_rows(m, set, n);
    if (cd) {
        cd->model = NULL;
        cd->n = cd->nc = 0;
    }
    if (!cd || !buf || nc < 0)
        return CDYN_E_ARG;
    return bytes < CDYN_CONSTRAINT_DATA_BYTES(m->nv, n, nc) ? CDYN_E_SIZE : nc;
}

/* Points cd's fields into buf, aligned for cdyn_real: the layout cdyn_constraint_data_init
 * and cdyn_constraint_data_attach share. Returns the first real. */
static cdyn_real *cdyn__constraint_carve(cdyn_constraint_data *cd, const cdyn_model *m,
                                         const cdyn_constraint *set, int n, int nc, void *buf)
{
    const size_t nv = (size_t)m->nv, un = (size_t)n, unc = (size_t)nc;
    const size_t mis = (size_t)((uintptr_t)buf % sizeof(cdyn_real));
    cdyn_real *const first = (cdyn_real *)((char *)buf + (mis ? sizeof(cdyn_real) - mis : 0));
    cdyn_real *next = first;
    cd->model = m;
    cd->set = set;
    cd->n = n;
    cd->nc = nc;
    cd->ref_R = cdyn__carve(&next, un * 9);
    cd->ref_p = cdyn__carve(&next, un * 3);
    cd->aR = cdyn__carve(&next, un * 9);
    cd->ap = cdyn__carve(&next, un * 3);
    cd->bR = cdyn__carve(&next, un * 9);
    cd->bp = cdyn__carve(&next, un * 3);
    cd->J = cdyn__carve(&next, unc * nv);
    cd->B = cdyn__carve(&next, unc * nv);
    cd->gamma = cdyn__carve(&next, unc);
    cd->astar = cdyn__carve(&next, unc);
    cd->r = cdyn__carve(&next, unc);
    cd->x = cdyn__carve(&next, unc);
    cd->Gl = cdyn__carve(&next, unc * unc);
    cd->GD = cdyn__carve(&next, unc);
    cd->nle = cdyn__carve(&next, nv);
    cd->zd = cdyn__carve(&next, nv);
    cd->kappa = cdyn__carve(&next, unc);
    cd->u0 = cdyn__carve(&next, nv);
    cd->dp = cdyn__carve(&next, 6 * nv);
    cd->KA = cdyn__carve(&next, 6 * unc * nv);
    cd->SKA = cdyn__carve(&next, unc * nv);
    cd->Mmu = cdyn__carve(&next, nv * nv);
    cd->row = (int *)next;
    cd->nsupport = cd->row + n;
    cd->support = cd->nsupport + n;
    cd->sbody = cd->support + un * nv;
    return first;
}

/* What depends on the set alone: rows, supports, the bodies supporting it, frame B's
 * placement at the world origin (a contact's B; a loop's is computed before it is read),
 * and the exact zeros of J and B off each row's support (cdyn__jacobian and
 * cdyn__kkt_columns write the supports only; cdyn_constraint_jacobian copies J whole, and
 * cdyn__delassus_lower reads one row's B on another row's support). */
static void cdyn__constraint_constants(cdyn_constraint_data *cd, const cdyn_model *m)
{
    for (int k = 0, row = 0; k < cd->n; row += cd->set[k].dim, ++k) {
        cd->row[k] = row;
        for (int r = 0; r < 9; ++r)
            cd->bR[9 * k + r] = r % 4 == 0;
        cd->bp[3 * k] = cd->bp[3 * k + 1] = cd->bp[3 * k + 2] = 0;
        cdyn__init_support(m, cd, k);
    }
    for (int k = 0; k < cd->n; ++k) { /* the supports' entries kept: an attached buffer's */
        const int *s = cd->support + k * m->nv; /* factor serves cdyn_prox_ltl_derivatives */
        for (int r = cd->row[k]; r < cd->row[k] + cd->set[k].dim; ++r)
            for (int j = 0, t = 0; j < m->nv; ++j) {
                if (t < cd->nsupport[k] && s[t] == j) {
                    ++t;
                    continue;
                }
                cd->J[r * m->nv + j] = cd->B[r * m->nv + j] = 0;
            }
    }
    cdyn__init_support_bodies(m, cd);
}

cdyn_status cdyn_constraint_data_init(cdyn_constraint_data *cd, const cdyn_model *m,
                                      const cdyn_constraint *set, int n, void *buf, size_t bytes)
{
    const int nc = cdyn__constraint_args(cd, m, set, n, buf, bytes);
    if (nc < 0)
        return (cdyn_status)nc;
    cdyn_real *const reals = cdyn__constraint_carve(cd, m, set, n, nc, buf);
    const size_t nreals = CDYN__CONSTRAINT_REALS(m->nv, n, nc);
    for (size_t k = 0; k < nreals; ++k)
        reals[k] = 0;
    cd->primal_residual = cd->dual_residual = 0;
    for (int k = 0; k < n; ++k)
        cd->ref_R[9 * k] = cd->ref_R[9 * k + 4] = cd->ref_R[9 * k + 8] = 1;
    cdyn__constraint_constants(cd, m);
    return CDYN_OK;
}

cdyn_status cdyn_constraint_data_attach(cdyn_constraint_data *cd, const cdyn_model *m,
                                        const cdyn_constraint *set, int n, void *buf, size_t bytes)
{
    const int nc = cdyn__constraint_args(cd, m, set, n, buf, bytes);
    if (nc < 0)
        return (cdyn_status)nc;
    (void)cdyn__constraint_carve(cd, m, set, n, nc, buf);
    cdyn__constraint_constants(cd, m);
    return CDYN_OK;
}

int cdyn_constraint_dim(const cdyn_constraint_data *cd)
{
    return cd ? cd->nc : 0;
}

void cdyn_constraint_residuals(const cdyn_constraint_data *cd, cdyn_real *primal, cdyn_real *dual)
{
    if (primal)
        *primal = cd ? cd->primal_residual : 0;
    if (dual)
        *dual = cd ? cd->dual_residual : 0;
}

cdyn_status cdyn_constraint_set_reference(cdyn_constraint_data *cd, int k, const cdyn_real R[9],
                                          const cdyn_real p[3])
{
    if (!cd || k < 0 || k >= cd->n || !R || !p)
        return CDYN_E_ARG;
    for (int r = 0; r < 9; ++r)
        cd->ref_R[9 * k + r] = R[r];
    for (int r = 0; r < 3; ++r)
        cd->ref_p[3 * k + r] = p[r];
    return CDYN_OK;
}

cdyn_status cdyn__check_cd(const cdyn_model *m, const cdyn_data *d, const cdyn_constraint_data *cd)
{
    return m && d && cd && d->model == m && cd->model == m ? CDYN_OK : CDYN_E_ARG;
}

/* ---- kinematics: placements, J, gamma ----------------------------------------------- */

/* A frame's world placement from its body's (d->oR, d->op). */
static void cdyn__frame_world(const cdyn_model *m, const cdyn_data *d, int f, cdyn_real R[9],
                              cdyn_real p[3])
{
    const cdyn_frame *fr = &m->frames[f];
    if (fr->body < 0) {
        for (int k = 0; k < 9; ++k)
            R[k] = fr->R[k];
        for (int k = 0; k < 3; ++k)
            p[k] = fr->p[k];
        return;
    }
    const cdyn_real *oR = d->oR + 9 * fr->body, *op = d->op + 3 * fr->body;
    cdyn_rot_mul(R, oR, fr->R);
    cdyn_rot_apply(p, oR, fr->p);
    p[0] += op[0];
    p[1] += op[1];
    p[2] += op[2];
}

/* Every constraint frame's world placement, after the bodies'. */
void cdyn__placements(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd)
{
    for (int k = 0; k < cd->n; ++k) {
        cdyn__frame_world(m, d, cd->set[k].frame_a, cd->aR + 9 * k, cd->ap + 3 * k);
        if (cd->set[k].frame_b >= 0)
            cdyn__frame_world(m, d, cd->set[k].frame_b, cd->bR + 9 * k, cd->bp + 3 * k);
    }
}

/* J's rows of constraint k += sign R_A^T (world column of each DoF on the chain ending at
 * `dof`, its linear part taken at point x). d->U holds the world columns (cdyn__crba_world). */
static void cdyn__add_chain(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd,
                            int k, int dof, const cdyn_real x[3], cdyn_real sign)
{
    const int nv = m->nv, dim = cd->set[k].dim;
    const cdyn_real *RA = cd->aR + 9 * k;
    cdyn_real *J = cd->J + cd->row[k] * nv;
    for (int j = dof; j >= 0; j = m->dof_parent[j]) {
        const cdyn_real *u = d->U + 6 * j;
        cdyn_real lin[3], col[6];
        cdyn_cross3(lin, u + 3, x); /* w x x */
        lin[0] += u[0];
        lin[1] += u[1];
        lin[2] += u[2];
        cdyn_rot_apply_t(col, RA, lin);
        cdyn_rot_apply_t(col + 3, RA, u + 3);
        for (int r = 0; r < dim; ++r)
            J[r * nv + j] += sign * col[r];
    }
}

/* J v = R_A^T (v_A - v_B): 6d spatial velocities both at A's origin, 3d each frame's origin. */
void cdyn__jacobian(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd)
{
    const int nv = m->nv;
    for (int k = 0; k < cd->n; ++k) {
        const cdyn_constraint *c = &cd->set[k];
        const int *s = cd->support + k * nv;
        cdyn_real *J = cd->J + cd->row[k] * nv;
        for (int r = 0; r < c->dim; ++r)
            for (int t = 0; t < cd->nsupport[k]; ++t)
                J[r * nv + s[t]] = 0;
        cdyn__add_chain(m, d, cd, k, cdyn__frame_dof(m, c->frame_a), cd->ap + 3 * k, 1);
        cdyn__add_chain(m, d, cd, k, cdyn__frame_dof(m, c->frame_b),
                        c->dim == 6 ? cd->ap + 3 * k : cd->bp + 3 * k, -1);
    }
}

/* A frame's velocity and acceleration in its own axes, from RNEA's body ones (d->v, d->a,
 * gravity entering as the base's upward acceleration a0 = [-g; 0]); a world frame's are
 * 0 and a0. */
static void cdyn__frame_motion(const cdyn_model *m, const cdyn_data *d, int f,
                               const cdyn_real a0[6], cdyn_real v[6], cdyn_real a[6])
{
    const cdyn_frame *fr = &m->frames[f];
    if (fr->body < 0) {
        for (int r = 0; r < 6; ++r)
            v[r] = 0;
        cdyn_motion_act_inv(a, fr->R, fr->p, a0);
        return;
    }
    cdyn_motion_act_inv(v, fr->R, fr->p, d->v + 6 * fr->body);
    cdyn_motion_act_inv(a, fr->R, fr->p, d->a + 6 * fr->body);
}

/* Classical linear acceleration of a frame origin in its axes: a_lin + w x v_lin. */
static void cdyn__classical(cdyn_real res[3], const cdyn_real v[6], const cdyn_real a[6])
{
    cdyn_cross3(res, v + 3, v);
    res[0] += a[0];
    res[1] += a[1];
    res[2] += a[2];
}

/* gamma: 6d a_A - X_{A<-B} a_B; 3d the classical acceleration of A's origin minus B's (in
 * world axes) seen in A's axes. A contact's B is the world, a_B = a0, which removes
 * gravity from A's. Needs RNEA's d->v, d->a at ddq = 0 and the placements. */
void cdyn__drift(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd)
{
    const cdyn_real a0[6] = { -m->gravity[0], -m->gravity[1], -m->gravity[2], 0, 0, 0 };
    for (int k = 0; k < cd->n; ++k) {
        const cdyn_constraint *c = &cd->set[k];
        const cdyn_real *RA = cd->aR + 9 * k, *pA = cd->ap + 3 * k;
        const cdyn_real *RB = cd->bR + 9 * k, *pB = cd->bp + 3 * k;
        cdyn_real va[6], aa[6], vb[6] = { 0, 0, 0, 0, 0, 0 }, ab[6], *g = cd->gamma + cd->row[k];
        cdyn__frame_motion(m, d, c->frame_a, a0, va, aa);
        if (c->frame_b >= 0)
            cdyn__frame_motion(m, d, c->frame_b, a0, vb, ab);
        else
            for (int r = 0; r < 6; ++r)
                ab[r] = a0[r];
        if (c->dim == 6) {
            cdyn_real w[6], bA[6];
            cdyn_motion_act(w, RB, pB, ab);
            cdyn_motion_act_inv(bA, RA, pA, w);
            for (int r = 0; r < 6; ++r)
                g[r] = aa[r] - bA[r];
        } else {
            cdyn_real ca[3], cb[3], w[3], bA[3];
            cdyn__classical(ca, va, aa);
            cdyn__classical(cb, vb, ab);
            cdyn_rot_apply(w, RB, cb);
            cdyn_rot_apply_t(bA, RA, w);
            for (int r = 0; r < 3; ++r)
                g[r] = ca[r] - bA[r];
        }
    }
}

/* Body placements in the world from the joint placements RNEA left in d. */
void cdyn__bodies_in_world(const cdyn_model *m, cdyn_data *d)
{
    for (int i = 0; i < m->nbodies; ++i)
        cdyn__body_in_world(m, d, i);
}

/* ---- the KKT factor ----------------------------------------------------------------- */

/* L(i, j) for j an ancestor of DoF i, and DoF i's ancestor list without i. */
static const int *cdyn__strict_ancestors(const cdyn_data *d, int i, int *len)
{
    *len = d->anc_start[i + 1] - d->anc_start[i] - 1;
    return d->anc + d->anc_start[i];
}

/* B's rows = D^-1 L^-T J^T: the backward sweep of L^T from each support's deepest DoF. */
static void cdyn__kkt_columns(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd)
{
    const int nv = m->nv;
    for (int k = 0; k < cd->n; ++k) {
        const int *s = cd->support + k * nv, ns = cd->nsupport[k];
        for (int r = cd->row[k]; r < cd->row[k] + cd->set[k].dim; ++r) {
            cdyn_real *x = cd->B + r * nv;
            const cdyn_real *J = cd->J + r * nv;
            for (int t = 0; t < ns; ++t)
                x[s[t]] = J[s[t]];
            for (int t = ns - 1; t >= 0; --t) {
                const int i = s[t];
                int na;
                const int *anc = cdyn__strict_ancestors(d, i, &na);
                for (int u = 0; u < na; ++u)
                    x[anc[u]] -= d->LD[i * nv + anc[u]] * x[i];
            }
            for (int t = 0; t < ns; ++t)
                x[s[t]] /= d->LD[s[t] * nv + s[t]];
        }
    }
}

/* The constraint owning row r. */
int cdyn__constraint_of_row(const cdyn_constraint_data *cd, int r)
{
    int k = cd->n - 1;
    while (k > 0 && cd->row[k] > r)
        --k;
    return k;
}

/* G + mu I = B^T D B + mu I, lower triangle into Gl; entries whose supports do not meet
 * are exact zeros (B's rows are zero off their supports). */
void cdyn__delassus_lower(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd,
                          cdyn_real mu)
{
    const int nv = m->nv, nc = cd->nc;
    for (int r = 0; r < nc; ++r) {
        const int k = cdyn__constraint_of_row(cd, r), ns = cd->nsupport[k];
        const int *s = cd->support + k * nv;
        const cdyn_real *br = cd->B + r * nv;
        for (int c = 0; c <= r; ++c) {
            const cdyn_real *bc = cd->B + c * nv;
            cdyn_real g = 0;
            for (int t = 0; t < ns; ++t)
                g += br[s[t]] * d->LD[s[t] * nv + s[t]] * bc[s[t]];
            cd->Gl[r * nc + c] = r == c ? g + mu : g;
        }
    }
}

/* Featherstone's L^T D L of the n x n A in place (lower triangle read), rows k = n-1 .. 0,
 * exact zeros skipped (the fill pattern of the generated factor; a tree's pattern does
 * not fill). D stays on the diagonal, L strictly below. Returns 0, or -1 on a
 * non-positive pivot. */
int cdyn__ltdl_dense(cdyn_real *A, int n)
{
    for (int k = n - 1; k >= 0; --k) {
        if (!(A[k * n + k] > 0))
            return -1;
        const cdyn_real dinv = 1 / A[k * n + k];
        for (int i = k - 1; i >= 0; --i) { /* row k left of i is still unscaled */
            if (A[k * n + i] == 0)
                continue;
            const cdyn_real a = A[k * n + i] * dinv;
            for (int j = 0; j <= i; ++j)
                A[i * n + j] -= a * A[k * n + j];
            A[k * n + i] = a;
        }
    }
    return 0;
}

/* x <- A^-1 x = L^-1 D^-1 L^-T x with the factor of cdyn__ltdl_dense. */
void cdyn__ltdl_dense_solve(const cdyn_real *A, int n, cdyn_real *x)
{
    for (int i = n - 1; i >= 0; --i)
        for (int j = 0; j < i; ++j)
            x[j] -= A[i * n + j] * x[i];
    for (int i = 0; i < n; ++i)
        x[i] /= A[i * n + i];
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < i; ++j)
            x[i] -= A[i * n + j] * x[j];
}

/* The L^T D L of G + mu I in Gl, its D also in GD. */
int cdyn__block_factor(cdyn_constraint_data *cd)
{
    const int nc = cd->nc;
    if (cdyn__ltdl_dense(cd->Gl, nc) != 0)
        return -1;
    for (int k = 0; k < nc; ++k)
        cd->GD[k] = cd->Gl[k * nc + k];
    return 0;
}

/* crba (world columns, M), its LTL, placements and J: what every solve shares. */
cdyn_status cdyn__kinematics(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                             const cdyn_real *q)
{
    cdyn_status st = cdyn_crba(m, d, q, NULL);
    if (st == CDYN_OK)
        st = cdyn_ltl(m, d);
    if (st != CDYN_OK)
        return st;
    cdyn__placements(m, d, cd);
    cdyn__jacobian(m, d, cd);
    cdyn__kkt_columns(m, d, cd);
    return CDYN_OK;
}

/* ---- right-hand sides, iterations, results ------------------------------------------ */

/* (J x)[r] on row r's support. */
cdyn_real cdyn__row_times(const cdyn_model *m, const cdyn_constraint_data *cd, int r,
                          const cdyn_real *x)
{
    const int k = cdyn__constraint_of_row(cd, r), *s = cd->support + k * m->nv;
    const cdyn_real *J = cd->J + r * m->nv;
    cdyn_real y = 0;
    for (int t = 0; t < cd->nsupport[k]; ++t)
        y += J[s[t]] * x[s[t]];
    return y;
}

/* Position error of constraint k in A's axes: R_A^T (p_A - p_ref), and for 6d the
 * small-angle vee(R_e - R_e^T) / 2 of R_e = R_ref^T R_A; the reference is the contact's
 * ref_* or the loop's frame B. */
void cdyn__position_error(const cdyn_constraint_data *cd, int k, cdyn_real e[6])
{
    const int loop = cd->set[k].frame_b >= 0;
    const cdyn_real *RA = cd->aR + 9 * k, *pA = cd->ap + 3 * k;
    const cdyn_real *RR = loop ? cd->bR + 9 * k : cd->ref_R + 9 * k;
    const cdyn_real *pR = loop ? cd->bp + 3 * k : cd->ref_p + 3 * k;
    const cdyn_real dp[3] = { pA[0] - pR[0], pA[1] - pR[1], pA[2] - pR[2] };
    cdyn_real Re[9];
    cdyn_rot_apply_t(e, RA, dp);
    if (cd->set[k].dim < 6)
        return;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            Re[3 * r + c] = RR[r] * RA[c] + RR[3 + r] * RA[3 + c] + RR[6 + r] * RA[6 + c];
    e[3] = CDYN_R(0.5) * (Re[7] - Re[5]);
    e[4] = CDYN_R(0.5) * (Re[2] - Re[6]);
    e[5] = CDYN_R(0.5) * (Re[3] - Re[1]);
}

/* Baumgarte for constraint k: a* = -Kp e - Kd jv, jv its rows of J v (no gains: a* = 0). */
void cdyn__baumgarte_one(cdyn_constraint_data *cd, const cdyn_prox_settings *s, int k,
                         const cdyn_real jv[6])
{
    const cdyn_real kp = s->Kp ? s->Kp[k] : 0, kd = s->Kd ? s->Kd[k] : 0;
    cdyn_real e[6], *astar = cd->astar + cd->row[k];
    if (!s->Kp && !s->Kd) {
        for (int r = 0; r < cd->set[k].dim; ++r)
            astar[r] = 0;
        return;
    }
    cdyn__position_error(cd, k, e);
    for (int r = 0; r < cd->set[k].dim; ++r)
        astar[r] = -(kp * e[r] + kd * jv[r]);
}

/* Baumgarte for the set, J v from cd->J (computed only with gains). */
void cdyn__baumgarte(const cdyn_model *m, cdyn_constraint_data *cd, const cdyn_prox_settings *s,
                     const cdyn_real *v)
{
    for (int k = 0; k < cd->n; ++k) {
        cdyn_real jv[6] = { 0, 0, 0, 0, 0, 0 };
        if (s->Kp || s->Kd)
            for (int r = 0; r < cd->set[k].dim; ++r)
                jv[r] = cdyn__row_times(m, cd, cd->row[k] + r, v);
        cdyn__baumgarte_one(cd, s, k, jv);
    }
}

/* z = L^-T (tau - nle), zd = D^-1 z, r = a* - gamma - B^T z. */
static void cdyn__prox_rhs(const cdyn_model *m, const cdyn_data *d, cdyn_constraint_data *cd,
                           const cdyn_real *tau)
{
    const int nv = m->nv;
    cdyn_real *z = cd->zd;
    for (int i = 0; i < nv; ++i)
        z[i] = tau[i] - cd->nle[i];
    for (int i = nv - 1; i >= 0; --i) {
        int na;
        const int *anc = cdyn__strict_ancestors(d, i, &na);
        for (int u = 0; u < na; ++u)
            z[anc[u]] -= d->LD[i * nv + anc[u]] * z[i];
    }
    for (int r = 0; r < cd->nc; ++r) {
        const int k = cdyn__constraint_of_row(cd, r), *s = cd->support + k * nv;
        const cdyn_real *b = cd->B + r * nv;
        cdyn_real y = 0;
        for (int t = 0; t < cd->nsupport[k]; ++t)
            y += b[s[t]] * z[s[t]];
        cd->r[r] = cd->astar[r] - cd->gamma[r] - y;
    }
    for (int i = 0; i < nv; ++i)
        z[i] /= d->LD[i * nv + i];
}

/* out = L^-1 (base + B lambda), base zd or 0. */
void cdyn__back_substitute(const cdyn_model *m, const cdyn_data *d, const cdyn_constraint_data *cd,
                           const cdyn_real *base, const cdyn_real *lambda, cdyn_real *out)
{
    const int nv = m->nv;
    for (int i = 0; i < nv; ++i)
        out[i] = base ? base[i] : 0;
    for (int r = 0; r < cd->nc; ++r) {
        const int k = cdyn__constraint_of_row(cd, r), *s = cd->support + k * nv;
        const cdyn_real *b = cd->B + r * nv;
        for (int t = 0; t < cd->nsupport[k]; ++t)
            out[s[t]] += b[s[t]] * lambda[r];
    }
    for (int i = 0; i < nv; ++i) {
        int na;
        const int *anc = cdyn__strict_ancestors(d, i, &na);
        cdyn_real y = out[i];
        for (int u = 0; u < na; ++u)
            y -= d->LD[i * nv + anc[u]] * out[anc[u]];
        out[i] = y;
    }
}

/* mu > 0 and at least one iteration. */
int cdyn__settings_ok(const cdyn_prox_settings *s)
{
    return s && s->mu > 0 && s->max_iter >= 1;
}

/* Every solver's bookkeeping after iteration `it` with ||lambda_k+1 - lambda_k||_inf = dual:
 * the primal residual G lambda_k+1 - r of the proximal step equals mu (lambda_k -
 * lambda_k+1), so both residuals come from the change of lambda. 1 when it stops: after
 * max_iter, or when every positive tolerance is met. */
int cdyn__prox_stop(cdyn_constraint_data *cd, const cdyn_prox_settings *s, int it, cdyn_real dual)
{
    const int use_tol = s->abs_tol > 0 || s->rel_tol > 0;
    cd->dual_residual = dual;
    cd->primal_residual = s->mu * dual;
    if (it >= s->max_iter)
        return 1;
    return use_tol && (!(s->abs_tol > 0) || cd->primal_residual <= s->abs_tol) &&
           (!(s->rel_tol > 0) || dual <= s->rel_tol);
}

int cdyn__prox_missed(const cdyn_constraint_data *cd, const cdyn_prox_settings *s)
{
    return (s->abs_tol > 0 && !(cd->primal_residual <= s->abs_tol)) ||
           (s->rel_tol > 0 && !(cd->dual_residual <= s->rel_tol));
}

/* Proximal iterations on lambda from cd->r: (G + mu I) lambda_k+1 = r + mu lambda_k. */
int cdyn__prox_iterate(cdyn_constraint_data *cd, const cdyn_prox_settings *s, cdyn_real *lambda)
{
    cdyn_real *x = cd->x;
    if (!s->warm_start)
        for (int k = 0; k < cd->nc; ++k)
            lambda[k] = 0;
    for (int it = 1;; ++it) {
        cdyn_real dual = 0;
        for (int k = 0; k < cd->nc; ++k)
            x[k] = cd->r[k] + s->mu * lambda[k];
        cdyn__ltdl_dense_solve(cd->Gl, cd->nc, x);
        for (int k = 0; k < cd->nc; ++k) {
            const cdyn_real e = x[k] - lambda[k], a = e < 0 ? -e : e;
            if (!(a <= dual))
                dual = a; /* keeps a NaN */
            lambda[k] = x[k];
        }
        if (cdyn__prox_stop(cd, s, it, dual))
            return it;
    }
}

/* ---- the API ------------------------------------------------------------------------ */

cdyn_status cdyn_constraint_capture(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                                    const cdyn_real *q)
{
    if (cdyn__check_cd(m, d, cd) || !q)
        return CDYN_E_ARG;
    cdyn_status st = cdyn_fk(m, d, q);
    if (st != CDYN_OK)
        return st;
    cdyn__placements(m, d, cd);
    for (int k = 0; k < cd->n; ++k) {
        if (cd->set[k].frame_b >= 0)
            continue;
        for (int r = 0; r < 9; ++r)
            cd->ref_R[9 * k + r] = cd->aR[9 * k + r];
        for (int r = 0; r < 3; ++r)
            cd->ref_p[3 * k + r] = cd->ap[3 * k + r];
    }
    return CDYN_OK;
}

cdyn_status cdyn_constraint_jacobian(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                                     const cdyn_real *q, cdyn_real *J)
{
    if (cdyn__check_cd(m, d, cd) || !q || !J)
        return CDYN_E_ARG;
    cdyn__crba_world(m, d, q);
    cdyn__placements(m, d, cd);
    cdyn__jacobian(m, d, cd);
    for (int k = 0; k < cd->nc * m->nv; ++k)
        J[k] = cd->J[k];
    return CDYN_OK;
}

cdyn_status cdyn_constraint_drift(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                                  const cdyn_real *q, const cdyn_real *v, cdyn_real *gamma)
{
    if (cdyn__check_cd(m, d, cd) || !q || !v || !gamma)
        return CDYN_E_ARG;
    cdyn_status st = cdyn_nle(m, d, q, v, cd->nle);
    if (st != CDYN_OK)
        return st;
    cdyn__bodies_in_world(m, d);
    cdyn__placements(m, d, cd);
    cdyn__drift(m, d, cd);
    for (int k = 0; k < cd->nc; ++k)
        gamma[k] = cd->gamma[k];
    return CDYN_OK;
}

int cdyn_prox_ltl(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                  const cdyn_prox_settings *settings, const cdyn_real *q, const cdyn_real *v,
                  const cdyn_real *tau, cdyn_real *ddq, cdyn_real *lambda)
{
    if (cdyn__check_cd(m, d, cd) || !cdyn__settings_ok(settings) || !q || !v || !tau || !ddq ||
        !lambda)
        return CDYN_E_ARG;
    cdyn_status st = cdyn_nle(m, d, q, v, cd->nle); /* leaves d->v, d->a at ddq = 0 */
    if (st == CDYN_OK)
        st = cdyn__kinematics(m, d, cd, q);
    if (st != CDYN_OK)
        return st;
    cdyn__drift(m, d, cd);
    cdyn__delassus_lower(m, d, cd, settings->mu);
    if (cdyn__block_factor(cd) != 0)
        return CDYN_E_SINGULAR;
    cdyn__baumgarte(m, cd, settings, v);
    cdyn__prox_rhs(m, d, cd, tau);
    const int it = cdyn__prox_iterate(cd, settings, lambda);
    cdyn__back_substitute(m, d, cd, cd->zd, lambda, ddq);
    if (!cdyn__finite(ddq, m->nv) || !cdyn__finite(lambda, cd->nc))
        return CDYN_E_NONFINITE;
    return cdyn__prox_missed(cd, settings) ? CDYN_E_NOT_CONVERGED : it;
}

cdyn_status cdyn_delassus(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                          const cdyn_real *q, cdyn_real mu, cdyn_real *G)
{
    if (cdyn__check_cd(m, d, cd) || !q || !G)
        return CDYN_E_ARG;
    cdyn_status st = cdyn__kinematics(m, d, cd, q);
    if (st != CDYN_OK)
        return st;
    cdyn__delassus_lower(m, d, cd, mu);
    const int nc = cd->nc;
    for (int r = 0; r < nc; ++r)
        for (int c = 0; c <= r; ++c)
            G[r * nc + c] = G[c * nc + r] = cd->Gl[r * nc + c];
    return CDYN_OK;
}

int cdyn_impulse(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                 const cdyn_prox_settings *settings, const cdyn_real *q, const cdyn_real *v_before,
                 cdyn_real restitution, cdyn_real *v_after, cdyn_real *impulse)
{
    if (cdyn__check_cd(m, d, cd) || !cdyn__settings_ok(settings) || !q || !v_before || !v_after ||
        !impulse)
        return CDYN_E_ARG;
    cdyn_status st = cdyn__kinematics(m, d, cd, q);
    if (st != CDYN_OK)
        return st;
    cdyn__delassus_lower(m, d, cd, settings->mu);
    if (cdyn__block_factor(cd) != 0)
        return CDYN_E_SINGULAR;
    for (int r = 0; r < cd->nc; ++r)
        cd->r[r] = -(1 + restitution) * cdyn__row_times(m, cd, r, v_before);
    const int it = cdyn__prox_iterate(cd, settings, impulse);
    cdyn__back_substitute(m, d, cd, NULL, impulse, v_after);
    for (int i = 0; i < m->nv; ++i)
        v_after[i] += v_before[i];
    if (!cdyn__finite(v_after, m->nv) || !cdyn__finite(impulse, cd->nc))
        return CDYN_E_NONFINITE;
    return cdyn__prox_missed(cd, settings) ? CDYN_E_NOT_CONVERGED : it;
}
