/* template.c — the Jinja subset described in template.h.
 *
 * Three passes per template: the lexer cuts the text into text slices and tags and applies
 * every whitespace rule there (all of them depend only on neighbouring source text); the
 * parser turns tags into a node tree, so syntax errors surface even in branches that never
 * run; the renderer walks the tree against the context and a chain of variable frames. */
#include "render/template.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define TPL__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TPL__PRINTF(f, a)
#endif

#define TPL__MAX_INDENT 1024

/* ------------------------------------------------------------------ values */

typedef enum { TPL__STR, TPL__INT, TPL__BOOL, TPL__LIST, TPL__DICT } tpl__kind;

typedef struct {
    char *key;
    tpl_value *val;
} tpl__entry;

struct tpl_value {
    tpl__kind kind;
    int broken; /* an item or entry was lost to a failed allocation */
    union {
        char *s;
        long i; /* integers, and booleans as 0/1 */
        struct {
            tpl_value **items;
            size_t n, cap;
        } list;
        struct {
            tpl__entry *e;
            size_t n, cap;
        } dict;
    } u;
};

static const tpl_value tpl__true = { TPL__BOOL, 0, { .i = 1 } };
static const tpl_value tpl__false = { TPL__BOOL, 0, { .i = 0 } };

static char *tpl__strndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* Makes room for `need` items of `size` bytes; returns the (maybe moved) array or NULL,
 * leaving the old array untouched on failure. */
static void *tpl__reserve(void *items, size_t *cap, size_t need, size_t size)
{
    size_t want = *cap ? *cap : 4;
    void *grown;
    if (need <= *cap)
        return items;
    while (want < need)
        want *= 2;
    if (want > SIZE_MAX / size)
        return NULL;
    grown = realloc(items, want * size);
    if (grown)
        *cap = want;
    return grown;
}

static tpl_value *tpl__new(tpl__kind kind)
{
    tpl_value *v = malloc(sizeof *v);
    if (!v)
        return NULL;
    memset(v, 0, sizeof *v);
    v->kind = kind;
    return v;
}

tpl_value *tpl_string(const char *s)
{
    char *copy = s ? tpl__strndup(s, strlen(s)) : tpl__strndup("", 0);
    return copy ? tpl_string_take(copy) : NULL;
}

tpl_value *tpl_string_take(char *s)
{
    tpl_value *v;
    if (!s)
        return NULL; /* the caller's own allocation failed */
    v = tpl__new(TPL__STR);
    if (!v) {
        free(s);
        return NULL;
    }
    v->u.s = s;
    return v;
}

tpl_value *tpl_int(long i)
{
    tpl_value *v = tpl__new(TPL__INT);
    if (v)
        v->u.i = i;
    return v;
}

tpl_value *tpl_bool(int b)
{
    tpl_value *v = tpl__new(TPL__BOOL);
    if (v)
        v->u.i = b != 0;
    return v;
}

tpl_value *tpl_list(void)
{
    return tpl__new(TPL__LIST);
}

tpl_value *tpl_dict(void)
{
    return tpl__new(TPL__DICT);
}

void tpl_list_push(tpl_value *list, tpl_value *item)
{
    tpl_value **items;
    if (!list || list->kind != TPL__LIST) {
        tpl_free(item);
        return;
    }
    items = tpl__reserve(list->u.list.items, &list->u.list.cap, list->u.list.n + 1, sizeof *items);
    if (items)
        list->u.list.items = items;
    if (!item || !items) {
        list->broken = 1;
        tpl_free(item);
        return;
    }
    items[list->u.list.n++] = item;
}

static tpl__entry *tpl__dict_find(const tpl_value *dict, const char *key)
{
    size_t i;
    for (i = 0; i < dict->u.dict.n; i++)
        if (strcmp(dict->u.dict.e[i].key, key) == 0)
            return &dict->u.dict.e[i];
    return NULL;
}

static int tpl__dict_add(tpl_value *dict, const char *key, tpl_value *v)
{
    tpl__entry *e = tpl__reserve(dict->u.dict.e, &dict->u.dict.cap, dict->u.dict.n + 1, sizeof *e);
    char *k;
    if (!e)
        return -1;
    dict->u.dict.e = e;
    k = tpl__strndup(key, strlen(key));
    if (!k)
        return -1;
    e[dict->u.dict.n].key = k;
    e[dict->u.dict.n].val = v;
    dict->u.dict.n++;
    return 0;
}

void tpl_dict_set(tpl_value *dict, const char *key, tpl_value *v)
{
    tpl__entry *old;
    if (!dict || dict->kind != TPL__DICT || !key) {
        tpl_free(v);
        return;
    }
    if (!v) {
        dict->broken = 1;
        return;
    }
    old = tpl__dict_find(dict, key);
    if (old) {
        tpl_free(old->val);
        old->val = v;
    } else if (tpl__dict_add(dict, key, v) != 0) {
        dict->broken = 1;
        tpl_free(v);
    }
}

const tpl_value *tpl_dict_get(const tpl_value *dict, const char *key)
{
    const tpl__entry *e;
    if (!dict || dict->kind != TPL__DICT || !key)
        return NULL;
    e = tpl__dict_find(dict, key);
    return e ? e->val : NULL;
}

void tpl_free(tpl_value *v)
{
    size_t i;
    if (!v)
        return;
    switch (v->kind) {
    case TPL__STR: free(v->u.s); break;
    case TPL__LIST:
        for (i = 0; i < v->u.list.n; i++)
            tpl_free(v->u.list.items[i]);
        free(v->u.list.items);
        break;
    case TPL__DICT:
        for (i = 0; i < v->u.dict.n; i++) {
            free(v->u.dict.e[i].key);
            tpl_free(v->u.dict.e[i].val);
        }
        free(v->u.dict.e);
        break;
    case TPL__INT:
    case TPL__BOOL: break;
    }
    free(v);
}

size_t tpl_text_bytes(const tpl_value *v)
{
    size_t i, n = 0;
    if (!v)
        return 0;
    switch (v->kind) {
    case TPL__STR: n = strlen(v->u.s); break;
    case TPL__LIST:
        for (i = 0; i < v->u.list.n; i++)
            n += tpl_text_bytes(v->u.list.items[i]);
        break;
    case TPL__DICT:
        for (i = 0; i < v->u.dict.n; i++)
            n += tpl_text_bytes(v->u.dict.e[i].val);
        break;
    case TPL__INT:
    case TPL__BOOL: break;
    }
    return n;
}

/* True when no allocation was lost anywhere while `v` was built. */
static int tpl__value_complete(const tpl_value *v)
{
    size_t i;
    if (v->broken)
        return 0;
    if (v->kind == TPL__LIST)
        for (i = 0; i < v->u.list.n; i++)
            if (!tpl__value_complete(v->u.list.items[i]))
                return 0;
    if (v->kind == TPL__DICT)
        for (i = 0; i < v->u.dict.n; i++)
            if (!tpl__value_complete(v->u.dict.e[i].val))
                return 0;
    return 1;
}

/* Deep copy; NULL when out of memory. */
static tpl_value *tpl__copy(const tpl_value *v)
{
    tpl_value *c = NULL;
    size_t i;
    switch (v->kind) {
    case TPL__STR: return tpl_string(v->u.s);
    case TPL__INT: return tpl_int(v->u.i);
    case TPL__BOOL: return tpl_bool((int)v->u.i);
    case TPL__LIST:
        c = tpl_list();
        for (i = 0; c && i < v->u.list.n; i++)
            tpl_list_push(c, tpl__copy(v->u.list.items[i]));
        break;
    case TPL__DICT:
        c = tpl_dict();
        for (i = 0; c && i < v->u.dict.n; i++)
            tpl_dict_set(c, v->u.dict.e[i].key, tpl__copy(v->u.dict.e[i].val));
        break;
    }
    if (c && c->broken) {
        tpl_free(c);
        return NULL;
    }
    return c;
}

/* "a string", "an integer", ... for messages. */
static const char *tpl__a_kind(const tpl_value *v)
{
    switch (v->kind) {
    case TPL__STR: return "a string";
    case TPL__INT: return "an integer";
    case TPL__BOOL: return "a boolean";
    case TPL__LIST: return "a list";
    case TPL__DICT: return "a dict";
    }
    return "a value";
}

static int tpl__truthy(const tpl_value *v)
{
    switch (v->kind) {
    case TPL__STR: return v->u.s[0] != '\0';
    case TPL__INT:
    case TPL__BOOL: return v->u.i != 0;
    case TPL__LIST: return v->u.list.n > 0;
    case TPL__DICT: return v->u.dict.n > 0;
    }
    return 0;
}

/* ------------------------------------------------------- buffers and errors */

typedef struct {
    char *s;
    size_t n, cap;
    int oom;
} tpl__buf;

static void tpl__buf_add(tpl__buf *b, const char *s, size_t n)
{
    char *grown;
    if (b->oom)
        return;
    grown = tpl__reserve(b->s, &b->cap, b->n + n + 1, 1);
    if (!grown) {
        b->oom = 1;
        return;
    }
    b->s = grown;
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void tpl__buf_adds(tpl__buf *b, const char *s)
{
    tpl__buf_add(b, s, strlen(s));
}

static void tpl__buf_addl(tpl__buf *b, long i)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%ld", i);
    tpl__buf_add(b, digits, (size_t)n);
}

typedef struct {
    const char *name; /* template */
    int line, col;    /* of the tag, 1-based */
} tpl__pos;

typedef struct {
    char *buf;
    size_t len;
    int failed; /* only the first, innermost error is kept */
} tpl__errs;

static int tpl__fail(tpl__errs *e, tpl__pos pos, const char *fmt, ...) TPL__PRINTF(3, 4);

static int tpl__fail(tpl__errs *e, tpl__pos pos, const char *fmt, ...)
{
    char msg[320];
    va_list ap;
    if (e->failed)
        return -1;
    e->failed = 1;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (e->buf && e->len)
        snprintf(e->buf, e->len, "%s:%d:%d: %s", pos.name, pos.line, pos.col, msg);
    return -1;
}

static int tpl__oom(tpl__errs *e, tpl__pos pos)
{
    return tpl__fail(e, pos, "out of memory");
}

/* ------------------------------------------------------------------- lexer */

typedef enum { TPL__TK_TEXT, TPL__TK_OUTPUT, TPL__TK_BLOCK } tpl__tok_kind;

typedef struct {
    tpl__tok_kind kind;
    const char *s; /* text, or the inside of the tag without delimiters and dashes */
    size_t n;
    tpl__pos pos;
} tpl__tok;

/* What the previous tag does to the text after it. */
typedef enum {
    TPL__AFTER_START, /* nothing before: the text starts a line */
    TPL__AFTER_KEEP,  /* `}}` `+%}` `+#}`: keep everything */
    TPL__AFTER_TRIM,  /* `%}` `#}`: drop one newline (trim_blocks) */
    TPL__AFTER_STRIP  /* `-}}` `-%}` `-#}`: drop all whitespace */
} tpl__after;

typedef struct {
    const char *p; /* cursor into the template */
    tpl__pos pos;  /* of the cursor */
    tpl__errs *e;
    tpl__tok *tok;
    size_t n, cap;
} tpl__lexer;

static int tpl__is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static void tpl__advance(tpl__lexer *lx, const char *to)
{
    for (; lx->p < to; lx->p++) {
        if (*lx->p == '\n') {
            lx->pos.line++;
            lx->pos.col = 1;
        } else {
            lx->pos.col++;
        }
    }
}

static const char *tpl__find_open(const char *s)
{
    for (s = strchr(s, '{'); s; s = strchr(s + 1, '{'))
        if (s[1] == '{' || s[1] == '%' || s[1] == '#')
            return s;
    return NULL;
}

/* Applies the previous tag's rule to the start of text [s, end); reports in *line_start
 * whether what is left begins a line (the condition for lstrip_blocks, as in Jinja). */
static const char *tpl__skip_after(const char *s, const char *end, tpl__after after,
                                   int *line_start)
{
    const char *t = s;
    switch (after) {
    case TPL__AFTER_START: *line_start = 1; return s;
    case TPL__AFTER_KEEP: *line_start = 0; return s;
    case TPL__AFTER_TRIM:
        if (t < end && *t == '\n')
            t++;
        else if (end - t >= 2 && t[0] == '\r' && t[1] == '\n')
            t += 2;
        *line_start = t > s;
        return t;
    case TPL__AFTER_STRIP:
        while (t < end && tpl__is_space(*t))
            t++;
        *line_start = t > s && t[-1] == '\n';
        return t;
    }
    return s;
}

/* lstrip_blocks: the end of [s, end) without the blanks that open the tag's line. */
static const char *tpl__lstrip_line(const char *s, const char *end, int line_start)
{
    const char *l = end, *t;
    while (l > s && l[-1] != '\n')
        l--;
    if (l == s && !line_start)
        return end;
    for (t = l; t < end; t++)
        if (!tpl__is_space(*t))
            return end;
    return l;
}

static int tpl__lex_push(tpl__lexer *lx, tpl__tok_kind kind, const char *s, size_t n, tpl__pos pos)
{
    tpl__tok *tok = tpl__reserve(lx->tok, &lx->cap, lx->n + 1, sizeof *tok);
    if (!tok)
        return tpl__oom(lx->e, pos);
    lx->tok = tok;
    tok[lx->n].kind = kind;
    tok[lx->n].s = s;
    tok[lx->n].n = n;
    tok[lx->n].pos = pos;
    lx->n++;
    return 0;
}

/* The closing quote of the string literal opening at q, or NULL when the line ends first. */
static const char *tpl__skip_string(const char *q)
{
    const char *p = q + 1;
    while (*p && *p != '\n') {
        if (*p == '\\' && p[1] && p[1] != '\n')
            p += 2;
        else if (*p == *q)
            return p;
        else
            p++;
    }
    return NULL;
}

/* Finds the closing "}}", "%}" or "#}" of a tag whose inside starts at s; quoted strings
 * in output and block tags may contain the closer. */
static int tpl__find_close(tpl__lexer *lx, char kind, const char *s, tpl__pos pos,
                           const char **close)
{
    char want = kind == '{' ? '}' : kind;
    const char *p;
    for (p = s; *p; p++) {
        if (kind != '#' && (*p == '"' || *p == '\'')) {
            p = tpl__skip_string(p);
            if (!p)
                return tpl__fail(lx->e, pos, "unterminated string");
        } else if (*p == want && p[1] == '}') {
            *close = p;
            return 0;
        }
    }
    return tpl__fail(lx->e, pos, "unterminated \"{%c\"", kind);
}

/* The whitespace mark right after an opener or before a closer: '-', '+' (block and
 * comment tags only, as in Jinja) or 0. */
static char tpl__mark(char kind, char c)
{
    return c == '-' || (c == '+' && kind != '{') ? c : 0;
}

/* Lexes the tag at `open` (the cursor); returns what it does to the following text. */
static int tpl__lex_tag(tpl__lexer *lx, const char *open, tpl__after *after)
{
    char kind = open[1], mark = 0;
    const char *inside = open + 2 + (tpl__mark(kind, open[2]) != 0), *close = NULL;
    tpl__pos pos = lx->pos;
    if (tpl__find_close(lx, kind, inside, pos, &close))
        return -1;
    if (close > inside)
        mark = tpl__mark(kind, close[-1]);
    if (kind != '#' && tpl__lex_push(lx, kind == '{' ? TPL__TK_OUTPUT : TPL__TK_BLOCK, inside,
                                     (size_t)(close - (mark != 0) - inside), pos))
        return -1;
    if (mark == '-')
        *after = TPL__AFTER_STRIP;
    else
        *after = mark == '+' || kind == '{' ? TPL__AFTER_KEEP : TPL__AFTER_TRIM;
    tpl__advance(lx, close + 2);
    return 0;
}

/* Cuts `text` into text slices and tags, applying every whitespace rule. */
static int tpl__lex(tpl__lexer *lx)
{
    tpl__after after = TPL__AFTER_START;
    int line_start = 1;
    for (;;) {
        const char *open = tpl__find_open(lx->p);
        const char *end = open ? open : lx->p + strlen(lx->p);
        const char *s = tpl__skip_after(lx->p, end, after, &line_start), *e = end;
        char mark = open ? tpl__mark(open[1], open[2]) : 0;
        if (mark == '-')
            while (e > s && tpl__is_space(e[-1]))
                e--;
        else if (open && open[1] != '{' && mark != '+')
            e = tpl__lstrip_line(s, end, line_start);
        if (e > s && tpl__lex_push(lx, TPL__TK_TEXT, s, (size_t)(e - s), lx->pos))
            return -1;
        tpl__advance(lx, end);
        if (!open)
            return 0;
        if (tpl__lex_tag(lx, open, &after))
            return -1;
    }
}

/* ----------------------------------------------------------- tag contents */

typedef enum {
    TPL__T_END,
    TPL__T_IDENT,
    TPL__T_INT,
    TPL__T_STR,
    TPL__T_DOT,
    TPL__T_PIPE,
    TPL__T_LPAREN,
    TPL__T_RPAREN,
    TPL__T_EQ,
    TPL__T_NE,
    TPL__T_ASSIGN
} tpl__tt;

typedef struct {
    const char *p, *end; /* unread part of the tag */
    tpl__tt t;           /* current lexeme */
    const char *s;
    size_t n;
    tpl__pos pos; /* of the tag */
    tpl__errs *e;
} tpl__tag;

static int tpl__is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int tpl__is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int tpl__is_ident_char(char c)
{
    return tpl__is_alpha(c) || tpl__is_digit(c);
}

static tpl__tt tpl__punct(const char *p, size_t *n)
{
    *n = 1;
    switch (*p) {
    case '.': return TPL__T_DOT;
    case '|': return TPL__T_PIPE;
    case '(': return TPL__T_LPAREN;
    case ')': return TPL__T_RPAREN;
    case '=':
        if (p[1] == '=') {
            *n = 2;
            return TPL__T_EQ;
        }
        return TPL__T_ASSIGN;
    case '!':
        if (p[1] == '=') {
            *n = 2;
            return TPL__T_NE;
        }
        break;
    }
    *n = 0;
    return TPL__T_END;
}

/* Length of the lexeme at p of type *t, or 0 when p starts nothing valid. */
static size_t tpl__scan(const char *p, const char *end, tpl__tt *t)
{
    const char *q = p;
    size_t n;
    if (tpl__is_alpha(*p)) {
        while (q < end && tpl__is_ident_char(*q))
            q++;
        *t = TPL__T_IDENT;
        return (size_t)(q - p);
    }
    if (tpl__is_digit(*p) || (*p == '-' && end - p > 1 && tpl__is_digit(p[1]))) {
        for (q = p + 1; q < end && tpl__is_digit(*q); q++) {
        }
        *t = TPL__T_INT;
        return (size_t)(q - p);
    }
    if (*p == '"' || *p == '\'') {
        q = tpl__skip_string(p); /* the lexer already saw it close inside the tag */
        *t = TPL__T_STR;
        return q ? (size_t)(q + 1 - p) : 0;
    }
    *t = tpl__punct(p, &n);
    return n;
}

static int tpl__next(tpl__tag *t)
{
    while (t->p < t->end && tpl__is_space(*t->p))
        t->p++;
    t->s = t->p;
    t->n = 0;
    if (t->p == t->end) {
        t->t = TPL__T_END;
        return 0;
    }
    t->n = tpl__scan(t->p, t->end, &t->t);
    if (t->n == 0)
        return tpl__fail(t->e, t->pos, "syntax error: unexpected \"%c\"", *t->p);
    t->p += t->n;
    return 0;
}

static int tpl__tag_open(tpl__tag *t, const tpl__tok *tok, tpl__errs *e)
{
    t->p = tok->s;
    t->end = tok->s + tok->n;
    t->pos = tok->pos;
    t->e = e;
    return tpl__next(t);
}

static int tpl__is_word(const tpl__tag *t, const char *word)
{
    return t->t == TPL__T_IDENT && t->n == strlen(word) && memcmp(t->s, word, t->n) == 0;
}

static int tpl__is_keyword(const tpl__tag *t)
{
    return tpl__is_word(t, "not") || tpl__is_word(t, "and") || tpl__is_word(t, "or") ||
           tpl__is_word(t, "in");
}

static int tpl__expected(tpl__tag *t, const char *what)
{
    if (t->t == TPL__T_END)
        return tpl__fail(t->e, t->pos, "syntax error: expected %s, found end of tag", what);
    return tpl__fail(t->e, t->pos, "syntax error: expected %s, found \"%.*s\"", what, (int)t->n,
                     t->s);
}

static int tpl__expect_end(tpl__tag *t)
{
    return t->t == TPL__T_END ? 0 : tpl__expected(t, "end of tag");
}

/* ------------------------------------------------------------- expressions */

typedef enum {
    TPL__F_UPPER,
    TPL__F_LOWER,
    TPL__F_LENGTH,
    TPL__F_JOIN,
    TPL__F_DEFAULT,
    TPL__F_INDENT,
    TPL__F_C_IDENT,
    TPL__F_INT,
    TPL__F_COUNT
} tpl__filter;

static const struct {
    const char *name;
    int takes_arg;
} tpl__filters[TPL__F_COUNT] = {
    { "upper", 0 },   { "lower", 0 },  { "length", 0 },  { "join", 1 },
    { "default", 1 }, { "indent", 1 }, { "c_ident", 0 }, { "int", 0 },
};

typedef enum {
    TPL__X_LOOKUP,
    TPL__X_LITERAL,
    TPL__X_FILTER,
    TPL__X_NOT,
    TPL__X_AND,
    TPL__X_OR,
    TPL__X_EQ,
    TPL__X_NE
} tpl__xkind;

typedef struct tpl__expr tpl__expr;
struct tpl__expr {
    tpl__xkind kind;
    tpl__expr *a, *b; /* operands; a filter's input and argument (b may be NULL) */
    char **names;     /* look-up: a.b.c */
    size_t nnames;
    tpl_value *literal;
    tpl__filter filter;
};

static void tpl__expr_free(tpl__expr *x)
{
    size_t i;
    if (!x)
        return;
    tpl__expr_free(x->a);
    tpl__expr_free(x->b);
    for (i = 0; i < x->nnames; i++)
        free(x->names[i]);
    free(x->names);
    tpl_free(x->literal);
    free(x);
}

static tpl__expr *tpl__expr_new(tpl__tag *t, tpl__xkind kind, tpl__expr *a, tpl__expr *b)
{
    tpl__expr *x = malloc(sizeof *x);
    if (!x) {
        tpl__expr_free(a);
        tpl__expr_free(b);
        tpl__oom(t->e, t->pos);
        return NULL;
    }
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->a = a;
    x->b = b;
    return x;
}

static tpl__expr *tpl__parse_or(tpl__tag *t);
static tpl__expr *tpl__parse_filtered(tpl__tag *t);

static int tpl__add_name(tpl__tag *t, tpl__expr *x)
{
    size_t cap = x->nnames; /* not kept: look-ups are short, each name reallocates */
    char **names = tpl__reserve(x->names, &cap, x->nnames + 1, sizeof *names);
    if (!names)
        return tpl__oom(t->e, t->pos);
    x->names = names;
    names[x->nnames] = tpl__strndup(t->s, t->n);
    if (!names[x->nnames])
        return tpl__oom(t->e, t->pos);
    x->nnames++;
    return tpl__next(t);
}

static tpl__expr *tpl__parse_lookup(tpl__tag *t)
{
    tpl__expr *x = tpl__expr_new(t, TPL__X_LOOKUP, NULL, NULL);
    if (!x || tpl__add_name(t, x))
        goto fail;
    while (t->t == TPL__T_DOT) {
        if (tpl__next(t))
            goto fail;
        if (t->t != TPL__T_IDENT || tpl__is_keyword(t)) {
            tpl__expected(t, "an attribute name");
            goto fail;
        }
        if (tpl__add_name(t, x))
            goto fail;
    }
    return x;
fail:
    tpl__expr_free(x);
    return NULL;
}

/* The value of the string literal in [s, s+n), quotes included; NULL on a bad escape. */
static char *tpl__unquote(const char *s, size_t n, int *bad_escape)
{
    char *d = malloc(n), *o = d;
    size_t i;
    *bad_escape = 0;
    if (!d)
        return NULL;
    for (i = 1; i + 1 < n; i++) {
        if (s[i] != '\\') {
            *o++ = s[i];
            continue;
        }
        switch (s[++i]) {
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case '\\':
        case '"':
        case '\'': *o++ = s[i]; break;
        default:
            *bad_escape = 1;
            free(d);
            return NULL;
        }
    }
    *o = '\0';
    return d;
}

static tpl_value *tpl__parse_literal_value(tpl__tag *t)
{
    int bad = 0;
    if (t->t == TPL__T_STR) {
        char *s = tpl__unquote(t->s, t->n, &bad);
        if (bad)
            tpl__fail(t->e, t->pos, "syntax error: bad escape in %.*s", (int)t->n, t->s);
        else if (!s)
            tpl__oom(t->e, t->pos);
        return s ? tpl_string_take(s) : NULL;
    } else {
        char digits[32];
        long v;
        if (t->n >= sizeof digits)
            goto range;
        memcpy(digits, t->s, t->n);
        digits[t->n] = '\0';
        errno = 0;
        v = strtol(digits, NULL, 10);
        if (errno == ERANGE)
            goto range;
        return tpl_int(v);
    }
range:
    tpl__fail(t->e, t->pos, "syntax error: integer %.*s out of range", (int)t->n, t->s);
    return NULL;
}

static tpl__expr *tpl__parse_literal(tpl__tag *t)
{
    tpl__expr *x = tpl__expr_new(t, TPL__X_LITERAL, NULL, NULL);
    if (!x)
        return NULL;
    x->literal = tpl__parse_literal_value(t);
    if (!x->literal) {
        tpl__oom(t->e, t->pos); /* no-op when a syntax error came first */
        tpl__expr_free(x);
        return NULL;
    }
    if (tpl__next(t)) {
        tpl__expr_free(x);
        return NULL;
    }
    return x;
}

static tpl__expr *tpl__parse_operand(tpl__tag *t)
{
    if (t->t == TPL__T_IDENT && !tpl__is_keyword(t))
        return tpl__parse_lookup(t);
    if (t->t == TPL__T_STR || t->t == TPL__T_INT)
        return tpl__parse_literal(t);
    tpl__expected(t, "a value");
    return NULL;
}

static int tpl__find_filter(tpl__tag *t, tpl__filter *f)
{
    int i;
    for (i = 0; i < TPL__F_COUNT; i++)
        if (tpl__is_word(t, tpl__filters[i].name)) {
            *f = (tpl__filter)i;
            return 0;
        }
    if (t->t != TPL__T_IDENT)
        return tpl__expected(t, "a filter name");
    return tpl__fail(t->e, t->pos, "unknown filter \"%.*s\"", (int)t->n, t->s);
}

/* `( operand )` after a filter name, or nothing; checks it against the filter. */
static int tpl__parse_filter_arg(tpl__tag *t, tpl__expr *x)
{
    const char *name = tpl__filters[x->filter].name;
    if (t->t != TPL__T_LPAREN) {
        if (tpl__filters[x->filter].takes_arg)
            return tpl__fail(t->e, t->pos, "bad argument to filter \"%s\": missing", name);
        return 0;
    }
    if (!tpl__filters[x->filter].takes_arg)
        return tpl__fail(t->e, t->pos, "bad argument to filter \"%s\": takes none", name);
    if (tpl__next(t))
        return -1;
    x->b = tpl__parse_filtered(t);
    if (!x->b)
        return -1;
    if (t->t != TPL__T_RPAREN)
        return tpl__expected(t, "\")\"");
    return tpl__next(t);
}

static tpl__expr *tpl__parse_filtered(tpl__tag *t)
{
    tpl__expr *x = tpl__parse_operand(t), *f;
    while (x && t->t == TPL__T_PIPE) {
        f = tpl__expr_new(t, TPL__X_FILTER, x, NULL);
        x = f;
        if (!f || tpl__next(t) || tpl__find_filter(t, &f->filter) || tpl__next(t) ||
            tpl__parse_filter_arg(t, f)) {
            tpl__expr_free(f);
            return NULL;
        }
    }
    return x;
}

static tpl__expr *tpl__parse_compare(tpl__tag *t)
{
    tpl__expr *a = tpl__parse_filtered(t), *b;
    tpl__xkind kind = t->t == TPL__T_EQ ? TPL__X_EQ : TPL__X_NE;
    if (!a || (t->t != TPL__T_EQ && t->t != TPL__T_NE))
        return a;
    if (tpl__next(t) || !(b = tpl__parse_filtered(t))) {
        tpl__expr_free(a);
        return NULL;
    }
    return tpl__expr_new(t, kind, a, b);
}

static tpl__expr *tpl__parse_not(tpl__tag *t)
{
    tpl__expr *a;
    if (!tpl__is_word(t, "not"))
        return tpl__parse_compare(t);
    if (tpl__next(t) || !(a = tpl__parse_not(t)))
        return NULL;
    return tpl__expr_new(t, TPL__X_NOT, a, NULL);
}

/* One left-associative level: sub (word sub)*. */
static tpl__expr *tpl__parse_chain(tpl__tag *t, const char *word, tpl__xkind kind,
                                   tpl__expr *(*sub)(tpl__tag *))
{
    tpl__expr *a = sub(t), *b;
    while (a && tpl__is_word(t, word)) {
        if (tpl__next(t) || !(b = sub(t))) {
            tpl__expr_free(a);
            return NULL;
        }
        a = tpl__expr_new(t, kind, a, b);
    }
    return a;
}

static tpl__expr *tpl__parse_and(tpl__tag *t)
{
    return tpl__parse_chain(t, "and", TPL__X_AND, tpl__parse_not);
}

static tpl__expr *tpl__parse_or(tpl__tag *t)
{
    return tpl__parse_chain(t, "or", TPL__X_OR, tpl__parse_and);
}

/* A whole expression that must fill the rest of the tag. */
static tpl__expr *tpl__parse_expr_to_end(tpl__tag *t)
{
    tpl__expr *x = tpl__parse_or(t);
    if (x && tpl__expect_end(t)) {
        tpl__expr_free(x);
        return NULL;
    }
    return x;
}

/* ------------------------------------------------------------------ parser */

typedef enum {
    TPL__N_TEXT,
    TPL__N_OUTPUT,
    TPL__N_FOR,
    TPL__N_IF,
    TPL__N_BRANCH,
    TPL__N_INCLUDE,
    TPL__N_SET
} tpl__nkind;

typedef struct tpl__node tpl__node;
struct tpl__node {
    tpl__nkind kind;
    tpl__pos pos;
    const char *text; /* TEXT: a slice of the template */
    size_t len;
    tpl__expr *expr; /* OUTPUT value, FOR list, BRANCH test (NULL: else), INCLUDE name,
                               SET value */
    char *name;      /* FOR variable, SET target */
    tpl__node *body; /* FOR and BRANCH bodies; IF: its branches */
    tpl__node *next;
};

static void tpl__node_free(tpl__node *n)
{
    while (n) {
        tpl__node *next = n->next;
        tpl__expr_free(n->expr);
        free(n->name);
        tpl__node_free(n->body);
        free(n);
        n = next;
    }
}

/* Block tags that end or split a block, as bits so a caller can say which it accepts. */
enum { TPL__END_FOR = 1, TPL__ELIF = 2, TPL__ELSE = 4, TPL__END_IF = 8 };

static const char *const tpl__closers[] = { "endfor", "elif", "else", "endif" };

typedef struct {
    const tpl__tok *tok;
    size_t n, i; /* i: the next token */
    tpl__errs *e;
} tpl__parser;

/* Which closer (if any) the block token is, by its first word. */
static int tpl__closer(const tpl__tok *tok)
{
    const char *s = tok->s, *end = tok->s + tok->n, *w;
    int i;
    if (tok->kind != TPL__TK_BLOCK)
        return 0;
    while (s < end && tpl__is_space(*s))
        s++;
    for (w = s; w < end && tpl__is_ident_char(*w); w++) {
    }
    for (i = 0; i < 4; i++)
        if (strlen(tpl__closers[i]) == (size_t)(w - s) &&
            memcmp(s, tpl__closers[i], (size_t)(w - s)) == 0)
            return 1 << i;
    return 0;
}

static const char *tpl__closer_name(int closer)
{
    int i;
    for (i = 0; i < 4; i++)
        if (closer == 1 << i)
            return tpl__closers[i];
    return "?";
}

static tpl__node *tpl__node_new(tpl__parser *p, tpl__nkind kind, tpl__pos pos)
{
    tpl__node *n = malloc(sizeof *n);
    if (!n) {
        tpl__oom(p->e, pos);
        return NULL;
    }
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->pos = pos;
    return n;
}

static int tpl__parse_nodes(tpl__parser *p, int stop, tpl__node **head);

/* `name` into *out, as a fresh string; the tag moves past it. */
static int tpl__take_ident(tpl__tag *t, const char *what, char **out)
{
    if (t->t != TPL__T_IDENT || tpl__is_keyword(t))
        return tpl__expected(t, what);
    *out = tpl__strndup(t->s, t->n);
    if (!*out)
        return tpl__oom(t->e, t->pos);
    return tpl__next(t);
}

/* Consumes the closer at the current token, which must hold nothing but its word. */
static int tpl__take_closer(tpl__parser *p, tpl__tag *t)
{
    if (tpl__tag_open(t, &p->tok[p->i], p->e) || tpl__next(t) || tpl__expect_end(t))
        return -1;
    p->i++;
    return 0;
}

static int tpl__parse_for(tpl__parser *p, tpl__tag *t, tpl__node *n)
{
    if (tpl__take_ident(t, "a loop variable", &n->name))
        return -1;
    if (!tpl__is_word(t, "in"))
        return tpl__expected(t, "\"in\"");
    if (tpl__next(t) || !(n->expr = tpl__parse_expr_to_end(t)))
        return -1;
    p->i++;
    if (tpl__parse_nodes(p, TPL__END_FOR, &n->body))
        return -1;
    if (p->i == p->n)
        return tpl__fail(p->e, n->pos, "unclosed \"for\": no matching \"endfor\"");
    return tpl__take_closer(p, t);
}

/* Branches of an if: the first test is in t; each elif/else adds one up to endif. */
static int tpl__parse_if(tpl__parser *p, tpl__tag *t, tpl__node *n)
{
    tpl__node **tail = &n->body;
    int stop = TPL__ELIF | TPL__ELSE | TPL__END_IF, closer = TPL__ELIF;
    while (closer != TPL__END_IF) {
        tpl__node *b = tpl__node_new(p, TPL__N_BRANCH, t->pos);
        if (!b)
            return -1;
        *tail = b;
        tail = &b->next;
        if (closer == TPL__ELIF && !(b->expr = tpl__parse_expr_to_end(t)))
            return -1;
        if (closer == TPL__ELSE && tpl__expect_end(t))
            return -1;
        p->i++;
        if (tpl__parse_nodes(p, stop, &b->body))
            return -1;
        if (p->i == p->n)
            return tpl__fail(p->e, n->pos, "unclosed \"if\": no matching \"endif\"");
        closer = tpl__closer(&p->tok[p->i]);
        if (closer == TPL__ELSE)
            stop = TPL__END_IF;
        if (tpl__tag_open(t, &p->tok[p->i], p->e) || tpl__next(t))
            return -1;
    }
    if (tpl__expect_end(t))
        return -1;
    p->i++;
    return 0;
}

static int tpl__parse_set(tpl__parser *p, tpl__tag *t, tpl__node *n)
{
    if (tpl__take_ident(t, "a variable name", &n->name))
        return -1;
    if (t->t != TPL__T_ASSIGN)
        return tpl__expected(t, "\"=\"");
    if (tpl__next(t) || !(n->expr = tpl__parse_expr_to_end(t)))
        return -1;
    p->i++;
    return 0;
}

static int tpl__parse_simple(tpl__parser *p, tpl__tag *t, tpl__node *n)
{
    if (!(n->expr = tpl__parse_expr_to_end(t)))
        return -1;
    p->i++;
    return 0;
}

/* One block tag (not a closer) with everything it encloses. */
static int tpl__parse_block(tpl__parser *p, tpl__node **out)
{
    static const struct {
        const char *word;
        tpl__nkind kind;
        int (*parse)(tpl__parser *, tpl__tag *, tpl__node *);
    } blocks[] = {
        { "for", TPL__N_FOR, tpl__parse_for },
        { "if", TPL__N_IF, tpl__parse_if },
        { "include", TPL__N_INCLUDE, tpl__parse_simple },
        { "set", TPL__N_SET, tpl__parse_set },
    };
    tpl__tag t;
    size_t i;
    if (tpl__tag_open(&t, &p->tok[p->i], p->e))
        return -1;
    for (i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        if (!tpl__is_word(&t, blocks[i].word))
            continue;
        *out = tpl__node_new(p, blocks[i].kind, t.pos);
        if (!*out || tpl__next(&t))
            return -1;
        return blocks[i].parse(p, &t, *out);
    }
    if (t.t == TPL__T_END)
        return tpl__fail(p->e, t.pos, "syntax error: empty tag");
    if (t.t == TPL__T_IDENT)
        return tpl__fail(p->e, t.pos, "unknown tag \"%.*s\"", (int)t.n, t.s);
    return tpl__expected(&t, "a tag name");
}

static int tpl__parse_token(tpl__parser *p, tpl__node **out)
{
    const tpl__tok *tok = &p->tok[p->i];
    tpl__tag t;
    if (tok->kind == TPL__TK_BLOCK)
        return tpl__parse_block(p, out);
    *out = tpl__node_new(p, tok->kind == TPL__TK_TEXT ? TPL__N_TEXT : TPL__N_OUTPUT, tok->pos);
    if (!*out)
        return -1;
    if (tok->kind == TPL__TK_TEXT) {
        (*out)->text = tok->s;
        (*out)->len = tok->n;
        p->i++;
        return 0;
    }
    if (tpl__tag_open(&t, tok, p->e))
        return -1;
    return tpl__parse_simple(p, &t, *out);
}

/* Nodes up to a closer in `stop` (left unread) or the end; any other closer is stray. */
static int tpl__parse_nodes(tpl__parser *p, int stop, tpl__node **head)
{
    tpl__node **tail = head;
    while (p->i < p->n) {
        int closer = tpl__closer(&p->tok[p->i]);
        if (closer & stop)
            return 0;
        if (closer)
            return tpl__fail(p->e, p->tok[p->i].pos, "unexpected \"%s\"", tpl__closer_name(closer));
        if (tpl__parse_token(p, tail))
            return -1; /* *tail, complete or not, is already linked and gets freed */
        tail = &(*tail)->next;
    }
    return 0;
}

/* ---------------------------------------------------------------- renderer */

typedef struct {
    const char *name; /* borrowed from the syntax tree */
    const tpl_value *v;
    tpl_value *owned; /* set values belong to their frame */
} tpl__bind;

/* Variables of one scope: the template, an include, or one pass of a for body. */
typedef struct tpl__frame {
    tpl__bind *b;
    size_t n, cap;
    struct tpl__frame *up;
} tpl__frame;

typedef struct {
    tpl__errs e;
    const tpl_value *ctx;
    tpl_loader loader;
    void *loader_ctx;
    tpl__buf out;
    int depth; /* of includes */
} tpl__renderer;

/* An evaluated expression. */
typedef struct {
    const tpl_value *v;    /* NULL: undefined */
    tpl_value *owned;      /* == v when v is a temporary to free */
    const tpl__expr *miss; /* undefined: the look-up that failed, at names[miss_at] */
    size_t miss_at;
} tpl__res;

static void tpl__res_free(tpl__res *r)
{
    tpl_free(r->owned);
    memset(r, 0, sizeof *r);
}

static void tpl__frame_clear(tpl__frame *f)
{
    size_t i;
    for (i = 0; i < f->n; i++)
        tpl_free(f->b[i].owned);
    f->n = 0;
}

static void tpl__frame_free(tpl__frame *f)
{
    tpl__frame_clear(f);
    free(f->b);
}

/* Binds name in f, replacing an earlier binding there; takes `owned`. */
static int tpl__bind_name(tpl__frame *f, const char *name, const tpl_value *v, tpl_value *owned)
{
    tpl__bind *b;
    size_t i;
    for (i = 0; i < f->n; i++)
        if (strcmp(f->b[i].name, name) == 0)
            break;
    if (i == f->n) {
        b = tpl__reserve(f->b, &f->cap, f->n + 1, sizeof *b);
        if (!b) {
            tpl_free(owned);
            return -1;
        }
        f->b = b;
        f->b[f->n++].owned = NULL;
    }
    tpl_free(f->b[i].owned);
    f->b[i].name = name;
    f->b[i].v = v;
    f->b[i].owned = owned;
    return 0;
}

static const tpl_value *tpl__lookup_var(const tpl__renderer *r, const tpl__frame *f,
                                        const char *name)
{
    size_t i;
    for (; f; f = f->up)
        for (i = f->n; i-- > 0;)
            if (strcmp(f->b[i].name, name) == 0)
                return f->b[i].v;
    return tpl_dict_get(r->ctx, name);
}

static void tpl__eval_lookup(const tpl__renderer *r, const tpl__frame *f, const tpl__expr *x,
                             tpl__res *res)
{
    const tpl_value *v = tpl__lookup_var(r, f, x->names[0]);
    size_t i;
    for (i = 1; v && i < x->nnames; i++) {
        const tpl_value *next = tpl_dict_get(v, x->names[i]);
        if (!next)
            break;
        v = next;
    }
    if (!v || i < x->nnames) {
        res->miss = x;
        res->miss_at = v ? i : 0;
        return;
    }
    res->v = v;
}

/* Fails with the reason when res is undefined. */
static int tpl__need_defined(tpl__renderer *r, tpl__pos pos, const tpl__res *res)
{
    char path[160] = "";
    size_t i, used = 0;
    if (res->v)
        return 0;
    if (res->miss_at == 0)
        return tpl__fail(&r->e, pos, "unknown variable \"%s\"", res->miss->names[0]);
    for (i = 0; i < res->miss_at && used < sizeof path; i++)
        used += (size_t)snprintf(path + used, sizeof path - used, "%s%s", i ? "." : "",
                                 res->miss->names[i]);
    return tpl__fail(&r->e, pos, "unknown attribute \"%s\" of \"%s\"",
                     res->miss->names[res->miss_at], path);
}

static int tpl__eval(tpl__renderer *r, const tpl__frame *f, const tpl__expr *x, tpl__pos pos,
                     tpl__res *res);

static int tpl__eval_defined(tpl__renderer *r, const tpl__frame *f, const tpl__expr *x,
                             tpl__pos pos, tpl__res *res)
{
    if (tpl__eval(r, f, x, pos, res))
        return -1;
    if (tpl__need_defined(r, pos, res)) {
        tpl__res_free(res);
        return -1;
    }
    return 0;
}

/* res takes ownership of v, a fresh value; NULL means out of memory. */
static int tpl__give(tpl__renderer *r, tpl__pos pos, tpl__res *res, tpl_value *v)
{
    if (!v)
        return tpl__oom(&r->e, pos);
    res->v = res->owned = v;
    return 0;
}

/* res takes the text built in b. */
static int tpl__give_buf(tpl__renderer *r, tpl__pos pos, tpl__res *res, tpl__buf *b)
{
    if (b->oom) {
        free(b->s);
        b->s = NULL;
    }
    return tpl__give(r, pos, res, b->s ? tpl_string_take(b->s) : NULL);
}

static int tpl__bad_input(tpl__renderer *r, tpl__pos pos, tpl__filter f, const char *want,
                          const tpl_value *got)
{
    return tpl__fail(&r->e, pos, "filter \"%s\" needs %s, got %s", tpl__filters[f].name, want,
                     tpl__a_kind(got));
}

static int tpl__bad_arg(tpl__renderer *r, tpl__pos pos, tpl__filter f, const char *want,
                        const tpl_value *got)
{
    return tpl__fail(&r->e, pos, "bad argument to filter \"%s\": needs %s, got %s",
                     tpl__filters[f].name, want, tpl__a_kind(got));
}

static int tpl__filter_case(tpl__renderer *r, tpl__pos pos, tpl__filter f, const tpl_value *in,
                            tpl__res *out)
{
    char *s;
    size_t i;
    if (in->kind != TPL__STR)
        return tpl__bad_input(r, pos, f, "a string", in);
    s = tpl__strndup(in->u.s, strlen(in->u.s));
    for (i = 0; s && s[i]; i++) {
        if (f == TPL__F_UPPER && s[i] >= 'a' && s[i] <= 'z')
            s[i] = (char)(s[i] - 'a' + 'A');
        if (f == TPL__F_LOWER && s[i] >= 'A' && s[i] <= 'Z')
            s[i] = (char)(s[i] - 'A' + 'a');
    }
    return tpl__give(r, pos, out, s ? tpl_string_take(s) : NULL);
}

static int tpl__filter_length(tpl__renderer *r, tpl__pos pos, const tpl_value *in, tpl__res *out)
{
    size_t n;
    switch (in->kind) {
    case TPL__STR: n = strlen(in->u.s); break;
    case TPL__LIST: n = in->u.list.n; break;
    case TPL__DICT: n = in->u.dict.n; break;
    default: return tpl__bad_input(r, pos, TPL__F_LENGTH, "a string, list or dict", in);
    }
    return tpl__give(r, pos, out, tpl_int((long)n));
}

static int tpl__filter_join(tpl__renderer *r, tpl__pos pos, const tpl_value *in,
                            const tpl_value *sep, tpl__res *out)
{
    tpl__buf b = { NULL, 0, 0, 0 };
    size_t i;
    if (in->kind != TPL__LIST)
        return tpl__bad_input(r, pos, TPL__F_JOIN, "a list", in);
    if (sep->kind != TPL__STR)
        return tpl__bad_arg(r, pos, TPL__F_JOIN, "a string", sep);
    tpl__buf_add(&b, "", 0);
    for (i = 0; i < in->u.list.n; i++) {
        const tpl_value *item = in->u.list.items[i];
        if (item->kind != TPL__STR && item->kind != TPL__INT) {
            free(b.s);
            return tpl__bad_input(r, pos, TPL__F_JOIN, "a list of strings or integers, item", item);
        }
        if (i)
            tpl__buf_adds(&b, sep->u.s);
        if (item->kind == TPL__STR)
            tpl__buf_adds(&b, item->u.s);
        else
            tpl__buf_addl(&b, item->u.i);
    }
    return tpl__give_buf(r, pos, out, &b);
}

static void tpl__buf_spaces(tpl__buf *b, long n)
{
    static const char blanks[] = "                                ";
    for (; n > 0; n -= (long)(sizeof blanks - 1))
        tpl__buf_add(b, blanks, n < (long)(sizeof blanks - 1) ? (size_t)n : sizeof blanks - 1);
}

/* Every line but the first gets `width` spaces, except empty ones (Jinja's indent). */
static int tpl__filter_indent(tpl__renderer *r, tpl__pos pos, const tpl_value *in,
                              const tpl_value *width, tpl__res *out)
{
    tpl__buf b = { NULL, 0, 0, 0 };
    const char *s;
    if (in->kind != TPL__STR)
        return tpl__bad_input(r, pos, TPL__F_INDENT, "a string", in);
    if (width->kind != TPL__INT || width->u.i < 0 || width->u.i > TPL__MAX_INDENT)
        return tpl__fail(&r->e, pos,
                         "bad argument to filter \"indent\": needs an integer "
                         "from 0 to %d",
                         TPL__MAX_INDENT);
    tpl__buf_add(&b, "", 0);
    for (s = in->u.s; *s; s++) {
        tpl__buf_add(&b, s, 1);
        if (*s == '\n' && s[1] && s[1] != '\n')
            tpl__buf_spaces(&b, width->u.i);
    }
    return tpl__give_buf(r, pos, out, &b);
}

/* Any string (or integer) as a C identifier: bytes outside [A-Za-z0-9_] become '_'; a
 * leading digit or an empty string gets a '_' in front. */
static int tpl__filter_c_ident(tpl__renderer *r, tpl__pos pos, const tpl_value *in, tpl__res *out)
{
    tpl__buf b = { NULL, 0, 0, 0 };
    char digits[32];
    const char *s = digits;
    if (in->kind == TPL__INT)
        snprintf(digits, sizeof digits, "%ld", in->u.i);
    else if (in->kind == TPL__STR)
        s = in->u.s;
    else
        return tpl__bad_input(r, pos, TPL__F_C_IDENT, "a string or integer", in);
    if (*s == '\0' || tpl__is_digit(*s))
        tpl__buf_add(&b, "_", 1);
    for (; *s; s++)
        tpl__buf_add(&b, tpl__is_ident_char(*s) ? s : "_", 1);
    return tpl__give_buf(r, pos, out, &b);
}

static int tpl__filter_int(tpl__renderer *r, tpl__pos pos, const tpl_value *in, tpl__res *out)
{
    const char *s;
    char *end;
    long v;
    if (in->kind == TPL__INT || in->kind == TPL__BOOL)
        return tpl__give(r, pos, out, tpl_int(in->u.i));
    if (in->kind != TPL__STR)
        return tpl__bad_input(r, pos, TPL__F_INT, "a string, integer or boolean", in);
    s = in->u.s;
    errno = 0;
    v = strtol(s, &end, 10);
    if (end == s || *end || tpl__is_space(*s) || errno == ERANGE)
        return tpl__fail(&r->e, pos, "filter \"int\" cannot convert \"%s\"", s);
    return tpl__give(r, pos, out, tpl_int(v));
}

/* Applies filter f to *in (which may be undefined only for `default`) with argument arg. */
static int tpl__apply(tpl__renderer *r, tpl__pos pos, tpl__filter f, tpl__res *in, tpl__res *arg,
                      tpl__res *out)
{
    if (f == TPL__F_DEFAULT) {
        tpl__res *pick = in->v ? in : arg;
        *out = *pick;
        memset(pick, 0, sizeof *pick);
        return 0;
    }
    if (tpl__need_defined(r, pos, in))
        return -1;
    switch (f) {
    case TPL__F_UPPER:
    case TPL__F_LOWER: return tpl__filter_case(r, pos, f, in->v, out);
    case TPL__F_LENGTH: return tpl__filter_length(r, pos, in->v, out);
    case TPL__F_JOIN: return tpl__filter_join(r, pos, in->v, arg->v, out);
    case TPL__F_INDENT: return tpl__filter_indent(r, pos, in->v, arg->v, out);
    case TPL__F_C_IDENT: return tpl__filter_c_ident(r, pos, in->v, out);
    case TPL__F_INT: return tpl__filter_int(r, pos, in->v, out);
    default: break;
    }
    return -1;
}

static int tpl__eval_filter(tpl__renderer *r, const tpl__frame *f, const tpl__expr *x, tpl__pos pos,
                            tpl__res *res)
{
    tpl__res in = { NULL, NULL, NULL, 0 }, arg = { NULL, NULL, NULL, 0 };
    int rc = tpl__eval(r, f, x->a, pos, &in);
    if (rc == 0 && x->b)
        rc = tpl__eval_defined(r, f, x->b, pos, &arg);
    if (rc == 0)
        rc = tpl__apply(r, pos, x->filter, &in, &arg, res);
    tpl__res_free(&in);
    tpl__res_free(&arg);
    return rc;
}

/* == and != on two strings, two integers or two booleans. */
static int tpl__equal(tpl__renderer *r, tpl__pos pos, const tpl_value *a, const tpl_value *b,
                      int *eq)
{
    if (a->kind != b->kind || a->kind == TPL__LIST || a->kind == TPL__DICT)
        return tpl__fail(&r->e, pos, "cannot compare %s with %s", tpl__a_kind(a), tpl__a_kind(b));
    *eq = a->kind == TPL__STR ? strcmp(a->u.s, b->u.s) == 0 : a->u.i == b->u.i;
    return 0;
}

static int tpl__eval_compare(tpl__renderer *r, const tpl__frame *f, const tpl__expr *x,
                             tpl__pos pos, tpl__res *res)
{
    tpl__res a = { NULL, NULL, NULL, 0 }, b = { NULL, NULL, NULL, 0 };
    int eq = 0, rc = tpl__eval_defined(r, f, x->a, pos, &a);
    if (rc == 0)
        rc = tpl__eval_defined(r, f, x->b, pos, &b);
    if (rc == 0)
        rc = tpl__equal(r, pos, a.v, b.v, &eq);
    tpl__res_free(&a);
    tpl__res_free(&b);
    res->v = eq == (x->kind == TPL__X_EQ) ? &tpl__true : &tpl__false;
    return rc;
}

static int tpl__eval_truth(tpl__renderer *r, const tpl__frame *f, const tpl__expr *x, tpl__pos pos,
                           int *truth)
{
    tpl__res v = { NULL, NULL, NULL, 0 };
    if (tpl__eval_defined(r, f, x, pos, &v))
        return -1;
    *truth = tpl__truthy(v.v);
    tpl__res_free(&v);
    return 0;
}

/* not, and, or; the last two stop as soon as the answer is known. */
static int tpl__eval_logic(tpl__renderer *r, const tpl__frame *f, const tpl__expr *x, tpl__pos pos,
                           tpl__res *res)
{
    int truth;
    if (tpl__eval_truth(r, f, x->a, pos, &truth))
        return -1;
    if (x->kind == TPL__X_NOT)
        truth = !truth;
    else if (truth == (x->kind == TPL__X_AND) && tpl__eval_truth(r, f, x->b, pos, &truth))
        return -1;
    res->v = truth ? &tpl__true : &tpl__false;
    return 0;
}

static int tpl__eval(tpl__renderer *r, const tpl__frame *f, const tpl__expr *x, tpl__pos pos,
                     tpl__res *res)
{
    memset(res, 0, sizeof *res);
    switch (x->kind) {
    case TPL__X_LOOKUP: tpl__eval_lookup(r, f, x, res); return 0;
    case TPL__X_LITERAL: res->v = x->literal; return 0;
    case TPL__X_FILTER: return tpl__eval_filter(r, f, x, pos, res);
    case TPL__X_EQ:
    case TPL__X_NE: return tpl__eval_compare(r, f, x, pos, res);
    case TPL__X_NOT:
    case TPL__X_AND:
    case TPL__X_OR: return tpl__eval_logic(r, f, x, pos, res);
    }
    return -1;
}

static int tpl__render_nodes(tpl__renderer *r, const tpl__node *n, tpl__frame *f);
static int tpl__render_text(tpl__renderer *r, const char *name, const char *text, tpl__frame *up);

static int tpl__render_output(tpl__renderer *r, const tpl__node *n, tpl__frame *f)
{
    tpl__res res;
    int rc = 0;
    if (tpl__eval_defined(r, f, n->expr, n->pos, &res))
        return -1;
    switch (res.v->kind) {
    case TPL__STR: tpl__buf_adds(&r->out, res.v->u.s); break;
    case TPL__INT: tpl__buf_addl(&r->out, res.v->u.i); break;
    case TPL__BOOL: tpl__buf_adds(&r->out, res.v->u.i ? "true" : "false"); break;
    default: rc = tpl__fail(&r->e, n->pos, "cannot print %s", tpl__a_kind(res.v));
    }
    tpl__res_free(&res);
    return rc;
}

static int tpl__render_if(tpl__renderer *r, const tpl__node *n, tpl__frame *f)
{
    const tpl__node *b;
    int truth;
    for (b = n->body; b; b = b->next) {
        truth = 1; /* else */
        if (b->expr && tpl__eval_truth(r, f, b->expr, b->pos, &truth))
            return -1;
        if (truth)
            return tpl__render_nodes(r, b->body, f);
    }
    return 0;
}

/* The `loop` dict of a for: index, index0, first, last, length, updated in place. */
static tpl_value *tpl__loop_new(size_t length)
{
    static const char *const keys[] = { "index", "index0", "first", "last", "length" };
    tpl_value *loop = tpl_dict();
    size_t i;
    for (i = 0; loop && i < 5; i++)
        tpl_dict_set(loop, keys[i], i < 2 || i == 4 ? tpl_int((long)length) : tpl_bool(0));
    if (loop && loop->broken) {
        tpl_free(loop);
        return NULL;
    }
    return loop;
}

static void tpl__loop_update(tpl_value *loop, size_t i, size_t length)
{
    loop->u.dict.e[0].val->u.i = (long)i + 1;
    loop->u.dict.e[1].val->u.i = (long)i;
    loop->u.dict.e[2].val->u.i = i == 0;
    loop->u.dict.e[3].val->u.i = i + 1 == length;
}

static int tpl__render_passes(tpl__renderer *r, const tpl__node *n, const tpl_value *list,
                              tpl__frame *body)
{
    size_t i, len = list->u.list.n;
    tpl_value *loop = tpl__loop_new(len);
    int rc = loop ? 0 : tpl__oom(&r->e, n->pos);
    for (i = 0; rc == 0 && i < len; i++) {
        tpl__frame_clear(body); /* a `set` lasts one pass, as in Jinja */
        tpl__loop_update(loop, i, len);
        if (tpl__bind_name(body, n->name, list->u.list.items[i], NULL) ||
            tpl__bind_name(body, "loop", loop, NULL))
            rc = tpl__oom(&r->e, n->pos);
        else
            rc = tpl__render_nodes(r, n->body, body);
    }
    tpl__frame_clear(body);
    tpl_free(loop);
    return rc;
}

static int tpl__render_for(tpl__renderer *r, const tpl__node *n, tpl__frame *f)
{
    tpl__frame body = { NULL, 0, 0, NULL };
    tpl__res list;
    int rc;
    if (tpl__eval_defined(r, f, n->expr, n->pos, &list))
        return -1;
    body.up = f;
    if (list.v->kind != TPL__LIST)
        rc = tpl__fail(&r->e, n->pos, "\"for\" needs a list, got %s", tpl__a_kind(list.v));
    else
        rc = tpl__render_passes(r, n, list.v, &body);
    tpl__frame_free(&body);
    tpl__res_free(&list);
    return rc;
}

static int tpl__render_include(tpl__renderer *r, const tpl__node *n, tpl__frame *f)
{
    const char *text = NULL;
    tpl__res name;
    int rc;
    if (tpl__eval_defined(r, f, n->expr, n->pos, &name))
        return -1;
    if (name.v->kind != TPL__STR)
        rc = tpl__fail(&r->e, n->pos, "\"include\" needs a template name, got %s",
                       tpl__a_kind(name.v));
    else if (r->depth >= TPL_MAX_INCLUDE_DEPTH)
        rc = tpl__fail(&r->e, n->pos, "include depth exceeds %d", TPL_MAX_INCLUDE_DEPTH);
    else if (!r->loader || r->loader(r->loader_ctx, name.v->u.s, &text) != 0 || !text)
        rc = tpl__fail(&r->e, n->pos, "template \"%s\" not found", name.v->u.s);
    else {
        r->depth++;
        rc = tpl__render_text(r, name.v->u.s, text, f);
        r->depth--;
    }
    tpl__res_free(&name);
    return rc;
}

static int tpl__render_set(tpl__renderer *r, const tpl__node *n, tpl__frame *f)
{
    tpl__res res;
    tpl_value *copy;
    if (tpl__eval_defined(r, f, n->expr, n->pos, &res))
        return -1;
    copy = res.owned ? res.owned : tpl__copy(res.v);
    res.owned = NULL;
    if (!copy || tpl__bind_name(f, n->name, copy, copy))
        return tpl__oom(&r->e, n->pos);
    return 0;
}

static int tpl__render_node(tpl__renderer *r, const tpl__node *n, tpl__frame *f)
{
    switch (n->kind) {
    case TPL__N_TEXT: tpl__buf_add(&r->out, n->text, n->len); return 0;
    case TPL__N_OUTPUT: return tpl__render_output(r, n, f);
    case TPL__N_FOR: return tpl__render_for(r, n, f);
    case TPL__N_IF: return tpl__render_if(r, n, f);
    case TPL__N_INCLUDE: return tpl__render_include(r, n, f);
    case TPL__N_SET: return tpl__render_set(r, n, f);
    case TPL__N_BRANCH: break;
    }
    return -1;
}

static int tpl__render_nodes(tpl__renderer *r, const tpl__node *n, tpl__frame *f)
{
    for (; n; n = n->next) {
        if (tpl__render_node(r, n, f))
            return -1;
        if (r->out.oom)
            return tpl__oom(&r->e, n->pos);
    }
    return 0;
}

/* Lexes, parses and renders one template into r->out, in a new frame below `up`. */
static int tpl__render_text(tpl__renderer *r, const char *name, const char *text, tpl__frame *up)
{
    tpl__lexer lx;
    tpl__parser p;
    tpl__node *root = NULL;
    tpl__frame top = { NULL, 0, 0, NULL };
    int rc;
    memset(&lx, 0, sizeof lx);
    lx.p = text;
    lx.pos.name = name;
    lx.pos.line = lx.pos.col = 1;
    lx.e = &r->e;
    rc = tpl__lex(&lx);
    p.tok = lx.tok;
    p.n = lx.n;
    p.i = 0;
    p.e = &r->e;
    if (rc == 0)
        rc = tpl__parse_nodes(&p, 0, &root);
    top.up = up;
    if (rc == 0)
        rc = tpl__render_nodes(r, root, &top);
    tpl__frame_free(&top);
    tpl__node_free(root);
    free(lx.tok);
    return rc;
}

int tpl_render(const char *name, const char *text, const tpl_value *ctx, tpl_loader loader,
               void *loader_ctx, char **out, char *err, size_t errlen)
{
    tpl__renderer r;
    tpl__pos start;
    int rc = 0;
    memset(&r, 0, sizeof r);
    r.e.buf = err;
    r.e.len = errlen;
    r.ctx = ctx;
    r.loader = loader;
    r.loader_ctx = loader_ctx;
    start.name = name ? name : "<template>";
    start.line = start.col = 1;
    if (err && errlen)
        err[0] = '\0';
    if (!text)
        rc = tpl__fail(&r.e, start, "no template text");
    else if (ctx && ctx->kind != TPL__DICT)
        rc = tpl__fail(&r.e, start, "the context must be a dict, got %s", tpl__a_kind(ctx));
    else if (ctx && !tpl__value_complete(ctx))
        rc = tpl__fail(&r.e, start, "out of memory while the context was built");
    if (rc == 0)
        rc = tpl__render_text(&r, start.name, text, NULL);
    tpl__buf_add(&r.out, "", 0); /* an empty result is still a string */
    if (rc == 0 && r.out.oom)
        rc = tpl__oom(&r.e, start);
    if (rc != 0) {
        free(r.out.s);
        r.out.s = NULL;
    }
    if (out)
        *out = r.out.s;
    else
        free(r.out.s);
    return rc;
}
