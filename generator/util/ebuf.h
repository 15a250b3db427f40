/* ebuf.h — a growable text buffer: the emitters, the renderer and the reports build their
 * text in one of these and take it when done. */
#ifndef CDYNGEN_EBUF_H
#define CDYNGEN_EBUF_H

#include <stddef.h>

/* `oom` is set (and further writes dropped) when memory runs out, so a caller may write a
 * whole text and check once at the end. {0, 0, 0, 0} is an empty buffer. */
typedef struct {
    char *s;
    size_t len, cap;
    int oom;
} ebuf;

void ebuf_printf(ebuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void ebuf_puts(ebuf *b, const char *s);
void ebuf_free(ebuf *b);
/* Hands the text over (never NULL unless oom) and empties the buffer. */
char *ebuf_take(ebuf *b);

#endif
