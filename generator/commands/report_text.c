/* report_text.c — names made safe for the report's HTML, shared by the page
 * (report_html.c) and its tree diagram (report_tree.c). */
#include <stdio.h>
#include "commands/report_text.h"

int report_text_chars(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* The escape of one character at c (which it may read past, as UTF-8), or NULL when the
 * byte is safe as it is; *len is the bytes it covers. */
static const char *escape_of(const unsigned char *c, int *len, char buf[16])
{
    *len = 1;
    switch (*c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&#39;";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: break;
    }
    if (*c < 0x20 || *c == 0x7f) {
        snprintf(buf, 16, "\\x%02x", *c);
        return buf;
    }
    /* C1 controls (U+0080..U+009F), and the bidirectional overrides and isolates
     * (U+202A..U+202E, U+2066..U+2069) that could reorder the text around a name */
    if ((c[0] == 0xC2 && c[1] >= 0x80 && c[1] <= 0x9F) ||
        (c[0] == 0xE2 && c[1] == 0x80 && c[2] >= 0xAA && c[2] <= 0xAE) ||
        (c[0] == 0xE2 && c[1] == 0x81 && c[2] >= 0xA6 && c[2] <= 0xA9)) {
        *len = c[0] == 0xC2 ? 2 : 3;
        snprintf(buf, 16, "\\u%04x",
                 c[0] == 0xC2 ? c[1] : ((c[1] & 0x3F) << 6 | (c[2] & 0x3F)) + 0x2000);
        return buf;
    }
    return NULL;
}

void report_html_escape(ebuf *b, const char *s, int max_chars)
{
    const unsigned char *c = (const unsigned char *)s, *run = c;
    int keep = max_chars > 0 && report_text_chars(s) > max_chars ? max_chars - 1 : -1, len;
    char buf[16];
    while (*c) {
        const char *esc;
        if ((*c & 0xC0) != 0x80 && keep >= 0 && keep-- == 0)
            break;
        esc = escape_of(c, &len, buf);
        if (!esc) {
            c++;
            continue;
        }
        ebuf_printf(b, "%.*s%s", (int)(c - run), (const char *)run, esc);
        c += len;
        run = c;
    }
    ebuf_printf(b, "%.*s%s", (int)(c - run), (const char *)run, *c ? "&hellip;" : "");
}
