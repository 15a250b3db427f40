/* report_tree.c — the kinematic tree as an inline SVG for `cdyngen report`.
 *
 * A tidy top-down layout computed here, so the page needs no layout library. Node 0 is the
 * world, node 1 + i is body i. Leaves take consecutive columns in joint order (depth first,
 * so no two edges cross), each parent is centred over its first and last child, and each
 * depth is one row, as tall as its tallest node. The SVG keeps its natural size: a wide tree
 * scrolls in the page rather than shrinking its text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/report_text.h"
#include "commands/report_tree.h"
#include "commands/summary.h"

#define NODE_W 200  /* node width, px */
#define PAD 8       /* text inset in a node */
#define GAP_X 18    /* between columns */
#define GAP_Y 48    /* between rows: room for contact marks above the edges' elbows */
#define MARGIN_X 40 /* room for a loop drawn beside a column */
#define MARGIN_Y 16
#define HEAD_H 40          /* a node's name and type lines */
#define FRAME_H 13         /* one frame line */
#define MAX_FRAME_LINES 12 /* more frames end in "+N more" (the frame table has them all) */
#define MAX_NAME_CHARS 34  /* longer names are cut; the node's tooltip has the whole name */
#define LOOP_DROP 70       /* how far a loop's curve bows away from its bodies */
#define CONTACT_H 24       /* a contact's ground mark under its body */

typedef struct {
    const kin_tree *t;
    int n;        /* nodes: the world and the bodies */
    double *x;    /* centre of each node */
    int *y, *h;   /* top and height of each node */
    int *nframes; /* frames on each node */
    int *nchildren;
    int *row_y, *row_h; /* per depth (the world is depth 0) */
    int width, height;
} layout;

static int node_depth(const layout *L, int k)
{
    return k == 0 ? 0 : L->t->depth[k - 1];
}

static int node_parent(const layout *L, int k)
{
    return L->t->bodies[k - 1].parent + 1;
}

static int frame_lines(int nframes)
{
    return nframes > MAX_FRAME_LINES ? MAX_FRAME_LINES + 1 : nframes;
}

static void layout_free(layout *L)
{
    free(L->x);
    free(L->y);
    free(L->h);
    free(L->nframes);
    free(L->nchildren);
    free(L->row_y);
    free(L->row_h);
}

/* On failure the caller still layout_frees what was allocated. */
static int layout_alloc(layout *L, const kin_tree *t)
{
    size_t n = (size_t)t->nbodies + 1, rows = (size_t)t->max_depth + 1;
    memset(L, 0, sizeof *L);
    L->t = t;
    L->n = (int)n;
    L->x = calloc(n, sizeof *L->x);
    L->y = calloc(n, sizeof *L->y);
    L->h = calloc(n, sizeof *L->h);
    L->nframes = calloc(n, sizeof *L->nframes);
    L->nchildren = calloc(n, sizeof *L->nchildren);
    L->row_y = calloc(rows, sizeof *L->row_y);
    L->row_h = calloc(rows, sizeof *L->row_h);
    return L->x && L->y && L->h && L->nframes && L->nchildren && L->row_y && L->row_h ? 0 : -1;
}

/* Leaves in joint order one column each; then, children before parents (a parent's index
 * is smaller), each parent centred over the span of its children. */
static int place_columns(layout *L)
{
    double *lo = malloc((size_t)L->n * sizeof *lo), *hi = malloc((size_t)L->n * sizeof *hi);
    int k, columns = 0;
    if (!lo || !hi) {
        free(lo);
        free(hi);
        return -1;
    }
    for (k = 1; k < L->n; k++)
        L->nchildren[node_parent(L, k)]++;
    for (k = 0; k < L->n; k++) {
        lo[k] = hi[k] = -1;
        if (L->nchildren[k] == 0)
            L->x[k] = MARGIN_X + columns++ * (NODE_W + GAP_X) + NODE_W / 2;
    }
    for (k = L->n - 1; k >= 0; k--) {
        if (L->nchildren[k] > 0)
            L->x[k] = (lo[k] + hi[k]) / 2;
        if (k > 0) {
            int p = node_parent(L, k);
            if (lo[p] < 0 || L->x[k] < lo[p])
                lo[p] = L->x[k];
            if (L->x[k] > hi[p])
                hi[p] = L->x[k];
        }
    }
    free(lo);
    free(hi);
    L->width = 2 * MARGIN_X + columns * (NODE_W + GAP_X) - GAP_X;
    return 0;
}

/* One row per depth, as tall as its tallest node. */
static void place_rows(layout *L)
{
    const kin_tree *t = L->t;
    int k, d;
    for (k = 0; k < t->nframes; k++)
        L->nframes[t->frames[k].body + 1]++;
    for (k = 0; k < L->n; k++) {
        int lines = frame_lines(L->nframes[k]);
        L->h[k] = HEAD_H + (lines ? 8 + lines * FRAME_H : 0);
        if (L->h[k] > L->row_h[node_depth(L, k)])
            L->row_h[node_depth(L, k)] = L->h[k];
    }
    L->row_y[0] = MARGIN_Y;
    for (d = 1; d <= t->max_depth; d++)
        L->row_y[d] = L->row_y[d - 1] + L->row_h[d - 1] + GAP_Y;
    for (k = 0; k < L->n; k++)
        L->y[k] = L->row_y[node_depth(L, k)];
    L->height = L->row_y[t->max_depth] + L->row_h[t->max_depth] + CONTACT_H + MARGIN_Y;
}

/* ---- drawing ---- */

/* A text element with the width it has (data-fit): the page's script squeezes a longer
 * one into it, once the font is known; without the script the node clips it. */
static void svg_text(ebuf *b, double x, int y, const char *cls, const char *s, int avail)
{
    ebuf_printf(b, "<text x=\"%g\" y=\"%d\" class=\"%s\" data-fit=\"%d\">", x, y, cls, avail);
    report_html_escape(b, s, MAX_NAME_CHARS);
    ebuf_puts(b, "</text>");
}

static int frame_constrained(const kin_tree *t, int f)
{
    int c;
    for (c = 0; c < t->nconstraints; c++)
        if (t->constraints[c].frame_a == f || t->constraints[c].frame_b == f)
            return 1;
    return 0;
}

/* A frame line: a dot for the body's own link, a diamond for a link merged by a fixed
 * joint (grey when it has no inertia), red when a constraint holds it. */
static void draw_frame_line(ebuf *b, const kin_tree *t, int f, int own, int y)
{
    const char *cls = frame_constrained(t, f)     ? "fm con"
                      : own                       ? "fm own"
                      : t->frames[f].has_inertial ? "fm"
                                                  : "fm massless";
    if (own)
        ebuf_printf(b, "<circle class=\"%s\" cx=\"%d\" cy=\"%d\" r=\"2.8\"/>", cls, PAD + 3, y - 4);
    else
        ebuf_printf(b, "<path class=\"%s\" d=\"M%d %dl3 3-3 3-3-3z\"/>", cls, PAD + 3, y - 7);
    svg_text(b, PAD + 11, y,
             frame_constrained(t, f)            ? "fn con"
             : t->frames[f].has_inertial || own ? "fn"
                                                : "fn massless",
             t->frames[f].name, NODE_W - PAD - 11 - 4);
}

/* The node's frames, its own link first, at most MAX_FRAME_LINES. */
static void draw_frames(ebuf *b, const layout *L, int k)
{
    const kin_tree *t = L->t;
    const char *own = k > 0 ? t->bodies[k - 1].link_name : NULL;
    int pass, f, line = 0, y = HEAD_H + 4;
    if (L->nframes[k] == 0)
        return;
    ebuf_printf(b, "<line class=\"sep\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", PAD, y - 3,
                NODE_W - PAD, y - 3);
    for (pass = 0; pass < 2; pass++)
        for (f = 0; f < t->nframes; f++) {
            int is_own = own && strcmp(t->frames[f].name, own) == 0;
            if (t->frames[f].body + 1 != k || is_own != (pass == 0))
                continue;
            if (line++ < MAX_FRAME_LINES)
                draw_frame_line(b, t, f, is_own, y + line * FRAME_H - 2);
        }
    if (L->nframes[k] > MAX_FRAME_LINES)
        ebuf_printf(b, "<text x=\"%d\" y=\"%d\" class=\"fn more\">+%d more (frame table)</text>",
                    PAD + 11, y + (MAX_FRAME_LINES + 1) * FRAME_H - 2,
                    L->nframes[k] - MAX_FRAME_LINES);
}

static const char *kind_class(tree_joint_kind k)
{
    static const char *names[] = { "revolute", "continuous", "prismatic", "planar", "freeflyer" };
    return names[k];
}

static void draw_node(ebuf *b, const layout *L, int k)
{
    const kin_tree *t = L->t;
    const tree_body *body = k > 0 ? &t->bodies[k - 1] : NULL;
    char axis[64], line[128];
    ebuf_printf(b, "<g class=\"node %s\" transform=\"translate(%g %d)\">",
                body ? kind_class(body->kind) : "world", L->x[k] - NODE_W / 2, L->y[k]);
    if (body) {
        ebuf_printf(b, "<a href=\"#joint-%d\"><title>", k);
        report_html_escape(b, body->joint_name, 0);
        ebuf_puts(b, " (link ");
        report_html_escape(b, body->link_name, 0);
        ebuf_puts(b, ")</title>");
    }
    ebuf_printf(b,
                "<rect class=\"box\" width=\"%d\" height=\"%d\" rx=\"6\"/>"
                "<rect class=\"band\" width=\"%d\" height=\"5\" rx=\"2\"/>"
                "<g clip-path=\"url(#node-clip)\">",
                NODE_W, L->h[k], NODE_W);
    if (body) {
        summary_axis_text(body, axis, sizeof axis);
        snprintf(line, sizeof line, "%s %s", summary_kind_name(body->kind),
                 body->kind == TREE_FREEFLYER ? "" : axis);
        svg_text(b, PAD, 21, "jn", body->joint_name, NODE_W - 2 * PAD);
        svg_text(b, PAD, 35, "jt", line, NODE_W - 2 * PAD - 40);
        ebuf_printf(b, "<text x=\"%d\" y=\"35\" class=\"jv\">v %d</text>", NODE_W - PAD,
                    body->idx_v);
    } else {
        ebuf_printf(b,
                    "<text x=\"%d\" y=\"21\" class=\"jn\">world</text>"
                    "<text x=\"%d\" y=\"35\" class=\"jt\">%s</text>",
                    PAD, PAD, t->floating ? "free-flyer base" : "fixed base");
    }
    draw_frames(b, L, k);
    ebuf_puts(b, body ? "</g></a></g>\n" : "</g></g>\n");
}

/* Parent bottom, down to the middle of the gap, across, down to the child. */
static void draw_edges(ebuf *b, const layout *L)
{
    int k;
    ebuf_puts(b, "<g class=\"edges\">");
    for (k = 1; k < L->n; k++) {
        int p = node_parent(L, k), d = node_depth(L, p);
        ebuf_printf(b, "<path d=\"M%g %dV%dH%gV%d\"/>", L->x[p], L->y[p] + L->h[p],
                    L->row_y[d] + L->row_h[d] + GAP_Y / 2, L->x[k], L->y[k]);
    }
    ebuf_puts(b, "</g>\n");
}

/* A ground mark under the body, at its right, one per contact. */
static void draw_contacts(ebuf *b, const layout *L)
{
    const kin_tree *t = L->t;
    int *drawn = calloc((size_t)L->n, sizeof *drawn), c;
    if (!drawn) {
        b->oom = 1;
        return;
    }
    for (c = 0; c < t->nconstraints; c++) {
        const tree_constraint *con = &t->constraints[c];
        int k = t->frames[con->frame_a].body + 1, y;
        double gx;
        if (con->is_loop)
            continue;
        gx = L->x[k] + NODE_W / 2 - 26 - 40 * drawn[k]++;
        y = L->y[k] + L->h[k];
        if (con->friction)
            ebuf_puts(b, "<g class=\"contact\"><title>frictional contact (unilateral) at ");
        else
            ebuf_printf(b, "<g class=\"contact\"><title>contact %dd at ", con->dim);
        report_html_escape(b, t->frames[con->frame_a].name, 0);
        ebuf_printf(b,
                    " (rows %d-%d)</title><path d=\"M%g %dv13m-11 0h22m-19 0l-4 6m10-6l-4 "
                    "6m10-6l-4 6m10-6l-4 6\"/><text x=\"%g\" y=\"%d\">%s</text></g>\n",
                    con->row, con->row + con->dim - 1, gx, y, gx + 13, y + 11,
                    con->friction ? "\xce\xbc" : con->dim == 3 ? "3d" : "6d");
    }
    free(drawn);
}

/* A dashed curve between the two bodies, bowing below them (beside them when one is
 * straight above the other), and the loop's dimension at its middle. */
static void draw_loop(ebuf *b, const layout *L, const tree_constraint *con, int nth)
{
    const kin_tree *t = L->t;
    int ka = t->frames[con->frame_a].body + 1, kb = t->frames[con->frame_b].body + 1;
    double drop = LOOP_DROP + 16 * nth, x0, y0, x1, y1, c0x, c0y, c1x, c1y;
    if (L->x[ka] == L->x[kb]) {
        x0 = x1 = L->x[ka] - NODE_W / 2;
        y0 = L->y[ka] + L->h[ka] / 2.0;
        y1 = L->y[kb] + L->h[kb] / 2.0;
        c0x = c1x = x0 - drop / 2;
        c0y = y0;
        c1y = y1;
    } else {
        double side = L->x[ka] < L->x[kb] ? NODE_W / 4 : -NODE_W / 4;
        x0 = L->x[ka] + side;
        x1 = L->x[kb] - side;
        y0 = L->y[ka] + L->h[ka];
        y1 = L->y[kb] + L->h[kb];
        c0x = x0;
        c1x = x1;
        c0y = y0 + drop;
        c1y = y1 + drop;
    }
    ebuf_printf(b, "<g class=\"loop\"><title>loop %dd: ", con->dim);
    report_html_escape(b, t->frames[con->frame_a].name, 0);
    ebuf_puts(b, " held on ");
    report_html_escape(b, t->frames[con->frame_b].name, 0);
    ebuf_printf(b,
                "</title><path d=\"M%g %gC%g %g %g %g %g %g\"/>"
                "<circle cx=\"%g\" cy=\"%g\" r=\"3\"/><circle cx=\"%g\" cy=\"%g\" r=\"3\"/>"
                "<text x=\"%g\" y=\"%g\">loop %dd</text></g>\n",
                x0, y0, c0x, c0y, c1x, c1y, x1, y1, x0, y0, x1, y1,
                (x0 + 3 * c0x + 3 * c1x + x1) / 8, (y0 + 3 * c0y + 3 * c1y + y1) / 8 + 4, con->dim);
}

/* The lowest point a loop's curve reaches. */
static int loops_bottom(const layout *L)
{
    const kin_tree *t = L->t;
    int c, nth = 0, bottom = 0;
    for (c = 0; c < t->nconstraints; c++) {
        const tree_constraint *con = &t->constraints[c];
        int ka, kb, y;
        if (!con->is_loop)
            continue;
        ka = t->frames[con->frame_a].body + 1;
        kb = t->frames[con->frame_b].body + 1;
        y = (L->y[ka] + L->h[ka] > L->y[kb] + L->h[kb] ? L->y[ka] + L->h[ka]
                                                       : L->y[kb] + L->h[kb]) +
            (LOOP_DROP + 16 * nth++) * 3 / 4 + 12;
        if (y > bottom)
            bottom = y;
    }
    return bottom;
}

int report_tree_svg(ebuf *b, const kin_tree *t)
{
    layout L;
    int k, c, nth = 0;
    if (layout_alloc(&L, t) < 0 || place_columns(&L) < 0) {
        layout_free(&L);
        b->oom = 1;
        return -1;
    }
    place_rows(&L);
    if (loops_bottom(&L) + MARGIN_Y > L.height)
        L.height = loops_bottom(&L) + MARGIN_Y;
    ebuf_printf(b,
                "<svg id=\"tree\" class=\"tree\" width=\"%d\" height=\"%d\" "
                "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"kinematic tree\" "
                "data-nodes=\"%d\">\n",
                L.width, L.height, L.width, L.height, L.n);
    /* in each node's own coordinates: its text never runs out of it */
    ebuf_printf(b,
                "<defs><clipPath id=\"node-clip\"><rect x=\"2\" width=\"%d\" height=\"%d\"/>"
                "</clipPath></defs>\n",
                NODE_W - 4, L.height);
    draw_edges(b, &L);
    draw_contacts(b, &L);
    for (k = 0; k < L.n; k++)
        draw_node(b, &L, k);
    for (c = 0; c < t->nconstraints; c++)
        if (t->constraints[c].is_loop)
            draw_loop(b, &L, &t->constraints[c], nth++);
    ebuf_puts(b, "</svg>\n");
    layout_free(&L);
    return b->oom ? -1 : 0;
}
