/* bench_report.c — the benchmark's rows for people and scripts: the text tables (and their
 * Markdown form), CSV, JSON and an SVG bar chart. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "bench_report.h"

/* ---- the text tables ---- */

/* "mul/add" as render_op_counts (cdyngen --summary) gives them. */
static void format_ops(char *buf, size_t len, const bench_row *r)
{
    if (r->mul >= 0)
        snprintf(buf, len, "%ld/%ld", r->mul, r->add);
    else
        snprintf(buf, len, "?");
}

static void format_bytes(char *buf, size_t len, long bytes)
{
    if (bytes < 0)
        snprintf(buf, len, "?");
    else if (bytes < 10000)
        snprintf(buf, len, "%ld B", bytes);
    else
        snprintf(buf, len, "%.0f KB", (double)bytes / 1024);
}

/* Three significant digits, never an exponent. */
static void format_us(char *buf, size_t len, double us)
{
    int decimals = us > 0 ? 2 - (int)floor(log10(us)) : 3;
    if (decimals < 0)
        decimals = 0;
    snprintf(buf, len, "%.*f", decimals, us);
}

void bench_print_header(FILE *f, const bench_setup *s, int markdown)
{
    if (markdown) {
        fprintf(f,
                "CPU: %s; %s, `%s`; median of %ld batches of %ld calls, generated and "
                "generic batches alternating in one run.\n\n",
                s->cpu, s->compiler, s->flags, s->batches, s->calls);
        fprintf(f, "| robot | algorithm | generated µs | generic µs | speed-up | emitted mul/add "
                   "| code |\n|---|---|---:|---:|---:|---:|---:|\n");
        return;
    }
    fprintf(f, "cdyngen benchmark: generated code vs the generic runtime, same inputs, one run\n");
    fprintf(f, "cpu:      %s\n", s->cpu);
    fprintf(f, "compiler: %s, %s (generated code, runtime and loops)\n", s->compiler, s->flags);
    fprintf(f,
            "method:   median of %ld batches of %ld calls after a warm-up batch, generated and\n"
            "          generic batches alternating; %d random states on the manifold, cycled\n",
            s->batches, s->calls, BENCH_POOL);
    fprintf(f, "\n%-14s %-20s %10s %17s %10s %9s %15s %8s %8s\n", "robot", "algorithm", "generated",
            "(min-max) us", "generic", "speed-up", "emitted mul/add", "code", "rel diff");
}

/* How far generated and generic may differ before the row is flagged: rounding, except
 * for the solvers that factorise M + J^T J / mu (its 1e6 penalty costs digits: about 1e-9
 * measured on the reference robots, tests/test_generated_constrained.c), and aba_fd, whose
 * forward differences divide the two ABAs' rounding by the step (1.5e-8: about 1e-8). */
static double flag_above(int algo)
{
    if (algo == BENCH_ABA_FD)
        return 1e-5;
    return algo == BENCH_PROX_LTLS || algo == BENCH_CONSTRAINED_ABA ? 1e-7 : 1e-9;
}

void bench_print_row(FILE *f, const bench_row *r, int algo, int markdown)
{
    char gen[32], lo[32], hi[32], range[72], ref[32], ops[48], code[32];
    format_us(gen, sizeof gen, r->generated.median);
    format_us(lo, sizeof lo, r->generated.min);
    format_us(hi, sizeof hi, r->generated.max);
    snprintf(range, sizeof range, "(%s-%s)", lo, hi);
    format_us(ref, sizeof ref, r->generic.median);
    format_ops(ops, sizeof ops, r);
    format_bytes(code, sizeof code, r->code_bytes);
    if (markdown)
        fprintf(f, "| %s | %s | %s | %s | %.2f× | %s | %s |\n", r->robot, r->algorithm, gen, ref,
                r->generic.median / r->generated.median, ops, code);
    else
        fprintf(f, "%-14s %-20s %10s %17s %10s %8.2fx %15s %8s %8.1e%s\n", "", r->algorithm, gen,
                range, ref, r->generic.median / r->generated.median, ops, code, r->rel_diff,
                r->rel_diff > flag_above(algo) ? " DIFFERENT" : "");
}

/* "8.13 M": states per second from microseconds per state, three significant digits. */
static void format_rate(char *buf, size_t len, double us)
{
    const double rate = us > 0 ? 1e6 / us : 0;
    if (rate >= 1e6)
        snprintf(buf, len, "%.3g M", rate / 1e6);
    else
        snprintf(buf, len, "%.3g k", rate / 1e3);
}

void bench_print_batch(FILE *f, const bench_row *rows, int n, int markdown)
{
    int i, w = 0;
    for (i = 0; i < n; i++)
        if (rows[i].batch_w > 0 && !w)
            w = rows[i].batch_w;
    if (!w)
        return;
    if (markdown)
        fprintf(f, "\n%s: batch forms (W = %d states a call), per state, against the "
                   "single-state generated form timed with them\n\n| robot | algorithm | "
                   "batch µs/state | single µs | speed-up | states/s per core |\n"
                   "|---|---|---:|---:|---:|---:|\n",
                rows[0].robot, w);
    else
        fprintf(f, "%-14s batch forms (R_batch_*, W = %d states a call) per state, against "
                   "the single-state\n%-14s generated form above, the three sides' batches "
                   "alternating\n%-14s %-20s %10s %17s %10s %9s %15s %8s\n",
                "", w, "", "", "algorithm", "batch/state", "(min-max) us", "single", "speed-up",
                "states/s/core", "rel diff");
    for (i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        char batch[32], lo[32], hi[32], range[72], single[32], rate[32];
        if (r->batch_w <= 0)
            continue;
        format_us(batch, sizeof batch, r->batch.median);
        format_us(lo, sizeof lo, r->batch.min);
        format_us(hi, sizeof hi, r->batch.max);
        snprintf(range, sizeof range, "(%s-%s)", lo, hi);
        format_us(single, sizeof single, r->generated.median);
        format_rate(rate, sizeof rate, r->batch.median);
        if (markdown)
            fprintf(f, "| %s | %s | %s | %s | %.2f× | %s |\n", r->robot, r->algorithm, batch,
                    single, r->generated.median / r->batch.median, rate);
        else
            fprintf(f, "%-14s %-20s %10s %17s %10s %8.2fx %15s %8.1e%s\n", "", r->algorithm,
                    batch, range, single, r->generated.median / r->batch.median, rate,
                    r->batch_rel_diff, r->batch_rel_diff > 1e-9 ? " DIFFERENT" : "");
    }
}

/* Seed 001's Table I: the four solvers in its order. */
static const int table1_algos[4] = { BENCH_CONSTRAINED_ABA, BENCH_PROX_PV, BENCH_PROX_LTLS,
                                     BENCH_PROX_LTL };

void bench_table1_record(bench_table1_row *row, int algo, const bench_row *r)
{
    int k;
    for (k = 0; k < 4; k++)
        if (table1_algos[k] == algo) {
            row->us[k][GENERATED] = r->generated.median;
            row->us[k][GENERIC] = r->generic.median;
        }
}

static void table1_cell(FILE *f, double us, const char *sep)
{
    char cell[32];
    if (us > 0)
        format_us(cell, sizeof cell, us);
    else
        snprintf(cell, sizeof cell, "-");
    fprintf(f, "%s%8s", sep, cell);
}

/* Generated µs of the four solvers, then their generic µs, and the fastest generated. */
void bench_table1_print(FILE *f, const bench_table1_row *rows, int n, int markdown)
{
    static const char *names[4] = { "cABA", "PV", "LTLs", "LTL" };
    const char *sep = markdown ? " | " : " ";
    int i, k, side;
    if (n == 0)
        return;
    fprintf(f, "\nTable I layout (seed 001): three proximal iterations, mu = 1e-6; µs, "
               "generated | generic\n\n");
    fprintf(f, markdown ? "| set | nv | m" : "%-20s %3s %3s", "set", "nv", "m");
    for (side = 0; side < 2; side++)
        for (k = 0; k < 4; k++)
            fprintf(f, "%s%8s", sep, names[k]);
    fprintf(f, "%s%s\n", sep, markdown ? "fastest |" : "fastest");
    if (markdown)
        fprintf(f, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (i = 0; i < n; i++) {
        const bench_table1_row *r = &rows[i];
        int best = 0;
        fprintf(f, markdown ? "| %s | %d | %d" : "%-20s %3d %3d", r->name, r->nv, r->nc);
        for (side = 0; side < 2; side++)
            for (k = 0; k < 4; k++)
                table1_cell(f, r->us[k][side], sep);
        for (k = 1; k < 4; k++)
            if (r->us[k][GENERATED] > 0 && r->us[k][GENERATED] < r->us[best][GENERATED])
                best = k;
        fprintf(f, "%s%s%s\n", sep, names[best], markdown ? " |" : "");
    }
}

typedef void (*bench_writer)(FILE *f, const bench_setup *s, const bench_row *rows, int n);

/* The whole file or none: written beside the target, renamed over it at the end. */
static int write_file(const char *path, bench_writer w, const bench_setup *s, const bench_row *rows,
                      int n)
{
    char tmp[4096];
    FILE *f;
    int ok;
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return -1;
    if (!(f = fopen(tmp, "w")))
        return -1;
    w(f, s, rows, n);
    ok = !ferror(f);
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

/* ---- CSV ---- */

/* A field quoted when it holds a comma, quote or line break (RFC 4180). */
static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_long(FILE *f, long x)
{
    if (x >= 0)
        fprintf(f, ",%ld", x);
    else
        fputs(",", f); /* unknown: empty */
}

static void csv_rows(FILE *f, const bench_setup *s, const bench_row *rows, int n)
{
    int i;
    fputs("robot,algorithm,generated_us,generated_min_us,generated_max_us,generic_us,"
          "generic_min_us,generic_max_us,speedup,mul,add,code_bytes,rel_diff",
          f);
    if (s->batch_w) /* --batch: empty on the rows without a batch form */
        fputs(",batch_w,batch_us_per_state,batch_min_us_per_state,batch_max_us_per_state,"
              "batch_speedup,batch_states_per_second,batch_rel_diff",
              f);
    fputc('\n', f);
    for (i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        csv_field(f, r->robot);
        fputc(',', f);
        csv_field(f, r->algorithm);
        fprintf(f, ",%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g", r->generated.median, r->generated.min,
                r->generated.max, r->generic.median, r->generic.min, r->generic.max,
                r->generic.median / r->generated.median);
        csv_long(f, r->mul);
        csv_long(f, r->add);
        csv_long(f, r->code_bytes);
        fprintf(f, ",%.3g", r->rel_diff);
        if (s->batch_w && r->batch_w > 0)
            fprintf(f, ",%d,%.6g,%.6g,%.6g,%.4g,%.6g,%.3g", r->batch_w, r->batch.median,
                    r->batch.min, r->batch.max, r->generated.median / r->batch.median,
                    1e6 / r->batch.median, r->batch_rel_diff);
        else if (s->batch_w)
            fputs(",,,,,,,", f);
        fputc('\n', f);
    }
}

int bench_write_csv(const char *path, const bench_setup *s, const bench_row *rows, int n)
{
    return write_file(path, csv_rows, s, rows, n);
}

/* ---- JSON ---- */

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_long(FILE *f, const char *key, long x)
{
    if (x >= 0)
        fprintf(f, ", \"%s\": %ld", key, x);
    else
        fprintf(f, ", \"%s\": null", key);
}

static void json_rows(FILE *f, const bench_setup *s, const bench_row *rows, int n)
{
    int i;
    fputs("{\n  \"cpu\": ", f);
    json_string(f, s->cpu);
    fputs(",\n  \"compiler\": ", f);
    json_string(f, s->compiler);
    fputs(",\n  \"flags\": ", f);
    json_string(f, s->flags);
    fprintf(f, ",\n  \"batches\": %ld,\n  \"calls\": %ld,", s->batches, s->calls);
    if (s->batch_w)
        fprintf(f, "\n  \"batch_w\": %d,", s->batch_w);
    fputs("\n  \"rows\": [", f);
    for (i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        fputs(i ? ",\n    {\"robot\": " : "\n    {\"robot\": ", f);
        json_string(f, r->robot);
        fputs(", \"algorithm\": ", f);
        json_string(f, r->algorithm);
        fprintf(f,
                ", \"generated_us\": %.6g, \"generated_min_us\": %.6g, "
                "\"generated_max_us\": %.6g, \"generic_us\": %.6g, \"generic_min_us\": %.6g, "
                "\"generic_max_us\": %.6g, \"speedup\": %.4g",
                r->generated.median, r->generated.min, r->generated.max, r->generic.median,
                r->generic.min, r->generic.max, r->generic.median / r->generated.median);
        json_long(f, "mul", r->mul);
        json_long(f, "add", r->add);
        json_long(f, "code_bytes", r->code_bytes);
        fprintf(f, ", \"rel_diff\": %.3g", r->rel_diff);
        if (s->batch_w && r->batch_w > 0)
            fprintf(f,
                    ", \"batch_w\": %d, \"batch_us_per_state\": %.6g, "
                    "\"batch_min_us_per_state\": %.6g, \"batch_max_us_per_state\": %.6g, "
                    "\"batch_speedup\": %.4g, \"batch_states_per_second\": %.6g, "
                    "\"batch_rel_diff\": %.3g",
                    r->batch_w, r->batch.median, r->batch.min, r->batch.max,
                    r->generated.median / r->batch.median, 1e6 / r->batch.median,
                    r->batch_rel_diff);
        fputc('}', f);
    }
    fputs("\n  ]\n}\n", f);
}

int bench_write_json(const char *path, const bench_setup *s, const bench_row *rows, int n)
{
    return write_file(path, json_rows, s, rows, n);
}

/* ---- SVG ---- */

enum {
    SVG_WIDTH = 960,
    SVG_LABEL_X = 180,
    SVG_PLOT_END = 860,
    SVG_TOP = 112,
    SVG_BAR = 13,
    SVG_GROUP = 38
};
#define SVG_GENERATED "#1f6fb4"
#define SVG_GENERIC "#b0b0b0"

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if ((unsigned char)*s >= 0x20)
                fputc(*s, f);
        }
    }
}

/* The log scale's ends: whole decades around every time drawn. */
static void decades(const bench_row *rows, int n, double *lo, double *hi)
{
    double a = 1e300, b = 0;
    int i;
    for (i = 0; i < n; i++) {
        const double x[4] = { rows[i].generated.min, rows[i].generated.max, rows[i].generic.min,
                              rows[i].generic.max };
        int k;
        for (k = 0; k < 4; k++)
            if (x[k] > 0) {
                a = x[k] < a ? x[k] : a;
                b = x[k] > b ? x[k] : b;
            }
    }
    if (!(b > 0))
        a = b = 1;
    *lo = pow(10, floor(log10(a)));
    *hi = pow(10, ceil(log10(b)));
    if (*hi <= *lo)
        *hi = *lo * 10;
}

static double svg_x(double us, double lo, double hi)
{
    double t = (log10(us) - log10(lo)) / (log10(hi) - log10(lo));
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return SVG_LABEL_X + t * (SVG_PLOT_END - SVG_LABEL_X);
}

/* Decade lines labelled in µs, with fainter 2x and 5x lines between. */
static void svg_axis(FILE *f, double lo, double hi, int bottom)
{
    double d;
    for (d = lo; d <= hi * 1.0001; d *= 10) {
        const double minor[2] = { 2 * d, 5 * d };
        double x = svg_x(d, lo, hi);
        int k;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999\"/>\n", x,
                SVG_TOP - 6, x, bottom);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"tick\">%g µs</text>\n",
                x, bottom + 16, d);
        for (k = 0; k < 2 && d < hi; k++)
            fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n",
                    svg_x(minor[k], lo, hi), SVG_TOP - 6, svg_x(minor[k], lo, hi), bottom);
    }
}

/* One bar from the axis to the median, a whisker from min to max, the median printed. */
static void svg_bar(FILE *f, const bench_time *t, int y, const char *colour, double lo, double hi)
{
    double x = svg_x(t->median, lo, hi);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n", SVG_LABEL_X,
            y, x - SVG_LABEL_X, SVG_BAR, colour);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>\n",
            svg_x(t->min, lo, hi), y + SVG_BAR / 2, svg_x(t->max, lo, hi), y + SVG_BAR / 2);
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"value\">%.3g</text>\n", x + 4, y + SVG_BAR - 2,
            t->median);
}

/* "arm7" when every row is of one robot, "arm7, humanoid" otherwise. */
static void robot_names(FILE *f, const bench_row *rows, int n)
{
    int i, j;
    for (i = 0; i < n; i++) {
        for (j = 0; j < i && strcmp(rows[j].robot, rows[i].robot) != 0; j++)
            ;
        if (j == i) {
            if (i > 0)
                fputs(", ", f);
            xml_text(f, rows[i].robot);
        }
    }
}

static void svg_rows(FILE *f, const bench_setup *s, const bench_row *rows, int n)
{
    const int bottom = SVG_TOP + n * SVG_GROUP, height = bottom + 30;
    int one_robot = 1, i;
    double lo, hi;
    for (i = 1; i < n; i++)
        one_robot = one_robot && strcmp(rows[i].robot, rows[0].robot) == 0;
    decades(rows, n, &lo, &hi);
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<style>.title{font-size:16px;font-weight:bold}.sub{fill:#444}.tick{fill:#555;"
            "font-size:11px}.value{font-size:10px;fill:#222}.speed{font-weight:bold}</style>\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            SVG_WIDTH, height, SVG_WIDTH, height);
    fputs("<text x=\"12\" y=\"24\" class=\"title\">cdyngen bench: ", f);
    robot_names(f, rows, n);
    fputs(", generated code vs the generic runtime (µs per call, log scale)</text>\n", f);
    fputs("<text x=\"12\" y=\"44\" class=\"sub\">", f);
    xml_text(f, s->compiler);
    fputs(" ", f);
    xml_text(f, s->flags);
    fputs("</text>\n<text x=\"12\" y=\"62\" class=\"sub\">", f);
    xml_text(f, s->cpu);
    fprintf(f, "; median of %ld batches of %ld calls, whiskers min to max</text>\n", s->batches,
            s->calls);
    fprintf(f,
            "<rect x=\"12\" y=\"74\" width=\"12\" height=\"12\" fill=\"%s\"/>"
            "<text x=\"28\" y=\"84\">generated</text>"
            "<rect x=\"110\" y=\"74\" width=\"12\" height=\"12\" fill=\"%s\"/>"
            "<text x=\"126\" y=\"84\">generic runtime</text>"
            "<text x=\"%d\" y=\"%d\" class=\"speed\">speed-up</text>\n",
            SVG_GENERATED, SVG_GENERIC, SVG_PLOT_END + 28, SVG_TOP - 12);
    svg_axis(f, lo, hi, bottom);
    for (i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        const int y = SVG_TOP + i * SVG_GROUP;
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", SVG_LABEL_X - 8,
                y + SVG_BAR + 4);
        if (!one_robot) {
            xml_text(f, r->robot);
            fputs(" ", f);
        }
        xml_text(f, r->algorithm);
        fputs("</text>\n", f);
        svg_bar(f, &r->generated, y, SVG_GENERATED, lo, hi);
        svg_bar(f, &r->generic, y + SVG_BAR + 1, SVG_GENERIC, lo, hi);
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"speed\">%.2f×</text>\n", SVG_PLOT_END + 36,
                y + SVG_BAR + 4, r->generic.median / r->generated.median);
    }
    fputs("</svg>\n", f);
}

int bench_write_svg(const char *path, const bench_setup *s, const bench_row *rows, int n)
{
    return write_file(path, svg_rows, s, rows, n);
}
