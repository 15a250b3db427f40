/* function_parts.c — a generated function too big to compile as one, emitted as parts
 * (function_parts.h). gcc's register allocator takes time superlinear in a function's size;
 * cut at a comment into parts of a few thousand operations, each a function of its own, the
 * values a later part reads stored into d->carry once and read back where first used. The
 * batch forms (--batch) cut the same program at the same places, over their own d->carry
 * of lane vectors. */
#include "render/function_parts.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/lanes.h"
#include "util/ebuf.h"

/* About this many operations per part of the functions a big robot makes too big to compile
 * as one (talos' RNEA derivative terms: 36k; gcc -O2 took 167 s on it alone, 86% of it in
 * its register allocator's hard-register assignment). The set-ups run faster in the bigger
 * parts (talos F6x2: constrainedABA 2.39 -> 2.61 us under gcc in parts of 4000, proxPV
 * 3.0 -> 3.3; the constrained derivatives 2% slower); RNEA's derivative terms in the
 * smaller ones, which also compile in half the time (talos' RNEA derivatives 9.9 -> 8.9 us
 * under gcc, 9.0 -> 8.7 under clang; the 80-DoF humanoid with hands' terms 12.8 -> 7.3 s at
 * gcc -O3; AMD EPYC). */
#define PART_OPS 8000
#define TERM_PART_OPS 4000

/* The functions that may be emitted in parts, with their parameter lists as the templates
 * declare them ("N" the robot's prefix), which each part repeats, and their parts' size:
 * the derivative terms and the constrained set-ups of big robots. */
static const struct {
    const char *name, *signature;
    int max_ops;
} part_signatures[] = {
    { "rnea_derivatives", "N_data *d, const cdyn_real *q, const cdyn_real *v, const cdyn_real *a",
      TERM_PART_OPS },
    { "con_derivatives", "N_data *d, const cdyn_real *q, const cdyn_real *v, const cdyn_real *a, "
                         "const cdyn_real *lambda, cdyn_real *lambda_dq, cdyn_real *lambda_dv",
      PART_OPS },
    { "caba_setup", "N_data *d, const cdyn_real *q, const cdyn_real *v, const cdyn_real *tau, "
                    "cdyn_real rho, const cdyn_real *astar, cdyn_real *ddq", PART_OPS },
    { "pv_setup", "N_data *d, const cdyn_real *q, const cdyn_real *v, const cdyn_real *tau, "
                  "cdyn_real mu, const cdyn_real *astar", PART_OPS },
    { "pv_delassus", "N_data *d, const cdyn_real *q, cdyn_real mu, cdyn_real *G", PART_OPS },
    { "ltls_factor", "N_data *d, cdyn_real rho", PART_OPS },
};

static int part_entry(const char *name)
{
    int i;
    for (i = 0; i < (int)(sizeof part_signatures / sizeof part_signatures[0]); i++)
        if (strcmp(part_signatures[i].name, name) == 0)
            return i;
    return -1;
}

const char *part_signature(const char *name)
{
    const int i = part_entry(name);
    return i >= 0 ? part_signatures[i].signature : NULL;
}

/* How print_params writes a signature. */
enum params_form {
    PARAMS_DECL, /* "N_data *d, const cdyn_real *q", N the prefix */
    PARAMS_ARGS, /* the names: "d, q" */
    /* the same, with each value parameter (cdyn_real rho) passed by address: "const
     * cdyn_real *rho_in" and "&rho". The batch forms' parts: gcc notes an ABI change for
     * each vector wider than the target's passed by value. */
    PARAMS_DECL_BY_ADDRESS,
    PARAMS_ARGS_BY_ADDRESS,
};

/* The parameter's name: the identifier that ends s[0, n). */
static size_t name_start(const char *s, size_t n)
{
    size_t k = n;
    while (k > 0 && (isalnum((unsigned char)s[k - 1]) || s[k - 1] == '_'))
        k--;
    return k;
}

/* signature in that form, sep between the parameters. */
static void print_params(ebuf *b, const char *signature, const char *prefix,
                         enum params_form form, const char *sep)
{
    const char *s = signature;
    while (*s) {
        const size_t n = strcspn(s, ","), k = name_start(s, n);
        const int robot = s[0] == 'N' && s[1] == '_'; /* N_data: the robot's type */
        const int value = !memchr(s, '*', n) &&
                          (form == PARAMS_DECL_BY_ADDRESS || form == PARAMS_ARGS_BY_ADDRESS);
        if (form == PARAMS_ARGS || form == PARAMS_ARGS_BY_ADDRESS)
            ebuf_printf(b, "%s%.*s", value ? "&" : "", (int)(n - k), s + k);
        else if (value)
            ebuf_printf(b, "const %.*s*%.*s_in", (int)k, s, (int)(n - k), s + k);
        else
            ebuf_printf(b, "%s%.*s", robot ? prefix : "", (int)(n - robot), s + robot);
        s += n;
        if (*s == ',') {
            ebuf_puts(b, sep);
            s++;
            while (*s == ' ')
                s++;
        }
    }
}

/* By address, each part's first lines: "    const cdyn_real rho = *rho_in;" per value
 * parameter. */
static void print_value_copies(ebuf *b, const char *signature)
{
    const char *s = signature;
    while (*s) {
        const size_t n = strcspn(s, ","), k = name_start(s, n);
        if (!memchr(s, '*', n))
            ebuf_printf(b, "    const %.*s%.*s = *%.*s_in;\n", (int)k, s, (int)(n - k), s + k,
                        (int)(n - k), s + k);
        s += n;
        while (*s == ',' || *s == ' ')
            s++;
    }
}

/* The parts of ep (more than one) as functions PREFIX__NAME_partK into *parts, and into
 * *body the calls of them in turn over d->carry; value parameters by address or not. */
static void print_parts(const emitted_parts *ep, const char *name, const char *signature,
                        const char *prefix, int by_address, ebuf *parts, ebuf *body)
{
    ebuf names = { 0, 0, 0, 0 };
    int k;
    print_params(&names, signature, prefix, PARAMS_ARGS, " "); /* a part may leave any unused */
    ebuf_puts(&names, " carry");
    for (k = 0; k < ep->n; k++) {
        const char *bodies[1];
        char *unused;
        bodies[0] = ep->bodies[k];
        unused = names.oom ? NULL : program_unused_text(names.s, bodies, 1);
        if (!unused)
            parts->oom = 1;
        ebuf_printf(parts,
                    "/* %s, part %d of %d: a function too big to compile as one is cut in "
                    "parts;\n * the values a later part reads pass through carry[]. */\n"
                    "static CDYN_NOINLINE void %s__%s_part%d(\n    ",
                    name, k, ep->n, prefix, name, k);
        print_params(parts, signature, prefix, by_address ? PARAMS_DECL_BY_ADDRESS : PARAMS_DECL,
                     ", ");
        ebuf_puts(parts, ", cdyn_real *carry)\n{\n");
        if (by_address)
            print_value_copies(parts, signature);
        ebuf_printf(parts, "%s%s}\n\n", unused ? unused : "", ep->bodies[k]);
        free(unused);
        ebuf_printf(body, "    %s__%s_part%d(", prefix, name, k);
        print_params(body, signature, prefix, by_address ? PARAMS_ARGS_BY_ADDRESS : PARAMS_ARGS,
                     ", ");
        ebuf_puts(body, ", d->carry);\n");
    }
    ebuf_free(&names);
}

static void set_text(tpl_value *d, const char *key, char *s)
{
    tpl_dict_set(d, key, s ? tpl_string_take(s) : NULL);
}

/* d's lanes and lanes_parts_text: the parts printed for PREFIX_batch_data, value
 * parameters by address, retyped. */
static void set_lanes(tpl_value *d, const emitted_parts *ep, const char *name,
                      const char *signature, const char *prefix, const char *lane_type)
{
    ebuf parts = { 0, 0, 0, 0 }, body = { 0, 0, 0, 0 }, batch = { 0, 0, 0, 0 };
    ebuf_puts(&parts, "");
    ebuf_puts(&body, "");
    ebuf_printf(&batch, "%s_batch", prefix);
    if (ep->n > 1 && !batch.oom)
        print_parts(ep, name, signature, batch.s, 1, &parts, &body);
    else
        ebuf_puts(&body, ep->bodies[0]);
    set_text(d, "lanes", body.oom ? NULL : lanes_retype(body.s, lane_type, prefix));
    set_text(d, "lanes_parts_text", parts.oom ? NULL : lanes_retype(parts.s, lane_type, prefix));
    ebuf_free(&parts);
    ebuf_free(&body);
    ebuf_free(&batch);
}

tpl_value *function_parts_value(const kin_tree *t, const program *a, const char *signature,
                                const char *prefix, const char *lane_type, int ncarry[2])
{
    emitted_parts ep;
    tpl_value *d = tpl_dict();
    ebuf parts = { 0, 0, 0, 0 }, body = { 0, 0, 0, 0 };
    const int entry = part_entry(a->name);
    if (program_run_parts(t, a, entry >= 0 ? part_signatures[entry].max_ops : PART_OPS, &ep) != 0) {
        program_parts_free(&ep);
        tpl_free(d);
        return NULL;
    }
    set_text(d, "ops", program_ops_text(&ep.c));
    ebuf_puts(&parts, "");
    ebuf_puts(&body, "");
    if (ep.n > 1) {
        print_parts(&ep, a->name, signature, prefix, 0, &parts, &body);
        tpl_dict_set(d, "unused", tpl_string(""));
        if (ncarry[0] < ep.ncarry)
            ncarry[0] = ep.ncarry;
        if (lane_type && ncarry[1] < ep.ncarry)
            ncarry[1] = ep.ncarry;
    } else {
        const char *bodies[1];
        bodies[0] = ep.bodies[0];
        set_text(d, "unused", program_unused_text(a->params, bodies, 1));
        ebuf_puts(&body, ep.bodies[0]);
    }
    if (lane_type)
        set_lanes(d, &ep, a->name, signature, prefix, lane_type);
    set_text(d, "body", ebuf_take(&body));
    set_text(d, "parts_text", ebuf_take(&parts));
    program_parts_free(&ep);
    return d;
}
