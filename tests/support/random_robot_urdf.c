/* random_robot_urdf.c — the URDF writer of the random robots (the shortest round-trip
 * numbers, every way an element may be written), and random_robot.h's public API. */
#include "random_robot.h"
#include "random_robot_model.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------------- printing --- */

static const char *const rr_type_names[] = { "revolute", "continuous", "prismatic",
                                             "fixed",    "floating",   "planar" };

typedef struct {
    char *s;
    size_t len, cap;
    int failed;
} rr_buf;

static void rr_printf(rr_buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (b->failed)
        return;
    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        {
            size_t cap = 2 * b->cap + (size_t)n + 1;
            char *s = realloc(b->s, cap);
            if (!s) {
                b->failed = 1;
                return;
            }
            b->s = s;
            b->cap = cap;
        }
    }
}

/* The shortest decimal that reads back as the same double. */
static const char *rr_num(char out[32], double x)
{
    int prec;
    if (x == 0.0)
        x = 0.0; /* no "-0" */
    for (prec = 1; prec <= 17; ++prec) {
        snprintf(out, 32, "%.*g", prec, x);
        if (strtod(out, NULL) == x)
            break;
    }
    return out;
}

static void rr_print_vec3(rr_buf *b, const char *attr, const double v[3])
{
    char x[32], y[32], z[32];
    rr_printf(b, " %s=\"%s %s %s\"", attr, rr_num(x, v[0]), rr_num(y, v[1]), rr_num(z, v[2]));
}

static void rr_print_name(rr_buf *b, const char *name)
{
    for (; *name; ++name) {
        switch (*name) {
        case '&': rr_printf(b, "&amp;"); break;
        case '<': rr_printf(b, "&lt;"); break;
        case '>': rr_printf(b, "&gt;"); break;
        case '"': rr_printf(b, "&quot;"); break;
        default: rr_printf(b, "%c", *name);
        }
    }
}

static void rr_print_origin(rr_buf *b, const rr_origin *o, const char *indent)
{
    if (o->form == RR_ORIGIN_ABSENT)
        return;
    rr_printf(b, "%s<origin", indent);
    if (o->form == RR_ORIGIN_BOTH || o->form == RR_ORIGIN_XYZ)
        rr_print_vec3(b, "xyz", o->xyz);
    if (o->form == RR_ORIGIN_BOTH || o->form == RR_ORIGIN_RPY)
        rr_print_vec3(b, "rpy", o->rpy);
    rr_printf(b, "/>\n");
}

static void rr_print_inertial(rr_buf *b, const rr_inertial *in)
{
    static const char *const names[6] = { "ixx", "ixy", "ixz", "iyy", "iyz", "izz" };
    char x[32];
    int e;
    rr_printf(b, "    <inertial>\n");
    rr_print_origin(b, &in->frame, "      ");
    rr_printf(b, "      <mass value=\"%s\"/>\n      <inertia", rr_num(x, in->mass));
    for (e = 0; e < 6; ++e)
        rr_printf(b, " %s=\"%s\"", names[e], rr_num(x, in->I[e]));
    rr_printf(b, "/>\n    </inertial>\n");
}

static void rr_print_link(rr_buf *b, const rr_link *l)
{
    rr_printf(b, "  <link name=\"");
    rr_print_name(b, l->name);
    if (!l->inertial.present && !l->visual) {
        rr_printf(b, "\"/>\n");
        return;
    }
    rr_printf(b, "\">\n");
    if (l->visual)
        rr_printf(b, "    <visual>\n      <geometry><box size=\"0.05 0.05 0.1\"/></geometry>\n"
                     "    </visual>\n");
    if (l->inertial.present)
        rr_print_inertial(b, &l->inertial);
    rr_printf(b, "  </link>\n");
}

static void rr_print_limit(rr_buf *b, const rr_link *l)
{
    char w[32], x[32], y[32], z[32];
    if (l->limit == RR_LIMIT_FULL)
        rr_printf(b, "    <limit lower=\"%s\" upper=\"%s\" effort=\"%s\" velocity=\"%s\"/>\n",
                  rr_num(w, l->lower), rr_num(x, l->upper), rr_num(y, l->effort),
                  rr_num(z, l->velocity));
    else if (l->limit == RR_LIMIT_EFFORT_ONLY)
        rr_printf(b, "    <limit effort=\"%s\" velocity=\"%s\"/>\n", rr_num(y, l->effort),
                  rr_num(z, l->velocity));
}

static void rr_print_joint(rr_buf *b, const rr_robot *r, const rr_link *l)
{
    rr_printf(b, "  <joint name=\"");
    rr_print_name(b, l->joint);
    rr_printf(b, "\" type=\"%s\">\n", rr_type_names[l->type]);
    rr_print_origin(b, &l->origin, "    ");
    rr_printf(b, "    <parent link=\"");
    rr_print_name(b, r->link[l->parent].name);
    rr_printf(b, "\"/>\n    <child link=\"");
    rr_print_name(b, l->name);
    rr_printf(b, "\"/>\n");
    if (l->axis_written) {
        rr_printf(b, "    <axis");
        rr_print_vec3(b, "xyz", l->axis);
        rr_printf(b, "/>\n");
    }
    rr_print_limit(b, l);
    if (l->dynamics)
        rr_printf(b, "    <dynamics damping=\"0.05\" friction=\"0\"/>\n");
    rr_printf(b, "  </joint>\n");
}

static char *rr_print(const rr_robot *r, unsigned seed)
{
    rr_buf b = { NULL, 0, 0, 0 };
    int k;
    b.s = malloc(4096);
    if (!b.s)
        return NULL;
    b.cap = 4096;
    b.s[0] = '\0';
    rr_printf(&b,
              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
              "<!-- cdyngen random robot: seed %u, %d moving joints, nq %d, nv %d, %s -->\n"
              "<robot name=\"random_%u\">\n",
              seed, r->nmoving, r->nq, r->nv,
              r->floating_base ? "for a floating base" : "fixed base", seed);
    for (k = 0; k < r->norder; ++k) {
        if (r->order[k] >= 0)
            rr_print_link(&b, &r->link[r->order[k]]);
        else
            rr_print_joint(&b, r, &r->link[-r->order[k]]);
    }
    rr_printf(&b, "</robot>\n");
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* ------------------------------------------------------------ public API --- */

char *random_robot_urdf(unsigned seed, int *floating_base)
{
    rr_robot *r = rr_generate(seed);
    char *text;
    if (!r)
        return NULL;
    text = rr_print(r, seed);
    if (text && floating_base)
        *floating_base = r->floating_base;
    free(r);
    return text;
}

/* One int of the robot of `seed` (the field at `offset` of rr_robot), -1 if out of memory. */
static int rr_fact(unsigned seed, size_t offset)
{
    rr_robot *r = rr_generate(seed);
    int x = r ? *(const int *)(const void *)((const char *)r + offset) : -1;
    free(r);
    return x;
}

int random_robot_expected_nv(unsigned seed)
{
    return rr_fact(seed, offsetof(rr_robot, nv));
}

int random_robot_expected_nq(unsigned seed)
{
    return rr_fact(seed, offsetof(rr_robot, nq));
}

int random_robot_moving_joints(unsigned seed)
{
    return rr_fact(seed, offsetof(rr_robot, nmoving));
}

int random_robot_is_extreme(unsigned seed)
{
    return rr_fact(seed, offsetof(rr_robot, extreme));
}
