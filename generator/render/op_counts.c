/* op_counts.c — the operations each emitted algorithm performs, for `cdyngen --summary`,
 * the report and the benchmark (render.h): counted from the same programs render prints. */
#include "render/render.h"

#include <stdlib.h>
#include <string.h>

#include "model/constraints.h"
#include "render/index_tables.h"
#include "render/programs.h"

/* The public constrained functions as sums of their parts, (part, times); the solvers
 * counted with three proximal iterations (what the benchmark times), each iteration also
 * updating lambda (nc products and sums). */
#define PROX_ITERATIONS 3
typedef struct {
    const char *part;
    int times;
} part_times;
static const struct {
    const char *name;
    int contacts_only, iterates;
    part_times parts[6];
} constrained_totals[] = {
    { "prox_ltl",
      0,
      1,
      { { "con_terms", 1 },
        { "ltl", 1 },
        { "kkt_factor", 1 },
        { "prox_rhs", 1 },
        { "prox_ddq", 1 },
        { "kkt_solve", PROX_ITERATIONS } } },
    { "constrained_aba",
      1,
      1,
      { { "caba_setup", 1 },
        { "caba_forward", PROX_ITERATIONS - 1 },
        { "caba_delta", PROX_ITERATIONS - 1 },
        { "caba_rest", 1 } } },
    { "prox_pv",
      1,
      1,
      { { "pv_setup", 1 }, { "kkt_solve", PROX_ITERATIONS }, { "pv_forward", 1 } } },
    { "prox_ltls",
      0,
      1,
      { { "con_terms", 1 },
        { "ltls_factor", 1 },
        { "ltls_rhs", 1 },
        { "ltls_iterate", PROX_ITERATIONS },
        { "ltls_refine", 1 } } },
    { "delassus_factorised", 0, 0, { { "con_terms_kin", 1 }, { "ltl", 1 }, { "delassus", 1 } } },
    { "delassus_articulated", 1, 0, { { "pv_delassus", 1 } } },
    { "impulse",
      0,
      1,
      { { "con_terms_kin", 1 },
        { "ltl", 1 },
        { "kkt_factor", 1 },
        { "impulse_rhs", 1 },
        { "impulse_velocity", 1 },
        { "kkt_solve", PROX_ITERATIONS } } },
};

/* The deepest body carrying a frame: the most expensive frame Jacobian. */
int render_counted_jacobian_frame(const kin_tree *t)
{
    int f, best = -1, frame = -1;
    for (f = 0; f < t->nframes; f++) {
        int b = t->frames[f].body;
        if (b >= 0 && (best < 0 || t->depth[b] > t->depth[best]))
            best = b;
    }
    for (f = 0; f < t->nframes; f++)
        if (t->frames[f].body == best)
            frame = f;
    return frame;
}

static void set_count(emit_count *out, const char *algorithm, const expr_counts *c)
{
    out->algorithm = algorithm;
    out->mul = c->mul;
    out->add = c->add;
    out->div = c->div;
    out->sqrt = c->sqrt;
    out->sincos = c->sincos;
}

int render_jacobian_count(const kin_tree *t, int frame, emit_count *count)
{
    emitted e;
    if (program_run_jacobian(t, frame, 1, &e, NULL) != 0)
        return -1;
    set_count(count, "jacobian", &e.c);
    return 0;
}

static void add_count(emit_count *to, const emit_count *c, long times)
{
    to->mul += times * c->mul;
    to->add += times * c->add;
    to->div += times * c->div;
    to->sqrt += times * c->sqrt;
    to->sincos += times * c->sincos;
}

static const emit_count *find_count(const emit_count *c, int n, const char *name)
{
    int i;
    for (i = 0; i < n; i++)
        if (strcmp(c[i].algorithm, name) == 0)
            return &c[i];
    return NULL;
}

/* The public constrained functions from their parts (constrained robots only). */
static int constrained_counts(const kin_tree *t, const emit_count *done, int ndone,
                              emit_count *counts, int max)
{
    emit_count parts[PROGRAM_NCONSTRAINED];
    int i, k, n = 0;
    for (i = 0; i < PROGRAM_NCONSTRAINED; i++) {
        const program *a = &program_constrained[i];
        emitted e;
        memset(&e, 0, sizeof e);
        if (!(a->contacts_only && !tree_contacts_only(t)) && program_run(t, a, &e, NULL) != 0)
            return -1;
        set_count(&parts[i], a->name, &e.c);
    }
    for (i = 0; i < (int)(sizeof constrained_totals / sizeof constrained_totals[0]) && n < max;
         i++) {
        emit_count *c = &counts[n];
        if (constrained_totals[i].contacts_only && !tree_contacts_only(t))
            continue;
        memset(c, 0, sizeof *c);
        c->algorithm = constrained_totals[i].name;
        for (k = 0; k < 6 && constrained_totals[i].parts[k].part; k++) {
            const part_times *pt = &constrained_totals[i].parts[k];
            const emit_count *pc = find_count(parts, PROGRAM_NCONSTRAINED, pt->part);
            add_count(c, pc ? pc : find_count(done, ndone, pt->part), pt->times);
        }
        if (constrained_totals[i].iterates) {
            c->mul += (long)PROX_ITERATIONS * t->nc;
            c->add += (long)PROX_ITERATIONS * t->nc;
        }
        n++;
    }
    /* R_delassus is whichever route emits fewer operations (delassus_route) */
    for (i = 0; i < n && n < max; i++)
        if (strcmp(counts[i].algorithm, "delassus_factorised") == 0) {
            const emit_count *a = find_count(counts, n, "delassus_articulated");
            counts[n] = a && a->mul + a->add < counts[i].mul + counts[i].add ? *a : counts[i];
            counts[n++].algorithm = "delassus";
            break;
        }
    return n;
}

/* The pairs (k, j) of DoFs with j a strict ancestor of k, and those of one joint. */
static void branch_pairs(const kin_tree *t, long *pairs, long *same)
{
    int k, j;
    *pairs = *same = 0;
    for (k = 0; k < t->nv; k++)
        for (j = t->dof_parent[k]; j >= 0; j = t->dof_parent[j]) {
            (*pairs)++;
            *same += t->dof_body[j] == t->dof_body[k];
        }
}

/* The loop the generated code runs after the emitted terms (robot.c.tpl): the entries on
 * each branch, two 12-term dot products per entry of row k at an ancestor-or-self column (or
 * one on k's joint), two 6-term products per entry above the diagonal across joints. */
static void entry_loop_count(const kin_tree *t, emit_count *c)
{
    long pairs, same, cross;
    branch_pairs(t, &pairs, &same);
    cross = pairs - same;
    c->mul += 24L * (t->nv + pairs + same) + 12L * cross;
    c->add += 22L * (t->nv + pairs + same) + 10L * cross;
}

/* -M^-1 X by rows (robot.c.tpl): the sweep of L^-T (one row update per pair of the factor,
 * of the first index_subtree_ends(ancestor) columns when X has RNEA's derivatives' pattern,
 * else of nv), nv^2 products for D^-1, and the sweep of L^-1 (nv columns per pair). -1 out
 * of memory. */
static int row_sweeps_count(const kin_tree *t, int on_branches, emit_count *c)
{
    int *end = malloc((size_t)(t->nv > 0 ? t->nv : 1) * sizeof *end), k, j;
    if (!end)
        return -1;
    index_subtree_ends(t, end);
    for (k = 0; k < t->nv; k++)
        for (j = t->dof_parent[k]; j >= 0; j = t->dof_parent[j]) {
            const long n = t->nv + (on_branches ? end[j] : t->nv);
            c->mul += n;
            c->add += n;
        }
    c->mul += (long)t->nv * t->nv;
    free(end);
    return 0;
}

/* The nonzeros of the compact J (rows times supports): B's products, one row update each. */
static long compact_j(const kin_tree *t)
{
    long n = 0;
    int k;
    for (k = 0; k < t->nconstraints; k++)
        n += (long)t->constraints[k].dim * t->constraints[k].nsupport;
    return n;
}

/* R_rnea_derivatives: its terms and the entry loop. R_aba_derivatives: ABA, that, M^-1 (CRBA
 * on the tree pattern, the factor, its steps) and -M^-1 X twice (straight-line or by row
 * sweeps). R_prox_ltl_derivatives (a set of contacts; the solve before it not included): the
 * terms with the contacts, the entry loop and, for q, v and tau, two row sweeps, B^T and B by
 * rows, and G^-1 counted as two proximal passes (one solve per column each). 0, or -1 out of
 * memory. */
static int derivative_counts(const kin_tree *t, emit_count *counts, int *n, int max)
{
    emit_count *rd = (emit_count *)find_count(counts, *n, "rnea_derivatives");
    const emit_count *aba = find_count(counts, *n, "aba"), *minv = find_count(counts, *n, "minv");
    emit_count sweeps, branch_sweeps, c;
    emitted terms, solve;
    int pass;
    if (!rd)
        return 0;
    entry_loop_count(t, rd);
    memset(&sweeps, 0, sizeof sweeps);
    memset(&branch_sweeps, 0, sizeof branch_sweeps);
    if (row_sweeps_count(t, 0, &sweeps) != 0 || row_sweeps_count(t, 1, &branch_sweeps) != 0)
        return -1;
    if (aba && minv && *n < max) {
        c = *aba;
        c.algorithm = "aba_derivatives";
        add_count(&c, rd, 1);
        add_count(&c, minv, 1);
        if (program_minus_minv_unrolled(t)) {
            emitted mm;
            if (program_run(t, &program_minus_minv, &mm, NULL) != 0)
                return -1;
            set_count(&branch_sweeps, "minus_minv", &mm.c);
        }
        add_count(&c, &branch_sweeps, 2);
        counts[(*n)++] = c;
    }
    if (t->nconstraints == 0 || !tree_contacts_only(t) || *n >= max)
        return 0;
    if (program_run(t, program_named("con_derivatives"), &terms, NULL) != 0 ||
        program_run(t, program_named("kkt_solve"), &solve, NULL) != 0)
        return -1;
    memset(&c, 0, sizeof c);
    set_count(&c, "prox_ltl_derivatives", &terms.c);
    entry_loop_count(t, &c);
    add_count(&c, &sweeps, 3);
    c.mul += 3 * 2 * compact_j(t) * t->nv;
    c.add += 3 * 2 * compact_j(t) * t->nv;
    for (pass = 0; pass < 2; pass++) {
        emit_count one;
        set_count(&one, "kkt_solve", &solve.c);
        add_count(&c, &one, 3L * t->nv);
    }
    c.algorithm = "prox_ltl_derivatives";
    counts[(*n)++] = c;
    return 0;
}

int render_op_counts(const kin_tree *t, emit_count *counts, int max)
{
    int i, n = 0, f = render_counted_jacobian_frame(t), m;
    emitted e;
    for (i = 0; i < program_nalgorithms && n < max; i++) {
        const program *a = &program_algorithms[i];
        if (program_left_out(t, a->name))
            continue;
        if (program_run(t, a, &e, NULL) != 0)
            return -1;
        set_count(&counts[n], a->name, &e.c);
        if (strcmp(a->name, "minv") == 0) { /* it runs crba and ltl first: theirs count */
            add_count(&counts[n], find_count(counts, n, "crba"), 1);
            add_count(&counts[n], find_count(counts, n, "ltl"), 1);
        }
        n++;
    }
    if (f >= 0 && n < max) {
        if (render_jacobian_count(t, f, &counts[n]) != 0)
            return -1;
        n++;
    }
    if (derivative_counts(t, counts, &n, max) != 0)
        return -1;
    if (t->nconstraints > 0) {
        m = constrained_counts(t, counts, n, counts + n, max - n);
        if (m < 0)
            return -1;
        n += m;
    }
    return n;
}
