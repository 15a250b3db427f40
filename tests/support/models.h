/* models.h — the robots the suites run on, loaded the one way every suite loads them:
 * the sample robots of robots/ and the seeded random robots (random_robot.h) through the
 * generator's own pipeline (parse, pipeline_tree, model table), and frames found by name.
 * Failures abort the running Check test with the library's message. */
#ifndef CDYN_TESTS_MODELS_H
#define CDYN_TESTS_MODELS_H

#include "cdyn.h"
#include "model/model_table.h"
#include "model/tree.h"
#include "parse/urdf.h"

/* The index of the frame called `name` in m, or -1. */
int frame_index(const cdyn_model *m, const char *name);
/* The same, failing the test when there is none. */
int frame_named(const cdyn_model *m, const char *name);

/* robots/<file> (CDYN_SOURCE_DIR) as a generic model table, with a free-flyer root when
 * `floating`; model_table_free() it. */
void load_sample(const char *file, int floating, model_table *mt);

/* The random robot of `seed` parsed (as a file called `name` in messages) and built with
 * pipeline_tree, the free-flyer root as the seed asks (*floating); returns its URDF text
 * (free() it, with urdf_free and tree_free). */
char *random_robot_tree(unsigned seed, const char *name, urdf_model *u, kin_tree *t, int *floating);

/* A random robot through to its generic model table (mt.model). */
typedef struct {
    urdf_model u;
    kin_tree t;
    model_table mt;
    char *text;
} random_model;

/* Seed `seed`, parsed as "random.urdf". */
void random_model_open(random_model *r, unsigned seed);
void random_model_close(random_model *r);

#endif
