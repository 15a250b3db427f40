/* test_sim_writers.c — the SVG plots and the HTML animation of `cdyngen simulate`
 * (harness/sim_svg.c, harness/sim_html.c), on a trace built here whose every value the test
 * knows: a floating base carrying a two-link pendulum, its points computed here from its
 * angles, two contacts going from separated to sticking to sliding.
 *
 *  SVG:  well-formed XML (libxml2), no script or link; its panels in order, each with its
 *        lines; a short run's lines are its samples (read back through the axes' labels);
 *        the legends name the joints and the contacts; the count of the steps that
 *        did not converge is in the iterations' title and has as many red ticks; a fixed
 *        base has no base panel; a line of 100001 samples is cut to about 2000 points, its
 *        first and last samples kept and a one-sample spike still drawn.
 *  HTML: the sim-data JSON, parsed here, holds exactly the trace's names, dt, ground and,
 *        frame by frame, its times, q, points, contact points and states, bit for bit; the
 *        frames are every fourth sample at 240 Hz (60 per second) and about 60 per second
 *        at other steps, the first and last always; numbers that are not finite are null;
 *        the sim-forces JSON has the normal forces of the same samples.
 *  Both: hostile names (markup, quotes, "</script>", control and non-UTF-8 bytes) come out
 *        as text; the series a run may lack (contacts, energy, solver counts) are left out;
 *        a write that fails (a read-only stream, /dev/full) returns -1.
 *
 * `test_sim_writers --page FILE` writes the synthetic page with hostile names and a NaN for
 * tests/scripts/sim_page_check.cmake to load in a browser (121 frames); --svg FILE its plots,
 * to look at. */
#include <check.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_trace.h"
#include "support/check_main.h"

/* ---- the synthetic trace ---- */

enum { NQ = 9, NV = 8, NPOINTS = 3, NCONTACTS = 2, NQ_FIXED = 2 };
static const double L1 = 0.4, L2 = 0.3;

typedef struct {
    sim_trace tr;
    double *t, *q, *v, *points, *contact_point, *normal_force, *friction_force, *penetration,
        *energy, *residual;
    int *contact_state, *iterations, *converged;
} synthetic;

static const char *const plain_q_names[NQ] = { "base_x",  "base_y",  "base_z",
                                               "base_qx", "base_qy", "base_qz",
                                               "base_qw", "shoulder", "elbow" };
static const char *const plain_v_names[NV] = { "base_vx", "base_vy", "base_vz", "base_wx",
                                               "base_wy", "base_wz", "shoulder", "elbow" };
static const char *const plain_point_names[NPOINTS] = { "base", "upper_arm", "tip" };
static const int point_parent[NPOINTS] = { -1, 0, 1 };
static const char *const plain_contact_names[NCONTACTS] = { "tip_contact", "elbow_contact" };

#define HOSTILE_ROBOT "<script>alert(1)</script> & \"co'"
static const char *const hostile_q_names[NQ] = { "base_x",  "base_y",  "base_z",
                                                 "base_qx", "base_qy", "base_qz",
                                                 "base_qw", "</text><script>x()",
                                                 "el&bow \"q\"" };
static const char *const hostile_point_names[NPOINTS] = { "</script><script>alert(2)",
                                                          "arm&amp;", "bad\xff\x01tip" };
static const char *const hostile_contact_names[NCONTACTS] = { "<!--foot-->", "</script>" };

static void *alloc(size_t n)
{
    void *p = calloc(n, 1);
    if (!p) { /* no ck_assert: --page runs outside the suite */
        fputs("test_sim_writers: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* The state of contact c at time t: separated, then sticking, then sliding (contact 1 a
 * quarter of a second later). */
static int state_at(int c, double t)
{
    const double shift = 0.25 * c;
    return t < 0.5 + shift ? SIM_SEPARATED : t < 1.0 + shift ? SIM_STICKING : SIM_SLIDING;
}

/* Sample k: the base drifts and bobs, the pendulum swings; its points from its angles. */
static void fill_sample(synthetic *s, int k, int floating)
{
    const int nq = floating ? NQ : NQ_FIXED, j = floating ? 7 : 0;
    const double t = s->t[k], a1 = 0.8 * sin(3 * t), a2 = 0.5 * cos(2 * t);
    const double bx = floating ? 0.1 * t : 0, bz = floating ? 1.0 + 0.05 * sin(6.283 * t) : 1.0;
    double *q = s->q + (long)k * nq, *p = s->points + (long)k * NPOINTS * 3;
    int c;
    if (floating) {
        q[0] = bx;
        q[1] = 0;
        q[2] = bz;
        q[6] = 1; /* the quaternion's w */
    }
    q[j] = a1;
    q[j + 1] = a2;
    p[0] = bx, p[1] = 0, p[2] = bz;
    p[3] = p[0] + L1 * sin(a1), p[4] = 0, p[5] = p[2] - L1 * cos(a1);
    p[6] = p[3] + L2 * sin(a1 + a2), p[7] = 0, p[8] = p[5] - L2 * cos(a1 + a2);
    for (c = 0; c < NCONTACTS; c++) {
        const double *at = p + 3 * (2 - c); /* the tip, then the elbow */
        memcpy(s->contact_point + ((long)k * NCONTACTS + c) * 3, at, 3 * sizeof *at);
        s->contact_state[k * NCONTACTS + c] = state_at(c, t);
        s->normal_force[k * NCONTACTS + c] =
            state_at(c, t) == SIM_SEPARATED ? 0 : 20 + 5 * sin(10 * t) + 3 * c;
    }
    s->energy[k] = 10 + 0.1 * sin(t);
    s->iterations[k] = 3 + k % 5;
    s->converged[k] = !(k == 17 || k == 100 || k == 300);
}

static synthetic *make_trace(int nsamples, double dt, int floating, int hostile)
{
    synthetic *s = alloc(sizeof *s);
    const int nq = floating ? NQ : NQ_FIXED;
    int k;
    s->t = alloc(sizeof(double) * nsamples);
    s->q = alloc(sizeof(double) * nsamples * nq);
    s->v = alloc(sizeof(double) * nsamples * NV);
    s->points = alloc(sizeof(double) * nsamples * NPOINTS * 3);
    s->contact_point = alloc(sizeof(double) * nsamples * NCONTACTS * 3);
    s->normal_force = alloc(sizeof(double) * nsamples * NCONTACTS);
    s->friction_force = alloc(sizeof(double) * nsamples * NCONTACTS);
    s->penetration = alloc(sizeof(double) * nsamples * NCONTACTS);
    s->contact_state = alloc(sizeof(int) * nsamples * NCONTACTS);
    s->energy = alloc(sizeof(double) * nsamples);
    s->iterations = alloc(sizeof(int) * nsamples);
    s->residual = alloc(sizeof(double) * nsamples);
    s->converged = alloc(sizeof(int) * nsamples);
    for (k = 0; k < nsamples; k++) {
        s->t[k] = k * dt;
        fill_sample(s, k, floating);
    }
    s->tr.robot = hostile ? HOSTILE_ROBOT : "pendulum";
    s->tr.urdf = hostile ? "a&b<c>.urdf" : "pendulum.urdf";
    s->tr.nq = nq;
    s->tr.nv = floating ? NV : NQ_FIXED;
    s->tr.q_names = hostile ? hostile_q_names : plain_q_names;
    if (!floating)
        s->tr.q_names += 7;
    s->tr.v_names = plain_v_names + (floating ? 0 : 6);
    s->tr.base_z = floating ? 2 : -1;
    s->tr.dt = dt;
    s->tr.ground = 0.125;
    s->tr.model = "rigid";
    s->tr.npoints = NPOINTS;
    s->tr.point_names = hostile ? hostile_point_names : plain_point_names;
    s->tr.point_parent = point_parent;
    s->tr.ncontacts = NCONTACTS;
    s->tr.contact_names = hostile ? hostile_contact_names : plain_contact_names;
    s->tr.nsamples = nsamples;
    s->tr.t = s->t;
    s->tr.q = s->q;
    s->tr.v = s->v;
    s->tr.points = s->points;
    s->tr.contact_point = s->contact_point;
    s->tr.normal_force = s->normal_force;
    s->tr.friction_force = s->friction_force;
    s->tr.penetration = s->penetration;
    s->tr.contact_state = s->contact_state;
    s->tr.energy = s->energy;
    s->tr.iterations = s->iterations;
    s->tr.residual = s->residual;
    s->tr.converged = s->converged;
    return s;
}

static void free_trace(synthetic *s)
{
    free(s->t), free(s->q), free(s->v), free(s->points), free(s->contact_point);
    free(s->normal_force), free(s->friction_force), free(s->penetration);
    free(s->contact_state), free(s->energy), free(s->iterations), free(s->residual);
    free(s->converged), free(s);
}

/* What a writer wrote, as one string (malloc'd); the writer's result in *rc. */
static char *written(int (*writer)(const sim_trace *, FILE *), const sim_trace *tr, int *rc)
{
    FILE *f = tmpfile();
    long n;
    char *text;
    ck_assert_ptr_nonnull(f);
    *rc = writer(tr, f);
    n = ftell(f);
    ck_assert_int_ge(n, 0);
    text = alloc((size_t)n + 1);
    rewind(f);
    ck_assert_int_eq((long)fread(text, 1, (size_t)n, f), n);
    fclose(f);
    return text;
}

static int count_of(const char *text, const char *what)
{
    int n = 0;
    for (; (text = strstr(text, what)) != NULL; text++)
        n++;
    return n;
}

/* ---- a small JSON reader: enough for the page's data, every failure an assertion ---- */

enum { J_NULL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT, J_BOOL };

typedef struct json {
    int type;
    double number;
    char *string;       /* J_STRING: decoded UTF-8 */
    struct json *items; /* J_ARRAY, J_OBJECT */
    char **keys;        /* J_OBJECT */
    int n;
} json;

static void skip_space(const char **p)
{
    while (**p == ' ' || **p == '\n' || **p == '\r' || **p == '\t')
        (*p)++;
}

static void put_utf8(char **out, unsigned long c)
{
    unsigned char *o = (unsigned char *)*out;
    if (c < 0x80) {
        *o++ = (unsigned char)c;
    } else if (c < 0x800) {
        *o++ = (unsigned char)(0xC0 | c >> 6);
        *o++ = (unsigned char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        *o++ = (unsigned char)(0xE0 | c >> 12);
        *o++ = (unsigned char)(0x80 | (c >> 6 & 0x3F));
        *o++ = (unsigned char)(0x80 | (c & 0x3F));
    } else {
        *o++ = (unsigned char)(0xF0 | c >> 18);
        *o++ = (unsigned char)(0x80 | (c >> 12 & 0x3F));
        *o++ = (unsigned char)(0x80 | (c >> 6 & 0x3F));
        *o++ = (unsigned char)(0x80 | (c & 0x3F));
    }
    *out = (char *)o;
}

static unsigned long hex4(const char **p)
{
    char digits[5];
    char *end;
    unsigned long c;
    memcpy(digits, *p, 4);
    digits[4] = '\0';
    c = strtoul(digits, &end, 16);
    ck_assert_msg(end == digits + 4, "JSON: a bad \\u escape");
    *p += 4;
    return c;
}

static char *json_read_string(const char **p)
{
    const char *start = ++*p;
    char *s, *o;
    while (**p != '"') {
        ck_assert_msg(**p != '\0' && (unsigned char)**p >= 0x20, "JSON: an unended string");
        *p += **p == '\\' ? 2 : 1;
    }
    s = o = alloc((size_t)(*p - start) * 2 + 1);
    for (*p = start; **p != '"';) {
        unsigned long c;
        if (**p != '\\') {
            *o++ = *(*p)++;
            continue;
        }
        (*p)++;
        switch (*(*p)++) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case 'r': *o++ = '\r'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'u':
            c = hex4(p);
            if (c >= 0xD800 && c < 0xDC00 && (*p)[0] == '\\' && (*p)[1] == 'u') {
                *p += 2;
                c = 0x10000 + ((c - 0xD800) << 10) + (hex4(p) - 0xDC00);
            }
            put_utf8(&o, c);
            break;
        default: ck_abort_msg("JSON: a bad escape");
        }
    }
    (*p)++;
    *o = '\0';
    return s;
}

static void json_read(const char **p, json *v);

static void json_read_items(const char **p, json *v, char close)
{
    int cap = 8;
    v->items = alloc(sizeof *v->items * cap);
    if (v->type == J_OBJECT)
        v->keys = alloc(sizeof *v->keys * cap);
    (*p)++;
    skip_space(p);
    while (**p != close) {
        if (v->n == cap) {
            cap *= 2;
            v->items = realloc(v->items, sizeof *v->items * cap);
            ck_assert_ptr_nonnull(v->items);
            if (v->type == J_OBJECT) {
                v->keys = realloc(v->keys, sizeof *v->keys * cap);
                ck_assert_ptr_nonnull(v->keys);
            }
        }
        if (v->type == J_OBJECT) {
            ck_assert_msg(**p == '"', "JSON: a key expected");
            v->keys[v->n] = json_read_string(p);
            skip_space(p);
            ck_assert_msg(**p == ':', "JSON: ':' expected");
            (*p)++;
        }
        json_read(p, &v->items[v->n++]);
        skip_space(p);
        if (**p == ',') {
            (*p)++;
            skip_space(p);
            ck_assert_msg(**p != close, "JSON: a trailing comma");
        } else {
            ck_assert_msg(**p == close, "JSON: ',' or the end expected");
        }
    }
    (*p)++;
}

static void json_read(const char **p, json *v)
{
    memset(v, 0, sizeof *v);
    skip_space(p);
    if (**p == '{' || **p == '[') {
        v->type = **p == '{' ? J_OBJECT : J_ARRAY;
        json_read_items(p, v, **p == '{' ? '}' : ']');
    } else if (**p == '"') {
        v->type = J_STRING;
        v->string = json_read_string(p);
    } else if (strncmp(*p, "null", 4) == 0) {
        v->type = J_NULL;
        *p += 4;
    } else if (strncmp(*p, "true", 4) == 0 || strncmp(*p, "false", 5) == 0) {
        v->type = J_BOOL;
        *p += **p == 't' ? 4 : 5;
    } else {
        char *end;
        const char *digit = *p + (**p == '-');
        ck_assert_msg(*digit >= '0' && *digit <= '9', "JSON: a value expected at %.20s", *p);
        v->type = J_NUMBER;
        v->number = strtod(*p, &end);
        *p = end;
    }
}

static void json_free(json *v)
{
    int i;
    for (i = 0; i < v->n; i++) {
        json_free(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
}

static const json *json_get(const json *v, const char *key)
{
    int i;
    ck_assert_int_eq(v->type, J_OBJECT);
    for (i = 0; i < v->n; i++)
        if (strcmp(v->keys[i], key) == 0)
            return &v->items[i];
    ck_abort_msg("JSON: no key \"%s\"", key);
    return NULL;
}

/* The text of <script type="application/json" id=ID> in page, parsed into v. */
static void page_json(const char *page, const char *id, json *v)
{
    char open[128];
    const char *start, *end, *p;
    snprintf(open, sizeof open, "<script type=\"application/json\" id=\"%s\">", id);
    start = strstr(page, open);
    ck_assert_msg(start != NULL, "no %s script", id);
    start += strlen(open);
    end = strstr(start, "</script>");
    ck_assert_ptr_nonnull(end);
    ck_assert_msg(memchr(start, '<', (size_t)(end - start)) == NULL, "a '<' inside the JSON");
    p = start;
    json_read(&p, v);
    skip_space(&p);
    ck_assert_msg(p == end, "JSON: text after the value");
}

/* x is exactly the number want (null when want is not finite). */
static void expect_number(const json *x, double want)
{
    if (!isfinite(want)) {
        ck_assert_int_eq(x->type, J_NULL);
        return;
    }
    ck_assert_int_eq(x->type, J_NUMBER);
    ck_assert_msg(memcmp(&x->number, &want, sizeof want) == 0, "%.17g read back as %.17g", want,
                  x->number);
}

static void expect_numbers(const json *x, const double *want, int n)
{
    int i;
    ck_assert_int_eq(x->type, J_ARRAY);
    ck_assert_int_eq(x->n, n);
    for (i = 0; i < n; i++)
        expect_number(&x->items[i], want[i]);
}

static void expect_names(const json *x, const char *const *want, int n)
{
    int i;
    ck_assert_int_eq(x->type, J_ARRAY);
    ck_assert_int_eq(x->n, n);
    for (i = 0; i < n; i++) {
        ck_assert_int_eq(x->items[i].type, J_STRING);
        ck_assert_str_eq(x->items[i].string, want[i]);
    }
}

/* ---- the SVG through libxml2 ---- */

typedef struct {
    xmlDocPtr doc;
    xmlXPathContextPtr xpath;
} svg_doc;

static svg_doc parse_svg(const char *text)
{
    svg_doc d;
    d.doc = xmlReadMemory(text, (int)strlen(text), "plots.svg", NULL, XML_PARSE_NONET);
    ck_assert_msg(d.doc != NULL, "the SVG is not well-formed XML");
    d.xpath = xmlXPathNewContext(d.doc);
    ck_assert_ptr_nonnull(d.xpath);
    xmlXPathRegisterNs(d.xpath, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
    return d;
}

static void free_svg(svg_doc *d)
{
    xmlXPathFreeContext(d->xpath);
    xmlFreeDoc(d->doc);
}

static double xpath_number(svg_doc *d, const char *expr)
{
    xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST expr, d->xpath);
    double x;
    ck_assert_msg(r != NULL, "bad XPath %s", expr);
    x = xmlXPathCastToNumber(r);
    xmlXPathFreeObject(r);
    return x;
}

/* The string value of expr (a static buffer). */
static const char *xpath_string(svg_doc *d, const char *expr)
{
    static char text[1 << 18];
    xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST expr, d->xpath);
    xmlChar *s;
    ck_assert_msg(r != NULL, "bad XPath %s", expr);
    s = xmlXPathCastToString(r);
    snprintf(text, sizeof text, "%s", (const char *)s);
    xmlFree(s);
    xmlXPathFreeObject(r);
    return text;
}

static int xpath_count(svg_doc *d, const char *expr)
{
    char buf[512];
    snprintf(buf, sizeof buf, "count(%s)", expr);
    return (int)xpath_number(d, buf);
}

/* The points of a path's d ("M x y L x y ..."), their count; at most max kept. */
static int path_points(const char *d, double *x, double *y, int max)
{
    int n = 0;
    char *end;
    while (*d) {
        if (*d == 'M' || *d == 'L') {
            const double a = strtod(d + 1, &end), b = strtod(end, &end);
            if (n < max) {
                x[n] = a;
                y[n] = b;
            }
            n++;
            d = end;
        } else {
            d++;
        }
    }
    return n;
}

/* ---- the SVG ---- */

/* The value and the pixel row of a panel's first or last value tick (which: "1" or
 * "last()"); a label's baseline is 4 px under its line. */
static double value_tick(svg_doc *d, const char *panel, const char *which, double *y)
{
    char expr[300], attr[320];
    snprintf(expr, sizeof expr,
             "(//s:g[@id='%s']/s:text[@class='tick' and @text-anchor='end'])[%s]", panel, which);
    snprintf(attr, sizeof attr, "%s/@y", expr);
    *y = xpath_number(d, attr) - 4;
    return xpath_number(d, expr);
}

/* The value at pixel row y of a panel, read off its outermost labelled ticks. */
static double value_at(svg_doc *d, const char *panel, double y)
{
    double y0, y1;
    const double v0 = value_tick(d, panel, "1", &y0), v1 = value_tick(d, panel, "last()", &y1);
    ck_assert(isfinite(v0) && isfinite(v1) && y0 != y1);
    return v0 + (y - y0) / (y1 - y0) * (v1 - v0);
}

/* Line `line` of a panel of a finite run short enough to be drawn whole: point k is sample
 * k (value[k * stride]) at time t[k], to the pixels' rounding (0.05 px). */
static void expect_line_is_data(svg_doc *d, const char *panel, int line, const double *t,
                                const double *value, int stride, int n)
{
    static double x[4000], y[4000];
    char expr[256];
    double left, width, height, v_per_px;
    int k;
    snprintf(expr, sizeof expr, "(//s:g[@id='%s']/s:path[@class='line'])[%d]/@d", panel, line);
    ck_assert_int_eq(path_points(xpath_string(d, expr), x, y, 4000), n);
    snprintf(expr, sizeof expr, "//s:g[@id='%s']/s:rect/@x", panel);
    left = xpath_number(d, expr);
    snprintf(expr, sizeof expr, "//s:g[@id='%s']/s:rect/@width", panel);
    width = xpath_number(d, expr);
    snprintf(expr, sizeof expr, "//s:g[@id='%s']/s:rect/@height", panel);
    height = xpath_number(d, expr);
    v_per_px = fabs(value_at(d, panel, 0) - value_at(d, panel, height)) / height;
    for (k = 0; k < n; k++) {
        const double v = value[(long)k * stride];
        ck_assert_double_eq_tol(x[k], left + (t[k] - t[0]) / (t[n - 1] - t[0]) * width, 0.051);
        ck_assert_double_eq_tol(value_at(d, panel, y[k]), v, 0.051 * v_per_px + 1e-12);
    }
}

START_TEST(svg_panels_legends_failures)
{
    static const char *const panels[5] = { "panel-base-height", "panel-joints",
                                           "panel-normal-force", "panel-energy",
                                           "panel-iterations" };
    static const int lines[5] = { 2, 2, NCONTACTS, 1, 1 };
    synthetic *s = make_trace(1201, 0.0025, 1, 0);
    int rc, i;
    char *text = written(sim_write_svg, &s->tr, &rc);
    svg_doc d = parse_svg(text);
    char expr[256];
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq((const char *)xmlDocGetRootElement(d.doc)->name, "svg");
    ck_assert_int_eq(xpath_count(&d, "//s:g[@class='panel']"), 5);
    for (i = 0; i < 5; i++) {
        snprintf(expr, sizeof expr, "(//s:g[@class='panel'])[%d]/@id", i + 1);
        ck_assert_str_eq(xpath_string(&d, expr), panels[i]);
        snprintf(expr, sizeof expr, "//s:g[@id='%s']/s:path[@class='line']", panels[i]);
        ck_assert_int_eq(xpath_count(&d, expr), lines[i]);
        snprintf(expr, sizeof expr, "//s:g[@id='%s']/s:text[@class='tick']", panels[i]);
        ck_assert_int_ge(xpath_count(&d, expr), 4); /* values and times */
    }
    /* the legends: the joints (not the base's seven), the contacts */
    ck_assert_int_eq(xpath_count(&d, "//s:g[@id='panel-joints']/s:g[@class='legend']/s:text"), 2);
    ck_assert_str_eq(xpath_string(&d, "//s:g[@id='panel-joints']/s:g[@class='legend']/s:text[1]"),
                     "shoulder");
    ck_assert_str_eq(xpath_string(&d, "//s:g[@id='panel-joints']/s:g[@class='legend']/s:text[2]"),
                     "elbow");
    ck_assert_str_eq(
        xpath_string(&d, "//s:g[@id='panel-normal-force']/s:g[@class='legend']/s:text[2]"),
        "elbow_contact");
    /* samples 17, 100 and 300 did not converge */
    ck_assert_ptr_nonnull(strstr(
        xpath_string(&d, "//s:g[@id='panel-iterations']/s:text[@class='title']"),
        "3 steps did not converge"));
    ck_assert_int_eq(xpath_count(&d, "//s:g[@class='not-converged']/s:line"), 3);
    ck_assert_str_eq(xpath_string(&d, "//s:g[@class='not-converged']/s:line[1]/@stroke"),
                     "#dc2626");
    /* units */
    ck_assert_ptr_nonnull(strstr(xpath_string(&d, "//s:g[@id='panel-base-height']/s:text[1]"),
                                 "(m)"));
    ck_assert_ptr_nonnull(strstr(xpath_string(&d, "//s:g[@id='panel-normal-force']/s:text[1]"),
                                 "(N)"));
    ck_assert_ptr_nonnull(strstr(xpath_string(&d, "//s:g[@id='panel-energy']/s:text[1]"), "(J)"));
    /* self-contained: no script, no link, no URL but the namespace */
    ck_assert_int_eq(xpath_count(&d, "//s:script | //s:a | //s:image | //@*[local-name()='href']"),
                     0);
    ck_assert_int_eq(count_of(text, "http"), 1);
    expect_line_is_data(&d, "panel-energy", 1, s->t, s->energy, 1, 1201);
    expect_line_is_data(&d, "panel-joints", 2, s->t, s->q + 8, NQ, 1201);
    free_svg(&d);
    free(text);
    free_trace(s);
}
END_TEST

START_TEST(svg_fixed_base_has_no_base_panel)
{
    synthetic *s = make_trace(400, 0.005, 0, 0);
    int rc;
    char *text = written(sim_write_svg, &s->tr, &rc);
    svg_doc d = parse_svg(text);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(xpath_count(&d, "//s:g[@class='panel']"), 4);
    ck_assert_int_eq(xpath_count(&d, "//s:g[@id='panel-base-height']"), 0);
    ck_assert_int_eq(xpath_count(&d, "//s:g[@id='panel-joints']/s:path"), 2);
    ck_assert_ptr_nonnull(strstr(
        xpath_string(&d, "//s:g[@id='panel-iterations']/s:text[@class='title']"),
        "3 steps did not converge"));
    free_svg(&d);
    free(text);
    free_trace(s);
}
END_TEST

/* 100001 samples at most ~2000 points a line, the ends kept, a one-sample spike drawn at
 * the plot's top (1000 is a round number: the axis ends there). */
START_TEST(svg_decimation_keeps_extrema_and_ends)
{
    enum { N = 100001, SPIKE = 54321 };
    synthetic *s = make_trace(N, 1e-4, 1, 0);
    static double x[4000], y[4000];
    int rc, n, i, top = 0;
    char *text;
    svg_doc d;
    double left, right, plot_top, plot_bottom;
    for (i = 0; i < N; i++)
        s->energy[i] = 0.5 + 0.5 * sin(i * 0.01);
    s->energy[SPIKE] = 1000;
    text = written(sim_write_svg, &s->tr, &rc);
    d = parse_svg(text);
    ck_assert_int_eq(rc, 0);
    left = xpath_number(&d, "//s:g[@id='panel-energy']/s:rect/@x");
    right = left + xpath_number(&d, "//s:g[@id='panel-energy']/s:rect/@width");
    plot_top = xpath_number(&d, "//s:g[@id='panel-energy']/s:rect/@y");
    plot_bottom = plot_top + xpath_number(&d, "//s:g[@id='panel-energy']/s:rect/@height");
    n = path_points(xpath_string(&d, "//s:g[@id='panel-energy']/s:path/@d"), x, y, 4000);
    ck_assert_int_le(n, 2002);
    ck_assert_int_ge(n, 1000);
    ck_assert_double_eq_tol(x[0], left, 0.051);
    ck_assert_double_eq_tol(x[n - 1], right, 0.051);
    for (i = 0; i < n; i++) {
        ck_assert_double_ge(y[i], plot_top - 0.051);
        ck_assert_double_le(y[i], plot_bottom + 0.051);
        if (i > 0)
            ck_assert_double_ge(x[i], x[i - 1]);
        top += fabs(y[i] - plot_top) < 0.051;
    }
    ck_assert_int_eq(top, 1); /* the spike, once */
    free_svg(&d);
    free(text);
    free_trace(s);
}
END_TEST

/* ---- the HTML ---- */

/* Frame i of the page is sample k of s, bit for bit. */
static void expect_frame(const synthetic *s, const json *frame, int k)
{
    const sim_trace *tr = &s->tr;
    const json *states = json_get(frame, "s");
    int c;
    ck_assert_int_eq(frame->n, 6);
    expect_number(json_get(frame, "k"), k);
    expect_number(json_get(frame, "t"), tr->t[k]);
    expect_numbers(json_get(frame, "q"), tr->q + (long)k * tr->nq, tr->nq);
    expect_numbers(json_get(frame, "p"), tr->points + (long)k * tr->npoints * 3, tr->npoints * 3);
    expect_numbers(json_get(frame, "c"), tr->contact_point + (long)k * tr->ncontacts * 3,
                   tr->ncontacts * 3);
    ck_assert_int_eq(states->n, tr->ncontacts);
    for (c = 0; c < tr->ncontacts; c++)
        expect_number(&states->items[c], tr->contact_state[k * tr->ncontacts + c]);
}

/* The page's JSON against the trace: the keys, the names, each frame; the frames' samples
 * into ks (their count returned). */
static int check_page_data(const synthetic *s, const char *page, int *ks, int max)
{
    const sim_trace *tr = &s->tr;
    json data, forces;
    const json *frames;
    int i, parents_ok = 1;
    page_json(page, "sim-data", &data);
    ck_assert_int_eq(data.n, 8);
    ck_assert_str_eq(json_get(&data, "robot")->string, tr->robot);
    expect_number(json_get(&data, "dt"), tr->dt);
    expect_number(json_get(&data, "ground"), tr->ground);
    expect_names(json_get(&data, "point_names"), tr->point_names, tr->npoints);
    expect_names(json_get(&data, "contact_names"), tr->contact_names, tr->ncontacts);
    expect_number(json_get(&data, "nq"), tr->nq);
    for (i = 0; i < tr->npoints; i++)
        parents_ok &= json_get(&data, "point_parent")->items[i].number == tr->point_parent[i];
    ck_assert(parents_ok && json_get(&data, "point_parent")->n == tr->npoints);
    frames = json_get(&data, "frames");
    ck_assert_int_ge(frames->n, 1);
    ck_assert_int_le(frames->n, max);
    page_json(page, "sim-forces", &forces);
    ck_assert_int_eq(forces.n, frames->n);
    for (i = 0; i < frames->n; i++) {
        ks[i] = (int)json_get(&frames->items[i], "k")->number;
        expect_frame(s, &frames->items[i], ks[i]);
        expect_numbers(&forces.items[i], tr->normal_force + (long)ks[i] * tr->ncontacts,
                       tr->ncontacts);
    }
    i = frames->n;
    json_free(&forces);
    json_free(&data);
    return i;
}

/* 240 Hz: every fourth sample is a 60 Hz frame; 481 samples (2 s), 121 frames. */
START_TEST(html_frames_every_fourth_sample_bit_exact)
{
    synthetic *s = make_trace(481, 1.0 / 240, 1, 0);
    static int ks[481];
    int rc, n, i;
    char *page = written(sim_write_html, &s->tr, &rc);
    ck_assert_int_eq(rc, 0);
    n = check_page_data(s, page, ks, 481);
    ck_assert_int_eq(n, 121);
    for (i = 0; i < n; i++)
        ck_assert_int_eq(ks[i], 4 * i);
    free(page);
    free_trace(s);
}
END_TEST

/* A step that does not divide 1/60 s: about 60 frames a second, none more than a step late,
 * the first and the last sample always; a step longer than 1/60 s: every sample. */
START_TEST(html_frames_other_steps)
{
    static const struct {
        double dt;
        int nsamples, min_frames, max_frames;
    } cases[] = { { 0.007, 144, 60, 62 }, { 0.001, 1001, 60, 62 }, { 0.05, 21, 21, 21 },
                  { 0.001, 1, 1, 1 }, { 0.001, 2, 2, 2 } };
    static int ks[1001];
    int c, rc, n, i;
    for (c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++) {
        synthetic *s = make_trace(cases[c].nsamples, cases[c].dt, 1, 0);
        char *page = written(sim_write_html, &s->tr, &rc);
        ck_assert_int_eq(rc, 0);
        n = check_page_data(s, page, ks, cases[c].nsamples);
        ck_assert_int_ge(n, cases[c].min_frames);
        ck_assert_int_le(n, cases[c].max_frames);
        ck_assert_int_eq(ks[0], 0);
        ck_assert_int_eq(ks[n - 1], cases[c].nsamples - 1);
        for (i = 1; i < n; i++) {
            ck_assert_int_gt(ks[i], ks[i - 1]);
            ck_assert_double_le(s->t[ks[i]] - s->t[ks[i - 1]], 1.0 / 60 + cases[c].dt);
        }
        free(page);
        free_trace(s);
    }
}
END_TEST

/* NaN and infinities are null in the JSON, the rest still exact. */
START_TEST(html_not_finite_is_null)
{
    synthetic *s = make_trace(481, 1.0 / 240, 1, 0);
    static int ks[481];
    int rc;
    char *page;
    s->q[8 * NQ + 7] = NAN;
    s->points[8 * NPOINTS * 3 + 4] = INFINITY;
    s->t[480] = -INFINITY; /* the last is kept whatever its time */
    page = written(sim_write_html, &s->tr, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(check_page_data(s, page, ks, 481), 121);
    free(page);
    free_trace(s);
}
END_TEST

/* ---- hostile names ---- */

START_TEST(hostile_names_stay_text)
{
    synthetic *s = make_trace(481, 1.0 / 240, 1, 1);
    static int ks[481];
    int rc;
    char *page = written(sim_write_html, &s->tr, &rc), *svg;
    htmlDocPtr html;
    svg_doc d;
    ck_assert_int_eq(rc, 0);
    /* the names read back from the JSON as they were (the byte that is not UTF-8 as U+FFFD) */
    s->tr.point_names = (const char *const[]){ hostile_point_names[0], hostile_point_names[1],
                                               "bad\xEF\xBF\xBD\x01tip" };
    check_page_data(s, page, ks, 481);
    s->tr.point_names = hostile_point_names;
    /* the page's own three scripts and no other element from a name */
    ck_assert_int_eq(count_of(page, "<script"), 3);
    ck_assert_int_eq(count_of(page, "</script>"), 3);
    ck_assert_int_eq(count_of(page, "<!--"), 0);
    ck_assert_ptr_null(strstr(page, "\xff"));
    ck_assert_ptr_nonnull(strstr(page, "<h1>&lt;script&gt;alert(1)&lt;/script&gt; &amp; "
                                       "&quot;co&#39;</h1>"));
    html = htmlReadMemory(page, (int)strlen(page), "page.html", "UTF-8",
                          HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
    ck_assert_ptr_nonnull(html);
    {
        svg_doc h = { html, xmlXPathNewContext(html) };
        ck_assert_int_eq(xpath_count(&h, "//script"), 3);
        ck_assert_int_eq(xpath_count(&h, "//h1/*"), 0);
        ck_assert_str_eq(xpath_string(&h, "//h1"), HOSTILE_ROBOT);
        ck_assert_str_eq(xpath_string(&h, "//dd/code"), "a&b<c>.urdf");
        ck_assert_str_eq(xpath_string(&h, "//body/@data-ok"), "0"); /* until the script runs */
        free_svg(&h);
    }
    /* the SVG: well-formed, the names as text */
    svg = written(sim_write_svg, &s->tr, &rc);
    ck_assert_int_eq(rc, 0);
    d = parse_svg(svg);
    ck_assert_int_eq(xpath_count(&d, "//s:script"), 0);
    ck_assert_ptr_nonnull(strstr(xpath_string(&d, "/s:svg/s:text[1]"), HOSTILE_ROBOT));
    ck_assert_str_eq(xpath_string(&d, "//s:g[@id='panel-joints']/s:g[@class='legend']/s:text[1]"),
                     "</text><script>x()");
    ck_assert_str_eq(xpath_string(&d, "//s:g[@id='panel-joints']/s:g[@class='legend']/s:text[2]"),
                     "el&bow \"q\"");
    ck_assert_str_eq(
        xpath_string(&d, "//s:g[@id='panel-normal-force']/s:g[@class='legend']/s:text[1]"),
        "<!--foot-->");
    free_svg(&d);
    free(svg);
    free(page);
    free_trace(s);
}
END_TEST

/* Control characters, bytes that are not UTF-8 and long names in the SVG's legends. */
START_TEST(svg_odd_names)
{
    static const char *const names[NQ_FIXED] = { "j\x01\n\xc3(\xe2\x80\xae",
                                                 "a_joint_name_much_longer_than_a_legend_row" };
    synthetic *s = make_trace(100, 0.01, 0, 0);
    int rc;
    char *svg;
    svg_doc d;
    s->tr.q_names = names;
    svg = written(sim_write_svg, &s->tr, &rc);
    ck_assert_int_eq(rc, 0);
    d = parse_svg(svg);
    ck_assert_str_eq(xpath_string(&d, "//s:g[@id='panel-joints']/s:g[@class='legend']/s:text[1]"),
                     "j\\x01\\n\xEF\xBF\xBD(\\u202e");
    ck_assert_str_eq(xpath_string(&d, "//s:g[@id='panel-joints']/s:g[@class='legend']/s:text[2]"),
                     "a_joint_name_much_longer\xE2\x80\xA6");
    free_svg(&d);
    free(svg);
    free_trace(s);
}
END_TEST

/* A fixed base without contacts, energy or solver counts: the SVG has the joints' panel
 * and the iterations' is gone; the page's frames have empty contact lists. */
START_TEST(optional_series_absent)
{
    synthetic *s = make_trace(121, 1.0 / 60, 0, 0);
    static int ks[121];
    int rc;
    char *svg, *page;
    svg_doc d;
    s->tr.ncontacts = 0;
    s->tr.contact_names = NULL;
    s->tr.energy = NULL;
    s->tr.iterations = NULL;
    s->tr.converged = NULL;
    svg = written(sim_write_svg, &s->tr, &rc);
    ck_assert_int_eq(rc, 0);
    d = parse_svg(svg);
    ck_assert_int_eq(xpath_count(&d, "//s:g[@class='panel']"), 1);
    ck_assert_int_eq(xpath_count(&d, "//s:g[@id='panel-joints']/s:path"), 2);
    free_svg(&d);
    page = written(sim_write_html, &s->tr, &rc);
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(check_page_data(s, page, ks, 121), 121);
    free(svg);
    free(page);
    free_trace(s);
}
END_TEST

/* ---- failures ---- */

START_TEST(failed_writes_return_minus_one)
{
    synthetic *s = make_trace(481, 1.0 / 240, 1, 0);
    FILE *f = fopen("/dev/null", "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(sim_write_svg(&s->tr, f), -1);
    clearerr(f);
    ck_assert_int_eq(sim_write_html(&s->tr, f), -1);
    fclose(f);
    f = fopen("/dev/full", "w");
    if (f) { /* Linux: every write fails with ENOSPC */
        ck_assert_int_eq(sim_write_svg(&s->tr, f), -1);
        clearerr(f);
        ck_assert_int_eq(sim_write_html(&s->tr, f), -1);
        fclose(f);
    }
    f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(sim_write_svg(NULL, f), -1);
    ck_assert_int_eq(sim_write_html(NULL, f), -1);
    s->tr.nsamples = 0;
    ck_assert_int_eq(sim_write_svg(&s->tr, f), -1);
    ck_assert_int_eq(sim_write_html(&s->tr, f), -1);
    fclose(f);
    free_trace(s);
}
END_TEST

static Suite *sim_writers_suite(void)
{
    Suite *s = suite_create("sim_writers");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, svg_panels_legends_failures);
    tcase_add_test(tc, svg_fixed_base_has_no_base_panel);
    tcase_add_test(tc, svg_decimation_keeps_extrema_and_ends);
    tcase_add_test(tc, svg_odd_names);
    tcase_add_test(tc, html_frames_every_fourth_sample_bit_exact);
    tcase_add_test(tc, html_frames_other_steps);
    tcase_add_test(tc, html_not_finite_is_null);
    tcase_add_test(tc, hostile_names_stay_text);
    tcase_add_test(tc, optional_series_absent);
    tcase_add_test(tc, failed_writes_return_minus_one);
    suite_add_tcase(s, tc);
    return s;
}

/* The page the browser test loads (hostile names, a NaN, 121 frames), or its plots. */
static int write_file(const char *path, int (*writer)(const sim_trace *, FILE *))
{
    synthetic *s = make_trace(481, 1.0 / 240, 1, 1);
    FILE *f = fopen(path, "w");
    int rc;
    if (!f) {
        perror(path);
        return EXIT_FAILURE;
    }
    s->q[8 * NQ + 7] = NAN;
    rc = writer(&s->tr, f);
    rc = fclose(f) != 0 || rc != 0;
    free_trace(s);
    return rc ? EXIT_FAILURE : EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--page") == 0)
        return write_file(argv[2], sim_write_html);
    if (argc == 3 && strcmp(argv[1], "--svg") == 0)
        return write_file(argv[2], sim_write_svg);
    return check_run(sim_writers_suite(), CK_FORK_GETENV) ? EXIT_FAILURE : EXIT_SUCCESS;
}
