/* cdyn_contact.c — the contact step's problem (cdyn_contact.h): from the set's J and
 * Delassus matrix, the frames' placements and the free velocity, the cone complementarity
 * problem over this step's active contacts; its solve; and the generic step over a model
 * table (cdyn_contact_step). The generated R_contact_step calls the same assembly and
 * solve with its own J, G and ABA, so both take the same path to rounding. */
#include "cdyn.h"
#include "cdyn_internal.h"

#include <stdint.h>

static int is_finite(cdyn_real x)
{
    return x - x == 0; /* NaN - NaN and inf - inf are NaN */
}

/* out[r] = A's row r . x (A: rows x cols, row-major), each sum in column order, four rows
 * at a time: four independent chains of additions instead of one, whose latency bounds a
 * dot product (J v over a humanoid's 50 columns: 200 cycles a row). */
static void rows_dot(const cdyn_real *A, int rows, int cols, const cdyn_real *x, cdyn_real *out)
{
    const size_t ld = (size_t)cols;
    int r = 0;
    for (; r + 4 <= rows; r += 4) {
        const cdyn_real *a0 = A + (size_t)r * ld, *a1 = a0 + ld, *a2 = a1 + ld, *a3 = a2 + ld;
        cdyn_real s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (int j = 0; j < cols; ++j) {
            s0 += a0[j] * x[j];
            s1 += a1[j] * x[j];
            s2 += a2[j] * x[j];
            s3 += a3[j] * x[j];
        }
        out[r] = s0, out[r + 1] = s1, out[r + 2] = s2, out[r + 3] = s3;
    }
    for (; r < rows; ++r) {
        cdyn_real s = 0;
        for (int j = 0; j < cols; ++j)
            s += A[(size_t)r * ld + (size_t)j] * x[j];
        out[r] = s;
    }
}

/* out = A x and out2 = A x2 as rows_dot, each sum in the same order, in one pass over A's
 * rows, two at a time (J v and J v_f: J read once). */
static void rows_dot2(const cdyn_real *A, int rows, int cols, const cdyn_real *x,
                      const cdyn_real *x2, cdyn_real *out, cdyn_real *out2)
{
    const size_t ld = (size_t)cols;
    int r = 0;
    for (; r + 2 <= rows; r += 2) {
        const cdyn_real *a0 = A + (size_t)r * ld, *a1 = a0 + ld;
        cdyn_real s0 = 0, s1 = 0, t0 = 0, t1 = 0;
        for (int j = 0; j < cols; ++j) {
            s0 += a0[j] * x[j];
            s1 += a1[j] * x[j];
            t0 += a0[j] * x2[j];
            t1 += a1[j] * x2[j];
        }
        out[r] = s0, out[r + 1] = s1, out2[r] = t0, out2[r + 1] = t1;
    }
    for (; r < rows; ++r) {
        cdyn_real s = 0, t = 0;
        for (int j = 0; j < cols; ++j) {
            s += A[(size_t)r * ld + (size_t)j] * x[j];
            t += A[(size_t)r * ld + (size_t)j] * x2[j];
        }
        out[r] = s, out2[r] = t;
    }
}

static int layout_ok(const cdyn_contact_layout *l, int *nc)
{
    *nc = 0;
    if (!l || l->n < 0 || l->nlimits < 0 || l->n + l->nlimits < 1 || l->nv < 1 ||
        (l->n > 0 && (!l->dims || !l->friction)) || (l->nlimits > 0 && !l->limits))
        return 0;
    for (int k = 0; k < l->n; ++k) {
        if (l->dims[k] < 1 || l->dims[k] > 6 || (l->friction[k] != 0 && l->friction[k] != 1) ||
            (l->friction[k] && l->dims[k] != 3))
            return 0;
        *nc += l->dims[k];
    }
    for (int k = 0; k < l->nlimits; ++k) {
        const cdyn_joint_limit *j = &l->limits[k];
        if (j->idx_v < 0 || j->idx_v >= l->nv || j->idx_q < 0 || !is_finite(j->lower) ||
            !is_finite(j->upper) || !(j->lower < j->upper))
            return 0;
    }
    return 1;
}

/* Points p's arrays into buf (the layout of CDYN_CONTACT_PROBLEM_BYTES) and refills what
 * the layout decides: rows, blocks' kinds and sizes; the active flags are read back (as 0
 * or 1), so a buffer of unknown bytes gives a consistent, in-bounds problem. */
static cdyn_status carve(cdyn_contact_problem *p, const cdyn_contact_layout *l, void *buf,
                         size_t bytes)
{
    int nc;
    if (!p || !buf || !layout_ok(l, &nc))
        return CDYN_E_ARG;
    if (bytes < CDYN_CONTACT_PROBLEM_BYTES(l->n, nc, l->nlimits, l->nv))
        return CDYN_E_SIZE;
    const int nb = l->n + 2 * l->nlimits, nr = nc + 2 * l->nlimits;
    const size_t unb = (size_t)nb, unr = (size_t)nr, unv = (size_t)l->nv;
    const size_t mis = (size_t)((uintptr_t)buf % sizeof(cdyn_real));
    cdyn_real *next = (cdyn_real *)(void *)((char *)buf + (mis ? sizeof(cdyn_real) - mis : 0));
    p->n = l->n;
    p->nc = nc;
    p->nv = l->nv;
    p->nlimits = l->nlimits;
    p->limits = l->limits;
    p->nb = nb;
    p->nr = nr;
    p->J = cdyn__carve(&next, unr * unv);
    p->Gset = cdyn__carve(&next, (size_t)nc * (size_t)nc);
    p->Y = cdyn__carve(&next, (size_t)l->nlimits * unv);
    p->Gall = cdyn__carve(&next, unr * unr);
    if (l->nlimits == 0)
        p->Gall = p->Gset; /* nr = nc: Gall is Gset, not a copy of it */
    p->G = cdyn__carve(&next, unr * unr);
    p->basis = cdyn__carve(&next, 9 * unb);
    p->T = cdyn__carve(&next, 9 * unb);
    p->phi = cdyn__carve(&next, unb);
    p->bound = cdyn__carve(&next, unb);
    p->Jv = cdyn__carve(&next, unr);
    p->Jvf = cdyn__carve(&next, unr);
    p->g = cdyn__carve(&next, unr);
    p->x = cdyn__carve(&next, unr);
    p->y = cdyn__carve(&next, unr);
    p->lambda = cdyn__carve(&next, unr);
    p->c = cdyn__carve(&next, unr);
    p->impulse = cdyn__carve(&next, unv);
    p->vf = cdyn__carve(&next, unv);
    p->scratch = cdyn__carve(&next, 2 * unv);
    p->power = cdyn__carve(&next, unr);
    p->work = cdyn__carve(&next, CDYN_CONE_WORK_REALS(nr));
    p->stats = (cdyn_cone_stats *)(void *)next;
    p->cones = (cdyn_cone *)(void *)(p->stats + 1);
    p->step_cones = p->cones + nb;
    int *ints = (int *)(void *)(p->step_cones + nb);
    p->block_row = ints;
    p->set_row = ints + nb;
    p->active = ints + 2 * nb;
    p->m = p->ncones = 0;
    for (int k = 0, row = 0; k < nb; ++k) {
        const int dim = k < l->n ? l->dims[k] : 1;
        p->set_row[k] = row;
        p->cones[k].kind = k >= l->n        ? CDYN_CONE_POSITIVE
                           : l->friction[k] ? CDYN_CONE_FRICTION
                                            : CDYN_CONE_FREE;
        p->cones[k].dim = dim;
        p->active[k] = p->active[k] == 1;
        p->block_row[k] = p->active[k] ? p->m : -1;
        if (p->active[k]) {
            p->m += dim;
            p->ncones++;
        }
        row += dim;
    }
    return CDYN_OK;
}

cdyn_status cdyn_contact_problem_init(cdyn_contact_problem *p, const cdyn_contact_layout *l,
                                      void *buf, size_t bytes)
{
    const cdyn_status st = carve(p, l, buf, bytes);
    if (st != CDYN_OK)
        return st;
    for (int k = 0; k < p->nb; ++k) {
        p->active[k] = 0;
        p->block_row[k] = -1;
        p->cones[k].mu = 0;
    }
    p->m = p->ncones = 0;
    for (int r = 0; r < p->nr; ++r)
        p->lambda[r] = p->power[r] = 0; /* a zero power vector: the first solve starts from ones */
    p->stats->iterations = 0;
    p->stats->primal = p->stats->dual = p->stats->complementarity = 0;
    p->stats->change = p->stats->rho = 0;
    return CDYN_OK;
}

cdyn_status cdyn_contact_problem_attach(cdyn_contact_problem *p, const cdyn_contact_layout *l,
                                        void *buf, size_t bytes)
{
    return carve(p, l, buf, bytes);
}

/* ---- assembly ----------------------------------------------------------------------- */

static int settings_ok(const cdyn_contact_settings *s, int n)
{
    if (!(s->dt > 0) || !is_finite(s->dt) || !(s->margin >= 0) || !is_finite(s->margin) ||
        !(s->stabilisation >= 0 && s->stabilisation <= 1) || !is_finite(s->ground_height) ||
        s->cone.max_iter < 1) /* the solvers' own refusal, before the robot's terms */
        return 0;
    if (!s->mu && !(s->friction >= 0 && is_finite(s->friction)))
        return 0;
    if (s->model != CDYN_CONTACT_RIGID && s->model != CDYN_CONTACT_SOFT)
        return 0;
    const int soft = s->model == CDYN_CONTACT_SOFT;
    if (soft && ((!s->stiffness && !(s->soft_stiffness > 0 && is_finite(s->soft_stiffness))) ||
                 (!s->damping && !(s->soft_damping >= 0 && is_finite(s->soft_damping)))))
        return 0;
    for (int k = 0; k < n; ++k) {
        if (soft && s->stiffness && !(s->stiffness[k] > 0 && is_finite(s->stiffness[k])))
            return 0;
        if (soft && s->damping && !(s->damping[k] >= 0 && is_finite(s->damping[k])))
            return 0;
        if (s->mu && !(s->mu[k] >= 0 && is_finite(s->mu[k])))
            return 0;
        if (s->restitution && !(s->restitution[k] >= 0 && s->restitution[k] <= 1))
            return 0;
        if (s->radius && !is_finite(s->radius[k]))
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
    if (!(len2 > 0) || !is_finite(len2))
        return 0;
    const cdyn_real inv = 1 / CDYN_SQRT(len2);
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
    const cdyn_real inv = 1 / CDYN_SQRT(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
    for (int i = 0; i < 3; ++i) {
        B[i] = t[i] * inv;
        B[6 + i] = nrm[i];
    }
    cdyn_cross3(B + 3, B + 6, B); /* t2 = n x t1 */
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
    cdyn_real t[3]; /* x and y may be one array */
    if (transposed)
        cdyn_rot_apply_t(t, T, x);
    else
        cdyn_rot_apply(t, T, x);
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
        return s->normal && !cdyn__all_finite(s->normal + 3 * k, 3) ? CDYN_E_NONFINITE : CDYN_E_ARG;
    if (!cdyn__all_finite(R, 9) || !cdyn__all_finite(pos, 3))
        return CDYN_E_NONFINITE;
    const cdyn_real radius = s->radius ? s->radius[k] : 0;
    cdyn_real phi =
        s->phi ? s->phi[k]
               : nrm[0] * pos[0] + nrm[1] * pos[1] + nrm[2] * (pos[2] - s->ground_height) - radius;
    if (!is_finite(phi))
        return CDYN_E_NONFINITE;
    p->phi[k] = phi;
    contact_basis(R, nrm, p->basis + 9 * k);
    cdyn_rot_mul(p->T + 9 * k, p->basis + 9 * k, R); /* T = B R: frame A's axes to the basis */
    p->cones[k].mu = s->mu ? s->mu[k] : s->friction;
    return CDYN_OK;
}

/* b: the normal velocity the contact must reach (seed 002's -phi/dt, a fraction of it when
 * penetrating, restitution's -e v_n when it arrives within the step). */
static cdyn_real normal_bound(const cdyn_contact_settings *s, cdyn_real e, cdyn_real phi,
                              cdyn_real vn)
{
    cdyn_real b = phi >= 0 ? -phi / s->dt : -s->stabilisation * phi / s->dt;
    if (e > 0 && vn < 0 && phi + s->dt * vn <= 0 && -e * vn > b)
        b = -e * vn;
    return b;
}

/* A soft contact k's spring-damper in the step (cdyn_contact.h): its rows' compliance 1/beta,
 * beta = dt (d + k dt), the bound b_s = -k phi / (d + k dt) of its normal row, and the horizon
 * dt + d/k over which its free motion is looked ahead for activation. */
typedef struct {
    cdyn_real compliance, bound, horizon;
} soft_row;

static soft_row soft_contact(const cdyn_contact_settings *s, int k, cdyn_real phi)
{
    const cdyn_real stiff = s->stiffness ? s->stiffness[k] : s->soft_stiffness;
    const cdyn_real damp = s->damping ? s->damping[k] : s->soft_damping;
    const cdyn_real rate = damp + stiff * s->dt; /* d + k dt > 0: k > 0, d >= 0 */
    soft_row r;
    r.compliance = 1 / (s->dt * rate);
    r.bound = -stiff * phi / rate;
    r.horizon = s->dt + damp / stiff;
    return r;
}

static int is_soft(const cdyn_contact_problem *p, const cdyn_contact_settings *s, int k)
{
    return s->model == CDYN_CONTACT_SOFT && p->cones[k].kind == CDYN_CONE_FRICTION;
}

/* G's block (i, j) of the step's problem, T_i Gall_ij T_j^T, and its mirror (j, i) (G is
 * symmetric). Two frictional contacts, most blocks, take the straight 3 x 3 route. */
static void delassus_block(cdyn_contact_problem *p, int i, int j)
{
    const int di = p->cones[i].dim, dj = p->cones[j].dim, nr = p->nr, m = p->m;
    const cdyn_real *Ti = rotation_of(p, i), *Tj = rotation_of(p, j);
    const cdyn_real *src = p->Gall + (size_t)p->set_row[i] * nr + p->set_row[j];
    cdyn_real *dst = p->G + (size_t)p->block_row[i] * m + p->block_row[j];
    cdyn_real *mirror = p->G + (size_t)p->block_row[j] * m + p->block_row[i];
    cdyn_real blk[6][6];
    if (Ti && Tj) {
        cdyn_real a[9], b[9];
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                a[3 * r + c] = src[(size_t)r * nr + c];
        cdyn_rot_mul(b, Ti, a);   /* T_i Gall_ij */
        cdyn_rot_mul_t(a, b, Tj); /* (T_i Gall_ij) T_j^T */
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                dst[(size_t)r * m + c] = mirror[(size_t)c * m + r] = a[3 * r + c];
        return;
    }
    for (int b = 0; b < dj; ++b) { /* column b of Gall_ij, rotated by T_i */
        cdyn_real col[6] = { 0 }, rot[6] = { 0 };
        for (int a = 0; a < di; ++a)
            col[a] = src[(size_t)a * nr + b];
        rotate(Ti, di, 0, col, rot);
        for (int a = 0; a < di; ++a)
            blk[a][b] = rot[a];
    }
    for (int a = 0; a < di; ++a) { /* each row, rotated by T_j */
        cdyn_real rot[6] = { 0 };
        rotate(Tj, dj, 0, blk[a], rot);
        for (int b = 0; b < dj; ++b)
            dst[(size_t)a * m + b] = mirror[(size_t)b * m + a] = rot[b];
    }
}

/* Gall and J's limit rows from the robot's Gset, J and Y = M^-1 e_k: a limit's row of J is
 * +-e_k, so its row of J M^-1 J^T is +-(J Y_k) against the set and +-Y_k[k'] against
 * another limit. */
static void extend_rows(cdyn_contact_problem *p)
{
    const int nc = p->nc, nr = p->nr, nv = p->nv;
    if (p->Gall == p->Gset) /* no limits */
        return;
    for (int r = 0; r < nc; ++r)
        for (int c = 0; c < nc; ++c)
            p->Gall[(size_t)r * nr + c] = p->Gset[(size_t)r * nc + c];
    for (int a = nc; a < nr; ++a) {
        const int la = (a - nc) / 2;
        const cdyn_real sa = (a - nc) % 2 ? -1 : 1;
        const cdyn_real *Ya = p->Y + (size_t)la * nv;
        for (int j = 0; j < nv; ++j)
            p->J[(size_t)a * nv + j] = 0;
        p->J[(size_t)a * nv + p->limits[la].idx_v] = sa;
        for (int r = 0; r < nc; ++r) {
            cdyn_real t = 0;
            for (int j = 0; j < nv; ++j)
                t += p->J[(size_t)r * nv + j] * Ya[j];
            p->Gall[(size_t)a * nr + r] = p->Gall[(size_t)r * nr + a] = sa * t;
        }
        for (int b = nc; b < nr; ++b) {
            const cdyn_real sb = (b - nc) % 2 ? -1 : 1;
            p->Gall[(size_t)a * nr + b] = sa * sb * Ya[p->limits[(b - nc) / 2].idx_v];
        }
    }
}

/* The row of block k that the bound b acts on: a contact's normal, a limit's only row. */
static int normal_row(const cdyn_contact_problem *p, int k)
{
    return p->set_row[k] + (p->cones[k].kind == CDYN_CONE_FRICTION ? 2 : 0);
}

static cdyn_status block_geometry(cdyn_contact_problem *p, const cdyn_contact_settings *s,
                                  const cdyn_real *q, const cdyn_real *aR, const cdyn_real *ap)
{
    for (int k = 0; k < p->nb; ++k) {
        if (p->cones[k].kind == CDYN_CONE_FRICTION) {
            const cdyn_status st = contact_geometry(p, s, k, aR + 9 * k, ap + 3 * k);
            if (st != CDYN_OK)
                return st;
        } else if (p->cones[k].kind == CDYN_CONE_POSITIVE) {
            const cdyn_joint_limit *l = &p->limits[(k - p->n) / 2];
            const cdyn_real qk = q[l->idx_q];
            if (!is_finite(qk))
                return CDYN_E_NONFINITE;
            p->phi[k] = (k - p->n) % 2 ? l->upper - qk : qk - l->lower;
        }
    }
    return CDYN_OK;
}

cdyn_status cdyn_contact_assemble(cdyn_contact_problem *p, const cdyn_contact_settings *s,
                                  const cdyn_real *q, const cdyn_real *aR, const cdyn_real *ap,
                                  const cdyn_real *v, const cdyn_real *vf)
{
    if (!p || !s || !q || (p->n > 0 && (!aR || !ap)) || !v || !vf)
        return CDYN_E_ARG;
    if (!settings_ok(s, p->n))
        return s->dt - s->dt != 0 ? CDYN_E_NONFINITE : CDYN_E_ARG;
    const int nc = p->nc, nr = p->nr, nv = p->nv;
    if (!cdyn__all_finite(v, (size_t)nv) || !cdyn__all_finite(vf, (size_t)nv) ||
        !cdyn__all_finite(p->J, (size_t)nc * (size_t)nv) ||
        !cdyn__all_finite(p->Gset, (size_t)nc * (size_t)nc) ||
        !cdyn__all_finite(p->Y, (size_t)p->nlimits * (size_t)nv))
        return CDYN_E_NONFINITE;
    const cdyn_status st = block_geometry(p, s, q, aR, ap);
    if (st != CDYN_OK)
        return st;
    extend_rows(p);
    rows_dot2(p->J, nr, nv, v, vf, p->Jv, p->Jvf); /* J v and J v_f in the frames' axes */
    p->m = p->ncones = 0;
    for (int k = 0; k < p->nb; ++k) { /* rotate into the bases, number the active blocks */
        const int d = p->cones[k].dim, r = p->set_row[k], nrow = normal_row(p, k);
        rotate(rotation_of(p, k), d, 0, p->Jv + r, p->Jv + r);
        rotate(rotation_of(p, k), d, 0, p->Jvf + r, p->Jvf + r);
        if (p->cones[k].kind != CDYN_CONE_FREE) { /* within the margin, or brought there */
            const cdyn_real ahead =
                is_soft(p, s, k) ? soft_contact(s, k, p->phi[k]).horizon : s->dt;
            p->active[k] = p->phi[k] <= s->margin || p->phi[k] + ahead * p->Jvf[nrow] <= s->margin;
        } else
            p->active[k] = 1;
        p->block_row[k] = p->active[k] ? p->m : -1;
        if (p->active[k]) {
            p->m += d;
            p->ncones++;
        }
    }
    for (int i = 0; i < p->nb; ++i) {
        if (!p->active[i])
            continue;
        for (int j = i; j < p->nb; ++j) /* the upper blocks, mirrored */
            if (p->active[j])
                delassus_block(p, i, j);
        const int d = p->cones[i].dim, r = p->set_row[i], row = p->block_row[i];
        for (int a = 0; a < d; ++a)
            p->g[row + a] = p->Jvf[r + a];
        if (is_soft(p, s, i)) { /* the spring-damper: compliance on the 3 rows, b_s */
            const soft_row sr = soft_contact(s, i, p->phi[i]);
            for (int a = 0; a < 3; ++a)
                p->G[(size_t)(row + a) * (size_t)p->m + (size_t)(row + a)] += sr.compliance;
            p->bound[i] = sr.bound;
            p->g[row + 2] -= sr.bound;
        } else if (p->cones[i].kind != CDYN_CONE_FREE) {
            const int nrow = normal_row(p, i);
            const cdyn_real e = i < p->n && s->restitution ? s->restitution[i] : 0;
            p->bound[i] = normal_bound(s, e, p->phi[i], p->Jv[nrow]);
            p->g[row + nrow - r] -= p->bound[i];
        }
    }
    return CDYN_OK;
}

/* ---- the solve ---------------------------------------------------------------------- */

/* The active blocks' cones, packed (p->cones keeps every constraint's, in set order). */
static int active_cones(const cdyn_contact_problem *p, cdyn_cone *out)
{
    int n = 0;
    for (int k = 0; k < p->nb; ++k)
        if (p->active[k])
            out[n++] = p->cones[k];
    return n;
}

static void clear_results(cdyn_contact_problem *p)
{
    for (int r = 0; r < p->nr; ++r)
        p->lambda[r] = p->c[r] = 0;
    for (int j = 0; j < p->nv; ++j)
        p->impulse[j] = 0;
}

/* lambda, c and the impulse from the solver's x: lambda in the blocks' layout, the
 * velocities J v+ = J v_f + Gall lambda_A of every row (left-out blocks too), J^T lambda_A. */
static void scatter_results(cdyn_contact_problem *p)
{
    const int nr = p->nr, nv = p->nv;
    cdyn_real *lambdaA = p->y; /* the solver's c is no longer needed */
    for (int k = 0; k < p->nb; ++k) {
        const int d = p->cones[k].dim, r = p->set_row[k], b = p->block_row[k];
        for (int a = 0; a < d; ++a)
            p->lambda[r + a] = b >= 0 ? p->x[b + a] : 0;
    }
    for (int k = 0; k < p->nb; ++k)
        rotate(rotation_of(p, k), p->cones[k].dim, 1, p->lambda + p->set_row[k],
               lambdaA + p->set_row[k]);
    rows_dot(p->Gall, nr, nr, lambdaA, p->c);
    for (int k = 0; k < p->nb; ++k) {
        const int r = p->set_row[k];
        rotate(rotation_of(p, k), p->cones[k].dim, 0, p->c + r, p->c + r);
        for (int a = 0; a < p->cones[k].dim; ++a)
            p->c[r + a] += p->Jvf[r + a];
    }
    for (int j = 0; j < nv; ++j) /* J^T lambda_A by rows of J: contiguous, the same sums */
        p->impulse[j] = 0;
    for (int r = 0; r < nr; ++r) {
        const cdyn_real *Jr = p->J + (size_t)r * nv, l = lambdaA[r];
        for (int j = 0; j < nv; ++j)
            p->impulse[j] += Jr[j] * l;
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
    for (int k = 0; k < p->nb; ++k) /* warm start: the last step's lambda of these blocks */
        if (p->active[k])
            for (int a = 0; a < p->cones[k].dim; ++a)
                p->x[p->block_row[k] + a] = s->cone.warm_start ? p->lambda[p->set_row[k] + a] : 0;
    const int it =
        s->solver == CDYN_CONTACT_ADMM
            ? cdyn__cone_admm_from(cones, ncones, p->G, p->g, &s->cone, p->x, p->y, p->work,
                                   p->stats, s->cone.warm_start ? p->power : 0)
            : cdyn_cone_pgs(cones, ncones, p->G, p->g, &s->cone, p->x, p->y, p->work, p->stats);
    if (it < 0 && it != CDYN_E_NOT_CONVERGED) {
        clear_results(p);
        return it;
    }
    scatter_results(p);
    return it;
}

/* ---- the generic step ----------------------------------------------------------------- */

/* p was carved for cd's set (NULL: none) on m. */
static int problem_matches(const cdyn_model *m, const cdyn_constraint_data *cd,
                           const cdyn_contact_problem *p)
{
    const int n = cd ? cd->n : 0;
    if (p->n != n || p->nc != (cd ? cd->nc : 0) || p->nv != m->nv)
        return 0;
    for (int k = 0; k < n; ++k)
        if (p->cones[k].dim != cd->set[k].dim ||
            (p->cones[k].kind == CDYN_CONE_FRICTION) != (cd->set[k].friction == 1))
            return 0;
    for (int k = 0; k < p->nlimits; ++k)
        if (p->limits[k].idx_q >= m->nq)
            return 0;
    return 1;
}

/* J, Gset, Y and the free velocity (into cd's or p's scratch) at q, v, tau. */
static cdyn_status robot_terms(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                               cdyn_contact_problem *p, const cdyn_real *q, const cdyn_real *v,
                               const cdyn_real *tau, cdyn_real dt, cdyn_real *vf)
{
    cdyn_status st = CDYN_OK;
    if (cd) {
        st = cdyn_constraint_jacobian(m, d, cd, q, p->J);
        if (st == CDYN_OK)
            st = cdyn_delassus(m, d, cd, q, 0, p->Gset);
    }
    if (st == CDYN_OK && p->nlimits > 0) { /* M^-1 e_k from M's factor */
        st = cdyn_crba(m, d, q, 0);
        if (st == CDYN_OK)
            st = cdyn_ltl(m, d);
        for (int l = 0; l < p->nlimits && st == CDYN_OK; ++l) {
            cdyn_real *y = p->Y + (size_t)l * m->nv;
            for (int j = 0; j < m->nv; ++j)
                y[j] = j == p->limits[l].idx_v;
            st = cdyn_ltl_solve(m, d, y);
        }
    }
    if (st == CDYN_OK)
        st = cdyn_aba(m, d, q, v, tau, vf);
    if (st != CDYN_OK)
        return st;
    for (int j = 0; j < m->nv; ++j)
        vf[j] = v[j] + dt * vf[j];
    return CDYN_OK;
}

cdyn_status cdyn_contact_problem_build(const cdyn_model *m, cdyn_data *d, cdyn_constraint_data *cd,
                                       cdyn_contact_problem *p, const cdyn_contact_settings *s,
                                       const cdyn_real *q, const cdyn_real *v, const cdyn_real *tau)
{
    if (cdyn__check(m, d) || (cd && cdyn__check_cd(m, d, cd)) || !p || !s || !q || !v || !tau ||
        !problem_matches(m, cd, p))
        return CDYN_E_ARG;
    /* the settings first, as the generated step's assembly would refuse them: not a
     * CDYN_E_SINGULAR from the robot's terms for settings that are bad anyway */
    if (!settings_ok(s, p->n))
        return s->dt - s->dt != 0 ? CDYN_E_NONFINITE : CDYN_E_ARG;
    if (!cdyn__all_finite(q, (size_t)m->nq) || !cdyn__all_finite(v, (size_t)m->nv) ||
        !cdyn__all_finite(tau, (size_t)m->nv))
        return CDYN_E_NONFINITE;
    const cdyn_status st = robot_terms(m, d, cd, p, q, v, tau, s->dt, p->vf);
    if (st != CDYN_OK)
        return st;
    return cdyn_contact_assemble(p, s, q, cd ? cd->aR : 0, cd ? cd->ap : 0, v, p->vf);
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
    /* v+ = v_f + M^-1 J^T lambda = v + dt ABA(q, v, tau + J^T lambda / dt) */
    for (int j = 0; j < m->nv; ++j)
        p->scratch[j] = tau[j] + p->impulse[j] / s->dt;
    cdyn_real *acc = p->scratch + m->nv;
    const cdyn_status st = cdyn_aba(m, d, q, v, p->scratch, acc);
    if (st != CDYN_OK)
        return st;
    for (int j = 0; j < m->nv; ++j)
        v_next[j] = v[j] + s->dt * acc[j];
    cdyn_integrate(m, q, v_next, s->dt, q_next);
    int bilateral = 0;
    for (int k = 0; s->project && cd && k < cd->n; ++k)
        bilateral += !cd->set[k].friction; /* counted only when asked to project */
    if (bilateral) { /* seed 003: back onto the bilateral constraints' manifold */
        int pr = cdyn_project_position(m, d, cd, NULL, q_next, q_next);
        if (pr >= 0)
            pr = cdyn_project_velocity(m, d, cd, NULL, q_next, v_next, v_next);
        if (pr < 0)
            return pr;
    }
    return it;
}
