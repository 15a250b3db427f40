/* template.h — a small, strict Jinja subset that renders the generated C files.
 *
 * Language (whitespace rules as in Jinja 3 with trim_blocks, lstrip_blocks and
 * keep_trailing_newline, always on):
 *   {{ expr }}                     output; strings as is, ints in decimal, booleans true/false
 *   {% for x in list %}..{% endfor %}    loop.index, loop.index0, loop.first, loop.last,
 *                                        loop.length; `set` inside the body is local to one pass
 *   {% if c %}..{% elif c %}..{% else %}..{% endif %}
 *   {% include "name" %}           rendered through the loader with the current variables,
 *                                  at most TPL_MAX_INCLUDE_DEPTH deep
 *   {% set name = expr %}          binds in the innermost for body, include, or template
 *   {# comment #}
 * expr:   or-chain of and-chains of [not] operand [(== | !=) operand]; == and != compare two
 *         strings, two ints or two booleans. Truthy: non-empty string/list/dict, non-zero
 *         int, true.
 * operand: dotted look-up (a.b.c), "string" or 'string' (escapes \\ \" \' \n \t), or an
 *         integer, followed by filters `| name` or `| name(operand)`:
 *         upper, lower, length, join(sep), default(x), indent(n), c_ident, int.
 *         A look-up that fails anywhere along the dots is undefined; only `default` accepts
 *         an undefined value, everything else reports it as an error.
 * Whitespace: `{%-` `{{-` `{#-` strip all whitespace before the tag, `-%}` `-}}` `-#}` all
 *         whitespace after it. A block or comment tag preceded on its line only by blanks
 *         drops those blanks, and drops the one newline right after it. So a tag alone on
 *         its line vanishes with its line; note that, as in Jinja, `a{% endif %}\nb` gives
 *         "ab" — write `{% endif +%}` to keep that newline (`{%+` keeps the blanks before).
 *         Text is otherwise copied byte for byte, trailing newline included.
 *         Write a literal "{{" in C as `{ {` or {{ "{{" }}.
 *
 * Errors read "NAME:LINE:COL: message", where LINE:COL (1-based) is the start of the
 * offending tag in the template NAME (the included one when the error is inside it). */
#ifndef CDYNGEN_TEMPLATE_H
#define CDYNGEN_TEMPLATE_H

#include <stddef.h>

#define TPL_MAX_INCLUDE_DEPTH 16

typedef struct tpl_value tpl_value; /* string, integer, boolean, list, or dict */

/* Constructors return NULL when out of memory; containers that were handed NULL, or could
 * not grow, remember it and make tpl_render fail with "out of memory". */
tpl_value *tpl_string(const char *s); /* copies s */
tpl_value *tpl_string_take(char *s);  /* takes ownership of a malloc'd string */
tpl_value *tpl_int(long v);
tpl_value *tpl_bool(int v);
tpl_value *tpl_list(void);
tpl_value *tpl_dict(void);
void tpl_list_push(tpl_value *list, tpl_value *item);              /* takes ownership of item */
void tpl_dict_set(tpl_value *dict, const char *key, tpl_value *v); /* takes ownership; replaces */
const tpl_value *tpl_dict_get(const tpl_value *dict, const char *key); /* NULL if absent */
void tpl_free(tpl_value *v); /* frees recursively; NULL is fine */
/* The bytes of the strings in v, its lists' and dicts' values included (keys not): what
 * rendering prints of it when each string is printed once. NULL is 0. */
size_t tpl_text_bytes(const tpl_value *v);

/* Looks up the text of an included template; returns 0 and sets *text (owned by the loader,
 * alive until tpl_render returns) or -1. */
typedef int (*tpl_loader)(void *ctx, const char *name, const char **text);

/* Renders template `text` (named `name` in errors) with context dict `ctx` (NULL: empty).
 * `loader` may be NULL when the template includes nothing. On success returns 0 and a
 * malloc'd NUL-terminated *out. On error returns -1, sets *out to NULL and writes
 * "NAME:LINE:COL: message" into err. */
int tpl_render(const char *name, const char *text, const tpl_value *ctx, tpl_loader loader,
               void *loader_ctx, char **out, char *err, size_t errlen);

#endif
