/* report_html.h — `cdyngen report`: how the generator understood a robot, as one
 * self-contained HTML page (no network: CSS, script and SVG inline). The page shows the
 * kinematic tree as a diagram, the sparsity patterns the code is emitted on, the joints in
 * Pinocchio's order, the frames, the op counts per algorithm and what was specialised. */
#ifndef CDYNGEN_REPORT_HTML_H
#define CDYNGEN_REPORT_HTML_H

#include <stddef.h>
#include "expr.h"
#include "tree.h"

typedef struct {
    const char *urdf_file;      /* the URDF's file name, for the header */
    const char *options;        /* the generation options (cli_options_text) */
    const char *version;        /* CDYNGEN_VERSION */
} report_info;

/* The page for t (constraints included), from <!DOCTYPE html> on: output_write_all puts
 * the OUTPUT_MARKER comment above it. Returns 0 and a malloc'd *out, or -1 with a message
 * in err. No I/O. */
int report_html(const kin_tree *t, const report_info *info, char **out, char *err,
                size_t errlen);

/* Appends s as HTML text, safe in element content and in quoted attribute values: & < > " '
 * as entities; control characters (C0, DEL, C1) as visible escapes (\n, \r, \t, \xNN,
 * \u0085), so a hostile name can neither inject markup nor hide in the page. At most
 * max_chars characters of s (then an ellipsis); max_chars <= 0 keeps all. */
void report_html_escape(ebuf *b, const char *s, int max_chars);

/* The characters (UTF-8 code points) of s. */
int report_text_chars(const char *s);

#endif
