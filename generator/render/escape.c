/* escape.c — C-safe and Python-safe text from arbitrary bytes (names from the URDF), for
 * comments, string literals and identifiers in the generated files (render.h). */
#include "render/render.h"

#include <stdlib.h>
#include <string.h>

#include "symbolic/expr.h"

char *render_comment_text(const char *s)
{
    return expr_comment_text(s);
}

char *render_string_text(const char *s)
{
    ebuf b = { 0, 0, 0, 0 };
    const unsigned char *c;
    ebuf_puts(&b, "");
    for (c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\' || *c == '?')
            ebuf_printf(&b, "\\%c", *c);
        else if (*c < 0x20 || *c >= 0x7f)
            ebuf_printf(&b, "\\%03o", *c); /* octal: never swallows a following digit */
        else
            ebuf_printf(&b, "%c", *c);
    }
    return ebuf_take(&b);
}

char *render_python_bytes_text(const char *s)
{
    ebuf b = { 0, 0, 0, 0 };
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
