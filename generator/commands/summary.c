/* summary.c — what the generator understood, as text: `cdyngen --summary`. */
#include <stdio.h>
#include "render/render.h"
#include "util/text.h"
#include "commands/summary.h"
#include "check/validate.h"

const char *summary_kind_name(tree_joint_kind k)
{
    static const char *names[] = { "revolute", "continuous", "prismatic", "planar", "free-flyer" };
    return names[k];
}

void summary_axis_text(const tree_body *b, char *s, size_t n)
{
    if (b->kind == TREE_FREEFLYER)
        snprintf(s, n, "-");
    else if (b->axis_index >= 0)
        snprintf(s, n, "%c%c", b->axis_sign > 0 ? '+' : '-', "xyz"[b->axis_index]);
    else
        snprintf(s, n, "(%.6g %.6g %.6g)", b->axis[0], b->axis[1], b->axis[2]);
}

/* Each constraint's rows and support, and the nonzeros of the KKT factor. */
static void print_constraints(const kin_tree *t)
{
    long nnz_G = t->nconstraints ? tree_constraint_factor_pattern(t, NULL) : 0;
    int i, k;
    if (t->nconstraints == 0)
        return;
    printf("constraints: %d, dimension %d (rows of J and lambda)\n", t->nconstraints, t->nc);
    for (i = 0; i < t->nconstraints; i++) {
        const tree_constraint *c = &t->constraints[i];
        if (c->is_loop)
            printf("  loop %dD %s - %s", c->dim, t->frames[c->frame_a].name,
                   t->frames[c->frame_b].name);
        else if (c->friction)
            printf("  contact with friction (unilateral in the step) %s", t->frames[c->frame_a].name);
        else
            printf("  contact %dD %s", c->dim, t->frames[c->frame_a].name);
        printf(", rows %d..%d, supported by %d DoFs:", c->row, c->row + c->dim - 1, c->nsupport);
        for (k = 0; k < c->nsupport; k++)
            printf(" %d", c->support[k]);
        printf("\n");
    }
    printf("KKT factor of [[-mu I, J], [J^T, M]] (constraints first) nonzeros: %ld "
           "(M's factor %d, J block %d, constraint block %ld of %d)\n",
           (long)t->nnz_L + t->nnz_J + nnz_G, t->nnz_L, t->nnz_J, nnz_G, t->nc * (t->nc + 1) / 2);
    printf("M + J^T J / mu factor (proxLTLs) nonzeros: %ld (M's factor %d)\n",
           tree_augmented_pattern(t, NULL), t->nnz_L);
    printf("solvers: prox_ltl, prox_ltls%s, delassus, impulse\n",
           tree_contacts_only(t) ? ", constrained_aba, prox_pv" : "");
    if (!tree_contacts_only(t))
        printf("  (%s)\n", SUMMARY_LOOP_NOTE);
}

/* The contact step: what takes part (docs/contact.md). */
static void print_contact_step(const kin_tree *t)
{
    int bodies[TREE_MAX_DOFS], n = t->joint_limits ? tree_limited_joints(t, bodies) : 0, i;
    if ((t->nconstraints == 0 && n == 0) || t->m_singular)
        return;
    printf("contact step: %d constraint rows", t->nc);
    if (t->joint_limits)
        printf(", %d joint limits (2 rows each):", n);
    for (i = 0; i < n; i++)
        printf(" %s", t->bodies[bodies[i]].joint_name);
    printf("\n");
}

void summary_print(const robot_options *o, const kin_tree *t)
{
    emit_count counts[32];
    int i, n;
    printf("robot %s from %s, %s base\n", t->name, text_base_name(o->urdf),
           t->floating ? "floating (free-flyer)" : "fixed");
    printf("nq %d  nv %d  bodies %d  frames %d  depth %d\n", t->nq, t->nv, t->nbodies, t->nframes,
           t->max_depth);
    printf("nonzeros: M %d of %d, LTL factor %d of %d\n", t->nnz_M, t->nv * t->nv, t->nnz_L,
           t->nv * (t->nv + 1) / 2);
    printf("joints, in order:\n");
    printf("  %3s  %-32s %-11s %-22s %-32s %4s %4s\n", "id", "joint", "type", "axis", "parent", "q",
           "v");
    for (i = 0; i < t->nbodies; i++) {
        const tree_body *b = &t->bodies[i];
        char axis[64];
        summary_axis_text(b, axis, sizeof axis);
        printf("  %3d  %-32s %-11s %-22s %-32s %4d %4d\n", i + 1, b->joint_name,
               summary_kind_name(b->kind), axis,
               b->parent < 0 ? "world" : t->bodies[b->parent].joint_name, b->idx_q, b->idx_v);
    }
    printf("frames (URDF links):\n");
    for (i = 0; i < t->nframes; i++)
        printf("  %-40s on %s\n", t->frames[i].name,
               t->frames[i].body < 0 ? "world" : t->bodies[t->frames[i].body].joint_name);
    print_constraints(t);
    print_contact_step(t);
    n = render_op_counts(t, counts, (int)(sizeof counts / sizeof counts[0]));
    if (n > 0) {
        printf("emitted operations:\n  %-21s %8s %8s %6s %6s %7s\n", "algorithm", "mul", "add",
               "div", "sqrt", "sincos");
        for (i = 0; i < n; i++)
            printf("  %-21s %8ld %8ld %6ld %6ld %7ld\n", counts[i].algorithm, counts[i].mul,
                   counts[i].add, counts[i].div, counts[i].sqrt, counts[i].sincos);
    }
    if (t->m_singular) {
        char why[512];
        validate_singular_text(t, t->singular_body, why, sizeof why);
        printf("left out (--massless-links ignore): ltl, ltl_solve, ltl_factor, minv, aba: "
               "M is singular: %s\n",
               why);
    }
}
