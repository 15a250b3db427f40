/* models.c — see models.h. */
#include "models.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline.h"
#include "random_robot.h"

int frame_index(const cdyn_model *m, const char *name)
{
    for (int k = 0; k < m->nframes; ++k)
        if (m->frames[k].name && !strcmp(m->frames[k].name, name))
            return k;
    return -1;
}

int frame_named(const cdyn_model *m, const char *name)
{
    const int k = frame_index(m, name);
    if (k < 0)
        ck_abort_msg("no frame %s in %s", name, m->name);
    return k;
}

void load_sample(const char *file, int floating, model_table *mt)
{
    char path[1024], err[512] = "";
    snprintf(path, sizeof path, "%s/robots/%s", CDYN_SOURCE_DIR, file);
    ck_assert_msg(model_table_load(path, floating, mt, err, sizeof err) == 0, "%s", err);
}

char *random_robot_tree(unsigned seed, const char *name, urdf_model *u, kin_tree *t, int *floating)
{
    char err[512] = "";
    tree_options opt = { 0 };
    char *text = random_robot_urdf(seed, floating);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(urdf_parse_memory(text, strlen(text), name, u, err, sizeof err) == 0,
                  "seed %u: %s", seed, err);
    opt.floating_base = *floating;
    ck_assert_msg(pipeline_tree(u, &opt, t, err, sizeof err) == 0, "seed %u: %s", seed, err);
    return text;
}

void random_model_open(random_model *r, unsigned seed)
{
    int floating = 0;
    r->text = random_robot_tree(seed, "random.urdf", &r->u, &r->t, &floating);
    ck_assert_int_eq(model_table_from_tree(&r->t, &r->mt), 0);
}

void random_model_close(random_model *r)
{
    model_table_free(&r->mt);
    tree_free(&r->t);
    urdf_free(&r->u);
    free(r->text);
}
