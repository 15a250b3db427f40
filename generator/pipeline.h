/* pipeline.h — cdyngen's stages in order, as one call each:
 *
 *   parse/     URDF text -> urdf_model                       (urdf.h)
 *   model/     urdf_model -> kin_tree: bodies, frames, sparsity, constraint set
 *   check/     the tree's numbers, inertias and M usable; later the rendered text
 *   symbolic/  scalar expressions folded as they are built  (used by emit/)
 *   emit/      each algorithm's arithmetic for this robot
 *   render/    the emitters' programs placed in the templates
 *   write/     the files written into a folder, all or nothing
 *
 * Each stage includes only the stages above it in this list (and util/); commands/ (the
 * command line, bench, report, summary) sits on top and calls the pipeline. The test
 * generator_layering holds the rule. So a change to how ABA is emitted goes in
 * emit/emit_aba.c and may use symbolic/, model/ and util/; a new check goes in check/ and
 * is called from pipeline.c; a new generated file is a template and a line of render.c.
 * docs/architecture.md walks through each folder. */
#ifndef CDYNGEN_PIPELINE_H
#define CDYNGEN_PIPELINE_H

#include <stddef.h>
#include "model/constraints.h"
#include "model/tree.h"
#include "parse/urdf.h"
#include "util/prefix.h"

#define EXIT_INPUT 1 /* bad input: the URDF, a frame name */
#define EXIT_USAGE 2 /* bad usage */
#define ROBOT_MAX_CONSTRAINTS 64

/* The rendered code is refused above this size (docs/security.md). */
#define PIPELINE_MAX_OUTPUT_BYTES (128 << 20)

typedef struct {
    constraint_spec spec; /* frame_b NULL for a contact */
    char text[512];       /* the argument, split in place */
} constraint_arg;

/* What decides the generated code: the URDF and the generation options. */
typedef struct {
    const char *urdf, *name;
    char default_name[PREFIX_MAX + 8]; /* the prefix taken from the file name */
    int floating_base, scalar_float;
    int strict;          /* --strict: warnings are errors */
    int massless_ignore; /* --massless-links ignore: a singular M is accepted */
    int python;          /* --python: also NAME.py (cdyngen -o only) */
    int size;            /* --size: NAME.c calls the generic runtime */
    int joint_limits;    /* --joint-limits: the contact step holds the URDF's position limits */
    int batch;           /* --batch W: also the W-lane forms (-1: native); 0 none */
    constraint_arg constraints[ROBOT_MAX_CONSTRAINTS];
    int nconstraints;
} robot_options;

/* `cdyngen ROBOT.urdf -o DIR` is pipeline_load, then pipeline_write (main.c).
 *
 * The stages up to the checked tree with its constraint set (parse, model, check), warnings
 * and notes printed as they come: 0 with *t built (tree_free it), or EXIT_INPUT, reported. */
int pipeline_load(const robot_options *o, kin_tree *t);

/* The stages after it (render, check the text, write): the files (robot, model table,
 * runtime, CMakeLists.txt, the Python module with o->python) written into out_dir all or
 * nothing (write/output.h). 0, or EXIT_INPUT with the reason reported. */
int pipeline_write(const robot_options *o, const kin_tree *t, const char *out_dir, int force);

/* The model stage and the inertia check on an already parsed file, for callers that hold
 * a urdf_model (tests, fuzzers): tree_build, then inertia_check. 0, or -1 with err. */
int pipeline_tree(const urdf_model *u, const tree_options *opt, kin_tree *t, char *err,
                  size_t errlen);

/* The options as a command line ("--name arm7 --scalar double --contact tool:3d"). */
void pipeline_options_text(const robot_options *o, char *buf, size_t len);

#endif
