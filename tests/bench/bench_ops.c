/* bench_ops — build-time helper of the benchmark: writes a C file with the emitted
 * operation counts of a robot (render_op_counts) and the frame whose Jacobian is counted.
 *
 *   bench_ops ROBOT.urdf OUT.c NAME [--floating-base] [--frame FRAME]
 *
 * The Jacobian is of FRAME when given, else of the frame render_op_counts counts.
 *
 * A separate program so that the benchmark itself links only the -O3 runtime, not the
 * generator library (which brings the project's cdyn_runtime). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/bench_files.h"
#include "model/constraints.h"
#include "model/tree.h"
#include "pipeline.h"
#include "parse/urdf.h"

static int write_ops(FILE *out, const kin_tree *t, const char *name, const char *urdf,
                     const char *frame_wanted)
{
    char err[512];
    char *text = bench_ops_text(t, name, urdf, frame_wanted, 1, err, sizeof err);
    if (!text) {
        fprintf(stderr, "bench_ops: %s\n", err);
        return -1;
    }
    fputs(text, out);
    free(text);
    return 0;
}

int main(int argc, char **argv)
{
    char err[512];
    urdf_model u;
    kin_tree t;
    tree_options opt = { 0 };
    FILE *out;
    int rc;
    const char *frame = NULL;
    constraint_spec specs[64];
    char texts[64][512];
    int a, ncon = 0;
    if (argc < 4) {
        fprintf(stderr, "usage: bench_ops ROBOT.urdf OUT.c NAME [--floating-base] [--frame F] "
                        "[--contact C]... [--loop L]...\n");
        return 2;
    }
    for (a = 4; a < argc; a++) {
        if (strcmp(argv[a], "--floating-base") == 0) {
            opt.floating_base = 1;
        } else if (strcmp(argv[a], "--frame") == 0 && a + 1 < argc) {
            frame = argv[++a];
        } else if ((strcmp(argv[a], "--contact") == 0 || strcmp(argv[a], "--loop") == 0) &&
                   a + 1 < argc && ncon < 64) {
            int is_loop = strcmp(argv[a], "--loop") == 0;
            if (constraint_spec_parse(&specs[ncon], argv[a + 1], is_loop, texts[ncon],
                                      sizeof texts[ncon]) != 0) {
                fprintf(stderr, "bench_ops: bad constraint \"%s\"\n", argv[a + 1]);
                return 2;
            }
            ncon++;
            a++;
        } else {
            fprintf(stderr, "bench_ops: unknown argument \"%s\"\n", argv[a]);
            return 2;
        }
    }
    if (urdf_parse_file(argv[1], &u, err, sizeof err) != 0) {
        fprintf(stderr, "bench_ops: %s\n", err);
        return 1;
    }
    rc = pipeline_tree(&u, &opt, &t, err, sizeof err);
    urdf_free(&u);
    if (rc == 0 && ncon > 0 &&
        tree_add_constraints(&t, specs, ncon, argv[1], err, sizeof err) != 0) {
        tree_free(&t);
        rc = -1;
    }
    if (rc != 0) {
        fprintf(stderr, "bench_ops: %s\n", err);
        return 1;
    }
    out = fopen(argv[2], "w");
    rc = out ? write_ops(out, &t, argv[3], argv[1], frame) : -1;
    if (out && fclose(out) != 0)
        rc = -1;
    tree_free(&t);
    if (rc != 0) {
        fprintf(stderr, "bench_ops: cannot write %s\n", argv[2]);
        remove(argv[2]);
        return 1;
    }
    return 0;
}
