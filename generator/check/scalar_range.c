/* scalar_range.c — are the constants of the generated code representable in its scalar? */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check/scalar_range.h"

typedef struct {
    const char *name;
    double tiny, huge; /* smallest normal and largest finite magnitude */
} scalar_limits;

static scalar_limits limits_of(int scalar_float)
{
    scalar_limits l;
    l.name = scalar_float ? "float" : "double";
    l.tiny = scalar_float ? FLT_MIN : DBL_MIN;
    l.huge = scalar_float ? FLT_MAX : DBL_MAX;
    return l;
}

static int in_range(double x, const scalar_limits *l)
{
    double a = x < 0 ? -x : x;
    return x == 0 || (a >= l->tiny && a <= l->huge);
}

/* Index of the first of v[0..n) out of range, or -1. */
static int first_out_of_range(const double *v, int n, const scalar_limits *l)
{
    int i;
    for (i = 0; i < n; i++)
        if (!in_range(v[i], l))
            return i;
    return -1;
}

/* What the user can do about x. */
static const char *advice(const scalar_limits *l, double x)
{
    int is_float = l->huge < DBL_MAX, tiny = x < l->tiny && x > -l->tiny;
    if (tiny)
        return is_float ? "write 0 for a value that is noise, or generate in double"
                        : "write 0 for a value that is noise";
    return is_float ? "check its units (m, kg, kg m^2), or generate in double"
                    : "check its units (m, kg, kg m^2)";
}

static int refuse_value(const scalar_limits *l, const char *file, int line, const char *what,
                        const char *name, const char *field, double x, char *err, size_t errlen)
{
    snprintf(err, errlen,
             "%s:%d: %s \"%s\": %s %g is not representable in %s (a magnitude in [%g, %g], or "
             "0); %s",
             file, line, what, name, field, x, l->name, l->tiny, l->huge, advice(l, x));
    return -1;
}

int scalar_range_check_tree(const kin_tree *t, int scalar_float, const char *file, char *err,
                            size_t errlen)
{
    const scalar_limits l = limits_of(scalar_float);
    int i, k;
    for (i = 0; i < t->nbodies; i++) {
        const tree_body *b = &t->bodies[i];
        const struct {
            const char *field;
            const double *v;
            int n;
        } parts[] = { { "joint axis", b->axis, 3 },    { "joint rotation", b->R, 9 },
                      { "joint origin", b->p, 3 },     { "mass", &b->mass, 1 },
                      { "centre of mass", b->com, 3 }, { "inertia", b->inertia, 6 } };
        for (k = 0; k < (int)(sizeof parts / sizeof parts[0]); k++) {
            int at = first_out_of_range(parts[k].v, parts[k].n, &l);
            if (at >= 0)
                return refuse_value(&l, file, b->line, "joint", b->joint_name, parts[k].field,
                                    parts[k].v[at], err, errlen);
        }
    }
    for (i = 0; i < t->nframes; i++) {
        const tree_frame *f = &t->frames[i];
        int atR = first_out_of_range(f->R, 9, &l), atp = first_out_of_range(f->p, 3, &l);
        if (atR >= 0 || atp >= 0)
            return refuse_value(&l, file, f->line, "link", f->name,
                                atR >= 0 ? "placement rotation" : "placement",
                                atR >= 0 ? f->R[atR] : f->p[atp], err, errlen);
    }
    return 0;
}

/* The first `needle` at or after p, or NULL. Not strstr: sanitizers' strstr measures the
 * whole haystack on every call, which makes a scan of megabytes quadratic. */
static const char *find(const char *p, const char *needle)
{
    const size_t n = strlen(needle);
    for (; *p != '\0'; p++)
        if (*p == needle[0] && strncmp(p, needle, n) == 0)
            return p;
    return NULL;
}

/* The body number of the last body banner, "/" "* body N ", in text[0..end), or -1. */
static int body_before(const char *text, const char *end)
{
    static const char mark[] = "/* body ";
    const char *p = text, *last = NULL;
    while ((p = find(p, mark)) != NULL && p < end) {
        last = p;
        p += sizeof mark - 1;
    }
    return last ? atoi(last + sizeof mark - 1) : -1;
}

int scalar_range_check_text(const kin_tree *t, int scalar_float, const char *file, const char *text,
                            char *err, size_t errlen)
{
    static const char open[] = "CDYN_R(";
    const scalar_limits l = limits_of(scalar_float);
    const char *p = text;
    while ((p = find(p, open)) != NULL) {
        char *end;
        double x = strtod(p + sizeof open - 1, &end);
        int body;
        p += sizeof open - 1;
        if (end == p || *end != ')' || in_range(x, &l))
            continue; /* not a literal (the macro's own definition) */
        body = body_before(text, p);
        if (body >= 0 && body < t->nbodies)
            snprintf(err, errlen,
                     "%s:%d: joint \"%s\": the generated code folds this body's values into "
                     "the constant %g, which %s cannot hold (magnitudes [%g, %g], or 0): an "
                     "inertia or length too small or too large to be inverted or multiplied "
                     "out; %s",
                     file, t->bodies[body].line, t->bodies[body].joint_name, x, l.name, l.tiny,
                     l.huge, advice(&l, x));
        else
            snprintf(err, errlen,
                     "%s: the generated code folds the model's values into the constant %g, "
                     "which %s cannot hold (magnitudes [%g, %g], or 0)",
                     file, x, l.name, l.tiny, l.huge);
        return -1;
    }
    return 0;
}
