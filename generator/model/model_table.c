/* model_table.c — the kinematic tree as the generic runtime's cdyn_model table. */
#include <stdlib.h>
#include <string.h>
#include "model/model_table.h"
#include "parse/urdf.h"
#include "util/text.h"

static void copy3(cdyn_real *dst, const double *src, int n)
{
    int i;
    for (i = 0; i < n; i++)
        dst[i] = (cdyn_real)src[i];
}

static void fill_body(cdyn_body *dst, const tree_body *src)
{
    dst->type = (cdyn_joint_type)src->kind;
    dst->parent = src->parent;
    dst->idx_q = src->idx_q;
    dst->nq = src->nq;
    dst->idx_v = src->idx_v;
    dst->nv = src->nv;
    copy3(dst->axis, src->axis, 3);
    copy3(dst->R, src->R, 9);
    copy3(dst->p, src->p, 3);
    dst->mass = (cdyn_real)src->mass;
    copy3(dst->com, src->com, 3);
    copy3(dst->inertia, src->inertia, 6);
}

int model_table_from_tree(const kin_tree *t, model_table *out)
{
    int i, nv = t->nv > 0 ? t->nv : 1;
    memset(out, 0, sizeof *out);
    out->bodies = calloc((size_t)(t->nbodies > 0 ? t->nbodies : 1), sizeof *out->bodies);
    out->frames = calloc((size_t)(t->nframes > 0 ? t->nframes : 1), sizeof *out->frames);
    out->dof_parent = malloc((size_t)nv * sizeof(int));
    out->dof_body = malloc((size_t)nv * sizeof(int));
    if (!out->bodies || !out->frames || !out->dof_parent || !out->dof_body) {
        model_table_free(out);
        return -1;
    }
    out->model.nframes = t->nframes; /* first: model_table_free reads it */
    for (i = 0; i < t->nbodies; i++)
        fill_body(&out->bodies[i], &t->bodies[i]);
    for (i = 0; i < t->nframes; i++) {
        if (!(out->frames[i].name = text_dup(t->frames[i].name))) {
            model_table_free(out);
            return -1;
        }
        out->frames[i].body = t->frames[i].body;
        copy3(out->frames[i].R, t->frames[i].R, 9);
        copy3(out->frames[i].p, t->frames[i].p, 3);
    }
    memcpy(out->dof_parent, t->dof_parent, (size_t)t->nv * sizeof(int));
    memcpy(out->dof_body, t->dof_body, (size_t)t->nv * sizeof(int));
    if (!(out->model.name = text_dup(t->name))) {
        model_table_free(out);
        return -1;
    }
    out->model.nbodies = t->nbodies;
    out->model.nq = t->nq;
    out->model.nv = t->nv;
    out->model.bodies = out->bodies;
    out->model.frames = out->frames;
    out->model.dof_parent = out->dof_parent;
    out->model.dof_body = out->dof_body;
    copy3(out->model.gravity, t->gravity, 3);
    return 0;
}

void model_table_free(model_table *mt)
{
    int i;
    for (i = 0; mt->frames && i < mt->model.nframes; i++)
        free((char *)mt->frames[i].name);
    free((char *)mt->model.name);
    free(mt->bodies);
    free(mt->frames);
    free(mt->dof_parent);
    free(mt->dof_body);
    memset(mt, 0, sizeof *mt);
}

int model_table_load(const char *urdf_path, int floating_base, model_table *out, char *err,
                     size_t errlen)
{
    urdf_model u;
    kin_tree t;
    tree_options opt = { 0 };
    int rc;
    memset(out, 0, sizeof *out);
    if (urdf_parse_file(urdf_path, &u, err, errlen) < 0)
        return -1;
    opt.floating_base = floating_base;
    rc = tree_build(&u, &opt, &t, err, errlen);
    urdf_free(&u);
    if (rc < 0)
        return -1;
    rc = model_table_from_tree(&t, out);
    tree_free(&t);
    if (rc < 0)
        snprintf(err, errlen, "%s: out of memory", urdf_path);
    return rc;
}
