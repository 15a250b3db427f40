/* constraints.h — stage 2b: the constraint set chosen at generation time, on the tree.
 *
 * Each --contact FRAME:3d|6d or --loop A:B:3d|6d becomes a tree_constraint with its rows in
 * the stacked lambda and its support: the DoFs on the chain from its frame's body (both
 * frames' bodies for a loop) to the root. Only those columns of J are nonzero, and the
 * support decides the sparsity of everything the proximal solvers factorise:
 *   - B = D^-1 L^-T J^T has the pattern of J^T (L^-T keeps a vector on an ancestor-closed
 *     set of DoFs, and a support is one);
 *   - G = J M^-1 J^T = B^T D B couples two rows only when their supports meet (two feet of a
 *     fixed-base robot share nothing, two feet of a floating one share the base);
 *   - the L^T D L factor of G + mu I fills in along those couplings. */
#ifndef CDYNGEN_CONSTRAINTS_H
#define CDYNGEN_CONSTRAINTS_H

#include <stddef.h>
#include "model/tree.h"

typedef struct {
    const char *frame_a;
    const char *frame_b; /* NULL for a contact */
    int dim;             /* 3 or 6 */
    int friction;        /* FRAME:friction, a unilateral contact with Coulomb friction (3d) */
} constraint_spec;

/* Parses FRAME:3d|6d|friction (a contact) or A:B:3d|6d (is_loop), splitting a copy in text (of n
 * bytes, which the spec's names then point into). Returns 0, or -1 when malformed. */
int constraint_spec_parse(constraint_spec *s, const char *arg, int is_loop, char *text, size_t n);

/* Adds the set to t (replacing any). On a bad constraint (no such frame, a contact on a
 * frame fixed to the world, a loop within one rigid body, a loop between two world-fixed
 * frames) returns -1 with "file: --contact X: reason" in err; -1 "out of memory" too. */
int tree_add_constraints(kin_tree *t, const constraint_spec *specs, int n, const char *file,
                         char *err, size_t errlen);

/* Index of J(row, dof) in the compact J (and B), or -1 when the DoF does not support the
 * row's constraint. */
int tree_constraint_index(const kin_tree *t, int row, int dof);
/* The constraint that owns a row. */
int tree_constraint_of_row(const kin_tree *t, int row);
/* 1 if rows r and s (r >= s) of G + mu I's L^T D L factor are structurally nonzero, as a
 * (nc x nc, row-major, lower triangle and diagonal) byte pattern; returns its nonzeros, or
 * -1 when out of memory. pattern may be NULL to count only. */
long tree_constraint_factor_pattern(const kin_tree *t, unsigned char *pattern);
/* The same for M + rho J^T J (proxLTLs), nv x nv: M's tree pattern, every pair of DoFs of
 * one constraint's support, and the fill of its L^T D L. A contact's support is one chain
 * to the root, whose pairs the tree pattern has already: the pattern is M's. A loop's two
 * chains couple DoFs of different branches, and eliminating them fills in towards the
 * root. Returns the nonzeros (lower triangle and diagonal), -1 when out of memory. */
/* The bodies whose joint has position limits the contact step can hold (one coordinate:
 * revolute or prismatic, with lower < upper), ascending, into bodies (may be NULL);
 * returns how many. */
int tree_limited_joints(const kin_tree *t, int *bodies);

/* 1 if the set is not empty and all contacts (what constrainedABA and proxPV take). */
int tree_contacts_only(const kin_tree *t);
long tree_augmented_pattern(const kin_tree *t, unsigned char *pattern);

#endif
