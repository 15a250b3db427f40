/* expr.c — the scalar-expression DAG: folding, sign tracking and hash-consing as nodes
 * are built, and the stores and comments recorded between them. Printing the live part as C
 * is expr_print.c. */
#include "symbolic/expr_internal.h"
#include "util/text.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    r.c = c == 0.0 ? 0.0 : c; /* -0 becomes 0: exact zeros fold the same way */
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
        return; /* not read by this program */
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
    if (a.node < 0) { /* constant * node */
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
    return make2(p, OP_DIV, positive(a), positive(b), (a.node < 0 ? a.c < 0 : a.neg) ^ b.neg);
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
    return make2(p, OP_SIN, positive(a), ex_const(0.0), a.neg); /* sin(-x) = -sin x */
}

ex ex_cos(expr_prog *p, ex a)
{
    if (a.node < 0)
        return ex_const(cos(a.c));
    return make2(p, OP_COS, positive(a), ex_const(0.0), 0); /* cos(-x) = cos x */
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
    p->stores[p->nstores].placed = 0;
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
    ebuf b = { 0, 0, 0, 0 };
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

static int add_comment(expr_prog *p, const char *text, comment_kind kind)
{
    char *t;
    if (p->failed)
        return -1;
    t = kind == COMMENT_CODE ? text_dup(text) : expr_comment_text(text ? text : "");
    if (!t ||
        grow((void **)&p->comments, &p->capcomments, p->ncomments, sizeof *p->comments) != 0) {
        free(t);
        p->failed = 1;
        return -1;
    }
    p->comments[p->ncomments].text = t;
    p->comments[p->ncomments].mark = p->nnodes;
    p->comments[p->ncomments].kind = kind;
    p->comments[p->ncomments].store = -1;
    return p->ncomments++;
}

void expr_store_here(expr_prog *p, const char *target, ex value)
{
    int r;
    expr_store(p, target, value);
    if (value.node < 0 || p->failed)
        return; /* a constant store is printed last, like any other */
    r = add_comment(p, NULL, COMMENT_STORE);
    if (r < 0)
        return;
    p->stores[p->nstores - 1].placed = 1;
    p->comments[r].store = p->nstores - 1;
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
        p->failed = 1; /* the caller ran out of memory making them */
    else
        add_comment(p, lines, COMMENT_CODE);
}
