/* emit_pv.c — proxPV: the Popov-Vereshchagin algorithm with proximal iterations (Sathya and
 * Carpentier), unrolled for one robot's contact set.
 *
 * Beside ABA's articulated inertias, each body carries the map KA (6 x its subtree's rows)
 * from the multipliers to the force they apply on its subtree: f = IA a + pA - KA lambda,
 * and the subtree's constraint rows r = KA^T a + (what its joints add) + G_sub lambda.
 * Eliminating joint j (w = S^T KA, qdd = D^-1 (u - U^T a' + w lambda)) hands its parent
 * Ka = KA - U D^-1 w, adds w^T D^-1 w to the Delassus matrix G and w^T D^-1 u + Ka^T c to
 * the free residual. At the root G is complete (O(n + m^2 d) so far), G + mu I is
 * factorised once and the proximal iterations are the small solves proxLTL does; one
 * last pass 3 with the multipliers' forces gives ddq. */
#include <stdlib.h>
#include "emit/emit.h"
#include "symbolic/stash.h"

typedef struct {
    aba_body *B;
    sv3 *g;
    smot *KA; /* nbodies x nc: column r of each body's KA */
    smot *acc;
    ex *w;               /* nv x nc: S^T KA of each DoF */
    ex *G;               /* nc x nc */
    ex *e;               /* nc: the free residual J ddq_free + gamma - a* */
    unsigned char *rows; /* nbodies x nc: row r belongs to a contact in the subtree */
} pv_work;

static void *zalloc(size_t n, size_t size)
{
    return calloc(n > 0 ? n : 1, size);
}

static int work_alloc(const kin_tree *t, pv_work *w)
{
    size_t nb = (size_t)t->nbodies, nc = (size_t)t->nc, nv = (size_t)t->nv, i;
    int k, r, b;
    w->B = zalloc(nb, sizeof *w->B);
    w->g = zalloc(nb, sizeof *w->g);
    w->KA = zalloc(nb * nc, sizeof *w->KA);
    w->acc = zalloc(nb, sizeof *w->acc);
    w->w = zalloc(nv * nc, sizeof *w->w);
    w->G = zalloc(nc * nc, sizeof *w->G);
    w->e = zalloc(nc, sizeof *w->e);
    w->rows = zalloc(nb * nc, 1);
    if (!w->B || !w->g || !w->KA || !w->acc || !w->w || !w->G || !w->e || !w->rows)
        return -1;
    for (i = 0; i < nb * nc; i++)
        w->KA[i] = smot_zero();
    for (i = 0; i < nv * nc; i++)
        w->w[i] = ex_const(0.0);
    for (i = 0; i < nc * nc; i++)
        w->G[i] = ex_const(0.0);
    for (i = 0; i < nc; i++)
        w->e[i] = ex_const(0.0);
    for (k = 0; k < t->nconstraints; k++) {
        const tree_constraint *c = &t->constraints[k];
        for (b = emit_contact_body(t, c); b >= 0; b = t->bodies[b].parent)
            for (r = 0; r < c->dim; r++)
                w->rows[(size_t)b * nc + (size_t)(c->row + r)] = 1;
    }
    return 0;
}

static void work_free(pv_work *w)
{
    free(w->B);
    free(w->g);
    free(w->KA);
    free(w->acc);
    free(w->w);
    free(w->G);
    free(w->e);
    free(w->rows);
}

/* Each contact's own columns K^T e_r (constants) and its rows' kappa - a*. */
static void contact_columns(expr_prog *p, const kin_tree *t, pv_work *w)
{
    int ci, r, k;
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *c = &t->constraints[ci];
        int b = emit_contact_body(t, c);
        ex kap[6];
        emit_contact_bias(p, t, c, w->g[b], w->B[b].v, kap);
        for (r = 0; r < c->dim; r++) {
            ex unit[6];
            for (k = 0; k < c->dim; k++)
                unit[k] = ex_const(k == r ? 1.0 : 0.0);
            w->KA[b * t->nc + c->row + r] = emit_contact_force(p, t, c, unit);
            w->e[c->row + r] = ex_sub(p, kap[r], ex_inputf(p, "astar[%d]", c->row + r));
        }
    }
}

/* Joint i eliminated: w = S^T KA, Dw = D^-1 w; G, e and the parent's KA updated. */
static void eliminate(expr_prog *p, const kin_tree *t, pv_work *w, int i)
{
    aba_body *b = &w->B[i];
    int nc = t->nc, n = b->nv, k0 = t->bodies[i].idx_v, parent = t->bodies[i].parent;
    int r, s, a, c;
    const unsigned char *rows = w->rows + (size_t)i * (size_t)nc;
    smot *KA = w->KA + (size_t)i * (size_t)nc;
    ex *Dw = malloc((size_t)(nc > 0 ? nc : 1) * 6 * sizeof *Dw);
    if (!Dw)
        return;
    for (r = 0; r < nc; r++) {
        ex x[6];
        if (!rows[r])
            continue;
        for (a = 0; a < n; a++)
            x[a] = w->w[(k0 + a) * nc + r] = smot_dot(p, b->S[a], KA[r]);
        if (parent < 0) {
            emit_ldl_solve(p, &b->ldl, x);
        } else {
            ex y[6];
            for (a = 0; a < n; a++) {
                y[a] = ex_const(0.0);
                for (c = 0; c < n; c++)
                    y[a] = ex_add(p, y[a], ex_mul(p, b->Dinv[a][c], x[c]));
            }
            for (a = 0; a < n; a++)
                x[a] = y[a];
        }
        for (a = 0; a < n; a++) {
            Dw[6 * r + a] = x[a];
            w->e[r] = ex_add(p, w->e[r], ex_mul(p, x[a], b->u[a]));
        }
    }
    for (r = 0; r < nc; r++)
        for (s = 0; s <= r && rows[r]; s++)
            for (a = 0; a < n && rows[s]; a++)
                w->G[r * nc + s] =
                    ex_add(p, w->G[r * nc + s], ex_mul(p, w->w[(k0 + a) * nc + r], Dw[6 * s + a]));
    for (r = 0; r < nc; r++) {
        smot ka = KA[r];
        if (!rows[r])
            continue;
        if (t->bodies[i].kind == TREE_FREEFLYER)
            continue; /* S = 1: Ka = KA - IA IA^-1 KA = 0 exactly */
        for (a = 0; a < n; a++)
            ka = smot_sub(p, ka, smot_scale(p, Dw[6 * r + a], b->U[a]));
        if (parent < 0) {
            w->e[r] = ex_add(p, w->e[r],
                             smot_dot(p, ka, smot_act_inv(p, b->X, emit_base_acceleration(t))));
            continue;
        }
        w->e[r] = ex_add(p, w->e[r], smot_dot(p, ka, b->c));
        w->KA[parent * nc + r] = smot_add(p, w->KA[parent * nc + r], sforce_act(p, b->X, ka));
    }
    free(Dw);
}

/* The whole set-up, its stash stored or loaded. */
static void setup_passes(expr_prog *p, const kin_tree *t, pv_work *w, stash *s)
{
    int i, a, r, nc = t->nc;
    emit_aba_pass1(p, t, w->B);
    emit_body_gravity(p, t, w->B, w->g);
    emit_aba_pass2(p, t, w->B);
    expr_section(p, "constraint force maps down to the root, the Delassus matrix, free residual");
    contact_columns(p, t, w);
    for (i = t->nbodies - 1; i >= 0; i--) {
        emit_body_heading(p, t, i, "its joint eliminated from the force maps");
        eliminate(p, t, w, i);
    }
    emit_aba_stash(s, t, w->B);
    for (i = 0; i < t->nbodies; i++)
        for (a = 0; a < w->B[i].nv; a++) {
            int k = t->bodies[i].idx_v + a;
            w->B[i].u[a] = stash_ex(s, w->B[i].u[a]);
            for (r = 0; r < nc; r++)
                if (w->rows[(size_t)i * (size_t)nc + (size_t)r])
                    w->w[k * nc + r] = stash_ex(s, w->w[k * nc + r]);
        }
}

static void run(expr_prog *p, const kin_tree *t, int load)
{
    pv_work w;
    stash s = stash_begin(p, "pv", load);
    int r, i, a, nc = t->nc;
    if (work_alloc(t, &w) != 0) {
        expr_comment(p, "out of memory");
        work_free(&w);
        return;
    }
    setup_passes(p, t, &w, &s);
    if (!load) {
        for (r = 0; r < nc; r++) {
            w.G[r * nc + r] = ex_add(p, w.G[r * nc + r], ex_input(p, "mu"));
            expr_storef(p, ex_neg(w.e[r]), "d->r[%d]", r);
        }
        if (emit_delassus_factor(p, t, w.G) != 0)
            expr_comment(p, "out of memory");
    } else {
        for (i = 0; i < t->nbodies; i++)
            for (a = 0; a < w.B[i].nv; a++) {
                int k = t->bodies[i].idx_v + a;
                for (r = 0; r < nc; r++)
                    if (w.rows[(size_t)i * (size_t)nc + (size_t)r])
                        w.B[i].u[a] =
                            ex_add(p, w.B[i].u[a],
                                   ex_mul(p, w.w[k * nc + r], ex_inputf(p, "lambda[%d]", r)));
            }
        emit_aba_pass3(p, t, w.B, w.acc, NULL);
    }
    work_free(&w);
}

void emit_pv_setup(expr_prog *p, const kin_tree *t)
{
    run(p, t, 0);
}

void emit_pv_forward(expr_prog *p, const kin_tree *t)
{
    run(p, t, 1);
}

int emit_pv_stash_size(const kin_tree *t)
{
    expr_prog *p = expr_new();
    pv_work w;
    stash s;
    int n = -1;
    if (!p)
        return -1;
    s = stash_begin(p, "pv", 1);
    if (work_alloc(t, &w) == 0) {
        setup_passes(p, t, &w, &s);
        n = expr_failed(p) ? -1 : s.n;
    }
    work_free(&w);
    expr_free(p);
    return n;
}

/* G + mu I (output "G", full) by the same sweeps: the Delassus matrix's articulated route,
 * O(n + m^2 d), which needs no M and no factor of it. */
void emit_pv_delassus(expr_prog *p, const kin_tree *t)
{
    pv_work w;
    stash s = stash_begin(p, "pv", 1); /* loads nobody reads: nothing is stored */
    int r, c, nc = t->nc;
    if (work_alloc(t, &w) != 0) {
        expr_comment(p, "out of memory");
        work_free(&w);
        return;
    }
    setup_passes(p, t, &w, &s);
    for (r = 0; r < nc; r++)
        for (c = 0; c <= r; c++) {
            ex g = w.G[r * nc + c];
            if (r == c)
                g = ex_add(p, g, ex_input(p, "mu"));
            expr_storef(p, g, "G[%d]", r * nc + c);
            if (r != c)
                expr_storef(p, g, "G[%d]", c * nc + r);
        }
    work_free(&w);
}
