/* expr_print.c — the live part of an expr program printed as straight-line C: input loads
 * where first used, temporaries, stores after their values, comments between them, and
 * sin/cos of inputs batched by the rules the caller hands in (expr_print.h). */
#include "symbolic/expr_internal.h"
#include "util/number.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    case OP_ADD:
    case OP_SUB: c->add++; break;
    case OP_MUL: c->mul++; break;
    case OP_DIV: c->div++; break;
    case OP_SQRT: c->sqrt++; break;
    case OP_SIN:
    case OP_COS: c->sincos++; break;
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
    number_shortest(num, sizeof num, c); /* the same double, so CDYN_R's cast rounds alike */
    if (!strpbrk(num, ".eEn"))           /* keep it a floating literal: "2" -> "2.0" */
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
    const char *batched; /* sin/cos nodes read in place from sin_angle[]/cos_angle[] */
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
    if (pr->batched[a.node]) /* tmp holds the slot */
        ebuf_printf(b, "%s%s_angle[%d]", a.neg ? "-" : "",
                    pr->p->nodes[a.node].op == OP_SIN ? "sin" : "cos", pr->tmp[a.node]);
    else if (pr->p->nodes[a.node].ident)
        ebuf_printf(b, "%s%s", a.neg ? "-" : "", pr->p->nodes[a.node].ident);
    else
        ebuf_printf(b, "%st%d", a.neg ? "-" : "", pr->tmp[a.node]);
}

static void print_node(ebuf *b, const expr_node *n, const printer *pr)
{
    static const char *const fn[] = { "", "", "", "", "", "CDYN_SQRT", "CDYN_SIN", "CDYN_COS" };
    static const char *const sym[] = { "", " + ", " - ", " * ", " / " };
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
            uses[p->stores[i].value.node] += 2; /* stored values keep their temporary */
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

/* Everything expr_emit needs while it prints. */
typedef struct {
    const expr_prog *p;
    ebuf *out;
    const char *indent;
    const char *live;
    printer pr;
    int *tmp;   /* temporary number of each printed node */
    int *first; /* first store of each node, chained through nextst */
    int *nextst;
    int *base;          /* inputs and stores: index of the array they name (see base_ids) */
    char *loaded;       /* inputs: 0 unread, 1 read, 2 read and stored */
    char *base_flushed; /* per array: written to, so all its inputs are read */
    char *emitted;      /* operation nodes already printed */
    char *batched;      /* sin/cos nodes read where used from sin_angle[]/cos_angle[] */
    int ntmp;
    int ci; /* next comment to print */
    /* Parts (expr_emit_parts): out is parts[nparts - 1]; a part is cut after max_ops
     * operations (0: never); last_use[i] is the last node (or placed store's mark) that
     * reads node i's printed value. */
    ebuf *parts;
    int nparts, max_ops, ncarry;
    long part_start;
    int *last_use;
    int *slot;    /* each value's place in carry[], or -1 */
    char *reload; /* values of earlier parts this part has not read back yet */
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

static void reload(emitter *e, int j);

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
    if (e->reload && e->reload[a.node]) {
        reload(e, a.node);
    } else if (n->op == OP_INPUT) {
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
    if (!e->base_flushed[b]) { /* the first store to this array: read all of it */
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

/* Of the comments made at or before node `upto` and not printed yet: the last section,
 * then the last block comment made after it (a block with nothing emitted gets no heading);
 * code records and placed stores (expr_store_here) all, in order, each after what was
 * pending before it. */
static void flush_comments(emitter *e, int upto)
{
    const expr_prog *p = e->p;
    int section = -1, block = -1, barrier = 0;
    for (; e->ci < p->ncomments && p->comments[e->ci].mark <= upto; e->ci++) {
        const expr_comment_rec *r = &p->comments[e->ci];
        if (r->kind == COMMENT_CODE || r->kind == COMMENT_STORE)
            print_pending(p, e->out, e->indent, &section, &block, &barrier);
        if (r->kind == COMMENT_CODE) {
            print_code(e->out, e->indent, r->text);
        } else if (r->kind == COMMENT_STORE) {
            load_operands(e, p->stores[r->store].value); /* an input stored as it is */
            emit_store(e, r->store);
        } else if (r->kind == COMMENT_BARRIER) {
            barrier = 1;
        } else if (r->kind == COMMENT_SECTION) {
            section = e->ci;
            block = -1;
        } else {
            block = e->ci;
        }
    }
    print_pending(p, e->out, e->indent, &section, &block, &barrier);
}

/* sin/cos of inputs (a robot's joint angles): with a batch function in the rules, a
 * program's all at once, where the first is needed (cdyn_sincos_n, runtime/cdyn_trig.h: one
 * loop a compiler vectorises instead of a libm call per joint, each spilling every vector
 * register. Before, batches of 8 libm calls: RNEA 0.17 -> 0.13 us on arm7 against one call
 * at a time.) */
static int is_trig_of_input(const expr_prog *p, int i)
{
    const expr_node *n = &p->nodes[i];
    return (n->op == OP_SIN || n->op == OP_COS) && n->a.node >= 0 &&
           p->nodes[n->a.node].op == OP_INPUT;
}

/* Prints operation node i as a temporary after the pending comments and the reads of its
 * operands (a block's banner, then its loads), then its stores. */
static void emit_node(emitter *e, int i, expr_counts *c)
{
    const expr_node *n = &e->p->nodes[i];
    flush_comments(e, i);
    load_operands(e, n->a);
    if (n->op < OP_SQRT)
        load_operands(e, n->b);
    e->tmp[i] = e->ntmp++;
    count_node(n, c);
    ebuf_printf(e->out, "%sconst cdyn_real t%d = ", e->indent, e->tmp[i]);
    print_node(e->out, n, &e->pr);
    ebuf_puts(e->out, ";\n");
    emit_stores_of(e, i);
    e->emitted[i] = 1;
}

/* The index N of an angle read as the plain input ARRAY[N] of the rules' angle array, or -1. */
static int array_index(const expr_prog *p, ex a)
{
    const char *name = p->nodes[a.node].name, *array = p->rules.angle_array;
    size_t n = array ? strlen(array) : 0;
    int index, len = 0;
    if (a.neg || !name || !array || strncmp(name, array, n) != 0 ||
        sscanf(name + n, "[%d]%n", &index, &len) != 1 || name[n + (size_t)len] != '\0')
        return -1;
    return index;
}

/* If every angle of the slotted nodes is a plain entry ARRAY[N] of the angle array (q[N]):
 * renumbers the slots in increasing N and returns 1, so that each stretch of consecutive N is
 * one stretch of slots; else 0. */
static int in_place_slots(const expr_prog *p, int *slot, int from, int n)
{
    int i, k, *idx = malloc((size_t)(n > 0 ? n : 1) * sizeof *idx);
    if (!idx)
        return 0;
    for (i = from; i < p->nnodes; i++)
        if (slot[i] >= 0 && (idx[slot[i]] = array_index(p, p->nodes[i].a)) < 0) {
            free(idx);
            return 0;
        }
    for (i = from; i < p->nnodes; i++) /* idx[] is by old slot: each node reads its own */
        if (slot[i] >= 0) {
            int rank = 0, me = idx[slot[i]];
            for (k = 0; k < n; k++)
                rank += idx[k] < me;
            slot[i] = rank;
        }
    free(idx);
    return 1;
}

/* One batch call per stretch of consecutive indices into the angle array (q), the slots
 * renumbered by in_place_slots. */
static void emit_in_place_sincos(emitter *e, const int *slot, int from, int n)
{
    const expr_prog *p = e->p;
    int *idx = malloc((size_t)(n > 0 ? n : 1) * sizeof *idx), i, k, start;
    if (!idx) {
        e->out->oom = 1;
        return;
    }
    for (i = from; i < p->nnodes; i++)
        if (slot[i] >= 0)
            idx[slot[i]] = array_index(p, p->nodes[i].a);
    ebuf_printf(e->out, "%scdyn_real sin_angle[%d], cos_angle[%d];\n", e->indent, n, n);
    for (start = 0; start < n; start = k) {
        for (k = start + 1; k < n && idx[k] == idx[k - 1] + 1; k++)
            ;
        if (start == 0)
            ebuf_printf(e->out, "%s%s(%s + %d, sin_angle, cos_angle, %d);\n", e->indent,
                        p->rules.sincos_fn, p->rules.angle_array, idx[start], k - start);
        else
            ebuf_printf(e->out, "%s%s(%s + %d, sin_angle + %d, cos_angle + %d, %d);\n", e->indent,
                        p->rules.sincos_fn, p->rules.angle_array, idx[start], start, start,
                        k - start);
    }
    free(idx);
}

/* Up to this many angles, their sin/cos are temporaries; past it, read in place. */
#define TRIG_TEMPORARIES_MAX 16

/* Node `from` and every later live sin/cos of an input: the angles gathered once each into
 * angle[], the rules' batch function, and each node a temporary reading its result, or, past
 * TRIG_TEMPORARIES_MAX angles, read where it is used as sin_angle[k] / cos_angle[k]:
 * temporaries made at the top stay live across the whole function, and a big tree's (talos:
 * 44 pairs) spill (talos NLE, clang: 1.15 -> 1.08 us read in place, with the per-body
 * barriers), while a small tree's are cheaper in registers (solo12 NLE, clang: 0.19 -> 0.21
 * us read in place). When the angles are plain entries of the rules' angle array (q), the
 * batch reads it in place,
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
    flush_comments(e, from);
    for (i = from; i < p->nnodes; i++) { /* slot[i]: node i's angle, or -1 */
        slot[i] = -1;
        if (!e->live[i] || e->emitted[i] || !is_trig_of_input(p, i))
            continue;
        for (k = from; k < i && slot[i] < 0; k++)
            if (slot[k] >= 0 && p->nodes[k].a.node == p->nodes[i].a.node)
                slot[i] = slot[k];
        if (slot[i] < 0)
            slot[i] = n++;
    }
    if (in_place_slots(p, slot, from, n)) {
        emit_in_place_sincos(e, slot, from, n);
    } else {
        for (i = from, k = 0; i < p->nnodes; i++)
            if (slot[i] == k) {
                load_operands(e, p->nodes[i].a);
                k++;
            }
        ebuf_printf(e->out, "%scdyn_real angle[%d], sin_angle[%d], cos_angle[%d];\n", e->indent, n,
                    n, n);
        for (i = from, k = 0; i < p->nnodes; i++)
            if (slot[i] == k) {
                ebuf_printf(e->out, "%sangle[%d] = ", e->indent, k++);
                print_ref(e->out, p->nodes[i].a, &e->pr);
                ebuf_puts(e->out, ";\n");
            }
        ebuf_printf(e->out, "%s%s(angle, sin_angle, cos_angle, %d);\n", e->indent,
                    p->rules.sincos_fn, n);
    }
    for (i = from; i < p->nnodes; i++)
        if (slot[i] >= 0) {
            if (n > TRIG_TEMPORARIES_MAX) {
                e->tmp[i] = slot[i];
                e->batched[i] = 1;
            } else {
                e->tmp[i] = e->ntmp++;
                ebuf_printf(e->out, "%sconst cdyn_real t%d = %s_angle[%d];\n", e->indent, e->tmp[i],
                            p->nodes[i].op == OP_SIN ? "sin" : "cos", slot[i]);
            }
            count_node(&p->nodes[i], c);
            emit_stores_of(e, i);
            e->emitted[i] = 1;
        }
    free(slot);
}

void expr_set_print_rules(expr_prog *p, const expr_print_rules *rules)
{
    p->rules = *rules;
}

/* The emitter's work arrays (each may be NULL when its allocation failed). */
static void free_emitter(emitter *e)
{
    free((char *)e->live); /* const for the printing, owned here */
    free(e->tmp);
    free(e->first);
    free(e->nextst);
    free((char *)e->pr.inl);
    free(e->base);
    free(e->loaded);
    free(e->base_flushed);
    free(e->emitted);
    free(e->batched);
    free(e->last_use);
    free(e->slot);
    free(e->reload);
}

/* ---- parts: one program as several functions ---- */

static long ops_of(const expr_counts *c)
{
    return c->mul + c->add + c->div + c->sqrt + c->sincos;
}

/* last_use[j] = consumer for the printed value a reads (through an inlined product, its
 * operands). */
static void note_use(emitter *e, ex a, int consumer)
{
    const expr_node *n;
    if (a.node < 0)
        return;
    n = &e->p->nodes[a.node];
    if (e->pr.inl[a.node]) {
        note_use(e, n->a, consumer);
        note_use(e, n->b, consumer);
    } else if (e->last_use[a.node] < consumer) {
        e->last_use[a.node] = consumer;
    }
}

static int find_last_uses(emitter *e)
{
    const expr_prog *p = e->p;
    int i;
    e->last_use = malloc(((size_t)p->nnodes + 1) * sizeof *e->last_use);
    e->slot = malloc(((size_t)p->nnodes + 1) * sizeof *e->slot);
    e->reload = calloc((size_t)p->nnodes + 1, 1);
    if (!e->last_use || !e->slot || !e->reload)
        return -1;
    for (i = 0; i < p->nnodes; i++)
        e->last_use[i] = e->slot[i] = -1;
    for (i = 0; i < p->nnodes; i++)
        if (e->live[i] && !e->pr.inl[i] && p->nodes[i].op != OP_INPUT) {
            note_use(e, p->nodes[i].a, i);
            if (p->nodes[i].op < OP_SQRT)
                note_use(e, p->nodes[i].b, i);
        }
    for (i = 0; i < p->ncomments; i++)
        if (p->comments[i].kind == COMMENT_STORE)
            note_use(e, p->stores[p->comments[i].store].value, p->comments[i].mark);
    return 0;
}

/* Node j has a printed value (a temporary, a read input or a sin/cos slot) that node `at`
 * or a later one reads. */
static int carried(const emitter *e, int j, int at)
{
    const expr_node *n = &e->p->nodes[j];
    if (e->last_use[j] < at || e->pr.inl[j])
        return 0;
    return n->op == OP_INPUT ? e->loaded[j] != 0 : e->emitted[j];
}

/* Ends the current part before node `at` and starts the next. Each value a later part reads
 * goes into carry[] once, when its part ends (a slot whose value has no reader left is
 * reused), and a part reads it back where it first uses it (load_operands), as spilled
 * values would be. */
static void cut_part(emitter *e, int at, const expr_counts *c)
{
    const int n = e->p->nnodes;
    char *taken = calloc((size_t)n + 1, 1); /* the slots whose values have readers left */
    ebuf *next;
    int j, k = 0;
    if (!taken) {
        e->out->oom = 1;
        return;
    }
    for (j = 0; j < n; j++)
        if (e->slot[j] >= 0 && e->last_use[j] >= at)
            taken[e->slot[j]] = 1;
    for (j = 0; j < n; j++) /* past `at` too: sin/cos batches, early reads */
        if (carried(e, j, at) && e->slot[j] < 0) {
            ex a;
            a.node = j;
            a.neg = 0;
            a.c = 0;
            while (taken[k])
                k++;
            taken[k] = 1;
            e->slot[j] = k;
            if (e->ncarry <= e->slot[j])
                e->ncarry = e->slot[j] + 1;
            ebuf_printf(e->out, "%scarry[%d] = ", e->indent, e->slot[j]);
            print_ref(e->out, a, &e->pr);
            ebuf_puts(e->out, ";\n");
        }
    free(taken);
    for (j = 0; j < n; j++)
        e->reload[j] = (char)(carried(e, j, at) && e->slot[j] >= 0);
    next = realloc(e->parts, ((size_t)e->nparts + 1) * sizeof *e->parts);
    if (!next) {
        e->out->oom = 1;
        return;
    }
    e->parts = next;
    e->out = &e->parts[e->nparts++];
    memset(e->out, 0, sizeof *e->out);
    ebuf_puts(e->out, "");
    e->part_start = ops_of(c);
}

/* Node j read back from carry[] in this part, as a temporary (a sin/cos slot becomes one),
 * or under its own name. */
static void reload(emitter *e, int j)
{
    const expr_node *n = &e->p->nodes[j];
    e->reload[j] = 0;
    e->batched[j] = 0;
    if (n->ident) {
        ebuf_printf(e->out, "%sconst cdyn_real %s = carry[%d];\n", e->indent, n->ident, e->slot[j]);
        return;
    }
    e->tmp[j] = e->ntmp++;
    ebuf_printf(e->out, "%sconst cdyn_real t%d = carry[%d];\n", e->indent, e->tmp[j], e->slot[j]);
}

/* Whether to end the part before node i: past max_ops, at the next comment (a body's or a
 * pass's start) or, failing one, past twice that. */
static int cut_here(const emitter *e, int i, const expr_counts *c)
{
    const long done = ops_of(c) - e->part_start;
    const int comment = e->ci < e->p->ncomments && e->p->comments[e->ci].mark <= i;
    return e->max_ops > 0 && ((done >= e->max_ops && comment) || done >= 2L * e->max_ops);
}

/* Stores grouped by node so emission is linear: first[node] chains store indices. With
 * max_ops > 0, e's parts (the first is out) are cut as it goes. */
static int emit_program(expr_prog *p, emitter *eo, ebuf *out, const char *indent, int max_ops,
                        expr_counts *counts)
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
    e.parts = eo->parts;
    e.nparts = eo->nparts;
    e.max_ops = max_ops;
    e.ncarry = 0;
    e.part_start = 0;
    e.last_use = NULL;
    e.slot = NULL;
    e.reload = NULL;
    if (!live || !tmp || !first || !nextst || !inl || !base || !loaded || !base_flushed ||
        !emitted || !batched || base_ids(&e) != 0 || (max_ops > 0 && find_last_uses(&e) != 0)) {
        eo->parts = e.parts;
        free_emitter(&e);
        p->failed = 1;
        return -1;
    }
    for (i = 0; i < p->nnodes; i++)
        first[i] = -1;
    for (i = p->nstores - 1; i >= 0; i--) { /* placed stores: in the comment records */
        int nd = p->stores[i].value.node;
        if (nd >= 0 && !p->stores[i].placed) {
            nextst[i] = first[nd];
            first[nd] = i;
        }
    }
    for (i = 0; i < p->nnodes; i++) {
        const expr_node *n = &p->nodes[i];
        if (!live[i] || emitted[i])
            continue;
        if (n->op == OP_INPUT) {
            if (first[i] >= 0) { /* a stored input goes out where it was made */
                flush_comments(&e, i);
                load_input(&e, i);
            }
            continue;
        }
        if (inl[i]) {
            count_node(n, &c); /* printed inside the sum that uses it */
            continue;
        }
        if (cut_here(&e, i, &c))
            cut_part(&e, i, &c);
        if (p->rules.sincos_fn && is_trig_of_input(p, i))
            emit_trig_batch(&e, i, &c);
        else
            emit_node(&e, i, &c);
    }
    flush_comments(&e, p->nnodes);
    for (i = 0; i < p->nstores; i++)
        if (p->stores[i].value.node < 0)
            emit_store(&e, i);
    eo->parts = e.parts;
    eo->nparts = e.nparts;
    eo->ncarry = e.ncarry;
    free_emitter(&e);
    if (counts)
        *counts = c;
    return e.out->oom ? -1 : 0;
}

int expr_emit(expr_prog *p, ebuf *out, const char *indent, expr_counts *counts)
{
    emitter e;
    e.parts = NULL;
    e.nparts = 0;
    return emit_program(p, &e, out, indent, 0, counts);
}

int expr_emit_parts(expr_prog *p, int max_ops, const char *indent, char ***bodies, int *nparts,
                    int *ncarry, expr_counts *counts)
{
    emitter e;
    int k, rc = -1;
    *bodies = NULL;
    *nparts = *ncarry = 0;
    e.parts = calloc(1, sizeof *e.parts);
    e.nparts = 1;
    if (e.parts) {
        ebuf_puts(&e.parts[0], "");
        rc = emit_program(p, &e, &e.parts[0], indent, max_ops, counts);
    }
    for (k = 0; rc == 0 && k < e.nparts; k++)
        rc = e.parts[k].oom ? -1 : 0;
    if (rc == 0 && (*bodies = calloc((size_t)e.nparts, sizeof **bodies)) != NULL) {
        for (k = 0; k < e.nparts; k++)
            (*bodies)[k] = ebuf_take(&e.parts[k]);
        *nparts = e.nparts;
        *ncarry = e.ncarry;
    } else {
        rc = -1;
    }
    for (k = 0; e.parts && k < e.nparts; k++)
        ebuf_free(&e.parts[k]);
    free(e.parts);
    return rc;
}
