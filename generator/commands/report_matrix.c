/* report_matrix.c — the sparsity patterns the code is emitted on, as SVG grids.
 *
 * Each pattern is an n x n byte matrix whose nonzero cells name the block they belong to
 * (a colour); the drawing counts the cells it fills, so the count printed beside a matrix
 * is the count of what is drawn, and the report test checks it against --summary. */
#include <stdlib.h>
#include <string.h>
#include "model/constraints.h"
#include "symbolic/expr.h"
#include "commands/report_matrix.h"

enum { CELL_M = 1, CELL_G = 2, CELL_B = 3, CELL_FILL = 4, NCLASSES = 5 };

#define TARGET_PX 256 /* a matrix's side, about (four fit a laptop's width) */
#define LABEL_W 26    /* room for row numbers */
#define LABEL_H 14    /* and column numbers */

/* 2 to 14 px: a 1000-DoF pattern is 2000 px wide and scrolls, a 3-DoF one stays small */
static int cell_px(int n)
{
    int cs = n > 0 ? TARGET_PX / n : 14;
    return cs < 2 ? 2 : cs > 14 ? 14 : cs;
}

/* Row and column numbers every `step` DoFs. */
static void draw_labels(ebuf *b, int n, int cs)
{
    int step = n <= 20 ? 5 : n <= 100 ? 10 : n <= 400 ? 50 : 100, i;
    for (i = 0; i < n; i += step)
        ebuf_printf(b,
                    "<text class=\"lx\" x=\"%g\" y=\"%d\">%d</text>"
                    "<text class=\"ly\" x=\"%d\" y=\"%g\">%d</text>",
                    LABEL_W + (i + 0.5) * cs, LABEL_H - 4, i, LABEL_W - 4,
                    LABEL_H + (i + 0.5) * cs + 3, i);
}

/* One path per colour, a rectangle per run of equal cells in a row: a 1000-DoF pattern
 * stays a few hundred kilobytes. Returns the filled cells. */
static long draw_cells(ebuf *b, const unsigned char *cells, int n, int cs)
{
    long nnz = 0;
    int cls, i, j;
    for (cls = 1; cls < NCLASSES; cls++) {
        int open = 0;
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++) {
                int run = 0;
                while (j + run < n && cells[(size_t)i * n + j + run] == cls)
                    run++;
                if (run == 0)
                    continue;
                if (!open++)
                    ebuf_printf(b, "<path class=\"c%d\" d=\"", cls);
                ebuf_printf(b, "M%d %dh%dv%dh-%dz", LABEL_W + j * cs, LABEL_H + i * cs, run * cs,
                            cs, run * cs);
                nnz += run;
                j += run - 1;
            }
        if (open)
            ebuf_puts(b, "\"/>");
    }
    return nnz;
}

/* The grid, the cells, a line between the constraint and DoF blocks (split > 0), the
 * outline and the numbers. */
static char *draw_matrix(const char *id, const unsigned char *cells, int n, int split, long *nnz)
{
    ebuf b = { 0, 0, 0, 0 };
    int cs = cell_px(n), side = n * cs, w = LABEL_W + side + 2, h = LABEL_H + side + 2;
    ebuf_printf(&b,
                "<svg id=\"matrix-%s\" class=\"matrix\" width=\"%d\" height=\"%d\" "
                "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"sparsity of %s\">",
                id, w, h, w, h, id);
    if (cs >= 5)
        ebuf_printf(&b,
                    "<defs><pattern id=\"grid-%s\" width=\"%d\" height=\"%d\" "
                    "patternUnits=\"userSpaceOnUse\" x=\"%d\" y=\"%d\"><path class=\"grid\" "
                    "d=\"M%d 0H0V%d\"/></pattern></defs><rect x=\"%d\" y=\"%d\" width=\"%d\" "
                    "height=\"%d\" fill=\"url(#grid-%s)\"/>",
                    id, cs, cs, LABEL_W, LABEL_H, cs, cs, LABEL_W, LABEL_H, side, side, id);
    *nnz = draw_cells(&b, cells, n, cs);
    if (split > 0)
        ebuf_printf(&b, "<path class=\"split\" d=\"M%d %dv%dM%d %dh%d\"/>", LABEL_W + split * cs,
                    LABEL_H, side, LABEL_W, LABEL_H + split * cs, side);
    ebuf_printf(&b, "<rect class=\"outline\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>",
                LABEL_W, LABEL_H, side, side);
    draw_labels(&b, n, cs);
    ebuf_puts(&b, "</svg>");
    return ebuf_take(&b);
}

/* ---- the patterns ---- */

/* M (full) or its factor (lower): DoF i couples with itself and its ancestors. */
static void tree_cells(const kin_tree *t, unsigned char *cells, int n, int offset, int full)
{
    int i, j;
    for (i = 0; i < t->nv; i++)
        for (j = i; j >= 0; j = t->dof_parent[j]) {
            cells[(size_t)(offset + i) * n + offset + j] = CELL_M;
            if (full)
                cells[(size_t)(offset + j) * n + offset + i] = CELL_M;
        }
}

/* Constraints first: the factor of -(G + mu I), then B = D^-1 L^-T J^T on each support
 * (the rows of the DoFs, the columns of the constraints), then M's own factor. */
static int kkt_cells(const kin_tree *t, unsigned char *cells, int n)
{
    int nc = t->nc, r, c, i;
    unsigned char *g = malloc((size_t)(nc > 0 ? nc * nc : 1));
    if (!g || tree_constraint_factor_pattern(t, g) < 0) {
        free(g);
        return -1;
    }
    for (r = 0; r < nc; r++)
        for (c = 0; c <= r; c++)
            cells[(size_t)r * n + c] = g[r * nc + c] ? CELL_G : 0;
    for (i = 0; i < t->nv; i++)
        for (r = 0; r < nc; r++)
            if (tree_constraint_index(t, r, i) >= 0)
                cells[(size_t)(nc + i) * n + r] = CELL_B;
    tree_cells(t, cells, n, nc, 0);
    free(g);
    return 0;
}

/* M + J^T J / mu: M's factor, and the fill a loop causes in another colour. */
static int augmented_cells(const kin_tree *t, unsigned char *cells, int n)
{
    unsigned char *a = malloc((size_t)n * n + 1);
    size_t k;
    if (!a || tree_augmented_pattern(t, a) < 0) {
        free(a);
        return -1;
    }
    tree_cells(t, cells, n, 0, 0);
    for (k = 0; k < (size_t)n * n; k++)
        if (a[k] && !cells[k])
            cells[k] = CELL_FILL;
    free(a);
    return 0;
}

static const struct {
    const char *id, *title, *legend;
} matrix_text[REPORT_MAX_MATRICES] = {
    { "M", "M, the joint-space inertia matrix",
      "<i class=\"sw c1\"></i>M(i,j) can be nonzero only when one DoF is the other or its "
      "ancestor; full symmetric" },
    { "L", "L<sup>T</sup>DL factor of M",
      "<i class=\"sw c1\"></i>lower triangle, D on the diagonal: Featherstone's order keeps the "
      "tree's pattern, no fill-in" },
    { "KKT", "KKT factor of [[&minus;&mu;I, J], [J<sup>T</sup>, M]], constraints first",
      "<i class=\"sw c2\"></i>factor of &minus;(G + &mu;I) <i class=\"sw c3\"></i>B = "
      "D<sup>&minus;1</sup>L<sup>&minus;T</sup>J<sup>T</sup> on each support "
      "<i class=\"sw c1\"></i>M's factor" },
    { "Maug", "proxLTLs factor of M + J<sup>T</sup>J/&mu;",
      "<i class=\"sw c1\"></i>M's factor <i class=\"sw c4\"></i>fill-in where a loop couples "
      "two branches" },
};

/* proxLTLs' factor of a contact set: a contact's support is one chain to the root. */
static const char no_fill_legend[] =
    "<i class=\"sw c1\"></i>M's factor itself: each "
    "contact's support is one chain to the root, and J<sup>T</sup>J adds no fill-in";

static int fill_matrix(const kin_tree *t, int which, report_matrix *m)
{
    int n = which == 2 ? t->nc + t->nv : t->nv, rc = 0;
    unsigned char *cells = calloc((size_t)n * n + 1, 1);
    if (!cells)
        return -1;
    if (which == 0 || which == 1)
        tree_cells(t, cells, n, 0, which == 0);
    else
        rc = which == 2 ? kkt_cells(t, cells, n) : augmented_cells(t, cells, n);
    m->id = matrix_text[which].id;
    m->title = matrix_text[which].title;
    m->legend = which == 3 && !memchr(cells, CELL_FILL, (size_t)n * n) ? no_fill_legend
                                                                       : matrix_text[which].legend;
    m->n = n;
    m->of = which == 0 ? (long)n * n : (long)n * (n + 1) / 2;
    m->svg = rc == 0 ? draw_matrix(m->id, cells, n, which == 2 ? t->nc : 0, &m->nnz) : NULL;
    free(cells);
    return m->svg ? 0 : -1;
}

int report_matrices(const kin_tree *t, report_matrix *m)
{
    int count = t->nconstraints > 0 ? 4 : 2, i;
    memset(m, 0, REPORT_MAX_MATRICES * sizeof *m);
    for (i = 0; i < count; i++)
        if (fill_matrix(t, i, &m[i]) < 0) {
            report_matrices_free(m, count);
            return -1;
        }
    return count;
}

void report_matrices_free(report_matrix *m, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        free(m[i].svg);
        m[i].svg = NULL;
    }
}
