/* expr.c — scalar-expression DAG with folding, sign tracking, hash-consing and DCE. */
#include "symbolic/expr.h"
#include "util/text.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { OP_INPUT, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_SIN, OP_COS } expr_op;

typedef struct {
    expr_op op;
    ex a, b;            /* operands (b unused for unary ops) */
    char *name;         /* OP_INPUT only */
    char *ident;        /* OP_INPUT only: the temporary's name (expr_name_input), or NULL: tN */
} expr_node;

typedef struct {
    char *target;
    ex value;
} expr_store_rec;

/* What is printed between nodes: comments, a barrier, or C statements placed the same way
 * (COMMENT_CODE, printed as given). */
typedef enum { COMMENT_BLOCK, COMMENT_SECTION, COMMENT_BARRIER, COMMENT_CODE } comment_kind;

typedef struct {
    char *text;         /* "" for a barrier; lines of C for COMMENT_CODE */
    int mark;           /* number of nodes when the comment was made */
    comment_kind kind;
} expr_comment_rec;

struct expr_prog {
    expr_node *nodes;
    int nnodes, capnodes;
    int *table;         /* open-addressing hash of node indices, -1 = empty */
    size_t tabcap;
    expr_store_rec *stores;
    int nstores, capstores;
    expr_comment_rec *comments;
    int ncomments, capcomments;
    int failed;
};

/* ---- text buffer ---- */

static int ebuf_reserve(ebuf *b, size_t extra)
{
    size_t need = b->len + extra + 1, cap;
    char *s;
    if (b->oom)
        return -1;
    if (need <= b->cap)
        return 0;
    cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    s = realloc(b->s, cap);
    if (!s) {
        b->oom = 1;
        return -1;
    }
    b->s = s;
    b->cap = cap;
    return 0;
}

static void ebuf_vprintf(ebuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    int n;
    va_copy(ap2, ap);
    n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || ebuf_reserve(b, (size_t)n) != 0)
        return;
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void ebuf_printf(ebuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ebuf_vprintf(b, fmt, ap);
    va_end(ap);
}

void ebuf_puts(ebuf *b, const char *s)
{
    size_t n = strlen(s);
    if (ebuf_reserve(b, n) != 0)
        return;
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

void ebuf_free(ebuf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

char *ebuf_take(ebuf *b)
{
    char *s;
    if (b->oom) {
        ebuf_free(b);
        return NULL;
    }
    if (ebuf_reserve(b, 0) != 0)
        return NULL;
    s = b->s;
    memset(b, 0, sizeof *b);
    return s;
}

/* ---- program ---- */

expr_prog *expr_new(void)
{
    expr_prog *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->tabcap = 1024;
    p->table = malloc(p->tabcap * sizeof *p->table);
    if (!p->table) {
        free(p);
        return NULL;
    }
    memset(p->table, 0xff, p->tabcap * sizeof *p->table);
    return p;
}

void expr_free(expr_prog *p)
{
    int i;
    if (!p)
        return;
    for (i = 0; i < p->nnodes; i++) {
        free(p->nodes[i].name);
        free(p->nodes[i].ident);
    }
    for (i = 0; i < p->nstores; i++)
        free(p->stores[i].target);
    for (i = 0; i < p->ncomments; i++)
        free(p->comments[i].text);
    free(p->nodes);
    free(p->table);
    free(p->stores);
    free(p->comments);
    free(p);
}

int expr_failed(const expr_prog *p)
{
    return p->failed;
}

static int grow(void **arr, int *cap, int n, size_t size)
{
    void *na;
    int ncap;
    if (n < *cap)
        return 0;
    ncap = *cap ? *cap * 2 : 64;
    na = realloc(*arr, (size_t)ncap * size);
    if (!na)
        return -1;
    *arr = na;
    *cap = ncap;
    return 0;
}

/* ---- hashing ---- */

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

static uint64_t hash_ex(uint64_t h, ex a)
{
    uint64_t bits;
    memcpy(&bits, &a.c, sizeof bits);
    h = mix(h, (uint64_t)(int64_t)a.node);
    h = mix(h, (uint64_t)a.neg);
    return mix(h, a.node < 0 ? bits : 0);
}

static uint64_t hash_node(const expr_node *n)
{
    uint64_t h = mix(1469598103934665603ULL, (uint64_t)n->op);
    if (n->op == OP_INPUT) {
        const unsigned char *s;
        for (s = (const unsigned char *)n->name; *s; s++)
            h = mix(h, *s);
        return h;
    }
    return hash_ex(hash_ex(h, n->a), n->b);
}

static int ex_same(ex a, ex b)
{
    if (a.node != b.node || a.neg != b.neg)
        return 0;
    return a.node >= 0 || memcmp(&a.c, &b.c, sizeof a.c) == 0;
}

static int node_equal(const expr_node *x, const expr_node *y)
{
    if (x->op != y->op)
        return 0;
    if (x->op == OP_INPUT)
        return strcmp(x->name, y->name) == 0;
    return ex_same(x->a, y->a) && ex_same(x->b, y->b);
}

static int rehash(expr_prog *p)
{
    size_t cap = p->tabcap * 2, i;
    int *t = malloc(cap * sizeof *t);
    if (!t)
        return -1;
    memset(t, 0xff, cap * sizeof *t);
    for (i = 0; i < (size_t)p->nnodes; i++) {
        size_t k = (size_t)hash_node(&p->nodes[i]) & (cap - 1);
        while (t[k] >= 0)
            k = (k + 1) & (cap - 1);
        t[k] = (int)i;
    }
    free(p->table);
    p->table = t;
    p->tabcap = cap;
    return 0;
}

static ex ex_node_ref(int node, int neg)
{
    ex r;
    r.node = node;
    r.neg = neg;
    r.c = 0.0;
    return r;
}

/* Finds or creates the node; takes ownership of n->name. */
static ex intern(expr_prog *p, expr_node *n, int neg)
{
    size_t k;
    if (p->failed) {
        free(n->name);
        return ex_const(0.0);
    }
    if ((size_t)(p->nnodes + 1) * 2 > p->tabcap && rehash(p) != 0)
        goto oom;
    k = (size_t)hash_node(n) & (p->tabcap - 1);
    for (; p->table[k] >= 0; k = (k + 1) & (p->tabcap - 1)) {
        if (node_equal(&p->nodes[p->table[k]], n)) {
            free(n->name);
            return ex_node_ref(p->table[k], neg);
        }
    }
    if (grow((void **)&p->nodes, &p->capnodes, p->nnodes, sizeof *p->nodes) != 0)
        goto oom;
    p->nodes[p->nnodes] = *n;
    p->table[k] = p->nnodes;
    return ex_node_ref(p->nnodes++, neg);
oom:
    free(n->name);
    p->failed = 1;
    return ex_const(0.0);
}

static ex make2(expr_prog *p, expr_op op, ex a, ex b, int neg)
{
    expr_node n;
    n.op = op;
    n.a = a;
    n.b = b;
    n.name = NULL;
    n.ident = NULL;
    return intern(p, &n, neg);
}

/* ---- builders ---- */

ex ex_const(double c)
{
    ex r;
    r.node = -1;
    r.neg = 0;
    r.c = c == 0.0 ? 0.0 : c;     /* -0 becomes 0: exact zeros fold the same way */
    return r;
}

ex ex_input(expr_prog *p, const char *name)
{
    expr_node n;
    memset(&n, 0, sizeof n);
    n.op = OP_INPUT;
    n.name = malloc(strlen(name) + 1);
    if (!n.name) {
        p->failed = 1;
        return ex_const(0.0);
    }
    strcpy(n.name, name);
    return intern(p, &n, 0);
}

void expr_name_input(expr_prog *p, const char *input, const char *ident)
{
    expr_node probe;
    expr_node *n = NULL;
    size_t k;
    memset(&probe, 0, sizeof probe);
    probe.op = OP_INPUT;
    probe.name = (char *)input;
    if (p->failed || p->tabcap == 0)
        return;
    k = (size_t)hash_node(&probe) & (p->tabcap - 1);
    for (; p->table[k] >= 0 && !n; k = (k + 1) & (p->tabcap - 1))
        if (node_equal(&p->nodes[p->table[k]], &probe))
            n = &p->nodes[p->table[k]];
    if (!n)
        return;                         /* not read by this program */
    free(n->ident);
    n->ident = malloc(strlen(ident) + 1);
    if (!n->ident) {
        p->failed = 1;
        return;
    }
    strcpy(n->ident, ident);
}

ex ex_inputf(expr_prog *p, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return ex_input(p, buf);
}

int ex_is_const(ex a, double c)
{
    return a.node < 0 && a.c == c;
}

int ex_is_zero(ex a)
{
    return ex_is_const(a, 0.0);
}

ex ex_neg(ex a)
{
    if (a.node < 0)
        return ex_const(-a.c);
    a.neg = !a.neg;
    return a;
}

static ex positive(ex a)
{
    if (a.node < 0)
        a.c = fabs(a.c);
    a.neg = 0;
    return a;
}

/* s*x + c with c a nonzero constant: canonical nodes are x + |c| and x - |c|. */
static ex add_const(expr_prog *p, ex x, double c)
{
    ex k = ex_const(fabs(c));
    ex xp = positive(x);
    if (!x.neg)
        return make2(p, c > 0 ? OP_ADD : OP_SUB, xp, k, 0);
    /* -x + c = -(x - c) */
    return make2(p, c > 0 ? OP_SUB : OP_ADD, xp, k, 1);
}

ex ex_add(expr_prog *p, ex a, ex b)
{
    ex x, y;
    if (a.node < 0 && b.node < 0)
        return ex_const(a.c + b.c);
    if (ex_is_zero(a))
        return b;
    if (ex_is_zero(b))
        return a;
    if (a.node < 0)
        return add_const(p, b, a.c);
    if (b.node < 0)
        return add_const(p, a, b.c);
    if (a.node == b.node)
        return a.neg == b.neg ? ex_mul(p, a, ex_const(2.0)) : ex_const(0.0);
    if (a.node > b.node) {
        ex t = a;
        a = b;
        b = t;
    }
    x = positive(a);
    y = positive(b);
    if (a.neg == b.neg)
        return make2(p, OP_ADD, x, y, a.neg);
    /* x - y (a positive) or y - x = -(x - y) (a negative); x has the lower index */
    return make2(p, OP_SUB, x, y, a.neg);
}

ex ex_sub(expr_prog *p, ex a, ex b)
{
    return ex_add(p, a, ex_neg(b));
}

ex ex_mul(expr_prog *p, ex a, ex b)
{
    int neg;
    if (a.node < 0 && b.node < 0)
        return ex_const(a.c * b.c);
    if (b.node < 0) {
        ex t = a;
        a = b;
        b = t;
    }
    if (a.node < 0) {               /* constant * node */
        if (a.c == 0.0)
            return ex_const(0.0);
        if (a.c == 1.0)
            return b;
        if (a.c == -1.0)
            return ex_neg(b);
        neg = b.neg ^ (a.c < 0);
        return make2(p, OP_MUL, positive(b), positive(a), neg);
    }
    neg = a.neg ^ b.neg;
    if (a.node > b.node) {
        ex t = a;
        a = b;
        b = t;
    }
    return make2(p, OP_MUL, positive(a), positive(b), neg);
}

/* 1 if 1/c is exact (c a power of two), so x/c may become x*(1/c). */
static int exact_reciprocal(double c)
{
    int e;
    double m = frexp(fabs(c), &e);
    return m == 0.5 && e > -1000 && e < 1000;
}

ex ex_div(expr_prog *p, ex a, ex b)
{
    if (a.node < 0 && b.node < 0)
        return ex_const(a.c / b.c);
    if (ex_is_zero(a))
        return a;
    if (b.node < 0) {
        if (b.c == 1.0)
            return a;
        if (b.c == -1.0)
            return ex_neg(a);
        if (exact_reciprocal(b.c))
            return ex_mul(p, a, ex_const(1.0 / b.c));
        return make2(p, OP_DIV, positive(a), positive(b), a.neg ^ (b.c < 0));
    }
    return make2(p, OP_DIV, positive(a), positive(b),
                 (a.node < 0 ? a.c < 0 : a.neg) ^ b.neg);
}

ex ex_sqrt(expr_prog *p, ex a)
{
    if (a.node < 0)
        return ex_const(sqrt(a.c));
    return make2(p, OP_SQRT, a, ex_const(0.0), 0);
}

ex ex_sin(expr_prog *p, ex a)
{
    if (a.node < 0)
        return ex_const(sin(a.c));
    return make2(p, OP_SIN, positive(a), ex_const(0.0), a.neg);   /* sin(-x) = -sin x */
}

ex ex_cos(expr_prog *p, ex a)
{
    if (a.node < 0)
        return ex_const(cos(a.c));
    return make2(p, OP_COS, positive(a), ex_const(0.0), 0);      /* cos(-x) = cos x */
}

ex ex_fma2(expr_prog *p, ex a, ex b, ex c, ex d)
{
    return ex_add(p, ex_mul(p, a, b), ex_mul(p, c, d));
}

ex ex_fms2(expr_prog *p, ex a, ex b, ex c, ex d)
{
    return ex_sub(p, ex_mul(p, a, b), ex_mul(p, c, d));
}

/* ---- stores and comments ---- */

void expr_store(expr_prog *p, const char *target, ex value)
{
    char *t;
    if (p->failed)
        return;
    t = text_dup(target);
    if (!t || grow((void **)&p->stores, &p->capstores, p->nstores, sizeof *p->stores) != 0) {
        free(t);
        p->failed = 1;
        return;
    }
    p->stores[p->nstores].target = t;
    p->stores[p->nstores].value = value;
    p->nstores++;
}

void expr_storef(expr_prog *p, ex value, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    expr_store(p, buf, value);
}

char *expr_comment_text(const char *s)
{
    ebuf b = {0, 0, 0, 0};
    const unsigned char *c;
    ebuf_puts(&b, "");
    for (c = (const unsigned char *)s; *c; c++) {
        if (*c == '*' && c[1] == '/')
            ebuf_puts(&b, "* ");
        else if (*c == '/' && c[1] == '*')
            ebuf_puts(&b, "/ ");
        else if (*c == '?' && c[1] == '?')
            ebuf_puts(&b, "? ");
        else if (*c == '\\')
            ebuf_puts(&b, "\\\\");
        else if (*c < 0x20 || *c >= 0x7f)
            ebuf_printf(&b, "\\x%02X", *c);
        else
            ebuf_printf(&b, "%c", *c);
    }
    return ebuf_take(&b);
}

static void add_comment(expr_prog *p, const char *text, comment_kind kind)
{
    char *t;
    if (p->failed)
        return;
    t = kind == COMMENT_CODE ? text_dup(text) : expr_comment_text(text ? text : "");
    if (!t || grow((void **)&p->comments, &p->capcomments, p->ncomments,
                   sizeof *p->comments) != 0) {
        free(t);
        p->failed = 1;
        return;
    }
    p->comments[p->ncomments].text = t;
    p->comments[p->ncomments].mark = p->nnodes;
    p->comments[p->ncomments].kind = kind;
    p->ncomments++;
}

void expr_comment(expr_prog *p, const char *text)
{
    add_comment(p, text, COMMENT_BLOCK);
}

void expr_section(expr_prog *p, const char *text)
{
    add_comment(p, text, COMMENT_SECTION);
}

void expr_barrier(expr_prog *p)
{
    add_comment(p, NULL, COMMENT_BARRIER);
}

void expr_code(expr_prog *p, const char *lines)
{
    if (!lines)
        p->failed = 1;      /* the caller ran out of memory making them */
    else
        add_comment(p, lines, COMMENT_CODE);
}

/* ---- liveness, counting, emission ---- */

/* live[i] = 1 for nodes that reach a store. Operands always have lower indices. */
static char *mark_live(const expr_prog *p)
{
    char *live = calloc((size_t)p->nnodes + 1, 1);
    int i;
    if (!live)
        return NULL;
    for (i = 0; i < p->nstores; i++)
        if (p->stores[i].value.node >= 0)
            live[p->stores[i].value.node] = 1;
    for (i = p->nnodes - 1; i >= 0; i--) {
        const expr_node *n = &p->nodes[i];
        if (!live[i] || n->op == OP_INPUT)
            continue;
        if (n->a.node >= 0)
            live[n->a.node] = 1;
        if (n->b.node >= 0)
            live[n->b.node] = 1;
    }
    return live;
}

static void count_node(const expr_node *n, expr_counts *c)
{
    switch (n->op) {
    case OP_ADD: case OP_SUB: c->add++; break;
    case OP_MUL: c->mul++; break;
    case OP_DIV: c->div++; break;
    case OP_SQRT: c->sqrt++; break;
    case OP_SIN: case OP_COS: c->sincos++; break;
    case OP_INPUT: break;
    }
}

void expr_count(expr_prog *p, expr_counts *counts)
{
    char *live = mark_live(p);
    int i;
    memset(counts, 0, sizeof *counts);
    if (!live) {
        p->failed = 1;
        return;
    }
    for (i = 0; i < p->nnodes; i++)
        if (live[i])
            count_node(&p->nodes[i], counts);
    free(live);
}

void expr_print_const(ebuf *b, double c)
{
    char num[64];
    if (c == 0.0) {
        ebuf_puts(b, "0");
        return;
    }
    if (c == 1.0 || c == -1.0) {
        ebuf_puts(b, c > 0 ? "1" : "-1");
        return;
    }
    snprintf(num, sizeof num, "%.17g", c);
    if (!strpbrk(num, ".eEn"))            /* keep it a floating literal: "2" -> "2.0" */
        strcat(num, ".0");
    ebuf_printf(b, "CDYN_R(%s)", num);
}

/* How the live nodes are printed: tmp[i] is node i's temporary; a product used once, by a
 * sum, has no temporary (inl[i] = 1) and is written inside that sum, so `t = a * b + c`
 * stays one statement the compiler may contract into a fused multiply-add. */
typedef struct {
    const expr_prog *p;
    const int *tmp;
    const char *inl;
    const char *batched;    /* sin/cos nodes read in place from sin_angle[]/cos_angle[] */
} printer;

static void print_node(ebuf *b, const expr_node *n, const printer *pr);

static void print_ref(ebuf *b, ex a, const printer *pr)
{
    if (a.node < 0) {
        expr_print_const(b, a.c);
        return;
    }
    if (pr->inl[a.node]) {
        print_node(b, &pr->p->nodes[a.node], pr);
        return;
    }
    if (pr->batched[a.node])    /* tmp holds the slot */
        ebuf_printf(b, "%s%s_angle[%d]", a.neg ? "-" : "",
                    pr->p->nodes[a.node].op == OP_SIN ? "sin" : "cos", pr->tmp[a.node]);
    else if (pr->p->nodes[a.node].ident)
        ebuf_printf(b, "%s%s", a.neg ? "-" : "", pr->p->nodes[a.node].ident);
    else
        ebuf_printf(b, "%st%d", a.neg ? "-" : "", pr->tmp[a.node]);
}

static void print_node(ebuf *b, const expr_node *n, const printer *pr)
{
    static const char *const fn[] = {"", "", "", "", "", "CDYN_SQRT", "CDYN_SIN", "CDYN_COS"};
    static const char *const sym[] = {"", " + ", " - ", " * ", " / "};
    if (n->op == OP_INPUT) {
        ebuf_puts(b, n->name);
    } else if (n->op >= OP_SQRT) {
        ebuf_printf(b, "%s(", fn[n->op]);
        print_ref(b, n->a, pr);
        ebuf_puts(b, ")");
    } else {
        print_ref(b, n->a, pr);
        ebuf_puts(b, sym[n->op]);
        print_ref(b, n->b, pr);
    }
}

/* inl[i] = 1 for products whose only use is one operand of a sum. */
static char *find_inlined(const expr_prog *p, const char *live)
{
    char *inl = calloc((size_t)p->nnodes + 1, 1);
    int *uses = calloc((size_t)p->nnodes + 1, sizeof *uses);
    char *by_sum = calloc((size_t)p->nnodes + 1, 1);
    int i;
    if (!inl || !uses || !by_sum) {
        free(uses);
        free(by_sum);
        free(inl);
        return NULL;
    }
    for (i = 0; i < p->nstores; i++)
        if (p->stores[i].value.node >= 0)
            uses[p->stores[i].value.node] += 2;     /* stored values keep their temporary */
    for (i = 0; i < p->nnodes; i++) {
        const expr_node *n = &p->nodes[i];
        int sum = n->op == OP_ADD || n->op == OP_SUB;
        if (!live[i] || n->op == OP_INPUT)
            continue;
        if (n->a.node >= 0) {
            uses[n->a.node]++;
            by_sum[n->a.node] |= (char)sum;
        }
        if (n->b.node >= 0 && n->b.node != n->a.node) {
            uses[n->b.node]++;
            by_sum[n->b.node] |= (char)sum;
        } else if (n->b.node >= 0) {
            uses[n->b.node]++;
        }
    }
    for (i = 0; i < p->nnodes; i++)
        inl[i] = (char)(live[i] && p->nodes[i].op == OP_MUL && uses[i] == 1 && by_sum[i]);
    free(uses);
    free(by_sum);
    return inl;
}

/* Prints the pending section, block comment and barrier of flush_comments. */
static void print_pending(const expr_prog *p, ebuf *out, const char *indent, int *section,
                          int *block, int *barrier)
{
    if (*section >= 0)
        ebuf_printf(out, "%s/* %s */\n", indent, p->comments[*section].text);
    if (*block >= 0)
        ebuf_printf(out, "%s/* %s */\n", indent, p->comments[*block].text);
    if (*barrier)
        ebuf_printf(out, "%sCDYN_BARRIER();\n", indent);
    *section = *block = -1;
    *barrier = 0;
}

/* Each line of `lines` indented. */
static void print_code(ebuf *out, const char *indent, const char *lines)
{
    while (*lines) {
        size_t n = strcspn(lines, "\n");
        ebuf_printf(out, "%s%.*s\n", indent, (int)n, lines);
        lines += n + (lines[n] == '\n');
    }
}

/* Of the comments made at or before node `upto` and not printed yet: the last section,
 * then the last block comment made after it (a block with nothing emitted gets no heading);
 * code records all, in order, each after what was pending before it. */
static void flush_comments(const expr_prog *p, ebuf *out, const char *indent, int *next,
                           int upto)
{
    int section = -1, block = -1, barrier = 0;
    while (*next < p->ncomments && p->comments[*next].mark <= upto) {
        if (p->comments[*next].kind == COMMENT_CODE) {
            print_pending(p, out, indent, &section, &block, &barrier);
            print_code(out, indent, p->comments[*next].text);
        } else if (p->comments[*next].kind == COMMENT_BARRIER) {
            barrier = 1;
        } else if (p->comments[*next].kind == COMMENT_SECTION) {
            section = *next;
            block = -1;
        } else {
            block = *next;
        }
        (*next)++;
    }
    print_pending(p, out, indent, &section, &block, &barrier);
}

/* Everything expr_emit needs while it prints. */
typedef struct {
    const expr_prog *p;
    ebuf *out;
    const char *indent;
    const char *live;
    printer pr;
    int *tmp;           /* temporary number of each printed node */
    int *first;         /* first store of each node, chained through nextst */
    int *nextst;
    int *base;          /* inputs and stores: index of the array they name (see base_ids) */
    char *loaded;       /* inputs: 0 unread, 1 read, 2 read and stored */
    char *base_flushed; /* per array: written to, so all its inputs are read */
    char *emitted;      /* operation nodes already printed */
    char *batched;      /* sin/cos nodes read where used from sin_angle[]/cos_angle[] */
    int ntmp;
    int ci;             /* next comment to print */
} emitter;

/* The array an input or store target names: the text before '[' ("d->M" of "d->M[3]"). */
static int same_base(const char *x, const char *y)
{
    size_t nx = strcspn(x, "["), ny = strcspn(y, "[");
    return nx == ny && memcmp(x, y, nx) == 0;
}

/* base[] numbers inputs (node i) and stores (nnodes + s) by the array they name, so a store
 * can find the inputs it would overwrite. Quadratic in the number of distinct arrays only. */
static int base_ids(emitter *e)
{
    const expr_prog *p = e->p;
    const char **names = malloc(((size_t)p->nnodes + (size_t)p->nstores + 1) * sizeof *names);
    int i, n = 0;
    if (!names)
        return -1;
    for (i = 0; i < p->nnodes + p->nstores; i++) {
        const char *s = i < p->nnodes ? p->nodes[i].name : p->stores[i - p->nnodes].target;
        int k;
        e->base[i] = -1;
        if (!s)
            continue;
        for (k = 0; k < n && !same_base(names[k], s); k++)
            ;
        if (k == n)
            names[n++] = s;
        e->base[i] = k;
    }
    free(names);
    return 0;
}

static void emit_stores_of(emitter *e, int node);

/* Reads input i (loaded[i] = 1: read, its stores not done yet). */
static void read_input(emitter *e, int i)
{
    const expr_node *n = &e->p->nodes[i];
    if (e->loaded[i])
        return;
    e->loaded[i] = 1;
    if (n->ident) {
        ebuf_printf(e->out, "%sconst cdyn_real %s = %s;\n", e->indent, n->ident, n->name);
        return;
    }
    e->tmp[i] = e->ntmp++;
    ebuf_printf(e->out, "%sconst cdyn_real t%d = %s;\n", e->indent, e->tmp[i], n->name);
}

/* Reads input i, then does the stores of its value (loaded[i] = 2). */
static void load_input(emitter *e, int i)
{
    read_input(e, i);
    if (e->loaded[i] == 1) {
        e->loaded[i] = 2;
        emit_stores_of(e, i);
    }
}

/* Inputs are read just before their first use, which keeps a compiler's live ranges short
 * in long straight-line code; a store reads first every input of the array it writes, so
 * in-place outputs (x <- f(x)) still see the old values. Distinct arrays must not overlap
 * (the generated API's contract). */
static void load_operands(emitter *e, ex a)
{
    const expr_node *n;
    if (a.node < 0)
        return;
    n = &e->p->nodes[a.node];
    if (n->op == OP_INPUT) {
        load_input(e, a.node);
    } else if (e->pr.inl[a.node]) {
        load_operands(e, n->a);
        load_operands(e, n->b);
    }
}

static void emit_store(emitter *e, int s)
{
    const expr_prog *p = e->p;
    int b = e->base[p->nnodes + s];
    if (!e->base_flushed[b]) {       /* the first store to this array: read all of it */
        int i, pass;
        e->base_flushed[b] = 1;
        for (pass = 0; pass < 2; pass++) /* the stores of those values only after */
            for (i = 0; i < p->nnodes; i++)
                if (e->live[i] && p->nodes[i].op == OP_INPUT && e->base[i] == b)
                    (pass == 0 ? read_input : load_input)(e, i);
    }
    ebuf_printf(e->out, "%s%s = ", e->indent, p->stores[s].target);
    print_ref(e->out, p->stores[s].value, &e->pr);
    ebuf_puts(e->out, ";\n");
}

static void emit_stores_of(emitter *e, int node)
{
    int s;
    for (s = e->first[node]; s >= 0; s = e->nextst[s])
        emit_store(e, s);
}

/* sin/cos of joint coordinates: a program's all at once, where the first is needed, by
 * cdyn_sincos_n (runtime/cdyn_trig.h): one loop a compiler vectorises instead of a libm call
 * per joint, each spilling every vector register. (Before, batches of 8 libm calls: RNEA
 * 0.17 -> 0.13 us on arm7 against one call at a time.) */
static int is_trig_of_input(const expr_prog *p, int i)
{
    const expr_node *n = &p->nodes[i];
    return (n->op == OP_SIN || n->op == OP_COS) && n->a.node >= 0 &&
           p->nodes[n->a.node].op == OP_INPUT;
}

/* Prints operation node i as a temporary, its operands read first (the pending comments
 * between those reads and it when `comments`), then its stores. */
static void emit_node(emitter *e, int i, expr_counts *c, int comments)
{
    const expr_node *n = &e->p->nodes[i];
    load_operands(e, n->a);
    if (n->op < OP_SQRT)
        load_operands(e, n->b);
    if (comments)
        flush_comments(e->p, e->out, e->indent, &e->ci, i);
    e->tmp[i] = e->ntmp++;
    count_node(n, c);
    ebuf_printf(e->out, "%sconst cdyn_real t%d = ", e->indent, e->tmp[i]);
    print_node(e->out, n, &e->pr);
    ebuf_puts(e->out, ";\n");
    emit_stores_of(e, i);
    e->emitted[i] = 1;
}

/* The index N of an angle read as the plain input "q[N]", or -1. */
static int q_index(const expr_prog *p, ex a)
{
    const char *name = p->nodes[a.node].name;
    int index, len = 0;
    if (a.neg || !name || sscanf(name, "q[%d]%n", &index, &len) != 1 || name[len] != '\0')
        return -1;
    return index;
}

/* If every angle of the slotted nodes is a plain q[N]: renumbers the slots in increasing N
 * and returns 1, so that each stretch of consecutive N is one stretch of slots; else 0. */
static int q_slots(const expr_prog *p, int *slot, int from, int n)
{
    int i, k, *q = malloc((size_t)(n > 0 ? n : 1) * sizeof *q);
    if (!q)
        return 0;
    for (i = from; i < p->nnodes; i++)
        if (slot[i] >= 0 && (q[slot[i]] = q_index(p, p->nodes[i].a)) < 0) {
            free(q);
            return 0;
        }
    for (i = from; i < p->nnodes; i++)   /* q[] is by old slot: each node reads its own */
        if (slot[i] >= 0) {
            int rank = 0, me = q[slot[i]];
            for (k = 0; k < n; k++)
                rank += q[k] < me;
            slot[i] = rank;
        }
    free(q);
    return 1;
}

/* One cdyn_sincos_n per stretch of consecutive q indices, the slots renumbered by q_slots. */
static void emit_q_sincos(emitter *e, const int *slot, int from, int n)
{
    const expr_prog *p = e->p;
    int *q = malloc((size_t)(n > 0 ? n : 1) * sizeof *q), i, k, start;
    if (!q) {
        e->out->oom = 1;
        return;
    }
    for (i = from; i < p->nnodes; i++)
        if (slot[i] >= 0)
            q[slot[i]] = q_index(p, p->nodes[i].a);
    ebuf_printf(e->out, "%scdyn_real sin_angle[%d], cos_angle[%d];\n", e->indent, n, n);
    for (start = 0; start < n; start = k) {
        for (k = start + 1; k < n && q[k] == q[k - 1] + 1; k++)
            ;
        if (start == 0)
            ebuf_printf(e->out, "%scdyn_sincos_n(q + %d, sin_angle, cos_angle, %d);\n",
                        e->indent, q[start], k - start);
        else
            ebuf_printf(e->out, "%scdyn_sincos_n(q + %d, sin_angle + %d, cos_angle + %d, %d);\n",
                        e->indent, q[start], start, start, k - start);
    }
    free(q);
}

/* Up to this many angles, their sin/cos are temporaries; past it, read in place. */
#define TRIG_TEMPORARIES_MAX 16

/* Node `from` and every later live sin/cos of an input: the angles gathered once each into
 * angle[], cdyn_sincos_n, and each node a temporary reading its result, or, past
 * TRIG_TEMPORARIES_MAX angles, read where it is used as sin_angle[k] / cos_angle[k]:
 * temporaries made at the top stay live across the whole function, and a big tree's (talos:
 * 44 pairs) spill (talos NLE, clang: 1.15 -> 1.08 us read in place, with the per-body
 * barriers), while a small tree's are cheaper in registers (solo12 NLE, clang: 0.19 -> 0.21
 * us read in place). When the angles are plain entries of q, cdyn_sincos_n reads q itself,
 * once per stretch: through a local array of known values, clang (14) forwards angle[0]
 * into the loop, which then no longer vectorises (talos FK: 0.65 us against gcc's 0.34). */
static void emit_trig_batch(emitter *e, int from, expr_counts *c)
{
    const expr_prog *p = e->p;
    int *slot = malloc((size_t)p->nnodes * sizeof *slot);
    int i, k, n = 0;
    if (!slot) {
        e->out->oom = 1;
        return;
    }
    flush_comments(p, e->out, e->indent, &e->ci, from);
    for (i = from; i < p->nnodes; i++) {    /* slot[i]: node i's angle, or -1 */
        slot[i] = -1;
        if (!e->live[i] || e->emitted[i] || !is_trig_of_input(p, i))
            continue;
        for (k = from; k < i && slot[i] < 0; k++)
            if (slot[k] >= 0 && p->nodes[k].a.node == p->nodes[i].a.node)
                slot[i] = slot[k];
        if (slot[i] < 0)
            slot[i] = n++;
    }
    if (q_slots(p, slot, from, n)) {
        emit_q_sincos(e, slot, from, n);
    } else {
        for (i = from, k = 0; i < p->nnodes; i++)
            if (slot[i] == k) {
                load_operands(e, p->nodes[i].a);
                k++;
            }
        ebuf_printf(e->out, "%scdyn_real angle[%d], sin_angle[%d], cos_angle[%d];\n", e->indent,
                    n, n, n);
        for (i = from, k = 0; i < p->nnodes; i++)
            if (slot[i] == k) {
                ebuf_printf(e->out, "%sangle[%d] = ", e->indent, k++);
                print_ref(e->out, p->nodes[i].a, &e->pr);
                ebuf_puts(e->out, ";\n");
            }
        ebuf_printf(e->out, "%scdyn_sincos_n(angle, sin_angle, cos_angle, %d);\n", e->indent, n);
    }
    for (i = from; i < p->nnodes; i++)
        if (slot[i] >= 0) {
            if (n > TRIG_TEMPORARIES_MAX) {
                e->tmp[i] = slot[i];
                e->batched[i] = 1;
            } else {
                e->tmp[i] = e->ntmp++;
                ebuf_printf(e->out, "%sconst cdyn_real t%d = %s_angle[%d];\n", e->indent,
                            e->tmp[i], p->nodes[i].op == OP_SIN ? "sin" : "cos", slot[i]);
            }
            count_node(&p->nodes[i], c);
            emit_stores_of(e, i);
            e->emitted[i] = 1;
        }
    free(slot);
}

/* Stores grouped by node so emission is linear: first[node] chains store indices. */
int expr_emit(expr_prog *p, ebuf *out, const char *indent, expr_counts *counts)
{
    char *live, *inl = NULL;
    int *tmp, *first, *nextst, *base, i;
    char *loaded, *base_flushed, *emitted, *batched;
    expr_counts c;
    emitter e;
    memset(&c, 0, sizeof c);
    if (p->failed)
        return -1;
    live = mark_live(p);
    tmp = malloc(((size_t)p->nnodes + 1) * sizeof *tmp);
    first = malloc(((size_t)p->nnodes + 1) * sizeof *first);
    nextst = malloc(((size_t)p->nstores + 1) * sizeof *nextst);
    base = malloc(((size_t)p->nnodes + (size_t)p->nstores + 1) * sizeof *base);
    loaded = calloc((size_t)p->nnodes + 1, 1);
    base_flushed = calloc((size_t)p->nnodes + (size_t)p->nstores + 1, 1);
    emitted = calloc((size_t)p->nnodes + 1, 1);
    batched = calloc((size_t)p->nnodes + 1, 1);
    if (live)
        inl = find_inlined(p, live);
    e.p = p;
    e.out = out;
    e.indent = indent;
    e.live = live;
    e.pr.p = p;
    e.pr.tmp = tmp;
    e.pr.inl = inl;
    e.tmp = tmp;
    e.first = first;
    e.nextst = nextst;
    e.base = base;
    e.loaded = loaded;
    e.base_flushed = base_flushed;
    e.emitted = emitted;
    e.batched = batched;
    e.pr.batched = batched;
    e.ntmp = 0;
    e.ci = 0;
    if (!live || !tmp || !first || !nextst || !inl || !base || !loaded || !base_flushed ||
        !emitted || !batched || base_ids(&e) != 0) {
        free(live); free(tmp); free(first); free(nextst); free(inl); free(base); free(loaded);
        free(base_flushed); free(emitted); free(batched);
        p->failed = 1;
        return -1;
    }
    for (i = 0; i < p->nnodes; i++)
        first[i] = -1;
    for (i = p->nstores - 1; i >= 0; i--) {
        int nd = p->stores[i].value.node;
        if (nd >= 0) {
            nextst[i] = first[nd];
            first[nd] = i;
        }
    }
    for (i = 0; i < p->nnodes; i++) {
        const expr_node *n = &p->nodes[i];
        if (!live[i] || emitted[i])
            continue;
        if (n->op == OP_INPUT) {
            if (first[i] >= 0)          /* a stored input goes out where it was made */
                load_input(&e, i);
        } else if (inl[i]) {
            count_node(n, &c);          /* printed inside the sum that uses it */
        } else if (is_trig_of_input(p, i)) {
            emit_trig_batch(&e, i, &c);
        } else {
            emit_node(&e, i, &c, 1);
        }
    }
    flush_comments(p, out, indent, &e.ci, p->nnodes);
    for (i = 0; i < p->nstores; i++)
        if (p->stores[i].value.node < 0)
            emit_store(&e, i);
    free(live); free(tmp); free(first); free(nextst); free(inl); free(base); free(loaded);
    free(base_flushed); free(emitted); free(batched);
    if (counts)
        *counts = c;
    return out->oom ? -1 : 0;
}
