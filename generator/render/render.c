/* render.c — render_robot: which files a robot's folder gets, each from which template,
 * in order, all filled from one context (context.c). */
#include "render/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/context.h"
#include "render/embedded.h"
#include "render/template.h"

/* The files in the order they are written: a template and the path made from the robot's
 * name. The batch forms are written only with --batch, NAME.py only with --python. */
static const struct {
    const char *template_name, *path;
    int batch, python;
} robot_files[] = {
    { "robot.h.tpl", "%s.h", 0, 0 },
    { "robot.c.tpl", "%s.c", 0, 0 }, /* robot_size.c.tpl with --size */
    { "model.h.tpl", "%s_model.h", 0, 0 },
    { "model.c.tpl", "%s_model.c", 0, 0 },
    { "CMakeLists.txt.tpl", "CMakeLists.txt", 0, 0 },
    { "cdyn_scalar.h.tpl", "cdyn_scalar.h", 0, 0 },
    { "robot_batch.h.tpl", "%s_batch.h", 1, 0 },
    { "robot_batch.c.tpl", "%s_batch.c", 1, 0 },
    { "robot.py.tpl", "%s.py", 0, 1 },
};
#define NROBOT_FILES ((int)(sizeof robot_files / sizeof robot_files[0]))

/* The templates are built into the binary (embed.cmake); includes come from there too. */
static int load_template(void *ctx, const char *name, const char **text)
{
    char path[256];
    (void)ctx;
    snprintf(path, sizeof path, "templates/%s", name);
    *text = embedded_text(path);
    return *text ? 0 : -1;
}

/* Renders template tpl into out's next file, at path_fmt with the robot's name. */
static int render_file_from(const char *tpl, const char *path_fmt, const char *name,
                            const tpl_value *ctx, render_output *out, char *err, size_t errlen)
{
    const char *text;
    char path[256], *content = NULL;
    render_file *f;
    if (load_template(NULL, tpl, &text) != 0) {
        snprintf(err, errlen, "template \"%s\" is not built in", tpl);
        return -1;
    }
    if (tpl_render(tpl, text, ctx, load_template, NULL, &content, err, errlen) != 0)
        return -1;
    snprintf(path, sizeof path, path_fmt, name);
    f = &out->files[out->nfiles];
    f->path = malloc(strlen(path) + 1);
    if (!f->path) {
        free(content);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    strcpy(f->path, path);
    f->content = content;
    out->nfiles++;
    return 0;
}

int render_robot(const kin_tree *t, const render_options *o, render_output *out, char *err,
                 size_t errlen)
{
    const int batch = o->batch != 0 && !o->size;
    tpl_value *ctx;
    int i, rc = 0;
    out->files = calloc((size_t)NROBOT_FILES, sizeof *out->files);
    out->nfiles = 0;
    if (!out->files) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    rc = context_build(t, o, &ctx);
    if (rc != 0) {
        render_output_free(out);
        snprintf(err, errlen, "%s", rc == RENDER_TOO_BIG ? "the generated code is too big"
                                                         : "out of memory while emitting code");
        return rc;
    }
    for (i = 0; i < NROBOT_FILES && rc == 0; i++) {
        const char *tpl = robot_files[i].template_name;
        if ((robot_files[i].batch && !batch) || (robot_files[i].python && !o->python))
            continue;
        if (o->size && strcmp(tpl, "robot.c.tpl") == 0)
            tpl = "robot_size.c.tpl";
        rc = render_file_from(tpl, robot_files[i].path, o->name, ctx, out, err, errlen);
    }
    tpl_free(ctx);
    if (rc != 0)
        render_output_free(out);
    return rc;
}

void render_output_free(render_output *out)
{
    int i;
    for (i = 0; i < out->nfiles; i++) {
        free(out->files[i].path);
        free(out->files[i].content);
    }
    free(out->files);
    out->files = NULL;
    out->nfiles = 0;
}
