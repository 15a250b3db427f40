/* diag.c — the one shape of every message cdyngen prints for its user. */
#include <stdarg.h>
#include <stdio.h>
#include "util/diag.h"

/* Control characters escaped: a name or path from the input cannot start a line of its own
 * or drive the terminal. */
void diag_report(const char *fmt, ...)
{
    char msg[2048];
    const unsigned char *c;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fputs("cdyngen: ", stderr);
    for (c = (const unsigned char *)msg; *c; c++) {
        if (*c == '\n')
            fputs("\\n", stderr);
        else if (*c == '\r')
            fputs("\\r", stderr);
        else if (*c == '\t')
            fputs("\\t", stderr);
        else if (*c < 0x20 || *c == 0x7f)
            fprintf(stderr, "\\x%02x", *c);
        else
            fputc(*c, stderr);
    }
    fputc('\n', stderr);
}
