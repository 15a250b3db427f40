/* ebuf.c — the growable text buffer of ebuf.h. */
#include "util/ebuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for `extra` more bytes and the NUL after them; doubling keeps a long text's appends
 * linear overall. */
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
