/* simulate_files.c — sim_robot.h, the robot's names and contacts for the simulation program. */
#include <stdio.h>
#include <stdlib.h>
#include "commands/simulate_files.h"
#include "render/render.h"
#include "util/ebuf.h"

int simulate_contacts(const kin_tree *t)
{
    int k, n = 0;
    for (k = 0; k < t->nconstraints; k++)
        n += t->constraints[k].friction;
    return n;
}

/* One name, as a C string: the joint's name with a suffix. */
static void put_name(ebuf *b, const char *name, const char *suffix)
{
    char text[1024];
    char *c;
    snprintf(text, sizeof text, "%s%s", name, suffix);
    c = render_string_text(text);
    ebuf_printf(b, "    \"%s\",\n", c ? c : "?");
    free(c);
}

/* Each coordinate of q (velocity: of v) named after its joint; a free-flyer is "base". */
static void put_names(ebuf *b, const kin_tree *t, int velocity)
{
    static const char *const ff_q[7] = { "_x", "_y", "_z", "_qx", "_qy", "_qz", "_qw" };
    static const char *const ff_v[6] = { "_vx", "_vy", "_vz", "_wx", "_wy", "_wz" };
    static const char *const pl_q[4] = { "_x", "_y", "_cos", "_sin" };
    static const char *const pl_v[3] = { "_vx", "_vy", "_wz" };
    static const char *const un_q[2] = { "_cos", "_sin" };
    int i, k;
    for (i = 0; i < t->nbodies; i++) {
        const tree_body *j = &t->bodies[i];
        const int n = velocity ? j->nv : j->nq;
        const char *const *suffix = NULL;
        if (j->kind == TREE_FREEFLYER)
            suffix = velocity ? ff_v : ff_q;
        else if (j->kind == TREE_PLANAR)
            suffix = velocity ? pl_v : pl_q;
        else if (j->kind == TREE_REVOLUTE_UNBOUNDED && !velocity)
            suffix = un_q;
        for (k = 0; k < n; k++)
            put_name(b, j->kind == TREE_FREEFLYER ? "base" : j->joint_name,
                     suffix ? suffix[k] : "");
    }
}

static void put_contacts(ebuf *b, const kin_tree *t)
{
    int k;
    ebuf_puts(b, "static const int sim_contact_frame[] = {");
    for (k = 0; k < t->nconstraints; k++)
        if (t->constraints[k].friction)
            ebuf_printf(b, " %d,", t->constraints[k].frame_a);
    ebuf_puts(b, " -1 };\nstatic const int sim_contact_row[] = {");
    for (k = 0; k < t->nconstraints; k++)
        if (t->constraints[k].friction)
            ebuf_printf(b, " %d,", t->constraints[k].row);
    ebuf_puts(b, " -1 };\nstatic const char *const sim_contact_names[] = {\n");
    for (k = 0; k < t->nconstraints; k++)
        if (t->constraints[k].friction)
            put_name(b, t->frames[t->constraints[k].frame_a].name, "");
    ebuf_puts(b, "    0\n};\n");
}

char *simulate_robot_header(const kin_tree *t, const char *urdf, int svg, int html)
{
    ebuf b = { 0, 0, 0, 0 };
    char *file = render_string_text(urdf);
    /* a free-flyer is the first joint when there is one: its z is q[2] */
    const int base_z = t->floating && t->bodies[0].kind == TREE_FREEFLYER ? 2 : -1;
    ebuf_puts(&b, "/* sim_robot.h — written by cdyngen simulate: the robot's names and "
                  "contacts. */\n#ifndef SIM_ROBOT_H\n#define SIM_ROBOT_H\n");
    ebuf_printf(&b, "#define SIM_NCONTACTS %d\n#define SIM_BASE_Z %d\n", simulate_contacts(t),
                base_z);
    ebuf_printf(&b, "#define SIM_HAS_SVG %d\n#define SIM_HAS_HTML %d\n", svg, html);
    ebuf_printf(&b, "static const char sim_urdf[] = \"%s\";\n", file ? file : "?");
    ebuf_puts(&b, "static const char *const sim_q_names[] = {\n");
    put_names(&b, t, 0);
    ebuf_puts(&b, "    0\n};\nstatic const char *const sim_v_names[] = {\n");
    put_names(&b, t, 1);
    ebuf_puts(&b, "    0\n};\n");
    put_contacts(&b, t);
    ebuf_puts(&b, "#endif\n");
    free(file);
    if (!file || b.oom) {
        ebuf_free(&b);
        return NULL;
    }
    return ebuf_take(&b);
}
