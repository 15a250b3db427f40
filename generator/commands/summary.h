/* summary.h — what the generator understood, as text: `cdyngen --summary`. */
#ifndef CDYNGEN_SUMMARY_H
#define CDYNGEN_SUMMARY_H

#include <stddef.h>
#include "commands/cli.h"
#include "model/tree.h"

/* Why a set with a loop gets proxLTL and proxLTLs only. */
#define SUMMARY_LOOP_NOTE                                                                          \
    "constrained_aba and prox_pv are not generated: they eliminate the "                           \
    "tree from the leaves, which takes constraints between a body and the world (contacts); "      \
    "a loop ties two branches together"

const char *summary_kind_name(tree_joint_kind k);
/* A body's joint axis: "+z", "-x", "(0.6 0 0.8)", or "-" for a free flyer. */
void summary_axis_text(const tree_body *b, char *s, size_t n);
/* Joints in order, frames, sizes, sparsity, constraints and op counts on stdout. */
void summary_print(const robot_options *o, const kin_tree *t);

#endif
