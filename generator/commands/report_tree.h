/* report_tree.h — the kinematic tree of `cdyngen report` as an inline SVG, laid out here. */
#ifndef CDYNGEN_REPORT_TREE_H
#define CDYNGEN_REPORT_TREE_H

#include "symbolic/expr.h"
#include "model/tree.h"

/* Appends <svg id="tree" data-nodes="N">: a "world" node and one node per body (class
 * "node" each, N in all), with their frames, contacts and loops. Returns 0, or -1 when out
 * of memory (b->oom set). */
int report_tree_svg(ebuf *b, const kin_tree *t);

#endif
