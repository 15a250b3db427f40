/* cdyn_workspace.c — the workspace: its size, and cdyn_data_init, cdyn_data_attach and
 * cdyn_data_view carving a caller's buffer into cdyn_data's tables (no heap). */
#include <stdint.h>
#include "cdyn_internal.h"

/* The layout cdyn_data_init carves: S; liR lip oR op; ofR ofp; v a f c pA, IA, Ic; U Dfac u;
 * M LD LinvT dcol ddq (reals), then S_pick axis_index anc_start anc subtree_end (ints). */
static size_t cdyn__count_reals(const cdyn_model *m)
{
    return CDYN__DATA_REALS(m->nbodies, m->nv, m->nframes);
}

/* Depth-first DoF order: each DoF's parent is the previous DoF or one of its ancestors,
 * so every subtree is a contiguous range (which cdyn_minv relies on). The walk from k - 1
 * up to k's parent also gives k's depth from k - 1's, so it counts the entries of all
 * ancestor lists (each DoF in its own) into *nanc; each DoF is walked past once, so this
 * is O(nv), not O(nv depth): cdyn_data_attach runs it on every call of a --size robot. */
static int cdyn__depth_first(const cdyn_model *m, size_t *nanc)
{
    int depth = 0; /* of DoF k - 1; the world's is 0 */
    *nanc = 0;
    for (int k = 0; k < m->nv; ++k) {
        int j = k - 1;
        while (j >= 0 && j != m->dof_parent[k]) {
            j = m->dof_parent[j];
            --depth;
        }
        if (j != m->dof_parent[k])
            return 0;
        *nanc += (size_t)++depth;
    }
    return 1;
}

/* Sizes, parents before children (which every sweep relies on), depth-first DoFs; the
 * ancestor lists' entries into *nanc. */
static int cdyn__model_ok(const cdyn_model *m, size_t *nanc)
{
    if (!m || m->nbodies < 0 || m->nv < 0 || m->nq < 0 || m->nframes < 0 ||
        (!m->bodies && m->nbodies) || (!m->frames && m->nframes) || (!m->dof_parent && m->nv))
        return 0;
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        if (b->parent >= i || b->parent < -1 || b->idx_v < 0 || b->nv < 1 || b->nv > 6 ||
            b->idx_v + b->nv > m->nv || b->idx_q < 0 || b->idx_q + b->nq > m->nq)
            return 0;
    }
    for (int k = 0; k < m->nv; ++k)
        if (m->dof_parent[k] >= k || m->dof_parent[k] < -1)
            return 0;
    for (int k = 0; k < m->nframes; ++k)
        if (m->frames[k].body >= m->nbodies || m->frames[k].body < -1)
            return 0;
    return cdyn__depth_first(m, nanc);
}

size_t cdyn_data_size(const cdyn_model *m)
{
    size_t nanc;
    if (!cdyn__model_ok(m, &nanc))
        return 0;
    /* reals first, then ints (whose alignment divides a cdyn_real's); the slack lets
     * cdyn_data_init align an arbitrary buffer */
    return CDYN_DATA_BYTES(m->nbodies, m->nv, m->nframes, nanc);
}

/* The S column of DoF j (0-based within the joint) of body b. */
static void cdyn__joint_S(cdyn_real s[6], const cdyn_body *b, int j)
{
    static const int planar_rows[3] = { 0, 1, 5 };
    for (int r = 0; r < 6; ++r)
        s[r] = 0;
    switch (b->type) {
    case CDYN_JOINT_REVOLUTE:
    case CDYN_JOINT_REVOLUTE_UNBOUNDED:
        s[3] = b->axis[0];
        s[4] = b->axis[1];
        s[5] = b->axis[2];
        break;
    case CDYN_JOINT_PRISMATIC:
        s[0] = b->axis[0];
        s[1] = b->axis[1];
        s[2] = b->axis[2];
        break;
    case CDYN_JOINT_PLANAR: s[planar_rows[j]] = 1; break;
    case CDYN_JOINT_FREEFLYER: s[j] = 1; break;
    }
}

/* The row of s's only nonzero (a NaN counts as one), or -1; branch-free, as it runs on
 * every cdyn_data_attach. */
static int cdyn__single_nonzero(const cdyn_real s[6])
{
    int pick = -1, count = 0;
    for (int r = 0; r < 6; ++r) {
        const int nonzero = s[r] != 0;
        count += nonzero;
        pick = nonzero ? r : pick;
    }
    return count == 1 ? pick : -1;
}

/* 0/1/2 if the unit axis is exactly +-x/y/z, else -1. */
static int cdyn__aligned_axis(const cdyn_real a[3])
{
    const int count = (a[0] != 0) + (a[1] != 0) + (a[2] != 0);
    const int k = a[0] != 0 ? 0 : a[1] != 0 ? 1 : 2;
    return count == 1 && (a[k] == 1 || a[k] == -1) ? k : -1;
}

/* Each DoF's ancestors, root first and itself last: a parent's list is a prefix of its
 * children's. */
static void cdyn__init_ancestors(cdyn_data *d, const cdyn_model *m)
{
    /* the tables in locals: d's fields cannot change under the int stores (they run on
     * every cdyn_data_attach, so their speed counts) */
    int *const start = d->anc_start, *const anc = d->anc, *const end = d->subtree_end;
    const int *const parent = m->dof_parent, nv = m->nv;
    int next = 0;
    for (int k = 0; k < nv; ++k) {
        const int up = parent[k];
        start[k] = next; /* before the length of up = k - 1 is read from it */
        const int len = up < 0 ? 1 : start[up + 1] - start[up] + 1;
        const int *const from = anc + (up < 0 ? 0 : start[up]);
        int *const to = anc + next;
        for (int t = 0; t + 1 < len; ++t)
            to[t] = from[t];
        to[len - 1] = k;
        next += len;
    }
    start[nv] = next;
    for (int k = 0; k < nv; ++k)
        end[k] = k + 1;
    for (int k = nv - 1; k >= 0; --k) { /* children after parents: ends bubble up */
        const int up = parent[k];
        if (up >= 0 && end[k] > end[up])
            end[up] = end[k];
    }
}

static void cdyn__init_constants(cdyn_data *d, const cdyn_model *m)
{
    cdyn_real *const S = d->S;
    int *const pick = d->S_pick, *const axis = d->axis_index;
    for (int i = 0; i < m->nbodies; ++i) {
        const cdyn_body *b = &m->bodies[i];
        const int has_axis = b->type == CDYN_JOINT_REVOLUTE ||
                             b->type == CDYN_JOINT_REVOLUTE_UNBOUNDED ||
                             b->type == CDYN_JOINT_PRISMATIC;
        axis[i] = has_axis ? cdyn__aligned_axis(b->axis) : -1;
        for (int j = 0; j < b->nv; ++j) {
            const int k = b->idx_v + j;
            cdyn__joint_S(S + 6 * k, b, j);
            pick[k] = cdyn__single_nonzero(S + 6 * k);
        }
    }
}

/* Points d's fields into buf, aligned for cdyn_real, in the layout above: what
 * cdyn_data_init, cdyn_data_attach and cdyn_data_view share. Returns the first real. */
static cdyn_real *cdyn__data_carve(cdyn_data *d, const cdyn_model *m, void *buf, size_t nanc)
{
    const size_t nb = (size_t)m->nbodies, nv = (size_t)m->nv, nf = (size_t)m->nframes;
    const size_t mis = (size_t)((uintptr_t)buf % sizeof(cdyn_real));
    cdyn_real *const first = (cdyn_real *)((char *)buf + (mis ? sizeof(cdyn_real) - mis : 0));
    cdyn_real *next = first;
    d->model = m;
    d->S = cdyn__carve(&next, nv * 6);
    d->liR = cdyn__carve(&next, nb * 9);
    d->lip = cdyn__carve(&next, nb * 3);
    d->oR = cdyn__carve(&next, nb * 9);
    d->op = cdyn__carve(&next, nb * 3);
    d->ofR = cdyn__carve(&next, nf * 9);
    d->ofp = cdyn__carve(&next, nf * 3);
    d->v = cdyn__carve(&next, nb * 6);
    d->a = cdyn__carve(&next, nb * 6);
    d->f = cdyn__carve(&next, nb * 6);
    d->c = cdyn__carve(&next, nb * 6);
    d->pA = cdyn__carve(&next, nb * 6);
    d->IA = cdyn__carve(&next, nb * 36);
    d->Ic = cdyn__carve(&next, nb * 10);
    d->U = cdyn__carve(&next, nv * 6);
    d->Dfac = cdyn__carve(&next, nv * 6);
    d->u = cdyn__carve(&next, nv);
    d->M = cdyn__carve(&next, nv * nv);
    d->LD = cdyn__carve(&next, nv * nv);
    d->LinvT = cdyn__carve(&next, nv * nv);
    d->dcol = cdyn__carve(&next, nv * 42);
    d->ddq = cdyn__carve(&next, nv);
    d->S_pick = (int *)next;
    d->axis_index = d->S_pick + nv;
    d->anc_start = d->axis_index + nb;
    d->anc = d->anc_start + nv + 1;
    d->subtree_end = d->anc + nanc;
    return first;
}

/* The checks every way of carving shares: CDYN_OK with the ancestor lists' entries in
 * *nanc, CDYN_E_ARG or CDYN_E_SIZE; on an error d (when given) refers to no model, so every
 * function refuses it. */
static cdyn_status cdyn__data_args(cdyn_data *d, const cdyn_model *m, const void *buf, size_t bytes,
                                   size_t *nanc)
{
    if (d)
        d->model = NULL;
    if (!d || !buf || !cdyn__model_ok(m, nanc))
        return CDYN_E_ARG;
    return bytes < CDYN_DATA_BYTES(m->nbodies, m->nv, m->nframes, *nanc) ? CDYN_E_SIZE : CDYN_OK;
}

/* What cdyn_data_init and cdyn_data_attach share: check, carve, then the constant parts.
 * zero_reals clears the workspace first (init); attach keeps the caller's values. The
 * clearing comes before cdyn__init_constants, which writes into the reals. */
static cdyn_status cdyn__data_setup(cdyn_data *d, const cdyn_model *m, void *buf, size_t bytes,
                                    int zero_reals)
{
    size_t nanc;
    const cdyn_status st = cdyn__data_args(d, m, buf, bytes, &nanc);
    if (st != CDYN_OK)
        return st;
    cdyn_real *const reals = cdyn__data_carve(d, m, buf, nanc);
    if (zero_reals) {
        const size_t nreals = cdyn__count_reals(m);
        for (size_t k = 0; k < nreals; ++k)
            reals[k] = 0;
    }
    cdyn__init_constants(d, m);
    cdyn__init_ancestors(d, m);
    return CDYN_OK;
}

cdyn_status cdyn_data_init(cdyn_data *d, const cdyn_model *m, void *buf, size_t bytes)
{
    return cdyn__data_setup(d, m, buf, bytes, 1);
}

cdyn_status cdyn_data_attach(cdyn_data *d, const cdyn_model *m, void *buf, size_t bytes)
{
    return cdyn__data_setup(d, m, buf, bytes, 0);
}

/* 1 if d's ancestor lists (anc_start, anc: what the functions taking a const cdyn_data
 * index by) hold what cdyn__init_ancestors writes, checked in its order: each entry is read
 * only once the entries it depends on are known to be right, so whatever the bytes, every
 * index stays in its table. DoF k's list is its parent's (checked already), then k. No
 * pointer chasing: O(entries), sequential. */
static int cdyn__ancestors_ok(const cdyn_data *d, const cdyn_model *m)
{
    if (m->nv > 0 && d->anc_start[0] != 0)
        return 0;
    for (int k = 0; k < m->nv; ++k) {
        const int up = m->dof_parent[k], start = d->anc_start[k];
        const int len = up < 0 ? 1 : d->anc_start[up + 1] - d->anc_start[up] + 1;
        if (d->anc_start[k + 1] != start + len || d->anc[start + len - 1] != k)
            return 0;
        for (int t = 0; t + 1 < len; ++t)
            if (d->anc[start + t] != d->anc[d->anc_start[up] + t])
                return 0;
    }
    return 1;
}

cdyn_status cdyn_data_view(cdyn_data *d, const cdyn_model *m, const void *buf, size_t bytes)
{
    size_t nanc;
    const cdyn_status st = cdyn__data_args(d, m, buf, bytes, &nanc);
    if (st != CDYN_OK)
        return st;
    (void)cdyn__data_carve(d, m, (void *)buf, nanc); /* read only from here on */
    if (cdyn__ancestors_ok(d, m))
        return CDYN_OK;
    d->model = NULL;
    return CDYN_E_ARG;
}
