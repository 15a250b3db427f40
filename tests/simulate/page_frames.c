/* page_frames.c — the page of `cdyngen simulate` against its CSV, through the generated FK
 * (tests/simulate.cmake). The page embeds its data as JSON (<script type="application/json"
 * id="sim-data">); each of its frames {"k", "t", "q", "p", ...} must hold exactly the q of
 * the CSV's row k, and p must be every frame's world position FK(q) of the sample quadruped
 * (the generated code of the same URDF and contacts, built here) to 1e-12 m.
 * usage: page_frames PAGE.html RUN.csv; exit 0, or 1 with the first difference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "contact_quadruped.h"

#define NQ CONTACT_QUADRUPED_NQ
#define NF CONTACT_QUADRUPED_NFRAMES
#define MAX_ROWS 200001

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text;
    long n;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        return NULL;
    text = malloc((size_t)n + 1);
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        text = NULL;
    }
    if (text)
        text[n] = '\0';
    fclose(f);
    return text;
}

/* The CSV's q of every row: columns 2 .. 2 + NQ - 1 (after k and t). */
static double (*csv_q(char *text, int *rows))[NQ]
{
    static double q[MAX_ROWS][NQ];
    char *line = strchr(text, '\n'); /* past the header */
    int r = 0, j;
    while (line && line[1] && r < MAX_ROWS) {
        char *p = line + 1;
        for (j = 0; j < 2; j++)
            p = strchr(p, ',') + 1;
        for (j = 0; j < NQ; j++, p++)
            q[r][j] = strtod(p, &p);
        line = strchr(p, '\n');
        r++;
    }
    *rows = r;
    return q;
}

/* The numbers of the array after "key": in the object at s (up to n of them). */
static int numbers(const char *s, const char *key, double *out, int n)
{
    char want[16];
    const char *p;
    int k = 0;
    snprintf(want, sizeof want, "\"%s\":", key);
    if (!(p = strstr(s, want)))
        return -1;
    p += strlen(want);
    if (*p != '[') {
        out[0] = strtod(p, NULL);
        return 1;
    }
    for (p++; *p != ']' && k < n; k++) {
        char *end;
        out[k] = strtod(p, &end);
        p = end + (*end == ',');
    }
    return k;
}

/* FK(q) of every frame against the page's points. */
static double fk_error(const double *q, const double *p)
{
    static contact_quadruped_data d;
    cdyn_real qr[NQ], R[9], pos[3];
    double worst = 0;
    int f, i;
    for (i = 0; i < NQ; i++)
        qr[i] = q[i];
    contact_quadruped_fk(&d, qr);
    for (f = 0; f < NF; f++) {
        contact_quadruped_frame_placement(&d, f, R, pos);
        for (i = 0; i < 3; i++)
            worst = fmax(worst, fabs(pos[i] - p[3 * f + i]));
    }
    return worst;
}

/* The page's frames against the CSV's rows: 0, or 1 reported. */
static int check_frames(const char *page, double (*rows)[NQ], int nrows)
{
    const char *s;
    double k, q[NQ + 1], p[3 * NF + 1], worst = 0;
    int frames = 0, last = -1, j;
    if (!page || !rows || !(s = strstr(page, "id=\"sim-data\"")) || !(s = strstr(s, "\"frames\":["))) {
        fprintf(stderr, "page_frames: cannot read the page's frames or the CSV\n");
        return 1;
    }
    for (s = strchr(s, '{'); s; s = strchr(s + 1, '{'), frames++) {
        const char *end = strchr(s, '}');
        if (numbers(s, "k", &k, 1) != 1 || numbers(s, "q", q, NQ + 1) != NQ ||
            numbers(s, "p", p, 3 * NF + 1) != 3 * NF || k <= last || k >= nrows || !end) {
            fprintf(stderr, "page_frames: frame %d: bad k, q or p\n", frames);
            return 1;
        }
        last = (int)k;
        for (j = 0; j < NQ; j++)
            if (q[j] != rows[last][j]) {
                fprintf(stderr, "page_frames: frame %d (k %d): q[%d] %.17g, the CSV's %.17g\n",
                        frames, last, j, q[j], rows[last][j]);
                return 1;
            }
        worst = fmax(worst, fk_error(q, p));
        if (worst > 1e-12) {
            fprintf(stderr, "page_frames: frame %d (k %d): points %.3g m from FK(q)\n", frames,
                    last, worst);
            return 1;
        }
        s = end;
        if (strncmp(end, "}]", 2) == 0 || strncmp(end, "}\n]", 3) == 0) {
            frames++;
            break;
        }
    }
    printf("page_frames: %d frames of %d rows: q as the CSV's, points FK(q) within %.2g m\n",
           frames, nrows, worst);
    return frames >= 2 && last == nrows - 1 ? 0 : 1;
}

int main(int argc, char **argv)
{
    char *page = argc == 3 ? slurp(argv[1]) : NULL, *csv = argc == 3 ? slurp(argv[2]) : NULL;
    int nrows = 0;
    double (*rows)[NQ] = csv ? csv_q(csv, &nrows) : NULL;
    const int rc = check_frames(page, rows, nrows);
    free(page);
    free(csv);
    return rc;
}
