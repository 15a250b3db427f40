/* report_html.c — the page of `cdyngen report`: what the tree holds, as template values.
 *
 * templates/report.html.tpl lays the page out (CSS, script, sections); this file decides
 * every row and number, and escapes every name on the way in (the template engine prints
 * strings as they are). The diagrams come from report_tree.c and report_matrix.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/constraints.h"
#include "render/embedded.h"
#include "render/render.h"
#include "commands/report_html.h"
#include "commands/report_text.h"
#include "commands/report_matrix.h"
#include "commands/report_tree.h"
#include "commands/summary.h"
#include "render/template.h"

#define REPORT_TEMPLATE "templates/report.html.tpl"
#define MAX_LISTED 12 /* names listed in a sentence, then "and N more" */

/* ---- template values ---- */

static void set_html(tpl_value *d, const char *key, const char *s)
{
    ebuf b = { 0, 0, 0, 0 };
    report_html_escape(&b, s, 0);
    tpl_dict_set(d, key, tpl_string_take(ebuf_take(&b)));
}

static const char *body_name(const kin_tree *t, int body)
{
    return body < 0 ? "world" : t->bodies[body].joint_name;
}

static tpl_value *joint_rows(const kin_tree *t)
{
    static const char *kinds[] = { "revolute", "continuous", "prismatic", "planar", "freeflyer" };
    tpl_value *rows = tpl_list();
    int i;
    for (i = 0; i < t->nbodies; i++) {
        const tree_body *b = &t->bodies[i];
        tpl_value *d = tpl_dict();
        char axis[64];
        summary_axis_text(b, axis, sizeof axis);
        set_html(d, "name", b->joint_name);
        tpl_dict_set(d, "type", tpl_string(summary_kind_name(b->kind)));
        tpl_dict_set(d, "kind", tpl_string(kinds[b->kind]));
        tpl_dict_set(d, "axis", tpl_string(axis));
        set_html(d, "parent", body_name(t, b->parent));
        set_html(d, "link", b->link_name);
        tpl_dict_set(d, "idx_q", tpl_int(b->idx_q));
        tpl_dict_set(d, "nq", tpl_int(b->nq));
        tpl_dict_set(d, "idx_v", tpl_int(b->idx_v));
        tpl_dict_set(d, "nv", tpl_int(b->nv));
        tpl_list_push(rows, d);
    }
    return rows;
}

/* -0 printed as 0: a placement reads the same whichever way its product rounded. */
static double unsigned_zero(double x)
{
    return x == 0.0 ? 0.0 : x;
}

/* URDF's rpy (R = Rz(yaw) Ry(pitch) Rx(roll)) of a rotation; at pitch +-pi/2 roll is 0. */
static void rpy_text(const double R[9], char *s, size_t n)
{
    double pitch = asin(R[6] < -1 ? 1 : R[6] > 1 ? -1 : -R[6]), roll, yaw;
    if (fabs(R[6]) < 1.0 - 1e-12) {
        roll = atan2(R[7], R[8]);
        yaw = atan2(R[3], R[0]);
    } else {
        roll = 0.0;
        yaw = atan2(-R[1], R[4]);
    }
    snprintf(s, n, "%.6g %.6g %.6g", unsigned_zero(roll), unsigned_zero(pitch), unsigned_zero(yaw));
}

static const char *frame_kind(const kin_tree *t, const tree_frame *f)
{
    if (f->body < 0)
        return "fixed to the world";
    if (strcmp(f->name, t->bodies[f->body].link_name) == 0)
        return "link of the joint";
    return f->has_inertial ? "merged (fixed joint)" : "merged, no inertia";
}

/* "contact 6d", "loop 3d": the constraints that hold frame f. */
static void frame_constraints(const kin_tree *t, int f, char *s, size_t n)
{
    int c;
    s[0] = '\0';
    for (c = 0; c < t->nconstraints; c++) {
        const tree_constraint *con = &t->constraints[c];
        size_t used = strlen(s);
        if (con->frame_a == f || con->frame_b == f)
            snprintf(s + used, n - used, "%s%s %s", used ? ", " : "",
                     con->is_loop ? "loop" : "contact",
                     con->friction ? "friction" : con->dim == 3 ? "3d" : "6d");
    }
}

static tpl_value *frame_rows(const kin_tree *t)
{
    tpl_value *rows = tpl_list();
    int i;
    for (i = 0; i < t->nframes; i++) {
        const tree_frame *f = &t->frames[i];
        tpl_value *d = tpl_dict();
        char text[128];
        set_html(d, "name", f->name);
        set_html(d, "body", body_name(t, f->body));
        tpl_dict_set(d, "kind", tpl_string(frame_kind(t, f)));
        snprintf(text, sizeof text, "%.6g %.6g %.6g", unsigned_zero(f->p[0]),
                 unsigned_zero(f->p[1]), unsigned_zero(f->p[2]));
        tpl_dict_set(d, "xyz", tpl_string(text));
        rpy_text(f->R, text, sizeof text);
        tpl_dict_set(d, "rpy", tpl_string(text));
        frame_constraints(t, i, text, sizeof text);
        tpl_dict_set(d, "held", tpl_string(text));
        tpl_list_push(rows, d);
    }
    return rows;
}

static tpl_value *constraint_rows(const kin_tree *t)
{
    tpl_value *rows = tpl_list();
    int i;
    for (i = 0; i < t->nconstraints; i++) {
        const tree_constraint *c = &t->constraints[i];
        tpl_value *d = tpl_dict();
        ebuf b = { 0, 0, 0, 0 };
        char text[64];
        report_html_escape(&b, t->frames[c->frame_a].name, 0);
        if (c->is_loop) {
            ebuf_puts(&b, " held on ");
            report_html_escape(&b, t->frames[c->frame_b].name, 0);
        }
        tpl_dict_set(d, "frames", tpl_string_take(ebuf_take(&b)));
        tpl_dict_set(d, "kind", tpl_string(c->is_loop    ? "loop"
                                           : c->friction ? "contact with friction (unilateral)"
                                                         : "contact"));
        tpl_dict_set(d, "dim", tpl_int(c->dim));
        snprintf(text, sizeof text, "%d-%d", c->row, c->row + c->dim - 1);
        tpl_dict_set(d, "rows", tpl_string(text));
        tpl_dict_set(d, "support", tpl_int(c->nsupport));
        tpl_list_push(rows, d);
    }
    return rows;
}

/* render_op_counts, with each algorithm's mul + add as a share of the largest. */
static tpl_value *op_rows(const kin_tree *t)
{
    emit_count counts[32];
    tpl_value *rows = tpl_list();
    long most = 1;
    int i, n = render_op_counts(t, counts, (int)(sizeof counts / sizeof counts[0]));
    if (n < 0) {
        tpl_free(rows);
        return NULL;
    }
    for (i = 0; i < n; i++)
        if (counts[i].mul + counts[i].add > most)
            most = counts[i].mul + counts[i].add;
    for (i = 0; i < n; i++) {
        tpl_value *d = tpl_dict();
        tpl_dict_set(d, "algorithm", tpl_string(counts[i].algorithm));
        tpl_dict_set(d, "mul", tpl_int(counts[i].mul));
        tpl_dict_set(d, "add", tpl_int(counts[i].add));
        tpl_dict_set(d, "div", tpl_int(counts[i].div));
        tpl_dict_set(d, "sqrt", tpl_int(counts[i].sqrt));
        tpl_dict_set(d, "sincos", tpl_int(counts[i].sincos));
        tpl_dict_set(d, "pct", tpl_int((counts[i].mul + counts[i].add) * 100 / most));
        tpl_list_push(rows, d);
    }
    return rows;
}

static tpl_value *matrix_rows(const kin_tree *t)
{
    report_matrix m[REPORT_MAX_MATRICES];
    tpl_value *rows;
    int i, n = report_matrices(t, m);
    if (n < 0)
        return NULL;
    rows = tpl_list();
    for (i = 0; i < n; i++) {
        tpl_value *d = tpl_dict();
        tpl_dict_set(d, "id", tpl_string(m[i].id));
        tpl_dict_set(d, "title", tpl_string(m[i].title));
        tpl_dict_set(d, "legend", tpl_string(m[i].legend));
        tpl_dict_set(d, "n", tpl_int(m[i].n));
        tpl_dict_set(d, "nnz", tpl_int(m[i].nnz));
        tpl_dict_set(d, "of", tpl_int(m[i].of));
        tpl_dict_set(d, "svg", tpl_string_take(m[i].svg));
        m[i].svg = NULL;
        tpl_list_push(rows, d);
    }
    return rows;
}

/* ---- what was specialised ---- */

/* ": a, b, c and N more" of the names picked, escaped. */
static void list_names(ebuf *b, const char *const *names, int n)
{
    int i;
    for (i = 0; i < n && i < MAX_LISTED; i++) {
        ebuf_puts(b, i == 0 ? ": <code>" : ", <code>");
        report_html_escape(b, names[i], 40);
        ebuf_puts(b, "</code>");
    }
    if (n > MAX_LISTED)
        ebuf_printf(b, " and %d more", n - MAX_LISTED);
}

static void fact_axes(ebuf *b, const kin_tree *t, const char **names)
{
    int i, axes = 0, aligned = 0, general = 0;
    for (i = 0; i < t->nbodies; i++) {
        if (t->bodies[i].kind == TREE_FREEFLYER || t->bodies[i].kind == TREE_PLANAR)
            continue;
        axes++;
        if (t->bodies[i].axis_index >= 0)
            aligned++;
        else
            names[general++] = t->bodies[i].joint_name;
    }
    ebuf_printf(b,
                "<b>%d</b> of %d joint axes are &plusmn;x, &plusmn;y or &plusmn;z: their "
                "motion subspace is a unit vector, and products with it are not emitted",
                aligned, axes);
    if (general) {
        ebuf_printf(b, "; %d general", general);
        list_names(b, names, general);
    }
}

static void fact_merged(ebuf *b, const kin_tree *t, const char **names)
{
    int i, merged = 0, massless = 0, world = 0;
    for (i = 0; i < t->nframes; i++) {
        const tree_frame *f = &t->frames[i];
        if (f->body < 0)
            world++;
        else if (strcmp(f->name, t->bodies[f->body].link_name) != 0) {
            merged++;
            if (!f->has_inertial)
                names[massless++] = f->name;
        }
    }
    ebuf_printf(b,
                "<b>%d</b> links merged into their moving parent by fixed joints (their "
                "inertia lumped into that body, the link kept as a frame); %d of them have no "
                "inertia",
                merged, massless);
    list_names(b, names, massless);
    if (world)
        ebuf_printf(b, ". %d link%s fixed to the world (no body)", world,
                    world == 1 ? " is" : "s are");
}

static tpl_value *special_items(const kin_tree *t)
{
    const char **names = malloc((size_t)(t->nframes + t->nbodies + 1) * sizeof *names);
    tpl_value *items = tpl_list();
    ebuf b = { 0, 0, 0, 0 };
    if (!names) {
        tpl_free(items);
        return NULL;
    }
    fact_axes(&b, t, names);
    tpl_list_push(items, tpl_string_take(ebuf_take(&b)));
    ebuf_printf(&b,
                "<b>%d</b> angles and joint axes of the joint and link placements were within "
                "10<sup>&minus;9</sup> rad of a right angle and were made exact (URDFs write right "
                "angles as rounded decimals), so the products they enter fold away",
                t->nsnapped);
    tpl_list_push(items, tpl_string_take(ebuf_take(&b)));
    fact_merged(&b, t, names);
    tpl_list_push(items, tpl_string_take(ebuf_take(&b)));
    ebuf_printf(&b,
                "M has <b>%d</b> structural nonzeros of %d and its factor %d of %d: the "
                "code is emitted on those entries only",
                t->nnz_M, t->nv * t->nv, t->nnz_L, t->nv * (t->nv + 1) / 2);
    tpl_list_push(items, tpl_string_take(ebuf_take(&b)));
    free(names);
    return items;
}

/* What the generator prints on stderr for these options (main.c). */
static tpl_value *note_items(const kin_tree *t)
{
    tpl_value *items = tpl_list();
    if (t->nconstraints > 0 && !tree_contacts_only(t))
        tpl_list_push(items, tpl_string("note: " SUMMARY_LOOP_NOTE));
    return items;
}

/* ---- the page ---- */

static void set_header(tpl_value *ctx, const kin_tree *t, const report_info *info)
{
    set_html(ctx, "version", info->version);
    set_html(ctx, "robot", t->name);
    set_html(ctx, "file", info->urdf_file);
    set_html(ctx, "options", info->options);
    tpl_dict_set(
        ctx, "base",
        tpl_string(t->floating ? "floating (free-flyer root joint)" : "fixed to the world"));
    tpl_dict_set(ctx, "nq", tpl_int(t->nq));
    tpl_dict_set(ctx, "nv", tpl_int(t->nv));
    tpl_dict_set(ctx, "nbodies", tpl_int(t->nbodies));
    tpl_dict_set(ctx, "nframes", tpl_int(t->nframes));
    tpl_dict_set(ctx, "depth", tpl_int(t->max_depth));
    tpl_dict_set(ctx, "nconstraints", tpl_int(t->nconstraints));
    tpl_dict_set(ctx, "nc", tpl_int(t->nc));
    tpl_dict_set(ctx, "solvers",
                 tpl_string(tree_contacts_only(t)
                                ? "prox_ltl, prox_ltls, constrained_aba, prox_pv, delassus, impulse"
                                : "prox_ltl, prox_ltls, delassus, impulse"));
}

static tpl_value *page_context(const kin_tree *t, const report_info *info)
{
    tpl_value *ctx = tpl_dict();
    ebuf tree = { 0, 0, 0, 0 };
    set_header(ctx, t, info);
    report_tree_svg(&tree, t);
    tpl_dict_set(ctx, "tree", tpl_string_take(ebuf_take(&tree)));
    tpl_dict_set(ctx, "matrices", matrix_rows(t));
    tpl_dict_set(ctx, "constraints", constraint_rows(t));
    tpl_dict_set(ctx, "joints", joint_rows(t));
    tpl_dict_set(ctx, "frames", frame_rows(t));
    tpl_dict_set(ctx, "ops", op_rows(t));
    tpl_dict_set(ctx, "special", special_items(t));
    tpl_dict_set(ctx, "notes", note_items(t));
    return ctx;
}

int report_html(const kin_tree *t, const report_info *info, char **out, char *err, size_t errlen)
{
    const char *text = embedded_text(REPORT_TEMPLATE);
    tpl_value *ctx;
    int rc;
    *out = NULL;
    if (!text) {
        snprintf(err, errlen, "template \"%s\" is not built in", REPORT_TEMPLATE);
        return -1;
    }
    ctx = page_context(t, info);
    if (!ctx) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    rc = tpl_render("report.html.tpl", text, ctx, NULL, NULL, out, err, errlen);
    tpl_free(ctx);
    return rc;
}
