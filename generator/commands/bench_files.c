/* bench_files.c — the benchmark harness's per-robot files. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/bench_files.h"
#include "symbolic/expr.h"
#include "render/render.h"

#define BENCH_MAX_COUNTS 32 /* as harness/bench.h */

char *bench_fill(const char *text, const char *name)
{
    char upper[256];
    ebuf b = { 0, 0, 0, 0 };
    size_t k;
    for (k = 0; name[k] && k + 1 < sizeof upper; k++)
        upper[k] = (char)toupper((unsigned char)name[k]);
    upper[k] = '\0';
    ebuf_puts(&b, "");
    while (*text) {
        if (strncmp(text, "@NAME@", 6) == 0) {
            ebuf_puts(&b, name);
            text += 6;
        } else if (strncmp(text, "@NAME_UPPER@", 12) == 0) {
            ebuf_puts(&b, upper);
            text += 12;
        } else {
            const size_t run = strcspn(text + 1, "@") + 1;
            ebuf_printf(&b, "%.*s", (int)run, text);
            text += run;
        }
    }
    if (b.oom) {
        ebuf_free(&b);
        return NULL;
    }
    return ebuf_take(&b);
}

/* The "jacobian" count for another frame. */
static int recount_jacobian(const kin_tree *t, int frame, emit_count *counts, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (strcmp(counts[i].algorithm, "jacobian") == 0)
            return render_jacobian_count(t, frame, &counts[i]);
    return -1;
}

int bench_timed_frame(const kin_tree *t, const char *frame_wanted)
{
    return frame_wanted ? tree_find_frame(t, frame_wanted) : render_counted_jacobian_frame(t);
}

char *bench_ops_text(const kin_tree *t, const char *name, const char *urdf,
                     const char *frame_wanted, int counted, char *err, size_t errlen)
{
    emit_count counts[BENCH_MAX_COUNTS];
    const int n = counted ? render_op_counts(t, counts, BENCH_MAX_COUNTS) : 0;
    const int frame = bench_timed_frame(t, frame_wanted);
    char *frame_name, *banner;
    ebuf b = { 0, 0, 0, 0 };
    int i;
    if (frame_wanted && (frame < 0 || t->frames[frame].body < 0)) {
        snprintf(err, errlen, "%s: no moving frame \"%s\" to time the Jacobian of", urdf,
                 frame_wanted);
        return NULL;
    }
    if (n < 0 || (frame_wanted && counted && recount_jacobian(t, frame, counts, n) != 0)) {
        snprintf(err, errlen, "%s: cannot count the emitted operations", urdf);
        return NULL;
    }
    frame_name = render_string_text(frame >= 0 ? t->frames[frame].name : "");
    banner = render_comment_text(urdf);
    if (frame_name && banner) {
        ebuf_printf(&b, "/* Emitted op counts of %s (cdyngen). */\n", banner);
        ebuf_printf(&b, "#include \"bench.h\"\n\nconst bench_ops %s_bench_ops = {\n", name);
        ebuf_printf(&b, "    \"%s\", %d, {\n", frame_name, n);
        for (i = 0; i < n; i++)
            ebuf_printf(&b, "        {\"%s\", %ld, %ld},\n", counts[i].algorithm, counts[i].mul,
                        counts[i].add);
        ebuf_puts(&b, "    }\n};\n");
    }
    free(frame_name);
    free(banner);
    if (!frame_name || !banner || b.oom) {
        ebuf_free(&b);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return ebuf_take(&b);
}
