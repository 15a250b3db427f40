/* reference.c — reader for the Pinocchio reference vectors (see reference.h). */
#include "reference.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    ref_record *items;
    int n, cap;
} ref__records;

typedef struct {
    char *key, *value;
} ref__header;

struct ref_file {
    ref__records *sections; /* [0] = before the first state, [k + 1] = state k */
    int nsections;
    ref__header *headers;
    int nheaders;
    ref_joint *joints;
    int njoints;
    ref_frame *frames;
    int nframes;
    ref_contact *contacts;
    int ncontacts;
};

static char *ref__strdup(const char *s)
{
    const size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Grows *items (of `size` bytes each) to hold n + 1; 0 or -1. */
static int ref__grow(void **items, int n, size_t size)
{
    void *p = realloc(*items, (size_t)(n + 1) * size);
    if (!p)
        return -1;
    *items = p;
    return 0;
}

static char *ref__read_all(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t len = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - len - 1, fp);
        if (len < cap - 1)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    if (buf && ferror(fp)) {
        free(buf);
        buf = NULL;
    }
    fclose(fp);
    if (buf)
        buf[len] = '\0';
    return buf;
}

/* Next whitespace-delimited token of *s (NUL-terminated in place), or NULL. */
static char *ref__token(char **s)
{
    char *p = *s;
    while (*p && isspace((unsigned char)*p))
        ++p;
    if (!*p)
        return NULL;
    char *start = p;
    while (*p && !isspace((unsigned char)*p))
        ++p;
    if (*p)
        *p++ = '\0';
    *s = p;
    return start;
}

static int ref__int(const char *tok, int *out)
{
    if (!tok)
        return -1;
    char *end;
    errno = 0;
    const long x = strtol(tok, &end, 10);
    if (*end || end == tok || errno || x < INT_MIN || x > INT_MAX)
        return -1;
    *out = (int)x;
    return 0;
}

static int ref__double(const char *tok, double *out)
{
    if (!tok)
        return -1;
    char *end;
    *out = strtod(tok, &end);
    return *end || end == tok ? -1 : 0;
}

static int ref__doubles(char **s, double *out, int n)
{
    for (int k = 0; k < n; ++k)
        if (ref__double(ref__token(s), out + k))
            return -1;
    return 0;
}

/* "# state k" opens section k + 1. */
static int ref__comment(ref_file *f, const char *line, int *section)
{
    int k;
    char extra;
    if (sscanf(line, "# state %d %c", &k, &extra) != 1)
        return 0;
    if (k < 0 || k + 1 < f->nsections)
        return -1; /* states come in increasing order */
    while (f->nsections <= k + 1) {
        if (ref__grow((void **)&f->sections, f->nsections, sizeof *f->sections))
            return -1;
        memset(&f->sections[f->nsections++], 0, sizeof *f->sections);
    }
    *section = k + 1;
    return 0;
}

static int ref__joint(ref_file *f, char *rest)
{
    ref_joint j;
    char *name = ref__token(&rest), *type;
    if (ref__int(name, &j.id) || !(name = ref__token(&rest)) || !(type = ref__token(&rest)) ||
        ref__int(ref__token(&rest), &j.idx_q) || ref__int(ref__token(&rest), &j.nq) ||
        ref__int(ref__token(&rest), &j.idx_v) || ref__int(ref__token(&rest), &j.nv) ||
        ref__int(ref__token(&rest), &j.parent) || ref__token(&rest))
        return -1;
    if (ref__grow((void **)&f->joints, f->njoints, sizeof *f->joints))
        return -1;
    j.name = ref__strdup(name);
    j.type = ref__strdup(type);
    f->joints[f->njoints++] = j;
    return j.name && j.type ? 0 : -1;
}

static int ref__frame(ref_file *f, char *rest)
{
    ref_frame fr;
    char *name = ref__token(&rest);
    if (!name || ref__int(ref__token(&rest), &fr.id) ||
        ref__int(ref__token(&rest), &fr.parent_joint) || ref__doubles(&rest, fr.R, 9) ||
        ref__doubles(&rest, fr.p, 3) || ref__token(&rest))
        return -1;
    if (ref__grow((void **)&f->frames, f->nframes, sizeof *f->frames))
        return -1;
    fr.name = ref__strdup(name);
    f->frames[f->nframes++] = fr;
    return fr.name ? 0 : -1;
}

static int ref__contact(ref_file *f, char *rest)
{
    ref_contact c;
    char *dim, *frame;
    if (ref__int(ref__token(&rest), &c.index) || !(dim = ref__token(&rest)) ||
        !(frame = ref__token(&rest)) || ref__int(ref__token(&rest), &c.parent_joint))
        return -1;
    if (strcmp(dim, "3D") && strcmp(dim, "6D"))
        return -1;
    c.dim = dim[0] - '0';
    if (ref__grow((void **)&f->contacts, f->ncontacts, sizeof *f->contacts))
        return -1;
    c.frame = ref__strdup(frame);
    f->contacts[f->ncontacts++] = c;
    return c.frame ? 0 : -1;
}

static int ref__header_line(ref_file *f, const char *key, char *rest)
{
    while (*rest && isspace((unsigned char)*rest))
        ++rest;
    size_t n = strlen(rest);
    while (n && isspace((unsigned char)rest[n - 1]))
        rest[--n] = '\0';
    if (ref__grow((void **)&f->headers, f->nheaders, sizeof *f->headers))
        return -1;
    ref__header *h = &f->headers[f->nheaders++];
    h->key = ref__strdup(key);
    h->value = ref__strdup(rest);
    return h->key && h->value ? 0 : -1;
}

/* `name rows cols v...` when it parses as one (1), a header line otherwise (0), -1 on
 * a record whose value count is wrong or no memory. */
static int ref__record(ref__records *sec, const char *name, char *rest)
{
    char *probe = rest;
    int rows, cols;
    if (ref__int(ref__token(&probe), &rows) || ref__int(ref__token(&probe), &cols))
        return 0;
    if (rows < 0 || cols < 0 || (cols && rows > INT_MAX / cols))
        return -1;
    ref_record r = { NULL, rows, cols, malloc(sizeof(double) * (size_t)(rows * cols + 1)) };
    if (!r.v || ref__doubles(&probe, r.v, rows * cols) || ref__token(&probe) ||
        ref__grow((void **)&sec->items, sec->n, sizeof *sec->items)) {
        free(r.v);
        return -1;
    }
    r.name = ref__strdup(name);
    sec->items[sec->n++] = r;
    return r.name ? 1 : -1;
}

static int ref__line(ref_file *f, char *line, int *section)
{
    if (line[0] == '#')
        return ref__comment(f, line, section);
    char *rest = line, *key = ref__token(&rest);
    if (!key)
        return 0;
    if (!strcmp(key, "joint"))
        return ref__joint(f, rest);
    if (!strcmp(key, "frame"))
        return ref__frame(f, rest);
    if (!strcmp(key, "contact"))
        return ref__contact(f, rest);
    const int rec = ref__record(&f->sections[*section], key, rest);
    return rec ? (rec > 0 ? 0 : -1) : ref__header_line(f, key, rest);
}

ref_file *ref_load(const char *path)
{
    char *text = ref__read_all(path);
    ref_file *f = text ? calloc(1, sizeof *f) : NULL;
    if (!f || !(f->sections = calloc(1, sizeof *f->sections))) {
        free(text);
        free(f);
        return NULL;
    }
    f->nsections = 1;
    int section = 0, status = 0;
    for (char *line = text; line && !status;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        status = ref__line(f, line, &section);
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    if (status) {
        ref_free(f);
        return NULL;
    }
    return f;
}

void ref_free(ref_file *f)
{
    if (!f)
        return;
    for (int s = 0; s < f->nsections; ++s) {
        for (int k = 0; k < f->sections[s].n; ++k) {
            free(f->sections[s].items[k].name);
            free(f->sections[s].items[k].v);
        }
        free(f->sections[s].items);
    }
    for (int k = 0; k < f->nheaders; ++k) {
        free(f->headers[k].key);
        free(f->headers[k].value);
    }
    for (int k = 0; k < f->njoints; ++k) {
        free(f->joints[k].name);
        free(f->joints[k].type);
    }
    for (int k = 0; k < f->nframes; ++k)
        free(f->frames[k].name);
    for (int k = 0; k < f->ncontacts; ++k)
        free(f->contacts[k].frame);
    free(f->sections);
    free(f->headers);
    free(f->joints);
    free(f->frames);
    free(f->contacts);
    free(f);
}

int ref_nstates(const ref_file *f)
{
    return f ? f->nsections - 1 : 0;
}

static const ref__records *ref__section(const ref_file *f, int state)
{
    return f && state >= -1 && state + 1 < f->nsections ? &f->sections[state + 1] : NULL;
}

const ref_record *ref_get(const ref_file *f, int state, const char *name)
{
    const ref__records *sec = ref__section(f, state);
    for (int k = 0; sec && name && k < sec->n; ++k)
        if (!strcmp(sec->items[k].name, name))
            return &sec->items[k];
    return NULL;
}

int ref_nrecords(const ref_file *f, int state)
{
    const ref__records *sec = ref__section(f, state);
    return sec ? sec->n : 0;
}

const ref_record *ref_record_at(const ref_file *f, int state, int k)
{
    const ref__records *sec = ref__section(f, state);
    return sec && k >= 0 && k < sec->n ? &sec->items[k] : NULL;
}

const char *ref_header(const ref_file *f, const char *key)
{
    for (int k = 0; f && key && k < f->nheaders; ++k)
        if (!strcmp(f->headers[k].key, key))
            return f->headers[k].value;
    return NULL;
}

int ref_header_int(const ref_file *f, const char *key, int fallback)
{
    int x;
    const char *v = ref_header(f, key);
    return v && !ref__int(v, &x) ? x : fallback;
}

int ref_njoints(const ref_file *f)
{
    return f ? f->njoints : 0;
}

const ref_joint *ref_joint_at(const ref_file *f, int k)
{
    return f && k >= 0 && k < f->njoints ? &f->joints[k] : NULL;
}

const ref_joint *ref_find_joint(const ref_file *f, const char *name)
{
    for (int k = 0; f && name && k < f->njoints; ++k)
        if (!strcmp(f->joints[k].name, name))
            return &f->joints[k];
    return NULL;
}

int ref_nframes(const ref_file *f)
{
    return f ? f->nframes : 0;
}

const ref_frame *ref_frame_at(const ref_file *f, int k)
{
    return f && k >= 0 && k < f->nframes ? &f->frames[k] : NULL;
}

const ref_frame *ref_find_frame(const ref_file *f, const char *name)
{
    for (int k = 0; f && name && k < f->nframes; ++k)
        if (!strcmp(f->frames[k].name, name))
            return &f->frames[k];
    return NULL;
}

int ref_ncontacts(const ref_file *f)
{
    return f ? f->ncontacts : 0;
}

const ref_contact *ref_contact_at(const ref_file *f, int k)
{
    return f && k >= 0 && k < f->ncontacts ? &f->contacts[k] : NULL;
}
