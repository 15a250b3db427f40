/* render.c — builds every algorithm's expr program, emits it, and fills the templates. */
#include "util/name_table.h"
#include "render/render.h"
#include "check/validate.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdyn.h"        /* CDYN__DATA_REALS and friends: the generic workspace's counts */
#include "model/constraints.h"
#include "render/embedded.h"
#include "emit/emit.h"
#include "symbolic/expr.h"
#include "render/template.h"

#ifndef CDYNGEN_VERSION
#define CDYNGEN_VERSION "0.0.0"
#endif

/* ---- safe text ---- */

char *render_comment_text(const char *s)
{
    return expr_comment_text(s);
}

char *render_string_text(const char *s)
{
    ebuf b = {0, 0, 0, 0};
    const unsigned char *c;
    ebuf_puts(&b, "");
    for (c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\' || *c == '?')
            ebuf_printf(&b, "\\%c", *c);
        else if (*c < 0x20 || *c >= 0x7f)
            ebuf_printf(&b, "\\%03o", *c);     /* octal: never swallows a following digit */
        else
            ebuf_printf(&b, "%c", *c);
    }
    return ebuf_take(&b);
}

char *render_python_bytes_text(const char *s)
{
    ebuf b = {0, 0, 0, 0};
    const unsigned char *c;
    ebuf_puts(&b, "");
    for (c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\' || *c < 0x20 || *c >= 0x7f)
            ebuf_printf(&b, "\\x%02x", *c);
        else
            ebuf_printf(&b, "%c", *c);
    }
    return ebuf_take(&b);
}

char *render_ident_text(const char *s, int upper)
{
    size_t n = strlen(s), i;
    char *r = malloc(n + 1);
    if (!r)
        return NULL;
    for (i = 0; i < n; i++) {
        char c = s[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (ok && upper && c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        r[i] = ok ? c : '_';
    }
    r[n] = '\0';
    return r;
}

/* ---- emitted programs ---- */

typedef void (*build_fn)(expr_prog *p, const kin_tree *t);

static void build_rnea(expr_prog *p, const kin_tree *t) { emit_rnea(p, t, "v", "a", "tau"); }
static void build_nle(expr_prog *p, const kin_tree *t) { emit_rnea(p, t, "v", NULL, "h"); }
static void build_gravity(expr_prog *p, const kin_tree *t) { emit_rnea(p, t, NULL, NULL, "g"); }

/* C text written directly (emit_crba.c): the in-place LTDL, and M^-1 as all its steps.
 * Returns 1 when the algorithm's expr program is to be used instead. */
typedef int (*text_fn)(const kin_tree *t, ebuf *out, const char *indent, expr_counts *c);

static int minv_text(const kin_tree *t, ebuf *out, const char *indent, expr_counts *c)
{
    int s;
    memset(c, 0, sizeof *c);
    for (s = 0; s < emit_minv_nsteps(t); s++)
        emit_minv_step(t, s, out, indent, c);
    return 0;
}

/* L (dense, unit lower) and D out of d: copies, zeros written explicitly. */
static void build_factor_L(expr_prog *p, const kin_tree *t)
{
    int i, j;
    for (i = 0; i < t->nv; i++)
        for (j = 0; j < t->nv; j++) {
            int k = i > j ? emit_ltl_index(t, i, j) : -1;
            ex e = i == j ? ex_const(1.0) : k >= 0 ? ex_inputf(p, "d->L[%d]", k) : ex_const(0.0);
            expr_storef(p, e, "L[%d]", i * t->nv + j);
        }
}

static void build_factor_D(expr_prog *p, const kin_tree *t)
{
    int i;
    for (i = 0; i < t->nv; i++)
        expr_storef(p, ex_inputf(p, "d->D[%d]", i), "D[%d]", i);
}

typedef struct {
    char *body;
    expr_counts c;
} emitted;

/* 0 done, 1 declined (e untouched), -1 out of memory. */
static int run_text(const kin_tree *t, text_fn text, emitted *e, const char *indent)
{
    ebuf b = {0, 0, 0, 0};
    expr_counts c;
    memset(&c, 0, sizeof c);
    ebuf_puts(&b, "");
    if (text(t, &b, indent ? indent : "", &c) != 0) {
        ebuf_free(&b);
        return 1;
    }
    memset(e, 0, sizeof *e);
    e->c = c;
    e->body = ebuf_take(&b);
    if (!e->body)
        return -1;
    if (!indent) {
        free(e->body);
        e->body = NULL;
    }
    return 0;
}

static int run_program(const kin_tree *t, build_fn build, text_fn text, int frame, int local,
                       emitted *e, const char *indent)
{
    expr_prog *p;
    ebuf b = {0, 0, 0, 0};
    int rc = text ? run_text(t, text, e, indent) : 1;
    if (rc != 1)
        return rc;
    rc = 0;
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

static char *ops_text(const expr_counts *c)
{
    char buf[160];
    snprintf(buf, sizeof buf, "%ld mul, %ld add, %ld div, %ld sqrt, %ld sin/cos", c->mul,
             c->add, c->div, c->sqrt, c->sincos);
    return render_comment_text(buf);
}

static const struct {
    const char *name;
    build_fn build;     /* an expr program */
    text_fn text;       /* or C text, when it does not decline */
} algorithms[] = {
    {"fk", emit_fk, NULL}, {"rnea", build_rnea, NULL}, {"nle", build_nle, NULL},
    {"gravity", build_gravity, NULL}, {"crba", emit_crba, NULL},
    {"crba_tree", emit_crba_tree, NULL},
    {"ltl", emit_ltl, emit_ltl_text},
    {"ltl_solve", emit_ltl_solve, NULL}, {"minv", NULL, minv_text}, {"aba", emit_aba, NULL},
    {"neutral", emit_neutral, NULL}, {"factor_L", build_factor_L, NULL},
    {"factor_D", build_factor_D, NULL},
};
#define NALGORITHMS ((int)(sizeof algorithms / sizeof algorithms[0]))

/* The forward dynamics, left out when M is singular (--massless-links ignore). */
static int left_out(const kin_tree *t, const char *algorithm)
{
    static const char *const need_minv[] = {"ltl", "ltl_solve", "minv", "aba",
                                            "factor_L", "factor_D"};
    size_t i;
    for (i = 0; t->m_singular && i < sizeof need_minv / sizeof need_minv[0]; i++)
        if (strcmp(algorithm, need_minv[i]) == 0)
            return 1;
    return 0;
}

/* Emitted only for a robot generated with constraints (emit_constraint.c). */
static const struct {
    const char *name;
    build_fn build;
    int contacts_only;  /* constrainedABA and proxPV: a set without loops */
} constrained[] = {
    {"con_terms", emit_constraint_terms, 0}, {"con_terms_kin", emit_constraint_terms_kin, 0},
    {"con_jacobian", emit_constraint_jacobian, 0}, {"con_drift", emit_constraint_drift, 0},
    {"kkt_factor", emit_kkt_factor, 0}, {"delassus", emit_delassus, 0},
    {"kkt_solve", emit_kkt_solve, 0}, {"prox_rhs", emit_prox_rhs, 0},
    {"impulse_rhs", emit_impulse_rhs, 0}, {"baumgarte", emit_baumgarte, 0},
    {"prox_ddq", emit_prox_ddq, 0}, {"impulse_velocity", emit_impulse_velocity, 0},
    {"contact_baumgarte", emit_contact_baumgarte, 1},
    {"caba_setup", emit_caba_setup, 1}, {"caba_delta", emit_caba_delta, 1},
    {"caba_forward", emit_caba_forward, 1}, {"caba_rest", emit_caba_rest, 1},
    {"pv_setup", emit_pv_setup, 1}, {"pv_forward", emit_pv_forward, 1},
    {"pv_delassus", emit_pv_delassus, 1},
    {"ltls_factor", emit_ltls_factor, 0}, {"ltls_rhs", emit_ltls_rhs, 0},
    {"ltls_iterate", emit_ltls_iterate, 0},
};
#define NCONSTRAINED ((int)(sizeof constrained / sizeof constrained[0]))

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
    {"prox_ltl", 0, 1, {{"con_terms", 1}, {"ltl", 1}, {"kkt_factor", 1}, {"prox_rhs", 1},
                        {"prox_ddq", 1}, {"kkt_solve", PROX_ITERATIONS}}},
    {"constrained_aba", 1, 1, {{"caba_setup", 1}, {"caba_forward", PROX_ITERATIONS - 1},
                               {"caba_delta", PROX_ITERATIONS - 1}, {"caba_rest", 1}}},
    {"prox_pv", 1, 1, {{"pv_setup", 1}, {"kkt_solve", PROX_ITERATIONS}, {"pv_forward", 1}}},
    {"prox_ltls", 0, 1, {{"con_terms", 1}, {"ltls_factor", 1}, {"ltls_rhs", 1},
                         {"ltls_iterate", PROX_ITERATIONS}}},
    {"delassus_factorised", 0, 0, {{"con_terms_kin", 1}, {"ltl", 1}, {"delassus", 1}}},
    {"delassus_articulated", 1, 0, {{"pv_delassus", 1}}},
    {"impulse", 0, 1, {{"con_terms_kin", 1}, {"ltl", 1}, {"kkt_factor", 1}, {"impulse_rhs", 1},
                       {"impulse_velocity", 1}, {"kkt_solve", PROX_ITERATIONS}}},
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

/* M^-1 runs crba and ltl first: its count includes theirs. */
static void add_counts(expr_counts *c, const emit_count *done, int n, const char *a,
                       const char *b)
{
    int i;
    for (i = 0; i < n; i++)
        if (strcmp(done[i].algorithm, a) == 0 || strcmp(done[i].algorithm, b) == 0) {
            c->mul += done[i].mul;
            c->add += done[i].add;
            c->div += done[i].div;
            c->sqrt += done[i].sqrt;
            c->sincos += done[i].sincos;
        }
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
    if (run_program(t, NULL, NULL, frame, 1, &e, NULL) != 0)
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
    emit_count parts[NCONSTRAINED];
    int i, k, n = 0;
    for (i = 0; i < NCONSTRAINED; i++) {
        emitted e;
        memset(&e, 0, sizeof e);
        if (!(constrained[i].contacts_only && !tree_contacts_only(t)) &&
            run_program(t, constrained[i].build, NULL, 0, 0, &e, NULL) != 0)
            return -1;
        set_count(&parts[i], constrained[i].name, &e.c);
    }
    for (i = 0; i < (int)(sizeof constrained_totals / sizeof constrained_totals[0]) && n < max; i++) {
        emit_count *c = &counts[n];
        if (constrained_totals[i].contacts_only && !tree_contacts_only(t))
            continue;
        memset(c, 0, sizeof *c);
        c->algorithm = constrained_totals[i].name;
        for (k = 0; k < 6 && constrained_totals[i].parts[k].part; k++) {
            const part_times *pt = &constrained_totals[i].parts[k];
            const emit_count *pc = find_count(parts, NCONSTRAINED, pt->part);
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

int render_op_counts(const kin_tree *t, emit_count *counts, int max)
{
    int i, n = 0, f = render_counted_jacobian_frame(t), m;
    emitted e;
    for (i = 0; i < NALGORITHMS && n < max; i++) {
        if (strncmp(algorithms[i].name, "factor_", 7) == 0 || left_out(t, algorithms[i].name))
            continue;                       /* copies; or not emitted */
        if (run_program(t, algorithms[i].build, algorithms[i].text, 0, 0, &e, NULL) != 0)
            return -1;
        if (strcmp(algorithms[i].name, "minv") == 0)
            add_counts(&e.c, counts, n, "crba", "ltl");
        set_count(&counts[n++], algorithms[i].name, &e.c);
    }
    if (f >= 0 && n < max) {
        if (render_jacobian_count(t, f, &counts[n]) != 0)
            return -1;
        n++;
    }
    if (t->nconstraints > 0) {
        m = constrained_counts(t, counts, n, counts + n, max - n);
        if (m < 0)
            return -1;
        n += m;
    }
    return n;
}

/* ---- template context ---- */

static void set_str(tpl_value *d, const char *key, const char *s)
{
    tpl_dict_set(d, key, tpl_string(s));
}

static void set_take(tpl_value *d, const char *key, char *s)
{
    tpl_dict_set(d, key, s ? tpl_string_take(s) : NULL);
}

static void set_int(tpl_value *d, const char *key, long v)
{
    tpl_dict_set(d, key, tpl_int(v));
}

/* "a, b, c" of %.17g constants, each through CDYN_R. */
static char *number_list(const double *v, int n)
{
    ebuf b = {0, 0, 0, 0};
    int i;
    ebuf_puts(&b, "");
    for (i = 0; i < n; i++) {
        if (i)
            ebuf_puts(&b, ", ");
        ebuf_printf(&b, "CDYN_R(%.17g)", v[i]);
    }
    return ebuf_take(&b);
}

static char *int_list(const int *v, int n)
{
    ebuf b = {0, 0, 0, 0};
    int i;
    ebuf_puts(&b, "");
    for (i = 0; i < n; i++)
        ebuf_printf(&b, "%s%d", i ? ", " : "", v[i]);
    if (n == 0)
        ebuf_puts(&b, "0");
    return ebuf_take(&b);
}

/* The parameters templates/robot.c.tpl asks about (uses.NAME). */
static const char *const use_params[] = {"Kd", "Kp", "Minv", "a", "astar", "d", "ddq", "dt",
                                         "g", "h", "lambda", "mu", "q", "q_next",
                                         "restitution", "rho", "tau", "v", "x"};
#define NUSE_PARAMS ((int)(sizeof use_params / sizeof use_params[0]))

/* Marks in used[] the parameters C text names: as identifiers of their own, not as member
 * names (d->M) nor in comments. One pass over the text. */
static void scan_uses(const char *text, char used[NUSE_PARAMS])
{
    const char *s = text;
    while (s && *s) {
        if (s[0] == '/' && s[1] == '*') {
            s = strstr(s + 2, "*/");
            s = s ? s + 2 : NULL;
        } else if (isalpha((unsigned char)*s) || *s == '_') {
            const char *w = s;
            int member = (w - text >= 1 && w[-1] == '.') ||
                         (w - text >= 2 && w[-2] == '-' && w[-1] == '>');
            int k;
            while (isalnum((unsigned char)*s) || *s == '_')
                s++;
            for (k = 0; k < NUSE_PARAMS && !member; k++)
                if ((size_t)(s - w) == strlen(use_params[k]) && memcmp(w, use_params[k], (size_t)(s - w)) == 0)
                    used[k] = 1;
        } else {
            s++;
        }
    }
}

/* uses.NAME: whether the body reads or writes the parameter NAME, so that a template casts
 * to (void) only the parameters a function does not use. */
static tpl_value *uses_value(const char *body)
{
    char used[NUSE_PARAMS];
    tpl_value *u = tpl_dict();
    int k;
    memset(used, 0, sizeof used);
    scan_uses(body, used);
    for (k = 0; k < NUSE_PARAMS; k++)
        tpl_dict_set(u, use_params[k], tpl_bool(used[k]));
    return u;
}

static tpl_value *algorithm_value(const kin_tree *t, build_fn build, text_fn text, int frame,
                                  int local, const char *indent)
{
    emitted e;
    tpl_value *d = tpl_dict();
    if (run_program(t, build, text, frame, local, &e, indent) != 0) {
        free(e.body);
        tpl_free(d);
        return NULL;
    }
    tpl_dict_set(d, "uses", uses_value(e.body));
    set_take(d, "body", e.body);
    set_take(d, "ops", ops_text(&e.c));
    return d;
}

/* M^-1's steps in chunks of about MINV_CHUNK_OPS products, one static function each:
 * compilers slow down badly on one giant function. */
#define MINV_CHUNK_OPS 4000

static int minv_chunks_value(const kin_tree *t, tpl_value *ctx)
{
    tpl_value *list = tpl_list();
    int step = 0, nsteps = emit_minv_nsteps(t), index = 0;
    while (step < nsteps) {
        expr_counts c;
        ebuf b = {0, 0, 0, 0};
        tpl_value *d;
        memset(&c, 0, sizeof c);
        ebuf_puts(&b, "");
        do
            emit_minv_step(t, step++, &b, "    ", &c);
        while (step < nsteps && c.mul < MINV_CHUNK_OPS);
        if (b.oom) {
            ebuf_free(&b);
            goto oom;
        }
        d = tpl_dict();
        set_int(d, "index", index++);
        tpl_dict_set(d, "uses", uses_value(b.s));
        set_take(d, "body", ebuf_take(&b));
        set_take(d, "ops", ops_text(&c));
        tpl_list_push(list, d);
    }
    tpl_dict_set(ctx, "minv_chunks", list);
    return 0;
oom:
    tpl_free(list);
    return -1;
}

/* Unique upper-case identifiers for the frame enum: "a-b" -> A_B, collisions get the
 * smallest free suffix _2, _3, ... Hash tables keep it linear in the frames (up to 100,000
 * fixed links): `taken` holds every identifier given, `last` each clashing base's latest
 * suffix, from which the search resumes (every smaller one is taken already). */
static char **frame_idents(const kin_tree *t)
{
    const int n = t->nframes > 0 ? t->nframes : 1;
    char **id = calloc((size_t)n, sizeof *id), **base = calloc((size_t)n, sizeof *base);
    name_table taken = {0, 0, 0}, last = {0, 0, 0};
    int f, ok = id && base && name_table_init(&taken, n) == 0 && name_table_init(&last, n) == 0;
    for (f = 0; ok && f < t->nframes; f++) {
        int k;
        ok = (base[f] = render_ident_text(t->frames[f].name, 1)) != NULL;
        if (!ok || name_table_insert(&taken, base[f], f) < 0) {
            id[f] = base[f];
            continue;
        }
        k = name_table_find(&last, base[f]);
        ok = (id[f] = malloc(strlen(base[f]) + 16)) != NULL;
        for (k = k < 2 ? 2 : k + 1; ok; k++) {
            sprintf(id[f], "%s_%d", base[f], k);
            if (name_table_insert(&taken, id[f], f) < 0)
                break;
        }
        if (ok)
            name_table_set(&last, base[f], k);
    }
    name_table_free(&taken);
    name_table_free(&last);
    for (f = 0; id && base && f < t->nframes; f++) {
        if (id[f] != base[f])
            free(ok ? base[f] : id[f]);
        if (!ok)
            free(base[f]);
    }
    free(base);
    if (!ok) {
        free(id);
        id = NULL;
    }
    return id;
}

/* The first frame with f's body and offset (f itself if none comes before it): frames at
 * the same place share one Jacobian function. */
int render_jacobian_index(const kin_tree *t, int f)
{
    const tree_frame *a = &t->frames[f];
    int g;
    for (g = 0; g < f; g++) {
        const tree_frame *b = &t->frames[g];
        if (b->body == a->body && memcmp(b->R, a->R, sizeof a->R) == 0 &&
            memcmp(b->p, a->p, sizeof a->p) == 0)
            return g;
    }
    return f;
}

static tpl_value *frames_value(const kin_tree *t, char **ids)
{
    tpl_value *list = tpl_list();
    int f;
    for (f = 0; f < t->nframes; f++) {
        const tree_frame *fr = &t->frames[f];
        tpl_value *d = tpl_dict();
        set_int(d, "index", f);
        set_str(d, "ident", ids[f]);
        set_take(d, "string", render_string_text(fr->name));
        set_take(d, "python_bytes", render_python_bytes_text(fr->name));
        set_take(d, "comment", render_comment_text(fr->name));
        set_int(d, "body", fr->body);
        set_int(d, "at_body_origin", tree_frame_at_body_origin(fr));
        tpl_dict_set(d, "moves", tpl_bool(fr->body >= 0));
        set_int(d, "jacobian", render_jacobian_index(t, f));   /* its Jacobian functions' index */
        set_take(d, "R", number_list(fr->R, 9));
        set_take(d, "p", number_list(fr->p, 3));
        tpl_list_push(list, d);
    }
    return list;
}

static tpl_value *bodies_value(const kin_tree *t)
{
    static const char *const type[] = {"CDYN_JOINT_REVOLUTE", "CDYN_JOINT_REVOLUTE_UNBOUNDED",
                                       "CDYN_JOINT_PRISMATIC", "CDYN_JOINT_PLANAR",
                                       "CDYN_JOINT_FREEFLYER"};
    tpl_value *list = tpl_list();
    int i;
    for (i = 0; i < t->nbodies; i++) {
        const tree_body *b = &t->bodies[i];
        tpl_value *d = tpl_dict();
        char label[96], text[512];
        snprintf(text, sizeof text, "body %d %s <- %s, joint %s: %s", i, b->link_name,
                 b->parent < 0 ? "world" : t->bodies[b->parent].link_name, b->joint_name,
                 emit_joint_label(b, label, sizeof label));
        set_int(d, "index", i);
        set_take(d, "comment", render_comment_text(text));
        set_str(d, "type", type[b->kind]);
        set_int(d, "parent", b->parent);
        set_int(d, "idx_q", b->idx_q);
        set_int(d, "nq", b->nq);
        set_int(d, "idx_v", b->idx_v);
        set_int(d, "nv", b->nv);
        set_take(d, "axis", number_list(b->axis, 3));
        set_take(d, "R", number_list(b->R, 9));
        set_take(d, "p", number_list(b->p, 3));
        set_take(d, "mass", number_list(&b->mass, 1));
        set_take(d, "com", number_list(b->com, 3));
        set_take(d, "inertia", number_list(b->inertia, 6));
        tpl_list_push(list, d);
    }
    return list;
}

/* The runs of columns a Jacobian of a frame on `body` leaves zero (the DoFs that do not
 * support it), as [{start, count}]: its function clears them row by row. */
static tpl_value *zero_runs_value(const kin_tree *t, int body)
{
    const int last = t->bodies[body].idx_v + t->bodies[body].nv - 1;
    tpl_value *list = tpl_list();
    int col = 0, start;
    while (col < t->nv) {
        for (; col < t->nv && tree_dof_supports(t, col, last); col++)
            ;
        for (start = col; col < t->nv && !tree_dof_supports(t, col, last); col++)
            ;
        if (col > start) {
            tpl_value *run = tpl_dict();
            set_int(run, "start", start);
            set_int(run, "count", col - start);
            tpl_list_push(list, run);
        }
    }
    return list;
}

/* jacobians: one entry per moving frame with a place of its own, {index (its frame), body,
 * frames (the frames it serves: [{index, comment}]), zero_runs, lwa, local}. */
static tpl_value *jacobian_value(const kin_tree *t, int f)
{
    tpl_value *d, *frames = tpl_list(), *lwa = algorithm_value(t, NULL, NULL, f, 0, "    "),
                                       *local = algorithm_value(t, NULL, NULL, f, 1, "    ");
    int g;
    if (!lwa || !local) {
        tpl_free(lwa);
        tpl_free(local);
        tpl_free(frames);
        return NULL;
    }
    for (g = f; g < t->nframes; g++)
        if (render_jacobian_index(t, g) == f) {
            tpl_value *e = tpl_dict();
            set_int(e, "index", g);
            set_take(e, "comment", render_comment_text(t->frames[g].name));
            tpl_list_push(frames, e);
        }
    d = tpl_dict();
    set_int(d, "index", f);
    set_int(d, "body", t->frames[f].body);
    tpl_dict_set(d, "frames", frames);
    tpl_dict_set(d, "zero_runs", zero_runs_value(t, t->frames[f].body));
    tpl_dict_set(d, "lwa", lwa);
    tpl_dict_set(d, "local", local);
    return d;
}

static int jacobians_value(const kin_tree *t, tpl_value *ctx)
{
    tpl_value *list = tpl_list();
    int f;
    for (f = 0; f < t->nframes; f++) {
        tpl_value *d;
        if (t->frames[f].body < 0 || render_jacobian_index(t, f) != f)
            continue;
        d = jacobian_value(t, f);
        if (!d) {
            tpl_free(list);
            return -1;
        }
        tpl_list_push(list, d);
    }
    tpl_dict_set(ctx, "jacobians", list);
    return 0;
}

static tpl_value *constraint_list(const kin_tree *t, char **ids)
{
    tpl_value *list = tpl_list();
    int i;
    for (i = 0; i < t->nconstraints; i++) {
        const tree_constraint *c = &t->constraints[i];
        tpl_value *d = tpl_dict();
        char text[600];
        if (c->is_loop)
            snprintf(text, sizeof text, "loop %dd %.250s - %.250s", c->dim,
                     t->frames[c->frame_a].name, t->frames[c->frame_b].name);
        else
            snprintf(text, sizeof text, "contact %dd %.250s", c->dim, t->frames[c->frame_a].name);
        set_int(d, "index", i);
        set_take(d, "comment", render_comment_text(text));
        tpl_dict_set(d, "is_loop", tpl_bool(c->is_loop));
        set_str(d, "frame_a", ids[c->frame_a]);
        set_int(d, "frame_a_index", c->frame_a);
        set_int(d, "frame_b_index", c->frame_b);
        set_int(d, "dim", c->dim);
        set_int(d, "row", c->row);
        set_int(d, "nsupport", c->nsupport);
        tpl_list_push(list, d);
    }
    return list;
}

static long program_ops(const kin_tree *t, build_fn build, text_fn text)
{
    emitted e;
    if (run_program(t, build, text, 0, 0, &e, NULL) != 0)
        return -1;
    return e.c.mul + e.c.add + e.c.div + e.c.sqrt + e.c.sincos;
}

/* R_delassus's route: 1 for the articulated sweeps when they emit fewer operations than
 * M, its factor and B^T D B (measured faster where they are: README), 0 otherwise, -1 on
 * oom. The operation counts go to ops[2] (factorisation, articulated). */
static int delassus_route(const kin_tree *t, long ops[2])
{
    long kin = program_ops(t, emit_constraint_terms_kin, NULL);
    long ltl = program_ops(t, emit_ltl, emit_ltl_text);
    long via_factor = program_ops(t, emit_delassus, NULL);
    ops[0] = kin + ltl + via_factor;
    ops[1] = tree_contacts_only(t) ? program_ops(t, emit_pv_delassus, NULL) : 0;
    if (kin < 0 || ltl < 0 || via_factor < 0 || ops[1] < 0)
        return -1;
    return tree_contacts_only(t) && ops[1] < ops[0];
}

/* The constrained functions' bodies and the set, when the robot has constraints. */
static int constraints_value(const kin_tree *t, char **ids, tpl_value *ctx, int size)
{
    int i;
    set_int(ctx, "nc", t->nc);
    set_int(ctx, "ncon", t->nconstraints);
    set_int(ctx, "nnz_J", t->nnz_J);
    tpl_dict_set(ctx, "constraints", constraint_list(t, ids));
    tpl_dict_set(ctx, "contacts_only", tpl_bool(tree_contacts_only(t)));
    if (t->nconstraints == 0)
        return 0;
    /* the generic workspace of the set (--size: NAME_data holds it; NAME.py mirrors it) */
    set_int(ctx, "generic_constraint_reals",
            (long)CDYN__CONSTRAINT_REALS(t->nv, t->nconstraints, t->nc));
    set_int(ctx, "generic_constraint_ints",
            (long)CDYN__CONSTRAINT_INTS(t->nv, t->nconstraints));
    if (size)
        return 0;           /* nothing emitted: the runtime solves */
    {
        int n = emit_ltls_nnz(t);
        if (n < 0)
            return -1;
        set_int(ctx, "ltls_nnz", n > 0 ? n : 1);
    }
    if (tree_contacts_only(t)) {
        int n = emit_caba_stash_size(t);
        if (n < 0)
            return -1;
        set_int(ctx, "caba_nstash", n > 0 ? n : 1);
        n = emit_caba_branches(t);
        if (n < 0)
            return -1;
        set_int(ctx, "caba_nacc", n > 0 ? 6 * n : 1);
        n = emit_pv_stash_size(t);
        if (n < 0)
            return -1;
        set_int(ctx, "pv_nstash", n > 0 ? n : 1);
    }
    {
        long ops[2];
        int route = delassus_route(t, ops);
        if (route < 0)
            return -1;
        tpl_dict_set(ctx, "delassus_articulated", tpl_bool(route));
        set_int(ctx, "delassus_ops_factor", (int)ops[0]);
        set_int(ctx, "delassus_ops_articulated", (int)ops[1]);
    }
    for (i = 0; i < NCONSTRAINED; i++) {
        tpl_value *a;
        if (constrained[i].contacts_only && !tree_contacts_only(t))
            continue;
        a = algorithm_value(t, constrained[i].build, NULL, 0, 0, "    ");
        if (!a)
            return -1;
        tpl_dict_set(ctx, constrained[i].name, a);
    }
    return 0;
}

static tpl_value *build_context(const kin_tree *t, const render_options *o, char **ids)
{
    tpl_value *ctx = tpl_dict();
    ebuf integ = {0, 0, 0, 0}, helpers = {0, 0, 0, 0};
    int i, nnz = emit_ltl_nnz(t);
    set_str(ctx, "name", o->name);
    set_take(ctx, "NAME", render_ident_text(o->name, 1));
    set_str(ctx, "version", CDYNGEN_VERSION);
    set_take(ctx, "urdf_file", render_comment_text(o->urdf_file ? o->urdf_file : "?"));
    set_take(ctx, "options", render_comment_text(o->options ? o->options : ""));
    set_take(ctx, "robot", render_comment_text(t->name ? t->name : ""));
    set_take(ctx, "robot_string", render_string_text(t->name ? t->name : ""));
    tpl_dict_set(ctx, "scalar_float", tpl_bool(o->scalar_float));
    tpl_dict_set(ctx, "floating", tpl_bool(t->floating));
    tpl_dict_set(ctx, "ltl_in_place", tpl_bool(emit_ltl_in_place(t)));
    tpl_dict_set(ctx, "forward_dynamics", tpl_bool(!t->m_singular));
    if (t->m_singular) {
        char why[512];
        validate_singular_text(t, t->singular_body, why, sizeof why);
        set_take(ctx, "singular_reason", render_comment_text(why));
    }
    set_int(ctx, "nq", t->nq);
    set_int(ctx, "nv", t->nv);
    set_int(ctx, "nbodies", t->nbodies);
    set_int(ctx, "nframes", t->nframes);
    set_int(ctx, "nnz", nnz);
    set_int(ctx, "nv_alloc", t->nv > 0 ? t->nv : 1);
    set_int(ctx, "nbodies_alloc", t->nbodies > 0 ? t->nbodies : 1);
    set_int(ctx, "nframes_alloc", t->nframes > 0 ? t->nframes : 1);
    set_int(ctx, "nnz_alloc", nnz > 0 ? nnz : 1);
    set_take(ctx, "gravity_vector", number_list(t->gravity, 3));
    set_take(ctx, "dof_parent", int_list(t->dof_parent, t->nv));
    set_take(ctx, "dof_body", int_list(t->dof_body, t->nv));
    tpl_dict_set(ctx, "frames", frames_value(t, ids));
    tpl_dict_set(ctx, "bodies", bodies_value(t));
    /* the generic workspace (--size: NAME_data holds it; NAME.py mirrors it) */
    set_int(ctx, "generic_reals", (long)CDYN__DATA_REALS(t->nbodies, t->nv, t->nframes));
    set_int(ctx, "generic_ints", (long)CDYN__DATA_INTS(t->nbodies, t->nv, nnz));
    tpl_dict_set(ctx, "size", tpl_bool(o->size));
    if (o->size) {                          /* NAME.c calls the runtime: nothing is emitted */
        if (constraints_value(t, ids, ctx, 1) != 0) {
            tpl_free(ctx);
            return NULL;
        }
        return ctx;
    }
    for (i = 0; i < NALGORITHMS; i++) {
        int nested = strncmp(algorithms[i].name, "factor_", 7) == 0;
        tpl_value *a;
        if (strcmp(algorithms[i].name, "minv") == 0 || left_out(t, algorithms[i].name))
            continue;                        /* in chunks, below; or not emitted */
        a = algorithm_value(t, algorithms[i].build, algorithms[i].text, 0, 0,
                            nested ? "        " : "    ");
        if (!a) {
            tpl_free(ctx);
            return NULL;
        }
        tpl_dict_set(ctx, algorithms[i].name, a);
    }
    if (jacobians_value(t, ctx) != 0 || (!t->m_singular && minv_chunks_value(t, ctx) != 0) ||
        constraints_value(t, ids, ctx, 0) != 0) {
        tpl_free(ctx);
        return NULL;
    }
    ebuf_puts(&integ, "");
    ebuf_puts(&helpers, "");
    emit_integrate_text(t, o->name, &integ, "    ");
    emit_integrate_helpers(t, o->name, &helpers);
    tpl_dict_set(ctx, "integrate_uses", uses_value(integ.s));
    set_take(ctx, "integrate_body", ebuf_take(&integ));
    set_take(ctx, "integrate_helpers", ebuf_take(&helpers));
    return ctx;
}

/* ---- files ---- */

static int load_template(void *ctx, const char *name, const char **text)
{
    char path[256];
    (void)ctx;
    snprintf(path, sizeof path, "templates/%s", name);
    *text = embedded_text(path);
    return *text ? 0 : -1;
}

static int render_file_from(const char *tpl, const char *path_fmt, const char *name,
                            const tpl_value *ctx, render_output *out, char *err, size_t errlen)
{
    const char *text;
    char path[256], *content = NULL;
    render_file *f;
    if (load_template(NULL, tpl, &text) != 0) {
        snprintf(err, errlen, "template \"%s\" is not built in", tpl);
        return -1;
    }
    if (tpl_render(tpl, text, ctx, load_template, NULL, &content, err, errlen) != 0)
        return -1;
    snprintf(path, sizeof path, path_fmt, name);
    f = &out->files[out->nfiles];
    f->path = malloc(strlen(path) + 1);
    if (!f->path) {
        free(content);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    strcpy(f->path, path);
    f->content = content;
    out->nfiles++;
    return 0;
}

int render_robot(const kin_tree *t, const render_options *o, render_output *out,
                 char *err, size_t errlen)
{
    static const char *const files[][2] = {
        {"robot.h.tpl", "%s.h"}, {"robot.c.tpl", "%s.c"}, {"model.h.tpl", "%s_model.h"},
        {"model.c.tpl", "%s_model.c"}, {"CMakeLists.txt.tpl", "CMakeLists.txt"},
        {"cdyn_scalar.h.tpl", "cdyn_scalar.h"},
        {"robot.py.tpl", "%s.py"},
    };
    const int nfiles = (int)(sizeof files / sizeof files[0]) - !o->python;  /* .py last */
    char **ids;
    tpl_value *ctx;
    int i, rc = 0;
    out->files = calloc((size_t)nfiles, sizeof *out->files);
    out->nfiles = 0;
    ids = frame_idents(t);
    if (!out->files || !ids) {
        free(ids);
        render_output_free(out);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    ctx = build_context(t, o, ids);
    for (i = 0; i < t->nframes; i++)
        free(ids[i]);
    free(ids);
    if (!ctx) {
        render_output_free(out);
        snprintf(err, errlen, "out of memory while emitting code");
        return -1;
    }
    for (i = 0; i < nfiles && rc == 0; i++) {
        const int size_c = o->size && strcmp(files[i][0], "robot.c.tpl") == 0;
        rc = render_file_from(size_c ? "robot_size.c.tpl" : files[i][0], files[i][1], o->name,
                              ctx, out, err, errlen);
    }
    tpl_free(ctx);
    if (rc != 0)
        render_output_free(out);
    return rc;
}

void render_output_free(render_output *out)
{
    int i;
    for (i = 0; i < out->nfiles; i++) {
        free(out->files[i].path);
        free(out->files[i].content);
    }
    free(out->files);
    out->files = NULL;
    out->nfiles = 0;
}
