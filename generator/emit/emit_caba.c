/* emit_caba.c — constrainedABA (Sathya and Carpentier, "Constrained articulated body
 * dynamics algorithms"), unrolled for one robot's contact set.
 *
 * The augmented Lagrangian of the contact problem with penalty rho = 1/mu puts, on each
 * contact body, rho K^T K into its inertia and K^T (lambda_k - rho (kappa - a*)) into the
 * forces applied on it; ABA then gives ddq_{k+1} and lambda_{k+1} = lambda_k - rho r with
 * r = K a + kappa - a* from the accelerations it computed. These are exactly the proximal
 * point iterates of proxLTL, with M ddq_{k+1} + nle = tau + J^T lambda_{k+1}.
 * Between iterations only lambda changes, and only through the bias forces of the bodies
 * that carry a contact: the set-up does ABA's passes 1 and 2 once (at lambda = 0), each
 * iteration propagates the multiplier's part of those bias forces up the carrying bodies
 * (caba_delta) and runs pass 3 over them alone (caba_forward): the residuals, hence the
 * multiplier updates and the stopping test, read nothing else. Once the multipliers are
 * final, caba_rest runs pass 3 over the other bodies, from the accelerations of the
 * carrying bodies they hang from. */
#include <stdlib.h>
#include "emit/emit.h"
#include "symbolic/stash.h"

typedef struct {
    aba_body *B;
    sv3 *g;
    smot *acc;
    unsigned char *carries;
    ex *kap;   /* nc: kappa - a*, computed (set-up) or loaded from d->kap */
    int *slot; /* d->caba_acc slot of a carrying body with non-carrying children */
} caba_work;

/* The carrying bodies whose acceleration a non-carrying child needs after the iterations:
 * slot k of d->caba_acc (6 values) for the k-th, -1 for the others. Returns their count. */
static int branch_slots(const kin_tree *t, const unsigned char *carries, int *slot)
{
    int i, n = 0;
    for (i = 0; i < t->nbodies; i++)
        slot[i] = -1;
    for (i = 0; i < t->nbodies; i++) {
        int parent = t->bodies[i].parent;
        if (!carries[i] && parent >= 0 && carries[parent] && slot[parent] < 0)
            slot[parent] = n++;
    }
    return n;
}

static int work_alloc(const kin_tree *t, caba_work *w)
{
    size_t n = (size_t)(t->nbodies > 0 ? t->nbodies : 1);
    w->B = malloc(n * sizeof *w->B);
    w->g = malloc(n * sizeof *w->g);
    w->acc = malloc(n * sizeof *w->acc);
    w->carries = malloc(n);
    w->slot = malloc(n * sizeof *w->slot);
    w->kap = malloc((size_t)(t->nc > 0 ? t->nc : 1) * sizeof *w->kap);
    if (w->B && w->g && w->acc && w->carries && w->slot && w->kap) {
        emit_contact_carriers(t, w->carries);
        branch_slots(t, w->carries, w->slot);
        return 0;
    }
    return -1;
}

static void work_free(caba_work *w)
{
    free(w->B);
    free(w->g);
    free(w->acc);
    free(w->carries);
    free(w->slot);
    free(w->kap);
}

/* Passes 1 and 2 with the penalty at lambda = 0, then the stash (stored or loaded). */
static void augmented_passes(expr_prog *p, const kin_tree *t, caba_work *w, stash *s)
{
    ex rho = ex_input(p, "rho");
    int ci, r, i, a;
    emit_aba_pass1(p, t, w->B);
    emit_body_gravity(p, t, w->B, w->g);
    expr_section(p, "each contact: rho K^T K into its body's inertia, rho K^T (kappa - a*) "
                    "into its bias force");
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *c = &t->constraints[ci];
        aba_body *b = &w->B[emit_contact_body(t, c)];
        ex kap[6], y[6];
        emit_contact_bias(p, t, c, w->g[emit_contact_body(t, c)], b->v, kap);
        for (r = 0; r < c->dim; r++) {
            kap[r] = ex_sub(p, kap[r], ex_inputf(p, "astar[%d]", c->row + r));
            if (s->load)
                w->kap[c->row + r] = ex_inputf(p, "d->kap[%d]", c->row + r);
            else
                expr_storef(p, w->kap[c->row + r] = kap[r], "d->kap[%d]", c->row + r);
            y[r] = ex_mul(p, rho, kap[r]);
        }
        b->IA = sabi_add(p, b->IA, emit_contact_inertia(p, t, c, rho));
        b->pA = smot_add(p, b->pA, emit_contact_force(p, t, c, y));
    }
    emit_aba_pass2(p, t, w->B);
    emit_aba_stash(s, t, w->B);
    if (s->load)
        return;
    for (i = 0; i < t->nbodies; i++)
        for (a = 0; a < w->B[i].nv; a++) {
            int k = t->bodies[i].idx_v + a;
            expr_storef(p, w->B[i].u[a], "d->u[%d]", k);
            if (w->carries[i])
                expr_storef(p, w->B[i].u[a], "d->u0[%d]", k);
        }
}

static void run(expr_prog *p, const kin_tree *t, int load,
                void (*then)(expr_prog *, const kin_tree *, caba_work *))
{
    caba_work w;
    stash s = stash_begin(p, "caba", load);
    if (work_alloc(t, &w) == 0) {
        augmented_passes(p, t, &w, &s);
        if (then)
            then(p, t, &w);
    } else {
        expr_comment(p, "out of memory");
    }
    work_free(&w);
}

static void forward(expr_prog *p, const kin_tree *t, caba_work *w);

/* The set-up goes on into the first iteration's pass 3 (lambda = 0) while ABA's values are
 * still at hand, rather than loading them back. */
void emit_caba_setup(expr_prog *p, const kin_tree *t)
{
    run(p, t, 0, forward);
}

/* The multiplier's part of the bias forces, up the carrying bodies: dp = -sum K^T lambda
 * + the children's dp - U D^-1 S^T dp, and u = u0 - S^T dp. */
static void delta(expr_prog *p, const kin_tree *t, caba_work *w)
{
    smot *dp = w->acc;
    int i, ci, r, a, c;
    for (i = 0; i < t->nbodies; i++)
        dp[i] = smot_zero();
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *con = &t->constraints[ci];
        int b = emit_contact_body(t, con);
        ex y[6];
        for (r = 0; r < con->dim; r++)
            y[r] = ex_neg(ex_inputf(p, "lambda[%d]", con->row + r));
        dp[b] = smot_add(p, dp[b], emit_contact_force(p, t, con, y));
    }
    for (i = t->nbodies - 1; i >= 0; i--) {
        aba_body *b = &w->B[i];
        smot pa = dp[i];
        ex du[6];
        if (!w->carries[i])
            continue;
        emit_body_comment(p, t, i, NULL);
        for (a = 0; a < b->nv; a++) {
            int k = t->bodies[i].idx_v + a;
            du[a] = ex_neg(smot_dot(p, b->S[a], dp[i]));
            expr_storef(p, ex_add(p, ex_inputf(p, "d->u0[%d]", k), du[a]), "d->u[%d]", k);
        }
        if (t->bodies[i].parent < 0)
            continue;
        for (a = 0; a < b->nv; a++) {
            ex s = ex_const(0.0);
            for (c = 0; c < b->nv; c++)
                s = ex_add(p, s, ex_mul(p, b->Dinv[a][c], du[c]));
            pa = smot_add(p, pa, smot_scale(p, s, b->U[a]));
        }
        dp[t->bodies[i].parent] = smot_add(p, dp[t->bodies[i].parent], sforce_act(p, b->X, pa));
    }
}

void emit_caba_delta(expr_prog *p, const kin_tree *t)
{
    run(p, t, 1, delta);
}

static void u_from_workspace(expr_prog *p, const kin_tree *t, caba_work *w)
{
    int i, a;
    for (i = 0; i < t->nbodies; i++)
        for (a = 0; a < w->B[i].nv; a++)
            w->B[i].u[a] = ex_inputf(p, "d->u[%d]", t->bodies[i].idx_v + a);
}

/* Pass 3 of the carrying bodies alone (the residuals depend on nothing else), their ddq,
 * d->r = K a + (kappa - a*) per contact row, and the accelerations caba_rest starts from. */
static void forward(expr_prog *p, const kin_tree *t, caba_work *w)
{
    int i, k, ci, r;
    emit_aba_pass3(p, t, w->B, w->acc, w->carries);
    expr_section(p, "constraint residuals r = J ddq + gamma - a*");
    for (ci = 0; ci < t->nconstraints; ci++) {
        const tree_constraint *c = &t->constraints[ci];
        ex rows[6];
        emit_contact_rows(p, t, c, w->acc[emit_contact_body(t, c)], rows);
        for (r = 0; r < c->dim; r++)
            expr_storef(p, ex_add(p, rows[r], w->kap[c->row + r]), "d->r[%d]", c->row + r);
    }
    for (i = 0; i < t->nbodies; i++)
        for (k = 0; k < 6 && w->slot[i] >= 0; k++)
            expr_storef(p, w->acc[i].v[k], "d->caba_acc[%d]", 6 * w->slot[i] + k);
}

static void forward_from_workspace(expr_prog *p, const kin_tree *t, caba_work *w)
{
    u_from_workspace(p, t, w);
    forward(p, t, w);
}

void emit_caba_forward(expr_prog *p, const kin_tree *t)
{
    run(p, t, 1, forward_from_workspace);
}

/* Pass 3 of the bodies that carry no contact, once the multipliers are final. */
static void rest(expr_prog *p, const kin_tree *t, caba_work *w)
{
    int i, k;
    for (i = 0; i < t->nbodies; i++) {
        w->carries[i] = !w->carries[i];
        for (k = 0; k < 6 && w->slot[i] >= 0; k++)
            w->acc[i].v[k] = ex_inputf(p, "d->caba_acc[%d]", 6 * w->slot[i] + k);
    }
    u_from_workspace(p, t, w);
    emit_aba_pass3(p, t, w->B, w->acc, w->carries);
}

void emit_caba_rest(expr_prog *p, const kin_tree *t)
{
    run(p, t, 1, rest);
}

int emit_caba_branches(const kin_tree *t)
{
    caba_work w;
    int n = work_alloc(t, &w) == 0 ? branch_slots(t, w.carries, w.slot) : -1;
    work_free(&w);
    return n;
}

int emit_caba_stash_size(const kin_tree *t)
{
    expr_prog *p = expr_new();
    caba_work w;
    stash s;
    int n = -1;
    if (!p)
        return -1;
    s = stash_begin(p, "caba", 1);
    if (work_alloc(t, &w) == 0) {
        augmented_passes(p, t, &w, &s);
        n = expr_failed(p) ? -1 : s.n;
    }
    work_free(&w);
    expr_free(p);
    return n;
}
