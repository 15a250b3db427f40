/* sim_svg.c — the run's plots as one self-contained SVG (no script, no external font or
 * link): panels stacked on one time axis, each with its own round-numbered value axis.
 *
 *   base height      q[base_z] and the ground's height (floating bases only)
 *   joint positions  every q entry but the floating base's seven, one line each, a legend
 *   normal forces    one line per contact, a legend
 *   energy           kinetic + potential
 *   iterations       the solver's iterations per step; steps that did not converge are red
 *                    ticks along the top, their count in the panel's title
 *
 * A line of more than LINE_POINTS samples is cut into buckets and each bucket gives its
 * smallest and largest value (in time order), so a one-step spike is still drawn. A sample
 * that is not finite breaks the line. The look (white, sans-serif, #1f6fb4 first) is that of
 * bench_report.c's chart. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_trace.h"

enum {
    SVG_WIDTH = 900,
    PLOT_LEFT = 74,     /* room for the value labels */
    PLOT_RIGHT = 696,   /* then the legend */
    LEGEND_X = 712,
    LEGEND_ROW = 15,
    LEGEND_CHARS = 24,  /* a longer name is cut, with an ellipsis */
    PLOT_HEIGHT = 130,  /* at least: a long legend makes its panel taller */
    PANEL_TITLE = 22,   /* from the panel's top to its plot */
    PANEL_GAP = 34,     /* the time labels under a plot, then the next panel */
    HEADER = 64,
    LINE_POINTS = 2000  /* at most about this many points per line */
};

#define INK "#1e293b"
#define MUTED "#64748b"
#define GRID "#e2e8f0"
#define FAILED "#dc2626"

/* Ten colours that stay apart on white, the project's blue first; past ten they repeat
 * dashed, then dotted. */
static const char *const palette[10] = { "#1f6fb4", "#ea580c", "#16a34a", "#dc2626", "#7c3aed",
                                         "#8c564b", "#db2777", "#475569", "#a16207", "#0891b2" };
static const char *const dashes[3] = { "", " stroke-dasharray=\"6 3\"",
                                       " stroke-dasharray=\"2 2\"" };

/* ---- text ---- */

/* The length of the UTF-8 sequence at s, or 0 when it is not valid UTF-8. */
static int utf8_length(const unsigned char *s)
{
    int n, i;
    unsigned long c;
    if (s[0] < 0x80)
        return 1;
    n = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 && s[0] < 0xE0 ? 2 : 0;
    if (n == 0 || (n == 3 && s[0] >= 0xF0))
        return 0;
    c = s[0] & (0x7F >> n);
    for (i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3F);
    }
    if ((n == 3 && (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)))
        return 0;
    return n;
}

/* A name as XML text, as `cdyngen report` writes it: markup escaped, control characters
 * (and C1 controls and the bidirectional overrides, which could reorder the text around
 * it) as visible escapes (\n, \x01, \u202e),
 * bytes that are not UTF-8 as U+FFFD (XML allows neither); cut after max_chars (0: never). */
static void xml_text(FILE *f, const char *s, int max_chars)
{
    const unsigned char *c = (const unsigned char *)s;
    int chars = 0;
    while (*c) {
        int n = utf8_length(c);
        if (max_chars > 0 && ++chars > max_chars) {
            fputs("\xE2\x80\xA6", f); /* … */
            return;
        }
        if (n == 0) {
            fputs("\xEF\xBF\xBD", f);
            c++;
            continue;
        }
        if (n == 1) {
            switch (*c) {
            case '&': fputs("&amp;", f); break;
            case '<': fputs("&lt;", f); break;
            case '>': fputs("&gt;", f); break;
            case '"': fputs("&quot;", f); break;
            case '\'': fputs("&#39;", f); break;
            case '\n': fputs("\\n", f); break;
            case '\r': fputs("\\r", f); break;
            case '\t': fputs("\\t", f); break;
            default:
                if (*c < 0x20 || *c == 0x7F)
                    fprintf(f, "\\x%02x", *c);
                else
                    fputc(*c, f);
            }
        } else if ((n == 2 && c[0] == 0xC2 && c[1] <= 0x9F) ||
                   (n == 3 && c[0] == 0xE2 && c[1] == 0x80 && c[2] >= 0xAA && c[2] <= 0xAE) ||
                   (n == 3 && c[0] == 0xE2 && c[1] == 0x81 && c[2] >= 0xA6 && c[2] <= 0xA9)) {
            fprintf(f, "\\u%04x",
                    n == 2 ? c[1] : ((c[1] & 0x3F) << 6 | (c[2] & 0x3F)) + 0x2000);
        } else {
            fwrite(c, 1, (size_t)n, f);
        }
        c += n;
    }
}

/* ---- the series ---- */

/* One line's samples: data[k * stride + offset] (doubles, or ints when ints is set). */
typedef struct {
    const double *data;
    const int *ints;
    int stride, offset;
} series;

static double sample(const series *s, int k)
{
    const long at = (long)k * s->stride + s->offset;
    return s->ints ? (double)s->ints[at] : s->data[at];
}

/* The finite range of a panel's lines; 0 when no sample is finite. */
static int value_range(const series *lines, int nlines, int n, double *lo, double *hi)
{
    int i, k, any = 0;
    for (i = 0; i < nlines; i++)
        for (k = 0; k < n; k++) {
            const double v = sample(&lines[i], k);
            if (!isfinite(v))
                continue;
            if (!any || v < *lo)
                *lo = v;
            if (!any || v > *hi)
                *hi = v;
            any = 1;
        }
    return any;
}

/* ---- axes ---- */

/* 1, 2 or 5 times a power of ten, near span / 5. */
static double round_step(double span)
{
    const double raw = span / 5, decade = pow(10, floor(log10(raw))), m = raw / decade;
    return decade * (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10);
}

/* A value axis: its ends on round numbers around [lo, hi], and its step. */
typedef struct {
    double lo, hi, step;
    int top, bottom; /* the plot's pixels */
} value_axis;

static value_axis make_value_axis(double lo, double hi, int top, int bottom)
{
    value_axis a;
    double pad = fabs(hi) > 1 ? fabs(hi) * 0.05 : 0.5;
    if (!(hi > lo)) { /* a constant: a band around it */
        lo -= pad;
        hi += pad;
    }
    a.step = round_step(hi - lo);
    a.lo = floor(lo / a.step) * a.step;
    a.hi = ceil(hi / a.step) * a.step;
    if (!isfinite(a.step) || !isfinite(a.lo) || !isfinite(a.hi) || !(a.hi > a.lo)) {
        a.lo = lo; /* too wide for round steps (near the largest double) */
        a.hi = hi;
        a.step = 0;
    }
    a.top = top;
    a.bottom = bottom;
    return a;
}

static double y_of(const value_axis *a, double v)
{
    return a->bottom - (v / 2 - a->lo / 2) / (a->hi / 2 - a->lo / 2) * (a->bottom - a->top);
}

typedef struct {
    double t0, t1;
} time_axis;

static double x_of(const time_axis *ta, double t)
{
    return PLOT_LEFT + (t - ta->t0) / (ta->t1 - ta->t0) * (PLOT_RIGHT - PLOT_LEFT);
}

/* A tick's label: as many decimals as the step needs, never "-0". */
static void format_tick(char *buf, size_t len, double v, double step)
{
    int decimals = step > 0 && step < 1 ? (int)ceil(-log10(step) - 1e-9) : 0;
    if (step > 0 && fabs(v) < step * 1e-6)
        v = 0;
    if (step == 0 || fabs(v) >= 1e6 || decimals > 6)
        snprintf(buf, len, "%.3g", v);
    else
        snprintf(buf, len, "%.*f", decimals, v);
}

static void value_ticks(FILE *f, const value_axis *a)
{
    char label[40];
    int i, n = a->step > 0 ? (int)floor((a->hi - a->lo) / a->step + 0.5) : 1;
    for (i = 0; i <= n; i++) {
        const double v = a->step > 0 ? a->lo + i * a->step : (i ? a->hi : a->lo);
        const double y = y_of(a, v);
        format_tick(label, sizeof label, v, a->step);
        fprintf(f,
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>"
                "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"tick\">%s</text>\n",
                PLOT_LEFT, y, PLOT_RIGHT, y, GRID, PLOT_LEFT - 6, y + 4, label);
    }
}

/* The shared time axis's lines in a panel, labelled under it. */
static void time_ticks(FILE *f, const time_axis *ta, int top, int bottom)
{
    const double step = round_step(ta->t1 - ta->t0), first = ceil(ta->t0 / step - 1e-9) * step;
    char label[40];
    int i;
    for (i = 0; i <= 20 && first + i * step <= ta->t1 + step * 1e-9; i++) {
        const double t = first + i * step, x = x_of(ta, t);
        format_tick(label, sizeof label, t, step);
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>"
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"tick\">%s</text>\n",
                x, top, x, bottom, GRID, x, bottom + 14, label);
    }
}

/* ---- the lines ---- */

typedef struct {
    FILE *f;
    const time_axis *ta;
    const value_axis *va;
    const double *t;
    int pen_down; /* 0: the next point starts a new piece */
} pen;

static void plot_point(pen *p, const series *s, int k)
{
    const double v = sample(s, k);
    const double x = x_of(p->ta, p->t[k]);
    if (!isfinite(v) || !isfinite(x)) {
        p->pen_down = 0;
        return;
    }
    fprintf(p->f, "%c%.1f %.1f ", p->pen_down ? 'L' : 'M', x, y_of(p->va, v));
    p->pen_down = 1;
}

/* Bucket [a, b): its first sample when it is the run's first, its smallest and largest
 * (in time order), its last when it is the run's last; a non-finite sample breaks the line. */
static void plot_bucket(pen *p, const series *s, int a, int b, int n)
{
    int k, kmin = -1, kmax = -1, gap = 0;
    for (k = a; k < b; k++) {
        const double v = sample(s, k);
        if (!isfinite(v)) {
            gap = 1;
            continue;
        }
        if (kmin < 0 || v < sample(s, kmin))
            kmin = k;
        if (kmax < 0 || v > sample(s, kmax))
            kmax = k;
    }
    if (a == 0 && kmin != 0 && kmax != 0)
        plot_point(p, s, 0);
    if (kmin >= 0)
        plot_point(p, s, kmin < kmax ? kmin : kmax);
    if (kmin >= 0 && kmin != kmax)
        plot_point(p, s, kmin < kmax ? kmax : kmin);
    if (b == n && kmin != n - 1 && kmax != n - 1)
        plot_point(p, s, n - 1);
    if (gap)
        p->pen_down = 0;
}

static void plot_line(FILE *f, const sim_trace *tr, const time_axis *ta, const value_axis *va,
                      const series *s, int index)
{
    const int n = tr->nsamples, buckets = n <= LINE_POINTS ? n : LINE_POINTS / 2;
    pen p;
    int b;
    p.f = f;
    p.ta = ta;
    p.va = va;
    p.t = tr->t;
    p.pen_down = 0;
    fprintf(f, "<path class=\"line\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.4\"%s d=\"",
            palette[index % 10], dashes[index / 10 % 3]);
    for (b = 0; b < buckets; b++)
        plot_bucket(&p, s, (int)((long)n * b / buckets), (int)((long)n * (b + 1) / buckets), n);
    fputs("\"/>\n", f);
}

/* ---- the panels ---- */

typedef struct {
    const char *id;           /* the <g>'s id */
    char title[160];          /* plain text, no markup */
    int nlines;
    const series *lines;
    const char *const *names; /* (nlines) the legend, or NULL: no legend */
    int from_zero;            /* the value axis starts at 0 at most (counts) */
} panel;

static int panel_height(const panel *p)
{
    const int legend = p->names ? p->nlines * LEGEND_ROW + 6 : 0;
    return legend > PLOT_HEIGHT ? legend : PLOT_HEIGHT;
}

static void legend(FILE *f, const panel *p, int top)
{
    int i;
    fputs("<g class=\"legend\">\n", f);
    for (i = 0; i < p->nlines; i++) {
        const int y = top + 4 + i * LEGEND_ROW;
        fprintf(f,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>"
                "<text x=\"%d\" y=\"%d\">",
                LEGEND_X, y + 6, LEGEND_X + 18, y + 6, palette[i % 10], dashes[i / 10 % 3],
                LEGEND_X + 24, y + 10);
        xml_text(f, p->names[i], LEGEND_CHARS);
        fputs("</text>\n", f);
    }
    fputs("</g>\n", f);
}

/* A red line across the plot at each step that did not converge (behind the data, one per
 * pixel column): visible however many there are. */
static void failed_ticks(FILE *f, const sim_trace *tr, const time_axis *ta, int top, int bottom)
{
    int k, last_column = -1;
    fputs("<g class=\"not-converged\">", f);
    for (k = 0; k < tr->nsamples; k++) {
        const double x = x_of(ta, tr->t[k]);
        if (tr->converged[k] || !isfinite(x) || (int)x == last_column)
            continue;
        last_column = (int)x;
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                "stroke-opacity=\"0.7\"/>",
                x, top, x, bottom, FAILED);
    }
    fputs("</g>\n", f);
}

/* The panel's bottom y. */
static int draw_panel(FILE *f, const sim_trace *tr, const time_axis *ta, const panel *p, int top,
                      int failed)
{
    const int plot_top = top + PANEL_TITLE, bottom = plot_top + panel_height(p);
    double lo = 0, hi = 1;
    value_axis va;
    int i;
    value_range(p->lines, p->nlines, tr->nsamples, &lo, &hi);
    if (p->from_zero && lo > 0)
        lo = 0;
    va = make_value_axis(lo, hi, plot_top, bottom);
    fprintf(f, "<g class=\"panel\" id=\"%s\">\n<text x=\"%d\" y=\"%d\" class=\"title\">", p->id,
            PLOT_LEFT, top + 14);
    xml_text(f, p->title, 0);
    fputs("</text>\n", f);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#cbd5e1\"/>\n",
            PLOT_LEFT, plot_top, PLOT_RIGHT - PLOT_LEFT, bottom - plot_top);
    value_ticks(f, &va);
    time_ticks(f, ta, plot_top, bottom);
    if (failed)
        failed_ticks(f, tr, ta, plot_top, bottom);
    for (i = 0; i < p->nlines; i++)
        plot_line(f, tr, ta, &va, &p->lines[i], i);
    if (p->names)
        legend(f, p, plot_top);
    fputs("</g>\n", f);
    return bottom;
}

/* ---- the whole picture ---- */

/* The floating base's seven q entries (x y z, then the quaternion) start two before its
 * height; a fixed base has none. */
static int is_base_entry(const sim_trace *tr, int i)
{
    return tr->base_z >= 0 && i >= tr->base_z - 2 && i < tr->base_z + 5;
}

/* The panels and the series they draw: the joints' and contacts' series are the caller's
 * arrays (nq and ncontacts long), the others are here. */
typedef struct {
    panel panels[5];
    int npanels;
    int failed_panel; /* the one with the red ticks, -1: none */
    series base[2];   /* the base height and the ground */
    const char *base_names[2];
    double ground;    /* the ground's series: one value for every sample */
    series energy, iterations;
    char iterations_title[160];
} layout;

static series strided(const double *data, int stride, int offset)
{
    series s;
    s.data = data;
    s.ints = NULL;
    s.stride = stride;
    s.offset = offset;
    return s;
}

static void add_panel(layout *l, const char *id, const char *title, int nlines,
                      const series *lines, const char *const *names)
{
    panel *p = &l->panels[l->npanels++];
    p->id = id;
    snprintf(p->title, sizeof p->title, "%s", title);
    p->nlines = nlines;
    p->lines = lines;
    p->names = names;
    p->from_zero = 0;
}

static int count_failed(const sim_trace *tr)
{
    int k, failed = 0;
    for (k = 0; tr->converged && k < tr->nsamples; k++)
        failed += tr->converged[k] == 0;
    return failed;
}

static void plan_base_height(layout *l, const sim_trace *tr)
{
    if (tr->base_z < 0 || tr->base_z >= tr->nq || !tr->q)
        return;
    l->ground = tr->ground;
    l->base[0] = strided(tr->q, tr->nq, tr->base_z);
    l->base[1] = strided(&l->ground, 0, 0);
    l->base_names[0] = tr->q_names ? tr->q_names[tr->base_z] : "base height";
    l->base_names[1] = "ground";
    add_panel(l, "panel-base-height", "Base height (m)", 2, l->base, l->base_names);
}

static void plan_joints(layout *l, const sim_trace *tr, series *joints, const char **names)
{
    int i, n = 0;
    for (i = 0; tr->q && i < tr->nq; i++)
        if (!is_base_entry(tr, i)) {
            joints[n] = strided(tr->q, tr->nq, i);
            names[n++] = tr->q_names ? tr->q_names[i] : "?";
        }
    if (n > 0)
        add_panel(l, "panel-joints", "Joint positions (rad; m for prismatic joints)", n, joints,
                  names);
}

static void plan_forces(layout *l, const sim_trace *tr, series *forces)
{
    int i;
    if (!tr->normal_force || tr->ncontacts <= 0)
        return;
    for (i = 0; i < tr->ncontacts; i++)
        forces[i] = strided(tr->normal_force, tr->ncontacts, i);
    add_panel(l, "panel-normal-force", "Normal force per contact (N)", tr->ncontacts, forces,
              tr->contact_names);
}

static void plan_iterations(layout *l, const sim_trace *tr)
{
    const int failed = count_failed(tr);
    if (!tr->iterations)
        return;
    l->iterations.data = NULL;
    l->iterations.ints = tr->iterations;
    l->iterations.stride = 1;
    l->iterations.offset = 0;
    if (failed == 0)
        snprintf(l->iterations_title, sizeof l->iterations_title,
                 "Solver iterations per step: every step converged");
    else
        snprintf(l->iterations_title, sizeof l->iterations_title,
                 "Solver iterations per step: %d step%s did not converge (red)", failed,
                 failed == 1 ? "" : "s");
    l->failed_panel = tr->converged ? l->npanels : -1;
    add_panel(l, "panel-iterations", l->iterations_title, 1, &l->iterations, NULL);
    l->panels[l->npanels - 1].from_zero = 1;
}

static void plan(layout *l, const sim_trace *tr, series *joints, const char **joint_names,
                 series *forces)
{
    l->npanels = 0;
    l->failed_panel = -1;
    plan_base_height(l, tr);
    plan_joints(l, tr, joints, joint_names);
    plan_forces(l, tr, forces);
    if (tr->energy) {
        l->energy = strided(tr->energy, 1, 0);
        add_panel(l, "panel-energy", "Energy: kinetic + potential (J)", 1, &l->energy, NULL);
    }
    plan_iterations(l, tr);
}

static void header(FILE *f, const sim_trace *tr, int height)
{
    const double duration = tr->t[tr->nsamples - 1] - tr->t[0];
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<style>.title{font-size:13px;font-weight:bold;fill:" INK "}.head{font-size:16px;"
            "font-weight:bold;fill:" INK "}.sub{fill:#444}.tick{fill:#555;font-size:11px}"
            "</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"12\" y=\"24\" class=\"head\">cdyngen simulate: ",
            SVG_WIDTH, height, SVG_WIDTH, height);
    xml_text(f, tr->robot ? tr->robot : "?", 0);
    if (tr->urdf) {
        fputs(" (", f);
        xml_text(f, tr->urdf, 0);
        fputs(")", f);
    }
    fputs("</text>\n<text x=\"12\" y=\"44\" class=\"sub\">", f);
    xml_text(f, tr->model ? tr->model : "?", 0);
    fprintf(f, " contact, dt = %g s, %d steps, %g s simulated</text>\n",
            tr->dt, tr->nsamples - 1, duration);
}

static int trace_usable(const sim_trace *tr)
{
    return tr && tr->nsamples >= 1 && tr->t && tr->nq >= 0 && tr->ncontacts >= 0 &&
           (tr->ncontacts == 0 || !tr->normal_force || tr->contact_names);
}

/* The run's first to last time; a run of one sample (or of times that are not finite)
 * spans a step from its first. */
static time_axis make_time_axis(const sim_trace *tr)
{
    time_axis ta;
    ta.t0 = isfinite(tr->t[0]) ? tr->t[0] : 0;
    ta.t1 = tr->t[tr->nsamples - 1];
    if (!(ta.t1 > ta.t0) || !isfinite(ta.t1 - ta.t0))
        ta.t1 = ta.t0 + (tr->dt > 0 && isfinite(tr->dt) ? tr->dt : 1);
    return ta;
}

static void write_plots(FILE *f, const sim_trace *tr, const layout *l)
{
    const time_axis ta = make_time_axis(tr);
    int i, y, height = HEADER + 16; /* and the time axis's name under the last panel */
    for (i = 0; i < l->npanels; i++)
        height += PANEL_TITLE + panel_height(&l->panels[i]) + PANEL_GAP;
    header(f, tr, height);
    for (i = 0, y = HEADER; i < l->npanels; i++)
        y = draw_panel(f, tr, &ta, &l->panels[i], y, i == l->failed_panel) + PANEL_GAP;
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"tick\">time (s)</text>\n",
            PLOT_RIGHT, y - PANEL_GAP + 30);
    fputs("</svg>\n", f);
}

int sim_write_svg(const sim_trace *tr, FILE *f)
{
    layout l;
    series *joints, *forces;
    const char **joint_names;
    int failed = 0;
    if (!f || !trace_usable(tr))
        return -1;
    joints = malloc(sizeof *joints * (size_t)(tr->nq + 1));
    joint_names = malloc(sizeof *joint_names * (size_t)(tr->nq + 1));
    forces = malloc(sizeof *forces * (size_t)(tr->ncontacts + 1));
    if (joints && joint_names && forces) {
        plan(&l, tr, joints, joint_names, forces);
        write_plots(f, tr, &l);
    } else {
        failed = 1;
    }
    free(joints);
    free(joint_names);
    free(forces);
    return failed || fflush(f) != 0 || ferror(f) ? -1 : 0;
}
