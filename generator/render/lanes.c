/* lanes.c — a single-state body retyped for W states in vector lanes (--batch, lanes.h).
 *
 * The straight-line bodies have no branch and no data-dependent index, so the same text
 * evaluates W states at once when every value is a vector of W lanes: gcc's and clang's
 * vector extensions give + - * / on vectors, and a vector with a scalar, lane by lane. Three
 * things do not carry over, and are rewritten here, token by token (identifiers and
 * statements, never inside a comment):
 *  - the type: the identifier cdyn_real becomes the lane type;
 *  - the calls: cdyn_sincos_n, CDYN_SQRT, CDYN_SIN and CDYN_COS become the lane forms the
 *    batch file defines (PREFIX__sincos_lanes, ...);
 *  - a constant stored alone (x = 0; M[4] = M[9] = CDYN_R(0.5);), which C does not convert
 *    to a vector, is splatted: x = PREFIX__splat(0).
 * The operations and their order are untouched, so each lane rounds as the single-state
 * function does. */
#include "render/lanes.h"

#include <ctype.h>
#include <string.h>

#include "util/ebuf.h"

static int ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The end of a constant as the printers write one (0, -1, 2.5, CDYN_R(0.25), -CDYN_R(...)),
 * starting at s; NULL when s is not one. */
static const char *constant_end(const char *s)
{
    if (*s == '-')
        s++;
    if (strncmp(s, "CDYN_R(", 7) == 0) {
        const char *close = strchr(s, ')');
        return close ? close + 1 : NULL;
    }
    if (!isdigit((unsigned char)*s))
        return NULL;
    while (isdigit((unsigned char)*s) || *s == '.' || *s == 'e' || *s == 'E' ||
           ((*s == '-' || *s == '+') && (s[-1] == 'e' || s[-1] == 'E')))
        s++;
    return s;
}

/* At s, just after the '=' of an assignment: if the rest of the statement is a constant,
 * writes it splatted and returns the end of the constant, else NULL (nothing written). */
static const char *splat_constant(ebuf *out, const char *s, const char *prefix)
{
    const char *start = s, *end;
    while (*start == ' ')
        start++;
    end = constant_end(start);
    if (!end || *end != ';')
        return NULL;
    ebuf_printf(out, " %s__splat(%.*s)", prefix, (int)(end - start), start);
    return end;
}

static const struct {
    const char *from, *to; /* to: after the prefix */
} renamed[] = {
    { "cdyn_sincos_n", "__sincos_lanes" },
    { "CDYN_SQRT", "__sqrt_lanes" },
    { "CDYN_SIN", "__sin_lanes" },
    { "CDYN_COS", "__cos_lanes" },
};

static void identifier(ebuf *out, const char *w, size_t n, const char *lane_type,
                       const char *prefix)
{
    size_t k;
    if (n == 9 && memcmp(w, "cdyn_real", 9) == 0) {
        ebuf_puts(out, lane_type);
        return;
    }
    for (k = 0; k < sizeof renamed / sizeof renamed[0]; k++)
        if (strlen(renamed[k].from) == n && memcmp(w, renamed[k].from, n) == 0) {
            ebuf_printf(out, "%s%s", prefix, renamed[k].to);
            return;
        }
    ebuf_printf(out, "%.*s", (int)n, w);
}

char *lanes_retype(const char *body, const char *lane_type, const char *prefix)
{
    ebuf out = { 0, 0, 0, 0 };
    const char *s = body;
    int parens = 0; /* inside a for's header: `int c = 0` stays an int */
    ebuf_puts(&out, "");
    while (*s) {
        if (s[0] == '/' && s[1] == '*') { /* a comment, as it is */
            const char *end = strstr(s + 2, "*/");
            size_t n = end ? (size_t)(end + 2 - s) : strlen(s);
            ebuf_printf(&out, "%.*s", (int)n, s);
            s += n;
        } else if (ident_char(*s) && !(s > body && ident_char(s[-1]))) {
            const char *w = s;
            while (ident_char(*s))
                s++;
            identifier(&out, w, (size_t)(s - w), lane_type, prefix);
        } else if (*s == '=' && s[1] != '=' && s > body && !strchr("=!<>+-*/", s[-1]) &&
                   parens == 0) {
            const char *end;
            ebuf_puts(&out, "=");
            end = splat_constant(&out, s + 1, prefix);
            s = end ? end : s + 1;
        } else {
            parens += (*s == '(') - (*s == ')');
            ebuf_printf(&out, "%c", *s++);
        }
    }
    return ebuf_take(&out);
}
