/* report_text.h — names made safe for the HTML of `cdyngen report`. */
#ifndef CDYNGEN_REPORT_TEXT_H
#define CDYNGEN_REPORT_TEXT_H

#include "symbolic/expr.h"

/* Appends s as HTML text, safe in element content and in quoted attribute values: & < > " '
 * as entities; control characters (C0, DEL, C1) as visible escapes (\n, \r, \t, \xNN,
 * \u0085), so a hostile name can neither inject markup nor hide in the page. At most
 * max_chars characters of s (then an ellipsis); max_chars <= 0 keeps all. */
void report_html_escape(ebuf *b, const char *s, int max_chars);

/* The characters (UTF-8 code points) of s. */
int report_text_chars(const char *s);

#endif
