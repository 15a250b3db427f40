/* simulate_files.h — the per-robot file of `cdyngen simulate`'s program: sim_robot.h, what
 * the model table does not say (the coordinates' names, the frictional contacts, where the
 * base height is in q) and which writers are compiled in. */
#ifndef CDYNGEN_SIMULATE_FILES_H
#define CDYNGEN_SIMULATE_FILES_H

#include "model/tree.h"

/* The frictional contacts of t's set. */
int simulate_contacts(const kin_tree *t);

/* The text of sim_robot.h for t (urdf: the file's name, for titles; svg, html: the writers
 * are compiled in); malloc'd, NULL when out of memory. */
char *simulate_robot_header(const kin_tree *t, const char *urdf, int svg, int html);

#endif
