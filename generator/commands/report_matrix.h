/* report_matrix.h — the sparsity patterns of `cdyngen report`, drawn as SVG grids. */
#ifndef CDYNGEN_REPORT_MATRIX_H
#define CDYNGEN_REPORT_MATRIX_H

#include "model/tree.h"

typedef struct {
    const char *id;     /* "M", "L", "KKT", "Maug": the SVG's id is "matrix-" id */
    const char *title;  /* HTML */
    const char *legend; /* HTML: what the colours mean */
    int n;              /* rows (= columns) */
    long nnz;           /* filled cells, counted as they are drawn */
    long of;            /* cells of the part drawn (all of M, a factor's lower triangle) */
    char *svg;
} report_matrix;

#define REPORT_MAX_MATRICES 4

/* M and its LTL factor; with constraints, the KKT factor of [[-mu I, J], [J^T, M]]
 * (constraints first) and proxLTLs' factor of M + J^T J / mu. Returns how many (m has room
 * for REPORT_MAX_MATRICES), or -1 when out of memory. */
int report_matrices(const kin_tree *t, report_matrix *m);
void report_matrices_free(report_matrix *m, int n);

#endif
