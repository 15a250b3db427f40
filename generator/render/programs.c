/* programs.c — runs the emitters (emit/) for render: each algorithm's expr program, or the
 * C text an emitter writes directly, into a function body and its operation counts. */
#include "render/programs.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "render/render.h"

static void build_rnea(expr_prog *p, const kin_tree *t)
{
    emit_rnea(p, t, "v", "a", "tau");
}
static void build_nle(expr_prog *p, const kin_tree *t)
{
    emit_rnea(p, t, "v", NULL, "h");
}
static void build_gravity(expr_prog *p, const kin_tree *t)
{
    emit_rnea(p, t, NULL, NULL, "g");
}

/* M^-1 as all its steps: counted as one algorithm (rendered in chunks, below). */
static int minv_text(const kin_tree *t, ebuf *out, const char *indent, expr_counts *c)
{
    int s;
    memset(c, 0, sizeof *c);
    for (s = 0; s < emit_minv_nsteps(t); s++)
        emit_minv_step(t, s, out, indent, c);
    return 0;
}

const program program_algorithms[] = {
    { "fk", emit_fk, NULL, 0, "q" },           { "rnea", build_rnea, NULL, 0, "d q v a tau" },
    { "nle", build_nle, NULL, 0, "d q v h" },  { "gravity", build_gravity, NULL, 0, "d q g" },
    { "crba", emit_crba, NULL, 0, "d q" },     { "crba_tree", emit_crba_tree, NULL, 0, "d q" },
    { "ltl", emit_ltl, emit_ltl_text, 0, "" }, { "ltl_solve", emit_ltl_solve, NULL, 0, "d x" },
    { "minv", NULL, minv_text, 0, "d Minv" },  { "aba", emit_aba, NULL, 0, "d q v tau ddq" },
    { "neutral", emit_neutral, NULL, 0, "q" },
    { "rnea_derivatives", emit_rnea_derivatives, NULL, 0, "d q v a" },
};
const int program_nalgorithms = (int)(sizeof program_algorithms / sizeof program_algorithms[0]);

const program program_batch_crba = { "crba_full", emit_crba_full, NULL, 0, "d q" };

const program program_minus_minv = { "minus_minv", emit_minus_minv, NULL, 0, "d X" };

/* Straight-line -M^-1 X costs at most 2 nv nnz(L) products per matrix, the row sweeps about
 * as many plus a loop step per pair and block of columns, which dominates on a small tree
 * (iiwa, 343 products a matrix: 1,536 instructions by the row sweeps under callgrind, 541
 * straight-line). Past MINUS_MINV_UNROLLED_MAX the code (about 6 bytes a product) would
 * crowd the instruction cache; the loops stay. */
#define MINUS_MINV_UNROLLED_MAX 1024
int program_minus_minv_unrolled(const kin_tree *t)
{
    const long nnz = emit_ltl_nnz(t);
    return !t->m_singular && nnz >= 0 && 2L * t->nv * nnz <= MINUS_MINV_UNROLLED_MAX;
}

const program program_constrained[] = {
    { "con_terms", emit_constraint_terms, NULL, 0, "q v" },
    { "con_terms_kin", emit_constraint_terms_kin, NULL, 0, "q" },
    { "con_jacobian", emit_constraint_jacobian, NULL, 0, "d q" },
    { "con_drift", emit_constraint_drift, NULL, 0, "d q v" },
    { "kkt_factor", emit_kkt_factor, NULL, 0, "mu" },
    { "delassus", emit_delassus, NULL, 0, "mu" },
    { "kkt_solve", emit_kkt_solve, NULL, 0, "" },
    { "prox_rhs", emit_prox_rhs, NULL, 0, "" },
    { "impulse_rhs", emit_impulse_rhs, NULL, 0, "restitution" },
    { "baumgarte", emit_baumgarte, NULL, 0, "" },
    { "prox_ddq", emit_prox_ddq, NULL, 0, "" },
    { "impulse_velocity", emit_impulse_velocity, NULL, 0, "" },
    /* constrainedABA and proxPV: a set without loops */
    { "contact_baumgarte", emit_contact_baumgarte, NULL, 1, "d q v Kp Kd" },
    { "caba_setup", emit_caba_setup, NULL, 1, "q v tau rho astar ddq" },
    { "caba_delta", emit_caba_delta, NULL, 1, "lambda" },
    { "caba_forward", emit_caba_forward, NULL, 1, "ddq" },
    { "caba_rest", emit_caba_rest, NULL, 1, "d ddq" },
    { "pv_setup", emit_pv_setup, NULL, 1, "q v tau mu astar" },
    { "pv_forward", emit_pv_forward, NULL, 1, "lambda" },
    { "pv_delassus", emit_pv_delassus, NULL, 1, "d q mu" },
    { "ltls_factor", emit_ltls_factor, NULL, 0, "rho" },
    { "ltls_rhs", emit_ltls_rhs, NULL, 0, "rho" },
    { "ltls_iterate", emit_ltls_iterate, NULL, 0, "rho" },
    { "ltls_refine", emit_ltls_refine, NULL, 0, "rho" },
    { "con_derivatives", emit_constrained_derivatives, NULL, 1, "d q v a lambda lambda_dq lambda_dv" },
};

const program *program_named(const char *name)
{
    int i;
    for (i = 0; i < program_nalgorithms; i++)
        if (strcmp(program_algorithms[i].name, name) == 0)
            return &program_algorithms[i];
    for (i = 0; i < PROGRAM_NCONSTRAINED; i++)
        if (strcmp(program_constrained[i].name, name) == 0)
            return &program_constrained[i];
    return NULL;
}

int program_left_out(const kin_tree *t, const char *name)
{
    static const char *const need_minv[] = { "ltl", "ltl_solve", "minv", "aba" };
    size_t i;
    for (i = 0; t->m_singular && i < sizeof need_minv / sizeof need_minv[0]; i++)
        if (strcmp(name, need_minv[i]) == 0)
            return 1;
    return 0;
}

/* e->body takes the text of b (NULL, the text dropped, when only counting). */
static int take_body(emitted *e, ebuf *b, const char *indent)
{
    e->body = ebuf_take(b);
    if (!e->body)
        return -1;
    if (!indent) {
        free(e->body);
        e->body = NULL;
    }
    return 0;
}

/* 0 done, 1 declined (e untouched), -1 out of memory. */
static int run_text(const kin_tree *t, program_text text, emitted *e, const char *indent)
{
    ebuf b = { 0, 0, 0, 0 };
    expr_counts c;
    memset(&c, 0, sizeof c);
    ebuf_puts(&b, "");
    if (text(t, &b, indent ? indent : "", &c) != 0) {
        ebuf_free(&b);
        return 1;
    }
    memset(e, 0, sizeof *e);
    e->c = c;
    return take_body(e, &b, indent);
}

/* An expr program built by `build`, or else frame's Jacobian; the joints' inputs named
 * (q_JOINT, ...) when it is printed. */
static int run_expr(const kin_tree *t, program_build build, int frame, int local, emitted *e,
                    const char *indent)
{
    expr_prog *p;
    ebuf b = { 0, 0, 0, 0 };
    int rc = 0;
    memset(e, 0, sizeof *e);
    p = expr_new();
    if (!p)
        return -1;
    if (build)
        build(p, t);
    else
        emit_jacobian(p, t, frame, local);
    if (indent)
        emit_name_joint_inputs(p, t);
    if (expr_failed(p)) {
        rc = -1;
    } else if (indent) {
        ebuf_puts(&b, "");
        rc = expr_emit(p, &b, indent, &e->c);
        e->body = ebuf_take(&b);
        if (!e->body)
            rc = -1;
    } else {
        expr_count(p, &e->c);
    }
    ebuf_free(&b);
    expr_free(p);
    return rc;
}

int program_run_parts(const kin_tree *t, const program *a, int max_ops, emitted_parts *ep)
{
    expr_prog *p = expr_new();
    int rc = -1;
    memset(ep, 0, sizeof *ep);
    if (!p || !a->build)
        goto done;
    a->build(p, t);
    emit_name_joint_inputs(p, t);
    if (!expr_failed(p))
        rc = expr_emit_parts(p, max_ops, "    ", &ep->bodies, &ep->n, &ep->ncarry, &ep->c);
done:
    expr_free(p);
    return rc;
}

void program_parts_free(emitted_parts *ep)
{
    int k;
    for (k = 0; k < ep->n; k++)
        free(ep->bodies[k]);
    free(ep->bodies);
    memset(ep, 0, sizeof *ep);
}

int program_run(const kin_tree *t, const program *a, emitted *e, const char *indent)
{
    int rc = a->text ? run_text(t, a->text, e, indent) : 1;
    return rc != 1 ? rc : run_expr(t, a->build, 0, 0, e, indent);
}

int program_run_jacobian(const kin_tree *t, int frame, int local, emitted *e, const char *indent)
{
    return run_expr(t, NULL, frame, local, e, indent);
}

/* About this many products per M^-1 function: compilers slow down badly on one giant
 * function. */
#define MINV_CHUNK_OPS 4000

int program_run_minv_chunk(const kin_tree *t, int *step, emitted *e)
{
    const int nsteps = emit_minv_nsteps(t);
    ebuf b = { 0, 0, 0, 0 };
    memset(e, 0, sizeof *e);
    ebuf_puts(&b, "");
    do
        emit_minv_step(t, (*step)++, &b, "    ", &e->c);
    while (*step < nsteps && e->c.mul < MINV_CHUNK_OPS);
    if (b.oom) {
        ebuf_free(&b);
        return -1;
    }
    return take_body(e, &b, "    ");
}

/* About this many products per part of an in-place LTDL (emit_ltl_in_place): one function
 * of all its rows took gcc 5 s on an 80-DoF tree (9,068 products), 1.6 s in parts of this
 * size; a row's updates read d->L, so the parts pass nothing else. */
#define LTL_PART_MUL 800

int program_ltl_in_parts(const kin_tree *t)
{
    return emit_ltl_in_place(t) && emit_ltl_products(t) > LTL_PART_MUL;
}

int program_run_ltl_part(const kin_tree *t, int *step, emitted *e)
{
    ebuf b = { 0, 0, 0, 0 };
    memset(e, 0, sizeof *e);
    ebuf_puts(&b, "");
    do /* step s is row nv - 1 - s */
        emit_ltl_row_text(t, t->nv - 1 - (*step)++, &b, "    ", &e->c);
    while (*step < t->nv && e->c.mul < LTL_PART_MUL);
    if (b.oom) {
        ebuf_free(&b);
        return -1;
    }
    return take_body(e, &b, "    ");
}

long program_ops(const kin_tree *t, const program *a)
{
    emitted e;
    if (program_run(t, a, &e, NULL) != 0)
        return -1;
    return e.c.mul + e.c.add + e.c.div + e.c.sqrt + e.c.sincos;
}

char *program_ops_text(const expr_counts *c)
{
    char buf[160];
    snprintf(buf, sizeof buf, "%ld mul, %ld add, %ld div, %ld sqrt, %ld sin/cos", c->mul, c->add,
             c->div, c->sqrt, c->sincos);
    return render_comment_text(buf);
}

#define MAX_PARAMS 8

/* Marks in used[] the words of `words` that C text names: as identifiers of their own, not
 * as member names (d->M) nor in comments. One pass over the text. */
static void scan_uses(const char *text, const char *const *words, const size_t *len, int n,
                      char *used)
{
    const char *s = text;
    while (s && *s) {
        if (s[0] == '/' && s[1] == '*') {
            s = strstr(s + 2, "*/");
            s = s ? s + 2 : NULL;
        } else if (isalpha((unsigned char)*s) || *s == '_') {
            const char *w = s;
            int member =
                (w - text >= 1 && w[-1] == '.') || (w - text >= 2 && w[-2] == '-' && w[-1] == '>');
            int k;
            while (isalnum((unsigned char)*s) || *s == '_')
                s++;
            for (k = 0; k < n && !member; k++)
                if ((size_t)(s - w) == len[k] && memcmp(w, words[k], len[k]) == 0)
                    used[k] = 1;
        } else {
            s++;
        }
    }
}

char *program_unused_text(const char *params, const char *const *bodies, int n)
{
    const char *word[MAX_PARAMS];
    size_t len[MAX_PARAMS];
    char used[MAX_PARAMS];
    ebuf b = { 0, 0, 0, 0 };
    int nwords = 0, k;
    const char *s = params;
    while (*s && nwords < MAX_PARAMS) { /* the words of params */
        while (*s == ' ')
            s++;
        word[nwords] = s;
        while (*s && *s != ' ')
            s++;
        len[nwords] = (size_t)(s - word[nwords]);
        if (len[nwords] > 0)
            nwords++;
    }
    memset(used, 0, sizeof used);
    for (k = 0; k < n; k++)
        scan_uses(bodies[k], word, len, nwords, used);
    ebuf_puts(&b, "");
    for (k = 0; k < nwords; k++)
        if (!used[k])
            ebuf_printf(&b, "    (void)%.*s;\n", (int)len[k], word[k]);
    return ebuf_take(&b);
}
