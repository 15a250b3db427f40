/* context.c — the template context of one robot (context.h): what the robot is (names,
 * sizes, frames, bodies, constraint set) and, unless --size, its emitted functions. */
#include "render/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdyn.h" /* CDYN__DATA_REALS and friends: the generic workspace's counts */
#include "check/validate.h"
#include "emit/emit.h"
#include "model/constraints.h"
#include "render/function_parts.h"
#include "render/index_tables.h"
#include "render/lanes.h"
#include "render/programs.h"
#include "util/name_table.h"
#include "util/number.h"

#ifndef CDYNGEN_VERSION
#define CDYNGEN_VERSION "0.0.0"
#endif

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The text emitted so far against o->max_bytes: a robot too big to write is refused as soon
 * as its functions pass the limit, not after all of them are emitted (for a 1,024-DoF forest
 * that is most of a minute). */
typedef struct {
    size_t used, limit; /* limit 0: none */
} text_budget;

/* Adds v's text to b; RENDER_TOO_BIG when that passes the limit, else 0. */
static int spend(text_budget *b, const tpl_value *v)
{
    b->used += tpl_text_bytes(v);
    return b->limit > 0 && b->used > b->limit ? RENDER_TOO_BIG : 0;
}

/* ---- setting values ---- */

static void set_str(tpl_value *d, const char *key, const char *s)
{
    tpl_dict_set(d, key, tpl_string(s));
}

/* Takes a malloc'd s; NULL (out of memory) is remembered by d and fails the rendering. */
static void set_take(tpl_value *d, const char *key, char *s)
{
    tpl_dict_set(d, key, s ? tpl_string_take(s) : NULL);
}

static void set_int(tpl_value *d, const char *key, long v)
{
    tpl_dict_set(d, key, tpl_int(v));
}

static void set_bool(tpl_value *d, const char *key, int v)
{
    tpl_dict_set(d, key, tpl_bool(v));
}

typedef struct {
    const char *key;
    long value;
} named_int;

static void set_ints(tpl_value *d, const named_int *v, int n)
{
    int i;
    for (i = 0; i < n; i++)
        set_int(d, v[i].key, v[i].value);
}

/* "CDYN_R(a), CDYN_R(b), ...", each in its shortest form that reads back to the same double. */
static char *number_list(const double *v, int n)
{
    ebuf b = { 0, 0, 0, 0 };
    char text[32];
    int i;
    ebuf_puts(&b, "");
    for (i = 0; i < n; i++) {
        number_shortest(text, sizeof text, v[i]);
        ebuf_printf(&b, "%sCDYN_R(%s)", i ? ", " : "", text);
    }
    return ebuf_take(&b);
}

typedef struct {
    const char *key;
    const double *v;
    int n;
} named_numbers;

static void set_number_lists(tpl_value *d, const named_numbers *v, int n)
{
    int i;
    for (i = 0; i < n; i++)
        set_take(d, v[i].key, number_list(v[i].v, v[i].n));
}

/* "a, b, c"; "0" for none (an array initialiser may not be empty). */
static char *int_list(const int *v, int n)
{
    ebuf b = { 0, 0, 0, 0 };
    int i;
    ebuf_puts(&b, "");
    for (i = 0; i < n; i++)
        ebuf_printf(&b, "%s%d", i ? ", " : "", v[i]);
    if (n == 0)
        ebuf_puts(&b, "0");
    return ebuf_take(&b);
}

/* The size of a C array holding n items: at least 1, as an array may not be empty. */
static long array_size(long n)
{
    return n > 0 ? n : 1;
}

/* ---- what the robot is ---- */

/* Unique upper-case identifiers for the frame enum: "a-b" -> A_B, collisions get the
 * smallest free suffix _2, _3, ... Hash tables keep it linear in the frames (up to 100,000
 * fixed links): `taken` holds every identifier given, `last` each clashing base's latest
 * suffix, from which the search resumes (every smaller one is taken already). */
static char **frame_idents(const kin_tree *t)
{
    const int n = t->nframes > 0 ? t->nframes : 1;
    char **id = calloc((size_t)n, sizeof *id), **base = calloc((size_t)n, sizeof *base);
    name_table taken = { 0, 0, 0 }, last = { 0, 0, 0 };
    int f, ok = id && base && name_table_init(&taken, n) == 0 && name_table_init(&last, n) == 0;
    for (f = 0; ok && f < t->nframes; f++) {
        int k;
        ok = (base[f] = render_ident_text(t->frames[f].name, 1)) != NULL;
        if (!ok || name_table_insert(&taken, base[f], f) < 0) {
            id[f] = base[f];
            continue;
        }
        k = name_table_find(&last, base[f]);
        ok = (id[f] = malloc(strlen(base[f]) + 16)) != NULL;
        for (k = k < 2 ? 2 : k + 1; ok; k++) {
            sprintf(id[f], "%s_%d", base[f], k);
            if (name_table_insert(&taken, id[f], f) < 0)
                break;
        }
        if (ok)
            name_table_set(&last, base[f], k);
    }
    name_table_free(&taken);
    name_table_free(&last);
    for (f = 0; id && base && f < t->nframes; f++) {
        if (id[f] != base[f])
            free(ok ? base[f] : id[f]);
        if (!ok)
            free(base[f]);
    }
    free(base);
    if (!ok) {
        free(id);
        id = NULL;
    }
    return id;
}

static void free_idents(char **ids, int n)
{
    int i;
    for (i = 0; ids && i < n; i++)
        free(ids[i]);
    free(ids);
}

/* The first frame with f's body and offset (f itself if none comes before it): frames at
 * the same place share one Jacobian function. */
int render_jacobian_index(const kin_tree *t, int f)
{
    const tree_frame *a = &t->frames[f];
    int g;
    for (g = 0; g < f; g++) {
        const tree_frame *b = &t->frames[g];
        if (b->body == a->body && memcmp(b->R, a->R, sizeof a->R) == 0 &&
            memcmp(b->p, a->p, sizeof a->p) == 0)
            return g;
    }
    return f;
}

static tpl_value *frames_value(const kin_tree *t, char **ids)
{
    tpl_value *list = tpl_list();
    int f;
    for (f = 0; f < t->nframes; f++) {
        const tree_frame *fr = &t->frames[f];
        const named_int ints[] = {
            { "index", f },
            { "body", fr->body },
            { "at_body_origin", tree_frame_at_body_origin(fr) },
            { "jacobian", render_jacobian_index(t, f) }, /* its Jacobian functions' index */
        };
        const named_numbers numbers[] = { { "R", fr->R, 9 }, { "p", fr->p, 3 } };
        tpl_value *d = tpl_dict();
        set_ints(d, ints, COUNT(ints));
        set_str(d, "ident", ids[f]);
        set_take(d, "string", render_string_text(fr->name));
        set_take(d, "python_bytes", render_python_bytes_text(fr->name));
        set_take(d, "comment", render_comment_text(fr->name));
        set_bool(d, "moves", fr->body >= 0);
        set_number_lists(d, numbers, COUNT(numbers));
        tpl_list_push(list, d);
    }
    return list;
}

static tpl_value *bodies_value(const kin_tree *t)
{
    static const char *const type[] = { "CDYN_JOINT_REVOLUTE", "CDYN_JOINT_REVOLUTE_UNBOUNDED",
                                        "CDYN_JOINT_PRISMATIC", "CDYN_JOINT_PLANAR",
                                        "CDYN_JOINT_FREEFLYER" };
    tpl_value *list = tpl_list();
    int i;
    for (i = 0; i < t->nbodies; i++) {
        const tree_body *b = &t->bodies[i];
        const named_int ints[] = { { "index", i },  { "parent", b->parent }, { "idx_q", b->idx_q },
                                   { "nq", b->nq }, { "idx_v", b->idx_v },   { "nv", b->nv } };
        const named_numbers numbers[] = { { "axis", b->axis, 3 }, { "R", b->R, 9 },
                                          { "p", b->p, 3 },       { "mass", &b->mass, 1 },
                                          { "com", b->com, 3 },   { "inertia", b->inertia, 6 } };
        tpl_value *d = tpl_dict();
        char label[96], text[512];
        snprintf(text, sizeof text, "body %d %s <- %s, joint %s: %s", i, b->link_name,
                 b->parent < 0 ? "world" : t->bodies[b->parent].link_name, b->joint_name,
                 emit_joint_label(b, label, sizeof label));
        set_ints(d, ints, COUNT(ints));
        set_take(d, "comment", render_comment_text(text));
        set_str(d, "type", type[b->kind]);
        set_number_lists(d, numbers, COUNT(numbers));
        tpl_list_push(list, d);
    }
    return list;
}

static tpl_value *constraint_list(const kin_tree *t, char **ids)
{
    tpl_value *list = tpl_list();
    int i;
    for (i = 0; i < t->nconstraints; i++) {
        const tree_constraint *c = &t->constraints[i];
        const named_int ints[] = { { "index", i },
                                   { "frame_a_index", c->frame_a },
                                   { "frame_b_index", c->frame_b },
                                   { "dim", c->dim },
                                   { "friction", c->friction },
                                   { "row", c->row },
                                   { "offset", c->offset },
                                   { "nsupport", c->nsupport } };
        tpl_value *d = tpl_dict();
        char text[600];
        if (c->is_loop)
            snprintf(text, sizeof text, "loop %dd %.250s - %.250s", c->dim,
                     t->frames[c->frame_a].name, t->frames[c->frame_b].name);
        else
            snprintf(text, sizeof text, "contact %dd %.250s", c->dim, t->frames[c->frame_a].name);
        set_ints(d, ints, COUNT(ints));
        set_take(d, "comment", render_comment_text(text));
        set_bool(d, "is_loop", c->is_loop);
        set_str(d, "frame_a", ids[c->frame_a]);
        set_take(d, "support", int_list(c->support, c->nsupport));
        tpl_list_push(list, d);
    }
    return list;
}

/* The names, the banner's text and the sizes: what every template reads. */
static void robot_value(const kin_tree *t, const render_options *o, char **ids, tpl_value *ctx)
{
    const int nnz = emit_ltl_nnz(t);
    set_int(ctx, "ncarry", 0); /* d->carry's length; functions_value sets it */
    set_int(ctx, "ncarry_lanes", 0);
    const named_int sizes[] = {
        { "nq", t->nq },
        { "nv", t->nv },
        { "nbodies", t->nbodies },
        { "nframes", t->nframes },
        { "nnz", nnz },
        { "nv_alloc", array_size(t->nv) },
        { "nbodies_alloc", array_size(t->nbodies) },
        { "nframes_alloc", array_size(t->nframes) },
        { "nnz_alloc", array_size(nnz) },
        /* the generic workspace (--size: NAME_data holds it; NAME.py mirrors it) */
        { "generic_reals", (long)CDYN__DATA_REALS(t->nbodies, t->nv, t->nframes) },
        { "generic_ints", (long)CDYN__DATA_INTS(t->nbodies, t->nv, nnz) },
    };
    set_str(ctx, "name", o->name);
    set_take(ctx, "NAME", render_ident_text(o->name, 1));
    set_str(ctx, "version", CDYNGEN_VERSION);
    set_take(ctx, "urdf_file", render_comment_text(o->urdf_file ? o->urdf_file : "?"));
    set_take(ctx, "options", render_comment_text(o->options ? o->options : ""));
    set_take(ctx, "robot", render_comment_text(t->name ? t->name : ""));
    set_take(ctx, "robot_string", render_string_text(t->name ? t->name : ""));
    set_bool(ctx, "scalar_float", o->scalar_float);
    /* --batch: W lanes (0: chosen when compiled, --batch native) */
    set_bool(ctx, "batch", o->batch != 0);
    set_int(ctx, "batch_w", o->batch > 0 ? o->batch : 0);
    set_bool(ctx, "floating", t->floating);
    set_bool(ctx, "ltl_in_place", emit_ltl_in_place(t));
    set_bool(ctx, "forward_dynamics", !t->m_singular);
    if (t->m_singular) {
        char why[512];
        validate_singular_text(t, t->singular_body, why, sizeof why);
        set_take(ctx, "singular_reason", render_comment_text(why));
    }
    set_ints(ctx, sizes, COUNT(sizes));
    set_take(ctx, "gravity_vector", number_list(t->gravity, 3));
    set_take(ctx, "dof_parent", int_list(t->dof_parent, t->nv));
    set_take(ctx, "dof_body", int_list(t->dof_body, t->nv));
    tpl_dict_set(ctx, "frames", frames_value(t, ids));
    tpl_dict_set(ctx, "bodies", bodies_value(t));
    set_bool(ctx, "size", o->size);
}

/* The joint limits the contact step holds (--joint-limits): limits, nlimits. */
static void limits_value(const kin_tree *t, tpl_value *ctx)
{
    tpl_value *list = tpl_list();
    int *bodies = malloc(sizeof(int) * (size_t)(t->nbodies > 0 ? t->nbodies : 1));
    const int n = t->joint_limits && bodies ? tree_limited_joints(t, bodies) : 0;
    int i;
    for (i = 0; i < n; i++) {
        const tree_body *b = &t->bodies[bodies[i]];
        const named_int ints[] = { { "idx_q", b->idx_q }, { "idx_v", b->idx_v } };
        const double bounds[2] = { b->lower, b->upper };
        const named_numbers numbers[] = { { "lower", bounds, 1 }, { "upper", bounds + 1, 1 } };
        tpl_value *d = tpl_dict();
        set_ints(d, ints, COUNT(ints));
        set_number_lists(d, numbers, COUNT(numbers));
        set_take(d, "comment", render_comment_text(b->joint_name));
        tpl_list_push(list, d);
    }
    free(bodies);
    tpl_dict_set(ctx, "limits", list);
    set_int(ctx, "nlimits", n);
    set_bool(ctx, "has_limits", n > 0);
    set_bool(ctx, "contact_step", (t->nconstraints > 0 || n > 0) && !t->m_singular);
}

/* The constraint set (nc, constraints, ...), and the generic workspace it needs. */
static void constraint_set_value(const kin_tree *t, char **ids, tpl_value *ctx)
{
    const named_int sizes[] = { { "nc", t->nc },
                                { "ncon", t->nconstraints },
                                { "nnz_J", t->nnz_J } };
    set_ints(ctx, sizes, COUNT(sizes));
    tpl_dict_set(ctx, "constraints", constraint_list(t, ids));
    int k, bilateral = 0;
    for (k = 0; k < t->nconstraints; k++)
        bilateral += !t->constraints[k].friction;
    set_bool(ctx, "contacts_only", tree_contacts_only(t));
    set_bool(ctx, "has_bilateral", bilateral > 0); /* what the projection corrects */
    if (t->nconstraints == 0)
        return;
    /* the generic workspace of the set (--size: NAME_data holds it; NAME.py mirrors it) */
    set_int(ctx, "generic_constraint_reals",
            (long)CDYN__CONSTRAINT_REALS(t->nv, t->nconstraints, t->nc));
    set_int(ctx, "generic_constraint_ints", (long)CDYN__CONSTRAINT_INTS(t->nv, t->nconstraints));
}

/* ---- the emitted functions ---- */

/* A generated function's parts from its emitted body (taken): body, ops (the op counts,
 * comment text) and unused (its (void) lines, or ""); with --batch (o->batch, o not NULL),
 * also lanes: the body retyped for the batch form (lanes.h). */
static tpl_value *function_value(emitted *e, const char *params, const render_options *o)
{
    const char *bodies[1];
    tpl_value *d = tpl_dict();
    bodies[0] = e->body;
    set_take(d, "unused", program_unused_text(params, bodies, 1));
    if (o && o->batch) {
        char lane_type[160];
        snprintf(lane_type, sizeof lane_type, "%s_lanes", o->name);
        set_take(d, "lanes", lanes_retype(e->body, lane_type, o->name));
    }
    set_take(d, "body", e->body);
    set_take(d, "ops", program_ops_text(&e->c));
    return d;
}

/* ctx[a->name]: algorithm a's function; with o (--batch: a function with a batch form), its
 * lanes too. ncarry: function_parts_value's. 0, or -1 out of memory. */
static int set_program(tpl_value *ctx, const kin_tree *t, const program *a,
                       const render_options *o, const char *prefix, int ncarry[2])
{
    emitted e;
    const char *signature = part_signature(a->name);
    if (signature) {
        char lane_type[160];
        tpl_value *d;
        snprintf(lane_type, sizeof lane_type, "%s_lanes", prefix);
        d = function_parts_value(t, a, signature, prefix, o && o->batch ? lane_type : NULL,
                                 ncarry);
        if (!d)
            return -1;
        tpl_dict_set(ctx, a->name, d);
        return 0;
    }
    if (program_run(t, a, &e, "    ") != 0) {
        free(e.body);
        return -1;
    }
    tpl_dict_set(ctx, a->name, function_value(&e, a->params, o));
    return 0;
}

/* The runs of columns a Jacobian of a frame on `body` leaves zero (the DoFs that do not
 * support it), as [{start, count}]: its function clears them row by row. */
static tpl_value *zero_runs_value(const kin_tree *t, int body)
{
    const int last = t->bodies[body].idx_v + t->bodies[body].nv - 1;
    tpl_value *list = tpl_list();
    int col = 0, start;
    while (col < t->nv) {
        for (; col < t->nv && tree_dof_supports(t, col, last); col++)
            ;
        for (start = col; col < t->nv && !tree_dof_supports(t, col, last); col++)
            ;
        if (col > start) {
            const named_int run[] = { { "start", start }, { "count", col - start } };
            tpl_value *d = tpl_dict();
            set_ints(d, run, COUNT(run));
            tpl_list_push(list, d);
        }
    }
    return list;
}

/* frame's Jacobian function, LOCAL or LOCAL_WORLD_ALIGNED; NULL out of memory. */
static tpl_value *jacobian_function(const kin_tree *t, int frame, int local,
                                    const render_options *o)
{
    emitted e;
    if (program_run_jacobian(t, frame, local, &e, "    ") != 0) {
        free(e.body);
        return NULL;
    }
    return function_value(&e, "q", o);
}

/* jacobians: one entry per moving frame with a place of its own, {index (its frame), body,
 * frames (the frames it serves: [{index, comment}]), zero_runs, lwa, local}. */
static tpl_value *jacobian_value(const kin_tree *t, int f, const render_options *o)
{
    tpl_value *d, *frames = tpl_list(), *lwa = jacobian_function(t, f, 0, o),
                  *local = jacobian_function(t, f, 1, o);
    int g;
    if (!lwa || !local) {
        tpl_free(lwa);
        tpl_free(local);
        tpl_free(frames);
        return NULL;
    }
    for (g = f; g < t->nframes; g++)
        if (render_jacobian_index(t, g) == f) {
            tpl_value *e = tpl_dict();
            set_int(e, "index", g);
            set_take(e, "comment", render_comment_text(t->frames[g].name));
            tpl_list_push(frames, e);
        }
    d = tpl_dict();
    set_int(d, "index", f);
    set_int(d, "body", t->frames[f].body);
    tpl_dict_set(d, "frames", frames);
    tpl_dict_set(d, "zero_runs", zero_runs_value(t, t->frames[f].body));
    tpl_dict_set(d, "lwa", lwa);
    tpl_dict_set(d, "local", local);
    return d;
}

/* 0, -1 out of memory, or RENDER_TOO_BIG. */
static int jacobians_value(const kin_tree *t, const render_options *o, text_budget *b,
                           tpl_value *ctx)
{
    tpl_value *list = tpl_list();
    int f, rc = 0;
    for (f = 0; f < t->nframes && rc == 0; f++) {
        tpl_value *d;
        if (t->frames[f].body < 0 || render_jacobian_index(t, f) != f)
            continue;
        d = jacobian_value(t, f, o);
        rc = d ? spend(b, d) : -1;
        tpl_list_push(list, d);
    }
    tpl_dict_set(ctx, "jacobians", list);
    return rc;
}

/* key: an algorithm's steps in several static functions, [{index, body, ops, unused}], each
 * from run (which advances *step) until nsteps; params: run's program_unused_text's; with o,
 * the lanes of each too. 0, -1 out of memory, or RENDER_TOO_BIG. */
static int chunks_value(const kin_tree *t, int nsteps,
                        int (*run)(const kin_tree *t, int *step, emitted *e), const char *params,
                        const render_options *o, text_budget *b, tpl_value *ctx, const char *key)
{
    tpl_value *list = tpl_list();
    int step = 0, index = 0, rc = 0;
    while (step < nsteps && rc == 0) {
        emitted e;
        tpl_value *d;
        if (run(t, &step, &e) != 0) {
            free(e.body);
            rc = -1;
            break;
        }
        d = function_value(&e, params, o);
        set_int(d, "index", index++);
        rc = spend(b, d);
        tpl_list_push(list, d);
    }
    tpl_dict_set(ctx, key, list);
    return rc;
}

/* minv_chunks: M^-1's steps; ltl_parts: a big in-place LTDL's rows, [] for another one
 * (NAME_ltl has ltl.body; the batch form keeps ltl.lanes). */
static int forward_chunks_value(const kin_tree *t, const render_options *o, text_budget *b,
                                tpl_value *ctx)
{
    int rc = chunks_value(t, emit_minv_nsteps(t), program_run_minv_chunk,
                          program_named("minv")->params, o, b, ctx, "minv_chunks");
    if (rc == 0)
        rc = chunks_value(t, program_ltl_in_parts(t) ? t->nv : 0, program_run_ltl_part, "", NULL,
                          b, ctx, "ltl_parts");
    return rc;
}

/* integrate: {body, unused, helpers (static functions it calls, written before it)}. */
static void integrate_value(const kin_tree *t, const char *name, tpl_value *ctx)
{
    ebuf body = { 0, 0, 0, 0 }, helpers = { 0, 0, 0, 0 };
    tpl_value *d = tpl_dict();
    const char *bodies[1];
    ebuf_puts(&body, "");
    ebuf_puts(&helpers, "");
    emit_integrate_text(t, name, &body, "    ");
    emit_integrate_helpers(t, name, &helpers);
    bodies[0] = body.s;
    set_take(d, "unused", program_unused_text("q v dt q_next", bodies, 1));
    set_take(d, "body", ebuf_take(&body));
    set_take(d, "helpers", ebuf_take(&helpers));
    tpl_dict_set(ctx, "integrate", d);
}

/* R_delassus's route: 1 for the articulated sweeps when they emit fewer operations than
 * M, its factor and B^T D B (measured faster where they are: docs/how-it-works.md),
 * 0 otherwise, -1 on oom. The operation counts go to ops[2] (factorisation, articulated). */
static int delassus_route(const kin_tree *t, long ops[2])
{
    long n_kin = program_ops(t, program_named("con_terms_kin"));
    long n_ltl = program_ops(t, program_named("ltl"));
    long n_via_factor = program_ops(t, program_named("delassus"));
    ops[0] = n_kin + n_ltl + n_via_factor;
    ops[1] = tree_contacts_only(t) ? program_ops(t, program_named("pv_delassus")) : 0;
    if (n_kin < 0 || n_ltl < 0 || n_via_factor < 0 || ops[1] < 0)
        return -1;
    return tree_contacts_only(t) && ops[1] < ops[0];
}

/* The algorithms and constrained parts whose bodies robot_batch.c.tpl uses (--batch; its
 * CRBA with M is program_batch_crba's body, not crba's). */
static int has_batch_form(const char *name)
{
    static const char *const names[] = {
        "fk",         "rnea",         "rnea_derivatives", "nle",         "gravity",
        "crba_tree",  "ltl",          "aba",              "con_terms",   "kkt_factor",
        "kkt_solve",  "prox_rhs",     "baumgarte",        "prox_ddq",    "contact_baumgarte",
        "caba_setup", "caba_delta",   "caba_forward",     "caba_rest",   "pv_setup",
        "pv_forward", "ltls_factor",  "ltls_rhs",         "ltls_iterate", "ltls_refine",
        "con_derivatives", "crba_full", /* crba_full: emitted for the batch form alone */
        "minus_minv",
    };
    int i;
    for (i = 0; i < COUNT(names); i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

/* The sizes of the constrained solvers' arrays in NAME_data, from the emitters. */
static const struct {
    const char *key;
    int (*count)(const kin_tree *t);
    int scale; /* items per counted thing */
    int contacts_only;
} solver_arrays[] = {
    { "ltls_nnz", emit_ltls_nnz, 1, 0 },
    { "caba_nstash", emit_caba_stash_size, 1, 1 },
    { "caba_nacc", emit_caba_branches, 6, 1 }, /* a spatial acceleration per branch */
    { "pv_nstash", emit_pv_stash_size, 1, 1 },
};

/* ctx[a->name] as set_program sets it, spent from b: 0, -1 out of memory, or
 * RENDER_TOO_BIG. */
static int set_program_within(tpl_value *ctx, const kin_tree *t, const program *a,
                              const render_options *o, text_budget *b, int ncarry[2])
{
    if (set_program(ctx, t, a, has_batch_form(a->name) ? o : NULL, o->name, ncarry) != 0)
        return -1;
    return spend(b, tpl_dict_get(ctx, a->name));
}

/* The constrained functions' bodies, the solvers' array sizes and R_delassus's route.
 * 0, -1 out of memory, or RENDER_TOO_BIG. */
static int constrained_functions_value(const kin_tree *t, const render_options *o,
                                       text_budget *b, tpl_value *ctx, int ncarry[2])
{
    long ops[2];
    int i, route;
    for (i = 0; i < COUNT(solver_arrays); i++) {
        int n;
        if (solver_arrays[i].contacts_only && !tree_contacts_only(t))
            continue;
        n = solver_arrays[i].count(t);
        if (n < 0)
            return -1;
        set_int(ctx, solver_arrays[i].key, array_size((long)solver_arrays[i].scale * n));
    }
    route = delassus_route(t, ops);
    if (route < 0)
        return -1;
    set_bool(ctx, "delassus_articulated", route);
    set_int(ctx, "delassus_ops_factor", (int)ops[0]);
    set_int(ctx, "delassus_ops_articulated", (int)ops[1]);
    for (i = 0; i < PROGRAM_NCONSTRAINED; i++) {
        const program *a = &program_constrained[i];
        int rc;
        if (a->contacts_only && !tree_contacts_only(t))
            continue;
        rc = set_program_within(ctx, t, a, o, b, ncarry);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* R_aba_derivatives' -M^-1 X: straight-line on a small tree (minus_minv), else the row
 * sweeps, which the constrained derivatives use too (row_sweeps). */
static int minus_minv_value(const kin_tree *t, const render_options *o, text_budget *b,
                            tpl_value *ctx, int ncarry[2])
{
    const int unrolled = program_minus_minv_unrolled(t);
    set_bool(ctx, "minus_minv_unrolled", unrolled);
    set_bool(ctx, "row_sweeps", !unrolled || (t->nconstraints > 0 && tree_contacts_only(t)));
    return unrolled ? set_program_within(ctx, t, &program_minus_minv, o, b, ncarry) : 0;
}

/* Every emitted function's body, in robot.c.tpl's names. 0, -1 out of memory, or
 * RENDER_TOO_BIG when they pass o->max_bytes (the rest left out). */
static int functions_value(const kin_tree *t, const render_options *o, tpl_value *ctx)
{
    text_budget b;
    int i, rc = 0, ncarry[2] = { 0, 0 }; /* d->carry's length in NAME_data, NAME_batch_data */
    b.used = 0;
    b.limit = o->max_bytes;
    for (i = 0; i < program_nalgorithms && rc == 0; i++) {
        const program *a = &program_algorithms[i];
        if (strcmp(a->name, "minv") == 0 || program_left_out(t, a->name))
            continue; /* in chunks, below; or not emitted */
        rc = set_program_within(ctx, t, a, o, &b, ncarry);
    }
    if (rc == 0 && o->batch)
        rc = set_program_within(ctx, t, &program_batch_crba, o, &b, ncarry);
    if (rc == 0)
        rc = minus_minv_value(t, o, &b, ctx, ncarry);
    if (rc == 0) {
        index_tables_value(t, ctx);
        rc = jacobians_value(t, o, &b, ctx);
    }
    if (rc == 0 && !t->m_singular)
        rc = forward_chunks_value(t, o, &b, ctx);
    if (rc == 0 && t->nconstraints > 0)
        rc = constrained_functions_value(t, o, &b, ctx, ncarry);
    if (rc != 0)
        return rc;
    integrate_value(t, o->name, ctx);
    set_int(ctx, "ncarry", ncarry[0]); /* d->carry: the longest of the parts' carry[] */
    set_int(ctx, "ncarry_lanes", ncarry[1]);
    return 0;
}

int context_build(const kin_tree *t, const render_options *o, tpl_value **out)
{
    char **ids = frame_idents(t);
    tpl_value *ctx = ids ? tpl_dict() : NULL;
    int rc = ctx ? 0 : -1;
    if (ctx) {
        robot_value(t, o, ids, ctx);
        constraint_set_value(t, ids, ctx);
        limits_value(t, ctx);
    }
    free_idents(ids, t->nframes);
    if (ctx && !o->size) /* --size: NAME.c calls the runtime, nothing is emitted */
        rc = functions_value(t, o, ctx);
    if (rc != 0) {
        tpl_free(ctx);
        ctx = NULL;
    }
    *out = ctx;
    return rc;
}
