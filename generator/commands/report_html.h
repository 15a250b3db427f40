/* report_html.h — `cdyngen report`: how the generator understood a robot, as one
 * self-contained HTML page (no network: CSS, script and SVG inline). The page shows the
 * kinematic tree as a diagram, the sparsity patterns the code is emitted on, the joints in
 * Pinocchio's order, the frames, the op counts per algorithm and what was specialised. */
#ifndef CDYNGEN_REPORT_HTML_H
#define CDYNGEN_REPORT_HTML_H

#include <stddef.h>
#include "symbolic/expr.h"
#include "model/tree.h"

typedef struct {
    const char *urdf_file; /* the URDF's file name, for the header */
    const char *options;   /* the generation options (pipeline_options_text) */
    const char *version;   /* CDYNGEN_VERSION */
} report_info;

/* The page for t (constraints included), from <!DOCTYPE html> on: output_write_all puts
 * the OUTPUT_MARKER comment above it. Returns 0 and a malloc'd *out, or -1 with a message
 * in err. No I/O. */
int report_html(const kin_tree *t, const report_info *info, char **out, char *err, size_t errlen);

#endif
